//! Pure data: memories, preferences, their vocabularies and invariants. No I/O.
//!
//! Everything that can be said about one record without looking at the rest of
//! the store lives here: field types, canonical normal form
//! ([`Memory::normalize`]), the status transition table ([`status::TRANSITIONS`])
//! and per-record invariants ([`Memory::problems`]).

pub mod id;
pub mod kind;
pub mod memory;
pub mod preference;
pub mod sections;
pub mod status;

pub use id::{IdError, MemoryId};
pub use kind::{Importance, InvocationMode, MemoryType, Risk, UnknownWord};
pub use memory::{Memory, Routing, Scope};
pub use preference::{Preference, PreferenceKind, TargetType};
pub use sections::{
    Confidence, DateOrTime, Evidence, EvidenceKind, Lineage, Provenance, Review, ReviewState,
    SCHEMA_VERSION, SchemaVersion, Source, Validity,
};
pub use status::Status;

/// One thing wrong with a record, pointing at the offending field.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// Dotted path of the field, e.g. `lineage.superseded_by`.
    pub field: &'static str,
    /// What is wrong, in lowercase without a trailing period.
    pub message: String,
}

/// Trims, sorts and de-duplicates a list of words; drops empty entries.
pub(crate) fn normalize_list(list: &mut Vec<String>) {
    for item in list.iter_mut() {
        let trimmed = item.trim();
        if trimmed.len() != item.len() {
            *item = trimmed.to_owned();
        }
    }
    list.retain(|s| !s.is_empty());
    list.sort();
    list.dedup();
}

/// Like [`normalize_list`], for repository paths and globs: `\` becomes `/`, a
/// leading `./` and a trailing `/` are dropped.
pub(crate) fn normalize_path_list(list: &mut Vec<String>) {
    for item in list.iter_mut() {
        let mut p = item.trim().replace('\\', "/");
        let start = p.len() - p.trim_start_matches("./").len();
        p.drain(..start);
        while p.len() > 1 && p.ends_with('/') {
            p.pop();
        }
        *item = p;
    }
    normalize_list(list);
}

/// Multi-line text: trailing white space removed from every line, no trailing
/// blank lines, and one final newline when the text spans several lines.
pub(crate) fn normalize_text(text: &str) -> String {
    let lines: Vec<&str> = text.trim_end().lines().map(str::trim_end).collect();
    let trimmed_start = lines.iter().skip_while(|l| l.is_empty()).copied();
    let joined: Vec<&str> = trimmed_start.collect();
    match joined.len() {
        0 => String::new(),
        1 => joined[0].trim_start().to_owned(),
        _ => {
            let mut s = joined.join("\n");
            s.push('\n');
            s
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_normal_form() {
        let cases = [
            ("", ""),
            ("  one line  ", "one line"),
            ("\n\nfirst\nsecond  \n\n", "first\nsecond\n"),
            ("  indented\n  code\n", "  indented\n  code\n"),
        ];
        for (input, expected) in cases {
            assert_eq!(normalize_text(input), expected, "{input:?}");
        }
    }

    #[test]
    fn path_lists() {
        let mut l = vec![
            "./src/a/".to_owned(),
            "src\\a".to_owned(),
            " ".to_owned(),
            "/".to_owned(),
        ];
        normalize_path_list(&mut l);
        assert_eq!(l, ["/", "src/a"]);
    }
}
