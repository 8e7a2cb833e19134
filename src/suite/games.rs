//! Loading what suites graded by playing add: `[arena]`, `[entries]`, `[[manual]]`, globbed `detect`,
//! `support` files, and play and position cases, each checked with a located error.

use std::ops::Range;
use std::path::{Component, PathBuf};
use std::sync::Arc;

use crate::toml_file::Spanned;
use reference::Player;

use crate::arena::config::{validate, ArenaConfig, Protocol, RawArena};
use crate::arena::game::registry::{dispatch, MakeBot, Visitor};
use crate::arena::game::ArenaGame;
use crate::units::{parse_duration, ARENA};

use super::kinds::{
    Entries, Manual, Measure, Opponent, Play, Position, PositionExpect, RubricItem, Scoring,
};
use super::raw::{RawCase, RawEntries, RawItem, RawManual, RawPlay, RawPosition};
use super::{Loader, SuiteError};

/// The most rubric items one manual group may have (a page of them; keys 1-9 reach the first nine).
pub const MAX_ITEMS: usize = 50;

const BOT_HINT: &str = "bots are `random`, `offensive`, `defensive`, `minimax:D`, `mcts:N`, `perfect` (where the game is solvable), or `self` for the submission against itself";

/// Checks a bot spec against a game's bots.
struct BotCheck<'a>(&'a str);

impl Visitor for BotCheck<'_> {
    type Out = Result<(), String>;
    fn visit<G: ArenaGame>(self, _initial: G, bots: MakeBot<G>) -> Self::Out
    where
        G::Move: Send + Sync,
    {
        bots(self.0, 0).map(|_| ())
    }
}

/// The canonical name of a game (`oska:4` is `oska`).
struct Canonical;

impl Visitor for Canonical {
    type Out = String;
    fn visit<G: ArenaGame>(self, initial: G, _bots: MakeBot<G>) -> String
    where
        G::Move: Send + Sync,
    {
        initial.name()
    }
}

/// The side names a game uses, first mover first.
struct Sides;

impl Visitor for Sides {
    type Out = [&'static str; 2];
    fn visit<G: ArenaGame>(self, _initial: G, _bots: MakeBot<G>) -> [&'static str; 2]
    where
        G::Move: Send + Sync,
    {
        [G::side_name(Player::First), G::side_name(Player::Second)]
    }
}

/// A case's `game`, `args` and `move-limit` over the suite's arena.
type Overrides<'a> = (
    Option<&'a Spanned<String>>,
    Option<&'a Vec<String>>,
    Option<&'a Spanned<String>>,
);

impl Loader<'_> {
    pub(super) fn detect(
        &self,
        language: &str,
        detect: &Spanned<Vec<String>>,
    ) -> Result<(), SuiteError> {
        for pattern in detect.get_ref() {
            if pattern.is_empty() || pattern.contains('/') || pattern.chars().all(|c| c == '*') {
                return self.err(
                    detect.span(),
                    format!("bad `detect` pattern `{pattern}` in language `{language}`\nhint: name files in the submission's top folder, e.g. `tictactoe.py` or `*.scm` (`*` and `?` match within a name)"),
                );
            }
        }
        Ok(())
    }

    pub(super) fn support(
        &self,
        language: &str,
        files: &[Spanned<String>],
    ) -> Result<Vec<PathBuf>, SuiteError> {
        let mut out: Vec<PathBuf> = Vec::new();
        for f in files {
            let rel = PathBuf::from(f.get_ref());
            let inside = !rel.is_absolute()
                && rel.components().all(|c| matches!(c, Component::Normal(_)))
                && rel.file_name().is_some();
            if !inside {
                return self.err(f.span(), format!("support file `{}` of language `{language}` must be inside the suite folder\nhint: give a path relative to the suite folder, without `..`", f.get_ref()));
            }
            if !self.dir.join(&rel).is_file() {
                return self.err(
                    f.span(),
                    format!(
                        "support file `{}` of language `{language}` does not exist in `{}`",
                        f.get_ref(),
                        self.dir.display()
                    ),
                );
            }
            if out.iter().any(|o| o.file_name() == rel.file_name()) {
                return self.err(f.span(), format!("two support files of language `{language}` are named `{}`\nhint: support files are copied under their base name, which must differ", rel.file_name().unwrap_or_default().to_string_lossy()));
            }
            out.push(rel);
        }
        Ok(out)
    }

    pub(super) fn arena(
        &self,
        raw: Option<&RawArena>,
    ) -> Result<Option<Arc<ArenaConfig>>, SuiteError> {
        let Some(raw) = raw else { return Ok(None) };
        let mut config = validate(raw, self.path, self.text)?;
        if let Err(e) = dispatch(&config.game, Canonical).map(|name| config.game = name) {
            return self.err(raw.game.span(), e.to_string());
        }
        Ok(Some(Arc::new(config)))
    }

    pub(super) fn entries(&self, raw: Option<Spanned<RawEntries>>) -> Result<Entries, SuiteError> {
        let Some(raw) = raw else {
            return Ok(Entries::default());
        };
        let raw = raw.into_inner();
        let check = |v: &Spanned<String>| -> Result<String, SuiteError> {
            if v.get_ref().trim().is_empty() || v.get_ref().contains(['/', '\0']) {
                return self.err(v.span(), format!("bad entry name `{}`\nhint: an entry is the name the adapter loads, e.g. `my-ai`", v.get_ref()));
            }
            Ok(v.get_ref().clone())
        };
        let default = raw.default.as_ref().map(check).transpose()?;
        let mut students = std::collections::BTreeMap::new();
        for (student, v) in &raw.students {
            students.insert(student.clone(), check(v)?);
        }
        Ok(Entries { default, students })
    }

    /// `[[manual]]`: every column's problems kept (`Loader::keep`), the good columns returned.
    pub(super) fn manual(&self, raw: Vec<Spanned<RawManual>>) -> Vec<Manual> {
        let mut out: Vec<Manual> = Vec::new();
        for m in raw {
            let m = m.into_inner();
            let Some(name) = self.keep(self.name("manual column", &m.name)) else {
                continue;
            };
            let points = *m.points.get_ref();
            if let Err(e) = crate::units::check_points(points) {
                self.keep::<()>(self.err(m.points.span(), format!("manual column `{name}`: {e}")));
            }
            if out.iter().any(|o| o.name == name) || name == "total" || name == "student" {
                self.keep::<()>(self.err(
                    m.name.span(),
                    format!("manual column `{name}` is declared twice or names a built-in column"),
                ));
            }
            let scoring = match m.scoring.as_ref().map(|s| (s.get_ref().as_str(), s.span())) {
                None | Some(("positive", _)) => Scoring::Positive,
                Some(("negative", _)) => Scoring::Negative,
                Some((other, span)) => {
                    self.keep::<()>(self.err(
                        span,
                        format!("manual column `{name}` has scoring `{other}`\nhint: `positive` (from 0, items add) or `negative` (from its points, items take off)"),
                    ));
                    continue;
                }
            };
            let Some(items) = self.keep(self.rubric_items(&name, m.items)) else {
                continue;
            };
            out.push(Manual {
                name,
                title: m.title,
                points,
                scoring,
                items,
            });
        }
        out
    }

    /// A manual group's rubric items: distinct names, finite points that are not 0, a text, at most
    /// [`MAX_ITEMS`].
    fn rubric_items(
        &self,
        group: &str,
        raw: Vec<Spanned<RawItem>>,
    ) -> Result<Vec<RubricItem>, SuiteError> {
        let mut items: Vec<RubricItem> = Vec::new();
        for item in raw {
            let span = item.span();
            let item = item.into_inner();
            if items.len() == MAX_ITEMS {
                return self.err(
                    span,
                    format!("manual column `{group}` has more than {MAX_ITEMS} rubric items"),
                );
            }
            let name = self.name("rubric item", &item.name)?;
            let points = *item.points.get_ref();
            if !points.is_finite() || points == 0.0 || points.abs() > 1e6 {
                return self.err(
                    item.points.span(),
                    format!("rubric item `{group}.{name}` has points `{points}`\nhint: a number other than 0 (negative takes points off)"),
                );
            }
            if items.iter().any(|i| i.name == name) {
                return self.err(
                    item.name.span(),
                    format!("rubric item `{group}.{name}` is declared twice"),
                );
            }
            if item.text.trim().is_empty() {
                return self.err(span, format!("rubric item `{group}.{name}` has no `text`"));
            }
            items.push(RubricItem {
                name,
                text: item.text,
                points,
            });
        }
        Ok(items)
    }

    /// A play or position case may not carry a run case's keys.
    pub(super) fn no_run_keys(
        &self,
        case: &str,
        kind: &str,
        c: &RawCase,
        files_allowed: bool,
    ) -> Result<(), SuiteError> {
        let whole = c.name.span();
        let found: Option<(&str, Range<usize>)> = if let Some(a) = &c.args {
            Some(("args", a.span()))
        } else if c.stdin.is_some() {
            Some(("stdin", whole))
        } else if let Some(s) = &c.stdout {
            Some(("stdout", s.span()))
        } else if c.limits.is_some() {
            Some(("limits", whole))
        } else if !files_allowed {
            c.files.keys().next().map(|k| ("files", k.span()))
        } else {
            None
        };
        match found {
            None => Ok(()),
            Some((key, span)) => self.err(
                span,
                format!("case `{case}` mixes a `{kind}` case with the run key `{key}`\nhint: a case is exactly one kind; for `{kind}`, put `game`, `args` and `move-limit` inside `{kind} = {{ ... }}`"),
            ),
        }
    }

    /// The suite's arena with a case's `game`, `args` and `move-limit`.
    fn case_arena(
        &self,
        case: &str,
        kind: &str,
        arena: Option<&Arc<ArenaConfig>>,
        at: Range<usize>,
        over: Overrides<'_>,
    ) -> Result<Arc<ArenaConfig>, SuiteError> {
        let Some(arena) = arena else {
            return self.err(at, format!("case `{case}` is a `{kind}` case, but the suite has no `[arena]` table\nhint: add `[arena]` with at least `game = \"...\"` (see suites/README.md)"));
        };
        let (game, args, move_limit) = over;
        if game.is_none() && args.is_none() && move_limit.is_none() {
            return Ok(arena.clone());
        }
        let mut config = ArenaConfig::clone(arena);
        if let Some(g) = game {
            let family = |s: &str| s.split(':').next().unwrap_or(s).trim().to_string();
            if family(g.get_ref()) != family(&arena.game) {
                return self.err(g.span(), format!("case `{case}` plays `{}`, another game than the suite's `{}`\nhint: a case may change the game's parameters (`oska:5`), not the game", g.get_ref(), arena.game));
            }
            match dispatch(g.get_ref().trim(), Canonical) {
                Ok(name) => config.game = name,
                Err(e) => return self.err(g.span(), format!("case `{case}`: {e}")),
            }
        }
        if let Some(a) = args {
            config.args = Some(a.clone());
        }
        if let Some(l) = move_limit {
            config.policy.limit = if l.get_ref().trim() == "none" {
                None
            } else {
                Some(parse_duration(l.get_ref(), ARENA).or_else(|_| {
                    self.err(l.span(), format!("bad move-limit `{}` in case `{case}`\nhint: write a duration like `1s`, `500ms` or `1.5s`, or `none`", l.get_ref()))
                })?)
            };
        }
        Ok(Arc::new(config))
    }

    /// Play cases save `games/<case>-<k>.json` and their transcript beside result.json: names must not
    /// collide across groups.
    pub(super) fn distinct_outputs(
        &self,
        earlier: &[super::Group],
        group: &super::Group,
        at: Range<usize>,
    ) -> Result<(), SuiteError> {
        let plays = |g: &super::Group| -> Vec<(String, Option<String>)> {
            g.cases
                .iter()
                .filter_map(|c| match &c.kind {
                    super::Kind::Play(p) => Some((c.name.clone(), p.transcript.clone())),
                    _ => None,
                })
                .collect()
        };
        let before: Vec<(String, Option<String>)> = earlier.iter().flat_map(plays).collect();
        let mine = plays(group);
        for (i, (case, transcript)) in mine.iter().enumerate() {
            if before.iter().any(|(c, _)| c == case) {
                return self.err(at, format!("play case `{case}` appears in two groups\nhint: its game records are saved as `games/{case}-K.json`; give the cases different names"));
            }
            let clash = before
                .iter()
                .chain(&mine[..i])
                .any(|(_, t)| t.is_some() && t == transcript);
            if let (true, Some(t)) = (clash, transcript) {
                return self.err(at, format!("two play cases write the transcript `{t}`\nhint: give each its own file name"));
            }
        }
        Ok(())
    }

    /// The case's arena as its measure needs it: only `rejects` games type the dialogue's invalid inputs
    /// (a program that fails one loses the game, which must not cost it what other measures credit),
    /// and the dialogue measures need the dialogue protocol.
    fn dialogue_probes(
        &self,
        case: &str,
        word: &Spanned<String>,
        measure: Measure,
        arena: Arc<ArenaConfig>,
    ) -> Result<Arc<ArenaConfig>, SuiteError> {
        let dialogue = matches!(
            measure,
            Measure::Opening | Measure::Rejects | Measure::Announces
        );
        match &arena.protocol {
            Protocol::Dialogue(script) if measure == Measure::Rejects && script.probes.is_empty() => {
                self.err(word.span(), format!("case `{case}` measures `rejects`, but the dialogue types no invalid input\nhint: add `[[arena.dialogue.probe]]` entries (`at`, `send`), see src/arena/PROTOCOLS.md"))
            }
            Protocol::Dialogue(script) if measure != Measure::Rejects && !script.probes.is_empty() => {
                let mut config = ArenaConfig::clone(&arena);
                if let Protocol::Dialogue(s) = &mut config.protocol {
                    s.probes.clear();
                }
                Ok(Arc::new(config))
            }
            Protocol::Dialogue(_) => Ok(arena),
            _ if dialogue => self.err(word.span(), format!("case `{case}` measures `{}`, which reads what a dialogue program does\nhint: it needs `protocol = \"dialogue\"` in `[arena]`", word.get_ref())),
            _ => Ok(arena),
        }
    }

    pub(super) fn play(
        &self,
        case: &str,
        raw: Spanned<RawPlay>,
        arena: Option<&Arc<ArenaConfig>>,
    ) -> Result<Play, SuiteError> {
        let span = raw.span();
        let p = raw.into_inner();
        let arena = self.case_arena(
            case,
            "play",
            arena,
            span,
            (p.game.as_ref(), p.args.as_ref(), p.move_limit.as_ref()),
        )?;
        let games = *p.games.get_ref();
        if games == 0 {
            return self.err(
                p.games.span(),
                format!("case `{case}` plays `games = 0`\nhint: play at least one game"),
            );
        }
        let Some(measure) = Measure::parse(p.measure.get_ref()) else {
            let words: Vec<&str> = Measure::ALL.iter().map(|(_, w)| *w).collect();
            return self.err(
                p.measure.span(),
                format!(
                    "unknown measure `{}` in case `{case}`\nhint: use `{}`",
                    p.measure.get_ref(),
                    words.join("`, `")
                ),
            );
        };
        let arena = self.dialogue_probes(case, &p.measure, measure, arena)?;
        let at_least = match &p.at_least {
            None => None,
            Some(a) if (0.0..=1.0).contains(a.get_ref()) => Some(*a.get_ref()),
            Some(a) => {
                return self.err(a.span(), format!("`at-least = {}` in case `{case}` is not between 0 and 1\nhint: it is a fraction of the games, e.g. `0.8`", a.get_ref()));
            }
        };
        let spec = p.opponent.get_ref().trim();
        let opponent = if spec == "self" {
            Opponent::Itself
        } else {
            match dispatch(&arena.game, BotCheck(spec)) {
                Ok(Ok(())) => Opponent::Bot(spec.to_string()),
                Ok(Err(why)) if why.contains("hint:") => {
                    return self.err(
                        p.opponent.span(),
                        format!(
                            "case `{case}`: `{}` offers no opponent `{spec}`: {why}",
                            arena.game
                        ),
                    );
                }
                Ok(Err(why)) => {
                    return self.err(
                        p.opponent.span(),
                        format!(
                            "case `{case}`: `{}` offers no opponent `{spec}`: {why}\nhint: {BOT_HINT}",
                            arena.game
                        ),
                    );
                }
                Err(e) => return self.err(p.opponent.span(), e.to_string()),
            }
        };
        let transcript = match &p.transcript {
            None => None,
            Some(t) => {
                let name = t.get_ref();
                if name.is_empty()
                    || name.contains(['/', '\\'])
                    || name.starts_with('.')
                    || name == "result.json"
                    || name == "games"
                {
                    return self.err(t.span(), format!("bad transcript name `{name}` in case `{case}`\nhint: a plain file name such as `self-play.txt`; it is saved beside result.json"));
                }
                Some(name.clone())
            }
        };
        Ok(Play {
            opponent,
            games,
            measure,
            at_least,
            arena,
            transcript,
        })
    }

    pub(super) fn position(
        &self,
        case: &str,
        raw: Spanned<RawPosition>,
        c: &RawCase,
        arena: Option<&Arc<ArenaConfig>>,
    ) -> Result<Position, SuiteError> {
        let span = raw.span();
        let p = raw.into_inner();
        let arena = self.case_arena(
            case,
            "position",
            arena,
            span.clone(),
            (p.game.as_ref(), p.args.as_ref(), p.move_limit.as_ref()),
        )?;
        if matches!(arena.protocol, Protocol::Dialogue(_)) {
            return self.err(span, format!("case `{case}` is a position case, but the suite's protocol is `dialogue`\nhint: position cases need the `persistent` or `per-move` protocol; use play cases for dialogue programs"));
        }
        let sides = dispatch(&arena.game, Sides).map_err(|e| {
            SuiteError::from(crate::toml_file::located(
                self.path,
                self.text,
                Some(span.clone()),
                &e.to_string(),
            ))
        })?;
        if !sides.contains(&p.side.get_ref().trim()) {
            return self.err(
                p.side.span(),
                format!(
                    "unknown side `{}` in case `{case}`\nhint: `{}` names its sides `{}` and `{}`",
                    p.side.get_ref(),
                    arena.game,
                    sides[0],
                    sides[1]
                ),
            );
        }
        let Some(expect) = PositionExpect::parse(p.expect.get_ref()) else {
            let words: Vec<&str> = PositionExpect::ALL.iter().map(|(_, w)| *w).collect();
            return self.err(
                p.expect.span(),
                format!(
                    "unknown expectation `{}` in case `{case}`\nhint: use `{}`",
                    p.expect.get_ref(),
                    words.join("`, `")
                ),
            );
        };
        let mut files = Vec::new();
        for (file, e) in &c.files {
            let fname = file.get_ref();
            if fname.is_empty() || fname.contains('/') || fname.starts_with('.') {
                return self.err(file.span(), format!("bad file name `{fname}`\nhint: name a file in the program's working folder, e.g. `visited.txt`"));
            }
            let Some(compare) = &e.get_ref().compare else {
                return self.err(e.span(), format!("file `{fname}` of position case `{case}` names no comparator\nhint: write `{{ compare = \"NAME\" }}`"));
            };
            if crate::position::ask::FileCheck::parse(compare.get_ref()).is_none() {
                let words: Vec<&str> = crate::position::ask::FileCheck::ALL
                    .iter()
                    .map(|(_, w)| *w)
                    .collect();
                return self.err(compare.span(), format!("unknown comparator `{}` for file `{fname}` of position case `{case}`\nhint: position cases check files with `{}`", compare.get_ref(), words.join("`, `")));
            }
            files.push((fname.clone(), compare.get_ref().clone()));
        }
        let position = Position {
            state: p.state.get_ref().trim().to_string(),
            side: p.side.get_ref().trim().to_string(),
            expect,
            arena,
            files,
        };
        if let Err(why) = super::position::check(&position) {
            return self.err(p.state.span(), format!("case `{case}`: {why}"));
        }
        Ok(position)
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use crate::config::Config;
    use crate::suite::{oracle, Kind, Opponent, Suite};

    fn load(toml: &str) -> Suite {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("suite.toml"), toml).unwrap();
        Suite::load(dir.path(), &Config::load(None).unwrap(), oracle::builtin())
            .unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn a_case_overrides_game_args_and_move_limit() {
        let suite = load(
            r#"title = "t"
seed = 1
[[languages]]
name = "python"
detect = ["oska.py"]
run = ["python3", "{dir}/oska.py"]
[arena]
game = "oska"
protocol = "per-move"
args = ["{state}", "2"]
move-limit = "2s"
[entries]
default = "ai"
students = { bob = "Bob" }
[[groups]]
name = "g"
points = 1
[[groups.cases]]
name = "plain"
play = { opponent = "random", games = 1, measure = "legal" }
[[groups.cases]]
name = "bigger"
play = { opponent = "self", games = 2, measure = "score", game = "oska:5", args = ["{state}", "4"], move-limit = "none" }
"#,
        );
        let plays: Vec<_> = suite
            .cases()
            .map(|(_, c)| match &c.kind {
                Kind::Play(p) => p,
                _ => panic!("not a play case"),
            })
            .collect();
        assert_eq!(plays[0].arena.game, "oska");
        assert_eq!(plays[0].arena.policy.limit, Some(Duration::from_secs(2)));
        assert_eq!(plays[0].opponent, Opponent::Bot("random".into()));
        assert_eq!(plays[1].arena.game, "oska:5");
        assert_eq!(plays[1].arena.policy.limit, None);
        assert_eq!(
            plays[1].arena.args.as_deref(),
            Some(&["{state}".to_string(), "4".to_string()][..])
        );
        assert_eq!(plays[1].opponent, Opponent::Itself);
        // The suite's own table is untouched by the case's overrides.
        assert_eq!(suite.arena.as_ref().unwrap().game, "oska");
        assert_eq!(suite.entries.for_student("bob"), "Bob");
        assert_eq!(suite.entries.for_student("alice"), "ai");
        assert_eq!(crate::suite::Entries::default().for_student("bob"), "");
    }
}
