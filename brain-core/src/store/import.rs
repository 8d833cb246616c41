//! Reading a RepoBrain `.brain/` tree for `brain import --from-repobrain`.
//!
//! Only the record directories are read: the six memory directories,
//! `archive/` (archived goals) and `preferences/`, each walked in sorted order.
//! Every Markdown file comes back with its path relative to the RepoBrain
//! directory and its text, or why the text could not be read; anything else in
//! those directories comes back as a file that is not Markdown, so the caller
//! can report it. Hidden entries are skipped. Nothing is parsed here: turning
//! the files into records is `crate::migrate`'s job.

use std::path::{Path, PathBuf};

use super::Error;

/// The directories of a RepoBrain store that hold records, in reading order.
pub const REPOBRAIN_DIRS: [&str; 8] = [
    "decisions",
    "gotchas",
    "conventions",
    "patterns",
    "working",
    "goals",
    "archive",
    "preferences",
];

/// One file of a RepoBrain tree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RepoBrainFile {
    /// Path relative to the RepoBrain `.brain/` directory, `/`-separated
    /// (`decisions/2026-01-02-use-sqlx-101010101.md`).
    pub path: String,
    /// The text of a Markdown file, or why it cannot be used.
    pub text: Result<String, String>,
}

/// Returns the RepoBrain directory `dir` names: `dir` itself when it holds a
/// record directory, else `dir/.brain` when that does.
pub fn find_repobrain_dir(dir: &Path) -> Result<PathBuf, Error> {
    let holds_records = |d: &Path| REPOBRAIN_DIRS.iter().any(|name| d.join(name).is_dir());
    if holds_records(dir) {
        return Ok(dir.to_path_buf());
    }
    let nested = dir.join(super::BRAIN_DIR);
    if holds_records(&nested) {
        return Ok(nested);
    }
    Err(Error::NotRepoBrain {
        path: dir.to_path_buf(),
    })
}

/// Reads every file under the record directories of the RepoBrain tree at
/// `dir` (see [`find_repobrain_dir`]), in directory order, then path order.
pub fn read_repobrain_tree(dir: &Path) -> Result<Vec<RepoBrainFile>, Error> {
    let base = find_repobrain_dir(dir)?;
    let mut files = Vec::new();
    for name in REPOBRAIN_DIRS {
        let sub = base.join(name);
        if !sub.is_dir() {
            continue;
        }
        let walk = walkdir::WalkDir::new(&sub)
            .min_depth(1)
            .sort_by_file_name()
            .into_iter()
            .filter_entry(|e| !e.file_name().to_string_lossy().starts_with('.'));
        for entry in walk {
            let entry = entry.map_err(|e| Error::Read {
                path: e.path().map_or_else(|| sub.clone(), Path::to_path_buf),
                source: e.into(),
            })?;
            if entry.file_type().is_dir() {
                continue;
            }
            let rel = relative(&base, entry.path());
            let is_markdown = entry.path().extension().is_some_and(|e| e == "md");
            let text = if is_markdown {
                std::fs::read(entry.path())
                    .map_err(|e| format!("cannot read: {e}"))
                    .and_then(|b| {
                        String::from_utf8(b).map_err(|_| "file is not valid UTF-8".to_owned())
                    })
            } else {
                Err("not a Markdown (`.md`) file".to_owned())
            };
            files.push(RepoBrainFile { path: rel, text });
        }
    }
    Ok(files)
}

fn relative(base: &Path, path: &Path) -> String {
    let rel = path.strip_prefix(base).unwrap_or(path);
    let parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    parts.join("/")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_record_dirs_in_order_and_flags_other_files() {
        let tmp = tempfile::tempdir().unwrap();
        let brain = tmp.path().join(".brain");
        for (rel, text) in [
            ("preferences/pref-skill-a.md", "p"),
            ("decisions/b.md", "b"),
            ("decisions/a.md", "a"),
            ("decisions/notes.txt", "x"),
            ("decisions/.hidden.md", "h"),
            ("archive/2025/g.md", "g"),
            ("index.md", "not a record"),
        ] {
            let p = brain.join(rel);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, text).unwrap();
        }
        // Both the project root and the `.brain/` directory are accepted.
        for dir in [tmp.path(), brain.as_path()] {
            let files = read_repobrain_tree(dir).unwrap();
            let paths: Vec<&str> = files.iter().map(|f| f.path.as_str()).collect();
            assert_eq!(
                paths,
                [
                    "decisions/a.md",
                    "decisions/b.md",
                    "decisions/notes.txt",
                    "archive/2025/g.md",
                    "preferences/pref-skill-a.md"
                ]
            );
            assert_eq!(files[0].text.as_deref(), Ok("a"));
            assert!(files[2].text.is_err());
        }
        let empty = tempfile::tempdir().unwrap();
        assert!(matches!(
            read_repobrain_tree(empty.path()),
            Err(Error::NotRepoBrain { .. })
        ));
    }
}
