//! Routing engine tests and their fixtures, which imitate a billing
//! service's store.
//!
//! * `layers`: every pair of layers, the conflict rules, in-layer precedence.
//! * `inputs`: eligibility, trigger and hint matching, task classes, names.
//! * `output`: plan ids, a realistic plan, the JSON shape.

mod inputs;
mod layers;
mod output;

use jiff::Timestamp;

use super::*;
use crate::model::sections::Source as Origin;
use crate::model::{
    Confidence, Importance, InvocationMode, Memory, MemoryId, MemoryType, Preference,
    PreferenceKind, Provenance, Review, ReviewState, Risk, Routing, SchemaVersion, Status,
    TargetType, Validity,
};

const NOW: &str = "2026-06-01T00:00:00Z";

fn t(s: &str) -> Timestamp {
    s.parse().unwrap()
}

fn v(xs: &[&str]) -> Vec<String> {
    xs.iter().map(|x| (*x).to_owned()).collect()
}

fn provenance(at: &str) -> Provenance {
    Provenance {
        source: Origin::Manual,
        captured_at: t(at),
        proposed_by: Some("Priya Raman <priya@tollbooth.example>".to_owned()),
        evidence: Vec::new(),
    }
}

fn memory(
    id: &str,
    kind: MemoryType,
    title: &str,
    risk: Risk,
    importance: Importance,
    routing: Routing,
) -> Memory {
    let mut m = Memory::new(
        MemoryId::new(id).unwrap(),
        kind,
        Status::Active,
        title,
        format!("{title}. Summary for routing tests."),
        provenance("2025-09-09T07:55:00Z"),
    );
    m.detail = format!("SECRET-BODY-OF-{id}: long rationale that routing must never copy.\n");
    m.risk = risk;
    m.importance = importance;
    m.routing = routing;
    m
}

fn preference(
    id: &str,
    target_type: TargetType,
    target: &str,
    kind: PreferenceKind,
    confidence: f64,
) -> Preference {
    Preference {
        schema_version: SchemaVersion::CURRENT,
        id: MemoryId::new(id).unwrap(),
        status: Status::Active,
        target_type,
        target: target.to_owned(),
        preference: kind,
        confidence: Confidence::new(confidence).unwrap(),
        reason: "Team policy.".to_owned(),
        task_hints: Vec::new(),
        path_hints: Vec::new(),
        validity: Validity::default(),
        lineage: crate::model::Lineage::default(),
        provenance: provenance("2026-01-08T09:40:00Z"),
        review: Review::default(),
    }
}

fn skill_pref(id: &str, target: &str, kind: PreferenceKind, confidence: f64) -> Preference {
    preference(id, TargetType::Skill, target, kind, confidence)
}

/// A task and everything routing reads for it.
#[derive(Clone, Debug)]
struct Scenario {
    task: Option<String>,
    paths: Vec<String>,
    memories: Vec<Memory>,
    preferences: Vec<Preference>,
    session: Option<SessionPolicy>,
    now: Timestamp,
}

impl Scenario {
    fn new(task: &str, paths: &[&str]) -> Scenario {
        Scenario {
            task: Some(task.to_owned()),
            paths: v(paths),
            memories: Vec::new(),
            preferences: Vec::new(),
            session: None,
            now: t(NOW),
        }
    }

    fn session(&mut self) -> &mut SessionPolicy {
        self.session.get_or_insert_with(SessionPolicy::default)
    }

    fn run(&self) -> RoutePlan {
        let paths: Vec<String> = self
            .memories
            .iter()
            .map(|m| format!(".brain/{}/{}.yaml", m.kind.dir_name(), m.id))
            .collect();
        let matched: Vec<MatchedMemory<'_>> = self
            .memories
            .iter()
            .zip(&paths)
            .map(|(m, p)| MatchedMemory {
                memory: m,
                path: p,
                reasons: vec![format!("scope matched `{}`", m.title)],
            })
            .collect();
        let prefs: Vec<&Preference> = self.preferences.iter().collect();
        let plan = route(&RouteContext {
            task: self.task.as_deref(),
            paths: &self.paths,
            memories: &matched,
            preferences: &prefs,
            session: self.session.as_ref(),
            now: self.now,
        });
        check_invariants(&plan);
        plan
    }
}

/// Every skill in exactly one slot; slot lists sorted and de-duplicated;
/// resolved skills, explanation and plan agree; no memory body leaks.
fn check_invariants(plan: &RoutePlan) {
    let slots = [
        Slot::Required,
        Slot::Blocked,
        Slot::HumanReview,
        Slot::PreferFirst,
        Slot::OptionalFallback,
        Slot::Suppress,
    ];
    let mut all = Vec::new();
    for slot in slots {
        let list = plan.invocation_plan.slot(slot);
        let mut sorted = list.to_vec();
        sorted.sort();
        sorted.dedup();
        assert_eq!(list, sorted.as_slice(), "{slot:?} sorted and unique");
        all.extend(list.iter().cloned());
    }
    let n = all.len();
    all.sort();
    all.dedup();
    assert_eq!(n, all.len(), "a skill appears in exactly one slot");
    assert_eq!(plan.resolved_skills.len(), n);
    for r in &plan.resolved_skills {
        assert!(plan.invocation_plan.slot(r.slot).contains(&r.skill));
        let e = &plan.routing_explanation[&r.skill];
        assert_eq!((e.slot, e.deciding_layer), (r.slot, r.deciding_layer));
        assert_eq!(r.sources[0].layer, r.deciding_layer);
    }
    let json = serde_json::to_string(plan).unwrap();
    assert!(!json.contains("SECRET-BODY"), "memory bodies never leak");
    assert!(!json.contains("\"/"), "no absolute paths");
    assert_eq!(plan.plan_id.len(), 16);
}

fn resolved<'p>(plan: &'p RoutePlan, skill: &str) -> &'p ResolvedSkill {
    plan.resolved_skills
        .iter()
        .find(|r| r.skill == skill)
        .unwrap_or_else(|| panic!("`{skill}` not in plan: {plan:#?}"))
}

fn slot_of(plan: &RoutePlan, skill: &str) -> Slot {
    resolved(plan, skill).slot
}

const SKILL: &str = "playwright-e2e";
const TASK: &str = "fix flaky checkout e2e test for invoice downloads";
const PATHS: &[&str] = &["test/e2e/checkout.spec.ts", "src/billing/invoice.ts"];

/// Adds `n` sources of `layer` asking `claim` for [`SKILL`]; `strong` makes
/// them as weighty as the model allows (high risk, critical importance,
/// confidence 1), otherwise as light as possible.
fn add(s: &mut Scenario, layer: Layer, claim: Claim, n: usize, strong: bool) {
    let (risk, importance, confidence) = if strong {
        (Risk::High, Importance::Critical, 1.0)
    } else {
        (Risk::Low, Importance::Low, 0.3)
    };
    let tag = format!("{}-{}", layer.as_str().replace('_', "-"), claim.as_str());
    for i in 0..n {
        let id = format!("e2e-{tag}-{i}-{:08x}", 0x5e0c_1a70 + i);
        let mut routing = Routing {
            trigger_paths: v(&["test/e2e/**"]),
            ..Routing::default()
        };
        let title = format!("E2E suite note {i} ({tag})");
        match (layer, claim) {
            (Layer::Suppressed, _) => routing.suppressed_skills = v(&[SKILL]),
            (Layer::Required, _) => {
                routing.required_skills = v(&[SKILL]);
                routing.invocation_mode = InvocationMode::Required;
            }
            (Layer::Recommended, _) => {
                routing.recommended_skills = v(&[SKILL]);
                routing.invocation_mode = InvocationMode::Prefer;
            }
            (Layer::Optional, _) => {
                routing.recommended_skills = v(&[SKILL]);
                routing.invocation_mode = InvocationMode::Optional;
            }
            (Layer::Session, _) => {
                let list = match claim {
                    Claim::Prefer => &mut s.session().prefer_skills,
                    Claim::Avoid => &mut s.session().avoid_skills,
                    _ => &mut s.session().review_skills,
                };
                list.push(SKILL.to_owned());
                continue;
            }
            (Layer::NegativePreference | Layer::PositivePreference, _) => {
                let kind = match claim {
                    Claim::Prefer => PreferenceKind::Prefer,
                    Claim::Avoid => PreferenceKind::Avoid,
                    _ => PreferenceKind::RequireReview,
                };
                s.preferences.push(skill_pref(&id, SKILL, kind, confidence));
                continue;
            }
        }
        s.memories.push(memory(
            &id,
            MemoryType::Gotcha,
            &title,
            risk,
            importance,
            routing,
        ));
    }
}

fn ledger_gotcha() -> Memory {
    memory(
        "ledger-entries-are-append-only-never-update-ledg-3743c674",
        MemoryType::Gotcha,
        "Ledger entries are append-only; never UPDATE ledger rows",
        Risk::High,
        Importance::Critical,
        Routing {
            required_skills: v(&["ledger-invariant-check"]),
            trigger_paths: v(&["src/ledger/**"]),
            trigger_tasks: v(&["correct a ledger entry", "issue a refund"]),
            invocation_mode: InvocationMode::Required,
            ..Routing::default()
        },
    )
}

fn refund_task() -> Scenario {
    Scenario::new(
        "Issue refunds for duplicate card charges",
        &["src/ledger/reversal.ts", "src/billing/refunds.ts"],
    )
}

type ScenarioEdit = fn(&mut Scenario);

/// (task, paths, task triggers or hints, path triggers or hints, expected).
type MatchCase<'a> = (&'a str, &'a [&'a str], &'a [&'a str], &'a [&'a str], bool);

/// A scenario with one source in nearly every layer, for plan-id tests.
fn busy_scenario() -> Scenario {
    let mut s = refund_task();
    s.memories.push(ledger_gotcha());
    s.memories.push(memory(
        "run-money-moving-writes-in-serializable-transact-a954a274",
        MemoryType::Pattern,
        "Run money-moving writes in SERIALIZABLE transactions with retry",
        Risk::High,
        Importance::High,
        Routing {
            recommended_skills: v(&["ledger-invariant-check", "db-transaction-review"]),
            trigger_tasks: v(&["apply account credit", "issue a refund"]),
            invocation_mode: InvocationMode::Prefer,
            ..Routing::default()
        },
    ));
    s.memories.push(memory(
        "refund-emails-are-queued-not-sent-inline-5a5a5a5a",
        MemoryType::Decision,
        "Refund emails are queued, not sent inline",
        Risk::Low,
        Importance::Medium,
        Routing {
            recommended_skills: v(&["email-template-check"]),
            ..Routing::default()
        },
    ));
    let mut prefer = skill_pref(
        "prefer-ledger-invariant-check-74b0a056",
        "ledger-invariant-check",
        PreferenceKind::Prefer,
        1.0,
    );
    prefer.task_hints = v(&["credits", "refunds"]);
    s.preferences.push(prefer);
    s.preferences.push(skill_pref(
        "avoid-email-template-check-3c3c3c3c",
        "email-template-check",
        PreferenceKind::Avoid,
        0.7,
    ));
    s.session().review_skills = v(&["db-transaction-review"]);
    s.session().hints = v(&["touch only the ledger module"]);
    s
}
