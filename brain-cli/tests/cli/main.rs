//! Integration tests of the `brain` binary: one test binary, one module per command.

#![allow(
    clippy::unwrap_used,
    clippy::disallowed_methods,
    clippy::too_many_lines
)]

mod common;
mod test_add;
mod test_capture;
mod test_concurrency;
mod test_devset;
mod test_edit;
mod test_embed;
mod test_export;
mod test_failures;
mod test_feedback;
mod test_git;
mod test_help;
mod test_hook;
mod test_import;
mod test_init;
mod test_inject;
mod test_lifecycle;
mod test_lint;
mod test_list_show_stats;
mod test_malformed;
mod test_mcp;
mod test_mcp_client;
mod test_normalize;
mod test_preference;
mod test_repository;
mod test_review;
mod test_route;
mod test_rules;
mod test_secret_corpus;
mod test_secrets;
mod test_session;
mod test_session_profile;
mod test_setup;
mod test_status_sweep;

#[test]
fn no_forgotten_test_files() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cli");
    let main = std::fs::read_to_string(dir.join("main.rs")).unwrap();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let name = entry.unwrap().file_name().into_string().unwrap();
        if let Some(module) = name.strip_suffix(".rs")
            && module != "main"
        {
            assert!(
                main.contains(&format!("mod {module};")),
                "{name} is not declared in main.rs"
            );
        }
    }
}
