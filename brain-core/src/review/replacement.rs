//! Replacement wording: the phrases that say a text replaces, moves or
//! retires something ("instead of", "no longer", "moved to", "was
//! removed"), and the words next to each phrase that name what is replaced.
//!
//! Matching is on whole words after stemming (see [`words`]), clause by
//! clause (see [`clauses`]); a phrase right after a negation ("rows are
//! never deleted") says nothing is replaced. Pure; no I/O.

use std::collections::BTreeSet;
use std::sync::OnceLock;

use super::text::{STOPWORDS, clause_texts, root, stem, words};

/// Wording that says a text replaces an earlier rule.
pub const REPLACEMENT_WORDING: &[&str] = &[
    "instead of",
    "no longer",
    "not anymore",
    "replaces",
    "replaced by",
    "supersedes",
    "deprecated",
    "switch from",
    "switched from",
    "switched to",
    "migrate from",
    "migrated from",
    "moved away from",
    "moved off",
    "went from",
    "changed from",
    "stop using",
    "stopped using",
    "in favor of",
    "in favour of",
    "switched off",
    "turned off",
    "shut down",
    "phased out",
    "decommissioned",
    "retired",
    "gone",
    "destroyed",
    "replaced",
    "moved from",
    "extracted from",
    "split out of",
    "ported from",
    "moved",
    "migrated",
    "switched",
    "ported",
    "moved to",
    "moved into",
    "extracted into",
    "turned into",
    "split out into",
    "split into",
    "was split up",
    "were split up",
    "been split up",
    "relocated to",
    "relocated",
    "now lives in",
    "now live in",
    "now in",
    "now sit in",
    "now sit under",
    "was removed",
    "were removed",
    "been removed",
    "was deleted",
    "were deleted",
    "been deleted",
    "is deleted",
    "are deleted",
    "uninstalled",
    "was dropped",
    "were dropped",
    "dropped",
    "archived",
    "obsolete",
    "superseded by",
    "discontinued",
    "abandoned",
    "sunset",
    "sunsetted",
    "ditched",
    "got rid of",
    "ripped out",
    "was stripped",
    "were stripped",
    "was taken out",
    "were taken out",
    "was torn out",
    "were torn out",
    "is legacy",
    "are legacy",
    "is banned",
    "are banned",
    "was banned",
    "were banned",
    "scheduled for deletion",
    "not used anywhere",
    "reversing",
    "reversed",
    "removed",
    DELETED,
    OUT_OF,
    "moved out of",
    "pulled out of",
    "renamed to",
    "renamed from",
    "renamed",
    "will be deleted",
    "will be removed",
    "will be dropped",
    "will be retired",
    "being removed",
    "no more",
    THERE_IS_NO,
    THERE_ARE_NO,
    "anymore",
    "any more",
    "went away",
    "going away",
    STOP_DOING,
    USED_TO,
    BRING_BACK,
];

/// The phrase reported for "stop" or "quit" before a gerund ("Stop editing
/// CHANGELOG.md by hand", "we stopped vendoring protobufs"): any verb, so it
/// is found by its form, not by its words.
const STOP_DOING: &str = "stop doing";

/// The phrase reported for something a person deleted ("we deleted every
/// `.eslintrc.cjs`"), found by its form: "deleted invoices are purged" and
/// "soft-deleted rows" name a state, not a retirement.
const DELETED: &str = "deleted";

/// The phrase reported for a thing taken out of where it was ("logrus is
/// out of go.mod", "`BinaryFormatter` is out of `SaveSystem`"), found by its
/// form: "the cache is out of date" and "the pod ran out of memory" name a
/// state.
const OUT_OF: &str = "is out of";

/// Words after "out of" that make it a state, not a place: "out of date",
/// "out of the box".
const OUT_OF_STATES: &[&str] = &[
    "date",
    "memory",
    "sync",
    "space",
    "scope",
    "range",
    "bounds",
    "order",
    "box",
    "band",
    "disk",
    "stock",
    "reach",
    "time",
    "budget",
    "quota",
    "luck",
    "hand",
    "line",
    "control",
    "way",
    "loop",
    "question",
    "context",
    "tokens",
    "retries",
    "breath",
    "service",
    "commission",
    "office",
];

/// Words before "deleted" that make it something done: a person, or a
/// perfect's auxiliary ("we've deleted", "has been" is the passive's).
const DELETERS: &[&str] = &[
    "we", "i", "they", "team", "you", "ve", "have", "had", "has", "finally", "just", "also", "then",
];

/// Phrases that say a thing no longer exists, when a file follows them
/// (see [`names_a_file_next`]).
const THERE_IS_NO: &str = "there is no";
/// See [`THERE_IS_NO`].
const THERE_ARE_NO: &str = "there are no";

/// Whether one of the three words after "there is (are) no" in `written`
/// is a file or path (`manifest.js`, `config/app.yml`), in backticks or not.
fn names_a_file_next(written: &str) -> bool {
    let lower = written.to_lowercase();
    [THERE_IS_NO, THERE_ARE_NO].iter().any(|p| {
        lower.match_indices(p).any(|(i, _)| {
            lower[i + p.len()..].split_whitespace().take(3).any(|t| {
                let t = t.trim_matches(|c: char| !c.is_alphanumeric());
                t.contains(['.', '/'])
            })
        })
    })
}

/// The phrase reported for a thing not to be brought back ("do not add the
/// classic resteasy extensions back"), found by its form: a refusal, a verb
/// of adding, and "back" closing what it names.
const BRING_BACK: &str = "don't add back";

/// Verbs that add a thing back after a refusal.
const ADD_VERBS: &[&str] = &["add", "bring", "put", "reintroduce", "readd", "re"];

/// The phrase reported for a former practice ("we used to deploy from the
/// bastion host"), found by its form since "X is used to sign requests"
/// says what X is for.
const USED_TO: &str = "used to";

/// The phrase reported for a place stated as new ("the generated client
/// lives in packages/api-client now"): found by its form, a verb of place
/// with "now" closing the clause, since "X lives in Y" alone is no move.
const LIVES_NOW: &str = "now lives in";

/// Verbs of place that, with "now" closing the clause, tell of a move.
const PLACE_VERBS: &[&str] = &[
    "live", "lives", "sit", "sits", "reside", "resides", "belong", "belongs",
];

/// Words before "stop"/"quit" that make it a practice given up: a person
/// ("we", "the team"), a modal or an imperative's opening ("please",
/// "let's", "to").
const STOP_SUBJECTS: &[&str] = &[
    "we", "i", "you", "they", "team", "please", "let", "s", "to", "should", "must", "will", "ll",
    "can", "also", "now", "finally", "just", "and", "so", "then",
];

/// Words before "to stop …" that make it a decision to stop, not a purpose.
const INTENT: &[&str] = &[
    "decided", "decide", "need", "needs", "have", "has", "had", "want", "wants", "time", "going",
    "agreed", "plan", "planned", "chose", "opted", "asked", "told", "remember", "tried", "try",
    "got", "please", "it", "is", "s",
];

/// Forms of "be", which make "moving off" a change under way and "used to"
/// a purpose.
const BE: &[&str] = &[
    "am", "is", "are", "was", "were", "be", "been", "being", "re", "s",
];

/// Verbs that end a practice when a gerund follows them.
const STOP_VERBS: &[&str] = &[
    "stop", "stops", "stopped", "stopping", "quit", "quits", "quitting",
];

/// Which side of a replacement phrase names the replaced thing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Side {
    /// "use X instead of **Y**", "we no longer **Y**", "X replaces **Y**".
    After,
    /// "**Y** is replaced by X", "**Y** was removed from Z".
    Before,
    /// "**Y** is deprecated", "the deprecated **Y**", "we switched off **Y**".
    Both,
    /// "we moved jobs from **Y** to Z": after a later "from" in the clause,
    /// else nothing.
    From,
}

/// Whether the phrase retires what it names ("X was dropped", "the
/// deprecated X", "we ditched X"), rather than telling of a move or a
/// switch, which everyday text also uses literally ("moved away from the
/// tab").
pub(super) fn retires(phrase: &str) -> bool {
    matches!(object_side(phrase), Side::Before | Side::Both)
        && !phrase.starts_with("moved")
        && !matches!(
            phrase,
            "now in"
                | "now lives in"
                | "now live in"
                | "now sit in"
                | "now sit under"
                | "relocated to"
                | "relocated"
                | "extracted into"
                | "turned into"
                | "split into"
                | "split out into"
        )
}

/// Whether the phrase is written as done, in the passive ("was removed",
/// "were dropped", "been deleted").
pub(super) fn reported_done(phrase: &str) -> bool {
    ["was ", "were ", "been "]
        .iter()
        .any(|p| phrase.starts_with(p))
}

/// Whether the phrase reports a retirement, done or decided ("has been
/// decommissioned", "was dropped", "will be deleted", "we ditched"), rather
/// than one that everyday text also uses as an instruction or for what a
/// thing does ("an INVALID index must be dropped", "Chrome shuts down the
/// worker", "the pipeline is gone").
pub(super) fn reports_retirement(phrase: &str) -> bool {
    retires(phrase)
        && (reported_done(phrase)
            || phrase.starts_with("will be ")
            || matches!(
                phrase,
                "decommissioned"
                    | "retired"
                    | "phased out"
                    | "discontinued"
                    | "sunsetted"
                    | "ditched"
                    | "ripped out"
                    | "abandoned"
                    | "archived"
                    | "uninstalled"
                    | OUT_OF
            ))
}

fn object_side(phrase: &str) -> Side {
    match phrase {
        // The passive names what went before it; after it comes where from
        // ("X was removed from the admin dashboard").
        "not anymore" | "anymore" | "any more" | "replaced by" | "superseded by" | "in favor of"
        | "in favour of" | "gone" | "went away" | "going away" | "moved to"
        | "moved into" | "extracted into" | "turned into" | "split into" | "split out into" | "was split up" | "were split up"
        | "been split up" | "relocated to" | "now lives in"
        | "now live in" | "now in" | "now sit in" | "now sit under" | "was removed"
        | "were removed" | "been removed" | "was deleted" | "were deleted" | "been deleted"
        | "is deleted" | "are deleted" | "was dropped" | "were dropped" | "is legacy" | "are legacy" | "removed" | "renamed to"
        | "is banned" | "are banned" | "was banned" | "were banned" | "scheduled for deletion"
        | "not used anywhere"
        | "will be deleted" | "will be removed" | "will be dropped" | "will be retired"
        | "being removed" | "switched to" | "was stripped" | "were stripped" | "was taken out"
        | "were taken out" | "was torn out" | "were torn out" => {
            Side::Before
        }
        "deprecated" | "switched off" | "turned off" | "shut down" | "phased out"
        | "decommissioned" | "retired" | "destroyed" | "dropped" | "archived" | "obsolete"
        | "discontinued" | "abandoned" | "sunset" | "sunsetted" | "ditched" | "ripped out"
        | "uninstalled"
        | "relocated" | "reversing" | "reversed" | "renamed"
        // What moved comes before, where it was after: "`RetryPolicy` moved
        // out of the ledger module".
        | "moved out of" | "pulled out of" | "extracted from" | "split out of" | "moved from"
        | OUT_OF => Side::Both,
        "moved" | "migrated" | "switched" | "ported" => Side::From,
        _ => Side::After,
    }
}

/// Conjunctions that open a clause of their own: what a replacement
/// phrase names stops before them (as [`words`] gives them: "whereas" is
/// `wherea`).
const SUBORDINATORS: &[&str] = &[
    "because", "whenever", "although", "though", "unless", "wherea",
];

/// Words that open a noun phrase: a participle right after one is an
/// adjective ("the renamed field").
const DETERMINERS: &[&str] = &[
    "the", "a", "an", "this", "that", "these", "those", "each", "every", "any", "its", "their",
];

/// Participles after "no longer" that say the thing before it went: "`$:`
/// statements are no longer accepted in review".
const NO_LONGER_ACCEPTED: &[&str] = &[
    "accepted",
    "allowed",
    "permitted",
    "supported",
    "used",
    "needed",
    "required",
    "wanted",
    "recommended",
    "welcome",
    "merged",
    "approved",
];

/// How many topic words next to a replacement phrase can name the replaced thing.
const OBJECT_WORDS: usize = 6;

/// Words that say nothing about *what* is replaced: "we no longer do it this
/// way", "this is no longer needed", "the old setup is obsolete", "the
/// script no longer exists": verbs of existence and need, pronouns, and the
/// nouns that say what kind of thing (a package, a folder, a tool), not
/// which.
const GENERIC_OBJECT: &[&str] = &[
    "only",
    "exist",
    "available",
    "maintained",
    "relevant",
    "possible",
    "allowed",
    "package",
    "setup",
    "wrapper",
    "folder",
    "step",
    "prop",
    "property",
    "option",
    "parameter",
    "directory",
    "dir",
    "library",
    "approach",
    "method",
    "mechanism",
    "them",
    "they",
    "everything",
    "something",
    "nothing",
    "anymore",
    "anything",
    "any",
    "appli",
    "apply",
    "case",
    "done",
    "hold",
    "here",
    "necessary",
    "need",
    "now",
    "one",
    "recommend",
    "requir",
    "rule",
    "support",
    "thing",
    "true",
    "use",
    "used",
    "valid",
    "way",
    "work",
    "code",
    "file",
    "logic",
    "dropp",
    "remov",
    "delet",
    "archiv",
    "entirely",
    "everywhere",
    "all",
    "new",
    "old",
    "there",
    "earlier",
    "previous",
    "former",
    "call",
    "decision",
    "choice",
    "definition",
    "declaration",
];

/// Words that negate a replacement phrase right after them: "rows are never
/// deleted", "it was not dropped".
const PHRASE_NEGATIONS: &[&str] = &[
    "not", "never", "no", "don", "doesn", "isn", "aren", "wasn", "weren", "won", "cannot",
    "shouldn", "mustn",
];

/// A replacement phrase found in a text, with the words that name what it
/// says is replaced.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Replaced {
    /// The phrase, one of [`REPLACEMENT_WORDING`].
    pub phrase: &'static str,
    /// Topic words naming the replaced thing, one set per side of the phrase
    /// that names something; empty when the phrase only refers back to what
    /// was said ("we no longer do it this way").
    pub objects: Vec<BTreeSet<String>>,
}

impl Replaced {
    /// Whether the phrase names nothing and only refers back.
    pub fn refers_back(&self) -> bool {
        self.objects.is_empty()
    }
}

/// Whether a word says nothing about *what* is replaced (compared by
/// [`root`], so "libraries" is "library").
fn generic_object(word: &str) -> bool {
    static ROOTS: OnceLock<BTreeSet<String>> = OnceLock::new();
    let roots = ROOTS.get_or_init(|| GENERIC_OBJECT.iter().map(|g| root(g)).collect());
    GENERIC_OBJECT.contains(&word) || roots.contains(&root(word))
}

/// The topic words of `words`, nearest first, that can name a replaced thing
/// (not the pieces of a negation: "don't" gives `don` and `t`).
pub(super) fn object_words<'w>(words: impl Iterator<Item = &'w String>) -> BTreeSet<String> {
    words
        .filter(|w| {
            w.chars().count() > 1
                && !STOPWORDS.contains(&w.as_str())
                && !PHRASE_NEGATIONS.contains(&w.as_str())
                && !generic_object(w)
        })
        .take(OBJECT_WORDS)
        .cloned()
        .collect()
}

/// Whether one of the two words before `i` negates what follows ("rows are
/// never deleted", "it was not dropped").
fn negated_at(clause: &[String], i: usize) -> bool {
    clause[i.saturating_sub(2)..i]
        .iter()
        .any(|w| PHRASE_NEGATIONS.contains(&w.as_str()))
}

/// Words that open a condition or a time clause.
const CONDITIONS: &[&str] = &[
    "after", "once", "until", "when", "whenever", "before", "unless", "if",
];

/// Words that open a condition that may never be met.
const HYPOTHETICAL: &[&str] = &["if", "when", "whenever", "unless"];

/// Whether the sentence holding `clause` (a slice of `text`) has a word of
/// [`CONDITIONS`] before it: "…, after invoicing, dunning and tax export
/// have moved to the v3 REST API".
fn opens_condition(text: &str, clause: &str) -> bool {
    let offset = (clause.as_ptr() as usize).saturating_sub(text.as_ptr() as usize);
    let Some(before) = text.get(..offset) else {
        return false;
    };
    let sentence = before
        .rfind(['.', '!', '?', '\n'])
        .map_or(before, |i| &before[i + 1..]);
    sentence
        .split(|c: char| !c.is_alphanumeric())
        .any(|w| CONDITIONS.contains(&w.to_lowercase().as_str()))
}

/// Whether the phrase at `start` of a clause (`raw`, lowercase words) is
/// told under a condition, not as a change made: a perfect after a word of
/// [`CONDITIONS`] ("once the callers have moved"), a present passive after
/// "if" or "when" ("whenever imports are added"), or "instead of" in a
/// situation a condition tells of. `conditional`: the sentence opens a
/// condition before the clause.
fn told_under_condition(phrase: &str, raw: &[String], start: usize, conditional: bool) -> bool {
    // "once the remaining callers have moved to REST v3": a
    // condition for what the sentence says, not a change made.
    let in_condition = conditional
        || raw[..start]
            .iter()
            .any(|w| CONDITIONS.contains(&w.as_str()));
    let auxiliary = raw[start.saturating_sub(3)..start]
        .iter()
        .rev()
        .find(|w| ["have", "has", "had", "is", "are", "get", "gets"].contains(&w.as_str()));
    // "whenever Go imports are added or removed": a present passive
    // after "if" or "when" is what may happen, not what did ("after
    // the upgrade the flag is removed" still reports a change).
    let hypothetical = auxiliary
        .is_some_and(|a| ["is", "are", "get", "gets"].contains(&a.as_str()))
        && raw[..start]
            .iter()
            .any(|w| HYPOTHETICAL.contains(&w.as_str()));
    let perfect = auxiliary.is_some_and(|a| ["have", "has", "had"].contains(&a.as_str()));
    // "If TF complains, something is running on the system clock
    // instead of /clock": a situation told, not a way chosen.
    let situation = in_condition
        && phrase == "instead of"
        && raw[..start]
            .iter()
            .any(|w| ["is", "are", "was", "were"].contains(&w.as_str()));
    (perfect && in_condition) || hypothetical || situation
}

/// For each word of `written` (split as `replacements` splits it), whether
/// it is part of a name joined by hyphens, underscores or slashes
/// (`search-replace`, `drop_processed_webhook`, `app/uninstalled`).
fn in_compound(written: &str) -> Vec<bool> {
    written
        .split_whitespace()
        .flat_map(|token| {
            let parts: Vec<&str> = token
                .trim_matches(|c: char| !c.is_alphanumeric())
                .split(['-', '_', '/'])
                .filter(|part| !part.is_empty())
                .collect();
            // "removed/renamed" is two words of a change, not a name.
            let joined = parts.len() > 1
                && !parts
                    .iter()
                    .all(|p| REPLACEMENT_WORDING.contains(&p.to_lowercase().as_str()));
            token
                .split(|c: char| !c.is_alphanumeric())
                .filter(|w| !w.is_empty())
                .map(move |_| joined)
        })
        .collect()
}

/// Verbs of [`REPLACEMENT_WORDING`] whose past is their base form: only
/// that form reports a change ("split into", not "splits into").
const IRREGULAR_PAST: &[&str] = &["split"];

/// One occurrence of a phrase in a clause: where it starts and how many
/// words it spans.
struct Occurrence {
    phrase: &'static str,
    start: usize,
    len: usize,
}

/// The phrases of [`REPLACEMENT_WORDING`] in one clause, in list order, each
/// not negated ("rows are never deleted"), written in the tense the phrase
/// has ("turn off the watchdog" is advice, "turned off" a change), and not
/// part of a longer phrase found there ("moved" in "moved to").
fn occurrences(
    needles: &[(&'static str, Vec<String>)],
    clause: &[String],
    raw: &[String],
) -> Vec<Occurrence> {
    let mut found: Vec<Occurrence> = Vec::new();
    for (phrase, needle) in needles {
        let n = needle.len();
        if n == 0 || clause.len() < n {
            continue;
        }
        for start in (0..=clause.len() - n).filter(|&i| clause[i..i + n] == needle[..]) {
            let negated = negated_at(clause, start);
            // "we are moving off X" is a change under way; "turn off X" and
            // "turning off X hides resets" are advice.
            let progressive = start > 0 && BE.contains(&raw[start - 1].as_str());
            let tense = phrase.split_whitespace().zip(&raw[start..]).all(|(p, r)| {
                let past = if IRREGULAR_PAST.contains(&p) {
                    // "was split into" is a change, "the loader splits it
                    // into" what the code does.
                    r == p
                } else {
                    !p.ends_with("ed") || r.ends_with("ed") || r == p
                };
                past || (progressive && r.ends_with("ing"))
            });
            if !negated && tense {
                found.push(Occurrence {
                    phrase,
                    start,
                    len: n,
                });
            }
        }
    }
    found.extend(found_by_form(clause, raw));
    let inside = |a: &Occurrence, b: &Occurrence| {
        b.start <= a.start && a.start + a.len <= b.start + b.len && b.len > a.len
    };
    let mut kept: Vec<Occurrence> = Vec::new();
    for (i, o) in found.iter().enumerate() {
        let shadowed = found.iter().any(|other| inside(o, other))
            || found[..i]
                .iter()
                .any(|other| other.start == o.start && other.len == o.len);
        if !shadowed {
            kept.push(Occurrence { ..*o });
        }
    }
    kept
}

/// The phrases of [`REPLACEMENT_WORDING`] found by their form rather than
/// their words ("we used to", "we deleted", "stop doing", "is out of", "X
/// lives in Y now"), in one clause.
fn found_by_form(clause: &[String], raw: &[String]) -> Vec<Occurrence> {
    let mut found: Vec<Occurrence> = Vec::new();
    // "we used to X": a former practice; not "X is used to sign requests".
    for (i, pair) in raw.windows(2).enumerate() {
        if pair[0] == "used"
            && pair[1] == "to"
            && (i == 0 || !BE.contains(&raw[i - 1].as_str()) && raw[i - 1] != "get")
        {
            found.push(Occurrence {
                phrase: USED_TO,
                start: i,
                len: 2,
            });
        }
    }
    // "we deleted X": something a person retired.
    for (i, w) in raw.iter().enumerate() {
        if w == DELETED
            && i > 0
            && DELETERS.contains(&raw[i - 1].as_str())
            && !negated_at(clause, i)
        {
            found.push(Occurrence {
                phrase: DELETED,
                start: i,
                len: 1,
            });
        }
    }
    // "X is out of go.mod": X was taken out of it.
    for (i, w) in raw.windows(4).enumerate() {
        let place = if w[3] == "the" {
            raw.get(i + 4).map_or("", String::as_str)
        } else {
            w[3].as_str()
        };
        if matches!(w[0].as_str(), "is" | "are" | "was" | "were")
            && w[1] == "out"
            && w[2] == "of"
            && !place.is_empty()
            && !OUT_OF_STATES.contains(&place)
            && !negated_at(clause, i)
        {
            found.push(Occurrence {
                phrase: OUT_OF,
                start: i,
                len: 3,
            });
        }
    }
    // "stop" or "quit" before a gerund: "Stop editing CHANGELOG.md by hand",
    // "we stopped vendoring protobufs". Said of a thing ("the joins stop
    // matching") it is a symptom, not a practice given up: the word before
    // must open the clause or be a person or a modal.
    for (i, w) in raw.iter().enumerate() {
        // After "to", only a decision to stop is one ("we decided to stop
        // vendoring"), not a purpose ("assigns Ty::Error to stop cascading
        // diagnostics").
        let purpose =
            i >= 1 && raw[i - 1] == "to" && !(i >= 2 && INTENT.contains(&raw[i - 2].as_str()));
        if STOP_VERBS.contains(&w.as_str())
            && (i == 0 || STOP_SUBJECTS.contains(&raw[i - 1].as_str()))
            && !purpose
            && raw
                .get(i + 1)
                .is_some_and(|g| g.len() > 5 && g.ends_with("ing") && g != "using")
            && !negated_at(clause, i)
        {
            found.push(Occurrence {
                phrase: STOP_DOING,
                start: i,
                len: 2,
            });
        }
    }
    // "don't add X back", "never bring X back": X is retired. The phrase
    // stands on the verb; what it names runs up to "back".
    for (i, w) in raw.iter().enumerate() {
        let refused = i >= 1
            && (matches!(raw[i - 1].as_str(), "never" | "not")
                || (i >= 2 && raw[i - 2] == "don" && raw[i - 1] == "t"));
        if refused
            && ADD_VERBS.contains(&w.as_str())
            && raw[i + 1..].iter().take(8).any(|x| x == "back")
        {
            found.push(Occurrence {
                phrase: BRING_BACK,
                start: i,
                len: 1,
            });
        }
    }
    // "X lives in Y now": a verb of place, "in" or "under", and "now"
    // closing the clause.
    if raw.last().is_some_and(|w| w == "now") {
        for (i, pair) in raw.windows(2).enumerate() {
            if PLACE_VERBS.contains(&pair[0].as_str())
                && matches!(pair[1].as_str(), "in" | "under" | "inside")
                && !negated_at(clause, i)
            {
                found.push(Occurrence {
                    phrase: LIVES_NOW,
                    start: i,
                    len: 2,
                });
                break;
            }
        }
    }
    found
}

/// Whether a single-word phrase found at `start` is no replacement phrase
/// there: the start of a longer one ("replaced by", "moved to" are phrases
/// of their own), or a participle of a move after a determiner, which
/// describes the thing ("put the attribute on the renamed field"); or
/// "any more" before a word: it ends the clause it retires ("nobody runs
/// it by hand any more"), before a noun it counts ("won't start any more
/// workers").
fn part_of_another(
    phrase: &str,
    clause: &[String],
    raw: &[String],
    start: usize,
    len: usize,
) -> bool {
    let longer = matches!(
        phrase,
        "replaced" | "moved" | "migrated" | "switched" | "ported" | "renamed"
    ) && clause
        .get(start + len)
        .is_some_and(|w| ["by", "to", "into", "from", "off", "away", "out"].contains(&w.as_str()));
    let attributive = matches!(phrase, "renamed" | "moved" | "relocated" | "migrated")
        && start > 0
        && DETERMINERS.contains(&raw[start - 1].as_str());
    let counts = phrase == "any more" && raw.get(start + len).is_some();
    longer || attributive || counts
}

/// Units of data that a system loses, not things a team retires:
/// "--- 12 messages dropped ---", "gaps show up as dropped packets".
const DATA_UNITS: &[&str] = &[
    "message",
    "messages",
    "packet",
    "packets",
    "frame",
    "frames",
    "event",
    "events",
    "sample",
    "samples",
    "request",
    "requests",
    "connection",
    "connections",
    "byte",
    "bytes",
    "row",
    "rows",
    "record",
    "records",
    "datagram",
    "datagrams",
    "span",
    "spans",
    "metric",
    "metrics",
    "log",
    "logs",
    "line",
    "lines",
    "reading",
    "readings",
    "notification",
    "notifications",
];

/// Whether "dropped" next to a unit of data says it was lost ("messages
/// dropped", "dropped packets", "3 frames were dropped"), not retired.
fn data_lost(phrase: &str, raw: &[String], start: usize, len: usize) -> bool {
    let unit = |w: Option<&String>| w.is_some_and(|w| DATA_UNITS.contains(&w.as_str()));
    phrase.ends_with("dropped")
        && (unit(start.checked_sub(1).and_then(|i| raw.get(i))) || unit(raw.get(start + len)))
}

/// What a bare move verb ("moved", "switched") says was left, in the words
/// after it: what follows "from", or "off" ("Moved figure scripts off
/// Plots.jl"); for "Switched 3D physics to Jolt", the words before "to"
/// (what was switched). `None` when they name nothing left.
fn left_by_move<'w>(phrase: &str, after: &'w [String]) -> Option<&'w [String]> {
    if let Some(from) = after.iter().position(|w| w == "from") {
        return Some(&after[from + 1..]);
    }
    if phrase == "switched" && after.iter().any(|w| w == "to") {
        return Some(after);
    }
    after
        .iter()
        .position(|w| w == "off")
        .map(|off| &after[off + 1..])
}

/// Finds the replacement phrases of `text` and, within their clause, the
/// words naming what they say is replaced: after "instead of", "no longer"
/// and "replaces" (up to "to" or "onto" in "switch from X to Y" and "moved
/// off X onto Y"), before "replaced by" and "is gone", on either side of
/// "deprecated" and "decommissioned". When the side a phrase looks at names
/// nothing ("X is no longer needed"), the other side is used.
pub fn replacements(text: &str) -> Vec<Replaced> {
    let needles: Vec<(&'static str, Vec<String>)> = REPLACEMENT_WORDING
        .iter()
        .filter(|p| ![STOP_DOING, USED_TO, DELETED, OUT_OF, BRING_BACK].contains(p))
        .map(|p| (*p, words(p)))
        .collect();
    let mut out = Vec::new();
    for written in clause_texts(text) {
        let clause = words(written);
        let raw: Vec<String> = written
            .split(|c: char| !c.is_alphanumeric())
            .filter(|w| !w.is_empty())
            .map(str::to_lowercase)
            .collect();
        let conditional = opens_condition(text, written);
        let compound = in_compound(written);
        for Occurrence { phrase, start, len } in occurrences(&needles, &clause, &raw) {
            // A word of a name joined by hyphens (`wp search-replace`,
            // `drop-in`) is part of that name, no wording of a change.
            if compound.get(start).copied().unwrap_or(false) {
                continue;
            }
            if told_under_condition(phrase, &raw, start, conditional) {
                continue;
            }
            // "There is no manifest.js to maintain" retires a file; "there
            // is no DynamoDB table" for other stacks says how they differ.
            if matches!(phrase, THERE_IS_NO | THERE_ARE_NO) && !names_a_file_next(written) {
                continue;
            }
            if part_of_another(phrase, &clause, &raw, start, len)
                || data_lost(phrase, &raw, start, len)
            {
                continue;
            }
            let mut after = &clause[start + len..];
            if object_side(phrase) == Side::From {
                let Some(left) = left_by_move(phrase, after) else {
                    continue;
                };
                after = left;
            }
            let cut: &[&str] = match phrase.rsplit(' ').next() {
                _ if phrase == BRING_BACK => &["back"],
                Some("from" | "off" | "of") => &["to", "onto", "into"],
                _ if object_side(phrase) == Side::From => &["to", "onto", "into"],
                _ if phrase == "replaced" => &["with"],
                // "We dropped logrus for slog": what follows "for" is the
                // new thing; "we deleted `preload_keys` from
                // .magento.env.yaml": what follows "from" is where it was.
                _ if retires(phrase) || phrase == DELETED => &["for", "from"],
                _ => &[],
            };
            if let Some(to) = after.iter().position(|w| cut.contains(&w.as_str())) {
                after = &after[..to];
            }
            // "moved off pub/sub because messages were lost": a clause of
            // its own begins at the conjunction.
            if let Some(to) = after
                .iter()
                .position(|w| SUBORDINATORS.contains(&w.as_str()))
            {
                after = &after[..to];
            }
            let from = clause[..start]
                .iter()
                .rposition(|w| SUBORDINATORS.contains(&w.as_str()))
                .map_or(0, |k| k + 1);
            let after = object_words(after.iter());
            let before = object_words(clause[from..start].iter().rev());
            // "X is no longer accepted in review": a passive of
            // acceptance says X is what went; "in review" is where.
            let accepted_no_more = matches!(phrase, "no longer" | "not anymore")
                && clause
                    .get(start + len)
                    .is_some_and(|w| NO_LONGER_ACCEPTED.iter().any(|a| stem(a) == *w))
                && !before.is_empty();
            let sides = match object_side(phrase) {
                Side::After if after.is_empty() || accepted_no_more => vec![before],
                Side::After | Side::From => vec![after],
                // "Switched to the Input System package" names the new
                // thing only: what it replaces is what the memory is about.
                Side::Before if phrase == "switched to" => vec![before],
                Side::Before if before.is_empty() => vec![after],
                Side::Before => vec![before],
                // "X is deprecated on Python 3.12": after a form of "be"
                // the phrase says what X is; what follows is when or where.
                // A move keeps both sides: where from comes after it.
                Side::Both
                    if start > 0 && BE.contains(&raw[start - 1].as_str()) && retires(phrase) =>
                {
                    let subject = object_words(clause[..start - 1].iter().rev());
                    if subject.is_empty() {
                        vec![before, after]
                    } else {
                        vec![subject]
                    }
                }
                Side::Both => vec![before, after],
            };
            out.push(Replaced {
                phrase,
                objects: sides.into_iter().filter(|s| !s.is_empty()).collect(),
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replacement_objects_table() {
        type Case<'a> = (&'a str, &'a [(&'a str, &'a [&'a [&'a str]])]);
        let set = |w: &[&str]| -> BTreeSet<String> { w.iter().map(|x| (*x).to_owned()).collect() };
        let cases: &[Case] = &[
            (
                "Use date-fns instead of Moment.js; it is smaller.",
                &[("instead of", &[&["moment", "js"]])],
            ),
            // What was turned into something else is what moved.
            (
                "libs/audit was turned into a starter at platform/audit-starter.",
                &[("turned into", &[&["audit", "libs"]])],
            ),
            // A word of a path or a snake_case name is part of that name.
            (
                "On app/uninstalled the worker clears sessions; see drop_processed_webhook.",
                &[],
            ),
            // Two words of a change joined by a slash are still wording.
            (
                "The v1 endpoints were deprecated/removed in March.",
                &[
                    ("deprecated", &[&["endpoint", "v1"]]),
                    ("removed", &[&["deprecat", "endpoint", "v1"]]),
                ],
            ),
            // A word of a name joined by hyphens is part of the name.
            (
                "Without --network, wp search-replace only rewrites the first site's tables.",
                &[],
            ),
            // A situation a condition tells of is no way chosen; advice
            // under a condition still is.
            (
                "If TF complains about extrapolation, something is running on the system \
                 clock instead of /clock.",
                &[],
            ),
            (
                "If the payload is large, use orjson instead of json.",
                &[("instead of", &[&["json"]])],
            ),
            // Data a system loses is no thing retired.
            (
                "With the default 1 KB buffer the log shows '--- 12 messages dropped ---'.",
                &[],
            ),
            ("Reboots would show up as dropped packets.", &[]),
            // What was split out comes before, where to after.
            (
                "The HIL jobs were split out into ci/hil.gitlab-ci.yml.",
                &[("split out into", &[&["hil", "jobs"]])],
            ),
            ("Three frames were dropped during the handover.", &[]),
            // A thing banned, set for deletion or used nowhere any more is
            // retired.
            (
                "The legacy Chart.js wrapper is banned in new screens.",
                &[("is banned", &[&["chart", "js", "legacy"]])],
            ),
            (
                "The old reports VM is scheduled for deletion.",
                &[("scheduled for deletion", &[&["report", "vm"]])],
            ),
            (
                "After the codemod, `React.FC` is not used anywhere.",
                &[("not used anywhere", &[&["fc", "react"]])],
            ),
            (
                "The mcumgr tool was dropped from the tools image.",
                &[("was dropped", &[&["mcumgr", "tool"]])],
            ),
            // What a move left comes after "off", past what moved.
            (
                "Moved figure scripts off Plots.jl because GR output had inconsistent fonts.",
                &[("moved", &[&["plot", "jl"]])],
            ),
            ("Moved figure scripts into the new folder.", &[]),
            ("We no longer do it this way.", &[("no longer", &[])]),
            (
                "The jobs Redis instance is no longer needed.",
                &[("no longer", &[&["jobs", "redis", "instance"]])],
            ),
            // A file said to exist no more is retired; a thing that other
            // stacks lack is a difference.
            (
                "Assets are served by Propshaft; there is no manifest.js to maintain.",
                &[("there is no", &[&["manifest", "js"]])],
            ),
            (
                "The GCP stacks lock state in the bucket; there is no DynamoDB table.",
                &[],
            ),
            (
                "Don't use the logRetention prop anymore.",
                &[("anymore", &[&["logretention"]])],
            ),
            // Not to be brought back: what it names runs up to "back".
            (
                "Do not add the classic quarkus-resteasy extensions back - mixing them fails the build.",
                &[(
                    "don't add back",
                    &[&["classic", "quarkus", "resteasy", "extension"]],
                )],
            ),
            // An instruction to add something back names nothing retired.
            ("Add the retry header back after the redirect.", &[]),
            // A kind of thing ("step", "folder") says nothing of which.
            (
                "The old `fuzz` step no longer exists.",
                &[("no longer", &[&["fuzz"]])],
            ),
            // What is no longer accepted comes before; where, after.
            (
                "Component-local writable stores are no longer accepted in review.",
                &[("no longer", &[&["component", "local", "writable", "store"]])],
            ),
            (
                "We migrated from CircleCI to GitHub Actions.",
                &[("migrated from", &[&["circleci"]])],
            ),
            (
                "ingress-nginx is deprecated here.",
                &[("deprecated", &[&["ingress", "nginx"]])],
            ),
            (
                "datetime.utcnow() is deprecated on Python 3.12",
                &[("deprecated", &[&["datetime", "utcnow"]])],
            ),
            (
                "The old legacy-uploads bucket is read-only and will be deleted in June.",
                &[(
                    "will be deleted",
                    &[&["legacy", "upload", "bucket", "read"]],
                )],
            ),
            // What happens every time is no replacement.
            ("The arena goes away after each request.", &[]),
            (
                "Switched to the Input System package",
                &[("switched to", &[])],
            ),
            (
                "src/sagas/ is deleted and redux-saga uninstalled.",
                &[
                    ("is deleted", &[&["src", "saga"]]),
                    ("uninstalled", &[&["redux", "saga", "src"]]),
                ],
            ),
            (
                "Heroku review apps were switched off in March.",
                &[("switched off", &[&["heroku", "review", "apps"]])],
            ),
            (
                "A missing key is replaced by the raw key.",
                &[("replaced by", &[&["miss", "key"]])],
            ),
            ("Partial writes leave the ledger inconsistent.", &[]),
            (
                "We moved off pip-tools onto uv.",
                &[("moved off", &[&["pip", "tool"]])],
            ),
            // What it names ends where a clause of its own begins.
            (
                "We moved off pub/sub because messages were lost.",
                &[("moved off", &[&["pub", "sub"]])],
            ),
            // A participle of a move after a determiner describes a thing.
            ("Put the attribute on the renamed field.", &[]),
            (
                "RestHighLevelClient is gone from services/search.",
                &[("gone", &[&["resthighlevelclient"]])],
            ),
            // Adjectives and idioms of retirement.
            (
                "The legacy cron runner is obsolete; use the scheduler service.",
                &[("obsolete", &[&["legacy", "cron", "runner"]])],
            ),
            (
                "Per-region exporters went away with the v2 API.",
                &[("went away", &[&["per", "region", "exporter"]])],
            ),
            (
                "We don't shard by tenant anymore.",
                &[("anymore", &[&["shard", "tenant"]])],
            ),
            (
                "Nobody applies DDL from the bastion any more.",
                &[("any more", &[&["nobody", "ddl", "bastion"]])],
            ),
            (
                "The scheduler won't start any more workers once the pool is full.",
                &[],
            ),
            // Said of a thing, "stop" is a symptom, not a practice given up.
            ("Once a value is missing the joins stop matching.", &[]),
            ("The workers quit polling when Redis restarts.", &[]),
            // After "to", a purpose, unless a decision to stop.
            (
                "A type error becomes Ty::Error to stop cascading diagnostics.",
                &[],
            ),
            (
                "We decided to stop vendoring protobuf definitions.",
                &[("stop doing", &[&["protobuf"]])],
            ),
            // "stop" before any gerund.
            (
                "Stop vendoring protobuf definitions in proto/.",
                &[("stop doing", &[&["protobuf", "proto"]])],
            ),
            // A place stated as new; what moved and where from.
            (
                "The generated API client lives in packages/api-client now.",
                &[("now lives in", &[&["generat", "api", "client"]])],
            ),
            (
                "The generated API client lives in packages/api-client.",
                &[],
            ),
            (
                "RetryPolicy moved out of the ledger module into src/outbox.",
                &[("moved out of", &[&["retrypolicy"], &["ledger", "module"]])],
            ),
            // What moved, and where it was.
            (
                "STM32F407.ld moved from the repo root to boards/f407.",
                &[("moved from", &[&["stm32f407", "ld"], &["repo", "root"]])],
            ),
            (
                "Artifact bucket renamed to acme-build.",
                &[("renamed to", &[&["artifact", "bucket"]])],
            ),
            (
                "Reversing the earlier anyhow-everywhere call.",
                &[("reversing", &[&["anyhow"]])],
            ),
            // What kind of thing, or that it exists, names nothing.
            (
                "The provider package has been removed from pubspec.yaml.",
                &[("been removed", &[&["provider"]])],
            ),
            // Passive: after the phrase comes where it was removed from.
            (
                "The legacy export button was removed from the admin dashboard.",
                &[("was removed", &[&["legacy", "export", "button"]])],
            ),
            (
                "The asset-sync script no longer exists.",
                &[("no longer", &[&["asset", "sync", "script"]])],
            ),
            // A change under way, and a former practice.
            (
                "We are moving off Heroku to Fly.io.",
                &[("moved off", &[&["heroku"]])],
            ),
            (
                "We used to deploy with Capistrano from the bastion host.",
                &[("used to", &[&["deploy", "capistrano", "bastion", "host"]])],
            ),
            ("The HMAC key is used to sign webhook payloads.", &[]),
            // Deleted by someone is retired; deleted as a state is not.
            (
                "With the upgrade we deleted every legacy webpack config.",
                &[("deleted", &[&["every", "legacy", "webpack", "config"]])],
            ),
            ("Deleted invoices are purged after 30 days.", &[]),
            // Where it was deleted from is no part of what went.
            (
                "We deleted `preload_keys` from .magento.env.yaml last week.",
                &[("deleted", &[&["preload", "keys"]])],
            ),
            // Out of a place is taken out; out of date, memory or the box
            // is a state.
            (
                "logrus is out of go.mod; use log/slog.",
                &[("is out of", &[&["logrus"], &["go", "mod"]])],
            ),
            ("The lockfile is out of date after a rebase.", &[]),
            ("The worker was out of memory twice last week.", &[]),
            ("It works out of the box with pnpm.", &[]),
            // "wrapper" says what kind of thing, not which.
            (
                "The BashOperator wrapper is gone.",
                &[("gone", &[&["bashoperator"]])],
            ),
            // A condition is no change either.
            (
                "Whenever Go imports are added or removed, run bazel run //:gazelle.",
                &[],
            ),
            (
                "After the upgrade the legacy flag is removed.",
                &[("removed", &[&["after", "upgrade", "legacy", "flag"]])],
            ),
            // What code does is no change.
            (
                "SESSION_SECRET holds a list that sessions.server.ts splits into the secrets array.",
                &[],
            ),
            (
                "The monolithic config.yml was split up into one file per team.",
                &[("was split up", &[&["monolithic", "config", "yml"]])],
            ),
            // A condition, not a change made; without one, a change.
            (
                "Aim to delete it by Q3, after billing, tax and export have moved to REST v3.",
                &[],
            ),
            (
                "Delete the adapter once the last callers have moved to REST v3.",
                &[],
            ),
            (
                "Billing and tax have moved to REST v3.",
                &[("moved to", &[&["bill", "tax"]])],
            ),
            (
                "Pin defines were pulled out of main.c into board/pins.h.",
                &[("pulled out of", &[&["define", "pin"]])],
            ),
            ("Queries must skip soft-deleted rows.", &[]),
            // Advice in the present is no report of a change.
            ("Turn off the watchdog in debug builds.", &[]),
            ("Switch off autocorrect in the search box.", &[]),
            // One phrase inside another is reported once; a spaced hyphen
            // ends a clause.
            (
                "Fixtures now live in tests/data - the old folder was deleted",
                &[("now lives in", &[&["fixture"]]), ("was deleted", &[])],
            ),
            // What follows "for" after a retirement is the new thing.
            (
                "We ditched Webpack for Rspack last quarter.",
                &[("ditched", &[&["webpack"]])],
            ),
            // "Switched X to Y" without "from": X is what was switched.
            (
                "Switched the CI runners to ARM.",
                &[("switched", &[&["ci", "runner"]])],
            ),
            (
                "The Sentry hooks were stripped from every service.",
                &[("were stripped", &[&["sentry", "hook"]])],
            ),
            (
                "Memcached was taken out of the stack.",
                &[("was taken out", &[&["memcach"]])],
            ),
            // "any" says how much, not what.
            (
                "The app no longer sends any token as a header.",
                &[("no longer", &[&["send", "token", "header"]])],
            ),
        ];
        for (text, expected) in cases {
            let got: Vec<(&str, Vec<BTreeSet<String>>)> = replacements(text)
                .into_iter()
                .map(|r| (r.phrase, r.objects))
                .collect();
            let want: Vec<(&str, Vec<BTreeSet<String>>)> = expected
                .iter()
                .map(|(p, objects)| (*p, objects.iter().map(|o| set(o)).collect()))
                .collect();
            assert_eq!(got, want, "{text}");
        }
    }
}
