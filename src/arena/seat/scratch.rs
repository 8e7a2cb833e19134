//! Where a submission plays from, so it sees what a `grader run` case sees: its folder's scratch copy
//! (mounted read-only), a fresh writable working folder of its own for each game, nothing else. The
//! student's own folder is only ever read, once, by [`copy_folder`].

use std::ffi::OsString;
use std::fs;
use std::io::{self, Read as _};
use std::os::unix::fs::{OpenOptionsExt as _, PermissionsExt as _};
use std::path::{Component, Path, PathBuf};
use std::time::Duration;

use crate::build::{MAX_FILE, MAX_FILES, MAX_TOTAL};

use crate::arena::game::record::{Fact, GameRecord};
use crate::arena::game::ArenaGame;
use crate::arena::seat::ReplyForm;
use crate::arena::seat::{Reply, Seat, Start};

/// Folders deeper than this are left out of a copy.
const MAX_DEPTH: usize = 32;

/// Copies the submission folder `from` into `to` (created; must not exist): regular files and folders
/// only, a link only when it points to a regular file inside `from`, capped like a build's copy
/// (prebuilt programs are kept: a bare folder's `player` may be one). Everything in the copy is made
/// readable by all, so the sandbox's unprivileged user can run it; nothing in `from` is changed.
/// Returns what was left out (paths relative to `from`) and why.
///
/// # Errors
/// The folder cannot be read, or the copy cannot be written (the grader's side).
pub fn copy_folder(from: &Path, to: &Path) -> io::Result<Vec<(PathBuf, &'static str)>> {
    let root = from.canonicalize()?;
    fs::create_dir(to)?;
    open_up(to)?;
    let (mut files, mut bytes) = (0usize, 0u64);
    let mut skipped = Vec::new();
    // An explicit stack, not recursion: a hostile folder may be deep.
    let mut stack: Vec<(PathBuf, PathBuf, usize)> = vec![(root.clone(), to.to_path_buf(), 0)];
    while let Some((src_dir, dst_dir, depth)) = stack.pop() {
        let mut entries: Vec<fs::DirEntry> = fs::read_dir(&src_dir)?.collect::<Result<_, _>>()?;
        // Sorted, so the caps cut the same files on every run.
        entries.sort_by_key(fs::DirEntry::file_name);
        for entry in entries {
            let src = entry.path();
            let rel = src.strip_prefix(&root).unwrap_or(&src).to_path_buf();
            let dst = dst_dir.join(entry.file_name());
            let kind = fs::symlink_metadata(&src)?.file_type();
            if kind.is_dir() {
                if depth == 0 && entry.file_name() == ".git" {
                    continue;
                }
                if depth >= MAX_DEPTH {
                    skipped.push((rel, "nested too deep"));
                    continue;
                }
                fs::create_dir(&dst)?;
                open_up(&dst)?;
                stack.push((src, dst, depth + 1));
                continue;
            }
            let real = if kind.is_symlink() {
                match src.canonicalize() {
                    Ok(real) if real.starts_with(&root) => real,
                    _ => {
                        skipped.push((rel, "a link out of the folder, or a broken one"));
                        continue;
                    }
                }
            } else if kind.is_file() {
                src
            } else {
                skipped.push((rel, "not a regular file"));
                continue;
            };
            let Some(mut input) = open_regular(&real)? else {
                skipped.push((rel, "not a regular file"));
                continue;
            };
            let meta = input.metadata()?;
            if meta.len() > MAX_FILE || bytes + meta.len() > MAX_TOTAL || files >= MAX_FILES {
                skipped.push((rel, "over the copy's size or file caps"));
                continue;
            }
            let mut output = fs::File::create(&dst)?;
            io::copy(&mut (&mut input).take(MAX_FILE), &mut output)?;
            fs::set_permissions(
                &dst,
                fs::Permissions::from_mode(readable(meta.permissions().mode())),
            )?;
            files += 1;
            bytes += meta.len();
        }
    }
    Ok(skipped)
}

/// `path` opened without blocking (a FIFO swapped in after the check) and only if it is a regular file.
fn open_regular(path: &Path) -> io::Result<Option<fs::File>> {
    let file = match fs::File::options()
        .read(true)
        .custom_flags(libc::O_NONBLOCK | libc::O_NOFOLLOW)
        .open(path)
    {
        Ok(f) => f,
        Err(e) if e.raw_os_error() == Some(libc::ELOOP) => return Ok(None),
        Err(e) => return Err(e),
    };
    Ok(file.metadata()?.is_file().then_some(file))
}

/// Readable by all, runnable by all when runnable at all, writable by no one but its owner (the grader).
fn readable(mode: u32) -> u32 {
    let run = if mode & 0o111 == 0 { 0 } else { 0o111 };
    (mode | 0o444 | run) & 0o755
}

fn open_up(dir: &Path) -> io::Result<()> {
    fs::set_permissions(dir, fs::Permissions::from_mode(0o755))
}

/// The argv of a bare folder's player run from its copy `dir` in another working folder, as a suite
/// recipe's `{dir}` would write it: `./player` becomes absolute, and so do the words that name the
/// program to an interpreter, up to the first that names a file of the copy (`python3 -u player.py`,
/// `java -cp . Player`). The words after that are the program's own arguments (`visited.txt`, written in
/// the working folder) and are kept, as is anything naming nothing in the copy.
#[must_use]
pub fn anchor(dir: &Path, command: &[String]) -> (OsString, Vec<OsString>) {
    let inside = |word: &str| -> Option<PathBuf> {
        if word == "." || word == "./" {
            return Some(dir.to_path_buf());
        }
        let rel = Path::new(word.strip_prefix("./").unwrap_or(word));
        let plain = !word.is_empty()
            && !word.starts_with('-')
            && rel.components().all(|c| matches!(c, Component::Normal(_)));
        let path = dir.join(rel);
        (plain && fs::symlink_metadata(&path).is_ok()).then_some(path)
    };
    let program = match command.first() {
        Some(p) if p.starts_with("./") => dir.join(&p[2..]).into_os_string(),
        Some(p) => p.into(),
        None => "player".into(),
    };
    // A program named by path is the program: every argument is its own.
    let mut script = command.first().is_some_and(|p| p.contains('/'));
    let mut args = Vec::new();
    for word in command.iter().skip(1) {
        match inside(word).filter(|_| !script) {
            Some(path) => {
                script = path.is_file();
                args.push(path.into_os_string());
            }
            None => args.push(word.into()),
        }
    }
    (program, args)
}

/// A fresh working folder for one player in one game, removed with the seat by the one removal for
/// run-made trees (no recursion, no link followed: a 30,000-deep chain the player made goes too), and
/// swept by the next grader if this one dies.
///
/// # Errors
/// The temporary folder cannot be made (the machine's side).
pub fn work_dir() -> io::Result<crate::sandbox::scratch::Scratch> {
    crate::sandbox::scratch::Scratch::for_one_run()
}

/// A program's seat and the working folder it plays in: the folder outlives the process (the seat is
/// dropped first, which stops it) and is removed after.
pub struct InWork<G: ArenaGame> {
    pub seat: Box<dyn Seat<G>>,
    pub work: crate::sandbox::scratch::Scratch,
}

impl<G: ArenaGame> Seat<G> for InWork<G> {
    fn start(&mut self, start: &Start) -> Result<(), Reply> {
        self.seat.start(start)
    }

    fn request(&mut self, state: &G, last: Option<&str>, deadline: Option<Duration>) -> Reply {
        self.seat.request(state, last, deadline)
    }

    fn clocked(&self) -> bool {
        self.seat.clocked()
    }

    fn finish(&mut self, summary: &str, unseen: Option<&str>) -> Option<String> {
        self.seat.finish(summary, unseen)
    }

    fn stderr_tail(&mut self) -> Option<String> {
        self.seat.stderr_tail()
    }

    fn reply_form(&self, form: ReplyForm) -> ReplyForm {
        self.seat.reply_form(form)
    }

    fn unclocked(&mut self) -> Duration {
        self.seat.unclocked()
    }

    fn move_cpu(&mut self) -> Option<Duration> {
        self.seat.move_cpu()
    }

    fn facts(&mut self, record: &GameRecord) -> Vec<Fact> {
        self.seat.facts(record)
    }

    fn usage(&self) -> Option<crate::sandbox::Usage> {
        self.seat.usage()
    }

    fn took(&self) -> Option<reference::Player> {
        self.seat.took()
    }

    fn retyped(&mut self) -> Option<String> {
        self.seat.retyped()
    }

    fn transcript(&mut self) -> Option<String> {
        self.seat.transcript()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_copy_keeps_programs_and_leaves_links_out_and_the_original_alone() {
        let dir = tempfile::tempdir().unwrap();
        let from = dir.path().join("student");
        fs::create_dir_all(from.join("lib")).unwrap();
        fs::write(from.join("player"), b"\x7fELF....").unwrap();
        fs::set_permissions(from.join("player"), fs::Permissions::from_mode(0o700)).unwrap();
        fs::write(from.join("lib/a.py"), b"x = 1\n").unwrap();
        fs::write(dir.path().join("secret"), b"golden").unwrap();
        std::os::unix::fs::symlink(dir.path().join("secret"), from.join("leak")).unwrap();
        std::os::unix::fs::symlink(from.join("lib/a.py"), from.join("b.py")).unwrap();
        let to = dir.path().join("copy");
        let skipped = copy_folder(&from, &to).unwrap();
        assert_eq!(skipped.len(), 1, "{skipped:?}");
        assert_eq!(skipped[0].0, Path::new("leak"));
        assert_eq!(fs::read(to.join("player")).unwrap(), b"\x7fELF....");
        let mode = fs::metadata(to.join("player"))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o755);
        assert_eq!(fs::read(to.join("b.py")).unwrap(), b"x = 1\n");
        assert!(!to.join("leak").exists());
        assert!(!fs::symlink_metadata(to.join("b.py")).unwrap().is_symlink());
        let original = fs::metadata(from.join("player"))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(original & 0o777, 0o700);
    }

    #[test]
    fn relative_words_naming_the_copy_become_absolute() {
        let dir = tempfile::tempdir().unwrap();
        fs::write(dir.path().join("player.py"), b"").unwrap();
        let words = |c: &[&str]| c.iter().map(ToString::to_string).collect::<Vec<_>>();
        fs::write(dir.path().join("visited.txt"), b"").unwrap();
        let (program, args) = anchor(
            dir.path(),
            &words(&["python3", "-u", "../x", "player.py", "visited.txt"]),
        );
        assert_eq!(program, OsString::from("python3"));
        assert_eq!(
            args,
            vec![
                OsString::from("-u"),
                OsString::from("../x"),
                dir.path().join("player.py").into_os_string(),
                // The program's own argument: a file it writes in its working folder.
                OsString::from("visited.txt"),
            ]
        );
        let (_, args) = anchor(dir.path(), &words(&["java", "-cp", ".", "Player"]));
        assert_eq!(args[1], dir.path().as_os_str());
        let (program, args) = anchor(dir.path(), &words(&["./player", "visited.txt"]));
        assert_eq!(program, dir.path().join("player").into_os_string());
        assert_eq!(args, vec![OsString::from("visited.txt")]);
    }
}
