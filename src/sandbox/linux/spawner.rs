//! The thread every `full` run is cloned from. It lives in a mount namespace of its own whose root is
//! the sandbox's template (toolchains bound read-only, devices, empty mount points), built once; a run's
//! init then starts from a copy of that small tree and mounts only its own paths, instead of copying the
//! host's mounts, binding every toolchain again and detaching the host's tree at every run.
//!
//! Only the `clone` itself happens on this thread (a new mount namespace copies the cloning thread's);
//! everything else of a start stays on the caller's thread. The template's directories live on one
//! tmpfs shared by every run, read-only; a run's paths are mounted over empty directories the spawner
//! adds to it on first need (their names are the first components the template lacks, such as `/work`,
//! never a run's own folder).

use std::ffi::CString;
use std::io;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{channel, sync_channel, Sender, SyncSender};
use std::sync::{Arc, Mutex, OnceLock};

use super::plan::{Anchor, Layout, Step, ROOT};

/// What the spawner thread clones: a function of the caller's that makes the `clone` system call and
/// returns its result (the child never returns from it). Not `Sync` (a plan holds raw pointers), but it
/// only reads what it captured while its owner is blocked waiting for the reply.
type CloneFn = dyn Fn() -> libc::pid_t;

struct Job {
    anchors: Vec<Anchor>,
    /// Borrowed from the caller of [`Spawner::clone_init`], which blocks until the reply.
    clone: *const CloneFn,
    reply: SyncSender<io::Result<libc::pid_t>>,
}

// SAFETY: `clone` outlives the job and is used by one thread at a time: its owner waits for the reply.
unsafe impl Send for Job {}

/// A spawner thread with its template built.
pub struct Spawner {
    jobs: Mutex<Sender<Job>>,
    layout: Layout,
}

impl std::fmt::Debug for Spawner {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Spawner")
    }
}

impl Spawner {
    /// The spawner for sandboxes with these extra read-only paths: one thread per distinct set, for the
    /// life of the process (a grading makes one or two sandboxes, a test run a handful of sets).
    pub fn shared(read_only: &[PathBuf]) -> Result<Arc<Spawner>, String> {
        type Spawners = Mutex<Vec<(Vec<PathBuf>, Arc<Spawner>)>>;
        static SPAWNERS: OnceLock<Spawners> = OnceLock::new();
        let mut all = SPAWNERS
            .get_or_init(|| Mutex::new(Vec::new()))
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        if let Some((_, s)) = all.iter().find(|(r, _)| r == read_only) {
            return Ok(s.clone());
        }
        let layout = Layout::new(read_only).map_err(|e| e.to_string())?;
        let spawner = Arc::new(Spawner::start(layout)?);
        all.push((read_only.to_vec(), spawner.clone()));
        Ok(spawner)
    }

    /// Starts the thread and waits until it has built the template (or says why it could not).
    fn start(layout: Layout) -> Result<Spawner, String> {
        let template = layout.clone();
        let (tx, rx) = channel::<Job>();
        let (ready_tx, ready_rx) = sync_channel::<Result<(), String>>(1);
        std::thread::Builder::new()
            .name("grader-spawner".into())
            .spawn(move || {
                let built = build(&template);
                let ok = built.is_ok();
                let _ = ready_tx.send(built);
                if !ok {
                    return;
                }
                for job in rx {
                    let out = ensure(&job.anchors).map(|()| {
                        // SAFETY: see `Job::clone`.
                        unsafe { (*job.clone)() }
                    });
                    let _ = job.reply.send(out);
                }
            })
            .map_err(|e| format!("cannot start the spawner thread: {e}"))?;
        ready_rx
            .recv()
            .map_err(|_| "the spawner thread ended while building the template".to_owned())??;
        Ok(Spawner {
            jobs: Mutex::new(tx),
            layout,
        })
    }

    /// What the template holds, for planning runs on it.
    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    /// Makes sure the template has `anchors`, then runs `clone` on the spawner thread: its result.
    pub fn clone_init<'a>(
        &self,
        anchors: &[Anchor],
        clone: &'a (dyn Fn() -> libc::pid_t + 'a),
    ) -> io::Result<libc::pid_t> {
        let (reply, answer) = sync_channel(1);
        let job = Job {
            anchors: anchors.to_vec(),
            // SAFETY (of the later dereference): we wait for the reply below, so `clone` outlives it.
            clone: unsafe {
                std::mem::transmute::<&'a (dyn Fn() -> libc::pid_t + 'a), &'static CloneFn>(clone)
            },
            reply,
        };
        let gone = || io::Error::other("the spawner thread is gone");
        self.jobs
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .send(job)
            .map_err(|_| gone())?;
        answer.recv().map_err(|_| gone())?
    }
}

fn c(path: &Path) -> io::Result<CString> {
    CString::new(path.as_os_str().as_bytes())
        .map_err(|_| io::Error::other(format!("`{}` contains a NUL byte", path.display())))
}

/// A failed call, with what it was doing.
fn check(r: libc::c_int, doing: impl FnOnce() -> String) -> io::Result<()> {
    if r < 0 {
        let e = io::Error::last_os_error();
        return Err(io::Error::new(e.kind(), format!("{}: {e}", doing())));
    }
    Ok(())
}

fn mount(
    source: Option<&CString>,
    target: &CString,
    fstype: Option<&CString>,
    flags: libc::c_ulong,
    data: Option<&CString>,
) -> io::Result<()> {
    let ptr = |s: Option<&CString>| s.map_or(std::ptr::null(), |s| s.as_ptr());
    // SAFETY: valid C strings or null, as mount(2) accepts.
    let r = unsafe {
        libc::mount(
            ptr(source),
            target.as_ptr(),
            ptr(fstype),
            flags,
            ptr(data).cast(),
        )
    };
    check(r, || format!("mounting on `{}`", target.to_string_lossy()))
}

/// Flags of the template's root: read-only while sealed.
const ROOT_FLAGS: libc::c_ulong =
    libc::MS_REMOUNT | libc::MS_BIND | libc::MS_NOSUID | libc::MS_NODEV;

/// Moves this thread into a mount namespace of its own and makes it the template: a tmpfs root with
/// the layout's binds, a `/proc` (a run may mount its own `/proc` only where one is fully visible), and
/// nothing of the host's tree.
fn build(layout: &Layout) -> Result<(), String> {
    build_io(layout).map_err(|e| format!("cannot build the sandbox template: {e}"))
}

fn build_io(layout: &Layout) -> io::Result<()> {
    // SAFETY: plain syscall; CLONE_NEWNS gives this thread (only) its own copy of the mount table.
    check(unsafe { libc::unshare(libc::CLONE_NEWNS) }, || {
        "entering a mount namespace of its own".into()
    })?;
    let slash = c(Path::new("/"))?;
    mount(None, &slash, None, libc::MS_REC | libc::MS_PRIVATE, None)?;
    std::fs::create_dir_all(ROOT)?;
    let root = c(Path::new(ROOT))?;
    let tmpfs = c(Path::new("tmpfs"))?;
    mount(
        Some(&tmpfs),
        &root,
        Some(&tmpfs),
        libc::MS_NOSUID | libc::MS_NODEV,
        Some(&c(Path::new("size=1m,mode=0755"))?),
    )?;
    for step in &layout.steps {
        match step {
            Step::Mkdir(dir) => {
                // SAFETY: a valid C string.
                if unsafe { libc::mkdir(dir.as_ptr(), 0o755) } < 0 {
                    let e = io::Error::last_os_error();
                    if e.kind() != io::ErrorKind::AlreadyExists {
                        return Err(e);
                    }
                }
            }
            Step::Touch(file) => {
                std::fs::File::create(Path::new(std::ffi::OsStr::from_bytes(file.as_bytes())))?;
            }
            Step::Symlink { target, link } => {
                // SAFETY: valid C strings.
                check(
                    unsafe { libc::symlink(target.as_ptr(), link.as_ptr()) },
                    || format!("linking `{}`", link.to_string_lossy()),
                )?;
            }
            Step::Bind {
                source,
                target,
                remount,
            } => {
                mount(
                    Some(source),
                    target,
                    None,
                    libc::MS_BIND | libc::MS_REC,
                    None,
                )?;
                if let Some(flags) = remount {
                    mount(None, target, None, *flags, None)?;
                }
            }
        }
    }
    let proc_fs = c(Path::new("proc"))?;
    mount(
        Some(&proc_fs),
        &c(&Path::new(ROOT).join("proc"))?,
        Some(&proc_fs),
        libc::MS_NOSUID | libc::MS_NODEV | libc::MS_NOEXEC,
        None,
    )?;
    std::env::set_current_dir(ROOT)?;
    let dot = c(Path::new("."))?;
    // SAFETY: valid C strings; pivot_root(".", ".") stacks the old root on the new one...
    check(
        unsafe { libc::syscall(libc::SYS_pivot_root, dot.as_ptr(), dot.as_ptr()) } as libc::c_int,
        || "switching to the template root".into(),
    )?;
    // ...and detaching it leaves only the template.
    // SAFETY: a valid C string.
    check(
        unsafe { libc::umount2(dot.as_ptr(), libc::MNT_DETACH) },
        || "detaching the host's mounts".into(),
    )?;
    std::env::set_current_dir("/")?;
    mount(None, &slash, None, ROOT_FLAGS | libc::MS_RDONLY, None)
}

/// Adds what `anchors` need to the template, which is unsealed only for that.
fn ensure(anchors: &[Anchor]) -> io::Result<()> {
    let missing: Vec<&Anchor> = anchors
        .iter()
        .filter(|a| std::fs::symlink_metadata(&a.path).is_err())
        .collect();
    if missing.is_empty() {
        return Ok(());
    }
    let slash = c(Path::new("/"))?;
    mount(None, &slash, None, ROOT_FLAGS, None)?;
    let made = missing.iter().try_for_each(|a| {
        if a.dir {
            std::fs::create_dir_all(&a.path)
        } else {
            std::fs::File::create(&a.path).map(drop)
        }
    });
    mount(None, &slash, None, ROOT_FLAGS | libc::MS_RDONLY, None)?;
    made
}
