//! `brain extract-commit`: a commit's message in, candidates out.

use brain_core::capture::{CaptureRequest, Origin};
use brain_core::extract::signals::{Changed, SessionFacts};
use brain_core::model::{Evidence, EvidenceKind, Source};
use brain_core::store::git;

use super::capture::RunArgs;
use crate::context::Context;
use crate::error::{CliError, ExitStatus};
use crate::output::Output;

/// Extract candidate memories from a commit
///
/// Reads the commit's message and changed files from git. The message goes
/// through the extraction pipeline; a fragment's scope is the paths its own
/// text names, with bare file names resolved against the commit's changed
/// files. Every memory records the commit id as evidence. Candidates only
/// (active only under a `direct` capture mode, when novel and safe).
#[derive(clap::Args, Debug)]
pub(crate) struct ExtractCommitArgs {
    /// The commit
    #[arg(long, value_name = "REV", default_value = "HEAD")]
    rev: String,
    #[command(flatten)]
    run: RunArgs,
}

pub(crate) fn run(
    ctx: &Context,
    args: &ExtractCommitArgs,
    out: &mut Output<'_>,
) -> Result<ExitStatus, CliError> {
    let brain = super::open(ctx, out)?;
    let commit = git::commit_info(ctx.root(), &args.rev).map_err(CliError::user)?;
    let text = crate::input::decode(commit.message.as_bytes(), "commit message")?;
    let changed: Vec<Changed> = commit
        .changes
        .iter()
        .map(|c| Changed {
            path: c.path.clone(),
            lines: Some((c.added_lines, c.removed_lines)),
        })
        .collect();
    let touched: Vec<String> = changed.iter().map(|c| c.path.clone()).collect();
    let request = CaptureRequest {
        text: &text,
        facts: SessionFacts {
            task: None,
            test_summary: None,
            changed: &changed,
        },
        touched: &touched,
        origin: Origin {
            source: Source::Commit,
            evidence: vec![Evidence {
                kind: EvidenceKind::Commit,
                value: commit.id.clone(),
            }],
            stable_key: Some(commit.id.clone()),
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
