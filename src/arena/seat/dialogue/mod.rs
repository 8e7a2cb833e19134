//! The dialogue protocol: drives a program written for a human (WPI's interactive tic-tac-toe) with an
//! expect-style script from the suite: prompts matched by regexes, moves sent from templates, the
//! program's own moves parsed from what it prints. Prompts need not end in a newline. Along the way it
//! checks what the WPI handout grades and records it as facts: the opening and the order of the first
//! moves, invalid inputs typed at chosen prompts (the program must ask again), and the end-of-game
//! message (it must name the real winner). A program on conventions of its own (it asks "play
//! first?", numbers squares 1-9) is understood instead of stalled: `learn` and `convention`.

use std::fs::File;
use std::io::Read;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use regex::Regex;

use crate::sandbox::line::Awaited;
use crate::sandbox::line::{self, Wrote};
use crate::sandbox::{Running, Sandbox, Spec, Stall, Stdin, Watch};

use crate::arena::game::record::seconds;
use crate::arena::game::record::{Fact, GameRecord, GameResult, Side};
use crate::arena::game::ArenaGame;
use crate::arena::seat::persistent::{closed, spawn_piped};
use crate::arena::seat::{Reply, Seat, Start};
use crate::sandbox::pace;
use convention::Learned;

pub mod convention;
mod learn;
pub mod transcript;

/// Most output kept while looking for a pattern; more without a match is a flood.
const WINDOW: usize = 64 * 1024;

/// How much unmatched output a failure quotes back, so the student sees what the grader saw.
const QUOTE: usize = 120;

/// One step of the opening script: wait for `expect`, then send `send`, with `{side}` (`x`/`o`, the
/// program's), `{opponent-side}`, their capitals `{SIDE}` and `{OPPONENT-SIDE}`, `{first}` (`y` when
/// this program moves first, else `n`) and `{opponent-first}` (the reverse: what a human answers to
/// "do you want to go first?") filled in.
#[derive(Clone, Debug)]
pub struct Step {
    pub expect: Regex,
    pub send: String,
}

/// An invalid input typed at the program's `at`-th prompt for a move (counted from 1 in each game),
/// before the real move. The program must ask for the move again.
#[derive(Clone, Debug)]
pub struct Probe {
    pub at: u32,
    /// Literal text, or `{taken}`: an occupied cell (one the program knows is occupied) written as the
    /// script's `send` writes moves. A `{taken}` probe at a prompt with no occupied cell is skipped.
    pub send: String,
    /// Why the input is invalid, in words for the student (`an occupied cell`).
    pub about: String,
}

/// A suite's dialogue script, checked.
#[derive(Clone, Debug)]
pub struct Script {
    pub opening: Vec<Step>,
    /// The program asks for the opponent's move.
    pub prompt: Regex,
    /// What answers the prompt: `{move}` is the opponent's move in the game's notation, `{row}` and
    /// `{col}` its row and column counted from 1 (games on a grid).
    pub send: String,
    /// The program's own move: the named group `move` (the game's notation), or the groups `row` and
    /// `col` (counted from 1), or else the whole match.
    pub reply: Regex,
    /// The program's end-of-game message (WPI: "detects the end"), checked after the last move. Groups
    /// named `x`, `o`, `me`, `you` or `draw` (each optionally followed by digits, so a pattern can have
    /// several) say which result the message states; the record checks it against the real one.
    pub end: Option<Regex>,
    /// How long each expect may wait when no per-move clock applies (the opening, probes, the end).
    pub expect_timeout: Duration,
    /// Invalid inputs to type at chosen prompts. Suites usually enable them only in the cases that
    /// grade input validation, since a program that fails one loses the game.
    pub probes: Vec<Probe>,
}

/// A program with a human interface, talked to through a `Script`.
pub struct DialogueSeat {
    sandbox: Arc<dyn Sandbox>,
    spec: Spec,
    script: Script,
    live: Option<Live>,
    side: &'static str,
    index: Side,
    /// Prompts for a move answered so far in this game.
    prompts: u32,
    /// Whether the first turn (the one that shows the move order) has been asked for.
    turned: bool,
    unclocked: Duration,
    /// What the program used, once it is stopped.
    used: Option<crate::sandbox::Usage>,
    facts: Vec<Fact>,
    end: Option<EndSeen>,
    /// The opponent's possible replies to the program's last move, each with the text that types it:
    /// the game's final move reaches `finish` without a state to write it from.
    fills: Vec<(String, String)>,
    stderr: Arc<Mutex<Vec<u8>>>,
    /// The program's identity for what its earlier games learned (its command and folder).
    key: String,
    /// Its conventions as known so far: from its earlier games, then this one.
    learned: Learned,
    /// It follows conventions of its own: its moves are read from the board it prints.
    board: bool,
    /// The prompt for the opponent's move was already read, with the board printed before it.
    prompted: Option<Hit>,
    /// Its end-of-game message, read with its last move.
    ended: Option<Hit>,
    /// Answers still to try when it asks again who starts.
    answers: Vec<&'static str>,
    /// The opening fact was recorded.
    opened: bool,
    /// The last line the grader typed, for a program found waiting for more input instead of going on.
    sent: String,
    /// Everything printed and typed in this game.
    transcript: transcript::Transcript,
}

struct Live {
    running: Box<dyn Running>,
    stdin: File,
    stdout: File,
    seen: Vec<u8>,
    eof: bool,
}

/// What the program printed at the end of the game.
struct EndSeen {
    said: Option<String>,
    claim: Option<GameResult>,
    detail: String,
}

/// The pattern that matched first in the output, and its groups.
struct Hit {
    /// Index into the patterns waited for.
    which: usize,
    /// The whole match, trimmed.
    text: String,
    /// What the program printed before the match (its board, when it prints one).
    before: String,
    /// Every named group that took part, with its text.
    groups: Vec<(String, String)>,
}

impl Hit {
    fn group(&self, name: &str) -> Option<&str> {
        self.groups
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// What a wait for patterns ran into instead of a match: the fault, and the tail of what was printed.
struct Miss {
    reply: Reply,
    output: String,
}

impl Miss {
    /// The fault in words that follow the side's name, with `what` the thing that was awaited.
    fn words(&self, what: &str, waited: Duration) -> String {
        let how = match &self.reply {
            Reply::Timeout => format!("did not {what} within {}", seconds(waited)),
            Reply::Waiting(sent) if sent.is_empty() => format!(
                "waited for input instead of going on to {what}, before the grader had typed anything"
            ),
            Reply::Waiting(sent) => format!(
                "waited for input instead of going on to {what}, while the grader waited for its answer to `{}`",
                quote(sent)
            ),
            Reply::Idle(limit) => format!(
                "used no CPU for {}, asleep, instead of going on to {what}",
                seconds(*limit)
            ),
            Reply::Crashed(how) => format!("crashed ({how}) instead of going on to {what}"),
            Reply::ClosedPipe => format!("closed its output instead of going on to {what}"),
            Reply::Flood(n) => format!("printed {n} bytes without going on to {what}"),
            Reply::Garbage => "printed bytes that are not UTF-8 text".to_string(),
            Reply::Broken(why) | Reply::Fault(why) | Reply::Unfollowed(why) => why.clone(),
            Reply::Line(text) => format!("printed `{text}`"),
        };
        if self.output.is_empty() && matches!(self.reply, Reply::Timeout | Reply::Waiting(_)) {
            // The usual cause: a C program's question sits in its stdout buffer while it waits to read.
            format!("{how}; it printed nothing more (flush standard output before reading input)")
        } else if self.output.is_empty() {
            format!("{how}; it printed nothing more")
        } else {
            format!("{how}; its last output was `{}`", self.output)
        }
    }
}

/// The last `QUOTE` characters of some output, on one line, its control bytes escaped (a program's
/// ESC sequences must not reach a terminal through feedback).
fn quote(text: &str) -> String {
    let flat = text.trim().replace('\r', "").replace('\n', "⏎");
    let count = flat.chars().count();
    let tail = if count <= QUOTE {
        flat
    } else {
        let tail: String = flat.chars().skip(count - QUOTE).collect();
        format!("…{tail}")
    };
    crate::untrusted::one_line(&tail, QUOTE + 1)
}

/// The result an end-of-game message states, from the first classifying group that took part.
fn claim_of(hit: &Hit, me: Side) -> Option<GameResult> {
    hit.groups.iter().find_map(|(name, _)| match base(name) {
        "x" => Some(GameResult::Win(0)),
        "o" => Some(GameResult::Win(1)),
        "me" => Some(GameResult::Win(me)),
        "you" => Some(GameResult::Win(1 - me)),
        "draw" => Some(GameResult::Draw { edge: None }),
        _ => None,
    })
}

/// A group's name without its numeric suffix (`me2` → `me`).
fn base(name: &str) -> &str {
    name.trim_end_matches(|c: char| c.is_ascii_digit())
}

/// Whether a pattern has any group that states a result.
fn classifies(pattern: &Regex) -> bool {
    pattern
        .capture_names()
        .flatten()
        .any(|n| matches!(base(n), "x" | "o" | "me" | "you" | "draw"))
}

/// A result in words: `x wins`, `a draw`.
fn result_words(result: GameResult, colours: &[String; 2]) -> String {
    match result {
        GameResult::Win(s) => format!("{} wins", colours[s]),
        GameResult::Draw { .. } => "a draw".to_string(),
        GameResult::BothLost => "no winner".to_string(),
    }
}

impl DialogueSeat {
    #[must_use]
    pub fn new(sandbox: Arc<dyn Sandbox>, mut spec: Spec, script: Script) -> DialogueSeat {
        spec.stdin = Stdin::Piped;
        let key = format!(
            "{:?}\0{:?}\0{}",
            spec.program,
            spec.args,
            spec.workdir.display()
        );
        let learned = convention::recall(&key).unwrap_or_default();
        DialogueSeat {
            sandbox,
            spec,
            script,
            live: None,
            side: "x",
            index: 0,
            prompts: 0,
            turned: false,
            unclocked: Duration::ZERO,
            used: None,
            facts: Vec::new(),
            end: None,
            fills: Vec::new(),
            stderr: Arc::default(),
            key,
            learned,
            board: learned
                .format
                .is_some_and(|f| f != convention::Format::Script),
            prompted: None,
            ended: None,
            answers: Vec::new(),
            opened: false,
            sent: String::new(),
            transcript: transcript::Transcript::default(),
        }
    }

    fn send(&mut self, text: &str, deadline: Option<Instant>) -> Result<(), Reply> {
        let Some(live) = self.live.as_mut() else {
            return Err(Reply::Broken("the program is not running".into()));
        };
        let mut bytes = text.as_bytes().to_vec();
        bytes.push(b'\n');
        self.sent = text.to_string();
        self.transcript.typed(text);
        match line::write_all(&mut live.stdin, &bytes, deadline) {
            Ok(Wrote::Done) => Ok(()),
            Ok(Wrote::Timeout) => Err(Reply::Timeout),
            Ok(Wrote::Closed) => Err(self.gone()),
            Err(e) => Err(Reply::Broken(format!("writing to the program: {e}"))),
        }
    }

    /// Reads until one of `patterns` matches the output seen so far, and takes the match that starts
    /// earliest (ties to the earlier pattern), consuming the output through it. A program found
    /// waiting for input meanwhile (`sandbox::watch`) is a miss at once, `Reply::Waiting`.
    fn expect(&mut self, patterns: &[&Regex], deadline: Option<Instant>) -> Result<Hit, Miss> {
        let mut chunk = [0u8; 8 * 1024];
        let mut watch = Watch::new(None);
        loop {
            let Some(live) = self.live.as_mut() else {
                return Err(Miss {
                    reply: Reply::Broken("the program is not running".into()),
                    output: String::new(),
                });
            };
            let text = String::from_utf8_lossy(&live.seen).into_owned();
            let best = patterns
                .iter()
                .enumerate()
                .filter_map(|(i, p)| p.captures(&text).map(|c| (i, p, c)))
                .min_by_key(|(i, _, c)| (c.get(0).map_or(0, |m| m.start()), *i));
            if let Some((which, pattern, caps)) = best {
                let whole = caps.get(0).map_or(0..0, |m| m.range());
                let groups = pattern
                    .capture_names()
                    .flatten()
                    .filter_map(|n| {
                        caps.name(n)
                            .map(|m| (n.to_string(), m.as_str().to_string()))
                    })
                    .collect();
                let hit = Hit {
                    which,
                    text: text[whole.clone()].trim().to_string(),
                    before: text[..whole.start].to_string(),
                    groups,
                };
                // Consume through the match (byte offsets agree while the text is valid UTF-8; on lossy
                // text, dropping everything seen is the safe choice).
                let cut = if text.len() == live.seen.len() {
                    whole.end
                } else {
                    live.seen.len()
                };
                live.seen.drain(..cut);
                return Ok(hit);
            }
            let miss = |reply| Miss {
                reply,
                output: quote(&text),
            };
            if live.seen.len() > WINDOW {
                return Err(miss(Reply::Flood(live.seen.len())));
            }
            if live.eof {
                let gone = self.gone();
                return Err(miss(gone));
            }
            let mut awaited = Awaited {
                running: &mut *live.running,
                stdin: &live.stdin,
                watch: &mut watch,
            };
            match line::wait_awaiting(&live.stdout, deadline, &mut awaited) {
                Ok(Ok(true)) => {}
                Ok(Ok(false)) => return Err(miss(Reply::Timeout)),
                Ok(Err(Stall::Input)) => return Err(miss(Reply::Waiting(self.sent.clone()))),
                Ok(Err(Stall::Idle(limit))) => return Err(miss(Reply::Idle(limit))),
                Err(e) => return Err(miss(Reply::Broken(format!("{e}")))),
            }
            match live.stdout.read(&mut chunk) {
                Ok(0) => live.eof = true,
                Ok(n) => {
                    live.seen.extend_from_slice(&chunk[..n]);
                    self.transcript.printed(&chunk[..n]);
                }
                Err(e)
                    if matches!(
                        e.kind(),
                        std::io::ErrorKind::Interrupted | std::io::ErrorKind::WouldBlock
                    ) => {}
                Err(e) => return Err(miss(Reply::Broken(format!("{e}")))),
            }
        }
    }

    fn gone(&mut self) -> Reply {
        closed(self.live.as_mut().map(|live| &mut live.running))
    }

    fn stop(&mut self) {
        if let Some(mut live) = self.live.take() {
            live.running.kill();
            self.used = Some(live.running.usage());
        }
    }

    /// Ends the game from the program's side with a fault.
    fn fail(&mut self, reply: Reply) -> Reply {
        self.stop();
        reply
    }

    /// Records how the first turn went: the move order is what the handout's opening rule grades.
    fn opening(&mut self, ok: bool, detail: String) {
        if std::mem::replace(&mut self.opened, true) {
            return;
        }
        self.facts.push(Fact::Opening {
            side: self.index,
            ok,
            detail,
        });
    }
}

/// A move in the script's `send` form: `{move}` in the game's notation, `{row}` and `{col}` from 1.
fn fill<G: ArenaGame>(template: &str, state: &G, mv: &str) -> String {
    let (row, col) = state
        .move_grid(mv)
        .map_or((String::new(), String::new()), |(r, c)| {
            ((r + 1).to_string(), (c + 1).to_string())
        });
    template
        .replace("{move}", mv)
        .replace("{row}", &row)
        .replace("{col}", &col)
}

/// The program's move from its reply: the `move` group, else `row` and `col` (from 1) on the game's
/// grid, else the whole match. A grid move that is not legal is a fault in the program's own words.
fn move_of<G: ArenaGame>(state: &G, hit: &Hit) -> Reply {
    if let Some(mv) = hit.group("move") {
        return Reply::Line(mv.trim().to_string());
    }
    let (Some(row), Some(col)) = (hit.group("row"), hit.group("col")) else {
        return Reply::Line(hit.text.clone());
    };
    let cell = match (row.trim().parse::<usize>(), col.trim().parse::<usize>()) {
        (Ok(r), Ok(c)) if r >= 1 && c >= 1 => state.grid_move(r - 1, c - 1),
        _ => None,
    };
    let said = quote(&hit.text);
    let Some(mv) = cell else {
        return Reply::Fault(format!(
            "played row {row}, column {col} (`{said}`), which is off the board"
        ));
    };
    let mut legal = Vec::new();
    state.legal_moves(&mut legal);
    match state.parse_move(&mv) {
        Ok(m) if legal.contains(&m) => Reply::Line(mv),
        _ => Reply::Fault(format!(
            "played row {row}, column {col} (`{said}`), which is not a legal move: the cell is taken"
        )),
    }
}

impl<G: ArenaGame> Seat<G> for DialogueSeat {
    fn start(&mut self, start: &Start) -> Result<(), Reply> {
        let piped = spawn_piped(&*self.sandbox, &self.spec, &self.stderr)?;
        self.live = Some(Live {
            running: piped.running,
            stdin: piped.stdin,
            stdout: piped.stdout,
            seen: Vec::new(),
            eof: false,
        });
        self.side = start.side_name;
        self.index = start.side.index();
        let theirs = G::side_name(start.side.opponent());
        let (first, their_first) = if start.side == reference::Player::First {
            ("y", "n")
        } else {
            ("n", "y")
        };
        for (k, step) in self.script.opening.clone().iter().enumerate() {
            let waited = self.script.expect_timeout;
            let deadline = Some(pace::now() + waited);
            // The first question may instead ask whether the user plays first (a convention of the
            // program's own, learned: only the opening marks depend on the handout's question).
            let mut patterns = vec![&step.expect];
            if k == 0 {
                patterns.push(convention::first_question());
            }
            match self.expect(&patterns, deadline) {
                Err(miss) => {
                    let what = format!("print what opening step {} expects", k + 1);
                    let detail = miss.words(&what, waited);
                    self.opening(false, detail.clone());
                    return Err(self.fail(match miss.reply {
                        Reply::Broken(_) => miss.reply,
                        _ => Reply::Fault(detail),
                    }));
                }
                // The script's own step wins when it asks who starts itself.
                Ok(hit) if hit.which == 1 && !step.expect.is_match(&hit.text) => {
                    return self.answer_first(
                        &hit,
                        start.side == reference::Player::First,
                        deadline,
                    );
                }
                Ok(_) => {}
            }
            let text = step
                .send
                .replace("{OPPONENT-SIDE}", &theirs.to_uppercase())
                .replace("{SIDE}", &start.side_name.to_uppercase())
                .replace("{opponent-side}", theirs)
                .replace("{side}", start.side_name)
                .replace("{first}", first)
                .replace("{opponent-first}", their_first);
            if let Err(f) = self.send(&text, deadline) {
                self.opening(false, format!("stopped reading at opening step {}", k + 1));
                return Err(self.fail(f));
            }
        }
        Ok(())
    }

    fn request(&mut self, state: &G, last: Option<&str>, deadline: Option<Duration>) -> Reply {
        let grid = learn::grid3(state);
        if self.board && grid {
            return self.request_board(state, last, deadline);
        }
        self.unclocked = Duration::ZERO;
        let allowed = deadline.unwrap_or(self.script.expect_timeout);
        let mut waits = Some(pace::now() + allowed);
        let first = !self.turned;
        self.turned = true;
        let (prompt, reply) = (self.script.prompt.clone(), self.script.reply.clone());
        let end = self.script.end.clone();
        if let Some(theirs) = last {
            let mut patterns = vec![&prompt, &reply];
            patterns.extend(end.as_ref());
            match self.expect(&patterns, waits) {
                Ok(hit)
                    if hit.which == 0 && grid && self.learned.format.is_none() && {
                        let board = convention::read_board(&hit.before);
                        let said = format!("{}{}", hit.before, hit.text);
                        convention::candidates(&said, board.as_ref())[0]
                            != convention::Format::Script
                    } =>
                {
                    // Its prompt or its board says how it numbers cells (`1-9`, `A1`): learn it.
                    if first {
                        self.opening(true, "asked for the opponent's first move".into());
                    }
                    return self.retype(state, theirs, hit, waits, true);
                }
                Ok(hit) if hit.which == 0 => {}
                Ok(hit) => {
                    let detail = if first {
                        format!(
                            "printed `{}` where it should ask for the first move of {}, who moves first",
                            quote(&hit.text),
                            G::side_name(reference::Player::First)
                        )
                    } else {
                        format!(
                            "printed `{}` where it should ask for the opponent's move",
                            quote(&hit.text)
                        )
                    };
                    if first {
                        self.opening(false, detail.clone());
                    }
                    return self.fail(Reply::Fault(detail));
                }
                Err(miss) => {
                    if first {
                        let detail = miss.words("ask for the opponent's first move", allowed);
                        self.opening(false, detail);
                    }
                    self.stop();
                    return miss.reply;
                }
            }
            if let Err(fault) = self.probes(state, theirs, convention::Format::Script, &mut waits) {
                return fault;
            }
            let text = fill(&self.script.send, state, theirs);
            if let Err(f) = self.send(&text, waits) {
                return self.fail(f);
            }
        }
        let mut patterns = vec![&reply, &prompt];
        patterns.extend(end.as_ref());
        match self.expect(&patterns, waits) {
            Ok(hit) if hit.which == 0 => {
                if last.is_some() && self.learned.format.is_none() {
                    self.learned.format = Some(convention::Format::Script);
                    convention::remember(&self.key, self.learned);
                }
                if first {
                    let detail = match last {
                        None => "moved first, as its side does".to_string(),
                        Some(_) => "asked for the opponent's first move, then moved".to_string(),
                    };
                    self.opening(true, detail);
                }
                let mv = move_of(state, &hit);
                match &mv {
                    Reply::Line(text) => {
                        if let Ok(m) = state.parse_move(text) {
                            let next = state.after(m);
                            self.fills = next
                                .moves()
                                .into_iter()
                                .map(|x| {
                                    let t = next.format_move(x);
                                    let typed = fill(&self.script.send, &next, &t);
                                    (t, typed)
                                })
                                .collect();
                        }
                    }
                    _ => self.stop(),
                }
                mv
            }
            Ok(hit) => {
                // No move line the script reads, but its board may show the move it made.
                let hit = match last {
                    Some(theirs) => match self.took_on_board(state, theirs, hit) {
                        Ok(reply) => return reply,
                        Err(hit) => hit,
                    },
                    None => hit,
                };
                let said = quote(&hit.text);
                let detail = match (last, hit.which) {
                    (None, 1) if self.learned.format.is_none() && self.moved_on_board(state, &hit) => {
                        // It moved without a line the script reads: its board says where.
                        self.opening(true, "moved first, as its side does".into());
                        return self.board_move(state, hit);
                    }
                    (None, 1) => format!(
                        "printed `{said}` asking for the opponent's move, but it plays {} and moves first",
                        self.side
                    ),
                    (Some(theirs), 1) if grid && self.learned.format.is_none() => {
                        // Not the handout's move format: learn the program's, at this prompt.
                        if first {
                            self.opening(true, "asked for the opponent's first move".into());
                        }
                        return self.retype(state, theirs, hit, waits, false);
                    }
                    (Some(theirs), 1) => format!(
                        "asked for a move again (`{said}`) after the legal move `{}`",
                        fill(&self.script.send, state, theirs)
                    ),
                    _ => format!("announced the end (`{said}`) while the game goes on"),
                };
                if first && last.is_none() {
                    self.opening(false, detail.clone());
                }
                self.fail(Reply::Fault(detail))
            }
            Err(miss) => {
                if first && last.is_none() {
                    let detail = miss.words("make the first move", allowed);
                    self.opening(false, detail);
                }
                self.stop();
                miss.reply
            }
        }
    }

    /// With an `end` pattern: tells the program the opponent's last move if it has not seen it, then
    /// waits for its end-of-game message.
    fn finish(&mut self, _summary: &str, unseen: Option<&str>) -> Option<String> {
        let end = self.script.end.clone()?;
        self.live.as_ref()?;
        let waited = self.script.expect_timeout;
        let deadline = Some(pace::now() + waited);
        let (prompt, reply) = (self.script.prompt.clone(), self.script.reply.clone());
        // A program on its own conventions is read by its board: its move lines are not the script's.
        let reply = if self.board { prompt.clone() } else { reply };
        let mut early = self.ended.take().map(Ok);
        if let (None, Some(theirs)) = (&early, unseen) {
            let text = self.fills.iter().find(|(mv, _)| mv == theirs).map_or_else(
                || self.script.send.replace("{move}", theirs),
                |(_, t)| t.clone(),
            );
            if self.prompted.take().is_some() {
                let _ = self.send(&text, deadline);
            } else {
                match self.expect(&[&end, &prompt, &reply], deadline) {
                    Ok(hit) if hit.which == 1 => {
                        let _ = self.send(&text, deadline);
                    }
                    other => early = Some(other),
                }
            }
        }
        let seen = match early {
            Some(found) => found,
            None => self.expect(&[&end, &prompt, &reply], deadline),
        };
        let me = self.index;
        let end_seen = match seen {
            Ok(hit) if hit.which == 0 => EndSeen {
                said: Some(hit.text.clone()),
                claim: claim_of(&hit, me),
                detail: format!("announced the end: `{}`", quote(&hit.text)),
            },
            Ok(hit) => EndSeen {
                said: None,
                claim: None,
                detail: format!(
                    "did not announce the end of the game; it went on with `{}`",
                    quote(&hit.text)
                ),
            },
            Err(miss) => EndSeen {
                said: None,
                claim: None,
                detail: format!(
                    "did not announce the end of the game: {}",
                    miss.words("print an end-of-game message", waited)
                ),
            },
        };
        let note = format!("{} {}", self.side, end_seen.detail);
        self.end = Some(end_seen);
        self.stop();
        Some(note)
    }

    fn stderr_tail(&mut self) -> Option<String> {
        let kept = self.stderr.lock().ok()?;
        (!kept.is_empty()).then(|| super::persistent::printable_tail(&kept, &self.spec))
    }

    fn unclocked(&mut self) -> Duration {
        self.unclocked
    }

    fn usage(&self) -> Option<crate::sandbox::Usage> {
        self.used
    }

    fn transcript(&mut self) -> Option<String> {
        self.transcript.text()
    }

    fn facts(&mut self, record: &GameRecord) -> Vec<Fact> {
        let mut facts = std::mem::take(&mut self.facts);
        if let Some(detail) = self.understood() {
            facts.push(Fact::Understood {
                side: self.index,
                detail,
            });
        }
        if let Some(seen) = self.end.take() {
            let checked = self.script.end.as_ref().is_some_and(classifies);
            let right = match (seen.said.is_some(), checked, seen.claim) {
                (false, _, _) => false,
                (true, false, _) => true,
                (true, true, None) => false,
                (true, true, Some(claim)) => match (claim, record.result) {
                    (GameResult::Win(a), GameResult::Win(b)) => a == b,
                    (GameResult::Draw { .. }, GameResult::Draw { .. }) => true,
                    _ => false,
                },
            };
            let detail = match (seen.said.is_some(), checked, seen.claim, right) {
                (true, true, None, _) => format!("{}, which does not say who won", seen.detail),
                (true, true, Some(claim), false) => format!(
                    "{}, which says {} but the game ended in {}",
                    seen.detail,
                    result_words(claim, &record.colours),
                    result_words(record.result, &record.colours)
                ),
                _ => seen.detail,
            };
            facts.push(Fact::End {
                side: self.index,
                said: seen.said,
                claim: seen.claim,
                right,
                detail,
            });
        }
        facts
    }
}

impl Drop for DialogueSeat {
    fn drop(&mut self) {
        self.stop();
    }
}
