//! One game's replay as a page section: the final board drawn in SVG and the move list as static
//! HTML, every position as frames the script steps through, and the result or fault at the end.

use std::fmt::Write as _;

use super::{entities, esc, svg};
use crate::arena::analysis::TurningPoint;
use crate::arena::game::record::{seconds, Ending, GameRecord};
use crate::arena::game::registry::{dispatch, MakeBot, Visitor};
use crate::arena::game::replay::positions;
use crate::arena::game::rules::shown;
use crate::arena::game::ArenaGame;

/// The section replaying `record`, with HTML id `id` (ids of the board and its title derive from it)
/// under the heading `heading`. A record the rules refuse keeps its move list and says why it
/// cannot be drawn.
#[must_use]
pub fn section(record: &GameRecord, id: &str, heading: &str) -> String {
    marked(record, id, heading, None)
}

/// [`section`] with the game's turning point for the side analysed (from `result.json`) marked in
/// the move list and said in a line under it.
#[must_use]
pub fn marked(record: &GameRecord, id: &str, heading: &str, turn: Option<&TurningPoint>) -> String {
    let v = Section {
        record,
        id,
        heading,
        turn,
    };
    dispatch(&record.game, v).unwrap_or_else(|e| {
        let why = format!("{e:#}");
        shell(record, id, heading, None, &why.replace('\n', " "), turn)
    })
}

/// A page of one game (`grader play --replay FILE --html OUT`), titled by the record's file name.
#[must_use]
pub fn game_page(record: &GameRecord, file: &std::path::Path) -> String {
    let name = file
        .file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
    let body = format!(
        "<h1>{} <span class=\"mute\">· {}</span></h1>\n{}",
        esc(shown(&record.game)),
        esc(&name),
        section(record, "game-1", &record.summary())
    );
    super::page(&format!("{} · {name}", shown(&record.game)), &body)
}

struct Section<'a> {
    record: &'a GameRecord,
    id: &'a str,
    heading: &'a str,
    turn: Option<&'a TurningPoint>,
}

/// What the script steps through: each position's marks, shades, text alternative and changed cells.
struct Drawn {
    frames: String,
    board: String,
    moves: usize,
}

impl Visitor for Section<'_> {
    type Out = String;

    fn visit<G: ArenaGame>(self, initial: G, _bots: MakeBot<G>) -> String {
        let r = self.record;
        let states = match positions(initial, r) {
            Ok(s) => s,
            Err(e) => {
                let why = format!("cannot replay this record: {e:#}");
                return shell(r, self.id, self.heading, None, &why, self.turn);
            }
        };
        let pictures: Vec<_> = states.iter().map(ArenaGame::picture).collect();
        let titles: Vec<String> = states
            .iter()
            .enumerate()
            .map(|(k, s)| {
                let board = s.render().replace('\n', " / ");
                match k.checked_sub(1).and_then(|m| r.moves.get(m)) {
                    None => format!("{} board at the start: {board}", shown(&r.game)),
                    Some(m) => format!(
                        "{} board after move {k}, {} plays {}: {board}",
                        shown(&r.game),
                        r.colours.get(m.side).map_or("?", String::as_str),
                        crate::untrusted::one_line(&m.applied, 40)
                    ),
                }
            })
            .collect();
        let lasts: Vec<Vec<usize>> = pictures
            .iter()
            .enumerate()
            .map(|(k, p)| match k.checked_sub(1) {
                None => Vec::new(),
                Some(before) => {
                    let prev: Vec<char> = pictures[before].marks().chars().collect();
                    p.marks()
                        .chars()
                        .enumerate()
                        .filter(|&(i, c)| prev.get(i) != Some(&c))
                        .map(|(i, _)| i)
                        .collect()
                }
            })
            .collect();
        let frames = serde_json::json!({
            "m": pictures.iter().map(|p| p.marks()).collect::<Vec<_>>(),
            "s": pictures.iter().map(|p| p.shades()).collect::<Vec<_>>(),
            "t": titles,
            "l": lasts,
        });
        let end = pictures.len() - 1;
        let drawn = Drawn {
            frames: entities(&frames.to_string()),
            board: svg::board(
                &pictures[end],
                &format!("{}-board", self.id),
                &titles[end],
                &lasts[end],
            ),
            moves: r.moves.len(),
        };
        shell(r, self.id, self.heading, Some(&drawn), "", self.turn)
    }
}

/// The section around a drawn board (or, without one, the reason none could be drawn).
fn shell(
    r: &GameRecord,
    id: &str,
    heading: &str,
    drawn: Option<&Drawn>,
    why: &str,
    turn: Option<&TurningPoint>,
) -> String {
    let mut out = format!("<section class=\"game\" id=\"{}\" tabindex=\"0\"", esc(id));
    if let Some(d) = drawn {
        let _ = write!(out, " data-frames=\"{}\"", d.frames);
    }
    let _ = write!(
        out,
        " aria-label=\"{0}\">\n<h3>{0}</h3>\n<p>{1} {2} · {3} {4} · seed {5}</p>\n<div class=\"play\">\n<div>\n",
        esc(heading),
        esc(&r.colours[0]),
        esc(&r.players[0]),
        esc(&r.colours[1]),
        esc(&r.players[1]),
        r.seed
    );
    match drawn {
        Some(d) => {
            let _ = write!(
                out,
                "{}\n<div class=\"controls\" hidden>\
                 <button type=\"button\" data-go=\"first\" aria-label=\"first position\">«</button>\
                 <button type=\"button\" data-go=\"prev\" aria-label=\"previous move\">◀</button>\
                 <button type=\"button\" data-go=\"next\" aria-label=\"next move\">▶</button>\
                 <button type=\"button\" data-go=\"last\" aria-label=\"last position\">»</button></div>\n\
                 <p><output class=\"counter\" aria-live=\"polite\">move <span class=\"k\">{1}</span> of {1}</output> \
                 <span class=\"mute\">(focus the game, then ← → Home End)</span></p>\n",
                d.board, d.moves
            );
        }
        None => {
            let _ = writeln!(out, "<p class=\"bad\">{}</p>", esc(why));
        }
    }
    out.push_str("</div>\n<ol class=\"moves\">\n");
    move_list(&mut out, r, turn.map(|t| t.ply));
    let fault = if r.ending == Ending::Fault {
        " fault"
    } else {
        ""
    };
    out.push_str("</ol>\n</div>\n");
    if let Some(t) = turn {
        let _ = writeln!(
            out,
            "<p class=\"turn\">The game turned on {}</p>",
            esc(&t.sentence())
        );
    }
    let _ = writeln!(out, "<p class=\"end{fault}\">{}</p>", esc(&r.summary()));
    for n in &r.notes {
        let _ = writeln!(out, "<p class=\"mute\">{}</p>", esc(n));
    }
    dialogues(&mut out, r);
    out.push_str("</section>\n");
    out
}

/// The moves, one item each: who played what, what was sent when it differs, a forfeit, the time.
fn move_list(out: &mut String, r: &GameRecord, turned: Option<usize>) {
    for (k, m) in r.moves.iter().enumerate() {
        let who = r.colours.get(m.side).map_or("?", String::as_str);
        let class = if turned == Some(k + 1) {
            " class=\"turn\""
        } else {
            ""
        };
        let _ = write!(
            out,
            "<li{class}>{} plays <code>{}</code>",
            esc(who),
            esc(&m.applied)
        );
        if turned == Some(k + 1) {
            out.push_str(" <strong>the turning point</strong>");
        }
        if m.sent != m.applied {
            let _ = write!(
                out,
                " (sent <code>{}</code>)",
                esc(&crate::untrusted::one_line(&m.sent, 200))
            );
        }
        if let Some(w) = &m.forfeited {
            let _ = write!(out, " <span class=\"bad\">forfeited: {}</span>", esc(w));
        }
        let _ = writeln!(
            out,
            " <span class=\"mute t\">{}</span></li>",
            esc(&seconds(std::time::Duration::from_micros(m.micros)))
        );
    }
}

/// Each side's dialogue transcript (open when the game waits for review) and last lines on stderr.
fn dialogues(out: &mut String, r: &GameRecord) {
    for (side, text) in r.transcripts.iter().enumerate() {
        if let Some(text) = text {
            let who = r.colours.get(side).map_or("?", String::as_str);
            let open = if r.ending == Ending::Review {
                " open"
            } else {
                ""
            };
            let _ = writeln!(
                out,
                "<details{open}><summary>{}'s dialogue (lines the grader typed start with <code>→</code>)</summary><pre class=\"transcript\">{}</pre></details>",
                esc(who),
                super::entities(&crate::untrusted::block(text, crate::report::result::TRANSCRIPT_CAP))
            );
        }
    }
    for (side, text) in r.stderr.iter().enumerate() {
        if let Some(text) = text {
            let who = r.colours.get(side).map_or("?", String::as_str);
            let _ = writeln!(
                out,
                "<details><summary>{}'s last lines on stderr</summary><pre>{}</pre></details>",
                esc(who),
                esc(text)
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::game::record::{GameResult, MoveRecord};

    fn game() -> GameRecord {
        let mut r = crate::arena::game::record::fixtures::tictactoe(
            GameResult::Win(1),
            Ending::Fault,
            "x sent `<b>\u{1b}[2J`",
        );
        r.moves.push(MoveRecord {
            side: 0,
            sent: "4".into(),
            applied: "4".into(),
            micros: 1500,
            state: "----x----".into(),
            forfeited: None,
        });
        r.final_state = "----x----".into();
        r
    }

    #[test]
    fn a_replay_draws_every_position_and_escapes_what_a_program_sent() {
        let html = section(&game(), "g1", "vs-random 1");
        assert!(
            html.contains("data-frames=\"{&quot;l&quot;:[[],[4]]"),
            "{html}"
        );
        assert!(
            html.contains("move <span class=\"k\">1</span> of 1"),
            "{html}"
        );
        assert!(html.contains("<title id=\"g1-board-t\">tictactoe board after move 1, x plays 4"));
        assert!(html.contains("class=\"end fault\""), "{html}");
        assert!(!html.contains("<b>") && !html.contains('\u{1b}'), "{html}");
    }

    #[test]
    fn a_record_the_rules_refuse_keeps_its_moves_and_says_why() {
        let mut r = game();
        r.moves[0].state = "x--------".into();
        let html = section(&r, "g1", "bad");
        assert!(!html.contains("data-frames"), "{html}");
        assert!(
            html.contains("cannot replay this record: after move 1"),
            "{html}"
        );
        assert!(html.contains("<li>x plays <code>4</code>"), "{html}");
    }

    #[test]
    fn the_turning_point_is_marked_in_the_move_list_and_said_under_it() {
        let turn = TurningPoint {
            ply: 1,
            played: "4".into(),
            before: "drawn".into(),
            after: "lost".into(),
            better: vec!["<0>".into()],
            basis: "exact".into(),
            search: None,
        };
        let html = marked(&game(), "g1", "vs-random 1", Some(&turn));
        assert!(
            html.contains(
                "<li class=\"turn\">x plays <code>4</code> <strong>the turning point</strong>"
            ),
            "{html}"
        );
        assert!(
            html.contains("<p class=\"turn\">The game turned on move 1: `4` lost a drawn position; `&lt;0&gt;` held the draw</p>"),
            "{html}"
        );
        assert!(!section(&game(), "g1", "vs-random 1").contains("class=\"turn\""));
    }
}
