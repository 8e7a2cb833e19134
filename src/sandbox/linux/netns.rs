//! Empty network namespaces made ahead of time and recycled: creating one is the dearest part of a run's
//! start and destroying one dearer still (the kernel's clean-up runs on a worker thread, but it takes a
//! core for a millisecond or more), so a background thread keeps a few ready, each run takes one, and a
//! run hands its namespace back once every process of it is dead. Never shared by two live runs
//! (abstract unix sockets live in a network namespace, and two runs in one could talk). A namespace a
//! finished run leaves holds nothing of it: its sockets closed with its processes, and nothing else
//! there can be changed without `CAP_NET_ADMIN` over it, which no run has (the namespaces belong to the
//! host's user namespace).

use std::fs::File;
use std::os::fd::{AsRawFd, OwnedFd};
use std::sync::{Condvar, Mutex, OnceLock};

/// How many namespaces the filler keeps ready.
const READY: usize = 2;
/// How many handed-back namespaces are kept for reuse at most (the rest are dropped).
const KEPT: usize = 16;

struct Pool {
    ready: Mutex<Vec<OwnedFd>>,
    wanted: Condvar,
}

fn pool() -> &'static Pool {
    static POOL: OnceLock<Pool> = OnceLock::new();
    POOL.get_or_init(|| {
        let made = Pool {
            ready: Mutex::new(Vec::new()),
            wanted: Condvar::new(),
        };
        // The filler moves itself into each namespace it makes (a thread's own network namespace, so
        // nothing else of the grader changes) and keeps a handle; it never uses the network. Without
        // the thread (spawn failed) every run makes its own namespace at clone time.
        let _ = std::thread::Builder::new()
            .name("grader-netns".into())
            .spawn(|| fill(pool()));
        made
    })
}

fn fill(pool: &Pool) {
    loop {
        {
            let mut ready = pool.ready.lock().unwrap_or_else(|e| e.into_inner());
            while ready.len() >= READY {
                ready = pool.wanted.wait(ready).unwrap_or_else(|e| e.into_inner());
            }
        }
        // SAFETY: plain syscall; it only changes this thread's network namespace.
        if unsafe { libc::unshare(libc::CLONE_NEWNET) } != 0 {
            return;
        }
        let Ok(ns) = File::open("/proc/thread-self/ns/net") else {
            return;
        };
        pool.ready
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(OwnedFd::from(ns));
    }
}

/// Hands back the namespace of a run whose processes are all dead, for another run to use.
pub fn give_back(ns: OwnedFd) {
    let pool = pool();
    let mut ready = pool.ready.lock().unwrap_or_else(|e| e.into_inner());
    if ready.len() < KEPT {
        ready.push(ns);
    }
}

/// An empty network namespace no live run has, when one is ready.
pub fn take() -> Option<OwnedFd> {
    let pool = pool();
    let ns = pool.ready.lock().unwrap_or_else(|e| e.into_inner()).pop();
    pool.wanted.notify_one();
    ns
}

/// Runs `f` with the calling thread in network namespace `ns`, then puts the thread back. `None` when
/// the thread could not enter it (then `f` did not run).
pub fn within<T>(ns: &OwnedFd, f: impl FnOnce() -> T) -> Option<T> {
    let own = File::open("/proc/thread-self/ns/net").ok()?;
    // SAFETY: plain syscalls on descriptors we hold; they change only this thread's namespace.
    if unsafe { libc::setns(ns.as_raw_fd(), libc::CLONE_NEWNET) } != 0 {
        return None;
    }
    let out = f();
    // SAFETY: as above. Failing to go back would leave this grader thread without the host network,
    // which it never uses; nothing better can be done here.
    unsafe { libc::setns(own.as_raw_fd(), libc::CLONE_NEWNET) };
    Some(out)
}
