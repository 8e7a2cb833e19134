//! The names a run case's files get on the command line: chosen per case and student so a submission
//! cannot predict them (`visited-3f09c2ab.txt`), the same for the same suite seed, case and student on
//! every run, whatever `--jobs` or the order students are graded in.
//!
//! A file is renamed only when the case's arguments give its path (`{work}/visited.txt` or
//! `visited.txt`): then the program learns the name from its command line, which is all a handout that
//! passes a path promises. A file the arguments do not name is one the handout fixes, and keeps its name,
//! as do all files of a suite with `file-names = "as-written"`. Feedback and results always speak of a
//! file by the suite's (the handout's) name.

use reference::rng::Rng;

use crate::suite::{FileNames, Run, Suite};

/// Which run of a case the names are for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Purpose {
    /// The graded run (and a second run for time, which uses the same names).
    Graded,
    /// The integrity re-run: another name, of another shape, in another folder (`integrity.rs`).
    Integrity,
}

/// The folder one run works in (under the case's scratch) and the names its files are given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Names {
    /// The run's working folder, a child of the case's scratch folder.
    pub work: String,
    /// (the suite's name, the name on this run's command line), for each renamed file.
    pub files: Vec<(String, String)>,
}

impl Names {
    /// Every name as the suite writes it, in the folder `work` (reference runs, `grader calibrate`).
    #[must_use]
    pub fn as_written() -> Names {
        Names {
            work: "work".to_string(),
            files: Vec::new(),
        }
    }

    /// The names for one run of `run` (case `case` of group `group`) for `student`.
    #[must_use]
    pub fn for_run(
        suite: &Suite,
        group: &str,
        case: &str,
        student: &str,
        run: &Run,
        purpose: Purpose,
    ) -> Names {
        let mut rng = rng(suite.seed, group, case, student, purpose);
        let mut hex = || format!("{:08x}", rng.next_u64() & 0xffff_ffff);
        let work = match purpose {
            Purpose::Graded => "work".to_string(),
            Purpose::Integrity => format!("w-{}", hex()),
        };
        if suite.file_names == FileNames::AsWritten {
            return Names {
                work,
                files: Vec::new(),
            };
        }
        let files = run
            .files
            .iter()
            .filter(|(name, _)| on_command_line(&run.args, name))
            .map(|(name, _)| {
                let (stem, ext) = match name.rfind('.') {
                    Some(dot) if dot > 0 => (&name[..dot], &name[dot..]),
                    _ => (name.as_str(), ""),
                };
                let actual = match purpose {
                    Purpose::Graded => format!("{stem}-{}{ext}", hex()),
                    Purpose::Integrity => format!("{}-{stem}{ext}", hex()),
                };
                (name.clone(), actual)
            })
            .collect();
        Names { work, files }
    }

    /// The name the run's command line gives the suite's file `name`.
    #[must_use]
    pub fn actual<'a>(&'a self, name: &'a str) -> &'a str {
        self.files
            .iter()
            .find(|(n, _)| n == name)
            .map_or(name, |(_, a)| a.as_str())
    }

    /// Whether the suite's file `name` has another name on this run's command line.
    #[must_use]
    pub fn renamed(&self, name: &str) -> bool {
        self.actual(name) != name
    }

    /// The case's arguments for this run: each renamed file's argument given its new name, then
    /// `{work}` → `work` (the run's folder, as a path).
    #[must_use]
    pub fn args(&self, args: &[String], work: &str) -> Vec<String> {
        let renamed = args.iter().map(|a| {
            for (name, actual) in &self.files {
                if a == name {
                    return actual.clone();
                }
                if a.strip_prefix("{work}/") == Some(name.as_str()) {
                    return format!("{{work}}/{actual}");
                }
            }
            a.clone()
        });
        let renamed: Vec<String> = renamed.collect();
        concrete_args(&renamed, work)
    }
}

/// Whether the arguments give the path of file `name`: an argument that is `{work}/NAME` or `NAME`.
fn on_command_line(args: &[String], name: &str) -> bool {
    args.iter()
        .any(|a| a == name || a.strip_prefix("{work}/") == Some(name))
}

/// One generator per (suite seed, case, student, purpose): FNV-1a of the case and the student (stable
/// across Rust versions, unlike `DefaultHasher`), mixed into the seed, forked by purpose.
fn rng(seed: u64, group: &str, case: &str, student: &str, purpose: Purpose) -> Rng {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let key = group.bytes().chain([0]).chain(case.bytes()).chain([0]);
    for b in key.chain(student.bytes()) {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    let stream = match purpose {
        Purpose::Graded => 1,
        Purpose::Integrity => 2,
    };
    Rng::new(seed ^ h).fork(stream)
}

/// The arguments a case's program and its reference receive: `{work}` → the run's folder.
pub fn concrete_args(args: &[String], work: &str) -> Vec<String> {
    args.iter().map(|a| a.replace("{work}", work)).collect()
}

/// The most of one file, and of a whole folder, that [`content_key`] reads.
const KEY_FILE_CAP: u64 = 16 << 20;
const KEY_TOTAL_CAP: u64 = 64 << 20;

/// A student key from what a submission folder holds (`submission-<16 hex>`), for a platform that
/// names every submission's folder alike (Gradescope's `/autograder/submission`): with the folder's
/// name as the key, every hand-in would get the same file names, and one printed by a public case
/// would serve every later hand-in. FNV-1a over each regular file's path and first 16 MiB (64 MiB in
/// all), in path order, read as any file a student made is: no link followed, never blocking.
#[must_use]
pub fn content_key(dir: &std::path::Path) -> String {
    let mut files = Vec::new();
    let mut stack = vec![std::path::PathBuf::new()];
    while let Some(rel) = stack.pop() {
        let Ok(listing) = std::fs::read_dir(dir.join(&rel)) else {
            continue;
        };
        for entry in listing.flatten() {
            let path = rel.join(entry.file_name());
            match std::fs::symlink_metadata(dir.join(&path)) {
                Ok(m) if m.is_dir() => stack.push(path),
                Ok(m) if m.is_file() => files.push(path),
                _ => {}
            }
        }
    }
    files.sort();
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut fnv = |bytes: &[u8]| {
        for &b in bytes {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    };
    let mut budget = KEY_TOTAL_CAP;
    for rel in files {
        fnv(rel.as_os_str().as_encoded_bytes());
        fnv(&[0]);
        if let Ok(read) = crate::untrusted::read_output(dir, &rel, KEY_FILE_CAP.min(budget)) {
            budget -= read.bytes.len() as u64;
            fnv(&read.bytes);
        }
        fnv(&[0]);
    }
    format!("submission-{h:016x}")
}

pub use crate::suite::REFERENCE_WORK;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_stable_and_differ_by_student_case_and_purpose() {
        let a = rng(7, "plain", "handout", "alice", Purpose::Graded).next_u64();
        assert_eq!(
            a,
            rng(7, "plain", "handout", "alice", Purpose::Graded).next_u64()
        );
        for other in [
            rng(8, "plain", "handout", "alice", Purpose::Graded),
            rng(7, "plain", "handout", "bob", Purpose::Graded),
            rng(7, "plain", "blank", "alice", Purpose::Graded),
            rng(7, "plainh", "andout", "alice", Purpose::Graded),
            rng(7, "plain", "handout", "alice", Purpose::Integrity),
        ] {
            assert_ne!(a, other.clone().next_u64());
        }
    }

    #[test]
    fn a_content_key_follows_the_files_and_never_a_link() {
        let a = tempfile::tempdir().unwrap();
        let b = tempfile::tempdir().unwrap();
        for dir in [a.path(), b.path()] {
            std::fs::create_dir_all(dir.join("src")).unwrap();
            std::fs::write(dir.join("tictactoe.py"), "print('x')\n").unwrap();
            std::fs::write(dir.join("src/util.py"), "pass\n").unwrap();
        }
        let key = content_key(a.path());
        assert!(key.starts_with("submission-") && key.len() == 27, "{key}");
        assert_eq!(key, content_key(b.path()));
        // A link is not followed: what it points at does not count.
        std::os::unix::fs::symlink("/etc/passwd", b.path().join("passwd")).unwrap();
        assert_eq!(key, content_key(b.path()));
        // One byte, or one name, changes the key.
        std::fs::write(b.path().join("src/util.py"), "pass \n").unwrap();
        assert_ne!(key, content_key(b.path()));
        std::fs::write(b.path().join("src/util.py"), "pass\n").unwrap();
        std::fs::rename(b.path().join("src/util.py"), b.path().join("src/utils.py")).unwrap();
        assert_ne!(key, content_key(b.path()));
    }

    #[test]
    fn only_the_arguments_naming_a_file_change() {
        let names = Names {
            work: "work".into(),
            files: vec![("visited.txt".into(), "visited-0a1b2c3d.txt".into())],
        };
        let args: Vec<String> = ["oxxxo-ox-", "{work}/visited.txt", "visited.txt", "prune"]
            .map(String::from)
            .to_vec();
        assert_eq!(
            names.args(&args, "/s/case-0/work"),
            [
                "oxxxo-ox-",
                "/s/case-0/work/visited-0a1b2c3d.txt",
                "visited-0a1b2c3d.txt",
                "prune"
            ]
        );
        assert_eq!(names.actual("visited.txt"), "visited-0a1b2c3d.txt");
        assert_eq!(names.actual("other.txt"), "other.txt");
        assert!(on_command_line(&args, "visited.txt"));
        assert!(!on_command_line(&args, "other.txt"));
    }
}
