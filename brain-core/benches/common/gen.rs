//! Deterministic text generation shared by the store benchmarks
//! (`brain-core/benches/store_load.rs`, `brain-cli/benches/commands.rs`):
//! a splitmix64 generator, word lists, record-shaped sentences and whole
//! memories.

#![allow(dead_code, reason = "each bench uses a different part")]

use std::fmt::Write as _;

use brain_core::model::{
    Confidence, DateOrTime, Evidence, EvidenceKind, Importance, InvocationMode, Memory, MemoryId,
    MemoryType, Provenance, ReviewState, Risk, Source, Status,
};
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

// ---------------------------------------------------------------------------
// Whole memories.

/// Seconds of the first memory's capture time (2025-01-01).
pub(crate) const BASE_SECONDS: i64 = 1_735_689_600;

/// One memory: type, texts, scope, provenance, optional routing, validity,
/// lineage and review, all drawn from `rng`; `status` picks the status at
/// its fixed place in the draw order.
pub(crate) fn make_memory(
    rng: &mut Rng,
    index: usize,
    earlier: &[MemoryId],
    status: impl FnOnce(&mut Rng, MemoryType) -> Status,
) -> Memory {
    let kind = pick_kind(rng);
    let title = capitalized_sentence(rng, 4, 9, "");
    let id = MemoryId::generate(&title, &[kind.as_str(), &index.to_string()]);
    let summary = format!(
        "{} {}",
        capitalized_sentence(rng, 8, 14, "."),
        capitalized_sentence(rng, 5, 10, ".")
    );
    let status = status(rng, kind);
    let captured = BASE_SECONDS + i64::try_from(index).unwrap() * 97;
    let provenance = make_provenance(rng, captured);
    let mut m = Memory::new(id, kind, status, title, summary, provenance);
    add_texts_and_scope(rng, &mut m);
    if rng.chance(35) {
        add_routing(rng, &mut m);
    }
    add_validity(rng, &mut m, captured);
    add_lineage_and_review(rng, &mut m, earlier, captured);
    m.normalize();
    m
}

pub(crate) fn make_provenance(rng: &mut Rng, captured: i64) -> Provenance {
    let evidence = (0..rng.below(3))
        .map(|_| {
            if rng.chance(50) {
                Evidence {
                    kind: EvidenceKind::Commit,
                    value: hex(rng, 40),
                }
            } else {
                Evidence {
                    kind: EvidenceKind::File,
                    value: format!("src/{}/{}.rs", rng.pick(MODULES), rng.pick(WORDS)),
                }
            }
        })
        .collect();
    Provenance {
        source: match rng.below(10) {
            0..4 => Source::Manual,
            4..7 => Source::Session,
            7..9 => Source::Commit,
            _ => Source::Import,
        },
        captured_at: timestamp(captured),
        proposed_by: rng.chance(70).then(|| rng.pick(PEOPLE).to_owned()),
        evidence,
    }
}

pub(crate) fn add_texts_and_scope(rng: &mut Rng, m: &mut Memory) {
    let lines = rng.range(3, 8);
    m.detail = (0..lines)
        .map(|_| capitalized_sentence(rng, 8, 16, "."))
        .collect::<Vec<_>>()
        .join("\n");
    m.importance = match rng.below(10) {
        0..2 => Importance::Low,
        2..7 => Importance::Medium,
        7..9 => Importance::High,
        _ => Importance::Critical,
    };
    m.risk = match rng.below(10) {
        0..6 => Risk::Low,
        6..9 => Risk::Medium,
        _ => Risk::High,
    };
    if rng.chance(40) {
        let hundredths = 50 + rng.below(50);
        m.confidence = Confidence::new(hundredths as f64 / 100.0).unwrap();
    }
    m.tags = rng.words(TAGS, 1, 4);
    let modules = rng.words(MODULES, 0, 2);
    m.scope.paths = modules.iter().map(|md| format!("src/{md}/**")).collect();
    if rng.chance(30) {
        m.scope
            .paths
            .push(format!("tests/{}/**", rng.pick(MODULES)));
    }
    m.scope.modules = modules;
}

pub(crate) fn add_routing(rng: &mut Rng, m: &mut Memory) {
    let r = &mut m.routing;
    r.recommended_skills = rng.words(SKILLS, 1, 2);
    if rng.chance(25) {
        r.required_skills = rng.words(SKILLS, 1, 1);
    }
    if rng.chance(10) {
        r.suppressed_skills = rng.words(SKILLS, 1, 1);
    }
    r.trigger_paths = (0..rng.range(1, 3))
        .map(|_| format!("src/{}/**/*.rs", rng.pick(MODULES)))
        .collect();
    r.trigger_tasks = rng.words(TASKS, 0, 2);
    r.invocation_mode = match rng.below(4) {
        0 => InvocationMode::Required,
        1 => InvocationMode::Prefer,
        2 => InvocationMode::Optional,
        _ => InvocationMode::Suppress,
    };
}

pub(crate) fn add_validity(rng: &mut Rng, m: &mut Memory, captured: i64) {
    if rng.chance(15) {
        m.validity.observed_at = Some(timestamp(captured + 3_600));
    }
    if m.kind == MemoryType::Working || rng.chance(5) {
        let days =
            jiff::SignedDuration::from_hours(24 * (30 + i64::try_from(rng.below(60)).unwrap()));
        let until = timestamp(captured).checked_add(days).unwrap();
        m.validity.expires = Some(DateOrTime::Date(
            until.to_zoned(jiff::tz::TimeZone::UTC).date(),
        ));
    }
    if rng.chance(5) {
        m.validity.valid_from = Some(timestamp(captured));
        m.validity.valid_until = Some(timestamp(captured + 86_400 * 365));
    }
}

pub(crate) fn add_lineage_and_review(
    rng: &mut Rng,
    m: &mut Memory,
    earlier: &[MemoryId],
    captured: i64,
) {
    let has_earlier = !earlier.is_empty();
    let status = m.status;
    if status == Status::Superseded {
        m.lineage.superseded_by = Some(earlier[rng.below(earlier.len())].clone());
    }
    if has_earlier && rng.chance(10) {
        m.lineage.version = u32::try_from(rng.range(2, 3)).unwrap();
        m.lineage.supersedes = vec![earlier[rng.below(earlier.len())].clone()];
    }
    if has_earlier && rng.chance(12) {
        m.lineage.related = (0..rng.range(1, 3))
            .map(|_| earlier[rng.below(earlier.len())].clone())
            .collect();
    }
    // A record cannot supersede itself; ids are unique per index, so no clash.

    match status {
        Status::Candidate => m.review.state = Some(ReviewState::Pending),
        Status::Dismissed => {
            m.review.state = Some(ReviewState::Rejected);
            m.review.decided_at = Some(timestamp(captured + 7_200));
            m.review.decided_by = Some(rng.pick(PEOPLE).to_owned());
            m.review.reason = Some(capitalized_sentence(rng, 5, 10, "."));
        }
        Status::Active if rng.chance(40) => {
            m.review.state = Some(ReviewState::Approved);
            m.review.decided_at = Some(timestamp(captured + 7_200));
            m.review.decided_by = Some(rng.pick(PEOPLE).to_owned());
        }
        _ => {}
    }
    if rng.chance(8) {
        m.notes = capitalized_sentence(rng, 6, 14, ".");
    }
}
