//! The activity log: one JSON line per context load in
//! `.brain/runtime/activity.jsonl` (git-ignored, never a tracked file).
//!
//! It feeds the usage component of ranking, `conversation-start` (what was
//! loaded last) and `diff` (what changed since). Lines that do not parse are
//! skipped: the log is a hint, not a record.

use std::collections::HashMap;

use jiff::Timestamp;
use serde::{Deserialize, Serialize};

use crate::model::MemoryId;

/// The log's file name under `runtime/`.
pub const LOG: &str = "activity.jsonl";
/// How much of the log's end is read.
pub const TAIL_BYTES: u64 = 1 << 20;

/// One context load.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Entry {
    /// When.
    pub at: Timestamp,
    /// `inject`, `conversation-start`, …
    pub command: String,
    /// The task, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub task: Option<String>,
    /// Paths.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub paths: Vec<String>,
    /// Modules.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub modules: Vec<String>,
    /// Memories injected.
    #[serde(default)]
    pub ids: Vec<MemoryId>,
}

impl Entry {
    /// The entry as one JSON line (no newline). The task, paths and
    /// modules are what a caller typed: secrets in them are redacted.
    pub fn to_line(&self) -> String {
        let mut e = self.clone();
        e.redact();
        serde_json::to_string(&e).unwrap_or_default()
    }

    /// Redacts secrets in the free text of the entry.
    pub fn redact(&mut self) {
        let clean = |s: &mut String| *s = crate::secrets::redact(s).0;
        if let Some(task) = &mut self.task {
            clean(task);
        }
        self.paths.iter_mut().for_each(clean);
        self.modules.iter_mut().for_each(clean);
    }
}

/// Parses the log's text; bad lines are skipped.
pub fn parse(text: &str) -> Vec<Entry> {
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect()
}

/// How often each memory was injected.
pub fn usage(entries: &[Entry]) -> HashMap<MemoryId, u32> {
    let mut out: HashMap<MemoryId, u32> = HashMap::new();
    for e in entries {
        for id in &e.ids {
            *out.entry(id.clone()).or_default() += 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_usage() {
        let e = Entry {
            at: "2026-11-20T12:00:00Z".parse().unwrap(),
            command: "inject".into(),
            task: Some("fix refunds".into()),
            paths: vec!["src/a.rs".into()],
            modules: Vec::new(),
            ids: vec![MemoryId::new("a-1").unwrap(), MemoryId::new("b-2").unwrap()],
        };
        let text = format!("{}\nnot json\n{}\n", e.to_line(), e.to_line());
        let parsed = parse(&text);
        assert_eq!(parsed, vec![e.clone(), e]);
        assert_eq!(usage(&parsed)[&MemoryId::new("a-1").unwrap()], 2);
    }
}
