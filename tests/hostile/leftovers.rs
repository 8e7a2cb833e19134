//! What a program leaves behind or peeks at around its run: a chain of folders past PATH_MAX, a million
//! tiny files, folders it locked, and the grader's own command line behind `/proc/1`.

use std::ffi::OsString;

use grader::sandbox::scratch::{remove_tree, Bounds, Scratch};
use std::time::Duration;

use grader::sandbox::{Limits, Status, Stdin, Tier};

use super::{args, c, run, run_in, sandboxes, Ground};

/// Making tens of thousands of folders or files takes seconds of system time on a loaded machine: the
/// verdicts under test are not time limits.
fn slow_limits() -> Limits {
    Limits {
        cpu: Duration::from_secs(20),
        wall: Duration::from_secs(60),
        ..super::limits()
    }
}

#[test]
fn a_chain_thirty_thousand_deep_is_removed_and_the_next_run_goes_on() {
    for sb in sandboxes() {
        let r = run(&*sb, &c("deep"), &[], Stdin::Null, slow_limits());
        assert_eq!(
            r.outcome.status,
            Status::Exited(0),
            "{}: {:?}",
            r.tier,
            r.outcome
        );
        assert_eq!(r.stdout(), "made 30000\n", "{}", r.tier);
        r.assert_contained();
        remove_tree(&r.work()).unwrap_or_else(|e| panic!("{}: {e}", r.tier));
        assert!(!r.work().exists(), "{}", r.tier);
        let next = run(
            &*sb,
            &c("deep"),
            &args(&[&"3"]),
            Stdin::Null,
            super::limits(),
        );
        assert_eq!(next.stdout(), "made 3\n", "{}", next.tier);
    }
}

/// A build runs its commands one after another in one folder: a chain left by the first must not
/// stop the sandbox from starting the next.
#[test]
fn a_chain_left_in_the_working_directory_does_not_stop_the_next_run_there() {
    for sb in sandboxes() {
        let r = run(&*sb, &c("deep"), &[], Stdin::Null, slow_limits());
        assert_eq!(r.stdout(), "made 30000\n", "{}: {:?}", r.tier, r.outcome);
        let ground = Ground { root: r.root };
        let again = run_in(
            ground,
            &*sb,
            &c("deep"),
            &args(&[&"2"]),
            Stdin::Null,
            slow_limits(),
        );
        // The first chain's top `d` is there: the second run's mkdir fails, and says so.
        assert_eq!(
            again.outcome.status,
            Status::Exited(1),
            "{}: {:?}",
            again.tier,
            again.outcome
        );
        remove_tree(&again.work()).unwrap_or_else(|e| panic!("{}: {e}", again.tier));
    }
}

#[test]
fn a_million_tiny_files_stop_at_the_inode_cap_under_full_and_are_removed_under_basic() {
    for sb in sandboxes() {
        // As `grader run` does: under `full` the submission's scratch is a tmpfs with an inode cap.
        let scratch = Scratch::new().unwrap();
        let bounds = Bounds {
            bytes: 16 << 20,
            inodes: 4096,
        };
        let sub = scratch
            .sub("s0", (sb.tier() == Tier::Full).then_some(bounds))
            .unwrap();
        let ground = Ground::new_in(&sub);
        let r = run_in(
            ground,
            &*sb,
            &c("tinyfiles"),
            &[],
            Stdin::Null,
            super::limits(),
        );
        let stderr = String::from_utf8_lossy(&r.outcome.stderr).into_owned();
        match r.tier {
            Tier::Full => {
                assert_eq!(r.outcome.status, Status::Exited(1), "{stderr}");
                assert!(stderr.contains("No space left on device"), "{stderr}");
            }
            // Nothing caps the files under basic: the million (or a limit) ends the run.
            _ => assert!(
                r.outcome.status == Status::Exited(0) || r.outcome.limit.is_some(),
                "{:?}",
                r.outcome
            ),
        }
        r.assert_contained();
        let root = r.root.path().to_path_buf();
        scratch.release(&sub).unwrap();
        assert!(!root.exists(), "{}", r.tier);
        // The ground's own removal finds nothing left.
        drop(r);
    }
}

#[test]
fn folders_the_program_locked_are_removed() {
    for sb in sandboxes() {
        let r = run(&*sb, &c("locked"), &[], Stdin::Null, super::limits());
        assert_eq!(r.stdout(), "locked\n", "{}: {:?}", r.tier, r.outcome);
        r.assert_contained();
        remove_tree(&r.work()).unwrap_or_else(|e| panic!("{}: {e}", r.tier));
        assert!(!r.work().exists(), "{}", r.tier);
    }
}

#[test]
fn pid_1_shows_nothing_of_the_grader_under_full() {
    let ours: Vec<String> = std::env::args().collect();
    for sb in sandboxes() {
        if sb.tier() != Tier::Full {
            continue; // under basic, pid 1 is the machine's init, not a copy of the grader
        }
        let paths: Vec<OsString> = [
            "/proc/1/cmdline",
            "/proc/1/task/1/cmdline",
            "/proc/1/environ",
            "/proc/1/maps",
            "/proc/self/cmdline",
        ]
        .iter()
        .map(OsString::from)
        .collect();
        let r = run(&*sb, &c("cmdline"), &paths, Stdin::Null, super::limits());
        let out = r.stdout();
        assert_eq!(r.outcome.status, Status::Exited(0), "{out}");
        assert!(!out.contains(&ours[0]), "the grader's argv shows: {out}");
        assert_eq!(out.matches("hidden /proc/1/").count(), 4, "{out}");
        // Its own command line it may read.
        assert!(out.contains("read /proc/self/cmdline: "), "{out}");
        r.assert_contained();
    }
}
