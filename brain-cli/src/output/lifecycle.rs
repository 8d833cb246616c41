//! Text of `brain status` and `brain sweep`.

use std::io::{self, Write};

use brain_core::report::serde_name as json_word;
use brain_core::status::StatusReport;
use brain_core::sweep::SweepReport;

use super::{Render, plural};

impl Render for StatusReport {
    fn render(&self, w: &mut dyn Write) -> io::Result<()> {
        let statuses: Vec<String> = self
            .by_status
            .iter()
            .filter(|(_, n)| **n > 0)
            .map(|(s, n)| format!("{} {n}", json_word(s)))
            .collect();
        let statuses = if statuses.is_empty() {
            String::new()
        } else {
            format!(" ({})", statuses.join(", "))
        };
        writeln!(w, "memories:       {}{statuses}", self.memories)?;
        writeln!(w, "preferences:    {}", self.preferences)?;
        writeln!(w, "pending review: {}", self.pending_review)?;
        match &self.last_load {
            Some(l) => writeln!(
                w,
                "last load:      {} by {}{}",
                l.at,
                l.command,
                l.task
                    .as_deref()
                    .map(|t| format!(" (task: {t})"))
                    .unwrap_or_default()
            )?,
            None => writeln!(w, "last load:      never")?,
        }
        writeln!(
            w,
            "problems:       {} {}, {} {}",
            self.errors,
            plural(self.errors, "error", "errors"),
            self.warnings,
            plural(self.warnings, "warning", "warnings")
        )?;
        writeln!(
            w,
            "housekeeping:   {} expired, {} stale",
            self.expired, self.stale
        )?;
        writeln!(w, "next step:      {}", self.next_step)
    }
}

impl Render for SweepReport {
    fn render(&self, w: &mut dyn Write) -> io::Result<()> {
        let verb = if self.dry_run {
            "would expire"
        } else {
            "expired"
        };
        for e in &self.expired {
            writeln!(
                w,
                "{verb}  {}  (expires {}: active -> done)",
                e.id, e.expires
            )?;
        }
        for s in &self.stale {
            writeln!(
                w,
                "stale  {}  (last seen {}, {} days ago)",
                s.id, s.last_seen, s.days
            )?;
        }
        for d in &self.near_duplicates {
            writeln!(
                w,
                "near duplicate  {} ~ {}  ({})",
                d.id,
                d.other,
                json_word(&d.relation)
            )?;
        }
        writeln!(
            w,
            "{} {verb}, {} stale (not seen for {} days), {} near-duplicate {}",
            self.expired.len(),
            self.stale.len(),
            self.stale_days,
            self.near_duplicates.len(),
            plural(self.near_duplicates.len(), "pair", "pairs")
        )
    }
}
