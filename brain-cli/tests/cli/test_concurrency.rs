//! Concurrent writers lose nothing.

use std::process::{Child, Stdio};

use crate::common::TestEnv;

#[test]
fn eight_processes_adding_25_memories_each_end_with_200_valid_files() {
    let env = TestEnv::empty();
    env.brain(["init"]).success();
    let types = [
        "decision",
        "gotcha",
        "convention",
        "pattern",
        "goal",
        "working",
    ];
    // Eight writer processes run at once, each adding its 25 memories in turn.
    let workers: Vec<std::thread::JoinHandle<Vec<String>>> = (0..8)
        .map(|w| {
            let mut cmds: Vec<std::process::Command> = (0..25)
                .map(|i| {
                    let mut cmd = env.command([
                        "add",
                        "--type",
                        types[i % types.len()],
                        "--title",
                        "Same title from every writer",
                        "--summary",
                        &format!("writer {w} memory {i}"),
                    ]);
                    cmd.stdout(Stdio::piped())
                        .stderr(Stdio::piped())
                        .stdin(Stdio::null());
                    cmd
                })
                .collect();
            std::thread::spawn(move || {
                cmds.iter_mut()
                    .map(|cmd| {
                        let child: Child = cmd.spawn().unwrap();
                        let out = child.wait_with_output().unwrap();
                        assert!(
                            out.status.success(),
                            "{}",
                            String::from_utf8_lossy(&out.stderr)
                        );
                        String::from_utf8(out.stdout).unwrap().trim().to_owned()
                    })
                    .collect()
            })
        })
        .collect();
    let mut ids: Vec<String> = workers
        .into_iter()
        .flat_map(|h| h.join().unwrap())
        .collect();
    assert_eq!(ids.len(), 200);
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), 200, "every add got its own id");

    let (json, _) = env.brain_json("list", &["list"]);
    assert_eq!(json["memories"].as_array().unwrap().len(), 200);
    assert_eq!(json["skipped"].as_array().unwrap().len(), 0);
    let mut summaries: Vec<&str> = json["memories"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["summary"].as_str().unwrap())
        .collect();
    summaries.sort_unstable();
    summaries.dedup();
    assert_eq!(summaries.len(), 200, "no write was lost or overwritten");
    let lint = env.brain(["lint"]);
    assert_eq!(lint.stdout, "0 errors, 0 warnings in 200 files\n", "{lint}");
}
