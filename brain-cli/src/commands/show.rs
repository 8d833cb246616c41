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
    let report = report(ctx, &args.id, out)?;
    out.emit(&report)?;
    Ok(ExitStatus::Success)
}

/// The memory `id` (or unique id prefix) names, warnings on `out`; shared
/// with the MCP tool `brain_show`.
pub(crate) fn report(
    ctx: &Context,
    id: &str,
    out: &mut Output<'_>,
) -> Result<brain_core::report::ShowReport, CliError> {
    let brain = super::open(ctx, out)?;
    let catalog = super::load(&brain, out)?;
    Ok(brain.show(&catalog, id)?)
}
