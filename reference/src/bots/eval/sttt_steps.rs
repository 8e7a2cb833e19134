//! Super-TTT placement by placement for the bots: the step view's evaluator, move ordering and
//! playouts, and which of Super-TTT's bots search over placements (`minimax:D`, `mcts:N`).

use std::cmp::Reverse;

use crate::bots::{Bot, Mcts, MctsBudget, Playable, Split, SplitTurn, TurnSearch, WIN};
use crate::game::{Game, Outcome, Player};
use crate::games::sttt::{board_cost, line_cost, Placement, Sttt, Turn, FAR};
use crate::games::tri::{has_line, FULL, LINES};
use crate::games::SttSteps;
use crate::rng::Rng;

impl Sttt {
    /// A placement that wins the game at once for the side to move: a square completing a little line
    /// on a board that completes a big line.
    pub(crate) fn winning_placement(&self) -> Option<Placement> {
        let me = self.to_move();
        let (own, other) = self.cell_masks(me);
        let won = self.won_mask(me);
        for b in 0..9 {
            if self.open_cells(b) == 0 || !has_line(won | 1 << b) {
                continue;
            }
            for &l in &LINES {
                if l & other[b] == 0 && (l & own[b]).count_ones() == 2 {
                    return Some(Placement {
                        big: b as u8,
                        little: (l & !own[b]).trailing_zeros() as u8,
                    });
                }
            }
        }
        None
    }

    /// Can the side to move, with `left` placements, leave the opponent (whose cost per little board
    /// is `theirs`) needing three or more placements for every big line? Only squares on boards of
    /// the opponent's cheap lines can help, so at most a few hundred pairs are tried.
    fn can_hold_off(&self, theirs: &[u32; 9], left: u32) -> bool {
        let (own, other) = self.cell_masks(self.to_move());
        let mut squares = Vec::with_capacity(27);
        for bs in &LINE_BOARDS {
            if bs.iter().map(|&b| theirs[b]).sum::<u32>() > 2 {
                continue;
            }
            for &b in bs {
                let mut open = self.open_cells(b);
                if squares.iter().any(|&(sb, _)| sb == b) {
                    continue;
                }
                while open != 0 {
                    squares.push((b, 1u16 << open.trailing_zeros()));
                    open &= open - 1;
                }
            }
        }
        // The opponent's cost of board `b` once we hold `mine` there (only that board changes).
        let cost_after = |b: usize, mine: u16| {
            if has_line(mine) || (mine | other[b]) == FULL {
                FAR
            } else {
                board_cost(other[b], mine)
            }
        };
        let held = |t: &[u32; 9]| cheapest_line(t) > 2;
        for &(b, bit) in &squares {
            let mut t = *theirs;
            t[b] = cost_after(b, own[b] | bit);
            if held(&t) {
                return true;
            }
        }
        if left < 2 {
            return false;
        }
        for (i, &(b1, bit1)) in squares.iter().enumerate() {
            for &(b2, bit2) in &squares[i + 1..] {
                let mut t = *theirs;
                if b1 == b2 {
                    t[b1] = cost_after(b1, own[b1] | bit1 | bit2);
                } else {
                    t[b1] = cost_after(b1, own[b1] | bit1);
                    t[b2] = cost_after(b2, own[b2] | bit2);
                }
                if held(&t) {
                    return true;
                }
            }
        }
        false
    }

    /// The `k`-th open square (0-based, in index order).
    fn nth_open(&self, mut k: u32) -> Placement {
        for b in 0..9 {
            let cells = self.open_cells(b);
            let c = cells.count_ones();
            if k < c {
                return Placement {
                    big: b as u8,
                    little: crate::games::tri::nth_bit(cells, k) as u8,
                };
            }
            k -= c;
        }
        unreachable!("fewer than {k} open squares")
    }
}

/// What a big line open to a side is worth by the placements it still needs (0..=9): each placement
/// fewer triples it, so a line one placement from done outweighs many far off.
const LINE_WORTH: [i32; 10] = [19_683, 6_561, 2_187, 729, 243, 81, 27, 9, 3, 1];

/// The little boards of each big line.
const LINE_BOARDS: [[usize; 3]; 8] = {
    let mut out = [[0; 3]; 8];
    let mut i = 0;
    while i < 8 {
        let (mut b, mut k) = (0, 0);
        while b < 9 {
            if LINES[i] >> b & 1 == 1 {
                out[i][k] = b;
                k += 1;
            }
            b += 1;
        }
        i += 1;
    }
    out
};

/// A side's big lines still open to it, each worth [`LINE_WORTH`] of the placements it needs, from
/// that side's cost per little board (a board it cannot win rules its lines out).
fn line_worth(costs: &[u32; 9]) -> i32 {
    LINE_BOARDS
        .iter()
        .filter(|bs| bs.iter().all(|&b| costs[b] < FAR))
        .map(|bs| LINE_WORTH[bs.iter().map(|&b| costs[b]).sum::<u32>() as usize])
        .sum()
}

/// The fewest placements that complete a big line, from a side's cost per little board.
fn cheapest_line(costs: &[u32; 9]) -> u32 {
    LINES
        .iter()
        .map(|&l| line_cost(costs, l))
        .min()
        .unwrap_or(FAR)
}

/// `side`'s big lines by the placements they still need: what `minimax:D` weighs and `defensive`
/// spoils in Super-TTT.
pub(crate) fn big_lines(pos: &Sttt, side: Player) -> i32 {
    line_worth(&pos.board_costs(side))
}

impl SplitTurn for Sttt {
    type Steps = SttSteps;

    fn steps(&self) -> SttSteps {
        SttSteps::at_turn_start(self.clone())
    }

    fn turn(&self, steps: &[Placement]) -> Turn {
        self.turn_of(steps[0], steps.get(1).copied())
    }
}

/// `minimax:D` and `mcts:N` play Super-TTT one placement at a time; the other bots play whole turns.
pub(super) fn own_bot(spec: &str, seed: u64) -> Option<Box<dyn Bot<Sttt>>> {
    let (name, param) = spec.split_once(':')?;
    match name {
        "minimax" => Some(Box::new(TurnSearch::<Sttt>::new(param.parse().ok()?, seed))),
        "mcts" => {
            let budget = match param.strip_suffix("ms") {
                Some(ms) => MctsBudget::Time(std::time::Duration::from_millis(ms.parse().ok()?)),
                None => MctsBudget::Playouts(param.parse().ok()?),
            };
            let inner: Box<dyn Bot<SttSteps>> = Box::new(Mcts::new(budget, seed, spec.to_owned()));
            Some(Box::new(Split::<Sttt>::new(inner)))
        }
        _ => None,
    }
}

impl Playable for SttSteps {
    const NAME: &'static str = "sttt";
    /// 81 squares, one placement a ply: above the longest game.
    const MAX_PLIES: usize = 81;
    /// With playouts that take every win in one, exploring less pays: `mcts:5000` against
    /// `defensive` won 27–2 (1 draw) at 0.35, 23–7 at √2, 22–7 at 0.7 over 30 games; 33–7 at 0.2 and
    /// 28–10 at 0.1 over 40.
    const EXPLORATION: f64 = 0.35;

    fn own_score(&self, side: Player) -> i32 {
        self.pos.own_score(side)
    }

    /// A side to move within its remaining placements of a big line has won; one that cannot keep
    /// the opponent from coming within two placements of a big line (which wins on its next turn) has
    /// lost; otherwise each side's big lines by the placements they still need ([`LINE_WORTH`]), the
    /// side to move's less the opponent's.
    fn evaluate(&self) -> i32 {
        let me = self.to_move();
        let mine = self.pos.board_costs(me);
        if cheapest_line(&mine) <= self.left() {
            return me.sign() * (WIN / 4);
        }
        let theirs = self.pos.board_costs(me.opponent());
        if cheapest_line(&theirs) <= 2 && !self.pos.can_hold_off(&theirs, self.left()) {
            return -me.sign() * (WIN / 4);
        }
        (line_worth(&mine) - line_worth(&theirs)) * me.sign()
    }

    fn won_within(&self) -> Option<u32> {
        let k = cheapest_line(&self.pos.board_costs(self.to_move()));
        (k <= self.left()).then_some(k)
    }

    /// Every open square, except that a second placement in another little board than the first
    /// and before it in index order is skipped: the turn with the two swapped reaches the same
    /// position, and a search tries it anyway.
    fn search_moves(&self) -> Vec<Placement> {
        let mut moves = self.moves();
        if let (1, Some(p1)) = (self.left, self.first) {
            moves.retain(|p| p.big == p1.big || (p.big, p.little) > (p1.big, p1.little));
        }
        moves
    }

    /// By the evaluation after the placement (its big lines less the opponent's), which only the
    /// placement's own little board changes; a placement completing a big line comes first.
    fn order_moves(&self, moves: &mut [Placement]) {
        let me = self.to_move();
        let (own, other) = self.pos.cell_masks(me);
        let (mine, theirs) = (
            self.pos.board_costs(me),
            self.pos.board_costs(me.opponent()),
        );
        moves.sort_by_cached_key(|p| {
            let b = usize::from(p.big);
            let now = own[b] | 1 << p.little;
            let (mut m, mut t) = (mine, theirs);
            if has_line(now) {
                m[b] = 0;
                t[b] = FAR;
            } else if (now | other[b]) == FULL {
                m[b] = FAR;
                t[b] = FAR;
            } else {
                m[b] = board_cost(now, other[b]);
                t[b] = board_cost(other[b], now);
            }
            Reverse(line_worth(&m) - line_worth(&t))
        });
    }

    /// Random placements, except that a placement winning the game at once is always taken, and a
    /// playout starting where the side to move is within its placements of a big line is scored a
    /// win for it at once (against `defensive`, `mcts:5000` won 88 of 99 decided games over 100
    /// without this, 55 of 59 over 60 with it).
    fn playout(&mut self, rng: &mut Rng, max_plies: usize) -> Option<Outcome> {
        // A side to move within its placements of a big line has won: no need to play it out.
        if self.pos.outcome().is_none() && self.won_within().is_some() {
            return Some(Outcome::Win(self.to_move()));
        }
        for _ in 0..max_plies {
            if self.pos.outcome().is_some() {
                break;
            }
            let p = match self.pos.winning_placement() {
                Some(p) => p,
                None => self
                    .pos
                    .nth_open(rng.below(self.pos.open_count() as usize) as u32),
            };
            self.apply(p);
        }
        self.pos.outcome()
    }

    fn can_win_now(&self) -> bool {
        self.won_within().is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn winning_placement_agrees_with_trying_every_square() {
        let mut rng = Rng::new(4);
        let (mut wins, mut none) = (0, 0);
        for _ in 0..60 {
            let mut s = SttSteps::at_turn_start(Sttt::new());
            while s.outcome().is_none() {
                let me = s.to_move();
                let ms = s.moves();
                let winners: Vec<Placement> = ms
                    .iter()
                    .copied()
                    .filter(|&p| s.after(p).outcome() == Some(Outcome::Win(me)))
                    .collect();
                match s.pos.winning_placement() {
                    Some(p) => {
                        assert!(winners.contains(&p), "{p:?} does not win: {s:?}");
                        wins += 1;
                    }
                    None => {
                        assert!(winners.is_empty(), "missed {winners:?}: {s:?}");
                        none += 1;
                    }
                }
                s.apply(ms[rng.below(ms.len())]);
            }
        }
        assert!(wins >= 30 && none >= 300, "{wins} wins, {none} without");
    }
}
