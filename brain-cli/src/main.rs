//! The `brain` binary; everything lives in the `brain_cli` library.

fn main() -> std::process::ExitCode {
    brain_cli::main()
}
