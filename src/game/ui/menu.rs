//! The main menu: saves, mods, levels grouped by ruleset, seats, seed, and the Start battle,
//! How to play and Quit buttons.

use bevy::diagnostic::FrameCount;
use bevy::prelude::*;
use bevy_egui::egui::{self, RichText};
use bevy_egui::{EguiContexts, EguiPrimaryContextPass};

use super::mods::{ModsScreen, mods_section, relist_levels};
use super::widgets::{screen_ui, side_colour, tracked, tracked_button};
use super::{ERROR_COLOUR, SECTION_SPACING, UiSystems};
use crate::game::model::battle_ui::UiCommand;
use crate::game::model::launch::LaunchOptions;
use crate::game::model::screen::Screen;
use crate::game::model::session::{LevelChoice, LevelSource, Seat, Session, StartBattle};
use crate::game::saves::{LoadSave, SaveList};
use crate::game::tutorial::{Course, StartTutorial};
use crate::levels::BattleTemplate;
use crate::levels::mods::{ActiveMods, ModSet};

/// Width of the menu's column, in points.
const MENU_WIDTH: f32 = 620.0;
/// Height the level list keeps however little room the window leaves, in points: about two
/// levels.
const LEAST_LIST_HEIGHT: f32 = 160.0;
/// Room for the list's "Levels" heading and the spacing around the seats, in points.
const LIST_HEADING_ROOM: f32 = 40.0;
/// Default width of the How to play page, in points.
const HOW_TO_PLAY_WIDTH: f32 = 460.0;
/// The menu's buttons, by the labels scripted tests click them by.
const START_LABEL: &str = "Start battle";
/// Opens the host and join forms.
const PLAY_ONLINE_LABEL: &str = "Play online";
/// The tutorial's button.
const LEARN_LABEL: &str = "Learn to play";
/// See [`START_LABEL`].
const HOW_TO_PLAY_LABEL: &str = "How to play";
/// See [`START_LABEL`].
const QUIT_LABEL: &str = "Quit";
/// See [`START_LABEL`].
const SETTINGS_LABEL: &str = "Settings";
/// See [`START_LABEL`]: opens the level editor.
const EDITOR_LABEL: &str = "Level editor";
/// See [`START_LABEL`]: goes on with the newest save.
const CONTINUE_LABEL: &str = "Continue";
/// Saves the menu lists at most.
const SAVES_SHOWN: usize = 8;
/// Words a ruleset's title keeps in lower case unless they come first.
const MINOR_WORDS: [&str; 5] = ["and", "or", "of", "the", "with"];

/// The How to play page: a title and its paragraphs per section. The keys are the defaults;
/// the help window (F1) shows the player's own.
const HOW_TO_PLAY: [(&str, &[&str]); 3] = [
    (
        "A round",
        &[
            "Battles are fought in rounds, and every round goes the same way.",
            "Initiative: units (or whole sides, in some rulesets) roll to settle who acts first this round.",
            "Declaration: each unit says what it will do: attack, move, cast, use an item, defend or hold. \
             In some rulesets every side chooses at once and in secret, and nobody sees the others' choices \
             until all are in (at one machine, a curtain hides the board while the seat changes hands). \
             In others units take turns in initiative order and declare when their turn comes.",
            "Resolution: the declared actions happen in initiative order. A unit that falls before its turn \
             never acts, and a target that is gone wastes the action.",
            "After that, frightened units check their morale, hazards bite, and the battle ends once a side \
             is beaten.",
        ],
    ),
    (
        "Declaring",
        &[
            "When one of your units is to declare, the panel on the right lists what it can do.",
            "1-9 choose an action (or click it in the list). Click a unit on the board, or press T to step \
             through the targets, to aim it; click a zone or square to move there.",
            "Enter confirms. E holds: the unit does nothing this round. Esc drops the choice.",
            "Tab moves between units to read their cards. WASD or the arrows pan, the wheel or +/- zoom.",
            "F1 lists every key. They can be changed in fray-settings.ron (see docs/controls.md).",
        ],
    ),
    (
        "Reading the log",
        &[
            "L opens the combat log. Each line starts with its round (R2 is round two) and tells one thing \
             that happened: a declaration, an attack with its total against the target's Defense, the damage \
             it did and what is left, a fall, a morale check.",
            "Units and places are named as on the board; units that share a name carry their id in brackets.",
            "Under a line, each roll opens to show its dice and modifier. Export JSON Lines saves the whole \
             log, every number included, beside the game.",
        ],
    ),
];

/// Draws the menu while it is the screen.
pub(super) fn plugin(app: &mut App) {
    app.add_systems(EguiPrimaryContextPass, draw_menu.run_if(in_state(Screen::Menu)).in_set(UiSystems::Menu));
}

/// The menu: levels by ruleset, seats, seed, and the Start battle, How to play and Quit buttons.
fn draw_menu(
    mut contexts: EguiContexts,
    mut session: ResMut<Session>,
    (mut start, mut learn, mut exit): (
        MessageWriter<StartBattle>,
        MessageWriter<StartTutorial>,
        MessageWriter<AppExit>,
    ),
    (saves, mut load, mut commands): (Res<SaveList>, MessageWriter<LoadSave>, MessageWriter<UiCommand>),
    (mut mods, mut active_mods, options): (ResMut<ModsScreen>, ResMut<ActiveMods>, Res<LaunchOptions>),
    (mut how_to_play_open, mut play_online): (Local<bool>, ResMut<crate::game::model::session::PlayOnlineOpen>),
    (frames, mut last_drawn, mut next_screen): (Res<FrameCount>, Local<u32>, ResMut<NextState<Screen>>),
) -> Result {
    // On coming back to the menu its list shows the level just played, wherever it was scrolled.
    let reveal = frames.0 != last_drawn.wrapping_add(1);
    *last_drawn = frames.0;
    let ctx = contexts.ctx_mut()?;
    let mut root = screen_ui(ctx, "menu");
    // Edits go to copies and are written back only when they change, so the session is not
    // marked changed every frame.
    let mut selected = session.selected;
    let mut seats = session.seats.clone();
    let mut seed = session.seed;
    let mut clicks = MenuClicks::default();
    let mut chosen_save = None;
    let mut mods_changed = false;
    // The buttons keep to the bottom of the window whatever the UI scale; the rest scrolls
    // above them when it does not fit.
    egui::Panel::bottom("menu_buttons").show(&mut root, |ui| {
        ui.add_space(SECTION_SPACING);
        centred_column(ui, |ui| clicks = menu_buttons(ui, &session, *how_to_play_open));
    });
    egui::CentralPanel::default().show(&mut root, |ui| {
        ui.vertical_centered(|ui| ui.heading(RichText::new("Fray").strong()));
        ui.add_space(SECTION_SPACING);
        let room = ui.available_height();
        egui::ScrollArea::vertical().id_salt("menu").auto_shrink([false, true]).show(ui, |ui| {
            centred_column(ui, |ui| {
                let top = ui.cursor().top();
                chosen_save = saves_row(ui, &saves);
                mods_changed = mods_section(ui, &mut mods, &mut active_mods, &options.mod_folders);
                let list_room = room - (ui.cursor().top() - top);
                let edits = (&mut selected, &mut seats[..], &mut seed);
                menu_column(ui, (&session, &active_mods.0), edits, (reveal, list_room));
            });
        });
    });
    if let Some(path) = chosen_save {
        load.write(LoadSave(path));
    }
    if clicks.how_to_play {
        *how_to_play_open = !*how_to_play_open;
    }
    if *how_to_play_open {
        how_to_play(ctx, &mut how_to_play_open);
    }
    if selected != session.selected {
        session.select(selected);
    } else if seats != session.seats {
        session.choose_seats(seats);
    }
    if seed != session.seed {
        session.seed = seed;
    }
    if mods_changed {
        relist_levels(&mut session, &active_mods.0);
    }
    if clicks.start {
        start.write(StartBattle);
    }
    if let Some(course) = clicks.learn {
        learn.write(StartTutorial(course));
    }
    if clicks.quit {
        exit.write(AppExit::Success);
    }
    if clicks.online {
        play_online.0 = !play_online.0;
    }
    if clicks.settings {
        commands.write(UiCommand::ToggleSettings);
    }
    if clicks.editor {
        next_screen.set(Screen::Editor);
    }
    Ok(())
}

/// Lays `add_contents` out in the menu's column, centred in the window.
fn centred_column(ui: &mut egui::Ui, add_contents: impl FnOnce(&mut egui::Ui)) {
    let column = ui.available_width().min(MENU_WIDTH);
    let margin = (ui.available_width() - column) / 2.0;
    ui.horizontal_top(|ui| {
        ui.add_space(margin);
        ui.vertical(|ui| {
            ui.set_width(column);
            add_contents(ui);
        });
    });
}

/// The menu's column below the saves and mods: the level list, the seats of the chosen level
/// and the seed. Edits go to `(selected, seats, seed)`; `reveal` scrolls the chosen level into
/// view; the list gives up what the seats need of `room`, the height left to show it all.
fn menu_column(
    ui: &mut egui::Ui,
    (session, mods): (&Session, &ModSet),
    (selected, seats, seed): (&mut usize, &mut [Seat], &mut u64),
    (reveal, room): (bool, f32),
) {
    // The seats' height as last drawn: the list leaves them room so they show without scrolling.
    let below_id = egui::Id::new("menu_below_the_list");
    let below: f32 = ui.data(|data| data.get_temp(below_id)).unwrap_or_default();
    level_list(ui, (session, mods), selected, reveal, (room - below).max(LEAST_LIST_HEIGHT));
    let top = ui.cursor().top();
    ui.separator();
    if *selected == session.selected {
        seat_choice(ui, session, seats);
    }
    ui.add_space(SECTION_SPACING);
    ui.horizontal(|ui| {
        ui.label("Seed");
        ui.add(egui::DragValue::new(seed));
    });
    let height = ui.cursor().top() - top + LIST_HEADING_ROOM;
    ui.data_mut(|data| data.insert_temp(below_id, height));
}

/// Continue (the newest save) and the list of saves with their level, ruleset, round and
/// date; returns the save to load if one was clicked.
fn saves_row(ui: &mut egui::Ui, saves: &SaveList) -> Option<std::path::PathBuf> {
    let mut chosen = None;
    ui.vertical(|ui| {
        let newest = saves.saves.first();
        let label = RichText::new(CONTINUE_LABEL).strong();
        if tracked(ui.add_enabled(newest.is_some(), egui::Button::new(label)), CONTINUE_LABEL).clicked() {
            chosen = newest.map(|save| save.path.clone());
        }
        if let Some(problem) = &saves.problem {
            ui.label(RichText::new(problem).color(ERROR_COLOUR).monospace());
        }
        if saves.saves.is_empty() {
            return;
        }
        egui::CollapsingHeader::new(format!("Saved battles ({})", saves.saves.len())).id_salt("saves").show(ui, |ui| {
            egui::Grid::new("save_list").striped(true).show(ui, |ui| {
                for save in saves.saves.iter().take(SAVES_SHOWN) {
                    let file =
                        save.path.file_name().map(|name| name.to_string_lossy().into_owned()).unwrap_or_default();
                    if tracked_button(ui, &file).clicked() {
                        chosen = Some(save.path.clone());
                    }
                    ui.label(&save.level);
                    ui.label(ruleset_title(&save.ruleset));
                    ui.label(format!("round {}", save.round));
                    ui.label(&save.date);
                    ui.end_row();
                }
            });
        });
        ui.separator();
    });
    chosen
}

/// What was clicked in the menu's row of buttons this frame.
#[derive(Clone, Copy, Debug, Default)]
struct MenuClicks {
    /// Start battle.
    start: bool,
    /// How to play (opens or closes the page).
    how_to_play: bool,
    /// Quit.
    quit: bool,
    /// Settings (opens or closes the settings window).
    settings: bool,
    /// Level editor.
    editor: bool,
    /// Learn to play: the course chosen.
    learn: Option<Course>,
    /// Play online (opens or closes the host and join forms).
    online: bool,
}

/// Start battle (only for a level that loaded), Learn to play, How to play, Settings, Level editor
/// and Quit.
fn menu_buttons(ui: &mut egui::Ui, session: &Session, how_to_play_open: bool) -> MenuClicks {
    let mut clicks = MenuClicks::default();
    ui.horizontal_wrapped(|ui| {
        let playable = session.level().is_some_and(|level| level.template.is_some());
        let start = egui::Button::new(RichText::new(START_LABEL).strong());
        clicks.start = tracked(ui.add_enabled(playable, start), START_LABEL).clicked();
        clicks.learn = learn_menu(ui);
        clicks.online = tracked_button(ui, PLAY_ONLINE_LABEL).clicked();
        let how_to = egui::Button::new(HOW_TO_PLAY_LABEL).selected(how_to_play_open);
        clicks.how_to_play = tracked(ui.add(how_to), HOW_TO_PLAY_LABEL).clicked();
        clicks.settings = tracked_button(ui, SETTINGS_LABEL).clicked();
        clicks.editor = tracked_button(ui, EDITOR_LABEL).clicked();
        clicks.quit = tracked_button(ui, QUIT_LABEL).clicked();
    });
    clicks
}

/// Learn to play: a button that opens the courses, each a battle whose lessons wait for the
/// player; a click starts one.
fn learn_menu(ui: &mut egui::Ui) -> Option<Course> {
    let mut chosen = None;
    let menu = ui.menu_button(LEARN_LABEL, |ui| {
        for course in Course::ALL {
            if tracked_button(ui, course.title()).on_hover_text(course.summary()).clicked() {
                chosen = Some(course);
            }
        }
    });
    tracked(menu.response, LEARN_LABEL)
        .on_hover_text("Battles that teach the rules one at a time, waiting for you at each step.");
    chosen
}

/// The levels on offer under a heading per ruleset, each with its battlefield and size, in a
/// list at most `height` high; a click chooses one.
fn level_list(
    ui: &mut egui::Ui,
    (session, mods): (&Session, &ModSet),
    selected: &mut usize,
    reveal: bool,
    height: f32,
) {
    ui.strong("Levels");
    egui::ScrollArea::vertical().id_salt("levels").max_height(height).auto_shrink([false, true]).show(ui, |ui| {
        for (heading, members) in levels_by_heading(&session.levels, mods) {
            let heading = heading.unwrap_or_else(|| "Levels that need fixing".to_string());
            ui.label(RichText::new(&heading).heading());
            ui.indent(("levels under", &heading), |ui| {
                for at in members {
                    let chosen = at == session.selected;
                    level_row(ui, &session.levels[at], (chosen, chosen && reveal), || *selected = at);
                }
            });
        }
    });
}

/// One level: its title (a click chooses it), ruleset, battlefield and size, description and
/// any load error. `(chosen, reveal)`: whether it is the chosen level, and whether to scroll it into view.
fn level_row(ui: &mut egui::Ui, level: &LevelChoice, (chosen, reveal): (bool, bool), choose: impl FnOnce()) {
    let title = tracked(ui.selectable_label(chosen, RichText::new(&level.title).strong()), &level.title);
    if reveal {
        title.scroll_to_me(Some(egui::Align::Center));
    }
    if title.clicked() {
        choose();
    }
    if let Some(template) = &level.template {
        ui.label(RichText::new(level_facts(template)).small());
        if !template.description.is_empty() {
            ui.label(RichText::new(&template.description).weak());
        }
    }
    if let Some(error) = &level.error {
        ui.label(RichText::new(error).color(ERROR_COLOUR).monospace());
    }
    ui.add_space(SECTION_SPACING);
}

/// The positions of `levels` grouped under a heading, groups in the order they first appear: a
/// level an enabled mod brings under the mod's name, any other under its ruleset's title;
/// levels that did not load (`None`) come last.
fn levels_by_heading(levels: &[LevelChoice], mods: &ModSet) -> Vec<(Option<String>, Vec<usize>)> {
    let mut groups: Vec<(Option<String>, Vec<usize>)> = Vec::new();
    for (at, level) in levels.iter().enumerate() {
        let heading = mod_heading(&level.source, mods)
            .or_else(|| level.template.as_ref().map(|template| ruleset_title(&template.ruleset.name)));
        match groups.iter_mut().find(|(name, _)| *name == heading) {
            Some((_, members)) => members.push(at),
            None => groups.push((heading, vec![at])),
        }
    }
    groups.sort_by_key(|(name, _)| name.is_none());
    groups
}

/// The heading of a level file inside an enabled mod's folder: the mod's name.
fn mod_heading(source: &LevelSource, mods: &ModSet) -> Option<String> {
    let LevelSource::File(path) = source else {
        return None;
    };
    mods.iter().find(|one| path.starts_with(&one.dir)).map(|one| format!("{} (mod)", one.manifest.name))
}

/// A ruleset's name as a title: `stress_and_wounds` reads `Stress and Wounds`.
fn ruleset_title(name: &str) -> String {
    let words = name.trim_end_matches(".ron").split(['_', '-', ' ']).filter(|word| !word.is_empty());
    let words: Vec<String> = words
        .enumerate()
        .map(|(at, word)| {
            let mut letters = word.chars();
            match letters.next() {
                Some(first) if at == 0 || !MINOR_WORDS.contains(&word) => first.to_uppercase().chain(letters).collect(),
                _ => word.to_string(),
            }
        })
        .collect();
    words.join(" ")
}

/// A level at a glance: `stress_and_wounds · 6 zones · 4 vs 4`, or `grid 12×10` on a grid.
fn level_facts(template: &BattleTemplate) -> String {
    let field = match template.battlefield.grid() {
        Some(grid) => format!("grid {}×{}", grid.width(), grid.height()),
        None if template.battlefield.len() == 1 => "1 zone".to_string(),
        None => format!("{} zones", template.battlefield.len()),
    };
    format!("{} · {field} · {}", template.ruleset.name, side_sizes(template))
}

/// Units per side at the start (`4 vs 4`), and how many join the battle later.
fn side_sizes(template: &BattleTemplate) -> String {
    let mut starting = vec![0_usize; template.sides.len()];
    let mut later = 0;
    for unit in &template.units {
        match (unit.arrives.is_some(), starting.get_mut(unit.side)) {
            (false, Some(count)) => *count += 1,
            (true, _) => later += 1,
            (false, None) => {}
        }
    }
    let sizes: Vec<String> = starting.iter().map(usize::to_string).collect();
    let sizes = sizes.join(" vs ");
    if later > 0 { format!("{sizes}, {later} more arriving") } else { sizes }
}

/// The How to play page, over the menu until closed.
fn how_to_play(ctx: &egui::Context, open: &mut bool) {
    egui::Window::new(HOW_TO_PLAY_LABEL)
        .open(open)
        .order(egui::Order::Foreground)
        .default_width(HOW_TO_PLAY_WIDTH)
        .vscroll(true)
        .show(ctx, |ui| {
            for (title, paragraphs) in HOW_TO_PLAY {
                ui.strong(title);
                for paragraph in paragraphs {
                    ui.label(*paragraph);
                }
                ui.add_space(SECTION_SPACING);
            }
        });
}

/// Who plays each side of the chosen level.
fn seat_choice(ui: &mut egui::Ui, session: &Session, seats: &mut [Seat]) {
    let Some(template) = session.level().and_then(|level| level.template.as_ref()) else {
        ui.label(RichText::new("This level cannot be played until its file is fixed.").color(ERROR_COLOUR));
        return;
    };
    ui.strong("Seats");
    egui::Grid::new("seats").num_columns(2).show(ui, |ui| {
        for (at, (side, seat)) in template.sides.iter().zip(seats.iter_mut()).enumerate() {
            // The board tells sides apart by shape too, so no one needs the colour alone.
            let shape = crate::game::token_art::side_shape_name(at);
            ui.label(RichText::new(format!("{} ({shape} tokens)", side.name)).color(side_colour(ui.ctx(), at)));
            egui::ComboBox::from_id_salt(("seat", at)).selected_text(seat.label()).show_ui(ui, |ui| {
                for choice in Seat::ALL {
                    ui.selectable_value(seat, choice, choice.label());
                }
            });
            ui.end_row();
        }
    });
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;
    use crate::game::session::level_choices;
    use crate::levels::catalog::builtin;

    #[test]
    fn ruleset_names_read_as_titles() {
        assert_eq!(ruleset_title("stress_and_wounds"), "Stress and Wounds");
        assert_eq!(ruleset_title("shock_and_cover"), "Shock and Cover");
        assert_eq!(ruleset_title("crucible"), "Crucible");
        assert_eq!(ruleset_title("the_long_night.ron"), "The Long Night");
    }

    #[test]
    fn a_level_an_enabled_mod_brings_is_listed_under_the_mod_s_name() {
        let mods = ModSet::open(&[Path::new("examples/mods/marsh_folk").to_path_buf()]).expect("the example mod opens");
        let mut levels = level_choices(Path::new("/nonexistent"), &crate::levels::mods::ModSet::default());
        let level = mods.iter().next().expect("one mod").files_in("levels").remove(0);
        levels.push(LevelChoice {
            title: "The Reed Ford".into(),
            source: LevelSource::File(level),
            template: None,
            error: None,
        });
        let groups = levels_by_heading(&levels, &mods);
        let (heading, members) =
            groups.iter().find(|(_, members)| members.contains(&(levels.len() - 1))).expect("listed");
        assert_eq!(heading.as_deref(), Some("Marsh Folk (mod)"));
        assert_eq!(members.len(), 1, "only the mod's level is under its name");
        let without = levels_by_heading(&levels, &ModSet::default());
        assert!(without.iter().all(|(heading, _)| heading.as_deref() != Some("Marsh Folk (mod)")));
    }

    #[test]
    fn the_menu_leaves_out_the_unlisted_levels_even_when_their_files_are_in_levels() {
        let levels = level_choices(
            Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/levels")),
            &crate::levels::mods::ModSet::default(),
        );
        for (unlisted, _) in builtin::UNLISTED_LEVELS {
            let shown = levels.iter().any(|level| {
                matches!(&level.source, LevelSource::File(path) if path.file_name().is_some_and(|file| file == *unlisted))
            });
            assert!(!shown, "{unlisted} is listed in the menu");
        }
        assert!(levels.len() >= builtin::LEVELS.len());
    }

    #[test]
    fn the_menu_groups_every_built_in_level_by_ruleset() {
        let levels = level_choices(Path::new("/nonexistent"), &crate::levels::mods::ModSet::default());
        let groups = levels_by_heading(&levels, &ModSet::default());
        let listed: usize = groups.iter().map(|(_, members)| members.len()).sum();
        assert_eq!(listed, levels.len());
        assert!(groups.iter().all(|(heading, _)| heading.is_some()), "every built-in level loads");
        let names: Vec<&str> = groups.iter().filter_map(|(heading, _)| heading.as_deref()).collect();
        for ruleset in ["Stress and Wounds", "Zones and Tests", "Shock and Cover", "Aimed Wounds", "Crucible"] {
            assert!(names.contains(&ruleset), "{ruleset} is missing from {names:?}");
        }
        let facts = |title: &str| {
            let level = levels.iter().find(|level| level.title == title).expect("a built-in level");
            level_facts(level.template.as_ref().expect("it loaded"))
        };
        assert_eq!(facts("The Great Melee"), "stress_and_wounds · 8 zones · 32 vs 32");
        let grids = levels.iter().filter_map(|level| level.template.as_ref()).filter(|t| t.battlefield.is_grid());
        assert!(grids.map(level_facts).all(|facts| facts.contains(" · grid ") && facts.contains('×')));
    }
}
