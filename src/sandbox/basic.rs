//! The `basic` and `none` tiers: a plain child in its own process group, with rlimits (`basic` only), a
//! clean environment, a scratch working directory, and the shared driver's timeouts and caps.

use super::process::{self, GroupProcess};
use super::sink::Stderr;
use super::{drive, Outcome, Running, Sandbox, SandboxError, Spec, Tier};

/// Own process group, rlimits (CPU, file size, open files, core 0, stack, address space when asked),
/// wall timeout with SIGTERM → grace → SIGKILL of the group, output caps, clean environment.
#[derive(Clone, Copy, Debug, Default)]
pub struct BasicSandbox;

impl BasicSandbox {
    /// Starts `spec` and hands back the concrete process (for tiers that build on this one), its
    /// stderr a pipe.
    pub fn spawn_group(&self, spec: &Spec) -> Result<GroupProcess, SandboxError> {
        Self::start(spec, Stderr::Pipe)
    }

    fn start(spec: &Spec, stderr: Stderr) -> Result<GroupProcess, SandboxError> {
        super::reaper::enable();
        process::spawn_limited(spec, super::rlimits::rlimits(&spec.limits), stderr)
    }
}

impl Sandbox for BasicSandbox {
    fn tier(&self) -> Tier {
        Tier::Basic
    }

    fn spawn(&self, spec: &Spec) -> Result<Box<dyn Running>, SandboxError> {
        Ok(Box::new(self.spawn_group(spec)?))
    }

    fn run(&self, spec: &Spec) -> Result<Outcome, SandboxError> {
        // Driven to its end: stderr goes to a file of the run's own (`sink.rs`).
        let outcome = drive::drive(Box::new(Self::start(spec, Stderr::File)?), spec);
        // Daemons that left the run's process group are adopted by the grader: kill them now.
        super::reaper::sweep();
        outcome
    }
}

/// No isolation at all, chosen explicitly: a plain spawn with a clean environment, still in its own
/// process group so the wall timeout, CPU/memory watch and output caps can stop the whole tree.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoSandbox;

impl Sandbox for NoSandbox {
    fn tier(&self) -> Tier {
        Tier::None
    }

    fn spawn(&self, spec: &Spec) -> Result<Box<dyn Running>, SandboxError> {
        Ok(Box::new(process::spawn(process::command(spec), spec)?))
    }

    fn run(&self, spec: &Spec) -> Result<Outcome, SandboxError> {
        drive::drive(self.spawn(spec)?, spec)
    }
}
