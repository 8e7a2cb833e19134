//! Language recipes (how a suite says to detect, build and run each allowed language), the standard
//! Adelaide set, and the compiler-log trimming shown in compile-error verdicts.

/// How to recognise, build and run one language. Suites declare these; the first whose `detect` files
/// all exist in a submission wins.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Recipe {
    /// `"c"`, `"cpp"`, `"java"`, `"python"`, `"rust"`.
    pub language: String,
    /// Patterns that must each match a file in the submission's top folder for this recipe: plain
    /// names, or `*`/`?` globs within a name (`*.scm`).
    pub detect: Vec<String>,
    /// The argv of each build command, run in order in the scratch copy; may be empty.
    pub build: Vec<Vec<String>>,
    /// The argv prefix that runs the program; `{dir}` is the absolute path of the built copy.
    pub run: Vec<String>,
    /// Apply RLIMIT_AS (off for the JVM, which reserves far more address space than it uses).
    pub address_space: bool,
    /// Files (absolute paths) copied into the build copy under their base names before the build,
    /// replacing a student file of the same name: a suite's language adapters.
    pub support: Vec<std::path::PathBuf>,
    /// For a recipe run with `python3`: the Python versions it accepts. Empty means Python 3 only,
    /// with no compile check (the behaviour before versions existed).
    pub python: Vec<PythonVersion>,
}

/// A Python major version a suite accepts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum PythonVersion {
    Two,
    Three,
}

impl PythonVersion {
    /// `"2"` or `"3"`, as `suite.toml` writes it.
    pub fn parse(s: &str) -> Option<PythonVersion> {
        match s {
            "2" => Some(PythonVersion::Two),
            "3" => Some(PythonVersion::Three),
            _ => None,
        }
    }

    /// The toolchain's name for its interpreter.
    pub fn tool(self) -> &'static str {
        match self {
            PythonVersion::Two => "python2",
            PythonVersion::Three => "python3",
        }
    }
}

/// Replaced by the absolute path of the built copy in build and run commands.
pub const DIR: &str = "{dir}";

impl Recipe {
    /// The Adelaide 2021 A1 recipes for a program called `name` (`tictactoe`, `tmmorris`): `Makefile` →
    /// `make NAME` → `NAME.bin`; `NAME.java` → `javac` → `java NAME`; `NAME.py` → `python3 NAME.py`;
    /// `Cargo.toml` → `cargo build --release --offline` → `target/release/NAME`. A `Makefile` next to
    /// `NAME.cpp` or `NAME.cc` is C++, otherwise C.
    pub fn adelaide_defaults(name: &str) -> Vec<Recipe> {
        let s = |v: &str| v.to_string();
        let make = |language: &str, source: Option<String>| Recipe {
            language: s(language),
            detect: std::iter::once(s("Makefile")).chain(source).collect(),
            build: vec![vec![s("make"), s(name)]],
            run: vec![format!("{DIR}/{name}.bin")],
            address_space: true,
            support: Vec::new(),
            python: Vec::new(),
        };
        vec![
            make("cpp", Some(format!("{name}.cpp"))),
            make("cpp", Some(format!("{name}.cc"))),
            make("c", None),
            Recipe {
                language: s("java"),
                detect: vec![format!("{name}.java")],
                // Serial GC: fewer threads and a smaller footprint, which suits many parallel runs.
                build: vec![vec![
                    s("javac"),
                    s("-J-XX:+UseSerialGC"),
                    s("-encoding"),
                    s("UTF-8"),
                    format!("{name}.java"),
                ]],
                run: vec![
                    s("java"),
                    s("-XX:+UseSerialGC"),
                    s("-XX:-UsePerfData"),
                    s("-cp"),
                    s(DIR),
                    s(name),
                ],
                address_space: false,
                support: Vec::new(),
                python: Vec::new(),
            },
            Recipe {
                language: s("python"),
                detect: vec![format!("{name}.py")],
                build: Vec::new(),
                run: vec![s("python3"), format!("{DIR}/{name}.py")],
                address_space: true,
                support: Vec::new(),
                python: Vec::new(),
            },
            Recipe {
                language: s("rust"),
                detect: vec![s("Cargo.toml")],
                build: vec![vec![s("cargo"), s("build"), s("--release"), s("--offline")]],
                run: vec![format!("{DIR}/target/release/{name}")],
                address_space: true,
                support: Vec::new(),
                python: Vec::new(),
            },
        ]
    }
}

/// Lines of compiler output kept in a verdict.
pub const LOG_LINES: usize = 60;
/// Bytes of compiler output kept in a verdict.
pub const LOG_BYTES: usize = 8 * 1024;

/// The first [`LOG_LINES`] lines and at most [`LOG_BYTES`] bytes of a log (the first errors are the
/// useful ones), saying how much was cut.
pub fn trim_log(log: &str) -> String {
    let total_lines = log.lines().count();
    let mut kept = String::new();
    let mut lines = 0;
    for line in log.lines() {
        if lines == LOG_LINES || kept.len() + line.len() + 1 > LOG_BYTES {
            break;
        }
        kept.push_str(line);
        kept.push('\n');
        lines += 1;
    }
    if lines == 0 && !log.is_empty() {
        // One enormous line: keep its start, on a character boundary.
        let mut end = LOG_BYTES.min(log.len());
        while !log.is_char_boundary(end) {
            end -= 1;
        }
        kept.push_str(&log[..end]);
        kept.push('\n');
        lines = 1;
    }
    let cut_bytes = log.len().saturating_sub(kept.len());
    if lines < total_lines || cut_bytes > 1 {
        kept.push_str(&format!(
            "[… {} more lines ({} bytes) cut]\n",
            total_lines - lines,
            cut_bytes
        ));
    }
    kept
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_logs_are_kept_whole() {
        assert_eq!(trim_log("a\nb\n"), "a\nb\n");
        assert_eq!(trim_log(""), "");
    }

    #[test]
    fn long_logs_keep_the_start_and_say_what_was_cut() {
        let log: String = (0..100).map(|i| format!("line {i}\n")).collect();
        let trimmed = trim_log(&log);
        assert!(trimmed.starts_with("line 0\nline 1\n"));
        assert!(trimmed.contains("line 59\n"));
        assert!(!trimmed.contains("line 60\n"));
        assert!(
            trimmed.ends_with("[… 40 more lines (320 bytes) cut]\n"),
            "{trimmed}"
        );
    }

    #[test]
    fn one_huge_line_is_cut_on_a_char_boundary() {
        let log = "é".repeat(10_000);
        let trimmed = trim_log(&log);
        assert!(trimmed.len() < LOG_BYTES + 100);
        assert!(trimmed.contains("cut]"));
    }

    #[test]
    fn adelaide_order_prefers_make_then_java_python_rust() {
        let langs: Vec<String> = Recipe::adelaide_defaults("tictactoe")
            .into_iter()
            .map(|r| r.language)
            .collect();
        assert_eq!(langs, ["cpp", "cpp", "c", "java", "python", "rust"]);
    }
}
