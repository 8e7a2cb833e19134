//! Play cases: games against a bot (or the submission itself) through the arena, measured and credited.
//!
//! Games are seeded from the suite seed, the opponent, the game and the game's index (never the case),
//! and kept per submission: a case that asks for games already played (the same game, opponent, args
//! and move limit) measures those records instead of playing again.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::dialogue;
use super::samefault;
use super::sets::{game_seed, my_side, Ask, Played, Set};
use crate::arena::analysis::{analyse, GameAnalysis};
use crate::arena::game::record::{Ending, GameRecord, GameResult};
use crate::build::Built;
use crate::judge::excerpt;
use crate::judge::{Judged, Verdict};
use crate::report::points;
use crate::report::result::Artifact;
use crate::report::result::CaseResult;
use crate::report::result::NotPlayed;
use crate::sandbox::Sandbox;
use crate::suite::{Case, Group, Measure, Opponent, Play, Suite};

/// The submission's games for one submission's play cases, kept so each distinct game is played once.
pub struct Games<'a> {
    sandbox: &'a Arc<dyn Sandbox>,
    suite: &'a Suite,
    student: &'a str,
    built: Built,
    /// Records by what fixes them (game, opponent, args, move limit), in game order, each with what
    /// its seats' programs used.
    played: HashMap<String, Vec<Played>>,
    /// The sets played ahead (from their first game) that no case has asked for yet, each with the
    /// wall time its games took, which the first case to ask for it counts as its own.
    ahead_wall: HashMap<String, Duration>,
    /// The games of later cases were played ahead (it is done once, at the first play case).
    went_ahead: bool,
    /// Games actually played (not measured again from memory).
    pub games_played: usize,
}

/// What a case's games are: the records, the games not played (stand-ins), the first record no
/// earlier case counted, and the wall time of the games played ahead for it.
struct Records {
    played: Vec<Played>,
    not_played: Option<NotPlayed>,
    new_from: usize,
    ahead: Duration,
}

/// The submission's colour in each game as played: the side it was given ([`my_side`]), or the other
/// when its program decided who moves first itself (the record names the players in colour order).
#[must_use]
pub fn sides_of(records: &[GameRecord], student: &str) -> Vec<usize> {
    records
        .iter()
        .enumerate()
        .map(|(k, r)| {
            let given = my_side(k);
            let swapped = r.players[given] != student && r.players[1 - given] == student;
            if swapped {
                1 - given
            } else {
                given
            }
        })
        .collect()
}

impl<'a> Games<'a> {
    #[must_use]
    pub fn new(
        sandbox: &'a Arc<dyn Sandbox>,
        suite: &'a Suite,
        student: &'a str,
        built: Built,
    ) -> Games<'a> {
        Games {
            sandbox,
            suite,
            student,
            built,
            played: HashMap::new(),
            ahead_wall: HashMap::new(),
            went_ahead: false,
            games_played: 0,
        }
    }

    /// Plays (or recalls) the case's games, measures them, and returns the result with the records and
    /// transcript to save.
    pub fn run(&mut self, group: &Group, case: &Case, p: &Play) -> (CaseResult, Vec<Artifact>) {
        let mut result = super::case::blank(group, case);
        let started = Instant::now();
        let before = self.games_played;
        let Records {
            played,
            not_played,
            new_from,
            ahead,
        } = match self.records(p) {
            Ok(r) => r,
            Err(why) => {
                result.summary = format!("the grader could not play the games: {why}");
                return (result, Vec::new());
            }
        };
        // A case whose games an earlier case played ran nothing: no wall time of its own, whatever the
        // clock said while recalling them (the pages say so, the same in every run). Games played
        // ahead for it count with their share of the time they took.
        let now = if self.games_played > before {
            started.elapsed()
        } else {
            Duration::ZERO
        };
        if self.games_played > before || !ahead.is_zero() {
            result.wall_ms = crate::units::nearest_ms(now + ahead);
        }
        // What the submission's program used over the games: the highest peak memory (both seats when
        // it plays itself), and the CPU of the games played for this case (an earlier case's games
        // cost it nothing: the class's CPU is the sum over its cases).
        let records: Vec<GameRecord> = played.iter().map(|(r, _)| r.clone()).collect();
        let seats = sides_of(&records, self.student);
        for (k, (_, used)) in played.iter().enumerate() {
            let mine = (0..2).filter(|&s| s == seats[k] || p.opponent == Opponent::Itself);
            for u in mine.filter_map(|s| used[s]) {
                if k >= new_from {
                    result.cpu_ms += u64::try_from(u.cpu.as_millis()).unwrap_or(u64::MAX);
                }
                result.peak_memory = result.peak_memory.max(u.peak_memory);
            }
        }
        // Games not played are scored from their stand-ins, but neither analysed nor saved again.
        let real = not_played
            .as_ref()
            .and_then(|np| np.games.first())
            .map_or(records.len(), |&g| g as usize - 1);
        let analyses = analyse_games(p, &records, &seats);
        let judged = judge(p, &records, &seats, &analyses, not_played.as_ref());
        result.games = analyses.into_iter().filter(|a| a.game <= real).collect();
        result.verdict = judged.verdict;
        result.credit = judged.credit;
        result.summary = judged.summary;
        result.details = judged.details;
        if let Some((summary, transcript)) = review(&records[..real], &seats, p) {
            // Not the student's fault, nor a grade: a person reads the dialogue and decides.
            result.verdict = Verdict::Review;
            result.credit = 0.0;
            result.summary = summary;
            result.transcript = transcript;
        }
        let mut artifacts: Vec<Artifact> = records[..real]
            .iter()
            .enumerate()
            .map(|(k, r)| {
                let mut json = serde_json::to_string_pretty(r).unwrap_or_default();
                json.push('\n');
                crate::arena::game::replay::vouch(json.as_bytes());
                Artifact {
                    path: PathBuf::from("games").join(format!("{}-{}.json", case.name, k + 1)),
                    bytes: json.into_bytes(),
                }
            })
            .collect();
        if let Some(name) = &p.transcript {
            artifacts.push(Artifact {
                path: PathBuf::from(name),
                bytes: transcript(&records[..real], not_played.as_ref()).into_bytes(),
            });
        }
        result.not_played = not_played;
        (result, artifacts)
    }

    /// The case's records: the ones already played, then any still missing; games the rule of
    /// `samefault` does not play stand in as copies, and are named. With them, the first record no
    /// earlier case counted, and the wall time of those played ahead.
    fn records(&mut self, p: &Play) -> Result<Records, String> {
        let key = set_key(p);
        let want = p.games as usize;
        // A set played ahead is this case's from its first game; any other's records so far are
        // an earlier case's.
        let (had, ahead) = match self.ahead_wall.remove(&key) {
            Some(wall) => (0, wall),
            None => (self.played.get(&key).map_or(0, Vec::len), Duration::ZERO),
        };
        let (played, not_played) = self.set(&key, p, want)?;
        Ok(Records {
            played,
            not_played,
            new_from: had,
            ahead,
        })
    }

    /// Set `key`'s first `want` records, played as needed, with the games not played.
    fn set(
        &mut self,
        key: &str,
        p: &Play,
        want: usize,
    ) -> Result<(Vec<Played>, Option<NotPlayed>), String> {
        if self.shortcut(p) {
            self.play(key, p, samefault::FIRST)?;
            if let Some((out, np)) = self.stand_ins(key, p, want) {
                return Ok((out, Some(np)));
            }
        }
        self.play(key, p, want)?;
        Ok((self.played[key][..want].to_vec(), None))
    }

    /// Whether the rule of `samefault` may spare case `p` games past its first ones.
    fn shortcut(&self, p: &Play) -> bool {
        p.games as usize > samefault::FIRST
            && samefault::enabled()
            && !samefault::sees_seed(&p.arena, &self.built)
    }

    /// When set `key`'s first games ended in the same fault and fewer than `want` are played: the
    /// ones played, then stand-ins up to `want`, and what was not played.
    fn stand_ins(&self, key: &str, p: &Play, want: usize) -> Option<(Vec<Played>, NotPlayed)> {
        let have = &self.played[key];
        let firsts: Vec<&GameRecord> = have[..samefault::FIRST].iter().map(|(r, _)| r).collect();
        let fault = same_fault(p, &firsts).filter(|_| have.len() < want)?;
        let mut out = have.clone();
        for k in have.len()..want {
            let like = &have[my_side(k)].0;
            let seed = game_seed(self.suite.seed, p.opponent.spec(), &like.game, k as u32);
            out.push((samefault::stand_in(like, seed), [None, None]));
        }
        Some((out, samefault::not_played(have.len(), want, fault)))
    }

    fn new_set(&self, p: &Play) -> Result<Set, String> {
        Set::new(
            self.sandbox,
            &p.arena,
            &self.built,
            self.student,
            &p.opponent,
            self.suite.seed,
        )
    }

    /// Plays the games of set `key` up to game `want` (counting from 1) that are not played yet.
    fn play(&mut self, key: &str, p: &Play, want: usize) -> Result<(), String> {
        let have = self.played.get(key).map_or(0, Vec::len);
        if have < want {
            let fresh = self.new_set(p)?.play(have, want);
            self.games_played += fresh.len();
            self.played
                .entry(key.to_string())
                .or_default()
                .extend(fresh);
        }
        Ok(())
    }

    /// Once, before the first play case: plays at once the games `plays` (the play cases of this
    /// program, in case order) will first ask for, when there are two sets or more to play and each
    /// starts alike in any order (`grade::sets`). The rule of `samefault` is kept: a set's other games
    /// start once one of its first games has seen a move (the rule cannot spare them then), or once
    /// its first games have ended in no same fault; else they are not played.
    pub fn play_ahead<'p>(&mut self, plays: impl IntoIterator<Item = &'p Play>) {
        if std::mem::replace(&mut self.went_ahead, true) {
            return;
        }
        let mut sets: Vec<(String, &Play, Set)> = Vec::new();
        for p in plays {
            let key = set_key(p);
            if self.played.contains_key(&key) || sets.iter().any(|(k, _, _)| *k == key) {
                continue;
            }
            // A set the grader cannot make is left to its case, which says why.
            match self.new_set(p) {
                Ok(set) if set.apart() => sets.push((key, p, set)),
                _ => {}
            }
        }
        if sets.len() < 2 {
            return;
        }
        let asks: Vec<Ask<'_>> = sets
            .iter()
            .map(|(_, p, set)| Ask {
                set,
                games: p.games as usize,
                spare: self.shortcut(p),
            })
            .collect();
        // Each set's other games are played unless its first ones ended in the same fault
        // (`samefault`), as `stand_ins` finds when its cases ask for them.
        let spared = |j: usize, firsts: &[&Played]| {
            let records: Vec<&GameRecord> = firsts.iter().map(|(r, _)| r).collect();
            same_fault(sets[j].1, &records).is_some()
        };
        let made = super::sets::play_at_once(&asks, &spared);
        for ((key, _, _), (games, wall)) in sets.iter().zip(made) {
            self.games_played += games.len();
            self.played.entry(key.clone()).or_default().extend(games);
            *self.ahead_wall.entry(key.clone()).or_default() += wall;
        }
    }
}

/// The fault the first games of case `p`'s set, `firsts`, ended in alike (`samefault`), if they did.
fn same_fault(p: &Play, firsts: &[&GameRecord]) -> Option<String> {
    samefault::same_fault(firsts, my_side, p.opponent == Opponent::Itself)
}

/// What fixes a set of games: the game, the opponent, the args and the move limit, and whether a
/// dialogue's invalid-input probes are played (games with them are other games than without).
fn set_key(p: &Play) -> String {
    format!(
        "{}\0{}\0{:?}\0{:?}\0{}",
        p.arena.game,
        p.opponent.spec(),
        p.arena.args,
        p.arena.policy.limit,
        dialogue::probes(&p.arena)
    )
}

/// Which seats of a game are the submission.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sides {
    /// The side the measure is taken from (first in games 1, 3, 5, ...).
    pub me: usize,
    /// Self-play: the other side is the submission too, and its faults are the submission's.
    pub both: bool,
}

/// How one game counts for a measure, from the submission's side: 1 counts fully, 0 not at all. A new
/// measure is an arm here (a dialogue fact reads `record.notes`; `tactics` the game's `analyses`).
#[must_use]
pub fn value(
    measure: Measure,
    record: &GameRecord,
    sides: Sides,
    analyses: &[&GameAnalysis],
) -> f64 {
    let me = sides.me;
    let won = record.winner() == Some(me);
    let lost = record.lost(me);
    match measure {
        Measure::Legal => f64::from(u8::from(fault(record, sides).is_none())),
        Measure::Won => f64::from(u8::from(won)),
        Measure::NotLost => f64::from(u8::from(!lost)),
        Measure::Score => {
            if won {
                1.0
            } else if lost {
                0.0
            } else {
                0.5
            }
        }
        Measure::Opening | Measure::Rejects | Measure::Announces => {
            dialogue::conduct(measure).map_or(0.0, |c| dialogue::judge(c, record, me).0)
        }
        // A game that cannot be replayed under the rules has no analysis, and nothing to hold against
        // the submission.
        Measure::Tactics => f64::from(u8::from(analyses.iter().all(|a| a.tactically_clean()))),
    }
}

/// Each game's analysis from the submission's side (both sides in self-play); the turning point is
/// looked for in the games a side did not win and that ended by the rules, not a fault.
fn analyse_games(p: &Play, records: &[GameRecord], seats: &[usize]) -> Vec<GameAnalysis> {
    let mut out = Vec::new();
    for (k, r) in records.iter().enumerate() {
        let me = seats[k];
        let sides = if p.opponent == Opponent::Itself {
            vec![0, 1]
        } else {
            vec![me]
        };
        for side in sides {
            let turning =
                r.winner() != Some(side) && !matches!(r.ending, Ending::Fault | Ending::Review);
            out.extend(analyse(r, k + 1, side, turning));
        }
    }
    out
}

/// What the submission did wrong in a game, if anything: the fault that ended it, else the first
/// forfeited placement.
fn fault(record: &GameRecord, sides: Sides) -> Option<String> {
    let mine = |side: usize| side == sides.me || sides.both;
    if record.ending == Ending::Fault && (0..2).any(|s| mine(s) && record.lost(s)) {
        return Some(record.reason.clone());
    }
    record
        .moves
        .iter()
        .enumerate()
        .find(|(_, m)| mine(m.side) && m.forfeited.is_some())
        .map(|(i, m)| {
            format!(
                "{} sent {} on move {} (forfeited)",
                record.colours[m.side],
                m.forfeited.as_deref().unwrap_or_default(),
                i + 1
            )
        })
}

/// Measures the records and words the result for a student.
fn judge(
    p: &Play,
    records: &[GameRecord],
    seats: &[usize],
    analyses: &[GameAnalysis],
    not_played: Option<&NotPlayed>,
) -> Judged {
    let of_game =
        |k: usize| -> Vec<&GameAnalysis> { analyses.iter().filter(|a| a.game == k + 1).collect() };
    let games = records.len().max(1) as f64;
    let sides = |k: usize| Sides {
        me: seats[k],
        both: p.opponent == Opponent::Itself,
    };
    let values: Vec<f64> = records
        .iter()
        .enumerate()
        .map(|(k, r)| value(p.measure, r, sides(k), &of_game(k)))
        .collect();
    let total: f64 = values.iter().sum();
    let measured = total / games;
    // A hair of slack so that 0.8 × 10 games needs 8 wins, not 8.000000001.
    let credit = match p.at_least {
        Some(t) => f64::from(u8::from(measured + 1e-9 >= t)),
        None => measured,
    };
    let summary = summary(p, records, seats, total);
    // Games not played are said in one line, not one each.
    let real = not_played
        .and_then(|np| np.games.first())
        .map_or(records.len(), |&g| g as usize - 1);
    let missed: Vec<usize> = (0..real).filter(|&k| values[k] < 1.0).collect();
    let mut details = game_details(p, records, seats, &missed);
    details.extend(not_played.map(samefault::words));
    // Where each game turned, and the tactics missed, after the games' own lines.
    details.extend(
        analyses
            .iter()
            .filter(|a| a.game <= real)
            .flat_map(GameAnalysis::lines),
    );
    Judged {
        verdict: if credit >= 1.0 {
            Verdict::Accepted
        } else {
            Verdict::WrongAnswer
        },
        credit,
        summary,
        details,
        variant: None,
        search: None,
    }
}

/// The case's summary: what was measured over the games, how the grader understood a dialogue program,
/// and what was needed.
fn summary(p: &Play, records: &[GameRecord], seats: &[usize], total: f64) -> String {
    let n = records.len();
    let against = match &p.opponent {
        Opponent::Bot(spec) => format!("against `{spec}`"),
        Opponent::Itself => "against a copy of itself".to_string(),
    };
    let (won, drawn) = records
        .iter()
        .enumerate()
        .fold((0, 0), |(w, d), (k, r)| match r.result {
            GameResult::Win(s) if s == seats[k] => (w + 1, d),
            GameResult::Draw { .. } => (w, d + 1),
            GameResult::Win(_) | GameResult::BothLost => (w, d),
        });
    let lost = n - won - drawn;
    let mut summary = match p.measure {
        Measure::Legal => format!("played legally in {total} of {n} games {against}"),
        Measure::Won => format!("won {total} of {n} games {against}"),
        Measure::NotLost => format!("won or drew {total} of {n} games {against}"),
        Measure::Score => format!(
            "scored {} of {n} {against} (won {won}, drew {drawn}, lost {lost})",
            points(total)
        ),
        Measure::Opening | Measure::Rejects | Measure::Announces => {
            let words = dialogue::conduct(p.measure).map(|c| dialogue::words(c, total, n));
            format!("{} {against}", words.unwrap_or_default())
        }
        Measure::Tactics => format!(
            "took every win in one and blocked every threat in {total} of {n} games {against}"
        ),
    };
    // A dialogue program on conventions of its own: say how the grader understood it.
    if let Some(understood) = dialogue::understood(records, |k| seats[k]) {
        let _ = write!(summary, " ({understood})");
    }
    if let Some(t) = p.at_least {
        let needed = t * n as f64;
        let needed = if p.measure == Measure::Score {
            points((needed * 2.0).ceil() / 2.0)
        } else {
            format!("{}", needed.ceil() as u64)
        };
        let _ = write!(summary, "; {needed} needed");
    }
    summary
}

/// One line for each game in `missed` (0-based) that did not get full value, a reason shared by
/// several games said once with their numbers (`games 1–10: did not ask ...`). Each distinct stderr
/// excerpt is shown once, under the first line that ended with it, and at most `EXCERPTS` of them (a
/// program whose crash differs game by game would fill the feedback).
fn game_details(
    p: &Play,
    records: &[GameRecord],
    seats: &[usize],
    missed: &[usize],
) -> Vec<String> {
    let sides = |k: usize| Sides {
        me: seats[k],
        both: p.opponent == Opponent::Itself,
    };
    // Games are grouped whatever their times: which games share a line never depends on the clock.
    let mut groups: Vec<Shared> = Vec::new();
    for &k in missed {
        let (why, times) = untimed(&shared_reason(
            &records[k],
            &game_reason(&records[k], p.measure, sides(k)),
            seats[k],
        ));
        let words = crashed_with(&records[k], seats[k]);
        match groups
            .iter_mut()
            .find(|(_, w, _, l)| *w == why && *l == words)
        {
            Some((games, _, all, _)) => {
                games.push(k);
                all.push(times);
            }
            None => groups.push((vec![k], why, vec![times], words)),
        }
    }
    let mut details = Vec::new();
    let mut shown: Vec<(usize, Vec<String>)> = Vec::new();
    for (games, why, times, last_words) in groups {
        let k = games[0];
        let mut line = match games.as_slice() {
            [_] => game_line(k, &records[k], p.measure, sides(k)),
            _ => {
                let numbers: Vec<usize> = games.iter().map(|g| g + 1).collect();
                format!("{}: {}", dialogue::game_numbers(&numbers), why.with(&times))
            }
        };
        match shown.iter().find(|(_, lines)| *lines == last_words) {
            _ if last_words.is_empty() => details.push(line),
            Some((first, _)) => {
                let _ = write!(line, " (stderr as in game {})", first + 1);
                details.push(line);
            }
            None if shown.len() == EXCERPTS => {
                line.push_str(" (its stderr is in the game's record)");
                details.push(line);
            }
            None => {
                details.push(line);
                details.push("  stderr (last lines):".to_string());
                details.extend(last_words.iter().map(|l| format!("    {l}")));
                shown.push((k, last_words));
            }
        }
    }
    details
}

/// Games that share a line: their numbers (0-based), the reason as said of the submission whatever
/// its colour with its times taken out, each game's times, and its last words.
type Shared = (Vec<usize>, Untimed, Vec<Vec<String>>, Vec<String>);

/// A reason with each time it measured (`after 6.17 s`) taken out: what games that failed alike
/// share, whatever the clock said.
#[derive(Debug, PartialEq, Eq)]
struct Untimed(Vec<String>);

impl Untimed {
    /// The reason again with the times of every game it stands for, each place once when they agree
    /// (`after 6.10 s`) and in game order when not (`after 6.17 s, 7.13 s`).
    fn with(&self, times: &[Vec<String>]) -> String {
        let mut out = String::new();
        for (i, piece) in self.0.iter().enumerate() {
            out.push_str(piece);
            if i + 1 == self.0.len() {
                break;
            }
            let mut here: Vec<&str> = Vec::new();
            for t in times.iter().filter_map(|t| t.get(i)) {
                if !here.contains(&t.as_str()) {
                    here.push(t);
                }
            }
            out.push_str(&here.join(", "));
        }
        out
    }
}

/// Splits `why` around each time it measured: a number and its unit (`s`, `ms`, `µs`) right after
/// `after ` ([`crate::arena::game::record::seconds`] writes them so).
fn untimed(why: &str) -> (Untimed, Vec<String>) {
    static TIME: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        regex::Regex::new(r"after ([0-9][0-9.]* (?:s|ms|µs))\b").expect("a valid pattern")
    });
    let mut pieces = Vec::new();
    let mut times = Vec::new();
    let mut from = 0;
    for c in TIME.captures_iter(why) {
        let time = c.get(1).expect("the pattern has one group");
        pieces.push(why[from..time.start()].to_string());
        times.push(time.as_str().to_string());
        from = time.end();
    }
    pieces.push(why[from..].to_string());
    (Untimed(pieces), times)
}

/// A game's reason with the submission's colour put as `it` (`x crashed` → `it crashed`, `the grader
/// could not follow x` → `... follow it`), so that games played with either colour can share a line.
fn shared_reason(r: &GameRecord, why: &str, me: usize) -> String {
    let colour = &r.colours[me];
    let follow = format!("could not follow {colour} ");
    let why = why.replace(&follow, "could not follow it ");
    match why.strip_prefix(&format!("{colour} ")) {
        Some(rest) => format!("it {rest}"),
        None => why,
    }
}

/// When the grader could not follow the submission in some of the games (`Ending::Review`): the
/// case's summary, naming those games and why, and the first such game's transcript.
fn review(records: &[GameRecord], seats: &[usize], p: &Play) -> Option<(String, Option<String>)> {
    let games: Vec<usize> = records
        .iter()
        .enumerate()
        .filter(|(_, r)| r.ending == Ending::Review)
        .map(|(k, _)| k + 1)
        .collect();
    let first = &records[*games.first()? - 1];
    let k = games[0] - 1;
    let sides = if p.opponent == Opponent::Itself {
        vec![0, 1]
    } else {
        vec![seats[k]]
    };
    let transcript = sides
        .into_iter()
        .find_map(|s| first.transcripts.get(s).cloned().flatten());
    let which = super::dialogue::game_numbers(&games);
    if let Some(why) = first
        .reason
        .strip_prefix(crate::arena::referee::RULES_FAILED)
    {
        let summary = format!(
            "needs review: the suite's rules program failed in {which} of {}, not the submission: {why}; this case is not scored until the suite is mended",
            records.len()
        );
        return Some((summary, None));
    }
    // `the grader could not follow x on move 3: why` → `on move 3`, `why`.
    let follow = format!("the grader could not follow {} ", first.colours[seats[k]]);
    let (when, why) = first
        .reason
        .strip_prefix(&follow)
        .and_then(|rest| rest.split_once(": "))
        .unwrap_or(("", first.reason.as_str()));
    let when = if when.is_empty() {
        String::new()
    } else {
        format!(" {when}")
    };
    let summary = format!(
        "needs review: the grader could not follow the program{when} in {which} of {}: {why}; this case is not scored until a person reads the dialogue",
        records.len(),
    );
    Some((summary, transcript))
}

/// "game 3, you played o: lost — o sent `5 5`: the cell is taken on move 7".
fn game_line(k: usize, r: &GameRecord, measure: Measure, sides: Sides) -> String {
    let me = sides.me;
    let outcome = match r.winner() {
        Some(w) if w == me => "won",
        _ if r.lost(me) => "lost",
        _ => "drawn",
    };
    format!(
        "game {}, you played {}: {outcome} — {}",
        k + 1,
        r.colours[me],
        game_reason(r, measure, sides)
    )
}

/// Why a game did not count in full, for `measure`.
fn game_reason(r: &GameRecord, measure: Measure, sides: Sides) -> String {
    match (measure, fault(r, sides)) {
        (Measure::Legal, Some(f)) => f,
        (Measure::Opening | Measure::Rejects | Measure::Announces, _) => dialogue::conduct(measure)
            .and_then(|c| dialogue::judge(c, r, sides.me).1)
            .unwrap_or_else(|| r.reason.clone()),
        _ => r.reason.clone(),
    }
}

/// At most this many distinct stderr excerpts in one case's feedback.
const EXCERPTS: usize = 2;

/// A game lost by a fault is explained by the loser's last words: the last lines of its stderr (the
/// record keeps them with the run's folders already made relative), whole.
fn crashed_with(r: &GameRecord, me: usize) -> Vec<String> {
    let loser = r.winner().map(|w| 1 - w).or(r.lost(me).then_some(me));
    match (r.ending, loser) {
        (Ending::Fault, Some(l)) => r
            .stderr
            .get(l)
            .and_then(Option::as_deref)
            .map(|e| excerpt::why_lines(e, excerpt::LINES))
            .unwrap_or_default(),
        _ => Vec::new(),
    }
}

/// The games as text: every position in the game's notation, one per line, with who moved.
#[must_use]
pub fn transcript(records: &[GameRecord], not_played: Option<&NotPlayed>) -> String {
    let mut out = String::new();
    for (k, r) in records.iter().enumerate() {
        let _ = writeln!(
            out,
            "game {}: {} {} vs {} {} (seed {})",
            k + 1,
            r.colours[0],
            r.players[0],
            r.colours[1],
            r.players[1],
            r.seed
        );
        let _ = writeln!(out, "start: {}", r.initial);
        for m in &r.moves {
            let note = m
                .forfeited
                .as_ref()
                .map(|w| format!(" (sent {w}; forfeited)"))
                .unwrap_or_default();
            if m.applied == m.state {
                // The move is the next position (Oska's NextBoard): the board once, as the handout's
                // transcript of queries would show it.
                let _ = writeln!(
                    out,
                    "{} ({}) answers {}{note}",
                    r.colours[m.side], r.players[m.side], m.state
                );
            } else {
                let _ = writeln!(
                    out,
                    "{} ({}) plays {}{note}: {}",
                    r.colours[m.side], r.players[m.side], m.applied, m.state
                );
            }
        }
        let _ = writeln!(out, "result: {}\n", r.summary());
    }
    if let Some(np) = not_played {
        let _ = writeln!(out, "{}", samefault::words(np));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Games that failed alike share a line whatever their times; the line gives each game's time.
    #[test]
    fn games_are_grouped_whatever_the_clock_said() {
        let why =
            |t: &str| format!("it timed out after {t} (limit 6.00 s + 50 ms margin) on move 5");
        let (a, ta) = untimed(&why("6.17 s"));
        let (b, tb) = untimed(&why("850 ms"));
        let (c, tc) = untimed(&why("6.17 s"));
        assert_eq!(a, b);
        assert_eq!(a, c);
        assert_eq!(ta, ["6.17 s"]);
        assert_eq!(
            a.with(&[ta.clone(), tb]),
            why("6.17 s, 850 ms"),
            "each game's time, in game order"
        );
        assert_eq!(a.with(&[ta, tc]), why("6.17 s"), "equal times said once");
        // Another move, or no time at all: another reason.
        let (d, _) = untimed("it timed out after 6.17 s (limit 6.00 s + 50 ms margin) on move 7");
        assert_ne!(a, d);
        let plain = "it crashed (exit status 1) after the opening on move 2";
        let (e, te) = untimed(plain);
        assert!(te.is_empty());
        assert_eq!(e.with(&[te]), plain);
        let (f, tf) = untimed("it timed out after 2.50 s of CPU time");
        assert_eq!(f.with(&[tf]), "it timed out after 2.50 s of CPU time");
    }
    use crate::arena::game::record::fixtures::tictactoe;
    use crate::arena::game::record::MoveRecord;

    fn record(result: GameResult, ending: Ending, forfeit_by: Option<usize>) -> GameRecord {
        let reason = "o crashed (exit status 1) on move 2";
        GameRecord {
            moves: vec![MoveRecord {
                side: forfeit_by.unwrap_or(0),
                sent: "9".into(),
                applied: "0".into(),
                micros: 5,
                state: "x--------".into(),
                forfeited: forfeit_by.map(|_| "`9`: off the board".into()),
            }],
            final_state: "x--------".into(),
            ..tictactoe(result, ending, reason)
        }
    }

    /// The sides the submission was given in `n` games (none swapped).
    fn given(n: usize) -> Vec<usize> {
        (0..n).map(my_side).collect()
    }

    const X: Sides = Sides { me: 0, both: false };
    const O: Sides = Sides { me: 1, both: false };

    #[test]
    fn values_follow_the_side() {
        let x_wins = record(GameResult::Win(0), Ending::Rules, None);
        assert_eq!(value(Measure::Won, &x_wins, X, &[]), 1.0);
        assert_eq!(value(Measure::Won, &x_wins, O, &[]), 0.0);
        assert_eq!(value(Measure::NotLost, &x_wins, O, &[]), 0.0);
        let draw = record(GameResult::Draw { edge: None }, Ending::Rules, None);
        assert_eq!(value(Measure::Score, &draw, O, &[]), 0.5);
        assert_eq!(value(Measure::NotLost, &draw, O, &[]), 1.0);
        // o's crash is o's fault, not x's.
        let crash = record(GameResult::Win(0), Ending::Fault, None);
        assert_eq!(value(Measure::Legal, &crash, O, &[]), 0.0);
        assert_eq!(value(Measure::Legal, &crash, X, &[]), 1.0);
        // A forfeited placement spoils the game for "legal" even without a loss.
        let forfeit = record(GameResult::Win(0), Ending::Rules, Some(0));
        assert_eq!(value(Measure::Legal, &forfeit, X, &[]), 0.0);
        assert_eq!(value(Measure::Won, &forfeit, X, &[]), 1.0);
        // In self-play either copy's fault is the submission's.
        let both = Sides { me: 0, both: true };
        assert_eq!(value(Measure::Legal, &crash, both, &[]), 0.0);
        let o_forfeits = record(GameResult::Win(0), Ending::Rules, Some(1));
        assert_eq!(value(Measure::Legal, &o_forfeits, X, &[]), 1.0);
        assert_eq!(value(Measure::Legal, &o_forfeits, both, &[]), 0.0);
    }

    fn case(measure: Measure, at_least: Option<f64>) -> Play {
        Play {
            opponent: Opponent::Bot("random".into()),
            games: 6,
            measure,
            at_least,
            arena: Arc::new(crate::arena::setup::defaults("tictactoe")),
            transcript: None,
        }
    }

    #[test]
    fn summaries_say_what_was_measured_and_what_was_needed() {
        // Games 1, 3, 5: the submission is x and wins; games 2, 4: x wins against it; game 6 a draw.
        let mut records = vec![record(GameResult::Win(0), Ending::Rules, None); 5];
        records.push(record(GameResult::Draw { edge: None }, Ending::Rules, None));
        let j = judge(
            &case(Measure::Won, Some(0.66)),
            &records,
            &given(records.len()),
            &[],
            None,
        );
        assert_eq!(j.summary, "won 3 of 6 games against `random`; 4 needed");
        assert_eq!((j.verdict, j.credit), (Verdict::WrongAnswer, 0.0));
        // Games 2, 4 and 6 have the same reason (the fixture's): said once.
        assert_eq!(
            j.details,
            ["games 2, 4 and 6: it crashed (exit status 1) on move 2"]
        );
        let one = judge(
            &case(Measure::Won, Some(0.66)),
            &records[..2],
            &given(2),
            &[],
            None,
        );
        assert!(
            one.details[0].starts_with("game 2, you played o: lost — "),
            "{:?}",
            one.details
        );
        let j = judge(
            &case(Measure::Score, Some(0.5)),
            &records,
            &given(records.len()),
            &[],
            None,
        );
        assert_eq!(
            j.summary,
            "scored 3.5 of 6 against `random` (won 3, drew 1, lost 2); 3 needed"
        );
        assert_eq!((j.verdict, j.credit), (Verdict::Accepted, 1.0));
        let j = judge(
            &case(Measure::NotLost, None),
            &records,
            &given(records.len()),
            &[],
            None,
        );
        assert_eq!(j.summary, "won or drew 4 of 6 games against `random`");
        assert!((j.credit - 4.0 / 6.0).abs() < 1e-12);
        assert_eq!(j.verdict, Verdict::WrongAnswer);
    }

    #[test]
    fn a_crash_shows_its_last_words_once_and_at_most_two_kinds() {
        // The submission loses every game by a fault: games 1 and 2 with one traceback, 3 and 4 with
        // two others.
        let crash = |k: usize, error: &str| {
            let me = my_side(k);
            let mut r = record(GameResult::Win(1 - me), Ending::Fault, None);
            r.stderr = vec![None, None];
            r.stderr[me] = Some(format!(
                "Traceback (most recent call last):\n  File \"team.py\", line 7, in move\n    return cells[9]\n{error}\n"
            ));
            r
        };
        let records = [
            crash(0, "IndexError: list index out of range"),
            crash(1, "IndexError: list index out of range"),
            crash(2, "KeyError: 'b'"),
            crash(3, "ValueError: c"),
        ];
        let j = judge(
            &case(Measure::Legal, Some(1.0)),
            &records,
            &given(records.len()),
            &[],
            None,
        );
        let d: Vec<&str> = j.details.iter().map(String::as_str).collect();
        assert_eq!(
            d[1..6],
            [
                "  stderr (last lines):",
                "    Traceback (most recent call last):",
                "      File \"team.py\", line 7, in move",
                "        return cells[9]",
                "    IndexError: list index out of range",
            ]
        );
        assert!(
            d[6].starts_with("game 2, ") && d[6].ends_with(" (stderr as in game 1)"),
            "{d:#?}"
        );
        assert!(d.contains(&"    KeyError: 'b'"), "{d:#?}");
        assert!(d.last().unwrap().starts_with("game 4, "), "{d:#?}");
        assert!(
            d.last()
                .unwrap()
                .ends_with(" (its stderr is in the game's record)"),
            "{d:#?}"
        );
        assert!(!d.iter().any(|l| l.contains("ValueError")), "{d:#?}");
    }

    #[test]
    fn games_not_played_count_but_are_said_once() {
        // The submission fails before any move in every game; games 3 to 6 are stand-ins.
        let failed = |k: usize| {
            let reason = format!("{} failed to start: crashed", ["x", "o"][my_side(k)]);
            tictactoe(GameResult::Win(1 - my_side(k)), Ending::Fault, &reason)
        };
        let records: Vec<GameRecord> = (0..6).map(failed).collect();
        let np = samefault::not_played(2, 6, records[0].reason.clone());
        let p = case(Measure::Legal, None);
        let all = judge(&p, &records, &given(records.len()), &[], None);
        let some = judge(&p, &records, &given(records.len()), &[], Some(&np));
        assert_eq!((some.credit, &some.summary), (all.credit, &all.summary));
        assert_eq!(
            some.summary,
            "played legally in 0 of 6 games against `random`"
        );
        // The same failure with either colour, said once.
        assert_eq!(all.details, ["games 1–6: it failed to start: crashed"]);
        assert_eq!(some.details.len(), 2, "{:#?}", some.details);
        assert_eq!(
            some.details[0],
            "games 1 and 2: it failed to start: crashed"
        );
        assert!(some.details[1].starts_with("games 3–6 were not played: "));
        let text = transcript(&records[..2], Some(&np));
        assert!(text.starts_with("game 1: "), "{text}");
        assert!(!text.contains("game 3:"), "{text}");
        assert!(text.ends_with("each is scored as that fault\n"), "{text}");
    }

    #[test]
    fn games_the_grader_could_not_follow_make_the_case_wait_for_a_person() {
        let played = record(GameResult::Draw { edge: None }, Ending::Rules, None);
        let mut unfollowed = tictactoe(
            GameResult::BothLost,
            Ending::Review,
            "the grader could not follow o on move 2: it printed no board the grader could read",
        );
        unfollowed.transcripts = vec![None, Some("Your move?\n→ 1 1\n".into())];
        let records = vec![played.clone(), unfollowed.clone(), played, unfollowed];
        let (summary, transcript) =
            review(&records, &given(records.len()), &case(Measure::Won, None)).unwrap();
        assert_eq!(
            summary,
            "needs review: the grader could not follow the program on move 2 in games 2 and 4 of 4: it printed no board the grader could read; this case is not scored until a person reads the dialogue"
        );
        assert_eq!(transcript.as_deref(), Some("Your move?\n→ 1 1\n"));
        assert!(review(&records[..1], &given(1), &case(Measure::Won, None)).is_none());
        assert_eq!(
            super::super::dialogue::game_numbers(&[1, 2, 3, 4]),
            "games 1–4"
        );
        assert_eq!(super::super::dialogue::game_numbers(&[7]), "game 7");
    }

    #[test]
    fn seeds_ignore_the_case_and_differ_by_game_index() {
        let a = game_seed(7, "random", "tictactoe", 0);
        assert_eq!(a, game_seed(7, "random", "tictactoe", 0));
        assert_ne!(a, game_seed(7, "random", "tictactoe", 1));
        assert_ne!(a, game_seed(7, "perfect", "tictactoe", 0));
        assert_ne!(a, game_seed(8, "random", "tictactoe", 0));
    }
}
