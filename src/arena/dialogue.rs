//! The dialogue protocol: drives a program written for a human (WPI's interactive tic-tac-toe) with an
//! expect-style script from the suite: prompts matched by regexes, moves sent from templates, the
//! program's own moves parsed from what it prints. Prompts need not end in a newline.

use std::fs::File;
use std::io::Read;
use std::sync::Arc;
use std::time::{Duration, Instant};

use regex::Regex;

use crate::sandbox::{Running, Sandbox, Spec, Stdin};

use super::game::ArenaGame;
use super::lines::{self, Wrote};
use super::persistent::describe;
use super::seat::{Reply, Seat, Start};

/// Most output kept while looking for a pattern; more without a match is a flood.
const WINDOW: usize = 64 * 1024;

/// One step of the opening script: wait for `expect`, then send `send`, with `{side}` (`x`/`o`),
/// `{first}` (`y` when this program moves first, else `n`) and `{opponent-first}` (the reverse: what a
/// human answers to "do you want to go first?") filled in.
#[derive(Clone, Debug)]
pub struct Step {
    pub expect: Regex,
    pub send: String,
}

/// A suite's dialogue script, checked.
#[derive(Clone, Debug)]
pub struct Script {
    pub opening: Vec<Step>,
    /// The program asks for the opponent's move.
    pub prompt: Regex,
    /// What answers the prompt; `{move}` is the opponent's move in the game's notation.
    pub send: String,
    /// The program's own move; the named group `move` (or the whole match) is its notation.
    pub reply: Regex,
    /// The program's end-of-game message (WPI: "detects the end"), checked after the last move.
    pub end: Option<Regex>,
    /// How long each expect may wait when no per-move clock applies (the opening, mostly).
    pub expect_timeout: Duration,
}

/// A program with a human interface, talked to through a `Script`.
pub struct DialogueSeat {
    sandbox: Arc<dyn Sandbox>,
    spec: Spec,
    script: Script,
    live: Option<Live>,
    side: &'static str,
}

struct Live {
    running: Box<dyn Running>,
    stdin: File,
    stdout: File,
    seen: Vec<u8>,
    eof: bool,
}

/// What a wait for a pattern found.
enum Found {
    /// The text of the `move` group (or the whole match).
    Match(String),
    Fault(Reply),
}

impl DialogueSeat {
    #[must_use]
    pub fn new(sandbox: Arc<dyn Sandbox>, mut spec: Spec, script: Script) -> DialogueSeat {
        spec.stdin = Stdin::Piped;
        DialogueSeat {
            sandbox,
            spec,
            script,
            live: None,
            side: "x",
        }
    }

    fn send(&mut self, text: &str, deadline: Option<Instant>) -> Result<(), Reply> {
        let Some(live) = self.live.as_mut() else {
            return Err(Reply::Broken("the program is not running".into()));
        };
        let mut bytes = text.as_bytes().to_vec();
        bytes.push(b'\n');
        match lines::write_all(&mut live.stdin, &bytes, deadline) {
            Ok(Wrote::Done) => Ok(()),
            Ok(Wrote::Timeout) => Err(Reply::Timeout),
            Ok(Wrote::Closed) => Err(self.gone()),
            Err(e) => Err(Reply::Broken(format!("writing to the program: {e}"))),
        }
    }

    /// Reads until `pattern` matches the output seen so far, consuming through the match.
    fn expect(&mut self, pattern: &Regex, deadline: Option<Instant>) -> Found {
        let mut chunk = [0u8; 8 * 1024];
        loop {
            let Some(live) = self.live.as_mut() else {
                return Found::Fault(Reply::Broken("the program is not running".into()));
            };
            let text = String::from_utf8_lossy(&live.seen).into_owned();
            if let Some(caps) = pattern.captures(&text) {
                let whole = caps.get(0).map_or(0..0, |m| m.range());
                let found = caps
                    .name("move")
                    .map_or_else(|| &text[whole.clone()], |m| m.as_str())
                    .trim()
                    .to_string();
                // Consume through the match (byte offsets agree while the text is valid UTF-8; on lossy
                // text, dropping everything seen is the safe choice).
                let cut = if text.len() == live.seen.len() {
                    whole.end
                } else {
                    live.seen.len()
                };
                live.seen.drain(..cut);
                return Found::Match(found);
            }
            if live.seen.len() > WINDOW {
                return Found::Fault(Reply::Flood(live.seen.len()));
            }
            if live.eof {
                return Found::Fault(self.gone());
            }
            match lines::wait(&live.stdout, libc::POLLIN, deadline) {
                Ok(true) => {}
                Ok(false) => return Found::Fault(Reply::Timeout),
                Err(e) => return Found::Fault(Reply::Broken(format!("{e}"))),
            }
            match live.stdout.read(&mut chunk) {
                Ok(0) => live.eof = true,
                Ok(n) => live.seen.extend_from_slice(&chunk[..n]),
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Found::Fault(Reply::Broken(format!("{e}"))),
            }
        }
    }

    fn gone(&mut self) -> Reply {
        let Some(live) = self.live.as_mut() else {
            return Reply::ClosedPipe;
        };
        let until = Instant::now() + Duration::from_millis(100);
        loop {
            match live.running.try_wait() {
                Ok(Some(status)) => return Reply::Crashed(describe(status)),
                Ok(None) if Instant::now() < until => std::thread::sleep(Duration::from_millis(2)),
                _ => return Reply::ClosedPipe,
            }
        }
    }

    fn stop(&mut self) {
        if let Some(mut live) = self.live.take() {
            live.running.kill();
        }
    }
}

impl<G: ArenaGame> Seat<G> for DialogueSeat {
    fn start(&mut self, start: &Start) -> Result<(), Reply> {
        let mut running = self
            .sandbox
            .spawn(&self.spec)
            .map_err(|e| Reply::Broken(format!("{e:#}")))?;
        let (Some(stdin), Some(stdout)) = (running.take_stdin(), running.take_stdout()) else {
            running.kill();
            return Err(Reply::Broken("the sandbox gave no pipes".into()));
        };
        // The program's stderr is not part of the dialogue, but it must never fill up and block it.
        if let Some(stderr) = running.take_stderr() {
            let _reader = super::persistent::drain_stderr(stderr, Arc::default());
        }
        self.live = Some(Live {
            running,
            stdin,
            stdout,
            seen: Vec::new(),
            eof: false,
        });
        self.side = start.side_name;
        let (first, theirs) = if start.side == reference::Player::First {
            ("y", "n")
        } else {
            ("n", "y")
        };
        for step in self.script.opening.clone() {
            let deadline = Some(Instant::now() + self.script.expect_timeout);
            if let Found::Fault(f) = self.expect(&step.expect, deadline) {
                self.stop();
                return Err(f);
            }
            let text = step
                .send
                .replace("{side}", start.side_name)
                .replace("{first}", first)
                .replace("{opponent-first}", theirs);
            if let Err(f) = self.send(&text, deadline) {
                self.stop();
                return Err(f);
            }
        }
        Ok(())
    }

    fn request(&mut self, _state: &G, last: Option<&str>, deadline: Option<Duration>) -> Reply {
        let deadline = deadline.map(|d| Instant::now() + d);
        let waits = deadline.or_else(|| Some(Instant::now() + self.script.expect_timeout));
        if let Some(theirs) = last {
            let prompt = self.script.prompt.clone();
            if let Found::Fault(f) = self.expect(&prompt, waits) {
                self.stop();
                return f;
            }
            let text = self.script.send.replace("{move}", theirs);
            if let Err(f) = self.send(&text, waits) {
                self.stop();
                return f;
            }
        }
        let reply = self.script.reply.clone();
        match self.expect(&reply, waits) {
            Found::Match(text) => Reply::Line(text),
            Found::Fault(f) => {
                self.stop();
                f
            }
        }
    }

    /// With an `end` pattern: tells the program the opponent's last move if it has not seen it, then
    /// waits for its end-of-game message.
    fn finish(&mut self, _summary: &str, unseen: Option<&str>) -> Option<String> {
        let end = self.script.end.clone()?;
        self.live.as_ref()?;
        let deadline = Some(Instant::now() + self.script.expect_timeout);
        if let Some(theirs) = unseen {
            let prompt = self.script.prompt.clone();
            if let Found::Match(_) = self.expect(&prompt, deadline) {
                let text = self.script.send.replace("{move}", theirs);
                let _ = self.send(&text, deadline);
            }
        }
        let note = match self.expect(&end, deadline) {
            Found::Match(text) => format!("{} announced the end: `{text}`", self.side),
            Found::Fault(_) => format!("{} did not announce the end of the game", self.side),
        };
        self.stop();
        Some(note)
    }
}

impl Drop for DialogueSeat {
    fn drop(&mut self) {
        self.stop();
    }
}
