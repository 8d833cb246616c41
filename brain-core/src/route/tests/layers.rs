//! Strict layer order and conflict rules.

use super::*;

#[test]
fn every_pair_of_layers_higher_wins_against_more_and_stronger_sources() {
    use Claim::{Avoid, Optional, Prefer, Require, Review, Suppress};
    use Layer::{
        NegativePreference as Neg, Optional as Opt, PositivePreference as Pos, Recommended as Rec,
        Required as Req, Session as Ses, Suppressed as Sup,
    };
    // (higher layer, its claim, lower layer, its claim, expected slot).
    // The higher side has one light source; the lower side five of the
    // heaviest kind (the session layer is one profile, so one source).
    let cases: &[(Layer, Claim, Layer, Claim, Slot)] = &[
        (Sup, Suppress, Req, Require, Slot::HumanReview),
        (Sup, Suppress, Ses, Prefer, Slot::Suppress),
        (Sup, Suppress, Neg, Review, Slot::Suppress),
        (Sup, Suppress, Pos, Prefer, Slot::Suppress),
        (Sup, Suppress, Rec, Prefer, Slot::Suppress),
        (Sup, Suppress, Opt, Optional, Slot::Suppress),
        (Req, Require, Ses, Avoid, Slot::Required),
        (Req, Require, Neg, Avoid, Slot::Required),
        (Req, Require, Pos, Prefer, Slot::Required),
        (Req, Require, Rec, Prefer, Slot::Required),
        (Req, Require, Opt, Optional, Slot::Required),
        (Ses, Prefer, Neg, Avoid, Slot::PreferFirst),
        (Ses, Avoid, Pos, Prefer, Slot::Suppress),
        (Ses, Review, Rec, Prefer, Slot::HumanReview),
        (Ses, Avoid, Opt, Optional, Slot::Suppress),
        (Neg, Avoid, Pos, Prefer, Slot::Suppress),
        (Neg, Review, Rec, Prefer, Slot::HumanReview),
        (Neg, Avoid, Opt, Optional, Slot::Suppress),
        // Layers 5 and 6 can only ask for prefer_first: they meet but cannot
        // disagree about the slot; the higher one still decides.
        (Pos, Prefer, Rec, Prefer, Slot::PreferFirst),
        (Pos, Prefer, Opt, Optional, Slot::PreferFirst),
        (Rec, Prefer, Opt, Optional, Slot::PreferFirst),
    ];
    assert_eq!(cases.len(), 21, "every pair of the seven layers");
    for &(hi, hi_claim, lo, lo_claim, want) in cases {
        let name = format!("{hi:?}/{hi_claim:?} vs {lo:?}/{lo_claim:?}");
        let mut s = Scenario::new(TASK, PATHS);
        add(&mut s, hi, hi_claim, 1, false);
        add(&mut s, lo, lo_claim, 5, true);
        let plan = s.run();
        let r = resolved(&plan, SKILL);
        assert_eq!(r.slot, want, "{name}");
        assert_eq!(r.deciding_layer, hi, "{name}");
        let e = &plan.routing_explanation[SKILL];
        assert_eq!(e.decided_by.len(), 1, "{name}");
        assert!(e.decided_by.iter().all(|d| d.layer == hi), "{name}");
        let lower_count = if lo == Ses { 1 } else { 5 };
        let lower: Vec<&SourceRef> = e
            .overridden
            .iter()
            .chain(&e.agreeing)
            .filter(|x| x.layer == lo)
            .collect();
        assert_eq!(lower.len(), lower_count, "{name}: {e:#?}");
        if lo_claim.natural_slot().family() == want.family() {
            assert!(e.overridden.is_empty(), "{name}: lower agrees");
        } else {
            assert_eq!(e.overridden.len(), lower_count, "{name}: lower overridden");
            assert!(e.why.contains("overrides"), "{name}: {}", e.why);
        }
        assert!(
            e.why.starts_with(&format!("layer {} ", hi.rank())),
            "{name}: {}",
            e.why
        );
    }
}

#[test]
fn a_weak_higher_layer_beats_every_lower_layer_stacked_together() {
    // One low-risk, low-importance required memory against everything below
    // it at full strength: session avoid, five avoid and five review
    // preferences, and nothing can remove the required skill.
    let mut s = Scenario::new(TASK, PATHS);
    add(&mut s, Layer::Required, Claim::Require, 1, false);
    add(&mut s, Layer::Session, Claim::Avoid, 1, true);
    add(&mut s, Layer::NegativePreference, Claim::Avoid, 5, true);
    add(&mut s, Layer::NegativePreference, Claim::Review, 5, true);
    let plan = s.run();
    assert_eq!(slot_of(&plan, SKILL), Slot::Required);
    assert_eq!(plan.display_mode, DisplayMode::SilentOk);
    let kinds: Vec<(ConflictKind, ConflictRule)> =
        plan.conflicts.iter().map(|c| (c.kind, c.rule)).collect();
    assert_eq!(
        kinds,
        [
            (
                ConflictKind::RequiredVsAvoided,
                ConflictRule::HigherLayerWins
            ),
            (
                ConflictKind::RequiredVsReview,
                ConflictRule::HigherLayerWins
            ),
        ]
    );
    assert_eq!(plan.routing_explanation[SKILL].overridden.len(), 11);
    assert!(
        plan.warnings
            .iter()
            .any(|w| w.contains("the session profile's `avoid_skills` entry")),
        "{:#?}",
        plan.warnings
    );
}

#[test]
fn global_avoid_cannot_remove_a_required_skill() {
    let mut s = refund_task();
    s.memories.push(ledger_gotcha());
    s.preferences.push(skill_pref(
        "avoid-ledger-invariant-check-9b1d44e0",
        "ledger-invariant-check",
        PreferenceKind::Avoid,
        1.0,
    ));
    let plan = s.run();
    assert_eq!(plan.invocation_plan.required, ["ledger-invariant-check"]);
    assert_eq!(plan.display_mode, DisplayMode::SilentOk);
    let e = &plan.routing_explanation["ledger-invariant-check"];
    assert_eq!(e.deciding_layer, Layer::Required);
    assert_eq!(
        e.overridden,
        [SourceRef {
            layer: Layer::NegativePreference,
            claim: Claim::Avoid,
            source: "preference:avoid-ledger-invariant-check-9b1d44e0".to_owned(),
        }]
    );
    let [c] = plan.conflicts.as_slice() else {
        panic!("{:#?}", plan.conflicts)
    };
    assert_eq!(c.kind, ConflictKind::RequiredVsAvoided);
    assert_eq!(c.resolution, Slot::Required);
    assert_eq!(c.overridden[0].matched_by, ["global (no hints)"]);
}

#[test]
fn high_risk_suppression_blocks_a_required_skill_with_both_sides_evidence() {
    let mut s = refund_task();
    s.memories.push(ledger_gotcha());
    s.memories.push(memory(
        "ledger-check-hangs-on-partitioned-tables-c0ffee42",
        MemoryType::Gotcha,
        "Ledger invariant check locks partitioned ledger tables",
        Risk::High,
        Importance::High,
        Routing {
            suppressed_skills: v(&["Ledger Invariant Check"]),
            trigger_paths: v(&["src/ledger/**"]),
            ..Routing::default()
        },
    ));
    s.preferences.push(skill_pref(
        "avoid-ledger-invariant-check-9b1d44e0",
        "ledger-invariant-check",
        PreferenceKind::Avoid,
        1.0,
    ));
    let plan = s.run();
    assert_eq!(plan.invocation_plan.blocked, ["ledger-invariant-check"]);
    assert!(plan.invocation_plan.required.is_empty());
    assert_eq!(plan.display_mode, DisplayMode::NeedsReview);
    let c = plan
        .conflicts
        .iter()
        .find(|c| c.kind == ConflictKind::RequiredVsSuppressed)
        .unwrap();
    assert_eq!(c.rule, ConflictRule::SuppressionBlocksRequired);
    assert_eq!(c.resolution, Slot::Blocked);
    assert_eq!(
        c.deciding[0].id,
        "ledger-check-hangs-on-partitioned-tables-c0ffee42"
    );
    assert_eq!(c.deciding[0].risk, Some(Risk::High));
    assert_eq!(
        c.deciding[0].path.as_deref(),
        Some(".brain/gotchas/ledger-check-hangs-on-partitioned-tables-c0ffee42.yaml")
    );
    assert_eq!(
        c.overridden[0].id,
        "ledger-entries-are-append-only-never-update-ledg-3743c674"
    );
    assert!(
        c.overridden[0]
            .matched_by
            .contains(&"trigger task `issue a refund`".to_owned())
    );
    // The avoid preference agrees with blocking but decided nothing.
    let e = &plan.routing_explanation["ledger-invariant-check"];
    assert_eq!(e.decided_by.len(), 1);
    assert_eq!(e.agreeing[0].layer, Layer::NegativePreference);
    assert!(
        plan.warnings
            .iter()
            .any(|w| w.starts_with("routing blocked: `ledger-invariant-check`"))
    );
}

#[test]
fn avoid_plus_low_risk_suppression_cannot_block_a_required_skill() {
    // RepoBrain summed 10·confidence of a global avoid with a suppression
    // and blocked the required skill. Here the avoid adds nothing: a
    // suppression that is not high-risk or critical sends it to review.
    let mut s = refund_task();
    s.memories.push(ledger_gotcha());
    s.memories.push(memory(
        "ledger-check-is-slow-on-laptops-1d2e3f40",
        MemoryType::Working,
        "Ledger invariant check takes minutes on laptops",
        Risk::Low,
        Importance::Medium,
        Routing {
            suppressed_skills: v(&["ledger-invariant-check"]),
            ..Routing::default()
        },
    ));
    for i in 0..3 {
        s.preferences.push(skill_pref(
            &format!("avoid-ledger-invariant-check-{i}-9b1d44e0"),
            "ledger-invariant-check",
            PreferenceKind::Avoid,
            1.0,
        ));
    }
    let plan = s.run();
    assert_eq!(
        plan.invocation_plan.human_review,
        ["ledger-invariant-check"]
    );
    assert!(plan.invocation_plan.blocked.is_empty());
    assert_eq!(plan.display_mode, DisplayMode::NeedsReview);
    let c = &plan.conflicts[0];
    assert_eq!(c.kind, ConflictKind::RequiredVsSuppressed);
    assert_eq!(c.rule, ConflictRule::SuppressionSendsRequiredToReview);
    assert_eq!(c.deciding.len(), 1);
}

#[test]
fn session_prefer_beats_avoid_preference_but_not_a_block_or_suppression() {
    // Over an avoid preference: prefer_first.
    let mut s = Scenario::new(
        "debug the legacy checkout router",
        &["src/api/v0/checkout.ts"],
    );
    let mut avoid = skill_pref(
        "avoid-legacy-router-fa32f161",
        "legacy-router",
        PreferenceKind::Avoid,
        0.9,
    );
    avoid.path_hints = v(&["src/api/**"]);
    s.preferences.push(avoid);
    s.session().prefer_skills = v(&["Legacy_Router"]);
    let plan = s.run();
    assert_eq!(plan.invocation_plan.prefer_first, ["legacy-router"]);
    let c = &plan.conflicts[0];
    assert_eq!(
        (c.kind, c.rule),
        (
            ConflictKind::PreferredVsAvoided,
            ConflictRule::HigherLayerWins
        )
    );
    assert_eq!(c.deciding[0].id, "session");
    assert_eq!(c.overridden[0].id, "avoid-legacy-router-fa32f161");
    assert_eq!(
        c.overridden[0].matched_by,
        ["path hint `src/api/**` matches `src/api/v0/checkout.ts`"]
    );

    // Over a plain suppression: stays suppressed.
    let mut suppressed = s.clone();
    suppressed.memories.push(memory(
        "legacy-v0-router-drops-the-idempotency-key-heade-1cf1f1dd",
        MemoryType::Gotcha,
        "Legacy v0 router drops the Idempotency-Key header",
        Risk::Low,
        Importance::Low,
        Routing {
            suppressed_skills: v(&["legacy-router"]),
            trigger_paths: v(&["src/api/v0/**"]),
            ..Routing::default()
        },
    ));
    let plan = suppressed.run();
    assert_eq!(plan.invocation_plan.suppress, ["legacy-router"]);
    assert_eq!(plan.display_mode, DisplayMode::SilentOk);
    assert!(
        plan.conflicts
            .iter()
            .any(|c| c.kind == ConflictKind::PreferredVsSuppressed)
    );

    // Over a block (required by one memory, suppressed by a high-risk one):
    // stays blocked.
    let mut blocked = suppressed.clone();
    blocked.memories[0].risk = Risk::High;
    blocked.memories.push(memory(
        "v0-checkout-fixes-go-through-the-router-7a7b7c7d",
        MemoryType::Convention,
        "Fixes to v0 checkout must go through the legacy router",
        Risk::Medium,
        Importance::High,
        Routing {
            required_skills: v(&["legacy-router"]),
            ..Routing::default()
        },
    ));
    let plan = blocked.run();
    assert_eq!(plan.invocation_plan.blocked, ["legacy-router"]);
    assert_eq!(plan.display_mode, DisplayMode::NeedsReview);
    let e = &plan.routing_explanation["legacy-router"];
    assert!(
        e.overridden
            .iter()
            .any(|r| r.source == "session:prefer_skills")
    );
}

#[test]
fn session_avoid_and_review_cannot_touch_a_required_skill() {
    for list in ["avoid", "review"] {
        let mut s = refund_task();
        s.memories.push(ledger_gotcha());
        if list == "avoid" {
            s.session().avoid_skills = v(&["ledger-invariant-check"]);
        } else {
            s.session().review_skills = v(&["ledger-invariant-check"]);
        }
        let plan = s.run();
        assert_eq!(
            plan.invocation_plan.required,
            ["ledger-invariant-check"],
            "{list}"
        );
        assert_eq!(plan.display_mode, DisplayMode::SilentOk, "{list}");
        assert_eq!(plan.warnings.len(), 1, "{list}: {:#?}", plan.warnings);
    }
}

#[test]
fn within_a_layer_the_cautious_claim_wins_and_ties_break_on_strength_then_id() {
    let mut s = Scenario::new("add a migration for usage_events", &["migrations/0042.sql"]);
    s.preferences.push(skill_pref(
        "avoid-db-migration-review-b2b2b2b2",
        "db-migration-review",
        PreferenceKind::Avoid,
        1.0,
    ));
    s.preferences.push(skill_pref(
        "review-db-migration-review-a1a1a1a1",
        "db-migration-review",
        PreferenceKind::RequireReview,
        0.4,
    ));
    s.preferences.push(skill_pref(
        "review-db-migration-review-c3c3c3c3",
        "db-migration-review",
        PreferenceKind::RequireReview,
        0.8,
    ));
    s.preferences.push(skill_pref(
        "review-db-migration-review-0a0a0a0a",
        "db-migration-review",
        PreferenceKind::RequireReview,
        0.8,
    ));
    // The session lists a skill as preferred and avoided: avoid wins.
    s.session().prefer_skills = v(&["red-green-refactor"]);
    s.session().avoid_skills = v(&["red-green-refactor"]);
    let plan = s.run();
    assert_eq!(slot_of(&plan, "db-migration-review"), Slot::HumanReview);
    let order: Vec<&str> = resolved(&plan, "db-migration-review")
        .sources
        .iter()
        .map(|s| s.id.as_str())
        .collect();
    assert_eq!(
        order,
        [
            "review-db-migration-review-0a0a0a0a",
            "review-db-migration-review-c3c3c3c3",
            "review-db-migration-review-a1a1a1a1",
            "avoid-db-migration-review-b2b2b2b2",
        ]
    );
    let c = plan
        .conflicts
        .iter()
        .find(|c| c.skill == "db-migration-review")
        .unwrap();
    assert_eq!(
        (c.kind, c.rule),
        (
            ConflictKind::AvoidedVsReview,
            ConflictRule::CautionWithinLayer
        )
    );
    assert_eq!(slot_of(&plan, "red-green-refactor"), Slot::Suppress);
    assert_eq!(plan.display_mode, DisplayMode::NeedsReview);

    // Among suppressors the high-risk one is named first.
    let mut s = refund_task();
    s.memories.push(ledger_gotcha());
    for (id, risk) in [
        ("aaa-low-risk-suppressor-00000001", Risk::Low),
        ("zzz-high-risk-suppressor-00000002", Risk::High),
    ] {
        s.memories.push(memory(
            id,
            MemoryType::Gotcha,
            "Ledger check conflicts with the reversal job",
            risk,
            Importance::Medium,
            Routing {
                suppressed_skills: v(&["ledger-invariant-check"]),
                ..Routing::default()
            },
        ));
    }
    let plan = s.run();
    assert_eq!(slot_of(&plan, "ledger-invariant-check"), Slot::Blocked);
    let e = &plan.routing_explanation["ledger-invariant-check"];
    assert_eq!(
        e.decided_by[0].source,
        "memory:zzz-high-risk-suppressor-00000002"
    );
    assert_eq!(e.decided_by.len(), 2);
}
