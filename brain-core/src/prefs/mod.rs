//! `brain preference …`: routing preferences added, listed, reviewed,
//! retired and captured from plain language.
//!
//! A preference is one file under `.brain/preferences/` (see
//! [`crate::model::Preference`]); the routing engine ([`crate::route`]) reads
//! the ones in force. This module holds the report types, the rules that
//! keep the directory free of duplicates and contradictions, and the
//! [`Brain`](crate::Brain) methods in [`facade`].
//!
//! **Scope.** Two preferences are about the same thing when they have the
//! same target type, the same target (after [`normalize_skill`]), the same
//! task hints (compared as routing compares them: whole stemmed words) and
//! the same path hints. Within one scope:
//!
//! * the same kind again is **already present**: nothing is written, the
//!   existing record is reported (the reference system wrote a new file each
//!   time the same feedback was sent);
//! * the same kind, dismissed before, is reported and not proposed again;
//! * a different kind than an **active** preference is a **conflict**. An
//!   active one is refused; a candidate is written and names the conflict,
//!   and approving it is refused until `supersede NEW OLD` retires the old
//!   one.
//!
//! [`phrase`] turns sentences into preferences for `brain preference
//! capture`; every captured preference is a candidate.

pub mod facade;
pub mod phrase;

use std::collections::BTreeSet;

use schemars::JsonSchema;
use serde::Serialize;

use crate::matching;
use crate::model::{
    Confidence, Evidence, MemoryId, Preference, PreferenceKind, Source, Status, TargetType,
};
use crate::report::{LookupError, StatusChange};
use crate::route::normalize_skill;
use crate::secrets::Redaction;
use crate::store::{self, Catalog, FileProblem, Loaded};

pub use phrase::NoPreference;

/// Errors of the preference commands.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The store failed.
    #[error(transparent)]
    Store(#[from] store::Error),
    /// Nothing has that id or prefix.
    #[error("no preference has the id or id prefix `{query}`")]
    NotFound {
        /// The id or prefix given.
        query: String,
        /// The most similar existing id, when one is close.
        suggestion: Option<String>,
    },
    /// Several ids start with the prefix.
    #[error("`{query}` is ambiguous: it matches {} preference ids ({})", matches.len(), matches.join(", "))]
    Ambiguous {
        /// The prefix given.
        query: String,
        /// Every matching id, sorted.
        matches: Vec<String>,
    },
    /// The status change is not allowed.
    #[error("cannot {action} preference `{id}`: {message}")]
    Transition {
        /// The command.
        action: &'static str,
        /// The preference.
        id: String,
        /// Why.
        message: String,
    },
    /// The input for a new preference is not acceptable.
    #[error("invalid {field}: {message}")]
    InvalidInput {
        /// The argument or field.
        field: &'static str,
        /// What is wrong.
        message: String,
    },
    /// An active preference sets another policy for the same scope.
    #[error(
        "`{kind} {target}` conflicts with active preference {}: same target and hints, another policy",
        existing.iter().map(|(id, k)| format!("`{id}` ({})", k.as_str())).collect::<Vec<_>>().join(", ")
    )]
    Conflict {
        /// The new policy.
        kind: &'static str,
        /// The target.
        target: String,
        /// The active preferences it contradicts, with their policy.
        existing: Vec<(MemoryId, PreferenceKind)>,
        /// The record being added or approved, when it has an id already.
        id: Option<MemoryId>,
    },
    /// A preference file cannot be read, so duplicates and conflicts cannot
    /// be ruled out.
    #[error(
        "cannot check for equal or conflicting preferences: {}",
        describe(problem)
    )]
    Unreadable {
        /// The first unreadable preference file.
        problem: FileProblem,
    },
}

fn describe(p: &FileProblem) -> String {
    let at = match (p.line, p.column) {
        (Some(l), Some(c)) => format!(" line {l} column {c}"),
        (Some(l), None) => format!(" line {l}"),
        _ => String::new(),
    };
    format!("`{}`{at}: {}", p.path, p.message)
}

impl From<LookupError> for Error {
    fn from(e: LookupError) -> Self {
        match e {
            LookupError::NotFound { query, suggestion } => Error::NotFound { query, suggestion },
            LookupError::Ambiguous { query, matches } => Error::Ambiguous { query, matches },
        }
    }
}

/// A preference to add with `brain preference add`.
#[derive(Clone, Debug)]
pub struct NewPreference {
    /// Skill, workflow or task class.
    pub target_type: TargetType,
    /// The name; stored normalised ([`normalize_skill`]).
    pub target: String,
    /// Prefer, avoid or require review.
    pub kind: PreferenceKind,
    /// Task phrases limiting where it applies.
    pub task_hints: Vec<String>,
    /// Path globs limiting where it applies.
    pub path_hints: Vec<String>,
    /// Why.
    pub reason: String,
    /// `0..=1`; default 1.
    pub confidence: Option<f64>,
    /// `candidate` or `active`; default from the workflow's capture mode.
    pub status: Option<Status>,
    /// Where it came from.
    pub source: Source,
    /// Evidence.
    pub evidence: Vec<Evidence>,
}

/// Filters of `brain preference list`; empty lists match everything.
#[derive(Clone, Debug, Default)]
pub struct PreferenceFilter {
    /// Keep these statuses.
    pub statuses: Vec<Status>,
    /// Keep preferences about these targets (compared normalised).
    pub targets: Vec<String>,
}

impl PreferenceFilter {
    /// Returns whether `p` passes the filter.
    pub fn matches(&self, p: &Preference) -> bool {
        let target = normalize_skill(&p.target);
        (self.statuses.is_empty() || self.statuses.contains(&p.status))
            && (self.targets.is_empty()
                || self
                    .targets
                    .iter()
                    .any(|t| normalize_skill(t).is_some() && normalize_skill(t) == target))
    }
}

/// One line of `brain preference list`.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
pub struct PreferenceEntry {
    /// Id.
    pub id: MemoryId,
    /// File, relative to the root.
    pub path: String,
    /// Status.
    pub status: Status,
    /// Whether routing uses it now (active, not superseded, not pending
    /// review, inside its validity window).
    pub in_force: bool,
    /// Skill, workflow or task class.
    pub target_type: TargetType,
    /// The target.
    pub target: String,
    /// Prefer, avoid or require review.
    pub preference: PreferenceKind,
    /// Strength.
    pub confidence: Confidence,
    /// Task hints.
    pub task_hints: Vec<String>,
    /// Path hints.
    pub path_hints: Vec<String>,
    /// Why.
    pub reason: String,
}

/// `brain preference list`.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
pub struct PreferenceListReport {
    /// Matching preferences, by target, then policy, then id.
    pub preferences: Vec<PreferenceEntry>,
    /// Preference files that could not be read and were skipped.
    pub skipped: Vec<FileProblem>,
}

/// `brain preference show`.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
pub struct PreferenceShowReport {
    /// File, relative to the root.
    pub path: String,
    /// Whether routing uses it now.
    pub in_force: bool,
    /// The whole preference.
    pub preference: Preference,
}

/// What adding a preference did.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum AddOutcome {
    /// A new file was written.
    Created,
    /// A preference with the same scope and policy exists; nothing written.
    AlreadyPresent,
    /// The same preference was dismissed before; nothing written.
    DismissedBefore,
}

/// The preference an add or capture wrote or found.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
pub struct PreferenceResult {
    /// What happened.
    pub outcome: AddOutcome,
    /// The new preference's id, or the existing one's.
    pub id: MemoryId,
    /// Its file, relative to the root.
    pub path: String,
    /// Its status.
    pub status: Status,
    /// Skill, workflow or task class.
    pub target_type: TargetType,
    /// The target, normalised.
    pub target: String,
    /// Prefer, avoid or require review.
    pub preference: PreferenceKind,
    /// Task hints.
    pub task_hints: Vec<String>,
    /// Path hints.
    pub path_hints: Vec<String>,
    /// Active preferences with the same scope and another policy; approving
    /// this one needs `supersede` first.
    pub conflicts_with: Vec<MemoryId>,
    /// Why the existing preference was dismissed (`dismissed_before`).
    pub dismissed_reason: Option<String>,
}

/// `brain preference add`.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
pub struct PreferenceAddReport {
    /// The preference.
    #[serde(flatten)]
    pub result: PreferenceResult,
    /// Secrets replaced by `[REDACTED:<kind>]` before the file was written.
    pub redactions: Vec<Redaction>,
}

/// Where a captured preference's target type came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum TargetTypeSource {
    /// A noun in the sentence ("skill", "workflow", "task class").
    Text,
    /// Existing preferences about the same target all have this type.
    Store,
    /// Nothing said it: `skill`.
    Default,
}

/// One sentence that stated a preference.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
pub struct CapturedPreference {
    /// Line of the input where the sentence starts, from 1.
    pub line: usize,
    /// The sentence (secrets redacted); it is the preference's reason.
    pub sentence: String,
    /// Where the target type came from.
    pub target_type_source: TargetTypeSource,
    /// "Prefer A over B": B. Recorded in the reason only; no avoid
    /// preference is written for it.
    pub alternative: Option<String>,
    /// The preference.
    #[serde(flatten)]
    pub result: PreferenceResult,
}

/// One sentence that stated no preference.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
pub struct IgnoredSentence {
    /// Line of the input, from 1.
    pub line: usize,
    /// The sentence (secrets redacted).
    pub sentence: String,
    /// Why it states none.
    pub reason: NoPreference,
    /// The same, for people.
    pub message: String,
}

/// `brain preference capture`.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
pub struct PreferenceCaptureReport {
    /// Sentences that stated a preference, in input order.
    pub captured: Vec<CapturedPreference>,
    /// Sentences that did not.
    pub ignored: Vec<IgnoredSentence>,
    /// Secrets replaced by `[REDACTED:<kind>]` in the files written.
    pub redactions: Vec<Redaction>,
}

/// `brain preference approve`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
pub struct PreferenceApproveReport {
    /// The preference, now active with review `approved`.
    pub approved: StatusChange,
}

/// `brain preference dismiss`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
pub struct PreferenceDismissReport {
    /// The candidate, now dismissed.
    pub dismissed: StatusChange,
    /// The reason recorded in its review.
    pub reason: Option<String>,
}

/// `brain preference supersede`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
pub struct PreferenceSupersedeReport {
    /// The replacement: active, listing the old one in `supersedes`.
    pub new: StatusChange,
    /// The replaced preference: `superseded`, with `superseded_by` set.
    pub old: StatusChange,
}

/// What makes two preferences about the same thing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Scope {
    target_type: TargetType,
    target: String,
    task_hints: BTreeSet<BTreeSet<String>>,
    path_hints: BTreeSet<String>,
}

impl Scope {
    pub(crate) fn of(p: &Preference) -> Scope {
        Scope {
            target_type: p.target_type,
            target: normalize_skill(&p.target).unwrap_or_default(),
            task_hints: p
                .task_hints
                .iter()
                .map(|h| {
                    let words = matching::tokens(h);
                    if words.is_empty() {
                        BTreeSet::from([h.trim().to_lowercase()])
                    } else {
                        words
                    }
                })
                .collect(),
            path_hints: p
                .path_hints
                .iter()
                .map(|h| {
                    let mut p = h.trim().replace('\\', "/");
                    while let Some(rest) = p.strip_prefix("./") {
                        p = rest.to_owned();
                    }
                    while p.len() > 1 && p.ends_with('/') {
                        p.pop();
                    }
                    p
                })
                .filter(|p| !p.is_empty())
                .collect(),
        }
    }
}

/// How a new preference relates to the stored ones.
#[derive(Debug, Default)]
pub(crate) struct Relation<'a> {
    /// The same scope and policy, not dismissed or superseded.
    pub(crate) present: Option<&'a Loaded<Preference>>,
    /// The same scope and policy, dismissed.
    pub(crate) dismissed: Option<&'a Loaded<Preference>>,
    /// Active, not superseded, same scope, another policy.
    pub(crate) conflicts: Vec<&'a Loaded<Preference>>,
}

/// Relates `new` to `existing` (skipping a record with `new`'s own id).
pub(crate) fn relate<'a>(existing: &'a [Loaded<Preference>], new: &Preference) -> Relation<'a> {
    let scope = Scope::of(new);
    let mut rel = Relation::default();
    for l in existing {
        let p = &l.record;
        if p.id == new.id || Scope::of(p) != scope {
            continue;
        }
        if p.preference == new.preference {
            match p.status {
                Status::Dismissed => {
                    rel.dismissed.get_or_insert(l);
                }
                Status::Superseded | Status::Done => {}
                _ if p.lineage.superseded_by.is_some() => {}
                _ => {
                    rel.present.get_or_insert(l);
                }
            }
        } else if p.status == Status::Active && p.lineage.superseded_by.is_none() {
            rel.conflicts.push(l);
        }
    }
    rel
}

/// Finds a preference by exact id, else by unique id prefix.
pub fn find_preference<'a>(
    catalog: &'a Catalog,
    query: &str,
) -> Result<&'a Loaded<Preference>, Error> {
    let i = crate::report::find_id(catalog.preferences.iter().map(|l| &l.record.id), query)?;
    Ok(&catalog.preferences[i])
}

/// The problems of files under `preferences/`, by path.
pub fn preference_problems(catalog: &Catalog) -> Vec<FileProblem> {
    let dir = format!("{}/preferences/", store::BRAIN_DIR);
    catalog
        .problems
        .iter()
        .filter(|p| p.path.starts_with(&dir))
        .cloned()
        .collect()
}

/// Refuses to go on when a preference file cannot be read: it might be the
/// duplicate or the conflict.
pub(crate) fn require_readable(catalog: &Catalog) -> Result<(), Error> {
    match preference_problems(catalog).into_iter().next() {
        Some(problem) => Err(Error::Unreadable { problem }),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Provenance, SchemaVersion};

    fn pref(id: &str, kind: PreferenceKind, status: Status, tasks: &[&str]) -> Loaded<Preference> {
        Loaded {
            path: format!(".brain/preferences/{id}.yaml"),
            record: Preference {
                schema_version: SchemaVersion::CURRENT,
                id: MemoryId::new(id).unwrap(),
                status,
                target_type: TargetType::Skill,
                target: "Legacy Router".into(),
                preference: kind,
                confidence: Confidence::FULL,
                reason: String::new(),
                task_hints: tasks.iter().map(|s| (*s).to_owned()).collect(),
                path_hints: vec!["./src/api/".into()],
                validity: crate::model::Validity::default(),
                lineage: crate::model::Lineage::default(),
                provenance: Provenance {
                    source: Source::Manual,
                    captured_at: "2026-01-01T00:00:00Z".parse().unwrap(),
                    proposed_by: None,
                    evidence: Vec::new(),
                },
                review: crate::model::Review::default(),
            },
        }
    }

    #[test]
    fn scope_compares_names_hints_and_paths_as_routing_does() {
        use PreferenceKind::{Avoid, Prefer};
        let stored = [
            pref("a-1", Avoid, Status::Active, &["Payments"]),
            pref("d-1", Prefer, Status::Dismissed, &["payment"]),
            pref("p-1", Prefer, Status::Candidate, &["refunds"]),
            pref("x-1", Prefer, Status::Active, &["payment"]),
        ];
        let mut new = pref("n-1", Avoid, Status::Candidate, &["payments"]).record;
        new.target = "legacy_router".into();
        new.path_hints = vec!["src/api".into()];
        let rel = relate(&stored, &new);
        assert_eq!(rel.present.map(|l| l.record.id.as_str()), Some("a-1"));
        assert_eq!(
            rel.conflicts
                .iter()
                .map(|l| l.record.id.as_str())
                .collect::<Vec<_>>(),
            ["x-1"]
        );
        new.preference = Prefer;
        let rel = relate(&stored, &new);
        assert!(rel.present.map(|l| l.record.id.as_str()) == Some("x-1"));
        assert_eq!(rel.dismissed.map(|l| l.record.id.as_str()), Some("d-1"));
        assert_eq!(rel.conflicts.len(), 1, "the active avoid conflicts");
        // Other hints: another scope entirely.
        new.task_hints = vec!["invoices".into()];
        let rel = relate(&stored, &new);
        assert!(rel.present.is_none() && rel.dismissed.is_none() && rel.conflicts.is_empty());
    }
}
