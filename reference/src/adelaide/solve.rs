//! The Adelaide solvers: exact stdout and visited-node traces for a board, in every [`Variant`]. Left
//! out of the student build (the `student` feature): this is the assignment's answer.

use std::io::{self, Write};

use super::{Mode, Variant};
use crate::game::{Game, Outcome, Player};
use crate::games::raster::StateError;
use crate::games::tictactoe::{self, TicTacToe};
use crate::games::tmmorris::{self, Morris};
use crate::search::{self, AlphaBeta, Cut, Evaluator, RootWindow, Searched, Values, Visit};

/// The most nodes one solve may visit before it gives up with [`StateError::TooManyNodes`]: a
/// Three Men's Morris search grows about threefold every two plies (ply 25 already visits 3.4 million
/// nodes from some positions), and the trace of every node is kept in memory. Tic-tac-toe's largest
/// search, plain minimax from the blank board, visits 549,946.
pub const MAX_NODES: u64 = 5_000_000;

/// One line of the visited file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TraceLine {
    pub state: String,
    pub value: i32,
}

/// What a student program should produce: the board it prints and the lines it writes to PATH.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution {
    /// `None` when no move is possible (then the trace is empty too).
    pub board: Option<String>,
    pub trace: Vec<TraceLine>,
}

impl Solution {
    /// `"BOARD\n"`, or `""` when no move is possible.
    #[must_use]
    pub fn stdout(&self) -> String {
        self.board
            .as_ref()
            .map_or(String::new(), |b| format!("{b}\n"))
    }

    /// `"STATE VALUE\n"` per line, exactly as written to PATH.
    #[must_use]
    pub fn trace_text(&self) -> String {
        let mut out = String::with_capacity(self.trace.len() * 13);
        for l in &self.trace {
            out.push_str(&l.state);
            out.push(' ');
            out.push_str(&l.value.to_string());
            out.push('\n');
        }
        out
    }
}

/// A [`Solution`] in compact form: the visited positions exactly as the search recorded them, turned
/// into text only while being written, so a half-million-line trace costs no per-line allocation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    pub board: Option<[u8; 9]>,
    visits: Visits,
}

/// The recorded visits of either game, and the index of the first one that is written.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Visits {
    TicTacToe(Vec<Visit<TicTacToe>>, usize),
    Morris(Vec<Visit<Morris>>, usize),
}

/// One line of the visited file, compactly.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Line {
    pub state: [u8; 9],
    pub value: i32,
}

/// The games whose positions are 3×3 rasters.
trait Raster: Game {
    fn raster(&self) -> [u8; 9];
}

impl Raster for TicTacToe {
    fn raster(&self) -> [u8; 9] {
        self.cells()
    }
}

impl Raster for Morris {
    fn raster(&self) -> [u8; 9] {
        *self.cells()
    }
}

fn try_each<G: Raster, E>(
    visits: &[Visit<G>],
    mut f: impl FnMut(Line) -> Result<(), E>,
) -> Result<(), E> {
    visits.iter().try_for_each(|v| {
        f(Line {
            state: v.state.raster(),
            value: v.value,
        })
    })
}

impl Answer {
    fn none() -> Answer {
        Answer {
            board: None,
            visits: Visits::TicTacToe(Vec::new(), 0),
        }
    }

    /// How many lines the visited file has.
    #[must_use]
    pub fn len(&self) -> usize {
        match &self.visits {
            Visits::TicTacToe(v, start) => v.len() - start,
            Visits::Morris(v, start) => v.len() - start,
        }
    }

    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Calls `f` with each line in order, stopping at the first error.
    pub fn try_for_each_line<E>(&self, f: impl FnMut(Line) -> Result<(), E>) -> Result<(), E> {
        match &self.visits {
            Visits::TicTacToe(v, start) => try_each(&v[*start..], f),
            Visits::Morris(v, start) => try_each(&v[*start..], f),
        }
    }

    /// The lines of the visited file.
    #[must_use]
    pub fn lines(&self) -> Vec<Line> {
        let mut out = Vec::with_capacity(self.len());
        let _ = self.try_for_each_line(|l| {
            out.push(l);
            Ok::<(), ()>(())
        });
        out
    }

    /// `"BOARD\n"`, or `""` when no move is possible.
    #[must_use]
    pub fn stdout(&self) -> String {
        self.board
            .map_or(String::new(), |b| format!("{}\n", raster_string(&b)))
    }

    /// Writes the visited file's contents, assembled in 64 KiB blocks.
    pub fn write_trace(&self, out: &mut impl Write) -> io::Result<()> {
        let mut block = vec![0u8; 64 * 1024];
        let mut len = 0;
        self.try_for_each_line(|l| {
            if len + MAX_LINE > block.len() {
                out.write_all(&block[..len])?;
                len = 0;
            }
            len += put_line(&mut block[len..len + MAX_LINE], &l);
            Ok::<(), io::Error>(())
        })?;
        out.write_all(&block[..len])
    }

    /// The visited file's contents as one string.
    #[must_use]
    pub fn trace_text(&self) -> String {
        let mut buf = Vec::new();
        self.write_trace(&mut buf)
            .expect("writing to memory cannot fail");
        String::from_utf8(buf).expect("raster bytes and digits are ASCII")
    }

    #[must_use]
    pub fn into_solution(self) -> Solution {
        Solution {
            board: self.board.map(|b| raster_string(&b)),
            trace: self
                .lines()
                .iter()
                .map(|l| TraceLine {
                    state: raster_string(&l.state),
                    value: l.value,
                })
                .collect(),
        }
    }
}

fn raster_string(cells: &[u8; 9]) -> String {
    cells.iter().map(|&b| char::from(b)).collect()
}

/// The longest line: 9 cells, a space, a sign and 10 digits, a newline.
const MAX_LINE: usize = 9 + 1 + 11 + 1;

/// Writes `STATE VALUE\n` at the start of `out` (at least `MAX_LINE` bytes) and returns its length.
/// Fixed-size copies and no allocation: this runs half a million times for the blank board.
fn put_line(out: &mut [u8], line: &Line) -> usize {
    out[..9].copy_from_slice(&line.state);
    out[9] = b' ';
    let mut n = 10;
    if line.value < 0 {
        out[n] = b'-';
        n += 1;
    }
    let v = line.value.unsigned_abs();
    let digits = v.checked_ilog10().unwrap_or(0) as usize + 1;
    let mut rest = v;
    for i in (0..digits).rev() {
        out[n + i] = b'0' + (rest % 10) as u8;
        rest /= 10;
    }
    n += digits;
    out[n] = b'\n';
    n + 1
}

/// The tic-tac-toe solver: what `tictactoe STATE PATH [prune [PLY]]` prints and writes.
pub fn tictactoe(state: &str, mode: Mode, variant: Variant) -> Result<Solution, StateError> {
    Ok(tictactoe_answer(state, mode, variant)?.into_solution())
}

/// [`tictactoe`] in compact form.
pub fn tictactoe_answer(state: &str, mode: Mode, variant: Variant) -> Result<Answer, StateError> {
    let root = TicTacToe::from_raster(state)?;
    if let Mode::Ply(0) = mode {
        return Err(StateError::BadPly {
            ply: "0".to_owned(),
        });
    }
    if root.outcome().is_some() {
        return Ok(Answer::none());
    }
    let variant = if variant.applies_to(mode) {
        variant
    } else {
        Variant::Golden
    };
    // The tree below n blanks has at most n!/n! + n!/(n-1)! + ... + n!/0! nodes.
    let (mut capacity, mut falling) = (1usize, 1usize);
    for k in (1..=root.blanks() as usize).rev() {
        falling *= k;
        capacity += falling;
    }
    let searched = match mode {
        Mode::Plain => {
            let mut o = plain_options(None);
            o.capacity = capacity;
            search::minimax(&root, &search::Utility, o)
        }
        Mode::Prune => search::alphabeta(&root, &search::Utility, ab_options(None, variant)),
        Mode::Ply(n) => {
            let n = if variant == Variant::PlyOneDeeper {
                n + 1
            } else {
                n
            };
            let eval = TicTacToeEval {
                terminal_utility: variant == Variant::PlyTerminalUtility,
            };
            if variant == Variant::PlyWithoutPruning {
                search::minimax(&root, &eval, plain_options(Some(n)))
            } else {
                search::alphabeta(&root, &eval, ab_options(Some(n), variant))
            }
        }
    };
    // Unreachable today (the largest tree has 549,946 nodes), but a smaller budget must not pass
    // silently.
    if !searched.complete {
        return Err(StateError::TooManyNodes {
            state: state.to_owned(),
            ply: match mode {
                Mode::Ply(n) => n,
                Mode::Plain | Mode::Prune => 9,
            },
            limit: MAX_NODES,
        });
    }
    Ok(answer(searched, variant, Visits::TicTacToe))
}

/// The Three Men's Morris solver: what `tmmorris STATE PATH PLY TURN` prints and writes. Always
/// alpha-beta (the handout's default) with the ply limit and the rules in `games::tmmorris`.
pub fn tmmorris(
    state: &str,
    ply: u32,
    turn: Player,
    variant: Variant,
) -> Result<Solution, StateError> {
    Ok(tmmorris_answer(state, ply, turn, variant)?.into_solution())
}

/// [`tmmorris`] in compact form.
pub fn tmmorris_answer(
    state: &str,
    ply: u32,
    turn: Player,
    variant: Variant,
) -> Result<Answer, StateError> {
    let root = Morris::from_raster(state, turn)?;
    if ply == 0 {
        return Err(StateError::BadPly {
            ply: "0".to_owned(),
        });
    }
    if root.outcome().is_some() {
        return Ok(Answer::none());
    }
    let variant = if variant.applies_to_tmmorris() {
        variant
    } else {
        Variant::Golden
    };
    let eval = tmmorris::MorrisEval;
    let ply = if variant == Variant::PlyOneDeeper {
        ply.saturating_add(1)
    } else {
        ply
    };
    let searched = if variant == Variant::PlyWithoutPruning {
        let mut o = plain_options(Some(ply));
        o.repetition = true;
        search::minimax(&root, &eval, o)
    } else {
        let mut o = ab_options(Some(ply), variant);
        o.repetition = true;
        search::alphabeta(&root, &eval, o)
    };
    if !searched.complete {
        return Err(StateError::TooManyNodes {
            state: state.to_owned(),
            ply,
            limit: MAX_NODES,
        });
    }
    Ok(answer(searched, variant, Visits::Morris))
}

fn plain_options(ply: Option<u32>) -> search::Minimax {
    search::Minimax {
        ply,
        repetition: false,
        trace: true,
        max_nodes: Some(MAX_NODES),
        capacity: 0,
    }
}

fn ab_options(ply: Option<u32>, variant: Variant) -> AlphaBeta {
    AlphaBeta {
        ply,
        repetition: false,
        trace: true,
        max_nodes: Some(MAX_NODES),
        capacity: 0,
        cut: if variant == Variant::PruneStrict {
            Cut::BeyondBound
        } else {
            Cut::AtBound
        },
        root_window: if variant == Variant::RootWindowNotPassed {
            RootWindow::Full
        } else {
            RootWindow::Passed
        },
        values: if variant == Variant::FailHard {
            Values::FailHard
        } else {
            Values::FailSoft
        },
    }
}

fn answer<G: Raster>(
    searched: Searched<G>,
    variant: Variant,
    wrap: fn(Vec<Visit<G>>, usize) -> Visits,
) -> Answer {
    let root = &searched.trace.visits[0].state;
    let board = searched.best.map(|mv| root.after(mv).raster());
    let visits = if variant == Variant::PostOrder {
        let mut post = searched.trace.into_post_order();
        post.pop(); // the root comes last in post-order
        wrap(post, 0)
    } else {
        // The root comes first in pre-order; skipping it by index avoids moving the whole trace.
        let start = usize::from(variant != Variant::WithRoot);
        wrap(searched.trace.visits, start)
    };
    Answer { board, visits }
}

/// E(s) at the ply limit and, as the handout requires, for finished games reached before it too.
struct TicTacToeEval {
    /// The `ply-terminal-utility` variant: finished games keep their true utility.
    terminal_utility: bool,
}

impl Evaluator<TicTacToe> for TicTacToeEval {
    fn terminal(&self, state: &TicTacToe, outcome: Outcome, _: u32) -> i32 {
        if self.terminal_utility {
            outcome.utility()
        } else {
            tictactoe::evaluate(&state.cells())
        }
    }
    fn horizon(&self, state: &TicTacToe) -> i32 {
        tictactoe::evaluate(&state.cells())
    }
}
