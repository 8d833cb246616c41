//! Evidence, relation and decision rules of the reviewer.
//!
//! Rules, checked in order against the closest comparable memory (and the
//! runner-up for ambiguity):
//!
//! | condition | relation | decision |
//! | --- | --- | --- |
//! | a `dismissed` memory with `combined ≥ DUPLICATE` | duplicate | reject |
//! | no comparable memory with `combined ≥ OVERLAP` | novel | accept |
//! | replacement wording, or a lineage link naming the target, and `combined ≥ OVERLAP`, scope same / broader / both global | full replacement | supersede |
//! | `combined ≥ DUPLICATE` (or same identity with `summary ≥ RELATED`) and nothing added (no new tag, path or detail, fewer than two new summary words) | duplicate | merge (one memory remains) |
//! | candidate scope narrower than the target's and `combined ≥ RELATED` | possible split | accept |
//! | `combined ≥ RELATED`, adds information or additive wording, and the runner-up is not within 0.05 | additive update | merge |
//! | anything else above `OVERLAP` | ambiguous overlap | accept, never merged automatically |

use crate::model::{Memory, Status};

use super::text::{
    ADDITIVE_WORDING, REPLACEMENT_WORDING, TEMPORARY_WORDING, find_phrases, similarity,
};
use super::{Decision, Evidence, Relation, ReviewOutcome, ScopeRelation};

/// Combined similarity at or above which two memories say the same thing.
pub const DUPLICATE: f64 = 0.85;
/// Combined similarity at or above which two memories are about the same thing.
pub const RELATED: f64 = 0.5;
/// Combined similarity below which memories are unrelated.
pub const OVERLAP: f64 = 0.35;

pub(super) fn evidence(candidate: &Memory, target: &Memory) -> Evidence {
    let title = similarity(&candidate.title, &target.title);
    let summary = similarity(&candidate.summary, &target.summary);
    let detail = similarity(&candidate.detail, &target.detail);
    let has_detail = !candidate.detail.trim().is_empty() && !target.detail.trim().is_empty();
    let combined = if has_detail {
        0.45 * title + 0.35 * summary + 0.20 * detail
    } else {
        0.55 * title + 0.45 * summary
    };
    let all_text = format!(
        "{}\n{}\n{}",
        candidate.title, candidate.summary, candidate.detail
    );
    let target_words = super::text::tokens(&format!(
        "{}\n{}\n{}",
        target.title, target.summary, target.detail
    ));
    let new_words = super::text::tokens(&candidate.summary)
        .difference(&target_words)
        .count();
    let adds_information = new_words >= 2
        || candidate.tags.iter().any(|t| !target.tags.contains(t))
        || candidate
            .scope
            .paths
            .iter()
            .any(|p| !target.scope.paths.contains(p))
        || (!candidate.detail.trim().is_empty() && detail < DUPLICATE);
    Evidence {
        target: target.id.clone(),
        target_status: target.status,
        same_identity: candidate.kind == target.kind
            && super::text::words(&candidate.title) == super::text::words(&target.title),
        scope: scope_relation(candidate, target),
        title,
        summary,
        detail,
        combined: round(combined),
        replacement_wording: owned(find_phrases(&all_text, REPLACEMENT_WORDING)),
        additive_wording: owned(find_phrases(&all_text, ADDITIVE_WORDING)),
        adds_information,
        newer: candidate.provenance.captured_at > target.provenance.captured_at,
        lineage_link: candidate.lineage.supersedes.contains(&target.id),
    }
}

fn owned(v: Vec<&str>) -> Vec<String> {
    v.into_iter().map(str::to_owned).collect()
}

/// Rounds to 4 decimals so that scores print and compare stably.
fn round(x: f64) -> f64 {
    (x * 10_000.0).round() / 10_000.0
}

/// Whether the path glob or module `narrow` lies inside `broad`.
fn covers(broad: &str, narrow: &str) -> bool {
    if broad == narrow {
        return true;
    }
    let base = broad.trim_end_matches("/**").trim_end_matches("/*");
    base != broad && narrow.starts_with(base) && narrow[base.len()..].starts_with('/')
}

fn scope_relation(candidate: &Memory, target: &Memory) -> ScopeRelation {
    let items = |m: &Memory| -> Vec<String> {
        m.scope
            .paths
            .iter()
            .cloned()
            .chain(m.scope.modules.iter().map(|x| format!("module:{x}")))
            .collect()
    };
    let (c, t) = (items(candidate), items(target));
    match (c.is_empty(), t.is_empty()) {
        (true, true) => return ScopeRelation::BothGlobal,
        (false, true) => return ScopeRelation::Narrower,
        (true, false) => return ScopeRelation::Broader,
        _ => {}
    }
    let c_in_t = c.iter().all(|x| t.iter().any(|y| covers(y, x)));
    let t_in_c = t.iter().all(|y| c.iter().any(|x| covers(x, y)));
    match (c_in_t, t_in_c) {
        (true, true) => ScopeRelation::Same,
        (true, false) => ScopeRelation::Narrower,
        (false, true) => ScopeRelation::Broader,
        (false, false) => {
            let touch = c
                .iter()
                .any(|x| t.iter().any(|y| covers(x, y) || covers(y, x)));
            if touch {
                ScopeRelation::Overlapping
            } else {
                ScopeRelation::Disjoint
            }
        }
    }
}

pub(super) fn outcome(candidate: &Memory, evidence: Vec<Evidence>) -> ReviewOutcome {
    let text = format!(
        "{}\n{}\n{}",
        candidate.title, candidate.summary, candidate.detail
    );
    let temporary_wording = owned(find_phrases(&text, TEMPORARY_WORDING));
    let (relation, decision, targets, confidence, reason) = classify(&evidence);
    ReviewOutcome {
        candidate: candidate.id.clone(),
        decision,
        relation,
        targets,
        confidence: round(confidence),
        reason,
        temporary_wording,
        evidence,
    }
}

type Verdict = (Relation, Decision, Vec<crate::model::MemoryId>, f64, String);

/// A candidate that repeats dismissed knowledge is rejected, whatever else matches.
fn rejected_repeat(all: &[Evidence]) -> Option<Verdict> {
    let dismissed = all
        .iter()
        .find(|e| e.target_status == Status::Dismissed && e.combined >= DUPLICATE)?;
    Some((
        Relation::Duplicate,
        Decision::Reject,
        vec![dismissed.target.clone()],
        dismissed.combined,
        format!(
            "repeats `{}`, which was dismissed in review (similarity {:.2})",
            dismissed.target, dismissed.combined
        ),
    ))
}

fn classify(all: &[Evidence]) -> Verdict {
    if let Some(verdict) = rejected_repeat(all) {
        return verdict;
    }
    let live: Vec<Evidence> = all
        .iter()
        .filter(|e| e.target_status != Status::Dismissed)
        .cloned()
        .collect();
    let evidence = live.as_slice();
    let Some(best) = evidence
        .first()
        .filter(|e| e.combined >= OVERLAP || e.same_identity)
    else {
        let closest = evidence.first().map_or(0.0, |e| e.combined);
        return (
            Relation::Novel,
            Decision::Accept,
            Vec::new(),
            1.0 - closest,
            "nothing comparable is stored".to_owned(),
        );
    };
    let target = vec![best.target.clone()];
    let replaces = !best.replacement_wording.is_empty() || best.lineage_link;
    let wide_enough = matches!(
        best.scope,
        ScopeRelation::Same | ScopeRelation::Broader | ScopeRelation::BothGlobal
    );
    if replaces && wide_enough {
        let why = if best.lineage_link {
            "it names the memory in `supersedes`".to_owned()
        } else {
            format!("it says \"{}\"", best.replacement_wording.join("\", \""))
        };
        return (
            Relation::FullReplacement,
            Decision::Supersede,
            target,
            best.combined.max(0.6),
            format!(
                "replaces `{}`: same topic ({:.2}) and {why}",
                best.target, best.combined
            ),
        );
    }
    let duplicate = best.combined >= DUPLICATE || (best.same_identity && best.summary >= RELATED);
    if duplicate && !best.adds_information {
        return (
            Relation::Duplicate,
            Decision::Merge,
            target,
            best.combined,
            format!(
                "duplicate of `{}` (similarity {:.2}) and adds nothing: merge into it",
                best.target, best.combined
            ),
        );
    }
    if best.scope == ScopeRelation::Narrower && best.combined >= RELATED && !best.same_identity {
        return (
            Relation::PossibleSplit,
            Decision::Accept,
            target,
            best.combined,
            format!(
                "narrows `{}` to part of its scope; keep both and consider linking them",
                best.target
            ),
        );
    }
    let runner_up_close = evidence
        .get(1)
        .is_some_and(|second| best.combined - second.combined < 0.05 && second.combined >= RELATED);
    let additive = best.adds_information || !best.additive_wording.is_empty();
    if (best.combined >= RELATED || best.same_identity) && additive && !runner_up_close {
        return (
            Relation::AdditiveUpdate,
            Decision::Merge,
            target,
            best.combined,
            format!(
                "adds to `{}` (similarity {:.2}): merge into it",
                best.target, best.combined
            ),
        );
    }
    ambiguous(evidence, best)
}

/// Overlap without a clear relation: accepted, never merged automatically.
fn ambiguous(evidence: &[Evidence], best: &Evidence) -> Verdict {
    let mut targets: Vec<_> = evidence
        .iter()
        .filter(|e| e.combined >= OVERLAP)
        .map(|e| e.target.clone())
        .collect();
    targets.truncate(3);
    (
        Relation::AmbiguousOverlap,
        Decision::Accept,
        targets,
        1.0 - best.combined,
        format!(
            "overlaps `{}` (similarity {:.2}) without a clear relation; a person should decide",
            best.target, best.combined
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{MemoryId, MemoryType, Provenance, Source, Status};
    use crate::review::Reviewer;

    fn memory(id: &str, kind: MemoryType, title: &str, summary: &str, paths: &[&str]) -> Memory {
        let mut m = Memory::new(
            MemoryId::new(id).unwrap(),
            kind,
            Status::Active,
            title,
            summary,
            Provenance {
                source: Source::Manual,
                captured_at: "2026-01-01T00:00:00Z".parse().unwrap(),
                proposed_by: None,
                evidence: Vec::new(),
            },
        );
        m.scope.paths = paths.iter().map(|p| (*p).to_owned()).collect();
        m
    }

    fn store() -> Vec<Memory> {
        use MemoryType::{Convention, Decision, Gotcha};
        vec![
            memory(
                "ledger-append-only-0001",
                Gotcha,
                "Ledger entries are append-only",
                "Never UPDATE or DELETE rows in ledger_entries; post a reversing entry instead.",
                &["src/ledger/**"],
            ),
            memory(
                "raw-sql-0002",
                Decision,
                "Use raw SQL with pg for data access",
                "All queries are hand-written SQL through node-postgres.",
                &["src/db/**"],
            ),
            memory(
                "integer-cents-0003",
                Decision,
                "Use integer cents for all money amounts",
                "Amounts are stored and computed as integer cents, never floats.",
                &[],
            ),
            memory(
                "zod-bodies-0004",
                Convention,
                "Validate request bodies with zod",
                "Every handler parses its body with a zod schema before use.",
                &["src/api/**"],
            ),
            memory(
                "webhook-dedupe-0005",
                Gotcha,
                "Stripe webhooks arrive twice",
                "Deduplicate Stripe webhooks on the event id before processing.",
                &["src/webhooks/**"],
            ),
        ]
    }

    struct Case {
        name: &'static str,
        kind: MemoryType,
        title: &'static str,
        summary: &'static str,
        paths: &'static [&'static str],
        tags: &'static [&'static str],
        relation: Relation,
        decision: Decision,
        target: Option<&'static str>,
    }

    #[test]
    fn reviewer_decisions_on_realistic_candidates() {
        use MemoryType::{Convention, Decision as D, Gotcha, Pattern};
        let cases = [
            Case {
                name: "verbatim duplicate",
                kind: Gotcha,
                title: "Ledger entries are append-only",
                summary: "Never UPDATE or DELETE rows in ledger_entries; post a reversing entry instead.",
                paths: &["src/ledger/**"],
                tags: &[],
                relation: Relation::Duplicate,
                decision: Decision::Merge,
                target: Some("ledger-append-only-0001"),
            },
            Case {
                name: "reworded duplicate",
                kind: Gotcha,
                title: "Ledger entries are append only",
                summary: "Never update or delete rows in ledger_entries; post a reversing entry.",
                paths: &["src/ledger/**"],
                tags: &[],
                relation: Relation::Duplicate,
                decision: Decision::Merge,
                target: Some("ledger-append-only-0001"),
            },
            Case {
                name: "replacement wording",
                kind: D,
                title: "Use Kysely for data access",
                summary: "New data access code uses Kysely query builder instead of raw SQL with node-postgres.",
                paths: &["src/db/**"],
                tags: &[],
                relation: Relation::FullReplacement,
                decision: Decision::Supersede,
                target: Some("raw-sql-0002"),
            },
            Case {
                name: "additive update with new tags",
                kind: Gotcha,
                title: "Stripe webhooks arrive twice",
                summary: "Deduplicate Stripe webhooks on the event id before processing; refunds too.",
                paths: &["src/webhooks/**"],
                tags: &["refunds"],
                relation: Relation::AdditiveUpdate,
                decision: Decision::Merge,
                target: Some("webhook-dedupe-0005"),
            },
            Case {
                name: "narrower scope splits",
                kind: Convention,
                title: "Validate webhook request bodies with zod",
                summary: "Every webhook handler parses its body with a zod schema before use.",
                paths: &["src/api/webhooks/**"],
                tags: &[],
                relation: Relation::PossibleSplit,
                decision: Decision::Accept,
                target: Some("zod-bodies-0004"),
            },
            Case {
                name: "novel topic",
                kind: Pattern,
                title: "Use the outbox pattern for webhook delivery",
                summary: "Write outgoing events to an outbox table in the same transaction.",
                paths: &[],
                tags: &[],
                relation: Relation::Novel,
                decision: Decision::Accept,
                target: None,
            },
            Case {
                name: "other type is not comparable",
                kind: Convention,
                title: "Ledger entries are append-only",
                summary: "Never UPDATE or DELETE rows in ledger_entries; post a reversing entry instead.",
                paths: &["src/ledger/**"],
                tags: &[],
                relation: Relation::Novel,
                decision: Decision::Accept,
                target: None,
            },
            Case {
                name: "disjoint scope is not comparable",
                kind: Convention,
                title: "Validate request bodies with zod",
                summary: "Every handler parses its body with a zod schema before use.",
                paths: &["admin/**"],
                tags: &[],
                relation: Relation::Novel,
                decision: Decision::Accept,
                target: None,
            },
            Case {
                name: "partial writes is not replacement wording",
                kind: Gotcha,
                title: "Ledger entries are append-only",
                summary: "Partial writes to ledger_entries are never fixed with UPDATE; post a reversing entry.",
                paths: &["src/ledger/**"],
                tags: &[],
                relation: Relation::AdditiveUpdate,
                decision: Decision::Merge,
                target: Some("ledger-append-only-0001"),
            },
        ];
        let stored = store();
        let reviewer = Reviewer::new(stored.iter());
        for c in cases {
            let mut m = memory("candidate-ffff", c.kind, c.title, c.summary, c.paths);
            m.status = Status::Candidate;
            m.tags = c.tags.iter().map(|t| (*t).to_owned()).collect();
            m.provenance.captured_at = "2026-06-01T00:00:00Z".parse().unwrap();
            let out = reviewer.review(&m);
            assert_eq!(
                (out.relation, out.decision),
                (c.relation, c.decision),
                "{}: {out:#?}",
                c.name
            );
            assert_eq!(
                out.targets.first().map(MemoryId::as_str),
                c.target,
                "{}: {out:#?}",
                c.name
            );
            assert!(!out.reason.is_empty());
        }
    }

    #[test]
    fn repeating_dismissed_knowledge_is_rejected() {
        let mut stored = store();
        stored[4].status = Status::Dismissed;
        let reviewer = Reviewer::new(stored.iter());
        let mut m = stored[4].clone();
        m.id = MemoryId::new("candidate-ffff").unwrap();
        m.status = Status::Candidate;
        let out = reviewer.review(&m);
        assert_eq!(
            (out.relation, out.decision),
            (Relation::Duplicate, Decision::Reject),
            "{out:#?}"
        );
        assert!(out.reason.contains("dismissed"), "{}", out.reason);
        // Related but not a repeat: the dismissed memory is ignored.
        m.title = "Stripe webhooks arrive out of order".into();
        m.summary = "Order Stripe events by their created timestamp, not arrival.".into();
        assert_eq!(reviewer.review(&m).decision, Decision::Accept);
    }

    #[test]
    fn temporary_wording_is_reported() {
        let stored = store();
        let reviewer = Reviewer::new(stored.iter());
        let m = memory(
            "candidate-ffff",
            MemoryType::Working,
            "Skip the slow e2e suite for now",
            "Temporary until the flaky checkout spec is fixed.",
            &[],
        );
        let out = reviewer.review(&m);
        assert_eq!(out.temporary_wording, ["for now", "temporary"]);
    }

    #[test]
    fn scope_relations() {
        use ScopeRelation::*;
        let cases: &[(&[&str], &[&str], ScopeRelation)] = &[
            (&[], &[], BothGlobal),
            (&["src/a/**"], &["src/a/**"], Same),
            (&["src/a/b.ts"], &["src/a/**"], Narrower),
            (&["src/a/**"], &["src/a/b/**"], Broader),
            (
                &["src/a/**", "src/c/**"],
                &["src/a/**", "src/d/**"],
                Overlapping,
            ),
            (&["src/a/**"], &["src/ab/**"], Disjoint),
            (&["src/a/**"], &[], Narrower),
        ];
        for (c, t, expected) in cases {
            let cm = memory("c-1", MemoryType::Decision, "t", "s", c);
            let tm = memory("t-1", MemoryType::Decision, "t", "s", t);
            assert_eq!(scope_relation(&cm, &tm), *expected, "{c:?} vs {t:?}");
        }
    }

    #[test]
    fn reviewing_is_deterministic_and_ignores_the_candidate_itself() {
        let mut stored = store();
        let mut cand = memory(
            "candidate-ffff",
            MemoryType::Gotcha,
            "Ledger entries are append-only",
            "Never UPDATE ledger rows.",
            &["src/ledger/**"],
        );
        cand.status = Status::Candidate;
        stored.push(cand.clone());
        let a = Reviewer::new(stored.iter()).review(&cand);
        stored.reverse();
        let b = Reviewer::new(stored.iter()).review(&cand);
        assert_eq!(a, b);
        assert!(a.evidence.iter().all(|e| e.target != cand.id));
    }

    #[test]
    fn the_index_finds_the_duplicate_among_thousands() {
        let topics = [
            "ledger", "refund", "invoice", "webhook", "session", "cache", "export", "tenant",
        ];
        let verbs = [
            "retry", "lock", "validate", "batch", "encrypt", "log", "paginate", "round",
        ];
        let mut stored = Vec::new();
        for i in 0..3000 {
            let t = topics[i % topics.len()];
            let v = verbs[(i / topics.len()) % verbs.len()];
            stored.push(memory(
                &format!("m-{i:05}"),
                MemoryType::Gotcha,
                &format!("Always {v} {t} jobs variant {i}"),
                &format!("When touching {t} code, {v} carefully; case {i}."),
                &[],
            ));
        }
        let reviewer = Reviewer::new(stored.iter());
        let mut cand = stored[1234].clone();
        cand.id = MemoryId::new("candidate-ffff").unwrap();
        cand.status = Status::Candidate;
        let out = reviewer.review(&cand);
        assert_eq!(out.relation, Relation::Duplicate, "{out:#?}");
        assert_eq!(out.targets[0].as_str(), "m-01234");
        assert!(out.evidence.len() <= 5);
        let shared = reviewer.index.candidates(
            &super::super::topic_tokens(&cand),
            super::super::MAX_TARGETS,
        );
        assert!(shared.len() <= super::super::MAX_TARGETS);
    }
}
