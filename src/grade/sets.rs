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

/// One set's games: game `k` (0-based) made on demand, on any thread.
pub struct Set {
    game: Box<dyn Fn(usize) -> Played + Sync>,
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
            played.push((self.game)(from + played.len()));
        }
        let done = from + played.len();
        played.extend(super::spread::spread(to - done, &|i| (self.game)(done + i)));
        played
    }
}

/// Plays every range `sets[j].1` of set `sets[j].0` at once, spread over the slots that come free
/// (each set must be [`Set::apart`]). Returns each range's games in order, and each its share of the
/// wall time: the whole split by what its games took, so the shares add up to the time it took.
pub fn play_at_once(sets: &[(&Set, std::ops::Range<usize>)]) -> Vec<(Vec<Played>, Duration)> {
    let pieces: Vec<(usize, usize)> = sets
        .iter()
        .enumerate()
        .flat_map(|(j, (_, range))| range.clone().map(move |k| (j, k)))
        .collect();
    let started = Instant::now();
    let made = super::spread::spread(pieces.len(), &|p| {
        let (j, k) = pieces[p];
        let began = Instant::now();
        let game = (sets[j].0.game)(k);
        (game, began.elapsed())
    });
    let wall = started.elapsed();
    let mut out: Vec<(Vec<Played>, Duration)> = sets
        .iter()
        .map(|(_, r)| (Vec::with_capacity(r.len()), Duration::ZERO))
        .collect();
    let mut took = vec![Duration::ZERO; sets.len()];
    for (&(j, _), (game, spent)) in pieces.iter().zip(made) {
        out[j].0.push(game);
        took[j] += spent;
    }
    let all: Duration = took.iter().sum();
    for (o, t) in out.iter_mut().zip(&took) {
        if !all.is_zero() {
            o.1 = wall.mul_f64(t.as_secs_f64() / all.as_secs_f64());
        }
    }
    out
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
            game: Box::new(move |k: usize| {
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
                play_measured(
                    initial.clone(),
                    [first.as_mut(), second.as_mut()],
                    &who,
                    &policy,
                    &mut |_, _| {},
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
            game: Box::new(move |k| {
                wait(k);
                let mut r = tictactoe(GameResult::Draw { edge: None }, Ending::Rules, "draw");
                r.seed = base + k as u64;
                (r, [None, None])
            }),
            apart: Box::new(|| true),
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
        let made = play_at_once(&[(&a, 0..1), (&b, 0..3)]);
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
}
