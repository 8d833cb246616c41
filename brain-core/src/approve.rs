//! `brain review` and `brain approve`: the reviewer's decisions shown, and
//! carried out.
//!
//! Approving a candidate does what the reviewer decided:
//!
//! * `accept`: the candidate becomes `active`, its review `approved`.
//! * `merge`: the candidate is folded into its target (lists united,
//!   importance and risk raised to the higher, new text appended to the
//!   target's detail with its provenance, version + 1) and its file removed:
//!   one memory remains.
//! * `supersede`: the candidate becomes `active` with the target in
//!   `supersedes` and version target + 1; the target becomes `superseded` with
//!   `superseded_by` set.
//! * `reject`: the candidate becomes `dismissed`, review `rejected`, with the
//!   reviewer's reason; it stays visible in `brain review --all`.
//!
//! Every record is passed through [`crate::secrets::redact_memory`] right
//! before it is written; what was redacted is in [`ApproveReport::redactions`].
//!
//! Safe approval (`--safe`, and `brain promote-candidates` when the workflow
//! allows it) takes only candidates decided `accept` with relation `novel`,
//! not `working` notes, without temporary wording, without replacement
//! wording and without a changed value of a stored memory (see
//! [`unsafe_reason`]).

use jiff::Timestamp;
use schemars::JsonSchema;
use serde::Serialize;

use crate::brain::{Brain, Error};
use crate::model::{Memory, MemoryId, MemoryType, Review, ReviewState, Status};
use crate::report;
use crate::review::{Decision, Relation, ReviewOutcome, Reviewer};
use crate::secrets::{self, Redaction};
use crate::store::Loaded;

/// One candidate with the reviewer's verdict.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
pub struct ReviewItem {
    /// Id.
    pub id: MemoryId,
    /// File, relative to the root.
    pub path: String,
    /// Type.
    #[serde(rename = "type")]
    pub kind: MemoryType,
    /// Status (`candidate`, or `dismissed` with `--all`).
    pub status: Status,
    /// Title.
    pub title: String,
    /// Whether safe approval would take it.
    pub safe: bool,
    /// The reviewer's verdict (for a dismissed memory: the reason recorded when
    /// it was dismissed is in `dismissed_reason`).
    pub outcome: ReviewOutcome,
    /// Why it was dismissed, for dismissed memories.
    pub dismissed_reason: Option<String>,
}

/// `brain review`.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
pub struct ReviewReport {
    /// Candidates (and with `--all`, dismissed memories), by id.
    pub items: Vec<ReviewItem>,
    /// How many items safe approval would take.
    pub safe: usize,
}

/// What happened to one approved candidate.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
pub struct ApprovedItem {
    /// The candidate.
    pub id: MemoryId,
    /// The decision carried out.
    pub decision: Decision,
    /// The relation behind it.
    pub relation: Relation,
    /// The memory it was merged into or superseded, if any.
    pub target: Option<MemoryId>,
    /// The reviewer's reason.
    pub reason: String,
    /// Files written or removed, relative to the root.
    pub files: Vec<String>,
}

/// `brain approve` and `brain promote-candidates`.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
pub struct ApproveReport {
    /// Whether nothing was written.
    pub dry_run: bool,
    /// Candidates approved (or, dry run, that would be), in order.
    pub approved: Vec<ApprovedItem>,
    /// Candidates left alone by `--safe`, with the reason.
    pub skipped: Vec<SkippedItem>,
    /// Secrets replaced by `[REDACTED:<kind>]` in the records written (in a
    /// dry run: that would be).
    pub redactions: Vec<Redaction>,
}

/// A candidate safe approval did not take.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
pub struct SkippedItem {
    /// The candidate.
    pub id: MemoryId,
    /// Why it needs a person.
    pub reason: String,
}

/// Which candidates `approve` takes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Selection {
    /// These ids (or unique prefixes).
    Ids(Vec<String>),
    /// These ids (or unique prefixes), each approved as a new memory
    /// whatever the reviewer decided: a person who disagrees with a merge or
    /// supersede (`brain approve --as-new`).
    AsNew(Vec<String>),
    /// Every candidate the reviewer finds safe.
    Safe,
    /// Every candidate.
    All,
}

/// Returns why a reviewed candidate is not safe to approve without a person,
/// or `None` when it is.
///
/// Only a novel accept is safe, and not even that when the candidate says
/// it replaces something ("switched from", "no longer", "moved to": if the
/// reviewer did not find what it replaces, a person must), or when it
/// changes a value a stored memory states: approving either alone would
/// leave two contradictory active memories.
pub fn unsafe_reason(candidate: &Memory, outcome: &ReviewOutcome) -> Option<String> {
    if outcome.decision != Decision::Accept || outcome.relation != Relation::Novel {
        return Some(format!(
            "the reviewer decided `{}` ({}): a person decides",
            report::serde_name(&outcome.decision),
            report::serde_name(&outcome.relation)
        ));
    }
    let text = format!(
        "{}\n{}\n{}",
        candidate.title, candidate.summary, candidate.detail
    );
    if let Some(r) = crate::review::text::replacements(&text).first() {
        return Some(format!(
            "replacement wording (\"{}\"): it may replace a stored memory, a person decides",
            r.phrase
        ));
    }
    if let Some((e, changed)) = outcome
        .evidence
        .iter()
        .find_map(|e| e.changed_value.as_ref().map(|c| (e, c)))
    {
        return Some(format!(
            "changes a value `{}` states ({changed}): a person decides",
            e.target
        ));
    }
    if candidate.kind == MemoryType::Working {
        return Some("working notes are short-lived: a person decides".to_owned());
    }
    if !outcome.temporary_wording.is_empty() {
        return Some(format!(
            "temporary wording (\"{}\"): a person decides",
            outcome.temporary_wording.join("\", \"")
        ));
    }
    None
}

/// Folds `candidate` into `target`: one memory remains.
pub fn merge_into(target: &Memory, candidate: &Memory, now: Timestamp) -> Memory {
    let mut m = target.clone();
    m.tags.extend(candidate.tags.iter().cloned());
    m.scope.paths.extend(candidate.scope.paths.iter().cloned());
    m.scope
        .modules
        .extend(candidate.scope.modules.iter().cloned());
    let (r, c) = (&mut m.routing, &candidate.routing);
    r.recommended_skills
        .extend(c.recommended_skills.iter().cloned());
    r.required_skills.extend(c.required_skills.iter().cloned());
    r.suppressed_skills
        .extend(c.suppressed_skills.iter().cloned());
    r.trigger_paths.extend(c.trigger_paths.iter().cloned());
    r.trigger_tasks.extend(c.trigger_tasks.iter().cloned());
    m.lineage
        .related
        .extend(candidate.lineage.related.iter().cloned());
    m.lineage.related.retain(|id| *id != m.id);
    m.provenance
        .evidence
        .extend(candidate.provenance.evidence.iter().cloned());
    m.importance = m.importance.max(candidate.importance);
    m.risk = m.risk.max(candidate.risk);
    // Text the target does not already say is appended, with where it came from.
    let mut added = Vec::new();
    for part in [&candidate.summary, &candidate.detail] {
        let part = part.trim();
        if !part.is_empty()
            && !m.summary.contains(part)
            && !m.detail.contains(part)
            && crate::review::text::similarity(part, &m.summary) < crate::review::DUPLICATE
        {
            added.push(part.to_owned());
        }
    }
    if !added.is_empty() {
        let by = candidate
            .provenance
            .proposed_by
            .as_deref()
            .map(|b| format!(", proposed by {b}"))
            .unwrap_or_default();
        let note = format!(
            "Merged from `{}` ({}, captured {}{by}, merged {now}):\n{}",
            candidate.id,
            candidate.provenance.source.as_str(),
            candidate.provenance.captured_at,
            added.join("\n\n")
        );
        m.detail = if m.detail.trim().is_empty() {
            note
        } else {
            format!("{}\n\n{note}", m.detail.trim_end())
        };
    }
    m.lineage.version += 1;
    m.normalize();
    m
}

/// How the reason of an approval `--as-new` starts.
const AS_NEW: &str = "approved as a new memory by a person";

/// Overrides the reviewer: the candidate is accepted as a new memory, and
/// the reason says what the reviewer had decided.
fn as_new(outcome: &mut ReviewOutcome) {
    if outcome.decision != Decision::Accept {
        let targets: Vec<&str> = outcome.targets.iter().map(MemoryId::as_str).collect();
        let about = if targets.is_empty() {
            String::new()
        } else {
            format!(" `{}`", targets.join("`, `"))
        };
        outcome.reason = format!(
            "{AS_NEW}, overriding `{}`{about} ({})",
            report::serde_name(&outcome.decision),
            outcome.reason
        );
    }
    outcome.decision = Decision::Accept;
    outcome.targets.clear();
}

fn approved_review(now: Timestamp, actor: Option<&str>, reason: Option<String>) -> Review {
    Review {
        state: Some(ReviewState::Approved),
        decided_at: Some(now),
        decided_by: actor.map(str::to_owned),
        reason,
    }
}

impl Brain {
    /// `brain review [ID..] [--all]`: the reviewer's verdict on every
    /// candidate (or the given ones); with `all`, dismissed memories too.
    pub fn review_candidates(&self, queries: &[String], all: bool) -> Result<ReviewReport, Error> {
        let catalog = self.store().load();
        let reviewer = Reviewer::new(catalog.memories.iter().map(|l| &l.record));
        let selected: Vec<&Loaded<Memory>> = if queries.is_empty() {
            catalog
                .memories
                .iter()
                .filter(|l| {
                    l.record.status == Status::Candidate
                        || (all && l.record.status == Status::Dismissed)
                })
                .collect()
        } else {
            queries
                .iter()
                .map(|q| report::find_memory(&catalog, q))
                .collect::<Result<_, _>>()?
        };
        let mut items: Vec<ReviewItem> = selected
            .into_iter()
            .map(|l| {
                let outcome = reviewer.review(&l.record);
                ReviewItem {
                    id: l.record.id.clone(),
                    path: l.path.clone(),
                    kind: l.record.kind,
                    status: l.record.status,
                    title: l.record.title.clone(),
                    safe: l.record.status == Status::Candidate
                        && unsafe_reason(&l.record, &outcome).is_none(),
                    dismissed_reason: (l.record.status == Status::Dismissed)
                        .then(|| l.record.review.reason.clone())
                        .flatten(),
                    outcome,
                }
            })
            .collect();
        items.sort_by(|a, b| a.id.cmp(&b.id));
        let safe = items.iter().filter(|i| i.safe).count();
        Ok(ReviewReport { items, safe })
    }

    /// `brain approve`: carries out the reviewer's decision for each selected
    /// candidate, in id order, each seeing the store as the previous ones left
    /// it. With `dry_run`, nothing is written.
    pub fn approve(
        &self,
        selection: &Selection,
        dry_run: bool,
        now: Timestamp,
        actor: Option<&str>,
    ) -> Result<ApproveReport, Error> {
        let lock = self.store().lock()?;
        let catalog = self.store().load();
        let mut memories: Vec<Loaded<Memory>> = catalog.memories.clone();
        let mut chosen: Vec<MemoryId> = match selection {
            Selection::Ids(queries) | Selection::AsNew(queries) => {
                let mut ids = Vec::new();
                for q in queries {
                    let l = report::find_memory(&catalog, q)?;
                    if l.record.status != Status::Candidate {
                        return Err(Error::Transition {
                            action: "approve",
                            id: l.record.id.to_string(),
                            message: format!(
                                "it is `{}`; only candidates are approved",
                                l.record.status
                            ),
                        });
                    }
                    if !ids.contains(&l.record.id) {
                        ids.push(l.record.id.clone());
                    }
                }
                ids
            }
            Selection::Safe | Selection::All => memories
                .iter()
                .filter(|l| l.record.status == Status::Candidate)
                .map(|l| l.record.id.clone())
                .collect(),
        };
        chosen.sort();
        let mut report = ApproveReport {
            dry_run,
            approved: Vec::new(),
            skipped: Vec::new(),
            redactions: Vec::new(),
        };
        for id in chosen {
            let Some(pos) = memories.iter().position(|l| l.record.id == id) else {
                continue; // merged into another candidate earlier in this batch
            };
            // Superseded by a candidate approved earlier in this run: it is
            // no candidate any more, and approving it would revive it.
            if memories[pos].record.status != Status::Candidate {
                let by = memories[pos]
                    .record
                    .lineage
                    .superseded_by
                    .as_ref()
                    .map(|b| format!(" by `{b}`"))
                    .unwrap_or_default();
                report.skipped.push(SkippedItem {
                    id,
                    reason: format!(
                        "{}{by} earlier in this run; it is no candidate any more",
                        memories[pos].record.status
                    ),
                });
                continue;
            }
            let mut outcome =
                Reviewer::new(memories.iter().map(|l| &l.record)).review(&memories[pos].record);
            if *selection == Selection::Safe
                && let Some(reason) = unsafe_reason(&memories[pos].record, &outcome)
            {
                report.skipped.push(SkippedItem { id, reason });
                continue;
            }
            if matches!(selection, Selection::AsNew(_)) {
                as_new(&mut outcome);
            }
            let item = self.carry_out(
                &lock,
                &mut memories,
                pos,
                &outcome,
                dry_run,
                now,
                actor,
                &mut report.redactions,
            )?;
            report.approved.push(item);
        }
        Ok(report)
    }

    #[allow(
        clippy::too_many_arguments,
        reason = "one call site; the inputs are all distinct"
    )]
    fn carry_out(
        &self,
        lock: &crate::store::WriteLock,
        memories: &mut Vec<Loaded<Memory>>,
        pos: usize,
        outcome: &ReviewOutcome,
        dry_run: bool,
        now: Timestamp,
        actor: Option<&str>,
        redactions: &mut Vec<Redaction>,
    ) -> Result<ApprovedItem, Error> {
        let candidate = memories[pos].clone();
        let target_pos = outcome
            .targets
            .first()
            .and_then(|t| memories.iter().position(|l| &l.record.id == t));
        let mut files = Vec::new();
        // Every record is redacted right before it is written: the merged text,
        // the approved candidate and the memory it supersedes alike.
        let mut write = |l: &mut Loaded<Memory>, files: &mut Vec<String>| -> Result<(), Error> {
            let found = secrets::redact_memory(&mut l.record);
            if !found.is_empty() {
                l.record.normalize();
                redactions.extend(found);
            }
            if !dry_run {
                self.store().rewrite_memory(lock, &l.path, &l.record)?;
            }
            files.push(l.path.clone());
            Ok(())
        };
        match (outcome.decision, target_pos) {
            (Decision::Merge, Some(t)) => {
                let merged = merge_into(&memories[t].record, &candidate.record, now);
                memories[t].record = merged;
                write(&mut memories[t], &mut files)?;
                if !dry_run {
                    self.store().remove(lock, &candidate.path)?;
                }
                files.push(candidate.path.clone());
                memories.remove(pos);
            }
            (Decision::Supersede, Some(t)) => {
                let mut new = candidate.clone();
                new.record.status = Status::Active;
                new.record.review = approved_review(now, actor, Some(outcome.reason.clone()));
                new.record
                    .lineage
                    .supersedes
                    .push(memories[t].record.id.clone());
                new.record.lineage.version = memories[t].record.lineage.version + 1;
                new.record.normalize();
                let mut old = memories[t].clone();
                // A candidate replaced before anyone approved it is settled
                // too: its review cannot stay pending.
                if old.record.status == Status::Candidate {
                    old.record.review = Review {
                        state: Some(ReviewState::Rejected),
                        decided_at: Some(now),
                        decided_by: actor.map(str::to_owned),
                        reason: Some(format!(
                            "superseded by `{}` before it was approved",
                            new.record.id
                        )),
                    };
                }
                old.record.status = Status::Superseded;
                old.record.lineage.superseded_by = Some(new.record.id.clone());
                old.record.normalize();
                write(&mut new, &mut files)?;
                write(&mut old, &mut files)?;
                memories[pos] = new;
                memories[t] = old;
            }
            (Decision::Reject, _) => {
                let mut m = candidate.clone();
                m.record.status = Status::Dismissed;
                m.record.review = Review {
                    state: Some(ReviewState::Rejected),
                    decided_at: Some(now),
                    decided_by: actor.map(str::to_owned),
                    reason: Some(outcome.reason.clone()),
                };
                m.record.normalize();
                write(&mut m, &mut files)?;
                memories[pos] = m;
            }
            _ => {
                let mut m = candidate.clone();
                m.record.status = Status::Active;
                // An override is recorded with what the reviewer had decided.
                let reason = outcome
                    .reason
                    .starts_with(AS_NEW)
                    .then(|| outcome.reason.clone());
                m.record.review = approved_review(now, actor, reason);
                m.record.normalize();
                write(&mut m, &mut files)?;
                memories[pos] = m;
            }
        }
        Ok(ApprovedItem {
            id: candidate.record.id,
            decision: outcome.decision,
            relation: outcome.relation,
            target: target_pos.and(outcome.targets.first().cloned()),
            reason: outcome.reason.clone(),
            files,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Evidence as Ev, EvidenceKind, Importance, Provenance, Source};

    fn memory(id: &str, title: &str, summary: &str) -> Memory {
        Memory::new(
            MemoryId::new(id).unwrap(),
            MemoryType::Gotcha,
            Status::Active,
            title,
            summary,
            Provenance {
                source: Source::Session,
                captured_at: "2026-01-01T00:00:00Z".parse().unwrap(),
                proposed_by: Some("Ann".into()),
                evidence: vec![Ev {
                    kind: EvidenceKind::Commit,
                    value: "abc123".into(),
                }],
            },
        )
    }

    #[test]
    fn merge_unites_fields_and_appends_new_text_with_provenance() {
        let mut target = memory(
            "t-1",
            "Webhooks arrive twice",
            "Deduplicate on the event id.",
        );
        target.tags = vec!["stripe".into()];
        let mut cand = memory(
            "c-1",
            "Webhooks arrive twice",
            "Deduplicate on the event id; refunds too.",
        );
        cand.tags = vec!["refunds".into(), "stripe".into()];
        cand.importance = Importance::High;
        cand.provenance.evidence = vec![Ev {
            kind: EvidenceKind::Session,
            value: "s-9".into(),
        }];
        let now = "2026-06-01T00:00:00Z".parse().unwrap();
        let merged = merge_into(&target, &cand, now);
        assert_eq!(merged.id, target.id);
        assert_eq!(merged.tags, ["refunds", "stripe"]);
        assert_eq!(merged.importance, Importance::High);
        assert_eq!(merged.lineage.version, 2);
        assert_eq!(merged.provenance.evidence.len(), 2);
        assert!(merged.detail.starts_with("Merged from `c-1` (session, captured 2026-01-01T00:00:00Z, proposed by Ann, merged 2026-06-01T00:00:00Z):\nDeduplicate on the event id; refunds too."), "{}", merged.detail);
        // Merging an exact duplicate appends nothing.
        let dup = memory(
            "c-2",
            "Webhooks arrive twice",
            "Deduplicate on the event id.",
        );
        assert_eq!(merge_into(&target, &dup, now).detail, "");
    }

    #[test]
    fn safety_rules() {
        let m = memory("c-1", "t", "s");
        let outcome = |decision, relation, temporary: &[&str]| ReviewOutcome {
            candidate: m.id.clone(),
            decision,
            relation,
            targets: Vec::new(),
            confidence: 1.0,
            reason: String::new(),
            temporary_wording: temporary.iter().map(|s| (*s).to_owned()).collect(),
            evidence: Vec::new(),
        };
        assert!(unsafe_reason(&m, &outcome(Decision::Accept, Relation::Novel, &[])).is_none());
        assert!(
            unsafe_reason(
                &m,
                &outcome(Decision::Accept, Relation::AmbiguousOverlap, &[])
            )
            .is_some()
        );
        assert!(unsafe_reason(&m, &outcome(Decision::Merge, Relation::Duplicate, &[])).is_some());
        assert!(
            unsafe_reason(
                &m,
                &outcome(Decision::Accept, Relation::Novel, &["for now"])
            )
            .is_some()
        );
        let mut w = m.clone();
        w.kind = MemoryType::Working;
        assert!(unsafe_reason(&w, &outcome(Decision::Accept, Relation::Novel, &[])).is_some());
        // Replacement wording, even about nothing the reviewer found.
        let cases = [
            (
                "We switched from Jest to Vitest",
                "Tests run with Vitest now.",
                true,
            ),
            (
                "Shaders moved to engine/render/shaders",
                "CMake compiles them.",
                true,
            ),
            ("Python 3.12 is no longer supported", "Use 3.13.", true),
            (
                "Run cargo clippy before pushing",
                "CI fails on any lint.",
                false,
            ),
        ];
        for (title, summary, replacement) in cases {
            let c = memory("c-2", title, summary);
            let reason = unsafe_reason(&c, &outcome(Decision::Accept, Relation::Novel, &[]));
            assert_eq!(reason.is_some(), replacement, "{title}: {reason:?}");
        }
        // A changed value of a stored memory.
        let mut changed = outcome(Decision::Accept, Relation::Novel, &[]);
        changed.evidence.push(crate::review::Evidence {
            target: MemoryId::new("t-1").unwrap(),
            target_status: Status::Active,
            same_identity: false,
            scope: crate::review::ScopeRelation::BothGlobal,
            title: 0.3,
            summary: 0.2,
            detail: 0.0,
            combined: 0.25,
            replacement_wording: Vec::new(),
            additive_wording: Vec::new(),
            adds_information: true,
            newer: true,
            lineage_link: false,
            changed_value: Some("timeout: 10 s → 30 s".into()),
            distinct_subject: None,
        });
        assert!(unsafe_reason(&m, &changed).is_some());
    }
}
