//! Reading the session-only files under `.brain/runtime/` (git-ignored):
//! the activity log that records context loads.

use std::io::{Read, Seek, SeekFrom};

use super::{Error, Store};

impl Store {
    /// The last `max_bytes` of the runtime file `name`, starting at a line
    /// boundary; `None` when it does not exist or cannot be read (runtime
    /// files are hints: losing one never fails a command).
    pub fn read_runtime_tail(&self, name: &str, max_bytes: u64) -> Option<String> {
        if name.contains(['/', '\\']) || name.starts_with('.') {
            return None;
        }
        let mut file = std::fs::File::open(self.layout().runtime_dir().join(name)).ok()?;
        let len = file.metadata().ok()?.len();
        let start = len.saturating_sub(max_bytes);
        file.seek(SeekFrom::Start(start)).ok()?;
        let mut bytes = Vec::new();
        file.take(max_bytes).read_to_end(&mut bytes).ok()?;
        let mut text = String::from_utf8_lossy(&bytes).into_owned();
        if start > 0 {
            // Drop the partial first line.
            let cut = text.find('\n').map_or(text.len(), |i| i + 1);
            text.drain(..cut);
        }
        Some(text)
    }
}

/// Most session files kept under `runtime/hooks/`; older ones are removed.
const MAX_HOOK_SESSIONS: usize = 64;
/// Most repeat markers kept under `runtime/hooks/`.
const MAX_HOOK_MARKERS: usize = 256;

/// The file name for `key`: a short hash, so any session id or event is a
/// safe, bounded name.
fn hashed(prefix: &str, key: &str) -> String {
    let hash = blake3::hash(key.as_bytes()).to_hex();
    format!("{prefix}-{}.json", &hash.as_str()[..16])
}

impl Store {
    fn hooks_dir(&self) -> std::path::PathBuf {
        self.layout().runtime_dir().join("hooks")
    }

    /// The hook state of agent session `session`: empty when there is none
    /// or it cannot be read (the state is a hint; losing it shows a memory
    /// twice, nothing worse).
    pub fn read_hook_session(&self, session: &str) -> crate::hook::HookSession {
        std::fs::read(self.hooks_dir().join(hashed("session", session)))
            .ok()
            .and_then(|b| serde_json::from_slice(&b).ok())
            .unwrap_or_default()
    }

    /// Writes the hook state of `session` atomically under
    /// `runtime/hooks/`, keeping the newest [`MAX_HOOK_SESSIONS`] sessions.
    /// Needs no write lock: `runtime/` is never tracked.
    pub fn write_hook_session(
        &self,
        session: &str,
        state: &crate::hook::HookSession,
    ) -> Result<(), Error> {
        super::ensure_runtime_ignored(self.layout())?;
        let dir = self.hooks_dir();
        std::fs::create_dir_all(&dir).map_err(|source| Error::Write {
            path: dir.clone(),
            source,
        })?;
        let text = serde_json::to_vec(state).map_err(|e| Error::Write {
            path: dir.clone(),
            source: std::io::Error::other(e),
        })?;
        super::write::write_atomic(&dir.join(hashed("session", session)), &text, true)?;
        prune(&dir, "session-", MAX_HOOK_SESSIONS);
        Ok(())
    }

    /// Claims the event `key` at `now`: `true` for its first run, `false`
    /// when the same event ran less than `window_seconds` ago (a repeat).
    /// The marker is created with `create_new`, so of two concurrent runs
    /// exactly one claims it. Any failure counts as a first run.
    pub fn claim_hook_event(&self, key: &str, now: jiff::Timestamp, window_seconds: i64) -> bool {
        use std::io::Write as _;
        if super::ensure_runtime_ignored(self.layout()).is_err() {
            return true;
        }
        let dir = self.hooks_dir();
        if std::fs::create_dir_all(&dir).is_err() {
            return true;
        }
        let path = dir.join(hashed("event", key));
        let stamp = now.as_second().to_string();
        match std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&path)
        {
            Ok(mut f) => {
                let _ = f.write_all(stamp.as_bytes());
                prune(&dir, "event-", MAX_HOOK_MARKERS);
                true
            }
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                let before = std::fs::read_to_string(&path)
                    .ok()
                    .and_then(|s| s.trim().parse::<i64>().ok());
                let repeat =
                    before.is_some_and(|t| (0..window_seconds).contains(&(now.as_second() - t)));
                if !repeat {
                    let _ = super::write::write_atomic(&path, stamp.as_bytes(), true);
                }
                !repeat
            }
            Err(_) => true,
        }
    }
}

/// Removes the oldest files (by modification time, then name) starting
/// with `prefix` in `dir` while more than `keep` remain.
fn prune(dir: &std::path::Path, prefix: &str, keep: usize) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut files: Vec<(std::time::SystemTime, std::path::PathBuf)> = entries
        .filter_map(Result::ok)
        .filter(|e| e.file_name().to_string_lossy().starts_with(prefix))
        .filter_map(|e| Some((e.metadata().ok()?.modified().ok()?, e.path())))
        .collect();
    if files.len() <= keep {
        return;
    }
    files.sort();
    let over = files.len() - keep;
    for (_, path) in files.into_iter().take(over) {
        let _ = std::fs::remove_file(path);
    }
}
