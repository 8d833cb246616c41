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
///
/// `--from-transcript` reads an agent's transcript instead (Claude Code or
/// Codex JSON Lines, or a Gemini CLI chat file: the person's and the
/// agent's messages, without tool calls) and always writes candidates; with `--detach` the capture runs in
/// a background process and the command returns at once (agent hooks use
/// this at compaction and session end).
#[derive(clap::Args, Debug)]
pub(crate) struct CaptureArgs {
    #[command(flatten)]
    session: SessionArgs,
    #[command(flatten)]
    input: InputArgs,
    /// Read the session from an agent transcript (Claude Code, Codex or Gemini CLI)
    #[arg(long, value_name = "FILE", conflicts_with_all = ["input", "input_file"])]
    from_transcript: Option<PathBuf>,
    /// Capture in a background process and return at once (with
    /// --from-transcript)
    #[arg(long, requires = "from_transcript")]
    detach: bool,
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
    #[arg(long, allow_hyphen_values = true)]
    pub(crate) task: Option<String>,
    /// A file the session changed (repeatable); bare file names in the text
    /// resolve against these
    #[arg(long = "path", value_name = "PATH")]
    pub(crate) paths: Vec<String>,
    /// A commit whose changed files and diff size count as session facts
    #[arg(long, value_name = "REV")]
    pub(crate) rev: Option<String>,
    /// The test run's summary ("3 failed → 43 passed")
    #[arg(long, value_name = "TEXT", allow_hyphen_values = true)]
    pub(crate) test_summary: Option<String>,
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
    #[arg(
        long,
        value_name = "TEXT",
        conflicts_with = "input_file",
        allow_hyphen_values = true
    )]
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
    if let Some(path) = &args.from_transcript
        && args.detach
    {
        spawn_detached(ctx, path).map_err(CliError::internal)?;
        out.status(format_args!(
            "capturing {} in the background",
            path.display()
        ))?;
        return Ok(ExitStatus::Success);
    }
    let (text, transcript_task) = match &args.from_transcript {
        Some(path) => {
            let transcript = read_transcript(path)?;
            let task: Option<String> = transcript.task().map(|t| t.chars().take(300).collect());
            (transcript.text(), task)
        }
        None => (
            crate::input::text(
                args.input.input.as_deref(),
                args.input.input_file.as_deref(),
            )?,
            None,
        ),
    };
    let report = report(
        ctx,
        &Input {
            text: &text,
            session: &args.session,
            task: transcript_task.as_deref(),
            force: args.force,
            dry_run: args.run.dry_run,
            explain: args.run.explain,
            // A transcript was read unattended: a person reviews it first.
            candidates_only: args.from_transcript.is_some(),
        },
        out,
    )?;
    finish(out, &report)
}

/// What a capture is asked: `brain capture`'s arguments with the text read,
/// shared with the MCP tool `brain_capture`.
#[derive(Debug)]
#[allow(
    clippy::struct_excessive_bools,
    reason = "the command's flags, passed through"
)]
pub(crate) struct Input<'a> {
    pub(crate) text: &'a str,
    pub(crate) session: &'a SessionArgs,
    /// The task when `--task` does not give one (a transcript's first
    /// request).
    pub(crate) task: Option<&'a str>,
    pub(crate) force: bool,
    pub(crate) dry_run: bool,
    pub(crate) explain: bool,
    /// Write candidates even under a `direct` capture mode.
    pub(crate) candidates_only: bool,
}

/// Captures `input`, warnings on `out`; the report is not printed.
pub(crate) fn report(
    ctx: &Context,
    input: &Input<'_>,
    out: &mut Output<'_>,
) -> Result<CaptureReport, CliError> {
    let brain = super::open(ctx, out)?;
    let session = input.session.gather(ctx)?;
    let mut facts = input.session.facts(&session);
    if facts.task.is_none() {
        facts.task = input.task;
    }
    let request = CaptureRequest {
        text: input.text,
        facts,
        touched: &session.touched,
        origin: Origin {
            source: Source::Session,
            evidence: session.evidence.clone(),
            stable_key: None,
            candidates_only: input.candidates_only,
        },
        external: external(ctx, &brain, input.text, out)?,
        gate: true,
        force: input.force,
        dry_run: input.dry_run,
        explain: input.explain,
    };
    Ok(brain.capture(request, ctx.now(), ctx.actor())?)
}

/// Largest part of a transcript read: its end.
const MAX_TRANSCRIPT_BYTES: u64 = 16 << 20;

#[derive(Debug, thiserror::Error)]
#[error("cannot read the transcript `{}`", path.display())]
struct TranscriptError {
    path: PathBuf,
    #[source]
    source: std::io::Error,
}

/// Reads the last [`MAX_TRANSCRIPT_BYTES`] of a transcript, from a line
/// boundary.
fn read_transcript(
    path: &std::path::Path,
) -> Result<brain_core::extract::transcript::Transcript, CliError> {
    use std::io::{Read as _, Seek as _};
    let fail = |source| {
        CliError::user(TranscriptError {
            path: path.to_path_buf(),
            source,
        })
    };
    let mut file = std::fs::File::open(path).map_err(fail)?;
    let len = file.metadata().map_err(fail)?.len();
    let start = len.saturating_sub(MAX_TRANSCRIPT_BYTES);
    file.seek(std::io::SeekFrom::Start(start)).map_err(fail)?;
    let mut bytes = Vec::new();
    file.read_to_end(&mut bytes).map_err(fail)?;
    let mut text = String::from_utf8_lossy(&bytes).into_owned();
    if start > 0 {
        let cut = text.find('\n').map_or(text.len(), |i| i + 1);
        text.drain(..cut);
    }
    Ok(brain_core::extract::transcript::parse(&text))
}

/// Starts `brain capture --from-transcript <path>` on this store as a
/// background process with no standard streams, and does not wait for it.
pub(crate) fn spawn_detached(ctx: &Context, path: &std::path::Path) -> std::io::Result<()> {
    let exe = std::env::current_exe()?;
    let path = ctx.cwd().join(path);
    let mut cmd = std::process::Command::new(exe);
    cmd.arg("-C")
        .arg(ctx.root())
        .arg("--quiet")
        .arg("capture")
        .arg("--from-transcript")
        .arg(path)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null());
    // The child is not waited for: dropping the handle leaves it running.
    drop(cmd.spawn()?);
    Ok(())
}

/// Tries the external extractor, when one is configured.
pub(crate) fn external(
    ctx: &Context,
    brain: &brain_core::Brain,
    text: &str,
    out: &mut Output<'_>,
) -> Result<Option<Result<Vec<brain_core::extract::Draft>, String>>, CliError> {
    // The extractor is another program: it gets the text redacted, as
    // everything derived from it is.
    let text = brain_core::secrets::redact(text).0;
    Ok(
        match extractor::try_external(ctx, brain.store(), &text, &[])? {
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
