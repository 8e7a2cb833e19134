//! Same fault, no replay: when games 1 and 2 of a play case both end in the same fault of the
//! submission before any move, the case's other games are not played but scored as that fault.
//!
//! Why that is what playing them would give: a case's games differ, for the submission, only in its
//! colour (it alternates: first in games 1, 3, 5, ...) and in what each game's seed decides (the
//! opponent's moves, a per-move program's `{seed}`). Until the first move is played, a program has
//! been sent only what every game of its colour sends it (the game, its colour, the move limit, the
//! initial position, no opponent's move), so a program that answers the same input the same way ends
//! every game of that colour the same way. Games 1 and 2 are one of each colour: `FIRST` = 2 is the
//! fewest games that see both, and requiring the two to agree guards against a fault that came and
//! went. A per-move program whose command takes `{seed}` sees the seed at its first move, so its
//! cases always play every game.
//!
//! "The same fault": both games ended by a fault the submission lost (either copy, in self-play), with
//! no move played, and the same reason once the colours' names and every digit are set aside (`x
//! failed to start: timed out after 5.01 s` and `o failed to start: timed out after 5.00 s` are the
//! same fault). A game not played is scored as a copy of the played game of its colour, with its own
//! seed; `GRADER_REPLAY_FAULTS=1` turns the rule off (every game is played).

use crate::arena::config::{ArenaConfig, Protocol};
use crate::arena::game::record::{Ending, GameRecord, Side};
use crate::build::Built;
use crate::report::result::NotPlayed;

/// The games played before the rule may apply: one of each colour.
pub const FIRST: usize = 2;

/// The environment variable that, set to anything but empty or `0`, plays every game.
pub const REPLAY_ALL: &str = "GRADER_REPLAY_FAULTS";

/// Whether the rule is on (it is, unless `GRADER_REPLAY_FAULTS` asks to play every game).
#[must_use]
pub fn enabled() -> bool {
    std::env::var_os(REPLAY_ALL).is_none_or(|v| v.is_empty() || v == "0")
}

/// Whether the submission's program is sent the game's seed before its first move (a per-move
/// command with `{seed}`): then games of one colour may differ from the start, and the rule is off.
#[must_use]
pub fn sees_seed(arena: &ArenaConfig, built: &Built) -> bool {
    let seed = |a: &String| a.contains("{seed}");
    matches!(arena.protocol, Protocol::PerMove)
        && (built.command.iter().any(seed) || arena.args.iter().flatten().any(seed))
}

/// The fault (game 1's reason) when the first `FIRST` games, `firsts[k]` with the submission on side
/// `side(k)` (and on both in self-play), ended in the same fault before any move; `None` otherwise.
#[must_use]
pub fn same_fault(
    firsts: &[&GameRecord],
    side: impl Fn(usize) -> Side,
    both: bool,
) -> Option<String> {
    if firsts.len() < FIRST {
        return None;
    }
    let before_any_move = |k: usize, r: &GameRecord| {
        let mine = |s: Side| s == side(k) || both;
        r.ending == Ending::Fault && r.moves.is_empty() && (0..2).any(|s| mine(s) && r.lost(s))
    };
    let kinds: Vec<String> = firsts[..FIRST]
        .iter()
        .enumerate()
        .filter(|&(k, r)| before_any_move(k, r))
        .map(|(k, r)| kind(r, side(k)))
        .collect();
    (kinds.len() == FIRST && kinds.iter().all(|k| *k == kinds[0])).then(|| firsts[0].reason.clone())
}

/// A fault's reason with the colours' names said from `me`'s side and every digit set aside: what two
/// games of different colours and timings share when they failed the same way.
fn kind(r: &GameRecord, me: Side) -> String {
    let mut out = String::new();
    let mut word = String::new();
    let flush = |word: &mut String, out: &mut String| {
        if *word == r.colours[me] {
            out.push_str("\u{0}me");
        } else if *word == r.colours[1 - me] {
            out.push_str("\u{0}them");
        } else {
            out.extend(
                word.chars()
                    .map(|c| if c.is_ascii_digit() { '#' } else { c }),
            );
        }
        word.clear();
    };
    for c in r.reason.chars() {
        if c.is_alphanumeric() {
            word.push(c);
        } else {
            flush(&mut word, &mut out);
            out.push(c);
        }
    }
    flush(&mut word, &mut out);
    out
}

/// Game `k`'s record when it is not played: the played game of its colour, with game `k`'s seed.
#[must_use]
pub fn stand_in(like: &GameRecord, seed: u64) -> GameRecord {
    GameRecord {
        seed,
        ..like.clone()
    }
}

/// What `result.json` records: games `from + 1` to `to` were not played.
#[must_use]
pub fn not_played(from: usize, to: usize, fault: String) -> NotPlayed {
    NotPlayed {
        games: (from + 1..=to).map(|k| k as u32).collect(),
        fault,
    }
}

/// The feedback's line: `games 3–10 were not played: games 1 and 2 ended in the same fault before any
/// move (x failed to start: ...); each is scored as that fault, as playing it would end`.
#[must_use]
pub fn words(np: &NotPlayed) -> String {
    let which = match np.games.as_slice() {
        [one] => format!("game {one} was"),
        [first, .., last] => format!("games {first}–{last} were"),
        [] => return String::new(),
    };
    let each = if np.games.len() == 1 {
        "it is"
    } else {
        "each is"
    };
    format!(
        "{which} not played: games 1 and 2 ended in the same fault before any move ({}), and a \
         game of either colour would end so again; {each} scored as that fault",
        np.fault
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::game::record::fixtures::tictactoe;
    use crate::arena::game::record::{GameResult, MoveRecord};

    /// Game `k` (0-based) lost by the submission's fault before any move, for `reason`.
    fn failed(k: usize, reason: &str) -> GameRecord {
        tictactoe(GameResult::Win(1 - k % 2), Ending::Fault, reason)
    }

    fn same(a: &GameRecord, b: &GameRecord) -> Option<String> {
        same_fault(&[a, b], |k| k % 2, false)
    }

    #[test]
    fn the_same_fault_differs_only_by_colour_and_digits() {
        let x = failed(0, "x failed to start: timed out after 5.01 s");
        let o = failed(1, "o failed to start: timed out after 5.00 s");
        assert_eq!(
            same(&x, &o).as_deref(),
            Some("x failed to start: timed out after 5.01 s")
        );
        // Another fault, or the other side's name where the first named its own, is not the same.
        let crash = failed(1, "o failed to start: crashed (exit status 1)");
        assert_eq!(same(&x, &crash), None);
        let swapped = failed(1, "x failed to start: timed out after 5.00 s");
        assert_eq!(same(&x, &swapped), None);
        // Letters inside a word are no colour: `box` stays `box`.
        let bx = failed(0, "x failed to start: box 1");
        let bo = failed(1, "o failed to start: box 2");
        assert!(same(&bx, &bo).is_some());
        let bo = failed(1, "o failed to start: bxo 2");
        assert_eq!(same(&bx, &bo), None);
    }

    #[test]
    fn a_move_played_a_win_or_one_game_alone_is_no_shortcut() {
        let x = failed(0, "x crashed (exit status 1) on move 1");
        let mut o = failed(1, "o crashed (exit status 1) on move 2");
        // Game 2's opponent moved first: what the program was sent depends on the seed.
        o.moves.push(MoveRecord {
            side: 0,
            sent: "4".into(),
            applied: "4".into(),
            micros: 5,
            state: "----x----".into(),
            forfeited: None,
        });
        assert_eq!(same(&x, &o), None);
        // The opponent's fault is not the submission's.
        let theirs = tictactoe(GameResult::Win(0), Ending::Fault, "o crashed on move 1");
        assert_eq!(same(&x, &theirs), None);
        // Not a fault at all.
        let rules = tictactoe(GameResult::Win(0), Ending::Rules, "x wins by the rules");
        assert_eq!(same(&x, &rules), None);
        assert_eq!(same_fault(&[&x], |k| k % 2, false), None);
        // In self-play either copy's fault is the submission's.
        let copy = tictactoe(GameResult::Win(0), Ending::Fault, "o crashed on move 1");
        let copy2 = tictactoe(GameResult::Win(1), Ending::Fault, "x crashed on move 1");
        assert!(same_fault(&[&copy2, &copy], |k| k % 2, true).is_some());
    }

    #[test]
    fn the_feedback_names_the_games_not_played() {
        let np = not_played(2, 10, "x failed to start: timed out".into());
        assert_eq!(np.games, (3..=10).collect::<Vec<u32>>());
        assert_eq!(
            words(&np),
            "games 3–10 were not played: games 1 and 2 ended in the same fault before any move (x \
             failed to start: timed out), and a game of either colour would end so again; each is \
             scored as that fault"
        );
        assert!(words(&not_played(2, 3, "f".into())).starts_with("game 3 was not played: "));
        assert!(words(&not_played(2, 3, "f".into())).ends_with("; it is scored as that fault"));
    }
}
