//! `brain sweep`: the store's housekeeping, and the lifecycle facts that
//! `brain status` reports.
//!
//! - **Expire**: an active working note whose `validity.expires` is past
//!   becomes `done` (the transition table's "a working note finished"). The
//!   only change sweep makes, through the store's write path under its lock.
//! - **Stale**: an active memory not seen for `stale_days` (config, default
//!   90) is reported, never changed. Seen means the latest of: captured,
//!   decided in review, `validity.observed_at`, and the last context load
//!   that showed it (`.brain/runtime/activity.jsonl`).
//! - **Near duplicates**: pairs of active memories the reviewer relates as
//!   duplicates (it would merge one into the other), reported for a person
//!   to fold together with `brain supersede` or an edit.
//!
//! Running it twice changes nothing the second time: expired notes are
//! `done` and the rest is only reported.

use std::collections::{BTreeMap, BTreeSet};

use jiff::Timestamp;
use schemars::JsonSchema;
use serde::Serialize;

use crate::model::{Memory, MemoryId, MemoryType, Status};
use crate::review::{Relation, Reviewer};
use crate::store::{Catalog, Loaded};

/// A working note that sweep marks (or would mark) `done`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
pub struct Expired {
    /// The note.
    pub id: MemoryId,
    /// Its file, relative to the root.
    pub path: String,
    /// Its `validity.expires`, as written.
    pub expires: String,
}

/// An active memory nobody has seen for a while.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
pub struct Stale {
    /// The memory.
    pub id: MemoryId,
    /// Its file, relative to the root.
    pub path: String,
    /// When it was last seen (captured, reviewed, observed or shown).
    pub last_seen: Timestamp,
    /// Whole days since then.
    pub days: i64,
}

/// Two active memories the reviewer would fold into one.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
pub struct NearDuplicate {
    /// The memory reviewed against the rest.
    pub id: MemoryId,
    /// The memory it repeats or adds to.
    pub other: MemoryId,
    /// How the reviewer relates them (`duplicate`).
    pub relation: Relation,
}

/// The result of `brain sweep`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
pub struct SweepReport {
    /// Nothing was written.
    pub dry_run: bool,
    /// The `stale_days` in force.
    pub stale_days: u32,
    /// Working notes past `expires`, marked `done` (unless `dry_run`).
    pub expired: Vec<Expired>,
    /// Active memories not seen for `stale_days` or more; not changed.
    pub stale: Vec<Stale>,
    /// Pairs of active memories that say the same thing; not changed.
    pub near_duplicates: Vec<NearDuplicate>,
}

/// Active working notes past their `expires` at `now`.
pub fn expired(catalog: &Catalog, now: Timestamp) -> Vec<Expired> {
    catalog
        .memories
        .iter()
        .filter(|l| l.record.kind == MemoryType::Working && l.record.status == Status::Active)
        .filter_map(|l| {
            let e = l.record.validity.expires.filter(|e| e.is_past(now))?;
            Some(Expired {
                id: l.record.id.clone(),
                path: l.path.clone(),
                expires: e.to_string(),
            })
        })
        .collect()
}

/// When each memory was last shown to an agent, from the activity log.
pub fn last_shown(entries: &[crate::activity::Entry]) -> BTreeMap<MemoryId, Timestamp> {
    let mut out: BTreeMap<MemoryId, Timestamp> = BTreeMap::new();
    for e in entries {
        for id in &e.ids {
            let slot = out.entry(id.clone()).or_insert(e.at);
            *slot = (*slot).max(e.at);
        }
    }
    out
}

fn last_seen(m: &Memory, shown: &BTreeMap<MemoryId, Timestamp>) -> Timestamp {
    [
        Some(m.provenance.captured_at),
        m.review.decided_at,
        m.validity.observed_at,
        shown.get(&m.id).copied(),
    ]
    .into_iter()
    .flatten()
    .max()
    .expect("captured_at is always there")
}

/// Active memories (other than expired working notes) not seen for
/// `stale_days` days at `now`.
pub fn stale(
    catalog: &Catalog,
    shown: &BTreeMap<MemoryId, Timestamp>,
    stale_days: u32,
    now: Timestamp,
) -> Vec<Stale> {
    let expired: BTreeSet<MemoryId> = expired(catalog, now).into_iter().map(|e| e.id).collect();
    catalog
        .memories
        .iter()
        .filter(|l| l.record.status == Status::Active && !expired.contains(&l.record.id))
        .filter_map(|l| {
            let seen = last_seen(&l.record, shown);
            let days = now.duration_since(seen).as_secs() / 86_400;
            (days >= i64::from(stale_days)).then(|| Stale {
                id: l.record.id.clone(),
                path: l.path.clone(),
                last_seen: seen,
                days,
            })
        })
        .collect()
}

/// Pairs of active memories the reviewer relates as duplicates, each pair
/// once, sorted.
pub fn near_duplicates(catalog: &Catalog) -> Vec<NearDuplicate> {
    let active: Vec<&Loaded<Memory>> = catalog
        .memories
        .iter()
        .filter(|l| l.record.status == Status::Active && l.record.lineage.superseded_by.is_none())
        .collect();
    let reviewer = Reviewer::new(active.iter().map(|l| &l.record));
    let mut seen = BTreeSet::new();
    let mut out = Vec::new();
    for l in &active {
        let outcome = reviewer.review(&l.record);
        // Additive updates between two reviewed memories are mostly two
        // facts on one topic; only a repeat is worth a person's time.
        if outcome.relation != Relation::Duplicate {
            continue;
        }
        for other in outcome.targets {
            let key = if l.record.id < other {
                (l.record.id.clone(), other.clone())
            } else {
                (other.clone(), l.record.id.clone())
            };
            if seen.insert(key) {
                out.push(NearDuplicate {
                    id: l.record.id.clone(),
                    other,
                    relation: outcome.relation,
                });
            }
        }
    }
    out.sort_by(|a, b| (&a.id, &a.other).cmp(&(&b.id, &b.other)));
    out
}

impl crate::Brain {
    /// The activity log's entries (context loads), oldest first.
    pub fn activity(&self) -> Vec<crate::activity::Entry> {
        crate::activity::parse(
            &self
                .store()
                .read_runtime_tail(crate::activity::LOG, crate::activity::TAIL_BYTES)
                .unwrap_or_default(),
        )
    }

    /// `brain sweep`: marks expired working notes `done` (unless `dry_run`)
    /// and reports stale memories and near duplicates.
    ///
    /// # Errors
    ///
    /// The lock or a write failed.
    pub fn sweep(&self, dry_run: bool, now: Timestamp) -> Result<SweepReport, crate::Error> {
        let lock = if dry_run {
            None
        } else {
            Some(self.store().lock()?)
        };
        let catalog = self.store().load();
        let stale_days = self.store().config().stale_days;
        let expired = expired(&catalog, now);
        if let Some(lock) = &lock {
            for e in &expired {
                let Some(l) = catalog.memories.iter().find(|l| l.path == e.path) else {
                    continue;
                };
                let mut m = l.record.clone();
                m.status = Status::Done;
                m.normalize();
                self.store()
                    .rewrite(lock, &l.path, &crate::yaml::memory_to_string(&m))?;
            }
        }
        let shown = last_shown(&self.activity());
        Ok(SweepReport {
            dry_run,
            stale_days,
            stale: stale(&catalog, &shown, stale_days, now),
            near_duplicates: near_duplicates(&catalog),
            expired,
        })
    }
}
