//! The seed games as the arena sees them: names, side names, boards for `--show`, tie-breaks and
//! forfeits, each from its handout.

use reference::games::tictactoe::TicTacToe;
use reference::games::tmmorris::Morris;
use reference::rng::Rng;
use reference::Notation;

use super::game::ArenaGame;
use super::seat::Pick;

/// Three raster rows of a 3×3 board, `-` kept for blanks as the handout prints them.
fn grid(raster: &str) -> String {
    let cells: Vec<char> = raster.chars().collect();
    cells
        .chunks(3)
        .map(|row| {
            row.iter()
                .map(char::to_string)
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect::<Vec<_>>()
        .join("\n")
}

impl ArenaGame for TicTacToe {
    fn name(&self) -> String {
        "tictactoe".into()
    }

    fn render(&self) -> String {
        grid(&self.encode())
    }
}

impl ArenaGame for Morris {
    fn name(&self) -> String {
        "tmmorris".into()
    }

    fn render(&self) -> String {
        grid(&self.encode())
    }
}

/// The arena's own uniform random player: a legal move chosen with the seeded RNG. Every game has it
/// even where the reference crate offers no bots.
#[must_use]
pub fn random<G: ArenaGame>(seed: u64) -> Pick<G> {
    let mut rng = Rng::new(seed);
    let mut moves = Vec::new();
    Box::new(move |state: &G| {
        moves.clear();
        state.legal_moves(&mut moves);
        moves[rng.below(moves.len())]
    })
}

/// Bots for games without a ladder yet: `random` only.
///
/// # Errors
/// Any other spec.
pub fn random_only<G: ArenaGame>(spec: &str, seed: u64) -> Result<Pick<G>, String> {
    if spec == "random" {
        Ok(random::<G>(seed))
    } else {
        Err(format!(
            "no bot `{spec}` and no folder of that name\nhint: this build offers `random` for this game, or name a submission folder"
        ))
    }
}
