//! One module per command; dispatch is one line per command.

use clap::Subcommand;

use crate::context::Context;
use crate::error::{CliError, ExitStatus};
use crate::output::Output;

mod add;
mod approve;
mod capture;
mod dismiss;
mod extract;
mod extract_commit;
mod import;
mod init;
mod lint;
mod list;
mod normalize;
mod promote_candidates;
mod review;
mod show;
mod stats;
mod suggest_extract;
mod supersede;

/// The commands.
#[derive(Subcommand, Debug)]
pub(crate) enum Command {
    Init(init::InitArgs),
    Add(add::AddArgs),
    List(list::ListArgs),
    Show(show::ShowArgs),
    Stats(stats::StatsArgs),
    Lint(lint::LintArgs),
    Normalize(normalize::NormalizeArgs),
    Review(review::ReviewArgs),
    Approve(approve::ApproveArgs),
    PromoteCandidates(promote_candidates::PromoteCandidatesArgs),
    Supersede(supersede::SupersedeArgs),
    Dismiss(dismiss::DismissArgs),
    Import(import::ImportArgs),
    Capture(capture::CaptureArgs),
    Extract(extract::ExtractArgs),
    ExtractCommit(extract_commit::ExtractCommitArgs),
    SuggestExtract(suggest_extract::SuggestExtractArgs),
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
        Command::Normalize(args) => normalize::run(ctx, args, out),
        Command::Review(args) => review::run(ctx, args, out),
        Command::Approve(args) => approve::run(ctx, args, out),
        Command::PromoteCandidates(args) => promote_candidates::run(ctx, args, out),
        Command::Supersede(args) => supersede::run(ctx, args, out),
        Command::Dismiss(args) => dismiss::run(ctx, args, out),
        Command::Import(args) => import::run(ctx, args, out),
        Command::Capture(args) => capture::run(ctx, args, out),
        Command::Extract(args) => extract::run(ctx, args, out),
        Command::ExtractCommit(args) => extract_commit::run(ctx, args, out),
        Command::SuggestExtract(args) => suggest_extract::run(ctx, args, out),
    }
}

/// Opens the store and prints its config warnings.
fn open(ctx: &Context, out: &mut Output<'_>) -> Result<brain_core::Brain, CliError> {
    let brain = brain_core::Brain::open(ctx.root())?;
    for w in brain.store().config_warnings() {
        out.warn(w)?;
    }
    Ok(brain)
}

/// Loads the catalog and warns about skipped files and cache trouble.
fn load(
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
fn warn_redactions(
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
