//! The evidence the reviewer gathers on one stored memory: similarities,
//! scope relation, replacement and additive wording, shared terms, changed
//! values, distinct subjects and the words only the two memories share. The
//! rules that turn it into a relation and a decision are in `classify.rs`.
//!
//! *Shared terms*: identifiers, code spans and measures both memories name
//! (`defer cancel()` and `CancelFunc` against "the cancel func"; "20%" against
//! `0.2`; see [`text::terms`] and [`text::quantities`]), at least two, or one
//! with whole texts alike (`whole ≥ SAME_TOPIC_TEXT`), and `combined ≥
//! RESTATED`. Lexical similarity misses a rephrasing that keeps the names and
//! numbers but changes the words around them; `whole` is the similarity of
//! title, summary and detail together, identifiers split into their words.
//!
//! *Changed value* (see `values.rs`): a value the target states (a number
//! with its unit, a version, a time of day, a default) that the candidate
//! states differently about the same thing. Folding "1%" into "10%", like
//! "use uv" into "use pip-tools", would make a memory that contradicts
//! itself.
//!
//! Replacement wording is about the target only when what it says is replaced
//! is named in the target (more than half of the words after "instead of",
//! "no longer", "replaces", "moved off", "went from", "moved jobs from",
//! before "replaced by", "in favour of", "is gone", "moved to", "now lives
//! in", around "deprecated", "switched off", "was removed",
//! "decommissioned", "destroyed"..., see [`text::replacements`]; identifiers
//! count with their words, so "the high-level REST client is retired" names
//! `RestHighLevelClient`), or when it only refers back ("we no longer do it
//! this way") in a candidate about the same thing (`combined ≥ RELATED`). A
//! phrase the target itself uses about the same thing ("use date-fns instead
//! of Moment.js" repeated) is part of the rule, not a replacement of it. So
//! "partial writes" is no "partial update", "the index API replaces the whole
//! document" does not replace a memory about `_update`, and "round with
//! `HALF_EVEN` instead of `HALF_UP`" does not replace "use `BigDecimal` for
//! money". It names the target *clearly* when what it replaces holds one of
//! the target's identifiers or paths, or a word of the target's title said
//! in the candidate's title or with a second word of the target; such a
//! replacement holds in any scope and for any type.
//!
//! *Claims and additions* (see `subject.rs` and `addition.rs`): whether the
//! candidate repeats every content word of the target's title with the same
//! polarity (an update of that rule), and how many of the target's words an
//! additive reference names ("Adding to the 500 ms IWDG note").

use std::cell::OnceCell;
use std::collections::{BTreeMap, BTreeSet};

use crate::matching;
use crate::model::Memory;

use super::addition;
use super::novalue;
use super::subject::{self, Distinct};
use super::text::{
    self, ADDITIVE_WORDING, Quantity, REPLACEMENT_WORDING, Replaced, Term, find_phrases, similarity,
};
use super::values::{self, ValueChange, Values};
use super::{Evidence, ScopeRelation};

/// Combined similarity at or above which two memories say the same thing.
pub const DUPLICATE: f64 = 0.85;
/// Combined similarity at or above which two memories are about the same thing.
pub const RELATED: f64 = 0.5;
/// Combined similarity below which memories are unrelated.
pub const OVERLAP: f64 = 0.35;
/// Combined similarity from which a replacement clause that restates a
/// memory's title replaces it, although the rest of the text is new.
pub(super) const RESTATED: f64 = 0.25;

/// Summary similarity from which a candidate that trades words with the
/// target without adding any retells it (see [`Scored::traded`]); a
/// summary that shares only the vocabulary ("the terraform-locks table"
/// with another reason around it) stays under it.
pub(super) const RETOLD: f64 = 0.7;

/// Whole-text similarity from which one shared term (with the combined
/// similarity at [`RESTATED`]) says two memories are about the same thing.
pub(super) const SAME_TOPIC_TEXT: f64 = OVERLAP;

/// Phrases of a title that report a change as done (see
/// [`Features::title_reports_change`]).
const REPORTED_CHANGES: &[&str] = &[
    "renamed to",
    "renamed from",
    "moved to",
    "moved from",
    "moved into",
    "relocated to",
    "switched to",
    "switched from",
    "migrated to",
    "migrated from",
    "replaced by",
    "replaced with",
    "was removed",
    "were removed",
    "is deleted",
    "was dropped",
];

/// Phrases that say a practice holds from here on, in place of another.
const FROM_NOW_ON: &[&str] = &["from now on", "going forward", "from here on"];

/// Verbs of a title that report a change as done, wherever their object
/// stands ("Session data moved server-side into Redis").
const MOVED: &[&str] = &["moved", "migrated", "renamed", "relocated"];

/// Comparatives that say a value moved (see [`Features::title_compares`]).
const COMPARATIVES: &[&str] = &[
    "shorter", "longer", "higher", "lower", "smaller", "larger", "bigger", "fewer", "faster",
    "slower", "stricter", "looser", "tighter",
];

/// What the rules need of one memory's text, computed once per memory.
#[derive(Clone, Debug)]
pub(super) struct Features {
    /// Title, summary and detail.
    text: String,
    /// [`text::code_words`] of the text, for finding the other's terms.
    code_words: Vec<String>,
    /// The topic tokens of the text, identifiers split into their words.
    topic: BTreeSet<String>,
    /// Identifiers and code spans.
    terms: Vec<Term>,
    /// Numbers with their units.
    quantities: Vec<Quantity>,
    /// The topic tokens of the title.
    title_tokens: BTreeSet<String>,
    /// The clauses of title and summary, for opposite words.
    head_clauses: Vec<Vec<String>>,
    /// Replacement phrases, found when first needed.
    replacements: OnceCell<Vec<Replaced>>,
    /// The [`text::root`]s of the whole memory (text and tags).
    pub(super) roots: BTreeSet<String>,
    /// The title as [`values::frame_tokens`], for aligning two titles.
    frame: Vec<String>,
    /// The values it states.
    values: Values,
    /// It elaborates a rule ("Why …", "also applies to", "same rule as").
    pub(super) elaborates: bool,
    /// Why it has no durable value, when it only reports activity.
    pub(super) no_value: Option<String>,
    /// The replacement phrases of the title.
    title_replacements: Vec<Replaced>,
    /// What the title claims, found when first needed.
    claim: OnceCell<subject::Claim>,
    /// The sentences of the text, for finding another memory's claim, found
    /// when first needed.
    sentences: OnceCell<Vec<subject::Sentence>>,
    /// Where the title ends in `text` (the summary and detail follow a line
    /// break later).
    title_len: usize,
    /// How many characters `text` has (see [`Scored::tells_more`]).
    chars: usize,
    /// Words the text turns down: those right after "not", "never",
    /// "don't", "rather than", "instead of", "avoid" ("Testcontainers, not
    /// H2"), or that it calls past ("the old", "deprecated").
    rejected: BTreeSet<String>,
    /// The words its title turns down ("…, not H2").
    title_rejected: BTreeSet<String>,
    /// What additive references name ("adding to the 500 ms watchdog
    /// note"), found when first needed.
    added_to: OnceCell<Vec<BTreeSet<String>>>,
    /// The [`text::root`]s of the title, found when first needed.
    title_roots: OnceCell<BTreeSet<String>>,
    /// What the text sets itself apart from ([`set_apart_words`]), found
    /// when first needed.
    apart: OnceCell<BTreeSet<String>>,
    /// The addresses it names ([`addresses`]), found when first needed.
    addresses: OnceCell<Vec<String>>,
    /// Whether it says where things are now ([`MOVE_WORDS`]), found when
    /// first needed.
    says_where: OnceCell<bool>,
    /// Whether it says something moved ([`MOVE_VERBS`]), found when first
    /// needed.
    says_moved: OnceCell<bool>,
    /// The [`text::root`]s of each clause of summary and detail, found when
    /// first needed (see [`Scored::brings_clause`]).
    body_clauses: OnceCell<Vec<BTreeSet<String>>>,
}

impl Features {
    pub(super) fn of(m: &Memory) -> Features {
        let text = format!("{}\n{}\n{}", m.title, m.summary, m.detail);
        let code_words = text::code_words(&text);
        let topic = code_words
            .iter()
            .filter(|w| !text::is_stopword(w))
            .cloned()
            .collect();
        let mut roots = text::roots(&text);
        roots.extend(m.tags.iter().flat_map(|t| text::roots(t)));
        let values = Values::of(
            &m.title,
            &format!("{}\n{}", m.summary, m.detail),
            roots.clone(),
        );
        Features {
            roots,
            frame: values::frame_tokens(&m.title),
            values,
            elaborates: subject::elaborates(&m.title, &text),
            // A rule file is guidance written for agents: a section of it
            // is never a report of work, however it opens ("Chore: typos,
            // comments, …" defines a kind of change).
            no_value: (m.provenance.source != crate::model::Source::Import)
                .then(|| novalue::no_durable_value(&m.title, &m.summary, &m.detail))
                .flatten(),
            title_replacements: text::replacements(&m.title),
            claim: OnceCell::new(),
            sentences: OnceCell::new(),
            title_len: m.title.len(),
            chars: text.chars().count(),
            rejected: rejected_words(&text),
            title_rejected: rejected_words(&m.title),
            added_to: OnceCell::new(),
            title_roots: OnceCell::new(),
            apart: OnceCell::new(),
            addresses: OnceCell::new(),
            says_where: OnceCell::new(),
            says_moved: OnceCell::new(),
            body_clauses: OnceCell::new(),
            terms: text::terms(&text),
            quantities: text::quantities(&text),
            title_tokens: text::tokens(&m.title),
            replacements: OnceCell::new(),
            head_clauses: text::clauses(&format!("{}\n{}", m.title, m.summary)),
            code_words,
            topic,
            text,
        }
    }
}

impl Features {
    /// Whether the text has no additive wording ("also", "in addition").
    pub(super) fn additive_wording_free(&self) -> bool {
        find_phrases(&self.text, ADDITIVE_WORDING).is_empty()
    }

    /// Whether the text turns down what a replacement phrase of another
    /// memory names, in words of its own ("…, not H2" against "instead of
    /// H2"): both say it, nothing is replaced.
    fn turns_down(&self, r: &Replaced) -> bool {
        // What its title turns down, or most of what the phrase names: one
        // shared word of the body ("fill ACF fields instead of JS block
        // controls") does not turn down the "ACF Blocks" a candidate says
        // were dropped.
        !r.refers_back()
            && r.objects.iter().any(|o| {
                o.iter().any(|w| self.title_rejected.contains(w))
                    || 2 * o.iter().filter(|w| self.rejected.contains(*w)).count() > o.len()
            })
    }

    /// Whether the text carves an exception out of a rule (see
    /// [`text::EXCEPTION_WORDING`]).
    pub(super) fn carves_exception(&self) -> bool {
        !find_phrases(&self.text, text::EXCEPTION_WORDING).is_empty()
    }

    /// Whether the text says a value changed ("now", "raised to").
    pub(super) fn says_changed(&self) -> bool {
        self.values.change_worded
    }

    /// Whether the text states this value (see [`Values::states`]).
    pub(super) fn states_value(&self, value: &values::Value, about: usize) -> bool {
        self.values.states(value, about)
    }

    /// The whole text (title, summary, detail), lowercase, computed once.
    pub(super) fn lower(&self) -> &str {
        self.values.lower()
    }

    /// Whether the text names this value as a past one ("(was 2000)", "from
    /// 10 s"): it knows that value as what was.
    pub(super) fn names_as_past(&self, value: &values::Value) -> bool {
        values::names_as_past(&self.values, value)
    }

    /// The [`text::root`]s of the paths both texts name
    /// (`config/environments/test.rb`): where two rules live, not what they
    /// say.
    pub(super) fn shared_path_roots(&self, other: &Features) -> BTreeSet<String> {
        self.terms
            .iter()
            .filter(|t| t.text.contains('/') && other.terms.iter().any(|o| o.text == t.text))
            .flat_map(|t| t.words.iter().map(|w| text::root(w)))
            .collect()
    }

    /// Whether the title says how things stand now ("Trivy gate now fails
    /// only on fixable CRITICAL CVEs"): a present state that replaces an
    /// earlier one.
    pub(super) fn title_says_now(&self) -> bool {
        text::words(&self.text[..self.title_len])
            .iter()
            .any(|w| w == "now")
    }

    /// Whether the title says something was replaced or moved ("… moved to
    /// a new vendor", "We dropped the old HTTP client").
    pub(super) fn announces_replacement(&self) -> bool {
        !self.title_replacements.is_empty()
    }

    /// Whether the text proposes something rather than tells how things
    /// are: "we should", "let's", "proposal", "we could", "would cut the
    /// bill", "worth adding" (see [`PROPOSING`]), or a title that opens by
    /// telling what to do ("Use tabs …", "Move prod Cosmos to serverless").
    pub(super) fn proposes(&self) -> bool {
        let title = &self.text[..self.title_len];
        !text::find_phrases(&self.text, PROPOSING).is_empty()
            || title
                .split_whitespace()
                .next()
                .is_some_and(|w| PROPOSING_VERBS.contains(&w.to_lowercase().as_str()))
    }

    /// Whether the title says how things stand now, or the text says what
    /// holds from now on ("From now on every signal is connected in
    /// `_ready()`"): a new state that replaces an earlier one.
    pub(super) fn says_now(&self) -> bool {
        self.title_says_now() || !text::find_phrases(&self.text, FROM_NOW_ON).is_empty()
    }

    /// Whether the title reports a change as done ("Postgres DSN env var
    /// renamed to `APP_DB_DSN`", "Linker script relocated to boards/"): news
    /// about a memory, never the same knowledge in other words. Rules that
    /// turn something down ("… instead of …", "stop …") are not reports.
    pub(super) fn title_reports_change(&self) -> bool {
        // "Demo data has its own task now", "… is per-board now", "Session
        // data moved server-side into Redis".
        let title = &self.text[..self.title_len];
        !text::find_phrases(title, REPORTED_CHANGES).is_empty()
            || self.title_says_now()
            || text::words(title)
                .iter()
                .any(|w| MOVED.iter().any(|m| text::stem(m) == *w))
    }

    /// The [`text::root`]s of the title.
    fn title_roots(&self) -> &BTreeSet<String> {
        self.title_roots
            .get_or_init(|| text::roots(&self.text[..self.title_len]))
    }

    /// What the text sets itself apart from; in an addition ("… also
    /// needed …") not what it says does not help.
    fn apart(&self) -> &BTreeSet<String> {
        self.apart
            .get_or_init(|| set_apart_words(&self.text, self.additive_wording_free()))
    }

    /// The addresses the text names.
    fn addresses(&self) -> &[String] {
        self.addresses.get_or_init(|| addresses(&self.text))
    }

    /// Whether the text says where things are now: "moved", "now", "is
    /// gone", "folded into" (see [`MOVE_WORDS`]).
    fn says_where(&self) -> bool {
        *self.says_where.get_or_init(|| {
            text::words(&self.text)
                .iter()
                .any(|w| MOVE_WORDS.iter().any(|m| text::root(w).starts_with(m)))
                // A title about where a thing lives: "Where the Playwright
                // suite lives".
                || text::words(&self.text[..self.title_len])
                    .iter()
                    .any(|w| text::root(w).starts_with("liv"))
        })
    }

    /// Whether the text says in a verb that something moved: "moved",
    /// "renamed", "relocated", "migrated" (see [`MOVE_VERBS`]), not "now".
    /// The roots of each clause of summary and detail.
    fn body_clauses(&self) -> &[BTreeSet<String>] {
        self.body_clauses.get_or_init(|| {
            text::clause_texts(&self.text[self.title_len..])
                .iter()
                .map(|clause| text::roots(clause))
                .collect()
        })
    }

    fn says_moved(&self) -> bool {
        *self.says_moved.get_or_init(|| {
            text::words(&self.text)
                .iter()
                .any(|w| MOVE_VERBS.iter().any(|m| text::root(w).starts_with(m)))
        })
    }

    /// Whether the title compares a value with what it was ("Shorter
    /// access-token lifetime", "Fewer retries for …") and the text adds
    /// nothing in words of an addition: news of a change, not a repeat.
    pub(super) fn title_compares(&self) -> bool {
        // "must be longer than the handler time" states a rule, not a move.
        let words: Vec<String> = self.text[..self.title_len]
            .split(|c: char| !c.is_alphanumeric())
            .filter(|w| !w.is_empty())
            .map(str::to_lowercase)
            .collect();
        self.additive_wording_free()
            && words.iter().enumerate().any(|(i, w)| {
                COMPARATIVES.contains(&w.as_str())
                    && !words[i + 1..].iter().take(4).any(|n| n == "than")
            })
    }

    /// What the title claims (see [`subject::Claim`]).
    fn claim(&self) -> &subject::Claim {
        self.claim
            .get_or_init(|| subject::Claim::of(&self.text[..self.title_len]))
    }

    /// The sentences of the memory (see [`subject::sentences`]).
    fn sentences(&self) -> &[subject::Sentence] {
        self.sentences.get_or_init(|| {
            let (title, body) = self.text.split_at(self.title_len);
            subject::sentences(title, &body[1..])
        })
    }

    /// How many of `words` the additive reference of the text that names
    /// the most of them names (see [`addition::added_to`]); a reference
    /// of one word that the target's title holds (`$fillable` of "Models
    /// declare $fillable"), or spells out ("PDB" of "Multi-replica
    /// workloads get a `PodDisruptionBudget`"), names the memory as well as
    /// two.
    fn added_words(&self, words: &BTreeSet<String>, target: &Features) -> usize {
        let title = &target.title_tokens;
        let written = &target.text[..target.title_len];
        self.added_to
            .get_or_init(|| addition::added_to(&self.text))
            .iter()
            .map(|o| {
                let n = o.intersection(words).count();
                if o.len() == 1
                    && o.iter()
                        .all(|w| title.contains(w) || addition::spelled_out(w, written))
                {
                    n.max(2)
                } else {
                    n
                }
            })
            .max()
            .unwrap_or(0)
    }

    /// The replacement phrases of the memory's text, whatever they are about.
    pub(super) fn replacements(&self) -> &[Replaced] {
        self.replacements
            .get_or_init(|| text::replacements(&self.text))
    }
}

/// The words a text turns down (see [`Features::rejected`]): the first two
/// topic words after a word of refusal or of something past ("the old"), in
/// one clause.
fn rejected_words(text: &str) -> BTreeSet<String> {
    const REFUSALS: &[&[&str]] = &[
        &["not"],
        &["never"],
        &["avoid"],
        &["don", "t"],
        &["rather", "than"],
        &["instead", "of"],
        // What it already calls past: "(e.g. the old `Repo.ctx` field)".
        &["the", "old"],
        &["the", "former"],
        &["the", "previous"],
        &["the", "legacy"],
        &["deprecat"],
        // What it says another thing took the place of: "ruff replaces
        // flake8 and isort" (words are stemmed: "replaces" is `replace`).
        &["replace"],
    ];
    let mut out = BTreeSet::new();
    for clause in text::clause_texts(text) {
        let w = text::words(clause);
        for i in 0..w.len() {
            let Some(len) = REFUSALS
                .iter()
                .find(|r| w.len() >= i + r.len() && r.iter().zip(&w[i..]).all(|(a, b)| a == b))
                .map(|r| r.len())
            else {
                continue;
            };
            // The first two topic words: "not by calling alembic".
            out.extend(
                w[i + len..]
                    .iter()
                    .filter(|x| !text::is_stopword(x) && x.chars().count() > 1)
                    .take(2)
                    .cloned(),
            );
        }
    }
    out
}

/// The topic roots a text sets itself apart from ("this is separate from
/// the CPU policy", "unlike the push prompt"): the first three words after
/// such a phrase, in its clause; or the last three before a phrase that
/// says it is no remedy ("disabling broadcast does not help").
fn set_apart_words(text: &str, no_remedy: bool) -> BTreeSet<String> {
    const APART: &[&str] = &[
        "separate from ",
        "distinct from ",
        "independent of ",
        "unrelated to ",
        "different from ",
        "unlike ",
        "not to be confused with ",
    ];
    // What it says is no remedy here: "disabling broadcast does not help".
    const NO_REMEDY: &[&str] = &[
        " does not help",
        " doesn't help",
        " didn't help",
        " did not help",
        " won't help",
        " will not help",
    ];
    let mut out = BTreeSet::new();
    for clause in text::clause_texts(text) {
        let lower = clause.to_lowercase();
        for phrase in NO_REMEDY.iter().filter(|_| no_remedy) {
            if let Some(at) = lower.find(phrase) {
                let before: Vec<&str> = lower[..at].split_whitespace().collect();
                let head = before[before.len().saturating_sub(3)..].join(" ");
                out.extend(
                    text::roots(&head)
                        .into_iter()
                        .filter(|w| !subject::generic(w)),
                );
            }
        }
        for phrase in APART {
            let mut from = 0;
            while let Some(at) = lower[from..].find(phrase) {
                let start = from + at;
                let after = &lower[start + phrase.len()..];
                let before_ok = start == 0 || !lower.as_bytes()[start - 1].is_ascii_alphanumeric();
                if before_ok {
                    let head: String = after
                        .split_whitespace()
                        .take(4)
                        .collect::<Vec<_>>()
                        .join(" ");
                    out.extend(
                        text::roots(&head)
                            .into_iter()
                            .filter(|w| !subject::generic(w))
                            .take(3),
                    );
                }
                from = start + phrase.len();
            }
        }
    }
    out
}

/// Whether `candidate` sets itself apart from something the title of
/// `target` names (see [`set_apart_words`]).
fn sets_apart(candidate: &Features, target: &Features) -> bool {
    let title = target.title_roots();
    candidate.apart().iter().any(|w| text::has_root(title, w))
}

/// The evidence on one target with the signals the rules use but the report
/// does not show.
#[allow(
    clippy::struct_excessive_bools,
    reason = "each flag is an independent signal the rules read by name"
)]
#[derive(Clone, Debug)]
pub(super) struct Scored {
    /// The reported evidence.
    pub(super) evidence: Evidence,
    /// A replacement phrase of the candidate names (most of) the target's
    /// title: "we no longer deploy with Capistrano from the bastion host".
    pub(super) restates_title: bool,
    /// Opposite words: the candidate says the first where the target says the
    /// second.
    pub(super) opposite: Option<(&'static str, &'static str)>,
    /// Identifiers, code spans and amounts both texts name, as the candidate
    /// writes them, identifiers in backticks: `` `defer cancel()` ``,
    /// `` `CancelFunc` ``, "20% (0.2)".
    pub(super) shared: Vec<String>,
    /// The candidate negates an identifier or code span both name where the
    /// target does not ("never set `verify=False`" against "set
    /// `verify=False`"): it corrects the target rather than repeating it.
    /// Only computed for dismissed targets.
    pub(super) negates_shared: bool,
    /// Similarity of the whole texts (title, summary and detail together).
    pub(super) whole: f64,
    /// The candidate repeats the target's claim: every content word of its
    /// title, with the same polarity (see [`subject::repeats`]).
    pub(super) repeats_claim: Option<subject::Repeat>,
    /// How many words of the target an additive reference of the candidate
    /// names ("Adding to the 500 ms IWDG note" against "Kick the IWDG at
    /// least every 500 ms": 3).
    pub(super) added_words: usize,
    /// A value of the target the candidate states differently.
    pub(super) changed: Option<ValueChange>,
    /// The target is of another type (a decision replacing a convention).
    pub(super) cross_type: bool,
    /// The two are a decision and a convention.
    pub(super) rules_pair: bool,
    /// Of another type that holds the same kind of knowledge (see
    /// [`same_kind`]): a gotcha that states a convention's rule is that
    /// rule, told as a trap.
    pub(super) kin: bool,
    /// The titles share their shape but name different things.
    pub(super) distinct: Option<Distinct>,
    /// The titles share a word that can tell things apart (not "use",
    /// "always", "service"): they may be about the same thing.
    pub(super) titles_share: bool,
    /// The words the candidate brings beyond the target's and the target's
    /// it leaves out (content words, by their roots), when it has no path
    /// or detail of its own: a retelling trades words ("needs" for "must"),
    /// an addition brings words and leaves few out (see
    /// `classify::retells`).
    pub(super) traded: Option<(usize, usize)>,
    /// How many things the candidate names that the target does not: its
    /// identifiers and code spans whose words the target's text lacks, and
    /// its amounts the target never states (see [`new_names`]).
    pub(super) new_names: usize,
    /// A clause of the candidate's body is news to the target: five or
    /// more of its words the target never uses, at most one it does
    /// ("shared mode hides the error but serialises the suite"). A
    /// retelling spreads its new words over the target's own clauses.
    pub(super) brings_clause: bool,
    /// Topic words both memories use and no other memory compared with the
    /// candidate does: what the two have in common that nothing else has.
    pub(super) specific: Vec<String>,
    /// Both titles write one of [`Scored::specific`] as a name (a capital
    /// past the first word, or code): what the two are about ("Adopt GORM
    /// as the ORM" / "Move the repo layer to GORM"), and the candidate
    /// negates none of those words.
    pub(super) titles_specific: bool,
    /// How many words naming what a replacement phrase replaces the target
    /// uses (0 without replacement wording about it).
    pub(super) replaced_words: usize,
    /// The candidate's title says it replaces or moves what the target is
    /// about ("We switched from Jest to Vitest", "Shaders moved to …").
    pub(super) named_in_title: bool,
    /// What a replacement phrase says is replaced holds a whole identifier,
    /// path or code span of the target ("`src/locales/*.json` were
    /// deleted" against a memory about `src/locales`).
    pub(super) names_term: bool,
    /// What a replacement phrase says is replaced holds a word of the
    /// target's title: what the target is about, not a detail of it.
    pub(super) names_title: bool,
    /// The candidate says the files moved (see [`moved_away`]): the
    /// directory of the target's scope its text names, or the file of it
    /// its own scope holds in another place, while it says where things
    /// are now.
    pub(super) moved_from: Option<String>,
    /// A flag or name of the target's title the candidate says is now left
    /// out (see [`dropped_from_title`]): "xrun is called without
    /// -licqueue" against "xrun waits for a seat with -licqueue".
    pub(super) drops: Option<String>,
    /// A flag the target says a thing is done without that the candidate
    /// now passes (see [`added_flag`]): "`ros2 bag record -s mcap`" against
    /// "calls `ros2 bag record` without -s".
    pub(super) adds_flag: Option<String>,
    /// A phrase retiring something names a word of the target's title that
    /// only the target shares with the candidate among the memories compared
    /// ("logrus was dropped" against "API service logs via logrus"): the
    /// replacement names this memory.
    pub(super) names_specific: bool,
    /// Every path and module of the candidate is one the target lists as
    /// written: a narrower scope that picks some of the target's own
    /// entries, not a part carved out of one of them.
    pub(super) listed_in_target: bool,
    /// The candidate's text names the part of the target's scope its own
    /// scope carves out: a word of its paths or modules that neither the
    /// target's scope nor its text has ("webhook" in "Validate webhook
    /// bodies with zod", scoped to `src/api/webhooks/**` under
    /// `src/api/**`). A rule restated while working in one file
    /// (`services/orders/internal/client/inventory.go` under
    /// `services/*/internal/client/**`) names none.
    pub(super) names_part: bool,
    /// The candidate's text (title, summary and detail) is at least
    /// [`TELLS_MORE`] times as long as the target's: merged, it brings
    /// more than the memory holds, where a retelling of about its length
    /// repeats it.
    pub(super) tells_more: bool,
    /// The candidate is less than [`RETELLS`] times as long as the target: a
    /// retelling, not an addition.
    pub(super) tells_no_more: bool,
    /// The titles name different tools of one kind, each unknown to the
    /// other memory ("pnpm store cache …" against "Cargo cache key …"), or
    /// each a capitalised name inside it that the other never uses ("R8
    /// strips Gson model fields" against "R8 full mode breaks Retrofit …"):
    /// words the two share elsewhere do not make them one rule.
    pub(super) tools_apart: bool,
    /// The target's title names something in code (`PodDisruptionBudget`,
    /// `flutter_local_notifications`, `scipy.integrate.odeint`) that the
    /// candidate never writes: words they share elsewhere are about
    /// something else.
    pub(super) title_name_unsaid: bool,
    /// The other way round: the candidate's title names something in code
    /// (`ops-search-degraded`, `~/Library/Caches`) that the target never
    /// writes.
    pub(super) own_title_name_unsaid: bool,
    /// The candidate turns down a word of the target's title that the
    /// target does not turn down ("preview uses preview.proxy, not
    /// server.proxy" against "Vite dev server proxies /api …"): it sets
    /// itself against the target's subject, whatever else the bodies share.
    pub(super) turns_down_title: bool,
    /// One title's content words appear nowhere in the other memory: each
    /// names its own subject ("Location access requested when the Map tab
    /// first opens" against "Ask for push permission after onboarding"),
    /// so words the bodies share do not tie them.
    pub(super) title_unmet: bool,
    /// The candidate says it is apart from something the target's title
    /// names ("this is separate from the CPU policy" against "No CPU limits
    /// on latency-sensitive services"): never folded into it.
    pub(super) set_apart: bool,
    /// The tool (or the place) the candidate's title names in place of the
    /// one the target's title names (see [`tools_switch`], [`place_swap`]).
    pub(super) switches_tool: Option<Switch>,
    /// Each names an address of one scheme the other does not
    /// (`s3://acme-raw-events-prod` against `s3://acme-events-raw-prod-eu`):
    /// two values of one setting, never a repeat.
    pub(super) addresses_differ: bool,
    /// No content word of the candidate's title is a word of the target:
    /// an elaboration ("Why catchup is off") names what it elaborates.
    pub(super) own_title_unmet: bool,
    /// A phrase of the candidate retires something its title names (see
    /// `Replacement::retires_title_word`): never folded into it.
    pub(super) retires_title_word: bool,
    /// A name of the target's text (an address, a file, an identifier) the
    /// candidate calls the old one ("The old mlflow.internal.lumio.io
    /// redirects until October", "Old `gs://ml-dvc` is read-only"): what it
    /// replaces, never folded into it.
    pub(super) calls_old: Option<String>,
    /// A phrase of the candidate retiring something ("has been
    /// decommissioned", "will be deleted") names a word of the target's
    /// title that no other memory compared shares with the candidate: the
    /// candidate may retire what the target is about, so it is never folded
    /// into it.
    pub(super) retires_specific: bool,
    /// A phrase of the candidate reporting a retirement as done ("hot-shots
    /// was removed") names a word of the target's text that no other
    /// memory compared shares with the candidate.
    pub(super) retires_own_word: bool,
    /// The target was written by the same command run as the candidate (an
    /// import of several files): one run states how things are now, so
    /// nothing in it replaces anything else in it.
    pub(super) same_run: bool,
    /// One title is negated ("… are never cached") and the other not ("…
    /// are cached for 60 seconds").
    pub(super) titles_polarity_apart: bool,
    /// The titles open with the same two words and go on differently ("CI
    /// fails on any Ruff warning" / "CI fails on type errors in test
    /// files"): one frame said of two things.
    pub(super) same_opening: bool,
    /// The titles share their shape but name different things (see
    /// [`subject::distinct`]), read even when additive wording or shared
    /// names keep that from making a distinct subject: "CI fails on mix
    /// credo --strict issues … the lint job also runs …" adds nothing to
    /// "CI fails on mix format --check-formatted diffs".
    pub(super) shape_apart: bool,
    /// The candidate's title opens with something the target never names
    /// (see [`opens_apart`]): "The CLI prints user-facing output with
    /// console.log" against "Log with the shared pino logger".
    pub(super) opens_apart: bool,
    /// It opens with a name the target never uses ("D1 read replicas …"
    /// against "KV reads …"): another thing, however alike the bodies.
    pub(super) opens_with_name: bool,
}

impl Scored {
    /// The replacement wording names the target beyond doubt: one of its
    /// identifiers, or a word of its title, said in the candidate's title or
    /// together with another word of the target. Such a replacement holds
    /// wherever the new thing lives and whatever type the candidate has.
    pub(super) fn named_clearly(&self) -> bool {
        !self.evidence.replacement_wording.is_empty()
            && (self.names_term
                || self.names_specific
                || (self.names_title && (self.named_in_title || self.replaced_words >= 2)))
    }

    /// The target is of a type the candidate can replace without naming it
    /// clearly: the same type, or a decision and a convention (both say how
    /// things are done here).
    pub(super) fn kindred(&self) -> bool {
        !self.cross_type || self.rules_pair
    }
}

impl Scored {
    /// Shared terms say the two memories are about the same thing, although
    /// they are worded differently: two or more identifiers, code spans or
    /// amounts in common, or one and a whole-text similarity of at least
    /// [`SAME_TOPIC_TEXT`]; with the combined similarity at least
    /// [`RESTATED`].
    pub(super) fn same_topic(&self) -> bool {
        // A code phrase both quote (`import * as Icons`) says as much as
        // two names.
        let phrase = self
            .shared
            .iter()
            .any(|t| t.starts_with('`') && t.trim_matches('`').contains(' '));
        self.evidence.combined >= RESTATED
            && (self.shared.len() >= 2
                || phrase
                || (self.shared.len() == 1 && self.whole >= SAME_TOPIC_TEXT))
    }

    pub(super) fn shared_list(&self) -> String {
        self.shared.join(", ")
    }
}

/// The text similarities and scope relation of a candidate and one stored
/// memory: what ranks the stored memories before the full evidence is
/// gathered for the closest.
#[derive(Clone, Copy, Debug)]
pub(super) struct Closeness {
    title: f64,
    summary: f64,
    detail: f64,
    /// Weighted overall similarity.
    pub(super) combined: f64,
    /// How the scopes relate.
    pub(super) scope: ScopeRelation,
}

pub(super) fn closeness(candidate: &Memory, target: &Memory) -> Closeness {
    let title = similarity(&candidate.title, &target.title);
    let summary = similarity(&candidate.summary, &target.summary);
    let detail = similarity(&candidate.detail, &target.detail);
    let has_detail = !candidate.detail.trim().is_empty() && !target.detail.trim().is_empty();
    let combined = round(if has_detail {
        0.45 * title + 0.35 * summary + 0.20 * detail
    } else {
        0.55 * title + 0.45 * summary
    });
    Closeness {
        title,
        summary,
        detail,
        combined,
        scope: scope_relation(candidate, target),
    }
}

/// Whether a phrase of the candidate reporting a retirement names a word of
/// the target's title that is in `specific` (see
/// [`Scored::retires_specific`]); not a phrase the target says itself.
fn retires_specific(
    candidate: &Features,
    target: &Features,
    specific: &[String],
    in_title: bool,
) -> bool {
    let own = target.replacements();
    candidate.replacements().iter().any(|r| {
        super::replacement::reports_retirement(r.phrase)
            && (in_title || super::replacement::reported_done(r.phrase))
            && !said_by(own, r)
            && r.objects.iter().flatten().any(|w| {
                (!in_title || target.title_tokens.contains(w)) && specific.contains(&text::root(w))
            })
    })
}

/// Whether one title is negated and the other not.
fn polarity_apart(candidate: &Memory, target: &Memory) -> bool {
    subject::negated(&candidate.title) != subject::negated(&target.title)
}

/// Whether two titles open with the same two words and differ after them.
fn same_opening(a: &str, b: &str) -> bool {
    let (a, b) = (text::words(a), text::words(b));
    a.len() > 2 && b.len() > 2 && a[..2] == b[..2] && a != b
}

/// Whether a word is written as a name: letters with digits (`D1`, `S3`)
/// or two capitals (`KV`, `GraphQL`); not an acronym of a kind of thing
/// ([`KINDS`]: `DB`, `API`).
fn name_like(word: &str) -> bool {
    !KINDS.contains(&word)
        && (word.chars().any(|c| c.is_ascii_digit())
            || word.chars().filter(|c| c.is_uppercase()).count() >= 2)
}

/// Whether every path and module of the candidate is one the target lists
/// as written (and the candidate has some).
fn listed_in(candidate: &Memory, target: &Memory) -> bool {
    let (c, t) = (&candidate.scope, &target.scope);
    (!c.paths.is_empty() || !c.modules.is_empty())
        && c.paths.iter().all(|p| t.paths.contains(p))
        && c.modules.iter().all(|m| t.modules.contains(m))
}

/// See [`Scored::names_part`].
fn names_part(
    candidate: &Memory,
    features: &Features,
    target: &Memory,
    target_features: &Features,
) -> bool {
    let words = |scope: &crate::model::Scope| -> BTreeSet<String> {
        scope
            .paths
            .iter()
            .chain(&scope.modules)
            .flat_map(|p| p.split(|c: char| !c.is_alphanumeric()))
            .filter(|w| w.chars().any(char::is_alphabetic))
            .map(|w| text::root(&w.to_lowercase()))
            .collect()
    };
    let theirs = words(&target.scope);
    words(&candidate.scope).iter().any(|w| {
        !subject::generic(w)
            && !theirs.contains(w)
            && !target_features.roots.contains(w)
            && features.roots.contains(w)
    })
}

/// Whether the candidate's title opens with words the target never uses:
/// its first two words that can tell things apart (not stop words, numbers
/// or [`subject::generic`] words), what the title is about ("The CLI prints
/// …", "Descriptor rings must …"); one known word is enough to be about the
/// target, since a title may open with a verb or an adjective ("Share one
/// Postgres container …", "Golden-logit tests …"), unless the first is a
/// name the target never uses ("D1 read replicas can lag …" against "KV
/// reads after a write can be stale").
fn opens_apart(candidate: &Features, target: &Features) -> (bool, bool) {
    let title = &candidate.text[..candidate.title_len];
    let heads: Vec<(&str, String)> = title
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| w.chars().next().is_some_and(char::is_alphabetic))
        .filter_map(|w| {
            let lower = w.to_lowercase();
            let root = text::root(&lower);
            (!text::is_stopword(&lower) && (name_like(w) || !subject::generic(&root)))
                .then_some((w, root))
        })
        .take(2)
        .collect();
    let unknown = |root: &String| !text::has_root(&target.roots, root);
    // A name opens it ("D1 read replicas can lag"): no verb or adjective is
    // written so.
    let named = heads
        .first()
        .is_some_and(|(raw, root)| name_like(raw) && unknown(root));
    (
        named || (!heads.is_empty() && heads.iter().all(|(_, root)| unknown(root))),
        named,
    )
}

/// Whether the target's title names a thing in code ([`text::terms`]:
/// `PodDisruptionBudget`, `flutter_local_notifications`) that the candidate
/// never writes.
fn title_name_unsaid(target: &Features, candidate: &Features) -> bool {
    text::terms(&target.text[..target.title_len])
        .iter()
        .any(|t| !text::contains_sequence(&candidate.code_words, &t.words))
}

/// Words that propose a change rather than tell how things are (see
/// [`Features::proposes`]).
const PROPOSING: &[&str] = &[
    "should",
    "let's",
    "lets",
    "proposal",
    "propose",
    "proposes",
    "we could",
    "would",
    "worth",
    "suggest",
    "why not",
    "how about",
    "what if",
];

/// Verbs a title that tells what to do opens with ("Use tabs …", "Move
/// prod Cosmos to serverless", "Skip the WNS check …").
const PROPOSING_VERBS: &[&str] = &[
    "use", "move", "switch", "adopt", "drop", "add", "replace", "run", "skip", "disable", "enable",
    "turn", "make", "force", "float", "write", "publish", "carve", "split", "merge", "speed",
    "stop", "remove", "allow", "put", "store", "cache", "retry", "commit", "pin", "unpin",
    "vendor", "mock", "stub", "migrate", "convert", "ignore", "bundle", "record", "rewrite",
    "raise", "lower", "increase", "decrease", "bump", "delete",
];

/// Words that say where things are now: "moved", "now", "is gone",
/// "folded into", "no longer", "renamed", "reorganised".
const MOVE_WORDS: &[&str] = &[
    "mov",
    "now",
    "gon",
    "fold",
    "longer",
    "relocat",
    "locat",
    "renam",
    "reorganiz",
    "reorganis",
    "restructur",
    "migrat",
    // "cli.py became a package".
    "becam",
    "becom",
];

/// Roots of the verbs of a move (see [`Features::says_moved`]).
const MOVE_VERBS: &[&str] = &["mov", "renam", "relocat", "migrat"];

/// The name of the file a path names (`auth.global.ts`), not a pattern.
fn file_name(path: &str) -> Option<&str> {
    let name = path.rsplit('/').next().unwrap_or(path);
    (!name.contains(['*', '?', '[', '{']) && name.contains('.')).then_some(name)
}

/// The file or directory of the target's scope the candidate says things
/// moved out of, if it does. It says where things are now ("now", "moved",
/// "is gone", "folded into"), and either its own paths hold a file of the
/// target's in another place (`app/middleware/auth.global.ts` for
/// `middleware/auth.global.ts`) or under a directory named like the
/// target's file (`config/settings/base.py` for `config/settings.py`), or
/// its text names a directory of the
/// target's paths (`hosts/`, `ops/runbooks`, the `R/` folder) that none of
/// its own paths is in. A path names where a rule lives; naming the old
/// place while living in a new one is a move.
/// Whether `text` (lowercase) names the file `path` after a word of
/// refusal in the same clause: "don't add them to routes/api.php", "not in
/// `settings.py` any more".
fn refuses_path(text: &str, path: &str) -> bool {
    const REFUSING: &[&str] = &[
        "not",
        "don't",
        "never",
        "no longer",
        "instead of",
        "rather than",
    ];
    let path = path.to_lowercase();
    text.match_indices(&path).any(|(i, _)| {
        let before = text[..i].chars().next_back();
        let mut after = text[i + path.len()..].chars();
        let next = after.next();
        // A period ends the sentence, not the path, unless a word follows.
        let extended = next == Some('.') && after.next().is_some_and(char::is_alphanumeric);
        let whole = before
            .is_none_or(|c| !(c.is_alphanumeric() || matches!(c, '/' | '.' | '_' | '-')))
            && next.is_none_or(|c| !(c.is_alphanumeric() || matches!(c, '/' | '_' | '-')))
            && !extended;
        // The clause before the path: back to the last mark that ends one.
        let clause_start = text[..i]
            .char_indices()
            .rev()
            .find(|&(k, c)| {
                matches!(c, ';' | ',' | '\n' | '(' | ')')
                    || (matches!(c, '.' | ':' | '!' | '?')
                        && text[k + 1..].starts_with(char::is_whitespace))
            })
            .map_or(0, |(k, c)| k + c.len_utf8());
        let lead = &text[clause_start..i];
        whole
            && REFUSING.iter().any(|r| {
                lead.match_indices(r).any(|(k, _)| {
                    let b = lead[..k].chars().next_back();
                    let a = lead[k + r.len()..].chars().next();
                    b.is_none_or(|c| !c.is_alphanumeric()) && a.is_none_or(|c| !c.is_alphanumeric())
                })
            })
    })
}

/// Whether a word written before "without" makes it how a thing is done
/// now ("is called without", "runs without", "built without"), not a
/// condition opening a clause ("Without it the clocks wobble") or what a
/// thing lacks ("a job that starts without a free seat" is said of a job).
fn done_without(before: &str) -> bool {
    const DOING: &[&str] = &[
        "is", "are", "run", "runs", "build", "builds", "start", "starts", "ship", "ships", "call",
        "calls", "invoke", "invokes", "launch", "launches",
    ];
    let w = before.to_lowercase();
    (w.len() > 3 && w.ends_with("ed")) || DOING.contains(&w.as_str())
}

/// The flag or name in code of the target's title (`-licqueue`,
/// `--trace`, `CONFIG_FOO`) that the candidate says a thing is now done
/// without ("xrun is called without -licqueue"), when the target's title
/// does not itself say "without".
fn dropped_from_title(candidate_text: &str, target_title: &str) -> Option<String> {
    let title = target_title.to_lowercase();
    if title.split_whitespace().any(|w| w == "without") {
        return None;
    }
    let raw: Vec<&str> = candidate_text.split_whitespace().collect();
    raw.windows(3).find_map(|w| {
        if !w[1].eq_ignore_ascii_case("without")
            || w[0].ends_with([',', ';', ':', '.'])
            || !done_without(w[0].trim_matches(|c: char| !c.is_alphanumeric()))
        {
            return None;
        }
        let name = w[2]
            .trim_end_matches([',', ';', ':', '.', ')'])
            .trim_matches('`');
        let code = name.starts_with('-')
            || name.contains('_')
            || (w[2].starts_with('`') && name.len() >= 3);
        let named = title.split_whitespace().any(|t| {
            t.trim_matches(|c: char| !(c.is_alphanumeric() || matches!(c, '-' | '_')))
                == name.to_lowercase()
        });
        (code && named && name.len() >= 3).then(|| name.to_owned())
    })
}

/// The flag (`-s`, `--no-cache`) that `target_text` says a thing is done
/// without ("calls `ros2 bag record` without -s") and `candidate_text`
/// passes, never after "without" itself: the way it is done changed.
fn added_flag(candidate_text: &str, target_text: &str) -> Option<String> {
    let flag = |w: &str| {
        let name = w
            .trim_end_matches([',', ';', ':', '.', ')'])
            .trim_matches(['`', '\'', '"']);
        (name.starts_with('-')
            && name.len() >= 2
            && name
                .trim_start_matches('-')
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-'))
        .then(|| name.to_owned())
    };
    let raw: Vec<&str> = target_text.split_whitespace().collect();
    let left_out: Vec<String> = raw
        .windows(3)
        // Not a clause that opens with it ("…; without -s it fails").
        .filter(|w| w[1].eq_ignore_ascii_case("without") && !w[0].ends_with([',', ';', ':', '.']))
        .filter_map(|w| flag(w[2]))
        .collect();
    let words: Vec<&str> = candidate_text.split_whitespace().collect();
    left_out.into_iter().find(|name| {
        words.iter().enumerate().any(|(i, w)| {
            flag(w).as_deref() == Some(name.as_str())
                && !(i > 0 && words[i - 1].eq_ignore_ascii_case("without"))
        })
    })
}

/// Verbs by which a file holds what it holds.
const HOLDING: &[&str] = &[
    "is", "are", "has", "have", "holds", "contains", "keeps", "now",
];

/// Whether `text` (lowercase) says the file `name` holds only something,
/// right after naming it and in the same clause: "vcu118.xdc is pins and
/// IOSTANDARDs only", "the root jenkinsfile has only the pr pipeline".
fn holds_only(text: &str, name: &str) -> bool {
    let name = name.to_lowercase();
    if name.len() < 4 {
        return false;
    }
    text.match_indices(&name).any(|(i, _)| {
        let before = text[..i].chars().next_back();
        if before.is_some_and(|c| c.is_alphanumeric() || matches!(c, '/' | '.' | '_' | '-')) {
            return false;
        }
        let rest = &text[i + name.len()..];
        let clause = rest
            .split([';', ',', '\n', '(', ':'])
            .next()
            .unwrap_or_default()
            .split(". ")
            .next()
            .unwrap_or_default();
        let words: Vec<&str> = clause
            .split(|c: char| !(c.is_alphanumeric() || c == '\''))
            .filter(|w| !w.is_empty())
            .collect();
        // "… has only the PR pipeline", or "only" beside the verb a few
        // words on: "envs/ at the repo root only keeps dev.yml".
        let verb = |w: &str| ["has", "have", "holds", "contains", "keeps"].contains(&w);
        let adjacent = words
            .iter()
            .take(7)
            .collect::<Vec<_>>()
            .windows(2)
            .any(|w| (*w[0] == "only" && verb(w[1])) || (verb(w[0]) && *w[1] == "only"));
        adjacent
            || (words.first().is_some_and(|w| HOLDING.contains(w))
                && words.iter().take(9).skip(1).any(|w| *w == "only"))
    })
}

/// Whether `text` names `path` only as the end of a longer path
/// (`dev/tools/phpstan/phpstan.neon` for `phpstan.neon`), at least once.
fn names_only_elsewhere(text: &str, path: &str) -> bool {
    let mut elsewhere = false;
    for (i, _) in text.match_indices(path) {
        let after = text[i + path.len()..].chars().next();
        if after.is_some_and(|c| c.is_alphanumeric() || matches!(c, '/' | '_' | '-')) {
            continue;
        }
        match text[..i].chars().next_back() {
            Some('/') => elsewhere = true,
            Some(c) if c.is_alphanumeric() || matches!(c, '.' | '_' | '-') => {}
            _ => return false,
        }
    }
    elsewhere
}

/// A file or directory of the target's paths (see [`moved_away`]) that the
/// candidate says holds only something else, while its own paths are
/// elsewhere.
fn said_to_hold_only_else(own: &[String], target_paths: &[String], lower: &str) -> Option<String> {
    // The old file (a path's last part, `Jenkinsfile` too) said to hold only
    // something else while the candidate's own paths name another file:
    // "`vcu118.xdc` is pins and IOSTANDARDs only", "the root Jenkinsfile has
    // only the PR pipeline".
    if own
        .iter()
        .any(|o| file_name(o).is_some() && !target_paths.contains(o))
        && let Some(old) = target_paths
            .iter()
            .filter(|t| !t.contains(['*', '?', '[', '{']))
            .find(|t| holds_only(lower, t.rsplit('/').next().unwrap_or(t)))
    {
        return Some(old.clone());
    }
    // A directory of the target's paths said to hold only something else,
    // none of the candidate's paths in it: "tests/ now only holds the
    // pipeline-level tests".
    if let Some(old) = target_paths.iter().find(|t| {
        let dirs: Vec<&str> = t
            .split('/')
            .take_while(|s| !s.contains(['*', '?', '[', '{']))
            .collect();
        let top = dirs
            .len()
            .saturating_sub(usize::from(file_name(t).is_some()));
        (1..=top).any(|n| {
            let dir = dirs[..n].join("/");
            own.iter().all(|o| !o.starts_with(&format!("{dir}/")))
                && holds_only(lower, &format!("{dir}/"))
        })
    }) {
        return Some(old.clone());
    }
    None
}

fn moved_away(candidate: &Memory, features: &Features, target: &Memory) -> Option<String> {
    let own = &candidate.scope.paths;
    if own.is_empty() || target.scope.paths.is_empty() {
        return None;
    }
    let lower = features.lower();
    if let Some(old) = said_to_hold_only_else(own, &target.scope.paths, lower) {
        return Some(old);
    }
    // A module that became a package: `config/settings/base.py` for
    // `config/settings.py`, `src/api/orders.ts` for `src/api.ts`.
    // Its paths say so, whatever the words.
    if let Some(old) = target.scope.paths.iter().find(|t| {
        // The last `.` of a path with a file name is that name's.
        file_name(t)
            .and_then(|_| t.rsplit_once('.'))
            .is_some_and(|(stem, _)| own.iter().any(|o| o.starts_with(&format!("{stem}/"))))
    }) {
        return Some(old.clone());
    }
    if !features.says_where() {
        return None;
    }
    // The same file in a new place: `app/middleware/auth.global.ts` for
    // `middleware/auth.global.ts`; the same tree under a new root:
    // `db/clickhouse/migrations/**` for `clickhouse/migrations/**`.
    if let Some(old) = target.scope.paths.iter().find(|t| {
        own.iter()
            .any(|o| o.len() > t.len() && o.ends_with(&format!("/{t}")))
    }) {
        return Some(old.clone());
    }
    // The same file named in the text in a new place, never where it was:
    // "`dev/tools/phpstan/phpstan.neon`" for `phpstan.neon`.
    if let Some(old) = target.scope.paths.iter().find(|t| {
        !t.contains(['*', '?', '[', '{'])
            && file_name(t).is_some()
            && !own.contains(*t)
            && names_only_elsewhere(lower, &t.to_lowercase())
    }) {
        return Some(old.clone());
    }
    // The old file's name written only under another directory, the old
    // path never: `src/nav/bringup/params/nav2_params.yaml` for
    // `config/nav2/nav2_params.yaml`. A name of one word (`main.nf`,
    // `values.yaml`) is the same file of many directories, not one moved.
    if let Some(old) = target.scope.paths.iter().find(|t| {
        !t.contains(['*', '?', '[', '{'])
            && t.contains('/')
            && !own.contains(*t)
            && !lower.contains(&t.to_lowercase())
            && file_name(t).is_some_and(|name| {
                let stem = name.rsplit_once('.').map_or(name, |(stem, _)| stem);
                stem.contains(['_', '-', '.']) && names_only_elsewhere(lower, &name.to_lowercase())
            })
    }) {
        return Some(old.clone());
    }
    // (A pattern's file name, `app/**/router.py`, names every file it
    // matches, not one that moved.)
    let literal = |t: &str| !t.contains(['*', '?', '[', '{']);
    if let Some(old) = target.scope.paths.iter().find(|t| {
        literal(t)
            && file_name(t).is_some_and(|name| {
                !own.contains(*t) && own.iter().any(|o| file_name(o) == Some(name))
            })
    }) {
        return Some(old.clone());
    }
    // A file that gave way to another of its kind in the same tree, which
    // the candidate never names again: `dags/orders/daily_load.py` "now"
    // for `dags/daily_orders_etl.py` under the same title; under another
    // title, a name that shares a word and a word of a move ("the shared
    // pipeline moved": `ci.yml` for `ci-reusable.yml`).
    let stem_words = |p: &str| -> BTreeSet<String> {
        file_name(p)
            .and_then(|n| n.rsplit_once('.'))
            .map(|(stem, _)| text::roots(&stem.replace(['_', '-'], " ")))
            .unwrap_or_default()
    };
    let same_title = text::words(&candidate.title) == text::words(&target.title);
    if let Some(old) = target.scope.paths.iter().find(|t| {
        literal(t)
            && !own.contains(*t)
            && file_name(t).is_some_and(|name| !lower.contains(&name.to_lowercase()))
            && own.iter().any(|o| {
                literal(o)
                    && !target.scope.paths.contains(o)
                    && o.split('/').next() == t.split('/').next()
                    && o.rsplit_once('.').map(|(_, e)| e) == t.rsplit_once('.').map(|(_, e)| e)
                    && (same_title
                        || (features.says_moved() && !stem_words(o).is_disjoint(&stem_words(t))))
            })
    }) {
        return Some(old.clone());
    }
    // The old file turned down by name: "webhooks are in routes/webhooks.php
    // now - don't add them to routes/api.php".
    if let Some(old) = target
        .scope
        .paths
        .iter()
        .find(|t| file_name(t).is_some() && !own.contains(*t) && refuses_path(lower, t))
    {
        return Some(old.clone());
    }
    left_directory(own, &target.scope.paths, lower)
}

/// A directory of the target's paths (`hosts/`, `ops/runbooks`, the `R/`
/// folder) that `lower` (the candidate's text) names and none of its own
/// paths is in (see [`moved_away`]).
fn left_directory(own: &[String], target_paths: &[String], lower: &str) -> Option<String> {
    target_paths.iter().find_map(|path| {
        let segments: Vec<&str> = path.split('/').collect();
        // The directories before the first pattern or the file name.
        let dirs: Vec<&str> = segments[..segments.len().saturating_sub(1)]
            .iter()
            .take_while(|s| !s.contains(['*', '?', '[', '{']))
            .copied()
            .collect();
        if dirs.is_empty() {
            return None;
        }
        let dir = dirs.join("/").to_lowercase();
        let elsewhere = own
            .iter()
            .all(|p| !p.to_lowercase().starts_with(&format!("{dir}/")));
        // Named as a directory: "hosts/", "ops/runbooks", "the R/ folder".
        let named = lower.match_indices(&dir).any(|(i, _)| {
            let before = lower[..i].chars().next_back();
            let after = lower[i + dir.len()..].chars().next();
            before.is_none_or(|c| !(c.is_alphanumeric() || matches!(c, '/' | '.' | '_' | '-')))
                && (after == Some('/')
                    || (dirs.len() >= 2
                        && after.is_none_or(|c| !c.is_alphanumeric() && c != '-' && c != '_')))
        });
        (elsewhere && named).then(|| format!("{}/", dirs.join("/")))
    })
}

/// Whether the candidate turns down a word of the target's title that the
/// target does not turn down (see [`Scored::turns_down_title`]).
fn turns_down_title(candidate: &Features, target: &Features) -> bool {
    candidate
        .rejected
        .iter()
        .any(|w| target.title_roots().contains(w) && !target.rejected.contains(w))
}

/// Whether no content word of `a`'s title ([`text::root`]s that are not
/// [`subject::generic`]) is a word of `b`.
fn title_unmet(a: &Features, b: &Features) -> bool {
    a.title_roots()
        .iter()
        .filter(|w| !subject::generic(w))
        .all(|w| !text::has_root(&b.roots, w))
}

/// Whether two types hold the same kind of knowledge: any two of decision,
/// convention, gotcha and pattern (how things are done here and why, told
/// as a choice, a rule, a trap or a recipe; which one capture picks is a
/// guess), or one type twice. A goal and a working note are each their own.
pub(super) fn same_kind(a: crate::model::MemoryType, b: crate::model::MemoryType) -> bool {
    use crate::model::MemoryType::{Goal, Working};
    a == b || !(matches!(a, Goal | Working) || matches!(b, Goal | Working))
}

/// Whether one is a decision and the other a convention: two ways to write
/// down a rule.
fn rules_pair(a: crate::model::MemoryType, b: crate::model::MemoryType) -> bool {
    use crate::model::MemoryType::{Convention, Decision};
    matches!((a, b), (Decision, Convention) | (Convention, Decision))
}

#[allow(
    clippy::too_many_lines,
    reason = "one field per signal, each from its own function"
)]
pub(super) fn evidence(
    candidate: &Memory,
    features: &Features,
    target: &Memory,
    target_features: &Features,
    closeness: Closeness,
    specific: Vec<String>,
) -> Scored {
    let Closeness {
        title,
        summary,
        detail,
        combined,
        scope,
    } = closeness;
    let target_words = text::tokens(&target_features.text);
    let (adds_information, traded) =
        adds_information(candidate, features, target, target_features, &closeness);
    let Replacement {
        phrases: replacement_wording,
        restates_title,
        named: replaced_words,
        in_title: named_in_title,
        names_term,
        names_title,
        retired_title,
        retires_title_word,
    } = replacement_of(features, target_features, &target_words, combined);
    let retires_own_word = retires_specific(features, target_features, &specific, false);
    let retires_specific = retires_specific(features, target_features, &specific, true);
    let opens = opens_apart(features, target_features);
    let names_specific = any_specific(retired_title.iter(), &specific);
    let titles_specific = titles_specific(features, target_features, &specific);
    let shared = shared_terms(features, target_features);
    let own_title_unmet = title_unmet(features, target_features);
    let (tools_apart, switches_tool) = tools_of(candidate, features, target, target_features);
    let (changed, distinct, shape_apart) =
        change_or_distinct(candidate, features, target, target_features, &shared);
    let evidence = Evidence {
        target: target.id.clone(),
        target_status: target.status,
        same_identity: candidate.kind == target.kind
            && text::words(&candidate.title) == text::words(&target.title),
        scope,
        title,
        summary,
        detail,
        combined,
        replacement_wording,
        additive_wording: owned(find_phrases(&features.text, ADDITIVE_WORDING)),
        adds_information,
        newer: candidate.provenance.captured_at > target.provenance.captured_at,
        lineage_link: candidate.lineage.supersedes.contains(&target.id),
        changed_value: changed.as_ref().map(ValueChange::describe),
        distinct_subject: distinct.as_ref().map(Distinct::describe),
    };
    Scored {
        evidence,
        restates_title,
        opposite: text::opposite_in_clauses(&features.head_clauses, &target_features.head_clauses),
        shared,
        negates_shared: target.status == crate::model::Status::Dismissed
            && negates_shared(features, target_features),
        whole: round(text::jaccard(&features.topic, &target_features.topic)),
        added_words: features.added_words(&target_words, target_features),
        repeats_claim: subject::repeats(
            features.sentences(),
            &features.roots,
            target_features.claim(),
        ),
        changed,
        titles_share: titles_share(features, target_features),
        traded,
        new_names: new_names(features, target_features),
        brings_clause: brings_clause(features, target_features),
        cross_type: candidate.kind != target.kind,
        kin: candidate.kind != target.kind && same_kind(candidate.kind, target.kind),
        rules_pair: rules_pair(candidate.kind, target.kind),
        distinct,
        specific,
        titles_specific,
        replaced_words,
        named_in_title,
        names_term,
        names_title,
        moved_from: moved_away(candidate, features, target),
        drops: dropped_from_title(&features.text, &target.title),
        adds_flag: added_flag(&features.text, &target_features.text),
        names_specific,
        title_name_unsaid: title_name_unsaid(target_features, features),
        own_title_name_unsaid: title_name_unsaid(features, target_features),
        turns_down_title: turns_down_title(features, target_features),
        set_apart: sets_apart(features, target_features),
        switches_tool,
        addresses_differ: addresses_differ(features.addresses(), target_features.addresses()),
        own_title_unmet,
        title_unmet: own_title_unmet || title_unmet(target_features, features),
        same_opening: same_opening(&candidate.title, &target.title),
        opens_apart: opens.0,
        opens_with_name: opens.1,
        shape_apart,
        retires_specific,
        retires_own_word,
        same_run: super::same_run(candidate, target),
        titles_polarity_apart: polarity_apart(candidate, target),
        retires_title_word,
        calls_old: calls_old(features, target_features),
        tools_apart,
        listed_in_target: listed_in(candidate, target),
        names_part: names_part(candidate, features, target, target_features),
        tells_more: TELLS_MORE.1 * features.chars >= TELLS_MORE.0 * target_features.chars,
        tells_no_more: RETELLS.1 * features.chars < RETELLS.0 * target_features.chars,
    }
}

/// How much longer than the memory it merges into a candidate must be to
/// add to it rather than repeat it (see [`Scored::tells_more`]): 7/5, 1.4
/// times its length.
pub(super) const TELLS_MORE: (usize, usize) = (7, 5);

/// Under how many times the length of the memory it merges into a
/// candidate retells it rather than adds to it (see
/// [`Scored::tells_no_more`]): 6/5, 1.2 times its length.
pub(super) const RETELLS: (usize, usize) = (6, 5);

/// Whether the titles share a word that is not generic.
fn titles_share(features: &Features, target_features: &Features) -> bool {
    features
        .title_tokens
        .intersection(&target_features.title_tokens)
        .any(|w| !subject::generic(&text::root(w)))
}

/// The value the candidate changes, how its subject differs from the
/// target's (see [`subject::distinct`], [`names_apart`]), if it does, and
/// whether the titles' shapes differ in what they name at all
/// ([`Scored::shape_apart`]).
fn change_or_distinct(
    candidate: &Memory,
    features: &Features,
    target: &Memory,
    target_features: &Features,
    shared: &[String],
) -> (Option<ValueChange>, Option<Distinct>, bool) {
    let changed = values::change(&features.values, &target_features.values);
    // "USPS DIM divisor is 166" against "FedEx/UPS DIM divisor is 139": the
    // same kind of value of another named thing, no change.
    let named_apart = changed.as_ref().and_then(|_| {
        names_apart(
            &candidate.title,
            &target.title,
            &features.roots,
            &target_features.roots,
            values::says_change(&features.roots) || !features.replacements().is_empty(),
        )
    });
    // "statement_timeout for the **api** role is 30s" against "… for the
    // **reporting** role is 15 minutes": the value of another one of a kind.
    let named_apart = named_apart.or_else(|| {
        changed.as_ref().and_then(|c| {
            setting_unnamed(candidate, features, &c.subject).or_else(|| {
                qualifiers_apart(
                    &candidate.title,
                    &target.title,
                    &c.subject,
                    &features.roots,
                    &target_features.roots,
                )
            })
        })
    });
    let changed = changed.filter(|_| named_apart.is_none());
    // Two memories that name the same two identifiers, code spans or
    // measured amounts (`adc2_get_raw`, `ESP_ERR_TIMEOUT`) are about one
    // thing, however differently their titles go on.
    // A file both name is where the things are set, not one of them.
    let named_alike = shared
        .iter()
        .filter(|t| t.starts_with('`') && !t.contains('/'))
        .count()
        >= 2;
    // The shape is read whatever else the candidate says; additive wording
    // and shared names only keep it from making a distinct subject.
    // A word the candidate only turns down ("rather than touching the
    // liveness probes") is no word it shares with the target.
    let turned_down: BTreeSet<String> = features.rejected.iter().map(|w| text::root(w)).collect();
    let own_roots: BTreeSet<String> = features.roots.difference(&turned_down).cloned().collect();
    let shape = subject::distinct(
        &features.frame,
        &target_features.frame,
        &own_roots,
        &target_features.roots,
    );
    let shape_apart = shape.is_some();
    // Shared names are the setting, not the subject, when the titles differ
    // in a proper name ("Staging and UAT use different
    // **RabbitMQ** vhosts" / "… **OpenSearch** index prefixes", both naming
    // `/acme_stg` and `/acme_uat`).
    let names_the_difference = shape.as_ref().is_some_and(|d| {
        title_name(&candidate.title, &d.candidate) || title_name(&target.title, &d.target)
    });
    let distinct = if find_phrases(&features.text, ADDITIVE_WORDING).is_empty()
        && !features.elaborates
        && (!named_alike || names_the_difference)
    {
        shape
    } else {
        None
    }
    // A value both titles state over the same other words is what differs
    // ("Loudness target is -14 LUFS" / "Loudness normalised to -16 LUFS"),
    // unless the difference opens the titles.
    .filter(|d| {
        d.leading
            || !changed
                .as_ref()
                .is_some_and(|c| c.in_titles && c.strength.0 == 3)
    })
    .or(named_apart);
    (changed, distinct, shape_apart)
}

/// A name the candidate calls old ("the old `X`", "previous X", "former
/// X") that the target's text holds: a word with an inner `.`, `/`, `:` or
/// `_`, an address, a file or an identifier, not a plain word ("the old
/// tests"). "An old X" is an X that is old ("a DAG with an old
/// `start_date`"), not the one before.
fn calls_old(candidate: &Features, target: &Features) -> Option<String> {
    let lower = candidate.lower();
    let target_text = target.lower();
    let words: Vec<&str> = lower.split_whitespace().collect();
    (0..words.len().saturating_sub(1)).find_map(|i| {
        let article = i.checked_sub(1).map(|j| words[j]);
        if !matches!(words[i], "old" | "previous" | "former") || matches!(article, Some("a" | "an"))
        {
            return None;
        }
        let name = words[i + 1]
            .trim_matches(|c: char| matches!(c, '`' | '\'' | '"' | '(' | ')' | ',' | ';'))
            .trim_end_matches(['.', ':']);
        let named = name.len() >= 4
            && name
                .trim_matches(['.', '/', ':', '_'])
                .contains(['.', '/', ':', '_'])
            && target_text.contains(name);
        named.then(|| name.to_owned())
    })
}

/// Whether a title holds `root` as a proper name past its first word: a
/// capitalised word in mixed case (`RabbitMQ`, `PCIe`, `Amazon`).
fn title_name(title: &str, root: &str) -> bool {
    inner_names(title).any(|w| text::code_words(w).iter().any(|p| text::root(p) == root))
}

/// The words of a title past its first that are capitalised and hold a
/// lowercase letter: names (`RabbitMQ`, `Retrofit`), not acronyms of kinds
/// of things ("ZIP codes").
fn inner_names(title: &str) -> impl Iterator<Item = &str> {
    title
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .skip(1)
        .filter(|w| {
            w.chars().next().is_some_and(char::is_uppercase) && w.chars().any(char::is_lowercase)
        })
}

/// Acronyms of kinds of things, not names of one.
const KINDS: &[&str] = &[
    "API", "APIs", "CI", "CD", "CLI", "CPU", "CSS", "DB", "DBs", "DNS", "GPU", "HTML", "HTTP",
    "HTTPS", "ID", "IDs", "IO", "IP", "JSON", "JWT", "ORM", "OS", "PR", "PRs", "RAM", "SDK", "SQL",
    "SSL", "TCP", "TLS", "UDP", "UI", "URL", "URLs", "UX", "VM", "XML", "YAML",
];

/// The proper names a title holds: acronyms (`USPS`, `AWS`) and words
/// capitalised inside as brands are (`FedEx`, `WeasyPrint`), not
/// identifiers (`minSdk`).
fn title_names(title: &str) -> impl Iterator<Item = &str> {
    // A name says what the title is about when it opens it ("USPS DIM
    // divisor …"), not when it tells of a circumstance ("… behind
    // PgBouncer").
    title
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .take(2)
        .filter(|w| !KINDS.contains(w))
        .filter(|w| {
            let mut letters = w.chars().filter(|c| c.is_alphabetic());
            letters.next().is_some_and(char::is_uppercase)
                && w.chars().filter(|c| c.is_alphabetic()).count() >= 2
                && letters.any(char::is_uppercase)
        })
}

/// A name each title holds that the other memory never mentions, if both
/// have one: two named things (`USPS` where it says `FedEx`), not one thing
/// stated twice. Against such a name, the other title's capitalised first
/// word counts as one when its memory never uses it (`Helm` where it says
/// `AWS`).
fn names_apart(
    candidate_title: &str,
    target_title: &str,
    candidate_roots: &BTreeSet<String>,
    target_roots: &BTreeSet<String>,
    says_change: bool,
) -> Option<Distinct> {
    let own = |title: &'_ str, other_title: &str, other: &BTreeSet<String>| {
        let other_words: Vec<String> = other_title
            .split(|c: char| !c.is_alphanumeric())
            .map(str::to_lowercase)
            .collect();
        title_names(title)
            .find(|n| {
                let n = n.to_lowercase();
                !other.contains(&text::root(&n)) && !other_words.contains(&n)
            })
            .map(str::to_owned)
    };
    // Against a name the other title holds, a title's first word, when the
    // other memory never uses it, names another thing too ("Helm provider
    // held at 2.12.x" against "AWS provider pinned to ~> 5.40").
    let head = |title: &str, other: &BTreeSet<String>| {
        title
            .split(|c: char| !c.is_alphanumeric())
            .find(|w| !w.is_empty())
            .filter(|w| {
                w.chars().next().is_some_and(char::is_uppercase)
                    && w.chars().all(char::is_alphabetic)
                    && !text::is_stopword(&w.to_lowercase())
                    && !subject::generic(&text::root(w))
                    // "Raised the Stripe client timeout": a verb of change
                    // opens it, no name.
                    && !values::says_change(&BTreeSet::from([text::root(w)]))
                    && !text::has_root(other, &text::root(w))
            })
            .map(str::to_owned)
    };
    if let Some(apart) =
        identifiers_apart(candidate_title, target_title, candidate_roots, target_roots)
    {
        return Some(apart);
    }
    let (candidate, target) = match (
        own(candidate_title, target_title, target_roots),
        own(target_title, candidate_title, candidate_roots),
    ) {
        (Some(c), Some(t)) => (c, t),
        (Some(c), None) => (c, head(target_title, candidate_roots)?),
        (None, Some(t)) => (head(candidate_title, target_roots)?, t),
        // "**Refresh** tokens expire after 15 days" against "**Access**
        // tokens live 15 minutes": the same noun after two first words,
        // the target's nowhere in the candidate and the candidate's not in
        // the target's title, in a candidate that says nothing changed.
        (None, None) if says_change => return None,
        (None, None) => {
            let opening = |title: &str| -> Vec<String> {
                title
                    .split(|c: char| !c.is_alphanumeric())
                    .filter(|w| !w.is_empty())
                    .take(2)
                    .map(|w| text::root(&w.to_lowercase()))
                    .collect()
            };
            let (c, t) = (opening(candidate_title), opening(target_title));
            let target_title_roots = text::roots(target_title);
            if c.len() < 2 || t.len() < 2 || c[1] != t[1] || subject::generic(&c[1]) {
                return None;
            }
            let target = head(target_title, candidate_roots)?;
            let candidate = head(candidate_title, &target_title_roots)?;
            (candidate, target)
        }
    };
    Some(Distinct {
        candidate,
        target,
        leading: true,
    })
}

/// A changed value's subject that is a setting (`snake_case`) the
/// candidate never names (`idle_in_transaction_session_timeout` against a
/// candidate on `statement_timeout`): not the value it changes. Of a dotted
/// path, its last name counts (`retention_period` of
/// `limits_config.retention_period`).
fn setting_unnamed(candidate: &Memory, features: &Features, subject: &str) -> Option<Distinct> {
    let lower = subject.to_lowercase();
    let setting = lower.rsplit(['.', ':', '/']).next().unwrap_or_default();
    if !setting.trim_matches('_').contains('_') || features.lower().contains(setting) {
        return None;
    }
    let own = candidate
        .title
        .split(|ch: char| !ch.is_alphanumeric() && ch != '_')
        .find(|w| w.trim_matches('_').contains('_'))
        .unwrap_or("another setting");
    Some(Distinct {
        candidate: own.to_owned(),
        target: subject.to_owned(),
        leading: true,
    })
}

/// Two titles whose changed value's subject follows a different word in
/// each, when neither memory ever uses the other's word: "`statement_timeout`
/// for the **api** role is 30s" / "… for the **reporting** role is 15
/// minutes" are two roles, not one role's new value.
fn qualifiers_apart(
    candidate_title: &str,
    target_title: &str,
    subject: &str,
    candidate_roots: &BTreeSet<String>,
    target_roots: &BTreeSet<String>,
) -> Option<Distinct> {
    let subject = text::root(&subject.to_lowercase());
    if subject.is_empty() || subject::generic(&subject) {
        return None;
    }
    let before = |title: &str| -> Option<String> {
        let words: Vec<String> = title
            .split(|c: char| !c.is_alphanumeric() && c != '_')
            .filter(|w| !w.is_empty())
            .map(str::to_lowercase)
            .collect();
        let at = words.iter().position(|w| text::root(w) == subject)?;
        // A title's first word is as often a verb ("Support Python 3.9",
        // "Dropped Python 3.9") as a name.
        let word = words.get(at.checked_sub(1).filter(|i| *i > 0)?)?;
        let root = text::root(word);
        (!text::is_stopword(word)
            && !subject::generic(&root)
            && !root.starts_with(char::is_numeric))
        .then_some(root)
    };
    let (candidate, target) = (before(candidate_title)?, before(target_title)?);
    (candidate != target
        && !text::has_root(target_roots, &candidate)
        && !text::has_root(candidate_roots, &target))
    .then_some(Distinct {
        candidate,
        target,
        leading: true,
    })
}

/// An identifier a title opens with (`analytics_ro`, `orderService`), and
/// the word after it.
fn opening_identifier(title: &str) -> Option<(&str, String)> {
    let mut words = title
        .split_whitespace()
        .map(|w| w.trim_matches(|c: char| !c.is_alphanumeric() && c != '_'));
    let first = words.next()?;
    let second = words.next()?;
    let identifier = first
        .chars()
        .all(|c| c.is_alphanumeric() || c == '_' || c == '-')
        && (first.trim_matches('_').contains('_')
            || (first.contains('-') && !first.starts_with('-') && !first.ends_with('-'))
            || (first.starts_with(|c: char| c.is_lowercase())
                && first.chars().any(char::is_uppercase)));
    identifier.then(|| (first, text::root(&second.to_lowercase())))
}

/// Two titles that open with two identifiers before the same word
/// ("`leaderboard_app` role has `statement_timeout` 2s" / "`analytics_ro`
/// role gets a 120s statement timeout"), each naming what the other memory
/// never does: two named things of one kind, not one thing stated twice.
fn identifiers_apart(
    candidate_title: &str,
    target_title: &str,
    candidate_roots: &BTreeSet<String>,
    target_roots: &BTreeSet<String>,
) -> Option<Distinct> {
    let (candidate, next) = opening_identifier(candidate_title)?;
    let (target, target_next) = opening_identifier(target_title)?;
    if next != target_next || subject::generic(&next) || candidate.eq_ignore_ascii_case(target) {
        return None;
    }
    // The parts only one identifier has, of which the other memory must
    // not name them all.
    let (own, theirs) = (text::roots(candidate), text::roots(target));
    let unsaid = |mine: &BTreeSet<String>, other: &BTreeSet<String>, roots: &BTreeSet<String>| {
        mine.difference(other)
            .any(|p| !roots.contains(p) && !subject::generic(p))
    };
    (unsaid(&own, &theirs, target_roots) && unsaid(&theirs, &own, candidate_roots)).then(|| {
        Distinct {
            candidate: candidate.to_owned(),
            target: target.to_owned(),
            leading: true,
        }
    })
}

/// Tools of one kind: two titles naming different members of one family
/// ("pnpm store cache …" and "Cargo cache key …") are about two things,
/// however many words their texts share. The flag says a project uses one
/// member for one job (a test runner for its unit tests, a logger, a
/// bundler), where databases, linters and formatters, queues, platforms and
/// monitors serve side by side (`cargo fmt` and `cargo clippy` before a
/// push).
const FAMILIES: &[(&[&str], bool)] = &[
    (
        &[
            "npm",
            "pnpm",
            "yarn",
            "bun",
            "cargo",
            "pip",
            "uv",
            "poetry",
            "pipenv",
            "conda",
            "maven",
            "gradle",
            "sbt",
            "bundler",
            "composer",
            "nuget",
            "cocoapods",
            "gem",
            "go",
        ],
        true,
    ),
    (
        &[
            "postgres",
            "postgresql",
            "mysql",
            "mariadb",
            "sqlite",
            "mongodb",
            "redis",
            "cassandra",
            "dynamodb",
            "elasticsearch",
            "opensearch",
            "clickhouse",
            "snowflake",
            "bigquery",
        ],
        false,
    ),
    (
        &[
            "jest",
            "vitest",
            "mocha",
            "pytest",
            "unittest",
            "junit",
            "testng",
            "rspec",
            "minitest",
            "playwright",
            "cypress",
            "selenium",
            "phpunit",
            "pest",
            "kotest",
            "xctest",
            "exunit",
            "googletest",
            "gtest",
            "catch2",
            "nunit",
            "xunit",
            "mstest",
        ],
        true,
    ),
    (
        &[
            "eslint",
            "prettier",
            "biome",
            "ruff",
            "black",
            "flake8",
            "pylint",
            "mypy",
            "clippy",
            "rustfmt",
            "fmt",
            "gofmt",
            "golangci",
            "rubocop",
            "ktlint",
            "detekt",
            "checkstyle",
            "spotless",
            "stylelint",
            "swiftlint",
            "swiftformat",
            "shellcheck",
            "hadolint",
            "tflint",
            "credo",
            "phpstan",
            "psalm",
            "isort",
            "pyright",
            "markdownlint",
            "yamllint",
            "sqlfluff",
        ],
        false,
    ),
    (
        &[
            "kafka", "rabbitmq", "sqs", "sns", "nats", "pubsub", "kinesis", "celery", "sidekiq",
        ],
        false,
    ),
    (
        &[
            "aws",
            "gcp",
            "azure",
            "heroku",
            "vercel",
            "netlify",
            "fly",
            "cloudflare",
        ],
        true,
    ),
    (
        &[
            "react", "vue", "svelte", "angular", "solid", "preact", "nextjs", "nuxt", "remix",
            "astro",
        ],
        true,
    ),
    (
        &[
            "webpack",
            "vite",
            "rollup",
            "esbuild",
            "parcel",
            "turbopack",
            "swc",
            "babel",
        ],
        true,
    ),
    (
        &[
            "docker",
            "podman",
            "kubernetes",
            "k8s",
            "helm",
            "terraform",
            "pulumi",
            "ansible",
        ],
        false,
    ),
    (
        &[
            "ios", "android", "macos", "windows", "linux", "web", "desktop",
        ],
        false,
    ),
    (
        &[
            "logrus",
            "zap",
            "zerolog",
            "slog",
            "log4j",
            "logback",
            "slf4j",
            "winston",
            "pino",
            "bunyan",
            "loguru",
            "structlog",
            "serilog",
            "nlog",
        ],
        true,
    ),
    (
        &[
            "mlflow",
            "wandb",
            "neptune",
            "comet",
            "tensorboard",
            "clearml",
        ],
        true,
    ),
    (&["h2", "hsqldb", "derby", "testcontainers"], false),
    (
        &[
            "github",
            "gitlab",
            "jenkins",
            "circleci",
            "travis",
            "buildkite",
            "teamcity",
            "drone",
        ],
        true,
    ),
    (
        &[
            "sentry",
            "datadog",
            "newrelic",
            "honeycomb",
            "prometheus",
            "grafana",
            "opentelemetry",
        ],
        false,
    ),
];

/// [`family_apart`] and [`tools_switch`] of two memories.
fn tools_of(
    candidate: &Memory,
    features: &Features,
    target: &Memory,
    target_features: &Features,
) -> (bool, Option<Switch>) {
    let (c, t) = (candidate.title.as_str(), target.title.as_str());
    let (cr, tr) = (&features.roots, &target_features.roots);
    // A title swap in two parts of the tree is two stacks' rules ("Unit
    // tests run with pytest" for `api/`, "… with Jest" for `web/`).
    let one_tree = same_top(&candidate.scope.paths, &target.scope.paths);
    let switch = tools_switch(c, t, cr, tr)
        .map(|(new, old, title_swap)| Switch {
            new: new.to_owned(),
            old: old.to_owned(),
            title_swap: title_swap && one_tree,
        })
        .or_else(|| place_swap(candidate, features, target, target_features));
    (family_apart(c, t, cr, tr), switch)
}

/// Whether two scopes lie in one part of the tree: either is unscoped, or
/// they share a top-level directory, or both hold files at the root
/// (`jest.config.ts`, `vitest.config.ts`).
fn same_top(a: &[String], b: &[String]) -> bool {
    let tops = |paths: &[String]| -> BTreeSet<String> {
        paths
            .iter()
            .map(|p| {
                p.split_once('/')
                    .map_or_else(String::new, |(top, _)| top.to_owned())
            })
            .collect()
    };
    a.is_empty() || b.is_empty() || !tops(a).is_disjoint(&tops(b))
}

/// What the candidate's title names in place of what the target's names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Switch {
    /// As the candidate's title names it.
    pub(super) new: String,
    /// As the target's title names it.
    pub(super) old: String,
    /// The titles differ in nothing else: "Unit tests run with Vitest" /
    /// "… with Jest", "Dependency versions in libs.versions.toml" / "… in
    /// buildSrc".
    pub(super) title_swap: bool,
}

/// A title that says the target's word for word but for the place it
/// names, each place the one its memory's paths are in ("Dependency
/// versions in libs.versions.toml", `gradle/libs.versions.toml`, against
/// "Dependency versions in buildSrc", `buildSrc/src/main/kotlin/…`), when
/// neither memory names the other's place: the rule moved.
fn place_swap(
    candidate: &Memory,
    features: &Features,
    target: &Memory,
    target_features: &Features,
) -> Option<Switch> {
    // Lowercase, with the word as written.
    let tokens = |title: &str| -> BTreeMap<String, String> {
        title
            .split_whitespace()
            .map(|w| w.trim_matches(|c: char| !c.is_alphanumeric()))
            .filter(|w| !w.is_empty() && !text::is_stopword(&w.to_lowercase()))
            .map(|w| (w.to_lowercase(), w.to_owned()))
            .collect()
    };
    let (c, t) = (tokens(&candidate.title), tokens(&target.title));
    let only = |a: &BTreeMap<String, String>, b: &BTreeMap<String, String>| {
        let mut own = a.iter().filter(|(k, _)| !b.contains_key(*k));
        match (own.next(), own.next()) {
            (Some((k, w)), None) => Some((k.clone(), w.clone())),
            _ => None,
        }
    };
    let ((new, new_written), (old, old_written)) = (only(&c, &t)?, only(&t, &c)?);
    let in_paths = |word: &str, memory: &Memory| {
        memory
            .scope
            .paths
            .iter()
            .any(|p| p.split('/').any(|seg| seg.eq_ignore_ascii_case(word)))
    };
    let names = |f: &Features, word: &str| f.lower().contains(word);
    // Two files of two languages (`flags.ts`, `Flags.kt`) are two
    // platforms' rules, not one that moved.
    let extension = |w: &str| w.rsplit_once('.').map(|(_, e)| e.to_owned());
    let languages_apart =
        matches!((extension(&new), extension(&old)), (Some(a), Some(b)) if a != b);
    (c.keys().filter(|k| t.contains_key(*k)).count() >= 2
        && !languages_apart
        && in_paths(&new, candidate)
        && in_paths(&old, target)
        && !names(features, &old)
        && !names(target_features, &new))
    .then_some(Switch {
        new: new_written,
        old: old_written,
        title_swap: true,
    })
}

/// The lowercase words of a title, as written (for finding tool names).
fn title_words(title: &str) -> BTreeSet<String> {
    title
        .split(|c: char| !c.is_alphanumeric())
        .map(str::to_lowercase)
        .collect()
}

/// Whether a memory whose [`text::root`]s are `roots` uses the word `w`.
fn knows(roots: &BTreeSet<String>, w: &str) -> bool {
    roots.contains(w) || roots.contains(&text::root(w))
}

/// Whether the candidate's title names a tool the target never mentions,
/// of the family of one the target's title names and the candidate mentions
/// too ("Logging goes through log/slog's JSON handler … depguard flags any
/// logrus import" against "Log with logrus using the JSON formatter"), or
/// in a title that says what the target's says of the same thing, word
/// for word but for the tool ("Unit tests run with Vitest" against "Unit
/// tests run with Jest"): a switch from one to the other, never the same
/// knowledge retold. The flag says the titles differ only in the tool.
fn tools_switch(
    candidate_title: &str,
    target_title: &str,
    candidate_roots: &BTreeSet<String>,
    target_roots: &BTreeSet<String>,
) -> Option<(&'static str, &'static str, bool)> {
    let (c, t) = (title_words(candidate_title), title_words(target_title));
    let (c_roots, t_roots) = (text::roots(candidate_title), text::roots(target_title));
    FAMILIES.iter().find_map(|&(family, one_job)| {
        let new = family
            .iter()
            .find(|m| c.contains(**m) && !knows(target_roots, m))?;
        let swap = |old: &str| {
            let rest = |roots: &BTreeSet<String>, tool: &str| -> BTreeSet<String> {
                roots
                    .iter()
                    .filter(|r| **r != text::root(tool) && **r != tool)
                    .cloned()
                    .collect()
            };
            let (own, theirs) = (rest(&c_roots, new), rest(&t_roots, old));
            one_job && own.len() >= 2 && own == theirs && !knows(candidate_roots, old)
        };
        let old = family
            .iter()
            .find(|m| *m != new && t.contains(**m) && (knows(candidate_roots, m) || swap(m)))?;
        Some((*new, *old, swap(old)))
    })
}

/// The family members each title names that the other memory never does,
/// from one family (see [`FAMILIES`]), or names written capitalised inside
/// each title (not its first word, not an acronym) that the other memory
/// never uses.
fn family_apart(
    candidate_title: &str,
    target_title: &str,
    candidate_roots: &BTreeSet<String>,
    target_roots: &BTreeSet<String>,
) -> bool {
    let (c, t) = (title_words(candidate_title), title_words(target_title));
    let in_family = FAMILIES.iter().any(|(family, _)| {
        let own = |title: &BTreeSet<String>, other: &BTreeSet<String>| {
            family
                .iter()
                .any(|m| title.contains(*m) && !knows(other, m))
        };
        own(&c, target_roots) && own(&t, candidate_roots)
    });
    // A name written capitalised inside each title ("R8 strips Gson model
    // fields" / "R8 full mode breaks Retrofit suspend functions"), unknown
    // to the other memory: two named things of one kind.
    let proper = |title: &str, other: &BTreeSet<String>| {
        inner_names(title).any(|w| {
            w.chars().filter(|c| c.is_alphabetic()).count() >= 3
                && !knows(other, &w.to_lowercase())
                // `SyncWorker` is known to a text that writes it, whose roots
                // hold its parts.
                && !text::code_words(w).iter().all(|p| knows(other, p))
        })
    };
    in_family || (proper(candidate_title, target_roots) && proper(target_title, candidate_roots))
}

/// Words of what a replacement phrase retires that name no thing: who
/// did it ("nobody", "anyone") and by what way ("through", "via").
const OBJECT_FILLER: &[&str] = &[
    "nobody",
    "anybody",
    "anyone",
    "everyone",
    "everybody",
    "someone",
    "somebody",
    "through",
    "via",
    "any",
    "every",
];

/// Words that join what a text says without adding to it: "rather than"
/// for "instead of" adds nothing.
const CONNECTIVES: &[&str] = &[
    "rather",
    "than",
    "instead",
    "whereas",
    "therefore",
    "thus",
    "hence",
    "though",
    "although",
    "however",
    "otherwise",
    "anyway",
    "since",
    "because",
    "about",
    "around",
    "roughly",
    "approximately",
    "nearly",
];

/// How many things the candidate names that the target does not: an
/// identifier or code span some word of which the target's text never uses
/// (`MultiSubnetFailover=True` against a memory of the listener's address),
/// and an amount the target does not state (`~21 s`). A retelling names what
/// the memory names; an addition brings names of its own.
fn new_names(features: &Features, target_features: &Features) -> usize {
    let known: BTreeSet<&str> = target_features
        .code_words
        .iter()
        .map(String::as_str)
        .collect();
    let terms = features
        .terms
        .iter()
        .filter(|t| t.words.iter().any(|w| !known.contains(w.as_str())))
        .count();
    let amounts = features
        .quantities
        .iter()
        .filter(|q| !target_features.quantities.iter().any(|o| o.same_amount(q)))
        .count();
    terms + amounts
}

/// Whether a clause of the candidate's summary or detail is news to the
/// target (see [`Scored::brings_clause`]).
fn brings_clause(features: &Features, target_features: &Features) -> bool {
    features.body_clauses().iter().any(|clause| {
        let (new, known) =
            clause
                .iter()
                .filter(|w| w.chars().count() >= 3)
                .fold((0, 0), |(new, known), w| {
                    if text::has_root(&target_features.roots, w) {
                        (new, known + 1)
                    } else {
                        (new + 1, known)
                    }
                });
        new >= 5 && known <= 1
    })
}

/// Whether the candidate adds to the target: two or more new summary words
/// (not another form of one the target uses: "starts" for "started"),
/// tags, paths or modules the target lacks, or a detail of its own; and
/// the words it trades with it ([`Scored::traded`]).
fn adds_information(
    candidate: &Memory,
    features: &Features,
    target: &Memory,
    target_features: &Features,
    closeness: &Closeness,
) -> (bool, Option<(usize, usize)>) {
    let content = |w: &String| {
        w.chars().count() >= 3 && !text::is_stopword(w) && !CONNECTIVES.contains(&w.as_str())
    };
    let new_words = text::tokens(&candidate.summary)
        .difference(&text::tokens(&target_features.text))
        .filter(|w| content(w) && !text::has_root(&target_features.roots, &text::root(w)))
        .count();
    let new_paths = candidate
        .scope
        .paths
        .iter()
        .any(|p| !target.scope.paths.contains(p));
    let own_detail = !candidate.detail.trim().is_empty() && closeness.detail < DUPLICATE;
    let adds = new_words >= 2
        || candidate.tags.iter().any(|t| !target.tags.contains(t))
        || new_paths
        || candidate
            .scope
            .modules
            .iter()
            .any(|m| !target.scope.modules.contains(m))
        || own_detail;
    // A retelling trades words: for the words it brings, it leaves the
    // target's out ("needs" for "must", "history" for "historical runs");
    // an addition brings words and leaves few out.
    let left_out = text::tokens(&target.summary)
        .iter()
        .filter(|w| content(w) && !text::has_root(&features.roots, &text::root(w)))
        .count();
    (
        adds,
        (!new_paths && !own_detail).then_some((new_words, left_out)),
    )
}

/// The identifiers, code spans and amounts both texts name (see
/// [`Scored::shared`]); a term inside a longer shared one is not counted
/// twice, and an amount counts when it is a measure ("2 s", "20%"), a
/// fraction or at least 10.
fn shared_terms(candidate: &Features, target: &Features) -> Vec<String> {
    let mut found: Vec<&Term> = Vec::new();
    for (terms, other) in [
        (&candidate.terms, &target.code_words),
        (&target.terms, &candidate.code_words),
    ] {
        for t in terms {
            if text::contains_sequence(other, &t.words) && !found.iter().any(|f| f.words == t.words)
            {
                found.push(t);
            }
        }
    }
    let mut out: Vec<String> = found
        .iter()
        .filter(|t| {
            !found.iter().any(|longer| {
                longer.words.len() > t.words.len()
                    && text::contains_sequence(&longer.words, &t.words)
            })
        })
        .map(|t| format!("`{}`", t.text))
        .collect();
    let mut amounts: Vec<&Quantity> = Vec::new();
    // Small counts ("3 attempts") are too common to tell memories apart.
    let distinctive = |q: &Quantity| q.measured || q.value.fract() != 0.0 || q.value >= 10.0;
    for q in &candidate.quantities {
        if amounts.iter().any(|a| a.same_amount(q)) {
            continue;
        }
        if let Some(t) = target
            .quantities
            .iter()
            .find(|t| t.same_amount(q) && (distinctive(q) || distinctive(t)))
        {
            amounts.push(q);
            out.push(if t.text == q.text {
                q.text.clone()
            } else {
                format!("{} ({})", q.text, t.text)
            });
        }
    }
    out
}

/// The addresses a text names (`s3://bucket/prefix`, `https://host/path`),
/// without trailing punctuation.
fn addresses(text: &str) -> Vec<String> {
    text.split(|c: char| c.is_whitespace() || matches!(c, '`' | '"' | '\'' | '(' | ')' | '<' | '>'))
        .filter_map(|w| {
            let (scheme, rest) = w.split_once("://")?;
            (!scheme.is_empty()
                && scheme
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '+')
                && !rest.is_empty())
            .then(|| w.trim_end_matches(['.', ',', ';', ':', '/']).to_owned())
        })
        .collect()
}

/// See [`Scored::addresses_differ`]: an address of a scheme both use, in
/// each text, that the other text does not hold (nor one inside it). Of the
/// addresses of one text, those another of them is inside do not count: a
/// memory naming `user://saves/` and `user://saves/slot_N.json` names the
/// file, and `user://saves/slot_N.sav` is another.
fn addresses_differ(candidate: &[String], target: &[String]) -> bool {
    let specific = |all: &[String]| -> Vec<String> {
        all.iter()
            .filter(|a| {
                !all.iter()
                    .any(|b| b.len() > a.len() && b.starts_with(a.as_str()))
            })
            .cloned()
            .collect()
    };
    let (candidate, target) = (&specific(candidate)[..], &specific(target)[..]);
    let scheme = |a: &str| a.split_once("://").map(|(s, _)| s.to_ascii_lowercase());
    let unknown = |a: &str, other: &[String]| {
        !other
            .iter()
            .any(|o| o.starts_with(a) || a.starts_with(o.as_str()))
    };
    candidate.iter().any(|c| {
        unknown(c, target)
            && target
                .iter()
                .any(|t| scheme(t) == scheme(c) && unknown(t, candidate))
    })
}

/// Whether the candidate negates an identifier or code span that both texts
/// name (a negation among the three words before it in its clause) and the
/// target does not.
fn negates_shared(candidate: &Features, target: &Features) -> bool {
    let negated = |text: &str, words: &[String]| {
        text::clause_texts(text).into_iter().any(|clause| {
            let cw = text::code_words(clause);
            (0..cw.len().saturating_sub(words.len() - 1))
                .filter(|&i| cw[i..i + words.len()] == *words)
                .any(|i| {
                    cw[i.saturating_sub(3)..i]
                        .iter()
                        .any(|w| text::NEGATIONS.contains(&w.as_str()))
                })
        })
    };
    candidate.terms.iter().chain(&target.terms).any(|t| {
        !t.words.is_empty()
            && text::contains_sequence(&candidate.code_words, &t.words)
            && text::contains_sequence(&target.code_words, &t.words)
            && negated(&candidate.text, &t.words)
            && !negated(&target.text, &t.words)
    })
}

/// Whether one of `words` has its root in `specific`.
fn any_specific<'w>(mut words: impl Iterator<Item = &'w String>, specific: &[String]) -> bool {
    words.any(|w| specific.contains(&text::root(w)))
}

/// Whether both titles write a word of `specific` as a name and the
/// candidate negates none of them (see [`Scored::titles_specific`]).
fn titles_specific(candidate: &Features, target: &Features, specific: &[String]) -> bool {
    let own = names_in_title(&candidate.text[..candidate.title_len]);
    let theirs = names_in_title(&target.text[..target.title_len]);
    own.intersection(&theirs).any(|r| specific.contains(r))
        && !negates_specific(candidate, target, specific)
}

/// The roots of the names a title writes as names: past its first word,
/// with a capital (`GORM`, `Hono`, `Eloquent`) or in backticks.
fn names_in_title(title: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for (i, raw) in title.split_whitespace().enumerate() {
        let quoted = raw.starts_with('`');
        let word = raw.trim_matches(|c: char| !c.is_alphanumeric());
        if (i > 0 && word.chars().any(|c| c.is_ascii_uppercase())) || quoted {
            out.extend(text::words(word).iter().map(|w| text::root(w)));
        }
    }
    out
}

/// Whether the candidate negates a word of `specific` (roots only it and
/// the target share) where the target does not: "declines are never
/// retried" against "Retry declined card payments immediately".
fn negates_specific(candidate: &Features, target: &Features, specific: &[String]) -> bool {
    let negated = |text: &str, root: &str| {
        text::clause_texts(text).into_iter().any(|clause| {
            let w = text::words(clause);
            w.iter().enumerate().any(|(i, x)| {
                text::root(x) == root
                    && w[i.saturating_sub(3)..i]
                        .iter()
                        .any(|n| text::NEGATIONS.contains(&n.as_str()))
            })
        })
    };
    specific
        .iter()
        .any(|r| negated(&candidate.text, r) && !negated(&target.text, r))
}

/// Whether the target says the same replacement itself (the same phrase
/// about the same thing): then nothing is replaced.
fn said_by(own: &[Replaced], r: &Replaced) -> bool {
    use super::replacement::retires;
    own.iter().any(|o| {
        // "once the column is gone" and "after the column is removed": one
        // retirement in two words.
        let alike = o.phrase == r.phrase || (retires(o.phrase) && retires(r.phrase));
        alike
            && ((o.refers_back() && r.refers_back())
                || o.objects
                    .iter()
                    .any(|a| r.objects.iter().any(|b| !a.is_disjoint(b))))
    })
}

/// Whether a phrase reports as done ("was removed", "were deleted"; not "a
/// lock is dropped when …") the retirement of something a word of the
/// target's title names.
fn retires_a_title_word(r: &Replaced, title_words: &BTreeSet<String>) -> bool {
    super::replacement::retires(r.phrase)
        && super::replacement::reported_done(r.phrase)
        && r.objects
            .iter()
            .flatten()
            .any(|w| title_words.contains(w) && !subject::generic(&text::root(w)))
}

/// The replacement phrases of `candidate` that are about the target, in
/// [`REPLACEMENT_WORDING`] order, and whether one of them restates the
/// target's title.
///
/// A phrase is about the target when more than half of the words naming what
/// it replaces occur in the target (identifiers count with their words:
/// "the high-level REST client" names `RestHighLevelClient`), or when it only
/// refers back ("we no longer do it this way") and the candidate is about the
/// same thing (`combined ≥ RELATED`). A phrase the target uses itself about
/// the same thing is part of the rule both state, not a replacement.
///
/// A phrase restates the title when it names at least two of the title's
/// words and two thirds of them, or two thirds of those the candidate's own
/// title does not repeat: "worker-01 and its crontab are decommissioned"
/// against "Scheduled jobs run from the crontab on worker-01" under
/// "Scheduled jobs are Kubernetes `CronJobs`".
fn replacement_of(
    candidate: &Features,
    target: &Features,
    target_tokens: &BTreeSet<String>,
    combined: f64,
) -> Replacement {
    let replacements = candidate.replacements();
    if replacements.is_empty() {
        return Replacement::default();
    }
    let mut named = 0;
    let mut in_title = false;
    let mut names_term = false;
    let mut names_title = false;
    let mut retired_title = BTreeSet::new();
    let mut retires_title_word = false;
    let target_terms = named_terms(target);
    let code_names = code_names(target);
    let target_words = words_named(target_tokens, target);
    let title_words = &target.title_tokens;
    let unrepeated: BTreeSet<&String> = title_words.difference(&candidate.title_tokens).collect();
    let own = target.replacements();
    let mut found: Vec<&str> = Vec::new();
    let mut restates_title = false;
    for r in replacements {
        // What it names is the memory's when most of its words are, or when
        // it is one of the memory's code names, with at most one word more
        // ("`ProcessedWebhook` table is gone" against a memory about
        // `ProcessedWebhook`; not "policy/v1beta1 PodDisruptionBudgets").
        let about_target = if r.refers_back() {
            combined >= RELATED
        } else {
            r.objects.iter().any(|o| {
                let shared = o
                    .iter()
                    .filter(|w| target_words.contains(w.as_str()))
                    .count();
                // "nobody imports through the Administrator … any more":
                // who does it and by what way name nothing retired.
                let size = o
                    .iter()
                    .filter(|w| !OBJECT_FILLER.contains(&w.as_str()))
                    .count();
                2 * shared > size || (o.len() <= 2 && code_names.iter().any(|n| o.contains(n)))
            })
        };
        // "… turned off" where the memory says it is disabled: its rule.
        let off_already =
            matches!(r.phrase, "turned off" | "switched off") && target.lower().contains("disabl");
        if said_by(own, r) || target.turns_down(r) || off_already {
            continue;
        }
        retires_title_word |= retires_a_title_word(r, title_words);
        if !about_target {
            continue;
        }
        named = named.max(
            r.objects
                .iter()
                .map(|o| {
                    o.iter()
                        .filter(|w| target_words.contains(w.as_str()))
                        .count()
                })
                .max()
                .unwrap_or(0),
        );
        in_title |= candidate.title_replacements.contains(r);
        names_term |= r
            .objects
            .iter()
            .any(|o| target_terms.iter().any(|t| t.iter().all(|w| o.contains(w))));
        let named: BTreeSet<&String> = r
            .objects
            .iter()
            .flatten()
            .filter(|w| title_words.contains(*w) && !subject::generic(&text::root(w)))
            .collect();
        names_title |= !named.is_empty();
        if super::replacement::retires(r.phrase) {
            retired_title.extend(named.into_iter().cloned());
        }
        found.push(r.phrase);
        restates_title |= r.objects.iter().any(|o| {
            let n = o.intersection(title_words).count();
            let m = o.iter().filter(|w| unrepeated.contains(w)).count();
            n >= 2
                && (3 * n >= 2 * title_words.len()
                    || (!unrepeated.is_empty() && 3 * m >= 2 * unrepeated.len()))
        });
    }
    let phrases = REPLACEMENT_WORDING
        .iter()
        .filter(|p| found.contains(p))
        .map(|p| (*p).to_owned())
        .collect();
    Replacement {
        phrases,
        restates_title,
        named,
        in_title,
        names_term,
        names_title,
        retired_title,
        retires_title_word,
    }
}

/// The memory's names of code written as one word: with an inner capital
/// or `_` (`ProcessedWebhook`, `webhook_id`), or in backticks (`` `billing`
/// ``), as [`text::words`] writes them.
fn code_names(target: &Features) -> Vec<String> {
    let one_word = |name: &str| {
        let words = text::words(name);
        (name.len() >= 5
            && name.chars().all(|c| c.is_alphanumeric() || c == '_')
            && words.len() == 1)
            .then(|| words.into_iter().next())
            .flatten()
    };
    let marked = target.terms.iter().filter_map(|t| {
        let name = t.text.as_str();
        one_word(name).filter(|_| name.chars().skip(1).any(|c| c.is_uppercase() || c == '_'))
    });
    let quoted = target
        .text
        .split('`')
        .skip(1)
        .step_by(2)
        .filter_map(|span| one_word(span.trim()));
    marked.chain(quoted).collect()
}

/// The words of each identifier, code span and path of a memory, and of
/// each path's file name: "the Podfile" names `ios/Podfile`.
fn named_terms(target: &Features) -> Vec<Vec<String>> {
    target
        .terms
        .iter()
        .flat_map(|t| {
            let file = t
                .text
                .rsplit_once('/')
                .map(|(_, name)| name)
                .filter(|name| name.chars().filter(|c| c.is_alphabetic()).count() >= 5);
            std::iter::once(text::words(&t.text)).chain(file.map(text::words))
        })
        .filter(|w| !w.is_empty())
        .collect()
}

/// The words a replacement phrase may name a memory by: its tokens and
/// topic words, and the format each file extension stands for ("the YAML
/// file is gone" names `flags.yml`).
fn words_named<'a>(tokens: &'a BTreeSet<String>, target: &'a Features) -> BTreeSet<&'a str> {
    let mut words: BTreeSet<&str> = tokens
        .iter()
        .chain(&target.topic)
        .map(String::as_str)
        .collect();
    let formats: Vec<&str> = words.iter().filter_map(|w| text::format_of(w)).collect();
    words.extend(formats);
    words
}

/// What [`replacement_of`] finds about one target.
#[derive(Debug, Default)]
#[allow(
    clippy::struct_excessive_bools,
    reason = "independent signals, read by name"
)]
struct Replacement {
    /// The phrases about the target, in [`REPLACEMENT_WORDING`] order.
    phrases: Vec<String>,
    /// One of them restates the target's title.
    restates_title: bool,
    /// The most target words one of them names.
    named: usize,
    /// One of them is in the candidate's title.
    in_title: bool,
    /// One of them names a whole identifier, path or code span of the target.
    names_term: bool,
    /// One of them names a word of the target's title.
    names_title: bool,
    /// The words of the target's title that a phrase retiring something
    /// ("was dropped", "deprecated") names.
    retired_title: BTreeSet<String>,
    /// A phrase retiring something names a word of the target's title, even
    /// when too few of its words for the phrase to be about the target ("the
    /// odeint wrapper was removed" against "… with scipy.integrate.odeint").
    retires_title_word: bool,
}

pub(super) fn owned(v: Vec<&str>) -> Vec<String> {
    v.into_iter().map(str::to_owned).collect()
}

/// Rounds to 4 decimals so that scores print and compare stably.
pub(super) fn round(x: f64) -> f64 {
    (x * 10_000.0).round() / 10_000.0
}

/// Whether the path glob or module `narrow` lies inside `broad`.
fn covers(broad: &str, narrow: &str) -> bool {
    if broad == narrow {
        return true;
    }
    let base = broad
        .trim_end_matches("/**")
        .trim_end_matches("/*")
        .trim_end_matches('/');
    // `src/**`, or a plain path, which is also the directory of that name
    // (`src` holds `src/Worker.hs`; see `matching::Glob::new`).
    let dir = base != broad || !matching::is_pattern(broad);
    if dir && narrow.starts_with(base) && narrow[base.len()..].starts_with('/') {
        return true;
    }
    // A file a glob matches (`src/a/x.rs` inside `src/**/*.rs`).
    !narrow.starts_with("module:")
        && !broad.starts_with("module:")
        && matching::is_pattern(broad)
        && !matching::is_pattern(narrow)
        && matching::Glob::new(broad).matches(narrow)
}

/// Whether two path globs can match one file although neither lies inside
/// the other: `App/Debug/**` and `App/**/*.swift` both match
/// `App/Debug/Menu.swift`. Their literal leading directories must be one
/// inside the other, and patterns for files of two extensions
/// (`**/*.rs`, `**/*.ts`) never meet; a plain path must match the other
/// glob or be a directory it lies in.
fn globs_touch(left: &str, right: &str) -> bool {
    if left.starts_with("module:") || right.starts_with("module:") {
        return false;
    }
    match (matching::is_pattern(left), matching::is_pattern(right)) {
        (false, false) => return left == right,
        (false, true) => return dir_touches(left, right),
        (true, false) => return dir_touches(right, left),
        (true, true) => {}
    }
    let (lits_left, lits_right) = (
        matching::literal_segments(left),
        matching::literal_segments(right),
    );
    let common = lits_left.len().min(lits_right.len());
    if lits_left[..common] != lits_right[..common] {
        return false;
    }
    let extension = |s: &str| {
        s.rsplit('/')
            .next()
            .and_then(|last| last.strip_prefix("*."))
            .filter(|ext| !matching::is_pattern(ext))
            .map(str::to_owned)
    };
    !matches!((extension(left), extension(right)), (Some(x), Some(y)) if x != y)
}

/// Whether a plain path and a glob can match one file: the glob matches
/// the path, or the path is a directory the glob's literal start lies in
/// (`src` and `src/**/*.rs`).
fn dir_touches(path: &str, glob: &str) -> bool {
    if matching::Glob::new(glob).matches(path) {
        return true;
    }
    let dir: Vec<&str> = path.split('/').collect();
    let literal = matching::literal_segments(glob);
    literal.len() >= dir.len() && literal[..dir.len()] == dir[..]
}

/// Whether `text` names the file or directory of a scope item: its path up
/// to the first wildcard (`crates/codec` of `crates/codec/**`), at least
/// two segments or a file name, as a whole path (not `crates/codec-simd`).
fn names_path(text: &str, item: &str) -> bool {
    if item.starts_with("module:") {
        return false;
    }
    let literal = matching::literal_segments(item);
    let path = literal.join("/");
    // One segment names a file only when it is the whole item (`Makefile`,
    // `Dockerfile`), not a directory before a wildcard (`src/**`).
    let whole_file = literal.len() == 1 && path == item && path.len() >= 4;
    if path.is_empty() || (literal.len() < 2 && !path.contains('.') && !whole_file) {
        return false;
    }
    let word = |c: char| c.is_alphanumeric() || matches!(c, '-' | '_');
    text.match_indices(path.as_str()).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let rest = &text[at + path.len()..];
        let mut after = rest.chars();
        let whole_start = !before.is_some_and(|c| word(c) || matches!(c, '/' | '.'));
        // Inside it (`crates/codec/src`) or the end of a sentence, not a
        // longer name (`crates/codec-simd`, `codec.rs`).
        let whole_end = match after.next() {
            None | Some('/') => true,
            Some('.') => !after.next().is_some_and(char::is_alphanumeric),
            Some(c) => !word(c),
        };
        whole_start && whole_end
    })
}

fn scope_relation(candidate: &Memory, target: &Memory) -> ScopeRelation {
    // Paths and modules are two ways to say where; when both memories give
    // paths and only one also names modules, the modules were left out, not
    // narrowed: compare the paths.
    let (cs, ts) = (&candidate.scope, &target.scope);
    let modules = !(!cs.paths.is_empty()
        && !ts.paths.is_empty()
        && cs.modules.is_empty() != ts.modules.is_empty());
    let items = |m: &Memory| -> Vec<String> {
        let listed = if modules {
            m.scope.modules.as_slice()
        } else {
            &[]
        };
        m.scope
            .paths
            .iter()
            .cloned()
            .chain(listed.iter().map(|x| format!("module:{x}")))
            .collect()
    };
    let (c, t) = (items(candidate), items(target));
    match (c.is_empty(), t.is_empty()) {
        (true, true) => return ScopeRelation::BothGlobal,
        (false, true) => return ScopeRelation::Narrower,
        (true, false) => return ScopeRelation::Broader,
        _ => {}
    }
    let c_in_t = c.iter().all(|x| t.iter().any(|y| covers(y, x)));
    let t_in_c = t.iter().all(|y| c.iter().any(|x| covers(x, y)));
    match (c_in_t, t_in_c) {
        (true, true) => ScopeRelation::Same,
        (true, false) => ScopeRelation::Narrower,
        (false, true) => ScopeRelation::Broader,
        (false, false) => {
            let touch = c.iter().any(|x| {
                t.iter()
                    .any(|y| covers(x, y) || covers(y, x) || globs_touch(x, y))
            });
            // A memory that names the other's files in its text is about
            // them too ("Because crates/codec forbids unsafe, the SIMD
            // kernels live in crates/codec-simd").
            let names = |m: &Memory, items: &[String]| {
                items.iter().any(|item| {
                    [&m.title, &m.summary, &m.detail]
                        .iter()
                        .any(|text| names_path(text, item))
                })
            };
            if touch || names(candidate, &t) || names(target, &c) {
                ScopeRelation::Overlapping
            } else {
                ScopeRelation::Disjoint
            }
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn tools_of_one_kind_are_apart() {
        let apart = |c: &str, t: &str| super::family_apart(c, t, &text::roots(c), &text::roots(t));
        let cases = [
            (
                "pnpm store cache keyed on the Node version",
                "Cargo cache key includes the Cargo.lock hash",
                true,
            ),
            (
                "Run clippy before pushing",
                "Run rustfmt before pushing",
                true,
            ),
            // A name inside each title that the other never uses.
            (
                "R8 strips Moshi adapters in release builds",
                "R8 removes Jackson annotations in release builds",
                true,
            ),
            // Acronyms are kinds and standards, not names of one thing.
            (
                "Keep coordinates as WGS84",
                "Store geometries in EPSG 4326",
                false,
            ),
            // One names the other: the same subject seen twice.
            ("Moved from npm to pnpm", "Install with npm ci in CI", false),
            ("Cache the pnpm store", "pnpm store lives in ~/.pnpm", false),
        ];
        for (c, t, want) in cases {
            assert_eq!(apart(c, t), want, "{c} / {t}");
        }
    }

    #[test]
    fn words_a_text_turns_down() {
        let cases: &[(&str, &[&str])] = &[
            ("Repository tests use Testcontainers, not H2", &["h2"]),
            (
                "Apply migrations via make migrate, not by calling alembic directly.",
                &["call", "alembic"],
            ),
            ("Don't hand-edit release.yml", &["hand", "edit"]),
            // What another thing took the place of.
            ("ruff replaces flake8 and isort", &["flake8", "isort"]),
            (
                "Stop reading the deprecated legacy_config table",
                &["legacy", "config"],
            ),
            (
                "Use the factory rather than new clients",
                &["new", "client"],
            ),
            // What it calls past.
            (
                "Settings come from config.toml (the old settings.ini is ignored)",
                &["setting", "ini"],
            ),
        ];
        for (text, want) in cases {
            let got = super::rejected_words(text);
            let want: BTreeSet<String> = want.iter().map(|w| (*w).to_owned()).collect();
            assert_eq!(got, want, "{text}");
        }
    }

    #[test]
    fn what_a_text_sets_itself_apart_from() {
        let set = |w: &[&str]| -> BTreeSet<String> { w.iter().map(|x| (*x).to_owned()).collect() };
        let cases: &[(&str, bool, &[&str])] = &[
            (
                "Memory limits equal requests; this is separate from the CPU policy.",
                true,
                &["cpu", "policy"],
            ),
            (
                "Unlike the push prompt, it asks on first use.",
                true,
                &["push", "prompt"],
            ),
            (
                "Enable skew joins; disabling broadcast does not help here.",
                true,
                &["disabl", "broadcast"],
            ),
            // In an addition, what does not help is part of the story.
            ("Disabling broadcast does not help here.", false, &[]),
            ("Memory limits equal requests.", true, &[]),
        ];
        for (text, no_remedy, want) in cases {
            assert_eq!(
                super::set_apart_words(text, *no_remedy),
                set(want),
                "{text}"
            );
        }
    }

    #[test]
    fn two_addresses_of_one_scheme_differ() {
        let cases = [
            (
                "Firehose now writes to s3://acme-events-raw-prod-eu with the same layout.",
                "Firehose delivers raw events to s3://acme-raw-events-prod/yyyy/mm/dd/.",
                true,
            ),
            // The same bucket, or a prefix inside it.
            (
                "Reads come from s3://acme-raw-events-prod/2025/.",
                "Firehose delivers raw events to s3://acme-raw-events-prod.",
                false,
            ),
            // Other schemes are other things.
            (
                "Docs live at https://docs.acme.dev.",
                "Firehose delivers raw events to s3://acme-raw-events-prod.",
                false,
            ),
            // A file of a directory both name, where the target names another.
            (
                "SaveManager writes user://saves/slot_N.sav with store_var.",
                "Save games live in user://saves/; each slot is user://saves/slot_N.json.",
                true,
            ),
            (
                "Slots are written to user://saves/slot_N.json.",
                "Save games live in user://saves/; each slot is user://saves/slot_N.json.",
                false,
            ),
            ("No address here.", "Nor here.", false),
        ];
        for (c, t, want) in cases {
            let (ca, ta) = (super::addresses(c), super::addresses(t));
            assert_eq!(super::addresses_differ(&ca, &ta), want, "{c} / {t}");
        }
    }

    #[test]
    fn titles_that_name_different_things_are_apart() {
        let apart = |c: &str, t: &str| {
            let roots = text::roots(c);
            let says_change = values::says_change(&roots);
            names_apart(c, t, &roots, &text::roots(t), says_change).map(|d| d.describe())
        };
        let cases = [
            (
                "DHL parcel limit is 31 kg",
                "GLS parcel limit is 40 kg",
                Some("`DHL` where it says `GLS`"),
            ),
            (
                "AWS quota is 50 vCPUs",
                "GCP quota is 24 vCPUs",
                Some("`AWS` where it says `GCP`"),
            ),
            // Against a name, a first word the other never uses names
            // another thing; one it uses names the same.
            (
                "Kafka client pinned to 3.7",
                "AWS SDK pinned to 2.25",
                Some("`Kafka` where it says `AWS`"),
            ),
            ("Timeout raised to 30 s", "AWS timeout is 10 s", None),
            // One name, or the same in both, or an identifier: one thing.
            ("minSdk is now 26", "minSdk is 24", None),
            ("Node pinned to 22", "Node pinned to 20", None),
            (
                "Redis maxmemory is 4 GB",
                "Cache memory limit is 2 GB",
                None,
            ),
            // Two first words before one noun, neither in the other title.
            (
                "Refresh tokens expire after 15 days of inactivity",
                "Access tokens live 15 minutes",
                Some("`Refresh` where it says `Access`"),
            ),
            // Said to have changed: the same thing, named otherwise.
            (
                "Feast features now expire after 7 days",
                "Online features live 48 hours",
                None,
            ),
            ("Upload limit is 20 MB", "Upload limit is 10 MB", None),
            // Two identifiers before one noun: two roles, two queues.
            (
                "analytics_ro role gets a 120s statement timeout",
                "leaderboard_app role has statement_timeout 2s",
                Some("`analytics_ro` where it says `leaderboard_app`"),
            ),
            (
                "oru-inbound queue: MaxDeliveryCount is 3",
                "adt-inbound queue MaxDeliveryCount is 10",
                Some("`oru-inbound` where it says `adt-inbound`"),
            ),
            (
                "leaderboard_app role statement_timeout is now 5s",
                "leaderboard_app role has statement_timeout 2s",
                None,
            ),
            // Another word after them: no shared kind of thing.
            (
                "analytics_ro timeout is 120s",
                "leaderboard_app role has statement_timeout 2s",
                None,
            ),
            // The other names the differing part: the same thing.
            (
                "reporting_replica role gets a 120s statement timeout",
                "reporting_primary role has statement_timeout 2s, as has the replica",
                None,
            ),
        ];
        for (c, t, want) in cases {
            assert_eq!(apart(c, t).as_deref(), want, "{c} / {t}");
        }
    }

    use super::*;
    use crate::model::{MemoryId, MemoryType, Provenance, Source, Status};
    use crate::review::{Decision, Relation, Reviewer};

    /// The reviewer's outcome for a new candidate (captured after every
    /// stored memory) against `stored`.
    fn review_new(
        stored: &[Memory],
        kind: MemoryType,
        title: &str,
        summary: &str,
        paths: &[&str],
    ) -> crate::review::ReviewOutcome {
        review_captured(
            stored,
            (kind, title, summary, paths),
            "2026-06-01T00:00:00Z",
        )
    }

    /// Reviews a candidate `(kind, title, summary, paths)` captured at `at`.
    fn review_captured(
        stored: &[Memory],
        (kind, title, summary, paths): (MemoryType, &str, &str, &[&str]),
        at: &str,
    ) -> crate::review::ReviewOutcome {
        let mut m = memory("candidate-ffff", kind, title, summary, paths);
        m.status = Status::Candidate;
        m.provenance.captured_at = at.parse().unwrap();
        Reviewer::new(stored.iter()).review(&m)
    }

    /// Asserts the decision on each `(title, summary, decision)` of
    /// `cases`, reviewed as a new convention of `paths` against `stored`.
    fn assert_conventions(stored: &[Memory], paths: &[&str], cases: &[(&str, &str, Decision)]) {
        for (title, summary, want) in cases {
            let out = review_new(stored, MemoryType::Convention, title, summary, paths);
            assert_eq!(verdict_of(&out).0, *want, "{title}: {}", out.reason);
        }
    }

    #[test]
    fn shared_names_do_not_join_titles_that_differ_in_a_proper_name() {
        let stored = vec![memory(
            "index-prefix-0001",
            MemoryType::Convention,
            "Staging and UAT use different OpenSearch index prefixes",
            "Staging and UAT point at the same managed OpenSearch domain, so \
             `opensearch_index_prefix` is `acme_stg` on staging and `acme_uat` on UAT; \
             copying env.php between them makes one overwrite the other's index.",
            &["app/etc/env.php"],
        )];
        let cases: &[(&str, &str, Decision)] = &[
            // The same two names (`acme_stg`, `acme_uat`) set for another
            // system: the title says which, in a name the memory never uses.
            (
                "Staging and UAT use different RabbitMQ vhosts",
                "Staging and UAT talk to the same RabbitMQ broker, so \
                 `queue.amqp.virtualhost` is `/acme_stg` on staging and `/acme_uat` on UAT; \
                 with one vhost UAT consumers eat staging's messages.",
                Decision::Accept,
            ),
            // The same difference in a lowercase word is no name: the two
            // shared names still make one subject.
            (
                "Staging and UAT use different index namespaces",
                "Staging and UAT share the OpenSearch domain, so the prefix is `acme_stg` \
                 on staging and `acme_uat` on UAT; one env.php copied over the other \
                 overwrites an index.",
                Decision::Merge,
            ),
        ];
        assert_conventions(&stored, &["app/etc/env.php"], cases);
    }

    #[test]
    fn a_shared_file_is_the_setting_not_the_subject() {
        let stored = vec![memory(
            "price-batch-0001",
            MemoryType::Convention,
            "Price indexer batch size is 5000",
            "In `app/code/Acme/Catalog/etc/di.xml` the `batchRowsCount` for the \
             catalog_product_price BatchSizeCalculator is 5000.",
            &["app/code/Acme/Catalog/etc/di.xml"],
        )];
        // Another indexer's batch size set in the same file with the same
        // key: the file is where both are set, and the titles name two
        // indexers.
        let out = review_new(
            &stored,
            MemoryType::Convention,
            "Category-product indexer batch size is 10000",
            "In `app/code/Acme/Catalog/etc/di.xml` the `batchRowsCount` for the category \
             tree's full reindex is 10000; bigger batches cut the run from 25 to 9 minutes.",
            &["app/code/Acme/Catalog/etc/di.xml"],
        );
        assert_eq!(verdict_of(&out).0, Decision::Accept, "{}", out.reason);
        // The same indexer's size raised: a change of the memory's value.
        let out = review_new(
            &stored,
            MemoryType::Convention,
            "Price indexer batch size is 10000",
            "In `app/code/Acme/Catalog/etc/di.xml` the `batchRowsCount` for the \
             catalog_product_price BatchSizeCalculator is now 10000.",
            &["app/code/Acme/Catalog/etc/di.xml"],
        );
        assert_eq!(verdict_of(&out).0, Decision::Supersede, "{}", out.reason);
    }

    #[test]
    fn a_flag_of_the_title_now_left_out_is_replaced() {
        let stored = vec![memory(
            "licqueue-0001",
            MemoryType::Convention,
            "xrun waits for a seat with -licqueue",
            "run_xrun.sh passes -licqueue so a job that starts without a free seat waits for \
             one rather than failing.",
            &["scripts/run_xrun.sh"],
        )];
        let cases: &[(&str, &str, Decision)] = &[
            // Done without the title's flag: what the memory says is gone.
            (
                "run_xrun.sh fails fast on license errors",
                "Queuing kept every job on its LSF slot for hours the night the license server \
                 went down. xrun is called without -licqueue; regress.py retries license \
                 failures once after 10 minutes.",
                Decision::Supersede,
            ),
            // "Without" opening a clause tells what happens, not what is done.
            (
                "-licqueue keeps regressions alive through seat shortages",
                "Without -licqueue a job that finds no free seat fails at once; with it the job \
                 waits for one.",
                Decision::Merge,
            ),
        ];
        assert_conventions(&stored, &["scripts/run_xrun.sh"], cases);
        // The flag a memory says is left out, now passed: the way it is
        // done changed.
        let stored = vec![memory(
            "bags-0001",
            MemoryType::Convention,
            "Field bags use the default sqlite3 storage",
            "recording.launch.py calls `ros2 bag record` without -s, so bags are .db3; the \
             notebooks open them with rosbag2_py.",
            &["launch/recording.launch.py", "src/tools/bag_uploader/**"],
        )];
        let cases: &[(&str, &str, Decision)] = &[
            (
                "Field recording command",
                "recording.launch.py runs `ros2 bag record -s mcap --max-bag-duration 300`. Files \
                 open directly in Foxglove.",
                Decision::Supersede,
            ),
            // Named again only as left out: the same rule.
            (
                "Field bags are plain sqlite3",
                "`ros2 bag record` runs without -s in recording.launch.py, so every bag is a .db3 \
                 folder that rosbag2_py opens.",
                Decision::Merge,
            ),
        ];
        assert_conventions(&stored, &["launch/recording.launch.py"], cases);
    }

    #[test]
    fn words_only_two_rules_of_two_types_share_tie_them() {
        let stored = vec![
            memory(
                "logs-stdout-0001",
                MemoryType::Convention,
                "Structured logs go to stdout as JSON",
                "Services log with zerolog to stdout in JSON; the node agent ships stdout to \
                 Loki, so never write log files or print diagnostics with fmt.Println. \
                 Middleware attaches the request id to every line, and production keeps a \
                 tenth of debug lines.",
                &["services/**"],
            ),
            memory(
                "config-env-0001",
                MemoryType::Convention,
                "Configuration comes from environment variables",
                "Services read settings from env vars parsed by envconfig at startup.",
                &["services/**"],
            ),
        ];
        // A gotcha telling the convention from the other side: the words
        // only these two share (zerolog, stdout, JSON, agent, ships, Loki,
        // Println, diagnostics) tie them, though the titles share nothing.
        let told = |title: &str| {
            review_new(
                &stored,
                MemoryType::Gotcha,
                title,
                "During the March outage nobody could see why checkout retries spiked for \
                 three hours: the payment handlers reported through fmt.Println and a local \
                 debug file on each pod, and neither is collected anywhere. Only zerolog's JSON \
                 lines on stdout are picked up by the node agent and shipped to Loki, so every \
                 diagnostic a handler emits has to go through the shared request logger. The \
                 on-call engineer spent most of the incident guessing at the cause from metrics \
                 alone before the payment provider confirmed its own degraded state.",
                &["services/payments/**", "cmd/**"],
            )
        };
        let out = told("Diagnostics printed with fmt.Println never reach Loki");
        assert_eq!(
            verdict_of(&out),
            (Decision::Merge, Some("logs-stdout-0001")),
            "{}",
            out.reason
        );
        // A title naming in code what the convention never writes is about
        // that thing.
        let out = told("Diagnostics from `debugdump.Write` never reach Loki");
        assert_eq!(verdict_of(&out).0, Decision::Accept, "{}", out.reason);
        // Fewer such words between a gotcha and a convention are a domain's
        // words, not one rule.
        let out = review_new(
            &stored,
            MemoryType::Gotcha,
            "Loki drops entries larger than 256 KB",
            "The node agent ships stdout to Loki, which rejects any entry over 256 KB; split \
             large payloads before logging them.",
            &["services/**"],
        );
        assert_eq!(verdict_of(&out).0, Decision::Accept, "{}", out.reason);
    }

    #[test]
    fn what_holds_from_now_on_replaces_what_held() {
        let stored = vec![
            memory(
                "flags-yaml-0001",
                MemoryType::Convention,
                "Feature flags live in config/flags.yaml",
                "Flags are declared in config/flags.yaml and read once at boot by \
                 FlagLoader; ops toggles them by editing the file and redeploying.",
                &["config/**"],
            ),
            memory(
                "config-env-0001",
                MemoryType::Convention,
                "Secrets come from the environment",
                "API keys are read from env vars, never from files under config/.",
                &["config/**"],
            ),
        ];
        let out = review_new(
            &stored,
            MemoryType::Convention,
            "Flag toggles without a deploy",
            "Editing the flags file meant a redeploy for every toggle. From now on flags \
             are declared in the Unleash admin and FlagLoader polls it every 30 s; keep \
             config/flags.yaml only as the boot default.",
            &["config/**"],
        );
        assert_eq!(
            verdict_of(&out),
            (Decision::Supersede, Some("flags-yaml-0001")),
            "{}",
            out.reason
        );
    }

    #[test]
    fn a_label_of_where_the_text_comes_from_is_not_compared() {
        let stored = vec![
            memory(
                "julia-floor-0001",
                MemoryType::Convention,
                "Minimum Julia is 1.9",
                "Project.toml [compat] sets julia = \"1.9\"; CI tests 1.9 and the latest release.",
                &["Project.toml"],
            ),
            memory(
                "manifest-0001",
                MemoryType::Convention,
                "Manifest.toml not committed",
                "This is a package, so Manifest.toml is git-ignored; only Project.toml is tracked.",
                &["Project.toml"],
            ),
        ];
        let body = "now that 1.10 is the LTS, Project.toml [compat] requires julia = \"1.10\" \
                    and CI tests 1.10 and the latest release; 1.9 is dropped.";
        // The record's name is no name of another thing ("ADR" where the
        // memory says "Minimum").
        for (title, summary) in [
            (
                "ADR-0004: raise the Julia floor to the LTS".to_owned(),
                format!("Per ADR-0004, {body}"),
            ),
            (
                "Migration note: raise the Julia floor to the LTS".to_owned(),
                format!("Migration note: {body}"),
            ),
        ] {
            let out = review_new(
                &stored,
                MemoryType::Convention,
                &title,
                &summary,
                &["Project.toml"],
            );
            assert_eq!(
                verdict_of(&out),
                (Decision::Supersede, Some("julia-floor-0001")),
                "{title}: {}",
                out.reason
            );
        }
    }

    /// The decision and the first target of an outcome.
    fn verdict_of(out: &crate::review::ReviewOutcome) -> (Decision, Option<&str>) {
        (out.decision, out.targets.first().map(MemoryId::as_str))
    }

    fn memory(id: &str, kind: MemoryType, title: &str, summary: &str, paths: &[&str]) -> Memory {
        let mut m = Memory::new(
            MemoryId::new(id).unwrap(),
            kind,
            Status::Active,
            title,
            summary,
            Provenance {
                source: Source::Manual,
                captured_at: "2026-01-01T00:00:00Z".parse().unwrap(),
                proposed_by: None,
                evidence: Vec::new(),
            },
        );
        m.scope.paths = paths.iter().map(|p| (*p).to_owned()).collect();
        m
    }

    /// A value changed in two titles of one frame is a change of that
    /// memory, not a repeat of the value another memory holds of another
    /// thing: "account-query DB2 pool 8" is no source of "recon-service DB2
    /// pool is 8".
    #[test]
    fn a_value_of_another_thing_elsewhere_leaves_a_title_change() {
        use MemoryType::Convention;
        let stored = [
            memory(
                "recon-pool-0001",
                Convention,
                "recon-service DB2 pool 4",
                "recon-service's read-only DB2 datasource uses maximum-pool-size 4.",
                &["services/recon-service/src/main/resources/application.yml"],
            ),
            memory(
                "account-pool-0002",
                Convention,
                "account-query DB2 pool 8",
                "Read-only user LDGRO, 4 pods.",
                &[],
            ),
        ];
        let out = review_new(
            &stored,
            Convention,
            "recon-service DB2 pool is 8",
            "maximum-pool-size for the DB2 datasource went to 8 for the partitioned month-end step.",
            &["services/recon-service/src/main/resources/application.yml"],
        );
        assert_eq!(
            verdict_of(&out),
            (Decision::Supersede, Some("recon-pool-0001")),
            "{}",
            out.reason
        );
    }

    fn store() -> Vec<Memory> {
        use MemoryType::{Convention, Decision, Gotcha};
        vec![
            memory(
                "ledger-append-only-0001",
                Gotcha,
                "Ledger entries are append-only",
                "Never UPDATE or DELETE rows in ledger_entries; post a reversing entry instead.",
                &["src/ledger/**"],
            ),
            memory(
                "raw-sql-0002",
                Decision,
                "Use raw SQL with pg for data access",
                "All queries are hand-written SQL through node-postgres.",
                &["src/db/**"],
            ),
            memory(
                "integer-cents-0003",
                Decision,
                "Use integer cents for all money amounts",
                "Amounts are stored and computed as integer cents, never floats.",
                &[],
            ),
            memory(
                "zod-bodies-0004",
                Convention,
                "Validate request bodies with zod",
                "Every handler parses its body with a zod schema before use.",
                &["src/api/**"],
            ),
            memory(
                "webhook-dedupe-0005",
                Gotcha,
                "Stripe webhooks arrive twice",
                "Deduplicate Stripe webhooks on the event id before processing.",
                &["src/webhooks/**"],
            ),
        ]
    }

    struct Case {
        name: &'static str,
        kind: MemoryType,
        title: &'static str,
        summary: &'static str,
        paths: &'static [&'static str],
        tags: &'static [&'static str],
        relation: Relation,
        decision: Decision,
        target: Option<&'static str>,
    }

    #[test]
    fn reviewer_decisions_on_realistic_candidates() {
        use MemoryType::{Convention, Decision as D, Goal, Gotcha, Pattern};
        let cases = [
            Case {
                name: "verbatim duplicate",
                kind: Gotcha,
                title: "Ledger entries are append-only",
                summary: "Never UPDATE or DELETE rows in ledger_entries; post a reversing entry instead.",
                paths: &["src/ledger/**"],
                tags: &[],
                relation: Relation::Duplicate,
                decision: Decision::Merge,
                target: Some("ledger-append-only-0001"),
            },
            Case {
                name: "reworded duplicate",
                kind: Gotcha,
                title: "Ledger entries are append only",
                summary: "Never update or delete rows in ledger_entries; post a reversing entry.",
                paths: &["src/ledger/**"],
                tags: &[],
                relation: Relation::Duplicate,
                decision: Decision::Merge,
                target: Some("ledger-append-only-0001"),
            },
            Case {
                name: "replacement wording",
                kind: D,
                title: "Use Kysely for data access",
                summary: "New data access code uses Kysely query builder instead of raw SQL with node-postgres.",
                paths: &["src/db/**"],
                tags: &[],
                relation: Relation::FullReplacement,
                decision: Decision::Supersede,
                target: Some("raw-sql-0002"),
            },
            Case {
                name: "additive update with new tags",
                kind: Gotcha,
                title: "Stripe webhooks arrive twice",
                summary: "Deduplicate Stripe webhooks on the event id before processing; refunds too.",
                paths: &["src/webhooks/**"],
                tags: &["refunds"],
                relation: Relation::AdditiveUpdate,
                decision: Decision::Merge,
                target: Some("webhook-dedupe-0005"),
            },
            Case {
                name: "narrower scope splits",
                kind: Convention,
                title: "Validate webhook request bodies with zod",
                summary: "Every webhook handler parses its body with a zod schema before use.",
                paths: &["src/api/webhooks/**"],
                tags: &[],
                relation: Relation::PossibleSplit,
                decision: Decision::Accept,
                target: Some("zod-bodies-0004"),
            },
            Case {
                name: "a rule restated in one of its files is no split",
                kind: Convention,
                title: "Validate request bodies with zod",
                summary: "Every handler parses its request body with a zod schema before use.",
                paths: &["src/api/refunds/create.ts"],
                tags: &[],
                relation: Relation::AdditiveUpdate,
                decision: Decision::Merge,
                target: Some("zod-bodies-0004"),
            },
            Case {
                name: "novel topic",
                kind: Pattern,
                title: "Use the outbox pattern for webhook delivery",
                summary: "Write outgoing events to an outbox table in the same transaction.",
                paths: &[],
                tags: &[],
                relation: Relation::Novel,
                decision: Decision::Accept,
                target: None,
            },
            Case {
                name: "a rule told as another type is the same rule",
                kind: Convention,
                title: "Ledger entries are append-only",
                summary: "Never UPDATE or DELETE rows in ledger_entries; post a reversing entry instead.",
                paths: &["src/ledger/**"],
                tags: &[],
                relation: Relation::Duplicate,
                decision: Decision::Merge,
                target: Some("ledger-append-only-0001"),
            },
            Case {
                name: "a goal about a rule is other knowledge",
                kind: Goal,
                title: "Ledger entries are append-only everywhere",
                summary: "Never UPDATE or DELETE rows in ledger_entries; post a reversing entry instead.",
                paths: &["src/ledger/**"],
                tags: &[],
                relation: Relation::Novel,
                decision: Decision::Accept,
                target: None,
            },
            Case {
                name: "disjoint scope is not comparable",
                kind: Convention,
                title: "Validate request bodies with zod",
                summary: "Every handler parses its body with a zod schema before use.",
                paths: &["admin/**"],
                tags: &[],
                relation: Relation::Novel,
                decision: Decision::Accept,
                target: None,
            },
            Case {
                // It names nothing the memory does not and trades words
                // with it ("never fixed with UPDATE" for "never UPDATE"): a
                // retelling.
                name: "partial writes is not replacement wording",
                kind: Gotcha,
                title: "Ledger entries are append-only",
                summary: "Partial writes to ledger_entries are never fixed with UPDATE; post a reversing entry.",
                paths: &["src/ledger/**"],
                tags: &[],
                relation: Relation::Duplicate,
                decision: Decision::Merge,
                target: Some("ledger-append-only-0001"),
            },
        ];
        let stored = store();
        let reviewer = Reviewer::new(stored.iter());
        for c in cases {
            let mut m = memory("candidate-ffff", c.kind, c.title, c.summary, c.paths);
            m.status = Status::Candidate;
            m.tags = c.tags.iter().map(|t| (*t).to_owned()).collect();
            m.provenance.captured_at = "2026-06-01T00:00:00Z".parse().unwrap();
            let out = reviewer.review(&m);
            assert_eq!(
                (out.relation, out.decision),
                (c.relation, c.decision),
                "{}: {out:#?}",
                c.name
            );
            assert_eq!(
                out.targets.first().map(MemoryId::as_str),
                c.target,
                "{}: {out:#?}",
                c.name
            );
            assert!(!out.reason.is_empty());
        }
    }

    #[test]
    fn a_title_that_says_how_things_are_now_replaces_or_waits() {
        use MemoryType::Convention;
        let stored = [memory(
            "demo-seed-0001",
            Convention,
            "Demo data via db:seed",
            "`bin/rails db:seed` loads db/seeds.rb, which creates the demo accounts, sample orders and the admin user for local dev and review apps.",
            &["db/seeds.rb"],
        )];
        let out = review_new(
            &stored,
            Convention,
            "Demo data has its own task now",
            "Demo accounts and sample orders for local dev are created by `bin/rails demo:seed` (lib/tasks/demo.rake, data in db/demo/). db/seeds.rb only holds reference data.",
            &["lib/tasks/demo.rake", "db/seeds.rb"],
        );
        assert_eq!(out.decision, Decision::Supersede, "{}", out.reason);
        assert!(
            out.reason.contains("how things stand now"),
            "{}",
            out.reason
        );
        // Living elsewhere, it is for a person to weigh, never folded in as
        // the same knowledge in other words.
        let stored = [
            memory(
                "demo-seed-0001",
                Convention,
                "Demo data via db:seed",
                "`bin/rails db:seed` loads db/seeds.rb, which creates the demo accounts, sample orders and the admin@example.test user for local dev and review apps.",
                &["db/seeds.rb"],
            ),
            memory(
                "bin-setup-0002",
                Convention,
                "bin/setup is idempotent",
                "bin/setup can be re-run anytime; it installs gems, prepares the DB and clears tmp.",
                &[],
            ),
        ];
        let out = review_new(
            &stored,
            Convention,
            "Demo data has its own task now",
            "Demo accounts and sample orders are created by `bin/rails demo:seed` (lib/tasks/demo.rake, data in db/demo/). db/seeds.rb only holds reference data (countries, plans).",
            &["lib/tasks/demo.rake", "db/demo/**"],
        );
        assert_ne!(out.decision, Decision::Merge, "{}", out.reason);
    }

    #[test]
    fn a_rule_named_by_its_name_in_code_is_added_to() {
        use MemoryType::{Convention, Gotcha};
        let stored = [
            memory(
                "fillable-0001",
                Convention,
                "Models declare $fillable, never $guarded = []",
                "Every Eloquent model lists mass-assignable attributes in $fillable; `protected $guarded = [];` is rejected in review.",
                &["app/Models/**"],
            ),
            memory(
                "soft-delete-0002",
                Gotcha,
                "Soft-deleted rows still hit unique indexes",
                "Unique indexes must include deleted_at or be partial.",
                &["database/migrations/**"],
            ),
        ];
        let out = review_new(
            &stored,
            Convention,
            "Custom pivot models need it too",
            "Custom pivot classes (extends Pivot) fall under the $fillable rule: TeamUser had none and updateExistingPivot() with request data let a member set is_owner.",
            &["app/Models/Pivots/**"],
        );
        assert_eq!(
            verdict_of(&out),
            (Decision::Merge, Some("fillable-0001")),
            "{}",
            out.reason
        );
        // A plain word names no rule: "the lint rule".
        let out = review_new(
            &stored,
            Convention,
            "Pivot models get a policy",
            "Custom pivot classes (extends Pivot) fall under the lint rule; each gets a policy class.",
            &["app/Models/Pivots/**"],
        );
        assert_ne!(out.decision, Decision::Merge, "{}", out.reason);
    }

    #[test]
    fn a_rule_told_as_a_trap_from_another_side_is_that_rule() {
        use MemoryType::{Convention, Gotcha};
        let stored = [
            memory(
                "eager-load-0001",
                Convention,
                "Eager-load associations rendered in lists",
                "Collections rendered in index views must preload the associations the partials touch (includes/preload in the controller scope); Bullet is enabled in development to catch misses.",
                &["app/controllers/**", "app/views/**"],
            ),
            memory(
                "strong-params-0002",
                Convention,
                "Strong params in a private *_params method",
                "Each controller defines a private `<resource>_params` method with require/permit.",
                &["app/controllers/**"],
            ),
        ];
        let out = review_new(
            &stored,
            Gotcha,
            "Index pages fire a query per row when a partial reads an association",
            "if orders/index renders order.customer.name per row, Rails does one SELECT per order. Load the association up front in the controller: Order.includes(:customer).",
            &["app/controllers/orders_controller.rb"],
        );
        assert_eq!(
            verdict_of(&out),
            (Decision::Merge, Some("eager-load-0001")),
            "{}",
            out.reason
        );
        // A trap that turns down what the rule's title names is another
        // thing, however alike the bodies.
        let stored = [memory(
            "vite-proxy-0001",
            Convention,
            "Vite dev server proxies /api to the local backend",
            "vite.config.ts sets server.proxy['/api'] to http://localhost:8080 so the SPA uses relative URLs in development; never hard-code the backend host.",
            &["web/vite.config.ts"],
        )];
        let out = review_new(
            &stored,
            Gotcha,
            "vite preview ignores server.proxy",
            "When smoke-testing the production bundle with vite preview, /api calls 404 because preview uses preview.proxy, not server.proxy. web/vite.config.ts now defines preview.proxy['/api'] to http://localhost:8080 as well.",
            &["web/vite.config.ts"],
        );
        assert_ne!(out.decision, Decision::Merge, "{}", out.reason);
    }

    #[test]
    fn words_alike_with_a_change_reported_are_never_folded_in() {
        use MemoryType::{Convention, Gotcha};
        let stored = [
            memory(
                "cdk-diff-0001",
                Convention,
                "Run cdk diff before any deploy",
                "Paste the cdk diff output in the PR description for infra changes.",
                &[],
            ),
            memory(
                "laptop-deploy-0002",
                Convention,
                "Prod deploys from a laptop after approval",
                "Once the infra PR is approved, the author runs npx cdk deploy --all --profile acme-prod from main and posts the output in #deploys.",
                &[],
            ),
            memory(
                "bootstrap-0003",
                Gotcha,
                "Bootstrap version mismatch",
                "New accounts need cdk bootstrap with the custom qualifier acme01.",
                &[],
            ),
        ];
        let out = review_new(
            &stored,
            Convention,
            "Prod is deployed only by the pipeline",
            "Heads up from platform: production is deployed exclusively by the CDK Pipelines stack when a PR merges to main, with a manual approval step. The acme-prod SSO profile no longer has deploy permissions, so cdk deploy from a laptop against prod will fail.",
            &[],
        );
        assert_ne!(out.decision, Decision::Merge, "{}", out.reason);
        // A title that reports a move, wherever the move's object stands.
        let stored = [memory(
            "cookie-sessions-0001",
            MemoryType::Decision,
            "Sessions stored in a signed cookie",
            "app/sessions.server.ts uses createCookieSessionStorage; all session data (user id, cart, flash) lives in the __session cookie.",
            &["app/sessions.server.ts"],
        )];
        let out = review_new(
            &stored,
            MemoryType::Decision,
            "Session data moved server-side into Redis",
            "The cart pushed __session past the 4 KB limit and browsers dropped it. app/sessions.server.ts uses createSessionStorage with a Redis-backed id store; the cookie only carries the session id.",
            &["app/sessions.server.ts"],
        );
        assert_ne!(out.decision, Decision::Merge, "{}", out.reason);
    }

    #[test]
    fn the_same_knowledge_under_a_title_of_its_own_is_compared_however_few_words_it_shares() {
        use MemoryType::{Convention, Gotcha};
        let stored = [
            memory(
                "dbt-source-0001",
                Convention,
                "Reference raw tables via source()",
                "Models read raw data only through {{ source('stripe', 'charges') }}-style references declared in models/staging/*/_sources.yml. Hardcoded `project.dataset.table` names break lineage and make dev targets read production data.",
                &[],
            ),
            memory(
                "dbt-prefixes-0002",
                Convention,
                "Model names use stg_/int_/fct_/dim_ prefixes",
                "Staging stg_<source>__<entity>, intermediate int_, marts fct_/dim_.",
                &[],
            ),
        ];
        let out = review_new(
            &stored,
            Gotcha,
            "Hardcoded BigQuery table names in models",
            "Writing `acme-prod.raw_stripe.charges` directly in a model's SQL means the dev target quietly queries prod and the lineage graph loses the edge. Declare the table in the staging _sources.yml and select from the source() macro.",
            &[],
        );
        assert_eq!(
            verdict_of(&out),
            (Decision::Merge, Some("dbt-source-0001")),
            "{}",
            out.reason
        );
        // A title that opens on another subject keeps a look-alike apart,
        // however alike the bodies.
        let stored = [memory(
            "config-dir-0001",
            Convention,
            "Config file lives in the platform config dir",
            "The CLI reads dirs::config_dir()/mytool/config.toml; on macOS that's ~/Library/Application Support/mytool, not ~/.config.",
            &[],
        )];
        let out = review_new(
            &stored,
            Gotcha,
            "Downloaded index lives in ~/Library/Caches on macOS, not ~/.cache",
            "The package index is stored under dirs::cache_dir()/mytool, which is ~/Library/Caches/mytool on macOS. Users clearing ~/.cache/mytool to fix a corrupt index clear nothing.",
            &[],
        );
        assert_ne!(out.decision, Decision::Merge, "{}", out.reason);
    }

    #[test]
    fn an_old_file_is_turned_down_by_name() {
        let cases = [
            ("don't add them to routes/api.php.", "routes/api.php", true),
            (
                "they are not in config/app.php any more",
                "config/app.php",
                true,
            ),
            (
                "use routes/webhooks.php instead of routes/api.php",
                "routes/api.php",
                true,
            ),
            // Named, but not turned down.
            (
                "routes/api.php keeps the public routes.",
                "routes/api.php",
                false,
            ),
            (
                "don't log secrets. routes/api.php stays.",
                "routes/api.php",
                false,
            ),
            // Only the whole path counts.
            ("don't touch routes/api.php.bak", "routes/api.php", false),
        ];
        for (text, path, want) in cases {
            assert_eq!(refuses_path(text, path), want, "{path} in {text}");
        }
    }

    #[test]
    fn a_rule_whose_files_moved_away_is_replaced() {
        use MemoryType::Convention;
        // (name, target title, summary, paths; candidate title, summary,
        // paths; decision)
        type Row = (
            &'static str,
            (&'static str, &'static str, &'static [&'static str]),
            (&'static str, &'static str, &'static [&'static str]),
            Decision,
        );
        let rows: [Row; 28] = [
            (
                "the same file named in a new directory, never where it was",
                (
                    "PHPStan config is phpstan.neon at the repo root",
                    "`phpstan.neon` and its baseline sit in the repository root; `make stan` calls phpstan without -c.",
                    &["phpstan.neon", "Makefile"],
                ),
                (
                    "PHPStan config location",
                    "Config and baseline are `dev/tools/phpstan/phpstan.neon` and `dev/tools/phpstan/baseline.neon`; `make stan` passes `-c dev/tools/phpstan/phpstan.neon`.",
                    &["dev/tools/phpstan/**", "Makefile"],
                ),
                Decision::Supersede,
            ),
            (
                "a file of the same name in another directory, the old one still named",
                (
                    "PHPStan config is phpstan.neon at the repo root",
                    "`phpstan.neon` and its baseline sit in the repository root; `make stan` calls phpstan without -c.",
                    &["phpstan.neon", "Makefile"],
                ),
                (
                    "PHPStan config location for the API package",
                    "`packages/api/phpstan.neon` includes the root phpstan.neon and adds the API's own rules; `make stan` runs both.",
                    &["packages/api/**", "Makefile"],
                ),
                Decision::Accept,
            ),
            (
                "the old file said to hold only something else, the rule in a new one",
                (
                    "Prototype clock constraints are in vcu118.xdc",
                    "create_clock for the 300 MHz sysclk and the MMCM generated clocks are at the top of fpga/constraints/vcu118.xdc.",
                    &["fpga/constraints/vcu118.xdc"],
                ),
                (
                    "Where the prototype clocks are constrained",
                    "fpga/constraints/timing/clocks.xdc has the create_clock for sysclk (300 MHz) and the MMCM generated clocks. vcu118.xdc is pins and IOSTANDARDs only.",
                    &["fpga/constraints/timing/clocks.xdc"],
                ),
                Decision::Supersede,
            ),
            (
                "a directory of the old paths said to hold only something else",
                (
                    "Local module tests live under tests/modules/local",
                    "Each local module has tests/modules/local/<tool>/main.nf.test and its .snap; nf-test.config's testsDir is `tests`.",
                    &["tests/modules/local/**", "nf-test.config"],
                ),
                (
                    "Module tests sit next to the module",
                    "modules/local/<tool>/tests/main.nf.test and the .snap beside it; nf-test.config has `testsDir \".\"`. tests/ now only holds the pipeline-level tests.",
                    &["modules/local/**/tests/**", "nf-test.config"],
                ),
                Decision::Supersede,
            ),
            (
                "\"only\" beside the verb a few words after the directory",
                (
                    "Conda envs for local modules are in envs/",
                    "Each local module points at `conda \"${projectDir}/envs/<tool>.yml\"`; the same file builds the tool's container in CI.",
                    &["envs/**", "modules/local/**/main.nf"],
                ),
                (
                    "Module conda env is environment.yml beside main.nf",
                    "Every local module has modules/local/<tool>/environment.yml and declares `conda \"${moduleDir}/environment.yml\"`; the container build reads that file. envs/ at the repo root only keeps dev.yml.",
                    &["modules/local/**/environment.yml"],
                ),
                Decision::Supersede,
            ),
            (
                "a directory said to hold only some files, the candidate's in it",
                (
                    "Local module tests live under tests/modules/local",
                    "Each local module has tests/modules/local/<tool>/main.nf.test and its .snap; nf-test.config's testsDir is `tests`.",
                    &["tests/modules/local/**", "nf-test.config"],
                ),
                (
                    "Module test snapshots are reviewed like code",
                    "tests/ only keeps nf-test files and their .snap snapshots; read the snapshot diff of tests/modules/local before --update-snapshot.",
                    &["tests/modules/local/**"],
                ),
                Decision::Accept,
            ),
            (
                "the old file's name under a new directory, the old path never",
                (
                    "Nav2 params are in config/nav2/nav2_params.yaml",
                    "All Nav2 server parameters live in config/nav2/nav2_params.yaml at the repo root; launch/nav.launch.py loads it.",
                    &["config/nav2/nav2_params.yaml", "launch/nav.launch.py"],
                ),
                (
                    "Nav2 params ship with the bringup package",
                    "src/nav/bringup/params/nav2_params.yaml, installed to share/bringup/params. nav.launch.py now also lives in that package.",
                    &["src/nav/bringup/params/**"],
                ),
                Decision::Supersede,
            ),
            (
                "a title about where a thing lives, its files named elsewhere",
                (
                    "Playwright layout",
                    "Specs in tests/e2e/<area>/*.spec.ts, config at the repo-root playwright.config.ts, shared fixtures in tests/e2e/fixtures.ts.",
                    &["tests/e2e/**", "playwright.config.ts"],
                ),
                (
                    "Where the Playwright suite lives",
                    "Everything e2e is under tests/playwright/: specs in tests/playwright/specs/<area>/, config tests/playwright/playwright.config.ts, fixtures in tests/playwright/fixtures/.",
                    &["tests/playwright/**"],
                ),
                Decision::Supersede,
            ),
            (
                "a name of one word under another directory is another file",
                (
                    "FASTQC module pins its container",
                    "modules/local/fastqc/main.nf sets the container to the quay.io biocontainer of fastqc 0.12.1, never latest.",
                    &["modules/local/fastqc/main.nf"],
                ),
                (
                    "SALMON module pins its container",
                    "modules/local/salmon/main.nf now sets the container to the quay.io biocontainer of salmon 1.10.3, never latest.",
                    &["modules/local/salmon/main.nf"],
                ),
                Decision::Accept,
            ),
            (
                "a file that became a directory of files, no word of a move",
                (
                    "Per-process options live in conf/modules.config",
                    "ext.args, ext.prefix and publishDir for every process are in conf/modules.config, grouped by workflow.",
                    &["conf/modules.config"],
                ),
                (
                    "Per-process config is split by workflow",
                    "conf/modules/rnaseq.config, conf/modules/germline.config and conf/modules/common.config; nextflow.config includes all three. The old single file is deleted.",
                    &["conf/modules/**", "nextflow.config"],
                ),
                Decision::Supersede,
            ),
            (
                "a file without an extension said to have only the rest",
                (
                    "Nightly pipeline is in the root Jenkinsfile",
                    "The root Jenkinsfile handles PR builds and the nightly; the cron is in its triggers block.",
                    &["Jenkinsfile"],
                ),
                (
                    "nightly.groovy holds the nightly pipeline",
                    "ci/jenkins/nightly.groovy is the nightly job's script, cron included. The root Jenkinsfile has only the PR pipeline.",
                    &["ci/jenkins/nightly.groovy", "Jenkinsfile"],
                ),
                Decision::Supersede,
            ),
            (
                "only a part of the old file said to matter, nothing held elsewhere",
                (
                    "Prototype clock constraints are in vcu118.xdc",
                    "create_clock for the 300 MHz sysclk and the MMCM generated clocks are at the top of fpga/constraints/vcu118.xdc.",
                    &["fpga/constraints/vcu118.xdc"],
                ),
                (
                    "Prototype clock constraints need the MMCM names",
                    "Only the create_clock lines in vcu118.xdc matter for the MMCM; keep its generated-clock names in sync with clk_wiz.",
                    &["fpga/constraints/vcu118.xdc"],
                ),
                Decision::Merge,
            ),
            (
                "another file of the tree whose name shares a word, nothing said to move",
                (
                    "Orders ETL loads into the warehouse",
                    "dags/daily_orders_etl.py loads the orders tables into Snowflake before 06:00.",
                    &["dags/daily_orders_etl.py"],
                ),
                (
                    "Refunds ETL waits for the payments export",
                    "dags/daily_refunds_etl.py now starts only after the payments export sensor succeeds.",
                    &["dags/daily_refunds_etl.py"],
                ),
                Decision::Accept,
            ),
            (
                "a file that gave way to another, the old one named no more",
                (
                    "Rebuilding the search index",
                    "Rebuild with `bin/rake search:reindex_products`; the task is defined in lib/tasks/search_reindex_products.rake.",
                    &["lib/tasks/search_reindex_products.rake"],
                ),
                (
                    "Rebuilding the search index",
                    "The task is now search:rebuild in lib/tasks/search/rebuild.rake; run `bin/rake search:rebuild`. The old name is gone.",
                    &["lib/tasks/search/rebuild.rake"],
                ),
                Decision::Supersede,
            ),
            (
                "another file of the same tree that adds a step, the old one still named",
                (
                    "Rebuilding the search index",
                    "Rebuild with `bin/rake search:reindex_products`; the task is defined in lib/tasks/search_reindex_products.rake.",
                    &["lib/tasks/search_reindex_products.rake"],
                ),
                (
                    "Rebuilding the search index",
                    "After search_reindex_products.rake finishes, now also run lib/tasks/search/warm.rake so the first queries are not cold.",
                    &["lib/tasks/search/warm.rake"],
                ),
                Decision::Accept,
            ),
            (
                "a module that became a package, in those words",
                (
                    "CLI arguments are parsed with argparse in sluice/cli.py",
                    "All subcommands are registered in src/sluice/cli.py with argparse.",
                    &["src/sluice/cli.py"],
                ),
                (
                    "Subcommands are argparse subparsers in sluice/cli/",
                    "cli.py became a package: the parser is built in src/sluice/cli/__init__.py and each subcommand registers itself from its own module.",
                    &["src/sluice/cli/**"],
                ),
                Decision::Supersede,
            ),
            (
                "the title's place swapped for the one its files are in",
                (
                    "Dependency versions in buildSrc",
                    "Library coordinates are declared in buildSrc/src/main/kotlin/Dependencies.kt; build files use Deps.* constants.",
                    &["buildSrc/src/main/kotlin/Dependencies.kt"],
                ),
                (
                    "Dependency versions in libs.versions.toml",
                    "Dependency coordinates and versions are in gradle/libs.versions.toml; build files use libs.* accessors.",
                    &["gradle/libs.versions.toml"],
                ),
                Decision::Supersede,
            ),
            (
                "the same rule for another platform's file",
                (
                    "Feature flags are declared in flags.ts",
                    "Every web feature flag has a default in web/src/flags.ts.",
                    &["web/src/flags.ts"],
                ),
                (
                    "Feature flags are declared in Flags.kt",
                    "Every Android feature flag has a default in android/app/Flags.kt.",
                    &["android/app/Flags.kt"],
                ),
                Decision::Accept,
            ),
            (
                "a file a pattern of the rule matches, nothing moved",
                (
                    "Long-running work goes to the arq queue, not BackgroundTasks",
                    "BackgroundTasks die with the worker on deploy; anything heavy is enqueued to arq via app/jobs.",
                    &["app/**/router.py", "app/jobs/**"],
                ),
                (
                    "What counts as heavy for BackgroundTasks vs arq",
                    "BackgroundTasks is fine for sub-second local work. Anything slower goes through arq: the export endpoint now enqueues jobs.export_csv.",
                    &["app/exports/router.py"],
                ),
                Decision::Merge,
            ),
            (
                "the old file turned down by name",
                (
                    "Webhook routes in routes/api.php",
                    "Third-party webhook endpoints are registered in routes/api.php under the /webhooks prefix.",
                    &["routes/api.php"],
                ),
                (
                    "Webhooks have their own routes file",
                    "Heads-up: webhook endpoints are in routes/webhooks.php now, registered in bootstrap/app.php - don't add them to routes/api.php.",
                    &["routes/webhooks.php", "bootstrap/app.php"],
                ),
                Decision::Supersede,
            ),
            (
                "a module that became a package",
                (
                    "Routes in src/api.ts",
                    "Every HTTP route is registered in src/api.ts with the shared auth middleware.",
                    &["src/api.ts"],
                ),
                (
                    "API routes split per resource",
                    "Routes are now one file per resource under src/api/ (orders.ts, users.ts), collected by src/api/index.ts.",
                    &["src/api/index.ts", "src/api/orders.ts"],
                ),
                Decision::Supersede,
            ),
            (
                "a sibling directory of the same stem, nothing said to move",
                (
                    "Routes in src/api.ts",
                    "Every HTTP route is registered in src/api.ts with the shared auth middleware.",
                    &["src/api.ts"],
                ),
                (
                    "API client generated from OpenAPI",
                    "The typed client in src/api/client.ts is generated by `make openapi`; do not edit it by hand.",
                    &["src/api/client.ts"],
                ),
                Decision::Accept,
            ),
            (
                "the same tree under a new root",
                (
                    "ClickHouse migrations in clickhouse/migrations",
                    "Schema migrations are numbered .sql files in clickhouse/migrations, applied with `make ch-migrate`.",
                    &["clickhouse/migrations/**", "Makefile"],
                ),
                (
                    "Running ClickHouse migrations",
                    "ClickHouse migrations are under db/clickhouse/migrations and are applied with `just ch-migrate`; the Makefile is gone.",
                    &["db/clickhouse/migrations/**", "justfile"],
                ),
                Decision::Supersede,
            ),
            (
                "the same file in a new place",
                (
                    "Auth guard is middleware/auth.global.ts",
                    "Route protection lives in middleware/auth.global.ts; pages opt out with definePageMeta.",
                    &["middleware/auth.global.ts"],
                ),
                (
                    "Auth middleware location after the app/ directory migration",
                    "The frontend source moved under app/, so the global auth guard is now app/middleware/auth.global.ts.",
                    &["app/middleware/auth.global.ts"],
                ),
                Decision::Supersede,
            ),
            (
                "the old directory is named and said to be gone",
                (
                    "Host configs in hosts/<name>/configuration.nix",
                    "Each machine has hosts/<name>/configuration.nix; flake.nix maps nixosConfigurations to them.",
                    &["hosts/**"],
                ),
                (
                    "Host layout reorganized",
                    "Machine configs are now nixos/hosts/<name>/default.nix; the top-level hosts/ directory is gone and flake.nix imports from nixos/hosts.",
                    &["nixos/hosts/**"],
                ),
                Decision::Supersede,
            ),
            (
                "a file's directory folded into another",
                (
                    "Failover runbook at ops/runbooks/pg-failover.md",
                    "Switchover and failover steps are in ops/runbooks/pg-failover.md.",
                    &["ops/runbooks/pg-failover.md"],
                ),
                (
                    "Failover runbook moved",
                    "The failover runbook is now docs/runbooks/postgres/failover.md (ops/runbooks was folded into docs/runbooks).",
                    &["docs/runbooks/postgres/failover.md"],
                ),
                Decision::Supersede,
            ),
            // Naming the old place without saying anything moved is a rule of
            // its own ("docs/runbooks" merely contains "runbooks").
            (
                "the directory named, nothing said to move",
                (
                    "Failover runbook at ops/runbooks/pg-failover.md",
                    "Switchover and failover steps are in ops/runbooks/pg-failover.md.",
                    &["ops/runbooks/pg-failover.md"],
                ),
                (
                    "Backup runbook",
                    "Restore drills follow docs/runbooks/backup.md; the failover steps stay in ops/runbooks.",
                    &["docs/runbooks/backup.md"],
                ),
                Decision::Accept,
            ),
            (
                "a neighbouring directory that merely ends alike",
                (
                    "Failover runbook at ops/runbooks/pg-failover.md",
                    "Switchover and failover steps are in ops/runbooks/pg-failover.md.",
                    &["ops/runbooks/pg-failover.md"],
                ),
                (
                    "Failover drills",
                    "Quarterly failover drills are now written up in devops/runbooks/drills.md.",
                    &["devops/runbooks/drills.md"],
                ),
                Decision::Accept,
            ),
        ];
        for (name, (tt, ts, tp), (ct, cs, cp), decision) in rows {
            let stored = [memory("runbook-0001", Convention, tt, ts, tp)];
            let out = review_new(&stored, Convention, ct, cs, cp);
            assert_eq!(out.decision, decision, "{name}: {}", out.reason);
            if decision == Decision::Supersede {
                assert!(
                    out.reason.contains("moved out of") || out.reason.contains("in place of"),
                    "{name}: {}",
                    out.reason
                );
            }
        }
    }

    #[test]
    fn a_word_only_turned_down_names_no_shared_subject() {
        use MemoryType::{Decision as D, Pattern};
        let stored = [memory(
            "target-0001",
            Pattern,
            "Product cache invalidated on ProductUpdated",
            "catalog:product:{id} cache entries are deleted by the ProductUpdated event handler in src/catalog/cache/invalidation.ts, so edits show up immediately.",
            &["src/catalog/cache/**"],
        )];
        for (title, summary, apart) in [
            // What it shares, it turns down ("isn't part of the cached
            // product payload"): another event, another rule.
            (
                "Don't invalidate product cache on StockChanged",
                "Resolved: removed the StockChanged handler that deleted catalog:product:{id}. Stock isn't part of the cached product payload - it's read live from inventory - and invalidating on every stock tick made the cache hit rate drop to ~10%. Don't add it back.",
                true,
            ),
            // The same event, not turned down: the same rule.
            (
                "Product cache invalidated on ProductUpdated events",
                "The ProductUpdated event handler in src/catalog/cache/invalidation.ts deletes catalog:product:{id} cache entries so that edits show up immediately.",
                false,
            ),
        ] {
            let mut m = memory(
                "candidate-ffff",
                D,
                title,
                summary,
                &["src/catalog/cache/invalidation.ts"],
            );
            m.status = Status::Candidate;
            m.provenance.captured_at = "2026-06-01T00:00:00Z".parse().unwrap();
            let out = Reviewer::new(stored.iter()).review(&m);
            assert_eq!(out.decision == Decision::Accept, apart, "{title}: {out:#?}");
        }
    }

    #[test]
    fn a_clearly_named_replacement_crosses_scope_and_type() {
        use MemoryType::{Convention, Decision as D, Gotcha};
        struct Case {
            name: &'static str,
            target: (
                MemoryType,
                &'static str,
                &'static str,
                &'static [&'static str],
            ),
            candidate: (
                MemoryType,
                &'static str,
                &'static str,
                &'static [&'static str],
            ),
            decision: Decision,
        }
        let cases = [
            Case {
                name: "narrower scope, the old library named in the title",
                target: (
                    Convention,
                    "Use Sidekiq for background jobs",
                    "Workers live in app/workers and run under Sidekiq with Redis.",
                    &["app/workers/**", "config/sidekiq.yml"],
                ),
                candidate: (
                    D,
                    "We dropped Sidekiq - background jobs run on GoodJob now",
                    "Sidekiq and Redis were removed; jobs are stored in Postgres by GoodJob.",
                    &["config/sidekiq.yml"],
                ),
                decision: Decision::Supersede,
            },
            Case {
                name: "a gotcha retires a convention's path",
                target: (
                    Convention,
                    "Deploy scripts live in scripts/deploy",
                    "Run scripts/deploy/release.sh from a clean checkout.",
                    &["scripts/deploy/**"],
                ),
                candidate: (
                    Gotcha,
                    "Release builds fail when started from a laptop",
                    "scripts/deploy was deleted; releases only run from the pipeline now.",
                    &["ci/**"],
                ),
                decision: Decision::Supersede,
            },
            Case {
                name: "another type, removed from a place the target names",
                target: (
                    Convention,
                    "Admin dashboard pages render on the server",
                    "Pages under admin/ use server-side rendering; no client-only routes.",
                    &["admin/**"],
                ),
                candidate: (
                    Gotcha,
                    "Exports are gone from the back office",
                    "The legacy export button was removed from the admin dashboard pages.",
                    &["admin/**"],
                ),
                decision: Decision::Accept,
            },
            Case {
                name: "another type, a detail of the target's body only",
                target: (
                    Convention,
                    "Log lines are JSON",
                    "Use the shared logger; the old syslog adapter writes plain text.",
                    &[],
                ),
                candidate: (
                    Gotcha,
                    "Syslog forwarding drops long lines",
                    "The adapter is obsolete on new hosts; lines over 1 KB are cut.",
                    &[],
                ),
                decision: Decision::Accept,
            },
        ];
        for c in cases {
            let (kind, title, summary, paths) = c.target;
            let stored = [memory("target-0001", kind, title, summary, paths)];
            let (kind, title, summary, paths) = c.candidate;
            let mut m = memory("candidate-ffff", kind, title, summary, paths);
            m.status = Status::Candidate;
            m.provenance.captured_at = "2026-06-01T00:00:00Z".parse().unwrap();
            let out = Reviewer::new(stored.iter()).review(&m);
            assert_eq!(out.decision, c.decision, "{}: {out:#?}", c.name);
        }
    }

    #[test]
    fn replacement_wording_must_be_about_the_target() {
        use MemoryType::{Convention, Decision as D};
        let review = |target: Memory, title: &str, summary: &str| {
            let stored = [target];
            let mut m = memory("candidate-ffff", stored[0].kind, title, summary, &[]);
            m.status = Status::Candidate;
            m.provenance.captured_at = "2026-06-01T00:00:00Z".parse().unwrap();
            let out = Reviewer::new(stored.iter()).review(&m);
            (out.relation, out.decision)
        };
        // What "instead of" replaces is not in the target: a new, distinct rule.
        let (_, decision) = review(
            memory(
                "bigdecimal-0001",
                Convention,
                "Use BigDecimal for currency amounts",
                "Currency math uses BigDecimal; double is never used for money.",
                &[],
            ),
            "Round currency amounts with HALF_EVEN",
            "Currency amounts are rounded with HALF_EVEN instead of HALF_UP.",
        );
        assert_eq!(decision, Decision::Accept);
        // The target says "instead of Moment.js" itself: a repeat, not a replacement.
        let (relation, decision) = review(
            memory(
                "date-fns-0001",
                Convention,
                "Use date-fns instead of Moment.js",
                "Date code uses date-fns instead of Moment.js; Moment is not tree-shakeable.",
                &[],
            ),
            "Use date-fns instead of Moment.js",
            "Date code uses date-fns instead of Moment.js, because Moment is not tree-shakeable.",
        );
        assert_eq!((relation, decision), (Relation::Duplicate, Decision::Merge));
        // "We no longer <its title>" replaces it although the rest is new.
        let (relation, decision) = review(
            memory(
                "capistrano-0001",
                D,
                "Deploy with Capistrano from the bastion host",
                "Production deploys run cap production deploy from the bastion host.",
                &[],
            ),
            "Deploy from GitHub Actions on merge to main",
            "We no longer deploy with Capistrano from the bastion host; \
             the deploy workflow ships every merge to main.",
        );
        assert_eq!(
            (relation, decision),
            (Relation::FullReplacement, Decision::Supersede)
        );
        // What went is one of the target's names of code, with the kind of
        // thing it is: about the target.
        let (relation, decision) = review(
            memory(
                "webhook-dedupe-0001",
                D,
                "Dedupe webhooks on X-Shopify-Webhook-Id",
                "The processor inserts the webhook id into `ProcessedWebhook` (unique on webhookId) first; \
                 a unique violation means it was handled.",
                &[],
            ),
            "Webhook dedupe in Redis (SET NX)",
            "ProcessedWebhook table is gone: it had grown to 300M rows. The processor \
             does `SET wh:{id} 1 NX EX 259200` on the queue Redis.",
        );
        assert_eq!(
            (relation, decision),
            (Relation::FullReplacement, Decision::Supersede)
        );
        // So is one it writes in backticks.
        let (relation, decision) = review(
            memory(
                "plans-0001",
                D,
                "Plans: Starter $9.99 / Growth $29.99",
                "The `billing` config in shopify.server.ts sets both plans, each with a 14-day trial.",
                &[],
            ),
            "Billing via Shopify managed pricing",
            "Plans are now set up in the Partner Dashboard, same prices and trial. \
             The `billing` block is gone from shopify.server.ts.",
        );
        assert_eq!(
            (relation, decision),
            (Relation::FullReplacement, Decision::Supersede)
        );
        // Saying the opposite is a contradiction for a person, never a merge.
        let (relation, decision) = review(
            memory(
                "migrations-0001",
                Convention,
                "Run migrations before deploying the new code",
                "The pipeline applies migrations before the new release starts.",
                &[],
            ),
            "Run migrations after deploying the new code",
            "The pipeline applies migrations after the new release starts, so code tolerates the old schema.",
        );
        assert_eq!(
            (relation, decision),
            (Relation::AmbiguousOverlap, Decision::Accept)
        );
    }

    #[test]
    fn a_new_memory_is_explained_by_its_closest_neighbour() {
        // What, stored, candidate title, summary and paths, the reason's words.
        type Case<'a> = (
            &'a str,
            Vec<Memory>,
            &'a str,
            &'a str,
            &'a [&'a str],
            &'a str,
        );
        use MemoryType::Convention;
        let clippy = memory(
            "ci-clippy-0001",
            Convention,
            "CI fails on clippy warnings",
            "The lint job runs cargo clippy with -D warnings; fix every warning before pushing.",
            &[".github/workflows/ci.yml"],
        );
        let web = memory(
            "web-lockfile-0001",
            Convention,
            "Commit the lockfile with every dependency change",
            "A dependency bump without its updated lockfile breaks the reproducible build.",
            &["web/**"],
        );
        let mut dismissed = clippy.clone();
        dismissed.id = MemoryId::new("ci-clippy-dismissed-0001").unwrap();
        dismissed.status = Status::Dismissed;
        let cases: &[Case] = &[
            (
                "an empty store",
                vec![],
                "CI fails on rustfmt diffs",
                "The lint job runs cargo fmt --check.",
                &[],
                "nothing comparable is stored",
            ),
            (
                "a look-alike names what keeps it apart",
                vec![clippy.clone()],
                "CI fails on rustfmt diffs",
                "The lint job runs cargo fmt --check; run cargo fmt before pushing.",
                &[".github/workflows/ci.yml"],
                "names `clippy` where this says `rustfmt`",
            ),
            (
                "the same rule for other files",
                vec![web.clone()],
                "Commit the lockfile with every dependency change",
                "A dependency bump without its updated lockfile breaks the reproducible build.",
                &["api/**"],
                "), is about other files",
            ),
            (
                "a dismissed memory it does not repeat",
                vec![dismissed],
                "CI also runs clippy on nightly",
                "A second lint job runs cargo clippy on the nightly toolchain and may fail; it only shows new lints early.",
                &[],
                "was dismissed in review, and this does not repeat it",
            ),
        ];
        for (what, stored, title, summary, paths, want) in cases {
            let out = review_new(stored, Convention, title, summary, paths);
            assert_eq!(out.decision, Decision::Accept, "{what}: {}", out.reason);
            assert!(out.reason.contains(want), "{what}: {}", out.reason);
        }
    }

    #[test]
    fn repeating_dismissed_knowledge_is_rejected() {
        let mut stored = store();
        stored[4].status = Status::Dismissed;
        let reviewer = Reviewer::new(stored.iter());
        let mut m = stored[4].clone();
        m.id = MemoryId::new("candidate-ffff").unwrap();
        m.status = Status::Candidate;
        let out = reviewer.review(&m);
        assert_eq!(
            (out.relation, out.decision),
            (Relation::Duplicate, Decision::Reject),
            "{out:#?}"
        );
        assert!(out.reason.contains("dismissed"), "{}", out.reason);
        // Reworded, it is still a repeat.
        m.title = "Stripe sends each webhook twice".into();
        m.summary =
            "Deduplicate Stripe webhook events by their event id before processing them.".into();
        let out = reviewer.review(&m);
        assert_eq!(out.decision, Decision::Reject, "{out:#?}");
        // Related but not a repeat: the dismissed memory is ignored.
        m.title = "Stripe webhooks arrive out of order".into();
        m.summary = "Order Stripe events by their created timestamp, not arrival.".into();
        assert_eq!(reviewer.review(&m).decision, Decision::Accept);
    }

    #[test]
    fn announced_moves_and_rules_about_the_same_files() {
        use MemoryType::Convention;
        let review = |stored: &[Memory], title: &str, summary: &str, paths: &[&str]| {
            review_new(stored, Convention, title, summary, paths)
        };
        // A title that announces a move, and a value of the target changed.
        let stored = [memory(
            "e2e-grid-0001",
            Convention,
            "Browser tests run on the Selenium grid",
            "e2e/ runs on the in-house Selenium grid (Chrome 118, Firefox 115) from the nightly job.",
            &["e2e/**", "ci/nightly.yml"],
        )];
        let out = review(
            &stored,
            "Cloud device runs moved to Playwright in CI",
            "We let the Selenium grid licence lapse; the nightly job runs e2e/ with Playwright on Chrome 124 and Firefox 125.",
            &["ci/nightly.yml"],
        );
        assert_eq!(
            verdict_of(&out),
            (Decision::Supersede, Some("e2e-grid-0001")),
            "{}",
            out.reason
        );
        // Another rule about the same files shares their names, not the body.
        let stored = [
            memory(
                "proto-home-0001",
                Convention,
                "Protobuf files live in api/proto",
                "api/proto/v1 holds the service definitions; buf.yaml lists the modules.",
                &["api/**"],
            ),
            memory(
                "http-errors-0002",
                Convention,
                "HTTP handlers return problem+json errors",
                "Every handler maps domain errors to RFC 7807 bodies.",
                &["internal/http/**"],
            ),
        ];
        let out = review(
            &stored,
            "Run buf generate after editing any api/proto file",
            "Stubs in api/gen are committed and CI fails on a diff, so regenerate them.",
            &["api/**"],
        );
        assert_ne!(out.decision, Decision::Merge, "{out:#?}");
    }

    #[test]
    fn an_update_that_repeats_a_claim_is_merged() {
        use MemoryType::{Convention, Gotcha};
        let stored = [
            memory(
                "backoff-0001",
                Gotcha,
                "Outbound calls retry with exponential backoff",
                "The HTTP client retries 5xx and timeouts up to 4 times, doubling the delay.",
                &["pkg/httpclient/**"],
            ),
            memory(
                "timeouts-0002",
                Gotcha,
                "Outbound calls set a 10 s timeout",
                "Every request through pkg/httpclient gets a context deadline.",
                &["pkg/httpclient/**"],
            ),
        ];
        let review = |title: &str, summary: &str| {
            let mut m = memory(
                "candidate-ffff",
                Gotcha,
                title,
                summary,
                &["pkg/httpclient/**"],
            );
            m.status = Status::Candidate;
            m.provenance.captured_at = "2026-06-01T00:00:00Z".parse().unwrap();
            Reviewer::new(stored.iter()).review(&m)
        };
        let out = review(
            "Outbound retries with exponential backoff need jitter",
            "When outbound calls retry with exponential backoff, add full jitter to the delay, \
             or every pod retries at once and the gateway rate-limits them.",
        );
        assert_eq!(
            verdict_of(&out),
            (Decision::Merge, Some("backoff-0001")),
            "{}",
            out.reason
        );
        assert!(out.reason.contains("repeats its claim"), "{}", out.reason);
        let out = review(
            "Webhook calls never retry with exponential backoff",
            "Outbound webhook deliveries go through the queue, which owns the retries.",
        );
        assert_ne!(out.decision, Decision::Merge, "{out:#?}");
        // Every word of a global claim spread over another rule's text.
        let stored = [memory(
            "migrate-first-0001",
            Convention,
            "Run database migrations before deploying",
            "The pipeline applies pending migrations, then rolls out the new release.",
            &[],
        )];
        let mut m = memory(
            "candidate-ffff",
            Convention,
            "Database migrations must be backward compatible",
            "Deploying code before its migration runs must not break old pods; add columns \
             first and drop them in a later release.",
            &[],
        );
        m.status = Status::Candidate;
        m.provenance.captured_at = "2026-06-01T00:00:00Z".parse().unwrap();
        let out = Reviewer::new(stored.iter()).review(&m);
        assert_ne!(out.decision, Decision::Merge, "{}", out.reason);
    }

    #[test]
    fn an_addition_that_names_its_memory_is_merged() {
        use MemoryType::Gotcha;
        let stored = [
            memory(
                "vacuum-0001",
                Gotcha,
                "Nightly VACUUM keeps the events table small",
                "The 02:00 job vacuums events; autovacuum alone falls behind on it.",
                &["db/**"],
            ),
            memory(
                "analyze-0002",
                Gotcha,
                "Bulk loads leave planner statistics stale",
                "Query plans go wrong for an hour after a large COPY.",
                &["db/**"],
            ),
        ];
        let mut m = memory(
            "candidate-ffff",
            Gotcha,
            "Monthly partitions are skipped",
            "Adding to the nightly events VACUUM note: run it on each monthly partition by \
             name, the parent holds no rows, so the job finds nothing to do.",
            &["db/**"],
        );
        m.status = Status::Candidate;
        m.provenance.captured_at = "2026-06-01T00:00:00Z".parse().unwrap();
        let out = Reviewer::new(stored.iter()).review(&m);
        assert_eq!(
            verdict_of(&out),
            (Decision::Merge, Some("vacuum-0001")),
            "{}",
            out.reason
        );
        assert!(out.reason.contains("names it"), "{}", out.reason);
    }

    #[test]
    fn a_verbatim_copy_is_no_change_of_a_look_alike() {
        use MemoryType::Convention;
        let stored = [
            memory(
                "pool-old-0001",
                Convention,
                "Checkout workers run with 8 threads",
                "Set in deploy/checkout.yaml; more threads starve the database pool.",
                &["deploy/**"],
            ),
            memory(
                "pool-new-0002",
                Convention,
                "Checkout workers run with 12 threads",
                "Set in deploy/checkout.yaml; more threads starve the database pool.",
                &["deploy/**"],
            ),
        ];
        let mut m = stored[1].clone();
        m.id = MemoryId::new("candidate-ffff").unwrap();
        m.status = Status::Candidate;
        m.provenance.captured_at = "2026-06-01T00:00:00Z".parse().unwrap();
        let out = Reviewer::new(stored.iter()).review(&m);
        assert_eq!(
            verdict_of(&out),
            (Decision::Merge, Some("pool-new-0002")),
            "{}",
            out.reason
        );
    }

    #[test]
    fn a_verbatim_copy_retires_nothing() {
        use MemoryType::{Convention, Gotcha};
        let stored = [
            memory(
                "groups-0001",
                Convention,
                "Addressables groups are split by load cadence",
                "Boot, Lobby and Match assets live in separate Addressables groups so a \
                 content update to the shop never forces a re-download of match assets.",
                &["Assets/AddressableAssetsData/**"],
            ),
            memory(
                "state-0002",
                Gotcha,
                "Content updates must be built from the shipped content state file",
                "A content-only update has to use the addressables_content_state.bin archived \
                 with the store release it targets; a fresh catalog changes bundle hashes.",
                &["Assets/AddressableAssetsData/**"],
            ),
        ];
        let mut m = stored[1].clone();
        m.id = MemoryId::new("candidate-ffff").unwrap();
        m.status = Status::Candidate;
        m.title.push('.');
        m.provenance.captured_at = "2026-06-01T00:00:00Z".parse().unwrap();
        let out = Reviewer::new(stored.iter()).review(&m);
        assert_eq!(
            verdict_of(&out),
            (Decision::Merge, Some("state-0002")),
            "{}",
            out.reason
        );
    }

    #[test]
    fn reworded_repeats_of_dismissed_knowledge() {
        use MemoryType::{Convention, Gotcha, Pattern};
        let dismissed = |kind, title: &str, summary: &str| {
            let mut m = memory("dismissed-0001", kind, title, summary, &[]);
            m.status = Status::Dismissed;
            m
        };
        let podman = || {
            dismissed(
                MemoryType::Decision,
                "Run Docker-format containers with rootless Podman on the cluster",
                "Use rootless Podman on compute nodes so the cluster and CI use the same docker \
                 profile and we skip the SIF conversion.",
            )
        };
        let cases = [
            (
                "the same identifier, reworded, under another type",
                dismissed(
                    Convention,
                    "Reach the audio mixer through AudioMixer.Instance",
                    "Call AudioMixer.Instance wherever a script needs to play a sound.",
                ),
                (
                    Pattern,
                    "Playing sounds from gameplay code",
                    "The simplest way to play a sound from any script is AudioMixer.Instance.",
                ),
                Decision::Reject,
            ),
            (
                "the same advice in other words",
                dismissed(
                    Convention,
                    "Use early returns for validation",
                    "Prefer returning early over nested if blocks when validating input at the top of a function.",
                ),
                (
                    Convention,
                    "Prefer early returns to nested ifs for input checks",
                    "When a function validates its input at the top, return early instead of nesting if blocks.",
                ),
                Decision::Reject,
            ),
            (
                "one identifier both name and words only they share",
                dismissed(
                    Gotcha,
                    "Run Gradle with -Xmx6g or the build dies",
                    "Full builds fail on the default heap; set org.gradle.jvmargs=-Xmx6g.",
                ),
                (
                    Gotcha,
                    "Give the Gradle daemon six gigabytes",
                    "Assembling every module exhausts the Java heap unless the JVM may grow: \
                     put -Xmx6g in gradle.properties so the whole team gets it.",
                ),
                Decision::Reject,
            ),
            (
                "a proposal turned down, proposed again under another title",
                dismissed(
                    MemoryType::Decision,
                    "Adopt GORM as the ORM",
                    "Proposal to replace sqlc-generated queries with GORM models to cut \
                     boilerplate. Turned down: we want explicit SQL.",
                ),
                (
                    MemoryType::Decision,
                    "Move the repo layer to GORM",
                    "Note for next time: we should switch the sqlc queries in internal/store \
                     over to GORM models, a .sql file for every little query is boilerplate.",
                ),
                Decision::Reject,
            ),
            (
                "the same subject with the dismissed advice negated",
                dismissed(
                    Pattern,
                    "Retry declined card payments immediately",
                    "When a card payment is declined, retry it up to three times in a row.",
                ),
                (
                    Pattern,
                    "Retry card payments only on network errors",
                    "A charge is retried once when the request times out; declines are \
                     never retried.",
                ),
                Decision::Accept,
            ),
            (
                "a proposal turned down, proposed again in words of its own",
                podman(),
                (
                    MemoryType::Decision,
                    "Use the docker profile on Slurm too",
                    "Every SIF conversion eats 20 min of the first run. If we ran podman \
                     rootless on the compute nodes we could use the docker profile there and \
                     have exactly what CI runs.",
                ),
                Decision::Reject,
            ),
            (
                "the way things are done told, near the dismissed proposal",
                podman(),
                (
                    MemoryType::Decision,
                    "Cluster jobs pull each image once",
                    "Apptainer turns every docker profile image into a SIF in the shared cache \
                     on its first pull; compute nodes never reach a registry.",
                ),
                Decision::Accept,
            ),
            (
                "a correction that negates what the dismissed memory advised",
                dismissed(
                    Gotcha,
                    "Set verify=False for the staging search cluster",
                    "The staging cluster uses a self-signed certificate, so pass verify=False.",
                ),
                (
                    Gotcha,
                    "Staging search cluster needs the internal CA",
                    "Never pass verify=False to the staging search client; load the internal CA bundle instead.",
                ),
                Decision::Accept,
            ),
        ];
        // A closer memory of another type does not hide the dismissed one
        // from a candidate with replacement wording (compared across types).
        let stored = [
            dismissed(
                Convention,
                "Bounce the api deployment on latency spikes",
                "When p99 goes above 2 s, kubectl rollout restart deploy/api brings it back.",
            ),
            memory(
                "gotcha-0002",
                Gotcha,
                "Restart the api pods when p99 latency spikes",
                "Running kubectl rollout restart deploy/api when p99 latency is above 2 s \
                 hides the connection leak behind the spikes.",
                &[],
            ),
        ];
        let mut m = memory(
            "candidate-ffff",
            Convention,
            "Restart the api pods when p99 latency spikes",
            "Run kubectl rollout restart deploy/api when p99 latency is above 2 s; \
             we no longer wait for the on-call review.",
            &[],
        );
        m.status = Status::Candidate;
        m.provenance.captured_at = "2026-06-01T00:00:00Z".parse().unwrap();
        let out = Reviewer::new(stored.iter()).review(&m);
        assert_eq!(out.decision, Decision::Reject, "{}", out.reason);
        for (name, target, (kind, title, summary), want) in cases {
            let stored = [target];
            let mut m = memory("candidate-ffff", kind, title, summary, &[]);
            m.status = Status::Candidate;
            m.provenance.captured_at = "2026-06-01T00:00:00Z".parse().unwrap();
            let out = Reviewer::new(stored.iter()).review(&m);
            assert_eq!(out.decision, want, "{name}: {out:#?}");
        }
    }

    #[test]
    fn changed_values_and_qualified_titles() {
        use MemoryType::{Convention, Decision as D};
        let review = |target: Memory, title: &str, summary: &str| {
            let stored = [target];
            let mut m = memory(
                "candidate-ffff",
                stored[0].kind,
                title,
                summary,
                &["svc/**"],
            );
            m.status = Status::Candidate;
            m.provenance.captured_at = "2026-06-01T00:00:00Z".parse().unwrap();
            let out = Reviewer::new(stored.iter()).review(&m);
            (out.relation, out.decision, out.reason)
        };
        let sampling = memory(
            "sampling-0001",
            D,
            "Sentry traces are sampled at 10%",
            "traces_sample_rate is 0.1 in production.",
            &["svc/**"],
        );
        // A measure changed in the title: the newer memory replaces the older.
        let (relation, decision, reason) = review(
            sampling.clone(),
            "Sentry traces are sampled at 1%",
            "traces_sample_rate is 0.01 in production, to stay within the quota.",
        );
        assert_eq!(
            (relation, decision),
            (Relation::FullReplacement, Decision::Supersede),
            "{reason}"
        );
        assert!(reason.contains("from 10% to 1%"), "{reason}");
        // The same setting of the same files stated anew, not in the title:
        // the value as it is now.
        let (relation, decision, reason) = review(
            sampling,
            "Sentry traces are sampled in production",
            "traces_sample_rate is 0.01 in production, to stay within the quota.",
        );
        assert_eq!(
            (relation, decision),
            (Relation::FullReplacement, Decision::Supersede),
            "{reason}"
        );
        assert!(reason.contains("from 10% to 0.01"), "{reason}");
        // Said for other files, a changed value is for a person to weigh:
        // never merged, never replacing on its own.
        let stored = [memory(
            "sampling-0001",
            D,
            "Sentry traces are sampled at 10%",
            "traces_sample_rate is 0.1 in production.",
            &["svc/**"],
        )];
        let mut other_files = memory(
            "candidate-ffff",
            D,
            "Sentry traces are sampled in production",
            "traces_sample_rate is 0.01 in production, to stay within the quota.",
            &["svc/api/**"],
        );
        other_files.status = Status::Candidate;
        other_files.provenance.captured_at = "2026-06-01T00:00:00Z".parse().unwrap();
        let out = Reviewer::new(stored.iter()).review(&other_files);
        assert_eq!(
            (out.relation, out.decision),
            (Relation::AmbiguousOverlap, Decision::Accept),
            "{}",
            out.reason
        );
        assert!(out.reason.contains("changed value"), "{}", out.reason);
        // A convention's value restated as a trap for the same files.
        let stored = [memory(
            "uvicorn-0001",
            Convention,
            "Uvicorn runs with 4 workers and keep-alive 5s",
            "The container CMD is uvicorn app.main:app --workers 4 --timeout-keep-alive 5 --proxy-headers.",
            &["Dockerfile"],
        )];
        let trap = |paths: &[&str]| {
            review_new(
                &stored,
                MemoryType::Gotcha,
                "Uvicorn keep-alive is 65s",
                "The container runs uvicorn with --timeout-keep-alive 65 (workers still 4). It has to be above the ALB idle timeout of 60s, or clients see sporadic 502s.",
                paths,
            )
        };
        let out = trap(&["Dockerfile"]);
        assert_eq!(out.decision, Decision::Supersede, "{}", out.reason);
        // For other files, across types, a person weighs it.
        let out = trap(&["deploy/alb.tf"]);
        assert_ne!(out.decision, Decision::Supersede, "{}", out.reason);
        // In one of the files the convention lists.
        let stored = [memory(
            "batch-scope-0001",
            Convention,
            "AccountSyncBatch runs with scope 200",
            "The nightly scheduler calls Database.executeBatch(new AccountSyncBatch(), 200); each execute() makes one callout per account.",
            &[
                "classes/AccountSyncBatch.cls",
                "classes/NightlySyncScheduler.cls",
            ],
        )];
        let out = review_new(
            &stored,
            MemoryType::Gotcha,
            "fix(sync): run AccountSyncBatch with scope 50",
            "NightlySyncScheduler now calls Database.executeBatch(new AccountSyncBatch(), 50). With one callout per account, chunks of 200 blew the 100-callouts limit.",
            &["classes/NightlySyncScheduler.cls"],
        );
        assert_eq!(out.decision, Decision::Supersede, "{}", out.reason);
        // In one of the files the memory lists, the value as it is now.
        let stored = [memory(
            "pulumi-pin-0001",
            Convention,
            "Pulumi CLI pinned to 3.95.0",
            ".tool-versions pins pulumi 3.95.0 and the workflow uses pulumi-version: 3.95.0; mismatched CLI versions rewrite the state file format.",
            &[".tool-versions", ".github/workflows/infra-*.yml"],
        )];
        let out = review_new(
            &stored,
            Convention,
            "Pulumi CLI version",
            "pulumi is 3.130.0 in .tool-versions and in the workflows' pulumi-version input; run asdf install after pulling.",
            &[".tool-versions"],
        );
        assert_eq!(out.decision, Decision::Supersede, "{}", out.reason);
        // A title opening with a verb of change names nothing apart.
        let stored = [memory(
            "stripe-timeout-0001",
            MemoryType::Gotcha,
            "Stripe HttpClient timeout is 10 s",
            "The scoped `stripe.client` in config/packages/framework.yaml sets timeout: 10; slower calls surface as TransportException.",
            &["config/packages/framework.yaml"],
        )];
        let out = review_new(
            &stored,
            MemoryType::Gotcha,
            "Raised the Stripe client timeout",
            "Raised the stripe.client timeout in config/packages/framework.yaml from 10 to 25 seconds: refunds take 12-18 s in batch windows.",
            &["config/packages/framework.yaml"],
        );
        assert_eq!(out.decision, Decision::Supersede, "{}", out.reason);
        // Said of no files, the same setting in texts about one thing.
        let stored = [memory(
            "statement-timeout-0001",
            D,
            "Postgres statement_timeout is 30s for the app role",
            "ALTER ROLE app SET statement_timeout = '30s'; reports use their own role.",
            &[],
        )];
        let out = review_new(
            &stored,
            D,
            "Postgres statement_timeout for the app role",
            "ALTER ROLE app SET statement_timeout = '15s'; reports use their own role.",
            &[],
        );
        assert_eq!(out.decision, Decision::Supersede, "{}", out.reason);
        // The same setting of another role, and another setting of the
        // same files: two values of two things, nothing replaced.
        let stored = [
            memory(
                "api-role-0001",
                Convention,
                "statement_timeout for the api role is 30s",
                "ALTER ROLE api SET statement_timeout = '30s' on the orders primary.",
                &["db/roles.sql"],
            ),
            memory(
                "idle-0001",
                Convention,
                "idle_in_transaction_session_timeout is 60s for all app roles",
                "Kills sessions that forget to commit.",
                &["db/roles.sql"],
            ),
        ];
        let reporting = |title: &str| {
            review_new(
                &stored,
                Convention,
                title,
                "The reporting role on the read replica has statement_timeout '15min' so \
                 month-end exports can finish.",
                &["db/roles.sql"],
            )
        };
        let out = reporting("statement_timeout for the reporting role is 15 minutes");
        assert_eq!(out.decision, Decision::Accept, "{}", out.reason);
        // The same role's new value still replaces the old.
        let out = review_new(
            &stored,
            Convention,
            "statement_timeout for the api role is 10s",
            "ALTER ROLE api SET statement_timeout = '10s' on the orders primary.",
            &["db/roles.sql"],
        );
        assert_eq!(
            (
                out.decision,
                out.targets.first().map(crate::model::id::MemoryId::as_str)
            ),
            (Decision::Supersede, Some("api-role-0001")),
            "{}",
            out.reason
        );
        // The whole title, qualified: an update of the same rule.
        let deadline = memory(
            "grpc-deadline-0001",
            Convention,
            "Every outbound gRPC call sets a deadline",
            "gRPC clients have no default deadline; unary calls use a 2 s deadline.",
            &["svc/**"],
        );
        let (relation, decision, reason) = review(
            deadline.clone(),
            "Every outbound gRPC call sets a deadline, except long-lived streams",
            "Unary calls keep the 2 s deadline; server-streaming calls must not get one.",
        );
        assert_eq!(
            (relation, decision),
            (Relation::AdditiveUpdate, Decision::Merge),
            "{reason}"
        );
        // ... but not when the qualification negates it.
        let (_, decision, reason) = review(
            deadline,
            "Every outbound gRPC call sets a deadline? Not the long-lived streams",
            "Streams get no deadline because it kills them; they rely on keepalive pings.",
        );
        assert_eq!(decision, Decision::Accept, "{reason}");
        // A newer version named in another rule's title changes nothing of
        // a rule about something else that names the older one.
        let bulk = memory(
            "bulk-insert-0001",
            D,
            "Bulk INSERT with IGNORE blocks replication",
            "On our MySQL 5.7 primary a bulk insert with IGNORE stalls the replicas for \
             minutes; insert in chunks of 1,000 rows instead.",
            &["svc/**"],
        );
        let (relation, decision, reason) = review(
            bulk.clone(),
            "Schema changes lock the table on MySQL 8.0",
            "Now that the primary runs MySQL 8.0, ALTER TABLE still takes a metadata lock; \
             run it off-peak.",
        );
        assert_eq!(
            (relation, decision),
            (Relation::Novel, Decision::Accept),
            "{reason}"
        );
        // The same rule with the new version is still a replacement.
        let (relation, decision, reason) = review(
            bulk,
            "Bulk INSERT with IGNORE is harmless on MySQL 8.0",
            "Now that the primary runs MySQL 8.0, a bulk insert with IGNORE no longer \
             stalls the replicas.",
        );
        assert_eq!(
            (relation, decision),
            (Relation::FullReplacement, Decision::Supersede),
            "{reason}"
        );
    }

    #[test]
    fn a_title_that_says_something_else_of_its_subject_after_a_change() {
        let stored = [memory(
            "add-column-0001",
            MemoryType::Gotcha,
            "ADD COLUMN with DEFAULT rewrites the table",
            "On our Postgres 10 cluster a new column with a default rewrites the whole \
             table under an exclusive lock; add it nullable and backfill instead.",
            &[],
        )];
        let review = |title: &str| {
            let mut m = memory(
                "candidate-ffff",
                MemoryType::Gotcha,
                title,
                "Now that the cluster is on Postgres 16, a constant default is stored in \
                 the catalog and takes no lock worth mentioning.",
                &[],
            );
            m.status = Status::Candidate;
            m.provenance.captured_at = "2026-06-01T00:00:00Z".parse().unwrap();
            Reviewer::new(stored.iter()).review(&m)
        };
        // The titles open alike and differ in what they say of it ("cheap"
        // where it says "rewrites"): the same subject, and a value of it
        // changed, so the newer memory replaces the older.
        let out = review("ADD COLUMN ... DEFAULT is cheap since the PG16 upgrade");
        assert_eq!(
            (out.relation, out.decision),
            (Relation::FullReplacement, Decision::Supersede),
            "{out:#?}"
        );
        assert!(out.reason.contains("from 10 to 16"), "{}", out.reason);
        // A title that opens with another subject is another memory.
        let out = review("DROP COLUMN is cheap since the PG16 upgrade");
        assert_eq!(out.decision, Decision::Accept, "{out:#?}");
    }

    #[test]
    fn a_name_called_old_is_not_folded_in() {
        use MemoryType::Convention;
        let stored = [
            memory(
                "registry-host-0001",
                Convention,
                "Images are pushed to registry.internal.acme.io",
                "CI pushes every image to registry.internal.acme.io/platform/<service> with \
                 the commit sha as tag.",
                &[".github/workflows/build.yml"],
            ),
            memory(
                "image-scan-0001",
                Convention,
                "Images are scanned before deploy",
                "Trivy scans each image in CI; a fixable CRITICAL fails the job.",
                &[".github/workflows/build.yml"],
            ),
        ];
        let out = review_new(
            &stored,
            Convention,
            "Images go to the new registry",
            "CI pushes every image to images.acme.io/platform/<service>, tagged with the commit \
             sha. The old registry.internal.acme.io stays read-only until March.",
            &[".github/workflows/build.yml"],
        );
        assert_ne!(out.decision, Decision::Merge, "{out:#?}");
        // "An old X" is an X that is old: a retelling is still one.
        let stored = [memory(
            "catchup-0001",
            Convention,
            "New DAGs must set catchup=False",
            "Airflow defaults catchup to True, so a new DAG with a `start_date` months ago \
             triggers hundreds of backfill runs on first deploy.",
            &["dags/**"],
        )];
        let out = review_new(
            &stored,
            Convention,
            "Set catchup=False on new DAGs",
            "Airflow leaves catchup on by default, so a new DAG with an old start_date kicks \
             off hundreds of backfill runs when it is first deployed.",
            &["dags/**"],
        );
        assert_eq!(out.decision, Decision::Merge, "{out:#?}");
    }

    #[test]
    fn which_memory_a_change_replaces() {
        use MemoryType::{Convention, Gotcha};
        let supersedes = |out: &crate::review::ReviewOutcome, id: &str| {
            assert_eq!(
                (out.decision, out.targets.as_slice()),
                (Decision::Supersede, &[MemoryId::new(id).unwrap()][..]),
                "{out:#?}"
            );
        };
        let review = |stored: &[Memory], title: &str, summary: &str, paths: &[&str]| {
            review_new(stored, Gotcha, title, summary, paths)
        };
        // The words before "moved to" name two memories; the one whose value
        // the title changes, and which is the closer, is replaced.
        let stored = [
            memory(
                "make-dev-0001",
                Convention,
                "make dev starts the whole stack",
                "make dev runs docker compose up with postgres, redis and mailpit.",
                &["Makefile", "docker-compose.yml"],
            ),
            memory(
                "redis-port-0001",
                Gotcha,
                "Local Redis listens on 6380",
                "docker-compose maps redis to host port 6380 so it does not clash with a \
                 Homebrew Redis on 6379; REDIS_URL in .env.example uses localhost:6380.",
                &["docker-compose.yml", ".env.example"],
            ),
        ];
        let out = review(
            &stored,
            "Dev Redis moved to host port 56380",
            "6380 clashed with another compose stack, so docker-compose.yml now publishes \
             redis on 56380 and .env.example uses localhost:56380.",
            &["docker-compose.yml", ".env.example"],
        );
        supersedes(&out, "redis-port-0001");
        // A value named as what was is a change whatever the clock says: a
        // candidate captured before the memory was last touched still knows
        // the memory's value as past.
        let stored = [memory(
            "pool-size-0001",
            Convention,
            "Connection pool settings",
            "config/database.yml: `pool: 10`, checkout_timeout 5 s.",
            &["config/database.yml"],
        )];
        let out = review_captured(
            &stored,
            (
                Convention,
                "Pool size: 25",
                "Raised the connection pool to 25 (was 10): the job workers ran out at peak.",
                &["config/database.yml"],
            ),
            "2025-11-01T00:00:00Z",
        );
        supersedes(&out, "pool-size-0001");
        // One setting named on both sides, for files the candidate covers
        // with more, is one setting: `line-length = 120` replaces
        // "line-length 110", unworded.
        let stored = [
            memory(
                "black-config-0001",
                Convention,
                "black config lives in the root pyproject",
                "`[tool.black]` in pyproject.toml: line-length 110, target-version py311; \
                 notebooks/ is excluded.",
                &["pyproject.toml"],
            ),
            memory(
                "isort-profile-0001",
                Convention,
                "isort uses the black profile",
                "Imports are sorted with isort in the black profile.",
                &["setup.cfg"],
            ),
        ];
        let out = review_new(
            &stored,
            Convention,
            "black line length",
            "`line-length = 120` in [tool.black] of the root pyproject.toml; the whole repo \
             was reformatted in one commit.",
            &["pyproject.toml", ".git-blame-ignore-revs"],
        );
        supersedes(&out, "black-config-0001");
        // A value set by its name, another memory stating the same amount
        // of something else: still a new value of that setting.
        let stored = [
            memory(
                "upstream-timeout-0001",
                Gotcha,
                "The app's request timeout sits below the proxy's",
                "The proxy cuts requests at 60 s; `REQUEST_TIMEOUT=40` makes the app raise \
                 first, so the error carries a stack trace.",
                &["config/app.env"],
            ),
            memory(
                "pg-timeout-0001",
                Convention,
                "statement_timeout for web requests",
                "database.yml sets statement_timeout to 30 s for web processes; jobs override it.",
                &["config/database.yml"],
            ),
        ];
        let out = review(
            &stored,
            "Request timeout",
            "REQUEST_TIMEOUT=30 on every web app (was 40): slow requests only tied up threads.",
            &[],
        );
        supersedes(&out, "upstream-timeout-0001");
        // Not said to have changed, it is still never folded in.
        let out = review(
            &stored,
            "The app's request timeout",
            "REQUEST_TIMEOUT=30 on every web app, still below the proxy's 60 s cut; slow \
             requests only tied up threads.",
            &[],
        );
        assert_ne!(out.decision, Decision::Merge, "{out:#?}");
        // A value set otherwise for part of the rule's scope, worded as an
        // exception, does not replace the rule everywhere else.
        let stored = [
            memory(
                "offsets-0001",
                Gotcha,
                "Commit offsets only after processing",
                "Consumers set enable.auto.commit=false and commit after the record is \
                 processed, so a crash means redelivery, not loss.",
                &["consumers/**"],
            ),
            memory(
                "group-ids-0001",
                Convention,
                "Consumer group ids are service.topic",
                "Never reuse a group id across services.",
                &[],
            ),
        ];
        let out = review(
            &stored,
            "Exception: the metrics mirror consumer keeps auto-commit",
            "consumers/metrics_mirror deliberately keeps enable.auto.commit=true: it only \
             forwards events to the cold-storage bucket, losing a few after a crash is \
             acceptable, and committing by hand halved its throughput. Every other consumer \
             must still commit offsets after processing.",
            &["consumers/metrics_mirror/**"],
        );
        assert_eq!(
            verdict_of(&out),
            (Decision::Merge, Some("offsets-0001")),
            "{out:#?}"
        );
        // "X is deprecated on Python 3.12" retires X, not what else the
        // platform version changed.
        let stored = [
            memory(
                "distutils-0001",
                Gotcha,
                "Python 3.12 removed distutils",
                "After the 3.12 upgrade legacy/setup.py imports setup from setuptools.",
                &["legacy/setup.py"],
            ),
            memory(
                "images-0001",
                Convention,
                "Python 3.12 in all images",
                "Base image python:3.12-slim; CI tests 3.12 only.",
                &["Dockerfile"],
            ),
        ];
        let out = review(
            &stored,
            "datetime.utcnow() is deprecated on Python 3.12",
            "It emits DeprecationWarning, which pytest turns into errors; use \
             datetime.now(UTC).",
            &["pyproject.toml"],
        );
        assert_eq!(out.decision, Decision::Accept, "{out:#?}");
    }

    #[test]
    fn what_a_replacement_names() {
        use MemoryType::{Convention, Pattern};
        let review =
            |stored: &[Memory], kind: MemoryType, title: &str, summary: &str, paths: &[&str]| {
                let mut m = memory("candidate-ffff", kind, title, summary, paths);
                m.status = Status::Candidate;
                m.provenance.captured_at = "2026-06-01T00:00:00Z".parse().unwrap();
                Reviewer::new(stored.iter()).review(&m)
            };
        // Something the target's title names, reported removed, in a text
        // close to it about the same files: replaced, never merged.
        let stored = [
            memory(
                "solver-0001",
                Pattern,
                "Integrate the reactor models with scipy.integrate.odeint",
                "models/reactor.py wraps scipy.integrate.odeint with rtol=1e-6 and passes the \
                 Jacobian; every model goes through simulate().",
                &["models/reactor.py"],
            ),
            memory(
                "units-0001",
                Convention,
                "Quantities carry pint units",
                "Public functions in models/ take and return pint Quantities.",
                &["models/**"],
            ),
        ];
        let out = review(
            &stored,
            Pattern,
            "Reactor models integrate with solve_ivp (LSODA)",
            "simulate() now calls scipy.integrate.solve_ivp(method='LSODA', rtol=1e-6) with \
             the Jacobian; the odeint wrapper was removed from models/reactor.py.",
            &["models/reactor.py"],
        );
        assert_eq!(
            verdict_of(&out),
            (Decision::Supersede, Some("solver-0001")),
            "{out:#?}"
        );
        // One word a target's body turns down ("instead of JS block
        // controls") does not turn down the blocks a candidate says were
        // dropped; what its title turns down does.
        let stored = [
            memory(
                "blocks-0001",
                MemoryType::Decision,
                "Custom blocks are built with ACF Blocks",
                "Blocks are registered with acf_register_block_type in theme/blocks and \
             rendered by PHP templates, so editors fill ACF fields instead of JS block \
             controls.",
                &["theme/blocks/**"],
            ),
            memory(
                "parts-0001",
                Convention,
                "Templates use parts for header and footer",
                "Never duplicate header markup in templates.",
                &[],
            ),
        ];
        let out = review(
            &stored,
            MemoryType::Decision,
            "Custom blocks are native block.json blocks; ACF Blocks dropped",
            "The custom blocks were rebuilt as native blocks with block.json under \
             plugins/blocks and registered with register_block_type.",
            &["plugins/blocks/**"],
        );
        assert_eq!(out.decision, Decision::Supersede, "{out:#?}");
        // A title that names a thing in code the candidate never writes
        // (`PodDisruptionBudget`) is another rule, whatever words the two
        // share.
        let stored = [
            memory(
                "pdb-0001",
                Convention,
                "Every Deployment with more than one replica needs a PodDisruptionBudget",
                "Charts must ship a PDB (maxUnavailable: 1) for any Deployment with replicas > 1, \
                 so node drains during cluster upgrades do not take the service down.",
                &["deploy/charts/**"],
            ),
            memory(
                "requests-0001",
                Convention,
                "CPU requests required, no CPU limits",
                "Containers set requests and a memory limit.",
                &["deploy/charts/**"],
            ),
        ];
        let out = review(
            &stored,
            Convention,
            "Multi-replica Deployments spread over zones",
            "If a chart runs more than one replica, set topologySpreadConstraints on the zone \
             label with maxSkew 1, so a zone outage cannot take every pod down.",
            &["deploy/charts/**"],
        );
        assert_eq!(out.decision, Decision::Accept, "{out:#?}");
    }

    #[test]
    fn bodies_that_say_the_same() {
        use MemoryType::Convention;
        let review = |stored: &[Memory], title: &str, summary: &str| {
            let mut m = memory("candidate-ffff", Convention, title, summary, &["web/**"]);
            m.status = Status::Candidate;
            m.provenance.captured_at = "2026-06-01T00:00:00Z".parse().unwrap();
            Reviewer::new(stored.iter()).review(&m)
        };
        let stored = [
            memory(
                "gen-client-0001",
                Convention,
                "Never hand-edit the generated API client",
                "The client is produced from the backend spec by the codegen step; edits \
                 to it are overwritten by the next generation.",
                &["web/**"],
            ),
            memory(
                "query-keys-0001",
                Convention,
                "Query keys come from one module",
                "Every query takes its key from the shared keys module.",
                &["web/**"],
            ),
        ];
        let same_body = "Hand edits get lost: the codegen step rebuilds the client from the \
                         backend spec and overwrites them on the next run.";
        // The same knowledge from another side: titles apart, bodies alike.
        let out = review(
            &stored,
            "Change the backend spec, not the client",
            same_body,
        );
        assert_eq!(
            verdict_of(&out),
            (Decision::Merge, Some("gen-client-0001")),
            "{out:#?}"
        );
        // Announced as a change, it is for a person to tell.
        let out = review(
            &stored,
            "We dropped the hand-written fetch wrappers",
            same_body,
        );
        assert_ne!(out.decision, Decision::Merge, "{out:#?}");
        // Repeating a dismissed memory in other words is rejected.
        let mut dismissed = stored.clone();
        dismissed[0].status = Status::Dismissed;
        let out = review(&dismissed, "Regenerate, do not patch", same_body);
        assert_eq!(out.decision, Decision::Reject, "{out:#?}");
        // ... unless a live memory's body is closer still: the candidate
        // repeats that one.
        let mut twins = stored.to_vec();
        twins.push(memory(
            "gen-client-0002",
            Convention,
            "Codegen output is not maintained by hand",
            "Hand edits get lost: codegen rebuilds the client.",
            &["web/**"],
        ));
        twins[2].status = Status::Dismissed;
        let out = review(
            &twins,
            "Never hand-edit the generated API client",
            same_body,
        );
        assert_ne!(out.decision, Decision::Reject, "{out:#?}");
        // A code phrase both quote names the same thing.
        let icons = [memory(
            "icons-0001",
            Convention,
            "Import icons one by one",
            "Import each icon by name; never `import * as Icons from 'icons'`.",
            &["web/**"],
        )];
        let out = review(
            &icons,
            "No namespace imports from the icon package",
            "One `import * as Icons from 'icons'` in the settings page pulled 400 KB into \
             the main chunk; a lint rule flags it now.",
        );
        assert_eq!(out.decision, Decision::Merge, "{out:#?}");
    }

    #[test]
    fn temporary_wording_is_reported() {
        let stored = store();
        let reviewer = Reviewer::new(stored.iter());
        let m = memory(
            "candidate-ffff",
            MemoryType::Working,
            "Skip the slow e2e suite for now",
            "Temporary until the flaky checkout spec is fixed.",
            &[],
        );
        let out = reviewer.review(&m);
        assert_eq!(out.temporary_wording, ["for now", "temporary"]);
    }

    /// Candidate paths and modules, target paths and modules, relation.
    type ModuleCase<'a> = (
        &'a [&'a str],
        &'a [&'a str],
        &'a [&'a str],
        &'a [&'a str],
        ScopeRelation,
    );

    #[test]
    fn scope_relations() {
        use ScopeRelation::*;
        let cases: &[(&[&str], &[&str], ScopeRelation)] = &[
            (&[], &[], BothGlobal),
            (&["src/a/**"], &["src/a/**"], Same),
            (&["src/a/b.ts"], &["src/a/**"], Narrower),
            (&["src/a/**"], &["src/a/b/**"], Broader),
            (
                &["src/a/**", "src/c/**"],
                &["src/a/**", "src/d/**"],
                Overlapping,
            ),
            (&["src/a/**"], &["src/ab/**"], Disjoint),
            (&["src/a/**"], &[], Narrower),
            // Globs that match a file in common, neither inside the other.
            (&["App/Debug/**"], &["App/**/*.swift"], Overlapping),
            (&["src/web/**/*.ts"], &["src/**/*.rs"], Disjoint),
            (&["docs/**"], &["src/**/*.rs"], Disjoint),
            // A file a glob matches lies inside it.
            (&["src/a/x.rs"], &["src/**/*.rs"], Narrower),
            (&["src/**/*.rs"], &["src/a/x.rs"], Broader),
            (&["src/a/x.ts"], &["src/**/*.rs"], Disjoint),
            // A plain path is also the directory of that name (`src/` is
            // stored as `src`).
            (&["src/Worker.hs"], &["src/", "app/"], Narrower),
            (&["src/lib/components/**"], &["src/lib"], Narrower),
            (&["src"], &["src/a/x.rs"], Broader),
            (&["src/a/**", "lib/x.rs"], &["src"], Overlapping),
            (&["src"], &["src/**/*.rs"], Broader),
            (&["lib"], &["lib/**/*.rs", "docs/**"], Overlapping),
            (&["src/a.rs"], &["src/a.rs"], Same),
            (&["srcx/a.rs"], &["src"], Disjoint),
        ];
        for (c, t, expected) in cases {
            let cm = memory("c-1", MemoryType::Decision, "t", "s", c);
            let tm = memory("t-1", MemoryType::Decision, "t", "s", t);
            assert_eq!(scope_relation(&cm, &tm), *expected, "{c:?} vs {t:?}");
        }
        // A memory whose text names the other's files is about them too; a
        // longer name that starts the same is another path.
        let cases: &[(&str, ScopeRelation)] = &[
            (
                "Because crates/codec forbids unsafe, kernels live here.",
                Overlapping,
            ),
            ("Kernels live here, next to crates/codec.", Overlapping),
            ("See crates/codec/src/lib.rs for the forbid.", Overlapping),
            ("Kernels live in crates/codec-simd only.", Disjoint),
            ("The codec crate forbids unsafe.", Disjoint),
        ];
        // A file at the root, named as a word.
        let cm = memory(
            "c-1",
            MemoryType::Decision,
            "t",
            "The Makefile was replaced by a justfile.",
            &["justfile"],
        );
        let tm = memory("t-1", MemoryType::Decision, "t", "s", &["Makefile"]);
        assert_eq!(scope_relation(&cm, &tm), Overlapping);
        let tm = memory("t-1", MemoryType::Decision, "t", "s", &["src/**"]);
        let cm = memory(
            "c-1",
            MemoryType::Decision,
            "t",
            "Code in src is linted.",
            &["lib/**"],
        );
        assert_eq!(scope_relation(&cm, &tm), Disjoint);
        for (summary, expected) in cases {
            let cm = memory(
                "c-1",
                MemoryType::Decision,
                "t",
                summary,
                &["crates/codec-simd/**"],
            );
            let tm = memory("t-1", MemoryType::Decision, "t", "s", &["crates/codec/**"]);
            assert_eq!(scope_relation(&cm, &tm), *expected, "{summary}");
        }
        // Modules named on one side only, with paths on both: the paths decide.
        let with_modules = |paths: &[&str], modules: &[&str]| {
            let mut m = memory("m-1", MemoryType::Decision, "t", "s", paths);
            m.scope.modules = modules.iter().map(|x| (*x).to_owned()).collect();
            m
        };
        let cases: &[ModuleCase] = &[
            (
                &["fw/drivers/**"],
                &[],
                &["fw/drivers/**"],
                &["drivers"],
                Same,
            ),
            (&["fw/a/**"], &["a"], &["fw/**"], &[], Narrower),
            (&["fw/a/**"], &["a"], &["fw/a/**"], &["b"], Overlapping),
            (&[], &["a"], &["fw/a/**"], &[], Disjoint),
        ];
        for (cp, cmods, tp, tmods, expected) in cases {
            assert_eq!(
                scope_relation(&with_modules(cp, cmods), &with_modules(tp, tmods)),
                *expected,
                "{cp:?} {cmods:?} vs {tp:?} {tmods:?}"
            );
        }
    }

    #[test]
    fn reviewing_is_deterministic_and_ignores_the_candidate_itself() {
        let mut stored = store();
        let mut cand = memory(
            "candidate-ffff",
            MemoryType::Gotcha,
            "Ledger entries are append-only",
            "Never UPDATE ledger rows.",
            &["src/ledger/**"],
        );
        cand.status = Status::Candidate;
        stored.push(cand.clone());
        let a = Reviewer::new(stored.iter()).review(&cand);
        stored.reverse();
        let b = Reviewer::new(stored.iter()).review(&cand);
        assert_eq!(a, b);
        assert!(a.evidence.iter().all(|e| e.target != cand.id));
    }

    #[test]
    fn the_index_finds_the_duplicate_among_thousands() {
        let topics = [
            "ledger", "refund", "invoice", "webhook", "session", "cache", "export", "tenant",
        ];
        let verbs = [
            "retry", "lock", "validate", "batch", "encrypt", "log", "paginate", "round",
        ];
        let mut stored = Vec::new();
        for i in 0..3000 {
            let t = topics[i % topics.len()];
            let v = verbs[(i / topics.len()) % verbs.len()];
            stored.push(memory(
                &format!("m-{i:05}"),
                MemoryType::Gotcha,
                &format!("Always {v} {t} jobs variant {i}"),
                &format!("When touching {t} code, {v} carefully; case {i}."),
                &[],
            ));
        }
        let reviewer = Reviewer::new(stored.iter());
        let mut cand = stored[1234].clone();
        cand.id = MemoryId::new("candidate-ffff").unwrap();
        cand.status = Status::Candidate;
        let out = reviewer.review(&cand);
        assert_eq!(out.relation, Relation::Duplicate, "{out:#?}");
        assert_eq!(out.targets[0].as_str(), "m-01234");
        assert!(out.evidence.len() <= 5);
        let shared = reviewer.index.candidates(
            &super::super::topic_tokens(&cand),
            super::super::MAX_TARGETS,
        );
        assert!(shared.len() <= super::super::MAX_TARGETS);
    }

    #[test]
    fn a_retelling_that_trades_words_is_a_duplicate() {
        use MemoryType::Convention;
        let stored = [
            memory(
                "migrations-tx-0001",
                Convention,
                "Schema migrations run in one transaction",
                "Every migration must wrap its statements in a single transaction, so a \
                 failure halfway leaves the schema as it was and the deploy can simply retry.",
                &["db/migrations/**"],
            ),
            memory(
                "migrations-names-0002",
                Convention,
                "Migration files are numbered",
                "Files in db/migrations are named NNNN_description.sql and applied in order.",
                &["db/migrations/**"],
            ),
        ];
        let cases = [
            // The same sentence with its words traded ("needs" for "must",
            // "put" for "wrap", "redeploy" for "retry"): nothing is added.
            (
                "Schema migrations run in one transaction",
                "Every migration needs to put its statements in a single transaction, so a \
                 failure halfway leaves the schema as it was and the deploy can be retried.",
                Relation::Duplicate,
            ),
            // Joined by "since", with "about" for an estimate: connectives
            // add nothing.
            (
                "Schema migrations run in one transaction",
                "Since a failure halfway must leave the schema as it was, every migration \
                 wraps its statements in a single transaction; about once a month the deploy \
                 has to retry.",
                Relation::Duplicate,
            ),
            // The same sentence with a clause of its own.
            (
                "Schema migrations run in one transaction",
                "Every migration must wrap its statements in a single transaction, so a \
                 failure halfway leaves the schema as it was and the deploy can simply retry; \
                 CREATE INDEX CONCURRENTLY cannot run inside one and goes in its own file.",
                Relation::AdditiveUpdate,
            ),
            // The title's rule with another reason around the same words.
            (
                "Schema migrations run in one transaction",
                "We run each migration in a single transaction because the team lost a \
                 weekend to a half-applied schema during the 2024 outage.",
                Relation::AdditiveUpdate,
            ),
        ];
        for (title, summary, relation) in cases {
            let out = review_new(&stored, Convention, title, summary, &["db/migrations/**"]);
            assert_eq!(
                (
                    out.decision,
                    out.relation,
                    out.targets.first().map(MemoryId::as_str)
                ),
                (Decision::Merge, relation, Some("migrations-tx-0001")),
                "{summary}\n{out:#?}"
            );
        }
    }

    #[test]
    fn bodies_that_say_the_same_in_more_words_are_a_duplicate() {
        use MemoryType::Gotcha;
        let stored = [
            memory(
                "cache-thrash-0001",
                Gotcha,
                "Unconditional cache writes make the worker thrash",
                "Writing the cache entry on every request evicts hot keys and fills the \
                 disk. Compare the computed entry with the stored one and only call \
                 cache.put when they differ.",
                &["worker/**"],
            ),
            memory(
                "cache-ttl-0002",
                Gotcha,
                "Cache entries expire after ten minutes",
                "The TTL is set in worker/config.toml; a longer one serves stale prices.",
                &["worker/**"],
            ),
            memory(
                "cache-keys-0003",
                Gotcha,
                "Cache keys are namespaced per tenant",
                "Every cache key starts with the tenant id; a write without it leaks a hot \
                 entry across tenants.",
                &["worker/**"],
            ),
            memory(
                "worker-disk-0004",
                Gotcha,
                "The worker disk fills when logs rotate late",
                "Log files grow until logrotate runs; evict old files first when the disk \
                 ends up full.",
                &["worker/**"],
            ),
        ];
        let out = review_new(
            &stored,
            Gotcha,
            "Write the cache only when the entry actually changed",
            "In the handler, diff the new entry against what is cached and skip the put \
             if nothing differs - every write evicts a hot key and the disk ends up \
             filling itself endlessly.",
            &["worker/**"],
        );
        assert_eq!(
            (
                out.decision,
                out.relation,
                out.targets.first().map(MemoryId::as_str)
            ),
            (
                Decision::Merge,
                Relation::Duplicate,
                Some("cache-thrash-0001")
            ),
            "{}",
            out.reason
        );
    }

    #[test]
    fn a_narrower_retelling_is_merged_and_a_narrower_rule_is_not() {
        use MemoryType::{Convention, Gotcha};
        let review = review_new;
        let decided = |out: &crate::review::ReviewOutcome| {
            (
                out.decision,
                out.targets.first().map(|t| t.as_str().to_owned()),
            )
        };
        // The same knowledge told for the one worker it happened in, under a
        // title about the thing the stored memory is about.
        let stored = [
            memory(
                "http-timeouts-0001",
                Gotcha,
                "Outbound HTTP clients need explicit timeouts",
                "The billing worker hung for hours when the tax API stopped answering: \
                 its reqwest client had no connect_timeout or timeout. Build every client \
                 with both.",
                &["services/**"],
            ),
            memory(
                "queue-retries-0002",
                Gotcha,
                "Queue consumers must be idempotent",
                "SQS redelivers a message whose visibility timeout expires, so a consumer \
                 may see it twice.",
                &["services/**"],
            ),
        ];
        let out = review(
            &stored,
            Gotcha,
            "Billing worker stalls when the tax API goes silent",
            "With no connect_timeout or timeout on its reqwest client, the worker waited \
             hours on a tax API that stopped answering; set both on the client.",
            &["services/billing/**"],
        );
        assert_eq!(
            decided(&out),
            (Decision::Merge, Some("http-timeouts-0001".to_owned())),
            "{out:#?}"
        );
        // A title may open with a verb the memory never uses; the word after
        // it names what the memory is about.
        let out = review(
            &stored,
            Gotcha,
            "Bound every tax API call in the billing worker",
            "Once the tax API went silent and billing sat idle for hours: give its reqwest \
             client a connect_timeout and an overall timeout.",
            &["services/billing/**"],
        );
        assert_eq!(
            decided(&out),
            (Decision::Merge, Some("http-timeouts-0001".to_owned())),
            "{out:#?}"
        );
        // A rule for part of the scope names that part first, a thing the
        // broader memory never speaks of: a new memory.
        let stored = [
            memory(
                "log-tracing-0001",
                Convention,
                "Log through tracing, never println!",
                "Services under crates/ emit logs with the tracing macros so they reach the \
                 JSON subscriber; println! output is lost in production containers.",
                &["crates/**"],
            ),
            memory(
                "errors-0002",
                Convention,
                "Library crates return thiserror enums",
                "Only binaries use anyhow; libraries expose typed errors.",
                &["crates/**"],
            ),
        ];
        let out = review(
            &stored,
            Convention,
            "The installer reports progress on stdout with println!",
            "Only crates/installer writes user-facing progress to stdout with println!; its \
             diagnostics still go through the tracing macros to the JSON subscriber.",
            &["crates/installer/**"],
        );
        assert_ne!(out.decision, Decision::Merge, "{out:#?}");
    }

    #[test]
    fn a_merge_less_alike_than_a_dismissed_memory_is_for_a_person() {
        use MemoryType::Convention;
        let mut stored = [
            memory(
                "playground-deploy-0001",
                Convention,
                "Playground deploys to Cloudflare Pages from main",
                "The deploy job installs Rust, builds quill_wasm and the Vite app on every \
                 merge to main.",
                &[],
            ),
            memory(
                "commit-pkg-0001",
                Convention,
                "Commit the built playground/pkg/ to the repo",
                "Check in the wasm-pack output so the docs/playground deploy doesn't need a \
                 Rust toolchain.",
                &[],
            ),
        ];
        let candidate = (
            "Check the wasm build output into git",
            "If playground/pkg/ were committed, the Pages deploy wouldn't need to install \
             Rust and build the compiler every time - it could just run the Vite build.",
        );
        stored[1].status = Status::Dismissed;
        let out = review_new(&stored, Convention, candidate.0, candidate.1, &[]);
        assert_eq!(
            verdict_of(&out),
            (Decision::Accept, Some("commit-pkg-0001")),
            "{out:#?}"
        );
        assert_eq!(out.relation, Relation::AmbiguousOverlap, "{out:#?}");
    }

    /// Who does a thing and by what way name nothing it retires: "nobody
    /// uploads through the Console for prod any more" retires uploading in
    /// the Play Console, the memory's practice.
    #[test]
    fn who_and_by_what_way_are_no_part_of_what_is_retired() {
        use MemoryType::Convention;
        let stored = [
            memory(
                "play-upload-0001",
                Convention,
                "Releases are uploaded by hand in the Play Console",
                "The release manager uploads the signed AAB in the Play Console and promotes it \
                 from the internal track to production.",
                &[],
            ),
            memory(
                "play-notes-0002",
                Convention,
                "Release notes come from CHANGELOG.md",
                "The top section of CHANGELOG.md is pasted as the release notes of each track.",
                &[],
            ),
        ];
        let out = review_new(
            &stored,
            Convention,
            "Android releases go out with fastlane supply",
            "The release job runs `fastlane supply` with the service-account key and promotes \
             the build; nobody uploads through the Console for prod any more.",
            &["fastlane/Fastfile"],
        );
        assert_eq!(
            verdict_of(&out),
            (Decision::Supersede, Some("play-upload-0001")),
            "{out:#?}"
        );
    }

    /// What a merge names beside the memory's own names decides between a
    /// repeat and an addition: a retelling of the memory's claim, a little
    /// longer but naming nothing it does not, repeats it; one of about its
    /// length that names five things it never does adds them.
    #[test]
    fn what_a_merge_names_tells_a_repeat_from_an_addition() {
        use MemoryType::Convention;
        let stored = [
            memory(
                "webhooks-verify-0001",
                Convention,
                "Payment webhooks are verified before parsing",
                "The Stripe webhook handler in api/webhooks/stripe.ts checks the \
                 `Stripe-Signature` header with `constructEvent` before it parses the body. An \
                 unverified event is answered with 400 and never reaches the queue.",
                &["api/webhooks/**"],
            ),
            memory(
                "webhooks-retry-0002",
                Convention,
                "Webhook handlers answer within five seconds",
                "Handlers enqueue the work and return 200 at once; Stripe retries anything \
                 slower.",
                &["api/webhooks/**"],
            ),
        ];
        let cases = [
            // The claim again, a quarter longer, in words of its own: no
            // name the memory lacks.
            (
                "Payment webhooks are verified before parsing",
                "Before anything is parsed, the Stripe webhook handler in \
                 api/webhooks/stripe.ts verifies the `Stripe-Signature` header through \
                 `constructEvent`. When the signature does not check out the event gets a 400 \
                 reply and it is never put on the queue at all.",
                Relation::Duplicate,
            ),
            // About as long, under a title of its own, naming five things
            // the memory never does.
            (
                "Stripe signature checks need the raw body",
                "The `Stripe-Signature` check in api/webhooks/stripe.ts only works on the raw \
                 body: mount `express.raw()` on the route, never `bodyParser.json()`. The \
                 secret is `STRIPE_WEBHOOK_SECRET`, the tolerance 300 s; try it locally \
                 with `stripe listen`.",
                Relation::AdditiveUpdate,
            ),
        ];
        for (title, summary, want) in cases {
            let out = review_new(&stored, Convention, title, summary, &["api/webhooks/**"]);
            assert_eq!(
                verdict_of(&out),
                (Decision::Merge, Some("webhooks-verify-0001")),
                "{out:#?}"
            );
            assert_eq!(out.relation, want, "{summary}: {}", out.reason);
        }
    }

    #[test]
    fn a_retelling_that_tells_much_more_adds_to_the_memory() {
        use MemoryType::Convention;
        let stored = [memory(
            "probes-0001",
            Convention,
            "Services expose /healthz and /readyz",
            "/healthz is liveness, /readyz is readiness. Readiness fails while Redis or \
             Postgres is unreachable so the pod is taken out of the Service.",
            &["server/internal/health/**"],
        )];
        let cases = [
            // About the memory's length: a repeat.
            (
                "Only readiness looks at dependencies",
                "/healthz (liveness) must not check Redis or Postgres; /readyz keeps the \
                 dependency checks.",
                Relation::Duplicate,
            ),
            // Well past it: what happened when liveness checked Redis.
            (
                "Only readiness looks at dependencies",
                "/healthz (liveness) must not check Redis or Postgres - it only reports \
                 whether the process's own loop is alive. When it did check Redis, a 20s \
                 Redis failover got every matchmaker pod restarted at once. /readyz keeps \
                 the dependency checks.",
                Relation::AdditiveUpdate,
            ),
        ];
        for (title, summary, want) in cases {
            let out = review_new(
                &stored,
                Convention,
                title,
                summary,
                &["server/internal/health/**"],
            );
            assert_eq!(
                verdict_of(&out),
                (Decision::Merge, Some("probes-0001")),
                "{out:#?}"
            );
            assert_eq!(out.relation, want, "{summary}: {}", out.reason);
        }
        // A retelling no longer than the memory repeats it, even where its
        // new words make it look like an addition; one that says it adds
        // stays an addition.
        let stored = [memory(
            "goose-0001",
            Convention,
            "Never edit a merged goose migration",
            "fleet/migrations/*.sql are applied by goose when fleetd starts. Once a migration \
             is on main it has already run on staging and prod; editing it changes nothing \
             there and makes freshly created databases diverge. Add a new migration.",
            &["fleet/migrations/**"],
        )];
        for (summary, want) in [
            (
                "Files in fleet/migrations are run by goose at fleetd startup. Once one is \
                 merged it has already been applied in staging and prod, so changing it has no \
                 effect there and new databases end up with a different schema. Write a new \
                 migration instead.",
                Relation::Duplicate,
            ),
            (
                "Also: files in fleet/migrations are run by goose at fleetd startup. Once one is \
                 merged it has already been applied in staging and prod, so changing it has no \
                 effect there. Write a new migration instead.",
                Relation::AdditiveUpdate,
            ),
        ] {
            let out = review_new(
                &stored,
                Convention,
                "Don't modify goose migrations after merge",
                summary,
                &["fleet/migrations/**"],
            );
            assert_eq!(
                (verdict_of(&out), out.relation),
                ((Decision::Merge, Some("goose-0001")), want),
                "{summary}: {}",
                out.reason
            );
        }
    }

    #[test]
    fn a_replacement_less_alike_than_a_dismissed_memory_is_for_a_person() {
        use MemoryType::Convention;
        let mut stored = [
            memory(
                "stubs-0001",
                Convention,
                "Untyped dependencies get stubs in typings/",
                "Add a .pyi stub under typings/ for each third-party module without types.",
                &["typings/**"],
            ),
            memory(
                "strict-off-0001",
                Convention,
                "Turn mypy strict mode off for the worker package",
                "Set strict = false for worker/ in mypy.ini so missing stubs never fail CI.",
                &["mypy.ini"],
            ),
        ];
        let candidate = (
            "Disable strict mypy checking for worker",
            "Every sprint we lose hours to errors about third-party imports. Proposal: relax \
             the checker for that package and stop maintaining the typings/ stubs.",
        );
        stored[1].status = Status::Dismissed;
        let out = review_new(&stored, Convention, candidate.0, candidate.1, &["mypy.ini"]);
        assert_eq!(
            verdict_of(&out),
            (Decision::Accept, Some("strict-off-0001")),
            "{out:#?}"
        );
        assert_eq!(out.relation, Relation::AmbiguousOverlap, "{out:#?}");
        // Without the dismissed memory it stops what the stubs rule says.
        stored[1].status = Status::Active;
        stored[1].title = "Type check with mypy in CI".to_owned();
        stored[1].summary = "The lint job runs mypy on every package.".to_owned();
        let out = review_new(&stored, Convention, candidate.0, candidate.1, &["mypy.ini"]);
        assert_eq!(out.decision, Decision::Supersede, "{out:#?}");
    }

    #[test]
    fn a_report_of_work_that_moves_a_stored_pin_supersedes_it() {
        use MemoryType::{Convention, Decision as D};
        let stored = [
            memory(
                "nightly-pin-0001",
                Convention,
                "Fuzz and Miri jobs use a pinned nightly",
                "The nightly used by cargo-fuzz and miri in CI is pinned in ci/nightly-version \
                 (nightly-2024-11-01) so upstream breakage doesn't turn main red.",
                &["ci/nightly-version"],
            ),
            memory(
                "dart-sdk-0001",
                D,
                "Minimum Dart SDK is 3.4",
                "pubspec.yaml requires Dart '>=3.4.0 <4.0.0'.",
                &[],
            ),
        ];
        // The bump is the news of the pin the memory records.
        let out = review_new(
            &stored,
            Convention,
            "CI nightly is nightly-2025-01-20",
            "Bumped ci/nightly-version to nightly-2025-01-20 - needed the sanitizer fix \
             for aarch64 linux. Fuzz and miri jobs both read it.",
            &["ci/nightly-version"],
        );
        assert_eq!(
            verdict_of(&out),
            (Decision::Supersede, Some("nightly-pin-0001")),
            "{out:#?}"
        );
        // A release's version bump changes no stored value: still a report.
        let out = review_new(
            &stored,
            D,
            "chore: bump version to 2.3.1",
            "Update pubspec.yaml and CHANGELOG.md for the 2.3.1 release.",
            &["pubspec.yaml", "CHANGELOG.md"],
        );
        assert_eq!(out.decision, Decision::Reject, "{out:#?}");
    }

    #[test]
    fn a_reported_retirement_of_what_a_memory_is_about_replaces_it() {
        use MemoryType::Decision as D;
        let stored = [
            memory(
                "docs-search-0001",
                D,
                "Docs search is served by Typesense",
                "The docs site queries the pages collection in Typesense; a nightly job \
                 (scripts/index_docs.ts) rebuilds it from the Markdown sources.",
                &["site/search/**", "scripts/index_docs.ts"],
            ),
            memory(
                "cache-0002",
                D,
                "Sessions live in Redis",
                "Session data is stored in Redis with a 24 h TTL.",
                &["app/sessions/**"],
            ),
        ];
        let mut m = memory(
            "candidate-ffff",
            D,
            "Search runs in the browser with Pagefind",
            "Docs search queries a static Pagefind bundle built from the Markdown sources at \
             deploy time. The Typesense cluster has been decommissioned and the nightly \
             indexing job deleted.",
            &["site/search/**"],
        );
        m.status = Status::Candidate;
        m.provenance.captured_at = "2026-06-01T00:00:00Z".parse().unwrap();
        let reviewer = Reviewer::new(stored.iter());
        let out = reviewer.review(&m);
        assert_eq!(
            verdict_of(&out),
            (Decision::Supersede, Some("docs-search-0001")),
            "{out:#?}"
        );
        // Written before the memory it retires (an import of older notes):
        // no replacement, and never folded into it either.
        m.provenance.captured_at = "2020-01-01T00:00:00Z".parse().unwrap();
        let out = reviewer.review(&m);
        assert_ne!(out.decision, Decision::Merge, "{out:#?}");
    }

    #[test]
    fn look_alikes_and_retellings_in_a_narrower_scope() {
        use MemoryType::{Convention, Gotcha};
        let review = review_new;
        // Another check of the same CI job, said to come "also": the titles
        // have one shape and name two things.
        let stored = [
            memory(
                "ci-fmt-0001",
                Convention,
                "CI fails on cargo fmt --check diffs",
                "The lint job runs cargo fmt --check; any unformatted file fails the build, \
                 generated code included.",
                &[".github/workflows/ci.yml"],
            ),
            memory(
                "nightly-0002",
                Convention,
                "Miri runs nightly, not per PR",
                "cargo miri test takes 40 minutes, so it runs in the nightly workflow.",
                &[".github/workflows/nightly.yml"],
            ),
        ];
        let out = review(
            &stored,
            Convention,
            "CI fails on cargo deny advisories",
            "The lint job also runs cargo deny check, so any crate with an open advisory \
             fails the build; allow one in deny.toml with a reason instead of pinning.",
            &[".github/workflows/ci.yml", "deny.toml"],
        );
        assert_ne!(out.decision, Decision::Merge, "{out:#?}");
        // A narrower rule that opens with a name the memory never uses.
        let stored = [
            memory(
                "s3-consistency-0001",
                Gotcha,
                "Blob listings after an upload can miss the new object",
                "The MinIO gateway lists objects from a cache that refreshes every 30 s, so a \
                 listing right after a put can miss the object. Read it by key instead.",
                &[],
            ),
            memory(
                "queue-0002",
                Gotcha,
                "Jobs are retried three times",
                "The worker retries a failed job three times with backoff.",
                &["worker/**"],
            ),
        ];
        let out = review(
            &stored,
            Gotcha,
            "R2 listings lag behind fresh writes",
            "Since moving media to R2 a listing right after an upload from another region can \
             miss the new object for a few seconds; read it by key instead.",
            &["src/media/**"],
        );
        assert_ne!(out.decision, Decision::Merge, "{out:#?}");
        // The same knowledge retold in many words only these two share,
        // under a title that opens elsewhere.
        let stored = [
            memory(
                "mpi-buffers-0001",
                Gotcha,
                "I_MPI_SHM_HEAP must be raised for the halo exchange",
                "The halo exchange posts large non-blocking sends from shared-memory buffers; \
                 with the default heap the ranks deadlock on meshes above 2000^3. Job scripts \
                 export I_MPI_SHM_HEAP=4G.",
                &["src/halo/**", "jobs/*.pbs"],
            ),
            memory(
                "restart-0002",
                Gotcha,
                "Checkpoints are written every 500 steps",
                "The driver writes a checkpoint every 500 steps to scratch.",
                &["src/driver/**"],
            ),
        ];
        let out = review(
            &stored,
            Gotcha,
            "Big grids stall unless ranks get more shared memory",
            "The deadlocks we see at 4000^3 and other large meshes come from the halo \
             exchange's large non-blocking sends exhausting the shared-memory heap. Our job \
             scripts raise that heap for exactly this; keep the export.",
            &["jobs/*.pbs"],
        );
        assert_eq!(
            verdict_of(&out),
            (Decision::Merge, Some("mpi-buffers-0001")),
            "{out:#?}"
        );
        // A narrower scope made of files the target lists as written is no
        // part carved out of it.
        let stored = [
            memory(
                "upload-limits-0001",
                Gotcha,
                "Uploads: 25 MB per file, 100 MB per request",
                "Larger bodies get 413 from nginx before the app sees them; the web client \
                 checks sizes first so people get a readable error instead of a dropped \
                 connection.",
                &["deploy/nginx.conf", "web/src/upload.ts"],
            ),
            memory(
                "upload-types-0002",
                Gotcha,
                "Only images and PDFs are accepted",
                "The upload handler checks the MIME type against an allow list.",
                &["api/src/upload/**"],
            ),
        ];
        let out = review(
            &stored,
            Gotcha,
            "Browser-side size checks keep errors readable",
            "nginx answers 413 above the limits, so the web client rejects big files itself.",
            &["web/src/upload.ts"],
        );
        assert_eq!(
            verdict_of(&out),
            (Decision::Merge, Some("upload-limits-0001")),
            "{out:#?}"
        );
        // Files that overlap the target's count too, with six or more such
        // words and a title that opens on what the target names.
        let stored = [
            memory(
                "ota-watchdog-0001",
                Gotcha,
                "Watchdog resets during OTA flash erase",
                "Erasing the OTA partition blocks the CPU for seconds; feed the task watchdog \
                 between sector erases or the ESP32 resets mid-update.",
                &["firmware/ota/**", "firmware/main.c"],
            ),
            memory(
                "wifi-0002",
                Gotcha,
                "Wi-Fi reconnect backoff",
                "Reconnect attempts back off up to 60 s.",
                &["firmware/net/**"],
            ),
        ];
        let out = review(
            &stored,
            Gotcha,
            "Task watchdog resets while rewriting partitions",
            "Same trap when the update code writes the partition table: the ESP32 stalls, \
             the task watchdog is not fed and the chip reboots.",
            &["firmware/ota/**", "firmware/partition.c"],
        );
        assert_eq!(
            verdict_of(&out),
            (Decision::Merge, Some("ota-watchdog-0001")),
            "{out:#?}"
        );
        // Also when the texts are more alike than that, with six or more
        // such words (a name written in both titles, `SyncWorker`, is no
        // name apart).
        let stored = [
            memory(
                "sync-worker-0001",
                Gotcha,
                "One periodic SyncWorker does the background refresh",
                "SyncWorker is enqueued as unique periodic work named sync with the KEEP \
                 policy, constrained to an unmetered network and charging.",
                &["app/src/main/java/sync/**"],
            ),
            memory(
                "room-0002",
                Gotcha,
                "Room migrations are tested",
                "Every schema bump adds a MigrationTest case with MigrationTestHelper.",
                &["app/src/main/java/db/**"],
            ),
        ];
        let retold = "After an app upgrade we saw two copies enqueued: the unique sync name \
                      and the KEEP policy are what stop it, and both the charging and the \
                      unmetered constraint then apply twice, so battery drain doubles.";
        let out = review(
            &stored,
            Gotcha,
            "Keep a single periodic SyncWorker",
            retold,
            &["app/src/main/java/sync/**"],
        );
        assert_eq!(
            verdict_of(&out),
            (Decision::Merge, Some("sync-worker-0001")),
            "{out:#?}"
        );
        // Unless the titles differ in polarity.
        let out = review(
            &stored,
            Gotcha,
            "Never keep a single periodic SyncWorker",
            retold,
            &["app/src/main/java/sync/**"],
        );
        assert_ne!(out.decision, Decision::Merge, "{out:#?}");
    }

    #[test]
    fn additions_named_or_worded() {
        use MemoryType::Convention;
        let review = |stored: &[Memory], title: &str, summary: &str, paths: &[&str]| {
            review_new(stored, Convention, title, summary, paths)
        };
        // An addition that names its memory by what it says joins it,
        // though it lives in other files.
        let stored = [
            memory(
                "limits-0001",
                Convention,
                "Requests on every container, no CPU limit",
                "Charts set cpu and memory requests and a memory limit on every container; \
                 CPU limits are left out to avoid CFS throttling.",
                &["charts/api/values.yaml"],
            ),
            memory(
                "probes-0002",
                Convention,
                "Readiness probes hit /ready",
                "Every service exposes /ready for its readiness probe.",
                &["charts/api/templates/**"],
            ),
        ];
        let out = review(
            &stored,
            "Report jobs carry a cap",
            "The nightly report jobs are the exception to the no-CPU-limit rule: their \
             bursts starved neighbouring pods, so they get one.",
            &["charts/reports/values.yaml"],
        );
        assert_eq!(
            verdict_of(&out),
            (Decision::Merge, Some("limits-0001")),
            "{out:#?}"
        );
        // "Also" under a title that opens like the memory's and goes on
        // about another thing: another check of the same job.
        let stored = [
            memory(
                "ruff-0001",
                Convention,
                "CI fails on any Ruff warning",
                "The lint job runs ruff check with warnings as errors, so findings that pass \
                 locally fail the PR; fix them or add a noqa with a reason.",
                &[".github/workflows/ci.yml", "pyproject.toml"],
            ),
            memory(
                "pytest-0002",
                Convention,
                "Tests run with xdist on CI",
                "The test job runs pytest -n auto; fixtures must not share state.",
                &[".github/workflows/ci.yml"],
            ),
        ];
        let out = review(
            &stored,
            "CI fails on type errors in test files",
            "pytest only imports the code, but the typecheck job also runs mypy on the \
             tests, so a type error in a test file that passes locally still fails CI.",
            &[".github/workflows/ci.yml", "mypy.ini"],
        );
        assert_ne!(out.decision, Decision::Merge, "{out:#?}");
    }

    #[test]
    fn two_retirement_phrases_about_one_thing_are_one_retirement() {
        let own = super::super::replacement::replacements(
            "App servers fail on INSERT once the column is gone.",
        );
        let said = |text: &str| {
            let r = super::super::replacement::replacements(text);
            super::said_by(&own, &r[0])
        };
        assert!(said("They fail on INSERT after the column is removed."));
        // About another thing, it is a replacement.
        assert!(!said("The nightly export job was removed."));
    }

    #[test]
    fn replacements_repeats_and_additions_named_in_other_ways() {
        use MemoryType::{Convention, Decision as D, Gotcha};
        let review = review_new;
        let decided = |out: &crate::review::ReviewOutcome| {
            (
                out.decision,
                out.targets.first().map(|t| t.as_str().to_owned()),
            )
        };
        let dismissed = |mut m: Memory| {
            m.status = Status::Dismissed;
            m
        };
        let other = |id: &str, title: &str, summary: &str, paths: &[&str]| {
            memory(id, Convention, title, summary, paths)
        };
        // B. A reported retirement of what only this memory's title names,
        // tied by many words though the texts are little alike.
        let stored = [
            memory(
                "mail-0001",
                D,
                "Transactional mail goes through Postmark with a Mailgun fallback",
                "Receipts and resets are sent by the Postmark adapter in mail/transport.py; \
                 templates live in Postmark, bounces are polled hourly by mail/bounces.py.",
                &["mail/transport.py", "mail/bounces.py"],
            ),
            other(
                "pdf-0002",
                "Invoices render with WeasyPrint",
                "PDFs come from HTML.",
                &["billing/pdf/**"],
            ),
        ];
        let out = review(
            &stored,
            D,
            "Outgoing email runs on Amazon SES",
            "SES configuration sets deliver receipts and password resets from \
             mail/transport.py; SNS pushes bounce events. The Postmark SDK and its webhook \
             server have been decommissioned.",
            &["mail/transport.py"],
        );
        assert_eq!(
            decided(&out),
            (Decision::Supersede, Some("mail-0001".to_owned())),
            "{out:#?}"
        );
        // C. A title that says how things stand now, tied by many words.
        let stored = [
            memory(
                "lint-0001",
                Convention,
                "Dependabot PRs auto-merge after CI on patch updates",
                "The dependabot-automerge workflow approves and squash-merges Dependabot PRs \
                 for patch versions once every required check passes.",
                &[".github/workflows/dependabot-automerge.yml"],
            ),
            other(
                "tags-0002",
                "Releases are tagged by release-please",
                "Tags come from the release PR.",
                &[".github/workflows/release.yml"],
            ),
        ];
        let out = review(
            &stored,
            Convention,
            "Dependabot patch PRs now wait for a maintainer approval",
            "After a compromised patch release upstream, the dependabot-automerge workflow \
             no longer approves on its own: it squash-merges Dependabot PRs for patch \
             versions only after a maintainer approves and every required check passes.",
            &[".github/workflows/dependabot-automerge.yml"],
        );
        assert_eq!(
            decided(&out),
            (Decision::Supersede, Some("lint-0001".to_owned())),
            "{out:#?}"
        );
        // D. Two rules about one settings file: its path is where, not what.
        let stored = [
            memory(
                "strict-0001",
                Gotcha,
                "Strict loading raises in request specs",
                "strict_loading_by_default = true in config/environments/test.rb, so a lazy \
                 association load in a request spec fails.",
                &["config/environments/test.rb"],
            ),
            other(
                "fixtures-0002",
                "Factories over fixtures",
                "Specs build records with FactoryBot.",
                &["spec/factories/**"],
            ),
        ];
        let out = review(
            &stored,
            Gotcha,
            "Missing translations fail the suite",
            "config/environments/test.rb sets config.i18n.raise_on_missing_translations = \
             true; add the key instead of silencing it.",
            &["config/environments/test.rb"],
        );
        assert_ne!(out.decision, Decision::Merge, "{out:#?}");
        // H. A duplicate that says "removed" where the memory says "gone".
        let stored = [
            memory(
                "drop-column-0001",
                Gotcha,
                "Dropping a column needs ignored_columns first",
                "Before a migration drops a column, add it to self.ignored_columns and deploy; \
                 app servers holding the cached schema fail on INSERT once the column is gone.",
                &["db/migrate/**"],
            ),
            other(
                "uuid-0002",
                "Primary keys are UUIDv7",
                "New tables use uuid primary keys.",
                &["db/migrate/**"],
            ),
        ];
        let out = review(
            &stored,
            Gotcha,
            "Drop columns in two deploys, ignored_columns first",
            "Before a migration drops a column, list it in self.ignored_columns and ship that \
             first; servers with the cached schema fail on INSERT after the column is removed.",
            &["db/migrate/**"],
        );
        assert_eq!(
            decided(&out),
            (Decision::Merge, Some("drop-column-0001".to_owned())),
            "{out:#?}"
        );
        // I. A dismissed memory about the same files, though one about other
        // files is a little closer.
        let stored = [
            dismissed(memory(
                "db-push-0001",
                Convention,
                "Apply schema changes with drizzle-kit push",
                "After editing src/db/schema.ts run drizzle-kit push to sync the database; it \
                 is faster than generating migrations.",
                &["src/db/schema.ts"],
            )),
            other(
                "seed-0002",
                "Sync the seed data without migration files",
                "Quickest way to get a change to the seed data into the database: the seed \
                 script updates the tables straight from the fixtures, no migration needed.",
                &["scripts/seed.ts"],
            ),
        ];
        let out = review(
            &stored,
            Convention,
            "Sync the schema without migration files",
            "Quickest way to get a change to src/db/schema.ts into the database: drizzle-kit \
             push updates the tables straight from the schema, no migration folder needed.",
            &["src/db/schema.ts"],
        );
        assert_eq!(
            decided(&out),
            (Decision::Reject, Some("db-push-0001".to_owned())),
            "{out:#?}"
        );
        // J. A dismissed memory repeated about the same files in other words.
        let stored = [
            dismissed(memory(
                "timeout-0001",
                Convention,
                "Raise the test timeout to fix flaky integration tests",
                "Flaky integration tests in tests/integration are stabilised by setting \
                 testTimeout: 60000 in jest.config.ts; slow CI runners need the extra minute \
                 when the database container starts cold. Each suite file gets its own \
                 schema, created by globalSetup and dropped by globalTeardown, so reruns \
                 never see stale rows from a previous worker.",
                &["jest.config.ts"],
            )),
            other(
                "snap-0002",
                "Snapshots are reviewed",
                "Snapshot updates need a reviewer.",
                &["tests/**"],
            ),
        ];
        let out = review(
            &stored,
            Convention,
            "Intermittent integration failures stopped with a longer wait",
            "Agent note: once Jest got a bigger testTimeout via jest.config.ts, the red runs \
             under tests/integration stopped; cold database containers were the cause.",
            &["jest.config.ts"],
        );
        assert_eq!(
            decided(&out),
            (Decision::Reject, Some("timeout-0001".to_owned())),
            "{out:#?}"
        );
        // K. A value another memory states is that memory's.
        let stored = [
            memory(
                "otp-0001",
                Gotcha,
                "OTP codes expire after 5 minutes",
                "SMS one-time codes are valid for 5 minutes (OTP_TTL=300).",
                &[],
            ),
            memory(
                "lockout-0002",
                Gotcha,
                "Accounts lock after failed logins",
                "Five failed logins lock the account; the lock is valid for 30 minutes.",
                &[],
            ),
        ];
        let out = review(
            &stored,
            Gotcha,
            "Lockouts also block OTP sign-in",
            "Building on the account lock: a locked account cannot sign in with an OTP \
             either; codes already sent stay valid for their usual 5 minutes but are \
             refused. Five failed logins lock the account.",
            &[],
        );
        assert_eq!(
            decided(&out),
            (Decision::Merge, Some("lockout-0002".to_owned())),
            "{out:#?}"
        );
        // Said to have changed, the value is a change though another
        // memory states the same amount of something else.
        let stored = [
            memory(
                "http-timeout-0001",
                Gotcha,
                "HTTP client timeout is 10 s",
                "The shared HTTP client gives up after 10 s.",
                &["src/http/**"],
            ),
            memory(
                "cache-0002",
                Gotcha,
                "Cache entries live 30 s",
                "The in-process cache keeps entries for 30 s.",
                &["src/cache/**"],
            ),
        ];
        let out = review(
            &stored,
            Gotcha,
            "HTTP client timeout raised to 30 s",
            "The shared HTTP client timeout was raised to 30 s after the tax API slowed down.",
            &["src/http/**"],
        );
        assert_eq!(
            decided(&out),
            (Decision::Supersede, Some("http-timeout-0001".to_owned())),
            "{out:#?}"
        );
        // Nor does one word in common make it the same thing: the version
        // a feature needs is not the minimum raised to it.
        let stored = [
            memory(
                "node-min-0001",
                MemoryType::Decision,
                "Minimum supported Node is 18",
                "engines.node in package.json is >=18; about 6% of installs still run Node 18.",
                &["package.json"],
            ),
            memory(
                "fetch-stream-0002",
                Gotcha,
                "Streaming fetch bodies needs Node 20",
                "Use the polyfill in src/http/stream.ts until the minimum allows native streaming.",
                &["src/http/stream.ts"],
            ),
        ];
        let out = review(
            &stored,
            MemoryType::Decision,
            "Minimum Node raised to 20",
            "Node 18 is end-of-life, so package.json now sets engines.node to >=20.",
            &["package.json"],
        );
        assert_eq!(
            decided(&out),
            (Decision::Supersede, Some("node-min-0001".to_owned())),
            "{out:#?}"
        );
        // A reported retirement of what only this memory names, about the
        // same files, replaces it however differently the rest is told.
        let stored = [
            memory(
                "flags-sdk-0001",
                MemoryType::Decision,
                "Feature flags are evaluated in process",
                "Flags are read with the growthbook package in src/flags.ts; it polls the flag server every 15 s.",
                &["src/flags.ts"],
            ),
            other(
                "flag-names-0002",
                "Flag names are kebab-case",
                "Name flags <team>-<feature>, e.g. checkout-new-summary.",
                &[],
            ),
        ];
        let out = review(
            &stored,
            MemoryType::Decision,
            "Toggles are read through OpenFeature",
            "Toggle values come from a flagd sidecar via client.getBooleanValue; growthbook was removed.",
            &["src/flags.ts"],
        );
        assert_eq!(
            decided(&out),
            (Decision::Supersede, Some("flags-sdk-0001".to_owned())),
            "{out:#?}"
        );
        // "The YAML file" names `routes.yml`.
        let stored = [
            other(
                "routes-yml-0001",
                "Routes are declared in config/routes.yml",
                "Each route (path, handler, auth) is listed in config/routes.yml; the router loads it at boot.",
                &["config/routes.yml"],
            ),
            other(
                "auth-0002",
                "Admin routes need the staff role",
                "The auth middleware rejects non-staff sessions on /admin.",
                &["src/auth/**"],
            ),
        ];
        let out = review(
            &stored,
            Convention,
            "Routes are declared in src/routes.ts",
            "The YAML file is gone: routes (path, handler, auth) are a typed array in src/routes.ts that the router imports.",
            &["src/routes.ts"],
        );
        assert_eq!(
            decided(&out),
            (Decision::Supersede, Some("routes-yml-0001".to_owned())),
            "{out:#?}"
        );
        // A file is named by its own name: "the Podfile" names `ios/Podfile`.
        let stored = [
            memory(
                "android-deps-0001",
                MemoryType::Decision,
                "Android libraries are declared per module",
                "Third-party libraries are listed in app/build.gradle; run ./gradlew \
                 dependencies to inspect them.",
                &["app/build.gradle"],
            ),
            other(
                "signing-0002",
                "Release signing uses the CI keystore",
                "The upload key lives in the CI secret store, never in the repository.",
                &[],
            ),
        ];
        let out = review(
            &stored,
            MemoryType::Decision,
            "Libraries come from the version catalog",
            "The build.gradle dependencies are gone; every library is declared in \
             gradle/libs.versions.toml.",
            &[],
        );
        assert_eq!(
            decided(&out),
            (Decision::Supersede, Some("android-deps-0001".to_owned())),
            "{out:#?}"
        );
        // A retelling in few shared words that says what the memory names
        // no longer works is for a person, never folded into it.
        let stored = [
            other(
                "uart-log-0001",
                "Debug logs print over UART2",
                "LOG macros in fw/log.c print to UART2 at 115200 baud; read them with a \
                 USB-serial adapter.",
                &["fw/log.c", "fw/log.h"],
            ),
            other(
                "log-levels-0002",
                "Log levels are compiled out in release",
                "LOG_LEVEL defaults to WARN in release builds.",
                &[],
            ),
        ];
        let out = review(
            &stored,
            Convention,
            "Firmware logs are read through the SWO pin",
            "The LOG macros in fw/log.c write to the SWO trace output; the USB-serial \
             adapter doesn't work anymore.",
            &["fw/log.c"],
        );
        assert_ne!(out.decision, Decision::Merge, "{out:#?}");
        // "Turned off" where the memory says "disabled" is its own rule.
        let stored = [
            other(
                "autovacuum-0001",
                "Autovacuum disabled on events_raw",
                "events_raw is append-only and vacuumed by the nightly job; per-table \
                 autovacuum is disabled for it in db/tuning.sql.",
                &["db/tuning.sql"],
            ),
            other(
                "fillfactor-0002",
                "Hot tables use fillfactor 90",
                "orders and payments leave room for HOT updates.",
                &["db/tuning.sql"],
            ),
        ];
        let out = review(
            &stored,
            Convention,
            "events_archive also needs autovacuum turned off",
            "The same per-table override goes on events_archive in db/tuning.sql: it is \
             append-only too and the nightly job vacuums it.",
            &["db/tuning.sql"],
        );
        assert_eq!(
            decided(&out),
            (Decision::Merge, Some("autovacuum-0001".to_owned())),
            "{out:#?}"
        );
        // A former practice the memory itself calls past ("the old …") is
        // part of its rule, not a replacement of it.
        let stored = [
            memory(
                "http-factory-0001",
                Convention,
                "HTTP clients come from the shared factory",
                "Build every client with httpx.NewClient(cfg); the old GlobalClient singleton leaked connections between tests.",
                &["internal/**"],
            ),
            other(
                "retry-0002",
                "Retries use exponential backoff",
                "Wrap outbound calls in retry.Do with the default backoff policy.",
                &["internal/retry/**"],
            ),
        ];
        let out = review(
            &stored,
            Convention,
            "Get HTTP clients from the factory, never a package singleton",
            "Construct clients through httpx.NewClient(cfg). Keeping one at package level (like the GlobalClient singleton used to) shares connections between tests.",
            &["internal/**"],
        );
        assert_eq!(
            decided(&out),
            (Decision::Merge, Some("http-factory-0001".to_owned())),
            "{out:#?}"
        );
    }

    #[test]
    fn a_candidate_that_says_it_adds_joins_the_memory_only_it_shares_words_with() {
        use MemoryType::Gotcha;
        let stored = [
            memory(
                "offsets-0001",
                Gotcha,
                "Kafka consumers commit offsets after processing",
                "The billing consumer commits offsets only once the handler returns, so a \
                 crash replays the message instead of losing it.",
                &["services/billing/**"],
            ),
            memory(
                "emails-0002",
                Gotcha,
                "Receipt emails are sent through Postmark",
                "The billing service renders receipts with MJML and sends them via Postmark.",
                &["services/billing/**"],
            ),
        ];
        let mut m = memory(
            "candidate-ffff",
            Gotcha,
            "Replayed messages reach the handler twice",
            "A crash between the handler and the commit also replays messages the billing \
             consumer already applied, so handlers must be idempotent.",
            &["services/billing/**"],
        );
        m.status = Status::Candidate;
        m.provenance.captured_at = "2026-06-01T00:00:00Z".parse().unwrap();
        let out = Reviewer::new(stored.iter()).review(&m);
        assert_eq!(
            verdict_of(&out),
            (Decision::Merge, Some("offsets-0001")),
            "{out:#?}"
        );
    }

    #[test]
    fn words_the_bodies_share_do_not_tie_titles_about_other_subjects() {
        use MemoryType::Convention;
        let review = |title: &str, summary: &str| {
            let stored = [
                memory(
                    "invoice-pdf-0001",
                    Convention,
                    "Invoices are emailed as PDF after payment",
                    "When a payment succeeds, the billing worker renders the invoice to PDF \
                     with wkhtmltopdf and emails it to the account owner through Postmark; \
                     the PDF is also archived in the invoices bucket for seven years.",
                    &[],
                ),
                memory(
                    "cents-0002",
                    Convention,
                    "Amounts stored in cents",
                    "Money columns hold integers of minor units.",
                    &[],
                ),
            ];
            review_new(&stored, Convention, title, summary, &[])
        };
        // Its title names a subject the stored rule never mentions: the
        // shared words of the bodies describe the setting, not the rule.
        let out = review(
            "Receipts appear on the dashboard right away",
            "The dashboard polls /api/receipts every ten seconds, so a receipt card shows \
             up soon after the payment clears; the account owner opens it as HTML from the \
             billing tab.",
        );
        assert_eq!(out.decision, Decision::Accept, "{out:#?}");
        // The same body under a title that names what the rule names is the
        // rule told again.
        let out = review(
            "Paid invoices go out by email",
            "When a payment succeeds, the account owner gets the invoice by email, \
             rendered by the billing worker.",
        );
        assert_eq!(
            verdict_of(&out),
            (Decision::Merge, Some("invoice-pdf-0001")),
            "{out:#?}"
        );
    }

    #[test]
    fn a_title_that_compares_a_value_is_news_not_a_repeat() {
        use MemoryType::Decision;
        let stored = [
            memory(
                "session-ttl-0001",
                Decision,
                "Sessions expire after 30 minutes of inactivity",
                "SESSION_IDLE_TTL=1800 in gateway/config/session.env; the gateway \
                 refreshes the cookie on every request and clients warn at 80% of the idle time.",
                &["gateway/config/session.env"],
            ),
            memory(
                "cookie-flags-0002",
                Decision,
                "Session cookies are HttpOnly and Secure",
                "The gateway sets both flags on the sid cookie.",
                &["gateway/**"],
            ),
        ];
        let out = review_new(
            &stored,
            Decision,
            "Shorter session idle timeout after the audit",
            "SESSION_IDLE_TTL in gateway/config/session.env went down to 600 s for the \
             admin console audit; the gateway still refreshes the cookie on every request \
             and clients warn at 80% of the idle time.",
            &["gateway/config/session.env"],
        );
        assert_ne!(out.decision, crate::review::Decision::Merge, "{out:#?}");
    }

    #[test]
    fn a_title_naming_another_tool_of_the_family_replaces_the_old_one() {
        use MemoryType::Convention;
        let stored = [
            memory(
                "zap-0001",
                Convention,
                "Services log with zap's production config",
                "internal/logging builds a zap.Logger with zap.NewProduction() and fields \
                 are added with zap.String; the shared logger lives in internal/logging/log.go.",
                &["internal/logging/log.go"],
            ),
            memory(
                "metrics-0002",
                Convention,
                "Metrics go through the OpenTelemetry meter",
                "Every service registers its instruments at startup.",
                &["internal/metrics/**"],
            ),
        ];
        let review = |title: &str, summary: &str| {
            review_new(
                &stored,
                Convention,
                title,
                summary,
                &["internal/logging/log.go"],
            )
        };
        // The new tool in the title, the old one mentioned as gone.
        let out = review(
            "Services log through zerolog",
            "internal/logging now builds a zerolog.Logger writing JSON to stdout; the \
             linter rejects any zap import in the services.",
        );
        assert_eq!(
            verdict_of(&out),
            (crate::review::Decision::Supersede, Some("zap-0001")),
            "{out:#?}"
        );
        // Another tool for other work, the old one never mentioned: its own
        // memory.
        let out = review(
            "The CLI logs through zerolog",
            "cmd/tool builds a zerolog.Logger writing colored output to stderr for people \
             at a terminal.",
        );
        assert_eq!(out.decision, crate::review::Decision::Accept, "{out:#?}");
    }

    #[test]
    fn another_linter_that_also_gates_ci_is_not_an_elaboration() {
        use MemoryType::Convention;
        let stored = [
            memory(
                "eslint-0001",
                Convention,
                "ESLint runs with --max-warnings 0 in CI",
                "The lint job runs eslint . --max-warnings 0 for apps/web, so any new ESLint \
                 warning fails the build.",
                &["apps/web/.eslintrc.cjs", ".github/workflows/web.yml"],
            ),
            memory(
                "css-0002",
                Convention,
                "CSS modules for component styles",
                "Components style themselves with *.module.css next to the component.",
                &["apps/web/src/components/**"],
            ),
        ];
        let out = review_new(
            &stored,
            Convention,
            "Stylelint also gates CI with zero warnings",
            "Added a stylelint step: stylelint \"apps/web/src/**/*.css\" --max-warnings 0 \
             using stylelint-config-standard. Any stylelint warning now fails the web workflow.",
            &["apps/web/.stylelintrc.json", ".github/workflows/web.yml"],
        );
        assert_eq!(out.decision, crate::review::Decision::Accept, "{out:#?}");
    }

    #[test]
    fn other_forms_of_the_same_words_add_nothing() {
        use MemoryType::Gotcha;
        let stored = [
            memory(
                "sandbox-0001",
                Gotcha,
                "Processes spawned in async tests need Sandbox.allow",
                "With async DataCase tests, a GenServer or Task started by the test cannot \
                 use the test's DB connection unless you call Sandbox.allow(Repo, self(), pid); \
                 otherwise it raises DBConnection.OwnershipError.",
                &["test/**"],
            ),
            memory(
                "factories-0002",
                Gotcha,
                "Factories live in test/support/factory.ex",
                "Use ExMachina factories; do not insert fixtures with Repo.insert! in tests.",
                &["test/support/**"],
            ),
        ];
        let review = |summary: &str| {
            review_new(
                &stored,
                Gotcha,
                "Spawned processes in async tests need Sandbox.allow",
                summary,
                &["test/**"],
            )
        };
        // "starts" for "started", "raise" for "raises": the same words.
        let out = review(
            "In async DataCase tests a GenServer or Task the test starts can't use the \
             test's DB connection unless you call Sandbox.allow(Repo, self(), pid), or it \
             will raise DBConnection.OwnershipError.",
        );
        assert_eq!(
            (out.relation, verdict_of(&out)),
            (
                crate::review::Relation::Duplicate,
                (crate::review::Decision::Merge, Some("sandbox-0001"))
            ),
            "{out:#?}"
        );
        // "rather than" for "instead of": connectives add nothing.
        let out = review(
            "In async DataCase tests a GenServer or Task started by the test cannot use the \
             test's DB connection unless you call Sandbox.allow(Repo, self(), pid) rather \
             than let it raise DBConnection.OwnershipError.",
        );
        assert_eq!(out.relation, crate::review::Relation::Duplicate, "{out:#?}");
        // Two words it does not use at all: an addition.
        let out = review(
            "In async DataCase tests a GenServer or Task the test starts can't use the \
             test's DB connection unless you call Sandbox.allow(Repo, self(), pid); shared \
             mode hides the error but serialises the suite.",
        );
        assert_eq!(
            out.relation,
            crate::review::Relation::AdditiveUpdate,
            "{out:#?}"
        );
    }

    #[test]
    fn a_title_that_swaps_only_the_tool_of_one_job_replaces_the_old_one() {
        use MemoryType::{Convention, Decision};
        // (stored type, stored title, stored summary, candidate title,
        // candidate summary, candidate paths, supersedes the first memory)
        let cases = [
            // A test runner does one job: the same title with another is a
            // switch, wherever its configuration lives and whichever of
            // decision and convention each is.
            (
                Decision,
                "Unit tests run with Jest",
                "Unit tests run with Jest via pnpm test; configuration is in jest.config.ts.",
                "Unit tests run with Vitest",
                "Run unit tests with pnpm vitest; config lives in vitest.config.ts.",
                &["vitest.config.ts"],
                true,
            ),
            // A formatter and a linter serve side by side.
            (
                Convention,
                "Run cargo fmt before pushing",
                "CI runs cargo fmt --check and fails on any diff.",
                "Run cargo clippy before pushing",
                "CI runs cargo clippy --all-targets -- -D warnings and fails on any lint.",
                &["vitest.config.ts"],
                false,
            ),
            // The same title for another stack's tests in another tree.
            (
                Decision,
                "Unit tests run with Jest",
                "Unit tests run with Jest via pnpm test; configuration is in jest.config.ts.",
                "Unit tests run with pytest",
                "The API's unit tests run with pytest from api/; fixtures live in api/conftest.py.",
                &["api/conftest.py"],
                false,
            ),
            // Another job for the other runner: more than the tool differs.
            (
                Decision,
                "Unit tests run with Jest",
                "Unit tests run with Jest via pnpm test; configuration is in jest.config.ts.",
                "Browser tests run with Playwright",
                "End-to-end specs under e2e/ run with npx playwright test.",
                &["e2e/playwright.config.ts"],
                false,
            ),
        ];
        for (kind, title, summary, new_title, new_summary, new_paths, replaces) in cases {
            let stored = [
                memory("old-0001", kind, title, summary, &["jest.config.ts"]),
                memory(
                    "other-0002",
                    Convention,
                    "Test files next to source",
                    "Unit tests sit next to the file under test as *.spec.ts.",
                    &["src/**"],
                ),
            ];
            let out = review_new(&stored, Convention, new_title, new_summary, new_paths);
            let superseded =
                verdict_of(&out) == (crate::review::Decision::Supersede, Some("old-0001"));
            assert_eq!(superseded, replaces, "{new_title}: {out:#?}");
        }
    }

    #[test]
    fn the_index_finds_a_rephrasing_among_thousands() {
        // Thousands of memories share the candidate's everyday words; the
        // rephrased memory shares its rare ones.
        let common = [
            "dropping deadline derived never stays alive very next line",
            "invoke function finishes put derive resources stays very",
            "never put resources function invoke finishes alive next",
            "line deadline derive put invoke dropping function resources",
        ];
        let filler = "billing ledger invoice tenant export webhook session refund \
                      report upload queue batch schema cursor shard replica";
        let mut stored = Vec::new();
        for i in 0..3000 {
            stored.push(memory(
                &format!("m-{i:05}"),
                MemoryType::Gotcha,
                &format!("Case {i} {filler}"),
                &format!("{} {filler} {i}", common[i % common.len()]),
                &["internal/**"],
            ));
        }
        stored.push(memory(
            "z-cancel-func-0001",
            MemoryType::Gotcha,
            "Always call the cancel func returned by context.WithTimeout",
            "Write defer cancel() right after context.WithTimeout or WithCancel; otherwise \
             the timer and child context leak until the parent is done.",
            &["internal/**"],
        ));
        let reviewer = Reviewer::new(stored.iter());
        let mut cand = memory(
            "candidate-ffff",
            MemoryType::Gotcha,
            "Dropping the CancelFunc of a deadline-derived ctx leaks resources",
            "If you derive a deadline context and never invoke the returned function, its \
             timer stays alive until the parent finishes; put `defer cancel()` on the very \
             next line.",
            &["internal/**"],
        );
        cand.status = Status::Candidate;
        let out = reviewer.review(&cand);
        assert_eq!(
            (out.relation, out.decision),
            (Relation::Duplicate, Decision::Merge),
            "{out:#?}"
        );
        assert_eq!(out.targets[0].as_str(), "z-cancel-func-0001");
    }
}
