//! The `[arena]` table a suite carries (or a standalone arena TOML file): the game and its parameters,
//! the protocol and its templates, the clock, the illegal-move policy, the move cap, the scoring rule and
//! the tournament stages. Raw serde structs first, then `validate` into a checked `ArenaConfig`.

use std::path::Path;
use std::time::Duration;

use crate::toml_file::Spanned;
use regex::Regex;
use schemars::JsonSchema;
use serde::Deserialize;

use crate::arena::event::schedule::Stage;
use crate::arena::event::standings::Scoring;
use crate::arena::referee::{Clock, IllegalPolicy, Policy, DEFAULT_MARGIN};
use crate::arena::seat::dialogue::{Probe, Script, Step};
use crate::arena::seat::ReplyForm;
use crate::toml_file::{form, location, read_toml, snippet, TomlError};
use crate::units;

/// The games the arena can run, as written in configs and on the command line.
pub const GAMES: [&str; 5] = ["tictactoe", "tmmorris", "sttt", "ut3", "oska"];

const SCORING_HINT: &str =
    "use `standard`, `ut3`, or a table `{ win = 4, draw = 1, loss = 0, edge = [2, 1] }`";

/// A standalone arena file: just the `[arena]` table a suite.toml would carry.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawFile {
    pub arena: RawArena,
}

/// `[arena]`: the game a suite's play and position cases use, how the referee talks to a submission
/// (src/arena/PROTOCOLS.md), its clock, and the class tournament's format.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct RawArena {
    /// `tictactoe`, `tmmorris`, `sttt`, `ut3`, `oska` (with `n`), or `oska:5`; or `{ rules =
    /// "connect4.py" }`, a game whose rules are a program beside suite.toml (docs/rules-programs.md).
    pub game: Spanned<RawGame>,
    /// Oska's pieces a side (n ≥ 4).
    #[schemars(range(min = 4))]
    pub n: Option<Spanned<u32>>,
    /// `persistent` (default), `per-move` or `dialogue`.
    #[schemars(extend("enum" = ["persistent", "per-move", "dialogue"]))]
    pub protocol: Option<Spanned<String>>,
    /// The submission's command: program, then argument templates (per-move: `{state}`, `{side}`,
    /// `{last}`, `{limit-ms}`, `{seed}`).
    pub command: Option<Vec<String>>,
    /// Arguments appended to a built submission's run command (per-move templates, as in `command`),
    /// for suites whose language recipes say how to build and run.
    pub args: Option<Vec<String>>,
    /// Per-move limit, e.g. `"1s"`, `"6s"`; `"none"` for no limit.
    #[schemars(with = "Option<form::DurationOrNone>")]
    pub move_limit: Option<Spanned<String>>,
    /// What `move-limit` counts: `wall` (default), or `cpu`, the CPU time of the program's whole process
    /// tree (dialogue programs; other players keep the wall clock), so that a loaded machine does not
    /// make a program late.
    #[schemars(extend("enum" = ["wall", "cpu"]))]
    pub move_clock: Option<Spanned<String>>,
    /// With `move-clock = "cpu"`: the wall time a move may take whatever its CPU time, so a program
    /// asleep or blocked still ends (default six times `move-limit`).
    #[schemars(with = "Option<form::Duration>")]
    pub move_wall: Option<Spanned<String>>,
    /// Added to every limit for scheduler noise (default `"50ms"`).
    #[schemars(with = "Option<form::Duration>")]
    pub margin: Option<Spanned<String>>,
    /// Time to answer `ready` in the persistent protocol (default `"10s"`).
    #[schemars(with = "Option<form::Duration>")]
    pub startup: Option<Spanned<String>>,
    /// `lose` (default) or `forfeit` (only the spoiled placement; Super-TTT).
    #[schemars(extend("enum" = ["lose", "forfeit"]))]
    pub illegal: Option<Spanned<String>>,
    /// `move` (default) or `state` (the reply is the next position: Adelaide, Oska).
    #[schemars(extend("enum" = ["move", "state"]))]
    pub reply: Option<Spanned<String>>,
    /// Turns before a draw is adjudicated (default 500).
    #[schemars(range(min = 1))]
    pub move_cap: Option<Spanned<u32>>,
    /// Games a pairing plays with each colour (default 1).
    #[schemars(range(min = 1))]
    pub games: Option<Spanned<u32>>,
    /// `standard` (2/1/0), `ut3` (4; draws 2–1 by the tie-break), or a `[arena.scoring]` table.
    pub scoring: Option<Spanned<RawScoring>>,
    /// Staged format: `[[arena.stage]]` entries, each `groups` and `advance`; a final round robin of
    /// everyone left always follows.
    #[serde(default)]
    pub stage: Vec<RawStage>,
    /// After the stages: `round-robin` (default) or `knockout` (000's semi-finals and final).
    #[serde(rename = "final")]
    #[schemars(extend("enum" = ["round-robin", "knockout"]))]
    pub finale: Option<Spanned<String>>,
    /// The dialogue protocol's script: how the program is talked to (src/arena/PROTOCOLS.md).
    pub dialogue: Option<RawDialogue>,
    /// Marks by final rank for `grader tournament` on a suite (002: "40 marks ... based on the overall
    /// ranking").
    pub marks: Option<RawMarks>,
}

/// `game = "ut3"`, or `game = { rules = "connect4.py" }`.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum RawGame {
    /// A built-in game.
    #[schemars(with = "form::Game")]
    Named(String),
    /// A game whose rules are a program speaking the rules protocol.
    Rules(RawRules),
}

/// `{ rules = "connect4.py" }`.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawRules {
    /// The rules program, relative to the file that names it: a `.py` file runs under `python3`, a
    /// `.js` file under `node`, anything else as an executable.
    pub rules: String,
}

impl RawGame {
    /// The name as written: the built-in game's, or `rules = "…"`'s program.
    #[must_use]
    pub fn written(&self) -> &str {
        match self {
            RawGame::Named(n) => n.trim(),
            RawGame::Rules(r) => r.rules.trim(),
        }
    }
}

/// `[arena.marks]`: the class tournament's marks by rank.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct RawMarks {
    /// Marks for the 1st, 2nd, ... of the overall ranking.
    #[schemars(inner(range(min = 0, max = 10000)))]
    pub by_rank: Spanned<Vec<f64>>,
    /// Marks for everyone ranked below the list (default 0).
    #[schemars(range(min = 0, max = 10000))]
    pub rest: Option<Spanned<f64>>,
    /// Marks for an entrant that lost every game it played by its own fault (a failed build, a program
    /// that never answers); default: as its rank says.
    #[schemars(range(min = 0, max = 10000))]
    pub all_faults: Option<Spanned<f64>>,
    /// For `grader run`: the group a submission must pass in full to enter the class tournament; one
    /// that does not is left out and gets `all-faults` (which `gate` requires).
    pub gate: Option<Spanned<String>>,
    /// The marks are a bonus: counted in a student's total, not in its maximum.
    #[serde(default)]
    pub bonus: bool,
    /// Marks for an entrant that advanced from the first stage but is ranked below `by-rank` (000:23:
    /// "10 points for the top FOUR finishers in the local (section) round-robin"); default `rest`.
    #[schemars(range(min = 0, max = 10000))]
    pub qualified: Option<Spanned<f64>>,
}

/// `standard`, `ut3`, or a table of points.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum RawScoring {
    Preset(#[schemars(extend("enum" = ["standard", "ut3"]))] String),
    Table(RawPoints),
}

/// `{ win = 4, draw = 1, loss = 0, edge = [2, 1] }`: points per game result.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct RawPoints {
    /// Points for a win.
    pub win: u32,
    /// Points for a draw (each side).
    pub draw: u32,
    /// Points for a loss.
    #[serde(default)]
    pub loss: u32,
    /// `[favoured, other]` points for a draw the game's tie-break decides.
    pub edge: Option<[u32; 2]>,
}

/// `[[arena.stage]]`: a stage of pools before the final.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct RawStage {
    /// Pools in this stage.
    #[schemars(range(min = 1))]
    pub groups: Spanned<u32>,
    /// Entrants each pool sends on.
    #[schemars(range(min = 1))]
    pub advance: Spanned<u32>,
    /// One group per section of the class (the roster's `section`), played even when it eliminates no
    /// one: "a round-robin qualifier by section" (000:23). `groups` is used when no section is known.
    #[serde(default)]
    pub sections: bool,
}

/// `[arena.dialogue]`: the script a dialogue program is talked to by.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct RawDialogue {
    /// The questions before the game, in order: each `{ expect, send }` waits for a pattern and types
    /// an answer (`{OPPONENT-SIDE}` for "X or O?").
    #[serde(default)]
    pub opening: Vec<RawStep>,
    /// A regular expression matching the program's question for the opponent's move, at the end of
    /// what it printed (`(?i)your move[^\n]*:\s*\z`).
    pub prompt: Spanned<String>,
    /// What the grader types for its move: `{move}` in the game's notation, or `{row} {col}` from 1.
    #[serde(default = "default_send")]
    pub send: String,
    /// A regular expression matching the program's own move: its group `move`, or `row` and `col`
    /// (from 1).
    pub reply: Spanned<String>,
    /// The program's end-of-game message, checked after the last move; groups `x`, `o`, `me`, `you`
    /// or `draw` say which result it states, checked against the real one.
    pub end: Option<Spanned<String>>,
    /// How long the opening questions, a re-prompt and the end message may take (moves use the
    /// move clock).
    #[schemars(with = "Option<form::Duration>")]
    pub expect_timeout: Option<Spanned<String>>,
    /// `[[arena.dialogue.probe]]`: invalid inputs typed at chosen prompts.
    #[serde(default)]
    pub probe: Vec<RawProbe>,
}

/// `[[arena.dialogue.probe]]`: an invalid input typed at a chosen prompt.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct RawProbe {
    /// The program's prompt for a move, counted from 1 in each game.
    #[schemars(range(min = 1))]
    pub at: Spanned<u32>,
    /// Literal text, or `{taken}` for an occupied cell.
    pub send: Spanned<String>,
    /// Why it is invalid, for the student; defaults to `an occupied cell` for `{taken}`.
    pub about: Option<String>,
}

fn default_send() -> String {
    "{move}".into()
}

/// A step of the opening: wait for `expect`, then type `send`.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct RawStep {
    /// A regular expression the program's output must match before `send` is typed.
    pub expect: Spanned<String>,
    /// The answer typed: literal text, or `{first}`, `{opponent-first}`, `{side}`, `{opponent-side}`,
    /// `{SIDE}`, `{OPPONENT-SIDE}`.
    pub send: String,
}

/// How the referee talks to a submission.
#[derive(Clone, Debug)]
pub enum Protocol {
    Persistent { startup: Duration },
    PerMove,
    Dialogue(Script),
}

/// A checked arena config.
#[derive(Clone, Debug)]
pub struct ArenaConfig {
    /// The game as the CLI names it: `ut3`, `oska:5`.
    pub game: String,
    pub protocol: Protocol,
    pub command: Option<Vec<String>>,
    pub args: Option<Vec<String>>,
    pub policy: Policy,
    pub games: u32,
    pub scoring: Scoring,
    pub stages: Vec<Stage>,
    /// The staged format ends in a knockout instead of a round robin.
    pub knockout: bool,
    /// Marks by overall rank, for suite tournaments.
    pub marks: Option<Marks>,
}

/// Checked `[arena.marks]`.
#[derive(Clone, Debug, PartialEq)]
pub struct Marks {
    pub by_rank: Vec<f64>,
    pub rest: f64,
    pub all_faults: Option<f64>,
    /// The group that decides who enters the class tournament of `grader run` (the suite checks it
    /// names one of its groups).
    pub gate: Option<String>,
    pub bonus: bool,
    /// Marks for an entrant that advanced past the first stage and is ranked below `by_rank`.
    pub qualified: Option<f64>,
}

impl Marks {
    /// Marks for the entrant at 0-based `rank`; `all_faults` when it never played a game without a fault.
    #[must_use]
    pub fn for_rank(&self, rank: usize, all_faults: bool, advanced: bool) -> f64 {
        let below = match self.qualified {
            Some(q) if advanced => q,
            _ => self.rest,
        };
        match (all_faults, self.all_faults) {
            (true, Some(m)) => m,
            _ => self.by_rank.get(rank).copied().unwrap_or(below),
        }
    }

    /// The most marks any entrant can get: what a student's maximum counts (unless a bonus).
    #[must_use]
    pub fn most(&self) -> f64 {
        self.by_rank
            .iter()
            .chain([&self.rest])
            .chain(&self.qualified)
            .chain(&self.all_faults)
            .fold(0.0, |a: f64, &b| a.max(b))
    }
}

/// A config that cannot be used; the location is `path:line:col` when the file is known.
#[derive(Debug, thiserror::Error)]
pub enum ArenaConfigError {
    /// Unreadable, or not valid TOML for an arena (located).
    #[error(transparent)]
    Toml(#[from] TomlError),
    #[error("{at}: {message}\nhint: {hint}")]
    Invalid {
        at: String,
        message: String,
        hint: String,
    },
}

/// Reads a standalone arena file.
///
/// # Errors
/// An unreadable file, bad TOML, an unknown key, or a value `validate` rejects.
pub fn load(path: &Path) -> Result<ArenaConfig, ArenaConfigError> {
    let (raw, source): (RawFile, String) = read_toml(path)?;
    validate(&raw.arena, path, &source)
}

/// Turns `[arena]` into a checked config. `path` and `source` are the file it came from, for locations.
///
/// # Errors
/// The first value that is out of range, unknown or malformed, with its location and a hint.
pub fn validate(
    raw: &RawArena,
    path: &Path,
    source: &str,
) -> Result<ArenaConfig, ArenaConfigError> {
    let check = Check { path, source };
    let game = check.game(raw)?;
    let limit = check.duration(&raw.move_limit, Some(Duration::from_secs(1)), "move-limit")?;
    let margin = check
        .duration(&raw.margin, Some(DEFAULT_MARGIN), "margin")?
        .unwrap_or(Duration::ZERO);
    let clock = check.clock(raw, limit)?;
    let startup = check
        .duration(&raw.startup, Some(Duration::from_secs(10)), "startup")?
        .unwrap_or(Duration::from_secs(3600));
    let illegal = match check
        .word(
            &raw.illegal,
            &["lose", "forfeit"],
            "lose",
            "illegal-move policy",
        )?
        .as_str()
    {
        "forfeit" => IllegalPolicy::Forfeit,
        _ => IllegalPolicy::Lose,
    };
    let reply = match check
        .word(&raw.reply, &["move", "state"], "move", "reply form")?
        .as_str()
    {
        "state" => ReplyForm::State,
        _ => ReplyForm::Move,
    };
    let move_cap = match &raw.move_cap {
        None => Some(500),
        Some(c) if *c.get_ref() == 0 => {
            return Err(check.bad(
                c.span(),
                "move-cap must be at least 1".into(),
                "leave it out for the default of 500",
            ));
        }
        Some(c) => Some(*c.get_ref()),
    };
    let games = match &raw.games {
        None => 1,
        Some(g) if *g.get_ref() == 0 => {
            return Err(check.bad(
                g.span(),
                "games must be at least 1".into(),
                "it counts games a pairing plays with each colour",
            ));
        }
        Some(g) => *g.get_ref(),
    };
    let scoring = check.scoring(raw)?;
    let stages = check.stages(raw)?;
    let knockout = check.word(
        &raw.finale,
        &["round-robin", "knockout"],
        "round-robin",
        "final format",
    )? == "knockout";
    let protocol = check.protocol(raw, startup)?;
    if let Some(cmd) = &raw.command {
        if cmd.is_empty() {
            return Err(check.bad(
                0..0,
                "`command` is empty".into(),
                "write the program and its arguments, e.g. `[\"python3\", \"player.py\"]`",
            ));
        }
    }
    let marks = check.marks(raw)?;
    Ok(ArenaConfig {
        game,
        protocol,
        command: raw.command.clone(),
        args: raw.args.clone(),
        policy: Policy {
            limit,
            margin,
            clock,
            illegal,
            move_cap,
            reply,
        },
        games,
        scoring,
        stages,
        knockout,
        marks,
    })
}

/// The file an `[arena]` table came from, to locate what is wrong in it.
struct Check<'a> {
    path: &'a Path,
    source: &'a str,
}

impl Check<'_> {
    /// What is wrong at `span`, with the file's line and a caret under it (none for the file as a whole,
    /// `0..0`).
    fn bad(&self, span: std::ops::Range<usize>, message: String, hint: &str) -> ArenaConfigError {
        let message = if span == (0..0) {
            message
        } else {
            format!("{message}\n{}", snippet(self.source, span.clone()))
        };
        ArenaConfigError::Invalid {
            at: location(self.path, self.source, span),
            message,
            hint: hint.to_string(),
        }
    }

    /// `move-clock` and `move-wall`: what the per-move limit `limit` counts, and the wall cap of a
    /// move under a CPU clock (no shorter than the limit).
    fn clock(&self, raw: &RawArena, limit: Option<Duration>) -> Result<Clock, ArenaConfigError> {
        let cpu = self.word(&raw.move_clock, &["wall", "cpu"], "wall", "move clock")? == "cpu";
        let cap = self.duration(&raw.move_wall, None, "move-wall")?;
        match (cpu, &raw.move_wall, cap, limit) {
            (false, Some(w), _, _) => Err(self.bad(
                w.span(),
                "`move-wall` is set, but the move limit counts wall time".into(),
                "add `move-clock = \"cpu\"`, or remove `move-wall`",
            )),
            (true, Some(w), Some(cap), Some(limit)) if cap < limit => Err(self.bad(
                w.span(),
                format!("`move-wall` is shorter than `move-limit` ({})", crate::arena::game::record::seconds(limit)),
                "the wall cap is the most a move may take however little CPU time it uses: make it several times the limit",
            )),
            (true, _, cap, _) => Ok(Clock::Cpu { cap }),
            (false, None, _, _) => Ok(Clock::Wall),
        }
    }

    /// `game` (and Oska's `n`): a known game, `oska:N` with N ≥ 4.
    fn game(&self, raw: &RawArena) -> Result<String, ArenaConfigError> {
        let game = match raw.game.get_ref() {
            RawGame::Named(name) => name.trim().to_string(),
            RawGame::Rules(r) => return self.rules(raw, &r.rules),
        };
        let (base, param) = game.split_once(':').unwrap_or((game.as_str(), ""));
        if !GAMES.contains(&base) {
            return Err(self.bad(
            raw.game.span(),
            format!("unknown game `{game}`"),
            "games are `tictactoe`, `tmmorris`, `sttt`, `ut3`, `oska` (or `oska:N` for N pieces)",
        ));
        }
        Ok(match (base, param, &raw.n) {
            ("oska", "", None) => "oska".to_string(),
            ("oska", "", Some(n)) | ("oska", _, Some(n)) if *n.get_ref() < 4 => {
                return Err(self.bad(
                    n.span(),
                    format!("oska needs n ≥ 4, got `{}`", n.get_ref()),
                    "the handout plays n = 4 and up",
                ));
            }
            ("oska", "", Some(n)) => format!("oska:{}", n.get_ref()),
            ("oska", p, None) => match p.parse::<u32>() {
                Ok(n) if n >= 4 => format!("oska:{n}"),
                _ => {
                    return Err(self.bad(
                        raw.game.span(),
                        format!("bad oska size in `{game}`"),
                        "write `oska:N` with N ≥ 4",
                    ));
                }
            },
            (_, "", None) => base.to_string(),
            _ => {
                return Err(self.bad(
                    raw.game.span(),
                    format!("`{game}` takes no parameter"),
                    "only oska has a size, `oska:5` or `n = 5`",
                ));
            }
        })
    }

    /// `game = { rules = "…" }`: a program beside the file (not Oska's `n`), as `rules:ABSOLUTE-PATH`.
    fn rules(&self, raw: &RawArena, rules: &str) -> Result<String, ArenaConfigError> {
        if let Some(n) = &raw.n {
            return Err(self.bad(
                n.span(),
                "`n` is Oska's size, and this game is a rules program".into(),
                "a rules program's parameters are its own: write them in the program",
            ));
        }
        let dir = self.path.parent().unwrap_or(Path::new("."));
        let path = dir.join(rules.trim());
        crate::arena::game::rules::name_for(&path).map_err(|why| {
            self.bad(
                raw.game.span(),
                why,
                "`rules` names a program relative to this file, as in `game = { rules = \"connect4.py\" }`",
            )
        })
    }

    /// A duration field: absent is `default`, `none` is no limit.
    fn duration(
        &self,
        field: &Option<Spanned<String>>,
        default: Option<Duration>,
        what: &str,
    ) -> Result<Option<Duration>, ArenaConfigError> {
        match field {
            None => Ok(default),
            Some(s) if s.get_ref().trim() == "none" => Ok(None),
            Some(s) => units::parse_duration(s.get_ref(), units::ARENA)
                .map(Some)
                .map_err(|_| {
                    self.bad(
                        s.span(),
                        format!("bad {what} `{}`", s.get_ref()),
                        "write a duration like `1s`, `500ms` or `1.5s`",
                    )
                }),
        }
    }

    /// A word among `choices`; absent is `default`.
    fn word(
        &self,
        field: &Option<Spanned<String>>,
        choices: &[&str],
        default: &str,
        what: &str,
    ) -> Result<String, ArenaConfigError> {
        match field {
            None => Ok(default.to_string()),
            Some(s) if choices.contains(&s.get_ref().as_str()) => Ok(s.get_ref().clone()),
            Some(s) => Err(self.bad(
                s.span(),
                format!("unknown {what} `{}`", s.get_ref()),
                &format!("choose one of `{}`", choices.join("`, `")),
            )),
        }
    }

    fn regex(&self, s: &Spanned<String>) -> Result<Regex, ArenaConfigError> {
        Regex::new(s.get_ref()).map_err(|e| {
            self.bad(
                s.span(),
                format!("bad pattern `{}`: {e}", s.get_ref()),
                "patterns are Rust regexes; escape `(`, `?` and `.` with a backslash",
            )
        })
    }

    /// `scoring`: a preset or a table.
    fn scoring(&self, raw: &RawArena) -> Result<Scoring, ArenaConfigError> {
        Ok(match &raw.scoring {
            None => Scoring::STANDARD,
            Some(spanned) => match spanned.get_ref() {
                RawScoring::Preset(p) => match p.as_str() {
                    "standard" => Scoring::STANDARD,
                    "ut3" => Scoring::UT3,
                    other => {
                        return Err(self.bad(
                            spanned.span(),
                            format!("unknown scoring `{other}`"),
                            SCORING_HINT,
                        ));
                    }
                },
                RawScoring::Table(t) => Scoring {
                    win: t.win,
                    draw: t.draw,
                    loss: t.loss,
                    edge: t.edge.map(|[a, b]| (a, b)),
                },
            },
        })
    }

    /// `[[arena.stage]]`: each with at least one group and one advancing.
    fn stages(&self, raw: &RawArena) -> Result<Vec<Stage>, ArenaConfigError> {
        let mut stages = Vec::new();
        for s in &raw.stage {
            for field in [&s.groups, &s.advance] {
                if *field.get_ref() == 0 {
                    return Err(self.bad(
                        field.span(),
                        "a stage needs at least one group and one player advancing".into(),
                        "write e.g. `{ groups = 10, advance = 3 }`",
                    ));
                }
            }
            stages.push(Stage {
                groups: *s.groups.get_ref(),
                advance: *s.advance.get_ref(),
                sections: s.sections,
            });
        }
        Ok(stages)
    }

    /// `protocol`, and the dialogue script when it is `dialogue`.
    fn protocol(&self, raw: &RawArena, startup: Duration) -> Result<Protocol, ArenaConfigError> {
        Ok(
            match self
                .word(
                    &raw.protocol,
                    &["persistent", "per-move", "dialogue"],
                    "persistent",
                    "protocol",
                )?
                .as_str()
            {
                "per-move" => Protocol::PerMove,
                "dialogue" => {
                    let Some(d) = &raw.dialogue else {
                        let span = raw.protocol.as_ref().map_or(0..0, Spanned::span);
                        return Err(self.bad(
                            span,
                            "the dialogue protocol needs an `[arena.dialogue]` table".into(),
                            "give at least `prompt` and `reply` patterns",
                        ));
                    };
                    // The seat reads the program's board as a 3×3 grid (`seat::dialogue::board`).
                    if !matches!(raw.game.get_ref(), RawGame::Named(n) if n.trim() == "tictactoe") {
                        return Err(self.bad(
                            raw.game.span(),
                            format!(
                                "the dialogue protocol plays tic-tac-toe only, not `{}`",
                                raw.game.get_ref().written()
                            ),
                            "it reads the program's board as three rows of three cells",
                        ));
                    }
                    let mut opening = Vec::new();
                    for step in &d.opening {
                        opening.push(Step {
                            expect: self.regex(&step.expect)?,
                            send: step.send.clone(),
                        });
                    }
                    let mut probes = Vec::new();
                    for p in &d.probe {
                        if *p.at.get_ref() == 0 {
                            return Err(self.bad(
                                p.at.span(),
                                "probe prompts are counted from 1".into(),
                                "`at = 1` is the program's first prompt for a move in a game",
                            ));
                        }
                        let send = p.send.get_ref().clone();
                        if send.trim().is_empty() || send.contains('\n') {
                            return Err(self.bad(
                                p.send.span(),
                                format!("bad probe input `{send}`"),
                                "a probe is one non-empty line, or `{taken}` for an occupied cell",
                            ));
                        }
                        let about = p.about.clone().unwrap_or_else(|| {
                            if send.contains("{taken}") {
                                "an occupied cell".into()
                            } else {
                                "not a move".into()
                            }
                        });
                        probes.push(Probe {
                            at: *p.at.get_ref(),
                            send,
                            about,
                        });
                    }
                    Protocol::Dialogue(Script {
                        opening,
                        prompt: self.regex(&d.prompt)?,
                        send: d.send.clone(),
                        reply: self.regex(&d.reply)?,
                        end: d.end.as_ref().map(|e| self.regex(e)).transpose()?,
                        expect_timeout: self
                            .duration(
                                &d.expect_timeout,
                                Some(Duration::from_secs(5)),
                                "expect-timeout",
                            )?
                            .unwrap_or(Duration::from_secs(3600)),
                        probes,
                    })
                }
                _ => Protocol::Persistent { startup },
            },
        )
    }

    /// `[arena.marks]`: marks by rank, zero or more; a gate needs `all-faults`.
    fn marks(&self, raw: &RawArena) -> Result<Option<Marks>, ArenaConfigError> {
        Ok(match &raw.marks {
            None => None,
            Some(m) => {
                let fine = |v: f64| units::check_points(v).is_ok();
                if m.by_rank.get_ref().iter().any(|&v| !fine(v)) {
                    return Err(self.bad(
                        m.by_rank.span(),
                        "marks must be zero or more".into(),
                        "write e.g. `by-rank = [40, 36, 33]`",
                    ));
                }
                for v in [&m.rest, &m.all_faults, &m.qualified].into_iter().flatten() {
                    if !fine(*v.get_ref()) {
                        return Err(self.bad(
                            v.span(),
                            format!("marks `{}` must be zero or more", v.get_ref()),
                            "write a number like `20`",
                        ));
                    }
                }
                if let (Some(gate), None) = (&m.gate, &m.all_faults) {
                    return Err(self.bad(
                    gate.span(),
                    format!("`gate = \"{}\"` leaves submissions out, but no `all-faults` says their marks", gate.get_ref()),
                    "add e.g. `all-faults = 0` to `[arena.marks]`",
                ));
                }
                Some(Marks {
                    by_rank: m.by_rank.get_ref().clone(),
                    rest: m.rest.as_ref().map_or(0.0, |v| *v.get_ref()),
                    all_faults: m.all_faults.as_ref().map(|v| *v.get_ref()),
                    gate: m.gate.as_ref().map(|g| g.get_ref().clone()),
                    bonus: m.bonus,
                    qualified: m.qualified.as_ref().map(|v| *v.get_ref()),
                })
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn from(text: &str) -> Result<ArenaConfig, ArenaConfigError> {
        let raw: RawFile = crate::toml_file::parse_toml(Path::new("arena.toml"), text)?;
        validate(&raw.arena, Path::new("arena.toml"), text)
    }

    // Over 100 lines on purpose: one arena table per protocol and reply form, each followed by what its
    // keys became, read top to bottom as the key reference lists them.
    #[test]
    fn a_full_config_validates() {
        let c = from(
            "[arena]\ngame = \"ut3\"\nmove-limit = \"6s\"\nscoring = \"ut3\"\nmove-cap = 81\n\
             [[arena.stage]]\ngroups = 10\nadvance = 3\n[[arena.stage]]\ngroups = 5\nadvance = 2\n",
        )
        .unwrap();
        assert_eq!(c.game, "ut3");
        assert_eq!(c.policy.limit, Some(Duration::from_secs(6)));
        assert_eq!(c.policy.margin, DEFAULT_MARGIN);
        assert_eq!(c.scoring, Scoring::UT3);
        assert_eq!(c.stages.len(), 2);
        assert!(!c.knockout);
        assert_eq!(c.policy.move_cap, Some(81));
        assert_eq!(c.marks, None);

        let c =
            from("[arena]\ngame = \"oska\"\nn = 5\nreply = \"state\"\nprotocol = \"per-move\"\n")
                .unwrap();
        assert_eq!(c.game, "oska:5");
        assert_eq!(c.policy.reply, ReplyForm::State);
        assert!(matches!(c.protocol, Protocol::PerMove));

        let c = from(
            "[arena]\ngame = \"tictactoe\"\nprotocol = \"dialogue\"\nscoring = { win = 3, draw = 1 }\n\
             [arena.dialogue]\nprompt = \"Your move\"\nreply = 'I play (?P<move>\\d)'\n\
             opening = [{ expect = 'first\\?', send = \"{opponent-first}\" }]\n",
        )
        .unwrap();
        assert!(matches!(c.protocol, Protocol::Dialogue(ref s) if s.opening.len() == 1));
        assert_eq!(c.scoring.win, 3);

        let probes = "[arena]\ngame = \"tictactoe\"\nprotocol = \"dialogue\"\n\
             [arena.dialogue]\nprompt = \"move\"\nreply = 'I play (?P<move>\\d)'\n\
             probe = [{ at = 2, send = \"{taken}\" }, { at = 1, send = \"9 9\", about = \"off the board\" }]\n";
        let c = from(probes).unwrap();
        let Protocol::Dialogue(s) = c.protocol else {
            panic!("not a dialogue")
        };
        assert_eq!(s.probes.len(), 2);
        assert_eq!(
            (s.probes[0].at, s.probes[0].about.as_str()),
            (2, "an occupied cell")
        );
        assert_eq!(s.probes[1].about, "off the board");
        let e = from(&probes.replace("at = 2", "at = 0"))
            .unwrap_err()
            .to_string();
        assert!(e.contains("probe prompts are counted from 1"), "{e}");
    }

    #[test]
    fn bad_values_name_their_place() {
        let e = from("[arena]\ngame = \"chess\"\n").unwrap_err().to_string();
        assert!(e.starts_with("arena.toml:2:8: unknown game `chess`"), "{e}");
        assert!(e.contains("hint: games are"), "{e}");
        let e = from("[arena]\ngame = \"ut3\"\nmove-limit = \"fast\"\n")
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("arena.toml:3:14: bad move-limit `fast`"),
            "{e}"
        );
        let e = from("[arena]\ngame = \"oska:3\"\n")
            .unwrap_err()
            .to_string();
        assert!(e.contains("bad oska size"), "{e}");
        let e = from("[arena]\ngame = \"ut3\"\nprotocol = \"dialogue\"\n")
            .unwrap_err()
            .to_string();
        assert!(e.contains("needs an `[arena.dialogue]` table"), "{e}");
        let e = from(
            "[arena]\ngame = \"ut3\"\nprotocol = \"dialogue\"\n[arena.dialogue]\nprompt = \"move\"\nreply = 'I play (?P<move>\\d)'\n",
        )
        .unwrap_err()
        .to_string();
        assert!(e.contains("plays tic-tac-toe only, not `ut3`"), "{e}");
        let e = from("[arena]\ngame = \"ut3\"\ncolour = 1\n")
            .unwrap_err()
            .to_string();
        assert!(e.contains("unknown field `colour`"), "{e}");
    }

    #[test]
    fn marks_by_rank() {
        let c = from(
            "[arena]\ngame = \"ut3\"\n[arena.marks]\nby-rank = [40, 36]\nrest = 20\nall-faults = 0\n",
        )
        .unwrap();
        let m = c.marks.unwrap();
        assert_eq!(m.for_rank(0, false, false), 40.0);
        assert_eq!(m.for_rank(1, false, false), 36.0);
        assert_eq!(m.for_rank(2, false, false), 20.0);
        assert_eq!(m.for_rank(0, true, false), 0.0);
        let e = from("[arena]\ngame = \"ut3\"\n[arena.marks]\nby-rank = [40, -1]\n")
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("arena.toml:4:11: marks must be zero or more"),
            "{e}"
        );
        let e = from("[arena]\ngame = \"ut3\"\n[arena.marks]\nby-rank = [40]\nothers = 1\n")
            .unwrap_err()
            .to_string();
        assert!(e.contains("unknown field `others`"), "{e}");
        let e = from("[arena]\ngame = \"ut3\"\n[arena.marks]\nby-rank = [40]\ngate = \"legal\"\n")
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with(
                "arena.toml:5:8: `gate = \"legal\"` leaves submissions out, but no `all-faults`"
            ),
            "{e}"
        );
        let m = from("[arena]\ngame = \"ut3\"\n[arena.marks]\nby-rank = [10, 40]\nrest = 5\nall-faults = 0\ngate = \"legal\"\nbonus = true\n")
            .unwrap()
            .marks
            .unwrap();
        assert_eq!(
            (m.most(), m.gate.as_deref(), m.bonus),
            (40.0, Some("legal"), true)
        );
    }
}
