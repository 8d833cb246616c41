//! `brain edit`: change one memory (a candidate or any other) by hand.
//!
//! The new version comes either as a whole YAML document (what an editor
//! left in the draft of [`Brain::edit_draft`]) or as field assignments (`--set
//! title=…`). Either way it goes through the checks every write path makes:
//! it must parse as a memory (errors name the field and line), keep its id,
//! status and schema version (lifecycle changes have their own commands),
//! and have no problems of its own ([`Memory::problems`]); secrets are
//! redacted ([`crate::secrets`]) and the text is written canonical, atomically,
//! under the write lock. An edit that changes nothing writes nothing. A new
//! type moves the file to its type's directory: the new file is written in
//! full (temporary file, no-clobber rename) before the old one is removed,
//! and a failed removal removes the new file again.

use schemars::JsonSchema;
use serde::Serialize;

use crate::brain::{Brain, Error};
use crate::model::{Memory, MemoryId};
use crate::report;
use crate::secrets::{self, Redaction};
use crate::yaml;

/// The fields `--set` can change, with what each takes.
pub const SETTABLE: &[(&str, &str)] = &[
    ("title", "one line of text"),
    ("summary", "text"),
    ("detail", "text"),
    ("notes", "text"),
    (
        "type",
        "decision, gotcha, convention, pattern, goal or working",
    ),
    ("importance", "low, medium, high or critical"),
    ("risk", "low, medium, high or critical"),
    ("confidence", "a number from 0 to 1"),
    ("tags", "a comma-separated list"),
    ("paths", "a comma-separated list of path globs"),
    ("modules", "a comma-separated list"),
];

/// A new version of a memory.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EditInput {
    /// A whole memory document, as an editor left it.
    Text(String),
    /// Field assignments, in order: `("tags", "a,b")`.
    Set(Vec<(String, String)>),
}

/// What `brain edit` did.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
pub struct EditReport {
    /// The memory.
    pub id: MemoryId,
    /// Its file after the edit, relative to the root.
    pub path: String,
    /// Its file before, when a new type moved it.
    pub moved_from: Option<String>,
    /// Whether anything changed (and was written).
    pub changed: bool,
    /// The top-level fields that changed, in file order (`title`, `scope`).
    pub fields: Vec<String>,
    /// Secrets replaced by `[REDACTED:<kind>]` in what was written.
    pub redactions: Vec<Redaction>,
}

/// A memory's text written for an editor to change.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EditDraft {
    /// The memory.
    pub id: MemoryId,
    /// Its file, relative to the root.
    pub path: String,
    /// The draft's absolute path: `.brain/runtime/EDIT-<id>.yaml`, not tracked.
    pub draft: std::path::PathBuf,
    /// The text written there: the memory's canonical YAML.
    pub text: String,
}

impl Brain {
    /// Writes the memory `query` names (an id or unique prefix), as its
    /// canonical YAML text, to a draft under `runtime/` for an editor to
    /// open, the way git writes `COMMIT_EDITMSG`.
    pub fn edit_draft(&self, query: &str) -> Result<EditDraft, Error> {
        let catalog = self.store().load();
        let loaded = report::find_memory(&catalog, query)?;
        let text = yaml::memory_to_string(&loaded.record);
        let draft = self
            .store()
            .write_runtime_file(&format!("EDIT-{}.yaml", loaded.record.id), &text)?;
        Ok(EditDraft {
            id: loaded.record.id.clone(),
            path: loaded.path.clone(),
            draft,
            text,
        })
    }

    /// `brain edit`: replaces the memory `query` names by `input`, checked
    /// like every write (see the module documentation).
    ///
    /// # Errors
    ///
    /// [`Error::InvalidEdit`] when the new version does not parse, changes the
    /// id, status or schema version, or has a problem; store errors.
    pub fn edit(&self, query: &str, input: &EditInput) -> Result<EditReport, Error> {
        let lock = self.store().lock()?;
        let catalog = self.store().load_uncached();
        let loaded = report::find_memory(&catalog, query)?;
        let old = &loaded.record;
        let (mut new, text) = match input {
            EditInput::Text(text) => (parse(&old.id, text)?, Some(text.as_str())),
            EditInput::Set(assignments) => (assign(old, assignments)?, None),
        };
        for (field, same) in [
            ("id", new.id == old.id),
            ("status", new.status == old.status),
            ("schema_version", new.schema_version == old.schema_version),
        ] {
            if !same {
                return Err(invalid(
                    &old.id,
                    field,
                    text,
                    match field {
                        "status" => "the status is changed with `brain approve`, `brain dismiss` \
                                     or `brain supersede`, not by editing"
                            .to_owned(),
                        _ => format!("`{field}` cannot change"),
                    },
                ));
            }
        }
        new.normalize();
        let redactions = secrets::redact_memory(&mut new);
        new.normalize();
        if let Some(p) = new.problems().into_iter().next() {
            return Err(invalid(&old.id, p.field, text, p.message));
        }
        let fields = changed_fields(old, &new);
        let mut report = EditReport {
            id: old.id.clone(),
            path: loaded.path.clone(),
            moved_from: None,
            changed: !fields.is_empty(),
            fields,
            redactions,
        };
        if !report.changed {
            return Ok(report);
        }
        if new.kind == old.kind {
            self.store().rewrite_memory(&lock, &loaded.path, &new)?;
        } else {
            report.path = self.store().move_memory(&lock, &loaded.path, &new)?;
            report.moved_from = Some(loaded.path.clone());
        }
        Ok(report)
    }
}

fn parse(id: &MemoryId, text: &str) -> Result<Memory, Error> {
    yaml::parse_memory(text).map_err(|e| Error::InvalidEdit {
        id: id.to_string(),
        field: e.field.clone(),
        line: e.line,
        message: e.message,
    })
}

fn invalid(id: &MemoryId, field: &str, text: Option<&str>, message: String) -> Error {
    Error::InvalidEdit {
        id: id.to_string(),
        field: Some(field.to_owned()),
        line: text.and_then(|t| yaml::line_of_key(t, field)),
        message,
    }
}

/// Applies `--set` assignments to a copy of `old`, through its JSON form so
/// that values are checked by the same deserializer as files.
fn assign(old: &Memory, assignments: &[(String, String)]) -> Result<Memory, Error> {
    let mut value = serde_json::to_value(old).expect("a memory serializes to JSON");
    for (field, raw) in assignments {
        let field = field.trim();
        let list = || -> serde_json::Value {
            raw.split(',')
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(|s| serde_json::Value::String(s.to_owned()))
                .collect()
        };
        let (pointer, new) = match field {
            "title" | "summary" | "detail" | "notes" | "type" | "importance" | "risk" => {
                (format!("/{field}"), serde_json::Value::String(raw.clone()))
            }
            "confidence" => {
                let n: f64 = raw.trim().parse().map_err(|_| Error::InvalidEdit {
                    id: old.id.to_string(),
                    field: Some("confidence".into()),
                    line: None,
                    message: format!("`{raw}` is not a number"),
                })?;
                ("/confidence".to_owned(), serde_json::json!(n))
            }
            "tags" => ("/tags".to_owned(), list()),
            "paths" | "modules" => (format!("/scope/{field}"), list()),
            other => {
                let known: Vec<&str> = SETTABLE.iter().map(|(f, _)| *f).collect();
                let hint = crate::model::closest(other, known.iter().copied())
                    .map(|k| format!("; did you mean `{k}`?"))
                    .unwrap_or_default();
                return Err(Error::InvalidEdit {
                    id: old.id.to_string(),
                    field: Some(other.to_owned()),
                    line: None,
                    message: format!(
                        "`--set` takes {}{hint}",
                        known
                            .iter()
                            .map(|k| format!("`{k}`"))
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                });
            }
        };
        set_pointer(&mut value, &pointer, new);
        // Checked after each assignment, so the error names its field.
        serde_json::from_value::<Memory>(value.clone()).map_err(|e| Error::InvalidEdit {
            id: old.id.to_string(),
            field: Some(field.to_owned()),
            line: None,
            message: e.to_string(),
        })?;
    }
    Ok(serde_json::from_value::<Memory>(value).expect("checked after the last assignment"))
}

/// Sets the value at a JSON pointer, creating objects on the way.
fn set_pointer(value: &mut serde_json::Value, pointer: &str, new: serde_json::Value) {
    let mut at = value;
    let parts: Vec<&str> = pointer.trim_start_matches('/').split('/').collect();
    for (i, part) in parts.iter().enumerate() {
        if !at.is_object() {
            *at = serde_json::Value::Object(serde_json::Map::new());
        }
        let map = at.as_object_mut().expect("made an object above");
        if i + 1 == parts.len() {
            map.insert((*part).to_owned(), new);
            return;
        }
        at = map
            .entry((*part).to_owned())
            .or_insert_with(|| serde_json::Value::Object(serde_json::Map::new()));
    }
}

/// The top-level fields whose values differ, in the order of the file.
fn changed_fields(old: &Memory, new: &Memory) -> Vec<String> {
    let (a, b) = (
        serde_json::to_value(old).expect("a memory serializes to JSON"),
        serde_json::to_value(new).expect("a memory serializes to JSON"),
    );
    let (Some(a), Some(b)) = (a.as_object(), b.as_object()) else {
        return Vec::new();
    };
    b.iter()
        .filter(|(k, v)| a.get(*k) != Some(*v))
        .map(|(k, _)| k.clone())
        .collect()
}
