//! The key reference: every key of `suite.toml`, `course.toml` or `grader.toml` as Markdown, rendered
//! from the file's JSON Schema (`schema`), so the book's key pages (`docs/keys-*.md`, written by
//! `grader schema --markdown`) say what the doc comments of the types that read the files say.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde_json::{Map, Value};

use super::schema::{schema, FileKind};

/// One key of a table, as a row of its section.
struct Row {
    key: String,
    kind: String,
    default: String,
    about: String,
}

/// A table of the file: where it is written (`[[groups.cases]]`), what it is, and its keys.
struct Table {
    header: String,
    about: String,
    rows: Vec<Row>,
}

/// Where a table sits in the file: its dotted path, and whether it is an element of an array of tables.
#[derive(Clone)]
struct Place {
    dotted: String,
    array: bool,
}

impl Place {
    const TOP: &'static str = "Top level";

    fn header(&self) -> String {
        match (self.dotted.is_empty(), self.array) {
            (true, _) => Place::TOP.to_string(),
            (false, true) => format!("`[[{}]]`", self.dotted),
            (false, false) => format!("`[{}]`", self.dotted),
        }
    }

    fn child(&self, key: &str) -> Place {
        let dotted = if self.dotted.is_empty() {
            key.to_string()
        } else {
            format!("{}.{key}", self.dotted)
        };
        Place {
            dotted,
            array: false,
        }
    }
}

/// A table found under a key, walked after the table that names it.
struct Child<'a> {
    place: Place,
    schema: &'a Value,
    /// The definition it is (`RawLimits`), when it is one.
    def: Option<String>,
}

/// The walk over a schema: the tables in the order a reader meets them (each followed by the tables
/// under it), the definitions being walked (a definition inside itself is not walked again), and
/// the forms of values seen (`a duration`). A table written in several places (`[limits]`,
/// `[build-limits]`) has a section at each, so a reader finds every place's keys under its name.
struct Walk<'a> {
    defs: &'a Map<String, Value>,
    /// The built-in values of `grader.toml` (the file built into the binary), as defaults.
    builtin: Option<toml::Table>,
    tables: Vec<Table>,
    inside: Vec<String>,
    forms: BTreeMap<String, String>,
}

/// The reference page of `kind`'s keys, as `grader schema --markdown` prints it.
#[must_use]
pub fn markdown(kind: FileKind) -> String {
    let root = schema(kind);
    let empty = Map::new();
    let defs = root
        .get("definitions")
        .and_then(Value::as_object)
        .unwrap_or(&empty);
    let builtin = match kind {
        FileKind::Grader => crate::config::DEFAULTS.parse::<toml::Table>().ok(),
        FileKind::Suite | FileKind::Course => None,
    };
    let mut walk = Walk {
        defs,
        builtin,
        tables: Vec::new(),
        inside: Vec::new(),
        forms: BTreeMap::new(),
    };
    let top = Place {
        dotted: String::new(),
        array: false,
    };
    walk.table(&top, &root);
    walk.render(kind, &root)
}

impl<'a> Walk<'a> {
    /// The schema a `$ref` names, or `schema` itself.
    fn resolve(&self, schema: &'a Value) -> (&'a Value, Option<String>) {
        let name = schema
            .get("$ref")
            .and_then(Value::as_str)
            .and_then(|r| r.strip_prefix("#/definitions/"));
        match name.and_then(|n| self.defs.get(n).map(|d| (d, n))) {
            Some((def, n)) => (def, Some(n.to_string())),
            None => (schema, None),
        }
    }

    /// Adds the table at `place` (the keys of `schema`), then the tables under it.
    fn table(&mut self, place: &Place, schema: &'a Value) {
        let index = self.tables.len();
        self.tables.push(Table {
            header: place.header(),
            about: if place.dotted.is_empty() {
                String::new()
            } else {
                text(schema.get("description"))
            },
            rows: Vec::new(),
        });
        let required: Vec<&str> = schema
            .get("required")
            .and_then(Value::as_array)
            .map(|r| r.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        let mut children = Vec::new();
        let properties = schema.get("properties").and_then(Value::as_object);
        for (key, value) in properties.into_iter().flatten() {
            let kind = self.kind(value, &place.child(key), &mut children);
            let default = match value.get("default") {
                _ if required.contains(&key.as_str()) => "required".to_string(),
                Some(d) => format!("`{d}`"),
                None => self.builtin(&place.child(key).dotted),
            };
            let about = match value.get("description") {
                Some(d) => text(Some(d)),
                None => text(self.described(value)),
            };
            self.tables[index].rows.push(Row {
                key: format!("`{key}`"),
                kind,
                default,
                about,
            });
        }
        for child in children {
            if let Some(def) = &child.def {
                self.inside.push(def.clone());
            }
            self.table(&child.place, child.schema);
            if child.def.is_some() {
                self.inside.pop();
            }
        }
    }

    /// The built-in value at a dotted path, when there is one and it is not a table.
    fn builtin(&self, dotted: &str) -> String {
        let mut value = None;
        let mut table = self.builtin.as_ref();
        for part in dotted.split('.') {
            value = table.and_then(|t| t.get(part));
            table = value.and_then(toml::Value::as_table);
        }
        match value {
            Some(v) if !v.is_table() => format!("`{v}`"),
            _ => String::new(),
        }
    }

    /// The description of the table a key holds, when the key has none itself (a form's says
    /// what the form is, not what the key is for).
    fn described(&self, schema: &'a Value) -> Option<&'a Value> {
        let inner = match (schema.get("allOf"), schema.get("anyOf")) {
            (Some(Value::Array(all)), _) if all.len() == 1 => &all[0],
            (_, Some(Value::Array(any))) => any.iter().find(|s| !is_null(s))?,
            _ => schema,
        };
        let def = self.resolve(inner).0;
        def.get("title")
            .is_none()
            .then(|| def.get("description"))
            .flatten()
    }

    /// What a value of `schema` is, in a few words; tables under it go to `children`.
    fn kind(&mut self, schema: &'a Value, place: &Place, children: &mut Vec<Child<'a>>) -> String {
        let (resolved, def) = self.resolve(schema);
        if let Some(def) = &def {
            if let Some(title) = resolved.get("title").and_then(Value::as_str) {
                self.forms
                    .insert(title.to_string(), text(resolved.get("description")));
                return format!("[{title}](#forms)");
            }
            if resolved.get("properties").is_some() {
                if self.inside.contains(def) {
                    // A table inside itself: its keys are those of the section it is in.
                    return format!("{} (the enclosing one's keys)", table_word(place));
                }
                children.push(Child {
                    place: place.clone(),
                    schema: resolved,
                    def: Some(def.clone()),
                });
                return format!("[{}](#{})", table_word(place), slug(&place.header()));
            }
        }
        self.shape(resolved, place, children)
    }

    /// What a value of `schema` (no `$ref` at its top) is.
    fn shape(&mut self, schema: &'a Value, place: &Place, children: &mut Vec<Child<'a>>) -> String {
        if let Some(Value::Array(all)) = schema.get("allOf") {
            if let [one] = all.as_slice() {
                return self.kind(one, place, children);
            }
        }
        if let Some(Value::Array(any)) = schema.get("anyOf") {
            let kinds: Vec<String> = any
                .iter()
                .filter(|s| !is_null(s))
                .map(|s| self.kind(s, place, children))
                .collect();
            return kinds.join(", or ");
        }
        if let Some(Value::Array(values)) = schema.get("enum") {
            let values: Vec<String> = values.iter().map(|v| format!("`{}`", bare(v))).collect();
            return one_of(&values);
        }
        if schema.get("properties").is_some() {
            children.push(Child {
                place: place.clone(),
                schema,
                def: None,
            });
            return format!("[{}](#{})", table_word(place), slug(&place.header()));
        }
        match types(schema).as_slice() {
            ["array"] => {
                let inner = Place {
                    array: true,
                    ..place.clone()
                };
                let items = schema.get("items").unwrap_or(&Value::Null);
                let kind = self.kind(items, &inner, children);
                if kind.starts_with("[array of tables]") {
                    kind
                } else {
                    format!("array of {kind}")
                }
            }
            ["object"] => match schema.get("additionalProperties") {
                Some(values @ Value::Object(_)) => {
                    let inner = place.child("NAME");
                    format!("{} per name", self.kind(values, &inner, children))
                }
                _ => "table".to_string(),
            },
            [] => "any value".to_string(),
            kinds => scalar(kinds, schema),
        }
    }

    /// The page: a head, a section per table, and the forms of values.
    fn render(&self, kind: FileKind, root: &Value) -> String {
        let name = kind.file_name();
        let short = name.trim_end_matches(".toml");
        let mut out = format!("# Every key of `{name}`\n\n");
        let _ = writeln!(
            out,
            "<!-- Generated by `grader schema --markdown {short}` from the types that read `{name}`; do not edit. -->\n"
        );
        let _ = writeln!(
            out,
            "{} Every key of every table, generated from the doc comments of the types that read \
             the file (the same ones as its JSON Schema, `grader schema {short}`): a key's type \
             links to the table it holds, and a form of value (a duration, a size) to its \
             [form](#forms). `required` keys must be given; the others may be left out, some with \
             the default shown{}.\n",
            text(root.get("description")),
            match kind {
                FileKind::Grader => " (the values of the `grader.toml` built into the binary)",
                FileKind::Suite | FileKind::Course => "",
            }
        );
        for table in &self.tables {
            let _ = writeln!(out, "## {}\n", table.header);
            if !table.about.is_empty() {
                let _ = writeln!(out, "{}\n", table.about);
            }
            out.push_str("| key | type | default | description |\n|---|---|---|---|\n");
            for row in &table.rows {
                let _ = writeln!(
                    out,
                    "| {} | {} | {} | {} |",
                    row.key,
                    cell(&row.kind),
                    cell(&row.default),
                    cell(&row.about)
                );
            }
            out.push('\n');
        }
        out.push_str("## Forms\n\nValues written as text in a form of their own.\n\n");
        out.push_str("| form | written as |\n|---|---|\n");
        for (title, about) in &self.forms {
            let _ = writeln!(out, "| {} | {} |", cell(title), cell(about));
        }
        out
    }
}

/// How a key's type names the table at `place`: one table, or an array of them (`[[languages]]`).
fn table_word(place: &Place) -> &'static str {
    if place.array {
        "array of tables"
    } else {
        "table"
    }
}

/// `{"type": "null"}`: the `None` of an optional value.
fn is_null(schema: &Value) -> bool {
    schema.get("type").and_then(Value::as_str) == Some("null")
}

/// The JSON types `schema` allows, `null` left out.
fn types(schema: &Value) -> Vec<&str> {
    match schema.get("type") {
        Some(Value::String(t)) if t != "null" => vec![t.as_str()],
        Some(Value::Array(ts)) => ts
            .iter()
            .filter_map(Value::as_str)
            .filter(|t| *t != "null")
            .collect(),
        _ => Vec::new(),
    }
}

/// A string, number or boolean type, with the bounds the schema sets.
fn scalar(kinds: &[&str], schema: &Value) -> String {
    let names: Vec<String> = kinds.iter().map(|k| (*k).to_string()).collect();
    let mut kind = one_of(&names);
    let min = schema.get("minimum").and_then(Value::as_f64);
    let max = schema.get("maximum").and_then(Value::as_f64);
    match (min, max) {
        (Some(min), Some(max)) => kind = format!("{kind}, {min} to {max}"),
        (Some(min), None) if min > 0.0 => kind = format!("{kind}, at least {min}"),
        (None, Some(max)) => kind = format!("{kind}, at most {max}"),
        _ => {}
    }
    if let Some(min) = schema.get("minLength").and_then(Value::as_u64) {
        if min > 0 {
            kind = format!("{kind}, not empty");
        }
    }
    kind
}

/// `a`, `a or b`, `a, b or c`.
fn one_of(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} or {last}", rest.join(", ")),
    }
}

/// A JSON value as a TOML user writes it in a code span: strings without quotes.
fn bare(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// A description on one line.
fn text(description: Option<&Value>) -> String {
    let text = description.and_then(Value::as_str).unwrap_or_default();
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Text in a Markdown table cell: its `|` escaped.
fn cell(text: &str) -> String {
    text.replace('|', "\\|")
}

/// The anchor mdBook and GitHub give a heading: lowercase, spaces as `-`, other punctuation dropped.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_key_of_the_schema_has_a_row_and_every_table_a_section() {
        let page = markdown(FileKind::Suite);
        for header in [
            "## Top level",
            "## `[limits]`",
            "## `[[languages]]`",
            "## `[[groups]]`",
        ] {
            assert!(page.contains(&format!("\n{header}\n")), "{header}");
        }
        assert!(page.contains("## `[[groups.cases]]`"), "{page}");
        assert!(page.contains("## `[arena.dialogue]`"), "{page}");
        assert!(page.contains("## `[[arena.dialogue.probe]]`"), "{page}");
        // `[build-limits]` is `[limits]` again, with a section of its own.
        assert!(page.contains("\n## `[build-limits]`\n"), "{page}");
        assert!(
            page.contains("| `languages` | [array of tables](#languages) |  |"),
            "{page}"
        );
        assert!(
            page.contains(
                "| `title` | string, not empty | required | Shown in tables and reports. |"
            ),
            "{page}"
        );
        assert!(
            page.contains("| `send` | string | `\"{move}\"` |"),
            "{page}"
        );
        assert!(
            page.contains("| `move-limit` | [a duration or `none`](#forms) |"),
            "{page}"
        );
        // Every property of every object in the schema is a row somewhere.
        let schema = schema(FileKind::Suite);
        let mut keys = Vec::new();
        collect_keys(&schema, &mut keys);
        for key in keys {
            assert!(
                page.contains(&format!("\n| `{key}` |")),
                "`{key}` has no row"
            );
        }
    }

    fn collect_keys(schema: &Value, keys: &mut Vec<String>) {
        match schema {
            Value::Object(map) => {
                if let Some(Value::Object(props)) = map.get("properties") {
                    keys.extend(props.keys().cloned());
                }
                map.values().for_each(|v| collect_keys(v, keys));
            }
            Value::Array(items) => items.iter().for_each(|v| collect_keys(v, keys)),
            _ => {}
        }
    }

    #[test]
    fn the_machine_file_shows_the_built_in_values_as_defaults() {
        let page = markdown(FileKind::Grader);
        assert!(
            page.contains("| `cpu` | [a duration](#forms) | `\"10s\"` |"),
            "{page}"
        );
        assert!(page.contains("| `jobs` | integer | `0` |"), "{page}");
        assert!(page.contains("| `python2` | string |  |"), "{page}");
    }

    #[test]
    fn a_cell_keeps_its_pipes_and_a_list_reads_as_words() {
        assert_eq!(cell("`a|b`"), "`a\\|b`");
        assert_eq!(one_of(&["a".into(), "b".into(), "c".into()]), "a, b or c");
        assert_eq!(slug("`[[groups.cases]]`"), "groupscases");
    }
}
