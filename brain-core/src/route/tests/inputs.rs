//! What takes part: eligibility, triggers, hints, task classes, names.

use super::*;

#[test]
fn ineligible_preferences_decide_nothing() {
    type Edit = fn(&mut Preference);
    let cases: &[(&str, Edit)] = &[
        ("candidate", |p| {
            p.status = Status::Candidate;
            p.review.state = Some(ReviewState::Pending);
        }),
        ("active but pending", |p| {
            p.review.state = Some(ReviewState::Pending);
        }),
        ("superseded", |p| {
            p.status = Status::Superseded;
            p.lineage.superseded_by =
                Some(MemoryId::new("avoid-legacy-router-2-00000000").unwrap());
        }),
        ("stale", |p| p.status = Status::Stale),
        ("dismissed", |p| p.status = Status::Dismissed),
        ("expired", |p| {
            p.validity.expires = Some("2026-05-31".parse().unwrap());
        }),
        ("not yet valid", |p| {
            p.validity.valid_from = Some(t("2026-07-01T00:00:00Z"));
        }),
        ("window over", |p| {
            p.validity.valid_until = Some(t("2026-05-01T00:00:00Z"));
        }),
    ];
    for (name, edit) in cases {
        let mut s = Scenario::new(TASK, PATHS);
        add(&mut s, Layer::Recommended, Claim::Prefer, 1, false);
        for kind in [
            PreferenceKind::Avoid,
            PreferenceKind::RequireReview,
            PreferenceKind::Prefer,
        ] {
            let mut p = skill_pref(
                &format!(
                    "{}-playwright-e2e-0badc0de",
                    kind.as_str().replace('_', "-")
                ),
                SKILL,
                kind,
                1.0,
            );
            edit(&mut p);
            s.preferences.push(p);
        }
        // A task-class preference that would otherwise apply.
        let mut class = preference(
            "require-review-checkout-e2e-11112222",
            TargetType::TaskClass,
            "checkout-e2e",
            PreferenceKind::RequireReview,
            1.0,
        );
        edit(&mut class);
        s.preferences.push(class);
        let plan = s.run();
        let r = resolved(&plan, SKILL);
        assert_eq!(
            (r.slot, r.deciding_layer, r.sources.len()),
            (Slot::PreferFirst, Layer::Recommended, 1),
            "{name}"
        );
        assert_eq!(plan.resolved_skills.len(), 1, "{name}");
        assert!(plan.conflicts.is_empty(), "{name}");
        assert_eq!(plan.display_mode, DisplayMode::SilentOk, "{name}");
    }
    // The same preferences, eligible, do decide.
    let mut s = Scenario::new(TASK, PATHS);
    add(&mut s, Layer::Recommended, Claim::Prefer, 1, false);
    s.preferences.push(skill_pref(
        "avoid-playwright-e2e-0badc0de",
        SKILL,
        PreferenceKind::Avoid,
        1.0,
    ));
    assert_eq!(slot_of(&s.run(), SKILL), Slot::Suppress);
}

#[test]
fn ineligible_memories_are_ignored_with_a_warning() {
    let mut s = refund_task();
    let mut candidate = ledger_gotcha();
    candidate.status = Status::Candidate;
    candidate.review.state = Some(ReviewState::Pending);
    s.memories.push(candidate);
    let mut expired = memory(
        "refund-freeze-during-migration-working-9f9f9f9f",
        MemoryType::Working,
        "Refunds frozen during the ledger migration",
        Risk::High,
        Importance::Critical,
        Routing {
            suppressed_skills: v(&["refund-bot"]),
            ..Routing::default()
        },
    );
    expired.validity.expires = Some("2026-03-01".parse().unwrap());
    s.memories.push(expired);
    let plan = s.run();
    assert!(plan.resolved_skills.is_empty(), "{plan:#?}");
    assert_eq!(
        plan.warnings,
        [
            "memory `ledger-entries-are-append-only-never-update-ledg-3743c674` does not route: it is not in force (status `candidate`)",
            "memory `refund-freeze-during-migration-working-9f9f9f9f` does not route: it is not in force (outside its validity window or expired)",
        ]
    );
}

#[test]
fn triggers_match_whole_words_and_real_globs() {
    let api_memory = |trigger_tasks: &[&str], trigger_paths: &[&str]| {
        memory(
            "api-handlers-need-contract-tests-0c0c0c0c",
            MemoryType::Convention,
            "API handlers need contract tests",
            Risk::Medium,
            Importance::High,
            Routing {
                required_skills: v(&["contract-tests"]),
                trigger_tasks: v(trigger_tasks),
                trigger_paths: v(trigger_paths),
                invocation_mode: InvocationMode::Required,
                ..Routing::default()
            },
        )
    };
    // (task, paths, trigger tasks, trigger paths, fires)
    let cases: &[MatchCase<'_>] = &[
        ("build a rapid prototype", &[], &["api"], &[], false),
        ("fix the API rate limiter", &[], &["api"], &[], true),
        (
            "Issue refunds for duplicates",
            &[],
            &["issue a refund"],
            &[],
            true,
        ),
        (
            "make the refundable flag default",
            &[],
            &["refund"],
            &[],
            false,
        ),
        ("issue an invoice", &[], &["issue a refund"], &[], false),
        ("the", &[], &["the"], &[], false),
        ("", &["src/a/b.ts"], &[], &["src/*.ts"], false),
        ("", &["src/a.ts"], &[], &["src/*.ts"], true),
        ("", &["src/a/b.ts"], &[], &["src/**"], true),
        ("", &["web/src/rapid/x.ts"], &[], &["web/src/api/**"], false),
        ("", &["./src\\api\\v1\\keys.ts"], &[], &["src/api/**"], true),
        // No triggers: the memory's routing applies whenever it matched.
        ("anything", &[], &[], &[], true),
    ];
    for (task, paths, tt, tp, fires) in cases {
        let mut s = Scenario::new(task, paths);
        s.memories.push(api_memory(tt, tp));
        let plan = s.run();
        assert_eq!(
            plan.invocation_plan.required == ["contract-tests"],
            *fires,
            "{task:?} {paths:?} ~ {tt:?} {tp:?}"
        );
    }
}

#[test]
fn preference_hints_match_whole_words_and_real_globs() {
    // (task, paths, task hints, path hints, applies)
    let cases: &[MatchCase<'_>] = &[
        ("speed up rapid checkout", &[], &["api"], &[], false),
        ("version the public API", &[], &["api"], &[], true),
        ("rotate API keys", &[], &["api keys"], &[], true),
        ("rotate keys", &[], &["api keys"], &[], false),
        ("", &["src/api/v1/keys.ts"], &[], &["src/*.ts"], false),
        ("", &["src/keys.ts"], &[], &["src/*.ts"], true),
        // Either kind of hint is enough.
        (
            "rotate API keys",
            &["docs/a.md"],
            &["api keys"],
            &["src/**"],
            true,
        ),
        ("", &[], &[], &[], true),
    ];
    for (task, paths, th, ph, applies) in cases {
        let mut s = Scenario::new(task, paths);
        let mut p = skill_pref(
            "prefer-security-review-7e7e7e7e",
            "security-review",
            PreferenceKind::Prefer,
            0.8,
        );
        p.task_hints = v(th);
        p.path_hints = v(ph);
        s.preferences.push(p);
        let plan = s.run();
        assert_eq!(
            plan.invocation_plan.prefer_first == ["security-review"],
            *applies,
            "{task:?} {paths:?} ~ {th:?} {ph:?}"
        );
    }
}

#[test]
fn task_classes_apply_on_class_words_or_hints_and_workflows_route_like_skills() {
    let class = |hints: &[&str], paths: &[&str]| {
        let mut p = preference(
            "require-review-schema-migration-6100e86b",
            TargetType::TaskClass,
            "schema-migration",
            PreferenceKind::RequireReview,
            1.0,
        );
        p.task_hints = v(hints);
        p.path_hints = v(paths);
        p
    };
    // (task, paths, preference, applies)
    let cases: &[(&str, &[&str], Preference, bool)] = &[
        (
            "plan the schema migration for tenants",
            &[],
            class(&[], &[]),
            true,
        ),
        ("add a column to invoices", &[], class(&[], &[]), false),
        // Never global: no hints and no class words means no match.
        ("", &[], class(&[], &[]), false),
        (
            "add an index",
            &["migrations/0042_usage_idx.sql"],
            class(&[], &["migrations/*.sql"]),
            true,
        ),
        (
            "add an index",
            &["src/db.ts"],
            class(&[], &["migrations/*.sql"]),
            false,
        ),
        ("drop a column", &[], class(&["drop a column"], &[]), true),
    ];
    for (task, paths, pref, applies) in cases {
        let mut s = Scenario::new(task, paths);
        s.preferences.push(pref.clone());
        let plan = s.run();
        assert_eq!(
            plan.invocation_plan.human_review == ["schema-migration"],
            *applies,
            "{task:?} {paths:?}"
        );
        if *applies {
            assert_eq!(plan.display_mode, DisplayMode::NeedsReview);
            let src = &resolved(&plan, "schema-migration").sources[0];
            assert_eq!(src.target_type, Some(TargetType::TaskClass));
        }
    }

    let mut s = Scenario::new("fix invoice rounding bugfix", &["src/billing/invoice.ts"]);
    let mut workflow = preference(
        "prefer-red-green-refactor-c292991e",
        TargetType::Workflow,
        "Red Green Refactor",
        PreferenceKind::Prefer,
        0.8,
    );
    workflow.task_hints = v(&["bugfix", "invoices"]);
    s.preferences.push(workflow);
    s.session().avoid_skills = v(&["red_green_refactor"]);
    let plan = s.run();
    assert_eq!(plan.invocation_plan.suppress, ["red-green-refactor"]);
    assert_eq!(
        resolved(&plan, "red-green-refactor").deciding_layer,
        Layer::Session
    );
}

#[test]
fn skill_names_are_normalised() {
    let cases: &[(&str, Option<&str>)] = &[
        ("playwright-e2e", Some("playwright-e2e")),
        ("  Playwright E2E ", Some("playwright-e2e")),
        ("playwright_e2e", Some("playwright-e2e")),
        ("Playwright--E2E", Some("playwright-e2e")),
        ("-db migration review-", Some("db-migration-review")),
        ("superpowers:TDD", Some("superpowers:tdd")),
        ("  _ ", None),
    ];
    for (raw, want) in cases {
        assert_eq!(normalize_skill(raw).as_deref(), *want, "{raw:?}");
    }
}

#[test]
fn recommendations_follow_the_invocation_mode() {
    let mut s = Scenario::new(TASK, PATHS);
    for (id, mode, skill) in [
        (
            "e2e-required-mode-10000001",
            InvocationMode::Required,
            "a-first",
        ),
        (
            "e2e-prefer-mode-10000002",
            InvocationMode::Prefer,
            "b-first",
        ),
        (
            "e2e-optional-mode-10000003",
            InvocationMode::Optional,
            "c-optional",
        ),
        (
            "e2e-suppress-mode-10000004",
            InvocationMode::Suppress,
            "d-dropped",
        ),
    ] {
        s.memories.push(memory(
            id,
            MemoryType::Pattern,
            "Checkout e2e pattern",
            Risk::Low,
            Importance::Medium,
            Routing {
                recommended_skills: v(&[skill]),
                invocation_mode: mode,
                ..Routing::default()
            },
        ));
    }
    let plan = s.run();
    assert_eq!(plan.invocation_plan.prefer_first, ["a-first", "b-first"]);
    assert_eq!(plan.invocation_plan.optional_fallback, ["c-optional"]);
    assert_eq!(plan.resolved_skills.len(), 3);
    assert_eq!(
        plan.warnings,
        [
            "memory `e2e-suppress-mode-10000004` has `invocation_mode: suppress`; its recommended skills are not routed"
        ]
    );
}
