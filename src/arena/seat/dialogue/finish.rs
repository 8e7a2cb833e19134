//! The end of a game: the opponent's final move typed (when it ended the game), the program's
//! end-of-game message read (the handout's item 6: "print a message stating who won") and checked
//! against the real result, and the facts of the game for the record.

use crate::arena::game::record::{Fact, GameRecord, GameResult};
use crate::sandbox::pace;

use super::end::{self, Claim};
use super::io::Stop;
use super::question::{self, Ask, Part};
use super::{quote, result_words, DialogueSeat};

/// What the program printed at the end of the game.
pub(super) struct EndSeen {
    said: Option<String>,
    claim: Option<GameResult>,
    detail: String,
}

impl DialogueSeat {
    /// `Seat::finish`: types the opponent's final move if the program has not seen it, reads the
    /// end-of-game message, and stops the program.
    pub(super) fn end_game(&mut self, unseen: Option<&str>) -> Option<String> {
        self.io.as_ref()?;
        let waited = self.script.expect_timeout;
        let mut text = std::mem::take(&mut self.game.after);
        if let Some(theirs) = unseen {
            text = self.type_final(theirs, waited);
        } else if self.claim_of(&text).is_none()
            && !self.io.as_ref().is_some_and(super::io::Io::ended)
        {
            // The message may still be coming.
            let heard = self.hear(pace::now() + waited);
            text.push_str(&heard.text);
        }
        let seen = match self.claim_of(&text) {
            Some((claim, said)) => EndSeen {
                claim: Some(claim),
                detail: format!("announced the end: `{}`", quote(&said)),
                said: Some(said),
            },
            None => EndSeen {
                said: None,
                claim: None,
                detail: if text.trim().is_empty() {
                    "did not announce the end of the game: it printed nothing more".to_string()
                } else if let Ask::Move(_) = question::read(&text, true).ask {
                    let asked = text
                        .lines()
                        .rev()
                        .find(|l| !l.trim().is_empty())
                        .unwrap_or_default();
                    format!(
                        "did not announce the end of the game; it went on with `{}`",
                        quote(asked)
                    )
                } else {
                    format!(
                        "did not announce the end of the game (no message saying who won); its last output was `{}`",
                        quote(&text)
                    )
                },
            },
        };
        let note = format!("{} {}", ["x", "o"][self.me()], seen.detail);
        self.game.end = Some(seen);
        self.remember();
        self.stop();
        Some(note)
    }

    /// Types the opponent's game-ending move (the program waits for it) and reads what follows.
    fn type_final(&mut self, theirs: &str, waited: std::time::Duration) -> String {
        let Some(cell) = theirs
            .parse::<usize>()
            .ok()
            .filter(|&c| c < 9)
            .or_else(|| self.cell_named(theirs))
        else {
            return String::new();
        };
        let Some(encoding) = self.game.belief.best() else {
            return String::new();
        };
        let prompt = self.game.heard.take().map(|h| h.text).unwrap_or_default();
        let lines: Vec<String> = match question::read(&prompt, true).ask {
            Ask::Move(Part::Row) => [Part::Row, Part::Col]
                .into_iter()
                .filter_map(|p| encoding.part(cell, p))
                .collect(),
            Ask::Move(Part::Col) => [Part::Col, Part::Row]
                .into_iter()
                .filter_map(|p| encoding.part(cell, p))
                .collect(),
            _ => vec![encoding.typed(cell)],
        };
        let mut text = String::new();
        for line in &lines {
            let deadline = pace::now() + waited;
            if self.type_text(line, deadline).is_err() {
                break;
            }
            let heard = self.hear(deadline);
            text.push_str(&heard.text);
            if heard.stop != Stop::Waiting || !self.new_marks(&heard.text).is_empty() {
                break;
            }
        }
        text
    }

    /// The cell a move in tic-tac-toe's notation names (`0`-`8`), for the final move.
    fn cell_named(&self, mv: &str) -> Option<usize> {
        mv.trim().parse().ok().filter(|&c: &usize| c < 9)
    }

    /// The result the end-of-game message in `text` states, with the phrase: the suite's pattern
    /// first, then the usual phrases (`X wins`, `You win`, `I win`, `It's a tie`).
    pub(super) fn claim_of(&self, text: &str) -> Option<(GameResult, String)> {
        let me = self.me();
        if let Some(re) = &self.script.end {
            if let Some(caps) = re.captures(text) {
                let said = caps.get(0).map_or("", |m| m.as_str()).to_string();
                let claim = re
                    .capture_names()
                    .flatten()
                    .filter(|n| caps.name(n).is_some())
                    .find_map(|n| match n.trim_end_matches(|c: char| c.is_ascii_digit()) {
                        "x" | "o" => self.mark_side(n).map(GameResult::Win),
                        "me" => Some(GameResult::Win(me)),
                        "you" => Some(GameResult::Win(1 - me)),
                        "draw" => Some(GameResult::Draw { edge: None }),
                        _ => None,
                    });
                if let Some(claim) = claim {
                    return Some((claim, said));
                }
            }
        }
        let (claim, said) = end::claim(text, self.game.name.as_deref())?;
        let result = match claim {
            Claim::Mark(m) => GameResult::Win(self.mark_side(&m)?),
            Claim::User => GameResult::Win(1 - me),
            Claim::Program => GameResult::Win(me),
            Claim::Draw => GameResult::Draw { edge: None },
        };
        Some((result, said))
    }

    /// The colour whose mark the program prints as `mark` (`X`, `o`, `0`); by the handout's
    /// convention (X moves first) when its board never showed the marks.
    fn mark_side(&self, mark: &str) -> Option<usize> {
        let norm = |t: &str| t.trim().to_uppercase().replace('0', "O");
        let want = norm(mark);
        (0..2)
            .find(|&s| self.game.tokens[s].as_deref().map(norm).as_deref() == Some(want.as_str()))
            .or(match want.as_str() {
                "X" => Some(0),
                "O" => Some(1),
                _ => None,
            })
    }

    /// The game's facts: the opening, the probes, what was understood, the end message checked.
    pub(super) fn game_facts(&mut self, record: &GameRecord) -> Vec<Fact> {
        let mut facts = std::mem::take(&mut self.facts);
        if let Some(detail) = self.understood() {
            facts.push(Fact::Understood {
                side: self.me(),
                detail,
            });
        }
        if let Some(seen) = self.game.end.take() {
            let right = match (seen.claim, record.result) {
                (Some(GameResult::Win(a)), GameResult::Win(b)) => a == b,
                (Some(GameResult::Draw { .. }), GameResult::Draw { .. }) => true,
                _ => false,
            };
            let detail = match (seen.claim, right) {
                (Some(claim), false) => format!(
                    "{}, which says {} but the game ended in {}",
                    seen.detail,
                    result_words(claim, &record.colours),
                    result_words(record.result, &record.colours)
                ),
                _ => seen.detail,
            };
            facts.push(Fact::End {
                side: self.me(),
                said: seen.said,
                claim: seen.claim,
                right,
                detail,
            });
        }
        facts
    }

    /// How the grader understood the program, in a student's words: `moves typed as one cell number
    /// 1-9 row by row: `6` is row 2, column 3`.
    /// Nothing when the program takes moves as the suite's template types them (the handout's way).
    fn understood(&self) -> Option<String> {
        let encoding = self
            .game
            .belief
            .best()
            .filter(|_| self.game.belief.settled())?;
        let template = |cell: usize| {
            self.script
                .send
                .replace("{row}", &(cell / 3 + 1).to_string())
                .replace("{col}", &(cell % 3 + 1).to_string())
        };
        if (0..9).all(|c| template(c) == encoding.typed(c)) {
            return None;
        }
        Some(encoding.words())
    }
}
