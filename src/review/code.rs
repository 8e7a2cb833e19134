//! A hand-in's files as the review page shows them: read as everything a student wrote is read (no
//! link followed, regular files only, never blocking, each capped, a bounded number in all), each
//! text file syntax-highlighted, a binary or too large file named instead of shown.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use crate::report::html::esc;

/// The most files listed.
const MAX_FILES: usize = 200;
/// The most bytes of one file shown.
const FILE_CAP: u64 = 512 << 10;
/// The most bytes shown in all.
const TOTAL_CAP: u64 = 4 << 20;
/// The most folders walked.
const MAX_FOLDERS: usize = 500;
/// Folders a hand-in carries that no person reads.
const SKIPPED: [&str; 5] = [".git", "__pycache__", "node_modules", ".idea", ".vscode"];

/// One entry of a hand-in: its path inside the folder, and what the page shows of it.
pub struct File {
    pub path: String,
    pub shown: Shown,
}

/// What the page shows of a file.
pub enum Shown {
    /// The text, made safe (controls and bidirectional marks escaped) and highlighted.
    Code(String, usize),
    /// Why it is not shown (binary, too large, a link, unreadable).
    Not(String),
}

/// Every file of the hand-in folder `dir`, in path order.
#[must_use]
pub fn files(dir: &Path) -> Vec<File> {
    let mut rels: Vec<(PathBuf, Option<String>)> = Vec::new();
    let mut todo = vec![PathBuf::new()];
    let mut folders = 0;
    while let Some(folder) = todo.pop() {
        folders += 1;
        if folders > MAX_FOLDERS {
            rels.push((
                folder,
                Some(format!("not shown: past {MAX_FOLDERS} folders")),
            ));
            break;
        }
        let Ok(entries) = std::fs::read_dir(dir.join(&folder)) else {
            continue;
        };
        for entry in entries.filter_map(Result::ok) {
            let rel = folder.join(entry.file_name());
            let Ok(kind) = entry.file_type() else {
                continue;
            };
            if kind.is_dir() {
                if !SKIPPED.iter().any(|s| entry.file_name() == *s) {
                    todo.push(rel);
                }
            } else if kind.is_symlink() {
                rels.push((rel, Some("a symbolic link: not followed".into())));
            } else if kind.is_file() {
                rels.push((rel, None));
            } else {
                rels.push((rel, Some("not a regular file: not read".into())));
            }
            if rels.len() > MAX_FILES {
                break;
            }
        }
    }
    rels.sort();
    let mut total = 0u64;
    let mut out = Vec::new();
    for (k, (rel, why)) in rels.into_iter().enumerate() {
        let path = crate::untrusted::one_line(&rel.to_string_lossy(), 300);
        if k == MAX_FILES {
            out.push(File {
                path,
                shown: Shown::Not(format!("and more: past {MAX_FILES} files")),
            });
            break;
        }
        let shown = match why {
            Some(why) => Shown::Not(why),
            None if total >= TOTAL_CAP => {
                Shown::Not(format!("not shown: past {} MiB in all", TOTAL_CAP >> 20))
            }
            None => read(dir, &rel, &path, &mut total),
        };
        out.push(File { path, shown });
    }
    out
}

fn read(dir: &Path, rel: &Path, path: &str, total: &mut u64) -> Shown {
    match crate::untrusted::read_output(dir, rel, FILE_CAP) {
        Err(e) => Shown::Not(e.to_string()),
        Ok(c) if c.bytes.contains(&0) => {
            Shown::Not(format!("binary ({} bytes): not shown", c.bytes.len()))
        }
        Ok(c) => {
            *total += c.bytes.len() as u64;
            let mut text = String::from_utf8_lossy(&c.bytes).into_owned();
            if c.truncated {
                text.push_str(&format!("\n… (cut: past {} KiB)", FILE_CAP >> 10));
            }
            let safe = crate::untrusted::block(&text, usize::MAX);
            let lines = safe.lines().count().max(1);
            Shown::Code(super::highlight::highlight(path, &safe), lines)
        }
    }
}

/// The files as HTML: a heading per file, then its numbered, highlighted lines (or why not shown).
#[must_use]
pub fn html(files: &[File]) -> String {
    let mut b = String::new();
    if files.is_empty() {
        b.push_str("<p class=\"mute\">no files</p>\n");
    }
    for (k, f) in files.iter().enumerate() {
        match &f.shown {
            Shown::Code(code, lines) => {
                let numbers: String = (1..=*lines).map(|n| format!("{n}\n")).collect();
                let _ = writeln!(
                    b,
                    "<details class=\"file\" id=\"file-{k}\" open><summary><code>{}</code> <span class=\"mute\">{lines} lines</span></summary><div class=\"code\"><pre class=\"ln\" aria-hidden=\"true\">{numbers}</pre><pre class=\"src\"><code>{code}</code></pre></div></details>",
                    esc(&f.path)
                );
            }
            Shown::Not(why) => {
                let _ = writeln!(
                    b,
                    "<p class=\"file\"><code>{}</code> <span class=\"mute\">{}</span></p>",
                    esc(&f.path),
                    esc(why)
                );
            }
        }
    }
    b
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn links_binaries_and_hidden_folders_are_named_not_read() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        std::fs::create_dir_all(d.join("src")).unwrap();
        std::fs::create_dir_all(d.join(".git")).unwrap();
        std::fs::write(d.join(".git/config"), "secret").unwrap();
        std::fs::write(d.join("src/ai.py"), "x = '\u{202e}<b>'\u{2028}\n").unwrap();
        std::fs::write(d.join("blob.bin"), b"\x00\x01").unwrap();
        std::os::unix::fs::symlink("/etc/passwd", d.join("passwd")).unwrap();
        let files = files(d);
        let names: Vec<&str> = files.iter().map(|f| f.path.as_str()).collect();
        assert_eq!(names, ["blob.bin", "passwd", "src/ai.py"]);
        let page = html(&files);
        assert!(page.contains("a symbolic link: not followed"), "{page}");
        assert!(page.contains("binary (2 bytes)"), "{page}");
        assert!(!page.contains("root:"), "{page}");
        assert!(
            !page.contains('\u{202e}') && !page.contains('\u{2028}') && !page.contains("<b>"),
            "{page}"
        );
    }
}
