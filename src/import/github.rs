//! GitHub Classroom: a folder of the assignment's repositories, `<assignment>-<login>` (a group
//! assignment's `<assignment>-<team>`), as `gh classroom clone student-repos` leaves them in
//! `<assignment>-submissions/` (and the Classroom Assistant in its download folder). Each repository's
//! working tree is the submission (`.git` left out). Its time is the grades CSV's
//! `submission_timestamp` when given (`gh classroom assignment-grades`, `--times`), else its last
//! commit's committer time, read by `git` with the repository's hooks, pager and signature checks off.
//! A committer time is what the student's machine said: the grades CSV is the one to trust.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

use super::archive;
use super::{Found, Options};
use crate::course::roster::Identity;

/// The grades CSV's rows by repository name: time, login, roster identifier, group.
type Rows = BTreeMap<
    String,
    (
        Option<String>,
        Option<String>,
        Option<String>,
        Option<String>,
    ),
>;

fn grades_csv(path: &Path) -> anyhow::Result<Rows> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| anyhow::anyhow!("cannot read `{}`: {e}", path.display()))?;
    let mut reader = csv::ReaderBuilder::new()
        .flexible(true)
        .from_reader(text.as_bytes());
    let header = reader.headers()?.clone();
    let col = |name: &str| header.iter().position(|h| h.trim() == name);
    let Some(repo) = col("student_repository_name") else {
        anyhow::bail!(
            "`{}` is not GitHub Classroom's grades CSV (no `student_repository_name` column)",
            path.display()
        );
    };
    let mut rows = Rows::new();
    for record in reader.records() {
        let record = record?;
        let cell = |c: Option<usize>| {
            c.and_then(|c| record.get(c))
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(str::to_string)
        };
        rows.insert(
            record.get(repo).unwrap_or_default().to_string(),
            (
                cell(col("submission_timestamp")),
                cell(col("github_username")),
                cell(col("roster_identifier")),
                cell(col("group_name")),
            ),
        );
    }
    Ok(rows)
}

/// The last commit's committer time of the repository in `dir`, by `git` run safely, or why not.
fn commit_time(dir: &Path) -> Result<jiff::Timestamp, String> {
    let git = dir.join(".git");
    if !std::fs::symlink_metadata(&git).is_ok_and(|m| m.is_dir()) {
        return Err("no `.git` folder".into());
    }
    let mut child = std::process::Command::new("git")
        .arg("--no-pager")
        .args([
            "-c",
            "core.hooksPath=/dev/null",
            "-c",
            "core.fsmonitor=false",
            "-c",
            "log.showSignature=false",
        ])
        .arg(format!("--git-dir={}", git.display()))
        .args(["log", "-1", "--format=%ct", "HEAD"])
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_TERMINAL_PROMPT", "0")
        .env("GIT_OPTIONAL_LOCKS", "0")
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .map_err(|e| format!("cannot run git ({e})"))?;
    // A repository is a student's: git gets ten seconds.
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    loop {
        match child.try_wait() {
            Ok(Some(_)) => break,
            Ok(None) if std::time::Instant::now() < deadline => {
                std::thread::sleep(Duration::from_millis(20))
            }
            _ => {
                let _ = child.kill();
                let _ = child.wait();
                return Err("git took too long".into());
            }
        }
    }
    let mut out = String::new();
    if let Some(mut s) = child.stdout.take() {
        let _ = std::io::Read::read_to_string(&mut std::io::Read::take(&mut s, 64), &mut out);
    }
    let secs: i64 = out
        .trim()
        .parse()
        .map_err(|_| "git gave no commit time".to_string())?;
    jiff::Timestamp::from_second(secs).map_err(|e| e.to_string())
}

/// The part of every name before its login: the longest common prefix ending in `-`.
fn common_prefix(names: &[String]) -> String {
    let Some(first) = names.first() else {
        return String::new();
    };
    let mut len = first.len();
    for n in &names[1..] {
        len = len.min(
            first
                .bytes()
                .zip(n.bytes())
                .take_while(|(a, b)| a == b)
                .count(),
        );
    }
    first[..len]
        .rfind('-')
        .map_or(String::new(), |i| first[..=i].to_string())
}

/// Every repository in `dir`.
///
/// # Errors
/// `dir` is not a folder, or the grades CSV cannot be read.
pub fn read(dir: &Path, options: &Options<'_>) -> anyhow::Result<(Vec<Found>, Vec<String>)> {
    let rows = options
        .times
        .map(grades_csv)
        .transpose()?
        .unwrap_or_default();
    let mut repos: Vec<String> = std::fs::read_dir(dir)
        .map_err(|e| {
            anyhow::anyhow!(
                "cannot read `{}` (GitHub Classroom's download is a folder of repositories): {e}",
                dir.display()
            )
        })?
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
        .filter_map(|e| e.file_name().to_str().map(str::to_string))
        .filter(|n| !n.starts_with('.'))
        .collect();
    repos.sort();
    let prefix = if repos.len() > 1 {
        common_prefix(&repos)
    } else {
        String::new()
    };
    let mut notes = Vec::new();
    let mut found = Vec::new();
    for repo in repos {
        let d = archive::read(&dir.join(&repo))?;
        notes.extend(d.notes.into_iter().map(|n| format!("`{repo}`: {n}")));
        let files: Vec<(PathBuf, Vec<u8>)> = d
            .entries
            .into_iter()
            .filter(|e| !e.path.starts_with(".git") && !e.path.starts_with(".github"))
            .map(|e| (e.path, e.bytes))
            .collect();
        let login = repo.strip_prefix(&prefix).unwrap_or(&repo).to_string();
        let row = rows.get(&repo);
        let submitted = match row.and_then(|r| r.0.as_deref()) {
            Some(t) => crate::course::time::parse_lms(t, &options.timezone)
                .map_err(|why| notes.push(format!("`{repo}`: {why}")))
                .ok(),
            None => commit_time(&dir.join(&repo))
                .map_err(|why| notes.push(format!("`{repo}`: no time ({why})")))
                .ok(),
        };
        let member = Identity {
            login: row
                .and_then(|r| r.1.clone())
                .or_else(|| Some(login.clone())),
            id: row.and_then(|r| r.2.clone()),
            ..Identity::default()
        };
        found.push(Found {
            label: row.and_then(|r| r.3.clone()).unwrap_or(login),
            members: vec![member],
            submitted,
            files,
            ..Found::default()
        });
    }
    Ok((found, notes))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn logins_are_what_follows_the_assignments_prefix() {
        let names = |v: &[&str]| v.iter().map(ToString::to_string).collect::<Vec<_>>();
        assert_eq!(
            common_prefix(&names(&["a1-tictactoe-ann", "a1-tictactoe-bob"])),
            "a1-tictactoe-"
        );
        assert_eq!(common_prefix(&names(&["a1-ann", "a1-annie"])), "a1-");
        assert_eq!(common_prefix(&names(&["x"])), "");
    }
}
