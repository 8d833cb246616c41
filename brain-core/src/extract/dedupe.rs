//! Stage 7: collapse near-duplicates within one batch.
//!
//! Two drafts of the same type whose title and summary say the same thing
//! (reviewer similarity ≥ [`crate::review::DUPLICATE`]) are one memory; the
//! one with the higher quality stays (the earlier on a tie).

use super::Draft;
use crate::review::DUPLICATE;
use crate::review::text::similarity;

/// Returns, for each draft, the index of the kept draft it duplicates.
pub fn duplicates(drafts: &[(Draft, u32)]) -> Vec<Option<usize>> {
    let mut out: Vec<Option<usize>> = vec![None; drafts.len()];
    for i in 0..drafts.len() {
        if out[i].is_some() {
            continue;
        }
        for j in i + 1..drafts.len() {
            if out[j].is_some() {
                continue;
            }
            let (a, qa) = &drafts[i];
            let (b, qb) = &drafts[j];
            if a.kind != b.kind {
                continue;
            }
            let same = similarity(&a.title, &b.title) >= DUPLICATE
                || similarity(&a.summary, &b.summary) >= DUPLICATE;
            if !same {
                continue;
            }
            if qb > qa {
                out[i] = Some(j);
                break;
            }
            out[j] = Some(i);
        }
    }
    // Resolve chains so every duplicate points at a kept draft.
    for i in 0..out.len() {
        let mut k = out[i];
        while let Some(next) = k.and_then(|x| out[x]) {
            k = Some(next);
        }
        out[i] = k;
    }
    out
}
