//! Stage 3: drop fragments that are not knowledge, each with a named reason.
//!
//! Acknowledgements ("ok thanks"), action logs without a lesson ("ran
//! tests", "fixed typo", "bumped deps") and debugging noise ("added a
//! console.log") are recognised by their words; a fragment that also gives a
//! reason, a risk or a rule is kept, because then it says something reusable.

use super::RejectReason;
use crate::review::text::{find_phrases, words};

/// Whole fragments that are only acknowledgement or small talk.
const CHATTER: &[&str] = &[
    "ok", "okay", "thanks", "thank", "you", "thx", "ty", "lgtm", "looks", "look", "good", "great",
    "nice", "cool", "sounds", "perfect", "done", "yes", "yep", "no", "sure", "awesome", "ship",
    "it", "works", "now", "got", "all", "set", "that", "fine", "right", "sgtm", "agreed", "will",
    "do", "let", "me", "know", "please", "continue", "go", "ahead", "hi", "hello", "the", "is",
    "s", "for", "today", "bye", "cheers", "much", "very", "lot", "a", "so", "far", "this",
];

/// Openings of an action log line.
const ACTIONS: &[&str] = &[
    "done",
    "all tests pass",
    "tests pass",
    "ran",
    "run",
    "fixed typo",
    "fix typo",
    "typo",
    "updated",
    "update",
    "bumped",
    "bump",
    "installed",
    "formatted",
    "format",
    "reformatted",
    "renamed",
    "committed",
    "pushed",
    "merged",
    "rebased",
    "reverted",
    "cleaned up",
    "tidied",
    "added",
    "removed",
    "deleted",
    "moved",
    "wrote",
    "implemented",
    "refactored",
    "tested",
    "checked",
    "looked at",
    "started",
    "finished",
    "made",
    "changed",
    "created",
];

/// Debugging and throwaway wording.
const NOISE: &[&str] = &[
    "console log",
    "println",
    "print statement",
    "debug print",
    "debug log",
    "temporary hack",
    "quick hack",
    "commented out",
    "npm install",
    "cargo fmt",
    "cargo build",
    "prettier",
];

/// Wording that turns an action into a lesson.
const LESSON: &[&str] = &[
    "because",
    "so that",
    "to avoid",
    "to prevent",
    "otherwise",
    "turns out",
    "turned out",
    "root cause",
    "must",
    "never",
    "always",
    "should",
    "watch out",
    "careful",
    "gotcha",
    "decided",
    "instead of",
    "rather than",
    "the reason",
    "breaks",
    "silently",
    "unless",
    "only when",
];

/// Fewest words a fragment needs to carry a lesson.
pub const MIN_WORDS: usize = 6;

/// Whether a sentence is chatter, an action log or debugging noise.
pub fn is_noise(sentence: &str) -> bool {
    matches!(
        reject_reason(sentence),
        Some(RejectReason::Chatter | RejectReason::ActionLog | RejectReason::TemporaryNoise)
    )
}

/// Returns why `text` is not knowledge, or `None` when it may be.
pub fn reject_reason(text: &str) -> Option<RejectReason> {
    let w = words(text);
    if w.is_empty() {
        return Some(RejectReason::LowInformation);
    }
    let lesson = !find_phrases(text, LESSON).is_empty();
    if w.len() <= 8 && w.iter().all(|x| CHATTER.contains(&x.as_str())) {
        return Some(RejectReason::Chatter);
    }
    if !lesson && !find_phrases(text, NOISE).is_empty() {
        return Some(RejectReason::TemporaryNoise);
    }
    if !lesson {
        let lower = text.trim_start().to_lowercase();
        let first = words(&lower);
        let starts_with_action = ACTIONS.iter().any(|a| {
            let aw = words(a);
            first.len() >= aw.len() && first[..aw.len()] == aw[..]
        });
        if starts_with_action {
            return Some(RejectReason::ActionLog);
        }
    }
    if w.len() < MIN_WORDS || text.trim().len() < 24 {
        return Some(RejectReason::LowInformation);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chatter_and_logs_are_named() {
        let cases: &[(&str, Option<RejectReason>)] = &[
            ("ok thanks", Some(RejectReason::Chatter)),
            ("Looks good, ship it!", Some(RejectReason::Chatter)),
            ("Ran tests.", Some(RejectReason::ActionLog)),
            ("Fixed typo in README.", Some(RejectReason::ActionLog)),
            (
                "Bumped serde to 1.0.200 and ran cargo update.",
                Some(RejectReason::ActionLog),
            ),
            (
                "Added a console.log in the checkout flow",
                Some(RejectReason::TemporaryNoise),
            ),
            ("Use tabs.", Some(RejectReason::LowInformation)),
            (
                "Done; all tests pass now (3 failed before, 46 passed after).",
                Some(RejectReason::ActionLog),
            ),
            (
                "Renamed the column to `amount_cents` because floats lost cents on refunds.",
                None,
            ),
            ("Never call the payments API from a request handler.", None),
        ];
        for (text, want) in cases {
            assert_eq!(reject_reason(text), *want, "{text}");
        }
    }
}
