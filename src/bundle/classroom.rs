//! GitHub Classroom's starter repository: the suite's student kit in `.grader/<suite>/` and
//! `.github/workflows/classroom.yml`, which on every push installs the student build of the grader,
//! checks the repository against the kit's public cases, and hands each group's points to GitHub
//! Classroom's autograding reporter (`grader check --github-output`, `report::classroom`). Tests in a
//! student's repository are visible to the student, so only public cases go there.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use super::kit::Kit;
use crate::error::Error;
use crate::suite::Suite;

/// Where the kit goes in the starter repository.
pub const KITS: &str = ".grader";

/// The workflow's path in the starter repository.
pub const WORKFLOW: &str = ".github/workflows/classroom.yml";

/// The reporter action that reads the runners' results and sets Classroom's points.
pub const REPORTER: &str = "classroom-resources/autograding-grading-reporter@v1";

/// What the starter repository's workflow does, as the instructor chose it.
pub struct Plan<'a> {
    /// The command that installs the student build (`pip install grader-student==VERSION`).
    pub install: &'a str,
    /// Minutes the check may take before GitHub stops the job.
    pub timeout: u32,
}

/// Writes the starter repository into `out` (new, or empty): the kit of `suite` (with `include`d
/// documents) and the workflow. Returns the kit's counts.
///
/// # Errors
/// As [`super::kit::write`]; a workflow that cannot be written (machine).
pub fn starter(
    suite: &Suite,
    include: &[PathBuf],
    plan: &Plan<'_>,
    out: &Path,
) -> Result<Kit, Error> {
    let kit_dir = out.join(KITS).join(&suite.name);
    super::empty_folder(out)?;
    let kit = super::kit::write(suite, include, &kit_dir)?;
    let files = [
        (
            WORKFLOW.to_string(),
            workflow(&suite.name, &kit.groups, plan),
        ),
        ("README.md".to_string(), readme(suite)),
    ];
    for (rel, text) in files {
        let path = out.join(rel);
        let written = std::fs::create_dir_all(path.parent().expect("a folder"))
            .and_then(|()| std::fs::write(&path, text));
        anyhow::Context::with_context(written, || format!("cannot write `{}`", path.display()))
            .map_err(Error::machine)?;
    }
    Ok(kit)
}

/// The starter repository's README: where the work goes and how it is checked (the instructor adds
/// the handout).
fn readme(suite: &Suite) -> String {
    let kit = format!("{KITS}/{}", suite.name);
    format!(
        "# {title}\n\n\
         Put your program in this repository, at its top. Every push is checked against the public cases in\n\
         `{kit}/` (its README.md says what each case runs and how it is judged), and GitHub Classroom shows\n\
         the points. {hidden}\n\n\
         Check before you push: `{install}`, then `grader check {kit} .`\n",
        title = suite.title,
        hidden = super::guide::hidden_sentence(suite),
        install = super::guide::INSTALL,
    )
}

/// `.github/workflows/classroom.yml` for the kit of `suite` whose groups are `groups`: the job GitHub
/// Classroom's own workflows have (its name is what the reporter looks for), then install, toolchains,
/// check and report.
#[must_use]
pub fn workflow(suite: &str, groups: &[String], plan: &Plan<'_>) -> String {
    let kit = format!("{KITS}/{suite}");
    let mut env = String::new();
    for g in groups {
        let _ = writeln!(
            env,
            "          {}_RESULTS: \"${{{{ steps.check.outputs.{g} }}}}\"",
            g.to_uppercase()
        );
    }
    format!(
        r#"# Written by `grader bundle github-classroom` (grader {version}) for the suite `{suite}`. GitHub
# Classroom runs it on every push: it installs the student build of the grader, checks this repository
# against the public cases in {kit}/, and reports each group's points to Classroom's autograding.
# A student's repository is visible to the student, so only public cases are here: grade the hidden
# cases with `grader run` on the collected repositories (or on Gradescope, PrairieLearn or Autolab).
name: Autograding Tests
'on':
  - push
  - repository_dispatch
permissions:
  checks: write
  actions: read
  contents: read
jobs:
  run-autograding-tests:
    runs-on: ubuntu-latest
    if: github.actor != 'github-classroom[bot]'
    timeout-minutes: {timeout}
    steps:
      - name: Checkout code
        uses: actions/checkout@v4
      - name: Set up Python
        uses: actions/setup-python@v5
        with:
          python-version: '3.12'
      - name: Install the grader
        run: |
          {install}
      - name: Install the toolchains the suite needs
        run: |
          grader doctor '{kit}' || sudo "$(command -v grader)" doctor '{kit}' --install
      - name: Check the public cases
        id: check
        # The runner is a fresh machine for this push alone: the basic tier's limits are isolation
        # enough, and it runs the interpreters setup-python puts in the tool cache, which the full
        # tier's file system leaves out.
        run: |
          set +e
          grader check '{kit}' . --sandbox basic --github-output "$GITHUB_OUTPUT"
          code=$?
          # 0: every case passed, 1: some failed (the points say how many); anything else is the
          # machine's fault, never a score.
          [ "$code" -le 1 ] || exit "$code"
      - name: Autograding Reporter
        uses: {REPORTER}
        env:
{env}        with:
          runners: "${{{{ steps.check.outputs.runners }}}}"
"#,
        version = env!("CARGO_PKG_VERSION"),
        timeout = plan.timeout,
        install = plan.install,
    )
}
