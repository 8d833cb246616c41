//! `brain init`: create the `.brain/` layout.

use brain_core::Brain;
use brain_core::config::Workflow;
use brain_core::report::InitOutcomeName;

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

/// What to do after a first `brain init`, on stderr (silenced by `--quiet`).
const NEXT_STEPS: &[&str] = &[
    "next steps:",
    "  brain add --type gotcha --title .. --summary ..   record a memory (a candidate until reviewed)",
    "  brain review                                      the reviewer's verdict on each candidate",
    "  brain approve --safe                              approve what the reviewer accepts",
    "  git add .brain && git commit                      share the store through review like code",
    "  docs/integrations.md                              connect an agent and the git hooks",
];

pub(crate) fn run(
    ctx: &Context,
    args: &InitArgs,
    out: &mut Output<'_>,
) -> Result<ExitStatus, CliError> {
    let report = Brain::init(ctx.root(), args.workflow, args.force)?;
    out.emit(&report)?;
    if report.outcome == InitOutcomeName::Created {
        for line in NEXT_STEPS {
            out.status(line)?;
        }
    }
    Ok(ExitStatus::Success)
}
