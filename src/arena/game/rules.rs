//! Games without Rust: a suite's rules given as a program (`[arena] game = { rules = "connect4.py" }`)
//! that answers a small line protocol (PROTOCOLS.md, "Rules programs"; docs/rules-programs.md). The
//! program runs once per match (or per check) under the sandbox the runner uses, through the same
//! capped, timed pipes as a persistent player; every reply is validated. A rules program that fails is
//! the suite's (or the machine's) fault: the game ends for a person to look at (`Ending::Review`),
//! never as a player's loss.
//!
//! A position is the program's one-line state with what the program said of it (whose turn, or the
//! result, and the legal moves), fetched once when the position is made: the `Game` trait's methods
//! read that, and only `apply` asks the program again.

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, RwLock};
use std::time::Duration;

use reference::bots::{bot, Playable};
use reference::{Game, Notation, Outcome, Player};
use sha2::{Digest, Sha256};

use crate::arena::game::picture::{Picture, Shade, Spot};
use crate::arena::game::record::seconds;
use crate::arena::game::ArenaGame;
use crate::arena::seat::persistent::PersistentSeat;
use crate::arena::seat::{Pick, Reply};
use crate::sandbox::{pace, Limits, Sandbox, Spec, Stdin, Tier};

/// The protocol version this grader speaks (the handshake's `rules 1`).
pub const VERSION: u32 = 1;
/// Longest state, in bytes.
pub const STATE_CAP: usize = 4096;
/// Longest move, in bytes (moves are stored inline, so positions stay cheap to copy).
pub const MOVE_CAP: usize = 32;
/// Most legal moves in one position.
pub const MOVES_CAP: usize = 1024;
/// Largest rendered grid, in rows and in columns.
pub const GRID_CAP: usize = 64;
/// How long the program may take to start and answer the handshake.
pub const STARTUP: Duration = Duration::from_secs(10);
/// How long the program may take to answer any other request.
pub const ANSWER: Duration = Duration::from_secs(5);

/// The prefix of a rules-program game's name: `rules:connect4.py@1f0c9a2b7d3e`, the program's file
/// name and the start of its contents' SHA-256. The name is the same wherever the suite lies (seeds
/// derive from it, so results do not depend on the folder), and names other rules another game.
pub const PREFIX: &str = "rules:";

/// The sandbox rules programs run under: the one the grading command selected
/// ([`use_sandbox`]), else `basic` (a replay or check outside a grading command).
static SANDBOX: RwLock<Option<Arc<dyn Sandbox>>> = RwLock::new(None);

/// The rules programs a person named (a suite's `[arena]`, or `rules:PATH` on the command line), by
/// game name: only these run. A record read back names its game, and a record is untrusted: it must
/// not be able to name a program to run.
static NAMED: Mutex<BTreeMap<String, PathBuf>> = Mutex::new(BTreeMap::new());

/// Runs rules programs under `sandbox` from now on (the grading command's tier).
pub fn use_sandbox(sandbox: Arc<dyn Sandbox>) {
    if let Ok(mut s) = SANDBOX.write() {
        *s = Some(sandbox);
    }
}

fn program_of(name: &str) -> Option<PathBuf> {
    NAMED.lock().ok()?.get(name).cloned()
}

/// The game name for the rules program at `path` (`rules:connect4.py@1f0c9a2b7d3e`), which may run
/// from now on: a person named it.
///
/// # Errors
/// The file cannot be read, or is not a file.
pub fn name_for(path: &Path) -> Result<String, String> {
    let abs = path
        .canonicalize()
        .map_err(|e| format!("rules program `{}`: {e}", path.display()))?;
    if !abs.is_file() {
        return Err(format!("rules program `{}` is not a file", path.display()));
    }
    let bytes =
        std::fs::read(&abs).map_err(|e| format!("rules program `{}`: {e}", path.display()))?;
    let digest = Sha256::digest(&bytes);
    let hash: String = digest[..6].iter().map(|b| format!("{b:02x}")).collect();
    let file = abs.file_name().unwrap_or_default().to_string_lossy();
    let name = format!("{PREFIX}{file}@{hash}");
    if let Ok(mut named) = NAMED.lock() {
        named.insert(name.clone(), abs);
    }
    Ok(name)
}

/// A game's name for people: a rules program's file name without its hash, else the name itself.
#[must_use]
pub fn shown(name: &str) -> &str {
    name.strip_prefix(PREFIX)
        .and_then(|n| n.rsplit_once('@'))
        .map_or(name, |(file, _)| file)
}

/// A move as the rules program wrote it, stored inline (at most [`MOVE_CAP`] bytes).
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Move {
    len: u8,
    bytes: [u8; MOVE_CAP],
}

impl Move {
    fn new(text: &str) -> Option<Move> {
        let b = text.as_bytes();
        if b.is_empty() || b.len() > MOVE_CAP {
            return None;
        }
        let mut bytes = [0; MOVE_CAP];
        bytes[..b.len()].copy_from_slice(b);
        Some(Move {
            len: b.len() as u8,
            bytes,
        })
    }

    #[must_use]
    pub fn as_str(&self) -> &str {
        // Built only from a `&str` cut at its own length.
        std::str::from_utf8(&self.bytes[..usize::from(self.len)]).unwrap_or("")
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}", self.as_str())
    }
}

/// Where a position stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Status {
    ToMove(Player),
    Over(Outcome),
}

/// A position as the program described it.
#[derive(Debug)]
struct Position {
    state: String,
    status: Status,
    moves: Vec<Move>,
}

/// One rules program, shared by every position of the games it serves; stopped when the last goes.
pub struct Rules {
    name: String,
    title: String,
    seat: Mutex<PersistentSeat>,
    /// The first failure: after it, every position is over and says why.
    failed: Mutex<Option<String>>,
    /// The program's working folder, removed after the program is stopped.
    _work: crate::sandbox::scratch::Scratch,
}

impl Drop for Rules {
    fn drop(&mut self) {
        if let Ok(seat) = self.seat.get_mut() {
            seat.stop();
        }
    }
}

/// A position of a rules-program game.
#[derive(Clone)]
pub struct External {
    rules: Arc<Rules>,
    pos: Arc<Position>,
}

impl fmt::Debug for External {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "External({:?})", self.pos.state)
    }
}

/// The command that runs `path`: a Python file under `python3`, anything else as itself.
fn command(path: &Path) -> (std::ffi::OsString, Vec<std::ffi::OsString>) {
    match path.extension().and_then(|e| e.to_str()) {
        Some("py") => ("python3".into(), vec!["-B".into(), path.into()]),
        Some("js") => ("node".into(), vec![path.into()]),
        _ => (path.into(), Vec::new()),
    }
}

fn limits() -> Limits {
    let long = Duration::from_secs(6 * 3600);
    Limits {
        cpu: long,
        wall: long,
        memory: 1 << 30,
        output: 64 << 20,
        file_size: 1 << 20,
        processes: 16,
        open_files: 64,
        stack: 8 << 20,
        address_space: None,
        idle: None,
    }
}

/// What went wrong with a reply, in words about the program.
fn fault(reply: &Reply, limit: Duration) -> String {
    match reply {
        Reply::Line(text) => format!(
            "answered `{}`",
            crate::untrusted::one_line(text.trim(), 120)
        ),
        Reply::Timeout => format!("did not answer within {}", seconds(limit)),
        Reply::Waiting(_) => "waited for input instead of answering".into(),
        Reply::Idle(d) => format!("slept {} instead of answering", seconds(*d)),
        Reply::Crashed(how) => format!("ended ({how})"),
        Reply::ClosedPipe => "closed its output".into(),
        Reply::Flood(n) => format!("wrote {n} bytes without a newline"),
        Reply::Garbage => "wrote bytes that are not UTF-8 text".into(),
        Reply::Broken(why) | Reply::Fault(why) | Reply::Unfollowed(why) => why.clone(),
    }
}

impl Rules {
    /// Starts the program `name` names (`rules:PATH`) and shakes hands.
    ///
    /// # Errors
    /// The program is not one a person named, cannot start, or does not answer `rules 1 TITLE`.
    pub fn start(name: &str) -> Result<Arc<Rules>, String> {
        let Some(path) = program_of(name) else {
            return Err(format!(
                "the rules program of `{name}` was not named by a suite in this run\nhint: name the suite, whose `[arena]` names the rules program: `grader play SUITE --replay FILE`"
            ));
        };
        let path = path.as_path();
        let sandbox = SANDBOX.read().ok().and_then(|s| s.clone());
        let sandbox = match sandbox {
            Some(s) => s,
            None => Arc::from(crate::sandbox::select(Tier::Basic, &[]).map_err(|e| e.to_string())?),
        };
        let work = crate::arena::seat::scratch::work_dir()
            .map_err(|e| format!("cannot make a working folder: {e}"))?;
        let (program, args) = command(path);
        let spec = Spec {
            program,
            args,
            workdir: work.path().to_path_buf(),
            env: Vec::new(),
            stdin: Stdin::Piped,
            limits: limits(),
            read_only: path.parent().map(Path::to_path_buf).into_iter().collect(),
        };
        let mut seat = PersistentSeat::new(sandbox, spec, STARTUP);
        seat.launch()
            .map_err(|r| format!("the rules program could not start: {}", fault(&r, STARTUP)))?;
        let reply = seat.exchange(&format!("rules\t{VERSION}"), Some(pace::now() + STARTUP));
        let title = match &reply {
            Reply::Line(l) => match l.trim_end().split('\t').collect::<Vec<_>>()[..] {
                ["rules", v, title] if v == VERSION.to_string() && plain_title(title) => {
                    title.to_string()
                }
                _ => return Err(handshake(&seat, &reply)),
            },
            _ => return Err(handshake(&seat, &reply)),
        };
        Ok(Arc::new(Rules {
            name: name.to_string(),
            title,
            seat: Mutex::new(seat),
            failed: Mutex::new(None),
            _work: work,
        }))
    }

    /// Asks one line; the reply's fields, or why the program failed (remembered: the program is not
    /// asked again after a failure).
    fn ask(&self, line: &str) -> Result<String, String> {
        if let Some(why) = self.failed() {
            return Err(why);
        }
        let Ok(mut seat) = self.seat.lock() else {
            return Err("the rules program's lock was poisoned".into());
        };
        let reply = seat.exchange(line, Some(pace::now() + ANSWER));
        let text = match reply {
            Reply::Line(text) => match text.strip_prefix("error\t") {
                Some(why) => Err(format!(
                    "it answered an error: {}",
                    crate::untrusted::one_line(why, 200)
                )),
                None => Ok(text),
            },
            other => Err(fault(&other, ANSWER)),
        };
        text.map_err(|why| {
            let request = crate::untrusted::one_line(line, 120);
            let mut why = format!("asked `{request}`, the rules program {why}");
            if let Some(tail) = seat.kept_stderr() {
                why.push_str(&format!(
                    " (its stderr ends: {})",
                    crate::untrusted::one_line(&tail, 300)
                ));
            }
            seat.stop();
            self.fail(&why)
        })
    }

    fn failed(&self) -> Option<String> {
        self.failed.lock().ok().and_then(|f| f.clone())
    }

    /// Remembers the first failure and returns it.
    fn fail(&self, why: &str) -> String {
        match self.failed.lock() {
            Ok(mut f) => f.get_or_insert_with(|| why.to_string()).clone(),
            Err(_) => why.to_string(),
        }
    }

    /// A position reply (`STATE<TAB>STATUS[<TAB>MOVE]...`), checked; a failure becomes a finished
    /// position whose rules say why (`External::broken`).
    fn position(&self, line: &str, fallback: &str) -> Position {
        match self.ask(line).and_then(|reply| parse_position(&reply)) {
            Ok(p) => p,
            Err(why) => {
                self.fail(&why);
                Position {
                    state: fallback.to_string(),
                    status: Status::Over(Outcome::Draw),
                    moves: Vec::new(),
                }
            }
        }
    }
}

fn plain_title(t: &str) -> bool {
    !t.is_empty()
        && t.len() <= 40
        && t.chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
}

fn handshake(seat: &PersistentSeat, reply: &Reply) -> String {
    let mut why = format!(
        "the rules program {} to `rules\t{VERSION}`, not `rules<TAB>{VERSION}<TAB>NAME` (NAME: letters, digits, `-`, `_`)",
        fault(reply, STARTUP)
    )
    .replace('\t', "<TAB>");
    if let Some(tail) = seat.kept_stderr() {
        why.push_str(&format!(
            " (its stderr ends: {})",
            crate::untrusted::one_line(&tail, 300)
        ));
    }
    why
}

/// Reads `STATE<TAB>STATUS[<TAB>MOVE]...`: STATUS is `x` or `o` (that side moves; one move at least
/// follows), `x-won`, `o-won` or `draw` (nothing follows).
fn parse_position(reply: &str) -> Result<Position, String> {
    let bad = |why: String| {
        Err(format!(
            "the rules program answered `{}`: {why}",
            crate::untrusted::one_line(reply, 120)
        ))
    };
    let mut fields = reply.trim_end_matches(['\r', '\n']).split('\t');
    let state = fields.next().unwrap_or("");
    if state.is_empty() || state.len() > STATE_CAP {
        return bad(format!("a state must be 1 to {STATE_CAP} bytes"));
    }
    if state.chars().any(char::is_control) || state.trim() != state {
        return bad("a state must be printable, without spaces at its ends".into());
    }
    let status = match fields.next() {
        Some("x") => Status::ToMove(Player::First),
        Some("o") => Status::ToMove(Player::Second),
        Some("x-won") => Status::Over(Outcome::Win(Player::First)),
        Some("o-won") => Status::Over(Outcome::Win(Player::Second)),
        Some("draw") => Status::Over(Outcome::Draw),
        _ => return bad("the second field must be `x`, `o`, `x-won`, `o-won` or `draw`".into()),
    };
    let mut moves = Vec::new();
    for text in fields {
        if moves.len() == MOVES_CAP {
            return bad(format!("more than {MOVES_CAP} legal moves"));
        }
        let clean = !text.chars().any(char::is_control) && text.trim() == text;
        let Some(mv) = Move::new(text).filter(|_| clean) else {
            return bad(format!(
                "a move must be 1 to {MOVE_CAP} printable bytes, without spaces at its ends"
            ));
        };
        if moves.contains(&mv) {
            return bad(format!("the move `{text}` is listed twice"));
        }
        moves.push(mv);
    }
    match (status, moves.is_empty()) {
        (Status::ToMove(_), true) => bad("a side to move needs at least one legal move".into()),
        (Status::Over(_), false) => bad("a finished game has no legal moves".into()),
        _ => Ok(Position {
            state: state.to_string(),
            status,
            moves,
        }),
    }
}

impl External {
    /// The start of a game: starts the program and asks for its first position.
    ///
    /// # Errors
    /// As [`Rules::start`], or a first position the program does not give.
    pub fn new(name: &str) -> Result<External, String> {
        let rules = Rules::start(name)?;
        let pos = rules.position("start", "-");
        if let Some(why) = rules.failed() {
            return Err(why);
        }
        Ok(External {
            rules,
            pos: Arc::new(pos),
        })
    }

    /// The name the program gave itself (`connect4`).
    #[must_use]
    pub fn title(&self) -> &str {
        &self.rules.title
    }

    /// The rows of the program's `render`, or `None` when it fails (which fails the program).
    fn rows(&self) -> Option<Vec<String>> {
        let reply = self
            .rules
            .ask(&format!("render\t{}", self.pos.state))
            .ok()?;
        let rows: Vec<String> = reply.trim_end().split('|').map(str::to_string).collect();
        let ok = rows.len() <= GRID_CAP
            && rows
                .iter()
                .all(|r| r.chars().count() <= GRID_CAP && !r.chars().any(char::is_control));
        if !ok {
            self.rules.fail(&format!(
                "the rules program rendered a board over {GRID_CAP}×{GRID_CAP} cells or with control characters"
            ));
            return None;
        }
        Some(rows)
    }
}

impl Game for External {
    type Move = Move;

    fn to_move(&self) -> Player {
        match self.pos.status {
            Status::ToMove(p) => p,
            Status::Over(_) => Player::First,
        }
    }

    fn legal_moves(&self, out: &mut Vec<Move>) {
        out.extend_from_slice(&self.pos.moves);
    }

    fn apply(&mut self, mv: Move) {
        let line = format!("apply\t{}\t{}", self.pos.state, mv.as_str());
        self.pos = Arc::new(self.rules.position(&line, &self.pos.state));
    }

    fn outcome(&self) -> Option<Outcome> {
        match self.pos.status {
            Status::Over(o) => Some(o),
            Status::ToMove(_) => None,
        }
    }
}

impl Notation for External {
    fn encode(&self) -> String {
        self.pos.state.clone()
    }

    fn format_move(&self, mv: Move) -> String {
        mv.as_str().to_string()
    }

    fn parse_move(&self, text: &str) -> Result<Move, String> {
        let want = text.trim();
        if let Some(mv) = self.pos.moves.iter().find(|m| m.as_str() == want) {
            return Ok(*mv);
        }
        let mut legal: Vec<&str> = self.pos.moves.iter().map(Move::as_str).take(12).collect();
        if self.pos.moves.len() > 12 {
            legal.push("...");
        }
        Err(format!(
            "not a legal move here (legal: {})",
            legal.join(", ")
        ))
    }
}

impl ArenaGame for External {
    fn name(&self) -> String {
        self.rules.name.clone()
    }

    fn title(&self) -> String {
        self.rules.title.clone()
    }

    fn broken(&self) -> Option<String> {
        self.rules.failed()
    }

    fn games_apart(&self) -> bool {
        false
    }

    /// The program's `render`, a row a line.
    fn render(&self) -> String {
        self.rows()
            .map_or_else(|| self.encode(), |rows| rows.join("\n"))
    }

    /// The rendered rows as a grid of cells: `.`, `-`, `_` and spaces are empty cells.
    fn picture(&self) -> Picture {
        let rows = self.rows().unwrap_or_else(|| vec![self.encode()]);
        let width = rows.iter().map(|r| r.chars().count()).max().unwrap_or(1);
        let mut cells = Vec::new();
        for (r, row) in rows.iter().enumerate() {
            for (c, ch) in row.chars().enumerate() {
                let mark = if matches!(ch, '.' | '-' | '_') {
                    ' '
                } else {
                    ch
                };
                cells.push(Spot {
                    x: c as f32 + 0.5,
                    y: r as f32 + 0.5,
                    mark,
                    shade: Shade::Plain,
                });
            }
        }
        Picture {
            width: width.max(1),
            height: rows.len().max(1),
            cells,
            links: Vec::new(),
            block: 0,
            round: false,
        }
    }
}

impl Playable for External {
    const NAME: &'static str = "a rules-program game";
    const MAX_PLIES: usize = 500;

    /// The program gives no evaluation: searches see wins, losses and draws only.
    fn own_score(&self, _side: Player) -> i32 {
        0
    }
}

/// The bots a rules-program game offers: those that need only the rules.
///
/// # Errors
/// A spec that needs an evaluation or a solver, or is not a bot.
pub fn bots(spec: &str, seed: u64) -> Result<Pick<External>, String> {
    let kind = spec.split(':').next().unwrap_or(spec);
    if matches!(kind, "offensive" | "defensive" | "perfect") {
        return Err(format!(
            "bot `{spec}` needs a game the grader knows in Rust\nhint: a rules-program game has `random`, `minimax:D` (a search D plies deep that sees wins, losses and draws only) and `mcts:N`"
        ));
    }
    let mut b = bot::<External>(spec, seed).map_err(|e| e.to_string())?;
    Ok(Box::new(move |state: &External| b.choose(state)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_position_reply_is_read_and_checked() {
        let p = parse_position("......\tx\t0\t1\t2").unwrap();
        assert_eq!(p.status, Status::ToMove(Player::First));
        assert_eq!(p.moves.len(), 3);
        assert_eq!(p.moves[2].as_str(), "2");
        let p = parse_position("xxx...\tx-won").unwrap();
        assert_eq!(p.status, Status::Over(Outcome::Win(Player::First)));
        for bad in [
            "",
            "\tx\t0",
            "s\tz\t0",
            "s\tx",
            "s\tdraw\t0",
            "s\tx\t0\t0",
            "s\tx\t 0",
            "s\tx\t0123456789012345678901234567890123",
        ] {
            assert!(parse_position(bad).is_err(), "{bad:?}");
        }
        assert!(parse_position(&"s".repeat(STATE_CAP + 1)).is_err());
    }

    #[test]
    fn a_name_is_the_file_and_its_hash() {
        let dir = crate::sandbox::scratch::Scratch::new().unwrap();
        let file = dir.path().join("c4.py");
        std::fs::write(&file, "print()\n").unwrap();
        let name = name_for(&file).unwrap();
        assert!(
            name.starts_with("rules:c4.py@") && name.len() == "rules:c4.py@".len() + 12,
            "{name}"
        );
        assert_eq!(shown(&name), "c4.py");
        assert_eq!(shown("oska:5"), "oska:5");
        std::fs::write(&file, "print(1)\n").unwrap();
        assert_ne!(name_for(&file).unwrap(), name, "other rules, another game");
    }

    #[test]
    fn a_record_cannot_name_a_program_to_run() {
        let e = Rules::start("rules:true@000000000000").err().unwrap();
        assert!(e.contains("was not named by a suite"), "{e}");
    }
}
