//! `brain-cli`: argument parsing, environment, rendering and exit codes for the
//! `brain` binary. All domain logic is in `brain-core`.

use std::io::{self, Write};
use std::process::ExitCode;

use clap::Parser;

mod cli;
mod commands;
mod context;
mod error;
mod output;

use crate::error::{ErrorKind, ExitStatus};
use crate::output::Output;

/// Runs `brain` with the process's arguments and standard streams.
pub fn main() -> ExitCode {
    let stdout = io::stdout();
    let stderr = io::stderr();
    let mut out = stdout.lock();
    let mut err = stderr.lock();
    run(std::env::args_os(), &mut out, &mut err).into()
}

fn run(
    args: impl IntoIterator<Item = std::ffi::OsString>,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> ExitStatus {
    let cli = match cli::Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(e) => {
            let code = e.exit_code();
            let rendered = e.render();
            let _ = if e.use_stderr() {
                write!(stderr, "{rendered}")
            } else {
                write!(stdout, "{rendered}")
            };
            return if code == 0 {
                ExitStatus::Success
            } else {
                ExitStatus::UserError
            };
        }
    };
    let mut out = Output::new(cli.global.format, cli.global.quiet, stdout, stderr);
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
