//! Dice expressions (`5d8+15`, `1d12-2`, `d%`), the seeded combat RNG, and the logged roll record.

use std::collections::{HashMap, VecDeque};
use std::fmt;

use bevy::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

/// The largest number of dice one expression may roll; keeps hostile data from stalling a battle.
pub const MAX_DICE: u32 = 1_000;
/// The largest die face count accepted.
pub const MAX_SIDES: u32 = 1_000_000;
/// The largest flat modifier accepted, in either direction.
pub const MAX_MODIFIER: i32 = 1_000_000;

/// A dice expression: `count` dice with `sides` faces plus a flat `modifier`.
///
/// Written `NdS`, `NdS+K`, `NdS-K`, `dS` (one die), `d%` (one hundred-sided die) or a bare `K`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct Dice {
    /// How many dice are rolled.
    pub count: u32,
    /// Faces per die (0 when the expression is a bare number).
    pub sides: u32,
    /// Flat amount added after the dice.
    pub modifier: i32,
}

/// Why a dice expression could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DiceError {
    /// The text is not of the form `NdS+K`.
    #[error("`{0}` is not a dice expression; expected something like `1d20`, `2d6+3`, `d%` or `4`")]
    Malformed(String),
    /// The numbers are outside what a battle can sensibly roll.
    #[error(
        "`{0}` is out of range; at most {MAX_DICE} dice of at most {MAX_SIDES} sides and a modifier within ±{MAX_MODIFIER}"
    )]
    OutOfRange(String),
}

impl Dice {
    /// A bare number: rolls no dice.
    pub const fn flat(value: i32) -> Self {
        Self { count: 0, sides: 0, modifier: value }
    }

    /// `count` dice of `sides` faces with no modifier.
    pub const fn new(count: u32, sides: u32) -> Self {
        Self { count, sides, modifier: 0 }
    }

    /// The same dice with `delta` added to the modifier.
    pub fn plus(self, delta: i32) -> Self {
        Self { modifier: self.modifier.saturating_add(delta), ..self }
    }

    /// The same dice with the count multiplied (criticals that double the dice).
    pub fn times_dice(self, factor: u32) -> Self {
        Self { count: self.count.saturating_mul(factor).min(MAX_DICE), ..self }
    }

    /// The same dice with one more die (a feat's "one more damage die").
    pub fn with_extra_die(self) -> Self {
        if self.sides == 0 { self } else { Self { count: (self.count + 1).min(MAX_DICE), ..self } }
    }

    /// The same roll with `count` dice fewer, never fewer than one (feats' extra dice taken off).
    pub fn without_dice(self, count: u32) -> Self {
        if self.sides == 0 { self } else { Self { count: self.count.saturating_sub(count).max(1), ..self } }
    }

    /// Lowest possible total.
    pub fn min(&self) -> i32 {
        self.count as i32 * i32::from(self.sides > 0) + self.modifier
    }

    /// Highest possible total.
    pub fn max(&self) -> i32 {
        (self.count as i64 * self.sides as i64 + self.modifier as i64) as i32
    }

    /// The exact mean total, as a float.
    pub fn mean(&self) -> f64 {
        if self.sides == 0 {
            return self.modifier as f64;
        }
        self.count as f64 * (self.sides as f64 + 1.0) / 2.0 + self.modifier as f64
    }

    /// Parses `NdS+K`; see the type's documentation.
    pub fn parse(text: &str) -> Result<Self, DiceError> {
        let malformed = || DiceError::Malformed(text.to_string());
        let out_of_range = || DiceError::OutOfRange(text.to_string());
        let compact: String = text.chars().filter(|c| !c.is_whitespace()).collect();
        if compact.is_empty() {
            return Err(malformed());
        }
        let lower = compact.to_ascii_lowercase();
        let Some(d_at) = lower.find('d') else {
            let value: i64 = lower.parse().map_err(|_| malformed())?;
            if value.unsigned_abs() > MAX_MODIFIER as u64 {
                return Err(out_of_range());
            }
            return Ok(Self::flat(value as i32));
        };
        let (count_text, rest) = lower.split_at(d_at);
        let rest = &rest[1..];
        let count: u64 = if count_text.is_empty() { 1 } else { count_text.parse().map_err(|_| malformed())? };
        let sign_at = rest.find(['+', '-']);
        let (sides_text, modifier) = match sign_at {
            Some(at) => {
                let (sides, modifier_text) = rest.split_at(at);
                let magnitude: i64 = modifier_text[1..].parse().map_err(|_| malformed())?;
                if modifier_text[1..].starts_with(['+', '-']) {
                    return Err(malformed());
                }
                let signed = if modifier_text.starts_with('-') { -magnitude } else { magnitude };
                (sides, signed)
            }
            None => (rest, 0),
        };
        let sides: u64 = if sides_text == "%" {
            100
        } else {
            if sides_text.starts_with('+') {
                return Err(malformed());
            }
            sides_text.parse().map_err(|_| malformed())?
        };
        if count == 0 || sides == 0 {
            return Err(malformed());
        }
        if count > MAX_DICE as u64 || sides > MAX_SIDES as u64 || modifier.unsigned_abs() > MAX_MODIFIER as u64 {
            return Err(out_of_range());
        }
        Ok(Self { count: count as u32, sides: sides as u32, modifier: modifier as i32 })
    }
}

impl fmt::Display for Dice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.count == 0 || self.sides == 0 {
            return write!(f, "{}", self.modifier);
        }
        write!(f, "{}d{}", self.count, self.sides)?;
        match self.modifier {
            0 => Ok(()),
            m if m > 0 => write!(f, "+{m}"),
            m => write!(f, "{m}"),
        }
    }
}

/// What an editor may accept as a dice expression: the forms [`Dice::parse`] reads, with the
/// spaces it ignores allowed between the parts.
pub const DICE_PATTERN: &str = r"^\s*(?:[+-]?\s*\d+|(?:0*[1-9]\d*\s*)?[dD]\s*(?:0*[1-9]\d*|%)\s*(?:[+-]\s*\d+)?)\s*$";

// Written by hand: in RON a dice expression is text (`"2d6+3"`), not the struct's fields.
impl schemars::JsonSchema for Dice {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Dice".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "type": "string",
            "pattern": DICE_PATTERN,
            "description": "A dice expression: `NdS`, `NdS+K`, `NdS-K`, `dS` (one die), `d%` (one hundred-sided die) or a bare number `K`.",
            "examples": ["1d20", "2d6+3", "d%", "4"],
        })
    }
}

impl TryFrom<String> for Dice {
    type Error = DiceError;
    fn try_from(value: String) -> Result<Self, Self::Error> {
        Self::parse(&value)
    }
}

impl From<Dice> for String {
    fn from(value: Dice) -> Self {
        value.to_string()
    }
}

/// One roll as the combat log records it: the expression, each face in order, and the total.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DiceRoll {
    /// The expression as rolled, modifiers folded in; written as text (`"1d12-2"`) only when
    /// the roll is serialised, so unlogged battles never format it.
    pub expr: Dice,
    /// Faces in the order rolled.
    pub dice: Vec<u32>,
    /// Sum of the faces plus the modifier.
    pub total: i32,
}

impl DiceRoll {
    /// The first face rolled (the natural result of a single-die roll).
    pub fn natural(&self) -> Option<u32> {
        self.dice.first().copied()
    }
}

/// The only source of randomness in the rules: a portable, seeded ChaCha stream.
///
/// Tests may script the faces to reproduce a worked example exactly; scripted faces are used
/// first (clamped to the die), then the seeded stream takes over.
///
/// A *keyed* stream (the search's simulations only) restarts at each [`CombatRng::key`] from
/// the seed and the key, so a unit's dice in a round do not depend on how many dice were rolled
/// before it: two plans played on the same seed then share their luck act for act.
#[derive(Resource, Clone, Debug)]
pub struct CombatRng {
    seed: u64,
    stream: ChaCha8Rng,
    scripted: VecDeque<u32>,
    /// Keyed: how often each key has been asked for, so a unit acting twice in a round (a turn
    /// in parts, a held action) draws anew the second time.
    keys: Option<HashMap<u64, u64>>,
    /// Keyed: the stream the next die starts, if a key was asked for since the last die.
    next_key: Option<u64>,
}

impl CombatRng {
    /// A fresh stream for `seed`; the same seed always gives the same battle.
    pub fn seeded(seed: u64) -> Self {
        Self { seed, stream: ChaCha8Rng::seed_from_u64(seed), scripted: VecDeque::new(), keys: None, next_key: None }
    }

    /// A stream for `seed` that starts afresh at every [`CombatRng::key`]: for simulations that
    /// compare plans on the same luck (common random numbers), never for the real battle.
    pub fn keyed(seed: u64) -> Self {
        Self { keys: Some(HashMap::new()), ..Self::seeded(seed) }
    }

    /// Starts the draws for `draw` in `round` (by the unit `order()`-th in level order, if one)
    /// afresh, if the stream is keyed; a plain stream ignores it, so the real battle's dice never
    /// change. The level order, unlike an entity, names the same unit whatever else a world
    /// holds, so a simulation's luck does not shift when an unrelated resource is added. `order`
    /// is asked only for a keyed stream: a real battle does no look-up for it.
    pub fn key(&mut self, round: u32, order: impl FnOnce() -> Option<u32>, draw: Draw) {
        if let Some(keys) = &mut self.keys {
            let parts = [u64::from(round), order().map_or(u64::MAX, u64::from), draw as u64];
            let key = parts.iter().fold(mix(self.seed), |key, &part| mix(key ^ part));
            let uses = keys.entry(key).or_default();
            *uses += 1;
            // Most keyed steps roll nothing (a walk unopposed, a hold): the stream is set up
            // at the first die.
            self.next_key = Some(mix(key ^ *uses));
        }
    }

    /// Restarts the stream from `seed`: online, each declaration pass's close gives the dice a
    /// seed no one knew while declaring.
    pub fn reseed(&mut self, seed: u64) {
        self.seed = seed;
        self.stream = ChaCha8Rng::seed_from_u64(seed);
    }

    /// A stream that first returns `faces` (one per die, in order).
    pub fn scripted(faces: impl IntoIterator<Item = u32>) -> Self {
        let mut rng = Self::seeded(0);
        rng.scripted = faces.into_iter().collect();
        rng
    }

    /// Adds faces to the script.
    pub fn push_script(&mut self, faces: impl IntoIterator<Item = u32>) {
        self.scripted.extend(faces);
    }

    /// The seed this stream started from.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// Rolls one die of `sides` faces.
    pub fn die(&mut self, sides: u32) -> u32 {
        if sides == 0 {
            return 0;
        }
        if let Some(key) = self.next_key.take() {
            self.stream = ChaCha8Rng::seed_from_u64(key);
        }
        match self.scripted.pop_front() {
            Some(face) => face.clamp(1, sides),
            None => self.stream.random_range(1..=sides),
        }
    }

    /// Rolls a whole expression and records it for the log.
    pub fn roll(&mut self, dice: Dice) -> DiceRoll {
        let mut faces = Vec::with_capacity(dice.count as usize);
        let mut total = dice.modifier as i64;
        if dice.sides > 0 {
            for _ in 0..dice.count {
                let face = self.die(dice.sides);
                total += face as i64;
                faces.push(face);
            }
        }
        DiceRoll { expr: dice, dice: faces, total: total.clamp(i32::MIN as i64, i32::MAX as i64) as i32 }
    }

    /// Rolls a test, twice with `disadvantage`, the lower counting. Returns the roll that counts
    /// and, with disadvantage, the other one for the log.
    pub fn roll_test(&mut self, dice: Dice, disadvantage: bool) -> (DiceRoll, Option<DiceRoll>) {
        let first = self.roll(dice);
        if !disadvantage {
            return (first, None);
        }
        let second = self.roll(dice);
        if second.total < first.total { (second, Some(first)) } else { (first, Some(second)) }
    }
}

/// What a keyed stream's draws are for ([`CombatRng::key`]): each part of a round has its own.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Draw {
    /// The round's initiative rolls.
    Initiative,
    /// A unit's move, and the blows it draws on the way.
    Move,
    /// A unit following its target.
    Pursuit,
    /// A unit's action.
    Action,
    /// Damage landing on a unit once its group has acted.
    Landing,
    /// The rest of a split move, after acting.
    MoveAfter,
    /// A unit's morale test.
    Morale,
    /// The end of the round: hazards, grips, bleeding.
    Upkeep,
}

/// SplitMix64's increment, the golden ratio in 64 bits.
const MIX_GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;
/// SplitMix64's two multipliers.
const MIX_MULTIPLIERS: (u64, u64) = (0xBF58_476D_1CE4_E5B9, 0x94D0_49BB_1331_11EB);

/// SplitMix64's finaliser: spreads every bit of `value` over the result, so nearby keys give
/// unrelated streams.
fn mix(value: u64) -> u64 {
    let mut z = value.wrapping_add(MIX_GAMMA);
    z = (z ^ (z >> 30)).wrapping_mul(MIX_MULTIPLIERS.0);
    z = (z ^ (z >> 27)).wrapping_mul(MIX_MULTIPLIERS.1);
    z ^ (z >> 31)
}

impl Default for CombatRng {
    fn default() -> Self {
        Self::seeded(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_prints_the_usual_forms() {
        for (text, shown) in [
            ("1d20", "1d20"),
            ("5d8+15", "5d8+15"),
            ("1d12-2", "1d12-2"),
            ("d%", "1d100"),
            ("d6", "1d6"),
            ("4", "4"),
            ("-3", "-3"),
            ("2D4 + 1", "2d4+1"),
        ] {
            assert_eq!(Dice::parse(text).unwrap().to_string(), shown, "{text}");
        }
    }

    #[test]
    fn rejects_nonsense() {
        for text in ["", "d", "0d6", "1d0", "1d6++2", "abc", "1d6+-2", "99999999d6", "1d6+x", "+"] {
            assert!(Dice::parse(text).is_err(), "{text} should not parse");
        }
    }

    #[test]
    fn same_seed_same_faces() {
        let mut a = CombatRng::seeded(42);
        let mut b = CombatRng::seeded(42);
        let dice = Dice::new(10, 12);
        assert_eq!(a.roll(dice), b.roll(dice));
    }

    #[test]
    fn scripted_faces_come_first_and_fold_the_modifier() {
        let mut rng = CombatRng::scripted([7]);
        let roll = rng.roll(Dice::new(1, 12).plus(-2));
        assert_eq!(roll, DiceRoll { expr: Dice::parse("1d12-2").unwrap(), dice: vec![7], total: 5 });
        assert_eq!(serde_json::to_string(&roll).unwrap(), r#"{"expr":"1d12-2","dice":[7],"total":5}"#);
    }

    #[test]
    fn totals_stay_within_bounds() {
        let mut rng = CombatRng::seeded(3);
        let dice = Dice::parse("3d6+2").unwrap();
        for _ in 0..1_000 {
            let total = rng.roll(dice).total;
            assert!((dice.min()..=dice.max()).contains(&total));
        }
    }

    #[test]
    fn a_plain_stream_ignores_keys() {
        let mut keyed_away = CombatRng::seeded(9);
        let mut untouched = CombatRng::seeded(9);
        keyed_away.key(1, || None, Draw::Initiative);
        let faces = |rng: &mut CombatRng| (0..8).map(|_| rng.die(20)).collect::<Vec<_>>();
        assert_eq!(faces(&mut keyed_away), faces(&mut untouched));
    }

    #[test]
    fn a_keyed_stream_rolls_the_same_for_the_same_key_whatever_came_before() {
        let unit = 3;
        let faces = |rng: &mut CombatRng| (0..8).map(|_| rng.die(20)).collect::<Vec<_>>();
        let mut quiet = CombatRng::keyed(9);
        quiet.key(2, || Some(unit), Draw::Action);
        let mut busy = CombatRng::keyed(9);
        faces(&mut busy);
        busy.key(2, || Some(unit), Draw::Action);
        assert_eq!(faces(&mut quiet), faces(&mut busy));
        // Another key, or the same key asked for again, draws anew.
        let mut other = CombatRng::keyed(9);
        other.key(2, || Some(unit), Draw::Move);
        let mut again = CombatRng::keyed(9);
        again.key(2, || Some(unit), Draw::Action);
        let first = faces(&mut again);
        again.key(2, || Some(unit), Draw::Action);
        assert_ne!(faces(&mut other), first);
        assert_ne!(faces(&mut again), first);
    }
}
