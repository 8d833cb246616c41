//! The [`Brain`] methods of `brain preference …`.
//!
//! Every write takes the store's write lock, loads the store under it, checks
//! everything, and only then writes, so a refused command leaves every file
//! as it was. Text going into a file passes the secret firewall first.

use jiff::Timestamp;

use super::phrase::{self, Phrase};
use super::{
    AddOutcome, CapturedPreference, Error, IgnoredSentence, NewPreference, PreferenceAddReport,
    PreferenceApproveReport, PreferenceCaptureReport, PreferenceDismissReport, PreferenceEntry,
    PreferenceFilter, PreferenceListReport, PreferenceResult, PreferenceShowReport,
    PreferenceSupersedeReport, TargetTypeSource, find_preference, preference_problems, relate,
    require_readable,
};
use crate::Brain;
use crate::config::CaptureMode;
use crate::model::{
    Confidence, Lineage, MemoryId, Preference, Provenance, Review, ReviewState, SchemaVersion,
    Source, Status, TargetType, Validity,
};
use crate::report::StatusChange;
use crate::route::{normalize_skill, preference_eligible};
use crate::secrets::{self, Redaction};
use crate::store::{self, Catalog, Loaded, WriteLock};

/// A preference planned for writing, or found in the store.
struct Planned {
    result: PreferenceResult,
    /// The record to write, for `created`.
    record: Option<Preference>,
    redactions: Vec<Redaction>,
}

fn change(l: &Loaded<Preference>, after: &Preference) -> StatusChange {
    StatusChange {
        id: after.id.clone(),
        path: l.path.clone(),
        from: l.record.status,
        to: after.status,
        version: after.lineage.version,
    }
}

fn approved(now: Timestamp, actor: Option<&str>) -> Review {
    Review {
        state: Some(ReviewState::Approved),
        decided_at: Some(now),
        decided_by: actor.map(str::to_owned),
        reason: None,
    }
}

fn conflict_error(p: &Preference, conflicts: &[&Loaded<Preference>], id: bool) -> Error {
    Error::Conflict {
        kind: p.preference.as_str(),
        target: p.target.clone(),
        existing: conflicts
            .iter()
            .map(|l| (l.record.id.clone(), l.record.preference))
            .collect(),
        id: id.then(|| p.id.clone()),
    }
}

impl Brain {
    /// `brain preference list`: every preference passing `filter`, by
    /// target, then policy, then id; `in_force` as of `now`.
    pub fn preference_list(
        &self,
        catalog: Catalog,
        filter: &PreferenceFilter,
        now: Timestamp,
    ) -> PreferenceListReport {
        let skipped = preference_problems(&catalog);
        let mut preferences: Vec<PreferenceEntry> = catalog
            .preferences
            .into_iter()
            .filter(|l| filter.matches(&l.record))
            .map(|l| {
                let in_force = preference_eligible(&l.record, now);
                let p = l.record;
                PreferenceEntry {
                    id: p.id,
                    path: l.path,
                    status: p.status,
                    in_force,
                    target_type: p.target_type,
                    target: p.target,
                    preference: p.preference,
                    confidence: p.confidence,
                    task_hints: p.task_hints,
                    path_hints: p.path_hints,
                    reason: p.reason,
                }
            })
            .collect();
        preferences.sort_by(|a, b| {
            (&a.target, a.preference, &a.id).cmp(&(&b.target, b.preference, &b.id))
        });
        PreferenceListReport {
            preferences,
            skipped,
        }
    }

    /// `brain preference show ID`: by exact id or unique prefix.
    pub fn preference_show(
        &self,
        catalog: &Catalog,
        query: &str,
        now: Timestamp,
    ) -> Result<PreferenceShowReport, Error> {
        let l = find_preference(catalog, query)?;
        Ok(PreferenceShowReport {
            path: l.path.clone(),
            in_force: preference_eligible(&l.record, now),
            preference: l.record.clone(),
        })
    }

    /// `brain preference add`: writes one preference file, unless the same
    /// preference is already there (or was dismissed). An active preference
    /// that contradicts an active one is refused; a candidate is written
    /// and names the conflict.
    pub fn preference_add(
        &self,
        new: &NewPreference,
        now: Timestamp,
        actor: Option<&str>,
    ) -> Result<PreferenceAddReport, Error> {
        let status = match new.status {
            Some(s @ (Status::Candidate | Status::Active)) => s,
            Some(other) => {
                return Err(Error::InvalidInput {
                    field: "status",
                    message: format!("a new preference is `candidate` or `active`, not `{other}`"),
                });
            }
            None => match self.store().config().settings().capture_mode {
                CaptureMode::Direct => Status::Active,
                CaptureMode::Candidate => Status::Candidate,
            },
        };
        let confidence = match new.confidence {
            None => Confidence::FULL,
            Some(v) => Confidence::new(v).ok_or_else(|| Error::InvalidInput {
                field: "confidence",
                message: format!("{v} is outside the range 0 to 1"),
            })?,
        };
        if new.target.contains('\n') {
            return Err(Error::InvalidInput {
                field: "target",
                message: "give a one-line name".into(),
            });
        }
        let template = template(new, status, confidence, now, actor);
        let lock = self.store().lock()?;
        let catalog = self.store().load();
        require_readable(&catalog)?;
        let planned = self.plan(&catalog.preferences, template, &[], now, actor)?;
        if let Some(p) = &planned.record
            && p.status == Status::Active
        {
            let rel = relate(&catalog.preferences, p);
            if !rel.conflicts.is_empty() {
                return Err(conflict_error(p, &rel.conflicts, false));
            }
        }
        self.write(&lock, &planned)?;
        Ok(PreferenceAddReport {
            result: planned.result,
            redactions: planned.redactions,
        })
    }

    /// Redacts, relates and names one new preference; writes nothing.
    /// `planned` holds the preferences already planned in this command.
    fn plan(
        &self,
        existing: &[Loaded<Preference>],
        mut p: Preference,
        planned: &[MemoryId],
        now: Timestamp,
        actor: Option<&str>,
    ) -> Result<Planned, Error> {
        // Redact before the id is derived from the target, so no part of a
        // secret reaches the file name either.
        secrets::redact_preference(&mut p);
        if p.target.contains("[REDACTED:") {
            return Err(Error::InvalidInput {
                field: "target",
                message: "the name looks like a secret".into(),
            });
        }
        p.target = normalize_skill(&p.target).ok_or(Error::InvalidInput {
            field: "target",
            message: "give a non-empty name".into(),
        })?;
        p.normalize();
        // Every redaction the record holds, including those made at the
        // boundary of `preference capture` before its hints were derived.
        let mut redactions = secrets::redactions_in_preference(&p);
        let rel = relate(existing, &p);
        let result = |outcome, l: &Loaded<Preference>, reason: Option<String>| PreferenceResult {
            outcome,
            id: l.record.id.clone(),
            path: l.path.clone(),
            status: l.record.status,
            target_type: l.record.target_type,
            target: l.record.target.clone(),
            preference: l.record.preference,
            task_hints: l.record.task_hints.clone(),
            path_hints: l.record.path_hints.clone(),
            conflicts_with: Vec::new(),
            dismissed_reason: reason,
        };
        if let Some(l) = rel.present {
            return Ok(Planned {
                result: result(AddOutcome::AlreadyPresent, l, None),
                record: None,
                redactions: Vec::new(),
            });
        }
        if let Some(l) = rel.dismissed {
            let reason = l.record.review.reason.clone();
            return Ok(Planned {
                result: result(AddOutcome::DismissedBefore, l, reason),
                record: None,
                redactions: Vec::new(),
            });
        }
        let captured = now.to_string();
        let actor = actor.unwrap_or_default();
        let title = format!("{} {}", p.preference.as_str(), p.target);
        let hints = [p.task_hints.join("\n"), p.path_hints.join("\n")].join("\0");
        let mut id = None;
        for attempt in 0..1000_u32 {
            let candidate = MemoryId::generate(
                &title,
                &[
                    p.target_type.as_str(),
                    &hints,
                    &captured,
                    actor,
                    &attempt.to_string(),
                ],
            );
            if !self.store().record_exists(&candidate) && !planned.contains(&candidate) {
                id = Some(candidate);
                break;
            }
        }
        p.id = id.ok_or(store::Error::IdExhausted)?;
        for r in &mut redactions {
            r.id = p.id.clone();
        }
        let layout = self.store().layout();
        Ok(Planned {
            result: PreferenceResult {
                outcome: AddOutcome::Created,
                id: p.id.clone(),
                path: layout.relative(&layout.preference_file(&p.id)),
                status: p.status,
                target_type: p.target_type,
                target: p.target.clone(),
                preference: p.preference,
                task_hints: p.task_hints.clone(),
                path_hints: p.path_hints.clone(),
                conflicts_with: rel.conflicts.iter().map(|l| l.record.id.clone()).collect(),
                dismissed_reason: None,
            },
            record: Some(p),
            redactions,
        })
    }

    /// Writes a planned preference, if it is new. The id was checked free
    /// under the same lock, so a taken one means another writer ignored it.
    fn write(&self, lock: &WriteLock, planned: &Planned) -> Result<(), Error> {
        if let Some(p) = &planned.record {
            self.store()
                .create_preference_if_absent(lock, p)?
                .ok_or(store::Error::IdExhausted)?;
        }
        Ok(())
    }

    /// `brain preference approve ID`: a candidate, or an active preference
    /// still marked pending review, becomes active with review `approved`.
    /// Refused while an active preference sets another policy for the same
    /// scope.
    pub fn preference_approve(
        &self,
        query: &str,
        now: Timestamp,
        actor: Option<&str>,
    ) -> Result<PreferenceApproveReport, Error> {
        let lock = self.store().lock()?;
        let catalog = self.store().load();
        let l = find_preference(&catalog, query)?;
        let pending = l.record.review.state == Some(ReviewState::Pending);
        let approvable =
            l.record.status == Status::Candidate || (l.record.status == Status::Active && pending);
        if !approvable || l.record.lineage.superseded_by.is_some() {
            return Err(Error::Transition {
                action: "approve",
                id: l.record.id.to_string(),
                message: format!(
                    "it is `{}`{}; only candidates and preferences pending review are approved",
                    l.record.status,
                    if l.record.status == Status::Active {
                        " and already approved"
                    } else {
                        ""
                    }
                ),
            });
        }
        require_readable(&catalog)?;
        let rel = relate(&catalog.preferences, &l.record);
        if !rel.conflicts.is_empty() {
            return Err(conflict_error(&l.record, &rel.conflicts, true));
        }
        let mut p = l.record.clone();
        p.status = Status::Active;
        p.review = approved(now, actor);
        p.normalize();
        self.store().rewrite_preference(&lock, &l.path, &p)?;
        Ok(PreferenceApproveReport {
            approved: change(l, &p),
        })
    }

    /// `brain preference dismiss ID`: a candidate becomes `dismissed`, its
    /// review `rejected` with the reason (redacted), time and actor.
    pub fn preference_dismiss(
        &self,
        query: &str,
        reason: Option<&str>,
        now: Timestamp,
        actor: Option<&str>,
    ) -> Result<PreferenceDismissReport, Error> {
        let lock = self.store().lock()?;
        let catalog = self.store().load();
        let l = find_preference(&catalog, query)?;
        if l.record.status != Status::Candidate {
            return Err(Error::Transition {
                action: "dismiss",
                id: l.record.id.to_string(),
                message: format!(
                    "it is `{}`; only candidates can be dismissed",
                    l.record.status
                ),
            });
        }
        let reason = reason
            .map(str::trim)
            .filter(|r| !r.is_empty())
            .map(|r| secrets::redact(r).0);
        let mut p = l.record.clone();
        p.status = Status::Dismissed;
        p.review = Review {
            state: Some(ReviewState::Rejected),
            decided_at: Some(now),
            decided_by: actor.map(str::to_owned),
            reason: reason.clone(),
        };
        p.normalize();
        self.store().rewrite_preference(&lock, &l.path, &p)?;
        Ok(PreferenceDismissReport {
            dismissed: change(l, &p),
            reason,
        })
    }

    /// `brain preference supersede NEW OLD`: `OLD` becomes `superseded`
    /// with `superseded_by: NEW`; `NEW` gains `OLD` in `supersedes` and one
    /// version, and is the one left active. Unlike memories, `NEW` may be a
    /// candidate: superseding approves it, which is how a contradicting
    /// candidate replaces the active preference it conflicts with.
    pub fn preference_supersede(
        &self,
        new_query: &str,
        old_query: &str,
        now: Timestamp,
        actor: Option<&str>,
    ) -> Result<PreferenceSupersedeReport, Error> {
        let lock = self.store().lock()?;
        let catalog = self.store().load();
        let new = find_preference(&catalog, new_query)?;
        let old = find_preference(&catalog, old_query)?;
        let refuse = |id: &MemoryId, message: String| Error::Transition {
            action: "supersede",
            id: id.to_string(),
            message,
        };
        if new.record.id == old.record.id {
            return Err(refuse(
                &old.record.id,
                "a preference cannot supersede itself".into(),
            ));
        }
        if !matches!(new.record.status, Status::Active | Status::Candidate)
            || new.record.lineage.superseded_by.is_some()
        {
            return Err(refuse(
                &old.record.id,
                format!(
                    "the replacement `{}` is `{}`; it must be active or a candidate",
                    new.record.id, new.record.status
                ),
            ));
        }
        if !old.record.status.can_become(Status::Superseded)
            || old.record.status == Status::Superseded
        {
            return Err(refuse(
                &old.record.id,
                format!(
                    "it is `{}`; only active or stale preferences can be superseded",
                    old.record.status
                ),
            ));
        }
        require_readable(&catalog)?;
        let others: Vec<Loaded<Preference>> = catalog
            .preferences
            .iter()
            .filter(|l| l.record.id != old.record.id)
            .cloned()
            .collect();
        let rel = relate(&others, &new.record);
        if !rel.conflicts.is_empty() {
            return Err(conflict_error(&new.record, &rel.conflicts, true));
        }
        let mut new_p = new.record.clone();
        let mut old_p = old.record.clone();
        if new_p.status == Status::Candidate || new_p.review.state == Some(ReviewState::Pending) {
            new_p.review = approved(now, actor);
        }
        new_p.status = Status::Active;
        new_p.lineage.supersedes.push(old_p.id.clone());
        new_p.lineage.version += 1;
        new_p.normalize();
        old_p.status = Status::Superseded;
        old_p.lineage.superseded_by = Some(new_p.id.clone());
        old_p.normalize();
        // The replacement first: a crash in between leaves a one-way link
        // that lint reports, never a superseded preference without a successor.
        self.store().rewrite_preference(&lock, &new.path, &new_p)?;
        self.store().rewrite_preference(&lock, &old.path, &old_p)?;
        Ok(PreferenceSupersedeReport {
            new: change(new, &new_p),
            old: change(old, &old_p),
        })
    }

    /// `brain preference capture`: every sentence of `text` that states a
    /// preference becomes a candidate (source `feedback`, the sentence as its
    /// reason), unless the same preference is already there or was
    /// dismissed. Everything is planned before anything is written; with no
    /// preference in the text, nothing is written.
    pub fn preference_capture(
        &self,
        text: &str,
        confidence: Option<f64>,
        now: Timestamp,
        actor: Option<&str>,
    ) -> Result<PreferenceCaptureReport, Error> {
        let confidence = match confidence {
            None => Confidence::FULL,
            Some(v) => Confidence::new(v).ok_or_else(|| Error::InvalidInput {
                field: "confidence",
                message: format!("{v} is outside the range 0 to 1"),
            })?,
        };
        let lock = self.store().lock()?;
        let catalog = self.store().load();
        require_readable(&catalog)?;
        let mut existing = catalog.preferences;
        let mut captured = Vec::new();
        let mut ignored = Vec::new();
        let mut plans = Vec::new();
        let mut planned_ids: Vec<MemoryId> = Vec::new();
        // The boundary of the secret firewall: targets, hints and reasons
        // are derived from the sentences, so the text is redacted first.
        let (text, _) = secrets::redact(text);
        for sentence in phrase::sentences(&text) {
            let shown = sentence.text.clone();
            let phrase = match phrase::parse(&sentence.text) {
                Ok(p) => p,
                Err(why) => {
                    ignored.push(IgnoredSentence {
                        line: sentence.line,
                        sentence: shown,
                        reason: why,
                        message: why.message().to_owned(),
                    });
                    continue;
                }
            };
            let (target_type, source) = infer_type(&phrase, &existing);
            let new = NewPreference {
                target_type,
                target: phrase.target.clone(),
                kind: phrase.kind,
                task_hints: phrase.task_hints.clone(),
                path_hints: phrase.path_hints.clone(),
                reason: sentence.text.clone(),
                confidence: None,
                status: Some(Status::Candidate),
                source: Source::Feedback,
                evidence: Vec::new(),
            };
            let template = template(&new, Status::Candidate, confidence, now, actor);
            let planned = match self.plan(&existing, template, &planned_ids, now, actor) {
                Ok(p) => p,
                Err(Error::InvalidInput { message, .. }) => {
                    ignored.push(IgnoredSentence {
                        line: sentence.line,
                        sentence: shown,
                        reason: phrase::NoPreference::NoTarget,
                        message,
                    });
                    continue;
                }
                Err(e) => return Err(e),
            };
            if let Some(p) = &planned.record {
                planned_ids.push(p.id.clone());
                // Later sentences see this one: saying it twice writes it once.
                existing.push(Loaded {
                    path: planned.result.path.clone(),
                    record: p.clone(),
                });
            }
            captured.push(CapturedPreference {
                line: sentence.line,
                sentence: shown,
                target_type_source: source,
                alternative: phrase.alternative.clone(),
                result: planned.result.clone(),
            });
            plans.push(planned);
        }
        let mut redactions = Vec::new();
        for planned in plans {
            self.write(&lock, &planned)?;
            redactions.extend(planned.redactions);
        }
        Ok(PreferenceCaptureReport {
            captured,
            ignored,
            redactions,
        })
    }
}

/// The target type a sentence gives, else the one every stored preference
/// about the same target has, else `skill`.
fn infer_type(phrase: &Phrase, existing: &[Loaded<Preference>]) -> (TargetType, TargetTypeSource) {
    if let Some(t) = phrase.target_type {
        return (t, TargetTypeSource::Text);
    }
    let mut types: Vec<TargetType> = existing
        .iter()
        .filter(|l| normalize_skill(&l.record.target).as_deref() == Some(phrase.target.as_str()))
        .map(|l| l.record.target_type)
        .collect();
    types.sort();
    types.dedup();
    match types.as_slice() {
        [only] => (*only, TargetTypeSource::Store),
        _ => (TargetType::Skill, TargetTypeSource::Default),
    }
}

/// The record for `new`, with a placeholder id.
fn template(
    new: &NewPreference,
    status: Status,
    confidence: Confidence,
    now: Timestamp,
    actor: Option<&str>,
) -> Preference {
    Preference {
        schema_version: SchemaVersion::CURRENT,
        id: MemoryId::generate("", &[]),
        status,
        target_type: new.target_type,
        target: new.target.trim().to_owned(),
        preference: new.kind,
        confidence,
        reason: new.reason.clone(),
        task_hints: new.task_hints.clone(),
        path_hints: new.path_hints.clone(),
        validity: Validity::default(),
        lineage: Lineage::default(),
        provenance: Provenance {
            source: new.source,
            captured_at: now,
            proposed_by: actor.map(str::to_owned),
            evidence: new.evidence.clone(),
        },
        review: if status == Status::Candidate {
            Review {
                state: Some(ReviewState::Pending),
                ..Review::default()
            }
        } else {
            Review::default()
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Workflow;
    use crate::model::PreferenceKind;

    const NOW: &str = "2026-11-20T12:00:00Z";

    fn brain() -> (tempfile::TempDir, Brain) {
        let dir = tempfile::tempdir().unwrap();
        Brain::init(dir.path(), Workflow::RecommendedSemiAuto, false).unwrap();
        let brain = Brain::open(dir.path()).unwrap();
        (dir, brain)
    }

    fn new(kind: PreferenceKind, target: &str, tasks: &[&str]) -> NewPreference {
        NewPreference {
            target_type: TargetType::Skill,
            target: target.into(),
            kind,
            task_hints: tasks.iter().map(|s| (*s).to_owned()).collect(),
            path_hints: Vec::new(),
            reason: String::new(),
            confidence: None,
            status: None,
            source: Source::Manual,
            evidence: Vec::new(),
        }
    }

    #[test]
    fn add_twice_writes_once_and_conflicts_are_refused_unless_candidate() {
        let (_dir, brain) = brain();
        let now: Timestamp = NOW.parse().unwrap();
        let mut first = new(PreferenceKind::Avoid, "Legacy Router", &["payments"]);
        first.status = Some(Status::Active);
        let a = brain.preference_add(&first, now, Some("ann")).unwrap();
        assert_eq!(a.result.outcome, AddOutcome::Created);
        assert_eq!(a.result.target, "legacy-router");
        assert!(a.result.id.as_str().starts_with("avoid-legacy-router-"));
        let again = brain
            .preference_add(
                &new(PreferenceKind::Avoid, "legacy_router", &["payment"]),
                now,
                Some("bob"),
            )
            .unwrap();
        assert_eq!(again.result.outcome, AddOutcome::AlreadyPresent);
        assert_eq!(again.result.id, a.result.id);
        let mut prefer = new(PreferenceKind::Prefer, "legacy-router", &["payments"]);
        prefer.status = Some(Status::Active);
        let err = brain.preference_add(&prefer, now, None).unwrap_err();
        assert!(matches!(err, Error::Conflict { .. }), "{err}");
        prefer.status = Some(Status::Candidate);
        let c = brain.preference_add(&prefer, now, None).unwrap();
        assert_eq!(c.result.conflicts_with, std::slice::from_ref(&a.result.id));
        let err = brain
            .preference_approve(c.result.id.as_str(), now, None)
            .unwrap_err();
        assert!(matches!(err, Error::Conflict { .. }), "{err}");
        let s = brain
            .preference_supersede(c.result.id.as_str(), a.result.id.as_str(), now, Some("ann"))
            .unwrap();
        assert_eq!(
            (s.new.from, s.new.to, s.new.version),
            (Status::Candidate, Status::Active, 2)
        );
        assert_eq!((s.old.from, s.old.to), (Status::Active, Status::Superseded));
        let catalog = brain.store().load_uncached();
        assert_eq!(catalog.preferences.len(), 2);
        assert!(catalog.problems.is_empty());
    }

    #[test]
    fn approve_takes_candidates_and_active_preferences_pending_review() {
        let (_dir, brain) = brain();
        let now: Timestamp = NOW.parse().unwrap();
        let mut pending = template(
            &new(PreferenceKind::RequireReview, "db-reset", &[]),
            Status::Active,
            Confidence::FULL,
            now,
            None,
        );
        pending.id = MemoryId::new("require-review-db-reset-00000001").unwrap();
        pending.review.state = Some(ReviewState::Pending);
        let lock = brain.store().lock().unwrap();
        brain
            .store()
            .create_preference_if_absent(&lock, &pending)
            .unwrap();
        drop(lock);
        let r = brain
            .preference_approve("require-review-db", now, Some("ann"))
            .unwrap();
        assert_eq!(
            (r.approved.from, r.approved.to),
            (Status::Active, Status::Active)
        );
        let stored = &brain.store().load_uncached().preferences[0].record;
        assert_eq!(stored.review.state, Some(ReviewState::Approved));
        assert_eq!(stored.review.decided_by.as_deref(), Some("ann"));
        let again = brain.preference_approve("require-review-db", now, None);
        assert!(matches!(again, Err(Error::Transition { .. })));
    }

    #[test]
    fn capture_writes_candidates_once_and_ignores_sentences_without_preference() {
        let (_dir, brain) = brain();
        let now: Timestamp = NOW.parse().unwrap();
        let text = "Avoid the legacy-router skill for payments work. The build was slow.\nNever use legacy_router for payments!";
        let r = brain.preference_capture(text, None, now, None).unwrap();
        let outcomes: Vec<(AddOutcome, &str)> = r
            .captured
            .iter()
            .map(|c| (c.result.outcome, c.result.target.as_str()))
            .collect();
        assert_eq!(
            outcomes,
            [
                (AddOutcome::Created, "legacy-router"),
                (AddOutcome::AlreadyPresent, "legacy-router")
            ]
        );
        assert_eq!(r.captured[1].target_type_source, TargetTypeSource::Store);
        assert_eq!(r.ignored.len(), 1);
        let catalog = brain.store().load_uncached();
        assert_eq!(catalog.preferences.len(), 1);
        assert_eq!(catalog.preferences[0].record.status, Status::Candidate);
        assert_eq!(
            catalog.preferences[0].record.provenance.source,
            Source::Feedback
        );
        let none = brain
            .preference_capture("thanks!", None, now, None)
            .unwrap();
        assert!(none.captured.is_empty());
    }
}
