//! Evidence, relation and decision rules of the reviewer.
//!
//! Rules, checked in order against the closest comparable memory (and the
//! runner-up for ambiguity):
//!
//! | condition | relation | decision |
//! | --- | --- | --- |
//! | a `dismissed` memory with `combined ≥ DUPLICATE` | duplicate | reject |
//! | the closest memory is `dismissed`, the whole texts are alike (`whole ≥ SAME_TOPIC_TEXT`), `combined ≥ RELATED` or *shared terms*, and the candidate does not say its opposite | duplicate | reject |
//! | a replacement clause restates a memory's title ("we no longer deploy with Capistrano"; "worker-01 and its crontab are decommissioned" under a new title for the same subject), `combined ≥ RESTATED`, scope same / broader / both global / overlapping | full replacement | supersede |
//! | no comparable memory with `combined ≥ OVERLAP`, nor one with *shared terms* in the same scope | novel | accept |
//! | replacement wording about the target, a lineage link naming it, or a *changed measure* in both titles (newer, `title ≥ RELATED`), scope same / broader / both global | full replacement | supersede |
//! | the candidate says the opposite of the target about the same thing ("run migrations before" / "after", "always retry" / "never retry") | ambiguous overlap | accept, never merged automatically |
//! | any merge below, when the candidate states a value of the target differently (*changed value*) | ambiguous overlap | accept, never merged automatically |
//! | `combined ≥ DUPLICATE` (or same identity with `summary ≥ RELATED`, or `combined ≥ RELATED` in the same scope) and nothing added (no new tag, path, module or detail, fewer than two new summary words) | duplicate | merge (one memory remains) |
//! | *shared terms* below `RELATED`, same scope (or both global), and no other comparable memory with shared terms: the same knowledge in other words | duplicate (additive update with additive wording) | merge |
//! | candidate scope narrower than the target's and `combined ≥ RELATED` | possible split | accept |
//! | `combined ≥ RELATED` (or same identity), `summary ≥ OVERLAP` or, in the same scope, a title that repeats the target's whole title and qualifies it without a negation ("…sets a deadline, except long-lived streams"), adds information or additive wording ("also", "besides"), and the runner-up is not within 0.05 | additive update | merge |
//! | anything else above `OVERLAP` | ambiguous overlap | accept, never merged automatically |
//!
//! *Shared terms*: identifiers, code spans and measures both memories name
//! (`defer cancel()` and `CancelFunc` against "the cancel func"; "20%" against
//! `0.2`; see [`text::terms`] and [`text::quantities`]), at least two, or one
//! with whole texts alike (`whole ≥ SAME_TOPIC_TEXT`), and `combined ≥
//! RESTATED`. Lexical similarity misses a rephrasing that keeps the names and
//! numbers but changes the words around them; `whole` is the similarity of
//! title, summary and detail together, identifiers split into their words.
//!
//! *Changed value*: a number the target states about something (the nearest
//! word before it: "sampled at 10%", `traces_sample_rate=0.1`) that the
//! candidate states differently about the same thing, and not also as the
//! target does. Folding "1%" into "10%", like "use uv" into "use pip-tools",
//! would make a memory that contradicts itself; a changed *measure* (a number
//! with a unit or a percent sign, not a count or a version) in both titles of
//! a newer candidate replaces the target.
//!
//! Replacement wording is about the target only when what it says is replaced
//! is named in the target (more than half of the words after "instead of",
//! "no longer", "replaces", "moved off", "went from", before "replaced by",
//! "in favour of", "is gone", around "deprecated", "switched off",
//! "decommissioned", "destroyed"..., see [`text::replacements`]; identifiers
//! count with their words, so "the high-level REST client is retired" names
//! `RestHighLevelClient`), or when it only refers back ("we no longer do it
//! this way") in a candidate about the same thing (`combined ≥ RELATED`). A
//! phrase the target itself uses about the same thing ("use date-fns instead
//! of Moment.js" repeated) is part of the rule, not a replacement of it. So
//! "partial writes" is no "partial update", "the index API replaces the whole
//! document" does not replace a memory about `_update`, and "round with
//! `HALF_EVEN` instead of `HALF_UP`" does not replace "use `BigDecimal` for
//! money".

use std::cell::OnceCell;
use std::collections::BTreeSet;

use crate::model::{Memory, Status};

use super::text::{
    self, ADDITIVE_WORDING, Quantity, REPLACEMENT_WORDING, Replaced, TEMPORARY_WORDING, Term,
    find_phrases, similarity,
};
use super::{Decision, Evidence, Relation, ReviewOutcome, ScopeRelation};

/// Combined similarity at or above which two memories say the same thing.
pub const DUPLICATE: f64 = 0.85;
/// Combined similarity at or above which two memories are about the same thing.
pub const RELATED: f64 = 0.5;
/// Combined similarity below which memories are unrelated.
pub const OVERLAP: f64 = 0.35;
/// Combined similarity from which a replacement clause that restates a
/// memory's title replaces it, although the rest of the text is new.
const RESTATED: f64 = 0.25;

/// Whole-text similarity from which one shared term (with the combined
/// similarity at [`RESTATED`]) says two memories are about the same thing.
const SAME_TOPIC_TEXT: f64 = OVERLAP;

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
    /// Numbers with their units in the title.
    title_quantities: Vec<Quantity>,
    /// The clauses of title and summary, for opposite words.
    head_clauses: Vec<Vec<String>>,
    /// Replacement phrases, found when first needed.
    replacements: OnceCell<Vec<Replaced>>,
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
        Features {
            terms: text::terms(&text),
            quantities: text::quantities(&text),
            title_tokens: text::tokens(&m.title),
            title_quantities: text::quantities(&m.title),
            replacements: OnceCell::new(),
            head_clauses: text::clauses(&format!("{}\n{}", m.title, m.summary)),
            code_words,
            topic,
            text,
        }
    }
}

impl Features {
    fn replacements(&self) -> &[Replaced] {
        self.replacements
            .get_or_init(|| text::replacements(&self.text))
    }
}

/// A value the candidate states differently from the target, about the same
/// thing: "sampled at 10%" against "sampled at 1%".
#[derive(Clone, Debug)]
pub(super) struct Change {
    /// What the value is about, as the nearest word before it, as written.
    pub(super) subject: String,
    /// The target's value, as written.
    pub(super) old: String,
    /// The candidate's value, as written.
    pub(super) new: String,
    /// Both titles state the value.
    pub(super) in_titles: bool,
    /// Both values are measures ("10%", "30 s"), not counts or versions.
    pub(super) measured: bool,
}

/// The evidence on one target with the signals the rules use but the report
/// does not show.
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
    /// Similarity of the whole texts (title, summary and detail together).
    pub(super) whole: f64,
    /// The candidate's title repeats every topic word of the target's title
    /// and adds to it, without a negation: "Every outbound gRPC call sets a
    /// deadline, except long-lived streams".
    pub(super) extends_title: bool,
    /// A value of the target the candidate states differently.
    pub(super) changed: Option<Change>,
}

impl Scored {
    /// Shared terms say the two memories are about the same thing, although
    /// they are worded differently: two or more identifiers, code spans or
    /// amounts in common, or one and a whole-text similarity of at least
    /// [`SAME_TOPIC_TEXT`]; with the combined similarity at least
    /// [`RESTATED`].
    pub(super) fn same_topic(&self) -> bool {
        self.evidence.combined >= RESTATED
            && (self.shared.len() >= 2 || (self.shared.len() == 1 && self.whole >= SAME_TOPIC_TEXT))
    }

    fn shared_list(&self) -> String {
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

pub(super) fn evidence(
    candidate: &Memory,
    features: &Features,
    target: &Memory,
    closeness: Closeness,
) -> Scored {
    let target_features = &Features::of(target);
    let Closeness {
        title,
        summary,
        detail,
        combined,
        scope,
    } = closeness;
    let all_text = &features.text;
    let target_text = &target_features.text;
    let target_words = text::tokens(target_text);
    let new_words = text::tokens(&candidate.summary)
        .difference(&target_words)
        .count();
    let adds_information = new_words >= 2
        || candidate.tags.iter().any(|t| !target.tags.contains(t))
        || candidate
            .scope
            .paths
            .iter()
            .any(|p| !target.scope.paths.contains(p))
        || candidate
            .scope
            .modules
            .iter()
            .any(|m| !target.scope.modules.contains(m))
        || (!candidate.detail.trim().is_empty() && detail < DUPLICATE);
    let (replacement_wording, restates_title) =
        replacement_of(features, target_features, &target_words, combined);
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
        additive_wording: owned(find_phrases(all_text, ADDITIVE_WORDING)),
        adds_information,
        newer: candidate.provenance.captured_at > target.provenance.captured_at,
        lineage_link: candidate.lineage.supersedes.contains(&target.id),
    };
    let (c_title, t_title) = (&features.title_tokens, &target_features.title_tokens);
    Scored {
        evidence,
        restates_title,
        opposite: text::opposite_in_clauses(&features.head_clauses, &target_features.head_clauses),
        shared: shared_terms(features, target_features),
        whole: round(text::jaccard(&features.topic, &target_features.topic)),
        extends_title: t_title.len() >= 2
            && t_title.is_subset(c_title)
            && c_title.len() > t_title.len()
            && c_title
                .difference(t_title)
                .all(|w| !text::NEGATIONS.contains(&w.as_str())),
        changed: changed_value(features, target_features),
    }
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

/// A value the target states about something that the candidate states
/// differently about the same thing, and not also as the target does.
fn changed_value(features: &Features, target_features: &Features) -> Option<Change> {
    let (c_title, t_title) = (
        &features.title_quantities,
        &target_features.title_quantities,
    );
    features.quantities.iter().find_map(|q| {
        let key = q.key.as_ref()?;
        let same_key = |p: &&Quantity| p.key.as_ref() == Some(key);
        let said =
            |v: &[Quantity], p: &Quantity| v.iter().filter(same_key).any(|x| x.same_amount(p));
        let old = target_features
            .quantities
            .iter()
            .filter(same_key)
            .find(|p| !p.same_amount(q) && !said(&features.quantities, p))?;
        if said(&target_features.quantities, q) {
            return None;
        }
        Some(Change {
            subject: q.subject.clone(),
            old: old.text.clone(),
            new: q.text.clone(),
            in_titles: said(c_title, q) && said(t_title, old),
            measured: q.measured && old.measured,
        })
    })
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
) -> (Vec<String>, bool) {
    let replacements = candidate.replacements();
    if replacements.is_empty() {
        return (Vec::new(), false);
    }
    let target_words: BTreeSet<&str> = target_tokens
        .iter()
        .chain(&target.topic)
        .map(String::as_str)
        .collect();
    let title_words = &target.title_tokens;
    let unrepeated: BTreeSet<&String> = title_words.difference(&candidate.title_tokens).collect();
    let own = target.replacements();
    let mut found: Vec<&str> = Vec::new();
    let mut restates_title = false;
    for r in replacements {
        let said_by_target = own.iter().any(|o| {
            o.phrase == r.phrase
                && ((o.refers_back() && r.refers_back())
                    || o.objects
                        .iter()
                        .any(|a| r.objects.iter().any(|b| !a.is_disjoint(b))))
        });
        let about_target = if r.refers_back() {
            combined >= RELATED
        } else {
            r.objects.iter().any(|o| {
                2 * o
                    .iter()
                    .filter(|w| target_words.contains(w.as_str()))
                    .count()
                    > o.len()
            })
        };
        if said_by_target || !about_target {
            continue;
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
    (phrases, restates_title)
}

fn owned(v: Vec<&str>) -> Vec<String> {
    v.into_iter().map(str::to_owned).collect()
}

/// Rounds to 4 decimals so that scores print and compare stably.
fn round(x: f64) -> f64 {
    (x * 10_000.0).round() / 10_000.0
}

/// Whether the path glob or module `narrow` lies inside `broad`.
fn covers(broad: &str, narrow: &str) -> bool {
    if broad == narrow {
        return true;
    }
    let base = broad.trim_end_matches("/**").trim_end_matches("/*");
    base != broad && narrow.starts_with(base) && narrow[base.len()..].starts_with('/')
}

fn scope_relation(candidate: &Memory, target: &Memory) -> ScopeRelation {
    let items = |m: &Memory| -> Vec<String> {
        m.scope
            .paths
            .iter()
            .cloned()
            .chain(m.scope.modules.iter().map(|x| format!("module:{x}")))
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
            let touch = c
                .iter()
                .any(|x| t.iter().any(|y| covers(x, y) || covers(y, x)));
            if touch {
                ScopeRelation::Overlapping
            } else {
                ScopeRelation::Disjoint
            }
        }
    }
}

pub(super) fn outcome(candidate: &Memory, scored: Vec<Scored>) -> ReviewOutcome {
    let text = format!(
        "{}\n{}\n{}",
        candidate.title, candidate.summary, candidate.detail
    );
    let temporary_wording = owned(find_phrases(&text, TEMPORARY_WORDING));
    let (relation, decision, targets, confidence, reason) = classify(&scored);
    ReviewOutcome {
        candidate: candidate.id.clone(),
        decision,
        relation,
        targets,
        confidence: round(confidence),
        reason,
        temporary_wording,
        evidence: scored.into_iter().map(|s| s.evidence).collect(),
    }
}

type Verdict = (Relation, Decision, Vec<crate::model::MemoryId>, f64, String);

/// A candidate that repeats dismissed knowledge is rejected: a verbatim
/// repeat (`combined ≥ DUPLICATE`) whatever else matches, and a reworded one
/// (`combined ≥ RELATED` or shared terms, and whole texts at least
/// [`SAME_TOPIC_TEXT`] alike) when the dismissed memory is the closest and the
/// candidate does not say its opposite.
fn rejected_repeat(all: &[Scored]) -> Option<Verdict> {
    let dismissed = |s: &&Scored| s.evidence.target_status == Status::Dismissed;
    let (repeat, why) = if let Some(s) = all
        .iter()
        .filter(dismissed)
        .find(|s| s.evidence.combined >= DUPLICATE)
    {
        (s, format!("similarity {:.2}", s.evidence.combined))
    } else {
        // A repeat says the same in its whole text, not only in its title.
        let s = all
            .first()
            .filter(dismissed)
            .filter(|s| s.opposite.is_none() && s.whole >= SAME_TOPIC_TEXT)?;
        if s.evidence.combined >= RELATED {
            (s, format!("similarity {:.2}", s.evidence.combined))
        } else if s.same_topic() {
            (
                s,
                format!(
                    "similarity {:.2}, both name {}",
                    s.evidence.combined,
                    s.shared_list()
                ),
            )
        } else {
            return None;
        }
    };
    Some((
        Relation::Duplicate,
        Decision::Reject,
        vec![repeat.evidence.target.clone()],
        repeat.evidence.combined.max(0.6),
        format!(
            "repeats `{}`, which was dismissed in review ({why})",
            repeat.evidence.target
        ),
    ))
}

/// Whether a candidate with this scope can replace the target: it covers at
/// least everything the target covered.
fn wide_enough(scope: ScopeRelation) -> bool {
    matches!(
        scope,
        ScopeRelation::Same | ScopeRelation::Broader | ScopeRelation::BothGlobal
    )
}

fn supersede(scored: &Scored) -> Verdict {
    let best = &scored.evidence;
    let why = if best.lineage_link {
        "it names the memory in `supersedes`".to_owned()
    } else if best.replacement_wording.is_empty()
        && let Some(c) = &scored.changed
    {
        format!(
            "its title changes \"{}\" from {} to {}",
            c.subject, c.old, c.new
        )
    } else {
        format!("it says \"{}\"", best.replacement_wording.join("\", \""))
    };
    (
        Relation::FullReplacement,
        Decision::Supersede,
        vec![best.target.clone()],
        best.combined.max(0.6),
        format!(
            "replaces `{}`: same topic ({:.2}) and {why}",
            best.target, best.combined
        ),
    )
}

/// Same paths and modules, or both global.
fn same_scope(scope: ScopeRelation) -> bool {
    matches!(scope, ScopeRelation::Same | ScopeRelation::BothGlobal)
}

fn classify(all: &[Scored]) -> Verdict {
    if let Some(verdict) = rejected_repeat(all) {
        return verdict;
    }
    let live: Vec<&Scored> = all
        .iter()
        .filter(|s| s.evidence.target_status != Status::Dismissed)
        .collect();
    // "We no longer <the memory's title>": replaced, however new the rest is,
    // and although the replacement lives partly elsewhere.
    if let Some(restated) = live.iter().find(|s| {
        s.restates_title
            && s.evidence.combined >= RESTATED
            && (wide_enough(s.evidence.scope) || s.evidence.scope == ScopeRelation::Overlapping)
    }) {
        return supersede(restated);
    }
    let Some(scored) = live.first().filter(|s| {
        s.evidence.combined >= OVERLAP
            || s.evidence.same_identity
            || (s.same_topic() && same_scope(s.evidence.scope))
    }) else {
        let closest = live.first().map_or(0.0, |s| s.evidence.combined);
        return (
            Relation::Novel,
            Decision::Accept,
            Vec::new(),
            1.0 - closest,
            "nothing comparable is stored".to_owned(),
        );
    };
    let best = &scored.evidence;
    let replaces = !best.replacement_wording.is_empty()
        || best.lineage_link
        || (scored
            .changed
            .as_ref()
            .is_some_and(|c| c.in_titles && c.measured)
            && best.title >= RELATED
            && best.newer);
    if replaces && wide_enough(best.scope) {
        return supersede(scored);
    }
    if let Some((said, stored)) = scored.opposite {
        return ambiguous(
            &live,
            best,
            format!(
                "says \"{said}\" where `{}` says \"{stored}\" (similarity {:.2}): \
                 a contradiction, a person should decide",
                best.target, best.combined
            ),
        );
    }
    let verdict = merge_or_split(&live, scored).unwrap_or_else(|| {
        ambiguous(
            &live,
            best,
            format!(
                "overlaps `{}` (similarity {:.2}) without a clear relation; a person should decide",
                best.target, best.combined
            ),
        )
    });
    // Folding "1%" into "10%" would make a memory that contradicts itself.
    if verdict.1 == Decision::Merge
        && let Some(c) = &scored.changed
    {
        return ambiguous(
            &live,
            best,
            format!(
                "says {} for \"{}\" where `{}` says {} (similarity {:.2}): \
                 a changed value is never merged, a person should decide",
                c.new, c.subject, best.target, c.old, best.combined
            ),
        );
    }
    verdict
}

/// The merge and split rules, on the closest comparable memory.
fn merge_or_split(live: &[&Scored], scored: &Scored) -> Option<Verdict> {
    let best = &scored.evidence;
    let target = vec![best.target.clone()];
    let duplicate = best.combined >= DUPLICATE
        || (best.same_identity && best.summary >= RELATED)
        || (best.combined >= RELATED && same_scope(best.scope));
    if duplicate && !best.adds_information {
        return Some((
            Relation::Duplicate,
            Decision::Merge,
            target,
            best.combined,
            format!(
                "duplicate of `{}` (similarity {:.2}) and adds nothing: merge into it",
                best.target, best.combined
            ),
        ));
    }
    // Worded differently, but naming the same identifiers and amounts.
    let rival = live.iter().skip(1).any(|s| s.same_topic());
    if scored.same_topic() && same_scope(best.scope) && best.combined < RELATED && !rival {
        let (relation, what) = if best.additive_wording.is_empty() {
            (Relation::Duplicate, "says what")
        } else {
            (Relation::AdditiveUpdate, "adds to what")
        };
        return Some((
            relation,
            Decision::Merge,
            target,
            best.combined.max(0.5),
            format!(
                "{what} `{}` says in other words (similarity {:.2}, both name {}): merge into it",
                best.target,
                best.combined,
                scored.shared_list()
            ),
        ));
    }
    if best.scope == ScopeRelation::Narrower && best.combined >= RELATED {
        return Some((
            Relation::PossibleSplit,
            Decision::Accept,
            target,
            best.combined,
            format!(
                "narrows `{}` to part of its scope; keep both and consider linking them",
                best.target
            ),
        ));
    }
    let runner_up_close = live.get(1).is_some_and(|second| {
        best.combined - second.evidence.combined < 0.05 && second.evidence.combined >= RELATED
    });
    let additive = best.adds_information || !best.additive_wording.is_empty();
    // An update restates what it updates: a shared title over another summary
    // is not one, unless the title is repeated whole and qualified.
    if (best.combined >= RELATED || best.same_identity)
        && (best.summary >= OVERLAP || (scored.extends_title && same_scope(best.scope)))
        && additive
        && !runner_up_close
    {
        let how = if best.summary >= OVERLAP {
            ""
        } else {
            " and qualifies its title"
        };
        return Some((
            Relation::AdditiveUpdate,
            Decision::Merge,
            target,
            best.combined,
            format!(
                "adds to `{}` (similarity {:.2}){how}: merge into it",
                best.target, best.combined
            ),
        ));
    }
    None
}

/// Overlap without a clear relation: accepted, never merged automatically.
fn ambiguous(live: &[&Scored], best: &Evidence, reason: String) -> Verdict {
    let mut targets: Vec<_> = live
        .iter()
        .filter(|s| s.evidence.combined >= OVERLAP || s.same_topic())
        .map(|s| s.evidence.target.clone())
        .collect();
    targets.truncate(3);
    (
        Relation::AmbiguousOverlap,
        Decision::Accept,
        targets,
        1.0 - best.combined,
        reason,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{MemoryId, MemoryType, Provenance, Source, Status};
    use crate::review::Reviewer;

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
        use MemoryType::{Convention, Decision as D, Gotcha, Pattern};
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
                name: "other type is not comparable",
                kind: Convention,
                title: "Ledger entries are append-only",
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
                name: "partial writes is not replacement wording",
                kind: Gotcha,
                title: "Ledger entries are append-only",
                summary: "Partial writes to ledger_entries are never fixed with UPDATE; post a reversing entry.",
                paths: &["src/ledger/**"],
                tags: &[],
                relation: Relation::AdditiveUpdate,
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
        // A changed value elsewhere is never merged.
        let (relation, decision, reason) = review(
            sampling,
            "Sentry traces are sampled in production",
            "traces_sample_rate is 0.01 in production, to stay within the quota.",
        );
        assert_eq!(
            (relation, decision),
            (Relation::AmbiguousOverlap, Decision::Accept),
            "{reason}"
        );
        assert!(reason.contains("changed value"), "{reason}");
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
        ];
        for (c, t, expected) in cases {
            let cm = memory("c-1", MemoryType::Decision, "t", "s", c);
            let tm = memory("t-1", MemoryType::Decision, "t", "s", t);
            assert_eq!(scope_relation(&cm, &tm), *expected, "{c:?} vs {t:?}");
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
