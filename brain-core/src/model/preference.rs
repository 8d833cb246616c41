//! The routing preference record: `.brain/preferences/<id>.yaml`.
//!
//! A preference is team policy about a skill, workflow or class of task:
//! prefer it, avoid it, or require a human to review its use.

use jiff::Timestamp;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::id::MemoryId;
use super::kind::word_enum_from_str;
use super::memory::{lifecycle_problems, validity_problems};
use super::sections::{Confidence, Lineage, Provenance, Review, SchemaVersion, Validity};
use super::status::Status;
use super::{Problem, normalize_list, normalize_path_list, normalize_text};

/// What a preference is about.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum TargetType {
    /// An agent skill, e.g. `playwright-e2e`.
    Skill,
    /// A multi-step workflow, e.g. `full-test-suite`.
    Workflow,
    /// A class of task, e.g. `schema-change`.
    TaskClass,
}

impl TargetType {
    /// Returns the word used in files and on the command line.
    pub fn as_str(self) -> &'static str {
        match self {
            TargetType::Skill => "skill",
            TargetType::Workflow => "workflow",
            TargetType::TaskClass => "task_class",
        }
    }
}

word_enum_from_str!(
    TargetType,
    "target type",
    [
        TargetType::Skill,
        TargetType::Workflow,
        TargetType::TaskClass
    ]
);

/// The policy a preference sets.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum PreferenceKind {
    /// Use the target first.
    Prefer,
    /// Do not use the target.
    Avoid,
    /// Use it only after a human agrees.
    RequireReview,
}

impl PreferenceKind {
    /// Returns the word used in files and on the command line.
    pub fn as_str(self) -> &'static str {
        match self {
            PreferenceKind::Prefer => "prefer",
            PreferenceKind::Avoid => "avoid",
            PreferenceKind::RequireReview => "require_review",
        }
    }
}

word_enum_from_str!(
    PreferenceKind,
    "preference",
    [
        PreferenceKind::Prefer,
        PreferenceKind::Avoid,
        PreferenceKind::RequireReview
    ]
);

/// A routing preference.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Preference {
    /// File-format version; always 1.
    pub schema_version: SchemaVersion,
    /// Stable id; equal to the file stem.
    pub id: MemoryId,
    /// Lifecycle status (`done` is not used for preferences).
    pub status: Status,
    /// What the preference is about.
    pub target_type: TargetType,
    /// The skill, workflow or task class name.
    pub target: String,
    /// Prefer, avoid or require review.
    pub preference: PreferenceKind,
    /// Strength, `0..=1`.
    #[serde(default)]
    pub confidence: Confidence,
    /// Why the team wants this.
    #[serde(default)]
    pub reason: String,
    /// Task phrases that limit where it applies; empty means everywhere.
    #[serde(default)]
    pub task_hints: Vec<String>,
    /// Path globs that limit where it applies; empty means everywhere.
    #[serde(default)]
    pub path_hints: Vec<String>,
    /// When it holds.
    #[serde(default)]
    pub validity: Validity,
    /// Versions and relations.
    #[serde(default)]
    pub lineage: Lineage,
    /// Where it came from.
    pub provenance: Provenance,
    /// Review record.
    #[serde(default)]
    pub review: Review,
}

impl Preference {
    /// Brings every field into canonical form (see [`super::Memory::normalize`]).
    pub fn normalize(&mut self) {
        self.target = self.target.trim().to_owned();
        self.reason = normalize_text(&self.reason);
        normalize_list(&mut self.task_hints);
        normalize_path_list(&mut self.path_hints);
        self.lineage.normalize();
        self.provenance.normalize();
    }

    /// Returns the problems the preference has on its own.
    pub fn problems(&self) -> Vec<Problem> {
        let mut out = Vec::new();
        let mut push = |field: &'static str, message: String| {
            out.push(Problem { field, message });
        };
        if self.target.trim().is_empty() {
            push("target", "target is empty".into());
        }
        if self.status == Status::Done {
            push("status", "status `done` is not used for preferences".into());
        }
        lifecycle_problems(
            self.status,
            &self.id,
            &self.lineage,
            &self.review,
            true,
            &mut push,
        );
        validity_problems(&self.validity, &mut push);
        out
    }

    /// Returns whether the preference is in force at `now`.
    pub fn is_in_force(&self, now: Timestamp) -> bool {
        self.status == Status::Active
            && self.lineage.superseded_by.is_none()
            && self.validity.holds_at(now)
    }
}
