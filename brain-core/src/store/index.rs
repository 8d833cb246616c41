//! The retrieval index on disk: `.brain/runtime/cache/index.bin`, derived
//! from the record files and rebuilt whenever one changes.
//!
//! ```text
//! magic        8 bytes  "brainix2"
//! fingerprint  32 bytes (crate version and the document schema)
//! head length  u64 little-endian
//! head         four lists, each a u64 count and its postcard items: the
//!              stamp (path, size, mtime) of every record file, the problems
//!              of files that did not parse, the documents, and the term
//!              dictionary (term, postings offset, count), sorted
//! postings     per term, `count` × (u32 document, f32 weighted frequency)
//! ```
//!
//! A load lists the record files (one `stat` each, as the catalog cache
//! does) and compares them with the stamps. When every file is unchanged and
//! none was modified within two seconds of the index's own write (a time
//! stamp that close cannot prove the content unchanged), the head is decoded
//! and only the postings of the query's terms are read. Otherwise the store
//! is loaded through the catalog and the index rebuilt and rewritten. The
//! file is only an optimisation: an unreadable, foreign or corrupt one is
//! rebuilt, and failing to write it is a warning.

use std::collections::HashMap;
use std::io::{Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::load::{self, FileProblem, Listed, RACY_SECONDS, mtime_of};
use super::write::replace_derived;
use super::{Error, Layout};
use crate::inject::index::{Doc, Index, Posting};
use crate::model::{Memory, Preference};

const MAGIC: [u8; 8] = *b"brainix2";
/// Largest head decoded (1 GiB).
const MAX_HEAD: u64 = 1 << 30;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
struct Stamp {
    rel: String,
    size: u64,
    mtime: (u64, u32),
}

#[derive(Clone, Debug, Serialize, Deserialize)]
struct Head {
    files: Vec<Stamp>,
    problems: Vec<FileProblem>,
    docs: Vec<Doc>,
    /// (term, offset into the postings region in entries, count), sorted by term.
    terms: Vec<(String, u64, u32)>,
}

/// Where postings not yet in [`StoreIndex::index`] come from.
#[derive(Debug)]
enum Source {
    /// The index was built in this process: every term is in memory.
    Built,
    /// Read from the file: the dictionary and where the postings start.
    File {
        path: PathBuf,
        terms: Vec<(String, u64, u32)>,
        base: u64,
    },
}

/// The store's retrieval index, and what loading it found.
#[derive(Debug)]
pub struct StoreIndex {
    /// Documents and the postings loaded so far.
    pub index: Index,
    /// Files that could not be used, sorted by path.
    pub problems: Vec<FileProblem>,
    /// The preferences, when the store had to be loaded in full (else `None`).
    pub preferences: Option<Vec<Preference>>,
    /// Non-fatal trouble (an index or cache that could not be written).
    pub warnings: Vec<String>,
    /// Whether it was served from `index.bin` without loading the store.
    pub from_cache: bool,
    source: Source,
}

impl StoreIndex {
    /// Makes sure `index.postings` holds every one of `terms`.
    ///
    /// # Errors
    /// When the index file can no longer be read.
    pub fn load_terms(&mut self, terms: &[String]) -> Result<(), Error> {
        let Source::File {
            path,
            terms: dict,
            base,
        } = &self.source
        else {
            return Ok(());
        };
        let wanted: Vec<&(String, u64, u32)> = terms
            .iter()
            .filter(|t| !self.index.postings.contains_key(*t))
            .filter_map(|t| {
                dict.binary_search_by(|(k, _, _)| k.as_str().cmp(t))
                    .ok()
                    .map(|i| &dict[i])
            })
            .collect();
        if wanted.is_empty() {
            return Ok(());
        }
        let io = |e: std::io::Error| Error::Read {
            path: path.clone(),
            source: e,
        };
        let mut file = std::fs::File::open(path).map_err(io)?;
        for (term, offset, count) in wanted {
            file.seek(SeekFrom::Start(base + offset * 8)).map_err(io)?;
            let mut bytes = vec![0u8; *count as usize * 8];
            file.read_exact(&mut bytes).map_err(io)?;
            let list = bytes
                .chunks_exact(8)
                .map(|c| Posting {
                    doc: u32::from_le_bytes([c[0], c[1], c[2], c[3]]),
                    tf: f32::from_le_bytes([c[4], c[5], c[6], c[7]]),
                })
                .collect();
            self.index.postings.insert(term.clone(), list);
        }
        Ok(())
    }
}

/// Reads and parses the memory at `rel` (a path relative to the root).
pub(crate) fn read_memory(layout: &Layout, rel: &str) -> Result<Memory, FileProblem> {
    let bytes = std::fs::read(layout.root().join(rel))
        .map_err(|e| FileProblem::whole_file(rel, format!("cannot read: {e}")))?;
    let dir = rel
        .split('/')
        .nth(1)
        .and_then(|d| {
            super::RecordDir::ALL
                .into_iter()
                .find(|r| r.name() == d && matches!(r, super::RecordDir::Memories(_)))
        })
        .ok_or_else(|| FileProblem::whole_file(rel, "not in a memory directory"))?;
    match load::parse_bytes(rel, dir, &bytes) {
        load::Parsed::Memory(m) => Ok(*m),
        load::Parsed::Preference(_) => Err(FileProblem::whole_file(rel, "not a memory")),
        load::Parsed::Invalid(p) => Err(*p),
    }
}

/// Parses every preference file. Files that do not parse are left out: the
/// index's load reports them (see [`StoreIndex::problems`]).
pub(crate) fn read_preferences(layout: &Layout) -> Vec<Preference> {
    let dir = layout.record_dir(super::RecordDir::Preferences);
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return Vec::new();
    };
    let mut names: Vec<String> = entries
        .filter_map(Result::ok)
        .filter_map(|e| e.file_name().into_string().ok())
        .filter(|n| !n.starts_with('.') && Path::new(n).extension().is_some_and(|e| e == "yaml"))
        .collect();
    names.sort();
    names
        .into_iter()
        .filter_map(|name| {
            let rel = format!("{}/preferences/{name}", super::BRAIN_DIR);
            let bytes = std::fs::read(dir.join(&name)).ok()?;
            match load::parse_bytes(&rel, super::RecordDir::Preferences, &bytes) {
                load::Parsed::Preference(p) => Some(*p),
                _ => None,
            }
        })
        .collect()
}

fn fingerprint() -> [u8; 32] {
    static FINGERPRINT: std::sync::OnceLock<[u8; 32]> = std::sync::OnceLock::new();
    *FINGERPRINT.get_or_init(|| {
        let mut h = blake3::Hasher::new();
        h.update(&load::fingerprint());
        h.update(crate::inject::terms::VERSION.as_bytes());
        h.update(
            serde_json::to_string(&schemars::schema_for!(Doc))
                .unwrap_or_default()
                .as_bytes(),
        );
        *h.finalize().as_bytes()
    })
}

/// Loads the index, from `index.bin` when it is current, else by loading
/// the store (through the catalog cache) and rebuilding it.
pub(crate) fn load(layout: &Layout) -> StoreIndex {
    let path = layout.runtime_dir().join("cache").join("index.bin");
    // Listing (one `stat` per file) and decoding the head are independent:
    // they run side by side, and the stamps are compared afterwards.
    let ((files, listing_problems), head) =
        rayon::join(|| load::list_files(layout), || read_head(&path));
    if let Some(found) = head.and_then(|h| current(h, &path, &files, listing_problems)) {
        return found;
    }
    let (catalog, files) = load::load_listed(layout, true);
    let pairs: Vec<(&Memory, &str)> = catalog
        .memories
        .iter()
        .map(|l| (&l.record, l.path.as_str()))
        .collect();
    let index = Index::build(&pairs);
    let listed: std::collections::HashSet<&str> = files.iter().map(|f| f.rel.as_str()).collect();
    let head = Head {
        files: files.iter().map(stamp).collect(),
        // Problems of listed files; listing problems are found afresh each time.
        problems: catalog
            .problems
            .iter()
            .filter(|p| listed.contains(p.path.as_str()))
            .cloned()
            .collect(),
        docs: Vec::new(),
        terms: Vec::new(),
    };
    let mut warnings = catalog.warnings;
    let written = encode(head, &index)
        .and_then(|bytes| replace_derived(&path, &bytes).map_err(|e| error_chain(&e)));
    if let Err(e) = written {
        warnings.push(format!(
            "could not write the index `{}`: {e}",
            layout.relative(&path)
        ));
    }
    StoreIndex {
        index,
        problems: catalog.problems,
        preferences: Some(catalog.preferences.into_iter().map(|l| l.record).collect()),
        warnings,
        from_cache: false,
        source: Source::Built,
    }
}

fn stamp(f: &Listed) -> Stamp {
    Stamp {
        rel: f.rel.clone(),
        size: f.size,
        mtime: f.mtime,
    }
}

fn error_chain(e: &dyn std::error::Error) -> String {
    let mut out = e.to_string();
    let mut source = e.source();
    while let Some(s) = source {
        out.push_str(": ");
        out.push_str(&s.to_string());
        source = s.source();
    }
    out
}

/// The head is written list by list, each as a little-endian `u64` count and
/// then its items back to back, so a reader allocates every list at its
/// final size at once (a plain `Vec` decodes by doubling, which at 10^5
/// documents copies and zero-fills tens of megabytes).
fn encode_head(head: &Head) -> Result<Vec<u8>, postcard::Error> {
    fn list<T: Serialize>(out: &mut Vec<u8>, items: &[T]) -> Result<(), postcard::Error> {
        out.extend_from_slice(&(items.len() as u64).to_le_bytes());
        for item in items {
            out.extend_from_slice(&postcard::to_stdvec(item)?);
        }
        Ok(())
    }
    let mut out = Vec::with_capacity(1 << 20);
    list(&mut out, &head.files)?;
    list(&mut out, &head.problems)?;
    list(&mut out, &head.docs)?;
    list(&mut out, &head.terms)?;
    Ok(out)
}

fn decode_head(bytes: &[u8]) -> Option<Head> {
    fn list<'a, T: Deserialize<'a>>(rest: &mut &'a [u8]) -> Option<Vec<T>> {
        let (count, tail) = rest.split_at_checked(8)?;
        let count = usize::try_from(u64::from_le_bytes(count.try_into().ok()?)).ok()?;
        // Every item takes at least one byte: a count beyond that is corrupt.
        if count > tail.len() {
            return None;
        }
        let mut items = Vec::with_capacity(count);
        let mut tail = tail;
        for _ in 0..count {
            let (item, next) = postcard::take_from_bytes(tail).ok()?;
            items.push(item);
            tail = next;
        }
        *rest = tail;
        Some(items)
    }
    let mut rest = bytes;
    let head = Head {
        files: list(&mut rest)?,
        problems: list(&mut rest)?,
        docs: list(&mut rest)?,
        terms: list(&mut rest)?,
    };
    rest.is_empty().then_some(head)
}

fn encode(mut head: Head, index: &Index) -> Result<Vec<u8>, String> {
    let mut terms: Vec<(&String, &Vec<Posting>)> = index.postings.iter().collect();
    terms.sort_unstable_by(|a, b| a.0.cmp(b.0));
    let mut postings = Vec::new();
    let mut offset = 0u64;
    for (term, list) in terms {
        let count = u32::try_from(list.len()).map_err(|_| "too many postings".to_owned())?;
        head.terms.push((term.clone(), offset, count));
        offset += u64::from(count);
        for p in list {
            postings.extend_from_slice(&p.doc.to_le_bytes());
            postings.extend_from_slice(&p.tf.to_le_bytes());
        }
    }
    head.docs.clone_from(&index.docs);
    let head_bytes = encode_head(&head).map_err(|e| format!("cannot encode the index: {e}"))?;
    let mut out = Vec::with_capacity(48 + head_bytes.len() + postings.len());
    out.extend_from_slice(&MAGIC);
    out.extend_from_slice(&fingerprint());
    out.extend_from_slice(&(head_bytes.len() as u64).to_le_bytes());
    out.extend_from_slice(&head_bytes);
    out.extend_from_slice(&postings);
    Ok(out)
}

/// A decoded head, the time its file was written and where its postings
/// start.
struct ReadHead {
    head: Head,
    written: (u64, u32),
    base: u64,
}

/// Reads and decodes the head of the index file, if it is one of ours.
fn read_head(path: &Path) -> Option<ReadHead> {
    let mut file = std::fs::File::open(path).ok()?;
    let written = mtime_of(file.metadata().ok()?.modified().ok());
    let mut header = [0u8; 48];
    file.read_exact(&mut header).ok()?;
    if header[..8] != MAGIC || header[8..40] != fingerprint() {
        return None;
    }
    let len = u64::from_le_bytes(header[40..48].try_into().ok()?);
    if len > MAX_HEAD {
        return None;
    }
    let mut bytes = Vec::with_capacity(usize::try_from(len).ok()?);
    (&mut file).take(len).read_to_end(&mut bytes).ok()?;
    if bytes.len() as u64 != len {
        return None;
    }
    let head = decode_head(&bytes)?;
    Some(ReadHead {
        head,
        written,
        base: 48 + len,
    })
}

/// The index of `read` if it describes exactly `files`, none of them too
/// recent to trust.
fn current(
    read: ReadHead,
    path: &Path,
    files: &[Listed],
    listing_problems: Vec<FileProblem>,
) -> Option<StoreIndex> {
    let ReadHead {
        head,
        written,
        base,
    } = read;
    if files.iter().any(|f| f.mtime.0 + RACY_SECONDS >= written.0) {
        return None;
    }
    let same = head.files.len() == files.len()
        && head
            .files
            .iter()
            .zip(files)
            .all(|(s, f)| s.rel == f.rel && s.size == f.size && s.mtime == f.mtime);
    if !same {
        return None;
    }
    let mut problems = listing_problems;
    problems.extend(head.problems);
    problems.sort_by(|a, b| a.path.cmp(&b.path));
    Some(StoreIndex {
        index: Index {
            docs: head.docs,
            postings: HashMap::new(),
        },
        problems,
        preferences: None,
        warnings: Vec::new(),
        from_cache: true,
        source: Source::File {
            path: path.to_owned(),
            terms: head.terms,
            base,
        },
    })
}
