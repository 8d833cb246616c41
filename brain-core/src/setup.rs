//! `brain setup`: brain's entries in every agent's configuration files,
//! merged into what is already there.
//!
//! [`plan`] is pure: it gets each file's current text (through a reader the
//! CLI supplies) and returns the text it should have. Invariants:
//!
//! * **Foreign entries are kept.** JSON files are parsed and edited as
//!   values with key order kept; TOML through `toml_edit`, which keeps
//!   comments and layout; Markdown and shell files get a marked section
//!   (`brain:start` … `brain:end`) and nothing outside it changes.
//! * **brain's own entries are recognised by their command** (a program
//!   named `brain` or `brain.exe` followed by `hook`) or by the key `brain`
//!   (MCP servers), so a second run replaces them in place.
//! * **A second run changes nothing**: the output of a run is a fixed point.
//!   A file whose values already hold brain's entries keeps its bytes, even
//!   when it is formatted differently.
//! * A file that cannot be parsed is left alone and reported.
//! * `CLAUDE.md` is never written: its presence switches off Claude Code's
//!   own reading of `AGENTS.md`. Zed's `.rules` is never written either.

use schemars::JsonSchema;
use serde::Serialize;
use serde_json::{Map, Value, json};

use crate::hook::Agent;

/// What to set up.
#[derive(Clone, Debug)]
pub struct Options<'a> {
    /// The agents.
    pub agents: &'a [Agent],
    /// Register brain's MCP server (`brain mcp`).
    pub mcp: bool,
    /// Install the hooks (`brain hook <event>`).
    pub hooks: bool,
    /// Configure git: the merge driver for `.brain/` records and the
    /// post-commit hook.
    pub git: bool,
    /// The brain binary as generated commands call it (an absolute path).
    pub brain: &'a str,
    /// The post-commit hook file relative to the root (from `git rev-parse
    /// --git-path hooks`), when `git` is set and there is a repository.
    pub post_commit: Option<&'a str>,
}

/// One file's planned content.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Planned {
    /// Path relative to the root.
    pub path: String,
    /// Its text now; `None` when it does not exist.
    pub before: Option<String>,
    /// Its text after setup, or why it is left alone.
    pub after: Result<String, String>,
    /// Whether the file must be executable (a git hook).
    pub executable: bool,
}

impl Planned {
    /// What setup does to the file.
    pub fn action(&self) -> Action {
        match (&self.before, &self.after) {
            (_, Err(_)) => Action::Skip,
            (None, Ok(_)) => Action::Create,
            (Some(b), Ok(a)) if a == b => Action::Unchanged,
            (Some(_), Ok(_)) => Action::Update,
        }
    }
}

/// What setup does to a file or setting.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    /// It does not exist yet.
    Create,
    /// brain's entries are added or changed.
    Update,
    /// brain's entries are already there.
    Unchanged,
    /// It cannot be read as its format; left alone.
    Skip,
}

/// One file in the report.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
pub struct FileResult {
    /// Path relative to the root.
    pub path: String,
    /// What was (or, with `--check` / `--dry-run`, would be) done.
    pub action: Action,
    /// Why a file was skipped.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

/// One git setting in the report.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
pub struct SettingResult {
    /// The key, `merge.brain.driver`.
    pub key: String,
    /// Its value after setup.
    pub value: String,
    /// What was (or would be) done.
    pub action: Action,
}

/// What `brain setup` did or would do.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
pub struct SetupReport {
    /// Whether this was `--check` (nothing written).
    pub check: bool,
    /// Whether this was `--dry-run` (nothing written).
    pub dry_run: bool,
    /// Every file setup manages, in a fixed order.
    pub files: Vec<FileResult>,
    /// Local git settings (with `--git`).
    pub git_config: Vec<SettingResult>,
    /// Whether anything differs from what setup writes.
    pub drift: bool,
}

/// Start and end markers of brain's section in Markdown files.
pub const MD_START: &str = "<!-- brain:start -->";
/// See [`MD_START`].
pub const MD_END: &str = "<!-- brain:end -->";
/// Start and end markers of brain's section in shell and attribute files.
pub const SH_START: &str = "# brain:start";
/// See [`SH_START`].
pub const SH_END: &str = "# brain:end";

/// The git settings of `--git`: the merge driver for `.brain/` records.
pub fn git_settings(brain: &str) -> Vec<(String, String)> {
    vec![
        (
            "merge.brain.name".to_owned(),
            "brain: merge .brain/ memory records".to_owned(),
        ),
        (
            "merge.brain.driver".to_owned(),
            format!("{} merge-driver %O %A %B %L %P", quote(brain)),
        ),
    ]
}

/// Every file setup writes for `opts`, in a fixed order, from the current
/// texts `read` returns (`None`: no such file).
#[allow(
    clippy::too_many_lines,
    reason = "one table of every agent's files, read top to bottom"
)]
pub fn plan(opts: &Options<'_>, read: &mut dyn FnMut(&str) -> Option<String>) -> Vec<Planned> {
    let mut out: Vec<Planned> = Vec::new();
    let mut add = |path: &str, exec: bool, f: &dyn Fn(Option<&str>) -> Result<String, String>| {
        let before = read(path);
        let after = f(before.as_deref());
        out.push(Planned {
            path: path.to_owned(),
            before,
            after,
            executable: exec,
        });
    };
    let b = opts.brain;
    for &agent in opts.agents {
        let cmd = |event: &str| format!("{} hook {event} --agent {}", quote(b), agent.name());
        match agent {
            Agent::Claude => {
                if opts.hooks {
                    add(".claude/settings.json", false, &|t| {
                        merge_json(t, |root| {
                            let handler = |e: &str| json!({"type": "command", "command": cmd(e), "timeout": 5});
                            set_grouped_hooks(
                                root,
                                &[
                                    (
                                        "SessionStart",
                                        Some("startup|resume|clear|compact"),
                                        handler("session-start"),
                                    ),
                                    ("UserPromptSubmit", None, handler("prompt")),
                                    (
                                        "PostToolUse",
                                        Some("Read|Edit|MultiEdit|Write|NotebookEdit"),
                                        handler("file"),
                                    ),
                                    ("Stop", None, handler("turn-end")),
                                    ("PreCompact", None, handler("pre-compact")),
                                    ("SessionEnd", None, handler("session-end")),
                                ],
                            )
                        })
                    });
                }
                if opts.mcp {
                    add(".mcp.json", false, &|t| {
                        merge_json(t, |root| {
                            set_server(
                                root,
                                "mcpServers",
                                json!({"type": "stdio", "command": b, "args": ["mcp"]}),
                            )
                        })
                    });
                }
            }
            Agent::Codex => {
                if opts.hooks {
                    add(".codex/hooks.json", false, &|t| {
                        merge_json(t, |root| {
                            let handler = |e: &str| json!({"type": "command", "command": cmd(e), "timeout": 5});
                            set_grouped_hooks(
                                root,
                                &[
                                    (
                                        "SessionStart",
                                        Some("startup|resume|clear"),
                                        handler("session-start"),
                                    ),
                                    ("UserPromptSubmit", None, handler("prompt")),
                                    ("Stop", None, handler("turn-end")),
                                ],
                            )
                        })
                    });
                }
                if opts.hooks || opts.mcp {
                    add(".codex/config.toml", false, &|t| {
                        merge_codex_toml(t, opts.hooks, opts.mcp.then_some(b))
                    });
                }
            }
            Agent::Cursor => {
                if opts.mcp {
                    add(".cursor/mcp.json", false, &|t| {
                        merge_json(t, |root| {
                            set_server(root, "mcpServers", json!({"command": b, "args": ["mcp"]}))
                        })
                    });
                }
                if opts.hooks {
                    add(".cursor/hooks.json", false, &|t| {
                        merge_json(t, |root| {
                            let handler = |e: &str| json!({"command": cmd(e)});
                            set_flat_hooks(
                                root,
                                &[
                                    ("sessionStart", handler("session-start")),
                                    ("beforeSubmitPrompt", handler("prompt")),
                                    ("afterFileEdit", handler("file")),
                                    ("stop", handler("turn-end")),
                                    ("preCompact", handler("pre-compact")),
                                    ("sessionEnd", handler("session-end")),
                                ],
                            )
                        })
                    });
                }
                add(".cursor/rules/brain.mdc", false, &|_| Ok(cursor_rule()));
            }
            Agent::Copilot => {
                if opts.hooks {
                    add(".github/hooks/brain.json", false, &|t| {
                        merge_json(t, |root| {
                            let handler = |e: &str| json!({"type": "command", "bash": cmd(e), "powershell": format!("& {}", cmd(e)), "timeoutSec": 5});
                            set_flat_hooks(
                                root,
                                &[
                                    ("sessionStart", handler("session-start")),
                                    ("userPromptSubmitted", handler("prompt")),
                                    ("postToolUse", handler("file")),
                                    ("agentStop", handler("turn-end")),
                                    ("preCompact", handler("pre-compact")),
                                    ("sessionEnd", handler("session-end")),
                                ],
                            )
                        })
                    });
                }
                if opts.mcp {
                    add(".vscode/mcp.json", false, &|t| {
                        merge_json(t, |root| {
                            set_server(
                                root,
                                "servers",
                                json!({"type": "stdio", "command": b, "args": ["mcp"]}),
                            )
                        })
                    });
                }
            }
            Agent::Gemini => {
                if opts.hooks || opts.mcp {
                    add(".gemini/settings.json", false, &|t| {
                        merge_json(t, |root| {
                            if opts.hooks {
                                let handler = |e: &str| json!({"name": format!("brain-{e}"), "type": "command", "command": cmd(e), "timeout": 5000});
                                set_grouped_hooks(
                                    root,
                                    &[
                                        ("SessionStart", None, handler("session-start")),
                                        ("BeforeAgent", None, handler("prompt")),
                                        (
                                            "AfterTool",
                                            Some("read_file|read_many_files|write_file|replace"),
                                            handler("file"),
                                        ),
                                        ("AfterAgent", None, handler("turn-end")),
                                        ("PreCompress", None, handler("pre-compact")),
                                        ("SessionEnd", None, handler("session-end")),
                                    ],
                                )?;
                            }
                            if opts.mcp {
                                set_server(
                                    root,
                                    "mcpServers",
                                    json!({"command": b, "args": ["mcp"]}),
                                )?;
                            }
                            Ok(())
                        })
                    });
                }
            }
        }
    }
    add("AGENTS.md", false, &|t| {
        Ok(set_section(t, MD_START, MD_END, AGENTS_SECTION))
    });
    if opts.git {
        add(".gitattributes", false, &|t| {
            Ok(set_section(
                t,
                SH_START,
                SH_END,
                ".brain/**/*.yaml merge=brain",
            ))
        });
        if let Some(hook) = opts.post_commit {
            let line = format!(
                "if [ -x {q} ] || command -v {q} >/dev/null 2>&1; then {q} extract-commit --detach >/dev/null 2>&1 || true; fi",
                q = quote(b)
            );
            add(hook, true, &|t| {
                let t = t.filter(|t| !t.trim().is_empty()).unwrap_or("#!/bin/sh\n");
                Ok(set_section(Some(t), SH_START, SH_END, &line))
            });
        }
    }
    out
}

/// `path` as one shell word: bare when it holds only safe characters, else
/// in double quotes.
pub fn quote(path: &str) -> String {
    if !path.is_empty()
        && path
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "/._-:+@%".contains(c))
    {
        path.to_owned()
    } else {
        let mut s = String::from("\"");
        for c in path.chars() {
            if matches!(c, '"' | '\\' | '$' | '`') {
                s.push('\\');
            }
            s.push(c);
        }
        s.push('"');
        s
    }
}

/// The section setup keeps in `AGENTS.md`.
pub const AGENTS_SECTION: &str = "## Repository memory (brain)

This repository keeps durable memory for coding agents in `.brain/`:
decisions, gotchas, conventions and patterns, each with its scope.

- Before a task, run `brain route --task \"<what you are about to do>\"`
  (or use the `brain` MCP tools) and follow what it returns.
- When you learn something worth keeping, propose it with
  `brain capture --input \"<what, and why>\"`. It becomes a candidate for
  review, never an active rule.
- Do not edit files under `.brain/` by hand.";

fn cursor_rule() -> String {
    format!(
        "---\ndescription: Repository memory kept by brain\nalwaysApply: true\n---\n\n\
         <!-- Generated by brain setup; edit .brain/ and re-run. -->\n\n{AGENTS_SECTION}\n"
    )
}

/// Parses `text` as a JSON object (no text: an empty one), applies `edit`,
/// and returns the new text: the old text when the values did not change,
/// else pretty JSON with 2-space indentation and a final newline.
fn merge_json(
    text: Option<&str>,
    edit: impl FnOnce(&mut Map<String, Value>) -> Result<(), String>,
) -> Result<String, String> {
    let before: Value = match text.filter(|t| !t.trim().is_empty()) {
        None => Value::Object(Map::new()),
        Some(t) => serde_json::from_str(t).map_err(|e| format!("not valid JSON: {e}"))?,
    };
    let Value::Object(mut root) = before.clone() else {
        return Err("not a JSON object".to_owned());
    };
    edit(&mut root)?;
    let after = Value::Object(root);
    if let Some(t) = text
        && after == before
    {
        return Ok(t.to_owned());
    }
    let mut s = serde_json::to_string_pretty(&after).map_err(|e| e.to_string())?;
    s.push('\n');
    Ok(s)
}

/// Whether a hook command runs brain's hook (`…/brain hook …`).
pub fn is_brain_hook(command: &str) -> bool {
    let c = command.trim().trim_start_matches("& ");
    let (program, rest) = if let Some(q) = c.strip_prefix('"') {
        match q.split_once('"') {
            Some((p, r)) => (p, r),
            None => return false,
        }
    } else {
        c.split_once(char::is_whitespace).unwrap_or((c, ""))
    };
    let name = program.rsplit(['/', '\\']).next().unwrap_or(program);
    matches!(name, "brain" | "brain.exe") && rest.split_whitespace().next() == Some("hook")
}

fn handler_is_ours(h: &Value) -> bool {
    ["command", "bash"]
        .iter()
        .any(|k| h.get(*k).and_then(Value::as_str).is_some_and(is_brain_hook))
}

/// The object under `key`, created when absent.
fn object<'m>(
    root: &'m mut Map<String, Value>,
    key: &str,
) -> Result<&'m mut Map<String, Value>, String> {
    root.entry(key.to_owned())
        .or_insert_with(|| Value::Object(Map::new()))
        .as_object_mut()
        .ok_or_else(|| format!("`{key}` is not an object"))
}

/// Sets `root[key].brain` to `server`.
fn set_server(root: &mut Map<String, Value>, key: &str, server: Value) -> Result<(), String> {
    object(root, key)?.insert("brain".to_owned(), server);
    Ok(())
}

/// Claude Code, Codex and Gemini CLI: `hooks.<Event>` is a list of groups
/// `{matcher?, hooks: [handler]}`. brain's handlers are removed wherever
/// they are (a group left empty goes too) and one group per event put back
/// where the first of them was, else at the end.
fn set_grouped_hooks(
    root: &mut Map<String, Value>,
    events: &[(&str, Option<&str>, Value)],
) -> Result<(), String> {
    let hooks = object(root, "hooks")?;
    let mut positions: Vec<(String, usize)> = Vec::new();
    let keys: Vec<String> = hooks.keys().cloned().collect();
    for key in keys {
        let Some(groups) = hooks.get_mut(&key).and_then(Value::as_array_mut) else {
            continue;
        };
        let mut first = None;
        let mut i = 0;
        groups.retain_mut(|g| {
            let idx = i;
            i += 1;
            let Some(list) = g.get_mut("hooks").and_then(Value::as_array_mut) else {
                return true;
            };
            let len = list.len();
            list.retain(|h| !handler_is_ours(h));
            if list.len() < len {
                first.get_or_insert(idx);
                return !list.is_empty();
            }
            true
        });
        if let Some(f) = first {
            positions.push((key.clone(), f));
            if groups.is_empty() && !events.iter().any(|(e, ..)| *e == key) {
                hooks.remove(&key);
            }
        }
    }
    for (event, matcher, handler) in events {
        let mut group = Map::new();
        if let Some(m) = matcher {
            group.insert("matcher".to_owned(), Value::String((*m).to_owned()));
        }
        group.insert("hooks".to_owned(), Value::Array(vec![handler.clone()]));
        let groups = hooks
            .entry((*event).to_owned())
            .or_insert_with(|| Value::Array(Vec::new()))
            .as_array_mut()
            .ok_or_else(|| format!("`hooks.{event}` is not a list"))?;
        let at = positions
            .iter()
            .find(|(k, _)| k == event)
            .map_or(groups.len(), |(_, p)| (*p).min(groups.len()));
        groups.insert(at, Value::Object(group));
    }
    Ok(())
}

/// Cursor and GitHub Copilot: `{"version": 1, "hooks": {"<event>":
/// [handler]}}`. brain's handlers are replaced in place, else appended.
fn set_flat_hooks(root: &mut Map<String, Value>, events: &[(&str, Value)]) -> Result<(), String> {
    if !root.contains_key("version") {
        root.insert("version".to_owned(), json!(1));
    }
    let hooks = object(root, "hooks")?;
    let mut positions: Vec<(String, usize)> = Vec::new();
    let keys: Vec<String> = hooks.keys().cloned().collect();
    for key in keys {
        let Some(list) = hooks.get_mut(&key).and_then(Value::as_array_mut) else {
            continue;
        };
        if let Some(p) = list.iter().position(handler_is_ours) {
            positions.push((key.clone(), p));
            list.retain(|h| !handler_is_ours(h));
            if list.is_empty() && !events.iter().any(|(e, _)| *e == key) {
                hooks.remove(&key);
            }
        }
    }
    for (event, handler) in events {
        let list = hooks
            .entry((*event).to_owned())
            .or_insert_with(|| Value::Array(Vec::new()))
            .as_array_mut()
            .ok_or_else(|| format!("`hooks.{event}` is not a list"))?;
        let at = positions
            .iter()
            .find(|(k, _)| k == event)
            .map_or(list.len(), |(_, p)| (*p).min(list.len()));
        list.insert(at, handler.clone());
    }
    Ok(())
}

/// `.codex/config.toml`: `[features] codex_hooks = true` (hooks are off by
/// default in Codex) and `[mcp_servers.brain]`.
fn merge_codex_toml(text: Option<&str>, hooks: bool, mcp: Option<&str>) -> Result<String, String> {
    use toml_edit::{Array, DocumentMut, Item, Table, value};
    let original = text.unwrap_or("");
    let mut doc: DocumentMut = original
        .parse()
        .map_err(|e| format!("not valid TOML: {e}"))?;
    if hooks {
        let features = doc
            .entry("features")
            .or_insert_with(|| Item::Table(Table::new()))
            .as_table_like_mut()
            .ok_or("`features` is not a table")?;
        if features.get("codex_hooks").and_then(Item::as_bool) != Some(true) {
            features.insert("codex_hooks", value(true));
        }
    }
    if let Some(brain) = mcp {
        let servers = doc.entry("mcp_servers").or_insert_with(|| {
            let mut t = Table::new();
            t.set_implicit(true);
            Item::Table(t)
        });
        let servers = servers
            .as_table_like_mut()
            .ok_or("`mcp_servers` is not a table")?;
        let same = servers.get("brain").is_some_and(|s| {
            s.get("command").and_then(Item::as_str) == Some(brain)
                && s.get("args").and_then(Item::as_array).is_some_and(|a| {
                    a.len() == 1 && a.get(0).and_then(|v| v.as_str()) == Some("mcp")
                })
        });
        if !same {
            let mut server = Table::new();
            server.insert("command", value(brain));
            let mut args = Array::new();
            args.push("mcp");
            server.insert("args", value(args));
            servers.insert("brain", Item::Table(server));
        }
    }
    Ok(doc.to_string())
}

/// `text` with `body` between the markers `start` and `end`: replaced when
/// both markers are there, else appended after a blank line.
pub fn set_section(text: Option<&str>, start: &str, end: &str, body: &str) -> String {
    let section = format!("{start}\n{body}\n{end}");
    let text = text.unwrap_or("");
    if let Some(s) = text.find(start)
        && let Some(e) = text[s..].find(end)
    {
        let e = s + e + end.len();
        return format!("{}{section}{}", &text[..s], &text[e..]);
    }
    let head = text.trim_end_matches('\n');
    if head.is_empty() {
        format!("{section}\n")
    } else if head.starts_with("#!") && !head.contains('\n') {
        format!("{head}\n{section}\n")
    } else {
        format!("{head}\n\n{section}\n")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recognises_brain_hook_commands() {
        assert!(is_brain_hook(
            "/usr/local/bin/brain hook prompt --agent claude"
        ));
        assert!(is_brain_hook(
            "\"C:\\Program Files\\brain\\brain.exe\" hook file"
        ));
        assert!(is_brain_hook("& \"/opt/my tools/brain\" hook file"));
        assert!(!is_brain_hook("/usr/bin/brain-lint hook"));
        assert!(!is_brain_hook("brain mcp"));
        assert!(!is_brain_hook("echo brain hook"));
    }

    #[test]
    fn sections_are_replaced_or_appended() {
        let once = set_section(Some("# Title\n\nText.\n"), MD_START, MD_END, "a");
        assert_eq!(
            once,
            "# Title\n\nText.\n\n<!-- brain:start -->\na\n<!-- brain:end -->\n"
        );
        let twice = set_section(Some(&once), MD_START, MD_END, "b");
        assert_eq!(twice, once.replace("\na\n", "\nb\n"));
        assert_eq!(
            set_section(Some("#!/bin/sh\n"), SH_START, SH_END, "x"),
            "#!/bin/sh\n# brain:start\nx\n# brain:end\n"
        );
    }

    #[test]
    fn quotes_paths_with_spaces() {
        assert_eq!(quote("/usr/bin/brain"), "/usr/bin/brain");
        assert_eq!(quote("/opt/my tools/brain"), "\"/opt/my tools/brain\"");
    }
}
