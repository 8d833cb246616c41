//! Store loading benchmark: cold load (no cache), warm load (cache valid), parse
//! only, and whole-process `brain list --format json`, on synthetic stores.
//!
//! ```text
//! cargo build --release -p brain-cli            # for the whole-process column
//! cargo bench -p brain-core --bench store_load  # 1,000 / 10,000 / 100,000 memories
//! cargo bench -p brain-core --bench store_load -- 1000 10000
//! ```
//!
//! Everything is deterministic: a fixed-seed PRNG builds the memories, every
//! timestamp is fixed, and every file's modification time is set to a fixed
//! instant well in the past (so that no file is "racy" against the cache).
//!
//! Columns: *cold* deletes `.brain/runtime/cache` and loads (parse every file,
//! write the cache); *warm* loads with a valid cache (asserted: nothing parsed,
//! every file a hit); *parse only* is `load_uncached`; the process columns run
//! the release `brain` under `/usr/bin/time` (wall time measured here, peak
//! RSS from `%M`). A second table gives the first load after every file's
//! modification time changed while contents did not (re-read and hash, no
//! parsing).

#![allow(clippy::disallowed_methods, clippy::print_stdout, clippy::print_stderr)]
#![allow(clippy::unwrap_used, clippy::cast_precision_loss)]

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant, UNIX_EPOCH};

// Measure with the allocator the `brain` binary uses.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

use brain_core::config::Config;
use brain_core::model::{
    Confidence, DateOrTime, Evidence, EvidenceKind, Importance, InvocationMode, Memory, MemoryId,
    MemoryType, Provenance, ReviewState, Risk, Source, Status,
};
use brain_core::store::{Catalog, Store};

const DEFAULT_SIZES: [usize; 3] = [1_000, 10_000, 100_000];
const SEED: u64 = 0x6272_6169_6e5f_6265; // "brain_be"
/// 2025-01-01T00:00:00Z: base of every generated timestamp.
const BASE_SECONDS: i64 = 1_735_689_600;
/// Modification time given to every generated file: 2025-06-01T00:00:00Z.
const FILE_MTIME_SECONDS: u64 = 1_748_736_000;
/// A second fixed modification time, for the "touched" scenario: 2025-07-01T00:00:00Z.
const TOUCHED_MTIME_SECONDS: u64 = 1_751_328_000;

#[path = "common/gen.rs"]
mod generator;
use generator::{
    MODULES, PEOPLE, Rng, SKILLS, TAGS, TASKS, WORDS, capitalized_sentence, hex, pick_kind,
    timestamp,
};

fn make_memory(rng: &mut Rng, index: usize, earlier: &[MemoryId]) -> Memory {
    let kind = pick_kind(rng);
    let title = capitalized_sentence(rng, 4, 9, "");
    let id = MemoryId::generate(&title, &[kind.as_str(), &index.to_string()]);
    let summary = format!(
        "{} {}",
        capitalized_sentence(rng, 8, 14, "."),
        capitalized_sentence(rng, 5, 10, ".")
    );
    let status = pick_status(rng, kind, !earlier.is_empty());
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

fn pick_status(rng: &mut Rng, kind: MemoryType, has_earlier: bool) -> Status {
    let roll = rng.below(100);
    if roll < 78 {
        Status::Active
    } else if roll < 88 {
        Status::Candidate
    } else if roll < 93 {
        Status::Stale
    } else if roll < 96 && has_earlier {
        Status::Superseded
    } else if (96..98).contains(&roll) {
        Status::Dismissed
    } else if roll >= 98 && kind.can_be_done() {
        Status::Done
    } else {
        Status::Active
    }
}

fn make_provenance(rng: &mut Rng, captured: i64) -> Provenance {
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

fn add_texts_and_scope(rng: &mut Rng, m: &mut Memory) {
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

fn add_routing(rng: &mut Rng, m: &mut Memory) {
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

fn add_validity(rng: &mut Rng, m: &mut Memory, captured: i64) {
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

fn add_lineage_and_review(rng: &mut Rng, m: &mut Memory, earlier: &[MemoryId], captured: i64) {
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

struct Generated {
    dir: tempfile::TempDir,
    bytes: u64,
}

fn set_mtime(path: &Path, seconds: u64) {
    let f = std::fs::File::options().write(true).open(path).unwrap();
    f.set_modified(UNIX_EPOCH + Duration::from_secs(seconds))
        .unwrap();
}

fn generate(n: usize) -> Generated {
    let dir = tempfile::Builder::new()
        .prefix("brain-bench-")
        .tempdir()
        .unwrap();
    let root = dir.path();
    Store::init(root, &Config::default(), false).unwrap();
    let mut rng = Rng(SEED ^ n as u64);
    let mut ids: Vec<MemoryId> = Vec::with_capacity(n);
    let mut bytes = 0;
    for i in 0..n {
        let m = make_memory(&mut rng, i, &ids);
        let text = brain_core::yaml::memory_to_string(&m);
        let path = root
            .join(".brain")
            .join(m.kind.dir_name())
            .join(format!("{}.yaml", m.id));
        let mut f = std::fs::File::create_new(&path).unwrap();
        f.write_all(text.as_bytes()).unwrap();
        f.set_modified(UNIX_EPOCH + Duration::from_secs(FILE_MTIME_SECONDS))
            .unwrap();
        bytes += text.len() as u64;
        ids.push(m.id);
    }
    Generated { dir, bytes }
}

fn record_files(root: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for kind in MemoryType::ALL {
        for e in std::fs::read_dir(root.join(".brain").join(kind.dir_name())).unwrap() {
            out.push(e.unwrap().path());
        }
    }
    out
}

// ---------------------------------------------------------------------------
// Measuring.

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn check_counts(catalog: &Catalog, n: usize, what: &str) {
    assert_eq!(catalog.memories.len(), n, "{what}: memory count");
    assert!(catalog.preferences.is_empty(), "{what}: preferences");
    assert!(
        catalog.problems.is_empty(),
        "{what}: problems: {:?}",
        catalog.problems.first()
    );
    assert!(
        catalog.warnings.is_empty(),
        "{what}: warnings: {:?}",
        catalog.warnings
    );
}

fn cold_load(root: &Path, n: usize) -> Duration {
    let cache_dir = root.join(".brain").join("runtime").join("cache");
    match std::fs::remove_dir_all(&cache_dir) {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => panic!("cannot remove {}: {e}", cache_dir.display()),
    }
    let start = Instant::now();
    let catalog = Store::open(root).unwrap().load();
    let elapsed = start.elapsed();
    check_counts(&catalog, n, "cold load");
    assert_eq!(catalog.cache.parsed, n, "cold load parses every file");
    assert_eq!(catalog.cache.hits, 0, "cold load has no hits");
    assert!(catalog.cache.rewritten, "cold load writes the cache");
    drop(catalog);
    elapsed
}

fn warm_load(root: &Path, n: usize) -> Duration {
    let start = Instant::now();
    let catalog = Store::open(root).unwrap().load();
    let elapsed = start.elapsed();
    check_counts(&catalog, n, "warm load");
    assert_eq!(catalog.cache.parsed, 0, "warm load parses nothing");
    assert_eq!(
        catalog.cache.hits, n,
        "warm load serves every file from the cache"
    );
    assert!(!catalog.cache.rewritten, "warm load leaves the cache alone");
    drop(catalog);
    elapsed
}

fn parse_only(root: &Path, n: usize) -> Duration {
    let start = Instant::now();
    let catalog = Store::open(root).unwrap().load_uncached();
    let elapsed = start.elapsed();
    check_counts(&catalog, n, "uncached load");
    assert_eq!(catalog.cache.parsed, n, "uncached load parses every file");
    drop(catalog);
    elapsed
}

struct Process {
    wall: Duration,
    max_rss_kib: u64,
}

fn brain_binary() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .join("target")
        .join("release")
        .join("brain")
}

/// Runs `brain -C <root> list --format json` under `/usr/bin/time`; wall time
/// is measured here, peak RSS comes from `time`'s `%M`.
fn run_list(brain: &Path, root: &Path, time_out: &Path) -> Process {
    let start = Instant::now();
    let status = Command::new("/usr/bin/time")
        .args(["-f", "%e %M", "-o"])
        .arg(time_out)
        .arg(brain)
        .arg("-C")
        .arg(root)
        .args(["list", "--format", "json"])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .unwrap();
    let wall = start.elapsed();
    assert!(status.success(), "brain list failed: {status}");
    let report = std::fs::read_to_string(time_out).unwrap();
    let last = report.lines().last().unwrap_or_default();
    let max_rss_kib = last
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("unexpected /usr/bin/time output: {report:?}"));
    Process { wall, max_rss_kib }
}

fn cache_stamp(root: &Path) -> (u64, std::time::SystemTime) {
    let meta = std::fs::metadata(Store::open(root).unwrap().layout().cache_file()).unwrap();
    (meta.len(), meta.modified().unwrap())
}

fn whole_process(brain: &Path, root: &Path, n: usize) -> Process {
    let time_out = root.join("time.out");
    // Warm-up: page cache, and the cache file if this binary's build differs.
    run_list(brain, root, &time_out);
    let before = cache_stamp(root);
    let runs: Vec<Process> = (0..5).map(|_| run_list(brain, root, &time_out)).collect();
    assert_eq!(
        before,
        cache_stamp(root),
        "`brain list` rewrote the cache during the measured runs: they were not warm"
    );
    let check = Store::open(root).unwrap().load();
    check_counts(&check, n, "load after `brain list`");
    if check.cache.parsed != 0 {
        eprintln!(
            "warning: {} was built from different sources than this bench (its cache \
             did not match); rebuild it with `cargo build --release -p brain-cli`",
            brain.display()
        );
    }
    let wall = median(runs.iter().map(|p| p.wall).collect());
    let mut rss: Vec<u64> = runs.iter().map(|p| p.max_rss_kib).collect();
    rss.sort_unstable();
    Process {
        wall,
        max_rss_kib: rss[rss.len() / 2],
    }
}

struct Row {
    n: usize,
    files: usize,
    bytes: u64,
    generate: Duration,
    cold: Duration,
    warm: Duration,
    parse: Duration,
    process: Option<Process>,
    touched: Duration,
}

fn bench_size(n: usize, brain: Option<&Path>) -> Row {
    eprintln!("[{n}] generating…");
    let t = Instant::now();
    let generated = generate(n);
    let generate_time = t.elapsed();
    let root = generated.dir.path();
    let files = record_files(root).len();
    assert_eq!(files, n, "one file per memory");

    let (cold_runs, warm_runs): (u64, u64) = if n > 10_000 { (3, 5) } else { (5, 10) };
    eprintln!("[{n}] cold load ×{cold_runs}…");
    let cold = median((0..cold_runs).map(|_| cold_load(root, n)).collect());
    eprintln!("[{n}] warm load ×{warm_runs}…");
    warm_load(root, n); // warm-up
    let warm = median((0..warm_runs).map(|_| warm_load(root, n)).collect());
    eprintln!("[{n}] parse only ×{cold_runs}…");
    let parse = median((0..cold_runs).map(|_| parse_only(root, n)).collect());
    let process = brain.map(|b| {
        eprintln!("[{n}] brain list --format json ×5…");
        whole_process(b, root, n)
    });

    // Extra scenario: every file's mtime changes, contents do not (a branch
    // switch and back, `touch`). The first load afterwards re-reads and hashes
    // every file; none may be parsed. Files are touched again before each run.
    eprintln!("[{n}] first load after touching every file ×{cold_runs}…");
    let files_now = record_files(root);
    let touched = median(
        (0..cold_runs)
            .map(|i| {
                for path in &files_now {
                    set_mtime(path, TOUCHED_MTIME_SECONDS + 60 * i);
                }
                touched_load(root, n)
            })
            .collect(),
    );

    Row {
        n,
        files,
        bytes: generated.bytes,
        generate: generate_time,
        cold,
        warm,
        parse,
        process,
        touched,
    }
}

fn touched_load(root: &Path, n: usize) -> Duration {
    let start = Instant::now();
    let catalog = Store::open(root).unwrap().load();
    let elapsed = start.elapsed();
    check_counts(&catalog, n, "load after touch");
    assert_eq!(catalog.cache.parsed, 0, "same contents are never re-parsed");
    elapsed
}

fn sizes_from_args() -> Vec<usize> {
    // `cargo bench` passes `--bench`; every other argument is a size.
    let sizes: Vec<usize> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .map(|a| {
            a.replace(['_', ','], "")
                .parse()
                .unwrap_or_else(|_| panic!("not a size: {a:?}"))
        })
        .collect();
    if sizes.is_empty() {
        DEFAULT_SIZES.to_vec()
    } else {
        sizes
    }
}

fn main() {
    let sizes = sizes_from_args();
    let binary = brain_binary();
    let brain = binary.is_file().then_some(binary.as_path());
    let threads = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);

    let rows: Vec<Row> = sizes.iter().map(|&n| bench_size(n, brain)).collect();

    println!("store_load: {threads} threads available; medians of repeated runs");
    println!();
    println!(
        "| size | files | cold load (ms) | warm load (ms) | parse only (ms) | \
         `brain list --format json` wall (ms) | peak RSS (MiB) |"
    );
    println!("|---:|---:|---:|---:|---:|---:|---:|");
    for r in &rows {
        let (wall, rss) = match &r.process {
            Some(p) => (
                format!("{:.1}", ms(p.wall)),
                format!("{:.1}", p.max_rss_kib as f64 / 1024.0),
            ),
            None => ("n/a".to_owned(), "n/a".to_owned()),
        };
        println!(
            "| {} | {} | {:.1} | {:.1} | {:.1} | {wall} | {rss} |",
            r.n,
            r.files,
            ms(r.cold),
            ms(r.warm),
            ms(r.parse),
        );
    }
    println!();
    println!(
        "| size | store size (MiB) | avg file (bytes) | generation (s) | \
         first load after touching every file (ms) |"
    );
    println!("|---:|---:|---:|---:|---:|");
    for r in &rows {
        println!(
            "| {} | {:.1} | {} | {:.1} | {:.1} |",
            r.n,
            r.bytes as f64 / (1024.0 * 1024.0),
            r.bytes / r.files.max(1) as u64,
            r.generate.as_secs_f64(),
            ms(r.touched),
        );
    }
    if brain.is_none() {
        println!();
        println!(
            "note: {} not found; run `cargo build --release -p brain-cli` first \
             for the whole-process columns",
            binary.display()
        );
    }
    std::io::stdout().flush().unwrap();
}
