//! Natural-language preference capture: a sentence in, a preference out.
//!
//! [`parse`] reads one sentence and returns the policy it states
//! ([`PreferenceKind`]), the target it names, the target type when a noun
//! says it ("the `lint-fix` skill", "the schema-migration workflow", "the
//! auth-change task class") and the task and path hints of its `for …`,
//! `when touching …`, `in …`, `on …` phrases. It works for any target name:
//! nothing is looked up in a list of known tools. Names in backticks or
//! quotes may contain spaces; bare names are one to four words
//! (kebab-case, `snake_case` and namespaced `plugin:skill` names are one word).
//!
//! The grammar, in order of precedence:
//!
//! * **require review**: "require (human) review / approval for X", "ask a
//!   human before running X", "X needs human approval", and any avoid
//!   wording with "without asking / review / approval" or "unless a human
//!   approves" ("never run X without asking");
//! * **avoid**: "avoid (using) X", "never / don't / do not / stop using / no
//!   longer use X", "prefer not to use X", "X is deprecated", "X should not
//!   be used";
//! * **prefer**: "prefer (using) X", imperative "use / run / go with / default
//!   to / stick with X", "X is preferred", "X should be used".
//!
//! "Prefer A over B" (also "instead of", "rather than", "to") captures a
//! preference for A only: B is returned as [`Phrase::alternative`] and stays
//! in the reason. Preferring A is not a rule against B everywhere, so no
//! avoid preference is invented for it; the user can capture one explicitly.
//!
//! A sentence states no preference ([`NoPreference`]) when it is a question,
//! has no policy wording at the start of a clause ("we use postgres" is a
//! fact, "use postgres" is an instruction), or names no target ("don't use
//! it"). The parser is pure and deterministic.

use std::sync::LazyLock;

use regex::Regex;
use schemars::JsonSchema;
use serde::Serialize;

use crate::model::{PreferenceKind, TargetType};
use crate::route::normalize_skill;

mod words;

use words::{
    AVOID_NEGATED, AVOID_NOT_PREFER, AVOID_VERB, DETERMINERS, EXPLICIT_AFTER_SUBJECT, FILLERS,
    GENERIC_ONLY, GENERIC_TAIL, HINT_GERUNDS, HINT_MARKERS, MODALS, NOT_A_NAME, PREDICATE_AVOID,
    PREDICATE_PREFER, PREDICATE_REVIEW, PREFER_IMPERATIVE, PREFER_VERB, REVIEW_ASK, REVIEW_REQUIRE,
    REVIEW_WORDS, STOP, SUBJECTS,
};

/// A preference read from one sentence.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Phrase {
    /// Prefer, avoid or require review.
    pub kind: PreferenceKind,
    /// The target, normalised as routing compares names.
    pub target: String,
    /// The target type, when a noun in the sentence says it.
    pub target_type: Option<TargetType>,
    /// Task hints, lowercase.
    pub task_hints: Vec<String>,
    /// Path hints, as written.
    pub path_hints: Vec<String>,
    /// The target it is preferred over ("prefer A over B"), normalised.
    pub alternative: Option<String>,
}

/// Why a sentence states no preference.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum NoPreference {
    /// It asks a question.
    Question,
    /// It has no prefer, avoid or require-review wording.
    NoPolicy,
    /// It has policy wording but names no skill, workflow or task class.
    NoTarget,
}

impl NoPreference {
    /// Returns the explanation shown to people.
    pub fn message(self) -> &'static str {
        match self {
            NoPreference::Question => "a question, not a preference",
            NoPreference::NoPolicy => "no prefer, avoid or require-review wording",
            NoPreference::NoTarget => "names no skill, workflow or task class",
        }
    }
}

/// One sentence of a text, with the line it starts on (from 1).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sentence {
    /// Line of the text where the sentence starts.
    pub line: usize,
    /// The sentence, trimmed, with its final punctuation.
    pub text: String,
}

/// Splits text into sentences: at line breaks and after `.`, `!`, `?` or
/// `;` followed by white space, never inside backticks or quotes. List
/// markers (`- `, `* `, `1. `) and a final `;` are dropped.
pub fn sentences(text: &str) -> Vec<Sentence> {
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = strip_list_marker(line.trim());
        let chars: Vec<char> = line.chars().collect();
        let mut start = 0;
        let mut quote: Option<char> = None;
        let mut i = 0;
        while i < chars.len() {
            let c = chars[i];
            if let Some(q) = quote {
                if c == q {
                    quote = None;
                }
            } else if let Some(close) = closing_quote(c)
                && (i == 0 || chars[i - 1].is_whitespace() || chars[i - 1] == '(')
                && chars[i + 1..].contains(&close)
            {
                quote = Some(close);
            } else if matches!(c, '.' | '!' | '?' | ';')
                && chars.get(i + 1).is_none_or(|n| n.is_whitespace())
            {
                push_sentence(&mut out, n + 1, &chars[start..=i]);
                start = i + 1;
            }
            i += 1;
        }
        push_sentence(&mut out, n + 1, &chars[start.min(chars.len())..]);
    }
    out
}

fn push_sentence(out: &mut Vec<Sentence>, line: usize, chars: &[char]) {
    let text: String = chars.iter().collect();
    // A `;` joins clauses; unlike `.`, it reads badly at the end of a reason.
    let text = text.trim().trim_end_matches(';').trim_end();
    if text.chars().any(char::is_alphanumeric) {
        out.push(Sentence {
            line,
            text: text.to_owned(),
        });
    }
}

fn strip_list_marker(line: &str) -> &str {
    for marker in ["- ", "* ", "+ "] {
        if let Some(rest) = line.strip_prefix(marker) {
            return rest.trim_start();
        }
    }
    let digits = line.chars().take_while(char::is_ascii_digit).count();
    if digits > 0
        && let Some(rest) = line[digits..]
            .strip_prefix(". ")
            .or_else(|| line[digits..].strip_prefix(") "))
    {
        return rest.trim_start();
    }
    line
}

fn closing_quote(c: char) -> Option<char> {
    match c {
        '`' => Some('`'),
        '"' => Some('"'),
        '\'' => Some('\''),
        '\u{201c}' => Some('\u{201d}'),
        '\u{2018}' => Some('\u{2019}'),
        _ => None,
    }
}

/// One word, or one quoted name.
#[derive(Clone, Debug)]
struct Tok {
    /// As written, without quotes and surrounding punctuation.
    raw: String,
    /// Lowercase, with typographic apostrophes made plain.
    low: String,
    quoted: bool,
    /// A `,` or `;` follows: the clause ends here.
    boundary: bool,
}

fn tokenize(s: &str) -> Vec<Tok> {
    let chars: Vec<char> = s.chars().collect();
    let mut out: Vec<Tok> = Vec::new();
    let mut i = 0;
    let trailing = |chars: &[char], i: &mut usize| -> bool {
        let mut boundary = false;
        while *i < chars.len() && ",.;:!?)]".contains(chars[*i]) {
            boundary |= matches!(chars[*i], ',' | ';');
            *i += 1;
        }
        boundary
    };
    while i < chars.len() {
        let c = chars[i];
        if c.is_whitespace() {
            i += 1;
            continue;
        }
        if let Some(close) = closing_quote(c)
            && let Some(len) = chars[i + 1..].iter().position(|&x| x == close)
            && len > 0
            && chars
                .get(i + 2 + len)
                .is_none_or(|n| n.is_whitespace() || ",.;:!?)]".contains(*n))
        {
            let content: String = chars[i + 1..=i + len].iter().collect();
            i += len + 2;
            let boundary = trailing(&chars, &mut i);
            let content = content.trim().to_owned();
            if !content.is_empty() {
                out.push(Tok {
                    low: content.to_lowercase(),
                    raw: content,
                    quoted: true,
                    boundary,
                });
            }
            continue;
        }
        let start = i;
        while i < chars.len() && !chars[i].is_whitespace() {
            i += 1;
        }
        let raw: String = chars[start..i].iter().collect();
        let mut word = raw.trim_start_matches(['(', '[']).to_owned();
        let mut boundary = false;
        while let Some(last) = word.chars().last() {
            if ",.;:!?)]".contains(last) {
                boundary |= matches!(last, ',' | ';');
                word.pop();
            } else {
                break;
            }
        }
        if word.is_empty() {
            if boundary && let Some(prev) = out.last_mut() {
                prev.boundary = true;
            }
            continue;
        }
        out.push(Tok {
            low: word.to_lowercase().replace('\u{2019}', "'"),
            raw: word,
            quoted: false,
            boundary,
        });
    }
    out
}

/// Joins the lowercase tokens with single spaces; quoted names become `` ` ``
/// so that a pattern can never match inside one.
fn joined(toks: &[Tok]) -> String {
    let parts: Vec<&str> = toks
        .iter()
        .map(|t| if t.quoted { "`" } else { t.low.as_str() })
        .collect();
    parts.join(" ")
}

/// How many tokens at the start of `toks` the anchored pattern `re` covers.
/// Every pattern ends with `(?: |$)`, so a match always ends on a token
/// boundary.
fn consume(re: &Regex, toks: &[Tok]) -> Option<usize> {
    let s = joined(toks);
    let m = re.find(&s)?;
    if m.end() == s.len() && !m.as_str().ends_with(' ') {
        Some(toks.len())
    } else {
        Some(m.as_str().matches(' ').count())
    }
}

fn re(pattern: &str) -> Regex {
    Regex::new(pattern).expect("the phrase patterns are fixed and valid")
}

fn starts_with(toks: &[Tok], words: &[&str]) -> bool {
    toks.len() >= words.len()
        && toks
            .iter()
            .zip(words)
            .all(|(t, w)| !t.quoted && t.low == *w)
}

/// Drops politeness, discourse markers and a subject with its modal from
/// the start of a clause.
fn strip_prefixes(mut toks: &[Tok]) -> &[Tok] {
    loop {
        let before = toks.len();
        if let Some(f) = FILLERS.iter().find(|f| starts_with(toks, f)) {
            toks = &toks[f.len()..];
        }
        if let Some(s) = SUBJECTS.iter().find(|s| starts_with(toks, s)) {
            let rest = &toks[s.len()..];
            if let Some(m) = MODALS.iter().find(|m| starts_with(rest, m)) {
                toks = &rest[m.len()..];
            } else if rest
                .first()
                .is_some_and(|t| EXPLICIT_AFTER_SUBJECT.contains(&t.low.as_str()))
            {
                toks = rest;
            }
        } else if let Some(m) = MODALS.iter().find(|m| starts_with(toks, m)) {
            toks = &toks[m.len()..];
        }
        if toks.len() == before {
            return toks;
        }
    }
}

fn is_stop(t: &Tok) -> bool {
    !t.quoted && STOP.contains(&t.low.as_str())
}

/// A target-type noun at the start of `toks`: its type (`None` for nouns
/// that say nothing, like "tool") and length.
fn type_noun(toks: &[Tok]) -> Option<(Option<TargetType>, usize)> {
    let first = toks.first().filter(|t| !t.quoted)?;
    let second = toks.get(1).filter(|t| !t.quoted).map(|t| t.low.as_str());
    match (first.low.as_str(), second) {
        ("task", Some("class" | "classes")) | ("class", Some("of")) => {
            let len = if first.low == "class" { 3 } else { 2 };
            Some((Some(TargetType::TaskClass), len.min(toks.len())))
        }
        ("task-class" | "task_class" | "task-classes", _) => Some((Some(TargetType::TaskClass), 1)),
        ("skill" | "skills", _) => Some((Some(TargetType::Skill), 1)),
        ("workflow" | "workflows", _) => Some((Some(TargetType::Workflow), 1)),
        ("tool" | "tools" | "command" | "script" | "plugin", _) => Some((None, 1)),
        _ => None,
    }
}

/// A target name at the start of `toks`: the normalised name, the type a
/// noun gave it, and how many tokens it took.
fn target_at(toks: &[Tok]) -> Option<(String, Option<TargetType>, usize)> {
    let mut i = 0;
    while toks
        .get(i)
        .is_some_and(|t| !t.quoted && DETERMINERS.contains(&t.low.as_str()))
    {
        i += 1;
    }
    let mut target_type = None;
    // "the skill `x`", "the workflow x": the noun before the name.
    if let Some((ty, len)) = type_noun(&toks[i..])
        && toks.get(i + len).is_some_and(|t| t.quoted || !is_stop(t))
    {
        target_type = ty;
        i += len;
    }
    let start = i;
    let name = if toks.get(i).is_some_and(|t| t.quoted) {
        i += 1;
        toks[start].raw.clone()
    } else {
        let mut words = Vec::new();
        while let Some(t) = toks.get(i) {
            if t.quoted || is_stop(t) || type_noun(&toks[i..]).is_some() || words.len() == 4 {
                break;
            }
            words.push(t.raw.as_str());
            i += 1;
            if t.boundary {
                break;
            }
        }
        words.join(" ")
    };
    if i == start {
        return None;
    }
    let boundary_before_noun = toks[i - 1].boundary;
    if !boundary_before_noun && let Some((ty, len)) = type_noun(&toks[i..]) {
        target_type = ty.or(target_type);
        i += len;
    }
    let low = name.to_lowercase();
    if NOT_A_NAME.contains(&low.as_str()) || !name.chars().any(char::is_alphanumeric) {
        return None;
    }
    normalize_skill(&name).map(|n| (n, target_type, i))
}

fn is_path_like(raw: &str) -> bool {
    static FILE: LazyLock<Regex> = LazyLock::new(|| re(r"^[\w.-]+\.[A-Za-z0-9]{1,6}$"));
    !raw.contains(char::is_whitespace)
        && (raw.contains('/') || raw.contains('*') || FILE.is_match(raw))
}

/// Hints and modifiers collected after the target.
#[derive(Default)]
struct Modifiers {
    task_hints: Vec<String>,
    path_hints: Vec<String>,
    alternative: Option<String>,
    review: bool,
}

impl Modifiers {
    /// Turns one hint phrase into task or path hints.
    fn hint(&mut self, phrase: &[Tok]) {
        let paths: Vec<&Tok> = phrase.iter().filter(|t| is_path_like(&t.raw)).collect();
        if !paths.is_empty() {
            self.path_hints.extend(
                paths
                    .iter()
                    .map(|t| t.raw.trim_start_matches("./").to_owned()),
            );
            return;
        }
        // "refunds and invoices", "api, handlers": one hint each.
        for part in phrase.split(|t| !t.quoted && matches!(t.low.as_str(), "and" | "or" | "&")) {
            let mut words: Vec<&str> = part
                .iter()
                .map(|t| t.low.as_str())
                .skip_while(|w| DETERMINERS.contains(w))
                .collect();
            while words.len() > 1 && words.last().is_some_and(|w| GENERIC_TAIL.contains(w)) {
                words.pop();
            }
            if words.is_empty() || words.iter().all(|w| GENERIC_ONLY.contains(w)) {
                continue;
            }
            let hint = words.join(" ");
            if !self.task_hints.contains(&hint) {
                self.task_hints.push(hint);
            }
        }
    }
}

/// The tokens of a phrase starting at `i`: up to the next stop word or
/// clause boundary. Returns the phrase and the index after it.
fn phrase_at(toks: &[Tok], mut i: usize) -> (&[Tok], usize) {
    let start = i;
    while let Some(t) = toks.get(i) {
        if is_stop(t) && !(t.low == "to" && i > start) {
            break;
        }
        i += 1;
        if t.boundary {
            break;
        }
    }
    (&toks[start..i], i)
}

/// Reads hint phrases, "over B", "without asking" and the like from `toks`.
fn modifiers(toks: &[Tok], m: &mut Modifiers) {
    let mut i = 0;
    while let Some(t) = toks.get(i) {
        if t.quoted {
            i += 1;
            continue;
        }
        match t.low.as_str() {
            "over" | "than" | "not" => {
                let (phrase, next) = phrase_at(toks, i + 1);
                if m.alternative.is_none()
                    && let Some((name, _, _)) = target_at(phrase)
                {
                    m.alternative = Some(name);
                }
                i = next.max(i + 1);
            }
            "instead" | "rather" => {
                let skip = usize::from(
                    toks.get(i + 1)
                        .is_some_and(|n| n.low == "of" || n.low == "than"),
                );
                let (phrase, next) = phrase_at(toks, i + 1 + skip);
                if m.alternative.is_none()
                    && let Some((name, _, _)) = target_at(phrase)
                {
                    m.alternative = Some(name);
                }
                i = next.max(i + 1);
            }
            "without" | "unless" => {
                let end = toks[i + 1..]
                    .iter()
                    .position(|t| t.boundary)
                    .map_or(toks.len(), |p| i + 2 + p);
                if toks[i + 1..end]
                    .iter()
                    .any(|t| REVIEW_WORDS.contains(&t.low.as_str()))
                {
                    m.review = true;
                }
                i = end;
            }
            "because" | "since" | "as" | "so" | "but" => return,
            "before" | "after" | "until" => {
                let (_, next) = phrase_at(toks, i + 1);
                i = next.max(i + 1);
            }
            w if HINT_MARKERS.contains(&w) => {
                let mut j = i + 1;
                if matches!(w, "when" | "whenever" | "while" | "if") {
                    while toks.get(j).is_some_and(|t| {
                        matches!(
                            t.low.as_str(),
                            "you"
                                | "we"
                                | "you're"
                                | "we're"
                                | "it"
                                | "are"
                                | "is"
                                | "the"
                                | "task"
                                | "about"
                        )
                    }) {
                        j += 1;
                    }
                    if toks
                        .get(j)
                        .is_some_and(|t| HINT_GERUNDS.contains(&t.low.as_str()))
                    {
                        j += 1;
                    }
                }
                while toks.get(j).is_some_and(|t| {
                    matches!(
                        t.low.as_str(),
                        "on" | "in" | "with" | "under" | "inside" | "to"
                    )
                }) {
                    j += 1;
                }
                let (phrase, next) = phrase_at(toks, j);
                if !phrase.is_empty() {
                    m.hint(phrase);
                }
                i = next.max(j).max(i + 1);
            }
            _ => i += 1,
        }
    }
}

/// Reads the preference one sentence states.
pub fn parse(sentence: &str) -> Result<Phrase, NoPreference> {
    let trimmed = sentence.trim();
    if trimmed.ends_with('?') {
        return Err(NoPreference::Question);
    }
    let toks = tokenize(trimmed);
    let mut mods = Modifiers::default();
    // A leading hint clause: "When editing migrations/*.sql, require review …".
    let mut main: &[Tok] = &toks;
    if toks
        .first()
        .is_some_and(|t| !t.quoted && HINT_MARKERS.contains(&t.low.as_str()))
        && let Some(comma) = toks.iter().position(|t| t.boundary)
        && comma + 1 < toks.len()
    {
        modifiers(&toks[..=comma], &mut mods);
        main = &toks[comma + 1..];
    }
    let main = strip_prefixes(main);
    let (kind, target, target_type, rest) = verb_first(main)
        .or_else(|| subject_first(main))
        .ok_or_else(|| {
            if has_policy_word(main) {
                NoPreference::NoTarget
            } else {
                NoPreference::NoPolicy
            }
        })?;
    modifiers(rest, &mut mods);
    let kind = if mods.review && kind == PreferenceKind::Avoid {
        PreferenceKind::RequireReview
    } else {
        kind
    };
    Ok(Phrase {
        kind,
        target,
        target_type,
        task_hints: mods.task_hints,
        path_hints: mods.path_hints,
        alternative: mods.alternative.filter(|_| kind == PreferenceKind::Prefer),
    })
}

type Found<'t> = (PreferenceKind, String, Option<TargetType>, &'t [Tok]);

/// "avoid X …", "require review for X …", "use X …".
fn verb_first(toks: &[Tok]) -> Option<Found<'_>> {
    let patterns: [(&Regex, PreferenceKind); 7] = [
        (&REVIEW_REQUIRE, PreferenceKind::RequireReview),
        (&REVIEW_ASK, PreferenceKind::RequireReview),
        (&AVOID_NOT_PREFER, PreferenceKind::Avoid),
        (&AVOID_VERB, PreferenceKind::Avoid),
        (&AVOID_NEGATED, PreferenceKind::Avoid),
        (&PREFER_VERB, PreferenceKind::Prefer),
        (&PREFER_IMPERATIVE, PreferenceKind::Prefer),
    ];
    for (pattern, kind) in patterns {
        if let Some(n) = consume(pattern, toks) {
            let (target, ty, len) = target_at(&toks[n..])?;
            return Some((kind, target, ty, &toks[n + len..]));
        }
    }
    None
}

/// "X needs human approval", "X is deprecated", "X should be used".
fn subject_first(toks: &[Tok]) -> Option<Found<'_>> {
    for j in 1..=toks.len().min(7) {
        let rest = &toks[j..];
        let found = [
            (&*PREDICATE_REVIEW, PreferenceKind::RequireReview),
            (&*PREDICATE_AVOID, PreferenceKind::Avoid),
            (&*PREDICATE_PREFER, PreferenceKind::Prefer),
        ]
        .into_iter()
        .find_map(|(p, kind)| consume(p, rest).map(|n| (kind, n)));
        if let Some((kind, n)) = found {
            let (target, ty, len) = target_at(&toks[..j])?;
            return (len == j).then_some((kind, target, ty, &toks[j + n..]));
        }
    }
    None
}

/// Whether the clause has policy wording at all (to tell "names no target"
/// from "states no preference").
fn has_policy_word(toks: &[Tok]) -> bool {
    [
        &*REVIEW_REQUIRE,
        &*REVIEW_ASK,
        &*AVOID_NOT_PREFER,
        &*AVOID_VERB,
        &*AVOID_NEGATED,
        &*PREFER_VERB,
        &*PREFER_IMPERATIVE,
    ]
    .iter()
    .any(|p| consume(p, toks).is_some())
}

#[cfg(test)]
mod tests;
