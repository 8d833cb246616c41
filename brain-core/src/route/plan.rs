//! The routing engine's output: the invocation plan and its evidence.
//!
//! Every type here is part of the `brain route --format json` contract, so
//! field names are `snake_case`, lists have a defined order, and a source names
//! records only by id, relative path and title (never an absolute path, never
//! a memory's body).

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::Serialize;

use crate::model::{Confidence, Importance, InvocationMode, Risk, TargetType};

/// The seven routing layers, highest priority first.
///
/// The layer of a skill's highest source decides its slot; no number of
/// sources in lower layers can change that (see `docs/routing.md`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Layer {
    /// 1: a matched memory's `suppressed_skills`.
    Suppressed,
    /// 2: a matched memory's `required_skills`.
    Required,
    /// 3: the session profile's `prefer_skills`, `avoid_skills`, `review_skills`.
    Session,
    /// 4: active `avoid` and `require_review` preferences.
    NegativePreference,
    /// 5: active `prefer` preferences.
    PositivePreference,
    /// 6: `recommended_skills` of memories whose `invocation_mode` is `required` or `prefer`.
    Recommended,
    /// 7: `recommended_skills` of memories whose `invocation_mode` is `optional`.
    Optional,
}

impl Layer {
    /// Every layer, highest priority first.
    pub const ALL: [Layer; 7] = [
        Layer::Suppressed,
        Layer::Required,
        Layer::Session,
        Layer::NegativePreference,
        Layer::PositivePreference,
        Layer::Recommended,
        Layer::Optional,
    ];

    /// Returns the layer's number, 1 (highest priority) to 7.
    pub fn rank(self) -> u8 {
        match self {
            Layer::Suppressed => 1,
            Layer::Required => 2,
            Layer::Session => 3,
            Layer::NegativePreference => 4,
            Layer::PositivePreference => 5,
            Layer::Recommended => 6,
            Layer::Optional => 7,
        }
    }

    /// Returns the word used in JSON output.
    pub fn as_str(self) -> &'static str {
        match self {
            Layer::Suppressed => "suppressed",
            Layer::Required => "required",
            Layer::Session => "session",
            Layer::NegativePreference => "negative_preference",
            Layer::PositivePreference => "positive_preference",
            Layer::Recommended => "recommended",
            Layer::Optional => "optional",
        }
    }
}

/// What one source asks for a skill.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Claim {
    /// Must not run (a memory's `suppressed_skills`).
    Suppress,
    /// Must run (a memory's `required_skills`).
    Require,
    /// Should not run (an `avoid` preference, the session's `avoid_skills`).
    Avoid,
    /// Only after a human agrees (a `require_review` preference, the session's `review_skills`).
    Review,
    /// Should run first (a `prefer` preference, the session's `prefer_skills`, a
    /// recommendation of a `required` or `prefer` memory).
    Prefer,
    /// May run (a recommendation of an `optional` memory).
    Optional,
}

impl Claim {
    /// Returns the word used in JSON output.
    pub fn as_str(self) -> &'static str {
        match self {
            Claim::Suppress => "suppress",
            Claim::Require => "require",
            Claim::Avoid => "avoid",
            Claim::Review => "review",
            Claim::Prefer => "prefer",
            Claim::Optional => "optional",
        }
    }

    /// The slot this claim puts a skill in when it decides alone.
    pub fn natural_slot(self) -> Slot {
        match self {
            Claim::Suppress | Claim::Avoid => Slot::Suppress,
            Claim::Require => Slot::Required,
            Claim::Review => Slot::HumanReview,
            Claim::Prefer => Slot::PreferFirst,
            Claim::Optional => Slot::OptionalFallback,
        }
    }
}

/// Where a skill ends up in the plan. A skill is in exactly one slot.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Slot {
    /// Must run.
    Required,
    /// Must not run, although a memory requires it: a high-risk or critical
    /// memory suppresses it.
    Blocked,
    /// Run only after a human agrees.
    HumanReview,
    /// Run first.
    PreferFirst,
    /// May run when nothing better applies.
    OptionalFallback,
    /// Do not run.
    Suppress,
}

/// What a slot means for the skill: it runs, it does not, or a person decides.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum SlotFamily {
    /// `required`, `prefer_first`, `optional_fallback`.
    Run,
    /// `suppress`, `blocked`.
    Stop,
    /// `human_review`.
    Ask,
}

impl Slot {
    /// Returns whether the skill runs, does not, or waits for a person.
    pub fn family(self) -> SlotFamily {
        match self {
            Slot::Required | Slot::PreferFirst | Slot::OptionalFallback => SlotFamily::Run,
            Slot::Suppress | Slot::Blocked => SlotFamily::Stop,
            Slot::HumanReview => SlotFamily::Ask,
        }
    }

    /// Returns the word used in JSON output.
    pub fn as_str(self) -> &'static str {
        match self {
            Slot::Required => "required",
            Slot::Blocked => "blocked",
            Slot::HumanReview => "human_review",
            Slot::PreferFirst => "prefer_first",
            Slot::OptionalFallback => "optional_fallback",
            Slot::Suppress => "suppress",
        }
    }
}

/// What kind of record a source is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum SourceKind {
    /// A matched memory.
    Memory,
    /// A routing preference.
    Preference,
    /// The session profile.
    Session,
}

/// One record's claim on a skill, with the evidence for it.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
pub struct Source {
    /// The layer the claim belongs to.
    pub layer: Layer,
    /// What it asks.
    pub claim: Claim,
    /// Memory, preference or session profile.
    pub kind: SourceKind,
    /// The memory or preference id; `session` for the session profile.
    pub id: String,
    /// A memory's path relative to the repository root.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    /// A memory's title.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// A memory's risk.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub risk: Option<Risk>,
    /// A memory's importance.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub importance: Option<Importance>,
    /// A memory's invocation mode.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub invocation_mode: Option<InvocationMode>,
    /// A preference's target type.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target_type: Option<TargetType>,
    /// A preference's confidence.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub confidence: Option<Confidence>,
    /// Why the record applies to this task: the caller's match reasons and
    /// the trigger or hint that fired (``trigger path `src/ledger/**` matches
    /// `src/ledger/post.ts` ``), `global (no hints)`, or the session profile's
    /// list (`prefer_skills`). Left out for a memory in `brain route`'s
    /// compact plan: `matched_memories` has its reasons.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub matched_by: Vec<String>,
}

impl Source {
    /// Returns a short reference: `memory:<id>`, `preference:<id>` or
    /// `session:<list>`.
    pub fn reference(&self) -> String {
        match self.kind {
            SourceKind::Memory => format!("memory:{}", self.id),
            SourceKind::Preference => format!("preference:{}", self.id),
            SourceKind::Session => match self.matched_by.first() {
                Some(list) => format!("session:{list}"),
                None => "session".to_owned(),
            },
        }
    }
}

/// A compact pointer to a source, used in the explanation.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
pub struct SourceRef {
    /// The source's layer.
    pub layer: Layer,
    /// What it asks.
    pub claim: Claim,
    /// `memory:<id>`, `preference:<id>` or `session:<list>`.
    pub source: String,
}

impl From<&Source> for SourceRef {
    fn from(s: &Source) -> SourceRef {
        SourceRef {
            layer: s.layer,
            claim: s.claim,
            source: s.reference(),
        }
    }
}

/// A skill and the slot the engine put it in.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
pub struct ResolvedSkill {
    /// The normalised skill, workflow or task-class name.
    pub skill: String,
    /// Its slot.
    pub slot: Slot,
    /// The layer that decided the slot.
    pub deciding_layer: Layer,
    /// The sources that named the skill, highest layer first; within a
    /// layer in tie-break order (the deciding source first). `brain route`
    /// shows the first few ([`MAX_EVIDENCE`]) and counts the rest.
    pub sources: Vec<Source>,
    /// Sources not listed in `sources`.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub sources_omitted: usize,
}

/// Most sources `brain route` lists per skill, per list (the rest are
/// counted): the plan stays small however many memories agree.
pub const MAX_EVIDENCE: usize = 2;

/// Most sources a conflict lists per side, and a skill's explanation per
/// list (`decided_by`, `overridden`, `agreeing`): the strongest, in
/// tie-break order; the rest are counted. `resolved_skills` lists up to
/// [`MAX_EVIDENCE`].
pub const MAX_CONFLICT_EVIDENCE: usize = 1;

#[allow(clippy::trivially_copy_pass_by_ref, reason = "serde's signature")]
pub(crate) fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// Which two claims met on a skill.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ConflictKind {
    /// A memory requires it, another (or the same) suppresses it.
    RequiredVsSuppressed,
    /// A memory requires it, an avoid preference or the session avoids it.
    RequiredVsAvoided,
    /// A memory requires it, a preference or the session asks for review.
    RequiredVsReview,
    /// Something prefers or recommends it, a memory suppresses it.
    PreferredVsSuppressed,
    /// Something prefers or recommends it, something avoids it.
    PreferredVsAvoided,
    /// Something prefers or recommends it, something asks for review.
    PreferredVsReview,
    /// A memory suppresses it, something asks for review.
    SuppressedVsReview,
    /// Something avoids it, something asks for review.
    AvoidedVsReview,
}

/// The documented rule that resolved a conflict.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ConflictRule {
    /// Required vs suppressed, and a suppressing memory is high-risk or
    /// critical: the skill is blocked.
    SuppressionBlocksRequired,
    /// Required vs suppressed, and no suppressing memory is high-risk or
    /// critical: a human decides.
    SuppressionSendsRequiredToReview,
    /// The higher layer decides, however many sources the lower one has.
    HigherLayerWins,
    /// Within one layer: review before avoid before prefer.
    CautionWithinLayer,
}

/// Two claims that disagree about one skill, and how that was resolved.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
pub struct Conflict {
    /// The skill.
    pub skill: String,
    /// Which claims met.
    pub kind: ConflictKind,
    /// The rule that resolved it.
    pub rule: ConflictRule,
    /// The slot the skill ended up in.
    pub resolution: Slot,
    /// The side that decided, with its evidence.
    pub deciding: Vec<Source>,
    /// The side that lost (or, for a required skill, was escalated), with its
    /// evidence.
    pub overridden: Vec<Source>,
    /// Sources not listed in `deciding` or `overridden`.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub omitted: usize,
}

/// The plan: skill names by slot, each list sorted and free of duplicates.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, JsonSchema)]
pub struct InvocationPlan {
    /// Must run.
    pub required: Vec<String>,
    /// Run first.
    pub prefer_first: Vec<String>,
    /// May run when nothing better applies.
    pub optional_fallback: Vec<String>,
    /// Do not run.
    pub suppress: Vec<String>,
    /// Must not run although required.
    pub blocked: Vec<String>,
    /// Run only after a human agrees.
    pub human_review: Vec<String>,
}

impl InvocationPlan {
    /// Returns the list of one slot.
    pub fn slot(&self, slot: Slot) -> &[String] {
        match slot {
            Slot::Required => &self.required,
            Slot::Blocked => &self.blocked,
            Slot::HumanReview => &self.human_review,
            Slot::PreferFirst => &self.prefer_first,
            Slot::OptionalFallback => &self.optional_fallback,
            Slot::Suppress => &self.suppress,
        }
    }

    pub(crate) fn slot_mut(&mut self, slot: Slot) -> &mut Vec<String> {
        match slot {
            Slot::Required => &mut self.required,
            Slot::Blocked => &mut self.blocked,
            Slot::HumanReview => &mut self.human_review,
            Slot::PreferFirst => &mut self.prefer_first,
            Slot::OptionalFallback => &mut self.optional_fallback,
            Slot::Suppress => &mut self.suppress,
        }
    }
}

/// Whether a person should look at the plan before the agent follows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum DisplayMode {
    /// Nothing is blocked or waiting for review.
    SilentOk,
    /// Something is blocked, needs human review, or a required skill is suppressed.
    NeedsReview,
}

/// Why one skill is in its slot.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
pub struct SkillExplanation {
    /// The slot.
    pub slot: Slot,
    /// The layer that decided.
    pub deciding_layer: Layer,
    /// One sentence: the layer, the deciding sources and the rule.
    pub why: String,
    /// The sources that decided, in tie-break order.
    pub decided_by: Vec<SourceRef>,
    /// Other sources whose claim goes the other way (their skill would run
    /// where it is stopped, be stopped where it runs, or skip the human
    /// review), in priority order.
    pub overridden: Vec<SourceRef>,
    /// Other sources that go the same way (run, stop, or ask a human), in
    /// priority order; a `prefer` on a required skill agrees.
    pub agreeing: Vec<SourceRef>,
    /// Sources not listed in `decided_by`, `overridden` or `agreeing`.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub omitted: usize,
}

impl RoutePlan {
    /// Keeps the first [`MAX_EVIDENCE`] sources of every list and counts the
    /// rest, so the plan's size does not grow with the store, and leaves
    /// out what a memory source repeats of the report's matched memories
    /// (path, title, match reasons): it is named by id. The slots, layers,
    /// rules and `plan_id` are unchanged.
    pub fn compact(&mut self) {
        fn cap_at(list: &mut Vec<Source>, max: usize) -> usize {
            let extra = list.len().saturating_sub(max);
            list.truncate(max);
            for s in list.iter_mut().filter(|s| s.kind == SourceKind::Memory) {
                s.path = None;
                s.title = None;
                s.matched_by.clear();
            }
            extra
        }
        fn cap_refs(list: &mut Vec<SourceRef>) -> usize {
            let extra = list.len().saturating_sub(MAX_CONFLICT_EVIDENCE);
            list.truncate(MAX_CONFLICT_EVIDENCE);
            extra
        }
        for r in &mut self.resolved_skills {
            r.sources_omitted += cap_at(&mut r.sources, MAX_EVIDENCE);
        }
        for e in self.routing_explanation.values_mut() {
            e.omitted += cap_refs(&mut e.decided_by)
                + cap_refs(&mut e.overridden)
                + cap_refs(&mut e.agreeing);
        }
        for c in &mut self.conflicts {
            c.omitted += cap_at(&mut c.deciding, MAX_CONFLICT_EVIDENCE)
                + cap_at(&mut c.overridden, MAX_CONFLICT_EVIDENCE);
        }
    }
}

/// The engine's answer for one task.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
pub struct RoutePlan {
    /// A short stable hash of the inputs routing read (see `docs/routing.md`).
    pub plan_id: String,
    /// `needs-review` when anything is blocked or needs human review.
    pub display_mode: DisplayMode,
    /// Skill names by slot.
    pub invocation_plan: InvocationPlan,
    /// Every skill with its slot, deciding layer and sources; ordered by slot
    /// (required, blocked, human review, prefer first, optional fallback,
    /// suppress), then name.
    pub resolved_skills: Vec<ResolvedSkill>,
    /// Disagreements between sources, ordered by skill, then kind.
    pub conflicts: Vec<Conflict>,
    /// Per skill: which layer decided, why, and what it overrode.
    pub routing_explanation: BTreeMap<String, SkillExplanation>,
    /// Things worth telling the user, lowercase, in skill order.
    pub warnings: Vec<String>,
}
