//! Dolos run as any program the grader does not trust: under the sandbox, with limits, over copies of
//! the class's files. One file Dolos cannot read (a parser that overflows its stack on 60,000 nested
//! parentheses, a file that makes it run out of memory or time) only removes itself: when a run over a
//! language's files fails, Dolos reads the files one by one ([`Dolos::culprits`]), a file it fails on
//! alone is left out with why, and the rest are compared again.

use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::report::similarity::{parse, RawPair, SCRIPT};
use crate::sandbox::{LimitHit, Limits, Outcome, Sandbox, Spec, Status, Stdin};
use crate::untrusted::one_line;

/// The script's name in the working folder.
const SCRIPT_FILE: &str = "similarity.mjs";
/// What one run may hold: Node and Dolos's index of a class fit well within this. V8's own heap cap is
/// set below it, so running out is a clean JavaScript error before the sandbox's kill.
const MEMORY: u64 = 3 << 30;
const HEAP_MB: u64 = 2048;
/// Node's threads (V8's and libuv's pools) and its descriptors.
const PROCESSES: u32 = 64;
const OPEN_FILES: u64 = 1024;
/// The most a run may print: a pair is about 80 bytes.
const OUTPUT: u64 = 64 << 20;
/// The most files left out of one language before Dolos is taken to be failing on the class as a
/// whole, not on files.
const MAX_LEFT_OUT: usize = 64;

/// Where Dolos is, and the sandbox and time it runs under.
pub struct Dolos<'a> {
    /// The `node` to run.
    pub node: PathBuf,
    /// The folder holding `node_modules/@dodona/dolos-lib`.
    pub dir: PathBuf,
    pub sandbox: &'a dyn Sandbox,
    /// The longest one run may take (CPU and wall).
    pub timeout: Duration,
}

/// One language's comparison, by index into the files given.
#[derive(Debug, Default, PartialEq)]
pub struct Compared {
    pub pairs: Vec<RawPair>,
    /// Files left out, each with why: Dolos fails on each alone.
    pub left_out: Vec<(usize, String)>,
    /// Why the other files could not be compared, when Dolos failed on them together (not on one file:
    /// the machine's fault, or a class too large for the limits).
    pub failed: Option<String>,
}

/// What a reading of files one by one found.
#[derive(Debug, Default)]
struct Scan {
    /// Files Dolos reported it could not read, with its error.
    failed: Vec<(usize, String)>,
    /// The file being read when the run died, and how it died.
    died_on: Option<(usize, String)>,
    /// How the run died before it started any file (Dolos itself does not load).
    died_first: Option<String>,
}

impl Dolos<'_> {
    /// The limits of one run.
    #[must_use]
    pub fn limits(&self) -> Limits {
        Limits {
            cpu: self.timeout,
            wall: self.timeout,
            memory: MEMORY,
            output: OUTPUT,
            file_size: 1 << 20,
            processes: PROCESSES,
            open_files: OPEN_FILES,
            stack: 8 << 20,
            // V8 reserves far more address space than it uses.
            address_space: None,
            idle: None,
        }
    }

    /// Compares `files` (all of `language`, copies in `work`; `owners[i]` is the student of file `i`):
    /// the pairs Dolos finds, leaving out each file it cannot read alone.
    #[must_use]
    pub fn compare(
        &self,
        language: &str,
        files: &[PathBuf],
        owners: &[&str],
        work: &Path,
    ) -> Compared {
        let mut out = Compared::default();
        let mut kept: Vec<usize> = (0..files.len()).collect();
        loop {
            let mut students: Vec<&str> = kept.iter().map(|&i| owners[i]).collect();
            students.dedup();
            if students.len() < 2 {
                return out;
            }
            let these: Vec<PathBuf> = kept.iter().map(|&i| files[i].clone()).collect();
            let why = match self.pairs(language, &these, work) {
                Ok(pairs) => {
                    out.pairs = pairs
                        .into_iter()
                        .map(|p| RawPair {
                            left: kept[p.left],
                            right: kept[p.right],
                            ..p
                        })
                        .collect();
                    return out;
                }
                Err(why) => why,
            };
            let found = match self.culprits(language, &these, work) {
                Ok(found) if !found.is_empty() => found,
                Ok(_) => {
                    out.failed = Some(format!("Dolos failed on the files together: {why}"));
                    return out;
                }
                Err(failed) => {
                    out.failed = Some(failed);
                    return out;
                }
            };
            if found.len() == these.len() || out.left_out.len() + found.len() > MAX_LEFT_OUT {
                out.failed = Some(format!(
                    "Dolos failed on {} of the {} files alone, which is Dolos's fault, not theirs: {}",
                    found.len(),
                    these.len(),
                    found[0].1
                ));
                return out;
            }
            for (k, why) in found {
                out.left_out.push((kept[k], why));
            }
            out.left_out.sort();
            kept.retain(|i| out.left_out.iter().all(|(j, _)| j != i));
        }
    }

    /// The files of `files` Dolos cannot read alone, with why (indices into `files`). A file is only
    /// ever left out for what Dolos does with it on its own: one it died on among others is read again
    /// alone, and when it passes then, the failure is the files' together (`Err`).
    ///
    /// # Errors
    /// Dolos fails before reading any file, or on a file only among others.
    fn culprits(
        &self,
        language: &str,
        files: &[PathBuf],
        work: &Path,
    ) -> Result<Vec<(usize, String)>, String> {
        let mut found = Vec::new();
        let mut from = 0;
        while from < files.len() {
            let scan = self.scan(language, &files[from..], work);
            found.extend(scan.failed.iter().map(|(k, why)| (from + k, why.clone())));
            if let Some(why) = scan.died_first {
                return Err(format!("Dolos failed before reading a file: {why}"));
            }
            let Some((k, why)) = scan.died_on else {
                break;
            };
            let alone = self.scan(language, &files[from + k..=from + k], work);
            if alone.died_on.is_none() && alone.failed.is_empty() {
                return Err(format!(
                    "Dolos failed reading the files one after another, but not on `{}` alone: {why}",
                    file_name(&files[from + k])
                ));
            }
            found.push((from + k, why));
            from += k + 1;
        }
        Ok(found)
    }

    /// Every pair of `files`.
    fn pairs(
        &self,
        language: &str,
        files: &[PathBuf],
        work: &Path,
    ) -> Result<Vec<RawPair>, String> {
        let outcome = self.invoke("pairs", language, files, work)?;
        if let Some(why) = failure(&outcome, &self.limits()) {
            return Err(why);
        }
        parse(&outcome.stdout, files.len())
    }

    /// Reads `files` one by one, as far as Dolos gets.
    fn scan(&self, language: &str, files: &[PathBuf], work: &Path) -> Scan {
        let outcome = match self.invoke("tokenize", language, files, work) {
            Ok(outcome) => outcome,
            Err(why) => {
                return Scan {
                    died_first: Some(why),
                    ..Scan::default()
                }
            }
        };
        let mut scan = Scan::default();
        let mut started = None;
        for line in String::from_utf8_lossy(&outcome.stdout).lines() {
            let mut words = line.splitn(3, ' ');
            let (word, index) = (words.next(), words.next().and_then(|i| i.parse().ok()));
            match (word, index) {
                (Some("start"), Some(k)) if k < files.len() => started = Some(k),
                (Some("ok"), Some(k)) if started == Some(k) => started = None,
                (Some("fail"), Some(k)) if started == Some(k) => {
                    let why = words.next().unwrap_or("an error");
                    scan.failed
                        .push((k, format!("Dolos cannot read it: {}", one_line(why, 200))));
                    started = None;
                }
                _ => {}
            }
        }
        if let Some(why) = failure(&outcome, &self.limits()) {
            match started {
                Some(k) => scan.died_on = Some((k, format!("Dolos {why} reading it"))),
                None if scan.failed.is_empty() => scan.died_first = Some(why),
                None => {}
            }
        }
        scan
    }

    /// One run of the script, under the sandbox.
    fn invoke(
        &self,
        mode: &str,
        language: &str,
        files: &[PathBuf],
        work: &Path,
    ) -> Result<Outcome, String> {
        let script = work.join(SCRIPT_FILE);
        if !script.is_file() {
            std::fs::write(&script, SCRIPT)
                .map_err(|e| format!("cannot write `{}`: {e}", script.display()))?;
        }
        let input = serde_json::json!({
            "dolos": self.dir, "language": language, "mode": mode, "files": files,
        });
        let spec = Spec {
            program: self.node.clone().into(),
            args: vec![
                format!("--max-old-space-size={HEAP_MB}").into(),
                script.into(),
            ],
            workdir: work.to_path_buf(),
            env: crate::toolchain::Toolchain::global().env(work),
            stdin: Stdin::Bytes(input.to_string().into_bytes()),
            limits: self.limits(),
            read_only: vec![self.dir.clone()],
        };
        self.sandbox.run(&spec).map_err(|e| {
            format!(
                "cannot run Dolos under the sandbox: {}",
                crate::error::chain_line(&e)
            )
        })
    }
}

/// Why a run failed, in words (`crashed with signal 11`, `ran past its 300 s`), or `None` for a
/// clean exit.
fn failure(outcome: &Outcome, limits: &Limits) -> Option<String> {
    let said = || {
        let err = String::from_utf8_lossy(&outcome.stderr);
        // Node's `RangeError: ...` (after the source line it quotes), or V8's `FATAL ERROR: ...`.
        let named = |l: &&str| {
            let l = l.trim();
            l.contains("FATAL ERROR")
                || l.split_once(": ").is_some_and(|(name, _)| {
                    name.ends_with("Error") && name.chars().all(|c| c.is_ascii_alphanumeric())
                })
        };
        let line = err
            .lines()
            .find(named)
            .or_else(|| err.lines().rev().find(|l| !l.trim().is_empty()))
            .unwrap_or("")
            .trim()
            .to_string();
        if line.is_empty() {
            String::new()
        } else {
            format!(": {}", one_line(&line, 200))
        }
    };
    match (outcome.limit, outcome.status) {
        (Some(LimitHit::Memory), _) => Some(format!(
            "ran out of its {} MiB of memory",
            limits.memory >> 20
        )),
        (Some(LimitHit::Cpu | LimitHit::Wall | LimitHit::Idle), _) => {
            Some(format!("ran past its {} s", limits.wall.as_secs()))
        }
        (Some(LimitHit::Output | LimitHit::Stderr), _) => {
            Some("printed more than it may".to_string())
        }
        (None, Status::Exited(0)) => None,
        (None, Status::Exited(code)) => Some(format!("failed (exit status {code}){}", said())),
        (None, Status::Signaled(sig)) => Some(format!("crashed (signal {sig}){}", said())),
    }
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}
