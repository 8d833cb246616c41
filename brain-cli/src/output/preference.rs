//! Text rendering of the `brain preference …` reports.

use std::io::{self, Write};

use brain_core::model::{ReviewState, Status};
use brain_core::prefs::{
    AddOutcome, PreferenceAddReport, PreferenceApproveReport, PreferenceCaptureReport,
    PreferenceDismissReport, PreferenceListReport, PreferenceResult, PreferenceShowReport,
    PreferenceSupersedeReport, TargetTypeSource,
};

use super::{Render, plural};

/// `tasks: a, b; paths: c`, or `everywhere` without hints.
fn hints(task: &[String], path: &[String]) -> String {
    let mut parts = Vec::new();
    if !task.is_empty() {
        parts.push(format!("tasks: {}", task.join(", ")));
    }
    if !path.is_empty() {
        parts.push(format!("paths: {}", path.join(", ")));
    }
    if parts.is_empty() {
        "everywhere".to_owned()
    } else {
        parts.join("; ")
    }
}

impl Render for PreferenceListReport {
    fn render(&self, w: &mut dyn Write) -> io::Result<()> {
        let id_w = self
            .preferences
            .iter()
            .map(|p| p.id.as_str().len())
            .max()
            .unwrap_or(2);
        let target_w = self
            .preferences
            .iter()
            .map(|p| p.target.len())
            .max()
            .unwrap_or(6);
        for p in &self.preferences {
            let mark = match (p.status, p.in_force) {
                (Status::Candidate, _) => '?',
                (_, true) => ' ',
                (_, false) => '-',
            };
            writeln!(
                w,
                "{mark} {:<id_w$}  {:<10}  {:<14}  {:<10}  {:<target_w$}  {}",
                p.id.as_str(),
                p.status.as_str(),
                p.preference.as_str(),
                p.target_type.as_str(),
                p.target,
                hints(&p.task_hints, &p.path_hints)
            )?;
        }
        Ok(())
    }
}

impl Render for PreferenceShowReport {
    fn render(&self, w: &mut dyn Write) -> io::Result<()> {
        writeln!(w, "# {}", self.path)?;
        let p = &self.preference;
        if !self.in_force {
            let why = match (p.status, &p.lineage.superseded_by) {
                (_, Some(by)) => format!("superseded by {by}"),
                (Status::Candidate, _) => format!(
                    "candidate, until approved with `brain preference approve {}`",
                    p.id
                ),
                (Status::Active, _) if p.review.state == Some(ReviewState::Pending) => {
                    "pending review".to_owned()
                }
                (Status::Active, _) => "outside its validity window".to_owned(),
                (other, _) => other.as_str().to_owned(),
            };
            writeln!(w, "# not in force: {why}")?;
        }
        w.write_all(brain_core::yaml::preference_to_string(p).as_bytes())
    }
}

impl Render for PreferenceAddReport {
    fn render(&self, w: &mut dyn Write) -> io::Result<()> {
        let r = &self.result;
        match r.outcome {
            AddOutcome::Created => writeln!(w, "{}", r.id),
            AddOutcome::AlreadyPresent => writeln!(
                w,
                "already present: {} ({}); nothing written",
                r.id, r.status
            ),
            AddOutcome::DismissedBefore => writeln!(
                w,
                "dismissed before: {}{}; nothing written",
                r.id,
                r.dismissed_reason
                    .as_deref()
                    .map(|reason| format!(" ({reason})"))
                    .unwrap_or_default()
            ),
        }
    }
}

fn render_result(w: &mut dyn Write, r: &PreferenceResult, type_note: &str) -> io::Result<()> {
    let verb = match r.outcome {
        AddOutcome::Created => format!("captured {}", r.status),
        AddOutcome::AlreadyPresent => format!("already present ({})", r.status),
        AddOutcome::DismissedBefore => "dismissed before".to_owned(),
    };
    writeln!(
        w,
        "{verb}: {} {} ({}{type_note}) {}",
        r.preference.as_str(),
        r.target,
        r.target_type.as_str(),
        r.id
    )?;
    writeln!(w, "    applies: {}", hints(&r.task_hints, &r.path_hints))?;
    for old in &r.conflicts_with {
        writeln!(w, "    conflicts with active {old}")?;
    }
    if let Some(reason) = &r.dismissed_reason {
        writeln!(w, "    dismissed: {reason}")?;
    }
    Ok(())
}

impl Render for PreferenceCaptureReport {
    fn render(&self, w: &mut dyn Write) -> io::Result<()> {
        for c in &self.captured {
            let note = match c.target_type_source {
                TargetTypeSource::Text => "",
                TargetTypeSource::Store => ", as stored before",
                TargetTypeSource::Default => ", by default",
            };
            render_result(w, &c.result, note)?;
            writeln!(w, "    line {}: {}", c.line, c.sentence)?;
            if let Some(alt) = &c.alternative {
                writeln!(
                    w,
                    "    over {alt}: kept in the reason; no avoid preference is written for it"
                )?;
            }
        }
        for i in &self.ignored {
            writeln!(w, "ignored line {}: {} ({})", i.line, i.sentence, i.message)?;
        }
        if self.captured.is_empty() {
            return writeln!(
                w,
                "no preference found: say prefer, avoid or require review and name the skill, workflow or task class (\"avoid the legacy-router skill for payments work\")"
            );
        }
        let count = |o: AddOutcome| {
            self.captured
                .iter()
                .filter(|c| c.result.outcome == o)
                .count()
        };
        let n = count(AddOutcome::Created);
        writeln!(
            w,
            "{n} {} captured, {} already present, {} dismissed before, {} {} ignored",
            plural(n, "preference", "preferences"),
            count(AddOutcome::AlreadyPresent),
            count(AddOutcome::DismissedBefore),
            self.ignored.len(),
            plural(self.ignored.len(), "sentence", "sentences"),
        )
    }
}

impl Render for PreferenceApproveReport {
    fn render(&self, w: &mut dyn Write) -> io::Result<()> {
        let a = &self.approved;
        writeln!(w, "approved {} ({} → {})", a.id, a.from, a.to)
    }
}

impl Render for PreferenceDismissReport {
    fn render(&self, w: &mut dyn Write) -> io::Result<()> {
        match &self.reason {
            Some(reason) => writeln!(w, "dismissed {}: {reason}", self.dismissed.id),
            None => writeln!(w, "dismissed {}", self.dismissed.id),
        }
    }
}

impl Render for PreferenceSupersedeReport {
    fn render(&self, w: &mut dyn Write) -> io::Result<()> {
        writeln!(
            w,
            "{} is superseded by {} (now version {})",
            self.old.id, self.new.id, self.new.version
        )?;
        if self.new.from != self.new.to {
            writeln!(
                w,
                "{} approved ({} → {})",
                self.new.id, self.new.from, self.new.to
            )?;
        }
        Ok(())
    }
}
