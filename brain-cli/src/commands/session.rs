//! `brain session`: the session profile, routing hints for the current
//! session only, kept in `.brain/runtime/session-profile.json` (git-ignored).
//!
//! `set`, `show` and `clear` never touch a tracked file; `promote` is the only
//! way the profile's content reaches `.brain/`, as candidates for review.
//!
//! The text rendering of the profile reports lives here, next to the only
//! command that emits them, as impls of `crate::output::Render`.

use std::io::{self, Write};

use brain_core::route::SessionPolicy;
use brain_core::session_profile::{
    self, PromoteRequest, PromoteTarget, SessionClearReport, SessionPromoteReport,
    SessionSetReport, SessionShowReport, SessionUpdate,
};

use crate::context::Context;
use crate::error::{CliError, ExitStatus};
use crate::output::{Output, Render, UsageError};

/// Keep routing hints for the current session only
///
/// The session profile lives in `.brain/runtime/session-profile.json`, which
/// is git-ignored: `set`, `show` and `clear` never change a tracked file.
/// Routing reads its three skill lists (above team preferences, below the
/// required and suppressed skills of memories); the hints and flags are for
/// the agent. `promote` is the only way to make the profile durable, as
/// candidates that go through review.
#[derive(clap::Args, Debug)]
pub(crate) struct SessionArgs {
    #[command(subcommand)]
    command: SessionCommand,
}

#[derive(clap::Subcommand, Debug)]
enum SessionCommand {
    Set(SetArgs),
    Show(ShowArgs),
    Clear(ClearArgs),
    Promote(PromoteArgs),
}

/// Change the session profile
///
/// By default the arguments are merged into the stored profile: skills and
/// hints are added, and only the flags given change. Adding a skill to one
/// list moves it out of the other two. `--replace` starts from an empty
/// profile instead. Skill names are normalised (`Playwright E2E` and
/// `playwright_e2e` are `playwright-e2e`). A skill given to two lists in one
/// call is an error, and nothing is written. Secrets in hints are replaced by
/// `[REDACTED:<kind>]`. Prints the profile as written.
#[allow(
    clippy::struct_excessive_bools,
    reason = "each switch is its own command-line flag"
)]
#[derive(clap::Args, Debug)]
struct SetArgs {
    /// Hints for the agent, one per argument ("touch only the ledger module")
    #[arg(value_name = "HINT")]
    hints: Vec<String>,
    /// Run this skill, workflow or task class first (repeatable)
    #[arg(long = "prefer-skill", value_name = "SKILL", help_heading = "Skills")]
    prefer: Vec<String>,
    /// Do not run it this session (repeatable)
    #[arg(long = "avoid-skill", value_name = "SKILL", help_heading = "Skills")]
    avoid: Vec<String>,
    /// Run it only after a person agrees (repeatable)
    #[arg(long = "review-skill", value_name = "SKILL", help_heading = "Skills")]
    review: Vec<String>,
    /// Remove it from every list (repeatable)
    #[arg(long = "drop-skill", value_name = "SKILL", help_heading = "Skills")]
    drop: Vec<String>,
    /// Empty the three skill lists first (hints and flags stay)
    #[arg(long, help_heading = "Skills")]
    clear_skills: bool,
    /// Empty the hints first (skills and flags stay)
    #[arg(long)]
    clear_hints: bool,
    /// Start from an empty profile instead of merging into the stored one
    #[arg(long)]
    replace: bool,
    /// Keep the change as small as possible
    #[arg(long, help_heading = "Flags")]
    minimal_change: bool,
    /// Unset `--minimal-change`
    #[arg(long, conflicts_with = "minimal_change", help_heading = "Flags")]
    no_minimal_change: bool,
    /// Run the affected tests only, not the full suite
    #[arg(long, help_heading = "Flags")]
    skip_full_tests: bool,
    /// Unset `--skip-full-tests`: run the full suite
    #[arg(
        long,
        visible_alias = "no-skip-full-tests",
        conflicts_with = "skip_full_tests",
        help_heading = "Flags"
    )]
    full_tests: bool,
    /// Do not change the database schema
    #[arg(long, help_heading = "Flags")]
    no_schema_changes: bool,
    /// Unset `--no-schema-changes`: schema changes are allowed
    #[arg(
        long,
        visible_alias = "allow-schema-changes",
        conflicts_with = "no_schema_changes",
        help_heading = "Flags"
    )]
    schema_changes: bool,
}

/// A pair of flags as a change: `Some(true)`, `Some(false)` or no change.
fn switch(on: bool, off: bool) -> Option<bool> {
    match (on, off) {
        (true, _) => Some(true),
        (false, true) => Some(false),
        (false, false) => None,
    }
}

impl SetArgs {
    fn update(&self) -> SessionUpdate {
        SessionUpdate {
            replace: self.replace,
            clear_skills: self.clear_skills,
            clear_hints: self.clear_hints,
            prefer: self.prefer.clone(),
            avoid: self.avoid.clone(),
            review: self.review.clone(),
            drop: self.drop.clone(),
            hints: self.hints.clone(),
            minimal_change: switch(self.minimal_change, self.no_minimal_change),
            skip_full_tests: switch(self.skip_full_tests, self.full_tests),
            no_schema_changes: switch(self.no_schema_changes, self.schema_changes),
        }
    }
}

/// Print the session profile
///
/// Without a profile, says so and exits 0. A profile file that is not valid
/// is an error naming the file.
#[derive(clap::Args, Debug)]
struct ShowArgs {}

/// Remove the session profile
///
/// Running it without a profile is not an error. The file is removed without
/// being read, so this also gets rid of a corrupt one.
#[derive(clap::Args, Debug)]
struct ClearArgs {}

/// Make the session profile durable, as candidates for review
///
/// `--to preference` writes one candidate preference per skill of the profile
/// (or per `--skill`): `prefer`, `avoid` or `require_review`, global, with
/// provenance `session`. `--to memory` writes one candidate convention with
/// the profile's hints and the flags that are set (or only the `--hint`s
/// given). Ids depend only on the content, so promoting the same thing again
/// writes nothing; an equivalent preference already in the store is not
/// proposed twice. The profile itself is left as it is.
#[derive(clap::Args, Debug)]
struct PromoteArgs {
    /// What to write
    #[arg(long, value_enum, value_name = "KIND")]
    to: To,
    /// With `--to preference`: only this skill (repeatable)
    #[arg(long = "skill", value_name = "SKILL")]
    skills: Vec<String>,
    /// With `--to memory`: only this hint, and no flags (repeatable)
    #[arg(long = "hint", value_name = "HINT")]
    hints: Vec<String>,
}

/// `--to` of `promote`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum To {
    /// Candidate preferences, one per skill
    Preference,
    /// One candidate convention with the hints and flags
    Memory,
}

pub(crate) fn run(
    ctx: &Context,
    args: &SessionArgs,
    out: &mut Output<'_>,
) -> Result<ExitStatus, CliError> {
    match &args.command {
        SessionCommand::Set(a) => set(ctx, a, out),
        SessionCommand::Show(_) => show(ctx, out),
        SessionCommand::Clear(_) => clear(ctx, out),
        SessionCommand::Promote(a) => promote(ctx, a, out),
    }
}

fn set(ctx: &Context, args: &SetArgs, out: &mut Output<'_>) -> Result<ExitStatus, CliError> {
    let brain = super::open(ctx, out)?;
    let report = brain.session_set(&args.update(), ctx.now())?;
    for r in &report.redactions {
        out.warn(format_args!(
            "redacted {} in hint {} of the session profile",
            r.kind,
            r.hint + 1
        ))?;
    }
    for w in &report.warnings {
        out.warn(w)?;
    }
    for m in &report.moved {
        out.status(format_args!(
            "moved `{}` from {} to {}",
            m.skill, m.from, m.to
        ))?;
    }
    for skill in &report.dropped {
        out.status(format_args!("dropped `{skill}`"))?;
    }
    let verb = match (report.created, report.replaced) {
        (true, _) => "created",
        (false, true) => "replaced",
        (false, false) => "updated",
    };
    out.status(format_args!("{verb} {}", report.path))?;
    out.emit(&report)?;
    Ok(ExitStatus::Success)
}

fn show(ctx: &Context, out: &mut Output<'_>) -> Result<ExitStatus, CliError> {
    let brain = super::open(ctx, out)?;
    let report = brain.session_show()?;
    out.emit(&report)?;
    Ok(ExitStatus::Success)
}

fn clear(ctx: &Context, out: &mut Output<'_>) -> Result<ExitStatus, CliError> {
    let brain = super::open(ctx, out)?;
    let report = brain.session_clear()?;
    out.emit(&report)?;
    Ok(ExitStatus::Success)
}

fn promote(
    ctx: &Context,
    args: &PromoteArgs,
    out: &mut Output<'_>,
) -> Result<ExitStatus, CliError> {
    let misplaced = match args.to {
        To::Preference if !args.hints.is_empty() => Some("`--hint` goes with `--to memory`"),
        To::Memory if !args.skills.is_empty() => Some("`--skill` goes with `--to preference`"),
        _ => None,
    };
    if let Some(message) = misplaced {
        return Err(CliError::user(UsageError(message.to_owned()))
            .hint("run `brain session promote --help` for usage"));
    }
    let brain = super::open(ctx, out)?;
    let request = PromoteRequest {
        to: match args.to {
            To::Preference => PromoteTarget::Preference,
            To::Memory => PromoteTarget::Memory,
        },
        skills: args.skills.clone(),
        hints: args.hints.clone(),
    };
    let report = brain.session_promote(&request, ctx.now(), ctx.actor())?;
    super::warn_redactions(out, &report.redactions)?;
    for w in &report.warnings {
        out.warn(w)?;
    }
    out.emit(&report)?;
    match (report.written.len(), args.to) {
        (0, _) => {}
        (_, To::Memory) => out.status("review it with `brain review`")?,
        (_, To::Preference) => {
            out.status("the candidates wait for review; routing ignores them until approved")?;
        }
    }
    Ok(ExitStatus::Success)
}

impl From<session_profile::Error> for CliError {
    fn from(err: session_profile::Error) -> Self {
        use session_profile::Error as E;
        match err {
            E::Store(e) => e.into(),
            E::Corrupt { .. } => CliError::user(err).hint(
                "run `brain session clear` to remove it, or `brain session set --replace ..` to start over",
            ),
            E::Missing { .. } => {
                CliError::user(err).hint("run `brain session set` to create one")
            }
            E::Conflict { .. } => CliError::user(err).hint(
                "give each skill to one list per call; a later call that names it again moves it",
            ),
            _ => CliError::user(err),
        }
    }
}

fn yes_no(b: bool) -> &'static str {
    if b { "yes" } else { "no" }
}

/// The profile, one aligned line per key; multi-valued keys continue on
/// indented lines.
fn render_profile(w: &mut dyn Write, path: &str, p: &SessionPolicy) -> io::Result<()> {
    match p.updated_at {
        Some(t) => writeln!(w, "session profile {path}, updated {t}")?,
        None => writeln!(w, "session profile {path}")?,
    }
    let lists: [(&str, &[String]); 4] = [
        ("prefer skills", &p.prefer_skills),
        ("avoid skills", &p.avoid_skills),
        ("review skills", &p.review_skills),
        ("hints", &p.hints),
    ];
    for (key, items) in lists {
        match items.split_first() {
            None => writeln!(w, "  {key:<18} -")?,
            Some((first, rest)) => {
                writeln!(w, "  {key:<18} {first}")?;
                for item in rest {
                    writeln!(w, "  {:<18} {item}", "")?;
                }
            }
        }
    }
    writeln!(w, "  {:<18} {}", "minimal change", yes_no(p.minimal_change))?;
    writeln!(
        w,
        "  {:<18} {}",
        "skip full tests",
        yes_no(p.skip_full_tests)
    )?;
    writeln!(
        w,
        "  {:<18} {}",
        "no schema changes",
        yes_no(p.no_schema_changes)
    )
}

impl Render for SessionShowReport {
    fn render(&self, w: &mut dyn Write) -> io::Result<()> {
        match &self.profile {
            Some(p) => render_profile(w, &self.path, p),
            None => writeln!(w, "no session profile ({})", self.path),
        }
    }
}

impl Render for SessionSetReport {
    fn render(&self, w: &mut dyn Write) -> io::Result<()> {
        render_profile(w, &self.path, &self.profile)
    }
}

impl Render for SessionClearReport {
    fn render(&self, w: &mut dyn Write) -> io::Result<()> {
        if self.removed {
            writeln!(w, "removed {}", self.path)
        } else {
            writeln!(w, "no session profile to remove ({})", self.path)
        }
    }
}

impl Render for SessionPromoteReport {
    fn render(&self, w: &mut dyn Write) -> io::Result<()> {
        let status = |s: Option<brain_core::model::Status>| s.map_or("unreadable", |s| s.as_str());
        let rows: Vec<(&str, &session_profile::PromotedRecord)> = self
            .written
            .iter()
            .map(|r| ("wrote", r))
            .chain(self.unchanged.iter().map(|r| ("unchanged", r)))
            .collect();
        let path_w = rows.iter().map(|(_, r)| r.path.len()).max().unwrap_or(0);
        let status_w = rows
            .iter()
            .map(|(_, r)| status(r.status).len())
            .max()
            .unwrap_or(0);
        for (what, r) in rows {
            writeln!(
                w,
                "{what:<9}  {:<path_w$}  {:<status_w$}  {}",
                r.path,
                status(r.status),
                r.description
            )?;
        }
        let n = self.written.len();
        writeln!(
            w,
            "{n} {} written, {} already in the store",
            if n == 1 { "candidate" } else { "candidates" },
            self.unchanged.len()
        )
    }
}
