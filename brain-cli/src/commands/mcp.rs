//! `brain mcp`: serve the store to coding agents over MCP.

use crate::context::Context;
use crate::error::{CliError, ExitStatus};
use crate::output::Output;

/// Serve the store to coding agents as an MCP server on stdio
///
/// Speaks the Model Context Protocol on stdin and stdout (newline-delimited
/// JSON-RPC; protocol revisions 2024-11-05 to 2025-11-25 with the
/// `initialize` handshake, and 2026-07-28 without it) until stdin ends, then
/// exits 0. stdout carries protocol messages only; logs go to stderr.
///
/// Tools: `brain_context` (the block of `brain inject`), `brain_route`,
/// `brain_search`, `brain_show`, `brain_capture` (writes candidates only,
/// whatever the capture mode) and `brain_status`. Each returns the command's
/// JSON report as structured content, bounded in size. There is no approve
/// tool: approval stays with people (`brain approve`).
///
/// Each call works on the store of its `repo` argument, else the root given
/// with `-C`, else `CLAUDE_PROJECT_DIR`, else the working directory's.
///
/// Connect Claude Code with `claude mcp add brain -- brain mcp`.
#[derive(clap::Args, Debug)]
pub(crate) struct McpArgs {}

pub(crate) fn run(
    ctx: &Context,
    _args: &McpArgs,
    out: &mut Output<'_>,
) -> Result<ExitStatus, CliError> {
    crate::mcp::serve(ctx, out.protocol_writer())?;
    Ok(ExitStatus::Success)
}
