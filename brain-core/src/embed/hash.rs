//! The default embedder: feature hashing, offline and deterministic.
//!
//! A text is split into the reviewer's topic tokens
//! ([`crate::review::text::for_each_token`]: lowercase, stemmed, stopwords
//! dropped, identifiers also split at case changes). Each token adds its word
//! unigram, the bigram with the token before it, and the character trigrams of
//! the word padded at both ends. Every feature is hashed (FNV-1a with a fixed
//! seed per kind of feature, then a 64-bit finaliser) to one dimension and a
//! sign, so collisions cancel out on average instead of piling up. The sums
//! are damped (signed square root, a cheap sublinear term frequency) and the
//! vector is scaled to unit length.
//!
//! It knows no synonyms: "UPDATE" and "modify" are unrelated to it. It is the
//! floor that always works and the one every test uses.

use rayon::prelude::*;

use super::{EmbedError, Embedder, EmbedderId, normalize};
use crate::review::text;

/// Algorithm version, the model part of the id: bump it when features or
/// weights change, so old cached vectors are not mixed with new ones.
pub(crate) const MODEL: &str = "v1";

const SEED_WORD: u64 = 0x9e37_79b9_7f4a_7c15;
const SEED_BIGRAM: u64 = 0xc2b2_ae3d_27d4_eb4f;
const SEED_TRIGRAM: u64 = 0x1656_67b1_9e37_79f9;

const W_WORD: f32 = 1.0;
const W_BIGRAM: f32 = 0.7;
const W_TRIGRAM: f32 = 0.35;

/// Padding around a word for its trigrams.
const BOUNDARY: u32 = 0x02;

/// Texts per batch below which embedding stays on the calling thread.
const PARALLEL_MIN: usize = 32;

/// Offline feature-hashing embedder (provider `hash`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HashEmbedder {
    dimensions: u32,
}

impl HashEmbedder {
    /// An embedder producing `dimensions`-long vectors (at least 1).
    pub fn new(dimensions: u32) -> Self {
        HashEmbedder {
            dimensions: dimensions.max(1),
        }
    }

    /// The vector length.
    pub fn dimensions(&self) -> u32 {
        self.dimensions
    }

    /// Embeds one text; the same text always gives the same vector, on every
    /// platform.
    pub fn embed_one(&self, input: &str) -> Vec<f32> {
        let dims = self.dimensions as usize;
        let mut v = vec![0f32; dims];
        let mut add = |h: u64, w: f32| {
            let i = reduce(h, self.dimensions);
            if h & 1 == 0 {
                v[i] += w;
            } else {
                v[i] -= w;
            }
        };
        let mut buf = String::new();
        let mut prev: Option<u64> = None;
        text::for_each_token(input, &mut buf, |tok| {
            let word = finish(fnv(SEED_WORD, tok.as_bytes()));
            add(word, W_WORD);
            if let Some(p) = prev {
                add(finish(p.rotate_left(23) ^ word ^ SEED_BIGRAM), W_BIGRAM);
            }
            prev = Some(word);
            let (mut a, mut b) = (BOUNDARY, BOUNDARY);
            let mut trigram = |a: u32, b: u32, c: u32| {
                let mut h = SEED_TRIGRAM;
                for x in [a, b, c] {
                    h = fnv(h, &x.to_le_bytes());
                }
                add(finish(h), W_TRIGRAM);
            };
            let mut first = true;
            for c in tok.chars().map(u32::from).chain([BOUNDARY]) {
                if !first {
                    trigram(a, b, c);
                }
                first = false;
                a = b;
                b = c;
            }
        });
        for x in &mut v {
            *x = x.signum() * x.abs().sqrt();
        }
        normalize(&mut v);
        v
    }
}

impl Embedder for HashEmbedder {
    fn id(&self) -> EmbedderId {
        EmbedderId::new("hash", MODEL, self.dimensions)
    }

    fn embed(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>, EmbedError> {
        Ok(if texts.len() < PARALLEL_MIN {
            texts.iter().map(|t| self.embed_one(t)).collect()
        } else {
            texts.par_iter().map(|t| self.embed_one(t)).collect()
        })
    }
}

/// FNV-1a over `bytes`, continuing from `state`.
fn fnv(state: u64, bytes: &[u8]) -> u64 {
    const PRIME: u64 = 0x0000_0100_0000_01b3;
    let mut h = state;
    for b in bytes {
        h ^= u64::from(*b);
        h = h.wrapping_mul(PRIME);
    }
    h
}

/// The 64-bit finaliser of `MurmurHash3`: spreads FNV's weak low bits.
fn finish(mut h: u64) -> u64 {
    h ^= h >> 33;
    h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
    h ^= h >> 33;
    h = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    h ^ (h >> 33)
}

/// Maps the high 32 bits of `h` onto `0..n` without modulo bias.
fn reduce(h: u64, n: u32) -> usize {
    let i = ((h >> 32) * u64::from(n)) >> 32;
    usize::try_from(i).unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::embed::cosine;

    /// (text, paraphrase, unrelated): realistic memories.
    const TRIPLES: &[(&str, &str, &str)] = &[
        (
            "Ledger rows are append-only: never UPDATE ledger_entries, post a reversing entry instead.",
            "Do not update ledger entries in place; append a reversing entry to the ledger.",
            "The mobile app caches feature flags for five minutes.",
        ),
        (
            "Retry webhook deliveries with exponential backoff and give up after 24 hours.",
            "Webhook delivery retries back off exponentially and stop after 24 hours.",
            "Use UUIDv7 for primary keys in new tables.",
        ),
        (
            "Run database migrations before deploying the API service.",
            "Database migration scripts must run before the API service is deployed.",
            "Dashboard charts use the dark theme colour palette.",
        ),
        (
            "context.WithTimeout must always be followed by defer cancel().",
            "Always defer cancel() after creating a context with WithTimeout.",
            "The Postgres connection pool allows 20 connections per pod.",
        ),
        (
            "Refund amounts are stored in cents as integers, never as floats.",
            "Store refunded amounts as integer cents; floats lose precision.",
            "Release notes are written in the CHANGELOG before tagging.",
        ),
    ];

    #[test]
    fn paraphrases_score_higher_than_unrelated_texts() {
        let e = HashEmbedder::new(256);
        for (text, para, other) in TRIPLES {
            let v = e.embed(&[text, para, other]).unwrap();
            let (close, far) = (cosine(&v[0], &v[1]), cosine(&v[0], &v[2]));
            assert!(
                close > far + 0.15 && close > 0.3 && far < 0.2,
                "{text:?}: paraphrase {close:.3}, unrelated {far:.3}"
            );
        }
    }

    #[test]
    fn deterministic_normalised_and_dimensioned() {
        for dims in [1, 7, 64, 256, 1024] {
            let e = HashEmbedder::new(dims);
            assert_eq!(e.id(), EmbedderId::new("hash", "v1", dims));
            for text in [
                "",
                "   ",
                "Ledger rows are append-only.",
                "日本語のテキスト",
                "x",
            ] {
                let v = e.embed_one(text);
                assert_eq!(v.len(), dims as usize);
                assert_eq!(v, e.embed_one(text), "deterministic");
                let norm: f32 = v.iter().map(|x| x * x).sum();
                let empty = text.trim().is_empty();
                // With one dimension, signed features may cancel out exactly.
                let unit = (norm - 1.0).abs() < 1e-5 || (dims == 1 && norm == 0.0);
                assert!(
                    if empty { norm == 0.0 } else { unit },
                    "{dims} {text:?}: {norm}"
                );
            }
        }
        // Pinned values: a change of features, seeds or weights must bump MODEL.
        let v = HashEmbedder::new(8).embed_one("Ledger rows are append-only");
        let rounded: Vec<f32> = v.iter().map(|x| (x * 1000.0).round()).collect();
        assert_eq!(
            rounded,
            [-381.0, 0.0, -319.0, 545.0, -450.0, 225.0, -225.0, 390.0]
        );
    }

    #[test]
    fn batches_match_single_texts_and_are_fast() {
        let e = HashEmbedder::new(256);
        let texts: Vec<String> = (0..2000)
            .map(|i| {
                format!(
                    "Memory {i}: the billing service retries webhook {} deliveries with backoff; \
                     never UPDATE ledger rows, post a reversing entry. RestHighLevelClient v{i}.",
                    i % 17
                )
            })
            .collect();
        let refs: Vec<&str> = texts.iter().map(String::as_str).collect();
        let started = std::time::Instant::now();
        let all = e.embed(&refs).unwrap();
        let elapsed = started.elapsed();
        assert_eq!(all.len(), 2000);
        assert_eq!(all[1234], e.embed_one(refs[1234]));
        // 2 000 texts; 10 000 take five times as long. Generous for debug builds.
        assert!(elapsed.as_secs_f64() < 5.0, "{elapsed:?}");
    }
}
