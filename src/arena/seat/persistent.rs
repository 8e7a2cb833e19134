//! The persistent protocol: one process per game, one line each way per turn (see PROTOCOLS.md).
//!
//! Referee → player, tab-separated: `game <name> <side> <limit-ms|none>` once, then `turn <side>
//! <last-move|none> <state>` each turn, then `end <summary>`. Player → referee: `ready` once, then one
//! move per `turn`.

use std::fs::File;
use std::io::Read;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::judge::excerpt::Folders;
use crate::sandbox::line::{write_all, Answer, Awaited, LineReader, ReadLine, Wrote};
use crate::sandbox::Usage;
use crate::sandbox::{Running, Sandbox, Spec, Stall, Status, Watch};

use crate::arena::game::ArenaGame;
use crate::arena::seat::{Reply, Seat, Start};
use crate::sandbox::drive::{briefly, ended_within};
use crate::sandbox::pace;

/// Longest reply line kept; more without a newline is a flood.
pub const LINE_CAP: usize = 64 * 1024;
/// Bytes of stderr kept for the record (the tail).
pub(crate) const STDERR_KEEP: usize = 4 * 1024;

/// A player process that lives for one game.
pub struct PersistentSeat {
    sandbox: Arc<dyn Sandbox>,
    spec: Spec,
    /// How long the program may take to answer `ready`: interpreters and JVMs start slowly, and that is
    /// not thinking time.
    startup: Duration,
    live: Option<Live>,
    stderr: Arc<Mutex<Vec<u8>>>,
    drain: Option<std::thread::JoinHandle<()>>,
    /// What the program used, once it is stopped.
    used: Option<Usage>,
}

struct Live {
    running: Box<dyn Running>,
    stdin: File,
    stdout: LineReader,
}

impl PersistentSeat {
    /// `spec.stdin` is forced to a pipe.
    #[must_use]
    pub fn new(sandbox: Arc<dyn Sandbox>, mut spec: Spec, startup: Duration) -> PersistentSeat {
        spec.stdin = crate::sandbox::Stdin::Piped;
        PersistentSeat {
            sandbox,
            spec,
            startup,
            live: None,
            stderr: Arc::new(Mutex::new(Vec::new())),
            drain: None,
            used: None,
        }
    }

    /// Starts the program without the player's `game`/`ready` greeting, for a process that speaks
    /// another line protocol through this seat's pipes and checks (a suite's rules program,
    /// `game::rules`).
    ///
    /// # Errors
    /// The program could not be started.
    pub(crate) fn launch(&mut self) -> Result<(), Reply> {
        let piped = spawn_piped(&*self.sandbox, &self.spec, &self.stderr)?;
        self.drain = piped.drain;
        self.live = Some(Live {
            running: piped.running,
            stdin: piped.stdin,
            stdout: LineReader::new(piped.stdout, LINE_CAP),
        });
        Ok(())
    }

    /// The tail of the program's stderr, printable, when it wrote any.
    pub(crate) fn kept_stderr(&self) -> Option<String> {
        let kept = self.stderr.lock().ok()?;
        (!kept.is_empty()).then(|| printable_tail(&kept, &self.spec))
    }

    /// Sends one line and reads one back, all before `deadline`; a program found waiting for input
    /// instead of answering (`sandbox::watch`) is `Reply::Waiting` at once.
    pub(crate) fn exchange(&mut self, line: &str, deadline: Option<Instant>) -> Reply {
        let Some(live) = self.live.as_mut() else {
            return Reply::Broken("the player is not running".into());
        };
        let mut bytes = line.as_bytes().to_vec();
        bytes.push(b'\n');
        match write_all(&mut live.stdin, &bytes, deadline) {
            Ok(Wrote::Done) => {}
            Ok(Wrote::Timeout) => return Reply::Timeout,
            Ok(Wrote::Closed) => return self.gone(),
            Err(e) => return Reply::Broken(format!("writing to the player: {e}")),
        }
        let mut awaited = Awaited {
            running: &mut *live.running,
            stdin: &live.stdin,
            watch: &mut Watch::new(None),
        };
        let read = match live.stdout.read_line_awaiting(deadline, &mut awaited) {
            Ok(Answer::Read(read)) => Ok(read),
            Ok(Answer::Stalled(Stall::Input)) => return Reply::Waiting(line.to_string()),
            Ok(Answer::Stalled(Stall::Idle(limit))) => return Reply::Idle(limit),
            // This seat sets no CPU budget; were one set, its end is the move's timeout.
            Ok(Answer::Stalled(Stall::Cpu)) => return Reply::Timeout,
            Err(e) => Err(e),
        };
        match read {
            Ok(ReadLine::Line(bytes)) => match String::from_utf8(bytes) {
                Ok(text) => Reply::Line(text),
                Err(_) => Reply::Garbage,
            },
            Ok(ReadLine::Timeout) => Reply::Timeout,
            Ok(ReadLine::TooLong(n)) => Reply::Flood(n),
            Ok(ReadLine::Eof) => self.gone(),
            Err(e) => Reply::Broken(format!("reading from the player: {e}")),
        }
    }

    /// The pipe closed: a crash if the process ended (given a moment to do so), else a closed pipe.
    fn gone(&mut self) -> Reply {
        closed(self.live.as_mut().map(|live| &mut live.running))
    }

    pub(crate) fn stop(&mut self) {
        if let Some(mut live) = self.live.take() {
            // Closing stdin lets a well-behaved player exit on its own; then the whole tree goes.
            drop(live.stdin);
            ended_within(&mut *live.running, Duration::from_millis(50));
            live.running.kill();
            self.used = Some(live.running.usage());
        }
        // Let the stderr reader catch up to the end of the pipe, but never wait on a process that
        // escaped the group and still holds it.
        if let Some(drain) = self.drain.take() {
            briefly(Duration::from_millis(100), || {
                drain.is_finished().then_some(())
            });
        }
    }
}

/// Why a player's pipe closed: a crash if its process ended (given a moment to do so), else a closed
/// pipe (also when it was never started).
pub fn closed(running: Option<&mut Box<dyn Running>>) -> Reply {
    let Some(running) = running else {
        return Reply::ClosedPipe;
    };
    match ended_within(&mut **running, Duration::from_millis(100)) {
        Some(status) => Reply::Crashed(describe(status)),
        None => Reply::ClosedPipe,
    }
}

/// A program started with its pipes.
pub struct Piped {
    pub running: Box<dyn Running>,
    pub stdin: File,
    pub stdout: File,
    /// The thread keeping the tail of its stderr, when it has one.
    pub drain: Option<std::thread::JoinHandle<()>>,
}

/// Starts `spec` with its stdin and stdout taken, and its stderr drained into `keep` (it is not part
/// of the protocol, but it must never fill up and block the program).
///
/// # Errors
/// A program that could not be started, or that the sandbox gave no pipes.
pub fn spawn_piped(
    sandbox: &dyn Sandbox,
    spec: &Spec,
    keep: &Arc<Mutex<Vec<u8>>>,
) -> Result<Piped, Reply> {
    let mut running = sandbox
        .spawn(spec)
        .map_err(|e| Reply::Broken(format!("{e:#}")))?;
    let (Some(stdin), Some(stdout)) = (running.take_stdin(), running.take_stdout()) else {
        running.kill();
        return Err(Reply::Broken("the sandbox gave no pipes".into()));
    };
    let drain = running
        .take_stderr()
        .map(|stderr| drain_stderr(stderr, Arc::clone(keep)));
    Ok(Piped {
        running,
        stdin,
        stdout,
        drain,
    })
}

/// `exit status 3`, `signal 11`.
#[must_use]
pub fn describe(status: Status) -> String {
    match status {
        Status::Exited(code) => format!("exit status {code}"),
        Status::Signaled(sig) => format!("signal {sig}"),
    }
}

impl<G: ArenaGame> Seat<G> for PersistentSeat {
    fn start(&mut self, start: &Start) -> Result<(), Reply> {
        self.launch()?;
        let limit = start
            .limit
            .map_or_else(|| "none".to_string(), |l| l.as_millis().to_string());
        let hello = format!("game\t{}\t{}\t{limit}", start.game, start.side_name);
        match self.exchange(&hello, Some(pace::now() + self.startup)) {
            Reply::Line(text) if text.trim() == "ready" => Ok(()),
            // The program's own account of why it cannot play (the UT3 adapter's "your file `x.py`
            // could not be loaded: ..."): said as it is, without the protocol around it.
            Reply::Line(text) if text.trim_start().starts_with("error:") => {
                self.stop();
                let why = text.trim_start()["error:".len()..].trim();
                Err(Reply::Fault(crate::untrusted::one_line(why, 400)))
            }
            Reply::Line(text) => {
                self.stop();
                Err(Reply::Broken(format!(
                    "it answered `{}` to `game`, not `ready`",
                    crate::untrusted::one_line(text.trim(), 80)
                )))
            }
            // The wait was the startup limit, not a move's: say which, and how long it was.
            Reply::Timeout => {
                self.stop();
                Err(Reply::Fault(format!(
                    "did not answer `ready` within the {} startup limit",
                    crate::arena::game::record::seconds(self.startup)
                )))
            }
            fault => {
                self.stop();
                Err(fault)
            }
        }
    }

    fn request(&mut self, state: &G, last: Option<&str>, deadline: Option<Duration>) -> Reply {
        let side = G::side_name(state.to_move());
        let last = last.unwrap_or(G::no_move());
        let line = format!("turn\t{side}\t{last}\t{}", state.encode());
        let reply = self.exchange(&line, deadline.map(|d| pace::now() + d));
        if !matches!(reply, Reply::Line(_)) {
            self.stop();
        }
        reply
    }

    fn finish(&mut self, summary: &str, _unseen: Option<&str>) -> Option<String> {
        if let Some(live) = self.live.as_mut() {
            let line = format!("end\t{summary}\n");
            let soon = Some(pace::now() + Duration::from_millis(20));
            let _ = write_all(&mut live.stdin, line.as_bytes(), soon);
        }
        self.stop();
        None
    }

    fn stderr_tail(&mut self) -> Option<String> {
        let kept = self.stderr.lock().ok()?;
        (!kept.is_empty()).then(|| printable_tail(&kept, &self.spec))
    }

    fn usage(&self) -> Option<Usage> {
        self.used
    }
}

impl Drop for PersistentSeat {
    fn drop(&mut self) {
        self.stop();
    }
}

/// A kept stderr tail (already capped in bytes) for the record: control bytes escaped, lines kept, and
/// the run's own folders (`spec`'s copy and working folder, different on every run) made relative.
pub(crate) fn printable_tail(bytes: &[u8], spec: &Spec) -> String {
    let folders = Folders::new(
        spec.read_only
            .iter()
            .map(PathBuf::as_path)
            .chain([spec.workdir.as_path()]),
    );
    let text = folders.relative(&String::from_utf8_lossy(bytes));
    crate::untrusted::block(&text, STDERR_KEEP)
}

/// Keeps the tail of a player's stderr without ever blocking the player on a full pipe.
pub(crate) fn drain_stderr(
    mut file: File,
    keep: Arc<Mutex<Vec<u8>>>,
) -> std::thread::JoinHandle<()> {
    std::thread::spawn(move || {
        let mut chunk = [0u8; 8 * 1024];
        while let Ok(n) = file.read(&mut chunk) {
            if n == 0 {
                break;
            }
            if let Ok(mut kept) = keep.lock() {
                kept.extend_from_slice(&chunk[..n]);
                if kept.len() > STDERR_KEEP {
                    let cut = kept.len() - STDERR_KEEP;
                    kept.drain(..cut);
                }
            }
        }
    })
}
