//! The tools of `brain mcp`: their parameters, their output schemas and the
//! calls into the commands.
//!
//! Every result is bounded: token budgets and search limits are capped,
//! strings in the structured result are cut at [`MAX_STRING_CHARS`], the text
//! at [`MAX_TEXT_BYTES`], and a result still over [`MAX_RESULT_BYTES`] is an
//! error asking for a narrower call. What was cut is listed in `truncated`.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;
use std::sync::Arc;

use brain_core::capture::CaptureReport;
use brain_core::inject::{InjectReport, Layer};
use brain_core::model::{MemoryType, Status};
use brain_core::report::ShowReport;
use brain_core::route::RouteReport;
use brain_core::search::SearchReport;
use rmcp::model::{CallToolResult, ContentBlock, JsonObject, Tool, ToolAnnotations};
use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::commands::{capture, inject, route, search, show};
use crate::context::Context;
use crate::error::CliError;
use crate::output::{Explained, Format, Output, Render};

/// Largest token budget a context block is built with.
pub(crate) const MAX_BUDGET: usize = 8_000;
/// Most hits `brain_search` returns.
pub(crate) const MAX_SEARCH_LIMIT: usize = 50;
/// Longest string in a structured result, in characters.
const MAX_STRING_CHARS: usize = 16_384;
/// Longest text content, in bytes.
const MAX_TEXT_BYTES: usize = 64 * 1024;
/// Largest structured result, in bytes of JSON.
const MAX_RESULT_BYTES: usize = 1024 * 1024;
/// Most cut strings listed one by one.
const MAX_TRUNCATION_NOTES: usize = 20;

/// What every tool returns as `structuredContent`.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct ToolOutput<T> {
    /// The store's root directory (the one holding `.brain/`).
    root: String,
    /// The report, as the command's `--format json` prints it (see `schemas/output/`).
    result: T,
    /// Warnings the command gave (skipped files, ranking fallbacks).
    warnings: Vec<String>,
    /// What was cut or capped to keep the result bounded; empty when nothing was.
    truncated: Vec<String>,
}

/// `brain_status`: how many memories the store holds, by type and status.
#[derive(Debug, Serialize, JsonSchema)]
pub(crate) struct StatusReport {
    /// Memories in the store.
    pub(crate) memories: usize,
    /// Memories per type.
    pub(crate) by_type: BTreeMap<MemoryType, usize>,
    /// Memories per status.
    pub(crate) by_status: BTreeMap<Status, usize>,
    /// Memories and preferences waiting for review (status `candidate`).
    pub(crate) pending_candidates: usize,
    /// Preferences in the store.
    pub(crate) preferences: usize,
    /// Files that could not be read.
    pub(crate) invalid_files: usize,
}

/// How much of each memory a context block shows.
#[derive(Clone, Copy, Debug, Default, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
enum LayerParam {
    /// Title and id.
    Index,
    /// Plus summary and scope.
    #[default]
    Summary,
    /// Plus detail.
    Full,
}

/// Arguments of `brain_context`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct ContextParams {
    /// What the agent is about to do.
    task: Option<String>,
    /// Paths the task touches [default: the working tree's changes against HEAD].
    #[serde(default)]
    paths: Vec<String>,
    /// Modules the task touches.
    #[serde(default)]
    modules: Vec<String>,
    /// Memories to include whatever their score (ids or unique id prefixes).
    #[serde(default)]
    ids: Vec<String>,
    /// How much of each memory to show.
    #[serde(default)]
    layer: LayerParam,
    /// Token budget of the block [default: the store's `inject.budget_tokens`; at most 8000].
    budget: Option<usize>,
    /// A directory in the repository [default: the server's: its `-C`, else `CLAUDE_PROJECT_DIR`, else its working directory].
    repo: Option<String>,
}

/// Arguments of `brain_route`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct RouteParams {
    /// What the agent is about to do.
    task: Option<String>,
    /// Paths the task touches [default: the working tree's changes against HEAD].
    #[serde(default)]
    paths: Vec<String>,
    /// Modules the task touches.
    #[serde(default)]
    modules: Vec<String>,
    /// Token budget of the context block [default: the store's `inject.budget_tokens`; at most 8000].
    budget: Option<usize>,
    /// A directory in the repository [default: the server's: its `-C`, else `CLAUDE_PROJECT_DIR`, else its working directory].
    repo: Option<String>,
}

/// Arguments of `brain_search`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct SearchParams {
    /// What to look for.
    query: String,
    /// Only these types.
    #[serde(default)]
    types: Vec<MemoryType>,
    /// Only memories with all of these tags.
    #[serde(default)]
    tags: Vec<String>,
    /// Search every status, not only memories in force.
    #[serde(default)]
    all: bool,
    /// Most hits [default: 10; at most 50].
    limit: Option<usize>,
    /// A directory in the repository [default: the server's: its `-C`, else `CLAUDE_PROJECT_DIR`, else its working directory].
    repo: Option<String>,
}

/// Arguments of `brain_show`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct ShowParams {
    /// Id or unique id prefix.
    id: String,
    /// A directory in the repository [default: the server's: its `-C`, else `CLAUDE_PROJECT_DIR`, else its working directory].
    repo: Option<String>,
}

/// Arguments of `brain_capture`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct CaptureParams {
    /// What the session learned, in prose: decisions, gotchas, conventions.
    text: String,
    /// What the agent was asked to do.
    task: Option<String>,
    /// Files the session changed; bare file names in the text resolve against these.
    #[serde(default)]
    paths: Vec<String>,
    /// A commit whose changed files and diff size count as session facts.
    rev: Option<String>,
    /// The test run's summary ("3 failed → 43 passed").
    test_summary: Option<String>,
    /// Decide everything, write nothing.
    #[serde(default)]
    dry_run: bool,
    /// A directory in the repository [default: the server's: its `-C`, else `CLAUDE_PROJECT_DIR`, else its working directory].
    repo: Option<String>,
}

/// Arguments of `brain_status`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct StatusParams {
    /// A directory in the repository [default: the server's: its `-C`, else `CLAUDE_PROJECT_DIR`, else its working directory].
    repo: Option<String>,
}

/// The JSON Schema of `T` as an MCP schema object.
fn schema_object<T: JsonSchema>() -> Arc<JsonObject> {
    let schema = schemars::SchemaGenerator::default().into_root_schema_for::<T>();
    match serde_json::to_value(schema) {
        Ok(Value::Object(map)) => Arc::new(map),
        _ => unreachable!("a root schema is a JSON object"),
    }
}

fn tool<P: JsonSchema, O: JsonSchema>(
    name: &'static str,
    title: &str,
    description: &'static str,
    annotations: ToolAnnotations,
) -> Tool {
    let mut tool = Tool::new(name, description, schema_object::<P>());
    tool.title = Some(title.to_owned());
    tool.output_schema = Some(schema_object::<ToolOutput<O>>());
    tool.annotations = Some(annotations.open_world(false));
    tool
}

fn read_only(title: &str) -> ToolAnnotations {
    ToolAnnotations::with_title(title)
        .read_only(true)
        .destructive(false)
        .idempotent(true)
}

/// The tools, in a fixed order.
pub(super) fn list() -> Vec<Tool> {
    vec![
        tool::<ContextParams, InjectReport>(
            "brain_context",
            "Memories for a task",
            "Returns the memories relevant to a task as a Markdown block within a token \
             budget: the repository's decisions, gotchas, conventions and patterns that apply. \
             Call it before starting work. Reads the store; records the load in \
             .brain/runtime/ (no tracked file changes).",
            read_only("Memories for a task"),
        ),
        tool::<RouteParams, RouteReport>(
            "brain_route",
            "Plan and context for a task",
            "Plans which skills to run for a task (required, preferred, suppressed, blocked, \
             needs human review) from the store's memories, preferences and session profile, \
             with the context block of brain_context. Reads the store; records the load in \
             .brain/runtime/.",
            read_only("Plan and context for a task"),
        ),
        tool::<SearchParams, SearchReport>(
            "brain_search",
            "Search memories",
            "Searches memories by words and meaning; returns ranked hits with snippets. Only \
             memories in force unless `all` is set.",
            read_only("Search memories"),
        ),
        tool::<ShowParams, ShowReport>(
            "brain_show",
            "Show a memory",
            "Shows one memory in full, by id or unique id prefix (ids come from brain_search \
             and brain_context).",
            read_only("Show a memory"),
        ),
        tool::<CaptureParams, CaptureReport>(
            "brain_capture",
            "Propose memories",
            "Proposes what a session learned as candidate memories for a person to review: \
             splits the text into fragments, rejects chatter and action logs, and writes each \
             durable one as a candidate (never as active, whatever the store's capture mode). \
             Nothing that repeats a dismissed memory is written.",
            ToolAnnotations::with_title("Propose memories")
                .read_only(false)
                .destructive(false)
                .idempotent(false),
        ),
        tool::<StatusParams, StatusReport>(
            "brain_status",
            "Store status",
            "Counts the store's memories by type and status, and the candidates waiting for \
             review; names the store's root.",
            read_only("Store status"),
        ),
    ]
}

/// A tool's outcome before it is bounded: the report as JSON and what was
/// already capped.
struct Done {
    result: Value,
    truncated: Vec<String>,
}

/// Runs tool `name` with `arguments`; errors are tool results with
/// `isError` and a hint.
pub(super) fn call(base: &Context, name: &str, arguments: Value) -> CallToolResult {
    match name {
        "brain_context" => run(base, arguments, "brain_status checks the store", context),
        "brain_route" => run(base, arguments, "brain_status checks the store", route),
        "brain_search" => run(base, arguments, "brain_status checks the store", search),
        "brain_show" => run(base, arguments, "brain_search finds ids", show),
        "brain_capture" => run(
            base,
            arguments,
            "pass what the session learned as `text`",
            capture,
        ),
        "brain_status" => run(
            base,
            arguments,
            "pass `repo`, a directory inside the repository",
            status,
        ),
        _ => unreachable!("the server only calls listed tools"),
    }
}

/// Where a call's parameters name the repository.
trait Repo {
    fn repo(&self) -> Option<&str>;
}

macro_rules! repo {
    ($($t:ty),*) => {$(
        impl Repo for $t {
            fn repo(&self) -> Option<&str> {
                self.repo.as_deref()
            }
        }
    )*};
}
repo!(
    ContextParams,
    RouteParams,
    SearchParams,
    ShowParams,
    CaptureParams,
    StatusParams
);

/// The context of one call: the store of `repo`, else of `CLAUDE_PROJECT_DIR`
/// (unless `-C` was given), else the server's.
fn context_for(base: &Context, repo: Option<&str>) -> Result<Context, CliError> {
    match repo.filter(|r| !r.trim().is_empty()) {
        Some(dir) => base.for_dir(Path::new(dir)),
        None => match base.agent_project_dir() {
            Some(dir) => base.for_dir(dir),
            None => Ok(base.refreshed()),
        },
    }
}

fn run<P: DeserializeOwned + Repo>(
    base: &Context,
    arguments: Value,
    hint: &str,
    f: fn(&Context, &P, &mut Output<'_>) -> Result<Done, CliError>,
) -> CallToolResult {
    let params: P = match serde_json::from_value(arguments) {
        Ok(p) => p,
        Err(e) => {
            return failure(
                &format!("invalid arguments: {e}"),
                &["the tool's inputSchema lists its arguments".to_owned()],
            );
        }
    };
    let ctx = match context_for(base, params.repo()) {
        Ok(ctx) => ctx,
        Err(e) => return cli_failure(&e, hint),
    };
    let mut text = Vec::new();
    let mut warnings = Vec::new();
    let done = {
        let mut out = Output::new(Format::Text, true, &mut text, &mut warnings);
        f(&ctx, &params, &mut out)
    };
    let done = match done {
        Ok(done) => done,
        Err(e) => return cli_failure(&e, hint),
    };
    let warnings: Vec<String> = String::from_utf8_lossy(&warnings)
        .lines()
        .map(|l| l.strip_prefix("warning: ").unwrap_or(l).to_owned())
        .collect();
    let mut truncated = done.truncated;
    let mut result = done.result;
    let mut cut = Vec::new();
    cut_strings(&mut result, "result", &mut cut);
    let more = cut.len().saturating_sub(MAX_TRUNCATION_NOTES);
    truncated.extend(
        cut.into_iter()
            .take(MAX_TRUNCATION_NOTES)
            .map(|path| format!("`{path}` cut at {MAX_STRING_CHARS} characters")),
    );
    if more > 0 {
        truncated.push(format!(
            "{more} more strings cut at {MAX_STRING_CHARS} characters"
        ));
    }
    let mut text = String::from_utf8_lossy(&text).into_owned();
    for w in &warnings {
        let _ = writeln!(text, "warning: {w}");
    }
    if text.len() > MAX_TEXT_BYTES {
        let mut end = MAX_TEXT_BYTES;
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        text.truncate(end);
        text.push_str("\n[… cut; the structured result has the rest]\n");
        truncated.push(format!("text content cut at {MAX_TEXT_BYTES} bytes"));
    }
    let output = ToolOutput {
        root: ctx.root().display().to_string(),
        result,
        warnings,
        truncated,
    };
    let structured = serde_json::to_value(&output).expect("a JSON value serialises");
    let size = structured.to_string().len();
    if size > MAX_RESULT_BYTES {
        return failure(
            &format!("the result is {size} bytes, over the limit of {MAX_RESULT_BYTES}"),
            &["narrow the call: a smaller `limit`, `budget` or layer".to_owned()],
        );
    }
    let mut result = CallToolResult::success(vec![ContentBlock::text(text)]);
    result.structured_content = Some(structured);
    result
}

/// Cuts every string in `value` longer than [`MAX_STRING_CHARS`], noting
/// where.
fn cut_strings(value: &mut Value, path: &str, cut: &mut Vec<String>) {
    match value {
        Value::String(s) => {
            if let Some((end, _)) = s.char_indices().nth(MAX_STRING_CHARS) {
                s.truncate(end);
                s.push_str(" […]");
                cut.push(path.to_owned());
            }
        }
        Value::Array(items) => {
            for (i, item) in items.iter_mut().enumerate() {
                cut_strings(item, &format!("{path}[{i}]"), cut);
            }
        }
        Value::Object(map) => {
            for (k, v) in map.iter_mut() {
                cut_strings(v, &format!("{path}.{k}"), cut);
            }
        }
        _ => {}
    }
}

/// A failed call: the message, and hints.
fn failure(message: &str, hints: &[String]) -> CallToolResult {
    let mut text = format!("error: {message}\n");
    for h in hints {
        let _ = writeln!(text, "hint: {h}");
    }
    CallToolResult::error(vec![ContentBlock::text(text)])
}

/// A failed command, with its cause chain and hints (or `hint` when it has none).
fn cli_failure(err: &CliError, hint: &str) -> CallToolResult {
    let chain = err.chain();
    let mut message = chain[0].clone();
    for cause in &chain[1..] {
        let _ = write!(message, "\n  caused by: {cause}");
    }
    let hints = if err.hints.is_empty() {
        vec![hint.to_owned()]
    } else {
        err.hints.clone()
    };
    failure(&message, &hints)
}

/// Renders `report` as text on `out` and returns it as JSON.
fn finish<T: Serialize + Render>(
    report: &T,
    out: &mut Output<'_>,
    truncated: Vec<String>,
) -> Result<Done, CliError> {
    out.emit(report)?;
    let result = serde_json::to_value(report).map_err(CliError::internal)?;
    Ok(Done { result, truncated })
}

/// Caps a requested budget at [`MAX_BUDGET`].
fn cap_budget(budget: Option<usize>, truncated: &mut Vec<String>) -> Option<usize> {
    match budget {
        Some(b) if b > MAX_BUDGET => {
            truncated.push(format!("budget capped at {MAX_BUDGET} tokens"));
            Some(MAX_BUDGET)
        }
        b => b,
    }
}

fn context(ctx: &Context, p: &ContextParams, out: &mut Output<'_>) -> Result<Done, CliError> {
    let mut truncated = Vec::new();
    let query = inject::Query {
        task: p.task.as_deref(),
        paths: &p.paths,
        modules: &p.modules,
        ids: &p.ids,
        layer: match p.layer {
            LayerParam::Index => Layer::Index,
            LayerParam::Summary => Layer::Summary,
            LayerParam::Full => Layer::Full,
        },
        budget: cap_budget(p.budget, &mut truncated),
    };
    let report = inject::report(ctx, &query, out)?;
    let explained = Explained {
        report: &report,
        explain: false,
    };
    finish(&explained, out, truncated)
}

fn route(ctx: &Context, p: &RouteParams, out: &mut Output<'_>) -> Result<Done, CliError> {
    let mut truncated = Vec::new();
    let budget = cap_budget(p.budget, &mut truncated);
    let report = route::report(ctx, p.task.as_deref(), &p.paths, &p.modules, budget, out)?;
    finish(&report, out, truncated)
}

fn search(ctx: &Context, p: &SearchParams, out: &mut Output<'_>) -> Result<Done, CliError> {
    let mut truncated = Vec::new();
    let limit = match p.limit {
        Some(l) if l > MAX_SEARCH_LIMIT => {
            truncated.push(format!("limit capped at {MAX_SEARCH_LIMIT} hits"));
            MAX_SEARCH_LIMIT
        }
        Some(l) => l,
        None => 10,
    };
    let request = brain_core::search::Request {
        query: &p.query,
        types: &p.types,
        tags: &p.tags,
        statuses: &[],
        all: p.all,
        limit,
        mode: brain_core::search::Mode::Hybrid,
        embedding: None,
    };
    let report = search::report(ctx, &request, out)?;
    finish(&report, out, truncated)
}

fn show(ctx: &Context, p: &ShowParams, out: &mut Output<'_>) -> Result<Done, CliError> {
    let report = show::report(ctx, &p.id, out)?;
    finish(&report, out, Vec::new())
}

fn capture(ctx: &Context, p: &CaptureParams, out: &mut Output<'_>) -> Result<Done, CliError> {
    let session = capture::SessionArgs {
        task: p.task.clone(),
        paths: p.paths.clone(),
        rev: p.rev.clone(),
        test_summary: p.test_summary.clone(),
    };
    let report = capture::report(
        ctx,
        &capture::Input {
            text: &p.text,
            session: &session,
            task: None,
            force: false,
            dry_run: p.dry_run,
            explain: false,
            candidates_only: true,
        },
        out,
    )?;
    crate::commands::warn_redactions(out, &report.redactions)?;
    finish(&report, out, Vec::new())
}

fn status(ctx: &Context, _p: &StatusParams, out: &mut Output<'_>) -> Result<Done, CliError> {
    let brain = crate::commands::open(ctx, out)?;
    let catalog = crate::commands::load(&brain, out)?;
    let stats = brain.stats(&catalog);
    let pending = |by: &BTreeMap<Status, usize>| by.get(&Status::Candidate).copied().unwrap_or(0);
    let report = StatusReport {
        memories: stats.memories,
        pending_candidates: pending(&stats.by_status) + pending(&stats.preferences_by_status),
        by_type: stats.by_type,
        by_status: stats.by_status,
        preferences: stats.preferences,
        invalid_files: stats.invalid_files,
    };
    finish(&report, out, Vec::new())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_strings_are_cut_where_they_are_and_noted() {
        let long = "é".repeat(MAX_STRING_CHARS + 5);
        let mut value = serde_json::json!({"memory": {"detail": long, "tags": ["short"]}});
        let mut cut = Vec::new();
        cut_strings(&mut value, "result", &mut cut);
        assert_eq!(cut, ["result.memory.detail"]);
        let detail = value["memory"]["detail"].as_str().unwrap();
        assert!(detail.ends_with(" […]"));
        assert_eq!(
            detail.chars().count(),
            MAX_STRING_CHARS + " […]".chars().count()
        );
        assert_eq!(value["memory"]["tags"][0], "short");
    }

    #[test]
    fn every_output_schema_is_an_object_schema() {
        for tool in list() {
            let schema = tool.output_schema.expect("every tool declares one");
            assert_eq!(schema["type"], "object", "{}", tool.name);
            assert_eq!(
                schema["required"],
                serde_json::json!(["root", "result", "warnings", "truncated"]),
                "{}",
                tool.name
            );
        }
    }
}
