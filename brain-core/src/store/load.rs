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

use super::write::replace_derived;
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
    /// Files served from the cache on size and modification time alone.
    pub hits: usize,
    /// Files served from the cache after re-reading them and comparing content
    /// hashes (their time stamp changed, or was too recent to trust).
    pub verified: usize,
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
    let mut candidates = Vec::new();
    let mut problems = Vec::new();
    for dir in RecordDir::ALL {
        let abs_dir = layout.record_dir(dir);
        let dir_rel = format!("{}/{}", super::BRAIN_DIR, dir.name());
        let read = match std::fs::read_dir(&abs_dir) {
            Ok(read) => read,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
            Err(e) => {
                problems.push(FileProblem::whole_file(
                    &dir_rel,
                    format!("cannot read directory: {e}"),
                ));
                continue;
            }
        };
        let mut entries = Vec::new();
        for entry in read {
            match entry {
                Ok(entry) => match entry.file_name().into_string() {
                    Ok(name) => entries.push((name, entry)),
                    Err(raw) => problems.push(FileProblem::whole_file(
                        &format!("{dir_rel}/{}", raw.to_string_lossy()),
                        "file name is not valid UTF-8",
                    )),
                },
                Err(e) => problems.push(FileProblem::whole_file(
                    &dir_rel,
                    format!("cannot read directory entry: {e}"),
                )),
            }
        }
        entries.sort_unstable_by(|a, b| a.0.cmp(&b.0));
        for (name, entry) in entries {
            if name.starts_with('.') {
                continue;
            }
            let rel = format!("{dir_rel}/{name}");
            // The entry's type comes with the directory listing: no extra syscall.
            let is_file = entry.file_type().is_ok_and(|t| t.is_file());
            if !is_file {
                problems.push(FileProblem::whole_file(
                    &rel,
                    "unexpected entry: record directories hold only `<id>.yaml` files",
                ));
            } else if Path::new(&name).extension().is_none_or(|e| e != "yaml") {
                // Exactly `.yaml`: `X.YAML` would be a second spelling of an id.
                let hint = if Path::new(&name).extension().is_some_and(|e| e == "yml") {
                    "record files must end in `.yaml`, not `.yml`"
                } else {
                    "not a record file: record directories hold only `<id>.yaml` files"
                };
                problems.push(FileProblem::whole_file(&rel, hint));
            } else {
                candidates.push((rel, dir, entry));
            }
        }
    }
    // `DirEntry::metadata` stats relative to the open directory, and the
    // calls run on the pool: listing 10^4 files costs a few milliseconds.
    let stats: Vec<Result<Listed, FileProblem>> = candidates
        .into_par_iter()
        .map(|(rel, dir, entry)| match entry.metadata() {
            Ok(meta) => Ok(Listed {
                abs: entry.path(),
                rel,
                dir,
                size: meta.len(),
                mtime: mtime_of(meta.modified().ok()),
            }),
            Err(e) => Err(FileProblem::whole_file(&rel, format!("cannot stat: {e}"))),
        })
        .collect();
    let mut files = Vec::with_capacity(stats.len());
    for s in stats {
        match s {
            Ok(f) => files.push(f),
            Err(p) => problems.push(p),
        }
    }
    (files, problems)
}

pub(crate) fn mtime_of(t: Option<SystemTime>) -> (u64, u32) {
    t.and_then(|t| t.duration_since(UNIX_EPOCH).ok())
        .map_or((0, 0), |d| (d.as_secs(), d.subsec_nanos()))
}

/// A parsed file as kept in the cache.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) enum Parsed {
    Memory(Box<Memory>),
    Preference(Box<Preference>),
    Invalid(Box<FileProblem>),
}

#[derive(Clone, Debug, Serialize, Deserialize)]
struct CacheEntry {
    rel: String,
    size: u64,
    mtime: (u64, u32),
    hash: [u8; 32],
    parsed: Parsed,
}

/// Cache file layout: `MAGIC`, the 32-byte fingerprint, then one record per
/// file: a little-endian `u32` length and that many bytes of a postcard-encoded
/// [`CacheEntry`]. Records are read one at a time through a small buffer, so a
/// warm load never holds the whole file in memory next to what it decodes.
const MAGIC: [u8; 8] = *b"brainct2";

fn encode_cache<'a>(
    fingerprint: &[u8; 32],
    entries: impl Iterator<Item = &'a CacheEntry>,
) -> Result<Vec<u8>, postcard::Error> {
    let mut out = Vec::with_capacity(1 << 20);
    out.extend_from_slice(&MAGIC);
    out.extend_from_slice(fingerprint);
    for entry in entries {
        let record = postcard::to_stdvec(entry)?;
        let len = u32::try_from(record.len()).map_err(|_| postcard::Error::SerializeBufferFull)?;
        out.extend_from_slice(&len.to_le_bytes());
        out.extend_from_slice(&record);
    }
    Ok(out)
}

/// Seconds within which a file's mtime is too close to the cache's to be trusted.
pub(crate) const RACY_SECONDS: u64 = 2;

/// Identifies the shape of cached records: changes whenever the record types'
/// schema or the crate version changes, so an old cache is never misread.
/// Computed once per process.
pub(crate) fn fingerprint() -> [u8; 32] {
    static FINGERPRINT: std::sync::OnceLock<[u8; 32]> = std::sync::OnceLock::new();
    *FINGERPRINT.get_or_init(|| {
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
    })
}

pub(crate) fn parse_bytes(rel: &str, dir: RecordDir, bytes: &[u8]) -> Parsed {
    let Ok(text) = std::str::from_utf8(bytes) else {
        return Parsed::Invalid(Box::new(FileProblem::whole_file(
            rel,
            "file is not valid UTF-8",
        )));
    };
    match dir {
        RecordDir::Memories(_) => match yaml::parse_memory(text) {
            Ok(m) => Parsed::Memory(Box::new(m)),
            Err(e) => Parsed::Invalid(Box::new(FileProblem::from_yaml(rel, e))),
        },
        RecordDir::Preferences => match yaml::parse_preference(text) {
            Ok(p) => Parsed::Preference(Box::new(p)),
            Err(e) => Parsed::Invalid(Box::new(FileProblem::from_yaml(rel, e))),
        },
    }
}

fn read_cache(path: &Path, fingerprint: &[u8; 32]) -> Option<(Vec<CacheEntry>, (u64, u32))> {
    use std::io::Read;
    let file = std::fs::File::open(path).ok()?;
    let meta = file.metadata().ok()?;
    let mut reader = std::io::BufReader::with_capacity(256 * 1024, file);
    let mut header = [0u8; 40];
    reader.read_exact(&mut header).ok()?;
    if header[..8] != MAGIC || header[8..] != fingerprint[..] {
        return None;
    }
    let mut entries = Vec::new();
    let mut record = Vec::new();
    let mut len = [0u8; 4];
    loop {
        match reader.read_exact(&mut len) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => break,
            Err(_) => return None,
        }
        record.resize(u32::from_le_bytes(len) as usize, 0);
        reader.read_exact(&mut record).ok()?;
        entries.push(postcard::from_bytes(&record).ok()?);
    }
    Some((entries, mtime_of(meta.modified().ok())))
}

/// Loads every record, using and refreshing the cache when `use_cache` is set.
pub(crate) fn load(layout: &Layout, use_cache: bool) -> Catalog {
    load_listed(layout, use_cache).0
}

/// Like [`load`], also returning the listing the records were read after
/// (their sizes and modification times as they were before reading).
pub(crate) fn load_listed(layout: &Layout, use_cache: bool) -> (Catalog, Vec<Listed>) {
    let (files, mut problems) = list_files(layout);
    let cache_path = layout.cache_file();
    let fp = fingerprint();
    let (cached, cache_mtime) = if use_cache {
        read_cache(&cache_path, &fp).unwrap_or_default()
    } else {
        Default::default()
    };
    let cache_count = cached.len();

    // Pair each file with its cache entry. The cache is written in listing
    // order, so a cursor finds almost every entry; an index is built only if
    // the order differs (files added or removed).
    let mut cached: Vec<Option<CacheEntry>> = cached.into_iter().map(Some).collect();
    let mut cursor = 0;
    let mut index: Option<HashMap<String, usize>> = None;
    let mut work: Vec<(&Listed, Option<CacheEntry>)> = Vec::with_capacity(files.len());
    for f in &files {
        let in_order = cached
            .get(cursor)
            .and_then(Option::as_ref)
            .is_some_and(|c| c.rel == f.rel);
        let entry = if in_order {
            cursor += 1;
            cached[cursor - 1].take()
        } else {
            let index = index.get_or_insert_with(|| {
                cached
                    .iter()
                    .enumerate()
                    .filter_map(|(i, c)| c.as_ref().map(|c| (c.rel.clone(), i)))
                    .collect()
            });
            index.get(&f.rel).and_then(|&i| cached[i].take())
        };
        work.push((f, entry));
    }
    let deleted = cached.iter().any(Option::is_some);
    let results: Vec<(CacheEntry, Resolution)> = work
        .into_par_iter()
        .map(|(f, c)| resolve(f, c, cache_mtime))
        .collect();

    let mut stats = CacheStats::default();
    for (_, how) in &results {
        match how {
            Resolution::Hit => stats.hits += 1,
            Resolution::Verified => stats.verified += 1,
            Resolution::Parsed => stats.parsed += 1,
        }
    }
    let mut catalog = Catalog::default();
    // Entries left in `cached` belong to deleted files. Verified entries are
    // rewritten too: that records new time stamps, and moves the cache's own
    // time past files that were too recent to trust, so the next load is
    // served on time stamps alone.
    let changed = stats.parsed > 0 || stats.verified > 0 || deleted || cache_count != results.len();
    if use_cache && changed {
        match encode_cache(&fp, results.iter().map(|(e, _)| e)) {
            Ok(bytes) => match replace_derived(&cache_path, &bytes) {
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
            Parsed::Invalid(problem) => problems.push(*problem),
        }
    }
    problems.sort_by(|a, b| a.path.cmp(&b.path));
    catalog.problems = problems;
    catalog.cache = stats;
    (catalog, files)
}

/// Returns the cache entry for `f`, reusing `cached` when it is provably
/// current; the flag says whether it was reused without parsing.
/// Reads a whole file whose size is already known from the listing, saving
/// the `fstat` that `std::fs::read` makes to size its buffer.
fn read_sized(path: &Path, size: u64) -> std::io::Result<Vec<u8>> {
    use std::io::Read;
    let mut file = std::fs::File::open(path)?;
    let mut bytes = Vec::with_capacity(usize::try_from(size).unwrap_or(0).saturating_add(1));
    file.read_to_end(&mut bytes)?;
    Ok(bytes)
}

/// How [`resolve`] produced an entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Resolution {
    /// Size and mtime matched a trustworthy cache entry.
    Hit,
    /// The content hash matched the cache entry.
    Verified,
    /// The file was parsed.
    Parsed,
}

fn resolve(
    f: &Listed,
    cached: Option<CacheEntry>,
    cache_mtime: (u64, u32),
) -> (CacheEntry, Resolution) {
    let racy = f.mtime.0 + RACY_SECONDS >= cache_mtime.0;
    if let Some(c) = &cached
        && c.size == f.size
        && c.mtime == f.mtime
        && !racy
    {
        return (cached.expect("checked just above"), Resolution::Hit);
    }
    let bytes = match read_sized(&f.abs, f.size) {
        Ok(b) => b,
        Err(e) => {
            let problem = FileProblem::whole_file(&f.rel, format!("cannot read: {e}"));
            return (
                CacheEntry {
                    rel: f.rel.clone(),
                    size: f.size,
                    mtime: f.mtime,
                    hash: [0; 32],
                    parsed: Parsed::Invalid(Box::new(problem)),
                },
                Resolution::Parsed,
            );
        }
    };
    let hash = *blake3::hash(&bytes).as_bytes();
    if let Some(mut entry) = cached
        && entry.hash == hash
    {
        entry.size = f.size;
        entry.mtime = f.mtime;
        return (entry, Resolution::Verified);
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
        Resolution::Parsed,
    )
}
