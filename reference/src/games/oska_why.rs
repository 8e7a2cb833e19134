//! Why a board a player returned is not one legal Oska move away, in the handout's words: the
//! explanation a student reads when the grader rejects their `NextBoard`.

use crate::game::{Game, Player};
use crate::games::oska::{Oska, OskaMove};

/// `w` or `b`, as the predicate's `Colour` argument names the sides (004:96–98).
fn colour(side: Player) -> &'static str {
    match side {
        Player::First => "w",
        Player::Second => "b",
    }
}

/// `row 2, square 3` (both from 1, rows from the top).
fn place(lengths: &[usize], sq: usize) -> String {
    let mut start = 0;
    for (r, &k) in lengths.iter().enumerate() {
        if sq < start + k {
            return format!("row {}, square {}", r + 1, sq - start + 1);
        }
        start += k;
    }
    format!("square {sq}")
}

fn row_of(lengths: &[usize], sq: usize) -> usize {
    let mut start = 0;
    for (r, &k) in lengths.iter().enumerate() {
        if sq < start + k {
            return r;
        }
        start += k;
    }
    lengths.len()
}

impl Oska {
    /// Whether `reply` (a board, or empty text) is a legal answer for the side to move: the board after
    /// one of its legal moves, or, when it has none, the unchanged board or nothing at all (the predicate
    /// failing: the side loses its turn, 004:43–45).
    #[must_use]
    pub fn move_to_board(&self, reply: &str) -> Option<OskaMove> {
        let moves = self.moves();
        if reply.trim().is_empty() {
            return (moves == [OskaMove::Pass]).then_some(OskaMove::Pass);
        }
        let next = Oska::decode(reply, self.to_move().opponent()).ok()?;
        let want = next.rows();
        if next.n() != self.n() {
            return None;
        }
        moves.into_iter().find(|&m| self.after(m).rows() == want)
    }

    /// One sentence saying why `reply` is not the board after a legal move of the side to move, naming
    /// the rule it breaks where one clearly applies (backwards, multi-jumps, an unchanged board).
    #[must_use]
    pub fn why_not_next(&self, reply: &str) -> String {
        let me = self.to_move();
        let (mine, theirs) = (colour(me), colour(me.opponent()));
        let real = self
            .moves()
            .into_iter()
            .filter(|m| *m != OskaMove::Pass)
            .count();
        if reply.trim().is_empty() {
            return format!(
                "no board printed, but `{mine}` has {real} legal move{}; print nothing only when no move is possible",
                plural(real)
            );
        }
        let next = match Oska::decode(reply, me.opponent()) {
            Ok(next) => next,
            Err(e) => return format!("not an Oska board: {e}"),
        };
        if next.n() != self.n() {
            return format!(
                "a board for n = {}, but this game is played with n = {} ({} rows)",
                next.n(),
                self.n(),
                2 * self.n() - 3
            );
        }
        let lengths = self.row_lengths();
        let squares = self.squares();
        let who = |o: &Oska, sq| o.at(sq);
        let diff = |side: Player, from: &Oska, to: &Oska| -> Vec<usize> {
            (0..squares)
                .filter(|&sq| who(from, sq) == Some(side) && who(to, sq) != Some(side))
                .collect()
        };
        let mine_gone = diff(me, self, &next);
        let mine_new = diff(me, &next, self);
        let theirs_gone = diff(me.opponent(), self, &next);
        let theirs_new = diff(me.opponent(), &next, self);
        if mine_gone.is_empty()
            && mine_new.is_empty()
            && theirs_gone.is_empty()
            && theirs_new.is_empty()
        {
            if real == 0 {
                return "the unchanged board is the pass, and it is right here; this is a grader bug"
                    .into();
            }
            return format!(
                "the board is unchanged, but `{mine}` has {real} legal move{}; a side passes only when it cannot move",
                plural(real)
            );
        }
        if let Some(&sq) = theirs_new.first() {
            return format!(
                "a `{theirs}` piece appears at {}; a move changes only the mover's piece and the one it captures",
                place(&lengths, sq)
            );
        }
        if mine_gone.len() != 1 || mine_new.len() != 1 {
            return format!(
                "`{mine}` pieces leave {} square{} and arrive on {}; one piece moves a turn",
                mine_gone.len(),
                plural(mine_gone.len()),
                mine_new.len()
            );
        }
        let (from, to) = (mine_gone[0], mine_new[0]);
        let (rf, rt) = (row_of(&lengths, from), row_of(&lengths, to));
        let ahead = match me {
            Player::First => rt as isize - rf as isize,
            Player::Second => rf as isize - rt as isize,
        };
        let route = format!("from {} to {}", place(&lengths, from), place(&lengths, to));
        if ahead < 0 {
            return format!(
                "`{mine}` moves backwards {route}; pieces only move forward, towards the opponent's starting row"
            );
        }
        if ahead == 0 {
            return format!(
                "`{mine}` moves sideways {route}; pieces only move forward on the diagonal"
            );
        }
        if theirs_gone.len() > 1 {
            return format!(
                "`{mine}` captures {} `{theirs}` pieces in one turn ({route}); only a single capture is permitted, multiple jumps are not allowed",
                theirs_gone.len()
            );
        }
        if theirs_gone.first() == Some(&to) {
            return format!(
                "`{mine}` lands on a `{theirs}` piece ({route}); a piece moves to an empty square, capturing only by jumping over"
            );
        }
        format!(
            "`{mine}` moves {route}, which is neither a diagonal step forward to an empty square nor a jump over an adjacent `{theirs}` piece"
        )
    }
}

fn plural(k: usize) -> &'static str {
    if k == 1 {
        ""
    } else {
        "s"
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Notation;

    const START: &str = "[[w,w,w,w],[e,e,e],[e,e],[e,e,e],[b,b,b,b]]";

    fn white(board: &str) -> Oska {
        Oska::decode(board, Player::First).unwrap()
    }

    #[test]
    fn the_handouts_sample_reply_is_a_legal_move() {
        let o = white(START);
        let mv = o.move_to_board("[[w,w,w,e],[e,e,w],[e,e],[e,e,e],[b,b,b,b]]");
        assert_eq!(mv, Some(OskaMove::Move { from: 3, to: 6 }));
        assert_eq!(
            o.move_to_board("[[w, w, w, e], [e, e, w], [e, e], [e, e, e], [b, b, b, b]]"),
            mv,
            "spaces are allowed, as Prolog's print may write them"
        );
    }

    #[test]
    fn an_unchanged_board_or_nothing_is_a_pass_only_when_blocked() {
        let o = white(START);
        assert_eq!(o.move_to_board(START), None);
        assert_eq!(o.move_to_board(""), None);
        assert!(o
            .why_not_next(START)
            .contains("unchanged, but `w` has 6 legal moves"));
        assert!(o.why_not_next("  ").contains("no board printed"));
        // White's only piece is blocked by two black pieces with nothing behind them to jump to.
        let blocked = white("[[e,e,e,e],[e,e,e],[e,e],[b,w,e],[b,b,b,e]]");
        assert_eq!(blocked.moves(), vec![OskaMove::Pass]);
        assert_eq!(blocked.move_to_board(""), Some(OskaMove::Pass));
        assert_eq!(
            blocked.move_to_board(&blocked.encode()),
            Some(OskaMove::Pass)
        );
    }

    #[test]
    fn moving_backwards_is_named() {
        let o = Oska::decode("[[w,w,w,e],[e,e,w],[e,e],[e,e,e],[b,b,b,b]]", Player::First).unwrap();
        let why = o.why_not_next(START);
        assert!(
            why.contains("moves backwards from row 2, square 3 to row 1, square 4"),
            "{why}"
        );
    }

    #[test]
    fn a_double_capture_is_named() {
        // White on row 1 can jump the black piece on row 2, then the one on row 4.
        let o = white("[[e,w,e,e],[e,b,e],[e,e],[e,e,b],[e,e,e,e]]");
        let why = o.why_not_next("[[e,e,e,e],[e,e,e],[e,e],[e,e,e],[e,e,w,e]]");
        assert!(why.contains("captures 2 `b` pieces in one turn"), "{why}");
        let single = o.move_to_board("[[e,e,e,e],[e,e,e],[e,w],[e,e,b],[e,e,e,e]]");
        assert!(single.is_some());
    }

    #[test]
    fn a_board_of_the_wrong_size_is_named() {
        let o = Oska::new(5);
        let why = o.why_not_next("[[w,w,w,e],[e,e,w],[e,e],[e,e,e],[b,b,b,b]]");
        assert!(
            why.contains("a board for n = 4, but this game is played with n = 5 (7 rows)"),
            "{why}"
        );
        let why = o.why_not_next("[[w,w],[b]]");
        assert!(why.starts_with("not an Oska board"), "{why}");
    }

    #[test]
    fn two_pieces_moved_and_a_sideways_step_are_named() {
        let o = white(START);
        let why = o.why_not_next("[[e,e,w,w],[w,w,e],[e,e],[e,e,e],[b,b,b,b]]");
        assert!(why.contains("one piece moves a turn"), "{why}");
        let o = white("[[e,e,e,e],[w,e,e],[e,e],[e,e,e],[b,b,b,b]]");
        let why = o.why_not_next("[[e,e,e,e],[e,e,w],[e,e],[e,e,e],[b,b,b,b]]");
        assert!(why.contains("sideways"), "{why}");
    }
}
