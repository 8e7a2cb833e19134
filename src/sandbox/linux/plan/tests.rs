//! The mount plan's checks: what is bound, read-only, and never the host's.

use super::*;

fn targets(steps: &[Step]) -> Vec<String> {
    steps
        .iter()
        .filter_map(|s| match s {
            Step::Bind {
                target, remount, ..
            } => Some(format!(
                "{} {}",
                target.to_string_lossy().trim_start_matches(ROOT),
                match remount {
                    Some(f) if f & libc::MS_RDONLY != 0 => "ro",
                    Some(_) => "rw",
                    None => "dev",
                }
            )),
            _ => None,
        })
        .collect()
}

fn shown(steps: &[RunStep]) -> Vec<String> {
    steps
        .iter()
        .map(|s| match s {
            RunStep::Tmpfs { target, .. } => format!("tmpfs {}", target.to_string_lossy()),
            RunStep::Mkdir(d) => format!("mkdir {}", d.to_string_lossy()),
            RunStep::Touch(f) => format!("touch {}", f.to_string_lossy()),
            RunStep::Move {
                fd,
                target,
                remount,
            } => format!(
                "move {fd} {} {}",
                target.to_string_lossy(),
                if remount & libc::MS_RDONLY != 0 {
                    "ro"
                } else {
                    "rw"
                }
            ),
            RunStep::Seal(t) => format!("seal {}", t.to_string_lossy()),
        })
        .collect()
}

#[test]
fn the_template_binds_toolchains_read_only_and_nothing_of_the_host_else() {
    let layout = Layout::new(&[]).unwrap();
    let t = targets(&layout.steps);
    assert!(t.contains(&"/usr ro".to_string()), "{t:?}");
    assert!(t.contains(&"/dev/null dev".to_string()), "{t:?}");
    assert!(!t.iter().any(|s| s.ends_with(" rw")), "{t:?}");
    assert!(!t
        .iter()
        .any(|s| s.starts_with("/home") || s.starts_with("/etc/shadow") || s == "/tmp"));
}

#[test]
fn a_workdir_in_tmp_gets_its_mount_point_in_the_runs_own_tmp() {
    let work = tempfile::tempdir_in("/tmp").unwrap();
    let work = absolute(work.path());
    let layout = Layout::new(&[]).unwrap();
    let RunMounts {
        trees,
        steps,
        anchors,
    } = run_mounts(&layout, &work, &[PathBuf::from("/usr/share")]).unwrap();
    // `/usr/share` is in the template's `/usr` already: only the working directory is cloned.
    assert_eq!(trees, vec![work.clone()]);
    assert!(anchors.is_empty(), "{anchors:?}");
    let s = shown(&steps);
    assert_eq!(s[..2], ["tmpfs /tmp", "tmpfs /dev/shm"], "{s:?}");
    assert_eq!(
        s.last().unwrap(),
        &format!("move {FIRST_SOURCE_FD} {} rw", work.display())
    );
    assert!(s.contains(&format!("mkdir {}", work.display())), "{s:?}");
    assert!(!s.iter().any(|x| x.starts_with("seal")), "{s:?}");
}

#[test]
fn a_workdir_elsewhere_gets_an_anchor_tmpfs_sealed_after_its_mounts() {
    // Outside `/tmp` (the run's own scratch) and outside the template: a class's results folder.
    let here = PathBuf::from("/var/tmp");
    let work = tempfile::tempdir_in(&here).unwrap();
    let work = absolute(work.path());
    let extra = tempfile::tempdir_in(&here).unwrap();
    let extra = absolute(extra.path());
    let layout = Layout::new(&[]).unwrap();
    let RunMounts {
        trees,
        steps,
        anchors,
    } = run_mounts(&layout, &work, std::slice::from_ref(&extra)).unwrap();
    let top: PathBuf = here.components().take(2).collect();
    assert_eq!(
        anchors,
        vec![Anchor {
            path: top.clone(),
            dir: true
        }]
    );
    // Both paths share one anchor; both are cloned, the read-only one first (equal depth).
    assert_eq!(trees, vec![extra.clone(), work.clone()]);
    let s = shown(&steps);
    let pos = |x: &str| {
        s.iter()
            .position(|y| y == x)
            .unwrap_or_else(|| panic!("{x} in {s:?}"))
    };
    let anchor = pos(&format!("tmpfs {}", top.display()));
    let moved_extra = pos(&format!("move {FIRST_SOURCE_FD} {} ro", extra.display()));
    let moved_work = pos(&format!(
        "move {} {} rw",
        FIRST_SOURCE_FD + 1,
        work.display()
    ));
    let sealed = pos(&format!("seal {}", top.display()));
    assert!(anchor < moved_extra && moved_extra < moved_work && moved_work < sealed);
    assert_eq!(
        s.iter().filter(|x| x.starts_with("tmpfs")).count(),
        3,
        "{s:?}"
    );
}

#[test]
fn absolute_removes_dots_without_touching_the_disk() {
    assert_eq!(absolute(Path::new("/a/./b/../c")), PathBuf::from("/a/c"));
}

#[test]
fn cpu_rlimit_rounds_up_to_whole_seconds() {
    let limits = Limits {
        cpu: std::time::Duration::from_millis(1500),
        wall: std::time::Duration::from_secs(3),
        memory: 1 << 26,
        output: 1 << 20,
        file_size: 1 << 20,
        processes: 8,
        open_files: 64,
        stack: 8 << 20,
        address_space: None,
        idle: None,
    };
    let r = rlimits(&limits);
    assert!(r.contains(&(libc::RLIMIT_CPU as libc::c_int, 2)));
    assert!(!r.iter().any(|(k, _)| *k == libc::RLIMIT_AS as libc::c_int));
}
