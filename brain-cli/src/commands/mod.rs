//! One module per command; dispatch is one line per command.

use clap::Subcommand;

use crate::context::Context;
use crate::error::{CliError, ExitStatus};
use crate::output::Output;

mod add;
mod approve;
pub(crate) mod capture;
mod check;
mod completions;
mod conversation_start;
mod diff;
mod dismiss;
mod edit;
mod export;
mod extract;
mod extract_commit;
mod failure;
mod hook;
mod import;
mod index;
mod init;
pub(crate) mod inject;
mod lint;
mod list;
mod mcp;
mod merge_driver;
mod normalize;
mod preference;
mod promote_candidates;
mod reinforce;
mod review;
pub(crate) mod route;
mod routing_feedback;
pub(crate) mod search;
mod session;
mod setup;
pub(crate) mod show;
mod stats;
mod status;
mod suggest_extract;
mod supersede;
mod sweep;

/// The commands.
#[derive(Subcommand, Debug)]
pub(crate) enum Command {
    Init(init::InitArgs),
    Add(add::AddArgs),
    List(list::ListArgs),
    Show(show::ShowArgs),
    Stats(stats::StatsArgs),
    Status(status::StatusArgs),
    Sweep(sweep::SweepArgs),
    Lint(lint::LintArgs),
    Check(check::CheckArgs),
    Normalize(normalize::NormalizeArgs),
    Review(review::ReviewArgs),
    Approve(approve::ApproveArgs),
    Edit(edit::EditArgs),
    PromoteCandidates(promote_candidates::PromoteCandidatesArgs),
    Supersede(supersede::SupersedeArgs),
    Dismiss(dismiss::DismissArgs),
    Preference(preference::PreferenceArgs),
    Import(import::ImportArgs),
    Index(index::IndexArgs),
    Capture(capture::CaptureArgs),
    Inject(inject::InjectArgs),
    Search(search::SearchArgs),
    Extract(extract::ExtractArgs),
    ExtractCommit(extract_commit::ExtractCommitArgs),
    SuggestExtract(suggest_extract::SuggestExtractArgs),
    ConversationStart(conversation_start::ConversationStartArgs),
    #[command(visible_alias = "start")]
    Route(route::RouteArgs),
    SuggestSkills(route::SuggestSkillsArgs),
    RoutingFeedback(routing_feedback::RoutingFeedbackArgs),
    Reinforce(reinforce::ReinforceArgs),
    Failure(failure::FailureArgs),
    Diff(diff::DiffArgs),
    Session(session::SessionArgs),
    Mcp(mcp::McpArgs),
    Hook(hook::HookArgs),
    Setup(setup::SetupArgs),
    Export(export::ExportArgs),
    MergeDriver(merge_driver::MergeDriverArgs),
    Completions(completions::CompletionsArgs),
}

impl Command {
    /// Whether this is `brain check`, the one command with more formats.
    pub(crate) fn is_check(&self) -> bool {
        matches!(self, Command::Check(_))
    }
}

pub(crate) fn dispatch(
    ctx: &Context,
    command: &Command,
    out: &mut Output<'_>,
) -> Result<ExitStatus, CliError> {
    match command {
        Command::Init(args) => init::run(ctx, args, out),
        Command::Add(args) => add::run(ctx, args, out),
        Command::List(args) => list::run(ctx, args, out),
        Command::Show(args) => show::run(ctx, args, out),
        Command::Stats(args) => stats::run(ctx, args, out),
        Command::Lint(args) => lint::run(ctx, args, out),
        Command::Check(args) => check::run(ctx, args, out),
        Command::Normalize(args) => normalize::run(ctx, args, out),
        Command::Review(args) => review::run(ctx, args, out),
        Command::Approve(args) => approve::run(ctx, args, out),
        Command::Edit(args) => edit::run(ctx, args, out),
        Command::PromoteCandidates(args) => promote_candidates::run(ctx, args, out),
        Command::Supersede(args) => supersede::run(ctx, args, out),
        Command::Dismiss(args) => dismiss::run(ctx, args, out),
        Command::Preference(args) => preference::run(ctx, args, out),
        Command::Import(args) => import::run(ctx, args, out),
        Command::Index(args) => index::run(ctx, args, out),
        Command::Capture(args) => capture::run(ctx, args, out),
        Command::Inject(args) => inject::run(ctx, args, out),
        Command::Search(args) => search::run(ctx, args, out),
        Command::Extract(args) => extract::run(ctx, args, out),
        Command::ExtractCommit(args) => extract_commit::run(ctx, args, out),
        Command::SuggestExtract(args) => suggest_extract::run(ctx, args, out),
        Command::ConversationStart(args) => conversation_start::run(ctx, args, out),
        Command::Route(args) => route::run(ctx, args, out),
        Command::SuggestSkills(args) => route::run_suggest(ctx, args, out),
        Command::RoutingFeedback(args) => routing_feedback::run(ctx, args, out),
        Command::Reinforce(args) => reinforce::run(ctx, args, out),
        Command::Failure(args) => failure::run(ctx, args, out),
        Command::Diff(args) => diff::run(ctx, args, out),
        Command::Session(args) => session::run(ctx, args, out),
        Command::Mcp(args) => mcp::run(ctx, args, out),
        Command::Hook(args) => hook::run(ctx, args, out),
        Command::Setup(args) => setup::run(ctx, args, out),
        Command::Export(args) => export::run(ctx, args, out),
        Command::MergeDriver(args) => merge_driver::run(ctx, args, out),
        Command::Status(args) => status::run(ctx, args, out),
        Command::Sweep(args) => sweep::run(ctx, args, out),
        Command::Completions(args) => completions::run(ctx, args, out),
    }
}

/// Opens the store and prints its config warnings.
pub(crate) fn open(ctx: &Context, out: &mut Output<'_>) -> Result<brain_core::Brain, CliError> {
    let brain = brain_core::Brain::open(ctx.root())?;
    for w in brain.store().config_warnings() {
        out.warn(w)?;
    }
    Ok(brain)
}

/// Loads the catalog and warns about skipped files and cache trouble.
pub(crate) fn load(
    brain: &brain_core::Brain,
    out: &mut Output<'_>,
) -> Result<brain_core::store::Catalog, CliError> {
    let catalog = brain.catalog();
    for w in &catalog.warnings {
        out.warn(w)?;
    }
    out.warn_skipped(&catalog.problems)?;
    Ok(catalog)
}

/// Warns about every secret a write redacted; the value is never shown.
pub(crate) fn warn_redactions(
    out: &mut Output<'_>,
    redactions: &[brain_core::secrets::Redaction],
) -> Result<(), CliError> {
    for r in redactions {
        out.warn(format_args!(
            "redacted {} in {} of {}",
            r.kind, r.field, r.id
        ))?;
    }
    Ok(())
}

/// Most changed paths a task is ranked against; the rest are counted.
const MAX_TASK_PATHS: usize = 200;

/// The paths a task touches, relative to the root: `--path` when given
/// (absolute, `./`-prefixed, from a subdirectory or with `\\` separators
/// alike; a relative path given from outside the root, with `-C`, is read
/// from the root; a path outside the root is a warning and left out), else the
/// working tree's changes against HEAD (read with gix) without the store's
/// own files, at most [`MAX_TASK_PATHS`]; else none. Returns the paths,
/// where they came from and how many were left out.
fn task_paths(
    ctx: &Context,
    explicit: &[String],
    out: &mut Output<'_>,
) -> Result<(Vec<String>, brain_core::inject::PathSource, usize), CliError> {
    use brain_core::inject::PathSource;
    let root = ctx
        .root()
        .canonicalize()
        .unwrap_or_else(|_| ctx.root().to_path_buf());
    let root_str = root.to_string_lossy();
    // Run from outside the root (`-C DIR` from elsewhere), a relative path
    // that does not lead into the root is read from the root, as `git -C`
    // reads it.
    let outside = !ctx.cwd().starts_with(&root);
    if !explicit.is_empty() {
        let mut paths: Vec<String> = Vec::new();
        for p in explicit {
            // A path that exists is resolved through symlinks, as the root is.
            let resolve = |base: &std::path::Path| {
                let given = base
                    .join(p)
                    .canonicalize()
                    .ok()
                    .map_or_else(|| p.clone(), |d| d.to_string_lossy().into_owned());
                brain_core::matching::repo_relative(&given, &root_str, &base.to_string_lossy())
            };
            let relative = resolve(ctx.cwd()).or_else(|| outside.then(|| resolve(&root)).flatten());
            match relative {
                Some(rel) if !paths.contains(&rel) => paths.push(rel),
                Some(_) => {}
                None => out.warn(format_args!(
                    "--path {p}: outside the repository at {}; left out",
                    root.display()
                ))?,
            }
        }
        let source = if paths.is_empty() {
            PathSource::None
        } else {
            PathSource::Explicit
        };
        return Ok((paths, source, 0));
    }
    match brain_core::store::git::changed_paths(ctx.root()) {
        Ok(paths) => {
            // Git names paths from the work tree; the root may be below it.
            let workdir = gix::discover(ctx.root())
                .ok()
                .and_then(|r| r.workdir().map(std::path::Path::to_path_buf))
                .and_then(|w| w.canonicalize().ok())
                .unwrap_or_else(|| root.clone());
            let workdir = workdir.to_string_lossy();
            let store = format!("{}/", brain_core::store::BRAIN_DIR);
            let mut paths: Vec<String> = paths
                .into_iter()
                .filter_map(|p| {
                    let abs = format!("{}/{p}", workdir.trim_end_matches('/'));
                    brain_core::matching::repo_relative(&abs, &root_str, &root_str)
                })
                .filter(|p| !p.starts_with(&store) && p != brain_core::store::BRAIN_DIR)
                .collect();
            let omitted = paths.len().saturating_sub(MAX_TASK_PATHS);
            paths.truncate(MAX_TASK_PATHS);
            let source = if paths.is_empty() {
                PathSource::None
            } else {
                PathSource::GitDiff
            };
            Ok((paths, source, omitted))
        }
        Err(e) => {
            out.warn(format_args!("cannot read the working tree's changes: {e}"))?;
            Ok((Vec::new(), PathSource::None, 0))
        }
    }
}

/// Most memories a read command embeds through a remote provider before it
/// gives up on embeddings for this run.
const MAX_EMBED_ON_READ: usize = 64;

/// Loads the store's retrieval index with the postings of `terms`, and
/// warns about skipped files and cache trouble.
fn load_index(
    brain: &brain_core::Brain,
    terms: &[String],
    out: &mut Output<'_>,
) -> Result<brain_core::store::StoreIndex, CliError> {
    let mut index = brain.store().load_index();
    for w in &index.warnings {
        out.warn(w)?;
    }
    out.warn_skipped(&index.problems)?;
    index.load_terms(terms)?;
    Ok(index)
}

/// The session profile, if one is set.
fn session_policy(
    brain: &brain_core::Brain,
) -> Result<Option<brain_core::route::SessionPolicy>, CliError> {
    Ok(brain.session_profile()?)
}

/// Embedding similarities for ranking: each memory's cosine to the query,
/// from the cache (embedding what is missing). Any provider failure degrades
/// to lexical ranking with a warning, never a failed command.
struct Vectors {
    /// Cosine of the query and each of `index.docs`, aligned with them.
    similarities: Option<Vec<Option<f64>>>,
    query: Option<Vec<f32>>,
    used: brain_core::inject::EmbeddingUse,
}

impl Vectors {
    /// No vectors, and why.
    fn none(reason: String) -> Vectors {
        Vectors {
            similarities: None,
            query: None,
            used: brain_core::inject::EmbeddingUse {
                provider: None,
                fallback_reason: Some(reason),
            },
        }
    }
}

/// The query's vector and the similarities of `pool` (positions in
/// `index.docs`) to it. Warm, the vector cache is streamed once and never
/// held in memory; when some memory has no cached vector, the cache is
/// loaded, the missing ones embedded (within [`MAX_EMBED_ON_READ`] for a
/// remote provider) and the cache saved.
#[allow(
    clippy::too_many_lines,
    reason = "the fast path, then the embedding path, with every fallback"
)]
fn vectors_for(
    ctx: &Context,
    brain: &brain_core::Brain,
    index: &brain_core::inject::index::Index,
    pool: &[usize],
    query: Option<&str>,
    out: &mut Output<'_>,
) -> Result<Vectors, CliError> {
    use brain_core::embed;
    use brain_core::inject::rank::cosine;
    let Some(query) = query.filter(|q| !q.trim().is_empty()) else {
        return Ok(Vectors::none("no task to embed".to_owned()));
    };
    let store = brain.store();
    let config = &store.config().embedding;
    let embedder = match crate::embedder::from_config(ctx, config) {
        Ok(e) => e,
        Err(e) => {
            let reason = e.chain().join(": ");
            out.warn(format_args!(
                "embeddings unavailable ({reason}); ranking by words only"
            ))?;
            return Ok(Vectors::none(reason));
        }
    };
    let id = embedder.id();
    // An in-process provider embeds the query for free; a remote one is only
    // asked once it is clear the read will not give up on embeddings.
    let local = matches!(id.provider.as_str(), "hash" | "local-static");
    let embed_query = |out: &mut Output<'_>| -> Result<Result<Vec<f32>, Vectors>, CliError> {
        match embedder.embed(&[query]) {
            Ok(mut v) if v.first().is_some_and(|q| !q.is_empty()) => Ok(Ok(v.swap_remove(0))),
            Ok(_) => Ok(Err(Vectors::none(
                "the provider returned no vector".to_owned(),
            ))),
            Err(err) => {
                out.warn(format_args!(
                    "embedding provider failed ({err}); ranking by words only"
                ))?;
                Ok(Err(Vectors::none(err.to_string())))
            }
        }
    };
    let used = brain_core::inject::EmbeddingUse {
        provider: Some(id.key()),
        fallback_reason: None,
    };
    let mut query_vector = None;
    if local {
        let q = match embed_query(out)? {
            Ok(q) => q,
            Err(none) => return Ok(none),
        };
        // Fast path: stream the cache, keeping only the cosines.
        let mut wanted: std::collections::HashMap<embed::ContentHash, Vec<usize>> =
            std::collections::HashMap::with_capacity(pool.len());
        for &i in pool {
            wanted.entry(index.docs[i].text_hash).or_default().push(i);
        }
        let mut sims: Vec<Option<f64>> = vec![None; index.docs.len()];
        let mut found = 0usize;
        let scanned = store.scan_vectors(&id, &mut |hash, vector, _| {
            if let Some(docs) = wanted.get(hash) {
                let c = cosine(&q, vector);
                for &d in docs {
                    sims[d] = Some(c);
                }
                found += 1;
            }
        });
        if scanned == Ok(true) && found == wanted.len() {
            return Ok(Vectors {
                similarities: Some(sims),
                query: Some(q),
                used,
            });
        }
        query_vector = Some(q);
    }
    // Some memory has no cached vector (or the cache is unusable): load it,
    // embed what is missing, save it.
    let (mut cache, warnings) = store.load_vectors(&id);
    for w in warnings {
        out.warn(w)?;
    }
    let mut seen = std::collections::HashSet::new();
    let missing: Vec<usize> = pool
        .iter()
        .copied()
        .filter(|&i| {
            let hash = &index.docs[i].text_hash;
            cache.get(hash).is_none() && seen.insert(*hash)
        })
        .collect();
    // A remote provider embeds a whole store slowly: a read command only
    // fills small gaps and otherwise asks for `brain index`.
    if !local && missing.len() > MAX_EMBED_ON_READ {
        let reason = format!(
            "{} memories have no cached vectors; run `brain index` to embed them",
            missing.len()
        );
        out.warn(format_args!("{reason}; ranking by words only"))?;
        return Ok(Vectors::none(reason));
    }
    let mut fetched = Vec::with_capacity(missing.len());
    for &i in &missing {
        match store.read_memory(&index.docs[i].path) {
            Ok(m) => fetched.push(m),
            Err(p) => out.warn(format_args!("cannot embed `{}`: {}", p.path, p.message))?,
        }
    }
    let refs: Vec<&brain_core::model::Memory> = fetched.iter().collect();
    let batch = usize::try_from(config.batch_size.max(1)).unwrap_or(usize::MAX);
    let outcome =
        embed::embed_memories(&refs, embedder.as_ref(), &mut cache, batch, &mut |_, _| {});
    if cache.is_changed() {
        // The cache is a derived file under runtime/: losing a write only costs time.
        if let Err(e) = store.save_vectors(&cache) {
            out.warn(format_args!("could not save the vector cache: {e}"))?;
        }
    }
    if let Err(err) = outcome {
        out.warn(format_args!(
            "embedding provider failed ({err}); ranking by words only"
        ))?;
        return Ok(Vectors::none(err.to_string()));
    }
    let q = match query_vector {
        Some(q) => q,
        None => match embed_query(out)? {
            Ok(q) => q,
            Err(none) => return Ok(none),
        },
    };
    let sims = (0..index.docs.len())
        .map(|i| cache.get(&index.docs[i].text_hash).map(|v| cosine(&q, v)))
        .collect();
    Ok(Vectors {
        similarities: Some(sims),
        query: Some(q),
        used,
    })
}
