//! Agent transcripts read as session text for `brain capture
//! --from-transcript`.
//!
//! Two formats, both JSON Lines, told apart line by line:
//!
//! * **Claude Code** (`~/.claude/projects/<dir>/<session>.jsonl`): lines
//!   with `type` `user` or `assistant` carry a `message` whose `content` is
//!   a string or a list of blocks; only `text` blocks are kept (tool calls
//!   and tool results are the agent's work, not what it learned). Meta
//!   lines (`isMeta`), subagent lines (`isSidechain`) and slash-command
//!   echoes (`<command-name>`, `<local-command-stdout>`) are left out.
//! * **Codex** rollouts (`~/.codex/sessions/…/rollout-*.jsonl`): lines with
//!   `type: response_item` whose `payload` is a `message` with `role` `user`
//!   or `assistant` and `input_text` / `output_text` blocks. The
//!   instructions and environment Codex sends as user messages (text
//!   starting with `<`) are left out. When a rollout has no response items,
//!   `event_msg` lines (`user_message`, `agent_message`) are used instead.
//! * **Gemini CLI** chat files (one JSON object whose `messages` have `type`
//!   `user` or `gemini` and a `content` string or parts with `text`).
//!
//! Unreadable lines are skipped; a file with no message at all gives an
//! empty [`Transcript`]. This module never reads the file: the CLI hands it
//! the text.

use serde_json::Value;

/// Most bytes of message text kept, from the end of the session (what was
/// learned is usually said last).
pub const MAX_TEXT: usize = 256 * 1024;

/// Who said a message.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// The person.
    User,
    /// The agent.
    Assistant,
}

/// One message of a transcript.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Message {
    /// Who said it.
    pub role: Role,
    /// What was said.
    pub text: String,
}

/// A transcript's messages.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Transcript {
    /// The messages, in order.
    pub messages: Vec<Message>,
}

impl Transcript {
    /// The first thing the person asked: the session's task.
    pub fn task(&self) -> Option<&str> {
        self.messages
            .iter()
            .find(|m| m.role == Role::User)
            .map(|m| m.text.as_str())
    }

    /// The messages as one text, a paragraph each, at most [`MAX_TEXT`]
    /// bytes (the latest messages when longer).
    pub fn text(&self) -> String {
        let mut kept: Vec<&str> = Vec::new();
        let mut size = 0usize;
        for m in self.messages.iter().rev() {
            let t = m.text.trim();
            if size + t.len() + 2 > MAX_TEXT {
                break;
            }
            size += t.len() + 2;
            kept.push(t);
        }
        kept.reverse();
        kept.join("\n\n")
    }
}

/// Reads a Claude Code, Codex or Gemini CLI transcript.
pub fn parse(text: &str) -> Transcript {
    if let Ok(Value::Object(chat)) = serde_json::from_str::<Value>(text)
        && let Some(Value::Array(list)) = chat.get("messages")
    {
        let messages = list
            .iter()
            .filter_map(|m| {
                let role = match m.get("type").and_then(Value::as_str) {
                    Some("user") => Role::User,
                    Some("gemini" | "model" | "assistant") => Role::Assistant,
                    _ => return None,
                };
                let text = m.get("content").map(blocks_text)?;
                keep(&text).then_some(Message { role, text })
            })
            .collect();
        return Transcript { messages };
    }
    let mut claude = Vec::new();
    let mut items = Vec::new();
    let mut events = Vec::new();
    for line in text.lines() {
        let Ok(v) = serde_json::from_str::<Value>(line) else {
            continue;
        };
        match v.get("type").and_then(Value::as_str) {
            Some(t @ ("user" | "assistant")) if v.get("message").is_some() => {
                if v.get("isMeta").and_then(Value::as_bool) == Some(true)
                    || v.get("isSidechain").and_then(Value::as_bool) == Some(true)
                {
                    continue;
                }
                let role = if t == "user" {
                    Role::User
                } else {
                    Role::Assistant
                };
                let content = v.get("message").and_then(|m| m.get("content"));
                if let Some(text) = content.map(blocks_text).filter(|s| keep(s)) {
                    claude.push(Message { role, text });
                }
            }
            Some("response_item") => {
                let Some(p) = v.get("payload") else { continue };
                if p.get("type").and_then(Value::as_str) != Some("message") {
                    continue;
                }
                let role = match p.get("role").and_then(Value::as_str) {
                    Some("user") => Role::User,
                    Some("assistant") => Role::Assistant,
                    _ => continue,
                };
                if let Some(text) = p.get("content").map(blocks_text).filter(|s| keep(s)) {
                    items.push(Message { role, text });
                }
            }
            Some("event_msg") => {
                let Some(p) = v.get("payload") else { continue };
                let role = match p.get("type").and_then(Value::as_str) {
                    Some("user_message") => Role::User,
                    Some("agent_message") => Role::Assistant,
                    _ => continue,
                };
                if let Some(text) = p
                    .get("message")
                    .and_then(Value::as_str)
                    .map(str::to_owned)
                    .filter(|s| keep(s))
                {
                    events.push(Message { role, text });
                }
            }
            _ => {}
        }
    }
    let messages = if !claude.is_empty() {
        claude
    } else if !items.is_empty() {
        items
    } else {
        events
    };
    Transcript { messages }
}

/// The text of a `content` field: a string, or the `text` of its text
/// blocks (`text`, `input_text`, `output_text`), one paragraph each.
fn blocks_text(content: &Value) -> String {
    match content {
        Value::String(s) => s.clone(),
        Value::Array(blocks) => blocks
            .iter()
            .filter(|b| {
                matches!(
                    b.get("type").and_then(Value::as_str),
                    Some("text" | "input_text" | "output_text") | None
                )
            })
            .filter_map(|b| b.get("text").and_then(Value::as_str))
            .collect::<Vec<_>>()
            .join("\n\n"),
        _ => String::new(),
    }
}

/// Whether a message is the person's or the agent's own words, not text
/// the agent's harness inserted.
fn keep(text: &str) -> bool {
    let t = text.trim_start();
    !t.is_empty() && !t.starts_with('<') && !t.starts_with("Caveat: The messages below")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_claude_code_lines() {
        let text = [
            r#"{"type":"summary","summary":"x","leafUuid":"u"}"#,
            r#"{"type":"user","isMeta":true,"message":{"role":"user","content":"Caveat: The messages below were generated"}}"#,
            r#"{"type":"user","message":{"role":"user","content":"make refunds idempotent"}}"#,
            r#"{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"Refund writes must go through the ledger lock."},{"type":"tool_use","id":"t","name":"Read","input":{"file_path":"/r/a.ts"}}]}}"#,
            r#"{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t","content":"file text"}]}}"#,
            r#"{"type":"user","message":{"role":"user","content":"<command-name>/clear</command-name>"}}"#,
            "not json",
        ]
        .join("\n");
        let t = parse(&text);
        assert_eq!(t.messages.len(), 2);
        assert_eq!(t.task(), Some("make refunds idempotent"));
        assert_eq!(
            t.text(),
            "make refunds idempotent\n\nRefund writes must go through the ledger lock."
        );
    }

    #[test]
    fn reads_codex_rollouts() {
        let text = [
            r#"{"timestamp":"2026-01-01T00:00:00Z","type":"session_meta","payload":{"id":"s","cwd":"/r"}}"#,
            r#"{"type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"<environment_context>cwd</environment_context>"}]}}"#,
            r#"{"type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"why is the build slow"}]}}"#,
            r#"{"type":"event_msg","payload":{"type":"user_message","message":"why is the build slow"}}"#,
            r#"{"type":"response_item","payload":{"type":"function_call","name":"shell","arguments":"{}"}}"#,
            r#"{"type":"response_item","payload":{"type":"message","role":"assistant","content":[{"type":"output_text","text":"The build cache is keyed on the lockfile."}]}}"#,
        ]
        .join("\n");
        let t = parse(&text);
        assert_eq!(t.messages.len(), 2);
        assert_eq!(t.messages[1].role, Role::Assistant);
        // Event messages only when there are no response items.
        let only_events =
            r#"{"type":"event_msg","payload":{"type":"agent_message","message":"done"}}"#;
        assert_eq!(parse(only_events).messages.len(), 1);
    }

    #[test]
    fn reads_gemini_chat_files() {
        let text = r#"{"sessionId":"g","messages":[
            {"id":"1","type":"user","content":"why is the build slow"},
            {"id":"2","type":"gemini","content":[{"text":"The cache key is the lockfile."}]},
            {"id":"3","type":"info","content":"Request cancelled."}
        ]}"#;
        let t = parse(text);
        assert_eq!(t.messages.len(), 2);
        assert_eq!(t.messages[1].text, "The cache key is the lockfile.");
    }

    #[test]
    fn keeps_the_end_of_a_long_session() {
        let line = |i: usize| {
            format!(
                r#"{{"type":"user","message":{{"role":"user","content":"message {i} {}"}}}}"#,
                "x".repeat(1000)
            )
        };
        let text: Vec<String> = (0..400).map(line).collect();
        let t = parse(&text.join("\n"));
        let out = t.text();
        assert!(out.len() <= MAX_TEXT);
        assert!(out.contains("message 399 "));
        assert!(!out.contains("message 0 "));
    }
}
