//! The routing engine: which skills, workflows and task classes an agent
//! should run, prefer, avoid, or run only after human review, for one task.
//!
//! [`route`] is a pure function of a [`RouteContext`]: the memories the
//! caller matched to the task, every preference, the optional session
//! profile, the task text and paths, and `now` (for eligibility only). It
//! returns a [`RoutePlan`], which `brain route --format json` prints.
//!
//! Sources are sorted into seven layers ([`Layer`]), highest priority first:
//!
//! 1. explicit suppression by a matched memory (`suppressed_skills`),
//! 2. a matched memory's `required_skills`,
//! 3. the session profile,
//! 4. negative preferences (`avoid`, `require_review`),
//! 5. positive preferences (`prefer`),
//! 6. recommendations of `required` and `prefer` memories,
//! 7. recommendations of `optional` memories.
//!
//! **Invariant:** the highest layer that names a skill decides its slot. A
//! lower layer never overrides a higher one, whatever the number or strength
//! of its sources: nothing is summed. (RepoBrain summed scores, so a global
//! `avoid` preference plus a suppression could block a required skill; its
//! layer list was descriptive only.) Within a layer the cautious claim wins
//! (review, then avoid, then prefer), and ties break on risk, importance and
//! confidence (descending), then id. Required vs suppressed is the one pair
//! whose outcome depends on the suppressor: `blocked` when it is high-risk or
//! critical, else `human_review`.
//!
//! The engine does not pick memories (the caller does, with inject's
//! matching) and does not touch the file system, the clock or the
//! environment. See `docs/routing.md` for the rules as users see them.

mod input;
mod plan;
mod plan_id;
mod report;
mod resolve;

#[cfg(test)]
mod tests;

use std::collections::{BTreeMap, BTreeSet};

pub use input::{MatchedMemory, RouteContext, SessionPolicy, normalize_skill, preference_eligible};
pub use plan::{
    Claim, Conflict, ConflictKind, ConflictRule, DisplayMode, InvocationPlan, Layer,
    MAX_CONFLICT_EVIDENCE, MAX_EVIDENCE, ResolvedSkill, RoutePlan, SkillExplanation, Slot,
    SlotFamily, Source, SourceKind, SourceRef,
};
pub use report::{
    CONTRACT_VERSION, MAX_MATCHED, MatchedRef, Policy, RouteContextBlock, RouteReport,
};

use crate::model::{InvocationMode, Memory, Preference, PreferenceKind, ReviewState, Status};
use input::{Task, memory_triggers, preference_applies};

/// Routes one task: resolves every skill that an applicable source names into
/// exactly one slot of the plan, with conflicts, explanation and warnings.
pub fn route(ctx: &RouteContext<'_>) -> RoutePlan {
    let task = Task::new(ctx.task, ctx.paths);
    let mut warnings = Vec::new();
    let mut by_skill: BTreeMap<String, Vec<Source>> = BTreeMap::new();

    let memories = eligible_memories(ctx, &mut warnings);
    for mm in &memories {
        collect_memory(mm, &task, &mut by_skill, &mut warnings);
    }

    let preferences = eligible_preferences(ctx);
    for p in &preferences {
        collect_preference(p, &task, &mut by_skill);
    }

    let session = ctx.session;
    if let Some(s) = session {
        collect_session(s, &mut by_skill);
    }

    let plan_id = plan_id::plan_id(ctx.task, &task.paths, &memories, &preferences, session);

    let mut plan = InvocationPlan::default();
    let mut resolved_skills = Vec::new();
    let mut conflicts = Vec::new();
    let mut routing_explanation = BTreeMap::new();
    for (skill, sources) in by_skill {
        let Some(r) = resolve::resolve(&skill, sources) else {
            continue;
        };
        plan.slot_mut(r.resolved.slot).push(skill.clone());
        warnings.extend(r.warnings);
        conflicts.extend(r.conflicts);
        routing_explanation.insert(skill, r.explanation);
        resolved_skills.push(r.resolved);
    }
    // Names come out of a BTreeMap, so each slot list is already sorted and
    // free of duplicates; resolved skills are ordered by slot, then name.
    resolved_skills.sort_by(|a: &ResolvedSkill, b: &ResolvedSkill| {
        a.slot.cmp(&b.slot).then_with(|| a.skill.cmp(&b.skill))
    });
    conflicts.sort_by(|a: &Conflict, b: &Conflict| {
        a.skill
            .cmp(&b.skill)
            .then_with(|| a.kind.cmp(&b.kind))
            .then_with(|| a.rule.cmp(&b.rule))
    });

    let needs_review = !plan.blocked.is_empty()
        || !plan.human_review.is_empty()
        || conflicts
            .iter()
            .any(|c| c.kind == ConflictKind::RequiredVsSuppressed);
    RoutePlan {
        plan_id,
        display_mode: if needs_review {
            DisplayMode::NeedsReview
        } else {
            DisplayMode::SilentOk
        },
        invocation_plan: plan,
        resolved_skills,
        conflicts,
        routing_explanation,
        warnings,
    }
}

/// Why a memory is not eligible, for the warning.
fn ineligibility(m: &Memory, now: jiff::Timestamp) -> String {
    if m.status != Status::Active {
        format!("status `{}`", m.status)
    } else if m.lineage.superseded_by.is_some() {
        "superseded".to_owned()
    } else if m.review.state == Some(ReviewState::Pending) {
        "pending review".to_owned()
    } else if !m.validity.holds_at(now) {
        "outside its validity window or expired".to_owned()
    } else {
        "not eligible".to_owned()
    }
}

/// The eligible matched memories, one per id (reasons of duplicates merged,
/// the smallest path kept), sorted by id.
fn eligible_memories<'a>(
    ctx: &RouteContext<'a>,
    warnings: &mut Vec<String>,
) -> Vec<MatchedMemory<'a>> {
    let mut by_id: BTreeMap<&str, MatchedMemory<'a>> = BTreeMap::new();
    let mut ignored: BTreeMap<&str, String> = BTreeMap::new();
    for mm in ctx.memories {
        let m = mm.memory;
        if !m.eligible(ctx.now) {
            ignored.insert(m.id.as_str(), ineligibility(m, ctx.now));
            continue;
        }
        match by_id.get_mut(m.id.as_str()) {
            Some(seen) => {
                seen.reasons.extend(mm.reasons.iter().cloned());
                if mm.path < seen.path {
                    seen.path = mm.path;
                    seen.memory = mm.memory;
                }
            }
            None => {
                by_id.insert(m.id.as_str(), mm.clone());
            }
        }
    }
    for (id, why) in ignored {
        warnings.push(format!(
            "memory `{id}` does not route: it is not in force ({why})"
        ));
    }
    by_id
        .into_values()
        .map(|mut mm| {
            let reasons: BTreeSet<String> = mm
                .reasons
                .iter()
                .map(|r| r.trim().to_owned())
                .filter(|r| !r.is_empty())
                .collect();
            mm.reasons = reasons.into_iter().collect();
            mm
        })
        .collect()
}

/// The eligible preferences, one per id, sorted by id.
fn eligible_preferences<'a>(ctx: &RouteContext<'a>) -> Vec<&'a Preference> {
    let mut out: Vec<&'a Preference> = ctx
        .preferences
        .iter()
        .copied()
        .filter(|p| preference_eligible(p, ctx.now))
        .collect();
    out.sort_by(|a, b| a.id.cmp(&b.id));
    out.dedup_by(|a, b| a.id == b.id);
    out
}

fn push(by_skill: &mut BTreeMap<String, Vec<Source>>, skill: String, source: Source) {
    by_skill.entry(skill).or_default().push(source);
}

/// Normalised, de-duplicated names of a list; warns about empty names.
fn names(list: &[String], owner: &str, field: &str, warnings: &mut Vec<String>) -> Vec<String> {
    let mut out = BTreeSet::new();
    for raw in list {
        match normalize_skill(raw) {
            Some(n) => {
                out.insert(n);
            }
            None => warnings.push(format!("{owner} has an empty name in `{field}`; ignored")),
        }
    }
    out.into_iter().collect()
}

fn collect_memory(
    mm: &MatchedMemory<'_>,
    task: &Task,
    by_skill: &mut BTreeMap<String, Vec<Source>>,
    warnings: &mut Vec<String>,
) {
    let m = mm.memory;
    let r = &m.routing;
    if r.required_skills.is_empty()
        && r.recommended_skills.is_empty()
        && r.suppressed_skills.is_empty()
    {
        return;
    }
    let Some(fired) = memory_triggers(m, task) else {
        return;
    };
    let owner = format!("memory `{}`", m.id);
    let mut matched_by: Vec<String> = mm.reasons.clone();
    matched_by.extend(fired);
    let source = |layer: Layer, claim: Claim| Source {
        layer,
        claim,
        kind: SourceKind::Memory,
        id: m.id.as_str().to_owned(),
        path: Some(mm.path.to_owned()),
        title: Some(m.title.trim().to_owned()),
        risk: Some(m.risk),
        importance: Some(m.importance),
        invocation_mode: Some(r.invocation_mode),
        target_type: None,
        confidence: None,
        matched_by: matched_by.clone(),
    };
    for skill in names(&r.suppressed_skills, &owner, "suppressed_skills", warnings) {
        push(by_skill, skill, source(Layer::Suppressed, Claim::Suppress));
    }
    for skill in names(&r.required_skills, &owner, "required_skills", warnings) {
        push(by_skill, skill, source(Layer::Required, Claim::Require));
    }
    let recommended = names(
        &r.recommended_skills,
        &owner,
        "recommended_skills",
        warnings,
    );
    let (layer, claim) = match r.invocation_mode {
        InvocationMode::Required | InvocationMode::Prefer => (Layer::Recommended, Claim::Prefer),
        InvocationMode::Optional => (Layer::Optional, Claim::Optional),
        InvocationMode::Suppress => {
            if !recommended.is_empty() {
                warnings.push(format!(
                    "{owner} has `invocation_mode: suppress`; its recommended skills are not routed"
                ));
            }
            return;
        }
    };
    for skill in recommended {
        push(by_skill, skill, source(layer, claim));
    }
}

fn collect_preference(p: &Preference, task: &Task, by_skill: &mut BTreeMap<String, Vec<Source>>) {
    let Some(skill) = normalize_skill(&p.target) else {
        return;
    };
    let Some(why) = preference_applies(p, task) else {
        return;
    };
    let (layer, claim) = match p.preference {
        PreferenceKind::Prefer => (Layer::PositivePreference, Claim::Prefer),
        PreferenceKind::Avoid => (Layer::NegativePreference, Claim::Avoid),
        PreferenceKind::RequireReview => (Layer::NegativePreference, Claim::Review),
    };
    push(
        by_skill,
        skill,
        Source {
            layer,
            claim,
            kind: SourceKind::Preference,
            id: p.id.as_str().to_owned(),
            path: None,
            title: None,
            risk: None,
            importance: None,
            invocation_mode: None,
            target_type: Some(p.target_type),
            confidence: Some(p.confidence),
            matched_by: why,
        },
    );
}

fn collect_session(s: &SessionPolicy, by_skill: &mut BTreeMap<String, Vec<Source>>) {
    let lists: [(&str, &[String], Claim); 3] = [
        ("prefer_skills", &s.prefer_skills, Claim::Prefer),
        ("avoid_skills", &s.avoid_skills, Claim::Avoid),
        ("review_skills", &s.review_skills, Claim::Review),
    ];
    for (field, list, claim) in lists {
        let skills: BTreeSet<String> = list.iter().filter_map(|n| normalize_skill(n)).collect();
        for skill in skills {
            push(
                by_skill,
                skill,
                Source {
                    layer: Layer::Session,
                    claim,
                    kind: SourceKind::Session,
                    id: "session".to_owned(),
                    path: None,
                    title: None,
                    risk: None,
                    importance: None,
                    invocation_mode: None,
                    target_type: None,
                    confidence: None,
                    matched_by: vec![field.to_owned()],
                },
            );
        }
    }
}
