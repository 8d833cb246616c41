//! `brain routing-feedback`: apply what agents report about routing plans,
//! or explain a skill's standing.

use std::path::PathBuf;

use crate::context::Context;
use crate::error::{CliError, ExitStatus};
use crate::output::Output;

/// Apply routing feedback: what agents report about the skills and workflows a plan gave them
///
/// Reads events from stdin (or `--input-file`), as one JSON array or as NDJSON
/// (one object per line), for example:
///
///   `{"type":"skill_rejected_by_user","skill":"playwright-e2e","plan_id":"4f1c9a0b7d2e8c35","notes":"too slow for a one-line fix","strength":0.9}`
///
/// `type` is one of `skill_followed`, `skill_ignored`, `skill_rejected_by_user`
/// (these need `skill`), `workflow_too_heavy`, `workflow_success`,
/// `workflow_failure` (these need `workflow`) and `routing_conflict_escalated`
/// (`skill` or `workflow`). Optional: `plan_id`, `notes`, `strength` (0 to 1,
/// default 1; below 0.35 weak, from 0.7 strong), `at`, `task` and `id`.
///
/// Negative signals (`skill_rejected_by_user`, `workflow_too_heavy`,
/// `workflow_failure`, and a strong `skill_ignored`) propose a candidate `avoid`
/// preference, never an active one; a strong one against an active `prefer`
/// marks that preference for review instead. `skill_followed` and
/// `workflow_success` raise the confidence of existing `prefer` preferences by
/// 0.05, up to 0.95. `skill_ignored` and `routing_conflict_escalated` queue a
/// reminder (`brain reinforce --pending`).
///
/// Sending an event again changes nothing. A line that is not a valid event
/// is reported with its line number and the command exits with status 1; the
/// valid lines are still applied.
#[derive(clap::Args, Debug)]
pub(crate) struct RoutingFeedbackArgs {
    /// A file holding the events [default: read stdin]
    #[arg(long, value_name = "FILE", conflicts_with = "explain")]
    input_file: Option<PathBuf>,
    /// Show the preferences, applied events and reminders behind a skill's
    /// or workflow's standing; reads nothing from stdin, writes nothing
    #[arg(long, value_name = "NAME")]
    explain: Option<String>,
}

#[derive(Debug, thiserror::Error)]
#[error("{what} is not valid UTF-8 (at byte {offset})")]
struct NotUtf8 {
    what: String,
    offset: usize,
}

/// The bytes of a JSON input as text, refusing anything that is not UTF-8.
pub(super) fn json_text(bytes: Vec<u8>, what: &str) -> Result<String, CliError> {
    String::from_utf8(bytes).map_err(|e| {
        CliError::user(NotUtf8 {
            what: what.to_owned(),
            offset: e.utf8_error().valid_up_to(),
        })
    })
}

pub(crate) fn run(
    ctx: &Context,
    args: &RoutingFeedbackArgs,
    out: &mut Output<'_>,
) -> Result<ExitStatus, CliError> {
    let brain = super::open(ctx, out)?;
    if let Some(name) = &args.explain {
        let report = brain.feedback_explain(name, ctx.now())?;
        for w in &report.warnings {
            out.warn(w)?;
        }
        out.emit(&report)?;
        return Ok(ExitStatus::Success);
    }
    let (bytes, what) = crate::input::raw(args.input_file.as_deref())?;
    let text = json_text(bytes, &what)?;
    let report = brain.routing_feedback(&text, ctx.now(), ctx.actor())?;
    for w in &report.warnings {
        out.warn(w)?;
    }
    if report.summary.events == 0 && report.summary.errors == 0 {
        out.warn(format_args!("{what} holds no events"))?;
    }
    super::warn_redactions(out, &report.redactions)?;
    out.emit(&report)?;
    Ok(if report.errors.is_empty() {
        ExitStatus::Success
    } else {
        ExitStatus::Findings
    })
}
