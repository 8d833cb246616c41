//! `brain preference …`: add, list, show, approve, dismiss, supersede and
//! capture routing preferences.

use std::io::{IsTerminal, Read};

use brain_core::model::{PreferenceKind, Source, Status, TargetType};
use brain_core::prefs::{self, NewPreference, PreferenceFilter};

use crate::context::Context;
use crate::error::{CliError, ExitStatus};
use crate::output::Output;

/// Manage routing preferences (`.brain/preferences/`)
///
/// A preference tells routing to prefer a skill, workflow or task class, to
/// avoid it, or to run it only after a person agrees. Only active
/// preferences route; candidates wait for `brain preference approve`.
#[derive(clap::Args, Debug)]
pub(crate) struct PreferenceArgs {
    #[command(subcommand)]
    command: PreferenceCommand,
}

#[derive(clap::Subcommand, Debug)]
enum PreferenceCommand {
    Add(AddArgs),
    List(ListArgs),
    Show(ShowArgs),
    Approve(ApproveArgs),
    Dismiss(DismissArgs),
    Supersede(SupersedeArgs),
    Capture(CaptureArgs),
}

/// Add a preference
///
/// Writes one file under `.brain/preferences/` and prints its id. The status
/// is `candidate` unless the workflow captures directly or `--status active`
/// is given. Adding a preference that is already there (same target, type,
/// policy and hints) writes nothing and names the existing one. An active
/// preference that sets another policy for the same target and hints is
/// refused: add it as a candidate, then `brain preference supersede`.
#[derive(clap::Args, Debug)]
#[command(group(clap::ArgGroup::new("kind").required(true).args(["prefer", "avoid", "require_review"])))]
struct AddArgs {
    /// Skill, workflow or task class name (stored normalised: `Playwright E2E` → `playwright-e2e`)
    #[arg(long)]
    target: String,
    /// `skill`, `workflow` or `task_class`
    #[arg(long, value_name = "TYPE")]
    target_type: TargetType,
    /// Use the target first
    #[arg(long)]
    prefer: bool,
    /// Do not use the target
    #[arg(long)]
    avoid: bool,
    /// Use the target only after a person agrees
    #[arg(long)]
    require_review: bool,
    /// Task phrase limiting where it applies (repeatable)
    #[arg(long = "task-hint", value_name = "PHRASE")]
    task_hints: Vec<String>,
    /// Path glob limiting where it applies (repeatable)
    #[arg(long = "path-hint", value_name = "GLOB")]
    path_hints: Vec<String>,
    /// Why the team wants this
    #[arg(long, allow_hyphen_values = true)]
    reason: Option<String>,
    /// Strength, 0 to 1 [default: 1]
    #[arg(long, value_name = "0..1", allow_negative_numbers = true)]
    confidence: Option<f64>,
    /// candidate or active [default: from the workflow preset]
    #[arg(long)]
    status: Option<Status>,
}

/// List preferences
///
/// Every status is listed unless `--status` narrows it; preferences that do
/// not route now are marked: `?` for candidates, `-` for the others.
#[derive(clap::Args, Debug)]
struct ListArgs {
    /// Only this status (repeatable)
    #[arg(long = "status", short = 's', value_name = "STATUS")]
    statuses: Vec<Status>,
    /// Only preferences about this target (repeatable; compared normalised)
    #[arg(long = "target", value_name = "NAME")]
    targets: Vec<String>,
}

/// Show one preference in full
///
/// ID is an exact id or a prefix that matches exactly one preference id.
#[derive(clap::Args, Debug)]
struct ShowArgs {
    /// Id or unique id prefix
    id: String,
}

/// Approve a candidate preference
///
/// A candidate (or an active preference still pending review) becomes
/// active with review `approved`, the time and the actor. Refused while an
/// active preference sets another policy for the same target and hints.
#[derive(clap::Args, Debug)]
struct ApproveArgs {
    /// Id or unique id prefix
    id: String,
}

/// Dismiss a candidate preference
///
/// It becomes `dismissed`, with review `rejected`, the time, the actor and
/// the reason. It stays in the store, so that the same preference is not
/// proposed again.
#[derive(clap::Args, Debug)]
struct DismissArgs {
    /// Id or unique id prefix
    id: String,
    /// Why it is dismissed (recorded in the file)
    #[arg(long, allow_hyphen_values = true)]
    reason: Option<String>,
}

/// Mark preference OLD as replaced by NEW
///
/// OLD becomes `superseded` with `lineage.superseded_by: NEW`; NEW lists OLD
/// in `lineage.supersedes`, its version goes up by one, and it is the one
/// left active: a candidate NEW is approved by this. OLD must be active or
/// stale.
#[derive(clap::Args, Debug)]
struct SupersedeArgs {
    /// Id (or unique prefix) of the replacement
    new: String,
    /// Id (or unique prefix) of the preference it replaces
    old: String,
}

/// Capture preferences stated in plain language, as candidates
///
/// Reads TEXT (or stdin for `-` or no TEXT) and writes one candidate per
/// sentence that says to prefer, avoid or require review for a skill,
/// workflow or task class, with its hints: "avoid the legacy-router skill
/// for payments work", "always ask a human before running db-reset", "use
/// `lint-fix` first when touching src/**/*.ts". Sentences that state no
/// preference are listed; when none does, nothing is written and the exit
/// status is 1.
#[derive(clap::Args, Debug)]
struct CaptureArgs {
    /// The text, or `-` for stdin
    text: Option<String>,
    /// Strength of every captured preference, 0 to 1 [default: 1]
    #[arg(long, value_name = "0..1", allow_negative_numbers = true)]
    confidence: Option<f64>,
}

pub(crate) fn run(
    ctx: &Context,
    args: &PreferenceArgs,
    out: &mut Output<'_>,
) -> Result<ExitStatus, CliError> {
    match &args.command {
        PreferenceCommand::Add(a) => add(ctx, a, out),
        PreferenceCommand::List(a) => list(ctx, a, out),
        PreferenceCommand::Show(a) => show(ctx, a, out),
        PreferenceCommand::Approve(a) => approve(ctx, a, out),
        PreferenceCommand::Dismiss(a) => dismiss(ctx, a, out),
        PreferenceCommand::Supersede(a) => supersede(ctx, a, out),
        PreferenceCommand::Capture(a) => capture(ctx, a, out),
    }
}

impl From<prefs::Error> for CliError {
    fn from(err: prefs::Error) -> Self {
        match err {
            prefs::Error::Store(e) => e.into(),
            prefs::Error::NotFound {
                suggestion: Some(ref id),
                ..
            } => {
                let hint = format!("did you mean `{id}`?");
                CliError::user(err).hint(hint)
            }
            prefs::Error::NotFound { .. } => {
                CliError::user(err).hint("`brain preference list` shows every id")
            }
            prefs::Error::Ambiguous { .. } => {
                CliError::user(err).hint("give more characters of the id")
            }
            prefs::Error::Conflict {
                ref existing,
                ref id,
                ..
            } => {
                let old = existing
                    .first()
                    .map(|(id, _)| id.to_string())
                    .unwrap_or_default();
                let hint = match id {
                    Some(new) => format!(
                        "to replace it, run `brain preference supersede {new} {old}`; or dismiss this one"
                    ),
                    None => format!(
                        "add it with `--status candidate`, then replace the old one with `brain preference supersede NEW {old}`"
                    ),
                };
                CliError::user(err).hint(hint)
            }
            prefs::Error::Unreadable { .. } => CliError::user(err)
                .hint("fix or remove the file (`brain lint` shows every problem), then retry"),
            other => CliError::user(other),
        }
    }
}

/// Loads the store, warning about unreadable preference files only.
fn load(
    brain: &brain_core::Brain,
    out: &mut Output<'_>,
) -> Result<brain_core::store::Catalog, CliError> {
    let catalog = brain.catalog();
    for w in &catalog.warnings {
        out.warn(w)?;
    }
    out.warn_skipped(&prefs::preference_problems(&catalog))?;
    Ok(catalog)
}

fn add(ctx: &Context, args: &AddArgs, out: &mut Output<'_>) -> Result<ExitStatus, CliError> {
    let brain = super::open(ctx, out)?;
    let kind = if args.prefer {
        PreferenceKind::Prefer
    } else if args.avoid {
        PreferenceKind::Avoid
    } else {
        PreferenceKind::RequireReview
    };
    let new = NewPreference {
        target_type: args.target_type,
        target: args.target.clone(),
        kind,
        task_hints: args.task_hints.clone(),
        path_hints: args.path_hints.clone(),
        reason: args.reason.clone().unwrap_or_default(),
        confidence: args.confidence,
        status: args.status,
        source: Source::Manual,
        evidence: Vec::new(),
    };
    let report = brain.preference_add(&new, ctx.now(), ctx.actor())?;
    super::warn_redactions(out, &report.redactions)?;
    warn_conflicts(out, &report.result)?;
    let r = &report.result;
    if r.outcome == prefs::AddOutcome::Created {
        out.status(format_args!(
            "added {} {} ({}) {} as {}",
            r.preference.as_str(),
            r.target,
            r.target_type.as_str(),
            r.path,
            r.status
        ))?;
    }
    out.emit(&report)?;
    Ok(ExitStatus::Success)
}

fn warn_conflicts(out: &mut Output<'_>, r: &prefs::PreferenceResult) -> Result<(), CliError> {
    for old in &r.conflicts_with {
        out.warn(format_args!(
            "{} conflicts with active preference {old}; approving it needs `brain preference supersede {} {old}`",
            r.id, r.id
        ))?;
    }
    Ok(())
}

fn list(ctx: &Context, args: &ListArgs, out: &mut Output<'_>) -> Result<ExitStatus, CliError> {
    let brain = super::open(ctx, out)?;
    let catalog = load(&brain, out)?;
    let filter = PreferenceFilter {
        statuses: args.statuses.clone(),
        targets: args.targets.clone(),
    };
    let total = catalog.preferences.len();
    let report = brain.preference_list(catalog, &filter, ctx.now());
    out.emit(&report)?;
    let candidates = report
        .preferences
        .iter()
        .filter(|p| p.status == Status::Candidate)
        .count();
    let marked = match candidates {
        0 => String::new(),
        1 => " (1 candidate, marked `?`: not in force until approved)".to_owned(),
        n => format!(" ({n} candidates, marked `?`: not in force until approved)"),
    };
    out.status(format_args!(
        "{} of {} preferences{marked}",
        report.preferences.len(),
        total
    ))?;
    Ok(ExitStatus::Success)
}

fn show(ctx: &Context, args: &ShowArgs, out: &mut Output<'_>) -> Result<ExitStatus, CliError> {
    let brain = super::open(ctx, out)?;
    let catalog = load(&brain, out)?;
    let report = brain.preference_show(&catalog, &args.id, ctx.now())?;
    out.emit(&report)?;
    Ok(ExitStatus::Success)
}

fn approve(
    ctx: &Context,
    args: &ApproveArgs,
    out: &mut Output<'_>,
) -> Result<ExitStatus, CliError> {
    let brain = super::open(ctx, out)?;
    let report = brain.preference_approve(&args.id, ctx.now(), ctx.actor())?;
    out.emit(&report)?;
    Ok(ExitStatus::Success)
}

fn dismiss(
    ctx: &Context,
    args: &DismissArgs,
    out: &mut Output<'_>,
) -> Result<ExitStatus, CliError> {
    let brain = super::open(ctx, out)?;
    let report =
        brain.preference_dismiss(&args.id, args.reason.as_deref(), ctx.now(), ctx.actor())?;
    out.emit(&report)?;
    Ok(ExitStatus::Success)
}

fn supersede(
    ctx: &Context,
    args: &SupersedeArgs,
    out: &mut Output<'_>,
) -> Result<ExitStatus, CliError> {
    let brain = super::open(ctx, out)?;
    let report = brain.preference_supersede(&args.new, &args.old, ctx.now(), ctx.actor())?;
    out.emit(&report)?;
    Ok(ExitStatus::Success)
}

#[derive(Debug, thiserror::Error)]
enum CaptureInputError {
    #[error("no text: pass TEXT, or pipe it on stdin with `-`")]
    NoInput,
    #[error("cannot read stdin")]
    Stdin(#[source] std::io::Error),
}

fn capture(
    ctx: &Context,
    args: &CaptureArgs,
    out: &mut Output<'_>,
) -> Result<ExitStatus, CliError> {
    let brain = super::open(ctx, out)?;
    let text = match args.text.as_deref() {
        Some(t) if t != "-" => crate::input::decode(t.as_bytes(), "TEXT")?,
        _ => {
            let stdin = std::io::stdin();
            if args.text.is_none() && stdin.is_terminal() {
                return Err(CliError::user(CaptureInputError::NoInput));
            }
            let mut bytes = Vec::new();
            stdin
                .lock()
                // One byte over the limit, so that `decode` refuses a larger input.
                .take(
                    u64::try_from(brain_core::extract::MAX_INPUT_BYTES).unwrap_or(u64::MAX - 1) + 1,
                )
                .read_to_end(&mut bytes)
                .map_err(|e| CliError::user(CaptureInputError::Stdin(e)))?;
            crate::input::decode(&bytes, "stdin")?
        }
    };
    let report = brain.preference_capture(&text, args.confidence, ctx.now(), ctx.actor())?;
    super::warn_redactions(out, &report.redactions)?;
    for c in &report.captured {
        warn_conflicts(out, &c.result)?;
    }
    out.emit(&report)?;
    Ok(if report.captured.is_empty() {
        ExitStatus::Findings
    } else {
        ExitStatus::Success
    })
}
