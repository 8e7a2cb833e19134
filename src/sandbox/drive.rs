//! The one driver behind every tier's `Sandbox::run`: feeds stdin, reads stdout and stderr under their
//! caps, enforces the wall, CPU and memory limits, and turns what happened into an `Outcome`.
//!
//! A run with an idle limit whose CPU time stands still that long, every process asleep, is stopped
//! then (`LimitHit::Idle`, see `watch.rs`) rather than at its wall limit.
//!
//! Guarantees: the driver never blocks forever. A program that never reads its stdin cannot stall it
//! (writes are non-blocking and `EPIPE` ends them), a flood on stdout stops the program at the cap, a
//! flood on stderr costs nothing (stderr is a file of the run's own, bounded by the file-size limit,
//! `sink.rs`; a pipe where the tier gives none, drained and thrown away past the cap, the wall limit
//! bounding it), and once the main process has ended the driver reads what is left for at most
//! [`DRAIN_GRACE`], even when an escaped process still holds the pipes open.

use std::fs::File;
use std::io::{self, Read, Write};
use std::os::fd::AsRawFd;
use std::time::{Duration, Instant};

use super::{pace, sink};

use super::{LimitHit, Limits, Outcome, Running, SandboxError, Spec, Status, Stdin, Usage, Watch};

/// Between SIGTERM at the wall limit and SIGKILL of the whole group.
pub const TERM_GRACE: Duration = Duration::from_millis(100);
/// How long the driver keeps reading the pipes after the main process has ended.
pub const DRAIN_GRACE: Duration = Duration::from_millis(200);
/// The longest the driver sleeps between checks of the clock and the process.
const TICK: Duration = Duration::from_millis(5);
/// The first wait once both pipes are closed (doubling up to [`TICK`]).
const IDLE_FIRST: Duration = Duration::from_micros(50);
/// The longest [`briefly`] sleeps between two looks.
const BRIEF_TICK: Duration = Duration::from_millis(2);
/// How often CPU time and memory are sampled (a `/proc` read in `basic`).
const SAMPLE_EVERY: Duration = Duration::from_millis(20);
/// Reads per pipe per wake-up, so a flood cannot keep the driver from its clock.
const READS_PER_WAKE: usize = 16;
const CHUNK: usize = 64 * 1024;

/// Asks `look` until it answers or `within` passes on the program clock ([`pace::now`]): again after
/// 50 µs, then each time twice as long, up to 2 ms apart. For a program that is ending (its pipe
/// closed, its stdin just closed): most end within a millisecond, and a fixed 2 ms sleep left its
/// core idle for the rest of the sleep at every game's end.
pub fn briefly<T>(within: Duration, mut look: impl FnMut() -> Option<T>) -> Option<T> {
    let until = pace::now() + within;
    let mut pause = IDLE_FIRST;
    loop {
        if let Some(answer) = look() {
            return Some(answer);
        }
        let now = pace::now();
        if now >= until {
            return None;
        }
        std::thread::sleep(pause.min(until - now));
        pause = (pause * 2).min(BRIEF_TICK);
    }
}

/// How `running` ended, if it does within `within` ([`briefly`]); `None` also when it cannot be
/// asked (a closed pipe or terminal with no end to report).
pub fn ended_within(running: &mut dyn Running, within: Duration) -> Option<Status> {
    briefly(within, || match running.try_wait() {
        Ok(None) => None,
        Ok(Some(status)) => Some(Some(status)),
        Err(_) => Some(None),
    })
    .flatten()
}

/// Runs a started program to completion under `spec.limits` and reports what happened.
///
/// `Stdin::Bytes` is written and then closed; `Stdin::Piped` is closed at once (nobody is there to
/// write it), as is the grader's typing end of a `Stdin::Terminal`; `Stdin::Null` needs nothing. Wall time is measured from the call.
pub fn drive(mut running: Box<dyn Running>, spec: &Spec) -> Result<Outcome, SandboxError> {
    let start = pace::now();
    let limits = &spec.limits;
    let cap = usize::try_from(limits.output).unwrap_or(usize::MAX);
    let mut stdin = Feed::open(&mut *running, &spec.stdin)?;
    let mut stdout = Capture::new(running.take_stdout(), cap)?;
    let mut stderr = Capture::new(running.take_stderr(), cap)?;
    let deadline = start + limits.wall;
    let mut limit: Option<LimitHit> = None;
    let mut status: Option<Status> = None;
    let mut ended_at: Option<Instant> = None;
    let mut terminated_at: Option<Instant> = None;
    let mut sampled_at = start;
    let mut idle = IDLE_FIRST;
    let mut watch = limits.idle.map(|l| Watch::new(Some(l)));
    // Wall time is this thread's program clock: time stopped for want of a core is not on it.
    let mut pace = pace::Wait::start();

    loop {
        if status.is_none() {
            status = running.try_wait()?;
            if status.is_some() {
                ended_at = Some(pace::now());
                stdin = None;
            }
        }
        let now = pace::now();
        let wake_by = if let Some(ended) = ended_at {
            if stdout.done() && stderr.done() || now >= ended + DRAIN_GRACE {
                break;
            }
            ended + DRAIN_GRACE
        } else {
            if now >= deadline && terminated_at.is_none() {
                limit.get_or_insert(LimitHit::Wall);
                running.terminate();
                terminated_at = Some(now);
            }
            if let Some(at) = terminated_at {
                if now >= at + TERM_GRACE {
                    running.kill();
                    continue;
                }
            }
            if now >= sampled_at + SAMPLE_EVERY {
                sampled_at = now;
                if let Some(hit) = over_limits(&mut *running, limits) {
                    limit.get_or_insert(hit);
                    running.kill();
                    stdin = None;
                    continue;
                }
            }
            if terminated_at.is_none()
                && watch
                    .as_mut()
                    .and_then(|w| w.check(&mut *running, None))
                    .is_some()
            {
                limit.get_or_insert(LimitHit::Idle);
                running.kill();
                stdin = None;
                continue;
            }
            if terminated_at.is_none() {
                pace.look(&mut *running);
            }
            match terminated_at {
                Some(at) => at + TERM_GRACE,
                None => deadline,
            }
        };
        let timeout = wake_by.saturating_duration_since(now).min(TICK);

        wait_for_pipes(&stdout, &stderr, stdin.as_ref(), timeout, &mut idle)?;

        if pump(&mut stdout, &mut stderr, &mut stdin)? {
            limit.get_or_insert(LimitHit::Output);
            running.kill();
            stdin = None;
        }
    }

    pace.done(None, false);
    let ended_at = ended_at.unwrap_or_else(pace::now);
    let status = status.unwrap_or(Status::Signaled(libc::SIGKILL));
    outcome(
        &mut *running,
        limits,
        ended_at - start,
        status,
        limit,
        stdout,
        stderr,
    )
}

/// What a run that is over did: its usage read now, stderr read back from its file, and the limit
/// the kernel enforced when the grader stopped it at none.
fn outcome(
    running: &mut dyn Running,
    limits: &Limits,
    wall: Duration,
    status: Status,
    limit: Option<LimitHit>,
    stdout: Capture,
    mut stderr: Capture,
) -> Result<Outcome, SandboxError> {
    let usage = running.usage();
    stderr.unspool()?;
    let limit = limit.or_else(|| kernel_limit(status, &usage, limits, stderr.spooled));
    // Stopped writing to stderr: it had more to say than the file holds.
    stderr.truncated |= limit == Some(LimitHit::Stderr);
    Ok(Outcome {
        status,
        cpu: usage.cpu,
        wall,
        peak_memory: usage.peak_memory,
        stdout: stdout.buf,
        stderr: stderr.buf,
        stdout_truncated: stdout.truncated,
        stderr_truncated: stderr.truncated,
        limit,
    })
}

/// Reads what the program wrote and writes what it may read next; true when stdout went past its cap.
fn pump(
    stdout: &mut Capture,
    stderr: &mut Capture,
    stdin: &mut Option<Feed>,
) -> Result<bool, SandboxError> {
    let over = stdout.read().map_err(io_err("reading stdout"))?;
    // Past its cap stderr is only drained: a chatty program is not a failing one.
    stderr.read().map_err(io_err("reading stderr"))?;
    if let Some(feed) = stdin {
        if feed.write().map_err(io_err("writing stdin"))? {
            *stdin = None;
        }
    }
    Ok(over)
}

/// A limit the driver did not see hit: the kernel's (SIGXCPU, the OOM killer's, the file-size limit on
/// the stderr file of `stderr` bytes).
fn kernel_limit(status: Status, usage: &Usage, limits: &Limits, stderr: u64) -> Option<LimitHit> {
    match status {
        Status::Signaled(libc::SIGXCPU) => Some(LimitHit::Cpu),
        Status::Signaled(libc::SIGXFSZ) if stderr >= limits.file_size => Some(LimitHit::Stderr),
        Status::Signaled(libc::SIGKILL) if usage.cpu >= limits.cpu => Some(LimitHit::Cpu),
        _ if usage.oom => Some(LimitHit::Memory),
        _ => None,
    }
}

/// The CPU or memory limit, when the program's usage is past it.
fn over_limits(running: &mut dyn Running, limits: &Limits) -> Option<LimitHit> {
    let usage = running.usage();
    let over_memory = usage.oom || usage.peak_memory.is_some_and(|m| m > limits.memory);
    if over_memory {
        Some(LimitHit::Memory)
    } else {
        (usage.cpu > limits.cpu).then_some(LimitHit::Cpu)
    }
}

/// Waits up to `timeout` for output to read or room to write stdin. With both output pipes closed
/// (the program is most likely exiting) it sleeps instead: soon, then less often, so short runs end
/// promptly without spinning on one that closed its output and runs on.
fn wait_for_pipes(
    stdout: &Capture,
    stderr: &Capture,
    stdin: Option<&Feed>,
    timeout: Duration,
    idle: &mut Duration,
) -> Result<(), SandboxError> {
    let mut fds = Vec::with_capacity(3);
    for file in [stdout.file.as_ref(), stderr.file.as_ref()]
        .into_iter()
        .flatten()
    {
        fds.push(pollfd(file, libc::POLLIN));
    }
    if let Some(feed) = stdin {
        fds.push(pollfd(&feed.file, libc::POLLOUT));
    }
    if fds.is_empty() {
        std::thread::sleep((*idle).min(timeout));
        *idle = (*idle * 2).min(TICK);
        return Ok(());
    }
    poll(&mut fds, timeout).map_err(io_err("waiting for output"))?;
    Ok(())
}

/// Bytes still to be written to the program's stdin.
struct Feed<'a> {
    file: File,
    bytes: &'a [u8],
    written: usize,
}

impl<'a> Feed<'a> {
    /// What to write for `stdin`: `Stdin::Bytes` is written and then closed; `Stdin::Piped` is closed
    /// at once (nobody is there to write it), as is the grader's typing end of a `Stdin::Terminal`.
    fn open(running: &mut dyn Running, stdin: &'a Stdin) -> Result<Option<Feed<'a>>, SandboxError> {
        match stdin {
            Stdin::Bytes(bytes) => match running.take_stdin() {
                Some(file) => {
                    set_nonblocking(&file).map_err(io_err("setting up stdin"))?;
                    Ok(Some(Feed {
                        file,
                        bytes,
                        written: 0,
                    }))
                }
                None => Ok(None),
            },
            // Nobody types on a terminal here either: what the program reads waits for the limits.
            Stdin::Piped | Stdin::Terminal => {
                drop(running.take_stdin());
                Ok(None)
            }
            Stdin::Null => Ok(None),
        }
    }

    /// Writes what the pipe takes now; true when finished (all written, or the reader is gone).
    fn write(&mut self) -> io::Result<bool> {
        while self.written < self.bytes.len() {
            match self.file.write(&self.bytes[self.written..]) {
                Ok(0) => return Ok(true),
                Ok(n) => self.written += n,
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => return Ok(false),
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                // The program closed stdin or ended without reading it all: its business, not ours.
                Err(e) if e.kind() == io::ErrorKind::BrokenPipe => return Ok(true),
                Err(e) => return Err(e),
            }
        }
        Ok(true)
    }
}

/// One output pipe and what has been kept of it.
struct Capture {
    file: Option<File>,
    buf: Vec<u8>,
    cap: usize,
    truncated: bool,
    chunk: Box<[u8]>,
    /// A run's stderr file, read once the run is over (`sink.rs`), and then its size.
    spool: Option<File>,
    spooled: u64,
}

impl Capture {
    fn new(file: Option<File>, cap: usize) -> Result<Capture, SandboxError> {
        let (file, spool) = match file {
            Some(file) if sink::is_file(&file) => (None, Some(file)),
            file => (file, None),
        };
        if let Some(file) = &file {
            set_nonblocking(file).map_err(io_err("setting up output pipes"))?;
        }
        Ok(Capture {
            file,
            buf: Vec::new(),
            cap,
            truncated: false,
            chunk: vec![0u8; CHUNK].into_boxed_slice(),
            spool,
            spooled: 0,
        })
    }

    /// Once the run is over: the first `cap` bytes of a stderr file, and its size.
    fn unspool(&mut self) -> Result<(), SandboxError> {
        if let Some(spool) = self.spool.take() {
            let (kept, more, size) =
                sink::collect(&spool, self.cap).map_err(io_err("reading stderr"))?;
            (self.buf, self.truncated, self.spooled) = (kept, more, size);
        }
        Ok(())
    }

    fn done(&self) -> bool {
        self.file.is_none()
    }

    /// Reads what is available; true the first time the output goes past the cap.
    fn read(&mut self) -> io::Result<bool> {
        let Some(file) = &mut self.file else {
            return Ok(false);
        };
        let mut overflowed = false;
        for _ in 0..READS_PER_WAKE {
            match file.read(&mut self.chunk[..]) {
                Ok(0) => {
                    self.file = None;
                    break;
                }
                Ok(n) => {
                    let room = self.cap.saturating_sub(self.buf.len());
                    self.buf.extend_from_slice(&self.chunk[..n.min(room)]);
                    if n > room && !self.truncated {
                        self.truncated = true;
                        overflowed = true;
                    }
                }
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => break,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        Ok(overflowed)
    }
}

fn pollfd(file: &File, events: libc::c_short) -> libc::pollfd {
    libc::pollfd {
        fd: file.as_raw_fd(),
        events,
        revents: 0,
    }
}

/// poll(2) for at most `timeout`; EINTR counts as a wake-up.
pub(crate) fn poll(fds: &mut [libc::pollfd], timeout: Duration) -> io::Result<usize> {
    let r = poll_raw(fds, Some(timeout));
    if r < 0 {
        let err = io::Error::last_os_error();
        if err.kind() == io::ErrorKind::Interrupted {
            return Ok(0);
        }
        return Err(err);
    }
    Ok(r as usize)
}

/// poll(2) for `left` (forever when `None`), as the raw call returns. Linux's `ppoll` takes
/// nanoseconds: a dialogue's looks come half a millisecond apart, and `poll`'s whole milliseconds
/// made each one a millisecond with the program and its core idle.
#[cfg(target_os = "linux")]
pub(crate) fn poll_raw(fds: &mut [libc::pollfd], left: Option<Duration>) -> libc::c_int {
    let timeout = left.map(|d| libc::timespec {
        tv_sec: libc::time_t::try_from(d.as_secs()).unwrap_or(libc::time_t::MAX),
        tv_nsec: libc::c_long::from(d.subsec_nanos()),
    });
    let timeout = timeout
        .as_ref()
        .map_or(std::ptr::null(), std::ptr::from_ref);
    // SAFETY: fds is a valid, exclusively borrowed slice of pollfd; the timeout, when given,
    // outlives the call; no signal mask is passed.
    unsafe {
        libc::ppoll(
            fds.as_mut_ptr(),
            fds.len() as libc::nfds_t,
            timeout,
            std::ptr::null(),
        )
    }
}

#[cfg(not(target_os = "linux"))]
pub(crate) fn poll_raw(fds: &mut [libc::pollfd], left: Option<Duration>) -> libc::c_int {
    // Whole milliseconds, rounded up, so a wait never ends a hair before its deadline and spins.
    let ms = left.map_or(-1, |d| {
        d.as_micros().div_ceil(1000).min(i32::MAX as u128) as libc::c_int
    });
    // SAFETY: fds is a valid, exclusively borrowed slice of pollfd.
    unsafe { libc::poll(fds.as_mut_ptr(), fds.len() as libc::nfds_t, ms) }
}

/// Sets O_NONBLOCK on our end of a pipe (the program's end is a separate open file and stays blocking).
pub fn set_nonblocking(file: &File) -> io::Result<()> {
    let fd = file.as_raw_fd();
    // SAFETY: fcntl on a descriptor we own.
    let flags = unsafe { libc::fcntl(fd, libc::F_GETFL) };
    if flags < 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: as above.
    if unsafe { libc::fcntl(fd, libc::F_SETFL, flags | libc::O_NONBLOCK) } < 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

fn io_err(doing: &'static str) -> impl Fn(io::Error) -> SandboxError {
    move |source| SandboxError::Io { doing, source }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn briefly_answers_at_the_first_look_that_answers() {
        let mut looks = 0;
        let answer = briefly(Duration::from_secs(5), || {
            looks += 1;
            (looks == 3).then_some("ended")
        });
        assert_eq!((answer, looks), (Some("ended"), 3));
    }

    #[test]
    fn briefly_gives_up_when_its_time_is_over_having_looked_a_few_times() {
        let mut looks = 0;
        let started = Instant::now();
        let answer: Option<()> = briefly(Duration::from_millis(10), || {
            looks += 1;
            None
        });
        assert_eq!(answer, None);
        assert!(started.elapsed() >= Duration::from_millis(10));
        // 50 µs, doubling to 2 ms: sleeps at least that long cover 10 ms in 10 sleeps, so 11 looks at
        // most (a sleep is never shorter than asked), and at least one after the first.
        assert!((2..=11).contains(&looks), "{looks} looks");
    }

    /// A poll waits out the time it is given, to the microsecond, never less; without one, until the
    /// descriptor is ready; a descriptor ready at once answers at once.
    #[test]
    fn a_poll_waits_its_whole_time_and_wakes_for_a_ready_descriptor() {
        use std::io::Write;
        let mut ends = [0; 2];
        // SAFETY: two ints for the two ends.
        assert_eq!(unsafe { libc::pipe(ends.as_mut_ptr()) }, 0);
        // SAFETY: fresh descriptors, each owned once.
        let (read, mut write) = unsafe {
            use std::os::fd::FromRawFd;
            (File::from_raw_fd(ends[0]), File::from_raw_fd(ends[1]))
        };
        let mut fds = [pollfd(&read, libc::POLLIN)];
        for wait in [Duration::from_micros(2500), Duration::from_millis(20)] {
            let start = Instant::now();
            assert_eq!(poll_raw(&mut fds, Some(wait)), 0);
            assert!(
                start.elapsed() >= wait,
                "{wait:?}: woke after {:?}",
                start.elapsed()
            );
        }
        write.write_all(b"x").unwrap();
        assert_eq!(poll_raw(&mut fds, None), 1);
        assert_eq!(poll_raw(&mut fds, Some(Duration::ZERO)), 1);
        assert_ne!(fds[0].revents & libc::POLLIN, 0);
    }
}
