//! One turn: the opponent's move typed as the program takes moves, and the program's reply read from
//! the board it prints. The first board after a typed move shows which cell got the opponent's mark:
//! the grader keeps the encodings that read the text so (`encoding::Belief`), tries the next when the
//! program refuses it, and takes the program's reading of the move when it differs from what was meant
//! (the referee corrects the record: `Seat::retyped`). The other new mark is the program's move.

use std::time::Duration;

use crate::arena::game::record::GameResult;
use crate::arena::game::ArenaGame;
use crate::arena::seat::Reply;
use crate::sandbox::pace;

use super::io::{Heard, Stop, Until};
use super::question::{self, Ask, Part};
use super::{board, cell_of, cell_words, quote, DialogueSeat};

/// What a typed move produced.
enum Taken {
    /// The program refused the text (asked again, no mark placed).
    Refused,
    /// The opponent's mark on `ours`, and the program's reply on `theirs` (none when it printed no
    /// reply before stopping).
    Moved { ours: usize, theirs: Option<usize> },
}

impl DialogueSeat {
    /// `Seat::request`.
    pub(super) fn turn<G: ArenaGame>(
        &mut self,
        state: &G,
        last: Option<&str>,
        deadline: Option<Duration>,
    ) -> Reply {
        let me = self.me();
        let Some(theirs) = last else {
            // The program moves first: it did during the opening.
            return match self.game.first_move.take() {
                Some(cell) => {
                    self.game.cells[cell] = Some(me);
                    grid_reply(state, cell)
                }
                None => self.fail(Reply::Broken(
                    "the program's first move was not seen".into(),
                )),
            };
        };
        let Some(target) = cell_of(state, theirs) else {
            return self.fail(Reply::Broken(format!(
                "`{theirs}` is not a cell of a 3×3 board"
            )));
        };
        let allowed = deadline.unwrap_or(self.script.expect_timeout);
        if let Err(fault) = self.probes(state, target) {
            return fault;
        }
        loop {
            let began = pace::now();
            let until = self.until(allowed);
            match self.deliver(state, target, until) {
                Ok(Taken::Refused) => {
                    // A form it did not take is the grader's trial, not the program's thinking time.
                    self.unclocked += pace::since(began);
                }
                Ok(Taken::Moved { ours, theirs }) => {
                    return self.moved(state, target, ours, theirs);
                }
                Err(reply) => return reply,
            }
        }
    }

    /// Types the opponent's move on `target` in the encoding the grader believes, at the prompt the
    /// program waits at (one line, or a row and a column at two prompts), and reads what followed.
    fn deliver<G: ArenaGame>(
        &mut self,
        state: &G,
        target: usize,
        until: Until,
    ) -> Result<Taken, Reply> {
        let prompt = self.game.heard.take().map(|h| h.text).unwrap_or_default();
        let part = match question::read(&prompt, true).ask {
            Ask::Move(part) => part,
            _ => Part::Whole,
        };
        if part != Part::Whole {
            // Two prompts: only encodings of a row and a column can answer them.
            self.game
                .belief
                .candidates
                .retain(|e| e.part(0, Part::Row).is_some());
        }
        let Some(encoding) = self.game.belief.best() else {
            return Err(self.unfollowed(format!(
                "it refused {} however the grader typed it; its last output was `{}`",
                cell_words(target),
                quote(&prompt)
            )));
        };
        let parts = encoding.answers(target, part);
        let mut heard = None;
        for (k, (_, text)) in parts.iter().enumerate() {
            self.type_text(text, until.wall)?;
            let h = self.hear(until);
            // After the first of two parts the program asks for the second; anything else is read.
            let more = k + 1 < parts.len()
                && h.stop == Stop::Waiting
                && self.new_marks(&h.text).is_empty();
            if !more {
                heard = Some(h);
                break;
            }
            heard = Some(h);
        }
        let heard = heard.expect("at least one part typed");
        self.taken(state, target, &parts, heard)
    }

    /// Reads what followed a typed move: refused, or the marks that appeared.
    fn taken<G: ArenaGame>(
        &mut self,
        state: &G,
        target: usize,
        parts: &[(Part, String)],
        heard: Heard,
    ) -> Result<Taken, Reply> {
        let typed = parts
            .iter()
            .map(|(_, t)| format!("`{t}`"))
            .collect::<Vec<_>>()
            .join(" then ");
        let new = self.new_marks(&heard.text);
        if new.is_empty() && self.game.belief.settled() {
            // The end announced with no board after it (`COMPUTER WINS`): the move as typed, and
            // the program's own the one that ends the game so.
            if let Some(theirs) = self.ending_reply(&heard.text, target) {
                self.game.after = heard.text.clone();
                return Ok(Taken::Moved {
                    ours: target,
                    theirs,
                });
            }
        }
        match (&heard.stop, new.as_slice()) {
            (Stop::Waiting, [])
                if board::last_grid(&heard.text).is_some() || !heard.text.trim().is_empty() =>
            {
                Ok(self.refused(target, parts, heard))
            }
            (Stop::Waiting, []) => Err(self.fail(Reply::Fault(format!(
                "printed nothing after the move {typed} and waited for more input"
            )))),
            (_, []) => Err(self.fail(self.fault_after(&heard, &typed))),
            (_, [one]) => self.one_mark(state, target, parts, heard, *one, &typed),
            (_, [a, b]) => self.two_marks(target, parts, heard, (*a, *b), &typed),
            (_, many) => Err(self.unfollowed(format!(
                "after {typed} its board showed {} new marks: `{}`",
                many.len(),
                quote(&heard.text)
            ))),
        }
    }

    /// Asked again with no mark placed: the program refused the text, so the encodings that would
    /// have taken it as a cell are dropped.
    fn refused(&mut self, target: usize, parts: &[(Part, String)], heard: Heard) -> Taken {
        let empty = self.empty_cells();
        match parts {
            [(Part::Whole, t)] => self.game.belief.refused(t, &empty),
            _ => self.game.belief.candidates.retain(|e| {
                parts
                    .iter()
                    .all(|(p, t)| e.part(target, *p).as_deref() != Some(t.as_str()))
            }),
        }
        self.game.heard = Some(heard);
        Taken::Refused
    }

    /// Two new marks after a typed move: the opponent's (as the program read what was typed) and
    /// the program's reply.
    fn two_marks(
        &mut self,
        target: usize,
        parts: &[(Part, String)],
        heard: Heard,
        (a, b): (usize, usize),
        typed: &str,
    ) -> Result<Taken, Reply> {
        let Some((ours, theirs)) = self.whose(&heard.text, target, parts, (a, b)) else {
            return Err(self.unfollowed(format!(
                "after {typed} its board showed marks on {} and {} and the grader could not tell its move from the one typed",
                cell_words(a),
                cell_words(b)
            )));
        };
        self.explained(parts, ours, typed)?;
        self.confirm(&heard.text, parts, ours);
        self.learn_tokens(&heard.text, ours, theirs);
        self.keep(heard);
        Ok(Taken::Moved {
            ours,
            theirs: Some(theirs),
        })
    }

    /// After the move on `target` the program announced the end of the game and printed no board:
    /// its own move is the one that ends the game as it says (the first cell that wins for it; the
    /// last empty cell for a draw). `None` when the text announces no end or no move explains it.
    fn ending_reply(&self, text: &str, target: usize) -> Option<Option<usize>> {
        let (result, _) = self.claim_of(text)?;
        let me = self.me();
        let mut cells = self.game.cells;
        cells[target] = Some(1 - me);
        let empty: Vec<usize> = (0..9).filter(|&i| cells[i].is_none()).collect();
        let wins = |c: usize| {
            let mut after = cells;
            after[c] = Some(me);
            LINES
                .iter()
                .any(|l| l.iter().all(|&i| after[i] == Some(me)))
        };
        match result {
            GameResult::Win(s) if s == me => empty.into_iter().find(|&c| wins(c)).map(Some),
            GameResult::Draw { .. } if empty.len() == 1 && !wins(empty[0]) => Some(Some(empty[0])),
            _ => None,
        }
    }

    /// One new mark after a typed move: the opponent's (the program has not replied yet, or the
    /// game is over), unless its mark says it is the program's.
    fn one_mark<G: ArenaGame>(
        &mut self,
        state: &G,
        target: usize,
        parts: &[(Part, String)],
        heard: Heard,
        cell: usize,
        typed: &str,
    ) -> Result<Taken, Reply> {
        if matches!(
            heard.stop,
            Stop::Timeout | Stop::Flood(_) | Stop::Idle(_) | Stop::Broken(_)
        ) {
            // It showed the move typed and then did not get back to waiting for input: whatever it
            // did next (a search past its time, a sleep), that is how the turn ended.
            return Err(self.fail(heard.fault(typed)));
        }
        let me = self.me();
        let token = self.token_at(&heard.text, cell);
        let program_mark = match (&token, &self.game.tokens[me]) {
            (Some(t), Some(mine)) => t == mine,
            // Not seen yet: the mark the user did not choose, when the program asked (rule 1).
            (Some(t), None) => self.game.user_mark.as_deref().is_some_and(|m| {
                let other = if m.eq_ignore_ascii_case("x") {
                    "o"
                } else {
                    "x"
                };
                t.eq_ignore_ascii_case(other)
            }),
            _ => false,
        };
        if program_mark {
            return Err(self.fail(Reply::Fault(format!(
                "made its move on {} but its board does not show the move {typed}",
                cell_words(cell)
            ))));
        }
        self.explained(parts, cell, typed)?;
        self.confirm(&heard.text, parts, cell);
        self.learn_tokens(&heard.text, cell, usize::MAX);
        let _ = (state, target);
        self.keep(heard);
        Ok(Taken::Moved {
            ours: cell,
            theirs: None,
        })
    }

    /// `Err` (the grader cannot follow) when no encoding still possible takes the typed parts as
    /// `cell`, where the program's board put the mark.
    fn explained(
        &mut self,
        parts: &[(Part, String)],
        cell: usize,
        typed: &str,
    ) -> Result<(), Reply> {
        if self.reads(parts, cell) {
            return Ok(());
        }
        Err(self.unfollowed(format!(
            "took {typed} as {}, which no way of typing moves the grader knows explains",
            cell_words(cell)
        )))
    }

    /// Which of two new marks is the opponent's (the one the typed text names in an encoding still
    /// possible, or the one with the opponent's mark), and which the program's.
    fn whose(
        &self,
        text: &str,
        target: usize,
        parts: &[(Part, String)],
        (a, b): (usize, usize),
    ) -> Option<(usize, usize)> {
        let me = self.me();
        if let Some(t) = self.game.tokens[1 - me].as_deref() {
            let at = |c: usize| self.token_at(text, c).as_deref() == Some(t);
            if at(a) && !at(b) {
                return Some((a, b));
            }
            if at(b) && !at(a) {
                return Some((b, a));
            }
        }
        match (
            a == target || b == target,
            self.reads(parts, a),
            self.reads(parts, b),
        ) {
            (true, _, _) => Some(if a == target { (a, b) } else { (b, a) }),
            (false, true, false) => Some((a, b)),
            (false, false, true) => Some((b, a)),
            _ => None,
        }
    }

    /// The board showed the typed parts on `cell`: keep the encodings that read them so.
    fn confirm(&mut self, text: &str, parts: &[(Part, String)], cell: usize) {
        let numbering = board::grids(text)
            .iter()
            .rev()
            .find_map(board::numbering_certain);
        self.game.belief.numbered_by(numbering);
        match parts {
            [(Part::Whole, t)] => self.game.belief.landed(t, cell),
            _ => self.game.belief.landed_parts(parts, cell),
        }
    }

    /// Whether some encoding still possible takes the typed parts as `cell`.
    fn reads(&self, parts: &[(Part, String)], cell: usize) -> bool {
        self.game.belief.candidates.iter().any(|e| {
            parts.iter().all(|(p, t)| match p {
                Part::Whole => e.cell_of(t) == Some(cell),
                _ => e.part(cell, *p).as_deref() == Some(t.as_str()),
            })
        })
    }

    /// The turn's end: the program's move checked and recorded, the opponent's move as the program
    /// took it recorded for the referee.
    fn moved<G: ArenaGame>(
        &mut self,
        state: &G,
        target: usize,
        ours: usize,
        theirs: Option<usize>,
    ) -> Reply {
        let me = self.me();
        self.game.cells[ours] = Some(1 - me);
        if ours != target {
            self.game.retyped = state.grid_move(ours / 3, ours % 3);
            self.game.opening.push(format!(
                "it took the grader's {} as {}",
                cell_words(target),
                cell_words(ours)
            ));
        }
        if let Some(encoding) = self
            .game
            .belief
            .best()
            .filter(|_| self.game.belief.settled())
        {
            if self.memory.encoding != Some(encoding) {
                self.remember();
            }
        }
        let Some(cell) = theirs else {
            return self.no_reply(state, ours);
        };
        self.game.cells[cell] = Some(me);
        grid_reply(state, cell)
    }

    /// The program printed the opponent's move but no reply of its own before it stopped: the game
    /// may be over (the referee knows), or it asked for another move without playing.
    fn no_reply<G: ArenaGame>(&mut self, state: &G, ours: usize) -> Reply {
        let stopped = self.game.after.clone();
        // A move line instead of a board (the suite's `reply` pattern): read it.
        if let Some(cell) = self.move_line(state, &stopped) {
            self.game.cells[cell] = Some(self.me());
            return grid_reply(state, cell);
        }
        let shown = quote(&stopped);
        self.fail(Reply::Fault(format!(
            "took the move on {} and then asked for another move instead of playing its own; its last output was `{shown}`",
            cell_words(ours)
        )))
    }

    /// The program's move from a line the suite's `reply` pattern reads (`I play 2 3`), when legal.
    fn move_line<G: ArenaGame>(&self, state: &G, text: &str) -> Option<usize> {
        let caps = self.script.reply.captures(text)?;
        let cell = if let Some(mv) = caps.name("move") {
            cell_of(state, mv.as_str().trim())?
        } else {
            let r: usize = caps.name("row")?.as_str().trim().parse().ok()?;
            let c: usize = caps.name("col")?.as_str().trim().parse().ok()?;
            (1..=3).contains(&r).then_some(())?;
            (1..=3).contains(&c).then_some(())?;
            3 * (r - 1) + (c - 1)
        };
        self.game.cells[cell].is_none().then_some(cell)
    }

    /// The cells the last board in `text` shows marked that the game has not filled.
    pub(super) fn new_marks(&self, text: &str) -> Vec<usize> {
        let Some(grid) = self.game_grid(text) else {
            return Vec::new();
        };
        let marks = self.game.empties.marks(&grid);
        (0..9)
            .filter(|&i| marks[i].is_some() && self.game.cells[i].is_none())
            .collect()
    }

    /// The last board in `text` that can show this game: every cell the game has filled is marked on
    /// it. A program that starts its next game by itself (`I win.` and a fresh board) prints boards of
    /// that game after this one's last.
    pub(super) fn game_grid(&self, text: &str) -> Option<board::Grid> {
        board::grids(text).into_iter().rev().find(|g| {
            let marks = self.game.empties.marks(g);
            (0..9).all(|i| self.game.cells[i].is_none() || marks[i].is_some())
        })
    }

    fn token_at(&self, text: &str, cell: usize) -> Option<String> {
        self.game_grid(text)
            .and_then(|g| self.game.empties.marks(&g)[cell].clone())
    }

    /// Learns each side's mark from the board: the opponent's on `ours`, the program's on `theirs`.
    fn learn_tokens(&mut self, text: &str, ours: usize, theirs: usize) {
        let me = self.me();
        if let Some(g) = self.game_grid(text) {
            let marks = self.game.empties.marks(&g);
            if let Some(Some(t)) = marks.get(ours) {
                self.game.tokens[1 - me].get_or_insert_with(|| t.clone());
            }
            if let Some(Some(t)) = marks.get(theirs) {
                self.game.tokens[me].get_or_insert_with(|| t.clone());
            }
        }
    }

    /// Keeps what the program printed with its move: its next question, or the end of the game.
    fn keep(&mut self, heard: Heard) {
        self.game.after = heard.text.clone();
        if heard.stop == Stop::Waiting {
            self.game.heard = Some(heard);
        }
    }

    fn empty_cells(&self) -> [bool; 9] {
        std::array::from_fn(|i| self.game.cells[i].is_none())
    }

    /// The program stopped after a typed move without showing it.
    fn fault_after(&self, heard: &Heard, typed: &str) -> Reply {
        let sent = typed.to_string();
        match heard.fault(&sent) {
            Reply::Crashed(how) => Reply::Fault(format!(
                "ended ({how}) after the move {typed}{}",
                last_output(&heard.text)
            )),
            Reply::Timeout => Reply::Timeout,
            other => other,
        }
    }
}

/// `; its last output was `…`` (or nothing when it printed nothing).
pub(super) fn last_output(text: &str) -> String {
    if text.trim().is_empty() {
        String::new()
    } else {
        format!("; its last output was `{}`", quote(text))
    }
}

/// The eight lines of a 3×3 board.
const LINES: [[usize; 3]; 8] = [
    [0, 1, 2],
    [3, 4, 5],
    [6, 7, 8],
    [0, 3, 6],
    [1, 4, 7],
    [2, 5, 8],
    [0, 4, 8],
    [2, 4, 6],
];

/// The move on `cell` for the referee.
fn grid_reply<G: ArenaGame>(state: &G, cell: usize) -> Reply {
    match state.grid_move(cell / 3, cell % 3) {
        Some(mv) => Reply::Line(mv),
        None => Reply::Broken(format!("{} is not on the game's grid", cell_words(cell))),
    }
}
