//! The referee: plays one game between two seats under a suite's policy, owns the clock, and always
//! returns a record. A seat can make it wait no longer than the per-move limit plus the margin.

use std::time::Duration;

use reference::{Outcome, Player};

use crate::arena::game::record::seconds;
use crate::arena::game::record::{Ending, GameRecord, GameResult, MoveRecord};
use crate::arena::game::ArenaGame;
use crate::arena::seat::ReplyForm;
use crate::arena::seat::{Reply, Seat, Start};
use crate::sandbox::pace;
use crate::sandbox::Usage;

/// The margin added to every per-move limit by default: scheduler noise and pipe latency on a loaded
/// machine, never the player's thinking time.
pub const DEFAULT_MARGIN: Duration = Duration::from_millis(50);

/// Characters of a player's reply kept in a record or quoted in a reason (a 64 KiB line is never
/// stored or shown whole); the longest legal reply, an `oska:11` board, is 295.
const QUOTE_CAP: usize = 400;
/// Characters of a reason kept in a record: reasons quote what a program sent, and are printed.
pub const REASON_CAP: usize = 1000;

/// Text a program sent, quoted in a reason: control bytes escaped, length capped.
fn quote(text: &str) -> String {
    crate::untrusted::one_line(text, QUOTE_CAP)
}

/// What a side that printed nothing (as position cases word it) was asked for, after the move number.
fn asked_for(form: ReplyForm) -> String {
    let what = match form {
        ReplyForm::Move => "its move",
        ReplyForm::State => "the board after its move",
    };
    format!(" (asked for {what})")
}

/// What an illegal or malformed reply costs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IllegalPolicy {
    /// The game (UT3, WPI, Adelaide, Oska).
    Lose,
    /// Only the spoiled placement (Super-TTT): the game's `forfeit` move is played instead.
    Forfeit,
}

/// A move's wall-time cap under a CPU clock with no `move-wall`: this many times the per-move limit.
pub const WALL_FACTOR: u32 = 6;

/// What the per-move limit counts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Clock {
    /// Wall time, less the grader's own share of it (`Seat::unclocked`).
    #[default]
    Wall,
    /// The CPU time of the program's whole process tree, for a seat that measures it
    /// (`Seat::move_cpu`; any other keeps the wall clock): a loaded machine slows a program, it does
    /// not make it late. `cap` (default [`WALL_FACTOR`] times the limit) is the wall time a move may
    /// take whatever its CPU time, so a program asleep or blocked still ends.
    Cpu { cap: Option<Duration> },
}

/// The referee's half of a suite's arena config.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Policy {
    /// Per move; `None` for no limit (bots against bots).
    pub limit: Option<Duration>,
    pub margin: Duration,
    pub clock: Clock,
    pub illegal: IllegalPolicy,
    /// Turns before the game is adjudicated a draw (scored with the game's tie-break).
    pub move_cap: Option<u32>,
    pub reply: ReplyForm,
}

/// The base every game starts from: `setup::defaults` changes only what a game's handout says.
impl Default for Policy {
    fn default() -> Policy {
        Policy {
            limit: Some(Duration::from_secs(1)),
            margin: DEFAULT_MARGIN,
            clock: Clock::Wall,
            illegal: IllegalPolicy::Lose,
            move_cap: Some(500),
            reply: ReplyForm::Move,
        }
    }
}

impl Policy {
    /// The full allowance for one reply.
    #[must_use]
    pub fn deadline(&self) -> Option<Duration> {
        self.limit.map(|l| l + self.margin)
    }

    /// Under a CPU clock with a limit, the wall time a move may take whatever its CPU time.
    #[must_use]
    pub fn wall_cap(&self) -> Option<Duration> {
        match self.clock {
            Clock::Wall => None,
            Clock::Cpu { cap } => {
                let limit = self.limit?;
                Some(cap.unwrap_or(limit * WALL_FACTOR).max(limit) + self.margin)
            }
        }
    }
}

/// Starts both seats, even when the first fails: a game neither side could play is a loss for both,
/// never a win for whoever happened to be second (two broken entrants would each win once). The end of
/// the game when either could not start.
fn start_both<G: ArenaGame>(
    seats: &mut [&mut dyn Seat<G>; 2],
    game: &str,
    colours: &[String; 2],
    who: &Match,
    policy: &Policy,
) -> Option<(GameResult, Ending, String)> {
    let mut failed: Vec<(usize, String)> = Vec::new();
    let mut unfollowed: Option<String> = None;
    for (i, seat) in seats.iter_mut().enumerate() {
        let side = side_of(i);
        let start = Start {
            game: game.to_string(),
            side,
            side_name: G::side_name(side),
            seed: who.seed,
            limit: policy.limit,
            wall_cap: policy.wall_cap(),
        };
        let asked = pace::now();
        if let Err(reply) = seat.start(&start) {
            if let Reply::Unfollowed(why) = &reply {
                // Not a fault: a person looks (the other seat's failure, if any, is in the reason).
                unfollowed.get_or_insert(format!(
                    "the grader could not follow {} before the first move: {why}",
                    colours[i]
                ));
                continue;
            }
            // Starting has no per-move limit: a timeout here is the seat's own startup wait.
            let why = match reply {
                Reply::Timeout => format!("timed out after {}", seconds(pace::since(asked))),
                other => fault_words(&other, policy, pace::since(asked)),
            };
            failed.push((i, format!("{} failed to start: {why}", colours[i])));
        }
    }
    match unfollowed {
        Some(why) => {
            let mut whys = vec![why];
            whys.extend(failed.into_iter().map(|(_, w)| w));
            Some((GameResult::BothLost, Ending::Review, whys.join("; ")))
        }
        None => double_fault(failed),
    }
}

/// A seat whose program decided who moves first plays the side it took (`Seat::took`): the seats swap,
/// and the other seat starts again on its new side. Two that took the same side cannot play: no
/// result, for a person to look at.
fn take_sides<G: ArenaGame>(
    seats: &mut [&mut dyn Seat<G>; 2],
    record: &mut GameRecord,
    colours: &[String; 2],
    who: &Match,
    policy: &Policy,
) -> Option<(GameResult, Ending, String)> {
    let took = [seats[0].took(), seats[1].took()];
    let swap = match took {
        [None, None] => return None,
        [Some(a), Some(b)] if a == b => {
            return Some((
                GameResult::BothLost,
                Ending::Review,
                format!(
                    "both players decided to play {} themselves",
                    G::side_name(a)
                ),
            ));
        }
        [Some(Player::First), _] | [_, Some(Player::Second)] => return None,
        _ => true,
    };
    if swap {
        seats.swap(0, 1);
        record.players.swap(0, 1);
        // Which seat decided (by its index before the swap), and where the other one is now.
        let decided = usize::from(took[0].is_none());
        let other = decided;
        if took[1 - decided].is_none() {
            // The seat that did not decide starts again on its new side (a bot just takes it).
            let side = side_of(other);
            let start = Start {
                game: record.game.clone(),
                side,
                side_name: G::side_name(side),
                seed: who.seed,
                limit: policy.limit,
                wall_cap: policy.wall_cap(),
            };
            let asked = pace::now();
            if let Err(reply) = seats[other].start(&start) {
                let why = fault_words(&reply, policy, pace::since(asked));
                return Some((
                    GameResult::Win(1 - other),
                    Ending::Fault,
                    format!("{} failed to start: {why}", colours[other]),
                ));
            }
        }
        let chooser = 1 - other;
        record.notes.push(format!(
            "{} ({}) played {}: its program decided who moves first",
            colours[chooser], record.players[chooser], colours[chooser]
        ));
    }
    None
}

/// The move a reply names, if the game takes it: a legal move, or (under the forfeit policy) the
/// game's stand-in for a spoiled one, with what was sent kept for the record. Otherwise what the side
/// did and a note, for the fault's reason.
fn take<G: ArenaGame>(
    state: &G,
    legal: &[G::Move],
    sent: &str,
    form: ReplyForm,
    illegal: IllegalPolicy,
) -> Result<(G::Move, Option<String>), (String, String)> {
    let parsed = match form {
        ReplyForm::Move => state.parse_move(sent),
        ReplyForm::State => state
            .move_from_state(sent)
            .ok_or_else(|| state.why_not_state(sent)),
    };
    // `(what the side did, a note, what the record keeps of it)`. An empty reply the game does
    // not take (Oska's pass it does) printed nothing: naming the notation it is not would hide
    // that nothing came.
    let sent_this = |why: String| (format!("sent {why}"), String::new(), why);
    let checked = match parsed {
        Ok(mv) if legal.contains(&mv) => Ok(mv),
        _ if sent.is_empty() => Err((
            "printed nothing".to_string(),
            asked_for(form),
            "nothing".to_string(),
        )),
        Ok(_) => Err(sent_this(format!(
            "`{}` is not a legal move here",
            quote(sent)
        ))),
        Err(why) => Err(sent_this(format!("`{}`: {why}", quote(sent)))),
    };
    match checked {
        Ok(mv) => Ok((mv, None)),
        Err((said, note, kept)) => match (illegal, state.forfeit(sent)) {
            // The game vouches for its stand-in (Super-TTT's partial turns are not in
            // `legal_moves`, yet `apply` takes them).
            (IllegalPolicy::Forfeit, Some(stand_in)) => Ok((
                stand_in,
                Some(crate::untrusted::one_line(&kept, REASON_CAP)),
            )),
            _ => Err((said, note)),
        },
    }
}

/// Who plays: names for the record, in colour order.
#[derive(Clone, Debug)]
pub struct Match {
    pub players: [String; 2],
    pub seed: u64,
}

/// Plays one game from `initial`. `seats[0]` moves first. `observe` sees each state after a move (for
/// `--show`). Never panics on anything a player does.
pub fn play<G: ArenaGame>(
    initial: G,
    seats: [&mut dyn Seat<G>; 2],
    who: &Match,
    policy: &Policy,
    observe: &mut dyn FnMut(&G, &MoveRecord),
) -> GameRecord {
    play_measured(initial, seats, who, policy, observe).0
}

/// [`play`], with what each seat's program used (CPU, peak memory), in colour order; `None` for a
/// seat that runs no program. Kept out of the record, which stays the same for the same games.
pub fn play_measured<G: ArenaGame>(
    initial: G,
    seats: [&mut dyn Seat<G>; 2],
    who: &Match,
    policy: &Policy,
    observe: &mut dyn FnMut(&G, &MoveRecord),
) -> (GameRecord, [Option<Usage>; 2]) {
    let [first, second] = seats;
    let mut seats: [&mut dyn Seat<G>; 2] = [first, second];
    let colours = [
        G::side_name(Player::First).to_string(),
        G::side_name(Player::Second).to_string(),
    ];
    let mut record = fresh_record(&initial, who, &colours);
    let mut state = initial;

    let mut started = start_both(&mut seats, &state.title(), &colours, who, policy);
    if started.is_none() {
        started = take_sides(&mut seats, &mut record, &colours, who, policy);
    }

    let mut last: Option<String> = None;
    // The position before the last move, for a seat that took that move otherwise (`Seat::retyped`).
    let mut before_last: Option<G> = None;
    let mut legal = Vec::new();
    let verdict = if let Some(v) = started {
        v
    } else {
        loop {
            let turn = record.moves.len() + 1;
            legal.clear();
            state.legal_moves(&mut legal);
            if let Some(ended) = ended(&state, turn, &legal, &colours, policy) {
                break ended;
            }
            let i = state.to_move().index();

            let (reply, took) = ask(&mut *seats[i], &state, last.as_deref(), policy);

            let text = match reply {
                Reply::Line(text) => {
                    if let Some(ended) = retype(
                        &mut *seats[i],
                        &mut state,
                        before_last.as_ref(),
                        &mut last,
                        &mut record,
                    ) {
                        break ended;
                    }
                    // The position (and its legal moves) may have changed with the retyped move.
                    legal.clear();
                    state.legal_moves(&mut legal);
                    text
                }
                other => break not_a_line(other, i, &colours[i], turn, policy, took),
            };
            let sent = text.trim().to_string();
            let form = seats[i].reply_form(policy.reply);
            let (mv, forfeited) = match take(&state, &legal, &sent, form, policy.illegal) {
                Ok(taken) => taken,
                Err((said, note)) => {
                    break (
                        GameResult::Win(1 - i),
                        Ending::Fault,
                        format!("{} {said} on move {turn}{note}", colours[i]),
                    );
                }
            };
            let applied = state.format_move(mv);
            before_last = Some(state.clone());
            state.apply(mv);
            last = Some(applied.clone());
            let entry = MoveRecord {
                side: i,
                // What a forfeited placement sent can be anything: kept printable and short.
                sent: quote(&sent),
                applied,
                micros: u64::try_from(took.counted.as_micros()).unwrap_or(u64::MAX),
                state: state.encode(),
                forfeited,
            };
            observe(&state, &entry);
            record.moves.push(entry);
        }
    };

    record.final_state = state.encode();
    close(&mut record, verdict, &mut seats);
    let used = [seats[0].usage(), seats[1].usage()];
    (record, used)
}

/// Writes the verdict into the record, tells both seats the game is over, and takes what they have
/// for the record (notes, facts, transcripts, stderr tails).
fn close<G: ArenaGame>(
    record: &mut GameRecord,
    verdict: (GameResult, Ending, String),
    seats: &mut [&mut dyn Seat<G>; 2],
) {
    let (result, ending, reason) = verdict;
    record.result = result;
    record.ending = ending;
    // Seats (and games) word reasons from what programs printed: one more door before records,
    // feedback and the terminal.
    record.reason = crate::untrusted::one_line(&reason, REASON_CAP);
    let summary = record.summary();
    for (i, seat) in seats.iter_mut().enumerate() {
        let unseen = record
            .moves
            .last()
            .filter(|m| m.side != i && record.ending != Ending::Fault)
            .map(|m| m.applied.as_str());
        if let Some(note) = seat.finish(&summary, unseen) {
            record.notes.push(note);
        }
    }
    for seat in seats.iter_mut() {
        let facts = seat.facts(record);
        record.facts.extend(facts);
    }
    record.transcripts = seats.iter_mut().map(|s| s.transcript()).collect();
    if record.transcripts.iter().all(Option::is_none) {
        record.transcripts.clear();
    }
    record.stderr = seats.iter_mut().map(|s| s.stderr_tail()).collect();
    if record.stderr.iter().all(Option::is_none) {
        record.stderr.clear();
    }
}

/// The record of a game about to start from `initial`, with no moves yet.
fn fresh_record<G: ArenaGame>(initial: &G, who: &Match, colours: &[String; 2]) -> GameRecord {
    GameRecord {
        game: initial.name(),
        players: who.players.clone(),
        colours: colours.clone(),
        seed: who.seed,
        initial: initial.encode(),
        moves: Vec::new(),
        final_state: String::new(),
        result: GameResult::Draw { edge: None },
        ending: Ending::Rules,
        reason: String::new(),
        notes: Vec::new(),
        stderr: Vec::new(),
        facts: Vec::new(),
        transcripts: Vec::new(),
    }
}

/// Asks `seat` for its move, on the clock when it is clocked: the reply (a timeout when it came too
/// late) and the time it took.
fn ask<G: ArenaGame>(
    seat: &mut dyn Seat<G>,
    state: &G,
    last: Option<&str>,
    policy: &Policy,
) -> (Reply, Took) {
    let asked = pace::now();
    let deadline = policy.deadline().filter(|_| seat.clocked());
    let reply = seat.request(state, last, deadline);
    let wall = pace::since(asked).saturating_sub(seat.unclocked());
    // Under a CPU clock, what the program's tree used, where its seat measures it.
    let cpu = match policy.clock {
        Clock::Cpu { .. } if deadline.is_some() => seat.move_cpu(),
        _ => None,
    };
    let took = Took {
        counted: cpu.unwrap_or(wall),
        cpu,
        wall,
    };
    // A program proven to wait for input would never have answered: that stays what it was,
    // however late a loaded machine saw it, so the reason is the same at every run.
    let over = deadline.is_some_and(|d| took.counted > d) && !matches!(reply, Reply::Waiting(_));
    (if over { Reply::Timeout } else { reply }, took)
}

/// How long a move took: what the per-move clock counted, and under a CPU clock the CPU time (when
/// the seat measured it) beside the wall time.
#[derive(Clone, Copy, Debug)]
struct Took {
    counted: Duration,
    cpu: Option<Duration>,
    wall: Duration,
}

/// The end of the game when side `i` (`colour`) answered move `turn` with no line: no result when
/// the grader could not follow it, else a fault that loses.
fn not_a_line(
    reply: Reply,
    i: usize,
    colour: &str,
    turn: usize,
    policy: &Policy,
    took: Took,
) -> (GameResult, Ending, String) {
    match reply {
        Reply::Unfollowed(why) => (
            GameResult::BothLost,
            Ending::Review,
            format!("the grader could not follow {colour} on move {turn}: {why}"),
        ),
        fault => {
            let why = match (&fault, took.cpu) {
                (Reply::Timeout, Some(cpu)) => cpu_timeout_words(policy, cpu, took.wall),
                _ => fault_words(&fault, policy, took.counted),
            };
            (
                GameResult::Win(1 - i),
                Ending::Fault,
                format!("{colour} {why} on move {turn}"),
            )
        }
    }
}

/// The end of the game before move `turn` from what the position says (a failed rules program, the
/// rules' outcome, the move cap, or no legal move), or `None` when the side to move must move.
fn ended<G: ArenaGame>(
    state: &G,
    turn: usize,
    legal: &[G::Move],
    colours: &[String; 2],
    policy: &Policy,
) -> Option<(GameResult, Ending, String)> {
    if let Some(why) = state.broken() {
        return Some(rules_failed(&why));
    }
    if let Some(outcome) = state.outcome() {
        return Some(match outcome {
            Outcome::Win(p) => (
                GameResult::Win(p.index()),
                Ending::Rules,
                format!("{} wins by the rules", colours[p.index()]),
            ),
            Outcome::Draw => (
                GameResult::Draw {
                    edge: state.tie_break().map(Player::index),
                },
                Ending::Rules,
                "drawn by the rules".to_string(),
            ),
        });
    }
    if policy
        .move_cap
        .is_some_and(|cap| turn as u64 > u64::from(cap))
    {
        return Some((
            GameResult::Draw {
                edge: state.tie_break().map(Player::index),
            },
            Ending::MoveCap,
            format!("adjudicated a draw after the {}-move cap", turn - 1),
        ));
    }
    // The rules promise a pass move or an outcome; a game that offers neither is our bug, and the
    // fairest call is a draw rather than blaming a player.
    legal.is_empty().then(|| {
        (
            GameResult::Draw { edge: None },
            Ending::Rules,
            format!(
                "no legal move for {} (a rules bug)",
                colours[state.to_move().index()]
            ),
        )
    })
}

/// The game's rules program failed (`ArenaGame::broken`): the suite's or the machine's fault, not a
/// player's, so no result and a person looks.
fn rules_failed(why: &str) -> (GameResult, Ending, String) {
    (
        GameResult::BothLost,
        Ending::Review,
        format!("{RULES_FAILED}{why}"),
    )
}

/// How the reason of a game whose rules program failed begins.
pub const RULES_FAILED: &str = "the suite's rules program failed, not a player: ";

/// A seat that took the opponent's last move otherwise than it was sent (`Seat::retyped`): that move
/// is played instead, from the position before it, and the record says so. The end of the game when
/// the move so taken ends it.
fn retype<G: ArenaGame>(
    seat: &mut dyn Seat<G>,
    state: &mut G,
    before: Option<&G>,
    last: &mut Option<String>,
    record: &mut GameRecord,
) -> Option<(GameResult, Ending, String)> {
    let taken = seat.retyped()?;
    let before = before?;
    let mv = before.parse_move(&taken).ok()?;
    let mut legal = Vec::new();
    before.legal_moves(&mut legal);
    if !legal.contains(&mv) {
        return None;
    }
    let number = record.moves.len();
    let entry = record.moves.last_mut()?;
    let sent = entry.applied.clone();
    *state = before.after(mv);
    entry.applied = state.format_move(mv);
    entry.state = state.encode();
    *last = Some(entry.applied.clone());
    let note = format!(
        "move {number}: {}'s move `{sent}` was typed for the other player, who took it as `{}` (the grader was still learning how it reads moves); the game went on from there",
        record.colours[entry.side],
        entry.applied
    );
    record.notes.push(note);
    state.outcome().map(|outcome| match outcome {
        Outcome::Win(p) => (
            GameResult::Win(p.index()),
            Ending::Rules,
            format!("{} wins by the rules", record.colours[p.index()]),
        ),
        Outcome::Draw => (
            GameResult::Draw {
                edge: state.tie_break().map(Player::index),
            },
            Ending::Rules,
            "drawn by the rules".to_string(),
        ),
    })
}

/// The verdict when seats failed to start: the one that failed loses, and when both did, both lose.
fn double_fault(failed: Vec<(usize, String)>) -> Option<(GameResult, Ending, String)> {
    match failed.as_slice() {
        [] => None,
        [(i, why)] => Some((GameResult::Win(1 - i), Ending::Fault, why.clone())),
        _ => {
            let whys: Vec<&str> = failed.iter().map(|(_, w)| w.as_str()).collect();
            Some((GameResult::BothLost, Ending::Fault, whys.join("; ")))
        }
    }
}

fn side_of(i: usize) -> Player {
    if i == 0 {
        Player::First
    } else {
        Player::Second
    }
}

/// A deadlock in the words of a record's reason, after the side's name.
#[must_use]
pub fn waiting_words(sent: &str) -> String {
    if sent.is_empty() {
        return "was waiting for input before the grader had sent anything (ended at once, not at the time limit)".to_string();
    }
    format!(
        "was waiting for input, but the grader was waiting for its answer to: `{}` (ended at once, not at the time limit)",
        quote(sent)
    )
}

/// An idle program in the words of a record's reason, after the side's name.
#[must_use]
pub fn idle_words(limit: Duration) -> String {
    format!(
        "used no CPU for {}, asleep: it was waiting for something that will not come",
        seconds(limit)
    )
}

/// A timeout under a CPU clock in the words of a record's reason, after the side's name: over the
/// limit in CPU time, or at the move's wall-time cap with CPU time to spare (asleep, or blocked).
fn cpu_timeout_words(policy: &Policy, cpu: Duration, wall: Duration) -> String {
    let (Some(limit), Some(cap)) = (policy.limit, policy.wall_cap()) else {
        return format!("timed out after {} of CPU time", seconds(cpu));
    };
    if cpu > limit + policy.margin || wall < cap {
        format!(
            "timed out after {} of CPU time (limit {} + {} margin, counted in CPU time)",
            seconds(cpu),
            seconds(limit),
            seconds(policy.margin)
        )
    } else {
        format!(
            "was still on its move after {} of wall time, the most a move may take, having used {} of CPU time (the limit, {}, counts CPU time)",
            seconds(wall),
            seconds(cpu),
            seconds(limit)
        )
    }
}

/// A fault in the words of a record's reason, after the side's name.
fn fault_words(reply: &Reply, policy: &Policy, took: Duration) -> String {
    match reply {
        Reply::Line(text) => format!("sent `{}`", quote(text)),
        Reply::Timeout => match policy.limit {
            Some(limit) => format!(
                "timed out after {} (limit {} + {} margin)",
                seconds(took),
                seconds(limit),
                seconds(policy.margin)
            ),
            None => format!("timed out after {}", seconds(took)),
        },
        Reply::Waiting(sent) => waiting_words(sent),
        Reply::Idle(limit) => idle_words(*limit),
        Reply::Crashed(how) => format!("crashed ({how})"),
        Reply::ClosedPipe => "closed its pipe without a move".to_string(),
        Reply::Flood(bytes) => format!("flooded its output ({bytes} bytes without a newline)"),
        Reply::Garbage => "sent bytes that are not UTF-8 text".to_string(),
        Reply::Broken(why) => format!("could not be asked for a move: {why}"),
        Reply::Fault(why) | Reply::Unfollowed(why) => why.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::seat::ScriptSeat;
    use crate::arena::tests::testgame::Race;

    /// A seat whose program cannot start (a UT3 class that does not import).
    struct Broken;

    impl Seat<Race> for Broken {
        fn start(&mut self, _: &Start) -> Result<(), Reply> {
            Err(Reply::Crashed("exit status 1".into()))
        }
        fn request(&mut self, _: &Race, _: Option<&str>, _: Option<Duration>) -> Reply {
            Reply::Broken("never started".into())
        }
    }

    fn game(a: &mut dyn Seat<Race>, b: &mut dyn Seat<Race>) -> GameRecord {
        let who = Match {
            players: ["a".into(), "b".into()],
            seed: 3,
        };
        play(
            Race::new(),
            [a, b],
            &who,
            &Policy::default(),
            &mut |_, _| {},
        )
    }

    #[test]
    fn when_neither_side_can_start_both_lose() {
        let r = game(&mut Broken, &mut Broken);
        assert_eq!(r.result, GameResult::BothLost);
        assert_eq!(r.ending, Ending::Fault);
        assert!(r.moves.is_empty());
        assert_eq!(r.winner(), None);
        assert!(r.lost(0) && r.lost(1));
        assert_eq!(
            r.summary(),
            "x (a) and o (b) both lose: x failed to start: crashed (exit status 1); \
             o failed to start: crashed (exit status 1)"
        );
        let json = serde_json::to_string(&r).unwrap();
        assert!(json.contains(r#""result":"both-lost""#), "{json}");
        let back: GameRecord = serde_json::from_str(&json).unwrap();
        assert_eq!(back, r);
    }

    #[test]
    fn when_one_side_cannot_start_the_other_wins() {
        let mut playing = ScriptSeat::new(vec![Reply::Line("1".into())]);
        let r = game(&mut Broken, &mut playing);
        assert_eq!(r.result, GameResult::Win(1));
        assert_eq!(r.reason, "x failed to start: crashed (exit status 1)");
        let mut playing = ScriptSeat::new(vec![Reply::Line("1".into())]);
        let r = game(&mut playing, &mut Broken);
        assert_eq!(r.result, GameResult::Win(0));
        assert_eq!(r.reason, "o failed to start: crashed (exit status 1)");
    }
}
