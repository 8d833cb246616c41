//! Reviewer benchmark: `brain review` of 10 candidates against stores of
//! 1,000 and 10,000 active memories, in-process and as a whole process.
//!
//! ```text
//! cargo build --release -p brain-cli
//! cargo bench -p brain-core --bench review            # 1,000 and 10,000 memories
//! cargo bench -p brain-core --bench review -- 10000
//! ```
//!
//! The store is deterministic (fixed-seed PRNG, fixed timestamps and file
//! times). The 10 candidates are 4 verbatim duplicates, 3 replacements
//! ("... instead of ...") and 3 novel memories; the bench asserts the
//! reviewer's decisions, so the timings are for correct answers.

#![allow(clippy::disallowed_methods, clippy::print_stdout, clippy::print_stderr)]
#![allow(clippy::unwrap_used, clippy::cast_precision_loss)]

// Measure with the allocator the `brain` binary uses.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant, UNIX_EPOCH};

use brain_core::config::Config;
use brain_core::model::{Memory, MemoryId, MemoryType, Provenance, Source, Status};
use brain_core::review::Decision;
use brain_core::store::Store;

const SUBJECTS: &[&str] = &[
    "refund ledger writes",
    "session token refresh",
    "webhook signature checks",
    "order export jobs",
    "rate limiting",
    "feature flag rollout",
    "notification fan-out",
    "invoice PDF rendering",
    "search indexing",
    "cache invalidation",
    "tenant isolation",
    "currency rounding",
    "audit logging",
    "retry backoff",
    "connection pooling",
    "job scheduling",
    "CSV imports",
    "form validation",
    "image uploads",
    "email templates",
];
const TECH: &[&str] = &[
    "Postgres advisory locks",
    "Redis sliding windows",
    "the ledger helper",
    "zod schemas",
    "pino logs",
    "BullMQ queues",
    "Playwright traces",
    "Prisma migrations",
    "OpenTelemetry spans",
    "S3 presigned URLs",
    "decimal.js",
    "ULIDs",
    "HMAC signatures",
    "the outbox table",
];
const DIRS: &[&str] = &[
    "src/billing",
    "src/ledger",
    "src/auth",
    "src/api",
    "src/workers",
    "src/db",
];

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[usize::try_from(self.next() % items.len() as u64).unwrap()]
    }
}

fn memory(i: usize, rng: &mut Rng) -> Memory {
    let kind = MemoryType::ALL[i % 4];
    let (subject, tech, dir) = (rng.pick(SUBJECTS), rng.pick(TECH), rng.pick(DIRS));
    let title = format!("Use {tech} for {subject} ({i})");
    let summary =
        format!("All {subject} code in {dir} goes through {tech}; case {i} documents why and how.");
    let mut m = Memory::new(
        MemoryId::generate(&title, &[kind.as_str(), &i.to_string()]),
        kind,
        Status::Active,
        title,
        summary,
        Provenance {
            source: Source::Manual,
            captured_at: jiff::Timestamp::from_second(1_735_689_600 + i64::try_from(i).unwrap())
                .unwrap(),
            proposed_by: None,
            evidence: Vec::new(),
        },
    );
    m.detail = format!("Applies to {dir}.\nDo not bypass {tech} when touching {subject}.\n");
    m.scope.paths = vec![format!("{dir}/**")];
    m.normalize();
    m
}

fn write(root: &Path, m: &Memory) {
    let path = root
        .join(".brain")
        .join(m.kind.dir_name())
        .join(format!("{}.yaml", m.id));
    let mut f = std::fs::File::create_new(&path).unwrap();
    f.write_all(brain_core::yaml::memory_to_string(m).as_bytes())
        .unwrap();
    f.set_modified(UNIX_EPOCH + Duration::from_secs(1_748_736_000))
        .unwrap();
}

/// Writes `n` active memories and 10 candidates; returns the expected decisions.
fn generate(n: usize) -> (tempfile::TempDir, Vec<(MemoryId, Decision)>) {
    let dir = tempfile::Builder::new()
        .prefix("brain-review-")
        .tempdir()
        .unwrap();
    let root = dir.path();
    Store::init(root, &Config::default(), false).unwrap();
    let mut rng = Rng(0x7265_7669_6577 ^ n as u64);
    let stored: Vec<Memory> = (0..n).map(|i| memory(i, &mut rng)).collect();
    for m in &stored {
        write(root, m);
    }
    let mut expected = Vec::new();
    for k in 0..10 {
        let base = &stored[(k * 7919) % n];
        let mut c = base.clone();
        c.id = MemoryId::new(format!("candidate-{k:02}-ffff")).unwrap();
        c.status = Status::Candidate;
        c.provenance.captured_at = jiff::Timestamp::from_second(1_767_225_600).unwrap();
        let decision = match k {
            0..4 => Decision::Merge,
            4..7 => {
                c.summary = format!(
                    "{} We no longer do it this way: use the new gateway instead of the old path.",
                    c.summary
                );
                Decision::Supersede
            }
            _ => {
                c.title = format!("Pin the {k} release train to a fixed weekday");
                "Releases leave on Tuesdays so that support is staffed.".clone_into(&mut c.summary);
                c.detail = String::new();
                c.scope.paths.clear();
                Decision::Accept
            }
        };
        c.review.state = Some(brain_core::model::ReviewState::Pending);
        c.normalize();
        write(root, &c);
        expected.push((c.id.clone(), decision));
    }
    (dir, expected)
}

fn brain_binary() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .join("target/release/brain")
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn main() {
    let sizes: Vec<usize> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .map(|a| a.replace('_', "").parse().unwrap())
        .collect();
    let sizes = if sizes.is_empty() {
        vec![1_000, 10_000]
    } else {
        sizes
    };
    let brain = brain_binary();
    println!(
        "| stored memories | candidates | in-process review (ms) | `brain review` wall (ms) | `brain --format json review` wall (ms) |"
    );
    println!("|---:|---:|---:|---:|---:|");
    for n in sizes {
        eprintln!("[{n}] generating…");
        let (dir, expected) = generate(n);
        let root = dir.path();
        let b = brain_core::Brain::open(root).unwrap();
        b.catalog(); // build the cache
        let mut runs = Vec::new();
        for _ in 0..5 {
            let start = Instant::now();
            let report = b.review_candidates(&[], false).unwrap();
            runs.push(start.elapsed());
            assert_eq!(report.items.len(), 10);
            for (id, decision) in &expected {
                let item = report.items.iter().find(|i| &i.id == id).unwrap();
                assert_eq!(
                    item.outcome.decision, *decision,
                    "{id}: {:#?}",
                    item.outcome
                );
            }
        }
        let in_process = median(runs);
        let process = |args: &[&str]| -> String {
            if !brain.is_file() {
                return "n/a".to_owned();
            }
            let mut walls = Vec::new();
            for i in 0..6 {
                let start = Instant::now();
                let status = Command::new(&brain)
                    .arg("-C")
                    .arg(root)
                    .args(args)
                    .stdin(Stdio::null())
                    .stdout(Stdio::null())
                    .stderr(Stdio::null())
                    .status()
                    .unwrap();
                assert!(status.success());
                if i > 0 {
                    walls.push(start.elapsed()); // the first run is a warm-up
                }
            }
            format!("{:.1}", median(walls).as_secs_f64() * 1000.0)
        };
        let text = process(&["review"]);
        let json = process(&["--format", "json", "review"]);
        println!(
            "| {n} | 10 | {:.1} | {text} | {json} |",
            in_process.as_secs_f64() * 1000.0
        );
    }
}
