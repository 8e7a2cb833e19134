//! The rlimits a program gets before `exec` (`basic`, and `full`'s child) and the `PATH` of a spec
//! without one: computed before the fork, so the child only makes the `setrlimit` calls.

use super::Limits;

/// `PATH` given to a program whose spec has none.
pub const DEFAULT_PATH: &str = "/usr/local/bin:/usr/bin:/bin";

#[cfg(all(target_os = "linux", target_env = "gnu"))]
type Resource = libc::__rlimit_resource_t;
#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
type Resource = libc::c_int;

/// One resource limit, computed before the fork so the child only makes the `setrlimit` call.
#[derive(Clone, Copy, Debug)]
pub struct Rlimit {
    pub(super) resource: Resource,
    soft: libc::rlim_t,
    hard: libc::rlim_t,
}

impl Rlimit {
    /// What `setrlimit` takes.
    pub(super) fn value(&self) -> libc::rlimit {
        libc::rlimit {
            rlim_cur: self.soft,
            rlim_max: self.hard,
        }
    }
}

/// The rlimits of the `basic` tier for `limits`, clamped to the grader's own hard limits (an
/// unprivileged grader cannot raise them).
///
/// CPU: soft = the limit rounded up to whole seconds, hard = soft + 1, so the kernel sends `SIGXCPU` a
/// second before `SIGKILL`; the driver also watches CPU time and stops the program at the exact limit.
pub fn rlimits(limits: &Limits) -> Vec<Rlimit> {
    let cpu_secs = limits.cpu.as_secs() + u64::from(limits.cpu.subsec_nanos() > 0);
    let cpu_secs = cpu_secs.max(1);
    let mut out = vec![
        rlimit(libc::RLIMIT_CPU, cpu_secs, cpu_secs + 1),
        rlimit(libc::RLIMIT_FSIZE, limits.file_size, limits.file_size),
        rlimit(libc::RLIMIT_NOFILE, limits.open_files, limits.open_files),
        rlimit(libc::RLIMIT_CORE, 0, 0),
        rlimit(libc::RLIMIT_STACK, limits.stack, limits.stack),
    ];
    if let Some(bytes) = limits.address_space {
        out.push(rlimit(libc::RLIMIT_AS, bytes, bytes));
    }
    out
}

fn rlimit(resource: Resource, soft: u64, hard: u64) -> Rlimit {
    let mut current = libc::rlimit {
        rlim_cur: 0,
        rlim_max: libc::RLIM_INFINITY,
    };
    // SAFETY: getrlimit writes into the struct we own.
    if unsafe { libc::getrlimit(resource, &mut current) } != 0 {
        current.rlim_max = libc::RLIM_INFINITY;
    }
    let max = current.rlim_max;
    let clamp = |v: u64| -> libc::rlim_t {
        let v = v as libc::rlim_t;
        if max != libc::RLIM_INFINITY && v > max {
            max
        } else {
            v
        }
    };
    Rlimit {
        resource,
        soft: clamp(soft),
        hard: clamp(hard),
    }
}
