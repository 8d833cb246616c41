//! `brain index`: embed every memory into the vector cache.

use std::io::IsTerminal as _;
use std::time::Instant;

use brain_core::embed::{self, IndexReport, VectorCache};
use brain_core::model::{Memory, Status};

use crate::context::Context;
use crate::error::{CliError, ExitStatus};
use crate::output::Output;

/// Embed every memory into the vector cache
///
/// Computes a vector for every memory that is not dismissed with the provider
/// set under `embedding:` in `.brain/config.yaml`, and keeps it in
/// `.brain/runtime/vectors/<provider>-<model>-<dimensions>.bin` (git-ignored),
/// keyed by the hash of the embedded text. Only texts without a cached vector
/// are sent to the provider; vectors of texts no memory has any more are
/// dropped. Another provider, model or dimension uses another cache file.
#[derive(clap::Args, Debug)]
pub(crate) struct IndexArgs {
    /// Discard this provider's cached vectors and embed every memory again
    #[arg(long)]
    rebuild: bool,
}

pub(crate) fn run(
    ctx: &Context,
    args: &IndexArgs,
    out: &mut Output<'_>,
) -> Result<ExitStatus, CliError> {
    let started = Instant::now();
    let brain = super::open(ctx, out)?;
    let catalog = super::load(&brain, out)?;
    let store = brain.store();
    let config = &store.config().embedding;
    let embedder = crate::embedder::from_config(ctx, config)?;
    let id = embedder.id();
    let file = store.vectors_file(&id);
    let (mut cache, warnings) = if args.rebuild {
        (VectorCache::new(id.clone()), Vec::new())
    } else {
        store.load_vectors(&id)
    };
    for w in warnings {
        out.warn(w)?;
    }
    let memories: Vec<&Memory> = catalog
        .memories
        .iter()
        .map(|l| &l.record)
        .filter(|m| m.status != Status::Dismissed)
        .collect();

    // Progress only for a person watching: one line per tenth at most.
    let tty = std::io::stderr().is_terminal();
    let mut shown = 0;
    let mut progress = |done: usize, total: usize| {
        if tty && total > 0 && (done * 10 / total > shown || done == total) {
            shown = done * 10 / total;
            let _ = out.status(format_args!("embedded {done} of {total} texts"));
        }
    };
    let batch = usize::try_from(config.batch_size.max(1)).unwrap_or(usize::MAX);
    let result = embed::embed_memories(
        &memories,
        embedder.as_ref(),
        &mut cache,
        batch,
        &mut progress,
    );
    let outcome = match result {
        Ok(e) => e,
        Err(err) => {
            // Keep what was computed before the failure for the next run.
            if cache.is_changed() {
                let _ = store.save_vectors(&cache);
            }
            return Err(crate::embedder::failure(err));
        }
    };
    let pruned = cache.retain(&outcome.used);
    if cache.is_changed() || args.rebuild || !file.exists() {
        store.save_vectors(&cache)?;
    }
    let report = IndexReport {
        embedder: id.key(),
        provider: id.provider.clone(),
        model: id.model.clone(),
        dimensions: id.dimensions,
        cache: store.layout().relative(&file),
        rebuilt: args.rebuild,
        memories: memories.len(),
        computed: outcome.computed,
        reused: outcome.reused,
        pruned,
    };
    out.emit(&report)?;
    out.status(format_args!(
        "done in {:.2} s",
        started.elapsed().as_secs_f64()
    ))?;
    Ok(ExitStatus::Success)
}
