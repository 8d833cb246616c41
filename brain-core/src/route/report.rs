//! `brain route` (alias `brain start`) and `brain suggest-skills`: the
//! invocation plan for a task, and with `route` the context block.
//!
//! The memories routing reads are the eligible memories that name a skill
//! and either have a trigger (`trigger_paths`, `trigger_tasks`) that fires
//! on the task, or have no trigger and are relevant to the task (the same
//! ranking and threshold as `inject`). The report carries their
//! ids, relative paths, titles and the reasons they matched, never their
//! bodies or an absolute path.

use std::collections::HashMap;

use jiff::Timestamp;
use schemars::JsonSchema;
use serde::Serialize;

use super::input::{Task, routing_triggers};
use super::{MatchedMemory, RouteContext, RoutePlan, SessionPolicy};
use crate::inject::index::Index;
use crate::inject::{self, BLOCK_VERSION, EmbeddingUse, Layer, PathSource, Request};
use crate::model::{Memory, MemoryId, Preference};

/// Version of the `route` JSON contract; raised on any incompatible change.
pub const CONTRACT_VERSION: u32 = 1;

/// Most matched memories listed besides those the plan cites.
pub const MAX_MATCHED: usize = 5;

/// A memory routing read.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
pub struct MatchedRef {
    /// Its id.
    pub id: MemoryId,
    /// Its file, relative to the repository root.
    pub path: String,
    /// Its title.
    pub title: String,
    /// Why it matched the task.
    pub reasons: Vec<String>,
}

/// The context block of `brain route`.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
pub struct RouteContextBlock {
    /// Version of the block format.
    pub version: u32,
    /// Layer shown.
    pub layer: Layer,
    /// The budget, in tokens.
    pub budget_tokens: usize,
    /// Tokens the block costs.
    pub used_tokens: usize,
    /// Memories in the block, in block order.
    pub memory_ids: Vec<MemoryId>,
    /// Embedding provider used, or why none was.
    pub embedding: EmbeddingUse,
    /// The Markdown block.
    pub block: String,
}

/// `brain route`'s and `brain suggest-skills`' report.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
pub struct RouteReport {
    /// Version of this contract.
    pub contract_version: u32,
    /// The task.
    pub task: Option<String>,
    /// Paths routed against, relative to the repository root.
    pub paths: Vec<String>,
    /// Where the paths came from.
    pub path_source: PathSource,
    /// Changed paths left out of `paths` (more changed than are routed
    /// against).
    #[serde(default, skip_serializing_if = "super::plan::is_zero")]
    pub paths_omitted: usize,
    /// Memories whose routing was read, best match first: those the plan
    /// cites, and the best others up to [`MAX_MATCHED`].
    pub matched_memories: Vec<MatchedRef>,
    /// Memories whose routing was read but are not listed.
    #[serde(default, skip_serializing_if = "super::plan::is_zero")]
    pub matched_memories_omitted: usize,
    /// The plan: `plan_id`, `display_mode`, `invocation_plan`,
    /// `resolved_skills`, `conflicts`, `routing_explanation`, `warnings`.
    #[serde(flatten)]
    pub plan: RoutePlan,
    /// The context block (absent from `suggest-skills`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub context: Option<RouteContextBlock>,
}

/// What routing reads besides the task.
#[derive(Clone, Copy, Debug)]
pub struct Policy<'a> {
    /// Every preference of the store (the engine picks the eligible ones).
    pub preferences: &'a [Preference],
    /// The session profile, if one is set.
    pub session: Option<&'a SessionPolicy>,
}

impl crate::Brain {
    /// Routes `request` against the store's index. With `with_context`, the
    /// context block is packed too and the load recorded in
    /// `.brain/runtime/activity.jsonl` (a log that cannot be written is
    /// returned as a warning). `index.postings` must hold the task's terms.
    #[allow(
        clippy::too_many_lines,
        clippy::too_many_arguments,
        reason = "rank, match, route, pack: one pass each, over every input of a plan"
    )]
    pub fn route(
        &self,
        index: &Index,
        request: &Request<'_>,
        policy: Policy<'_>,
        now: Timestamp,
        similarities: Option<&[Option<f64>]>,
        embedding: EmbeddingUse,
        with_context: bool,
    ) -> (RouteReport, Option<String>) {
        let entries = crate::activity::parse(
            &self
                .store()
                .read_runtime_tail(crate::activity::LOG, crate::activity::TAIL_BYTES)
                .unwrap_or_default(),
        );
        let usage = crate::activity::usage(&entries);
        let ranked = inject::rank_request(index, request, now, similarities, &usage);
        let task = Task::new(request.task, request.paths);
        let threshold = request.tuning.threshold(request.task);
        let mut fetched: HashMap<usize, Memory> = HashMap::new();
        let mut matched: Vec<(usize, Vec<String>, Vec<String>)> = Vec::new();
        for s in &ranked {
            if !s.doc.routes() {
                continue;
            }
            // A memory with triggers routes when one fires; one without
            // routes when it is relevant to the task.
            let has_triggers =
                !(s.doc.routing.trigger_paths.is_empty() && s.doc.routing.trigger_tasks.is_empty());
            let relevant = s.components.relevance >= threshold;
            let fired = if has_triggers {
                routing_triggers(&s.doc.routing, &task).unwrap_or_default()
            } else {
                Vec::new()
            };
            if fired.is_empty() && (has_triggers || !relevant) {
                continue;
            }
            let mut reasons = Vec::new();
            if relevant {
                let mut why = format!("relevant to the task ({:.2}", s.components.relevance);
                if !s.matched_terms.is_empty() {
                    why.push_str("; words: ");
                    why.push_str(&s.matched_terms.join(", "));
                }
                if s.components.path > 0.0 {
                    why.push_str("; scope matches a path");
                }
                why.push(')');
                reasons.push(why);
            }
            // The engine adds the triggers that fired to a source's reasons.
            let shown_triggers = fired;
            // Routing reads only what the index holds: no file is parsed.
            fetched.insert(s.position, s.doc.light_memory());
            matched.push((s.position, reasons, shown_triggers));
        }
        let matched_memories: Vec<MatchedMemory<'_>> = matched
            .iter()
            .filter_map(|(position, reasons, _)| {
                fetched.get(position).map(|m| MatchedMemory {
                    memory: m,
                    path: index.docs[*position].path.as_str(),
                    reasons: reasons.clone(),
                })
            })
            .collect();
        let preferences: Vec<&Preference> = policy.preferences.iter().collect();
        let mut plan = super::route(&RouteContext {
            task: request.task,
            paths: request.paths,
            memories: &matched_memories,
            preferences: &preferences,
            session: policy.session,
            now,
        });
        plan.compact();
        let cited: std::collections::HashSet<&str> = plan
            .resolved_skills
            .iter()
            .flat_map(|r| &r.sources)
            .filter(|s| s.kind == super::SourceKind::Memory)
            .map(|s| s.id.as_str())
            .collect();
        let mut others = 0;
        let shown: Vec<&MatchedMemory<'_>> = matched_memories
            .iter()
            .filter(|mm| {
                let keep = cited.contains(mm.memory.id.as_str()) || others < MAX_MATCHED;
                if keep && !cited.contains(mm.memory.id.as_str()) {
                    others += 1;
                }
                keep
            })
            .collect();
        let matched_memories_omitted = matched_memories.len() - shown.len();
        let triggers: HashMap<&str, &Vec<String>> = matched
            .iter()
            .map(|(position, _, fired)| (index.docs[*position].id.as_str(), fired))
            .collect();
        let matched_refs: Vec<MatchedRef> = shown
            .iter()
            .map(|mm| MatchedRef {
                id: mm.memory.id.clone(),
                path: mm.path.to_owned(),
                title: mm.memory.title.clone(),
                reasons: mm
                    .reasons
                    .iter()
                    .chain(
                        triggers
                            .get(mm.memory.id.as_str())
                            .copied()
                            .into_iter()
                            .flatten(),
                    )
                    .cloned()
                    .collect(),
            })
            .collect();
        let mut warning = None;
        let context = if with_context {
            let selection = inject::pack(index, ranked, request, now, &mut |i| {
                self.store().read_memory(&index.docs[i].path).ok()
            });
            let entry = crate::activity::Entry {
                at: now,
                command: "route".to_owned(),
                task: request.task.map(str::to_owned),
                paths: request.paths.to_vec(),
                modules: request.modules.to_vec(),
                ids: selection.selected.iter().map(|s| s.id.clone()).collect(),
            };
            warning = self
                .store()
                .append_runtime_log(crate::activity::LOG, &entry.to_line())
                .err()
                .map(|e| format!("could not record the context load: {e}"));
            Some(RouteContextBlock {
                version: BLOCK_VERSION,
                layer: request.layer,
                budget_tokens: request.budget,
                used_tokens: selection.used_tokens,
                memory_ids: selection.selected.into_iter().map(|s| s.id).collect(),
                embedding,
                block: selection.block,
            })
        } else {
            None
        };
        (
            RouteReport {
                contract_version: CONTRACT_VERSION,
                task: request.task.map(str::to_owned),
                paths: request.paths.to_vec(),
                path_source: request.path_source,
                paths_omitted: request.paths_omitted,
                matched_memories: matched_refs,
                matched_memories_omitted,
                plan,
                context,
            },
            warning,
        )
    }
}
