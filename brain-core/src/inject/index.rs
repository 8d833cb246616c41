//! The retrieval index: what ranking reads of each memory, and the postings
//! of every stemmed term, so a query touches only its own terms.
//!
//! [`Index::build`] makes it from parsed memories (pure). The store keeps a
//! copy in `.brain/runtime/cache/index.bin`, validated against the record
//! files like the catalog cache; a warm `inject` or `search` then reads the
//! documents and the postings of the query's terms, and parses in full only
//! the few memories it shows.
//!
//! Term frequencies are weighted by field (title ×3, tags ×2, summary ×2,
//! scope ×1.5, detail ×1) and a document's length is the weighted count of
//! its words, exactly what BM25F in [`super::rank`] needs.

use std::collections::HashMap;

use jiff::Timestamp;
use rayon::prelude::*;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::terms::{self, for_each_term};
use crate::embed::{ContentHash, content_hash, memory_text};
use crate::model::{Importance, Memory, MemoryId, MemoryType, Risk, Routing, Status, Validity};

/// Field weights of BM25F.
pub(crate) const TITLE: f32 = 3.0;
pub(crate) const TAGS: f32 = 2.0;
pub(crate) const SUMMARY: f32 = 2.0;
pub(crate) const SCOPE: f32 = 1.5;
pub(crate) const DETAIL: f32 = 1.0;

/// One memory as ranking sees it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Doc {
    /// Id.
    pub id: MemoryId,
    /// Path relative to the repository root.
    pub path: String,
    /// Type.
    pub kind: MemoryType,
    /// Status.
    pub status: Status,
    /// Title.
    pub title: String,
    /// Tags.
    pub tags: Vec<String>,
    /// Scope globs.
    pub scope_paths: Vec<String>,
    /// Scope modules.
    pub modules: Vec<String>,
    /// Files and file patterns its text names (`eng/Testing.targets`,
    /// `*.Designer.cs`), tracked or not: a task on such a file is about it.
    /// Directories are left out: overviews name many.
    pub named_paths: Vec<String>,
    /// The extensions of the files it is a rule for, when it governs whole
    /// files ("All PHP files use `declare(strict_types=1)`": `php`; "All
    /// files include the copyright header block": `*`): a task that makes
    /// such a file is about it. Empty for any other memory.
    pub file_rules: Vec<String>,
    /// Importance.
    pub importance: Importance,
    /// Risk.
    pub risk: Risk,
    /// Validity window.
    pub validity: Validity,
    /// Whether its review is pending.
    pub pending_review: bool,
    /// The memory that replaced it.
    pub superseded_by: Option<MemoryId>,
    /// The memories it replaced.
    pub supersedes: Vec<MemoryId>,
    /// When it was last observed true (or captured), for freshness.
    pub seen: Timestamp,
    /// The terms of its title and tags, sorted, unique, joined by spaces:
    /// what the memory is about, as opposed to words its text mentions.
    pub topic: String,
    /// Weighted word count over every field (BM25F length).
    pub len: f32,
    /// Content hash of the text embedded for it ([`memory_text`]).
    pub text_hash: ContentHash,
    /// Its routing metadata (skills and triggers).
    pub routing: Routing,
}

impl Doc {
    /// Builds the document of `m`, stored at `path`, and its weighted term
    /// frequencies.
    pub fn from_memory(m: &Memory, path: &str) -> (Doc, HashMap<String, f32>) {
        let mut tf: HashMap<String, f32> = HashMap::new();
        let mut len = 0.0f32;
        let mut topic: Vec<String> = Vec::new();
        for text in std::iter::once(&m.title).chain(&m.tags) {
            for_each_term(text, |t| topic.push(t.to_owned()));
        }
        // A name it writes as code (`./gradlew spotlessApply`) is something
        // it is about, not a word it uses in passing.
        for text in [&m.summary, &m.detail] {
            for span in code_spans(text) {
                for_each_term(span, |t| topic.push(t.to_owned()));
            }
        }
        topic.sort_unstable();
        topic.dedup();
        for (text, weight) in fields(m) {
            let text = terms::without_url_paths(text);
            len += weight * count_words(&text);
            for_each_term(&text, |t| {
                if let Some(v) = tf.get_mut(t) {
                    *v += weight;
                } else {
                    tf.insert(t.to_owned(), weight);
                }
            });
        }
        let doc = Doc {
            id: m.id.clone(),
            path: path.to_owned(),
            kind: m.kind,
            status: m.status,
            title: m.title.clone(),
            tags: m.tags.clone(),
            scope_paths: m.scope.paths.clone(),
            modules: m.scope.modules.clone(),
            named_paths: named_files(m),
            file_rules: file_rules(&format!("{}\n{}", m.title, m.summary)),
            importance: m.importance,
            risk: m.risk,
            validity: m.validity.clone(),
            pending_review: m.review.state == Some(crate::model::ReviewState::Pending),
            superseded_by: m.lineage.superseded_by.clone(),
            supersedes: m.lineage.supersedes.clone(),
            seen: m.validity.observed_at.unwrap_or(m.provenance.captured_at),
            topic: topic.join(" "),
            len,
            text_hash: content_hash(&memory_text(m)),
            routing: m.routing.clone(),
        };
        (doc, tf)
    }

    /// The memory as far as the document knows it: id, type, status, title,
    /// importance, risk, validity, lineage, review state and routing; the
    /// texts are empty and provenance holds only the time it was last seen.
    /// Enough for routing, which reads nothing else, without parsing the file.
    pub fn light_memory(&self) -> Memory {
        let mut m = Memory::new(
            self.id.clone(),
            self.kind,
            self.status,
            self.title.clone(),
            String::new(),
            crate::model::Provenance {
                source: crate::model::Source::Manual,
                captured_at: self.seen,
                proposed_by: None,
                evidence: Vec::new(),
            },
        );
        m.importance = self.importance;
        m.risk = self.risk;
        m.tags.clone_from(&self.tags);
        m.scope.paths.clone_from(&self.scope_paths);
        m.scope.modules.clone_from(&self.modules);
        m.validity = self.validity.clone();
        m.lineage.superseded_by.clone_from(&self.superseded_by);
        m.lineage.supersedes.clone_from(&self.supersedes);
        if self.pending_review {
            m.review.state = Some(crate::model::ReviewState::Pending);
        }
        m.routing = self.routing.clone();
        m
    }

    /// Whether `term` is a term of its title or tags.
    pub fn on_topic(&self, term: &str) -> bool {
        self.topic.split(' ').any(|t| t == term)
    }

    /// Whether it names any skill to route.
    pub fn routes(&self) -> bool {
        let r = &self.routing;
        !(r.required_skills.is_empty()
            && r.recommended_skills.is_empty()
            && r.suppressed_skills.is_empty())
    }

    /// The one eligibility rule ([`Memory::eligible`]), on the document.
    pub fn eligible(&self, now: Timestamp) -> bool {
        crate::model::eligible(
            self.status,
            self.superseded_by.is_some(),
            self.pending_review,
            &self.validity,
            now,
        )
    }

    /// Whether ranking considers it: eligible, or replaced (its relevance
    /// passes to its successor).
    pub fn in_pool(&self, now: Timestamp) -> bool {
        self.eligible(now) || self.superseded_by.is_some()
    }
}

/// One occurrence list entry: a document and its weighted frequency.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Posting {
    /// Position of the document in [`Index::docs`].
    pub doc: u32,
    /// Weighted term frequency.
    pub tf: f32,
}

/// Documents and postings. `postings` holds every term of an index built in
/// memory, or only the terms a query asked for when read from disk.
#[derive(Clone, Debug, Default)]
pub struct Index {
    /// Documents, in store path order.
    pub docs: Vec<Doc>,
    /// Postings by stemmed term, each sorted by document.
    pub postings: HashMap<String, Vec<Posting>>,
}

impl Index {
    /// Builds the index of `memories` (with their relative paths).
    pub fn build(memories: &[(&Memory, &str)]) -> Index {
        let built: Vec<(Doc, HashMap<String, f32>)> = memories
            .par_iter()
            .map(|(m, path)| Doc::from_memory(m, path))
            .collect();
        let mut docs = Vec::with_capacity(built.len());
        let mut postings: HashMap<String, Vec<Posting>> = HashMap::new();
        for (i, (doc, tf)) in built.into_iter().enumerate() {
            let doc_no = u32::try_from(i).unwrap_or(u32::MAX);
            #[allow(
                clippy::iter_over_hash_type,
                reason = "each list grows in document order whatever the term order"
            )]
            for (term, tf) in tf {
                postings
                    .entry(term)
                    .or_default()
                    .push(Posting { doc: doc_no, tf });
            }
            docs.push(doc);
        }
        Index { docs, postings }
    }

    /// Builds the index of memories held in memory, with no paths.
    pub fn of_memories(memories: &[&Memory]) -> Index {
        let pairs: Vec<(&Memory, &str)> = memories.iter().map(|m| (*m, "")).collect();
        Index::build(&pairs)
    }

    /// Position of the document with id `id`.
    pub fn position(&self, id: &MemoryId) -> Option<usize> {
        self.docs.iter().position(|d| &d.id == id)
    }
}

/// The texts BM25F reads, with their weights.
fn fields(m: &Memory) -> Vec<(&str, f32)> {
    let mut out = Vec::with_capacity(4 + m.tags.len() + m.scope.paths.len());
    out.push((m.title.as_str(), TITLE));
    out.extend(m.tags.iter().map(|t| (t.as_str(), TAGS)));
    out.push((m.summary.as_str(), SUMMARY));
    out.extend(m.scope.paths.iter().map(|p| (p.as_str(), SCOPE)));
    out.extend(m.scope.modules.iter().map(|p| (p.as_str(), SCOPE)));
    out.push((m.detail.as_str(), DETAIL));
    out
}

/// Runs of letters and digits.
#[allow(clippy::cast_precision_loss, reason = "word counts are small")]
fn count_words(text: &str) -> f32 {
    let mut n = 0u32;
    let mut in_word = false;
    for c in text.chars() {
        let w = c.is_alphanumeric();
        if w && !in_word {
            n += 1;
        }
        in_word = w;
    }
    n as f32
}

/// The inline code spans of a markdown text: what sits between single
/// backticks on one line.
fn code_spans(text: &str) -> impl Iterator<Item = &str> {
    text.lines().flat_map(|line| {
        let parts: Vec<&str> = line.split('`').collect();
        let closed = parts.len().saturating_sub(1);
        parts
            .into_iter()
            .enumerate()
            .filter(move |(i, part)| i % 2 == 1 && *i < closed && !part.trim().is_empty())
            .map(|(_, part)| part)
    })
}

/// The files and file patterns the texts of `m` name
/// ([`Doc::named_paths`]).
fn named_files(m: &Memory) -> Vec<String> {
    crate::extract::complete::named_paths(&format!("{}\n{}\n{}", m.title, m.summary, m.detail), &[])
        .into_iter()
        .filter(|p| !p.ends_with("/**"))
        .take(NAMED_PATHS)
        .collect()
}

/// Words before "file(s)" that make a phrase about whole files ("all PHP
/// files", "every non-test file", "new `.go` files").
const WHOLE_FILES: &[&str] = &["all", "every", "each", "new"];

/// The files a rule governs whole ([`Doc::file_rules`]), from its title and
/// summary: the extensions (`.ts`) and languages (PHP) named between "all" /
/// "every" / "each" / "new" and "file(s)", or in the parentheses right
/// after; `*` when none is named. Test files, generated files and files a
/// clause or a place picks out ("all files that import …", "new files in
/// `vendor/`") are not whole files.
fn file_rules(text: &str) -> Vec<String> {
    let tokens: Vec<&str> = text.split_whitespace().collect();
    let word = |t: &str| {
        t.trim_matches(|c: char| !(c.is_alphanumeric() || matches!(c, '#' | '+' | '-')))
            .to_lowercase()
    };
    let mut out: Vec<String> = Vec::new();
    for (i, t) in tokens.iter().enumerate() {
        let w = word(t);
        if w != "file" && w != "files" {
            continue;
        }
        let Some(start) =
            (i.saturating_sub(4)..i).find(|&j| WHOLE_FILES.contains(&word(tokens[j]).as_str()))
        else {
            continue;
        };
        if tokens.get(i + 1).is_some_and(|n| {
            let n = word(n);
            matches!(n.as_str(), "that" | "which" | "where" | "whose")
                || terms::PLACE_WORDS.contains(&n.as_str())
        }) {
            continue;
        }
        let mut named: Vec<&str> = tokens[start + 1..i].to_vec();
        // "(`.ts`, `.tsx`, `.js`)" right after.
        if tokens.get(i + 1).is_some_and(|n| n.starts_with('(')) {
            for n in &tokens[i + 1..] {
                named.push(n);
                if n.contains(')') {
                    break;
                }
            }
        }
        let qualifiers: Vec<String> = named.iter().map(|n| word(n)).collect();
        if qualifiers.iter().any(|q| {
            matches!(
                q.as_str(),
                "test" | "tests" | "generated" | "changed" | "modified" | "other"
            )
        }) {
            continue;
        }
        let mut exts: Vec<String> = Vec::new();
        for (raw, q) in named.iter().zip(&qualifiers) {
            let bare = raw.trim_matches(|c: char| matches!(c, '`' | '(' | ')' | ',' | '*'));
            if let Some(ext) = bare.strip_prefix('.')
                && !ext.is_empty()
                && ext.chars().all(|c| c.is_ascii_alphanumeric())
            {
                exts.push(ext.to_lowercase());
            }
            exts.extend(
                terms::language_extensions(q)
                    .iter()
                    .map(|e| (*e).to_owned()),
            );
        }
        if exts.is_empty() {
            exts.push("*".to_owned());
        }
        for e in exts {
            if !out.contains(&e) {
                out.push(e);
            }
        }
    }
    out
}

/// Most files a memory's text names that ranking compares with the task's.
const NAMED_PATHS: usize = 16;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Provenance, Source};

    fn memory(id: &str, title: &str, summary: &str) -> Memory {
        Memory::new(
            MemoryId::new(id).unwrap(),
            MemoryType::Gotcha,
            Status::Active,
            title,
            summary,
            Provenance {
                source: Source::Manual,
                captured_at: "2026-01-01T00:00:00Z".parse().unwrap(),
                proposed_by: None,
                evidence: Vec::new(),
            },
        )
    }

    #[test]
    fn postings_weigh_fields_and_lengths_count_words() {
        let mut a = memory(
            "ledger-writes",
            "Ledger writes are idempotent",
            "Every ledger write carries a key.",
        );
        a.tags = vec!["ledger".into()];
        a.scope.paths = vec!["src/payments/ledger.ts".into()];
        let b = memory("cache-ttl", "Cache TTL", "Keep it short.");
        let index = Index::of_memories(&[&a, &b]);
        let ledger = &index.postings["ledger"];
        // title 3 + tag 2 + summary 2 + scope 1.5
        assert_eq!(ledger, &[Posting { doc: 0, tf: 8.5 }]);
        assert_eq!(index.postings["write"], vec![Posting { doc: 0, tf: 5.0 }]);
        assert!(!index.postings.contains_key("rapid"));
        // 4 title words ×3 + 1 tag ×2 + 6 summary words ×2 + 4 scope words ×1.5
        assert!((index.docs[0].len - 32.0).abs() < 1e-6);
        assert_eq!(index.position(&b.id), Some(1));
        assert_eq!(index.docs[1].text_hash, content_hash(&memory_text(&b)));
    }

    #[test]
    fn rules_for_whole_files_name_their_kinds() {
        let cases: &[(&str, &[&str])] = &[
            ("All PHP files use `declare(strict_types=1)`.", &["php"]),
            ("All files include the copyright header block.", &["*"]),
            (
                "Add the current year into the copyright header of new `.go` files",
                &["go"],
            ),
            (
                "**License Headers:** For all new source code files (`.ts`, `.tsx`, `.js`), include the license header.",
                &["ts", "tsx", "js"],
            ),
            (
                "Sorbet types: every non-test file must have `# typed: strict` at the top",
                &["*"],
            ),
            // Files a clause picks out, tests, and files that are not the point.
            ("Update all files that import the old client.", &[]),
            ("Never commit new files to `vendor/`.", &[]),
            ("All test files end in `_test.go`.", &[]),
            ("Run the formatter on changed files before committing.", &[]),
            ("Keep the lock file in sync.", &[]),
        ];
        for (text, want) in cases {
            assert_eq!(file_rules(text), *want, "{text}");
        }
    }

    #[test]
    fn code_spans_are_closed_inline_spans() {
        let cases: &[(&str, &[&str])] = &[
            (
                "Fix it: `./gradlew spotlessApply`",
                &["./gradlew spotlessApply"],
            ),
            ("`a` and `b`, then `c", &["a", "b"]),
            ("no code here", &[]),
            ("`one`\n`two` and an open `tick", &["one", "two"]),
        ];
        for (text, want) in cases {
            assert_eq!(code_spans(text).collect::<Vec<_>>(), *want, "{text}");
        }
    }
}
