//! Independent pieces of one submission's work (the games of a play case) spread over the slots that
//! come free: the worker makes them in order, and helpers that find a free slot (`sandbox::pace`) take
//! the next ones meanwhile, so a submission whose games sleep or run to their limits one after another
//! does not end its class alone on one core.
//!
//! Why the results do not change: each piece depends on nothing but its index (a game's seed is fixed by
//! the suite, the opponent and the game's number, never by when or where it is played), and the results
//! come back in index order. Only who makes a piece and when moves.

use std::panic::AssertUnwindSafe;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex};
use std::thread::Result as Outcome;

use crate::sandbox::pace::{self, Pacer};

/// `job(0)`, ..., `job(n - 1)`, in that order: made by this thread and, when it grades with a pacer,
/// by helpers on the slots that come free (each holds one while it makes a piece). A panic in any job is this thread's, raised
/// once every piece under way has ended.
pub fn spread<T: Send>(n: usize, job: &(dyn Fn(usize) -> T + Sync)) -> Vec<T> {
    let cores = pace::cores().filter(|_| n > 1);
    let Some(cores) = cores else {
        return (0..n).map(job).collect();
    };
    // As many as could ever grade at once: a helper whose program sleeps lends its slot like any
    // worker, so a submission whose games sleep has as many under way as the lent slots allow.
    let helpers = cores.most().saturating_sub(1).min(n - 1);
    if helpers == 0 {
        return (0..n).map(job).collect();
    }
    let pieces = Pieces::new(n);
    let quit = AtomicBool::new(false);
    std::thread::scope(|scope| {
        let spawned: Vec<_> = (0..helpers)
            .map(|_| {
                scope.spawn(|| {
                    let Some(_slot) = Pacer::enter_unless(&cores, &quit) else {
                        return;
                    };
                    while let Some(k) = pieces.claim() {
                        pieces.put(k, std::panic::catch_unwind(AssertUnwindSafe(|| job(k))));
                        pace::yield_slot();
                    }
                })
            })
            .collect();
        while let Some(k) = pieces.claim() {
            pieces.put(k, std::panic::catch_unwind(AssertUnwindSafe(|| job(k))));
        }
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

/// The pieces: the next to claim, and each one's outcome once made.
struct Pieces<T> {
    next: AtomicUsize,
    n: usize,
    made: Mutex<Vec<Option<Outcome<T>>>>,
    changed: Condvar,
}

impl<T> Pieces<T> {
    fn new(n: usize) -> Pieces<T> {
        Pieces {
            next: AtomicUsize::new(0),
            n,
            made: Mutex::new((0..n).map(|_| None).collect()),
            changed: Condvar::new(),
        }
    }

    /// The lowest piece no one has claimed, now claimed.
    fn claim(&self) -> Option<usize> {
        let k = self.next.fetch_add(1, Ordering::SeqCst);
        (k < self.n).then_some(k)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<Option<Outcome<T>>>> {
        self.made.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn put(&self, k: usize, outcome: Outcome<T>) {
        self.lock()[k] = Some(outcome);
        self.changed.notify_all();
    }

    /// Waits until every piece is made (each was claimed before this is called).
    fn wait_all(&self) {
        let mut made = self.lock();
        while made.iter().any(Option::is_none) {
            made = self.changed.wait(made).unwrap_or_else(|e| e.into_inner());
        }
    }

    /// The results in order; the first panic among them raised again.
    fn into_results(self) -> Vec<T> {
        let made = self.made.into_inner().unwrap_or_else(|e| e.into_inner());
        made.into_iter()
            .map(|m| match m.expect("every piece was made") {
                Ok(out) => out,
                Err(panic) => std::panic::resume_unwind(panic),
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sandbox::pace::Cores;
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
}
