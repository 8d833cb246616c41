//! `brain sweep`: housekeeping of the store's lifecycle.

use crate::context::Context;
use crate::error::{CliError, ExitStatus};
use crate::output::Output;

/// Expire working notes past `expires`; report stale memories and near duplicates
///
/// An active working note whose `validity.expires` is past becomes `done`.
/// Active memories not seen (captured, reviewed, observed or shown to an
/// agent) for `stale_days` days (config, default 90) and pairs of active
/// memories the reviewer would merge are only reported. Running it again
/// changes nothing.
#[derive(clap::Args, Debug)]
pub(crate) struct SweepArgs {
    /// Report what would change, write nothing
    #[arg(long)]
    dry_run: bool,
}

pub(crate) fn run(
    ctx: &Context,
    args: &SweepArgs,
    out: &mut Output<'_>,
) -> Result<ExitStatus, CliError> {
    let brain = super::open(ctx, out)?;
    let report = brain.sweep(args.dry_run, ctx.now())?;
    out.emit(&report)?;
    Ok(ExitStatus::Success)
}
