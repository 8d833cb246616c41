//! `brain approve`: carry out the reviewer's decisions.

use brain_core::approve::Selection;

use crate::context::Context;
use crate::error::{CliError, ExitStatus};
use crate::output::Output;

/// Approve candidates, carrying out the reviewer's decision
///
/// `accept` makes a candidate active; `merge` folds it into the memory it
/// repeats or extends (one memory remains); `supersede` makes it active and
/// marks the memory it replaces as superseded; `reject` dismisses it with the
/// reviewer's reason. `--safe` takes only novel candidates that need no
/// person (not working notes, no temporary wording).
#[derive(clap::Args, Debug)]
#[command(group(clap::ArgGroup::new("which").required(true).args(["ids", "safe", "all"])))]
pub(crate) struct ApproveArgs {
    /// Candidates to approve
    ids: Vec<String>,
    /// Approve every candidate the reviewer finds safe
    #[arg(long, conflicts_with = "all")]
    safe: bool,
    /// Approve every candidate
    #[arg(long)]
    all: bool,
    /// Show what would happen without writing
    #[arg(long)]
    dry_run: bool,
}

pub(crate) fn run(
    ctx: &Context,
    args: &ApproveArgs,
    out: &mut Output<'_>,
) -> Result<ExitStatus, CliError> {
    let brain = super::open(ctx, out)?;
    let selection = if args.safe {
        Selection::Safe
    } else if args.all {
        Selection::All
    } else {
        Selection::Ids(args.ids.clone())
    };
    let report = brain.approve(&selection, args.dry_run, ctx.now(), ctx.actor())?;
    super::warn_redactions(out, &report.redactions)?;
    out.emit(&report)?;
    Ok(ExitStatus::Success)
}
