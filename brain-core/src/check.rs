//! `brain check`: the store's gate for CI, as a list of checks.
//!
//! Each check is one function from [`CheckInput`] to findings, listed in
//! [`CHECKS`]; another check is one more function and one more row. Pure:
//! the texts of the store, of the base revision and the export plans are
//! handed in.
//!
//! - `lint`: everything [`crate::lint`] reports, with status transitions
//!   judged against the base instead of `HEAD`;
//! - `normalize`: files not in canonical form, as errors (CI wants the
//!   canonical bytes committed; `brain normalize` fixes them);
//! - `transitions`: what a change does to records the base has: an active
//!   memory deleted instead of superseded or retired (`deleted-active`), a
//!   file whose id changed (`id-changed`);
//! - `export`: rule files that `brain export` generated (they carry its
//!   header or section markers) and that no longer match the store
//!   (`export-drift`): a format nobody exported is not checked.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::Serialize;

use crate::export::{ExportPlan, HEADER, SECTION_START, Target};
use crate::lint::{self, Finding, LintInput, Severity};
use crate::model::Status;
use crate::setup::Action;
use crate::store::{FileProblem, Source};
use crate::yaml;

/// What the checks are given.
#[derive(Debug)]
pub struct CheckInput<'a> {
    /// Every record file's text.
    pub sources: &'a [Source],
    /// Entries that could not be listed as records.
    pub stray: &'a [FileProblem],
    /// Path of the config file, its text and its unknown keys.
    pub config: Option<(&'a str, &'a str, &'a [String])>,
    /// Text of every file under `.brain/` at the base revision, by path
    /// relative to the root; empty when there is no base.
    pub base: &'a BTreeMap<String, String>,
    /// What `brain export` would write for each format, against the files
    /// as they are.
    pub exports: &'a [(Target, ExportPlan)],
}

/// One check: a name and the function that runs it.
pub type Check = (&'static str, fn(&CheckInput<'_>) -> Vec<Finding>);

/// Every check, in the order they run and report.
pub const CHECKS: &[Check] = &[
    ("lint", lint_findings),
    ("normalize", canonical_findings),
    ("transitions", transition_findings),
    ("export", export_findings),
];

/// One finding and the check that made it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
pub struct CheckFinding {
    /// The check (`lint`, `normalize`, `transitions`).
    pub check: String,
    /// What it found.
    #[serde(flatten)]
    pub finding: Finding,
}

/// The result of `brain check`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
pub struct CheckReport {
    /// The base revision transitions were judged against, as given; `None`
    /// when there was none (outside git, or before the first commit).
    pub base: Option<String>,
    /// The checks that ran, in order.
    pub checks: Vec<String>,
    /// Record files read.
    pub files_checked: usize,
    /// Number of error findings.
    pub errors: usize,
    /// Number of warning findings.
    pub warnings: usize,
    /// Every finding, by check, then path and line.
    pub findings: Vec<CheckFinding>,
}

/// Runs every check in [`CHECKS`].
pub fn check(input: &CheckInput<'_>, base: Option<String>) -> CheckReport {
    let mut findings = Vec::new();
    for (name, run) in CHECKS {
        let mut found = run(input);
        found.sort_by(|a, b| {
            (&a.path, a.line, a.severity, &a.code).cmp(&(&b.path, b.line, b.severity, &b.code))
        });
        findings.extend(found.into_iter().map(|finding| CheckFinding {
            check: (*name).to_owned(),
            finding,
        }));
    }
    let errors = findings
        .iter()
        .filter(|f| f.finding.severity == Severity::Error)
        .count();
    CheckReport {
        base,
        checks: CHECKS.iter().map(|(n, _)| (*n).to_owned()).collect(),
        files_checked: input.sources.len(),
        errors,
        warnings: findings.len() - errors,
        findings,
    }
}

fn lint_report(input: &CheckInput<'_>) -> lint::LintReport {
    lint::lint(&LintInput {
        sources: input.sources,
        stray: input.stray,
        head: input.base,
        config: input.config,
    })
}

const NOT_CANONICAL: &str = "not-canonical";

fn lint_findings(input: &CheckInput<'_>) -> Vec<Finding> {
    lint_report(input)
        .findings
        .into_iter()
        .filter(|f| f.code != NOT_CANONICAL)
        .map(|f| Finding {
            message: f.message.replace("since the last commit", "since the base"),
            ..f
        })
        .collect()
}

fn canonical_findings(input: &CheckInput<'_>) -> Vec<Finding> {
    lint_report(input)
        .findings
        .into_iter()
        .filter(|f| f.code == NOT_CANONICAL)
        .map(|f| Finding {
            severity: Severity::Error,
            ..f
        })
        .collect()
}

/// Whether a format was exported here: one of its files carries the
/// generated header or the section markers, or a stale one is left.
fn exported(plan: &ExportPlan) -> bool {
    !plan.stale.is_empty()
        || plan.files.iter().any(|f| {
            f.before
                .as_deref()
                .is_some_and(|t| t.contains(HEADER) || t.contains(SECTION_START))
        })
}

fn export_findings(input: &CheckInput<'_>) -> Vec<Finding> {
    let finding = |path: &str, message: String| Finding {
        severity: Severity::Error,
        code: "export-drift".to_owned(),
        path: path.to_owned(),
        line: None,
        column: None,
        field: None,
        message,
    };
    let mut found = Vec::new();
    for (target, plan) in input.exports.iter().filter(|(_, p)| exported(p)) {
        let name = crate::report::serde_name(target);
        for f in &plan.files {
            match f.action() {
                Action::Create => found.push(finding(
                    &f.path,
                    format!("missing from the `{name}` export; run `brain export --to {name}`"),
                )),
                Action::Update => found.push(finding(
                    &f.path,
                    format!("differs from what the store exports; run `brain export --to {name}`"),
                )),
                _ => {}
            }
        }
        for stale in &plan.stale {
            found.push(finding(
                stale,
                format!("no longer exported by the store; run `brain export --to {name}`"),
            ));
        }
    }
    found
}

/// The id and status of a record text, when it parses as either kind.
fn id_status(text: &str) -> Option<(String, Status)> {
    if let Ok(m) = yaml::parse_memory(text) {
        return Some((m.id.to_string(), m.status));
    }
    yaml::parse_preference(text)
        .ok()
        .map(|p| (p.id.to_string(), p.status))
}

fn transition_findings(input: &CheckInput<'_>) -> Vec<Finding> {
    let mut out = Vec::new();
    let current: BTreeMap<&str, Option<(String, Status)>> = input
        .sources
        .iter()
        .map(|s| {
            (
                s.path.as_str(),
                s.text.as_ref().ok().and_then(|t| id_status(t)),
            )
        })
        .collect();
    let ids_now: std::collections::BTreeSet<&str> = current
        .values()
        .flatten()
        .map(|(id, _)| id.as_str())
        .collect();
    let mut renamed = std::collections::BTreeSet::new();
    for (path, text) in input.base {
        let Some((old_id, _)) = id_status(text) else {
            continue;
        };
        if let Some(Some((new_id, _))) = current.get(path.as_str())
            && *new_id != old_id
        {
            renamed.insert(old_id.clone());
            let line = input
                .sources
                .iter()
                .find(|s| s.path == *path)
                .and_then(|s| s.text.as_ref().ok())
                .and_then(|t| yaml::line_of_key(t, "id"));
            out.push(Finding {
                severity: Severity::Error,
                code: "id-changed".to_owned(),
                path: path.clone(),
                line,
                column: None,
                field: Some("id".to_owned()),
                message: format!(
                    "id changed from `{old_id}` to `{new_id}` since the base; ids are permanent \
                     (add a new memory and supersede the old one)"
                ),
            });
        }
    }
    for (path, text) in input.base {
        let Some((id, status)) = id_status(text) else {
            continue;
        };
        if status == Status::Active && !ids_now.contains(id.as_str()) && !renamed.contains(&id) {
            out.push(Finding {
                severity: Severity::Error,
                code: "deleted-active".to_owned(),
                path: path.clone(),
                line: None,
                column: None,
                field: None,
                message: format!(
                    "active memory `{id}` was deleted; supersede it (`brain supersede NEW {id}`) \
                     or mark it stale or done instead, so agents and history know why"
                ),
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::MemoryType;
    use crate::store::RecordDir;

    fn memory(id: &str, status: &str) -> String {
        format!(
            "schema_version: 1\nid: {id}\ntype: gotcha\nstatus: {status}\ntitle: T\nsummary: S.\n\
             provenance:\n  source: manual\n  captured_at: \"2026-01-01T00:00:00Z\"\n"
        )
    }

    fn source(id: &str, text: String) -> Source {
        Source {
            path: format!(".brain/gotchas/{id}.yaml"),
            dir: RecordDir::Memories(MemoryType::Gotcha),
            text: Ok(text),
        }
    }

    fn codes(sources: &[Source], base: &[(&str, String)]) -> Vec<(String, String)> {
        let base: BTreeMap<String, String> = base
            .iter()
            .map(|(id, t)| (format!(".brain/gotchas/{id}.yaml"), t.clone()))
            .collect();
        let input = CheckInput {
            sources,
            stray: &[],
            config: None,
            base: &base,
            exports: &[],
        };
        check(&input, Some("main".to_owned()))
            .findings
            .into_iter()
            .map(|f| (f.check, f.finding.code))
            .collect()
    }

    #[test]
    fn checks_against_the_base() {
        let pair = |a: &str, b: &str| (a.to_owned(), b.to_owned());
        // Unchanged: nothing.
        assert!(
            codes(
                &[source("a", memory("a", "active"))],
                &[("a", memory("a", "active"))]
            )
            .is_empty()
        );
        // Superseding or retiring is fine; deleting an active memory is not.
        assert!(
            codes(
                &[source("a", memory("a", "stale"))],
                &[("a", memory("a", "active"))]
            )
            .is_empty()
        );
        assert_eq!(
            codes(&[], &[("a", memory("a", "active"))]),
            [pair("transitions", "deleted-active")]
        );
        assert!(codes(&[], &[("a", memory("a", "candidate"))]).is_empty());
        // Status going backwards, judged against the base.
        assert_eq!(
            codes(
                &[source("a", memory("a", "candidate"))],
                &[("a", memory("a", "active"))]
            ),
            [pair("lint", "transition")]
        );
        // An id changed in place.
        let found = codes(
            &[source("a", memory("b", "active"))],
            &[("a", memory("a", "active"))],
        );
        assert!(
            found.contains(&pair("transitions", "id-changed")),
            "{found:?}"
        );
        assert!(
            !found.contains(&pair("transitions", "deleted-active")),
            "{found:?}"
        );
        // Non-canonical files are errors of their own check.
        let messy = memory("a", "active").replace("title: T", "title:   T");
        assert_eq!(
            codes(&[source("a", messy)], &[]),
            [pair("normalize", "not-canonical")]
        );
    }
}
