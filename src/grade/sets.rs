//! Sets of games: a play case's games against one opponent (`grade::play`), made one game at a time
//! by whoever has a slot, and several sets' games played at once.
//!
//! A submission's play cases ask for their sets one case after another. When every set starts alike
//! in any order (no dialogue the grader is still learning, no rules program), the games the cases will
//! first ask for are played at once, spread over the slots that come free (`grade::spread`), so a
//! submission whose games sleep or run to their limits does not play its sets one after another at
//! the end of its class.
//!
//! Why the results do not change: a game depends only on its set and its number (the seed is fixed by
//! the suite, the opponent and the game's number), and each set's games come back in order.

use std::sync::Arc;
use std::time::{Duration, Instant};

use reference::rng::Rng;

use super::samefault::FIRST;
use super::spread::{spread, spread_gated, Gate};
use crate::arena::config::ArenaConfig;
use crate::arena::event::schedule::SeatMaker;
use crate::arena::game::record::GameRecord;
use crate::arena::game::registry::{dispatch, MakeBot, Visitor};
use crate::arena::game::ArenaGame;
use crate::arena::referee::{play_measured, Match};
use crate::arena::seat::players::{Entrant, Kind as Seat, Maker};
use crate::build::Built;
use crate::sandbox::{Sandbox, Usage};
use crate::suite::Opponent;

/// A game and what each seat's program used in it (colour order; `None` for a bot).
pub type Played = (GameRecord, [Option<Usage>; 2]);

/// The submission's colour in game `k` (0-based): first in games 1, 3, 5, ...
#[must_use]
pub fn my_side(k: usize) -> usize {
    k % 2
}

/// The seed of game `k` (0-based) against `opponent` in `game`: the same for every case that plays
/// them, so identical game sets are identical games.
#[must_use]
pub fn game_seed(suite_seed: u64, opponent: &str, game: &str, k: u32) -> u64 {
    // FNV-1a: stable across Rust versions, unlike `DefaultHasher`.
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in opponent.bytes().chain([0]).chain(game.bytes()) {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    Rng::new(suite_seed ^ h).fork(u64::from(k)).next_u64()
}

/// Game `k` of a set, told what to call at its first move.
type Game = dyn Fn(usize, &dyn Fn()) -> Played + Sync;

/// One set's games: game `k` (0-based) made on demand, on any thread.
pub struct Set {
    /// Game `k`, calling its second argument once when the game's first move is played.
    game: Box<Game>,
    /// Whether the games from now on start alike in any order (a rules program's never do: one
    /// program serves them all; a dialogue program's do once the grader has learned how to play it).
    apart: Box<dyn Fn() -> bool + Sync>,
}

impl Set {
    /// The set of `config`'s game between `student`'s program `built` and `opponent`.
    pub fn new(
        sandbox: &Arc<dyn Sandbox>,
        config: &ArenaConfig,
        built: &Built,
        student: &str,
        opponent: &Opponent,
        seed: u64,
    ) -> Result<Set, String> {
        let setup = SetUp {
            sandbox: sandbox.clone(),
            config: config.clone(),
            built: built.clone(),
            student: student.to_string(),
            opponent: opponent.clone(),
            seed,
        };
        dispatch(&config.game, setup).map_err(|e| e.to_string())
    }

    /// Whether its games from now on may be played in any order, at once.
    pub fn apart(&self) -> bool {
        (self.apart)()
    }

    /// Games `from..to`: in order while they do not start alike in any order, then spread over the
    /// slots that come free.
    pub fn play(&self, from: usize, to: usize) -> Vec<Played> {
        let n = to - from;
        let mut played = Vec::with_capacity(n);
        while played.len() < n && !self.apart() {
            played.push((self.game)(from + played.len(), &|| {}));
        }
        let done = from + played.len();
        played.extend(spread(to - done, &|i| (self.game)(done + i, &|| {})));
        played
    }
}

/// One set's games to play at once with other sets' ([`play_at_once`]).
pub struct Ask<'a> {
    pub set: &'a Set,
    /// Games `0..games`.
    pub games: usize,
    /// Whether the rule of `samefault` may spare the games past the first [`samefault::FIRST`].
    pub spare: bool,
}

/// Plays the games `asks` name at once, spread over the slots that come free (each set must be
/// [`Set::apart`]). A set that the rule of `samefault` may spare plays its other games once one of
/// its first games has seen a move (the rule then cannot spare them), or once its first games have
/// ended and `spared(j, those)` is false; else they are not played. Returns each set's games played,
/// in order, and each its share of the wall time: the whole split by what its games took, so the
/// shares add up to the time it took.
pub fn play_at_once(
    asks: &[Ask<'_>],
    spared: &(dyn Fn(usize, &[&Played]) -> bool + Sync),
) -> Vec<(Vec<Played>, Duration)> {
    let Pieces {
        pieces,
        gates,
        gate_of,
        set_of,
    } = Pieces::of(asks);
    let started = Instant::now();
    let made = spread_gated(
        pieces.len(),
        &gates,
        &|p, open| {
            let (j, k) = pieces[p];
            let moved = || {
                if let Some(g) = gate_of[j].filter(|_| k < FIRST) {
                    open(g);
                }
            };
            let began = Instant::now();
            let game = (asks[j].set.game)(k, &moved);
            (game, began.elapsed())
        },
        &|g, outcomes| {
            let games: Vec<&Played> = outcomes.iter().map(|(game, _)| game).collect();
            !spared(set_of[g], &games)
        },
    );
    let wall = started.elapsed();
    let mut out: Vec<(Vec<Played>, Duration)> = asks
        .iter()
        .map(|a| (Vec::with_capacity(a.games), Duration::ZERO))
        .collect();
    let mut took = vec![Duration::ZERO; asks.len()];
    for (&(j, _), made) in pieces.iter().zip(made) {
        if let Some((game, spent)) = made {
            out[j].0.push(game);
            took[j] += spent;
        }
    }
    let all: Duration = took.iter().sum();
    for (o, t) in out.iter_mut().zip(&took) {
        if !all.is_zero() {
            o.1 = wall.mul_f64(t.as_secs_f64() / all.as_secs_f64());
        }
    }
    out
}

/// The games of [`play_at_once`] as pieces for `grade::spread`: every set's first games, then each
/// sparable set's others, held behind a gate of its own.
struct Pieces {
    /// Each piece's set and game.
    pieces: Vec<(usize, usize)>,
    gates: Vec<Gate>,
    /// Each set's gate, if it may be spared; each gate's set.
    gate_of: Vec<Option<usize>>,
    set_of: Vec<usize>,
}

impl Pieces {
    fn of(asks: &[Ask<'_>]) -> Pieces {
        let firsts = |a: &Ask<'_>| if a.spare { a.games.min(FIRST) } else { a.games };
        let mut pieces: Vec<(usize, usize)> = Vec::new();
        for (j, a) in asks.iter().enumerate() {
            pieces.extend((0..firsts(a)).map(|k| (j, k)));
        }
        let mut gates = Vec::new();
        let mut gate_of = vec![None; asks.len()];
        let mut set_of = Vec::new();
        for (j, a) in asks.iter().enumerate().filter(|(_, a)| a.spare) {
            let after = (0..pieces.len()).filter(|&p| pieces[p].0 == j).collect();
            let behind = (pieces.len()..pieces.len() + a.games - firsts(a)).collect();
            pieces.extend((firsts(a)..a.games).map(|k| (j, k)));
            gate_of[j] = Some(gates.len());
            set_of.push(j);
            gates.push(Gate { after, behind });
        }
        Pieces {
            pieces,
            gates,
            gate_of,
            set_of,
        }
    }
}

/// Makes a [`Set`] once the game's type is known.
struct SetUp {
    sandbox: Arc<dyn Sandbox>,
    config: ArenaConfig,
    built: Built,
    student: String,
    opponent: Opponent,
    seed: u64,
}

impl Visitor for SetUp {
    type Out = Set;

    fn visit<G: ArenaGame>(self, initial: G, bots: MakeBot<G>) -> Set
    where
        G::Move: Send + Sync,
    {
        let me = Entrant {
            name: self.student.clone(),
            kind: Seat::Built(self.built.clone()),
        };
        let them = match &self.opponent {
            Opponent::Bot(spec) => Entrant {
                name: spec.clone(),
                kind: Seat::Bot(spec.clone()),
            },
            Opponent::Itself => Entrant {
                name: format!("{} (copy)", self.student),
                kind: Seat::Built(self.built.clone()),
            },
        };
        let maker = Arc::new(Maker {
            entrants: vec![me, them],
            bots,
            config: self.config.clone(),
            sandbox: Some(self.sandbox.clone()),
        });
        let games_apart = initial.games_apart();
        let learner = maker.clone();
        let game = initial.name();
        let (seed, spec, policy) = (
            self.seed,
            self.opponent.spec().to_string(),
            self.config.policy.clone(),
        );
        Set {
            game: Box::new(move |k: usize, moved: &dyn Fn()| {
                let seed = game_seed(seed, &spec, &game, k as u32);
                let order = if my_side(k) == 0 { [0, 1] } else { [1, 0] };
                let mut first = maker.seat(order[0], seed);
                let mut second = maker.seat(order[1], seed.rotate_left(32));
                let who = Match {
                    players: [
                        maker.entrants[order[0]].name.clone(),
                        maker.entrants[order[1]].name.clone(),
                    ],
                    seed,
                };
                let mut first_move = Some(moved);
                play_measured(
                    initial.clone(),
                    [first.as_mut(), second.as_mut()],
                    &who,
                    &policy,
                    &mut |_, _| {
                        if let Some(moved) = first_move.take() {
                            moved();
                        }
                    },
                )
            }),
            apart: Box::new(move || games_apart && learner.learned()),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::{Condvar, Mutex};

    use super::*;
    use crate::arena::game::record::fixtures::tictactoe;
    use crate::arena::game::record::{Ending, GameResult};
    use crate::sandbox::pace::{Cores, Pacer};

    /// A set whose game `k` is a record with seed `base + k`, after `wait` (which may block).
    fn set(base: u64, wait: impl Fn(usize) + Sync + 'static) -> Set {
        Set {
            game: Box::new(move |k, _| {
                wait(k);
                let mut r = tictactoe(GameResult::Draw { edge: None }, Ending::Rules, "draw");
                r.seed = base + k as u64;
                (r, [None, None])
            }),
            apart: Box::new(|| true),
        }
    }

    fn ask(set: &Set, games: usize) -> Ask<'_> {
        Ask {
            set,
            games,
            spare: false,
        }
    }

    /// Two sets' games meet: a game of the second set starts while one of the first is under way
    /// (each waits until the other has started, for at most 10 s), so they run at once, on the slot
    /// that is free; each range comes back in its own order, and the wall shares add up to no more
    /// than the time it all took.
    #[test]
    fn two_sets_are_played_at_once_and_come_back_each_in_order() {
        let met = std::sync::Arc::new((Mutex::new(0), Condvar::new()));
        let rendezvous = |m: std::sync::Arc<(Mutex<usize>, Condvar)>| {
            move |k: usize| {
                if k != 0 {
                    return;
                }
                let (count, changed) = &*m;
                let mut n = count.lock().unwrap();
                *n += 1;
                changed.notify_all();
                let deadline = Instant::now() + Duration::from_secs(10);
                while *n < 2 && Instant::now() < deadline {
                    n = changed
                        .wait_timeout(n, Duration::from_millis(50))
                        .unwrap()
                        .0;
                }
            }
        };
        let a = set(100, rendezvous(met.clone()));
        let b = set(200, rendezvous(met.clone()));
        let cores = Cores::new(2, 0);
        let _slot = Pacer::enter(&cores);
        let started = Instant::now();
        let made = play_at_once(&[ask(&a, 1), ask(&b, 3)], &|_, _| false);
        let took = started.elapsed();
        assert_eq!(*met.0.lock().unwrap(), 2);
        assert!(
            took < Duration::from_secs(10),
            "the two first games never met"
        );
        let seeds: Vec<Vec<u64>> = made
            .iter()
            .map(|(games, _)| games.iter().map(|(r, _)| r.seed).collect())
            .collect();
        assert_eq!(seeds, [vec![100], vec![200, 201, 202]]);
        let shares: Duration = made.iter().map(|(_, wall)| *wall).sum();
        assert!(shares <= took, "{shares:?} > {took:?}");
        assert!(made.iter().all(|(_, wall)| !wall.is_zero()), "{made:?}");
    }

    /// Game `k` of a set whose every game ends in a fault of the submission before any move.
    fn fault(k: usize) -> GameRecord {
        let mut r = tictactoe(
            GameResult::Win(1 - my_side(k)),
            Ending::Fault,
            "x failed to start",
        );
        r.moves.clear();
        r.seed = k as u64;
        r
    }

    /// With the rule of `samefault` in play, a set's other games start as soon as one of its first
    /// games has seen a move (its game 1 waits, for at most 10 s, until its game 3 has started),
    /// while a set whose first games `spared` finds alike plays no other game.
    #[test]
    fn a_set_past_its_first_move_plays_on_at_once_and_a_spared_one_stops() {
        use std::sync::atomic::{AtomicBool, Ordering};
        let third = Arc::new(AtomicBool::new(false));
        let saw = Arc::new(AtomicBool::new(false));
        let (t, s) = (third.clone(), saw.clone());
        let on = Set {
            game: Box::new(move |k, moved| {
                if k == 0 {
                    moved();
                    let deadline = Instant::now() + Duration::from_secs(10);
                    while !t.load(Ordering::SeqCst) && Instant::now() < deadline {
                        std::thread::sleep(Duration::from_millis(5));
                    }
                    s.store(t.load(Ordering::SeqCst), Ordering::SeqCst);
                }
                if k == 2 {
                    t.store(true, Ordering::SeqCst);
                }
                let mut r = tictactoe(GameResult::Draw { edge: None }, Ending::Rules, "draw");
                r.seed = k as u64;
                (r, [None, None])
            }),
            apart: Box::new(|| true),
        };
        let off_made = Arc::new(Mutex::new(Vec::new()));
        let made = off_made.clone();
        let off = Set {
            game: Box::new(move |k, _| {
                made.lock().unwrap().push(k);
                (fault(k), [None, None])
            }),
            apart: Box::new(|| true),
        };
        let cores = Cores::new(3, 0);
        let _slot = Pacer::enter(&cores);
        let asks = [
            Ask {
                set: &on,
                games: 4,
                spare: true,
            },
            Ask {
                set: &off,
                games: 4,
                spare: true,
            },
        ];
        let got = play_at_once(&asks, &|j, firsts| {
            firsts.len() == FIRST && firsts.iter().all(|(r, _)| r.moves.is_empty()) && j == 1
        });
        assert!(
            saw.load(Ordering::SeqCst),
            "game 3 did not start while game 1 was under way"
        );
        let seeds: Vec<Vec<u64>> = got
            .iter()
            .map(|(games, _)| games.iter().map(|(r, _)| r.seed).collect())
            .collect();
        assert_eq!(seeds, [vec![0, 1, 2, 3], vec![0, 1]]);
        let mut off_made = off_made.lock().unwrap().clone();
        off_made.sort_unstable();
        assert_eq!(
            off_made,
            [0, 1],
            "a spared set's other games are never played"
        );
    }

    /// A real game tells its set of its first move, once (the student's or the bot's, whichever
    /// moves first), and a game that ends before any move does not: games 1 and 2 of a player of
    /// the first blank and of a program that exits at once, against `random`.
    #[test]
    fn a_game_tells_of_its_first_move_once_and_only_when_there_is_one() {
        use std::sync::atomic::{AtomicUsize, Ordering};
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("blank.py"),
            "import sys\nfor line in sys.stdin:\n    kind, *rest = line.rstrip('\\n').split('\\t')\n    if kind == 'game':\n        print('ready', flush=True)\n    elif kind == 'turn':\n        print(rest[2].index('-'), flush=True)\n    elif kind == 'end':\n        break\n",
        )
        .unwrap();
        std::fs::write(dir.path().join("mute.py"), "import sys\nsys.exit(3)\n").unwrap();
        let sandbox: Arc<dyn Sandbox> = Arc::from(
            crate::sandbox::select(crate::sandbox::Tier::Basic, &[]).expect("the basic sandbox"),
        );
        let config = crate::arena::setup::defaults("tictactoe");
        for (file, moves) in [("blank.py", 1), ("mute.py", 0)] {
            let built = Built {
                language: "python".into(),
                dir: dir.path().to_path_buf(),
                command: vec![
                    "python3".into(),
                    dir.path().join(file).to_string_lossy().into(),
                ],
                log: String::new(),
                outcome: None,
                address_space: false,
                interpreter: None,
            };
            let bot = Opponent::Bot("random".into());
            let set = Set::new(&sandbox, &config, &built, "student", &bot, 7).unwrap();
            for k in 0..2 {
                let told = AtomicUsize::new(0);
                let (record, _) = (set.game)(k, &|| {
                    told.fetch_add(1, Ordering::SeqCst);
                });
                assert_eq!(
                    told.into_inner(),
                    moves,
                    "{file}, game {}: {}",
                    k + 1,
                    record.reason
                );
                assert_eq!(record.moves.is_empty(), moves == 0, "{file}: {record:?}");
            }
        }
    }
}
