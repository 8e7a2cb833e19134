//! `grader run --out`: an output folder inside, equal to, or holding the class folder is refused (a
//! second run would grade the results as a student and overwrite a 15/15 with a 0, silently), and so
//! is a file or a FIFO, before anything is graded.

use std::path::Path;

use crate::util::{copy_dir, grader, repo, scratch};

/// The play-ttt fixture suite and a copy of its class in `dir/class`.
fn class(dir: &Path) -> (std::path::PathBuf, std::path::PathBuf) {
    let suite = repo().join("tests/fixtures/play-ttt");
    let class = dir.join("class");
    copy_dir(&repo().join("tests/fixtures/play-ttt-class"), &class);
    (suite, class)
}

#[track_caller]
fn refused(suite: &Path, class: &Path, out: &Path, says: &str) {
    let run = grader()
        .arg("run")
        .arg(suite)
        .arg(class)
        .arg("--out")
        .arg(out)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert_eq!(run.status.code(), Some(2), "{}: {stderr}", out.display());
    assert!(stderr.contains(says), "{}: {stderr}", out.display());
    // Refused before grading: nothing was built or written.
    assert!(
        !stderr.contains("graded") && !stderr.contains("results:"),
        "{stderr}"
    );
}

#[test]
fn an_out_folder_inside_equal_to_or_holding_the_class_is_refused() {
    let dir = scratch();
    let (suite, class) = class(dir.path());
    let before: Vec<_> = std::fs::read_dir(&class)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    refused(&suite, &class, &class, "is the class folder");
    refused(
        &suite,
        &class,
        &class.join("results"),
        "is inside the class folder",
    );
    refused(
        &suite,
        &class,
        &class.join("good/../results"),
        "is inside the class folder",
    );
    refused(&suite, &class, dir.path(), "holds the class folder");
    // A link to the class folder is the class folder.
    let link = dir.path().join("link");
    std::os::unix::fs::symlink(&class, &link).unwrap();
    refused(
        &suite,
        &class,
        &link.join("out"),
        "is inside the class folder",
    );
    let after: Vec<_> = std::fs::read_dir(&class)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(before, after, "the class folder was written");
}

#[test]
fn a_file_or_a_fifo_as_out_is_refused_before_grading() {
    let dir = scratch();
    let (suite, class) = class(dir.path());
    let file = dir.path().join("results.txt");
    std::fs::write(&file, "not a folder").unwrap();
    refused(&suite, &class, &file, "is not a folder");
    let fifo = dir.path().join("fifo");
    let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
    // SAFETY: a valid C string.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0);
    refused(&suite, &class, &fifo, "is not a folder");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "not a folder");
}
