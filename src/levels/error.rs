//! Load errors with `file:line:column`, "did you mean" suggestions, and locating names in source.

use std::fmt;
use std::ops::Range;
use std::path::{Path, PathBuf};

/// One problem with a level, ruleset or catalog file.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LoadError {
    /// The file could not be read.
    #[error("{}: cannot read the file: {reason}", path.display())]
    Unreadable {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        reason: String,
    },
    /// The file is not valid RON for its schema (syntax, unknown field, wrong type).
    #[error("{}:{line}:{column}: {message}", path.display())]
    Syntax {
        /// The file.
        path: PathBuf,
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// What is wrong and what was expected.
        message: String,
    },
    /// The file parses but makes no sense (unknown reference, duplicate id, ...).
    #[error("{}:{line}:{column}: {message}", path.display())]
    Invalid {
        /// The file.
        path: PathBuf,
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// What is wrong and what was expected.
        message: String,
    },
}

/// Something that loads but is probably not what the author meant: `fray check` prints it and
/// still passes the file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoadWarning {
    /// The file.
    pub path: PathBuf,
    /// 1-based line.
    pub line: usize,
    /// 1-based column.
    pub column: usize,
    /// What looks wrong and what was probably meant.
    pub message: String,
}

impl fmt::Display for LoadWarning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}: warning: {}", self.path.display(), self.line, self.column, self.message)
    }
}

/// Every problem found, reported together.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct LoadErrors(pub Vec<LoadError>);

impl fmt::Display for LoadErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (at, error) in self.0.iter().enumerate() {
            if at > 0 {
                writeln!(f)?;
            }
            write!(f, "{error}")?;
        }
        Ok(())
    }
}

impl std::error::Error for LoadErrors {}

impl From<LoadError> for LoadErrors {
    fn from(error: LoadError) -> Self {
        Self(vec![error])
    }
}

/// Turns a RON error in `text` into a `file:line:column` error with a readable message: RON's
/// own words, then what belongs there in a modder's words (naming the field when it is known).
pub fn syntax_error(path: &Path, text: &str, error: &ron::error::SpannedError) -> LoadError {
    let position = error.span.start;
    let message = match &error.code {
        ron::Error::NoSuchStructField { expected, found, outer } => {
            let known: Vec<&str> = expected.to_vec();
            let context = outer.as_ref().map(|outer| format!(" in `{outer}`")).unwrap_or_default();
            let hint = suggestion(found, known.iter().copied())
                .map(|best| format!("; did you mean `{best}`?"))
                .unwrap_or_default();
            format!("unknown field `{found}`{context}{hint} (expected one of: {})", known.join(", "))
        }
        ron::Error::MissingStructField { field, outer } => {
            let context = outer.as_ref().map(|outer| format!(" in `{outer}`")).unwrap_or_default();
            format!("missing field `{field}`{context}")
        }
        other => {
            let map = SourceMap::new(text);
            let field = key_before(&text[..map.offset(position.line, position.col)]);
            match (expected_value(other), field, expected_structure(other)) {
                (Some(value), Some(field), _) => format!("{other}; the value of `{field}` should be {value}"),
                (Some(value), None, _) => format!("{other}; expected {value} here"),
                (None, _, Some(hint)) => format!("{other}; {hint}"),
                (None, _, None) => other.to_string(),
            }
        }
    };
    LoadError::Syntax { path: path.to_path_buf(), line: position.line.max(1), column: position.col.max(1), message }
}

/// The value RON wanted where it stopped, in a modder's words.
fn expected_value(code: &ron::Error) -> Option<&'static str> {
    use ron::Error;
    Some(match code {
        Error::ExpectedString => "text in double quotes, such as \"spear\"",
        Error::ExpectedInteger => "a whole number, such as 3",
        Error::ExpectedFloat => "a number, such as 1.5",
        Error::ExpectedBoolean => "`true` or `false`",
        Error::ExpectedOption => "`Some(...)` around the value, or `None` (the field is optional)",
        Error::ExpectedArray => "a list in square brackets, such as `[\"a\", \"b\"]`",
        Error::ExpectedMap => "a map in braces, such as `{\"name\": (...)}`",
        Error::ExpectedStructLike | Error::ExpectedNamedStructLike(_) => {
            "an entry in parentheses, `(field: value, ...)`"
        }
        Error::ExpectedUnit => "`()`",
        Error::ExpectedChar => "one character in single quotes",
        _ => return None,
    })
}

/// What is missing in the file's punctuation where RON stopped, in a modder's words.
fn expected_structure(code: &ron::Error) -> Option<&'static str> {
    use ron::Error;
    Some(match code {
        Error::ExpectedComma => "a comma `,` is missing before this, after the previous field or list item",
        Error::ExpectedIdentifier => {
            "expected a field name here (such as `id:`); a closing `)` may be missing before it"
        }
        Error::ExpectedOptionEnd | Error::ExpectedStructLikeEnd => {
            "a `)` is missing here, or a comma between two fields"
        }
        Error::ExpectedArrayEnd => "a `]` is missing to close the list, or a comma between two items",
        Error::ExpectedMapEnd => "a `}` is missing to close the map, or a comma between two entries",
        Error::ExpectedMapColon => "a colon `:` is missing between a name and its value",
        Error::ExpectedStringEnd => "the closing double quote `\"` of this text is missing",
        Error::Eof => "the file ends before every `(`, `[` and `{` is closed",
        Error::TrailingCharacters => "expected nothing after the closing `)` of the file's value",
        _ => return None,
    })
}

/// The closest known name to `wanted`, if one is close enough to be a likely typo.
pub fn suggestion<'a>(wanted: &str, known: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    const MAX_TYPO_DISTANCE: usize = 3;
    if wanted.len() > MAX_SUGGESTED_NAME {
        return None;
    }
    known
        .into_iter()
        .filter(|name| name.len() <= MAX_SUGGESTED_NAME && name.len().abs_diff(wanted.len()) <= MAX_TYPO_DISTANCE)
        .map(|name| (strsim::damerau_levenshtein(&wanted.to_lowercase(), &name.to_lowercase()), name))
        .filter(|&(distance, name)| distance <= MAX_TYPO_DISTANCE.min(name.len().max(wanted.len()) / 2 + 1))
        .min()
        .map(|(_, name)| name)
}

/// `what "name" not found; did you mean "best"?` (or the list of what exists).
pub fn not_found(what: &str, name: &str, known: &[&str]) -> String {
    match suggestion(name, known.iter().copied()) {
        Some(best) => format!("{what} \"{name}\" not found; did you mean \"{best}\"?"),
        None if known.is_empty() => format!("{what} \"{name}\" not found; none are defined"),
        None if known.len() <= 12 => format!("{what} \"{name}\" not found; expected one of: {}", known.join(", ")),
        None => format!("{what} \"{name}\" not found"),
    }
}

/// Finds where things are written in a source text, to point errors at them.
pub struct SourceMap<'a> {
    text: &'a str,
}

impl<'a> SourceMap<'a> {
    /// Wraps the text.
    pub fn new(text: &'a str) -> Self {
        Self { text }
    }

    /// The byte offset of a 1-based line and column (in characters), at most the text's end.
    pub fn offset(&self, line: usize, column: usize) -> usize {
        let line_start = match line.saturating_sub(1) {
            0 => 0,
            newlines => self.text.match_indices('\n').nth(newlines - 1).map_or(self.text.len(), |(at, _)| at + 1),
        };
        let rest = &self.text[line_start..];
        line_start + rest.char_indices().nth(column.saturating_sub(1)).map_or(rest.len(), |(at, _)| at)
    }

    /// Line and column (1-based) of a byte offset.
    pub fn position(&self, offset: usize) -> (usize, usize) {
        let before = &self.text[..offset.min(self.text.len())];
        let line = before.matches('\n').count() + 1;
        let column = before.rfind('\n').map_or(before.chars().count(), |at| before[at + 1..].chars().count()) + 1;
        (line, column)
    }

    /// Position of the `nth` (0-based) occurrence of `"value"` written as the value of the
    /// key `field` (`field: "value"`, `field: Some("value")`, `field: ["a", "value"]`), else of
    /// the quoted value anywhere (unless it is empty), else of the key; (1, 1) when nothing
    /// matches.
    pub fn locate(&self, field: &str, value: &str, nth: usize) -> (usize, usize) {
        self.locate_in(0..self.text.len(), field, value, nth).unwrap_or((1, 1))
    }

    /// [`locate`](Self::locate) within the bytes `within` of the text (one entry of a list, see
    /// [`list_items`](Self::list_items)); `None` when nothing there matches.
    pub fn locate_in(&self, within: Range<usize>, field: &str, value: &str, nth: usize) -> Option<(usize, usize)> {
        let quoted = format!("\"{value}\"");
        let start = within.start.min(self.text.len());
        let end = within.end.clamp(start, self.text.len());
        let scope = &self.text[start..end];
        let mut keyed = Vec::new();
        let mut anywhere = None;
        let mut from = 0;
        while let Some(at) = scope[from..].find(&quoted) {
            let offset = start + from + at;
            anywhere.get_or_insert(offset);
            if key_before(&self.text[..offset]) == Some(field) {
                keyed.push(offset);
            }
            from = offset - start + quoted.len();
        }
        let offset = keyed
            .get(nth)
            .or_else(|| keyed.last())
            .copied()
            // Any `""` in the file would match an empty value: only one under its key counts.
            .or(anywhere.filter(|_| !value.is_empty()))
            .or_else(|| scope.find(&format!("{field}:")).map(|at| start + at));
        offset.map(|at| self.position(at))
    }

    /// Where the `nth` `field:` key is written (the first when there are fewer; the file's
    /// start when there is none).
    pub fn locate_key(&self, field: &str, nth: usize) -> (usize, usize) {
        let key = format!("{field}:");
        let offsets: Vec<usize> = self.text.match_indices(&key).map(|(at, _)| at).collect();
        offsets.get(nth).or(offsets.first()).map_or((1, 1), |&at| self.position(at))
    }

    /// The byte ranges of the entries of the list written as `key: [...]` in the file's
    /// outermost parentheses (`units`, `zones`), in order; strings and comments are skipped.
    /// Empty when there is no such list.
    pub fn list_items(&self, key: &str) -> Vec<Range<usize>> {
        let code = code_chars(self.text);
        let mut depth = 0usize;
        let mut list = None;
        for (at, &(offset, c)) in code.iter().enumerate() {
            if depth == 1 && self.is_key_at(offset, key) {
                list = code[at..].iter().find(|(_, c)| *c == '[').map(|&(open, _)| open);
                break;
            }
            depth = nest(depth, c);
        }
        let Some(open) = list else { return Vec::new() };
        let mut items = Vec::new();
        let mut depth = 0usize;
        let mut item_start = None;
        for &(offset, c) in code.iter().skip_while(|(offset, _)| *offset <= open) {
            if depth == 0 && matches!(c, ',' | ']' | ')' | '}') {
                items.extend(item_start.take().map(|from| from..offset));
                if c != ',' {
                    break;
                }
                continue;
            }
            if !c.is_whitespace() {
                item_start.get_or_insert(offset);
            }
            depth = nest(depth, c);
        }
        items
    }

    /// Whether the identifier `key` followed by `:` starts at `offset`.
    fn is_key_at(&self, offset: usize, key: &str) -> bool {
        let is_identifier = |c: char| c.is_alphanumeric() || c == '_';
        let rest = &self.text[offset..];
        rest.starts_with(key)
            && !self.text[..offset].chars().next_back().is_some_and(is_identifier)
            && rest[key.len()..].trim_start().starts_with(':')
    }
}

/// The bracket depth after `c`, from `depth` before it.
fn nest(depth: usize, c: char) -> usize {
    match c {
        '(' | '[' | '{' => depth + 1,
        ')' | ']' | '}' => depth.saturating_sub(1),
        _ => depth,
    }
}

/// The characters of RON text outside strings, characters and comments, with their byte offsets.
fn code_chars(text: &str) -> Vec<(usize, char)> {
    let mut code = Vec::new();
    let mut chars = text.char_indices().peekable();
    while let Some((offset, c)) = chars.next() {
        let next = chars.peek().map(|&(_, next)| next);
        match (c, next) {
            ('/', Some('/')) => {
                chars.by_ref().find(|&(_, c)| c == '\n');
            }
            ('/', Some('*')) => skip_block_comment(&mut chars),
            ('"', _) => skip_quoted(&mut chars, '"'),
            ('\'', _) => skip_quoted(&mut chars, '\''),
            ('r', Some('"' | '#')) if !text[..offset].ends_with(|c: char| c.is_alphanumeric() || c == '_') => {
                skip_raw_string(&mut chars);
            }
            _ => code.push((offset, c)),
        }
    }
    code
}

/// Skips to after the closing `quote`, past escaped characters.
fn skip_quoted(chars: &mut std::iter::Peekable<std::str::CharIndices>, quote: char) {
    while let Some((_, c)) = chars.next() {
        match c {
            '\\' => {
                chars.next();
            }
            c if c == quote => return,
            _ => {}
        }
    }
}

/// Skips a raw string (`r"..."`, `r#"..."#`) whose `r` has just been read.
fn skip_raw_string(chars: &mut std::iter::Peekable<std::str::CharIndices>) {
    let mut hashes = 0;
    while chars.next_if(|&(_, c)| c == '#').is_some() {
        hashes += 1;
    }
    if chars.next_if(|&(_, c)| c == '"').is_none() {
        return;
    }
    while let Some((_, c)) = chars.next() {
        if c == '"' {
            let mut closing = 0;
            while closing < hashes && chars.next_if(|&(_, c)| c == '#').is_some() {
                closing += 1;
            }
            if closing == hashes {
                return;
            }
        }
    }
}

/// Skips a block comment (RON's nest) whose `/` has just been read.
fn skip_block_comment(chars: &mut std::iter::Peekable<std::str::CharIndices>) {
    chars.next();
    let mut depth = 1;
    while let Some((_, c)) = chars.next() {
        let next = chars.peek().map(|&(_, next)| next);
        match (c, next) {
            ('/', Some('*')) => {
                chars.next();
                depth += 1;
            }
            ('*', Some('/')) => {
                chars.next();
                depth -= 1;
                if depth == 0 {
                    return;
                }
            }
            _ => {}
        }
    }
}

impl SourceMap<'_> {
    /// Position of the first `word` (a whole identifier, unquoted, as enum variants are
    /// written) after the first `field:`; else of the key; (1, 1) when there is no key.
    pub fn locate_word_after(&self, field: &str, word: &str) -> (usize, usize) {
        let key = format!("{field}:");
        let Some(start) = self.text.find(&key) else { return (1, 1) };
        let is_identifier = |c: char| c.is_alphanumeric() || c == '_';
        let after = start + key.len();
        let found = self.text[after..].match_indices(word).map(|(at, _)| after + at).find(|&at| {
            let before = self.text[..at].chars().next_back();
            let next = self.text[at + word.len()..].chars().next();
            !before.is_some_and(is_identifier) && !next.is_some_and(is_identifier)
        });
        self.position(found.unwrap_or(start))
    }
}

/// The key a value at the end of `before` belongs to: the identifier before the last `:` that
/// is followed only by the punctuation of `Some(`, a list, and other quoted list items.
fn key_before(before: &str) -> Option<&str> {
    let mut rest = before;
    loop {
        let trimmed = rest.trim_end();
        if let Some(stripped) = trimmed.strip_suffix('"') {
            // Skip an earlier quoted item of the same list.
            let open = stripped.rfind('"')?;
            rest = &stripped[..open];
            continue;
        }
        if let Some(stripped) = trimmed.strip_suffix(',').or_else(|| trimmed.strip_suffix('[')) {
            rest = stripped;
            continue;
        }
        if let Some(stripped) = trimmed.strip_suffix("Some(") {
            rest = stripped;
            continue;
        }
        let key = trimmed.strip_suffix(':')?.trim_end();
        let start = key.rfind(|c: char| !(c.is_alphanumeric() || c == '_')).map_or(0, |at| at + 1);
        return Some(&key[start..]);
    }
}

/// Names longer than this are never typos worth a suggestion (and comparing them costs time).
const MAX_SUGGESTED_NAME: usize = 64;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggests_the_near_miss() {
        assert_eq!(suggestion("longsord", ["longsword", "dagger", "club"]), Some("longsword"));
        assert_eq!(suggestion("zweihander", ["longsword", "dagger"]), None);
    }

    #[test]
    fn not_found_reads_well() {
        assert_eq!(
            not_found("weapon", "longsord", &["longsword", "dagger"]),
            "weapon \"longsord\" not found; did you mean \"longsword\"?"
        );
    }

    #[test]
    fn locates_the_keyed_value() {
        let text = "(\n  id: \"a\",\n  zone: \"a\",\n)";
        let map = SourceMap::new(text);
        assert_eq!(map.locate("zone", "a", 0), (3, 9));
        assert_eq!(map.locate("id", "a", 0), (2, 7));
    }

    #[test]
    fn an_empty_value_is_located_at_its_key_not_at_any_empty_string() {
        let text = "(\n  description: \"\",\n  zones: [],\n)";
        let map = SourceMap::new(text);
        assert_eq!(map.locate("zones", "", 0), (3, 3));
        assert_eq!(map.locate("grid", "", 0), (1, 1), "no key, no place");
    }

    #[test]
    fn locates_a_whole_word_after_its_key() {
        let text = "(\n  // Shoves need maneuvers\n  offered: Some([ShoveAll, Shove]),\n)";
        let map = SourceMap::new(text);
        assert_eq!(map.locate_word_after("offered", "Shove"), (3, 28), "not the comment, not ShoveAll");
        assert_eq!(map.locate_word_after("offered", "Execute"), (3, 3), "missing: the key");
        assert_eq!(map.locate_word_after("turns", "Shove"), (1, 1));
    }

    #[test]
    fn finds_the_entries_of_a_top_level_list_past_strings_and_comments() {
        let text = "(\n  name: \"units: [(\",\n  // units: [(x)]\n  zones: [(id: \"a\")],\n  units: [\n    (id: \"x,]\", n: [1, 2]),\n    /* (no) */ (id: \"y\"),\n  ],\n)";
        let map = SourceMap::new(text);
        let items: Vec<&str> = map.list_items("units").into_iter().map(|range| &text[range]).collect();
        assert_eq!(items, ["(id: \"x,]\", n: [1, 2])", "(id: \"y\")"]);
        let zones: Vec<&str> = map.list_items("zones").into_iter().map(|range| &text[range]).collect();
        assert_eq!(zones, ["(id: \"a\")"]);
        assert!(map.list_items("sides").is_empty());
    }

    #[test]
    fn locates_within_one_entry() {
        let text = "(units: [\n(id: \"a\", creature: \"gob\"),\n(id: \"b\", creature: \"gob\"),\n])";
        let map = SourceMap::new(text);
        let second = map.list_items("units")[1].clone();
        assert_eq!(map.locate_in(second.clone(), "creature", "gob", 0), Some((3, 21)));
        assert_eq!(map.locate_in(second, "weapon", "spear", 0), None, "nothing of it in the entry");
    }

    #[test]
    fn offsets_and_positions_agree() {
        let map = SourceMap::new("ab\n\u{e9}cd\n");
        for offset in [0, 1, 3, 5, 6] {
            let (line, column) = map.position(offset);
            assert_eq!(map.offset(line, column), offset);
        }
        assert_eq!(map.offset(9, 9), 8, "past the end: the end");
    }

    #[test]
    fn warnings_read_as_warnings() {
        let warning = LoadWarning { path: "r.ron".into(), line: 3, column: 7, message: "odd".into() };
        assert_eq!(warning.to_string(), "r.ron:3:7: warning: odd");
    }

    #[test]
    fn locates_values_in_one_line_entries_and_lists() {
        let text = "[(id: \"wolf\", creature: \"wolf\"),\n(id: \"wolf\", creature: \"wolf\", adjacent: [\"x\", \"y\"], weapon: Some(\"z\"))]";
        let map = SourceMap::new(text);
        assert_eq!(map.locate("id", "wolf", 1), (2, 6), "the second id, not the first creature");
        assert_eq!(map.locate("creature", "wolf", 0), (1, 25));
        assert_eq!(map.locate("adjacent", "y", 0), (2, 48));
        assert_eq!(map.locate("weapon", "z", 0), (2, 67));
    }
}
