//! `grader similarity RESULTS/SUITE SUBMISSIONS`: similar hand-ins by Dolos, ranked, in
//! `RESULTS/SUITE/similarity.csv`, with the submissions whose output depended on their output path.

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;
use std::time::Duration;

use super::exit::{CliError, CmdResult, Exit};
use crate::grade::class::student_key;
use crate::report::similarity::{
    available, by_student, dolos_dir, language, run_dolos, sources, students, write_csv, RawPair,
    Source,
};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// A suite's results folder, as `grader run` wrote it (`results/<suite>`).
    pub results: PathBuf,
    /// The folder holding the class's submissions (one folder per student), as given to `grader run`.
    pub submissions: PathBuf,
    /// The longest Dolos may run for one language, in seconds.
    #[arg(long, default_value_t = 300, value_name = "SECONDS")]
    pub timeout: u64,
    /// How many of the most similar pairs to print (all are in the CSV).
    #[arg(long, default_value_t = 20, value_name = "N")]
    pub top: usize,
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
    let all: Vec<Source> = folders
        .iter()
        .flat_map(|(k, dir)| sources(k, dir))
        .collect();
    let csv = args.results.join("similarity.csv");
    let write = |pairs: &[crate::report::similarity::Pair]| {
        write_csv(&csv, pairs, &class).map_err(|e| {
            CliError::internal(
                anyhow::Error::new(e).context(format!("cannot write `{}`", csv.display())),
            )
        })?;
        // The class page shows the pairs: one already written is brought up to date.
        if args.results.join("index.html").is_file() {
            crate::report::html::class::write_suite(&args.results).map_err(CliError::internal)?;
            eprintln!("updated {}", args.results.join("index.html").display());
        }
        Ok::<(), CliError>(())
    };
    let flagged = class.iter().filter(|(_, n)| !n.is_empty()).count();
    let dolos = dolos_dir();
    let node = match available(&dolos) {
        Ok(node) => node,
        Err(why) => {
            write(&[])?;
            eprintln!(
                "wrote {} (path-dependent submissions only: {flagged})",
                csv.display()
            );
            eprintln!(
                "similarity skipped: {why}\nhint: `grader doctor --install` installs Dolos where Node and npm are present"
            );
            return Ok(Exit::Internal);
        }
    };
    // One Dolos run per language, over copies of the files (what a student's folder holds is never
    // handed to another program by its own path).
    let mut by_language: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    for (i, s) in all.iter().enumerate() {
        by_language
            .entry(language(&s.rel).unwrap_or("c"))
            .or_default()
            .push(i);
    }
    let copies = tempfile::tempdir().map_err(|e| CliError::internal(anyhow::Error::new(e)))?;
    let mut raw: Vec<RawPair> = Vec::new();
    for (lang, members) in &by_language {
        let students: BTreeSet<&str> = members.iter().map(|&i| all[i].student.as_str()).collect();
        if students.len() < 2 {
            continue;
        }
        let mut paths = Vec::new();
        for &i in members {
            let ext = all[i]
                .rel
                .extension()
                .and_then(|e| e.to_str())
                .unwrap_or("txt");
            let path = copies.path().join(format!("{i}.{ext}"));
            std::fs::write(&path, &all[i].bytes).map_err(|e| {
                CliError::internal(anyhow::Error::new(e).context("cannot copy a source file"))
            })?;
            paths.push(path);
        }
        let found = run_dolos(
            &node,
            &dolos,
            lang,
            &paths,
            Duration::from_secs(args.timeout),
        )
        .map_err(|why| CliError::internal(anyhow::anyhow!("{why}")))?;
        raw.extend(found.into_iter().map(|p| RawPair {
            left: members[p.left],
            right: members[p.right],
            ..p
        }));
    }
    let pairs = by_student(&all, &raw);
    write(&pairs)?;
    eprintln!(
        "wrote {} ({} pairs of students, {flagged} path-dependent)",
        csv.display(),
        pairs.len()
    );
    println!("rank  similarity  longest  students");
    for (k, p) in pairs.iter().take(args.top).enumerate() {
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
    for (student, notes) in class.iter().filter(|(_, n)| !n.is_empty()) {
        println!("path-dependent: {student}: {}", notes.join("; "));
    }
    Ok(Exit::Success)
}
