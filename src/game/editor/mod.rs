//! The level editor screen: new or open a level, paint its grid or lay out its zones, place
//! units, edit sides and victory in panels, see `fray check`'s errors live, undo and redo, save
//! stable RON and test play. The edits themselves are the plain functions of
//! [`crate::levels::edit`]; this module draws them and feeds them the mouse.

mod canvas;
mod check;
mod panels;
mod start;
mod test_play;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

use bevy::prelude::*;

use crate::levels::catalog::{AssetSource, Catalog};
use crate::levels::edit::{Concern, History, Square, Terrain};
use crate::levels::icons;
use crate::levels::mods::ModSet;
use crate::levels::schema::{CreatureFile, LevelFile, UnitFile};

/// The folder levels are saved in unless the player names another path.
pub const LEVELS_FOLDER: &str = "levels";
/// How long the level must stay unchanged before the checker runs again.
const CHECK_DELAY: Duration = Duration::from_millis(250);

/// What a click or drag on the board does.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Tool {
    /// Paints the squares the pointer passes over.
    #[default]
    Brush,
    /// Paints a straight line from where the drag starts to where it ends.
    Line,
    /// Paints a rectangle between the drag's corners (filled or its outline).
    Rectangle,
    /// Repaints the region of like ground around the clicked square.
    Fill,
    /// Places the chosen creature for the chosen side.
    PlaceUnit,
    /// Selects a unit or zone; dragging moves it.
    Select,
    /// Clicks two zones to connect or disconnect them.
    Connect,
}

impl Tool {
    /// The tools a grid level offers.
    pub const GRID: [Tool; 6] = [Tool::Brush, Tool::Line, Tool::Rectangle, Tool::Fill, Tool::PlaceUnit, Tool::Select];
    /// The tools a zone level offers.
    pub const ZONES: [Tool; 3] = [Tool::Select, Tool::Connect, Tool::PlaceUnit];

    /// Its button label (scripts click tools by it).
    pub fn label(self) -> &'static str {
        match self {
            Tool::Brush => "Brush",
            Tool::Line => "Line",
            Tool::Rectangle => "Rectangle",
            Tool::Fill => "Fill",
            Tool::PlaceUnit => "Place unit",
            Tool::Select => "Select / move",
            Tool::Connect => "Connect zones",
        }
    }
}

/// One line of the live check: `line:column: message`, and what it names on the board.
#[derive(Clone, Debug, PartialEq)]
pub struct CheckLine {
    /// The message as `fray check` writes it, without the file name when it is this level's.
    pub text: String,
    /// The units, zones and squares it is about.
    pub concerns: Vec<Concern>,
}

/// Everything the editor holds between frames; it outlives a test play, so the player comes
/// back to the same edits.
#[derive(Resource, Debug, Default)]
pub struct EditorState {
    /// The level being edited; `None` shows the start page.
    pub level: Option<LevelFile>,
    /// Where it is saved (and what relative rulesets and the catalog are read near).
    pub path: PathBuf,
    /// The mods its catalog is read with: those in play when it was opened.
    pub mods: ModSet,
    /// The icons the mods of its catalog bring, by name (`icons/<name>.png`).
    pub mod_icons: BTreeMap<String, PathBuf>,
    /// The Save As path field.
    pub path_field: String,
    /// A folder Save as would have to create: it asks first, and creates it when Save as is
    /// pressed again for the same folder.
    pub new_folder: Option<PathBuf>,
    /// Undo and redo.
    pub history: History,
    /// The board tool in use.
    pub tool: Tool,
    /// The ground the painting tools lay.
    pub terrain: Terrain,
    /// Whether the rectangle tool fills its inside too.
    pub filled: bool,
    /// The creature the Place unit tool places (a catalog key).
    pub creature: String,
    /// The creature list's search text.
    pub search: String,
    /// The side new units join (an index into the level's sides).
    pub side: usize,
    /// The selected unit's id.
    pub selected_unit: Option<String>,
    /// The selected zone's id (also the first zone of a connection).
    pub selected_zone: Option<String>,
    /// The zone id field of the selected zone, applied on Enter or focus loss.
    pub zone_id_field: String,
    /// Where a line or rectangle drag started.
    pub anchor: Option<Square>,
    /// Whether the current stroke already has its undo snapshot.
    pub stroke_recorded: bool,
    /// The live check's last result: errors (empty when the level checks) and warnings.
    pub errors: Vec<CheckLine>,
    /// Warnings from the last check.
    pub warnings: Vec<String>,
    /// Time since the last edit, while a check is owed.
    pub check_owed: Option<Duration>,
    /// What the last save, open or test play did.
    pub status: String,
    /// Creatures the catalog offers: (key, display name).
    pub creatures: Vec<(String, String)>,
    /// Each catalog creature's token picture (an icon name), as the battle shows it.
    pub creature_icons: std::collections::HashMap<String, String>,
    /// The egui textures of the icons the board's tokens show, by icon name.
    pub icon_textures: std::collections::HashMap<String, bevy_egui::egui::TextureId>,
    /// Rulesets available by name.
    pub rulesets: Vec<String>,
    /// The path field of the start page's Open.
    pub open_field: String,
    /// Whether a test play of this level is under way (its end comes back here).
    pub test_playing: bool,
}

/// A creature's token picture as the battle shows it: its own icon, else its main weapon's kind.
fn creature_icon<'a>(catalog: &'a Catalog, creature: &'a CreatureFile) -> &'a str {
    let weapon = || catalog.weapons.get(&creature.weapon).map(|weapon| icons::weapon_icon(&creature.weapon, weapon));
    creature.icon.as_deref().or_else(weapon).unwrap_or(icons::GENERIC_ICON)
}

impl EditorState {
    /// The picture on `unit`'s token: its own icon, else its creature's.
    pub fn unit_icon<'a>(&'a self, unit: &'a UnitFile) -> &'a str {
        let creature = self.creature_icons.get(&unit.creature).map(String::as_str);
        unit.icon.as_deref().or(creature).unwrap_or(icons::GENERIC_ICON)
    }

    /// Starts editing `level`, saved at `path`, with `mods` over the catalog: a fresh undo
    /// stack, a check owed at once.
    pub fn open(&mut self, level: LevelFile, path: PathBuf, mods: &ModSet) {
        let source = AssetSource::near(&path, mods);
        // A catalog that does not load offers no creatures; the live check says why.
        let catalog = Catalog::load(&source).ok();
        self.mods = mods.clone();
        self.mod_icons = catalog.as_ref().map(|catalog| catalog.icon_files.clone()).unwrap_or_default();
        let creatures = catalog.iter().flat_map(|catalog| catalog.creatures.iter().map(move |entry| (catalog, entry)));
        self.creatures = creatures.clone().map(|(_, (key, creature))| (key.clone(), creature.name.clone())).collect();
        self.creature_icons = creatures
            .map(|(catalog, (key, creature))| (key.clone(), creature_icon(catalog, creature).to_string()))
            .collect();
        if self.creature.is_empty()
            && let Some((key, _)) = self.creatures.first()
        {
            self.creature = key.clone();
        }
        self.rulesets = source.ruleset_names();
        self.path_field = path.display().to_string();
        self.path = path;
        self.tool = if level.grid.is_some() { Tool::Brush } else { Tool::Select };
        self.history = History::default();
        self.selected_unit = None;
        self.selected_zone = None;
        self.side = 0;
        self.level = Some(level);
        self.check_owed = Some(CHECK_DELAY);
    }

    /// Applies `edited` when it differs from the level: the old level goes on the undo stack
    /// (once per stroke when `stroke` is set, so a brush drag undoes in one step) and a check
    /// is owed.
    pub fn commit(&mut self, edited: LevelFile, stroke: bool) {
        if !stroke {
            // The stroke is over: the next edit gets its own undo step.
            self.stroke_recorded = false;
        }
        let Some(level) = self.level.as_mut() else {
            return;
        };
        if *level == edited {
            return;
        }
        let before = std::mem::replace(level, edited);
        if !(stroke && self.stroke_recorded) {
            self.history.record(before);
        }
        self.stroke_recorded = stroke;
        self.check_owed = Some(Duration::ZERO);
    }

    /// Undoes the last edit, if any.
    pub fn undo(&mut self) {
        if let Some(level) = &self.level
            && let Some(previous) = self.history.undo(level)
        {
            self.level = Some(previous);
            self.check_owed = Some(Duration::ZERO);
        }
    }

    /// Redoes the last undone edit, if any.
    pub fn redo(&mut self) {
        if let Some(level) = &self.level
            && let Some(next) = self.history.redo(level)
        {
            self.level = Some(next);
            self.check_owed = Some(Duration::ZERO);
        }
    }

    /// Whether a check message names `concern`.
    pub fn flagged(&self, concern: &Concern) -> bool {
        self.errors.iter().any(|line| line.concerns.contains(concern))
    }
}

/// The default save path of a new level called `stem`: `levels/stem.ron`, numbered on when
/// taken.
pub fn new_level_path(stem: &str) -> PathBuf {
    let folder = Path::new(LEVELS_FOLDER);
    (1..)
        .map(|count| folder.join(format!("{stem}_{count}.ron")))
        .find(|path| !path.exists())
        .unwrap_or_else(|| folder.join(format!("{stem}.ron")))
}

/// The editor's screen, panels, board, live check and test play.
pub(super) fn plugin(app: &mut App) {
    app.init_resource::<EditorState>();
    app.add_plugins((start::plugin, panels::plugin, check::plugin, test_play::plugin));
}
