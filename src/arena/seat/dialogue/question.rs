//! What a program asks when it waits for input, read from what it printed since the grader last typed
//! (`Your move:`, `X or O?`, `First to start?[y/n]`, `1. PLAYER VS COMPUTER`, `Enter name:`), and
//! what a person playing the side the grader wants would answer: by what the question asks, never by a
//! list of known programs. Pure text work.

use regex::Regex;
use std::sync::OnceLock;

/// One thing a program waits for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ask {
    /// Which mark the user wants (`X or O?`, `Choose your piece [X/O]`, `Enter 1 for X`).
    Mark,
    /// Whether the user moves first, or (`about_program`) whether the program does.
    First { about_program: bool },
    /// Against the computer or another person (`1. PLAYER VS COMPUTER`, `Single Player: y/n?`).
    Mode,
    /// How hard the computer plays.
    Level,
    /// A name.
    Name,
    /// The board's size (`type ENTER for the default = 3`).
    Size,
    /// Enter to go on.
    Enter,
    /// Another game (`Play again? (y/n)`).
    Again,
    /// The user's move, or one coordinate of it (`Position row:`).
    Move(Part),
    /// Nothing recognised.
    Unknown,
}

/// What a prompt for a move asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    Whole,
    /// The row alone (`Enter row:`).
    Row,
    /// The column alone (`Enter column:`, `x coordinate:`).
    Col,
}

/// A question read: what it asks, and the answers it offers as shown (`y`/`n`, `1. ...`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Question {
    pub ask: Ask,
    /// Numbered options (`1. PLAYER VS COMPUTER`, `1) human first`, `1 for X`): what to type and
    /// the option's words, lower case.
    pub options: Vec<(String, String)>,
    /// The yes and no answers as the question writes them (`y`/`n`, `Y`/`N`, `yes`/`no`).
    pub yes_no: Option<(String, String)>,
    /// The marks as the question writes them (`X`, `O` or `x`, `o`).
    pub marks: (String, String),
    /// The question's last lines, lower case.
    pub tail: String,
}

fn re(pattern: &'static str, cell: &'static OnceLock<Regex>) -> &'static Regex {
    cell.get_or_init(|| Regex::new(pattern).expect("a valid pattern"))
}

macro_rules! pattern {
    ($name:ident, $re:expr) => {
        fn $name() -> &'static Regex {
            static CELL: OnceLock<Regex> = OnceLock::new();
            re($re, &CELL)
        }
    };
}

pattern!(
    again_re,
    r"(?i)\bagain\b|\banother\s+(game|round|match)\b|\bplay\s+more\b|\bcontinue\s+playing\b|\bnew\s+game\s*\?"
);
pattern!(
    mark_re,
    r"(?i)\b[xo]\b\W{0,3}\s*(or|/|\\|,)\s*\W{0,3}\b[xo]\b|\b(piece|symbol|mark|letter|character|sign|token)\b|\b\d\s*(for|=|:|-|\)|to\s+(play|be|use|choose))\s*['\x22]?[xo]\b"
);
pattern!(
    first_re,
    r"(?i)\b(go|goes|play|plays|move|moves|start|starts|begin|begins)\s+first\b|\bfirst\s+(to\s+)?(move|turn|player|start|go)\b|\bfirst\s*\?|\bwho\s+(goes|moves|plays|starts|begins|will)\b|\bplayer\s*1\s+or\s+(player\s*)?2\b|\b(start|begin)\s+the\s+game\b|\bfirst\b.*\b(y\s*/\s*n|yes\s*/\s*no)\b"
);
pattern!(
    about_program_re,
    r"(?i)\b(computer|ai|cpu|program|bot|comp|machine)\b\W+(\w+\W+){0,3}first\b|\b(i|me)\b(\s+\w+){0,3}\s+(go|goes|play|plays|move|moves|start|starts|begin)\s+first|\bfirst\s+(move|turn|go)\s+(for|to|by)\s+(the\s+)?(computer|ai|cpu|program|bot|me)\b|\bshould\s+i\s+(go|play|move|start)\b"
);
pattern!(
    mode_re,
    r"(?i)\b(vs\.?|versus|against)\s+(the\s+)?(computer|ai|cpu|bot|machine|player|human)\b|\bsingle\s*player\b|\bone\s+player\b|\b1\s*player\b|\btwo\s+players?\b|\bmulti\s*player\b|\bgame\s+mode\b|\bmode\b|\bpv[pce]\b"
);
pattern!(
    level_re,
    r"(?i)\bdifficulty\b|\blevel\b|\b(easy|medium|hard|impossible|expert|unbeatable)\b"
);
pattern!(name_re, r"(?i)\bname\b");
pattern!(size_re, r"(?i)\bsize\b|\bdimension|\bhow\s+(many|big)\b");
pattern!(
    enter_re,
    r"(?i)\b(press|hit|type)\s+(the\s+)?(enter|return|any\s+key)\b|<\s*press\s+enter"
);
pattern!(
    move_re,
    r"(?i)\b(move|turn|row|column|col|position|pos|cell|square|where|coord|coordinates|spot|place|box|number|choice|choose|enter|input|play|numpad|keypad)\b|\b[xy]\s*[:=]|\b[xy]\s+coord|[(\[]\s*[0-3]\s*(-|\.\.|to|–)\s*[2-9]\s*[)\]]"
);
pattern!(row_re, r"(?i)\brow\b|\by\s*(coord|[:=])|\by\s*\(");
pattern!(col_re, r"(?i)\bcol(umn)?\b|\bx\s*(coord|[:=])|\bx\s*\(");
pattern!(
    option_re,
    r"(?im)^\W{0,3}(\d)\s*[.):\]-]\s*([^\n]{1,60})|\b(?:press|enter|type)\s+(\d)\s+(?:for|to)\s+([^\n,;.]{1,40})|\b(\d)\s+(?:for|=)\s+([^\n,;.]{1,40})"
);
pattern!(
    mark_option_re,
    r"(?i)\b\d\s*(for|=|:|-|\)|to\s+(play|be|use|choose))\s*['\x22]?x\b"
);
pattern!(small_mark_re, r"(^|[^A-Za-z])[xo]([^A-Za-z]|$)");
pattern!(capital_mark_re, r"(^|[^A-Za-z])[XO]([^A-Za-z]|$)");
pattern!(yes_no_re, r"(?i)\(?\b(y|yes)\b\s*(/|\\|or|,)\s*\b(n|no)\b");

/// The question at the end of `text` (what the program printed since the grader last typed).
/// `in_game` is true once the game has begun, when a program waiting is most likely asking for a move.
#[must_use]
pub fn read(text: &str, in_game: bool) -> Question {
    // A board's lines ask nothing (`3 ['x', 'o', 'x']` is no `x or o` question).
    let lines: Vec<&str> = text
        .split(['\n', super::screen::CLEAR])
        .filter(|l| !super::board::board_line(l))
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    // The question is in the last lines (a menu spans a few), the prompt itself in the last one.
    let tail = lines[lines.len().saturating_sub(4)..].join("\n");
    let prompt = lines.last().copied().unwrap_or_default();
    let ends_with_board = board_tail(text);
    let ask = if again_re().is_match(&tail) && !mark_re().is_match(prompt) {
        Ask::Again
    } else if mark_re().is_match(&tail) && mentions_both_marks(&tail) {
        Ask::Mark
    } else if mode_re().is_match(prompt) && !first_re().is_match(prompt) {
        // The prompt itself asks the mode (`Single Player:y\n?`), whatever the lines before say
        // about who goes first.
        Ask::Mode
    } else if first_asked(&tail) {
        Ask::First {
            about_program: about_program_re().is_match(&tail),
        }
    } else if mode_re().is_match(&tail) {
        Ask::Mode
    } else if level_re().is_match(prompt) {
        Ask::Level
    } else if name_re().is_match(prompt) {
        Ask::Name
    } else if size_re().is_match(prompt) {
        Ask::Size
    } else if enter_re().is_match(prompt) {
        Ask::Enter
    } else if move_re().is_match(prompt) || in_game || ends_with_board {
        Ask::Move(part(prompt))
    } else {
        Ask::Unknown
    };
    Question {
        ask,
        options: options(&tail),
        yes_no: yes_no(&tail),
        marks: marks(&tail),
        tail: tail.to_lowercase(),
    }
}

/// Whether the lines ask who moves first, rather than say it (`Player will go first.` before a board
/// and a prompt for the move): a sentence naming who is first that asks (`?`), offers yes and no, or
/// ends the line with `:`; or numbered options to choose from.
fn first_asked(tail: &str) -> bool {
    if !first_re().is_match(tail) {
        return false;
    }
    if !options(tail).is_empty() {
        return true;
    }
    tail.lines().any(|line| {
        let sentences: Vec<&str> = line.trim_end().split_inclusive(['.', '!']).collect();
        sentences.iter().enumerate().any(|(i, sentence)| {
            first_re().is_match(sentence)
                && (sentence.contains('?')
                    || yes_no_re().is_match(sentence)
                    || (i + 1 == sentences.len() && sentence.trim_end().ends_with(':')))
        })
    })
}

/// Whether the text ends with a board: its last line is part of one (without it, a board is lost).
fn board_tail(text: &str) -> bool {
    let screen = super::screen::last_screen(text).trim_end();
    let lines: Vec<&str> = screen.split('\n').collect();
    let from = lines.len().saturating_sub(16);
    let with = super::board::grids(&lines[from..].join("\n")).len();
    let without = super::board::grids(&lines[from..lines.len() - 1].join("\n")).len();
    with > without
}

/// Whether both marks appear as answers (`X or O`, `[X/O]`, `1 for X`, or a piece question).
fn mentions_both_marks(tail: &str) -> bool {
    mentions(tail, &["x"]) && mentions(tail, &["o"]) || mark_option_re().is_match(tail)
}

fn part(prompt: &str) -> Part {
    match (row_re().is_match(prompt), col_re().is_match(prompt)) {
        (true, false) => Part::Row,
        (false, true) => Part::Col,
        _ => Part::Whole,
    }
}

/// Numbered options, in order, each what to type and its words.
fn options(tail: &str) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    for caps in option_re().captures_iter(tail) {
        let (key, words) = [(1, 2), (3, 4), (5, 6)]
            .into_iter()
            .find_map(|(k, w)| Some((caps.get(k)?.as_str(), caps.get(w)?.as_str())))
            .unwrap_or_default();
        if !key.is_empty() && !out.iter().any(|(k, _)| k == key) {
            out.push((key.to_string(), words.trim().to_lowercase()));
        }
    }
    out
}

/// The yes and no answers as written (`y`/`n`, `Y`/`N`, `yes`/`no`).
fn yes_no(tail: &str) -> Option<(String, String)> {
    let caps = yes_no_re().captures_iter(tail).last()?;
    Some((caps[1].to_string(), caps[3].to_string()))
}

/// The marks as the question writes them: small letters when it writes them so.
fn marks(tail: &str) -> (String, String) {
    let small = small_mark_re().is_match(tail) && !capital_mark_re().is_match(tail);
    if small {
        ("x".into(), "o".into())
    } else {
        ("X".into(), "O".into())
    }
}

/// Words of an option that means playing against the computer, or the computer's side.
const COMPUTER: &[&str] = &[
    "computer",
    "ai",
    "cpu",
    "bot",
    "machine",
    "single",
    "one player",
    "1 player",
    "pvc",
    "program",
    "comp",
];
/// Words of an option that means the user (the grader's side).
const USER: &[&str] = &["you", "human", "player", "user", "me", "myself"];
/// Words of the hardest level.
const HARD: &[&str] = &[
    "impossible",
    "unbeatable",
    "expert",
    "hard",
    "difficult",
    "minimax",
];

/// Whether `words` holds one of `list` as whole words.
fn mentions(words: &str, list: &[&str]) -> bool {
    let words = words.to_lowercase();
    list.iter().any(|w| {
        words.match_indices(w).any(|(at, _)| {
            let before = words[..at].chars().next_back();
            let after = words[at + w.len()..].chars().next();
            !before.is_some_and(char::is_alphanumeric) && !after.is_some_and(char::is_alphanumeric)
        })
    })
}

/// What the grader wants the answers to achieve.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Want {
    /// The user (the grader's side) moves first.
    pub user_first: bool,
}

impl Question {
    /// The answers to try, best first.
    #[must_use]
    pub fn answers(&self, want: Want) -> Vec<String> {
        match &self.ask {
            Ask::Mark => self.mark_answers(want),
            Ask::First { about_program } => {
                let yes = want.user_first != *about_program;
                let first = if want.user_first { USER } else { COMPUTER };
                let pick = self
                    .option(|w| mentions(w, first) && w.contains("first"))
                    .or_else(|| self.option(|w| mentions(w, first)));
                pick.into_iter().chain(self.yes_no_answers(yes)).collect()
            }
            Ask::Mode => {
                let mut out: Vec<String> = self
                    .option(|w| mentions(w, COMPUTER) && !w.ends_with("vs player"))
                    .into_iter()
                    .collect();
                // `Single player? (y/n)`: yes when it asks for the game against the computer.
                let single = mentions(&self.tail, COMPUTER);
                if out.is_empty() && self.yes_no.is_some() {
                    out.extend(self.yes_no_answers(single));
                }
                out.push("1".into());
                out
            }
            Ask::Level => {
                let mut out: Vec<String> = self.option(|w| mentions(w, HARD)).into_iter().collect();
                out.extend(self.options.last().map(|(k, _)| k.clone()));
                out.extend(["hard".to_string(), "3".to_string()]);
                out
            }
            Ask::Name => vec!["grader".into()],
            Ask::Size => vec![String::new(), "3".into()],
            Ask::Enter => vec![String::new()],
            Ask::Again => self.yes_no_answers(false),
            Ask::Move(_) => Vec::new(),
            Ask::Unknown => vec![String::new(), "y".into(), "1".into()],
        }
    }

    fn mark_answers(&self, want: Want) -> Vec<String> {
        let (x, o) = &self.marks;
        let mine = if want.user_first { x } else { o };
        let letter = mine.to_lowercase();
        let pick = self.option(|w| mentions(&w.replace(['\'', '"'], " "), &[letter.as_str()]));
        let other_case = if mine == &letter {
            letter.to_uppercase()
        } else {
            letter
        };
        pick.into_iter().chain([mine.clone(), other_case]).collect()
    }

    fn yes_no_answers(&self, yes: bool) -> Vec<String> {
        let shown = self
            .yes_no
            .as_ref()
            .map(|(y, n)| if yes { y.clone() } else { n.clone() });
        let usual: [&str; 3] = if yes {
            ["y", "Y", "yes"]
        } else {
            ["n", "N", "no"]
        };
        let mut out: Vec<String> = shown.into_iter().collect();
        for u in usual {
            if !out.iter().any(|o| o == u) {
                out.push(u.to_string());
            }
        }
        out
    }

    /// The key of the first option whose words satisfy `fits`.
    fn option(&self, fits: impl Fn(&str) -> bool) -> Option<String> {
        self.options
            .iter()
            .find(|(_, w)| fits(w))
            .map(|(k, _)| k.clone())
    }
}

#[cfg(test)]
mod tests;
