//! Issue 14: the shipped Slurm scripts (`deploy/slurm/`) on a real single-node cluster started here
//! (munged, slurmctld and slurmd as children, stopped even when the test fails): an array of three
//! shards and the merge that depends on it give the results of one run.

use std::io::Read as _;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::shard::{ok, tree};
use crate::util::{repo, scratch};

/// `tool` on the PATH or in the system folders daemons live in.
fn find(tool: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .chain(["/usr/sbin", "/sbin", "/usr/bin"].map(PathBuf::from))
        .map(|d| d.join(tool))
        .find(|p| p.is_file())
}

/// The daemons, stopped and reaped when dropped (a failed assertion included).
struct Cluster {
    children: Vec<Child>,
    dir: PathBuf,
}

impl Drop for Cluster {
    fn drop(&mut self) {
        for child in self.children.iter_mut().rev() {
            // SIGTERM first: slurmctld saves its state and goes; then make sure.
            let pid = libc::pid_t::try_from(child.id()).unwrap_or(0);
            if pid > 0 {
                unsafe { libc::kill(pid, libc::SIGTERM) };
            }
            let start = Instant::now();
            while child.try_wait().ok().flatten().is_none() {
                if start.elapsed() > Duration::from_secs(5) {
                    let _ = child.kill();
                    let _ = child.wait();
                    break;
                }
                std::thread::sleep(Duration::from_millis(50));
            }
        }
    }
}

impl Cluster {
    /// Everything the daemons logged, for a failure's message.
    fn logs(&self) -> String {
        let mut all = String::new();
        for name in ["munged.log", "slurmctld.log", "slurmd.log"] {
            let text = std::fs::read_to_string(self.dir.join(name)).unwrap_or_default();
            let tail: Vec<&str> = text.lines().rev().take(20).collect();
            all.push_str(&format!("--- {name}\n"));
            for line in tail.into_iter().rev() {
                all.push_str(line);
                all.push('\n');
            }
        }
        all
    }
}

/// A free TCP port on this machine (free when asked; the daemons take it a moment later).
fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// Waits up to `limit` for `ready`, panicking with `what` and the daemons' logs.
#[track_caller]
fn wait_for(cluster: &Cluster, limit: Duration, what: &str, mut ready: impl FnMut() -> bool) {
    let start = Instant::now();
    while !ready() {
        assert!(
            start.elapsed() < limit,
            "timed out waiting for {what}\n{}",
            cluster.logs()
        );
        std::thread::sleep(Duration::from_millis(250));
    }
}

/// Starts munged (its own key and socket), slurmctld and slurmd on one node, all in `dir`, and waits
/// for the node to be idle. `None` (and why, printed) when this machine cannot.
fn start(dir: &Path) -> Option<Cluster> {
    let tools: Vec<Option<PathBuf>> = ["munged", "slurmctld", "slurmd", "sbatch", "scontrol"]
        .iter()
        .map(|t| find(t))
        .collect();
    if tools.iter().any(Option::is_none) {
        eprintln!(
            "skipped: Slurm is not installed (needs munged, slurmctld, slurmd, sbatch, scontrol: Debian's `slurm-wlm` and `munge`)"
        );
        return None;
    }
    if unsafe { libc::geteuid() } != 0 {
        eprintln!("skipped: a Slurm cluster needs root (slurmd runs jobs as their user)");
        return None;
    }
    let tool = |i: usize| tools[i].clone().unwrap();
    let munge = dir.join("munge");
    std::fs::create_dir_all(&munge).unwrap();
    let mut key = vec![0u8; 128];
    std::fs::File::open("/dev/urandom")
        .unwrap()
        .read_exact(&mut key)
        .unwrap();
    let key_file = munge.join("munge.key");
    std::fs::write(&key_file, &key).unwrap();
    use std::os::unix::fs::PermissionsExt as _;
    std::fs::set_permissions(&key_file, std::fs::Permissions::from_mode(0o600)).unwrap();
    std::fs::set_permissions(&munge, std::fs::Permissions::from_mode(0o711)).unwrap();
    let socket = munge.join("munge.socket");
    let mut cluster = Cluster {
        children: Vec::new(),
        dir: dir.to_path_buf(),
    };
    let quiet = |cmd: &mut Command| {
        cmd.stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap()
    };
    cluster.children.push(quiet(
        Command::new(tool(0))
            .args(["--foreground", "--force"])
            .arg(format!("--key-file={}", key_file.display()))
            .arg(format!("--socket={}", socket.display()))
            .arg(format!("--pid-file={}", munge.join("munged.pid").display()))
            .arg(format!(
                "--seed-file={}",
                munge.join("munged.seed").display()
            ))
            .arg(format!("--log-file={}", dir.join("munged.log").display())),
    ));
    wait_for(&cluster, Duration::from_secs(20), "munged's socket", || {
        socket.exists()
    });
    // The node as slurmd sees this machine, so it is never drained for having fewer CPUs.
    let probe = Command::new(tool(2)).arg("-C").output().unwrap();
    let probe = String::from_utf8_lossy(&probe.stdout);
    let cpus = probe
        .split_whitespace()
        .find_map(|w| w.strip_prefix("CPUs="))
        .unwrap_or("1")
        .to_string();
    let host = std::fs::read_to_string("/proc/sys/kernel/hostname").unwrap();
    let host = host.trim().split('.').next().unwrap().to_string();
    for sub in ["state", "spool"] {
        std::fs::create_dir_all(dir.join(sub)).unwrap();
    }
    let d = dir.display();
    let conf = format!(
        "ClusterName=gradertest
SlurmctldHost={host}(127.0.0.1)
SlurmctldPort={ctld}
SlurmdPort={slurmd}
AuthType=auth/munge
AuthInfo=socket={socket}
CredType=cred/munge
SlurmUser=root
SlurmdUser=root
StateSaveLocation={d}/state
SlurmdSpoolDir={d}/spool
SlurmctldPidFile={d}/slurmctld.pid
SlurmdPidFile={d}/slurmd.pid
SlurmctldLogFile={d}/slurmctld.log
SlurmdLogFile={d}/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
MpiDefault=none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SwitchType=switch/none
NodeName=gradernode NodeAddr=127.0.0.1 CPUs={cpus} State=UNKNOWN
PartitionName=grading Nodes=gradernode Default=YES MaxTime=INFINITE State=UP
",
        ctld = free_port(),
        slurmd = free_port(),
        socket = socket.display(),
    );
    std::fs::write(dir.join("slurm.conf"), conf).unwrap();
    let conf = dir.join("slurm.conf");
    cluster.children.push(quiet(
        Command::new(tool(1)).args(["-D", "-i", "-f"]).arg(&conf),
    ));
    cluster.children.push(quiet(
        Command::new(tool(2))
            .args(["-D", "-N", "gradernode", "-f"])
            .arg(&conf),
    ));
    let scontrol = tool(4);
    wait_for(&cluster, Duration::from_secs(60), "an idle node", || {
        Command::new(&scontrol)
            .args(["show", "node", "gradernode"])
            .env("SLURM_CONF", &conf)
            .output()
            .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).contains("State=IDLE"))
    });
    Some(cluster)
}

/// The state of job `id` (`COMPLETED`, `PENDING`, ...), as `scontrol` says.
fn job_state(conf: &Path, id: &str) -> String {
    let out = Command::new(find("scontrol").unwrap())
        .args(["show", "job", id])
        .env("SLURM_CONF", conf)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    text.split_whitespace()
        .find_map(|w| w.strip_prefix("JobState="))
        .unwrap_or("UNKNOWN")
        .to_string()
}

#[test]
fn a_slurm_array_of_three_shards_and_its_merge_equal_one_run() {
    let dir = scratch();
    let Some(cluster) = start(&dir.path().join("cluster")) else {
        return;
    };
    let conf = dir.path().join("cluster/slurm.conf");
    let class = dir.path().join("class");
    std::fs::create_dir_all(&class).unwrap();
    for name in [
        "python-correct",
        "crashes",
        "debug-prints",
        "post-order",
        "ties-last-blank",
    ] {
        let example = repo()
            .join("examples/submissions/adelaide-2021-a1")
            .join(name);
        std::os::unix::fs::symlink(example, class.join(name)).unwrap();
    }
    let suite = repo().join("suites/adelaide-2021-a1");
    let one = dir.path().join("one");
    ok(&[
        "run".as_ref(),
        suite.as_os_str(),
        class.as_os_str(),
        "--out".as_ref(),
        one.as_os_str(),
    ]);
    let out = dir.path().join("slurm");
    let submitted = Command::new(repo().join("deploy/slurm/submit.sh"))
        .arg("3")
        .arg(&suite)
        .arg(&class)
        .arg(&out)
        .arg("--cpus-per-task=1")
        .env("SLURM_CONF", &conf)
        .env("GRADER", env!("CARGO_BIN_EXE_grader"))
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&submitted.stdout).into_owned();
    assert!(
        submitted.status.success(),
        "{said}\n{}\n{}",
        String::from_utf8_lossy(&submitted.stderr),
        cluster.logs()
    );
    // `array job 12 (3 shards), merge job 13: results in ...`
    let merge = said
        .split("merge job ")
        .nth(1)
        .and_then(|s| s.split(':').next())
        .unwrap_or_else(|| panic!("{said}"))
        .to_string();
    let logs = || {
        let mut all = cluster.logs();
        for entry in std::fs::read_dir(out.join("logs")).into_iter().flatten() {
            let path = entry.unwrap().path();
            all.push_str(&format!(
                "--- {}\n{}",
                path.display(),
                crate::util::read(&path)
            ));
        }
        all
    };
    let start = Instant::now();
    loop {
        let state = job_state(&conf, &merge);
        if state == "COMPLETED" {
            break;
        }
        assert!(
            ![
                "FAILED",
                "CANCELLED",
                "TIMEOUT",
                "NODE_FAIL",
                "OUT_OF_MEMORY"
            ]
            .contains(&state.as_str()),
            "the merge job ended {state}\n{}",
            logs()
        );
        assert!(
            start.elapsed() < Duration::from_secs(600),
            "the array and its merge took over 10 minutes (merge job {state})\n{}",
            logs()
        );
        std::thread::sleep(Duration::from_secs(1));
    }
    let name = suite.file_name().unwrap();
    let whole = tree(&one.join(name));
    let merged = tree(&out.join("results").join(name));
    assert_eq!(
        whole.keys().collect::<Vec<_>>(),
        merged.keys().collect::<Vec<_>>(),
        "{}",
        logs()
    );
    for (path, text) in &whole {
        assert_eq!(text, &merged[path], "{} differs", path.display());
    }
    for k in 1..=3 {
        assert!(out
            .join(format!("shard-{k}/adelaide-2021-a1/shard.json"))
            .is_file());
    }
    drop(cluster);
}
