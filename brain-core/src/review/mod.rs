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
//! 2. **Comparability** ([`eligible`]): not a candidate of the same batch
//!    (one command run: the same provenance source, capture time and
//!    evidence) and not a candidate captured later (so chains between
//!    candidates never form a cycle); the same type, or two of decision,
//!    convention, gotcha and pattern (one rule may be captured as any of
//!    them), or any type when the candidate has replacement wording, which
//!    may replace another type by name, and for `dismissed` memories, which
//!    are dismissed whatever type the repeat has; a status that can still be merged into or replaced
//!    (`active`, `stale`, or another pending `candidate`; `dismissed`
//!    memories only count as a reason to reject a repeat). Scope is weighed
//!    by the rules, not filtered: a moved file lives somewhere else than the
//!    memory it replaces.
//! 3. **Evidence** ([`Evidence`], `decide.rs`): identity, scope relation,
//!    text similarity per field, replacement and additive wording, recency,
//!    lineage links, changed values (`values.rs`), distinct subjects
//!    (`subject.rs`); and, unreported, additive references that name the
//!    memory (`addition.rs`), the identifiers, code spans and measures both
//!    name, opposite words, whether the candidate repeats the memory's claim
//!    (its title's content words) and the words only the candidate and that
//!    memory share among those compared.
//! 4. **Relation** ([`Relation`]), then **decision** ([`Decision`]), in
//!    `classify.rs`, each with a reason; a candidate that only reports
//!    activity ("fixed a typo", "WIP") is rejected (`novalue.rs`).

mod addition;
mod classify;
mod decide;
mod novalue;
mod replacement;
mod subject;
pub mod text;
mod values;

use std::borrow::Cow;
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
    /// It only reports activity or progress ("fixed a typo", "all tests
    /// pass", "WIP"): nothing the next person needs.
    NoDurableValue,
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
    /// A value of the target the candidate states differently ("timeout:
    /// 10 seconds → 30 seconds").
    pub changed_value: Option<String>,
    /// The titles share their shape but name different things ("`clippy`
    /// where it says `fmt`"): distinct memories, never merged or replaced.
    pub distinct_subject: Option<String>,
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

    /// Reviews one candidate. The candidate itself, if stored, is ignored,
    /// and so are the candidates of its batch and candidates captured after
    /// it (see [`eligible`]).
    pub fn review(&self, candidate: &Memory) -> ReviewOutcome {
        // "Closing #301: …" is compared as what follows the label; a label
        // may still say that it only reports ("Session summary: …").
        let compared = unlabelled(candidate);
        let no_value = match compared {
            Cow::Owned(_) => decide::Features::of(candidate).no_value,
            Cow::Borrowed(_) => None,
        };
        let candidate = &*compared;
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
        // So are the memories its lineage says it replaces (an edited rule
        // of a re-imported file), however little their words share.
        for id in &candidate.lineage.supersedes {
            if let Some(i) = self.stored.iter().position(|m| m.id == *id)
                && !positions.contains(&i)
            {
                positions.push(i);
            }
        }
        let mut features = decide::Features::of(candidate);
        features.no_value = features.no_value.or(no_value);
        // Everything the prefilter found that may be compared, of any type:
        // the words only one of them shares with the candidate are what ties
        // the candidate to that one.
        let pool: Vec<(Cow<'_, Memory>, decide::Features)> = positions
            .into_iter()
            .map(|i| self.stored[i])
            .filter(|m| eligible(candidate, m))
            .map(unlabelled)
            .map(|m| {
                let f = decide::Features::of(&m);
                (m, f)
            })
            .collect();
        // A memory of another type may be replaced by name, and dismissed
        // knowledge is dismissed whatever type it comes back as; otherwise
        // only types of one kind meet (see `decide::same_kind`).
        let cross_type = !features.replacements().is_empty();
        let mut ranked: Vec<(usize, decide::Closeness)> = pool
            .iter()
            .enumerate()
            .filter(|(_, (m, _))| {
                comparable(candidate, m, cross_type) || candidate.lineage.supersedes.contains(&m.id)
            })
            .map(|(i, (m, _))| (i, decide::closeness(candidate, m)))
            .collect();
        let linked = |i: usize| candidate.lineage.supersedes.contains(&pool[i].0.id);
        ranked.sort_by(|(a, x), (b, y)| {
            linked(*b)
                .cmp(&linked(*a))
                .then_with(|| y.combined.total_cmp(&x.combined))
                .then_with(|| pool[*a].0.id.cmp(&pool[*b].0.id))
        });
        ranked.truncate(8);
        let scored: Vec<decide::Scored> = ranked
            .into_iter()
            .map(|(i, c)| {
                let (m, f) = &pool[i];
                // Words of a path both name say where, not what.
                let paths = features.shared_path_roots(f);
                let specific: Vec<String> = features
                    .roots
                    .iter()
                    .filter(|w| {
                        !subject::generic(w)
                            && !paths.contains(*w)
                            && f.roots.contains(*w)
                            && pool
                                .iter()
                                .enumerate()
                                .all(|(j, (_, o))| j == i || !o.roots.contains(*w))
                    })
                    .cloned()
                    .collect();
                let mut s = decide::evidence(candidate, &features, m, f, c, specific);
                // A value another compared memory states is that memory's,
                // not a change of this one ("Access tokens stay valid until
                // their 15-minute expiry" against "refresh tokens are valid
                // for 30 days", beside "Access tokens live 15 minutes"): of
                // the same thing, or anywhere when nothing says it changed.
                // Said to have changed, it must be said of two of the same
                // words: "iOS 16" that NavigationStack requires is not the
                // deployment target "raised to iOS 16". So must a value set
                // by its name (`RACK_TIMEOUT_SERVICE_TIMEOUT=15`): a 15 s
                // `statement_timeout` elsewhere is not that setting's.
                // Changed in two titles of one frame ("recon-service DB2
                // pool 4" / "… pool is 8"), it must be said of all the words
                // the new value is about: "account-query DB2 pool 8" is
                // another service's pool.
                if s.changed.as_ref().is_some_and(|ch| {
                    let about = if ch.in_titles && ch.strength.0 == 3 {
                        ch.new_value.key.len().max(2)
                    } else if ch.worded || ch.new_in_title || ch.new_value.named {
                        2
                    } else {
                        0
                    };
                    pool.iter()
                        .enumerate()
                        .any(|(j, (_, o))| j != i && o.states_value(&ch.new_value, about))
                }) {
                    s.changed = None;
                    s.evidence.changed_value = None;
                }
                s
            })
            .collect();
        classify::outcome(candidate, &features, scored)
    }
}

/// The memory with the labels of its title and summary left out (see
/// [`text::without_label`]): a ticket's or a record's reference says where
/// the knowledge comes from, not what it is.
fn unlabelled(m: &Memory) -> Cow<'_, Memory> {
    let (title, summary) = (
        text::without_label(&m.title),
        text::without_label(&m.summary),
    );
    if title.len() == m.title.len() && summary.len() == m.summary.len() {
        return Cow::Borrowed(m);
    }
    let mut m = m.clone();
    title.clone_into(&mut m.title);
    summary.clone_into(&mut m.summary);
    Cow::Owned(m)
}

/// Whether `stored` may be compared with `candidate` at all: not the
/// candidate itself, not a candidate of the same batch (written by one
/// command run: the same provenance source, capture time and evidence), and
/// not a pending candidate captured after it (ties broken by id). The last
/// two rules keep one import from folding its own sections into each other
/// and make merge and supersede chains between candidates acyclic: a
/// candidate only ever points at an older one.
pub fn eligible(candidate: &Memory, stored: &Memory) -> bool {
    if stored.id == candidate.id || siblings(candidate, stored) {
        return false;
    }
    stored.status != Status::Candidate
        || (stored.provenance.captured_at, &stored.id)
            < (candidate.provenance.captured_at, &candidate.id)
}

/// Whether two memories were written by one command run, whatever their
/// evidence: the same provenance source (not `manual`), capture time and
/// proposer. The files of one `brain import` are one run.
pub(crate) fn same_run(a: &Memory, b: &Memory) -> bool {
    let (pa, pb) = (&a.provenance, &b.provenance);
    pa.source != crate::model::Source::Manual
        && pa.source == pb.source
        && pa.captured_at == pb.captured_at
        && pa.proposed_by == pb.proposed_by
}

/// Whether two memories were written by the same command run (a capture,
/// an extraction, an import): the same provenance source, capture time and
/// proposer, and the evidence of the run (the same list, or at least one
/// item in common: each section of an imported file may add its own).
/// Memories written by hand (`manual`) come one per command and have no
/// siblings.
pub fn siblings(a: &Memory, b: &Memory) -> bool {
    let (pa, pb) = (&a.provenance, &b.provenance);
    same_run(a, b)
        && (pa.evidence == pb.evidence || pa.evidence.iter().any(|e| pb.evidence.contains(e)))
}

/// Whether `stored` can be merged into, replaced or duplicated by
/// `candidate`: a status that can still change (or `dismissed`, as a reason
/// to reject), and the same type or kind ([`decide::same_kind`]), or any
/// type for a candidate with replacement wording (replaced by name only, see
/// `classify.rs`) and for a dismissed memory (repeated under another type).
fn comparable(candidate: &Memory, stored: &Memory, cross_type: bool) -> bool {
    let kinds = decide::same_kind(stored.kind, candidate.kind)
        || cross_type
        || stored.status == Status::Dismissed;
    kinds
        && matches!(
            stored.status,
            Status::Active | Status::Stale | Status::Candidate | Status::Dismissed
        )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Evidence, EvidenceKind, MemoryType, Provenance, Source};

    fn memory(id: &str, status: Status, source: Source, at: &str, evidence: &[&str]) -> Memory {
        Memory::new(
            MemoryId::new(id).unwrap(),
            MemoryType::Convention,
            status,
            "Always run make test before pushing",
            "CI runs the same suite.",
            Provenance {
                source,
                captured_at: at.parse().unwrap(),
                proposed_by: Some("Ann".into()),
                evidence: evidence
                    .iter()
                    .map(|v| Evidence {
                        kind: EvidenceKind::File,
                        value: (*v).to_owned(),
                    })
                    .collect(),
            },
        )
    }

    #[test]
    fn batch_siblings_and_later_candidates_are_not_compared() {
        use Source::{Import, Manual, Session};
        use Status::{Active, Candidate};
        const T1: &str = "2026-01-01T00:00:00Z";
        const T2: &str = "2026-01-02T00:00:00Z";
        let cand = memory("b-cand", Candidate, Import, T1, &["AGENTS.md"]);
        let cases = [
            // One import run: never compared, whatever the status now.
            (
                memory("a-sib", Candidate, Import, T1, &["AGENTS.md"]),
                false,
            ),
            (
                memory("c-sib", Active, Import, T1, &["AGENTS.md", "AGENTS.md#9f"]),
                false,
            ),
            // Another run, another file, another source: compared.
            (
                memory(
                    "a-old",
                    Active,
                    Import,
                    "2025-12-01T00:00:00Z",
                    &["AGENTS.md"],
                ),
                true,
            ),
            (memory("a-other", Active, Import, T1, &["CLAUDE.md"]), true),
            (
                memory("a-session", Active, Session, T1, &["AGENTS.md"]),
                true,
            ),
            // Written by hand: no batch.
            (memory("a-manual", Active, Manual, T1, &[]), true),
            // A candidate only points at older candidates.
            (memory("a-later", Candidate, Session, T2, &[]), false),
            (
                memory("a-earlier", Candidate, Session, "2025-12-01T00:00:00Z", &[]),
                true,
            ),
        ];
        for (stored, want) in cases {
            assert_eq!(eligible(&cand, &stored), want, "{}", stored.id);
        }
        let manual = memory("b-manual", Candidate, Manual, T1, &[]);
        assert!(eligible(
            &manual,
            &memory("a-manual", Active, Manual, T1, &[])
        ));
        assert!(!eligible(&cand, &cand));
    }

    #[test]
    fn one_import_run_replaces_nothing_of_its_own() {
        use Source::Import;
        use Status::{Active, Candidate};
        const T1: &str = "2026-01-01T00:00:00Z";
        let rule = |mut m: Memory, title: &str, summary: &str| {
            m.title = title.to_owned();
            m.summary = summary.to_owned();
            m
        };
        let candidate = rule(
            memory("b-fetch", Candidate, Import, T1, &["AGENTS.md"]),
            "HTTP calls use fetch instead of axios",
            "Use the native fetch wrapper in src/http.ts instead of axios for every request.",
        );
        let axios = |at: &str| {
            rule(
                memory("a-axios", Active, Import, at, &["CLAUDE.md"]),
                "HTTP calls use axios",
                "Every request goes through the shared axios instance in src/http.ts.",
            )
        };
        // Another file of the same import: both state how things are now.
        let stored = [axios(T1)];
        let out = Reviewer::new(stored.iter()).review(&candidate);
        assert_ne!(out.decision, Decision::Supersede, "{out:#?}");
        // The same rule imported in an earlier run is replaced.
        let stored = [axios("2025-06-01T00:00:00Z")];
        let out = Reviewer::new(stored.iter()).review(&candidate);
        assert_eq!(out.decision, Decision::Supersede, "{out:#?}");
    }
}
