//! `brain list`: one line per memory.

use brain_core::model::{MemoryType, Status};
use brain_core::report::ListFilter;

use crate::context::Context;
use crate::error::{CliError, ExitStatus};
use crate::output::Output;

/// List memories
///
/// Every status is listed unless `--status` narrows it. Files that cannot be read
/// are skipped with a warning naming the file and line.
#[derive(clap::Args, Debug)]
pub(crate) struct ListArgs {
    /// Only this type (repeatable)
    #[arg(long = "type", short = 't', value_name = "TYPE")]
    types: Vec<MemoryType>,
    /// Only this status (repeatable)
    #[arg(long = "status", short = 's', value_name = "STATUS")]
    statuses: Vec<Status>,
    /// Only memories with this tag (repeatable: all must match)
    #[arg(long = "tag", value_name = "TAG")]
    tags: Vec<String>,
}

pub(crate) fn run(
    ctx: &Context,
    args: &ListArgs,
    out: &mut Output<'_>,
) -> Result<ExitStatus, CliError> {
    let brain = super::open(ctx, out)?;
    let catalog = super::load(&brain, out)?;
    let filter = ListFilter {
        types: args.types.clone(),
        statuses: args.statuses.clone(),
        tags: args.tags.clone(),
    };
    let total = catalog.memories.len();
    let report = brain.list(catalog, &filter);
    out.emit(&report)?;
    let skipped = match report.skipped.len() {
        0 => String::new(),
        1 => ", 1 file skipped".to_owned(),
        n => format!(", {n} files skipped"),
    };
    out.status(format_args!(
        "{} of {} memories{skipped}",
        report.memories.len(),
        total
    ))?;
    Ok(ExitStatus::Success)
}
