//! What the grader learned about a program in its earlier games, kept for its later ones (its games are
//! played one after another, so the same games are played at every run): how it wants moves typed, and
//! that its opening could not be followed at all (then later games end at once, for a person to look).

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
