//! Shaking off a hindrance by spending the action on it (`Z-HIND-1`: "sometimes needing an
//! Action to complete").

use super::*;

impl Resolver<'_, '_> {
    /// The unit's test against a hindrance that needs an action. Returns whether the action was
    /// carried out: it is lost when the hindrance was already gone, or replaced by one that
    /// ends by itself, before its turn came.
    pub(super) fn shake_off(&mut self, actor: Entity) -> bool {
        let tested = crate::rules::end::shake_off_by_action(&mut self.harm(), actor);
        if !tested {
            self.lose(actor, LostReason::TargetOutOfReach);
        }
        tested
    }
}
