//! Text rendering of `brain setup` and `brain export`.

use std::io::{self, Write};

use brain_core::setup::{Action, SetupReport};

use super::Render;

fn word(action: Action, planning: bool) -> &'static str {
    match (action, planning) {
        (Action::Create, false) => "created",
        (Action::Create, true) => "would create",
        (Action::Update, false) => "updated",
        (Action::Update, true) => "would update",
        (Action::Unchanged, _) => "unchanged",
        (Action::Skip, _) => "skipped",
    }
}

impl Render for SetupReport {
    fn render(&self, w: &mut dyn Write) -> io::Result<()> {
        let planning = self.check || self.dry_run;
        for f in &self.files {
            write!(w, "{:<13} {}", word(f.action, planning), f.path)?;
            match &f.reason {
                Some(r) => writeln!(w, ": {r}")?,
                None => writeln!(w)?,
            }
        }
        for g in &self.git_config {
            writeln!(w, "{:<13} git config {}", word(g.action, planning), g.key)?;
        }
        if self.check {
            writeln!(
                w,
                "{}",
                if self.drift {
                    "setup is out of date: run `brain setup`"
                } else {
                    "setup is up to date"
                }
            )?;
        }
        Ok(())
    }
}

impl Render for brain_core::export::ExportReport {
    fn render(&self, w: &mut dyn Write) -> io::Result<()> {
        for f in &self.files {
            writeln!(w, "{:<13} {}", word(f.action, self.check), f.path)?;
        }
        for r in &self.removed {
            let verb = if self.check {
                "would remove"
            } else {
                "removed"
            };
            writeln!(w, "{verb:<13} {r}")?;
        }
        let n = self.memories;
        let s = if n == 1 { "memory" } else { "memories" };
        if self.check {
            let state = if self.drift {
                "out of date: run `brain export`"
            } else {
                "up to date"
            };
            writeln!(w, "{n} {s}; export is {state}")
        } else {
            writeln!(w, "{n} {s} exported")
        }
    }
}
