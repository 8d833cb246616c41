//! `brain stats`: counts by type, status and importance.

use crate::context::Context;
use crate::error::{CliError, ExitStatus};
use crate::output::Output;

/// Count memories and preferences
#[derive(clap::Args, Debug)]
pub(crate) struct StatsArgs {}

pub(crate) fn run(
    ctx: &Context,
    _args: &StatsArgs,
    out: &mut Output<'_>,
) -> Result<ExitStatus, CliError> {
    let brain = super::open(ctx, out)?;
    let catalog = super::load(&brain, out)?;
    out.emit(&brain.stats(&catalog))?;
    Ok(ExitStatus::Success)
}
