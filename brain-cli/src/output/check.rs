//! `brain check` in its four formats: text, JSON (from `Serialize`),
//! GitHub workflow commands and SARIF 2.1.0.

use std::io::{self, Write};

use brain_core::check::{CheckFinding, CheckReport};
use brain_core::lint::Severity;
use serde_json::{Value, json};

use super::{Render, plural};

fn severity(s: Severity) -> &'static str {
    match s {
        Severity::Error => "error",
        Severity::Warning => "warning",
    }
}

fn rule_id(f: &CheckFinding) -> String {
    format!("{}/{}", f.check, f.finding.code)
}

impl Render for CheckReport {
    fn render(&self, w: &mut dyn Write) -> io::Result<()> {
        for f in &self.findings {
            let d = &f.finding;
            let loc = match (d.line, d.column) {
                (Some(l), Some(c)) => format!("{}:{l}:{c}", d.path),
                (Some(l), None) => format!("{}:{l}", d.path),
                _ => d.path.clone(),
            };
            writeln!(
                w,
                "{loc}: {}[{}]: {}",
                severity(d.severity),
                rule_id(f),
                d.message
            )?;
        }
        writeln!(
            w,
            "{} {}, {} {} in {} {} ({}; base {})",
            self.errors,
            plural(self.errors, "error", "errors"),
            self.warnings,
            plural(self.warnings, "warning", "warnings"),
            self.files_checked,
            plural(self.files_checked, "file", "files"),
            self.checks.join(", "),
            self.base.as_deref().unwrap_or("none"),
        )
    }
}

/// Escapes a workflow command's message (GitHub's `escapeData`).
fn escape_data(s: &str) -> String {
    s.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// Escapes a workflow command's property (GitHub's `escapeProperty`).
fn escape_property(s: &str) -> String {
    escape_data(s).replace(':', "%3A").replace(',', "%2C")
}

/// One `::error file=…,line=…,title=…::message` line per finding, which a
/// GitHub Actions run turns into annotations on the pull request.
pub(crate) fn render_github(report: &CheckReport, w: &mut dyn Write) -> io::Result<()> {
    for f in &report.findings {
        let d = &f.finding;
        let mut props = vec![format!("file={}", escape_property(&d.path))];
        if let Some(line) = d.line {
            props.push(format!("line={line}"));
        }
        if let Some(col) = d.column {
            props.push(format!("col={col}"));
        }
        props.push(format!(
            "title={}",
            escape_property(&format!("brain {}", rule_id(f)))
        ));
        writeln!(
            w,
            "::{} {}::{}",
            severity(d.severity),
            props.join(","),
            escape_data(&d.message)
        )?;
    }
    Ok(())
}

/// The report as a SARIF 2.1.0 log: one run, one rule per check and code
/// that fired, one result per finding, paths relative to `%SRCROOT%`.
pub(crate) fn to_sarif(report: &CheckReport) -> Value {
    let mut rules: Vec<String> = report.findings.iter().map(rule_id).collect();
    rules.sort();
    rules.dedup();
    let rule_objects: Vec<Value> = rules
        .iter()
        .map(|id| {
            json!({
                "id": id,
                "shortDescription": { "text": format!("brain check: {id}") },
            })
        })
        .collect();
    let results: Vec<Value> = report
        .findings
        .iter()
        .map(|f| {
            let d = &f.finding;
            let id = rule_id(f);
            let mut physical = json!({
                "artifactLocation": { "uri": d.path, "uriBaseId": "%SRCROOT%" },
            });
            if let Some(line) = d.line {
                let mut region = json!({ "startLine": line });
                if let Some(col) = d.column {
                    region["startColumn"] = json!(col);
                }
                physical["region"] = region;
            }
            json!({
                "ruleId": id,
                "ruleIndex": rules.iter().position(|r| *r == id),
                "level": severity(d.severity),
                "message": { "text": d.message },
                "locations": [{ "physicalLocation": physical }],
            })
        })
        .collect();
    json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": {
                "driver": {
                    "name": "brain",
                    "version": env!("CARGO_PKG_VERSION"),
                    "rules": rule_objects,
                }
            },
            "originalUriBaseIds": {
                "%SRCROOT%": { "description": { "text": "The directory that holds `.brain/`." } }
            },
            "results": results,
        }]
    })
}
