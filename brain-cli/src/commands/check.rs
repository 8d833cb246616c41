//! `brain check`: the store's gate for CI.

use crate::context::Context;
use crate::error::{CliError, ExitStatus};
use crate::output::Output;

/// Check the store for CI: lint, canonical form, transitions against a base,
/// export drift
///
/// Runs every check: `lint` (everything `brain lint` reports, with status
/// changes judged against the base), `normalize` (a file not in canonical
/// form is an error here), `transitions` (an active memory deleted instead
/// of superseded or retired, an id changed) and `export` (rule files that
/// `brain export` generated and that no longer match the store). Without `--base`, transitions
/// are judged against `HEAD`. `--format github` prints GitHub Actions
/// annotations, `--format sarif` a SARIF 2.1.0 log for code scanning. Exits
/// with 1 when any error is found.
#[derive(clap::Args, Debug)]
pub(crate) struct CheckArgs {
    /// The revision to compare with, e.g. `origin/main` in a pull request
    #[arg(long, value_name = "REF")]
    base: Option<String>,
}

pub(crate) fn run(
    ctx: &Context,
    args: &CheckArgs,
    out: &mut Output<'_>,
) -> Result<ExitStatus, CliError> {
    let brain = brain_core::Brain::open(ctx.root())?;
    let catalog = super::load(&brain, out)?;
    let memories =
        brain_core::export::select(catalog.memories.iter().map(|l| &l.record), ctx.now());
    let exports: Vec<_> = super::export::TARGETS
        .into_iter()
        .map(|t| (t, super::export::plan(ctx.root(), t, &memories)))
        .collect();
    let report = brain.check(args.base.as_deref(), &exports).map_err(|e| {
        CliError::user(e).hint("fetch the base first, e.g. `git fetch origin main`")
    })?;
    out.emit_check(&report)?;
    Ok(if report.errors > 0 {
        ExitStatus::Findings
    } else {
        ExitStatus::Success
    })
}
