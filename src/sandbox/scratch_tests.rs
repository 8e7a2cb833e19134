//! Tests of tree removal, bounded scratch folders and the sweep of dead graders' scratch.

use super::*;
use std::os::unix::fs::PermissionsExt;

/// A chain `depth` folders deep under `top`, made with relative steps (its full path is far past
/// PATH_MAX), with a file at the bottom.
fn chain(top: &Path, depth: usize) {
    let start = std::env::current_dir().unwrap();
    std::env::set_current_dir(top).unwrap();
    let made = (|| -> io::Result<()> {
        // SAFETY: plain syscalls on C strings; the working directory is restored below.
        for _ in 0..depth {
            if unsafe { libc::mkdir(c"d".as_ptr(), 0o755) } != 0
                || unsafe { libc::chdir(c"d".as_ptr()) } != 0
            {
                return Err(last());
            }
        }
        std::fs::write("bottom", b"x")
    })();
    std::env::set_current_dir(start).unwrap();
    made.unwrap();
}

/// One test moves the whole process's working directory: the others must not run meanwhile.
static CWD: Mutex<()> = Mutex::new(());

#[test]
fn a_chain_thirty_thousand_deep_is_removed() {
    let _cwd = CWD.lock().unwrap_or_else(|e| e.into_inner());
    let dir = tempfile::tempdir().unwrap();
    let top = dir.path().join("tree");
    std::fs::create_dir(&top).unwrap();
    chain(&top, 30_000);
    remove_tree(&top).unwrap();
    assert!(!top.exists());
}

#[test]
fn links_are_removed_not_followed() {
    let dir = tempfile::tempdir().unwrap();
    let outside = dir.path().join("outside");
    std::fs::create_dir(&outside).unwrap();
    std::fs::write(outside.join("keep.txt"), b"keep").unwrap();
    let top = dir.path().join("tree");
    std::fs::create_dir_all(top.join("a/b")).unwrap();
    std::os::unix::fs::symlink(&outside, top.join("a/to-dir")).unwrap();
    std::os::unix::fs::symlink(outside.join("keep.txt"), top.join("a/b/to-file")).unwrap();
    std::os::unix::fs::symlink(&outside, dir.path().join("top-link")).unwrap();
    remove_tree(&top).unwrap();
    remove_tree(&dir.path().join("top-link")).unwrap();
    assert!(!top.exists());
    assert_eq!(std::fs::read(outside.join("keep.txt")).unwrap(), b"keep");
}

#[test]
fn a_missing_tree_is_already_removed() {
    let dir = tempfile::tempdir().unwrap();
    remove_tree(&dir.path().join("never-made")).unwrap();
}

/// Set in the copy of this test binary that runs as `nobody`: the folder to build and remove.
const AS_NOBODY: &str = "GRADER_TEST_REMOVE_AS_NOBODY";

/// Folders at mode 000 and 500 stop an unprivileged owner's plain recursive removal; they must not
/// stop ours. Root ignores modes, so the removal runs in a copy of this binary as `nobody`.
#[test]
fn folders_made_unreadable_and_unwritable_are_removed() {
    if let Some(top) = std::env::var_os(AS_NOBODY) {
        let top = PathBuf::from(top);
        std::fs::create_dir_all(top.join("locked/inner")).unwrap();
        std::fs::write(top.join("locked/inner/f"), b"x").unwrap();
        std::fs::create_dir_all(top.join("readonly/sub")).unwrap();
        std::fs::write(top.join("readonly/sub/g"), b"x").unwrap();
        let mode = |p: &str, m| std::fs::set_permissions(top.join(p), PermissionsExt::from_mode(m));
        mode("locked/inner", 0).unwrap();
        mode("locked", 0).unwrap();
        mode("readonly/sub", 0o500).unwrap();
        mode("readonly", 0o500).unwrap();
        remove_tree(&top).unwrap();
        assert!(!top.exists());
        return;
    }
    // SAFETY: getuid has no preconditions.
    if unsafe { libc::getuid() } != 0 {
        // Not root: this process is already unprivileged; build and remove the tree here.
        let dir = tempfile::tempdir().unwrap();
        std::env::set_var(AS_NOBODY, dir.path().join("t"));
        folders_made_unreadable_and_unwritable_are_removed();
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    std::fs::set_permissions(dir.path(), PermissionsExt::from_mode(0o777)).unwrap();
    let top = dir.path().join("t");
    let status = std::process::Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            "sandbox::scratch::tests::folders_made_unreadable_and_unwritable_are_removed",
            "--test-threads=1",
        ])
        .env(AS_NOBODY, &top)
        .uid(65534)
        .gid(65534)
        .status()
        .unwrap();
    assert!(status.success(), "the removal as `nobody` failed: {status}");
    assert!(!top.exists());
}

use std::os::unix::process::CommandExt;

#[test]
fn only_scratch_of_dead_graders_is_swept() {
    let tmp = tempfile::tempdir().unwrap();
    // A pid that just ended stands for a grader killed with SIGKILL.
    let mut child = std::process::Command::new("/bin/true").spawn().unwrap();
    let dead = child.id();
    child.wait().unwrap();
    let stale = tmp.path().join(format!("{PREFIX}{dead}-12345-abc"));
    std::fs::create_dir_all(stale.join("s0/case-0/work")).unwrap();
    std::fs::write(stale.join("s0/case-0/work/visited.txt"), b"x").unwrap();
    // Our own pid with another start time: the pid was reused, its grader is dead.
    let reused = tmp.path().join(format!(
        "{PREFIX}{}-{}-abc",
        std::process::id(),
        own_start() + 1
    ));
    std::fs::create_dir(&reused).unwrap();
    let live = tmp.path().join(format!(
        "{PREFIX}{}-{}-abc",
        std::process::id(),
        own_start()
    ));
    std::fs::create_dir(&live).unwrap();
    let other = tmp.path().join("grader-run-notes");
    std::fs::create_dir(&other).unwrap();
    assert_eq!(sweep_stale(tmp.path()), 2);
    assert!(!stale.exists() && !reused.exists());
    assert!(live.exists() && other.exists());
}

#[test]
fn a_bounded_sub_folder_stops_at_its_inode_cap_and_goes_with_its_release() {
    // SAFETY: getuid has no preconditions.
    if unsafe { libc::getuid() } != 0 {
        return; // only root mounts a tmpfs; the plain folder has no cap to test
    }
    let scratch = Scratch::new().unwrap();
    let bounds = Bounds {
        bytes: 1 << 20,
        inodes: 100,
    };
    let dir = scratch.sub("s0", Some(bounds)).unwrap();
    let made = (0..1000)
        .map(|i| std::fs::write(dir.join(format!("f{i}")), b""))
        .position(|r| r.is_err());
    let stopped = made.expect("the inode cap stopped the files");
    assert!(stopped < 100, "stopped after {stopped} files");
    let big = std::fs::write(dir.join("big"), vec![0u8; 2 << 20]);
    assert!(big.is_err(), "the byte cap stopped a 2 MiB file");
    scratch.release(&dir).unwrap();
    assert!(!dir.exists());
    assert!(mounts_under(scratch.path()).is_empty());
}

#[test]
fn a_scratch_folder_is_named_after_its_live_owner_and_removed_on_drop() {
    let scratch = Scratch::new().unwrap();
    let path = scratch.path().to_path_buf();
    let name = path.file_name().unwrap().to_str().unwrap().to_owned();
    assert!(name.starts_with(&format!("{PREFIX}{}-{}-", std::process::id(), own_start())));
    let sub = scratch.sub("s0", None).unwrap();
    std::fs::write(sub.join("f"), b"x").unwrap();
    // A live grader's folder survives a sweep.
    sweep_stale(path.parent().unwrap());
    assert!(path.exists());
    drop(scratch);
    assert!(!path.exists());
}

/// A released sub-folder is gone from its name at once (a run may be given the same name next) and
/// from the disk once the queued removals are; a scratch for one run goes off the dropping thread,
/// and its owner's wait sees it gone.
#[test]
fn a_released_name_is_free_at_once_and_one_run_scratch_goes_off_the_thread() {
    let scratch = Scratch::new().unwrap();
    let dir = scratch.sub("s0", None).unwrap();
    std::fs::create_dir(dir.join("deep")).unwrap();
    std::fs::write(dir.join("deep/f"), b"x").unwrap();
    scratch.release(&dir).unwrap();
    assert!(!dir.exists());
    let again = scratch.sub("s0", None).unwrap();
    assert!(again.is_dir() && std::fs::read_dir(&again).unwrap().next().is_none());
    super::super::removal::wait_removed();
    let left: Vec<_> = std::fs::read_dir(scratch.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(left, ["s0"], "only the folder made again is left");

    let one = Scratch::for_one_run().unwrap();
    let path = one.path().to_path_buf();
    std::fs::write(path.join("f"), b"x").unwrap();
    drop(one);
    super::super::removal::wait_removed();
    assert!(!path.exists());
}

#[test]
fn mountinfo_escapes_are_undone() {
    assert_eq!(unescape(r"/tmp/a\040b\134c"), b"/tmp/a b\\c");
    assert_eq!(unescape(r"/tmp/x\0"), b"/tmp/x\\0");
}

#[test]
fn a_tree_changes_hands_without_following_links() {
    // SAFETY: getuid has no preconditions.
    if unsafe { libc::getuid() } != 0 {
        return; // only root gives files away
    }
    use std::os::unix::fs::MetadataExt;
    let dir = tempfile::tempdir().unwrap();
    let outside = dir.path().join("outside.txt");
    std::fs::write(&outside, b"x").unwrap();
    let top = dir.path().join("work");
    std::fs::create_dir_all(top.join("a/b")).unwrap();
    std::fs::write(top.join("a/b/f"), b"x").unwrap();
    std::os::unix::fs::symlink(&outside, top.join("a/link")).unwrap();
    chown_tree(&top, 60999, 60999).unwrap();
    for p in ["", "a", "a/b", "a/b/f", "a/link"] {
        let meta = std::fs::symlink_metadata(top.join(p)).unwrap();
        assert_eq!((meta.uid(), meta.gid()), (60999, 60999), "{p}");
    }
    assert_eq!(std::fs::metadata(&outside).unwrap().uid(), 0);
}

/// A submission's tree is removed only by [`remove_tree`]: `std::fs::remove_dir_all` recurses once per
/// level, and a hand-in's 30,000-deep chain of folders overflowed a grading thread's stack with it (the
/// whole class run aborted) when its case was re-run near its CPU limit.
#[test]
fn no_code_removes_a_tree_with_the_recursive_remove_dir_all() {
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut stack = vec![src];
    let mut offenders = Vec::new();
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs")
                && !path.ends_with("scratch_tests.rs")
            {
                let text = std::fs::read_to_string(&path).unwrap();
                for (n, line) in text.lines().enumerate() {
                    if line.contains("fs::remove_dir_all(") && !line.trim_start().starts_with("//")
                    {
                        offenders.push(format!("{}:{}", path.display(), n + 1));
                    }
                }
            }
        }
    }
    assert!(
        offenders.is_empty(),
        "use remove_tree instead: {offenders:?}"
    );
}
