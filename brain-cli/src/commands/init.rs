//! `brain init`: create the `.brain/` layout.

use brain_core::Brain;
use brain_core::config::Workflow;

use crate::context::Context;
use crate::error::{CliError, ExitStatus};
use crate::output::Output;

/// Create the `.brain/` store
///
/// Writes `.brain/config.yaml`, `.brain/.gitignore` (which ignores `runtime/`) and
/// the record directories. Running it again is safe: an existing store with the
/// same settings is left as it is. A store with different settings is only
/// replaced with `--force`; memories are never touched.
#[derive(clap::Args, Debug)]
pub(crate) struct InitArgs {
    /// Workflow preset: ultra-safe-manual, recommended-semi-auto or automation-first
    #[arg(long, value_name = "PRESET", default_value = "recommended-semi-auto")]
    workflow: Workflow,
    /// Replace an existing config that has different settings
    #[arg(long)]
    force: bool,
}

pub(crate) fn run(
    ctx: &Context,
    args: &InitArgs,
    out: &mut Output<'_>,
) -> Result<ExitStatus, CliError> {
    let report = Brain::init(ctx.root(), args.workflow, args.force)?;
    out.emit(&report)?;
    Ok(ExitStatus::Success)
}
