//! One unit's choice as the AI weighs it: the battle, the pass's caches, the unit choosing and
//! the choices made before it in the pass, gathered once and passed whole. It imports no
//! strategy, so every strategy reads it one way.

use super::view::{AiView, JustDeclared};
use crate::rules::actions::{ActionContext, ThreatMap, ViewCache};
use crate::rules::unit::UnitView;

/// What one unit's choice reads, built once where a controller asks for the unit's action and
/// passed as one argument to every function that weighs it.
///
/// Two lifetimes: `'a` for what the choice borrows, and `'c` for the pass's unit cache and the
/// views it hands out. The cache's cells make [`ViewCache`] invariant in its lifetimes, and a
/// unit's view (a Bevy query item) is invariant in its own, so neither can be shortened to `'a`
/// the way the battle's view and the threat map are; the controller builds the cache with its
/// query and its state borrowed for the same `'c`, so one name covers both.
#[derive(Clone, Copy)]
pub struct Choice<'a, 'c> {
    /// The battle, read-only.
    pub view: &'a AiView<'a, 'a>,
    /// Every unit viewed at most once in this pass.
    pub units: &'a ViewCache<'c, 'c>,
    /// Who threatens what this pass.
    pub threats: &'a ThreatMap<'a>,
    /// The unit choosing.
    pub actor: &'a UnitView<'c, 'c>,
    /// Choices made earlier in the same pass, not yet recorded on the units.
    pub just_declared: &'a JustDeclared,
}

impl Choice<'_, '_> {
    /// The legality context.
    pub fn ctx(&self) -> ActionContext<'_> {
        self.view.ctx()
    }
}
