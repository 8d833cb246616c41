//! The memory record: one YAML file under `.brain/<plural-type>/<id>.yaml`.
//!
//! Field order here is the key order on disk. Optional fields carry
//! `#[serde(default)]` so that the canonical writer can leave out every value
//! equal to its default (see `crate::yaml`).

use jiff::Timestamp;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::id::MemoryId;
use super::kind::{Importance, InvocationMode, MemoryType, Risk};
use super::sections::{Confidence, Lineage, Provenance, Review, SchemaVersion, Validity};
use super::status::Status;
use super::{Problem, normalize_list, normalize_path_list, normalize_text};

/// Where a memory applies.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Scope {
    /// Glob patterns relative to the repository root (`src/billing/**`).
    #[serde(default)]
    pub paths: Vec<String>,
    /// Module or component names (`billing`).
    #[serde(default)]
    pub modules: Vec<String>,
}

/// Which skills or workflows an agent should run when the memory matches.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Routing {
    /// Skills worth running.
    #[serde(default)]
    pub recommended_skills: Vec<String>,
    /// Skills that must run.
    #[serde(default)]
    pub required_skills: Vec<String>,
    /// Skills that must not run.
    #[serde(default)]
    pub suppressed_skills: Vec<String>,
    /// Globs of changed paths that trigger the routing.
    #[serde(default)]
    pub trigger_paths: Vec<String>,
    /// Task phrases that trigger the routing.
    #[serde(default)]
    pub trigger_tasks: Vec<String>,
    /// How strongly the skills are invoked.
    #[serde(default)]
    pub invocation_mode: InvocationMode,
}

/// One piece of durable repository knowledge.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Memory {
    /// File-format version; always 1.
    pub schema_version: SchemaVersion,
    /// Stable id; equal to the file stem.
    pub id: MemoryId,
    /// Kind of knowledge; equal to the directory the file is in.
    #[serde(rename = "type")]
    pub kind: MemoryType,
    /// Lifecycle status.
    pub status: Status,
    /// One-line title.
    pub title: String,
    /// The one or two sentences an agent reads first.
    pub summary: String,
    /// Rationale, examples and how to apply it.
    #[serde(default)]
    pub detail: String,
    /// How much it matters.
    #[serde(default)]
    pub importance: Importance,
    /// How costly getting it wrong is.
    #[serde(default)]
    pub risk: Risk,
    /// How sure we are that it holds, `0..=1`.
    #[serde(default)]
    pub confidence: Confidence,
    /// Free-form lowercase labels.
    #[serde(default)]
    pub tags: Vec<String>,
    /// Paths and modules it applies to; empty means the whole repository.
    #[serde(default)]
    pub scope: Scope,
    /// Skills to run, prefer or avoid when it matches.
    #[serde(default)]
    pub routing: Routing,
    /// When it holds.
    #[serde(default)]
    pub validity: Validity,
    /// Versions and relations to other memories.
    #[serde(default)]
    pub lineage: Lineage,
    /// Where it came from.
    pub provenance: Provenance,
    /// Review record.
    #[serde(default)]
    pub review: Review,
    /// Notes for humans (YAML comments are not preserved; write them here).
    #[serde(default)]
    pub notes: String,
}

/// The eligibility rule itself, on the fields it reads, for records held in
/// another shape (the retrieval index's documents).
pub fn eligible(
    status: Status,
    superseded: bool,
    pending_review: bool,
    validity: &Validity,
    now: jiff::Timestamp,
) -> bool {
    status == Status::Active && !superseded && !pending_review && validity.holds_at(now)
}

impl Memory {
    /// Whether the memory may be shown to an agent at `now`: `active`, not
    /// replaced, not waiting for review, inside its validity window and not
    /// expired. Inject, default search and routing all use this one rule.
    pub fn eligible(&self, now: jiff::Timestamp) -> bool {
        eligible(
            self.status,
            self.lineage.superseded_by.is_some(),
            self.review.state == Some(super::sections::ReviewState::Pending),
            &self.validity,
            now,
        )
    }

    /// Creates a memory with every optional field at its default.
    pub fn new(
        id: MemoryId,
        kind: MemoryType,
        status: Status,
        title: impl Into<String>,
        summary: impl Into<String>,
        provenance: Provenance,
    ) -> Memory {
        Memory {
            schema_version: SchemaVersion::CURRENT,
            id,
            kind,
            status,
            title: title.into(),
            summary: summary.into(),
            detail: String::new(),
            importance: Importance::default(),
            risk: Risk::default(),
            confidence: Confidence::default(),
            tags: Vec::new(),
            scope: Scope::default(),
            routing: Routing::default(),
            validity: Validity::default(),
            lineage: Lineage::default(),
            provenance,
            review: Review::default(),
            notes: String::new(),
        }
    }

    /// Brings every field into canonical form: trimmed one-line texts, multi-line
    /// texts ending in one newline, lists sorted and de-duplicated, tags lowercased.
    pub fn normalize(&mut self) {
        self.title = self.title.trim().to_owned();
        self.summary = self.summary.trim().to_owned();
        self.detail = normalize_text(&self.detail);
        self.notes = normalize_text(&self.notes);
        for tag in &mut self.tags {
            *tag = tag.trim().to_lowercase();
        }
        normalize_list(&mut self.tags);
        normalize_path_list(&mut self.scope.paths);
        normalize_list(&mut self.scope.modules);
        let r = &mut self.routing;
        for list in [
            &mut r.recommended_skills,
            &mut r.required_skills,
            &mut r.suppressed_skills,
            &mut r.trigger_tasks,
        ] {
            normalize_list(list);
        }
        normalize_path_list(&mut r.trigger_paths);
        self.lineage.normalize();
        self.provenance.normalize();
    }

    /// Returns the problems a single memory can have on its own: statuses that
    /// contradict lineage or review, empty texts, impossible time windows.
    ///
    /// Problems that need the rest of the store (dangling ids) are found by `lint`.
    pub fn problems(&self) -> Vec<Problem> {
        let mut out = Vec::new();
        let mut push = |field: &'static str, message: String| {
            out.push(Problem { field, message });
        };
        if self.title.trim().is_empty() {
            push("title", "title is empty".into());
        }
        if self.title.contains('\n') {
            push("title", "title must be one line".into());
        } else if let Some((c, col)) = super::control_char(&self.title, false) {
            push(
                "title",
                format!(
                    "title holds the control character U+{:04X} at column {col}",
                    u32::from(c)
                ),
            );
        }
        if let Some((c, col)) = super::control_char(&self.summary, true) {
            push(
                "summary",
                format!(
                    "summary holds the control character U+{:04X} at column {col}",
                    u32::from(c)
                ),
            );
        }
        if self.summary.trim().is_empty() {
            push("summary", "summary is empty".into());
        }
        lifecycle_problems(
            self.status,
            &self.id,
            &self.lineage,
            &self.review,
            false,
            &mut push,
        );
        if self.status == Status::Done && !self.kind.can_be_done() {
            push(
                "status",
                format!(
                    "status `done` is only for goals and working notes, not a {}",
                    self.kind
                ),
            );
        }
        validity_problems(&self.validity, &mut push);
        out
    }

    /// Returns whether the memory may be shown to an agent at `now`.
    pub fn is_in_force(&self, now: Timestamp) -> bool {
        self.status == Status::Active
            && self.lineage.superseded_by.is_none()
            && self.validity.holds_at(now)
    }
}

/// Checks shared by memories and preferences: status against lineage and
/// review. `active_may_await_review` lets an active record be pending review
/// again (a preference that routing feedback contradicted: it decides
/// nothing until a human looks at it).
pub(crate) fn lifecycle_problems(
    status: Status,
    id: &MemoryId,
    lineage: &Lineage,
    review: &Review,
    active_may_await_review: bool,
    push: &mut impl FnMut(&'static str, String),
) {
    use super::sections::ReviewState;
    match (status, &lineage.superseded_by) {
        (Status::Superseded, None) => push(
            "status",
            "status `superseded` needs `lineage.superseded_by` naming the replacement".into(),
        ),
        (s, Some(by)) if s != Status::Superseded => push(
            "lineage.superseded_by",
            format!("`superseded_by: {by}` is set but the status is `{s}`, not `superseded`"),
        ),
        _ => {}
    }
    if lineage.superseded_by.as_ref() == Some(id) || lineage.supersedes.contains(id) {
        push("lineage", "a record cannot supersede itself".into());
    }
    if lineage.version == 0 {
        push("lineage.version", "version starts at 1".into());
    }
    match (status, review.state) {
        (Status::Candidate, Some(state)) if state != ReviewState::Pending => push(
            "review.state",
            format!(
                "a candidate must be pending review, not `{}`",
                state.as_str()
            ),
        ),
        (Status::Dismissed, Some(state)) if state != ReviewState::Rejected => push(
            "review.state",
            format!(
                "a dismissed record must be `rejected` in review, not `{}`",
                state.as_str()
            ),
        ),
        (Status::Active, Some(ReviewState::Pending)) if active_may_await_review => {}
        (s, Some(ReviewState::Pending)) if s != Status::Candidate => push(
            "review.state",
            format!("review is `pending` but the status is `{s}`, not `candidate`"),
        ),
        _ => {}
    }
}

/// Checks of a validity window on its own.
pub(crate) fn validity_problems(v: &Validity, push: &mut impl FnMut(&'static str, String)) {
    if let (Some(from), Some(until)) = (v.valid_from, v.valid_until)
        && until < from
    {
        push(
            "validity.valid_until",
            format!("valid_until {until} is before valid_from {from}"),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::sections::{ReviewState, Source};

    fn memory(kind: MemoryType, status: Status) -> Memory {
        Memory::new(
            MemoryId::new("m-00000001").unwrap(),
            kind,
            status,
            "Title",
            "Summary.",
            Provenance {
                source: Source::Manual,
                captured_at: "2026-01-01T00:00:00Z".parse().unwrap(),
                proposed_by: None,
                evidence: Vec::new(),
            },
        )
    }

    fn fields(m: &Memory) -> Vec<&'static str> {
        m.problems().into_iter().map(|p| p.field).collect()
    }

    #[test]
    fn lifecycle_invariants_table() {
        type Edit = fn(&mut Memory, &MemoryId);
        let other = MemoryId::new("n-00000002").unwrap();
        let cases: &[(&str, MemoryType, Status, Edit, &[&str])] = &[
            (
                "plain active",
                MemoryType::Decision,
                Status::Active,
                |_, _| {},
                &[],
            ),
            (
                "superseded without link",
                MemoryType::Decision,
                Status::Superseded,
                |_, _| {},
                &["status"],
            ),
            (
                "superseded with link",
                MemoryType::Decision,
                Status::Superseded,
                |m, o| m.lineage.superseded_by = Some(o.clone()),
                &[],
            ),
            (
                "active with superseded_by",
                MemoryType::Gotcha,
                Status::Active,
                |m, o| m.lineage.superseded_by = Some(o.clone()),
                &["lineage.superseded_by"],
            ),
            (
                "self supersession",
                MemoryType::Gotcha,
                Status::Active,
                |m, _| m.lineage.supersedes.push(m.id.clone()),
                &["lineage"],
            ),
            (
                "done decision",
                MemoryType::Decision,
                Status::Done,
                |_, _| {},
                &["status"],
            ),
            ("done goal", MemoryType::Goal, Status::Done, |_, _| {}, &[]),
            (
                "approved candidate",
                MemoryType::Pattern,
                Status::Candidate,
                |m, _| m.review.state = Some(ReviewState::Approved),
                &["review.state"],
            ),
            (
                "pending active",
                MemoryType::Pattern,
                Status::Active,
                |m, _| m.review.state = Some(ReviewState::Pending),
                &["review.state"],
            ),
            (
                "dismissed approved",
                MemoryType::Pattern,
                Status::Dismissed,
                |m, _| m.review.state = Some(ReviewState::Approved),
                &["review.state"],
            ),
            (
                "empty title",
                MemoryType::Convention,
                Status::Active,
                |m, _| m.title = " ".into(),
                &["title"],
            ),
            (
                "inverted window",
                MemoryType::Working,
                Status::Active,
                |m, _| {
                    m.validity.valid_from = Some("2026-02-01T00:00:00Z".parse().unwrap());
                    m.validity.valid_until = Some("2026-01-01T00:00:00Z".parse().unwrap());
                },
                &["validity.valid_until"],
            ),
        ];
        for (name, kind, status, edit, expected) in cases {
            let mut m = memory(*kind, *status);
            edit(&mut m, &other);
            assert_eq!(fields(&m), *expected, "{name}");
        }
    }

    #[test]
    fn normalize_sorts_dedupes_and_trims() {
        let mut m = memory(MemoryType::Decision, Status::Active);
        m.title = "  Title \n".into();
        m.tags = vec!["Zeta".into(), "alpha".into(), "zeta".into(), " ".into()];
        m.scope.paths = vec!["src\\b/**".into(), "src/a/".into(), "src/a".into()];
        m.detail = "line one\nline two\n\n\n".into();
        m.normalize();
        assert_eq!(m.title, "Title");
        assert_eq!(m.tags, ["alpha", "zeta"]);
        assert_eq!(m.scope.paths, ["src/a", "src/b/**"]);
        assert_eq!(m.detail, "line one\nline two\n");
    }

    #[test]
    fn in_force_needs_active_unsuperseded_and_valid() {
        let now: Timestamp = "2026-06-01T00:00:00Z".parse().unwrap();
        let mut m = memory(MemoryType::Decision, Status::Active);
        assert!(m.is_in_force(now));
        m.validity.expires = Some("2026-05-31".parse().unwrap());
        assert!(!m.is_in_force(now));
        let c = memory(MemoryType::Decision, Status::Candidate);
        assert!(!c.is_in_force(now));
    }
}
