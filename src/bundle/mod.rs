//! Autograder bundles and student kits: a suite and the grader packed for a platform's per-submission
//! container (Gradescope's zip, PrairieLearn's `/grade` folders), or a suite's public cases alone for
//! students (`kit`). Nothing here grades: the bundled scripts call `grader autograde`.

pub mod autolab;
pub mod classroom;
pub mod guide;
pub mod kit;
mod scripts;

use std::io::Write as _;
use std::path::{Path, PathBuf};

use anyhow::Context as _;

use crate::error::Error;

/// How the grader itself travels in a bundle.
#[derive(Clone, Debug)]
pub enum Shipped {
    /// An executable for x86-64 Linux (by default the running one).
    Binary(PathBuf),
    /// A checkout of the grader's source (`Cargo.toml`, `Cargo.lock`, `src/`, ...), built by the
    /// bundle's setup script.
    Source(PathBuf),
}

/// What goes into a bundle.
#[derive(Clone, Debug)]
pub struct Plan {
    /// The suite folder; its name is the suite's name.
    pub suite: PathBuf,
    pub grader: Shipped,
    /// A `grader.toml` the bundled grader runs with.
    pub config: Option<PathBuf>,
}

/// What a file in a bundle holds.
enum Content {
    Bytes(Vec<u8>),
    Disk(PathBuf),
}

/// One file of a bundle: its path inside (`/`-separated), what it holds, whether it is executable.
struct Entry {
    path: String,
    content: Content,
    executable: bool,
}

impl Entry {
    fn script(path: &str, text: String) -> Entry {
        Entry {
            path: path.to_string(),
            content: Content::Bytes(text.into_bytes()),
            executable: true,
        }
    }
}

/// A copy of `binary` without its debug information, in a new scratch folder (the copy's path and
/// the folder, which removes it when dropped): a grader built with line tables is several times the
/// size of its code. `strip` from binutils does it; without one the binary ships as it is, said.
///
/// # Errors
/// A scratch folder that cannot be made or a copy that fails (machine).
pub fn stripped(binary: &Path) -> Result<(tempfile::TempDir, PathBuf), Error> {
    let scratch = tempfile::Builder::new()
        .prefix("grader-bundle-")
        .tempdir()
        .context("cannot make a scratch folder")
        .map_err(Error::machine)?;
    let to = scratch.path().join("grader");
    let ran = std::process::Command::new("strip")
        .arg("--strip-debug")
        .arg("-o")
        .arg(&to)
        .arg(binary)
        .stdin(std::process::Stdio::null())
        .output();
    match ran {
        Ok(out) if out.status.success() => return Ok((scratch, to)),
        Ok(out) => eprintln!(
            "warning: `strip` failed on `{}` ({}); bundling it unstripped",
            binary.display(),
            String::from_utf8_lossy(&out.stderr).trim()
        ),
        Err(e) => eprintln!(
            "warning: cannot run `strip` ({e}): bundling `{}` with its debug information\nhint: install binutils",
            binary.display()
        ),
    }
    std::fs::copy(binary, &to)
        .with_context(|| format!("cannot copy `{}`", binary.display()))
        .map_err(Error::machine)?;
    Ok((scratch, to))
}

/// The suite's name: its folder's name, as `grader run` names it.
fn suite_name(dir: &Path) -> Result<String, Error> {
    let canonical = dir
        .canonicalize()
        .with_context(|| format!("no suite folder `{}`", dir.display()))?;
    Ok(canonical
        .file_name()
        .and_then(|n| n.to_str())
        .with_context(|| format!("`{}` has no usable name", dir.display()))?
        .to_string())
}

/// Every regular file under `dir`, sorted, as entries under `under/`; links and other special files
/// are left out, and so is whatever `skip` names (given the path relative to `dir`).
fn tree(
    dir: &Path,
    under: &str,
    skip: &dyn Fn(&Path) -> bool,
    out: &mut Vec<Entry>,
) -> Result<(), Error> {
    use std::os::unix::fs::PermissionsExt as _;
    let mut stack = vec![PathBuf::new()];
    let mut found = Vec::new();
    while let Some(rel) = stack.pop() {
        let here = dir.join(&rel);
        let listing = std::fs::read_dir(&here)
            .with_context(|| format!("cannot read the folder `{}`", here.display()))?;
        for item in listing {
            let item = item.with_context(|| format!("cannot read `{}`", here.display()))?;
            let path = rel.join(item.file_name());
            if skip(&path) {
                continue;
            }
            let meta = std::fs::symlink_metadata(dir.join(&path))
                .with_context(|| format!("cannot read `{}`", dir.join(&path).display()))?;
            if meta.is_dir() {
                stack.push(path);
            } else if meta.is_file() {
                found.push((path, meta.permissions().mode() & 0o111 != 0));
            }
        }
    }
    found.sort();
    for (path, executable) in found {
        let Some(text) = path.to_str() else {
            return Err(Error::input(anyhow::anyhow!(
                "`{}` is not a UTF-8 name; a bundle keeps only UTF-8 names",
                dir.join(&path).display()
            )));
        };
        out.push(Entry {
            path: format!("{under}/{text}"),
            content: Content::Disk(dir.join(&path)),
            executable,
        });
    }
    Ok(())
}

/// The suite's files under `under/<name>/`: all of them (hidden cases included: a platform's container
/// is out of students' sight) except a machine's `calibration.toml`.
fn suite_entries(plan: &Plan, under: &str, out: &mut Vec<Entry>) -> Result<String, Error> {
    let name = suite_name(&plan.suite)?;
    tree(
        &plan.suite,
        &format!("{under}/{name}"),
        &|p| p == Path::new(crate::suite::calibration::CALIBRATION_FILE),
        out,
    )?;
    Ok(name)
}

/// The grader: the binary at `binary`, or the source under `source/`.
fn grader_entries(
    plan: &Plan,
    binary: &str,
    source: &str,
    out: &mut Vec<Entry>,
) -> Result<(), Error> {
    match &plan.grader {
        Shipped::Binary(path) => {
            if !cfg!(all(target_os = "linux", target_arch = "x86_64")) {
                return Err(Error::input(anyhow::anyhow!(
                    "this grader is not built for x86-64 Linux, which the platforms run\nhint: ship the source instead: `--source PATH` (a checkout of the grader)"
                )));
            }
            out.push(Entry {
                path: binary.to_string(),
                content: Content::Disk(path.clone()),
                executable: true,
            });
        }
        Shipped::Source(dir) => {
            for needed in ["Cargo.toml", "Cargo.lock", "src/main.rs"] {
                if !dir.join(needed).is_file() {
                    return Err(Error::input(anyhow::anyhow!(
                        "`{}` is not the grader's source: it has no `{needed}`\nhint: give `--source` a checkout of the grader",
                        dir.display()
                    )));
                }
            }
            // What a build needs: the manifests, `src/`, `reference/`, and the files the manifest
            // names (`benches/`, `tests/tests.rs`); never a build's output or the example hand-ins.
            let skip = |p: &Path| {
                let top = ["examples", "snapshots", "results", "suites"];
                p.components()
                    .any(|c| matches!(c.as_os_str().to_str(), Some("target" | ".git")))
                    || (p.components().count() == 1 && top.iter().any(|t| p == Path::new(t)))
            };
            tree(dir, source, &skip, out)?;
        }
    }
    if let Some(config) = &plan.config {
        let at = Path::new(binary).with_file_name("grader.toml");
        out.push(Entry {
            path: at.to_string_lossy().into_owned(),
            content: Content::Disk(config.clone()),
            executable: false,
        });
    }
    Ok(())
}

/// Writes Gradescope's autograder zip to `out`: `setup.sh` and `run_autograder` at its root, the
/// grader (`grader`, or its source in `grader-src/`) and the suite in `suite/<name>/`. `hidden` is
/// the visibility Gradescope gives hidden cases. Returns what was packed, a line each.
///
/// # Errors
/// A suite or source folder that cannot be read (input); a zip that cannot be written (machine).
pub fn gradescope(plan: &Plan, hidden: &str, out: &Path) -> Result<Vec<String>, Error> {
    let mut entries = Vec::new();
    let name = suite_entries(plan, "suite", &mut entries)?;
    grader_entries(plan, "grader", "grader-src", &mut entries)?;
    entries.insert(
        0,
        Entry::script("setup.sh", scripts::gradescope_setup(&name)),
    );
    entries.insert(
        1,
        Entry::script(
            "run_autograder",
            scripts::gradescope_run(&name, hidden, plan.config.is_some()),
        ),
    );
    write_zip(&entries, out).map_err(Error::machine)?;
    Ok(entries.iter().map(|e| e.path.clone()).collect())
}

/// Writes PrairieLearn's folders into `out` (which must not exist, or be empty): `tests/` (the
/// question's tests folder: `run.sh` and `suite/<name>/`), `serverFilesCourse/grader/` (the grader and
/// `setup.sh` for the image) and `info.json` (the question's `externalGradingOptions`, naming `image`
/// and `timeout` seconds). Returns what was written, a line each.
///
/// # Errors
/// A folder that cannot be read or a non-empty `out` (input); a file that cannot be written (machine).
pub fn prairielearn(
    plan: &Plan,
    image: &str,
    timeout: u64,
    out: &Path,
) -> Result<Vec<String>, Error> {
    if matches!(plan.grader, Shipped::Source(_)) {
        return Err(Error::input(anyhow::anyhow!(
            "PrairieLearn has no setup step in which to build the grader from source\nhint: bundle a grader built for x86-64 Linux (the default: this one)"
        )));
    }
    let mut entries = Vec::new();
    let name = suite_entries(plan, "tests/suite", &mut entries)?;
    grader_entries(plan, "serverFilesCourse/grader/grader", "", &mut entries)?;
    entries.push(Entry::script(
        "tests/run.sh",
        scripts::prairielearn_run(&name, plan.config.is_some()),
    ));
    entries.push(Entry::script(
        "serverFilesCourse/grader/setup.sh",
        scripts::prairielearn_setup(&name),
    ));
    let options = serde_json::json!({
        "externalGradingOptions": {
            "enabled": true,
            "image": image,
            "serverFilesCourse": ["grader/"],
            "entrypoint": "/grade/tests/run.sh",
            "timeout": timeout,
        }
    });
    entries.push(Entry {
        path: "info.json".into(),
        content: Content::Bytes(
            format!(
                "{}\n",
                serde_json::to_string_pretty(&options).expect("json")
            )
            .into_bytes(),
        ),
        executable: false,
    });
    write_dir(&entries, out)?;
    Ok(entries.iter().map(|e| e.path.clone()).collect())
}

/// `out` ready to be filled: created, or already there and empty.
pub(crate) fn empty_folder(out: &Path) -> Result<(), Error> {
    if out.exists() {
        let empty = std::fs::read_dir(out)
            .with_context(|| format!("cannot read `{}`", out.display()))?
            .next()
            .is_none();
        if !empty {
            return Err(Error::input(anyhow::anyhow!(
                "`{}` is not empty\nhint: name a new folder, or remove this one first",
                out.display()
            )));
        }
    }
    std::fs::create_dir_all(out)
        .with_context(|| format!("cannot create `{}`", out.display()))
        .map_err(Error::machine)
}

/// Writes `entries` as files under `out`.
fn write_dir(entries: &[Entry], out: &Path) -> Result<(), Error> {
    use std::os::unix::fs::PermissionsExt as _;
    empty_folder(out)?;
    for e in entries {
        let to = out.join(&e.path);
        let written = (|| {
            if let Some(dir) = to.parent() {
                std::fs::create_dir_all(dir)?;
            }
            match &e.content {
                Content::Bytes(b) => std::fs::write(&to, b)?,
                Content::Disk(from) => {
                    std::fs::copy(from, &to)?;
                }
            }
            let mode = if e.executable { 0o755 } else { 0o644 };
            std::fs::set_permissions(&to, std::fs::Permissions::from_mode(mode))
        })();
        written
            .with_context(|| format!("cannot write `{}`", to.display()))
            .map_err(Error::machine)?;
    }
    Ok(())
}

/// Writes `entries` as a zip at `out`, atomically, with fixed timestamps: the same inputs give the
/// same bytes.
fn write_zip(entries: &[Entry], out: &Path) -> anyhow::Result<()> {
    let dir = match out.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let tmp = tempfile::NamedTempFile::new_in(dir)
        .with_context(|| format!("cannot write in `{}`", dir.display()))?;
    let mut zip = zip::ZipWriter::new(std::io::BufWriter::new(tmp.as_file()));
    for e in entries {
        let options = zip::write::SimpleFileOptions::default()
            .compression_method(zip::CompressionMethod::Deflated)
            .last_modified_time(zip::DateTime::default())
            .unix_permissions(if e.executable { 0o755 } else { 0o644 });
        zip.start_file(e.path.as_str(), options)
            .with_context(|| format!("cannot add `{}` to the zip", e.path))?;
        match &e.content {
            Content::Bytes(b) => zip.write_all(b)?,
            Content::Disk(from) => {
                let mut file = std::fs::File::open(from)
                    .with_context(|| format!("cannot read `{}`", from.display()))?;
                std::io::copy(&mut file, &mut zip)
                    .with_context(|| format!("cannot add `{}` to the zip", from.display()))?;
            }
        }
    }
    zip.finish()?.flush()?;
    std::fs::set_permissions(
        tmp.path(),
        std::os::unix::fs::PermissionsExt::from_mode(0o644),
    )?;
    tmp.persist(out)
        .map_err(|e| e.error)
        .with_context(|| format!("cannot write `{}`", out.display()))?;
    Ok(())
}
