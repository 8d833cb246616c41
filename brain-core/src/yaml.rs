//! All YAML reading and writing in one place (serde-saphyr, pinned `~2.1`).
//!
//! Reading: strict. Unknown keys in records, duplicate keys, wrong types and
//! unknown enum words are errors with a line, a column and the dotted path of the
//! field. Config files are read leniently: unknown keys come back as warnings.
//!
//! Writing: canonical. A record is serialized to a JSON value first (key order =
//! struct field order), then every optional key whose value equals what reading
//! the key's absence would give is dropped, recursively; what is left is written
//! as YAML with lists indented at their parent's level, multi-line text as `|`
//! block scalars and no line folding. Because only values equal to the
//! deserializer's own defaults are dropped, load → save loses nothing, and
//! load → save of a canonical file gives the same bytes.
//!
//! Switching YAML crates means changing this file only.

use std::sync::OnceLock;

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use crate::config::Config;
use crate::model::{Memory, Preference};

/// A YAML file that could not be read into its record type.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct YamlError {
    /// 1-based line of the problem, when known.
    pub line: Option<u32>,
    /// 1-based column of the problem, when known.
    pub column: Option<u32>,
    /// Dotted path of the field, when known (`lineage.version`).
    pub field: Option<String>,
    /// What is wrong, without location.
    pub message: String,
}

/// Minimal memory document: exactly the keys that are always written.
const MEMORY_MINIMAL: &str = "schema_version: 1
id: x
type: decision
status: active
title: t
summary: s
provenance:
  source: manual
  captured_at: 2000-01-01T00:00:00Z
";

/// Minimal preference document: exactly the keys that are always written.
const PREFERENCE_MINIMAL: &str = "schema_version: 1
id: x
status: active
target_type: skill
target: t
preference: prefer
provenance:
  source: manual
  captured_at: 2000-01-01T00:00:00Z
";

/// Minimal config document.
const CONFIG_MINIMAL: &str = "schema_version: 1\nworkflow: recommended-semi-auto\n";

fn options() -> serde_saphyr::options::Options {
    serde_saphyr::options::Options::default()
}

fn convert_error(err: &serde_saphyr::Error, field: Option<String>) -> YamlError {
    let inner = err.without_snippet();
    let location = inner.location().or_else(|| err.location());
    let mut message = inner.to_string();
    // serde-saphyr appends " at line L column C"; the location is kept in fields.
    if let Some(pos) = message.find(" at line ") {
        message.truncate(pos);
    }
    let field = field.filter(|f| !f.is_empty() && f != "." && f != "?");
    YamlError {
        line: location.map(|l| u32::try_from(l.line()).unwrap_or(u32::MAX)),
        column: location.map(|l| u32::try_from(l.column()).unwrap_or(u32::MAX)),
        field,
        message,
    }
}

/// Deserializes `text` strictly; on failure, parses again tracking the path of
/// the field that fails (tracking every field costs time on the hot path, and
/// errors are rare).
fn from_str_tracked<T: DeserializeOwned>(text: &str) -> Result<T, YamlError> {
    if let Ok(value) = serde_saphyr::from_str_with_options(text, options()) {
        return Ok(value);
    }
    let mut track = serde_path_to_error::Track::new();
    let result = serde_saphyr::with_deserializer_from_str_with_options(text, options(), |de| {
        T::deserialize(serde_path_to_error::Deserializer::new(de, &mut track))
    });
    result.map_err(|err| {
        let path = track.path().to_string();
        convert_error(&err, Some(path))
    })
}

/// Parses a memory file.
pub fn parse_memory(text: &str) -> Result<Memory, YamlError> {
    from_str_tracked(text)
}

/// Parses a preference file.
pub fn parse_preference(text: &str) -> Result<Preference, YamlError> {
    from_str_tracked(text)
}

/// Parses `.brain/config.yaml`; returns the config and the dotted paths of keys it
/// did not recognise.
pub fn parse_config(text: &str) -> Result<(Config, Vec<String>), YamlError> {
    let mut unknown = Vec::new();
    let mut track = serde_path_to_error::Track::new();
    let result = serde_saphyr::with_deserializer_from_str_with_options(text, options(), |de| {
        let tracked = serde_path_to_error::Deserializer::new(de, &mut track);
        serde_ignored::deserialize(tracked, |path| unknown.push(path.to_string()))
    });
    match result {
        Ok(config) => Ok((config, unknown)),
        Err(err) => Err(convert_error(&err, Some(track.path().to_string()))),
    }
}

/// Returns the dotted path of every key `config.yaml` may contain.
pub fn config_keys() -> Vec<String> {
    fn walk(prefix: &str, value: &Value, out: &mut Vec<String>) {
        if let Value::Object(map) = value {
            for (key, v) in map {
                let path = if prefix.is_empty() {
                    key.clone()
                } else {
                    format!("{prefix}.{key}")
                };
                walk(&path, v, out);
                out.push(path);
            }
        }
    }
    let mut out = Vec::new();
    walk("", &config_template().0, &mut out);
    out.sort();
    out
}

/// Parses any YAML document into a JSON value (used to validate files against
/// the JSON Schemas).
pub fn to_json_value(text: &str) -> Result<Value, YamlError> {
    from_str_tracked(text)
}

fn template<T: DeserializeOwned + Serialize>(minimal: &str) -> Value {
    let parsed: T =
        from_str_tracked(minimal).expect("the minimal document is valid by construction");
    serde_json::to_value(parsed).expect("records serialize to JSON")
}

fn memory_template() -> &'static (Value, Value) {
    static T: OnceLock<(Value, Value)> = OnceLock::new();
    T.get_or_init(|| (template::<Memory>(MEMORY_MINIMAL), keys_of(MEMORY_MINIMAL)))
}

fn preference_template() -> &'static (Value, Value) {
    static T: OnceLock<(Value, Value)> = OnceLock::new();
    T.get_or_init(|| {
        (
            template::<Preference>(PREFERENCE_MINIMAL),
            keys_of(PREFERENCE_MINIMAL),
        )
    })
}

fn config_template() -> &'static (Value, Value) {
    static T: OnceLock<(Value, Value)> = OnceLock::new();
    T.get_or_init(|| (template::<Config>(CONFIG_MINIMAL), keys_of(CONFIG_MINIMAL)))
}

/// The key tree of a minimal document: the keys that are never dropped.
fn keys_of(minimal: &str) -> Value {
    serde_saphyr::from_str(minimal).expect("the minimal document is valid YAML")
}

/// Drops from `value` every key whose value equals the template's and that is not
/// required; then drops objects left empty.
fn prune(value: &mut Value, template: &Value, required: &Value) {
    let (Value::Object(map), Value::Object(tmpl)) = (value, template) else {
        return;
    };
    let required = required.as_object();
    let mut drop = Vec::new();
    for (key, v) in map.iter_mut() {
        let req = required.and_then(|r| r.get(key));
        let t = tmpl.get(key).unwrap_or(&Value::Null);
        if let (Value::Object(_), Value::Object(_)) = (&*v, t) {
            prune(v, t, req.unwrap_or(&Value::Null));
            let empty = v.as_object().is_some_and(Map::is_empty);
            if empty && req.is_none() {
                drop.push(key.clone());
            }
        } else if req.is_none() && (v == t || v.is_null()) {
            drop.push(key.clone());
        }
    }
    for key in drop {
        map.shift_remove(&key);
    }
}

fn emit(value: &Value) -> String {
    let mut opts = serde_saphyr::SerializerOptions::default();
    opts.folded_wrap_chars = usize::MAX;
    opts.compact_list_indent = true;
    let mut out = String::new();
    serde_saphyr::to_fmt_writer_with_options(&mut out, value, opts)
        .expect("a JSON value always serializes to YAML");
    if !out.ends_with('\n') {
        out.push('\n');
    }
    out
}

fn canonical<T: Serialize>(record: &T, (tmpl, required): &(Value, Value)) -> String {
    let mut value = serde_json::to_value(record).expect("records serialize to JSON");
    prune(&mut value, tmpl, required);
    emit(&value)
}

/// Returns the canonical YAML text of a memory (call [`Memory::normalize`] first).
pub fn memory_to_string(memory: &Memory) -> String {
    canonical(memory, memory_template())
}

/// Returns the canonical YAML text of a preference.
pub fn preference_to_string(preference: &Preference) -> String {
    canonical(preference, preference_template())
}

/// Returns `value` as block-style YAML, in the writer's layout, with nothing
/// dropped (used for sections that are not part of a record, such as the
/// `conflicts:` a merge leaves).
pub fn value_to_string(value: &Value) -> String {
    emit(value)
}

/// Returns the canonical YAML text of a config.
pub fn config_to_string(config: &Config) -> String {
    canonical(config, config_template())
}

/// Finds the 1-based line where the dotted key path (`lineage.superseded_by`)
/// is written in a block-style YAML document, or the nearest parent that is.
pub fn line_of_key(text: &str, dotted: &str) -> Option<u32> {
    let mut found = None;
    let mut depth_indent: Vec<usize> = Vec::new();
    let parts: Vec<&str> = dotted.split('.').collect();
    let mut matched = 0;
    for (n, line) in text.lines().enumerate() {
        let trimmed = line.trim_start();
        if trimmed.is_empty() || trimmed.starts_with('#') || trimmed.starts_with('-') {
            continue;
        }
        let indent = line.len() - trimmed.len();
        while depth_indent.last().is_some_and(|&i| indent <= i) {
            depth_indent.pop();
            matched = matched.min(depth_indent.len());
        }
        if matched < parts.len() && depth_indent.len() == matched {
            let key = parts[matched];
            if trimmed
                .strip_prefix(key)
                .is_some_and(|r| r.starts_with(':'))
            {
                matched += 1;
                depth_indent.push(indent);
                found = Some(u32::try_from(n + 1).unwrap_or(u32::MAX));
                if matched == parts.len() {
                    return found;
                }
            }
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    const FULL: &str = r#"schema_version: 1
id: ledger-rows-are-append-only-0c1d2e3f
type: gotcha
status: active
title: Ledger rows are append-only
summary: Never UPDATE or DELETE rows in ledger_entries; write a reversing entry.
detail: |
  Reconciliation replays the ledger from the start.

  ```sql
  INSERT INTO ledger_entries (amount) VALUES (-100);
  ```
importance: critical
risk: high
confidence: 0.9
tags:
- ledger
- postgres
scope:
  paths:
  - src/ledger/**
  modules:
  - ledger
routing:
  required_skills:
  - ledger-invariant-check
  invocation_mode: required
validity:
  valid_from: "2026-01-01T00:00:00Z"
  expires: "2026-12-31"
lineage:
  version: 2
  supersedes:
  - old-ledger-rule-00000001
provenance:
  source: commit
  captured_at: "2026-01-02T03:04:05Z"
  proposed_by: Ann <ann@example.com>
  evidence:
  - kind: commit
    value: 9f3c2ab
review:
  state: approved
  decided_at: "2026-01-03T00:00:00Z"
notes: "yes"
"#;

    #[test]
    fn canonical_file_round_trips_byte_for_byte() {
        let m = parse_memory(FULL).unwrap();
        assert_eq!(memory_to_string(&m), FULL);
    }

    #[test]
    fn defaults_are_omitted_and_required_keys_kept() {
        let m = parse_memory(MEMORY_MINIMAL.replace("id: x", "id: x-1").as_str()).unwrap();
        let text = memory_to_string(&m);
        assert_eq!(
            text,
            "schema_version: 1\nid: x-1\ntype: decision\nstatus: active\ntitle: t\nsummary: s\nprovenance:\n  source: manual\n  captured_at: \"2000-01-01T00:00:00Z\"\n"
        );
    }

    fn err(text: &str) -> YamlError {
        parse_memory(text).unwrap_err()
    }

    #[test]
    fn errors_carry_line_column_and_field() {
        let bad_enum = FULL.replace("importance: critical", "importance: urgent");
        let e = err(&bad_enum);
        assert_eq!(e.line, Some(13), "{e:?}");
        assert_eq!(e.field.as_deref(), Some("importance"));
        assert!(e.message.contains("urgent"), "{e:?}");

        let unknown = FULL.replace("risk: high", "risk: high\nstatuss: active");
        let e = err(&unknown);
        assert_eq!(e.line, Some(15), "{e:?}");
        assert!(e.message.contains("statuss"), "{e:?}");

        let version = FULL.replace("schema_version: 1", "schema_version: 2");
        let e = err(&version);
        assert_eq!(e.line, Some(1), "{e:?}");
        assert!(e.message.contains("schema_version 2"), "{e:?}");

        let missing = FULL.replace(
            "summary: Never UPDATE or DELETE rows in ledger_entries; write a reversing entry.\n",
            "",
        );
        let e = err(&missing);
        assert!(e.message.contains("summary"), "{e:?}");

        let syntax = FULL.replace("tags:\n- ledger", "tags:\n- ledger\n  : [");
        let e = err(&syntax);
        assert!(e.line.is_some(), "{e:?}");

        let dup = FULL.replace("risk: high", "risk: high\nrisk: low");
        let e = err(&dup);
        assert_eq!(e.line, Some(15), "{e:?}");

        let bad_id = FULL.replace("id: ledger", "id: ../ledger");
        let e = err(&bad_id);
        assert_eq!(e.field.as_deref(), Some("id"), "{e:?}");
        assert_eq!(e.line, Some(2), "{e:?}");
    }

    #[test]
    fn ambiguous_scalars_stay_strings() {
        let mut m = parse_memory(FULL).unwrap();
        m.tags = vec![
            "yes".into(),
            "on".into(),
            "1e3".into(),
            "~".into(),
            "012".into(),
        ];
        m.title = "#hash: colon - dash".into();
        let text = memory_to_string(&m);
        let back = parse_memory(&text).unwrap();
        assert_eq!(back, m);
    }

    #[test]
    fn key_lines() {
        assert_eq!(line_of_key(FULL, "status"), Some(4));
        assert_eq!(line_of_key(FULL, "lineage.version"), Some(32));
        // A key that is absent points at its parent section.
        assert_eq!(line_of_key(FULL, "lineage.superseded_by"), Some(31));
        assert_eq!(line_of_key(FULL, "review.state"), Some(43));
        assert_eq!(line_of_key(FULL, "validity.valid_until"), Some(28));
        // `value` under a list item is not mistaken for a top-level key.
        assert_eq!(line_of_key(FULL, "notes"), Some(45));
        assert_eq!(line_of_key(FULL, "nothing"), None);
    }
}
