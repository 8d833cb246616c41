//! `brain dismiss`: reject candidates.

use crate::context::Context;
use crate::error::{CliError, ExitStatus};
use crate::output::Output;

/// Dismiss candidate memories
///
/// Each becomes `dismissed`, with review state `rejected`, the time, who
/// dismissed it and the reason. Dismissed memories stay in the store so that
/// the same knowledge is not proposed again unnoticed.
#[derive(clap::Args, Debug)]
#[command(group(clap::ArgGroup::new("which").required(true).args(["ids", "all"])))]
pub(crate) struct DismissArgs {
    /// Ids (or unique prefixes) of candidates
    ids: Vec<String>,
    /// Dismiss every candidate
    #[arg(long)]
    all: bool,
    /// Why they are dismissed (recorded in each file)
    #[arg(long, allow_hyphen_values = true)]
    reason: Option<String>,
}

pub(crate) fn run(
    ctx: &Context,
    args: &DismissArgs,
    out: &mut Output<'_>,
) -> Result<ExitStatus, CliError> {
    let brain = super::open(ctx, out)?;
    let ids: &[String] = if args.all { &[] } else { &args.ids };
    let report = brain.dismiss(ids, args.reason.as_deref(), ctx.now(), ctx.actor())?;
    out.emit(&report)?;
    Ok(ExitStatus::Success)
}
