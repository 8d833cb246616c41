//! The ranking model: a documented score with named components.
//!
//! **Relevance** says whether a memory is about the task at all; it combines
//! the evidence as a noisy-or, so any one strong signal is enough:
//!
//! ```text
//! relevance = 1 − (1 − 0.9·lexical)(1 − 0.7·path)(1 − 0.25·path_words)
//!                 (1 − 0.3·module)(1 − 0.4·embedding)
//! ```
//!
//! * `lexical`: BM25F over title (×3), tags (×2), summary (×2), scope (×1.5)
//!   and detail (×1) with k1 = 1.2, b = 0.75, squashed to `0..1` as
//!   `s / (s + 4)`. Terms are whole, stemmed words ([`crate::matching`]).
//! * `path`: when a scope glob matches a changed path, how specific the glob
//!   is (literal segments 1, `*` segments ½, `**` nothing, over three:
//!   `src/**` 0.33, `services/*/Dockerfile` 0.83, `src/payments/ledger.ts` 1),
//!   else 0.
//! * `lineage`: a memory that replaced another inherits 0.9 of the replaced
//!   one's relevance, so a task naming the old approach finds the new one.
//! * `path_words`: 1 when the title, tags or scope name a distinctive word
//!   of a path's file name (`ledger` for `src/payments/ledger.ts`).
//! * `module`: 1 when a scope module is named by `--module` or is a segment
//!   of a changed path.
//! * `embedding`: cosine similarity of task and memory vectors, rescaled so
//!   that 0.2 and below count as nothing (absent without vectors).
//!
//! **Priority** orders the relevant memories:
//! `relevance × type × importance × risk × freshness × usage`, with type
//! weights gotcha 1.05, decision 1.0, convention 0.95, pattern 0.9, working
//! 0.8, goal 0.7; importance low 0.85 … critical 1.3; risk up to 1.1;
//! freshness `0.85 + 0.15 · 0.5^(age / 180 days)`; usage
//! `1 + 0.05 · ln(1 + uses)`, at most 1.15, from `.brain/runtime/` only.

use std::collections::HashMap;

use jiff::Timestamp;
use rayon::prelude::*;
use schemars::JsonSchema;
use serde::Serialize;

use super::index::{Doc, Index};
use crate::matching::Glob;
use crate::model::{Importance, MemoryId, MemoryType, Risk};
use crate::review::text::tokens;

/// BM25 parameters.
const K1: f64 = 1.2;
const B: f64 = 0.75;
/// `lexical = s / (s + LEXICAL_HALF) · coverage^COVERAGE_POWER`.
const LEXICAL_HALF: f64 = 4.0;
const COVERAGE_POWER: f64 = 0.75;

/// Words that say what kind of work a task is, not what it is about
/// (after stemming); they never count as matches.
const TASK_WORDS: &[&str] = &[
    "fix",
    "add",
    "update",
    "change",
    "implement",
    "make",
    "improve",
    "support",
    "handle",
    "new",
    "issue",
    "bug",
    "task",
    "work",
    "get",
    "set",
    "need",
    "want",
    "should",
    "can",
    "also",
    "please",
    "how",
    "why",
    "what",
    "look",
    "check",
    "investigate",
    "some",
    "all",
];

/// How specific a glob is, `0..=1`: literal segments count 1, segments with
/// `*` or `?` count ½, `**` counts nothing; over three. `src/**` is weak
/// evidence (0.33), `services/*/Dockerfile` strong (0.83),
/// `src/payments/ledger.ts` full.
fn specificity(glob: &str) -> f64 {
    let points: f64 = glob
        .split('/')
        .filter(|s| !s.is_empty() && *s != "**")
        .map(|s| if s.contains(['*', '?']) { 0.5 } else { 1.0 })
        .sum();
    (points / 3.0).min(1.0)
}

/// What the memories are ranked against.
#[derive(Clone, Debug, Default)]
pub struct Query<'a> {
    /// The task, in the agent's words.
    pub task: Option<&'a str>,
    /// Changed or requested paths.
    pub paths: &'a [String],
    /// Requested modules.
    pub modules: &'a [String],
    /// The task's embedding, when a provider gave one.
    pub embedding: Option<&'a [f32]>,
}

impl Query<'_> {
    /// Whether the query says anything at all.
    pub fn is_empty(&self) -> bool {
        self.task.is_none_or(|t| t.trim().is_empty())
            && self.paths.is_empty()
            && self.modules.is_empty()
    }
}

/// Every part of a memory's score, for `--explain` and JSON.
#[derive(Clone, Debug, Default, PartialEq, Serialize, JsonSchema)]
pub struct Components {
    /// Raw BM25F score.
    pub bm25: f64,
    /// Share of the task's term weight (IDF) the memory matches.
    pub coverage: f64,
    /// BM25F squashed to `0..1`, times coverage.
    pub lexical: f64,
    /// Rescaled cosine similarity, when vectors exist.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub embedding: Option<f64>,
    /// Specificity of the most specific scope glob matching a path.
    pub path: f64,
    /// 1 when the title, tags or scope name a word of a path's file name (`ledger` for `src/payments/ledger.ts`).
    pub path_words: f64,
    /// 1 when a scope module matches.
    pub module: f64,
    /// Relevance inherited from a memory this one superseded.
    pub lineage: f64,
    /// The noisy-or of the above (or the inherited relevance, if higher).
    pub relevance: f64,
    /// Type weight.
    pub type_weight: f64,
    /// Importance weight.
    pub importance: f64,
    /// Risk weight.
    pub risk: f64,
    /// Freshness weight.
    pub freshness: f64,
    /// Usage weight.
    pub usage: f64,
    /// `relevance × weights`.
    pub score: f64,
}

/// A memory with its score.
#[derive(Clone, Debug)]
pub struct Scored<'a> {
    /// The memory's document.
    pub doc: &'a Doc,
    /// Its position in [`Index::docs`].
    pub position: usize,
    /// The score's parts.
    pub components: Components,
    /// Query terms found in it.
    pub matched_terms: Vec<String>,
}

/// The stemmed words of a task that ranking matches: whole words, minus
/// the words that only say what kind of work it is.
pub fn query_terms(task: Option<&str>) -> Vec<String> {
    task.map(|t| {
        tokens(t)
            .into_iter()
            .filter(|w| !TASK_WORDS.contains(&w.as_str()))
            .collect()
    })
    .unwrap_or_default()
}

/// Scores the documents at `pool` (positions in `index.docs`) against
/// `query`, best first (ties on id). `index.postings` must hold the query's
/// terms; `similarities`, when given, holds the cosine similarity of the
/// task's vector and each document's ([`cosine`]), aligned with `index.docs`.
#[allow(
    clippy::implicit_hasher,
    clippy::too_many_lines,
    reason = "ids use the default hasher throughout; one pass, component by component"
)]
pub fn rank<'a>(
    index: &'a Index,
    pool: &[usize],
    query: &Query<'_>,
    now: Timestamp,
    similarities: Option<&[Option<f64>]>,
    usage: &HashMap<MemoryId, u32>,
) -> Vec<Scored<'a>> {
    let terms = query_terms(query.task);
    let mut in_pool = vec![false; index.docs.len()];
    for &p in pool {
        in_pool[p] = true;
    }
    // Weighted frequencies of the query terms, only for documents that have one.
    let mut tf: HashMap<usize, Vec<f64>> = HashMap::new();
    let mut df = vec![0.0f64; terms.len()];
    for (i, term) in terms.iter().enumerate() {
        for p in index.postings.get(term).map_or(&[][..], Vec::as_slice) {
            let d = p.doc as usize;
            if p.tf > 0.0 && in_pool.get(d).copied().unwrap_or(false) {
                tf.entry(d).or_insert_with(|| vec![0.0; terms.len()])[i] += f64::from(p.tf);
                df[i] += 1.0;
            }
        }
    }
    #[allow(clippy::cast_precision_loss, reason = "store sizes are far below 2^52")]
    let pool_size = pool.len().max(1) as f64;
    let avg_len = pool
        .iter()
        .map(|&p| f64::from(index.docs[p].len))
        .sum::<f64>()
        / pool_size;
    let idf: Vec<f64> = df
        .iter()
        .map(|d| ((pool_size - d + 0.5) / (d + 0.5) + 1.0).ln())
        .collect();
    let total_idf: f64 = idf.iter().sum();
    let path_words = path_words(query.paths);
    let path_segments: Vec<String> = query
        .paths
        .iter()
        .flat_map(|p| p.split('/').map(str::to_lowercase).collect::<Vec<_>>())
        .collect();
    let no_tf = vec![0.0; terms.len()];
    let mut out: Vec<Scored<'a>> = pool
        .par_iter()
        .map(|&position| {
            let m = &index.docs[position];
            let tf = tf.get(&position).unwrap_or(&no_tf);
            let len = f64::from(m.len);
            let mut bm25 = 0.0;
            let mut matched = Vec::new();
            for (i, term) in terms.iter().enumerate() {
                if tf[i] > 0.0 {
                    let norm = K1 * (1.0 - B + B * len / avg_len.max(1e-9));
                    bm25 += idf[i] * tf[i] * (K1 + 1.0) / (tf[i] + norm);
                    matched.push(term.clone());
                }
            }
            let matched_idf: f64 = terms
                .iter()
                .enumerate()
                .filter(|(i, _)| tf[*i] > 0.0)
                .map(|(i, _)| idf[i])
                .fold(0.0, |a, b| a + b);
            let coverage = if total_idf > 0.0 {
                matched_idf / total_idf
            } else {
                0.0
            };
            let lexical = bm25 / (bm25 + LEXICAL_HALF) * coverage.powf(COVERAGE_POWER);
            let path = if query.paths.is_empty() {
                0.0
            } else {
                m.scope_paths
                    .iter()
                    .filter(|raw| {
                        let g = Glob::new(raw);
                        query.paths.iter().any(|p| g.matches(p))
                    })
                    .map(|raw| specificity(raw))
                    .fold(0.0, f64::max)
            };
            let module = f64::from(u8::from(m.modules.iter().any(|md| {
                let md = md.to_lowercase();
                query.modules.iter().any(|q| q.eq_ignore_ascii_case(&md))
                    || path_segments.contains(&md)
            })));
            let embedding = similarities
                .and_then(|v| v[position])
                .map(|c| ((c - 0.2) / 0.8).clamp(0.0, 1.0));
            let named = f64::from(u8::from(path_words.iter().any(|w| m.names(w))));
            let mut relevance = 1.0
                - (1.0 - 0.9 * lexical)
                    * (1.0 - 0.7 * path)
                    * (1.0 - 0.25 * named)
                    * (1.0 - 0.3 * module)
                    * (1.0 - 0.4 * embedding.unwrap_or(0.0));
            if query.is_empty() {
                // No task and no paths: only repository-wide rules that matter.
                let general = m.scope_paths.is_empty()
                    && m.modules.is_empty()
                    && m.importance >= Importance::High;
                relevance = if general { 0.5 } else { 0.0 };
            }
            let c = weigh(m, relevance, now, usage.get(&m.id).copied().unwrap_or(0));
            Scored {
                doc: m,
                position,
                components: Components {
                    bm25,
                    coverage,
                    lexical,
                    embedding,
                    path,
                    path_words: named,
                    module,
                    ..c
                },
                matched_terms: matched,
            }
        })
        .collect();
    out.sort_by(|a, b| {
        b.components
            .score
            .total_cmp(&a.components.score)
            .then_with(|| a.doc.id.cmp(&b.doc.id))
    });
    out
}

/// Directory names and file stems too generic to say what a path is about.
const GENERIC_PATH_WORDS: &[&str] = &[
    "src",
    "lib",
    "app",
    "apps",
    "service",
    "package",
    "internal",
    "pkg",
    "cmd",
    "test",
    "spec",
    "index",
    "main",
    "mod",
    "util",
    "utils",
    "common",
    "shared",
    "core",
    "web",
    "api",
    "server",
    "client",
    "component",
    "page",
    "type",
    "model",
    "handler",
    "config",
    "doc",
    "readme",
];

/// The stemmed, distinctive words of the paths' file names.
fn path_words(paths: &[String]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for p in paths {
        // The file's own name says what it is about; directories are too broad.
        let file = p.rsplit('/').next().unwrap_or(p);
        let stem_part = file.split('.').next().unwrap_or(file);
        for w in crate::review::text::words(stem_part) {
            if w.len() >= 3 && !GENERIC_PATH_WORDS.contains(&w.as_str()) && !out.contains(&w) {
                out.push(w);
            }
        }
    }
    out
}

/// Lets every memory that superseded another inherit 0.9 of its relevance
/// (when higher than its own), then re-sorts.
pub fn inherit_from_superseded(scored: &mut [Scored<'_>]) {
    let by_id: HashMap<&MemoryId, f64> = scored
        .iter()
        .map(|s| (&s.doc.id, s.components.relevance))
        .collect();
    let inherited: Vec<f64> = scored
        .iter()
        .map(|s| {
            s.doc
                .supersedes
                .iter()
                .filter_map(|old| by_id.get(old))
                .fold(0.0, |a: f64, r| a.max(0.9 * r))
        })
        .collect();
    for (s, inh) in scored.iter_mut().zip(inherited) {
        let c = &mut s.components;
        c.lineage = inh;
        if inh > c.relevance {
            c.relevance = inh;
            c.score = c.relevance * c.type_weight * c.importance * c.risk * c.freshness * c.usage;
        }
    }
    scored.sort_by(|a, b| {
        b.components
            .score
            .total_cmp(&a.components.score)
            .then_with(|| a.doc.id.cmp(&b.doc.id))
    });
}

/// The weights besides relevance.
fn weigh(m: &Doc, relevance: f64, now: Timestamp, uses: u32) -> Components {
    let type_weight = match m.kind {
        MemoryType::Gotcha => 1.05,
        MemoryType::Decision => 1.0,
        MemoryType::Convention => 0.95,
        MemoryType::Pattern => 0.9,
        MemoryType::Working => 0.8,
        MemoryType::Goal => 0.7,
    };
    let importance = match m.importance {
        Importance::Low => 0.85,
        Importance::Medium => 1.0,
        Importance::High => 1.15,
        Importance::Critical => 1.3,
    };
    let risk = match m.risk {
        Risk::Low => 1.0,
        Risk::Medium => 1.05,
        Risk::High => 1.1,
    };
    let seen = m.seen;
    #[allow(clippy::cast_precision_loss, reason = "ages in seconds fit easily")]
    let age_days = (now.as_second() - seen.as_second()).max(0) as f64 / 86_400.0;
    let freshness = 0.85 + 0.15 * 0.5_f64.powf(age_days / 180.0);
    let usage = (1.0 + 0.05 * f64::from(uses).ln_1p()).min(1.15);
    let score = relevance * type_weight * importance * risk * freshness * usage;
    Components {
        relevance,
        type_weight,
        importance,
        risk,
        freshness,
        usage,
        score,
        ..Components::default()
    }
}

/// Cosine similarity of two vectors (0 for a zero or mismatched vector), in
/// `f64`: the similarity ranking and search read.
pub fn cosine(a: &[f32], b: &[f32]) -> f64 {
    if a.len() != b.len() || a.is_empty() {
        return 0.0;
    }
    let (mut dot, mut na, mut nb) = (0.0f64, 0.0f64, 0.0f64);
    for (x, y) in a.iter().zip(b) {
        dot += f64::from(*x) * f64::from(*y);
        na += f64::from(*x) * f64::from(*x);
        nb += f64::from(*y) * f64::from(*y);
    }
    if na == 0.0 || nb == 0.0 {
        0.0
    } else {
        dot / (na.sqrt() * nb.sqrt())
    }
}
