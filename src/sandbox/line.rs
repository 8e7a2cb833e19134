//! Deadline-bounded line I/O with an interactive program (the arena's players): read one
//! `\n`-terminated line from its stdout, or write to its stdin, without ever blocking past a deadline.

use std::fs::File;
use std::io::{self, Read, Write};
use std::os::fd::AsRawFd;
use std::time::Instant;

use super::drive::{poll, set_nonblocking};

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
