//! Whole-file access to the runtime files of routing feedback and failure
//! reinforcement: the applied-event ledger, the reminder queue and the
//! failure log under `.brain/runtime/` (git-ignored, never a tracked file).
//!
//! Appending goes through [`Store::append_runtime_log`]; this module adds
//! reading a whole file (the ledger must be read to its first line, or an old
//! event would be applied twice) and replacing one atomically (acknowledging
//! reminders rewrites the queue). Names are plain file names inside
//! `runtime/`, never paths.

use std::path::PathBuf;

use super::{Error, Store, WriteLock, ensure_runtime_ignored, write};

impl Store {
    fn runtime_file(&self, name: &str) -> Result<PathBuf, Error> {
        if name.is_empty() || name.starts_with('.') || name.contains(['/', '\\']) {
            return Err(Error::OutsideStore {
                path: format!("runtime/{name}"),
            });
        }
        Ok(self.layout().runtime_dir().join(name))
    }

    /// Returns the whole text of the runtime file `name`, or `None` when it
    /// does not exist.
    ///
    /// # Errors
    /// When the name is not a plain file name, or the file exists but cannot
    /// be read (a ledger that cannot be read must stop a write, not be taken
    /// for empty).
    pub fn read_runtime_file(&self, name: &str) -> Result<Option<String>, Error> {
        let path = self.runtime_file(name)?;
        match std::fs::read(&path) {
            Ok(bytes) => Ok(Some(String::from_utf8_lossy(&bytes).into_owned())),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(source) => Err(Error::Read { path, source }),
        }
    }

    /// Replaces the runtime file `name` with `text` atomically (a reader sees
    /// the old file or the new one). The caller holds the write lock, so no
    /// concurrent append is lost between its read and this write.
    pub fn replace_runtime_file(
        &self,
        _lock: &WriteLock,
        name: &str,
        text: &str,
    ) -> Result<(), Error> {
        let path = self.runtime_file(name)?;
        ensure_runtime_ignored(self.layout())?;
        let text = crate::secrets::redact_log_text(text);
        write::write_atomic(&path, text.as_bytes(), true)
    }
}

#[cfg(test)]
mod tests {
    use crate::config::Config;
    use crate::store::Store;

    #[test]
    fn read_replace_and_refuse_paths() {
        let dir = tempfile::tempdir().unwrap();
        Store::init(dir.path(), &Config::default(), false).unwrap();
        let store = Store::open(dir.path()).unwrap();
        assert_eq!(store.read_runtime_file("queue.jsonl").unwrap(), None);
        store.append_runtime_log("queue.jsonl", "a").unwrap();
        store.append_runtime_log("queue.jsonl", "b").unwrap();
        assert_eq!(
            store.read_runtime_file("queue.jsonl").unwrap().as_deref(),
            Some("a\nb\n")
        );
        let lock = store.lock().unwrap();
        store
            .replace_runtime_file(&lock, "queue.jsonl", "b\n")
            .unwrap();
        assert_eq!(
            store.read_runtime_file("queue.jsonl").unwrap().as_deref(),
            Some("b\n")
        );
        for bad in ["", "../config.yaml", ".gitignore", "a/b"] {
            assert!(store.read_runtime_file(bad).is_err(), "{bad}");
            assert!(
                store.replace_runtime_file(&lock, bad, "x").is_err(),
                "{bad}"
            );
        }
    }
}
