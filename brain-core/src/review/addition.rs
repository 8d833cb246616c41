//! Additions that name what they add to: "Adding to the 500 ms watchdog
//! note, …", "Building on the nightly vacuum note, …", "Following up on the
//! cache-key rule: …". The words after the phrase, in its clause, name the
//! memory the candidate extends, the way replacement wording names the
//! memory it replaces (see `replacement.rs`). Pure; no I/O.

use std::collections::BTreeSet;

use super::replacement::object_words;
use super::text::{clause_texts, words};

/// Phrases that add to an earlier note and name it after them. Phrases in
/// the progressive ("adding to") only count written that way: "add to the
/// allow list" is an instruction, not a reference. "In addition to" and "on
/// top of" are not among them: they add a thing to a thing ("in addition to
/// unit tests, run the contract tests"), not to a note.
const ADDING_TO: &[&str] = &[
    "adding to",
    "to add to",
    "further to",
    "following up on",
    "follow-up to",
    "follow up on",
    "building on",
    "more on",
    "addendum to",
    "complement to",
    "complementing",
    "supplement to",
    "supplementing",
    "companion to",
];

/// Words that say what kind of note is extended ("the watchdog *note*",
/// "the cache-key *gotcha*"), not which one.
const KIND_WORDS: &[&str] = &[
    "note",
    "memory",
    "entry",
    "gotcha",
    "convention",
    "decision",
    "pattern",
    "doc",
    "section",
    "point",
    "item",
    "tip",
    "advice",
];

/// The words naming what each additive reference in `text` adds to, one set
/// per reference (empty sets left out).
pub(super) fn added_to(text: &str) -> Vec<BTreeSet<String>> {
    let needles: Vec<(&str, Vec<String>)> = ADDING_TO.iter().map(|p| (*p, words(p))).collect();
    let mut out = Vec::new();
    for written in clause_texts(text) {
        let clause = words(written);
        let raw: Vec<String> = written
            .split(|c: char| !c.is_alphanumeric())
            .filter(|w| !w.is_empty())
            .map(str::to_lowercase)
            .collect();
        let mut starts: Vec<usize> = Vec::new();
        for (phrase, needle) in &needles {
            let n = needle.len();
            if n == 0 || clause.len() < n {
                continue;
            }
            for start in (0..=clause.len() - n).filter(|&i| clause[i..i + n] == needle[..]) {
                let written_so = phrase
                    .split(|c: char| !c.is_alphanumeric())
                    .zip(&raw[start..])
                    .all(|(p, r)| !p.ends_with("ing") || r.ends_with("ing"));
                if !written_so || starts.contains(&start) {
                    continue;
                }
                starts.push(start);
                let mut object = object_words(clause[start + n..].iter());
                object.retain(|w| !KIND_WORDS.contains(&w.as_str()));
                if !object.is_empty() {
                    out.push(object);
                }
            }
        }
        // "The no-editing rule is for V__ files only", "the exception to
        // the no-CPU-limit rule": a note named by what it says (unless a
        // phrase above already named it).
        for (end, w) in clause.iter().enumerate() {
            if !starts.is_empty() || !NAMED_KINDS.contains(&w.as_str()) {
                continue;
            }
            let Some(the) = (end.saturating_sub(NAMED_WORDS + 1)..end)
                .rev()
                .find(|&i| clause[i] == "the")
            else {
                continue;
            };
            let object = object_words(clause[the + 1..end].iter());
            // One word names a note when it is a name in code: "the
            // `$fillable` rule", not "the lint rule".
            if object.len() >= 2
                || (object.len() == 1 && object.iter().all(|w| in_code(written, w)))
            {
                out.push(object);
            }
        }
    }
    out
}

/// Whether `word` (a [`words`] word) is written in `text` as a name in code:
/// in backticks, after a sigil (`$fillable`, `@Transactional`) or as an
/// identifier (`select_for_update`, `useEffect`).
fn in_code(text: &str, word: &str) -> bool {
    let quoted = text.split('`').skip(1).step_by(2);
    let sigils = text
        .split_whitespace()
        .filter(|t| t.starts_with(['$', '@']) || t.contains('_'));
    quoted
        .chain(sigils)
        .any(|t| words(t).iter().any(|w| w == word))
        || super::text::terms(text)
            .iter()
            .any(|t| t.words.len() == 1 && t.words[0] == word)
}

/// Words after which "the … rule" names an earlier note by what it says.
const NAMED_KINDS: &[&str] = &["rule", "convention", "guideline", "policy"];

/// How many words "the … rule" may hold.
const NAMED_WORDS: usize = 4;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn additions_name_what_they_add_to() {
        let cases: &[(&str, &[&[&str]])] = &[
            (
                "Adding to the 500 ms watchdog note - long erases stall the CPU.",
                &[&["500", "ms", "watchdog"]],
            ),
            (
                "Building on the nightly VACUUM note, run ANALYZE after bulk loads.",
                &[&["nightly", "vacuum"]],
            ),
            (
                "Complement to the 5 s upload timeout: retry twice on 503.",
                &[&["upload", "timeout"]],
            ),
            // A thing added to a thing names no note.
            ("In addition to unit tests, run the contract tests.", &[]),
            (
                "Following up on the cache key rule: include the locale.",
                &[&["cache", "key"]],
            ),
            // A note named by what it says.
            (
                "Batch jobs are the exception to the no-CPU-limit rule.",
                &[&["cpu", "limit"]],
            ),
            // One word names no note; a reference above is not read twice.
            ("The lint rule stays.", &[]),
            // Unless it is a name in code.
            (
                "The $fillable rule also applies to custom pivot classes.",
                &[&["fillable"]],
            ),
            // An instruction to add something names nothing it extends.
            ("Add to the allow list any new shader keyword.", &[]),
            ("Retries also apply to 429 responses.", &[]),
        ];
        for (text, want) in cases {
            let want: Vec<BTreeSet<String>> = want
                .iter()
                .map(|o| o.iter().map(|w| (*w).to_owned()).collect())
                .collect();
            assert_eq!(added_to(text), want, "{text}");
        }
    }
}
