//! Loading every record of a store, through a derived cache.
//!
//! * Files are listed in sorted order from the six type directories and
//!   `preferences/`. Hidden files (editors' and our own temporary files) are
//!   ignored; any other non-`.yaml` entry is reported, never silently skipped.
//! * Parsing runs on rayon's pool; each task opens, reads and closes one file,
//!   so at most one file per worker thread is open at any moment, whatever the
//!   store's size.
//! * A file that does not parse becomes a [`FileProblem`] with path, line and
//!   column; the rest of the store loads normally.
//! * `.brain/runtime/cache/catalog.bin` keeps every parsed record (or its
//!   problem) keyed by path and validated by size and modification time, plus
//!   a content hash for files modified so close to the cache's own write that
//!   the time stamp cannot be trusted. A warm load parses nothing; a stale
//!   entry is re-parsed on its own. The cache is only ever an optimisation: a
//!   missing, corrupt or foreign one is rebuilt, and failing to write it is a
//!   warning.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use super::write::write_atomic;
use super::{Layout, RecordDir};
use crate::model::{Memory, Preference};
use crate::yaml::{self, YamlError};

/// A record loaded from a file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Loaded<T> {
    /// Path relative to the repository root, `/`-separated (`.brain/decisions/x.yaml`).
    pub path: String,
    /// The parsed record.
    pub record: T,
}

/// A file that could not be used, and why.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct FileProblem {
    /// Path relative to the repository root.
    pub path: String,
    /// 1-based line, when known.
    pub line: Option<u32>,
    /// 1-based column, when known.
    pub column: Option<u32>,
    /// Dotted field path, when known.
    pub field: Option<String>,
    /// What is wrong.
    pub message: String,
}

impl FileProblem {
    pub(crate) fn from_yaml(path: &str, err: YamlError) -> FileProblem {
        let message = match &err.field {
            Some(field) => format!("`{field}`: {}", err.message),
            None => err.message,
        };
        FileProblem {
            path: path.to_owned(),
            line: err.line,
            column: err.column,
            field: err.field,
            message,
        }
    }

    pub(crate) fn whole_file(path: &str, message: impl Into<String>) -> FileProblem {
        FileProblem {
            path: path.to_owned(),
            line: None,
            column: None,
            field: None,
            message: message.into(),
        }
    }
}

/// How the cache served a load.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct CacheStats {
    /// Files served from the cache.
    pub hits: usize,
    /// Files parsed because they were new, changed or not cached.
    pub parsed: usize,
    /// Whether the cache file was rewritten.
    pub rewritten: bool,
}

/// Every record of a store, in path order, and every file that failed.
#[derive(Clone, Debug, Default)]
pub struct Catalog {
    /// Memories, sorted by path.
    pub memories: Vec<Loaded<Memory>>,
    /// Preferences, sorted by path.
    pub preferences: Vec<Loaded<Preference>>,
    /// Files that were skipped, sorted by path.
    pub problems: Vec<FileProblem>,
    /// Cache behaviour of this load.
    pub cache: CacheStats,
    /// Non-fatal trouble (e.g. the cache could not be written).
    pub warnings: Vec<String>,
}

/// One record file on disk.
#[derive(Clone, Debug)]
pub(crate) struct Listed {
    pub(crate) rel: String,
    pub(crate) abs: PathBuf,
    pub(crate) dir: RecordDir,
    pub(crate) size: u64,
    pub(crate) mtime: (u64, u32),
}

/// Lists the record files of a store; entries that cannot be records are
/// returned as problems.
pub(crate) fn list_files(layout: &Layout) -> (Vec<Listed>, Vec<FileProblem>) {
    let mut files = Vec::new();
    let mut problems = Vec::new();
    for dir in RecordDir::ALL {
        let abs_dir = layout.record_dir(dir);
        if !abs_dir.is_dir() {
            continue;
        }
        let walker = walkdir::WalkDir::new(&abs_dir)
            .min_depth(1)
            .max_depth(1)
            .sort_by_file_name();
        for entry in walker {
            let entry = match entry {
                Ok(e) => e,
                Err(e) => {
                    let path = e.path().map_or_else(|| abs_dir.clone(), Path::to_path_buf);
                    problems.push(FileProblem::whole_file(
                        &layout.relative(&path),
                        format!("cannot read directory entry: {e}"),
                    ));
                    continue;
                }
            };
            let name = entry.file_name().to_string_lossy();
            if name.starts_with('.') {
                continue;
            }
            let rel = layout.relative(entry.path());
            if !entry.file_type().is_file() {
                problems.push(FileProblem::whole_file(
                    &rel,
                    "unexpected entry: record directories hold only `<id>.yaml` files",
                ));
                continue;
            }
            if !name.ends_with(".yaml") {
                let hint = if name.ends_with(".yml") {
                    "record files must end in `.yaml`, not `.yml`"
                } else {
                    "not a record file: record directories hold only `<id>.yaml` files"
                };
                problems.push(FileProblem::whole_file(&rel, hint));
                continue;
            }
            match entry.metadata() {
                Ok(meta) => files.push(Listed {
                    rel,
                    abs: entry.path().to_path_buf(),
                    dir,
                    size: meta.len(),
                    mtime: mtime_of(meta.modified().ok()),
                }),
                Err(e) => problems.push(FileProblem::whole_file(&rel, format!("cannot stat: {e}"))),
            }
        }
    }
    (files, problems)
}

fn mtime_of(t: Option<SystemTime>) -> (u64, u32) {
    t.and_then(|t| t.duration_since(UNIX_EPOCH).ok())
        .map_or((0, 0), |d| (d.as_secs(), d.subsec_nanos()))
}

/// A parsed file as kept in the cache.
#[derive(Clone, Debug, Serialize, Deserialize)]
enum Parsed {
    Memory(Box<Memory>),
    Preference(Box<Preference>),
    Invalid(FileProblem),
}

#[derive(Clone, Debug, Serialize, Deserialize)]
struct CacheEntry {
    rel: String,
    size: u64,
    mtime: (u64, u32),
    hash: [u8; 32],
    parsed: Parsed,
}

#[derive(Debug, Serialize)]
struct CacheFileRef<'a> {
    magic: [u8; 8],
    fingerprint: [u8; 32],
    entries: &'a [&'a CacheEntry],
}

#[derive(Debug, Deserialize)]
struct CacheFile {
    magic: [u8; 8],
    fingerprint: [u8; 32],
    entries: Vec<CacheEntry>,
}

const MAGIC: [u8; 8] = *b"brainct1";

/// Seconds within which a file's mtime is too close to the cache's to be trusted.
const RACY_SECONDS: u64 = 2;

/// Identifies the shape of cached records: changes whenever the record types'
/// schema or the crate version changes, so an old cache is never misread.
fn fingerprint() -> [u8; 32] {
    let mut h = blake3::Hasher::new();
    h.update(env!("CARGO_PKG_VERSION").as_bytes());
    let memory = schemars::schema_for!(Memory);
    let preference = schemars::schema_for!(Preference);
    h.update(
        serde_json::to_string(&(memory, preference))
            .expect("schemas serialize")
            .as_bytes(),
    );
    *h.finalize().as_bytes()
}

fn parse_bytes(rel: &str, dir: RecordDir, bytes: &[u8]) -> Parsed {
    let Ok(text) = std::str::from_utf8(bytes) else {
        return Parsed::Invalid(FileProblem::whole_file(rel, "file is not valid UTF-8"));
    };
    match dir {
        RecordDir::Memories(_) => match yaml::parse_memory(text) {
            Ok(m) => Parsed::Memory(Box::new(m)),
            Err(e) => Parsed::Invalid(FileProblem::from_yaml(rel, e)),
        },
        RecordDir::Preferences => match yaml::parse_preference(text) {
            Ok(p) => Parsed::Preference(Box::new(p)),
            Err(e) => Parsed::Invalid(FileProblem::from_yaml(rel, e)),
        },
    }
}

fn read_cache(
    path: &Path,
    fingerprint: &[u8; 32],
) -> Option<(HashMap<String, CacheEntry>, (u64, u32))> {
    let bytes = std::fs::read(path).ok()?;
    let meta = std::fs::metadata(path).ok()?;
    let file: CacheFile = postcard::from_bytes(&bytes).ok()?;
    if file.magic != MAGIC || &file.fingerprint != fingerprint {
        return None;
    }
    let map = file
        .entries
        .into_iter()
        .map(|e| (e.rel.clone(), e))
        .collect();
    Some((map, mtime_of(meta.modified().ok())))
}

/// Loads every record, using and refreshing the cache when `use_cache` is set.
pub(crate) fn load(layout: &Layout, use_cache: bool) -> Catalog {
    let (files, mut problems) = list_files(layout);
    let cache_path = layout.cache_file();
    let fp = fingerprint();
    let (mut cached, cache_mtime) = if use_cache {
        read_cache(&cache_path, &fp).unwrap_or_default()
    } else {
        Default::default()
    };
    let cache_count = cached.len();

    // Move each file's cache entry out of the map so that hits need no copy.
    let work: Vec<(&Listed, Option<CacheEntry>)> =
        files.iter().map(|f| (f, cached.remove(&f.rel))).collect();
    let results: Vec<(CacheEntry, bool)> = work
        .into_par_iter()
        .map(|(f, c)| resolve(f, c, cache_mtime))
        .collect();

    let mut stats = CacheStats::default();
    for (_, hit) in &results {
        if *hit {
            stats.hits += 1;
        } else {
            stats.parsed += 1;
        }
    }
    let mut catalog = Catalog::default();
    // Entries left in `cached` belong to deleted files.
    let changed = stats.parsed > 0 || !cached.is_empty() || cache_count != results.len();
    if use_cache && changed {
        let entries: Vec<&CacheEntry> = results.iter().map(|(e, _)| e).collect();
        let file = CacheFileRef {
            magic: MAGIC,
            fingerprint: fp,
            entries: &entries,
        };
        match postcard::to_stdvec(&file) {
            Ok(bytes) => match write_atomic(&cache_path, &bytes, true) {
                Ok(()) => stats.rewritten = true,
                Err(e) => catalog.warnings.push(format!(
                    "could not write the cache `{}`: {e}",
                    cache_path.display()
                )),
            },
            Err(e) => catalog
                .warnings
                .push(format!("could not encode the cache: {e}")),
        }
    }
    for (entry, _) in results {
        match entry.parsed {
            Parsed::Memory(m) => catalog.memories.push(Loaded {
                path: entry.rel,
                record: *m,
            }),
            Parsed::Preference(p) => catalog.preferences.push(Loaded {
                path: entry.rel,
                record: *p,
            }),
            Parsed::Invalid(problem) => problems.push(problem),
        }
    }
    problems.sort_by(|a, b| a.path.cmp(&b.path));
    catalog.problems = problems;
    catalog.cache = stats;
    catalog
}

/// Returns the cache entry for `f`, reusing `cached` when it is provably
/// current; the flag says whether it was reused without parsing.
fn resolve(f: &Listed, cached: Option<CacheEntry>, cache_mtime: (u64, u32)) -> (CacheEntry, bool) {
    let racy = f.mtime.0 + RACY_SECONDS >= cache_mtime.0;
    if let Some(c) = &cached
        && c.size == f.size
        && c.mtime == f.mtime
        && !racy
    {
        return (cached.expect("checked just above"), true);
    }
    let bytes = match std::fs::read(&f.abs) {
        Ok(b) => b,
        Err(e) => {
            let problem = FileProblem::whole_file(&f.rel, format!("cannot read: {e}"));
            return (
                CacheEntry {
                    rel: f.rel.clone(),
                    size: f.size,
                    mtime: f.mtime,
                    hash: [0; 32],
                    parsed: Parsed::Invalid(problem),
                },
                false,
            );
        }
    };
    let hash = *blake3::hash(&bytes).as_bytes();
    if let Some(mut entry) = cached
        && entry.hash == hash
    {
        entry.size = f.size;
        entry.mtime = f.mtime;
        return (entry, true);
    }
    let parsed = parse_bytes(&f.rel, f.dir, &bytes);
    (
        CacheEntry {
            rel: f.rel.clone(),
            size: f.size,
            mtime: f.mtime,
            hash,
            parsed,
        },
        false,
    )
}
