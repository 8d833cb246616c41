//! `brain status`: where the store stands and what to do next.

use crate::context::Context;
use crate::error::{CliError, ExitStatus};
use crate::output::Output;

/// Show counts, pending review, the last context load, problems and the next step
///
/// Read-only. The next step is one suggestion, most urgent first: fix lint
/// errors, review candidates, sweep expired working notes.
#[derive(clap::Args, Debug)]
pub(crate) struct StatusArgs {}

pub(crate) fn run(
    ctx: &Context,
    _args: &StatusArgs,
    out: &mut Output<'_>,
) -> Result<ExitStatus, CliError> {
    let brain = super::open(ctx, out)?;
    let catalog = super::load(&brain, out)?;
    let report = brain.status(&catalog, ctx.now());
    out.emit(&report)?;
    Ok(ExitStatus::Success)
}
