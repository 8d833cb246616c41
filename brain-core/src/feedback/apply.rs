//! Applying routing feedback to the store: the pure decision per event
//! ([`plan`]) and the [`Brain`] methods that read the ledger, write the
//! preference files under the write lock, queue reminders and record every
//! applied event.

use std::collections::BTreeMap;

use jiff::Timestamp;

use super::input::{self, BatchError};
use super::{
    CONFIDENCE_CAP, CONFIDENCE_STEP, ChangeAction, Event, EventOutcome, ExplainReport,
    FeedbackEvent, FeedbackReport, FeedbackSummary, LEDGER, LedgerEntry, Level, LineError,
    LineErrorKind, Outcome, PreferenceChange, PreferenceStanding, QUEUE, ReinforceReport, Reminder,
};
use crate::brain::{Brain, Error};
use crate::model::{
    Confidence, Evidence, EvidenceKind, Lineage, MemoryId, Preference, PreferenceKind, Provenance,
    Review, ReviewState, SchemaVersion, Source, Status, TargetType, Validity,
};
use crate::route::{normalize_skill, preference_eligible};
use crate::secrets;
use crate::store::Loaded;

/// The valid events of an input, with their lines, and the refused lines.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Parsed {
    /// Valid events, in input order.
    pub events: Vec<(usize, Event)>,
    /// Refused lines, in input order.
    pub errors: Vec<LineError>,
}

/// Parses a feedback input (JSON array or NDJSON) into events and per-line
/// errors.
///
/// # Errors
/// The input's overall shape is broken (see [`input::split`]).
pub fn parse(text: &str) -> Result<Parsed, BatchError> {
    let mut parsed = Parsed::default();
    for item in input::split(text)? {
        match input::parse::<FeedbackEvent>(&item) {
            Ok(raw) => match Event::from_input(raw) {
                Ok(event) => parsed.events.push((item.line, event)),
                Err((field, message)) => parsed.errors.push(LineError {
                    line: item.line,
                    column: None,
                    kind: LineErrorKind::InvalidValue,
                    field: Some(field.to_owned()),
                    message,
                }),
            },
            Err(e) => parsed.errors.push(LineError::from_item(e, "type")),
        }
    }
    Ok(parsed)
}

/// The id of the candidate `avoid` that feedback proposes for a target: it
/// depends on the target alone, so every event that asks for it names the
/// same file.
pub fn avoid_id(target_type: TargetType, target: &str) -> MemoryId {
    MemoryId::generate(
        &format!("avoid {target}"),
        &[
            "preference",
            "routing-feedback",
            target_type.as_str(),
            target,
        ],
    )
}

/// One preference an event writes, or that decides its outcome.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Change {
    /// Position in the preferences handed to [`plan`]; `None` for a new file.
    pub(crate) index: Option<usize>,
    /// The record after the event.
    pub(crate) record: Preference,
    /// Confidence before.
    pub(crate) before: f64,
    /// What happens to it.
    pub(crate) action: ChangeAction,
}

/// What one event does.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Planned {
    pub(crate) outcome: Outcome,
    pub(crate) changes: Vec<Change>,
}

/// Decides what `event` does to `prefs` (every preference of the store, as
/// loaded), without writing anything.
pub(crate) fn plan(
    event: &Event,
    prefs: &[Loaded<Preference>],
    now: Timestamp,
    actor: Option<&str>,
) -> Planned {
    let level = event.level();
    if level == Level::Weak {
        return planned(Outcome::TooWeak, Vec::new());
    }
    let same: Vec<usize> = prefs
        .iter()
        .enumerate()
        .filter(|(_, l)| {
            l.record.target_type == event.target_type
                && normalize_skill(&l.record.target).as_deref() == Some(event.target.as_str())
        })
        .map(|(i, _)| i)
        .collect();
    if event.kind.is_positive() {
        return plan_positive(event, prefs, &same);
    }
    if event.kind.is_negative(level) {
        return plan_negative(event, prefs, &same, now, actor);
    }
    planned(Outcome::ReminderQueued, Vec::new())
}

fn planned(outcome: Outcome, changes: Vec<Change>) -> Planned {
    Planned { outcome, changes }
}

fn unchanged(prefs: &[Loaded<Preference>], i: usize) -> Change {
    let record = prefs[i].record.clone();
    Change {
        index: Some(i),
        before: record.confidence.get(),
        record,
        action: ChangeAction::Unchanged,
    }
}

fn plan_positive(event: &Event, prefs: &[Loaded<Preference>], same: &[usize]) -> Planned {
    let mut changes = Vec::new();
    let (mut raised, mut at_cap) = (false, false);
    for &i in same {
        let p = &prefs[i].record;
        let open = matches!(p.status, Status::Active | Status::Candidate)
            && p.lineage.superseded_by.is_none();
        if p.preference != PreferenceKind::Prefer || !open {
            continue;
        }
        let before = p.confidence.get();
        if has_event(p, &event.id) {
            // Applied before a crash cut the run short of its ledger line.
            raised = true;
            changes.push(unchanged(prefs, i));
        } else if before >= CONFIDENCE_CAP {
            at_cap = true;
            changes.push(unchanged(prefs, i));
        } else {
            let mut record = p.clone();
            let after = round2((before + CONFIDENCE_STEP).min(CONFIDENCE_CAP));
            record.confidence = Confidence::new(after).unwrap_or(record.confidence);
            record.provenance.evidence.push(evidence(event));
            raised = true;
            changes.push(Change {
                index: Some(i),
                record,
                before,
                action: ChangeAction::ConfidenceRaised,
            });
        }
    }
    let outcome = if raised {
        Outcome::ConfidenceRaised
    } else if at_cap {
        Outcome::ConfidenceAtCap
    } else {
        Outcome::NoPreferPreference
    };
    planned(outcome, changes)
}

fn plan_negative(
    event: &Event,
    prefs: &[Loaded<Preference>],
    same: &[usize],
    now: Timestamp,
    actor: Option<&str>,
) -> Planned {
    let find = |pred: &dyn Fn(&Preference) -> bool| -> Vec<usize> {
        same.iter()
            .copied()
            .filter(|&i| pred(&prefs[i].record))
            .collect()
    };
    let active_prefers = find(&|p| p.preference == PreferenceKind::Prefer && p.is_in_force(now));
    if !active_prefers.is_empty() {
        return plan_against_prefer(event, prefs, &active_prefers);
    }
    let active_negative = find(&|p| {
        matches!(
            p.preference,
            PreferenceKind::Avoid | PreferenceKind::RequireReview
        ) && p.is_in_force(now)
    });
    if !active_negative.is_empty() {
        let changes = active_negative
            .iter()
            .map(|&i| unchanged(prefs, i))
            .collect();
        return planned(Outcome::AlreadyAvoided, changes);
    }
    let wanted = avoid_id(event.target_type, &event.target);
    let mut queued = find(&|p| {
        p.preference == PreferenceKind::Avoid
            && p.status == Status::Candidate
            && p.lineage.superseded_by.is_none()
    });
    // The file feedback itself proposed first, then by path.
    queued.sort_by_key(|&i| prefs[i].record.id != wanted);
    if let Some(&i) = queued.first() {
        let p = &prefs[i].record;
        if has_event(p, &event.id) {
            return planned(Outcome::EvidenceAdded, vec![unchanged(prefs, i)]);
        }
        let mut record = p.clone();
        record.provenance.evidence.push(evidence(event));
        let change = Change {
            index: Some(i),
            before: record.confidence.get(),
            record,
            action: ChangeAction::EvidenceAdded,
        };
        return planned(Outcome::EvidenceAdded, vec![change]);
    }
    let dismissed = find(&|p| {
        p.preference == PreferenceKind::Avoid && (p.status == Status::Dismissed || p.id == wanted)
    });
    if !dismissed.is_empty() {
        let changes = dismissed.iter().map(|&i| unchanged(prefs, i)).collect();
        return planned(Outcome::PreviouslyDismissed, changes);
    }
    let record = proposed_avoid(event, wanted, now, actor);
    let change = Change {
        index: None,
        before: record.confidence.get(),
        record,
        action: ChangeAction::Created,
    };
    planned(Outcome::AvoidProposed, vec![change])
}

/// A negative signal against active `prefer` preferences of its target: a
/// strong one marks them for review, a weaker one changes nothing.
fn plan_against_prefer(
    event: &Event,
    prefs: &[Loaded<Preference>],
    active_prefers: &[usize],
) -> Planned {
    if event.level() != Level::Strong {
        let changes = active_prefers
            .iter()
            .map(|&i| unchanged(prefs, i))
            .collect();
        return planned(Outcome::ConflictNotStrong, changes);
    }
    let mut marked = false;
    let mut changes = Vec::new();
    for &i in active_prefers {
        let p = &prefs[i].record;
        if has_event(p, &event.id) {
            marked |= p.review.state == Some(ReviewState::Pending);
            changes.push(unchanged(prefs, i));
            continue;
        }
        let mut record = p.clone();
        record.provenance.evidence.push(evidence(event));
        let action = if p.review.state == Some(ReviewState::Pending) {
            ChangeAction::EvidenceAdded
        } else {
            marked = true;
            record.review = Review {
                state: Some(ReviewState::Pending),
                decided_at: None,
                decided_by: None,
                reason: Some(format!(
                    "routing feedback {} ({}, strength {:.2}) contradicts this preference; approve it again or retire it",
                    event.id,
                    event.kind.as_str(),
                    event.strength
                )),
            };
            ChangeAction::MarkedPendingReview
        };
        changes.push(Change {
            index: Some(i),
            before: record.confidence.get(),
            record,
            action,
        });
    }
    let outcome = if marked {
        Outcome::PreferPendingReview
    } else {
        Outcome::AlreadyPendingReview
    };
    planned(outcome, changes)
}

/// The candidate `avoid` a negative event proposes: confidence
/// `0.5 + 0.4 × strength`, review pending, the event as evidence.
fn proposed_avoid(event: &Event, id: MemoryId, now: Timestamp, actor: Option<&str>) -> Preference {
    let mut reason = format!(
        "Proposed by routing feedback ({}, strength {:.2}",
        event.kind.as_str(),
        event.strength
    );
    if let Some(plan) = &event.plan_id {
        reason.push_str(", plan ");
        reason.push_str(plan);
    }
    reason.push_str(").");
    if let Some(task) = &event.task {
        reason.push_str("\nTask: ");
        reason.push_str(task);
    }
    if let Some(notes) = &event.notes {
        reason.push_str("\nNotes: ");
        reason.push_str(notes);
    }
    Preference {
        schema_version: SchemaVersion::CURRENT,
        id,
        status: Status::Candidate,
        target_type: event.target_type,
        target: event.target.clone(),
        preference: PreferenceKind::Avoid,
        confidence: Confidence::new(round2(0.5 + 0.4 * event.strength)).unwrap_or(Confidence::FULL),
        reason,
        task_hints: Vec::new(),
        path_hints: Vec::new(),
        validity: Validity::default(),
        lineage: Lineage::default(),
        provenance: Provenance {
            source: Source::Feedback,
            captured_at: now,
            proposed_by: actor.map(str::to_owned),
            evidence: vec![evidence(event)],
        },
        review: Review {
            state: Some(ReviewState::Pending),
            ..Review::default()
        },
    }
}

/// Rounds to two decimals, so that repeated steps do not drift
/// (`0.6 + 0.05` is `0.65`, not `0.6499999999999999`).
fn round2(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

/// The evidence note naming an event: `routing feedback <id>: <type>,
/// strength <s>[, plan <plan>][: <notes>]`.
fn evidence(event: &Event) -> Evidence {
    let mut value = format!(
        "routing feedback {}: {}, strength {:.2}",
        event.id,
        event.kind.as_str(),
        event.strength
    );
    if let Some(plan) = &event.plan_id {
        value.push_str(", plan ");
        value.push_str(plan);
    }
    if let Some(notes) = &event.notes {
        let line = notes.split_whitespace().collect::<Vec<_>>().join(" ");
        let short: String = line.chars().take(160).collect();
        value.push_str(": ");
        value.push_str(&short);
        if short.len() < line.len() {
            value.push('…');
        }
    }
    Evidence {
        kind: EvidenceKind::Note,
        value,
    }
}

/// Whether `p` already carries the evidence of event `id`.
fn has_event(p: &Preference, id: &str) -> bool {
    let prefix = format!("routing feedback {id}:");
    p.provenance
        .evidence
        .iter()
        .any(|e| e.value.starts_with(&prefix))
}

/// Parses JSON lines of a runtime file; unreadable lines become warnings.
fn read_lines<T: serde::de::DeserializeOwned>(
    text: Option<&str>,
    name: &str,
    warnings: &mut Vec<String>,
) -> Vec<T> {
    let Some(text) = text else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        match serde_json::from_str(line) {
            Ok(v) => out.push(v),
            Err(e) => warnings.push(format!(
                ".brain/runtime/{name} line {}: ignored, not a valid entry ({e})",
                i + 1
            )),
        }
    }
    out
}

fn to_line<T: serde::Serialize>(value: &T) -> String {
    serde_json::to_string(value).unwrap_or_default()
}

fn reminder_of(event: &Event, now: Timestamp) -> Reminder {
    Reminder {
        id: event.id.clone(),
        kind: event.kind,
        skill: event.skill.clone(),
        workflow: event.workflow.clone(),
        plan_id: event.plan_id.clone(),
        task: event.task.clone(),
        notes: event.notes.clone(),
        strength: event.strength,
        queued_at: now,
    }
}

impl Brain {
    /// `brain routing-feedback`: applies every valid event of `text` (a JSON
    /// array or NDJSON) under the write lock, in input order; refused lines
    /// are reported and do not stop the others. Events whose id the ledger
    /// holds are reported as duplicates and change nothing. Preference files
    /// pass the secret firewall before they are written.
    ///
    /// # Errors
    /// The input's overall shape is broken (nothing is applied), or the lock,
    /// the ledger or a write failed (events before it stay applied and
    /// recorded).
    #[allow(clippy::too_many_lines, reason = "one linear pass over the events")]
    pub fn routing_feedback(
        &self,
        text: &str,
        now: Timestamp,
        actor: Option<&str>,
    ) -> Result<FeedbackReport, Error> {
        let parsed = parse(text).map_err(|e| Error::InvalidInput {
            field: "feedback input",
            message: e.to_string(),
        })?;
        let store = self.store();
        let lock = store.lock()?;
        let mut warnings = Vec::new();
        let ledger: Vec<LedgerEntry> = read_lines(
            store.read_runtime_file(LEDGER)?.as_deref(),
            LEDGER,
            &mut warnings,
        );
        let mut applied: BTreeMap<String, Timestamp> = BTreeMap::new();
        for e in ledger {
            applied.entry(e.id).or_insert(e.applied_at);
        }
        let catalog = store.load();
        warnings.extend(
            catalog
                .problems
                .iter()
                .map(|p| format!("skipped {}: {}", p.path, p.message)),
        );
        let mut prefs = catalog.preferences;
        let mut summary = FeedbackSummary {
            events: parsed.events.len(),
            errors: parsed.errors.len(),
            ..FeedbackSummary::default()
        };
        let mut outcomes = Vec::with_capacity(parsed.events.len());
        let mut redactions = Vec::new();
        for (line, event) in parsed.events {
            let mut outcome = EventOutcome {
                line,
                id: event.id.clone(),
                kind: event.kind,
                target_type: event.target_type,
                target: event.target.clone(),
                strength: event.strength,
                level: event.level(),
                plan_id: event.plan_id.clone(),
                outcome: Outcome::Duplicate,
                preferences: Vec::new(),
                reminder: None,
                first_applied_at: None,
            };
            if let Some(first) = applied.get(&event.id) {
                outcome.first_applied_at = Some(*first);
                summary.duplicates += 1;
                outcomes.push(outcome);
                continue;
            }
            let planned = plan(&event, &prefs, now, actor);
            for change in planned.changes {
                let mut record = change.record;
                let path = if change.action == ChangeAction::Unchanged {
                    change
                        .index
                        .map(|i| prefs[i].path.clone())
                        .unwrap_or_default()
                } else {
                    redactions.extend(secrets::redact_preference(&mut record));
                    record.normalize();
                    if let Some(i) = change.index {
                        let path = prefs[i].path.clone();
                        store.rewrite_preference(&lock, &path, &record)?;
                        prefs[i].record = record.clone();
                        path
                    } else {
                        let Some(path) = store.create_preference_if_absent(&lock, &record)? else {
                            return Err(Error::Transition {
                                action: "propose",
                                id: record.id.to_string(),
                                message: "a record file with this id exists but could not be read; run `brain lint`".to_owned(),
                            });
                        };
                        prefs.push(Loaded {
                            path: path.clone(),
                            record: record.clone(),
                        });
                        path
                    }
                };
                match change.action {
                    ChangeAction::Created => summary.avoid_proposed += 1,
                    ChangeAction::EvidenceAdded => summary.evidence_added += 1,
                    ChangeAction::ConfidenceRaised => summary.confidence_raised += 1,
                    ChangeAction::MarkedPendingReview => summary.pending_review += 1,
                    ChangeAction::Unchanged => {}
                }
                outcome.preferences.push(PreferenceChange {
                    id: record.id.clone(),
                    path,
                    preference: record.preference,
                    status: record.status,
                    action: change.action,
                    confidence_before: change.before,
                    confidence_after: record.confidence.get(),
                });
            }
            outcome.outcome = planned.outcome;
            if event.kind.queues_reminder() && event.level() != Level::Weak {
                store.append_runtime_log(QUEUE, &to_line(&reminder_of(&event, now)))?;
                outcome.reminder = Some(event.id.clone());
                summary.reminders_queued += 1;
            }
            let entry = LedgerEntry {
                id: event.id.clone(),
                applied_at: now,
                kind: event.kind,
                target_type: event.target_type,
                target: event.target.clone(),
                skill: event.skill.clone(),
                workflow: event.workflow.clone(),
                strength: event.strength,
                plan_id: event.plan_id.clone(),
                at: event.at,
                task: event.task.clone(),
                notes: event.notes.clone(),
                outcome: outcome.outcome,
                preferences: outcome.preferences.iter().map(|p| p.id.clone()).collect(),
                reminder: outcome.reminder.is_some(),
            };
            store.append_runtime_log(LEDGER, &to_line(&entry))?;
            applied.insert(event.id, now);
            summary.applied += 1;
            outcomes.push(outcome);
        }
        drop(lock);
        Ok(FeedbackReport {
            events: outcomes,
            errors: parsed.errors,
            summary,
            redactions,
            warnings,
        })
    }

    /// `brain routing-feedback --explain NAME`: the preferences that name
    /// the skill or workflow, the applied events about it and its queued
    /// reminders. Reads only.
    ///
    /// # Errors
    /// An empty name, or a runtime file that cannot be read.
    pub fn feedback_explain(&self, name: &str, now: Timestamp) -> Result<ExplainReport, Error> {
        let target = normalize_skill(name).ok_or(Error::InvalidInput {
            field: "--explain",
            message: "give a skill or workflow name".to_owned(),
        })?;
        let store = self.store();
        let mut warnings = Vec::new();
        let names = |skill: &Option<String>, workflow: &Option<String>| {
            skill.as_deref() == Some(target.as_str())
                || workflow.as_deref() == Some(target.as_str())
        };
        let events: Vec<LedgerEntry> = read_lines(
            store.read_runtime_file(LEDGER)?.as_deref(),
            LEDGER,
            &mut warnings,
        )
        .into_iter()
        .filter(|e: &LedgerEntry| e.target == target || names(&e.skill, &e.workflow))
        .collect();
        let reminders = dedup(read_lines(
            store.read_runtime_file(QUEUE)?.as_deref(),
            QUEUE,
            &mut warnings,
        ))
        .into_iter()
        .filter(|r| names(&r.skill, &r.workflow))
        .collect();
        let catalog = store.load();
        warnings.extend(
            catalog
                .problems
                .iter()
                .map(|p| format!("skipped {}: {}", p.path, p.message)),
        );
        let preferences = catalog
            .preferences
            .iter()
            .filter(|l| normalize_skill(&l.record.target).as_deref() == Some(target.as_str()))
            .map(|l| PreferenceStanding {
                id: l.record.id.clone(),
                path: l.path.clone(),
                target_type: l.record.target_type,
                preference: l.record.preference,
                status: l.record.status,
                confidence: l.record.confidence.get(),
                review_state: l.record.review.state,
                in_force: preference_eligible(&l.record, now),
            })
            .collect();
        Ok(ExplainReport {
            target,
            preferences,
            events,
            reminders,
            warnings,
        })
    }

    /// `brain reinforce --pending`: the reminders still queued, oldest first.
    ///
    /// # Errors
    /// The queue cannot be read.
    pub fn reinforce_pending(&self) -> Result<ReinforceReport, Error> {
        let mut warnings = Vec::new();
        let pending = dedup(read_lines(
            self.store().read_runtime_file(QUEUE)?.as_deref(),
            QUEUE,
            &mut warnings,
        ));
        Ok(ReinforceReport {
            acknowledged: Vec::new(),
            pending,
            warnings,
        })
    }

    /// `brain reinforce --ack ID.. | --ack-all`: removes reminders from the
    /// queue, by id or unique id prefix. Every id is resolved before the queue
    /// is rewritten, so an unknown id removes nothing.
    ///
    /// # Errors
    /// An id that names no queued reminder or several, or the queue cannot be
    /// read or written.
    pub fn reinforce_ack(&self, ids: &[String], all: bool) -> Result<ReinforceReport, Error> {
        let store = self.store();
        let lock = store.lock()?;
        let mut warnings = Vec::new();
        let queue = dedup(read_lines(
            store.read_runtime_file(QUEUE)?.as_deref(),
            QUEUE,
            &mut warnings,
        ));
        let mut chosen: Vec<usize> = Vec::new();
        if all {
            chosen = (0..queue.len()).collect();
        }
        for query in ids {
            let exact = queue.iter().position(|r| r.id == *query);
            let found: Vec<usize> = match exact {
                Some(i) => vec![i],
                None => queue
                    .iter()
                    .enumerate()
                    .filter(|(_, r)| !query.is_empty() && r.id.starts_with(query.as_str()))
                    .map(|(i, _)| i)
                    .collect(),
            };
            match found.as_slice() {
                [i] => {
                    if !chosen.contains(i) {
                        chosen.push(*i);
                    }
                }
                [] => {
                    return Err(Error::InvalidInput {
                        field: "--ack",
                        message: format!(
                            "no queued reminder has the id or id prefix `{query}`; `brain reinforce --pending` lists them"
                        ),
                    });
                }
                many => {
                    let names: Vec<&str> = many.iter().map(|&i| queue[i].id.as_str()).collect();
                    return Err(Error::InvalidInput {
                        field: "--ack",
                        message: format!(
                            "`{query}` matches {} reminders ({}); give more characters",
                            many.len(),
                            names.join(", ")
                        ),
                    });
                }
            }
        }
        chosen.sort_unstable();
        let mut acknowledged = Vec::new();
        let mut pending = Vec::new();
        for (i, r) in queue.into_iter().enumerate() {
            if chosen.binary_search(&i).is_ok() {
                acknowledged.push(r);
            } else {
                pending.push(r);
            }
        }
        if !acknowledged.is_empty() {
            let text: String = pending.iter().map(|r| to_line(r) + "\n").collect();
            store.replace_runtime_file(&lock, QUEUE, &text)?;
        }
        Ok(ReinforceReport {
            acknowledged,
            pending,
            warnings,
        })
    }
}

/// Keeps the first reminder of each id.
fn dedup(reminders: Vec<Reminder>) -> Vec<Reminder> {
    let mut seen = std::collections::BTreeSet::new();
    reminders
        .into_iter()
        .filter(|r| seen.insert(r.id.clone()))
        .collect()
}
