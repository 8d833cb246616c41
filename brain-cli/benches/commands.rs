//! Whole-process benchmarks of `brain inject`, `search`, `route`, `capture`,
//! `review` and `import --from-repobrain`: the release binary is spawned for every
//! run and its wall time measured around `Command::output()`.
//!
//! ```text
//! cargo bench -p brain-cli --bench commands      # 1,000 and 10,000 memories
//! cargo bench -p brain-cli --bench commands -- 10000 --runs 11 --import-runs 3
//! cargo bench -p brain-cli --bench commands -- 1000 --native   # no import
//! ```
//!
//! `cargo bench` builds the `brain` binary itself, as `target/release/brain`
//! (the bench profile inherits the release profile; `cargo build --release -p
//! brain-cli` produces the same file); `--bin PATH` measures another build.
//! Flags: `--runs N` (start-up, list, dry-run capture, review, dry-run and
//! repeated import; default 9), `--write-runs N` (writing captures, default
//! 7), `--import-runs N` (imports into an empty store; default 9 up to 2,000
//! memories, 3 above: each writes every record with `fsync`).
//!
//! For each size N the bench:
//!
//! 1. writes a RepoBrain store with `python3 ../shared/bench/gen_brain.py
//!    --out DIR --n N --now 2026-11-22` (N active memories, 10 candidates,
//!    8 preferences; `../shared` is beside the workspace root) and times
//!    `brain import --from-repobrain DIR` into a fresh, empty store
//!    (`brain init`, then `sync` so that deleting the previous run's store is
//!    not paid for by this one), then the same import with `--dry-run`, then
//!    the import again into the finished store (everything already there). The
//!    last imported store is the store for every other measurement. Without
//!    `python3` or the script (or with `--native`) the import rows print
//!    `skipped: …` and the store is written directly as canonical YAML by the
//!    generator copied from `brain-core/benches/store_load.rs`, with N active
//!    memories and 10 candidates;
//! 2. warms the catalog cache with one `brain list` and times `brain --version`
//!    (process start-up) and `brain list` (start-up plus a warm load);
//! 3. times `brain capture --dry-run --input-file
//!    tests/fixtures/capture/session-2kb.md` (a realistic 2 KB session summary)
//!    and, on a fresh copy of the store for every run (copied with file times
//!    kept, flushed with `sync`, warmed with one `brain list`), the real,
//!    writing `brain capture`;
//! 4. times `brain inject`, `brain search` (hybrid and lexical) and `brain
//!    --format json route` for the task "fix duplicate refund ledger write"
//!    on `src/payments/ledger.ts`, with warm caches (after `brain index`), and
//!    `inject` and `search` cold (the catalog and index caches deleted before
//!    every run), with peak RSS through `/usr/bin/time` when it exists; and
//!    checks that `inject --budget` 200, 800 and 1200 stay within the budget
//!    and inject no goal;
//! 5. times `brain hook session-start`, `prompt` and `file` as Claude Code
//!    calls them (event JSON on stdin, a fresh session id per run), target
//!    < 300 ms;
//! 6. times `brain review` and `brain --format json review` (10 candidates).
//!
//! Every run sets `BRAIN_NOW` and `BRAIN_ACTOR` and disables any external
//! extractor. Outputs are checked (counts of imported records, drafts written,
//! candidates reviewed), so the times are for correct answers. Results are
//! min / median / max over the runs, in milliseconds.

#![allow(
    clippy::print_stdout,
    clippy::print_stderr,
    clippy::unwrap_used,
    clippy::cast_precision_loss,
    reason = "a benchmark binary: it reports on stdout and stderr, and panics when its \
              set-up breaks; generated counts fit an f64"
)]

use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant, UNIX_EPOCH};

use brain_core::config::Config;
use brain_core::model::{MemoryId, Status};
use brain_core::store::Store;

const DEFAULT_SIZES: [usize; 2] = [1_000, 10_000];
/// Runs of every cheap measurement (start-up, list, capture, review).
const DEFAULT_RUNS: usize = 9;
/// Real (writing) captures, each on its own fresh copy of the store.
const DEFAULT_WRITE_RUNS: usize = 7;
/// The clock every run sees, and the day `gen_brain.py` counts ages from.
const NOW: &str = "2026-11-22T12:00:00Z";
const GEN_NOW: &str = "2026-11-22";
const ACTOR: &str = "bench <bench@example.com>";
/// Candidates `gen_brain.py` writes by default, and the native generator too.
const CANDIDATES: usize = 10;
/// Preferences `gen_brain.py` writes by default.
const PREFERENCES: usize = 8;
/// Fixture, relative to the workspace root.
const SESSION: &str = "tests/fixtures/capture/session-2kb.md";

const SEED: u64 = 0x6272_6169_6e5f_636d; // "brain_cm"
/// Modification time given to every generated file: 2025-06-01T00:00:00Z.
const FILE_MTIME_SECONDS: u64 = 1_748_736_000;

#[path = "../../brain-core/benches/common/gen.rs"]
mod generator;
use generator::{Rng, make_memory};

/// Writes a native store of `n` active memories and 10 candidates under
/// `root` (which must exist), as canonical YAML with old, fixed file times.
fn generate_native(root: &Path, n: usize) {
    Store::init(root, &Config::default(), false).unwrap();
    let mut rng = Rng(SEED ^ n as u64);
    let mut ids: Vec<MemoryId> = Vec::with_capacity(n + CANDIDATES);
    for i in 0..n + CANDIDATES {
        let status = if i < n {
            Status::Active
        } else {
            Status::Candidate
        };
        let m = make_memory(&mut rng, i, &ids, |_, _| status);
        let text = brain_core::yaml::memory_to_string(&m);
        let path = root
            .join(".brain")
            .join(m.kind.dir_name())
            .join(format!("{}.yaml", m.id));
        let mut f = std::fs::File::create_new(&path).unwrap();
        f.write_all(text.as_bytes()).unwrap();
        f.set_modified(UNIX_EPOCH + Duration::from_secs(FILE_MTIME_SECONDS))
            .unwrap();
        ids.push(m.id);
    }
}

// ---------------------------------------------------------------------------
// Locating things.

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

/// The `brain` binary cargo built for this bench (`target/release/brain`:
/// the bench profile inherits the release profile), or the one given with
/// `--bin`, if it is there.
fn brain_binary(chosen: Option<&Path>) -> Result<PathBuf, String> {
    let path = chosen.map_or_else(
        || PathBuf::from(env!("CARGO_BIN_EXE_brain")),
        Path::to_path_buf,
    );
    if path.is_file() {
        Ok(path)
    } else {
        Err(format!(
            "error: {} not found; build it with `cargo build --release -p brain-cli` \
             (or run this bench through `cargo bench -p brain-cli --bench commands`)",
            path.display()
        ))
    }
}

/// `python3` and `../shared/bench/gen_brain.py`, or why they cannot be used.
fn gen_brain() -> Result<PathBuf, String> {
    let script = workspace_root()
        .join("..")
        .join("shared")
        .join("bench")
        .join("gen_brain.py");
    if !script.is_file() {
        return Err(format!("{} not found", script.display()));
    }
    match Command::new("python3")
        .arg("--version")
        .stdin(Stdio::null())
        .output()
    {
        Ok(out) if out.status.success() => Ok(script.canonicalize().unwrap_or(script)),
        Ok(out) => Err(format!("`python3 --version` failed ({})", out.status)),
        Err(e) => Err(format!("python3 not found ({e})")),
    }
}

// ---------------------------------------------------------------------------
// Running the binary.

/// `brain -C <root> …`, run from `<root>` as an agent's adapter runs it, with
/// a pinned clock and actor, no external extractor, stdin from `/dev/null`.
/// Running from the root keeps `--path` meaning the same to every build
/// compared: builds before `-C` read relative paths from the root took a
/// path given from elsewhere as outside the repository and dropped it.
fn brain(binary: &Path, root: &Path) -> Command {
    let mut cmd = Command::new(binary);
    cmd.current_dir(root)
        .arg("-C")
        .arg(root)
        .env("BRAIN_NOW", NOW)
        .env("BRAIN_ACTOR", ACTOR)
        .env("BRAIN_EXTRACTOR_COMMAND", "")
        .stdin(Stdio::null());
    cmd
}

/// Runs `cmd` to completion (stdout and stderr captured); the wall time
/// covers spawn, run and exit.
fn timed(cmd: &mut Command) -> (Duration, Output) {
    let start = Instant::now();
    let out = cmd.output().unwrap();
    (start.elapsed(), out)
}

/// Panics with the command's stderr unless it exited with 0.
fn ok(out: Output, what: &str) -> Output {
    assert!(
        out.status.success(),
        "{what} failed ({}): {}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

fn json(out: &Output, what: &str) -> serde_json::Value {
    serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{what}: stdout is not JSON ({e})"))
}

fn count(v: &serde_json::Value, key: &str) -> usize {
    v[key]
        .as_array()
        .unwrap_or_else(|| panic!("no array `{key}` in {v}"))
        .len()
}

/// Flushes everything written so far (`sync`, where there is one), so that a
/// timed run does not pay for writing the set-up's files (fresh stores and
/// copies) to the disk.
fn settle() {
    let _ = Command::new("sync").status();
}

/// Median time of a durable write of a 1.2 KB file as the store makes one
/// (write a temporary file, `fsync` it, rename it, `fsync` the directory),
/// over 100 files: what every record an import or capture writes costs
/// beyond the CPU work, on this disk at this moment.
fn durable_write_probe(dir: &Path) -> Duration {
    let dir = dir.join("probe");
    std::fs::create_dir_all(&dir).unwrap();
    let body = vec![b'x'; 1_200];
    let mut runs: Vec<Duration> = (0..100)
        .map(|i| {
            let start = Instant::now();
            let tmp = dir.join(format!(".probe-{i}.partial"));
            let mut f = std::fs::File::create_new(&tmp).unwrap();
            f.write_all(&body).unwrap();
            f.sync_all().unwrap();
            std::fs::rename(&tmp, dir.join(format!("probe-{i}.yaml"))).unwrap();
            std::fs::File::open(&dir).unwrap().sync_all().unwrap();
            start.elapsed()
        })
        .collect();
    runs.sort();
    runs[runs.len() / 2]
}

/// Copies a directory tree, keeping every file's modification time (so the
/// copied catalog cache stays valid for the copied records).
fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let target = to.join(e.file_name());
        let kind = e.file_type().unwrap();
        if kind.is_dir() {
            copy_tree(&e.path(), &target);
        } else if kind.is_file() {
            std::fs::copy(e.path(), &target).unwrap();
            let mtime = e.metadata().unwrap().modified().unwrap();
            std::fs::File::options()
                .write(true)
                .open(&target)
                .unwrap()
                .set_modified(mtime)
                .unwrap();
        }
    }
}

// ---------------------------------------------------------------------------
// Measuring.

/// One measured command: its wall times.
struct Measure {
    size: usize,
    label: String,
    runs: Vec<Duration>,
    target: Option<Duration>,
}

impl Measure {
    fn sorted(&self) -> Vec<Duration> {
        let mut v = self.runs.clone();
        v.sort();
        v
    }
    fn median(&self) -> Duration {
        let v = self.sorted();
        v[v.len() / 2]
    }
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// Results of one size.
struct SizeReport {
    size: usize,
    store: String,
    notes: Vec<String>,
    measures: Vec<Measure>,
}

struct Settings {
    sizes: Vec<usize>,
    runs: usize,
    write_runs: usize,
    import_runs: Option<usize>,
    native: bool,
    binary: Option<PathBuf>,
}

fn settings() -> Settings {
    let mut s = Settings {
        sizes: Vec::new(),
        runs: DEFAULT_RUNS,
        write_runs: DEFAULT_WRITE_RUNS,
        import_runs: None,
        native: false,
        binary: None,
    };
    let mut args = std::env::args().skip(1);
    let number = |flag: &str, v: Option<String>| -> usize {
        v.and_then(|v| v.parse().ok())
            .filter(|&n: &usize| n > 0)
            .unwrap_or_else(|| panic!("{flag} needs a positive number"))
    };
    while let Some(a) = args.next() {
        match a.as_str() {
            "--runs" => s.runs = number("--runs", args.next()),
            "--write-runs" => s.write_runs = number("--write-runs", args.next()),
            "--import-runs" => s.import_runs = Some(number("--import-runs", args.next())),
            "--native" => s.native = true,
            "--bin" => s.binary = Some(args.next().expect("--bin needs a path").into()),
            // `cargo bench` passes `--bench`.
            a if a.starts_with('-') => {}
            a => s.sizes.push(
                a.replace(['_', ','], "")
                    .parse()
                    .unwrap_or_else(|_| panic!("not a size: {a:?}")),
            ),
        }
    }
    if s.sizes.is_empty() {
        s.sizes = DEFAULT_SIZES.to_vec();
    }
    s
}

/// Import runs by default: each one writes every record with `fsync`, which
/// takes over a minute at 10,000 on the reference VM.
fn import_runs(s: &Settings, n: usize) -> usize {
    s.import_runs
        .unwrap_or(if n <= 2_000 { DEFAULT_RUNS } else { 3 })
}

/// `brain import --from-repobrain` of `repobrain` into fresh stores; returns
/// the measurements and leaves the last imported store at `store`.
///
/// Nothing is deleted before the work directory is dropped: on ext4 without
/// a journal (this VM's disk), creating files shortly after thousands were
/// deleted is slow (the inode allocator skips inodes freed in the last
/// minutes), which would charge one run for the previous run's clean-up.
fn bench_import(
    binary: &Path,
    work: &Path,
    repobrain: &Path,
    store: &Path,
    n: usize,
    s: &Settings,
) -> Vec<Measure> {
    let records = n + CANDIDATES + PREFERENCES;
    let target = (n == 10_000).then(|| Duration::from_secs(5));
    let runs = import_runs(s, n);
    eprintln!("[{n}] brain import --from-repobrain ×{runs} (each into an empty store)…");
    let mut walls = Vec::new();
    for i in 0..runs {
        let fresh = work.join(format!("import-{i}"));
        std::fs::create_dir_all(&fresh).unwrap();
        ok(brain(binary, &fresh).arg("init").output().unwrap(), "init");
        settle();
        let (wall, out) = timed(
            brain(binary, &fresh)
                .args(["--format", "json", "import", "--from-repobrain"])
                .arg(repobrain),
        );
        let report = json(&ok(out, "import"), "import");
        assert_eq!(count(&report, "imported"), records, "import: every record");
        assert_eq!(count(&report, "not_imported"), 0, "import: no failure");
        eprintln!("[{n}]   run {}: {:.0} ms", i + 1, ms(wall));
        walls.push(wall);
        if i + 1 == runs {
            std::fs::rename(&fresh, store).unwrap();
        }
    }
    let import = Measure {
        size: n,
        label: "`brain import --from-repobrain` (into an empty store)".to_owned(),
        runs: walls,
        target,
    };

    eprintln!("[{n}] brain import --from-repobrain --dry-run ×{}…", s.runs);
    let empty = work.join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    ok(brain(binary, &empty).arg("init").output().unwrap(), "init");
    let dry = Measure {
        size: n,
        label: "`brain import --from-repobrain --dry-run` (empty store)".to_owned(),
        runs: (0..s.runs)
            .map(|_| {
                let (wall, out) = timed(
                    brain(binary, &empty)
                        .args([
                            "--format",
                            "json",
                            "import",
                            "--dry-run",
                            "--from-repobrain",
                        ])
                        .arg(repobrain),
                );
                let report = json(&ok(out, "import --dry-run"), "import --dry-run");
                assert_eq!(count(&report, "imported"), records, "dry run: every record");
                wall
            })
            .collect(),
        target: None,
    };

    eprintln!("[{n}] brain import --from-repobrain again ×{}…", s.runs);
    let again = Measure {
        size: n,
        label: "`brain import --from-repobrain` again (all already there)".to_owned(),
        runs: (0..s.runs)
            .map(|_| {
                let (wall, out) = timed(
                    brain(binary, store)
                        .args(["--format", "json", "import", "--from-repobrain"])
                        .arg(repobrain),
                );
                let report = json(&ok(out, "import again"), "import again");
                assert_eq!(count(&report, "imported"), 0, "import again: nothing new");
                assert_eq!(count(&report, "skipped_existing"), records);
                wall
            })
            .collect(),
        target: None,
    };
    vec![import, dry, again]
}

fn repeat(runs: usize, mut f: impl FnMut() -> Duration) -> Vec<Duration> {
    (0..runs).map(|_| f()).collect()
}

/// Writes the store every other measurement runs on (importing it, and
/// timing the import, when `gen_brain.py` can be used); returns what it is.
fn make_store(
    binary: &Path,
    script: &Result<PathBuf, String>,
    work: &Path,
    store: &Path,
    n: usize,
    s: &Settings,
    out: &mut SizeReport,
) -> String {
    match (script, s.native) {
        (Ok(script), false) => {
            let repobrain = work.join("repobrain");
            eprintln!("[{n}] gen_brain.py --n {n}…");
            let start = Instant::now();
            let generated = Command::new("python3")
                .arg(script)
                .arg("--out")
                .arg(&repobrain)
                .args(["--n", &n.to_string(), "--now", GEN_NOW])
                .stdin(Stdio::null())
                .output()
                .unwrap();
            ok(generated, "gen_brain.py");
            out.notes.push(format!(
                "gen_brain.py: {:.1} s",
                start.elapsed().as_secs_f64()
            ));
            out.measures
                .extend(bench_import(binary, work, &repobrain, store, n, s));
            format!(
                "imported from gen_brain.py: {n} active + {CANDIDATES} candidates + \
                 {PREFERENCES} preferences"
            )
        }
        (reason, _) => {
            let why = match reason {
                Err(why) => why.clone(),
                Ok(_) => "--native given".to_owned(),
            };
            println!("skipped: `brain import --from-repobrain` at {n}: {why}");
            eprintln!("[{n}] writing a native store…");
            std::fs::create_dir_all(store).unwrap();
            let start = Instant::now();
            generate_native(store, n);
            out.notes.push(format!(
                "native generator: {:.1} s",
                start.elapsed().as_secs_f64()
            ));
            format!("native generator: {n} active + {CANDIDATES} candidates")
        }
    }
}

/// `brain --version` and a warm `brain list`: what every command pays.
fn bench_baseline(binary: &Path, store: &Path, n: usize, s: &Settings) -> Vec<Measure> {
    eprintln!("[{n}] brain --version, brain list ×{}…", s.runs);
    vec![
        Measure {
            size: n,
            label: "`brain --version` (process start-up)".to_owned(),
            runs: repeat(s.runs, || {
                let (wall, out) = timed(brain(binary, store).arg("--version"));
                ok(out, "--version");
                wall
            }),
            target: None,
        },
        Measure {
            size: n,
            label: "`brain list` (warm cache)".to_owned(),
            runs: repeat(s.runs, || {
                let (wall, out) = timed(brain(binary, store).arg("list"));
                ok(out, "list");
                wall
            }),
            target: None,
        },
    ]
}

/// The task every context command is measured with.
const TASK: &str = "fix duplicate refund ledger write";
const TASK_PATH: &str = "src/payments/ledger.ts";

/// Peak RSS of one run in KiB, through `/usr/bin/time -f %M` when it exists.
fn peak_rss_kib(binary: &Path, store: &Path, args: &[&str]) -> Option<u64> {
    let time = Path::new("/usr/bin/time");
    if !time.exists() {
        return None;
    }
    let out = Command::new(time)
        .args(["-f", "%M"])
        .arg(binary)
        .current_dir(store)
        .arg("-C")
        .arg(store)
        .args(args)
        .env("BRAIN_NOW", NOW)
        .env("BRAIN_ACTOR", ACTOR)
        .env("BRAIN_EXTRACTOR_COMMAND", "")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .output()
        .ok()?;
    String::from_utf8_lossy(&out.stderr)
        .lines()
        .last()?
        .trim()
        .parse()
        .ok()
}

/// The block never exceeds the budget, whatever the store's size, and the
/// bench's task never gets a goal: `inject --budget` 200, 800 and 1200.
fn check_budgets(binary: &Path, store: &Path, report: &mut SizeReport) {
    let mut budgets = Vec::new();
    for budget in ["200", "800", "1200"] {
        let out = ok(
            brain(binary, store)
                .args([
                    "--format", "json", "inject", "--task", TASK, "--path", TASK_PATH,
                ])
                .args(["--budget", budget])
                .output()
                .unwrap(),
            "inject --budget",
        );
        let block = json(&out, "inject");
        let used = block["used_tokens"].as_u64().unwrap();
        assert!(
            used <= budget.parse::<u64>().unwrap(),
            "inject --budget {budget}: {used} tokens"
        );
        assert!(
            block["selected"]
                .as_array()
                .unwrap()
                .iter()
                .all(|m| m["type"] != "goal"),
            "inject --budget {budget}: a goal was injected"
        );
        budgets.push(format!(
            "{used} of {budget} ({} memories)",
            count(&block, "selected")
        ));
    }
    report.notes.push(format!(
        "`brain inject --budget 200 / 800 / 1200`: {} tokens used, no goal",
        budgets.join(", ")
    ));
}

/// `inject`, `search` and `route` with a warm cache (catalog, retrieval
/// index and vectors built by one run first), then cold: every run after
/// deleting `.brain/runtime/cache/` (the vector cache stays).
fn bench_context(binary: &Path, store: &Path, n: usize, s: &Settings, report: &mut SizeReport) {
    eprintln!("[{n}] inject, search, route ×{}…", s.runs);
    let inject: &[&str] = &["inject", "--task", TASK, "--path", TASK_PATH];
    let search: &[&str] = &["search", "ledger refunds"];
    let lexical: &[&str] = &["search", "--lexical-only", "ledger refunds"];
    let route: &[&str] = &[
        "--format", "json", "route", "--task", TASK, "--path", TASK_PATH,
    ];
    ok(brain(binary, store).arg("index").output().unwrap(), "index");
    let out = ok(brain(binary, store).args(route).output().unwrap(), "route");
    let plan = json(&out, "route");
    assert_eq!(plan["contract_version"], 1, "route: the contract");
    report.notes.push(format!(
        "`brain --format json route` output: {} bytes, {} matched memories",
        out.stdout.len(),
        count(&plan, "matched_memories")
    ));
    check_budgets(binary, store, report);
    let warm_target = match n {
        10_000 => Some(Duration::from_millis(50)),
        100_000 => Some(Duration::from_millis(500)),
        _ => None,
    };
    let route_target = match n {
        10_000 => Some(Duration::from_millis(60)),
        100_000 => Some(Duration::from_millis(500)),
        _ => None,
    };
    for (label, args, target) in [
        ("`brain inject` (warm)", inject, warm_target),
        ("`brain search` hybrid (warm)", search, warm_target),
        ("`brain search --lexical-only` (warm)", lexical, None),
        ("`brain --format json route` (warm)", route, route_target),
    ] {
        report.measures.push(Measure {
            size: n,
            label: label.to_owned(),
            runs: repeat(s.runs, || {
                let (wall, out) = timed(brain(binary, store).args(args));
                ok(out, label);
                wall
            }),
            target,
        });
        if let Some(kib) = peak_rss_kib(binary, store, args) {
            report
                .notes
                .push(format!("{label}: peak RSS {:.1} MiB", kib as f64 / 1024.0));
        }
    }
    let cache = store.join(".brain/runtime/cache");
    for (label, args) in [
        ("`brain inject` (cold: no catalog or index cache)", inject),
        ("`brain search` hybrid (cold)", search),
    ] {
        report.measures.push(Measure {
            size: n,
            label: label.to_owned(),
            runs: repeat(s.runs.min(5), || {
                std::fs::remove_dir_all(&cache).unwrap();
                let (wall, out) = timed(brain(binary, store).args(args));
                ok(out, label);
                wall
            }),
            target: (n == 10_000).then(|| Duration::from_millis(400)),
        });
    }
    // Leave the caches warm for what follows.
    ok(brain(binary, store).arg("list").output().unwrap(), "list");
}

/// `brain hook` as Claude Code calls it: the event JSON on stdin, a new
/// session id for every run (so nothing is a repeat or already shown), warm
/// caches. Checks every answer is one JSON object with context.
fn bench_hooks(binary: &Path, store: &Path, n: usize, s: &Settings, report: &mut SizeReport) {
    use std::sync::atomic::{AtomicUsize, Ordering};
    eprintln!("[{n}] brain hook ×{}…", s.runs);
    let root = store.display().to_string().replace('\\', "/");
    let seq = AtomicUsize::new(0);
    let target = (n <= 10_000).then(|| Duration::from_millis(300));
    let events: [(&str, &str, String); 3] = [
        (
            "`brain hook session-start` (Claude Code)",
            "session-start",
            r#"{"session_id":"S","hook_event_name":"SessionStart","source":"startup"}"#.to_owned(),
        ),
        (
            "`brain hook prompt` (Claude Code)",
            "prompt",
            format!(
                r#"{{"session_id":"S","hook_event_name":"UserPromptSubmit","prompt":"{TASK}"}}"#
            ),
        ),
        (
            "`brain hook file` (Claude Code, PostToolUse Read)",
            "file",
            format!(
                r#"{{"session_id":"S","hook_event_name":"PostToolUse","tool_name":"Read","tool_input":{{"file_path":"{root}/{TASK_PATH}"}}}}"#
            ),
        ),
    ];
    for (label, event, payload) in &events {
        let mut answered = 0usize;
        let runs = repeat(s.runs, || {
            let id = format!("bench-{}", seq.fetch_add(1, Ordering::Relaxed));
            let stdin = payload.replace("\"S\"", &format!("\"{id}\""));
            let start = Instant::now();
            let mut child = brain(binary, store)
                .args(["hook", event, "--agent", "claude"])
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap();
            child
                .stdin
                .take()
                .unwrap()
                .write_all(stdin.as_bytes())
                .unwrap();
            let out = ok(child.wait_with_output().unwrap(), label);
            let wall = start.elapsed();
            if !out.stdout.is_empty() {
                let v = json(&out, label);
                assert!(
                    v["hookSpecificOutput"]["additionalContext"].is_string(),
                    "{label}: {v}"
                );
                answered += 1;
            }
            wall
        });
        report.notes.push(format!(
            "{label}: context in {answered} of {} runs",
            runs.len()
        ));
        report.measures.push(Measure {
            size: n,
            label: (*label).to_owned(),
            runs,
            target,
        });
    }
}

/// `brain capture` of the 2 KB session: dry runs on the store, then real
/// runs, each on a fresh copy of it.
fn bench_capture(
    binary: &Path,
    work: &Path,
    store: &Path,
    n: usize,
    s: &Settings,
    out: &mut SizeReport,
) {
    let session = workspace_root().join(SESSION);
    let target = (n == 10_000).then(|| Duration::from_millis(200));
    let capture = |root: &Path| {
        let mut c = brain(binary, root);
        c.args(["capture", "--input-file"]).arg(&session);
        c
    };
    let json_capture = |root: &Path| {
        let mut c = brain(binary, root);
        c.args(["--format", "json", "capture", "--input-file"])
            .arg(&session);
        c
    };

    eprintln!("[{n}] brain capture --dry-run ×{}…", s.runs);
    let report = json(
        &ok(
            json_capture(store).arg("--dry-run").output().unwrap(),
            "capture",
        ),
        "capture",
    );
    let drafts = count(&report, "written");
    assert!(drafts > 0, "capture --dry-run: no drafts: {report}");
    assert_eq!(report["dry_run"], true);
    out.notes.push(format!(
        "capture of {SESSION} ({} bytes): {drafts} candidates, {} rejected fragments",
        std::fs::metadata(&session).unwrap().len(),
        count(&report, "rejected")
    ));
    out.measures.push(Measure {
        size: n,
        label: "`brain capture --dry-run` (2 KB session)".to_owned(),
        runs: repeat(s.runs, || {
            let (wall, result) = timed(capture(store).arg("--dry-run"));
            ok(result, "capture --dry-run");
            wall
        }),
        target,
    });

    eprintln!(
        "[{n}] brain capture (writing, fresh copy each run) ×{}…",
        s.write_runs
    );
    let mut copies = 0;
    out.measures.push(Measure {
        size: n,
        label: "`brain capture` (2 KB session, writes the candidates)".to_owned(),
        runs: repeat(s.write_runs, || {
            // A new copy every run, none deleted before the end (see `bench_import`).
            let copy = work.join(format!("copy-{copies}"));
            copies += 1;
            copy_tree(store, &copy);
            settle();
            ok(brain(binary, &copy).arg("list").output().unwrap(), "list");
            let (wall, result) = timed(&mut json_capture(&copy));
            let report = json(&ok(result, "capture"), "capture");
            assert_eq!(report["dry_run"], false);
            assert_eq!(
                count(&report, "written"),
                drafts,
                "capture writes every draft"
            );
            wall
        }),
        target,
    });
}

/// `brain review` of the 10 candidates, as text and as JSON.
fn bench_review(binary: &Path, store: &Path, n: usize, s: &Settings) -> Vec<Measure> {
    eprintln!("[{n}] brain review ×{}…", s.runs);
    let report = json(
        &ok(
            brain(binary, store)
                .args(["--format", "json", "review"])
                .output()
                .unwrap(),
            "review",
        ),
        "review",
    );
    assert_eq!(
        count(&report, "items"),
        CANDIDATES,
        "review: every candidate"
    );
    [
        ("`brain review` (10 candidates)", &["review"][..]),
        (
            "`brain --format json review` (10 candidates)",
            &["--format", "json", "review"][..],
        ),
    ]
    .into_iter()
    .map(|(label, args)| Measure {
        size: n,
        label: label.to_owned(),
        runs: repeat(s.runs, || {
            let (wall, out) = timed(brain(binary, store).args(args));
            ok(out, "review");
            wall
        }),
        target: (n == 10_000).then(|| Duration::from_millis(200)),
    })
    .collect()
}

fn bench_size(
    binary: &Path,
    script: &Result<PathBuf, String>,
    n: usize,
    s: &Settings,
) -> SizeReport {
    let work = tempfile::Builder::new()
        .prefix("brain-commands-")
        .tempdir()
        .unwrap();
    let store = work.path().join("store");
    let mut report = SizeReport {
        size: n,
        store: String::new(),
        notes: Vec::new(),
        measures: Vec::new(),
    };
    settle();
    let probe = durable_write_probe(work.path());
    report.notes.push(format!(
        "durable write of one 1.2 KB file (write, fsync, rename, fsync directory): \
         median {:.2} ms over 100 files",
        ms(probe)
    ));
    report.store = make_store(binary, script, work.path(), &store, n, s, &mut report);

    // The first load after the store was written builds the catalog cache.
    let (first, out) = timed(brain(binary, &store).arg("list"));
    ok(out, "list");
    report.notes.push(format!(
        "first `brain list` (builds the cache): {:.0} ms",
        ms(first)
    ));

    report.measures.extend(bench_baseline(binary, &store, n, s));
    bench_context(binary, &store, n, s, &mut report);
    bench_hooks(binary, &store, n, s, &mut report);
    bench_capture(binary, work.path(), &store, n, s, &mut report);
    report.measures.extend(bench_review(binary, &store, n, s));
    report
}

fn main() -> std::process::ExitCode {
    let s = settings();
    let binary = match brain_binary(s.binary.as_deref()) {
        Ok(path) => path,
        Err(message) => {
            eprintln!("{message}");
            return std::process::ExitCode::from(2);
        }
    };
    let script = gen_brain();
    let threads = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);

    let reports: Vec<SizeReport> = s
        .sizes
        .iter()
        .map(|&n| bench_size(&binary, &script, n, &s))
        .collect();

    println!(
        "commands: whole-process wall time of {} ({threads} threads available), \
         BRAIN_NOW={NOW}",
        binary.display()
    );
    for r in &reports {
        println!();
        println!("[{}] store: {}", r.size, r.store);
        for note in &r.notes {
            println!("[{}] {note}", r.size);
        }
    }
    println!();
    println!("| memories | command | runs | min (ms) | median (ms) | max (ms) | target | met |");
    println!("|---:|---|---:|---:|---:|---:|---|---|");
    for m in reports.iter().flat_map(|r| &r.measures) {
        let v = m.sorted();
        let (target, met) = match m.target {
            Some(t) => {
                let mut s = String::new();
                if t >= Duration::from_secs(1) {
                    write!(s, "≤ {} s", t.as_secs()).unwrap();
                } else {
                    write!(s, "≤ {} ms", t.as_millis()).unwrap();
                }
                (s, if m.median() <= t { "yes" } else { "**no**" })
            }
            None => (String::new(), ""),
        };
        println!(
            "| {} | {} | {} | {:.1} | {:.1} | {:.1} | {target} | {met} |",
            m.size,
            m.label,
            v.len(),
            ms(v[0]),
            ms(m.median()),
            ms(v[v.len() - 1]),
        );
    }
    std::io::stdout().flush().unwrap();
    std::process::ExitCode::SUCCESS
}
