//! The sequential probability ratio test between two entrants, as chess engine testers run it
//! (fastchess, cutechess, fishtest): a trinomial SPRT on the logistic Elo scale, which says whether
//! the games played already settle "A is stronger than B", or more are needed.
//!
//! Kept by hand: it is one formula (the log-likelihood ratio of W/D/L under the two hypotheses); no
//! maintained crate provides it.

use crate::arena::event::standings::Row;
use crate::arena::game::record::{GameRecord, GameResult};

/// The hypotheses and error rates: H0 "A is `elo0` stronger than B", H1 "A is `elo1` stronger",
/// accepting H1 wrongly with probability `alpha`, H0 wrongly with probability `beta`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}

/// What the games so far say.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    /// H1: A is stronger by `elo1` (the ranking is settled).
    Stronger,
    /// H0: A is not stronger by more than `elo0`.
    NotStronger,
    /// Neither bound reached: more games could change the verdict.
    Continue,
}

impl Sprt {
    /// The grader's defaults: student programs differ by far more than chess engine patches, so H1 is
    /// 100 Elo (a 64% score) against H0's 0, at 5% error each way.
    pub const DEFAULT: Sprt = Sprt {
        elo0: 0.0,
        elo1: 100.0,
        alpha: 0.05,
        beta: 0.05,
    };

    /// Reads `ELO0,ELO1[,ALPHA,BETA]` (`0,100` or `0,50,0.05,0.1`).
    ///
    /// # Errors
    /// Not two or four numbers, `elo0 ≥ elo1`, or an error rate outside (0, 0.5).
    pub fn parse(text: &str) -> Result<Sprt, String> {
        let nums: Result<Vec<f64>, _> = text.split(',').map(|p| p.trim().parse::<f64>()).collect();
        let nums = nums.map_err(|_| format!("`{text}` is not numbers separated by commas"))?;
        let s = match *nums.as_slice() {
            [elo0, elo1] => Sprt {
                elo0,
                elo1,
                ..Sprt::DEFAULT
            },
            [elo0, elo1, alpha, beta] => Sprt {
                elo0,
                elo1,
                alpha,
                beta,
            },
            _ => {
                return Err(format!(
                    "`{text}` is not `ELO0,ELO1` or `ELO0,ELO1,ALPHA,BETA`"
                ))
            }
        };
        if s.elo0 >= s.elo1 || !s.elo0.is_finite() || !s.elo1.is_finite() {
            return Err(format!("`{text}`: ELO0 must be below ELO1"));
        }
        if ![s.alpha, s.beta].iter().all(|e| *e > 0.0 && *e < 0.5) {
            return Err(format!(
                "`{text}`: ALPHA and BETA must be between 0 and 0.5"
            ));
        }
        Ok(s)
    }

    /// The lower and upper bounds on the log-likelihood ratio: ln(β / (1 − α)) and ln((1 − β) / α).
    #[must_use]
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The log-likelihood ratio of H1 against H0 for A's `wins`, `draws` and `losses` against B, in
    /// the trinomial model with the draw rate fixed at the one observed (its maximum-likelihood value,
    /// the same under both hypotheses): at expected score s = 1 / (1 + 10^(−elo/400)) a game is won
    /// with probability s − d/2 and lost with 1 − s − d/2, so the draws cancel and the ratio is
    /// W ln(w1/w0) + L ln(l1/l0). For many games this is the normal approximation fastchess and
    /// fishtest use (their reference values agree to 0.01); for the few games a class plays it stays
    /// exact, where that approximation calls 4 wins out of 4 decisive.
    #[must_use]
    pub fn llr(&self, wins: u32, draws: u32, losses: u32) -> f64 {
        let n = f64::from(wins) + f64::from(draws) + f64::from(losses);
        if n == 0.0 {
            return 0.0;
        }
        let d = f64::from(draws) / n;
        let score = |elo: f64| 1.0 / (1.0 + 10f64.powf(-elo / 400.0));
        // A count of 0 contributes nothing, whatever its probability.
        let term = |count: u32, p1: f64, p0: f64| {
            if count == 0 {
                0.0
            } else {
                f64::from(count) * (p1.max(1e-12) / p0.max(1e-12)).ln()
            }
        };
        let (s0, s1) = (score(self.elo0), score(self.elo1));
        term(wins, s1 - d / 2.0, s0 - d / 2.0)
            + term(losses, 1.0 - s1 - d / 2.0, 1.0 - s0 - d / 2.0)
    }

    /// The verdict for A's record against B.
    #[must_use]
    pub fn decide(&self, wins: u32, draws: u32, losses: u32) -> Decision {
        let llr = self.llr(wins, draws, losses);
        let (lower, upper) = self.bounds();
        if llr >= upper {
            Decision::Stronger
        } else if llr <= lower {
            Decision::NotStronger
        } else {
            Decision::Continue
        }
    }

    /// One line for the standings: `sprt [0, 100] a vs b: LLR 3.10 (-2.94, 2.94): a is stronger`.
    #[must_use]
    pub fn line(&self, a: &str, b: &str, wins: u32, draws: u32, losses: u32) -> String {
        let (lower, upper) = self.bounds();
        let what = match self.decide(wins, draws, losses) {
            Decision::Stronger => format!("H1 accepted: {a} is stronger than {b}"),
            Decision::NotStronger => format!(
                "H0 accepted: {a} is not shown {} Elo stronger than {b}",
                self.elo1
            ),
            Decision::Continue => "undecided: more games could change the ranking".to_string(),
        };
        format!(
            "sprt [{}, {}] {a} vs {b} ({wins}-{draws}-{losses}): LLR {:.2} ({:.2}, {:.2}): {what}",
            self.elo0,
            self.elo1,
            self.llr(wins, draws, losses),
            lower,
            upper
        )
    }
}

/// `a`'s wins, draws and losses against `b` in `records` (either colour; a double fault counts as a
/// loss for both, so it is left out).
#[must_use]
pub fn head_to_head(records: &[GameRecord], a: &str, b: &str) -> (u32, u32, u32) {
    let mut wdl = (0, 0, 0);
    for r in records {
        let Some(me) = r.players.iter().position(|p| p == a) else {
            continue;
        };
        if r.players[1 - me] != b {
            continue;
        }
        match r.result {
            GameResult::Win(s) if s == me => wdl.0 += 1,
            GameResult::Draw { .. } => wdl.1 += 1,
            GameResult::Win(_) => wdl.2 += 1,
            GameResult::BothLost => {}
        }
    }
    wdl
}

/// For each pair of entrants next to each other in a stage's table (`rows` in ranking order), the
/// test on their games against each other: one line each, and whether every pair is decided.
#[must_use]
pub fn adjacent(sprt: &Sprt, rows: &[Row], records: &[GameRecord]) -> (Vec<String>, bool) {
    let mut lines = Vec::new();
    let mut settled = true;
    for pair in rows.windows(2) {
        let (a, b) = (&pair[0].name, &pair[1].name);
        let (w, d, l) = head_to_head(records, a, b);
        settled &= sprt.decide(w, d, l) != Decision::Continue;
        lines.push(sprt.line(a, b, w, d, l));
    }
    (lines, settled)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::game::record::fixtures::tictactoe;
    use crate::arena::game::record::Ending;

    #[test]
    fn head_to_head_counts_both_colours_and_only_the_pair() {
        let game = |x: &str, o: &str, result| GameRecord {
            players: [x.into(), o.into()],
            ..tictactoe(result, Ending::Rules, "")
        };
        let records = [
            game("a", "b", GameResult::Win(0)),
            game("b", "a", GameResult::Win(0)),
            game("b", "a", GameResult::Win(1)),
            game("a", "b", GameResult::Draw { edge: None }),
            game("a", "c", GameResult::Win(0)),
            game("a", "b", GameResult::BothLost),
        ];
        assert_eq!(head_to_head(&records, "a", "b"), (2, 1, 1));
        assert_eq!(head_to_head(&records, "b", "a"), (1, 1, 2));
        assert_eq!(head_to_head(&records, "c", "a"), (0, 0, 1));
    }

    /// fastchess's own test cases for its logistic trinomial SPRT (`tests/sprt_test.cpp`, "logistic
    /// trinomial 1" and "2": `Stats(wins, losses, draws)` and the LLR it checks to 1%), found with the
    /// project's code search in fastchess's repository.
    #[test]
    fn the_llr_matches_fastchess_reference_values() {
        let s = |elo0, elo1| Sprt {
            elo0,
            elo1,
            alpha: 0.05,
            beta: 0.05,
        };
        let a = s(0.5, 2.5).llr(21_404, 40_708, 21_184);
        assert!((a - -1.57).abs() < 0.01, "{a}");
        let b = s(0.0, 2.0).llr(57_433, 106_593, 57_030);
        assert!((b - -2.59).abs() < 0.01, "{b}");
        // The bounds for α = β = 0.05 are ±ln 19.
        let (lo, hi) = s(0.0, 2.0).bounds();
        assert!((hi - 19f64.ln()).abs() < 1e-12 && (lo + 19f64.ln()).abs() < 1e-12);
    }

    fn score(elo: f64) -> f64 {
        1.0 / (1.0 + 10f64.powf(-elo / 400.0))
    }

    #[test]
    fn a_clear_result_decides_and_an_even_one_waits() {
        let s = Sprt::DEFAULT;
        assert_eq!(s.decide(20, 0, 0), Decision::Stronger);
        // 4 wins of 4 are not enough: at 50% and at 64% (100 Elo) they are 1/16 and 0.168 likely.
        let four = s.llr(4, 0, 0);
        assert!(
            (four - 4.0 * (score(100.0) / 0.5).ln()).abs() < 1e-12,
            "{four}"
        );
        assert_eq!(s.decide(4, 0, 0), Decision::Continue);
        assert_eq!(s.decide(0, 0, 20), Decision::NotStronger);
        assert_eq!(s.decide(3, 2, 3), Decision::Continue);
        assert_eq!(s.decide(0, 0, 0), Decision::Continue);
        assert_eq!(
            s.line("a", "b", 3, 2, 3),
            "sprt [0, 100] a vs b (3-2-3): LLR -0.45 (-2.94, 2.94): undecided: more games could change the ranking"
        );
    }

    #[test]
    fn bad_settings_are_named() {
        assert_eq!(Sprt::parse("0,50").unwrap().elo1, 50.0);
        assert_eq!(Sprt::parse("0, 50, 0.1, 0.2").unwrap().beta, 0.2);
        assert!(Sprt::parse("50,0").unwrap_err().contains("below"));
        assert!(Sprt::parse("0,50,0.7,0.1").unwrap_err().contains("ALPHA"));
        assert!(Sprt::parse("zero").unwrap_err().contains("`zero`"));
    }
}
