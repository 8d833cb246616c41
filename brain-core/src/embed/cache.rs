//! The vectors of one embedder, keyed by the content hash of the embedded
//! text. `store::vectors` reads and writes it as
//! `.brain/runtime/vectors/<key>.bin`.

use std::collections::{HashMap, HashSet};

use super::{ContentHash, EmbedError, EmbedderId};

/// Vectors of one [`EmbedderId`], by [`ContentHash`]. Every vector has the
/// id's dimension; they are kept end to end in one buffer.
#[derive(Clone, Debug)]
pub struct VectorCache {
    id: EmbedderId,
    rows: HashMap<ContentHash, usize>,
    data: Vec<f32>,
    changed: bool,
}

impl VectorCache {
    /// An empty cache for `id`.
    pub fn new(id: EmbedderId) -> Self {
        VectorCache {
            id,
            rows: HashMap::new(),
            data: Vec::new(),
            changed: false,
        }
    }

    /// The embedder whose vectors these are.
    pub fn id(&self) -> &EmbedderId {
        &self.id
    }

    /// Number of vectors.
    pub fn len(&self) -> usize {
        self.rows.len()
    }

    /// Whether there are no vectors.
    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    /// Whether vectors were added or removed since it was created or loaded.
    pub fn is_changed(&self) -> bool {
        self.changed
    }

    fn dims(&self) -> usize {
        self.id.dimensions as usize
    }

    fn row(&self, r: usize) -> &[f32] {
        let d = self.dims();
        &self.data[r * d..(r + 1) * d]
    }

    /// The vector of a text, by its content hash.
    pub fn get(&self, hash: &ContentHash) -> Option<&[f32]> {
        self.rows.get(hash).map(|&r| self.row(r))
    }

    /// Adds or replaces a vector; one of another length is refused.
    pub fn insert(&mut self, hash: ContentHash, vector: &[f32]) -> Result<(), EmbedError> {
        if u32::try_from(vector.len()).ok() != Some(self.id.dimensions) {
            return Err(EmbedError::Dimension {
                index: 0,
                expected: self.id.dimensions,
                got: vector.len(),
            });
        }
        let d = self.dims();
        if let Some(&r) = self.rows.get(&hash) {
            if self.row(r) != vector {
                self.data[r * d..(r + 1) * d].copy_from_slice(vector);
                self.changed = true;
            }
        } else {
            self.rows.insert(hash, self.rows.len());
            self.data.extend_from_slice(vector);
            self.changed = true;
        }
        Ok(())
    }

    /// Drops every vector whose hash is not in `keep`; returns how many.
    pub fn retain(&mut self, keep: &HashSet<ContentHash>) -> usize {
        let before = self.rows.len();
        let kept: Vec<(ContentHash, usize)> = self
            .rows
            .iter()
            .filter(|(h, _)| keep.contains(*h))
            .map(|(h, r)| (*h, *r))
            .collect();
        let pruned = before - kept.len();
        if pruned > 0 {
            let mut data = Vec::with_capacity(kept.len() * self.dims());
            let mut rows = HashMap::with_capacity(kept.len());
            for (i, (h, r)) in kept.into_iter().enumerate() {
                data.extend_from_slice(self.row(r));
                rows.insert(h, i);
            }
            self.rows = rows;
            self.data = data;
            self.changed = true;
        }
        pruned
    }

    /// Every entry, sorted by hash (the order written to disk).
    pub fn sorted(&self) -> Vec<(&ContentHash, &[f32])> {
        let mut out: Vec<(&ContentHash, &[f32])> =
            self.rows.iter().map(|(h, &r)| (h, self.row(r))).collect();
        out.sort_unstable_by(|a, b| a.0.cmp(b.0));
        out
    }

    /// Builds a cache from stored rows (`hashes[i]` owns the i-th run of
    /// `dimensions` values of `data`) without marking it changed.
    pub(crate) fn from_rows(id: EmbedderId, hashes: &[ContentHash], data: Vec<f32>) -> Self {
        let rows = hashes.iter().enumerate().map(|(i, h)| (*h, i)).collect();
        VectorCache {
            id,
            rows,
            data,
            changed: false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn insert_get_retain() {
        let mut c = VectorCache::new(EmbedderId::new("hash", "v1", 2));
        assert!(c.is_empty() && !c.is_changed());
        c.insert([1; 16], &[1.0, 0.0]).unwrap();
        c.insert([2; 16], &[0.0, 1.0]).unwrap();
        assert!(c.insert([3; 16], &[1.0]).is_err());
        assert_eq!(c.get(&[1; 16]), Some(&[1.0, 0.0][..]));
        assert_eq!(c.get(&[3; 16]), None);
        assert!(c.is_changed());
        let mut c = VectorCache::from_rows(
            c.id().clone(),
            &c.sorted().iter().map(|(h, _)| **h).collect::<Vec<_>>(),
            c.sorted().iter().flat_map(|(_, v)| v.to_vec()).collect(),
        );
        c.insert([1; 16], &[1.0, 0.0]).unwrap();
        assert!(
            !c.is_changed(),
            "re-inserting the same vector changes nothing"
        );
        let keep: HashSet<ContentHash> = [[2; 16]].into_iter().collect();
        assert_eq!(c.retain(&keep), 1);
        assert_eq!(c.len(), 1);
        assert!(c.is_changed());
        assert_eq!(c.sorted()[0].0, &[2; 16]);
    }
}
