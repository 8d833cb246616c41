//! The vector cache on disk: `.brain/runtime/vectors/<embedder key>.bin`, one
//! file per [`EmbedderId::key`], so vectors of two providers, models or
//! dimensions never mix.
//!
//! Little-endian layout:
//!
//! ```text
//! magic      8 bytes   "BRAINVEC"
//! version    u32       1
//! dimensions u32
//! count      u64
//! key length u32, then the embedder key (UTF-8)
//! count ×    16-byte content hash, then `dimensions` f32
//! checksum   first 16 bytes of the blake3 hash of everything before it
//! ```
//!
//! Entries are sorted by hash, so the same vectors always give the same bytes.
//! A file that is too large, truncated, of another version, dimension or key,
//! or whose checksum does not match is ignored with a warning and rebuilt;
//! it never stops a command.

use std::io::Read;
use std::path::PathBuf;

use super::{Error, Layout, write};
use crate::embed::{ContentHash, EmbedderId, VectorCache};

const MAGIC: &[u8; 8] = b"BRAINVEC";
const VERSION: u32 = 1;
const HEADER: usize = 8 + 4 + 4 + 8 + 4;
const CHECKSUM: usize = 16;
/// Bytes read and hashed at a time.
const BLOCK_BYTES: usize = 256 * 1024;
/// Largest cache file read (1 GiB: about a million 256-d vectors).
pub const MAX_FILE_BYTES: u64 = 1 << 30;

/// Returns the cache file of `id` under `runtime/vectors/`.
pub fn path(layout: &Layout, id: &EmbedderId) -> PathBuf {
    layout
        .runtime_dir()
        .join("vectors")
        .join(format!("{}.bin", id.key()))
}

/// Loads the cache of `id`; a missing file is an empty cache, an unusable
/// one an empty cache and a warning.
pub(crate) fn load(layout: &Layout, id: &EmbedderId) -> (VectorCache, Vec<String>) {
    let file = path(layout, id);
    let ignored = |why: String| {
        (
            VectorCache::new(id.clone()),
            vec![format!(
                "ignoring the vector cache `{}` ({why}); it will be rebuilt",
                layout.relative(&file)
            )],
        )
    };
    let opened = match std::fs::File::open(&file) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return (VectorCache::new(id.clone()), Vec::new());
        }
        Err(e) => return ignored(format!("cannot read it: {e}")),
        Ok(f) => f,
    };
    let len = match opened.metadata() {
        Err(e) => return ignored(format!("cannot read it: {e}")),
        Ok(m) if m.len() > MAX_FILE_BYTES => {
            return ignored(format!("larger than {MAX_FILE_BYTES} bytes"));
        }
        Ok(m) => m.len(),
    };
    // Streamed: the file's bytes are never held next to the vectors.
    let mut reader = std::io::BufReader::with_capacity(64 * 1024, opened);
    match decode_from(&mut reader, len, id) {
        Ok(cache) => (cache, Vec::new()),
        Err(why) => ignored(why),
    }
}

/// Writes the cache atomically (a reader sees the old file or the new one).
pub(crate) fn save(layout: &Layout, cache: &VectorCache) -> Result<(), Error> {
    write::replace_derived(&path(layout, cache.id()), &encode(cache))
}

/// The bytes of a cache file.
pub fn encode(cache: &VectorCache) -> Vec<u8> {
    let id = cache.id();
    let key = id.key();
    let entries = cache.sorted();
    let dims = id.dimensions as usize;
    let mut out = Vec::with_capacity(HEADER + key.len() + entries.len() * (16 + 4 * dims) + 16);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    out.extend_from_slice(&id.dimensions.to_le_bytes());
    out.extend_from_slice(&(entries.len() as u64).to_le_bytes());
    out.extend_from_slice(&u32::try_from(key.len()).unwrap_or(0).to_le_bytes());
    out.extend_from_slice(key.as_bytes());
    for (hash, vector) in entries {
        out.extend_from_slice(hash);
        for x in vector {
            out.extend_from_slice(&x.to_le_bytes());
        }
    }
    let sum = blake3::hash(&out);
    out.extend_from_slice(&sum.as_bytes()[..CHECKSUM]);
    out
}

/// Reads a cache file written for `id`; the error says why it is unusable.
pub fn decode(bytes: &[u8], id: &EmbedderId) -> Result<VectorCache, String> {
    let mut r = bytes;
    decode_from(&mut r, bytes.len() as u64, id)
}

/// [`decode`] from a reader of `len` bytes, checking the checksum as it goes.
fn decode_from(r: &mut impl Read, len: u64, id: &EmbedderId) -> Result<VectorCache, String> {
    let mut hashes: Vec<ContentHash> = Vec::new();
    let mut data: Vec<f32> = Vec::new();
    rows_from(r, len, id, &mut |hash, vector, count| {
        // The count was checked against the file's length.
        if hashes.is_empty() {
            hashes.reserve_exact(count);
            data.reserve_exact(count * vector.len());
        }
        hashes.push(*hash);
        data.extend_from_slice(vector);
    })?;
    Ok(VectorCache::from_rows(id.clone(), &hashes, data))
}

/// Streams the rows of a cache file to `row` (hash, vector, rows in the
/// file) without keeping them. An error means the file is unusable: rows
/// already passed must then be discarded.
pub(crate) fn rows_from(
    r: &mut impl Read,
    len: u64,
    id: &EmbedderId,
    row: &mut dyn FnMut(&ContentHash, &[f32], usize),
) -> Result<(), String> {
    let mut r = Checked {
        inner: r,
        hasher: blake3::Hasher::new(),
        at: 0,
    };
    if r.take::<8>()? != *MAGIC {
        return Err("not a vector cache".into());
    }
    let version = u32::from_le_bytes(r.take()?);
    if version != VERSION {
        return Err(format!("format version {version}, expected {VERSION}"));
    }
    let dims = u32::from_le_bytes(r.take()?);
    if dims != id.dimensions {
        return Err(format!("{dims} dimensions, expected {}", id.dimensions));
    }
    let count = u64::from_le_bytes(r.take()?);
    let key_len = u32::from_le_bytes(r.take()?) as usize;
    if key_len > 4096 {
        return Err("truncated".into());
    }
    let mut key = vec![0u8; key_len];
    r.fill(&mut key)?;
    if key != id.key().as_bytes() {
        return Err("written for another embedder".into());
    }
    let row_bytes = 16 + 4 * dims as usize;
    let expected = usize::try_from(count)
        .ok()
        .and_then(|n| n.checked_mul(row_bytes))
        .and_then(|n| n.checked_add(r.at + CHECKSUM));
    if expected.map(|e| e as u64) != Some(len) {
        return Err(format!(
            "{len} bytes, expected {} for {count} vectors",
            expected.map_or_else(|| "more".to_owned(), |n| n.to_string())
        ));
    }
    let rows = usize::try_from(count).unwrap_or(0);
    // Blocks of rows: one hash update per block keeps blake3 on its wide
    // SIMD path, which row-sized updates would not.
    let per_block = (BLOCK_BYTES / row_bytes).max(1);
    let mut buf = vec![0u8; per_block * row_bytes];
    let mut vector = vec![0f32; dims as usize];
    let mut finite = true;
    let mut sorted = true;
    let mut previous: Option<ContentHash> = None;
    let mut left = rows;
    while left > 0 {
        let n = left.min(per_block);
        let block = &mut buf[..n * row_bytes];
        r.fill(block)?;
        for one in block.chunks_exact(row_bytes) {
            let mut hash = [0u8; 16];
            hash.copy_from_slice(&one[..16]);
            for (x, c) in vector.iter_mut().zip(one[16..].chunks_exact(4)) {
                *x = f32::from_le_bytes([c[0], c[1], c[2], c[3]]);
                finite &= x.is_finite();
            }
            sorted &= previous.is_none_or(|p| p < hash);
            previous = Some(hash);
            row(&hash, &vector, rows);
        }
        left -= n;
    }
    let sum = r.hasher.finalize();
    let mut stored = [0u8; CHECKSUM];
    r.inner
        .read_exact(&mut stored)
        .map_err(|_| "truncated".to_owned())?;
    if sum.as_bytes()[..CHECKSUM] != stored {
        return Err("checksum mismatch".into());
    }
    if !finite {
        return Err("a vector holds a value that is not a finite number".into());
    }
    if !sorted {
        return Err("vectors are not sorted by hash".into());
    }
    Ok(())
}

/// Streams the cache of `id` to `row` (see [`rows_from`]). `Ok(false)` when
/// there is no cache file; an error says why the file is unusable.
pub(crate) fn scan(
    layout: &Layout,
    id: &EmbedderId,
    row: &mut dyn FnMut(&ContentHash, &[f32], usize),
) -> Result<bool, String> {
    let file = path(layout, id);
    let opened = match std::fs::File::open(&file) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(false),
        Err(e) => return Err(format!("cannot read it: {e}")),
        Ok(f) => f,
    };
    let len = opened
        .metadata()
        .map_err(|e| format!("cannot read it: {e}"))?
        .len();
    if len > MAX_FILE_BYTES {
        return Err(format!("larger than {MAX_FILE_BYTES} bytes"));
    }
    let mut reader = std::io::BufReader::with_capacity(64 * 1024, opened);
    rows_from(&mut reader, len, id, row).map(|()| true)
}

/// Reads exactly, hashing what it reads.
struct Checked<'a, R: Read> {
    inner: &'a mut R,
    hasher: blake3::Hasher,
    at: usize,
}

impl<R: Read> Checked<'_, R> {
    fn fill(&mut self, buf: &mut [u8]) -> Result<(), String> {
        self.inner
            .read_exact(buf)
            .map_err(|_| "truncated".to_owned())?;
        self.hasher.update(buf);
        self.at += buf.len();
        Ok(())
    }

    fn take<const N: usize>(&mut self) -> Result<[u8; N], String> {
        let mut out = [0u8; N];
        self.fill(&mut out)?;
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use super::*;
    use crate::config::Config;
    use crate::store::Store;

    fn cache(id: &EmbedderId, n: u8) -> VectorCache {
        let mut c = VectorCache::new(id.clone());
        for i in 0..n {
            let v: Vec<f32> = (0..u8::try_from(id.dimensions).unwrap())
                .map(|d| f32::from(i) + f32::from(d))
                .collect();
            c.insert([i; 16], &v).unwrap();
        }
        c
    }

    #[test]
    fn round_trip_and_deterministic_bytes() {
        let id = EmbedderId::new("hash", "v1", 3);
        let c = cache(&id, 5);
        let bytes = encode(&c);
        assert_eq!(bytes, encode(&c.clone()));
        let back = decode(&bytes, &id).unwrap();
        assert_eq!(back.len(), 5);
        assert_eq!(back.get(&[2; 16]), Some(&[2.0, 3.0, 4.0][..]));
        // Empty caches round-trip too.
        let empty = VectorCache::new(id.clone());
        assert!(decode(&encode(&empty), &id).unwrap().is_empty());
    }

    #[test]
    fn corrupt_files_are_refused_with_a_reason() {
        let id = EmbedderId::new("hash", "v1", 3);
        let good = encode(&cache(&id, 2));
        let mut flipped = good.clone();
        flipped[HEADER + 20] ^= 0xff;
        let mut version = good.clone();
        version[8] = 9;
        let mut huge_count = good.clone();
        huge_count[16..24].copy_from_slice(&u64::MAX.to_le_bytes());
        for (bytes, why) in [
            (Vec::new(), "truncated"),
            (
                b"NOTVECTORSXXXXXXXXXXXXXXXXXXXXX".to_vec(),
                "not a vector cache",
            ),
            (good[..good.len() - 1].to_vec(), "expected"),
            (flipped, "checksum mismatch"),
            (version, "format version 9"),
            (huge_count, "expected more"),
        ] {
            let err = decode(&bytes, &id).unwrap_err();
            assert!(err.contains(why), "{err} vs {why}");
        }
        let other_dims = EmbedderId::new("hash", "v1", 4);
        assert!(
            decode(&good, &other_dims)
                .unwrap_err()
                .contains("3 dimensions")
        );
        let other_model = EmbedderId::new("hash", "v2", 3);
        assert!(
            decode(&good, &other_model)
                .unwrap_err()
                .contains("another embedder")
        );
    }

    #[test]
    fn store_saves_loads_and_survives_corruption() {
        let dir = tempfile::tempdir().unwrap();
        Store::init(dir.path(), &Config::default(), false).unwrap();
        let store = Store::open(dir.path()).unwrap();
        let id = EmbedderId::new("hash", "v1", 3);

        let (empty, warnings) = store.load_vectors(&id);
        assert!(empty.is_empty() && warnings.is_empty());

        let mut c = cache(&id, 4);
        store.save_vectors(&c).unwrap();
        let file = store.vectors_file(&id);
        assert!(
            file.ends_with(".brain/runtime/vectors/hash-v1-3.bin"),
            "{file:?}"
        );
        let (loaded, warnings) = store.load_vectors(&id);
        assert!(warnings.is_empty());
        assert_eq!(loaded.len(), 4);
        assert!(!loaded.is_changed());

        // Another dimension is another file.
        let id4 = EmbedderId::new("hash", "v1", 4);
        assert!(store.load_vectors(&id4).0.is_empty());

        // Prune and save.
        let keep: HashSet<ContentHash> = [[1; 16]].into_iter().collect();
        assert_eq!(c.retain(&keep), 3);
        store.save_vectors(&c).unwrap();
        assert_eq!(store.load_vectors(&id).0.len(), 1);

        // A corrupt file: empty cache and a warning, never a panic.
        std::fs::write(&file, b"garbage").unwrap();
        let (loaded, warnings) = store.load_vectors(&id);
        assert!(loaded.is_empty());
        assert_eq!(warnings.len(), 1);
        assert!(
            warnings[0].starts_with(
                "ignoring the vector cache `.brain/runtime/vectors/hash-v1-3.bin` (truncated)"
            ),
            "{warnings:?}"
        );
        // runtime/ stays git-ignored.
        assert!(dir.path().join(".brain/runtime/.gitignore").exists());
    }
}
