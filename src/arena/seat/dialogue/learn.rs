//! The dialogue seat's own checks and its learning: invalid inputs typed at prompts (adapted to the
//! program's move format), and programs that follow conventions of their own (WPI hand-ins that ask
//! "play first? (yes/no)" or number cells 1-9), whose moves are typed as they understand them and
//! read from the board they print.

use std::time::{Duration, Instant};

use crate::arena::game::record::{Fact, ProbeOutcome};
use crate::arena::game::ArenaGame;
use crate::arena::seat::dialogue::convention::{self, FirstQuestion, Format};
use crate::arena::seat::Reply;

use super::{fill, quote, DialogueSeat, Hit, Miss, Probe};
use crate::sandbox::pace;

/// What the program printed when it stopped for input, or ended.
enum Turn {
    Prompt(Hit),
    End(Hit),
}

/// The cells of `state` that hold a mark, row-major on the 3×3 board.
fn filled<G: ArenaGame>(state: &G) -> [bool; 9] {
    let mut cells = [false; 9];
    for mv in state.occupied() {
        if let Some((r, c)) = state.move_grid(&mv).filter(|&(r, c)| r < 3 && c < 3) {
            cells[3 * r + c] = true;
        }
    }
    cells
}

/// Whether `state` is played on a 3×3 board: the only boards whose conventions are learned.
pub(super) fn grid3<G: ArenaGame>(state: &G) -> bool {
    state.grid_move(2, 2).is_some()
        && state.grid_move(3, 0).is_none()
        && state.grid_move(0, 3).is_none()
}

/// `row 2, column 3` (from 1).
fn cell_words(cell: usize) -> String {
    format!("row {}, column {}", cell / 3 + 1, cell % 3 + 1)
}

impl DialogueSeat {
    /// Answers a question about who starts (asked instead of the script's first question): the
    /// user plays first exactly when the program has the second side. The opening fact says the
    /// handout's question was not asked; everything else is graded on the games played.
    pub(super) fn answer_first(
        &mut self,
        hit: &Hit,
        program_first: bool,
        deadline: Option<Instant>,
    ) -> Result<(), Reply> {
        let q = FirstQuestion::read(&hit.text);
        self.learned.first = Some(q);
        self.board = true;
        let mut answers = q.answers(!program_first);
        let answer = answers.remove(0);
        self.answers = answers;
        self.opening(
            false,
            format!(
                "asked `{}` instead of which mark the user prefers, X or O (rule 1); understood: {}",
                quote(&hit.text),
                q.words()
            ),
        );
        self.send(answer, deadline).map_err(|f| self.fail(f))
    }

    /// `understood: first/second asked as yes/no; moves as 1-9 row-major`, for a program on
    /// conventions of its own.
    pub(super) fn understood(&self) -> Option<String> {
        if !self.board {
            return None;
        }
        let first = self
            .learned
            .first
            .map_or("X or O asked as the handout says", FirstQuestion::words);
        let moves = self
            .learned
            .format
            .map_or("moves never typed", Format::words);
        Some(format!("understood: {first}; {moves}"))
    }

    /// A move in `format` (the script's template for `Format::Script`).
    fn typed<G: ArenaGame>(&self, format: Format, state: &G, mv: &str) -> String {
        state
            .move_grid(mv)
            .and_then(|(r, c)| format.typed(r, c))
            .unwrap_or_else(|| fill(&self.script.send, state, mv))
    }

    /// Waits for the program to stop for input (its prompt) or to end, answering again when it asks
    /// again who starts (it did not take the last answer).
    fn wait_turn(&mut self, deadline: Option<Instant>) -> Result<Turn, Miss> {
        let (prompt, end) = (self.script.prompt.clone(), self.script.end.clone());
        loop {
            let mut patterns = vec![&prompt];
            patterns.extend(end.as_ref());
            let asked = patterns.len();
            patterns.push(convention::first_question());
            let hit = self.expect(&patterns, deadline)?;
            if hit.which == 0 {
                return Ok(Turn::Prompt(hit));
            }
            if hit.which < asked {
                return Ok(Turn::End(hit));
            }
            if self.answers.is_empty() {
                return Err(Miss {
                    reply: Reply::Fault(format!(
                        "asked again `{}` after every answer the grader knows",
                        quote(&hit.text)
                    )),
                    output: String::new(),
                });
            }
            let answer = self.answers.remove(0);
            if let Err(reply) = self.send(answer, deadline) {
                return Err(Miss {
                    reply,
                    output: String::new(),
                });
            }
        }
    }

    /// A miss while waiting for a turn, as the fault that ends the game.
    fn missed(&mut self, miss: Miss, what: &str, waited: Duration) -> Reply {
        self.stop();
        match miss.reply {
            Reply::Fault(_) | Reply::Timeout | Reply::Broken(_) => miss.reply,
            _ => Reply::Fault(miss.words(what, waited)),
        }
    }

    /// The program's move from the board it printed before `hit`, on a board where `before` cells
    /// were filled. Keeps the prompt (or the end message) for what follows.
    fn moved<G: ArenaGame>(&mut self, state: &G, before: &[bool; 9], turn: Turn) -> Reply {
        let (hit, end) = match turn {
            Turn::Prompt(h) => (h, false),
            Turn::End(h) => (h, true),
        };
        let board = convention::read_board(&hit.before);
        let Some(cell) = board.as_ref().and_then(|b| convention::new_mark(before, b)) else {
            let said = quote(&hit.text);
            return self.fail(Reply::Fault(match board {
                None => format!(
                    "printed no board the grader could read before `{said}` (rule 3: display the board after each move)"
                ),
                Some(_) => format!("made no move the grader could see on its board before `{said}`"),
            }));
        };
        let Some(mv) = state.grid_move(cell / 3, cell % 3) else {
            return self.fail(Reply::Fault(format!(
                "its board shows a mark off the game's grid at {}",
                cell_words(cell)
            )));
        };
        if let Ok(m) = state.parse_move(&mv) {
            let next = state.after(m);
            let format = self.learned.format.unwrap_or(Format::Script);
            self.fills = next
                .moves()
                .into_iter()
                .map(|x| {
                    let t = next.format_move(x);
                    let typed = self.typed(format, &next, &t);
                    (t, typed)
                })
                .collect();
        }
        if end {
            // `finish` reads it as the first of its patterns, the end message.
            self.ended = Some(Hit { which: 0, ..hit });
        } else {
            self.prompted = Some(hit);
        }
        Reply::Line(mv)
    }

    /// Whether the board printed before `hit` shows one new mark on `state`.
    pub(super) fn moved_on_board<G: ArenaGame>(&self, state: &G, hit: &Hit) -> bool {
        grid3(state)
            && convention::read_board(&hit.before)
                .is_some_and(|b| convention::new_mark(&filled(state), &b).is_some())
    }

    /// The program's move read from its board before the prompt `hit`; from now on its moves are
    /// read that way.
    pub(super) fn board_move<G: ArenaGame>(&mut self, state: &G, hit: Hit) -> Reply {
        self.board = true;
        self.moved(state, &filled(state), Turn::Prompt(hit))
    }

    /// After the opponent's move `theirs` was typed in the script's form: when the board printed
    /// before `hit` (a prompt, which = 1, or the end) shows it and one more mark, the program took it
    /// and moved without a line the script reads. From now on it is read by its board.
    pub(super) fn took_on_board<G: ArenaGame>(
        &mut self,
        state: &G,
        theirs: &str,
        hit: Hit,
    ) -> Result<Reply, Hit> {
        if !grid3(state) {
            return Err(hit);
        }
        let Some(cell) = state
            .move_grid(theirs)
            .map(|(r, c)| 3 * r + c)
            .filter(|&c| c < 9)
        else {
            return Err(hit);
        };
        let mut with_theirs = filled(state);
        with_theirs[cell] = true;
        let shown = convention::read_board(&hit.before);
        if shown.is_none_or(|b| convention::new_mark(&with_theirs, &b).is_none()) {
            return Err(hit);
        }
        self.board = true;
        if self.learned.format.is_none() {
            self.learned.format = Some(Format::Script);
            convention::remember(&self.key, self.learned);
        }
        let turn = if hit.which == 1 {
            Turn::Prompt(Hit { which: 0, ..hit })
        } else {
            Turn::End(hit)
        };
        Ok(self.moved(state, &with_theirs, turn))
    }

    /// `request` for a program on conventions of its own: waits for its prompt, types the probes and
    /// the opponent's move as it understands them (trying the other formats while it asks again), and
    /// reads its move from the board it prints.
    pub(super) fn request_board<G: ArenaGame>(
        &mut self,
        state: &G,
        last: Option<&str>,
        deadline: Option<Duration>,
    ) -> Reply {
        let first = !self.turned;
        let reply = self.board_turn(state, last, deadline);
        if first {
            // Recorded only when the opening question itself did not already decide it.
            match &reply {
                Reply::Line(_) => self.opening(true, "moved in turn".into()),
                Reply::Fault(why) => self.opening(false, why.clone()),
                other => self.opening(false, format!("did not make its first move: {other:?}")),
            }
        }
        reply
    }

    fn board_turn<G: ArenaGame>(
        &mut self,
        state: &G,
        last: Option<&str>,
        deadline: Option<Duration>,
    ) -> Reply {
        self.unclocked = Duration::ZERO;
        let allowed = deadline.unwrap_or(self.script.expect_timeout);
        let waits = Some(pace::now() + allowed);
        self.turned = true;
        let filled_now = filled(state);
        let Some(theirs) = last else {
            // It has the first side: it moves, then asks for the opponent's move.
            return match self.wait_turn(waits) {
                Ok(turn) => self.moved(state, &filled_now, turn),
                Err(miss) => self.missed(miss, "make the first move", allowed),
            };
        };
        let hit = match self.prompted.take() {
            Some(hit) => hit,
            None => match self.wait_turn(waits) {
                Ok(Turn::Prompt(hit)) => hit,
                Ok(Turn::End(hit)) => {
                    return self.fail(Reply::Fault(format!(
                        "announced the end (`{}`) while the game goes on",
                        quote(&hit.text)
                    )))
                }
                Err(miss) => return self.missed(miss, "ask for the opponent's move", allowed),
            },
        };
        self.retype(state, theirs, hit, waits, true)
    }

    /// At a prompt (`hit`, already read): types the probes (at a `fresh` prompt), then the opponent's
    /// move `theirs` in the learned format or, while none is known, in each candidate format until
    /// the program's board shows it. Not `fresh`: the program asked again after the script's format.
    pub(super) fn retype<G: ArenaGame>(
        &mut self,
        state: &G,
        theirs: &str,
        hit: Hit,
        mut waits: Option<Instant>,
        fresh: bool,
    ) -> Reply {
        self.board = true;
        let confirmed = self.learned.format.is_some();
        let board = convention::read_board(&hit.before);
        let formats: Vec<Format> = match self.learned.format {
            Some(f) => vec![f],
            None => convention::candidates(&format!("{}{}", hit.before, hit.text), board.as_ref())
                .into_iter()
                .filter(|&f| fresh || f != Format::Script)
                .collect(),
        };
        if fresh {
            if let Err(fault) = self.probes(state, theirs, formats[0], &mut waits) {
                return fault;
            }
        }
        let Some(cell) = state
            .move_grid(theirs)
            .map(|(r, c)| 3 * r + c)
            .filter(|&c| c < 9)
        else {
            return self.fail(Reply::Broken(format!(
                "`{theirs}` is not a cell of a 3×3 board"
            )));
        };
        let mut with_theirs = filled(state);
        with_theirs[cell] = true;
        // Not fresh: the script's form was typed already, and refused.
        let mut tried = if fresh {
            Vec::new()
        } else {
            vec![format!("`{}`", fill(&self.script.send, state, theirs))]
        };
        for format in formats {
            let began = pace::now();
            let text = self.typed(format, state, theirs);
            if let Err(f) = self.send(&text, waits) {
                return self.fail(f);
            }
            tried.push(format!("`{text}`"));
            let turn = match self.wait_turn(waits) {
                Ok(turn) => turn,
                Err(miss) => {
                    let allowed = self.script.expect_timeout;
                    return self.missed(miss, "answer the move", allowed);
                }
            };
            let (Turn::Prompt(h) | Turn::End(h)) = &turn;
            let shown = convention::read_board(&h.before);
            let took = shown.as_ref().is_some_and(|b| b.cells[cell].is_some());
            if took {
                if self.learned.format != Some(format) {
                    self.learned.format = Some(format);
                    convention::remember(&self.key, self.learned);
                }
                return self.moved(state, &with_theirs, turn);
            }
            let said = quote(&h.text);
            if let Turn::End(_) = turn {
                return self.fail(Reply::Fault(format!(
                    "announced the end (`{said}`) while the game goes on"
                )));
            }
            if let Some(elsewhere) = shown
                .as_ref()
                .and_then(|b| convention::new_mark(&filled(state), b))
            {
                return self.fail(Reply::Fault(format!(
                    "took `{text}` ({}) as {} on its board",
                    cell_words(cell),
                    cell_words(elsewhere)
                )));
            }
            if confirmed {
                return self.fail(Reply::Fault(format!(
                    "asked for a move again (`{said}`) after the legal move `{text}`"
                )));
            }
            // A form it did not take is the grader's trial, not the program's thinking time.
            let spent = pace::since(began);
            self.unclocked += spent;
            waits = waits.map(|w| w + spent);
        }
        self.fail(Reply::Fault(format!(
            "asked again after the legal move {} typed as {}: the grader knows no other way to type it",
            cell_words(cell),
            tried.join(", ")
        )))
    }

    /// Types the script's invalid inputs for this prompt, in `format` where they name cells. `Err`
    /// ends the game.
    pub(super) fn probes<G: ArenaGame>(
        &mut self,
        state: &G,
        theirs: &str,
        format: Format,
        waits: &mut Option<Instant>,
    ) -> Result<(), Reply> {
        self.prompts += 1;
        let at = self.prompts;
        let probes: Vec<Probe> = self
            .script
            .probes
            .iter()
            .filter(|p| p.at == at)
            .cloned()
            .collect();
        let offs: Vec<String> = self
            .script
            .probes
            .iter()
            .filter(|p| p.about.starts_with("off the board"))
            .map(|p| p.send.clone())
            .collect();
        for probe in probes {
            let (text, about) = if probe.send.contains("{taken}") {
                // A cell the program has seen filled: the pending move is not on its board yet.
                let Some(cell) = state.occupied().into_iter().find(|c| c != theirs) else {
                    continue;
                };
                let typed = self.typed(format, state, &cell);
                (probe.send.replace("{taken}", &typed), probe.about.clone())
            } else if format != Format::Script && probe.about.starts_with("off the board") {
                // Off the board in the handout's format may be on it in the program's (`0 2` is a
                // cell from 0): the same kind of input, in its format.
                let nth = offs.iter().position(|s| *s == probe.send).unwrap_or(0);
                let text = format.off_board()[nth % 2].to_string();
                (text, format.off_board_about().to_string())
            } else {
                (probe.send.clone(), probe.about.clone())
            };
            let began = pace::now();
            let probed = self.probe(&text, &about);
            let spent = pace::since(began);
            self.unclocked += spent;
            *waits = waits.map(|w| w + spent);
            probed?;
        }
        Ok(())
    }

    /// Types one invalid input and checks that the program asks for the move again. `Err` ends the game.
    fn probe(&mut self, text: &str, about: &str) -> Result<(), Reply> {
        let waited = self.script.expect_timeout;
        let deadline = Some(pace::now() + waited);
        let (outcome, detail) = match self.send(text, deadline) {
            Err(fault) => (
                ProbeOutcome::Fault,
                Miss {
                    reply: fault,
                    output: String::new(),
                }
                .words("read it", waited),
            ),
            Ok(()) => {
                let (prompt, reply) = (self.script.prompt.clone(), self.script.reply.clone());
                let end = self.script.end.clone();
                let mut patterns = vec![&prompt, &reply];
                patterns.extend(end.as_ref());
                match self.expect(&patterns, deadline) {
                    Ok(hit) if hit.which == 0 => (
                        ProbeOutcome::Rejected,
                        format!("asked again after `{text}` ({about})"),
                    ),
                    Ok(hit) => (
                        ProbeOutcome::Accepted,
                        format!(
                            "accepted `{text}` ({about}) and went on: `{}`",
                            quote(&hit.text)
                        ),
                    ),
                    Err(miss) => (
                        ProbeOutcome::Fault,
                        format!(
                            "after `{text}` ({about}), {}",
                            miss.words("ask for the move again", waited)
                        ),
                    ),
                }
            }
        };
        self.facts.push(Fact::Probe {
            side: self.index,
            sent: text.to_string(),
            about: about.to_string(),
            outcome,
            detail: detail.clone(),
        });
        match outcome {
            ProbeOutcome::Rejected => Ok(()),
            _ => Err(self.fail(Reply::Fault(detail))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_a_program_printed_is_quoted_escaped() {
        let q = quote("\u{1b}]0;owned\u{7}I win\r\n");
        assert!(!q.contains('\u{1b}') && !q.contains('\u{7}'), "{q}");
        assert!(q.ends_with("I win"), "{q}");
    }

    #[test]
    fn cells_are_named_from_one() {
        assert_eq!(cell_words(5), "row 2, column 3");
    }
}
