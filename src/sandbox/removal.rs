//! Taking apart what a run left, off the thread that grades: a game's working folder, a run's room.
//!
//! Why: on a file system mounted with `discard` and no journal (the machines this is measured on), the
//! `rmdir` that frees a folder's block waits for the disk to discard it, about a millisecond, every
//! run. On the grading thread that millisecond is a core left idle between two runs; here it overlaps
//! the next run. What is queued is only ever removed (by [`remove_tree`], which follows no link), and
//! a full queue, or a thread that cannot be started, removes on the caller's thread as before.
//!
//! [`wait_removed`] waits for what is queued: a scratch folder waits before it takes itself apart (so
//! two removals never race over one tree), and the command line waits before the process ends (so a
//! finished command leaves nothing behind; a killed one leaves what the next grader sweeps).

use std::collections::VecDeque;
use std::path::PathBuf;
use std::sync::{Condvar, Mutex, MutexGuard};

use super::tree::remove_tree;

/// Trees queued at most; one more is removed on the caller's thread (what runs leave then goes no
/// faster than it is removed).
const MOST_QUEUED: usize = 64;

struct Pending {
    /// Each tree, and whether a failure to remove it is worth a warning.
    trees: VecDeque<(PathBuf, bool)>,
    /// Trees being removed now (taken off the queue, not yet gone).
    removing: usize,
    /// The removing thread runs (or could not be started: `Some(false)`).
    started: Option<bool>,
}

static PENDING: Mutex<Pending> = Mutex::new(Pending {
    trees: VecDeque::new(),
    removing: 0,
    started: None,
});
static CHANGED: Condvar = Condvar::new();

fn lock() -> MutexGuard<'static, Pending> {
    PENDING.lock().unwrap_or_else(|e| e.into_inner())
}

/// Removes `tree` (whose processes are all dead) on the removing thread, or here when the queue is
/// full. `warn`: say so on stderr should it not go (a tree another removal will take is not worth it).
pub fn remove_later(tree: PathBuf, warn: bool) {
    let mut pending = lock();
    let started = *pending.started.get_or_insert_with(start);
    if !started || pending.trees.len() >= MOST_QUEUED {
        drop(pending);
        remove_now(&tree, warn);
        return;
    }
    pending.trees.push_back((tree, warn));
    CHANGED.notify_all();
}

/// Waits until every tree queued so far is removed.
pub fn wait_removed() {
    let mut pending = lock();
    while !pending.trees.is_empty() || pending.removing > 0 {
        pending = CHANGED.wait(pending).unwrap_or_else(|e| e.into_inner());
    }
}

fn start() -> bool {
    std::thread::Builder::new()
        .name("grader-remover".into())
        .spawn(remove_queued)
        .is_ok()
}

fn remove_queued() {
    loop {
        let (tree, warn) = {
            let mut pending = lock();
            loop {
                if let Some(next) = pending.trees.pop_front() {
                    pending.removing += 1;
                    break next;
                }
                pending = CHANGED.wait(pending).unwrap_or_else(|e| e.into_inner());
            }
        };
        remove_now(&tree, warn);
        lock().removing -= 1;
        CHANGED.notify_all();
    }
}

fn remove_now(tree: &std::path::Path, warn: bool) {
    if let Err(e) = remove_tree(tree) {
        if warn {
            eprintln!("warning: {e}");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Queued trees are gone once [`wait_removed`] returns, links in them removed, not followed; more
    /// than the queue holds are removed too (the rest on the caller's thread).
    #[test]
    fn queued_trees_are_gone_when_the_wait_returns_and_their_links_are_not_followed() {
        let outside = tempfile::tempdir().unwrap();
        std::fs::write(outside.path().join("keep"), b"kept").unwrap();
        let root = tempfile::tempdir().unwrap();
        let trees: Vec<PathBuf> = (0..MOST_QUEUED * 2)
            .map(|i| {
                let tree = root.path().join(format!("t{i}"));
                std::fs::create_dir_all(tree.join("a/b")).unwrap();
                std::fs::write(tree.join("a/b/f"), b"x").unwrap();
                std::os::unix::fs::symlink(outside.path(), tree.join("link")).unwrap();
                tree
            })
            .collect();
        for tree in &trees {
            remove_later(tree.clone(), true);
        }
        wait_removed();
        for tree in &trees {
            assert!(!tree.exists(), "{} is still there", tree.display());
        }
        assert_eq!(std::fs::read(outside.path().join("keep")).unwrap(), b"kept");
        assert!(lock().trees.is_empty());
    }
}
