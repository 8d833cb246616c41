//! `brain inject`: the memories a task needs, as a Markdown block.

use brain_core::inject::{InjectReport, Layer, Request};
use brain_core::model::MemoryId;

use crate::context::Context;
use crate::error::{CliError, ExitStatus};
use crate::output::Output;

/// Print the memories relevant to a task, within a token budget
///
/// Ranks the eligible memories (active, not replaced, not pending review,
/// in their validity window, not expired) against the task, the paths and
/// the modules, and packs the best ones, greedily, into a Markdown block that
/// never exceeds the budget. With a task, memories below the relevance
/// threshold are left out, so the block may hold none (it says so). A memory
/// that repeats one already picked is left out too. Paths come from `--path`,
/// else from the working tree's changes against HEAD.
///
/// `--format json` adds every score component and the near-misses (memories
/// left out by the threshold, the budget or as near-duplicates). The load is
/// recorded in `.brain/runtime/activity.jsonl`; no tracked file changes.
#[derive(clap::Args, Debug)]
pub(crate) struct InjectArgs {
    /// What the agent is about to do
    #[arg(long, allow_hyphen_values = true)]
    task: Option<String>,
    /// A path the task touches (repeatable) [default: changes against HEAD]
    #[arg(long = "path", value_name = "PATH")]
    paths: Vec<String>,
    /// A module the task touches (repeatable)
    #[arg(long = "module", value_name = "NAME")]
    modules: Vec<String>,
    /// Include these memories whatever their score (repeatable)
    #[arg(long = "ids", value_name = "ID", value_delimiter = ',')]
    ids: Vec<String>,
    /// How much of each memory to show
    #[arg(long, value_enum, default_value = "summary")]
    layer: LayerArg,
    /// Token budget of the whole block [default: `inject.budget_tokens` in
    /// the config, 1200]
    #[arg(long, value_name = "TOKENS")]
    budget: Option<usize>,
    /// Show every score component after the block
    #[arg(long)]
    explain: bool,
}

#[derive(Debug, thiserror::Error)]
#[error("a budget of {0} tokens cannot hold the block's markers; give at least {min}", min = brain_core::inject::MIN_BUDGET)]
struct BudgetTooSmall(usize);

#[derive(Clone, Copy, Debug, clap::ValueEnum)]
enum LayerArg {
    /// Title and id
    Index,
    /// Plus summary and scope
    Summary,
    /// Plus detail
    Full,
}

/// What a context block is asked for: `brain inject`'s arguments, shared with
/// the MCP tool `brain_context`.
#[derive(Debug)]
pub(crate) struct Query<'a> {
    pub(crate) task: Option<&'a str>,
    pub(crate) paths: &'a [String],
    pub(crate) modules: &'a [String],
    pub(crate) ids: &'a [String],
    pub(crate) layer: Layer,
    pub(crate) budget: Option<usize>,
}

pub(crate) fn run(
    ctx: &Context,
    args: &InjectArgs,
    out: &mut Output<'_>,
) -> Result<ExitStatus, CliError> {
    let query = Query {
        task: args.task.as_deref(),
        paths: &args.paths,
        modules: &args.modules,
        ids: &args.ids,
        layer: match args.layer {
            LayerArg::Index => Layer::Index,
            LayerArg::Summary => Layer::Summary,
            LayerArg::Full => Layer::Full,
        },
        budget: args.budget,
    };
    let report = report(ctx, &query, out)?;
    out.emit(&crate::output::Explained {
        report: &report,
        explain: args.explain,
    })?;
    Ok(ExitStatus::Success)
}

/// Builds the context block for `query`, with warnings on `out`.
pub(crate) fn report(
    ctx: &Context,
    query: &Query<'_>,
    out: &mut Output<'_>,
) -> Result<InjectReport, CliError> {
    let brain = super::open(ctx, out)?;
    let (paths, path_source, paths_omitted) = super::task_paths(ctx, query.paths, out)?;
    let terms = brain_core::inject::rank::query_terms(query.task, &paths);
    let store_index = super::load_index(&brain, &terms, out)?;
    let index = &store_index.index;
    let ids = query
        .ids
        .iter()
        .map(|q| {
            brain_core::report::find_id(index.docs.iter().map(|d| &d.id), q)
                .map(|i| index.docs[i].id.clone())
        })
        .collect::<Result<Vec<MemoryId>, _>>()?;
    let budget = query
        .budget
        .unwrap_or(brain.store().config().inject.budget_tokens as usize);
    if budget < brain_core::inject::MIN_BUDGET {
        return Err(CliError::user(BudgetTooSmall(budget)));
    }
    let pool: Vec<usize> = (0..index.docs.len())
        .filter(|&i| index.docs[i].in_pool(ctx.now()))
        .collect();
    let vectors = super::vectors_for(ctx, &brain, index, &pool, query.task, out)?;
    let request = Request {
        task: query.task,
        paths: &paths,
        path_source,
        paths_omitted,
        modules: query.modules,
        ids: &ids,
        layer: query.layer,
        budget,
        embedding: vectors.query.as_deref(),
        tuning: brain.store().config().inject.tuning(),
    };
    let (report, warning) = brain.inject(
        index,
        &request,
        ctx.now(),
        vectors.similarities.as_deref(),
        vectors.used.clone(),
    );
    if let Some(w) = warning {
        out.warn(w)?;
    }
    Ok(report)
}
