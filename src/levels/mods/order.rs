//! Load order: the enabled mods, dependencies first, `load_after` honoured when both mods are
//! enabled, otherwise the order they were given in.

use super::{Mod, ModError};

/// Puts `mods` (in the order they were enabled) in load order. Errors, each naming its mod and
/// the `mod.ron` field at fault: an id enabled twice, a `requires_fray` this Fray does not meet,
/// a dependency that is not enabled, or a cycle (reported once, in its first mod).
pub fn load_order(mods: Vec<Mod>) -> Result<Vec<Mod>, Vec<ModError>> {
    let mut errors = duplicates(&mods);
    errors.extend(mods.iter().filter_map(|one| one.fits_this_fray().err()));
    errors.extend(missing_dependencies(&mods));
    if !errors.is_empty() {
        return Err(errors);
    }
    let before = predecessors(&mods);
    let mut placed = vec![false; mods.len()];
    let mut order = Vec::with_capacity(mods.len());
    while order.len() < mods.len() {
        // The earliest-enabled mod whose predecessors are all placed keeps the given order
        // wherever the manifests do not say otherwise.
        let next = (0..mods.len()).find(|&at| !placed[at] && before[at].iter().all(|&(first, _)| placed[first]));
        let Some(next) = next else {
            return Err(vec![cycle_error(&mods, &before, &placed)]);
        };
        placed[next] = true;
        order.push(next);
    }
    let mut slots: Vec<Option<Mod>> = mods.into_iter().map(Some).collect();
    Ok(order.into_iter().filter_map(|at| slots[at].take()).collect())
}

/// The second (third, ...) mod with an id already enabled.
fn duplicates(mods: &[Mod]) -> Vec<ModError> {
    let mut errors = Vec::new();
    for (at, one) in mods.iter().enumerate() {
        if let Some(first) = mods[..at].iter().find(|earlier| earlier.id() == one.id()) {
            errors.push(ModError::DuplicateId {
                at: one.place("id", one.id(), 0),
                id: one.id().to_string(),
                other: first.dir.clone(),
            });
        }
    }
    errors
}

fn missing_dependencies(mods: &[Mod]) -> Vec<ModError> {
    let enabled = |id: &str| mods.iter().any(|one| one.id() == id);
    let mut errors = Vec::new();
    for one in mods {
        for missing in one.manifest.depends_on.iter().filter(|id| !enabled(id)) {
            errors.push(ModError::MissingDependency {
                at: one.place("depends_on", missing, 0),
                id: one.id().to_string(),
                missing: missing.clone(),
            });
        }
    }
    errors
}

/// Which field made one mod load after another.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Because {
    DependsOn,
    LoadAfter,
}

impl Because {
    fn field(self) -> &'static str {
        match self {
            Self::DependsOn => "depends_on",
            Self::LoadAfter => "load_after",
        }
    }
}

/// For each mod, the mods that must load before it and why.
fn predecessors(mods: &[Mod]) -> Vec<Vec<(usize, Because)>> {
    let index = |id: &str| mods.iter().position(|one| one.id() == id);
    mods.iter()
        .map(|one| {
            let depends = one.manifest.depends_on.iter().map(|id| (id, Because::DependsOn));
            let after = one.manifest.load_after.iter().map(|id| (id, Because::LoadAfter));
            depends.chain(after).filter_map(|(id, because)| Some((index(id)?, because))).collect()
        })
        .collect()
}

/// The cycle among the unplaced mods, reported at the first-enabled mod of it.
fn cycle_error(mods: &[Mod], before: &[Vec<(usize, Because)>], placed: &[bool]) -> ModError {
    // Every unplaced mod waits on an unplaced one, so walking back from any of them must
    // come round to a mod already seen: that stretch is a cycle.
    let start = placed.iter().position(|done| !done).unwrap_or_default();
    let mut path = vec![start];
    let cycle = loop {
        let current = *path.last().unwrap_or(&start);
        let Some(&(previous, _)) = before[current].iter().find(|(first, _)| !placed[*first]) else {
            break vec![current];
        };
        if let Some(seen) = path.iter().position(|&at| at == previous) {
            break path[seen..].to_vec();
        }
        path.push(previous);
    };
    let first = cycle.iter().position(|&at| cycle.iter().all(|&other| at <= other)).unwrap_or_default();
    let rotated: Vec<usize> = cycle[first..].iter().chain(&cycle[..first]).copied().collect();
    let culprit = rotated[0];
    let waits_on = rotated.get(1).copied().unwrap_or(culprit);
    let because = before[culprit].iter().find(|(at, _)| *at == waits_on).map_or(Because::DependsOn, |&(_, why)| why);
    let mut names: Vec<&str> = rotated.iter().map(|&at| mods[at].id()).collect();
    names.push(mods[culprit].id());
    ModError::Cycle {
        at: mods[culprit].place(because.field(), mods[waits_on].id(), 0),
        id: mods[culprit].id().to_string(),
        cycle: names.join(" -> "),
    }
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use super::super::{FRAY_VERSION, ModManifest};
    use super::*;

    fn a_mod(id: &str, depends_on: &[&str], load_after: &[&str]) -> Mod {
        let list = |ids: &[&str]| ids.iter().map(|id| id.to_string()).collect::<Vec<_>>();
        let manifest = ModManifest {
            id: id.into(),
            name: id.into(),
            version: "1.0.0".into(),
            requires_fray: format!("^{FRAY_VERSION}"),
            depends_on: list(depends_on),
            load_after: list(load_after),
            description: None,
            authors: Vec::new(),
        };
        let manifest_text = ron::ser::to_string_pretty(&manifest, ron::ser::PrettyConfig::default()).expect("ron");
        let dir = PathBuf::from(format!("mods/{id}"));
        Mod { manifest, manifest_path: dir.join("mod.ron"), dir, manifest_text }
    }

    fn ids(mods: Vec<Mod>) -> Vec<String> {
        load_order(mods).expect("the order resolves").iter().map(|one| one.id().to_string()).collect()
    }

    #[test]
    fn without_constraints_the_given_order_stands() {
        assert_eq!(ids(vec![a_mod("b", &[], &[]), a_mod("a", &[], &[]), a_mod("c", &[], &[])]), ["b", "a", "c"]);
    }

    #[test]
    fn dependencies_load_first() {
        let mods = vec![a_mod("top", &["base"], &[]), a_mod("other", &[], &[]), a_mod("base", &[], &[])];
        assert_eq!(ids(mods), ["other", "base", "top"]);
    }

    #[test]
    fn load_after_counts_only_when_both_are_enabled() {
        assert_eq!(ids(vec![a_mod("late", &[], &["early"]), a_mod("early", &[], &[])]), ["early", "late"]);
        assert_eq!(ids(vec![a_mod("late", &[], &["absent"]), a_mod("x", &[], &[])]), ["late", "x"]);
    }

    #[test]
    fn a_missing_dependency_names_the_mod_and_its_field() {
        let errors = load_order(vec![a_mod("top", &["base"], &[])]).expect_err("base is missing");
        assert_eq!(errors.len(), 1);
        let message = errors[0].to_string();
        assert!(message.starts_with("mods/top/mod.ron:"), "{message}");
        assert!(message.contains("mod `top` depends on mod `base`, which is not enabled"), "{message}");
    }

    #[test]
    fn a_cycle_is_one_error_at_its_first_mod() {
        let mods = vec![
            a_mod("free", &[], &[]),
            a_mod("a", &["b"], &[]),
            a_mod("b", &[], &["c"]),
            a_mod("c", &["a"], &[]),
            a_mod("blocked", &["c"], &[]),
        ];
        let errors = load_order(mods).expect_err("a cycle");
        assert_eq!(errors.len(), 1, "{errors:?}");
        let ModError::Cycle { at, id, cycle } = &errors[0] else { panic!("not a cycle: {errors:?}") };
        assert_eq!((id.as_str(), cycle.as_str()), ("a", "a -> b -> c -> a"));
        assert_eq!(at.path, PathBuf::from("mods/a/mod.ron"));
        assert!(at.line > 1, "points at the depends_on entry: {at}");
    }

    #[test]
    fn an_id_twice_is_an_error() {
        let errors = load_order(vec![a_mod("a", &[], &[]), a_mod("a", &[], &[])]).expect_err("twice");
        assert!(matches!(&errors[..], [ModError::DuplicateId { id, .. }] if id == "a"), "{errors:?}");
    }

    #[test]
    fn a_too_new_requirement_is_an_error() {
        let mut future = a_mod("future", &[], &[]);
        future.manifest.requires_fray = ">=99.0.0".into();
        future.manifest_text = ron::to_string(&future.manifest).expect("ron");
        let errors = load_order(vec![future]).expect_err("too new");
        assert!(matches!(&errors[..], [ModError::WrongFray { id, .. }] if id == "future"), "{errors:?}");
        assert!(errors[0].to_string().contains("requires Fray >=99.0.0"), "{}", errors[0]);
    }
}
