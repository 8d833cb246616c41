//! The session profile file, `.brain/runtime/session-profile.json`: read,
//! written and removed here, parsed and judged by
//! [`crate::session_profile`].
//!
//! The file lives under `runtime/`, which is git-ignored, so it never becomes
//! part of the repository. It is written atomically (temporary file, `fsync`,
//! rename) like every record, so a reader sees the old profile or the new
//! one, never a torn one. Callers hold the store's write lock across a
//! read-modify-write so that two `brain session set` runs cannot lose each
//! other's changes.

use std::path::PathBuf;

use super::{Error, Layout, Store, WriteLock, ensure_runtime_ignored, write};

/// The profile's file name under `runtime/`.
pub(crate) const SESSION_PROFILE_FILE: &str = "session-profile.json";

impl Layout {
    /// Returns the path of the session profile.
    pub fn session_profile_file(&self) -> PathBuf {
        self.runtime_dir().join(SESSION_PROFILE_FILE)
    }
}

impl Store {
    /// Reads the session profile's bytes; `None` when there is none.
    ///
    /// # Errors
    /// The file exists but cannot be read.
    pub fn read_session_profile(&self) -> Result<Option<Vec<u8>>, Error> {
        let path = self.layout().session_profile_file();
        match std::fs::read(&path) {
            Ok(bytes) => Ok(Some(bytes)),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(source) => Err(Error::Read { path, source }),
        }
    }

    /// Replaces the session profile with `text`, atomically, creating
    /// `runtime/` (with its `.gitignore`) when absent.
    pub fn write_session_profile(&self, _lock: &WriteLock, text: &str) -> Result<(), Error> {
        ensure_runtime_ignored(self.layout())?;
        let text = crate::secrets::redact_log_text(text);
        write::write_atomic(&self.layout().session_profile_file(), text.as_bytes(), true)
    }

    /// Removes the session profile. Returns whether there was one.
    pub fn remove_session_profile(&self, _lock: &WriteLock) -> Result<bool, Error> {
        let path = self.layout().session_profile_file();
        match std::fs::remove_file(&path) {
            Ok(()) => Ok(true),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(false),
            Err(source) => Err(Error::Write { path, source }),
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::config::Config;
    use crate::store::Store;

    #[test]
    fn write_read_remove_round_trip_under_runtime() {
        let tmp = tempfile::tempdir().unwrap();
        Store::init(tmp.path(), &Config::default(), false).unwrap();
        let store = Store::open(tmp.path()).unwrap();
        assert_eq!(store.read_session_profile().unwrap(), None);
        let lock = store.lock().unwrap();
        assert!(!store.remove_session_profile(&lock).unwrap());
        store.write_session_profile(&lock, "{}\n").unwrap();
        let path = tmp.path().join(".brain/runtime/session-profile.json");
        assert_eq!(store.layout().session_profile_file(), path);
        assert_eq!(
            store.read_session_profile().unwrap().as_deref(),
            Some(&b"{}\n"[..])
        );
        store
            .write_session_profile(&lock, "{\"hints\": []}\n")
            .unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "{\"hints\": []}\n");
        // No temporary file is left next to it.
        let names: Vec<String> = std::fs::read_dir(path.parent().unwrap())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".partial"))
            .collect();
        assert!(names.is_empty(), "{names:?}");
        assert!(store.remove_session_profile(&lock).unwrap());
        assert!(!path.exists());
        assert_eq!(store.read_session_profile().unwrap(), None);
    }
}
