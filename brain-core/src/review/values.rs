//! The values a memory states, to tell a changed value from a repeated one:
//! "the payment gateway timeout is now 30 seconds" against "… is 10
//! seconds", "we pin Node 22" against "we pin Node 20", "`--dry-run`
//! defaults to false" against "… defaults to true".
//!
//! A value is a number with its dimension (a duration, a size, a ratio, a
//! rate, a count, a time of day), a cron schedule, a version with three or
//! more parts, or a boolean in an assignment or a default
//! ("`drop_last=True`", "defaults to false"), with the words it is about: up
//! to three topic words before it in its clause and the noun that counts it
//! ("25 *replicas*").
//!
//! A label before a colon says what its value is about ("`audit_events`
//! retention: 7 years"); durations run from milliseconds to years.
//!
//! A value set by its name is that setting's: `KEY=value`, a flag with its
//! value, a Ruby symbol after a code name (`delivery_method :postmark`,
//! `queue_adapter = :sidekiq`) and a value after the key a call quotes
//! (`set('keep_releases', 3)`), the port after a host name
//! (`mirth-adt.ngh.local:6661`, a setting of that host) and the word a long
//! flag is given (`--algorithm MLD`). It is compared with the target's value of
//! that name when the target has one, and its amount alone named as past
//! ("(was 20)") words the change.
//!
//! A change is a value the target states that the candidate states
//! differently about the same thing: in both titles, when the titles share
//! their other words (the *frame*) or what the values are about, or when
//! both are versions each about something the other memory names; a
//! measure in the candidate's title against the one measure of its kind in
//! the target's text, under titles of one frame; or anywhere, when what the
//! values are about shares a word. Pure; no I/O.

use std::collections::BTreeSet;

use super::text;

/// An amount, as compared.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Amount {
    /// A number in the canonical unit of its dimension: `""` (a plain
    /// number), `s` (a duration), `B` (a size), `%` (a ratio, as a fraction),
    /// `/s` (a rate), `x` (a count of times or attempts), `clock` (minutes
    /// after midnight).
    Number { value: f64, dim: &'static str },
    /// A version with three or more parts (`1.4.2`).
    Version(Vec<u64>),
    /// A boolean set or defaulted.
    Bool(bool),
    /// A named setting written as a constant after "is" or "to"
    /// ("compatibility is `BACKWARD`", "isolation set to `READ_COMMITTED`"),
    /// or after "as" in a clause that binds or names ("bound as `CACHE`").
    Name(String),
    /// The tag of a container image (`python:3.12-slim`, `node:20-alpine`):
    /// what an image reference pins, like a version.
    Tag(String),
    /// A cron schedule (`0 3 * * *`, `*/15 * * * 1-5`): when something
    /// runs, compared like a time of day.
    Schedule(String),
}

impl Amount {
    /// Whether two amounts can be compared: the same dimension, or a plain
    /// number against a number of any dimension or a version.
    fn comparable(&self, other: &Amount) -> bool {
        match (&*self.minutes_against(other), &*other.minutes_against(self)) {
            (Amount::Number { dim: a, .. }, Amount::Number { dim: b, .. }) => {
                a == b || ((a.is_empty() || b.is_empty()) && *a != "clock" && *b != "clock")
            }
            (Amount::Version(_), Amount::Version(_))
            | (Amount::Bool(_), Amount::Bool(_))
            | (Amount::Name(_), Amount::Name(_))
            | (Amount::Tag(_), Amount::Tag(_))
            | (Amount::Schedule(_), Amount::Schedule(_)) => true,
            (Amount::Version(_), Amount::Number { dim, .. })
            | (Amount::Number { dim, .. }, Amount::Version(_)) => dim.is_empty(),
            _ => false,
        }
    }

    /// A configuration's terse "10m" read as minutes where the other amount
    /// is a duration ("10m" against "1h"): a size is never written so.
    fn minutes_against(&self, other: &Amount) -> std::borrow::Cow<'_, Amount> {
        match (self, other) {
            (Amount::Number { value, dim: "m" }, Amount::Number { dim: "s", .. }) => {
                std::borrow::Cow::Owned(Amount::Number {
                    value: value * 60.0,
                    dim: "s",
                })
            }
            _ => std::borrow::Cow::Borrowed(self),
        }
    }

    /// Whether two comparable amounts are the same.
    fn same(&self, other: &Amount) -> bool {
        match (&*self.minutes_against(other), &*other.minutes_against(self)) {
            (Amount::Number { value: a, .. }, Amount::Number { value: b, .. }) => {
                (a - b).abs() <= 1e-9 * a.abs().max(b.abs()).max(1.0)
            }
            (Amount::Version(a), Amount::Version(b)) => a == b,
            (Amount::Bool(a), Amount::Bool(b)) => a == b,
            (Amount::Name(a), Amount::Name(b))
            | (Amount::Tag(a), Amount::Tag(b))
            | (Amount::Schedule(a), Amount::Schedule(b)) => a.eq_ignore_ascii_case(b),
            _ => false,
        }
    }
}

/// One value a text states.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Value {
    /// The amount.
    pub(super) amount: Amount,
    /// As written: "30 seconds", "`-Xmx4g`", "false".
    pub(super) text: String,
    /// What it is about: the [`text::root`]s of up to three topic words
    /// before it in its clause, and of the noun counted by it.
    pub(super) key: BTreeSet<String>,
    /// The nearest of those words, as written, for reports.
    pub(super) subject: String,
    /// It is named explicitly: `key=value`, or a flag with its value
    /// (`-Xmx4g`).
    pub(super) named: bool,
    /// It is given as an estimate: "about 400", "~2 s", "roughly 10%".
    pub(super) approximate: bool,
    /// Whether it is stated, or named as given up or turned down.
    pub(super) held: Held,
}

/// How a text holds a value it writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Held {
    /// Stated as it is.
    Stated,
    /// Named as dropped: "Drop iOS 15", "remove Python 3.9".
    Dropped,
    /// What a negated verb would move to: "don't drop the cap to 30".
    Refused,
}

impl Value {
    fn same(&self, other: &Value) -> bool {
        self.amount.comparable(&other.amount) && self.amount.same(&other.amount)
    }

    /// Whether two numbers, one of them an estimate, are within a tenth of
    /// each other: "about 400 queries" retells "401 queries".
    fn near(&self, other: &Value) -> bool {
        match (&self.amount, &other.amount) {
            (Amount::Number { value: a, .. }, Amount::Number { value: b, .. })
                if self.approximate || other.approximate =>
            {
                (a - b).abs() <= 0.1 * a.abs().max(b.abs())
            }
            _ => false,
        }
    }
}

/// Words that make the number after them an estimate.
const APPROXIMATELY: &[&str] = &[
    "about",
    "around",
    "roughly",
    "approximately",
    "approx",
    "nearly",
    "almost",
    "some",
    "ca",
];

/// The values of one memory, split by where they are stated.
#[derive(Clone, Debug, Default)]
pub(super) struct Values {
    /// In the title.
    title: Vec<Value>,
    /// Anywhere (title, summary, detail).
    all: Vec<Value>,
    /// The title's topic roots without numbers and change words: what the
    /// title's values are about.
    frame: BTreeSet<String>,
    /// The text says something changed ("now", "raised", "lowered").
    pub(super) change_worded: bool,
    /// The whole text, lowercase: where an old value may be named as past
    /// ("was 300 ms", "from 10m").
    lower: String,
    /// The [`text::roots`] of the whole text.
    roots: BTreeSet<String>,
}

impl Values {
    /// The whole text (title, summary, detail), lowercase.
    pub(super) fn lower(&self) -> &str {
        &self.lower
    }

    /// Whether the text states this amount over at least `about` of the
    /// words saying what the value is about (0: anywhere).
    pub(super) fn states(&self, value: &Value, about: usize) -> bool {
        self.all
            .iter()
            .any(|v| v.same(value) && v.key.intersection(&value.key).count() >= about)
    }

    /// The values of a memory with this title and body (summary and detail),
    /// and the [`text::roots`] of both.
    pub(super) fn of(title: &str, body: &str, roots: BTreeSet<String>) -> Values {
        let title_values = values(title);
        let mut all = title_values.clone();
        all.extend(values(body));
        let frame = text::roots(title)
            .into_iter()
            .filter(|w| {
                !CHANGE_WORDS.contains(&w.as_str())
                    && !FILLER.contains(&w.as_str())
                    && !is_unit_word(w)
                    && !super::subject::generic(w)
            })
            .collect();
        let change_worded = text::words(&format!("{title}\n{body}"))
            .iter()
            .any(|w| CHANGE_WORDS.contains(&text::root(w).as_str()));
        Values {
            title: title_values,
            all,
            frame,
            change_worded,
            lower: format!("{title}\n{body}").to_lowercase(),
            roots,
        }
    }
}

/// A value the target states that the candidate states differently.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct ValueChange {
    /// What the value is about, as written ("timeout").
    pub(super) subject: String,
    /// The target's value, as written.
    pub(super) old: String,
    /// The candidate's value, as written.
    pub(super) new: String,
    /// Both titles state it, and they share the rest of their words.
    pub(super) in_titles: bool,
    /// The candidate's title states the new value ("debug UART now
    /// 921600").
    pub(super) new_in_title: bool,
    /// The candidate says that it changed ("now", "raised to"), or states
    /// the new value in its title.
    pub(super) worded: bool,
    /// How sure the match is: 3 for both titles over the same frame, 2 for
    /// both titles about the same words, 1 for values elsewhere; then how
    /// many words of the titles' frames (elsewhere: of what the values are
    /// about) are shared.
    pub(super) strength: (u8, usize),
    /// The candidate's value.
    pub(super) new_value: Value,
    /// The target's value.
    pub(super) old_value: Value,
}

impl ValueChange {
    /// "timeout: 10 seconds → 30 seconds".
    pub(super) fn describe(&self) -> String {
        if self.subject.is_empty() {
            format!("{} → {}", self.old, self.new)
        } else {
            format!("{}: {} → {}", self.subject, self.old, self.new)
        }
    }

    /// Strong enough to replace the target: stated in both titles, or worded
    /// as a change.
    pub(super) fn replaces(&self) -> bool {
        self.in_titles || self.worded
    }
}

/// Returns the value of `target` that `candidate` changes, if any: first in
/// both titles (when the titles share their frame, or what the two values
/// are about), then anywhere (when what they are about shares a word). A
/// candidate that states the new value and the target that already states
/// it too is no change; a candidate that still states the old value in its
/// title is none either (it names both, like "10 s for reads, 30 s for
/// writes").
pub(super) fn change(candidate: &Values, target: &Values) -> Option<ValueChange> {
    if instances_apart(candidate, target) {
        return None;
    }
    let fresh = |q: &Value| !already_stated(target, q);
    // A name the candidate still writes as a word ("critical still pages"
    // against `severity=critical`) is kept beside the new one, unless it
    // writes it as what was ("CACHE was easily confused with …").
    let kept = |p: &Value| {
        candidate
            .title
            .iter()
            .any(|q| q.same(p) && q.held != Held::Dropped)
            || matches!(&p.amount, Amount::Name(n) if candidate
                .lower
                .split(|c: char| !c.is_alphanumeric() && c != '_')
                .any(|w| w.eq_ignore_ascii_case(n)))
                && !names_as_past(candidate, p)
    };
    let differ = |q: &Value, p: &Value| {
        q.amount.comparable(&p.amount) && !q.amount.same(&p.amount) && !q.near(p)
    };
    let shared = candidate
        .frame
        .iter()
        .filter(|w| text::has_root(&target.frame, w))
        .count();
    let smaller = candidate.frame.len().min(target.frame.len());
    let same_frame = shared >= 2 && 2 * shared >= smaller;
    // What both values are about, in words that can tell things apart; the
    // same explicit name (`traces_sample_rate=`, `-Xmx`) counts twice.
    let about = |q: &Value, p: &Value| {
        if settings_apart(q, p) {
            return 0;
        }
        let shared = q
            .key
            .iter()
            .filter(|w| !super::subject::generic(w) && text::has_root(&p.key, w))
            .count();
        if q.named && p.named && q.subject.eq_ignore_ascii_case(&p.subject) {
            shared.max(2)
        } else {
            shared
        }
    };
    // A version in both titles, each about something the other memory
    // names: "Editor version: 2022.3.20f1" against "Project pinned to Unity
    // 2021.3" in a text about the Unity project. Versions are what pins
    // state; they do not match by chance the way small numbers do.
    let known = |v: &Value, other: &Values| {
        v.key
            .iter()
            .any(|w| !super::subject::generic(w) && text::has_root(&other.roots, w))
    };
    let versions = |q: &Value, p: &Value| {
        matches!(q.amount, Amount::Version(_)) || matches!(p.amount, Amount::Version(_))
    };
    for q in candidate.title.iter().filter(|q| q.held != Held::Refused) {
        for p in &target.title {
            if !(differ(q, p) && fresh(q) && !kept(p)) {
                continue;
            }
            if same_frame || about(q, p) >= 2 {
                let strength = (if same_frame { 3 } else { 2 }, shared);
                return Some(describe(q, p, true, true, strength));
            }
            if versions(q, p) && known(q, target) && known(p, candidate) {
                return Some(describe(q, p, true, true, (2, shared)));
            }
        }
    }
    // A measure the candidate's title states, under titles of one frame,
    // against the one measure of its kind the target's text states.
    if same_frame
        && let Some((q, p)) = title_measures(candidate, target)
            .into_iter()
            .find(|(q, p)| differ(q, p) && fresh(q) && !kept(p))
    {
        // The new value stands in the title, as below.
        let mut change = describe(q, p, false, true, (1, about(q, p).max(1)));
        change.new_in_title = true;
        return Some(change);
    }
    // Two times of day or cron schedules under titles about the same thing,
    // two title words or one and wording of a change ("Full reindex runs
    // nightly at 02:00" / "Full reindex only on Sundays" with "now runs
    // Sundays 03:00"): when something runs, whatever words lead to it.
    let clocks = |q: &Value, p: &Value| {
        (shared >= 2 || (shared == 1 && candidate.change_worded))
            && [q, p].iter().all(|v| {
                matches!(
                    v.amount,
                    Amount::Number { dim: "clock", .. } | Amount::Schedule(_)
                )
            })
    };
    // A value set by its name is compared with the target's value of that
    // name when it has one (`WEB_CONCURRENCY=2`, not "3x" web dynos).
    let by_name = |q: &Value, p: &Value| {
        let named_alike = |v: &Value| v.named && v.subject.eq_ignore_ascii_case(&q.subject);
        !q.named || named_alike(p) || !target.all.iter().any(named_alike)
    };
    for q in candidate.all.iter().filter(|q| q.held != Held::Refused) {
        for p in target.all.iter().filter(|p| by_name(q, p)) {
            if differ(q, p) && fresh(q) && !kept(p) && (about(q, p) >= 1 || clocks(q, p)) {
                let new_in_title = candidate
                    .title
                    .iter()
                    .any(|t| t.amount.comparable(&q.amount) && t.amount.same(&q.amount));
                let worded = candidate.change_worded || new_in_title || names_as_past(candidate, p);
                let mut change = describe(q, p, false, worded, (1, about(q, p)));
                change.new_in_title = new_in_title;
                return Some(change);
            }
        }
    }
    None
}

/// Each measure of the candidate's title with the one measure of its kind
/// (a duration, a size, a ratio …) in the target's text, where the target
/// has exactly one: "Evidence upload limit is 20 MB per file" against
/// "Evidence upload limits" stating "… up to 10 MB per file".
fn title_measures<'v>(candidate: &'v Values, target: &'v Values) -> Vec<(&'v Value, &'v Value)> {
    let dim_of = |v: &Value| match v.amount {
        Amount::Number { dim, .. } if !dim.is_empty() => Some(dim),
        _ => None,
    };
    candidate
        .title
        .iter()
        .filter(|q| q.held != Held::Refused)
        .filter_map(|q| {
            let dim = dim_of(q)?;
            let alike: Vec<&Value> = target
                .all
                .iter()
                .filter(|p| dim_of(p) == Some(dim))
                .collect();
            match alike[..] {
                [p] => Some((q, p)),
                _ => None,
            }
        })
        .collect()
}

/// Whether the target already states the candidate's value `q` of the same
/// thing. A boolean is stated by the target when it says it of the same kind
/// of thing: a default is not an assignment ("defaults to true" and "pass
/// `--dry-run=false`"). A value set by its name (`WEB_CONCURRENCY=4`) is
/// stated only of that setting: "4x Standard-2X" workers are not it.
fn already_stated(target: &Values, q: &Value) -> bool {
    target.all.iter().any(|p| {
        p.same(q)
            && !settings_apart(q, p)
            && (!matches!(q.amount, Amount::Bool(_))
                || p.key.contains("default") == q.key.contains("default"))
            && (!q.named
                || (p.named && p.subject.eq_ignore_ascii_case(&q.subject))
                || p.key.intersection(&q.key).count() >= 2)
    })
}

/// Whether two values are of two settings named apart (`pool_size`,
/// `statement_cache_size`; `minReplicas`, `maxReplicas`): two things,
/// whatever words their names share.
fn settings_apart(q: &Value, p: &Value) -> bool {
    let setting = |v: &Value| {
        let camel = v.subject.starts_with(|c: char| c.is_ascii_lowercase())
            && v.subject.chars().any(|c| c.is_ascii_uppercase())
            && v.subject.chars().all(char::is_alphanumeric);
        v.subject.contains('_') || camel
    };
    setting(q) && setting(p) && !q.subject.eq_ignore_ascii_case(&p.subject)
}

/// Whether two titles name two numbered instances of one kind of thing
/// (`I2C1` / `I2C2`, `uart0` / `uart1`, `worker-2` / `worker-3`), and the
/// target never names the candidate's: each states the values of its own
/// instance, none is a new value of the other. A letter and a number
/// (`v1`, `v2`) is a version, no instance.
fn instances_apart(candidate: &Values, target: &Values) -> bool {
    let instances = |frame: &BTreeSet<String>| -> Vec<(String, String)> {
        frame
            .iter()
            .filter_map(|w| {
                let stem = w
                    .trim_end_matches(|c: char| c.is_ascii_digit())
                    .trim_end_matches(['-', '_']);
                (stem.len() < w.len()
                    && stem.chars().filter(char::is_ascii_alphabetic).count() >= 2)
                    .then(|| (stem.to_owned(), w.clone()))
            })
            .collect()
    };
    let theirs = instances(&target.frame);
    instances(&candidate.frame).iter().any(|(stem, word)| {
        !target.roots.contains(word)
            && theirs
                .iter()
                .any(|(s, w)| s == stem && w != word && !candidate.frame.contains(w))
    })
}

/// Whether the candidate names the target's value as a past one: "(was 300
/// ms)", "from 10 s", "not 10m", "instead of 20". A value set by its name
/// (`TIMEOUT=20`) may be named as past by its amount alone ("(was 20)").
pub(super) fn names_as_past(candidate: &Values, old: &Value) -> bool {
    let text = old.text.to_lowercase();
    let past = ["was ", "from ", "not ", "instead of ", "previously "];
    let by_amount = old
        .named
        .then(|| text.rsplit_once(['=', ':']).map(|(_, a)| a.trim()))
        .flatten()
        .filter(|a| !a.is_empty())
        .is_some_and(|amount| {
            past.iter().any(|w| {
                let said = format!("{w}{amount}");
                candidate.lower.match_indices(&said).any(|(at, _)| {
                    !candidate.lower[at + said.len()..]
                        .starts_with(|c: char| c.is_alphanumeric() || c == '.')
                })
            })
        });
    by_amount
        || past
            .iter()
            .any(|w| candidate.lower.contains(&format!("{w}{text}")))
        || [" was ", " used to "]
            .iter()
            .any(|w| candidate.lower.contains(&format!("{text}{w}")))
}

fn describe(
    new: &Value,
    old: &Value,
    in_titles: bool,
    worded: bool,
    strength: (u8, usize),
) -> ValueChange {
    let subject = if old.subject.is_empty() {
        new.subject.clone()
    } else {
        old.subject.clone()
    };
    ValueChange {
        subject,
        old: old.text.clone(),
        new: new.text.clone(),
        in_titles,
        new_in_title: in_titles,
        worded,
        strength,
        new_value: new.clone(),
        old_value: old.clone(),
    }
}

/// Whether any root of `roots` says a value changed ("now", "raised",
/// "bumped").
pub(super) fn says_change(roots: &BTreeSet<String>) -> bool {
    CHANGE_WORDS.iter().any(|w| roots.contains(*w))
}

/// Roots of words that say a value changed, or that only frame it.
const CHANGE_WORDS: &[&str] = &[
    "now", "rais", "lower", "increas", "decreas", "reduc", "bump", "chang", "updat", "doubl",
    "halv", "new", "tighten", "loosen",
];

/// Words that cannot say what a value is about.
const FILLER: &[&str] = &[
    "about", "above", "after", "all", "around", "at", "before", "below", "each", "every",
    "exactly", "just", "least", "less", "more", "most", "only", "over", "per", "than", "under",
    "up", "within", "to", "now", "set", "get", "default", "same", "still", "max", "min",
];

/// Count nouns: "5 times", "8 attempts".
const COUNTS: &[&str] = &["tim", "attempt", "retry", "try"];

/// Small numbers written as words, used only before a unit ("one minute").
const NUMBER_WORDS: &[&str] = &[
    "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    "eleven", "twelve",
];

/// The factor and dimension of a unit word.
fn unit(word: &str) -> Option<(f64, &'static str)> {
    Some(match word.to_lowercase().as_str() {
        "%" | "percent" => (0.01, "%"),
        "ms" | "millisecond" | "milliseconds" => (0.001, "s"),
        "s" | "sec" | "secs" | "second" | "seconds" => (1.0, "s"),
        "min" | "mins" | "minute" | "minutes" => (60.0, "s"),
        "h" | "hr" | "hrs" | "hour" | "hours" => (3600.0, "s"),
        "d" | "day" | "days" => (86_400.0, "s"),
        "week" | "weeks" => (604_800.0, "s"),
        "month" | "months" => (2_592_000.0, "s"),
        "y" | "yr" | "yrs" | "year" | "years" => (31_536_000.0, "s"),
        "kb" | "kib" | "ki" => (1024.0, "B"),
        "mb" | "mib" | "mi" => (1_048_576.0, "B"),
        "g" | "gb" | "gib" | "gi" => (1_073_741_824.0, "B"),
        "tb" | "tib" | "ti" => (1_099_511_627_776.0, "B"),
        "x" | "st" | "nd" | "rd" | "th" => (1.0, "x"),
        _ => return None,
    })
}

fn is_unit_word(root: &str) -> bool {
    unit(root).is_some()
        || COUNTS.contains(&root)
        || ["second", "minut", "hour", "day", "week", "month", "year"].contains(&root)
}

/// The amount set after `=` in `key=value`: a number, a boolean, or a word
/// set as a value (`SameSite=Strict`), which names it.
fn assigned(value: &str) -> Option<Amount> {
    // Words joined by hyphens are one name (`--account=gen-core-2025`).
    let word = value.len() >= 2
        && value.chars().next().is_some_and(char::is_alphabetic)
        && !value.ends_with('-')
        && value
            .chars()
            .all(|c| c.is_alphanumeric() || c == '_' || c == '-');
    parse(value)
        .map(|(a, _)| a)
        .or_else(|| boolean(value))
        .or_else(|| word.then(|| Amount::Name(value.to_owned())))
}

/// The amount a number written as a word (`n`, "two") states with the word
/// after it, and the noun it counts: only before a unit of time ("two
/// hours") or a noun of counts ("two retries", like "2 retries").
fn number_word(n: usize, next: &str) -> Option<(Amount, Option<String>)> {
    #[allow(clippy::cast_precision_loss, reason = "n is at most 12")]
    let n = n as f64;
    if let Some((f, dim)) = unit(next).filter(|(_, d)| *d == "s") {
        return Some((Amount::Number { value: n * f, dim }, None));
    }
    COUNTS
        .contains(&text::root(next).as_str())
        .then(|| (Amount::Number { value: n, dim: "x" }, Some(next.to_owned())))
}

/// A token without the punctuation around it, also a quote inside a colon
/// (`"11.0":` is `11.0`).
fn value_core(token: &str) -> &str {
    let mut core = token;
    loop {
        let trimmed = core
            .trim_matches(|c: char| {
                !(c.is_alphanumeric() || matches!(c, '%' | '-' | '=' | '.' | ':' | '/'))
            })
            .trim_end_matches(['.', ':', '/'])
            .trim_start_matches(['.', '/']);
        if trimmed == core {
            return core;
        }
        core = trimmed;
    }
}

/// The values `text` states, in order.
#[allow(
    clippy::too_many_lines,
    reason = "one branch per way a value is written"
)]
pub(super) fn values(text: &str) -> Vec<Value> {
    let mut out = Vec::new();
    let raw: Vec<&str> = text.split_whitespace().collect();
    // Topic words seen before the current token in its clause, nearest last,
    // as (root, as written).
    let mut before: Vec<(String, String)> = Vec::new();
    // Where a value is set: what it is about too, beside the words naming it.
    let mut place: Vec<String> = Vec::new();
    let mut i = 0;
    while i < raw.len() {
        let token = raw[i];
        let ends_clause = token.ends_with([',', ';', ':', '.', '!', '?', ')']);
        let core = value_core(token);
        let next = |k: usize| {
            raw.get(i + k)
                .map(|n| n.trim_matches(|c: char| !c.is_alphanumeric() && c != '%'))
        };
        let mut used = 0;
        // A number with no unit and nothing counted after it.
        let mut bare = false;
        let mut found: Option<(Amount, String, Option<String>, bool)> = None;
        if let Some(schedule) = cron_at(&raw, i) {
            // `0 3 * * *`: five fields, one value.
            used = 4;
            found = Some((Amount::Schedule(schedule.clone()), schedule, None, false));
        } else if let Some((image, tag)) = image_reference(core).or_else(|| versioned_name(core)) {
            // `node:20-alpine`: the tag of the image named.
            before.push((text::root(image), image.to_owned()));
            // Written without the call or quotes around it.
            let written = core.rsplit(['\'', '"', '(']).next().unwrap_or(core);
            found = Some((Amount::Tag(tag.to_owned()), written.to_owned(), None, true));
        } else if dated_version(&raw, i, core) {
            // "API version 2024-06-20": the date is the version.
            found = Some((Amount::Tag(core.to_owned()), core.to_owned(), None, true));
        } else if let Some((name, date)) = dated_name(core) {
            // `nightly-2024-11-01`: the date pins the name, like a tag.
            before.push((text::root(name), name.to_owned()));
            found = Some((Amount::Tag(date.to_owned()), core.to_owned(), None, true));
        } else if let Some((host, port)) = host_port(core) {
            // `mirth-adt.ngh.local:6671`: the port the host is reached on,
            // a setting of that host.
            before.extend(setting_words(host));
            found = Some((
                Amount::Number {
                    value: port,
                    dim: "",
                },
                core.to_owned(),
                None,
                true,
            ));
        } else if let Some((name, value)) = core.rsplit_once('=') {
            // `key=value`: the value of `key`; of a query string's last
            // parameter (`?pgbouncer=true&connection_limit=5`), that
            // parameter's.
            let name = name
                .rsplit(['&', '?', ';', ','])
                .next()
                .unwrap_or(name)
                .trim_start_matches('-');
            if let Some(amount) = assigned(value) {
                before.extend(setting_words(name));
                found = Some((amount, format!("{name}={value}"), None, true));
            }
        } else if let Some(sym) = core.strip_prefix(':')
            && let Some(key) = symbol_key(&raw, i)
            && identifier(sym)
        {
            // `delivery_method :postmark`, `queue_adapter = :sidekiq`: a
            // symbol set as a setting's value.
            before.extend(setting_words(key));
            found = Some((Amount::Name(sym.to_owned()), core.to_owned(), None, true));
        } else if let Some(flag) = core.strip_prefix('-').map(|f| f.trim_start_matches('-'))
            && let Some(split) = flag.find(|c: char| c.is_ascii_digit())
            && split > 0
            && flag[..split].chars().all(char::is_alphabetic)
            && let Some((amount, _)) = parse(&flag[split..])
        {
            // A flag with its value glued on: `-Xmx4g`.
            before.push((text::root(&flag[..split]), flag[..split].to_owned()));
            found = Some((amount, core.to_owned(), None, true));
        } else if let Some((amount, unitless)) = parse(core) {
            let words = [next(1), next(2), next(3)];
            let (amount, written, counted, n) = if unitless && !ends_clause {
                with_next_words(amount, core, words)
            } else {
                (amount, core.to_owned(), None, 0)
            };
            used = n;
            bare = unitless && n == 0 && counted.is_none();
            // `set('keep_releases', 3)`: the value of the key quoted before
            // it; `line-length = 120`: of the key before the `=`.
            let quoted = (i > 0)
                .then(|| quoted_key(raw[i - 1]))
                .flatten()
                .or_else(|| spaced_key(&raw, i));
            if let Some(key) = quoted {
                before.extend(setting_words(key));
                bare = false;
            }
            let named = quoted.is_some() || (i > 0 && flag_named(raw[i - 1]));
            found = Some((amount, written, counted, named));
        } else if let Some(n) = NUMBER_WORDS
            .iter()
            .position(|w| w.eq_ignore_ascii_case(core))
            && !ends_clause
            && let Some((amount, counted)) = next(1).and_then(|w| number_word(n, w))
        {
            found = Some((
                amount,
                format!("{core} {}", next(1).unwrap_or_default()),
                counted,
                false,
            ));
            used = 1;
        } else if let Some(b) = boolean(core)
            && before_is_setting(&raw[..i])
        {
            // "defaults to false": a default, told apart from "=false".
            found = Some((b, core.to_owned(), Some("default".to_owned()), false));
        } else if let Some(b) = boolean(core)
            && i > 0
            && setting_key(raw[i - 1])
        {
            // "`MYSQL_USE_SLAVE_CONNECTION: true`": a setting's value, as
            // "=true" is.
            found = Some((b, core.to_owned(), None, true));
        } else if let Some(flag) = long_flag_before(&raw, i)
            && option_word(core)
            && (core.contains(|c: char| c.is_ascii_uppercase() || c.is_ascii_digit())
                || token.ends_with('`'))
        {
            // `--algorithm MLD`: the word a long flag is given.
            before.extend(setting_words(flag));
            found = Some((
                Amount::Name(core.to_owned()),
                format!("{flag} {core}"),
                None,
                true,
            ));
        } else if let Some(name) = named_value(&raw, i, core) {
            // "compatibility is now BACKWARD_TRANSITIVE".
            found = Some((Amount::Name(name), core.to_owned(), None, false));
        }
        if let Some((amount, written, counted, named)) = found {
            let mut v = value(amount, written, counted, named, &before);
            // "`MySQL` 8", "Node 20": the version of the product named right
            // before it, about that product alone.
            if bare && let Some(name) = product_before(&raw, i) {
                v.key = topic_words(name).into_iter().map(|(r, _)| r).collect();
            }
            v.key.extend(place.iter().cloned());
            v.approximate = estimated(&raw, i);
            v.held = held(&raw, i);
            out.push(v);
        } else if let Some(words) = place_words(&raw, i, core) {
            place.extend(words);
        } else {
            before.extend(topic_words(core));
        }
        i += used;
        if (ends_clause || raw[i].ends_with([',', ';', ':', '.', '!', '?', ')']))
            && !labels_value(&raw[i..])
        {
            before.clear();
            place.clear();
        }
        i += 1;
    }
    out
}

/// The cron schedule of five fields starting at `raw[i]` (`` `30 5 * * *` ``,
/// `*/15 * * * 1-5`), as written without quotes: each field digits, `*`,
/// `/`, `,` and `-`, and at least one `*` among them.
fn cron_at(raw: &[&str], i: usize) -> Option<String> {
    let fields = raw.get(i..i + 5)?;
    let quotes = ['`', '"', '\''];
    let mut parts: Vec<&str> = fields.to_vec();
    parts[0] = parts[0].trim_start_matches(quotes);
    parts[4] = parts[4].trim_end_matches([',', ';', '.', ')', ':']);
    parts[4] = parts[4].trim_end_matches(quotes);
    let field = |f: &str| {
        !f.is_empty()
            && f.chars()
                .all(|c| c.is_ascii_digit() || matches!(c, '*' | '/' | ',' | '-'))
    };
    (parts.iter().all(|f| field(f)) && parts.iter().any(|f| f.contains('*')))
        .then(|| parts.join(" "))
}

/// The setting a Ruby symbol at `raw[i]` is the value of: the code name
/// right before it (`delivery_method :postmark`), or before an `=` or `=>`
/// (`config.active_job.queue_adapter = :sidekiq`), or a key with its colon
/// (`adapter: :sidekiq`). Only a name of code: with `_` or `.` in it.
fn symbol_key<'t>(raw: &[&'t str], i: usize) -> Option<&'t str> {
    let clean = |t: &'t str| t.trim_matches(['`', '(', '[', '{']);
    let mut at = i.checked_sub(1)?;
    if matches!(clean(raw[at]), "=" | "=>") {
        at = at.checked_sub(1)?;
    }
    let key = clean(raw[at]);
    let key = key.strip_suffix(':').unwrap_or(key);
    (setting_name(key) && key.contains(['_', '.'])).then_some(key)
}

/// The words of a setting's name as topic words, each with the name as
/// written: what a value set by that name is about.
fn setting_words(name: &str) -> impl Iterator<Item = (String, String)> + '_ {
    text::code_words(name)
        .into_iter()
        .filter(|w| !text::is_stopword(w))
        .map(move |w| (text::root(&w), name.to_owned()))
}

/// Whether a word can name a setting: a letter first, then letters,
/// digits, `_`, `.` and `-`, at least three characters.
fn setting_name(key: &str) -> bool {
    key.len() >= 3
        && key.starts_with(|c: char| c.is_ascii_alphabetic())
        && key
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-'))
}

/// The key of a value written `key = value` with spaces around the `=`
/// (`line-length = 120`, `` `max_connections = 200` ``): a name of code with
/// `_`, `-` or `.` in it, at least three characters.
fn spaced_key<'t>(raw: &[&'t str], i: usize) -> Option<&'t str> {
    if i < 2 || raw[i - 1] != "=" {
        return None;
    }
    let key = raw[i - 2].trim_start_matches(['`', '(', '[', '{']);
    (setting_name(key) && key.contains(['_', '-', '.'])).then_some(key)
}

/// Whether a word is a name of code: a letter or `_` first, then letters,
/// digits and `_`, at least two characters.
fn identifier(word: &str) -> bool {
    word.len() >= 2
        && word.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
        && word.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// The key a call's argument list quotes right before a value
/// (`set('keep_releases',` → `keep_releases`): a name of code, at least
/// three characters.
fn quoted_key(token: &str) -> Option<&str> {
    let body = token.strip_suffix(',')?;
    let quote = body.chars().last().filter(|c| matches!(c, '\'' | '"'))?;
    let body = &body[..body.len() - 1];
    let start = body.rfind(quote)?;
    let key = &body[start + 1..];
    (body[..start].ends_with('(') && setting_name(key)).then_some(key)
}

/// The long flag (`--algorithm`) right before the word at `i`, as written
/// without quotes; not one a code span or a clause closes ("`--gencode`
/// strips …").
fn long_flag_before<'t>(raw: &[&'t str], i: usize) -> Option<&'t str> {
    let written = raw.get(i.checked_sub(1)?)?;
    if written.ends_with(['`', '\'', '"', ')', ',', ';', ':', '.']) {
        return None;
    }
    let flag = written.trim_start_matches(['`', '\'', '"', '(']);
    let name = flag.strip_prefix("--")?;
    (name.len() >= 3
        && name.starts_with(|c: char| c.is_ascii_alphabetic())
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_'))
    .then_some(flag)
}

/// Whether a word can be the value a flag is given (`MLD`, `v2`, `json`
/// closing a code span): letters first, then letters, digits, `-` and
/// `_`; not another flag, path or number. The caller asks for a capital or
/// a digit, or the end of a code span: a word of prose may follow a flag
/// that takes none.
fn option_word(core: &str) -> bool {
    core.len() >= 2
        && core.starts_with(|c: char| c.is_ascii_alphabetic())
        && core
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
}

/// Whether a token is a flag that names the number after it (`-d 10000`,
/// `--workers 4`): named as `key=value` is.
fn flag_named(token: &str) -> bool {
    let flag = token.trim_matches(['`', '\'', '"', '(']);
    let name = flag.trim_start_matches('-');
    flag.starts_with('-')
        && !name.is_empty()
        && name.len() <= 30
        && name
            .chars()
            .all(|c| c.is_ascii_alphabetic() || c == '-' || c == '_')
}

/// A container image reference with a version tag, as its image's last
/// name (`python:3.12-slim` is `python` tagged `3.12-slim`;
/// `gcr.io/distroless/static:nonroot` has no version tag). Host and port
/// (`localhost:5432`, `db.internal:5432`, `api:8080`), a file and line
/// (`main.rs:42`) and a time of day are not images.
fn image_reference(core: &str) -> Option<(&str, &str)> {
    if core.contains("://") {
        return None;
    }
    let (path, tag) = core.rsplit_once(':')?;
    let name = path.rsplit('/').next()?;
    let is_name = package_name(name) && name != "localhost";
    // A bare number is a tag only when short (`postgres:16`): a port has
    // four or five digits.
    let is_tag = version_like(tag)
        && (tag.len() <= 3
            || tag
                .chars()
                .any(|c| c == '.' || c == '-' || c.is_ascii_alphabetic()));
    (is_name && is_tag).then_some((name, tag))
}

/// Endings of files named with a line (`main.rs:42`, `app.module.ts:7`).
const FILE_ENDINGS: &[&str] = &[
    "c", "cc", "cpp", "cs", "go", "h", "hpp", "html", "java", "js", "json", "jsx", "kt", "md",
    "php", "py", "rb", "rs", "scala", "sh", "sql", "swift", "toml", "ts", "tsx", "xml", "yaml",
    "yml",
];

/// A host name with a dot and its port (`mirth-adt.ngh.local:6661`,
/// `db.internal:5432`), as the host and the port; not an address with a
/// scheme, a file and line (`main.rs:42`) or a time of day.
fn host_port(core: &str) -> Option<(&str, f64)> {
    if core.contains('/') {
        return None;
    }
    let (host, port) = core.rsplit_once(':')?;
    let labels: Vec<&str> = host.split('.').collect();
    let last = labels.last().copied().unwrap_or_default();
    let is_host = labels.len() >= 2
        && host.starts_with(|c: char| c.is_ascii_alphabetic())
        && labels
            .iter()
            .all(|l| !l.is_empty() && l.chars().all(|c| c.is_ascii_alphanumeric() || c == '-'))
        && last.chars().all(|c| c.is_ascii_lowercase())
        && !FILE_ENDINGS.contains(&last);
    let is_port = (2..=5).contains(&port.len()) && port.chars().all(|c| c.is_ascii_digit());
    (is_host && is_port).then(|| (host, port.parse().unwrap_or_default()))
}

/// Whether a word is written as a package or image name is: lowercase
/// letters, digits, `-` and `_`, opening with a letter.
fn package_name(name: &str) -> bool {
    name.len() >= 2
        && name.starts_with(|c: char| c.is_ascii_lowercase())
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '_')
}

/// Whether a word is written as a version or tag is: opening with a digit,
/// then letters, digits, `.`, `-` and `_`.
fn version_like(tag: &str) -> bool {
    tag.starts_with(|c: char| c.is_ascii_digit())
        && tag
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_'))
}

/// A package or environment module named with its version after `/` or
/// `@` (`xcelium/23.09-s004`, `gcc/13.2.0`, `lodash@4.17.21`; after `@` a
/// major version alone, `actions/checkout@v4`), as the name
/// and the version: the version a tool is pinned to, like an image's tag.
/// A path's last part (`docs/2024.05`) is no version of the directory: the
/// version has a dot and starts with a digit, and the name is one word.
fn versioned_name(core: &str) -> Option<(&str, &str)> {
    let at = core.rsplit_once('@');
    let (path, version) = at.or_else(|| core.rsplit_once('/'))?;
    // The name inside a call or quotes: `@Library('portal-pipeline-lib@v4')`.
    let name = path.rsplit(['/', '\'', '"', '(']).next()?;
    let is_name = package_name(name);
    // After `@`, a major version alone pins too: `actions/checkout@v4`.
    let major = at.is_some()
        && version
            .strip_prefix('v')
            .is_some_and(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()));
    let is_version = major
        || (version_like(version)
            && version.contains('.')
        && !version.ends_with('.')
        // A file: `reports/2024.csv`.
        && version
            .rsplit_once('.')
            .is_none_or(|(_, ext)| ext.starts_with(|c: char| c.is_ascii_digit())));
    (is_name && is_version).then_some((name, version))
}

/// Whether `word` is a date as ISO 8601 writes it (`2024-06-20`).
fn iso_date(word: &str) -> bool {
    let bytes = word.as_bytes();
    bytes.len() == 10
        && bytes.iter().enumerate().all(|(i, b)| {
            if i == 4 || i == 7 {
                *b == b'-'
            } else {
                b.is_ascii_digit()
            }
        })
}

/// Whether a word is a year and a month (`2024-10`): how some dated APIs
/// name their versions.
fn year_month(word: &str) -> bool {
    word.split_once('-').is_some_and(|(year, month)| {
        year.len() == 4
            && (year.starts_with("19") || year.starts_with("20"))
            && year.chars().all(|c| c.is_ascii_digit())
            && month.len() == 2
            && month.parse::<u8>().is_ok_and(|m| (1..=12).contains(&m))
    })
}

/// A date, or a year and month, that names a version: right after
/// "version" (or a setting named so, `api_version`), or after "version at",
/// "is", "to" or an `=` ("API version at 2023-10-16", "upgraded to API
/// version 2024-06-20", `api_version = "2024-10"`), as dated APIs are
/// versioned.
fn dated_version(raw: &[&str], i: usize, core: &str) -> bool {
    let word = |k: usize| {
        i.checked_sub(k).and_then(|j| raw.get(j)).map(|w| {
            w.trim_matches(|c: char| !c.is_alphanumeric())
                .to_lowercase()
        })
    };
    let version = |w: String| w.ends_with("version");
    (iso_date(core) || year_month(core))
        && (word(1).is_some_and(version)
            || (word(1).is_some_and(|w| ["at", "is", "to", "of", ""].contains(&w.as_str()))
                && word(2).is_some_and(version)))
}

/// A name pinned by a date glued to it (`nightly-2024-11-01`,
/// `snapshot-2025-03-10`), as the name and the date: what a toolchain or a
/// snapshot is pinned to, like an image's tag.
fn dated_name(core: &str) -> Option<(&str, &str)> {
    let cut = core.len().checked_sub(10)?;
    let (name, date) = core.split_at_checked(cut)?;
    let name = name.strip_suffix('-')?;
    let is_date = iso_date(date);
    let is_name = name.len() >= 2
        && name.starts_with(|c: char| c.is_ascii_alphabetic())
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    (is_date && is_name).then_some((name, date))
}

/// Whether the clause that `before` ends gives something a name ("binds
/// the KV namespace as …", "is exported as …"): a constant after its "as"
/// is the name given, a value like one after "is".
fn names_in_clause(before: &[&str]) -> bool {
    // The verbs as written: their roots are nouns too ("the weekly export
    // is sent as JSON").
    const NAMING: &[&str] = &[
        "bind",
        "binds",
        "bound",
        "named",
        "aliased",
        "called",
        "registered",
        "exported",
        "mounted",
        "exposed",
    ];
    before
        .iter()
        .rev()
        .take_while(|w| !w.ends_with([',', ';', ':', '.', '!', '?', ')']))
        .any(|w| {
            let w = w
                .trim_matches(|c: char| !c.is_alphanumeric())
                .to_lowercase();
            NAMING.contains(&w.as_str())
        })
}

/// Whether the number at `raw[i]` is given as an estimate: "~2 s", "about
/// 400".
fn estimated(raw: &[&str], i: usize) -> bool {
    raw[i].starts_with('~')
        || i.checked_sub(1).is_some_and(|b| {
            APPROXIMATELY.contains(&raw[b].trim_end_matches('.').to_lowercase().as_str())
        })
}

/// Words that name the value after them (or after one more word, its
/// product: "Drop iOS 15") as one given up.
const DROPPING: &[&str] = &[
    "drop",
    "dropping",
    "dropped",
    "remove",
    "removing",
    "removed",
    "retire",
    "retiring",
    "retired",
    "deprecate",
    "deprecating",
    "deprecated",
];

/// Whether the value at `i` is named as given up: "Drop iOS 15", "removed
/// 3.9 from the matrix".
fn dropped(raw: &[&str], i: usize) -> bool {
    (1..=2).any(|back| {
        i.checked_sub(back).is_some_and(|b| {
            let w = raw[b]
                .trim_matches(|c: char| !c.is_alphanumeric())
                .to_lowercase();
            DROPPING.contains(&w.as_str())
        })
    })
}

/// A name the word at `i` (as `core`) states as a value: a constant or a
/// resource after "is", "to", "now" or "=" ("compatibility is now
/// `BACKWARD_TRANSITIVE`"), or bound "as" one in a clause that names; or a
/// quoted word assigned with a spaced "=" (`LAYERSERIES_COMPAT_acme =
/// "scarthgap"`, `` `session.save` = `redis` ``).
fn named_value(raw: &[&str], i: usize, core: &str) -> Option<String> {
    let previous = raw.get(i.checked_sub(1)?)?.to_lowercase();
    if previous == "="
        && raw[i].starts_with(['"', '\'', '`'])
        && core.len() >= 2
        && core
            .chars()
            .all(|c| c.is_alphanumeric() || matches!(c, '_' | '-' | '.'))
    {
        return Some(core.to_owned());
    }
    let name = constant(core)?;
    (["is", "to", "now", "="].contains(&previous.as_str())
        || previous == "as" && names_in_clause(&raw[..i - 1])
        || resource_name(core) && kind_named(&raw[..i]))
    .then_some(name)
}

/// The topic words of a token that may say what a later value is about,
/// as (root, token as written).
fn topic_words(core: &str) -> Vec<(String, String)> {
    text::code_words(core)
        .into_iter()
        .filter_map(|w| {
            let r = text::root(&w);
            (!text::is_stopword(&w)
                && w.chars().next().is_some_and(char::is_alphabetic)
                && !FILLER.contains(&r.as_str())
                && !CHANGE_WORDS.contains(&r.as_str()))
            .then(|| (r, core.to_owned()))
        })
        .collect()
}

/// How the text holds the value at `i`.
fn held(raw: &[&str], i: usize) -> Held {
    if dropped(raw, i) {
        Held::Dropped
    } else if refused(raw, i) {
        Held::Refused
    } else {
        Held::Stated
    }
}

/// The words of a path said as where something is ("in
/// ingest/src/pipeline.rs"), if `core`, at `i`, is one.
fn place_words(raw: &[&str], i: usize, core: &str) -> Option<Vec<String>> {
    let at = i > 0 && ["in", "under", "at"].contains(&raw[i - 1].to_lowercase().as_str());
    (at && core.contains('/')).then(|| topic_words(core).into_iter().map(|(r, _)| r).collect())
}

/// Whether the value at `i` is one a negated verb would move to: "please
/// don't drop the e2e job's cap to 30" names 30 as turned down.
fn refused(raw: &[&str], i: usize) -> bool {
    let word = |k: usize| {
        raw[k]
            .trim_matches(|c: char| !c.is_alphanumeric() && c != '\'')
            .to_lowercase()
    };
    if i == 0 || word(i - 1) != "to" {
        return false;
    }
    (i.saturating_sub(8)..i - 1)
        .rev()
        .take_while(|&k| !raw[k].ends_with([',', ';', '.', ':', '!', '?']))
        .any(|k| matches!(word(k).as_str(), "don't" | "dont" | "never" | "not"))
}

/// Whether `tokens` open with a label whose value follows in the same clause:
/// "retention: 7 years", "Editor version: 2022.3.20f1" (the words before the
/// colon say what the value is about).
fn labels_value(tokens: &[&str]) -> bool {
    let Some((label, rest)) = tokens.split_first() else {
        return false;
    };
    if !label.ends_with(':') || label.ends_with("::") {
        return false;
    }
    for t in rest.iter().take(3) {
        let core = t.trim_matches(|c: char| !(c.is_alphanumeric() || c == '%' || c == '.'));
        let core = core.trim_end_matches('.');
        if parse(core).is_some() || core.contains('=') {
            return true;
        }
        if t.ends_with([',', ';', ':', '.', '!', '?', ')']) {
            return false;
        }
    }
    false
}

/// A value with what it is about: the three nearest topic words before it
/// and the noun it counts.
fn value(
    amount: Amount,
    written: String,
    counted: Option<String>,
    named: bool,
    before: &[(String, String)],
) -> Value {
    let mut key: BTreeSet<String> = before
        .iter()
        .rev()
        .take(3)
        .map(|(r, _)| r.clone())
        .collect();
    if let Some(c) = &counted {
        key.insert(text::root(c));
    }
    let subject = before
        .last()
        .map(|(_, w)| w.clone())
        .or(counted)
        .unwrap_or_default();
    Value {
        amount,
        text: written,
        key,
        subject,
        named,
        approximate: false,
        held: Held::Stated,
    }
}

/// What a value with no glued unit, `core`, gets from the words after it: a
/// unit ("10 seconds"), a rate ("100 requests per minute", "5 per hour"), a
/// count ("5 times") or the noun it counts ("25 replicas"). Returns the
/// amount, the value as written, the counted noun and how many words were
/// used.
fn with_next_words(
    amount: Amount,
    core: &str,
    next: [Option<&str>; 3],
) -> (Amount, String, Option<String>, usize) {
    let scaled = |amount: &Amount, f: f64, dim: &'static str, per: bool| match amount {
        Amount::Number { value, .. } => Amount::Number {
            value: if per { value / f } else { value * f },
            dim,
        },
        other => other.clone(),
    };
    let time_unit = |w: &str| unit(w).filter(|(_, d)| *d == "s");
    match next {
        [Some(n1), _, _] if unit(n1).is_some() => {
            let (f, dim) = unit(n1).unwrap_or((1.0, ""));
            (
                scaled(&amount, f, dim, false),
                format!("{core} {n1}"),
                None,
                1,
            )
        }
        [Some(n1), Some("per"), Some(n3)] if time_unit(n3).is_some() => {
            let (f, _) = time_unit(n3).unwrap_or((1.0, "s"));
            (
                scaled(&amount, f, "/s", true),
                format!("{core} {n1} per {n3}"),
                Some(n1.to_owned()),
                3,
            )
        }
        [Some("per"), Some(n2), _] if time_unit(n2).is_some() => {
            let (f, _) = time_unit(n2).unwrap_or((1.0, "s"));
            (
                scaled(&amount, f, "/s", true),
                format!("{core} per {n2}"),
                None,
                2,
            )
        }
        [Some(n1), _, _] if COUNTS.contains(&text::root(n1).as_str()) => (
            scaled(&amount, 1.0, "x", false),
            format!("{core} {n1}"),
            None,
            1,
        ),
        [Some(n1), _, _]
            if !n1.is_empty()
                && n1.chars().all(char::is_alphabetic)
                && !text::is_stopword(&text::stem(n1))
                && !FILLER.contains(&n1.to_lowercase().as_str()) =>
        {
            (amount, core.to_owned(), Some(n1.to_owned()), 0)
        }
        _ => (amount, core.to_owned(), None, 0),
    }
}

/// The title's words for aligning two titles: topic [`text::root`]s in
/// order, each value (with its unit) as one token `#` followed by its
/// dimension ("#s", "#B", "#/s", "#" for a plain number), each run of modal
/// and auxiliary verbs as `^`, stopwords and change words left out.
pub(super) fn frame_tokens(title: &str) -> Vec<String> {
    let mut out = Vec::new();
    let raw: Vec<&str> = title.split_whitespace().collect();
    let mut i = 0;
    while i < raw.len() {
        let core = raw[i].trim_matches(|c: char| {
            !(c.is_alphanumeric() || matches!(c, '%' | '-' | '.' | ':' | '/'))
        });
        let core = core.trim_end_matches(['.', ':', '/']);
        let word = |k: usize| {
            raw.get(i + k)
                .map(|n| n.trim_matches(|c: char| !c.is_alphanumeric() && c != '%'))
        };
        if let Some((amount, unitless)) = parse(core).or_else(|| boolean(core).map(|b| (b, false)))
        {
            let mut dim = match amount {
                Amount::Number { dim, .. } => dim,
                Amount::Version(_) => "",
                Amount::Bool(_) => "bool",
                Amount::Name(_) | Amount::Tag(_) => "name",
                Amount::Schedule(_) => "schedule",
            };
            if unitless {
                if let Some((_, d)) = word(1).and_then(unit) {
                    dim = d;
                    i += 1;
                } else if word(1) == Some("per") && word(2).and_then(unit).is_some() {
                    dim = "/s";
                    i += 2;
                } else if word(1).is_some_and(|w| COUNTS.contains(&text::root(w).as_str())) {
                    dim = "x";
                    i += 1;
                }
            }
            out.push(format!("#{dim}"));
        } else {
            for w in text::code_words(core) {
                let r = text::root(&w);
                if MODALS.contains(&w.as_str()) {
                    // What follows a modal is what the rule says, not what
                    // it is about: "must be longer than" / "must exceed".
                    if out.last().is_none_or(|l| l != "^") {
                        out.push("^".to_owned());
                    }
                } else if !text::is_stopword(&w)
                    && w.chars().next().is_some_and(char::is_alphabetic)
                    && !CHANGE_WORDS.contains(&r.as_str())
                {
                    out.push(r);
                }
            }
        }
        i += 1;
    }
    out
}

/// Modal and auxiliary verbs, marked `^` in [`frame_tokens`].
const MODALS: &[&str] = &[
    "must", "mustn", "should", "shouldn", "can", "cannot", "could", "will", "would", "may",
    "might", "need", "needs", "is", "are", "be", "was", "were", "isn", "aren", "never", "always",
    "don", "doesn",
];

/// Whether two value tokens of [`frame_tokens`] can be the same quantity.
pub(super) fn same_dimension(a: &str, b: &str) -> bool {
    let (a, b) = (a.trim_start_matches('#'), b.trim_start_matches('#'));
    a == b
        || ((a.is_empty() || b.is_empty())
            && a != "clock"
            && b != "clock"
            && a != "bool"
            && b != "bool")
}

/// Whether the words before a boolean set or default something: "defaults
/// to false", "is set to true".
fn before_is_setting(before: &[&str]) -> bool {
    let last: Vec<String> = before
        .iter()
        .rev()
        .take(2)
        .map(|w| text::root(w.trim_matches(|c: char| !c.is_alphanumeric())))
        .collect();
    last.first().is_some_and(|w| w == "to" || w == "is")
        && last.get(1).is_some_and(|w| w == "default" || w == "set")
}

/// The product named right before the number at `i` ("`MySQL` 8", "the
/// Node 20 image"): a capitalised word of letters, in mixed case or not
/// the first of its sentence.
fn product_before<'r>(raw: &[&'r str], i: usize) -> Option<&'r str> {
    let name = *raw.get(i.checked_sub(1)?)?;
    if name.ends_with([',', ';', ':', '.', ')']) {
        return None;
    }
    let name = name.trim_start_matches(['(', '`', '"']);
    let mut chars = name.chars();
    let capital = chars.next().is_some_and(char::is_uppercase);
    let letters = name.len() >= 2 && name.chars().all(char::is_alphabetic);
    let mixed = chars.clone().any(char::is_uppercase) && chars.any(char::is_lowercase);
    let opens = i < 2 || raw[i - 2].ends_with(['.', '!', '?', ':', '\n']);
    (capital && letters && (mixed || !opens) && !KINDS_OF_VALUE.contains(&name)).then_some(name)
}

/// Capitalised words before a number that name what is counted or
/// measured, not a product ("Step 3", "Phase 2").
const KINDS_OF_VALUE: &[&str] = &[
    "Step", "Phase", "Stage", "Level", "Tier", "Version", "Chapter",
];

/// Whether a token is a setting's key written before its value, as YAML
/// writes it: a name in code ending in a colon (`` `REDIS_USE_SLAVE:``,
/// `use_replica:`), not a word of prose closing a label ("Note:").
fn setting_key(token: &str) -> bool {
    let Some(key) = token.trim_start_matches('`').strip_suffix(':') else {
        return false;
    };
    key.len() >= 3
        && key
            .chars()
            .all(|c| c.is_alphanumeric() || matches!(c, '_' | '.' | '-'))
        && (key.contains(['_', '.'])
            || (token.starts_with('`') && key.chars().any(char::is_lowercase)))
}

/// A constant's name: upper-case letters, digits and underscores, with at
/// least three letters (`BACKWARD`, `READ_COMMITTED`), not a bare acronym
/// of two.
fn constant(word: &str) -> Option<String> {
    let word = word.trim_matches(['`', '\'', '"']);
    let letters = word.chars().filter(char::is_ascii_uppercase).count();
    let constant = letters >= 3
        && word.starts_with(|c: char| c.is_ascii_uppercase())
        && word
            .chars()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_');
    (constant || resource_name(word)).then(|| word.to_owned())
}

/// Whether `word` is the name of a resource in kebab case: lowercase words
/// joined by two or more hyphens, or by one before a number
/// (`acme-build-artifacts`, `eu-west-1`, `orders-v2`), none of them a
/// function word ("up-to-date" is no name).
fn resource_name(word: &str) -> bool {
    let parts: Vec<&str> = word.split('-').collect();
    let numbered = parts
        .last()
        .is_some_and(|p| p.chars().any(|c| c.is_ascii_digit()));
    word.starts_with(|c: char| c.is_ascii_lowercase())
        && word
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
        && (parts.len() >= 3 || (parts.len() == 2 && numbered))
        && parts.iter().all(|p| !p.is_empty() && !text::is_stopword(p))
}

/// Whether the words before a resource name say what kind of thing it is,
/// after "is" or "to": "the backend is s3 bucket `acme-tfstate-prod`",
/// "migrated to table `orders-v2`".
fn kind_named(before: &[&str]) -> bool {
    (1..=2).any(|n| {
        before.len() > n
            && ["is", "to"].contains(&before[before.len() - n - 1].to_lowercase().as_str())
            && before[before.len() - n..].iter().all(|w| {
                w.chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
                    && !text::is_stopword(w)
            })
    })
}

fn boolean(word: &str) -> Option<Amount> {
    match word.to_lowercase().as_str() {
        "true" => Some(Amount::Bool(true)),
        "false" => Some(Amount::Bool(false)),
        _ => None,
    }
}

/// Parses a number with an optional glued unit ("10s", "5MB", "80%",
/// "2e-5", "02:00", "1.4.2", "8th", "600/min"); the flag says no unit was
/// found, so the next word may be one. HTTP error statuses counted ("fails
/// on 404s", "429s from crates.io") are no amount: no one writes seven
/// minutes as "429s".
fn parse(word: &str) -> Option<(Amount, bool)> {
    let status = word.strip_suffix('s').is_some_and(|d| {
        d.len() == 3 && d.starts_with(['4', '5']) && d.bytes().all(|b| b.is_ascii_digit())
    });
    if status {
        return None;
    }
    // Digits grouped the way code writes them: "10_000", "1_048_576".
    match grouped_digits(word) {
        Some(joined) => parse_amount(&joined),
        None => parse_amount(word),
    }
}

/// A number written with `_` between groups of three digits, as Rust,
/// Python, Java and others allow (`10_000`), without the underscores.
fn grouped_digits(word: &str) -> Option<String> {
    let end = word
        .find(|c: char| !(c.is_ascii_digit() || c == '_'))
        .unwrap_or(word.len());
    let (number, rest) = word.split_at(end);
    let mut groups = number.split('_');
    let first = groups.next()?;
    let rest_groups: Vec<&str> = groups.collect();
    let grouped = !rest_groups.is_empty()
        && (1..=3).contains(&first.len())
        && rest_groups
            .iter()
            .all(|g| g.len() == 3 && g.bytes().all(|b| b.is_ascii_digit()));
    grouped.then(|| format!("{}{rest}", number.replace('_', "")))
}

/// Whether a word is a time of day ("02:00", "9:30").
pub(super) fn time_of_day(word: &str) -> bool {
    matches!(
        parse_amount(word),
        Some((Amount::Number { dim: "clock", .. }, _))
    )
}

fn parse_amount(word: &str) -> Option<(Amount, bool)> {
    let word = word.trim_start_matches(['~', '>', '<', '=', '^', 'v']);
    // A negative number: "-14 LUFS", "-1.5 dB".
    if let Some(magnitude) = word.strip_prefix('-')
        && magnitude.starts_with(|c: char| c.is_ascii_digit())
    {
        return match parse(magnitude)? {
            (Amount::Number { value, dim }, unitless) if dim != "clock" => {
                Some((Amount::Number { value: -value, dim }, unitless))
            }
            _ => None,
        };
    }
    if !word.starts_with(|c: char| c.is_ascii_digit()) {
        return None;
    }
    // A time of day: "02:00", "9:30".
    if let Some((h, m)) = word.split_once(':')
        && let (Ok(h), Ok(m)) = (h.parse::<u32>(), m.parse::<u32>())
        && h < 24
        && m < 60
        && word.len() <= 5
    {
        return Some((
            Amount::Number {
                value: f64::from(h * 60 + m),
                dim: "clock",
            },
            false,
        ));
    }
    let end = word
        .char_indices()
        .find(|&(_, c)| !(c.is_ascii_digit() || c == '.'))
        .map_or(word.len(), |(j, _)| j);
    let digits = word[..end].trim_end_matches('.');
    let rest = &word[digits.len()..];
    if digits.matches('.').count() >= 2 {
        let parts: Option<Vec<u64>> = digits.split('.').map(|p| p.parse().ok()).collect();
        return parts.map(|p| (Amount::Version(p), false));
    }
    let mut value: f64 = digits.parse().ok()?;
    let mut rest = rest.trim_start_matches('.');
    // Scientific notation: "2e-5", "1e6".
    if let Some(exp) = rest.strip_prefix(['e', 'E'])
        && let Some(len) = exp
            .char_indices()
            .find(|&(j, c)| !(c.is_ascii_digit() || (j == 0 && (c == '-' || c == '+'))))
            .map(|(j, _)| j)
            .or(Some(exp.len()))
        && let Ok(e) = exp[..len].parse::<i32>()
    {
        value *= 10f64.powi(e);
        rest = &exp[len..];
    }
    let suffix = rest.trim_start_matches('-');
    if suffix.is_empty() {
        return Some((Amount::Number { value, dim: "" }, true));
    }
    // A configuration's terse size or duration ("10m", "512k"): which one
    // only the setting knows, so it compares with the same suffix only, and
    // "10m" with a duration as minutes ([`Amount::comparable`]).
    if let Some(dim) = ["m", "k"].into_iter().find(|d| *d == suffix) {
        return Some((Amount::Number { value, dim }, false));
    }
    // A size written the way servers and runtimes take it: "10M", "2G",
    // "512Mi", "-Xmx4g" (capitals, Kubernetes' binary suffixes, and a
    // lowercase "g", which no duration uses).
    let size = match suffix {
        "K" | "Ki" => Some(1024.0),
        "M" | "Mi" => Some(1_048_576.0),
        "G" | "Gi" | "g" => Some(1_073_741_824.0),
        _ => None,
    };
    if let Some(f) = size {
        return Some((
            Amount::Number {
                value: value * f,
                dim: "B",
            },
            false,
        ));
    }
    if let Some(per) = suffix.strip_prefix('/')
        && let Some((f, "s")) = unit(per)
    {
        return Some((
            Amount::Number {
                value: value / f,
                dim: "/s",
            },
            false,
        ));
    }
    // "a 200-row page", "a 3-node cluster": the number of what the word
    // after the hyphen names, when that word is no unit.
    if rest.starts_with('-')
        && suffix.chars().all(|c| c.is_ascii_alphabetic())
        && unit(suffix).is_none()
    {
        return Some((Amount::Number { value, dim: "" }, false));
    }
    // "RS256", "v1beta1", "2xx": not a value.
    unit(suffix).map(|(f, dim)| {
        (
            Amount::Number {
                value: value * f,
                dim,
            },
            false,
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn amounts(text: &str) -> Vec<(String, Vec<String>)> {
        values(text)
            .into_iter()
            .map(|v| (v.text, v.key.into_iter().collect()))
            .collect()
    }

    #[test]
    fn values_set_by_name() {
        let named = |text: &str| -> Vec<(String, String, bool)> {
            values(text)
                .into_iter()
                .map(|v| (v.text, v.subject, v.named))
                .collect()
        };
        let one = |t: &str, s: &str| vec![(t.to_owned(), s.to_owned(), true)];
        assert_eq!(
            named("`line-length = 120` in the root pyproject."),
            one("120", "line-length")
        );
        assert_eq!(
            named("ActionMailer `delivery_method :postmark`, with the token."),
            one(":postmark", "delivery_method")
        );
        assert_eq!(
            named("`config.active_job.queue_adapter = :sidekiq` in application.rb."),
            one(":sidekiq", "config.active_job.queue_adapter")
        );
        assert_eq!(
            named("deploy.php: `set('keep_releases', 3)`."),
            one("3", "keep_releases")
        );
        // A query string's parameter is named by itself alone.
        assert_eq!(
            named("DATABASE_URL is `...:6432/app?pgbouncer=true&connection_limit=10` now"),
            one("connection_limit=10", "connection_limit")
        );
        // A symbol after a word of prose, and a number after a plain `=`,
        // name no setting.
        assert!(named("We render with :erb templates.").is_empty());
        assert_eq!(
            named("x = 120 pixels wide"),
            vec![("120".to_owned(), "x".to_owned(), false)]
        );
    }

    #[test]
    fn values_as_configuration_writes_them() {
        let bytes = |w: &str| match parse(w) {
            Some((Amount::Number { value, dim: "B" }, _)) => Some(value),
            _ => None,
        };
        assert_eq!(bytes("10M"), Some(10.0 * 1_048_576.0));
        assert_eq!(bytes("512Mi"), Some(512.0 * 1_048_576.0));
        assert_eq!(bytes("4g"), Some(4.0 * 1_073_741_824.0));
        assert_eq!(bytes("64K"), Some(64.0 * 1024.0));
        // A word of other characters ends in no date, and is read safely.
        assert!(values("self\u{2011}contained changes\u{2014}generates").is_empty());
        assert_eq!(
            dated_name("nightly-2024-11-01"),
            Some(("nightly", "2024-11-01"))
        );
        // HTTP error statuses counted are no durations; durations still are.
        let seconds = |w: &str| match parse(w) {
            Some((Amount::Number { value, dim: "s" }, _)) => Some(value),
            _ => None,
        };
        // Digits grouped as code writes them.
        let plain = |w: &str| match parse(w) {
            Some((Amount::Number { value, dim: "" }, _)) => Some(value),
            _ => None,
        };
        assert_eq!(plain("10_000"), Some(10_000.0));
        assert_eq!(plain("1_048_576"), Some(1_048_576.0));
        assert_eq!(plain("10_00"), None);
        // Where a value is set is part of what it is about, after the words
        // that name it; a value a negated verb would move to is refused.
        let key = |t: &str| values(t).first().map(|v| v.key.clone()).unwrap_or_default();
        let channel = key("CHANNEL_CAP in ingest/src/pipeline.rs is 50_000.");
        assert!(
            channel.contains("channel") && channel.contains("pipelin"),
            "{channel:?}"
        );
        // A quoted word assigned with a spaced "=" is a value of the name.
        let named = |t: &str| match values(t).first() {
            Some(Value {
                amount: Amount::Name(n),
                subject,
                ..
            }) => Some((n.clone(), subject.clone())),
            _ => None,
        };
        assert_eq!(
            named(r#"meta-acme declares LAYERSERIES_COMPAT_acme = "scarthgap" only."#),
            Some(("scarthgap".to_owned(), "LAYERSERIES_COMPAT_acme".to_owned()))
        );
        assert_eq!(named("the release name = kirkstone, an LTS"), None);
        let refused = |t: &str| values(t).first().is_some_and(|v| v.held == Held::Refused);
        assert!(refused("please don't drop the e2e job's cap to 30."));
        assert!(!refused("we dropped the e2e job's cap to 30."));
        assert_eq!(parse("404s"), None);
        assert_eq!(parse("503s"), None);
        assert_eq!(seconds("300s"), Some(300.0));
        assert_eq!(seconds("30s"), Some(30.0));
        // A quoted value before a colon is the value itself.
        let quoted = values("set bundle.macOS.minimumSystemVersion to \"11.0\": the new viewer");
        assert_eq!(
            quoted.iter().map(|v| v.text.as_str()).collect::<Vec<_>>(),
            ["11.0"]
        );
        // A count written as a word, like "2 retries".
        let two = values("Two retries on CI");
        assert_eq!(two.len(), 1);
        assert!(matches!(
            two[0].amount,
            Amount::Number { value, dim: "x" } if (value - 2.0).abs() < 1e-9
        ));
        let old = Values::of(
            "Two retries on CI",
            "Set in playwright.config.ts.",
            BTreeSet::new(),
        );
        let new = Values::of(
            "CI retries cut to 1",
            "retries is 1 in playwright.config.ts now.",
            BTreeSet::new(),
        );
        assert!(change(&new, &old).is_some());
        // Lowercase "m" may be minutes: it compares with itself only.
        assert!(matches!(
            parse("10m"),
            Some((Amount::Number { dim: "m", .. }, _))
        ));
        // A size changed in a setting is found.
        let old = Values::of(
            "Upload endpoint limited to 10M bodies",
            "quarkus.http.limits.max-body-size=10M in documents-service.",
            BTreeSet::new(),
        );
        let new = Values::of(
            "Raise max body size",
            "quarkus.http.limits.max-body-size is now 50M in documents-service.",
            BTreeSet::new(),
        );
        let change = change(&new, &old).expect("a changed size");
        assert_eq!((change.old.as_str(), change.new.as_str()), ("10M", "50M"));
    }

    #[test]
    fn values_with_what_they_are_about() {
        type Case<'a> = (&'a str, &'a [(&'a str, &'a [&'a str])]);
        let s = |v: &[&str]| v.iter().map(|x| (*x).to_owned()).collect::<Vec<_>>();
        let cases: &[Case] = &[
            (
                "Payment gateway HTTP timeout is 10 seconds",
                &[("10 seconds", &["gateway", "http", "timeout"])],
            ),
            // A bare number right after a product is its version, about the
            // product alone ("MySQL 8 and OpenSearch containers" says
            // nothing of the suite that runs them).
            ("We pin Node 22", &[("22", &["nod"])]),
            // A cron schedule is one value, not five numbers.
            (
                "The sweep runs on `*/15 * * * 1-5`, weekdays only.",
                &[("*/15 * * * 1-5", &["run", "sweep"])],
            ),
            // An arrow after a number counts nothing.
            (
                "oru-inbound maxDeliveryCount 5 -> 3",
                &[
                    ("5", &["count", "delivery", "inbound"]),
                    ("3", &["count", "delivery", "inbound"]),
                ],
            ),
            (
                "The suite runs against MySQL 8 and OpenSearch.",
                &[("8", &["my", "sql"])],
            ),
            (
                "The api deployment can now scale to 25 replicas",
                &[("25", &["can", "deployment", "replica", "scal"])],
            ),
            (
                "ingest now runs with -Xmx4g and a 6Gi container limit",
                &[
                    ("-Xmx4g", &["ingest", "run", "xmx"]),
                    ("6Gi", &["ingest", "run", "xmx"]),
                ],
            ),
            (
                "Base model fine-tuning LR lowered to 2e-5",
                &[("2e-5", &["fin", "lr", "tun"])],
            ),
            (
                "--dry-run defaults to true; pass --dry-run=false to apply",
                &[
                    ("true", &["default", "dry", "run"]),
                    ("dry-run=false", &["dry", "pass", "run"]),
                ],
            ),
            (
                "Finance export schedule is 04:30 UTC",
                &[("04:30", &["export", "financ", "schedul"])],
            ),
            (
                "Public API keys get 600 requests per minute",
                &[(
                    "600 requests per minute",
                    &["api", "key", "public", "request"],
                )],
            ),
            (
                "Outbound webhooks retry 5 times",
                &[("5 times", &["outbound", "retry", "webhook"])],
            ),
            (
                "Token verification tolerates one minute of drift",
                &[("one minute", &["token", "tolerat", "verification"])],
            ),
            // Months and years are durations.
            (
                "Backups are kept 18 months, invoices 10 years",
                &[
                    ("18 months", &["backup", "kept"]),
                    ("10 years", &["invoic"]),
                ],
            ),
            // A label before a colon says what its value is about.
            (
                "Session cookie lifetime: 12 hours",
                &[("12 hours", &["cooky", "lifetim", "session"])],
            ),
            (
                "Toolchain version: 1.82.0-beta2",
                &[("1.82.0-beta2", &["toolchain", "version"])],
            ),
            // Names with digits are not values.
            ("Signed with RS256 on the STM32 board, see v1beta1", &[]),
            // A host's port is a setting of that host; a file's line is no
            // value.
            (
                "Epic connects to the VIP mirth-adt.ngh.local:6661.",
                &[("mirth-adt.ngh.local:6661", &["adt", "local", "ngh"])],
            ),
            ("It panics at src/app.module.ts:17 and main.rs:42", &[]),
            // The word a long flag is given is its value; a word of prose
            // after a flag that takes none is not.
            (
                "We run osrm-routed --algorithm CH on the matrix nodes.",
                &[("--algorithm CH", &["algorithm", "rout"])],
            ),
            (
                "`--gencode` strips the headers; pass --fork-block-number (set per endpoint).",
                &[],
            ),
        ];
        for (text, want) in cases {
            let want: Vec<(String, Vec<String>)> = want
                .iter()
                .map(|(t, k)| {
                    let mut k = s(k);
                    k.sort();
                    ((*t).to_owned(), k)
                })
                .collect();
            assert_eq!(amounts(text), want, "{text}");
        }
    }

    #[test]
    fn changes_table() {
        let v = |title: &str, body: &str| {
            Values::of(title, body, text::roots(&format!("{title}\n{body}")))
        };
        let cases = [
            // A year and a month after "version", or a setting named so, is
            // a dated API's version.
            (
                v(
                    "Admin API version",
                    "We're on 2025-01: webhooks api_version \"2025-01\" in shopify.app.toml.",
                ),
                v(
                    "Admin API version is 2024-10",
                    "`[webhooks] api_version = \"2024-10\"` in shopify.app.toml has to match.",
                ),
                Some("2024-10 → 2025-01"),
            ),
            // A measure in one title against the one measure of its kind in
            // the other memory's text, under titles of one frame.
            (
                v(
                    "Attachment upload limit is 25 MB per file",
                    "Phone videos kept bouncing at the old limit.",
                ),
                v(
                    "Attachment upload limits",
                    "The API takes PDF, JPG and PNG up to 10 MB per file, and 25 files at most.",
                ),
                Some("10 MB → 25 MB"),
            ),
            // A major version after `@` pins a library or an action.
            (
                v(
                    "Pin the shared pipeline library at v5",
                    "Jenkinsfiles load `@Library('portal-pipeline-lib@v5') _`; v4 is frozen.",
                ),
                v(
                    "Jenkinsfiles use the shared pipeline library",
                    "Every Jenkinsfile is `@Library('portal-pipeline-lib@v4') _` plus one call.",
                ),
                Some("portal-pipeline-lib@v4 → portal-pipeline-lib@v5"),
            ),
            // The word a long flag is given, changed.
            (
                v(
                    "OSRM on MLD",
                    "osrm-routed runs with --algorithm MLD so traffic updates only need a re-customize.",
                ),
                v(
                    "OSRM runs Contraction Hierarchies",
                    "We build with osrm-contract and run osrm-routed --algorithm CH for fast tables.",
                ),
                Some("--algorithm CH → --algorithm MLD"),
            ),
            // The port a host is reached on, changed.
            (
                v(
                    "Epic ADT listener",
                    "After the network segmentation Epic connects to the VIP mirth-adt.ngh.local:6671.",
                ),
                v(
                    "Epic ADT listener",
                    "Epic's outbound ADT interface connects to the VIP mirth-adt.ngh.local:6661.",
                ),
                Some("mirth-adt.ngh.local:6661 → mirth-adt.ngh.local:6671"),
            ),
            // A cron schedule is one value, compared like a time of day
            // under titles about the same job.
            (
                v(
                    "nightly-resync schedule",
                    "moved the nightly-resync scheduler to `30 5 * * *` UTC; at 03:00 it overlapped the rollup.",
                ),
                v(
                    "Nightly full resync at 03:00 UTC",
                    "Job scheduler `nightly-resync`, pattern `0 3 * * *` (UTC), fans out one job per shop.",
                ),
                Some("0 3 * * * → 30 5 * * *"),
            ),
            // Another setting's equal value is no statement of this one's:
            // `minReplicas 6` is new against `maxReplicas 6`.
            (
                v(
                    "ledger-api HPA: min 6, max 12",
                    "After the payday load tests we raised the HPA to minReplicas 6 / maxReplicas 12.",
                ),
                v(
                    "ledger-api HPA 3-6 pods",
                    "hpa.yaml: minReplicas 3 (one per zone), maxReplicas 6, target CPU 70%.",
                ),
                Some("3 → 6"),
            ),
            // A value the title names as dropped is not kept beside the new.
            (
                v(
                    "Drop iOS 15 - deployment target is iOS 16",
                    "Deployment target is now 16.0 for the app and every package.",
                ),
                v(
                    "Minimum deployment target is iOS 15",
                    "IPHONEOS_DEPLOYMENT_TARGET is 15.0 for the app and all packages.",
                ),
                Some("15 → 16"),
            ),
            // A resource named after its kind ("is s3 bucket …").
            (
                v(
                    "Staging state migrated to acme-tfstate-staging-v2",
                    "The staging backend is bucket acme-tfstate-staging-v2 with lock table tf-locks-staging-v2.",
                ),
                v(
                    "Staging state lives in acme-tfstate-staging",
                    "The staging backend is s3 bucket acme-tfstate-staging with lock table tf-locks-staging.",
                ),
                Some("acme-tfstate-staging → acme-tfstate-staging-v2"),
            ),
            // An image's tag is what its reference pins.
            (
                v(
                    "Docker: Node base image",
                    "`services/node-*` runtime stages use `node:22-bookworm-slim`.",
                ),
                v(
                    "Node services build FROM node:20-alpine",
                    "services/node-* use node:20-alpine for the runtime stage.",
                ),
                Some("node:20-alpine → node:22-bookworm-slim"),
            ),
            // A number right after a product is its version, about it alone.
            (
                v(
                    "Integration suite runs in 4 shards",
                    "The integration suite is split into 4 shards, each with its own database.",
                ),
                v(
                    "Integration tests gate every PR",
                    "The integration suite (MySQL 8 and OpenSearch containers) must pass.",
                ),
                None,
            ),
            (
                v(
                    "Integration tests gate every PR",
                    "The integration suite (MySQL 9 and OpenSearch containers) must pass.",
                ),
                v(
                    "Integration tests gate every PR",
                    "The integration suite (MySQL 8 and OpenSearch containers) must pass.",
                ),
                Some("8 → 9"),
            ),
            // A YAML key before its value names the setting.
            (
                v(
                    "Database reads stay on the primary",
                    "`MYSQL_USE_SLAVE_CONNECTION: false` in .magento.env.yaml.",
                ),
                v(
                    "Storefront reads go to the replica",
                    "`MYSQL_USE_SLAVE_CONNECTION: true` in the deploy stage of .magento.env.yaml.",
                ),
                Some("true → false"),
            ),
            // A label closing on a colon is no key.
            (
                v(
                    "Replica reads",
                    "Note: true for the storefront only, as of the last deploy.",
                ),
                v("Replica reads", "Note: false everywhere."),
                None,
            ),
            // A name in backticks after a spaced "=" is the setting's value.
            (
                v(
                    "Session storage",
                    "env.php sets `session.save` = `redis` on every node.",
                ),
                v(
                    "Session storage",
                    "env.php sets `session.save` = `files` on every node.",
                ),
                Some("files → redis"),
            ),
            // A module or package's version after `/` or `@` pins it too.
            (
                v(
                    "Xcelium release used by sim.sh",
                    "scripts/env/sim.sh loads xcelium/24.09-s002 for every regression.",
                ),
                v(
                    "Simulator version",
                    "scripts/env/sim.sh does `module load xcelium/23.09-s004`.",
                ),
                Some("xcelium/23.09-s004 → xcelium/24.09-s002"),
            ),
            (
                v(
                    "Pin lodash for the SSR bundle",
                    "The SSR bundle needs lodash@4.17.21; older ones break the template helper.",
                ),
                v(
                    "lodash is pinned",
                    "package.json pins lodash@4.17.15 for the SSR bundle.",
                ),
                Some("lodash@4.17.15 → lodash@4.17.21"),
            ),
            // A file under a dated directory is no version.
            (
                v(
                    "Quarterly report inputs",
                    "Inputs are read from reports/2024.csv now.",
                ),
                v(
                    "Quarterly report inputs",
                    "Inputs are read from reports/2023.csv.",
                ),
                None,
            ),
            // A date glued to a name pins it as a tag does.
            (
                v(
                    "The pinned nightly moved",
                    "Bumped ci/nightly-version to nightly-2025-01-20 for the sanitizer fix.",
                ),
                v(
                    "Fuzz jobs use a pinned nightly",
                    "The nightly is pinned in ci/nightly-version (nightly-2024-11-01).",
                ),
                Some("nightly-2024-11-01 → nightly-2025-01-20"),
            ),
            // Two numbered instances of one kind each have their own value.
            (
                v(
                    "I2C2 MUST stay at 100 kHz",
                    "`hi2c2` timing must stay at 100 kHz even though I2C1 is fast-mode.",
                ),
                v(
                    "I2C1 runs at 400 kHz",
                    "hi2c1 Timing is set for 400 kHz in peripherals.c.",
                ),
                None,
            ),
            // Another image, or a host and port, is no pin of the same thing.
            (
                v(
                    "Python workers",
                    "Workers run on python:3.12-slim against localhost:5433.",
                ),
                v(
                    "Node services build FROM node:20-alpine",
                    "Tests reach the database at localhost:5432.",
                ),
                None,
            ),
            // Two settings named apart share a word, not a value.
            (
                v(
                    "Worker pool trimmed",
                    "pool_size is 4 now behind the proxy.",
                ),
                v(
                    "Prepared statements and the proxy",
                    "Connect with statement_cache_size=0 behind the proxy.",
                ),
                None,
            ),
            (
                v(
                    "The payment gateway HTTP timeout is now 30 seconds",
                    "Were cut off at 10 s.",
                ),
                v(
                    "Payment gateway HTTP timeout is 10 seconds",
                    "Calls abort after 10 s.",
                ),
                Some("10 seconds → 30 seconds"),
            ),
            // A name given "as" in a clause that binds or names, and the old
            // name written as what was.
            (
                v(
                    "Rename KV binding to EDGE_CACHE",
                    "CACHE was easily confused with the Cache API. The page-cache namespace is bound as EDGE_CACHE in wrangler.toml.",
                ),
                v(
                    "KV namespace is bound as CACHE",
                    "wrangler.toml binds the page-cache KV namespace as CACHE.",
                ),
                Some("CACHE → EDGE_CACHE"),
            ),
            // "as" elsewhere gives no name.
            (
                v(
                    "Reports go out as JSON",
                    "The weekly export is sent as JSON.",
                ),
                v("Reports go out as CSV", "The weekly export is sent as CSV."),
                None,
            ),
            // Two settings named apart in camelCase are two things.
            (
                v(
                    "Readiness probe drops pods during GC pauses",
                    "The readiness probe (timeoutSeconds 1) fails during full-GC pauses; raise timeoutSeconds to 3.",
                ),
                v(
                    "Liveness probe kills pods during slow JVM startup",
                    "The liveness probe fails while the context loads; use a startupProbe with failureThreshold 30.",
                ),
                None,
            ),
            // A terse "10m" is ten minutes against a duration.
            (
                v(
                    "Lengthen cache resync to 1h",
                    "SyncPeriod in cmd/main.go is now 1h.",
                ),
                v(
                    "Manager SyncPeriod",
                    "cmd/main.go sets the cache SyncPeriod to 10m.",
                ),
                Some("10m → 1h"),
            ),
            (
                v("Resync stays at 10m", "SyncPeriod in cmd/main.go is 10m."),
                v(
                    "Manager SyncPeriod",
                    "cmd/main.go sets SyncPeriod to 600 seconds.",
                ),
                None,
            ),
            (
                v("Access token TTL is 5 minutes", "Shorter window."),
                v("Access tokens live 15 minutes", "Clients refresh silently."),
                Some("15 minutes → 5 minutes"),
            ),
            // A word set as a value is one; a name the candidate still
            // writes is kept beside the new one.
            (
                v(
                    "Cookie flags: Secure, SameSite=Strict",
                    "Set by the cookie helper.",
                ),
                v(
                    "Cookie flags: Secure, SameSite=Lax",
                    "Set by the cookie helper.",
                ),
                Some("SameSite=Lax → SameSite=Strict"),
            ),
            // A number right after a flag is that flag's value; another
            // flag's number is not.
            (
                v(
                    "mpileup depth cap for panel v2",
                    "BCFTOOLS_MPILEUP ext.args are `-d 100000 -Q 20`; the default cap drops low-VAF calls.",
                ),
                v(
                    "mpileup max depth for the amplicon panel",
                    "ext.args for BCFTOOLS_MPILEUP: `-d 10000 -Q 20`. The default silently caps depth.",
                ),
                Some("10000 → 100000"),
            ),
            (
                v(
                    "mpileup threads for panel v2",
                    "BCFTOOLS_MPILEUP runs with `--threads 8`.",
                ),
                v(
                    "mpileup max depth for the amplicon panel",
                    "ext.args for BCFTOOLS_MPILEUP: `-d 10000`. The default silently caps depth.",
                ),
                None,
            ),
            // A dated API version is a version; a date in a diary is not.
            (
                v(
                    "Stripe API version is 2024-06-20",
                    "Both accounts upgraded to API version 2024-06-20; setApiVersion() matches.",
                ),
                v(
                    "Stripe API version pinned",
                    "Both accounts have their default API version at 2023-10-16.",
                ),
                Some("2023-10-16 → 2024-06-20"),
            ),
            (
                v(
                    "Duplicate invoice emails",
                    "Noticed on 2025-08-20 that the summary went out twice.",
                ),
                v(
                    "Invoice summary runs nightly",
                    "First sent on 2025-03-01; one email per account.",
                ),
                None,
            ),
            // Words joined by hyphens are one name set as a value.
            (
                v(
                    "Slurm account",
                    "conf/slurm.config has `clusterOptions = '--account=gen-core-2025'`.",
                ),
                v(
                    "Slurm jobs need the project account",
                    "conf/slurm.config sets `clusterOptions = '--account=bioinf-genomics'`.",
                ),
                Some("account=bioinf-genomics → account=gen-core-2025"),
            ),
            (
                v(
                    "Warning alerts go to Slack; critical still pages",
                    "Alertmanager routes severity=warning to Slack.",
                ),
                v(
                    "Critical alerts page through PagerDuty",
                    "Alertmanager routes severity=critical to PagerDuty.",
                ),
                None,
            ),
            (
                v(
                    "deploy applies by default now",
                    "--dry-run defaults to false.",
                ),
                v(
                    "deploy runs in dry-run mode by default",
                    "--dry-run defaults to true; pass --dry-run=false.",
                ),
                Some("true → false"),
            ),
            (
                v("Output gain is -3 dB", "Mastering headroom."),
                v("Output gain set to -6 dB", "Leaves room for peaks."),
                Some("-6 → -3"),
            ),
            (
                v(
                    "Backups only on weekdays",
                    "The database backup now runs at 04:30 UTC, weekdays only.",
                ),
                v(
                    "Database backups run at 01:00 UTC",
                    "Nightly dump to the archive bucket.",
                ),
                Some("01:00 → 04:30"),
            ),
            (
                v(
                    "proxy_read_timeout raised",
                    "proxy_read_timeout is now 120m for the report export.",
                ),
                v("proxy_read_timeout is 30m", "Long exports time out."),
                Some("30m → 120m"),
            ),
            (
                v(
                    "Search SLO tightened",
                    "p99 for GET /search must stay under 400 ms (was 600 ms).",
                ),
                v(
                    "Search p99 SLO",
                    "GET /search p99 under 600 ms, measured at the gateway.",
                ),
                Some("600 ms → 400 ms"),
            ),
            // The same value about another thing, or the same amount.
            (
                v(
                    "inventory-service sets statement_timeout to 5s",
                    "On the inventory role.",
                ),
                v(
                    "orders-service sets statement_timeout to 5s",
                    "On the orders role.",
                ),
                None,
            ),
            (
                v(
                    "Avatar uploads are capped at 5 per hour",
                    "Per-user rate limit.",
                ),
                v(
                    "Avatar uploads are capped at 5 MB",
                    "Larger files get a 413.",
                ),
                None,
            ),
            // The same explicit name, changed: `-Xmx2g` to `-Xmx4g`.
            (
                v("Ingest heap is 4g", "Ingest now runs with -Xmx4g."),
                v("Ingest service runs with -Xmx2g", "Set in the Dockerfile."),
                Some("-Xmx2g → -Xmx4g"),
            ),
            (
                v(
                    "Product details are cached for 60 seconds",
                    "Entries expire after one minute.",
                ),
                v("Product cache TTL is 5 minutes", "Set as PRODUCT_TTL_MS."),
                Some("5 minutes → 60 seconds"),
            ),
            // A version in both titles, each about what the other names.
            (
                v(
                    "Toolchain: 1.82.0",
                    "rust-toolchain.toml pins the Rust compiler to 1.82.0.",
                ),
                v(
                    "Rust is pinned to 1.79",
                    "CI and local builds use the same toolchain file.",
                ),
                Some("1.79 → 1.82.0"),
            ),
            // ... but not versions of things the other does not name.
            (
                v(
                    "Node 22.11.0 on the build agents",
                    "Set by the agent image.",
                ),
                v(
                    "Postgres 16.4 in production",
                    "Managed by the cloud provider.",
                ),
                None,
            ),
            // The new value in the title words the change, with its label.
            (
                v(
                    "Invoice PDF retention: 10 years",
                    "Since the audit, PDFs are kept for 120 months.",
                ),
                v(
                    "Invoice PDFs are kept for 7 years",
                    "Older PDFs are removed after 84 months by the pruning job.",
                ),
                Some("7 years → 10 years"),
            ),
            // A constant set after "is" or "to" is a value too.
            (
                v(
                    "Isolation level switched to SERIALIZABLE",
                    "The ledger database's isolation level is now SERIALIZABLE: two READ \
                     COMMITTED transfers double-spent a balance.",
                ),
                v(
                    "Ledger database isolation level is READ_COMMITTED",
                    "The default isolation level; transfers lock the account row.",
                ),
                Some("READ_COMMITTED → SERIALIZABLE"),
            ),
            // So is the name of a resource in kebab case; "up-to-date" is
            // none.
            (
                v(
                    "Artifacts bucket is acme-ci-artifacts-euw1",
                    "ARTIFACT_BUCKET is acme-ci-artifacts-euw1 in release.yml now.",
                ),
                v(
                    "CI artifacts go to acme-build-artifacts",
                    "Release binaries are uploaded to the bucket acme-build-artifacts.",
                ),
                Some("acme-build-artifacts → acme-ci-artifacts-euw1"),
            ),
            (
                v(
                    "Lockfile is up-to-date",
                    "CI checks that the lockfile is up-to-date.",
                ),
                v("Lockfile is committed", "The lockfile is checked in."),
                None,
            ),
            // An acronym of two letters, or a constant named in passing, is
            // no setting.
            (
                v(
                    "Isolation level is now strict",
                    "Transfers run under SERIALIZABLE isolation.",
                ),
                v(
                    "Ledger database isolation level is READ_COMMITTED",
                    "The default isolation level.",
                ),
                None,
            ),
            // An estimate retells the number; "200-row" states 200.
            (
                v(
                    "N+1 on the order list",
                    "The list was issuing about 400 queries for a page of 200 rows.",
                ),
                v(
                    "Order list needs prefetching",
                    "A 200-row page was running 401 queries.",
                ),
                None,
            ),
            // Stated exactly, a number a little off is a change.
            (
                v(
                    "Order list page size",
                    "The order list now shows 220 rows per page.",
                ),
                v(
                    "Order list page size",
                    "The order list shows 200 rows per page.",
                ),
                Some("200 → 220"),
            ),
            // A value set by its name is compared with the target's value of
            // that name, though the target states the new amount of
            // something else ("4 replicas").
            (
                v(
                    "Gunicorn workers",
                    "The api runs 2 pods now (GUNICORN_WORKERS=4) instead of 4 smaller ones.",
                ),
                v(
                    "API pod sizing",
                    "gunicorn: 3 replicas, GUNICORN_WORKERS=2; the consumer runs 4 replicas.",
                ),
                Some("GUNICORN_WORKERS=2 → GUNICORN_WORKERS=4"),
            ),
            // A symbol set as a setting's value, and a value after the key a
            // call quotes.
            (
                v(
                    "Cache store",
                    "Production sets `config.cache_store = :redis_cache_store` now.",
                ),
                v(
                    "Cache store in production",
                    "`config.cache_store = :mem_cache_store` with the Memcachier add-on.",
                ),
                Some(":mem_cache_store → :redis_cache_store"),
            ),
            (
                v(
                    "Deploys keep fewer releases",
                    "deploy.php: `set('keep_releases', 3)` since the disk filled up.",
                ),
                v(
                    "Releases and rollback",
                    "deploy.php keeps 5 releases (`set('keep_releases', 5)`); `dep rollback` \
                     goes back one.",
                ),
                Some("5 → 3"),
            ),
        ];
        for (c, t, want) in cases {
            let got = change(&c, &t).map(|ch| format!("{} → {}", ch.old, ch.new));
            assert_eq!(got.as_deref(), want, "{c:?}");
        }
        // The amount of a value set by its name, named as past, words the
        // change; a longer number that starts like it does not.
        let worded = |body: &str| {
            change(
                &v("Upload size limit", body),
                &v(
                    "Uploads are capped",
                    "nginx rejects bodies above the cap: `MAX_UPLOAD_MB=20` in the env file.",
                ),
            )
            .map(|ch| ch.worded)
        };
        assert_eq!(
            worded("MAX_UPLOAD_MB=50 for every site (was 20)."),
            Some(true)
        );
        assert_eq!(
            worded("MAX_UPLOAD_MB=50 for every site (was 200 once)."),
            Some(false)
        );
    }
}
