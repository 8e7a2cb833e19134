//! Arena benchmarks: the referee's per-move overhead over the persistent protocol against a trivial C
//! player (target ≤ 50 µs over the player's own round trip), games/s of a built-in-bot tournament
//! on 1 and 2 jobs, and a move's cost when the rules are a program (`-- --rules` alone). Run with
//! `cargo bench --bench arena`.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use grader::arena::event::schedule::{self, Plan};
use grader::arena::game::ArenaGame;
use grader::arena::referee::{play, Clock, IllegalPolicy, Match, Policy};
use grader::arena::seat::persistent::PersistentSeat;
use grader::arena::seat::ReplyForm;
use grader::arena::seat::{FnSeat, Seat};
use grader::sandbox::{Limits, Spec, Stdin, Tier};
use reference::{Game, Notation, Outcome, Player};

/// A game that lasts exactly `LENGTH` moves, each "1": the referee's work per move without a rules
/// engine's cost in the way.
#[derive(Clone, Debug)]
struct Count(u32);

const LENGTH: u32 = 20_000;

impl Game for Count {
    type Move = u8;
    fn to_move(&self) -> Player {
        if self.0 % 2 == 0 {
            Player::First
        } else {
            Player::Second
        }
    }
    fn legal_moves(&self, out: &mut Vec<u8>) {
        if self.0 < LENGTH {
            out.push(1);
        }
    }
    fn apply(&mut self, _: u8) {
        self.0 += 1;
    }
    fn outcome(&self) -> Option<Outcome> {
        (self.0 >= LENGTH).then_some(Outcome::Draw)
    }
}

impl Notation for Count {
    fn encode(&self) -> String {
        self.0.to_string()
    }
    fn format_move(&self, _: u8) -> String {
        "1".into()
    }
    fn parse_move(&self, text: &str) -> Result<u8, String> {
        (text == "1")
            .then_some(1)
            .ok_or_else(|| format!("not `1`: `{text}`"))
    }
}

impl ArenaGame for Count {
    fn name(&self) -> String {
        "count".into()
    }
}

const ECHO_C: &str = r#"#include <stdio.h>
#include <string.h>
int main(void) {
    char line[65536];
    setvbuf(stdout, NULL, _IONBF, 0);
    while (fgets(line, sizeof line, stdin)) {
        if (strncmp(line, "game", 4) == 0) fputs("ready\n", stdout);
        else if (strncmp(line, "turn", 4) == 0) fputs("1\n", stdout);
        else if (strncmp(line, "end", 3) == 0) return 0;
    }
    return 0;
}
"#;

fn limits() -> Limits {
    Limits {
        cpu: Duration::from_secs(600),
        wall: Duration::from_secs(600),
        memory: 1 << 30,
        output: 1 << 20,
        file_size: 1 << 20,
        processes: 16,
        open_files: 64,
        stack: 8 << 20,
        address_space: None,
        idle: None,
    }
}

fn overhead() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("echo.c");
    let exe = dir.path().join("echo");
    std::fs::write(&src, ECHO_C).unwrap();
    let ok = Command::new("gcc")
        .args(["-O2", "-o"])
        .arg(&exe)
        .arg(&src)
        .status()
        .map(|s| s.success())
        .unwrap_or(false);
    if !ok {
        println!("overhead: skipped (no gcc)");
        return;
    }

    // The player's own round trip: a bare loop writing `turn` lines and reading replies, no referee.
    let mut child = Command::new(&exe)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    let t = Instant::now();
    for k in 0..LENGTH {
        writeln!(stdin, "turn\tx\t1\t{k}").unwrap();
        line.clear();
        stdout.read_line(&mut line).unwrap();
    }
    let bare = t.elapsed() / LENGTH;
    drop(stdin);
    let _ = child.wait();

    // The referee: one persistent player against itself (two processes, one per side) for LENGTH moves.
    let sandbox: Arc<dyn grader::sandbox::Sandbox> =
        Arc::from(grader::sandbox::select(Tier::Basic, &[]).unwrap());
    let spec = Spec {
        program: exe.into_os_string(),
        args: Vec::new(),
        workdir: dir.path().to_path_buf(),
        env: Vec::new(),
        stdin: Stdin::Piped,
        limits: limits(),
        read_only: Vec::new(),
    };
    let mut a = PersistentSeat::new(Arc::clone(&sandbox), spec.clone(), Duration::from_secs(5));
    let mut b = PersistentSeat::new(sandbox, spec, Duration::from_secs(5));
    let policy = Policy {
        limit: Some(Duration::from_secs(1)),
        margin: Duration::from_millis(50),
        clock: Clock::Wall,
        illegal: IllegalPolicy::Lose,
        move_cap: None,
        reply: ReplyForm::Move,
    };
    let who = Match {
        players: ["echo".into(), "echo".into()],
        seed: 0,
    };
    let t = Instant::now();
    let seats: [&mut dyn Seat<Count>; 2] = [&mut a, &mut b];
    let record = play(Count(0), seats, &who, &policy, &mut |_, _| {});
    let total = t.elapsed();
    assert_eq!(record.moves.len() as u32, LENGTH, "{}", record.reason);
    let per_move = total / LENGTH;
    let timed = Duration::from_micros(record.moves.iter().map(|m| m.micros).sum::<u64>()) / LENGTH;
    println!("persistent protocol, trivial C player, {LENGTH} moves:");
    println!(
        "  bare round trip (player's own time):   {:>7.1} µs/move",
        micros(bare)
    );
    println!(
        "  referee clock (write → reply newline): {:>7.1} µs/move",
        micros(timed)
    );
    println!(
        "  referee wall per move (all included):  {:>7.1} µs/move",
        micros(per_move)
    );
    println!(
        "  overhead over the player's own time:   {:>7.1} µs/move (target ≤ 50)",
        micros(per_move.saturating_sub(bare))
    );
}

fn micros(d: Duration) -> f64 {
    d.as_secs_f64() * 1e6
}

struct Randoms;

impl schedule::SeatMaker<reference::games::tictactoe::TicTacToe> for Randoms {
    fn seat(
        &self,
        _who: usize,
        seed: u64,
    ) -> Box<dyn Seat<reference::games::tictactoe::TicTacToe>> {
        Box::new(FnSeat::from_pick(grader::arena::game::seeds::random(seed)))
    }
}

fn tournament() {
    let names: Vec<String> = (0..8).map(|i| format!("random{i}")).collect();
    let policy = Policy {
        limit: None,
        ..Policy::default()
    };
    for jobs in [1, 2] {
        let plan = Plan {
            names: &names,
            games: 100,
            seed: 1,
            jobs,
            stages: &[],
            knockout: false,
            scoring: grader::arena::event::standings::Scoring::STANDARD,
            policy: &policy,
            sections: None,
            slots: None,
        };
        let t = Instant::now();
        let r = schedule::run(
            &reference::games::tictactoe::TicTacToe::new(),
            &plan,
            &Randoms,
            &|_, _, _, _| {},
        );
        let games = r.stages[0].records.len();
        let secs = t.elapsed().as_secs_f64();
        println!(
            "tictactoe round robin of random bots, {jobs} job(s): {games} games in {secs:.2} s = {:.0} games/s",
            games as f64 / secs
        );
    }
}

/// The reference crate's ladder bots, by entrant index.
struct Ladder(&'static [&'static str]);

impl<G: ArenaGame + reference::bots::Playable> schedule::SeatMaker<G> for Ladder {
    fn seat(&self, who: usize, seed: u64) -> Box<dyn Seat<G>> {
        let pick =
            grader::arena::game::seeds::ladder::<G>(self.0[who], seed).expect("a ladder bot");
        Box::new(FnSeat::from_pick(pick))
    }
}

fn ladder_tournament<G: ArenaGame + reference::bots::Playable>(
    initial: G,
    bots: &'static [&'static str],
    games: u32,
) {
    let names: Vec<String> = bots.iter().map(|b| (*b).to_string()).collect();
    let policy = Policy {
        limit: None,
        ..Policy::default()
    };
    for jobs in [1, 2] {
        let plan = Plan {
            names: &names,
            games,
            seed: 1,
            jobs,
            stages: &[],
            knockout: false,
            scoring: grader::arena::event::standings::Scoring::STANDARD,
            policy: &policy,
            sections: None,
            slots: None,
        };
        let t = Instant::now();
        let r = schedule::run(&initial, &plan, &Ladder(bots), &|_, _, _, _| {});
        let n = r.stages[0].records.len();
        let secs = t.elapsed().as_secs_f64();
        println!(
            "{} round robin of {:?}, {jobs} job(s): {n} games in {secs:.2} s = {:.1} games/s",
            initial.name(),
            bots,
            n as f64 / secs
        );
    }
}

/// Moves a second and time a move of `games` games of `a` against `b` from `initial`, bots only, with
/// no clock: the rules' cost per move (and the bots').
fn per_move<G: ArenaGame>(
    initial: &G,
    a: &str,
    b: &str,
    games: u64,
    bots: grader::arena::game::registry::MakeBot<G>,
) -> (u64, Duration) {
    let policy = Policy {
        limit: None,
        ..Policy::default()
    };
    let mut moves = 0;
    let t = Instant::now();
    for seed in 0..games {
        let mut x = FnSeat::from_pick(bots(a, seed).expect("a bot"));
        let mut o = FnSeat::from_pick(bots(b, seed + 1000).expect("a bot"));
        let who = Match {
            players: [a.into(), b.into()],
            seed,
        };
        let seats: [&mut dyn Seat<G>; 2] = [&mut x, &mut o];
        let record = play(initial.clone(), seats, &who, &policy, &mut |_, _| {});
        assert!(record.reason.contains("by the rules"), "{}", record.reason);
        moves += record.moves.len() as u64;
    }
    (
        moves,
        t.elapsed() / u32::try_from(moves.max(1)).unwrap_or(u32::MAX),
    )
}

/// Issue 30's games without Rust: the cost of a move when the rules are a Python program
/// (suites/connect4/connect4.py over its pipe) against a built-in game's (UT3, a branching factor
/// like Connect Four's), random against random and `minimax:2` against random.
fn rules_program() {
    use grader::arena::game::rules::{self, External};
    let file = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("suites/connect4/connect4.py");
    let name = rules::name_for(&file).expect("the Connect-Four rules program");
    let c4 = External::new(&name).expect("the rules program starts");
    let ut3 = reference::games::Ut3::new();
    println!(
        "a move under a rules program (connect4.py, python3, pipes) vs a built-in game (ut3):"
    );
    for (a, b, games) in [("random", "random", 40), ("minimax:2", "random", 10)] {
        let (n1, ext) = per_move(&c4, a, b, games, rules::bots);
        let (n2, native) = per_move(
            &ut3,
            a,
            b,
            games,
            grader::arena::game::seeds::ladder::<reference::games::Ut3>,
        );
        println!(
            "  {a} vs {b}: connect4.py {:>9.1} µs/move ({n1} moves), ut3 {:>7.1} µs/move ({n2} moves): {:.0}×",
            micros(ext),
            micros(native),
            ext.as_secs_f64() / native.as_secs_f64().max(1e-9)
        );
    }
}

fn main() {
    if std::env::args().any(|a| a == "--rules") {
        rules_program();
        return;
    }
    rules_program();
    overhead();
    tournament();
    ladder_tournament(
        reference::games::Ut3::new(),
        &["random", "offensive", "defensive", "mcts:200"],
        5,
    );
    ladder_tournament(
        reference::games::Sttt::new(),
        &["random", "offensive", "defensive"],
        5,
    );
}
