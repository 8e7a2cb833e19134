//! `grader play --replay FILE`: shows a saved game move by move, replaying the applied moves through
//! the rules so a corrupted or hand-edited record is caught, not shown. Every record read back (a
//! replay, a report, a merge) goes through [`read`]: a record is a file a run or a results folder
//! left, so it is checked against the game's rules and ranges ([`check`]) before anything uses it.
//! Only the bytes this process itself wrote from a game it played ([`vouch`]) skip the rules' replay.

use std::path::Path;

use anyhow::bail;

use crate::arena::game::record::seconds;
use crate::arena::game::record::{Ending, Fact, GameRecord, GameResult};
use crate::arena::game::registry::{dispatch, MakeBot, Visitor};
use crate::arena::game::ArenaGame;

/// The most bytes of one record read: a record of a long game is tens of kilobytes.
pub const RECORD_CAP: u64 = 4 << 20;

/// Reads a record file a person named (`grader play --replay FILE`), as any file a run left is read:
/// no link followed, never blocking (a FIFO or a device is refused, not read), at most
/// [`RECORD_CAP`] bytes, then checked.
///
/// # Errors
/// The file cannot be read, or is not a valid record of a game the grader knows, named.
pub fn load(path: &Path) -> anyhow::Result<GameRecord> {
    let (dir, name) = match (path.parent(), path.file_name()) {
        (Some(dir), Some(name)) => (
            if dir.as_os_str().is_empty() {
                Path::new(".")
            } else {
                dir
            },
            name,
        ),
        _ => bail!("`{}` is not a file", path.display()),
    };
    read(dir, Path::new(name)).map_err(|why| anyhow::anyhow!("`{}`: {why}", path.display()))
}

/// Reads the record `rel` in `dir` (untrusted: no link followed, never blocking, capped) and checks it.
///
/// # Errors
/// Why it cannot be read or is not a valid record, in words (the caller names the file).
pub fn read(dir: &Path, rel: &Path) -> Result<GameRecord, String> {
    let read = crate::untrusted::read_output(dir, rel, RECORD_CAP).map_err(|e| e.to_string())?;
    if read.truncated {
        return Err(format!(
            "larger than the {RECORD_CAP} bytes a game record may be"
        ));
    }
    let record: GameRecord =
        serde_json::from_slice(&read.bytes).map_err(|e| format!("not a game record: {e}"))?;
    // The bytes this process itself wrote from a game it played need no second replay (for a rules
    // program, a run of it per record); their ranges are checked all the same.
    let checked = if vouched(&read.bytes) {
        check_ranges(&record)
    } else {
        check(&record)
    };
    checked.map_err(|why| format!("not a valid game record: {why}"))?;
    Ok(record)
}

/// The SHA-256 of every record this process wrote from a game it played, or from a record it checked
/// in full (`grader merge` saving its shards' games) ([`vouch`]). A record read back with the same
/// bytes is one the rules already vouched for, move by move: replaying it again would only repeat that (for a rules program, one run of it per record, one after another
/// when a class's pages are written). Any other bytes, a tampered file or another run's, are
/// checked in full. 32 bytes a game played, for the life of the run.
static WRITTEN: std::sync::LazyLock<std::sync::Mutex<std::collections::HashSet<[u8; 32]>>> =
    std::sync::LazyLock::new(Default::default);

fn digest(bytes: &[u8]) -> [u8; 32] {
    use sha2::Digest;
    sha2::Sha256::digest(bytes).into()
}

/// Notes `bytes`, a record this process is about to save, made from a game it played or from a record
/// it checked in full, as its own.
pub fn vouch(bytes: &[u8]) {
    let d = digest(bytes);
    WRITTEN.lock().unwrap_or_else(|e| e.into_inner()).insert(d);
}

fn vouched(bytes: &[u8]) -> bool {
    let d = digest(bytes);
    WRITTEN
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .contains(&d)
}

/// Checks a record read back: its sides and indices in range, its game one the grader knows, its
/// moves legal and its states those of the rules, and its result the one its ending allows.
///
/// # Errors
/// The first thing wrong, in words.
pub fn check(r: &GameRecord) -> Result<(), String> {
    check_ranges(r)?;
    dispatch(&r.game, Check(r)).map_err(|e| {
        format!(
            "game `{}`: {}",
            r.game,
            crate::untrusted::one_line(&e.to_string(), 200)
        )
    })?
}

/// Every index a reader may use, in range: the sides of the result, the moves and the facts, and at
/// most one stderr tail per side.
fn check_ranges(r: &GameRecord) -> Result<(), String> {
    if let Some(s) = side_of(r.result).filter(|&s| s > 1) {
        return Err(format!("a result for side {s} of 2"));
    }
    if let Some((k, m)) = r.moves.iter().enumerate().find(|(_, m)| m.side > 1) {
        return Err(format!("move {} by side {} of 2", k + 1, m.side));
    }
    for f in &r.facts {
        let claimed = match f {
            Fact::End { claim: Some(c), .. } => side_of(*c),
            _ => None,
        };
        if let Some(s) = Some(f.side()).into_iter().chain(claimed).find(|&s| s > 1) {
            return Err(format!("a fact about side {s} of 2"));
        }
    }
    if r.stderr.len() > 2 {
        return Err(format!("{} stderr tails for 2 players", r.stderr.len()));
    }
    Ok(())
}

/// The side a result names (the winner, a draw's tie-break), if any.
fn side_of(result: GameResult) -> Option<usize> {
    match result {
        GameResult::Win(s) | GameResult::Draw { edge: Some(s) } => Some(s),
        GameResult::Draw { edge: None } | GameResult::BothLost => None,
    }
}

/// [`check`] once the game's type is known.
struct Check<'a>(&'a GameRecord);

impl Visitor for Check<'_> {
    type Out = Result<(), String>;

    fn visit<G: ArenaGame>(self, initial: G, _bots: MakeBot<G>) -> Result<(), String> {
        let r = self.0;
        let sides = [
            G::side_name(reference::Player::First),
            G::side_name(reference::Player::Second),
        ];
        if r.colours != sides {
            return Err(format!(
                "the sides are `{}` and `{}`, not the game's `{}` and `{}`",
                crate::untrusted::one_line(&r.colours[0], 40),
                crate::untrusted::one_line(&r.colours[1], 40),
                sides[0],
                sides[1]
            ));
        }
        let states = positions(initial, r).map_err(|e| format!("{e:#}"))?;
        for (k, (m, before)) in r.moves.iter().zip(&states).enumerate() {
            if m.side != before.to_move().index() {
                return Err(format!(
                    "move {} is `{}`'s, but it was `{}`'s turn",
                    k + 1,
                    sides[m.side],
                    sides[before.to_move().index()]
                ));
            }
        }
        let last = states.last().ok_or("no position")?;
        if last.encode() != r.final_state {
            return Err(format!(
                "the final state is `{}`, the rules' `{}`",
                crate::untrusted::one_line(&r.final_state, 200),
                last.encode()
            ));
        }
        check_result(last, r)
    }
}

/// The result a record's ending allows from its final position: by the rules, the rules' outcome
/// (a draw's tie-break the game's); at the move cap, a draw in a game not over; after a fault, a win
/// for the side not to move in a game not over (both losing, or either winning, only before the first
/// move, when a player failed to start).
fn check_result<G: ArenaGame>(last: &G, r: &GameRecord) -> Result<(), String> {
    let tie = last.tie_break().map(reference::Player::index);
    let allowed: Vec<GameResult> = match (r.ending, last.outcome()) {
        (Ending::Rules, Some(reference::Outcome::Win(p))) => vec![GameResult::Win(p.index())],
        (Ending::Rules, Some(reference::Outcome::Draw)) => vec![GameResult::Draw { edge: tie }],
        // No legal move and no outcome: a rules bug the referee calls a plain draw.
        (Ending::Rules, None) if last.moves().is_empty() => {
            vec![GameResult::Draw { edge: None }]
        }
        (Ending::MoveCap, None) => vec![GameResult::Draw { edge: tie }],
        (Ending::Fault, None) if r.moves.is_empty() => {
            vec![GameResult::Win(0), GameResult::Win(1), GameResult::BothLost]
        }
        (Ending::Fault, None) => vec![GameResult::Win(1 - last.to_move().index())],
        // A person looks, with no result: the grader could not follow a player (an interactive
        // program whose dialogue it could not establish), or the suite's rules program failed (in
        // this game, or in an earlier one of its match, which left it gone).
        (Ending::Review, _) => vec![GameResult::BothLost],
        _ => Vec::new(),
    };
    if allowed.contains(&r.result) {
        return Ok(());
    }
    Err(format!(
        "the result {:?} is impossible for a game that ended {:?} in `{}`",
        r.result,
        r.ending,
        last.encode()
    ))
}

/// Replays a record of the game the registry hands it.
pub struct Replay {
    pub record: GameRecord,
}

/// Every position of a record, the opening first, each replayed through the rules from the applied
/// moves: a record that starts elsewhere, holds an illegal move or disagrees with the rules is refused,
/// with the move named.
///
/// # Errors
/// The first move or state the rules do not accept.
pub fn positions<G: ArenaGame>(initial: G, r: &GameRecord) -> anyhow::Result<Vec<G>> {
    let mut state = initial;
    if state.encode() != r.initial {
        bail!(
            "the record starts from `{}`, not the game's opening `{}`",
            r.initial,
            state.encode()
        );
    }
    let mut all = vec![state.clone()];
    for (k, m) in r.moves.iter().enumerate() {
        let mv = applied_move(&state, m)
            .map_err(|why| anyhow::anyhow!("move {} `{}`: {why}", k + 1, m.applied))?;
        state.apply(mv);
        if state.encode() != m.state {
            bail!(
                "after move {} the record says `{}`, the rules `{}`",
                k + 1,
                m.state,
                state.encode()
            );
        }
        all.push(state.clone());
    }
    Ok(all)
}

/// The move a record says was applied in `state`: a legal move in the game's notation, or, where the
/// player's reply was forfeited (Super-TTT's spoiled placements), the game's stand-in for it, which
/// need not be a legal move of its own (no placement at all) but must write as the record does.
fn applied_move<G: ArenaGame>(
    state: &G,
    m: &crate::arena::game::record::MoveRecord,
) -> Result<G::Move, String> {
    let parsed = state.parse_move(&m.applied);
    if let Ok(mv) = &parsed {
        if state.is_legal_move(*mv) {
            return Ok(*mv);
        }
    }
    let stand_in = m
        .forfeited
        .as_ref()
        .and_then(|_| state.forfeit(&m.applied))
        .filter(|mv| state.format_move(*mv) == m.applied);
    match (stand_in, parsed) {
        (Some(mv), _) => Ok(mv),
        (None, Ok(_)) => Err(format!("not legal in `{}`", state.encode())),
        (None, Err(why)) => Err(why),
    }
}

impl Visitor for Replay {
    type Out = anyhow::Result<String>;

    fn visit<G: ArenaGame>(self, initial: G, _bots: MakeBot<G>) -> anyhow::Result<String> {
        let r = self.record;
        check(&r).map_err(|why| anyhow::anyhow!("not a valid game record: {why}"))?;
        let states = positions(initial, &r)?;
        let mut out = format!(
            "{} {} vs {} {} (seed {})\n{}\n\n",
            r.colours[0],
            r.players[0],
            r.colours[1],
            r.players[1],
            r.seed,
            states[0].render()
        );
        for (m, state) in r.moves.iter().zip(&states[1..]) {
            let note = m
                .forfeited
                .as_ref()
                .map(|w| format!(" (forfeited: {w})"))
                .unwrap_or_default();
            out.push_str(&format!(
                "{} plays {}{note} in {}\n{}\n\n",
                r.colours[m.side],
                m.applied,
                seconds(std::time::Duration::from_micros(m.micros)),
                state.render()
            ));
        }
        out.push_str(&r.summary());
        out.push('\n');
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A tic-tac-toe record whose one move claims a state the rules never make: `seed` keeps its bytes
    /// this test's own (the set of vouched records is the process's).
    fn lying_record(seed: u64) -> Vec<u8> {
        format!(
            r#"{{"game": "tictactoe", "players": ["a", "b"], "colours": ["x", "o"], "seed": {seed},
"initial": "---------", "moves": [{{"side": 0, "sent": "4", "applied": "4", "micros": 1, "state": "xxxxxxxxx"}}],
"final": "xxxxxxxxx", "result": {{"win": 0}}, "ending": "rules", "reason": "x wins by the rules"}}
"#
        )
        .into_bytes()
    }

    #[test]
    fn only_the_exact_bytes_this_process_wrote_skip_the_rules_replay() {
        let dir = tempfile::tempdir().unwrap();
        let (mine, other) = (lying_record(9_000_001), lying_record(9_000_002));
        std::fs::write(dir.path().join("mine.json"), &mine).unwrap();
        std::fs::write(dir.path().join("other.json"), &other).unwrap();
        let refused = read(dir.path(), Path::new("mine.json")).unwrap_err();
        assert!(refused.contains("the record says `xxxxxxxxx`"), "{refused}");
        vouch(&mine);
        // The rules are not asked again for the bytes vouched for; any other bytes are.
        assert!(read(dir.path(), Path::new("mine.json")).is_ok());
        let refused = read(dir.path(), Path::new("other.json")).unwrap_err();
        assert!(refused.contains("the record says `xxxxxxxxx`"), "{refused}");
        // A vouched record's ranges are still checked.
        let mut out_of_range: serde_json::Value = serde_json::from_slice(&mine).unwrap();
        out_of_range["moves"][0]["side"] = 7.into();
        let bytes = out_of_range.to_string().into_bytes();
        vouch(&bytes);
        std::fs::write(dir.path().join("range.json"), &bytes).unwrap();
        let refused = read(dir.path(), Path::new("range.json")).unwrap_err();
        assert!(refused.contains("move 1 by side 7 of 2"), "{refused}");
    }
}
