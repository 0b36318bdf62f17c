//! The forecasts the declaration panel and the hover card show, checked under every shipped
//! ruleset against odds counted independently, by walking every face of every die: weapon
//! attacks and throws (`W-HIT-1`, `S-ATK-1`, critical ranges), spells (`C-CAST-1`), healing,
//! heal checks (`W-WOUND-4`) and manoeuvres (`S-MAN-1`, `Z-STUNT-1`).

use crate::*;
use bevy::ecs::system::RunSystemOnce;
use bevy::prelude::*;
use fray::battlefield::Cover;
use fray::rules::actions;
use fray::rules::components::*;
use fray::rules::damage::damage_after_armour;
use fray::rules::dice::Dice;
use fray::rules::equipment::{Effect, Weapon};
use fray::rules::forecast::{self, Outcome, Pool};
use fray::rules::ruleset::{AttackStyle, Pools, Ruleset};
use fray::rules::unit::{self, UnitReadOnly, UnitView};

const RULESETS: [&str; 5] = ["stress_and_wounds", "zones_and_tests", "shock_and_cover", "aimed_wounds", "crucible"];

/// A caster who also fights, heals and throws, beside the test catalog's soldiers.
const CASTER: &str = r#"
        "caster": (name: "Caster", hd: "2d8", attributes: (strength: 12, agility: 12), weapon: "blade", speed: 2, mana: 6, spells: ["firebolt", "healing_word"], skills: (spellcasting: 3, attack: 2, heal: 1)),
"#;

const UNITS: &str = r#"
    (id: "r1", creature: "caster", side: "red", zone: "a", items: Some([("throwing_knife", 2), ("healing_draught", 1)])),
    (id: "b1", creature: "soldier", side: "blue", zone: "a"),
"#;

fn level(ruleset: &str) -> App {
    let catalog = TEST_CATALOG.replace("creatures: {", &format!("creatures: {{{CASTER}"));
    let text = line_level(&format!("ruleset: \"{ruleset}\","), UNITS).replace(TEST_CATALOG, &catalog);
    let mut app = scripted(&text, &[]);
    // The target is hurt, so healing has something to restore and damage may fell it.
    let target = unit(&mut app, "b1");
    let mut entity = app.world_mut().entity_mut(target);
    if let Some(mut stress) = entity.get_mut::<Stress>() {
        stress.current /= 2;
    }
    if let Some(mut wounds) = entity.get_mut::<Wounds>() {
        wounds.current -= 3;
    }
    app
}

/// Every total `dice` can show, one per way its dice can fall.
fn every_fall(dice: Dice) -> Vec<i32> {
    let mut falls = vec![dice.modifier];
    for _ in 0..dice.count {
        falls = falls.iter().flat_map(|sum| (1..=dice.sides as i32).map(move |face| sum + face)).collect();
    }
    falls
}

fn share(falls: &[i32], wins: impl Fn(i32) -> bool) -> f64 {
    falls.iter().filter(|&&total| wins(total)).count() as f64 / falls.len() as f64
}

fn close(counted: f64, forecast: f64, case: &str) {
    assert!((counted - forecast).abs() < 1e-12, "{case}: every face gives {counted}, the forecast {forecast}");
}

/// An attack's hit and critical chances and damage range, by walking the attack die's every
/// natural and, for damage, the damage dice's every fall.
fn counted_attack(
    ruleset: &Ruleset,
    weapon: &Weapon,
    dice: Dice,
    bonus: i32,
    defense: i32,
    armour: i32,
) -> (f64, f64, i32, i32) {
    let die = ruleset.attack.die;
    let critical_at = actions::critical_natural(ruleset, weapon);
    let (mut hits, mut criticals) = (0, 0);
    for natural in 1..=die.sides {
        let critical = natural >= critical_at;
        let total = natural as i32 + die.modifier + bonus;
        let hit = natural > ruleset.attack.fumble_natural
            && (total >= defense || (critical && ruleset.attack.critical_always_hits));
        hits += u32::from(hit);
        criticals += u32::from(hit && critical);
    }
    let damage = every_fall(dice);
    let least = damage.iter().map(|&roll| damage_after_armour(ruleset, roll, 1, armour)).min().unwrap_or(0);
    let multiplier = if criticals > 0 { weapon.critical_multiplier } else { 1 };
    let most = damage.iter().map(|&roll| damage_after_armour(ruleset, roll, multiplier, armour)).max().unwrap_or(0);
    let sides = f64::from(die.sides);
    (f64::from(hits) / sides, f64::from(criticals) / sides, least, most)
}

fn check_attacks(ruleset: &Ruleset, name: &str, caster: &UnitView, target: &UnitView) {
    let weapon = caster.arms.loadout.usable_weapon(caster.round.conditions).1;
    let (bonus, defense) = match &ruleset.attack.style {
        AttackStyle::VsDefense => (
            actions::roll_bonus(ruleset, caster, weapon, false),
            unit::defense_score(ruleset, target.body.attributes, target.arms.defense, target.round.conditions),
        ),
        AttackStyle::Test { tn, melee, .. } => {
            (actions::attack_bonus(caster, weapon) + unit::modifier(ruleset, caster.body.attributes, *melee), *tn)
        }
    };
    let dice = actions::damage_dice(ruleset, caster, weapon, false);
    let (hit, critical, least, most) = counted_attack(ruleset, weapon, dice, bonus, defense, target.arms.armour.0);
    let odds = actions::attack_odds(ruleset, caster, target);
    close(hit, odds.hit, &format!("{name}: the blade's hit chance"));
    close(critical, odds.critical, &format!("{name}: the blade's critical chance"));
    assert_eq!((least, most), (odds.damage_min, odds.damage_max), "{name}: the blade's damage");

    let knife = caster.arms.inventory.0[0].item.as_thrown_weapon().expect("a knife is thrown");
    let (bonus, defense) = match &ruleset.attack.style {
        AttackStyle::VsDefense => (
            actions::roll_bonus(ruleset, caster, &knife, true),
            unit::defense_score(ruleset, target.body.attributes, target.arms.defense, target.round.conditions),
        ),
        AttackStyle::Test { tn, ranged, .. } => {
            (actions::attack_bonus(caster, &knife) + unit::modifier(ruleset, caster.body.attributes, *ranged), *tn)
        }
    };
    let dice = actions::damage_dice(ruleset, caster, &knife, true);
    let (hit, critical, least, most) = counted_attack(ruleset, &knife, dice, bonus, defense, target.arms.armour.0);
    let odds = forecast::throw_odds(ruleset, caster, target, (0, Cover::None)).expect("a knife throw has odds");
    close(hit, odds.hit, &format!("{name}: the knife's hit chance"));
    close(critical, odds.critical, &format!("{name}: the knife's critical chance"));
    assert_eq!((least, most), (odds.damage_min, odds.damage_max), "{name}: the knife's damage");

    // Through cover (`S-COVER-1`): the penalty comes off every natural's total.
    for (cover, penalty) in
        [(Cover::Half, ruleset.attack.half_cover_penalty), (Cover::Full, ruleset.attack.full_cover_penalty)]
    {
        let (hit, critical, ..) = counted_attack(ruleset, &knife, dice, bonus - penalty, defense, target.arms.armour.0);
        let odds = forecast::throw_odds(ruleset, caster, target, (0, cover)).expect("a knife throw has odds");
        close(hit, odds.hit, &format!("{name}: the knife's hit chance through {cover:?} cover"));
        close(critical, odds.critical, &format!("{name}: the knife's critical chance through {cover:?} cover"));
        let blade = actions::attack_odds_in_cover(ruleset, caster, target, cover);
        let plain = actions::attack_odds(ruleset, caster, target);
        assert!(blade.hit <= plain.hit, "{name}: {cover:?} cover makes the blade likelier to hit");
    }
}

fn check_spells(ruleset: &Ruleset, name: &str, caster: &UnitView, target: &UnitView) {
    let casting = every_fall(ruleset.spells.casting_die.plus(caster.body.skills.spellcasting));
    for (at, (spell_name, spell)) in caster.magic.spells.0.iter().enumerate() {
        let action = Action::new(ActionKind::Cast(at), Some(target.entity), None);
        let told = forecast::forecast(ruleset, caster, target, &action).expect("a spell has a forecast");
        close(
            share(&casting, |total| total >= spell.tn),
            told.chance.expect("a casting roll"),
            &format!("{name}: {spell_name}"),
        );
        match (&spell.effect, &told.outcome) {
            (Effect::Damage { dice, .. }, Outcome::Damage { least, most }) => {
                let armour = if ruleset.spells.armour_stops_spells { target.arms.armour.0 } else { 0 };
                let falls: Vec<i32> =
                    every_fall(*dice).iter().map(|&roll| damage_after_armour(ruleset, roll, 1, armour)).collect();
                let counted = (*falls.iter().min().expect("falls"), *falls.iter().max().expect("falls"));
                assert_eq!(counted, (*least, *most), "{name}: {spell_name}'s damage");
            }
            (Effect::RestoreStress { dice }, Outcome::Restore { pool, least, most }) => {
                let (expected, room) = match ruleset.damage.pools {
                    Pools::HitPoints => (Pool::Wounds, target.body.wounds.max - target.body.wounds.current),
                    _ => (Pool::Stress, target.body.stress.max - target.body.stress.current),
                };
                assert_eq!(*pool, expected, "{name}: {spell_name} restores the ruleset's pool");
                let falls: Vec<i32> = every_fall(*dice).iter().map(|&roll| roll.min(room)).collect();
                let counted = (*falls.iter().min().expect("falls"), *falls.iter().max().expect("falls"));
                assert_eq!(counted, (*least, *most), "{name}: {spell_name}'s healing, {room} to restore");
            }
            (effect, outcome) => panic!("{name}: {spell_name} does {effect:?}, forecast {outcome:?}"),
        }
    }
    // A draught has no roll: it simply heals.
    let draught = Action::new(ActionKind::UseItem(1), Some(target.entity), None);
    let told = forecast::forecast(ruleset, caster, target, &draught).expect("an item has a forecast");
    assert_eq!(told.chance, None, "{name}: a draught is drunk without a roll");
}

fn check_help(ruleset: &Ruleset, name: &str, caster: &UnitView, target: &UnitView) {
    let stabilise = Action::new(ActionKind::Stabilize, Some(target.entity), None);
    let told = forecast::forecast(ruleset, caster, target, &stabilise).expect("a heal check has a forecast");
    let tn = ruleset.wounds.stabilise_tn_base + target.body.wounds.highest_injury();
    let heal = every_fall(ruleset.wounds.heal_die.plus(caster.body.skills.heal));
    close(share(&heal, |total| total >= tn), told.chance.expect("a heal check"), &format!("{name}: stabilise"));

    let Some(rules) = &ruleset.attack.maneuvers else {
        return;
    };
    let shove = Action::new(ActionKind::Shove, Some(target.entity), None);
    let told = forecast::forecast(ruleset, caster, target, &shove).expect("a shove has a forecast");
    let lands = if rules.attack_roll_first {
        let weapon = caster.arms.loadout.usable_weapon(caster.round.conditions).1;
        let roll = every_fall(ruleset.attack.die.plus(actions::roll_bonus(ruleset, caster, weapon, false)));
        let defense =
            unit::defense_score(ruleset, target.body.attributes, target.arms.defense, target.round.conditions);
        share(&roll, |total| total >= defense)
    } else {
        1.0
    };
    let ours = actions::maneuver_bonus(ruleset, rules, caster, actions::ManeuverCheck::Shove, true)
        - actions::size_penalty(rules, caster, target);
    let theirs = every_fall(rules.die.plus(actions::maneuver_bonus(
        ruleset,
        rules,
        target,
        actions::ManeuverCheck::Shove,
        false,
    )));
    let ours = every_fall(rules.die.plus(ours));
    let wins = ours.iter().map(|&our| theirs.iter().filter(|&&their| our > their).count()).sum::<usize>();
    let counted = lands * wins as f64 / (ours.len() * theirs.len()) as f64;
    close(counted, told.chance.expect("a shove has a roll"), &format!("{name}: shove"));
}

#[test]
fn every_rulesets_forecasts_match_the_odds_counted_over_every_face() {
    for name in RULESETS {
        let mut app = level(name);
        let (caster, target) = (unit(&mut app, "r1"), unit(&mut app, "b1"));
        app.world_mut()
            .run_system_once(move |units: Query<UnitReadOnly>, ruleset: Res<Ruleset>| {
                let (caster, target) = (units.get(caster).expect("caster"), units.get(target).expect("target"));
                check_attacks(&ruleset, name, &caster, &target);
                check_spells(&ruleset, name, &caster, &target);
                check_help(&ruleset, name, &caster, &target);
            })
            .expect("the check runs");
    }
}
