//! The single output layer: `--format text|json`, stdout for data only,
//! stderr for warnings and status, and the text rendering of every report.
//!
//! With `--format json` stdout carries exactly one JSON document: the report,
//! or `{"error": …}` when the command failed.

use std::fmt::Display;
use std::io::{self, Write};

use brain_core::lint::{LintReport, Severity};
use brain_core::report::serde_name as json_word;
use brain_core::report::{
    AddReport, DismissReport, ErrorBody, ErrorReport, InitOutcomeName, InitReport, ListReport,
    NormalizeReport, ShowReport, StatsReport, SupersedeReport,
};
use brain_core::store::FileProblem;
use serde::Serialize;

use crate::error::CliError;

mod check;
mod feedback;
mod integration;
mod lifecycle;
mod preference;

/// Output format of the command's data.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum Format {
    /// For people.
    #[default]
    Text,
    /// One JSON document, for programs.
    Json,
    /// GitHub Actions annotations (`brain check` only).
    Github,
    /// A SARIF 2.1.0 log (`brain check` only).
    Sarif,
}

impl Format {
    /// Whether only `brain check` writes this format.
    pub(crate) fn is_check_only(self) -> bool {
        matches!(self, Format::Github | Format::Sarif)
    }
}

/// Human-readable rendering of a report. JSON comes from `Serialize`.
pub(crate) trait Render {
    fn render(&self, w: &mut dyn Write) -> io::Result<()>;
}

/// Where a command writes.
pub(crate) struct Output<'a> {
    format: Format,
    quiet: bool,
    stdout: &'a mut dyn Write,
    stderr: &'a mut dyn Write,
}

impl<'a> Output<'a> {
    pub(crate) fn new(
        format: Format,
        quiet: bool,
        stdout: &'a mut dyn Write,
        stderr: &'a mut dyn Write,
    ) -> Output<'a> {
        Output {
            format,
            quiet,
            stdout,
            stderr,
        }
    }

    /// Writes the command's result: the only thing that ever goes to stdout.
    pub(crate) fn emit<T: Serialize + Render>(&mut self, value: &T) -> io::Result<()> {
        match self.format {
            Format::Json => {
                serde_json::to_writer_pretty(&mut *self.stdout, value).map_err(io::Error::other)?;
                writeln!(self.stdout)?;
            }
            Format::Text | Format::Github | Format::Sarif => value.render(&mut *self.stdout)?,
        }
        self.stdout.flush()
    }

    /// stdout itself, for `brain mcp`, whose data is a protocol spoken there.
    pub(crate) fn protocol_writer(&mut self) -> &mut dyn Write {
        &mut *self.stdout
    }

    /// Writes one line of data another program defined the shape of (an
    /// agent's hook output), whatever the format.
    pub(crate) fn data_line(&mut self, line: &str) -> io::Result<()> {
        writeln!(self.stdout, "{line}")?;
        self.stdout.flush()
    }

    /// Writes `brain check`'s report in any of the four formats.
    pub(crate) fn emit_check(&mut self, report: &brain_core::check::CheckReport) -> io::Result<()> {
        match self.format {
            Format::Github => check::render_github(report, &mut *self.stdout)?,
            Format::Sarif => {
                serde_json::to_writer_pretty(&mut *self.stdout, &check::to_sarif(report))
                    .map_err(io::Error::other)?;
                writeln!(self.stdout)?;
            }
            Format::Text | Format::Json => return self.emit(report),
        }
        self.stdout.flush()
    }

    /// Writes text that is the command's data whatever the format (a shell
    /// completion script).
    pub(crate) fn emit_text(&mut self, text: &str) -> io::Result<()> {
        self.stdout.write_all(text.as_bytes())?;
        self.stdout.flush()
    }

    /// Progress and confirmations for people; silenced by `--quiet`.
    pub(crate) fn status(&mut self, msg: impl Display) -> io::Result<()> {
        if self.quiet {
            return Ok(());
        }
        writeln!(self.stderr, "{msg}")
    }

    /// A warning; always shown.
    pub(crate) fn warn(&mut self, msg: impl Display) -> io::Result<()> {
        writeln!(self.stderr, "warning: {msg}")
    }

    /// Warnings for files a read command skipped.
    pub(crate) fn warn_skipped(&mut self, problems: &[FileProblem]) -> io::Result<()> {
        for p in problems {
            self.warn(format_args!("skipped {}: {}", location(p), p.message))?;
        }
        Ok(())
    }

    /// Reports a failed command: the cause chain and hints on stderr, and in
    /// JSON mode an error document on stdout.
    /// Paths inside `root` are shown relative to it.
    pub(crate) fn error(
        &mut self,
        err: &CliError,
        root: Option<&std::path::Path>,
    ) -> io::Result<()> {
        let mut chain = err.chain();
        if let Some(root) = root {
            let prefix = format!("{}/", root.display());
            for line in &mut chain {
                *line = line.replace(&prefix, "");
            }
        }
        writeln!(self.stderr, "error: {}", chain[0])?;
        for cause in &chain[1..] {
            writeln!(self.stderr, "  caused by: {cause}")?;
        }
        for hint in &err.hints {
            writeln!(self.stderr, "hint: {hint}")?;
        }
        if self.format == Format::Json {
            let doc = ErrorReport {
                error: ErrorBody {
                    message: chain[0].clone(),
                    causes: chain[1..].to_vec(),
                    hints: err.hints.clone(),
                    exit_code: err.status().code(),
                },
            };
            serde_json::to_writer_pretty(&mut *self.stdout, &doc).map_err(io::Error::other)?;
            writeln!(self.stdout)?;
        }
        Ok(())
    }
}

/// An error found by the argument parser.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub(crate) struct UsageError(pub(crate) String);

/// `path:line:column`, as far as known.
fn location(p: &FileProblem) -> String {
    match (p.line, p.column) {
        (Some(l), Some(c)) => format!("{}:{l}:{c}", p.path),
        (Some(l), None) => format!("{}:{l}", p.path),
        _ => p.path.clone(),
    }
}

impl Render for InitReport {
    fn render(&self, w: &mut dyn Write) -> io::Result<()> {
        let what = match self.outcome {
            InitOutcomeName::Created => "created",
            InitOutcomeName::AlreadyInitialized => "already initialized",
            InitOutcomeName::Overwritten => "overwrote",
        };
        let s = &self.settings;
        writeln!(
            w,
            "{what} {} (workflow {}: trigger {}, capture {}, safe auto-approval {})",
            self.config_path,
            self.workflow,
            json_word(&s.trigger_mode),
            json_word(&s.capture_mode),
            if s.auto_approve_safe { "on" } else { "off" }
        )
    }
}

impl Render for AddReport {
    fn render(&self, w: &mut dyn Write) -> io::Result<()> {
        writeln!(w, "{}", self.id)
    }
}

impl Render for ListReport {
    fn render(&self, w: &mut dyn Write) -> io::Result<()> {
        let id_w = self
            .memories
            .iter()
            .map(|m| m.id.as_str().len())
            .max()
            .unwrap_or(2);
        for m in &self.memories {
            writeln!(
                w,
                "{:<id_w$}  {:<10}  {:<10}  {:<8}  {}",
                m.id.as_str(),
                m.kind.as_str(),
                m.status.as_str(),
                m.importance.as_str(),
                shown(&m.title)
            )?;
        }
        Ok(())
    }
}

impl Render for ShowReport {
    fn render(&self, w: &mut dyn Write) -> io::Result<()> {
        writeln!(w, "# {}", self.path)?;
        let text = brain_core::yaml::memory_to_string(&self.memory);
        for line in text.split_inclusive('\n') {
            let (body, end) = line.strip_suffix('\n').map_or((line, ""), |b| (b, "\n"));
            write!(w, "{}{end}", shown(body))?;
        }
        Ok(())
    }
}

impl Render for StatsReport {
    fn render(&self, w: &mut dyn Write) -> io::Result<()> {
        writeln!(w, "memories: {}", self.memories)?;
        let line = |w: &mut dyn Write, label: &str, pairs: Vec<(String, usize)>| {
            let parts: Vec<String> = pairs.iter().map(|(k, v)| format!("{k} {v}")).collect();
            writeln!(w, "  {label:<12} {}", parts.join(", "))
        };
        line(
            w,
            "by type:",
            self.by_type
                .iter()
                .map(|(k, v)| (k.to_string(), *v))
                .collect(),
        )?;
        line(
            w,
            "by status:",
            self.by_status
                .iter()
                .map(|(k, v)| (k.to_string(), *v))
                .collect(),
        )?;
        line(
            w,
            "importance:",
            self.by_importance
                .iter()
                .map(|(k, v)| (k.as_str().to_owned(), *v))
                .collect(),
        )?;
        writeln!(w, "preferences: {}", self.preferences)?;
        line(
            w,
            "by policy:",
            self.preferences_by_kind
                .iter()
                .map(|(k, v)| (k.as_str().to_owned(), *v))
                .collect(),
        )?;
        line(
            w,
            "by status:",
            self.preferences_by_status
                .iter()
                .map(|(k, v)| (k.to_string(), *v))
                .collect(),
        )?;
        writeln!(w, "invalid files: {}", self.invalid_files)
    }
}

impl Render for LintReport {
    fn render(&self, w: &mut dyn Write) -> io::Result<()> {
        for f in &self.findings {
            let loc = match (f.line, f.column) {
                (Some(l), Some(c)) => format!("{}:{l}:{c}", f.path),
                (Some(l), None) => format!("{}:{l}", f.path),
                _ => f.path.clone(),
            };
            let sev = match f.severity {
                Severity::Error => "error",
                Severity::Warning => "warning",
            };
            writeln!(w, "{loc}: {sev}[{}]: {}", f.code, f.message)?;
        }
        writeln!(
            w,
            "{} {}, {} {} in {} {}",
            self.errors,
            plural(self.errors, "error", "errors"),
            self.warnings,
            plural(self.warnings, "warning", "warnings"),
            self.files_checked,
            plural(self.files_checked, "file", "files"),
        )
    }
}

impl Render for NormalizeReport {
    fn render(&self, w: &mut dyn Write) -> io::Result<()> {
        let verb = if self.check {
            "not canonical"
        } else {
            "rewrote"
        };
        for path in &self.changed {
            writeln!(w, "{verb}: {path}")?;
        }
        for d in &self.diffs {
            w.write_all(d.diff.as_bytes())?;
        }
        for p in &self.skipped {
            writeln!(w, "skipped: {}: {}", location(p), p.message)?;
        }
        let n = self.changed.len();
        let summary = if self.check {
            format!("{n} of {} files not in canonical form", self.files_checked)
        } else {
            format!("{n} of {} files rewritten", self.files_checked)
        };
        writeln!(w, "{summary}")
    }
}

impl Render for SupersedeReport {
    fn render(&self, w: &mut dyn Write) -> io::Result<()> {
        writeln!(
            w,
            "{} is superseded by {} (now version {})",
            self.old.id, self.new.id, self.new.version
        )
    }
}

impl Render for DismissReport {
    fn render(&self, w: &mut dyn Write) -> io::Result<()> {
        for d in &self.dismissed {
            writeln!(w, "dismissed {}", d.id)?;
        }
        let n = self.dismissed.len();
        writeln!(w, "{n} {} dismissed", plural(n, "candidate", "candidates"))
    }
}

impl Render for brain_core::approve::ReviewReport {
    fn render(&self, w: &mut dyn Write) -> io::Result<()> {
        for item in &self.items {
            let o = &item.outcome;
            writeln!(
                w,
                "{}  {}  {}{}",
                item.id,
                json_word(&o.decision),
                json_word(&o.relation),
                if item.safe { "  (safe)" } else { "" }
            )?;
            writeln!(
                w,
                "    {} ({}, {})",
                shown(&item.title),
                item.kind,
                item.status
            )?;
            if !o.targets.is_empty() {
                let targets: Vec<&str> = o
                    .targets
                    .iter()
                    .map(brain_core::model::MemoryId::as_str)
                    .collect();
                writeln!(w, "    targets: {}", targets.join(", "))?;
            }
            writeln!(w, "    confidence {:.2}: {}", o.confidence, o.reason)?;
            if let Some(e) = o.evidence.first() {
                writeln!(
                    w,
                    "    closest: {} (title {:.2}, summary {:.2}, combined {:.2}, scope {})",
                    e.target,
                    e.title,
                    e.summary,
                    e.combined,
                    json_word(&e.scope)
                )?;
            }
            if !o.temporary_wording.is_empty() {
                writeln!(
                    w,
                    "    temporary wording: {}",
                    o.temporary_wording.join(", ")
                )?;
            }
            if let Some(reason) = &item.dismissed_reason {
                writeln!(w, "    dismissed: {reason}")?;
            }
        }
        let n = self.items.len();
        writeln!(
            w,
            "{n} {} to review, {} safe to approve",
            plural(n, "memory", "memories"),
            self.safe
        )
    }
}

impl Render for brain_core::approve::ApproveReport {
    fn render(&self, w: &mut dyn Write) -> io::Result<()> {
        let prefix = if self.dry_run { "would " } else { "" };
        for a in &self.approved {
            let what = match (json_word(&a.decision).as_str(), &a.target) {
                ("merge", Some(t)) => format!("merge into {t}"),
                ("supersede", Some(t)) => format!("supersede {t}"),
                ("reject", _) => "reject".to_owned(),
                _ => "accept".to_owned(),
            };
            writeln!(w, "{prefix}{what}: {} ({})", a.id, a.reason)?;
        }
        for s in &self.skipped {
            writeln!(w, "skipped {}: {}", s.id, s.reason)?;
        }
        let n = self.approved.len();
        writeln!(
            w,
            "{n} {} {prefix}approved, {} skipped",
            plural(n, "candidate", "candidates"),
            self.skipped.len()
        )
    }
}

impl Render for brain_core::edit::EditReport {
    fn render(&self, w: &mut dyn Write) -> io::Result<()> {
        if !self.changed {
            return writeln!(w, "unchanged {} ({})", self.id, self.path);
        }
        writeln!(
            w,
            "edited {} ({}): {}",
            self.id,
            self.path,
            self.fields.join(", ")
        )?;
        if let Some(from) = &self.moved_from {
            writeln!(w, "moved from {from}")?;
        }
        Ok(())
    }
}

/// Returns `text` with control characters escaped (`\r`, `\u{1b}`), so a
/// record's text cannot move the cursor or restyle the terminal it is
/// printed on. Records are checked on write; a file edited by hand is not.
pub(crate) fn shown(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.chars().any(char::is_control) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    std::borrow::Cow::Owned(out)
}

fn plural<'s>(n: usize, one: &'s str, many: &'s str) -> &'s str {
    if n == 1 { one } else { many }
}

impl Render for brain_core::migrate::MigrateReport {
    fn render(&self, w: &mut dyn Write) -> io::Result<()> {
        let verb = if self.dry_run {
            "would import"
        } else {
            "imported"
        };
        for r in &self.imported {
            writeln!(
                w,
                "{verb} {} ({}, {}) from {}",
                r.id, r.kind, r.status, r.from
            )?;
        }
        for n in &self.not_imported {
            writeln!(w, "not imported {}: {}", n.from, n.reason)?;
        }
        for n in &self.notes {
            writeln!(w, "note {}: {}", n.from, n.message)?;
        }
        for u in &self.unmapped {
            writeln!(w, "unmapped {}: {}", u.from, u.fields.join(", "))?;
        }
        if !self.dropped_usage.is_empty() {
            let parts: Vec<String> = self
                .dropped_usage
                .iter()
                .map(|(k, v)| format!("{k} {v}"))
                .collect();
            writeln!(w, "dropped (usage data, volatile): {}", parts.join(", "))?;
        }
        let n = self.imported.len();
        writeln!(
            w,
            "{n} {} {}, {} already imported, {} not imported, from {} {}{}",
            plural(n, "record", "records"),
            if self.dry_run {
                "to import"
            } else {
                "imported"
            },
            self.skipped_existing.len(),
            self.not_imported.len(),
            self.files_read,
            plural(self.files_read, "file", "files"),
            if self.dry_run {
                " (dry run: nothing written)"
            } else {
                ""
            }
        )
    }
}

fn render_trace(w: &mut dyn Write, trace: &[brain_core::extract::TraceEvent]) -> io::Result<()> {
    for t in trace {
        let at = if t.line == 0 {
            String::new()
        } else {
            format!(" line {}", t.line)
        };
        writeln!(w, "  [{}]{at}: {}", json_word(&t.stage), t.message)?;
    }
    Ok(())
}

fn render_assessment(
    w: &mut dyn Write,
    a: &brain_core::extract::signals::Assessment,
) -> io::Result<()> {
    writeln!(
        w,
        "verdict: {} (confidence {:.2})",
        json_word(&a.decision),
        a.confidence
    )?;
    for s in &a.signals {
        writeln!(
            w,
            "  signal {} ({}, {:+.2}): {}",
            s.name,
            json_word(&s.tier),
            s.weight,
            s.detail
        )?;
    }
    Ok(())
}

fn render_rejected(
    w: &mut dyn Write,
    rejected: &[brain_core::extract::Rejected],
) -> io::Result<()> {
    for r in rejected {
        let at = if r.line == 0 {
            String::new()
        } else {
            format!("line {} ", r.line)
        };
        write!(w, "rejected {at}({}): {}", r.reason, r.excerpt)?;
        match &r.detail {
            Some(d) => writeln!(w, " — {d}")?,
            None => writeln!(w)?,
        }
    }
    Ok(())
}

impl Render for brain_core::capture::CaptureReport {
    fn render(&self, w: &mut dyn Write) -> io::Result<()> {
        if !self.trace.is_empty() {
            writeln!(w, "trace:")?;
            render_trace(w, &self.trace)?;
        }
        if let Some(a) = &self.assessment {
            render_assessment(w, a)?;
        }
        if let Some(reason) = &self.extractor.fallback_reason {
            writeln!(w, "extractor: local (external refused: {reason})")?;
        } else if self.extractor.kind != "local" {
            writeln!(w, "extractor: {}", self.extractor.kind)?;
        }
        let verb = if self.dry_run { "would write" } else { "wrote" };
        for m in &self.written {
            let targets: Vec<&str> = m
                .targets
                .iter()
                .map(brain_core::model::MemoryId::as_str)
                .collect();
            writeln!(
                w,
                "{verb} {} {} ({}): review says {} ({}){}",
                m.status,
                m.id,
                m.kind,
                json_word(&m.decision),
                json_word(&m.relation),
                if targets.is_empty() {
                    String::new()
                } else {
                    format!(" → {}", targets.join(", "))
                }
            )?;
            writeln!(w, "    {}", shown(&m.title))?;
            if !m.paths.is_empty() {
                writeln!(w, "    scope: {}", m.paths.join(", "))?;
            }
        }
        for id in &self.unchanged {
            writeln!(w, "unchanged {id} (already in the store)")?;
        }
        render_rejected(w, &self.rejected)?;
        let n = self.written.len();
        let verdict_skip = self
            .assessment
            .as_ref()
            .is_some_and(|a| a.decision != brain_core::extract::signals::CaptureDecision::Extract);
        if n == 0 && self.unchanged.is_empty() {
            if verdict_skip
                && self.assessment.as_ref().is_some_and(|a| {
                    a.decision == brain_core::extract::signals::CaptureDecision::Ambiguous
                })
            {
                writeln!(
                    w,
                    "nothing written: the verdict is ambiguous (pass --force to write the drafts)"
                )
            } else {
                writeln!(w, "nothing worth extracting")
            }
        } else {
            writeln!(
                w,
                "{n} {} {}, {} unchanged, {} rejected{}",
                plural(n, "memory", "memories"),
                if self.dry_run { "to write" } else { "written" },
                self.unchanged.len(),
                self.rejected.len(),
                if self.dry_run {
                    " (dry run: nothing written)"
                } else {
                    ""
                }
            )
        }
    }
}

impl Render for brain_core::capture::SuggestReport {
    fn render(&self, w: &mut dyn Write) -> io::Result<()> {
        if !self.trace.is_empty() {
            writeln!(w, "trace:")?;
            render_trace(w, &self.trace)?;
        }
        render_assessment(w, &self.assessment)?;
        for d in &self.drafts {
            writeln!(
                w,
                "draft line {} {} (quality {}): {}{}",
                d.line,
                d.kind,
                d.quality,
                shown(&d.title),
                if d.paths.is_empty() {
                    String::new()
                } else {
                    format!(" [{}]", d.paths.join(", "))
                }
            )?;
        }
        render_rejected(w, &self.rejected)
    }
}

impl Render for brain_core::capture::RuleImportReport {
    fn render(&self, w: &mut dyn Write) -> io::Result<()> {
        let verb = if self.dry_run { "would write" } else { "wrote" };
        let (mut written, mut unchanged, mut rejected) = (0, 0, 0);
        for f in &self.files {
            let from = f
                .included_from
                .as_ref()
                .map(|by| format!(", imported by {by}"))
                .unwrap_or_default();
            writeln!(
                w,
                "{} ({}, {} sections{from})",
                f.path, f.format, f.sections
            )?;
            for m in &f.written {
                writeln!(
                    w,
                    "  {verb} {} {} ({}): review says {} ({})",
                    m.status,
                    m.id,
                    m.kind,
                    json_word(&m.decision),
                    json_word(&m.relation)
                )?;
            }
            for id in &f.unchanged {
                writeln!(w, "  unchanged {id}")?;
            }
            for r in &f.rejected {
                writeln!(
                    w,
                    "  rejected line {} ({}): {}",
                    r.line, r.reason, r.excerpt
                )?;
            }
            for g in &f.gone {
                writeln!(
                    w,
                    "  gone from the file: {} ({}): its rule was dropped or moved",
                    g.id, g.title
                )?;
            }
            written += f.written.len();
            unchanged += f.unchanged.len();
            rejected += f.rejected.len();
        }
        writeln!(
            w,
            "{written} {} {}, {unchanged} unchanged, {rejected} rejected{}",
            plural(written, "memory", "memories"),
            if self.dry_run { "to write" } else { "written" },
            if self.dry_run {
                " (dry run: nothing written)"
            } else {
                ""
            }
        )
    }
}

/// A report printed with or without its score explanation: JSON is the
/// report itself; text is the report, then (with `explain`) the components.
pub(crate) struct Explained<'r, T> {
    pub(crate) report: &'r T,
    pub(crate) explain: bool,
}

impl<T: Serialize> Serialize for Explained<'_, T> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.report.serialize(s)
    }
}

fn render_components(
    w: &mut dyn Write,
    c: &brain_core::inject::rank::Components,
) -> io::Result<()> {
    write!(
        w,
        "relevance {:.2} (lexical {:.2} [bm25 {:.2}], path {:.0}, module {:.0}",
        c.relevance, c.lexical, c.bm25, c.path, c.module
    )?;
    if let Some(e) = c.embedding {
        write!(w, ", embedding {e:.2}")?;
    }
    writeln!(
        w,
        ") × type {:.2} × importance {:.2} × risk {:.2} × freshness {:.2} × usage {:.2} = {:.3}",
        c.type_weight, c.importance, c.risk, c.freshness, c.usage, c.score
    )
}

impl Render for Explained<'_, brain_core::inject::InjectReport> {
    fn render(&self, w: &mut dyn Write) -> io::Result<()> {
        let r = self.report;
        w.write_all(r.selection.block.as_bytes())?;
        if !self.explain {
            return Ok(());
        }
        writeln!(w)?;
        writeln!(
            w,
            "explain: {} eligible, {} selected, {} of {} tokens, paths from {}{}",
            r.selection.eligible,
            r.selection.selected.len(),
            r.selection.used_tokens,
            r.budget_tokens,
            json_word(&r.path_source),
            match (&r.embedding.provider, &r.embedding.fallback_reason) {
                (Some(p), _) => format!(", embeddings {p}"),
                (None, Some(why)) => format!(", lexical only ({why})"),
                (None, None) => ", lexical only".to_owned(),
            }
        )?;
        for s in &r.selection.selected {
            write!(w, "  + {} [{}] ", s.id, s.matched_terms.join(" "))?;
            render_components(w, &s.components)?;
        }
        for m in &r.selection.near_misses {
            write!(w, "  - {} ({}) ", m.id, json_word(&m.reason))?;
            render_components(w, &m.components)?;
        }
        Ok(())
    }
}

impl Render for brain_core::route::RouteReport {
    fn render(&self, w: &mut dyn Write) -> io::Result<()> {
        let p = &self.plan;
        writeln!(
            w,
            "plan {} ({}){}",
            p.plan_id,
            json_word(&p.display_mode),
            if self.paths.is_empty() {
                String::new()
            } else {
                format!(
                    ", {} {} from {}",
                    self.paths.len(),
                    plural(self.paths.len(), "path", "paths"),
                    json_word(&self.path_source)
                )
            }
        )?;
        let slots = [
            ("blocked", &p.invocation_plan.blocked),
            ("human review", &p.invocation_plan.human_review),
            ("required", &p.invocation_plan.required),
            ("prefer first", &p.invocation_plan.prefer_first),
            ("optional", &p.invocation_plan.optional_fallback),
            ("suppress", &p.invocation_plan.suppress),
        ];
        if slots.iter().all(|(_, skills)| skills.is_empty()) {
            writeln!(w, "  no skill to route")?;
        }
        for (label, skills) in slots {
            for skill in skills {
                let why = p
                    .routing_explanation
                    .get(skill)
                    .map_or("", |e| e.why.as_str());
                writeln!(w, "  {label:<13} {skill}: {why}")?;
            }
        }
        for c in &p.conflicts {
            writeln!(
                w,
                "conflict: {} ({}) resolved to {} by {}",
                c.skill,
                json_word(&c.kind),
                json_word(&c.resolution),
                json_word(&c.rule)
            )?;
        }
        for m in &self.matched_memories {
            writeln!(w, "memory {}: {}", m.id, m.reasons.join("; "))?;
        }
        for warning in &p.warnings {
            writeln!(w, "warning: {warning}")?;
        }
        if let Some(c) = &self.context {
            writeln!(w)?;
            w.write_all(c.block.as_bytes())?;
        }
        Ok(())
    }
}

impl Render for brain_core::search::SearchReport {
    fn render(&self, w: &mut dyn Write) -> io::Result<()> {
        for (i, h) in self.hits.iter().enumerate() {
            writeln!(
                w,
                "{}. {}  {} ({}, {})",
                i + 1,
                h.id,
                shown(&h.title),
                h.kind,
                h.status
            )?;
            writeln!(w, "   {}", h.snippet)?;
        }
        writeln!(
            w,
            "{} of {} {} shown ({} searched, {})",
            self.hits.len(),
            self.total,
            plural(self.total, "hit", "hits"),
            self.searched,
            json_word(&self.mode)
        )
    }
}

impl Render for brain_core::embed::IndexReport {
    fn render(&self, w: &mut dyn Write) -> io::Result<()> {
        writeln!(
            w,
            "{} {} indexed with {}: {} computed, {} reused, {} pruned{}",
            self.memories,
            plural(self.memories, "memory", "memories"),
            self.embedder,
            self.computed,
            self.reused,
            self.pruned,
            if self.rebuilt { " (rebuilt)" } else { "" }
        )?;
        writeln!(w, "vectors: {}", self.cache)
    }
}

impl Render for brain_core::session::ConversationStartReport {
    fn render(&self, w: &mut dyn Write) -> io::Result<()> {
        let why = self
            .trace
            .iter()
            .rfind(|s| s.fired)
            .map(|s| s.detail.as_str())
            .unwrap_or_default();
        writeln!(w, "decision: {} ({why})", json_word(&self.decision))?;
        writeln!(w, "mode: {}", json_word(&self.mode))?;
        for s in &self.trace {
            writeln!(
                w,
                "  {} {}: {}",
                if s.fired { "[x]" } else { "[ ]" },
                json_word(&s.rule),
                s.detail
            )?;
        }
        match &self.context {
            Some(c) => {
                writeln!(w)?;
                w.write_all(c.selection.block.as_bytes())
            }
            None => Ok(()),
        }
    }
}

impl Render for brain_core::session::DiffReport {
    fn render(&self, w: &mut dyn Write) -> io::Result<()> {
        use brain_core::session::{ChangeKind, SinceSource};
        match (self.since_source, self.since, &self.last_load) {
            (SinceSource::LastLoad, Some(t), Some(l)) => {
                writeln!(w, "since the last context load at {t} ({})", l.command)?;
            }
            (_, Some(t), _) => writeln!(w, "since {t}")?,
            _ => writeln!(w, "no earlier context load: every memory counts as added")?,
        }
        for kind in [
            ChangeKind::Added,
            ChangeKind::Promoted,
            ChangeKind::Superseded,
            ChangeKind::Expired,
            ChangeKind::Changed,
        ] {
            let of_kind: Vec<_> = self.changes.iter().filter(|c| c.change == kind).collect();
            if of_kind.is_empty() {
                continue;
            }
            writeln!(w, "{} ({}):", json_word(&kind), of_kind.len())?;
            for c in of_kind {
                writeln!(
                    w,
                    "  {}  {} ({}, {}; {}{})",
                    c.id,
                    shown(&c.title),
                    c.kind,
                    c.status,
                    c.evidence,
                    c.at.map(|t| format!(" {t}")).unwrap_or_default()
                )?;
            }
        }
        let n = self.changes.len();
        writeln!(
            w,
            "{} {} {}",
            n,
            plural(n, "memory", "memories"),
            if n == 0 { "changed" } else { "in all" }
        )
    }
}

impl Render for crate::mcp::StatusReport {
    fn render(&self, w: &mut dyn Write) -> io::Result<()> {
        writeln!(
            w,
            "{} memories, {} pending review, {} preferences",
            self.memories, self.pending_candidates, self.preferences
        )?;
        let counts = |w: &mut dyn Write, label: &str, items: Vec<(String, usize)>| {
            let parts: Vec<String> = items
                .into_iter()
                .filter(|(_, n)| *n > 0)
                .map(|(k, n)| format!("{k} {n}"))
                .collect();
            if parts.is_empty() {
                Ok(())
            } else {
                writeln!(w, "{label}: {}", parts.join(", "))
            }
        };
        counts(
            w,
            "by type",
            self.by_type
                .iter()
                .map(|(k, n)| (k.to_string(), *n))
                .collect(),
        )?;
        counts(
            w,
            "by status",
            self.by_status
                .iter()
                .map(|(k, n)| (k.to_string(), *n))
                .collect(),
        )?;
        if self.invalid_files > 0 {
            writeln!(w, "{} files could not be read", self.invalid_files)?;
        }
        Ok(())
    }
}
