//! The class page's similarity section: the most similar pairs and the path-dependent submissions,
//! read from the `similarity.csv` that `grader similarity` wrote in the results folder.

use std::fmt::Write as _;
use std::path::Path;

use super::{esc, url_segment};

/// The file `grader similarity` writes in a suite's results folder.
pub const FILE: &str = "similarity.csv";
/// The most bytes of the CSV read: it is a file in a folder a run wrote, so untrusted.
const CAP: u64 = 4 << 20;
/// The most pairs the page lists (the CSV holds them all).
pub const TOP: usize = 20;

/// One row of the CSV, as written: `kind,student,other,similarity,longest-fragment,detail`.
#[derive(Debug, serde::Deserialize)]
struct Row {
    kind: String,
    student: String,
    other: String,
    similarity: String,
    #[serde(rename = "longest-fragment")]
    longest: String,
    detail: String,
}

/// The section for `dir/similarity.csv`: empty when there is no such file; a line saying why when
/// it cannot be read.
#[must_use]
pub fn section(dir: &Path) -> String {
    let path = dir.join(FILE);
    if !path.exists() && !path.is_symlink() {
        return String::new();
    }
    let read = match crate::untrusted::read_output(dir, Path::new(FILE), CAP) {
        Ok(read) => read,
        Err(e) => return unreadable(&e.to_string()),
    };
    if read.truncated {
        return unreadable(&format!("`{FILE}` is larger than {CAP} bytes"));
    }
    let rows: Result<Vec<Row>, _> = csv::Reader::from_reader(&read.bytes[..])
        .deserialize()
        .collect();
    match rows {
        Ok(rows) => render(&rows),
        Err(e) => unreadable(&format!("`{FILE}`: {e}")),
    }
}

fn unreadable(why: &str) -> String {
    format!(
        "<h2 id=\"similarity\">Similarity</h2>\n<p class=\"bad\">cannot show the similarity: {}</p>\n",
        esc(why)
    )
}

fn render(rows: &[Row]) -> String {
    let pairs: Vec<&Row> = rows.iter().filter(|r| r.kind == "pair").collect();
    let flagged: Vec<&Row> = rows.iter().filter(|r| r.kind == "path-dependent").collect();
    let left_out: Vec<&Row> = rows.iter().filter(|r| r.kind == "not-compared").collect();
    let mut b = String::from("<h2 id=\"similarity\">Similarity</h2>\n");
    let _ = writeln!(
        b,
        "<p>{} pairs of students compared by Dolos, the most similar first · <a href=\"{FILE}\">{FILE}</a></p>",
        pairs.len()
    );
    if !pairs.is_empty() {
        b.push_str("<table class=\"similar\"><thead><tr><th class=\"n\">rank</th><th>students</th><th class=\"n\">similarity</th><th class=\"n\">longest shared fragment</th><th>files</th></tr></thead><tbody>\n");
        for (k, p) in pairs.iter().take(TOP).enumerate() {
            let _ = writeln!(
                b,
                "<tr><td class=\"n\">{}</td><td>{} ~ {}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td><code>{}</code></td></tr>",
                k + 1,
                student(&p.student),
                student(&p.other),
                esc(&p.similarity),
                esc(&p.longest),
                esc(&p.detail)
            );
        }
        b.push_str("</tbody></table>\n");
        if pairs.len() > TOP {
            let _ = writeln!(
                b,
                "<p class=\"mute\">{} more pairs in <a href=\"{FILE}\">{FILE}</a></p>",
                pairs.len() - TOP
            );
        }
    }
    if !left_out.is_empty() {
        b.push_str("<h3>Not compared</h3>\n<ul class=\"not-compared\">\n");
        for f in left_out {
            let _ = writeln!(
                b,
                "<li>{}: not compared: {}</li>",
                student(&f.student),
                esc(&f.detail)
            );
        }
        b.push_str("</ul>\n");
    }
    if !flagged.is_empty() {
        b.push_str("<h3>Output that depended on its path</h3>\n<ul class=\"path-dependent\">\n");
        for f in flagged {
            let _ = writeln!(b, "<li>{}: {}</li>", student(&f.student), esc(&f.detail));
        }
        b.push_str("</ul>\n");
    }
    b
}

/// A student's name, linked to their page.
fn student(key: &str) -> String {
    format!(
        "<a href=\"{}/report.html\">{}</a>",
        url_segment(key),
        esc(key)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairs_are_ranked_escaped_and_capped_and_a_bad_file_is_named() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(section(dir.path()), "");
        let mut csv = String::from("kind,student,other,similarity,longest-fragment,detail\n");
        for k in 0..TOP + 3 {
            csv.push_str(&format!("pair,s{k},<b>t{k},{}.0%,{k},a.c ~ b.c\n", 99 - k));
        }
        csv.push_str("not-compared,bo,,,,\"deep.c: Dolos cannot read it: RangeError\"\n");
        csv.push_str("path-dependent,ann,,,,\"printed `/tmp/x` \x1b[2J\"\n");
        std::fs::write(dir.path().join(FILE), csv).unwrap();
        let html = section(dir.path());
        assert!(html.contains("<td class=\"n\">1</td><td><a href=\"s0/report.html\">s0</a> ~ <a href=\"%3Cb%3Et0/report.html\">&lt;b&gt;t0</a></td><td class=\"n\">99.0%</td>"), "{html}");
        assert_eq!(html.matches("<tr><td class=\"n\">").count(), TOP);
        assert!(html.contains("3 more pairs"), "{html}");
        assert!(
            html.contains("<li><a href=\"ann/report.html\">ann</a>: printed"),
            "{html}"
        );
        assert!(
            html.contains("<li><a href=\"bo/report.html\">bo</a>: not compared: deep.c: Dolos cannot read it: RangeError</li>"),
            "{html}"
        );
        assert!(!html.contains('\x1b') && !html.contains("<b>"), "{html}");
        std::fs::write(dir.path().join(FILE), "kind,student\npair\n").unwrap();
        assert!(section(dir.path()).contains("cannot show the similarity: `similarity.csv`"));
    }
}
