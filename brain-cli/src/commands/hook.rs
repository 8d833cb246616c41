//! `brain hook <event>`: the adapter every agent's hook system calls.
//!
//! The hook never blocks or fails the agent: it always exits 0, prints
//! nothing or exactly one JSON object, and gives up (printing nothing) when
//! its work misses the deadline. The work runs on its own thread; the main
//! thread waits at most [`DEADLINE`] ([`CLOSING_DEADLINE`] when the agent is
//! compacting or ending the session) and returns, which ends the process.

use std::io::Read as _;
use std::sync::mpsc;
use std::time::Duration;

use brain_core::hook::{self, Agent, Event, Kind};
use brain_core::inject::{Layer, PathSource, Request};

use crate::context::Context;
use crate::error::{CliError, ExitStatus};
use crate::output::{Format, Output};

/// How long the hook may take.
const DEADLINE: Duration = Duration::from_secs(2);
/// How long the hook may take while the agent compacts or closes.
const CLOSING_DEADLINE: Duration = Duration::from_secs(1);

/// Answer an agent's hook event: context in, never a blocked agent
///
/// Reads the event JSON on stdin (at most 1 MiB) in the dialect of Claude
/// Code, Codex, Cursor, GitHub Copilot or Gemini CLI (detected unless
/// `--agent` says), and prints nothing or exactly one JSON object in that
/// agent's output shape. Always exits 0; gives up silently after 2 s (1 s
/// at compaction and session end); ignores a repeat of the same event
/// within 5 s.
///
/// Events: `session-start` (also after compaction) → the always-on index;
/// `prompt` → the memories relevant to the prompt, above the threshold and
/// not yet shown this session; `file` (a tool read or edited a file) → the
/// memories scoped to that path, once per file per session; `turn-end` →
/// recorded only; `pre-compact` and `session-end` → the transcript is
/// captured as candidates in the background. The agents' own event names
/// (`SessionStart`, `userPromptSubmitted`, `afterFileEdit`, `AfterTool`, …)
/// are accepted too. Session state lives in `.brain/runtime/hooks/`
/// (git-ignored); no tracked file changes.
#[derive(clap::Args, Debug, Clone)]
pub(crate) struct HookArgs {
    /// The event: session-start, prompt, file, turn-end, pre-compact,
    /// session-end, or the agent's own name for it
    event: String,
    /// Whose dialect the event is in
    #[arg(long, value_enum, default_value = "auto")]
    agent: AgentArg,
}

#[derive(Clone, Copy, Debug, clap::ValueEnum)]
enum AgentArg {
    /// Detect from the payload
    Auto,
    /// Claude Code
    Claude,
    /// Codex CLI
    Codex,
    /// Cursor
    Cursor,
    /// GitHub Copilot
    Copilot,
    /// Gemini CLI
    Gemini,
}

impl AgentArg {
    fn agent(self) -> Option<Agent> {
        match self {
            AgentArg::Auto => None,
            AgentArg::Claude => Some(Agent::Claude),
            AgentArg::Codex => Some(Agent::Codex),
            AgentArg::Cursor => Some(Agent::Cursor),
            AgentArg::Copilot => Some(Agent::Copilot),
            AgentArg::Gemini => Some(Agent::Gemini),
        }
    }
}

pub(crate) fn run(
    ctx: &Context,
    args: &HookArgs,
    out: &mut Output<'_>,
) -> Result<ExitStatus, CliError> {
    let deadline = match Kind::from_name(&args.event) {
        Some(k) if k.is_closing() => CLOSING_DEADLINE,
        _ => DEADLINE,
    };
    let (tx, rx) = mpsc::channel();
    let (ctx, args) = (ctx.clone(), args.clone());
    // Not joined: when the deadline passes, returning ends the process and
    // the thread with it.
    let spawned = std::thread::Builder::new()
        .name("hook".to_owned())
        .spawn(move || {
            let _ = tx.send(answer(&ctx, &args));
        });
    if spawned.is_err() {
        return Ok(ExitStatus::Success);
    }
    match rx.recv_timeout(deadline) {
        Ok(Ok(Some(json))) => out.data_line(&json)?,
        Ok(Ok(None)) => {}
        Ok(Err(problem)) => out.warn(format_args!("brain hook: {problem}"))?,
        Err(_) => out.warn("brain hook: deadline passed; nothing injected")?,
    }
    Ok(ExitStatus::Success)
}

/// The hook's work: the line to print, if any, or why there is none.
fn answer(ctx: &Context, args: &HookArgs) -> Result<Option<String>, String> {
    let mut bytes = Vec::new();
    std::io::stdin()
        .lock()
        .take(hook::MAX_INPUT as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read stdin: {e}"))?;
    if bytes.len() > hook::MAX_INPUT {
        return Err("the event is larger than 1 MiB; ignored".to_owned());
    }
    let text = String::from_utf8_lossy(&bytes);
    let payload: serde_json::Value = if text.trim().is_empty() {
        serde_json::Value::Null
    } else {
        serde_json::from_str(&text).map_err(|e| format!("the event is not JSON: {e}"))?
    };
    let root = ctx
        .root()
        .canonicalize()
        .unwrap_or_else(|_| ctx.root().to_path_buf());
    let Some(event) = hook::parse(
        &args.event,
        &payload,
        args.agent.agent(),
        &root.to_string_lossy(),
        &ctx.cwd().to_string_lossy(),
    ) else {
        return Err(format!("unknown event `{}`", args.event));
    };
    // No store: nothing to say, and nothing to complain about.
    let Ok(brain) = brain_core::Brain::open(ctx.root()) else {
        return Ok(None);
    };
    let store = brain.store();
    if !store.claim_hook_event(&event.repeat_key(), ctx.now(), hook::REPEAT_WINDOW_SECONDS) {
        return Ok(None);
    }
    let mut session = store.read_hook_session(&event.session);
    session.last = Some(ctx.now());
    let context = match event.kind {
        Kind::SessionStart => {
            if event.context_lost() {
                session.forget_shown();
            }
            block(ctx, &brain, &event, &mut session, None, &[])?
        }
        Kind::Prompt => match event.prompt.as_deref().filter(|p| !p.trim().is_empty()) {
            Some(prompt) => block(ctx, &brain, &event, &mut session, Some(prompt), &[])?,
            None => None,
        },
        Kind::File => match &event.path {
            Some(path) if session.record_file(path) => block(
                ctx,
                &brain,
                &event,
                &mut session,
                None,
                std::slice::from_ref(path),
            )?,
            _ => None,
        },
        Kind::TurnEnd => {
            session.turns += 1;
            None
        }
        Kind::PreCompact | Kind::SessionEnd => {
            if let Some(t) = &event.transcript {
                super::capture::spawn_detached(ctx, std::path::Path::new(t))
                    .map_err(|e| format!("cannot start the capture: {e}"))?;
            }
            None
        }
    };
    store
        .write_hook_session(&event.session, &session)
        .map_err(|e| format!("cannot save the session state: {e}"))?;
    let value = match context {
        Some(c) => hook::render(&event, &c),
        None => None,
    }
    .or_else(|| hook::render_empty(&event));
    Ok(value.map(|v| v.to_string()))
}

/// The context block for the event, leaving out what the session was
/// shown; `None` when no memory is left to show.
fn block(
    ctx: &Context,
    brain: &brain_core::Brain,
    event: &Event,
    session: &mut hook::HookSession,
    task: Option<&str>,
    paths: &[String],
) -> Result<Option<String>, String> {
    let (mut sink_out, mut sink_err) = (std::io::sink(), std::io::sink());
    let mut quiet = Output::new(Format::Text, true, &mut sink_out, &mut sink_err);
    let terms = brain_core::inject::rank::query_terms(task, paths);
    let store_index =
        super::load_index(brain, &terms, &mut quiet).map_err(|e| e.chain().join(": "))?;
    let index = &store_index.index;
    let pool: Vec<usize> = (0..index.docs.len())
        .filter(|&i| index.docs[i].in_pool(ctx.now()))
        .collect();
    let vectors = super::vectors_for(ctx, brain, index, &pool, task, &mut quiet)
        .map_err(|e| e.chain().join(": "))?;
    let config = &brain.store().config().inject;
    let request = Request {
        task,
        paths,
        path_source: if paths.is_empty() {
            PathSource::None
        } else {
            PathSource::Explicit
        },
        paths_omitted: 0,
        modules: &[],
        ids: &[],
        layer: if event.kind == Kind::SessionStart {
            Layer::Index
        } else {
            Layer::Summary
        },
        budget: config.budget_tokens as usize,
        embedding: vectors.query.as_deref(),
        tuning: config.tuning(),
    };
    let selection = brain.hook_context(
        index,
        &request,
        ctx.now(),
        vectors.similarities.as_deref(),
        &session.shown,
        event.kind == Kind::File,
    );
    if selection.selected.is_empty() {
        return Ok(None);
    }
    session.record_shown(selection.selected.iter().map(|s| s.id.clone()));
    Ok(Some(selection.block))
}
