//! `xtask textures`: extracts the board's tileable terrain textures from the Debian package
//! `openclonk-data` (its `Material.ocg`, unpacked), as `xtask/textures.txt` lists them, into
//! `assets/textures/<name>.png`: scaled down with ImageMagick's `convert` and cut to a small
//! palette, so each stays a few kilobytes.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::Error;

/// The list of files to extract, beside this crate's manifest.
pub const DEFAULT_LIST: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/textures.txt");
/// Where the textures go.
const OUT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../assets/textures");
/// Width and height of every texture, in pixels.
const TEXTURE_SIZE: &str = "128x128!";
/// Colours in each texture's palette: enough for stone and earth, small on disk.
const PALETTE_COLOURS: &str = "64";

/// Where the source package was unpacked, and the list.
pub struct TexturesTask {
    /// The unpacked `Material.ocg` of `openclonk-data` (`c4group Material.ocg -x` on a copy).
    pub openclonk: PathBuf,
    /// The list of files.
    pub list: PathBuf,
}

/// `textures --openclonk DIR [--list FILE]`.
pub fn parse_args(mut args: impl Iterator<Item = String>) -> Result<TexturesTask, Error> {
    let mut openclonk = None;
    let mut list = PathBuf::from(DEFAULT_LIST);
    while let Some(arg) = args.next() {
        let mut value = |flag: &str| args.next().ok_or_else(|| Error::Usage(format!("`{flag}` needs a value")));
        match arg.as_str() {
            "--openclonk" => openclonk = Some(PathBuf::from(value("--openclonk")?)),
            "--list" => list = PathBuf::from(value("--list")?),
            other => return Err(Error::Usage(format!("unexpected argument `{other}`"))),
        }
    }
    let openclonk = openclonk.ok_or_else(|| Error::Usage("textures needs `--openclonk DIR`".into()))?;
    Ok(TexturesTask { openclonk, list })
}

/// Extracts every listed texture, checking each author in the group's `authors.txt`.
pub fn textures(task: &TexturesTask) -> Result<(), Error> {
    let entries = crate::sounds::read_list(&task.list)?;
    let authors_path = task.openclonk.join("authors.txt");
    let authors = std::fs::read_to_string(&authors_path).map_err(|source| Error::Io { path: authors_path, source })?;
    std::fs::create_dir_all(OUT).map_err(|source| Error::Io { path: PathBuf::from(OUT), source })?;
    let mut total = 0;
    for entry in &entries {
        if entry.package != "openclonk-data" {
            return Err(Error::Texture(format!("{}: unknown package `{}`", entry.name, entry.package)));
        }
        if !matches!(entry.licence.as_str(), "CC0" | "CC BY 3.0") {
            return Err(Error::Texture(format!("{}: licence `{}` is not CC0 or CC BY 3.0", entry.name, entry.licence)));
        }
        if !authors.contains(&entry.author) {
            return Err(Error::Texture(format!("{}: authors.txt does not name `{}`", entry.name, entry.author)));
        }
        let out = Path::new(OUT).join(format!("{}.png", entry.name));
        let mut convert = Command::new("convert");
        convert
            .arg(task.openclonk.join(&entry.file))
            .args(["-resize", TEXTURE_SIZE, "-colors", PALETTE_COLOURS, "-strip"])
            .arg(format!("png8:{}", out.display()));
        let status =
            convert.status().map_err(|error| Error::Texture(format!("convert (Debian's imagemagick): {error}")))?;
        if !status.success() {
            return Err(Error::Texture(format!("{convert:?} failed: {status}")));
        }
        let size = std::fs::metadata(&out).map_err(|source| Error::Io { path: out.clone(), source })?.len();
        total += size;
        println!("{:>7} {}  ({}, {} by {})", size, out.display(), entry.file, entry.licence, entry.author);
    }
    println!("{} files, {total} bytes", entries.len());
    Ok(())
}
