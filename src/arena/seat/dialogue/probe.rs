//! The handout's item 5 ("verify that each of the opponent's moves is valid"): the suite's invalid
//! inputs typed at chosen prompts, in the program's own encoding (off the board as it numbers cells, an
//! occupied cell as it would be typed, words). The program must ask again: it waits for input with no
//! new mark on its board. Going on (a new mark, an end message), crashing, hanging or flooding ends
//! the game as its fault. Probes wait until the grader knows how the program takes moves.

use crate::arena::game::record::{Fact, ProbeOutcome};
use crate::arena::game::ArenaGame;
use crate::arena::seat::Reply;
use crate::sandbox::pace;

use super::io::Stop;
use super::question::{self, Ask, Part};
use super::{quote_head, DialogueSeat, Probe};

impl DialogueSeat {
    /// Types the probes due at this prompt (before the real move on `target`). `Err` ends the game.
    pub(super) fn probes<G: ArenaGame>(&mut self, state: &G, target: usize) -> Result<(), Reply> {
        let Some(encoding) = self
            .game
            .belief
            .best()
            .filter(|_| self.game.belief.settled())
        else {
            return Ok(());
        };
        self.game.prompts += 1;
        let at = self.game.prompts;
        let due: Vec<Probe> = self
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
        for probe in due {
            let prompt = self
                .game
                .heard
                .as_ref()
                .map(|h| h.text.clone())
                .unwrap_or_default();
            let part = match question::read(&prompt, true).ask {
                Ask::Move(p) => p,
                _ => Part::Whole,
            };
            let lines: Vec<String> = if probe.send.contains("{taken}") {
                // A cell the program has seen filled (the pending move is not on its board yet).
                let Some(cell) = (0..9).find(|&c| c != target && self.game.cells[c].is_some())
                else {
                    continue;
                };
                encoding
                    .answers(cell, part)
                    .into_iter()
                    .map(|(_, text)| text)
                    .collect()
            } else if probe.about.starts_with("off the board") {
                let nth = offs.iter().position(|s| *s == probe.send).unwrap_or(0);
                match part {
                    Part::Whole => vec![encoding.off_board()[nth % 2].clone()],
                    _ => vec![encoding.off_board_part()],
                }
            } else {
                vec![probe.send.clone()]
            };
            // An input off the board is said to be so in the program's own terms (`cells are 1 to
            // 9`), whatever encoding the suite's words assumed.
            let about = if probe.about.starts_with("off the board") {
                format!("off the board: {}", encoding.bounds())
            } else {
                probe.about.clone()
            };
            let began = pace::now();
            let probed = self.probe(&lines, &about);
            self.unclocked += pace::since(began);
            probed?;
        }
        let _ = state;
        Ok(())
    }

    /// Types one invalid input (one line, or the parts of a move) and checks that the program asks
    /// for the move again.
    fn probe(&mut self, lines: &[String], about: &str) -> Result<(), Reply> {
        let shown = lines
            .iter()
            .map(|l| format!("`{l}`"))
            .collect::<Vec<_>>()
            .join(" then ");
        let waited = self.script.expect_timeout;
        let mut heard = None;
        for line in lines {
            let deadline = pace::now() + waited;
            if let Err(fault) = self.type_text(line, deadline) {
                let detail = format!("after {shown} ({about}), it stopped reading: {fault:?}");
                return Err(self.probe_fact(lines, about, ProbeOutcome::Fault, detail));
            }
            let h = self.hear(deadline);
            let stop = h.stop.clone();
            let new = self.new_marks(&h.text);
            heard = Some(h);
            if stop != Stop::Waiting || !new.is_empty() {
                break;
            }
        }
        let heard = heard.expect("a probe has a line");
        let new = self.new_marks(&heard.text);
        let said_end = super::end::claim(&heard.text, self.game.name.as_deref()).is_some();
        let (outcome, detail) = match (&heard.stop, new.is_empty() && !said_end) {
            (Stop::Waiting, true) => (
                ProbeOutcome::Rejected,
                format!("asked again after {shown} ({about})"),
            ),
            (Stop::Waiting, false) | (Stop::Ended(_), false) => (
                ProbeOutcome::Accepted,
                format!(
                    "accepted {shown} ({about}) and went on: `{}`",
                    quote_head(&heard.text)
                ),
            ),
            (_, _) => {
                let sent = lines.last().cloned().unwrap_or_default();
                let why = match heard.fault(&sent) {
                    Reply::Crashed(how) => format!("crashed ({how})"),
                    Reply::Timeout => "did not ask again in time".to_string(),
                    Reply::Flood(n) => format!("printed {n} bytes without asking again"),
                    Reply::Idle(d) => format!(
                        "slept {} without asking again",
                        crate::arena::game::record::seconds(d)
                    ),
                    other => format!("{other:?}"),
                };
                (
                    ProbeOutcome::Fault,
                    format!(
                        "after {shown} ({about}), {why}{}",
                        super::turn::last_output(&heard.text)
                    ),
                )
            }
        };
        if outcome == ProbeOutcome::Rejected {
            self.game.heard = Some(heard);
            self.probe_fact(lines, about, outcome, detail);
            return Ok(());
        }
        Err(self.probe_fact(lines, about, outcome, detail))
    }

    /// Records a probe's outcome; the reply that ends the game when it was not rejected.
    fn probe_fact(
        &mut self,
        lines: &[String],
        about: &str,
        outcome: ProbeOutcome,
        detail: String,
    ) -> Reply {
        self.facts.push(Fact::Probe {
            side: self.me(),
            sent: lines.join(" "),
            about: about.to_string(),
            outcome,
            detail: detail.clone(),
        });
        if outcome == ProbeOutcome::Rejected {
            return Reply::Line(String::new());
        }
        self.fail(Reply::Fault(detail))
    }
}
