//! Plan ids and the shape of the plan.

use super::*;

#[test]
fn plan_id_is_stable_under_reordering_and_changes_with_inputs() {
    let base = busy_scenario();
    let id = base.run().plan_id;
    assert_eq!(busy_scenario().run().plan_id, id, "deterministic");

    let mut reordered = base.clone();
    reordered.memories.reverse();
    reordered.preferences.reverse();
    reordered.paths.reverse();
    reordered.paths.push("./src/ledger/reversal.ts".to_owned());
    reordered.session().review_skills = v(&["DB Transaction Review", "db-transaction-review"]);
    reordered.memories[0].routing.recommended_skills.reverse();
    reordered.task = Some("  Issue refunds   for duplicate card charges ".to_owned());
    assert_eq!(
        reordered.run().plan_id,
        id,
        "order and spelling do not matter"
    );

    // Things routing does not read: session hints and flags, memory bodies,
    // and records that are not eligible.
    let mut unread = base.clone();
    unread.session().hints.clear();
    unread.session().minimal_change = true;
    unread.memories[0].detail = "Rewritten rationale.\n".to_owned();
    let mut candidate = skill_pref(
        "prefer-playwright-e2e-109afbaf",
        "playwright-e2e",
        PreferenceKind::Prefer,
        0.6,
    );
    candidate.status = Status::Candidate;
    candidate.review.state = Some(ReviewState::Pending);
    unread.preferences.push(candidate);
    assert_eq!(unread.run().plan_id, id, "unread inputs");

    let changes: &[(&str, ScenarioEdit)] = &[
        ("task", |s| {
            s.task = Some("Issue refunds for chargebacks".into());
        }),
        ("path added", |s| s.paths.push("src/ledger/post.ts".into())),
        ("confidence", |s| {
            s.preferences[0].confidence = Confidence::new(0.9).unwrap();
        }),
        ("preference kind", |s| {
            s.preferences[1].preference = PreferenceKind::RequireReview;
        }),
        ("hint", |s| {
            s.preferences[0].task_hints.push("chargebacks".into());
        }),
        ("memory routing", |s| {
            s.memories[2].routing.invocation_mode = InvocationMode::Prefer;
        }),
        ("memory risk", |s| s.memories[2].risk = Risk::High),
        ("memory dropped", |s| {
            s.memories.pop();
        }),
        ("session", |s| {
            s.session().prefer_skills.push("red-green-refactor".into());
        }),
        ("session removed", |s| s.session = None),
        ("memory expired", |s| {
            s.memories[2].validity.expires = Some("2026-05-01".parse().unwrap());
        }),
    ];
    for (name, edit) in changes {
        let mut s = base.clone();
        edit(&mut s);
        assert_ne!(s.run().plan_id, id, "{name}");
    }
}

#[test]
fn realistic_refund_task_plan() {
    let plan = busy_scenario().run();
    let p = &plan.invocation_plan;
    assert_eq!(p.required, ["ledger-invariant-check"]);
    assert_eq!(p.human_review, ["db-transaction-review"]);
    assert_eq!(p.suppress, ["email-template-check"]);
    assert!(p.prefer_first.is_empty() && p.optional_fallback.is_empty() && p.blocked.is_empty());
    assert_eq!(plan.display_mode, DisplayMode::NeedsReview);
    let order: Vec<(&str, Slot)> = plan
        .resolved_skills
        .iter()
        .map(|r| (r.skill.as_str(), r.slot))
        .collect();
    assert_eq!(
        order,
        [
            ("ledger-invariant-check", Slot::Required),
            ("db-transaction-review", Slot::HumanReview),
            ("email-template-check", Slot::Suppress),
        ]
    );
    let e = &plan.routing_explanation["ledger-invariant-check"];
    assert_eq!(
        e.why,
        "layer 2 (required): required by memory `ledger-entries-are-append-only-never-update-ledg-3743c674` (risk high, importance critical)"
    );
    assert_eq!(
        e.agreeing.len(),
        2,
        "the prefer preference and the recommendation"
    );
    let e = &plan.routing_explanation["db-transaction-review"];
    assert_eq!(
        e.why,
        "layer 3 (session): the session profile's `review_skills` asks for human review; overrides memory:run-money-moving-writes-in-serializable-transact-a954a274 (prefer in layer 6)"
    );
    let src = &resolved(&plan, "ledger-invariant-check").sources;
    let layers: Vec<Layer> = src.iter().map(|s| s.layer).collect();
    assert_eq!(
        layers,
        [
            Layer::Required,
            Layer::PositivePreference,
            Layer::Recommended
        ]
    );
    assert_eq!(src[1].matched_by, ["task hint `refunds`"]);
    assert!(
        src[0]
            .matched_by
            .contains(&"trigger path `src/ledger/**` matches `src/ledger/reversal.ts`".to_owned())
    );

    // The JSON contract's top-level shape.
    let json = serde_json::to_value(&plan).unwrap();
    let keys: Vec<&str> = json
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(
        keys,
        [
            "plan_id",
            "display_mode",
            "invocation_plan",
            "resolved_skills",
            "conflicts",
            "routing_explanation",
            "warnings"
        ]
    );
    assert_eq!(json["display_mode"], "needs-review");
    assert_eq!(json["resolved_skills"][0]["deciding_layer"], "required");
    assert_eq!(json["resolved_skills"][0]["sources"][0]["kind"], "memory");
}

#[test]
fn no_sources_gives_an_empty_silent_plan() {
    let plan = Scenario::new("rename a local variable", &["src/util/format.ts"]).run();
    assert_eq!(plan.invocation_plan, InvocationPlan::default());
    assert_eq!(plan.display_mode, DisplayMode::SilentOk);
    assert!(plan.conflicts.is_empty() && plan.warnings.is_empty());
}

#[test]
fn session_policy_round_trips_as_json() {
    let s = SessionPolicy {
        updated_at: Some(t(NOW)),
        prefer_skills: v(&["playwright-e2e"]),
        avoid_skills: v(&["legacy-router"]),
        review_skills: Vec::new(),
        hints: v(&["touch only the ledger module"]),
        minimal_change: true,
        skip_full_tests: false,
        no_schema_changes: true,
    };
    let json = serde_json::to_string(&s).unwrap();
    assert_eq!(serde_json::from_str::<SessionPolicy>(&json).unwrap(), s);
    // Missing keys default; an empty object is an empty profile.
    assert_eq!(
        serde_json::from_str::<SessionPolicy>("{}").unwrap(),
        SessionPolicy::default()
    );
    let schema = schemars::schema_for!(RoutePlan);
    assert!(
        serde_json::to_string(&schema)
            .unwrap()
            .contains("prefer_first")
    );
}
