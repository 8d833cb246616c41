//! Text measures for the reviewer: normalisation, tokens, similarity and
//! word-boundary phrase signals.
//!
//! Matching is on whole words after light normalisation (lowercase, simple
//! plural and suffix stemming), never on raw substrings: "partial writes" does
//! not contain the phrase "partial update", and "refunds" matches "refund".

use std::collections::BTreeSet;

/// Words too common to say anything about a memory's topic.
const STOPWORDS: &[&str] = &[
    "a", "an", "and", "are", "as", "at", "be", "by", "do", "does", "for", "from", "has", "have",
    "in", "into", "is", "it", "its", "of", "on", "or", "our", "so", "that", "the", "their", "then",
    "there", "these", "this", "to", "was", "we", "were", "when", "which", "with", "you", "your",
];

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
    "migrate from",
    "migrated from",
    "moved away from",
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
];

/// Which side of a replacement phrase names the replaced thing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Side {
    /// "use X instead of **Y**", "we no longer **Y**", "X replaces **Y**".
    After,
    /// "**Y** is replaced by X".
    Before,
    /// "**Y** is deprecated", "the deprecated **Y**", "we switched off **Y**".
    Both,
}

fn object_side(phrase: &str) -> Side {
    match phrase {
        "not anymore" | "replaced by" | "in favor of" | "in favour of" => Side::Before,
        "deprecated" | "switched off" | "turned off" | "shut down" | "phased out"
        | "decommissioned" | "retired" => Side::Both,
        _ => Side::After,
    }
}

/// How many topic words next to a replacement phrase can name the replaced thing.
const OBJECT_WORDS: usize = 6;

/// Words that say nothing about *what* is replaced: "we no longer do it this
/// way", "this is no longer needed".
const GENERIC_OBJECT: &[&str] = &[
    "anymore",
    "anything",
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

/// Splits text into clauses (at `, ; : ! ? ( )`, dashes, line breaks, and a
/// full stop followed by a space or the end), each as its [`words`]:
/// "Moment.js" stays in one clause.
pub fn clauses(text: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let mut current = String::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        let boundary = matches!(
            c,
            ',' | ';' | ':' | '!' | '?' | '(' | ')' | '\n' | '\u{2013}' | '\u{2014}'
        ) || (c == '.' && chars.peek().is_none_or(|n| n.is_whitespace()));
        if boundary {
            let w = words(&current);
            if !w.is_empty() {
                out.push(w);
            }
            current.clear();
        } else {
            current.push(c);
        }
    }
    let w = words(&current);
    if !w.is_empty() {
        out.push(w);
    }
    out
}

/// The topic words of `words`, nearest first, that can name a replaced thing.
fn object_words<'w>(words: impl Iterator<Item = &'w String>) -> BTreeSet<String> {
    words
        .filter(|w| !STOPWORDS.contains(&w.as_str()) && !GENERIC_OBJECT.contains(&w.as_str()))
        .take(OBJECT_WORDS)
        .cloned()
        .collect()
}

/// Finds the replacement phrases of `text` and, within their clause, the
/// words naming what they say is replaced: after "instead of", "no longer"
/// and "replaces" (up to "to" in "switch from X to Y"), before "replaced by",
/// on either side of "deprecated". When the side a phrase looks at names
/// nothing ("X is no longer needed"), the other side is used.
pub fn replacements(text: &str) -> Vec<Replaced> {
    let needles: Vec<(&'static str, Vec<String>)> =
        REPLACEMENT_WORDING.iter().map(|p| (*p, words(p))).collect();
    let mut out = Vec::new();
    for clause in clauses(text) {
        for (phrase, needle) in &needles {
            let n = needle.len();
            if n == 0 || clause.len() < n {
                continue;
            }
            for start in (0..=clause.len() - n).filter(|&i| clause[i..i + n] == needle[..]) {
                let mut after = &clause[start + n..];
                if needle.last().is_some_and(|w| w == "from")
                    && let Some(to) = after.iter().position(|w| w == "to")
                {
                    after = &after[..to];
                }
                let after = object_words(after.iter());
                let before = object_words(clause[..start].iter().rev());
                let sides = match object_side(phrase) {
                    Side::After if after.is_empty() => vec![before],
                    Side::After => vec![after],
                    Side::Before if before.is_empty() => vec![after],
                    Side::Before => vec![before],
                    Side::Both => vec![before, after],
                };
                out.push(Replaced {
                    phrase,
                    objects: sides.into_iter().filter(|s| !s.is_empty()).collect(),
                });
            }
        }
    }
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
/// second, and neither says both: "run migrations before deploying" against
/// "run migrations after deploying".
pub fn opposite_words(a: &str, b: &str) -> Option<(&'static str, &'static str)> {
    let wa: BTreeSet<String> = words(a).into_iter().collect();
    let wb: BTreeSet<String> = words(b).into_iter().collect();
    OPPOSITES.iter().copied().find_map(|(x, y)| {
        let (x_stem, y_stem) = (stem(x), stem(y));
        let (ax, ay) = (wa.contains(&x_stem), wa.contains(&y_stem));
        let (bx, by) = (wb.contains(&x_stem), wb.contains(&y_stem));
        if ax && !ay && by && !bx {
            Some((x, y))
        } else if ay && !ax && bx && !by {
            Some((y, x))
        } else {
            None
        }
    })
}

/// Wording that says a text adds to an earlier rule.
pub const ADDITIVE_WORDING: &[&str] = &[
    "also",
    "additionally",
    "in addition",
    "as well",
    "furthermore",
    "extends",
    "on top of",
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
    fn replacement_objects_table() {
        type Case<'a> = (&'a str, &'a [(&'a str, &'a [&'a [&'a str]])]);
        let set = |w: &[&str]| -> BTreeSet<String> { w.iter().map(|x| (*x).to_owned()).collect() };
        let cases: &[Case] = &[
            (
                "Use date-fns instead of Moment.js; it is smaller.",
                &[("instead of", &[&["moment", "js"]])],
            ),
            ("We no longer do it this way.", &[("no longer", &[])]),
            (
                "The jobs Redis instance is no longer needed.",
                &[("no longer", &[&["jobs", "redis", "instance"]])],
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
                "Heroku review apps were switched off in March.",
                &[("switched off", &[&["heroku", "review", "apps"], &["march"]])],
            ),
            (
                "A missing key is replaced by the raw key.",
                &[("replaced by", &[&["miss", "key"]])],
            ),
            ("Partial writes leave the ledger inconsistent.", &[]),
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
        assert_eq!(
            clauses("Use Moment.js, not the other one; see the docs. Done"),
            [
                vec!["use", "moment", "js"],
                vec!["not", "the", "other", "one"],
                vec!["see", "the", "docs"],
                vec!["done"],
            ]
        );
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
        ];
        for (a, b, expected) in cases {
            assert_eq!(opposite_words(a, b), expected, "{a:?} / {b:?}");
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
