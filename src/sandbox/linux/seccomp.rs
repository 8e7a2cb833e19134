//! The seccomp deny-list of the `full` tier: a classic BPF program, built once, that makes the calls a
//! student program has no business making fail with an error instead of killing it.

use libc::sock_filter;

const LD_W_ABS: u16 = (libc::BPF_LD | libc::BPF_W | libc::BPF_ABS) as u16;
const JEQ: u16 = (libc::BPF_JMP | libc::BPF_JEQ | libc::BPF_K) as u16;
const JGE: u16 = (libc::BPF_JMP | libc::BPF_JGE | libc::BPF_K) as u16;
const JSET: u16 = (libc::BPF_JMP | libc::BPF_JSET | libc::BPF_K) as u16;
const RET: u16 = (libc::BPF_RET | libc::BPF_K) as u16;

const ALLOW: u32 = libc::SECCOMP_RET_ALLOW;
const DENY: u32 = libc::SECCOMP_RET_ERRNO | libc::EPERM as u32;
/// `clone3` passes its flags in memory BPF cannot read; ENOSYS makes libc fall back to `clone`.
const NOSYS: u32 = libc::SECCOMP_RET_ERRNO | libc::ENOSYS as u32;

const OFFSET_NR: u32 = 0;
const OFFSET_ARCH: u32 = 4;
/// The low 32 bits of the first argument (little-endian x86_64).
const OFFSET_ARG0: u32 = 16;

const AUDIT_ARCH_X86_64: u32 = 0xc000_003e;
/// Syscall numbers at or above this are the x32 ABI, another way around the list.
const X32_BIT: u32 = 0x4000_0000;

/// Namespace flags a `clone` may not ask for: a new user namespace would give back the capabilities the
/// sandbox took away.
const NEW_NAMESPACES: u32 = (libc::CLONE_NEWUSER
    | libc::CLONE_NEWNS
    | libc::CLONE_NEWPID
    | libc::CLONE_NEWNET
    | libc::CLONE_NEWIPC
    | libc::CLONE_NEWUTS
    | libc::CLONE_NEWCGROUP) as u32;

/// Calls that fail with EPERM: debugging or reading other processes, kernel keyrings, BPF, perf,
/// io_uring (which bypasses seccomp), namespaces and mounts, kernel modules, clocks and the machine.
const DENIED: &[libc::c_long] = &[
    libc::SYS_ptrace,
    libc::SYS_process_vm_readv,
    libc::SYS_process_vm_writev,
    libc::SYS_pidfd_getfd,
    libc::SYS_kcmp,
    libc::SYS_keyctl,
    libc::SYS_add_key,
    libc::SYS_request_key,
    libc::SYS_bpf,
    libc::SYS_perf_event_open,
    libc::SYS_userfaultfd,
    libc::SYS_io_uring_setup,
    libc::SYS_io_uring_enter,
    libc::SYS_io_uring_register,
    libc::SYS_mount,
    libc::SYS_umount2,
    libc::SYS_pivot_root,
    libc::SYS_chroot,
    libc::SYS_unshare,
    libc::SYS_setns,
    libc::SYS_fsopen,
    libc::SYS_fsconfig,
    libc::SYS_fsmount,
    libc::SYS_fspick,
    libc::SYS_move_mount,
    libc::SYS_open_tree,
    libc::SYS_mount_setattr,
    libc::SYS_open_by_handle_at,
    libc::SYS_name_to_handle_at,
    libc::SYS_kexec_load,
    libc::SYS_kexec_file_load,
    libc::SYS_init_module,
    libc::SYS_finit_module,
    libc::SYS_delete_module,
    libc::SYS_reboot,
    libc::SYS_swapon,
    libc::SYS_swapoff,
    libc::SYS_acct,
    libc::SYS_syslog,
    libc::SYS_quotactl,
    libc::SYS_settimeofday,
    libc::SYS_clock_settime,
    libc::SYS_clock_adjtime,
    libc::SYS_adjtimex,
    libc::SYS_uselib,
    libc::SYS_vhangup,
];

fn stmt(code: u16, k: u32) -> sock_filter {
    sock_filter {
        code,
        jt: 0,
        jf: 0,
        k,
    }
}

fn jump(code: u16, k: u32, jt: u8, jf: u8) -> sock_filter {
    sock_filter { code, jt, jf, k }
}

/// The denied calls as ranges of consecutive numbers, sorted: `[first, last + 1)`.
fn denied_ranges() -> Vec<(u32, u32)> {
    let mut nrs: Vec<u32> = DENIED.iter().map(|&nr| nr as u32).collect();
    nrs.sort_unstable();
    nrs.dedup();
    let mut ranges: Vec<(u32, u32)> = Vec::new();
    for nr in nrs {
        match ranges.last_mut() {
            Some((_, end)) if *end == nr => *end = nr + 1,
            _ => ranges.push((nr, nr + 1)),
        }
    }
    ranges
}

/// Where a leaf of the search tree sends a call.
#[derive(Clone, Copy)]
enum Leaf {
    Deny,
    /// The checks of the few calls allowed on conditions, then allow.
    Rest,
}

/// Emits a binary search over `bounds[lo..hi]`, the numbers where the verdict changes, covering regions
/// `lo..=hi` (region `r` lies below `bounds[r]`; odd regions are denied). Jumps to a leaf are recorded in
/// `leaves` as (instruction, true branch, leaf) and fixed once the leaves' places are known.
fn search(
    p: &mut Vec<sock_filter>,
    leaves: &mut Vec<(usize, bool, Leaf)>,
    bounds: &[u32],
    lo: usize,
    hi: usize,
) {
    let leaf = |region: usize| {
        if region % 2 == 1 {
            Leaf::Deny
        } else {
            Leaf::Rest
        }
    };
    let mid = (lo + hi) / 2;
    let at = p.len();
    p.push(jump(JGE, bounds[mid], 0, 0));
    // Below `bounds[mid]`: regions lo..=mid, laid out right after this node.
    if lo == mid {
        leaves.push((at, false, leaf(lo)));
    } else {
        search(p, leaves, bounds, lo, mid);
    }
    // At or above it: regions mid+1..=hi.
    if mid + 1 == hi {
        leaves.push((at, true, leaf(hi)));
    } else {
        p[at].jt = offset(at, p.len());
        search(p, leaves, bounds, mid + 1, hi);
    }
}

/// The forward jump from instruction `from` to `to`.
fn offset(from: usize, to: usize) -> u8 {
    u8::try_from(to - from - 1).expect("the filter fits BPF's 8-bit jumps")
}

/// The filter program, in the order the kernel runs it. Only x86_64 is supported: another architecture
/// (or the i386 entry point on x86_64) gets every call denied.
///
/// The deny-list is a binary search over the ranges of denied numbers, not a list of comparisons: when
/// the filter is installed the kernel runs it once for every system call number (to cache the calls
/// always allowed), so the cost of a run's start grows with the path a call takes through the program,
/// times the ~450 calls.
pub fn filter() -> Vec<sock_filter> {
    let mut p = vec![
        stmt(LD_W_ABS, OFFSET_ARCH),
        jump(JEQ, AUDIT_ARCH_X86_64, 1, 0),
        stmt(RET, DENY),
        stmt(LD_W_ABS, OFFSET_NR),
        jump(JGE, X32_BIT, 0, 1),
        stmt(RET, DENY),
    ];
    let bounds: Vec<u32> = denied_ranges()
        .into_iter()
        .flat_map(|(first, end)| [first, end])
        .collect();
    let mut leaves = Vec::new();
    search(&mut p, &mut leaves, &bounds, 0, bounds.len());
    let rest = p.len();
    p.extend([
        jump(JEQ, libc::SYS_clone3 as u32, 0, 1),
        stmt(RET, NOSYS),
        // Sockets: local (AF_UNIX) only; the JVM needs those. Every network family fails.
        jump(JEQ, libc::SYS_socket as u32, 0, 4),
        stmt(LD_W_ABS, OFFSET_ARG0),
        jump(JEQ, libc::AF_UNIX as u32, 0, 1),
        stmt(RET, ALLOW),
        stmt(RET, DENY),
        jump(JEQ, libc::SYS_clone as u32, 0, 4),
        stmt(LD_W_ABS, OFFSET_ARG0),
        jump(JSET, NEW_NAMESPACES, 0, 1),
        stmt(RET, DENY),
        stmt(RET, ALLOW),
        stmt(RET, ALLOW),
    ]);
    let deny = p.len();
    p.push(stmt(RET, DENY));
    for (at, taken, leaf) in leaves {
        let to = match leaf {
            Leaf::Deny => deny,
            Leaf::Rest => rest,
        };
        if taken {
            p[at].jt = offset(at, to);
        } else {
            p[at].jf = offset(at, to);
        }
    }
    p
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A tiny interpreter for the instructions `filter` emits, to check the program's logic without a
    /// kernel.
    fn run(prog: &[sock_filter], arch: u32, nr: u32, arg0: u32) -> u32 {
        steps(prog, arch, nr, arg0).0
    }

    /// The verdict and how many instructions the call went through.
    fn steps(prog: &[sock_filter], arch: u32, nr: u32, arg0: u32) -> (u32, usize) {
        let mut acc = 0u32;
        let mut pc = 0usize;
        let mut count = 0;
        loop {
            let ins = prog[pc];
            count += 1;
            match ins.code {
                LD_W_ABS => {
                    acc = match ins.k {
                        OFFSET_NR => nr,
                        OFFSET_ARCH => arch,
                        OFFSET_ARG0 => arg0,
                        k => panic!("unexpected load offset {k}"),
                    };
                    pc += 1;
                }
                RET => return (ins.k, count),
                JEQ | JGE | JSET => {
                    let taken = match ins.code {
                        JEQ => acc == ins.k,
                        JGE => acc >= ins.k,
                        _ => acc & ins.k != 0,
                    };
                    pc += 1 + usize::from(if taken { ins.jt } else { ins.jf });
                }
                code => panic!("unexpected opcode {code:#x}"),
            }
        }
    }

    fn verdict(nr: libc::c_long, arg0: u32) -> u32 {
        run(&filter(), AUDIT_ARCH_X86_64, nr as u32, arg0)
    }

    #[test]
    fn denies_the_listed_calls_and_allows_the_rest() {
        for &nr in DENIED {
            assert_eq!(verdict(nr, 0), DENY, "syscall {nr}");
        }
        for nr in [
            libc::SYS_read,
            libc::SYS_write,
            libc::SYS_execve,
            libc::SYS_wait4,
        ] {
            assert_eq!(verdict(nr, 0), ALLOW, "syscall {nr}");
        }
    }

    /// The search against the plain list, for every number a call can have.
    #[test]
    fn every_call_number_gets_the_lists_verdict() {
        for nr in 0..1024u32 {
            let expected = if DENIED.contains(&libc::c_long::from(nr)) {
                DENY
            } else if nr == libc::SYS_clone3 as u32 {
                NOSYS
            } else if nr == libc::SYS_socket as u32 {
                // Family 0 (AF_UNSPEC) is not AF_UNIX.
                DENY
            } else {
                ALLOW
            };
            assert_eq!(verdict(libc::c_long::from(nr), 0), expected, "syscall {nr}");
        }
    }

    /// The kernel runs the filter for every call number when it is installed: the program stays small
    /// and every call's path through it short.
    #[test]
    fn the_program_is_small_and_its_paths_short() {
        let prog = filter();
        assert!(prog.len() <= DENIED.len() + 20, "{}", prog.len());
        let longest = (0..512u32)
            .map(|nr| steps(&prog, AUDIT_ARCH_X86_64, nr, 0).1)
            .max()
            .unwrap();
        assert!(longest <= 24, "a call goes through {longest} instructions");
    }

    #[test]
    fn sockets_are_local_only() {
        assert_eq!(verdict(libc::SYS_socket, libc::AF_UNIX as u32), ALLOW);
        assert_eq!(verdict(libc::SYS_socket, libc::AF_INET as u32), DENY);
        assert_eq!(verdict(libc::SYS_socket, libc::AF_INET6 as u32), DENY);
        assert_eq!(verdict(libc::SYS_socket, libc::AF_NETLINK as u32), DENY);
    }

    #[test]
    fn clone_may_not_make_namespaces() {
        let thread = (libc::CLONE_VM | libc::CLONE_THREAD | libc::CLONE_SIGHAND) as u32;
        assert_eq!(verdict(libc::SYS_clone, thread), ALLOW);
        assert_eq!(verdict(libc::SYS_clone, libc::SIGCHLD as u32), ALLOW);
        let escape = libc::CLONE_NEWUSER as u32 | libc::SIGCHLD as u32;
        assert_eq!(verdict(libc::SYS_clone, escape), DENY);
        assert_eq!(verdict(libc::SYS_clone3, 0), NOSYS);
    }

    #[test]
    fn other_architectures_and_x32_are_denied() {
        assert_eq!(run(&filter(), 0x4000_0003, 0, 0), DENY);
        assert_eq!(verdict(X32_BIT as libc::c_long, 0), DENY);
    }
}
