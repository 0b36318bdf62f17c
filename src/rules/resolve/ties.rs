//! The missile-versus-spell tie-break (`C-INIT-2`): in a simultaneous turn, a spell whose casting
//! time is higher than its caster's initiative die goes off after the missiles loosed in the same
//! turn. Turns are ordered before anyone declares, so this tie-break reads the declarations, once
//! the turn's units have all declared.

use super::Resolver;
use crate::rules::actions;
use crate::rules::components::*;
use crate::rules::equipment::CastingTime;
use crate::rules::ruleset::TieBreak;
use crate::rules::state::Slot;

impl Resolver<'_, '_> {
    /// Splits a simultaneous turn in two where `C-INIT-2`'s missile-versus-spell tie-break
    /// applies: first everyone but the slow casters, then the slow casters. Otherwise the whole
    /// turn as it is (`None`).
    pub(super) fn slow_spells_after_missiles(&self, group: &[Slot]) -> Option<(Vec<Slot>, Vec<Slot>)> {
        // The ruleset is asked first: without the tie-break nobody's weapon need be looked at.
        let listed = self.ruleset.turns.tie_breaks.contains(&TieBreak::MissileBeforeSpell);
        if !listed || !group.iter().any(|slot| self.looses_a_missile(slot)) {
            return None;
        }
        Some(group.iter().cloned().partition(|slot| !self.casts_slower_than_its_die(slot)))
    }

    /// Whether the slot fires a missile weapon or throws.
    fn looses_a_missile(&self, slot: &Slot) -> bool {
        let kind = slot.action.kind;
        matches!(kind, ActionKind::Attack | ActionKind::Aimed(_) | ActionKind::Throw(_))
            && self.units.get(slot.unit).is_ok_and(|view| actions::is_ranged(&view, kind))
    }

    /// Whether the slot casts a spell that completes in this turn and whose casting time (its
    /// spell speed) is higher than its caster's initiative die: its side's roll, or its own.
    fn casts_slower_than_its_die(&self, slot: &Slot) -> bool {
        let ActionKind::Cast(at) = slot.action.kind else {
            return false;
        };
        let Ok(view) = self.units.get(slot.unit) else {
            return false;
        };
        let Some((_, spell)) = view.magic.spells.0.get(at) else {
            return false;
        };
        let completes_now = !self.ruleset.spells.casting_times || spell.casting_time == CastingTime::Instant;
        let casting_time = spell.speed.unwrap_or(spell.tn + self.ruleset.declaration.spell_speed_offset);
        let die = self.state.side_scores.get(view.standing.side.0).copied().or(view.round.initiative.base).unwrap_or(0);
        completes_now && casting_time > die
    }
}
