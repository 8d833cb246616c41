//! Conversation turns: whether an agent needs context now
//! (`brain conversation-start`), and what changed in the memory since the
//! last context load (`brain diff`).
//!
//! # `conversation-start`: the decision
//!
//! [`decide`] compares the request with the last context load recorded in
//! `.brain/runtime/activity.jsonl` (see [`crate::activity`]). A *load* is
//! every entry of the log except a `conversation-start` entry that decided
//! `skip` (a skip loads nothing). The rules are checked in this order; the
//! first that fires decides, and every rule checked is in the trace:
//!
//! 1. `force`: `--force` was given → [`Decision::Start`].
//! 2. `always`: the mode is [`RefreshMode::Always`] → `start`.
//! 3. `no_previous_load`: the log holds no load → `start`.
//! 4. `stale`: the last load is older than the mode's window →
//!    `start`. The window is [`TASK_CHANGE_WINDOW`] (4 h) for
//!    [`RefreshMode::TaskChange`] and [`SMART_WINDOW`] (24 h) for
//!    [`RefreshMode::Smart`].
//! 5. `task_changed`: the Jaccard similarity of the two tasks' normalised
//!    word sets ([`task_words`]: lowercased, split on anything that is not a
//!    letter or digit, short stop words dropped) is below [`SAME_TASK`]
//!    (0.5) → [`Decision::Inject`]. Two missing tasks are the same task; a
//!    task against none is a change.
//! 6. `paths_changed`: a path is asked for that the last load did not have
//!    (paths only dropped need no new context) → `inject`.
//! 7. `modules_changed`: the same for modules → `inject`.
//! 8. `memories_changed` (smart mode only): memories were added, promoted,
//!    changed, superseded or expired since the last load, by the rules of
//!    `diff` below, not counting candidates and dismissed memories (they are
//!    never injected) → `inject`.
//! 9. `unchanged`: nothing above fired → [`Decision::Skip`].
//!
//! `start` brings the full bundle (the `summary` layer), `inject` a compact
//! refresh (the `index` layer); both go through [`crate::inject::select`].
//! Every run appends one entry with `command: "conversation-start"` and the
//! decision to the activity log (git-ignored); a skip records no memory ids.
//!
//! # `diff`: what changed since
//!
//! `since` is the time given, else the time of the latest activity entry of
//! any command; with neither, every memory counts as added. Each memory is
//! classified once, by the first of these that holds (`T > since` means
//! after `since`):
//!
//! * **added**: `provenance.captured_at > since`.
//! * **promoted**: `review.decided_at > since` and the status is `active`.
//! * **superseded**: the status is `superseded` and either its successor
//!   (`lineage.superseded_by`) was captured or decided after `since`, or the
//!   record's own file changed after `since` (see below).
//! * **expired**: `validity.expires` (end of the day for a date) or
//!   `validity.valid_until` lies in `(since, now]`.
//! * **changed**: `validity.observed_at` lies in `(since, now]`, or a merge
//!   note in `detail` (`Merged from … merged <time>):`, written by `approve`)
//!   has a time after `since`, or `review.decided_at > since` with any other
//!   status (dismissed, stale, …), or — because a record carries no
//!   modification time — its file changed after `since` according to git:
//!   in a commit reachable from `HEAD` with a committer time after `since`,
//!   or as an uncommitted change whose file was modified after `since`
//!   ([`crate::store::git::changed_since`]). Outside a git repository only
//!   the record fields count.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use jiff::{SignedDuration, Timestamp};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::activity::{self, Entry};
use crate::inject::{self, EmbeddingUse, InjectReport, Layer, PathSource};
use crate::model::{Memory, MemoryId, MemoryType, Status};
use crate::store::{Catalog, Loaded};

/// In `task-change` mode, a load older than this is followed by `start`.
pub const TASK_CHANGE_WINDOW: SignedDuration = SignedDuration::from_hours(4);
/// In `smart` mode, a load older than this is followed by `start`.
pub const SMART_WINDOW: SignedDuration = SignedDuration::from_hours(24);
/// Tasks whose word sets are at least this similar (Jaccard) are one task.
pub const SAME_TASK: f64 = 0.5;
/// The activity log's `command` for this module's entries.
pub const COMMAND: &str = "conversation-start";

/// When to bring context again.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum RefreshMode {
    /// Every turn starts with the full bundle.
    Always,
    /// Full bundle after 4 h without a load; a refresh when the task, paths
    /// or modules change.
    TaskChange,
    /// Like `task-change`, plus a refresh when memories changed since the
    /// last load, and a full bundle only after 24 h.
    #[default]
    Smart,
}

/// What the agent gets this turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Decision {
    /// The full bundle (`summary` layer).
    Start,
    /// A compact refresh (`index` layer).
    Inject,
    /// Nothing: the last load still holds.
    Skip,
}

/// A rule of [`decide`], in the order they are checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Rule {
    /// `--force`.
    Force,
    /// The mode is `always`.
    Always,
    /// No load in the log.
    NoPreviousLoad,
    /// The last load is older than the mode's window.
    Stale,
    /// The task is another one.
    TaskChanged,
    /// New paths.
    PathsChanged,
    /// New modules.
    ModulesChanged,
    /// Memories changed since the last load (smart mode).
    MemoriesChanged,
    /// Nothing changed.
    Unchanged,
}

/// One rule checked.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
pub struct TraceStep {
    /// The rule.
    pub rule: Rule,
    /// Whether it fired (and so decided).
    pub fired: bool,
    /// What was compared.
    pub detail: String,
}

/// Decides what a conversation turn gets; see the module documentation for
/// the rules. `last` is the last context load, `changes_since_last` the
/// number of relevant memory changes since it.
#[allow(
    clippy::too_many_arguments,
    reason = "each input is one thing the rules compare"
)]
pub fn decide(
    last: Option<&Entry>,
    now: Timestamp,
    task: Option<&str>,
    paths: &[String],
    modules: &[String],
    mode: RefreshMode,
    force: bool,
    changes_since_last: usize,
) -> (Decision, Vec<TraceStep>) {
    let mut trace = Vec::new();
    let mut step = |rule, fired, detail: String| {
        trace.push(TraceStep {
            rule,
            fired,
            detail,
        });
        fired
    };
    if step(
        Rule::Force,
        force,
        if force { "--force given" } else { "not forced" }.to_owned(),
    ) {
        return (Decision::Start, trace);
    }
    let always = mode == RefreshMode::Always;
    if step(Rule::Always, always, format!("mode {}", mode_word(mode))) {
        return (Decision::Start, trace);
    }
    let Some(last) = last else {
        step(
            Rule::NoPreviousLoad,
            true,
            "no context load in the activity log".to_owned(),
        );
        return (Decision::Start, trace);
    };
    step(
        Rule::NoPreviousLoad,
        false,
        format!("last load at {} by {}", last.at, last.command),
    );
    let window = if mode == RefreshMode::Smart {
        SMART_WINDOW
    } else {
        TASK_CHANGE_WINDOW
    };
    let age = now.duration_since(last.at).max(SignedDuration::ZERO);
    let stale = age > window;
    if step(
        Rule::Stale,
        stale,
        format!("{} ago, window {}", human(age), human(window)),
    ) {
        return (Decision::Start, trace);
    }
    // The log holds the task redacted; compare like with like.
    let task = task.map(|t| crate::secrets::redact(t).0);
    let similarity = task_similarity(task.as_deref(), last.task.as_deref());
    let changed = similarity < SAME_TASK;
    if step(
        Rule::TaskChanged,
        changed,
        format!(
            "similarity {similarity:.2} {} {SAME_TASK:.2}",
            if changed { "<" } else { ">=" }
        ),
    ) {
        return (Decision::Inject, trace);
    }
    for (rule, now_list, last_list, what) in [
        (Rule::PathsChanged, paths, &last.paths, "path"),
        (Rule::ModulesChanged, modules, &last.modules, "module"),
    ] {
        let new = new_items(now_list, last_list);
        let fired = !new.is_empty();
        let detail = if fired {
            format!("new {what}s: {}", new.join(", "))
        } else {
            format!("no new {what}")
        };
        if step(rule, fired, detail) {
            return (Decision::Inject, trace);
        }
    }
    if mode == RefreshMode::Smart {
        let fired = changes_since_last > 0;
        if step(
            Rule::MemoriesChanged,
            fired,
            format!(
                "{changes_since_last} memory {} since the last load",
                if changes_since_last == 1 {
                    "change"
                } else {
                    "changes"
                }
            ),
        ) {
            return (Decision::Inject, trace);
        }
    }
    step(
        Rule::Unchanged,
        true,
        "the last load still holds".to_owned(),
    );
    (Decision::Skip, trace)
}

fn mode_word(mode: RefreshMode) -> &'static str {
    match mode {
        RefreshMode::Always => "always",
        RefreshMode::TaskChange => "task-change",
        RefreshMode::Smart => "smart",
    }
}

/// A duration as `2h 5m`, `45m` or `30s`.
fn human(d: SignedDuration) -> String {
    let secs = d.as_secs();
    let (h, m, s) = (secs / 3600, secs % 3600 / 60, secs % 60);
    match (h, m) {
        (0, 0) => format!("{s}s"),
        (0, m) => format!("{m}m"),
        (h, 0) => format!("{h}h"),
        (h, m) => format!("{h}h {m}m"),
    }
}

const STOP_WORDS: &[&str] = &[
    "a", "an", "and", "for", "in", "into", "is", "it", "of", "on", "or", "the", "to", "with",
];

/// A task's normalised words: lowercased, split on anything that is not a
/// letter or digit, without a few stop words.
pub fn task_words(task: &str) -> BTreeSet<String> {
    task.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .filter(|w| !STOP_WORDS.contains(&w.as_str()))
        .collect()
}

/// Jaccard similarity of two tasks' words; two empty tasks are the same.
#[allow(clippy::cast_precision_loss, reason = "word counts are far below 2^52")]
pub fn task_similarity(a: Option<&str>, b: Option<&str>) -> f64 {
    let (a, b) = (task_words(a.unwrap_or("")), task_words(b.unwrap_or("")));
    let union = a.union(&b).count();
    if union == 0 {
        return 1.0;
    }
    a.intersection(&b).count() as f64 / union as f64
}

fn new_items(now: &[String], last: &[String]) -> Vec<String> {
    let last: BTreeSet<&str> = last.iter().map(String::as_str).collect();
    let new: BTreeSet<&str> = now
        .iter()
        .map(String::as_str)
        .filter(|p| !last.contains(p))
        .collect();
    new.into_iter().map(str::to_owned).collect()
}

/// A log line as this module reads it: the entry and, for
/// `conversation-start` entries, the decision.
#[derive(Deserialize)]
struct Line {
    #[serde(flatten)]
    entry: Entry,
    #[serde(default)]
    decision: Option<Decision>,
}

#[derive(Serialize)]
struct Recorded<'a> {
    #[serde(flatten)]
    entry: &'a Entry,
    decision: Decision,
}

/// The activity log's entries, in log order, with their decisions.
fn parse_log(text: &str) -> Vec<(Entry, Option<Decision>)> {
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .filter_map(|l| serde_json::from_str::<Line>(l).ok())
        .map(|l| (l.entry, l.decision))
        .collect()
}

/// The last context load: the last entry that is not a skipped
/// `conversation-start`.
pub fn last_load(entries: &[(Entry, Option<Decision>)]) -> Option<&Entry> {
    entries
        .iter()
        .rev()
        .find(|(e, d)| !(e.command == COMMAND && *d == Some(Decision::Skip)))
        .map(|(e, _)| e)
}

/// A context load, as reports show it.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
pub struct LoadInfo {
    /// When.
    pub at: Timestamp,
    /// The command that loaded (`inject`, `conversation-start`, …).
    pub command: String,
    /// The task, if any.
    pub task: Option<String>,
    /// Paths.
    pub paths: Vec<String>,
    /// Modules.
    pub modules: Vec<String>,
}

impl From<&Entry> for LoadInfo {
    fn from(e: &Entry) -> Self {
        LoadInfo {
            at: e.at,
            command: e.command.clone(),
            task: e.task.clone(),
            paths: e.paths.clone(),
            modules: e.modules.clone(),
        }
    }
}

/// How a memory changed; also the order of the report.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ChangeKind {
    /// Captured after `since`.
    Added,
    /// Approved (made active) after `since`.
    Promoted,
    /// Replaced after `since`.
    Superseded,
    /// Its validity ended between `since` and now.
    Expired,
    /// Observed, merged into, decided on or edited after `since`.
    Changed,
}

/// One memory that changed.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
pub struct MemoryChange {
    /// How.
    pub change: ChangeKind,
    /// Its id.
    pub id: MemoryId,
    /// Type.
    #[serde(rename = "type")]
    pub kind: MemoryType,
    /// Its status now.
    pub status: Status,
    /// Title.
    pub title: String,
    /// Its file, relative to the repository root.
    pub path: String,
    /// When it changed, as far as known.
    pub at: Option<Timestamp>,
    /// What shows the change (`provenance.captured_at`, `git`, …).
    pub evidence: String,
}

/// Where `since` came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum SinceSource {
    /// The latest activity entry.
    LastLoad,
    /// `--since` or `--since-days`.
    Given,
    /// No earlier load: everything counts as added.
    None,
}

/// How many memories changed, by kind.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, JsonSchema)]
pub struct DiffCounts {
    /// Added.
    pub added: usize,
    /// Promoted.
    pub promoted: usize,
    /// Superseded.
    pub superseded: usize,
    /// Expired.
    pub expired: usize,
    /// Changed.
    pub changed: usize,
}

/// `brain diff`'s report.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
pub struct DiffReport {
    /// Changes after this time; `null` when there was no earlier load.
    pub since: Option<Timestamp>,
    /// Where `since` came from.
    pub since_source: SinceSource,
    /// The load `since` came from.
    pub last_load: Option<LoadInfo>,
    /// The time of the report.
    pub now: Timestamp,
    /// Counts by kind.
    pub counts: DiffCounts,
    /// Every change, by kind, then id.
    pub changes: Vec<MemoryChange>,
}

/// The latest time of a merge note (`Merged from … merged <time>):`) in a
/// memory's detail.
pub fn last_merge(detail: &str) -> Option<Timestamp> {
    detail
        .lines()
        .filter(|l| l.starts_with("Merged from `"))
        .filter_map(|l| {
            let rest = &l[l.rfind(", merged ")? + ", merged ".len()..];
            rest[..rest.find(')')?].parse::<Timestamp>().ok()
        })
        .max()
}

/// Classifies every memory changed after `since` (see the module
/// documentation). `file_changes` maps record paths (relative to the
/// repository root) to when git saw them change. Without `since` every memory
/// is added.
#[allow(clippy::implicit_hasher, reason = "file changes are a BTreeMap")]
pub fn classify(
    memories: &[Loaded<Memory>],
    since: Option<Timestamp>,
    now: Timestamp,
    file_changes: &BTreeMap<String, Timestamp>,
) -> Vec<MemoryChange> {
    let by_id: HashMap<&MemoryId, &Memory> =
        memories.iter().map(|l| (&l.record.id, &l.record)).collect();
    let mut out: Vec<MemoryChange> = memories
        .iter()
        .filter_map(|l| {
            let m = &l.record;
            let change = |change, at, evidence: &str| MemoryChange {
                change,
                id: m.id.clone(),
                kind: m.kind,
                status: m.status,
                title: m.title.clone(),
                path: l.path.clone(),
                at,
                evidence: evidence.to_owned(),
            };
            let Some(since) = since else {
                return Some(change(
                    ChangeKind::Added,
                    Some(m.provenance.captured_at),
                    "no earlier context load",
                ));
            };
            classify_one(m, &l.path, since, now, &by_id, file_changes)
                .map(|(kind, at, evidence)| change(kind, at, &evidence))
        })
        .collect();
    out.sort_by(|a, b| a.change.cmp(&b.change).then_with(|| a.id.cmp(&b.id)));
    out
}

#[allow(
    clippy::implicit_hasher,
    reason = "private; ids use the default hasher"
)]
fn classify_one(
    m: &Memory,
    path: &str,
    since: Timestamp,
    now: Timestamp,
    by_id: &HashMap<&MemoryId, &Memory>,
    file_changes: &BTreeMap<String, Timestamp>,
) -> Option<(ChangeKind, Option<Timestamp>, String)> {
    let after = |t: Timestamp| t > since;
    let window = |t: Timestamp| t > since && t <= now;
    if after(m.provenance.captured_at) {
        return Some((
            ChangeKind::Added,
            Some(m.provenance.captured_at),
            "provenance.captured_at".into(),
        ));
    }
    let decided = m.review.decided_at.filter(|t| after(*t));
    if let Some(t) = decided
        && m.status == Status::Active
    {
        return Some((ChangeKind::Promoted, Some(t), "review.decided_at".into()));
    }
    let git = file_changes.get(path).copied().filter(|t| after(*t));
    if m.status == Status::Superseded {
        let successor = m
            .lineage
            .superseded_by
            .as_ref()
            .and_then(|id| by_id.get(id))
            .and_then(|s| {
                [Some(s.provenance.captured_at), s.review.decided_at]
                    .into_iter()
                    .flatten()
                    .filter(|t| after(*t))
                    .max()
            });
        if let Some(t) = successor {
            return Some((
                ChangeKind::Superseded,
                Some(t),
                "the successor's provenance.captured_at or review.decided_at".into(),
            ));
        }
        if let Some(t) = git {
            return Some((ChangeKind::Superseded, Some(t), "git".into()));
        }
    }
    if let Some(t) = m
        .validity
        .expires
        .map(crate::model::DateOrTime::end)
        .filter(|t| window(*t))
    {
        return Some((ChangeKind::Expired, Some(t), "validity.expires".into()));
    }
    if let Some(t) = m.validity.valid_until.filter(|t| window(*t)) {
        return Some((ChangeKind::Expired, Some(t), "validity.valid_until".into()));
    }
    if let Some(t) = m.validity.observed_at.filter(|t| window(*t)) {
        return Some((ChangeKind::Changed, Some(t), "validity.observed_at".into()));
    }
    if let Some(t) = last_merge(&m.detail).filter(|t| after(*t)) {
        return Some((ChangeKind::Changed, Some(t), "merge note in detail".into()));
    }
    if let Some(t) = decided {
        return Some((
            ChangeKind::Changed,
            Some(t),
            format!("review.decided_at (status {})", m.status.as_str()),
        ));
    }
    git.map(|t| (ChangeKind::Changed, Some(t), "git".into()))
}

/// Counts by kind.
pub fn counts(changes: &[MemoryChange]) -> DiffCounts {
    let mut c = DiffCounts::default();
    for ch in changes {
        *match ch.change {
            ChangeKind::Added => &mut c.added,
            ChangeKind::Promoted => &mut c.promoted,
            ChangeKind::Superseded => &mut c.superseded,
            ChangeKind::Expired => &mut c.expired,
            ChangeKind::Changed => &mut c.changed,
        } += 1;
    }
    c
}

/// The changes that can alter what is injected: not candidates, not
/// dismissed memories.
pub fn relevant_changes(changes: &[MemoryChange]) -> usize {
    changes
        .iter()
        .filter(|c| !matches!(c.status, Status::Candidate | Status::Dismissed))
        .count()
}

/// What `brain conversation-start` was asked.
#[derive(Clone, Debug)]
pub struct StartRequest<'a> {
    /// The task.
    pub task: Option<&'a str>,
    /// Paths.
    pub paths: &'a [String],
    /// Where `paths` came from.
    pub path_source: PathSource,
    /// Changed paths left out of `paths`.
    pub paths_omitted: usize,
    /// Modules.
    pub modules: &'a [String],
    /// The refresh mode.
    pub mode: RefreshMode,
    /// `--force`.
    pub force: bool,
    /// Token budget of the block.
    pub budget: usize,
}

/// The decision, before any context is built.
#[derive(Clone, Debug, PartialEq)]
pub struct Plan {
    /// The decision.
    pub decision: Decision,
    /// Every rule checked.
    pub trace: Vec<TraceStep>,
    /// The last load.
    pub last_load: Option<LoadInfo>,
    /// Relevant memory changes since it.
    pub changes_since_last: usize,
}

/// Vectors for ranking the context, as `inject` uses them.
#[derive(Clone, Debug, Default)]
pub struct ContextVectors<'a> {
    /// Each memory's cosine similarity to the task, aligned with the
    /// index's documents.
    pub memories: Option<&'a [Option<f64>]>,
    /// The task's vector.
    pub query: Option<&'a [f32]>,
    /// Which provider was used, or why none.
    pub used: EmbeddingUse,
}

/// `brain conversation-start`'s report.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
pub struct ConversationStartReport {
    /// `start`, `inject` or `skip`.
    pub decision: Decision,
    /// The refresh mode.
    pub mode: RefreshMode,
    /// `--force` was given.
    pub forced: bool,
    /// The task.
    pub task: Option<String>,
    /// Paths compared and ranked against.
    pub paths: Vec<String>,
    /// Where they came from.
    pub path_source: PathSource,
    /// Modules.
    pub modules: Vec<String>,
    /// The last context load before this one.
    pub last_load: Option<LoadInfo>,
    /// Memory changes since it (not counting candidates and dismissed
    /// memories).
    pub changes_since_last: usize,
    /// Every rule checked, in order.
    pub trace: Vec<TraceStep>,
    /// The context: the `summary` layer for `start`, `index` for `inject`,
    /// none for `skip`.
    pub context: Option<InjectReport>,
}

impl crate::Brain {
    fn activity_log(&self) -> Vec<(Entry, Option<Decision>)> {
        parse_log(
            &self
                .store()
                .read_runtime_tail(activity::LOG, activity::TAIL_BYTES)
                .unwrap_or_default(),
        )
    }

    /// `brain diff`: the memories changed after `since`, or, when `None`,
    /// after the latest activity entry. Git trouble is returned as a
    /// warning; the record fields still count.
    pub fn diff(
        &self,
        catalog: &Catalog,
        since: Option<Timestamp>,
        now: Timestamp,
    ) -> (DiffReport, Vec<String>) {
        let log = self.activity_log();
        let latest = log.last().map(|(e, _)| LoadInfo::from(e));
        let (since, source, last_load) = match (since, latest) {
            (Some(t), _) => (Some(t), SinceSource::Given, None),
            (None, Some(l)) => (Some(l.at), SinceSource::LastLoad, Some(l)),
            (None, None) => (None, SinceSource::None, None),
        };
        let (changes, warnings) = self.changes(catalog, since, now);
        (
            DiffReport {
                since,
                since_source: source,
                last_load,
                now,
                counts: counts(&changes),
                changes,
            },
            warnings,
        )
    }

    fn changes(
        &self,
        catalog: &Catalog,
        since: Option<Timestamp>,
        now: Timestamp,
    ) -> (Vec<MemoryChange>, Vec<String>) {
        let mut warnings = Vec::new();
        let files = match since {
            Some(since) => {
                crate::store::git::changed_since(self.store().layout().root(), ".brain", since, now)
                    .unwrap_or_else(|e| {
                        warnings.push(format!("cannot read the git history: {e}"));
                        BTreeMap::new()
                    })
            }
            None => BTreeMap::new(),
        };
        (classify(&catalog.memories, since, now, &files), warnings)
    }

    /// The decision of `brain conversation-start`, from the activity log and
    /// (in smart mode) the memory changes since the last load.
    pub fn plan_conversation(
        &self,
        catalog: &Catalog,
        request: &StartRequest<'_>,
        now: Timestamp,
    ) -> (Plan, Vec<String>) {
        let log = self.activity_log();
        let last = last_load(&log);
        let mut warnings = Vec::new();
        let changes = match last {
            Some(l) if request.mode == RefreshMode::Smart && !request.force => {
                let (changes, w) = self.changes(catalog, Some(l.at), now);
                warnings = w;
                relevant_changes(&changes)
            }
            _ => 0,
        };
        let (decision, trace) = decide(
            last,
            now,
            request.task,
            request.paths,
            request.modules,
            request.mode,
            request.force,
            changes,
        );
        (
            Plan {
                decision,
                trace,
                last_load: last.map(LoadInfo::from),
                changes_since_last: changes,
            },
            warnings,
        )
    }

    /// `brain conversation-start`: builds the context the plan decided on
    /// and records the turn in `.brain/runtime/activity.jsonl`. A log that
    /// cannot be written is returned as a warning.
    pub fn conversation_start(
        &self,
        index: &crate::inject::index::Index,
        request: &StartRequest<'_>,
        plan: Plan,
        now: Timestamp,
        vectors: &ContextVectors<'_>,
    ) -> (ConversationStartReport, Option<String>) {
        let layer = match plan.decision {
            Decision::Start => Some(Layer::Summary),
            Decision::Inject => Some(Layer::Index),
            Decision::Skip => None,
        };
        let context = layer.map(|layer| {
            let entries: Vec<Entry> = self.activity_log().into_iter().map(|(e, _)| e).collect();
            let usage = activity::usage(&entries);
            let inject_request = inject::Request {
                task: request.task,
                paths: request.paths,
                path_source: request.path_source,
                paths_omitted: request.paths_omitted,
                modules: request.modules,
                ids: &[],
                layer,
                budget: request.budget,
                embedding: vectors.query,
                tuning: self.store().config().inject.tuning(),
            };
            let selection = inject::select_in(
                index,
                &inject_request,
                now,
                vectors.memories,
                &usage,
                &mut |i| self.store().read_memory(&index.docs[i].path).ok(),
            );
            InjectReport {
                version: inject::BLOCK_VERSION,
                task: request.task.map(str::to_owned),
                paths: request.paths.to_vec(),
                path_source: request.path_source,
                paths_omitted: request.paths_omitted,
                modules: request.modules.to_vec(),
                layer,
                budget_tokens: request.budget,
                embedding: vectors.used.clone(),
                selection,
            }
        });
        let entry = Entry {
            at: now,
            command: COMMAND.to_owned(),
            task: request.task.map(str::to_owned),
            paths: request.paths.to_vec(),
            modules: request.modules.to_vec(),
            ids: context
                .as_ref()
                .map(|c| c.selection.selected.iter().map(|s| s.id.clone()).collect())
                .unwrap_or_default(),
        };
        let mut entry = entry;
        entry.redact();
        let line = serde_json::to_string(&Recorded {
            entry: &entry,
            decision: plan.decision,
        })
        .unwrap_or_default();
        let warning = self
            .store()
            .append_runtime_log(activity::LOG, &line)
            .err()
            .map(|e| format!("could not record the context load: {e}"));
        (
            ConversationStartReport {
                decision: plan.decision,
                mode: request.mode,
                forced: request.force,
                task: request.task.map(str::to_owned),
                paths: request.paths.to_vec(),
                path_source: request.path_source,
                modules: request.modules.to_vec(),
                last_load: plan.last_load,
                changes_since_last: plan.changes_since_last,
                trace: plan.trace,
                context,
            },
            warning,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{DateOrTime, Provenance, Review, ReviewState, Source};

    fn t(s: &str) -> Timestamp {
        s.parse().unwrap()
    }

    const NOW: &str = "2026-11-20T12:00:00Z";

    fn load(at: &str, task: &str, paths: &[&str], modules: &[&str]) -> Entry {
        Entry {
            at: t(at),
            command: "inject".into(),
            task: Some(task.into()),
            paths: paths.iter().map(|p| (*p).to_owned()).collect(),
            modules: modules.iter().map(|p| (*p).to_owned()).collect(),
            ids: Vec::new(),
        }
    }

    #[test]
    fn decide_table() {
        use Decision::{Inject, Skip, Start};
        use RefreshMode::{Always, Smart, TaskChange};
        struct Case {
            name: &'static str,
            last: Option<Entry>,
            task: &'static str,
            paths: &'static [&'static str],
            modules: &'static [&'static str],
            force: bool,
            changes: usize,
            // always, task-change, smart
            want: [Decision; 3],
            // the rule that decided, for each mode
            rule: [Rule; 3],
        }
        let task = "fix duplicate refund ledger writes";
        let recent = "2026-11-20T11:50:00Z";
        let five_h = "2026-11-20T07:00:00Z";
        let next_day = "2026-11-19T11:00:00Z";
        let base = || Some(load(recent, task, &["src/ledger.ts"], &["billing"]));
        let cases = [
            Case {
                name: "no previous load",
                last: None,
                task,
                paths: &[],
                modules: &[],
                force: false,
                changes: 0,
                want: [Start, Start, Start],
                rule: [Rule::Always, Rule::NoPreviousLoad, Rule::NoPreviousLoad],
            },
            Case {
                name: "fresh, same task",
                last: base(),
                task,
                paths: &["src/ledger.ts"],
                modules: &["billing"],
                force: false,
                changes: 0,
                want: [Start, Skip, Skip],
                rule: [Rule::Always, Rule::Unchanged, Rule::Unchanged],
            },
            Case {
                name: "fresh, same task reworded",
                last: base(),
                task: "Fix the duplicate refund ledger write",
                paths: &["src/ledger.ts"],
                modules: &["billing"],
                force: false,
                changes: 0,
                want: [Start, Skip, Skip],
                rule: [Rule::Always, Rule::Unchanged, Rule::Unchanged],
            },
            Case {
                name: "five hours later",
                last: Some(load(five_h, task, &["src/ledger.ts"], &["billing"])),
                task,
                paths: &["src/ledger.ts"],
                modules: &["billing"],
                force: false,
                changes: 0,
                want: [Start, Start, Skip],
                rule: [Rule::Always, Rule::Stale, Rule::Unchanged],
            },
            Case {
                name: "the next day",
                last: Some(load(next_day, task, &["src/ledger.ts"], &["billing"])),
                task,
                paths: &["src/ledger.ts"],
                modules: &["billing"],
                force: false,
                changes: 0,
                want: [Start, Start, Start],
                rule: [Rule::Always, Rule::Stale, Rule::Stale],
            },
            Case {
                name: "changed task",
                last: base(),
                task: "update the holiday calendar page copy",
                paths: &["src/ledger.ts"],
                modules: &["billing"],
                force: false,
                changes: 0,
                want: [Start, Inject, Inject],
                rule: [Rule::Always, Rule::TaskChanged, Rule::TaskChanged],
            },
            Case {
                name: "a new path",
                last: base(),
                task,
                paths: &["src/ledger.ts", "src/refunds.ts"],
                modules: &["billing"],
                force: false,
                changes: 0,
                want: [Start, Inject, Inject],
                rule: [Rule::Always, Rule::PathsChanged, Rule::PathsChanged],
            },
            Case {
                name: "a path dropped",
                last: base(),
                task,
                paths: &[],
                modules: &["billing"],
                force: false,
                changes: 0,
                want: [Start, Skip, Skip],
                rule: [Rule::Always, Rule::Unchanged, Rule::Unchanged],
            },
            Case {
                name: "a new module",
                last: base(),
                task,
                paths: &["src/ledger.ts"],
                modules: &["billing", "payments"],
                force: false,
                changes: 0,
                want: [Start, Inject, Inject],
                rule: [Rule::Always, Rule::ModulesChanged, Rule::ModulesChanged],
            },
            Case {
                name: "changed memories",
                last: base(),
                task,
                paths: &["src/ledger.ts"],
                modules: &["billing"],
                force: false,
                changes: 2,
                want: [Start, Skip, Inject],
                rule: [Rule::Always, Rule::Unchanged, Rule::MemoriesChanged],
            },
            Case {
                name: "force",
                last: base(),
                task,
                paths: &["src/ledger.ts"],
                modules: &["billing"],
                force: true,
                changes: 0,
                want: [Start, Start, Start],
                rule: [Rule::Force, Rule::Force, Rule::Force],
            },
        ];
        for case in &cases {
            for (i, mode) in [Always, TaskChange, Smart].into_iter().enumerate() {
                let paths: Vec<String> = case.paths.iter().map(|p| (*p).to_owned()).collect();
                let modules: Vec<String> = case.modules.iter().map(|p| (*p).to_owned()).collect();
                let (decision, trace) = decide(
                    case.last.as_ref(),
                    t(NOW),
                    Some(case.task),
                    &paths,
                    &modules,
                    mode,
                    case.force,
                    case.changes,
                );
                let what = format!("{} / {mode:?}: {trace:#?}", case.name);
                assert_eq!(decision, case.want[i], "{what}");
                let last = trace.last().unwrap();
                assert!(last.fired, "{what}");
                assert_eq!(last.rule, case.rule[i], "{what}");
                assert!(
                    trace[..trace.len() - 1].iter().all(|s| !s.fired),
                    "only the deciding rule fires: {what}"
                );
                assert_eq!(trace[0].rule, Rule::Force, "{what}");
            }
        }
    }

    #[test]
    fn task_similarity_normalises_words() {
        assert!((task_similarity(None, None) - 1.0).abs() < 1e-9);
        assert!(task_similarity(Some("fix refunds"), None) < SAME_TASK);
        assert!(
            (task_similarity(Some("Fix: the Refunds!"), Some("fix refunds")) - 1.0).abs() < 1e-9
        );
        assert!(task_similarity(Some("fix refunds"), Some("write invoices")) < 1e-9);
    }

    #[test]
    fn skipped_turns_are_not_loads() {
        let text = format!(
            "{}\n{}\n",
            serde_json::to_string(&Recorded {
                entry: &load("2026-11-20T10:00:00Z", "a", &[], &[]),
                decision: Decision::Start,
            })
            .unwrap(),
            serde_json::to_string(&Recorded {
                entry: &Entry {
                    command: COMMAND.into(),
                    ..load("2026-11-20T11:00:00Z", "a", &[], &[])
                },
                decision: Decision::Skip,
            })
            .unwrap(),
        );
        let log = parse_log(&text);
        assert_eq!(log.len(), 2);
        assert_eq!(log[1].1, Some(Decision::Skip));
        assert_eq!(last_load(&log).unwrap().at, t("2026-11-20T10:00:00Z"));
        // The plain activity parser still reads both lines.
        assert_eq!(activity::parse(&text).len(), 2);
    }

    fn memory(id: &str, status: Status, captured: &str) -> Memory {
        Memory::new(
            MemoryId::new(id).unwrap(),
            MemoryType::Gotcha,
            status,
            format!("title of {id}"),
            "summary",
            Provenance {
                source: Source::Manual,
                captured_at: t(captured),
                proposed_by: None,
                evidence: Vec::new(),
            },
        )
    }

    fn loaded(m: Memory) -> Loaded<Memory> {
        Loaded {
            path: format!(".brain/gotchas/{}.yaml", m.id),
            record: m,
        }
    }

    #[test]
    fn diff_classification() {
        let old = "2026-10-01T00:00:00Z";
        let since = t("2026-11-20T00:00:00Z");
        let after = "2026-11-20T06:00:00Z";
        let approved = |at: &str| Review {
            state: Some(ReviewState::Approved),
            decided_at: Some(t(at)),
            decided_by: None,
            reason: None,
        };
        let added = memory("added-1", Status::Candidate, after);
        let mut promoted = memory("promoted-1", Status::Active, old);
        promoted.review = approved(after);
        let mut successor = memory("successor-1", Status::Active, after);
        successor.lineage.supersedes = vec![MemoryId::new("replaced-1").unwrap()];
        let mut replaced = memory("replaced-1", Status::Superseded, old);
        replaced.lineage.superseded_by = Some(successor.id.clone());
        let mut replaced_by_old = memory("replaced-2", Status::Superseded, old);
        replaced_by_old.lineage.superseded_by = Some(MemoryId::new("untouched-1").unwrap());
        let mut expired = memory("expired-1", Status::Active, old);
        expired.validity.expires = Some(DateOrTime::Date("2026-11-19".parse().unwrap()));
        let mut expires_later = memory("expires-later-1", Status::Active, old);
        expires_later.validity.expires = Some(DateOrTime::Date("2026-11-21".parse().unwrap()));
        let mut until = memory("until-1", Status::Active, old);
        until.validity.valid_until = Some(t("2026-11-20T10:00:00Z"));
        let mut observed = memory("observed-1", Status::Active, old);
        observed.validity.observed_at = Some(t(after));
        let mut merged = memory("merged-1", Status::Active, old);
        merged.lineage.version = 2;
        merged.detail = format!(
            "Old text.\n\nMerged from `c-1` (session, captured {old}, merged {after}):\nNew text.\n"
        );
        let mut merged_before = memory("merged-2", Status::Active, old);
        merged_before.detail =
            format!("Merged from `c-2` (session, captured {old}, merged {old}):\nx\n");
        let mut dismissed = memory("dismissed-1", Status::Dismissed, old);
        dismissed.review = Review {
            state: Some(ReviewState::Rejected),
            ..approved(after)
        };
        let edited = memory("edited-1", Status::Active, old);
        let untouched = memory("untouched-1", Status::Active, old);
        let memories: Vec<Loaded<Memory>> = [
            added,
            promoted,
            successor,
            replaced,
            replaced_by_old,
            expired,
            expires_later,
            until,
            observed,
            merged,
            merged_before,
            dismissed,
            edited,
            untouched,
        ]
        .into_iter()
        .map(loaded)
        .collect();
        let mut git = BTreeMap::new();
        git.insert(".brain/gotchas/edited-1.yaml".to_owned(), t(after));
        git.insert(".brain/gotchas/replaced-2.yaml".to_owned(), t(after));
        git.insert(
            ".brain/gotchas/untouched-1.yaml".to_owned(),
            t("2026-11-19T00:00:00Z"),
        );
        let changes = classify(&memories, Some(since), t(NOW), &git);
        let got: Vec<(ChangeKind, &str, &str)> = changes
            .iter()
            .map(|c| (c.change, c.id.as_str(), c.evidence.as_str()))
            .collect();
        assert_eq!(
            got,
            vec![
                (ChangeKind::Added, "added-1", "provenance.captured_at"),
                (ChangeKind::Added, "successor-1", "provenance.captured_at"),
                (ChangeKind::Promoted, "promoted-1", "review.decided_at"),
                (
                    ChangeKind::Superseded,
                    "replaced-1",
                    "the successor's provenance.captured_at or review.decided_at"
                ),
                (ChangeKind::Superseded, "replaced-2", "git"),
                (ChangeKind::Expired, "until-1", "validity.valid_until"),
                (
                    ChangeKind::Changed,
                    "dismissed-1",
                    "review.decided_at (status dismissed)"
                ),
                (ChangeKind::Changed, "edited-1", "git"),
                (ChangeKind::Changed, "merged-1", "merge note in detail"),
                (ChangeKind::Changed, "observed-1", "validity.observed_at"),
            ]
        );
        // expired-1 ended on 2026-11-19, before `since`; expires-later-1 has not ended.
        let c = counts(&changes);
        assert_eq!(
            (c.added, c.promoted, c.superseded, c.expired, c.changed),
            (2, 1, 2, 1, 4)
        );
        // Candidates and dismissed memories do not call for a refresh.
        assert_eq!(relevant_changes(&changes), 8);
        // A date that ends after since counts as expired when now is past it.
        let later = classify(&memories, Some(since), t("2026-11-22T00:00:00Z"), &git);
        assert!(
            later
                .iter()
                .any(|c| c.id.as_str() == "expires-later-1" && c.change == ChangeKind::Expired)
        );
        // Without since, everything is added.
        let all = classify(&memories, None, t(NOW), &BTreeMap::new());
        assert_eq!(all.len(), memories.len());
        assert!(all.iter().all(|c| c.change == ChangeKind::Added));
    }

    #[test]
    fn merge_notes_are_read() {
        assert_eq!(
            last_merge(
                "x\nMerged from `a-1` (session, captured 2026-01-01T00:00:00Z, proposed by A, merged 2026-02-01T00:00:00Z):\ny\nMerged from `b-1` (manual, captured 2026-01-01T00:00:00Z, merged 2026-03-01T00:00:00Z):\n"
            ),
            Some(t("2026-03-01T00:00:00Z"))
        );
        assert_eq!(last_merge("no note"), None);
    }
}
