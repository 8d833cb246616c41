//! `brain setup`: install brain into the agents' configuration files.
//!
//! The merge itself is `brain_core::setup::plan` (pure); this module reads
//! the files, writes what changed (atomically: a temporary file renamed
//! over the old one), and reads and sets the local git settings with the
//! `git` program.

use std::path::Path;

use brain_core::hook::Agent;
use brain_core::setup::{Action, FileResult, Options, SettingResult, SetupReport};

use crate::context::Context;
use crate::error::{CliError, ExitStatus};
use crate::output::Output;

/// Install brain's hooks, MCP server and instructions for coding agents
///
/// Merges brain's entries into the agents' own files, keeping every
/// foreign entry and key order: `.claude/settings.json` and `.mcp.json`
/// (Claude Code), `.codex/hooks.json` and `.codex/config.toml` (Codex),
/// `.cursor/hooks.json`, `.cursor/mcp.json` and `.cursor/rules/brain.mdc`
/// (Cursor), `.github/hooks/brain.json` and `.vscode/mcp.json` (GitHub
/// Copilot), `.gemini/settings.json` (Gemini CLI), and a marked section in
/// `AGENTS.md`. `CLAUDE.md` is never created (it would switch off Claude
/// Code's reading of `AGENTS.md`). Generated commands call this brain
/// binary by its absolute path.
///
/// Without `--mcp`, `--hooks` or `--git`, sets up hooks and MCP. `--git`
/// adds the merge driver for `.brain/` records (`.gitattributes` and local
/// git config) and a post-commit hook that runs `brain extract-commit
/// --detach` (an existing hook is kept; brain's lines are added to it).
///
/// A second run changes nothing. `--check` writes nothing and exits 1 when
/// any file or setting differs from what setup would write; `--dry-run`
/// shows what would change. A file that cannot be parsed is left alone and
/// reported, and the command exits 1.
#[derive(clap::Args, Debug)]
#[allow(
    clippy::struct_excessive_bools,
    reason = "each bool is one command-line flag"
)]
pub(crate) struct SetupArgs {
    /// Agents to set up, comma-separated [default: all]
    #[arg(long, value_enum, value_delimiter = ',', value_name = "AGENTS")]
    agents: Vec<AgentName>,
    /// Register brain's MCP server (`brain mcp`)
    #[arg(long)]
    mcp: bool,
    /// Install the hooks (`brain hook <event>`)
    #[arg(long)]
    hooks: bool,
    /// Configure git: merge driver for `.brain/` records, post-commit hook
    #[arg(long)]
    git: bool,
    /// Write nothing; exit 1 when anything differs from what setup writes
    #[arg(long, conflicts_with = "dry_run")]
    check: bool,
    /// Write nothing; show what would change
    #[arg(long)]
    dry_run: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum AgentName {
    /// Claude Code
    Claude,
    /// Codex CLI
    Codex,
    /// Cursor
    Cursor,
    /// GitHub Copilot (CLI, cloud agent, VS Code)
    Copilot,
    /// Gemini CLI
    Gemini,
}

impl AgentName {
    fn agent(self) -> Agent {
        match self {
            AgentName::Claude => Agent::Claude,
            AgentName::Codex => Agent::Codex,
            AgentName::Cursor => Agent::Cursor,
            AgentName::Copilot => Agent::Copilot,
            AgentName::Gemini => Agent::Gemini,
        }
    }
}

#[derive(Debug, thiserror::Error)]
#[error("cannot find the brain binary's own path")]
struct NoExe(#[source] std::io::Error);

#[derive(Debug, thiserror::Error)]
#[error("failed to write `{}`", path.display())]
pub(crate) struct WriteFailed {
    pub(crate) path: std::path::PathBuf,
    #[source]
    pub(crate) source: std::io::Error,
}

#[derive(Debug, thiserror::Error)]
#[error("`git config {key}` failed: {stderr}")]
struct GitConfigFailed {
    key: String,
    stderr: String,
}

pub(crate) fn run(
    ctx: &Context,
    args: &SetupArgs,
    out: &mut Output<'_>,
) -> Result<ExitStatus, CliError> {
    let exe = std::env::current_exe().map_err(|e| CliError::internal(NoExe(e)))?;
    let exe = exe.canonicalize().unwrap_or(exe);
    let brain = exe.to_string_lossy().into_owned();
    let agents: Vec<Agent> = if args.agents.is_empty() {
        Agent::ALL.to_vec()
    } else {
        let mut a: Vec<Agent> = args.agents.iter().map(|a| a.agent()).collect();
        a.sort();
        a.dedup();
        a
    };
    let default = !args.mcp && !args.hooks && !args.git;
    let root = ctx.root();
    let post_commit = if args.git {
        git_path(root, "hooks/post-commit")
    } else {
        None
    };
    let opts = Options {
        agents: &agents,
        mcp: args.mcp || default,
        hooks: args.hooks || default,
        git: args.git,
        brain: &brain,
        post_commit: post_commit.as_deref(),
    };
    let planned = brain_core::setup::plan(&opts, &mut |rel| {
        std::fs::read_to_string(root.join(rel)).ok()
    });
    let write = !args.check && !args.dry_run;
    let mut files = Vec::new();
    for p in &planned {
        let action = p.action();
        if write && matches!(action, Action::Create | Action::Update) {
            let text = p.after.as_deref().unwrap_or_default();
            write_file(&root.join(&p.path), text, p.executable)?;
        }
        files.push(FileResult {
            path: p.path.clone(),
            action,
            reason: p.after.as_ref().err().cloned(),
        });
    }
    let mut git_config = Vec::new();
    if args.git && post_commit.is_some() {
        for (key, value) in brain_core::setup::git_settings(&brain) {
            let current = git_config_get(root, &key);
            let action = match current {
                None => Action::Create,
                Some(v) if v == value => Action::Unchanged,
                Some(_) => Action::Update,
            };
            if write && action != Action::Unchanged {
                git_config_set(root, &key, &value)?;
            }
            git_config.push(SettingResult { key, value, action });
        }
    } else if args.git {
        out.warn("not a git repository: the merge driver and post-commit hook are not set up")?;
    }
    let drift = files.iter().any(|f| f.action != Action::Unchanged)
        || git_config.iter().any(|g| g.action != Action::Unchanged);
    let skipped = files.iter().any(|f| f.action == Action::Skip);
    let report = SetupReport {
        check: args.check,
        dry_run: args.dry_run,
        files,
        git_config,
        drift,
    };
    out.emit(&report)?;
    Ok(if skipped || (args.check && drift) {
        ExitStatus::Findings
    } else {
        ExitStatus::Success
    })
}

/// Writes `text` to `path` through a temporary file in the same directory,
/// creating the directory, and makes it executable when asked.
pub(crate) fn write_file(path: &Path, text: &str, executable: bool) -> Result<(), CliError> {
    let fail = |source| {
        CliError::internal(WriteFailed {
            path: path.to_path_buf(),
            source,
        })
    };
    let dir = path.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir).map_err(fail)?;
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    let tmp = dir.join(format!(".{name}.brain.tmp"));
    std::fs::write(&tmp, text).map_err(fail)?;
    #[cfg(unix)]
    if executable {
        use std::os::unix::fs::PermissionsExt as _;
        std::fs::set_permissions(&tmp, std::fs::Permissions::from_mode(0o755)).map_err(fail)?;
    }
    #[cfg(not(unix))]
    let _ = executable;
    std::fs::rename(&tmp, path).map_err(fail)
}

fn git(root: &Path) -> std::process::Command {
    let mut cmd = std::process::Command::new("git");
    cmd.arg("-C").arg(root);
    cmd
}

/// `git rev-parse --git-path <path>`, relative to `root` when inside it;
/// `None` outside a repository.
fn git_path(root: &Path, path: &str) -> Option<String> {
    let out = git(root)
        .args(["rev-parse", "--git-path", path])
        .output()
        .ok()
        .filter(|o| o.status.success())?;
    let p = String::from_utf8(out.stdout).ok()?.trim().to_owned();
    (!p.is_empty()).then_some(p)
}

fn git_config_get(root: &Path, key: &str) -> Option<String> {
    let out = git(root)
        .args(["config", "--local", "--get", key])
        .output()
        .ok()
        .filter(|o| o.status.success())?;
    Some(String::from_utf8_lossy(&out.stdout).trim_end().to_owned())
}

fn git_config_set(root: &Path, key: &str, value: &str) -> Result<(), CliError> {
    let out = git(root)
        .args(["config", "--local", key, value])
        .output()
        .map_err(CliError::internal)?;
    if out.status.success() {
        Ok(())
    } else {
        Err(CliError::internal(GitConfigFailed {
            key: key.to_owned(),
            stderr: String::from_utf8_lossy(&out.stderr).trim().to_owned(),
        }))
    }
}
