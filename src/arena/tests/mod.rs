//! The referee against scripted seats: every outcome, under each policy.

mod dialogue;
mod game;
mod proc;
pub(crate) mod testgame;
mod waiting;

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use crate::arena::game::record::{Ending, GameResult};
use crate::arena::referee::{play, IllegalPolicy, Match, Policy};
use crate::arena::seat::{Reply, ScriptSeat, Seat};
use crate::arena::tests::testgame::Race;
use crate::sandbox::{Spec, Stdin};

/// The real `basic` tier: what `grader play` uses.
fn basic() -> Arc<dyn crate::sandbox::Sandbox> {
    Arc::from(crate::sandbox::select(crate::sandbox::Tier::Basic, &[]).expect("the basic sandbox"))
}

/// `/bin/sh dir/name args…` with piped or null stdin, after writing `text` to `dir/name`; limits so
/// generous that a loaded machine cannot trip them.
fn sh_program(dir: &Path, name: &str, text: &str, args: &[&str], stdin: Stdin) -> Spec {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    Spec {
        program: "/bin/sh".into(),
        args: std::iter::once(path.into_os_string())
            .chain(args.iter().map(Into::into))
            .collect(),
        workdir: dir.to_path_buf(),
        env: Vec::new(),
        stdin,
        limits: crate::sandbox::Limits {
            cpu: Duration::from_secs(60),
            wall: Duration::from_secs(60),
            memory: 1 << 30,
            output: 1 << 20,
            file_size: 1 << 20,
            processes: 64,
            open_files: 64,
            stack: 8 << 20,
            address_space: None,
            idle: None,
        },
        read_only: Vec::new(),
    }
}

fn line(s: &str) -> Reply {
    Reply::Line(s.to_string())
}

fn run(a: Vec<Reply>, b: Vec<Reply>, policy: &Policy) -> crate::arena::game::record::GameRecord {
    let mut a = ScriptSeat::new(a);
    let mut b = ScriptSeat::new(b);
    let seats: [&mut dyn Seat<Race>; 2] = [&mut a, &mut b];
    let who = Match {
        players: ["a".into(), "b".into()],
        seed: 7,
    };
    play(Race::new(), seats, &who, policy, &mut |_, _| {})
}

#[test]
fn a_clean_game_is_won_by_the_rules_and_recorded_move_by_move() {
    let r = run(vec![line("2")], vec![line("1")], &Policy::default());
    // 2,1,2,1,2,1,2 → 11 after x's fourth move (turn 7).
    assert_eq!(r.result, GameResult::Win(0));
    assert_eq!(r.ending, Ending::Rules);
    assert_eq!(r.moves.len(), 7);
    assert_eq!(r.moves[6].state, "11");
    assert_eq!(r.moves[1].side, 1);
    assert_eq!(r.final_state, "11");
    assert_eq!(r.reason, "x wins by the rules");
}

#[test]
fn an_illegal_move_loses_under_the_lose_policy() {
    let r = run(vec![line("2")], vec![line("7")], &Policy::default());
    assert_eq!(r.result, GameResult::Win(0));
    assert_eq!(r.ending, Ending::Fault);
    assert_eq!(r.reason, "o sent `7`: `7` is more than 2 on move 2");
}

#[test]
fn a_malformed_move_is_forfeited_under_the_forfeit_policy() {
    let policy = Policy {
        illegal: IllegalPolicy::Forfeit,
        ..Policy::default()
    };
    let r = run(vec![line("2")], vec![line("zz")], &policy);
    assert_eq!(r.result, GameResult::Win(0));
    assert_eq!(r.ending, Ending::Rules);
    assert_eq!(r.moves[1].applied, "0");
    assert_eq!(r.moves[1].sent, "zz");
    assert!(r.moves[1]
        .forfeited
        .as_deref()
        .unwrap()
        .contains("expected 1 or 2"));
}

#[test]
fn each_fault_loses_with_its_own_reason() {
    let cases = [
        // The time is the script's own, a microsecond or two on a busy machine: only the words around it.
        (
            Reply::Timeout,
            "o timed out after * (limit 1.00 s + 50 ms margin) on move 2",
        ),
        (
            Reply::Crashed("signal 11".into()),
            "o crashed (signal 11) on move 2",
        ),
        (
            Reply::ClosedPipe,
            "o closed its pipe without a move on move 2",
        ),
        (Reply::Flood(1 << 20), "o flooded its output (1048576 bytes"),
        (
            Reply::Garbage,
            "o sent bytes that are not UTF-8 text on move 2",
        ),
    ];
    for (fault, reason) in cases {
        let r = run(vec![line("1")], vec![fault], &Policy::default());
        assert_eq!(r.result, GameResult::Win(0), "{reason}");
        assert_eq!(r.ending, Ending::Fault);
        let (before, after) = reason.split_once('*').unwrap_or((reason, ""));
        assert!(r.reason.starts_with(before), "{} vs {reason}", r.reason);
        assert!(r.reason.contains(after), "{} vs {reason}", r.reason);
    }
}

#[test]
fn the_move_cap_adjudicates_a_draw_with_the_tie_break() {
    let policy = Policy {
        move_cap: Some(3),
        ..Policy::default()
    };
    // 1 + 1 + 1 = 3 (odd) → the test game's tie-break favours o.
    let r = run(vec![line("1")], vec![line("1")], &policy);
    assert_eq!(r.ending, Ending::MoveCap);
    assert_eq!(r.result, GameResult::Draw { edge: Some(1) });
    assert_eq!(r.moves.len(), 3);
    assert!(r.reason.contains("3-move cap"));
}

#[test]
fn a_slow_in_process_reply_is_a_timeout() {
    struct Slow;
    impl Seat<Race> for Slow {
        fn start(&mut self, _: &crate::arena::seat::Start) -> Result<(), Reply> {
            Ok(())
        }
        fn request(&mut self, _: &Race, _: Option<&str>, _: Option<Duration>) -> Reply {
            std::thread::sleep(Duration::from_millis(30));
            Reply::Line("1".into())
        }
    }
    let policy = Policy {
        limit: Some(Duration::from_millis(5)),
        margin: Duration::from_millis(5),
        ..Policy::default()
    };
    let mut a = ScriptSeat::new(vec![line("1")]);
    let mut b = Slow;
    let who = Match {
        players: ["a".into(), "slow".into()],
        seed: 1,
    };
    let r = play(Race::new(), [&mut a, &mut b], &who, &policy, &mut |_, _| {});
    assert_eq!(r.result, GameResult::Win(0));
    assert!(r.reason.starts_with("o timed out"), "{}", r.reason);
}

#[test]
fn records_round_trip_through_json() {
    let r = run(vec![line("2")], vec![line("zz")], &Policy::default());
    let json = serde_json::to_string_pretty(&r).unwrap();
    let back: crate::arena::game::record::GameRecord = serde_json::from_str(&json).unwrap();
    assert_eq!(back, r);
    assert!(json.contains("\"final\": \"2\""), "{json}");
}

/// Random players for the test game, seeded per game.
struct RandomMaker;

impl crate::arena::event::schedule::SeatMaker<Race> for RandomMaker {
    fn seat(&self, who: usize, seed: u64) -> Box<dyn Seat<Race>> {
        let mut rng = reference::rng::Rng::new(seed ^ who as u64);
        // Entrant 0 plays perfectly (leave a total of 1 mod 3), so it should top the table.
        Box::new(crate::arena::seat::FnSeat::new(move |state: &Race| {
            if who == 0 {
                if (state.total + 2) % 3 == 1 {
                    2
                } else {
                    1
                }
            } else {
                1 + rng.below(2) as u32
            }
        }))
    }
}

/// Three games a pairing of six random players (`p0` the strongest), seed 11, no knockout.
fn tournament(
    jobs: usize,
    stages: &[crate::arena::event::schedule::Stage],
) -> crate::arena::event::schedule::Results {
    six_players(3, 11, jobs, stages, false)
}

/// Players `p0`..`p5` of [`RandomMaker`] through a tournament of this shape, with no time limit.
fn six_players(
    games: u32,
    seed: u64,
    jobs: usize,
    stages: &[crate::arena::event::schedule::Stage],
    knockout: bool,
) -> crate::arena::event::schedule::Results {
    six_in_sections(games, seed, jobs, stages, knockout, None)
}

/// As [`six_players`], each player in the section `sections` gives.
fn six_in_sections(
    games: u32,
    seed: u64,
    jobs: usize,
    stages: &[crate::arena::event::schedule::Stage],
    knockout: bool,
    sections: Option<&[String]>,
) -> crate::arena::event::schedule::Results {
    let six = Six::new();
    let plan = crate::arena::event::schedule::Plan {
        games,
        seed,
        stages,
        knockout,
        sections,
        ..six.plan(jobs)
    };
    crate::arena::event::schedule::run(&Race::new(), &plan, &RandomMaker, &|_, _, _, _| {})
}

/// Six players `p0`..`p5` with no time limit.
struct Six {
    names: Vec<String>,
    policy: Policy,
}

impl Six {
    fn new() -> Six {
        Six {
            names: (0..6).map(|i| format!("p{i}")).collect(),
            policy: Policy {
                limit: None,
                ..Policy::default()
            },
        }
    }

    /// One round robin of one game a pairing with each colour, seed 5, on `jobs` threads.
    fn plan(&self, jobs: usize) -> crate::arena::event::schedule::Plan<'_> {
        crate::arena::event::schedule::Plan {
            names: &self.names,
            games: 1,
            seed: 5,
            jobs,
            stages: &[],
            knockout: false,
            scoring: crate::arena::event::standings::Scoring::STANDARD,
            policy: &self.policy,
            sections: None,
            slots: None,
        }
    }
}

#[test]
fn a_tournament_is_the_same_for_any_number_of_jobs() {
    let one = tournament(1, &[]);
    let three = tournament(3, &[]);
    assert_eq!(one.stages.len(), 1);
    let plain = |r: &crate::arena::event::schedule::Results| -> Vec<_> {
        r.stages
            .iter()
            .flat_map(|s| {
                s.records
                    .iter()
                    .map(crate::arena::game::record::GameRecord::without_timings)
            })
            .collect()
    };
    assert!(
        plain(&one) == plain(&three),
        "records differ between 1 and 3 jobs"
    );
    assert_eq!(one.stages[0].rows, three.stages[0].rows);
    assert_eq!(one.stages[0].records.len(), 15 * 6);
    let top = &one.stages[0].rows[0];
    assert_eq!(
        top.name,
        "p0",
        "{}",
        crate::report::tournament::standings_table(&one.stages[0].rows)
    );
    assert!(top.elo > 1500.0);
}

#[test]
fn a_staged_tournament_advances_the_top_of_each_group() {
    let stages = [crate::arena::event::schedule::Stage {
        groups: 2,
        advance: 2,
        sections: false,
    }];
    let r = tournament(2, &stages);
    assert_eq!(r.stages.len(), 3);
    assert_eq!(r.stages[0].rows.len(), 3);
    let finalists: Vec<&str> = r.stages[2].rows.iter().map(|x| x.name.as_str()).collect();
    assert_eq!(finalists.len(), 4);
    assert!(finalists.contains(&"p0"));
    for g in &r.stages[..2] {
        for row in &g.rows[..2] {
            assert!(finalists.contains(&row.name.as_str()));
        }
    }
    let again = tournament(1, &stages);
    let plain = |r: &crate::arena::event::schedule::Results| -> Vec<_> {
        r.stages[2]
            .records
            .iter()
            .map(crate::arena::game::record::GameRecord::without_timings)
            .collect()
    };
    assert!(
        plain(&again) == plain(&r),
        "the final differs between 1 and 2 jobs"
    );
}

#[test]
fn a_knockout_halves_the_field_each_round_and_the_best_player_wins() {
    let r = six_players(2, 5, 2, &[], true);
    // 6 → 4 (the top two seeds wait, two pairings), 4 → 2 (the semi-finals), 2 → 1.
    let names: Vec<&str> = r.stages.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(
        names,
        ["knockout round 1", "knockout round 2", "knockout final"]
    );
    assert_eq!(r.stages[0].records.len(), 2 * 4);
    assert_eq!(r.stages[1].records.len(), 2 * 4);
    assert_eq!(r.stages[2].records.len(), 4);
    assert_eq!(r.champion.as_deref(), Some("p0"));
}

/// Super-Tic-Tac-Toe's bonus table (000:23) with two sections of three: a round robin in each section
/// (played although it eliminates no one: its top four earn 10), then the all-class knockout, whose
/// top two seeds wait for the semi-finals: 40 for the winner, 30 the finalist, 20 each other
/// semi-finalist, 10 each other section qualifier.
#[test]
fn two_sections_of_three_give_the_handouts_table_to_every_entrant() {
    use crate::arena::config::Marks;
    use crate::arena::event::schedule::Stage;
    let sections: Vec<String> = ["A", "B", "A", "B", "A", "B"]
        .iter()
        .map(ToString::to_string)
        .collect();
    let stages = [Stage {
        groups: 1,
        advance: 4,
        sections: true,
    }];
    let r = six_in_sections(1, 5, 2, &stages, true, Some(&sections));
    let names: Vec<&str> = r.stages.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "section A",
            "section B",
            "knockout round 1",
            "knockout round 2",
            "knockout final"
        ]
    );
    let in_a: Vec<&str> = r.stages[0].rows.iter().map(|x| x.name.as_str()).collect();
    assert_eq!(in_a.len(), 3);
    assert!(
        in_a.iter().all(|n| ["p0", "p2", "p4"].contains(n)),
        "{in_a:?}"
    );
    let marks = Marks {
        by_rank: vec![40.0, 30.0, 20.0, 20.0],
        rest: 0.0,
        all_faults: None,
        gate: None,
        bonus: true,
        qualified: Some(10.0),
    };
    let placed = crate::arena::event::ranking::overall(&r, Some(&marks));
    let got: Vec<f64> = placed.iter().filter_map(|p| p.marks).collect();
    assert_eq!(got, [40.0, 30.0, 20.0, 20.0, 10.0, 10.0]);
    assert_eq!(placed[0].row.name, r.champion.clone().unwrap());
    // The semi-finalists are the four of the knockout's second round.
    let semis: Vec<&str> = r.stages[3].rows.iter().map(|x| x.name.as_str()).collect();
    for p in &placed[..4] {
        assert!(semis.contains(&p.row.name.as_str()), "{semis:?}");
    }
}

#[test]
fn a_stage_that_could_eliminate_no_one_is_skipped() {
    use crate::arena::event::schedule::Stage;
    // Six players: the seed's 10 pools → top 3 would advance everyone, so it is skipped; 2 groups of 3
    // → top 2 still eliminates two.
    let stages = [
        Stage {
            groups: 10,
            advance: 3,
            sections: false,
        },
        Stage {
            groups: 2,
            advance: 2,
            sections: false,
        },
    ];
    let r = tournament(2, &stages);
    let names: Vec<&str> = r.stages.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["stage 2 group 1", "stage 2 group 2", "final"]);
    assert_eq!(r.stages[2].rows.len(), 4);
    assert_eq!(
        r.stages.iter().map(|s| s.level).collect::<Vec<_>>(),
        [2, 2, 3]
    );
    // Nothing left to eliminate at all: one round robin of everyone, still called the final.
    let r = tournament(1, &stages[..1]);
    assert_eq!(r.stages.len(), 1);
    assert_eq!(r.stages[0].name, "final");
    assert_eq!(r.stages[0].rows.len(), 6);
}

#[test]
fn bots_name_moves_while_programs_reply_with_states() {
    use crate::arena::seat::FnSeat;
    use crate::arena::seat::ReplyForm;
    use reference::games::tmmorris::Morris;
    use reference::Game;

    let policy = Policy {
        reply: ReplyForm::State,
        move_cap: Some(4),
        ..Policy::default()
    };
    let mut bot = FnSeat::<Morris>::new(|g: &Morris| g.moves()[0]);
    let mut program = ScriptSeat::new(vec![line("xo-------"), line("xox-o----")]);
    let seats: [&mut dyn Seat<Morris>; 2] = [&mut bot, &mut program];
    let who = Match {
        players: ["first".into(), "program".into()],
        seed: 7,
    };
    let r = play(Morris::new(), seats, &who, &policy, &mut |_, _| {});
    assert_eq!(r.ending, Ending::MoveCap, "{}", r.reason);
    assert_eq!(r.moves[0].sent, "0");
    assert_eq!(r.moves[3].sent, "xox-o----");
    assert_eq!(r.final_state, "xox-o----");
}

#[test]
fn an_empty_reply_is_printing_nothing_in_either_form() {
    // Not "`` is not a move": the side printed nothing, as position cases say, and what it was asked.
    let r = run(vec![line("2")], vec![line("  ")], &Policy::default());
    assert_eq!(r.ending, Ending::Fault);
    assert_eq!(r.reason, "o printed nothing on move 2 (asked for its move)");
    let policy = Policy {
        reply: crate::arena::seat::ReplyForm::State,
        ..Policy::default()
    };
    let r = run(vec![line("2")], vec![line("")], &policy);
    assert_eq!(
        r.reason,
        "o printed nothing on move 2 (asked for the board after its move)"
    );
    let policy = Policy {
        illegal: IllegalPolicy::Forfeit,
        ..Policy::default()
    };
    let r = run(vec![line("2")], vec![line("")], &policy);
    assert_eq!(r.moves[1].forfeited.as_deref(), Some("nothing"));
}

/// Random players (as [`RandomMaker`]) that count the seats alive at once and sleep a little on
/// every move, so that games overlap whenever the schedule lets them.
struct CountingMaker {
    live: Arc<std::sync::atomic::AtomicUsize>,
    most: Arc<std::sync::atomic::AtomicUsize>,
}

/// One seat alive: counted while it lives.
struct Alive(Arc<std::sync::atomic::AtomicUsize>);

impl Drop for Alive {
    fn drop(&mut self) {
        self.0.fetch_sub(1, std::sync::atomic::Ordering::SeqCst);
    }
}

impl crate::arena::event::schedule::SeatMaker<Race> for CountingMaker {
    fn seat(&self, who: usize, seed: u64) -> Box<dyn Seat<Race>> {
        use std::sync::atomic::Ordering::SeqCst;
        let now = self.live.fetch_add(1, SeqCst) + 1;
        self.most.fetch_max(now, SeqCst);
        let alive = Alive(Arc::clone(&self.live));
        let mut rng = reference::rng::Rng::new(seed ^ who as u64);
        Box::new(crate::arena::seat::FnSeat::new(move |_: &Race| {
            let _ = &alive;
            std::thread::sleep(std::time::Duration::from_millis(2));
            1 + rng.below(2) as u32
        }))
    }
}

/// The most seats alive at once over a round robin of six with two game threads, each game holding
/// one of `slots` when given.
fn most_seats_at_once(slots: Option<&Arc<crate::sandbox::pace::Cores>>) -> usize {
    let six = Six::new();
    let plan = crate::arena::event::schedule::Plan {
        slots,
        ..six.plan(2)
    };
    let maker = CountingMaker {
        live: Arc::default(),
        most: Arc::default(),
    };
    crate::arena::event::schedule::run(&Race::new(), &plan, &maker, &|_, _, _, _| {});
    maker.most.load(std::sync::atomic::Ordering::SeqCst)
}

/// A class tournament `grader run` plays while other classes grade shares their slots: two game
/// threads with one slot play one game at a time (its two seats), and two at once without it.
#[test]
fn each_game_holds_one_of_the_runs_slots() {
    let one = crate::sandbox::pace::Cores::new(1, 0);
    assert_eq!(most_seats_at_once(Some(&one)), 2);
    assert_eq!(one.free(), 1, "every slot is given back");
    assert!(most_seats_at_once(None) > 2, "without slots, games overlap");
}
