//! The shared vocabulary under every layer: dice and the seeded combat RNG, damage types and
//! attributes. It imports nothing of the game, so `battlefield`, `rules` and `levels` can all
//! build on it without importing each other.

pub mod dice;
pub mod traits;
