//! What the arena needs of a game beyond its rules: side names, the protocol's words, a readable board,
//! the draw tie-break, and what stands in for a move a player spoiled.

pub mod picture;
pub mod record;
pub mod registry;
pub mod replay;
pub mod rules;
pub mod seeds;

use reference::{Game, Notation, Player};

use picture::{Picture, Shade, Spot};

/// A game the referee can run. Every method but `name` has a default, so wiring a new game is one `impl`.
pub trait ArenaGame: Game<Move: Send + Sync> + Notation + Send + Sync + 'static {
    /// The game's name on the command line and in records (`ut3`, `oska:5`).
    fn name(&self) -> String;

    /// The name players are told in the persistent protocol's `game` line: [`ArenaGame::name`],
    /// except for a rules-program game, whose name carries its program's path.
    fn title(&self) -> String {
        self.name()
    }

    /// Why the game's rules cannot go on (a suite's rules program failed), when they cannot: the
    /// referee ends the game for a person to look at, no player's fault. Built-in games never break.
    fn broken(&self) -> Option<String> {
        None
    }

    /// Whether the games of one set carry nothing from one to the next, so they may be played at
    /// once, in any order, with the same records. Not for a rules-program game: one program serves
    /// every game of the set, and its first failure ends every game after it.
    fn games_apart(&self) -> bool {
        true
    }

    /// The side as the seed names it: `x`/`o` for the tic-tac-toe family, `white`/`black` for Oska.
    fn side_name(side: Player) -> &'static str {
        match side {
            Player::First => "x",
            Player::Second => "o",
        }
    }

    /// The side as the per-move `{side}` placeholder writes it: the handout's own argument (Oska's
    /// predicate takes `w` or `b`, 004:96–98), else the side's name.
    fn side_arg(side: Player) -> &'static str {
        Self::side_name(side)
    }

    /// What the protocols send as "the last move" before anyone has moved (UT3's handout says `-1 -1`).
    fn no_move() -> &'static str {
        "none"
    }

    /// A multi-line board for `--show`; the one-line encoding unless the game has something better.
    fn render(&self) -> String {
        self.encode()
    }

    /// The position as a picture for drawn boards (the HTML report). The default lays the one-line
    /// encoding out as a row of cells; the seed games draw their real boards.
    fn picture(&self) -> Picture {
        let cells: Vec<Spot> = self
            .encode()
            .chars()
            .enumerate()
            .map(|(i, c)| Spot {
                x: i as f32 + 0.5,
                y: 0.5,
                mark: c,
                shade: Shade::Plain,
            })
            .collect();
        Picture {
            width: cells.len().max(1),
            height: 1,
            cells,
            links: Vec::new(),
            block: 0,
            round: false,
        }
    }

    /// Who a drawn position favours under the seed's tie-break (UT3: more blocks won, then more corner
    /// cells), or `None` for a plain draw. Scoring rules decide whether it counts.
    fn tie_break(&self) -> Option<Player> {
        None
    }

    /// The legal move that leads to the position `reply` encodes, for players that answer with the next
    /// state instead of a move. Games whose encoding carries more than the board override this.
    fn move_from_state(&self, reply: &str) -> Option<Self::Move> {
        let want = reply.trim();
        self.moves()
            .into_iter()
            .find(|&mv| self.after(mv).encode() == want)
    }

    /// Why `reply` is not the position after a legal move, for the record's reason (called only when
    /// [`ArenaGame::move_from_state`] found none).
    fn why_not_state(&self, _reply: &str) -> String {
        "not a position one legal move away".to_string()
    }

    /// Reads a position in the game's one-line encoding (the text the protocols send) with `side` to
    /// move, for position cases. The error says what is wrong with the text. Games that cannot read
    /// their encoding back say so.
    fn decode(line: &str, side: Player) -> Result<Self, String> {
        let _ = (line, side);
        Err("this game cannot read positions back".into())
    }

    /// The move that stands in for an unusable reply when the suite forfeits placements instead of games
    /// (Super-TTT: the reply's legal placements, possibly none). `None`: the game has no such move, and the
    /// player loses instead.
    fn forfeit(&self, _reply: &str) -> Option<Self::Move> {
        None
    }

    /// For programs that speak in rows and columns (the dialogue protocol's `{row}`, `{col}` and its
    /// `row`/`col` groups): the move at (`row`, `col`), both counted from 0, in the game's notation.
    /// `None` where the game has no such grid, or the cell is off the board.
    fn grid_move(&self, _row: usize, _col: usize) -> Option<String> {
        None
    }

    /// The (row, column) of a move in the game's notation, both counted from 0: the inverse of
    /// `grid_move`.
    fn move_grid(&self, _mv: &str) -> Option<(usize, usize)> {
        None
    }

    /// The occupied cells, each written as the move that would fill it, for probes that type a taken
    /// cell at a dialogue program. Empty where the game has no such notion.
    fn occupied(&self) -> Vec<String> {
        Vec::new()
    }
}

/// The side `name` names in `G`'s words (`x`, `white`), if any.
#[must_use]
pub fn side_named<G: ArenaGame>(name: &str) -> Option<Player> {
    [Player::First, Player::Second]
        .into_iter()
        .find(|&p| G::side_name(p) == name)
}
