//! Store health: every problem in every record file, with file and line.
//!
//! Pure: it judges texts handed to it by the store. Checks, in order:
//! 1. the file parses into its record type (`parse`);
//! 2. the record's own invariants ([`Memory::problems`], `lifecycle`);
//! 3. the id equals the file name and the type equals the directory (`location`);
//! 4. ids are unique across the store (`duplicate-id`);
//! 5. lineage points at records that exist and agrees in both directions
//!    (`dangling-reference`, `one-way-lineage`);
//! 6. a status changed since the last commit follows [`crate::model::status::TRANSITIONS`]
//!    (`transition`);
//! 7. the file is in canonical form (`not-canonical`, a warning: `brain normalize` fixes it);
//! 8. files that cannot be records and unknown config keys;
//! 9. a `conflicts:` list left by `brain merge-driver` (`merge-conflict`), in
//!    place of the parse error it causes.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::Serialize;

use crate::model::{Memory, MemoryId, Preference, Problem, Status};
use crate::store::{FileProblem, RecordDir, Source};
use crate::yaml;

/// How bad a finding is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Severity {
    /// Makes `brain lint` exit with status 1.
    Error,
    /// Reported, does not fail.
    Warning,
}

/// One problem found by lint.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
pub struct Finding {
    /// Error or warning.
    pub severity: Severity,
    /// Which check found it (`parse`, `lifecycle`, `transition`, …).
    pub code: String,
    /// File relative to the repository root.
    pub path: String,
    /// 1-based line, when known.
    pub line: Option<u32>,
    /// 1-based column, when known.
    pub column: Option<u32>,
    /// Dotted field, when known.
    pub field: Option<String>,
    /// What is wrong.
    pub message: String,
}

/// The result of `brain lint`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
pub struct LintReport {
    /// Record files read.
    pub files_checked: usize,
    /// Number of error findings.
    pub errors: usize,
    /// Number of warning findings.
    pub warnings: usize,
    /// Every finding, sorted by path and line.
    pub findings: Vec<Finding>,
}

/// What lint is given.
#[derive(Debug)]
pub struct LintInput<'a> {
    /// Every record file's text.
    pub sources: &'a [Source],
    /// Entries that could not be listed as records.
    pub stray: &'a [FileProblem],
    /// Committed text of record files, by path (empty outside git).
    pub head: &'a BTreeMap<String, String>,
    /// Path of the config file and its unknown keys, with its text.
    pub config: Option<(&'a str, &'a str, &'a [String])>,
}

enum Parsed {
    Memory(Memory),
    Preference(Preference),
}

impl Parsed {
    fn id(&self) -> &MemoryId {
        match self {
            Parsed::Memory(m) => &m.id,
            Parsed::Preference(p) => &p.id,
        }
    }
    fn status(&self) -> Status {
        match self {
            Parsed::Memory(m) => m.status,
            Parsed::Preference(p) => p.status,
        }
    }
    fn lineage(&self) -> &crate::model::Lineage {
        match self {
            Parsed::Memory(m) => &m.lineage,
            Parsed::Preference(p) => &p.lineage,
        }
    }
}

fn parse(dir: RecordDir, text: &str) -> Result<Parsed, yaml::YamlError> {
    match dir {
        RecordDir::Memories(_) => yaml::parse_memory(text).map(Parsed::Memory),
        RecordDir::Preferences => yaml::parse_preference(text).map(Parsed::Preference),
    }
}

/// Returns the canonical text of a record file, or the parse error.
pub fn canonical_text(dir: RecordDir, text: &str) -> Result<String, yaml::YamlError> {
    Ok(match parse(dir, text)? {
        Parsed::Memory(mut m) => {
            m.normalize();
            yaml::memory_to_string(&m)
        }
        Parsed::Preference(mut p) => {
            p.normalize();
            yaml::preference_to_string(&p)
        }
    })
}

struct Ctx {
    findings: Vec<Finding>,
}

impl Ctx {
    fn at(
        &mut self,
        severity: Severity,
        code: &str,
        path: &str,
        text: &str,
        field: &str,
        message: String,
    ) {
        self.findings.push(Finding {
            severity,
            code: code.to_owned(),
            path: path.to_owned(),
            line: yaml::line_of_key(text, field),
            column: None,
            field: Some(field.to_owned()),
            message,
        });
    }
}

/// Runs every check.
pub fn lint(input: &LintInput<'_>) -> LintReport {
    let mut ctx = Ctx {
        findings: Vec::new(),
    };
    for stray in input.stray {
        ctx.findings.push(from_problem("stray-file", stray.clone()));
    }
    if let Some((path, text, unknown)) = input.config {
        for key in unknown {
            ctx.at(
                Severity::Warning,
                "config-unknown-key",
                path,
                text,
                key,
                match crate::model::closest(key, yaml::config_keys().iter().map(String::as_str)) {
                    Some(k) => format!("unknown key `{key}` is ignored (did you mean `{k}`?)"),
                    None => format!("unknown key `{key}` is ignored"),
                },
            );
        }
    }

    let mut parsed: Vec<(&Source, &str, Parsed)> = Vec::new();
    for source in input.sources {
        let text = match &source.text {
            Ok(t) => t.as_str(),
            Err(message) => {
                ctx.findings.push(from_problem(
                    "read",
                    FileProblem::whole_file(&source.path, message.clone()),
                ));
                continue;
            }
        };
        match parse(source.dir, text) {
            Ok(p) => parsed.push((source, text, p)),
            Err(e) => parse_failure(&mut ctx, &source.path, text, e),
        }
    }

    let mut by_id: BTreeMap<&MemoryId, Vec<&str>> = BTreeMap::new();
    for (source, _, p) in &parsed {
        by_id.entry(p.id()).or_default().push(&source.path);
    }
    let statuses: BTreeMap<&MemoryId, (Status, &crate::model::Lineage)> = parsed
        .iter()
        .map(|(_, _, p)| (p.id(), (p.status(), p.lineage())))
        .collect();

    for (source, text, record) in &parsed {
        let path = source.path.as_str();
        let problems: Vec<Problem> = match record {
            Parsed::Memory(m) => m.problems(),
            Parsed::Preference(p) => p.problems(),
        };
        for p in problems {
            ctx.at(Severity::Error, "lifecycle", path, text, p.field, p.message);
        }
        check_location(&mut ctx, source, text, record);
        let id = record.id();
        if let Some(paths) = by_id.get(id).filter(|p| p.len() > 1) {
            let others: Vec<&str> = paths.iter().copied().filter(|p| *p != path).collect();
            ctx.at(
                Severity::Error,
                "duplicate-id",
                path,
                text,
                "id",
                format!("id `{id}` is also used by {}", others.join(", ")),
            );
        }
        check_lineage(&mut ctx, path, text, id, record.lineage(), &statuses);
        check_transition(&mut ctx, source, text, record, input.head);
        check_canonical(&mut ctx, source, text);
    }

    let mut findings = ctx.findings;
    findings.sort_by(|a, b| {
        (&a.path, a.line, a.severity, &a.code).cmp(&(&b.path, b.line, b.severity, &b.code))
    });
    let errors = findings
        .iter()
        .filter(|f| f.severity == Severity::Error)
        .count();
    LintReport {
        files_checked: input.sources.len(),
        errors,
        warnings: findings.len() - errors,
        findings,
    }
}

fn check_transition(
    ctx: &mut Ctx,
    source: &Source,
    text: &str,
    record: &Parsed,
    head: &BTreeMap<String, String>,
) {
    let path = source.path.as_str();
    if let Some(old_text) = head.get(path)
        && let Ok(old) = parse(source.dir, old_text)
        && !old.status().can_become(record.status())
    {
        let allowed: Vec<&str> = old.status().successors().map(Status::as_str).collect();
        ctx.at(
            Severity::Error,
            "transition",
            path,
            text,
            "status",
            format!(
                "status changed from `{}` to `{}` since the last commit, which is not allowed (from `{}` a record may become: {})",
                old.status(),
                record.status(),
                old.status(),
                if allowed.is_empty() { "nothing".to_owned() } else { allowed.join(", ") }
            ),
        );
    }
}

fn check_canonical(ctx: &mut Ctx, source: &Source, text: &str) {
    let path = source.path.as_str();
    if let Ok(canonical) = canonical_text(source.dir, text)
        && canonical != *text
    {
        ctx.findings.push(Finding {
            severity: Severity::Warning,
            code: "not-canonical".into(),
            path: path.to_owned(),
            line: first_difference(text, &canonical),
            column: None,
            field: None,
            message: "file is not in canonical form; run `brain normalize`".into(),
        });
    }
}

/// A file that does not parse: a merge's `conflicts:` list, one finding per
/// field, or else the parse error.
fn parse_failure(ctx: &mut Ctx, path: &str, text: &str, err: yaml::YamlError) {
    let Some(fields) = crate::merge::unresolved(text) else {
        ctx.findings
            .push(from_problem("parse", FileProblem::from_yaml(path, err)));
        return;
    };
    for field in fields {
        ctx.at(
            Severity::Error,
            "merge-conflict",
            path,
            text,
            crate::merge::CONFLICTS_KEY,
            format!(
                "unresolved merge conflict on `{field}`: keep one value, then delete the \
                 `conflicts` list"
            ),
        );
    }
}

fn from_problem(code: &str, p: FileProblem) -> Finding {
    Finding {
        severity: Severity::Error,
        code: code.to_owned(),
        path: p.path,
        line: p.line,
        column: p.column,
        field: p.field,
        message: p.message,
    }
}

fn check_location(ctx: &mut Ctx, source: &Source, text: &str, record: &Parsed) {
    let path = source.path.as_str();
    let stem = path
        .rsplit('/')
        .next()
        .and_then(|name| name.strip_suffix(".yaml"))
        .unwrap_or_default();
    if record.id().as_str() != stem {
        ctx.at(
            Severity::Error,
            "location",
            path,
            text,
            "id",
            format!(
                "id `{}` does not match the file name `{stem}.yaml`",
                record.id()
            ),
        );
    }
    if let (RecordDir::Memories(dir_type), Parsed::Memory(m)) = (source.dir, record)
        && m.kind != dir_type
    {
        ctx.at(
            Severity::Error,
            "location",
            path,
            text,
            "type",
            format!(
                "a {} belongs in `.brain/{}/`, not `.brain/{}/`",
                m.kind,
                m.kind.dir_name(),
                dir_type.dir_name()
            ),
        );
    }
}

fn check_lineage(
    ctx: &mut Ctx,
    path: &str,
    text: &str,
    id: &MemoryId,
    lineage: &crate::model::Lineage,
    records: &BTreeMap<&MemoryId, (Status, &crate::model::Lineage)>,
) {
    if let Some(by) = &lineage.superseded_by {
        match records.get(by) {
            None => ctx.at(
                Severity::Error,
                "dangling-reference",
                path,
                text,
                "lineage.superseded_by",
                format!("`superseded_by` names `{by}`, which is not in the store"),
            ),
            Some((_, other)) if !other.supersedes.contains(id) => ctx.at(
                Severity::Warning,
                "one-way-lineage",
                path,
                text,
                "lineage.superseded_by",
                format!("`{by}` does not list `{id}` in its `supersedes`"),
            ),
            Some(_) => {}
        }
    }
    for old in &lineage.supersedes {
        match records.get(old) {
            None => ctx.at(
                Severity::Error,
                "dangling-reference",
                path,
                text,
                "lineage.supersedes",
                format!("`supersedes` names `{old}`, which is not in the store"),
            ),
            Some((status, other))
                if *status != Status::Superseded || other.superseded_by.as_ref() != Some(id) =>
            {
                ctx.at(
                    Severity::Warning,
                    "one-way-lineage",
                    path,
                    text,
                    "lineage.supersedes",
                    format!("`{old}` is not marked `superseded` by `{id}`"),
                );
            }
            Some(_) => {}
        }
    }
    for rel in &lineage.related {
        if !records.contains_key(rel) {
            ctx.at(
                Severity::Warning,
                "dangling-reference",
                path,
                text,
                "lineage.related",
                format!("`related` names `{rel}`, which is not in the store"),
            );
        }
    }
}

fn first_difference(actual: &str, canonical: &str) -> Option<u32> {
    let mut line = 0u32;
    let mut actual_lines = actual.lines();
    let mut canonical_lines = canonical.lines();
    loop {
        line += 1;
        match (actual_lines.next(), canonical_lines.next()) {
            (None, None) => return None,
            (x, y) if x != y => return Some(line),
            _ => {}
        }
    }
}
