//! The ranking model: a documented score with named components.
//!
//! **Relevance** says whether a memory is about the task at all; it combines
//! the evidence as a noisy-or, so any one strong signal is enough:
//!
//! ```text
//! relevance = 1 − (1 − lexical)(1 − 0.7·path)(1 − 0.3·module)(1 − 0.4·embedding)
//! ```
//!
//! * `lexical` measures how *distinctive* the task's words are that the
//!   memory holds, not how much of the task it covers, so a long natural
//!   prompt is not penalised for its length. The task is analysed into
//!   evidence groups ([`super::terms::analyze`]): each word with its
//!   synonyms, the parts of a word the store only knows split (the parts
//!   of a capitalised camelCase word it knows whole, `JetBrains`, only
//!   stand in for the word), and the words of the paths it names or is
//!   given. Each group counts once per
//!   memory, as
//!   `weight × idf(term) / idf(a term only one memory has) × saturation(tf)`,
//!   where `saturation` is BM25F's term-frequency curve (k1 = 1.2,
//!   b = 0.75) over title (×3), tags (×2), summary (×2), scope (×1.5) and
//!   detail (×1); the sum `evidence` becomes `lexical = 1 − e^(−evidence / 0.5)`.
//!   One word that only a few memories use, in a title, is strong evidence;
//!   words every memory uses are none. A task that only asks a question
//!   needs more ([`super::Tuning::read_only_factor`]).
//!   A rule about a step of the workflow (a commit, a pull request, a
//!   changelog entry, by its title) keeps 0.8 of its relevance for a task
//!   that does not take that step, as a rule for files of another kind
//!   does for a task on other files.
//! * `path`: when a scope glob matches a changed path, how specific the glob
//!   is (literal segments 1, `*` segments ½, `**` nothing, over three:
//!   `src/**` 0.33, `services/*/Dockerfile` 0.83, `src/payments/ledger.ts` 1),
//!   else 0. Paths named in the task text count too; an absolute one matches
//!   a glob by any of its tails.
//! * `lineage`: a memory that replaced another inherits 0.9 of the replaced
//!   one's relevance, so a task naming the old approach finds the new one.
//! * `module`: 1 when a scope module is named by `--module` or is a segment
//!   of a changed path.
//! * `embedding`: cosine similarity of task and memory vectors, rescaled so
//!   that 0.2 and below count as nothing (absent without vectors).
//!
//! `bm25` (the classic BM25F sum over the same groups) and `coverage` (the
//! share of the task's weight matched) are reported for `--explain`.
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
use super::terms::{self, GroupKind, QueryText};
use crate::matching::{matches_segments, may_match, path_segments};
use crate::model::{Importance, MemoryId, MemoryType, Risk};

/// BM25 parameters.
const K1: f64 = 1.2;
const B: f64 = 0.75;

/// `lexical = 1 − e^(−evidence / EVIDENCE_SCALE)`.
const EVIDENCE_SCALE: f64 = 0.5;
/// A query group by term position.
struct GroupTerms {
    /// Its largest term weight.
    weight: f64,
    /// How its terms combine.
    kind: GroupKind,
    /// Whether it can make a memory relevant on its own.
    trigger: bool,
    /// An activity the task names ([`terms::Group::is_concept`]): it makes
    /// a memory relevant only where the memory names the activity's word
    /// as its topic (title, tags, a name written as code), and otherwise
    /// only supports the order.
    concept: bool,
    /// Another way to say a word of the task
    /// ([`terms::Group::is_alternative`]): what the task says is counted
    /// once, in the word's own group.
    alternative: bool,
    /// Term positions with their weights.
    terms: Vec<(usize, f64)>,
}

/// What a single matched word counts when it is not in the memory's title
/// or tags.
const PASSING_MENTION: f64 = 0.5;
/// The order's scale: the order is `1 − e^(−total / ORDER_SCALE)` with
/// `total = evidence + support + 1.5·path + 0.5·module + 1.5·embedding`.
const ORDER_SCALE: f64 = 3.0;
/// A path a memory's text names counts this much of a scope of that path:
/// the text may name it as an example or in passing.
const NAMED_PATH: f64 = 0.8;

/// What relevance is left to a memory that neither speaks of documentation
/// nor names the files when a task edits only prose (`docs/`, `README.md`,
/// images) or settings (`.yml`, `.json`, `.toml`): a rule that shares one word with such a task ("release notes"
/// against a release-build rule) is rarely about it; one it matches on many
/// distinctive words still is.
const PROSE_EDIT: f64 = 0.8;

/// How much a rule for whole files of a kind (`Doc::file_rules`) says about
/// a task that makes such a file; a rule for every file says
/// [`ANY_FILE`] of that.
const FILE_RULE: f64 = 0.8;

/// See [`FILE_RULE`].
const ANY_FILE: f64 = 0.6;

/// What relevance is left to a rule for files of some kinds when every path
/// of the task is of another kind (see [`other_kinds`]), as for a rule about
/// code against an edit of prose ([`PROSE_EDIT`]).
const OTHER_KIND: f64 = 0.8;

/// What relevance is left to a rule about a step of the workflow (a
/// commit, a pull request, a changelog entry) for a task that does not
/// take that step, as for [`OTHER_KIND`].
const OTHER_STEP: f64 = 0.8;

/// Steps of the workflow a rule may be about, by the terms that name them
/// (stemmed): a commit, a pull request, a changelog entry.
const STEPS: &[&[&str]] = &[&["commit"], &["pr", "pull"], &["changelog", "changeset"]];

/// The steps of [`STEPS`] that `terms` name, as bits.
fn steps<'t>(terms: impl Iterator<Item = &'t str>) -> u8 {
    let mut out = 0u8;
    for t in terms {
        for (bit, names) in STEPS.iter().enumerate() {
            if names.contains(&t) {
                out |= 1 << bit;
            }
        }
    }
    out
}

/// The steps of [`STEPS`] a rule's title is about: named as its subject,
/// not as the time of something else ("Run the formatter before every
/// commit" is a rule about formatting).
fn steps_of_rule(title: &str) -> u8 {
    const WHEN: &[&str] = &["before", "after", "every", "each", "prior", "until", "pre"];
    let words: Vec<String> = title
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect();
    let mut out = 0u8;
    for (i, w) in words.iter().enumerate() {
        if words[i.saturating_sub(2)..i]
            .iter()
            .any(|p| WHEN.contains(&p.as_str()))
        {
            continue;
        }
        terms::for_each_term(w, |t| out |= steps(std::iter::once(t)));
    }
    out
}

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
    /// Share of what the task's own words say (weight × idf) that the
    /// memory matches; it raises `lexical` by up to double its evidence.
    pub coverage: f64,
    /// Sum of the distinctive evidence of the task's own words the memory
    /// holds: what can make it relevant.
    pub evidence: f64,
    /// Sum of the evidence of the paths' words: it only orders memories.
    pub support: f64,
    /// `1 − e^(−evidence / scale)`: the lexical part of relevance.
    pub lexical: f64,
    /// Rescaled cosine similarity, when vectors exist.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub embedding: Option<f64>,
    /// Specificity of the most specific scope glob matching a path.
    pub path: f64,
    /// 1 when a scope module matches.
    pub module: f64,
    /// Relevance inherited from a memory this one superseded.
    pub lineage: f64,
    /// The noisy-or of the above (or the inherited relevance, if higher):
    /// whether the memory is shown at all.
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
    /// The order: the same noisy-or with the paths' words counted too,
    /// times the weights.
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

/// Every term whose postings ranking may read for a task and its paths
/// (the task's words, their synonyms and splits, the paths' words).
pub fn query_terms(task: Option<&str>, paths: &[String]) -> Vec<String> {
    let mut out = task.map(terms::candidate_terms).unwrap_or_default();
    for p in paths {
        let (file, dirs) = terms::path_words(p);
        out.extend(file.into_iter().chain(dirs).map(|(w, _)| w));
    }
    // Paths written in the task get theirs from `candidate_terms`.
    if paths.iter().any(|p| terms::is_prose_path(p)) {
        out.extend(terms::DOCS_TERMS.iter().map(|t| (*t).to_owned()));
    }
    // What the ranking reads of an edit of prose or settings, over every
    // path it matches (given and written in the task), as `analyze_query`
    // gathers them: a warm read loads only these terms' postings and must
    // rank as a cold one, which holds all.
    let mut all_paths = paths.to_vec();
    if let Some(task) = task {
        for p in terms::analyze(task, &|_| true).paths {
            if !all_paths.contains(&p) {
                all_paths.push(p);
            }
        }
    }
    out.extend(prose_terms(&all_paths).unwrap_or_default());
    out.sort();
    out.dedup();
    out
}

/// The task analysed against the index's vocabulary, with the paths' words
/// as evidence groups; and every path to match scopes against.
pub fn analyze_query(index: &Index, query: &Query<'_>) -> (QueryText, Vec<String>) {
    let known = |t: &str| index.postings.get(t).is_some_and(|p| !p.is_empty());
    let mut q = query
        .task
        .map(|t| terms::analyze(t, &known))
        .unwrap_or_default();
    let mut paths: Vec<String> = query.paths.to_vec();
    for p in &q.paths {
        if !paths.contains(p) {
            paths.push(p.clone());
        }
    }
    for p in &paths {
        let written = q.paths.contains(p);
        q.add_path(p, written);
    }
    (q, paths)
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
    let (analysis, paths) = analyze_query(index, query);
    let mut in_pool = vec![false; index.docs.len()];
    for &p in pool {
        in_pool[p] = true;
    }
    // Every distinct term of the groups, with its postings in the pool.
    let mut term_ids: HashMap<&str, usize> = HashMap::new();
    for g in &analysis.groups {
        for (t, _) in &g.terms {
            let next = term_ids.len();
            term_ids.entry(t.as_str()).or_insert(next);
        }
    }
    let n_terms = term_ids.len();
    let mut tf: HashMap<usize, Vec<f64>> = HashMap::new();
    let mut df = vec![0.0f64; n_terms];
    #[allow(
        clippy::iter_over_hash_type,
        reason = "each document's frequencies are filled in place whatever the order"
    )]
    for (term, &i) in &term_ids {
        for p in index.postings.get(*term).map_or(&[][..], Vec::as_slice) {
            let d = p.doc as usize;
            if p.tf > 0.0 && in_pool.get(d).copied().unwrap_or(false) {
                tf.entry(d).or_insert_with(|| vec![0.0; n_terms])[i] += f64::from(p.tf);
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
    let idf_of = |d: f64| ((pool_size - d + 0.5) / (d + 0.5) + 1.0).ln();
    let idf: Vec<f64> = df.iter().map(|&d| idf_of(d)).collect();
    // The idf of a term only one memory has: evidence is measured against it.
    let idf_max = idf_of(1.0).max(1e-9);
    let groups: Vec<GroupTerms> = analysis
        .groups
        .iter()
        .map(|g| {
            let weight = g.terms.iter().map(|(_, w)| *w).fold(0.0, f64::max);
            let terms = g
                .terms
                .iter()
                .map(|(t, w)| (term_ids[t.as_str()], *w))
                .collect();
            GroupTerms {
                weight,
                kind: g.kind,
                trigger: g.trigger && !g.is_concept(),
                concept: g.is_concept(),
                alternative: g.is_alternative(),
                terms,
            }
        })
        .collect();
    // How much each of the task's own words says: its weight times the idf
    // of the word itself (a word no memory uses says the most).
    let say = |g: &GroupTerms| {
        if (g.trigger || g.concept) && !g.alternative {
            g.weight * g.terms.first().map_or(0.0, |(i, _)| idf[*i])
        } else {
            0.0
        }
    };
    let total_say: f64 = groups.iter().map(say).sum();
    let term_names: Vec<&str> = {
        let mut v = vec![""; n_terms];
        #[allow(clippy::iter_over_hash_type, reason = "filled by position")]
        for (t, &i) in &term_ids {
            v[i] = t;
        }
        v
    };
    let speaks_of_paths = prose_only(index, &paths);
    // Each path split once, for every scope of the pool.
    let split_paths: Vec<SplitPath<'_>> = paths.iter().map(|p| SplitPath::new(p)).collect();
    let steps_taken = steps(term_names.iter().copied());
    let no_tf = vec![0.0; n_terms];
    let mut out: Vec<Scored<'a>> = pool
        .par_iter()
        .map(|&position| {
            let m = &index.docs[position];
            let tf = tf.get(&position).unwrap_or(&no_tf);
            let len = f64::from(m.len);
            let norm = K1 * (1.0 - B + B * len / avg_len.max(1e-9));
            // BM25's saturation of a term frequency, in 0..1.
            let sat = |i: usize| tf[i] / (tf[i] + norm);
            let mut bm25 = 0.0;
            let mut evidence = 0.0;
            let mut support = 0.0;
            let mut matched_say = 0.0;
            let mut trigger_groups = 0usize;
            let mut on_topic = false;
            let mut matched: Vec<String> = Vec::new();
            // A group's best match (evidence, BM25 share, the term), without
            // allocating: this runs for every memory of the pool.
            let best_of = |group: &GroupTerms| -> (f64, f64, Option<usize>) {
                let of = |i: usize, w: f64| {
                    (
                        w * idf[i] / idf_max * sat(i),
                        w * idf[i] * (K1 + 1.0) * sat(i),
                    )
                };
                match group.kind {
                    GroupKind::Any => {
                        group
                            .terms
                            .iter()
                            .fold((0.0f64, 0.0f64, None), |acc, &(i, w)| {
                                let (e, b) = of(i, w);
                                if e > acc.0 { (e, b, Some(i)) } else { acc }
                            })
                    }
                    GroupKind::All => {
                        let mut out = (f64::MAX, f64::MAX, None);
                        for &(i, w) in &group.terms {
                            let (e, b) = of(i, w);
                            if e <= 0.0 {
                                return (0.0, 0.0, None);
                            }
                            out = (out.0.min(e), out.1.min(b), out.2.or(Some(i)));
                        }
                        if out.2.is_some() {
                            out
                        } else {
                            (0.0, 0.0, None)
                        }
                    }
                }
            };
            // A group that says a word another way (a synonym of several
            // words) follows the word's own group and stands in for it when
            // it matches better, never beside it.
            let mut next = 0;
            while next < groups.len() {
                let group = &groups[next];
                let (mut best, mut best_bm25, mut hit) = best_of(group);
                next += 1;
                while next < groups.len() && groups[next].alternative {
                    let other = best_of(&groups[next]);
                    if other.0 > best {
                        (best, best_bm25, hit) = other;
                    }
                    next += 1;
                }
                if best > 0.0 {
                    let topic = hit.is_some_and(|i| m.on_topic(term_names[i]));
                    if group.trigger || group.concept && topic {
                        evidence += best;
                        trigger_groups += 1;
                        on_topic |= topic;
                    } else {
                        support += best;
                    }
                    bm25 += best_bm25;
                    matched_say += say(group);
                    if let Some(i) = hit {
                        let name = term_names[i].to_owned();
                        if !matched.contains(&name) {
                            matched.push(name);
                        }
                    }
                }
            }
            // One word of the task that the memory only mentions in passing
            // ("one partition per calendar month") is weak evidence of what
            // it is about: it counts half.
            if trigger_groups == 1 && !on_topic {
                evidence *= PASSING_MENTION;
            }
            let coverage = if total_say > 0.0 {
                matched_say / total_say
            } else {
                0.0
            };
            // A short task whose few words a memory holds is as clear as a
            // long one with many distinctive matches.
            let lexical = 1.0 - (-evidence * (1.0 + coverage) / EVIDENCE_SCALE).exp();
            let path = if paths.is_empty() {
                0.0
            } else {
                m.scope_paths
                    .iter()
                    .filter(|raw| {
                        split_paths
                            .iter()
                            .any(|p| (p.absolute || may_match(raw, p.written)) && p.matched_by(raw))
                    })
                    .map(|raw| specificity(raw))
                    .chain(
                        m.named_paths
                            .iter()
                            .filter(|raw| {
                                // Most named files end differently from every
                                // task path: no glob to build for them.
                                // (`**/go.mod` ends in `go.mod` for the
                                // root's own `go.mod`.)
                                let tail = raw.rsplit(['*', '?']).next().unwrap_or(raw);
                                let tail = tail.trim_start_matches('/');
                                split_paths
                                    .iter()
                                    .any(|p| p.written.ends_with(tail) && p.matched_by(raw))
                            })
                            .map(|raw| NAMED_PATH * specificity(raw)),
                    )
                    .fold(0.0, f64::max)
            };
            let file_rule = file_rule(&m.file_rules, &analysis.created);
            let module = f64::from(u8::from(m.modules.iter().any(|md| {
                let md = md.to_lowercase();
                query.modules.iter().any(|q| q.eq_ignore_ascii_case(&md))
                    || paths
                        .iter()
                        .any(|p| p.split('/').any(|s| s.eq_ignore_ascii_case(&md)))
            })));
            let embedding = similarities
                .and_then(|v| v[position])
                .map(|c| ((c - 0.2) / 0.8).clamp(0.0, 1.0));
            let emb = embedding.unwrap_or(0.0);
            let mut relevance = 1.0
                - (1.0 - lexical)
                    * (1.0 - 0.7 * path)
                    * (1.0 - 0.3 * module)
                    * (1.0 - 0.4 * emb)
                    * (1.0 - FILE_RULE * file_rule);
            if speaks_of_paths
                .as_ref()
                .is_some_and(|speaks| path == 0.0 && !speaks[position])
            {
                relevance *= PROSE_EDIT;
            }
            // A rule for files of a kind ("the copyright header of new `.go`
            // files") says little about a task whose every file is of
            // another kind (a footer template).
            if path == 0.0 && other_kinds(&m.file_rules, &paths) {
                relevance *= OTHER_KIND;
            }
            // A rule about a step of the workflow ("Commits / PR titles
            // start with `KAFKA-XXXXX`, `MINOR`") is for tasks that take
            // that step, not for every task that shares a word with it
            // ("bump the minor version").
            // Its title is read only when its terms name a step at all.
            let about = if steps(m.topic.split(' ')) == 0 {
                0
            } else {
                steps_of_rule(&m.title)
            };
            if path == 0.0 && about != 0 && about & steps_taken == 0 {
                relevance *= OTHER_STEP;
            }
            // The order saturates far later than relevance: among relevant
            // memories, more evidence still ranks higher.
            // A file the task makes that a file rule governs is evidence of
            // its path.
            let path_evidence = path.max(FILE_RULE * file_rule);
            let total = evidence + support + 1.5 * path_evidence + 0.5 * module + 1.5 * emb;
            let mut order = 1.0 - (-total / ORDER_SCALE).exp();
            if query.is_empty() {
                // No task and no paths: only repository-wide rules that matter.
                let general = m.scope_paths.is_empty()
                    && m.modules.is_empty()
                    && m.importance >= Importance::High;
                relevance = if general { 0.5 } else { 0.0 };
                order = relevance;
            }
            let mut c = weigh(m, order, now, usage.get(&m.id).copied().unwrap_or(0));
            c.relevance = relevance;
            Scored {
                doc: m,
                position,
                components: Components {
                    bm25,
                    coverage,
                    evidence,
                    support,
                    lexical,
                    embedding,
                    path: path_evidence,
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

/// How much a memory that governs whole files of the kinds `rules` names
/// ([`Doc::file_rules`]) is about a task that makes the files `created`:
/// 1 for a file of a kind it names, [`ANY_FILE`] when it names every file.
fn file_rule(rules: &[String], created: &[String]) -> f64 {
    if rules.is_empty() {
        return 0.0;
    }
    created
        .iter()
        .map(|p| {
            if extension(p).is_some_and(|e| rules.contains(&e)) {
                1.0
            } else if rules.iter().any(|r| r == "*") {
                ANY_FILE
            } else {
                0.0
            }
        })
        .fold(0.0, f64::max)
}

/// Whether a memory governs files of named kinds only (`Doc::file_rules`,
/// not every file) and the task has paths, none of them of those kinds.
fn other_kinds(rules: &[String], paths: &[String]) -> bool {
    !rules.is_empty()
        && !rules.iter().any(|r| r == "*")
        && !paths.is_empty()
        && paths
            .iter()
            .all(|p| extension(p).is_none_or(|e| !rules.contains(&e)))
}

/// The extension of a path's file name, lowercased (`cs` of
/// `src/Aspire.Hosting.cs`).
fn extension(path: &str) -> Option<String> {
    let name = path.rsplit('/').next().unwrap_or(path);
    name.rsplit_once('.').map(|(_, e)| e.to_lowercase())
}

/// When a task edits only prose or settings (every path documentation, an
/// image or a data file, see [`terms::is_prose_path`] and
/// [`terms::is_data_path`]): which documents speak of documentation, of
/// where those files are or of their kind (hold a word of
/// [`terms::DOCS_TERMS`], of the paths' directories or of
/// [`terms::file_kinds`]), aligned with `index.docs`. `None` when the task
/// edits code too, or names no path.
fn prose_only(index: &Index, paths: &[String]) -> Option<Vec<bool>> {
    let terms = prose_terms(paths)?;
    let mut speaks = vec![false; index.docs.len()];
    for term in terms {
        for p in index.postings.get(&term).map_or(&[][..], Vec::as_slice) {
            if p.tf > 0.0
                && let Some(s) = speaks.get_mut(p.doc as usize)
            {
                *s = true;
            }
        }
    }
    Some(speaks)
}

/// The terms by which a memory speaks of editing `paths` (see
/// [`prose_only`]), when every one of them is prose or settings: the words
/// of documentation, the directories' words (`handbook/`), not the file
/// name's (a page's name says what it is about, `Homebrew-on-Linux.md`, not
/// which rules govern editing it), and the kind of file in the words rules
/// use for it (a rule about the lockfile is about editing `Cargo.lock`).
fn prose_terms(paths: &[String]) -> Option<Vec<String>> {
    if paths.is_empty()
        || !paths
            .iter()
            .all(|p| terms::is_prose_path(p) || terms::is_data_path(p))
    {
        return None;
    }
    let mut out: Vec<String> = terms::DOCS_TERMS.iter().map(|t| (*t).to_owned()).collect();
    for p in paths {
        let (_, dirs) = terms::path_words(p);
        out.extend(dirs.into_iter().map(|(w, _)| w));
        for k in terms::file_kinds(p) {
            terms::for_each_term(k, |w| out.push(w.to_owned()));
        }
    }
    Some(out)
}

/// Whether a path is absolute (`/home/me/repo/src/a.rs`, `C:/repo/a.rs`).
fn absolute(path: &str) -> bool {
    path.starts_with('/') || path.get(1..3) == Some(":/")
}

/// A task path, split into its segments once for all scopes.
struct SplitPath<'p> {
    written: &'p str,
    absolute: bool,
    segments: Vec<&'p str>,
}

impl<'p> SplitPath<'p> {
    fn new(written: &'p str) -> SplitPath<'p> {
        SplitPath {
            written,
            absolute: absolute(written),
            segments: path_segments(written),
        }
    }

    /// Whether a scope pattern matches the path: a relative one as it is,
    /// an absolute one (`/home/me/repo/src/a.rs`, outside the repository's
    /// view) by any tail.
    fn matched_by(&self, pattern: &str) -> bool {
        if self.absolute {
            (0..self.segments.len()).any(|k| matches_segments(pattern, &self.segments[k..]))
        } else {
            matches_segments(pattern, &self.segments)
        }
    }
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
            c.score = c
                .score
                .max(inh * c.type_weight * c.importance * c.risk * c.freshness * c.usage);
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
