//! The error every game's `decode` returns when a position line is not a position of that game.

/// Why a position line could not be read back into a game state.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DecodeError {
    /// The line does not have the shape of the seed's data structure.
    #[error("malformed position: {what}, in `{line}`")]
    Syntax { what: String, line: String },
    /// A cell holds something that is not a piece or an empty mark.
    #[error("bad cell `{found}` at {place}; expected one of {expected}")]
    BadCell {
        found: String,
        place: String,
        expected: &'static str,
    },
    /// The pieces are all legal but the position cannot arise in a game.
    #[error("impossible position: {0}")]
    Impossible(String),
}

impl DecodeError {
    pub(crate) fn syntax(what: impl Into<String>, line: &str) -> DecodeError {
        DecodeError::Syntax {
            what: what.into(),
            line: line.to_owned(),
        }
    }
}
