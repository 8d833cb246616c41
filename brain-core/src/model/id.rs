//! Record ids: stable, filename-safe, and unique across parallel branches.
//!
//! An id is `<slug>-<8 hex>`: the slug makes it readable and prefix-searchable, the
//! hash is taken over the record's identity *and* its capture time and author, so
//! two people who capture the same title on two branches get different ids and
//! their files never collide in a merge. The character set (`a-z`, `0-9`, `-`)
//! rules out path separators, `..`, hidden files and case-folding collisions.

use std::fmt;
use std::str::FromStr;

use schemars::JsonSchema;
use serde::{Deserialize, Deserializer, Serialize};

/// Longest slug part of a generated id.
pub const MAX_SLUG_LEN: usize = 48;
/// Longest id accepted when reading.
pub const MAX_ID_LEN: usize = 96;

/// The id of a memory or preference; also its file stem.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(transparent)]
pub struct MemoryId(String);

impl JsonSchema for MemoryId {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "MemoryId".into()
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "description": "Lowercase letters, digits and `-`; no leading or trailing `-`.",
            "type": "string",
            "pattern": "^[a-z0-9](?:[a-z0-9-]{0,94}[a-z0-9])?$",
            "maxLength": MAX_ID_LEN
        })
    }
}

/// Why a string is not a valid id.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum IdError {
    /// The id is empty.
    #[error("an id cannot be empty")]
    Empty,
    /// The id is longer than [`MAX_ID_LEN`].
    #[error("id `{0}` is longer than {MAX_ID_LEN} characters")]
    TooLong(String),
    /// The id contains a character outside `a-z`, `0-9` and `-`, or starts or ends with `-`.
    #[error("id `{0}` may only contain `a-z`, `0-9` and `-`, and cannot start or end with `-`")]
    BadCharacter(String),
}

impl MemoryId {
    /// Parses and validates an id.
    pub fn new(id: impl Into<String>) -> Result<MemoryId, IdError> {
        let id = id.into();
        if id.is_empty() {
            return Err(IdError::Empty);
        }
        if id.len() > MAX_ID_LEN {
            return Err(IdError::TooLong(id));
        }
        let ok_chars = id
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-');
        if !ok_chars || id.starts_with('-') || id.ends_with('-') {
            return Err(IdError::BadCharacter(id));
        }
        Ok(MemoryId(id))
    }

    /// Builds a new id from a title and the facts that make this capture unique
    /// (type, capture time, author, and a collision counter).
    ///
    /// The same inputs always give the same id; any difference in them gives a
    /// different hash suffix.
    pub fn generate(title: &str, uniqueness: &[&str]) -> MemoryId {
        let slug = slugify(title, MAX_SLUG_LEN);
        let mut hasher = blake3::Hasher::new();
        hasher.update(title.as_bytes());
        for part in uniqueness {
            // Length-prefix every part so ("ab","c") and ("a","bc") differ.
            hasher.update(&(part.len() as u64).to_le_bytes());
            hasher.update(part.as_bytes());
        }
        let hash = hasher.finalize();
        let hex = hash.to_hex();
        let hex = &hex.as_str()[..8];
        let slug = if slug.is_empty() {
            "memory".to_owned()
        } else {
            slug
        };
        MemoryId(format!("{slug}-{hex}"))
    }

    /// Returns the id as a string slice.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for MemoryId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl FromStr for MemoryId {
    type Err = IdError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        MemoryId::new(s)
    }
}

impl AsRef<str> for MemoryId {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl<'de> Deserialize<'de> for MemoryId {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let s = String::deserialize(deserializer)?;
        MemoryId::new(s).map_err(serde::de::Error::custom)
    }
}

/// Lowercases `text` and replaces every run of characters other than ASCII letters
/// and digits with one `-`, trimmed, cut to at most `max` bytes on a `-`-free end.
pub fn slugify(text: &str, max: usize) -> String {
    let mut slug = String::with_capacity(text.len().min(max));
    let mut pending_dash = false;
    for c in text.chars() {
        if c.is_ascii_alphanumeric() {
            if pending_dash && !slug.is_empty() {
                slug.push('-');
            }
            pending_dash = false;
            slug.push(c.to_ascii_lowercase());
        } else {
            pending_dash = true;
        }
    }
    if slug.len() > max {
        slug.truncate(max);
    }
    slug.trim_end_matches('-').to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn validation_table() {
        let cases: &[(&str, bool)] = &[
            ("use-sqlx-3fa91c07", true),
            ("a", true),
            ("0", true),
            ("", false),
            ("-leading", false),
            ("trailing-", false),
            ("Upper-case", false),
            ("../etc/passwd", false),
            ("a/b", false),
            ("a.b", false),
            (".hidden", false),
            ("with space", false),
            ("ünïcode", false),
        ];
        for (id, ok) in cases {
            assert_eq!(MemoryId::new(*id).is_ok(), *ok, "{id:?}");
        }
        assert!(MemoryId::new("a".repeat(MAX_ID_LEN)).is_ok());
        assert_eq!(
            MemoryId::new("a".repeat(MAX_ID_LEN + 1)),
            Err(IdError::TooLong("a".repeat(MAX_ID_LEN + 1)))
        );
    }

    #[test]
    fn slugs() {
        let cases: &[(&str, &str)] = &[
            ("Use sqlx for migrations", "use-sqlx-for-migrations"),
            ("  refactor(notify): Retry!! ", "refactor-notify-retry"),
            ("Ledger rows are append-only", "ledger-rows-are-append-only"),
            ("Ünïcode — only", "n-code-only"),
            ("???", ""),
        ];
        for (title, slug) in cases {
            assert_eq!(slugify(title, MAX_SLUG_LEN), *slug, "{title:?}");
        }
        let long = slugify(&"word ".repeat(30), MAX_SLUG_LEN);
        assert!(long.len() <= MAX_SLUG_LEN);
        assert!(!long.ends_with('-'));
    }

    #[test]
    fn generated_ids_are_stable_valid_and_distinct() {
        let a = MemoryId::generate("Use sqlx", &["decision", "2025-01-02T03:04:05Z", "ann"]);
        let again = MemoryId::generate("Use sqlx", &["decision", "2025-01-02T03:04:05Z", "ann"]);
        let other_author =
            MemoryId::generate("Use sqlx", &["decision", "2025-01-02T03:04:05Z", "bob"]);
        let other_time =
            MemoryId::generate("Use sqlx", &["decision", "2025-01-02T03:04:06Z", "ann"]);
        let shifted = MemoryId::generate("Use sqlx", &["decisio", "n2025-01-02T03:04:05Z", "ann"]);
        assert_eq!(a, again);
        assert!(a.as_str().starts_with("use-sqlx-"));
        assert_eq!(a.as_str().len(), "use-sqlx-".len() + 8);
        assert!(MemoryId::new(a.as_str()).is_ok());
        for other in [&other_author, &other_time, &shifted] {
            assert_ne!(&a, other);
        }
        assert!(
            MemoryId::generate("!!!", &[])
                .as_str()
                .starts_with("memory-")
        );
    }
}
