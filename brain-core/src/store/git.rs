//! Read-only git access through gix: the committed version of record files.
//!
//! Used by `lint` to check status changes made by hand against the allowed
//! transitions. Outside a git repository, or before the first commit, there is
//! nothing to compare with and every function returns an empty result.

use std::collections::BTreeMap;
use std::path::Path;

/// Returns the text at `HEAD` of each of `rel_paths` (relative to the
/// repository's work tree) that exists there and is UTF-8.
pub fn head_texts(root: &Path, rel_paths: &[&str]) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    let Ok(repo) = gix::discover(root) else {
        return out;
    };
    let Some(workdir) = repo.workdir().map(Path::to_path_buf) else {
        return out;
    };
    let (Ok(root_abs), Ok(workdir_abs)) = (root.canonicalize(), workdir.canonicalize()) else {
        return out;
    };
    let Ok(prefix) = root_abs.strip_prefix(&workdir_abs) else {
        return out;
    };
    let Ok(tree) = repo.head_commit().and_then(|c| c.tree()) else {
        return out;
    };
    for rel in rel_paths {
        let in_repo = prefix.join(rel);
        let Ok(Some(entry)) = tree.lookup_entry_by_path(&in_repo) else {
            continue;
        };
        let Ok(object) = entry.object() else {
            continue;
        };
        if let Ok(text) = String::from_utf8(object.data.clone()) {
            out.insert((*rel).to_owned(), text);
        }
    }
    out
}
