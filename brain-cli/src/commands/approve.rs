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
/// person (not working notes, no temporary, replacement or changed-value
/// wording). `--as-new` approves the given candidates as new memories
/// whatever the reviewer decided, for a reviewer who disagrees with a merge
/// or supersede.
#[allow(
    clippy::struct_excessive_bools,
    reason = "each flag is a command-line switch of its own"
)]
#[derive(clap::Args, Debug)]
#[command(group(clap::ArgGroup::new("which").required(true).args(["ids", "safe", "all"])))]
pub(crate) struct ApproveArgs {
    /// Candidates to approve
    ids: Vec<String>,
    /// Approve the given candidates as new memories, overriding the reviewer
    #[arg(long, requires = "ids", conflicts_with_all = ["safe", "all"])]
    as_new: bool,
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
    } else if args.as_new {
        Selection::AsNew(args.ids.clone())
    } else {
        Selection::Ids(args.ids.clone())
    };
    let report = brain.approve(&selection, args.dry_run, ctx.now(), ctx.actor())?;
    super::warn_redactions(out, &report.redactions)?;
    out.emit(&report)?;
    Ok(ExitStatus::Success)
}
