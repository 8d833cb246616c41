//! Report types returned to the CLI, and the pure functions that build them
//! from a [`Catalog`]. Their `Serialize` shape is the `--format json` contract,
//! described in `schemas/` and snapshot-tested; paths in them are always
//! relative to the repository root.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::Serialize;

use crate::config::{Workflow, WorkflowSettings};
use crate::model::{Importance, Memory, MemoryId, MemoryType, PreferenceKind, Risk, Status};
use crate::secrets::Redaction;
use crate::store::{Catalog, FileProblem, Loaded};

/// `brain init`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
pub struct InitReport {
    /// What happened.
    pub outcome: InitOutcomeName,
    /// The config file, relative to the root.
    pub config_path: String,
    /// The preset in force.
    pub workflow: Workflow,
    /// Its settings.
    pub settings: WorkflowSettings,
}

/// What `brain init` did.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum InitOutcomeName {
    /// A new store was created.
    Created,
    /// It existed with the same settings.
    AlreadyInitialized,
    /// Its config was replaced (`--force`).
    Overwritten,
}

/// `brain add`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
pub struct AddReport {
    /// The new memory's id.
    pub id: MemoryId,
    /// Its file, relative to the root.
    pub path: String,
    /// Its status (`candidate` unless the workflow captures directly).
    pub status: Status,
    /// Secrets replaced by `[REDACTED:<kind>]` before the file was written.
    pub redactions: Vec<Redaction>,
}

/// One line of `brain list`.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
pub struct ListEntry {
    /// Id.
    pub id: MemoryId,
    /// Type.
    #[serde(rename = "type")]
    pub kind: MemoryType,
    /// Status.
    pub status: Status,
    /// Importance.
    pub importance: Importance,
    /// Risk.
    pub risk: Risk,
    /// Title.
    pub title: String,
    /// Summary.
    pub summary: String,
    /// Tags.
    pub tags: Vec<String>,
    /// File, relative to the root.
    pub path: String,
}

/// `brain list`.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
pub struct ListReport {
    /// Matching memories, by type then id.
    pub memories: Vec<ListEntry>,
    /// Files that could not be read and were skipped.
    pub skipped: Vec<FileProblem>,
}

/// Filters of `brain list`; empty lists match everything.
#[derive(Clone, Debug, Default)]
pub struct ListFilter {
    /// Keep these types.
    pub types: Vec<MemoryType>,
    /// Keep these statuses.
    pub statuses: Vec<Status>,
    /// Keep memories carrying all of these tags.
    pub tags: Vec<String>,
}

impl ListFilter {
    /// Returns whether `m` passes the filter.
    pub fn matches(&self, m: &Memory) -> bool {
        (self.types.is_empty() || self.types.contains(&m.kind))
            && (self.statuses.is_empty() || self.statuses.contains(&m.status))
            && self
                .tags
                .iter()
                .all(|t| m.tags.iter().any(|mt| mt.eq_ignore_ascii_case(t)))
    }
}

/// Builds the `brain list` report.
///
/// Takes the catalog by value: the fields a listing does not show are freed as
/// it goes, which keeps the peak memory of listing a large store low.
pub fn list(catalog: Catalog, filter: &ListFilter) -> ListReport {
    let mut memories: Vec<ListEntry> = catalog
        .memories
        .into_iter()
        .filter(|l| filter.matches(&l.record))
        .map(|l| {
            let m = l.record;
            ListEntry {
                id: m.id,
                kind: m.kind,
                status: m.status,
                importance: m.importance,
                risk: m.risk,
                title: m.title,
                summary: m.summary,
                tags: m.tags,
                path: l.path,
            }
        })
        .collect();
    memories.sort_by(|a, b| (a.kind, &a.id).cmp(&(b.kind, &b.id)));
    ListReport {
        memories,
        skipped: catalog.problems,
    }
}

/// `brain show`.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
pub struct ShowReport {
    /// File, relative to the root.
    pub path: String,
    /// The whole memory.
    pub memory: Memory,
}

/// Why an id did not select exactly one memory.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum LookupError {
    /// Nothing has that id or prefix.
    #[error("no memory has the id or id prefix `{query}`")]
    NotFound {
        /// The id or prefix given.
        query: String,
        /// The most similar existing id, when one is close.
        suggestion: Option<String>,
    },
    /// Several ids start with the prefix.
    #[error("`{query}` is ambiguous: it matches {} ids ({})", matches.len(), matches.join(", "))]
    Ambiguous {
        /// The prefix given.
        query: String,
        /// Every matching id, sorted.
        matches: Vec<String>,
    },
}

/// Returns the name serde gives a unit enum value (`ambiguous_overlap`), for
/// messages that should use the same words as the JSON.
pub fn serde_name<T: Serialize>(value: &T) -> String {
    serde_json::to_value(value)
        .ok()
        .and_then(|v| v.as_str().map(str::to_owned))
        .unwrap_or_default()
}

/// Finds a memory by exact id, else by unique id prefix.
pub fn find_memory<'a>(
    catalog: &'a Catalog,
    query: &str,
) -> Result<&'a Loaded<Memory>, LookupError> {
    find_id(catalog.memories.iter().map(|l| &l.record.id), query).map(|i| &catalog.memories[i])
}

/// Position of the id equal to `query`, else of the only id starting with
/// it, among `ids`.
pub fn find_id<'a>(
    ids: impl Iterator<Item = &'a MemoryId> + Clone,
    query: &str,
) -> Result<usize, LookupError> {
    let query = query.trim();
    if let Some(exact) = ids.clone().position(|id| id.as_str() == query) {
        return Ok(exact);
    }
    let mut matches: Vec<(usize, &MemoryId)> = ids
        .clone()
        .enumerate()
        .filter(|(_, id)| !query.is_empty() && id.as_str().starts_with(query))
        .collect();
    match matches.len() {
        0 => Err(LookupError::NotFound {
            query: query.to_owned(),
            suggestion: crate::model::closest(query, ids.map(MemoryId::as_str)),
        }),
        1 => Ok(matches.remove(0).0),
        _ => {
            let mut found: Vec<String> = matches.iter().map(|(_, id)| id.to_string()).collect();
            found.sort();
            Err(LookupError::Ambiguous {
                query: query.to_owned(),
                matches: found,
            })
        }
    }
}

/// `brain stats`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
pub struct StatsReport {
    /// Number of memories.
    pub memories: usize,
    /// Memories per type (every type present, zeros included).
    pub by_type: BTreeMap<MemoryType, usize>,
    /// Memories per status.
    pub by_status: BTreeMap<Status, usize>,
    /// Memories per importance.
    pub by_importance: BTreeMap<Importance, usize>,
    /// Number of preferences.
    pub preferences: usize,
    /// Preferences per policy.
    pub preferences_by_kind: BTreeMap<PreferenceKind, usize>,
    /// Preferences per status.
    pub preferences_by_status: BTreeMap<Status, usize>,
    /// Files that could not be read.
    pub invalid_files: usize,
}

/// Builds the `brain stats` report.
pub fn stats(catalog: &Catalog) -> StatsReport {
    let mut by_type: BTreeMap<MemoryType, usize> =
        MemoryType::ALL.iter().map(|t| (*t, 0)).collect();
    let mut by_status: BTreeMap<Status, usize> = Status::ALL.iter().map(|s| (*s, 0)).collect();
    let mut by_importance: BTreeMap<Importance, usize> = [
        Importance::Low,
        Importance::Medium,
        Importance::High,
        Importance::Critical,
    ]
    .into_iter()
    .map(|i| (i, 0))
    .collect();
    for l in &catalog.memories {
        *by_type.entry(l.record.kind).or_default() += 1;
        *by_status.entry(l.record.status).or_default() += 1;
        *by_importance.entry(l.record.importance).or_default() += 1;
    }
    let mut preferences_by_kind: BTreeMap<PreferenceKind, usize> = [
        PreferenceKind::Prefer,
        PreferenceKind::Avoid,
        PreferenceKind::RequireReview,
    ]
    .into_iter()
    .map(|k| (k, 0))
    .collect();
    let mut preferences_by_status: BTreeMap<Status, usize> = BTreeMap::new();
    for l in &catalog.preferences {
        *preferences_by_kind.entry(l.record.preference).or_default() += 1;
        *preferences_by_status.entry(l.record.status).or_default() += 1;
    }
    StatsReport {
        memories: catalog.memories.len(),
        by_type,
        by_status,
        by_importance,
        preferences: catalog.preferences.len(),
        preferences_by_kind,
        preferences_by_status,
        invalid_files: catalog.problems.len(),
    }
}

/// `brain normalize`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
pub struct NormalizeReport {
    /// Whether files were only checked (`--check`).
    pub check: bool,
    /// Record files read.
    pub files_checked: usize,
    /// Files not in canonical form (rewritten unless `check`).
    pub changed: Vec<String>,
    /// Unified diffs from each file to its canonical form, when asked for.
    pub diffs: Vec<FileDiff>,
    /// Files that could not be parsed and were left alone.
    pub skipped: Vec<FileProblem>,
}

/// A memory whose status a command changed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
pub struct StatusChange {
    /// Id.
    pub id: MemoryId,
    /// File, relative to the root.
    pub path: String,
    /// Status before.
    pub from: Status,
    /// Status after.
    pub to: Status,
    /// Lineage version after.
    pub version: u32,
}

/// `brain supersede`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
pub struct SupersedeReport {
    /// The replacement; it now lists the old memory in `supersedes`.
    pub new: StatusChange,
    /// The replaced memory; now `superseded`, with `superseded_by` set.
    pub old: StatusChange,
}

/// `brain dismiss`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
pub struct DismissReport {
    /// The candidates dismissed, by id.
    pub dismissed: Vec<StatusChange>,
    /// The reason recorded in each one's review.
    pub reason: Option<String>,
}

/// The change canonical form makes to one file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
pub struct FileDiff {
    /// File, relative to the root.
    pub path: String,
    /// Unified diff, file as it is (`---`) to canonical form (`+++`).
    pub diff: String,
}

/// The document `--format json` prints on stdout when a command fails.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
pub struct ErrorReport {
    /// The error.
    pub error: ErrorBody,
}

/// The body of an [`ErrorReport`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
pub struct ErrorBody {
    /// What failed.
    pub message: String,
    /// Underlying causes, outermost first.
    pub causes: Vec<String>,
    /// Suggestions for fixing it.
    pub hints: Vec<String>,
    /// The process exit status.
    pub exit_code: u8,
}
