//! `brain import`: rule files, or another tool's store, into this one.

use std::path::PathBuf;

use brain_core::capture::RuleInput;

use crate::context::Context;
use crate::error::{CliError, ExitStatus};
use crate::output::Output;

/// Import agent rule files, or migrate a RepoBrain store
///
/// `brain import FILE..` reads agent rule files: AGENTS.md, CLAUDE.md,
/// CONVENTIONS.md, `.cursorrules`, `.windsurfrules`, `.clinerules`,
/// `.cursor/rules/*.mdc` and `.github/copilot-instructions.md` (any Markdown
/// file works). A directory (`.cursor/rules`, `.clinerules/`,
/// `.windsurf/rules`) stands for the rule files under it, in path order.
/// Every section
/// becomes one candidate memory: its heading is the title, its first item the
/// summary, its whole body (code blocks intact, never split) the detail; its
/// type comes from the heading or its words (`convention` by default); its
/// scope is the paths it names, plus an `.mdc` rule's `globs`. Importing a file
/// again writes nothing for sections that did not change. Every file is parsed
/// before anything is written.
///
/// `--from-repobrain DIR` migrates a RepoBrain store: DIR is the RepoBrain
/// project root or its `.brain/` directory. Every Markdown memory (decisions,
/// gotchas, conventions, patterns, working notes, goals and archived goals) and
/// every routing preference becomes a record here, keeping its status, lineage
/// and routing. Usage counters (`score`, `hit_count`, `last_used`) are dropped.
/// Everything is mapped and checked before anything is written; files that
/// cannot be mapped are listed with the reason and nothing invalid is written.
/// Ids are derived from the RepoBrain files, so importing again skips what is
/// already there. Exits with 1 when a file could not be imported.
///
/// The store must exist (`brain init`).
#[derive(clap::Args, Debug)]
#[command(group(clap::ArgGroup::new("what").required(true).args(["files", "from_repobrain"])))]
pub(crate) struct ImportArgs {
    /// Rule files to import, or directories of them
    #[arg(value_name = "FILE")]
    files: Vec<PathBuf>,
    /// RepoBrain project root or `.brain/` directory to migrate
    #[arg(long = "from-repobrain", value_name = "DIR", conflicts_with = "files")]
    from_repobrain: Option<PathBuf>,
    /// Report what would be imported without writing anything
    #[arg(long)]
    dry_run: bool,
}

pub(crate) fn run(
    ctx: &Context,
    args: &ImportArgs,
    out: &mut Output<'_>,
) -> Result<ExitStatus, CliError> {
    let brain = super::open(ctx, out)?;
    if let Some(dir) = args.from_repobrain.as_deref() {
        let report = brain.import_repobrain(dir, args.dry_run)?;
        super::warn_redactions(out, &report.redactions)?;
        out.emit(&report)?;
        return Ok(if report.not_imported.is_empty() {
            ExitStatus::Success
        } else {
            ExitStatus::Findings
        });
    }
    let inputs = read_with_includes(ctx, &args.files, out)?;
    let report = brain.import_rules(&inputs, args.dry_run, ctx.now(), ctx.actor())?;
    super::warn_redactions(out, &report.redactions)?;
    out.emit(&report)?;
    Ok(ExitStatus::Success)
}

/// How deep `@path` imports are followed (as Claude Code does).
const MAX_INCLUDE_DEPTH: usize = 5;

/// Reads the files named, then every rule file they import with `@path`
/// (relative to the importing file), each once, depth first up to
/// [`MAX_INCLUDE_DEPTH`] hops. An import that does not resolve to a readable
/// rule file inside the repository is a warning, not an error: the agent
/// would not see it either.
fn read_with_includes(
    ctx: &Context,
    files: &[PathBuf],
    out: &mut Output<'_>,
) -> Result<Vec<RuleInput>, CliError> {
    let mut inputs: Vec<RuleInput> = Vec::new();
    let mut seen: Vec<String> = Vec::new();
    // (path, included from, depth), processed in order.
    let mut queue: std::collections::VecDeque<(PathBuf, Option<String>, usize)> =
        std::collections::VecDeque::new();
    for p in files {
        if p.is_dir() {
            queue.extend(rule_files_under(ctx, p)?.into_iter().map(|f| (f, None, 0)));
        } else {
            queue.push_back((p.clone(), None, 0));
        }
    }
    let root = ctx
        .root()
        .canonicalize()
        .unwrap_or_else(|_| ctx.root().to_path_buf());
    while let Some((path, from, depth)) = queue.pop_front() {
        let shown = shown_path(ctx, &path);
        if seen.contains(&shown) {
            continue;
        }
        if from.is_some() {
            let inside = path.canonicalize().is_ok_and(|p| p.starts_with(&root));
            if !inside || !path.is_file() {
                out.warn(format_args!(
                    "{}: `@{}` is not a file inside the repository; not imported",
                    from.as_deref().unwrap_or_default(),
                    shown
                ))?;
                continue;
            }
            if brain_core::extract::markdown::format_for(&shown).is_none() {
                out.warn(format_args!(
                    "{}: `@{shown}` is not a rule file; not imported",
                    from.as_deref().unwrap_or_default()
                ))?;
                continue;
            }
        }
        seen.push(shown.clone());
        let (bytes, _) = crate::input::read_file(&path)?;
        let text = crate::input::decode(&bytes, &shown)?;
        let (found, text) = brain_core::extract::markdown::includes(&text);
        inputs.push(RuleInput {
            path: shown.clone(),
            text,
            included_from: from,
        });
        if depth >= MAX_INCLUDE_DEPTH {
            continue;
        }
        let dir = path
            .parent()
            .map(std::path::Path::to_path_buf)
            .unwrap_or_default();
        // Depth first: the imported files follow their importer.
        for (k, inc) in found.iter().enumerate() {
            if inc.starts_with('~') || inc.starts_with('/') {
                out.warn(format_args!(
                    "{shown}: `@{inc}` is outside the repository; not imported"
                ))?;
                continue;
            }
            queue.insert(k, (dir.join(inc), Some(shown.clone()), depth + 1));
        }
    }
    Ok(inputs)
}

/// The rule files under a directory named on the command line, in path
/// order (`.git/` and `.brain/` left out); an error when there is none,
/// since the user asked for something that is not there.
fn rule_files_under(ctx: &Context, dir: &std::path::Path) -> Result<Vec<PathBuf>, CliError> {
    let mut found = Vec::new();
    let walk = walkdir::WalkDir::new(dir)
        .sort_by_file_name()
        .into_iter()
        .filter_entry(|e| {
            e.depth() == 0
                || !(e.file_type().is_dir()
                    && matches!(e.file_name().to_str(), Some(".git" | ".brain")))
        });
    for entry in walk {
        let entry = entry.map_err(|e| {
            CliError::user(format!("{}: cannot read the directory: {e}", dir.display()))
        })?;
        if entry.file_type().is_file()
            && brain_core::extract::markdown::format_for(&shown_path(ctx, entry.path())).is_some()
        {
            found.push(entry.into_path());
        }
    }
    if found.is_empty() {
        return Err(CliError::user(format!(
            "{}: a directory with no rule file in it (expected *.md, *.mdc, .cursorrules, .windsurfrules or .clinerules)",
            dir.display()
        )));
    }
    Ok(found)
}

/// The path relative to the root when it is inside it, with `/` separators;
/// else as given. Ids and evidence use it, so it must not depend on where
/// the command runs.
fn shown_path(ctx: &Context, path: &std::path::Path) -> String {
    let abs = path.canonicalize().unwrap_or_else(|_| path.to_path_buf());
    let root = ctx
        .root()
        .canonicalize()
        .unwrap_or_else(|_| ctx.root().to_path_buf());
    match abs.strip_prefix(&root) {
        Ok(rel) => rel
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect::<Vec<_>>()
            .join("/"),
        Err(_) => path.display().to_string(),
    }
}
