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

/// The filter program, in the order the kernel runs it. Only x86_64 is supported: another architecture
/// (or the i386 entry point on x86_64) gets every call denied.
pub fn filter() -> Vec<sock_filter> {
    let mut p = vec![
        stmt(LD_W_ABS, OFFSET_ARCH),
        jump(JEQ, AUDIT_ARCH_X86_64, 1, 0),
        stmt(RET, DENY),
        stmt(LD_W_ABS, OFFSET_NR),
        jump(JGE, X32_BIT, 0, 1),
        stmt(RET, DENY),
    ];
    // One comparison per denied call, all jumping to a single `RET DENY` at the end: half the program a
    // pairwise list would be, which the kernel checks and compiles at every run's start.
    let tail = [
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
    ];
    for (i, &nr) in DENIED.iter().enumerate() {
        // From this comparison past the rest of the list and the tail, to the final deny.
        let to_deny = DENIED.len() - 1 - i + tail.len();
        let jt = u8::try_from(to_deny).expect("the deny-list fits a BPF jump");
        p.push(jump(JEQ, nr as u32, jt, 0));
    }
    p.extend(tail);
    p.push(stmt(RET, DENY));
    p
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A tiny interpreter for the instructions `filter` emits, to check the program's logic without a
    /// kernel.
    fn run(prog: &[sock_filter], arch: u32, nr: u32, arg0: u32) -> u32 {
        let mut acc = 0u32;
        let mut pc = 0usize;
        loop {
            let ins = prog[pc];
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
                RET => return ins.k,
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

    #[test]
    fn one_instruction_per_denied_call() {
        assert!(filter().len() <= DENIED.len() + 20, "{}", filter().len());
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
