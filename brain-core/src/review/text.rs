//! Text measures for the reviewer: normalisation, tokens, similarity and
//! word-boundary phrase signals.
//!
//! Matching is on whole words after light normalisation (lowercase, simple
//! plural and suffix stemming), never on raw substrings: "partial writes" does
//! not contain the phrase "partial update", and "refunds" matches "refund".

use std::collections::BTreeSet;

pub use super::replacement::{REPLACEMENT_WORDING, Replaced, replacements};

/// Words too common to say anything about a memory's topic.
pub(super) const STOPWORDS: &[&str] = &[
    "a", "an", "and", "are", "as", "at", "be", "by", "do", "does", "for", "from", "has", "have",
    "in", "into", "is", "it", "its", "of", "on", "or", "our", "so", "that", "the", "their", "then",
    "there", "these", "this", "to", "was", "we", "were", "when", "which", "with", "you", "your",
];

/// Whether a [`stem`]med word is too common to say anything about a topic.
pub fn is_stopword(word: &str) -> bool {
    STOPWORDS.contains(&word)
}

/// Lowercases and stems one word.
pub fn stem(word: &str) -> String {
    let w = word.to_lowercase();
    // Short words ("uses", "is", "api") are left alone.
    if w.chars().count() <= 4 {
        return w;
    }
    for suffix in ["ing", "ed"] {
        if let Some(base) = w.strip_suffix(suffix)
            && base.chars().count() >= 3
        {
            return base.to_owned();
        }
    }
    if let Some(base) = w.strip_suffix("es")
        && ["s", "x", "z", "ch", "sh"]
            .iter()
            .any(|e| base.ends_with(e))
    {
        return base.to_owned();
    }
    // "process", "status", "analysis" keep their final s.
    if let Some(base) = w.strip_suffix('s')
        && !["s", "u", "i"].iter().any(|e| base.ends_with(e))
    {
        return base.to_owned();
    }
    w
}

/// Words of a label that says where a text comes from, not what it is
/// about ("Per ADR-0023: …", "Svelte 5 migration note: …", "Runbook step:
/// …", "Issue #210 decision: …").
const LABEL_WORDS: &[&str] = &[
    "per",
    "from",
    "closing",
    "closed",
    "closes",
    "fixes",
    "re",
    "see",
    "issue",
    "incident",
    "inc",
    "pr",
    "mr",
    "ticket",
    "bug",
    "adr",
    "rfc",
    "audit",
    "finding",
    "note",
    "notes",
    "migration",
    "runbook",
    "step",
    "decision",
    "review",
    "code",
    "postmortem",
    "retro",
    "followup",
    "follow",
    "up",
    "update",
    "comment",
    "thread",
    "tldr",
    "summary",
    "action",
    "item",
    "lesson",
    "learned",
];

/// Words that make a label at all (not "the", "of" or a reference alone).
const FILLER: &[&str] = &[
    "the", "a", "an", "of", "in", "on", "for", "from", "per", "re", "see", "up",
];

/// A reference to a ticket, incident or record: `#301`, `INC-902`,
/// `ADR-0023`, `M-03`.
fn reference(word: &str) -> bool {
    let numbered = |s: &str| !s.is_empty() && s.chars().all(|c| c.is_ascii_digit());
    if let Some(n) = word.strip_prefix('#') {
        return numbered(n);
    }
    word.split_once('-').is_some_and(|(head, n)| {
        !head.is_empty() && head.chars().all(|c| c.is_ascii_uppercase()) && numbered(n)
    })
}

/// The text without a leading label that says where it comes from rather
/// than what it says: "Per ADR-0023: nix fmt must pass in CI", "From
/// INC-902: CI and laptops …", "Closing #301: BUILD files …", "Svelte 5
/// migration note: props via `$props()`". A label ends at the first `:` (or
/// the `,` after "Per ADR-0023"), is made of label words (see
/// [`LABEL_WORDS`]), references (`#301`, `INC-902`) and numbers with at
/// most two other words, and holds a label word other than filler or a
/// `#` reference, or is references alone ("ADR-0004: …"); at least two
/// words must follow it. Other text is
/// returned as it is: "CI: clippy must pass", "SHA-256 checksums: …" and
/// "Extra case for the COMP-3 decoder: …" say what. A commit type of the
/// Conventional Commits form ("perf(manager): …", "fix!: …") is a label.
pub fn without_label(text: &str) -> &str {
    let trimmed = text.trim_start();
    if let Some(rest) = without_commit_type(trimmed) {
        return rest;
    }
    let end = match (trimmed.find(':'), trimmed.find(',')) {
        (Some(colon), Some(comma)) if comma < colon && starts_with_per(trimmed) => comma,
        (Some(colon), _) => colon,
        (None, Some(comma)) if starts_with_per(trimmed) => comma,
        _ => return text,
    };
    let (label, rest) = (&trimmed[..end], trimmed[end + 1..].trim_start());
    if rest.split_whitespace().count() < 2 || label.contains(['`', '(', '"', '.']) {
        return text;
    }
    let (mut other, mut labelled, mut references) = (0, false, 0);
    for word in label.split_whitespace() {
        let lower = word.to_lowercase();
        let lower = lower.trim_matches(|c: char| !c.is_alphanumeric());
        if reference(word) {
            references += 1;
            labelled |= word.starts_with('#');
        } else if LABEL_WORDS.contains(&lower) {
            labelled |= !FILLER.contains(&lower);
        } else if !lower.chars().all(|c| c.is_ascii_digit()) {
            other += 1;
        }
    }
    // A reference with nothing else is a label too ("ADR-0004: …").
    if (labelled && other <= 2) || (references > 0 && other == 0) {
        rest
    } else {
        text
    }
}

/// Types of the Conventional Commits form (`fix(api): …`).
const COMMIT_TYPES: &[&str] = &[
    "feat", "fix", "chore", "docs", "refactor", "perf", "test", "tests", "build", "ci", "style",
    "revert", "deps",
];

/// The text after a commit type of the Conventional Commits form, with
/// its optional scope and `!` ("perf(manager): lengthen the resync",
/// "fix!: …"), when two words or more follow it.
fn without_commit_type(text: &str) -> Option<&str> {
    let (head, rest) = text.split_once(": ")?;
    let head = head.strip_suffix('!').unwrap_or(head);
    let kind = match head.split_once('(') {
        Some((kind, scope)) => {
            let scope = scope.strip_suffix(')')?;
            if scope.is_empty() || scope.contains([' ', '(', ')']) {
                return None;
            }
            kind
        }
        None => head,
    };
    let rest = rest.trim_start();
    (COMMIT_TYPES.contains(&kind) && rest.split_whitespace().count() >= 2).then_some(rest)
}

/// Whether a text opens with "Per " ("Per ADR-0023, …").
fn starts_with_per(text: &str) -> bool {
    text.get(..4)
        .is_some_and(|p| p.eq_ignore_ascii_case("per "))
}

/// Splits text into lowercase, stemmed words (letters and digits), keeping
/// stopwords; phrases are matched on this sequence.
pub fn words(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(stem)
        .collect()
}

/// Calls `f` with each topic token of `text` (stemmed, lowercase, no
/// stopwords), reusing `buf` so that no token allocates.
pub fn for_each_token(text: &str, buf: &mut String, mut f: impl FnMut(&str)) {
    for word in text
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
    {
        buf.clear();
        buf.push_str(&stem(word));
        if !STOPWORDS.contains(&buf.as_str()) {
            f(buf);
        }
    }
}

/// Like [`for_each_token`], and for an identifier also with its words
/// (`CancelFunc` gives `cancelfunc`, `cancel` and `func`): the reviewer's
/// index finds "the cancel func" from `CancelFunc`.
pub fn for_each_index_token(text: &str, buf: &mut String, mut f: impl FnMut(&str)) {
    for word in text
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
    {
        buf.clear();
        buf.push_str(&stem(word));
        if !STOPWORDS.contains(&buf.as_str()) {
            f(buf);
        }
        // Only a word with a capital (or a non-ASCII letter) after its first
        // letter can split.
        if !word
            .bytes()
            .skip(1)
            .any(|b| b.is_ascii_uppercase() || !b.is_ascii())
        {
            continue;
        }
        let mut parts = camel_parts(word);
        if let (Some(first), Some(second)) = (parts.next(), parts.next()) {
            for part in [first, second].into_iter().chain(parts) {
                buf.clear();
                buf.push_str(&stem(part));
                if !STOPWORDS.contains(&buf.as_str()) {
                    f(buf);
                }
            }
        }
    }
}

/// The set of topic tokens of a text: its words without stopwords.
pub fn tokens(text: &str) -> BTreeSet<String> {
    words(text)
        .into_iter()
        .filter(|w| !STOPWORDS.contains(&w.as_str()))
        .collect()
}

/// Jaccard similarity of two token sets (1.0 for two empty sets).
pub fn jaccard(a: &BTreeSet<String>, b: &BTreeSet<String>) -> f64 {
    if a.is_empty() && b.is_empty() {
        return 1.0;
    }
    let shared = a.intersection(b).count();
    let union = a.len() + b.len() - shared;
    ratio(shared, union)
}

fn ratio(num: usize, den: usize) -> f64 {
    if den == 0 {
        0.0
    } else {
        f64::from(u32::try_from(num).unwrap_or(u32::MAX))
            / f64::from(u32::try_from(den).unwrap_or(u32::MAX))
    }
}

/// Sørensen–Dice coefficient over character trigrams of the normalised text
/// (words joined by single spaces): robust to small rewordings and typos.
pub fn trigram_dice(a: &str, b: &str) -> f64 {
    let grams = |s: &str| -> BTreeSet<[char; 3]> {
        let joined: Vec<char> = words(s).join(" ").chars().collect();
        joined.windows(3).map(|w| [w[0], w[1], w[2]]).collect()
    };
    let (ga, gb) = (grams(a), grams(b));
    if ga.is_empty() || gb.is_empty() {
        let (wa, wb) = (words(a), words(b));
        return if wa == wb { 1.0 } else { 0.0 };
    }
    let shared = ga.intersection(&gb).count();
    ratio(2 * shared, ga.len() + gb.len())
}

/// Similarity of two texts in `0..=1`: the larger of token Jaccard and
/// trigram Dice, so both reordered words and reworded phrases score.
pub fn similarity(a: &str, b: &str) -> f64 {
    if a.trim().is_empty() || b.trim().is_empty() {
        return 0.0;
    }
    jaccard(&tokens(a), &tokens(b)).max(trigram_dice(a, b))
}

/// Returns the phrases of `phrases` that occur in `text` as whole-word
/// sequences (after stemming), in the order given.
pub fn find_phrases<'p>(text: &str, phrases: &[&'p str]) -> Vec<&'p str> {
    let w = words(text);
    phrases
        .iter()
        .copied()
        .filter(|p| {
            let needle = words(p);
            !needle.is_empty() && w.windows(needle.len()).any(|win| win == needle.as_slice())
        })
        .collect()
}

/// File extensions and the format or language each stands for: one word
/// when comparing ([`root`]), "the YAML file" and `flags.yml`. Not `js`,
/// which ends library names (Moment.js, Node.js).
const EXTENSIONS: &[(&str, &str)] = &[
    ("yml", "yaml"),
    ("md", "markdown"),
    ("ts", "typescript"),
    ("tsx", "typescript"),
    ("py", "python"),
    ("rs", "rust"),
    ("rb", "ruby"),
    ("kt", "kotlin"),
    ("jpg", "jpeg"),
];

/// The format or language a file extension stands for (`yml`: `yaml`).
pub fn format_of(word: &str) -> Option<&'static str> {
    let lower = word.to_lowercase();
    EXTENSIONS
        .iter()
        .find(|(ext, _)| *ext == lower)
        .map(|(_, name)| *name)
}

/// Normalises a word a step further than [`stem`], for matching words across
/// two texts: `cache` and `cached` (stemmed `cache`, `cach`) both give
/// `cach`, `retries` and `retried` give `retry`, `uses` gives `use`, and a
/// file extension gives its format ([`format_of`]: `yml` gives `yaml`).
///
/// Only for comparing; [`stem`] stays what indexes and phrases use.
pub fn root(word: &str) -> String {
    if let Some(name) = format_of(word) {
        return name.to_owned();
    }
    let mut w = stem(word);
    let n = w.chars().count();
    // Short plurals and verb forms that `stem` leaves alone: "uses", "runs".
    if (4..=5).contains(&n)
        && w.ends_with('s')
        && !w.ends_with("ss")
        && !w.ends_with("us")
        && !w.ends_with("is")
    {
        w.pop();
    }
    if w.chars().count() >= 4 && w.ends_with('e') {
        w.pop();
    }
    if w.chars().count() >= 5 && w.ends_with('i') {
        w.pop();
        w.push('y');
    }
    w
}

/// The [`root`]s of the topic words of `text` (identifiers split into their
/// words, stopwords and numbers left out).
pub fn roots(text: &str) -> BTreeSet<String> {
    code_words(text)
        .iter()
        .filter(|w| !is_stopword(w) && w.chars().next().is_some_and(char::is_alphabetic))
        .map(|w| root(w))
        .collect()
}

/// Whether two [`root`]s name the same word: equal, or one an abbreviation
/// of the other: a prefix of five letters or more, or of three or four
/// letters that the other extends by three or more ("max" and "maximum",
/// "config" and "configuration"; not "use" and "user").
pub fn same_root(a: &str, b: &str) -> bool {
    let (short, long) = if a.len() <= b.len() { (a, b) } else { (b, a) };
    short == long
        || (short.len() >= 3
            && (short.len() >= 5 || long.len() >= short.len() + 3)
            && long.starts_with(short))
}

/// Whether `set` holds a word that is the [`same_root`] as `word`.
pub fn has_root(set: &BTreeSet<String>, word: &str) -> bool {
    set.contains(word) || set.iter().any(|w| same_root(w, word))
}

/// Splits one alphanumeric run at case changes: `RestHighLevelClient` gives
/// Rest, High, Level, Client; `HTTPServer` gives HTTP, Server; `v1beta1`,
/// `gRPC` and `iOS` stay whole.
fn camel_parts(run: &str) -> impl Iterator<Item = &str> {
    let mut chars = run.char_indices();
    let mut prev: Option<char> = None;
    let mut start = 0;
    std::iter::from_fn(move || {
        if start >= run.len() {
            return None;
        }
        for (i, cur) in chars.by_ref() {
            let Some(p) = prev.replace(cur) else {
                continue;
            };
            // Not after a single leading lowercase letter: "gRPC", "iOS".
            let camel = p.is_lowercase() && cur.is_uppercase() && run[..i].chars().nth(1).is_some();
            // The end of an acronym before a word, not a plural: "HTTPServer",
            // but "IDs" and "ULIDs" stay whole.
            let acronym = p.is_uppercase() && cur.is_uppercase() && {
                let mut after = run[i + cur.len_utf8()..].chars();
                after.next().is_some_and(char::is_lowercase)
                    && after.next().is_some_and(char::is_lowercase)
            };
            if camel || acronym {
                let part = &run[start..i];
                start = i;
                return Some(part);
            }
        }
        let part = &run[start..];
        start = run.len();
        Some(part)
    })
}

/// Like [`words`], but identifiers are also split at case changes:
/// `RestHighLevelClient` gives rest, high, level, client. Used to find the
/// words of an identifier in prose ("the high-level REST client") and names
/// in identifiers (`CancelFunc` in "the cancel func").
pub fn code_words(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .flat_map(camel_parts)
        .map(stem)
        .collect()
}

/// Whether `needle` occurs in `hay` as a contiguous sequence.
pub fn contains_sequence(hay: &[String], needle: &[String]) -> bool {
    !needle.is_empty() && hay.windows(needle.len()).any(|w| w == needle)
}

/// A distinctive term of a text: an identifier or a code span.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Term {
    /// As written: `context.WithTimeout`, `defer cancel()`.
    pub text: String,
    /// Its [`code_words`], matched against the other text's.
    pub words: Vec<String>,
}

/// The distinctive terms of a text: code spans in backticks, and
/// identifier-like words, those with an inner `_ . / = : +`
/// (`traces_sample_rate`, `context.WithTimeout`, `services/search`,
/// `U+FEFF`), an inner capital (`RestHighLevelClient`, `LaunchDarkly`),
/// letters with digits (`worker-01`, `policy/v1`) or a capitalised part
/// after a hyphen (`Surrogate-Key`). Plain words, acronyms and numbers are not
/// terms: they say what a text is about, not which thing it names.
pub fn terms(text: &str) -> Vec<Term> {
    let mut out: Vec<Term> = Vec::new();
    let mut push = |text: &str| {
        let words = code_words(text);
        if !words.is_empty() && !out.iter().any(|t| t.words == words) {
            out.push(Term {
                text: text.trim().to_owned(),
                words,
            });
        }
    };
    for (i, span) in text.split('`').enumerate() {
        if i % 2 == 1 {
            push(span);
        }
    }
    for raw in text.split(|c: char| c.is_whitespace() || c == '`') {
        let word = raw.trim_matches(|c: char| !c.is_alphanumeric());
        let letters = word.chars().filter(|c| c.is_alphabetic()).count();
        if letters == 0 || word.chars().filter(|c| c.is_alphanumeric()).count() < 3 {
            continue;
        }
        let inner_mark = word.contains(['_', '.', '/', '=', ':', '+']);
        let inner_capital = word
            .chars()
            .zip(word.chars().skip(1))
            .any(|(a, b)| a.is_lowercase() && b.is_uppercase());
        let digits = word.chars().any(|c| c.is_ascii_digit())
            && word.chars().next().is_some_and(char::is_alphabetic);
        let header = word
            .split('-')
            .skip(1)
            .any(|part| part.chars().next().is_some_and(char::is_uppercase));
        if inner_mark || inner_capital || digits || header {
            push(word);
        }
    }
    out
}

/// A number in a text, normalised: percentages as fractions ("10%" is 0.1),
/// durations in seconds ("2 s", "5 minutes", "7-day"), sizes in bytes.
#[derive(Clone, Debug, PartialEq)]
pub struct Quantity {
    /// The normalised value.
    pub value: f64,
    /// `s` for durations, `B` for sizes, another unit as written ("px",
    /// "rps"), or empty.
    pub unit: String,
    /// The nearest topic word before the number in its clause (an
    /// identifier's words joined by spaces): "sampled at 10%" gives `sampl`.
    pub key: Option<String>,
    /// That word as written: "sampled".
    pub subject: String,
    /// The number as written, with its unit: "10%".
    pub text: String,
    /// Written with a unit or a percent sign: a measure ("2 s", "10%"), not a
    /// count or a version ("3 attempts", "Android 14").
    pub measured: bool,
}

impl Quantity {
    /// Whether two quantities are the same amount (a unitless number matches
    /// any unit: "max-age=60" and "60 seconds").
    pub fn same_amount(&self, other: &Quantity) -> bool {
        (self.value - other.value).abs() <= 1e-9 * self.value.abs().max(1.0)
            && (self.unit == other.unit || self.unit.is_empty() || other.unit.is_empty())
    }
}

/// The factor and canonical unit of a unit word, if it is one.
fn unit(word: &str) -> Option<(f64, &'static str)> {
    Some(match word.to_lowercase().as_str() {
        "%" | "percent" => (0.01, ""),
        "ms" | "millisecond" | "milliseconds" => (0.001, "s"),
        "s" | "sec" | "secs" | "second" | "seconds" => (1.0, "s"),
        "min" | "mins" | "minute" | "minutes" => (60.0, "s"),
        "h" | "hr" | "hrs" | "hour" | "hours" => (3600.0, "s"),
        "d" | "day" | "days" => (86_400.0, "s"),
        "week" | "weeks" => (604_800.0, "s"),
        "month" | "months" => (2_592_000.0, "s"),
        "year" | "years" => (31_536_000.0, "s"),
        "kb" | "kib" => (1024.0, "B"),
        "mb" | "mib" => (1_048_576.0, "B"),
        "gb" | "gib" => (1_073_741_824.0, "B"),
        _ => return None,
    })
}

/// Words that cannot say what a number is about ("after 7 days", "every 30
/// s", "at most 3").
const QUANTITY_FILLER: &[&str] = &[
    "about", "above", "after", "all", "around", "before", "below", "each", "every", "exactly",
    "just", "least", "less", "more", "most", "now", "only", "over", "per", "than", "under", "up",
    "within",
];

/// The numbers of a text with their units and what they are about.
pub fn quantities(text: &str) -> Vec<Quantity> {
    let mut out = Vec::new();
    if !text.bytes().any(|b| b.is_ascii_digit()) {
        return out;
    }
    // The word before a number, normalised when a number needs it.
    let mut subject: Option<&str> = None;
    let raw: Vec<&str> = text.split_whitespace().collect();
    let mut i = 0;
    while i < raw.len() {
        let token = raw[i];
        let ends_clause = token.ends_with([',', ';', ':', '.', '!', '?', ')']);
        let word = token.trim_matches(|c: char| !c.is_alphanumeric() && c != '%');
        // "key=0.01" states the value of `key`.
        let (name, number) = match word.rsplit_once('=') {
            Some((name, value)) => (Some(name), value),
            None => (None, word),
        };
        let digits_end = number
            .char_indices()
            .find(|&(j, c)| !(c.is_ascii_digit() || (c == '.' && j > 0)))
            .map_or(number.len(), |(j, _)| j);
        let digits = number[..digits_end].trim_end_matches('.');
        if let Some(name) = name {
            subject = Some(name).filter(|n| n.chars().any(char::is_alphanumeric));
        }
        if let Ok(value) = digits.parse::<f64>()
            && number.starts_with(|c: char| c.is_ascii_digit())
        {
            let suffix = number[digits.len()..].trim_start_matches('-');
            let (factor, canonical, used_next) = if suffix.is_empty() {
                match raw
                    .get(i + 1)
                    .map(|n| n.trim_matches(|c: char| !c.is_alphanumeric() && c != '%'))
                {
                    Some(next) if !ends_clause => match unit(next) {
                        Some((f, u)) => (f, u.to_owned(), true),
                        None => (1.0, String::new(), false),
                    },
                    _ => (1.0, String::new(), false),
                }
            } else {
                match unit(suffix) {
                    Some((f, u)) => (f, u.to_owned(), false),
                    None => (1.0, suffix.to_lowercase(), false),
                }
            };
            let written = if used_next {
                format!(
                    "{digits} {}",
                    raw[i + 1].trim_matches(|c: char| !c.is_alphanumeric() && c != '%')
                )
            } else {
                word.rsplit('=').next().unwrap_or(word).to_owned()
            };
            out.push(Quantity {
                value: value * factor,
                unit: canonical,
                key: subject.map(|s| code_words(s).join(" ")),
                subject: subject.unwrap_or_default().to_owned(),
                text: written,
                measured: used_next || !suffix.is_empty(),
            });
            if used_next {
                i += 1;
            }
        } else if name.is_none() && is_subject(word) {
            subject = Some(word);
        }
        if ends_clause || raw[i].ends_with([',', ';', ':', '.', '!', '?', ')']) {
            subject = None;
        }
        i += 1;
    }
    out
}

/// Whether a word can say what a number is about: it has letters and is
/// not only stopwords and [`QUANTITY_FILLER`].
fn is_subject(word: &str) -> bool {
    let filler = |w: &str| {
        STOPWORDS
            .iter()
            .chain(QUANTITY_FILLER)
            .any(|f| f.eq_ignore_ascii_case(w))
    };
    if !word.chars().any(char::is_alphabetic) {
        return false;
    }
    if word.chars().all(char::is_alphanumeric) {
        return !filler(word);
    }
    !code_words(word).iter().all(|w| filler(w))
}

/// Splits text into clauses (at `, ; : ! ? ( )`, dashes, a hyphen between
/// spaces, line breaks, and a full stop followed by a space or the end), each
/// as its [`words`]: "Moment.js" stays in one clause.
pub fn clauses(text: &str) -> Vec<Vec<String>> {
    clause_texts(text)
        .into_iter()
        .map(words)
        .filter(|w| !w.is_empty())
        .collect()
}

/// The clauses of [`clauses`] as written.
pub(super) fn clause_texts(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut prev = ' ';
    // Open parentheses of calls: `Depends(get_session)`.
    let mut calls = 0usize;
    let mut chars = text.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        let next = chars.peek().map(|&(_, n)| n);
        // The parentheses of a call (`datetime.utcnow()`,
        // `Depends(get_session)`) are part of its name, not the end of a
        // clause.
        let call = if c == '(' && (prev.is_alphanumeric() || prev == '_' || next == Some(')')) {
            calls += 1;
            true
        } else if c == ')' && calls > 0 {
            calls -= 1;
            true
        } else {
            false
        };
        let boundary = (matches!(
            c,
            ',' | ';' | ':' | '!' | '?' | '(' | ')' | '\n' | '\u{2013}' | '\u{2014}'
        ) && !call)
            || (c == '.' && next.is_none_or(char::is_whitespace))
            || (c == '-' && prev.is_whitespace() && next.is_some_and(char::is_whitespace));
        if boundary {
            out.push(&text[start..i]);
            start = i + c.len_utf8();
        }
        prev = c;
    }
    out.push(&text[start..]);
    out
}

/// Pairs of words that turn a statement into its opposite.
pub const OPPOSITES: &[(&str, &str)] = &[
    ("always", "never"),
    ("before", "after"),
    ("enable", "disable"),
    ("enabled", "disabled"),
    ("allow", "deny"),
    ("allowed", "forbidden"),
    ("inside", "outside"),
    ("sync", "async"),
    ("synchronous", "asynchronous"),
    ("include", "exclude"),
    ("required", "optional"),
    ("ascending", "descending"),
    ("increase", "decrease"),
];

/// Returns a pair of [`OPPOSITES`] where `a` says the first word and `b` the
/// second, about the same thing, and neither says both: "run migrations
/// before deploying" against "run migrations after deploying". The same
/// thing: the opposite words share a neighbour, the nearest topic word before
/// or after them in their clause ("never *retry*" against "always *retry*"),
/// so "always call the cancel func" and "never invoke the returned function"
/// do not contradict each other.
pub fn opposite_words(a: &str, b: &str) -> Option<(&'static str, &'static str)> {
    opposite_in_clauses(&clauses(a), &clauses(b))
}

/// [`opposite_words`] on texts already split into [`clauses`].
pub fn opposite_in_clauses(
    ca: &[Vec<String>],
    cb: &[Vec<String>],
) -> Option<(&'static str, &'static str)> {
    let wa: BTreeSet<&String> = ca.iter().flatten().collect();
    let wb: BTreeSet<&String> = cb.iter().flatten().collect();
    OPPOSITES.iter().copied().find_map(|(x, y)| {
        let (x_stem, y_stem) = (stem(x), stem(y));
        let (ax, ay) = (wa.contains(&x_stem), wa.contains(&y_stem));
        let (bx, by) = (wb.contains(&x_stem), wb.contains(&y_stem));
        let (said, stored) = if ax && !ay && by && !bx {
            (x, y)
        } else if ay && !ax && bx && !by {
            (y, x)
        } else {
            return None;
        };
        let near_a = neighbours(ca, &stem(said));
        let near_b = neighbours(cb, &stem(stored));
        (!near_a.is_disjoint(&near_b)).then_some((said, stored))
    })
}

/// The nearest topic word before and after each occurrence of `word` in its
/// clause.
fn neighbours<'c>(clauses: &'c [Vec<String>], word: &str) -> BTreeSet<&'c str> {
    let topic =
        |w: &&String| !STOPWORDS.contains(&w.as_str()) && !OPPOSITE_WORDS.contains(&w.as_str());
    let mut out = BTreeSet::new();
    for clause in clauses {
        for (i, _) in clause.iter().enumerate().filter(|(_, w)| *w == word) {
            out.extend(clause[..i].iter().rev().find(topic).map(String::as_str));
            out.extend(clause[i + 1..].iter().find(topic).map(String::as_str));
        }
    }
    out
}

/// Words that say when or how often, not what: skipped when looking for what
/// an opposite word is about.
const OPPOSITE_WORDS: &[&str] = &[
    "always", "never", "before", "after", "not", "must", "should",
];

/// Words that negate what follows them ("don't" gives `don` and `t`).
pub const NEGATIONS: &[&str] = &[
    "not", "never", "no", "nor", "cannot", "don", "doesn", "isn", "aren", "won", "shouldn",
];

/// Wording that says a text adds to an earlier rule.
pub const ADDITIVE_WORDING: &[&str] = &[
    "also",
    "additionally",
    "in addition",
    "as well",
    "furthermore",
    "extends",
    "on top of",
    "besides",
];

/// Wording that carves an exception out of a rule ("Exception: the audit
/// consumer keeps auto-commit", "every other consumer must still …").
pub const EXCEPTION_WORDING: &[&str] = &[
    "exception",
    "except",
    "exempt",
    "every other",
    "all other",
    "everywhere else",
];

/// Wording that marks knowledge as temporary.
pub const TEMPORARY_WORDING: &[&str] = &[
    "for now",
    "temporary",
    "temporarily",
    "this sprint",
    "this session",
    "for the moment",
    "wip",
    "todo",
    "until further notice",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stemming_table() {
        let cases = [
            ("refunds", "refund"),
            ("Writes", "write"),
            ("retrying", "retry"),
            ("locked", "lock"),
            ("status", "status"),
            ("process", "process"),
            ("uses", "uses"),
            ("is", "is"),
            ("api", "api"),
            ("matches", "match"),
            ("analysis", "analysis"),
        ];
        for (word, stemmed) in cases {
            assert_eq!(stem(word), stemmed, "{word}");
        }
        // For comparing, an extension is the format it stands for.
        for (word, rooted) in [("yml", "yaml"), ("YAML", "yaml"), ("ts", "typescript")] {
            assert_eq!(root(word), rooted, "{word}");
        }
    }

    #[test]
    fn clauses_end_at_marks_but_not_inside_calls() {
        let cases: &[(&str, &[&str])] = &[
            ("Run it; then stop", &["Run it", " then stop"]),
            (
                "datetime.utcnow() is deprecated",
                &["datetime.utcnow() is deprecated"],
            ),
            (
                "the Depends(get_session) rule has one exception",
                &["the Depends(get_session) rule has one exception"],
            ),
            // A parenthesis after a space opens an aside.
            (
                "use the pool (see below) here",
                &["use the pool ", "see below", " here"],
            ),
        ];
        for (text, want) in cases {
            assert_eq!(clause_texts(text), *want, "{text}");
        }
    }

    #[test]
    fn phrases_match_whole_words_only() {
        let cases: &[(&str, &[&str])] = &[
            ("We use Kysely instead of raw SQL.", &["instead of"]),
            ("Partial writes leave the ledger inconsistent.", &[]),
            ("The cron batch is no longer used.", &["no longer"]),
            ("It no-longer applies", &["no longer"]),
            ("Also applies to refunds", &["also"]),
            ("Supersedes the nightly batch", &["supersedes"]),
            ("rapid api", &[]),
        ];
        for (text, expected) in cases {
            let mut found = find_phrases(text, REPLACEMENT_WORDING);
            found.extend(find_phrases(text, ADDITIVE_WORDING));
            assert_eq!(&found, expected, "{text}");
        }
        assert!(find_phrases("partial writes", &["partial update"]).is_empty());
        assert_eq!(
            find_phrases("Refunds are idempotent", &["refund"]),
            ["refund"]
        );
        assert!(find_phrases("rapid.ts changed", &["api"]).is_empty());
    }

    #[test]
    fn clauses_split_at_punctuation() {
        assert_eq!(
            clauses("Use Moment.js, not the other one; see the docs. Done"),
            [
                vec!["use", "moment", "js"],
                vec!["not", "the", "other", "one"],
                vec!["see", "the", "docs"],
                vec!["done"],
            ]
        );
        // A hyphen between spaces is a dash; inside a word it is not.
        assert_eq!(
            clauses("Run pod install - plus repo-update\nthen build"),
            [
                vec!["run", "pod", "install"],
                vec!["plus", "repo", "update"],
                vec!["then", "build"],
            ]
        );
    }

    #[test]
    fn identifiers_split_into_words() {
        let cases: &[(&str, &[&str])] = &[
            ("RestHighLevelClient", &["rest", "high", "level", "client"]),
            ("the CancelFunc", &["the", "cancel", "func"]),
            ("HTTPServer", &["http", "server"]),
            ("ULIDs and IDs", &["ulid", "and", "ids"]),
            ("gRPC and iOS", &["grpc", "and", "ios"]),
            (
                "v1beta1 traces_sample_rate",
                &["v1beta1", "trace", "sample", "rate"],
            ),
        ];
        for (text, expected) in cases {
            assert_eq!(code_words(text), *expected, "{text}");
        }
        let mut buf = String::new();
        let mut tokens = Vec::new();
        for_each_index_token("Use OkHttpClient", &mut buf, |t| tokens.push(t.to_owned()));
        assert_eq!(tokens, ["use", "okhttpclient", "ok", "http", "client"]);
    }

    #[test]
    fn terms_table() {
        let cases: &[(&str, &[&str])] = &[
            (
                "Put `defer cancel()` after context.WithTimeout.",
                &["defer cancel()", "context.WithTimeout"],
            ),
            (
                "Tag responses with Surrogate-Key; worker-01 reads traces_sample_rate=0.1",
                &["Surrogate-Key", "worker-01", "traces_sample_rate=0.1"],
            ),
            (
                "RestHighLevelClient lives in services/search",
                &["RestHighLevelClient", "services/search"],
            ),
            // Plain words, hyphenated words, acronyms and numbers are not terms.
            (
                "Ledger rows are append-only; the API answers in 300 ms, e.g. CSV",
                &[],
            ),
        ];
        for (text, expected) in cases {
            let got: Vec<String> = terms(text).into_iter().map(|t| t.text).collect();
            assert_eq!(got, *expected, "{text}");
        }
    }

    #[test]
    fn quantities_table() {
        let got = |text: &str| -> Vec<(f64, String, Option<String>, bool)> {
            quantities(text)
                .into_iter()
                .map(|q| (q.value, q.unit, q.key, q.measured))
                .collect()
        };
        let key = |k: &str| Some(k.to_owned());
        assert_eq!(
            got("Sentry traces are sampled at 10%"),
            [(0.1, String::new(), key("sampl"), true)]
        );
        assert_eq!(
            got("we set autovacuum_vacuum_scale_factor=0.01; the default 0.2 is lax"),
            [
                (
                    0.01,
                    String::new(),
                    key("autovacuum vacuum scale factor"),
                    false
                ),
                (0.2, String::new(), key("default"), false),
            ]
        );
        assert_eq!(
            got("Unary calls use a 2 s deadline, pings every 5 minutes; a 7-day TTL"),
            [
                (2.0, "s".to_owned(), key("use"), true),
                (300.0, "s".to_owned(), key("ping"), true),
                (604_800.0, "s".to_owned(), None, true),
            ]
        );
        assert_eq!(
            got("plus or minus 10 % jitter"),
            got("plus or minus 10% jitter")
        );
        let (a, b) = (&quantities("1%")[0], &quantities("0.01")[0]);
        assert!(a.same_amount(b));
        assert!(!a.same_amount(&quantities("10%")[0]));
    }

    #[test]
    fn opposite_words_table() {
        let cases = [
            (
                "Run migrations before deploying",
                "Run migrations after deploying",
                Some(("before", "after")),
            ),
            (
                "Always retry declines",
                "Never retry declines",
                Some(("always", "never")),
            ),
            (
                "Disable keep-alive for the tax client",
                "Enable keep-alive for the tax client",
                Some(("disable", "enable")),
            ),
            (
                "Runs before and after the deploy",
                "Runs after the deploy",
                None,
            ),
            (
                "Env vars without the prefix",
                "Vars prefixed with VITE_",
                None,
            ),
            (
                "Always call the cancel func returned by WithTimeout",
                "If you never invoke the returned function, the timer leaks",
                None,
            ),
        ];
        for (a, b, expected) in cases {
            assert_eq!(opposite_words(a, b), expected, "{a:?} / {b:?}");
        }
    }

    #[test]
    fn labels_that_say_where_a_text_comes_from() {
        let cases: &[(&str, &str)] = &[
            (
                "Per ADR-0023: nix fmt must pass in CI",
                "nix fmt must pass in CI",
            ),
            (
                "Per ADR-0023, flake.nix sets the formatter",
                "flake.nix sets the formatter",
            ),
            (
                "From INC-902: CI and laptops built different paths",
                "CI and laptops built different paths",
            ),
            (
                "Closing #301: BUILD files don't track new imports",
                "BUILD files don't track new imports",
            ),
            (
                "Issue #210 decision: all signal wiring happens in _ready()",
                "all signal wiring happens in _ready()",
            ),
            (
                "Svelte 5 migration note: props via $props()",
                "props via $props()",
            ),
            (
                "Runbook step: drain the node before patching",
                "drain the node before patching",
            ),
            (
                "Audit finding M-03: storage writes after the ETH send",
                "storage writes after the ETH send",
            ),
            (
                "ADR-0004: raise the Julia floor to the LTS",
                "raise the Julia floor to the LTS",
            ),
            (
                "Code review #88: empty lists must not crash the worker",
                "empty lists must not crash the worker",
            ),
            // A commit's type and scope say what kind of change it was.
            (
                "perf(manager): lengthen cache resync to 1h",
                "lengthen cache resync to 1h",
            ),
            (
                "fix!: drop the legacy token format",
                "drop the legacy token format",
            ),
            (
                "ci: cache the Gradle home between jobs",
                "cache the Gradle home between jobs",
            ),
            // Labels that say what the text is about stay.
            ("CI: clippy must pass", "CI: clippy must pass"),
            ("Fix: use the pool", "Fix: use the pool"),
            (
                "SHA-256 checksums: verify every download",
                "SHA-256 checksums: verify every download",
            ),
            (
                "Extra case for the COMP-3 decoder: besides 0xC and 0xD",
                "Extra case for the COMP-3 decoder: besides 0xC and 0xD",
            ),
            ("Note: flaky", "Note: flaky"),
            ("Use `foo:bar` in tests", "Use `foo:bar` in tests"),
            (
                "Payments service uses Postgres",
                "Payments service uses Postgres",
            ),
        ];
        for (text, want) in cases {
            assert_eq!(without_label(text), *want, "{text}");
        }
    }

    #[test]
    fn similarity_table() {
        let cases = [
            (
                "Ledger rows are append-only",
                "Ledger rows are append-only",
                1.0,
                1.0,
            ),
            (
                "Ledger rows are append-only",
                "ledger rows are append only!",
                1.0,
                1.0,
            ),
            (
                "Ledger entries are append-only",
                "Never update ledger entries",
                0.3,
                0.7,
            ),
            (
                "Use integer cents for money",
                "Render invoices as PDF",
                0.0,
                0.25,
            ),
            ("", "anything", 0.0, 0.0),
        ];
        for (a, b, lo, hi) in cases {
            let s = similarity(a, b);
            assert!((lo..=hi).contains(&s), "{a:?} ~ {b:?} = {s}");
        }
    }
}
