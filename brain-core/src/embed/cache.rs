//! The vectors of one embedder, keyed by the content hash of the embedded
//! text. `store::vectors` reads and writes it as
//! `.brain/runtime/vectors/<key>.bin`.

use std::collections::{HashMap, HashSet};

use super::{ContentHash, EmbedError, EmbedderId};

/// Vectors of one [`EmbedderId`], by [`ContentHash`]. Every vector has the
/// id's dimension.
#[derive(Clone, Debug)]
pub struct VectorCache {
    id: EmbedderId,
    entries: HashMap<ContentHash, Vec<f32>>,
    changed: bool,
}

impl VectorCache {
    /// An empty cache for `id`.
    pub fn new(id: EmbedderId) -> Self {
        VectorCache {
            id,
            entries: HashMap::new(),
            changed: false,
        }
    }

    /// The embedder whose vectors these are.
    pub fn id(&self) -> &EmbedderId {
        &self.id
    }

    /// Number of vectors.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether there are no vectors.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Whether vectors were added or removed since it was created or loaded.
    pub fn is_changed(&self) -> bool {
        self.changed
    }

    /// The vector of a text, by its content hash.
    pub fn get(&self, hash: &ContentHash) -> Option<&[f32]> {
        self.entries.get(hash).map(Vec::as_slice)
    }

    /// Adds or replaces a vector; one of another length is refused.
    pub fn insert(&mut self, hash: ContentHash, vector: Vec<f32>) -> Result<(), EmbedError> {
        if u32::try_from(vector.len()).ok() != Some(self.id.dimensions) {
            return Err(EmbedError::Dimension {
                index: 0,
                expected: self.id.dimensions,
                got: vector.len(),
            });
        }
        if self.entries.get(&hash) != Some(&vector) {
            self.entries.insert(hash, vector);
            self.changed = true;
        }
        Ok(())
    }

    /// Drops every vector whose hash is not in `keep`; returns how many.
    pub fn retain(&mut self, keep: &HashSet<ContentHash>) -> usize {
        let before = self.entries.len();
        self.entries.retain(|h, _| keep.contains(h));
        let pruned = before - self.entries.len();
        if pruned > 0 {
            self.changed = true;
        }
        pruned
    }

    /// Every entry, sorted by hash (the order written to disk).
    pub fn sorted(&self) -> Vec<(&ContentHash, &[f32])> {
        let mut out: Vec<(&ContentHash, &[f32])> = self
            .entries
            .iter()
            .map(|(h, v)| (h, v.as_slice()))
            .collect();
        out.sort_unstable_by(|a, b| a.0.cmp(b.0));
        out
    }

    /// Builds a cache from stored entries without marking it changed.
    pub(crate) fn from_entries(id: EmbedderId, entries: HashMap<ContentHash, Vec<f32>>) -> Self {
        VectorCache {
            id,
            entries,
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
        c.insert([1; 16], vec![1.0, 0.0]).unwrap();
        c.insert([2; 16], vec![0.0, 1.0]).unwrap();
        assert!(c.insert([3; 16], vec![1.0]).is_err());
        assert_eq!(c.get(&[1; 16]), Some(&[1.0, 0.0][..]));
        assert_eq!(c.get(&[3; 16]), None);
        assert!(c.is_changed());
        let mut c = VectorCache::from_entries(c.id().clone(), c.entries.clone());
        c.insert([1; 16], vec![1.0, 0.0]).unwrap();
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
