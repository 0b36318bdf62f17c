//! Reading a data file: its UTF-8 text, and the RON value in it, with errors that say where.

use std::path::Path;

use serde::de::DeserializeOwned;

use super::error::{LoadError, syntax_error};

/// Reads a file as UTF-8 text.
pub fn read_text(path: &Path) -> Result<String, LoadError> {
    let bytes = std::fs::read(path)
        .map_err(|error| LoadError::Unreadable { path: path.to_path_buf(), reason: error.to_string() })?;
    String::from_utf8(bytes).map_err(|error| LoadError::Syntax {
        path: path.to_path_buf(),
        line: 1,
        column: 1,
        message: format!(
            "the file is not UTF-8 text (invalid byte at offset {}); expected a RON text file",
            error.utf8_error().valid_up_to()
        ),
    })
}

/// Parses RON text into `T`, reporting errors at `path`.
pub fn parse<T: DeserializeOwned>(text: &str, path: &Path) -> Result<T, LoadError> {
    if text.trim().is_empty() {
        return Err(LoadError::Syntax {
            path: path.to_path_buf(),
            line: 1,
            column: 1,
            message: "the file is empty; expected a RON value".into(),
        });
    }
    ron::Options::default().from_str(text).map_err(|error| syntax_error(path, text, &error))
}
