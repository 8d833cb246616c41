//! `brain edit`: change a candidate (or any memory) in an editor, or set
//! fields directly.

use std::process::Command;

use brain_core::edit::{EditInput, EditReport};

use crate::context::Context;
use crate::error::{CliError, ExitStatus};
use crate::output::Output;

/// Edit a memory in your editor, or set its fields
///
/// Without `--set`, opens `$VISUAL` (or `$EDITOR`) on the memory's YAML, as
/// `git commit` does, and writes what you save. With `--set FIELD=VALUE`
/// (repeatable) no editor opens: fields are `title`, `summary`, `detail`,
/// `notes`, `type`, `importance`, `risk`, `confidence`, `tags`, `paths` and
/// `modules`; lists are comma-separated (`--set tags=billing,stripe`), and an
/// empty value empties them.
///
/// The result is checked like every write: it must parse as a memory, keep
/// its id and status (use `approve`, `dismiss` or `supersede` for those),
/// and have no problems; secrets are redacted, and the file is written in
/// canonical form, atomically. A new `type` moves the file to that type's
/// directory. An invalid edit writes nothing and exits with status 2, naming
/// the field and line; an editor that exits with an error, or a file saved
/// unchanged, changes nothing.
#[derive(clap::Args, Debug)]
pub(crate) struct EditArgs {
    /// The memory to edit (id or unique prefix)
    id: String,
    /// Set a field without an editor (repeatable)
    #[arg(long = "set", value_name = "FIELD=VALUE")]
    set: Vec<String>,
}

/// The editor could not run, or gave up.
#[derive(Debug, thiserror::Error)]
enum EditorError {
    #[error("no editor: set `VISUAL` or `EDITOR`, or give the fields with `--set FIELD=VALUE`")]
    Unset,
    #[error("cannot run the editor `{0}`")]
    Spawn(String, #[source] std::io::Error),
    #[error("the editor `{0}` exited with {1}; nothing was changed")]
    Failed(String, std::process::ExitStatus),
    #[error("`--set {0}` has no `=`: give `FIELD=VALUE`")]
    Assignment(String),
}

pub(crate) fn run(
    ctx: &Context,
    args: &EditArgs,
    out: &mut Output<'_>,
) -> Result<ExitStatus, CliError> {
    let brain = super::open(ctx, out)?;
    let report = if args.set.is_empty() {
        edit_in_editor(ctx, &brain, &args.id)?
    } else {
        let assignments = args
            .set
            .iter()
            .map(|a| {
                a.split_once('=')
                    .map(|(f, v)| (f.trim().to_owned(), v.to_owned()))
                    .ok_or_else(|| CliError::user(EditorError::Assignment(a.clone())))
            })
            .collect::<Result<Vec<_>, _>>()?;
        brain.edit(&args.id, &EditInput::Set(assignments))?
    };
    super::warn_redactions(out, &report.redactions)?;
    out.emit(&report)?;
    Ok(ExitStatus::Success)
}

/// Opens the editor on a draft of the memory and writes what it saved,
/// unless unchanged. The draft is removed afterwards, whatever happened.
fn edit_in_editor(
    ctx: &Context,
    brain: &brain_core::Brain,
    query: &str,
) -> Result<EditReport, CliError> {
    let editor = ctx
        .editor()
        .ok_or_else(|| CliError::user(EditorError::Unset))?
        .to_owned();
    let draft = brain.edit_draft(query)?;
    let result = run_editor(&editor, &draft.draft).and_then(|()| {
        let edited = std::fs::read_to_string(&draft.draft).map_err(CliError::internal)?;
        if edited == draft.text {
            return Ok(EditReport {
                id: draft.id.clone(),
                path: draft.path.clone(),
                moved_from: None,
                changed: false,
                fields: Vec::new(),
                redactions: Vec::new(),
            });
        }
        Ok(brain.edit(draft.id.as_str(), &EditInput::Text(edited))?)
    });
    let _ = std::fs::remove_file(&draft.draft);
    result
}

/// Runs the editor on `file` and waits for it. Like git, the editor setting
/// is a shell command line ("code --wait"), with the file as its last
/// argument.
fn run_editor(editor: &str, file: &std::path::Path) -> Result<(), CliError> {
    let status = Command::new("sh")
        .arg("-c")
        .arg(format!("{editor} \"$@\""))
        .arg("sh")
        .arg(file)
        .status()
        .map_err(|e| CliError::user(EditorError::Spawn(editor.to_owned(), e)))?;
    if status.success() {
        Ok(())
    } else {
        Err(CliError::user(EditorError::Failed(
            editor.to_owned(),
            status,
        )))
    }
}
