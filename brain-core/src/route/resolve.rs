//! Per-skill resolution: the strict layer order, the conflict rules and the
//! explanation.
//!
//! Resolution never adds or compares numbers across sources. The sources of
//! a skill are sorted by layer, then by the in-layer precedence of their
//! claim (review, then suppress/avoid, then require, prefer, optional), then
//! by the tie-break key (risk, importance, confidence, all descending, then
//! kind and id). The first source's layer and claim decide; every other
//! source is reported as agreeing or overridden.

use std::cmp::Ordering;
use std::collections::BTreeMap;
use std::fmt::Write as _;

use super::plan::{
    Claim, Conflict, ConflictKind, ConflictRule, Layer, ResolvedSkill, SkillExplanation, Slot,
    Source, SourceKind, SourceRef,
};
use crate::model::{Importance, Risk};

/// Everything resolution produces for one skill.
#[derive(Debug)]
pub(crate) struct Resolution {
    pub(crate) resolved: ResolvedSkill,
    pub(crate) conflicts: Vec<Conflict>,
    pub(crate) explanation: SkillExplanation,
    pub(crate) warnings: Vec<String>,
}

/// Precedence of claims inside one layer; lower is stronger. Only layers 3
/// and 4 hold more than one kind of claim, and there the cautious claim wins:
/// review, then avoid, then prefer.
fn precedence(c: Claim) -> u8 {
    match c {
        Claim::Review => 0,
        Claim::Suppress | Claim::Avoid => 1,
        Claim::Require => 2,
        Claim::Prefer => 3,
        Claim::Optional => 4,
    }
}

/// The order of a skill's sources: layer, in-layer claim precedence, then
/// the tie-break key (risk, importance, confidence descending; kind, id,
/// evidence ascending).
pub(crate) fn source_order(a: &Source, b: &Source) -> Ordering {
    let conf = |s: &Source| s.confidence.map_or(-1.0, crate::model::Confidence::get);
    a.layer
        .cmp(&b.layer)
        .then_with(|| precedence(a.claim).cmp(&precedence(b.claim)))
        .then_with(|| b.risk.cmp(&a.risk))
        .then_with(|| b.importance.cmp(&a.importance))
        .then_with(|| conf(b).total_cmp(&conf(a)))
        .then_with(|| a.kind.cmp(&b.kind))
        .then_with(|| a.id.cmp(&b.id))
        .then_with(|| a.matched_by.cmp(&b.matched_by))
}

/// Whether a suppressing memory is serious enough to block a required skill.
fn severe(s: &Source) -> bool {
    s.risk == Some(Risk::High) || s.importance == Some(Importance::Critical)
}

/// Whether a source's own claim agrees with the final slot: both let the
/// skill run (required, prefer first, optional fallback), both stop it
/// (suppress, blocked), or both ask a human. A `prefer` on a required skill
/// agrees; an `avoid` on a required skill is overridden.
pub(crate) fn agrees(claim: Claim, slot: Slot) -> bool {
    slot.family() == claim.natural_slot().family()
}

/// Which conflict two disagreeing claims form, if any.
fn conflict_kind(a: Claim, b: Claim) -> Option<ConflictKind> {
    use Claim::{Avoid, Optional, Prefer, Require, Review, Suppress};
    let has = |c: Claim| a == c || b == c;
    let other = |c: Claim| if a == c { b } else { a };
    if has(Require) {
        return match other(Require) {
            Suppress => Some(ConflictKind::RequiredVsSuppressed),
            Avoid => Some(ConflictKind::RequiredVsAvoided),
            Review => Some(ConflictKind::RequiredVsReview),
            Require | Prefer | Optional => None,
        };
    }
    for positive in [Prefer, Optional] {
        if has(positive) {
            return match other(positive) {
                Suppress => Some(ConflictKind::PreferredVsSuppressed),
                Avoid => Some(ConflictKind::PreferredVsAvoided),
                Review => Some(ConflictKind::PreferredVsReview),
                Require | Prefer | Optional => None,
            };
        }
    }
    if has(Review) {
        return match other(Review) {
            Suppress => Some(ConflictKind::SuppressedVsReview),
            Avoid => Some(ConflictKind::AvoidedVsReview),
            _ => None,
        };
    }
    None
}

/// A source for a sentence: "memory `x` (risk high, importance critical)".
fn describe(s: &Source) -> String {
    match s.kind {
        SourceKind::Memory => match (s.risk, s.importance) {
            (Some(risk), Some(importance)) => format!(
                "memory `{}` (risk {}, importance {})",
                s.id,
                risk.as_str(),
                importance.as_str()
            ),
            _ => format!("memory `{}`", s.id),
        },
        SourceKind::Preference => match s.confidence {
            Some(c) => format!("preference `{}` (confidence {:.2})", s.id, c.get()),
            None => format!("preference `{}`", s.id),
        },
        SourceKind::Session => match s.matched_by.first() {
            Some(list) => format!("the session profile's `{list}`"),
            None => "the session profile".to_owned(),
        },
    }
}

/// Most sources a sentence names; the rest are counted.
pub(crate) const NAMED_IN_SENTENCE: usize = 1;

/// Joins `items`, naming at most [`NAMED_IN_SENTENCE`] and counting the rest,
/// so one sentence stays short however many records agree.
fn join_some(items: impl ExactSizeIterator<Item = String>) -> String {
    let total = items.len();
    let mut out = items.take(NAMED_IN_SENTENCE).collect::<Vec<_>>().join(", ");
    if total > NAMED_IN_SENTENCE {
        let _ = write!(out, " and {} more", total - NAMED_IN_SENTENCE);
    }
    out
}

fn describe_all(sources: &[&Source]) -> String {
    join_some(sources.iter().map(|s| describe(s)))
}

/// Resolves one skill from its sources (at least one).
pub(crate) fn resolve(skill: &str, mut sources: Vec<Source>) -> Option<Resolution> {
    sources.sort_by(source_order);
    let (layer, claim) = sources.first().map(|s| (s.layer, s.claim))?;
    let is_deciding = |s: &Source| s.layer == layer && s.claim == claim;
    let deciding: Vec<&Source> = sources.iter().filter(|s| is_deciding(s)).collect();
    let required: Vec<&Source> = sources
        .iter()
        .filter(|s| s.claim == Claim::Require)
        .collect();

    let slot = match claim {
        Claim::Suppress if !required.is_empty() => {
            if deciding.iter().any(|s| severe(s)) {
                Slot::Blocked
            } else {
                Slot::HumanReview
            }
        }
        c => c.natural_slot(),
    };

    let mut overridden: Vec<&Source> = Vec::new();
    let mut agreeing: Vec<&Source> = Vec::new();
    for s in sources.iter().filter(|s| !is_deciding(s)) {
        if agrees(s.claim, slot) {
            agreeing.push(s);
        } else {
            overridden.push(s);
        }
    }

    // Conflicts: one per (kind, rule), deciding side against the overridden
    // sources whose claim disagrees with the deciding claim.
    let mut groups: BTreeMap<(ConflictKind, ConflictRule), Vec<&Source>> = BTreeMap::new();
    for s in &overridden {
        let Some(kind) = conflict_kind(claim, s.claim) else {
            continue;
        };
        let rule = match (kind, slot) {
            (ConflictKind::RequiredVsSuppressed, Slot::Blocked) => {
                ConflictRule::SuppressionBlocksRequired
            }
            (ConflictKind::RequiredVsSuppressed, _) => {
                ConflictRule::SuppressionSendsRequiredToReview
            }
            _ if s.layer == layer => ConflictRule::CautionWithinLayer,
            _ => ConflictRule::HigherLayerWins,
        };
        groups.entry((kind, rule)).or_default().push(s);
    }
    let conflicts: Vec<Conflict> = groups
        .into_iter()
        .map(|((kind, rule), losers)| Conflict {
            skill: skill.to_owned(),
            kind,
            rule,
            resolution: slot,
            deciding: deciding.iter().map(|s| (*s).clone()).collect(),
            overridden: losers.into_iter().cloned().collect(),
            omitted: 0,
        })
        .collect();

    let why = why(layer, claim, slot, &deciding, &required, &overridden);
    let warnings = warnings(skill, layer, slot, &deciding, &required, &overridden);

    let refs = |list: &[&Source]| list.iter().map(|s| SourceRef::from(*s)).collect();
    let explanation = SkillExplanation {
        slot,
        deciding_layer: layer,
        why,
        decided_by: refs(&deciding),
        overridden: refs(&overridden),
        agreeing: refs(&agreeing),
        omitted: 0,
    };
    Some(Resolution {
        resolved: ResolvedSkill {
            skill: skill.to_owned(),
            slot,
            deciding_layer: layer,
            sources,
            sources_omitted: 0,
        },
        conflicts,
        explanation,
        warnings,
    })
}

fn why(
    layer: Layer,
    claim: Claim,
    slot: Slot,
    deciding: &[&Source],
    required: &[&Source],
    overridden: &[&Source],
) -> String {
    let d = describe_all(deciding);
    let what = match (claim, slot) {
        (Claim::Suppress, Slot::Blocked) => format!(
            "suppressed by {d} while {} requires it; a high-risk or critical suppression blocks a required skill",
            describe_all(required)
        ),
        (Claim::Suppress, Slot::HumanReview) => format!(
            "suppressed by {d} while {} requires it; no suppressing memory is high-risk or critical, so a human decides",
            describe_all(required)
        ),
        (Claim::Suppress, _) => format!("suppressed by {d}"),
        (Claim::Require, _) => format!("required by {d}"),
        (Claim::Avoid, _) => format!("avoided by {d}"),
        (Claim::Review, _) => format!("{d} asks for human review"),
        (Claim::Prefer, _) if layer == Layer::Recommended => format!("recommended by {d}"),
        (Claim::Prefer, _) => format!("preferred by {d}"),
        (Claim::Optional, _) => format!("recommended as optional by {d}"),
    };
    let mut out = format!("layer {} ({}): {what}", layer.rank(), layer.as_str());
    if !overridden.is_empty() {
        let list = join_some(overridden.iter().map(|s| {
            format!(
                "{} ({} in layer {})",
                s.reference(),
                s.claim.as_str(),
                s.layer.rank()
            )
        }));
        out.push_str("; overrides ");
        out.push_str(&list);
    }
    out
}

fn warnings(
    skill: &str,
    layer: Layer,
    slot: Slot,
    deciding: &[&Source],
    required: &[&Source],
    overridden: &[&Source],
) -> Vec<String> {
    let mut out = Vec::new();
    let d = describe_all(deciding);
    match slot {
        Slot::Blocked => out.push(format!(
            "routing blocked: `{skill}` is required by {} but suppressed by {d}",
            describe_all(required)
        )),
        Slot::HumanReview if layer == Layer::Suppressed => out.push(format!(
            "human review required: `{skill}` is required by {} but suppressed by {d}",
            describe_all(required)
        )),
        Slot::HumanReview => out.push(format!("human review required: `{skill}` ({d})")),
        _ => {}
    }
    for s in overridden.iter().filter(|s| s.kind == SourceKind::Session) {
        out.push(format!(
            "{} entry for `{skill}` is overridden by layer {} ({}): the skill is `{}`",
            describe(s),
            layer.rank(),
            layer.as_str(),
            slot.as_str()
        ));
    }
    out
}
