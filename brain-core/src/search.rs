//! `brain search`: hybrid retrieval over the store.
//!
//! Two rankings are fused by reciprocal rank fusion (`Σ 1 / (60 + rank)`):
//! BM25F over title, tags, summary, scope and detail (the lexical ranking of
//! [`crate::inject::rank`]), and cosine similarity of embeddings when vectors
//! are given. `lexical` or `semantic` mode uses one ranking alone, for
//! comparison. Only eligible memories are searched unless statuses are named
//! or `all` is set. Each hit carries a snippet with the matched words marked.

use std::collections::HashMap;

use jiff::Timestamp;
use schemars::JsonSchema;
use serde::Serialize;

use crate::inject::EmbeddingUse;
use crate::inject::index::Index;
use crate::inject::rank::{self, Query};
use crate::model::{Memory, MemoryId, MemoryType, Status};
use crate::review::text::stem;

/// The RRF constant.
pub const RRF_K: f64 = 60.0;

/// Which rankings take part.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Mode {
    /// Lexical and semantic, fused.
    #[default]
    Hybrid,
    /// BM25F only.
    Lexical,
    /// Embeddings only.
    Semantic,
}

/// What to search for.
#[derive(Clone, Debug, Default)]
pub struct Request<'a> {
    /// The query.
    pub query: &'a str,
    /// Only these types (empty: all).
    pub types: &'a [MemoryType],
    /// Only memories with all of these tags.
    pub tags: &'a [String],
    /// Only these statuses (empty: eligible memories only, unless `all`).
    pub statuses: &'a [Status],
    /// Every status.
    pub all: bool,
    /// Most hits.
    pub limit: usize,
    /// Rankings used.
    pub mode: Mode,
    /// The query's embedding.
    pub embedding: Option<&'a [f32]>,
}

/// One hit.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
pub struct Hit {
    /// Id.
    pub id: MemoryId,
    /// Type.
    #[serde(rename = "type")]
    pub kind: MemoryType,
    /// Status.
    pub status: Status,
    /// Title.
    pub title: String,
    /// Fused score.
    pub score: f64,
    /// Rank in the lexical list (1-based), if in it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lexical_rank: Option<usize>,
    /// Rank in the semantic list, if in it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub semantic_rank: Option<usize>,
    /// BM25F score.
    pub bm25: f64,
    /// Cosine similarity, when vectors exist.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cosine: Option<f64>,
    /// Query words found.
    pub matched_terms: Vec<String>,
    /// Where the words were found, matched words in `**bold**`.
    pub snippet: String,
}

/// `brain search`'s report.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
pub struct SearchReport {
    /// The query.
    pub query: String,
    /// Rankings used.
    pub mode: Mode,
    /// Memories searched.
    pub searched: usize,
    /// Hits before the limit.
    pub total: usize,
    /// The hits, best first.
    pub hits: Vec<Hit>,
    /// Whether embeddings took part.
    pub embedding: EmbeddingUse,
}

/// One memory's place in the fused ranking.
#[derive(Clone, Copy, Debug, Default)]
struct Fused {
    score: f64,
    lexical_rank: Option<usize>,
    semantic_rank: Option<usize>,
    cosine: Option<f64>,
}

/// Runs a search over memories held in memory (pure); see [`search_in`].
#[allow(
    clippy::implicit_hasher,
    reason = "ids use the default hasher throughout"
)]
pub fn search(
    memories: &[&Memory],
    request: &Request<'_>,
    now: Timestamp,
    vectors: Option<&HashMap<MemoryId, Vec<f32>>>,
    embedding: EmbeddingUse,
) -> SearchReport {
    let index = Index::of_memories(memories);
    let aligned = vectors.and_then(|v| crate::inject::similarities(&index, v, request.embedding));
    search_in(
        &index,
        request,
        now,
        aligned.as_deref(),
        embedding,
        &mut |i| Some(memories[i].clone()),
    )
}

/// Runs a search over an index of the store (pure). `index.postings` must
/// hold the query's terms; `similarities`, when given, holds each document's
/// cosine similarity to the query, aligned with `index.docs`; `fetch` returns the full memory at a position and is called
/// only for the hits shown (for their snippets).
#[allow(
    clippy::too_many_lines,
    reason = "filter, two rankings, fusion, hits: one pass each"
)]
pub fn search_in(
    index: &Index,
    request: &Request<'_>,
    now: Timestamp,
    similarities: Option<&[Option<f64>]>,
    embedding: EmbeddingUse,
    fetch: &mut dyn FnMut(usize) -> Option<Memory>,
) -> SearchReport {
    let pool: Vec<usize> = (0..index.docs.len())
        .filter(|&i| {
            let m = &index.docs[i];
            let status_ok = if request.all {
                true
            } else if request.statuses.is_empty() {
                m.eligible(now)
            } else {
                request.statuses.contains(&m.status)
            };
            status_ok
                && (request.types.is_empty() || request.types.contains(&m.kind))
                && request
                    .tags
                    .iter()
                    .all(|t| m.tags.iter().any(|x| x.eq_ignore_ascii_case(t)))
        })
        .collect();
    let query = Query {
        task: Some(request.query),
        embedding: request.embedding,
        ..Query::default()
    };
    let scored = rank::rank(index, &pool, &query, now, similarities, &HashMap::new());
    let mut lexical: Vec<(usize, f64)> = scored
        .iter()
        .enumerate()
        .filter(|(_, s)| s.components.bm25 > 0.0)
        .map(|(i, s)| (i, s.components.bm25))
        .collect();
    lexical.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    let mut semantic: Vec<(usize, f64)> = match similarities {
        Some(sims) => scored
            .iter()
            .enumerate()
            .filter_map(|(i, s)| sims[s.position].map(|c| (i, c)))
            .filter(|(_, c)| *c > 0.2)
            .collect(),
        None => Vec::new(),
    };
    semantic.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    let mut fused: HashMap<usize, Fused> = HashMap::new();
    #[allow(clippy::cast_precision_loss, reason = "ranks are small")]
    if request.mode != Mode::Semantic {
        for (r, (i, _)) in lexical.iter().enumerate() {
            let e = fused.entry(*i).or_default();
            e.score += 1.0 / (RRF_K + (r + 1) as f64);
            e.lexical_rank = Some(r + 1);
        }
    }
    #[allow(clippy::cast_precision_loss, reason = "ranks are small")]
    if request.mode != Mode::Lexical {
        for (r, (i, c)) in semantic.iter().enumerate() {
            let e = fused.entry(*i).or_default();
            e.score += 1.0 / (RRF_K + (r + 1) as f64);
            e.semantic_rank = Some(r + 1);
            e.cosine = Some(*c);
        }
    }
    let mut order: Vec<(usize, Fused)> = fused.into_iter().collect();
    order.sort_by(|a, b| {
        b.1.score
            .total_cmp(&a.1.score)
            .then_with(|| scored[a.0].doc.id.cmp(&scored[b.0].doc.id))
    });
    let total = order.len();
    let hits = order
        .into_iter()
        .take(request.limit.max(1))
        .map(|(i, f)| {
            let s = &scored[i];
            let snippet = fetch(s.position)
                .map(|m| snippet(&m, &s.matched_terms))
                .unwrap_or_default();
            Hit {
                id: s.doc.id.clone(),
                kind: s.doc.kind,
                status: s.doc.status,
                title: s.doc.title.clone(),
                score: (f.score * 1e6).round() / 1e6,
                lexical_rank: f.lexical_rank,
                semantic_rank: f.semantic_rank,
                bm25: (s.components.bm25 * 1e4).round() / 1e4,
                cosine: f.cosine.map(|c| (c * 1e4).round() / 1e4),
                matched_terms: s.matched_terms.clone(),
                snippet,
            }
        })
        .collect();
    SearchReport {
        query: request.query.to_owned(),
        mode: request.mode,
        searched: pool.len(),
        total,
        hits,
        embedding,
    }
}

/// Up to about 160 characters of the summary or detail around the first
/// matched word, matched words in `**bold**`.
pub fn snippet(m: &Memory, terms: &[String]) -> String {
    let fields = [m.summary.as_str(), m.detail.as_str(), m.title.as_str()];
    let text = fields
        .iter()
        .find(|f| {
            f.split(|c: char| !c.is_alphanumeric())
                .any(|w| terms.contains(&stem(w)))
        })
        .copied()
        .unwrap_or(m.summary.as_str());
    let flat: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    let first = flat
        .match_indices(|c: char| c.is_alphanumeric())
        .map(|(i, _)| i)
        .find(|&i| {
            (i == 0 || !flat[..i].ends_with(char::is_alphanumeric)) && {
                let w: String = flat[i..]
                    .chars()
                    .take_while(|c| c.is_alphanumeric())
                    .collect();
                terms.contains(&stem(&w))
            }
        })
        .unwrap_or(0);
    let start = flat[..first]
        .char_indices()
        .rev()
        .nth(60)
        .map_or(0, |(i, _)| i);
    let window: String = flat[start..].chars().take(160).collect();
    let mut out = String::new();
    if start > 0 {
        out.push('…');
    }
    let mut word = String::new();
    let flush = |word: &mut String, out: &mut String| {
        if !word.is_empty() {
            if terms.contains(&stem(word)) {
                out.push_str("**");
                out.push_str(word);
                out.push_str("**");
            } else {
                out.push_str(word);
            }
            word.clear();
        }
    };
    for c in window.chars() {
        if c.is_alphanumeric() {
            word.push(c);
        } else {
            flush(&mut word, &mut out);
            out.push(c);
        }
    }
    flush(&mut word, &mut out);
    if start + window.len() < flat.len() {
        out.push('…');
    }
    out
}
