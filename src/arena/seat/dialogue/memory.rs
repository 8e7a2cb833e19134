//! What the grader learned about a program in its earlier games, kept for its later ones (its games are
//! played one after another until nothing is left to learn, so the same games are played at every run):
//! how it wants moves typed, that its opening could not be followed at all (then later games end at
//! once, for a person to look), and for which sides its opening went through once that was known.
//!
//! Each part only ever goes from unknown to known, once. So once the way moves are typed is known and
//! an opening has gone through on each side since (or the opening is known to be unfollowable), a
//! program that answers alike to the same input is met the same way in every later game, whatever the
//! order they are played in: [`Memory::learned`], when the grader may play its games at once.

use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

use super::encoding::Encoding;

/// What is known of one program.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Memory {
    /// How it takes moves, once its board has shown it.
    pub encoding: Option<Encoding>,
    /// Why its opening could not be followed, when it could not (before any move).
    pub unfollowed: Option<String>,
    /// The sides (given first, given second) whose opening went through to the first move in a game
    /// that began with the encoding known.
    pub opened: [bool; 2],
}

impl Memory {
    /// Nothing left to learn: every later game starts from this same memory.
    #[must_use]
    pub fn learned(&self) -> bool {
        self.unfollowed.is_some() || (self.encoding.is_some() && self.opened == [true, true])
    }
}

fn store() -> &'static Mutex<HashMap<String, Memory>> {
    static STORE: OnceLock<Mutex<HashMap<String, Memory>>> = OnceLock::new();
    STORE.get_or_init(Mutex::default)
}

/// What is known of the program `key` (its command and folder).
#[must_use]
pub fn recall(key: &str) -> Memory {
    store()
        .lock()
        .ok()
        .and_then(|m| m.get(key).cloned())
        .unwrap_or_default()
}

/// Keeps what a game learned about the program `key`.
pub fn remember(key: &str, memory: &Memory) {
    if let Ok(mut m) = store().lock() {
        // Bounded: a long-lived process grading many classes forgets rather than grows.
        if m.len() > 4096 {
            m.clear();
        }
        m.insert(key.to_string(), memory.clone());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Learned once the encoding is known and both sides have opened since, or once the opening is
    /// known not to be followable; not before.
    #[test]
    fn learned_needs_the_encoding_and_both_openings_or_an_unfollowable_one() {
        let encoding = Some(Encoding::Cell {
            base: 1,
            keypad: false,
        });
        let mut m = Memory::default();
        assert!(!m.learned());
        m.opened = [true, true];
        assert!(!m.learned(), "openings before the encoding was known");
        m.encoding = encoding;
        m.opened = [true, false];
        assert!(!m.learned(), "one side's opening still to see");
        m.opened = [true, true];
        assert!(m.learned());
        let unfollowed = Memory {
            unfollowed: Some("no board".into()),
            ..Memory::default()
        };
        assert!(unfollowed.learned());
    }

    /// What one program's games taught is recalled for it, and for no other.
    #[test]
    fn memory_is_kept_per_program() {
        let key = "memory-test\0program-a";
        let m = Memory {
            opened: [true, false],
            ..Memory::default()
        };
        remember(key, &m);
        assert_eq!(recall(key), m);
        assert_eq!(recall("memory-test\0program-b"), Memory::default());
    }
}
