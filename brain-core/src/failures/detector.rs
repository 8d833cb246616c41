//! The failure detector contract: a shell command
//! (`BRAIN_FAILURE_DETECTOR_COMMAND`) that reads raw text on stdin (a test
//! log, a session transcript) and prints one JSON document
//! `{"failures":[…]}` on stdout, each item a [`FailureEvent`].
//!
//! This module is pure: it judges the output with [`parse_output`] and
//! formats the runtime-log line of a refusal with [`log_line`]. Running the
//! command (timeout, process group, byte caps) is the CLI's job; it shares
//! the external extractor's runner.
//!
//! The output is all or nothing, like the extractor's: a non-zero exit, a
//! timeout, more than [`crate::extract::external::MAX_OUTPUT_BYTES`] of
//! output, anything but exactly one [`DetectorOutput`] document (unknown keys
//! or words anywhere, trailing text), more than [`MAX_ITEMS`] failures, or one
//! failure that breaks a rule of [`Failure::from_input`] refuses it whole. The
//! caller then logs [`log_line`] to `runtime/failure-detector.log` and goes on
//! without the detector.

use schemars::JsonSchema;
use serde::Deserialize;
use serde_path_to_error::Segment;

use super::{Failure, FailureEvent};

/// The most failures one output may hold.
pub const MAX_ITEMS: usize = 50;

/// The most characters of a parser message kept in an error.
const MAX_MESSAGE_CHARS: usize = 160;

/// The document a failure detector prints on stdout.
#[derive(Clone, Debug, PartialEq, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DetectorOutput {
    /// The failures found, at most 50; an empty list means none.
    #[schemars(length(max = MAX_ITEMS))]
    pub failures: Vec<FailureEvent>,
}

/// Why a detector's output was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum DetectorError {
    /// The command could not be started.
    #[error("cannot start the failure detector: {message}")]
    Spawn {
        /// The cause.
        message: String,
    },
    /// Waiting for it or reading its output failed.
    #[error("cannot read from the failure detector: {message}")]
    Io {
        /// The cause.
        message: String,
    },
    /// It exited unsuccessfully.
    #[error("{}", crate::extract::external::exit_message("the failure detector", *.code, .stderr_excerpt))]
    Exit {
        /// The exit code; `None` when a signal ended it.
        code: Option<i32>,
        /// The end of its stderr, secrets redacted, one line.
        stderr_excerpt: String,
    },
    /// It did not finish in time and was killed.
    #[error("the failure detector timed out after {seconds}s and was killed")]
    Timeout {
        /// The timeout, in seconds.
        seconds: u64,
    },
    /// It printed too much.
    #[error("the failure detector printed more than {limit} bytes")]
    TooLarge {
        /// The limit, in bytes.
        limit: usize,
    },
    /// The output is not one JSON document of the expected shape.
    #[error(
        "the failure detector's output is not JSON of the form `{{\"failures\":[…]}}`: {message}"
    )]
    InvalidJson {
        /// What is wrong.
        message: String,
    },
    /// One failure of the output breaks the contract.
    #[error("failures[{index}]{}: {message}", field_suffix(.field))]
    InvalidItem {
        /// Position in `failures`, from 0.
        index: usize,
        /// The field, empty for the item as a whole.
        field: String,
        /// What is wrong.
        message: String,
    },
    /// More than [`MAX_ITEMS`] failures.
    #[error("the failure detector returned {count} failures; at most {MAX_ITEMS} are accepted")]
    TooMany {
        /// How many.
        count: usize,
    },
}

fn field_suffix(field: &str) -> String {
    if field.is_empty() {
        String::new()
    } else {
        format!(".{field}")
    }
}

impl DetectorError {
    /// A stable word for the kind of failure: `spawn`, `io`, `exit`,
    /// `timeout`, `too_large`, `invalid_json`, `invalid_item` or `too_many`.
    pub fn kind(&self) -> &'static str {
        match self {
            DetectorError::Spawn { .. } => "spawn",
            DetectorError::Io { .. } => "io",
            DetectorError::Exit { .. } => "exit",
            DetectorError::Timeout { .. } => "timeout",
            DetectorError::TooLarge { .. } => "too_large",
            DetectorError::InvalidJson { .. } => "invalid_json",
            DetectorError::InvalidItem { .. } => "invalid_item",
            DetectorError::TooMany { .. } => "too_many",
        }
    }
}

/// Judges a detector's stdout: exactly one [`DetectorOutput`] with at most
/// [`MAX_ITEMS`] failures, each valid. Returns the failures, validated
/// (`root` is removed from paths in their messages).
pub fn parse_output(stdout: &[u8], root: Option<&str>) -> Result<Vec<Failure>, DetectorError> {
    if stdout.iter().all(u8::is_ascii_whitespace) {
        return Err(DetectorError::InvalidJson {
            message: "the output is empty".to_owned(),
        });
    }
    let mut de = serde_json::Deserializer::from_slice(stdout);
    let output: DetectorOutput = serde_path_to_error::deserialize(&mut de).map_err(|err| {
        let path = err.path().clone();
        let inner = err.into_inner();
        let message = shorten(&inner.to_string(), MAX_MESSAGE_CHARS);
        let segments: Vec<&Segment> = path.iter().collect();
        if !(inner.is_syntax() || inner.is_eof())
            && let [Segment::Map { key }, Segment::Seq { index }, rest @ ..] = segments.as_slice()
            && key == "failures"
        {
            let field: Vec<String> = rest.iter().map(ToString::to_string).collect();
            return DetectorError::InvalidItem {
                index: *index,
                field: field.join("."),
                message,
            };
        }
        DetectorError::InvalidJson { message }
    })?;
    de.end().map_err(|e| DetectorError::InvalidJson {
        message: shorten(&e.to_string(), MAX_MESSAGE_CHARS),
    })?;
    if output.failures.len() > MAX_ITEMS {
        return Err(DetectorError::TooMany {
            count: output.failures.len(),
        });
    }
    output
        .failures
        .into_iter()
        .enumerate()
        .map(|(index, raw)| {
            Failure::from_input(raw, root).map_err(|(field, message)| DetectorError::InvalidItem {
                index,
                field: field.to_owned(),
                message,
            })
        })
        .collect()
}

pub use crate::extract::external::program_name;
use crate::extract::external::shorten;

/// Returns the line (without a newline) appended to
/// `runtime/failure-detector.log` when a detector's output is refused:
/// `<now> <program> <kind>: <reason>`, one line, at most 400 characters of
/// reason, secrets redacted. Only the program name of `command` is written;
/// neither the input nor the output appears beyond what the reason quotes.
pub fn log_line(now: jiff::Timestamp, command: &str, err: &DetectorError) -> String {
    crate::extract::external::program_log_line(now, command, err.kind(), err)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::failures::FailureKind;

    fn err(text: &str) -> DetectorError {
        parse_output(text.as_bytes(), None).unwrap_err()
    }

    #[test]
    fn valid_output_is_accepted() {
        let out = parse_output(
            br#"{"failures":[{"command":"cargo test","kind":"test","message":"2 tests failed","paths":["src/a.rs"]},{"command":"make","message":"boom"}]}"#,
            None,
        )
        .unwrap();
        assert_eq!(out.len(), 2);
        assert_eq!(out[0].kind, FailureKind::Test);
        assert_eq!(out[0].signature.message, "<n> tests failed");
        assert_eq!(out[1].kind, FailureKind::Other);
        assert!(
            parse_output(b" {\"failures\":[]}\n", None)
                .unwrap()
                .is_empty()
        );
    }

    #[test]
    fn every_lie_refuses_the_whole_output() {
        let cases = [
            ("", "invalid_json", "the output is empty"),
            ("Sure! Two tests failed.", "invalid_json", "expected value"),
            (
                r#"{"failures":[]} {}"#,
                "invalid_json",
                "trailing characters",
            ),
            (
                r#"{"failures":[],"extra":1}"#,
                "invalid_json",
                "unknown field `extra`",
            ),
            (
                r#"{"failures":[{"command":"x","message":"m"},{"command":"x","message":"m","kind":"flaky"}]}"#,
                "invalid_item",
                "failures[1].kind: unknown variant `flaky`",
            ),
            (
                r#"{"failures":[{"command":"x"}]}"#,
                "invalid_item",
                "failures[0]: missing field `message`",
            ),
            (
                r#"{"failures":[{"command":"x","message":"  "}]}"#,
                "invalid_item",
                "failures[0].message: is empty",
            ),
            (
                r#"{"failures":[{"command":"x","message":"m","paths":["/etc/passwd"]}]}"#,
                "invalid_item",
                "failures[0].paths: `/etc/passwd` must be relative",
            ),
        ];
        for (text, kind, message) in cases {
            let e = err(text);
            assert_eq!(e.kind(), kind, "{text}: {e}");
            assert!(e.to_string().contains(message), "{text}: {e}");
        }
        let many = format!(
            "{{\"failures\":[{}]}}",
            vec![r#"{"command":"x","message":"m"}"#; MAX_ITEMS + 1].join(",")
        );
        assert_eq!(err(&many).kind(), "too_many");
    }

    #[test]
    fn the_log_line_names_the_program_only() {
        let e = DetectorError::Exit {
            code: Some(3),
            stderr_excerpt: "model overloaded".into(),
        };
        let line = log_line(
            "2026-11-20T12:00:00Z".parse().unwrap(),
            "OPENAI_API_KEY=sk-abc /opt/bin/detect-failures --model big",
            &e,
        );
        assert_eq!(
            line,
            "2026-11-20T12:00:00Z detect-failures exit: the failure detector exited with status 3; stderr: model overloaded"
        );
    }
}
