//! Embeddings: the [`Embedder`] trait that every provider implements, the
//! offline default ([`HashEmbedder`]), what text of a memory is embedded, the
//! in-memory [`VectorCache`] and the helper that fills it.
//!
//! Providers that talk to the network or run processes (`openai`, `command`)
//! live in `brain-cli`; this module only defines their contract and checks
//! what they return. Vectors are cached by the content hash of the embedded
//! text in a file per [`EmbedderId::key`] (see `store::vectors`), so a
//! provider, model or dimension change never mixes vectors, and a renamed or
//! re-checked-out memory reuses its vector.
//!
//! ```
//! use brain_core::embed::{Embedder, HashEmbedder, cosine};
//!
//! let e = HashEmbedder::new(256);
//! let v = e.embed(&[
//!     "Ledger rows are append-only: never UPDATE ledger entries",
//!     "Never update rows of the ledger; append a reversing entry",
//!     "The dashboard uses a dark colour theme",
//! ])?;
//! assert!(cosine(&v[0], &v[1]) > cosine(&v[0], &v[2]));
//! # Ok::<(), brain_core::embed::EmbedError>(())
//! ```

mod cache;
mod hash;

use std::collections::{HashMap, HashSet};
use std::fmt;
use std::path::PathBuf;

use schemars::JsonSchema;
use serde::Serialize;

pub use cache::VectorCache;
pub use hash::HashEmbedder;

use crate::model::{Memory, MemoryId};

/// Which provider, model and dimension produced a vector. Vectors of two
/// different ids are never compared or stored together.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct EmbedderId {
    /// Provider name: `hash`, `openai`, `command`, ….
    pub provider: String,
    /// Model name (for `hash`, the algorithm version).
    pub model: String,
    /// Length of every vector.
    pub dimensions: u32,
}

/// Longest model part of a [`EmbedderId::key`] before it is shortened.
const MAX_KEY_MODEL_LEN: usize = 64;

impl EmbedderId {
    /// Creates an id.
    pub fn new(provider: impl Into<String>, model: impl Into<String>, dimensions: u32) -> Self {
        EmbedderId {
            provider: provider.into(),
            model: model.into(),
            dimensions,
        }
    }

    /// A file-name-safe key, `<provider>-<model>-<dimensions>`
    /// (`hash-v1-256`, `openai-text-embedding-3-small-512`). Characters other
    /// than `a-z 0-9 . _ -` become `-`; when that changed the name (or it was
    /// too long) a short hash of the exact id is appended, so two different ids
    /// never share a key.
    pub fn key(&self) -> String {
        let clean = |s: &str| -> String {
            let mut out = String::with_capacity(s.len());
            for c in s.chars() {
                let c = c.to_ascii_lowercase();
                if c.is_ascii_alphanumeric() || c == '.' || c == '_' {
                    out.push(c);
                } else if !out.ends_with('-') {
                    out.push('-');
                }
            }
            out.trim_matches(['-', '.']).to_owned()
        };
        let provider = clean(&self.provider);
        let mut model = clean(&self.model);
        let exact = provider == self.provider && model == self.model;
        if model.len() > MAX_KEY_MODEL_LEN {
            model.truncate(MAX_KEY_MODEL_LEN);
            model = model.trim_end_matches(['-', '.']).to_owned();
        }
        let provider = if provider.is_empty() {
            "embedder".to_owned()
        } else {
            provider
        };
        let mut key = if model.is_empty() {
            format!("{provider}-{}", self.dimensions)
        } else {
            format!("{provider}-{model}-{}", self.dimensions)
        };
        if !exact || model.len() < clean(&self.model).len() {
            let mut h = blake3::Hasher::new();
            h.update(self.provider.as_bytes());
            h.update(&[0]);
            h.update(self.model.as_bytes());
            let digest = h.finalize();
            key.push('-');
            key.push_str(&digest.to_hex()[..8]);
        }
        key
    }
}

impl fmt::Display for EmbedderId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}", self.provider, self.model, self.dimensions)
    }
}

/// Computes vectors for texts. Implementations return exactly one vector of
/// [`EmbedderId::dimensions`] finite numbers per text, in input order.
pub trait Embedder {
    /// Which provider, model and dimension this is.
    fn id(&self) -> EmbedderId;
    /// Embeds `texts`; the caller batches (see [`embed_memories`]).
    fn embed(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>, EmbedError>;
}

/// Why a provider gave no usable vectors.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum EmbedError {
    /// The endpoint answered with an error status.
    #[error("HTTP {status} from {url}: {body}")]
    Http {
        /// The HTTP status code.
        status: u16,
        /// The URL requested.
        url: String,
        /// A short, redacted excerpt of the response body (see [`excerpt`]).
        body: String,
    },
    /// No answer within the timeout.
    #[error("no answer from {target} within {ms} ms (embedding.timeout_ms)")]
    Timeout {
        /// The URL or program.
        target: String,
        /// The timeout in milliseconds.
        ms: u64,
    },
    /// The endpoint could not be reached.
    #[error("cannot reach {url}: {message}")]
    Connection {
        /// The URL requested.
        url: String,
        /// What went wrong.
        message: String,
    },
    /// Several attempts failed; `last` is the final failure.
    #[error("gave up after {attempts} attempts: {last}")]
    Retries {
        /// How many attempts were made.
        attempts: u32,
        /// The last failure.
        last: Box<EmbedError>,
    },
    /// The answer is not the expected JSON.
    #[error("invalid JSON from the embedding provider: {message}{}", excerpt_suffix(.excerpt))]
    InvalidJson {
        /// What the parser said.
        message: String,
        /// A short excerpt of the answer.
        excerpt: String,
    },
    /// The answer has a different number of vectors than texts sent.
    #[error("the embedding provider returned {got} vectors for {expected} texts")]
    Count {
        /// Texts sent.
        expected: usize,
        /// Vectors received.
        got: usize,
    },
    /// A vector has the wrong length.
    #[error(
        "vector {index} has {got} dimensions, expected {expected}; set `embedding.dimensions: {got}` if the model produces {got}"
    )]
    Dimension {
        /// Position of the vector in its batch.
        index: usize,
        /// The configured dimension.
        expected: u32,
        /// The vector's length.
        got: usize,
    },
    /// A vector contains NaN or an infinity.
    #[error("vector {index} contains a value that is not a finite number")]
    NotFinite {
        /// Position of the vector in its batch.
        index: usize,
    },
    /// The provider program could not be started.
    #[error("cannot run `{program}`: {message}")]
    Spawn {
        /// The program.
        program: String,
        /// The operating system's reason.
        message: String,
    },
    /// The provider program failed.
    #[error("`{program}` exited with {}{}", exit_text(*.code), excerpt_suffix(.stderr))]
    Exit {
        /// The program.
        program: String,
        /// Its exit code, `None` when killed by a signal.
        code: Option<i32>,
        /// A short, redacted excerpt of its stderr.
        stderr: String,
    },
    /// The answer was larger than allowed.
    #[error("the embedding provider's answer is larger than {limit} bytes")]
    TooLarge {
        /// The limit in bytes.
        limit: usize,
    },
    /// The provider is not part of this build.
    #[error(
        "the `{provider}` embedding provider is not built in: rebuild brain with `--features {feature}`"
    )]
    NotBuiltIn {
        /// The provider name.
        provider: String,
        /// The cargo feature that adds it.
        feature: String,
    },
    /// A local model's directory or one of its files is missing or unusable.
    #[error("cannot load the embedding model from `{}`: {message}", path.display())]
    Model {
        /// The directory or file at fault.
        path: PathBuf,
        /// What is wrong with it.
        message: String,
    },
    /// The configuration cannot work.
    #[error("{0}")]
    Config(String),
    /// Any other I/O failure.
    #[error("{0}")]
    Io(String),
}

fn excerpt_suffix(excerpt: &str) -> String {
    if excerpt.is_empty() {
        String::new()
    } else {
        format!(": {excerpt}")
    }
}

fn exit_text(code: Option<i32>) -> String {
    match code {
        Some(c) => format!("status {c}"),
        None => "a signal".to_owned(),
    }
}

impl EmbedError {
    /// Whether trying again may help: rate limits, server errors, connection
    /// failures. Timeouts, bad answers and configuration errors are final.
    pub fn is_transient(&self) -> bool {
        match self {
            EmbedError::Http { status, .. } => *status == 429 || *status >= 500,
            EmbedError::Connection { .. } => true,
            _ => false,
        }
    }
}

/// Characters kept by [`excerpt`].
pub const EXCERPT_CHARS: usize = 300;

/// A short, single-line excerpt of the start of a provider's answer or error
/// output, with secrets redacted: whitespace runs collapsed, at most
/// [`EXCERPT_CHARS`] characters, `…` at the end when cut.
pub fn excerpt(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(bytes);
    let (redacted, _) = crate::secrets::redact(&text);
    let mut out = String::new();
    for (i, word) in redacted.split_whitespace().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        out.push_str(word);
        if out.chars().count() > EXCERPT_CHARS {
            break;
        }
    }
    if out.chars().count() > EXCERPT_CHARS {
        let mut cut: String = out.chars().take(EXCERPT_CHARS - 1).collect();
        cut.push('…');
        return cut;
    }
    out
}

/// Bytes of `detail` that [`memory_text`] keeps.
pub const MAX_DETAIL_CHARS: usize = 1500;

/// The text of a memory that is embedded: title, summary, tags and the start
/// of the detail, one per line.
pub fn memory_text(m: &Memory) -> String {
    let mut out = String::with_capacity(
        m.title.len() + m.summary.len() + m.detail.len().min(MAX_DETAIL_CHARS) + 64,
    );
    out.push_str(m.title.trim());
    out.push('\n');
    out.push_str(m.summary.trim());
    if !m.tags.is_empty() {
        out.push('\n');
        out.push_str(&m.tags.join(" "));
    }
    let detail = m.detail.trim();
    if !detail.is_empty() {
        out.push('\n');
        match detail.char_indices().nth(MAX_DETAIL_CHARS) {
            Some((cut, _)) => out.push_str(&detail[..cut]),
            None => out.push_str(detail),
        }
    }
    out
}

/// The key of a text in the vector cache: the first 16 bytes of its blake3 hash.
pub type ContentHash = [u8; 16];

/// Returns the cache key of `text`.
pub fn content_hash(text: &str) -> ContentHash {
    let digest = blake3::hash(text.as_bytes());
    let mut out = [0u8; 16];
    out.copy_from_slice(&digest.as_bytes()[..16]);
    out
}

/// Cosine similarity of two vectors, in `-1..=1`; `0` when either is all
/// zeros or their lengths differ.
pub fn cosine(a: &[f32], b: &[f32]) -> f32 {
    if a.len() != b.len() {
        return 0.0;
    }
    let (mut dot, mut na, mut nb) = (0f64, 0f64, 0f64);
    for (x, y) in a.iter().zip(b) {
        let (x, y) = (f64::from(*x), f64::from(*y));
        dot += x * y;
        na += x * x;
        nb += y * y;
    }
    if na == 0.0 || nb == 0.0 {
        return 0.0;
    }
    #[expect(
        clippy::cast_possible_truncation,
        reason = "a cosine is in -1..=1 and fits an f32"
    )]
    let c = (dot / (na.sqrt() * nb.sqrt())) as f32;
    c.clamp(-1.0, 1.0)
}

/// Scales `v` to unit length in place; an all-zero vector stays as it is.
pub fn normalize(v: &mut [f32]) {
    let norm: f64 = v.iter().map(|x| f64::from(*x) * f64::from(*x)).sum();
    if norm > 0.0 {
        #[expect(
            clippy::cast_possible_truncation,
            reason = "the inverse norm of finite f32 values fits an f32"
        )]
        let inv = (1.0 / norm.sqrt()) as f32;
        for x in v {
            *x *= inv;
        }
    }
}

/// Checks a provider's answer for `expected` texts: one vector per text, each
/// of `dimensions` finite numbers.
pub fn check_vectors(
    vectors: &[Vec<f32>],
    expected: usize,
    dimensions: u32,
) -> Result<(), EmbedError> {
    if vectors.len() != expected {
        return Err(EmbedError::Count {
            expected,
            got: vectors.len(),
        });
    }
    for (index, v) in vectors.iter().enumerate() {
        if u32::try_from(v.len()).ok() != Some(dimensions) {
            return Err(EmbedError::Dimension {
                index,
                expected: dimensions,
                got: v.len(),
            });
        }
        if !v.iter().all(|x| x.is_finite()) {
            return Err(EmbedError::NotFinite { index });
        }
    }
    Ok(())
}

/// The vectors of a set of memories, from the cache or freshly computed.
#[derive(Debug, Default)]
pub struct Embedded {
    /// Unit vector of every memory given.
    pub vectors: HashMap<MemoryId, Vec<f32>>,
    /// Texts embedded by the provider in this call.
    pub computed: usize,
    /// Memories served from the cache.
    pub reused: usize,
    /// Content hashes of every memory given: what a prune should keep.
    pub used: HashSet<ContentHash>,
}

/// Returns a vector for every memory, embedding only the texts `cache` does
/// not hold yet, `batch_size` texts per [`Embedder::embed`] call (identical
/// texts once), and adding them to `cache` as unit vectors. `progress` is
/// called after each batch with (texts done, texts to do).
///
/// On a provider error the batches embedded before it stay in `cache` (so a
/// caller may still save them) and the error is returned: the caller decides
/// whether to fail or to fall back to lexical ranking.
pub fn embed_memories(
    memories: &[&Memory],
    embedder: &dyn Embedder,
    cache: &mut VectorCache,
    batch_size: usize,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<Embedded, EmbedError> {
    let id = embedder.id();
    if &id != cache.id() {
        return Err(EmbedError::Config(format!(
            "the vector cache belongs to {}, not to {id}",
            cache.id()
        )));
    }
    let texts: Vec<(ContentHash, String)> = memories
        .iter()
        .map(|m| {
            let text = memory_text(m);
            (content_hash(&text), text)
        })
        .collect();
    let mut missing: Vec<(ContentHash, &str)> = Vec::new();
    let mut queued: HashSet<ContentHash> = HashSet::new();
    for (hash, text) in &texts {
        if cache.get(hash).is_none() && queued.insert(*hash) {
            missing.push((*hash, text.as_str()));
        }
    }
    let total = missing.len();
    let mut done = 0;
    for batch in missing.chunks(batch_size.max(1)) {
        let inputs: Vec<&str> = batch.iter().map(|(_, t)| *t).collect();
        let vectors = embedder.embed(&inputs)?;
        check_vectors(&vectors, inputs.len(), id.dimensions)?;
        for ((hash, _), mut v) in batch.iter().zip(vectors) {
            normalize(&mut v);
            cache.insert(*hash, &v)?;
        }
        done += batch.len();
        progress(done, total);
    }
    let mut out = Embedded {
        computed: total,
        ..Embedded::default()
    };
    for (m, (hash, _)) in memories.iter().zip(&texts) {
        if let Some(v) = cache.get(hash) {
            out.vectors.insert(m.id.clone(), v.to_vec());
        }
        out.used.insert(*hash);
    }
    out.reused = memories
        .len()
        .saturating_sub(texts.iter().filter(|(h, _)| queued.contains(h)).count());
    Ok(out)
}

/// What `brain index` did.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
pub struct IndexReport {
    /// The cache key of the embedder: `<provider>-<model>-<dimensions>`.
    pub embedder: String,
    /// Provider name.
    pub provider: String,
    /// Model name (for `hash`, the algorithm version).
    pub model: String,
    /// Vector dimension.
    pub dimensions: u32,
    /// Path of the vector cache, relative to the root.
    pub cache: String,
    /// Whether the cache was discarded first (`--rebuild`).
    pub rebuilt: bool,
    /// Memories indexed: every memory that is not dismissed.
    pub memories: usize,
    /// Texts the provider embedded in this run.
    pub computed: usize,
    /// Memories whose vector came from the cache.
    pub reused: usize,
    /// Cached vectors dropped because no memory has their text any more.
    pub pruned: usize,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{MemoryType, Provenance, Source, Status};

    fn memory(id: &str, title: &str, summary: &str) -> Memory {
        Memory::new(
            id.parse().unwrap(),
            MemoryType::Gotcha,
            Status::Active,
            title,
            summary,
            Provenance {
                source: Source::Manual,
                captured_at: "2026-11-20T12:00:00Z".parse().unwrap(),
                proposed_by: None,
                evidence: Vec::new(),
            },
        )
    }

    #[test]
    fn keys_are_file_names_and_distinct() {
        for (id, key) in [
            (EmbedderId::new("hash", "v1", 256), "hash-v1-256"),
            (
                EmbedderId::new("openai", "text-embedding-3-small", 512),
                "openai-text-embedding-3-small-512",
            ),
            (
                EmbedderId::new("openai", "nomic-ai/Nomic-Embed", 768),
                "openai-nomic-ai-nomic-embed-768-",
            ),
            (EmbedderId::new("command", "", 4), "command-4"),
        ] {
            assert!(id.key().starts_with(key), "{} vs {key}", id.key());
            assert!(
                id.key()
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || "-._".contains(c)),
                "{}",
                id.key()
            );
        }
        let a = EmbedderId::new("openai", "a/b", 8).key();
        let b = EmbedderId::new("openai", "a-b", 8).key();
        let c = EmbedderId::new("openai", "A-B", 8).key();
        assert_ne!(a, b);
        assert_ne!(b, c);
        let long = EmbedderId::new("openai", "m".repeat(300), 8).key();
        assert!(long.len() < 100, "{long}");
    }

    #[test]
    fn cosine_table() {
        for (a, b, want) in [
            (vec![1.0, 0.0], vec![1.0, 0.0], 1.0),
            (vec![1.0, 0.0], vec![0.0, 1.0], 0.0),
            (vec![1.0, 0.0], vec![-2.0, 0.0], -1.0),
            (vec![3.0, 4.0], vec![6.0, 8.0], 1.0),
            (vec![0.0, 0.0], vec![1.0, 0.0], 0.0),
            (vec![1.0], vec![1.0, 0.0], 0.0),
        ] {
            assert!((cosine(&a, &b) - want).abs() < 1e-6, "{a:?} {b:?}");
        }
    }

    #[test]
    fn memory_text_has_title_summary_tags_and_cut_detail() {
        let mut m = memory("a-1", "Title here", "Summary here.");
        m.tags = vec!["ledger".into(), "billing".into()];
        m.detail = "x".repeat(MAX_DETAIL_CHARS + 50);
        let t = memory_text(&m);
        assert!(t.starts_with("Title here\nSummary here.\nledger billing\nxxx"));
        assert_eq!(t.chars().filter(|c| *c == 'x').count(), MAX_DETAIL_CHARS);
        // Multi-byte characters are cut on a boundary.
        m.detail = "é".repeat(MAX_DETAIL_CHARS + 1);
        assert!(memory_text(&m).ends_with('é'));
        assert_ne!(content_hash("a"), content_hash("b"));
        assert_eq!(content_hash("a"), content_hash("a"));
    }

    #[test]
    fn excerpt_is_short_single_line_and_redacted() {
        assert_eq!(excerpt(b"  bad\n\n request  "), "bad request");
        let long = "word ".repeat(200);
        let e = excerpt(long.as_bytes());
        assert_eq!(e.chars().count(), EXCERPT_CHARS);
        assert!(e.ends_with('…'));
        let e = excerpt(b"invalid key ghp_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789");
        assert!(!e.contains("ghp_"), "{e}");
    }

    #[test]
    fn checks_count_dimension_and_finiteness() {
        assert!(check_vectors(&[vec![0.0; 3]], 1, 3).is_ok());
        for (vectors, want) in [
            (vec![], "returned 0 vectors for 1 texts"),
            (vec![vec![0.0; 2]], "vector 0 has 2 dimensions, expected 3"),
            (vec![vec![0.0, f32::NAN, 0.0]], "not a finite number"),
        ] {
            let err = check_vectors(&vectors, 1, 3).unwrap_err();
            assert!(err.to_string().contains(want), "{err}");
        }
    }

    /// Counts calls; fails on texts containing "boom".
    struct Counting {
        inner: HashEmbedder,
        calls: std::cell::Cell<usize>,
    }

    impl Embedder for Counting {
        fn id(&self) -> EmbedderId {
            self.inner.id()
        }
        fn embed(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>, EmbedError> {
            self.calls.set(self.calls.get() + 1);
            if texts.iter().any(|t| t.contains("boom")) {
                return Err(EmbedError::Http {
                    status: 500,
                    url: "http://x".into(),
                    body: "down".into(),
                });
            }
            self.inner.embed(texts)
        }
    }

    #[test]
    fn embeds_only_what_is_missing_in_batches() {
        let e = Counting {
            inner: HashEmbedder::new(32),
            calls: std::cell::Cell::new(0),
        };
        let ms: Vec<Memory> = (0..5)
            .map(|i| memory(&format!("m-{i}"), &format!("title {i}"), "same summary"))
            .chain([memory("dup", "title 0", "same summary")])
            .collect();
        let refs: Vec<&Memory> = ms.iter().collect();
        let mut cache = VectorCache::new(e.id());
        let mut seen = Vec::new();
        let got = embed_memories(&refs, &e, &mut cache, 2, &mut |d, t| seen.push((d, t))).unwrap();
        // Five distinct texts (the duplicate is embedded once), in batches of 2.
        assert_eq!((got.computed, got.reused, e.calls.get()), (5, 0, 3));
        assert_eq!(seen, [(2, 5), (4, 5), (5, 5)]);
        assert_eq!(got.vectors.len(), 6);
        let vector = |id: &str| &got.vectors[&id.parse::<MemoryId>().unwrap()];
        assert_eq!(vector("dup"), vector("m-0"));
        assert_eq!(got.used.len(), 5);
        let norm: f32 = vector("m-1").iter().map(|x| x * x).sum();
        assert!((norm - 1.0).abs() < 1e-5);

        let again = embed_memories(&refs, &e, &mut cache, 2, &mut |_, _| {}).unwrap();
        assert_eq!((again.computed, again.reused, e.calls.get()), (0, 6, 3));

        // A failing batch: what came before it stays cached.
        let mut more = ms.clone();
        more.push(memory("n-1", "new one", "fine"));
        more.push(memory("n-2", "boom", "fails"));
        let refs: Vec<&Memory> = more.iter().collect();
        let err = embed_memories(&refs, &e, &mut cache, 1, &mut |_, _| {}).unwrap_err();
        assert!(err.is_transient(), "{err}");
        assert_eq!(cache.len(), 6);

        // A cache of another embedder is refused.
        let mut other = VectorCache::new(EmbedderId::new("hash", "v1", 64));
        assert!(embed_memories(&refs, &e, &mut other, 1, &mut |_, _| {}).is_err());
    }
}
