//! Stage 4: the type of each fragment, from its own words.
//!
//! Every phrase is matched on whole (stemmed) words, never substrings: "must"
//! is not found in "mustard", "race" not in "trace". Each type has a table of
//! weighted phrases; rationale, risk and constraint words add to the types
//! they support. The highest score wins; ties go gotcha > decision >
//! convention > pattern > goal > working. An explicit prefix ("Gotcha: …")
//! decides on its own.

use serde::Serialize;

use crate::model::MemoryType;
use crate::review::text::find_phrases;

/// The score a type needs before a fragment counts as that type.
pub const MIN_TYPE_SCORE: f64 = 2.0;

/// The type score from which a fragment of free text is kept as a draft:
/// under [`MIN_TYPE_SCORE`] (which splits paragraphs into fragments and lets
/// a rule file's words override its default type), since a lesson told
/// plainly ("Target is under 1.5s", "don't hand-edit the deps") carries one
/// weak word; the quality stage still asks for substance, a reason, a risk
/// or a place.
pub const MIN_KEEP_SCORE: f64 = 1.5;

/// A weighted phrase table.
type Table = &'static [(&'static str, f64)];

const DECISION: Table = &[
    ("we decided", 3.0),
    ("decided to", 3.0),
    ("decision", 2.5),
    ("we chose", 3.0),
    ("chose", 2.0),
    ("we picked", 2.5),
    ("went with", 2.5),
    ("opted for", 2.5),
    ("settled on", 2.5),
    ("rather than", 1.5),
    ("instead of", 1.2),
    ("in favor of", 2.0),
    ("in favour of", 2.0),
    ("trade-off", 1.5),
    ("tradeoff", 1.5),
    ("switched to", 2.2),
    ("switch to", 2.0),
    ("migrated to", 2.0),
    ("moved to", 1.2),
    ("we use", 1.2),
    ("we now use", 2.0),
    ("adopted", 2.0),
    ("we will use", 2.0),
    ("replaced", 1.5),
    ("no longer use", 2.2),
    // A commit subject states its choice in the imperative ("Replace
    // gorilla/mux with chi"); a change of what is used says it plainly.
    ("replace", 1.5),
    ("going with", 2.2),
    ("we'll use", 2.0),
    ("now uses", 1.5),
    ("is now", 1.0),
    ("over", 0.4),
];

const GOTCHA: Table = &[
    ("gotcha", 3.0),
    ("watch out", 3.0),
    ("beware", 3.0),
    ("careful", 2.0),
    ("pitfall", 3.0),
    ("caveat", 2.5),
    ("footgun", 3.0),
    ("trap", 2.0),
    ("breaks", 2.2),
    ("break", 1.5),
    ("broke", 2.0),
    ("fails", 2.0),
    ("fail", 1.5),
    ("failed", 1.2),
    ("crash", 2.2),
    ("race", 2.2),
    ("race condition", 3.0),
    ("deadlock", 2.8),
    ("leak", 2.2),
    ("silently", 2.5),
    ("flaky", 2.5),
    ("times out", 2.2),
    ("timeout", 1.5),
    ("hang", 2.0),
    ("corrupt", 2.5),
    ("twice", 1.5),
    ("double", 1.2),
    ("duplicate", 1.2),
    ("unexpected", 1.8),
    ("surprisingly", 2.0),
    ("turns out", 2.2),
    ("turned out", 2.2),
    ("root cause", 2.5),
    ("bug", 1.8),
    ("regression", 2.0),
    ("does not", 0.8),
    ("doesn't", 0.8),
    ("won't", 0.8),
    ("ignores", 1.5),
    ("ignored", 1.2),
    ("overflow", 2.0),
    ("panic", 2.0),
    ("data loss", 3.0),
    ("lost", 1.2),
    ("stale", 1.2),
    ("off by one", 2.5),
    ("not thread safe", 2.8),
    ("mismatch", 1.5),
    ("wrong", 1.2),
    ("only works", 1.5),
    // A bug's explanation: what caused it, when it happens.
    ("the cause", 2.2),
    ("caused by", 2.2),
    ("which is why", 2.0),
    ("that's why", 1.5),
    ("only happens", 2.2),
    ("happens when", 1.5),
    ("workaround", 1.5),
    ("bypass", 2.0),
    ("defaults to", 1.5),
    ("unless", 1.0),
];

const CONVENTION: Table = &[
    ("convention", 3.0),
    ("always", 2.2),
    ("never", 2.2),
    ("must", 2.0),
    ("must not", 2.2),
    ("should", 1.3),
    ("should not", 1.6),
    ("do not", 1.5),
    ("don't", 1.5),
    ("naming", 2.0),
    ("named", 1.0),
    ("name", 0.8),
    ("style", 1.5),
    ("kebab case", 2.5),
    ("snake case", 2.5),
    ("camel case", 2.5),
    ("camelcase", 2.5),
    ("prefix", 1.2),
    ("suffix", 1.2),
    ("every", 1.0),
    ("each", 0.6),
    ("rule", 1.2),
    ("prefer", 1.5),
    ("avoid", 1.5),
    ("required", 1.2),
    ("only", 0.6),
    ("lint", 1.2),
    ("formatted", 1.0),
    ("put", 0.8),
    ("keep", 0.8),
    ("goes in", 1.5),
    ("live in", 1.5),
    ("lives in", 1.5),
    ("belongs in", 1.5),
    ("go under", 1.5),
    ("from now on", 2.0),
];

const PATTERN: Table = &[
    ("pattern", 3.0),
    ("approach", 1.8),
    ("recipe", 2.5),
    ("how to", 2.0),
    ("the way to", 2.5),
    ("to add a", 2.0),
    ("to add", 1.2),
    ("when adding", 2.0),
    ("template", 1.8),
    ("helper", 1.5),
    ("wrapper", 1.5),
    ("we wrap", 2.2),
    ("builder", 1.2),
    ("step", 1.0),
    ("workflow", 1.2),
    ("reuse", 1.5),
    ("example", 1.0),
    ("follow", 1.0),
    ("copy", 0.8),
    // "Follows the usual resolver layout: …", "adding a locale is: …".
    ("layout", 1.2),
    ("the usual", 1.0),
    ("adding a", 1.2),
];

const GOAL: Table = &[
    ("goal", 3.0),
    ("objective", 2.5),
    ("target", 1.5),
    ("aim", 1.5),
    ("roadmap", 2.5),
    ("milestone", 2.5),
    ("by end of", 1.5),
    ("by q1", 2.0),
    ("by q2", 2.0),
    ("by q3", 2.0),
    ("by q4", 2.0),
    ("plan to", 1.8),
    ("we want to", 1.8),
    ("north star", 2.5),
    ("step toward", 2.0),
    ("step towards", 2.0),
    ("part of getting", 2.0),
    ("reduce", 0.8),
    ("bring", 0.6),
    ("under", 0.4),
    ("below", 0.4),
];

const WORKING: Table = &[
    ("currently", 1.5),
    ("in progress", 2.5),
    ("wip", 2.5),
    ("todo", 2.0),
    ("next step", 2.5),
    ("next up", 2.0),
    ("for now", 1.5),
    ("this week", 1.5),
    ("today", 1.0),
    ("temporarily", 1.5),
    ("working on", 2.5),
    ("half done", 2.5),
    ("blocked on", 2.5),
    ("still need", 2.0),
    ("left to do", 2.5),
    // State that is meant to change: what is still so, paused, stubbed,
    // a stopgap until something lands.
    ("still", 1.0),
    ("not yet", 1.5),
    ("stopgap", 2.5),
    ("paused", 2.0),
    ("stubbed", 2.0),
    ("until", 1.0),
    ("for the moment", 1.5),
    ("halfway", 2.0),
];

/// Rationale: supports decisions, patterns and gotchas.
pub const RATIONALE: &[&str] = &[
    "because",
    "since",
    "so that",
    "to avoid",
    "to prevent",
    "in order to",
    "due to",
    "the reason",
    "otherwise",
    "which means",
    "as a result",
];

/// Risk: supports gotchas (and decisions).
pub const RISK: &[&str] = &[
    "data loss",
    "outage",
    "security",
    "vulnerability",
    "corrupt",
    "corruption",
    "production",
    "prod",
    "double charge",
    "charged twice",
    "leak",
    "deadlock",
    "race",
    "incident",
    "breaks",
    "crash",
    "silently",
    "irreversible",
    "downtime",
];

/// Severe risk: raises risk to high.
pub const SEVERE_RISK: &[&str] = &[
    "data loss",
    "outage",
    "security",
    "vulnerability",
    "corrupt",
    "corruption",
    "double charge",
    "charged twice",
    "irreversible",
    "downtime",
    "incident",
    "secret",
    "credential",
];

/// Constraint words: support conventions and gotchas.
pub const CONSTRAINT: &[&str] = &["must", "never", "always", "only", "required", "do not"];

/// The classifier's verdict on one fragment.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Classification {
    /// The chosen type.
    pub kind: MemoryType,
    /// Its score.
    pub score: f64,
    /// The runner-up type and its score, if any scored.
    pub runner_up: Option<(MemoryType, f64)>,
    /// The phrases that decided it.
    pub matched: Vec<String>,
    /// Rationale wording found.
    pub rationale: Vec<String>,
    /// Risk wording found.
    pub risk: Vec<String>,
    /// Whether an explicit prefix chose the type.
    pub explicit: bool,
}

const ORDER: [MemoryType; 6] = [
    MemoryType::Gotcha,
    MemoryType::Decision,
    MemoryType::Convention,
    MemoryType::Pattern,
    MemoryType::Goal,
    MemoryType::Working,
];

fn table(kind: MemoryType) -> Table {
    match kind {
        MemoryType::Decision => DECISION,
        MemoryType::Gotcha => GOTCHA,
        MemoryType::Convention => CONVENTION,
        MemoryType::Pattern => PATTERN,
        MemoryType::Goal => GOAL,
        MemoryType::Working => WORKING,
    }
}

fn phrases(t: Table) -> Vec<&'static str> {
    t.iter().map(|(p, _)| *p).collect()
}

/// Scores `text` for every type.
pub fn scores(text: &str) -> Vec<(MemoryType, f64, Vec<&'static str>)> {
    let rationale = !find_phrases(text, RATIONALE).is_empty();
    let risk = !find_phrases(text, RISK).is_empty();
    let constraint = !find_phrases(text, CONSTRAINT).is_empty();
    let describes_never = never_describes(text);
    ORDER
        .iter()
        .map(|&kind| {
            let t = table(kind);
            let found = find_phrases(text, &phrases(t));
            // Phrases are matched on stems, so "fail", "fails" and "failed"
            // all match one "failing": each stem sequence counts once, with
            // its highest weight.
            let mut by_stems: Vec<(Vec<String>, f64)> = Vec::new();
            for (p, w) in found
                .iter()
                .filter_map(|p| t.iter().find(|(q, _)| q == p).map(|(q, w)| (*q, *w)))
            {
                let key = crate::review::text::words(p);
                match by_stems.iter_mut().find(|(k, _)| *k == key) {
                    Some((_, best)) => *best = best.max(w),
                    None => by_stems.push((key, w)),
                }
            }
            // Start from +0.0: an empty `sum` of floats is -0.0.
            let mut score: f64 = by_stems.iter().map(|(_, w)| *w).fold(0.0, |a, b| a + b);
            // "post_save never fires": how something behaves, a trap; not
            // the rule "never run …".
            if describes_never {
                match kind {
                    MemoryType::Convention if found.contains(&"never") => score -= 2.2,
                    MemoryType::Gotcha => score += 2.2,
                    _ => {}
                }
            }
            if score > 0.0 {
                score += match kind {
                    MemoryType::Decision if rationale => 1.2,
                    MemoryType::Pattern if rationale => 0.6,
                    MemoryType::Gotcha if risk => 1.2,
                    MemoryType::Gotcha if rationale => 0.4,
                    MemoryType::Convention if constraint => 0.4,
                    _ => 0.0,
                };
            }
            (kind, score, found)
        })
        .collect()
}

/// Whether `never` in the text only describes behaviour: it comes before a
/// verb of the third person ("the hook never fires", "it never is called")
/// and nowhere opens an instruction ("Never run …", "we never …", "you
/// should never …").
fn never_describes(text: &str) -> bool {
    let lower = text.to_lowercase();
    let words: Vec<&str> = lower
        .split(|c: char| !(c.is_alphanumeric() || c == '\'' || c == '_'))
        .filter(|w| !w.is_empty())
        .collect();
    let mut describes = false;
    for (i, w) in words.iter().enumerate() {
        if *w != "never" {
            continue;
        }
        let next = words.get(i + 1).copied().unwrap_or_default();
        let third_person = ["is", "was", "gets", "has", "does"].contains(&next)
            || (next.len() > 3
                && next.ends_with('s')
                && !next.ends_with("ss")
                && !next.ends_with("us"));
        if third_person {
            describes = true;
        } else {
            return false;
        }
    }
    describes
}

/// Whether a sentence carries a type signal of its own (used to split
/// paragraphs into fragments).
pub fn has_signal(sentence: &str) -> bool {
    scores(sentence)
        .iter()
        .any(|(_, s, _)| *s >= MIN_TYPE_SCORE)
        || super::chunk::type_prefix(sentence).0.is_some()
}

/// Words in a heading or list lead-in that name a type ("Decisions:",
/// "## Known pitfalls", "Next steps").
const HEADING_TYPES: &[(&str, MemoryType)] = &[
    ("gotcha", MemoryType::Gotcha),
    ("pitfall", MemoryType::Gotcha),
    ("caveat", MemoryType::Gotcha),
    ("warning", MemoryType::Gotcha),
    ("watch out", MemoryType::Gotcha),
    ("known issue", MemoryType::Gotcha),
    ("decision", MemoryType::Decision),
    ("decided", MemoryType::Decision),
    // An architecture section describes how the code is laid out (a
    // pattern); one of decision records says "decision" first.
    ("architecture", MemoryType::Pattern),
    ("adr", MemoryType::Decision),
    ("pattern", MemoryType::Pattern),
    ("recipe", MemoryType::Pattern),
    ("how to", MemoryType::Pattern),
    ("goal", MemoryType::Goal),
    ("roadmap", MemoryType::Goal),
    ("objective", MemoryType::Goal),
    // What a session summary learned is what the next one must not trip on.
    ("learned", MemoryType::Gotcha),
    ("lesson", MemoryType::Gotcha),
    ("til", MemoryType::Gotcha),
    ("root cause", MemoryType::Gotcha),
    ("todo", MemoryType::Working),
    ("next step", MemoryType::Working),
    ("in progress", MemoryType::Working),
    ("open question", MemoryType::Working),
    ("open item", MemoryType::Working),
    ("follow up", MemoryType::Working),
    ("remaining", MemoryType::Working),
    ("still open", MemoryType::Working),
    ("not done", MemoryType::Working),
    ("convention", MemoryType::Convention),
    ("style", MemoryType::Convention),
    ("rule", MemoryType::Convention),
    ("guideline", MemoryType::Convention),
];

/// The type a heading or list lead-in names, if any.
pub fn heading_type(heading: &str) -> Option<MemoryType> {
    let words = crate::review::text::words(heading);
    if words.is_empty() || words.len() > 8 {
        return None;
    }
    HEADING_TYPES
        .iter()
        .find(|(w, _)| !find_phrases(heading, &[*w]).is_empty())
        .map(|(_, k)| *k)
}

/// Words of a heading over a description of the project rather than a rule
/// ("Project overview", "Repository structure", "Key components").
const OVERVIEW_HEADINGS: &[&str] = &[
    "overview",
    "structure",
    "layout",
    "key components",
    "architecture",
    "directory map",
    "codebase map",
];

/// Whether a heading is over a description of the project or its layout: a
/// pattern (how the code is laid out), context for a rule more than a rule.
pub fn overview_heading(heading: &str) -> bool {
    let words = crate::review::text::words(heading);
    !words.is_empty() && words.len() <= 6 && !find_phrases(heading, OVERVIEW_HEADINGS).is_empty()
}

/// How much a heading's or lead-in's type adds to that type's score.
pub const HINT_WEIGHT: f64 = 3.0;

/// Classifies a fragment's text, honouring an explicit prefix; `hint` is
/// the type its heading or list lead-in names, which counts
/// [`HINT_WEIGHT`] towards that type.
pub fn classify(
    text: &str,
    prefix: Option<MemoryType>,
    hint: Option<MemoryType>,
) -> Classification {
    let mut all = scores(text);
    if let Some(h) = hint {
        for (kind, score, found) in &mut all {
            if *kind == h {
                *score += HINT_WEIGHT;
                found.push("(heading)");
            }
        }
    }
    let mut ranked: Vec<&(MemoryType, f64, Vec<&str>)> = all.iter().collect();
    // Stable sort keeps ORDER for ties.
    ranked.sort_by(|a, b| b.1.total_cmp(&a.1));
    let best = ranked[0];
    let (kind, score, explicit) = match prefix {
        Some(k) => (
            k,
            all.iter().find(|(t, _, _)| *t == k).map_or(0.0, |x| x.1) + 5.0,
            true,
        ),
        None => (best.0, best.1, false),
    };
    let runner_up = ranked
        .iter()
        .find(|(t, s, _)| *t != kind && *s > 0.0)
        .map(|(t, s, _)| (*t, *s));
    let matched = all
        .iter()
        .find(|(t, _, _)| *t == kind)
        .map(|(_, _, f)| f.iter().map(|s| (*s).to_owned()).collect())
        .unwrap_or_default();
    Classification {
        kind,
        score,
        runner_up,
        matched,
        rationale: find_phrases(text, RATIONALE)
            .into_iter()
            .map(str::to_owned)
            .collect(),
        risk: find_phrases(text, RISK)
            .into_iter()
            .map(str::to_owned)
            .collect(),
        explicit,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_sentence_gets_its_own_type() {
        let cases = [
            (
                "We decided to keep refunds in Postgres rather than Redis because we need transactions.",
                MemoryType::Decision,
            ),
            (
                "Watch out: the Stripe webhook retries silently and arrives twice.",
                MemoryType::Gotcha,
            ),
            (
                "Always name migration files with a timestamp prefix.",
                MemoryType::Convention,
            ),
            (
                "To add a new endpoint, follow the pattern in handlers/health.rs: a thin handler that calls a service.",
                MemoryType::Pattern,
            ),
            (
                "Our goal for Q3 is to bring p99 latency under 200 ms.",
                MemoryType::Goal,
            ),
            (
                "Currently working on the invoice export; next step is the CSV writer.",
                MemoryType::Working,
            ),
            (
                "The parser breaks on CRLF input and silently drops the last line.",
                MemoryType::Gotcha,
            ),
        ];
        for (text, want) in cases {
            let c = classify(text, None, None);
            assert_eq!(c.kind, want, "{text}: {c:?}");
            assert!(c.score >= MIN_TYPE_SCORE, "{text}: {c:?}");
        }
    }

    #[test]
    fn words_match_whole_not_inside_others() {
        // "races" is the word "race" (and a risk word); "trace" is not.
        let gotcha = &scores("mustard trace races")[0];
        assert_eq!(gotcha.2, vec!["race"]);
        let conv = &scores("mustard")[2];
        assert_eq!(conv.0, MemoryType::Convention);
        assert!(conv.2.is_empty());
        assert!(!has_signal("ran the tests"));
    }

    #[test]
    fn forms_of_one_word_count_once() {
        // "fail", "fails" and "failed" all match "failing" by stem.
        let gotcha = &scores("the nightly job keeps failing")[0];
        assert_eq!(gotcha.0, MemoryType::Gotcha);
        assert!((gotcha.1 - 2.0).abs() < 1e-9, "{gotcha:?}");
    }

    #[test]
    fn plain_statements_of_a_cause_a_choice_or_a_stopgap_are_typed() {
        let cases = [
            (
                "Replace gorilla/mux with chi, since mux is archived and chi keeps the net/http handlers.",
                MemoryType::Decision,
            ),
            (
                "The cause: the pool defaults to num_cpus*2+1 connections, which is why half the queries timed out.",
                MemoryType::Gotcha,
            ),
            (
                "As a stopgap the report runs its queries in chunks of 4 until the pgbouncer rollout lands.",
                MemoryType::Working,
            ),
            (
                "Follows the usual resolver layout: schema in graphql/schema/, resolver in graphql/resolvers/, loaders in graphql/loaders/.",
                MemoryType::Pattern,
            ),
            (
                "First step toward dropping Python 3.8 entirely in the 5.0 release.",
                MemoryType::Goal,
            ),
            (
                "Anything the widget reads has to be written via SettingsStore from now on.",
                MemoryType::Convention,
            ),
            // `never` before a verb of the third person describes a trap;
            // before a bare verb it is a rule.
            (
                "queryset.update() skips save(), so post_save never fires and the audit signal is lost.",
                MemoryType::Gotcha,
            ),
            (
                "Never call queryset.update() on audited models; loop and save() instead.",
                MemoryType::Convention,
            ),
            (
                "Never focus the search box on mount; screen readers lose their place.",
                MemoryType::Convention,
            ),
        ];
        for (text, want) in cases {
            let c = classify(text, None, None);
            assert_eq!(c.kind, want, "{text}: {c:?}");
            assert!(c.score >= MIN_TYPE_SCORE, "{text}: {c:?}");
        }
    }

    #[test]
    fn a_heading_or_lead_in_leans_towards_its_type() {
        assert_eq!(heading_type("Decisions:"), Some(MemoryType::Decision));
        assert_eq!(heading_type("## Known pitfalls"), Some(MemoryType::Gotcha));
        assert_eq!(heading_type("Next steps"), Some(MemoryType::Working));
        assert_eq!(heading_type("What I learned:"), Some(MemoryType::Gotcha));
        assert_eq!(heading_type("Remaining steps:"), Some(MemoryType::Working));
        assert_eq!(heading_type("Notes:"), None);
        assert_eq!(
            heading_type("Project Layout and Architecture"),
            Some(MemoryType::Pattern)
        );
        assert_eq!(
            heading_type("Architecture decision records"),
            Some(MemoryType::Decision)
        );
        let text = "Use FIFO queues for billing events since ordering matters.";
        assert!(classify(text, None, None).score < MIN_TYPE_SCORE);
        let hinted = classify(text, None, Some(MemoryType::Decision));
        assert_eq!(hinted.kind, MemoryType::Decision);
        assert!(!hinted.explicit);
        // A strong signal of another type still wins over the hint.
        let strong =
            "Watch out: the retry loop silently double charges when the gateway times out.";
        assert_eq!(
            classify(strong, None, Some(MemoryType::Decision)).kind,
            MemoryType::Gotcha
        );
    }

    #[test]
    fn an_explicit_prefix_decides() {
        let c = classify(
            "the cache key includes the locale",
            Some(MemoryType::Gotcha),
            None,
        );
        assert_eq!(c.kind, MemoryType::Gotcha);
        assert!(c.explicit);
    }
}
