//! `brain merge-driver`: git's merge driver for record files.

use std::path::PathBuf;

use brain_core::merge;

use crate::context::Context;
use crate::error::{CliError, ExitStatus};
use crate::output::Output;

/// Merge one record file for git, field by field
///
/// Called by git as `brain merge-driver %O %A %B %L %P` for paths marked
/// `merge=brain` in `.gitattributes` (`brain setup` writes the attribute and
/// the `merge.brain.driver` config). Edits to different fields merge cleanly;
/// lists (tags, scope paths, evidence, ...) merge as sets. When both sides
/// changed one field differently, our value is kept, the file gets a
/// `conflicts:` list naming the field with the base, ours and theirs values
/// (plain YAML, never conflict markers; `brain lint` reports it), and the
/// exit status is 1 so git marks the file conflicted. A version that is not
/// YAML leaves OURS untouched and exits with 1 as well.
#[derive(clap::Args, Debug)]
pub(crate) struct MergeDriverArgs {
    /// The common ancestor's version (git's `%O`)
    base: PathBuf,
    /// Our version, replaced by the merge result (git's `%A`)
    ours: PathBuf,
    /// Their version (git's `%B`)
    theirs: PathBuf,
    /// Conflict marker size (git's `%L`); accepted and unused: no markers are written
    marker_size: Option<String>,
    /// The path in the repository (git's `%P`); decides the record type
    path: Option<String>,
}

#[derive(Debug, thiserror::Error)]
#[error("cannot write the merge result to `{}`", path.display())]
struct WriteError {
    path: PathBuf,
    #[source]
    source: std::io::Error,
}

pub(crate) fn run(
    _ctx: &Context,
    args: &MergeDriverArgs,
    out: &mut Output<'_>,
) -> Result<ExitStatus, CliError> {
    let read = |p: &PathBuf| -> Result<String, CliError> {
        let (bytes, _) = crate::input::read_file(p)?;
        Ok(String::from_utf8_lossy(&bytes).into_owned())
    };
    let (base, ours, theirs) = (read(&args.base)?, read(&args.ours)?, read(&args.theirs)?);
    let path = args
        .path
        .clone()
        .unwrap_or_else(|| args.ours.to_string_lossy().into_owned());
    let outcome = match merge::merge(&path, &base, &ours, &theirs) {
        Ok(o) => o,
        Err(e) => {
            out.warn(format_args!(
                "{path}: cannot merge field by field ({}); left as ours",
                CliError::user(e).chain().join(": ")
            ))?;
            return Ok(ExitStatus::Findings);
        }
    };
    std::fs::write(&args.ours, &outcome.text).map_err(|source| {
        CliError::internal(WriteError {
            path: args.ours.clone(),
            source,
        })
    })?;
    if outcome.conflicts.is_empty() {
        return Ok(ExitStatus::Success);
    }
    for c in &outcome.conflicts {
        out.warn(format_args!(
            "{path}: both sides changed `{}`; kept ours, recorded under `conflicts:`",
            c.field
        ))?;
    }
    Ok(ExitStatus::Findings)
}
