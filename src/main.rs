//! The `grader` binary: parse the command line, run it, map the result to an exit code.

fn main() -> std::process::ExitCode {
    grader::cmd::main()
}
