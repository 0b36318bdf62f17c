//! Checking the battlefield: zones or grid, their adjacency and their looks.

use super::*;

impl<'a> LevelChecker<'a> {
    /// The battlefield: a parsed grid, or the zones with their adjacency. A level with too many
    /// zones fails at once with that one error, since checking on would list thousands.
    pub fn battlefield(&mut self) -> Result<Battlefield, LoadErrors> {
        let level = self.level;
        let grid = level.grid.as_ref().and_then(|file| self.grid(file));
        if level.zones.is_empty() && level.grid.is_none() {
            let message = "the level has no zones; expected at least one in `zones: [...]`, or a `grid: (rows: [...])`";
            self.invalid("zones", "", 0, message.into());
        }
        if level.zones.len() > MAX_ZONES {
            let message = format!("the level has {} zones; at most {MAX_ZONES} are supported", level.zones.len());
            let (line, column) = self.map.locate("zones", "", 0);
            return Err(LoadError::Invalid { path: self.path.to_path_buf(), line, column, message }.into());
        }
        self.index_zones();
        let edges = self.edges();
        Ok(match grid {
            Some(map) => Battlefield::from_grid(map),
            None => Battlefield::new(zone_defs(level), &edges),
        })
    }

    /// How the board looks; reports terrain areas off the map or fitting no square, and
    /// textures no mod brings.
    pub fn looks(&mut self, battlefield: &Battlefield) -> BoardLooks {
        let (looks, problems) = board_looks(self.level, battlefield.grid(), &self.catalog.texture_files);
        for problem in problems {
            match &problem.value {
                Some(value) => self.invalid(problem.field, value, problem.nth, problem.message),
                None => {
                    let (line, column) = self.map.locate_key(problem.field, problem.nth);
                    let path = self.path.to_path_buf();
                    self.errors.push(LoadError::Invalid { path, line, column, message: problem.message });
                }
            }
        }
        looks
    }

    /// The grid map, if it parses; notes its scale.
    pub(super) fn grid(&mut self, file: &GridFile) -> Option<GridMap> {
        if !self.level.zones.is_empty() {
            self.invalid("grid", "", 0, "the level has both `zones` and a `grid`; expected one battlefield".into());
        }
        if file.squares_per_zone == 0 {
            let message = "`squares_per_zone` is 0; expected at least 1 (squares per zone of distance)";
            self.invalid("squares_per_zone", "", 0, message.into());
        }
        let rows: Vec<&str> = file.rows.iter().map(String::as_str).collect();
        match GridMap::parse(&rows) {
            Ok(map) => {
                self.squares_per_zone = Some(file.squares_per_zone.max(1));
                Some(map)
            }
            Err(error) => {
                self.invalid("grid", "", 0, format!("the grid is not a valid map: {error}"));
                None
            }
        }
    }

    /// Zone ids are unique; indexes the first of each.
    fn index_zones(&mut self) {
        let level = self.level;
        let mut seen: HashMap<&str, usize> = HashMap::new();
        for zone in &level.zones {
            let count = seen.entry(zone.id.as_str()).or_insert(0);
            *count += 1;
            if *count > 1 {
                let (nth, message) =
                    (*count - 1, format!("zone id \"{}\" is used twice; zone ids must be unique", zone.id));
                self.invalid("id", &zone.id, nth, message);
            } else {
                self.zone_index.insert(zone.id.as_str(), self.zone_index.len() as ZoneIdx);
            }
        }
    }

    /// Adjacency between existing zones.
    fn edges(&mut self) -> Vec<(ZoneIdx, ZoneIdx)> {
        let level = self.level;
        let zone_names: Vec<&str> = level.zones.iter().map(|zone| zone.id.as_str()).collect();
        let mut edges = Vec::new();
        for (zone, scope) in level.zones.iter().zip(self.entry_scopes("zones", level.zones.len())) {
            self.scope = scope;
            for neighbour in &zone.adjacent {
                let here = self.zone_index.get(zone.id.as_str()).copied();
                match (here, self.zone_index.get(neighbour.as_str()).copied()) {
                    (Some(a), Some(b)) => edges.push((a, b)),
                    (_, None) => {
                        let missing = not_found("zone", neighbour, &zone_names);
                        self.invalid(
                            "adjacent",
                            neighbour,
                            0,
                            format!("zone \"{}\" is adjacent to {missing}", zone.id),
                        );
                    }
                    _ => {}
                }
            }
        }
        self.scope = None;
        edges
    }
}

/// The zones of a zone level, the first of each repeated id.
fn zone_defs(level: &LevelFile) -> Vec<ZoneDef> {
    let mut seen = HashSet::new();
    level
        .zones
        .iter()
        .filter(|zone| seen.insert(zone.id.as_str()))
        .map(|zone| ZoneDef {
            id: zone.id.as_str().into(),
            name: zone.name.clone().unwrap_or_else(|| zone.id.clone()),
            capacity: zone.capacity,
            hazard: zone.hazard.clone(),
            position: zone.position,
            square: None,
            enter_cost: 1,
        })
        .collect()
}
