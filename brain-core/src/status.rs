//! `brain status`: where the store stands and what to do next.

use std::collections::BTreeMap;

use jiff::Timestamp;
use schemars::JsonSchema;
use serde::Serialize;

use crate::model::{MemoryType, Status};
use crate::session::LoadInfo;
use crate::store::Catalog;

/// The result of `brain status`.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
pub struct StatusReport {
    /// Number of memories.
    pub memories: usize,
    /// Memories per status (every status, zeros included).
    pub by_status: BTreeMap<Status, usize>,
    /// Memories per type (every type, zeros included).
    pub by_type: BTreeMap<MemoryType, usize>,
    /// Number of preferences.
    pub preferences: usize,
    /// Candidate memories and preferences waiting for review.
    pub pending_review: usize,
    /// The last time an agent loaded context, if ever.
    pub last_load: Option<LoadInfo>,
    /// Lint errors (files skipped, broken invariants, merge conflicts).
    pub errors: usize,
    /// Lint warnings (e.g. files not in canonical form).
    pub warnings: usize,
    /// Working notes past `expires` that `brain sweep` would mark done.
    pub expired: usize,
    /// Active memories not seen for `stale_days`.
    pub stale: usize,
    /// The one thing to do next, as a sentence with the command.
    pub next_step: String,
}

/// What [`status`] needs beyond the catalog.
#[derive(Debug)]
pub struct StatusInput<'a> {
    /// The store's memories and preferences.
    pub catalog: &'a Catalog,
    /// Lint's error and warning counts.
    pub lint: (usize, usize),
    /// Context loads, oldest first.
    pub activity: &'a [crate::activity::Entry],
    /// `stale_days` in force.
    pub stale_days: u32,
}

/// Builds the report.
pub fn status(input: &StatusInput<'_>, now: Timestamp) -> StatusReport {
    let catalog = input.catalog;
    let mut by_status: BTreeMap<Status, usize> = Status::ALL.iter().map(|s| (*s, 0)).collect();
    let mut by_type: BTreeMap<MemoryType, usize> =
        MemoryType::ALL.iter().map(|t| (*t, 0)).collect();
    for l in &catalog.memories {
        *by_status.entry(l.record.status).or_default() += 1;
        *by_type.entry(l.record.kind).or_default() += 1;
    }
    let pending_review = by_status[&Status::Candidate]
        + catalog
            .preferences
            .iter()
            .filter(|p| p.record.status == Status::Candidate)
            .count();
    let (errors, warnings) = input.lint;
    let expired = crate::sweep::expired(catalog, now).len();
    let shown = crate::sweep::last_shown(input.activity);
    let stale = crate::sweep::stale(catalog, &shown, input.stale_days, now).len();
    let last_load = input.activity.last().map(LoadInfo::from);
    let next_step = next_step(
        catalog.memories.len(),
        errors,
        pending_review,
        expired,
        stale,
    );
    StatusReport {
        memories: catalog.memories.len(),
        by_status,
        by_type,
        preferences: catalog.preferences.len(),
        pending_review,
        last_load,
        errors,
        warnings,
        expired,
        stale,
        next_step,
    }
}

fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// The most urgent thing first: broken files, then review, then housekeeping.
fn next_step(
    memories: usize,
    errors: usize,
    pending: usize,
    expired: usize,
    stale: usize,
) -> String {
    if errors > 0 {
        format!("run `brain lint`: {}", plural(errors, "error", "errors"))
    } else if pending > 0 {
        format!(
            "run `brain review`: {} pending",
            plural(pending, "candidate", "candidates")
        )
    } else if expired > 0 {
        format!(
            "run `brain sweep`: {} past `expires`",
            plural(expired, "working note", "working notes")
        )
    } else if memories == 0 {
        "record a memory with `brain add` or `brain capture`".to_owned()
    } else if stale > 0 {
        format!(
            "run `brain sweep --dry-run`: {} not seen for a while",
            plural(stale, "memory", "memories")
        )
    } else {
        "nothing to do".to_owned()
    }
}

impl crate::Brain {
    /// `brain status`.
    pub fn status(&self, catalog: &Catalog, now: Timestamp) -> StatusReport {
        let lint = self.lint();
        let activity = self.activity();
        status(
            &StatusInput {
                catalog,
                lint: (lint.errors, lint.warnings),
                activity: &activity,
                stale_days: self.store().config().stale_days,
            },
            now,
        )
    }
}
