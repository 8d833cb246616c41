//! The reviewer against a labelled corpus (`tests/fixtures/review-corpus/`):
//! per-class accuracy, no unsafe outcome, at least 90 % right overall.
//!
//! A case is right when the decision matches and, for merge, supersede and
//! reject, the first target is the labelled stored memory (and the relation,
//! when the case names one). An outcome is *unsafe* when the reviewer merges or
//! supersedes while the truth is a distinct memory (the expected decision is
//! accept or reject, or the memory it folds into or replaces is not the
//! labelled one), or when it merges a replacement into what it replaces (the
//! expected decision is supersede): folding "use uv" into "use pip-tools", or
//! "1 %" into "10 %", makes a memory that contradicts itself.
//!
//! Replacements (cases whose truth is `supersede`) are also held to at least
//! 80 % per class, in the whole corpus and in each held-out file, and none
//! may be one that safe approval would take.
//!
//! The table is printed per class and per corpus file, and per class for each
//! held-out file (`blind-round-*.yaml`), which shows how the rules generalise;
//! `REVIEW_CORPUS_ALL=1` prints every outcome, not only the wrong ones.

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

use brain_core::model::{Memory, MemoryId, MemoryType, Provenance, Source, Status};
use brain_core::review::{ReviewOutcome, Reviewer};
use jiff::Timestamp;
use serde::Deserialize;

use crate::workspace;

const MIN_CASES: usize = 150;
const MIN_ACCURACY: f64 = 0.90;
const STORED_CAPTURED: &str = "2025-06-01";
const CANDIDATE_CAPTURED: &str = "2026-02-01";

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct CorpusFile {
    cases: Vec<Case>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Case {
    name: String,
    class: String,
    expect: String,
    #[serde(default)]
    relation: Option<String>,
    #[serde(default)]
    target: Option<usize>,
    stored: Vec<Record>,
    candidate: Record,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Record {
    #[serde(rename = "type")]
    kind: MemoryType,
    #[serde(default)]
    status: Option<Status>,
    title: String,
    summary: String,
    #[serde(default)]
    detail: String,
    #[serde(default)]
    paths: Vec<String>,
    #[serde(default)]
    modules: Vec<String>,
    #[serde(default)]
    tags: Vec<String>,
    #[serde(default)]
    captured: Option<String>,
    /// Indexes of stored memories named in the candidate's `lineage.supersedes`.
    #[serde(default)]
    supersedes: Vec<usize>,
}

const DECISIONS: &[&str] = &["accept", "merge", "supersede", "reject"];
const RELATIONS: &[&str] = &[
    "novel",
    "duplicate",
    "additive_update",
    "full_replacement",
    "possible_split",
    "ambiguous_overlap",
    "no_durable_value",
];

/// The least accuracy on the replacements of every class (the cases whose
/// truth is `supersede`: replacements, value changes, moved files, the
/// replacements among multi-target cases), in the whole corpus and in each
/// held-out file.
const MIN_REPLACEMENT_ACCURACY: f64 = 0.80;

fn corpus_dir() -> PathBuf {
    workspace().join("tests/fixtures/review-corpus")
}

/// Every case of every corpus file, with the file it came from.
fn load_corpus() -> Vec<(String, Case)> {
    crate::yaml_files(&corpus_dir(), |file, text| {
        let parsed: CorpusFile = serde_saphyr::from_str(text)
            .unwrap_or_else(|e| panic!("{file}: not a corpus file: {e}"));
        parsed.cases
    })
}

fn timestamp(date: Option<&str>, default: &str) -> Timestamp {
    let date = date.unwrap_or(default);
    let text = if date.contains('T') {
        date.to_owned()
    } else {
        format!("{date}T00:00:00Z")
    };
    text.parse()
        .unwrap_or_else(|e| panic!("bad captured date {date:?}: {e}"))
}

fn memory(id: MemoryId, r: &Record, default_status: Status, default_date: &str) -> Memory {
    let mut m = Memory::new(
        id,
        r.kind,
        r.status.unwrap_or(default_status),
        r.title.clone(),
        r.summary.clone(),
        Provenance {
            source: Source::Manual,
            captured_at: timestamp(r.captured.as_deref(), default_date),
            proposed_by: None,
            evidence: Vec::new(),
        },
    );
    m.detail.clone_from(&r.detail);
    m.tags.clone_from(&r.tags);
    m.scope.paths.clone_from(&r.paths);
    m.scope.modules.clone_from(&r.modules);
    m.normalize();
    m
}

fn stored_id(case: &str, i: usize) -> MemoryId {
    MemoryId::new(format!("{case}-s{i}")).unwrap()
}

/// Checks the shape of a case; returns the problems found.
fn problems(case: &Case) -> Vec<String> {
    let mut out = Vec::new();
    if MemoryId::new(format!("{}-cand", case.name)).is_err() {
        out.push("name must be lowercase kebab-case (it becomes an id)".to_owned());
    }
    if !(2..=6).contains(&case.stored.len()) {
        out.push(format!(
            "{} stored memories, want 2 to 6",
            case.stored.len()
        ));
    }
    if !DECISIONS.contains(&case.expect.as_str()) {
        out.push(format!("unknown decision `{}`", case.expect));
    }
    if let Some(r) = &case.relation
        && !RELATIONS.contains(&r.as_str())
    {
        out.push(format!("unknown relation `{r}`"));
    }
    match (case.expect.as_str(), case.target) {
        // A reject without a target: content with no durable value.
        ("merge" | "supersede", None) => {
            out.push(format!("`{}` needs a target", case.expect));
        }
        (_, Some(t)) if t >= case.stored.len() => out.push(format!("target {t} out of range")),
        _ => {}
    }
    if case.expect == "reject"
        && let Some(t) = case.target
        && case.stored.get(t).and_then(|r| r.status) != Some(Status::Dismissed)
    {
        out.push("a rejected repeat must target a dismissed memory".to_owned());
    }
    for i in &case.candidate.supersedes {
        if *i >= case.stored.len() {
            out.push(format!("supersedes {i} out of range"));
        }
    }
    for r in case.stored.iter().chain([&case.candidate]) {
        if r.title.trim().is_empty() || r.summary.trim().is_empty() {
            out.push("empty title or summary".to_owned());
        }
    }
    out
}

fn word<T: serde::Serialize>(value: T) -> String {
    serde_json::to_value(value)
        .unwrap()
        .as_str()
        .unwrap()
        .to_owned()
}

struct Verdict {
    file: String,
    name: String,
    class: String,
    expected: String,
    expected_target: Option<MemoryId>,
    expected_relation: Option<String>,
    outcome: ReviewOutcome,
    /// Whether safe approval would take the candidate.
    safe: bool,
}

impl Verdict {
    fn decision(&self) -> String {
        word(self.outcome.decision)
    }

    fn relation(&self) -> String {
        word(self.outcome.relation)
    }

    fn right(&self) -> bool {
        self.decision() == self.expected
            && self
                .expected_relation
                .as_ref()
                .is_none_or(|r| *r == self.relation())
            && (self.expected == "accept"
                || self.outcome.targets.first() == self.expected_target.as_ref())
    }

    /// A replacement that safe approval would take on its own: it would
    /// leave two contradictory active memories.
    fn replacement_marked_safe(&self) -> bool {
        self.expected == "supersede" && self.safe
    }

    /// Merges or supersedes although the truth is a distinct memory, or
    /// merges a replacement into the memory it replaces.
    fn unsafe_outcome(&self) -> bool {
        let decision = self.decision();
        let folds = matches!(decision.as_str(), "merge" | "supersede");
        let distinct = folds
            && (matches!(self.expected.as_str(), "accept" | "reject")
                || self.outcome.targets.first() != self.expected_target.as_ref());
        let merges_replacement = decision == "merge" && self.expected == "supersede";
        distinct || merges_replacement
    }

    fn describe(&self) -> String {
        let line = |e: &brain_core::review::Evidence| {
            format!(
                "{} scope={} title={:.2} summary={:.2} detail={:.2} combined={:.2} \
                 replacement={:?} additive={:?} adds={} changed={:?} distinct={:?}",
                e.target,
                word(e.scope),
                e.title,
                e.summary,
                e.detail,
                e.combined,
                e.replacement_wording,
                e.additive_wording,
                e.adds_information,
                e.changed_value,
                e.distinct_subject
            )
        };
        let e = self.outcome.evidence.first();
        // The labelled target's evidence too, when it is not the closest.
        let labelled = self
            .outcome
            .evidence
            .iter()
            .skip(1)
            .find(|e| Some(&e.target) == self.expected_target.as_ref())
            .map_or(String::new(), |e| format!("\n    labelled: {}", line(e)));
        format!(
            "  {} ({}, {}):\n    expected {}{}{}, got {} ({}) -> {:?}\n    reason: {}\n    closest: {}{labelled}",
            self.name,
            self.class,
            self.file,
            self.expected,
            self.expected_relation
                .as_ref()
                .map_or(String::new(), |r| format!(" ({r})")),
            self.expected_target
                .as_ref()
                .map_or(String::new(), |t| format!(" -> {t}")),
            self.decision(),
            self.relation(),
            self.outcome
                .targets
                .iter()
                .map(MemoryId::as_str)
                .collect::<Vec<_>>(),
            self.outcome.reason,
            e.map_or("none".to_owned(), line),
        )
    }
}

fn review(file: String, case: &Case) -> Verdict {
    let stored: Vec<Memory> = case
        .stored
        .iter()
        .enumerate()
        .map(|(i, r)| memory(stored_id(&case.name, i), r, Status::Active, STORED_CAPTURED))
        .collect();
    let mut candidate = memory(
        MemoryId::new(format!("{}-cand", case.name)).unwrap(),
        &case.candidate,
        Status::Candidate,
        CANDIDATE_CAPTURED,
    );
    candidate.lineage.supersedes = case
        .candidate
        .supersedes
        .iter()
        .map(|i| stored_id(&case.name, *i))
        .collect();
    let outcome = Reviewer::new(stored.iter()).review(&candidate);
    let safe = brain_core::approve::unsafe_reason(&candidate, &outcome).is_none();
    Verdict {
        safe,
        file,
        name: case.name.clone(),
        class: case.class.clone(),
        expected: case.expect.clone(),
        expected_target: case.target.map(|t| stored_id(&case.name, t)),
        expected_relation: case.relation.clone(),
        outcome,
    }
}

#[allow(clippy::cast_precision_loss, reason = "case counts are small")]
fn percent(right: usize, total: usize) -> f64 {
    100.0 * right as f64 / total as f64
}

/// Prints cases, right, unsafe and accuracy per `key`, and the total.
#[allow(clippy::print_stdout, reason = "the table is the test's report")]
fn print_table<'v>(
    heading: &str,
    verdicts: impl Iterator<Item = &'v Verdict>,
    key: impl Fn(&'v Verdict) -> &'v str,
) {
    let mut table: BTreeMap<&str, (usize, usize, usize)> = BTreeMap::new();
    let mut all = (0, 0, 0);
    for v in verdicts {
        for row in [table.entry(key(v)).or_default(), &mut all] {
            row.0 += 1;
            row.1 += usize::from(v.right());
            row.2 += usize::from(v.unsafe_outcome());
        }
    }
    println!(
        "{heading:<24} {:>6} {:>6} {:>7} {:>9}",
        "cases", "right", "unsafe", "accuracy"
    );
    for (name, (n, ok, bad)) in table.iter().chain([(&"total", &all)]) {
        println!(
            "{name:<24} {n:>6} {ok:>6} {bad:>7} {:>8.1}%",
            percent(*ok, *n)
        );
    }
}

#[test]
fn reviewer_accuracy_on_the_labelled_corpus() {
    let corpus = load_corpus();

    // The corpus itself: well-formed, unique names, large enough.
    let mut names = BTreeSet::new();
    let mut bad = Vec::new();
    for (file, case) in &corpus {
        if !names.insert(case.name.as_str()) {
            bad.push(format!("{file}: {}: duplicate name", case.name));
        }
        bad.extend(
            problems(case)
                .into_iter()
                .map(|p| format!("{file}: {}: {p}", case.name)),
        );
    }
    assert!(bad.is_empty(), "malformed corpus:\n{}", bad.join("\n"));

    let verdicts: Vec<Verdict> = corpus
        .into_iter()
        .map(|(file, case)| review(file, &case))
        .collect();

    let total = verdicts.len();
    let right = verdicts.iter().filter(|v| v.right()).count();
    let accuracy = percent(right, total);
    println!("\nreview corpus: {total} cases");
    print_table("class", verdicts.iter(), |v| v.class.as_str());
    print_table("file", verdicts.iter(), |v| v.file.as_str());
    // Held-out files, written without reading the reviewer, on their own.
    let files: BTreeSet<&str> = verdicts.iter().map(|v| v.file.as_str()).collect();
    for file in files.into_iter().filter(|f| f.starts_with("blind-")) {
        println!("\n{file}:");
        print_table("class", verdicts.iter().filter(|v| v.file == file), |v| {
            v.class.as_str()
        });
    }

    // REVIEW_CORPUS_ALL=1 prints every outcome, not only the wrong ones.
    if std::env::var_os("REVIEW_CORPUS_ALL").is_some() {
        println!("\nall cases:");
        for v in &verdicts {
            let mark = if v.right() { "ok" } else { "WRONG" };
            println!("{mark} {}", v.describe());
        }
    }
    let wrong: Vec<&Verdict> = verdicts.iter().filter(|v| !v.right()).collect();
    if !wrong.is_empty() {
        println!("\nwrong cases ({}):", wrong.len());
        for v in &wrong {
            let tag = if v.unsafe_outcome() { " [UNSAFE]" } else { "" };
            println!("{}{tag}", v.describe());
        }
    }

    // Replacements per class, whole corpus and each held-out file.
    let mut weak = Vec::new();
    for file in std::iter::once(None).chain(
        verdicts
            .iter()
            .map(|v| v.file.as_str())
            .filter(|f| f.starts_with("blind-"))
            .collect::<BTreeSet<_>>()
            .into_iter()
            .map(Some),
    ) {
        let mut per_class: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
        for v in verdicts
            .iter()
            .filter(|v| v.expected == "supersede" && file.is_none_or(|f| v.file == f))
        {
            let row = per_class.entry(v.class.as_str()).or_default();
            row.0 += 1;
            row.1 += usize::from(v.right());
        }
        for (class, (n, ok)) in per_class {
            if percent(ok, n) < MIN_REPLACEMENT_ACCURACY * 100.0 {
                weak.push(format!(
                    "{}: {class}: {ok}/{n} replacements right",
                    file.unwrap_or("corpus")
                ));
            }
        }
    }
    assert!(
        weak.is_empty(),
        "replacement classes below {:.0}%:\n{}",
        MIN_REPLACEMENT_ACCURACY * 100.0,
        weak.join("\n")
    );
    assert!(
        total >= MIN_CASES,
        "the corpus has {total} cases, want at least {MIN_CASES}"
    );
    let safe_replacements: Vec<String> = verdicts
        .iter()
        .filter(|v| v.replacement_marked_safe())
        .map(Verdict::describe)
        .collect();
    println!(
        "\nreplacements that safe approval would take: {}",
        safe_replacements.len()
    );
    let unsafe_cases: Vec<String> = verdicts
        .iter()
        .filter(|v| v.unsafe_outcome())
        .map(Verdict::describe)
        .collect();
    assert!(
        unsafe_cases.is_empty(),
        "{} unsafe outcomes (merge or supersede of a distinct memory, or merge of a replacement):\n{}",
        unsafe_cases.len(),
        unsafe_cases.join("\n")
    );
    assert!(
        safe_replacements.is_empty(),
        "{} replacements marked safe (safe approval would leave two contradictory memories):\n{}",
        safe_replacements.len(),
        safe_replacements.join("\n")
    );
    assert!(
        accuracy >= MIN_ACCURACY * 100.0,
        "accuracy {accuracy:.1}% is below {:.0}%:\n{}",
        MIN_ACCURACY * 100.0,
        wrong
            .iter()
            .map(|v| v.describe())
            .collect::<Vec<_>>()
            .join("\n")
    );
}
