//! `brain route` (alias `brain start`) and `brain suggest-skills`: the
//! invocation plan for a task, with or without the context block.

use brain_core::inject::{Layer, Request};
use brain_core::route::{Policy, RouteReport};

use crate::error::{CliError, ExitStatus};
use crate::output::Output;

/// Plan which skills to run for a task, and print the context it needs
///
/// Called by agent adapters at the start of a task (`brain route --format
/// json`). Reads the memories relevant to the task (the ranking of `brain
/// inject`) or whose routing triggers fire, the active preferences and the
/// session profile, and resolves every skill they name into one slot —
/// `required`, `prefer_first`, `optional_fallback`, `suppress`, `blocked` or
/// `human_review` — by strict layer priority (see docs/routing.md): a lower
/// layer never overrides a higher one. Conflicts are reported with both
/// sides' evidence; `display_mode` is `needs-review` when anything is
/// blocked or waits for a human. `plan_id` identifies the inputs, for
/// `brain routing-feedback`.
///
/// The JSON output follows `schemas/route.schema.json` (`contract_version`
/// 1): memories by id and relative path, never their bodies. The context
/// block is the one `brain inject` prints; the load is recorded in
/// `.brain/runtime/activity.jsonl` and no tracked file changes.
#[derive(clap::Args, Debug)]
pub(crate) struct RouteArgs {
    /// What the agent is about to do
    #[arg(long, allow_hyphen_values = true)]
    task: Option<String>,
    /// A path the task touches (repeatable) [default: changes against HEAD]
    #[arg(long = "path", value_name = "PATH")]
    paths: Vec<String>,
    /// A module the task touches (repeatable)
    #[arg(long = "module", value_name = "NAME")]
    modules: Vec<String>,
    /// Token budget of the context block [default: `inject.budget_tokens` in
    /// the config, 1200]
    #[arg(long, value_name = "TOKENS")]
    budget: Option<usize>,
}

/// Plan which skills to run for a task, without the context block
///
/// The plan of `brain route`, without the context block and without
/// recording a context load: `required`, `prefer_first`,
/// `optional_fallback`, `suppress`, `blocked` and `human_review` skills,
/// each with the layer that decided it and why.
#[derive(clap::Args, Debug)]
pub(crate) struct SuggestSkillsArgs {
    /// What the agent is about to do
    #[arg(long, allow_hyphen_values = true)]
    task: Option<String>,
    /// A path the task touches (repeatable) [default: changes against HEAD]
    #[arg(long = "path", value_name = "PATH")]
    paths: Vec<String>,
    /// A module the task touches (repeatable)
    #[arg(long = "module", value_name = "NAME")]
    modules: Vec<String>,
}

#[derive(Debug, thiserror::Error)]
#[error("a budget of {0} tokens cannot hold the block's markers; give at least {min}", min = brain_core::inject::MIN_BUDGET)]
struct BudgetTooSmall(usize);

pub(crate) fn run(
    ctx: &crate::context::Context,
    args: &RouteArgs,
    out: &mut Output<'_>,
) -> Result<ExitStatus, CliError> {
    plan(
        ctx,
        args.task.as_deref(),
        &args.paths,
        &args.modules,
        Context::Block(args.budget),
        out,
    )
}

pub(crate) fn run_suggest(
    ctx: &crate::context::Context,
    args: &SuggestSkillsArgs,
    out: &mut Output<'_>,
) -> Result<ExitStatus, CliError> {
    plan(
        ctx,
        args.task.as_deref(),
        &args.paths,
        &args.modules,
        Context::PlanOnly,
        out,
    )
}

/// Whether the plan comes with the context block.
#[derive(Clone, Copy, Debug)]
enum Context {
    /// `route`: with the block, at this budget (else the config's).
    Block(Option<usize>),
    /// `suggest-skills`: the plan alone.
    PlanOnly,
}

fn plan(
    ctx: &crate::context::Context,
    task: Option<&str>,
    explicit_paths: &[String],
    modules: &[String],
    context: Context,
    out: &mut Output<'_>,
) -> Result<ExitStatus, CliError> {
    let report = plan_report(ctx, task, explicit_paths, modules, context, out)?;
    out.emit(&report)?;
    Ok(ExitStatus::Success)
}

/// The plan of `brain route` with its context block (at `budget` tokens,
/// else the config's), warnings on `out`; shared with the MCP tool
/// `brain_route`.
pub(crate) fn report(
    ctx: &crate::context::Context,
    task: Option<&str>,
    paths: &[String],
    modules: &[String],
    budget: Option<usize>,
    out: &mut Output<'_>,
) -> Result<RouteReport, CliError> {
    plan_report(ctx, task, paths, modules, Context::Block(budget), out)
}

fn plan_report(
    ctx: &crate::context::Context,
    task: Option<&str>,
    explicit_paths: &[String],
    modules: &[String],
    context: Context,
    out: &mut Output<'_>,
) -> Result<RouteReport, CliError> {
    let brain = super::open(ctx, out)?;
    let budget = match context {
        Context::Block(b) => {
            Some(b.unwrap_or(brain.store().config().inject.budget_tokens as usize))
        }
        Context::PlanOnly => None,
    };
    if let Some(b) = budget
        && b < brain_core::inject::MIN_BUDGET
    {
        return Err(CliError::user(BudgetTooSmall(b)));
    }
    let (paths, path_source, paths_omitted) = super::task_paths(ctx, explicit_paths, out)?;
    let terms = brain_core::inject::rank::query_terms(task, &paths);
    let store_index = super::load_index(&brain, &terms, out)?;
    let index = &store_index.index;
    let preferences = store_index
        .preferences
        .clone()
        .unwrap_or_else(|| brain.store().read_preferences());
    let session = super::session_policy(&brain)?;
    let pool: Vec<usize> = (0..index.docs.len())
        .filter(|&i| index.docs[i].in_pool(ctx.now()))
        .collect();
    let vectors = super::vectors_for(ctx, &brain, index, &pool, task, out)?;
    let request = Request {
        task,
        paths: &paths,
        path_source,
        paths_omitted,
        modules,
        ids: &[],
        layer: Layer::Summary,
        budget: budget.unwrap_or(usize::MAX),
        embedding: vectors.query.as_deref(),
        tuning: brain.store().config().inject.tuning(),
    };
    let (report, warning) = brain.route(
        index,
        &request,
        Policy {
            preferences: &preferences,
            session: session.as_ref(),
        },
        ctx.now(),
        vectors.similarities.as_deref(),
        vectors.used.clone(),
        budget.is_some(),
    );
    if let Some(w) = warning {
        out.warn(w)?;
    }
    Ok(report)
}
