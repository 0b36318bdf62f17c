//! Writing the files Fray makes for its user (saves, settings, levels, logs, the enabled mods)
//! so that a crash or a full disk mid-write never leaves one half written.

use std::io::Write;
use std::path::{Path, PathBuf};

/// Writes `bytes` to a temporary sibling of `path`, syncs it, then renames it over `path`: the
/// previous file stays whole until the new one is complete. Creates `path`'s folder if needed.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    if let Some(dir) = path.parent().filter(|dir| !dir.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)?;
    }
    let mut temporary = path.as_os_str().to_owned();
    temporary.push(".tmp");
    let temporary = PathBuf::from(temporary);
    let written = std::fs::File::create(&temporary).and_then(|mut file| {
        file.write_all(bytes)?;
        file.sync_all()
    });
    if let Err(error) = written {
        let _ = std::fs::remove_file(&temporary);
        return Err(error);
    }
    std::fs::rename(&temporary, path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_written_atomically_replaces_the_old_one_whole_and_leaves_no_temporary() {
        let dir = std::env::temp_dir().join(format!("fray-files-{}", std::process::id()));
        let path = dir.join("deeper").join("enabled.ron");
        write_atomically(&path, b"old").expect("written");
        write_atomically(&path, b"new").expect("written again");
        assert_eq!(std::fs::read(&path).expect("readable"), b"new");
        assert!(!dir.join("deeper").join("enabled.ron.tmp").exists());
        std::fs::remove_dir_all(&dir).expect("cleaned up");
    }
}
