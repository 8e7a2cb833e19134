//! The opening: starts the program and answers its questions before the game (which mark, who moves
//! first, against whom, a name, a size, Enter to begin) by what they ask, for the side the referee gave
//! it, until it asks for the user's move or makes its own first move. A program that decides who moves
//! first itself plays the side it took (the referee swaps the seats). The handout's rule 1 is checked:
//! the program asks which mark the user wants, and the player with X moves first.

use reference::Player;

use crate::arena::game::record::Fact;
use crate::arena::seat::{Reply, Start};

use super::encoding::{Belief, Labels};
use super::io::{Io, Stop};
use super::question::{self, Ask, Want};
use super::{board, quote, DialogueSeat};

/// Most questions answered before the game; a program that asks more is not understood.
const QUESTIONS: usize = 12;

/// What the opening ended with.
enum Opened {
    /// The program waits for the user's move: the user moves first.
    UserFirst,
    /// The program made its first move, on this cell, with this mark.
    ProgramFirst(usize, String),
}

impl DialogueSeat {
    /// `Seat::start`: the opening, through to the first move.
    pub(super) fn open(&mut self, start: &Start) -> Result<(), Reply> {
        self.assigned = start.side;
        self.side = start.side;
        self.wall_cap = start.wall_cap;
        if let Some(why) = self.memory.unfollowed.clone() {
            // Not run again: its earlier game showed the grader cannot follow it.
            let reply = Reply::Unfollowed(why);
            self.opening_fact(false, Self::opening_failed(&reply));
            return Err(reply);
        }
        let io = Io::start(&*self.sandbox, &self.spec, &self.stderr)?;
        self.io = Some(io);
        // The opening's questions, and the program's own first move if it makes one (under a CPU
        // clock, in CPU time: a loaded machine slows a JVM's start, it does not make it late).
        let allowed = self.script.expect_timeout + start.limit.unwrap_or_default();
        let want = Want {
            user_first: start.side == Player::Second,
        };
        match self.questions(want, allowed) {
            Ok(Opened::UserFirst) => self.side = Player::Second,
            Ok(Opened::ProgramFirst(cell, token)) => {
                self.side = Player::First;
                self.game.first_move = Some(cell);
                self.game.tokens[0] = Some(token);
            }
            Err(reply) => {
                if let Reply::Unfollowed(why) = &reply {
                    self.memory.unfollowed = Some(why.clone());
                    self.remember();
                }
                self.opening_fact(false, Self::opening_failed(&reply));
                self.stop();
                return Err(reply);
            }
        }
        self.check_rule_one();
        // An opening with the encoding known from the start is what every later game of this side
        // meets (`memory::Memory::learned`).
        let given = usize::from(start.side == Player::Second);
        if self.memory.encoding.is_some() && !self.memory.opened[given] {
            self.memory.opened[given] = true;
            self.remember();
        }
        Ok(())
    }

    /// Answers questions until the program asks for a move or makes one.
    fn questions(&mut self, want: Want, allowed: std::time::Duration) -> Result<Opened, Reply> {
        let mut asked: Vec<(Ask, usize)> = Vec::new();
        let mut text_so_far = String::new();
        // The last question read and the answer typed to it.
        let mut answered: Option<(question::Question, String, String)> = None;
        for _ in 0..QUESTIONS {
            let until = self.until(allowed);
            let heard = self.hear(until);
            text_so_far.push_str(&heard.text);
            match &heard.stop {
                Stop::Waiting => {}
                _ => return Err(self.opening_fault(&heard)),
            }
            if heard.text.trim().is_empty() {
                if let Some((q, said, answer)) = &answered {
                    return Err(self.silent_after(q, said, answer));
                }
            }
            if let Some(opened) = self.first_board(&heard.text)? {
                self.hint_encoding(&text_so_far);
                self.game.heard = Some(heard);
                return Ok(opened);
            }
            let mut q = question::read(&heard.text, false);
            if q.ask == Ask::Unknown && !board::grids(&text_so_far).is_empty() {
                // A prompt in words of its own after a board or a guide to the cells (`Your Nove:`,
                // `Human : `): a person would type a move.
                q.ask = Ask::Move(question::Part::Whole);
            }
            if let Ask::Move(_) = q.ask {
                self.hint_encoding(&text_so_far);
                self.game.heard = Some(heard);
                return Ok(Opened::UserFirst);
            }
            // The same question again: its answer was not taken, so the next one is tried.
            let tries = asked.iter().filter(|(a, _)| *a == q.ask).count();
            asked.push((q.ask.clone(), 0));
            let answer = self.answer(&q, want, tries, &heard.text)?;
            self.type_text(&answer, until.wall)?;
            answered = (!heard.text.trim().is_empty()).then(|| (q, heard.text.clone(), answer));
        }
        Err(self.unfollowed(format!(
            "it asked {QUESTIONS} questions before the game and the grader found no move among them; its last output was `{}`",
            quote(&text_so_far)
        )))
    }

    /// The program asked `said`, took `answer`, and then waited for more without printing a thing. A
    /// question the grader read (`Press Enter`, `X or O?`) answered as it asks: the program's fault.
    /// One it could not read: its answer may have been the wrong one, so a person looks.
    fn silent_after(&mut self, q: &question::Question, said: &str, answer: &str) -> Reply {
        let asked = said
            .lines()
            .rev()
            .find(|l| !l.trim().is_empty())
            .unwrap_or_default();
        let typed = if answer.is_empty() {
            "Enter".to_string()
        } else {
            format!("`{answer}`")
        };
        if q.ask == Ask::Unknown {
            return self.unfollowed(format!(
                "it asked `{}`, which the grader could not read, and after {typed} it printed nothing and waited",
                quote(asked)
            ));
        }
        self.stop();
        Reply::Fault(format!(
            "printed nothing after {typed} (its answer to `{}`) and waited for more input",
            quote(asked)
        ))
    }

    /// What to answer to `q` (asked `tries` times already), by what it asks.
    fn answer(
        &mut self,
        q: &question::Question,
        want: Want,
        tries: usize,
        text: &str,
    ) -> Result<String, Reply> {
        // The suite's own opening question comes first (WPI: `X or O`).
        if let Some(step) = self.script.opening.first() {
            if tries == 0 && step.expect.is_match(text) && q.ask == Ask::Mark {
                let mark = if want.user_first { "X" } else { "O" };
                self.game.user_mark = Some(mark.to_string());
                self.game.opening.push("asked X or O".into());
                return Ok(mark.to_string());
            }
        }
        if text.trim().is_empty() && tries >= 1 {
            return Err(self.unfollowed(
                "it waited for input before printing anything, and the grader could not tell what it wants (a command it documents elsewhere?)".into(),
            ));
        }
        let answers = q.answers(want);
        let Some(answer) = answers.get(tries).cloned() else {
            return Err(self.unfollowed(format!(
                "it asked `{}` again after every answer the grader could give ({})",
                quote(text),
                answers
                    .iter()
                    .map(|a| format!("`{a}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            )));
        };
        match q.ask {
            Ask::Mark => {
                self.game.user_mark = Some(answer.to_uppercase());
                self.game.opening.push("asked X or O".into());
            }
            Ask::First { .. } if tries == 0 => {
                let asked = text
                    .lines()
                    .rev()
                    .find(|l| !l.trim().is_empty())
                    .unwrap_or_default();
                self.game
                    .opening
                    .push(format!("asked who moves first (`{}`)", quote(asked)));
            }
            Ask::Name => self.game.name = Some(answer.clone()),
            _ => {}
        }
        Ok(answer)
    }

    /// A board printed before the game: an empty one teaches what empty cells look like; one with a
    /// single mark is the program's first move.
    fn first_board(&mut self, text: &str) -> Result<Option<Opened>, Reply> {
        let Some(grid) = board::last_grid(text) else {
            return Ok(None);
        };
        let marks = self.game.empties.marks(&grid);
        let shown: Vec<(usize, &String)> = marks
            .iter()
            .enumerate()
            .filter_map(|(i, m)| m.as_ref().map(|m| (i, m)))
            .collect();
        match shown.as_slice() {
            [] => {
                // A guide numbering the cells is empty too (`1 2 3`): its numbers teach the encoding.
                self.game.empties.learn(&grid);
                Ok(None)
            }
            [(cell, token)] => Ok(Some(Opened::ProgramFirst(*cell, (*token).clone()))),
            _ => Err(self.unfollowed(format!(
                "before any move it showed a board with {} marks: `{}`",
                shown.len(),
                quote(text)
            ))),
        }
    }

    /// Ranks the encodings by everything printed before the first move.
    fn hint_encoding(&mut self, text: &str) {
        if self.memory.encoding.is_some() {
            return;
        }
        let grids = board::grids(text);
        let numbered = grids.iter().rev().find_map(board::numbering_of);
        let mut labels = Labels::default();
        if let Some(g) = grids.last() {
            let base = |l: &[String; 3]| match l[0].as_str() {
                "0" => Some(0),
                "1" => Some(1),
                _ => None,
            };
            labels.base = g
                .row_labels
                .as_ref()
                .and_then(base)
                .or(g.col_labels.as_ref().and_then(base));
            labels.row_letters = g
                .row_labels
                .as_ref()
                .is_some_and(|l| l[0].eq_ignore_ascii_case("a"));
            labels.col_letters = g
                .col_labels
                .as_ref()
                .is_some_and(|l| l[0].eq_ignore_ascii_case("a"));
        }
        // The suite's own template (`{row} {col}`) counts as printed: a program on the handout's
        // convention needs no hint.
        let hinted = format!(
            "{text}\n{}",
            self.script
                .send
                .replace("{row}", "row")
                .replace("{col}", "col")
        );
        self.game.belief = Belief::new(&hinted, numbered, labels);
    }

    /// Rule 1 of the handout: the program asks which mark the user wants, and X moves first.
    fn check_rule_one(&mut self) {
        let program_first = self.side == Player::First;
        let (ok, detail) = match self.game.user_mark.as_deref() {
            Some(mark) => {
                let user_x = mark.eq_ignore_ascii_case("x");
                if user_x != program_first {
                    (true, "asked whether the user wants X or O, and X moved first (rule 1)".to_string())
                } else {
                    (false, format!(
                        "asked whether the user wants X or O, but the user chose {mark} and {} moved first: the handout says X moves first (rule 1)",
                        if program_first { "the program" } else { "the user" }
                    ))
                }
            }
            None => (false, format!(
                "did not ask whether the user wants X or O, which the handout asks for first (rule 1: \"Initially, your program should ask the user which marks the user prefers\"){}",
                if self.game.opening.is_empty() { "; it asked nothing before the game".to_string() } else { format!("; it {}", self.game.opening.join(", then ")) }
            )),
        };
        self.opening_fact(ok, detail);
    }

    fn opening_fact(&mut self, ok: bool, detail: String) {
        if self.facts.iter().any(|f| matches!(f, Fact::Opening { .. })) {
            return;
        }
        self.facts.push(Fact::Opening {
            side: self.me(),
            ok,
            detail,
        });
    }

    fn opening_failed(reply: &Reply) -> String {
        match reply {
            Reply::Unfollowed(why) => {
                format!("the game never started: the grader could not follow it: {why}")
            }
            Reply::Fault(why) => format!("the game never started: it {why}"),
            Reply::Crashed(how) => format!("the game never started: it crashed ({how})"),
            Reply::Timeout => "the game never started: it did not answer in time".to_string(),
            Reply::Flood(n) => {
                format!("the game never started: it printed {n} bytes without waiting for input")
            }
            Reply::Idle(d) => format!(
                "the game never started: it {}",
                crate::arena::referee::idle_words(*d)
            ),
            Reply::Waiting(sent) => format!(
                "the game never started: it {}",
                crate::arena::referee::waiting_words(sent)
            ),
            Reply::Broken(why) => {
                format!("the game never started: the grader could not run it: {why}")
            }
            Reply::ClosedPipe | Reply::Garbage | Reply::Line(_) => {
                "the game never started".to_string()
            }
        }
    }

    /// The program ended, flooded or hung before the game began: its fault.
    fn opening_fault(&mut self, heard: &super::io::Heard) -> Reply {
        let sent = self
            .io
            .as_ref()
            .map(|io| io.sent.clone())
            .unwrap_or_default();
        let fault = heard.fault(&sent);
        let shown = if heard.text.trim().is_empty() {
            "; it printed nothing".to_string()
        } else {
            format!("; its last output was `{}`", quote(&heard.text))
        };
        match fault {
            Reply::Crashed(how) => {
                Reply::Fault(format!("ended ({how}) before the game began{shown}"))
            }
            Reply::Timeout => Reply::Fault(format!(
                "did not ask anything or move within the time allowed{shown}"
            )),
            other => other,
        }
    }
}
