//! The dialogue protocol: plays a program written for a person (WPI's interactive tic-tac-toe) through
//! its own interface, as a person at a terminal would. The program runs on a pseudo-terminal
//! (`Stdin::Terminal`: its prompts show without a newline or a flush); the grader answers its
//! questions by what they ask (`question.rs`), and the board it prints is the ground truth
//! (`board.rs`): each move is typed in the encoding the program seems to want (`encoding.rs`), the board
//! that follows shows which cell got the mark, and the grader keeps or corrects its reading. What it
//! learns in a game is kept for the program's later games (`memory.rs`). Along the way it checks what the
//! handout grades and records it as facts: the opening (rule 1), invalid inputs typed at chosen prompts
//! (item 5), the end-of-game message (item 6). When it cannot follow the program at all, the game ends
//! for a person to look at (`Reply::Unfollowed`, the `review` verdict), with the whole dialogue kept.
//!
//! The suite's script (`Script`) gives hints, not rules: its opening question, prompt, move template,
//! move line and end message patterns are tried first; anything else a program does is read as above.
//! Only games on a 3×3 grid (tic-tac-toe) are played this way.

pub mod board;
pub mod encoding;
pub mod end;
mod finish;
mod io;
mod memory;
mod opening;
mod probe;
pub mod question;
pub mod screen;
pub mod transcript;
mod turn;

use std::sync::{Arc, Mutex};
use std::time::Duration;

use reference::Player;
use regex::Regex;

use crate::arena::game::record::{Fact, GameRecord, GameResult, Side};
use crate::arena::game::ArenaGame;
use crate::arena::seat::{Reply, Seat, Start};
use crate::sandbox::{pace, Sandbox, Spec, Stdin};

use board::Empties;
use encoding::Belief;
use io::{Heard, Io, Until};
use memory::Memory;
use transcript::Transcript;

/// How much of what a program printed a reason quotes back, so the student sees what the grader saw.
const QUOTE: usize = 120;

/// A hint for the opening: the question the suite expects first (`expect`) and what answers it (with
/// `{side}`, `{opponent-side}`, their capitals `{SIDE}`, `{OPPONENT-SIDE}`, `{first}`,
/// `{opponent-first}` filled in). A program that asks something else is answered by what it asks.
#[derive(Clone, Debug)]
pub struct Step {
    pub expect: Regex,
    pub send: String,
}

/// An invalid input typed at the program's `at`-th prompt for a move in a game (counted from the first
/// prompt at which the grader knows how the program takes moves), before the real move. The program
/// must ask for the move again.
#[derive(Clone, Debug)]
pub struct Probe {
    pub at: u32,
    /// Literal text, or `{taken}`: an occupied cell typed as the program takes moves. Inputs about
    /// the board (`about` starting with "off the board") are typed off the board in the program's own
    /// encoding.
    pub send: String,
    /// Why the input is invalid, in words for the student (`an occupied cell`).
    pub about: String,
}

/// A suite's dialogue script, checked: hints for reading the program, and the checks to make.
#[derive(Clone, Debug)]
pub struct Script {
    pub opening: Vec<Step>,
    /// The program asks for the opponent's move (a hint; a waiting program is read by what it asks).
    pub prompt: Regex,
    /// How the suite types a move (`{row} {col}`, `{move}`): the encoding tried first.
    pub send: String,
    /// A line stating the program's own move (`row`/`col` groups from 1, or `move`): read when the
    /// program prints no board.
    pub reply: Regex,
    /// The end-of-game message, tried before the built-in phrases (groups `x`, `o`, `me`, `you`,
    /// `draw`, optionally followed by digits, say which result it states).
    pub end: Option<Regex>,
    /// How long a question, a refused input or the end may take.
    pub expect_timeout: Duration,
    /// Invalid inputs to type at chosen prompts (only in the cases that grade validation).
    pub probes: Vec<Probe>,
}

/// A program with a human interface.
pub struct DialogueSeat {
    sandbox: Arc<dyn Sandbox>,
    spec: Spec,
    script: Script,
    /// The program's identity for what its earlier games taught (its command and folder).
    key: String,
    memory: Memory,
    io: Option<Io>,
    stderr: Arc<Mutex<Vec<u8>>>,
    transcript: Transcript,
    used: Option<crate::sandbox::Usage>,
    /// The side the referee gave the program, and the side it plays (it may decide itself).
    assigned: Player,
    side: Player,
    unclocked: Duration,
    /// Under a CPU clock, the wall time a move may take (`Start::wall_cap`).
    wall_cap: Option<Duration>,
    /// What the program's tree used answering the last request, under a CPU clock.
    move_cpu: Option<Duration>,
    facts: Vec<Fact>,
    game: Game,
}

/// What one game has shown so far.
struct Game {
    /// Who holds each cell (row-major), by colour.
    cells: [Option<Side>; 9],
    empties: Empties,
    /// Each colour's mark as the program prints it.
    tokens: [Option<String>; 2],
    belief: Belief,
    /// What the program printed when it last stopped to wait for input, not acted on yet.
    heard: Option<Heard>,
    /// The program's first move, made during the opening (it moved first).
    first_move: Option<usize>,
    /// The opponent's last move as the program took it (in the game's notation), when not as meant.
    retyped: Option<String>,
    /// Prompts for a move since the encoding was known (probes are typed at chosen ones).
    prompts: u32,
    /// A name the grader gave when asked for one.
    name: Option<String>,
    /// The mark the grader chose when asked (rule 1), if a question asked for one.
    user_mark: Option<String>,
    /// How the opening went, in words, for the understood fact.
    opening: Vec<String>,
    /// Printed after the last move was read: the end-of-game message, when it came with it.
    after: String,
    /// The end of the game as the program announced it.
    end: Option<finish::EndSeen>,
}

impl Game {
    fn new(belief: Belief) -> Game {
        Game {
            cells: [None; 9],
            empties: Empties::default(),
            tokens: [None, None],
            belief,
            heard: None,
            first_move: None,
            retyped: None,
            prompts: 0,
            name: None,
            user_mark: None,
            opening: Vec::new(),
            after: String::new(),
            end: None,
        }
    }
}

/// The last `QUOTE` characters of some output on one line, control bytes escaped (a program's ESC
/// sequences must not reach a terminal through feedback).
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

/// The first `QUOTE` characters of some output on one line, escaped as [`quote`]: what a program
/// printed first after an input.
fn quote_head(text: &str) -> String {
    let flat = text.trim().replace('\r', "").replace('\n', "⏎");
    let head: String = flat.chars().take(QUOTE).collect();
    let more = if flat.chars().count() > QUOTE {
        "…"
    } else {
        ""
    };
    format!("{}{more}", crate::untrusted::one_line(&head, QUOTE + 1))
}

/// `row 2, column 3` (from 1).
fn cell_words(cell: usize) -> String {
    format!("row {}, column {}", cell / 3 + 1, cell % 3 + 1)
}

/// Whether `state` is played on a 3×3 grid: the only boards this protocol reads.
fn grid3<G: ArenaGame>(state: &G) -> bool {
    state.grid_move(2, 2).is_some()
        && state.grid_move(3, 0).is_none()
        && state.grid_move(0, 3).is_none()
}

/// The cell (row-major, 0-8) a move names on a 3×3 grid.
fn cell_of<G: ArenaGame>(state: &G, mv: &str) -> Option<usize> {
    state
        .move_grid(mv)
        .filter(|&(r, c)| r < 3 && c < 3)
        .map(|(r, c)| 3 * r + c)
}

/// A result in words: `x wins`, `a draw`.
fn result_words(result: GameResult, colours: &[String; 2]) -> String {
    match result {
        GameResult::Win(s) => format!("{} wins", colours[s]),
        GameResult::Draw { .. } => "a draw".to_string(),
        GameResult::BothLost => "no winner".to_string(),
    }
}

/// The program's identity for what its games teach: the command names the submission's built copy
/// (each game has a working folder of its own).
fn memory_key(spec: &Spec) -> String {
    format!("{:?}\0{:?}", spec.program, spec.args)
}

impl DialogueSeat {
    /// Whether the grader has learned all the program `spec` runs can teach it from its games, so its
    /// later games start alike in any order (`memory::Memory::learned`).
    #[must_use]
    pub fn learned(spec: &Spec) -> bool {
        memory::recall(&memory_key(spec)).learned()
    }

    #[must_use]
    pub fn new(sandbox: Arc<dyn Sandbox>, mut spec: Spec, script: Script) -> DialogueSeat {
        spec.stdin = Stdin::Terminal;
        // A terminal has a type; programs that clear the screen ask for it.
        if !spec.env.iter().any(|(k, _)| k == "TERM") {
            spec.env.push(("TERM".into(), "xterm".into()));
        }
        let key = memory_key(&spec);
        let memory = memory::recall(&key);
        let belief = match memory.encoding {
            Some(e) => Belief::known(e),
            None => Belief::new("", None, encoding::Labels::default()),
        };
        DialogueSeat {
            sandbox,
            spec,
            script,
            key,
            memory,
            io: None,
            stderr: Arc::default(),
            transcript: Transcript::default(),
            used: None,
            assigned: Player::First,
            side: Player::First,
            unclocked: Duration::ZERO,
            wall_cap: None,
            move_cpu: None,
            facts: Vec::new(),
            game: Game::new(belief),
        }
    }

    /// The program's colour index.
    fn me(&self) -> Side {
        self.side.index()
    }

    /// Stops the program, keeping what it used.
    fn stop(&mut self) {
        if let Some(io) = self.io.take() {
            self.used = Some(io.stop());
        }
    }

    /// Ends the game from the program's side.
    fn fail(&mut self, reply: Reply) -> Reply {
        self.stop();
        reply
    }

    /// Ends the game for a person to look at: the grader could not follow the program.
    fn unfollowed(&mut self, why: String) -> Reply {
        self.fail(Reply::Unfollowed(why))
    }

    /// What the program prints from now until it waits for input (or stops), by `until`.
    fn hear(&mut self, until: impl Into<Until>) -> Heard {
        match self.io.as_mut() {
            Some(io) => io.hear(until.into(), &mut self.transcript),
            None => Heard {
                text: String::new(),
                stop: io::Stop::Broken("the program is not running".into()),
            },
        }
    }

    /// Types `text` and Enter; `Err` (the program stopped) ends the game.
    fn type_text(&mut self, text: &str, deadline: std::time::Instant) -> Result<(), Reply> {
        let Some(io) = self.io.as_mut() else {
            return Err(Reply::Broken("the program is not running".into()));
        };
        match io.type_line(text, deadline, &mut self.transcript) {
            Ok(()) => Ok(()),
            Err(stop) => {
                let reply = Heard {
                    text: String::new(),
                    stop,
                }
                .fault(text);
                Err(self.fail(reply))
            }
        }
    }

    /// Until when the program may take `allowed` for what it does next: `allowed` of wall time; under
    /// a CPU clock (`Start::wall_cap`), `allowed` of its process tree's CPU time, and the move's wall
    /// cap (or `allowed`, when longer) of wall time.
    fn until(&mut self, allowed: Duration) -> Until {
        let now = pace::now();
        match (self.wall_cap, self.io.as_mut()) {
            (Some(cap), Some(io)) => Until {
                wall: now + allowed.max(cap),
                cpu: Some(io.cpu() + allowed),
            },
            _ => (now + allowed).into(),
        }
    }

    /// The CPU time the program's process tree has used so far (all of it once it has ended).
    fn tree_cpu(&mut self) -> Option<Duration> {
        match self.io.as_mut() {
            Some(io) => Some(io.cpu()),
            None => self.used.map(|u| u.cpu),
        }
    }

    /// Keeps what this game learned for the program's later games.
    fn remember(&mut self) {
        if self.game.belief.settled() {
            self.memory.encoding = self.game.belief.best();
        }
        memory::remember(&self.key, &self.memory);
    }
}

impl<G: ArenaGame> Seat<G> for DialogueSeat {
    fn start(&mut self, start: &Start) -> Result<(), Reply> {
        self.open(start)
    }

    fn took(&self) -> Option<Player> {
        (self.side != self.assigned).then_some(self.side)
    }

    fn request(&mut self, state: &G, last: Option<&str>, deadline: Option<Duration>) -> Reply {
        self.unclocked = Duration::ZERO;
        self.move_cpu = None;
        if !grid3(state) {
            return self.fail(Reply::Broken(
                "the dialogue protocol plays games on a 3×3 grid only".into(),
            ));
        }
        let before = self.wall_cap.and_then(|_| self.tree_cpu());
        let reply = self.turn(state, last, deadline);
        if let (Some(before), Some(after)) = (before, self.tree_cpu()) {
            self.move_cpu = Some(after.saturating_sub(before));
        }
        reply
    }

    fn move_cpu(&mut self) -> Option<Duration> {
        self.move_cpu
    }

    fn retyped(&mut self) -> Option<String> {
        self.game.retyped.take()
    }

    fn finish(&mut self, _summary: &str, unseen: Option<&str>) -> Option<String> {
        self.end_game(unseen)
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

    fn facts(&mut self, record: &GameRecord) -> Vec<Fact> {
        self.game_facts(record)
    }

    fn transcript(&mut self) -> Option<String> {
        self.transcript.text()
    }
}

impl Drop for DialogueSeat {
    fn drop(&mut self) {
        self.stop();
    }
}
