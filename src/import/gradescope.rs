//! Gradescope's "Export Submissions" (a programming assignment's Review Grades page): one folder per
//! submission, `submission_<id>/`, holding its files, and `submission_metadata.yml`, which says for
//! each folder who handed it in (`:submitters:`, each with `:name:`, `:sid:` and `:email:`; a group
//! submission lists every member) and when (`:created_at:`, Ruby's `2023-12-02 02:52:07.938335000 Z`).

use std::collections::BTreeMap;
use std::path::PathBuf;

use yaml_rust2::{Yaml, YamlLoader};

use super::archive::Entry;
use super::{Found, Options};
use crate::course::roster::Identity;

/// The metadata file's name.
pub const METADATA: &str = "submission_metadata.yml";

/// One folder's metadata.
#[derive(Debug, Default)]
struct Meta {
    members: Vec<Identity>,
    created: Option<String>,
}

/// Reads the metadata: folder → who and when.
fn metadata(text: &str) -> anyhow::Result<BTreeMap<String, Meta>> {
    let docs = YamlLoader::load_from_str(text)
        .map_err(|e| anyhow::anyhow!("`{METADATA}` is not YAML: {e}"))?;
    let mut out = BTreeMap::new();
    let Some(Yaml::Hash(top)) = docs.first() else {
        return Ok(out);
    };
    let text_of = |y: &Yaml| -> Option<String> {
        match y {
            Yaml::String(s) | Yaml::Real(s) => Some(s.clone()),
            Yaml::Integer(i) => Some(i.to_string()),
            _ => None,
        }
    };
    for (key, value) in top {
        let Some(folder) = text_of(key) else { continue };
        let field = |name: &str| value[name].clone();
        let members = match field(":submitters") {
            Yaml::Array(list) => list
                .iter()
                .map(|s| Identity {
                    name: text_of(&s[":name"]),
                    id: text_of(&s[":sid"]),
                    email: text_of(&s[":email"]),
                    ..Identity::default()
                })
                .collect(),
            _ => Vec::new(),
        };
        out.insert(
            folder,
            Meta {
                members,
                created: text_of(&field(":created_at")),
            },
        );
    }
    Ok(out)
}

/// The submissions of an export.
///
/// # Errors
/// No `submission_metadata.yml`, or one that is not YAML.
pub fn parse(
    entries: &[Entry],
    options: &Options<'_>,
) -> anyhow::Result<(Vec<Found>, Vec<String>)> {
    let Some(meta) = entries
        .iter()
        .find(|e| e.path == std::path::Path::new(METADATA))
    else {
        anyhow::bail!("no `{METADATA}` at the top of the export\nhint: Gradescope's \"Export Submissions\" writes it beside the `submission_<id>` folders");
    };
    let meta = metadata(&String::from_utf8_lossy(&meta.bytes))?;
    let mut by: BTreeMap<String, Found> = BTreeMap::new();
    let mut notes = Vec::new();
    for e in entries
        .iter()
        .filter(|e| e.path != std::path::Path::new(METADATA))
    {
        let mut parts = e
            .path
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned());
        let folder = parts.next().unwrap_or_default();
        let file: PathBuf = parts.collect();
        let Some(m) = meta.get(&folder) else {
            notes.push(format!(
                "`{}` is in no submission `{METADATA}` lists; skipped",
                e.path.display()
            ));
            continue;
        };
        if file.as_os_str().is_empty() {
            continue;
        }
        let f = by.entry(folder.clone()).or_insert_with(|| {
            let names: Vec<String> = m.members.iter().map(Identity::label).collect();
            let submitted = m.created.as_deref().and_then(|t| {
                crate::course::time::parse_lms(t, &options.timezone)
                    .map_err(|why| notes.push(format!("`{folder}`: {why}; its time is unknown")))
                    .ok()
            });
            Found {
                label: if names.is_empty() {
                    folder.clone()
                } else {
                    names.join(" and ")
                },
                members: m.members.clone(),
                submitted,
                ..Found::default()
            }
        });
        f.files.push((file, e.bytes.clone()));
    }
    Ok((by.into_values().collect(), notes))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_export_with_a_group_submission_and_ruby_times() {
        let yml = "---\nsubmission_1:\n  :submitters:\n  - :name: Ann Lee\n    :sid: '0675'\n    :email: ann@x.edu\n  - :name: Bob Bell\n    :sid: '0676'\n    :email: bob@x.edu\n  :created_at: 2023-12-02 02:52:07.938335000 Z\n  :score: 0.0\n  :history: []\nsubmission_2:\n  :submitters:\n  - :name: Cy Dee\n    :sid: 77\n  :created_at: 2023-12-01 18:00:00.000000000 -08:00\n";
        let e = |p: &str, b: &[u8]| Entry {
            path: p.into(),
            bytes: b.to_vec(),
        };
        let entries = [
            e(METADATA, yml.as_bytes()),
            e("submission_1/ai.scm", b"x"),
            e("submission_2/tictactoe.py", b"y"),
            e("other/z", b"z"),
        ];
        let options = Options {
            roster: None,
            timezone: jiff::tz::TimeZone::UTC,
            times: None,
        };
        let (found, notes) = parse(&entries, &options).unwrap();
        assert_eq!(found.len(), 2);
        assert_eq!(found[0].label, "Ann Lee and Bob Bell");
        assert_eq!(found[0].members[1].id.as_deref(), Some("0676"));
        assert_eq!(
            found[0].submitted.unwrap().to_string(),
            "2023-12-02T02:52:07.938335Z"
        );
        assert_eq!(found[1].members[0].id.as_deref(), Some("77"));
        assert_eq!(
            found[1].submitted.unwrap().to_string(),
            "2023-12-02T02:00:00Z"
        );
        assert_eq!(notes.len(), 1, "{notes:?}");
        assert!(parse(&entries[1..], &options)
            .unwrap_err()
            .to_string()
            .contains("no `submission_metadata.yml`"));
    }
}
