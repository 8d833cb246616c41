//! Context on real rule files with natural tasks: the retrieval dev set
//! (`tests/fixtures/retrieval-dev/`, labelled by someone who did not write
//! the ranking), a held-out set of other repositories
//! (`tests/fixtures/retrieval-holdout/`, never used to tune), a fresh set
//! of yet others labelled after the tuning
//! (`tests/fixtures/retrieval-fresh/`), and a fourth, a fifth and a sixth
//! labelled later still (`tests/fixtures/retrieval-fourth/`,
//! `retrieval-fifth/`, `retrieval-sixth/`).
//! Each is scored as its README prescribes (only the printed block counts)
//! and must stay at or above floors a few points under what was measured;
//! the full report is
//! `cargo bench -p brain-cli --bench retrieval_dev` (see docs/retrieval.md).
//!
//! The import itself is checked on the way: a second import writes nothing
//! (also after approval merged candidates), no title is "Untitled", every
//! scope is a tracked file or a glob, and no block exceeds 1,200 tokens.

#[path = "../support/devset.rs"]
mod devset;

use crate::common::workspace;

/// `(group, recall@5, MRR, abstain)` floors; a group is `all`, a corpus, a
/// difficulty or a style, and `None` stands where the group has no tasks
/// the metric counts.
type Floors = &'static [(&'static str, Option<f64>, Option<f64>, Option<f64>)];

fn score(set: &str, floors: Floors) {
    let set = devset::DevSet::load(&workspace().join("tests/fixtures").join(set)).unwrap();
    let opts = devset::Options {
        binary: env!("CARGO_BIN_EXE_brain").into(),
        inject_args: Vec::new(),
        keep: None,
        config: None,
    };
    let run = devset::run(&set, &opts, None).unwrap();
    #[allow(clippy::print_stdout, reason = "the report explains a failure")]
    {
        println!("{}", devset::report(&run));
    }
    let mut problems = Vec::new();
    for (corpus, stats) in &run.imports {
        if stats.second_import_writes > 0 {
            problems.push(format!(
                "{corpus}: a second import wrote {} memories",
                stats.second_import_writes
            ));
        }
        for t in stats.titles.iter().filter(|t| t.starts_with("Untitled")) {
            problems.push(format!("{corpus}: title {t:?}"));
        }
        for s in &stats.scopes {
            if !s.contains('*') && !set.corpora[corpus].contains(s) {
                problems.push(format!(
                    "{corpus}: scope {s:?} is neither a glob nor a tracked file"
                ));
            }
        }
    }
    for o in &run.outcomes {
        if o.block_bytes.div_ceil(4) > 1200 {
            problems.push(format!("{}: a block of {} bytes", o.task.id, o.block_bytes));
        }
    }
    for (group, recall5, mrr, abstain) in floors {
        let tasks: Vec<_> = run
            .outcomes
            .iter()
            .filter(|o| {
                *group == "all"
                    || o.task.corpus == *group
                    || o.task.style == *group
                    || o.task.difficulty.as_deref().unwrap_or("abstain") == *group
            })
            .collect();
        assert!(!tasks.is_empty(), "no task is in group {group}");
        let m = devset::metrics(tasks);
        for (metric, value, floor) in [
            ("recall@5", m.recall5, recall5),
            ("mrr", m.mrr, mrr),
            ("abstain", m.abstain, abstain),
        ] {
            let Some(floor) = floor else { continue };
            if value.is_nan() || value + 1e-9 < *floor {
                problems.push(format!("{group} {metric}: {value:.3} < {floor:.3}"));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// Measured on 2026-11-27 (docs/retrieval.md): R@5 0.74, MRR 0.59, abstain
/// 18/19; per corpus, difficulty and style as in that report. Every floor
/// is five points under what was measured, or an earlier floor where that
/// was higher (floors are only raised), but for one: biome's Recall@5 fell
/// from 0.60 to 0.50 when the file's opening self-description stopped
/// being imported as a memory. That memory matched a task on "container"
/// (in `CssContainerStyleQuery`) and let the rule the task needed through
/// the relevance gate with it; without it the rule is first among the
/// near misses, under the gate. Its floor is five points under 0.50.
#[test]
fn the_dev_set_stays_above_its_floors() {
    score(
        "retrieval-dev",
        &[
            ("all", Some(0.70), Some(0.55), Some(0.90)),
            ("android__nowinandroid", Some(0.95), Some(0.78), Some(0.95)),
            ("astral-sh__uv", Some(0.87), Some(0.78), Some(0.95)),
            ("biomejs__biome", Some(0.45), Some(0.35), Some(0.95)),
            ("denoland__deno", Some(0.85), Some(0.66), Some(0.95)),
            ("dotnet__aspire", Some(0.50), Some(0.31), Some(0.45)),
            ("electron__electron", Some(0.65), Some(0.47), Some(0.95)),
            (
                "google-gemini__gemini-cli",
                Some(0.75),
                Some(0.63),
                Some(0.95),
            ),
            ("pydantic__pydantic-ai", Some(0.53), Some(0.35), Some(0.95)),
            ("rails__rails", Some(0.77), Some(0.66), Some(0.95)),
            ("trpc__trpc", Some(0.62), Some(0.60), Some(0.95)),
            ("abstain", None, None, Some(0.90)),
            ("lexical", Some(0.91), Some(0.73), None),
            ("paraphrase", Some(0.47), Some(0.37), None),
            ("long_prompt", Some(0.56), Some(0.44), Some(0.95)),
            ("names_files", Some(0.72), Some(0.54), Some(0.81)),
            ("pasted_log", Some(0.76), Some(0.61), None),
            ("short", Some(0.80), Some(0.67), Some(0.95)),
        ],
    );
}

/// Measured on 2026-11-27: R@5 0.74, MRR 0.55, abstain 12/16; per corpus,
/// difficulty and style as in docs/retrieval.md. Every floor is five
/// points under what was measured, or an earlier, higher floor.
#[test]
fn the_held_out_set_stays_above_its_floors() {
    score(
        "retrieval-holdout",
        &[
            ("all", Some(0.69), Some(0.50), Some(0.70)),
            (
                "Azure__azure-sdk-for-java",
                Some(0.50),
                Some(0.32),
                Some(0.95),
            ),
            ("Homebrew__brew", Some(0.75), Some(0.46), Some(0.95)),
            ("PostHog__posthog", Some(0.75), Some(0.73), Some(0.45)),
            ("cybercog__laravel-love", Some(0.78), Some(0.54), Some(0.95)),
            ("duckdb__duckdb", Some(0.55), Some(0.36), Some(0.45)),
            ("go-gitea__gitea", Some(0.84), Some(0.73), Some(0.95)),
            ("openai__codex", Some(0.73), Some(0.56), Some(0.45)),
            ("tuist__tuist", Some(0.62), Some(0.33), Some(0.45)),
            ("abstain", None, None, Some(0.70)),
            ("lexical", Some(0.78), Some(0.66), None),
            ("paraphrase", Some(0.59), Some(0.34), None),
            ("long_prompt", Some(0.81), Some(0.56), Some(0.95)),
            ("names_files", Some(0.57), Some(0.37), Some(0.45)),
            ("pasted_log", Some(0.83), Some(0.67), None),
            ("short", Some(0.56), Some(0.46), Some(0.70)),
        ],
    );
}

/// The fresh set (`tests/fixtures/retrieval-fresh`), labelled after the
/// ranking was tuned, from repositories neither other set uses. Measured on
/// 2026-11-27: R@5 0.61, MRR 0.49, abstain 11/18; per corpus, difficulty and
/// style as in docs/retrieval.md. Every floor is five points under what was
/// measured, or an earlier, higher floor (none where nothing was: long
/// prompts' one abstain task).
#[test]
fn the_fresh_set_stays_above_its_floors() {
    score(
        "retrieval-fresh",
        &[
            ("all", Some(0.56), Some(0.44), Some(0.56)),
            ("astral-sh__ruff", Some(0.70), Some(0.64), Some(0.62)),
            ("chatwoot__chatwoot", Some(0.70), Some(0.62), Some(0.95)),
            ("cli__cli", Some(0.35), Some(0.34), Some(0.95)),
            ("cline__cline", Some(0.59), Some(0.39), Some(0.28)),
            ("dotnet__runtime", Some(0.65), Some(0.44), Some(0.45)),
            ("home-assistant__core", Some(0.62), Some(0.60), Some(0.45)),
            ("mastra-ai__mastra", Some(0.50), Some(0.25), Some(0.45)),
            ("microsoft__vscode", Some(0.40), Some(0.27), Some(0.45)),
            ("abstain", None, None, Some(0.56)),
            ("lexical", Some(0.82), Some(0.73), None),
            ("paraphrase", Some(0.28), Some(0.17), None),
            ("long_prompt", Some(0.45), Some(0.37), None),
            ("names_files", Some(0.56), Some(0.54), Some(0.38)),
            ("pasted_log", Some(0.63), Some(0.38), None),
            ("short", Some(0.64), Some(0.46), Some(0.75)),
        ],
    );
}

/// The fourth set (`tests/fixtures/retrieval-fourth`), labelled from the
/// rule files of eight repositories no other set uses. First measured on
/// 2026-11-27 before any change for it (R@5 0.56, MRR 0.44, abstain 9/17);
/// these floors are five points under the measurement after the bugs its
/// failures showed were fixed (R@5 0.60, MRR 0.46, abstain 11/17; per
/// corpus, difficulty and style as in docs/retrieval.md); none where
/// nothing was (long prompts' one abstain task).
#[test]
fn the_fourth_set_stays_above_its_floors() {
    score(
        "retrieval-fourth",
        &[
            ("all", Some(0.56), Some(0.42), Some(0.60)),
            ("apache__kafka", Some(0.87), Some(0.38), Some(0.95)),
            ("filamentphp__filament", Some(0.59), Some(0.42), Some(0.45)),
            ("microsoft__PowerToys", Some(0.62), Some(0.48), Some(0.95)),
            ("microsoft__onnxruntime", Some(0.64), Some(0.56), Some(0.62)),
            ("oxc-project__oxc", Some(0.22), Some(0.23), Some(0.45)),
            ("pulumi__pulumi", Some(0.64), Some(0.56), Some(0.45)),
            ("stripe__stripe-ios", Some(0.64), Some(0.41), Some(0.45)),
            ("supabase__supabase", Some(0.35), Some(0.36), Some(0.45)),
            ("abstain", None, None, Some(0.60)),
            ("lexical", Some(0.76), Some(0.64), None),
            ("paraphrase", Some(0.31), Some(0.19), None),
            ("long_prompt", Some(0.46), Some(0.40), None),
            ("names_files", Some(0.62), Some(0.43), Some(0.38)),
            ("pasted_log", Some(0.59), Some(0.34), None),
            ("short", Some(0.63), Some(0.54), Some(0.84)),
        ],
    );
}

/// The fifth set (`tests/fixtures/retrieval-fifth`), labelled from the rule
/// files of eight more repositories no other set uses. First measured on
/// 2026-11-27 before any change for it (R@5 0.59, MRR 0.45, abstain 9/16);
/// these floors are five points under the measurement after the bugs its
/// failures showed were fixed (R@5 0.60, MRR 0.46, abstain 9/16), raised
/// to five points under abstain 11/16 once requests for a summary were
/// read as asking no change; none where nothing was (named files' two
/// abstain tasks).
#[test]
fn the_fifth_set_stays_above_its_floors() {
    score(
        "retrieval-fifth",
        &[
            ("all", Some(0.55), Some(0.41), Some(0.64)),
            (
                "dependabot__dependabot-core",
                Some(0.37),
                Some(0.30),
                Some(0.45),
            ),
            ("docker__docs", Some(0.45), Some(0.31), Some(0.45)),
            ("duckduckgo__Android", Some(0.40), Some(0.30), Some(0.45)),
            ("pytorch__pytorch", Some(0.70), Some(0.47), Some(0.95)),
            ("temporalio__temporal", Some(0.37), Some(0.35), Some(0.45)),
            ("valkey-io__valkey", Some(0.75), Some(0.47), Some(0.45)),
            ("vuejs__core", Some(0.72), Some(0.52), Some(0.95)),
            (
                "zephyrproject-rtos__zephyr",
                Some(0.64),
                Some(0.58),
                Some(0.95),
            ),
            ("abstain", None, None, Some(0.64)),
            ("lexical", Some(0.83), Some(0.76), None),
            ("paraphrase", Some(0.21), Some(0.07), None),
            ("long_prompt", Some(0.16), Some(0.07), Some(0.95)),
            ("names_files", Some(0.61), Some(0.51), None),
            ("pasted_log", Some(0.62), Some(0.44), Some(0.28)),
            ("short", Some(0.73), Some(0.57), Some(0.82)),
        ],
    );
}

/// The sixth set (`tests/fixtures/retrieval-sixth`), labelled from the rule
/// files of eight more repositories no other set uses. Measured on
/// 2026-11-27 before any change for it (R@5 0.66, MRR 0.46, abstain 8/16);
/// these floors are five points under that measurement, raised to five
/// points under abstain 11/16 (MRR 0.47) once requests for an explanation
/// or a summary that say they change nothing were read as such; none
/// where nothing was (the four pasted logs that should abstain).
#[test]
fn the_sixth_set_stays_above_its_floors() {
    score(
        "retrieval-sixth",
        &[
            ("all", Some(0.61), Some(0.42), Some(0.64)),
            (
                "GoogleCloudPlatform__cloud-foundation-fabric",
                Some(0.75),
                Some(0.50),
                Some(0.45),
            ),
            ("apache__arrow", Some(0.40), Some(0.25), Some(0.45)),
            (
                "duckduckgo__apple-browsers",
                Some(0.45),
                Some(0.29),
                Some(0.45),
            ),
            (
                "huggingface__transformers",
                Some(0.59),
                Some(0.37),
                Some(0.95),
            ),
            ("jesseduffield__lazygit", Some(0.68), Some(0.52), Some(0.45)),
            ("quarkusio__quarkus", Some(0.85), Some(0.64), Some(0.45)),
            ("rubocop__rubocop", Some(0.65), Some(0.40), Some(0.95)),
            ("vercel__next.js", Some(0.55), Some(0.41), Some(0.95)),
            ("abstain", None, None, Some(0.64)),
            ("lexical", Some(0.74), Some(0.59), None),
            ("paraphrase", Some(0.49), Some(0.26), None),
            ("long_prompt", Some(0.54), Some(0.33), Some(0.81)),
            ("names_files", Some(0.80), Some(0.56), None),
            ("pasted_log", Some(0.55), Some(0.41), None),
            ("short", Some(0.48), Some(0.37), Some(0.95)),
        ],
    );
}
