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
pub use memory::{Memory, Routing, Scope, eligible};
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

/// Returns the candidate most similar to `query`, if it is similar enough to be
/// a likely typo (Jaro-Winkler similarity of at least 0.85; ties go to the
/// smallest candidate).
pub fn closest<'a>(query: &str, candidates: impl Iterator<Item = &'a str>) -> Option<String> {
    candidates
        .map(|c| (strsim::jaro_winkler(query, c), c))
        .filter(|(score, _)| *score >= 0.85)
        .max_by(|(sa, a), (sb, b)| sa.total_cmp(sb).then_with(|| b.cmp(a)))
        .map(|(_, c)| c.to_owned())
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
/// Returns the first control character in `text` that a field may not
/// hold, and its column (in characters, from 1): any, in a one-line field
/// such as a title; any but line feed and tab in a multi-line one. A
/// carriage return or an escape sequence in a title would let a record
/// rewrite what `list` and `show` print around it.
pub fn control_char(text: &str, multiline: bool) -> Option<(char, usize)> {
    text.chars()
        .enumerate()
        .find(|&(_, c)| c.is_control() && !(multiline && (c == '\n' || c == '\t')))
        .map(|(i, c)| (c, i + 1))
}

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
    fn closest_suggests_only_likely_typos() {
        let ids = [
            "use-sqlx-3fa91c07",
            "ledger-append-only-0c1d2e3f",
            "inject.budget_tokens",
        ];
        let cases = [
            ("use-sqlz-3fa91c07", Some("use-sqlx-3fa91c07")),
            ("ledger-apend-only", Some("ledger-append-only-0c1d2e3f")),
            ("inject.budget", Some("inject.budget_tokens")),
            ("completely-different", None),
            ("", None),
        ];
        for (query, expected) in cases {
            assert_eq!(
                closest(query, ids.into_iter()).as_deref(),
                expected,
                "{query}"
            );
        }
    }

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
