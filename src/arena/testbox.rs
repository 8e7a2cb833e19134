//! A bare sandbox for the arena's own process tests: own process group, piped stdio, kill the group.
//! The real tiers live in `crate::sandbox`; this stands in so the arena tests depend only on the trait.

use std::fs::File;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::sandbox::{
    Limits, Outcome, Running, Sandbox, SandboxError, Spec, Status, Stdin, Tier, Usage,
};

pub struct TestBox;

pub struct TestRunning {
    child: Child,
    reaped: Option<Status>,
}

pub fn limits() -> Limits {
    Limits {
        cpu: Duration::from_secs(60),
        wall: Duration::from_secs(60),
        memory: 1 << 30,
        output: 1 << 20,
        file_size: 1 << 20,
        processes: 64,
        open_files: 64,
        stack: 8 << 20,
        address_space: None,
    }
}

fn status(s: std::process::ExitStatus) -> Status {
    match s.code() {
        Some(c) => Status::Exited(c),
        None => Status::Signaled(s.signal().unwrap_or(0)),
    }
}

impl Running for TestRunning {
    fn take_stdin(&mut self) -> Option<File> {
        self.child
            .stdin
            .take()
            .map(|p| File::from(std::os::fd::OwnedFd::from(p)))
    }
    fn take_stdout(&mut self) -> Option<File> {
        self.child
            .stdout
            .take()
            .map(|p| File::from(std::os::fd::OwnedFd::from(p)))
    }
    fn take_stderr(&mut self) -> Option<File> {
        self.child
            .stderr
            .take()
            .map(|p| File::from(std::os::fd::OwnedFd::from(p)))
    }
    fn try_wait(&mut self) -> Result<Option<Status>, SandboxError> {
        if let Some(s) = self.reaped {
            return Ok(Some(s));
        }
        let s = self.child.try_wait().map_err(|source| SandboxError::Io {
            doing: "waiting",
            source,
        })?;
        self.reaped = s.map(status);
        Ok(self.reaped)
    }
    fn terminate(&mut self) {
        // SAFETY: signalling our own child's process group.
        unsafe { libc::kill(-(self.child.id() as i32), libc::SIGTERM) };
    }
    fn kill(&mut self) {
        // SAFETY: as above.
        unsafe { libc::kill(-(self.child.id() as i32), libc::SIGKILL) };
        if self.reaped.is_none() {
            self.reaped = self.child.wait().ok().map(status);
        }
    }
    fn usage(&mut self) -> Usage {
        Usage::default()
    }
}

impl Drop for TestRunning {
    fn drop(&mut self) {
        self.kill();
    }
}

impl Sandbox for TestBox {
    fn tier(&self) -> Tier {
        Tier::None
    }

    fn spawn(&self, spec: &Spec) -> Result<Box<dyn Running>, SandboxError> {
        let mut cmd = Command::new(&spec.program);
        cmd.args(&spec.args)
            .current_dir(&spec.workdir)
            .env_clear()
            .env("PATH", "/usr/local/bin:/usr/bin:/bin")
            .envs(spec.env.iter().map(|(k, v)| (k, v)))
            .process_group(0)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .stdin(match spec.stdin {
                Stdin::Piped => Stdio::piped(),
                _ => Stdio::null(),
            });
        let child = cmd.spawn().map_err(|source| SandboxError::Spawn {
            program: spec.program.to_string_lossy().into_owned(),
            source,
        })?;
        Ok(Box::new(TestRunning {
            child,
            reaped: None,
        }))
    }

    fn run(&self, spec: &Spec) -> Result<Outcome, SandboxError> {
        let start = Instant::now();
        let mut running = self.spawn(spec)?;
        let out = running.take_stdout().expect("stdout");
        let mut err = running.take_stderr().expect("stderr");
        let errs = std::thread::spawn(move || {
            let mut v = Vec::new();
            let _ = std::io::Read::read_to_end(&mut err, &mut v);
            v
        });
        let mut reader = super::lines::LineReader::new(out, spec.limits.output as usize);
        let mut stdout = Vec::new();
        let deadline = Some(start + spec.limits.wall);
        let mut limit = None;
        loop {
            match reader.read_line(deadline) {
                Ok(super::lines::ReadLine::Line(l)) => {
                    stdout.extend_from_slice(&l);
                    stdout.push(b'\n');
                }
                Ok(super::lines::ReadLine::Eof) => break,
                Ok(super::lines::ReadLine::Timeout) => {
                    limit = Some(crate::sandbox::LimitHit::Wall);
                    break;
                }
                Ok(super::lines::ReadLine::TooLong(_)) | Err(_) => {
                    limit = Some(crate::sandbox::LimitHit::Output);
                    break;
                }
            }
        }
        if limit.is_some() {
            running.kill();
        }
        let status = loop {
            if let Some(s) = running.try_wait()? {
                break s;
            }
            if Instant::now() > start + spec.limits.wall {
                running.kill();
                limit = Some(crate::sandbox::LimitHit::Wall);
            }
            std::thread::sleep(Duration::from_millis(1));
        };
        Ok(Outcome {
            status,
            cpu: Duration::ZERO,
            wall: start.elapsed(),
            peak_memory: None,
            stdout,
            stderr: errs.join().unwrap_or_default(),
            stdout_truncated: false,
            stderr_truncated: false,
            limit,
        })
    }
}
