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
use brain_core::model::{MemoryId, MemoryType, Status};
use brain_core::store::{Catalog, Store};

const DEFAULT_SIZES: [usize; 3] = [1_000, 10_000, 100_000];
const SEED: u64 = 0x6272_6169_6e5f_6265; // "brain_be"
/// Modification time given to every generated file: 2025-06-01T00:00:00Z.
const FILE_MTIME_SECONDS: u64 = 1_748_736_000;
/// A second fixed modification time, for the "touched" scenario: 2025-07-01T00:00:00Z.
const TOUCHED_MTIME_SECONDS: u64 = 1_751_328_000;

#[path = "common/gen.rs"]
mod generator;
use generator::{Rng, make_memory};

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
        let m = make_memory(&mut rng, i, &ids, |rng, kind| {
            pick_status(rng, kind, !ids.is_empty())
        });
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
