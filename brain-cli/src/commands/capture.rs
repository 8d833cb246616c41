//! `brain capture`: score a session's outcome and write what is worth keeping
//! as candidates.

use std::path::PathBuf;

use brain_core::capture::{CaptureReport, CaptureRequest, Origin};
use brain_core::extract::signals::{Changed, SessionFacts};
use brain_core::model::{Evidence, EvidenceKind, Source};
use brain_core::store::git;

use crate::context::Context;
use crate::error::{CliError, ExitStatus};
use crate::extractor::{self, Attempt};
use crate::output::Output;

/// Capture what a session learned, as candidates for review
///
/// Reads a session summary (`--input`, `--input-file`, or stdin), splits it
/// into fragments and gives each its own type (decision, gotcha, convention,
/// pattern, goal, working) and its own scope: only the paths its own sentence
/// names. Chatter and action logs ("ran tests", "ok thanks") are rejected with
/// a reason. Session signals (done wording, tests fixed, a large diff) raise
/// the confidence but never make an input worth extracting on their own.
///
/// Each draft is reviewed against the store and written as a candidate (as
/// active only when the workflow's capture mode is `direct` and the reviewer
/// finds it novel and safe). Nothing that repeats a dismissed memory is
/// written. When an external extractor is configured it is tried first; if it
/// fails, the local pipeline runs and the reason is logged.
#[derive(clap::Args, Debug)]
pub(crate) struct CaptureArgs {
    #[command(flatten)]
    session: SessionArgs,
    #[command(flatten)]
    input: InputArgs,
    /// Write the drafts even when the verdict is `ambiguous`
    #[arg(long)]
    force: bool,
    #[command(flatten)]
    run: RunArgs,
}

/// What is known about the session besides its text.
#[derive(clap::Args, Debug)]
pub(crate) struct SessionArgs {
    /// What the agent was asked to do
    #[arg(long)]
    task: Option<String>,
    /// A file the session changed (repeatable); bare file names in the text
    /// resolve against these
    #[arg(long = "path", value_name = "PATH")]
    paths: Vec<String>,
    /// A commit whose changed files and diff size count as session facts
    #[arg(long, value_name = "REV")]
    rev: Option<String>,
    /// The test run's summary ("3 failed → 43 passed")
    #[arg(long, value_name = "TEXT")]
    test_summary: Option<String>,
}

/// The session facts gathered from [`SessionArgs`] (and the commit of `--rev`).
pub(crate) struct Session {
    pub(crate) changed: Vec<Changed>,
    pub(crate) touched: Vec<String>,
    pub(crate) evidence: Vec<Evidence>,
}

impl SessionArgs {
    /// Reads `--rev` with gix and lists every changed file.
    pub(crate) fn gather(&self, ctx: &Context) -> Result<Session, CliError> {
        let mut changed: Vec<Changed> = self
            .paths
            .iter()
            .map(|p| Changed {
                path: p.clone(),
                lines: None,
            })
            .collect();
        let mut evidence = Vec::new();
        if let Some(rev) = &self.rev {
            let commit = git::commit_info(ctx.root(), rev).map_err(CliError::user)?;
            evidence.push(Evidence {
                kind: EvidenceKind::Commit,
                value: commit.id.clone(),
            });
            changed.extend(commit.changes.iter().map(|c| Changed {
                path: c.path.clone(),
                lines: Some((c.added_lines, c.removed_lines)),
            }));
        }
        let touched = changed.iter().map(|c| c.path.clone()).collect();
        Ok(Session {
            changed,
            touched,
            evidence,
        })
    }

    /// The facts for the verdict, borrowing `session`.
    pub(crate) fn facts<'a>(&'a self, session: &'a Session) -> SessionFacts<'a> {
        SessionFacts {
            task: self.task.as_deref(),
            test_summary: self.test_summary.as_deref(),
            changed: &session.changed,
        }
    }
}

/// Where the text comes from.
#[derive(clap::Args, Debug)]
pub(crate) struct InputArgs {
    /// The text itself [default: read stdin]
    #[arg(long, value_name = "TEXT", conflicts_with = "input_file")]
    pub(crate) input: Option<String>,
    /// A file holding the text
    #[arg(long, value_name = "FILE")]
    pub(crate) input_file: Option<PathBuf>,
}

/// Dry run and explain.
#[derive(clap::Args, Debug)]
pub(crate) struct RunArgs {
    /// Decide everything, write nothing
    #[arg(long)]
    pub(crate) dry_run: bool,
    /// Show what every pipeline stage did with every fragment
    #[arg(long)]
    pub(crate) explain: bool,
}

pub(crate) fn run(
    ctx: &Context,
    args: &CaptureArgs,
    out: &mut Output<'_>,
) -> Result<ExitStatus, CliError> {
    let brain = super::open(ctx, out)?;
    let text = crate::input::text(
        args.input.input.as_deref(),
        args.input.input_file.as_deref(),
    )?;
    let session = args.session.gather(ctx)?;
    let request = CaptureRequest {
        text: &text,
        facts: args.session.facts(&session),
        touched: &session.touched,
        origin: Origin {
            source: Source::Session,
            evidence: session.evidence.clone(),
            stable_key: None,
            candidates_only: false,
        },
        external: external(ctx, &brain, &text, out)?,
        gate: true,
        force: args.force,
        dry_run: args.run.dry_run,
        explain: args.run.explain,
    };
    let report = brain.capture(request, ctx.now(), ctx.actor())?;
    finish(out, &report)
}

/// Tries the external extractor, when one is configured.
pub(crate) fn external(
    ctx: &Context,
    brain: &brain_core::Brain,
    text: &str,
    out: &mut Output<'_>,
) -> Result<Option<Result<Vec<brain_core::extract::Draft>, String>>, CliError> {
    Ok(
        match extractor::try_external(ctx, brain.store(), text, &[])? {
            Attempt::NotConfigured => None,
            Attempt::Accepted(drafts) => Some(Ok(drafts)),
            Attempt::Refused(err) => {
                out.warn(format_args!(
                "external extractor refused ({err}); using the local pipeline (logged in .brain/runtime/{})",
                extractor::LOG_NAME
            ))?;
                Some(Err(err.to_string()))
            }
        },
    )
}

/// Warns about redactions and prints the report.
pub(crate) fn finish(out: &mut Output<'_>, report: &CaptureReport) -> Result<ExitStatus, CliError> {
    super::warn_redactions(out, &report.redactions)?;
    out.emit(report)?;
    Ok(ExitStatus::Success)
}
