//! Text rendering of the routing-feedback, reinforce and failure reports.

use std::io::{self, Write};

use brain_core::failures::{
    DetectorOutcome, FailureOutcome, FailureReport, GotchaOutcome, RecordedFailure,
};
use brain_core::feedback::{
    ChangeAction, EventOutcome, ExplainReport, FeedbackReport, LedgerEntry, Level, LineError,
    Outcome, PreferenceChange, ReinforceReport, Reminder,
};

use super::{Render, json_word, plural};

fn outcome_words(e: &EventOutcome) -> String {
    match e.outcome {
        Outcome::AvoidProposed => "avoid proposed".to_owned(),
        Outcome::EvidenceAdded => "evidence added to the queued avoid".to_owned(),
        Outcome::AlreadyAvoided => "already avoided or reviewed by an active preference".to_owned(),
        Outcome::PreviouslyDismissed => {
            "an avoid for it was dismissed before; not proposed again".to_owned()
        }
        Outcome::PreferPendingReview => "active prefer marked for review".to_owned(),
        Outcome::AlreadyPendingReview => "the active prefer already waits for review".to_owned(),
        Outcome::ConflictNotStrong => {
            "conflicts with an active prefer; not strong enough to change it".to_owned()
        }
        Outcome::ConfidenceRaised => "confidence raised".to_owned(),
        Outcome::ConfidenceAtCap => format!(
            "confidence already at the cap ({:.2})",
            brain_core::feedback::CONFIDENCE_CAP
        ),
        Outcome::NoPreferPreference => "no prefer preference to raise".to_owned(),
        Outcome::ReminderQueued => "reminder queued".to_owned(),
        Outcome::TooWeak => format!(
            "too weak (below {:.2}): nothing changed",
            brain_core::feedback::WEAK_BELOW
        ),
        Outcome::Duplicate => match e.first_applied_at {
            Some(t) => format!("duplicate of an event applied at {t}: nothing changed"),
            None => "duplicate: nothing changed".to_owned(),
        },
    }
}

fn change_line(w: &mut dyn Write, c: &PreferenceChange) -> io::Result<()> {
    let action = match c.action {
        ChangeAction::Created => "created",
        ChangeAction::EvidenceAdded => "evidence added to",
        ChangeAction::ConfidenceRaised => "raised",
        ChangeAction::MarkedPendingReview => "marked for review",
        ChangeAction::Unchanged => "unchanged",
    };
    let confidence = if (c.confidence_after - c.confidence_before).abs() > f64::EPSILON {
        format!(
            "confidence {:.2} → {:.2}",
            c.confidence_before, c.confidence_after
        )
    } else {
        format!("confidence {:.2}", c.confidence_after)
    };
    writeln!(
        w,
        "    {action} {} ({}, {}, {confidence})",
        c.path,
        c.preference.as_str(),
        c.status
    )
}

fn error_line(w: &mut dyn Write, e: &LineError) -> io::Result<()> {
    let at = match e.column {
        Some(c) => format!("line {}:{c}", e.line),
        None => format!("line {}", e.line),
    };
    let field = e
        .field
        .as_deref()
        .filter(|f| !f.is_empty())
        .map(|f| format!(" `{f}`"))
        .unwrap_or_default();
    writeln!(
        w,
        "{at}: error ({}){field}: {}",
        json_word(&e.kind),
        e.message
    )
}

fn level_word(level: Level) -> &'static str {
    match level {
        Level::Weak => "weak",
        Level::Normal => "normal",
        Level::Strong => "strong",
    }
}

impl Render for FeedbackReport {
    fn render(&self, w: &mut dyn Write) -> io::Result<()> {
        let mut events = self.events.iter().peekable();
        let mut errors = self.errors.iter().peekable();
        loop {
            let next_event = events.peek().map(|e| e.line);
            let next_error = errors.peek().map(|e| e.line);
            match (next_event, next_error) {
                (Some(a), Some(b)) if b < a => {
                    if let Some(e) = errors.next() {
                        error_line(w, e)?;
                    }
                }
                (Some(_), _) => {
                    if let Some(e) = events.next() {
                        writeln!(
                            w,
                            "line {}: {} {} `{}` ({}, {:.2}): {} [{}]",
                            e.line,
                            e.kind.as_str(),
                            e.target_type.as_str(),
                            e.target,
                            level_word(e.level),
                            e.strength,
                            outcome_words(e),
                            e.id
                        )?;
                        for c in &e.preferences {
                            change_line(w, c)?;
                        }
                        if let Some(r) = &e.reminder {
                            writeln!(w, "    reminder {r} queued")?;
                        }
                    }
                }
                (None, Some(_)) => {
                    if let Some(e) = errors.next() {
                        error_line(w, e)?;
                    }
                }
                (None, None) => break,
            }
        }
        let s = &self.summary;
        writeln!(
            w,
            "{} {}: {} applied, {} {}, {} {} refused; {} avoid proposed, {} evidence added, {} confidence raised, {} marked for review, {} {} queued",
            s.events,
            plural(s.events, "event", "events"),
            s.applied,
            s.duplicates,
            plural(s.duplicates, "duplicate", "duplicates"),
            s.errors,
            plural(s.errors, "line", "lines"),
            s.avoid_proposed,
            s.evidence_added,
            s.confidence_raised,
            s.pending_review,
            s.reminders_queued,
            plural(s.reminders_queued, "reminder", "reminders"),
        )
    }
}

fn ledger_line(w: &mut dyn Write, e: &LedgerEntry) -> io::Result<()> {
    let mut about = format!("{} `{}`", e.target_type.as_str(), e.target);
    if let Some(plan) = &e.plan_id {
        about.push_str(", plan ");
        about.push_str(plan);
    }
    let prefs: Vec<&str> = e
        .preferences
        .iter()
        .map(brain_core::model::MemoryId::as_str)
        .collect();
    writeln!(
        w,
        "  {}  {} ({about}, strength {:.2}) → {}{}{}  [{}]",
        e.applied_at,
        e.kind.as_str(),
        e.strength,
        json_word(&e.outcome),
        if prefs.is_empty() {
            String::new()
        } else {
            format!(": {}", prefs.join(", "))
        },
        if e.reminder { ", reminder" } else { "" },
        e.id
    )?;
    if let Some(task) = &e.task {
        writeln!(w, "      task: {task}")?;
    }
    if let Some(notes) = &e.notes {
        writeln!(w, "      notes: {}", one_line(notes))?;
    }
    Ok(())
}

fn one_line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn reminder_line(w: &mut dyn Write, r: &Reminder, indent: &str) -> io::Result<()> {
    let mut about = Vec::new();
    if let Some(s) = &r.skill {
        about.push(format!("skill `{s}`"));
    }
    if let Some(wf) = &r.workflow {
        about.push(format!("workflow `{wf}`"));
    }
    if let Some(p) = &r.plan_id {
        about.push(format!("plan {p}"));
    }
    writeln!(
        w,
        "{indent}{}  {} ({}), queued {}",
        r.id,
        r.kind.as_str(),
        about.join(", "),
        r.queued_at
    )?;
    if let Some(task) = &r.task {
        writeln!(w, "{indent}    task: {task}")?;
    }
    if let Some(notes) = &r.notes {
        writeln!(w, "{indent}    notes: {}", one_line(notes))?;
    }
    Ok(())
}

impl Render for ExplainReport {
    fn render(&self, w: &mut dyn Write) -> io::Result<()> {
        writeln!(w, "{}", self.target)?;
        if self.preferences.is_empty() {
            writeln!(w, "preferences: none")?;
        } else {
            writeln!(w, "preferences:")?;
            for p in &self.preferences {
                let review = p
                    .review_state
                    .map(|s| format!(", review {}", s.as_str()))
                    .unwrap_or_default();
                writeln!(
                    w,
                    "  {}  {} {} ({}{review}, confidence {:.2}){}",
                    p.path,
                    p.preference.as_str(),
                    p.target_type.as_str(),
                    p.status,
                    p.confidence,
                    if p.in_force {
                        "  in force"
                    } else {
                        "  not in force"
                    }
                )?;
            }
        }
        if self.events.is_empty() {
            writeln!(w, "events: none")?;
        } else {
            writeln!(w, "events:")?;
            for e in &self.events {
                ledger_line(w, e)?;
            }
        }
        if self.reminders.is_empty() {
            writeln!(w, "reminders: none")
        } else {
            writeln!(w, "reminders:")?;
            for r in &self.reminders {
                reminder_line(w, r, "  ")?;
            }
            Ok(())
        }
    }
}

impl Render for ReinforceReport {
    fn render(&self, w: &mut dyn Write) -> io::Result<()> {
        for r in &self.acknowledged {
            writeln!(w, "acknowledged {} ({})", r.id, r.kind.as_str())?;
        }
        for r in &self.pending {
            reminder_line(w, r, "")?;
        }
        let n = self.pending.len();
        writeln!(w, "{n} {} pending", plural(n, "reminder", "reminders"))
    }
}

fn failure_line(w: &mut dyn Write, f: &RecordedFailure) -> io::Result<()> {
    let s = &f.signature;
    let what = match f.outcome {
        FailureOutcome::Recorded => "recorded",
        FailureOutcome::Duplicate => "duplicate, nothing changed:",
    };
    writeln!(
        w,
        "line {}: {what} `{}` {} failure (signature {}, {} {}) [{}]",
        f.line,
        s.command,
        s.kind.as_str(),
        s.id,
        f.occurrences,
        plural(f.occurrences, "occurrence", "occurrences"),
        f.id
    )?;
    writeln!(w, "    {}", s.message)
}

impl Render for FailureReport {
    fn render(&self, w: &mut dyn Write) -> io::Result<()> {
        if let Some(d) = &self.detector {
            let program = d.program.as_deref().unwrap_or("none");
            match d.outcome {
                DetectorOutcome::Used => writeln!(w, "detector: {program}")?,
                DetectorOutcome::Refused => writeln!(
                    w,
                    "detector: {program} refused ({}); nothing recorded",
                    d.reason.as_deref().unwrap_or("")
                )?,
                DetectorOutcome::NotConfigured => {
                    writeln!(w, "detector: not configured; nothing recorded")?;
                }
            }
        }
        let mut failures = self.failures.iter().peekable();
        let mut errors = self.errors.iter().peekable();
        loop {
            let a = failures.peek().map(|f| f.line);
            let b = errors.peek().map(|e| e.line);
            match (a, b) {
                (Some(a), Some(b)) if b < a => {
                    if let Some(e) = errors.next() {
                        error_line(w, e)?;
                    }
                }
                (Some(_), _) => {
                    if let Some(f) = failures.next() {
                        failure_line(w, f)?;
                    }
                }
                (None, Some(_)) => {
                    if let Some(e) = errors.next() {
                        error_line(w, e)?;
                    }
                }
                (None, None) => break,
            }
        }
        for g in &self.gotchas {
            let what = match g.outcome {
                GotchaOutcome::Proposed => "candidate gotcha proposed",
                GotchaOutcome::AlreadyPresent => "gotcha already present",
            };
            writeln!(
                w,
                "{what}: {} (signature {}, {} occurrences)",
                g.path, g.signature, g.occurrences
            )?;
        }
        let s = &self.summary;
        writeln!(
            w,
            "{} {}: {} recorded, {} {}, {} {} refused; {} {} proposed",
            s.failures,
            plural(s.failures, "failure", "failures"),
            s.recorded,
            s.duplicates,
            plural(s.duplicates, "duplicate", "duplicates"),
            s.errors,
            plural(s.errors, "line", "lines"),
            s.gotchas_proposed,
            plural(s.gotchas_proposed, "gotcha", "gotchas"),
        )
    }
}
