//! Line-at-a-time pipes with deadlines and byte caps, so a player that hangs, floods or stops reading can
//! never block the referee: every wait is a `poll` with a timeout.

use std::fs::File;
use std::io::{self, Read, Write};
use std::os::fd::AsRawFd;
use std::time::Instant;

/// What one read produced.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReadLine {
    /// A complete line, without its `\n` (and without a trailing `\r`).
    Line(Vec<u8>),
    /// No complete line before the deadline.
    Timeout,
    /// The other end closed; any partial line is dropped.
    Eof,
    /// More than the cap without a newline: the count of bytes seen so far.
    TooLong(usize),
}

/// Reads lines from a pipe, keeping at most `cap` bytes of an unfinished line.
pub struct LineReader {
    file: File,
    buf: Vec<u8>,
    cap: usize,
    eof: bool,
}

impl LineReader {
    #[must_use]
    pub fn new(file: File, cap: usize) -> LineReader {
        LineReader {
            file,
            buf: Vec::new(),
            cap,
            eof: false,
        }
    }

    /// The next line, waiting until `deadline` (forever when `None`, which only trusted callers use).
    pub fn read_line(&mut self, deadline: Option<Instant>) -> io::Result<ReadLine> {
        let mut chunk = [0u8; 16 * 1024];
        loop {
            if let Some(end) = self.buf.iter().position(|&b| b == b'\n') {
                let mut line: Vec<u8> = self.buf.drain(..=end).collect();
                line.pop();
                if line.last() == Some(&b'\r') {
                    line.pop();
                }
                return Ok(ReadLine::Line(line));
            }
            if self.buf.len() > self.cap {
                return Ok(ReadLine::TooLong(self.buf.len()));
            }
            if self.eof {
                return Ok(ReadLine::Eof);
            }
            if !wait(&self.file, libc::POLLIN, deadline)? {
                return Ok(ReadLine::Timeout);
            }
            match self.file.read(&mut chunk) {
                Ok(0) => self.eof = true,
                Ok(n) => self.buf.extend_from_slice(&chunk[..n]),
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => {}
                Err(e) => return Err(e),
            }
        }
    }
}

/// What one write produced.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Wrote {
    Done,
    /// The reader stopped reading and the pipe stayed full until the deadline.
    Timeout,
    /// The reader is gone (EPIPE).
    Closed,
}

/// Writes all of `bytes` to a pipe, giving up at `deadline`. The pipe is switched to non-blocking so a
/// player that never reads its input cannot wedge the referee in `write`.
pub fn write_all(file: &mut File, bytes: &[u8], deadline: Option<Instant>) -> io::Result<Wrote> {
    set_nonblocking(file)?;
    let mut rest = bytes;
    while !rest.is_empty() {
        match file.write(rest) {
            Ok(n) => rest = &rest[n..],
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => return Ok(Wrote::Closed),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => {
                if !wait(file, libc::POLLOUT, deadline)? {
                    return Ok(Wrote::Timeout);
                }
            }
            Err(e) => return Err(e),
        }
    }
    Ok(Wrote::Done)
}

fn set_nonblocking(file: &File) -> io::Result<()> {
    let fd = file.as_raw_fd();
    // SAFETY: fcntl on a descriptor we own, with flags read from it.
    let flags = unsafe { libc::fcntl(fd, libc::F_GETFL) };
    if flags < 0 {
        return Err(io::Error::last_os_error());
    }
    if flags & libc::O_NONBLOCK == 0 {
        // SAFETY: as above.
        if unsafe { libc::fcntl(fd, libc::F_SETFL, flags | libc::O_NONBLOCK) } < 0 {
            return Err(io::Error::last_os_error());
        }
    }
    Ok(())
}

/// Waits until `file` is ready for `events` (or hung up); false on the deadline.
pub(crate) fn wait(
    file: &File,
    events: libc::c_short,
    deadline: Option<Instant>,
) -> io::Result<bool> {
    loop {
        let timeout = match deadline {
            None => -1,
            Some(d) => {
                let left = d.saturating_duration_since(Instant::now());
                if left.is_zero() {
                    0
                } else {
                    // Round up, so a wait never ends a hair before the deadline and spins.
                    i32::try_from(left.as_micros().div_ceil(1000)).unwrap_or(i32::MAX)
                }
            }
        };
        let mut pfd = libc::pollfd {
            fd: file.as_raw_fd(),
            events,
            revents: 0,
        };
        // SAFETY: one valid pollfd, for the length we pass.
        let n = unsafe { libc::poll(&mut pfd, 1, timeout) };
        if n < 0 {
            let e = io::Error::last_os_error();
            if e.kind() == io::ErrorKind::Interrupted {
                continue;
            }
            return Err(e);
        }
        if n > 0 {
            return Ok(true);
        }
        if deadline.is_some_and(|d| Instant::now() >= d) {
            return Ok(false);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn pipe() -> (File, File) {
        let (r, w) = std::io::pipe().unwrap();
        (
            File::from(std::os::fd::OwnedFd::from(r)),
            File::from(std::os::fd::OwnedFd::from(w)),
        )
    }

    #[test]
    fn lines_timeouts_floods_and_eof() {
        let (r, mut w) = pipe();
        let mut reader = LineReader::new(r, 10);
        w.write_all(b"one\r\ntw").unwrap();
        let soon = || Some(Instant::now() + Duration::from_millis(20));
        assert_eq!(
            reader.read_line(soon()).unwrap(),
            ReadLine::Line(b"one".to_vec())
        );
        assert_eq!(reader.read_line(soon()).unwrap(), ReadLine::Timeout);
        w.write_all(b"o\n0123456789abc").unwrap();
        assert_eq!(
            reader.read_line(soon()).unwrap(),
            ReadLine::Line(b"two".to_vec())
        );
        assert_eq!(reader.read_line(soon()).unwrap(), ReadLine::TooLong(13));
        let (r, w) = pipe();
        drop(w);
        assert_eq!(
            LineReader::new(r, 10).read_line(soon()).unwrap(),
            ReadLine::Eof
        );
    }

    #[test]
    fn a_full_pipe_times_out_and_a_closed_one_says_so() {
        let (r, mut w) = pipe();
        let big = vec![b'x'; 1 << 20];
        let soon = Some(Instant::now() + Duration::from_millis(20));
        assert_eq!(write_all(&mut w, &big, soon).unwrap(), Wrote::Timeout);
        drop(r);
        // A process another test forks at this moment may hold a copy of the read end for an instant.
        let later = Some(Instant::now() + Duration::from_secs(2));
        assert_eq!(write_all(&mut w, b"x\n", later).unwrap(), Wrote::Closed);
    }
}
