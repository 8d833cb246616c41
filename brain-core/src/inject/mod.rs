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

mod excerpt;
pub mod index;
pub mod rank;
pub mod terms;

use std::collections::HashMap;
use std::fmt::Write as _;

use jiff::Timestamp;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::model::{Memory, MemoryId, MemoryType};
use crate::review::text::similarity;
use index::Index;
use rank::{Components, Query, Scored};

/// Version of the block format; the marker carries it.
pub const BLOCK_VERSION: u32 = 1;
/// Relevance the best memory needs for anything to be injected (the
/// default of [`Tuning::min_relevance`]).
pub const MIN_RELEVANCE: f64 = 0.75;
/// Two picks this similar (title and summary) are one piece of knowledge.
pub const NEAR_DUPLICATE: f64 = 0.75;
/// Most near-misses reported.
pub const MAX_NEAR_MISSES: usize = 10;
/// Most tokens of a memory's text shown under its title in the summary
/// layer: the first memory's, then every other's.
pub const FIRST_BODY_TOKENS: usize = 320;
/// See [`FIRST_BODY_TOKENS`].
pub const BODY_TOKENS: usize = 140;

/// Whether anything is relevant, and how many to show: the thresholds of
/// selection (`inject.*` in the config). The block holds memories only when
/// the most relevant one reaches `min_relevance`; then it holds those that
/// reach `min_shown_relevance` and `relative_cutoff` of the best score, at
/// most `max_memories`, best first.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct Tuning {
    /// Relevance (`0..1`) the best memory needs for anything to be shown;
    /// below it, the block says nothing is relevant. Default 0.75.
    pub min_relevance: f64,
    /// Relevance every shown memory needs, once something is. Default 0.45.
    pub min_shown_relevance: f64,
    /// Least share of the best memory's score another needs. Default 0.3.
    pub relative_cutoff: f64,
    /// Most memories in one block. Default 5.
    pub max_memories: usize,
    /// For a task that only asks about the code ("explain …, don't change
    /// anything"), `min_relevance` is multiplied by this. Rules say how to
    /// change the code, so by default (2, which puts the bar above 1) such a
    /// task gets nothing; 1 treats it like any other.
    pub read_only_factor: f64,
}

impl Default for Tuning {
    fn default() -> Self {
        Tuning {
            min_relevance: MIN_RELEVANCE,
            min_shown_relevance: 0.45,
            relative_cutoff: 0.3,
            max_memories: 5,
            read_only_factor: 2.0,
        }
    }
}

impl Tuning {
    /// The relevance the best memory needs for `task`.
    pub fn threshold(&self, task: Option<&str>) -> f64 {
        if task.is_some_and(terms::read_only) {
            self.min_relevance * self.read_only_factor
        } else {
            self.min_relevance
        }
    }
}

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
    /// Paths left out of `paths` (the working tree changed more than are
    /// ranked against).
    pub paths_omitted: usize,
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
    /// Thresholds and caps.
    pub tuning: Tuning,
}

impl Request<'_> {
    /// Whether nothing says what the agent is about to do: the block is then
    /// the always-on index of repository-wide rules.
    pub fn is_session_start(&self) -> bool {
        self.task.is_none_or(|t| t.trim().is_empty())
            && self.paths.is_empty()
            && self.modules.is_empty()
            && self.ids.is_empty()
    }
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
    /// The relevance a memory needed to be shown (higher for a task that
    /// only asks about the code).
    pub threshold: f64,
    /// Tokens the block costs.
    pub used_tokens: usize,
    /// The Markdown block.
    pub block: String,
}

#[allow(
    clippy::trivially_copy_pass_by_ref,
    reason = "serde's skip_serializing_if passes a reference"
)]
fn is_zero(n: &usize) -> bool {
    *n == 0
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
    if request.is_session_start() {
        return always_on(ranked, request, eligible, header, &footer, fetch);
    }
    let mut used = tokens(&header) + tokens(&footer);
    let mut picked: Vec<(Scored<'_>, Memory, String)> = Vec::new();
    let mut misses: Vec<NearMiss> = Vec::new();
    let mut below = 0usize;
    let tuning = &request.tuning;
    let threshold = tuning.threshold(request.task);
    // Whether anything is relevant: the best memory decides. How many to
    // show: those relevant enough once something is.
    let anything = ranked.iter().any(|s| s.components.relevance >= threshold);
    let shown = tuning.min_shown_relevance.min(threshold);
    let best = ranked
        .iter()
        .filter(|s| anything && s.components.relevance >= shown)
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
            && (!anything
                || s.components.relevance < shown
                || s.components.score < tuning.relative_cutoff * best)
        {
            if s.components.relevance > 0.0 && below < MAX_NEAR_MISSES {
                below += 1;
                misses.push(miss(MissReason::BelowThreshold));
            }
            continue;
        }
        if picked.len() >= tuning.max_memories {
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
        let room = if picked.is_empty() {
            FIRST_BODY_TOKENS
        } else {
            BODY_TOKENS
        };
        let matched = weigh_terms(index, &s.matched_terms);
        // The full entry, else a shorter one, while the budget allows.
        let Some(entry) = [room, room / 3, 0]
            .into_iter()
            .map(|r| entry(&memory, request.layer, &matched, r))
            .find(|e| used + tokens(e) <= request.budget)
        else {
            misses.push(miss(MissReason::OverBudget));
            continue;
        };
        used += tokens(&entry);
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
        threshold,
        used_tokens,
        block,
    }
}

/// Each matched term with its weight: how few of the store's memories hold
/// it (BM25's inverse document frequency), so that a word every memory uses
/// counts for little when choosing what of a memory to print.
#[allow(clippy::cast_precision_loss, reason = "memory counts are small")]
fn weigh_terms(index: &Index, matched: &[String]) -> Vec<(String, f64)> {
    let n = index.docs.len() as f64;
    matched
        .iter()
        .map(|t| {
            let df = index.postings.get(t).map_or(1, Vec::len).max(1) as f64;
            let idf = (1.0 + (n - df + 0.5) / (df + 0.5)).ln();
            (t.clone(), idf.max(0.01))
        })
        .collect()
}

/// Most rules in the always-on index.
pub const MAX_ALWAYS_ON: usize = 40;

/// The block at session start (no task, paths, modules or ids): the
/// always-on index, one line per repository-wide rule that matters
/// (unscoped, high or critical importance; ranking gives them relevance and
/// nothing else any), most important first, within the budget. A line is
/// the rule's summary when short, else its title.
fn always_on(
    ranked: Vec<Scored<'_>>,
    request: &Request<'_>,
    eligible: usize,
    header: String,
    footer: &str,
    fetch: &mut dyn FnMut(usize) -> Option<Memory>,
) -> Selection {
    let rules: Vec<Scored<'_>> = ranked
        .into_iter()
        .filter(|s| s.components.relevance > 0.0)
        .collect();
    let total = rules.len();
    let mut block = header;
    let mut lines: Vec<(Scored<'_>, String)> = Vec::new();
    let mut misses: Vec<NearMiss> = Vec::new();
    let heading = |shown: usize| {
        format!("Always-on rules ({shown} of {total}; `brain show ID` gives one in full):\n")
    };
    // Room for the heading with the largest counts it can show.
    let mut used = tokens(&block) + tokens(footer) + tokens(&heading(total)) + 1;
    for s in rules {
        let miss = |reason| NearMiss {
            id: s.doc.id.clone(),
            kind: s.doc.kind,
            title: s.doc.title.clone(),
            reason,
            components: s.components.clone(),
        };
        if lines.len() >= MAX_ALWAYS_ON {
            if misses.len() < MAX_NEAR_MISSES {
                misses.push(miss(MissReason::Limit));
            }
            continue;
        }
        let Some(m) = fetch(s.position) else {
            misses.push(miss(MissReason::Unreadable));
            continue;
        };
        let summary = one_line(&m.summary, usize::MAX);
        let text = if summary.chars().count() <= 200 {
            summary
        } else {
            one_line(&m.title, 200)
        };
        let line = format!("- {text} (`{}`)\n", m.id);
        if used + tokens(&line) > request.budget {
            if misses.len() < MAX_NEAR_MISSES {
                misses.push(miss(MissReason::OverBudget));
            }
            continue;
        }
        used += tokens(&line);
        lines.push((s, line));
    }
    if lines.is_empty() {
        block.push_str("No repository-wide rule is marked high or critical.\n");
    } else {
        block.push_str(&heading(lines.len()));
        for (_, l) in &lines {
            block.push_str(l);
        }
        block.push('\n');
    }
    if tokens(&block) + tokens(footer) > request.budget {
        // The note does not fit a tiny budget: markers only.
        block = block.lines().take(2).fold(String::new(), |mut b, l| {
            b.push_str(l);
            b.push('\n');
            b
        });
    }
    block.push_str(footer);
    Selection {
        used_tokens: tokens(&block),
        selected: lines
            .into_iter()
            .map(|(s, l)| Selected {
                id: s.doc.id.clone(),
                kind: s.doc.kind,
                title: s.doc.title.clone(),
                tokens: tokens(&l),
                matched_terms: Vec::new(),
                components: s.components,
            })
            .collect(),
        near_misses: misses,
        eligible,
        threshold: 0.0,
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
        let more = request.paths.len().saturating_sub(shown.len()) + request.paths_omitted;
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

/// One memory's entry in the block. In the summary layer its text is the
/// memory's whole detail when that fits in `room` tokens, else the parts of
/// its detail that hold `matched` terms (each with its weight), verbatim,
/// in their order, within `room` (see `excerpt`): after the summary when it
/// is text of its own, instead of it when it only repeats the start of the
/// detail (it stands in when no part holds a term).
pub fn entry(m: &Memory, layer: Layer, matched: &[(String, f64)], room: usize) -> String {
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
    let body = match layer {
        Layer::Full => {
            let mut b = m.summary.trim().to_owned();
            if !m.detail.trim().is_empty() {
                b.push_str("\n\n");
                b.push_str(m.detail.trim());
            }
            b
        }
        _ => body(m, matched, room),
    };
    if !body.is_empty() {
        e.push_str(&body);
        e.push('\n');
    }
    e.push('\n');
    e
}

/// The summary layer's text of a memory (see [`entry`]).
fn body(m: &Memory, matched: &[(String, f64)], room: usize) -> String {
    let summary = m.summary.trim();
    let detail = m.detail.trim();
    let flat = excerpt::flatten;
    let (flat_title, flat_summary, flat_detail) = (flat(&m.title), flat(summary), flat(detail));
    // A summary that is the title again, or the title and the file it came
    // from ("Running Clippy (CLAUDE.md)"), says nothing.
    let only_title = flat_summary
        .strip_prefix(flat_title.as_str())
        .map(str::trim)
        .is_some_and(|rest| {
            rest.is_empty()
                || (rest.starts_with('(')
                    && rest.ends_with(')')
                    && !rest[1..rest.len() - 1].contains(['(', ')'])
                    && !rest.contains(' '))
        });
    let summary = if only_title || flat_summary.is_empty() {
        ""
    } else {
        summary
    };
    if detail.is_empty() || flat_detail == flat_summary || flat_summary.contains(&flat_detail) {
        // The same words: the detail keeps the lines of a list apart.
        if flat_detail == flat_summary && detail.contains('\n') && tokens(detail) <= room {
            return detail.to_owned();
        }
        return cut_to(summary, room.max(1));
    }
    // A summary made from the start of the detail (whole, or cut with `…`)
    // says nothing the detail does not.
    let derived =
        summary.is_empty() || flat_detail.contains(flat_summary.trim_end_matches('…').trim_end());
    if tokens(detail) <= room {
        // The detail says it all: show it (without a summary it repeats).
        if derived {
            return detail.to_owned();
        }
        if tokens(summary) + tokens(detail) < room {
            return format!("{summary}\n{detail}");
        }
    }
    // Too long to print whole: the room goes to the parts that hold the
    // task's words, and a derived summary is shown only when none does.
    if derived {
        let parts = excerpt::excerpt(detail, matched, room, "");
        return if parts.is_empty() {
            cut_to(summary, room.max(1))
        } else {
            parts
        };
    }
    let mut out = cut_to(summary, room.max(1));
    let parts = excerpt::excerpt(
        detail,
        matched,
        room.saturating_sub(tokens(&out)),
        out.trim_end_matches('…'),
    );
    if !parts.is_empty() {
        out.push('\n');
        out.push_str(&parts);
    }
    out
}

/// `text` within `room` tokens: whole, or cut at a word with `…`.
fn cut_to(text: &str, room: usize) -> String {
    if tokens(text) <= room {
        return text.to_owned();
    }
    let max = room.saturating_mul(4).saturating_sub(4);
    let mut end = 0;
    for (i, c) in text.char_indices() {
        if i + c.len_utf8() > max {
            break;
        }
        if c.is_whitespace() {
            end = i;
        }
    }
    format!("{}…", text[..end].trim_end())
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
    /// Changed paths left out of `paths` (more changed than are ranked
    /// against).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub paths_omitted: usize,
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
                paths_omitted: request.paths_omitted,
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Importance, Provenance, Source, Status};

    fn memory(id: &str, title: &str, summary: &str, detail: &str) -> Memory {
        let mut m = Memory::new(
            MemoryId::new(id).unwrap(),
            MemoryType::Convention,
            Status::Active,
            title,
            summary,
            Provenance {
                source: Source::Import,
                captured_at: "2026-01-01T00:00:00Z".parse().unwrap(),
                proposed_by: None,
                evidence: Vec::new(),
            },
        );
        m.detail = detail.to_owned();
        m
    }

    #[test]
    fn a_summary_that_only_repeats_the_title_is_not_printed() {
        let code = "```sh\ncargo clippy --workspace --all-targets -- -D warnings\n```";
        let cases: &[(&str, &str, &str, &str)] = &[
            // The title and the file it came from: the code says it all.
            ("Running Clippy", "Running Clippy (CLAUDE.md)", code, code),
            ("Running Clippy", "Running Clippy", code, code),
            // A summary that says more is kept.
            (
                "Running Clippy",
                "Running Clippy (warnings are errors in CI)",
                code,
                "Running Clippy (warnings are errors in CI)\n```sh",
            ),
        ];
        for (title, summary, detail, starts) in cases {
            let m = memory("clippy", title, summary, detail);
            let b = body(&m, &[], 300);
            assert!(b.starts_with(starts), "{summary}: {b}");
        }
    }

    fn scoped(mut m: Memory, glob: &str) -> Memory {
        m.scope.paths = vec![glob.to_owned()];
        m
    }

    /// A small store of imported rules, as a rule file gives them.
    fn store() -> Vec<Memory> {
        let mut always = memory(
            "lockfile",
            "NEVER update all dependencies in the lockfile",
            "NEVER update all dependencies in the lockfile; use `cargo update --precise` to make lockfile changes.",
            "",
        );
        always.importance = Importance::High;
        vec![
            always,
            memory(
                "clippy-expect",
                "PREFER `#[expect()]` over `#[allow()]` if clippy must be disabled",
                "PREFER `#[expect()]` over `#[allow()]` if clippy must be disabled.",
                "",
            ),
            memory(
                "partitions",
                "Partition usage_events by month",
                "usage_events is range-partitioned with one partition per calendar month.",
                "",
            ),
            memory(
                "snapshots",
                "Review generated snapshots as behavior",
                "Snapshot changes are behavior to review, not output to accept.",
                "Section: Testing\n\nReview generated snapshots as behavior, not disposable output.\n\n\
                 | Changed source | Command |\n| --- | --- |\n| Grammar `.ungram` | `just gen-grammar` |\n\
                 | Lint rule | `just gen-rules` |",
            ),
            memory(
                "windows",
                "Check Windows builds with cargo xwin clippy",
                "When making changes for Windows from Unix, use `cargo xwin clippy` to check compilation.",
                "",
            ),
            memory(
                "commands",
                "Build: `./gradlew assemble{Variant}`",
                "- Build: `./gradlew assemble{Variant}`.",
                "Section: Commands\n\n- Build: `./gradlew assemble{Variant}`.\n\
                 - Fix linting/formatting: `./gradlew spotlessApply`\n\
                 - Run local tests: `./gradlew {variant}Test`",
            ),
            // As the import writes `*/api/*.cs` of a rule file.
            scoped(
                memory(
                    "generated-api",
                    "Don't update files under `*/api/*.cs`",
                    "Don't update files under `*/api/*.cs` (e.g. src/Hosting/api/Hosting.cs) as they are generated.",
                    "",
                ),
                "**/api/*.cs",
            ),
            memory(
                "strict-types",
                "All PHP files use `declare(strict_types=1)`",
                "All PHP files use `declare(strict_types=1)`.",
                "",
            ),
            memory(
                "doc-examples",
                "Code examples in the docs are tested",
                "Every runnable example in the documentation is run by `make test-docs`.",
                "",
            ),
            scoped(
                memory(
                    "guide-style",
                    "Guides open with what the reader will do",
                    "Each guide starts with one sentence on the task it walks through.",
                    "",
                ),
                "docs/guide/**",
            ),
            memory(
                "designer",
                "The `*.Designer.cs` files match the `*.resx` files of the same name",
                "If you change resources in a resx, make the matching changes in the `*.Designer.cs` file; \
                 changes to `eng/Testing.targets` need a manual pipeline run.",
                "",
            ),
            memory(
                "go-tidy",
                "Run `make tidy` after any `go.mod` changes",
                "Run `make tidy` after any `go.mod` changes.",
                "",
            ),
        ]
    }

    fn inject(task: Option<&str>, paths: &[String]) -> Selection {
        inject_from(&store(), task, paths)
    }

    fn inject_from(memories: &[Memory], task: Option<&str>, paths: &[String]) -> Selection {
        let refs: Vec<&Memory> = memories.iter().collect();
        let request = Request {
            task,
            paths,
            path_source: if paths.is_empty() {
                PathSource::None
            } else {
                PathSource::Explicit
            },
            paths_omitted: 0,
            modules: &[],
            ids: &[],
            layer: Layer::Summary,
            budget: 1200,
            embedding: None,
            tuning: Tuning::default(),
        };
        select(
            &refs,
            &request,
            "2026-06-01T00:00:00Z".parse().unwrap(),
            None,
            &HashMap::new(),
        )
    }

    fn ids(s: &Selection) -> Vec<&str> {
        s.selected.iter().map(|x| x.id.as_str()).collect()
    }

    #[test]
    fn what_is_shown_for_natural_tasks() {
        // (task, the first memory shown, or none)
        let cases: &[(&str, Option<&str>)] = &[
            // A long pasted log still finds the rule its words name.
            (
                "CI is red on my PR, clippy says:\n\nerror: used `unwrap()` on a `Result` value\n   --> crates/x/src/lock/mod.rs:812:27\n\nJust add an allow so it goes green.",
                Some("clippy-expect"),
            ),
            (
                "The windows job failed after my refactor, I'm on a Mac",
                Some("windows"),
            ),
            (
                "Just accept all the new snapshots so the tests pass",
                Some("snapshots"),
            ),
            // One word the memory only mentions in passing is not enough.
            ("Update the company holiday calendar page copy", None),
            // A question about the code gets nothing, however well it matches.
            (
                "How does clippy decide when to allow a lint? Just explain, don't change anything.",
                None,
            ),
            ("Order new standing desks for the office", None),
            // A command named in code is what its list item is about, not a
            // word in passing.
            ("fix the spotless failures", Some("commands")),
        ];
        for (task, want) in cases {
            let s = inject(Some(task), &[]);
            assert_eq!(ids(&s).first().copied(), *want, "{task}: {:?}", ids(&s));
            if let Some(want) = want {
                assert!(s.block.contains(&format!("`{want}`")), "{}", s.block);
            } else {
                assert!(
                    s.block.contains("No stored memory is relevant"),
                    "{}",
                    s.block
                );
            }
            assert!(tokens(&s.block) <= 1200);
        }
    }

    #[test]
    fn files_named_in_the_text_or_scope_match_at_any_depth() {
        // (task, path, the memory, its path evidence)
        let cases: &[(&str, &str, &str, f64)] = &[
            // A scope glob, and the same pattern the text names.
            (
                "this generated file is missing the new overload, add it",
                "src/Aspire.Hosting/api/Aspire.Hosting.cs",
                "generated-api",
                1.5 / 3.0,
            ),
            // A pattern the text names (`*.resx`), not in the scope.
            (
                "use the new resource string from the publish command",
                "src/Cli/Resources/ErrorStrings.resx",
                "designer",
                0.8 * 0.5 / 3.0,
            ),
            // A file the text names, tracked or not.
            (
                "raise the timeout and start a manual pipeline run",
                "eng/Testing.targets",
                "designer",
                0.8 * 2.0 / 3.0,
            ),
            // A file known by its name, at the root.
            (
                "bump golang.org/x/crypto to v0.31.0",
                "go.mod",
                "go-tidy",
                0.8 / 3.0,
            ),
        ];
        let path_of = |s: &Selection, id: &str| {
            s.selected
                .iter()
                .map(|x| (&x.id, x.components.path))
                .chain(s.near_misses.iter().map(|x| (&x.id, x.components.path)))
                .find(|(x, _)| x.as_str() == id)
                .map_or(0.0, |(_, p)| p)
        };
        for (task, path, id, want) in cases {
            let s = inject(Some(task), &[(*path).to_owned()]);
            let got = path_of(&s, id);
            assert!(
                (got - want).abs() < 1e-9,
                "{task}: {id} path {got}, want {want}"
            );
            let without = inject(Some(task), &[]);
            assert!(path_of(&without, id).abs() < 1e-9, "{task}");
        }
        // With a word of its topic, the file makes the memory relevant.
        let s = inject(
            Some("this generated file is missing the new overload, add it"),
            &["src/Aspire.Hosting/api/Aspire.Hosting.cs".to_owned()],
        );
        assert_eq!(
            ids(&s).first().copied(),
            Some("generated-api"),
            "{}",
            s.block
        );
    }

    #[test]
    fn a_lockfile_in_the_paths_finds_the_rule_about_lockfiles() {
        let memories = [
            memory(
                "lockfile",
                "NEVER update all dependencies in the lockfile",
                "NEVER update all dependencies in the lockfile and ALWAYS use \
                 `cargo update --precise` to make lockfile changes",
                "",
            ),
            memory(
                "xwin",
                "Check Windows builds with cargo xwin clippy",
                "When making changes for Windows from Unix, use `cargo xwin clippy` to check compilation.",
                "",
            ),
            memory(
                "snapshots",
                "Review generated snapshots as behavior",
                "Snapshot changes are behavior to review, not output to accept.",
                "",
            ),
        ];
        let task = Some("bump reqwest to 0.12.9");
        let both = ["Cargo.toml".to_owned(), "Cargo.lock".to_owned()];
        let s = inject_from(&memories, task, &both);
        assert_eq!(ids(&s).first().copied(), Some("lockfile"), "{}", s.block);
        // The manifest alone is no lockfile.
        let s = inject_from(&memories, task, &both[..1]);
        assert!(ids(&s).is_empty(), "{}", s.block);
    }

    #[test]
    fn a_synonym_of_several_words_matches_only_whole() {
        let memories = [
            memory(
                "integration-tag",
                "Include the `integration` tag only for integration tests",
                "Always pass `-tags test_dep`; add `integration` only when running integration tests.",
                "",
            ),
            memory(
                "pipeline",
                "Continuous integration blocks merges on a failing lint job",
                "The continuous integration pipeline runs `make lint` and blocks the merge when it fails.",
                "",
            ),
        ];
        // "CI" is continuous integration said whole, never an integration
        // test.
        for task in [
            "The CI image is still on Go 1.23, bump it to 1.24",
            "CI blocks my merge on lint, fix the lint errors",
        ] {
            let s = inject_from(&memories, Some(task), &[]);
            assert_eq!(ids(&s), ["pipeline"], "{task}: {}", s.block);
        }
    }

    #[test]
    fn a_rule_for_files_of_a_kind_says_little_about_files_of_another() {
        let memories = [
            memory(
                "go-header",
                "Add the current year into the copyright header of new `.go` files",
                "Add the current year into the copyright header of new `.go` files.",
                "",
            ),
            memory(
                "fmt",
                "Run `make fmt` before committing",
                "Run `make fmt` to format Go files before committing.",
                "",
            ),
        ];
        let task = Some("Our footer says 2024. Change the copyright year to 2025.");
        // A Go file: the rule is about it.
        let s = inject_from(&memories, task, &["modules/setting/cache.go".to_owned()]);
        assert_eq!(ids(&s).first().copied(), Some("go-header"), "{}", s.block);
        // A footer template is no Go file.
        let s = inject_from(&memories, task, &["templates/base/footer.tmpl".to_owned()]);
        assert!(ids(&s).is_empty(), "{}", s.block);
    }

    #[test]
    fn a_rule_about_a_workflow_step_is_for_tasks_that_take_it() {
        let memories = [
            memory(
                "commit-prefix",
                "Commits and PR titles start with `KAFKA-XXXXX`, `MINOR` or `HOTFIX`",
                "Every commit message and PR title starts with the ticket key, `MINOR` or `HOTFIX`.",
                "",
            ),
            memory(
                "layout",
                "Gradle modules",
                "Each module has its own build.gradle; shared versions live in gradle.properties.",
                "",
            ),
        ];
        // (task, memories shown first)
        let cases: &[(&str, Option<&str>)] = &[
            ("Commit this with the MINOR prefix", Some("commit-prefix")),
            ("Open a PR for the MINOR cleanup", Some("commit-prefix")),
            // A minor version is no commit.
            ("Bump the minor version to 4.3.0-SNAPSHOT", None),
        ];
        for (task, want) in cases {
            let s = inject_from(&memories, Some(task), &[]);
            assert_eq!(ids(&s).first().copied(), *want, "{task}: {}", s.block);
        }
    }

    #[test]
    fn an_activity_named_in_other_words_finds_the_rules_about_it() {
        let memories = vec![
            memory(
                "formatter",
                "Run the formatter before every commit",
                "Run `cargo fmt` before committing; CI rejects unformatted code.",
                "",
            ),
            memory(
                "reports",
                "Monthly reports are CSV",
                "The export format of monthly reports is CSV with a header row.",
                "",
            ),
            memory(
                "mocks",
                "We do not use any mocking framework",
                "Tests build hand-written fakes; no mocking library is a dependency.",
                "",
            ),
        ];
        // (task, memories shown)
        let cases: &[(&str, &[&str])] = &[
            // "Indentation" is formatting: the rule titled by it is shown;
            // the one that says "format" in passing is not.
            (
                "my editor mangled the indentation in src/ledger.rs",
                &["formatter"],
            ),
            // A mocking library named for what it is.
            (
                "use Moq to replace the IClock in the ledger tests",
                &["mocks"],
            ),
            // Nothing of either activity: nothing.
            ("the ledger total is off by one cent", &[]),
        ];
        for (task, want) in cases {
            let s = inject_from(&memories, Some(task), &[]);
            let got: Vec<&str> = s.selected.iter().map(|x| x.id.as_str()).collect();
            assert_eq!(got, *want, "{task}\n{}", s.block);
        }
    }

    #[test]
    fn an_edit_of_prose_is_governed_by_rules_that_speak_of_documentation() {
        let components = |task: &str, path: &str, id: &str| {
            let s = inject(Some(task), &[path.to_owned()]);
            s.selected
                .iter()
                .map(|x| (&x.id, x.components.clone()))
                .chain(s.near_misses.iter().map(|x| (&x.id, x.components.clone())))
                .find(|(x, _)| x.as_str() == id)
                .map_or_else(
                    || panic!("{task} on {path}: {id} not ranked\n{}", s.block),
                    |(_, c)| c,
                )
        };
        // (task, path, memory, share of its lexical relevance kept)
        let cases: &[(&str, &str, &str, f64)] = &[
            // A rule about code shares one word with an edit of a page.
            (
                "note the month partitions in the operations guide",
                "docs/operations.md",
                "partitions",
                0.8,
            ),
            // The same words, editing code: all of it.
            (
                "note the month partitions in the operations guide",
                "src/operations.rs",
                "partitions",
                1.0,
            ),
            // A rule that speaks of documentation governs the page.
            (
                "add a runnable example for the month partitions",
                "docs/operations.md",
                "doc-examples",
                1.0,
            ),
            // So does one whose scope covers it.
            (
                "reword the intro on partitions",
                "docs/guide/intro.md",
                "guide-style",
                1.0,
            ),
            // A settings or data file is no code either.
            (
                "note the month partitions in the retention settings",
                "deploy/retention.yml",
                "partitions",
                0.8,
            ),
            (
                "add a runnable example for the month partitions",
                "docs/examples.json",
                "doc-examples",
                1.0,
            ),
        ];
        for (task, path, id, share) in cases {
            let c = components(task, path, id);
            let kept = if c.path > 0.0 {
                1.0
            } else {
                c.relevance / c.lexical
            };
            assert!(
                (kept - share).abs() < 1e-9,
                "{task} on {path}: {id} keeps {kept} of {}, want {share}",
                c.lexical
            );
        }
    }

    #[test]
    fn a_task_that_makes_a_file_is_shown_the_rules_for_such_files() {
        let shown = |task: &str| ids(&inject(Some(task), &[])).contains(&"strict-types");
        assert!(shown(
            "Create src/Reactant/Services/CounterRecalculator.php that rebuilds counters."
        ));
        // Editing an existing file, or making another kind of file.
        assert!(!shown(
            "Rebuild the counters in src/Reactant/Services/CounterRecalculator.php."
        ));
        assert!(!shown(
            "Create src/Reactant/Services/counter.ts that rebuilds counters."
        ));
    }

    #[test]
    fn the_block_prints_the_rule_text_and_matching_table_rows() {
        let s = inject(
            Some("I edited the grammar in css.ungram, what do I regenerate?"),
            &[],
        );
        assert_eq!(ids(&s).first().copied(), Some("snapshots"), "{}", s.block);
        assert!(
            s.block
                .contains("| Grammar `.ungram` | `just gen-grammar` |"),
            "{}",
            s.block
        );
        // The table's header comes with the row.
        assert!(
            s.block.contains("| Changed source | Command |"),
            "{}",
            s.block
        );
        let s = inject(
            Some("bump every crate in the lockfile to its latest version"),
            &[],
        );
        assert!(s.block.contains("`cargo update --precise`"), "{}", s.block);
    }

    #[test]
    fn session_start_shows_the_always_on_index() {
        let s = inject(None, &[]);
        assert_eq!(ids(&s), ["lockfile"]);
        assert!(s.block.contains("Always-on rules (1 of 1"), "{}", s.block);
        assert!(s.block.contains("`cargo update --precise`"), "{}", s.block);
        // With a path, it is a task like any other.
        let s = inject(None, &["src/unrelated.rs".to_owned()]);
        assert!(!s.block.contains("Always-on"), "{}", s.block);
    }

    /// The summary made at import: the detail flattened, cut with `…`.
    fn derived(detail: &str, chars: usize) -> String {
        let flat = excerpt::flatten(detail);
        let cut: String = flat.chars().take(chars).collect();
        format!("{}…", cut.trim_end())
    }

    /// (memory, task words with weights, room, texts printed, texts not)
    type Case<'a> = (
        Memory,
        Vec<(String, f64)>,
        usize,
        Vec<&'a str>,
        Vec<&'a str>,
    );

    #[test]
    fn a_long_detail_prints_the_units_that_hold_the_task_words() {
        let checks = "- **Checks:**\n  \
             - **Unit:** `make test` runs the unit tests in a few seconds.\n  \
             - **Browser:** `make test-browser` drives a headless browser (slow, needs\n    \
               Chrome installed); run it only when you touch the UI.\n  \
             - **Fuzz:** `make fuzz` runs the fuzzers for ten minutes, on every\n    \
               target, with the corpus stored under `fuzz/corpus`.\n  \
             - **Bench:** `make bench` compares against the stored baseline; it is\n    \
               noisy on laptops, so run it twice and compare the medians.\n\
             - **Release check:** `make release-check` (slowest; builds every target and runs\n  \
               every suite. Run it once, at the very end of a task, never between edits. If it\n  \
               fails, rerun only the suite that failed, e.g. `make test`, to iterate.)\n\
             - **Formatting:** `make fmt`";
        let policy = "Section: Contributions\n\nAll changes must:\n\
             - be small and reviewable, as a reviewer reads every line and a large change \
             hides its mistakes among the ones that are only moved around\n\
             - fix the reported bug and nothing more: make the narrowest change that resolves \
             the reproduced behavior, often one line plus one regression test. Extend a fix to \
             sibling modules only after reproducing the defect there; a hunch that others are \
             affected is not enough, and a verified one can be filed as an issue with enough \
             context for someone else to pick it up. Do not rewrite a shared helper to fix one \
             caller unless the narrow fix is unavailable\n\
             - keep the public API stable, i.e. no renamed or removed items without a \
             deprecation period of one release";
        let prose = "Release notes are written by hand. Every entry names the change as a user \
             sees it, not the code that changed. Entries are grouped by crate and sorted by \
             impact, the breaking ones first under their own heading. A change with no user \
             visible effect gets no entry. Link the pull request at the end of each entry, \
             and credit outside contributors by their handle. The release manager edits the \
             list before tagging, so keep each entry to one line.";
        // (memory, task words with weights, room, texts printed, texts not)
        let w = |ws: &[(&str, f64)]| -> Vec<(String, f64)> {
            ws.iter().map(|(t, w)| (terms::stem(t), *w)).collect()
        };
        let cases: Vec<Case<'_>> = vec![
            // A nested item is a unit of its own, under its parent's line; a
            // long item is cut into sentences, `e.g.` and all kept whole.
            (
                memory("checks", "Testing", &derived(checks, 200), checks),
                w(&[("release", 2.0), ("edits", 1.5), ("browser", 1.0)]),
                BODY_TOKENS,
                vec![
                    "Run it once, at the very end of a task, never between edits.",
                    "- **Checks:**\n  - **Browser:** `make test-browser`",
                    "e.g. `make test`, to iterate.)",
                ],
                vec!["make fuzz", "make bench", "make fmt"],
            ),
            // The rule is a sentence deep in a long item: it is printed, the
            // list's short lead-in above it, the summary (the start of the
            // detail) not.
            (
                memory(
                    "policy",
                    "All changes must be small",
                    &derived(policy, 240),
                    policy,
                ),
                w(&[("sibling", 2.5), ("helper", 2.5)]),
                90,
                vec![
                    "All changes must:\n- …Extend a fix to sibling modules only after reproducing the defect there;",
                    "Do not rewrite a shared helper to fix one caller unless the narrow fix is unavailable",
                ],
                vec![
                    "be small and reviewable",
                    "fix the reported bug",
                    "deprecation period",
                ],
            ),
            // A rare word outweighs a common one when only one fits.
            (
                memory("notes", "Release notes", &derived(prose, 200), prose),
                w(&[("hand", 0.2), ("handle", 3.0)]),
                25,
                vec![
                    "…Link the pull request at the end of each entry, and credit outside contributors by their handle.",
                ],
                vec!["written by hand"],
            ),
            // No unit holds a task word and the detail does not fit: the
            // summary stands in.
            (
                memory("notes", "Release notes", &derived(prose, 200), prose),
                w(&[("benchmark", 2.0)]),
                60,
                vec!["Release notes are written by hand. Every entry names"],
                vec!["credit outside"],
            ),
            // A summary of its own comes first, then what holds the words.
            (
                memory(
                    "own",
                    "Release notes",
                    "Write release notes for users, not for reviewers.",
                    prose,
                ),
                w(&[("handle", 3.0)]),
                60,
                vec![
                    "Write release notes for users, not for reviewers.\n",
                    "credit outside contributors by their handle.",
                ],
                vec!["Entries are grouped by crate"],
            ),
        ];
        for (m, matched, room, want, not) in &cases {
            let e = entry(m, Layer::Summary, matched, *room);
            let body = e.split_once('\n').unwrap().1.split_once('\n').unwrap().1;
            for text in want {
                assert!(e.contains(text), "{}: no {text:?} in\n{e}", m.id);
            }
            for text in not {
                assert!(!e.contains(text), "{}: {text:?} in\n{e}", m.id);
            }
            assert!(
                tokens(body) <= room + 2,
                "{}: {} tokens\n{e}",
                m.id,
                tokens(body)
            );
        }
        // A detail that fits is printed once, without the summary cut from
        // its start.
        let m = memory("fits", "Release notes", &derived(prose, 200), prose);
        let e = entry(&m, Layer::Summary, &w(&[("handle", 3.0)]), 320);
        assert_eq!(e.matches("written by hand").count(), 1, "{e}");
        assert!(e.contains("credit outside contributors"), "{e}");
        // A summary that is the list flattened: the list prints as a list.
        let list =
            "1. Make the change in the target repo\n1. Create a git commit\n1. Run `e patches`";
        let m = memory("steps", "Creating patches", &excerpt::flatten(list), list);
        let e = entry(&m, Layer::Summary, &w(&[("patch", 1.0)]), BODY_TOKENS);
        assert!(e.contains(list), "{e}");
    }
}
