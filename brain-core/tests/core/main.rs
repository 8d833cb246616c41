//! Integration tests of `brain-core`: one binary, one module per area.

#![allow(
    clippy::unwrap_used,
    clippy::disallowed_methods,
    clippy::too_many_lines
)]

mod extract;
mod extract_corpus;
#[path = "../support/fixture_tree.rs"]
mod fixture_tree;
mod git;
mod retrieval;
mod review_corpus;
mod roundtrip;
mod schemas;
mod secrets;
mod store;

pub(crate) use fixture_tree::copy_tree;

use std::path::{Path, PathBuf};

/// Every `*.yaml` file of a fixture directory, by file name, in name order,
/// each read into a `Vec` of `T` by `parse` (which names the file when it
/// fails).
pub(crate) fn yaml_files<T>(dir: &Path, parse: impl Fn(&str, &str) -> Vec<T>) -> Vec<(String, T)> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "yaml"))
        .collect();
    files.sort();
    let mut out = Vec::new();
    for path in files {
        let file = path.file_name().unwrap().to_string_lossy().into_owned();
        let text = std::fs::read_to_string(&path).unwrap();
        out.extend(parse(&file, &text).into_iter().map(|c| (file.clone(), c)));
    }
    out
}

/// The workspace root.
pub(crate) fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
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
