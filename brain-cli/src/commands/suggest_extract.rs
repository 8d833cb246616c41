//! `brain suggest-extract`: the worthiness verdict alone.

use super::capture::{InputArgs, SessionArgs};
use crate::context::Context;
use crate::error::{CliError, ExitStatus};
use crate::output::Output;

/// Say whether a session is worth capturing, without writing anything
///
/// Takes the same inputs as `brain capture` and prints the verdict
/// (`extract`, `ambiguous` or `skip`), its confidence, the signals behind it
/// and the drafts the pipeline would propose. Needs no store.
#[derive(clap::Args, Debug)]
pub(crate) struct SuggestExtractArgs {
    #[command(flatten)]
    session: SessionArgs,
    #[command(flatten)]
    input: InputArgs,
    /// Show what every pipeline stage did with every fragment
    #[arg(long)]
    explain: bool,
}

pub(crate) fn run(
    ctx: &Context,
    args: &SuggestExtractArgs,
    out: &mut Output<'_>,
) -> Result<ExitStatus, CliError> {
    let text = crate::input::text(
        args.input.input.as_deref(),
        args.input.input_file.as_deref(),
    )?;
    let session = args.session.gather(ctx)?;
    let report = brain_core::capture::suggest(
        &text,
        &args.session.facts(&session),
        &session.touched,
        args.explain,
    );
    out.emit(&report)?;
    Ok(ExitStatus::Success)
}
