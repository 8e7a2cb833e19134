//! A TOML file checked against its JSON Schema, every problem at once, each at the key or value it is
//! about: `grader validate` runs this before it loads a suite, so a file with three misspelt keys
//! gets three errors, not one per run. serde stops at the first unknown key; the schema knows them all.
//!
//! Kept by hand: the validator crates check JSON values and report JSON pointers, where this walks
//! the TOML document itself (`toml_edit`, which keeps every key's and value's byte range) and names
//! the nearest known key or value. It reads the keywords `schemars` writes for our raw types:
//! `$ref`, `anyOf`/`oneOf`/`allOf`, `type`, `enum`, `pattern`, `minimum`/`maximum`, `minLength`,
//! `minItems`/`maxItems`, `items`, `properties`, `required`, `dependencies`, `additionalProperties`. The independent
//! check that editors see the same schema is taplo's, in the tests.

use std::ops::Range;

use regex::Regex;
use serde_json::Value as Json;
use toml_edit::{ArrayOfTables, InlineTable, Item, Table, Value};

use crate::toml_file::suggest;

/// One thing wrong in a file, at a byte range of its text (`None`: the file as a whole).
#[derive(Clone, Debug, PartialEq)]
pub struct Problem {
    pub span: Option<Range<usize>>,
    pub message: String,
}

/// Checks `text` against `schema`: every problem, in the order of the file. A file that is not TOML
/// at all gives the parser's one error.
#[must_use]
pub fn check<'s>(text: &'s str, schema: &'s Json) -> Vec<Problem> {
    let doc = match toml_edit::ImDocument::parse(text) {
        Ok(doc) => doc,
        Err(e) => {
            return vec![Problem {
                span: e.span(),
                message: e.message().trim().to_string(),
            }]
        }
    };
    let mut walker = Walker {
        root: schema,
        text,
        problems: Vec::new(),
    };
    walker.node(Node::Table(doc.as_table()), schema, &Place::root());
    let mut problems = walker.problems;
    problems.sort_by_key(|p| p.span.as_ref().map_or(0, |s| s.start));
    problems.dedup();
    problems
}

/// A table's entry: its key, the key's span, and its value.
type Entry<'a> = (&'a str, Option<Range<usize>>, Node<'a>);

/// A TOML value of any form, with what the walker needs of it.
#[derive(Clone, Copy)]
enum Node<'a> {
    Table(&'a Table),
    Inline(&'a InlineTable),
    Tables(&'a ArrayOfTables),
    Value(&'a Value),
}

impl<'a> Node<'a> {
    fn of(item: &'a Item) -> Option<Node<'a>> {
        match item {
            Item::None => None,
            Item::Value(Value::InlineTable(t)) => Some(Node::Inline(t)),
            Item::Value(v) => Some(Node::Value(v)),
            Item::Table(t) => Some(Node::Table(t)),
            Item::ArrayOfTables(a) => Some(Node::Tables(a)),
        }
    }

    fn of_value(v: &'a Value) -> Node<'a> {
        match v {
            Value::InlineTable(t) => Node::Inline(t),
            v => Node::Value(v),
        }
    }

    /// The JSON type it satisfies, and what to call it in a message.
    fn kind(&self) -> (&'static str, &'static str) {
        match self {
            Node::Table(_) | Node::Inline(_) => ("object", "a table"),
            Node::Tables(_) => ("array", "an array of tables"),
            Node::Value(v) => match v {
                Value::String(_) => ("string", "a string"),
                Value::Integer(_) => ("integer", "an integer"),
                Value::Float(_) => ("number", "a number"),
                Value::Boolean(_) => ("boolean", "a boolean"),
                // taplo and VS Code read a date-time as a string of format `date-time`.
                Value::Datetime(_) => ("string", "a date-time"),
                Value::Array(_) => ("array", "an array"),
                Value::InlineTable(_) => ("object", "a table"),
            },
        }
    }

    fn span(&self) -> Option<Range<usize>> {
        match self {
            Node::Table(t) => t.span(),
            Node::Inline(t) => t.span(),
            Node::Tables(a) => a.span(),
            Node::Value(v) => v.span(),
        }
    }

    /// Its entries when it is a table: (key, key's span, value).
    fn entries(&self) -> Option<Vec<Entry<'a>>> {
        match *self {
            Node::Table(t) => Some(
                t.iter()
                    .filter_map(|(k, item)| {
                        Some((k, t.key(k).and_then(toml_edit::Key::span), Node::of(item)?))
                    })
                    .collect(),
            ),
            Node::Inline(t) => Some(
                t.iter()
                    .map(|(k, v)| {
                        (
                            k,
                            t.key(k).and_then(toml_edit::Key::span),
                            Node::of_value(v),
                        )
                    })
                    .collect(),
            ),
            _ => None,
        }
    }

    /// Its elements when it is an array.
    fn elements(&self) -> Option<Vec<Node<'a>>> {
        match *self {
            Node::Tables(a) => Some(a.iter().map(Node::Table).collect()),
            Node::Value(Value::Array(a)) => Some(a.iter().map(Node::of_value).collect()),
            _ => None,
        }
    }

    fn string(&self) -> Option<&'a str> {
        match self {
            Node::Value(Value::String(s)) => Some(s.value().as_str()),
            _ => None,
        }
    }

    fn number(&self) -> Option<f64> {
        match self {
            #[allow(clippy::cast_precision_loss)]
            Node::Value(Value::Integer(i)) => Some(*i.value() as f64),
            Node::Value(Value::Float(f)) => Some(*f.value()),
            _ => None,
        }
    }

    /// The value as the file writes it (`1e308`, not the number spelt out), for messages.
    fn shown(&self, text: &str) -> String {
        match self {
            Node::Value(Value::String(s)) => format!("`{}`", s.value()),
            Node::Value(v) => {
                let written = self.span().and_then(|s| text.get(s)).map(str::trim);
                format!(
                    "`{}`",
                    written.map_or_else(|| v.to_string(), str::to_string)
                )
            }
            _ => self.kind().1.to_string(),
        }
    }
}

/// Where a value is: its dotted key path for messages, and the span to point at when the value has
/// none of its own (an implicit table).
#[derive(Clone)]
struct Place {
    path: String,
    at: Option<Range<usize>>,
}

impl Place {
    fn root() -> Place {
        Place {
            path: String::new(),
            at: None,
        }
    }

    fn key(&self, key: &str, at: Option<Range<usize>>) -> Place {
        Place {
            path: if self.path.is_empty() {
                key.to_string()
            } else {
                format!("{}.{key}", self.path)
            },
            at: at.or_else(|| self.at.clone()),
        }
    }

    fn index(&self, i: usize, at: Option<Range<usize>>) -> Place {
        Place {
            path: format!("{}[{i}]", self.path),
            at: at.or_else(|| self.at.clone()),
        }
    }

    /// `` `groups[0].points`: `` before a message about a value; nothing at the top.
    fn prefix(&self) -> String {
        if self.path.is_empty() {
            String::new()
        } else {
            format!("`{}`: ", self.path)
        }
    }
}

struct Walker<'s> {
    root: &'s Json,
    text: &'s str,
    problems: Vec<Problem>,
}

impl<'s> Walker<'s> {
    fn problem(&mut self, span: Option<Range<usize>>, message: String) {
        self.problems.push(Problem { span, message });
    }

    /// `#/definitions/Name` (or `#/$defs/Name`) resolved in the root schema.
    fn resolve(&self, reference: &str) -> Option<&'s Json> {
        let path = reference.strip_prefix('#')?;
        self.root.pointer(path)
    }

    fn node(&mut self, node: Node<'_>, schema: &'s Json, place: &Place) {
        let Json::Object(keywords) = schema else {
            if schema == &Json::Bool(false) {
                self.problem(
                    node.span().or(place.at.clone()),
                    format!("{}not allowed here", place.prefix()),
                );
            }
            return;
        };
        if let Some(target) = keywords
            .get("$ref")
            .and_then(Json::as_str)
            .and_then(|r| self.resolve(r))
        {
            self.node(node, target, place);
        }
        if let Some(Json::Array(all)) = keywords.get("allOf") {
            for s in all {
                self.node(node, s, place);
            }
        }
        for any in ["anyOf", "oneOf"] {
            if let Some(Json::Array(branches)) = keywords.get(any) {
                self.any_of(node, branches, place);
            }
        }
        if !self.type_fits(node, keywords.get("type"), place) {
            return;
        }
        self.scalar(node, schema, place);
        self.array(node, schema, place);
        self.object(node, schema, place);
    }

    /// `anyOf`: the value fits one branch. A branch that is `null` is TOML's absent value, never
    /// written; with one branch left its problems are the value's own.
    fn any_of(&mut self, node: Node<'_>, branches: &'s [Json], place: &Place) {
        let live: Vec<&Json> = branches
            .iter()
            .filter(|b| b.get("type").and_then(Json::as_str) != Some("null"))
            .collect();
        if let [only] = live[..] {
            self.node(node, only, place);
            return;
        }
        let mut best: Option<Vec<Problem>> = None;
        for branch in live {
            let mut trial = Walker {
                root: self.root,
                text: self.text,
                problems: Vec::new(),
            };
            trial.node(node, branch, place);
            if trial.problems.is_empty() {
                return;
            }
            // The branch of the value's own type explains best what is wrong with it.
            let of_kind = trial.type_fits(node, self.branch_type(branch), place)
                && trial
                    .problems
                    .iter()
                    .all(|p| !p.message.contains("expected "));
            if best.is_none() || of_kind {
                best = Some(trial.problems);
            }
        }
        self.problems.extend(best.unwrap_or_default());
    }

    fn branch_type(&self, branch: &'s Json) -> Option<&'s Json> {
        branch.get("type").or_else(|| {
            let r = branch.get("$ref")?.as_str()?;
            self.resolve(r)?.get("type")
        })
    }

    /// Whether the node has one of the schema's types (reporting when not).
    fn type_fits(&mut self, node: Node<'_>, types: Option<&Json>, place: &Place) -> bool {
        let wanted: Vec<&str> = match types {
            None => return true,
            Some(Json::String(t)) => vec![t.as_str()],
            Some(Json::Array(ts)) => ts
                .iter()
                .filter_map(Json::as_str)
                .filter(|t| *t != "null")
                .collect(),
            Some(_) => return true,
        };
        let (kind, called) = node.kind();
        let fits = wanted
            .iter()
            .any(|w| *w == kind || (*w == "number" && kind == "integer"));
        if !fits {
            let names: Vec<&str> = wanted.iter().map(|w| type_name(w)).collect();
            self.problem(
                node.span().or(place.at.clone()),
                format!(
                    "{}expected {}, found {called} {}",
                    place.prefix(),
                    names.join(" or "),
                    if matches!(node, Node::Value(_)) {
                        node.shown(self.text)
                    } else {
                        String::new()
                    }
                )
                .trim_end()
                .to_string(),
            );
        }
        fits
    }

    /// `enum`, `pattern`, `minLength`, `minimum`, `maximum` on a string or a number.
    fn scalar(&mut self, node: Node<'_>, schema: &'s Json, place: &Place) {
        let at = node.span().or(place.at.clone());
        if let (Some(s), Some(Json::Array(values))) = (node.string(), schema.get("enum")) {
            let words: Vec<&str> = values.iter().filter_map(Json::as_str).collect();
            if !words.contains(&s) {
                let hint = match suggest(s, words.iter().copied()) {
                    Some(near) => format!("did you mean `{near}`?"),
                    None => format!("use {}", one_of(&words)),
                };
                self.problem(
                    at.clone(),
                    format!("{}unknown value `{s}`\nhint: {hint}", place.prefix()),
                );
            }
        }
        if let (Some(s), Some(pattern)) =
            (node.string(), schema.get("pattern").and_then(Json::as_str))
        {
            if Regex::new(pattern).is_ok_and(|re| !re.is_match(s)) {
                let what = schema.get("title").and_then(Json::as_str);
                let hint = schema.get("description").and_then(Json::as_str);
                let message = match (what, hint) {
                    (Some(what), Some(hint)) => format!(
                        "{}`{s}` is not {what}\nhint: {what}: {hint}",
                        place.prefix()
                    ),
                    (Some(what), None) => format!("{}`{s}` is not {what}", place.prefix()),
                    _ => format!("{}`{s}` does not have the form `{pattern}`", place.prefix()),
                };
                self.problem(at.clone(), message);
            }
        }
        if let (Some(s), Some(min)) = (
            node.string(),
            schema.get("minLength").and_then(Json::as_u64),
        ) {
            if (s.chars().count() as u64) < min {
                self.problem(at.clone(), format!("{}is empty", place.prefix()));
            }
        }
        let Some(n) = node.number() else {
            return;
        };
        if !n.is_finite() {
            self.problem(
                at,
                format!(
                    "{}{} is not a finite number",
                    place.prefix(),
                    node.shown(self.text)
                ),
            );
            return;
        }
        let min = schema.get("minimum").and_then(Json::as_f64);
        let max = schema.get("maximum").and_then(Json::as_f64);
        let takes = match (min, max) {
            (Some(min), Some(max)) => format!("from {min} to {max}"),
            (Some(min), None) => format!("{min} or more"),
            (None, Some(max)) => format!("at most {max}"),
            (None, None) => return,
        };
        if min.is_some_and(|m| n < m) || max.is_some_and(|m| n > m) {
            self.problem(
                at,
                format!(
                    "{}{} is out of range: it takes {takes}",
                    place.prefix(),
                    node.shown(self.text)
                ),
            );
        }
    }

    /// `items`, `minItems`, `maxItems`.
    fn array(&mut self, node: Node<'_>, schema: &'s Json, place: &Place) {
        let Some(elements) = node.elements() else {
            return;
        };
        let at = node.span().or(place.at.clone());
        let n = elements.len() as u64;
        if let Some(min) = schema.get("minItems").and_then(Json::as_u64) {
            if n < min {
                let what = if n == 0 {
                    "is empty".to_string()
                } else {
                    format!("has {n} entries")
                };
                self.problem(
                    at.clone(),
                    format!("{}{what}; it needs at least {min}", place.prefix()),
                );
            }
        }
        if let Some(max) = schema.get("maxItems").and_then(Json::as_u64) {
            if n > max {
                self.problem(
                    at,
                    format!("{}has {n} entries; it takes at most {max}", place.prefix()),
                );
            }
        }
        match schema.get("items") {
            Some(Json::Array(each)) => {
                for (i, (e, s)) in elements.iter().zip(each).enumerate() {
                    self.node(*e, s, &place.index(i, e.span()));
                }
            }
            Some(items) => {
                for (i, e) in elements.iter().enumerate() {
                    self.node(*e, items, &place.index(i, e.span()));
                }
            }
            None => {}
        }
    }

    /// `properties`, `required`, `additionalProperties`: every unknown key and every missing one.
    fn object(&mut self, node: Node<'_>, schema: &'s Json, place: &Place) {
        let Some(entries) = node.entries() else {
            return;
        };
        let properties = schema.get("properties").and_then(Json::as_object);
        let extra = schema.get("additionalProperties");
        for (key, key_at, value) in &entries {
            let here = place.key(key, key_at.clone().or(value.span()));
            if let Some(s) = properties.and_then(|p| p.get(*key)) {
                self.node(*value, s, &here);
                continue;
            }
            match extra {
                Some(Json::Bool(false)) => {
                    let known: Vec<&str> = properties
                        .map(|p| p.keys().map(String::as_str).collect())
                        .unwrap_or_default();
                    let hint = match suggest(key, known.iter().copied()) {
                        Some(near) => format!("did you mean `{near}`?"),
                        None if known.is_empty() => "this table takes no keys".to_string(),
                        None => format!("the keys here are `{}`", known.join("`, `")),
                    };
                    let whole = if place.path.is_empty() {
                        String::new()
                    } else {
                        format!(" in `{}`", place.path)
                    };
                    self.problem(
                        key_at.clone().or(value.span()),
                        format!("unknown key `{key}`{whole}\nhint: {hint}"),
                    );
                }
                Some(s @ Json::Object(_)) => self.node(*value, s, &here),
                _ => {}
            }
        }
        let mut required: Vec<&str> = match schema.get("required") {
            Some(Json::Array(keys)) => keys.iter().filter_map(Json::as_str).collect(),
            _ => Vec::new(),
        };
        // `dependencies`: a key present requires others (`groups` needs `languages`).
        if let Some(Json::Object(deps)) = schema.get("dependencies") {
            for (present, needs) in deps {
                if entries.iter().any(|(k, _, _)| k == present) {
                    let needs = needs
                        .as_array()
                        .into_iter()
                        .flatten()
                        .filter_map(Json::as_str);
                    required.extend(needs);
                }
            }
        }
        for key in required {
            if entries.iter().any(|(k, _, _)| k == &key) {
                continue;
            }
            let hint = properties
                .and_then(|p| p.get(key))
                .and_then(|s| s.get("description"))
                .and_then(Json::as_str)
                .map(|d| format!("\nhint: `{key}`: {d}"))
                .unwrap_or_default();
            let shown = match properties
                .and_then(|p| p.get(key))
                .and_then(|s| self.branch_type(s))
                .and_then(Json::as_str)
            {
                Some("array") if self.of_tables(properties.and_then(|p| p.get(key))) => {
                    format!("[[{key}]]")
                }
                Some("object") => format!("[{key}]"),
                _ => key.to_string(),
            };
            // A key missing at the top is the file's: no line to point at.
            let (whole, at) = if place.path.is_empty() {
                ("the file".to_string(), None)
            } else {
                (
                    format!("`{}`", place.path),
                    node.span().or(place.at.clone()),
                )
            };
            self.problem(at, format!("{whole} has no `{shown}`{hint}"));
        }
    }
}

impl Walker<'_> {
    /// Whether a property is an array of tables (written `[[key]]`).
    fn of_tables(&self, property: Option<&Json>) -> bool {
        let Some(items) = property.and_then(|p| p.get("items")) else {
            return false;
        };
        self.branch_type(items).and_then(Json::as_str) == Some("object")
    }
}

/// `` `a` ``, `` `a` or `b` ``, `` `a`, `b` or `c` ``.
fn one_of(words: &[&str]) -> String {
    match words {
        [] => String::new(),
        [one] => format!("`{one}`"),
        [rest @ .., last] => format!("`{}` or `{last}`", rest.join("`, `")),
    }
}

fn type_name(t: &str) -> &'static str {
    match t {
        "object" => "a table",
        "array" => "an array",
        "string" => "a string",
        "integer" => "an integer",
        "number" => "a number",
        "boolean" => "a boolean",
        _ => "a value",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::author::schema::{schema, FileKind};

    #[test]
    fn every_shipped_file_fits_its_schema() {
        let mut checked = 0;
        for dir in std::fs::read_dir("suites").unwrap() {
            let dir = dir.unwrap().path();
            for kind in [FileKind::Suite, FileKind::Course] {
                let file = dir.join(kind.file_name());
                if let Ok(text) = std::fs::read_to_string(&file) {
                    assert_eq!(check(&text, &schema(kind)), [], "{}", file.display());
                    checked += 1;
                }
            }
        }
        assert!(checked >= 8, "{checked}");
        let text = crate::config::DEFAULTS;
        assert_eq!(check(text, &schema(FileKind::Grader)), []);
    }

    #[test]
    fn every_problem_in_a_file_is_reported_at_its_place() {
        let text = "title = \"x\"\nseed = 1\ntitel = 3\n[[languages]]\nname = \"Py\"\ndetect = []\nrun = [\"a\"]\n[[groups]]\nname = \"g\"\npionts = 1\npoints = 1e308\ncredit = \"proportonal\"\n[[groups.cases]]\nname = \"c\"\nplay = { opponent = \"random\", games = \"3\", measure = \"won\" }\n[limits]\ncpu = \"2 seconds\"\nwal = \"1s\"\n";
        let problems = check(text, &schema(FileKind::Suite));
        let shown: Vec<String> = problems
            .iter()
            .map(|p| {
                let (line, col) = crate::toml_file::line_col(text, p.span.clone().unwrap().start);
                format!("{line}:{col} {}", p.message)
            })
            .collect();
        assert_eq!(
            shown,
            [
                "3:1 unknown key `titel`\nhint: did you mean `title`?",
                "5:8 `languages[0].name`: `Py` is not a name\nhint: a name: lowercase letters, digits and `-`",
                "6:10 `languages[0].detect`: is empty; it needs at least 1",
                "10:1 unknown key `pionts` in `groups[0]`\nhint: did you mean `points`?",
                "11:10 `groups[0].points`: `1e308` is out of range: it takes from 0 to 10000",
                "12:10 `groups[0].credit`: unknown value `proportonal`\nhint: did you mean `proportional`?",
                "15:39 `groups[0].cases[0].play.games`: expected an integer, found a string `3`",
                "17:7 `limits.cpu`: `2 seconds` is not a duration\nhint: a duration: a positive number with a unit: `500ms`, `2s`, `1m`",
                "18:1 unknown key `wal` in `limits`\nhint: did you mean `wall`?",
            ],
            "{shown:#?}"
        );
    }

    #[test]
    fn a_missing_key_and_a_file_that_is_not_toml() {
        let problems = check(
            "seed = 1\n[[groups]]\nname = \"g\"\npoints = 1\ncases = []\n",
            &schema(FileKind::Suite),
        );
        let messages: Vec<&str> = problems.iter().map(|p| p.message.as_str()).collect();
        assert!(
            messages
                .iter()
                .any(|m| m.starts_with("the file has no `title`")),
            "{messages:?}"
        );
        assert!(
            messages.iter().any(|m| m.starts_with(
                "the file has no `[[languages]]`\nhint: `languages`: How a submission is built"
            )),
            "{messages:?}"
        );
        let arena_only = "title = \"t\"\nseed = 1\n[arena]\ngame = \"ut3\"\n";
        assert_eq!(check(arena_only, &schema(FileKind::Suite)), []);
        let problems = check("title = \n", &schema(FileKind::Suite));
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert!(problems[0].span.is_some());
    }
}
