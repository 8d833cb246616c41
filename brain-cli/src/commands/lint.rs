//! `brain lint`: every problem in the store.

use crate::context::Context;
use crate::error::{CliError, ExitStatus};
use crate::output::Output;

/// Check every record file
///
/// Reports parse errors, broken invariants (e.g. `superseded` without
/// `superseded_by`), ids that do not match file names, duplicate or dangling ids,
/// status changes since the last commit that the transition table forbids, and
/// files not in canonical form, each as `path:line`. Exits with 1 when any error
/// is found.
#[derive(clap::Args, Debug)]
pub(crate) struct LintArgs {}

pub(crate) fn run(
    ctx: &Context,
    _args: &LintArgs,
    out: &mut Output<'_>,
) -> Result<ExitStatus, CliError> {
    let brain = brain_core::Brain::open(ctx.root())?;
    let report = brain.lint();
    out.emit(&report)?;
    Ok(if report.errors > 0 {
        ExitStatus::Findings
    } else {
        ExitStatus::Success
    })
}
