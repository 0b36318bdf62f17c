//! Levels and the shared catalog: RON schemas, loading with clear errors, and battle templates.

pub mod catalog;
pub mod error;
pub mod icons;
pub mod load;
pub mod schema;
pub mod template;

pub use error::{LoadError, LoadErrors};
pub use load::{check_file, load_builtin_level, load_level, load_level_text};
pub use template::{BattleSetup, BattleTemplate};

/// The level the game and `fray sim` use when none is named.
pub const DEFAULT_LEVEL: &str = "ambush.ron";
