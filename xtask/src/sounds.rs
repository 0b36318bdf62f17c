//! `xtask sounds`: extracts the game's sound effects and music from the Debian packages
//! `openclonk-data` and `ufoai-music` and the PyPI wheel of `arcade`, as `xtask/sounds.txt`
//! lists them, into `assets/sounds/<name>.ogg` and `assets/music/<name>.ogg`. Short Ogg files
//! are copied as they are; WAV files, long effects and the music are re-encoded with `sox`.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::Error;

/// The list of files to extract, beside this crate's manifest.
pub const DEFAULT_LIST: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/sounds.txt");
/// Where the game's assets are.
const ASSETS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../assets");
/// The longest a sound effect plays, in seconds: longer ones are cut with a fade.
const MAX_EFFECT_SECONDS: f32 = 2.0;
/// How long the fade at the end of a cut effect lasts, in seconds.
const EFFECT_FADE_SECONDS: f32 = 0.3;
/// Vorbis quality of re-encoded effects (sox's `-C`, -1 to 10).
const EFFECT_QUALITY: &str = "3";
/// Vorbis quality of the music: low, for a small download (about 64 kbit/s in stereo).
const MUSIC_QUALITY: &str = "0";
/// Stingers play whole, however long.
const STINGERS: [&str; 2] = ["victory", "defeat"];
/// Below this level (a share of full scale) the ends of a track count as silence.
const SILENCE_THRESHOLD: &str = "0.1%";

/// Where each source package was unpacked.
pub struct SoundsTask {
    /// The unpacked `Sound.ocg` of `openclonk-data` (`c4group Sound.ocg -x` on a copy).
    pub openclonk: PathBuf,
    /// `arcade/resources/assets/sounds` of the unzipped `arcade` 3.3.3 wheel.
    pub arcade: PathBuf,
    /// The unzipped `0music.pk3` of `ufoai-music` (holding `music/`).
    pub ufoai: PathBuf,
    /// The list of files.
    pub list: PathBuf,
}

/// One line of the list (`xtask/textures.txt` has the same form).
pub struct Entry {
    /// The file's name in the game.
    pub name: String,
    /// The source package.
    pub package: String,
    /// The file in the package.
    pub file: String,
    /// Its author.
    pub author: String,
    /// Its licence.
    pub licence: String,
}

/// `sounds --openclonk DIR --arcade DIR --ufoai DIR [--list FILE]`.
pub fn parse_args(mut args: impl Iterator<Item = String>) -> Result<SoundsTask, Error> {
    let (mut openclonk, mut arcade, mut ufoai) = (None, None, None);
    let mut list = PathBuf::from(DEFAULT_LIST);
    while let Some(arg) = args.next() {
        let mut value = |flag: &str| args.next().ok_or_else(|| Error::Usage(format!("`{flag}` needs a value")));
        match arg.as_str() {
            "--openclonk" => openclonk = Some(PathBuf::from(value("--openclonk")?)),
            "--arcade" => arcade = Some(PathBuf::from(value("--arcade")?)),
            "--ufoai" => ufoai = Some(PathBuf::from(value("--ufoai")?)),
            "--list" => list = PathBuf::from(value("--list")?),
            other => return Err(Error::Usage(format!("unexpected argument `{other}`"))),
        }
    }
    let need = |dir: Option<PathBuf>, flag: &str| dir.ok_or_else(|| Error::Usage(format!("sounds needs `{flag} DIR`")));
    Ok(SoundsTask {
        openclonk: need(openclonk, "--openclonk")?,
        arcade: need(arcade, "--arcade")?,
        ufoai: need(ufoai, "--ufoai")?,
        list,
    })
}

/// Extracts every listed file, checking each openclonk file's author in `authors.txt`.
pub fn sounds(task: &SoundsTask) -> Result<(), Error> {
    let entries = read_list(&task.list)?;
    let authors_path = task.openclonk.join("authors.txt");
    let authors = std::fs::read_to_string(&authors_path).map_err(|source| Error::Io { path: authors_path, source })?;
    let mut total = 0;
    for entry in &entries {
        let (source, music) = match entry.package.as_str() {
            "openclonk-data" => (task.openclonk.join(&entry.file), false),
            "arcade" => (task.arcade.join(&entry.file), false),
            "ufoai-music" => (task.ufoai.join(&entry.file), true),
            other => return Err(Error::Sound(format!("{}: unknown package `{other}`", entry.name))),
        };
        if !matches!(entry.licence.as_str(), "CC0" | "CC BY 3.0" | "public domain") {
            return Err(Error::Sound(format!(
                "{}: licence `{}` is not CC0, CC BY 3.0 or public domain",
                entry.name, entry.licence
            )));
        }
        if entry.package == "openclonk-data" && !authors.contains(&entry.author) {
            return Err(Error::Sound(format!("{}: authors.txt does not name `{}`", entry.name, entry.author)));
        }
        let folder = if music { "music" } else { "sounds" };
        let out = Path::new(ASSETS).join(folder).join(format!("{}.ogg", entry.name));
        std::fs::create_dir_all(out.parent().unwrap_or(Path::new(ASSETS)))
            .map_err(|source| Error::Io { path: out.clone(), source })?;
        let cut = !music && !STINGERS.contains(&entry.name.as_str()) && duration(&source)? > MAX_EFFECT_SECONDS;
        extract(&source, &out, music, cut)?;
        let size = std::fs::metadata(&out).map_err(|source| Error::Io { path: out.clone(), source })?.len();
        total += size;
        println!("{:>9} {}  ({}, {} by {})", size, out.display(), entry.file, entry.licence, entry.author);
    }
    println!("{} files, {total} bytes", entries.len());
    Ok(())
}

/// Copies or re-encodes one file; `cut`, to [`MAX_EFFECT_SECONDS`] with a fade.
fn extract(source: &Path, out: &Path, music: bool, cut: bool) -> Result<(), Error> {
    let is_ogg = source.extension().is_some_and(|ext| ext == "ogg");
    if !music && is_ogg && !cut {
        std::fs::copy(source, out)
            .map_err(|source_error| Error::Io { path: out.to_path_buf(), source: source_error })?;
        return Ok(());
    }
    let mut sox = Command::new("sox");
    sox.arg(source);
    if music {
        // Silence trimmed from both ends, so the loop comes round without a gap.
        sox.args(["-C", MUSIC_QUALITY]).arg(out);
        sox.args([
            "silence",
            "1",
            "0.01",
            SILENCE_THRESHOLD,
            "reverse",
            "silence",
            "1",
            "0.01",
            SILENCE_THRESHOLD,
            "reverse",
        ]);
    } else if !cut {
        sox.args(["-C", EFFECT_QUALITY]).arg(out);
    } else {
        let (cut, fade) = (MAX_EFFECT_SECONDS.to_string(), EFFECT_FADE_SECONDS.to_string());
        sox.args(["-C", EFFECT_QUALITY]).arg(out).args(["trim", "0", &cut, "fade", "t", "0", &cut, &fade]);
    }
    run(sox)
}

/// A file's length in seconds, as `soxi -D` reads it.
fn duration(path: &Path) -> Result<f32, Error> {
    let output = Command::new("soxi")
        .arg("-D")
        .arg(path)
        .output()
        .map_err(|error| Error::Sound(format!("soxi (Debian's sox): {error}")))?;
    String::from_utf8_lossy(&output.stdout)
        .trim()
        .parse()
        .map_err(|_| Error::Sound(format!("{}: soxi gave no length", path.display())))
}

fn run(mut command: Command) -> Result<(), Error> {
    let status =
        command.status().map_err(|error| Error::Sound(format!("sox (Debian's sox, libsox-fmt-all): {error}")))?;
    if status.success() { Ok(()) } else { Err(Error::Sound(format!("{command:?} failed: {status}"))) }
}

/// The list's entries: `name | package | file | author | licence`; `#` starts a comment.
pub fn read_list(path: &Path) -> Result<Vec<Entry>, Error> {
    let text = std::fs::read_to_string(path).map_err(|source| Error::Io { path: path.to_path_buf(), source })?;
    let mut entries = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or_default().trim();
        if line.is_empty() {
            continue;
        }
        let fields: Vec<&str> = line.split('|').map(str::trim).collect();
        let [name, package, file, author, licence] = fields[..] else {
            return Err(Error::Sound(format!("{}:{}: expected 5 fields split by `|`", path.display(), number + 1)));
        };
        let owned = |field: &str| field.to_string();
        entries.push(Entry {
            name: owned(name),
            package: owned(package),
            file: owned(file),
            author: owned(author),
            licence: owned(licence),
        });
    }
    Ok(entries)
}
