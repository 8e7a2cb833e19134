//! The seed games as the arena sees them: names, side names, boards for `--show`, tie-breaks and
//! forfeits, each from its handout.

use reference::bots::{bot, bot_for, Playable};
use reference::games::sttt::{Placement, Sttt, Turn};
use reference::games::tictactoe::TicTacToe;
use reference::games::tmmorris::Morris;
use reference::games::{Oska, OskaMove, Ut3};
use reference::rng::Rng;
use reference::{Game, Notation, Player};

use crate::arena::game::picture::{raster_mark, xo, Picture, Shade, Spot};
use crate::arena::game::ArenaGame;
use crate::arena::seat::Pick;

/// Rejects a side to move that contradicts what the encoding itself says.
fn same_side(implied: Player, given: Player, by: &str) -> Result<(), String> {
    if implied == given {
        Ok(())
    } else {
        Err(format!(
            "{by} put {} to move, not {}",
            mark(Some(implied)),
            mark(Some(given))
        ))
    }
}

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
    fn decode(line: &str, side: Player) -> Result<TicTacToe, String> {
        let g = TicTacToe::from_raster(line.trim()).map_err(|e| e.to_string())?;
        same_side(g.to_move(), side, "the piece counts")?;
        Ok(g)
    }

    fn name(&self) -> String {
        "tictactoe".into()
    }

    fn render(&self) -> String {
        grid(&self.encode())
    }

    fn picture(&self) -> Picture {
        Picture::grid(3, 0, |r, c| {
            (raster_mark(self.cell(r * 3 + c)), Shade::Plain)
        })
    }

    /// Cells are numbered 0..8 in raster order: row 1, column 1 is cell 0.
    fn grid_move(&self, row: usize, col: usize) -> Option<String> {
        (row < 3 && col < 3).then(|| (row * 3 + col).to_string())
    }

    fn move_grid(&self, mv: &str) -> Option<(usize, usize)> {
        let cell: usize = mv.trim().parse().ok().filter(|&c| c < 9)?;
        Some((cell / 3, cell % 3))
    }

    fn occupied(&self) -> Vec<String> {
        (0..9)
            .filter(|&i| self.cell(i) != b'-')
            .map(|i| i.to_string())
            .collect()
    }
}

impl ArenaGame for Morris {
    fn decode(line: &str, side: Player) -> Result<Morris, String> {
        Morris::from_raster(line.trim(), side).map_err(|e| e.to_string())
    }

    fn name(&self) -> String {
        "tmmorris".into()
    }

    /// The rule the board breaks ("x stepped diagonally from cell 4 to cell 2: ...").
    fn why_not_state(&self, reply: &str) -> String {
        let why = self.explain_successor(reply.trim());
        if why.is_empty() {
            "not a position one legal move away".to_string()
        } else {
            why
        }
    }

    fn render(&self) -> String {
        grid(&self.encode())
    }

    /// The board's nine points joined by its orthogonal lines (no diagonals in this Morris).
    fn picture(&self) -> Picture {
        let cells = self.cells();
        let mut p = Picture::grid(3, 0, |r, c| (raster_mark(cells[r * 3 + c]), Shade::Plain));
        p.round = true;
        for i in 0..9 {
            if i % 3 < 2 {
                p.links.push((i, i + 1));
            }
            if i < 6 {
                p.links.push((i, i + 3));
            }
        }
        p
    }
}

fn mark(p: Option<Player>) -> char {
    match p {
        Some(Player::First) => 'x',
        Some(Player::Second) => 'o',
        None => '.',
    }
}

impl ArenaGame for Sttt {
    fn decode(line: &str, side: Player) -> Result<Sttt, String> {
        Sttt::decode(line.trim(), side).map_err(|e| e.to_string())
    }

    fn name(&self) -> String {
        "sttt".into()
    }

    /// The handout's diagram: little boards in big-board order, `|` and `-` between them, won big
    /// squares listed underneath.
    fn render(&self) -> String {
        let mut out = String::new();
        for br in 0..3u8 {
            if br > 0 {
                out.push_str("---+---+---\n");
            }
            for lr in 0..3u8 {
                let row: Vec<String> = (0..3u8)
                    .map(|bc| {
                        (0..3u8)
                            .map(|lc| {
                                mark(self.square(Placement {
                                    big: br * 3 + bc,
                                    little: lr * 3 + lc,
                                }))
                            })
                            .collect()
                    })
                    .collect();
                out.push_str(&row.join("|"));
                out.push('\n');
            }
        }
        let won: Vec<String> = (0..9)
            .filter_map(|b| {
                self.big_winner(b)
                    .map(|p| format!("{} by {}", b + 1, mark(Some(p))))
            })
            .collect();
        if won.is_empty() {
            out.pop();
        } else {
            out.push_str(&format!("big squares won: {}", won.join(", ")));
        }
        out
    }

    /// The 9×9 squares; a won big square's cells shaded by its winner.
    fn picture(&self) -> Picture {
        Picture::grid(9, 3, |r, c| {
            let (big, little) = ((r / 3 * 3 + c / 3) as u8, (r % 3 * 3 + c % 3) as u8);
            let shade = match self.big_winner(usize::from(big)) {
                Some(p) => Shade::Won(xo(Some(p))),
                None => Shade::Plain,
            };
            (xo(self.square(Placement { big, little })), shade)
        })
    }

    /// Handout rule 7: each illegal or ill-formatted placement is ignored and forfeited; the legal
    /// ones of the reply stand, in order (possibly none: the turn passes).
    fn forfeit(&self, reply: &str) -> Option<Turn> {
        let mut probe = self.clone();
        let report = probe.apply_lenient(&Sttt::parse_lenient(reply));
        let mut placed = report
            .placements
            .iter()
            .filter_map(|r| r.clone().ok().flatten());
        Some(Turn {
            first: placed.next(),
            second: placed.next(),
        })
    }
}

impl ArenaGame for Ut3 {
    fn decode(line: &str, side: Player) -> Result<Ut3, String> {
        let g = Ut3::decode(line.trim()).map_err(|e| e.to_string())?;
        same_side(g.to_move(), side, "the position")?;
        Ok(g)
    }

    fn name(&self) -> String {
        "ut3".into()
    }

    /// The handout's `move_by_opponent` on the first move.
    fn no_move() -> &'static str {
        "(-1, -1)"
    }

    fn render(&self) -> String {
        let mut out = String::new();
        for r in 0..9 {
            if r > 0 && r % 3 == 0 {
                out.push_str("------+-------+------\n");
            }
            for c in 0..9 {
                if c > 0 && c % 3 == 0 {
                    out.push_str("| ");
                }
                out.push(mark(self.cell(r, c)));
                out.push(' ');
            }
            out.pop();
            out.push('\n');
        }
        out.pop();
        out
    }

    /// The 81 cells; a won block's cells shaded by its winner, the blocks the side to move may play
    /// in highlighted (none once the game is over).
    fn picture(&self) -> Picture {
        let allowed = if self.outcome().is_some() {
            0
        } else {
            self.allowed_blocks()
        };
        Picture::grid(9, 3, |r, c| {
            let block = r / 3 * 3 + c / 3;
            let shade = match self.block_winner(block) {
                Some(p) => Shade::Won(xo(Some(p))),
                None if allowed >> block & 1 == 1 => Shade::Allowed,
                None => Shade::Plain,
            };
            (xo(self.cell(r, c)), shade)
        })
    }

    /// 002: "the team with more number of blocks ..., else more corner cells".
    fn tie_break(&self) -> Option<Player> {
        self.draw_tiebreak()
    }
}

impl ArenaGame for Oska {
    fn decode(line: &str, side: Player) -> Result<Oska, String> {
        Oska::decode(line.trim(), side).map_err(|e| e.to_string())
    }

    fn name(&self) -> String {
        if self.n() == 4 {
            "oska".into()
        } else {
            format!("oska:{}", self.n())
        }
    }

    fn side_name(side: Player) -> &'static str {
        match side {
            Player::First => "white",
            Player::Second => "black",
        }
    }

    fn side_arg(side: Player) -> &'static str {
        match side {
            Player::First => "w",
            Player::Second => "b",
        }
    }

    /// Spaces allowed; a blocked side may answer with the unchanged board or with nothing (004:43–45).
    fn move_from_state(&self, reply: &str) -> Option<OskaMove> {
        self.move_to_board(reply)
    }

    fn why_not_state(&self, reply: &str) -> String {
        self.why_not_next(reply)
    }

    fn picture(&self) -> Picture {
        oska_picture(self)
    }

    /// The rows centred, as the handout draws the board: white (`w`) at the top, black (`b`) below.
    fn render(&self) -> String {
        let rows = self.rows();
        let widest = rows.iter().map(Vec::len).max().unwrap_or(0);
        rows.iter()
            .map(|row| {
                let cells: Vec<&str> = row
                    .iter()
                    .map(|c| match c {
                        Some(Player::First) => "w",
                        Some(Player::Second) => "b",
                        None => ".",
                    })
                    .collect();
                format!("{}{}", " ".repeat(widest - row.len()), cells.join(" "))
            })
            .collect::<Vec<_>>()
            .join("\n")
    }
}

/// Oska's rows centred as the handout draws them: white (`w`) at the top, black (`b`) below, each
/// square a round hole.
fn oska_picture(g: &Oska) -> Picture {
    let rows = g.rows();
    let widest = rows.iter().map(Vec::len).max().unwrap_or(0);
    let mut cells = Vec::new();
    for (y, row) in rows.iter().enumerate() {
        let indent = (widest - row.len()) as f32 / 2.0;
        for (x, square) in row.iter().enumerate() {
            let mark = match square {
                Some(Player::First) => 'w',
                Some(Player::Second) => 'b',
                None => ' ',
            };
            cells.push(Spot {
                x: indent + x as f32 + 0.5,
                y: y as f32 + 0.5,
                mark,
                shade: Shade::Plain,
            });
        }
    }
    Picture {
        width: widest,
        height: rows.len(),
        cells,
        links: Vec::new(),
        block: 0,
        round: true,
    }
}

/// A bot from the reference crate's ladder (`random`, `offensive`, `defensive`, `minimax:D`, `mcts:N`,
/// `perfect`), as a move picker.
///
/// # Errors
/// The reference crate's reason the spec names no bot for this game.
pub fn ladder<G: ArenaGame + Playable>(spec: &str, seed: u64) -> Result<Pick<G>, String> {
    let mut b = bot::<G>(spec, seed).map_err(|e| e.to_string())?;
    Ok(Box::new(move |state: &G| b.choose(state)))
}

/// [`ladder`] for Oska boards larger than n = 4, which the reference crate does not solve: `perfect`
/// is refused there with the reference crate's reason.
///
/// # Errors
/// As [`ladder`], and `perfect`.
pub fn ladder_oska_unsolved(spec: &str, seed: u64) -> Result<Pick<Oska>, String> {
    let mut b = bot_for::<Oska>(spec, seed, &Oska::new(5)).map_err(|e| e.to_string())?;
    Ok(Box::new(move |state: &Oska| b.choose(state)))
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
