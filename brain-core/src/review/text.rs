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
    "there", "these", "this", "to", "was", "we", "when", "which", "with", "you", "your",
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
