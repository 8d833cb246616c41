//! `brain extract`: text in, candidates out.

use brain_core::capture::{CaptureRequest, Origin};
use brain_core::extract::signals::SessionFacts;
use brain_core::model::Source;

use super::capture::{InputArgs, RunArgs};
use crate::context::Context;
use crate::error::{CliError, ExitStatus};
use crate::output::Output;

/// Extract candidate memories from text
///
/// Like `brain capture` without the worthiness verdict: every fragment that
/// survives the pipeline is reviewed and written as a candidate (active only
/// under a `direct` capture mode, when novel and safe). Reads `--input`,
/// `--input-file` or stdin.
#[derive(clap::Args, Debug)]
pub(crate) struct ExtractArgs {
    #[command(flatten)]
    input: InputArgs,
    /// A file the text is about (repeatable); bare file names resolve against these
    #[arg(long = "path", value_name = "PATH")]
    paths: Vec<String>,
    #[command(flatten)]
    run: RunArgs,
}

pub(crate) fn run(
    ctx: &Context,
    args: &ExtractArgs,
    out: &mut Output<'_>,
) -> Result<ExitStatus, CliError> {
    let brain = super::open(ctx, out)?;
    let text = crate::input::text(
        args.input.input.as_deref(),
        args.input.input_file.as_deref(),
    )?;
    let request = CaptureRequest {
        text: &text,
        facts: SessionFacts::default(),
        touched: &args.paths,
        origin: Origin {
            source: Source::Session,
            evidence: Vec::new(),
            stable_key: None,
            candidates_only: false,
        },
        external: super::capture::external(ctx, &brain, &text, out)?,
        gate: false,
        force: false,
        dry_run: args.run.dry_run,
        explain: args.run.explain,
    };
    let report = brain.capture(request, ctx.now(), ctx.actor())?;
    super::capture::finish(out, &report)
}
