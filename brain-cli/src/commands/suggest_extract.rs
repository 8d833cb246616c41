//! `brain suggest-extract`: the worthiness verdict alone.

use brain_core::extract::signals::{Changed, SessionFacts};
use brain_core::store::git;

use super::capture::InputArgs;
use crate::context::Context;
use crate::error::{CliError, ExitStatus};
use crate::output::Output;

/// Say whether a session is worth capturing, without writing anything
///
/// Takes the same inputs as `brain capture` and prints the verdict
/// (`extract`, `ambiguous` or `skip`), its confidence, the signals behind it
/// and the drafts the pipeline would propose. Needs no store.
#[derive(clap::Args, Debug)]
pub(crate) struct SuggestExtractArgs {
    /// What the agent was asked to do
    #[arg(long)]
    task: Option<String>,
    /// A file the session changed (repeatable)
    #[arg(long = "path", value_name = "PATH")]
    paths: Vec<String>,
    /// A commit whose changed files and diff size count as session facts
    #[arg(long, value_name = "REV")]
    rev: Option<String>,
    /// The test run's summary
    #[arg(long, value_name = "TEXT")]
    test_summary: Option<String>,
    #[command(flatten)]
    input: InputArgs,
    /// Show what every pipeline stage did with every fragment
    #[arg(long)]
    explain: bool,
}

pub(crate) fn run(
    ctx: &Context,
    args: &SuggestExtractArgs,
    out: &mut Output<'_>,
) -> Result<ExitStatus, CliError> {
    let text = crate::input::text(
        args.input.input.as_deref(),
        args.input.input_file.as_deref(),
    )?;
    let mut changed: Vec<Changed> = args
        .paths
        .iter()
        .map(|p| Changed {
            path: p.clone(),
            lines: None,
        })
        .collect();
    if let Some(rev) = &args.rev {
        let commit = git::commit_info(ctx.root(), rev).map_err(CliError::user)?;
        changed.extend(commit.changes.iter().map(|c| Changed {
            path: c.path.clone(),
            lines: Some((c.added_lines, c.removed_lines)),
        }));
    }
    let touched: Vec<String> = changed.iter().map(|c| c.path.clone()).collect();
    let facts = SessionFacts {
        task: args.task.as_deref(),
        test_summary: args.test_summary.as_deref(),
        changed: &changed,
    };
    let report = brain_core::capture::suggest(&text, &facts, &touched, args.explain);
    out.emit(&report)?;
    Ok(ExitStatus::Success)
}
