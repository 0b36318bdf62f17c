//! Levels and the shared catalog: RON schemas, loading with clear errors, and battle templates.

pub mod catalog;
pub mod change;
mod checker;
pub mod edit;
pub mod editor_schema;
pub mod error;
pub mod icons;
pub mod lessons;
pub mod load;
pub mod mass;
pub mod mods;
mod ron_file;
mod ruleset_check;
pub mod schema;
pub mod stamp;
pub mod starter;
pub mod template;
pub mod terrain;
mod unit_parts;

pub use error::{LoadError, LoadErrors, LoadWarning};
pub use load::{
    Checked, builtin_level_for, check_file, check_mod, load_builtin_level, load_level, load_level_or_builtin,
    load_level_text,
};
pub use template::{BattleSetup, BattleTemplate, ModPictures, WalkedPaths};

/// The level the game and `fray sim` use when none is named.
pub const DEFAULT_LEVEL: &str = "ambush.ron";
