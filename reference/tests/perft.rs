//! Move generators checked against second, deliberately plain implementations written from the
//! handouts (char grids, no bit tricks), and random playouts that always end.

use std::collections::HashSet;

use reference::bots::Playable;
use reference::games::sttt::Placement;
use reference::games::{Oska, OskaMove, Sttt, Ut3, Ut3Move};
use reference::rng::Rng;
use reference::{Game, Notation, Outcome, Player};

const LINES3: [[(usize, usize); 3]; 8] = [
    [(0, 0), (0, 1), (0, 2)],
    [(1, 0), (1, 1), (1, 2)],
    [(2, 0), (2, 1), (2, 2)],
    [(0, 0), (1, 0), (2, 0)],
    [(0, 1), (1, 1), (2, 1)],
    [(0, 2), (1, 2), (2, 2)],
    [(0, 0), (1, 1), (2, 2)],
    [(0, 2), (1, 1), (2, 0)],
];

/// Counts move sequences of length `depth` (leaves), the classic perft.
fn perft<G: Game>(g: &G, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    g.moves()
        .into_iter()
        .map(|m| perft(&g.after(m), depth - 1))
        .sum()
}

// ---------------------------------------------------------------- UT3, plain

#[derive(Clone)]
struct PlainUt3 {
    b: [[char; 9]; 9],
    stat: [char; 9],
    last: Option<(usize, usize)>,
    turn: char,
    over: bool,
}

impl PlainUt3 {
    fn new() -> Self {
        PlainUt3 {
            b: [['-'; 9]; 9],
            stat: ['-'; 9],
            last: None,
            turn: 'x',
            over: false,
        }
    }
    fn block_has_empty(&self, k: usize) -> bool {
        let (br, bc) = (k / 3 * 3, k % 3 * 3);
        (0..3).any(|r| (0..3).any(|c| self.b[br + r][bc + c] == '-'))
    }
    fn open(&self, k: usize) -> bool {
        self.stat[k] == '-' && self.block_has_empty(k)
    }
    fn moves(&self) -> Vec<(usize, usize)> {
        if self.over {
            return vec![];
        }
        let mut blocks: Vec<usize> = match self.last {
            None => (0..9).collect(),
            Some((r, c)) => match (r % 3, c % 3) {
                (0, 0) => vec![0, 1, 3],
                (0, 2) => vec![1, 2, 5],
                (2, 0) => vec![3, 6, 7],
                (2, 2) => vec![5, 7, 8],
                (lr, lc) => vec![lr * 3 + lc],
            },
        };
        blocks.retain(|&k| self.open(k));
        if blocks.is_empty() {
            blocks = (0..9).filter(|&k| self.open(k)).collect();
        }
        let mut out = vec![];
        for r in 0..9 {
            for c in 0..9 {
                if self.b[r][c] == '-' && blocks.contains(&(r / 3 * 3 + c / 3)) {
                    out.push((r, c));
                }
            }
        }
        out
    }
    fn play(&mut self, (r, c): (usize, usize)) {
        let t = self.turn;
        self.b[r][c] = t;
        let k = r / 3 * 3 + c / 3;
        let (br, bc) = (k / 3 * 3, k % 3 * 3);
        if LINES3
            .iter()
            .any(|l| l.iter().all(|&(i, j)| self.b[br + i][bc + j] == t))
        {
            self.stat[k] = t;
            if LINES3
                .iter()
                .any(|l| l.iter().all(|&(i, j)| self.stat[i * 3 + j] == t))
            {
                self.over = true;
            }
        }
        if (0..9).all(|k| !self.open(k)) {
            self.over = true;
        }
        self.last = Some((r, c));
        self.turn = if t == 'x' { 'o' } else { 'x' };
    }
    fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        self.moves()
            .into_iter()
            .map(|m| {
                let mut n = self.clone();
                n.play(m);
                n.perft(depth - 1)
            })
            .sum()
    }
}

#[test]
fn ut3_perft_matches_plain_implementation() {
    let (fast, plain) = (Ut3::new(), PlainUt3::new());
    for d in 1..=4 {
        assert_eq!(perft(&fast, d), plain.perft(d), "depth {d}");
    }
    assert_eq!(perft(&fast, 1), 81);
    // Deep into games (wins, closed blocks, free moves, draws): identical move lists at every step.
    for seed in 0..300 {
        let mut rng = Rng::new(seed);
        let (mut f, mut p) = (Ut3::new(), PlainUt3::new());
        loop {
            let fm: Vec<(usize, usize)> = f
                .moves()
                .iter()
                .map(|m| (usize::from(m.row), usize::from(m.col)))
                .collect();
            assert_eq!(fm, p.moves(), "seed {seed}: {}", f.encode());
            assert_eq!(f.outcome().is_some(), p.over);
            if fm.is_empty() {
                break;
            }
            let (r, c) = fm[rng.below(fm.len())];
            f.apply(Ut3Move {
                row: r as u8,
                col: c as u8,
            });
            p.play((r, c));
            let stat: String = f.encode().split(' ').nth(1).unwrap().to_owned();
            assert_eq!(stat, p.stat.iter().collect::<String>());
        }
    }
}

// ---------------------------------------------------------------- Super-TTT, plain

/// Big square, little square → mark; the won big squares; the side to move; over?
type PlainSttt = ([[char; 9]; 9], [char; 9], char, bool);

fn plain_sttt(g: &Sttt) -> PlainSttt {
    let mut b = [['-'; 9]; 9];
    let mut won = ['-'; 9];
    for (big, board) in b.iter_mut().enumerate() {
        for (little, cell) in board.iter_mut().enumerate() {
            *cell = match g.square(Placement {
                big: big as u8,
                little: little as u8,
            }) {
                Some(Player::First) => 'x',
                Some(Player::Second) => 'o',
                None => '-',
            };
        }
        won[big] = match g.big_winner(big) {
            Some(Player::First) => 'x',
            Some(Player::Second) => 'o',
            None => '-',
        };
    }
    let side = if g.to_move() == Player::First {
        'x'
    } else {
        'o'
    };
    (b, won, side, g.outcome().is_some())
}

/// Places one mark the way the handout describes; returns false if the placement is not allowed.
fn plain_place(s: &mut PlainSttt, big: usize, little: usize) -> bool {
    if s.3 || s.1[big] != '-' || s.0[big][little] != '-' {
        return false;
    }
    let t = s.2;
    s.0[big][little] = t;
    let line = |cells: &[char; 9]| {
        LINES3
            .iter()
            .any(|l| l.iter().all(|&(i, j)| cells[i * 3 + j] == t))
    };
    if line(&s.0[big]) {
        s.1[big] = t;
        if line(&s.1) {
            s.3 = true;
        }
    }
    if !(0..9).any(|k| s.1[k] == '-' && s.0[k].contains(&'-')) {
        s.3 = true;
    }
    true
}

/// Every position one turn away, from the plain rules: two placements in order, or one when the first
/// ends the game or leaves nothing open; the turn then passes (even at the end, as in every game here).
fn plain_successors(s: &PlainSttt) -> HashSet<PlainSttt> {
    let mut out = HashSet::new();
    for p1 in 0..81 {
        let mut s1 = *s;
        if !plain_place(&mut s1, p1 / 9, p1 % 9) {
            continue;
        }
        let flip = |mut s: PlainSttt| {
            s.2 = if s.2 == 'x' { 'o' } else { 'x' };
            s
        };
        if s1.3 {
            out.insert(flip(s1));
            continue;
        }
        for p2 in 0..81 {
            let mut s2 = s1;
            if plain_place(&mut s2, p2 / 9, p2 % 9) {
                out.insert(flip(s2));
            }
        }
    }
    out
}

#[test]
fn sttt_turns_match_plain_implementation() {
    assert_eq!(Sttt::new().moves().len(), 3240);
    for seed in 0..16 {
        let mut rng = Rng::new(seed);
        let mut g = Sttt::new();
        while g.outcome().is_none() {
            // Sample positions along the game; all successor sets must agree, without duplicates.
            if rng.below(3) == 0 {
                let moves = g.moves();
                let fast: HashSet<PlainSttt> =
                    moves.iter().map(|&m| plain_sttt(&g.after(m))).collect();
                assert_eq!(fast.len(), moves.len(), "two turns reach the same position");
                assert_eq!(
                    fast,
                    plain_successors(&plain_sttt(&g)),
                    "seed {seed}: {}",
                    g.encode()
                );
            }
            let moves = g.moves();
            g.apply(moves[rng.below(moves.len())]);
        }
    }
}

// ---------------------------------------------------------------- Oska, plain

#[derive(Clone)]
struct PlainOska {
    rows: Vec<Vec<char>>,
    turn: char,
    over: bool,
}

impl PlainOska {
    fn new(n: usize) -> Self {
        let mut rows = vec![vec!['w'; n]];
        for k in (2..n).rev() {
            rows.push(vec!['e'; k]);
        }
        for k in 3..n {
            rows.push(vec!['e'; k]);
        }
        rows.push(vec!['b'; n]);
        PlainOska {
            rows,
            turn: 'w',
            over: false,
        }
    }
    /// The square diagonally forward-left (`right` false) or forward-right of (r, i), moving by `dr`.
    fn diag(&self, r: usize, i: usize, dr: isize, right: bool) -> Option<(usize, usize)> {
        let r2 = r as isize + dr;
        if r2 < 0 || r2 >= self.rows.len() as isize {
            return None;
        }
        let r2 = r2 as usize;
        let narrower = self.rows[r2].len() < self.rows[r].len();
        let j = match (narrower, right) {
            (true, false) => i.checked_sub(1)?,
            (true, true) => i,
            (false, false) => i,
            (false, true) => i + 1,
        };
        (j < self.rows[r2].len()).then_some((r2, j))
    }
    fn moves(&self) -> Vec<String> {
        if self.over {
            return vec![];
        }
        let (me, them, dr) = if self.turn == 'w' {
            ('w', 'b', 1)
        } else {
            ('b', 'w', -1)
        };
        let mut out = vec![];
        for r in 0..self.rows.len() {
            for i in 0..self.rows[r].len() {
                if self.rows[r][i] != me {
                    continue;
                }
                for right in [false, true] {
                    let Some((r1, j1)) = self.diag(r, i, dr, right) else {
                        continue;
                    };
                    if self.rows[r1][j1] == 'e' {
                        let mut n = self.rows.clone();
                        n[r][i] = 'e';
                        n[r1][j1] = me;
                        out.push(show(&n));
                    } else if self.rows[r1][j1] == them {
                        if let Some((r2, j2)) = self.diag(r1, j1, dr, right) {
                            if self.rows[r2][j2] == 'e' {
                                let mut n = self.rows.clone();
                                n[r][i] = 'e';
                                n[r1][j1] = 'e';
                                n[r2][j2] = me;
                                out.push(show(&n));
                            }
                        }
                    }
                }
            }
        }
        out
    }
    fn count(&self, c: char) -> usize {
        self.rows.iter().flatten().filter(|&&x| x == c).count()
    }
    fn home(&self, c: char) -> bool {
        let goal = if c == 'w' { self.rows.len() - 1 } else { 0 };
        let total = self.count(c);
        total > 0 && self.rows[goal].iter().filter(|&&x| x == c).count() == total
    }
    fn play(&mut self, board: Option<&str>) {
        if let Some(b) = board {
            self.rows = parse(b);
        }
        self.turn = if self.turn == 'w' { 'b' } else { 'w' };
        let (w, b) = (self.count('w'), self.count('b'));
        let stuck = {
            let mut other = self.clone();
            other.turn = if self.turn == 'w' { 'b' } else { 'w' };
            self.moves().is_empty() && other.moves().is_empty()
        };
        self.over = w == 0 || b == 0 || self.home('w') || self.home('b') || stuck;
    }
    fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        if self.over {
            return 0;
        }
        let ms = self.moves();
        if ms.is_empty() {
            let mut n = self.clone();
            n.play(None);
            return n.perft(depth - 1);
        }
        ms.iter()
            .map(|m| {
                let mut n = self.clone();
                n.play(Some(m));
                n.perft(depth - 1)
            })
            .sum()
    }
}

fn show(rows: &[Vec<char>]) -> String {
    let r: Vec<String> = rows
        .iter()
        .map(|row| {
            format!(
                "[{}]",
                row.iter()
                    .map(char::to_string)
                    .collect::<Vec<_>>()
                    .join(",")
            )
        })
        .collect();
    format!("[{}]", r.join(","))
}

fn parse(s: &str) -> Vec<Vec<char>> {
    s.trim_start_matches("[[")
        .trim_end_matches("]]")
        .split("],[")
        .map(|r| r.split(',').map(|c| c.chars().next().unwrap()).collect())
        .collect()
}

#[test]
fn oska_perft_matches_plain_implementation() {
    assert_eq!(perft(&Oska::new(4), 1), 6);
    for (n, depth) in [(4, 6), (5, 4), (6, 3)] {
        let (fast, plain) = (Oska::new(n), PlainOska::new(n));
        for d in 1..=depth {
            assert_eq!(perft(&fast, d), plain.perft(d), "n = {n}, depth {d}");
        }
    }
    // Whole games: the same boards reachable at every step, the same end.
    for n in [4, 5, 7] {
        for seed in 0..40 {
            let mut rng = Rng::new(seed);
            let (mut f, mut p) = (Oska::new(n), PlainOska::new(n));
            while f.outcome().is_none() {
                let moves = f.moves();
                let mut fast: Vec<String> = moves
                    .iter()
                    .filter(|&&m| m != OskaMove::Pass)
                    .map(|&m| f.format_move(m))
                    .collect();
                let mut plain = p.moves();
                fast.sort();
                plain.sort();
                assert_eq!(fast, plain, "n {n} seed {seed}: {}", f.encode());
                let m = moves[rng.below(moves.len())];
                f.apply(m);
                p.play((m != OskaMove::Pass).then(|| f.encode()).as_deref());
                assert_eq!(
                    f.outcome().is_some(),
                    p.over,
                    "n {n} seed {seed}: {}",
                    f.encode()
                );
            }
        }
    }
}

#[test]
fn oska_end_rules() {
    let w = Player::First;
    // All white pieces home, black still out: white wins at once.
    let g = Oska::decode("[[e,e,e,e],[e,b,e],[e,e],[e,e,e],[w,e,w,e]]", w).unwrap();
    assert_eq!(g.outcome(), Some(Outcome::Win(Player::First)));
    // Rule 10: both home, more pieces wins; equal is a draw.
    let g = Oska::decode("[[b,b,e,e],[e,e,e],[e,e],[e,e,e],[w,e,e,e]]", w).unwrap();
    assert_eq!(g.outcome(), Some(Outcome::Win(Player::Second)));
    let g = Oska::decode("[[b,e,e,e],[e,e,e],[e,e],[e,e,e],[w,e,e,e]]", w).unwrap();
    assert_eq!(g.outcome(), Some(Outcome::Draw));
    // No black pieces: white wins.
    let g = Oska::decode(
        "[[e,e,e,e],[e,e,e],[e,w],[e,e,e],[e,e,e,e]]",
        Player::Second,
    )
    .unwrap();
    assert_eq!(g.outcome(), Some(Outcome::Win(Player::First)));
    // White blocked (both forward squares black, jumps off-board or blocked) passes; black moves on.
    let g = Oska::decode("[[e,e,e,e],[e,e,e],[e,e],[w,e,e],[b,b,e,e]]", w).unwrap();
    assert_eq!(g.moves(), vec![OskaMove::Pass]);
    let g = g.after(OskaMove::Pass);
    assert_eq!(g.to_move(), Player::Second);
    assert!(g.outcome().is_none());
}

// ---------------------------------------------------------------- termination

fn playouts_end<G: Playable>(start: G, seeds: u64) {
    for seed in 0..seeds {
        let mut rng = Rng::new(seed);
        let mut g = start.clone();
        let mut plies = 0;
        while g.outcome().is_none() {
            assert!(
                plies < G::MAX_PLIES,
                "{}: seed {seed} passed the ply cap",
                G::NAME
            );
            let ms = g.moves();
            g.apply(ms[rng.below(ms.len())]);
            plies += 1;
        }
        let mut fast = start.clone();
        assert!(
            fast.playout(&mut rng, G::MAX_PLIES).is_some(),
            "{}: fast playout capped",
            G::NAME
        );
    }
}

#[test]
fn random_playouts_always_end() {
    playouts_end(Ut3::new(), 2000);
    playouts_end(Sttt::new(), 300);
    for n in 4..=11 {
        playouts_end(Oska::new(n), 100);
    }
}
