//! Issue 14: the shipped Kubernetes manifests and GitHub Actions workflow (`deploy/`) say what the CLI
//! accepts: every `grader` command in them parses, each shard is `K/N` with N the number of indices or
//! matrix entries, and the merge is given exactly the folders the shards write.

use clap::Parser as _;
use grader::cmd::{Cli, Command};

use crate::util::{read, repo};

/// The words of a shell command line: split on blanks, double and single quotes removed.
fn words(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut word = String::new();
    let mut quote = None;
    let mut started = false;
    for c in line.chars() {
        match (quote, c) {
            (None, '"' | '\'') => {
                quote = Some(c);
                started = true;
            }
            (Some(q), c) if c == q => quote = None,
            (None, c) if c.is_whitespace() => {
                if started {
                    out.push(std::mem::take(&mut word));
                    started = false;
                }
            }
            (_, c) => {
                word.push(c);
                started = true;
            }
        }
    }
    if started {
        out.push(word);
    }
    out
}

/// The `grader ...` commands of a YAML file: a `run:` line, or a folded (`>-`) block of `args:`, its
/// lines joined.
fn commands(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut lines = text.lines().peekable();
    while let Some(line) = lines.next() {
        let trimmed = line.trim_start();
        if let Some(run) = trimmed.strip_prefix("run: grader ") {
            found.push(format!("grader {run}"));
        } else if trimmed == "- >-" {
            let indent = line.len() - trimmed.len();
            let mut block = Vec::new();
            while let Some(next) = lines.peek() {
                let inner = next.trim_start();
                if inner.is_empty() || next.len() - inner.len() <= indent {
                    break;
                }
                block.push(inner);
                lines.next();
            }
            found.push(block.join(" "));
        }
    }
    found
}

/// Parses `line` (with `k` for the shard variable `var`) as the CLI would.
#[track_caller]
fn parse(line: &str, var: &str, k: u32) -> Command {
    let line = line.replace(var, &k.to_string());
    let words = words(&line);
    assert_eq!(words[0], "grader", "{line}");
    match Cli::try_parse_from(&words) {
        Ok(cli) => cli.command,
        Err(e) => panic!("`{line}` is not a grader command: {e}"),
    }
}

/// Checks a deployment's `grader run` (one per `k` in `1..=n`) and `grader merge` commands.
#[track_caller]
fn check(run: &str, merge: &str, var: &str, n: u32) {
    let mut outs = Vec::new();
    for k in 1..=n {
        let Command::Run(args) = parse(run, var, k) else {
            panic!("`{run}` is not `grader run`");
        };
        let shard = args
            .shard
            .unwrap_or_else(|| panic!("`{run}` has no --shard"));
        assert_eq!((shard.index, shard.count), (k, n), "{run}");
        outs.push(args.out);
    }
    let Command::Merge(args) = parse(merge, var, 0) else {
        panic!("`{merge}` is not `grader merge`");
    };
    // The shards' folders, as the merge job sees them (an artifact lands in `shards/<its name>`).
    let given: Vec<String> = args
        .shards
        .iter()
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    let written: Vec<String> = outs
        .iter()
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    assert_eq!(given, written, "{merge}");
}

#[test]
fn the_kubernetes_indexed_job_shards_by_its_completion_index_and_the_merge_takes_every_shard() {
    let shards = read(&repo().join("deploy/kubernetes/shards.yaml"));
    let merge = read(&repo().join("deploy/kubernetes/merge.yaml"));
    for needed in [
        "kind: Job",
        "completionMode: Indexed",
        "restartPolicy: Never",
    ] {
        assert!(shards.contains(needed), "{needed}");
    }
    let n: u32 = shards
        .lines()
        .find_map(|l| l.trim().strip_prefix("completions: "))
        .expect("completions")
        .parse()
        .unwrap();
    let run = commands(&shards);
    let merged = commands(&merge);
    assert_eq!((run.len(), merged.len()), (1, 1), "{run:?} {merged:?}");
    // JOB_COMPLETION_INDEX counts from 0, shards from 1.
    let run = run[0].replace("$((JOB_COMPLETION_INDEX + 1))", "K");
    assert!(!run.contains("JOB_COMPLETION_INDEX"), "{run}");
    check(&run, &merged[0], "K", n);
}

#[test]
fn the_github_actions_matrix_has_a_job_per_shard_and_the_merge_needs_them_all() {
    let workflow = read(&repo().join("deploy/github/grade.yml"));
    let matrix: Vec<u32> = workflow
        .lines()
        .find_map(|l| l.trim().strip_prefix("shard: ["))
        .expect("a shard matrix")
        .trim_end_matches(']')
        .split(',')
        .map(|k| k.trim().parse().unwrap())
        .collect();
    let n = u32::try_from(matrix.len()).unwrap();
    assert_eq!(matrix, (1..=n).collect::<Vec<_>>());
    assert!(workflow.contains("needs: shard"), "{workflow}");
    let found = commands(&workflow);
    assert_eq!(found.len(), 2, "{found:?}");
    check(&found[0], &found[1], "${{ matrix.shard }}", n);
}
