//! `brain normalize`: rewrite record files into canonical form.

use crate::context::Context;
use crate::error::{CliError, ExitStatus};
use crate::output::Output;

/// Rewrite record files into canonical form
///
/// Canonical form: keys in a fixed order, default values left out, lists sorted
/// and de-duplicated, multi-line text as block scalars. Only files whose form
/// differs are written. With `--check`, nothing is written and the command exits
/// with 1 if any file would change.
#[derive(clap::Args, Debug)]
pub(crate) struct NormalizeArgs {
    /// Report files that are not canonical instead of rewriting them
    #[arg(long)]
    check: bool,
    /// Show what canonical form changes, as a unified diff per file
    #[arg(long)]
    diff: bool,
}

pub(crate) fn run(
    ctx: &Context,
    args: &NormalizeArgs,
    out: &mut Output<'_>,
) -> Result<ExitStatus, CliError> {
    let brain = super::open(ctx, out)?;
    let report = brain.normalize(args.check, args.diff)?;
    out.emit(&report)?;
    Ok(if args.check && !report.changed.is_empty() {
        ExitStatus::Findings
    } else {
        ExitStatus::Success
    })
}
