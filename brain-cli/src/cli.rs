//! The argument structs: global flags and the command enum.

use std::path::PathBuf;

use clap::{Args, Parser};

use crate::commands::Command;
use crate::output::Format;

/// Git-native repository memory for coding agents
///
/// Keeps decisions, gotchas, conventions, patterns, goals and working notes as
/// reviewable YAML files under `.brain/`.
///
/// Exit status: 0 success, 1 findings (lint problems, files not canonical),
/// 2 usage or input error, 3 internal error.
#[derive(Parser, Debug)]
#[command(name = "brain", version, max_term_width = 100)]
pub(crate) struct Cli {
    #[command(flatten)]
    pub(crate) global: GlobalArgs,
    #[command(subcommand)]
    pub(crate) command: Command,
}

/// Flags every command takes.
#[derive(Args, Debug)]
pub(crate) struct GlobalArgs {
    /// Output format of the command's data on stdout
    #[arg(long, global = true, value_enum, default_value_t = Format::Text, help_heading = "Global options")]
    pub(crate) format: Format,
    /// Directory containing `.brain/` [default: the nearest one at or above the
    /// working directory, else the git repository's root]
    #[arg(
        short = 'C',
        long = "root",
        global = true,
        value_name = "DIR",
        help_heading = "Global options"
    )]
    pub(crate) root: Option<PathBuf>,
    /// Silence status messages on stderr (warnings and errors are still shown)
    #[arg(short, long, global = true, help_heading = "Global options")]
    pub(crate) quiet: bool,
}
