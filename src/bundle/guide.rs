//! A kit's student guide (`README.md`), written from the kit as it loads: the install line, the check
//! command, the program the suite expects (file names, how each language is built and run), the limits
//! of a run, every public case and how it is judged, and what the hidden cases carry. Written from the
//! kit and not the suite, so it can name no hidden case: the kit has none.

use std::fmt::Write as _;
use std::time::Duration;

use crate::judge::Comparator;
use crate::report::points;
use crate::suite::{CreditRule, Expect, FileNames, Kind, Language, Suite, Visibility};

/// The one line that installs the student build (the wheel `docs/release.md` describes).
pub const INSTALL: &str = "pip install grader-student";

/// The guide for the kit loaded from `kit_dir` (named `folder` where the student unpacks it);
/// `documents` are the files the instructor added (`docs/...`).
#[must_use]
pub fn readme(kit: &Suite, folder: &str, documents: &[String]) -> String {
    let mut out = String::new();
    let public = kit.cases().count();
    let _ = writeln!(out, "# {}: student kit\n", kit.title);
    let _ = writeln!(
        out,
        "The {public} public cases of `{}` and what `grader check` needs to run them on your program. \
         {}\n",
        kit.name,
        hidden_sentence(kit)
    );
    let _ = writeln!(out, "## Check your program\n");
    let _ = writeln!(
        out,
        "1. Install the checker: `{INSTALL}` (Linux x86_64 or aarch64, macOS; Python 3.8 or newer).\n\
         2. Get this kit: unpack it as `{folder}/` anywhere.\n\
         3. Check your folder: `grader check {folder} path/to/your/folder` (`--json` for a tool).\n\
         4. Read the report: a line per case, ✓ or ✗ with the first difference explained, then your score on the public cases.\n\
         5. Exit code 0: every case passed; 1: some failed; 2: a wrong command or kit; 3: the checker could not run your program (not your fault: a missing toolchain, say).\n"
    );
    languages(&mut out, kit);
    limits(&mut out, kit);
    cases(&mut out, kit);
    variants(&mut out, kit);
    if !documents.is_empty() {
        let _ = writeln!(out, "## From your instructor\n");
        for d in documents {
            let _ = writeln!(out, "- [`{d}`]({d})");
        }
        out.push('\n');
    }
    out.truncate(out.trim_end().len());
    out.push('\n');
    out
}

/// What the grade counts beyond this kit, in one sentence.
pub fn hidden_sentence(kit: &Suite) -> String {
    let h = kit.hidden;
    if h.cases == 0 {
        return format!(
            "The grade counts these cases only ({} points in all).",
            points(h.total)
        );
    }
    format!(
        "Your grade also counts {} hidden {} ({} of the {} points), which are not in this kit: a program that passes every public case can still lose those points.",
        h.cases,
        if h.cases == 1 { "case" } else { "cases" },
        points(h.points),
        points(h.total)
    )
}

fn languages(out: &mut String, kit: &Suite) {
    let _ = writeln!(
        out,
        "## Your program\n\nYour folder is built and run by the first recipe whose files it holds:\n"
    );
    for l in &kit.languages {
        let _ = writeln!(out, "- **{}**: {}", l.name, recipe(l));
        for p in &l.programs {
            let detect = words(&p.detect);
            let build = steps(&p.build);
            let _ = writeln!(
                out,
                "  - its `{}` program (for the groups that name it): {detect}{build}run as `{}`",
                p.name,
                command(&p.run)
            );
        }
    }
    out.push_str(
        "\n`{dir}` is your folder, copied; the grader never runs your program in place.\n\n",
    );
}

fn recipe(l: &Language) -> String {
    let python = if l.python.len() > 1 {
        " (Python 2 when it does not compile as Python 3)"
    } else {
        ""
    };
    format!(
        "{}{}run as `{}`{python}",
        words(&l.detect),
        steps(&l.build),
        command(&l.run)
    )
}

/// `a folder with `a`, `b`; `
fn words(files: &[String]) -> String {
    let list: Vec<String> = files.iter().map(|f| format!("`{f}`")).collect();
    format!("a folder with {}; ", list.join(" and "))
}

fn steps(build: &[Vec<String>]) -> String {
    if build.is_empty() {
        return String::new();
    }
    let list: Vec<String> = build.iter().map(|c| format!("`{}`", command(c))).collect();
    format!("built with {}, then ", list.join(", then "))
}

fn command(words: &[String]) -> String {
    words.join(" ")
}

fn limits(out: &mut String, kit: &Suite) {
    let l = &kit.limits;
    let _ = writeln!(
        out,
        "## Limits\n\nEach run of your program may use {} of CPU and {} of wall time, {} of memory, {} \
         processes; it may print {} and write files of at most {}. A case may set its own (below).\n",
        duration(l.cpu),
        duration(l.wall),
        size(l.memory),
        l.processes,
        size(l.output),
        size(l.file_size)
    );
}

fn duration(d: Duration) -> String {
    let ms = d.as_millis();
    if ms % 1000 == 0 {
        format!("{} s", ms / 1000)
    } else {
        format!("{} ms", ms)
    }
}

fn size(bytes: u64) -> String {
    const UNITS: [(u64, &str); 3] = [(1 << 30, "GiB"), (1 << 20, "MiB"), (1 << 10, "KiB")];
    for (unit, name) in UNITS {
        if bytes >= unit && bytes % unit == 0 {
            return format!("{} {name}", bytes / unit);
        }
    }
    format!("{bytes} bytes")
}

fn cases(out: &mut String, kit: &Suite) {
    let _ = writeln!(out, "## The public cases\n");
    if kit.file_names == FileNames::Unpredictable
        && kit
            .cases()
            .any(|(_, c)| c.run().is_some_and(|r| !r.files.is_empty()))
    {
        let _ = writeln!(
            out,
            "A file a case names on the command line (`visited.txt` below) gets another name in each run \
             (`work/visited-3f09c2ab.txt`): write to the path you are given.\n"
        );
    }
    for g in &kit.groups {
        let rule = match g.credit {
            CreditRule::Proportional => "each case earns its share",
            CreditRule::AllOrNothing => "all cases must pass",
            CreditRule::Manual => "marked by hand",
        };
        let _ = writeln!(
            out,
            "### `{}`: {} ({} {}; {rule})\n",
            g.name,
            g.title,
            points(g.points),
            if g.points == 1.0 { "point" } else { "points" }
        );
        for c in g
            .cases
            .iter()
            .filter(|c| c.visibility == Visibility::Public)
        {
            let _ = writeln!(
                out,
                "- `{}`: {}",
                c.name,
                case(&c.kind, &kit.limits, &c.limits)
            );
        }
        out.push('\n');
    }
}

fn case(kind: &Kind, suite: &crate::sandbox::Limits, own: &crate::sandbox::Limits) -> String {
    let mut text = match kind {
        Kind::Run(r) => {
            let args: Vec<String> = r.args.iter().map(|a| a.replace("{work}/", "")).collect();
            let mut checks: Vec<String> = r
                .stdout
                .iter()
                .map(|e| match e.text.trim().is_empty() {
                    true => "nothing on stdout".to_string(),
                    false => format!("stdout {}", judged(e)),
                })
                .collect();
            checks.extend(r.files.iter().map(|(n, e)| match e.text.trim().is_empty() {
                true => format!("`{n}` not written (or empty)"),
                false => format!("`{n}` {}", judged(e)),
            }));
            let stdin = if r.stdin.is_some() {
                " (with input on stdin)"
            } else {
                ""
            };
            format!(
                "run with `{}`{stdin}; {}",
                args.join(" "),
                checks.join("; ")
            )
        }
        Kind::Play(p) => format!(
            "{} games of `{}` against `{}`, measured by `{}`{}",
            p.games,
            p.arena.game,
            p.opponent.spec(),
            p.measure.word(),
            p.at_least
                .map(|a| format!(" (at least {a})"))
                .unwrap_or_default()
        ),
        Kind::Position(p) => format!(
            "one move of `{}` from `{}` with `{}` to move",
            p.arena.game, p.state, p.side
        ),
    };
    if own.cpu != suite.cpu || own.wall != suite.wall {
        let _ = write!(
            text,
            " (limits: {} CPU, {} wall)",
            duration(own.cpu),
            duration(own.wall)
        );
    }
    text
}

/// How one expected output is compared.
fn judged(e: &Expect) -> String {
    match e.comparator {
        Comparator::Exact => "exactly (a missing last newline is forgiven)".to_string(),
        Comparator::Tokens => "token by token (spacing and line breaks do not matter)".to_string(),
        Comparator::Numeric { tolerance } => {
            format!("token by token, numbers within {tolerance}")
        }
        Comparator::Trace => {
            "as a visited-node trace, one `STATE VALUE` a line; the report shows the first line that differs and where your search parts from the reference's".to_string()
        }
    }
}

fn variants(out: &mut String, kit: &Suite) {
    if kit.variants.is_empty() {
        return;
    }
    let _ = writeln!(
        out,
        "## Known mistakes\n\nA trace that is exactly one of these is named in the report, with its credit:\n"
    );
    for v in &kit.variants {
        let note = if v.note.is_empty() {
            String::new()
        } else {
            format!(" ({})", v.note)
        };
        let _ = writeln!(
            out,
            "- `{}`: {}; {}% of the case{note}",
            v.name,
            v.description,
            (v.credit * 100.0).round()
        );
    }
    out.push('\n');
}
