//! `brain diff`: memories changed since the last context load.

use crate::context::Context;
use crate::error::{CliError, ExitStatus};
use crate::output::Output;

/// Show the memories that changed since the last context load
///
/// Lists the memories added, promoted, superseded, expired or changed after
/// `since`. `since` is `--since` or `--since-days` ago, else the latest entry of the
/// activity log (`.brain/runtime/activity.jsonl`); with no earlier load,
/// every memory counts as added. Added: captured after `since`. Promoted:
/// approved after it and active. Superseded: replaced by a memory captured
/// or approved after it, or its file changed after it. Expired: `expires` or
/// `valid_until` between `since` and now. Changed: observed, merged into,
/// decided on, or its file changed after `since` (git commits after `since`
/// and uncommitted edits; records have no modification time). Nothing is
/// written.
#[derive(clap::Args, Debug)]
pub(crate) struct DiffArgs {
    /// Changes after this time (RFC 3339, `2026-11-20T12:00:00Z`)
    #[arg(long, value_name = "TIME", conflicts_with = "since_days")]
    since: Option<jiff::Timestamp>,
    /// Changes in the last N days
    #[arg(long, value_name = "N")]
    since_days: Option<u32>,
}

pub(crate) fn run(
    ctx: &Context,
    args: &DiffArgs,
    out: &mut Output<'_>,
) -> Result<ExitStatus, CliError> {
    let brain = super::open(ctx, out)?;
    let catalog = super::load(&brain, out)?;
    let since = args.since.or_else(|| {
        args.since_days.and_then(|days| {
            ctx.now()
                .checked_sub(jiff::SignedDuration::from_hours(i64::from(days) * 24))
                .ok()
        })
    });
    let (report, warnings) = brain.diff(&catalog, since, ctx.now());
    for w in warnings {
        out.warn(w)?;
    }
    out.emit(&report)?;
    Ok(ExitStatus::Success)
}
