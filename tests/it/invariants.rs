//! Property tests of invariants over whole battles: Stress never negative, the dead never act,
//! every combat ends.

use std::collections::HashSet;

use bevy::prelude::*;
use fray::headless::{HeadlessBattle, UPDATES_PER_ROUND};
use fray::levels::mods::ModSet;
use fray::levels::{BattleSetup, load_builtin_level};
use fray::rules::components::{AiKind, Controller, Status, Stress, UnitId, Wounds};
use fray::rules::log::{LogEvent, StatusChange};
use proptest::prelude::*;

const LEVELS: [&str; 3] = ["ambush.ron", "duel.ron", "reinforcements.ron"];

fn kind(random: bool) -> Controller {
    Controller::Ai(if random { AiKind::Random } else { AiKind::Greedy })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(60))]

    #[test]
    fn every_combat_ends_and_stress_is_never_negative(level in 0..LEVELS.len(), seed in any::<u64>(), first_random in any::<bool>(), second_random in any::<bool>()) {
        let template = load_builtin_level(LEVELS[level], &ModSet::default()).unwrap();
        let mut battle = HeadlessBattle::new();
        let controllers = vec![(0, kind(first_random)), (1, kind(second_random))];
        battle.start(&template, &BattleSetup { seed, controllers, record_log: true });
        let limit = (template.ruleset.end.max_rounds + 1) * UPDATES_PER_ROUND;
        let mut updates = 0;
        while !battle.state().is_over() {
            prop_assert!(updates < limit, "the combat did not end in {} updates", limit);
            battle.step();
            updates += 1;
            let world = battle.world_mut();
            for (stress, wounds, status) in world.query::<(&Stress, &Wounds, &Status)>().iter(world) {
                prop_assert!(stress.current >= 0, "negative Stress");
                prop_assert!(stress.current <= stress.max.max(0), "Stress over its maximum");
                prop_assert!(wounds.current <= wounds.max, "Wound Points over their maximum");
                if *status == Status::Active {
                    prop_assert!(wounds.current > 0, "an active unit at {} Wound Points", wounds.current);
                }
            }
        }
        prop_assert!(battle.state().outcome.is_some());
    }

    #[test]
    fn the_dead_and_the_fled_never_act(level in 0..LEVELS.len(), seed in any::<u64>(), random in any::<bool>()) {
        let template = load_builtin_level(LEVELS[level], &ModSet::default()).unwrap();
        let mut battle = HeadlessBattle::new();
        battle.start(&template, &BattleSetup { seed, controllers: vec![(0, kind(random)), (1, kind(!random))], record_log: true });
        battle.run_to_end();
        let mut gone: HashSet<String> = HashSet::new();
        for entry in battle.log().entries() {
            let actor = match &entry.event {
                LogEvent::Declared(line) => Some(&line.unit),
                LogEvent::Moved(line) => Some(&line.unit),
                LogEvent::Cast(line) => Some(&line.unit),
                LogEvent::ItemUsed(line) => Some(&line.unit),
                LogEvent::Stabilise(line) => Some(&line.unit),
                LogEvent::Intimidation(line) => Some(&line.unit),
                LogEvent::Attack(line) => Some(&line.attacker),
                _ => None,
            };
            if let Some(actor) = actor {
                prop_assert!(!gone.contains(&**actor), "{} acted after leaving the fight: {:?}", actor, entry);
            }
            if let LogEvent::Status(line) = &entry.event && matches!(line.status, StatusChange::Became(Status::Dead | Status::Fled | Status::Surrendered)) {
                gone.insert(line.unit.to_string());
            }
        }
        let world = battle.world_mut();
        for (id, status) in world.query::<(&UnitId, &Status)>().iter(world) {
            if matches!(status, Status::Dead | Status::Fled | Status::Surrendered) {
                prop_assert!(gone.contains(&*id.0), "{} left the fight without a status line", id.0);
            }
        }
    }
}
