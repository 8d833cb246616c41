//! Agent hooks (`brain hook <event>`): one adapter for the hook systems of
//! Claude Code, Codex, Cursor, GitHub Copilot and Gemini CLI.
//!
//! Every agent hands a hook its event as a JSON object on stdin, each in its
//! own dialect (`snake_case` or `camelCase` fields, `session_id`,
//! `conversation_id` or `sessionId`, `tool_input.file_path` or a top-level
//! `file_path`). [`parse`] reads any of them into one [`Event`];
//! [`render`] writes the context back in the shape the agent reads, or
//! nothing where the agent cannot take context for that event.
//!
//! What each event gets:
//!
//! | event | context |
//! | --- | --- |
//! | session start (also after compaction or `/clear`) | the always-on index |
//! | prompt | the memories relevant to the prompt, above the threshold, not yet shown this session |
//! | file read or edited | the memories scoped to that path, once per file per session |
//! | turn end | none: recorded only |
//! | pre-compaction, session end | none: the transcript is captured as candidates, in the background |
//!
//! This module is pure: the per-session state ([`HookSession`]) is read and
//! written by `store`, the process work (stdin, deadline, spawning the
//! capture) is the CLI's. [`crate::Brain::hook_context`] builds a block that
//! leaves out what the session has already seen.

use std::collections::{BTreeSet, HashMap};

use jiff::Timestamp;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

use crate::inject::index::Index;
use crate::inject::{Request, Selection, pack, rank_request};
use crate::matching::{Glob, repo_relative};
use crate::model::MemoryId;

/// Largest event payload read from stdin.
pub const MAX_INPUT: usize = 1 << 20;
/// A second run of the same event within this many seconds is a repeat
/// (Copilot CLI runs the hooks of `.claude/settings.json` besides its own).
pub const REPEAT_WINDOW_SECONDS: i64 = 5;
/// Most memory ids remembered as shown in one session.
pub const MAX_SHOWN: usize = 500;
/// Most memories shown for one file.
pub const MAX_FILE_MEMORIES: usize = 5;
/// Most files remembered as seen in one session.
pub const MAX_FILES: usize = 1000;

/// An agent with a hook system.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Agent {
    /// Claude Code (`.claude/settings.json`).
    Claude,
    /// `OpenAI` Codex CLI (`.codex/hooks.json`).
    Codex,
    /// Cursor (`.cursor/hooks.json`).
    Cursor,
    /// GitHub Copilot CLI and cloud agent (`.github/hooks/*.json`).
    Copilot,
    /// Gemini CLI (`.gemini/settings.json`).
    Gemini,
}

impl Agent {
    /// Every agent, in the order `brain setup` lists them.
    pub const ALL: [Agent; 5] = [
        Agent::Claude,
        Agent::Codex,
        Agent::Cursor,
        Agent::Copilot,
        Agent::Gemini,
    ];

    /// The name on the command line: `claude`, `codex`, …
    pub fn name(self) -> &'static str {
        match self {
            Agent::Claude => "claude",
            Agent::Codex => "codex",
            Agent::Cursor => "cursor",
            Agent::Copilot => "copilot",
            Agent::Gemini => "gemini",
        }
    }

    /// The agent named `name`.
    pub fn from_name(name: &str) -> Option<Agent> {
        Agent::ALL.into_iter().find(|a| a.name() == name)
    }
}

/// What happened, whatever the agent called it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Kind {
    /// A session started, resumed, or its context was compacted or cleared.
    SessionStart,
    /// The user submitted a prompt.
    Prompt,
    /// A tool read or edited a file.
    File,
    /// The agent finished a turn.
    TurnEnd,
    /// The context is about to be compacted.
    PreCompact,
    /// The session ended.
    SessionEnd,
}

impl Kind {
    /// Every kind.
    pub const ALL: [Kind; 6] = [
        Kind::SessionStart,
        Kind::Prompt,
        Kind::File,
        Kind::TurnEnd,
        Kind::PreCompact,
        Kind::SessionEnd,
    ];

    /// The event's name on brain's command line: `session-start`, …
    pub fn name(self) -> &'static str {
        match self {
            Kind::SessionStart => "session-start",
            Kind::Prompt => "prompt",
            Kind::File => "file",
            Kind::TurnEnd => "turn-end",
            Kind::PreCompact => "pre-compact",
            Kind::SessionEnd => "session-end",
        }
    }

    /// The kind of an event named on the command line: brain's own name or
    /// any agent's (`SessionStart`, `userPromptSubmitted`,
    /// `beforeSubmitPrompt`, `BeforeAgent`, `afterFileEdit`, `AfterTool`,
    /// `PreCompress`, …), without regard to case.
    pub fn from_name(name: &str) -> Option<Kind> {
        let n = name.to_ascii_lowercase().replace(['-', '_'], "");
        Some(match n.as_str() {
            "sessionstart" => Kind::SessionStart,
            "prompt"
            | "userpromptsubmit"
            | "userpromptsubmitted"
            | "beforesubmitprompt"
            | "beforeagent" => Kind::Prompt,
            "file" | "pretooluse" | "posttooluse" | "beforetool" | "aftertool"
            | "afterfileedit" | "beforereadfile" => Kind::File,
            "turnend" | "stop" | "agentstop" | "afteragent" => Kind::TurnEnd,
            "precompact" | "precompress" => Kind::PreCompact,
            "sessionend" => Kind::SessionEnd,
            _ => return None,
        })
    }

    /// Whether the work must finish within the short deadline: the agent
    /// is closing and waits for nothing.
    pub fn is_closing(self) -> bool {
        matches!(self, Kind::PreCompact | Kind::SessionEnd)
    }
}

/// One event, normalised.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Event {
    /// The agent whose dialect the payload is in.
    pub agent: Agent,
    /// What happened.
    pub kind: Kind,
    /// The agent's own name for it, when the payload gives one
    /// (`hook_event_name`), else the name on the command line.
    pub native: String,
    /// The agent's session id (`session_id`, `sessionId`,
    /// `conversation_id`); empty when absent.
    pub session: String,
    /// The working directory the agent reports (`cwd`, else the first of
    /// `workspace_roots`), with `/` separators.
    pub cwd: Option<String>,
    /// The prompt, for [`Kind::Prompt`].
    pub prompt: Option<String>,
    /// The file read or edited, relative to the repository root, for
    /// [`Kind::File`]; `None` when the tool named none or one outside.
    pub path: Option<String>,
    /// The transcript file, as the agent named it.
    pub transcript: Option<String>,
    /// How the session started (`startup`, `resume`, `compact`, `clear`).
    pub source: Option<String>,
}

impl Event {
    /// Whether a session start follows a compaction or `/clear`: the
    /// context the session was shown is gone, so it may be shown again.
    pub fn context_lost(&self) -> bool {
        self.kind == Kind::SessionStart
            && matches!(self.source.as_deref(), Some("compact" | "clear"))
    }

    /// The key two runs of one event share: the kind, the session and what
    /// the event is about. Copilot CLI runs its own hooks and Claude Code's
    /// for one event; the second run finds the key taken.
    pub fn repeat_key(&self) -> String {
        let about = match self.kind {
            Kind::Prompt => self.prompt.clone().unwrap_or_default(),
            Kind::File => self.path.clone().unwrap_or_default(),
            Kind::SessionStart => self.source.clone().unwrap_or_default(),
            _ => self.transcript.clone().unwrap_or_default(),
        };
        format!("{}\u{1f}{}\u{1f}{about}", self.kind.name(), self.session)
    }
}

/// The agent whose dialect `payload` is in, by the fields only one agent
/// sends; Claude Code when nothing tells (Codex sends the same shape).
pub fn detect(payload: &Value) -> Agent {
    let has = |k: &str| payload.get(k).is_some();
    if has("conversation_id") || has("workspace_roots") || has("cursor_version") {
        return Agent::Cursor;
    }
    if has("sessionId") || has("toolName") || has("toolArgs") {
        return Agent::Copilot;
    }
    let event = str_field(payload, &["hook_event_name"]).unwrap_or_default();
    if matches!(
        event,
        "BeforeAgent"
            | "AfterAgent"
            | "BeforeTool"
            | "AfterTool"
            | "PreCompress"
            | "BeforeModel"
            | "AfterModel"
            | "BeforeToolSelection"
    ) {
        return Agent::Gemini;
    }
    let transcript = str_field(payload, &["transcript_path"]).unwrap_or_default();
    let transcript = transcript.replace('\\', "/");
    if transcript.contains("/.gemini/") {
        return Agent::Gemini;
    }
    if transcript.contains("/.codex/") || transcript.contains("/rollout-") || has("turn_id") {
        return Agent::Codex;
    }
    // Copilot's VS Code-compatible payloads: snake_case, no transcript for
    // a session start, an ISO timestamp.
    if payload.get("timestamp").is_some_and(Value::is_string) && !has("transcript_path") {
        return Agent::Copilot;
    }
    Agent::Claude
}

/// Reads an event: `name` is the event as given on the command line,
/// `payload` the JSON on stdin (`Value::Null` when empty), `agent` the
/// agent when given (else detected), `root` the repository root and
/// `process_cwd` the hook's own working directory (both absolute). `None`
/// when `name` is no event brain knows.
pub fn parse(
    name: &str,
    payload: &Value,
    agent: Option<Agent>,
    root: &str,
    process_cwd: &str,
) -> Option<Event> {
    let agent = agent.unwrap_or_else(|| detect(payload));
    let native = str_field(payload, &["hook_event_name", "hookEventName"])
        .unwrap_or(name)
        .to_owned();
    let kind = Kind::from_name(name).or_else(|| Kind::from_name(&native))?;
    let cwd = str_field(payload, &["cwd", "workingDirectory"])
        .map(str::to_owned)
        .or_else(|| {
            payload
                .get("workspace_roots")
                .and_then(Value::as_array)
                .and_then(|r| r.first())
                .and_then(Value::as_str)
                .map(str::to_owned)
        })
        .map(|c| c.replace('\\', "/"));
    let path = (kind == Kind::File)
        .then(|| tool_path(payload))
        .flatten()
        .and_then(|p| relative(&p, root, cwd.as_deref(), process_cwd));
    Some(Event {
        agent,
        kind,
        native,
        session: str_field(payload, &["session_id", "sessionId", "conversation_id"])
            .unwrap_or_default()
            .to_owned(),
        cwd,
        prompt: (kind == Kind::Prompt)
            .then(|| str_field(payload, &["prompt", "user_prompt"]).map(str::to_owned))
            .flatten(),
        path,
        transcript: str_field(payload, &["transcript_path", "transcriptPath"])
            .filter(|t| !t.trim().is_empty())
            .map(str::to_owned),
        source: str_field(payload, &["source", "trigger"]).map(str::to_owned),
    })
}

/// The first of `keys` that holds a string.
fn str_field<'a>(payload: &'a Value, keys: &[&str]) -> Option<&'a str> {
    keys.iter()
        .find_map(|k| payload.get(*k).and_then(Value::as_str))
}

/// The file a tool call names: `tool_input` (Claude Code, Codex, Gemini,
/// Copilot's VS Code format), `toolArgs` (Copilot; an object or a JSON
/// string) or a top-level `file_path` (Cursor).
fn tool_path(payload: &Value) -> Option<String> {
    const KEYS: [&str; 5] = [
        "file_path",
        "path",
        "absolute_path",
        "notebook_path",
        "filePath",
    ];
    let from = |v: &Value| -> Option<String> {
        KEYS.iter()
            .find_map(|k| v.get(*k).and_then(Value::as_str))
            .filter(|s| !s.trim().is_empty())
            .map(str::to_owned)
    };
    for key in ["tool_input", "toolArgs", "tool_args"] {
        match payload.get(key) {
            Some(v @ Value::Object(_)) => {
                if let Some(p) = from(v) {
                    return Some(p);
                }
            }
            Some(Value::String(s)) => {
                if let Some(p) = serde_json::from_str::<Value>(s)
                    .ok()
                    .as_ref()
                    .and_then(from)
                {
                    return Some(p);
                }
            }
            _ => {}
        }
    }
    from(payload)
}

/// `path` relative to the repository: against the real root first, then
/// against the working directory the agent reported (a payload written on
/// another machine, or on Windows, names its own absolute paths).
fn relative(path: &str, root: &str, cwd: Option<&str>, process_cwd: &str) -> Option<String> {
    let base = cwd.unwrap_or(process_cwd);
    repo_relative(path, root, base)
        .or_else(|| cwd.and_then(|c| repo_relative(path, c, c)))
        .filter(|p| !p.starts_with(".brain/"))
}

/// The output for `event` carrying `context`, in the agent's shape; `None`
/// where the agent takes no context for the event (Copilot reads no hook
/// output for these events; Cursor only at session start).
pub fn render(event: &Event, context: &str) -> Option<Value> {
    if context.trim().is_empty() {
        return None;
    }
    match event.agent {
        Agent::Claude | Agent::Codex | Agent::Gemini => {
            let native = match (event.agent, event.kind) {
                (_, Kind::SessionStart) => "SessionStart",
                (Agent::Gemini, Kind::Prompt) => "BeforeAgent",
                (Agent::Gemini, Kind::File) => "AfterTool",
                (_, Kind::Prompt) => "UserPromptSubmit",
                (_, Kind::File) => "PostToolUse",
                _ => return None,
            };
            // Context after a tool call can only follow it, never precede it.
            if event.kind == Kind::File && event.native.to_ascii_lowercase().starts_with("pre") {
                return None;
            }
            if event.kind == Kind::File && event.agent == Agent::Codex {
                // Codex runs tool hooks for shell commands only.
                return None;
            }
            Some(json!({
                "hookSpecificOutput": {
                    "hookEventName": native,
                    "additionalContext": context,
                }
            }))
        }
        Agent::Cursor => {
            (event.kind == Kind::SessionStart).then(|| json!({ "additional_context": context }))
        }
        Agent::Copilot => None,
    }
}

/// The output when nothing is to be said, for agents that want an answer
/// to every event of a kind: Cursor's `beforeSubmitPrompt` reads
/// `continue`.
pub fn render_empty(event: &Event) -> Option<Value> {
    (event.agent == Agent::Cursor && event.kind == Kind::Prompt)
        .then(|| Value::Object(Map::from_iter([("continue".to_owned(), Value::Bool(true))])))
}

/// What one agent session has been shown, kept in `.brain/runtime/hooks/`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct HookSession {
    /// Memories shown, oldest first.
    #[serde(default)]
    pub shown: Vec<MemoryId>,
    /// Files whose memories were looked up, oldest first.
    #[serde(default)]
    pub files: Vec<String>,
    /// Turns ended.
    #[serde(default)]
    pub turns: u32,
    /// When the session last ran a hook.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last: Option<Timestamp>,
}

impl HookSession {
    /// Forgets what was shown (the context was compacted or cleared).
    pub fn forget_shown(&mut self) {
        self.shown.clear();
        self.files.clear();
    }

    /// Records memories as shown, keeping at most [`MAX_SHOWN`].
    pub fn record_shown(&mut self, ids: impl IntoIterator<Item = MemoryId>) {
        for id in ids {
            if !self.shown.contains(&id) {
                self.shown.push(id);
            }
        }
        let over = self.shown.len().saturating_sub(MAX_SHOWN);
        self.shown.drain(..over);
    }

    /// Records `path` as seen; `false` when it was seen already.
    pub fn record_file(&mut self, path: &str) -> bool {
        if self.files.iter().any(|f| f == path) {
            return false;
        }
        self.files.push(path.to_owned());
        let over = self.files.len().saturating_sub(MAX_FILES);
        self.files.drain(..over);
        true
    }
}

impl crate::Brain {
    /// The context block for a hook: the selection of
    /// [`crate::inject::select_in`] without the memories in `exclude`, and
    /// for a file event (`only_scoped`) only memories whose scope names one
    /// of the request's paths. Records the load in the activity log
    /// (`command: "hook"`); a log that cannot be written is ignored.
    #[allow(
        clippy::implicit_hasher,
        reason = "ids use the default hasher throughout"
    )]
    pub fn hook_context(
        &self,
        index: &Index,
        request: &Request<'_>,
        now: Timestamp,
        similarities: Option<&[Option<f64>]>,
        exclude: &[MemoryId],
        only_scoped: bool,
    ) -> Selection {
        let entries = crate::activity::parse(
            &self
                .store()
                .read_runtime_tail(crate::activity::LOG, crate::activity::TAIL_BYTES)
                .unwrap_or_default(),
        );
        let usage: HashMap<MemoryId, u32> = crate::activity::usage(&entries);
        let exclude: BTreeSet<&MemoryId> = exclude.iter().collect();
        let mut ranked = rank_request(index, request, now, similarities, &usage);
        ranked.retain(|s| !exclude.contains(&s.doc.id));
        let mut scoped: Vec<MemoryId> = Vec::new();
        if only_scoped {
            // A memory scoped to the file is the answer whatever its score:
            // the most important first, at most [`MAX_FILE_MEMORIES`].
            ranked.retain(|s| {
                s.doc
                    .scope_paths
                    .iter()
                    .any(|g| request.paths.iter().any(|p| Glob::new(g).matches(p)))
            });
            ranked.sort_by(|a, b| {
                b.doc
                    .importance
                    .cmp(&a.doc.importance)
                    .then_with(|| a.doc.id.cmp(&b.doc.id))
            });
            ranked.truncate(MAX_FILE_MEMORIES);
            scoped = ranked.iter().map(|s| s.doc.id.clone()).collect();
        }
        let mut request = request.clone();
        if only_scoped {
            request.ids = &scoped;
        }
        let selection = pack(index, ranked, &request, now, &mut |i| {
            self.store().read_memory(&index.docs[i].path).ok()
        });
        if !selection.selected.is_empty() {
            let entry = crate::activity::Entry {
                at: now,
                command: "hook".to_owned(),
                task: request.task.map(str::to_owned),
                paths: request.paths.to_vec(),
                modules: Vec::new(),
                ids: selection.selected.iter().map(|s| s.id.clone()).collect(),
            };
            let _ = self
                .store()
                .append_runtime_log(crate::activity::LOG, &entry.to_line());
        }
        selection
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ev(name: &str, payload: &str) -> Event {
        let v: Value = serde_json::from_str(payload).unwrap();
        parse(name, &v, None, "/home/dev/repo", "/home/dev/repo").unwrap()
    }

    #[test]
    fn detects_every_dialect() {
        let cases = [
            (
                r#"{"session_id":"a","transcript_path":"/h/.claude/projects/x/a.jsonl","hook_event_name":"SessionStart"}"#,
                Agent::Claude,
            ),
            (
                r#"{"session_id":"a","transcript_path":"/h/.codex/sessions/2026/rollout-a.jsonl","hook_event_name":"SessionStart"}"#,
                Agent::Codex,
            ),
            (
                r#"{"conversation_id":"a","workspace_roots":["/r"],"hook_event_name":"beforeSubmitPrompt"}"#,
                Agent::Cursor,
            ),
            (
                r#"{"sessionId":"a","timestamp":1704614400000,"cwd":"/r","prompt":"x"}"#,
                Agent::Copilot,
            ),
            (
                r#"{"session_id":"a","hook_event_name":"BeforeAgent","prompt":"x"}"#,
                Agent::Gemini,
            ),
        ];
        for (payload, agent) in cases {
            assert_eq!(
                detect(&serde_json::from_str(payload).unwrap()),
                agent,
                "{payload}"
            );
        }
    }

    #[test]
    fn windows_and_absolute_paths_become_relative() {
        let e = ev(
            "file",
            r#"{"cwd":"C:\\Users\\dev\\repo","tool_input":{"file_path":"C:\\Users\\dev\\repo\\src\\lib.rs"}}"#,
        );
        assert_eq!(e.path.as_deref(), Some("src/lib.rs"));
        let e = ev(
            "file",
            r#"{"tool_input":{"file_path":"/home/dev/repo/./src/../src/a.rs"}}"#,
        );
        assert_eq!(e.path.as_deref(), Some("src/a.rs"));
        let e = ev("file", r#"{"tool_input":{"file_path":"/etc/passwd"}}"#);
        assert_eq!(e.path, None);
        let e = ev(
            "postToolUse",
            r#"{"sessionId":"s","toolArgs":"{\"path\":\"src/b.rs\"}"}"#,
        );
        assert_eq!(e.path.as_deref(), Some("src/b.rs"));
    }

    #[test]
    fn native_names_map_to_kinds() {
        for (name, kind) in [
            ("SessionStart", Kind::SessionStart),
            ("userPromptSubmitted", Kind::Prompt),
            ("beforeSubmitPrompt", Kind::Prompt),
            ("BeforeAgent", Kind::Prompt),
            ("afterFileEdit", Kind::File),
            ("AfterTool", Kind::File),
            ("agentStop", Kind::TurnEnd),
            ("PreCompress", Kind::PreCompact),
            ("session-end", Kind::SessionEnd),
        ] {
            assert_eq!(Kind::from_name(name), Some(kind), "{name}");
        }
        assert_eq!(Kind::from_name("Notification"), None);
    }

    #[test]
    fn copilot_and_pre_tool_events_take_no_context() {
        let e = ev("prompt", r#"{"sessionId":"s","prompt":"x"}"#);
        assert_eq!(render(&e, "ctx"), None);
        let e = ev(
            "file",
            r#"{"hook_event_name":"PreToolUse","tool_input":{"file_path":"a.rs"}}"#,
        );
        assert_eq!(render(&e, "ctx"), None);
        let e = ev(
            "file",
            r#"{"hook_event_name":"PostToolUse","tool_input":{"file_path":"a.rs"}}"#,
        );
        assert!(render(&e, "ctx").is_some());
        assert_eq!(render(&e, "  "), None);
    }

    #[test]
    fn session_state_is_bounded() {
        let mut s = HookSession::default();
        for i in 0..(MAX_FILES + 5) {
            assert!(s.record_file(&format!("f{i}")));
        }
        assert!(!s.record_file(&format!("f{MAX_FILES}")));
        assert_eq!(s.files.len(), MAX_FILES);
        assert_eq!(s.files[0], "f5");
    }
}
