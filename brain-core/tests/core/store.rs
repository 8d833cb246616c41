//! The store on real directories: malformed files, the cache, atomic creation
//! under concurrency, lint with and without git history.

use std::collections::BTreeMap;
use std::path::Path;

use brain_core::lint::Severity;
use brain_core::model::{MemoryType, Status};
use brain_core::store::Store;
use brain_core::{Brain, NewMemory};
use jiff::Timestamp;

use crate::{copy_tree, workspace};

fn fixture(name: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    copy_tree(&workspace().join("tests/fixtures").join(name), dir.path());
    dir
}

fn example() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    copy_tree(&workspace().join(".brain-example"), dir.path());
    dir
}

/// Every file outside `.brain/runtime/` with its contents.
fn tracked_snapshot(root: &Path) -> BTreeMap<String, Vec<u8>> {
    walkdir::WalkDir::new(root)
        .into_iter()
        .map(|e| e.unwrap())
        .filter(|e| e.file_type().is_file())
        .filter(|e| !e.path().starts_with(root.join(".brain/runtime")))
        .map(|e| {
            let rel = e
                .path()
                .strip_prefix(root)
                .unwrap()
                .to_string_lossy()
                .into_owned();
            (rel, std::fs::read(e.path()).unwrap())
        })
        .collect()
}

#[test]
fn malformed_files_are_located_and_skipped() {
    let dir = fixture("malformed");
    let store = Store::open(dir.path()).unwrap();
    let catalog = store.load();
    let ids: Vec<&str> = catalog
        .memories
        .iter()
        .map(|l| l.record.id.as_str())
        .collect();
    assert_eq!(
        ids,
        [
            "use-sqlx-for-queries-0a1b2c3d",
            "ledger-rows-are-append-only-0c1d2e3f",
            "old-ledger-rule-00000001",
            "superseded-without-link-99aabbcc",
        ]
    );
    assert_eq!(catalog.preferences.len(), 1);
    let problems: Vec<(&str, Option<u32>, Option<&str>)> = catalog
        .problems
        .iter()
        .map(|p| (p.path.as_str(), p.line, p.field.as_deref()))
        .collect();
    assert_eq!(
        problems,
        [
            // A missing key is reported where the mapping ends.
            (
                ".brain/conventions/missing-summary-11223344.yaml",
                Some(6),
                None
            ),
            (".brain/decisions/notes.md", None, None),
            (
                ".brain/decisions/unknown-importance-9a8b7c6d.yaml",
                Some(7),
                Some("importance")
            ),
            (
                ".brain/gotchas/broken-yaml-5e6f7a8b.yaml",
                Some(6),
                Some("summary")
            ),
            (
                ".brain/patterns/future-version-55667788.yaml",
                Some(1),
                Some("schema_version")
            ),
        ]
    );
    let messages: Vec<&str> = catalog
        .problems
        .iter()
        .map(|p| p.message.as_str())
        .collect();
    assert!(messages[0].contains("summary"), "{messages:?}");
    assert!(messages[2].contains("urgent"), "{messages:?}");
    assert!(messages[4].contains("schema_version 2"), "{messages:?}");
}

#[test]
fn cache_serves_warm_loads_and_notices_every_change() {
    let dir = example();
    let root = dir.path();
    let store = Store::open(root).unwrap();
    let cold = store.load();
    let n = cold.memories.len() + cold.preferences.len();
    assert!(n >= 39);
    assert_eq!(
        (
            cold.cache.hits,
            cold.cache.verified,
            cold.cache.parsed,
            cold.cache.rewritten
        ),
        (0, 0, n, true)
    );
    assert!(cold.problems.is_empty());

    // Age every file and the cache so that no entry counts as racy.
    let old = std::time::SystemTime::UNIX_EPOCH + std::time::Duration::from_secs(1_700_000_000);
    for entry in walkdir::WalkDir::new(root.join(".brain")) {
        let entry = entry.unwrap();
        if entry.file_type().is_file() && !entry.path().ends_with("catalog.bin") {
            let f = std::fs::File::options()
                .write(true)
                .open(entry.path())
                .unwrap();
            f.set_modified(old).unwrap();
        }
    }
    let refreshed = store.load();
    assert_eq!(
        (
            refreshed.cache.verified,
            refreshed.cache.parsed,
            refreshed.cache.rewritten
        ),
        (n, 0, true),
        "same contents are recognised by hash and the new time stamps recorded"
    );
    let warm = store.load();
    assert_eq!(
        (
            warm.cache.hits,
            warm.cache.verified,
            warm.cache.parsed,
            warm.cache.rewritten
        ),
        (n, 0, 0, false)
    );
    assert_eq!(warm.memories, cold.memories);
    assert_eq!(warm.preferences, cold.preferences);

    // A same-size edit with an unchanged mtime is still caught when the file is
    // racy; here the mtime changes, which is the ordinary case.
    let victim = &cold.memories[0];
    let path = root.join(&victim.path);
    let text = std::fs::read_to_string(&path).unwrap();
    let edited = text.replacen(&victim.record.title, &victim.record.title.to_uppercase(), 1);
    assert_eq!(edited.len(), text.len());
    std::fs::write(&path, &edited).unwrap();
    let after_edit = store.load();
    assert_eq!(after_edit.cache.parsed, 1);
    assert_eq!(
        after_edit.memories[0].record.title,
        victim.record.title.to_uppercase()
    );

    // A broken edit becomes a problem; a deletion disappears.
    std::fs::write(&path, "schema_version: 1\nid: [\n").unwrap();
    let broken = store.load();
    assert_eq!(broken.problems.len(), 1);
    assert_eq!(broken.problems[0].path, victim.path);
    std::fs::remove_file(&path).unwrap();
    let deleted = store.load();
    assert!(deleted.problems.is_empty());
    assert_eq!(deleted.memories.len(), cold.memories.len() - 1);

    // A corrupt cache is ignored and rebuilt.
    std::fs::write(root.join(".brain/runtime/cache/catalog.bin"), b"garbage").unwrap();
    let rebuilt = store.load();
    assert_eq!(rebuilt.cache.parsed, n - 1);
    assert_eq!(rebuilt.memories, deleted.memories);
    assert_eq!(store.load_uncached().memories, deleted.memories);
}

#[test]
fn racy_same_size_edit_with_restored_mtime_is_detected() {
    let dir = example();
    let root = dir.path();
    let store = Store::open(root).unwrap();
    let cold = store.load();
    let victim = &cold.memories[3];
    let path = root.join(&victim.path);
    let meta = std::fs::metadata(&path).unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    let edited = text.replacen(&victim.record.title, &victim.record.title.to_uppercase(), 1);
    std::fs::write(&path, &edited).unwrap();
    // Put the old mtime back: size and mtime now match the cache entry.
    let f = std::fs::File::options().write(true).open(&path).unwrap();
    f.set_modified(meta.modified().unwrap()).unwrap();
    let warm = store.load();
    assert_eq!(
        warm.memories[3].record.title,
        victim.record.title.to_uppercase()
    );
}

#[test]
fn reads_never_touch_tracked_files() {
    let dir = example();
    let root = dir.path();
    let before = tracked_snapshot(root);
    let brain = Brain::open(root).unwrap();
    let catalog = brain.catalog();
    let _ = brain.stats(&catalog);
    let _ = brain.list(catalog.clone(), &brain_core::report::ListFilter::default());
    let _ = brain.show(&catalog, "use-integer").unwrap();
    let report = brain.lint();
    assert_eq!(report.errors, 0, "{:#?}", report.findings);
    let check = brain.normalize(true, false).unwrap();
    assert!(check.changed.is_empty(), "{:?}", check.changed);
    assert_eq!(tracked_snapshot(root), before);
    assert!(root.join(".brain/runtime/cache/catalog.bin").is_file());
}

#[test]
fn concurrent_adds_lose_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    Brain::init(root, brain_core::config::Workflow::default(), false).unwrap();
    let now: Timestamp = "2026-11-20T12:00:00Z".parse().unwrap();
    std::thread::scope(|s| {
        for worker in 0..8 {
            s.spawn(move || {
                let brain = Brain::open(root).unwrap();
                for i in 0..25 {
                    // Same title and same clock everywhere: ids must still differ.
                    let new = NewMemory {
                        kind: Some(MemoryType::ALL[i % 6]),
                        title: "Shared title".into(),
                        summary: format!("from worker {worker}, item {i}"),
                        ..NewMemory::default()
                    };
                    brain.add(&new, now, Some("agent")).unwrap();
                }
            });
        }
    });
    let catalog = Store::open(root).unwrap().load_uncached();
    assert!(catalog.problems.is_empty(), "{:?}", catalog.problems);
    assert_eq!(catalog.memories.len(), 200);
    let mut summaries: Vec<&str> = catalog
        .memories
        .iter()
        .map(|l| l.record.summary.as_str())
        .collect();
    summaries.sort_unstable();
    summaries.dedup();
    assert_eq!(summaries.len(), 200);
    assert!(
        catalog
            .memories
            .iter()
            .all(|l| l.record.status == Status::Candidate)
    );
}

#[test]
fn lint_reports_every_problem_of_the_malformed_store() {
    let dir = fixture("malformed");
    let report = Brain::open(dir.path()).unwrap().lint();
    let found: Vec<(Severity, &str, &str, Option<u32>)> = report
        .findings
        .iter()
        .map(|f| (f.severity, f.code.as_str(), f.path.as_str(), f.line))
        .collect();
    assert_eq!(
        found,
        [
            (
                Severity::Error,
                "parse",
                ".brain/conventions/missing-summary-11223344.yaml",
                Some(6)
            ),
            (
                Severity::Error,
                "stray-file",
                ".brain/decisions/notes.md",
                None
            ),
            (
                Severity::Error,
                "parse",
                ".brain/decisions/unknown-importance-9a8b7c6d.yaml",
                Some(7)
            ),
            (
                Severity::Error,
                "parse",
                ".brain/gotchas/broken-yaml-5e6f7a8b.yaml",
                Some(6)
            ),
            (
                Severity::Error,
                "parse",
                ".brain/patterns/future-version-55667788.yaml",
                Some(1)
            ),
            (
                Severity::Error,
                "lifecycle",
                ".brain/working/superseded-without-link-99aabbcc.yaml",
                Some(4)
            ),
        ]
    );
    assert_eq!(
        (report.errors, report.warnings, report.files_checked),
        (6, 0, 9)
    );
}

fn git(root: &Path, args: &[&str]) {
    let status = std::process::Command::new("git")
        .args(args)
        .current_dir(root)
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_CONFIG_SYSTEM", "/dev/null")
        .env("GIT_AUTHOR_NAME", "t")
        .env("GIT_AUTHOR_EMAIL", "t@example.com")
        .env("GIT_COMMITTER_NAME", "t")
        .env("GIT_COMMITTER_EMAIL", "t@example.com")
        .env("GIT_AUTHOR_DATE", "2026-01-01T00:00:00Z")
        .env("GIT_COMMITTER_DATE", "2026-01-01T00:00:00Z")
        .status()
        .unwrap();
    assert!(status.success(), "git {args:?}");
}

#[test]
fn lint_checks_status_changes_against_the_last_commit() {
    let dir = example();
    let root = dir.path();
    git(root, &["init", "-q"]);
    git(root, &["add", "-A"]);
    git(root, &["commit", "-q", "-m", "store"]);
    let brain = Brain::open(root).unwrap();
    assert_eq!(brain.lint().errors, 0);

    // superseded -> active is not in the transition table; candidate -> active is.
    let catalog = brain.catalog();
    let superseded = catalog
        .memories
        .iter()
        .find(|l| l.record.status == Status::Superseded)
        .unwrap();
    let candidate = catalog
        .memories
        .iter()
        .find(|l| l.record.status == Status::Candidate)
        .unwrap();
    for (loaded, lineage_fix) in [(superseded, true), (candidate, false)] {
        let path = root.join(&loaded.path);
        let mut text = std::fs::read_to_string(&path).unwrap();
        text = text.replacen(
            &format!("status: {}", loaded.record.status),
            "status: active",
            1,
        );
        if lineage_fix {
            let by = loaded.record.lineage.superseded_by.as_ref().unwrap();
            text = text.replacen(&format!("  superseded_by: {by}\n"), "", 1);
            text = text.replacen("lineage:\n", "", 1);
        } else {
            text = text.replacen("review:\n  state: pending\n", "", 1);
        }
        std::fs::write(&path, text).unwrap();
    }
    let report = brain.lint();
    let transitions: Vec<(&str, Option<u32>)> = report
        .findings
        .iter()
        .filter(|f| f.code == "transition")
        .map(|f| (f.path.as_str(), f.line))
        .collect();
    assert_eq!(
        transitions,
        [(superseded.path.as_str(), Some(4))],
        "{:#?}",
        report.findings
    );
    let message = &report
        .findings
        .iter()
        .find(|f| f.code == "transition")
        .unwrap()
        .message;
    assert!(
        message.contains("from `superseded` to `active`"),
        "{message}"
    );
}

#[test]
fn cache_pairs_entries_when_files_are_added_between_others() {
    let dir = example();
    let root = dir.path();
    let store = Store::open(root).unwrap();
    let cold = store.load();
    let n = cold.memories.len() + cold.preferences.len();
    // A new file that sorts before every other decision shifts the listing order.
    let first = &cold.memories[0];
    let text = std::fs::read_to_string(root.join(&first.path)).unwrap();
    let new_id = "aaa-first-00000000";
    std::fs::write(
        root.join(".brain/decisions").join(format!("{new_id}.yaml")),
        text.replacen(first.record.id.as_str(), new_id, 1),
    )
    .unwrap();
    let after = store.load();
    assert_eq!(after.cache.parsed, 1);
    assert_eq!(after.cache.hits + after.cache.verified, n);
    assert_eq!(after.memories[0].record.id.as_str(), new_id);
    assert_eq!(&after.memories[1..], &cold.memories[..]);
}

/// Sets the modification time of every file under `.brain/` except the
/// derived caches to a fixed instant long ago.
fn age_record_files(root: &Path) {
    let old = std::time::SystemTime::UNIX_EPOCH + std::time::Duration::from_secs(1_700_000_000);
    for entry in walkdir::WalkDir::new(root.join(".brain")) {
        let entry = entry.unwrap();
        if entry.file_type().is_file() && !entry.path().starts_with(root.join(".brain/runtime")) {
            let f = std::fs::File::options()
                .write(true)
                .open(entry.path())
                .unwrap();
            f.set_modified(old).unwrap();
        }
    }
}

#[test]
fn retrieval_index_is_reused_only_while_every_record_file_is_unchanged() {
    let dir = example();
    let root = dir.path();
    age_record_files(root);
    let store = Store::open(root).unwrap();
    let built = store.load_index();
    assert!(!built.from_cache);
    assert!(built.problems.is_empty() && built.warnings.is_empty());
    assert!(root.join(".brain/runtime/cache/index.bin").is_file());
    let catalog = store.load();
    assert_eq!(built.index.docs.len(), catalog.memories.len());

    // Unchanged files: served from the file, with only the asked-for postings.
    let mut warm = store.load_index();
    assert!(warm.from_cache);
    assert_eq!(warm.index.docs, built.index.docs);
    assert!(warm.index.postings.is_empty());
    let terms = vec!["ledger".to_owned(), "nosuchword".to_owned()];
    warm.load_terms(&terms).unwrap();
    assert_eq!(
        warm.index.postings["ledger"],
        built.index.postings["ledger"]
    );
    assert!(!warm.index.postings.contains_key("nosuchword"));
    let first = &warm.index.docs[0];
    assert_eq!(
        store.read_memory(&first.path).unwrap().id,
        first.id,
        "documents point at their files"
    );

    // An edit (new mtime) is seen at once.
    let victim = catalog.memories[0].clone();
    let path = root.join(&victim.path);
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::write(
        &path,
        text.replacen(&victim.record.title, "Retitled by an editor", 1),
    )
    .unwrap();
    let edited = store.load_index();
    assert!(!edited.from_cache);
    assert_eq!(edited.index.docs[0].title, "Retitled by an editor");
    // Just written: too recent to trust, so it is checked again next time.
    assert!(!store.load_index().from_cache);
    age_record_files(root);
    assert!(!store.load_index().from_cache, "new mtimes rebuild it");
    assert!(store.load_index().from_cache);

    // A broken file is reported by a warm load too, not skipped silently.
    std::fs::write(&path, "schema_version: 1\nid: [\n").unwrap();
    age_record_files(root);
    let broken = store.load_index();
    assert!(!broken.from_cache);
    assert_eq!(broken.problems.len(), 1);
    let broken_warm = store.load_index();
    assert!(broken_warm.from_cache);
    assert_eq!(broken_warm.problems, broken.problems);
    assert_eq!(broken_warm.index.docs.len(), catalog.memories.len() - 1);

    // A new file, a deleted file and a stray file are all noticed.
    std::fs::remove_file(&path).unwrap();
    let deleted = store.load_index();
    assert!(!deleted.from_cache && deleted.problems.is_empty());
    age_record_files(root);
    store.load_index();
    std::fs::write(root.join(".brain/gotchas/notes.txt"), "x").unwrap();
    let stray = store.load_index();
    assert_eq!(stray.problems.len(), 1, "{:?}", stray.problems);
    assert!(stray.problems[0].path.ends_with("notes.txt"));

    // A corrupt or truncated index file is rebuilt.
    let file = root.join(".brain/runtime/cache/index.bin");
    for bytes in [
        b"garbage".to_vec(),
        std::fs::read(&file).unwrap()[..100].to_vec(),
    ] {
        std::fs::write(&file, bytes).unwrap();
        let rebuilt = store.load_index();
        assert!(!rebuilt.from_cache);
        assert_eq!(rebuilt.index.docs.len(), catalog.memories.len() - 1);
    }
}
