//! `brain supersede`: replace one memory with another.

use crate::context::Context;
use crate::error::{CliError, ExitStatus};
use crate::output::Output;

/// Mark OLD as replaced by NEW
///
/// OLD becomes `superseded` with `lineage.superseded_by: NEW`; NEW lists OLD in
/// `lineage.supersedes` and its version goes up by one. NEW must be active; OLD
/// must be active or stale. Both files are rewritten under the write lock.
#[derive(clap::Args, Debug)]
pub(crate) struct SupersedeArgs {
    /// Id (or unique prefix) of the replacement
    new: String,
    /// Id (or unique prefix) of the memory it replaces
    old: String,
}

pub(crate) fn run(
    ctx: &Context,
    args: &SupersedeArgs,
    out: &mut Output<'_>,
) -> Result<ExitStatus, CliError> {
    let brain = super::open(ctx, out)?;
    let report = brain.supersede(&args.new, &args.old)?;
    out.emit(&report)?;
    Ok(ExitStatus::Success)
}
