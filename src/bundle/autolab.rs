//! Autolab's autograder: `autograde.tar` (the grader, the suite and `run.sh` under `autograde/`) and
//! `autograde-Makefile`, the two files an assessment's "Autograder" settings take. Autolab (Tango)
//! copies them, the Makefile as `Makefile`, into an empty folder of the autograding image beside the
//! student's handin, runs `make`, shows its output as the feedback and reads the last line as the
//! autoresult (<https://docs.autolabproject.com/lab/>, "Writing Autograders").

use std::io::Write as _;
use std::path::Path;

use anyhow::Context as _;

use super::{
    grader_entries, scripts::quote, suite_entries, write_dir, Content, Entry, Plan, Shipped,
};
use crate::error::Error;

/// The folder `autograde.tar` unpacks into.
const TOP: &str = "autograde";

/// The handin's name when the assessment does not say (its "Handin filename").
pub const HANDIN: &str = "handin.tar";

/// Writes `autograde.tar` and `autograde-Makefile` into `out` (new, or empty). `hidden` is the
/// `--hidden-visibility` the feedback is written with; `handin` the assessment's handin file name.
/// Returns what was written, a line each (the tar's entries, then the Makefile).
///
/// # Errors
/// A folder that cannot be read, a shipped source, a non-empty `out` (input); a file that cannot be
/// written (machine).
pub fn bundle(plan: &Plan, hidden: &str, handin: &str, out: &Path) -> Result<Vec<String>, Error> {
    if matches!(plan.grader, Shipped::Source(_)) {
        return Err(Error::input(anyhow::anyhow!(
            "Autolab has no setup step in which to build the grader from source\nhint: bundle a grader built for x86-64 Linux (the default: this one)"
        )));
    }
    let mut entries = Vec::new();
    let name = suite_entries(plan, &format!("{TOP}/suite"), &mut entries)?;
    grader_entries(plan, &format!("{TOP}/grader"), "", &mut entries)?;
    entries.push(Entry::script(
        &format!("{TOP}/run.sh"),
        run_script(&name, hidden, plan.config.is_some()),
    ));
    let tar = tar_bytes(&entries).map_err(Error::machine)?;
    let mut written: Vec<String> = entries.iter().map(|e| e.path.clone()).collect();
    let files = [
        Entry {
            path: "autograde.tar".into(),
            content: Content::Bytes(tar),
            executable: false,
        },
        Entry {
            path: "autograde-Makefile".into(),
            content: Content::Bytes(makefile(handin).into_bytes()),
            executable: false,
        },
    ];
    write_dir(&files, out)?;
    written.push("autograde-Makefile".into());
    Ok(written)
}

/// The entries as an uncompressed tar, in order, with fixed owners and times: the same inputs give
/// the same bytes.
fn tar_bytes(entries: &[Entry]) -> anyhow::Result<Vec<u8>> {
    let mut tar = tar::Builder::new(Vec::new());
    tar.mode(tar::HeaderMode::Deterministic);
    for e in entries {
        let bytes = match &e.content {
            Content::Bytes(b) => b.clone(),
            Content::Disk(from) => {
                std::fs::read(from).with_context(|| format!("cannot read `{}`", from.display()))?
            }
        };
        let mut header = tar::Header::new_gnu();
        header.set_size(bytes.len() as u64);
        header.set_mode(if e.executable { 0o755 } else { 0o644 });
        header.set_mtime(315_532_800); // 1980-01-01, as the zips write
        header.set_entry_type(tar::EntryType::Regular);
        tar.append_data(&mut header, &e.path, bytes.as_slice())
            .with_context(|| format!("cannot add `{}` to the tar", e.path))?;
    }
    let mut bytes = tar.into_inner()?;
    bytes.flush()?;
    Ok(bytes)
}

/// `autograde-Makefile`: unpack, then `run.sh` with the handin.
fn makefile(handin: &str) -> String {
    format!(
        "# Written by `grader bundle autolab`. Autolab copies this file (as `Makefile`), autograde.tar and\n\
         # the student's handin into an empty folder and runs `make`: its output is the feedback, its last\n\
         # line the autoresult. HANDIN is the assessment's handin file name.\n\
         HANDIN ?= {handin}\n\n\
         all:\n\
         \t@tar xf autograde.tar\n\
         \t@./{TOP}/run.sh \"$(HANDIN)\"\n"
    )
}

/// `autograde/run.sh HANDIN`: the handin unpacked (a tar, a zip, or one file) into `submission/`, the
/// image's toolchains checked, then `grader autograde --to autolab`, whose last line is the
/// autoresult.
fn run_script(suite: &str, hidden: &str, config: bool) -> String {
    let suite = quote(suite);
    let config = if config {
        r#" --config "$HERE/grader.toml""#
    } else {
        ""
    };
    format!(
        r#"#!/usr/bin/env bash
# Written by `grader bundle autolab`: the Makefile runs it with the handin's name. It unpacks the handin
# into `submission/` (a tar, a zip, or a single file as it is; a lone top folder is entered), checks
# the autograding image has the suite's toolchains, then grades every case. Autolab shows all of
# this output to the student: hidden cases appear masked unless the bundle was made with
# `--hidden-visibility visible`. Without a toolchain there is no autoresult line, so Autolab reports
# the autograder's failure, never a score.
set -uo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
HANDIN="${{1:-{HANDIN}}}"
SUITE="$HERE/suite/"{suite}
SUB="$PWD/submission"
rm -rf "$SUB" && mkdir -p "$SUB"
if [ ! -f "$HANDIN" ]; then
  echo "error: no handin \`$HANDIN\` here (set HANDIN in the Makefile to the assessment's handin file name)"
  exit 1
fi
case "$HANDIN" in
  *.tar|*.tar.gz|*.tgz|*.tar.bz2|*.tar.xz) tar xf "$HANDIN" -C "$SUB" || exit 1 ;;
  *.zip) python3 -m zipfile -e "$HANDIN" "$SUB" || unzip -q "$HANDIN" -d "$SUB" || exit 1 ;;
  *) cp "$HANDIN" "$SUB/" || exit 1 ;;
esac
shopt -s dotglob nullglob
inside=("$SUB"/*)
if [ "${{#inside[@]}}" -eq 1 ] && [ -d "${{inside[0]}}" ]; then
  SUB="${{inside[0]}}"
fi
if ! "$HERE/grader" doctor "$SUITE" >/dev/null 2>&1; then
  "$HERE/grader" doctor "$SUITE"
  echo "error: the autograding image lacks a toolchain the suite needs (above): not your fault; tell your instructor"
  exit 1
fi
exec "$HERE/grader" autograde "$SUITE" "$SUB" --to autolab --hidden-visibility {hidden}{config}
"#,
        hidden = quote(hidden),
    )
}
