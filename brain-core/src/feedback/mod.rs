//! Routing feedback: what agents report about the skills and workflows a
//! routing plan gave them, turned into proposals for people to review.
//!
//! `brain routing-feedback` reads [`FeedbackEvent`]s (a JSON array or NDJSON,
//! see [`input`]). Every event names one target: `skill` for the `skill_*`
//! events, `workflow` for the `workflow_*` events, and `skill` or `workflow`
//! (the skill when both are given) for `routing_conflict_escalated`. Its
//! `strength` (`0..=1`, default 1) has three levels ([`Level`]): below
//! [`WEAK_BELOW`] an event is *weak* and changes nothing; from
//! [`STRONG_FROM`] it is *strong*.
//!
//! | event | effect (normal or strong) |
//! | --- | --- |
//! | `skill_rejected_by_user`, `workflow_too_heavy`, `workflow_failure` | negative: a **candidate** `avoid` preference |
//! | `skill_ignored` | a reminder; when strong, also negative |
//! | `routing_conflict_escalated` | a reminder |
//! | `skill_followed`, `workflow_success` | positive: `+`[`CONFIDENCE_STEP`] on every `prefer` (active or candidate) for the target, never above [`CONFIDENCE_CAP`]; never a new preference |
//!
//! A negative signal for a target that an **active** `prefer` preference
//! names never creates a contradicting `avoid`: a strong one marks that
//! preference's review `pending` (routing stops using it until a person
//! decides), a normal one changes nothing and says so. An existing active
//! `avoid`/`require_review` makes a new candidate pointless, a queued
//! candidate `avoid` for the target gains the event as evidence, and a
//! dismissed one is not proposed again. The candidate's id depends only on
//! the target, so two events that ask for the same `avoid` make one file.
//!
//! Idempotency: every applied event is appended to the ledger
//! `runtime/feedback-ledger.jsonl` under its id (the explicit `id` field, or
//! 16 hex digits of a blake3 hash over the event's canonical content), and an
//! event whose id is there is reported as a `duplicate` and changes nothing.
//! Preference files also carry the event id in their evidence, so a run cut
//! short between a write and its ledger line does not apply the event twice.
//! Reminders go to `runtime/reinforce-queue.jsonl` until acknowledged.
//!
//! Everything here is pure except the [`crate::Brain`] methods in `apply`.

mod apply;
pub mod input;

pub use apply::{Parsed, avoid_id, parse};

use jiff::Timestamp;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::model::{MemoryId, PreferenceKind, ReviewState, Status, TargetType};
use crate::secrets::Redaction;

/// Below this strength an event is weak and changes nothing.
pub const WEAK_BELOW: f64 = 0.35;
/// From this strength an event is strong.
pub const STRONG_FROM: f64 = 0.7;
/// How much a positive signal raises a `prefer` preference's confidence.
pub const CONFIDENCE_STEP: f64 = 0.05;
/// The highest confidence a positive signal raises a preference to.
pub const CONFIDENCE_CAP: f64 = 0.95;
/// The ledger of applied events under `runtime/`.
pub const LEDGER: &str = "feedback-ledger.jsonl";
/// The reminder queue under `runtime/`.
pub const QUEUE: &str = "reinforce-queue.jsonl";
/// Longest `notes`, in characters.
pub const MAX_NOTES_CHARS: usize = 2000;
/// Longest `task`, in characters.
pub const MAX_TASK_CHARS: usize = 500;
/// Longest skill or workflow name, in characters.
pub const MAX_NAME_CHARS: usize = 200;
/// Longest explicit event `id`.
pub const MAX_ID_CHARS: usize = 128;

/// What an agent reports about a routing plan.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum EventType {
    /// The agent ran the skill the plan asked for (positive).
    SkillFollowed,
    /// The agent did not run it (a reminder; negative when strong).
    SkillIgnored,
    /// The user refused the skill (negative).
    SkillRejectedByUser,
    /// The workflow cost more than the task was worth (negative).
    WorkflowTooHeavy,
    /// The workflow worked (positive).
    WorkflowSuccess,
    /// The workflow failed (negative).
    WorkflowFailure,
    /// The agent could not resolve a routing conflict and asked a person (a reminder).
    RoutingConflictEscalated,
}

impl EventType {
    /// Returns the word used in events and reports.
    pub fn as_str(self) -> &'static str {
        match self {
            EventType::SkillFollowed => "skill_followed",
            EventType::SkillIgnored => "skill_ignored",
            EventType::SkillRejectedByUser => "skill_rejected_by_user",
            EventType::WorkflowTooHeavy => "workflow_too_heavy",
            EventType::WorkflowSuccess => "workflow_success",
            EventType::WorkflowFailure => "workflow_failure",
            EventType::RoutingConflictEscalated => "routing_conflict_escalated",
        }
    }

    /// Returns the field that names the event's target.
    fn required_target(self) -> Option<TargetType> {
        match self {
            EventType::SkillFollowed | EventType::SkillIgnored | EventType::SkillRejectedByUser => {
                Some(TargetType::Skill)
            }
            EventType::WorkflowTooHeavy
            | EventType::WorkflowSuccess
            | EventType::WorkflowFailure => Some(TargetType::Workflow),
            EventType::RoutingConflictEscalated => None,
        }
    }

    /// Whether the event argues against its target at `level`.
    pub fn is_negative(self, level: Level) -> bool {
        match self {
            EventType::SkillRejectedByUser
            | EventType::WorkflowTooHeavy
            | EventType::WorkflowFailure => level != Level::Weak,
            EventType::SkillIgnored => level == Level::Strong,
            _ => false,
        }
    }

    /// Whether the event argues for its target.
    pub fn is_positive(self) -> bool {
        matches!(self, EventType::SkillFollowed | EventType::WorkflowSuccess)
    }

    /// Whether the event queues a reminder.
    pub fn queues_reminder(self) -> bool {
        matches!(
            self,
            EventType::SkillIgnored | EventType::RoutingConflictEscalated
        )
    }
}

/// One routing-feedback event, as an agent sends it (one line of NDJSON or
/// one element of a JSON array). Unknown keys are refused.
///
/// `skill` is required for `skill_followed`, `skill_ignored` and
/// `skill_rejected_by_user`; `workflow` for `workflow_too_heavy`,
/// `workflow_success` and `workflow_failure`; at least one of them for
/// `routing_conflict_escalated`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(extend("allOf" = [
    {
        "if": { "properties": { "type": { "enum": ["skill_followed", "skill_ignored", "skill_rejected_by_user"] } } },
        "then": { "required": ["skill"] }
    },
    {
        "if": { "properties": { "type": { "enum": ["workflow_too_heavy", "workflow_success", "workflow_failure"] } } },
        "then": { "required": ["workflow"] }
    },
    {
        "if": { "properties": { "type": { "const": "routing_conflict_escalated" } } },
        "then": { "anyOf": [{ "required": ["skill"] }, { "required": ["workflow"] }] }
    }
]))]
pub struct FeedbackEvent {
    /// What happened.
    #[serde(rename = "type")]
    pub kind: EventType,
    /// The skill (names are compared as routing compares them: `Playwright
    /// E2E` is `playwright-e2e`).
    #[serde(default)]
    #[schemars(length(min = 1, max = MAX_NAME_CHARS))]
    pub skill: Option<String>,
    /// The workflow.
    #[serde(default)]
    #[schemars(length(min = 1, max = MAX_NAME_CHARS))]
    pub workflow: Option<String>,
    /// The `plan_id` of the routing plan the event is about (16 hex digits).
    #[serde(default)]
    #[schemars(pattern(r"^[0-9a-f]{16}$"))]
    pub plan_id: Option<String>,
    /// Free text: what happened and why.
    #[serde(default)]
    #[schemars(length(max = MAX_NOTES_CHARS))]
    pub notes: Option<String>,
    /// How sure the sender is, `0..=1` (default 1): below 0.35 weak (no
    /// effect), from 0.7 strong.
    #[serde(default)]
    #[schemars(range(min = 0.0, max = 1.0))]
    pub strength: Option<f64>,
    /// When it happened (RFC 3339).
    #[serde(default)]
    pub at: Option<Timestamp>,
    /// The task the plan was for.
    #[serde(default)]
    #[schemars(length(max = MAX_TASK_CHARS))]
    pub task: Option<String>,
    /// A stable id chosen by the sender; without it the id is a hash of the
    /// event's content. Re-sending an id changes nothing.
    #[serde(default)]
    #[schemars(pattern(r"^[A-Za-z0-9._:-]{1,128}$"))]
    pub id: Option<String>,
}

/// How strong an event is.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum Level {
    /// Below [`WEAK_BELOW`]: recorded, no effect.
    Weak,
    /// From [`WEAK_BELOW`] to below [`STRONG_FROM`].
    Normal,
    /// From [`STRONG_FROM`].
    Strong,
}

impl Level {
    /// The level of `strength`.
    pub fn of(strength: f64) -> Level {
        if strength < WEAK_BELOW {
            Level::Weak
        } else if strength < STRONG_FROM {
            Level::Normal
        } else {
            Level::Strong
        }
    }
}

/// A validated event: names normalised, texts redacted, the id computed.
#[derive(Clone, Debug, PartialEq)]
pub struct Event {
    /// The explicit id, or the content hash.
    pub id: String,
    /// What happened.
    pub kind: EventType,
    /// What the event is about.
    pub target_type: TargetType,
    /// The normalised name of the target.
    pub target: String,
    /// The normalised skill, when given.
    pub skill: Option<String>,
    /// The normalised workflow, when given.
    pub workflow: Option<String>,
    /// The plan.
    pub plan_id: Option<String>,
    /// Notes, trimmed, secrets redacted.
    pub notes: Option<String>,
    /// Strength, default 1.
    pub strength: f64,
    /// When it happened, if said.
    pub at: Option<Timestamp>,
    /// The task, white space collapsed, secrets redacted.
    pub task: Option<String>,
}

impl Event {
    /// The event's level.
    pub fn level(&self) -> Level {
        Level::of(self.strength)
    }

    /// Validates and normalises an event as sent. Returns the field and what
    /// is wrong with it.
    pub fn from_input(raw: FeedbackEvent) -> Result<Event, (&'static str, String)> {
        let skill = name("skill", raw.skill.as_deref())?;
        let workflow = name("workflow", raw.workflow.as_deref())?;
        let (target_type, target) = match raw.kind.required_target() {
            Some(TargetType::Workflow) => match &workflow {
                Some(w) => (TargetType::Workflow, w.clone()),
                None => {
                    return Err((
                        "workflow",
                        format!("`{}` needs a `workflow`", raw.kind.as_str()),
                    ));
                }
            },
            Some(_) => match &skill {
                Some(s) => (TargetType::Skill, s.clone()),
                None => {
                    return Err(("skill", format!("`{}` needs a `skill`", raw.kind.as_str())));
                }
            },
            None => match (&skill, &workflow) {
                (Some(s), _) => (TargetType::Skill, s.clone()),
                (None, Some(w)) => (TargetType::Workflow, w.clone()),
                (None, None) => {
                    return Err((
                        "skill",
                        format!("`{}` needs a `skill` or a `workflow`", raw.kind.as_str()),
                    ));
                }
            },
        };
        if let Some(p) = &raw.plan_id
            && !(p.len() == 16
                && p.bytes()
                    .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b)))
        {
            return Err((
                "plan_id",
                format!(
                    "`{p}` is not a plan id (16 lowercase hex digits, as `brain route` prints)"
                ),
            ));
        }
        let strength = raw.strength.unwrap_or(1.0);
        if !(0.0..=1.0).contains(&strength) {
            return Err((
                "strength",
                format!("{strength} is outside the range 0 to 1"),
            ));
        }
        let notes = text("notes", raw.notes.as_deref(), MAX_NOTES_CHARS, false)?;
        let task = text("task", raw.task.as_deref(), MAX_TASK_CHARS, true)?;
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
                        "`{id}` is not an event id (1 to {MAX_ID_CHARS} letters, digits, `.`, `_`, `:` or `-`)"
                    ),
                ));
            }
        }
        let mut event = Event {
            id: String::new(),
            kind: raw.kind,
            target_type,
            target,
            skill,
            workflow,
            plan_id: raw.plan_id,
            notes,
            strength,
            at: raw.at,
            task,
        };
        event.id = raw.id.unwrap_or_else(|| event.content_hash());
        Ok(event)
    }

    /// 16 hex digits of a blake3 hash over the canonical JSON of the
    /// normalised event (every field but the id, absent ones as `null`, the
    /// strength defaulted), so that spelling a name differently or leaving
    /// out `"strength": 1` gives the same id.
    fn content_hash(&self) -> String {
        let canonical = serde_json::json!({
            "v": 1,
            "type": self.kind.as_str(),
            "skill": self.skill,
            "workflow": self.workflow,
            "plan_id": self.plan_id,
            "notes": self.notes,
            "strength": self.strength,
            "at": self.at.map(|t| t.to_string()),
            "task": self.task,
        });
        let hash = blake3::hash(canonical.to_string().as_bytes());
        hash.to_hex()[..16].to_owned()
    }
}

fn name(field: &'static str, raw: Option<&str>) -> Result<Option<String>, (&'static str, String)> {
    let Some(raw) = raw else { return Ok(None) };
    if raw.contains(['\n', '\r']) {
        return Err((field, "must be one line".to_owned()));
    }
    if raw.chars().count() > MAX_NAME_CHARS {
        return Err((field, format!("is longer than {MAX_NAME_CHARS} characters")));
    }
    match crate::route::normalize_skill(raw) {
        Some(n) => Ok(Some(n)),
        None => Err((field, "is empty".to_owned())),
    }
}

fn text(
    field: &'static str,
    raw: Option<&str>,
    max: usize,
    one_line: bool,
) -> Result<Option<String>, (&'static str, String)> {
    let Some(raw) = raw else { return Ok(None) };
    if raw.chars().count() > max {
        return Err((field, format!("is longer than {max} characters")));
    }
    let trimmed = if one_line {
        raw.split_whitespace().collect::<Vec<_>>().join(" ")
    } else {
        crate::model::normalize_text(raw).trim_end().to_owned()
    };
    let (clean, _) = crate::secrets::redact(&trimmed);
    Ok((!clean.is_empty()).then_some(clean))
}

/// What kind of problem a refused line has.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum LineErrorKind {
    /// Not JSON (or an empty array element).
    InvalidJson,
    /// An event `type` this build does not know.
    UnknownType,
    /// JSON of the wrong shape: an unknown or missing key, a wrong type.
    InvalidField,
    /// Well-formed, but a value breaks a rule (range, format, a missing target).
    InvalidValue,
}

/// One line (or array element) that was refused; the others still count.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
pub struct LineError {
    /// 1-based line of the input.
    pub line: usize,
    /// 1-based column, when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub column: Option<usize>,
    /// What kind of problem.
    pub kind: LineErrorKind,
    /// The field, when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub field: Option<String>,
    /// What is wrong.
    pub message: String,
}

impl LineError {
    /// Converts a parse error of one item, telling unknown event types apart.
    pub(crate) fn from_item(e: input::ItemError, type_field: &str) -> LineError {
        let kind = if e.syntax {
            LineErrorKind::InvalidJson
        } else if e.field.as_deref() == Some(type_field) && e.message.starts_with("unknown variant")
        {
            LineErrorKind::UnknownType
        } else {
            LineErrorKind::InvalidField
        };
        LineError {
            line: e.line,
            column: e.column,
            kind,
            field: e.field,
            message: e.message,
        }
    }
}

/// What one event came to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// A new candidate `avoid` preference was written.
    AvoidProposed,
    /// A queued candidate `avoid` for the target gained the event as evidence.
    EvidenceAdded,
    /// An active `avoid` or `require_review` already covers the target.
    AlreadyAvoided,
    /// An `avoid` for the target was dismissed in review; not proposed again.
    PreviouslyDismissed,
    /// A strong negative signal marked the target's active `prefer` for review.
    PreferPendingReview,
    /// The target's active `prefer` already waits for review; the event was added as evidence.
    AlreadyPendingReview,
    /// A negative signal that is not strong met an active `prefer`: nothing changed.
    ConflictNotStrong,
    /// The confidence of the target's `prefer` preferences was raised.
    ConfidenceRaised,
    /// The target's `prefer` preferences are at the cap already.
    ConfidenceAtCap,
    /// A positive signal, but no `prefer` preference names the target.
    NoPreferPreference,
    /// Only a reminder was queued.
    ReminderQueued,
    /// Weaker than [`WEAK_BELOW`]: recorded, nothing changed.
    TooWeak,
    /// Applied before (the ledger has its id): nothing changed.
    Duplicate,
}

/// What happened to one preference file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ChangeAction {
    /// Written as a new file.
    Created,
    /// The event was added to its evidence.
    EvidenceAdded,
    /// Its confidence was raised (and the event added to its evidence).
    ConfidenceRaised,
    /// Its review was set to `pending` (and the event added to its evidence).
    MarkedPendingReview,
    /// Not written: it decided the outcome as it is.
    Unchanged,
}

/// A preference an event wrote or that decided its outcome.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
pub struct PreferenceChange {
    /// Its id.
    pub id: MemoryId,
    /// File, relative to the root.
    pub path: String,
    /// Prefer, avoid or require review.
    pub preference: PreferenceKind,
    /// Its status after the event.
    pub status: Status,
    /// What happened to it.
    pub action: ChangeAction,
    /// Confidence before the event.
    pub confidence_before: f64,
    /// Confidence after the event.
    pub confidence_after: f64,
}

/// The outcome of one valid event.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
pub struct EventOutcome {
    /// 1-based line of the input where the event starts.
    pub line: usize,
    /// The event id.
    pub id: String,
    /// The event type.
    #[serde(rename = "type")]
    pub kind: EventType,
    /// What the event is about.
    pub target_type: TargetType,
    /// The normalised target name.
    pub target: String,
    /// The strength, `0..=1`.
    pub strength: f64,
    /// Weak, normal or strong.
    pub level: Level,
    /// The plan it is about.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub plan_id: Option<String>,
    /// What it came to.
    pub outcome: Outcome,
    /// The preferences it wrote, or that decided the outcome, by path.
    pub preferences: Vec<PreferenceChange>,
    /// The id of the reminder it queued.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reminder: Option<String>,
    /// For a duplicate: when the event was first applied.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub first_applied_at: Option<Timestamp>,
}

/// Counts over one run.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, JsonSchema)]
pub struct FeedbackSummary {
    /// Valid events read.
    pub events: usize,
    /// Lines refused.
    pub errors: usize,
    /// Events applied now (not duplicates).
    pub applied: usize,
    /// Events applied before.
    pub duplicates: usize,
    /// New candidate `avoid` preferences.
    pub avoid_proposed: usize,
    /// Candidate `avoid` preferences that gained evidence.
    pub evidence_added: usize,
    /// `prefer` preferences whose confidence was raised.
    pub confidence_raised: usize,
    /// Active `prefer` preferences marked for review.
    pub pending_review: usize,
    /// Reminders queued.
    pub reminders_queued: usize,
}

/// What `brain routing-feedback` did.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
pub struct FeedbackReport {
    /// One outcome per valid event, in input order.
    pub events: Vec<EventOutcome>,
    /// One entry per refused line, in input order.
    pub errors: Vec<LineError>,
    /// Counts.
    pub summary: FeedbackSummary,
    /// Secrets removed from preference files before writing.
    pub redactions: Vec<Redaction>,
    /// Non-fatal trouble: skipped preference files, unreadable ledger lines.
    pub warnings: Vec<String>,
}

/// One applied event in `runtime/feedback-ledger.jsonl`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct LedgerEntry {
    /// The event id.
    pub id: String,
    /// When it was applied.
    pub applied_at: Timestamp,
    /// The event type.
    #[serde(rename = "type")]
    pub kind: EventType,
    /// What it was about.
    pub target_type: TargetType,
    /// The normalised target.
    pub target: String,
    /// The skill named, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub skill: Option<String>,
    /// The workflow named, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub workflow: Option<String>,
    /// The strength.
    pub strength: f64,
    /// The plan.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub plan_id: Option<String>,
    /// When it happened, as sent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at: Option<Timestamp>,
    /// The task.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub task: Option<String>,
    /// The notes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub notes: Option<String>,
    /// What it came to.
    pub outcome: Outcome,
    /// The preferences it wrote or that decided it.
    #[serde(default)]
    pub preferences: Vec<MemoryId>,
    /// Whether it queued a reminder.
    #[serde(default)]
    pub reminder: bool,
}

/// A reminder in `runtime/reinforce-queue.jsonl`, waiting to be acknowledged.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Reminder {
    /// Its id: the id of the event that queued it.
    pub id: String,
    /// The event type (`skill_ignored` or `routing_conflict_escalated`).
    #[serde(rename = "type")]
    pub kind: EventType,
    /// The skill.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub skill: Option<String>,
    /// The workflow.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub workflow: Option<String>,
    /// The plan.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub plan_id: Option<String>,
    /// The task.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub task: Option<String>,
    /// The notes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub notes: Option<String>,
    /// The event's strength.
    pub strength: f64,
    /// When it was queued.
    pub queued_at: Timestamp,
}

/// A preference as `--explain` shows it.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
pub struct PreferenceStanding {
    /// Its id.
    pub id: MemoryId,
    /// File, relative to the root.
    pub path: String,
    /// Skill, workflow or task class.
    pub target_type: TargetType,
    /// Prefer, avoid or require review.
    pub preference: PreferenceKind,
    /// Status.
    pub status: Status,
    /// Confidence.
    pub confidence: f64,
    /// Review state, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub review_state: Option<ReviewState>,
    /// Whether routing uses it now (active, not superseded, not waiting for
    /// review, in its validity window).
    pub in_force: bool,
}

/// What `brain routing-feedback --explain NAME` shows.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
pub struct ExplainReport {
    /// The normalised name asked about.
    pub target: String,
    /// The preferences that name it, by path.
    pub preferences: Vec<PreferenceStanding>,
    /// The applied events that name it (as target, skill or workflow), oldest first.
    pub events: Vec<LedgerEntry>,
    /// Its reminders still queued, oldest first.
    pub reminders: Vec<Reminder>,
    /// Non-fatal trouble: unreadable ledger or queue lines, skipped files.
    pub warnings: Vec<String>,
}

/// What `brain reinforce` did.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
pub struct ReinforceReport {
    /// Reminders acknowledged (removed from the queue) by this run.
    pub acknowledged: Vec<Reminder>,
    /// Reminders still queued, oldest first.
    pub pending: Vec<Reminder>,
    /// Unreadable queue lines (dropped when the queue is rewritten).
    pub warnings: Vec<String>,
}

#[cfg(test)]
mod tests;
