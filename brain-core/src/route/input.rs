//! The engine's inputs and the rules that decide which of them apply to a
//! task: skill-name normalisation, memory triggers, preference hints,
//! task-class matching and preference eligibility.
//!
//! All matching goes through [`crate::matching`]: globs are matched segment
//! by segment, task phrases on whole stemmed words. Nothing here is a raw
//! substring test (RepoBrain's `api` matched `rapid`; see `docs/routing.md`).

use std::collections::BTreeSet;

use jiff::Timestamp;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::matching::{self, Glob};
use crate::model::{Memory, Preference, ReviewState, TargetType};

/// A memory the caller matched to the task, and why.
#[derive(Clone, Debug)]
pub struct MatchedMemory<'a> {
    /// The memory.
    pub memory: &'a Memory,
    /// Its path relative to the repository root (`.brain/gotchas/<id>.yaml`).
    pub path: &'a str,
    /// Why the caller matched it (`scope path src/ledger/**`, `task words: refund`).
    pub reasons: Vec<String>,
}

/// The session profile: routing wishes for the current session only.
///
/// The CLI keeps it in `.brain/runtime/session-profile.json`. Only the three
/// skill lists take part in routing; the hints and flags are for the context
/// block and are carried here so that one file holds the whole profile.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(default)]
pub struct SessionPolicy {
    /// When the profile was last changed (not read by routing).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub updated_at: Option<Timestamp>,
    /// Skills, workflows or task classes to run first this session.
    pub prefer_skills: Vec<String>,
    /// Skills, workflows or task classes not to run this session.
    pub avoid_skills: Vec<String>,
    /// Skills, workflows or task classes to run only after a human agrees.
    pub review_skills: Vec<String>,
    /// Free-text hints for the agent (`touch only the billing module`).
    pub hints: Vec<String>,
    /// Keep the change as small as possible.
    pub minimal_change: bool,
    /// Run the affected tests only, not the full suite.
    pub skip_full_tests: bool,
    /// Do not change the database schema.
    pub no_schema_changes: bool,
}

/// Everything the engine reads. It does no I/O and reads no clock: `now` is
/// only used for eligibility.
#[derive(Clone, Debug)]
pub struct RouteContext<'a> {
    /// The task text, if any.
    pub task: Option<&'a str>,
    /// Paths the task touches, relative to the repository root.
    pub paths: &'a [String],
    /// The memories that matched the task. Ineligible ones are ignored with a
    /// warning.
    pub memories: &'a [MatchedMemory<'a>],
    /// Every preference; only eligible ones whose hints apply take part.
    pub preferences: &'a [&'a Preference],
    /// The session profile, if any.
    pub session: Option<&'a SessionPolicy>,
    /// The time eligibility is judged at.
    pub now: Timestamp,
}

/// Returns the canonical form of a skill, workflow or task-class name:
/// trimmed, lowercase, every run of white space and `_` replaced by one `-`,
/// and `-` trimmed from both ends. `Playwright E2E` and `playwright_e2e` are
/// both `playwright-e2e`. Other characters (`:`, `/`, `.`) are kept, so
/// namespaced names (`plugin:skill`) stay distinct. Returns `None` when
/// nothing is left.
pub fn normalize_skill(name: &str) -> Option<String> {
    let mut out = String::with_capacity(name.len());
    let mut pending_dash = false;
    for c in name.trim().chars() {
        if c.is_whitespace() || c == '_' || c == '-' {
            pending_dash = true;
            continue;
        }
        if pending_dash && !out.is_empty() {
            out.push('-');
        }
        pending_dash = false;
        out.extend(c.to_lowercase());
    }
    (!out.is_empty()).then_some(out)
}

/// Returns task paths in canonical form: `/`-separated, no leading `./`,
/// no trailing `/`, sorted, without duplicates or empty entries.
pub(crate) fn normalize_paths(paths: &[String]) -> Vec<String> {
    let set: BTreeSet<String> = paths
        .iter()
        .map(|p| {
            let mut p = p.trim().replace('\\', "/");
            while let Some(rest) = p.strip_prefix("./") {
                p = rest.to_owned();
            }
            while p.len() > 1 && p.ends_with('/') {
                p.pop();
            }
            p
        })
        .filter(|p| !p.is_empty())
        .collect();
    set.into_iter().collect()
}

/// The task as routing sees it: its topic tokens and its paths.
#[derive(Clone, Debug)]
pub(crate) struct Task {
    tokens: BTreeSet<String>,
    pub(crate) paths: Vec<String>,
}

impl Task {
    pub(crate) fn new(text: Option<&str>, paths: &[String]) -> Task {
        Task {
            tokens: text.map(matching::tokens).unwrap_or_default(),
            paths: normalize_paths(paths),
        }
    }

    /// Whether every topic word of `phrase` occurs in the task as a whole
    /// word (after stemming; order and stopwords do not matter). A phrase of
    /// stopwords only never matches.
    pub(crate) fn has_words_of(&self, phrase: &str) -> bool {
        let needle = matching::tokens(phrase);
        !needle.is_empty() && needle.is_subset(&self.tokens)
    }

    /// The first task path `glob` matches.
    pub(crate) fn path_matching(&self, glob: &str) -> Option<&str> {
        let g = Glob::new(glob);
        self.paths.iter().find(|p| g.matches(p)).map(String::as_str)
    }
}

/// Whether a preference may decide anything at `now`: the one eligibility
/// rule of [`crate::model::eligible`], which [`Memory::eligible`] also uses
/// (active, not replaced, not waiting for review, inside its validity window
/// and not expired). Candidates never route.
pub fn preference_eligible(p: &Preference, now: Timestamp) -> bool {
    crate::model::eligible(
        p.status,
        p.lineage.superseded_by.is_some(),
        p.review.state == Some(ReviewState::Pending),
        &p.validity,
        now,
    )
}

/// Why a matched memory's routing applies to the task, or `None` when it has
/// triggers and none fires.
pub(crate) fn memory_triggers(m: &Memory, task: &Task) -> Option<Vec<String>> {
    routing_triggers(&m.routing, task)
}

/// [`memory_triggers`] on the routing section alone.
pub(crate) fn routing_triggers(r: &crate::model::Routing, task: &Task) -> Option<Vec<String>> {
    if r.trigger_paths.is_empty() && r.trigger_tasks.is_empty() {
        return Some(vec![
            "no triggers: applies whenever the memory matches".to_owned(),
        ]);
    }
    let mut fired = Vec::new();
    for glob in &r.trigger_paths {
        if let Some(path) = task.path_matching(glob) {
            fired.push(format!("trigger path `{glob}` matches `{path}`"));
        }
    }
    for phrase in &r.trigger_tasks {
        if task.has_words_of(phrase) {
            fired.push(format!("trigger task `{}`", phrase.trim()));
        }
    }
    (!fired.is_empty()).then_some(fired)
}

/// Why a preference applies to the task, or `None`.
///
/// A skill or workflow preference without hints is global. With hints it
/// applies when a task hint's words occur in the task or a path hint matches
/// a path. A task-class preference is never global: it applies when the
/// class name's words occur in the task (`schema-migration`: "schema" and
/// "migration") or, if it has hints, when a hint matches.
pub(crate) fn preference_applies(p: &Preference, task: &Task) -> Option<Vec<String>> {
    let mut why = Vec::new();
    if p.target_type == TargetType::TaskClass && task.has_words_of(&p.target) {
        why.push(format!("task matches class `{}`", p.target.trim()));
    }
    for hint in &p.task_hints {
        if task.has_words_of(hint) {
            why.push(format!("task hint `{}`", hint.trim()));
        }
    }
    for glob in &p.path_hints {
        if let Some(path) = task.path_matching(glob) {
            why.push(format!("path hint `{glob}` matches `{path}`"));
        }
    }
    let global = p.task_hints.is_empty()
        && p.path_hints.is_empty()
        && p.target_type != TargetType::TaskClass;
    if global {
        why.push("global (no hints)".to_owned());
    }
    (!why.is_empty()).then_some(why)
}
