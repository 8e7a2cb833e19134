//! Talking to a program on a terminal (`Stdin::Terminal`): typing a line, and hearing everything it
//! prints until it waits for input again (the watch finds it reading its terminal), ends, floods, sleeps
//! or runs past the deadline. What it printed is untrusted: capped, read without blocking, and rendered
//! as a terminal would show it (`screen.rs`) before anything reads it.

use std::fs::File;
use std::io::Read;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::arena::seat::persistent::{describe, STDERR_KEEP};
use crate::arena::seat::Reply;
use crate::sandbox::line::{self, Awaited, Wrote};
use crate::sandbox::{drive, pace, Running, Sandbox, Spec, Stall, Watch};

use super::screen;
use super::transcript::Transcript;

/// Most bytes a program may print between two inputs; more is a flood.
pub const WINDOW: usize = 64 * 1024;

/// Why hearing stopped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stop {
    /// It waits for input.
    Waiting,
    /// It ended (`exit status 1`, `signal 11`), or closed its terminal.
    Ended(String),
    /// The deadline passed while it worked.
    Timeout,
    Flood(usize),
    /// It slept this long without reading anything.
    Idle(Duration),
    /// The grader could not talk to it (its own fault).
    Broken(String),
}

/// How long hearing may last: until `wall`, and under a CPU clock until the program's whole process
/// tree has used `cpu` of CPU time in all (`Io::cpu` before, plus what it may use now).
#[derive(Clone, Copy, Debug)]
pub struct Until {
    pub wall: Instant,
    pub cpu: Option<Duration>,
}

impl From<Instant> for Until {
    fn from(wall: Instant) -> Until {
        Until { wall, cpu: None }
    }
}

/// What a program printed since the grader last typed, and why hearing stopped.
#[derive(Clone, Debug)]
pub struct Heard {
    /// As a terminal shows it (`screen::render`).
    pub text: String,
    pub stop: Stop,
}

impl Heard {
    /// The stop as a fault of the program's, for the referee.
    #[must_use]
    pub fn fault(&self, sent: &str) -> Reply {
        match &self.stop {
            Stop::Waiting => Reply::Waiting(sent.to_string()),
            Stop::Ended(how) => Reply::Crashed(how.clone()),
            Stop::Timeout => Reply::Timeout,
            Stop::Flood(n) => Reply::Flood(*n),
            Stop::Idle(d) => Reply::Idle(*d),
            Stop::Broken(why) => Reply::Broken(why.clone()),
        }
    }
}

/// A started program on a terminal.
pub struct Io {
    running: Box<dyn Running>,
    keys: File,
    screen: File,
    /// Its stderr, read without blocking: at a keyboard it is the same terminal, and Python's
    /// `input()` on a terminal writes its prompt there.
    errors: Option<File>,
    /// The tail of its stderr, for the feedback on a crash.
    kept: Arc<Mutex<Vec<u8>>>,
    /// Bytes printed since the last line typed.
    raw: Vec<u8>,
    /// What it wrote to stderr since then, put on the screen after its stdout when hearing stops:
    /// a terminal passes stdout on a moment later than a pipe passes stderr, so reading both as
    /// they come would put a prompt before the board printed ahead of it.
    pending: Vec<u8>,
    ended: Option<String>,
    idle: Option<Duration>,
    /// The last line typed, for a program found waiting for more.
    pub sent: String,
}

impl Io {
    /// Starts `spec` on a terminal; its stderr goes to `stderr`.
    ///
    /// # Errors
    /// A program that could not be started (the grader's or the machine's reason).
    pub fn start(
        sandbox: &dyn Sandbox,
        spec: &Spec,
        stderr: &Arc<Mutex<Vec<u8>>>,
    ) -> Result<Io, Reply> {
        let mut running = sandbox
            .spawn(spec)
            .map_err(|e| Reply::Broken(format!("{e:#}")))?;
        let (Some(keys), Some(screen)) = (running.take_stdin(), running.take_stdout()) else {
            running.kill();
            return Err(Reply::Broken("the sandbox gave no terminal".into()));
        };
        let errors = running.take_stderr();
        for file in std::iter::once(&screen).chain(errors.as_ref()) {
            if let Err(e) = crate::sandbox::drive::set_nonblocking(file) {
                running.kill();
                return Err(Reply::Broken(e.to_string()));
            }
        }
        Ok(Io {
            running,
            keys,
            screen,
            errors,
            kept: Arc::clone(stderr),
            raw: Vec::new(),
            pending: Vec::new(),
            ended: None,
            idle: spec.limits.idle,
            sent: String::new(),
        })
    }

    /// Types `text` and Enter.
    pub fn type_line(
        &mut self,
        text: &str,
        deadline: Instant,
        transcript: &mut Transcript,
    ) -> Result<(), Stop> {
        let mut bytes = text.as_bytes().to_vec();
        bytes.push(b'\n');
        self.sent = text.to_string();
        transcript.typed(text);
        self.raw.clear();
        self.pending.clear();
        match line::write_all(&mut self.keys, &bytes, Some(deadline)) {
            Ok(Wrote::Done) => Ok(()),
            Ok(Wrote::Timeout) => Err(Stop::Timeout),
            Ok(Wrote::Closed) => Err(self.gone()),
            Err(e) => Err(Stop::Broken(format!("typing at the program: {e}"))),
        }
    }

    /// Everything printed from now until the program waits for input, ends, floods, idles, or
    /// `until` passes.
    pub fn hear(&mut self, until: Until, transcript: &mut Transcript) -> Heard {
        let stop = self.listen(until, transcript);
        // What it wrote to stderr before it stopped is on the screen too, after what it printed.
        self.read_errors();
        if !self.pending.is_empty() {
            // The terminal may still hold the end of what it printed before that, in the kernel's
            // work that passes it on: a poll of the terminal's end runs that work first
            // (`n_tty_poll`), so what it finds is all of it.
            loop {
                let before = self.raw.len();
                if !matches!(
                    line::wait(&self.screen, libc::POLLIN, Some(pace::now())),
                    Ok(true)
                ) {
                    break;
                }
                match self.read_some(transcript) {
                    Ok(true) if self.raw.len() > before && self.raw.len() <= WINDOW => {}
                    _ => break,
                }
            }
        }
        let errors = std::mem::take(&mut self.pending);
        self.raw.extend_from_slice(&errors);
        transcript.printed(&errors);
        Heard {
            text: screen::render(&self.raw),
            stop,
        }
    }

    fn listen(&mut self, until: Until, transcript: &mut Transcript) -> Stop {
        if let Some(how) = &self.ended {
            return Stop::Ended(how.clone());
        }
        let deadline = until.wall;
        let mut watch = Watch::new(self.idle).cpu_until(until.cpu);
        let mut responsive = false;
        loop {
            self.read_errors();
            if self.raw.len() + self.pending.len() > WINDOW {
                return Stop::Flood(self.raw.len() + self.pending.len());
            }
            let printed = !self.raw.is_empty() || !self.pending.is_empty();
            if !responsive && printed {
                // It printed since the grader typed: it has read that, so a read now waits for more.
                watch = Watch::responsive(self.idle).cpu_until(until.cpu);
                responsive = true;
            }
            let waited = {
                let mut awaited = Awaited {
                    running: &mut *self.running,
                    stdin: &self.keys,
                    watch: &mut watch,
                };
                // Its stderr too: a prompt written there (Python's `input()` on a terminal) is
                // printing as much as one on the terminal.
                let outputs: Vec<&File> = std::iter::once(&self.screen)
                    .chain(self.errors.as_ref())
                    .collect();
                line::wait_awaiting(&outputs, Some(deadline), &mut awaited)
            };
            match waited {
                Ok(Ok(true)) => match self.read_some(transcript) {
                    Ok(true) => watch.heard(),
                    Ok(false) => return self.gone(),
                    Err(stop) => return stop,
                },
                Ok(Ok(false)) => return self.timeout_or_gone(),
                Ok(Err(Stall::Input)) => return Stop::Waiting,
                Ok(Err(Stall::Idle(d))) => return Stop::Idle(d),
                Ok(Err(Stall::Cpu)) => return self.timeout_or_gone(),
                Err(e) => return Stop::Broken(format!("reading the program's terminal: {e}")),
            }
        }
    }

    /// Reads what is there; `Ok(false)` when the terminal's far side is gone.
    fn read_some(&mut self, transcript: &mut Transcript) -> Result<bool, Stop> {
        let mut chunk = [0u8; 8 * 1024];
        match self.screen.read(&mut chunk) {
            Ok(0) => Ok(false),
            Ok(n) => {
                self.raw.extend_from_slice(&chunk[..n]);
                transcript.printed(&chunk[..n]);
                Ok(true)
            }
            // The last holder of the terminal's slave closed it: the program is gone.
            Err(e) if e.raw_os_error() == Some(libc::EIO) => Ok(false),
            Err(e)
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::Interrupted
                ) =>
            {
                Ok(true)
            }
            Err(e) => Err(Stop::Broken(format!("reading the program's terminal: {e}"))),
        }
    }

    /// Reads what its stderr holds now, without blocking: onto the screen and into the kept tail.
    fn read_errors(&mut self) {
        let Some(file) = self.errors.as_mut() else {
            return;
        };
        let mut chunk = [0u8; 8 * 1024];
        loop {
            match file.read(&mut chunk) {
                // Its end, or a pipe that fails: nothing more comes, and it is not waited on again.
                Ok(0) => {
                    self.errors = None;
                    return;
                }
                Err(e)
                    if matches!(
                        e.kind(),
                        std::io::ErrorKind::WouldBlock | std::io::ErrorKind::Interrupted
                    ) =>
                {
                    return
                }
                Err(_) => {
                    self.errors = None;
                    return;
                }
                Ok(n) => {
                    self.pending.extend_from_slice(&chunk[..n]);
                    if let Ok(mut kept) = self.kept.lock() {
                        kept.extend_from_slice(&chunk[..n]);
                        let over = kept.len().saturating_sub(STDERR_KEEP);
                        kept.drain(..over);
                    }
                    if self.pending.len() > WINDOW {
                        return;
                    }
                }
            }
        }
    }

    /// The deadline passed: a timeout, unless the program had ended meanwhile.
    fn timeout_or_gone(&mut self) -> Stop {
        match self.running.try_wait() {
            Ok(Some(status)) => {
                let how = describe(status);
                self.ended = Some(how.clone());
                Stop::Ended(how)
            }
            _ => Stop::Timeout,
        }
    }

    /// The program closed its terminal: how it ended (it may take a moment to be reaped).
    fn gone(&mut self) -> Stop {
        let how = drive::ended_within(&mut *self.running, Duration::from_millis(200))
            .map_or_else(|| "closed its terminal".to_string(), describe);
        self.ended = Some(how.clone());
        Stop::Ended(how)
    }

    /// The CPU time its whole process tree has used so far.
    pub fn cpu(&mut self) -> Duration {
        self.running.group_cpu()
    }

    /// Whether it has ended.
    #[must_use]
    pub fn ended(&self) -> bool {
        self.ended.is_some()
    }

    /// Kills the program's whole tree and says what it used.
    pub fn stop(mut self) -> crate::sandbox::Usage {
        self.running.kill();
        self.running.usage()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sandbox::{BasicSandbox, Limits, Stdin};

    fn spec(script: &str, dir: &std::path::Path) -> Spec {
        Spec {
            program: "/bin/sh".into(),
            args: vec!["-c".into(), script.into()],
            workdir: dir.to_owned(),
            env: vec![],
            stdin: Stdin::Terminal,
            limits: Limits {
                cpu: Duration::from_secs(10),
                wall: Duration::from_secs(10),
                memory: 64 << 20,
                output: 1 << 16,
                file_size: 1 << 20,
                processes: 8,
                open_files: 64,
                stack: 8 << 20,
                address_space: None,
                idle: Some(Duration::from_secs(5)),
            },
            read_only: vec![],
        }
    }

    /// A prompt written to stderr (Python's `input()` on a terminal writes it there) is heard, after
    /// what the program printed on the terminal before it, whether or not it printed there at all;
    /// a program that then ends, its stderr closed, is heard to end.
    #[test]
    fn a_prompt_on_stderr_is_heard_in_order_and_the_end_after_it() {
        let dir = tempfile::tempdir().unwrap();
        let script =
            "printf 'Move: ' >&2; read m; echo \"board $m\"; printf 'Again: ' >&2; read m; \
                      printf 'Bye' >&2; exit 3";
        let kept = Arc::new(Mutex::new(Vec::new()));
        let mut io = Io::start(&BasicSandbox, &spec(script, dir.path()), &kept).unwrap();
        let mut transcript = Transcript::default();
        let until = || Until::from(Instant::now() + Duration::from_secs(10));
        let heard = io.hear(until(), &mut transcript);
        assert_eq!((heard.stop, heard.text.as_str()), (Stop::Waiting, "Move: "));
        io.type_line(
            "5",
            Instant::now() + Duration::from_secs(10),
            &mut transcript,
        )
        .unwrap();
        let heard = io.hear(until(), &mut transcript);
        assert_eq!(heard.stop, Stop::Waiting);
        assert_eq!(heard.text, "board 5\nAgain: ");
        io.type_line(
            "6",
            Instant::now() + Duration::from_secs(10),
            &mut transcript,
        )
        .unwrap();
        let heard = io.hear(until(), &mut transcript);
        assert_eq!(
            heard.stop,
            Stop::Ended("exit status 3".into()),
            "{}",
            heard.text
        );
        assert_eq!(heard.text, "Bye");
    }
}
