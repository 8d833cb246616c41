//! Candidates with no durable value: reports of what someone did or how far
//! they got ("Fixed a typo in the README", "Ran the tests, all green",
//! "Bumped version to 1.4.2", "WIP", "Addressed review comments", "Rebased on
//! main"), which say nothing the next person needs; so are commit subjects
//! of the same kind ("fix typo in README", "chore: bump version to 2.3.1",
//! "Merge branch 'main' into …").
//!
//! So are chat replies ("LGTM 👍 merging once CI is done", "Thanks, that
//! fixed it", a title answering a thread: "Re: build failing", a thank-you
//! for a review), platitudes made only of words about code quality ("We
//! should always write clean, readable, well-tested code"), which name
//! nothing to act on, wishes put off twice over ("we should look into it at
//! some point"), and questions asked in the title and again in the body
//! with no answer beside them ("Move flags to Redis?" / "should flags move
//! to Redis? Let's bring it up at standup").
//!
//! A candidate is such a report when its title is one (it opens with a
//! routine action in the past tense about routine work, a typo, a version, a
//! review, a rebase, tests that pass; or it is a status line: "WIP",
//! "Progress on …", "Session summary", "Status update", "Blocked on …"),
//! when its summary opens with such an action under a title that says how it
//! went ("All tests green after rebase"), or when it reads like a diary
//! entry in two ways at least (a report of work, or words tying it to the
//! day it was written or to someone's plans: "today", "this morning", "spent
//! the afternoon", "no conclusion yet", "pinged them again", "ready for
//! review"; "today" alone may mean "nowadays"); and no part of its text
//! states something that lasts: no rule or advice (must, never, always,
//! should, avoid, prefer, don't, make sure), no reason or consequence
//! (because, otherwise, so that, breaks, fails when, leaks), no replacement
//! or move ("switched from X to Y", "now lives in", "no longer"), no present
//! state ("X is now Y", "X uses Y"). Real knowledge that mentions tests, versions or typos keeps one
//! of those ("bumped the pool to 50 because …", "tests must not share a
//! database"). Pure; no I/O.

use std::collections::BTreeSet;
use std::sync::OnceLock;

use super::text;

/// Title openings that make a status line rather than a statement.
const STATUS_TITLES: &[&str] = &[
    "wip",
    "work in progress",
    "progress on",
    "progress report",
    "status update",
    "status report",
    "session summary",
    "session notes",
    "summary of the session",
    "daily update",
    "standup",
    "notes from today",
    "end of day",
    "todo",
    "done",
    "checkpoint",
    "blocked on",
    "blocked by",
    "waiting on",
    "waiting for",
    "meeting notes",
    // What someone is on at the moment ("**Current work**: Priya is
    // refactoring the scheduler this sprint").
    "current work",
    "current status",
    "currently working on",
    // Git's own subjects of a merge commit.
    "merge branch",
    "merge pull request",
    "merge remote-tracking branch",
    "notes from",
    "minutes of",
    // A review nit ("nit: rename tmp") asks for one edit, it states nothing.
    "nit",
    // A routine commit ("chore(deps): bump lodash …").
    "chore",
];

/// Markers of a note left in code that opens a body ("TODO(ana): …",
/// "FIXME: …").
const CODE_NOTES: &[&str] = &["todo", "fixme", "wip"];

/// Words that say nothing was settled: a status line holding them records a
/// discussion or a to-do, not a decision, whatever rule words it quotes
/// ("discussed maybe using X instead of Y, no decision"; "TODO: look into
/// the flaky test, need to check it at some point").
const UNSETTLED: &[&str] = &[
    "no decision",
    "not decided",
    "undecided",
    "nothing decided",
    "revisit next",
    "look into",
    "at some point",
    "still need to",
    "still have to",
    "need to finish",
    "need to check",
    "should investigate",
    "to investigate",
    "figure out",
    "when i have time",
    "when i get time",
    "when i get a chance",
    "clean it up later",
];

/// The whole vocabulary of a chat reply that acknowledges or closes
/// ("LGTM, approved", "Thanks, that fixed it", "Great, that worked! Closing
/// this session now."): a candidate made only of these words says nothing.
const ACKNOWLEDGEMENT: &[&str] = &[
    "lgtm", "approved", "approve", "thanks", "thank", "you", "great", "worked", "works", "work",
    "fixed", "fix", "it", "that", "this", "closing", "close", "session", "now", "ship", "perfect",
    "nice", "ok", "okay", "cool", "awesome", "good", "looks", "look", "me", "to", "all", "done",
    "sounds", "the", "a", "and", "so", "much", "yes", "sure", "merci", "cheers", "ty", "s", "did",
    "trick", "here", "we", "go", "thx",
];

/// The whole vocabulary of a platitude about code quality ("We should
/// always write clean, readable, well-tested code"): a candidate made only
/// of these words, stopwords and acknowledgements names nothing to act on.
const PLATITUDE: &[&str] = &[
    "keep",
    "code",
    "codebase",
    "clean",
    "cleaner",
    "readable",
    "readability",
    "well",
    "tested",
    "test",
    "tests",
    "maintainable",
    "maintainability",
    "maintain",
    "write",
    "writing",
    "think",
    "quality",
    "good",
    "best",
    "practice",
    "practices",
    "simple",
    "simplicity",
    "consistent",
    "consistency",
    "careful",
    "always",
    "should",
    "must",
    "make",
    "sure",
    "try",
    "high",
    "solid",
    "robust",
    "principles",
    "follow",
    "easy",
    "coverage",
    "meaningful",
    "names",
    "refactor",
    "messy",
    "get",
    "performant",
    "performance",
    "efficient",
    "read",
    "understand",
    "understandable",
    "mind",
    "bear",
    "remember",
    "important",
    "everyone",
    "people",
    "team",
    "things",
    "stuff",
    "about",
    "repo",
    "repository",
    "reviewer",
    "reviewers",
    "strive",
    "aim",
    "properly",
    "proper",
    "carefully",
    "thorough",
    "thoroughly",
    "mindful",
    "pay",
    "attention",
    "sensitive",
    "risky",
    "smoothly",
    "smooth",
    "function",
    "functions",
    "small",
    "others",
    "clear",
    "clearer",
    "clarity",
    "possible",
    "prefer",
    "concise",
    "idiomatic",
    "elegant",
    "intuitive",
    "where",
    "named",
    "can",
    "better",
    "worse",
    "big",
    "bigger",
    "smaller",
    "short",
    "shorter",
    "method",
    "methods",
    "class",
    "classes",
    "ones",
    "than",
];

/// Words that state a change or a present state ("X is now Y", "moved
/// to"): lasting knowledge, unless the text is a diary, which uses them
/// for the day's work ("migrated most of the specs this sprint").
const CHANGE_STATES: &[&str] = &[
    "now",
    "no longer",
    "lives in",
    "live in",
    "is in",
    "are in",
    "moved to",
    "moved into",
    "migrated",
    // Not "switched" alone: stemmed, it is also the noun ("the Switch
    // devkit", "a feature switch").
    "switched to",
    "switched from",
    "replaced",
];

/// How a thing stands at the end of the day ("it's fine now"): "now" in
/// them states no lasting fact.
const DAY_STATES: &[&str] = &[
    "fine now",
    "ok now",
    "okay now",
    "green now",
    "is green now",
    "works now",
    "passing now",
];

/// What someone expects of their own fix ("should be green now"): the
/// state of the day, not a rule.
const EXPECTATIONS: &[&str] = &[
    "should be green",
    "should be fine",
    "should be fixed",
    "should be ok",
    "should be okay",
    "should be good",
    "should work now",
    "should pass now",
    "should be up",
    "should be ready",
    "should be done",
    "should land",
];

/// A consequence that did not happen ("lockfile updated, nothing broke"):
/// the words of consequence in them state no lasting fact.
const NOTHING_HAPPENED: &[&str] = &[
    "nothing broke",
    "nothing broken",
    "nothing crashed",
    "didn't break",
    "did not break",
    "no breakage",
];

/// Words that tie a text to the day it was written or to someone's plans:
/// a diary entry, not knowledge ("today", "this morning", "spent the
/// afternoon", "no conclusion yet", "pinged them again", "ready for
/// review"). Time deixis and progress states are a closed set; a lasting
/// fact never needs them.
const EPISODIC: &[&str] = &[
    "today",
    "currently failing",
    "currently broken",
    "currently down",
    "looking at it",
    "looking into it",
    "for the next hour",
    "next hour",
    "right now",
    "this sprint",
    "next sprint",
    "still to go",
    "we'll revisit",
    "will revisit",
    "revisit after",
    "tonight",
    "yesterday",
    "tomorrow",
    "this morning",
    "this afternoon",
    "this evening",
    "this week",
    "last week",
    "next week",
    "earlier today",
    "just now",
    "on my branch",
    "spent the",
    "no conclusion",
    "still blocked",
    "blocked on",
    "still waiting",
    "nothing unusual",
    "nothing stood out",
    "no issues found",
    "looked fine",
    "looked normal",
    "waiting on",
    "waiting for",
    "pinged",
    "ready for review",
    "pick it up",
    "pick this up",
    "will continue",
    "continue with",
    "post an update",
    "will report back",
    "will follow up",
    "next session",
    "after the meeting",
    "another meeting",
    "next meeting",
    "no decision",
    "talked about",
    "last night",
    "nothing lost",
    "nothing to change",
    "no action needed",
    "no action required",
    "spent an hour",
    "spent two hours",
    "spent three hours",
    "spent hours",
    "spent half",
    "spent a day",
    "spent most of",
];

/// Past tenses of the routine actions change logs and session notes report
/// ("Fixed …", "Ran …", "Bumped …"); adjectives that look the same
/// ("Signed URLs expire", "Cached pages …") are not among them.
const ACTIVITY_VERBS: &[&str] = &[
    "addressed",
    "added",
    "amended",
    "asked",
    "bumped",
    "changed",
    "checked",
    "cleaned",
    "cleared",
    "committed",
    "continued",
    "corrected",
    "debugged",
    "deleted",
    "deployed",
    "did",
    "drained",
    "finished",
    "fixed",
    "flushed",
    "formatted",
    "implemented",
    "installed",
    "investigated",
    "looked",
    "made",
    "merged",
    "opened",
    "pushed",
    "ran",
    "rebased",
    "refactored",
    "reformatted",
    "regenerated",
    "released",
    "removed",
    "renamed",
    "reran",
    "restarted",
    "retried",
    "retriggered",
    "resolved",
    "reverted",
    "shipped",
    "squashed",
    "started",
    "talked",
    "tested",
    "tidied",
    "tried",
    "tweaked",
    "updated",
    "worked",
    "wrote",
];

/// What routine work is about: a report that names one of these (and no
/// lasting fact) records busywork, not knowledge.
const ROUTINE: &[&str] = &[
    "typo",
    "typos",
    "docs",
    "broken link",
    "broken links",
    "whitespace",
    "formatting",
    "lint",
    "linter",
    "unused",
    "variable",
    "variables",
    "docstring",
    "comment",
    "comments",
    "review",
    "rebase",
    "rebased",
    "conflict",
    "conflicts",
    "pr",
    "pull request",
    "version",
    "snapshot",
    "snapshots",
    "tests pass",
    "test pass",
    "all green",
    "green",
    "passing",
    "tomorrow",
    "next session",
    "still to do",
    "readability",
    "cleanup",
    "nit",
    "nits",
    "staging",
    "smoke test",
    "smoke tests",
];

/// Words and phrases that state something lasting: a rule, a reason, a
/// consequence or a use (changes and present states are
/// [`CHANGE_STATES`]).
const DURABLE: &[&str] = &[
    "must",
    "never",
    "always",
    "should",
    "shouldn",
    "need to",
    "needs to",
    "has to",
    "have to",
    "don",
    "do not",
    "does not",
    "doesn",
    "avoid",
    "prefer",
    "make sure",
    "ensure",
    "required",
    "requires",
    "only",
    "instead",
    "rather than",
    "unless",
    "because",
    "since",
    "so that",
    "otherwise",
    "to avoid",
    "to prevent",
    "root cause",
    "turns out",
    "turned out",
    "caused",
    "causes",
    "breaks",
    "broke",
    "fails when",
    "fails if",
    "leaks",
    "crash",
    "crashes",
    "deadlock",
    "silently",
    "replaces",
    "deprecated",
    "in favor of",
    "in favour of",
    "uses",
    "use",
    "is done by",
    "is handled",
    "are handled",
    "gotcha",
    "watch out",
    "careful",
    "beware",
    "warning",
    "important",
];

/// The status a title opens with ("WIP", "Session summary", "Blocked on
/// …"), or the marker a note left in code opens its body with ("TODO(ana):
/// this is messy, I'll clean it up when I have time").
fn status_of(title_words: &[String], summary: &str) -> Option<&'static str> {
    STATUS_TITLES
        .iter()
        .find(|p| {
            let w = text::words(p);
            title_words.len() >= w.len() && title_words[..w.len()] == w[..]
        })
        .or_else(|| {
            let first = text::words(summary).into_iter().next()?;
            CODE_NOTES.iter().find(|p| **p == first)
        })
        .copied()
}

/// Whether a candidate replies in a thread: "LGTM 👍 merging once CI is
/// done" (a review reply, whatever follows), a title answering a thread
/// ("Re: build failing"), a thank-you ("// Thanks @marco for the thorough
/// review", "thx, that worked!!").
fn replies(title: &str, summary: &str) -> bool {
    [title, summary].iter().any(|t| {
        text::words(t)
            .first()
            .is_some_and(|w| matches!(w.as_str(), "lgtm" | "thank" | "thanks" | "thx"))
    }) || title.trim_start().to_lowercase().starts_with("re:")
}

/// Whether a text states no rule or reason outside its questions: a
/// question asked in the title and again in the body ("Move flags to
/// Redis?" / "QUESTION: should feature flags move to Redis? Let's bring it
/// up at standup tomorrow.") asks; an answer beside it ("Why does CI fail on
/// Mondays? Because the cache expires over the weekend.") is knowledge, and
/// so is a body that answers the title (checked by the caller: the body
/// holds a question too).
fn asks_only(text: &str) -> bool {
    let mut rest = text;
    while !rest.is_empty() {
        let end = rest
            .find(['.', '?', '!', '\n'])
            .map_or(rest.len(), |i| i + 1);
        let sentence = &rest[..end];
        if !sentence.trim_end().ends_with('?') && !text::find_phrases(sentence, DURABLE).is_empty()
        {
            return false;
        }
        rest = &rest[end..];
    }
    true
}

/// Returns why a candidate has no durable value (it only reports activity
/// or progress), or `None` when it may carry knowledge.
pub(super) fn no_durable_value(title: &str, summary: &str, detail: &str) -> Option<String> {
    let title_words = text::words(title);
    let first = title_words.first()?;
    let all = format!("{title}\n{summary}\n{detail}");
    let words = text::words(&all);
    let replies = replies(title, summary);
    if title.trim_end().ends_with('?') && summary.contains('?') && asks_only(&all) {
        return Some(format!(
            "a question (\"{}\"), not knowledge",
            title_opening(title, first)
        ));
    }
    // "build is green now": the state of the day, no change stated.
    let day_state = !text::find_phrases(&all, DAY_STATES).is_empty();
    if words.iter().all(|w| acknowledgement().contains(w))
        || (replies
            && text::find_phrases(&all, DURABLE).is_empty()
            && text::find_phrases(&all, CHANGE_STATES)
                .iter()
                .all(|c| day_state && *c == "now"))
    {
        return Some(format!(
            "a chat reply (\"{}\"), not knowledge",
            title_opening(title, first)
        ));
    }
    // Beside the platitude's words, at most one name: the language or
    // framework it is said of ("clean, readable, well-tested Julia code").
    let other: BTreeSet<&String> = words
        .iter()
        .filter(|w| {
            !(acknowledgement().contains(*w) || platitude().contains(*w) || text::is_stopword(w))
        })
        .collect();
    let named = |w: &String| {
        all.split(|c: char| !c.is_alphanumeric())
            .skip(1)
            .any(|raw| raw.chars().next().is_some_and(char::is_uppercase) && text::stem(raw) == **w)
    };
    if other.is_empty() || (other.len() == 1 && other.iter().all(|w| named(w))) {
        return Some(format!(
            "a platitude (\"{}\"): it names nothing to act on",
            title_opening(title, first)
        ));
    }
    let status = status_of(&title_words, summary);
    // A report of work opens the title ("Fixed …") or, under a title that
    // says how it went ("All tests green after rebase"), the summary.
    let reported = activity(title, true);
    // A clause of the summary may report it too ("The pipeline failed on
    // my branch; re-triggered it and it went green"); there, an imperative
    // ("Format with prettier") is a step to take, not a commit's subject.
    let work = reported
        || text::clause_texts(summary)
            .iter()
            .flat_map(|c| c.split(" and "))
            .any(|c| activity(c, false));
    // A diary entry reads like one in two ways at least: "today" alone may
    // mean "nowadays" ("Today every service logs through pino").
    let mut episodic = text::find_phrases(&all, EPISODIC);
    episodic.extend(episodic_forms(&all));
    let diary = episodic.len() + usize::from(work) >= 2;
    // A report of work must be about routine work ("Renamed the orders table
    // to purchases" is a lasting fact; "Renamed a variable" is not).
    let routine_work = work && (!text::find_phrases(&all, ROUTINE).is_empty() || has_version(&all));
    // A wish put off twice over ("we should look into it at some point")
    // settles nothing, whatever its title.
    let put_off = text::find_phrases(&all, UNSETTLED).len() >= 2;
    if status.is_none() && !diary && !routine_work && !put_off {
        return None;
    }
    // A status line that says nothing was settled quotes rule words without
    // stating a rule; a report's own verb ("Removed an unused import") is no
    // replacement.
    let unsettled =
        put_off || (status.is_some() && !text::find_phrases(&all, UNSETTLED).is_empty());
    // "whitespace-only changes", "a docs-only PR": a kind of change, not a
    // restriction.
    let mut durable = text::find_phrases(&without_identifiers(&without_kind_only(&all)), DURABLE);
    durable.extend(text::find_phrases(&all, CHANGE_STATES));
    // "It passed on a re-run, so it's fine now", "Everything renders
    // now.": the state of the day.
    if !text::find_phrases(&all, DAY_STATES).is_empty() || ends_on_now(&all) {
        durable.retain(|d| *d != "now");
    }
    if !text::find_phrases(&all, EXPECTATIONS).is_empty() {
        durable.retain(|d| !matches!(*d, "should" | "now"));
    }
    // "Nothing broke": how the day went, not a consequence.
    let outcomes = text::find_phrases(&all, NOTHING_HAPPENED);
    if !outcomes.is_empty() {
        durable.retain(|d| !outcomes.iter().any(|o| o.contains(*d)));
    }
    // A diary in two ways or more ("this sprint", "next week") is saved
    // only by a rule or a reason, not by a word of change ("migrated").
    let strong_diary = episodic.len() >= 2;
    let replaces = !strong_diary
        && text::replacements(&all)
            .iter()
            .any(|r| !ACTIVITY_VERBS.contains(&r.phrase));
    if strong_diary {
        durable.retain(|d| !CHANGE_STATES.contains(d));
    }
    if !unsettled && (!durable.is_empty() || replaces) {
        return None;
    }
    Some(match (status, episodic.first()) {
        (Some(s), _) => format!("a status line (\"{s}\"), not knowledge that lasts"),
        (None, Some(e)) if diary && !reported => format!(
            "a diary entry (\"{e}\"): \"{}\" states no rule, reason or lasting fact",
            title_opening(title, first)
        ),
        _ if put_off && !routine_work => format!(
            "a wish put off (\"{}\"): \"{}\" settles nothing",
            text::find_phrases(&all, UNSETTLED).join("\", \""),
            title_opening(title, first)
        ),
        _ => format!(
            "a report of work done (\"{}\") with no rule, reason or lasting fact",
            title_opening(title, first)
        ),
    })
}

/// Past forms that are no "-ed" word: what happened at a time of day.
const PAST_FORMS: &[&str] = &["came", "was", "were", "went", "got", "done", "back", "ran"];

/// The diary a text tells by its form, as markers like [`EPISODIC`]'s: one
/// person's deed ("I banned everything in Varnish"), and an event at a
/// time of day ("came back at 16:00", "back to 0 by 03:40"), where a
/// schedule says when things run ("the cron runs at 03:00").
fn episodic_forms(text: &str) -> Vec<&'static str> {
    let raw: Vec<&str> = text.split_whitespace().collect();
    let bare = |w: &str| {
        w.trim_matches(|c: char| !c.is_alphanumeric() && c != ':')
            .to_owned()
    };
    let past = |w: &str| {
        let w = bare(w).to_lowercase();
        (w.len() > 4 && w.ends_with("ed") && !w.ends_with("eed"))
            || PAST_FORMS.contains(&w.as_str())
    };
    let mut out = Vec::new();
    if raw.windows(2).any(|p| p[0] == "I" && past(p[1])) {
        out.push("I did");
    }
    if (1..raw.len()).any(|i| {
        super::values::time_of_day(&bare(raw[i]))
            && matches!(raw[i - 1], "at" | "by")
            && raw[i.saturating_sub(5)..i - 1].iter().any(|w| past(w))
    }) {
        out.push("at a time of day");
    }
    out
}

/// The text without the "only" that names a kind of change rather than a
/// restriction: "a docs-only PR", "whitespace and using-order only, no
/// behaviour change" (an "only" that ends its clause after a kind of
/// routine change; "runs on changed files only" still restricts).
fn without_kind_only(text: &str) -> String {
    const KINDS: &[&str] = &["order", "cosmetic", "style", "comments", "renames", "tests"];
    let text = text.replace("-only", "");
    let mut out: Vec<&str> = Vec::new();
    let words: Vec<&str> = text.split(' ').collect();
    for (i, w) in words.iter().enumerate() {
        let ends = w
            .strip_prefix("only")
            .is_some_and(|rest| rest.is_empty() || rest.starts_with([',', ';', '.', ')', '\n']));
        let kind = i
            .checked_sub(1)
            .map(|p| words[p].to_lowercase())
            .is_some_and(|p| {
                let last = p.rsplit('-').next().unwrap_or_default().to_owned();
                ROUTINE.contains(&p.as_str()) || KINDS.contains(&last.as_str())
            });
        if ends && kind {
            out.push(&w[4..]);
        } else {
            out.push(w);
        }
    }
    out.join(" ")
}

/// The text without identifiers (`test_uart_break`, `use_cache`): the
/// words inside a name state nothing.
fn without_identifiers(text: &str) -> String {
    text.split(' ')
        .filter(|w| !w.trim_matches(|c: char| !c.is_alphanumeric()).contains('_'))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Whether a sentence ends on a verb and "now" ("Everything renders now.",
/// "the build passes now"): how things went today. A state that lasts
/// names it ("the default is `main` now", "it lives in `lib/` now").
fn ends_on_now(text: &str) -> bool {
    text.split(['.', '!', '\n', ';', ','])
        .map(|s| {
            // A verb's particle: "the footer shows up now".
            let mut w: Vec<&str> = s.split_whitespace().collect();
            if w.len() >= 3 && matches!(w[w.len() - 2], "up" | "through" | "again") {
                w.remove(w.len() - 2);
            }
            w
        })
        .any(|w| {
            w.len() >= 2 && w[w.len() - 1].eq_ignore_ascii_case("now") && {
                let verb = w[w.len() - 2].to_lowercase();
                verb.len() > 3
                    && verb.ends_with('s')
                    && !verb.ends_with("ss")
                    && !["does", "lives", "uses", "goes", "sits"].contains(&verb.as_str())
            }
        })
}

/// The words of [`ACKNOWLEDGEMENT`] as [`text::words`] gives them (stemmed),
/// made once.
fn acknowledgement() -> &'static BTreeSet<String> {
    static WORDS: OnceLock<BTreeSet<String>> = OnceLock::new();
    WORDS.get_or_init(|| {
        ACKNOWLEDGEMENT
            .iter()
            .flat_map(|w| text::words(w))
            .collect()
    })
}

/// The words of [`PLATITUDE`] as [`text::words`] gives them, made once.
fn platitude() -> &'static BTreeSet<String> {
    static WORDS: OnceLock<BTreeSet<String>> = OnceLock::new();
    WORDS.get_or_init(|| PLATITUDE.iter().flat_map(|w| text::words(w)).collect())
}

/// Whether the text names a version with three parts or more (`3.14.2`,
/// `v1.4.0-rc.1`): what a deploy or bump report is about.
fn has_version(text: &str) -> bool {
    text.split(|c: char| c.is_whitespace() || matches!(c, ',' | ';' | '(' | ')'))
        .map(|w| w.trim_start_matches('v').trim_end_matches(['.', ':']))
        .any(|w| {
            let parts: Vec<&str> = w.split('.').collect();
            parts.len() >= 3
                && parts[..3]
                    .iter()
                    .all(|p| !p.is_empty() && p.chars().all(|c| c.is_ascii_digit()))
        })
}

/// Whether the title opens with a routine action in the past tense
/// ("Fixed", "Ran", "Re-ran", "Addressed"), the way change logs and session
/// notes do.
fn activity(title: &str, subject: bool) -> bool {
    // A commit's subject says it in the imperative, after its type: "fix
    // typo in README", "chore: bump version to 2.3.1"; an instruction says
    // when ("Bump CACHE_VERSION in the same PR as …", "Fix lint warnings
    // before pushing"). Only a title (`subject`) is read so.
    let title = text::without_label(title);
    let words = text::words(title);
    let instructs = words.iter().any(|w| WHEN_WORDS.contains(&w.as_str()));
    title
        .split_whitespace()
        .next()
        .map(|w| {
            w.trim_matches(|c: char| !c.is_alphanumeric())
                .replace('-', "")
                .to_lowercase()
        })
        .is_some_and(|w| {
            ACTIVITY_VERBS.contains(&w.as_str())
                || (subject && ROUTINE_IMPERATIVES.contains(&w.as_str()) && !instructs)
        })
}

/// Words that tie an instruction to when it applies.
const WHEN_WORDS: &[&str] = &[
    "before", "after", "when", "whenever", "unless", "if", "until", "same", "every", "always",
    "never", "each",
];

/// Imperatives a commit subject opens with for routine work ("fix typo in
/// README", "bump version to 2.3.1"): a report only with a word of
/// [`ROUTINE`], no word of when ([`WHEN_WORDS`]) and no lasting fact, as
/// for the past tense.
const ROUTINE_IMPERATIVES: &[&str] = &[
    "fix", "bump", "format", "reformat", "rebase", "tidy", "correct",
];

/// The title as written, cut after 60 characters at a word.
fn title_opening(title: &str, fallback: &str) -> String {
    let title = title.trim();
    if title.is_empty() {
        return fallback.to_owned();
    }
    let mut out = String::new();
    for word in title.split_whitespace() {
        if !out.is_empty() && out.len() + word.len() > 60 {
            out.push_str(" …");
            break;
        }
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn activity_reports_have_no_durable_value() {
        let cases = [
            (
                "Fixed a typo in the README",
                "Changed \"recieve\" to \"receive\" in the installation section.",
                true,
            ),
            (
                "Ran the tests, all green",
                "make test and make itest both pass locally after the change.",
                true,
            ),
            (
                "Bumped version to 1.4.2 for the release",
                "Updated package.json and the manifest to 1.4.2.",
                true,
            ),
            ("WIP", "wip on search indexing, continuing tomorrow", true),
            // Incident diaries: one person's deed, an event at a time of day,
            // hours spent and nothing to change.
            (
                "Flushed staging cache after theme deploy",
                "QA couldn't see the new footer on staging, I banned everything in Varnish and \
                 flushed Magento cache. Footer shows up now, ticket ACME-2291 closed.",
                true,
            ),
            (
                "Queues drained after broker maintenance",
                "Maintenance window done at 03:10, consumers picked up again on the next cron \
                 tick, export queue back to 0 by 03:40. Nothing lost.",
                true,
            ),
            (
                "Akeneo sync hang on staging this afternoon",
                "Spent two hours on the stuck delta sync. The staging PIM was down for its \
                 upgrade, came back at 16:00 and the next run caught up on its own. Nothing to \
                 change on our side.",
                true,
            ),
            (
                "test_uart_break flaky?",
                "test_uart_break failed once in last night's run (seed 88412). Couldn't \
                 reproduce with the same seed on Verilator locally. Will look again tomorrow if \
                 it shows up again.",
                true,
            ),
            // A schedule at a time of day, and a person's finding with its
            // consequence, last.
            (
                "Consumers restart after the nightly maintenance",
                "The broker maintenance window ends at 03:10; consumers are started by the next \
                 cron tick, so the export queue is drained by 03:40.",
                false,
            ),
            (
                "Flushing Varnish drops the grace copies",
                "I banned everything in Varnish once and learned that it also drops the grace \
                 copies, so the origin takes the full load: purge by tag instead.",
                false,
            ),
            // What someone is on now, and when the PR should be up.
            (
                "**Current work**",
                "Priya is refactoring the scheduler this sprint (ticket OPS-1142); PR should be up by Friday.",
                true,
            ),
            // Steps to take, in the imperative, are a procedure: only a
            // title reads as a commit's subject.
            (
                "Verification loop",
                "1. Make changes 2. Format with prettier 3. Run `docker buildx bake lint vale` 4. Run a full build with `docker buildx bake`",
                false,
            ),
            // A commit's subject: the imperative, after a type; git's merge
            // subjects. An instruction says when it applies.
            (
                "fix typo in README",
                "recieve -> receive in the usage section.",
                true,
            ),
            ("chore: bump version to 2.3.1", "Release prep.", true),
            (
                "Merge branch 'main' into feature/lidar-filter",
                "Conflicts resolved in launch/perception.launch.py.",
                true,
            ),
            (
                "Bump CACHE_VERSION in the same PR as a serializer change",
                "Stale keys are not deleted; they age out under the 24h TTL.",
                false,
            ),
            (
                "Fix lint warnings before pushing",
                "CI runs the linter with warnings as errors.",
                false,
            ),
            // A note left in code: a to-do put off is none, one that
            // states a rule is.
            (
                "Revisit the importer",
                "TODO(sam): the importer is a bit of a mess, I'll tidy it up when I have time.",
                true,
            ),
            (
                "Importer must stay single-threaded",
                "TODO: never run the importer in parallel, because rows of one file depend on each other.",
                false,
            ),
            // A question asked twice over asks; one answered is knowledge,
            // and so is a title answered by its body.
            (
                "Cache the exchange rates?",
                "Should we cache the exchange rates in Redis? Let's discuss it on Monday.",
                true,
            ),
            (
                "Cache the exchange rates?",
                "Should we cache them? No: rates must be fetched per quote because they change every minute.",
                false,
            ),
            (
                "Why does the nightly export time out?",
                "The export reads the whole orders table in one query; page it by id in batches of 5,000.",
                false,
            ),
            // A thank-you, even for something named.
            (
                "Thanks for the review",
                "// Thanks @dana for reviewing the retry logic so quickly!",
                true,
            ),
            // A status of a review, a dependency merge that went fine, a
            // platitude about clarity.
            (
                "Opened a PR for the export job",
                "Opened PR #212 with the CSV export changes and asked Sam for a review; waiting on feedback.",
                true,
            ),
            (
                "Merged the weekly Dependabot PR",
                "Merged this week's grouped minor updates; lockfile updated, nothing broke.",
                true,
            ),
            (
                "Aim for clear, idiomatic code",
                "Prefer clear names and concise functions where possible.",
                true,
            ),
            (
                "Keep code readable",
                "Code should be well-named and easy to understand so others can maintain it.",
                true,
            ),
            (
                "Checked the dashboards",
                "Looked through the checkout error rates for the last day; nothing unusual.",
                true,
            ),
            (
                "Merged the payments PR",
                "Merging before the nightly export breaks the ledger totals, so merges wait until 02:00.",
                false,
            ),
            // A to-do that settles nothing, whatever rule words it uses; one
            // that states what is known is knowledge.
            (
                "TODO: look into the slow search index rebuild",
                "The rebuild took 40 minutes on staging, need to check why at some point.",
                true,
            ),
            (
                "TODO comments must name a ticket",
                "Every TODO in the codebase must reference a Jira ticket, e.g. TODO(PAY-123).",
                false,
            ),
            (
                "chore(deps): bump serde from 1.0.197 to 1.0.198",
                "Routine patch bump from the bot, CI green.",
                true,
            ),
            (
                "chore: pin Node to 20",
                "Node 18 is end-of-life, so .nvmrc now pins 20 and CI reads it from there.",
                false,
            ),
            (
                "nit: drop the extra blank line",
                "nit: in api/handlers.go, remove the blank line after the imports.",
                true,
            ),
            (
                "Strive for clean code",
                "We should strive for readable, maintainable code.",
                true,
            ),
            (
                "Typo fix in the install guide",
                "Corrected 'pip isntall' to 'pip install' in the guide.",
                true,
            ),
            (
                "Write clean code",
                "Code should be clean and easy to read.",
                true,
            ),
            (
                "Keep code clean",
                "Write readable code with good test coverage and meaningful names; refactor when things get messy.",
                true,
            ),
            // A platitude said of one language is still one.
            (
                "Keep code performant",
                "Always write clean, performant, well-tested Kotlin code.",
                true,
            ),
            (
                "Unit test status",
                "Ran the unit tests on my branch just now and they pass.",
                true,
            ),
            // Docs work that ends on how it went today.
            (
                "Updated the docs",
                "Ran the docs build locally, fixed the one broken link in docs/getting-started.md, and pushed. Everything renders now.",
                true,
            ),
            (
                "Updated the docs",
                "Updated the docs: the API reference lives in docs/api now, generated by CI.",
                false,
            ),
            // "-only" names a kind of change, not a restriction.
            (
                "ran mix format on lib/",
                "Ran mix format over lib/shop and lib/shop_web, whitespace-only changes, no behaviour change.",
                true,
            ),
            (
                "Formatting of generated code",
                "Ran mix format over lib/shop; only hand-written modules are formatted, the generated ones are skipped by .formatter.exs.",
                false,
            ),
            // So does an "only" that ends its clause after a kind of
            // change; after what it picks out ("changed files only") it
            // still restricts.
            (
                "chore: dotnet format on Fhir.Api",
                "Ran dotnet format on src/Fhir.Api; whitespace and using-order only, no behaviour change.",
                true,
            ),
            (
                "chore: dotnet format on Fhir.Api",
                "Ran dotnet format on src/Fhir.Api; it runs on changed files only, so CI stays fast.",
                false,
            ),
            // Chat replies, re-runs, deploys of a version, a discussion that
            // settled nothing, a report whose own verb is "removed".
            ("Looks good", "LGTM, ship it. Thanks!", true),
            (
                "Re: infra PR",
                "LGTM 👍 merging once CI is done. Thanks!",
                true,
            ),
            (
                "DLQ page",
                "thx, that worked!! I'll have a proper look at the dead letters when I'm back on.",
                true,
            ),
            // The day's state and plans, whatever word of change they use.
            (
                "Search specs migrated",
                "Moved most of the search specs over this sprint; the facet specs are still to go next week.",
                true,
            ),
            (
                "PaymentSyncTest was flaky",
                "It failed on CI this morning; re-ran the pipeline and it passed, so it's fine now.",
                true,
            ),
            (
                "Queue sizing chat",
                "Talked with Sam about whether the import queue needs more workers; we'll revisit after the load test.",
                true,
            ),
            (
                "Cache warmup",
                "Spent the afternoon on it this sprint; turns out the cache must be warmed before the deploy.",
                false,
            ),
            (
                "Write clean, well-tested code",
                "Code in this repository should be readable and well tested, and reviewers should keep quality high.",
                true,
            ),
            // A platitude names nothing to act on; a rule that names a
            // thing does.
            (
                "Keep code clean",
                "We should always write clean, readable, well-tested code and think about maintainability.",
                true,
            ),
            (
                "Keep functions short",
                "We should keep handlers under 40 lines so reviews stay readable.",
                false,
            ),
            // Words of care and size say nothing more than "clean" does.
            (
                "Write maintainable code",
                "Keep functions small and readable, and make sure code is easy for others to understand.",
                true,
            ),
            (
                "Be thorough",
                "Always be careful and thorough: code should be properly tested.",
                true,
            ),
            (
                "Small functions in the parser",
                "Keep functions in `parser/` small: the fuzzer's stack depth limit is 64 frames.",
                false,
            ),
            (
                "Perfect, thank you",
                "That did the trick, closing now.",
                true,
            ),
            ("Pipeline fixed", "Re-ran the nightly job, all green.", true),
            (
                "Deploy job flaked",
                "The deploy job timed out once; retried it and it went green.",
                true,
            ),
            (
                "Released 2.8.0",
                "Released v2.8.0 to staging, smoke tests fine.",
                true,
            ),
            (
                "Meeting notes: cache sync",
                "Talked about using Redis instead of memcached. No decision yet, revisit next quarter.",
                true,
            ),
            (
                "Removed unused imports",
                "Removed two unused imports from api.py.",
                true,
            ),
            (
                "Redis replaced memcached",
                "We removed memcached; sessions now live in Redis because evictions lost carts.",
                false,
            ),
            (
                "Meeting notes: retention decided",
                "Logs are kept 30 days; the audit log must be kept 7 years.",
                false,
            ),
            (
                "Addressed review comments",
                "Renamed a couple of variables and added the missing docstring.",
                true,
            ),
            (
                "Rebased on main",
                "Rebased the branch on latest main and resolved conflicts in go.sum.",
                true,
            ),
            (
                "Progress on the invoices API",
                "Implemented 3 of the 5 invoice endpoints; update and delete still to do.",
                true,
            ),
            (
                "Session summary",
                "Today I worked on the login page. Will continue next session.",
                true,
            ),
            // Knowledge that mentions tests, versions or past work.
            (
                "Bumped the orders pool to 50",
                "Pool exhaustion caused timeouts under load, so it is now 50.",
                false,
            ),
            (
                "Migrated from logrus to log/slog",
                "All services now log through slog.",
                false,
            ),
            (
                "Replaced Gson with kotlinx.serialization",
                "Do not add @SerializedName any more.",
                false,
            ),
            (
                "Integration tests share one database",
                "Use unique tenant ids per test.",
                false,
            ),
            (
                "Seeds split into per-env files",
                "db/seeds.rb dispatches on Rails.env.",
                false,
            ),
            (
                "Rebasing past the migration squash needs make db-reset",
                "Old migration files were collapsed.",
                false,
            ),
            (
                "Signed URLs expire after an hour",
                "S3 presigned URLs stop working 3600 s after signing.",
                false,
            ),
            (
                "Renamed the orders table to purchases",
                "The ORM model is still called Order.",
                false,
            ),
            (
                "Removed unused import",
                "Deleted an unused `import os` from utils/paths.py.",
                true,
            ),
            // Diary entries: tied to the day or to someone's plans.
            (
                "Pairing session on the importer",
                "Went through the CSV importer with Priya this afternoon; we pick it up again after the meeting.",
                true,
            ),
            (
                "Investigated the memory spike",
                "Spent the morning on the heap dumps from the Switch build, no conclusion so far.",
                true,
            ),
            (
                "Blocked by the security review",
                "Still waiting on the security team for the OAuth scopes; pinged them again.",
                true,
            ),
            (
                "Nightly export job",
                "digging through the nightly export failures right now, will report back in the thread",
                true,
            ),
            (
                "Lint and unit suites are green",
                "Rebased on develop; everything passes on my machine. Ready for review.",
                true,
            ),
            // A lasting fact keeps its value whatever day it was written.
            (
                "Today every service logs through pino",
                "The shared logger wraps pino and adds the trace id to each line.",
                false,
            ),
            (
                "The staging database is reset every night",
                "Anything you create today is gone tomorrow; seed scripts must be idempotent.",
                false,
            ),
            (
                "Checked why exports time out",
                "Exports over 50k rows time out because the worker has a 30 s limit; use the async export.",
                false,
            ),
            // What someone expects of their own fix is the day's state.
            (
                "Fixed flaky OrdersControllerTest",
                "OrdersControllerTest was failing randomly on CI again, fixed it. Should be green now.",
                true,
            ),
            // A status line that lists what is left settles nothing.
            (
                "WIP billing refactor",
                "WIP - rebased on main, resolved conflicts in composer.lock. Still need to finish the rest tomorrow.",
                true,
            ),
            // A wish put off twice over, whatever its title.
            (
                "Make the nightly job faster",
                "We should look into making the Spark nightly job faster at some point, it feels slow.",
                true,
            ),
            (
                "Keep code clean",
                "Always write clean, readable code with meaningful names and good tests. Small methods are better than big ones.",
                true,
            ),
            // A reply in a thread, and a heads-up about the day.
            (
                "Re: build failing on my branch",
                "ah yes that fixed it, thanks a lot! build is green now",
                true,
            ),
            (
                "staging deploy red",
                "Heads up: staging deploy is currently failing, Priya is looking at it. Please hold off merging infra PRs for the next hour or so.",
                true,
            ),
            (
                "Staging deploys need the VPN",
                "Heads up: the staging deploy job runs from the office runner because the cluster API is only reachable over the VPN.",
                false,
            ),
            // A rule that says when to look into something is a rule.
            (
                "Nightly job over 2 hours pages on-call",
                "If the Spark nightly job runs past 2 hours, look into the skewed join first; the alert fires at 02:00.",
                false,
            ),
            (
                "Big migrations run in batches",
                "Backfills over 1M rows must run in batches of 10k, otherwise replication lags behind.",
                false,
            ),
        ];
        for (title, summary, want) in cases {
            assert_eq!(
                no_durable_value(title, summary, "").is_some(),
                want,
                "{title}"
            );
        }
    }
}
