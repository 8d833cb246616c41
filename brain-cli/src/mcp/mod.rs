//! `brain mcp`: the store's read and capture commands as MCP tools over stdio.
//!
//! Built on the official Rust SDK (`rmcp`) with brain's own line transport
//! ([`transport`]), on a current-thread tokio runtime. stdout carries MCP
//! messages and nothing else: they are queued on a channel and written by
//! [`serve`] alone; logs go to stderr. The server stops at the end of stdin.
//!
//! Every tool calls the same function as its command (`brain inject`,
//! `route`, `search`, `show`, `capture`), with a fresh [`Context`] per call:
//! the store named by the call's `repo`, else `-C`, else
//! `CLAUDE_PROJECT_DIR`, else the working directory's. There is no approve
//! tool: approving memories stays a human step (`brain approve`).

use std::io::{self, Write};

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, Implementation, InitializeResult, ListToolsResult,
    PaginatedRequestParams, ServerCapabilities, Tool,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler, ServiceExt};

use crate::context::Context;
use crate::error::CliError;

mod tools;
mod transport;

pub(crate) use tools::StatusReport;

/// What the server tells a client about itself at the handshake.
const INSTRUCTIONS: &str = "brain is this repository's reviewed memory: decisions, \
gotchas, conventions, patterns, goals and working notes. Call brain_context (or \
brain_route, which also plans which skills to run) with the task before starting \
work; brain_search and brain_show look things up; brain_capture proposes what a \
session learned as candidates that a person reviews.";

/// Writes one log line to stderr; never to stdout, which belongs to MCP.
pub(crate) fn log(msg: std::fmt::Arguments<'_>) {
    let _ = writeln!(io::stderr(), "brain mcp: {msg}");
}

#[derive(Debug, thiserror::Error)]
#[error("the MCP server stopped: {0}")]
struct Stopped(String);

/// Serves MCP on stdin and `stdout` until stdin ends.
pub(crate) fn serve(ctx: &Context, stdout: &mut dyn Write) -> Result<(), CliError> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(CliError::internal)?;
    let server = Server {
        base: ctx.clone(),
        tools: tools::list(),
    };
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel::<Vec<u8>>();
    let transport = transport::LineTransport::new(tokio::io::stdin(), tx);
    log(format_args!("serving {} on stdio", ctx.root().display()));
    let result = runtime.block_on(async move {
        let service = async move {
            match server.serve(transport).await {
                Ok(running) => running
                    .waiting()
                    .await
                    .map(drop)
                    .map_err(|e| Stopped(e.to_string())),
                // The client left before the handshake: nothing went wrong.
                Err(rmcp::service::ServerInitializeError::ConnectionClosed(_)) => Ok(()),
                Err(e) => Err(Stopped(e.to_string())),
            }
        };
        // The only writer of stdout. The channel closes when the transport,
        // and with it the service, is gone.
        let writer = async move {
            while let Some(bytes) = rx.recv().await {
                stdout.write_all(&bytes)?;
                stdout.flush()?;
            }
            Ok::<(), io::Error>(())
        };
        let (stopped, written) = tokio::join!(service, writer);
        written.map_err(CliError::from)?;
        stopped.map_err(CliError::internal)
    });
    // A blocked read of stdin must not keep the process alive.
    runtime.shutdown_background();
    log(format_args!("stdin closed; exiting"));
    result
}

/// The MCP server: the environment `brain mcp` started in and its tools.
#[derive(Debug)]
struct Server {
    base: Context,
    tools: Vec<Tool>,
}

impl ServerHandler for Server {
    fn get_info(&self) -> InitializeResult {
        InitializeResult::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(
                Implementation::new("brain", env!("CARGO_PKG_VERSION"))
                    .with_title("brain: repository memory"),
            )
            .with_instructions(INSTRUCTIONS)
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(self.tools.clone()))
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        self.tools.iter().find(|t| t.name == name).cloned()
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        if !self.tools.iter().any(|t| t.name == request.name) {
            return Err(ErrorData::invalid_params(
                format!("unknown tool `{}`", request.name),
                None,
            ));
        }
        let arguments = serde_json::Value::Object(request.arguments.unwrap_or_default());
        Ok(tools::call(&self.base, &request.name, arguments).into())
    }
}
