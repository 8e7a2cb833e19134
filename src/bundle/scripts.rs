//! The shell scripts a bundle carries: Gradescope's `setup.sh` and `run_autograder`, PrairieLearn's
//! `run.sh`. Each honours a root variable so a test can run it outside the platform's container.

/// `text` as one shell word in single quotes (a suite folder may be named anything).
pub(super) fn quote(text: &str) -> String {
    format!("'{}'", text.replace('\'', r"'\''"))
}

/// The lines that install the grader from the shipped source when no binary was shipped: Rust from
/// its official installer when the image has none (the distribution's may be older than 1.85).
fn build_from_source(grader: &str, source: &str) -> String {
    format!(
        r#"if [ ! -x "{grader}" ] && [ -d "{source}" ]; then
  if ! command -v cargo >/dev/null 2>&1; then
    if [ ! -x "$HOME/.cargo/bin/cargo" ]; then
      apt-get install -y --no-install-recommends curl ca-certificates build-essential
      curl --proto '=https' --tlsv1.2 -sSf https://sh.rustup.rs | sh -s -- -y --profile minimal
    fi
    export PATH="$HOME/.cargo/bin:$PATH"
  fi
  cargo build --release --locked --manifest-path "{source}/Cargo.toml" --bin grader
  cp "{source}/target/release/grader" "{grader}"
fi
"#
    )
}

/// The lines that check the grader runs here, then install the suite's missing toolchains with
/// `grader doctor --install` (nothing, and no network, when all are present).
fn toolchains(grader: &str, suite: &str) -> String {
    format!(
        r#"if ! "{grader}" --version >/dev/null; then
  echo "error: \`{grader}\` does not run on this image (built for another system, or a newer glibc)" >&2
  echo "hint: bundle the source instead: grader bundle ... --source PATH" >&2
  exit 1
fi
if ! "{grader}" doctor "{suite}"; then
  apt-get update
  "{grader}" doctor --install "{suite}"
fi
"#
    )
}

/// Gradescope's `setup.sh`: run once, as root, while the autograder's image is built.
pub fn gradescope_setup(suite: &str) -> String {
    let suite = quote(suite);
    format!(
        r#"#!/usr/bin/env bash
# Written by `grader bundle gradescope`. Gradescope runs it once, as root, when it builds the
# autograder's image: it installs the grader (shipped, or built from the shipped source) and the
# toolchains the suite needs. Running it again installs only what is missing, without the network
# when nothing is. AUTOGRADER_ROOT (default /autograder) moves it, for a test.
set -euo pipefail
ROOT="${{AUTOGRADER_ROOT:-/autograder}}"
SUITE="$ROOT/source/suite/"{suite}
GRADER="$ROOT/source/grader"
{}{}"#,
        build_from_source("$GRADER", "$ROOT/source/grader-src"),
        toolchains("$GRADER", "$SUITE"),
    )
}

/// Gradescope's `run_autograder`: grades `$ROOT/submission` on every case of the suite and writes
/// `$ROOT/results/results.json`; hidden cases get the visibility `hidden`.
pub fn gradescope_run(suite: &str, hidden: &str, config: bool) -> String {
    let suite = quote(suite);
    let config = if config {
        r#" --config "$ROOT/source/grader.toml""#
    } else {
        ""
    };
    format!(
        r#"#!/usr/bin/env bash
# Written by `grader bundle gradescope`. Gradescope runs it for each submission: the grader grades
# /autograder/submission on every case of the suite (hidden ones included) and writes
# /autograder/results/results.json. Without that file (the machine could not grade: a missing
# toolchain, an internal error) Gradescope shows an autograder failure, never a score.
# AUTOGRADER_ROOT (default /autograder) moves it, for a test.
set -uo pipefail
ROOT="${{AUTOGRADER_ROOT:-/autograder}}"
mkdir -p "$ROOT/results"
cd "$ROOT"
exec "$ROOT/source/grader" autograde "$ROOT/source/suite/"{suite} "$ROOT/submission" \
  --to gradescope --out "$ROOT/results/results.json" --hidden-visibility {hidden}{config}
"#,
        hidden = quote(hidden),
    )
}

/// PrairieLearn's entrypoint (`/grade/tests/run.sh`): grades `$ROOT/student` and writes
/// `$ROOT/results/results.json`.
pub fn prairielearn_run(suite: &str, config: bool) -> String {
    let suite = quote(suite);
    let config = if config {
        r#" --config "$ROOT/serverFilesCourse/grader/grader.toml""#
    } else {
        ""
    };
    format!(
        r#"#!/usr/bin/env bash
# Written by `grader bundle prairielearn`: the question's external-grading entrypoint. It grades
# /grade/student on every case of the suite in /grade/tests (hidden ones included: students never see
# that folder) with the grader in /grade/serverFilesCourse/grader, and writes
# /grade/results/results.json. GRADE_ROOT (default /grade) moves it, for a test.
set -uo pipefail
ROOT="${{GRADE_ROOT:-/grade}}"
GRADER="$ROOT/serverFilesCourse/grader/grader"
mkdir -p "$ROOT/results"
cd "$ROOT"
exec "$GRADER" autograde "$ROOT/tests/suite/"{suite} "$ROOT/student" \
  --to prairielearn --out "$ROOT/results/results.json"{config}
"#
    )
}

/// The setup script for a PrairieLearn image (`docker build` step, or by hand in the image): the
/// suite's toolchains, as Gradescope's `setup.sh` installs them.
pub fn prairielearn_setup(suite: &str) -> String {
    let suite = quote(suite);
    format!(
        r#"#!/usr/bin/env bash
# Written by `grader bundle prairielearn`. PrairieLearn has no setup step: run this once, as root, in
# the Docker image the question names (a `RUN` line of its Dockerfile) to install the toolchains the
# suite needs. Running it again installs only what is missing. GRADE_ROOT (default /grade) moves it.
set -euo pipefail
ROOT="${{GRADE_ROOT:-/grade}}"
SUITE="$ROOT/tests/suite/"{suite}
GRADER="$ROOT/serverFilesCourse/grader/grader"
{}"#,
        toolchains("$GRADER", "$SUITE"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_suite_name_is_one_shell_word_whatever_it_holds() {
        assert_eq!(quote("a1"), "'a1'");
        assert_eq!(quote("it's $(rm -rf)"), r"'it'\''s $(rm -rf)'");
        assert!(gradescope_run("x'; reboot; '", "hidden", false)
            .contains(r#""$ROOT/source/suite/"'x'\''; reboot; '\'''"#));
    }
}
