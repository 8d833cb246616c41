//! `brain export`: compile active memories into an agent's rule files.

use std::path::Path;

use brain_core::export::Target;
use brain_core::setup::Action;

use crate::context::Context;
use crate::error::{CliError, ExitStatus};
use crate::output::Output;

/// Compile active memories into an agent's native rule files
///
/// Writes the memories an agent may be shown (active, in force, not
/// replaced; working notes left out), by type and most important first,
/// into the rule format of `--to`. Where the format scopes files to paths,
/// every distinct scope gets its own file with the format's path field
/// (`.cursor/rules/*.mdc` `globs`, `.github/instructions/*.instructions.md`
/// `applyTo`, `.claude/rules/*.md` `paths`, Windsurf `globs`, Kiro
/// `fileMatchPattern`, Continue `globs`); repository-wide memories go to
/// one always-applied file. `agents-md` and `gemini` write a marked
/// section in `AGENTS.md` / `GEMINI.md`. Files are named `brain-memory…`,
/// carry a generated-file header, and are the same bytes for the same
/// store; generated files no longer needed are removed.
///
/// `--check` writes nothing and exits 1 when any file differs.
#[derive(clap::Args, Debug)]
pub(crate) struct ExportArgs {
    /// The agent's rule format
    #[arg(long, value_enum)]
    to: TargetArg,
    /// Write nothing; exit 1 when the files differ from what export writes
    #[arg(long)]
    check: bool,
}

#[derive(Clone, Copy, Debug, clap::ValueEnum)]
enum TargetArg {
    /// A marked section in AGENTS.md
    AgentsMd,
    /// .claude/rules/*.md with `paths`
    ClaudeRules,
    /// .cursor/rules/*.mdc with `globs`
    Cursor,
    /// .github/instructions/*.instructions.md with `applyTo`
    Copilot,
    /// .windsurf/rules/*.md with `trigger: glob`
    Windsurf,
    /// .kiro/steering/*.md with `inclusion: fileMatch`
    Kiro,
    /// .continue/rules/*.md with `globs`
    Continue,
    /// A marked section in GEMINI.md
    Gemini,
}

impl TargetArg {
    fn target(self) -> Target {
        match self {
            TargetArg::AgentsMd => Target::AgentsMd,
            TargetArg::ClaudeRules => Target::ClaudeRules,
            TargetArg::Cursor => Target::Cursor,
            TargetArg::Copilot => Target::Copilot,
            TargetArg::Windsurf => Target::Windsurf,
            TargetArg::Kiro => Target::Kiro,
            TargetArg::Continue => Target::Continue,
            TargetArg::Gemini => Target::Gemini,
        }
    }
}

pub(crate) fn run(
    ctx: &Context,
    args: &ExportArgs,
    out: &mut Output<'_>,
) -> Result<ExitStatus, CliError> {
    let brain = super::open(ctx, out)?;
    let catalog = super::load(&brain, out)?;
    let memories =
        brain_core::export::select(catalog.memories.iter().map(|l| &l.record), ctx.now());
    let root = ctx.root();
    let target = args.to.target();
    let plan = plan(root, target, &memories);
    if !args.check {
        for p in &plan.files {
            if matches!(p.action(), Action::Create | Action::Update) {
                super::setup::write_file(
                    &root.join(&p.path),
                    p.after.as_deref().unwrap_or_default(),
                    false,
                )?;
            }
        }
        for stale in &plan.stale {
            let path = root.join(stale);
            std::fs::remove_file(&path)
                .map_err(|source| CliError::internal(super::setup::WriteFailed { path, source }))?;
        }
    }
    let report = plan.report(target, args.check, memories.len());
    out.emit(&report)?;
    Ok(if args.check && report.drift {
        ExitStatus::Findings
    } else {
        ExitStatus::Success
    })
}

/// What exporting `memories` as `target` would write in the repository at
/// `root`, against its files as they are.
pub(crate) fn plan(
    root: &Path,
    target: Target,
    memories: &[&brain_core::model::Memory],
) -> brain_core::export::ExportPlan {
    brain_core::export::plan(
        target,
        memories,
        &mut |rel| std::fs::read_to_string(root.join(rel)).ok(),
        &mut |dir| {
            std::fs::read_dir(root.join(dir))
                .map(|entries| {
                    entries
                        .filter_map(Result::ok)
                        .filter_map(|e| e.file_name().into_string().ok())
                        .collect()
                })
                .unwrap_or_default()
        },
    )
}

/// Every format `brain export` writes.
pub(crate) const TARGETS: [Target; 8] = [
    Target::AgentsMd,
    Target::ClaudeRules,
    Target::Cursor,
    Target::Copilot,
    Target::Windsurf,
    Target::Kiro,
    Target::Continue,
    Target::Gemini,
];
