//! The deterministic reviewer: compares one candidate memory with the store
//! and decides what should happen to it, with the evidence.
//!
//! Pure and deterministic: the same candidate and store give the same outcome,
//! ties break on id. The pipeline:
//!
//! 1. **Prefilter** ([`ReviewIndex`]): an inverted index of title and summary
//!    tokens picks the stored memories that share the rarest topic words with
//!    the candidate (at most [`MAX_TARGETS`]), so a review costs the same at
//!    ten thousand memories as at ten.
//! 2. **Comparability**: same type, a status that can still be merged into or
//!    replaced (`active`, `stale`, or another pending `candidate`; `dismissed`
//!    memories only count as a reason to reject a repeat), and scopes
//!    that are not disjoint (the same rule for two different places is two
//!    memories).
//! 3. **Evidence** ([`Evidence`]): identity, scope relation, text similarity per
//!    field, replacement and additive wording, recency, lineage links; and,
//!    unreported, the identifiers, code spans and measures both name, values
//!    the candidate changes, opposite words and title qualifications.
//! 4. **Relation** ([`Relation`]), then **decision** ([`Decision`]), in
//!    `decide.rs`, each with a reason.

mod decide;
pub mod text;

use std::collections::{BTreeMap, BTreeSet};

use schemars::JsonSchema;
use serde::Serialize;

use crate::model::{Memory, MemoryId, Status};

pub use decide::{DUPLICATE, OVERLAP, RELATED};

/// How many stored memories are compared in full with one candidate.
pub const MAX_TARGETS: usize = 24;

/// What should happen to a candidate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Decision {
    /// Store it as a new memory.
    Accept,
    /// Fold it into the target: one memory remains (also for duplicates).
    Merge,
    /// Store it and mark the target as replaced by it.
    Supersede,
    /// Do not store it: it repeats knowledge that was dismissed before.
    Reject,
}

/// How a candidate relates to what is stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Relation {
    /// Nothing comparable is stored.
    Novel,
    /// It says what a stored memory says.
    Duplicate,
    /// It adds to a stored memory about the same thing.
    AdditiveUpdate,
    /// It replaces a stored memory.
    FullReplacement,
    /// It narrows a broader stored memory to part of its scope.
    PossibleSplit,
    /// It overlaps stored memories without a clear relation: a person decides.
    AmbiguousOverlap,
}

/// How two scopes relate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ScopeRelation {
    /// Both apply to the whole repository.
    BothGlobal,
    /// The same paths and modules.
    Same,
    /// The candidate applies to part of the target's scope.
    Narrower,
    /// The candidate applies to more than the target's scope.
    Broader,
    /// Some paths or modules in common.
    Overlapping,
    /// Nothing in common.
    Disjoint,
}

/// The evidence comparing a candidate with one stored memory.
#[allow(
    clippy::struct_excessive_bools,
    reason = "each flag is an independent piece of evidence, reported by name"
)]
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
pub struct Evidence {
    /// The stored memory.
    pub target: MemoryId,
    /// Its status (`dismissed` targets only ever lead to a rejection).
    pub target_status: Status,
    /// Same type and the same normalised title.
    pub same_identity: bool,
    /// How the scopes relate.
    pub scope: ScopeRelation,
    /// Title similarity, `0..=1`.
    pub title: f64,
    /// Summary similarity, `0..=1`.
    pub summary: f64,
    /// Detail similarity, `0..=1` (0 when either has none).
    pub detail: f64,
    /// Weighted overall similarity, `0..=1`.
    pub combined: f64,
    /// Replacement phrases found in the candidate ("instead of", "no longer").
    pub replacement_wording: Vec<String>,
    /// Additive phrases found in the candidate ("also", "in addition").
    pub additive_wording: Vec<String>,
    /// The candidate adds tags, paths or detail the target does not have.
    pub adds_information: bool,
    /// The candidate was captured after the target.
    pub newer: bool,
    /// The candidate already names the target in its lineage.
    pub lineage_link: bool,
}

/// The reviewer's verdict on one candidate.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
pub struct ReviewOutcome {
    /// The candidate reviewed.
    pub candidate: MemoryId,
    /// What should happen.
    pub decision: Decision,
    /// Why, in terms of the stored memories.
    pub relation: Relation,
    /// The stored memories the decision applies to (merge into, supersede, duplicate of).
    pub targets: Vec<MemoryId>,
    /// How sure the reviewer is, `0..=1`.
    pub confidence: f64,
    /// One sentence explaining the decision.
    pub reason: String,
    /// Temporary wording in the candidate ("for now", "this sprint").
    pub temporary_wording: Vec<String>,
    /// Evidence for the closest stored memories, most similar first.
    pub evidence: Vec<Evidence>,
}

/// An inverted index of the stored memories' title and summary tokens
/// (identifiers also by their words: `CancelFunc` is indexed as `cancelfunc`,
/// `cancel` and `func`).
///
/// Tokens are interned to numbers once; postings are lists of positions; a
/// query adds up the rarity of shared tokens in a dense array. Tokens found in
/// more than half of a large store (boilerplate words) are not counted: they
/// cannot tell memories apart.
#[derive(Debug, Default)]
pub struct ReviewIndex {
    vocabulary: std::collections::HashMap<String, u32>,
    postings: Vec<Vec<u32>>,
    len: usize,
    /// Normalised title → positions, for the identity check.
    titles: BTreeMap<String, Vec<usize>>,
}

impl ReviewIndex {
    /// Indexes `memories` (positions refer to this slice).
    ///
    /// # Panics
    ///
    /// With more than 2^32 memories or distinct tokens.
    pub fn new(memories: &[&Memory]) -> ReviewIndex {
        let mut index = ReviewIndex {
            len: memories.len(),
            ..ReviewIndex::default()
        };
        let mut buf = String::new();
        let mut ids: Vec<u32> = Vec::new();
        for (i, m) in memories.iter().enumerate() {
            let position = u32::try_from(i).expect("fewer than 2^32 memories");
            ids.clear();
            for text in [&m.title, &m.summary] {
                text::for_each_index_token(text, &mut buf, |token| {
                    let next = u32::try_from(index.postings.len()).expect("fewer than 2^32 tokens");
                    let id = *index
                        .vocabulary
                        .entry(token.to_owned())
                        .or_insert_with(|| next);
                    if id == next {
                        index.postings.push(Vec::new());
                    }
                    ids.push(id);
                });
            }
            ids.sort_unstable();
            ids.dedup();
            for &id in &ids {
                index.postings[id as usize].push(position);
            }
            index.titles.entry(title_key(&m.title)).or_default().push(i);
        }
        index
    }

    /// Returns the positions of the memories sharing the most with `tokens`,
    /// at most `limit`, best first, ties by position.
    ///
    /// A shared token counts by its rarity (inverse document frequency,
    /// `ln(n / memories with it)`, at least a small floor): two memories that
    /// share "cancel", "timer" and "defer" are closer than two that share
    /// "never", "function" and "line", so a rephrased memory is found among
    /// thousands that share only everyday words with the candidate.
    pub fn candidates(&self, tokens: &BTreeSet<String>, limit: usize) -> Vec<usize> {
        let mut scores = vec![0f32; self.len];
        let common = if self.len > 100 {
            self.len / 2
        } else {
            usize::MAX
        };
        #[allow(
            clippy::cast_precision_loss,
            reason = "store sizes are far below f32 precision limits"
        )]
        let n = self.len as f32;
        for t in tokens {
            if let Some(&id) = self.vocabulary.get(t) {
                let list = &self.postings[id as usize];
                if list.len() > common {
                    continue;
                }
                #[allow(clippy::cast_precision_loss, reason = "as above")]
                let weight = (n / list.len() as f32).ln().max(0.1);
                for &i in list {
                    scores[i as usize] += weight;
                }
            }
        }
        let mut ranked: Vec<(usize, f32)> = scores
            .into_iter()
            .enumerate()
            .filter(|(_, s)| *s > 0.0)
            .collect();
        ranked.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        ranked.into_iter().take(limit).map(|(i, _)| i).collect()
    }
}

fn title_key(title: &str) -> String {
    text::words(title).join(" ")
}

fn topic_tokens(m: &Memory) -> BTreeSet<String> {
    let mut buf = String::new();
    let mut t = BTreeSet::new();
    for text in [&m.title, &m.summary] {
        text::for_each_index_token(text, &mut buf, |token| {
            t.insert(token.to_owned());
        });
    }
    t
}

/// Reviews candidates against a fixed set of stored memories.
#[derive(Debug)]
pub struct Reviewer<'a> {
    stored: Vec<&'a Memory>,
    index: ReviewIndex,
}

impl<'a> Reviewer<'a> {
    /// Prepares a reviewer over `stored` (memories of any status; the
    /// comparability filter decides which count).
    pub fn new(stored: impl IntoIterator<Item = &'a Memory>) -> Reviewer<'a> {
        let mut stored: Vec<&Memory> = stored.into_iter().collect();
        stored.sort_by(|a, b| a.id.cmp(&b.id));
        let index = ReviewIndex::new(&stored);
        Reviewer { stored, index }
    }

    /// Reviews one candidate. The candidate itself, if stored, is ignored.
    pub fn review(&self, candidate: &Memory) -> ReviewOutcome {
        let tokens = topic_tokens(candidate);
        let mut positions = self.index.candidates(&tokens, MAX_TARGETS);
        // Same-identity memories are always compared, whatever the prefilter says.
        if let Some(same_title) = self.index.titles.get(&title_key(&candidate.title)) {
            for &i in same_title {
                if self.stored[i].kind == candidate.kind && !positions.contains(&i) {
                    positions.push(i);
                }
            }
        }
        // Rank by text similarity, then gather the full evidence for the
        // closest only.
        let mut ranked: Vec<(&Memory, decide::Closeness)> = positions
            .into_iter()
            .map(|i| self.stored[i])
            .filter(|m| comparable(candidate, m))
            .map(|m| (m, decide::closeness(candidate, m)))
            .filter(|(_, c)| c.scope != ScopeRelation::Disjoint)
            .collect();
        ranked.sort_by(|(a, x), (b, y)| {
            y.combined
                .total_cmp(&x.combined)
                .then_with(|| a.id.cmp(&b.id))
        });
        ranked.truncate(5);
        let features = decide::Features::of(candidate);
        let scored: Vec<decide::Scored> = ranked
            .into_iter()
            .map(|(m, c)| decide::evidence(candidate, &features, m, c))
            .collect();
        decide::outcome(candidate, scored)
    }
}

/// Whether `stored` can be merged into, replaced or duplicated by `candidate`.
fn comparable(candidate: &Memory, stored: &Memory) -> bool {
    stored.id != candidate.id
        && stored.kind == candidate.kind
        && matches!(
            stored.status,
            Status::Active | Status::Stale | Status::Candidate | Status::Dismissed
        )
}
