//! `brain mcp` against a real MCP client: the official Python SDK (`mcp` from
//! the package index), installed into a virtual environment under the target directory on
//! first use (later runs reuse it). The client script is `mcp/client.py`.
//!
//! Skipped, with the reason printed, only when `python3` is not installed;
//! CI installs it (`.ci/run`). A failed venv or `pip install` fails the test.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

use crate::common::{TestEnv, workspace};

/// The client the test installs: pinned, so that a new SDK release cannot
/// change what the test checks.
const REQUIREMENT: &str = "mcp==2.3.0";

/// The venv with [`REQUIREMENT`] installed, or `None` without python3.
fn client_venv() -> Option<PathBuf> {
    let probe = Command::new("python3").arg("--version").output();
    if probe.is_err() {
        return None;
    }
    // target/<profile>/brain → target/
    let target = Path::new(env!("CARGO_BIN_EXE_brain"))
        .parent()
        .and_then(Path::parent)
        .unwrap();
    let venv = target.join("mcp-client-venv");
    let marker = venv.join("brain-requirement.txt");
    if std::fs::read_to_string(&marker).is_ok_and(|m| m == REQUIREMENT) {
        return Some(venv);
    }
    let _ = std::fs::remove_dir_all(&venv);
    let made = Command::new("python3")
        .args(["-m", "venv"])
        .arg(&venv)
        .output()
        .unwrap();
    assert!(
        made.status.success(),
        "python3 -m venv failed (is python3-venv installed?):\n{}",
        String::from_utf8_lossy(&made.stderr)
    );
    // pip reads its index and certificates from the inherited environment.
    let pip = Command::new(venv.join("bin/pip"))
        .args([
            "install",
            "--quiet",
            "--disable-pip-version-check",
            REQUIREMENT,
        ])
        .output()
        .unwrap();
    assert!(
        pip.status.success(),
        "pip install {REQUIREMENT} failed:\n{}",
        String::from_utf8_lossy(&pip.stderr)
    );
    std::fs::write(&marker, REQUIREMENT).unwrap();
    Some(venv)
}

#[test]
fn mcp_works_with_the_python_sdk() {
    let Some(venv) = client_venv() else {
        eprintln!("skipped: python3 is not installed, so the MCP client cannot run");
        return;
    };
    let env = TestEnv::example();
    let script = workspace().join("brain-cli/tests/cli/mcp/client.py");
    let run = Command::new(venv.join("bin/python"))
        .arg(&script)
        .arg(env!("CARGO_BIN_EXE_brain"))
        .arg(env.root())
        .output()
        .unwrap();
    assert!(
        run.status.success(),
        "the client failed:\n{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let seen: Value = serde_json::from_slice(&run.stdout).unwrap();
    assert_eq!(seen["protocolVersion"], "2025-11-25");
    assert_eq!(
        seen["tools"],
        serde_json::json!([
            "brain_context",
            "brain_route",
            "brain_search",
            "brain_show",
            "brain_capture",
            "brain_status"
        ])
    );
    assert_eq!(seen["readOnly"]["brain_capture"], false);
    assert_eq!(seen["readOnly"]["brain_context"], true);
    let block = seen["brain_context"]["text"].as_str().unwrap();
    assert!(block.contains("CONCURRENTLY"), "{block}");
    assert!(seen["brain_route"]["result"]["plan_id"].is_string());
    let written = seen["brain_capture"]["result"]["written"]
        .as_array()
        .unwrap();
    assert!(!written.is_empty(), "{seen}");
    assert!(written.iter().all(|w| w["status"] == "candidate"), "{seen}");
    assert_eq!(
        seen["raw"],
        serde_json::json!({
            "errors": {"garbage": -32700, "invalid_utf8": -32700, "oversized": -32600},
            "exit": 0
        })
    );
}
