//! A pseudo-terminal for programs written for a person at a keyboard (`Stdin::Terminal`): their stdin
//! and stdout are the terminal's slave side, so `isatty` is true and C's stdio buffers a line, not 4 KiB
//! (a `printf("Your move: ")` with no newline and no `fflush` shows before the program reads, as it did
//! for the handout's users). The grader holds the master side: what it writes is typed, what it reads is
//! shown. Echo is off (the grader keeps its own record of what it typed) and output keeps `\n` as it
//! is (no `\r\n`); the window is 80 × 24. The sandbox knows nothing else of what runs on it.
//!
//! Each spawn path takes [`Ends`] for the spec's stdin: the descriptors the child gets as 0 and 1, and
//! the grader's ends (both the master when it is a terminal).

use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};

use super::Stdin;

/// The terminal's size, as a window would report it.
const COLUMNS: u16 = 80;
const ROWS: u16 = 24;

/// The child's stdin and stdout, and the grader's ends of them.
pub struct Ends {
    pub child_in: OwnedFd,
    pub child_out: OwnedFd,
    /// What the grader writes: the pipe's write end, or the terminal's master; `None` for `/dev/null`.
    pub ours_in: Option<OwnedFd>,
    /// What the grader reads: the pipe's read end, or the terminal's master.
    pub ours_out: OwnedFd,
    /// The terminal's slave device (`st_rdev`), for telling a program reading it (`watch.rs`).
    pub tty: Option<u64>,
}

/// A pipe, both ends close-on-exec.
pub fn pipe() -> io::Result<(OwnedFd, OwnedFd)> {
    let mut fds = [0; 2];
    // SAFETY: pipe2 writes two descriptors into the array we own.
    if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) } != 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: both are fresh descriptors owned by nobody else.
    Ok(unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) })
}

/// The ends for `stdin`: `/dev/null`, a pipe, or a terminal (stdin and stdout both); stdout is a pipe
/// unless it is the terminal.
///
/// # Errors
/// A pipe or terminal the system would not give.
pub fn ends(stdin: &Stdin) -> io::Result<Ends> {
    if *stdin == Stdin::Terminal {
        let (master, slave, tty) = open()?;
        return Ok(Ends {
            child_in: slave.try_clone()?,
            child_out: slave,
            ours_in: Some(master.try_clone()?),
            ours_out: master,
            tty: Some(tty),
        });
    }
    let (child_in, ours_in) = match stdin {
        Stdin::Null => match std::fs::File::open("/dev/null") {
            Ok(null) => (OwnedFd::from(null), None),
            // A root with no `/dev` (a bare chroot, a minimal container): a pipe whose writing end
            // is closed at once reads as end of file, as /dev/null does.
            Err(e) if e.kind() == io::ErrorKind::NotFound => (pipe()?.0, None),
            Err(e) => return Err(e),
        },
        _ => {
            let (read, write) = pipe()?;
            (read, Some(write))
        }
    };
    let (ours_out, child_out) = pipe()?;
    Ok(Ends {
        child_in,
        child_out,
        ours_in,
        ours_out,
        tty: None,
    })
}

/// A new terminal: its master, its slave (both close-on-exec, neither the grader's controlling
/// terminal), and the slave's device number.
fn open() -> io::Result<(OwnedFd, OwnedFd, u64)> {
    let check = |r: libc::c_int| {
        if r < 0 {
            Err(io::Error::last_os_error())
        } else {
            Ok(r)
        }
    };
    // SAFETY: posix_openpt returns a fresh descriptor or -1.
    let master =
        check(unsafe { libc::posix_openpt(libc::O_RDWR | libc::O_NOCTTY | libc::O_CLOEXEC) })?;
    // SAFETY: a descriptor just opened, owned by nobody else.
    let master = unsafe { OwnedFd::from_raw_fd(master) };
    // SAFETY: grantpt and unlockpt act on the master we hold.
    check(unsafe { libc::grantpt(master.as_raw_fd()) })?;
    check(unsafe { libc::unlockpt(master.as_raw_fd()) })?;
    let mut name = [0 as libc::c_char; 128];
    // SAFETY: ptsname_r writes a NUL-terminated name into the buffer of the length given.
    let named = unsafe { libc::ptsname_r(master.as_raw_fd(), name.as_mut_ptr(), name.len()) };
    if named != 0 {
        return Err(io::Error::from_raw_os_error(named));
    }
    // SAFETY: `name` holds the NUL-terminated path ptsname_r wrote.
    let slave = check(unsafe {
        libc::open(
            name.as_ptr(),
            libc::O_RDWR | libc::O_NOCTTY | libc::O_CLOEXEC,
        )
    })?;
    // SAFETY: a descriptor just opened, owned by nobody else.
    let slave = unsafe { OwnedFd::from_raw_fd(slave) };
    configure(&slave)?;
    // SAFETY: fstat writes into the struct we own.
    let mut st: libc::stat = unsafe { std::mem::zeroed() };
    check(unsafe { libc::fstat(slave.as_raw_fd(), &mut st) })?;
    Ok((master, slave, st.st_rdev))
}

/// Echo off (the grader records what it types), `\n` kept as it is on output, lines delivered on
/// Enter as at a keyboard, and an 80 × 24 window.
fn configure(slave: &OwnedFd) -> io::Result<()> {
    let fd = slave.as_raw_fd();
    // SAFETY: tcgetattr and tcsetattr read and write the termios struct we own.
    unsafe {
        let mut t: libc::termios = std::mem::zeroed();
        if libc::tcgetattr(fd, &mut t) != 0 {
            return Err(io::Error::last_os_error());
        }
        t.c_lflag &= !(libc::ECHO | libc::ECHOE | libc::ECHOK | libc::ECHONL | libc::ECHOCTL);
        t.c_lflag |= libc::ICANON;
        t.c_oflag &= !libc::ONLCR;
        if libc::tcsetattr(fd, libc::TCSANOW, &t) != 0 {
            return Err(io::Error::last_os_error());
        }
        let size = libc::winsize {
            ws_row: ROWS,
            ws_col: COLUMNS,
            ws_xpixel: 0,
            ws_ypixel: 0,
        };
        if libc::ioctl(fd, libc::TIOCSWINSZ, &size) != 0 {
            return Err(io::Error::last_os_error());
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{Read, Write};

    #[test]
    fn a_terminal_is_a_tty_without_echo_or_carriage_returns() {
        let e = ends(&Stdin::Terminal).unwrap();
        // SAFETY: isatty only asks.
        assert_eq!(unsafe { libc::isatty(e.child_in.as_raw_fd()) }, 1);
        assert!(e.tty.is_some());
        let mut ours = std::fs::File::from(e.ours_in.unwrap());
        ours.write_all(b"typed\n").unwrap();
        let mut child_out = std::fs::File::from(e.child_out);
        child_out.write_all(b"shown\n").unwrap();
        let mut got = [0u8; 64];
        let n = std::fs::File::from(e.ours_out).read(&mut got).unwrap();
        // No echo of `typed`, and `\n` not made `\r\n`.
        assert_eq!(&got[..n], b"shown\n");
        let mut line = [0u8; 64];
        let n = std::fs::File::from(e.child_in).read(&mut line).unwrap();
        assert_eq!(&line[..n], b"typed\n");
    }

    #[test]
    fn pipes_stay_pipes() {
        let e = ends(&Stdin::Piped).unwrap();
        // SAFETY: isatty only asks.
        assert_eq!(unsafe { libc::isatty(e.child_in.as_raw_fd()) }, 0);
        assert!(e.tty.is_none() && e.ours_in.is_some());
        assert!(ends(&Stdin::Null).unwrap().ours_in.is_none());
    }
}
