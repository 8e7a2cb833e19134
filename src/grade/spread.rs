//! Independent pieces of one submission's work (the games of a play case) spread over the slots that
//! come free: the worker makes them in order, and helpers that find a free slot (`sandbox::pace`) take
//! the next ones meanwhile, so a submission whose games sleep or run to their limits one after another
//! does not end its class alone on one core.
//!
//! Why the results do not change: each piece depends on nothing but its index (a game's seed is fixed by
//! the suite, the opponent and the game's number, never by when or where it is played), and the results
//! come back in index order. Only who makes a piece and when moves. Pieces may wait behind a gate (a
//! set's other games behind its first ones, `grade::sets`): whether they are made at all depends only
//! on what the pieces before them gave, never on when.

use std::panic::AssertUnwindSafe;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Condvar, Mutex};
use std::thread::Result as Outcome;

use crate::sandbox::pace::{self, Pacer};

/// `job(0)`, ..., `job(n - 1)`, in that order: made by this thread and, when it grades with a pacer,
/// by helpers on the slots that come free (each holds one while it makes a piece). A panic in any
/// job is this thread's, raised once every piece under way has ended.
pub fn spread<T: Send>(n: usize, job: &(dyn Fn(usize) -> T + Sync)) -> Vec<T> {
    let made = spread_gated(n, &[], &|k, _| job(k), &|_, _| true);
    made.into_iter()
        .map(|m| m.expect("no gate, so every piece is made"))
        .collect()
}

/// Pieces held back behind a gate: they may start only once it opens. It opens when a piece under way
/// says so (`job`'s second argument, called with the gate's index), or, once every piece in `after`
/// is made, when `decide` says so; a gate that does not open drops the pieces behind it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Gate {
    /// The pieces whose outcome decides the gate: each before every piece held back (by index),
    /// none behind a gate.
    pub after: Vec<usize>,
    /// The pieces held back.
    pub behind: Vec<usize>,
}

/// Piece `k`, given what opens gate `g` early.
pub type Job<'a, T> = dyn Fn(usize, &dyn Fn(usize)) -> T + Sync + 'a;

/// [`spread`] with pieces held back behind `gates`: each piece, once claimable, is made in index
/// order as before; `job(k, open)` may call `open(g)` to open gate `g` early. Once all of a gate's
/// `after` pieces are made and it has not opened, `decide(g, their outcomes)` opens it (true) or
/// drops its pieces (false; a panic among them drops them too). A dropped piece's result is `None`.
/// Waiting for a gate, a thread holds no slot.
pub fn spread_gated<T: Send>(
    n: usize,
    gates: &[Gate],
    job: &Job<'_, T>,
    decide: &(dyn Fn(usize, &[&T]) -> bool + Sync),
) -> Vec<Option<T>> {
    let pieces = Pieces::new(n, gates);
    let open = |g: usize| pieces.open(g);
    let make = |k: usize| {
        let outcome = std::panic::catch_unwind(AssertUnwindSafe(|| job(k, &open)));
        pieces.put(k, outcome, gates, decide);
    };
    // With one piece, or no slot that could ever be shared, no helper could take one.
    let cores = pace::cores().filter(|c| n > 1 && c.most() > 1);
    let Some(cores) = cores else {
        // No slots to share: in index order here (each gate's `after` pieces come before the pieces
        // behind it, so it is decided by the time they come up).
        loop {
            match pieces.claim() {
                Next::Piece(k) => make(k),
                // Only when a gate waits on a piece behind a gate itself: a caller's slip, whose
                // pieces are then dropped rather than waited for forever.
                Next::Wait(_) => {
                    debug_assert!(false, "a gate waits on a piece no one can claim");
                    break;
                }
                Next::Done => break,
            }
        }
        return pieces.into_results();
    };
    // As many as could ever grade at once: a helper whose program sleeps lends its slot like any
    // worker, so a submission whose games sleep has as many under way as the lent slots allow.
    let helpers = (cores.most() - 1).min(n - 1);
    let quit = AtomicBool::new(false);
    let work = || loop {
        match pieces.claim() {
            Next::Piece(k) => {
                make(k);
                pace::yield_slot();
            }
            Next::Wait(seen) => pace::without_slot(|| pieces.wait_change(seen)),
            Next::Done => break,
        }
    };
    std::thread::scope(|scope| {
        let spawned: Vec<_> = (0..helpers)
            .map(|_| {
                scope.spawn(|| {
                    let Some(_slot) = Pacer::enter_unless(&cores, &quit) else {
                        return;
                    };
                    work();
                })
            })
            .collect();
        work();
        quit.store(true, Ordering::SeqCst);
        cores.wake();
        // The pieces helpers still make, and the helpers themselves, are waited for with this worker's
        // slot given up: a helper may need one to finish, and every slot may be held by a worker
        // waiting like this one.
        pace::without_slot(|| {
            pieces.wait_all();
            for helper in spawned {
                // A helper's jobs never unwind past it; its own panic would be a bug here.
                let _ = helper.join();
            }
        });
    });
    pieces.into_results()
}

/// What a thread looking for work finds.
enum Next {
    Piece(usize),
    /// Nothing to claim until a gate is decided: wait for the board to change from this count.
    Wait(u64),
    Done,
}

/// Where a gate stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stand {
    Shut,
    Open,
    Dropped,
}

/// The pieces: which are claimed, which gate holds each, and each one's outcome once made.
struct Pieces<T> {
    board: Mutex<Board<T>>,
    changed: Condvar,
}

struct Board<T> {
    made: Vec<Option<Outcome<T>>>,
    claimed: Vec<bool>,
    /// The gate each piece waits behind, if any.
    held: Vec<Option<usize>>,
    stands: Vec<Stand>,
    /// Counts every change a waiting thread may be waiting for.
    changes: u64,
}

impl<T> Board<T> {
    fn settled(&self, k: usize) -> bool {
        self.made[k].is_some() || self.held[k].is_some_and(|g| self.stands[g] == Stand::Dropped)
    }
}

impl<T> Pieces<T> {
    fn new(n: usize, gates: &[Gate]) -> Pieces<T> {
        let mut held = vec![None; n];
        for (g, gate) in gates.iter().enumerate() {
            for &k in &gate.behind {
                if let Some(h) = held.get_mut(k) {
                    *h = Some(g);
                }
            }
        }
        Pieces {
            board: Mutex::new(Board {
                made: (0..n).map(|_| None).collect(),
                claimed: vec![false; n],
                held,
                stands: vec![Stand::Shut; gates.len()],
                changes: 0,
            }),
            changed: Condvar::new(),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Board<T>> {
        self.board.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The lowest piece no one has claimed and no shut gate holds, now claimed.
    fn claim(&self) -> Next {
        let mut board = self.lock();
        let mut waiting = false;
        for k in 0..board.claimed.len() {
            if board.claimed[k] || board.settled(k) {
                continue;
            }
            match board.held[k].map(|g| board.stands[g]) {
                Some(Stand::Shut) => waiting = true,
                _ => {
                    board.claimed[k] = true;
                    return Next::Piece(k);
                }
            }
        }
        if waiting {
            Next::Wait(board.changes)
        } else {
            Next::Done
        }
    }

    /// Gate `g` opens, unless decided already.
    fn open(&self, g: usize) {
        let mut board = self.lock();
        if board.stands.get(g) == Some(&Stand::Shut) {
            board.stands[g] = Stand::Open;
            board.changes += 1;
            self.changed.notify_all();
        }
    }

    /// Piece `k` is made; a gate it was the last to wait on is decided.
    fn put(
        &self,
        k: usize,
        outcome: Outcome<T>,
        gates: &[Gate],
        decide: &(dyn Fn(usize, &[&T]) -> bool + Sync),
    ) {
        let mut board = self.lock();
        board.made[k] = Some(outcome);
        for (g, gate) in gates.iter().enumerate() {
            if board.stands[g] != Stand::Shut
                || !gate.after.contains(&k)
                || !gate.after.iter().all(|&a| board.made[a].is_some())
            {
                continue;
            }
            let outcomes: Option<Vec<&T>> = gate
                .after
                .iter()
                .map(|&a| board.made[a].as_ref().and_then(|m| m.as_ref().ok()))
                .collect();
            let opens = outcomes.is_some_and(|o| decide(g, &o));
            board.stands[g] = if opens { Stand::Open } else { Stand::Dropped };
        }
        board.changes += 1;
        drop(board);
        self.changed.notify_all();
    }

    /// Waits until the board changes from count `seen`.
    fn wait_change(&self, seen: u64) {
        let mut board = self.lock();
        while board.changes == seen {
            board = self.changed.wait(board).unwrap_or_else(|e| e.into_inner());
        }
    }

    /// Waits until every piece is made or dropped (each was claimed or dropped before this is called).
    fn wait_all(&self) {
        let mut board = self.lock();
        while !(0..board.made.len()).all(|k| board.settled(k)) {
            board = self.changed.wait(board).unwrap_or_else(|e| e.into_inner());
        }
    }

    /// The results in order (`None` for a dropped piece); the first panic among them raised again.
    fn into_results(self) -> Vec<Option<T>> {
        let board = self.board.into_inner().unwrap_or_else(|e| e.into_inner());
        board
            .made
            .into_iter()
            .map(|m| match m {
                Some(Ok(out)) => Some(out),
                Some(Err(panic)) => std::panic::resume_unwind(panic),
                None => None,
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sandbox::pace::Cores;
    use std::sync::atomic::AtomicUsize;
    use std::time::Duration;

    /// Without a pacer (a single student's check, a test), the pieces are made here, in order.
    #[test]
    fn without_slots_the_pieces_are_made_in_order_on_this_thread() {
        let here = std::thread::current().id();
        let order = Mutex::new(Vec::new());
        let got = spread(4, &|k| {
            assert_eq!(std::thread::current().id(), here);
            order.lock().unwrap().push(k);
            k * 10
        });
        assert_eq!(got, [0, 10, 20, 30]);
        assert_eq!(*order.lock().unwrap(), [0, 1, 2, 3]);
    }

    /// With a free slot a helper takes pieces while the worker makes its own; the results are in
    /// index order whoever made them, and every slot is free again afterwards.
    #[test]
    fn a_free_slot_makes_pieces_alongside_and_results_keep_their_order() {
        let cores = Cores::new(2, 0);
        let _slot = Pacer::enter(&cores);
        let threads = Mutex::new(std::collections::HashSet::new());
        let got = spread(6, &|k| {
            threads.lock().unwrap().insert(std::thread::current().id());
            // Long enough for the helper to be admitted and claim pieces of its own.
            std::thread::sleep(Duration::from_millis(30));
            format!("piece {k}")
        });
        assert_eq!(
            got,
            (0..6).map(|k| format!("piece {k}")).collect::<Vec<_>>()
        );
        assert_eq!(threads.lock().unwrap().len(), 2, "a helper made some");
        drop(_slot);
        assert_eq!(cores.free(), 2);
    }

    /// With every other slot held elsewhere, the worker makes every piece itself and its waiting
    /// helper gives up once it is done: nothing hangs.
    #[test]
    fn with_no_slot_free_the_worker_makes_them_all() {
        let cores = Cores::new(2, 0);
        let _other = Pacer::enter(&cores);
        let worker_cores = std::sync::Arc::clone(&cores);
        let got = std::thread::spawn(move || {
            let _slot = Pacer::enter(&worker_cores);
            let here = std::thread::current().id();
            spread(3, &|k| {
                assert_eq!(std::thread::current().id(), here);
                k
            })
        })
        .join()
        .unwrap();
        assert_eq!(got, [0, 1, 2]);
    }

    /// A panic in a helper's piece is the worker's, raised after the other pieces, not a hang.
    #[test]
    fn a_panicking_piece_panics_the_worker_once_the_rest_are_made() {
        let cores = Cores::new(2, 0);
        let made = AtomicUsize::new(0);
        let caught = std::panic::catch_unwind(AssertUnwindSafe(|| {
            let _slot = Pacer::enter(&cores);
            spread(4, &|k| {
                std::thread::sleep(Duration::from_millis(20));
                made.fetch_add(1, Ordering::SeqCst);
                assert!(k != 1, "piece 1 fails");
                k
            })
        }));
        assert!(caught.is_err());
        assert_eq!(made.load(Ordering::SeqCst), 4, "every piece ran");
        assert_eq!(cores.free(), 2, "every slot came back");
    }

    /// Waits until `flag` is set, for at most 10 s: whether it was.
    fn wait_for(flag: &AtomicBool) -> bool {
        let deadline = std::time::Instant::now() + Duration::from_secs(10);
        while !flag.load(Ordering::SeqCst) && std::time::Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(5));
        }
        flag.load(Ordering::SeqCst)
    }

    /// A piece under way that opens its gate lets the pieces behind it start while it is still
    /// being made (it waits for one of them to start, for at most 10 s), whatever `decide` would
    /// have said once it ended.
    #[test]
    fn a_gate_opened_by_a_piece_under_way_lets_the_pieces_behind_it_start_meanwhile() {
        let cores = Cores::new(3, 0);
        let _slot = Pacer::enter(&cores);
        let behind_started = AtomicBool::new(false);
        let saw = AtomicBool::new(false);
        let gates = [Gate {
            after: vec![0],
            behind: vec![1, 2],
        }];
        let got = spread_gated(
            3,
            &gates,
            &|k, open| {
                if k == 0 {
                    open(0);
                    saw.store(wait_for(&behind_started), Ordering::SeqCst);
                } else {
                    behind_started.store(true, Ordering::SeqCst);
                }
                k
            },
            &|_, _| false,
        );
        assert!(
            saw.load(Ordering::SeqCst),
            "no piece behind the gate started"
        );
        assert_eq!(got, [Some(0), Some(1), Some(2)]);
        drop(_slot);
        assert_eq!(cores.free(), 3);
    }

    /// A gate no piece opens is decided once the pieces it waits on are made: shut, its pieces are
    /// never made and come back `None`; open, they are made. The same with slots and without.
    #[test]
    fn a_gate_decided_shut_drops_its_pieces_and_one_decided_open_plays_them() {
        let gates = [
            Gate {
                after: vec![0],
                behind: vec![2],
            },
            Gate {
                after: vec![1],
                behind: vec![3],
            },
        ];
        let run = || {
            let made = Mutex::new(Vec::new());
            let got = spread_gated(
                4,
                &gates,
                &|k, _| {
                    made.lock().unwrap().push(k);
                    k * 10
                },
                &|g, outcomes| {
                    assert_eq!(
                        outcomes,
                        [&(g * 10)],
                        "gate {g} sees the pieces it waits on"
                    );
                    g == 1
                },
            );
            let mut made = made.into_inner().unwrap();
            made.sort_unstable();
            (got, made)
        };
        let alone = run();
        let cores = Cores::new(2, 0);
        let _slot = Pacer::enter(&cores);
        let shared = run();
        for (got, made) in [alone, shared] {
            assert_eq!(got, [Some(0), Some(10), None, Some(30)]);
            assert_eq!(made, [0, 1, 3], "a dropped piece is never made");
        }
    }
}
