//! Deadline-bounded I/O with an interactive program (the arena's players): read one `\n`-terminated
//! line from its stdout, write to its stdin, drain its stderr, and check its limits between moves,
//! without ever blocking past a deadline.

use std::fs::File;
use std::io::{self, Read, Write};
use std::os::fd::AsRawFd;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use super::drive::{poll, set_nonblocking};
use super::{LimitHit, Limits, Running};

/// What [`LineReader::read_line`] found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReadLine {
    /// One line, without its `\n` (a `\r` before it is kept: the protocol decides).
    Line(Vec<u8>),
    /// The deadline passed before a full line arrived (what did arrive stays buffered).
    Timeout,
    /// The program closed its stdout; [`LineReader::pending`] holds any unterminated tail.
    Eof,
    /// More than the cap arrived without a `\n`.
    TooLong,
}

/// Reads lines from a child's stdout with a deadline and a byte cap per line, on poll(2).
#[derive(Debug)]
pub struct LineReader {
    file: File,
    buf: Vec<u8>,
    eof: bool,
}

impl LineReader {
    /// Takes over the read end of a pipe (made non-blocking).
    pub fn new(file: File) -> io::Result<LineReader> {
        set_nonblocking(&file)?;
        Ok(LineReader {
            file,
            buf: Vec::new(),
            eof: false,
        })
    }

    /// The next line, if it arrives by `deadline` and is at most `max_len` bytes (without the `\n`).
    pub fn read_line(&mut self, deadline: Instant, max_len: usize) -> io::Result<ReadLine> {
        let mut scanned = 0;
        loop {
            if let Some(pos) = self.buf[scanned..].iter().position(|&b| b == b'\n') {
                let pos = scanned + pos;
                if pos > max_len {
                    return Ok(ReadLine::TooLong);
                }
                let mut line: Vec<u8> = self.buf.drain(..=pos).collect();
                line.pop();
                return Ok(ReadLine::Line(line));
            }
            scanned = self.buf.len();
            if self.buf.len() > max_len {
                return Ok(ReadLine::TooLong);
            }
            if self.eof {
                return Ok(ReadLine::Eof);
            }
            let now = Instant::now();
            if now >= deadline {
                return Ok(ReadLine::Timeout);
            }
            let mut fds = [libc::pollfd {
                fd: self.file.as_raw_fd(),
                events: libc::POLLIN,
                revents: 0,
            }];
            if poll(&mut fds, deadline - now)? == 0 {
                continue;
            }
            let mut chunk = [0u8; 4096];
            match self.file.read(&mut chunk) {
                Ok(0) => self.eof = true,
                Ok(n) => self.buf.extend_from_slice(&chunk[..n]),
                Err(e)
                    if matches!(
                        e.kind(),
                        io::ErrorKind::WouldBlock | io::ErrorKind::Interrupted
                    ) => {}
                Err(e) => return Err(e),
            }
        }
    }

    /// Bytes received but not yet returned as a line.
    pub fn pending(&self) -> &[u8] {
        &self.buf
    }
}

/// What [`write_all_by`] managed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Written {
    All,
    /// The program did not read enough by the deadline; this many bytes went through.
    Timeout(usize),
    /// The program closed its stdin (or ended).
    Closed,
}

/// Writes `bytes` to a child's stdin by `deadline`, never blocking past it (the pipe is made
/// non-blocking). A closed reader is [`Written::Closed`], not an error.
pub fn write_all_by(file: &mut File, bytes: &[u8], deadline: Instant) -> io::Result<Written> {
    set_nonblocking(file)?;
    let mut written = 0;
    while written < bytes.len() {
        match file.write(&bytes[written..]) {
            Ok(0) => return Ok(Written::Closed),
            Ok(n) => written += n,
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => return Ok(Written::Closed),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => {
                let now = Instant::now();
                if now >= deadline {
                    return Ok(Written::Timeout(written));
                }
                let mut fds = [libc::pollfd {
                    fd: file.as_raw_fd(),
                    events: libc::POLLOUT,
                    revents: 0,
                }];
                poll(&mut fds, deadline - now)?;
            }
            Err(e) => return Err(e),
        }
    }
    Ok(Written::All)
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
    if started.elapsed() > limits.wall {
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
