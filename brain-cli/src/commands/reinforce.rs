//! `brain reinforce`: the reminders routing feedback queued, and
//! acknowledging them.

use crate::context::Context;
use crate::error::{CliError, ExitStatus};
use crate::output::Output;

/// Show or acknowledge the reminders routing feedback queued
///
/// `skill_ignored` and `routing_conflict_escalated` events (see `brain
/// routing-feedback`) queue a reminder in `.brain/runtime/reinforce-queue.jsonl`
/// until someone acknowledges it. Without flags, or with `--pending`, the
/// queue is listed, oldest first. `--ack ID` (repeatable; an id or a unique id
/// prefix) or `--ack-all` removes reminders from the queue; an unknown id
/// removes nothing.
#[derive(clap::Args, Debug)]
pub(crate) struct ReinforceArgs {
    /// List the queued reminders (the default)
    #[arg(long, conflicts_with_all = ["ack", "ack_all"])]
    pending: bool,
    /// Acknowledge the reminder with this id or unique id prefix (repeatable)
    #[arg(long, value_name = "ID", conflicts_with = "ack_all")]
    ack: Vec<String>,
    /// Acknowledge every queued reminder
    #[arg(long)]
    ack_all: bool,
}

pub(crate) fn run(
    ctx: &Context,
    args: &ReinforceArgs,
    out: &mut Output<'_>,
) -> Result<ExitStatus, CliError> {
    let brain = super::open(ctx, out)?;
    let report = if args.ack.is_empty() && !args.ack_all {
        brain.reinforce_pending()?
    } else {
        brain.reinforce_ack(&args.ack, args.ack_all)?
    };
    for w in &report.warnings {
        out.warn(w)?;
    }
    out.emit(&report)?;
    Ok(ExitStatus::Success)
}
