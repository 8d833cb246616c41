//! `brain-cli`: argument parsing, environment, rendering and exit codes for the
//! `brain` binary. All domain logic is in `brain-core`.

use std::io::{self, Write};
use std::process::ExitCode;

use clap::Parser;

mod cli;
mod commands;
mod context;
mod embedder;
mod error;
mod extractor;
mod input;
mod mcp;
mod output;

use crate::error::{ErrorKind, ExitStatus};
use crate::output::Output;

/// Runs `brain` with the process's arguments and standard streams.
pub fn main() -> ExitCode {
    // Data goes out in large blocks (a 10k-memory listing is megabytes of
    // JSON); `emit` flushes at the end. Stderr stays unbuffered and unlocked
    // between writes, so a write from any thread can never wait on this one.
    let mut out = io::BufWriter::with_capacity(64 * 1024, io::stdout().lock());
    let mut err = io::stderr();
    let status = run(std::env::args_os(), &mut out, &mut err);
    let _ = out.flush();
    status.into()
}

/// Whether the raw arguments ask for JSON output.
fn wants_json(args: &[std::ffi::OsString]) -> bool {
    args.windows(2)
        .any(|w| w[0] == "--format" && w[1] == "json")
        || args.iter().any(|a| a == "--format=json")
}

fn run(
    args: impl IntoIterator<Item = std::ffi::OsString>,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> ExitStatus {
    let args: Vec<std::ffi::OsString> = args.into_iter().collect();
    let cli = match cli::Cli::try_parse_from(&args) {
        Ok(cli) => cli,
        Err(e) => {
            let rendered = e.render();
            if !e.use_stderr() {
                // `--help` and `--version`.
                let _ = write!(stdout, "{rendered}");
                return ExitStatus::Success;
            }
            let _ = write!(stderr, "{rendered}");
            if wants_json(&args) {
                // Even a usage error answers a JSON caller with one JSON document.
                let text = rendered.to_string();
                let first = text.lines().next().unwrap_or("invalid arguments");
                let message = first.strip_prefix("error: ").unwrap_or(first).to_owned();
                let err = error::CliError::user(output::UsageError(message))
                    .hint("run `brain --help` for usage");
                let mut sink = io::sink();
                let _ =
                    Output::new(output::Format::Json, true, stdout, &mut sink).error(&err, None);
            }
            return ExitStatus::UserError;
        }
    };
    let mut out = Output::new(cli.global.format, cli.global.quiet, stdout, stderr);
    if cli.global.format.is_check_only() && !cli.command.is_check() {
        let err = error::CliError::user(output::UsageError(
            "`--format github` and `--format sarif` are for `brain check` only".to_owned(),
        ))
        .hint("use `--format text` or `--format json`");
        let _ = out.error(&err, None);
        return ExitStatus::UserError;
    }
    let ctx = match context::Context::from_env(cli.global.root.as_deref()) {
        Ok(ctx) => ctx,
        Err(e) => {
            let _ = out.error(&e, None);
            return e.status();
        }
    };
    match commands::dispatch(&ctx, &cli.command, &mut out) {
        Ok(status) => status,
        Err(e) if e.kind == ErrorKind::BrokenPipe => ExitStatus::Success,
        Err(e) => {
            let _ = out.error(&e, Some(ctx.root()));
            e.status()
        }
    }
}
