//! `brain add`: write a memory by hand.

use brain_core::NewMemory;
use brain_core::model::{Importance, MemoryType, Risk, Status};

use crate::context::Context;
use crate::error::{CliError, ExitStatus};
use crate::output::Output;

/// Add a memory
///
/// The memory is a candidate waiting for review unless the workflow captures
/// directly or `--status active` is given. Prints the new id.
#[derive(clap::Args, Debug)]
pub(crate) struct AddArgs {
    /// Type: decision, gotcha, convention, pattern, goal or working
    #[arg(long = "type", short = 't', value_name = "TYPE")]
    kind: MemoryType,
    /// One-line title
    #[arg(long, allow_hyphen_values = true)]
    title: String,
    /// The one or two sentences an agent reads first
    #[arg(long, allow_hyphen_values = true)]
    summary: String,
    /// Longer explanation; `-` reads it from stdin
    #[arg(long, value_name = "TEXT|-", allow_hyphen_values = true)]
    detail: Option<String>,
    /// Path glob the memory applies to (repeatable)
    #[arg(long = "path", value_name = "GLOB")]
    paths: Vec<String>,
    /// Module the memory applies to (repeatable)
    #[arg(long = "module", value_name = "NAME")]
    modules: Vec<String>,
    /// Tag (repeatable)
    #[arg(long = "tag", value_name = "TAG")]
    tags: Vec<String>,
    /// low, medium, high or critical [default: medium]
    #[arg(long)]
    importance: Option<Importance>,
    /// low, medium or high [default: low]
    #[arg(long)]
    risk: Option<Risk>,
    /// candidate or active [default: from the workflow preset]
    #[arg(long)]
    status: Option<Status>,
}

pub(crate) fn run(
    ctx: &Context,
    args: &AddArgs,
    out: &mut Output<'_>,
) -> Result<ExitStatus, CliError> {
    let brain = super::open(ctx, out)?;
    let detail = match args.detail.as_deref() {
        Some("-") => crate::input::stdin_text("stdin (`--detail -`)")?,
        Some(text) => text.to_owned(),
        None => String::new(),
    };
    let new = NewMemory {
        kind: Some(args.kind),
        title: args.title.clone(),
        summary: args.summary.clone(),
        detail,
        paths: args.paths.clone(),
        modules: args.modules.clone(),
        tags: args.tags.clone(),
        importance: args.importance,
        risk: args.risk,
        status: args.status,
        evidence: Vec::new(),
    };
    let report = brain.add(&new, ctx.now(), ctx.actor())?;
    super::warn_redactions(out, &report.redactions)?;
    out.status(format_args!(
        "added {} {} as {}",
        args.kind, report.path, report.status
    ))?;
    out.emit(&report)?;
    Ok(ExitStatus::Success)
}
