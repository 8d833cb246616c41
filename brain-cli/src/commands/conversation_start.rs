//! `brain conversation-start`: what context an agent's turn needs.

use brain_core::session::{ContextVectors, RefreshMode, StartRequest};

use crate::context::Context;
use crate::error::{CliError, ExitStatus};
use crate::output::Output;

/// Decide whether a conversation turn needs context, and print it
///
/// Called by an agent adapter at the start of each turn. Compares the
/// request with the last context load in `.brain/runtime/activity.jsonl`
/// and decides `start` (the full bundle, `summary` layer), `inject` (a
/// compact refresh, `index` layer) or `skip` (nothing: the last load still
/// holds). Rules, checked in order, the first that fires deciding: --force
/// → start; mode always → start; no earlier load → start; last load older
/// than 4 h (task-change) or 24 h (smart) → start; another task (word
/// Jaccard below 0.5) → inject; a new path or module → inject; in smart
/// mode, memories added, promoted, changed, superseded or expired since the
/// last load → inject; else skip.
///
/// Every rule checked is shown with its result. Each turn is recorded in the
/// activity log (git-ignored); no tracked file changes.
#[derive(clap::Args, Debug)]
pub(crate) struct ConversationStartArgs {
    /// What the agent is about to do
    #[arg(long, allow_hyphen_values = true)]
    task: Option<String>,
    /// A path the task touches (repeatable) [default: changes against HEAD]
    #[arg(long = "path", value_name = "PATH")]
    paths: Vec<String>,
    /// A module the task touches (repeatable)
    #[arg(long = "module", value_name = "NAME")]
    modules: Vec<String>,
    /// When to bring context again
    #[arg(long, value_enum, default_value = "smart")]
    refresh_mode: ModeArg,
    /// Always start with the full bundle
    #[arg(long)]
    force: bool,
}

#[derive(Clone, Copy, Debug, clap::ValueEnum)]
enum ModeArg {
    /// Every turn gets the full bundle
    Always,
    /// Full bundle after 4 h; a refresh when the task, paths or modules change
    TaskChange,
    /// Like task-change, plus a refresh when memories changed; full bundle
    /// after 24 h
    Smart,
}

pub(crate) fn run(
    ctx: &Context,
    args: &ConversationStartArgs,
    out: &mut Output<'_>,
) -> Result<ExitStatus, CliError> {
    let brain = super::open(ctx, out)?;
    let catalog = super::load(&brain, out)?;
    let (paths, path_source, paths_omitted) = super::task_paths(ctx, &args.paths, out)?;
    let request = StartRequest {
        task: args.task.as_deref(),
        paths: &paths,
        path_source,
        paths_omitted,
        modules: &args.modules,
        mode: match args.refresh_mode {
            ModeArg::Always => RefreshMode::Always,
            ModeArg::TaskChange => RefreshMode::TaskChange,
            ModeArg::Smart => RefreshMode::Smart,
        },
        force: args.force,
        budget: brain.store().config().inject.budget_tokens as usize,
    };
    let (plan, warnings) = brain.plan_conversation(&catalog, &request, ctx.now());
    for w in warnings {
        out.warn(w)?;
    }
    let terms = brain_core::inject::rank::query_terms(args.task.as_deref(), &paths);
    let store_index = super::load_index(&brain, &terms, out)?;
    let index = &store_index.index;
    let vectors = if plan.decision == brain_core::session::Decision::Skip {
        None
    } else {
        let pool: Vec<usize> = (0..index.docs.len())
            .filter(|&i| index.docs[i].in_pool(ctx.now()))
            .collect();
        Some(super::vectors_for(
            ctx,
            &brain,
            index,
            &pool,
            args.task.as_deref(),
            out,
        )?)
    };
    let context_vectors =
        vectors
            .as_ref()
            .map_or_else(ContextVectors::default, |v| ContextVectors {
                memories: v.similarities.as_deref(),
                query: v.query.as_deref(),
                used: v.used.clone(),
            });
    let (report, warning) =
        brain.conversation_start(index, &request, plan, ctx.now(), &context_vectors);
    if let Some(w) = warning {
        out.warn(w)?;
    }
    out.emit(&report)?;
    Ok(ExitStatus::Success)
}
