//! `brain promote-candidates`: safe auto-approval, when the workflow allows it.

use brain_core::approve::Selection;

use crate::context::Context;
use crate::error::{CliError, ExitStatus};
use crate::output::Output;

/// Approve the candidates that are safe, if the workflow allows it
///
/// Runs `brain approve --safe` when the workflow's `auto_approve_safe` is on
/// (the `automation-first` preset, or set in `.brain/config.yaml`); otherwise
/// refuses and changes nothing.
#[derive(clap::Args, Debug)]
pub(crate) struct PromoteCandidatesArgs {
    /// Show what would happen without writing
    #[arg(long)]
    dry_run: bool,
}

#[derive(Debug, thiserror::Error)]
#[error("safe auto-approval is off for the `{0}` workflow")]
struct AutoApprovalOff(String);

pub(crate) fn run(
    ctx: &Context,
    args: &PromoteCandidatesArgs,
    out: &mut Output<'_>,
) -> Result<ExitStatus, CliError> {
    let brain = super::open(ctx, out)?;
    let config = brain.store().config();
    if !config.settings().auto_approve_safe {
        return Err(CliError::user(AutoApprovalOff(config.workflow.to_string()))
            .hint("use `brain approve --safe`, or set `auto_approve_safe: true` in .brain/config.yaml"));
    }
    let report = brain.approve(&Selection::Safe, args.dry_run, ctx.now(), ctx.actor())?;
    super::warn_redactions(out, &report.redactions)?;
    out.emit(&report)?;
    Ok(ExitStatus::Success)
}
