//! The referee's view of a player: a `Seat` is asked for one move at a time and answers with a `Reply`.
//! Seats exist for in-process bots, persistent processes, per-move processes and dialogue scripts.

pub mod dialogue;
pub mod permove;
pub mod persistent;
pub mod players;
pub mod scratch;

use std::time::Duration;

use reference::Player;

use crate::arena::game::record::{Fact, GameRecord};
use crate::arena::game::ArenaGame;

/// What a player's reply names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReplyForm {
    /// A move in the game's notation.
    Move,
    /// The position after its move, in the game's encoding (Adelaide: "print the board state resulting
    /// from the best move"; Oska's `NextBoard`).
    State,
}

/// What a seat answered when asked for a move. The referee parses and checks `Line`; everything else is
/// a fault that loses the game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    /// One line of text (without its newline), in the game's move notation.
    Line(String),
    /// No complete line before the deadline.
    Timeout,
    /// The program waits for input while the grader waits for its answer to this line (what was last
    /// sent): a deadlock, seen and ended at once (`sandbox::watch`).
    Waiting(String),
    /// The program used no CPU for this long, asleep, while the grader waited for its answer.
    Idle(Duration),
    /// The program ended; the text says how (`exit status 3`, `signal 11`).
    Crashed(String),
    /// The program closed its output (or its input) but kept running.
    ClosedPipe,
    /// A line longer than the cap, or more output than the cap without a newline.
    Flood(usize),
    /// Bytes that are not UTF-8 text.
    Garbage,
    /// The seat could not even ask (the program would not start, a write failed for the grader's
    /// reasons); the text says why.
    Broken(String),
    /// A fault the seat itself checked and describes, in words that follow the side's name (a dialogue
    /// program that accepted an occupied cell, or moved out of turn).
    Fault(String),
    /// The seat could not follow the program (a dialogue whose questions or board it could not read
    /// after every strategy it has): not the program's fault, nor proof that it is right. The game
    /// ends for a person to look at (`Ending::Review`); the text says why (the referee says whom and
    /// when: `the grader could not follow x on move 3: …`).
    Unfollowed(String),
}

/// The facts a seat may pass on at the start of a game.
#[derive(Clone, Debug)]
pub struct Start {
    pub game: String,
    pub side: Player,
    pub side_name: &'static str,
    pub seed: u64,
    /// The per-move limit (without the margin), for players that budget their search.
    pub limit: Option<Duration>,
    /// Under a CPU clock (`referee::Clock::Cpu`), the wall time a move may take whatever its CPU time:
    /// a seat that measures its program's CPU time (`Seat::move_cpu`) takes the deadline `request` is
    /// given as CPU time, and waits at most this long. `None`: the deadline is wall time.
    pub wall_cap: Option<Duration>,
}

/// One player in one game.
pub trait Seat<G: ArenaGame>: Send {
    /// Gets ready to play `start.side`. A seat that cannot start answers `Reply::Broken` (or another
    /// fault) here and the referee records the loss.
    fn start(&mut self, start: &Start) -> Result<(), Reply>;

    /// Asks for a move in `state` (where it is this seat's turn). `deadline` is the full allowance
    /// (limit plus margin), or `None` for no limit; a seat that talks to a process must stop waiting then.
    fn request(&mut self, state: &G, last: Option<&str>, deadline: Option<Duration>) -> Reply;

    /// The side the player took when it decides itself who moves first (a program written for a person
    /// that always lets the user start, or draws lots), asked once after `start`: the referee swaps the
    /// seats so that it plays that side. `None`: the side it was given.
    fn took(&self) -> Option<Player> {
        None
    }

    /// After `request`: the opponent's last move as this player took it, when not as it was sent (a
    /// dialogue program whose reading of typed moves the grader was still learning). The referee
    /// plays that move instead, and the game goes on from there.
    fn retyped(&mut self) -> Option<String> {
        None
    }

    /// After `request`, under a CPU clock (`Start::wall_cap`): the CPU time the program's whole process
    /// tree used answering it, which the referee holds to the limit. `None`: the seat does not measure
    /// it, and the wall clock applies.
    fn move_cpu(&mut self) -> Option<Duration> {
        None
    }

    /// Whether the per-move clock applies. Built-in bots are not held to it: their strength is their
    /// spec (`minimax:3` searches 3 plies however long that takes), and a slow machine must not turn
    /// a benchmark into a forfeit.
    fn clocked(&self) -> bool {
        true
    }

    /// The game is over; `summary` is the result line, `unseen` the opponent's final move when it
    /// ended the game by the rules (this player has not been told it). Process seats tell the program,
    /// then stop it. A seat may answer with a note for the record (the dialogue seat: whether the
    /// program noticed the end, which the WPI handout grades).
    fn finish(&mut self, _summary: &str, _unseen: Option<&str>) -> Option<String> {
        None
    }

    /// Lines the player wrote to stderr, for the record (process seats keep the last few KiB).
    fn stderr_tail(&mut self) -> Option<String> {
        None
    }

    /// The form this seat's replies take when the suite asks for `form`: programs answer as the suite
    /// says (Adelaide Morris prints the next board), in-process bots always name a move.
    fn reply_form(&self, form: ReplyForm) -> ReplyForm {
        form
    }

    /// Time the last `request` spent on the seat's own checks rather than waiting for the move (the
    /// dialogue seat's invalid-input probes); the referee does not count it against the clock.
    fn unclocked(&mut self) -> Duration {
        Duration::ZERO
    }

    /// Checked observations for the record, asked once after `finish` with the finished record.
    fn facts(&mut self, _record: &GameRecord) -> Vec<Fact> {
        Vec::new()
    }

    /// What the seat's program used in this game (CPU, peak memory), asked after `finish`; `None`
    /// for a seat that runs no program (a bot).
    fn usage(&self) -> Option<crate::sandbox::Usage> {
        None
    }

    /// The game's dialogue as the seat saw it (what the program printed, what was typed), for a
    /// person to read; `None` for a seat that keeps none. Asked once, after `facts`.
    fn transcript(&mut self) -> Option<String> {
        None
    }
}

/// Picks a move for a position.
pub type Pick<G> = Box<dyn FnMut(&G) -> <G as reference::Game>::Move + Send>;

/// An in-process player: anything that picks a move for a position. The arena wraps the reference
/// crate's bots in this.
pub struct FnSeat<G: ArenaGame> {
    pick: Pick<G>,
}

impl<G: ArenaGame> FnSeat<G> {
    pub fn new(pick: impl FnMut(&G) -> G::Move + Send + 'static) -> FnSeat<G> {
        FnSeat {
            pick: Box::new(pick),
        }
    }

    #[must_use]
    pub fn from_pick(pick: Pick<G>) -> FnSeat<G> {
        FnSeat { pick }
    }
}

impl<G: ArenaGame> Seat<G> for FnSeat<G> {
    fn start(&mut self, _start: &Start) -> Result<(), Reply> {
        Ok(())
    }

    fn clocked(&self) -> bool {
        false
    }

    fn reply_form(&self, _form: ReplyForm) -> ReplyForm {
        ReplyForm::Move
    }

    fn request(&mut self, state: &G, _last: Option<&str>, _deadline: Option<Duration>) -> Reply {
        let mv = (self.pick)(state);
        Reply::Line(state.format_move(mv))
    }
}

/// A seat that answers from a fixed script of replies, then repeats its last one: the referee's tests
/// drive every outcome through it.
pub struct ScriptSeat {
    replies: Vec<Reply>,
    next: usize,
}

impl ScriptSeat {
    #[must_use]
    pub fn new(replies: Vec<Reply>) -> ScriptSeat {
        ScriptSeat { replies, next: 0 }
    }
}

impl<G: ArenaGame> Seat<G> for ScriptSeat {
    fn start(&mut self, _start: &Start) -> Result<(), Reply> {
        Ok(())
    }

    fn request(&mut self, _state: &G, _last: Option<&str>, _deadline: Option<Duration>) -> Reply {
        let i = self.next.min(self.replies.len().saturating_sub(1));
        self.next += 1;
        self.replies
            .get(i)
            .cloned()
            .unwrap_or_else(|| Reply::Broken("the script is empty".into()))
    }
}
