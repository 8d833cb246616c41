//! What a memory is about, told from the shape of its title: two rules that
//! share a sentence but differ in the thing they name are two memories, a
//! title that asks why, how or where about a stored rule elaborates it, and a
//! memory that repeats every content word of another's title (its *claim*)
//! with the same polarity is about the same rule.
//!
//! *Distinct subjects*: the titles are aligned word by word (longest common
//! subsequence of their topic roots, values as one token each). Where both
//! titles have words between the same anchors ("Run cargo **clippy** before
//! pushing" / "Run cargo **fmt** before pushing", "**orders**-service sets
//! `statement_timeout` to 5s" / "**inventory**-service …"), and each side has a
//! word the other memory's whole text never uses, they name different
//! things. Words right before a value are its attribute ("access token
//! **TTL** is 5 minutes" / "access tokens **live** 15 minutes") and do not
//! count; values of different dimensions in the same slot do ("capped at 5
//! MB" / "capped at 5 per hour"). A slot one title fills with a word or
//! two and the other with a clause (three or more words more) is no shared
//! shape. Pure; no I/O.

use std::collections::BTreeSet;
use std::sync::OnceLock;

use super::text;
use super::values;

/// Two titles that share their sentence but name different things.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Distinct {
    /// What the candidate's title names there.
    pub(super) candidate: String,
    /// What the target's title names there.
    pub(super) target: String,
    /// The difference opens the titles, before anything they share: what
    /// they are about ("**Search** service moved from Postgres" /
    /// "**Payments** service uses Postgres"), not how it is said later.
    pub(super) leading: bool,
}

impl Distinct {
    /// "`clippy` where it says `fmt`".
    pub(super) fn describe(&self) -> String {
        format!("`{}` where it says `{}`", self.candidate, self.target)
    }
}

/// An aligned pair of title positions, or an end of the titles.
type Anchor = Option<(usize, usize)>;

/// Returns the words in which two titles of the same sentence shape name
/// different things, if they do (see the module documentation).
///
/// `candidate_words` and `target_words` are the [`text::root`]s of each whole
/// memory (title, summary, detail, tags): a word that the other memory uses
/// anywhere is no difference.
pub(super) fn distinct(
    candidate_title: &[String],
    target_title: &[String],
    candidate_words: &BTreeSet<String>,
    target_words: &BTreeSet<String>,
) -> Option<Distinct> {
    let (c, t) = (candidate_title, target_title);
    let pairs = align(c, t);
    let content = |v: &[String]| v.iter().filter(|w| !w.starts_with(['#', '^'])).count();
    let anchors = pairs
        .iter()
        .filter(|(i, _)| !c[*i].starts_with(['#', '^']))
        .count();
    let smaller = content(c).min(content(t));
    if anchors < 2 || 2 * anchors < smaller {
        return None;
    }
    // Blocks between consecutive anchors (and before the first, after the last).
    let mut bounds: Vec<(Anchor, Anchor)> = Vec::new();
    let mut prev: Anchor = None;
    for &p in &pairs {
        bounds.push((prev, Some(p)));
        prev = Some(p);
    }
    bounds.push((prev, None));
    for (before, after) in bounds {
        let (c0, t0) = before.map_or((0, 0), |(i, j)| (i + 1, j + 1));
        let (c1, t1) = after.unwrap_or((c.len(), t.len()));
        let (cs, ts) = (&c[c0..c1], &t[t0..t1]);
        // A slot filled on one side by a word or two and on the other by a
        // clause ("… lock_timeout **failures**" / "… lock_timeout **to avoid
        // queueing behind long transactions**") is no shared shape.
        if cs.is_empty() || ts.is_empty() || cs.len().abs_diff(ts.len()) >= 3 {
            continue;
        }
        // A value right after the block, past modals: "baud rate is 921600".
        let value_anchor = |a: Option<(usize, usize)>| {
            a.is_some_and(|(i, _)| {
                c[i..]
                    .iter()
                    .find(|w| *w != "^")
                    .is_some_and(|w| w.starts_with('#'))
            })
        };
        let c_values: Vec<&String> = cs.iter().filter(|w| w.starts_with('#')).collect();
        let t_values: Vec<&String> = ts.iter().filter(|w| w.starts_with('#')).collect();
        // Values of different dimensions in the same slot: another quantity.
        if c_values.len() == cs.len()
            && t_values.len() == ts.len()
            && c_values
                .iter()
                .all(|a| t_values.iter().all(|b| !values::same_dimension(a, b)))
        {
            return Some(Distinct {
                candidate: dimension_name(c_values[0]),
                target: dimension_name(t_values[0]),
                leading: before.is_none(),
            });
        }
        // The attribute of a value ("TTL is 5 minutes") is said in many ways,
        // and so is what follows a modal ("must be longer" / "must exceed").
        let modal_before = before.is_some_and(|(i, _)| c[i] == "^");
        if value_anchor(after)
            || value_anchor(before)
            || modal_before
            || !c_values.is_empty()
            || !t_values.is_empty()
        {
            continue;
        }
        let named = |w: &&String, other: &BTreeSet<String>| {
            *w != "^" && !generic(w) && !replacement_word(w) && !text::has_root(other, w)
        };
        let c_only = cs.iter().find(|w| named(w, target_words));
        let t_only = ts.iter().find(|w| named(w, candidate_words));
        if let (Some(a), Some(b)) = (c_only, t_only) {
            return Some(Distinct {
                candidate: a.clone(),
                target: b.clone(),
                leading: before.is_none(),
            });
        }
    }
    None
}

fn dimension_name(token: &str) -> String {
    match token.trim_start_matches('#') {
        "" => "a number",
        "s" => "a duration",
        "B" => "a size",
        "%" => "a ratio",
        "/s" => "a rate",
        "x" => "a count",
        "clock" => "a time of day",
        "bool" => "a boolean",
        _ => "a value",
    }
    .to_owned()
}

/// Whether a root belongs to replacement or move wording ("replaced",
/// "moved", "lives"): how a title says it changed, not what it is about.
fn replacement_word(root: &str) -> bool {
    text::REPLACEMENT_WORDING
        .iter()
        .flat_map(|p| text::words(p))
        .any(|w| text::root(&w) == root)
}

/// Whether two aligned tokens match: the same root, or values that can be
/// the same quantity.
fn matches(a: &str, b: &str) -> bool {
    if a.starts_with('#') || b.starts_with('#') {
        return a.starts_with('#') && b.starts_with('#') && values::same_dimension(a, b);
    }
    text::same_root(a, b)
}

/// The longest common subsequence of two token lists, as index pairs.
fn align(left: &[String], right: &[String]) -> Vec<(usize, usize)> {
    let (rows, cols) = (left.len(), right.len());
    let mut table = vec![vec![0u16; cols + 1]; rows + 1];
    for i in (0..rows).rev() {
        for j in (0..cols).rev() {
            table[i][j] = if matches(&left[i], &right[j]) {
                table[i + 1][j + 1] + 1
            } else {
                table[i + 1][j].max(table[i][j + 1])
            };
        }
    }
    let (mut i, mut j) = (0, 0);
    let mut out = Vec::new();
    while i < rows && j < cols {
        if matches(&left[i], &right[j]) {
            out.push((i, j));
            i += 1;
            j += 1;
        } else if table[i + 1][j] >= table[i][j + 1] {
            i += 1;
        } else {
            j += 1;
        }
    }
    out
}

/// Roots too general to tie two memories together on their own: function
/// words, quantifiers and everyday verbs of engineering notes ("add", "use",
/// "run", "new", "after"), and the conjunctions and prepositions that join a
/// title's words ("unless", "because", "into"), never what it names.
const GENERIC: &[&str] = &[
    "about", "add", "after", "again", "all", "also", "always", "any", "anything", "around", "back",
    "befor", "between", "both", "but", "call", "can", "cannot", "chang", "check", "could", "creat",
    "default", "did", "differ", "doe", "don", "done", "each", "either", "els", "ensur", "even",
    "ever", "every", "exist", "first", "full", "whole", "entire", "get", "give", "go", "had",
    "how", "if", "instead", "just", "keep", "last", "les", "like", "mak", "many", "may", "more",
    "most", "much", "must", "need", "never", "new", "next", "no", "non", "not", "now", "off",
    "old", "once", "one", "only", "other", "out", "over", "per", "put", "rather", "run", "same",
    "see", "set", "should", "sinc", "some", "still", "such", "tak", "than", "them", "they",
    "thing", "those", "through", "too", "two", "under", "until", "up", "us", "use", "via", "want",
    "way", "well", "what", "where", "whether", "while", "who", "why", "will", "within", "without",
    "work", "would", "yet", "second", "minute", "hour", "day", "week", "month", "year", "time",
    "unless", "except", "because", "although", "though", "whenever", "whereas", "despite",
    "against", "across", "along", "among", "beyond", "into", "onto", "upon", "toward", "towards",
    "versus",
];

/// Whether a [`text::root`] is too general to tie two memories together.
pub(super) fn generic(root: &str) -> bool {
    static ROOTS: OnceLock<BTreeSet<String>> = OnceLock::new();
    let roots = ROOTS.get_or_init(|| {
        GENERIC
            .iter()
            .flat_map(|g| [(*g).to_owned(), text::root(g)])
            .collect()
    });
    root.len() < 3 || roots.contains(root)
}

/// What a title claims: its content words ([`text::root`]s that are not
/// [`generic`]) and whether it is negated ("never", "don't", "can't").
#[derive(Clone, Debug, Default)]
pub(super) struct Claim {
    words: BTreeSet<String>,
    negated: bool,
}

impl Claim {
    /// The claim of `title`.
    pub(super) fn of(title: &str) -> Claim {
        Claim {
            words: text::roots(title)
                .into_iter()
                .filter(|w| !generic(w))
                .collect(),
            negated: negated(title),
        }
    }
}

/// The sentences of a memory (its title whole, and each sentence of its
/// summary and detail) as their [`text::roots`], with whether each is
/// negated. A question states nothing and is left out.
pub(super) fn sentences(title: &str, body: &str) -> Vec<Sentence> {
    let mut out = vec![Sentence::of(title)];
    let mut start = 0;
    let mut chars = body.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        let next = chars.peek().map(|&(_, n)| n);
        let end =
            c == '\n' || (matches!(c, '.' | '!' | '?') && next.is_none_or(char::is_whitespace));
        if end || next.is_none() {
            let stop = if end { i } else { i + c.len_utf8() };
            let sentence = &body[start..stop];
            if !sentence.trim().is_empty() && c != '?' {
                out.push(Sentence::of(sentence));
            }
            start = i + c.len_utf8();
        }
    }
    out
}

/// One sentence of a memory, for finding another memory's claim in it.
#[derive(Clone, Debug)]
pub(super) struct Sentence {
    /// Its [`text::root`]s.
    pub(super) roots: BTreeSet<String>,
    /// It holds a negation.
    pub(super) negated: bool,
    /// The roots of the words right after a negation ("never **throw**"),
    /// up to three: what it denies.
    pub(super) denied: BTreeSet<String>,
}

impl Sentence {
    fn of(text: &str) -> Sentence {
        let words = text::words(text);
        let mut denied = BTreeSet::new();
        for (i, w) in words.iter().enumerate() {
            if w == "t" || text::NEGATIONS.contains(&w.as_str()) {
                denied.extend(
                    words[i + 1..]
                        .iter()
                        .filter(|w| !text::is_stopword(w))
                        .take(3)
                        .map(|w| text::root(w)),
                );
            }
        }
        Sentence {
            roots: text::roots(text),
            negated: negated(text),
            denied,
        }
    }
}

/// Whether a text holds a negation ("not", "never", "no", "don't", "can't").
pub(super) fn negated(text: &str) -> bool {
    text::words(text)
        .iter()
        .any(|w| w == "t" || text::NEGATIONS.contains(&w.as_str()))
}

/// How closely a memory repeats another memory's claim.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Repeat {
    /// Its title, text and tags hold every content word of the claim, and
    /// its title has the claim's polarity: "Kafka trace propagation: use the
    /// traceparent helpers … `messaging.InjectTrace(ctx, msg)`" against
    /// "Propagate trace context through Kafka messages".
    InText,
    /// One sentence holds every content word, with the same polarity.
    InSentence,
}

/// Whether a memory repeats another memory's claim (at least three content
/// words): in one sentence, or across its text. "For the <50 MB
/// dimension-table broadcast joins, wrap the small side …" repeats
/// "Broadcast dimension tables smaller than 50 MB"; "Authenticated catalog
/// responses are never cached" does not repeat "Catalog responses are
/// cached", it makes an exception to it.
pub(super) fn repeats(
    sentences: &[Sentence],
    words: &BTreeSet<String>,
    claim: &Claim,
) -> Option<Repeat> {
    if claim.words.len() < 3 {
        return None;
    }
    let holds = |set: &BTreeSet<String>| claim.words.iter().all(|w| text::has_root(set, w));
    if sentences
        .iter()
        .any(|s| s.negated == claim.negated && holds(&s.roots))
    {
        Some(Repeat::InSentence)
    } else if sentences
        .first()
        .is_some_and(|s| s.negated == claim.negated)
        && holds(words)
        // Spread over the text, the claim is not repeated when a sentence
        // denies a word of it and holds most of it: "Mutations … never
        // throw for validation problems" against "Mutations throw on
        // validation failures".
        && !sentences.iter().any(|s| {
            !claim.negated
                && claim.words.iter().any(|w| text::has_root(&s.denied, w))
                && 2 * claim.words.iter().filter(|w| text::has_root(&s.roots, w)).count()
                    > claim.words.len()
        })
    {
        Some(Repeat::InText)
    } else {
        None
    }
}

/// Words that open a title explaining or detailing a rule: "Why the
/// watchdog is not kicked from an interrupt", "How to recognise …", "Where
/// per-request loaders are created", "What counts as a layout change".
const ELABORATING_OPENERS: &[&str] = &["why", "how", "where", "what", "reason"];

/// Whether a memory elaborates another rule rather than stating a new one:
/// its title asks why, how, where or what, or says it adds to something
/// ("… also applies to Combine publishers"), or its text says it extends a
/// rule ("same rule as", "same failure mode as", "also applies to").
pub(super) fn elaborates(title: &str, text: &str) -> bool {
    let first = text::words(title).into_iter().next().unwrap_or_default();
    if ELABORATING_OPENERS.contains(&first.as_str()) {
        return true;
    }
    if !text::find_phrases(title, text::ADDITIVE_WORDING).is_empty()
        || !text::find_phrases(text, &["also applies", "applies also", "also apply"]).is_empty()
        // "Same for BuildContext: check context.mounted after await".
        || !text::find_phrases(title, &["same for", "same goes for", "same applies to", "likewise"])
            .is_empty()
        // "Root cause of slow external lookups is ndots:5".
        || text::find_phrases(title, &["root cause"]).len() == 1
    {
        return true;
    }
    // "Same idempotency rule as other Stripe POSTs", "same failure mode as prod".
    text::clauses(text).iter().any(|clause| {
        clause
            .iter()
            .enumerate()
            .any(|(i, w)| w == "same" && clause[i + 1..].iter().take(4).any(|x| x == "as"))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(c_title: &str, c_body: &str, t_title: &str, t_body: &str) -> Option<(String, String)> {
        let ct = values::frame_tokens(c_title);
        let tt = values::frame_tokens(t_title);
        let cw = text::roots(&format!("{c_title}\n{c_body}"));
        let tw = text::roots(&format!("{t_title}\n{t_body}"));
        distinct(&ct, &tt, &cw, &tw).map(|d| (d.candidate, d.target))
    }

    #[test]
    fn distinct_subjects_table() {
        let pair = |a: &str, b: &str| Some((a.to_owned(), b.to_owned()));
        let cases = [
            (
                "Run cargo clippy before pushing",
                "CI runs cargo clippy --all-targets and fails on any lint.",
                "Run cargo fmt before pushing",
                "CI runs cargo fmt --check and fails on any diff.",
                pair("clippy", "fmt"),
            ),
            (
                "inventory-service sets statement_timeout to 5s",
                "Configured on the inventory DB role.",
                "orders-service sets statement_timeout to 5s",
                "Configured on the orders DB role.",
                pair("inventory", "order"),
            ),
            (
                "Avatar uploads are capped at 5 per hour",
                "Per-user rate limit on the presign endpoint.",
                "Avatar uploads are capped at 5 MB",
                "Enforced by the presigned POST policy.",
                pair("a rate", "a size"),
            ),
            (
                "Eval DataLoader must use drop_last=False",
                "The last partial batch was skipped on the validation loader.",
                "Training DataLoader uses shuffle=True and drop_last=True",
                "drop_last avoids a tiny last batch.",
                pair("eval", "train"),
            ),
            // A quantifier says how much, not which thing ("the whole
            // perform").
            (
                "Retries execute perform from the beginning",
                "Every Sidekiq retry runs perform from the start, so side effects repeat.",
                "Sidekiq jobs must be idempotent - retries re-run the whole perform",
                "Each retry runs perform from the top; side effects happen again.",
                None,
            ),
            // A conjunction is how a title joins its words, not a subject.
            (
                "Release builds drop Jackson DTOs unless there are keep rules",
                "The shrinker renames the DTO classes; add a -keep rule per package.",
                "Release builds drop Jackson response models without keep rules",
                "Fields come back null because the DTO classes were renamed.",
                None,
            ),
            // The attribute of a changed value, a reworded verb, an extension.
            (
                "Access token TTL is 5 minutes",
                "A shorter window for access tokens.",
                "Access tokens live 15 minutes",
                "Short lifetime bounds the damage of a leaked token.",
                None,
            ),
            (
                "Terraform state lock can stay stale after a cancelled CI job",
                "When a run is cancelled the DynamoDB lock remains.",
                "Terraform state lock can be left stale after a cancelled CI job",
                "If a run is cancelled mid-apply, the DynamoDB lock stays behind.",
                None,
            ),
            (
                "We pin Node 22",
                ".nvmrc and setup-node in CI all say 22 now.",
                "We pin Node 20 in .nvmrc and CI",
                "Keep .nvmrc and setup-node in sync.",
                None,
            ),
            (
                "Orders service max pool size is 50",
                "We raised maximumPoolSize for orders to 50.",
                "HikariCP maximumPoolSize is 20 for the orders service",
                "Sized from the max_connections budget.",
                None,
            ),
            // A word against a clause in the same slot: no shared shape.
            (
                "backup.sh retries pg_dump failures",
                "Up to three times, a minute apart.",
                "Backups run pg_dump with --no-sync to avoid stalling the primary during peak hours",
                "The nightly job runs at 02:00.",
                None,
            ),
        ];
        for (ct, cb, tt, tb, want) in cases {
            assert_eq!(check(ct, cb, tt, tb), want, "{ct} / {tt}");
        }
    }

    #[test]
    fn repeated_claims() {
        let repeat = |title: &str, body: &str, target_title: &str| {
            let text = format!("{title}\n{body}");
            repeats(
                &sentences(title, body),
                &text::roots(&text),
                &Claim::of(target_title),
            )
        };
        let cases = [
            // One sentence holds every content word of the target's title.
            (
                "Retries need jitter on our gateway",
                "For the exponential backoff that outbound calls retry with, add full jitter; the gateway drops synchronised bursts.",
                "Outbound calls retry with exponential backoff",
                Some(Repeat::InSentence),
            ),
            // Spread over the text, with the title's polarity.
            (
                "Webhook signing: rotate the secret with the helper",
                "Signatures use HMAC over the raw body. Call hooks.RotateSecret(ctx) to rotate; verify against both secrets for a day.",
                "Verify webhook signatures over the raw request body",
                None,
            ),
            (
                "Webhook signing: verify with the helper",
                "Signatures are checked over the raw request body. Call hooks.Verify(req) - do it before parsing JSON.",
                "Verify webhook signatures over the raw request body",
                Some(Repeat::InText),
            ),
            // An exception negates the claim: no repeat.
            (
                "Authenticated catalog responses are never cached at the CDN",
                "Requests with an Authorization header get Cache-Control private.",
                "Catalog responses are cached at the CDN",
                None,
            ),
            // Spread over the text, with a sentence that denies most of it.
            (
                "Validation errors are part of the mutation payload",
                "Mutations return userErrors for validation problems and never throw a GraphQLError for them. Thrown errors are for unexpected failures.",
                "Mutations throw GraphQLError on validation failures",
                None,
            ),
            // A negation elsewhere in that sentence denies none of it.
            (
                "pod install after plugin changes - plus repo update",
                "After changing Flutter plugins, pod install is needed for iOS; if it fails with 'could not find compatible versions', run pod install --repo-update.",
                "Run pod install after changing Flutter plugins",
                Some(Repeat::InText),
            ),
            // A title is one statement; a question in the body states nothing.
            (
                "Every outbound call retries with backoff? Not the webhook calls",
                "Should outbound calls retry with exponential backoff? Webhooks use the queue.",
                "Outbound calls retry with exponential backoff",
                None,
            ),
            // Two content words are no claim to repeat.
            (
                "Use UTC everywhere",
                "Store timestamps in UTC.",
                "Timestamps in UTC",
                None,
            ),
        ];
        for (title, body, target, want) in cases {
            assert_eq!(repeat(title, body, target), want, "{title} / {target}");
        }
    }

    #[test]
    fn elaborating_titles_and_extensions() {
        let cases = [
            ("Why the watchdog is not kicked from an interrupt", "", true),
            ("How to recognise the rebalance storm", "", true),
            (
                "Same for BuildContext: check context.mounted after await",
                "",
                true,
            ),
            (
                "Root cause of the slow external lookups is ndots:5",
                "",
                true,
            ),
            ("Same-origin requests skip the CORS check", "", false),
            (
                "Stripe refunds derive the key from the request id",
                "Same idempotency rule as other Stripe POSTs.",
                true,
            ),
            (
                "The main-thread rule also applies to Combine publishers",
                "",
                true,
            ),
            (
                "Indexed documents are not searchable until a refresh",
                "Tests must also pass refresh=wait_for.",
                false,
            ),
            (
                "Run cargo clippy before pushing",
                "CI fails on any lint.",
                false,
            ),
            (
                "Whitespace is trimmed",
                "The same input gives the same output.",
                false,
            ),
        ];
        for (title, body, want) in cases {
            assert_eq!(
                elaborates(title, &format!("{title}\n{body}")),
                want,
                "{title}"
            );
        }
    }
}
