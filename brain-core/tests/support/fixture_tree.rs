//! Copies a store or fixture tree into a test's temp dir, without
//! `.brain/runtime/`.
//!
//! `runtime/` holds caches, locks and session state that a run of the
//! binary writes (the README's quickstart writes one under
//! `.brain-example/`). A copied cache would make the first load of the copy
//! warm, so tests that count cache rebuilds or compare runtime state would
//! depend on what was run in the checkout before. Both test binaries
//! (`brain-core/tests/core` and `brain-cli/tests/cli`) include this one file.

use std::path::Path;

/// Copies the tree at `from` to `to`, in sorted order, leaving out every
/// `runtime/` directory.
pub(crate) fn copy_tree(from: &Path, to: &Path) {
    let mut entries: Vec<_> = std::fs::read_dir(from)
        .unwrap_or_else(|e| panic!("read {}: {e}", from.display()))
        .map(Result::unwrap)
        .collect();
    entries.sort_by_key(std::fs::DirEntry::file_name);
    std::fs::create_dir_all(to).unwrap();
    for entry in entries {
        let path = entry.path();
        let target = to.join(entry.file_name());
        let kind = entry.file_type().unwrap();
        if kind.is_dir() {
            if entry.file_name() != "runtime" {
                copy_tree(&path, &target);
            }
        } else {
            std::fs::copy(&path, &target)
                .unwrap_or_else(|e| panic!("copy {}: {e}", path.display()));
        }
    }
}
