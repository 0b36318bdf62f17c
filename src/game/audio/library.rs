//! The shipped sounds (`assets/sounds/`, `assets/music/`), built into the binary so the game
//! plays from any folder, and the sounds a mod ships (`sounds/<name>.ogg`).

/// `(name, the bytes of assets/<folder>/<name>.ogg)`.
macro_rules! sound {
    ($folder:literal, $name:literal) => {
        ($name, include_bytes!(concat!("../../../assets/", $folder, "/", $name, ".ogg")).as_slice())
    };
}

/// Every shipped sound effect and stinger, as `xtask sounds` extracts them (`xtask/sounds.txt`).
pub const SOUND_BYTES: &[(&str, &[u8])] = &[
    sound!("sounds", "arrow_miss"),
    sound!("sounds", "bow_shot_1"),
    sound!("sounds", "bow_shot_2"),
    sound!("sounds", "cast"),
    sound!("sounds", "cast_failed"),
    sound!("sounds", "cast_fire"),
    sound!("sounds", "critical"),
    sound!("sounds", "death_cry"),
    sound!("sounds", "defeat"),
    sound!("sounds", "flee"),
    sound!("sounds", "fumble"),
    sound!("sounds", "heal"),
    sound!("sounds", "hit_acid"),
    sound!("sounds", "hit_blunt_1"),
    sound!("sounds", "hit_blunt_2"),
    sound!("sounds", "hit_chop"),
    sound!("sounds", "hit_cold"),
    sound!("sounds", "hit_electric"),
    sound!("sounds", "hit_fire"),
    sound!("sounds", "hit_pierce_1"),
    sound!("sounds", "hit_pierce_2"),
    sound!("sounds", "hit_poison"),
    sound!("sounds", "hit_slash_1"),
    sound!("sounds", "hit_slash_2"),
    sound!("sounds", "hit_sonic"),
    sound!("sounds", "hurt_cry_1"),
    sound!("sounds", "hurt_cry_2"),
    sound!("sounds", "prone"),
    sound!("sounds", "shield_block"),
    sound!("sounds", "shock"),
    sound!("sounds", "step_1"),
    sound!("sounds", "step_2"),
    sound!("sounds", "step_3"),
    sound!("sounds", "surrender"),
    sound!("sounds", "swing_1"),
    sound!("sounds", "swing_2"),
    sound!("sounds", "swing_3"),
    sound!("sounds", "throw"),
    sound!("sounds", "ui_cancel"),
    sound!("sounds", "ui_confirm"),
    sound!("sounds", "ui_refused"),
    sound!("sounds", "ui_select"),
    sound!("sounds", "ui_your_turn"),
    sound!("sounds", "victory"),
    sound!("sounds", "war_cry"),
    sound!("sounds", "weapon_broken"),
];

/// The menu theme.
pub const MENU_THEME: (&str, &[u8]) = sound!("music", "music_menu");
/// The battle music.
pub const BATTLE_THEME: (&str, &[u8]) = sound!("music", "music_battle");

/// Whether `name` is a shipped sound effect.
pub fn is_shipped(name: &str) -> bool {
    SOUND_BYTES.iter().any(|(shipped, _)| *shipped == name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn embeds_exactly_the_files_the_xtask_lists() {
        let list = include_str!("../../../xtask/sounds.txt");
        let mut listed: Vec<&str> = list
            .lines()
            .map(|line| line.split('#').next().unwrap_or_default().trim())
            .filter(|line| !line.is_empty())
            .filter_map(|line| line.split('|').next().map(str::trim))
            .filter(|name| !name.starts_with("music_"))
            .collect();
        let mut embedded: Vec<&str> = SOUND_BYTES.iter().map(|(name, _)| *name).collect();
        listed.sort_unstable();
        embedded.sort_unstable();
        assert_eq!(embedded, listed, "SOUND_BYTES and xtask/sounds.txt disagree");
    }

    #[test]
    fn every_sound_is_ogg_vorbis() {
        for (name, bytes) in SOUND_BYTES.iter().chain([&MENU_THEME, &BATTLE_THEME]) {
            assert!(bytes.starts_with(b"OggS"), "{name} is not an Ogg file");
        }
    }
}
