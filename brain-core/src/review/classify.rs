//! The relation and decision rules of the reviewer, on the evidence that
//! `decide.rs` gathers for the closest stored memories.
//!
//! Rules, checked in order:
//!
//! | condition | relation | decision |
//! | --- | --- | --- |
//! | a `dismissed` memory of any type is repeated: verbatim, or with a body more alike than its title (see the bodies rule below), or, of the same type, with both titles writing as a name (a capital past the first word, or code) a word no other compared memory uses, none of those words negated, at least `RESTATED` alike ("Adopt GORM as the ORM" / "Move the repo layer to GORM"), or reworded when it is the closest of the memories whose scope touches the candidate's, at least `OVERLAP` alike with whole texts alike or an identifier both name (or naming the same things in the same files with four or more words only they share, or one identifier both name with three such words), or, of the same type and closest, proposed anew ("should", "we could", "proposal", a title opening with a verb of doing) with three or more words only it shares, `combined ≥ RESTATED`, nothing named apart, nothing of its title turned down and no replacement wording, and the candidate neither contradicts it nor negates what both name (see [`rejected_repeat`]) | duplicate | reject |
//! | the candidate only reports activity or progress ("Fixed a typo", "WIP", "Rebased on main") and states nothing lasting, nor a new value of a memory that the value-change rule below would supersede ("Bumped ci/nightly-version to nightly-2025-01-20"); never a section of an imported rule file | no durable value | reject, no target |
//! | (no replacement rule below applies to a memory written by the same command run as the candidate, such as another file of one `brain import`: one run states how things are now) | – | – |
//! | a replacement clause restates a memory's title ("we no longer deploy with Capistrano"), `combined ≥ RESTATED`, scope same / broader / both global / overlapping | full replacement | supersede |
//! | replacement or move wording names what the target is about ("switched from Jest", "X moved to Y", "now lives in", "in favour of", "is obsolete", "stop editing …"), or a lineage link names it, in any scope but a narrower one, of the same type or a decision and a convention; in any scope and of any type when it names the target clearly (one of its identifiers or paths, or a word of its title said in the candidate's title or with another of its words); none of the retirement rules below either, when the candidate copies another stored memory verbatim (its wording is that memory's own, unless a lineage link names the target) | full replacement | supersede |
//! | the candidate's title names a tool in place of one the target's title names, of one family (see `decide::FAMILIES`): mentioning the old one too, same type, newer, scope not disjoint, `combined ≥ RESTATED`; or, for a family whose members do one job each (test runners, loggers, bundlers; not linters and formatters), in a title that says the target's word for word but for the tool ("Unit tests run with Vitest" / "… with Jest"), the two scopes in one part of the tree (`api/` and `web/` are two stacks), or but for the place, each place a part of its own memory's paths and neither named by the other memory, not two files of two languages ("Dependency versions in libs.versions.toml" / "… in buildSrc"), newer, same type or two of decision, convention, gotcha and pattern, in any scope | full replacement | supersede |
//! | the candidate's text names a directory of the target's paths that none of its own paths is in, and says where things are now ("the top-level `hosts/` directory is gone", "`ops/runbooks` was folded into `docs/runbooks`"), same type or a decision and a convention, `combined ≥ RESTATED` | full replacement | supersede |
//! | a newer candidate states a value of the target differently, in both titles over the same frame, worded as a change ("now", "raised to"), or for the same paths (or some the target lists) without stating the old value of the same thing ("minSdk = 24 in android/app/build.gradle" against "minSdkVersion is 21" there), of the same type (or, for the same paths, of decision, convention, gotcha and pattern), in texts at least `RESTATED` alike or titles that share a word (a version both summaries name as background says nothing), not an exception carved out of part of the target's scope ("Exception: …", "every other … still"), no additive wording (unless its title states the new value and it is worded as a change), scope not disjoint, and no stored memory it copies verbatim (that one already states the value) | full replacement | supersede |
//! | the two rules above point at two memories, the title states the new value and the memory holding the old one is the closer ("Dev Redis moved to host port 56380": the port rule, not the `make dev` rule the words before "moved to" also name) | full replacement | supersede that one |
//! | any supersession above but one a lineage link names, when a dismissed memory of a scope the candidate touches is closer than the target ("Proposal: disable stripping and stop maintaining link.xml entries", told again after the stripping proposal was turned down; the dismissed one is named first) | ambiguous overlap | accept |
//! | a phrase reports as done ("was removed") the retirement of something the target's title names, same scope, `combined ≥ RELATED` ("the odeint wrapper was removed" against "Integrate … with scipy.integrate.odeint") | full replacement | supersede |
//! | a newer candidate reports as done or decided ("has been decommissioned", "will be deleted") the retirement of a word of the target's title that no other compared memory shares with it, same type, scope not disjoint, `combined ≥ RESTATED` or four or more words only the two share ("the Elasticsearch cluster has been decommissioned" against "Product search is served by Elasticsearch") | full replacement | supersede |
//! | a newer candidate reports as done ("was removed", "were dropped") the retirement of a word of the target's text that no other compared memory shares with it, same type, the same paths or modules ("hot-shots was removed" against "emit metrics with the hot-shots `StatsD` client", both about `src/metrics.ts`) | full replacement | supersede |
//! | a newer candidate's title says how things stand now ("Trivy gate now fails only on fixable CRITICAL CVEs"), it shares four or more words with one memory that no other compared memory has (twice as many as any), same type, scope same / broader / both global, `combined ≥ RESTATED` | full replacement | supersede |
//! | an exception carved out of one rule for part of its scope ("Exception: …", "every other … still"), setting otherwise a value that rule states | additive update | merge |
//! | no same-type memory with `combined ≥ OVERLAP`, shared terms in the same scope, bodies told from another side (see below; not under a title opening on another subject, nor in a scope partly elsewhere), an additive reference or a repeated claim, or words only it shares with the candidate | novel | accept (the reason names the closest memory at least `RESTATED` alike and what keeps it apart) |
//! | the candidate says the opposite of the target about the same thing | ambiguous overlap | accept |
//! | any merge below, when the candidate changes a value of the target, or reports as removed something the target's title names (or, as done or decided, a word of its title only it shares), or, below `OVERLAP`, has replacement wording about the target ("the USB-serial adapter doesn't work anymore"), or a dismissed memory of a scope it touches is closer than the target (the dismissed one is named first) | ambiguous overlap | accept |
//! | `combined ≥ DUPLICATE` (or same identity with `summary ≥ RELATED`, `combined ≥ RELATED` in the same scope, or a narrower scope that adds nothing with `summary ≥ 0.7`) and nothing added | duplicate | merge |
//! | an additive reference names the memory ("Adding to the 500 ms IWDG note", "Following up on the cache-key rule"): two or more of its words, more than any other's | additive update | merge |
//! | the candidate repeats the claim of exactly one memory (every content word of its title, same polarity): in one sentence, `combined ≥ RESTATED`, scope same / broader / both global; or across its text, `combined ≥ OVERLAP`, the same paths or modules | additive update (duplicate when it adds nothing) | merge |
//! | shared terms below `RELATED`, scope not disjoint, no rival with shared terms | duplicate (additive update with additive wording) | merge |
//! | the candidate elaborates ("Why …", "How to …", "also applies to", "same rule as") in a title with a word the target uses and no tool of the target's family in place of its own ("Stylelint also gates CI" is not about eslint), or says it adds ("also", "on top of") in texts at least `RESTATED` alike, a scope not disjoint and no tools of one kind (see [`adds_to`]), and shares two or more words with the target that no other compared memory has, twice as many as any rival | additive update | merge |
//! | candidate scope narrower than the target's (and not made of paths the target lists itself), a text that names the part ("webhook" for `src/api/webhooks/**` under `src/api/**`; a rule restated while working in one file names none), and `combined ≥ RELATED` | possible split | accept |
//! | `combined ≥ RELATED` (or same identity), `summary ≥ OVERLAP`, adds information, no close runner-up | additive update | merge |
//! | four or more words only the target shares with the candidate, twice as many as any rival, `combined ≥ SPECIFIC_FLOOR`, summaries at least `SPECIFIC_BODY` alike, scope same / broader / both global, or narrower with bodies `BODY_OVER_TITLE` more alike than titles and a title that opens with something the target names, in one of its first two telling words (see [`words_scope`]), and the titles do not name two tools of one kind (pnpm / Cargo), nor the target's title a thing in code the candidate never writes (`PodDisruptionBudget`), and each title has a content word the other memory uses ("Location access requested when the Map tab first opens" shares body words, not a subject, with "Ask for push permission after onboarding"), and the candidate's title reports no change as done ("… renamed to `APP_DB_DSN`"); a narrower scope made of paths the target lists as written counts as the same, and so does an overlapping one with six or more such words under a title that opens on something the target names; at `combined ≥ OVERLAP` six or more such words, titles of no shared shape naming different things, of one polarity and not contradicting each other | duplicate | merge |
//! | bodies more alike than titles (summary ≥ `BODY_ALIKE` and `BODY_OVER_TITLE` above the title: the same knowledge told from another side, where a look-alike keeps the title's shape), no close runner-up, no tools of one kind, a title that announces no change and says nothing of how things are now; across types, nothing of the target's title turned down | duplicate (additive update when it adds) | merge |
//! | anything else above `OVERLAP` | ambiguous overlap | accept |
//! | (any merge above as a duplicate, of the same type, with no additive wording and below `DUPLICATE`, when the candidate's text is at least `TELLS_MORE` (1.4) times as long as the target's: it tells more than the memory holds; or when it names `NAMES_ADDED` (5) or more things the target does not: identifiers and code spans with a word the target's text never uses, amounts it never states) | additive update | merge |
//! | (any merge above as an additive update, of the same type, with no additive wording, when the candidate's text is under `RETELLS` (1.2) times as long as the target's and repeats no claim: it retells it; or, repeated claim or not, when it names nothing the target does not, is under `TELLS_MORE` times as long, trades words with it (brings fewer than two beyond twice those it leaves out), carves out no exception and has no clause of five or more words the target never uses) | duplicate | merge |
//!
//! Never merged: a candidate whose title compares a value with what it
//! was ("Shorter access-token lifetime", not "must be longer than …") into
//! the memory stating it, nor one naming an address (`s3://…`) where the
//! memory names another of the same scheme, nor one that calls a name the
//! memory holds the old one ("the old `registry.internal.acme.io`") (a
//! person decides).
//!
//! Never merged or replaced: a memory the candidate sets itself apart from
//! ("… is separate from the CPU policy" against "No CPU limits on …", or
//! "disabling broadcast does not help" against "Broadcast joins … OOM the
//! driver", outside an addition); a memory whose title has the candidate's
//! shape but names another thing (*distinct subject*, see `subject.rs`), except
//! replaced by a changed value when the titles open alike and differ only in
//! what they say of it; a memory
//! of another type, except replaced by name, or, for two of decision,
//! convention, gotcha and pattern (one rule told as a choice, a rule, a trap
//! or a recipe), merged on what the texts say alike: a duplicate, a repeated
//! claim, an update at `RELATED` or bodies told from another side when the
//! candidate turns down no word of the target's title ("…, not
//! `server.proxy`"), never by identifiers both name or words only the two
//! share; a candidate of the same
//! batch (filtered before, in `mod.rs`).
//!
//! Words "only the two share" (see `mod.rs`) leave out the words of a path
//! both name: it says where two rules live, not what they say. A value the
//! candidate states that another compared memory states too is that
//! memory's, not a change of the target's; a value set by its name
//! (`TIMEOUT=15`) only when that memory states it of the same name or two of
//! the same words.

use crate::model::{Memory, MemoryId, Status};

use super::decide::{
    DUPLICATE, Features, OVERLAP, RELATED, RESTATED, RETOLD, SAME_TOPIC_TEXT, Scored, owned, round,
};
use super::subject::Repeat;
use super::text::{TEMPORARY_WORDING, find_phrases};
use super::{Decision, Evidence, Relation, ReviewOutcome, ScopeRelation};

/// Combined similarity below which words only two memories share do not make
/// them one.
const SPECIFIC_FLOOR: f64 = 0.1;

/// Summary similarity from which bodies more alike than their titles (by
/// [`BODY_OVER_TITLE`]) say the same knowledge.
const BODY_ALIKE: f64 = 0.4;

/// How much more alike the bodies must be than the titles: between the
/// look-alike of the review corpus with the most alike body (0.056 above its
/// title: `clippy` / `rustfmt` lint jobs) and the rephrasing with the least
/// (0.078).
const BODY_OVER_TITLE: f64 = 0.07;

/// Words only two memories share from which bodies alike (see
/// [`bodies_alike`]) make a narrower candidate a retelling whatever its title
/// opens with: one more than the rule for part of a scope with the most such
/// words in the review corpus ("The CLI prints user-facing output with
/// console.log" under "Log with the shared pino logger": five).
const MANY_SPECIFIC: usize = 6;

/// Summary similarity below which words only two memories share do not make
/// them the same knowledge in other words: a rephrasing restates the body,
/// while another rule about the same files shares only the names ("Run
/// `gen-l10n` after editing an .arb file" against "ARB files live in
/// lib/l10n").
const SPECIFIC_BODY: f64 = 0.2;

/// The reviewer's verdict on `candidate`, from the evidence on the closest
/// stored memories (most similar first).
pub(super) fn outcome(
    candidate: &Memory,
    features: &Features,
    scored: Vec<Scored>,
) -> ReviewOutcome {
    let text = format!(
        "{}\n{}\n{}",
        candidate.title, candidate.summary, candidate.detail
    );
    let temporary_wording = owned(find_phrases(&text, TEMPORARY_WORDING));
    let (relation, decision, targets, confidence, reason) = classify(features, &scored);
    ReviewOutcome {
        candidate: candidate.id.clone(),
        decision,
        relation,
        targets,
        confidence: round(confidence),
        reason,
        temporary_wording,
        evidence: scored.into_iter().take(5).map(|s| s.evidence).collect(),
    }
}

/// The relation, decision, targets, confidence and reason.
pub(super) type Verdict = (Relation, Decision, Vec<MemoryId>, f64, String);

/// A candidate that repeats dismissed knowledge is rejected: a verbatim
/// repeat (`combined ≥ DUPLICATE`) whatever else matches, and a reworded one
/// when the dismissed memory is the closest and the candidate neither says
/// its opposite nor negates what both name ("never set `verify=False`"):
/// texts at least [`OVERLAP`] alike that say the same in their
/// whole text (`whole ≥ SAME_TOPIC_TEXT`) or name the same identifier, code
/// span or amount (`FindObjectOfType<GameManager>()`, `GenServer`), or
/// shared terms with whole texts alike.
fn rejected_repeat(all: &[&Scored], features: &Features) -> Option<Verdict> {
    let dismissed = |s: &&&Scored| s.evidence.target_status == Status::Dismissed;
    let (repeat, why) = if let Some(s) = all
        .iter()
        .filter(dismissed)
        .find(|s| s.evidence.combined >= DUPLICATE)
    {
        (s, format!("similarity {:.2}", s.evidence.combined))
    } else if let Some(s) = all
        .iter()
        .filter(dismissed)
        .filter(|s| s.opposite.is_none() && !s.negates_shared && !s.tools_apart)
        .find(|s| {
            // No live memory's body is closer: a repeat of that one is no
            // repeat of the dismissed one.
            bodies_alike(&s.evidence)
                && all.iter().all(|o| {
                    o.evidence.target_status == Status::Dismissed
                        || o.evidence.summary < s.evidence.summary
                })
        })
    {
        (
            s,
            format!(
                "the bodies say the same (summary {:.2}, title {:.2})",
                s.evidence.summary, s.evidence.title
            ),
        )
    } else if let Some(s) = all
        .iter()
        .filter(dismissed)
        .filter(|s| s.opposite.is_none() && !s.negates_shared && !s.tools_apart)
        // The proposal again under another title: the same type, both
        // titles naming, as a name, what no other memory compared names
        // ("Adopt GORM as the ORM" / "Move the repo layer to GORM").
        .find(|s| !s.cross_type && s.titles_specific && s.evidence.combined >= RESTATED)
    {
        (
            s,
            format!(
                "similarity {:.2}, both titles name what nothing else does",
                s.evidence.combined
            ),
        )
    } else {
        // The closest among the memories whose scope touches the
        // candidate's: one about other files is no closer repeat.
        let s = all
            .iter()
            .find(|s| s.evidence.scope != ScopeRelation::Disjoint)
            .filter(dismissed)
            .filter(|s| s.opposite.is_none() && !s.negates_shared)?;
        let alike = s.whole >= SAME_TOPIC_TEXT;
        if alike && s.evidence.combined >= OVERLAP {
            (s, format!("similarity {:.2}", s.evidence.combined))
        } else if (alike && s.same_topic())
            || (!s.shared.is_empty() && s.evidence.combined >= OVERLAP)
            // An identifier both name and three words only they share.
            || (!s.shared.is_empty() && s.specific.len() >= 3)
            // Names in common, the same files, and words only it shares.
            || (s.same_topic() && same_scope(s.evidence.scope) && s.specific.len() >= 4)
        {
            (
                s,
                format!(
                    "similarity {:.2}, both name {}",
                    s.evidence.combined,
                    s.shared_list()
                ),
            )
        } else if !s.cross_type
            && features.proposes()
            // One that also retires a live memory is for a person to weigh.
            && features.replacements().is_empty()
            && s.evidence.combined >= RESTATED
            && s.specific.len() >= 3
            && !s.tools_apart
            && s.distinct.is_none()
            && !s.turns_down_title
        {
            // The proposal again in words of its own: the closest of its
            // type, proposed anew, with words no other memory compared
            // shares ("If we ran podman rootless … we could use the docker
            // profile" against "Run Docker-format containers with rootless
            // Podman").
            (
                s,
                format!(
                    "similarity {:.2}; it proposes again what it alone shares words with ({})",
                    s.evidence.combined,
                    s.specific.join(", ")
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

/// Why a candidate is new: nothing comparable, or the closest memory and
/// what keeps it apart, so a reviewer can check the call ("`ci-clippy`
/// (similarity 0.44) names `fmt` where this says `clippy`").
fn novel_reason(all: &[Scored]) -> String {
    let Some(closest) = all
        .iter()
        .max_by(|a, b| a.evidence.combined.total_cmp(&b.evidence.combined))
        .filter(|s| s.evidence.combined >= RESTATED)
    else {
        return "nothing comparable is stored".to_owned();
    };
    let e = &closest.evidence;
    let apart = if e.target_status == Status::Dismissed {
        "was dismissed in review, and this does not repeat it".to_owned()
    } else if closest.cross_type && !closest.kin {
        "is of another type".to_owned()
    } else if closest.cross_type {
        // Of one kind, but only texts alike merge across types.
        "is of another type and not alike enough to be the same rule".to_owned()
    } else if let Some(d) = &closest.distinct {
        format!("names `{}` where this says `{}`", d.target, d.candidate)
    } else if closest.tools_apart {
        "names another tool or component".to_owned()
    } else if e.scope == ScopeRelation::Disjoint && e.combined >= OVERLAP {
        "is about other files".to_owned()
    } else if e.scope == ScopeRelation::Disjoint {
        "is about other files and shares too little with this candidate".to_owned()
    } else {
        "shares too little with this candidate to be the same rule".to_owned()
    };
    format!(
        "new: the closest stored memory, `{}` (similarity {:.2}), {apart}",
        e.target, e.combined
    )
}

/// Whether a candidate with this scope can replace the target: it covers at
/// least everything the target covered.
fn wide_enough(scope: ScopeRelation) -> bool {
    matches!(
        scope,
        ScopeRelation::Same | ScopeRelation::Broader | ScopeRelation::BothGlobal
    )
}

/// The target's files: the same paths, or some of those it lists as
/// written ("pulumi is 3.130.0 in `.tool-versions`" under a pin in
/// `.tool-versions` and the workflows), not a part carved out.
fn same_files(s: &Scored) -> bool {
    s.evidence.scope == ScopeRelation::Same
        || (s.evidence.scope == ScopeRelation::Narrower && s.listed_in_target)
}

/// Same paths and modules, or both global.
fn same_scope(scope: ScopeRelation) -> bool {
    matches!(scope, ScopeRelation::Same | ScopeRelation::BothGlobal)
}

fn supersede(scored: &Scored) -> Verdict {
    let best = &scored.evidence;
    let why = if best.lineage_link {
        "it names the memory in `supersedes`".to_owned()
    } else if let Some(dir) = &scored.moved_from
        && best.replacement_wording.is_empty()
    {
        format!(
            "it says things moved out of `{dir}`, where the memory applies, and lives elsewhere"
        )
    } else if let Some(name) = &scored.drops
        && best.replacement_wording.is_empty()
    {
        format!("it says things are now done without `{name}`, which the memory's title names")
    } else if let Some(name) = &scored.adds_flag
        && best.replacement_wording.is_empty()
    {
        format!("it passes `{name}`, which the memory says is left out")
    } else if let Some(super::decide::Switch {
        new,
        old,
        title_swap,
    }) = &scored.switches_tool
        && best.replacement_wording.is_empty()
        && scored.changed.is_none()
    {
        if *title_swap {
            format!("its title says what the memory's says, with `{new}` in place of `{old}`")
        } else {
            format!("its title names `{new}` in place of `{old}`, which it mentions as the old way")
        }
    } else if best.replacement_wording.is_empty()
        && let Some(c) = &scored.changed
    {
        let place = if c.in_titles {
            "its title changes"
        } else {
            "it changes"
        };
        if c.subject.is_empty() {
            format!("{place} {} to {}", c.old, c.new)
        } else {
            format!("{place} \"{}\" from {} to {}", c.subject, c.old, c.new)
        }
    } else if best.replacement_wording.is_empty() {
        // A title that says how things stand now, tied by words only the
        // two share.
        format!(
            "its title says how things stand now, about what only it shares with it ({})",
            scored.specific.join(", ")
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

/// Whether the candidate gives a new value for what a live memory states,
/// as [`changed_value`] finds it: "Bumped ci/nightly-version to
/// nightly-2025-01-20" reads as a report of work, but it is the news of the
/// pin that memory records.
fn changes_stored_value(features: &Features, all: &[Scored]) -> bool {
    let live: Vec<&Scored> = all
        .iter()
        .filter(|s| s.evidence.target_status != Status::Dismissed && !s.same_run)
        .collect();
    changed_value(&live, features).is_some()
}

fn classify(features: &Features, all: &[Scored]) -> Verdict {
    // Dismissed knowledge stays dismissed whatever type it comes back as;
    // other memories of another type are no repeat (nor closer than one).
    let repeats: Vec<&Scored> = all
        .iter()
        .filter(|s| !s.cross_type || s.evidence.target_status == Status::Dismissed)
        .collect();
    if let Some(verdict) = rejected_repeat(&repeats, features) {
        return verdict;
    }
    if let Some(why) = &features.no_value
        && !changes_stored_value(features, all)
    {
        return (
            Relation::NoDurableValue,
            Decision::Reject,
            Vec::new(),
            0.8,
            format!("no durable value: {why}"),
        );
    }
    // Replacement wording names what it replaces: a title that goes on
    // differently ("… moved to packages/ui" / "… live in src/common") does not
    // make the target another thing; one that opens with another subject
    // ("Search service moved off Postgres" / "Payments service uses
    // Postgres") does, unless the replacement names more of the target than
    // one word ("the old keystore on the Jenkins agent was destroyed").
    let named: Vec<&Scored> = all
        .iter()
        .filter(|s| {
            s.evidence.target_status != Status::Dismissed
                && (s.replaced_words >= 2 || s.distinct.as_ref().is_none_or(|d| !d.leading))
        })
        .collect();
    let live: Vec<&Scored> = named
        .iter()
        .copied()
        .filter(|s| s.distinct.is_none())
        .collect();
    if let Some(replaced) = replaced(features, &named, &live).or_else(|| switched(&named)) {
        // "Proposal: disable stripping and stop maintaining link.xml
        // entries" stops what the link.xml rule says, but it is the
        // stripping proposal turned down before, told again.
        if !replaced.evidence.lineage_link
            && let Some(verdict) =
                dismissed_first(all, &live, &replaced.evidence, ", which it would replace")
        {
            return verdict;
        }
        return supersede(replaced);
    }
    // Merging: the same type or kind (see `Scored::kin`), in a scope that
    // touches the candidate's (or an elaboration naming what only the
    // target names, wherever it lives).
    let live: Vec<&Scored> = live
        .into_iter()
        .filter(|s| mergeable(features, s))
        .collect();
    // Words only two memories share tie two of one type (see below).
    let same_type: Vec<&Scored> = live.iter().copied().filter(|s| !s.cross_type).collect();
    let leader = specific_leader(&same_type).or_else(|| {
        specific_leader(&live).filter(|s| {
            s.cross_type
                && s.specific.len() >= KIN_SPECIFIC
                && s.evidence.summary >= KIN_BODY
                && !s.own_title_name_unsaid
        })
    });
    if let Some(verdict) = exception_to(features, &live) {
        return verdict;
    }
    let Some(scored) = closest_comparable(features, &live, leader) else {
        let closest = live.first().map_or(0.0, |s| s.evidence.combined);
        return (
            Relation::Novel,
            Decision::Accept,
            Vec::new(),
            1.0 - closest,
            novel_reason(all),
        );
    };
    let best = &scored.evidence;
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
    let verdict = merge_or_split(features, &live, scored, leader).unwrap_or_else(|| {
        ambiguous(
            &live,
            best,
            format!(
                "overlaps `{}` (similarity {:.2}) without a clear relation; a person should decide",
                best.target, best.combined
            ),
        )
    });
    let verdict = length_relation(verdict, features, scored);
    if verdict.1 == Decision::Merge {
        if let Some(why) = merge_contradicts(scored) {
            return ambiguous(&live, best, why);
        }
        if let Some(verdict) = dismissed_first(all, &live, best, "") {
            return verdict;
        }
    }
    verdict
}

/// How many things a merge must name that the memory does not (see
/// [`Scored::new_names`]) to add to it rather than repeat it.
const NAMES_ADDED: usize = 5;

/// A merge found to repeat the target is an addition when the candidate
/// says much more than the memory holds (see [`Scored::tells_more`]) or
/// names many things it does not (see [`Scored::new_names`]); additive
/// wording, a near-verbatim copy and a memory of another type keep the
/// relation they give. The other way round, an addition barely longer than
/// the memory (see [`Scored::tells_no_more`]), or not much longer and naming
/// nothing it does not, without words of an addition, retells it: a
/// duplicate.
fn length_relation(verdict: Verdict, features: &Features, scored: &Scored) -> Verdict {
    let (relation, decision, targets, confidence, reason) = verdict;
    let best = &scored.evidence;
    let settled =
        !best.additive_wording.is_empty() || best.combined >= DUPLICATE || scored.cross_type;
    if decision == Decision::Merge
        && relation == Relation::Duplicate
        && !settled
        && scored.tells_more
    {
        return (
            Relation::AdditiveUpdate,
            decision,
            targets,
            confidence,
            format!("{reason}; it tells more than the memory holds"),
        );
    }
    // Things the memory never names: it adds them, whatever its length.
    if decision == Decision::Merge
        && relation == Relation::Duplicate
        && !settled
        && scored.new_names >= NAMES_ADDED
    {
        return (
            Relation::AdditiveUpdate,
            decision,
            targets,
            confidence,
            format!(
                "{reason}; it names {} things the memory does not",
                scored.new_names
            ),
        );
    }
    // Barely longer than the memory, in words of its own: a retelling.
    if decision == Decision::Merge
        && relation == Relation::AdditiveUpdate
        && best.additive_wording.is_empty()
        && !scored.cross_type
        // A repeated claim weighs what it adds itself (see `claim_update`);
        // naming nothing the memory does not, a text not much longer than
        // it that trades words with it retells it all the same.
        && ((scored.tells_no_more && scored.repeats_claim.is_none())
            || (scored.new_names == 0
                && !scored.tells_more
                // An exception it carves out is news, however short, and
                // so is a clause of words the memory never uses.
                && !features.carves_exception()
                && !scored.brings_clause
                && scored.traded.is_some()
                && tells_at_length(scored)))
    {
        let reason = [
            ("adds to what `", "says what `"),
            (
                "adds in other words to what `",
                "says in other words what `",
            ),
            ("adds to `", "repeats `"),
            ("elaborates `", "retells `"),
        ]
        .iter()
        .find_map(|(from, to)| reason.strip_prefix(from).map(|rest| format!("{to}{rest}")))
        .unwrap_or(reason);
        return (
            Relation::Duplicate,
            decision,
            targets,
            confidence,
            format!("{reason}; it is barely longer than the memory"),
        );
    }
    (relation, decision, targets, confidence, reason)
}

/// A person's call, the dismissed memory named first, when one is closer
/// to the candidate than `best` (see [`closer_dismissed`]).
fn dismissed_first(
    all: &[Scored],
    live: &[&Scored],
    best: &Evidence,
    what: &str,
) -> Option<Verdict> {
    let dismissed = closer_dismissed(all, best)?;
    let why = format!(
        "is closer to dismissed `{}` (similarity {:.2}) than to `{}` ({:.2}){what}: \
         a person should decide whether it repeats what was turned down",
        dismissed.target, dismissed.combined, best.target, best.combined
    );
    Some(ambiguous(live, dismissed, why))
}

/// A dismissed memory of a scope the candidate touches that is closer to
/// it than `best`, the memory it would merge into: "Check the wasm build
/// output into git" shares a few words only with the deploy rule, but it is
/// the proposal dismissed before, told again, and a person should see that.
fn closer_dismissed<'a>(all: &'a [Scored], best: &Evidence) -> Option<&'a Evidence> {
    all.iter().map(|s| &s.evidence).find(|e| {
        e.target_status == Status::Dismissed
            && e.scope != ScopeRelation::Disjoint
            && e.combined > best.combined
    })
}

/// Why folding the candidate into the memory it was matched with would
/// make a memory that contradicts itself, if it would.
fn merge_contradicts(scored: &Scored) -> Option<String> {
    let best = &scored.evidence;
    // "The odeint wrapper was removed" folded into the memory that says to
    // integrate with odeint would contradict it.
    if scored.retires_title_word || scored.retires_specific {
        return Some(format!(
            "says that something `{}` names was removed or retired (similarity {:.2}): \
             a person should decide whether it replaces it",
            best.target, best.combined
        ));
    }
    // "The old mlflow.internal.lumio.io redirects until October": what the
    // memory names is the old one now.
    if let Some(name) = &scored.calls_old {
        return Some(format!(
            "calls `{name}`, which `{}` names, the old one (similarity {:.2}): \
             a person should decide whether it replaces it",
            best.target, best.combined
        ));
    }
    // "… doesn't work anymore" about what the target says to use: alike in
    // the words it shares, a replacement in what it says.
    if best.combined < OVERLAP && !best.replacement_wording.is_empty() {
        return Some(format!(
            "shares words with `{}` but says \"{}\" about it (similarity {:.2}): \
             a person should decide whether it replaces it",
            best.target,
            best.replacement_wording.join("\", \""),
            best.combined
        ));
    }
    // "slog" in place of "logrus": folded together, the memory would say
    // to use both.
    if let Some(super::decide::Switch { new, old, .. }) = &scored.switches_tool {
        return Some(format!(
            "names `{new}` where `{}` names `{old}`, which it also mentions (similarity {:.2}): \
             a person should decide whether it replaces it",
            best.target, best.combined
        ));
    }
    // Two addresses for one thing: folded together, the memory would give
    // both.
    if scored.addresses_differ {
        return Some(format!(
            "names an address where `{}` names another (similarity {:.2}): \
             a person should decide whether it replaces it",
            best.target, best.combined
        ));
    }
    // Folding "1%" into "10%" would make a memory that contradicts itself.
    scored.changed.as_ref().map(|c| {
        format!(
            "says {} for \"{}\" where `{}` says {} (similarity {:.2}): \
             a changed value is never merged, a person should decide",
            c.new, c.subject, best.target, c.old, best.combined
        )
    })
}

/// The one memory whose tool the candidate's title names another in place
/// of, mentioning the old one too (see `decide::tools_switch`): "Logging
/// goes through log/slog's JSON handler … depguard flags any logrus import"
/// replaces "Log with logrus using the JSON formatter". Same type, newer,
/// files in common and texts at least `RESTATED` alike; or a title that
/// says the target's word for word but for the tool ("Unit tests run with
/// Vitest" against "Unit tests run with Jest", in one part of the tree) or
/// the place its files are in (see `decide::place_swap`), newer, of the
/// same type or of decision, convention, gotcha and pattern, whether or not
/// the files overlap (`vitest.config.ts` is not `jest.config.ts`).
fn switched<'s>(live: &[&'s Scored]) -> Option<&'s Scored> {
    let mut found = live.iter().filter(|s| match &s.switches_tool {
        Some(switch) if switch.title_swap => (!s.cross_type || s.kin) && s.evidence.newer,
        Some(_) => {
            !s.cross_type
                && s.evidence.newer
                && s.evidence.scope != ScopeRelation::Disjoint
                && s.evidence.combined >= RESTATED
        }
        None => false,
    });
    let first = found.next().copied();
    found.next().is_none().then_some(first).flatten()
}

/// Whether the candidate may be merged into this memory at all: the same
/// type, in a scope that touches the candidate's, or wherever it lives when
/// the candidate elaborates what only it names or names it in an addition
/// ("Adding to the 500 ms IWDG note", "the exception to the no-CPU-limit
/// rule").
fn mergeable(features: &Features, s: &Scored) -> bool {
    (!s.cross_type || s.kin)
        && !s.set_apart
        && (s.evidence.scope != ScopeRelation::Disjoint
            || (features.elaborates && s.specific.len() >= 2)
            || s.added_words >= 2)
}

/// The memory the merge rules look at: the closest, when it passes the
/// lexical gate (`combined ≥ OVERLAP`, the same identity, shared terms in
/// the same scope, or bodies more alike than titles (see [`bodies_alike`])
/// under a title that does not open on another subject, in a scope that
/// is not partly elsewhere, neither a rule for a part it names nor news of
/// something retired); else the one whose claim the candidate repeats; else the
/// one tied to it by words only they share (a rephrasing, or an
/// elaboration).
fn closest_comparable<'s>(
    features: &Features,
    live: &[&'s Scored],
    leader: Option<&'s Scored>,
) -> Option<&'s Scored> {
    let gate = |s: &&&Scored| {
        s.evidence.combined >= OVERLAP
            || s.evidence.same_identity
            || (s.same_topic() && same_scope(s.evidence.scope))
            // The same knowledge told from another side, under a title of
            // its own: not a rule for a part it names (a split), nor news
            // of something retired.
            || (bodies_alike(&s.evidence)
                && !s.opens_apart
                && s.evidence.scope != ScopeRelation::Overlapping
                && !(s.evidence.scope == ScopeRelation::Narrower && s.names_part)
                && !reports_retirement(features))
    };
    let tied = leader.filter(|s| {
        s.evidence.combined >= SPECIFIC_FLOOR
            && ((s.specific.len() >= 4 && words_scope(s) && s.evidence.summary >= SPECIFIC_BODY)
                || (features.elaborates && s.specific.len() >= 2)
                || adds_to(s))
    });
    added(live)
        .or_else(|| live.first().filter(gate).copied())
        .or_else(|| claimed(live))
        .or(tied)
}

/// The memory an additive reference of the candidate names ("Adding to the
/// 500 ms IWDG note"): two or more of its words, more than any other
/// memory's.
fn added<'s>(live: &[&'s Scored]) -> Option<&'s Scored> {
    let best = live.iter().max_by_key(|s| s.added_words).copied()?;
    let unique = live
        .iter()
        .all(|s| s.evidence.target == best.evidence.target || s.added_words < best.added_words);
    (best.added_words >= 2 && unique).then_some(best)
}

/// The memory whose value a newer candidate changes, strongly enough to
/// replace it (see `values.rs`): the same type, a scope that is not disjoint,
/// and the change stated in both titles, or worded as a change ("now",
/// "raised to", or a title that announces a move or replacement: "Device-farm
/// runs moved to a new vendor" changing "Pixel 6" to "Pixel 7") about two
/// words both values are about or in texts at least [`RESTATED`] alike, or
/// stated anew for the same paths without the old value of the same thing
/// (the value as it is now), or for a setting named alike on both sides of
/// files the candidate covers. A candidate older by the clock counts when it
/// names the memory's value as what was. The strongest match wins, then the
/// closest.
fn changed_value<'s>(live: &[&'s Scored], features: &Features) -> Option<&'s Scored> {
    let announced = features.announces_replacement();
    let additive_free = features.additive_wording_free();
    let says_changed = features.says_changed();
    let exception = features.carves_exception();
    live.iter()
        .filter(|s| {
            // A title that opens like the target's and says something else
            // of it ("ADD COLUMN … is cheap since the PG16 upgrade" / "ADD
            // COLUMN with DEFAULT rewrites the table") is about the same
            // thing; one that opens with another subject is not.
            // Across types (a convention's value restated as a trap), only
            // for the same files: "run AccountSyncBatch with scope 50"
            // against "AccountSyncBatch runs with scope 200".
            (!s.cross_type || (s.kin && same_files(s)))
                && s.distinct.as_ref().is_none_or(|d| !d.leading)
                && s.evidence.scope != ScopeRelation::Disjoint
                // A value set otherwise for part of the target's scope, in
                // words of an exception, is the exception, not a new rule.
                && !(exception && s.evidence.scope == ScopeRelation::Narrower)
                // Older by the clock, a candidate that names the memory's
                // value as what was ("(was 2000)") still knows it as past.
                && (s.evidence.newer
                    || s.changed.as_ref().is_some_and(|c| features.names_as_past(&c.old_value)))
                && s.changed.as_ref().is_some_and(|c| {
                    // The same setting of the same files, stated anew, is
                    // the value as it is now ("minSdk = 24 in
                    // android/app/build.gradle" against "minSdkVersion is
                    // 21" there), unless the candidate still states the old
                    // value of what it was about ("WCAG 2.1 AA 1.4.11" still
                    // says WCAG 2.1; "5 attempts gave up too early" only
                    // says why it changed).
                    let old = &c.old_value;
                    let here = match s.evidence.scope {
                        ScopeRelation::Same | ScopeRelation::Narrower => {
                            same_files(s) && s.evidence.combined >= RESTATED
                        }
                        // Said of no files, the texts must be about one
                        // thing, and the value of one setting.
                        ScopeRelation::BothGlobal => {
                            s.evidence.combined >= RELATED && c.strength.1 >= 2
                        }
                        _ => false,
                    };
                    // A setting named as such on both sides (`line-length =
                    // 120` against "line-length 110") is one setting of
                    // files both cover.
                    let named_same = c.new_value.named
                        && !old.subject.is_empty()
                        && old.subject.eq_ignore_ascii_case(&c.new_value.subject)
                        && matches!(
                            s.evidence.scope,
                            ScopeRelation::Same | ScopeRelation::Narrower | ScopeRelation::Broader
                        );
                    let same_setting = (here || named_same)
                        && !features.states_value(old, old.key.len().max(1));
                    // "also" elsewhere adds to the change a title announces
                    // ("timeout raised to 30 s … retries are also off").
                    (additive_free || (c.new_in_title && says_changed))
                        && (c.replaces() || announced || same_setting)
                        && (c.in_titles
                            || s.evidence.combined >= RESTATED
                            // Otherwise the titles must share a word: "Schema
                            // changes lock the table on MySQL 8.0" changes
                            // nothing of "Bulk INSERT with IGNORE blocks
                            // replication", whatever version both summaries
                            // say the database runs.
                            || (s.titles_share
                                && (c.strength.1 >= 2
                                    || (c.new_in_title
                                        && s.evidence.scope == ScopeRelation::Same))))
                })
        })
        .max_by(|a, b| {
            let key = |s: &Scored| s.changed.as_ref().map(|c| c.strength);
            key(a)
                .cmp(&key(b))
                .then(a.evidence.combined.total_cmp(&b.evidence.combined))
                .then(b.evidence.target.cmp(&a.evidence.target))
        })
        .copied()
}

/// The memory the candidate replaces, by name (see [`replaced_by_name`]) or
/// by a changed value (see [`changed_value`]). When the two differ, the
/// value wins if the candidate's title states the new value and the memory
/// holding the old one is the closer: "Dev Postgres moved to host port
/// 55432" replaces "Local Postgres listens on 5433", not "make dev starts
/// the whole stack" (with postgres, redis and mailpit), which the words
/// before "moved to" name as well.
fn replaced<'s>(
    features: &Features,
    named: &[&'s Scored],
    live: &[&'s Scored],
) -> Option<&'s Scored> {
    // One run (the files of one import) replaces nothing of its own.
    let named: Vec<&Scored> = named.iter().copied().filter(|s| !s.same_run).collect();
    let live: Vec<&Scored> = live.iter().copied().filter(|s| !s.same_run).collect();
    let (named, live) = (named.as_slice(), live.as_slice());
    let by_name = replaced_by_name(named);
    // A verbatim copy of a stored memory brings no new value, even when a
    // look-alike states an older one: the copy already says it.
    let verbatim = live
        .iter()
        .any(|s| !s.cross_type && s.evidence.combined >= DUPLICATE && s.changed.is_none());
    let by_value = (!verbatim)
        .then(|| changed_value(named, features))
        .flatten();
    // "The odeint wrapper was removed" with the rest of the target's rule
    // restated around a new tool: replaced, when the texts are close and
    // cover the same files.
    // The first same-type memory a retirement rule holds for.
    let first = |rule: fn(&Scored) -> bool| live.iter().find(|s| !s.cross_type && rule(s)).copied();
    let retired = || {
        first(|s| {
            s.retires_title_word && same_scope(s.evidence.scope) && s.evidence.combined >= RELATED
        })
    };
    // "The Elasticsearch cluster has been decommissioned" against "Product
    // search is served by Elasticsearch": a reported retirement of what
    // only that memory's title names, in texts that say the same.
    let retired_specific = || {
        first(|s| {
            s.retires_specific
                && s.evidence.newer
                && s.evidence.scope != ScopeRelation::Disjoint
                && (s.evidence.combined >= RESTATED || s.specific.len() >= 4)
        })
    };
    // "Trivy gate now fails only on fixable CRITICAL CVEs" against "Trivy
    // scan blocks on HIGH vulnerabilities": a title that says how things
    // stand now, tied to one memory by many words only the two share, in a
    // scope that covers it.
    let now_tied = || {
        features
            .says_now()
            .then(|| specific_leader(live))
            .flatten()
            .filter(|s| {
                !s.cross_type
                    && s.evidence.newer
                    && wide_enough(s.evidence.scope)
                    && s.specific.len() >= 4
                    && s.evidence.combined >= RESTATED
            })
    };
    // "hot-shots was removed" about the same files as the memory that says
    // to emit through hot-shots, when no other memory names it.
    let retired_here = || {
        first(|s| s.retires_own_word && s.evidence.newer && s.evidence.scope == ScopeRelation::Same)
    };
    let by_name = by_name
        .or_else(retired)
        .or_else(retired_specific)
        .or_else(now_tied)
        .or_else(retired_here)
        // Nor does it retire what another memory states: its retirement
        // wording is the copied memory's own ("… the content state file
        // archived with the release"), told when that memory was stored.
        .filter(|s| !verbatim || s.evidence.lineage_link);
    match (by_name, by_value) {
        (Some(n), Some(v))
            if !n.evidence.lineage_link
                && v.changed.as_ref().is_some_and(|c| c.new_in_title)
                && v.evidence.combined > n.evidence.combined =>
        {
            Some(v)
        }
        (Some(n), _) => Some(n),
        (None, v) => v,
    }
}

/// Replacement or move wording about a stored memory, a lineage link, or a
/// replacement clause restating its title: the candidate replaces it. Among
/// several, the one whose words the replacement names most, then the
/// closest.
fn replaced_by_name<'s>(live: &[&'s Scored]) -> Option<&'s Scored> {
    // "We no longer <the memory's title>": replaced, however new the rest is,
    // and although the replacement lives partly elsewhere.
    if let Some(restated) = live.iter().find(|s| {
        !s.cross_type
            && s.restates_title
            && s.evidence.combined >= RESTATED
            && (wide_enough(s.evidence.scope) || s.evidence.scope == ScopeRelation::Overlapping)
    }) {
        return Some(restated);
    }
    // Wording only in the summary ("read it from the primary instead of the
    // replica") must be about the same thing; a title that announces the
    // replacement is. A narrower scope is an exception carved out of the
    // target ("in the admin app, use X instead of Y") and another type
    // another kind of knowledge, unless the wording names the target beyond
    // doubt: the new thing may live anywhere.
    let named = live
        .iter()
        .filter(|s| {
            s.evidence.lineage_link
                || (s.moved_from.is_some() && s.kindred() && s.evidence.combined >= RESTATED)
                // The title's own flag, now left out: named beyond doubt.
                || ((s.drops.is_some() || s.adds_flag.is_some())
                    && s.kindred()
                    && s.evidence.scope != ScopeRelation::Disjoint)
                || (!s.evidence.replacement_wording.is_empty()
                    && ((s.evidence.scope != ScopeRelation::Narrower && s.kindred())
                        || s.named_clearly())
                    && (s.named_in_title
                        || s.named_clearly()
                        || s.evidence.combined >= OVERLAP
                        || s.evidence.same_identity
                        || (s.same_topic() && same_scope(s.evidence.scope))))
        })
        .max_by(|a, b| {
            a.evidence
                .lineage_link
                .cmp(&b.evidence.lineage_link)
                .then(a.names_term.cmp(&b.names_term))
                .then(a.replaced_words.cmp(&b.replaced_words))
                .then(a.evidence.combined.total_cmp(&b.evidence.combined))
                .then(b.evidence.target.cmp(&a.evidence.target))
        })?;
    Some(named)
}

/// The one memory whose claim the candidate repeats (see
/// `subject::repeats`): in one sentence, in a scope the candidate covers and
/// texts at least [`RESTATED`] alike; or across its text, for the same paths
/// or modules and texts at least [`OVERLAP`] alike (words spread over a text
/// say less than one sentence, so the scope must say the rest: "Database
/// migrations must be backward compatible … deploying code before its
/// migration runs …" names every word of "Run database migrations before
/// deploying" and is another rule). None when the claims of several are
/// repeated.
fn claimed<'s>(live: &[&'s Scored]) -> Option<&'s Scored> {
    let mut found = live.iter().filter(|s| {
        let (scope, floor) = (s.evidence.scope, s.evidence.combined);
        match s.repeats_claim {
            Some(Repeat::InSentence) => wide_enough(scope) && floor >= RESTATED,
            Some(Repeat::InText) => scope == ScopeRelation::Same && floor >= OVERLAP,
            None => false,
        }
    });
    let first = found.next().copied();
    found.next().is_none().then_some(first).flatten()
}

/// Words only two memories of two rule types share that tie them, when no
/// memory of the candidate's own type is tied to it (see
/// [`specific_leader`]): more than within one type, since a gotcha and a
/// convention about neighbouring things share a domain's words.
const KIN_SPECIFIC: usize = 6;

/// How alike the bodies of two memories of two rule types tied by the words
/// only they share must be.
const KIN_BODY: f64 = 0.3;

/// The memory that shares the most words with the candidate that no other
/// compared memory has, when it has at least twice as many as any other.
fn specific_leader<'s>(live: &[&'s Scored]) -> Option<&'s Scored> {
    let best = live
        .iter()
        .max_by(|a, b| {
            a.specific
                .len()
                .cmp(&b.specific.len())
                .then(a.evidence.combined.total_cmp(&b.evidence.combined))
                .then(b.evidence.target.cmp(&a.evidence.target))
        })
        .copied()?;
    let runner_up = live
        .iter()
        .filter(|s| s.evidence.target != best.evidence.target)
        .map(|s| s.specific.len())
        .max()
        .unwrap_or(0);
    (best.specific.len() >= 2 && 2 * runner_up <= best.specific.len()).then_some(best)
}

/// Whether the candidate retells the target in a summary alike (see
/// [`Scored::traded`]): it brings fewer than two words beyond those of the
/// target it leaves out.
fn retells(scored: &Scored) -> bool {
    scored.evidence.summary >= RETOLD
        && scored
            .traded
            .is_some_and(|(brings, leaves)| brings < leaves + 2)
}

/// Whether a candidate whose body says what the target's does only tells
/// it at more length: it brings fewer than two words beyond twice those it
/// leaves out.
fn tells_at_length(scored: &Scored) -> bool {
    scored
        .traded
        .is_some_and(|(brings, leaves)| brings < 2 * leaves + 2)
}

/// The merge and split rules, on the chosen comparable memory.
fn merge_or_split(
    features: &Features,
    live: &[&Scored],
    scored: &Scored,
    leader: Option<&Scored>,
) -> Option<Verdict> {
    let best = &scored.evidence;
    let target = vec![best.target.clone()];
    let duplicate = best.combined >= DUPLICATE
        || (best.same_identity && best.summary >= RELATED)
        || (best.combined >= RELATED && same_scope(best.scope))
        || (best.combined >= RELATED
            && best.scope == ScopeRelation::Narrower
            && best.summary >= 0.7);
    if duplicate
        && (!best.adds_information || (retells(scored) && best.additive_wording.is_empty()))
    {
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
    // Names both use tie a rule, not news of a change ("Session data moved
    // server-side into Redis" names the same file as the cookie rule).
    let terms = || {
        (!features.title_compares() && !features.title_reports_change())
            .then(|| same_terms(live, scored))
            .flatten()
    };
    if let Some(verdict) = claim_update(live, scored).or_else(terms) {
        return Some(verdict);
    }
    // The leader is of the candidate's type (see `classify`): across types
    // (`Scored::kin`) only what the texts say alike merges.
    let leads = leader.is_some_and(|l| l.evidence.target == best.target);
    if ((features.elaborates && !scored.tools_apart) || adds_to(scored))
        && leads
        && scored.specific.len() >= 2
        && !scored.own_title_unmet
    {
        return Some(tied(scored, true));
    }
    if splits(scored) {
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
    // is not one (a title repeated whole is a repeated claim, see
    // `claim_update`).
    if (best.combined >= RELATED || best.same_identity)
        && best.summary >= OVERLAP
        && additive
        && !runner_up_close
        && !features.title_compares()
    {
        return Some((
            Relation::AdditiveUpdate,
            Decision::Merge,
            target,
            best.combined,
            format!(
                "adds to `{}` (similarity {:.2}): merge into it",
                best.target, best.combined
            ),
        ));
    }
    // The same knowledge in other words: many words only these two share
    // (for a candidate that passed no lexical gate).
    if leads && retold(features, scored) {
        return Some(tied(scored, false));
    }
    // The same knowledge told from another side (see `bodies_alike`).
    // A title that announces a change ("… renamed to …") may replace the
    // target: that is for a person to tell, not a merge.
    if bodies_alike(best)
        // Across types (one rule told as a trap and as a convention), only
        // when the candidate sets itself against nothing the target's
        // title names.
        && (!scored.cross_type || (scored.kin && !scored.turns_down_title))
        && !features.announces_replacement()
        && !features.title_reports_change()
        && !features.title_compares()
        && !runner_up_close
        && !scored.tools_apart
    {
        // Alike bodies that only trade words tell the same.
        let (relation, what) =
            if additive && (!tells_at_length(scored) || !best.additive_wording.is_empty()) {
                (Relation::AdditiveUpdate, "adds to")
            } else {
                (Relation::Duplicate, "repeats")
            };
        return Some((
            relation,
            Decision::Merge,
            target,
            best.combined,
            format!(
                "{what} `{}`: the bodies say the same (summary {:.2}, title {:.2}): merge into it",
                best.target, best.summary, best.title
            ),
        ));
    }
    None
}

/// Whether the candidate is a rule for part of the target's scope: a
/// narrower scope, not made of entries the target lists, whose part its
/// text names (see `Scored::names_part`), in texts at least `RELATED` alike.
fn splits(scored: &Scored) -> bool {
    let best = &scored.evidence;
    best.scope == ScopeRelation::Narrower
        && best.combined >= RELATED
        && !scored.listed_in_target
        && scored.names_part
}

/// Whether the candidate tells the knowledge of the memory it leads by
/// words only they share in other words: many such words, and nothing
/// that sets the two apart (two tools of one kind, a thing in code or a
/// subject the other never names, a change the title reports, or a
/// retirement the text reports: "… no longer has deploy permissions").
fn retold(features: &Features, scored: &Scored) -> bool {
    let best = &scored.evidence;
    !scored.tools_apart
        && !scored.title_name_unsaid
        && !scored.title_unmet
        && !features.title_reports_change()
        // "… no longer has deploy permissions": words alike and a change
        // reported are for a person to weigh.
        && !reports_retirement(features)
        && !features.title_compares()
        && scored.specific.len() >= 4
        && (best.combined < OVERLAP
            || (scored.specific.len() >= MANY_SPECIFIC
                && !(scored.shape_apart
                    || scored.titles_polarity_apart
                    || scored.opposite.is_some())))
        && words_scope(scored)
        && best.combined >= SPECIFIC_FLOOR
        && best.summary >= SPECIFIC_BODY
}

/// Whether the candidate reports something retired ("no longer", "no
/// more", "was removed", "has been decommissioned").
fn reports_retirement(features: &Features) -> bool {
    features.replacements().iter().any(|r| {
        matches!(r.phrase, "no longer" | "no more")
            || super::replacement::reports_retirement(r.phrase)
    })
}

/// An exception carved out of one rule for part of its scope, in words of
/// an exception ("Exception: the audit mirror keeps
/// `enable.auto.commit=true` … every other consumer still commits after
/// processing"), setting otherwise the value that rule states: it belongs
/// with that rule. Never when two rules' values are changed.
fn exception_to(features: &Features, live: &[&Scored]) -> Option<Verdict> {
    if !features.carves_exception() {
        return None;
    }
    let mut changed = live.iter().filter(|s| {
        s.changed.is_some() && s.evidence.scope == ScopeRelation::Narrower && !s.cross_type
    });
    let rule = changed.next()?;
    if changed.next().is_some() {
        return None;
    }
    let best = &rule.evidence;
    Some((
        Relation::AdditiveUpdate,
        Decision::Merge,
        vec![best.target.clone()],
        best.combined.max(0.5),
        format!(
            "an exception to `{}` for part of its scope (similarity {:.2}): merge into it",
            best.target, best.combined
        ),
    ))
}

/// A scope in which words only two memories share make them one: one the
/// candidate covers whole, or a narrower one when the bodies are more alike
/// than the titles (by [`BODY_OVER_TITLE`]) and one of the first two words
/// of the candidate's title that can tell things apart is one the target
/// uses (see `Scored::opens_apart`). A rule for part of a memory's scope
/// names that part first ("Webhook handlers validate the body with zod after
/// the signature check" under "Validate request bodies with zod", "The CLI
/// prints user-facing output with console.log" under "Log with the shared
/// pino logger"); the same knowledge retold for the files it is about says
/// the body again under another title about the same thing ("Triggers are
/// thin dispatchers" under "One trigger per object, logic in handler
/// classes").
fn words_scope(s: &Scored) -> bool {
    let e = &s.evidence;
    // Bodies alike in many words only these two share outweigh a title
    // that opens elsewhere ("Big meshes crash in threaded regions unless
    // worker stacks are enlarged" retelling "OMP_STACKSIZE must be raised
    // for the implicit solver").
    let retold = bodies_alike(e) && s.specific.len() >= MANY_SPECIFIC;
    wide_enough(e.scope)
        // Some of the files the target lists, as written: no part carved out.
        || s.listed_in_target
        || (e.scope == ScopeRelation::Overlapping
            && s.specific.len() >= MANY_SPECIFIC
            && !s.opens_apart)
        || (e.scope == ScopeRelation::Narrower
            && (!s.opens_apart || (retold && !s.opens_with_name))
            && e.summary >= e.title + BODY_OVER_TITLE)
}

/// The candidate says it adds ("also", "on top of") to a memory it shares
/// two or more words with that no other compared memory has, in texts at
/// least [`RESTATED`] alike and scopes that touch; not a look-alike (tools
/// of one kind, titles of one shape naming different things, or titles
/// that open with the same two words and go on differently: "CI fails on
/// any Ruff warning" / "CI fails on type errors in test files"), nor a rule
/// for part of the scope that opens with something the memory never names.
fn adds_to(s: &Scored) -> bool {
    let narrower_part = s.opens_apart && s.evidence.scope == ScopeRelation::Narrower;
    !s.evidence.additive_wording.is_empty()
        && !s.tools_apart
        && !s.shape_apart
        && !s.same_opening
        && !narrower_part
        && s.specific.len() >= 2
        && s.evidence.combined >= RESTATED
        && s.evidence.scope != ScopeRelation::Disjoint
}

/// Bodies more alike than the titles: the same knowledge told from another
/// side ("Prod terraform only via Atlantis" / "Never terraform apply against
/// prod from a laptop"). A look-alike is the other way round: it keeps the
/// title's shape and says something else in its body.
fn bodies_alike(e: &Evidence) -> bool {
    e.summary >= BODY_ALIKE && e.summary >= e.title + BODY_OVER_TITLE
}

/// A merge into the target of a candidate worded differently but naming the
/// same identifiers and amounts (see [`Scored::same_topic`]), below
/// `RELATED`, when no other memory does.
fn same_terms(live: &[&Scored], scored: &Scored) -> Option<Verdict> {
    let best = &scored.evidence;
    let target = vec![best.target.clone()];
    let rival = live
        .iter()
        .any(|s| s.evidence.target != best.target && s.same_topic());
    // Identifiers both name make one rule of two of one type; across types
    // they are often a rule and the helpers it is about ("make `odie`
    // messages actionable" / "output helpers: `ohai`, `opoo`, `odie`").
    if scored.same_topic()
        && !scored.cross_type
        && (same_scope(best.scope)
            || best.scope == ScopeRelation::Broader
            || (best.scope == ScopeRelation::Narrower && scored.shared.len() >= 2))
        && best.combined < RELATED
        && !rival
    {
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
    None
}

/// A merge into the target when the candidate names it in an additive
/// reference (see [`added`]), or repeats its claim and no other memory's
/// (see [`claimed`]): an update of that memory, or a duplicate when it adds
/// nothing.
fn claim_update(live: &[&Scored], scored: &Scored) -> Option<Verdict> {
    let best = &scored.evidence;
    if added(live).is_some_and(|a| a.evidence.target == best.target) {
        return Some((
            Relation::AdditiveUpdate,
            Decision::Merge,
            vec![best.target.clone()],
            best.combined.max(0.5),
            format!(
                "adds to `{}` and names it (similarity {:.2}): merge into it",
                best.target, best.combined
            ),
        ));
    }
    claimed(live).filter(|c| c.evidence.target == best.target)?;
    let (relation, what) =
        if (best.adds_information && !retells(scored)) || !best.additive_wording.is_empty() {
            (Relation::AdditiveUpdate, "adds to")
        } else {
            (Relation::Duplicate, "repeats")
        };
    Some((
        relation,
        Decision::Merge,
        vec![best.target.clone()],
        best.combined.max(0.5),
        format!(
            "{what} `{}`: it repeats its claim (similarity {:.2}): merge into it",
            best.target, best.combined
        ),
    ))
}

/// A merge into the memory only which shares these words with the
/// candidate: an elaboration of it ("Why …", "also applies to …"), or the
/// same knowledge in other words.
fn tied(scored: &Scored, elaborates: bool) -> Verdict {
    let best = &scored.evidence;
    let (relation, what) = if elaborates {
        (Relation::AdditiveUpdate, "elaborates")
    } else if best.additive_wording.is_empty() {
        (Relation::Duplicate, "says in other words what")
    } else {
        (Relation::AdditiveUpdate, "adds in other words to what")
    };
    let says = if elaborates { "" } else { " says" };
    (
        relation,
        Decision::Merge,
        vec![best.target.clone()],
        best.combined.max(0.5),
        format!(
            "{what} `{}`{says} (similarity {:.2}; only it shares {}): merge into it",
            best.target,
            best.combined,
            scored.specific.join(", ")
        ),
    )
}

/// Overlap without a clear relation: accepted, never merged automatically.
fn ambiguous(live: &[&Scored], best: &Evidence, reason: String) -> Verdict {
    let mut targets: Vec<_> = live
        .iter()
        .filter(|s| s.evidence.combined >= OVERLAP || s.same_topic())
        .map(|s| s.evidence.target.clone())
        .collect();
    if !targets.contains(&best.target) {
        targets.insert(0, best.target.clone());
    }
    targets.truncate(3);
    (
        Relation::AmbiguousOverlap,
        Decision::Accept,
        targets,
        round(1.0 - best.combined),
        reason,
    )
}
