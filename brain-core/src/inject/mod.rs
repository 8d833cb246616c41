//! Context for agents: which memories a task needs, packed under a token
//! budget, and the Markdown block an agent reads.
//!
//! 1. **Eligibility** ([`Memory::eligible`]): active, not replaced, not
//!    pending review, inside its validity window, not expired.
//! 2. **Ranking** ([`rank`]): a score with named components.
//! 3. **Selection** ([`select`]): memories below the relevance threshold are
//!    not injected (with a task, nothing may be injected at all, and the block
//!    says so); the rest are packed greedily, best first, while they fit the
//!    budget; a near-duplicate of a memory already picked is left out. Every
//!    memory left out near the line is reported with the reason.
//! 4. **Rendering**: a Markdown block between versioned markers, at the
//!    layer asked for (`index`, `summary`, `full`). The whole block, markers
//!    included, never exceeds the budget.

pub mod index;
pub mod rank;

use std::collections::HashMap;
use std::fmt::Write as _;

use jiff::Timestamp;
use schemars::JsonSchema;
use serde::Serialize;

use crate::model::{Memory, MemoryId, MemoryType};
use crate::review::text::similarity;
use index::Index;
use rank::{Components, Query, Scored};

/// Version of the block format; the marker carries it.
pub const BLOCK_VERSION: u32 = 1;
/// Memories below this relevance are never injected.
pub const MIN_RELEVANCE: f64 = 0.35;
/// Memories scoring below this share of the best one are not injected:
/// the block holds what stands out, not everything that mentions a word.
pub const RELATIVE_CUTOFF: f64 = 0.55;
/// Two picks this similar (title and summary) are one piece of knowledge.
pub const NEAR_DUPLICATE: f64 = 0.75;
/// Most memories in one block: few, with the text that matters.
pub const MAX_MEMORIES: usize = 6;
/// Most near-misses reported.
pub const MAX_NEAR_MISSES: usize = 10;

/// How much of each memory the block shows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Layer {
    /// Title, type and id only.
    Index,
    /// Plus the summary and scope.
    #[default]
    Summary,
    /// Plus the detail.
    Full,
}

/// Where the paths came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum PathSource {
    /// Given with `--path`.
    Explicit,
    /// The working tree's changes against `HEAD`.
    GitDiff,
    /// No paths.
    None,
}

/// What to inject for.
#[derive(Clone, Debug)]
pub struct Request<'a> {
    /// The task.
    pub task: Option<&'a str>,
    /// Paths and where they came from.
    pub paths: &'a [String],
    /// Where `paths` came from.
    pub path_source: PathSource,
    /// Modules.
    pub modules: &'a [String],
    /// Memories to include whatever their score (if eligible).
    pub ids: &'a [MemoryId],
    /// How much of each memory to show.
    pub layer: Layer,
    /// Token budget of the whole block.
    pub budget: usize,
    /// The task's embedding.
    pub embedding: Option<&'a [f32]>,
}

/// A memory in the block.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
pub struct Selected {
    /// Its id.
    pub id: MemoryId,
    /// Type.
    #[serde(rename = "type")]
    pub kind: MemoryType,
    /// Title.
    pub title: String,
    /// Tokens its entry costs.
    pub tokens: usize,
    /// Query terms found in it.
    pub matched_terms: Vec<String>,
    /// Why it ranked where it did.
    pub components: Components,
}

/// Why a memory near the line was left out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum MissReason {
    /// Not relevant enough to the task.
    BelowThreshold,
    /// Would not fit the budget.
    OverBudget,
    /// Says what a memory already picked says.
    NearDuplicate,
    /// The block already holds the most memories it may.
    Limit,
    /// Its file could no longer be read when the block was built.
    Unreadable,
}

/// A memory left out.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
pub struct NearMiss {
    /// Its id.
    pub id: MemoryId,
    /// Type.
    #[serde(rename = "type")]
    pub kind: MemoryType,
    /// Title.
    pub title: String,
    /// Why.
    pub reason: MissReason,
    /// Its score.
    pub components: Components,
}

/// The selection and the block.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
pub struct Selection {
    /// Memories in the block, in block order.
    pub selected: Vec<Selected>,
    /// Memories left out near the line, best first.
    pub near_misses: Vec<NearMiss>,
    /// Eligible memories considered.
    pub eligible: usize,
    /// Tokens the block costs.
    pub used_tokens: usize,
    /// The Markdown block.
    pub block: String,
}

/// The smallest budget a block can keep: its markers and heading.
pub const MIN_BUDGET: usize = 24;

/// Estimated tokens of a text: a quarter of its bytes, rounded up.
pub fn tokens(text: &str) -> usize {
    text.len().div_ceil(4)
}

/// Chooses and renders the memories for `request` from `memories` (all of
/// the store; eligibility is checked here). Builds the index in memory; see
/// [`select_in`].
#[allow(
    clippy::implicit_hasher,
    reason = "ids use the default hasher throughout"
)]
pub fn select(
    memories: &[&Memory],
    request: &Request<'_>,
    now: Timestamp,
    vectors: Option<&HashMap<MemoryId, Vec<f32>>>,
    usage: &HashMap<MemoryId, u32>,
) -> Selection {
    let index = Index::of_memories(memories);
    let sims = vectors.and_then(|v| similarities(&index, v, request.embedding));
    select_in(&index, request, now, sims.as_deref(), usage, &mut |i| {
        Some(memories[i].clone())
    })
}

/// The cosine similarity of `query` and each document's vector (from a map
/// by id), aligned with `index.docs`; `None` without a query vector.
#[allow(
    clippy::implicit_hasher,
    reason = "ids use the default hasher throughout"
)]
pub fn similarities(
    index: &Index,
    vectors: &HashMap<MemoryId, Vec<f32>>,
    query: Option<&[f32]>,
) -> Option<Vec<Option<f64>>> {
    let query = query?;
    Some(
        index
            .docs
            .iter()
            .map(|d| vectors.get(&d.id).map(|v| rank::cosine(query, v)))
            .collect(),
    )
}

/// Chooses and renders the memories for `request` from an index of the
/// whole store. `index.postings` must hold the task's terms
/// ([`rank::query_terms`]); `similarities`, when given, holds each
/// document's cosine similarity to the task ([`similarities`]), aligned with
/// `index.docs`; `fetch` returns the full memory at a position, and is
/// called only for the few memories that may enter the block.
#[allow(
    clippy::implicit_hasher,
    clippy::too_many_lines,
    reason = "ids use the default hasher throughout; one greedy pass"
)]
pub fn select_in(
    index: &Index,
    request: &Request<'_>,
    now: Timestamp,
    similarities: Option<&[Option<f64>]>,
    usage: &HashMap<MemoryId, u32>,
    fetch: &mut dyn FnMut(usize) -> Option<Memory>,
) -> Selection {
    let ranked = rank_request(index, request, now, similarities, usage);
    pack(index, ranked, request, now, fetch)
}

/// Ranks the eligible memories of `index` for `request`, best first (with
/// relevance inherited along supersessions); memories asked for by id come
/// first.
#[allow(
    clippy::implicit_hasher,
    reason = "ids use the default hasher throughout"
)]
pub fn rank_request<'a>(
    index: &'a Index,
    request: &Request<'_>,
    now: Timestamp,
    similarities: Option<&[Option<f64>]>,
    usage: &HashMap<MemoryId, u32>,
) -> Vec<Scored<'a>> {
    // Superseded memories are ranked too, never injected: their relevance
    // passes to the memories that replaced them.
    let pool: Vec<usize> = (0..index.docs.len())
        .filter(|&i| index.docs[i].in_pool(now))
        .collect();
    let query = Query {
        task: request.task,
        paths: request.paths,
        modules: request.modules,
        embedding: request.embedding,
    };
    let mut ranked = rank::rank(index, &pool, &query, now, similarities, usage);
    rank::inherit_from_superseded(&mut ranked);
    ranked.retain(|s| s.doc.eligible(now));
    // Memories asked for by id come first.
    if !request.ids.is_empty() {
        ranked.sort_by_key(|s| !request.ids.contains(&s.doc.id));
    }
    ranked
}

/// Packs ranked memories ([`rank_request`]) into the block.
#[allow(clippy::too_many_lines, reason = "one greedy pass")]
pub fn pack(
    index: &Index,
    ranked: Vec<Scored<'_>>,
    request: &Request<'_>,
    now: Timestamp,
    fetch: &mut dyn FnMut(usize) -> Option<Memory>,
) -> Selection {
    let eligible = index.docs.iter().filter(|d| d.eligible(now)).count();
    let footer = footer();
    // The header shrinks (paths, then task) rather than break the budget.
    let header = [
        header(request, true, true),
        header(request, true, false),
        header(request, false, false),
    ]
    .into_iter()
    .find(|h| tokens(h) + tokens(&footer) <= request.budget)
    .unwrap_or_else(|| header(request, false, false));
    let empty_note = "No stored memory is relevant to this task.\n";
    let mut used = tokens(&header) + tokens(&footer);
    let mut picked: Vec<(Scored<'_>, Memory, String)> = Vec::new();
    let mut misses: Vec<NearMiss> = Vec::new();
    let mut below = 0usize;
    let best = ranked
        .iter()
        .filter(|s| s.components.relevance >= MIN_RELEVANCE)
        .map(|s| s.components.score)
        .fold(0.0, f64::max);
    for s in ranked {
        let forced = request.ids.contains(&s.doc.id);
        let miss = |reason| NearMiss {
            id: s.doc.id.clone(),
            kind: s.doc.kind,
            title: s.doc.title.clone(),
            reason,
            components: s.components.clone(),
        };
        if !forced
            && (s.components.relevance < MIN_RELEVANCE
                || s.components.score < RELATIVE_CUTOFF * best)
        {
            if s.components.relevance > 0.0 && below < MAX_NEAR_MISSES {
                below += 1;
                misses.push(miss(MissReason::BelowThreshold));
            }
            continue;
        }
        if picked.len() >= MAX_MEMORIES {
            misses.push(miss(MissReason::Limit));
            continue;
        }
        let Some(memory) = fetch(s.position) else {
            misses.push(miss(MissReason::Unreadable));
            continue;
        };
        if !forced
            && picked.iter().any(|(p, pm, _)| {
                p.doc.kind == s.doc.kind
                    && similarity(
                        &format!("{} {}", pm.title, pm.summary),
                        &format!("{} {}", memory.title, memory.summary),
                    ) >= NEAR_DUPLICATE
            })
        {
            misses.push(miss(MissReason::NearDuplicate));
            continue;
        }
        let entry = entry(&memory, request.layer);
        let cost = tokens(&entry);
        if used + cost > request.budget {
            misses.push(miss(MissReason::OverBudget));
            continue;
        }
        used += cost;
        picked.push((s, memory, entry));
    }
    misses.truncate(MAX_NEAR_MISSES);
    let mut block = header;
    if picked.is_empty() {
        if used + tokens(empty_note) <= request.budget {
            block.push_str(empty_note);
        }
    } else {
        for (_, _, e) in &picked {
            block.push_str(e);
        }
    }
    block.push_str(&footer);
    let used_tokens = tokens(&block);
    Selection {
        selected: picked
            .into_iter()
            .map(|(s, _, e)| Selected {
                id: s.doc.id.clone(),
                kind: s.doc.kind,
                title: s.doc.title.clone(),
                tokens: tokens(&e),
                matched_terms: s.matched_terms,
                components: s.components,
            })
            .collect(),
        near_misses: misses,
        eligible,
        used_tokens,
        block,
    }
}

fn header(request: &Request<'_>, with_task: bool, with_paths: bool) -> String {
    let mut h = format!("<!-- brain:context v{BLOCK_VERSION} -->\n## Repository memory\n");
    if let Some(task) = request.task.filter(|t| with_task && !t.trim().is_empty()) {
        h.push_str("Task: ");
        h.push_str(&one_line(task, 160));
        h.push('\n');
    }
    if with_paths && !request.paths.is_empty() {
        let shown: Vec<&str> = request.paths.iter().take(5).map(String::as_str).collect();
        let more = request.paths.len().saturating_sub(shown.len());
        let _ = writeln!(
            h,
            "Paths ({}): {}{}",
            match request.path_source {
                PathSource::Explicit => "given",
                PathSource::GitDiff => "changed",
                PathSource::None => "none",
            },
            shown.join(", "),
            if more > 0 {
                format!(" and {more} more")
            } else {
                String::new()
            }
        );
    }
    h.push('\n');
    h
}

fn footer() -> String {
    "<!-- /brain:context -->\n".to_owned()
}

fn one_line(text: &str, max: usize) -> String {
    let line = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if line.chars().count() <= max {
        return line;
    }
    let cut: String = line.chars().take(max - 1).collect();
    format!("{cut}…")
}

fn type_label(kind: MemoryType) -> &'static str {
    match kind {
        MemoryType::Decision => "Decision",
        MemoryType::Gotcha => "Gotcha",
        MemoryType::Convention => "Convention",
        MemoryType::Pattern => "Pattern",
        MemoryType::Goal => "Goal",
        MemoryType::Working => "Working note",
    }
}

/// One memory's entry in the block.
pub fn entry(m: &Memory, layer: Layer) -> String {
    let mut e = format!("### {}: {}\n", type_label(m.kind), m.title);
    if layer == Layer::Index {
        let _ = write!(e, "`{}`\n\n", m.id);
        return e;
    }
    let mut meta = vec![format!("`{}`", m.id), m.importance.as_str().to_owned()];
    if !m.scope.paths.is_empty() {
        meta.push(format!("scope: {}", m.scope.paths.join(", ")));
    }
    e.push_str(&meta.join(" · "));
    e.push('\n');
    e.push_str(m.summary.trim());
    e.push('\n');
    if layer == Layer::Full && !m.detail.trim().is_empty() {
        e.push('\n');
        e.push_str(m.detail.trim());
        e.push('\n');
    }
    e.push('\n');
    e
}

/// `brain inject`'s report.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
pub struct InjectReport {
    /// Version of the block format.
    pub version: u32,
    /// The task.
    pub task: Option<String>,
    /// Paths ranked against.
    pub paths: Vec<String>,
    /// Where they came from.
    pub path_source: PathSource,
    /// Modules ranked against.
    pub modules: Vec<String>,
    /// Layer shown.
    pub layer: Layer,
    /// The budget, in tokens.
    pub budget_tokens: usize,
    /// Embedding provider used, or why none was.
    pub embedding: EmbeddingUse,
    /// The selection and the block.
    #[serde(flatten)]
    pub selection: Selection,
}

/// Whether embeddings took part in the ranking.
#[derive(Clone, Debug, Default, PartialEq, Serialize, JsonSchema)]
pub struct EmbeddingUse {
    /// The provider key (`hash-…-256`), when vectors were used.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub provider: Option<String>,
    /// Why ranking fell back to lexical only.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fallback_reason: Option<String>,
}

impl crate::Brain {
    /// `brain inject`: selects and renders from the store's index (its
    /// postings must hold the task's terms), reading in full only the
    /// memories that may enter the block; then records the context load in
    /// `.brain/runtime/activity.jsonl` (never in a tracked file). A log that
    /// cannot be written is returned as a warning, not an error.
    pub fn inject(
        &self,
        index: &Index,
        request: &Request<'_>,
        now: Timestamp,
        similarities: Option<&[Option<f64>]>,
        embedding: EmbeddingUse,
    ) -> (InjectReport, Option<String>) {
        let entries = crate::activity::parse(
            &self
                .store()
                .read_runtime_tail(crate::activity::LOG, crate::activity::TAIL_BYTES)
                .unwrap_or_default(),
        );
        let usage = crate::activity::usage(&entries);
        let selection = select_in(index, request, now, similarities, &usage, &mut |i| {
            self.store().read_memory(&index.docs[i].path).ok()
        });
        let entry = crate::activity::Entry {
            at: now,
            command: "inject".to_owned(),
            task: request.task.map(str::to_owned),
            paths: request.paths.to_vec(),
            modules: request.modules.to_vec(),
            ids: selection.selected.iter().map(|s| s.id.clone()).collect(),
        };
        let warning = self
            .store()
            .append_runtime_log(crate::activity::LOG, &entry.to_line())
            .err()
            .map(|e| format!("could not record the context load: {e}"));
        (
            InjectReport {
                version: BLOCK_VERSION,
                task: request.task.map(str::to_owned),
                paths: request.paths.to_vec(),
                path_source: request.path_source,
                modules: request.modules.to_vec(),
                layer: request.layer,
                budget_tokens: request.budget,
                embedding,
                selection,
            },
            warning,
        )
    }
}
