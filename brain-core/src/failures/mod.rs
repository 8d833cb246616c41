//! Failure reinforcement: failures that keep coming back become candidate
//! gotchas.
//!
//! `brain failure record` reads [`FailureEvent`]s (a JSON array or NDJSON,
//! like routing feedback); `brain failure detect` gets them from an external
//! detector ([`detector`]). Each valid failure is appended to
//! `runtime/failures.jsonl` with its [`Signature`] (normalised command, kind
//! and normalised message; see [`signature`]). Re-sending a failure changes
//! nothing: its id (the explicit `id`, or 16 hex digits of a blake3 hash
//! over its content) is already in the log. Send `at` (or an `id`) so that
//! two real occurrences with the same text count twice.
//!
//! When a signature has been recorded [`THRESHOLD`] times or more, a
//! **candidate** gotcha is written with the occurrences as evidence. Its id
//! depends on the signature alone, so it is written once: later occurrences,
//! and a gotcha dismissed in review, never produce another file.
//!
//! Pure except the [`crate::Brain`] method [`crate::Brain::record_failures`].

pub mod detector;
pub mod signature;

use std::collections::BTreeMap;
use std::fmt::Write as _;

use jiff::Timestamp;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::brain::{Brain, Error};
use crate::feedback::input::{self, BatchError};
use crate::feedback::{LineError, LineErrorKind, MAX_ID_CHARS, MAX_TASK_CHARS};
use crate::model::{
    Confidence, Evidence, EvidenceKind, Importance, Memory, MemoryId, MemoryType, Provenance,
    Review, ReviewState, Risk, Source, Status,
};
use crate::secrets::{self, Redaction};
pub use signature::Signature;

/// Occurrences of one signature that make a candidate gotcha.
pub const THRESHOLD: usize = 3;
/// The failure log under `runtime/`.
pub const LOG: &str = "failures.jsonl";
/// The log of refused detector outputs under `runtime/`.
pub const DETECTOR_LOG: &str = "failure-detector.log";
/// Longest `command`, in characters.
pub const MAX_COMMAND_CHARS: usize = 1000;
/// Longest `message`, in characters.
pub const MAX_MESSAGE_CHARS: usize = 8000;
/// Most `paths` of one failure.
pub const MAX_PATHS: usize = 20;
/// Characters of a message kept in the failure log.
pub const STORED_MESSAGE_CHARS: usize = 1000;

/// What failed.
#[derive(
    Clone,
    Copy,
    Debug,
    Default,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    Serialize,
    Deserialize,
    JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum FailureKind {
    /// Compiling or bundling.
    Build,
    /// A test run.
    Test,
    /// A linter or formatter check.
    Lint,
    /// A type checker.
    TypeCheck,
    /// The program at run time.
    Runtime,
    /// Something that took too long.
    Timeout,
    /// An agent tool call.
    Tool,
    /// Anything else.
    #[default]
    Other,
}

impl FailureKind {
    /// Returns the word used in events and reports.
    pub fn as_str(self) -> &'static str {
        match self {
            FailureKind::Build => "build",
            FailureKind::Test => "test",
            FailureKind::Lint => "lint",
            FailureKind::TypeCheck => "type_check",
            FailureKind::Runtime => "runtime",
            FailureKind::Timeout => "timeout",
            FailureKind::Tool => "tool",
            FailureKind::Other => "other",
        }
    }
}

/// One failure, as an agent or a detector reports it. Unknown keys are refused.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FailureEvent {
    /// The command that failed (`cargo test -p billing`).
    #[schemars(length(min = 1, max = MAX_COMMAND_CHARS))]
    pub command: String,
    /// What kind of failure (default `other`).
    #[serde(default)]
    pub kind: FailureKind,
    /// The error message or the relevant end of the output.
    #[schemars(length(min = 1, max = MAX_MESSAGE_CHARS))]
    pub message: String,
    /// The command's exit code.
    #[serde(default)]
    pub exit_code: Option<i32>,
    /// Repository-relative paths involved (become the gotcha's scope).
    #[serde(default)]
    #[schemars(length(max = MAX_PATHS))]
    pub paths: Vec<String>,
    /// The task the agent was on.
    #[serde(default)]
    #[schemars(length(max = MAX_TASK_CHARS))]
    pub task: Option<String>,
    /// When it happened (RFC 3339); tells two occurrences with the same text apart.
    #[serde(default)]
    pub at: Option<Timestamp>,
    /// A stable id chosen by the sender; without it the id is a hash of the
    /// content. Re-sending an id changes nothing.
    #[serde(default)]
    #[schemars(pattern(r"^[A-Za-z0-9._:-]{1,128}$"))]
    pub id: Option<String>,
}

/// A validated failure: texts trimmed and redacted, the signature computed.
#[derive(Clone, Debug, PartialEq)]
pub struct Failure {
    /// The explicit id, or the content hash.
    pub id: String,
    /// The command, white space collapsed, secrets redacted.
    pub command: String,
    /// The kind.
    pub kind: FailureKind,
    /// The message, secrets redacted, the root removed from paths, cut to
    /// [`STORED_MESSAGE_CHARS`].
    pub message: String,
    /// The exit code.
    pub exit_code: Option<i32>,
    /// Paths, normalised.
    pub paths: Vec<String>,
    /// The task.
    pub task: Option<String>,
    /// When it happened.
    pub at: Option<Timestamp>,
    /// Its signature.
    pub signature: Signature,
}

impl Failure {
    /// Validates a failure as sent. `root` (the repository root) is removed
    /// from paths in the message before the signature is taken. Returns the
    /// field and what is wrong with it.
    pub fn from_input(
        raw: FailureEvent,
        root: Option<&str>,
    ) -> Result<Failure, (&'static str, String)> {
        let command = raw.command.split_whitespace().collect::<Vec<_>>().join(" ");
        if command.is_empty() {
            return Err(("command", "is empty".to_owned()));
        }
        if raw.command.chars().count() > MAX_COMMAND_CHARS {
            return Err((
                "command",
                format!("is longer than {MAX_COMMAND_CHARS} characters"),
            ));
        }
        if raw.message.trim().is_empty() {
            return Err(("message", "is empty".to_owned()));
        }
        if raw.message.chars().count() > MAX_MESSAGE_CHARS {
            return Err((
                "message",
                format!("is longer than {MAX_MESSAGE_CHARS} characters"),
            ));
        }
        if raw.paths.len() > MAX_PATHS {
            return Err(("paths", format!("has more than {MAX_PATHS} entries")));
        }
        let mut paths = Vec::with_capacity(raw.paths.len());
        for p in &raw.paths {
            paths.push(relative_path(p).map_err(|m| ("paths", m))?);
        }
        paths.sort();
        paths.dedup();
        let task = match raw.task.as_deref().map(str::trim) {
            Some(t) if t.chars().count() > MAX_TASK_CHARS => {
                return Err((
                    "task",
                    format!("is longer than {MAX_TASK_CHARS} characters"),
                ));
            }
            Some(t) if !t.is_empty() => Some(secrets::redact(&one_line(t)).0),
            _ => None,
        };
        if let Some(id) = &raw.id {
            let ok = !id.is_empty()
                && id.chars().count() <= MAX_ID_CHARS
                && id
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b':' | b'-'));
            if !ok {
                return Err((
                    "id",
                    format!(
                        "`{id}` is not a failure id (1 to {MAX_ID_CHARS} letters, digits, `.`, `_`, `:` or `-`)"
                    ),
                ));
            }
        }
        let signature = Signature::of(&command, raw.kind, &raw.message, root);
        // Paths inside the repository become relative: the local root (a
        // home directory) has no place in a gotcha that is committed.
        let strip_root = |s: String| match root.map(|r| r.trim_end_matches(['/', '\\'])) {
            Some(r) if r.len() > 1 => s.replace(&format!("{r}/"), ""),
            _ => s,
        };
        let command = strip_root(secrets::redact(&command).0);
        let message =
            strip_root(secrets::redact(crate::model::normalize_text(&raw.message).trim_end()).0);
        let id = raw.id.unwrap_or_else(|| {
            let canonical = serde_json::json!({
                "v": 1,
                "command": command,
                "kind": raw.kind.as_str(),
                "message": message,
                "exit_code": raw.exit_code,
                "paths": paths,
                "task": task,
                "at": raw.at.map(|t| t.to_string()),
            });
            blake3::hash(canonical.to_string().as_bytes()).to_hex()[..16].to_owned()
        });
        Ok(Failure {
            id,
            command,
            kind: raw.kind,
            message: cut(&message, STORED_MESSAGE_CHARS),
            exit_code: raw.exit_code,
            paths,
            task,
            at: raw.at,
            signature,
        })
    }
}

fn one_line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn cut(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        s.to_owned()
    } else {
        let mut out: String = s.chars().take(max - 1).collect();
        out.push('…');
        out
    }
}

/// A repository-relative path: one line, `/`-separated, not absolute, no `..`.
fn relative_path(p: &str) -> Result<String, String> {
    let t = p.trim();
    if t.is_empty() || t.contains(['\n', '\r']) {
        return Err("entries must be non-empty and one line".to_owned());
    }
    let b = t.as_bytes();
    let drive = b.len() >= 2 && b[0].is_ascii_alphabetic() && b[1] == b':';
    if t.starts_with(['/', '\\', '~']) || drive {
        return Err(format!(
            "`{t}` must be relative to the repository root, not absolute"
        ));
    }
    let mut norm = t.replace('\\', "/");
    while let Some(rest) = norm.strip_prefix("./") {
        norm = rest.to_owned();
    }
    if norm.split('/').any(|c| c == "..") {
        return Err(format!("`{t}` must not contain a `..` component"));
    }
    Ok(norm.trim_end_matches('/').to_owned())
}

/// Where a failure came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum FailureSource {
    /// `brain failure record`.
    Input,
    /// `brain failure detect`.
    Detector,
}

/// One line of `runtime/failures.jsonl`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct FailureRecord {
    /// The failure id.
    pub id: String,
    /// The signature.
    pub signature: Signature,
    /// When it was recorded.
    pub recorded_at: Timestamp,
    /// When it happened, as sent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at: Option<Timestamp>,
    /// The command, secrets redacted.
    pub command: String,
    /// The message, secrets redacted, cut.
    pub message: String,
    /// The exit code.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exit_code: Option<i32>,
    /// Paths.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub paths: Vec<String>,
    /// The task.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub task: Option<String>,
    /// Where it came from.
    pub source: FailureSource,
}

impl FailureRecord {
    fn when(&self) -> Timestamp {
        self.at.unwrap_or(self.recorded_at)
    }
}

/// The valid failures of an input, with their lines, and the refused lines.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ParsedFailures {
    /// Valid failures, in input order (for detector output: the 1-based item number).
    pub failures: Vec<(usize, Failure)>,
    /// Refused lines.
    pub errors: Vec<LineError>,
}

/// Parses a failure input (JSON array or NDJSON).
///
/// # Errors
/// The input's overall shape is broken.
pub fn parse(text: &str, root: Option<&str>) -> Result<ParsedFailures, BatchError> {
    let mut parsed = ParsedFailures::default();
    for item in input::split(text)? {
        match input::parse::<FailureEvent>(&item) {
            Ok(raw) => match Failure::from_input(raw, root) {
                Ok(f) => parsed.failures.push((item.line, f)),
                Err((field, message)) => parsed.errors.push(LineError {
                    line: item.line,
                    column: None,
                    kind: LineErrorKind::InvalidValue,
                    field: Some(field.to_owned()),
                    message,
                }),
            },
            Err(e) => parsed.errors.push(LineError::from_item(e, "")),
        }
    }
    Ok(parsed)
}

/// What became of one failure.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum FailureOutcome {
    /// Appended to the failure log.
    Recorded,
    /// Its id was in the log already: nothing changed.
    Duplicate,
}

/// One failure of the input and what became of it.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
pub struct RecordedFailure {
    /// 1-based input line (detector output: item number).
    pub line: usize,
    /// The failure id.
    pub id: String,
    /// Its signature.
    pub signature: Signature,
    /// Recorded or duplicate.
    pub outcome: FailureOutcome,
    /// Occurrences of the signature in the log after this failure.
    pub occurrences: usize,
}

/// What happened about a gotcha for a signature seen [`THRESHOLD`] times.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum GotchaOutcome {
    /// A candidate gotcha was written.
    Proposed,
    /// A record with its id exists (proposed before, perhaps reviewed since).
    AlreadyPresent,
}

/// The gotcha of one signature.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
pub struct GotchaProposal {
    /// The signature id.
    pub signature: String,
    /// The gotcha's id.
    pub id: MemoryId,
    /// Its file, relative to the root.
    pub path: String,
    /// Occurrences of the signature.
    pub occurrences: usize,
    /// Proposed now, or there already.
    pub outcome: GotchaOutcome,
}

/// How the detector was used, for `brain failure detect`.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
pub struct DetectorUse {
    /// `used`, `refused` or `not_configured`.
    pub outcome: DetectorOutcome,
    /// The detector's program name (never its arguments).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub program: Option<String>,
    /// Why its output was refused (also logged in `runtime/failure-detector.log`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

/// Whether the detector's output was used.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum DetectorOutcome {
    /// Its output was accepted.
    Used,
    /// Its output was refused; nothing was recorded.
    Refused,
    /// No detector is configured; nothing was recorded.
    NotConfigured,
}

/// Counts over one run.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, JsonSchema)]
pub struct FailureSummary {
    /// Valid failures read.
    pub failures: usize,
    /// Lines refused.
    pub errors: usize,
    /// Failures recorded now.
    pub recorded: usize,
    /// Failures recorded before.
    pub duplicates: usize,
    /// Candidate gotchas written now.
    pub gotchas_proposed: usize,
}

/// What `brain failure record` and `brain failure detect` did.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
pub struct FailureReport {
    /// The detector (`detect` only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub detector: Option<DetectorUse>,
    /// One entry per valid failure, in input order.
    pub failures: Vec<RecordedFailure>,
    /// One entry per refused line.
    pub errors: Vec<LineError>,
    /// Gotchas of signatures seen [`THRESHOLD`] times or more, among those of this input.
    pub gotchas: Vec<GotchaProposal>,
    /// Counts.
    pub summary: FailureSummary,
    /// Secrets removed from gotchas before writing.
    pub redactions: Vec<Redaction>,
    /// Non-fatal trouble: unreadable log lines.
    pub warnings: Vec<String>,
}

/// The id of the gotcha of a signature: it depends on the signature alone.
pub fn gotcha_id(signature: &Signature) -> MemoryId {
    MemoryId::generate(
        &format!("repeated failure {}", signature.command),
        &["gotcha", "failure-signature", &signature.id],
    )
}

/// The candidate gotcha for `occurrences` (oldest first) of one signature.
pub fn gotcha(
    signature: &Signature,
    occurrences: &[&FailureRecord],
    now: Timestamp,
    actor: Option<&str>,
) -> Memory {
    let first_line = occurrences
        .first()
        .and_then(|o| o.message.lines().find(|l| !l.trim().is_empty()))
        .unwrap_or(&signature.message)
        .trim();
    let title = format!(
        "`{}` fails repeatedly: {}",
        signature.command,
        cut(&one_line(first_line), 80)
    );
    let summary = format!(
        "`{}` failed {} times with the same {} error: {}",
        signature.command,
        occurrences.len(),
        signature.kind.as_str().replace('_', " "),
        cut(&signature.message, 200)
    );
    let mut detail = String::from("Occurrences:\n");
    let mut evidence = vec![Evidence {
        kind: EvidenceKind::Note,
        value: format!("failure signature {}", signature.id),
    }];
    let mut paths = Vec::new();
    for o in occurrences {
        let first = o.message.lines().next().unwrap_or_default();
        let _ = write!(
            detail,
            "- {} `{}`: {}",
            o.when(),
            cut(&o.command, 120),
            cut(first.trim(), 200)
        );
        if let Some(task) = &o.task {
            let _ = write!(detail, " (task: {})", cut(task, 120));
        }
        detail.push('\n');
        evidence.push(Evidence {
            kind: EvidenceKind::Note,
            value: format!("failure {} at {}: {}", o.id, o.when(), cut(&o.command, 120)),
        });
        paths.extend(o.paths.iter().cloned());
    }
    let _ = write!(
        detail,
        "\nSignature {}: command `{}`, kind `{}`, message `{}`.\nFind the cause before running the command again.",
        signature.id,
        signature.command,
        signature.kind.as_str(),
        signature.message
    );
    paths.sort();
    paths.dedup();
    paths.truncate(MAX_PATHS);
    let mut m = Memory::new(
        gotcha_id(signature),
        MemoryType::Gotcha,
        Status::Candidate,
        title,
        summary,
        Provenance {
            source: Source::Failure,
            captured_at: now,
            proposed_by: actor.map(str::to_owned),
            evidence,
        },
    );
    m.detail = detail;
    m.importance = Importance::Medium;
    m.risk = Risk::Medium;
    m.confidence = Confidence::new(0.7).unwrap_or_default();
    m.tags = vec![
        "failure".to_owned(),
        signature.kind.as_str().replace('_', "-"),
    ];
    m.scope.paths = paths;
    m.review = Review {
        state: Some(ReviewState::Pending),
        ..Review::default()
    };
    m
}

impl Brain {
    /// `brain failure record` / `detect`: appends every new failure of
    /// `parsed` to the failure log under the write lock, then writes a
    /// candidate gotcha for every signature of the input that has reached
    /// [`THRESHOLD`] occurrences and has none yet (after the secret
    /// firewall).
    ///
    /// # Errors
    /// The lock, the log or a write failed.
    pub fn record_failures(
        &self,
        parsed: ParsedFailures,
        source: FailureSource,
        detector: Option<DetectorUse>,
        now: Timestamp,
        actor: Option<&str>,
    ) -> Result<FailureReport, Error> {
        let store = self.store();
        let lock = store.lock()?;
        let mut warnings = Vec::new();
        let log = read_log(store.read_runtime_file(LOG)?.as_deref(), &mut warnings);
        let mut by_signature: BTreeMap<String, Vec<FailureRecord>> = BTreeMap::new();
        let mut known = std::collections::BTreeSet::new();
        for r in log {
            if known.insert(r.id.clone()) {
                by_signature
                    .entry(r.signature.id.clone())
                    .or_default()
                    .push(r);
            }
        }
        let mut summary = FailureSummary {
            failures: parsed.failures.len(),
            errors: parsed.errors.len(),
            ..FailureSummary::default()
        };
        let mut failures = Vec::with_capacity(parsed.failures.len());
        let mut touched: Vec<Signature> = Vec::new();
        for (line, f) in parsed.failures {
            let outcome = if known.contains(&f.id) {
                summary.duplicates += 1;
                FailureOutcome::Duplicate
            } else {
                let record = FailureRecord {
                    id: f.id.clone(),
                    signature: f.signature.clone(),
                    recorded_at: now,
                    at: f.at,
                    command: f.command,
                    message: f.message,
                    exit_code: f.exit_code,
                    paths: f.paths,
                    task: f.task,
                    source,
                };
                store
                    .append_runtime_log(LOG, &serde_json::to_string(&record).unwrap_or_default())?;
                known.insert(f.id.clone());
                by_signature
                    .entry(f.signature.id.clone())
                    .or_default()
                    .push(record);
                summary.recorded += 1;
                FailureOutcome::Recorded
            };
            if !touched.iter().any(|s| s.id == f.signature.id) {
                touched.push(f.signature.clone());
            }
            failures.push(RecordedFailure {
                line,
                id: f.id,
                occurrences: by_signature.get(&f.signature.id).map_or(0, Vec::len),
                signature: f.signature,
                outcome,
            });
        }
        let mut redactions = Vec::new();
        let mut gotchas = Vec::new();
        for sig in touched {
            if let Some(records) = by_signature.get(&sig.id)
                && records.len() >= THRESHOLD
            {
                let (proposal, found) = self.propose_gotcha(&lock, &sig, records, now, actor)?;
                if proposal.outcome == GotchaOutcome::Proposed {
                    summary.gotchas_proposed += 1;
                    redactions.extend(found);
                }
                gotchas.push(proposal);
            }
        }
        drop(lock);
        Ok(FailureReport {
            detector,
            failures,
            errors: parsed.errors,
            gotchas,
            summary,
            redactions,
            warnings,
        })
    }

    /// Writes the candidate gotcha of `sig` unless a record with its id
    /// exists. Returns what happened and the secrets redacted.
    fn propose_gotcha(
        &self,
        lock: &crate::store::WriteLock,
        sig: &Signature,
        records: &[FailureRecord],
        now: Timestamp,
        actor: Option<&str>,
    ) -> Result<(GotchaProposal, Vec<Redaction>), Error> {
        let store = self.store();
        let mut occurrences: Vec<&FailureRecord> = records.iter().collect();
        occurrences.sort_by(|a, b| a.when().cmp(&b.when()).then_with(|| a.id.cmp(&b.id)));
        let mut memory = gotcha(sig, &occurrences, now, actor);
        let path = store
            .layout()
            .relative(&store.layout().memory_file(MemoryType::Gotcha, &memory.id));
        let mut found = Vec::new();
        let outcome = if store.record_exists(&memory.id) {
            GotchaOutcome::AlreadyPresent
        } else {
            found = secrets::redact_memory(&mut memory);
            memory.normalize();
            match store.create_memory_if_absent(lock, &memory)? {
                Some(_) => GotchaOutcome::Proposed,
                None => GotchaOutcome::AlreadyPresent,
            }
        };
        let proposal = GotchaProposal {
            signature: sig.id.clone(),
            id: memory.id,
            path,
            occurrences: records.len(),
            outcome,
        };
        Ok((proposal, found))
    }
}

/// Parses the failure log; unreadable lines become warnings.
fn read_log(text: Option<&str>, warnings: &mut Vec<String>) -> Vec<FailureRecord> {
    let mut log = Vec::new();
    for (i, line) in text.unwrap_or_default().lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        match serde_json::from_str(line) {
            Ok(r) => log.push(r),
            Err(e) => warnings.push(format!(
                ".brain/runtime/{LOG} line {}: ignored, not a valid entry ({e})",
                i + 1
            )),
        }
    }
    log
}

#[cfg(test)]
mod tests;
