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
            // As written: "buf lint's DEFAULT rules" are the tool's rules,
            // not a note.
            if !starts.is_empty()
                || !NAMED_KINDS.contains(&w.as_str())
                || raw.get(end).is_some_and(|r| r != w)
            {
                continue;
            }
            // "the no-CPU-limit rule", or a clause that opens on it: "TTL
            // rule: sessions slide".
            let opening = (end <= NAMED_WORDS).then_some(0);
            let Some(first) = (end.saturating_sub(NAMED_WORDS + 1)..end)
                .rev()
                .find(|&i| clause[i] == "the")
                .map(|the| the + 1)
                .or(opening)
            else {
                continue;
            };
            let object = object_words(clause[first..end].iter());
            // One word names a note when it is a name in code or an
            // acronym: "the `$fillable` rule", "the UTC rule", not "the
            // lint rule".
            if object.len() >= 2
                || (object.len() == 1
                    && object
                        .iter()
                        .all(|w| in_code(written, w) || acronym(written, w)))
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

/// Whether `word` (a [`words`] word) is written in `text` as an acronym:
/// two or more capitals ("UTC", "PDB", "TTL").
fn acronym(text: &str, word: &str) -> bool {
    text.split(|c: char| !c.is_alphanumeric()).any(|t| {
        t.len() >= 2
            && t.chars()
                .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit())
            && t.chars().any(|c| c.is_ascii_uppercase())
            && t.to_lowercase() == word
    })
}

/// Whether the acronym `word` (lowercase, as [`words`] gives it) is
/// spelled out in `text` by the initials of a name in camel case
/// (`PodDisruptionBudget` for "pdb") or of consecutive words in title case
/// ("Time To Live" for "ttl").
pub(super) fn spelled_out(word: &str, text: &str) -> bool {
    let n = word.chars().count();
    if !(2..=6).contains(&n) {
        return false;
    }
    let tokens: Vec<&str> = text
        .split(|c: char| !c.is_alphanumeric())
        .filter(|t| !t.is_empty())
        .collect();
    let camel = tokens.iter().any(|t| {
        if !t.chars().any(|c| c.is_ascii_lowercase()) {
            return false;
        }
        let initials: String = t
            .char_indices()
            .filter(|&(i, c)| i == 0 || c.is_ascii_uppercase())
            .map(|(_, c)| c.to_ascii_lowercase())
            .collect();
        initials.chars().count() >= 2 && initials == word
    });
    // Words in title case: "Pod Disruption Budget", "Time To Live".
    let capitalised = |t: &&str| {
        let mut c = t.chars();
        c.next().is_some_and(|f| f.is_ascii_uppercase()) && c.all(|c| c.is_ascii_lowercase())
    };
    let letters: Vec<char> = word.chars().collect();
    camel
        || tokens.windows(n).any(|w| {
            w.iter().all(capitalised)
                && w.iter()
                    .zip(&letters)
                    .all(|(t, l)| t.starts_with(l.to_ascii_uppercase()))
        })
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
            // Or an acronym; a clause may open on the name.
            (
                "Heads-up on the PDB rule: write them with maxUnavailable.",
                &[&["pdb"]],
            ),
            ("TTL rule: sessions use sliding expiry.", &[&["ttl"]]),
            // A call names the rule whole.
            (
                "Learned: the Depends(get_session) rule has one exception.",
                &[&["depend", "get", "session"]],
            ),
            // An instruction to add something names nothing it extends.
            ("Add to the allow list any new shader keyword.", &[]),
            ("Retries also apply to 429 responses.", &[]),
            // A tool's rules are no note.
            ("buf lint's DEFAULT rules flag it anyway.", &[]),
            ("Per the UTC policy, store instants only.", &[&["utc"]]),
        ];
        for (text, want) in cases {
            let want: Vec<BTreeSet<String>> = want
                .iter()
                .map(|o| o.iter().map(|w| (*w).to_owned()).collect())
                .collect();
            assert_eq!(added_to(text), want, "{text}");
        }
    }

    #[test]
    fn acronyms_are_spelled_out_by_initials() {
        let cases = [
            (
                "pdb",
                "Multi-replica workloads get a PodDisruptionBudget",
                true,
            ),
            ("ttl", "Keys live for their Time To Live", true),
            ("ttl", "Keys live for their time to live", false),
            ("ttl", "Every Redis key needs a TTL", false),
            ("pdb", "Pods drain before backups", false),
            ("p", "PodDisruptionBudget", false),
        ];
        for (word, text, want) in cases {
            assert_eq!(spelled_out(word, text), want, "{word} in {text}");
        }
    }
}
