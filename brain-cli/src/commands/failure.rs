//! `brain failure record` and `brain failure detect`: failures that keep
//! coming back become candidate gotchas.
//!
//! `detect` runs the failure detector (`BRAIN_FAILURE_DETECTOR_COMMAND`)
//! through the external extractor's process runner
//! ([`crate::extractor::run_raw`]: `sh -c` in the repository root, its own
//! process group, stdout capped, the group killed at the timeout) and judges
//! its output with [`brain_core::failures::detector::parse_output`]. A refused
//! output is logged to `.brain/runtime/failure-detector.log` and the command
//! goes on without it.

use std::path::PathBuf;
use std::time::Duration;

use brain_core::config::MAX_EXTRACTOR_TIMEOUT_SECONDS;
use brain_core::extract::external::ExternalError;
use brain_core::failures::detector::{self, DetectorError};
use brain_core::failures::{
    self, DetectorOutcome, DetectorUse, FailureReport, FailureSource, ParsedFailures,
};

use crate::context::Context;
use crate::error::{CliError, ExitStatus};
use crate::output::Output;

/// Seconds the failure detector may run unless `BRAIN_FAILURE_DETECTOR_TIMEOUT` says otherwise.
const DEFAULT_TIMEOUT_SECONDS: u64 = 30;

/// Record failures; a failure seen 3 times becomes a candidate gotcha
///
/// Each failure is recorded in `.brain/runtime/failures.jsonl` with a
/// signature: the command's program and subcommands, the kind, and the
/// message without what changes between runs (numbers, hex ids, UUIDs, the
/// directories of absolute paths, the repository root). When a signature has
/// been recorded 3 times, a candidate gotcha is written once, with the
/// occurrences as evidence; later occurrences add nothing.
#[derive(clap::Args, Debug)]
pub(crate) struct FailureArgs {
    #[command(subcommand)]
    command: FailureCommand,
}

#[derive(clap::Subcommand, Debug)]
enum FailureCommand {
    Record(RecordArgs),
    Detect(DetectArgs),
}

/// Record failure events read from stdin
///
/// Reads one JSON array or NDJSON (one object per line), for example:
///
///   `{"command":"cargo test -p billing","kind":"test","message":"thread 'refund_twice' panicked at src/ledger.rs:42:5","paths":["src/ledger.rs"],"at":"2026-11-20T10:00:00Z"}`
///
/// `command` and `message` are required. Optional: `kind` (build, test,
/// lint, `type_check`, runtime, timeout, tool, other; default other),
/// `exit_code`, `paths` (relative to the repository root), `task`, `at` and
/// `id`. Sending a failure again changes nothing: send `at` or `id` so that
/// two occurrences with the same text count twice. A line that is not a valid
/// failure is reported with its line number and the command exits with
/// status 1; the valid lines are still recorded.
#[derive(clap::Args, Debug)]
struct RecordArgs {
    /// A file holding the failures [default: read stdin]
    #[arg(long, value_name = "FILE")]
    input_file: Option<PathBuf>,
}

/// Find failures in a log with the failure detector, and record them
///
/// Runs `BRAIN_FAILURE_DETECTOR_COMMAND` (`sh -c`, in the repository root)
/// with the text of stdin (or `--input-file`: a test log, a session
/// transcript) on its stdin. It must print `{"failures":[…]}` (the items as
/// for `brain failure record`) and exit 0 within
/// `BRAIN_FAILURE_DETECTOR_TIMEOUT` seconds (default 30). Any other output is
/// refused whole: the reason is logged in
/// `.brain/runtime/failure-detector.log`, a warning is printed, and nothing
/// is recorded. Without a detector, nothing is recorded either.
#[derive(clap::Args, Debug)]
struct DetectArgs {
    /// A file holding the text [default: read stdin]
    #[arg(long, value_name = "FILE")]
    input_file: Option<PathBuf>,
}

#[derive(Debug, thiserror::Error)]
#[error("invalid failure input in {what}")]
struct BadBatch {
    what: String,
    #[source]
    source: brain_core::feedback::input::BatchError,
}

#[derive(Debug, thiserror::Error)]
#[error(
    "`BRAIN_FAILURE_DETECTOR_TIMEOUT` is not a whole number of seconds in 1..={MAX_EXTRACTOR_TIMEOUT_SECONDS}: `{0}`"
)]
struct BadTimeout(String);

pub(crate) fn run(
    ctx: &Context,
    args: &FailureArgs,
    out: &mut Output<'_>,
) -> Result<ExitStatus, CliError> {
    match &args.command {
        FailureCommand::Record(a) => record(ctx, a, out),
        FailureCommand::Detect(a) => detect(ctx, a, out),
    }
}

fn record(ctx: &Context, args: &RecordArgs, out: &mut Output<'_>) -> Result<ExitStatus, CliError> {
    let brain = super::open(ctx, out)?;
    let (bytes, what) = crate::input::raw(args.input_file.as_deref())?;
    let text = super::routing_feedback::json_text(bytes, &what)?;
    let root = ctx.root().to_string_lossy();
    let parsed = failures::parse(&text, Some(&root)).map_err(|source| {
        CliError::user(BadBatch {
            what: what.clone(),
            source,
        })
    })?;
    if parsed.failures.is_empty() && parsed.errors.is_empty() {
        out.warn(format_args!("{what} holds no failures"))?;
    }
    let report =
        brain.record_failures(parsed, FailureSource::Input, None, ctx.now(), ctx.actor())?;
    finish(out, &report)
}

fn detect(ctx: &Context, args: &DetectArgs, out: &mut Output<'_>) -> Result<ExitStatus, CliError> {
    let brain = super::open(ctx, out)?;
    let text = crate::input::text(None, args.input_file.as_deref())?;
    let root = ctx.root().to_string_lossy();
    let (parsed, used) = match configured(ctx.detector_command(), ctx.detector_timeout())? {
        None => {
            out.warn(
                "no failure detector configured (set BRAIN_FAILURE_DETECTOR_COMMAND); nothing recorded",
            )?;
            let used = DetectorUse {
                outcome: DetectorOutcome::NotConfigured,
                program: None,
                reason: None,
            };
            (ParsedFailures::default(), used)
        }
        Some((command, timeout)) => {
            let program = Some(detector::program_name(&command));
            let result = crate::extractor::run_raw(Some(ctx.root()), &command, &text, timeout)
                .map_err(from_external)
                .and_then(|stdout| detector::parse_output(&stdout, Some(&root)));
            match result {
                Ok(found) => {
                    let parsed = ParsedFailures {
                        failures: found
                            .into_iter()
                            .enumerate()
                            .map(|(i, f)| (i + 1, f))
                            .collect(),
                        errors: Vec::new(),
                    };
                    let used = DetectorUse {
                        outcome: DetectorOutcome::Used,
                        program,
                        reason: None,
                    };
                    (parsed, used)
                }
                Err(err) => {
                    // Best effort: a log that cannot be written does not stop the fallback.
                    let _ = brain.store().append_runtime_log(
                        failures::DETECTOR_LOG,
                        &detector::log_line(ctx.now(), &command, &err),
                    );
                    out.warn(format_args!(
                        "failure detector refused ({err}); nothing recorded (logged in .brain/runtime/{})",
                        failures::DETECTOR_LOG
                    ))?;
                    let used = DetectorUse {
                        outcome: DetectorOutcome::Refused,
                        program,
                        reason: Some(err.to_string()),
                    };
                    (ParsedFailures::default(), used)
                }
            }
        }
    };
    let report = brain.record_failures(
        parsed,
        FailureSource::Detector,
        Some(used),
        ctx.now(),
        ctx.actor(),
    )?;
    finish(out, &report)
}

/// The detector command and timeout in effect, or `None` when
/// `BRAIN_FAILURE_DETECTOR_COMMAND` is unset or blank. An unusable
/// `BRAIN_FAILURE_DETECTOR_TIMEOUT` is a user error.
fn configured(
    command: Option<&str>,
    timeout: Option<&str>,
) -> Result<Option<(String, Duration)>, CliError> {
    let Some(command) = command.filter(|c| !c.trim().is_empty()) else {
        return Ok(None);
    };
    let seconds = match timeout.map(str::trim).filter(|s| !s.is_empty()) {
        Some(s) => s
            .parse::<u64>()
            .ok()
            .filter(|n| (1..=MAX_EXTRACTOR_TIMEOUT_SECONDS).contains(n))
            .ok_or_else(|| CliError::user(BadTimeout(s.to_owned())))?,
        None => DEFAULT_TIMEOUT_SECONDS,
    };
    Ok(Some((command.to_owned(), Duration::from_secs(seconds))))
}

/// The runner's errors, as the detector contract names them.
fn from_external(err: ExternalError) -> DetectorError {
    match err {
        ExternalError::Spawn(e) => DetectorError::Spawn {
            message: e.to_string(),
        },
        ExternalError::Exit {
            code,
            stderr_excerpt,
        } => DetectorError::Exit {
            code,
            stderr_excerpt,
        },
        ExternalError::Timeout { seconds } => DetectorError::Timeout { seconds },
        ExternalError::TooLarge { limit } => DetectorError::TooLarge { limit },
        other => DetectorError::Io {
            message: other.to_string(),
        },
    }
}

fn finish(out: &mut Output<'_>, report: &FailureReport) -> Result<ExitStatus, CliError> {
    for w in &report.warnings {
        out.warn(w)?;
    }
    super::warn_redactions(out, &report.redactions)?;
    out.emit(report)?;
    Ok(if report.errors.is_empty() {
        ExitStatus::Success
    } else {
        ExitStatus::Findings
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn detector_configuration() {
        assert!(configured(None, None).unwrap().is_none());
        assert!(configured(Some("  "), Some("5")).unwrap().is_none());
        assert_eq!(
            configured(Some("detect"), None).unwrap(),
            Some(("detect".to_owned(), Duration::from_secs(30)))
        );
        assert_eq!(
            configured(Some("detect"), Some(" 7 ")).unwrap(),
            Some(("detect".to_owned(), Duration::from_secs(7)))
        );
        for bad in ["0", "-1", "soon", "3601", "1.5"] {
            let err = configured(Some("detect"), Some(bad)).unwrap_err();
            assert!(
                err.source
                    .to_string()
                    .contains("BRAIN_FAILURE_DETECTOR_TIMEOUT"),
                "{bad}"
            );
        }
    }

    #[test]
    fn runner_errors_keep_their_kind() {
        let cases = [
            (
                ExternalError::Timeout { seconds: 2 },
                "timeout",
                "the failure detector timed out after 2s and was killed",
            ),
            (
                ExternalError::Exit {
                    code: Some(4),
                    stderr_excerpt: "boom".into(),
                },
                "exit",
                "the failure detector exited with status 4; stderr: boom",
            ),
            (
                ExternalError::TooLarge { limit: 10 },
                "too_large",
                "the failure detector printed more than 10 bytes",
            ),
        ];
        for (err, kind, message) in cases {
            let d = from_external(err);
            assert_eq!((d.kind(), d.to_string().as_str()), (kind, message));
        }
    }
}
