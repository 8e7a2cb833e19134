//! The code that runs between `clone` and `execve`: the sandbox's init (pid 1 of the new namespaces),
//! cloned from the spawner thread inside its copy of the template root, mounts the run's own paths and
//! forks the student program, then reaps until that program ends and reports its status.
//!
//! This runs in a copy of a multi-threaded process, so it may only make raw system calls: no allocation,
//! no locks, no panics. Everything it needs is in the [`Plan`], built before the clone.

use std::ffi::CStr;

use super::plan::{Plan, RunStep, FIRST_SOURCE_FD, MAX_TREES};

/// `open_tree`/`move_mount` flags (linux/mount.h), absent from the libc crate.
pub const OPEN_TREE_CLONE: libc::c_uint = 1;
const MOVE_MOUNT_F_EMPTY_PATH: libc::c_uint = 0x4;

/// Fixed descriptor numbers in the child. 0, 1 and 2 are the program's stdio.
pub const FD_ERROR: libc::c_int = 3;
pub const FD_STATUS: libc::c_int = 4;
pub const FD_SYNC: libc::c_int = 5;
/// The run's memory, pids and cpuacct `tasks` files (cgroup v1), opened by the grader: the program
/// joins the first, the init the other two, each writing `0` (see `Plan::join_self`).
pub const FD_MEMORY_TASKS: libc::c_int = 6;
pub const FD_PIDS_TASKS: libc::c_int = 7;
pub const FD_CPUACCT_TASKS: libc::c_int = 8;
/// The run's freezer `tasks` file (cgroup v1, where the machine has that hierarchy): the program joins
/// it with the memory group (`Plan::join_freezer`), so a stop for want of a core freezes its whole tree.
pub const FD_FREEZER_TASKS: libc::c_int = 9;
/// The run's `cpu` `tasks` file (cgroup v1, where `cpu` is mounted apart from `cpuacct`): the init
/// joins it (`Plan::join_cpu`), so the run is one scheduling entity with the default share.
pub const FD_CPU_TASKS: libc::c_int = 10;

/// Where a child failed, written with the errno to the error pipe.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u32)]
pub enum Stage {
    Sync = 1,
    Ids,
    Mount,
    MountProc,
    Workdir,
    Cgroup,
    Fork,
    Session,
    Rlimit,
    Capabilities,
    NoNewPrivs,
    Seccomp,
    Exec,
}

impl Stage {
    pub fn from_u32(n: u32) -> Option<Stage> {
        use Stage::*;
        [
            Sync,
            Ids,
            Mount,
            MountProc,
            Workdir,
            Cgroup,
            Fork,
            Session,
            Rlimit,
            Capabilities,
            NoNewPrivs,
            Seccomp,
            Exec,
        ]
        .into_iter()
        .find(|s| *s as u32 == n)
    }

    pub fn doing(self) -> &'static str {
        match self {
            Stage::Sync => "waiting for the grader",
            Stage::Ids => "becoming root in the user namespace",
            Stage::Mount => "mounting the scratch space and the working directory",
            Stage::MountProc => "mounting /proc",
            Stage::Cgroup => "joining the run's cgroups",
            Stage::Workdir => "entering the working directory",
            Stage::Fork => "starting the program under the sandbox init",
            Stage::Session => "starting a session",
            Stage::Rlimit => "setting rlimits",
            Stage::Capabilities => "dropping capabilities",
            Stage::NoNewPrivs => "setting no_new_privs",
            Stage::Seccomp => "installing the seccomp filter",
            Stage::Exec => "executing the program",
        }
    }
}

fn errno() -> i32 {
    // SAFETY: errno is thread-local and always readable.
    unsafe { *libc::__errno_location() }
}

/// Reports `stage` and errno to the grader and exits.
fn fail(stage: Stage) -> ! {
    let e = errno();
    let mut msg = [0u8; 8];
    msg[..4].copy_from_slice(&(stage as u32).to_ne_bytes());
    msg[4..].copy_from_slice(&e.to_ne_bytes());
    // SAFETY: writing a stack buffer to a descriptor, then exiting without running atexit handlers.
    unsafe {
        libc::write(FD_ERROR, msg.as_ptr().cast(), msg.len());
        libc::_exit(127)
    }
}

fn raw(r: libc::c_long) -> libc::c_int {
    r as libc::c_int
}

fn check(r: libc::c_int, stage: Stage) {
    if r < 0 {
        fail(stage);
    }
}

/// Puts the descriptors the child keeps (11 fixed ones, then the run's mount trees) at fixed numbers and
/// closes every other one: a copy of another run's pipe kept open here would hold that run's output open.
///
/// # Safety
/// Only in the freshly cloned child.
unsafe fn arrange_fds(fds: &[libc::c_int]) {
    let mut high = [0; FIRST_SOURCE_FD + MAX_TREES];
    if fds.len() > high.len() {
        unsafe { libc::_exit(126) };
    }
    let high = &mut high[..fds.len()];
    for (i, fd) in fds.iter().enumerate() {
        high[i] = unsafe { libc::fcntl(*fd, libc::F_DUPFD_CLOEXEC, 64) };
        if high[i] < 0 {
            unsafe { libc::_exit(126) };
        }
    }
    for (i, fd) in high.iter().enumerate() {
        if unsafe { libc::dup2(*fd, i as libc::c_int) } < 0 {
            unsafe { libc::_exit(126) };
        }
    }
    for fd in [
        FD_ERROR,
        FD_STATUS,
        FD_SYNC,
        FD_MEMORY_TASKS,
        FD_PIDS_TASKS,
        FD_CPUACCT_TASKS,
        FD_FREEZER_TASKS,
        FD_CPU_TASKS,
    ] {
        unsafe { libc::fcntl(fd, libc::F_SETFD, libc::FD_CLOEXEC) };
    }
    unsafe { libc::syscall(libc::SYS_close_range, fds.len() as u32, u32::MAX, 0u32) };
}

/// Every signal back to its default action, none blocked.
///
/// # Safety
/// Only in a child between clone and exec.
unsafe fn reset_signals() {
    unsafe {
        for sig in 1..32 {
            if sig != libc::SIGKILL && sig != libc::SIGSTOP {
                libc::signal(sig, libc::SIG_DFL);
            }
        }
        let mut empty: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut empty);
        libc::sigprocmask(libc::SIG_SETMASK, &empty, std::ptr::null_mut());
    }
}

extern "C" fn forward_term(_: libc::c_int) {
    // SAFETY: kill is async-signal-safe; -1 from the namespace's init reaches every other process in it.
    unsafe { libc::kill(-1, libc::SIGTERM) };
}

/// What [`init_entry`] gets: the init's plan and descriptors, owned by the grader's `start`, which waits
/// until the program is exec'd (or the init is gone) before dropping them.
pub struct InitArgs {
    pub plan: *const Plan,
    pub fds: *const libc::c_int,
    pub len: usize,
}

/// The entry of an init cloned with `CLONE_VM` on a stack of its own: it shares the grader's memory
/// (no page tables to copy, however large the grader has grown), so like [`init`] it makes only raw
/// system calls, and it touches no memory but its stack and, until the program is exec'd, its plan.
pub extern "C" fn init_entry(args: *mut libc::c_void) -> libc::c_int {
    // SAFETY: `start` passes an `InitArgs` that outlives the use (see there).
    unsafe {
        let args = &*(args as *const InitArgs);
        init(&*args.plan, std::slice::from_raw_parts(args.fds, args.len))
    }
}

/// The sandbox init: pid 1 of the new namespaces. Never returns.
///
/// # Safety
/// Only in the child of the namespace `clone`, with `plan` built before it.
pub unsafe fn init(plan: &Plan, fds: &[libc::c_int]) -> ! {
    unsafe {
        // Handlers the grader installed (Rust's stack-overflow guard, interrupt clean-up) must not run in
        // this copy of it.
        reset_signals();
        // Its own process group, so the grader's interrupt clean-up (`killpg`) reaches it.
        libc::setpgid(0, 0);
        arrange_fds(fds);
        // First byte: the id maps are written. (The second: we are in the run's cgroup.)
        let mut go = 0u8;
        if libc::read(FD_SYNC, (&mut go as *mut u8).cast(), 1) != 1 {
            fail(Stage::Sync);
        }
        join_groups(plan);
        no_dump();
        // Raw calls: libc's wrappers broadcast the change to the other threads libc believes we have,
        // and would wait for them forever.
        check(
            raw(libc::syscall(libc::SYS_setgroups, 0usize, 0usize)),
            Stage::Ids,
        );
        check(
            raw(libc::syscall(libc::SYS_setresgid, 0u32, 0u32, 0u32)),
            Stage::Ids,
        );
        check(
            raw(libc::syscall(libc::SYS_setresuid, 0u32, 0u32, 0u32)),
            Stage::Ids,
        );
        // The grader's death (even SIGKILL) kills us, and with us the whole pid namespace. Our parent is
        // the spawner thread, which lives as long as the grader. Set only now: a change of credentials
        // (the calls above) clears it. Should the grader have died before this line, the second read
        // of the sync pipe below sees EOF and we leave.
        libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL, 0, 0, 0);

        // A copy of the template, sealed and read-only: the run's own mounts go on top.
        for step in &plan.mounts {
            run_step(step);
        }
        // The trees are attached; the program must not find them among our fds.
        libc::syscall(
            libc::SYS_close_range,
            FIRST_SOURCE_FD as u32,
            u32::MAX,
            0u32,
        );
        // hidepid=2: a process the program may not ptrace is absent from /proc. We are one (not
        // dumpable, and the program has no capabilities), so /proc/1 with the grader's command line,
        // environment and maps (we share its memory) does not exist for it.
        check(
            libc::mount(
                c"proc".as_ptr(),
                c"/proc".as_ptr(),
                c"proc".as_ptr(),
                libc::MS_NOSUID | libc::MS_NODEV | libc::MS_NOEXEC,
                c"hidepid=2".as_ptr().cast(),
            ),
            Stage::MountProc,
        );
        libc::sethostname(c"sandbox".as_ptr(), 7);
        check(libc::chdir(plan.workdir.as_ptr()), Stage::Workdir);

        // Second byte: in the run's cgroup, so the program and all it starts are counted there.
        if libc::read(FD_SYNC, (&mut go as *mut u8).cast(), 1) != 1 {
            fail(Stage::Sync);
        }
        libc::close(FD_SYNC);
        let mut action: libc::sigaction = std::mem::zeroed();
        action.sa_sigaction = forward_term as extern "C" fn(libc::c_int) as libc::sighandler_t;
        action.sa_flags = libc::SA_RESTART;
        libc::sigemptyset(&mut action.sa_mask);
        libc::sigaction(libc::SIGTERM, &action, std::ptr::null_mut());

        // Not fork(): libc's fork handlers may take locks another thread of the grader held. And not a
        // copy of this process either: it is a copy of the whole grader, whose page tables would be
        // copied only to be thrown away by `execve`. So the program borrows our memory (CLONE_VM) on its
        // own stack while we sleep (CLONE_VFORK) until it has exec'd or failed.
        let stack = &plan.program_stack;
        let stack_top = (stack.as_ptr() as usize + stack.capacity()) & !15;
        let pid = libc::clone(
            program_entry,
            stack_top as *mut libc::c_void,
            libc::CLONE_VM | libc::CLONE_VFORK | libc::SIGCHLD,
            (plan as *const Plan).cast_mut().cast(),
        );
        if pid < 0 {
            fail(Stage::Fork);
        }
        // The program's copy of the error pipe closes at exec; ours now, so the grader sees EOF.
        libc::close(FD_ERROR);
        reap_until(pid)
    }
}

/// This copy of the grader holds the grader's memory: no core dumps, and not readable through
/// `/proc` by the program.
///
/// # Safety
/// Only in the init.
unsafe fn no_dump() {
    unsafe {
        libc::prctl(libc::PR_SET_DUMPABLE, 0, 0, 0, 0);
        let no_core = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        libc::setrlimit(libc::RLIMIT_CORE, &no_core);
    }
}

/// cgroup v1: the init into the run's pids and cpuacct groups (and `cpu`, where it is mounted apart),
/// a single thread moving itself (the program joins the memory and freezer groups; see
/// `Plan::join_self`).
///
/// # Safety
/// Only in the init, with its descriptors arranged.
unsafe fn join_groups(plan: &Plan) {
    unsafe {
        if plan.join_self {
            for fd in [FD_PIDS_TASKS, FD_CPUACCT_TASKS] {
                if libc::write(fd, c"0".as_ptr().cast(), 1) != 1 {
                    fail(Stage::Cgroup);
                }
            }
        }
        if plan.join_cpu && libc::write(FD_CPU_TASKS, c"0".as_ptr().cast(), 1) != 1 {
            fail(Stage::Cgroup);
        }
    }
}

/// Reaps every process until the program (`pid`) ends, then kills and reaps the rest and reports the
/// program's status. Never returns.
///
/// # Safety
/// Only in the init, after the program was started.
unsafe fn reap_until(pid: libc::pid_t) -> ! {
    unsafe {
        loop {
            let mut status = 0;
            let r = libc::wait4(-1, &mut status, 0, std::ptr::null_mut());
            if r == pid {
                // The program's end is the run's end. Whatever it left behind dies and is reaped
                // before the status goes out, so no process of the run outlives the report; tearing
                // the namespaces down when we leave then happens off the grader's path.
                libc::kill(-1, libc::SIGKILL);
                while libc::wait4(-1, std::ptr::null_mut(), 0, std::ptr::null_mut()) >= 0
                    || errno() == libc::EINTR
                {}
                libc::write(FD_STATUS, (&status as *const i32).cast(), 4);
                libc::_exit(0);
            }
            if r < 0 && errno() != libc::EINTR {
                libc::_exit(125);
            }
        }
    }
}

/// Mounts a tmpfs (nosuid, nodev) with `options` on `target`: one syscall, so safe between clone and
/// exec; the grader's scratch folders use it too. Returns what `mount(2)` does.
pub fn mount_tmpfs(target: &CStr, options: &CStr) -> libc::c_int {
    // SAFETY: valid C strings, alive for the call.
    unsafe {
        libc::mount(
            c"tmpfs".as_ptr(),
            target.as_ptr(),
            c"tmpfs".as_ptr(),
            libc::MS_NOSUID | libc::MS_NODEV,
            options.as_ptr().cast(),
        )
    }
}

/// One of the run's mounts. `Mkdir` of something that exists is fine.
unsafe fn run_step(step: &RunStep) {
    let null = std::ptr::null::<libc::c_char>();
    unsafe {
        match step {
            RunStep::Tmpfs { target, options } => check(mount_tmpfs(target, options), Stage::Mount),
            RunStep::Mkdir(dir) => {
                if libc::mkdir(dir.as_ptr(), 0o755) < 0 && errno() != libc::EEXIST {
                    fail(Stage::Mount);
                }
            }
            RunStep::Touch(file) => {
                let fd = libc::open(
                    file.as_ptr(),
                    libc::O_CREAT | libc::O_WRONLY | libc::O_CLOEXEC,
                    0o644,
                );
                if fd < 0 {
                    fail(Stage::Mount);
                }
                libc::close(fd);
            }
            RunStep::Move {
                fd,
                target,
                remount,
            } => {
                check(
                    libc::syscall(
                        libc::SYS_move_mount,
                        *fd,
                        c"".as_ptr(),
                        libc::AT_FDCWD,
                        target.as_ptr(),
                        MOVE_MOUNT_F_EMPTY_PATH,
                    ) as libc::c_int,
                    Stage::Mount,
                );
                check(
                    libc::mount(null, target.as_ptr(), null, *remount, std::ptr::null()),
                    Stage::Mount,
                );
            }
            RunStep::Seal(target) => check(
                libc::mount(
                    null,
                    target.as_ptr(),
                    null,
                    libc::MS_REMOUNT | libc::MS_RDONLY | libc::MS_NOSUID | libc::MS_NODEV,
                    std::ptr::null(),
                ),
                Stage::Mount,
            ),
        }
    }
}

extern "C" fn program_entry(plan: *mut libc::c_void) -> libc::c_int {
    // SAFETY: `init` passes its plan, which outlives this child: the init sleeps until we exec or exit.
    unsafe { program(&*(plan as *const Plan)) }
}

/// The student program's side of the second fork: its own session, limits, no capabilities, the filter,
/// then `execve`. Never returns.
unsafe fn program(plan: &Plan) -> ! {
    unsafe {
        libc::close(FD_STATUS);
        // Into the run's memory cgroup before anything of the program runs, when the init cannot be
        // there (it shares the grader's memory: the OOM killer, choosing it, would kill the grader).
        if plan.join_self && libc::write(FD_MEMORY_TASKS, c"0".as_ptr().cast(), 1) != 1 {
            fail(Stage::Cgroup);
        }
        if plan.join_freezer && libc::write(FD_FREEZER_TASKS, c"0".as_ptr().cast(), 1) != 1 {
            fail(Stage::Cgroup);
        }
        // The init reset every signal (the grader ignores SIGPIPE, and an ignored signal would stay
        // ignored across exec) but its own SIGTERM handler, which must not run here before `execve`.
        libc::signal(libc::SIGTERM, libc::SIG_DFL);

        if libc::setsid() < 0 {
            fail(Stage::Session);
        }
        for (resource, value) in &plan.rlimits {
            let soft = *value;
            let hard = if *resource == libc::RLIMIT_CPU as libc::c_int {
                soft + 1
            } else {
                soft
            };
            let limit = libc::rlimit {
                rlim_cur: soft,
                rlim_max: hard,
            };
            check(libc::setrlimit(*resource as _, &limit), Stage::Rlimit);
        }
        // An empty bounding set: root inside the namespace execs with no capabilities at all.
        for cap in 0..=plan.cap_last {
            if libc::prctl(libc::PR_CAPBSET_DROP, cap, 0, 0, 0) < 0 && errno() != libc::EINVAL {
                fail(Stage::Capabilities);
            }
        }
        check(
            libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0),
            Stage::NoNewPrivs,
        );
        let prog = libc::sock_fprog {
            len: plan.filter.len() as u16,
            filter: plan.filter.as_ptr() as *mut libc::sock_filter,
        };
        check(
            libc::prctl(
                libc::PR_SET_SECCOMP,
                libc::SECCOMP_MODE_FILTER,
                &prog as *const libc::sock_fprog,
            ),
            Stage::Seccomp,
        );
        libc::execve(
            plan.program.as_ptr(),
            plan.argv.as_ptr(),
            plan.envp.as_ptr(),
        );
        fail(Stage::Exec)
    }
}
