//! Where a toolchain found through symbolic links really lives, so the `full` sandbox (which sees only
//! the system's folders and each tool's installation, bound read-only at the same paths) can start it:
//! `/usr/local/bin/python2 -> /opt/python2.7/bin/python2.7`, a Homebrew `bin/python3 ->
//! ../Cellar/python@3.11/3.11.7/bin/python3.11`, a link in a folder of the user's own on `PATH`.

use std::path::{Component, Path, PathBuf};

/// At most this many links are followed (the kernel's own limit is 40).
const MAX_HOPS: usize = 40;

/// `exe` and every link it leads through, in order, ending at the file itself. Relative targets are
/// read from the link's own folder. Stops early (without error) at a loop or an unreadable link.
#[must_use]
pub fn chain(exe: &Path) -> Vec<PathBuf> {
    let mut out = vec![exe.to_path_buf()];
    let mut current = exe.to_path_buf();
    for _ in 0..MAX_HOPS {
        let is_link = std::fs::symlink_metadata(&current).is_ok_and(|m| m.file_type().is_symlink());
        if !is_link {
            break;
        }
        let Ok(target) = std::fs::read_link(&current) else {
            break;
        };
        let next = match current.parent() {
            Some(dir) if target.is_relative() => normalize(&dir.join(&target)),
            _ => normalize(&target),
        };
        if out.contains(&next) {
            break;
        }
        out.push(next.clone());
        current = next;
    }
    out
}

/// Removes `.` and resolves `..` by dropping the previous component, as the kernel does once the
/// folder before it is known not to be a link (callers pass paths built from link targets).
fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

/// The path to start `exe` by where only `roots` (and what lies inside them) can be seen: the first of
/// `exe` and the links it leads through whose folder is inside a root and is no link itself (so the
/// name means the same thing there), else the real file. The first is kept when it can be: a
/// program may look at the name it was started by (a virtual environment's `bin/python3`, `ccache`).
#[must_use]
pub fn runnable(exe: &Path, roots: &[PathBuf]) -> PathBuf {
    for step in chain(exe) {
        let Some(dir) = step.parent() else { continue };
        let plain = dir.canonicalize().is_ok_and(|real| real == dir);
        if plain && roots.iter().any(|r| dir.starts_with(r)) {
            return step;
        }
    }
    exe.canonicalize().unwrap_or_else(|_| exe.to_path_buf())
}

/// The installation a real executable belongs to: the folder holding the nearest `bin` folder above it
/// (`/opt/python2.7/bin/python2.7` → `/opt/python2.7`, a JVM's `…/jvm/java-17/bin/java` → `…/java-17`,
/// `…/lib/swipl/bin/x86_64-linux/swipl` → `…/lib/swipl`), else its own folder; never `/`.
#[must_use]
pub fn home(real: &Path) -> Option<PathBuf> {
    let dir = real.parent()?;
    dir.ancestors()
        .find(|a| a.file_name().is_some_and(|n| n == "bin"))
        .map_or(Some(dir), Path::parent)
        .filter(|h| h.parent().is_some())
        .map(Path::to_path_buf)
}

/// Each path as given and as it really is (a prefix such as Homebrew's `opt/python@3.11` is a link: the
/// interpreter looks for its library under the name, the files live under the target).
#[must_use]
pub fn both_names(paths: &[PathBuf]) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for p in paths {
        if p.is_absolute() && p.exists() {
            out.push(p.clone());
            if let Ok(real) = p.canonicalize() {
                out.push(real);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::symlink;

    fn touch(path: &Path) {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, "").unwrap();
    }

    #[test]
    fn a_chain_follows_relative_and_absolute_links_to_the_file() {
        let t = tempfile::tempdir().unwrap();
        let t = t.path().canonicalize().unwrap();
        let real = t.join("opt/python2.7/bin/python2.7");
        touch(&real);
        symlink("python2.7", t.join("opt/python2.7/bin/python2")).unwrap();
        std::fs::create_dir_all(t.join("usr/local/bin")).unwrap();
        symlink(
            t.join("opt/python2.7/bin/python2"),
            t.join("usr/local/bin/python2"),
        )
        .unwrap();
        let got = chain(&t.join("usr/local/bin/python2"));
        assert_eq!(
            got,
            [
                t.join("usr/local/bin/python2"),
                t.join("opt/python2.7/bin/python2"),
                real.clone()
            ]
        );
        // The link's folder is not inside what the sandbox sees: the first step inside it is run.
        let roots = [t.join("opt/python2.7")];
        assert_eq!(
            runnable(&t.join("usr/local/bin/python2"), &roots),
            t.join("opt/python2.7/bin/python2")
        );
        // Inside a visible folder, the name it was found by is kept.
        let roots = [t.join("usr"), t.join("opt/python2.7")];
        assert_eq!(
            runnable(&t.join("usr/local/bin/python2"), &roots),
            t.join("usr/local/bin/python2")
        );
        // Nothing visible on the way: the real file.
        assert_eq!(runnable(&t.join("usr/local/bin/python2"), &[]), real);
    }

    #[test]
    fn a_loop_of_links_ends_the_chain() {
        let t = tempfile::tempdir().unwrap();
        let t = t.path();
        symlink(t.join("b"), t.join("a")).unwrap();
        symlink(t.join("a"), t.join("b")).unwrap();
        assert_eq!(chain(&t.join("a")), [t.join("a"), t.join("b")]);
    }

    #[test]
    fn a_link_inside_a_linked_folder_is_not_run_by_its_name() {
        // `/home/linuxbrew/.linuxbrew/opt/python@3.11 -> ../Cellar/python@3.11/3.11.7`: a name under
        // `opt` reaches the file only through the folder link.
        let t = tempfile::tempdir().unwrap();
        let t = t.path().canonicalize().unwrap();
        let cellar = t.join("Cellar/python@3.11/3.11.7");
        touch(&cellar.join("bin/python3.11"));
        std::fs::create_dir_all(t.join("opt")).unwrap();
        symlink("../Cellar/python@3.11/3.11.7", t.join("opt/python@3.11")).unwrap();
        let exe = t.join("opt/python@3.11/bin/python3.11");
        let roots = [t.clone()];
        assert_eq!(runnable(&exe, &roots), cellar.join("bin/python3.11"));
    }

    #[test]
    fn an_installation_is_the_folder_above_its_bin() {
        let h = |p: &str| home(Path::new(p)).map(|p| p.display().to_string());
        assert_eq!(
            h("/opt/python2.7/bin/python2.7").as_deref(),
            Some("/opt/python2.7")
        );
        assert_eq!(
            h("/opt/swipl/lib/swipl/bin/x86_64-linux/swipl").as_deref(),
            Some("/opt/swipl/lib/swipl")
        );
        assert_eq!(h("/opt/tool/tool").as_deref(), Some("/opt/tool"));
        // Never the root itself.
        assert_eq!(h("/bin/sh"), None);
    }
}
