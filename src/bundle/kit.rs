//! The student kit: a suite with its public cases only, for `grader check`. Hidden cases and their
//! arguments are taken out of `suite.toml` (comments too: they may describe them), and the kit holds
//! only the files the public cases need: their golden files and the languages' `support` adapters.
//! Anything else (the suite's README, which may describe hidden cases) only when the instructor names
//! it.

use std::collections::BTreeSet;
use std::path::{Component, Path, PathBuf};

use anyhow::Context as _;
use toml_edit::visit_mut::{self, VisitMut};
use toml_edit::{DocumentMut, Item, TableLike};

use toml::Spanned;

use super::{tree, write_dir, Content, Entry};
use crate::error::Error;
use crate::suite::kit_file::{RawKit, RawVariantOutput, KIT_FILE};
use crate::suite::{Suite, Visibility, REFERENCE_WORK, SUITE_FILE};

/// What a kit kept and left out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Kit {
    /// Public cases kept.
    pub public: usize,
    /// Hidden cases left out.
    pub hidden: usize,
    /// Groups left out because all their cases are hidden.
    pub groups_left_out: Vec<String>,
    /// Groups kept (with a public case), in suite order.
    pub groups: Vec<String>,
    /// Files written, `suite.toml` included.
    pub files: usize,
    /// The suite's other files, left out (not named with `include`).
    pub left_out: Vec<String>,
    /// The files added with `include`, as the kit names them (`docs/...`).
    pub documents: Vec<String>,
}

/// A path as its normal components (`./golden/a` and `golden/a` are the same file).
fn normal(path: &str) -> PathBuf {
    Path::new(path)
        .components()
        .filter(|c| !matches!(c, Component::CurDir))
        .collect()
}

/// The golden files a case names (its stdout's and its files').
fn goldens(case: &dyn TableLike) -> Vec<PathBuf> {
    let golden = |expect: &Item| {
        expect
            .as_table_like()
            .and_then(|t| t.get("golden"))
            .and_then(Item::as_str)
            .map(normal)
    };
    let mut out: Vec<PathBuf> = case.get("stdout").and_then(golden).into_iter().collect();
    if let Some(files) = case.get("files").and_then(Item::as_table_like) {
        out.extend(files.iter().filter_map(|(_, e)| golden(e)));
    }
    out
}

/// Takes every comment out of a document: a suite's comments may describe its hidden cases.
struct Uncomment;

impl VisitMut for Uncomment {
    fn visit_table_mut(&mut self, node: &mut toml_edit::Table) {
        node.decor_mut().clear();
        visit_mut::visit_table_mut(self, node);
    }

    fn visit_table_like_kv_mut(&mut self, mut key: toml_edit::KeyMut<'_>, node: &mut Item) {
        key.leaf_decor_mut().clear();
        key.dotted_decor_mut().clear();
        visit_mut::visit_table_like_kv_mut(self, key, node);
    }

    fn visit_value_mut(&mut self, node: &mut toml_edit::Value) {
        node.decor_mut().clear();
        visit_mut::visit_value_mut(self, node);
    }

    fn visit_array_mut(&mut self, node: &mut toml_edit::Array) {
        node.set_trailing("");
        visit_mut::visit_array_mut(self, node);
    }

    fn visit_inline_table_mut(&mut self, node: &mut toml_edit::InlineTable) {
        node.set_preamble("");
        visit_mut::visit_inline_table_mut(self, node);
    }
}

/// Keeps the entries of a list of tables (`[[groups]]`, or `cases = [{ ... }]`) that `keep` accepts.
fn retain_tables(item: &mut Item, keep: &mut dyn FnMut(&mut dyn TableLike) -> bool) -> usize {
    // The two kinds of list have `retain`, but it lends no `&mut` to a group's cases.
    if let Some(tables) = item.as_array_of_tables_mut() {
        let keeps: Vec<bool> = tables.iter_mut().map(|t| keep(t)).collect();
        for (i, _) in keeps.iter().enumerate().rev().filter(|(_, k)| !**k) {
            tables.remove(i);
        }
        tables.len()
    } else if let Some(array) = item.as_array_mut() {
        let keeps: Vec<bool> = array
            .iter_mut()
            .map(|v| v.as_inline_table_mut().is_none_or(|t| keep(t)))
            .collect();
        for (i, _) in keeps.iter().enumerate().rev().filter(|(_, k)| !**k) {
            array.remove(i);
        }
        array.len()
    } else {
        usize::MAX
    }
}

/// The reference's expected output for a public case's stdout (`None`) or file: `(group, case, file)`.
type Answer<'a> = &'a dyn Fn(&str, &str, Option<&str>) -> Option<String>;

/// A suite rewritten as a kit.
struct Rewritten {
    /// The kit's `suite.toml`.
    toml: String,
    kit: Kit,
    /// Files the public cases need: their golden files and the languages' adapters.
    kept: BTreeSet<PathBuf>,
    /// The hidden cases' golden files.
    dropped: BTreeSet<PathBuf>,
    /// Golden files the kit adds: a public expected output the reference computed, written down.
    written: Vec<(PathBuf, String)>,
}

/// A public case's expected outputs that only the reference computes get a golden file of their own
/// (`golden/kit-<group>-<case>.<stdout or file>`), so the student build, which computes no reference
/// answers, can check them.
fn write_down(
    case: &mut dyn TableLike,
    group: &str,
    answer: Answer<'_>,
    written: &mut Vec<(PathBuf, String)>,
) {
    let name = case
        .get("name")
        .and_then(Item::as_str)
        .unwrap_or("?")
        .to_string();
    let mut outputs: Vec<(Option<String>, &mut Item)> = Vec::new();
    let mut files: Option<&mut Item> = None;
    for (key, item) in case.iter_mut() {
        match key.get() {
            "stdout" => outputs.push((None, item)),
            "files" => files = Some(item),
            _ => {}
        }
    }
    if let Some(files) = files.and_then(Item::as_table_like_mut) {
        outputs.extend(
            files
                .iter_mut()
                .map(|(k, v)| (Some(k.get().to_string()), v)),
        );
    }
    for (file, item) in outputs {
        let Some(expect) = item.as_table_like_mut() else {
            continue;
        };
        if expect.contains_key("golden") || !expect.contains_key("reference") {
            continue;
        }
        let Some(text) = answer(group, &name, file.as_deref()) else {
            continue;
        };
        let path = format!(
            "golden/kit-{group}-{name}.{}",
            file.as_deref().unwrap_or("stdout")
        );
        expect.insert("golden", toml_edit::value(path.as_str()));
        written.push((PathBuf::from(path), text));
    }
}

/// The kit's `suite.toml` (the suite's, without its hidden cases, `[calibrate]` and comments), what it
/// kept, and the files the kept and the hidden cases need.
fn public_only(text: &str, name: &str, answer: Answer<'_>) -> anyhow::Result<Rewritten> {
    let mut written = Vec::new();
    let mut suite: DocumentMut = text.parse()?;
    suite.remove("calibrate");
    let mut kit = Kit {
        public: 0,
        hidden: 0,
        groups_left_out: Vec::new(),
        groups: Vec::new(),
        files: 0,
        left_out: Vec::new(),
        documents: Vec::new(),
    };
    let (mut kept, mut dropped) = (BTreeSet::new(), BTreeSet::new());
    // The languages' adapters: every kit needs them to build a submission.
    if let Some(languages) = suite.get("languages").and_then(Item::as_array_of_tables) {
        for support in languages
            .iter()
            .filter_map(|l| l.get("support").and_then(Item::as_array))
            .flatten()
            .filter_map(toml_edit::Value::as_str)
        {
            kept.insert(normal(support));
        }
    }
    // A game whose rules are a program (`[arena] game = { rules = "…" }`): every game needs it.
    if let Some(rules) = suite
        .get("arena")
        .and_then(|a| a.get("game"))
        .and_then(|g| g.get("rules"))
        .and_then(Item::as_str)
    {
        kept.insert(normal(rules));
    }
    if let Some(groups) = suite.get_mut("groups") {
        retain_tables(groups, &mut |group| {
            let group_name = group
                .get("name")
                .and_then(Item::as_str)
                .unwrap_or("?")
                .to_string();
            let default = group
                .get("visibility")
                .and_then(Item::as_str)
                .unwrap_or("hidden")
                .to_string();
            let Some(cases) = group.get_mut("cases") else {
                return true;
            };
            let left = retain_tables(cases, &mut |case| {
                let visibility = case
                    .get("visibility")
                    .and_then(Item::as_str)
                    .unwrap_or(&default);
                let public = visibility == "public";
                if public {
                    kit.public += 1;
                    kept.extend(goldens(case));
                    write_down(case, &group_name, answer, &mut written);
                } else {
                    kit.hidden += 1;
                    dropped.extend(goldens(case));
                }
                public
            });
            if left == 0 {
                kit.groups_left_out.push(group_name);
            } else {
                kit.groups.push(group_name);
            }
            left > 0
        });
    }
    Uncomment.visit_document_mut(&mut suite);
    suite.set_trailing("");
    let header = format!(
        "# The student kit of `{name}`, written by `grader kit`: the public cases ({}). The hidden cases\n\
         # ({}), their arguments and their golden files are not in it. Run `grader check` with it.\n\n",
        kit.public, kit.hidden
    );
    Ok(Rewritten {
        toml: header + suite.to_string().trim_start(),
        kit,
        kept,
        dropped,
        written,
    })
}

/// Writes the kit of `suite` into `out` (which must not exist, or be empty): its public cases
/// (`suite.toml`, their golden files, the languages' adapters), `kit.toml` (the suite's name, what
/// its hidden cases carry, each named variant's outputs on the public cases under `variants/`), and
/// the suite's files `include` names (relative to the suite folder: its README, a protocol document)
/// under `docs/`. The student guide (`README.md`) is written afterwards, from the kit as it loads
/// ([`super::guide`]).
///
/// # Errors
/// A suite that cannot be read, an `include` that is not one of its files or is a hidden case's
/// golden file, a non-empty `out` (input); a reference variant that fails, a file that cannot be
/// written (machine).
pub fn write(suite: &Suite, include: &[PathBuf], out: &Path) -> Result<Kit, Error> {
    let suite_dir = suite.dir.as_path();
    let file = suite_dir.join(SUITE_FILE);
    let text = std::fs::read_to_string(&file)
        .with_context(|| format!("cannot read `{}`", file.display()))?;
    let answer = |group: &str, case: &str, file: Option<&str>| {
        let (_, c) = suite
            .cases()
            .find(|(g, c)| g.name == group && c.name == case)?;
        let run = c.run()?;
        let expect = match file {
            None => run.stdout.as_ref()?,
            Some(f) => &run.files.iter().find(|(n, _)| n == f)?.1,
        };
        Some(expect.text.to_string())
    };
    let Rewritten {
        toml,
        mut kit,
        kept,
        dropped,
        written,
    } = public_only(&text, &suite.name, &answer)
        .with_context(|| format!("cannot rewrite `{}`", file.display()))?;
    let mut entries = vec![Entry {
        path: SUITE_FILE.to_string(),
        content: Content::Bytes(toml.into_bytes()),
        executable: false,
    }];
    for (path, text) in written {
        if suite_dir.join(&path).exists() {
            return Err(Error::input(anyhow::anyhow!(
                "the kit would write `{}`, which the suite already has\nhint: rename that file",
                path.display()
            )));
        }
        entries.push(Entry {
            path: path.to_string_lossy().into_owned(),
            content: Content::Bytes(text.into_bytes()),
            executable: false,
        });
    }
    let (recorded, variants) = variant_entries(suite)?;
    entries.extend(variants);
    entries.push(Entry {
        path: KIT_FILE.to_string(),
        content: Content::Bytes(kit_toml(suite, recorded).into_bytes()),
        executable: false,
    });
    for rel in kept.iter().filter(|r| r.as_path() != Path::new(SUITE_FILE)) {
        entries.push(suite_file(suite_dir, rel, rel)?);
    }
    let mut documents = BTreeSet::new();
    for path in include {
        let rel = included(suite_dir, path, &kept, &dropped)?;
        entries.push(suite_file(suite_dir, &rel, &Path::new(DOCS).join(&rel))?);
        documents.insert(rel);
    }
    kit.left_out = left_out(suite_dir, &kept, &documents)?;
    kit.documents = documents
        .iter()
        .map(|d| Path::new(DOCS).join(d).to_string_lossy().into_owned())
        .collect();
    write_dir(&entries, out)?;
    kit.files = entries.len();
    Ok(kit)
}

/// Where the files an instructor adds with `--include` go in a kit.
pub const DOCS: &str = "docs";

/// One of the suite's files, checked to be a regular file, at `to` in the kit.
fn suite_file(suite_dir: &Path, rel: &Path, to: &Path) -> Result<Entry, Error> {
    let from = suite_dir.join(rel);
    let regular = std::fs::symlink_metadata(&from).is_ok_and(|m| m.is_file());
    if !regular {
        return Err(Error::input(anyhow::anyhow!(
            "`{}` is not a file of the suite",
            from.display()
        )));
    }
    Ok(Entry {
        path: to.to_string_lossy().into_owned(),
        content: Content::Disk(from),
        executable: false,
    })
}

/// An `--include` path, checked: inside the suite folder and no hidden case's golden file.
fn included(
    suite_dir: &Path,
    path: &Path,
    kept: &BTreeSet<PathBuf>,
    dropped: &BTreeSet<PathBuf>,
) -> Result<PathBuf, Error> {
    let rel = normal(&path.to_string_lossy());
    if rel.is_absolute()
        || rel.as_os_str().is_empty()
        || rel.components().any(|c| c == Component::ParentDir)
    {
        return Err(Error::input(anyhow::anyhow!(
            "`{}` is not a path inside the suite folder\nhint: name a file relative to `{}`",
            path.display(),
            suite_dir.display()
        )));
    }
    if dropped.contains(&rel) && !kept.contains(&rel) {
        return Err(Error::input(anyhow::anyhow!(
            "`{}` is a hidden case's golden file: a kit never holds one",
            path.display()
        )));
    }
    Ok(rel)
}

/// The suite's other files, left out (not golden files, not kept, not included): said, so an
/// instructor can add a document with `--include`.
fn left_out(
    suite_dir: &Path,
    kept: &BTreeSet<PathBuf>,
    documents: &BTreeSet<PathBuf>,
) -> Result<Vec<String>, Error> {
    let mut others = Vec::new();
    tree(suite_dir, "", &|_| false, &mut others)?;
    Ok(others
        .into_iter()
        .map(|e| e.path.trim_start_matches('/').to_string())
        .filter(|rel| {
            rel != SUITE_FILE
                && rel != KIT_FILE
                && !rel.starts_with("golden/")
                && !rel.starts_with("variants/")
                && !kept.contains(Path::new(rel))
                && !documents.contains(Path::new(rel))
        })
        .collect())
}

/// Each named variant's outputs on each public case whose expected outputs a reference solver gives,
/// where they differ from the golden ones (the judge skips a variant equal to them): the files under
/// `variants/<group>/<case>/` and their `[[variant]]` entries. The student build cannot compute them.
fn variant_entries(suite: &Suite) -> Result<(Vec<RawVariantOutput>, Vec<Entry>), Error> {
    let (mut recorded, mut entries) = (Vec::new(), Vec::new());
    for (g, c) in suite
        .cases()
        .filter(|(_, c)| c.visibility == Visibility::Public)
    {
        let Some(run) = c.run() else { continue };
        let traced = run.files.iter().find(|(_, e)| e.reference.is_some());
        let program = run
            .stdout
            .iter()
            .chain(run.files.iter().map(|(_, e)| e))
            .find_map(|e| e.reference.as_deref());
        let Some(program) = program else { continue };
        let args: Vec<String> = run
            .args
            .iter()
            .map(|a| a.replace("{work}", REFERENCE_WORK))
            .collect();
        for v in &suite.variants {
            let solved = suite.variant_output(program, &args, &v.name).map_err(|e| {
                Error::machine(anyhow::anyhow!(
                    "the reference variant `{}` fails on case `{}/{}`: {e}",
                    v.name,
                    g.name,
                    c.name
                ))
            })?;
            let Some(solved) = solved else { continue };
            let same_stdout = run.stdout.as_ref().is_none_or(|e| *e.text == solved.stdout);
            let same_file = traced.is_none_or(|(_, e)| *e.text == solved.file);
            if same_stdout && same_file {
                continue;
            }
            let dir = format!("variants/{}/{}", g.name, c.name);
            let stdout = format!("{dir}/{}.stdout", v.name);
            let file = format!("{dir}/{}.file", v.name);
            for (path, text) in [(&stdout, &solved.stdout), (&file, &solved.file)] {
                entries.push(Entry {
                    path: path.clone(),
                    content: Content::Bytes(text.clone().into_bytes()),
                    executable: false,
                });
            }
            recorded.push(RawVariantOutput {
                group: Spanned::new(0..0, g.name.clone()),
                case: Spanned::new(0..0, c.name.clone()),
                name: Spanned::new(0..0, v.name.clone()),
                stdout: Spanned::new(0..0, stdout),
                file: Spanned::new(0..0, file),
            });
        }
    }
    Ok((recorded, entries))
}

/// The kit's `kit.toml`.
fn kit_toml(suite: &Suite, variants: Vec<RawVariantOutput>) -> String {
    let raw = RawKit {
        suite: Spanned::new(0..0, suite.name.clone()),
        grader: env!("CARGO_PKG_VERSION").to_string(),
        points: crate::report::export::round4(suite.hidden.total),
        hidden_cases: suite.hidden.cases,
        hidden_points: crate::report::export::round4(suite.hidden.points),
        variants,
    };
    format!(
        "# Written by `grader kit` from the suite `{}`: what `grader check` needs beside suite.toml. The\n\
         # hidden cases are counted here, never listed; `[[variant]]` names the files holding each named\n\
         # variant's outputs on a public case, so `grader check` can say which one a trace is.\n\n{}",
        suite.name,
        toml::to_string(&raw).expect("a kit file serialises")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(p: &Path) -> String {
        std::fs::read_to_string(p).unwrap()
    }

    const SUITE: &str = r#"
# A comment on the secret board
title = "t"
seed = 1
[calibrate]
python = "../../secret/reference"

[[groups]]
name = "open"
points = 2
visibility = "public"

[[groups.cases]]
name = "shown"
args = ["a"]
stdout = { golden = "golden/shown.stdout" }
files."visited.txt" = { reference = "tictactoe" }

[[groups.cases]]
name = "kept-back"
visibility = "hidden"
args = ["secret-board"] # the secret board again
stdout = { golden = "./golden/kept-back.stdout" }
files."out.txt" = { golden = "golden/kept-back.out" }

[[groups]]
name = "closed"
points = 3

[[groups.cases]]
name = "only-hidden"
args = ["another-secret"]
stdout = { golden = "golden/shown.stdout" }
"#;

    #[test]
    fn hidden_cases_their_arguments_and_golden_files_are_left_out() {
        let answer = |g: &str, c: &str, f: Option<&str>| Some(format!("{g}/{c}/{f:?}\n"));
        let Rewritten {
            toml,
            kit,
            kept,
            dropped,
            written,
        } = public_only(SUITE, "t", &answer).unwrap();
        assert_eq!(kit.public, 1);
        assert_eq!(kit.hidden, 2);
        assert_eq!(kit.groups_left_out, ["closed"]);
        assert!(!toml.contains("secret"), "{toml}");
        assert!(!toml.contains("calibrate"), "{toml}");
        assert!(toml.contains("golden/shown.stdout"), "{toml}");
        assert_eq!(kept, BTreeSet::from([PathBuf::from("golden/shown.stdout")]));
        // The public case's file that only the reference computes is written down for the kit.
        assert_eq!(
            written,
            [(
                PathBuf::from("golden/kit-open-shown.visited.txt"),
                "open/shown/Some(\"visited.txt\")\n".to_string()
            )]
        );
        assert!(
            toml.contains("golden = \"golden/kit-open-shown.visited.txt\""),
            "{toml}"
        );
        assert_eq!(
            dropped,
            BTreeSet::from([
                PathBuf::from("golden/kept-back.out"),
                PathBuf::from("golden/kept-back.stdout"),
                // Shared with the public case, so kept.
                PathBuf::from("golden/shown.stdout"),
            ])
        );
        assert!(!toml.contains("../../"), "{toml}");
        // Still a suite: the same keys, read back the same way.
        let back: toml::Table = toml.parse().unwrap();
        assert_eq!(back["groups"].as_array().unwrap().len(), 1);
    }

    #[test]
    fn the_kit_folder_has_no_hidden_golden_file_nor_stray_one() {
        let suite = tempfile::tempdir().unwrap();
        let dir = suite.path();
        std::fs::create_dir_all(dir.join("golden")).unwrap();
        // Loadable: a language, and no reference asked to solve a made-up board.
        let text = SUITE.replace("files.\"visited.txt\" = { reference = \"tictactoe\" }\n", "")
            + "[[languages]]\nname = \"python\"\ndetect = [\"a.py\"]\nrun = [\"python3\", \"{dir}/a.py\"]\n";
        std::fs::write(dir.join(SUITE_FILE), text).unwrap();
        for (name, text) in [
            ("golden/shown.stdout", "public answer\n"),
            ("golden/kept-back.stdout", "hidden answer\n"),
            ("golden/kept-back.out", "hidden file\n"),
            ("golden/stray.stdout", "an old answer\n"),
            ("README.md", "the rules\n"),
        ] {
            std::fs::write(dir.join(name), text).unwrap();
        }
        let config = crate::config::Config::load(None).unwrap();
        let loaded = Suite::load(dir, &config, crate::suite::oracle::builtin()).unwrap();
        // A machine's measurements, written after loading (the kit reads no calibration).
        std::fs::write(dir.join("calibration.toml"), "machine = \"m\"\n").unwrap();
        let out = tempfile::tempdir().unwrap();
        let kit_dir = out.path().join("kit");
        let kit = write(&loaded, &[], &kit_dir).unwrap();
        let mut files: Vec<String> = Vec::new();
        let mut stack = vec![kit_dir.clone()];
        while let Some(d) = stack.pop() {
            for e in std::fs::read_dir(&d).unwrap() {
                let p = e.unwrap().path();
                if p.is_dir() {
                    stack.push(p);
                } else {
                    files.push(p.strip_prefix(&kit_dir).unwrap().display().to_string());
                }
            }
        }
        files.sort();
        assert_eq!(files, ["golden/shown.stdout", "kit.toml", "suite.toml"]);
        assert_eq!(kit.files, 3);
        assert_eq!(kit.left_out, ["README.md", "calibration.toml"]);
        // The kit names the suite (its folder is `kit`) and counts what it left out.
        let back = Suite::load(&kit_dir, &config, crate::suite::oracle::builtin()).unwrap();
        assert_eq!(back.name, loaded.name);
        assert!(back.kit && !loaded.kit);
        assert_eq!(back.hidden, loaded.hidden);
        assert_eq!(loaded.hidden.cases, 2);
        assert_eq!(loaded.hidden.total, 5.0);
        // `kept-back` is half of `open` (2 points); `closed` (3) is all hidden.
        assert!(
            (loaded.hidden.points - 4.0).abs() < 1e-9,
            "{:?}",
            loaded.hidden
        );
        // A kit is written once: an existing one is never mixed with another.
        assert!(write(&loaded, &[], &kit_dir).is_err());
        // The README when named, under docs/; never a hidden golden file, nor a file outside the
        // suite.
        let with = out.path().join("with-readme");
        let kit = write(&loaded, &[PathBuf::from("README.md")], &with).unwrap();
        assert_eq!(read(&with.join("docs/README.md")), "the rules\n");
        assert_eq!(kit.documents, ["docs/README.md"]);
        assert_eq!(kit.left_out, ["calibration.toml"]);
        for bad in ["golden/kept-back.out", "../x", "nope.md"] {
            let e = write(&loaded, &[PathBuf::from(bad)], &out.path().join("bad")).unwrap_err();
            assert!(format!("{e:?}").contains(bad), "{e:?}");
        }
    }
}
