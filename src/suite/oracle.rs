//! Oracles: reference solvers a suite names (`reference = "tictactoe"`) to compute expected outputs from
//! a case's own arguments, and the named wrong-but-recognisable variants of each.

use std::sync::Arc;

use reference::adelaide::{self, Mode, Variant};
use reference::divergence;

/// What a reference solver produces for one case: the expected stdout and the visited-node trace.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solved {
    pub stdout: String,
    /// The file the program is asked to write (empty when it must write nothing).
    pub file: String,
}

/// A family of reference solvers, addressed by program name.
pub trait Oracle: Send + Sync {
    /// The program names this oracle answers for (`tictactoe`, `tmmorris`).
    fn programs(&self) -> Vec<&'static str>;
    /// Solves a case given the arguments exactly as the student program receives them. `variant` is
    /// `None` for the golden behaviour, or one of `variants()`'s names.
    fn solve(
        &self,
        program: &str,
        args: &[String],
        variant: Option<&str>,
    ) -> Result<Solved, String>;
    /// The named variants (name, description) the trace comparator can recognise, golden excluded.
    fn variants(&self) -> Vec<(&'static str, &'static str)>;
    /// Which search a case's arguments ask for (`plain`, `prune`, `prune+ply` with its ply), for the
    /// nodes-visited count; `None` where the program has no such modes.
    fn search_mode(&self, _program: &str, _args: &[String]) -> Option<SearchMode> {
        None
    }
    /// Where a trace that agrees with the golden one (`golden`, the expected file's text) in its states
    /// up to `line` parts from it, and the v, α, β with which the reference decides there, in one
    /// sentence; `expected` and `actual` are the states at that line (`None` past an end). Read off
    /// the golden trace, never searched: the student build explains a parting too.
    fn parting(
        &self,
        _program: &str,
        _args: &[String],
        _golden: &str,
        _line: u64,
        _expected: Option<&str>,
        _actual: Option<&str>,
    ) -> Option<String> {
        None
    }
}

/// A tic-tac-toe search mode, as `result.json` names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchMode {
    /// `plain`, `prune` or `prune+ply`.
    pub name: &'static str,
    pub ply: Option<u32>,
}

/// The mode a `tictactoe STATE PATH [prune [PLY]]` command line asks for.
fn tictactoe_mode(program: &str, args: &[String]) -> Option<(String, Mode)> {
    let words: Vec<&str> = args.iter().map(String::as_str).collect();
    match (program, words.as_slice()) {
        ("tictactoe", [state, _]) => Some((state.to_string(), Mode::Plain)),
        ("tictactoe", [state, _, "prune"]) => Some((state.to_string(), Mode::Prune)),
        ("tictactoe", [state, _, "prune", ply]) => adelaide::parse_ply(ply)
            .ok()
            .map(|ply| (state.to_string(), Mode::Ply(ply))),
        _ => None,
    }
}

/// Every oracle built into the grader.
pub fn builtin() -> Arc<dyn Oracle> {
    Arc::new(Adelaide)
}

/// The Adelaide 2021 A1 solvers (`reference::adelaide`), reading the handout's own command lines:
/// `tictactoe STATE PATH [prune [PLY]]` and `tmmorris STATE PATH PLY TURN`. In the student build it
/// knows the programs and the variants' names, and solves nothing.
#[derive(Debug, Default)]
pub struct Adelaide;

impl Oracle for Adelaide {
    fn programs(&self) -> Vec<&'static str> {
        vec!["tictactoe", "tmmorris"]
    }

    #[cfg(feature = "student")]
    fn solve(
        &self,
        program: &str,
        _args: &[String],
        _variant: Option<&str>,
    ) -> Result<Solved, String> {
        Err(format!(
            "this student build computes no `{program}` answer: it checks only the outputs its kit holds (the public cases' golden files and variants)"
        ))
    }

    #[cfg(not(feature = "student"))]
    fn solve(
        &self,
        program: &str,
        args: &[String],
        variant: Option<&str>,
    ) -> Result<Solved, String> {
        let variant = match variant {
            None => Variant::Golden,
            Some(name) => {
                Variant::from_name(name).ok_or_else(|| format!("unknown variant `{name}`"))?
            }
        };
        let words: Vec<&str> = args.iter().map(String::as_str).collect();
        let solution = match (program, words.as_slice()) {
            ("tictactoe", [state, _path]) => adelaide::tictactoe(state, Mode::Plain, variant),
            ("tictactoe", [state, _path, "prune"]) => {
                adelaide::tictactoe(state, Mode::Prune, variant)
            }
            ("tictactoe", [state, _path, "prune", ply]) => adelaide::parse_ply(ply)
                .and_then(|ply| adelaide::tictactoe(state, Mode::Ply(ply), variant)),
            ("tictactoe", _) => return Err("expected `STATE PATH [prune [PLY]]`".to_string()),
            ("tmmorris", [state, _path, ply, turn]) => adelaide::parse_ply(ply).and_then(|ply| {
                adelaide::parse_turn(turn)
                    .and_then(|turn| adelaide::tmmorris(state, ply, turn, variant))
            }),
            ("tmmorris", _) => return Err("expected `STATE PATH PLY TURN`".to_string()),
            (other, _) => return Err(format!("no reference solver named `{other}`")),
        };
        let solution = solution.map_err(|e| e.to_string())?;
        Ok(Solved {
            stdout: solution.stdout(),
            file: solution.trace_text(),
        })
    }

    fn variants(&self) -> Vec<(&'static str, &'static str)> {
        Variant::ALL
            .iter()
            .filter(|v| **v != Variant::Golden)
            .map(|v| (v.name(), v.describe()))
            .collect()
    }

    fn search_mode(&self, program: &str, args: &[String]) -> Option<SearchMode> {
        let (_, mode) = tictactoe_mode(program, args)?;
        Some(match mode {
            Mode::Plain => SearchMode {
                name: "plain",
                ply: None,
            },
            Mode::Prune => SearchMode {
                name: "prune",
                ply: None,
            },
            Mode::Ply(ply) => SearchMode {
                name: "prune+ply",
                ply: Some(ply),
            },
        })
    }

    fn parting(
        &self,
        program: &str,
        args: &[String],
        golden: &str,
        line: u64,
        expected: Option<&str>,
        actual: Option<&str>,
    ) -> Option<String> {
        let (state, mode) = tictactoe_mode(program, args)?;
        divergence::parting(&state, mode, golden, line, expected, actual).map(|p| p.describe(line))
    }
}

/// Answers nothing: used until a game's reference solver is wired in, and in tests of suites that use
/// only golden files.
#[derive(Debug, Default)]
pub struct NoOracle;

impl Oracle for NoOracle {
    fn programs(&self) -> Vec<&'static str> {
        Vec::new()
    }

    fn solve(
        &self,
        program: &str,
        _args: &[String],
        _variant: Option<&str>,
    ) -> Result<Solved, String> {
        Err(format!("no reference solver named `{program}`"))
    }

    fn variants(&self) -> Vec<(&'static str, &'static str)> {
        Vec::new()
    }
}

#[cfg(test)]
mod tests {
    /// The student build solves nothing, whatever it is asked; the instructor's build solves.
    #[test]
    fn only_the_instructors_build_solves_a_board() {
        let args = ["x--------".to_string(), "work/visited.txt".to_string()];
        let solved = super::builtin().solve("tictactoe", &args, None);
        if cfg!(feature = "student") {
            let e = solved.unwrap_err();
            assert!(e.contains("computes no `tictactoe` answer"), "{e}");
            assert!(super::builtin()
                .solve("tictactoe", &args, Some("post-order"))
                .is_err());
        } else {
            assert_eq!(solved.unwrap().stdout, "x---o----\n");
        }
        // Both know the programs and the variants' names (a kit's suite.toml names them).
        assert!(super::builtin().programs().contains(&"tictactoe"));
        assert!(super::builtin()
            .variants()
            .iter()
            .any(|(n, _)| *n == "prune-strict"));
    }
}
