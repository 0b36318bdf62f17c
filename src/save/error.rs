//! What can go wrong reading, writing or replaying a save: every error names the file, and a
//! parse error its `line:column`.

use std::path::PathBuf;

/// An error reading, checking, writing or replaying a save.
#[derive(Debug, thiserror::Error)]
pub enum SaveError {
    /// The file could not be read or written.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
    /// The file is not a save: truncated, corrupt or hand-edited wrongly.
    #[error("{}:{line}:{column}: {message}; expected a Fray save (a `Save(...)` RON value)", path.display())]
    Parse {
        /// The file.
        path: PathBuf,
        /// Line, from 1.
        line: usize,
        /// Column, from 1.
        column: usize,
        /// What the parser found wrong.
        message: String,
    },
    /// A save format this Fray does not read.
    #[error("{}: save format {found}, but this Fray (version {fray}) reads format {expected}", path.display())]
    Version {
        /// The file.
        path: PathBuf,
        /// Its format.
        found: u32,
        /// The format this build reads.
        expected: u32,
        /// This build's version.
        fray: &'static str,
    },
    /// The level cannot be loaded any more.
    #[error("{}: the saved level {level} no longer loads:\n{errors}", path.display())]
    Level {
        /// The file.
        path: PathBuf,
        /// Where the level came from.
        level: String,
        /// Its load errors, with locations.
        errors: String,
    },
    /// The level or ruleset changed since the save: replaying it would play a different battle.
    #[error(
        "{}: the {} changed since this battle was saved ({level}); a save replays only on the level and ruleset it was made with",
        path.display(),
        changed.join(", ")
    )]
    Changed {
        /// The file.
        path: PathBuf,
        /// Where the level came from.
        level: String,
        /// What changed: "level's units", "ruleset", ...
        changed: Vec<&'static str>,
    },
    /// The mods in play are not the ones the battle was played with.
    #[error(
        "{}: this battle was played with other mods: {}; a save replays only with the mods it was made with (enable them with `--mod DIR` or the installed mods folder)",
        path.display(),
        changes.join("; ")
    )]
    Mods {
        /// The file.
        path: PathBuf,
        /// One line per mod that is missing, of another version, changed, or extra.
        changes: Vec<String>,
    },
    /// A seat names a side the level does not have.
    #[error("{}: the save seats side \"{side}\", which the level does not have", path.display())]
    UnknownSide {
        /// The file.
        path: PathBuf,
        /// The side named.
        side: String,
    },
    /// Replaying the declarations did not reproduce the saved battle.
    #[error("{}: replaying the save went a different way: {problem}", path.display())]
    Diverged {
        /// The file.
        path: PathBuf,
        /// Where and how.
        problem: String,
    },
}
