//! Three-way merge of one record file, field by field: what `brain
//! merge-driver` does when git merges two branches that both changed a file
//! under `.brain/`.
//!
//! The three versions are read as YAML values and merged recursively:
//! - a field changed on one side only takes that side's value;
//! - mappings merge key by key, so edits to different fields never conflict;
//! - lists merge as sets (every list in a record is sorted in canonical form,
//!   so order carries no meaning): what either side added is kept, what
//!   either side removed is dropped;
//! - a field both sides changed to different values (or one changed and the
//!   other deleted) is a true conflict. The merged file keeps our value, so
//!   it stays a record, and gets a top-level `conflicts:` list naming the
//!   field with its base, ours and theirs values. That key is not part of the
//!   record format, so every reader skips the file and `brain lint` reports
//!   each entry as an error until someone picks a value and deletes the list.
//!
//! The result is always plain YAML, never conflict markers. Pure: texts in,
//! text out; the CLI reads and writes the files git names.

use serde_json::{Map, Value};

use crate::yaml::{self, YamlError};

/// The top-level key that holds a merge's unresolved conflicts.
pub const CONFLICTS_KEY: &str = "conflicts";

/// Which version of the file a problem is in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    /// The common ancestor (`%O`).
    Base,
    /// The current branch (`%A`).
    Ours,
    /// The branch being merged (`%B`).
    Theirs,
}

impl std::fmt::Display for Side {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Side::Base => "base",
            Side::Ours => "ours",
            Side::Theirs => "theirs",
        })
    }
}

/// Why a file could not be merged at all.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// One version is not a YAML mapping.
    #[error("the {side} version is not a YAML mapping")]
    Unreadable {
        /// Which version.
        side: Side,
        /// The parse error, when the text is not YAML at all.
        #[source]
        source: Option<YamlError>,
    },
    /// The merged fields do not make a valid record.
    #[error("the merged fields do not make a valid record")]
    Invalid {
        /// What the record reader said.
        #[source]
        source: YamlError,
    },
}

/// One field both sides changed differently.
#[derive(Clone, Debug, PartialEq)]
pub struct Conflict {
    /// Dotted field path (`scope.modules`, `summary`).
    pub field: String,
    /// The ancestor's value; `None` when the field was absent.
    pub base: Option<Value>,
    /// Our value; `None` when we deleted the field.
    pub ours: Option<Value>,
    /// Their value; `None` when they deleted the field.
    pub theirs: Option<Value>,
}

/// The merged file.
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    /// The text to write in place of ours: canonical when there is no conflict.
    pub text: String,
    /// True conflicts, in field order; empty when the merge is clean.
    pub conflicts: Vec<Conflict>,
}

/// What kind of file a repository path holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Memory,
    Preference,
    Other,
}

fn kind_of(path: &str) -> Kind {
    let path = path.replace('\\', "/");
    let Some(rest) = path
        .strip_prefix(".brain/")
        .or_else(|| path.rsplit_once("/.brain/").map(|(_, r)| r))
    else {
        return Kind::Other;
    };
    let yaml = std::path::Path::new(rest)
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("yaml"));
    if !yaml || rest.starts_with("runtime/") || !rest.contains('/') {
        return Kind::Other;
    }
    if rest.starts_with("preferences/") {
        Kind::Preference
    } else {
        Kind::Memory
    }
}

fn read(side: Side, text: &str, allow_empty: bool) -> Result<Map<String, Value>, Error> {
    if allow_empty && text.trim().is_empty() {
        return Ok(Map::new());
    }
    match yaml::to_json_value(text) {
        Ok(Value::Object(map)) => Ok(map),
        Ok(_) => Err(Error::Unreadable { side, source: None }),
        Err(e) => Err(Error::Unreadable {
            side,
            source: Some(e),
        }),
    }
}

/// Merges `ours` and `theirs` against `base` for the file at `path`
/// (relative to the repository, as git's `%P`). An empty `base` means the
/// file was added on both sides.
pub fn merge(path: &str, base: &str, ours: &str, theirs: &str) -> Result<Outcome, Error> {
    let mut base = read(Side::Base, base, true)?;
    let mut ours = read(Side::Ours, ours, false)?;
    let mut theirs = read(Side::Theirs, theirs, false)?;
    // Conflicts left unresolved by an earlier merge are carried over.
    base.shift_remove(CONFLICTS_KEY);
    let mut earlier = Vec::new();
    for map in [&mut ours, &mut theirs] {
        if let Some(Value::Array(list)) = map.shift_remove(CONFLICTS_KEY) {
            for entry in list {
                if !earlier.contains(&entry) {
                    earlier.push(entry);
                }
            }
        }
    }
    let mut conflicts = Vec::new();
    let merged = merge_maps("", &base, &ours, &theirs, &mut conflicts);
    let merged = Value::Object(merged);
    let record = canonical(kind_of(path), &merged);
    let text = match (record, conflicts.is_empty() && earlier.is_empty()) {
        (Ok(text), true) => text,
        (Err(source), true) => return Err(Error::Invalid { source }),
        (record, false) => {
            let mut text = record.unwrap_or_else(|_| yaml::value_to_string(&merged));
            let mut list = earlier;
            list.extend(conflicts.iter().map(conflict_value));
            let mut section = Map::new();
            section.insert(CONFLICTS_KEY.to_owned(), Value::Array(list));
            text.push_str(&yaml::value_to_string(&Value::Object(section)));
            text
        }
    };
    Ok(Outcome { text, conflicts })
}

/// The canonical text of the merged record, through the strict reader.
fn canonical(kind: Kind, merged: &Value) -> Result<String, YamlError> {
    let text = yaml::value_to_string(merged);
    match kind {
        Kind::Memory => {
            let mut memory = yaml::parse_memory(&text)?;
            memory.normalize();
            Ok(yaml::memory_to_string(&memory))
        }
        Kind::Preference => {
            let preference = yaml::parse_preference(&text)?;
            Ok(yaml::preference_to_string(&preference))
        }
        Kind::Other => Ok(text),
    }
}

fn conflict_value(c: &Conflict) -> Value {
    let mut entry = Map::new();
    entry.insert("field".to_owned(), Value::String(c.field.clone()));
    for (key, value) in [("base", &c.base), ("ours", &c.ours), ("theirs", &c.theirs)] {
        if let Some(v) = value {
            entry.insert(key.to_owned(), v.clone());
        }
    }
    Value::Object(entry)
}

fn merge_maps(
    prefix: &str,
    base: &Map<String, Value>,
    ours: &Map<String, Value>,
    theirs: &Map<String, Value>,
    conflicts: &mut Vec<Conflict>,
) -> Map<String, Value> {
    let mut keys: Vec<&String> = ours.keys().collect();
    keys.extend(theirs.keys().filter(|k| !ours.contains_key(*k)));
    keys.extend(
        base.keys()
            .filter(|k| !ours.contains_key(*k) && !theirs.contains_key(*k)),
    );
    let mut out = Map::new();
    for key in keys {
        let field = if prefix.is_empty() {
            key.clone()
        } else {
            format!("{prefix}.{key}")
        };
        if let Some(v) = merge_value(
            &field,
            base.get(key),
            ours.get(key),
            theirs.get(key),
            conflicts,
        ) {
            out.insert(key.clone(), v);
        }
    }
    out
}

fn merge_value(
    field: &str,
    base: Option<&Value>,
    ours: Option<&Value>,
    theirs: Option<&Value>,
    conflicts: &mut Vec<Conflict>,
) -> Option<Value> {
    if ours == theirs || theirs == base {
        return ours.cloned();
    }
    if ours == base {
        return theirs.cloned();
    }
    match (base, ours, theirs) {
        (None | Some(Value::Object(_)), Some(Value::Object(o)), Some(Value::Object(t))) => {
            let empty = Map::new();
            let b = base.and_then(Value::as_object).unwrap_or(&empty);
            Some(Value::Object(merge_maps(field, b, o, t, conflicts)))
        }
        (None | Some(Value::Array(_)), Some(Value::Array(o)), Some(Value::Array(t))) => {
            let b: &[Value] = base.and_then(Value::as_array).map_or(&[], Vec::as_slice);
            Some(Value::Array(merge_sets(b, o, t)))
        }
        _ => {
            conflicts.push(Conflict {
                field: field.to_owned(),
                base: base.cloned(),
                ours: ours.cloned(),
                theirs: theirs.cloned(),
            });
            ours.cloned()
        }
    }
}

/// Lists as sets: everything either side has, minus what either side removed.
fn merge_sets(base: &[Value], ours: &[Value], theirs: &[Value]) -> Vec<Value> {
    let removed = |v: &Value| base.contains(v) && (!ours.contains(v) || !theirs.contains(v));
    let mut out: Vec<Value> = Vec::new();
    for v in ours.iter().chain(theirs) {
        if !removed(v) && !out.contains(v) {
            out.push(v.clone());
        }
    }
    out
}

/// Returns the fields named by a file's `conflicts:` list, or `None` when the
/// file has no such list (or is not YAML).
pub fn unresolved(text: &str) -> Option<Vec<String>> {
    let Ok(Value::Object(map)) = yaml::to_json_value(text) else {
        return None;
    };
    let list = map.get(CONFLICTS_KEY)?;
    let fields = list
        .as_array()
        .map(|l| {
            l.iter()
                .map(|e| {
                    e.get("field")
                        .and_then(Value::as_str)
                        .unwrap_or("?")
                        .to_owned()
                })
                .collect()
        })
        .unwrap_or_default();
    Some(fields)
}

#[cfg(test)]
mod tests;
