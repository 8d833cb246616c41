//! Stage 6: how much a draft is worth keeping, `0..=100`, with its parts.

use serde::Serialize;

use super::Draft;
use super::classify::{Classification, MIN_KEEP_SCORE};
use crate::model::MemoryType;
use crate::review::text::{find_phrases, words};

/// Drafts below this score are rejected.
pub const MIN_QUALITY: u32 = 45;

/// Wording that marks a draft as throwaway (except for working notes).
pub const TEMPORARY: &[&str] = &[
    "for now",
    "temporary",
    "temporarily",
    "quick hack",
    "this sprint",
    "until tomorrow",
    "just for today",
];

/// A quality score and how it was reached.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Quality {
    /// `0..=100`.
    pub score: u32,
    /// Each contribution, for `--explain`.
    pub parts: Vec<(&'static str, i32)>,
}

/// Scores a draft.
pub fn score(draft: &Draft, class: &Classification) -> Quality {
    let mut parts: Vec<(&'static str, i32)> = vec![("base", 20)];
    let type_points = (class.score.min(8.0) * 4.0).round();
    #[allow(clippy::cast_possible_truncation, reason = "bounded to 0..=32")]
    parts.push(("type signal", type_points as i32));
    if class.explicit {
        parts.push(("explicit type", 10));
    }
    let text = format!("{} {}", draft.summary, draft.detail);
    let n = words(&text).len();
    if n >= 12 {
        parts.push(("substance", 8));
    }
    if draft.summary.len() >= 40 {
        parts.push(("full summary", 6));
    }
    if !class.rationale.is_empty() {
        parts.push(("gives a reason", 12));
    }
    if !class.risk.is_empty() {
        parts.push(("names a risk", 8));
    }
    if !draft.paths.is_empty() || !draft.modules.is_empty() {
        parts.push(("names where", 8));
    }
    if draft.detail.contains("```") {
        parts.push(("has code", 4));
    }
    if class.score < MIN_KEEP_SCORE && !class.explicit {
        parts.push(("weak type signal", -20));
    }
    if draft.kind != MemoryType::Working && !find_phrases(&text, TEMPORARY).is_empty() {
        parts.push(("temporary wording", -15));
    }
    if n < 8 {
        parts.push(("few words", -15));
    }
    let total: i32 = parts.iter().map(|(_, p)| p).sum();
    Quality {
        score: u32::try_from(total.clamp(0, 100)).unwrap_or(0),
        parts,
    }
}
