//! The extraction pipeline on realistic inputs: which fragments become which
//! drafts, with which scope, and why the rest is dropped.

use brain_core::extract::{self, RejectReason, preprocess};
use brain_core::model::MemoryType;

fn fixture(name: &str) -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/fixtures/extract")
        .join(name);
    std::fs::read_to_string(path).unwrap()
}

struct Case {
    input: &'static str,
    touched: &'static [&'static str],
    drafts: &'static [(MemoryType, &'static [&'static str])],
    rejected: &'static [RejectReason],
}

#[test]
fn realistic_inputs_become_typed_drafts_scoped_to_their_own_text() {
    use MemoryType::{Convention, Decision, Gotcha, Pattern, Working};
    use RejectReason::{ActionLog, Chatter, LowInformation, TemporaryNoise, WeakTypeSignal};
    let cases = [
        Case {
            input: "queue-migration.md",
            touched: &[],
            drafts: &[
                (Gotcha, &[]),
                (Gotcha, &["scripts/deploy.sh"]),
                (Gotcha, &["tests/integration/**"]),
                (Decision, &[]),
                (Decision, &[]),
                (Working, &["terraform/alarms.tf"]),
            ],
            rejected: &[WeakTypeSignal, Chatter],
        },
        Case {
            input: "transcript-summary.md",
            touched: &[],
            drafts: &[
                (Gotcha, &["web/src/checkout/Cart.tsx"]),
                (Convention, &["web/src/hooks/**"]),
                (
                    Pattern,
                    &[
                        "api/payments/methods/sepa.rs",
                        "api/payments/registry.rs",
                        "api/tests/payments/**",
                    ],
                ),
            ],
            rejected: &[LowInformation, TemporaryNoise, ActionLog, Chatter],
        },
        Case {
            input: "commit-message.txt",
            touched: &["src/webhooks/stripe.rs", "src/jobs/queue.rs"],
            // The lesson and the decision are two memories; only the
            // sentence naming the handler is scoped to it.
            drafts: &[(Gotcha, &["src/webhooks/stripe.rs"]), (Decision, &[])],
            rejected: &[WeakTypeSignal, LowInformation],
        },
    ];
    for case in &cases {
        let text = preprocess::decode(fixture(case.input).as_bytes()).unwrap();
        let touched: Vec<String> = case.touched.iter().map(|s| (*s).to_owned()).collect();
        let out = extract::run(&text, &touched);
        let got: Vec<(MemoryType, Vec<&str>)> = out
            .drafts
            .iter()
            .map(|d| {
                (
                    d.draft.kind,
                    d.draft.paths.iter().map(String::as_str).collect(),
                )
            })
            .collect();
        let want: Vec<(MemoryType, Vec<&str>)> =
            case.drafts.iter().map(|(k, p)| (*k, p.to_vec())).collect();
        assert_eq!(got, want, "{}: {:#?}", case.input, out.trace);
        let reasons: Vec<RejectReason> = out.rejected.iter().map(|r| r.reason).collect();
        assert_eq!(
            reasons, case.rejected,
            "{}: {:#?}",
            case.input, out.rejected
        );
        for d in &out.drafts {
            assert!(!d.draft.title.is_empty() && d.draft.title.chars().count() <= 88);
            assert!(!d.draft.title.contains('\n'));
            assert!(d.quality >= 45);
        }
    }
}

#[test]
fn empty_and_whitespace_input_has_nothing_worth_extracting() {
    for input in ["", "   \n\n\t  \n", "ok", "thanks!"] {
        let text = preprocess::decode(input.as_bytes()).unwrap();
        assert!(extract::run(&text, &[]).drafts.is_empty(), "{input:?}");
    }
}
