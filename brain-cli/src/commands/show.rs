//! `brain show`: one memory in full.

use crate::context::Context;
use crate::error::{CliError, ExitStatus};
use crate::output::Output;

/// Show one memory in full
///
/// ID is an exact id or a prefix that matches exactly one id.
#[derive(clap::Args, Debug)]
pub(crate) struct ShowArgs {
    /// Id or unique id prefix
    id: String,
}

pub(crate) fn run(
    ctx: &Context,
    args: &ShowArgs,
    out: &mut Output<'_>,
) -> Result<ExitStatus, CliError> {
    let brain = super::open(ctx, out)?;
    let catalog = super::load(&brain, out)?;
    let report = brain.show(&catalog, &args.id)?;
    out.emit(&report)?;
    Ok(ExitStatus::Success)
}
