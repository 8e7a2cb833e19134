//! The per-move protocol: the program runs once per move with the state in its arguments (Adelaide
//! `tmmorris STATE PATH PLY TURN`, the Oska predicate's shape); its answer is the last non-empty line of
//! its stdout. See PROTOCOLS.md.

use std::ffi::OsString;
use std::sync::Arc;
use std::time::Duration;

use crate::sandbox::{LimitHit, Sandbox, Spec, Status, Stdin, Usage};

use crate::arena::game::ArenaGame;
use crate::arena::seat::persistent::describe;
use crate::arena::seat::{Reply, Seat, Start};

/// The placeholders an argument template may use.
pub const PLACEHOLDERS: [&str; 5] = ["{state}", "{side}", "{last}", "{limit-ms}", "{seed}"];

/// Fills `{state}`, `{side}`, `{last}`, `{limit-ms}` and `{seed}` in one argument.
#[must_use]
pub fn fill(template: &str, values: &[(&str, &str)]) -> String {
    let mut out = template.to_string();
    for (key, value) in values {
        out = out.replace(key, value);
    }
    out
}

/// A program run once per move.
pub struct PerMoveSeat {
    sandbox: Arc<dyn Sandbox>,
    /// `spec.args` are templates; `spec.limits.wall` is replaced by each move's deadline.
    spec: Spec,
    seed: u64,
    limit: Option<Duration>,
    stderr: Option<String>,
    /// What this game's runs used: CPU summed, the highest peak memory.
    used: Option<Usage>,
}

impl PerMoveSeat {
    #[must_use]
    pub fn new(sandbox: Arc<dyn Sandbox>, spec: Spec) -> PerMoveSeat {
        PerMoveSeat {
            sandbox,
            spec,
            seed: 0,
            limit: None,
            stderr: None,
            used: None,
        }
    }
}

/// The answer: the last non-empty line of stdout, trimmed.
fn answer(stdout: &[u8]) -> Result<String, Reply> {
    let text = std::str::from_utf8(stdout).map_err(|_| Reply::Garbage)?;
    Ok(text
        .lines()
        .rev()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .unwrap_or("")
        .to_string())
}

impl<G: ArenaGame> Seat<G> for PerMoveSeat {
    fn start(&mut self, start: &Start) -> Result<(), Reply> {
        self.seed = start.seed;
        self.limit = start.limit;
        Ok(())
    }

    fn request(&mut self, state: &G, last: Option<&str>, deadline: Option<Duration>) -> Reply {
        let encoded = state.encode();
        let limit_ms = self
            .limit
            .map_or_else(|| "none".to_string(), |l| l.as_millis().to_string());
        let seed = self.seed.to_string();
        let values = [
            ("{state}", encoded.as_str()),
            ("{side}", G::side_arg(state.to_move())),
            ("{last}", last.unwrap_or(G::no_move())),
            ("{limit-ms}", limit_ms.as_str()),
            ("{seed}", seed.as_str()),
        ];
        let mut spec = self.spec.clone();
        spec.args = self
            .spec
            .args
            .iter()
            .map(|a| OsString::from(fill(&a.to_string_lossy(), &values)))
            .collect();
        spec.stdin = Stdin::Null;
        if let Some(d) = deadline {
            spec.limits.wall = d;
        }
        let outcome = match self.sandbox.run(&spec) {
            Ok(o) => o,
            Err(e) => return Reply::Broken(format!("{e:#}")),
        };
        let used = self.used.get_or_insert_with(Usage::default);
        used.cpu += outcome.cpu;
        used.peak_memory = used.peak_memory.max(outcome.peak_memory);
        if !outcome.stderr.is_empty() {
            let tail = outcome.stderr.len().saturating_sub(4096);
            self.stderr = Some(crate::arena::seat::persistent::printable_tail(
                &outcome.stderr[tail..],
                &spec,
            ));
        }
        match outcome.limit {
            Some(LimitHit::Wall | LimitHit::Cpu) => return Reply::Timeout,
            Some(LimitHit::Idle) => return Reply::Idle(spec.limits.idle.unwrap_or_default()),
            Some(LimitHit::Output) => return Reply::Flood(outcome.stdout.len()),
            Some(LimitHit::Stderr) => {
                return Reply::Crashed(format!(
                    "wrote more than the {} MiB file-size limit to stderr",
                    spec.limits.file_size >> 20
                ))
            }
            Some(LimitHit::Memory) => return Reply::Crashed("out of memory".into()),
            None => {}
        }
        if outcome.status != Status::Exited(0) {
            return Reply::Crashed(describe(outcome.status));
        }
        match answer(&outcome.stdout) {
            Ok(line) => Reply::Line(line),
            Err(fault) => fault,
        }
    }

    fn stderr_tail(&mut self) -> Option<String> {
        self.stderr.clone()
    }

    fn usage(&self) -> Option<Usage> {
        self.used
    }
}
