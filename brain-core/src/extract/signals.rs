//! Whether an input is worth extracting: `brain suggest-extract` and the
//! first step of `brain capture`.
//!
//! The content decides: an input with no fragment that survives the pipeline
//! is "nothing worth extracting", whatever else is true. Session signals only
//! move the confidence:
//!
//! * **strong**: explicit done / move-on wording, tests going from failing to
//!   passing, a large diff;
//! * **context-dependent**: a sub-module finished, a recurring bug fixed, a
//!   refactor across several directories (counted only with substantive
//!   content);
//! * **weak**: a bare acknowledgement as the task; lowers confidence.

use schemars::JsonSchema;
use serde::Serialize;

use super::Extraction;
use crate::model::MemoryType;
use crate::review::text::{find_phrases, words};

/// What a capture should do.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum CaptureDecision {
    /// Extract: write the drafts as candidates.
    Extract,
    /// Drafts exist but are weak; written only when forced.
    Ambiguous,
    /// Nothing worth extracting.
    Skip,
}

/// How strong a signal is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Tier {
    /// The knowledge found in the text itself.
    Content,
    /// Explicit completion, tests fixed, a large diff.
    Strong,
    /// Sub-module done, recurring bug, multi-directory refactor.
    ContextDependent,
    /// Acknowledgement only.
    Weak,
}

/// One reason the confidence moved.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
pub struct Signal {
    /// Stable name (`done_wording`, `tests_fixed`, …).
    pub name: &'static str,
    /// Tier.
    pub tier: Tier,
    /// Change to the confidence.
    pub weight: f64,
    /// What was seen.
    pub detail: String,
}

/// A changed file, as far as signals care.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Changed {
    /// Path relative to the repository root.
    pub path: String,
    /// Lines added and removed, when known.
    pub lines: Option<(u32, u32)>,
}

/// The session facts besides the text.
#[derive(Clone, Debug, Default)]
pub struct SessionFacts<'a> {
    /// What the agent was asked to do.
    pub task: Option<&'a str>,
    /// A test run's summary ("3 failed, 40 passed → 43 passed").
    pub test_summary: Option<&'a str>,
    /// Files changed.
    pub changed: &'a [Changed],
}

/// The verdict.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
pub struct Assessment {
    /// What to do.
    pub decision: CaptureDecision,
    /// `0..=1`.
    pub confidence: f64,
    /// Every signal that moved it.
    pub signals: Vec<Signal>,
    /// Types of the drafts found, in order.
    pub suggested_types: Vec<MemoryType>,
}

const DONE: &[&str] = &[
    "done",
    "finished",
    "complete",
    "completed",
    "implementation complete",
    "all tests pass",
    "tests pass",
    "ship it",
    "move on",
    "moving on",
    "let's move on",
    "next task",
    "merged",
    "that works",
    "works now",
    "fixed",
    "resolved",
];

const SUBMODULE: &[&str] = &[
    "part done",
    "phase done",
    "phase complete",
    "step done",
    "module done",
    "first part",
    "second part",
    "milestone",
    "sub task",
    "subtask",
];

const RECURRING: &[&str] = &[
    "again",
    "recurring",
    "keeps happening",
    "kept happening",
    "regression",
    "second time",
    "third time",
    "every time",
    "once more",
    "came back",
];

const ACK: &[&str] = &[
    "ok",
    "okay",
    "thanks",
    "thank you",
    "lgtm",
    "looks good",
    "sounds good",
    "yes",
    "sure",
    "great",
];

/// Threshold of confidence for [`CaptureDecision::Extract`].
pub const EXTRACT_AT: f64 = 0.5;

/// Scores an input from what the pipeline found and the session facts.
#[allow(
    clippy::too_many_lines,
    reason = "one signal after another, in tier order"
)]
pub fn assess(text: &str, facts: &SessionFacts<'_>, found: &Extraction) -> Assessment {
    let mut signals = Vec::new();
    let task = facts.task.unwrap_or_default();
    let best = found.drafts.iter().map(|d| d.quality).max().unwrap_or(0);
    let suggested_types = found.drafts.iter().map(|d| d.draft.kind).collect();
    if found.drafts.is_empty() {
        let reasons: Vec<&str> = found.rejected.iter().map(|r| r.reason.as_str()).collect();
        signals.push(Signal {
            name: "no_knowledge",
            tier: Tier::Content,
            weight: 0.0,
            detail: if reasons.is_empty() {
                "no fragments".to_owned()
            } else {
                format!("every fragment rejected ({})", reasons.join(", "))
            },
        });
        return Assessment {
            decision: CaptureDecision::Skip,
            confidence: if found.rejected.is_empty() {
                0.95
            } else {
                0.85
            },
            signals,
            suggested_types,
        };
    }
    let q = f64::from(best.saturating_sub(45).min(55)) / 55.0;
    let more = u32::try_from(found.drafts.len().saturating_sub(1).min(3)).unwrap_or(3);
    signals.push(Signal {
        name: "knowledge",
        tier: Tier::Content,
        // More than one piece of knowledge is more reason to keep it.
        weight: ((0.4 + 0.45 * q + 0.03 * f64::from(more)) * 100.0).round() / 100.0,
        detail: format!("{} draft(s), best quality {best}", found.drafts.len()),
    });
    let both = format!("{task}\n{text}");
    let done = find_phrases(&both, DONE);
    if !done.is_empty() {
        signals.push(Signal {
            name: "done_wording",
            tier: Tier::Strong,
            weight: 0.1,
            detail: done.join(", "),
        });
    }
    if let Some(t) = facts.test_summary
        && tests_fixed(t)
    {
        signals.push(Signal {
            name: "tests_fixed",
            tier: Tier::Strong,
            weight: 0.1,
            detail: "failing tests now pass".to_owned(),
        });
    }
    let lines: u32 = facts
        .changed
        .iter()
        .filter_map(|c| c.lines.map(|(a, r)| a + r))
        .sum();
    if lines >= 200 || facts.changed.len() >= 8 {
        signals.push(Signal {
            name: "large_diff",
            tier: Tier::Strong,
            weight: 0.08,
            detail: format!("{} files, {lines} lines", facts.changed.len()),
        });
    }
    let sub = find_phrases(&both, SUBMODULE);
    if !sub.is_empty() {
        signals.push(Signal {
            name: "submodule_done",
            tier: Tier::ContextDependent,
            weight: 0.05,
            detail: sub.join(", "),
        });
    }
    let recurring = find_phrases(&both, RECURRING);
    if !recurring.is_empty() {
        signals.push(Signal {
            name: "recurring_bug",
            tier: Tier::ContextDependent,
            weight: 0.05,
            detail: recurring.join(", "),
        });
    }
    let dirs: std::collections::BTreeSet<&str> = facts
        .changed
        .iter()
        .filter_map(|c| c.path.split('/').next())
        .collect();
    if facts.changed.len() >= 3
        && dirs.len() >= 2
        && !find_phrases(&both, &["refactor", "refactored", "refactoring"]).is_empty()
    {
        signals.push(Signal {
            name: "multi_file_refactor",
            tier: Tier::ContextDependent,
            weight: 0.05,
            detail: format!(
                "{} files in {} directories",
                facts.changed.len(),
                dirs.len()
            ),
        });
    }
    let task_words = words(task);
    if !task_words.is_empty() && task_words.len() <= 4 && !find_phrases(task, ACK).is_empty() {
        signals.push(Signal {
            name: "acknowledgement",
            tier: Tier::Weak,
            weight: -0.1,
            detail: format!("task is only {task:?}"),
        });
    }
    let confidence = signals
        .iter()
        .map(|s| s.weight)
        .sum::<f64>()
        .clamp(0.05, 0.97);
    let confidence = (confidence * 100.0).round() / 100.0;
    Assessment {
        decision: if confidence >= EXTRACT_AT {
            CaptureDecision::Extract
        } else {
            CaptureDecision::Ambiguous
        },
        confidence,
        signals,
        suggested_types,
    }
}

/// Whether a test summary shows failures turning into passes: a failure
/// count before a later all-pass ("2 failed … → 45 passed, 0 failed").
pub fn tests_fixed(summary: &str) -> bool {
    let lower = summary.to_lowercase();
    let fail = ["fail", "error", "red"]
        .iter()
        .filter_map(|w| lower.find(w))
        .min();
    let pass = ["pass", "green", "ok", "success"]
        .iter()
        .filter_map(|w| lower.rfind(w))
        .max();
    let tail_clean = lower
        .rsplit(['→', '>', '\n', ';'])
        .next()
        .is_some_and(|t| !t.contains("fail") || t.contains("0 fail"));
    matches!((fail, pass), (Some(f), Some(p)) if f < p) && tail_clean
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn test_summaries() {
        assert!(tests_fixed("3 failed, 40 passed -> 43 passed"));
        assert!(tests_fixed(
            "before: 2 failing\nafter: all passing, 0 failed"
        ));
        assert!(!tests_fixed("43 passed"));
        assert!(!tests_fixed("40 passed, 3 failed"));
    }
}
