//! `grader similarity RESULTS/SUITE SUBMISSIONS`: similar hand-ins by Dolos, ranked, in
//! `RESULTS/SUITE/similarity.csv`, with the submissions whose output depended on their output path
//! and the files Dolos could not compare, each with why.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::time::Duration;

use super::common::{environment_for, load_config};
use super::exit::{CliError, CmdResult, Exit};
use crate::grade::class::student_key;
use crate::report::dolos::Dolos;
use crate::report::similarity::{
    available, by_student, dolos_dir, language, sources, students, write_csv, NotCompared, Pair,
    RawPair, Source,
};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// A suite's results folder, as `grader run` wrote it (`results/<suite>`).
    pub results: PathBuf,
    /// The folder holding the class's submissions (one folder per student), as given to `grader run`.
    pub submissions: PathBuf,
    /// The longest one run of Dolos may take, in seconds (CPU and wall).
    #[arg(long, default_value_t = 300, value_name = "SECONDS")]
    pub timeout: u64,
    /// How many of the most similar pairs to print (all are in the CSV).
    #[arg(long, default_value_t = 20, value_name = "N")]
    pub top: usize,
    /// The sandbox tier Dolos runs under: `full`, `basic` or `none` (default: `grader.toml`'s
    /// `run.sandbox`). It reads the students' files, so it runs as they do.
    #[arg(long, value_name = "TIER")]
    pub sandbox: Option<String>,
    /// A `grader.toml` over the built-in defaults (default: `./grader.toml` when present).
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
}

/// What this run found.
#[derive(Default)]
struct Found {
    pairs: Vec<Pair>,
    not_compared: Vec<NotCompared>,
    /// Languages Dolos failed on as a whole (`c: why`): the machine's fault, or the limits'.
    failed: Vec<String>,
    /// Why Dolos did not run at all.
    skipped: Option<String>,
}

/// `grader similarity RESULTS/SUITE SUBMISSIONS`.
pub fn run(args: Args) -> CmdResult {
    let class = students(&args.results);
    if class.is_empty() {
        return Err(CliError::usage(anyhow::anyhow!(
            "no `<student>/result.json` in `{}`\nhint: give a suite's results folder, as `grader run` writes it (`results/<suite>`)",
            args.results.display()
        )));
    }
    // An earlier run's CSV goes first: whatever happens below, no file is left that this run did not
    // write.
    remove_stale(&args.results)?;
    let found = match find(&args, &class) {
        Ok(found) => found,
        Err(e) => {
            refresh_page(&args.results)?;
            return Err(e);
        }
    };
    let csv = args.results.join(crate::report::html::similarity::FILE);
    write_csv(&csv, &found.pairs, &found.not_compared, &class).map_err(|e| {
        CliError::internal(
            anyhow::Error::new(e).context(format!("cannot write `{}`", csv.display())),
        )
    })?;
    refresh_page(&args.results)?;
    Ok(tell(&args, &csv, &found, &class))
}

/// Removes `similarity.csv` from `results` (the name itself, never what a link there points to).
fn remove_stale(results: &Path) -> Result<(), CliError> {
    let path = results.join(crate::report::html::similarity::FILE);
    match std::fs::remove_file(&path) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(CliError::internal(
            anyhow::Error::new(e).context(format!("cannot remove `{}`", path.display())),
        )),
        _ => Ok(()),
    }
}

/// The class page shows the pairs: one already written is brought up to date.
fn refresh_page(results: &Path) -> Result<(), CliError> {
    if results.join("index.html").is_file() {
        crate::report::html::class::write_suite(results).map_err(CliError::internal)?;
        eprintln!("updated {}", results.join("index.html").display());
    }
    Ok(())
}

/// The class's source files, from the submission folders of the students with a result.
fn class_sources(args: &Args, class: &[(String, Vec<String>)]) -> Result<Vec<Source>, CliError> {
    let keys: BTreeSet<&str> = class.iter().map(|(k, _)| k.as_str()).collect();
    let entries = std::fs::read_dir(&args.submissions).map_err(|e| {
        CliError::usage(anyhow::Error::new(e).context(format!(
            "cannot read the submissions folder `{}`",
            args.submissions.display()
        )))
    })?;
    let mut folders: Vec<(String, PathBuf)> = entries
        .filter_map(Result::ok)
        .map(|e| (student_key(&e.file_name()), e.path()))
        .filter(|(k, p)| keys.contains(k.as_str()) && p.is_dir() && !p.is_symlink())
        .collect();
    folders.sort();
    Ok(folders
        .iter()
        .flat_map(|(k, dir)| sources(k, dir))
        .collect())
}

/// Runs Dolos over the class, one language at a time, over copies of the files (what a student's
/// folder holds is never handed to another program by its own path).
fn find(args: &Args, class: &[(String, Vec<String>)]) -> Result<Found, CliError> {
    let all = class_sources(args, class)?;
    let dir = dolos_dir();
    let node = match available(&dir) {
        Ok(node) => node,
        Err(why) => {
            return Ok(Found {
                skipped: Some(why),
                ..Found::default()
            })
        }
    };
    let config = load_config(args.config.as_deref())?;
    let env = environment_for(args.sandbox.as_deref(), &config, false)?;
    let dolos = Dolos {
        node,
        dir,
        sandbox: &*env.sandbox,
        timeout: Duration::from_secs(args.timeout),
    };
    let mut by_language: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    for (i, s) in all.iter().enumerate() {
        by_language
            .entry(language(&s.rel).unwrap_or("c"))
            .or_default()
            .push(i);
    }
    let mut found = Found::default();
    let mut raw: Vec<RawPair> = Vec::new();
    for (lang, members) in &by_language {
        raw.extend(compare_language(&dolos, &all, lang, members, &mut found)?);
    }
    found.pairs = by_student(&all, &raw);
    found.not_compared.sort();
    found.not_compared.dedup();
    Ok(found)
}

/// One language's files compared: its pairs (by index into `all`); the files left out and a failure
/// of the whole language go into `found`.
fn compare_language(
    dolos: &Dolos,
    all: &[Source],
    lang: &str,
    members: &[usize],
    found: &mut Found,
) -> Result<Vec<RawPair>, CliError> {
    let students: BTreeSet<&str> = members.iter().map(|&i| all[i].student.as_str()).collect();
    if students.len() < 2 {
        return Ok(Vec::new());
    }
    let work = tempfile::tempdir().map_err(|e| CliError::internal(anyhow::Error::new(e)))?;
    let mut paths = Vec::new();
    for &i in members {
        let ext = all[i]
            .rel
            .extension()
            .and_then(|e| e.to_str())
            .unwrap_or("txt");
        let path = work.path().join(format!("{i}.{ext}"));
        std::fs::write(&path, &all[i].bytes).map_err(|e| {
            CliError::internal(anyhow::Error::new(e).context("cannot copy a source file"))
        })?;
        paths.push(path);
    }
    let owners: Vec<&str> = members.iter().map(|&i| all[i].student.as_str()).collect();
    let compared = dolos.compare(lang, &paths, &owners, work.path());
    for (k, why) in &compared.left_out {
        let source = &all[members[*k]];
        found.not_compared.push(NotCompared {
            student: source.student.clone(),
            why: format!("{}: {why}", source.rel.display()),
        });
    }
    if let Some(why) = &compared.failed {
        found.failed.push(format!("{lang}: {why}"));
        for student in students {
            found.not_compared.push(NotCompared {
                student: student.to_string(),
                why: format!("its {lang} files: {why}"),
            });
        }
    }
    Ok(compared
        .pairs
        .into_iter()
        .map(|p| RawPair {
            left: members[p.left],
            right: members[p.right],
            ..p
        })
        .collect())
}

/// Says what was written and found, and how the run went: exit 3 when Dolos could not run or failed
/// on a language as a whole (not the students' doing), 0 otherwise, files left out included (each is
/// named in the CSV, on the class page and here).
fn tell(args: &Args, csv: &Path, found: &Found, class: &[(String, Vec<String>)]) -> Exit {
    let flagged = class.iter().filter(|(_, n)| !n.is_empty()).count();
    if let Some(why) = &found.skipped {
        eprintln!(
            "wrote {} (path-dependent submissions only: {flagged})",
            csv.display()
        );
        eprintln!(
            "similarity skipped: {why}\nhint: `grader doctor --install` installs Dolos where Node and npm are present"
        );
        return Exit::Internal;
    }
    eprintln!(
        "wrote {} ({} pairs of students, {} not compared, {flagged} path-dependent)",
        csv.display(),
        found.pairs.len(),
        found.not_compared.len()
    );
    println!("rank  similarity  longest  students");
    for (k, p) in found.pairs.iter().take(args.top).enumerate() {
        println!(
            "{:>4}  {:>9.1}%  {:>7}  {} ~ {} ({})",
            k + 1,
            p.similarity * 100.0,
            p.longest,
            p.a,
            p.b,
            crate::untrusted::one_line(&p.files, 200)
        );
    }
    for n in &found.not_compared {
        println!("not compared: {}: {}", n.student, n.why);
    }
    for (student, notes) in class.iter().filter(|(_, n)| !n.is_empty()) {
        println!("path-dependent: {student}: {}", notes.join("; "));
    }
    for why in &found.failed {
        eprintln!("error: Dolos failed on a whole language, {why}\nhint: a person should look; `--timeout` gives each run of Dolos longer");
    }
    if found.failed.is_empty() {
        Exit::Success
    } else {
        Exit::Internal
    }
}
