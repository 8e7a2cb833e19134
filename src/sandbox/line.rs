//! Deadline-bounded I/O with an interactive program (the arena's players): read one `\n`-terminated
//! line from its stdout, write to its stdin, drain its stderr, and check its limits between moves,
//! without ever blocking past a deadline: every wait is a `poll` with a timeout, so a program that hangs,
//! floods or stops reading can never block its caller.

use std::fs::File;
use std::io::{self, Read, Write};
use std::os::fd::AsRawFd;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use super::drive::{poll, set_nonblocking};
use super::pace;
use super::watch::{Stall, Watch};
use super::{LimitHit, Limits, Running};

/// What one read produced.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReadLine {
    /// A complete line, without its `\n` (and without a trailing `\r`).
    Line(Vec<u8>),
    /// No complete line before the deadline.
    Timeout,
    /// The other end closed; [`LineReader::pending`] holds any unterminated tail.
    Eof,
    /// More than the cap without a newline: the count of bytes seen so far.
    TooLong(usize),
}

/// Reads lines from a pipe, keeping at most `cap` bytes of an unfinished line.
#[derive(Debug)]
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

    /// [`LineReader::read_line`] while the grader waits for `awaited`'s answer: a program found
    /// blocked on the input the grader feeds it (`watch.rs`) ends the wait at once.
    pub fn read_line_awaiting(
        &mut self,
        deadline: Option<Instant>,
        awaited: &mut Awaited<'_>,
    ) -> io::Result<Answer> {
        let mut pace = pace::Wait::start();
        let answer = loop {
            match self.read_line(Some(awaited.slice(deadline, &pace))) {
                Ok(ReadLine::Timeout) if deadline.is_none_or(|d| pace::now() < d) => {}
                Ok(other) => break Ok(Answer::Read(other)),
                Err(e) => break Err(e),
            }
            match awaited.stalled(&[&self.file]) {
                Ok(Some(stall)) => break Ok(Answer::Stalled(stall)),
                Ok(None) => pace.look(&mut *awaited.running),
                Err(e) => break Err(e),
            }
        };
        let ran_out = matches!(answer, Ok(Answer::Read(ReadLine::Timeout)));
        pace.done(Some(&mut *awaited.running), ran_out);
        answer
    }

    /// Bytes received but not yet returned as a line.
    #[must_use]
    pub fn pending(&self) -> &[u8] {
        &self.buf
    }
}

/// What a read while the grader waits for an answer produced.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    Read(ReadLine),
    /// The program stopped: it waits for input the grader does not send (or used no CPU, asleep).
    Stalled(Stall),
}

/// A program the grader waits on for an answer: what the watch needs to tell one that waits for
/// input from one that thinks.
pub struct Awaited<'a> {
    pub running: &'a mut dyn Running,
    /// The grader's end of the program's stdin.
    pub stdin: &'a File,
    pub watch: &'a mut Watch,
}

impl Awaited<'_> {
    /// The end of the next wait: the deadline, or the next look at the program if that comes first.
    fn slice(&self, deadline: Option<Instant>, pace: &pace::Wait) -> Instant {
        let next = pace::now() + self.watch.every().min(pace.every());
        deadline.map_or(next, |d| d.min(next))
    }

    /// Looks at the program after a wait for `outputs` found nothing; a stall only when, besides,
    /// nothing arrived on them since (what it printed last may still answer).
    fn stalled(&mut self, outputs: &[&File]) -> io::Result<Option<Stall>> {
        let Some(stall) = self.watch.check(&mut *self.running, Some(self.stdin)) else {
            return Ok(None);
        };
        if wait_any(outputs, libc::POLLIN, Some(pace::now()))? {
            return Ok(None);
        }
        Ok(Some(stall))
    }
}

/// [`wait`] for any of `files` (the program's outputs) while the grader waits for `awaited`'s answer:
/// `Err` with the stall when the program is found blocked on its input instead.
pub fn wait_awaiting(
    files: &[&File],
    deadline: Option<Instant>,
    awaited: &mut Awaited<'_>,
) -> io::Result<Result<bool, Stall>> {
    let mut pace = pace::Wait::start();
    let answer = loop {
        match wait_any(files, libc::POLLIN, Some(awaited.slice(deadline, &pace))) {
            Ok(true) => break Ok(Ok(true)),
            Ok(false) => {}
            Err(e) => break Err(e),
        }
        if deadline.is_some_and(|d| pace::now() >= d) {
            break Ok(Ok(false));
        }
        match awaited.stalled(files) {
            Ok(Some(stall)) => break Ok(Err(stall)),
            Ok(None) => pace.look(&mut *awaited.running),
            Err(e) => break Err(e),
        }
    };
    let ran_out = matches!(answer, Ok(Ok(false)));
    pace.done(Some(&mut *awaited.running), ran_out);
    answer
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

/// Waits until `file` is ready for `events` (or hung up); false on the deadline.
pub(crate) fn wait(
    file: &File,
    events: libc::c_short,
    deadline: Option<Instant>,
) -> io::Result<bool> {
    wait_any(&[file], events, deadline)
}

/// [`wait`] for any of `files`.
pub(crate) fn wait_any(
    files: &[&File],
    events: libc::c_short,
    deadline: Option<Instant>,
) -> io::Result<bool> {
    let mut pfds: Vec<libc::pollfd> = files
        .iter()
        .map(|file| libc::pollfd {
            fd: file.as_raw_fd(),
            events,
            revents: 0,
        })
        .collect();
    loop {
        let left = deadline.map(|d| d.saturating_duration_since(pace::now()));
        let n = super::drive::poll_raw(&mut pfds, left);
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
        if deadline.is_some_and(|d| pace::now() >= d) {
            return Ok(false);
        }
    }
}

/// Keeps reading a pipe (a player's stderr) on its own thread so a chatty program never blocks on a
/// full pipe, keeping the first `cap` bytes.
#[derive(Debug)]
pub struct Drain {
    stop: Arc<AtomicBool>,
    thread: JoinHandle<(Vec<u8>, bool)>,
}

impl Drain {
    /// Starts draining `file`.
    pub fn start(file: File, cap: usize) -> io::Result<Drain> {
        set_nonblocking(&file)?;
        let stop = Arc::new(AtomicBool::new(false));
        let seen = Arc::clone(&stop);
        let thread = std::thread::Builder::new()
            .name("stderr-drain".into())
            .spawn(move || drain(file, cap, &seen))?;
        Ok(Drain { stop, thread })
    }

    /// Stops after taking what is in the pipe now; returns the kept bytes and whether more came.
    pub fn finish(self) -> (Vec<u8>, bool) {
        self.stop.store(true, Ordering::Relaxed);
        self.thread.join().unwrap_or_default()
    }
}

fn drain(mut file: File, cap: usize, stop: &AtomicBool) -> (Vec<u8>, bool) {
    let mut kept = Vec::new();
    let mut truncated = false;
    let mut chunk = [0u8; 8192];
    loop {
        let stopping = stop.load(Ordering::Relaxed);
        match file.read(&mut chunk) {
            Ok(0) => break,
            Ok(n) => {
                let room = cap.saturating_sub(kept.len());
                kept.extend_from_slice(&chunk[..n.min(room)]);
                truncated |= n > room;
                continue;
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => {}
            Err(_) => break,
        }
        if stopping {
            break;
        }
        let mut fds = [libc::pollfd {
            fd: file.as_raw_fd(),
            events: libc::POLLIN,
            revents: 0,
        }];
        // Short waits so `finish` is answered promptly.
        if poll(&mut fds, Duration::from_millis(20)).is_err() {
            break;
        }
    }
    (kept, truncated)
}

/// The CPU, memory or wall limit a live program has gone past, if any (`started` is its spawn time).
/// Cheap enough to call between moves; the caller stops the program.
pub fn over_limit(
    running: &mut dyn Running,
    limits: &Limits,
    started: Instant,
) -> Option<LimitHit> {
    if pace::since(started) > limits.wall {
        return Some(LimitHit::Wall);
    }
    let usage = running.usage();
    if usage.oom || usage.peak_memory.is_some_and(|m| m > limits.memory) {
        return Some(LimitHit::Memory);
    }
    if usage.cpu > limits.cpu {
        return Some(LimitHit::Cpu);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pipe() -> (File, File) {
        let (r, w) = std::io::pipe().unwrap();
        (
            File::from(std::os::fd::OwnedFd::from(r)),
            File::from(std::os::fd::OwnedFd::from(w)),
        )
    }

    /// A wait for several files answers for whichever is ready, the last as well as the first.
    #[test]
    fn a_wait_for_several_files_wakes_for_any_of_them() {
        let (r1, _w1) = pipe();
        let (r2, mut w2) = pipe();
        let soon = || Some(Instant::now() + Duration::from_millis(20));
        assert!(!wait_any(&[&r1, &r2], libc::POLLIN, soon()).unwrap());
        w2.write_all(b"x").unwrap();
        assert!(wait_any(&[&r1, &r2], libc::POLLIN, soon()).unwrap());
        assert!(!wait(&r1, libc::POLLIN, soon()).unwrap());
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
