//! `brain completions`: a shell completion script.

use clap::CommandFactory;

use crate::context::Context;
use crate::error::{CliError, ExitStatus};
use crate::output::Output;

/// Print a shell completion script
///
/// For example `brain completions bash > ~/.local/share/bash-completion/completions/brain`,
/// or `brain completions zsh > "${fpath[1]}/_brain"`.
#[derive(clap::Args, Debug)]
pub(crate) struct CompletionsArgs {
    /// The shell
    #[arg(value_enum)]
    shell: clap_complete::Shell,
}

pub(crate) fn run(
    _ctx: &Context,
    args: &CompletionsArgs,
    out: &mut Output<'_>,
) -> Result<ExitStatus, CliError> {
    let mut script = Vec::new();
    clap_complete::generate(
        args.shell,
        &mut crate::cli::Cli::command(),
        "brain",
        &mut script,
    );
    out.emit_text(&String::from_utf8_lossy(&script))?;
    Ok(ExitStatus::Success)
}
