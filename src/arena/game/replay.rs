//! `grader play --replay FILE`: shows a saved game move by move, replaying the applied moves through
//! the rules so a corrupted or hand-edited record is caught, not shown.

use std::path::Path;

use anyhow::{bail, Context as _};

use crate::arena::game::record::seconds;
use crate::arena::game::record::GameRecord;
use crate::arena::game::registry::{MakeBot, Visitor};
use crate::arena::game::ArenaGame;

/// Reads a record file.
///
/// # Errors
/// The file cannot be read or is not a game record.
pub fn load(path: &Path) -> anyhow::Result<GameRecord> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("cannot read `{}`", path.display()))?;
    serde_json::from_str(&text)
        .with_context(|| format!("`{}` is not a game record", path.display()))
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
        let mv = state
            .parse_move(&m.applied)
            .map_err(|why| anyhow::anyhow!("move {} `{}`: {why}", k + 1, m.applied))?;
        if !state.moves().contains(&mv) {
            bail!(
                "move {} `{}` is not legal in `{}`",
                k + 1,
                m.applied,
                state.encode()
            );
        }
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

impl Visitor for Replay {
    type Out = anyhow::Result<String>;

    fn visit<G: ArenaGame>(self, initial: G, _bots: MakeBot<G>) -> anyhow::Result<String> {
        let r = self.record;
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
