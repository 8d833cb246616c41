//! Deterministic text generation shared by the store benchmarks
//! (`brain-core/benches/store_load.rs`, `brain-cli/benches/commands.rs`):
//! a splitmix64 generator, word lists and record-shaped sentences.

#![allow(dead_code, reason = "each bench uses a different part")]

use std::fmt::Write as _;

use brain_core::model::MemoryType;
use jiff::Timestamp;

// ---------------------------------------------------------------------------
// Deterministic random numbers (splitmix64).

pub(crate) struct Rng(pub(crate) u64);

impl Rng {
    pub(crate) fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (n > 0).
    pub(crate) fn below(&mut self, n: usize) -> usize {
        usize::try_from(self.next_u64() % n as u64).unwrap()
    }

    /// Uniform in `lo..=hi`.
    pub(crate) fn range(&mut self, lo: usize, hi: usize) -> usize {
        lo + self.below(hi - lo + 1)
    }

    /// True with probability `percent` / 100.
    pub(crate) fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }

    pub(crate) fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }

    /// Between `lo` and `hi` (inclusive) words picked from `items`.
    pub(crate) fn words(&mut self, items: &[&str], lo: usize, hi: usize) -> Vec<String> {
        let n = self.range(lo, hi);
        (0..n).map(|_| self.pick(items).to_owned()).collect()
    }
}

// ---------------------------------------------------------------------------
// Word lists.

pub(crate) const WORDS: &[&str] = &[
    "cache",
    "retry",
    "ledger",
    "invoice",
    "migration",
    "schema",
    "index",
    "query",
    "timeout",
    "queue",
    "worker",
    "payload",
    "token",
    "session",
    "rollback",
    "deploy",
    "config",
    "feature",
    "flag",
    "endpoint",
    "handler",
    "request",
    "response",
    "batch",
    "stream",
    "buffer",
    "lock",
    "transaction",
    "replica",
    "shard",
    "partition",
    "event",
    "webhook",
    "audit",
    "log",
    "metric",
    "trace",
    "alert",
    "budget",
    "quota",
    "limit",
    "backoff",
    "checksum",
    "snapshot",
    "restore",
    "archive",
    "export",
    "import",
    "parser",
    "validator",
    "serializer",
    "client",
    "server",
    "gateway",
    "proxy",
    "router",
    "scheduler",
    "cron",
    "job",
    "task",
    "pipeline",
    "build",
    "release",
    "version",
    "dependency",
    "crate",
    "module",
    "interface",
    "adapter",
    "fixture",
    "test",
    "mock",
    "benchmark",
    "profile",
    "allocation",
    "pool",
    "connection",
    "socket",
    "certificate",
    "secret",
    "permission",
    "role",
    "tenant",
    "account",
    "customer",
    "order",
    "payment",
    "refund",
    "currency",
    "rounding",
    "timezone",
    "locale",
    "encoding",
    "unicode",
    "path",
    "file",
    "directory",
    "upload",
    "download",
    "thumbnail",
    "search",
    "ranking",
    "filter",
    "pagination",
    "cursor",
    "offset",
    "idempotency",
    "ordering",
    "consistency",
    "latency",
    "throughput",
    "memory",
    "leak",
    "panic",
    "error",
    "warning",
    "fallback",
    "default",
];

pub(crate) const VERBS: &[&str] = &[
    "use", "avoid", "prefer", "never", "always", "wrap", "split", "merge", "validate", "retry",
    "cache", "lock", "log", "check", "document", "pin", "batch", "stream", "bound", "measure",
];

pub(crate) const MODULES: &[&str] = &[
    "billing",
    "auth",
    "api",
    "ingest",
    "notify",
    "ledger",
    "search",
    "storage",
    "ui",
    "cli",
    "sync",
    "scheduler",
    "reports",
    "admin",
    "payments",
    "accounts",
];

pub(crate) const TAGS: &[&str] = &[
    "database",
    "security",
    "performance",
    "testing",
    "api",
    "frontend",
    "backend",
    "ops",
    "ci",
    "migrations",
    "money",
    "concurrency",
    "errors",
    "logging",
    "config",
    "dependencies",
    "style",
    "docs",
    "release",
    "data-loss",
];

pub(crate) const SKILLS: &[&str] = &[
    "rust-review",
    "sql-migrations",
    "security-audit",
    "perf-check",
    "frontend-lint",
    "api-contract",
    "release-notes",
    "db-schema",
    "load-test",
    "threat-model",
];

pub(crate) const TASKS: &[&str] = &[
    "add a migration",
    "change the billing flow",
    "touch authentication",
    "add an endpoint",
    "bump a dependency",
    "refactor the scheduler",
    "change retry logic",
    "edit the public api",
    "write a release",
    "fix a flaky test",
];

pub(crate) const PEOPLE: &[&str] = &[
    "Ann <ann@example.com>",
    "Bob <bob@example.com>",
    "claude-code",
    "codex",
    "Chen <chen@example.com>",
];

// ---------------------------------------------------------------------------
// Synthetic memories.

pub(crate) fn capitalized_sentence(rng: &mut Rng, min: usize, max: usize, end: &str) -> String {
    let n = rng.range(min, max);
    let mut s = String::new();
    for i in 0..n {
        let w = if i % 4 == 0 {
            rng.pick(VERBS)
        } else {
            rng.pick(WORDS)
        };
        if i == 0 {
            let mut c = w.chars();
            if let Some(first) = c.next() {
                s.push(first.to_ascii_uppercase());
                s.push_str(c.as_str());
            }
        } else {
            s.push(' ');
            s.push_str(w);
        }
    }
    s.push_str(end);
    s
}

pub(crate) fn pick_kind(rng: &mut Rng) -> MemoryType {
    // decision 30 / gotcha 28 / convention 18 / pattern 14 / working 5 / goal 5
    match rng.below(100) {
        0..30 => MemoryType::Decision,
        30..58 => MemoryType::Gotcha,
        58..76 => MemoryType::Convention,
        76..90 => MemoryType::Pattern,
        90..95 => MemoryType::Working,
        _ => MemoryType::Goal,
    }
}

pub(crate) fn timestamp(seconds: i64) -> Timestamp {
    Timestamp::from_second(seconds).unwrap()
}

pub(crate) fn hex(rng: &mut Rng, len: usize) -> String {
    let mut s = String::with_capacity(len);
    while s.len() < len {
        write!(s, "{:016x}", rng.next_u64()).unwrap();
    }
    s.truncate(len);
    s
}
