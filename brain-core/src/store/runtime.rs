//! Reading the session-only files under `.brain/runtime/` (git-ignored):
//! the activity log that records context loads.

use std::io::{Read, Seek, SeekFrom};

use super::Store;

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
