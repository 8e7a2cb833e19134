//! Boards as inline SVG: any game's [`Picture`] drawn the same way, each cell a group whose mark and
//! shade are attributes the replay script can change, with a `<title>` as its text alternative.

use std::fmt::Write as _;

use super::esc;
use crate::arena::game::picture::Picture;

/// One cell's side, in SVG units.
const CELL: f32 = 40.0;
/// The margin around the board.
const PAD: f32 = 4.0;

/// `p` as an `<svg>` with id `id`, its `<title>` reading `title`, and the cells of `last` outlined.
#[must_use]
pub fn board(p: &Picture, id: &str, title: &str, last: &[usize]) -> String {
    let (w, h) = (
        p.width as f32 * CELL + 2.0 * PAD,
        p.height as f32 * CELL + 2.0 * PAD,
    );
    let mut out = format!(
        "<svg class=\"board\" id=\"{id}\" role=\"img\" aria-labelledby=\"{id}-t\" \
         viewBox=\"0 0 {w} {h}\" width=\"{w}\" height=\"{h}\" xmlns=\"http://www.w3.org/2000/svg\">\
         <title id=\"{id}-t\">{}</title>",
        esc(title)
    );
    let at = |v: f32| v * CELL + PAD;
    for &(a, b) in &p.links {
        if let (Some(a), Some(b)) = (p.cells.get(a), p.cells.get(b)) {
            let _ = write!(
                out,
                "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\"/>",
                at(a.x),
                at(a.y),
                at(b.x),
                at(b.y)
            );
        }
    }
    for (i, s) in p.cells.iter().enumerate() {
        let mark = if s.mark == ' ' {
            String::new()
        } else {
            esc(&s.mark.to_string())
        };
        let last = if last.contains(&i) { " last" } else { "" };
        let _ = write!(
            out,
            "<g class=\"c{last}\" data-m=\"{mark}\" data-s=\"{}\">",
            esc(&s.shade.code().to_string())
        );
        if p.round {
            let _ = write!(
                out,
                "<circle cx=\"{}\" cy=\"{}\" r=\"{}\"/>",
                at(s.x),
                at(s.y),
                CELL * 0.4
            );
        } else {
            let _ = write!(
                out,
                "<rect x=\"{}\" y=\"{}\" width=\"{CELL}\" height=\"{CELL}\"/>",
                at(s.x - 0.5),
                at(s.y - 0.5)
            );
        }
        let _ = write!(
            out,
            "<text x=\"{}\" y=\"{}\">{mark}</text></g>",
            at(s.x),
            at(s.y)
        );
    }
    if p.block > 0 {
        for k in (p.block..p.width).step_by(p.block) {
            let x = at(k as f32);
            let _ = write!(
                out,
                "<line class=\"rule\" x1=\"{x}\" y1=\"{PAD}\" x2=\"{x}\" y2=\"{}\"/>",
                h - PAD
            );
        }
        for k in (p.block..p.height).step_by(p.block) {
            let y = at(k as f32);
            let _ = write!(
                out,
                "<line class=\"rule\" x1=\"{PAD}\" y1=\"{y}\" x2=\"{}\" y2=\"{y}\"/>",
                w - PAD
            );
        }
    }
    out.push_str("</svg>");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::game::picture::Shade;

    #[test]
    fn a_board_has_a_title_a_group_per_cell_and_block_rules() {
        let p = Picture::grid(9, 3, |r, c| {
            if r == c {
                ('x', Shade::Won('x'))
            } else {
                (' ', Shade::Allowed)
            }
        });
        let svg = board(&p, "b1", "a <board>", &[0]);
        assert!(
            svg.contains("<title id=\"b1-t\">a &lt;board&gt;</title>"),
            "{svg}"
        );
        assert_eq!(svg.matches("<g class=\"c").count(), 81);
        assert_eq!(svg.matches("class=\"c last\"").count(), 1);
        assert_eq!(svg.matches("class=\"rule\"").count(), 4);
        assert_eq!(svg.matches("data-m=\"x\" data-s=\"x\"").count(), 9);
    }
}
