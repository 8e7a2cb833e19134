//! The roster exports key on: the course's one roster (`course::roster`), re-exported where the exports
//! have always found it.

pub use crate::course::roster::*;
