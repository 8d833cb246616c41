//! `brain import`: migrate another tool's store into this one.

use std::path::PathBuf;

use crate::context::Context;
use crate::error::{CliError, ExitStatus};
use crate::output::Output;

/// Import memories and preferences from another tool's store
///
/// `--from-repobrain DIR` migrates a RepoBrain store: DIR is the RepoBrain
/// project root or its `.brain/` directory. Every Markdown memory (decisions,
/// gotchas, conventions, patterns, working notes, goals and archived goals) and
/// every routing preference becomes a record here, keeping its status, lineage
/// and routing. Usage counters (`score`, `hit_count`, `last_used`) are dropped.
///
/// Everything is mapped and checked before anything is written; files that
/// cannot be mapped are listed with the reason and nothing invalid is written.
/// Ids are derived from the RepoBrain files, so importing again skips what is
/// already there. The store must exist (`brain init`). Exits with 1 when a
/// file could not be imported.
#[derive(clap::Args, Debug)]
pub(crate) struct ImportArgs {
    /// RepoBrain project root or `.brain/` directory to migrate
    #[arg(long = "from-repobrain", value_name = "DIR", required = true)]
    from_repobrain: Option<PathBuf>,
    /// Report what would be imported without writing anything
    #[arg(long)]
    dry_run: bool,
}

pub(crate) fn run(
    ctx: &Context,
    args: &ImportArgs,
    out: &mut Output<'_>,
) -> Result<ExitStatus, CliError> {
    let brain = super::open(ctx, out)?;
    let dir = args
        .from_repobrain
        .as_deref()
        .expect("clap requires --from-repobrain");
    let report = brain.import_repobrain(dir, args.dry_run)?;
    super::warn_redactions(out, &report.redactions)?;
    out.emit(&report)?;
    Ok(if report.not_imported.is_empty() {
        ExitStatus::Success
    } else {
        ExitStatus::Findings
    })
}
