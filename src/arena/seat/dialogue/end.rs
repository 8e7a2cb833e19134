//! What a program's end-of-game message says about who won (the WPI handout, item 6: "print a message
//! stating who won"): `X wins`, `The winner is: O`, `You win!`, `I win.`, `AI wins`, `PLAYER WINS`,
//! `Congratulations!`, `It's a tie`, `Cat's game`, `No one wins`. Pure text work.

use regex::Regex;
use std::sync::OnceLock;

/// Who a message says won.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Claim {
    /// The player with this mark (as printed: `X`, `o`).
    Mark(String),
    /// The user (the grader's side).
    User,
    /// The program itself.
    Program,
    Draw,
}

/// Words for the program's side, and for the user's.
const PROGRAM: &str = r"i|computer|ai|cpu|bot|program|comp|machine|the\s+computer|the\s+ai";
const USER: &str = r"you|player|human|user";

/// A phrase, and what a match of it claims.
type Pattern = (Regex, fn(&regex::Captures) -> Claim);

fn patterns() -> &'static [Pattern] {
    static CELL: OnceLock<Vec<Pattern>> = OnceLock::new();
    CELL.get_or_init(|| {
        let won = r"(wins|won|win|has\s+won|have\s+won|is\s+the\s+winner|victorious|takes\s+it)";
        let lost = r"(lose|loses|lost|have\s+lost|has\s+lost)";
        let mark = |c: &regex::Captures| Claim::Mark(c["m"].to_string());
        let make = |p: String| Regex::new(&format!("(?i){p}")).expect("a valid pattern");
        vec![
            (make(format!(r"(^|[^a-z0-9])(player\s+)?['\x22]?(?P<m>[xo])['\x22]?\s+{won}\b")), mark),
            (make(r"winner\W{0,6}(is\W{0,3})?(player\s+)?['\x22]?(?P<m>[xo])\b".to_string()), mark),
            (make(r"\b(draw|drawn|tie|tied|cat'?s\s+game|nobody\s+wins|no\s*one\s+wins|no\s+winner|stalemate)\b".to_string()), |_| Claim::Draw),
            (make(format!(r"\b({PROGRAM})\s+{won}\b")), |_| Claim::Program),
            (make(format!(r"\b({USER})\s+{lost}\b|better\s+luck")), |_| Claim::Program),
            (make(format!(r"\b({USER})\s+{won}\b|congratulations|\byou\s+beat\b")), |_| Claim::User),
            (make(format!(r"\b({PROGRAM})\s+{lost}\b")), |_| Claim::User),
        ]
    })
}

/// The first phrase in `text` that says who won, and what it says. `name` is the name the grader gave
/// the user, if a question asked for one (`grader wins`).
#[must_use]
pub fn claim(text: &str, name: Option<&str>) -> Option<(Claim, String)> {
    let mut best: Option<(usize, Claim, String)> = None;
    let mut consider = |at: usize, claim: Claim, phrase: &str| {
        if best.as_ref().is_none_or(|(b, _, _)| at < *b) {
            best = Some((at, claim, phrase.trim().to_string()));
        }
    };
    for (re, make) in patterns() {
        if let Some(c) = re.captures(text) {
            let m = c.get(0).expect("the whole match");
            consider(m.start(), make(&c), m.as_str());
        }
    }
    if let Some(name) = name.filter(|n| !n.is_empty()) {
        let re = Regex::new(&format!(
            r"(?i)\b{}\b\s+(wins|won|has\s+won)",
            regex::escape(name)
        ));
        if let Some(m) = re.ok().and_then(|r| r.find(text)) {
            consider(m.start(), Claim::User, m.as_str());
        }
    }
    best.map(|(_, c, p)| (c, p))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn says(text: &str) -> Option<Claim> {
        claim(text, Some("grader")).map(|(c, _)| c)
    }

    #[test]
    fn messages_are_read_for_who_won() {
        let mark = |m: &str| Some(Claim::Mark(m.into()));
        let cases: &[(&str, Option<Claim>)] = &[
            ("X wins!", mark("X")),
            ("Game over Player O wins :)", mark("O")),
            ("The winner is: X", mark("X")),
            ("o win!", mark("o")),
            ("It's a tie!", Some(Claim::Draw)),
            ("*** No one wins ***", Some(Claim::Draw)),
            ("GAME IS DRAW", Some(Claim::Draw)),
            ("Cat's game.", Some(Claim::Draw)),
            ("I win.", Some(Claim::Program)),
            ("🤖 AI wins! Better luck next time.", Some(Claim::Program)),
            ("COMP WIN!", Some(Claim::Program)),
            ("YOU LOSE!", Some(Claim::Program)),
            ("PLAYER WINS", Some(Claim::User)),
            ("🎉 You win!", Some(Claim::User)),
            (
                "****** Congratulations!!! You Won!!! ******",
                Some(Claim::User),
            ),
            ("grader WINS!!! AI LOSES!!!", Some(Claim::User)),
            ("The computer lost.", Some(Claim::User)),
            ("Your move: ", None),
            ("Welcome to tic-tac-toe. X moves first.", None),
        ];
        for (text, want) in cases {
            assert_eq!(&says(text), want, "{text}");
        }
    }
}
