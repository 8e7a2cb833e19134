//! The HTML report: a real UT3 class run writes the class page and each student's page with game
//! replays, `grader report` rewrites them byte for byte, and headless Chromium runs the replay script.

use std::path::Path;

use crate::util::{grade_class, grader, read, repo, scratch};

/// A UT3 class of two from the shipped examples, graded with its tournament.
fn ut3_class(dir: &Path) -> std::path::PathBuf {
    let students = dir.join("students");
    for s in ["decent", "random-handout"] {
        let from = repo().join("examples/submissions/iiit-2015-ut3").join(s);
        let to = students.join(s);
        std::fs::create_dir_all(&to).unwrap();
        for f in std::fs::read_dir(&from).unwrap() {
            let f = f.unwrap();
            std::fs::copy(f.path(), to.join(f.file_name())).unwrap();
        }
    }
    grade_class(dir, &repo().join("suites/iiit-2015-ut3"), &students)
}

#[test]
fn a_class_run_writes_the_class_page_and_student_pages_that_report_rewrites_identically() {
    let dir = scratch();
    let results = ut3_class(dir.path());
    let index = read(&results.join("index.html"));
    assert!(index.contains("href=\"decent/report.html\""), "{index}");
    assert!(index.contains("<h2>Tournament: "), "{index}");
    assert!(index.contains("class=\"cross\""), "{index}");
    let page = read(&results.join("decent/report.html"));
    assert!(
        page.contains("<section class=\"game\" id=\"game-1\""),
        "{page}"
    );
    assert!(page.contains("data-frames=\""), "no replay frames");
    // Each board drawn is a game's last position: the cell of its last move holds that move's mark.
    let last = regex::Regex::new(
        r#"<g class="c last" data-m="([^"]*)"[^>]*>(?:<rect[^>]*/>)<text[^>]*>([^<]*)</text>"#,
    )
    .unwrap();
    let drawn: Vec<_> = last.captures_iter(&page).collect();
    assert_eq!(
        drawn.len(),
        page.matches("<svg class=\"board\"").count(),
        "{page}"
    );
    for c in drawn {
        assert!(
            ["x", "o"].contains(&&c[1]) && c[1] == c[2],
            "last move drawn as `{}`",
            &c[0]
        );
    }
    assert!(
        page.contains("data-s=\"+\""),
        "no allowed block highlighted"
    );
    assert!(
        !page.contains("<link") && !page.contains("src=\"http"),
        "a page fetches nothing"
    );
    assert!(page.len() < 1 << 20, "{} bytes", page.len());
    // Each turning point result.json gives is marked on its game's replay.
    let mut marked = 0;
    for student in ["decent", "random-handout"] {
        let result = read(&results.join(student).join("result.json"));
        let turns = result.matches("\"turning-point\"").count();
        let page = read(&results.join(student).join("report.html"));
        assert_eq!(page.matches("<li class=\"turn\">").count(), turns, "{page}");
        assert_eq!(
            page.matches("<p class=\"turn\">The game turned on move ")
                .count(),
            turns
        );
        marked += turns;
    }
    assert!(marked > 0, "no game of the class had a turning point");
    let before = (index, page);
    std::fs::remove_file(results.join("index.html")).unwrap();
    grader().arg("report").arg(&results).assert().success();
    let after = (
        read(&results.join("index.html")),
        read(&results.join("decent/report.html")),
    );
    assert!(
        before == after,
        "grader report wrote other pages than grader run"
    );
    // `grader similarity` brings the class page up to date (with Dolos or, without it, the
    // path-dependent submissions alone), and `grader report` shows the pairs of a CSV as written.
    let similarity = grader()
        .arg("similarity")
        .arg(&results)
        .arg(dir.path().join("students"))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&similarity.stderr);
    assert!(stderr.contains("updated "), "{stderr}");
    let index = read(&results.join("index.html"));
    assert!(index.contains("<h2 id=\"similarity\">"), "{index}");
    std::fs::write(
        results.join("similarity.csv"),
        "kind,student,other,similarity,longest-fragment,detail\n\
         pair,decent,random-handout,87.5%,41,ut3.py ~ ut3.py\n\
         path-dependent,decent,,,,\"printed its path: `<script>`\"\n",
    )
    .unwrap();
    grader().arg("report").arg(&results).assert().success();
    let index = read(&results.join("index.html"));
    assert!(
        index.contains("<td><a href=\"decent/report.html\">decent</a> ~ <a href=\"random-handout/report.html\">random-handout</a></td><td class=\"n\">87.5%</td><td class=\"n\">41</td>"),
        "{index}"
    );
    assert!(
        index.contains("<li><a href=\"decent/report.html\">decent</a>: printed its path: `&lt;script&gt;`</li>"),
        "{index}"
    );
}

/// The `data-m` marks of a page's first board, in cell order, read from the DOM.
const MARKS: &str = "Array.from(document.querySelector('section.game').querySelectorAll('svg.board .c')).map(g => g.querySelector('text').textContent || ' ').join('')";

#[test]
fn chromium_steps_a_replay_with_the_keyboard_and_draws_the_class_page() {
    let Some(mut browser) = crate::cdp::Browser::launch() else {
        return;
    };
    let dir = scratch();
    let results = ut3_class(dir.path());
    let page = results.join("decent/report.html");
    browser.goto(&format!("file://{}", page.display()));
    // The script unhid the controls and shows the last position, its last move outlined and marked.
    assert_eq!(
        browser.eval("document.querySelector('section.game .controls').hidden"),
        false
    );
    let count = |b: &mut crate::cdp::Browser| {
        b.eval("Number(document.querySelector('section.game .counter .k').textContent)")
            .as_u64()
            .unwrap()
    };
    let moves = count(&mut browser);
    assert!(moves > 10, "{moves} moves");
    let last_mark = "document.querySelector('section.game svg.board .c.last text').textContent";
    let mark = browser.eval(last_mark);
    assert!(
        mark == "x" || mark == "o",
        "the last move's cell is drawn without its mark: {mark}"
    );
    let before = browser.eval(MARKS);
    // A key pressed through the browser, to the focused game: one move back.
    browser.eval("document.querySelector('section.game').focus()");
    browser.press("ArrowLeft", 37);
    assert_eq!(count(&mut browser), moves - 1);
    let after = browser.eval(MARKS);
    assert_ne!(before, after, "the board did not change");
    let (b, a) = (before.as_str().unwrap(), after.as_str().unwrap());
    assert_eq!(
        b.chars().zip(a.chars()).filter(|(x, y)| x != y).count(),
        1,
        "one mark taken back:\n{b}\n{a}"
    );
    assert_eq!(
        browser.eval(&format!(
            "document.querySelector('section.game ol.moves li[aria-current]') === \
             document.querySelectorAll('section.game ol.moves li')[{}]",
            moves - 2
        )),
        true,
        "the move list marks the move shown"
    );
    browser.press("Home", 36);
    assert_eq!(count(&mut browser), 0);
    assert!(browser.eval(MARKS).as_str().unwrap().trim().is_empty());
    browser.press("End", 35);
    assert_eq!(count(&mut browser), moves);
    assert_eq!(browser.eval(MARKS), before);
    let png = browser.screenshot();
    assert!(
        png.starts_with("iVBORw0KGgo") && png.len() > 10_000,
        "not a PNG of the page: {} base64 bytes",
        png.len()
    );
    assert!(browser.errors.is_empty(), "{:?}", browser.errors);
    // The class page: the histogram, a link to each student, the tournament, and no script errors.
    browser.goto(&format!("file://{}", results.join("index.html").display()));
    assert_eq!(
        browser.eval("document.querySelectorAll('svg.hist rect').length > 0"),
        true
    );
    assert_eq!(
        browser.eval("Array.from(document.querySelectorAll('a')).map(a => a.getAttribute('href')).filter(h => h.endsWith('/report.html')).sort().join(' ')"),
        "decent/report.html random-handout/report.html"
    );
    assert_eq!(
        browser.eval("document.querySelector('table.cross') !== null"),
        true
    );
    assert!(browser.errors.is_empty(), "{:?}", browser.errors);
}

/// The shipped Adelaide examples' class page and a wrong trace's student page, in Chromium: the class
/// page links every example, draws the histogram and the per-case pass rates; `prune-strict`'s page
/// shows its first divergence side by side. No script error on either.
#[test]
fn chromium_draws_the_shipped_examples_class_page_and_a_trace_divergence() {
    let Some(mut browser) = crate::cdp::Browser::launch() else {
        return;
    };
    let results = crate::examples::graded();
    let students: Vec<String> = std::fs::read_dir(results)
        .unwrap()
        .map(|e| e.unwrap())
        .filter(|e| e.path().join("result.json").is_file())
        .map(|e| format!("{}/report.html", e.file_name().to_string_lossy()))
        .collect();
    assert!(students.len() > 20, "{students:?}");
    browser.goto(&format!("file://{}", results.join("index.html").display()));
    assert_eq!(
        browser.eval("document.querySelectorAll('svg.hist rect').length > 0"),
        true
    );
    let mut linked: Vec<String> = serde_json::from_value(browser.eval(
        "JSON.stringify([...new Set(Array.from(document.querySelectorAll('a')).map(a => a.getAttribute('href')).filter(h => h.endsWith('/report.html')))])",
    ).as_str().map(|s| serde_json::from_str(s).unwrap()).unwrap())
    .unwrap();
    linked.sort();
    let mut students = students;
    students.sort();
    assert_eq!(
        linked, students,
        "every example linked once from the class page"
    );
    assert!(browser.errors.is_empty(), "{:?}", browser.errors);
    browser.goto(&format!(
        "file://{}",
        results.join("prune-strict/report.html").display()
    ));
    let rows = browser.eval("document.querySelectorAll('table.trace tbody tr').length");
    assert!(rows.as_u64().unwrap() > 0, "no divergence table: {rows}");
    assert!(browser.errors.is_empty(), "{:?}", browser.errors);
    assert!(browser.screenshot().starts_with("iVBORw0KGgo"));
}
