//! `brain mcp` driven over pipes with raw JSON-RPC, so that a failure shows
//! the exact messages. The test with a real MCP client is `test_mcp_client`.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use serde_json::{Value, json};

use crate::common::TestEnv;

/// A running `brain mcp` with its stdin and a line reader of its stdout.
pub(crate) struct Server {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: mpsc::Receiver<String>,
    next_id: i64,
}

#[allow(
    clippy::needless_pass_by_value,
    reason = "messages are written inline as `json!` literals"
)]
impl Server {
    pub(crate) fn start(env: &TestEnv, args: &[&str], vars: &[(&str, &str)]) -> Server {
        let mut cmd = env.command(args.iter().copied().chain(["mcp"]));
        for (k, v) in vars {
            cmd.env(k, v);
        }
        let mut child = cmd
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let stdin = child.stdin.take();
        Server {
            child,
            stdin,
            lines,
            next_id: 0,
        }
    }

    /// Writes raw bytes (a newline is not added).
    pub(crate) fn send_raw(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().unwrap();
        stdin.write_all(bytes).unwrap();
        stdin.flush().unwrap();
    }

    pub(crate) fn send(&mut self, message: &Value) {
        let mut line = serde_json::to_vec(message).unwrap();
        line.push(b'\n');
        self.send_raw(&line);
    }

    /// The next message on stdout, which must be one JSON document.
    pub(crate) fn receive(&mut self) -> Value {
        let line = self
            .lines
            .recv_timeout(Duration::from_secs(60))
            .expect("brain mcp answers within a minute");
        serde_json::from_str(&line).unwrap_or_else(|e| panic!("stdout is not JSON ({e}): {line}"))
    }

    /// Sends a request and returns its response.
    pub(crate) fn request(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        let response = self.receive();
        assert_eq!(response["id"], id, "{response}");
        response
    }

    pub(crate) fn initialize(&mut self, version: &str) -> Value {
        let response = self.request(
            "initialize",
            json!({
                "protocolVersion": version,
                "capabilities": {},
                "clientInfo": {"name": "brain-tests", "version": "1"}
            }),
        );
        self.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
        response
    }

    pub(crate) fn call(&mut self, tool: &str, arguments: Value) -> Value {
        let response = self.request("tools/call", json!({"name": tool, "arguments": arguments}));
        response["result"].clone()
    }

    /// Closes stdin and returns the exit code; nothing more may be on stdout.
    pub(crate) fn finish(mut self) -> i32 {
        drop(self.stdin.take());
        let status = self.child.wait().unwrap();
        let rest: Vec<String> = self.lines.try_iter().collect();
        assert!(rest.is_empty(), "unexpected output after EOF: {rest:?}");
        status.code().expect("brain mcp exits, it is not killed")
    }
}

fn tools(server: &mut Server) -> Vec<Value> {
    let list = server.request("tools/list", json!({}));
    list["result"]["tools"].as_array().unwrap().clone()
}

fn validator(tools: &[Value], name: &str) -> jsonschema::Validator {
    let tool = tools.iter().find(|t| t["name"] == name).unwrap();
    jsonschema::validator_for(&tool["outputSchema"]).unwrap()
}

/// Checks a successful tool result: structured content valid against the
/// declared schema, and text content.
fn check_result(tools: &[Value], name: &str, result: &Value) -> Value {
    assert_eq!(result["isError"], false, "{name}: {result}");
    let structured = &result["structuredContent"];
    let errors: Vec<String> = validator(tools, name)
        .iter_errors(structured)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect();
    assert!(errors.is_empty(), "{name}: {errors:?}");
    assert_eq!(result["content"][0]["type"], "text");
    structured.clone()
}

#[test]
fn mcp_handshakes_list_the_tools_and_exit_0_at_eof() {
    let env = TestEnv::example();
    for version in ["2025-11-25", "2025-06-18", "2024-11-05"] {
        let mut server = Server::start(&env, &[], &[]);
        let init = server.initialize(version);
        assert_eq!(init["result"]["protocolVersion"], version, "{init}");
        assert_eq!(init["result"]["serverInfo"]["name"], "brain");
        assert!(init["result"]["capabilities"]["tools"].is_object());
        let tools = tools(&mut server);
        let names: Vec<&str> = tools.iter().map(|t| t["name"].as_str().unwrap()).collect();
        assert_eq!(
            names,
            [
                "brain_context",
                "brain_route",
                "brain_search",
                "brain_show",
                "brain_capture",
                "brain_status"
            ]
        );
        for tool in &tools {
            let name = tool["name"].as_str().unwrap();
            assert_eq!(tool["inputSchema"]["type"], "object", "{name}");
            assert_eq!(tool["outputSchema"]["type"], "object", "{name}");
            assert_eq!(
                tool["annotations"]["readOnlyHint"],
                name != "brain_capture",
                "{name}"
            );
            assert_eq!(tool["annotations"]["destructiveHint"], false, "{name}");
        }
        assert_eq!(server.finish(), 0, "{version}");
    }
}

#[test]
fn mcp_serves_the_newer_revision_without_a_handshake() {
    let env = TestEnv::example();
    let mut server = Server::start(&env, &[], &[]);
    let meta = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {}
    });
    let list = server.request("tools/list", json!({"_meta": meta}));
    assert_eq!(
        list["result"]["tools"].as_array().unwrap().len(),
        6,
        "{list}"
    );
    let call = server.request(
        "tools/call",
        json!({"name": "brain_status", "arguments": {}, "_meta": meta}),
    );
    assert_eq!(call["result"]["isError"], false, "{call}");
    assert_eq!(server.finish(), 0);
}

#[test]
fn mcp_tools_return_structured_results_valid_against_their_schemas() {
    let env = TestEnv::example();
    // A direct capture mode would make captures active; the tool must not.
    let config = env.root().join(".brain/config.yaml");
    let text = std::fs::read_to_string(&config).unwrap();
    std::fs::write(&config, format!("{text}capture_mode: direct\n")).unwrap();
    let mut server = Server::start(&env, &[], &[]);
    server.initialize("2025-11-25");
    let tools = tools(&mut server);

    let before = server.call("brain_status", json!({}));
    let before = check_result(&tools, "brain_status", &before);
    assert_eq!(before["root"], env.root().display().to_string());
    assert!(before["result"]["memories"].as_u64().unwrap() > 0);

    let context = server.call(
        "brain_context",
        json!({"task": "add a migration that creates an index", "budget": 100_000}),
    );
    let structured = check_result(&tools, "brain_context", &context);
    assert_eq!(
        structured["truncated"],
        json!(["budget capped at 8000 tokens"])
    );
    let block = context["content"][0]["text"].as_str().unwrap();
    assert!(block.starts_with("<!-- brain:context v1 -->"), "{block}");
    assert!(block.contains("CONCURRENTLY"), "{block}");

    let route = server.call("brain_route", json!({"task": "add a migration"}));
    let structured = check_result(&tools, "brain_route", &route);
    assert!(structured["result"]["plan_id"].is_string(), "{structured}");

    let search = server.call("brain_search", json!({"query": "migration", "limit": 500}));
    let structured = check_result(&tools, "brain_search", &search);
    assert_eq!(structured["truncated"], json!(["limit capped at 50 hits"]));
    let id = structured["result"]["hits"][0]["id"]
        .as_str()
        .unwrap()
        .to_owned();

    let show = server.call("brain_show", json!({"id": id}));
    check_result(&tools, "brain_show", &show);

    let capture = server.call(
        "brain_capture",
        json!({
            "text": "We decided to keep all money amounts as integer cents in a bigint column, \
                     because floating point rounding broke invoice totals.",
            "task": "fix invoice rounding"
        }),
    );
    let structured = check_result(&tools, "brain_capture", &capture);
    let written = structured["result"]["written"].as_array().unwrap();
    assert!(!written.is_empty(), "{structured}");
    for w in written {
        assert_eq!(w["status"], "candidate", "{w}");
    }

    let after = server.call("brain_status", json!({}));
    let after = check_result(&tools, "brain_status", &after);
    assert_eq!(
        after["result"]["pending_candidates"].as_u64().unwrap(),
        before["result"]["pending_candidates"].as_u64().unwrap() + written.len() as u64
    );
    assert_eq!(server.finish(), 0);
}

#[test]
fn mcp_tool_errors_are_results_with_a_hint() {
    let env = TestEnv::example();
    let mut server = Server::start(&env, &[], &[]);
    server.initialize("2025-11-25");
    let show = server.call("brain_show", json!({"id": "no-such-memory"}));
    assert_eq!(show["isError"], true, "{show}");
    let text = show["content"][0]["text"].as_str().unwrap();
    assert!(text.starts_with("error: "), "{text}");
    assert!(text.contains("\nhint: "), "{text}");

    let bad = server.call("brain_search", json!({"query": "x", "limt": 3}));
    assert_eq!(bad["isError"], true, "{bad}");
    assert!(
        bad["content"][0]["text"]
            .as_str()
            .unwrap()
            .contains("hint: ")
    );

    let elsewhere = server.call("brain_status", json!({"repo": "/nonexistent/dir"}));
    assert_eq!(elsewhere["isError"], true, "{elsewhere}");

    let unknown = server.request(
        "tools/call",
        json!({"name": "brain_approve", "arguments": {}}),
    );
    assert_eq!(unknown["error"]["code"], -32602, "{unknown}");
    assert_eq!(server.finish(), 0);
}

#[test]
fn mcp_answers_unusable_lines_and_keeps_serving() {
    let env = TestEnv::example();
    let mut server = Server::start(&env, &[], &[]);
    server.initialize("2025-11-25");
    let expect_error = |server: &mut Server, line: &[u8], code: i64| {
        server.send_raw(line);
        let reply = server.receive();
        assert_eq!(reply["error"]["code"], code, "{reply}");
        assert_eq!(reply["id"], Value::Null, "{reply}");
        let ping = server.request("ping", json!({}));
        assert_eq!(ping["result"], json!({}), "{ping}");
    };
    expect_error(&mut server, b"this is not json\n", -32700);
    expect_error(
        &mut server,
        b"{\"jsonrpc\": \"2.0\", \"id\": 9, \xff\xfe}\n",
        -32700,
    );
    expect_error(&mut server, b"{\"truncated\": \n", -32700);
    expect_error(&mut server, b"[]\n", -32600);
    let mut huge =
        b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":{\"pad\":\"".to_vec();
    huge.resize(5 * 1024 * 1024, b'x');
    huge.extend_from_slice(b"\"}}\n");
    expect_error(&mut server, &huge, -32600);
    // A request of the wrong shape is answered under its own id.
    server.send_raw(b"{\"jsonrpc\":\"2.0\",\"id\":77,\"method\":\"tools/call\",\"params\":5}\n");
    let reply = server.receive();
    assert_eq!(reply["id"], 77, "{reply}");
    assert_eq!(reply["error"]["code"], -32600, "{reply}");
    let list = tools(&mut server);
    assert_eq!(list.len(), 6);
    assert_eq!(server.finish(), 0);
}

#[test]
fn mcp_exits_0_when_stdin_closes_before_the_handshake() {
    let env = TestEnv::example();
    let server = Server::start(&env, &[], &[]);
    assert_eq!(server.finish(), 0);
}

#[test]
fn mcp_finds_the_store_from_the_argument_or_claude_project_dir() {
    let env = TestEnv::example();
    let elsewhere = TestEnv::empty();
    let root = env.root().display().to_string();
    // The working directory has no store; CLAUDE_PROJECT_DIR names one.
    let mut cmd_env = Server::start(&elsewhere, &[], &[("CLAUDE_PROJECT_DIR", &root)]);
    cmd_env.initialize("2025-11-25");
    let status = cmd_env.call("brain_status", json!({}));
    assert_eq!(
        status["structuredContent"]["root"],
        root.as_str(),
        "{status}"
    );
    assert_eq!(cmd_env.finish(), 0);
    // No variable: the `repo` argument names it.
    let mut by_arg = Server::start(&elsewhere, &[], &[]);
    by_arg.initialize("2025-11-25");
    let status = by_arg.call("brain_status", json!({"repo": root}));
    assert_eq!(
        status["structuredContent"]["root"],
        root.as_str(),
        "{status}"
    );
    let none = by_arg.call("brain_status", json!({}));
    assert_eq!(none["isError"], true, "{none}");
    assert_eq!(by_arg.finish(), 0);
}

/// The tool list is a contract with agents: names, descriptions, annotations
/// and input schemas are snapshotted; each output schema is generated from
/// the report types (whose shapes are checked under `schemas/`) and is shown
/// by its title.
#[test]
fn mcp_tool_list() {
    let env = TestEnv::example();
    let mut server = Server::start(&env, &[], &[]);
    server.initialize("2025-11-25");
    let mut tools = tools(&mut server);
    for tool in &mut tools {
        let title = tool["outputSchema"]["title"].clone();
        tool["outputSchema"] = json!({"title": title});
    }
    insta::assert_json_snapshot!(tools);
    assert_eq!(server.finish(), 0);
}
