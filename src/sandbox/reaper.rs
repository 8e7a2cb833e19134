//! The subreaper sweep of the `basic` tier: the grader adopts every orphan of the programs it runs
//! (`PR_SET_CHILD_SUBREAPER`), and after each run kills the adopted ones that escaped their process group
//! (a daemon that called `setsid`, a background child left in a finished group), with their descendants.
//!
//! What counts as escaped, among the grader's direct children: a process in another session than the
//! grader's (only `setsid` does that), or one in a process group that is neither the grader's own, nor
//! its own leader's, nor a live run's. A freshly spawned run leads its own group in the grader's
//! session, and plain helper commands stay in the grader's group, so neither is ever swept.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Once;
use std::time::Duration;

/// Makes the grader the reaper of its descendants' orphans. Once per process; harmless to repeat.
pub fn enable() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        // Linux only; elsewhere orphans go to init and `basic` cannot sweep them.
        #[cfg(target_os = "linux")]
        // SAFETY: a plain prctl on this process.
        unsafe {
            libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
        };
    });
}

/// One process as `/proc/PID/stat` says.
#[derive(Clone, Copy, Debug)]
struct Proc {
    ppid: libc::pid_t,
    pgid: libc::pid_t,
    sid: libc::pid_t,
}

/// `me` and its descendants, read by following each thread's `children` file down from `me`: a few
/// reads after each run, where a scan of `/proc` reads every process of a busy machine. Every process
/// when the kernel has no `children` files.
fn processes(me: libc::pid_t) -> BTreeMap<libc::pid_t, Proc> {
    let mut out = BTreeMap::new();
    let mut queue = vec![me];
    while let Some(pid) = queue.pop() {
        if out.contains_key(&pid) {
            continue;
        }
        let Some(proc) = stat(pid) else { continue };
        out.insert(pid, proc);
        let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
            continue;
        };
        for task in tasks.flatten() {
            match std::fs::read_to_string(task.path().join("children")) {
                Ok(children) => queue.extend(
                    children
                        .split_whitespace()
                        .filter_map(|c| c.parse::<libc::pid_t>().ok()),
                ),
                Err(e) if pid == me && e.kind() == std::io::ErrorKind::NotFound => {
                    return every_process()
                }
                Err(_) => {}
            }
        }
    }
    out
}

fn every_process() -> BTreeMap<libc::pid_t, Proc> {
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return BTreeMap::new();
    };
    dir.flatten()
        .filter_map(|entry| entry.file_name().to_str()?.parse().ok())
        .filter_map(|pid| Some((pid, stat(pid)?)))
        .collect()
}

fn stat(pid: libc::pid_t) -> Option<Proc> {
    let stat = super::procfs::read_proc_record(format!("/proc/{pid}/stat").as_ref()).ok()?;
    // The command name may hold spaces and parentheses: fields start after the last ')'.
    let (_, rest) = stat.rsplit_once(')')?;
    let f: Vec<&str> = rest.split_whitespace().collect();
    let num = |i: usize| f.get(i).and_then(|v| v.parse().ok());
    Some(Proc {
        ppid: num(1)?,
        pgid: num(2)?,
        sid: num(3)?,
    })
}

/// The escaped children of `me` and all their descendants, deepest last.
fn escaped(
    table: &BTreeMap<libc::pid_t, Proc>,
    me: libc::pid_t,
    live: &BTreeSet<libc::pid_t>,
) -> Vec<libc::pid_t> {
    let Some(own) = table.get(&me).copied() else {
        return Vec::new();
    };
    let mut found: Vec<libc::pid_t> = table
        .iter()
        .filter(|(&pid, p)| {
            p.ppid == me
                && (p.sid != own.sid
                    || (p.pgid != own.pgid && p.pgid != pid && !live.contains(&p.pgid)))
        })
        .map(|(&pid, _)| pid)
        .collect();
    let mut i = 0;
    while i < found.len() {
        let parent = found[i];
        found.extend(
            table
                .iter()
                .filter(|(_, p)| p.ppid == parent)
                .map(|(&pid, _)| pid),
        );
        i += 1;
    }
    found
}

/// Kills and reaps every escaped orphan now. Returns how many processes it killed. A few passes: a
/// process forked while we looked is adopted when its parent dies, and caught by the next pass.
pub fn sweep() -> usize {
    let me = std::process::id() as libc::pid_t;
    let mut killed = 0;
    for _ in 0..5 {
        let table = processes(me);
        let victims = {
            let live = super::cleanup::live();
            let victims = escaped(&table, me, &live);
            for &pid in &victims {
                // SAFETY: kill has no memory-safety preconditions; the pid was just listed in /proc.
                unsafe { libc::kill(pid, libc::SIGKILL) };
            }
            victims
        };
        if victims.is_empty() {
            break;
        }
        killed += victims.len();
        for &pid in &victims {
            if table.get(&pid).is_some_and(|p| p.ppid == me) {
                let mut status = 0;
                // SAFETY: reaping our own (adopted) child, which we just killed.
                unsafe { libc::waitpid(pid, &mut status, 0) };
            }
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    killed
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(ppid: i32, pgid: i32, sid: i32) -> Proc {
        Proc { ppid, pgid, sid }
    }

    #[test]
    fn only_escaped_children_and_their_descendants_are_swept() {
        let me = 100;
        let table = BTreeMap::from([
            (100, p(1, 100, 50)),
            // A live run: leads its own group, in our session.
            (200, p(100, 200, 50)),
            // A helper command in our own group.
            (201, p(100, 100, 50)),
            // A daemon that called setsid, and its child.
            (300, p(100, 300, 300)),
            (301, p(300, 300, 300)),
            // A background child left in the group of a finished run.
            (400, p(100, 399, 50)),
            // A live run's background child, adopted: its group is still live.
            (500, p(100, 200, 50)),
            // Someone else's process.
            (600, p(1, 600, 600)),
        ]);
        let live = BTreeSet::from([200]);
        let mut swept = escaped(&table, me, &live);
        swept.sort();
        assert_eq!(swept, [300, 301, 400]);
    }

    #[test]
    fn the_family_holds_the_grader_and_its_children() {
        let me = std::process::id() as libc::pid_t;
        let mut child = std::process::Command::new("sleep")
            .arg("5")
            .spawn()
            .unwrap();
        let table = processes(me);
        let _ = child.kill();
        let _ = child.wait();
        assert!(table.contains_key(&me));
        let pid = child.id() as libc::pid_t;
        assert_eq!(table.get(&pid).map(|p| p.ppid), Some(me), "{table:?}");
        assert!(table
            .keys()
            .all(|&p| p == me || table.contains_key(&table[&p].ppid)));
    }
}
