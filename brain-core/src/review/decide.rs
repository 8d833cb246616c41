//! Evidence, relation and decision rules of the reviewer.
//!
//! Rules, checked in order against the closest comparable memory (and the
//! runner-up for ambiguity):
//!
//! | condition | relation | decision |
//! | --- | --- | --- |
//! | a `dismissed` memory with `combined ≥ DUPLICATE` | duplicate | reject |
//! | a replacement clause restates a memory's title ("we no longer deploy with Capistrano"), `combined ≥ RESTATED`, scope same / broader / both global | full replacement | supersede |
//! | no comparable memory with `combined ≥ OVERLAP` | novel | accept |
//! | replacement wording about the target, or a lineage link naming it, and `combined ≥ OVERLAP`, scope same / broader / both global | full replacement | supersede |
//! | the candidate says the opposite of the target ("before" / "after", "always" / "never") | ambiguous overlap | accept, never merged automatically |
//! | `combined ≥ DUPLICATE` (or same identity with `summary ≥ RELATED`, or `combined ≥ RELATED` in the same scope) and nothing added (no new tag, path, module or detail, fewer than two new summary words) | duplicate | merge (one memory remains) |
//! | candidate scope narrower than the target's and `combined ≥ RELATED` | possible split | accept |
//! | `combined ≥ RELATED` (or same identity), `summary ≥ OVERLAP`, adds information or additive wording, and the runner-up is not within 0.05 | additive update | merge |
//! | anything else above `OVERLAP` | ambiguous overlap | accept, never merged automatically |
//!
//! Replacement wording is about the target only when what it says is replaced
//! is named in the target (more than half of the words after "instead of",
//! "no longer", "replaces", before "replaced by", "in favour of", around
//! "deprecated", "switched off"..., see [`text::replacements`]), or when it only
//! refers back ("we no longer do it this way") in a candidate about the same
//! thing (`combined ≥ RELATED`). A phrase the target itself uses about the same
//! thing ("use date-fns instead of Moment.js" repeated) is part of the rule, not
//! a replacement of it. So "partial writes" is no "partial update", "the index
//! API replaces the whole document" does not replace a memory about `_update`,
//! and "round with `HALF_EVEN` instead of `HALF_UP`" does not replace "use
//! `BigDecimal` for money".

use crate::model::{Memory, Status};

use super::text::{
    self, ADDITIVE_WORDING, REPLACEMENT_WORDING, TEMPORARY_WORDING, find_phrases, similarity,
};
use super::{Decision, Evidence, Relation, ReviewOutcome, ScopeRelation};

/// Combined similarity at or above which two memories say the same thing.
pub const DUPLICATE: f64 = 0.85;
/// Combined similarity at or above which two memories are about the same thing.
pub const RELATED: f64 = 0.5;
/// Combined similarity below which memories are unrelated.
pub const OVERLAP: f64 = 0.35;
/// Combined similarity from which a replacement clause that restates a
/// memory's title replaces it, although the rest of the text is new.
const RESTATED: f64 = 0.25;

/// The evidence on one target with the signals the rules use but the report
/// does not show.
#[derive(Clone, Debug)]
pub(super) struct Scored {
    /// The reported evidence.
    pub(super) evidence: Evidence,
    /// A replacement phrase of the candidate names (most of) the target's
    /// title: "we no longer deploy with Capistrano from the bastion host".
    pub(super) restates_title: bool,
    /// Opposite words: the candidate says the first where the target says the
    /// second.
    pub(super) opposite: Option<(&'static str, &'static str)>,
}

pub(super) fn evidence(candidate: &Memory, target: &Memory) -> Scored {
    let title = similarity(&candidate.title, &target.title);
    let summary = similarity(&candidate.summary, &target.summary);
    let detail = similarity(&candidate.detail, &target.detail);
    let has_detail = !candidate.detail.trim().is_empty() && !target.detail.trim().is_empty();
    let combined = round(if has_detail {
        0.45 * title + 0.35 * summary + 0.20 * detail
    } else {
        0.55 * title + 0.45 * summary
    });
    let all_text = format!(
        "{}\n{}\n{}",
        candidate.title, candidate.summary, candidate.detail
    );
    let target_text = format!("{}\n{}\n{}", target.title, target.summary, target.detail);
    let target_words = text::tokens(&target_text);
    let new_words = text::tokens(&candidate.summary)
        .difference(&target_words)
        .count();
    let adds_information = new_words >= 2
        || candidate.tags.iter().any(|t| !target.tags.contains(t))
        || candidate
            .scope
            .paths
            .iter()
            .any(|p| !target.scope.paths.contains(p))
        || candidate
            .scope
            .modules
            .iter()
            .any(|m| !target.scope.modules.contains(m))
        || (!candidate.detail.trim().is_empty() && detail < DUPLICATE);
    let (replacement_wording, restates_title) =
        replacement_of(&all_text, &target_text, &target.title, combined);
    let evidence = Evidence {
        target: target.id.clone(),
        target_status: target.status,
        same_identity: candidate.kind == target.kind
            && text::words(&candidate.title) == text::words(&target.title),
        scope: scope_relation(candidate, target),
        title,
        summary,
        detail,
        combined,
        replacement_wording,
        additive_wording: owned(find_phrases(&all_text, ADDITIVE_WORDING)),
        adds_information,
        newer: candidate.provenance.captured_at > target.provenance.captured_at,
        lineage_link: candidate.lineage.supersedes.contains(&target.id),
    };
    Scored {
        evidence,
        restates_title,
        opposite: text::opposite_words(
            &format!("{}\n{}", candidate.title, candidate.summary),
            &format!("{}\n{}", target.title, target.summary),
        ),
    }
}

/// The replacement phrases of `candidate` that are about the target, in
/// [`REPLACEMENT_WORDING`] order, and whether one of them restates the
/// target's title.
///
/// A phrase is about the target when more than half of the words naming what
/// it replaces occur in the target, or when it only refers back ("we no longer
/// do it this way") and the candidate is about the same thing (`combined ≥
/// RELATED`). A phrase the target uses itself about the same thing is part of
/// the rule both state, not a replacement.
fn replacement_of(
    candidate: &str,
    target: &str,
    target_title: &str,
    combined: f64,
) -> (Vec<String>, bool) {
    let target_words = text::tokens(target);
    let title_words = text::tokens(target_title);
    let own = text::replacements(target);
    let mut found: Vec<&str> = Vec::new();
    let mut restates_title = false;
    for r in text::replacements(candidate) {
        let said_by_target = own.iter().any(|o| {
            o.phrase == r.phrase
                && ((o.refers_back() && r.refers_back())
                    || o.objects
                        .iter()
                        .any(|a| r.objects.iter().any(|b| !a.is_disjoint(b))))
        });
        let about_target = if r.refers_back() {
            combined >= RELATED
        } else {
            r.objects
                .iter()
                .any(|o| 2 * o.intersection(&target_words).count() > o.len())
        };
        if said_by_target || !about_target {
            continue;
        }
        found.push(r.phrase);
        restates_title |= r.objects.iter().any(|o| {
            let n = o.intersection(&title_words).count();
            n >= 2 && 3 * n >= 2 * title_words.len()
        });
    }
    let phrases = REPLACEMENT_WORDING
        .iter()
        .filter(|p| found.contains(p))
        .map(|p| (*p).to_owned())
        .collect();
    (phrases, restates_title)
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

pub(super) fn outcome(candidate: &Memory, scored: Vec<Scored>) -> ReviewOutcome {
    let text = format!(
        "{}\n{}\n{}",
        candidate.title, candidate.summary, candidate.detail
    );
    let temporary_wording = owned(find_phrases(&text, TEMPORARY_WORDING));
    let (relation, decision, targets, confidence, reason) = classify(&scored);
    ReviewOutcome {
        candidate: candidate.id.clone(),
        decision,
        relation,
        targets,
        confidence: round(confidence),
        reason,
        temporary_wording,
        evidence: scored.into_iter().map(|s| s.evidence).collect(),
    }
}

type Verdict = (Relation, Decision, Vec<crate::model::MemoryId>, f64, String);

/// A candidate that repeats dismissed knowledge is rejected, whatever else matches.
fn rejected_repeat(all: &[Scored]) -> Option<Verdict> {
    let dismissed = all
        .iter()
        .map(|s| &s.evidence)
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

/// Whether a candidate with this scope can replace the target: it covers at
/// least everything the target covered.
fn wide_enough(scope: ScopeRelation) -> bool {
    matches!(
        scope,
        ScopeRelation::Same | ScopeRelation::Broader | ScopeRelation::BothGlobal
    )
}

fn supersede(best: &Evidence) -> Verdict {
    let why = if best.lineage_link {
        "it names the memory in `supersedes`".to_owned()
    } else {
        format!("it says \"{}\"", best.replacement_wording.join("\", \""))
    };
    (
        Relation::FullReplacement,
        Decision::Supersede,
        vec![best.target.clone()],
        best.combined.max(0.6),
        format!(
            "replaces `{}`: same topic ({:.2}) and {why}",
            best.target, best.combined
        ),
    )
}

fn classify(all: &[Scored]) -> Verdict {
    if let Some(verdict) = rejected_repeat(all) {
        return verdict;
    }
    let live: Vec<&Scored> = all
        .iter()
        .filter(|s| s.evidence.target_status != Status::Dismissed)
        .collect();
    // "We no longer <the memory's title>": replaced, however new the rest is.
    if let Some(restated) = live.iter().find(|s| {
        s.restates_title && s.evidence.combined >= RESTATED && wide_enough(s.evidence.scope)
    }) {
        return supersede(&restated.evidence);
    }
    let Some(scored) = live
        .first()
        .filter(|s| s.evidence.combined >= OVERLAP || s.evidence.same_identity)
    else {
        let closest = live.first().map_or(0.0, |s| s.evidence.combined);
        return (
            Relation::Novel,
            Decision::Accept,
            Vec::new(),
            1.0 - closest,
            "nothing comparable is stored".to_owned(),
        );
    };
    let best = &scored.evidence;
    let target = vec![best.target.clone()];
    let replaces = !best.replacement_wording.is_empty() || best.lineage_link;
    if replaces && wide_enough(best.scope) {
        return supersede(best);
    }
    if let Some((said, stored)) = scored.opposite {
        return ambiguous(
            &live,
            best,
            format!(
                "says \"{said}\" where `{}` says \"{stored}\" (similarity {:.2}): \
                 a contradiction, a person should decide",
                best.target, best.combined
            ),
        );
    }
    let duplicate = best.combined >= DUPLICATE
        || (best.same_identity && best.summary >= RELATED)
        || (best.combined >= RELATED
            && matches!(best.scope, ScopeRelation::Same | ScopeRelation::BothGlobal));
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
    if best.scope == ScopeRelation::Narrower && best.combined >= RELATED {
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
    let runner_up_close = live.get(1).is_some_and(|second| {
        best.combined - second.evidence.combined < 0.05 && second.evidence.combined >= RELATED
    });
    let additive = best.adds_information || !best.additive_wording.is_empty();
    // An update restates what it updates: a shared title over another summary is not one.
    if (best.combined >= RELATED || best.same_identity)
        && best.summary >= OVERLAP
        && additive
        && !runner_up_close
    {
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
    ambiguous(
        &live,
        best,
        format!(
            "overlaps `{}` (similarity {:.2}) without a clear relation; a person should decide",
            best.target, best.combined
        ),
    )
}

/// Overlap without a clear relation: accepted, never merged automatically.
fn ambiguous(live: &[&Scored], best: &Evidence, reason: String) -> Verdict {
    let mut targets: Vec<_> = live
        .iter()
        .map(|s| &s.evidence)
        .filter(|e| e.combined >= OVERLAP)
        .map(|e| e.target.clone())
        .collect();
    targets.truncate(3);
    (
        Relation::AmbiguousOverlap,
        Decision::Accept,
        targets,
        1.0 - best.combined,
        reason,
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
    fn replacement_wording_must_be_about_the_target() {
        use MemoryType::{Convention, Decision as D};
        let review = |target: Memory, title: &str, summary: &str| {
            let stored = [target];
            let mut m = memory("candidate-ffff", stored[0].kind, title, summary, &[]);
            m.status = Status::Candidate;
            m.provenance.captured_at = "2026-06-01T00:00:00Z".parse().unwrap();
            let out = Reviewer::new(stored.iter()).review(&m);
            (out.relation, out.decision)
        };
        // What "instead of" replaces is not in the target: a new, distinct rule.
        let (_, decision) = review(
            memory(
                "bigdecimal-0001",
                Convention,
                "Use BigDecimal for currency amounts",
                "Currency math uses BigDecimal; double is never used for money.",
                &[],
            ),
            "Round currency amounts with HALF_EVEN",
            "Currency amounts are rounded with HALF_EVEN instead of HALF_UP.",
        );
        assert_eq!(decision, Decision::Accept);
        // The target says "instead of Moment.js" itself: a repeat, not a replacement.
        let (relation, decision) = review(
            memory(
                "date-fns-0001",
                Convention,
                "Use date-fns instead of Moment.js",
                "Date code uses date-fns instead of Moment.js; Moment is not tree-shakeable.",
                &[],
            ),
            "Use date-fns instead of Moment.js",
            "Date code uses date-fns instead of Moment.js, because Moment is not tree-shakeable.",
        );
        assert_eq!((relation, decision), (Relation::Duplicate, Decision::Merge));
        // "We no longer <its title>" replaces it although the rest is new.
        let (relation, decision) = review(
            memory(
                "capistrano-0001",
                D,
                "Deploy with Capistrano from the bastion host",
                "Production deploys run cap production deploy from the bastion host.",
                &[],
            ),
            "Deploy from GitHub Actions on merge to main",
            "We no longer deploy with Capistrano from the bastion host; \
             the deploy workflow ships every merge to main.",
        );
        assert_eq!(
            (relation, decision),
            (Relation::FullReplacement, Decision::Supersede)
        );
        // Saying the opposite is a contradiction for a person, never a merge.
        let (relation, decision) = review(
            memory(
                "migrations-0001",
                Convention,
                "Run migrations before deploying the new code",
                "The pipeline applies migrations before the new release starts.",
                &[],
            ),
            "Run migrations after deploying the new code",
            "The pipeline applies migrations after the new release starts, so code tolerates the old schema.",
        );
        assert_eq!(
            (relation, decision),
            (Relation::AmbiguousOverlap, Decision::Accept)
        );
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
