//! Integration tests of `brain-core`: one binary, one module per area.

#![allow(
    clippy::unwrap_used,
    clippy::disallowed_methods,
    clippy::too_many_lines
)]

mod extract;
mod git;
mod retrieval;
mod review_corpus;
mod roundtrip;
mod schemas;
mod secrets;
mod store;

use std::path::{Path, PathBuf};

/// The workspace root.
pub(crate) fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

/// Copies a directory tree.
pub(crate) fn copy_tree(from: &Path, to: &Path) {
    for entry in walkdir::WalkDir::new(from).sort_by_file_name() {
        let entry = entry.unwrap();
        let rel = entry.path().strip_prefix(from).unwrap();
        let target = to.join(rel);
        if entry.file_type().is_dir() {
            std::fs::create_dir_all(&target).unwrap();
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

#[test]
fn no_forgotten_test_files() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/core");
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
