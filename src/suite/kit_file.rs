//! `kit.toml`: what `grader kit` writes beside a student kit's `suite.toml` for `grader check`. The
//! suite's own name (the kit's folder may be named anything), what its hidden cases carry (how many
//! and their points, never the cases), and each named variant's outputs on the kit's public cases,
//! which the student build cannot compute (it has no search). Any suite's [`Hidden`] is read here too:
//! a kit's from its file, a whole suite's from its own hidden cases.

use std::collections::HashMap;
use std::path::{Component, Path};
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use toml::Spanned;

use super::oracle::Solved;
use super::{CreditRule, Suite, SuiteError, VariantKey, Visibility, REFERENCE_WORK};
use crate::toml_file::{located, parse_toml, TomlError};

/// The file a kit holds beside `suite.toml`.
pub const KIT_FILE: &str = "kit.toml";

/// The largest `kit.toml` or variant output read (a kit is the student's own copy: a broken one must
/// fail with a message, never exhaust memory).
const CAP: u64 = 64 << 20;

/// `kit.toml` as written.
#[derive(Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct RawKit {
    /// The suite's name (its folder's, where the instructor keeps it).
    pub suite: Spanned<String>,
    /// The grader version that wrote the kit.
    pub grader: String,
    /// The whole suite's points, hidden cases included.
    pub points: f64,
    pub hidden_cases: usize,
    /// The hidden cases' share of `points`.
    pub hidden_points: f64,
    /// Each named variant's outputs on a public case, where they differ from the golden ones.
    #[serde(default, rename = "variant", skip_serializing_if = "Vec::is_empty")]
    pub variants: Vec<RawVariantOutput>,
}

/// One `[[variant]]`: a variant's outputs on one case, as files of the kit.
#[derive(Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct RawVariantOutput {
    pub group: Spanned<String>,
    pub case: Spanned<String>,
    pub name: Spanned<String>,
    /// The stdout the variant prints, relative to the kit.
    pub stdout: Spanned<String>,
    /// The file the variant writes, relative to the kit.
    pub file: Spanned<String>,
}

/// What a suite's hidden cases carry, as `grader check` reports it beside the public score.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Hidden {
    pub cases: usize,
    /// Their share of `total`: each case of a group carries the group's points over its case count.
    pub points: f64,
    /// The whole suite's points.
    pub total: f64,
}

impl Hidden {
    /// A whole suite's, from its own cases (manual groups carry no case).
    #[must_use]
    pub fn of(suite: &Suite) -> Hidden {
        let mut hidden = Hidden {
            cases: 0,
            points: 0.0,
            total: suite.total_points(),
        };
        for g in suite
            .groups
            .iter()
            .filter(|g| g.credit != CreditRule::Manual && !g.cases.is_empty())
        {
            let share = g.points / g.cases.len() as f64;
            for _ in g
                .cases
                .iter()
                .filter(|c| c.visibility == Visibility::Hidden)
            {
                hidden.cases += 1;
                hidden.points += share;
            }
        }
        hidden
    }
}

/// A kit's file, checked against its suite.
pub struct KitFile {
    pub suite: String,
    pub hidden: Hidden,
    /// The recorded variant outputs, keyed as [`Suite::variant_output`] asks for them.
    pub variants: HashMap<VariantKey, Arc<Solved>>,
}

/// Reads `dir/kit.toml` when there is one (the suite is a kit), checking every variant output it
/// names against `suite`'s public cases and files.
///
/// # Errors
/// A `kit.toml` that cannot be read or parsed, or names a case, variant or file the kit does not
/// have (located in the file).
pub fn load(dir: &Path, suite: &Suite) -> Result<Option<KitFile>, SuiteError> {
    let path = dir.join(KIT_FILE);
    if !path.exists() {
        return Ok(None);
    }
    let text = read_capped(&path).map_err(|source| TomlError::Read {
        path: path.clone(),
        source,
    })?;
    let raw: RawKit = parse_toml(&path, &text)?;
    let err = |span: std::ops::Range<usize>, message: String| -> SuiteError {
        located(&path, &text, Some(span), &message).into()
    };
    // The name becomes a results folder's (`results/<suite>/`): one plain path component.
    let name = raw.suite.get_ref();
    let plain = matches!(
        Path::new(name).components().collect::<Vec<_>>().as_slice(),
        [Component::Normal(n)] if n.to_str() == Some(name.as_str())
    );
    if !plain || name.chars().any(char::is_control) {
        return Err(err(
            raw.suite.span(),
            format!(
                "`{}` is no suite name: a folder's name, without `/`",
                name.escape_debug()
            ),
        ));
    }
    let mut variants = HashMap::new();
    for v in &raw.variants {
        let (key, solved) = variant(dir, suite, v, &err)?;
        variants.insert(key, Arc::new(solved));
    }
    Ok(Some(KitFile {
        suite: raw.suite.into_inner(),
        hidden: Hidden {
            cases: raw.hidden_cases,
            points: raw.hidden_points,
            total: raw.points,
        },
        variants,
    }))
}

/// One `[[variant]]`, resolved: the key the judge asks with, and the outputs read from the kit.
fn variant(
    dir: &Path,
    suite: &Suite,
    v: &RawVariantOutput,
    err: &dyn Fn(std::ops::Range<usize>, String) -> SuiteError,
) -> Result<(VariantKey, Solved), SuiteError> {
    let found = suite
        .cases()
        .find(|(g, c)| g.name == *v.group.get_ref() && c.name == *v.case.get_ref());
    let Some(run) = found.and_then(|(_, c)| c.run()) else {
        return Err(err(
            v.case.span(),
            format!(
                "the kit has no run case `{}/{}`",
                v.group.get_ref(),
                v.case.get_ref()
            ),
        ));
    };
    if !suite.variants.iter().any(|c| c.name == *v.name.get_ref()) {
        return Err(err(
            v.name.span(),
            format!(
                "variant `{}` is not in the kit's `[variants]`",
                v.name.get_ref()
            ),
        ));
    }
    let program = run
        .stdout
        .iter()
        .chain(run.files.iter().map(|(_, e)| e))
        .find_map(|e| e.reference.clone());
    let Some(program) = program else {
        return Err(err(
            v.case.span(),
            format!(
                "case `{}/{}` names no reference solver, so no variant of one",
                v.group.get_ref(),
                v.case.get_ref()
            ),
        ));
    };
    let read = |rel: &Spanned<String>| -> Result<String, SuiteError> {
        let inside = Path::new(rel.get_ref())
            .components()
            .all(|c| matches!(c, Component::Normal(_) | Component::CurDir));
        if !inside {
            return Err(err(
                rel.span(),
                format!("`{}` is not a path inside the kit", rel.get_ref()),
            ));
        }
        read_capped(&dir.join(rel.get_ref()))
            .map_err(|e| err(rel.span(), format!("cannot read `{}`: {e}", rel.get_ref())))
    };
    let solved = Solved {
        stdout: read(&v.stdout)?,
        file: read(&v.file)?,
    };
    let args = run
        .args
        .iter()
        .map(|a| a.replace("{work}", REFERENCE_WORK))
        .collect();
    Ok(((program, args, v.name.get_ref().clone()), solved))
}

/// A regular file's text, at most [`CAP`] bytes (golden files are read as plainly: a kit is the
/// student's own copy, not what a run left).
fn read_capped(path: &Path) -> std::io::Result<String> {
    use std::io::Read as _;
    let file = std::fs::File::open(path)?;
    if !file.metadata()?.is_file() {
        return Err(std::io::Error::other("not a regular file"));
    }
    let mut bytes = Vec::new();
    file.take(CAP + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > CAP {
        return Err(std::io::Error::other(format!(
            "larger than {} MiB",
            CAP >> 20
        )));
    }
    String::from_utf8(bytes).map_err(|_| std::io::Error::other("not UTF-8 text"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::suite::oracle;

    const SUITE: &str = r#"title = "t"
seed = 1
[variants]
post-order = { credit = 1.0 }
[[languages]]
name = "python"
detect = ["a.py"]
run = ["python3", "{dir}/a.py"]
[[groups]]
name = "g"
points = 2
visibility = "public"
[[groups.cases]]
name = "c"
args = ["xo-------", "{work}/visited.txt"]
stdout = { golden = "golden/c.stdout", reference = "tictactoe" }
files."visited.txt" = { golden = "golden/c.visited", reference = "tictactoe", compare = "trace" }
"#;

    const KIT: &str = r#"suite = "the-suite"
grader = "0.1.0"
points = 6.0
hidden-cases = 2
hidden-points = 4.0
[[variant]]
group = "g"
case = "c"
name = "post-order"
stdout = "variants/g/c/post-order.stdout"
file = "variants/g/c/post-order.file"
"#;

    /// A kit folder holding `kit` as its `kit.toml`, loaded.
    fn load_with(kit: &str) -> Result<Suite, SuiteError> {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        std::fs::create_dir_all(d.join("golden")).unwrap();
        std::fs::create_dir_all(d.join("variants/g/c")).unwrap();
        std::fs::write(d.join("suite.toml"), SUITE).unwrap();
        std::fs::write(d.join("golden/c.stdout"), "xox------\n").unwrap();
        std::fs::write(d.join("golden/c.visited"), "xox------ 1\n").unwrap();
        std::fs::write(d.join("variants/g/c/post-order.stdout"), "xox------\n").unwrap();
        std::fs::write(d.join("variants/g/c/post-order.file"), "post 1\n").unwrap();
        std::fs::write(d.join(KIT_FILE), kit).unwrap();
        let config = crate::config::Config::load(None).unwrap();
        Suite::load(d, &config, oracle::builtin())
    }

    #[test]
    fn a_kit_names_its_suite_counts_its_hidden_cases_and_records_its_variants() {
        let suite = load_with(KIT).unwrap();
        assert_eq!(suite.name, "the-suite");
        assert!(suite.kit);
        assert_eq!(
            suite.hidden,
            Hidden {
                cases: 2,
                points: 4.0,
                total: 6.0
            }
        );
        let args = [
            "xo-------".to_string(),
            format!("{REFERENCE_WORK}/visited.txt"),
        ];
        let recorded = suite
            .variant_output("tictactoe", &args, "post-order")
            .unwrap()
            .unwrap();
        assert_eq!(recorded.file, "post 1\n");
        // Not recorded: the same as the golden outputs, never computed from a kit.
        assert!(suite
            .variant_output(
                "tictactoe",
                &["x--------".into(), "work/v".into()],
                "post-order"
            )
            .unwrap()
            .is_none());
    }

    #[test]
    fn a_broken_kit_file_is_located_and_named() {
        for (from, to, said) in [
            (
                "case = \"c\"",
                "case = \"gone\"",
                "has no run case `g/gone`",
            ),
            (
                "name = \"post-order\"",
                "name = \"with-root\"",
                "variant `with-root` is not in",
            ),
            (
                "variants/g/c/post-order.file",
                "../../etc/passwd",
                "is not a path inside the kit",
            ),
            (
                "variants/g/c/post-order.file",
                "variants/none",
                "cannot read `variants/none`",
            ),
            (
                "suite = \"the-suite\"",
                "suite = \"a/b\"",
                "is no suite name",
            ),
            ("hidden-cases = 2", "hidden-cases = -2", "hidden-cases"),
            (
                "grader = \"0.1.0\"",
                "grader = \"0.1.0\"\nextra = 1",
                "extra",
            ),
        ] {
            let e = load_with(&KIT.replace(from, to))
                .err()
                .expect(said)
                .to_string();
            assert!(e.contains(said), "{said}: {e}");
            assert!(e.contains("kit.toml:"), "{e}");
        }
    }
}
