//! The nested sections shared by memories and preferences: validity in time,
//! lineage, provenance and review state, plus the small value types they use.

use std::fmt;

use jiff::Timestamp;
use jiff::civil::Date;
use schemars::JsonSchema;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::id::MemoryId;

/// The file-format version this build reads and writes.
pub const SCHEMA_VERSION: u32 = 1;

/// The `schema_version` key present in every file; only [`SCHEMA_VERSION`] is accepted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(transparent)]
pub struct SchemaVersion(u32);

impl JsonSchema for SchemaVersion {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "SchemaVersion".into()
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({ "type": "integer", "const": SCHEMA_VERSION })
    }
}

impl SchemaVersion {
    /// The version written by this build.
    pub const CURRENT: SchemaVersion = SchemaVersion(SCHEMA_VERSION);
}

impl Default for SchemaVersion {
    fn default() -> Self {
        SchemaVersion::CURRENT
    }
}

impl<'de> Deserialize<'de> for SchemaVersion {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let v = u32::deserialize(deserializer)?;
        if v == SCHEMA_VERSION {
            Ok(SchemaVersion(v))
        } else {
            Err(serde::de::Error::custom(format!(
                "unsupported schema_version {v}: this brain reads version {SCHEMA_VERSION}"
            )))
        }
    }
}

/// A probability-like weight in `0..=1`; defaults to 1.
#[derive(Clone, Copy, Debug, PartialEq, PartialOrd, Serialize)]
#[serde(transparent)]
pub struct Confidence(f64);

impl JsonSchema for Confidence {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Confidence".into()
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({ "type": "number", "minimum": 0.0, "maximum": 1.0 })
    }
}

impl Confidence {
    /// Full confidence.
    pub const FULL: Confidence = Confidence(1.0);

    /// Returns the confidence if `value` is within `0..=1`.
    pub fn new(value: f64) -> Option<Confidence> {
        (0.0..=1.0).contains(&value).then_some(Confidence(value))
    }

    /// Returns the value.
    pub fn get(self) -> f64 {
        self.0
    }
}

impl Default for Confidence {
    fn default() -> Self {
        Confidence::FULL
    }
}

impl<'de> Deserialize<'de> for Confidence {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let v = f64::deserialize(deserializer)?;
        Confidence::new(v).ok_or_else(|| {
            serde::de::Error::custom(format!("confidence {v} is outside the range 0 to 1"))
        })
    }
}

/// A calendar date (`2026-12-31`, meaning the end of that day in UTC) or an exact
/// instant (`2026-12-31T12:00:00Z`). Written back the way it was given.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum DateOrTime {
    /// A whole day, UTC.
    Date(Date),
    /// An instant.
    Time(Timestamp),
}

impl DateOrTime {
    /// Returns the last instant this value covers: the end of the day for a date.
    pub fn end(self) -> Timestamp {
        match self {
            DateOrTime::Time(t) => t,
            DateOrTime::Date(d) => d
                .tomorrow()
                .ok()
                .and_then(|next| next.to_zoned(jiff::tz::TimeZone::UTC).ok())
                .map_or(Timestamp::MAX, |z| {
                    z.timestamp()
                        .checked_sub(jiff::SignedDuration::from_nanos(1))
                        .unwrap_or(Timestamp::MAX)
                }),
        }
    }

    /// Returns whether the value lies strictly before `now`.
    pub fn is_past(self, now: Timestamp) -> bool {
        self.end() < now
    }
}

impl fmt::Display for DateOrTime {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DateOrTime::Date(d) => write!(f, "{d}"),
            DateOrTime::Time(t) => write!(f, "{t}"),
        }
    }
}

impl std::str::FromStr for DateOrTime {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        if let Ok(t) = s.parse::<Timestamp>() {
            return Ok(DateOrTime::Time(t));
        }
        s.parse::<Date>().map(DateOrTime::Date).map_err(|_| {
            format!(
                "`{s}` is neither a date (2026-12-31) nor a UTC timestamp (2026-12-31T12:00:00Z)"
            )
        })
    }
}

impl Serialize for DateOrTime {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for DateOrTime {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let s = String::deserialize(deserializer)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

impl JsonSchema for DateOrTime {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "DateOrTime".into()
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "description": "A date (YYYY-MM-DD, end of that day in UTC) or an RFC 3339 timestamp.",
            "type": "string",
            "anyOf": [{ "format": "date" }, { "format": "date-time" }]
        })
    }
}

/// When a record holds.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Validity {
    /// Not in force before this instant.
    #[serde(default)]
    pub valid_from: Option<Timestamp>,
    /// Not in force after this instant.
    #[serde(default)]
    pub valid_until: Option<Timestamp>,
    /// Drops out of use after this date or instant (working notes, temporary rules).
    #[serde(default)]
    pub expires: Option<DateOrTime>,
    /// When the fact was last seen to hold.
    #[serde(default)]
    pub observed_at: Option<Timestamp>,
}

impl Validity {
    /// Returns whether the record is in force at `now` (inside the window, not expired).
    pub fn holds_at(&self, now: Timestamp) -> bool {
        self.valid_from.is_none_or(|from| from <= now)
            && self.valid_until.is_none_or(|until| now <= until)
            && self.expires.is_none_or(|e| !e.is_past(now))
    }
}

/// How a record relates to others over time.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Lineage {
    /// Starts at 1; raised by every merge or supersession.
    #[serde(default = "first_version")]
    #[schemars(range(min = 1))]
    pub version: u32,
    /// Records this one replaces.
    #[serde(default)]
    pub supersedes: Vec<MemoryId>,
    /// The record that replaced this one (set exactly when the status is `superseded`).
    #[serde(default)]
    pub superseded_by: Option<MemoryId>,
    /// Records worth reading together with this one.
    #[serde(default)]
    pub related: Vec<MemoryId>,
}

fn first_version() -> u32 {
    1
}

impl Default for Lineage {
    fn default() -> Self {
        Lineage {
            version: 1,
            supersedes: Vec::new(),
            superseded_by: None,
            related: Vec::new(),
        }
    }
}

/// How a record came to be.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum Source {
    /// Written by a person with `brain add` or an editor.
    Manual,
    /// Captured from an agent session transcript.
    Session,
    /// Extracted from a commit.
    Commit,
    /// Imported from a rule file or another tool's store.
    Import,
    /// Derived from routing feedback.
    Feedback,
    /// Derived from a failure report.
    Failure,
}

impl Source {
    /// Returns the word used in files.
    pub fn as_str(self) -> &'static str {
        match self {
            Source::Manual => "manual",
            Source::Session => "session",
            Source::Commit => "commit",
            Source::Import => "import",
            Source::Feedback => "feedback",
            Source::Failure => "failure",
        }
    }
}

/// What kind of thing a piece of evidence points at.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum EvidenceKind {
    /// A commit id.
    Commit,
    /// A file path in the repository.
    File,
    /// An agent session or transcript id.
    Session,
    /// A link.
    Url,
    /// Free text.
    Note,
    /// A span of an imported rule file, `path#hash` of its text: a
    /// re-import recognises it.
    Span,
    /// The section of an imported rule file a rule sits in, `path#Heading /
    /// Subheading`: a re-import pairs a rule edited there with the one it
    /// replaces.
    Section,
}

/// One piece of evidence behind a record.
#[derive(
    Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, JsonSchema,
)]
#[serde(deny_unknown_fields)]
pub struct Evidence {
    /// What the value is.
    pub kind: EvidenceKind,
    /// The commit id, path, session id, URL or note.
    pub value: String,
}

/// Who or what proposed a record, when, and on what evidence.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Provenance {
    /// The channel the record came through.
    pub source: Source,
    /// When it was captured.
    pub captured_at: Timestamp,
    /// The person or agent that proposed it, e.g. `Ann <ann@example.com>`.
    #[serde(default)]
    pub proposed_by: Option<String>,
    /// Commits, files, sessions or links that back it up.
    #[serde(default)]
    pub evidence: Vec<Evidence>,
}

impl Provenance {
    /// Sorts and de-duplicates the evidence and trims the proposer.
    pub fn normalize(&mut self) {
        self.evidence.sort();
        self.evidence.dedup();
        if let Some(by) = &mut self.proposed_by {
            *by = by.trim().to_owned();
        }
    }
}

impl Lineage {
    /// Sorts and de-duplicates the id lists.
    pub fn normalize(&mut self) {
        self.supersedes.sort();
        self.supersedes.dedup();
        self.related.sort();
        self.related.dedup();
    }
}

/// The outcome of review.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum ReviewState {
    /// Waiting for a decision.
    Pending,
    /// Approved.
    Approved,
    /// Rejected; `reason` says why.
    Rejected,
}

impl ReviewState {
    /// Returns the word used in files.
    pub fn as_str(self) -> &'static str {
        match self {
            ReviewState::Pending => "pending",
            ReviewState::Approved => "approved",
            ReviewState::Rejected => "rejected",
        }
    }
}

/// The review record of a memory or preference. Absent for records added directly.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Review {
    /// Where review stands.
    #[serde(default)]
    pub state: Option<ReviewState>,
    /// When the decision was taken.
    #[serde(default)]
    pub decided_at: Option<Timestamp>,
    /// Who took it.
    #[serde(default)]
    pub decided_by: Option<String>,
    /// Why (required in spirit for rejections).
    #[serde(default)]
    pub reason: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ts(s: &str) -> Timestamp {
        s.parse().unwrap()
    }

    #[test]
    fn date_expiry_covers_the_whole_utc_day() {
        let d: DateOrTime = "2026-03-01".parse().unwrap();
        assert!(!d.is_past(ts("2026-03-01T23:59:59Z")));
        assert!(d.is_past(ts("2026-03-02T00:00:00Z")));
        let t: DateOrTime = "2026-03-01T12:00:00Z".parse().unwrap();
        assert!(!t.is_past(ts("2026-03-01T12:00:00Z")));
        assert!(t.is_past(ts("2026-03-01T12:00:01Z")));
        assert_eq!(d.to_string(), "2026-03-01");
        assert_eq!(t.to_string(), "2026-03-01T12:00:00Z");
        assert!("tomorrow".parse::<DateOrTime>().is_err());
    }

    #[test]
    fn validity_window_table() {
        let v = Validity {
            valid_from: Some(ts("2026-01-01T00:00:00Z")),
            valid_until: Some(ts("2026-06-30T00:00:00Z")),
            expires: Some("2026-05-31".parse().unwrap()),
            observed_at: None,
        };
        let cases = [
            ("2025-12-31T23:59:59Z", false),
            ("2026-01-01T00:00:00Z", true),
            ("2026-05-31T23:00:00Z", true),
            ("2026-06-01T00:00:00Z", false),
            ("2026-07-01T00:00:00Z", false),
        ];
        for (now, holds) in cases {
            assert_eq!(v.holds_at(ts(now)), holds, "{now}");
        }
        assert!(Validity::default().holds_at(ts("2000-01-01T00:00:00Z")));
    }

    #[test]
    fn confidence_range() {
        assert!(Confidence::new(0.0).is_some());
        assert!(Confidence::new(1.0).is_some());
        assert!(Confidence::new(1.01).is_none());
        assert!(Confidence::new(-0.1).is_none());
        assert!(Confidence::new(f64::NAN).is_none());
    }
}
