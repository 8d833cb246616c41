//! `brain search`: hybrid lexical and semantic search.

use brain_core::inject::EmbeddingUse;
use brain_core::model::{MemoryType, Status};
use brain_core::search::{self, Mode, Request, SearchReport};

use crate::context::Context;
use crate::error::{CliError, ExitStatus};
use crate::output::Output;

/// Search memories by words and meaning
///
/// Ranks by BM25 over title, tags, summary, scope and detail (whole words,
/// light stemming: `refunds` finds `refund`, `api` never finds `rapid`) and by
/// embedding similarity, fused by reciprocal rank fusion. Only memories an
/// agent would be shown (active, in force, not pending review) are searched
/// unless `--status` or `--all` says otherwise. Each hit has a snippet with
/// the matched words in bold.
#[derive(clap::Args, Debug)]
pub(crate) struct SearchArgs {
    /// What to look for
    query: String,
    /// Only this type (repeatable)
    #[arg(long = "type", short = 't', value_name = "TYPE")]
    types: Vec<MemoryType>,
    /// Only memories with this tag (repeatable: all must match)
    #[arg(long = "tag", value_name = "TAG")]
    tags: Vec<String>,
    /// Only this status (repeatable) [default: eligible memories]
    #[arg(long = "status", short = 's', value_name = "STATUS")]
    statuses: Vec<Status>,
    /// Every status
    #[arg(long, conflicts_with = "statuses")]
    all: bool,
    /// Most hits
    #[arg(long, default_value_t = 10)]
    limit: usize,
    /// Rank by words only
    #[arg(long, conflicts_with = "semantic_only")]
    lexical_only: bool,
    /// Rank by embeddings only
    #[arg(long)]
    semantic_only: bool,
}

pub(crate) fn run(
    ctx: &Context,
    args: &SearchArgs,
    out: &mut Output<'_>,
) -> Result<ExitStatus, CliError> {
    let mode = if args.lexical_only {
        Mode::Lexical
    } else if args.semantic_only {
        Mode::Semantic
    } else {
        Mode::Hybrid
    };
    let request = Request {
        query: &args.query,
        types: &args.types,
        tags: &args.tags,
        statuses: &args.statuses,
        all: args.all,
        limit: args.limit,
        mode,
        embedding: None,
    };
    let report = report(ctx, &request, out)?;
    out.emit(&report)?;
    Ok(ExitStatus::Success)
}

/// Runs the search `request` asks for (its `embedding` is filled in here),
/// warnings on `out`; shared with the MCP tool `brain_search`.
pub(crate) fn report(
    ctx: &Context,
    request: &Request<'_>,
    out: &mut Output<'_>,
) -> Result<SearchReport, CliError> {
    let brain = super::open(ctx, out)?;
    let terms = brain_core::inject::rank::query_terms(Some(request.query), &[]);
    let store_index = super::load_index(&brain, &terms, out)?;
    let index = &store_index.index;
    let mode = request.mode;
    let vectors = if mode == Mode::Lexical {
        super::Vectors::none(String::new())
    } else {
        let pool: Vec<usize> = (0..index.docs.len()).collect();
        super::vectors_for(ctx, &brain, index, &pool, Some(request.query), out)?
    };
    let used = if mode == Mode::Lexical {
        EmbeddingUse::default()
    } else {
        vectors.used.clone()
    };
    let request = Request {
        embedding: vectors.query.as_deref(),
        ..request.clone()
    };
    Ok(search::search_in(
        index,
        &request,
        ctx.now(),
        vectors.similarities.as_deref(),
        used,
        &mut |i| brain.store().read_memory(&index.docs[i].path).ok(),
    ))
}
