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
///
/// `--detach` is for the `post-commit` hook: it starts the extraction as a
/// background process with no terminal (stdin, stdout and stderr closed) and
/// returns at once with status 0; that run writes candidates only, whatever
/// the capture mode, and its errors go nowhere.
#[derive(clap::Args, Debug)]
pub(crate) struct ExtractCommitArgs {
    /// The commit
    #[arg(long, value_name = "REV", default_value = "HEAD")]
    rev: String,
    /// Run in the background and return at once (for the `post-commit` hook)
    #[arg(long, conflicts_with_all = ["dry_run", "explain"])]
    detach: bool,
    /// Write candidates only, whatever the capture mode (what `--detach` runs)
    #[arg(long, hide = true)]
    candidates_only: bool,
    #[command(flatten)]
    run: RunArgs,
}

pub(crate) fn run(
    ctx: &Context,
    args: &ExtractCommitArgs,
    out: &mut Output<'_>,
) -> Result<ExitStatus, CliError> {
    if args.detach {
        detach(ctx, &args.rev);
        return Ok(ExitStatus::Success);
    }
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
            candidates_only: args.candidates_only,
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

/// Starts `brain -C ROOT --quiet extract-commit --rev ID --candidates-only`
/// in its own process group with every standard stream closed, and does not
/// wait for it. The revision is resolved first, so a commit made meanwhile
/// does not change what is read. Nothing here may fail the caller, a hook
/// that git runs after the commit is already made: every error is dropped.
fn detach(ctx: &Context, rev: &str) {
    use std::process::{Command, Stdio};
    let Ok(exe) = std::env::current_exe() else {
        return;
    };
    let id = gix::discover(ctx.root())
        .ok()
        .and_then(|repo| repo.rev_parse_single(rev).ok().map(|id| id.to_string()))
        .unwrap_or_else(|| rev.to_owned());
    let mut cmd = Command::new(exe);
    cmd.arg("-C")
        .arg(ctx.root())
        .args([
            "--quiet",
            "extract-commit",
            "--rev",
            &id,
            "--candidates-only",
        ])
        .current_dir(ctx.root())
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        // Not in the terminal's process group: a Ctrl-C after the commit
        // does not reach it.
        cmd.process_group(0);
    }
    // The child is not waited for; once this process exits it is reparented.
    drop(cmd.spawn());
}
