//! `plan_id`: a short, stable hash of what routing read.
//!
//! The hash is blake3 over a canonical JSON document of the inputs that took
//! part: the task text with white space collapsed, the normalised and sorted
//! paths, the eligible matched memories (sorted by id: path, title, risk,
//! importance, normalised routing lists, invocation mode, sorted reasons),
//! the eligible preferences (sorted by id: target type, normalised target,
//! preference, confidence, sorted hints) and the session profile's three
//! skill lists (normalised, sorted; an empty profile counts as none). The id
//! is the first 16 hex digits.
//!
//! So the same inputs give the same id whatever their order, and any change
//! to an input that could change the plan gives a new one. `now` is not
//! hashed directly: it only matters through which records are eligible.
//! The session profile's hints and flags are not hashed, since routing does
//! not read them.

use std::collections::BTreeSet;

use serde::Serialize;

use super::input::{MatchedMemory, SessionPolicy, normalize_skill};
use crate::model::{InvocationMode, Preference};

/// Version of the canonical document; bump it when its shape changes.
const CANONICAL_VERSION: u32 = 1;

/// Hex digits kept from the hash.
const ID_LEN: usize = 16;

#[derive(Serialize)]
struct Canonical<'a> {
    version: u32,
    task: String,
    paths: &'a [String],
    memories: Vec<CanonicalMemory<'a>>,
    preferences: Vec<CanonicalPreference<'a>>,
    session: Option<CanonicalSession>,
}

#[derive(Serialize)]
struct CanonicalMemory<'a> {
    id: &'a str,
    path: &'a str,
    title: &'a str,
    risk: &'static str,
    importance: &'static str,
    required: BTreeSet<String>,
    recommended: BTreeSet<String>,
    suppressed: BTreeSet<String>,
    trigger_paths: BTreeSet<&'a str>,
    trigger_tasks: BTreeSet<&'a str>,
    invocation_mode: &'static str,
    reasons: BTreeSet<&'a str>,
}

#[derive(Serialize)]
struct CanonicalPreference<'a> {
    id: &'a str,
    target_type: &'static str,
    target: Option<String>,
    preference: &'static str,
    confidence: f64,
    task_hints: BTreeSet<&'a str>,
    path_hints: BTreeSet<&'a str>,
}

#[derive(Serialize)]
struct CanonicalSession {
    prefer: BTreeSet<String>,
    avoid: BTreeSet<String>,
    review: BTreeSet<String>,
}

fn skills(list: &[String]) -> BTreeSet<String> {
    list.iter().filter_map(|s| normalize_skill(s)).collect()
}

fn trimmed(list: &[String]) -> BTreeSet<&str> {
    list.iter()
        .map(|s| s.trim())
        .filter(|s| !s.is_empty())
        .collect()
}

fn mode(m: InvocationMode) -> &'static str {
    m.as_str()
}

/// Computes the plan id. `memories` and `preferences` are the eligible
/// records, in any order; `paths` are already normalised and sorted.
pub(crate) fn plan_id(
    task: Option<&str>,
    paths: &[String],
    memories: &[MatchedMemory<'_>],
    preferences: &[&Preference],
    session: Option<&SessionPolicy>,
) -> String {
    let mut ms: Vec<CanonicalMemory<'_>> = memories
        .iter()
        .map(|mm| {
            let m = mm.memory;
            let r = &m.routing;
            CanonicalMemory {
                id: m.id.as_str(),
                path: mm.path,
                title: m.title.trim(),
                risk: m.risk.as_str(),
                importance: m.importance.as_str(),
                required: skills(&r.required_skills),
                recommended: skills(&r.recommended_skills),
                suppressed: skills(&r.suppressed_skills),
                trigger_paths: trimmed(&r.trigger_paths),
                trigger_tasks: trimmed(&r.trigger_tasks),
                invocation_mode: mode(r.invocation_mode),
                reasons: trimmed(&mm.reasons),
            }
        })
        .collect();
    ms.sort_by(|a, b| a.id.cmp(b.id).then_with(|| a.path.cmp(b.path)));
    let mut ps: Vec<CanonicalPreference<'_>> = preferences
        .iter()
        .map(|p| CanonicalPreference {
            id: p.id.as_str(),
            target_type: p.target_type.as_str(),
            target: normalize_skill(&p.target),
            preference: p.preference.as_str(),
            confidence: p.confidence.get(),
            task_hints: trimmed(&p.task_hints),
            path_hints: trimmed(&p.path_hints),
        })
        .collect();
    ps.sort_by(|a, b| a.id.cmp(b.id));
    let session = session
        .map(|s| CanonicalSession {
            prefer: skills(&s.prefer_skills),
            avoid: skills(&s.avoid_skills),
            review: skills(&s.review_skills),
        })
        .filter(|s| !(s.prefer.is_empty() && s.avoid.is_empty() && s.review.is_empty()));
    let doc = Canonical {
        version: CANONICAL_VERSION,
        task: task
            .map(|t| t.split_whitespace().collect::<Vec<_>>().join(" "))
            .unwrap_or_default(),
        paths,
        memories: ms,
        preferences: ps,
        session,
    };
    // Serialising plain structs of strings, sets and finite numbers cannot
    // fail; an empty document would still give a stable id.
    let bytes = serde_json::to_vec(&doc).unwrap_or_default();
    let hex = blake3::hash(&bytes).to_hex();
    hex.as_str()[..ID_LEN].to_owned()
}
