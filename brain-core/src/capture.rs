//! Writing extracted drafts: `brain capture`, `extract`, `extract-commit` and
//! rule-file `import` share this path.
//!
//! Each draft becomes a memory, is redacted by the secret firewall, is
//! reviewed against the store (including candidates already queued), and is
//! written as a `candidate` — as `active` only when the workflow's capture
//! mode is `direct` and the reviewer finds it novel and safe. A draft that
//! repeats a dismissed memory is not written. The batch is all-or-nothing:
//! if any write fails, the files this batch wrote are removed again.

use jiff::Timestamp;
use schemars::JsonSchema;
use serde::Serialize;

use crate::approve::unsafe_reason;
use crate::brain::{Brain, Error};
use crate::config::CaptureMode;
use crate::extract::signals::Assessment;
use crate::extract::signals::{self, CaptureDecision, SessionFacts};
use crate::extract::{
    Draft, Extracted, Extraction, RejectReason, Rejected, Stage, TraceEvent, dedupe,
};
use crate::model::{
    DateOrTime, Evidence, Memory, MemoryId, MemoryType, Provenance, Review, ReviewState, Source,
    Status,
};
use crate::review::{Decision, Relation, Reviewer};
use crate::secrets::{self, Redaction};

/// Which extractor produced the drafts.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, JsonSchema)]
pub struct ExtractorUsed {
    /// `local` (the built-in pipeline) or `external`.
    pub kind: String,
    /// Why the external extractor was not used, when one is configured.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fallback_reason: Option<String>,
}

/// A candidate (or active memory) a capture wrote.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
pub struct WrittenMemory {
    /// Its id.
    pub id: MemoryId,
    /// File, relative to the root.
    pub path: String,
    /// Type.
    #[serde(rename = "type")]
    pub kind: MemoryType,
    /// `candidate`, or `active` under a direct capture mode.
    pub status: Status,
    /// Title.
    pub title: String,
    /// Path globs of its scope.
    pub paths: Vec<String>,
    /// Input line of its fragment (0 for external drafts).
    pub line: usize,
    /// Quality score, `0..=100`.
    pub quality: u32,
    /// The reviewer's decision against the store.
    pub decision: Decision,
    /// The reviewer's relation.
    pub relation: Relation,
    /// The memories the decision applies to.
    pub targets: Vec<MemoryId>,
    /// The reviewer's reason.
    pub reason: String,
}

/// What a capture did.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
pub struct CaptureReport {
    /// Nothing was written.
    pub dry_run: bool,
    /// The worthiness verdict (`capture`, `suggest-extract`); absent for
    /// commands that always extract.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub assessment: Option<Assessment>,
    /// Which extractor ran.
    pub extractor: ExtractorUsed,
    /// Memories written (or that would be, with `dry_run`).
    pub written: Vec<WrittenMemory>,
    /// Fragments and drafts that were not written, with reasons.
    pub rejected: Vec<Rejected>,
    /// Drafts already in the store (same id), so not written again.
    pub unchanged: Vec<MemoryId>,
    /// Secrets removed before writing (kind and place, never the value).
    pub redactions: Vec<Redaction>,
    /// Every stage's decisions, with `--explain`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub trace: Vec<TraceEvent>,
}

/// Where drafts came from and how to identify them.
#[derive(Clone, Debug)]
pub struct Origin {
    /// Source recorded in provenance.
    pub source: Source,
    /// Evidence recorded on every memory (commit id, file, session id).
    pub evidence: Vec<Evidence>,
    /// Extra parts of each id's hash. With a `stable_key`, ids depend only on
    /// it and the draft, so writing the same drafts again is a no-op (rule
    /// imports); without, ids also depend on the time and actor (captures).
    pub stable_key: Option<String>,
    /// Write candidates only, whatever the capture mode: the input was read
    /// unattended (an agent transcript, the `post-commit` hook's
    /// `extract-commit --detach`, an agent's MCP capture), so a person
    /// reviews it first.
    pub candidates_only: bool,
}

/// Drafts to write.
#[derive(Clone, Debug)]
pub struct Batch {
    /// The drafts, in input order.
    pub drafts: Vec<Extracted>,
    /// Fragments the pipeline already rejected.
    pub rejected: Vec<Rejected>,
    /// The pipeline's trace.
    pub trace: Vec<TraceEvent>,
}

/// What [`Brain::write_batch`] did.
#[derive(Clone, Debug, Default)]
pub struct BatchOutcome {
    /// Memories written (or that would be).
    pub written: Vec<WrittenMemory>,
    /// Drafts not written, with reasons (the batch's own rejections first).
    pub rejected: Vec<Rejected>,
    /// Drafts whose stable id is already in the store.
    pub unchanged: Vec<MemoryId>,
    /// Secrets removed.
    pub redactions: Vec<Redaction>,
}

/// How long a captured working note stays in force.
pub const WORKING_DAYS: i64 = 7;

impl Brain {
    /// Reviews `batch` against the store and writes what should be written.
    /// `write` false is a dry run: everything is decided, nothing written.
    ///
    /// # Errors
    ///
    /// The lock or a write failed (the batch's files are removed again).
    #[allow(clippy::too_many_lines, reason = "one linear pass over the batch")]
    pub fn write_batch(
        &self,
        batch: Batch,
        origin: &Origin,
        write: bool,
        now: Timestamp,
        actor: Option<&str>,
    ) -> Result<BatchOutcome, Error> {
        let lock = if write {
            Some(self.store().lock()?)
        } else {
            None
        };
        let catalog = self.store().load();
        let reviewer = Reviewer::new(catalog.memories.iter().map(|l| &l.record));
        // Spans of rule files already imported, whatever became of their
        // candidates (merged into another memory, dismissed, superseded).
        let stored: Vec<&Memory> = catalog.memories.iter().map(|l| &l.record).collect();
        let spans = span_holders(&stored);
        let edited = edited_rules(&batch.drafts, &stored, &spans);
        let direct = !origin.candidates_only
            && self.store().config().settings().capture_mode == CaptureMode::Direct;
        let mut rejected = batch.rejected;
        let mut written = Vec::new();
        let mut unchanged = Vec::new();
        let mut redactions = Vec::new();
        let mut created_paths: Vec<String> = Vec::new();
        let captured = now.to_string();
        let actor_str = actor.unwrap_or_default();
        for (index, ex) in batch.drafts.into_iter().enumerate() {
            let d = ex.draft;
            let mut evidence = origin.evidence.clone();
            if let Some(span) = &ex.span {
                evidence.push(Evidence {
                    kind: crate::model::EvidenceKind::Span,
                    value: span.clone(),
                });
            }
            if let Some(section) = &ex.section {
                evidence.push(Evidence {
                    kind: crate::model::EvidenceKind::Section,
                    value: section.clone(),
                });
            }
            let mut m = Memory::new(
                MemoryId::generate("", &[]),
                d.kind,
                Status::Candidate,
                d.title,
                d.summary,
                Provenance {
                    source: origin.source,
                    captured_at: now,
                    proposed_by: actor.map(str::to_owned),
                    evidence,
                },
            );
            m.detail = d.detail;
            if let Some(old) = edited.get(&index) {
                m.lineage.supersedes = vec![old.clone()];
            }
            m.scope.paths = d.paths;
            m.scope.modules = d.modules;
            m.tags = d.tags;
            m.importance = d.importance;
            m.risk = d.risk;
            m.confidence = crate::model::Confidence::new(f64::from(ex.quality.min(100)) / 100.0)
                .unwrap_or_default();
            if m.kind == MemoryType::Working {
                let until = now
                    .checked_add(jiff::SignedDuration::from_hours(24 * WORKING_DAYS))
                    .unwrap_or(now);
                m.validity.expires = Some(DateOrTime::Time(until));
            }
            m.review = Review {
                state: Some(ReviewState::Pending),
                ..Review::default()
            };
            // Drafts come from redacted text, but an external extractor's
            // or a rule file's may not: scan every field, then report every
            // redaction the record holds.
            secrets::redact_memory(&mut m);
            m.normalize();
            let mut found = secrets::redactions_in_memory(&m);
            let body = format!("{}\n{}\n{}", m.title, m.summary, m.detail);
            let index_s = index.to_string();
            m.id = match &origin.stable_key {
                Some(key) => MemoryId::generate(&m.title, &[m.kind.as_str(), key, &body]),
                None => MemoryId::generate(
                    &m.title,
                    &[m.kind.as_str(), &captured, actor_str, &index_s, &body],
                ),
            };
            if origin.stable_key.is_some() && self.store().record_exists(&m.id) {
                unchanged.push(m.id.clone());
                continue;
            }
            if let Some(holder) = ex.span.as_deref().and_then(|s| spans.get(s)) {
                unchanged.push((*holder).clone());
                continue;
            }
            // A capture of the same text at the same instant by the same actor
            // gets a fresh id, so it is reviewed against the earlier one
            // instead of being mistaken for it.
            let mut attempt = 0u32;
            while origin.stable_key.is_none() && self.store().record_exists(&m.id) {
                attempt += 1;
                let a = attempt.to_string();
                m.id = MemoryId::generate(
                    &m.title,
                    &[m.kind.as_str(), &captured, actor_str, &index_s, &body, &a],
                );
            }
            let outcome = reviewer.review(&m);
            if outcome.decision == Decision::Reject {
                rejected.push(Rejected {
                    line: ex.line,
                    excerpt: crate::extract::excerpt(&m.summary),
                    // A report of work done, or a repeat of dismissed knowledge.
                    reason: if outcome.relation == Relation::NoDurableValue {
                        RejectReason::ActionLog
                    } else {
                        RejectReason::PreviouslyDismissed
                    },
                    detail: Some(outcome.reason.clone()),
                });
                continue;
            }
            if direct && unsafe_reason(&m, &outcome).is_none() {
                m.status = Status::Active;
                m.review = Review {
                    state: Some(ReviewState::Approved),
                    decided_at: Some(now),
                    decided_by: actor.map(str::to_owned),
                    reason: Some("direct capture: novel and safe".to_owned()),
                };
            }
            if let Some(lock) = &lock {
                let rel = loop {
                    match self.store().create_memory_if_absent(lock, &m) {
                        Ok(Some(rel)) => break rel,
                        Ok(None) if attempt < 1000 => {
                            attempt += 1;
                            let a = attempt.to_string();
                            m.id = MemoryId::generate(
                                &m.title,
                                &[m.kind.as_str(), &captured, actor_str, &index_s, &body, &a],
                            );
                        }
                        Ok(None) => {
                            self.undo(lock, &created_paths);
                            return Err(Error::Store(crate::store::Error::IdExhausted));
                        }
                        Err(e) => {
                            self.undo(lock, &created_paths);
                            return Err(e.into());
                        }
                    }
                };
                created_paths.push(rel);
            }
            for r in &mut found {
                r.id = m.id.clone();
            }
            redactions.extend(found);
            written.push(WrittenMemory {
                id: m.id.clone(),
                path: self
                    .store()
                    .layout()
                    .relative(&self.store().layout().memory_file(m.kind, &m.id)),
                kind: m.kind,
                status: m.status,
                title: m.title.clone(),
                paths: m.scope.paths.clone(),
                line: ex.line,
                quality: ex.quality,
                decision: outcome.decision,
                relation: outcome.relation,
                targets: outcome.targets.clone(),
                reason: outcome.reason.clone(),
            });
        }
        Ok(BatchOutcome {
            written,
            rejected,
            unchanged,
            redactions,
        })
    }

    fn undo(&self, lock: &crate::store::WriteLock, created: &[String]) {
        for rel in created {
            // Best effort: the original error is what the caller reports.
            let _ = self.store().remove(lock, rel);
        }
    }
}

/// One capture: the text and everything known about it.
#[allow(
    clippy::struct_excessive_bools,
    reason = "independent command-line switches, passed through by name"
)]
#[derive(Clone, Debug)]
pub struct CaptureRequest<'a> {
    /// Normalised input text (see [`crate::extract::preprocess::decode`]).
    pub text: &'a str,
    /// Session facts for the worthiness signals.
    pub facts: SessionFacts<'a>,
    /// Files known to be touched; bare file names resolve against them.
    pub touched: &'a [String],
    /// Provenance of what is written.
    pub origin: Origin,
    /// What an external extractor returned: `None` when none is configured,
    /// `Err(reason)` when it failed (the local pipeline runs instead).
    pub external: Option<Result<Vec<Draft>, String>>,
    /// Apply the worthiness verdict (`capture`); otherwise always extract.
    pub gate: bool,
    /// Write drafts of an `ambiguous` verdict too.
    pub force: bool,
    /// Decide everything, write nothing.
    pub dry_run: bool,
    /// Keep the trace.
    pub explain: bool,
}

impl Brain {
    /// `brain capture` / `extract` / `extract-commit`: extract, assess, review
    /// and write.
    ///
    /// # Errors
    ///
    /// The lock or a write failed; nothing of the batch is left behind.
    pub fn capture(
        &self,
        req: CaptureRequest<'_>,
        now: Timestamp,
        actor: Option<&str>,
    ) -> Result<CaptureReport, Error> {
        // The boundary of the secret firewall: titles, tags, scope paths and
        // excerpts are all derived from the text, so it is redacted once,
        // before anything is derived from it (the record is scanned again
        // before it is written).
        let (text, _) = secrets::redact(req.text);
        let tree = crate::store::git::tracked_paths(self.store().layout().root())
            .ok()
            .flatten();
        let local = crate::extract::run_in(&text, req.touched, tree.as_deref());
        let (found, extractor) = match req.external {
            Some(Ok(drafts)) => (
                external_extraction(drafts, &local),
                ExtractorUsed {
                    kind: "external".to_owned(),
                    fallback_reason: None,
                },
            ),
            Some(Err(reason)) => (
                local,
                ExtractorUsed {
                    kind: "local".to_owned(),
                    fallback_reason: Some(reason),
                },
            ),
            None => (
                local,
                ExtractorUsed {
                    kind: "local".to_owned(),
                    fallback_reason: None,
                },
            ),
        };
        let assessment = signals::assess(&text, &req.facts, &found);
        let proceed = if req.gate {
            match assessment.decision {
                CaptureDecision::Extract => true,
                CaptureDecision::Ambiguous => req.force,
                CaptureDecision::Skip => false,
            }
        } else {
            !found.drafts.is_empty()
        };
        let mut trace = found.trace.clone();
        let outcome = if proceed {
            let batch = Batch {
                drafts: found.drafts,
                rejected: found.rejected,
                trace: Vec::new(),
            };
            let out = self.write_batch(batch, &req.origin, !req.dry_run, now, actor)?;
            for w in &out.written {
                trace.push(TraceEvent {
                    stage: Stage::Review,
                    line: w.line,
                    message: format!(
                        "{} ({}){}: {}",
                        crate::report::serde_name(&w.decision),
                        crate::report::serde_name(&w.relation),
                        if w.targets.is_empty() {
                            String::new()
                        } else {
                            format!(
                                " → {}",
                                w.targets
                                    .iter()
                                    .map(ToString::to_string)
                                    .collect::<Vec<_>>()
                                    .join(", ")
                            )
                        },
                        w.reason
                    ),
                });
            }
            out
        } else {
            BatchOutcome {
                rejected: found.rejected,
                ..BatchOutcome::default()
            }
        };
        Ok(CaptureReport {
            dry_run: req.dry_run,
            assessment: req.gate.then_some(assessment),
            extractor,
            written: outcome.written,
            rejected: outcome.rejected,
            unchanged: outcome.unchanged,
            redactions: outcome.redactions,
            trace: if req.explain { trace } else { Vec::new() },
        })
    }
}

/// Drafts from an external extractor go through the same within-batch
/// de-duplication as local ones; the local pipeline's trace is kept for
/// `--explain`, its drafts are not used.
fn external_extraction(drafts: Vec<Draft>, local: &Extraction) -> Extraction {
    let scored: Vec<(Draft, u32)> = drafts.into_iter().map(|d| (d, 70)).collect();
    let dups = dedupe::duplicates(&scored);
    let mut out = Extraction {
        trace: vec![TraceEvent {
            stage: Stage::Chunk,
            line: 0,
            message: format!(
                "external extractor returned {} drafts (local pipeline found {})",
                scored.len(),
                local.drafts.len()
            ),
        }],
        ..Extraction::default()
    };
    for ((draft, quality), dup) in scored.into_iter().zip(dups) {
        if let Some(j) = dup {
            out.rejected.push(Rejected {
                line: 0,
                excerpt: crate::extract::excerpt(&draft.summary),
                reason: RejectReason::DuplicateInBatch,
                detail: Some(format!("same as external draft {}", j + 1)),
            });
            continue;
        }
        out.drafts.push(Extracted {
            draft,
            line: 0,
            quality,
            span: None,
            section: None,
        });
    }
    out
}

/// The stored rules that new drafts of a rule file replace, by draft
/// position: where a section of the file (`path#Heading`) holds exactly one
/// new draft (a span no stored memory has) and exactly one stored rule of
/// that section still in force is gone from the file (none of its spans is
/// a draft's), the draft is that rule as edited. Anything else (a rule
/// added beside others, two edited at once) is left to the reviewer.
fn edited_rules(
    drafts: &[Extracted],
    stored: &[&Memory],
    known_spans: &std::collections::HashMap<&str, &MemoryId>,
) -> std::collections::HashMap<usize, MemoryId> {
    use crate::model::EvidenceKind;
    use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
    let current: HashSet<&str> = drafts.iter().filter_map(|d| d.span.as_deref()).collect();
    let mut new: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    for (i, d) in drafts.iter().enumerate() {
        if let (Some(section), Some(span)) = (d.section.as_deref(), d.span.as_deref())
            && !known_spans.contains_key(span)
        {
            new.entry(section).or_default().push(i);
        }
    }
    let mut gone: BTreeMap<&str, Vec<&MemoryId>> = BTreeMap::new();
    for m in stored {
        // A memory merged from rules of several sections belongs to none.
        let sections: BTreeSet<&str> = evidence_of(m, EvidenceKind::Section).collect();
        let mut sections = sections.into_iter();
        let (Some(section), None) = (sections.next(), sections.next()) else {
            continue;
        };
        if in_force(m)
            && new.contains_key(section)
            && evidence_of(m, EvidenceKind::Span).all(|s| !current.contains(s))
        {
            gone.entry(section).or_default().push(&m.id);
        }
    }
    let mut out = HashMap::new();
    for (section, drafts) in new {
        if let (Some([old]), [draft]) = (gone.get(section).map(Vec::as_slice), drafts.as_slice()) {
            out.insert(*draft, (*old).clone());
        }
    }
    out
}

/// Which memory holds each span of an imported rule file.
fn span_holders<'m>(stored: &[&'m Memory]) -> std::collections::HashMap<&'m str, &'m MemoryId> {
    stored
        .iter()
        .flat_map(|m| evidence_of(m, crate::model::EvidenceKind::Span).map(|span| (span, &m.id)))
        .collect()
}

/// The values of a memory's evidence of one kind.
fn evidence_of(m: &Memory, kind: crate::model::EvidenceKind) -> impl Iterator<Item = &str> {
    m.provenance
        .evidence
        .iter()
        .filter(move |e| e.kind == kind)
        .map(|e| e.value.as_str())
}

/// Whether a memory is in force: active or a candidate, and not replaced.
fn in_force(m: &Memory) -> bool {
    matches!(m.status, Status::Active | Status::Candidate) && m.lineage.superseded_by.is_none()
}

/// The memories in force made from rules of `path` alone, none of whose
/// rules the file's drafts hold any more, and that no edited rule replaces
/// (see [`edited_rules`]), in id order.
fn gone_rules(catalog: &crate::store::Catalog, path: &str, drafts: &[Extracted]) -> Vec<GoneRule> {
    use crate::model::EvidenceKind;
    let stored: Vec<&Memory> = catalog.memories.iter().map(|l| &l.record).collect();
    let known = span_holders(&stored);
    let replaced: std::collections::HashSet<MemoryId> = edited_rules(drafts, &stored, &known)
        .into_values()
        .collect();
    let current: std::collections::HashSet<&str> =
        drafts.iter().filter_map(|d| d.span.as_deref()).collect();
    let prefix = format!("{path}#");
    let mut out: Vec<GoneRule> = stored
        .iter()
        .filter(|m| {
            let spans: Vec<&str> = evidence_of(m, EvidenceKind::Span).collect();
            in_force(m)
                && !spans.is_empty()
                && spans
                    .iter()
                    .all(|s| s.starts_with(&prefix) && !current.contains(s))
                && !replaced.contains(&m.id)
        })
        .map(|m| GoneRule {
            id: m.id.clone(),
            title: m.title.clone(),
        })
        .collect();
    out.sort_by(|a, b| a.id.cmp(&b.id));
    out
}

/// One draft as `suggest-extract` shows it.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
pub struct DraftPreview {
    /// Input line of its fragment.
    pub line: usize,
    /// Type.
    #[serde(rename = "type")]
    pub kind: MemoryType,
    /// Title.
    pub title: String,
    /// Path globs of its scope.
    pub paths: Vec<String>,
    /// Quality, `0..=100`.
    pub quality: u32,
}

/// `brain suggest-extract`: the verdict and what would be extracted.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
pub struct SuggestReport {
    /// The verdict.
    pub assessment: Assessment,
    /// The drafts the local pipeline found.
    pub drafts: Vec<DraftPreview>,
    /// Fragments it dropped, with reasons.
    pub rejected: Vec<Rejected>,
    /// Every stage's decisions, with `--explain`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub trace: Vec<TraceEvent>,
}

/// Scores an input without touching the store (pure).
pub fn suggest(
    text: &str,
    facts: &SessionFacts<'_>,
    touched: &[String],
    explain: bool,
) -> SuggestReport {
    let found = crate::extract::run(text, touched);
    let assessment = signals::assess(text, facts, &found);
    SuggestReport {
        assessment,
        drafts: found
            .drafts
            .iter()
            .map(|d| DraftPreview {
                line: d.line,
                kind: d.draft.kind,
                title: d.draft.title.clone(),
                paths: d.draft.paths.clone(),
                quality: d.quality,
            })
            .collect(),
        rejected: found.rejected,
        trace: if explain { found.trace } else { Vec::new() },
    }
}

/// One rule file to import: its name as shown and its decoded text.
#[derive(Clone, Debug)]
pub struct RuleInput {
    /// Path as given (relative to the root when inside it).
    pub path: String,
    /// Normalised-line-ending text (lines holding only `@file` imports
    /// removed: see [`crate::extract::markdown::includes`]).
    pub text: String,
    /// The rule file that imported it with `@path`, if it was not named.
    pub included_from: Option<String>,
}

/// What `brain import FILE..` did with one file.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
pub struct RuleFileReport {
    /// The file.
    pub path: String,
    /// How it was read (`markdown`, `cursor_rules`, `cursor_mdc`).
    pub format: String,
    /// The rule file that imported it with `@path`, if it was not named.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub included_from: Option<String>,
    /// Sections with a body.
    pub sections: usize,
    /// Memories written (or that would be).
    pub written: Vec<WrittenMemory>,
    /// Sections already imported, unchanged.
    pub unchanged: Vec<MemoryId>,
    /// Sections not imported, with reasons.
    pub rejected: Vec<Rejected>,
    /// Memories in force made from rules of this file that the file no
    /// longer holds (and no edited rule replaces): the rule was dropped or
    /// moved, so a person may retire the memory.
    pub gone: Vec<GoneRule>,
}

/// A memory whose rule is no longer in its rule file.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
pub struct GoneRule {
    /// The memory.
    pub id: MemoryId,
    /// Its title.
    pub title: String,
}

/// `brain import FILE..`.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
pub struct RuleImportReport {
    /// Nothing was written.
    pub dry_run: bool,
    /// Per file, in the order given.
    pub files: Vec<RuleFileReport>,
    /// Secrets removed before writing.
    pub redactions: Vec<Redaction>,
}

/// A rule file that cannot be imported.
#[derive(Debug, thiserror::Error)]
pub enum RuleFileError {
    /// Not a known rule-file name.
    #[error(
        "{path}: not a rule file (expected AGENTS.md, CLAUDE.md, CONVENTIONS.md, .cursorrules, .windsurfrules, .clinerules, .cursor/rules/*.mdc, .github/copilot-instructions.md or another *.md)"
    )]
    UnknownFormat {
        /// The file.
        path: String,
    },
    /// Its structure is broken.
    #[error("{path}:{line}: {source}")]
    Parse {
        /// The file.
        path: String,
        /// Line.
        line: usize,
        /// Why.
        #[source]
        source: crate::extract::markdown::ParseError,
    },
}

/// Parses every rule file before anything is written: one bad file stops
/// the import with nothing written.
///
/// # Errors
///
/// A file is not a rule file or cannot be parsed.
pub fn parse_rule_files(
    inputs: &[RuleInput],
) -> Result<Vec<crate::extract::markdown::RuleFile>, RuleFileError> {
    use crate::extract::markdown;
    inputs
        .iter()
        .map(|i| {
            let format =
                markdown::format_for(&i.path).ok_or_else(|| RuleFileError::UnknownFormat {
                    path: i.path.clone(),
                })?;
            markdown::parse(&i.text, format).map_err(|source| RuleFileError::Parse {
                path: i.path.clone(),
                line: source.line(),
                source,
            })
        })
        .collect()
}

impl Brain {
    /// `brain import FILE..`: every section of every rule file becomes a
    /// candidate. Ids derive from the file name and the section's text, so
    /// importing an unchanged file again writes nothing.
    ///
    /// # Errors
    ///
    /// A file is not a rule file, cannot be parsed (nothing is written), or
    /// a write failed.
    pub fn import_rules(
        &self,
        inputs: &[RuleInput],
        dry_run: bool,
        now: Timestamp,
        actor: Option<&str>,
    ) -> Result<RuleImportReport, Error> {
        let parsed = parse_rule_files(inputs).map_err(|e| Error::InvalidInput {
            field: "rule file",
            message: e.to_string(),
        })?;
        let mut files = Vec::new();
        let mut redactions = Vec::new();
        // Scopes are checked against the tracked files; outside a repository
        // (or when the index cannot be read) only their shape is.
        let tree = crate::store::git::tracked_paths(self.store().layout().root())
            .ok()
            .flatten();
        // What was stored before this run: a memory this run writes is no
        // rule gone from its file.
        let before = self.store().load();
        for (input, file) in inputs.iter().zip(parsed) {
            let (drafts, rejected) =
                crate::extract::rules::drafts(&file, &input.path, tree.as_deref());
            let gone = gone_rules(&before, &input.path, &drafts);
            let origin = Origin {
                source: Source::Import,
                evidence: vec![Evidence {
                    kind: crate::model::EvidenceKind::File,
                    value: input.path.clone(),
                }],
                stable_key: Some(format!("rules:{}", input.path)),
                candidates_only: false,
            };
            let batch = Batch {
                drafts,
                rejected,
                trace: Vec::new(),
            };
            let outcome = self.write_batch(batch, &origin, !dry_run, now, actor)?;
            redactions.extend(outcome.redactions);
            files.push(RuleFileReport {
                path: input.path.clone(),
                format: crate::report::serde_name(&file.format),
                included_from: input.included_from.clone(),
                sections: file.sections.len(),
                written: outcome.written,
                unchanged: outcome.unchanged,
                rejected: outcome.rejected,
                gone,
            });
        }
        Ok(RuleImportReport {
            dry_run,
            files,
            redactions,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extract::Draft;
    use crate::model::{EvidenceKind, MemoryType};

    fn draft(span: &str, section: &str) -> Extracted {
        Extracted {
            draft: Draft {
                kind: MemoryType::Convention,
                title: span.to_owned(),
                summary: span.to_owned(),
                detail: String::new(),
                paths: Vec::new(),
                modules: Vec::new(),
                tags: Vec::new(),
                importance: crate::model::Importance::Medium,
                risk: crate::model::Risk::Low,
            },
            line: 1,
            quality: 80,
            span: Some(format!("AGENTS.md#{span}")),
            section: Some(format!("AGENTS.md#{section}")),
        }
    }

    fn stored(id: &str, span: &str, section: &str, status: Status) -> Memory {
        let evidence = [
            (EvidenceKind::File, "AGENTS.md".to_owned()),
            (EvidenceKind::Span, format!("AGENTS.md#{span}")),
            (EvidenceKind::Section, format!("AGENTS.md#{section}")),
        ]
        .into_iter()
        .map(|(kind, value)| Evidence { kind, value })
        .collect();
        Memory::new(
            MemoryId::new(id).unwrap(),
            MemoryType::Convention,
            status,
            span,
            span,
            Provenance {
                source: Source::Import,
                captured_at: "2026-01-01T00:00:00Z".parse().unwrap(),
                proposed_by: None,
                evidence,
            },
        )
    }

    #[test]
    fn an_edited_rule_of_a_section_replaces_the_one_gone_from_it() {
        type Case<'a> = (
            &'a str,
            &'a [(&'a str, &'a str)],
            &'a [(&'a str, &'a str)],
            &'a [(usize, &'a str)],
        );
        let cases: &[Case] = &[
            (
                "one rule edited in place",
                &[("jest", "Testing"), ("tabs", "Style")],
                &[("vitest", "Testing"), ("tabs", "Style")],
                &[(0, "m-jest")],
            ),
            (
                "a rule added beside the others",
                &[("jest", "Testing")],
                &[("jest", "Testing"), ("coverage", "Testing")],
                &[],
            ),
            (
                "a rule removed, none added",
                &[("jest", "Testing"), ("tabs", "Style")],
                &[("tabs", "Style")],
                &[],
            ),
            (
                "two rules of one section edited at once",
                &[("jest", "Testing"), ("mocks", "Testing")],
                &[("vitest", "Testing"), ("vi-mock", "Testing")],
                &[],
            ),
            (
                "a rule gone from one section, another new in another",
                &[("jest", "Testing")],
                &[("tabs", "Style")],
                &[],
            ),
        ];
        for (name, before, after, want) in cases {
            let memories: Vec<Memory> = before
                .iter()
                .map(|(span, section)| stored(&format!("m-{span}"), span, section, Status::Active))
                .collect();
            let refs: Vec<&Memory> = memories.iter().collect();
            let known = span_holders(&refs);
            let drafts: Vec<Extracted> = after.iter().map(|(s, sec)| draft(s, sec)).collect();
            let got = edited_rules(&drafts, &refs, &known);
            let mut got: Vec<(usize, String)> =
                got.into_iter().map(|(i, id)| (i, id.to_string())).collect();
            got.sort();
            let want: Vec<(usize, String)> =
                want.iter().map(|(i, id)| (*i, (*id).to_owned())).collect();
            assert_eq!(got, want, "{name}");
        }
        // A rule already replaced is not replaced again.
        let old = stored("m-jest", "jest", "Testing", Status::Superseded);
        let known = std::collections::HashMap::new();
        let got = edited_rules(&[draft("vitest", "Testing")], &[&old], &known);
        assert!(got.is_empty());
    }
}
