//! The extraction pipeline: free text (a session summary, a commit message, a
//! rule file's section) in, candidate memories out.
//!
//! One module per stage, each recorded in a [`Trace`] so `--explain` can show
//! what happened to every fragment:
//!
//! 1. [`preprocess`]: refuse binary and oversized input; normalise line ends,
//!    bullets and blank lines.
//! 2. [`chunk`]: split into sections, blocks and sentence fragments; fenced code
//!    stays whole with the fragment before it.
//! 3. [`detect`]: drop chatter and action logs with a named reason.
//! 4. [`classify`]: pick each fragment's own type from its own words.
//! 5. [`complete`]: title, summary, detail, scope (the paths *its own* text
//!    names), tags, importance and risk.
//! 6. [`quality`]: score the draft; below the bar it is rejected with a reason.
//! 7. [`dedupe`]: near-duplicates within the batch collapse to one.
//! 8. Review against the store ([`crate::review`]), done by the caller that has
//!    the store.
//!
//! Every stage is a pure function.

pub mod chunk;
pub mod classify;
pub mod complete;
pub mod dedupe;
pub mod detect;
pub mod external;
pub mod markdown;
pub mod preprocess;
pub mod quality;
pub mod rules;
pub mod signals;
pub mod transcript;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::model::{Importance, MemoryType, Risk};

/// The largest input the pipeline accepts, in bytes. Session summaries and
/// commit messages are kilobytes; anything this large is a log or a dump.
pub const MAX_INPUT_BYTES: usize = 1 << 20;

/// A memory proposed by the pipeline (or an external extractor), before it
/// has an id, a status or provenance.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Draft {
    /// Type, chosen for this draft alone.
    #[serde(rename = "type")]
    pub kind: MemoryType,
    /// One-line title.
    pub title: String,
    /// One or two sentences.
    pub summary: String,
    /// Rationale, examples, code.
    #[serde(default)]
    pub detail: String,
    /// Path globs named by the draft's own text.
    #[serde(default)]
    pub paths: Vec<String>,
    /// Modules named by the draft's own text.
    #[serde(default)]
    pub modules: Vec<String>,
    /// Tags.
    #[serde(default)]
    pub tags: Vec<String>,
    /// Importance.
    #[serde(default)]
    pub importance: Importance,
    /// Risk.
    #[serde(default)]
    pub risk: Risk,
}

/// Why a fragment did not become a candidate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum RejectReason {
    /// Acknowledgements and small talk ("ok thanks", "looks good").
    Chatter,
    /// A record of actions without a reusable lesson ("ran tests", "fixed typo").
    ActionLog,
    /// Debugging noise or explicitly temporary wording.
    TemporaryNoise,
    /// Too few words to carry a lesson.
    LowInformation,
    /// Nothing says which kind of knowledge it is.
    WeakTypeSignal,
    /// The same as another fragment of this input.
    DuplicateInBatch,
    /// The reviewer found it repeats a dismissed memory.
    PreviouslyDismissed,
    /// The same as a candidate already waiting for review.
    AlreadyQueued,
}

impl RejectReason {
    /// The word used in output.
    pub fn as_str(self) -> &'static str {
        match self {
            RejectReason::Chatter => "chatter",
            RejectReason::ActionLog => "action_log",
            RejectReason::TemporaryNoise => "temporary_noise",
            RejectReason::LowInformation => "low_information",
            RejectReason::WeakTypeSignal => "weak_type_signal",
            RejectReason::DuplicateInBatch => "duplicate_in_batch",
            RejectReason::PreviouslyDismissed => "previously_dismissed",
            RejectReason::AlreadyQueued => "already_queued",
        }
    }
}

impl std::fmt::Display for RejectReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A pipeline stage, as named in traces.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Stage {
    /// Input checks and normalisation.
    Preprocess,
    /// Splitting into fragments.
    Chunk,
    /// Chatter and action-log detection.
    Detect,
    /// Type classification.
    Classify,
    /// Field completion.
    Complete,
    /// Quality scoring.
    Quality,
    /// Within-batch de-duplication.
    Dedupe,
    /// Review against the store.
    Review,
}

/// One line of an `--explain` trace.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
pub struct TraceEvent {
    /// The stage.
    pub stage: Stage,
    /// Input line of the fragment (0 for the whole input).
    pub line: usize,
    /// What happened.
    pub message: String,
}

/// A draft that passed every stage, with where it came from.
#[derive(Clone, Debug, PartialEq)]
pub struct Extracted {
    /// The draft.
    pub draft: Draft,
    /// Input line of its fragment (0 when it came from an external extractor).
    pub line: usize,
    /// Its quality score.
    pub quality: u32,
    /// For a rule imported from a file: `path#hash` of its text, so a
    /// re-import recognises it whatever became of its candidate.
    pub span: Option<String>,
    /// For a rule imported from a file: `path#Heading / Subheading`, the
    /// section it sits in, so a re-import pairs an edited rule with the one
    /// it replaces.
    pub section: Option<String>,
}

/// A fragment that did not become a draft.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
pub struct Rejected {
    /// Input line.
    pub line: usize,
    /// The start of its text.
    pub excerpt: String,
    /// Why.
    pub reason: RejectReason,
    /// More about why, when there is more to say.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
}

/// What the local pipeline made of one input.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Extraction {
    /// The drafts, in input order.
    pub drafts: Vec<Extracted>,
    /// The fragments that were dropped.
    pub rejected: Vec<Rejected>,
    /// Every stage's decisions.
    pub trace: Vec<TraceEvent>,
}

/// Runs stages 2–7 on normalised text (see [`preprocess::decode`]).
/// `touched` are files the caller knows were changed; bare file names in the
/// text resolve against them.
pub fn run(text: &str, touched: &[String]) -> Extraction {
    run_in(text, touched, None)
}

/// [`run`] inside a repository whose tracked files are `tree`: the scope
/// of a draft is checked against them ([`complete::scope`]).
pub fn run_in(text: &str, touched: &[String], tree: Option<&[String]>) -> Extraction {
    let mut out = Extraction::default();
    let fragments = chunk::fragments(text, &classify::has_signal);
    out.trace.push(TraceEvent {
        stage: Stage::Chunk,
        line: 0,
        message: format!("{} fragments", fragments.len()),
    });
    let mut kept: Vec<(Draft, u32)> = Vec::new();
    let mut lines: Vec<usize> = Vec::new();
    for f in &fragments {
        if let Some(kept_draft) = process(f, touched, tree, &mut out) {
            kept.push(kept_draft);
            lines.push(f.line);
        }
    }
    let dups = dedupe::duplicates(&kept);
    for (i, ((draft, quality), dup)) in kept.into_iter().zip(dups).enumerate() {
        if let Some(j) = dup {
            out.trace.push(TraceEvent {
                stage: Stage::Dedupe,
                line: lines[i],
                message: format!("same as the fragment at line {}", lines[j]),
            });
            out.rejected.push(Rejected {
                line: lines[i],
                excerpt: excerpt(&draft.summary),
                reason: RejectReason::DuplicateInBatch,
                detail: Some(format!("same as the fragment at line {}", lines[j])),
            });
            continue;
        }
        out.drafts.push(Extracted {
            draft,
            line: lines[i],
            quality,
            span: None,
            section: None,
        });
    }
    out
}

/// Stages 3–6 for one fragment: the draft and its quality, or `None` with
/// the rejection recorded in `out`.
#[allow(
    clippy::too_many_lines,
    reason = "one stage after another, each traced"
)]
fn process(
    f: &chunk::Fragment,
    touched: &[String],
    tree: Option<&[String]>,
    out: &mut Extraction,
) -> Option<(Draft, u32)> {
    let text = f.text();
    let excerpt = excerpt(&text);
    out.trace.push(TraceEvent {
        stage: Stage::Chunk,
        line: f.line,
        message: format!(
            "fragment{}{}: {excerpt}",
            f.prefix
                .map(|k| format!(" (prefix {k})"))
                .unwrap_or_default(),
            if f.code.is_empty() {
                String::new()
            } else {
                format!(" (+{} code block)", f.code.len())
            }
        ),
    });
    if f.prefix.is_none()
        && let Some(reason) = detect::reject_reason(&text)
    {
        out.trace.push(TraceEvent {
            stage: Stage::Detect,
            line: f.line,
            message: format!("rejected: {reason}"),
        });
        out.rejected.push(Rejected {
            line: f.line,
            excerpt,
            reason,
            detail: None,
        });
        return None;
    }
    let class = classify::classify(&text, f.prefix, f.hint);
    out.trace.push(TraceEvent {
        stage: Stage::Classify,
        line: f.line,
        message: format!(
            "{} {:.1}{} [{}]{}",
            class.kind,
            class.score,
            class
                .runner_up
                .map(|(k, s)| format!(" over {k} {s:.1}"))
                .unwrap_or_default(),
            class.matched.join(", "),
            if class.explicit {
                " (explicit prefix)"
            } else {
                ""
            }
        ),
    });
    if class.score < classify::MIN_KEEP_SCORE {
        out.rejected.push(Rejected {
            line: f.line,
            excerpt,
            reason: RejectReason::WeakTypeSignal,
            detail: Some(format!(
                "best type {} scored {:.1}, below {:.1}",
                class.kind,
                class.score,
                classify::MIN_KEEP_SCORE
            )),
        });
        return None;
    }
    let draft = complete::complete(f, &class, touched, tree);
    out.trace.push(TraceEvent {
        stage: Stage::Complete,
        line: f.line,
        message: format!(
            "title {:?}; scope [{}]; tags [{}]; importance {}; risk {}",
            draft.title,
            draft.paths.join(", "),
            draft.tags.join(", "),
            draft.importance.as_str(),
            draft.risk.as_str()
        ),
    });
    let q = quality::score(&draft, &class);
    out.trace.push(TraceEvent {
        stage: Stage::Quality,
        line: f.line,
        message: format!(
            "{} = {}",
            q.score,
            q.parts
                .iter()
                .map(|(n, p)| format!("{n} {p:+}"))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    });
    if q.score < quality::MIN_QUALITY {
        let temporary = q.parts.iter().any(|(n, _)| *n == "temporary wording");
        out.rejected.push(Rejected {
            line: f.line,
            excerpt,
            reason: if temporary {
                RejectReason::TemporaryNoise
            } else {
                RejectReason::LowInformation
            },
            detail: Some(format!(
                "quality {} below {}",
                q.score,
                quality::MIN_QUALITY
            )),
        });
        return None;
    }
    Some((draft, q.score))
}

/// The first 80 characters of a text, on one line.
pub fn excerpt(text: &str) -> String {
    let one_line = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if one_line.chars().count() <= 80 {
        return one_line;
    }
    let cut: String = one_line.chars().take(79).collect();
    format!("{cut}…")
}

#[cfg(test)]
mod tests {
    use super::*;

    const SESSION: &str = "## Session summary\n\
Implemented idempotent refunds; all tests pass now.\n\
\n\
We decided to keep refund state in Postgres rather than Redis because refunds need transactional writes with the ledger in `src/billing/ledger.rs`.\n\
Watch out: the Stripe webhook handler in `src/webhooks/stripe.ts` can receive the same event twice, so it must dedupe on the event id or customers are charged twice.\n\
Always name SQL migrations in `db/migrations/` with a UTC timestamp prefix like `20261120_add_refunds.sql`.\n\
\n\
Ran tests. ok thanks\n";

    #[test]
    fn one_session_three_memories_each_scoped_to_its_own_sentence() {
        let text = preprocess::normalize(SESSION);
        let out = run(&text, &[]);
        let got: Vec<(MemoryType, Vec<String>)> = out
            .drafts
            .iter()
            .map(|d| (d.draft.kind, d.draft.paths.clone()))
            .collect();
        assert_eq!(
            got,
            vec![
                (
                    MemoryType::Decision,
                    vec!["src/billing/ledger.rs".to_owned()]
                ),
                (
                    MemoryType::Gotcha,
                    vec!["src/webhooks/stripe.ts".to_owned()]
                ),
                (MemoryType::Convention, vec!["db/migrations/**".to_owned()]),
            ],
            "{:#?}\n{:#?}",
            out.drafts,
            out.trace
        );
        let reasons: Vec<RejectReason> = out.rejected.iter().map(|r| r.reason).collect();
        assert!(
            reasons.contains(&RejectReason::ActionLog),
            "{:#?}",
            out.rejected
        );
    }
}
