//! `brain review`: the candidate queue with the reviewer's verdicts.

use crate::context::Context;
use crate::error::{CliError, ExitStatus};
use crate::output::Output;

/// Show the reviewer's verdict on candidates
///
/// For each candidate: the decision (accept, merge, supersede, reject), the
/// relation to stored memories, the targets, the confidence, the reason and
/// the evidence behind it, and whether `brain approve --safe` would take it.
/// Nothing is written.
#[derive(clap::Args, Debug)]
pub(crate) struct ReviewArgs {
    /// Candidates to review (default: every candidate)
    ids: Vec<String>,
    /// Also list dismissed memories, with the reason they were dismissed
    #[arg(long)]
    all: bool,
}

pub(crate) fn run(
    ctx: &Context,
    args: &ReviewArgs,
    out: &mut Output<'_>,
) -> Result<ExitStatus, CliError> {
    let brain = super::open(ctx, out)?;
    let report = brain.review_candidates(&args.ids, args.all)?;
    out.emit(&report)?;
    Ok(ExitStatus::Success)
}
