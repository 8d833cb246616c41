//! The six kinds of memory and the closed vocabularies that describe one
//! (importance, risk, invocation mode).

use std::fmt;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// What kind of knowledge a memory holds; decides its directory under `.brain/`.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum MemoryType {
    /// A choice that was made, with its rationale.
    Decision,
    /// A trap: something that looks right and is not.
    Gotcha,
    /// A rule the code base follows.
    Convention,
    /// A reusable way of solving a recurring problem.
    Pattern,
    /// Something the team is working towards.
    Goal,
    /// A short-lived working note.
    Working,
}

impl MemoryType {
    /// Every type, in the order used for listings and statistics.
    pub const ALL: [MemoryType; 6] = [
        MemoryType::Decision,
        MemoryType::Gotcha,
        MemoryType::Convention,
        MemoryType::Pattern,
        MemoryType::Goal,
        MemoryType::Working,
    ];

    /// Returns the singular name used in files and on the command line.
    pub fn as_str(self) -> &'static str {
        match self {
            MemoryType::Decision => "decision",
            MemoryType::Gotcha => "gotcha",
            MemoryType::Convention => "convention",
            MemoryType::Pattern => "pattern",
            MemoryType::Goal => "goal",
            MemoryType::Working => "working",
        }
    }

    /// Returns the directory name under `.brain/` that holds memories of this type.
    pub fn dir_name(self) -> &'static str {
        match self {
            MemoryType::Decision => "decisions",
            MemoryType::Gotcha => "gotchas",
            MemoryType::Convention => "conventions",
            MemoryType::Pattern => "patterns",
            MemoryType::Goal => "goals",
            MemoryType::Working => "working",
        }
    }

    /// Returns the type whose directory is `dir`, if any.
    pub fn from_dir_name(dir: &str) -> Option<MemoryType> {
        MemoryType::ALL.into_iter().find(|t| t.dir_name() == dir)
    }

    /// Returns whether memories of this type can be finished (`done`).
    pub fn can_be_done(self) -> bool {
        matches!(self, MemoryType::Goal | MemoryType::Working)
    }
}

impl fmt::Display for MemoryType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Error for a word that is not one of a closed vocabulary.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown {what} `{value}` (expected one of: {expected})")]
pub struct UnknownWord {
    /// What was being parsed, e.g. `memory type`.
    pub what: &'static str,
    /// The rejected input.
    pub value: String,
    /// The accepted words, comma separated.
    pub expected: String,
}

macro_rules! word_enum_from_str {
    ($ty:ty, $what:literal, [$($variant:expr),+ $(,)?]) => {
        impl std::str::FromStr for $ty {
            type Err = $crate::model::kind::UnknownWord;
            fn from_str(s: &str) -> Result<Self, Self::Err> {
                let all = [$($variant),+];
                all.iter()
                    .copied()
                    .find(|v| v.as_str() == s)
                    .ok_or_else(|| $crate::model::kind::UnknownWord {
                        what: $what,
                        value: s.to_owned(),
                        expected: all.iter().map(|v| v.as_str()).collect::<Vec<_>>().join(", "),
                    })
            }
        }
    };
}
pub(crate) use word_enum_from_str;

word_enum_from_str!(
    MemoryType,
    "memory type",
    [
        MemoryType::Decision,
        MemoryType::Gotcha,
        MemoryType::Convention,
        MemoryType::Pattern,
        MemoryType::Goal,
        MemoryType::Working
    ]
);

/// How much a memory matters when it applies.
#[derive(
    Clone,
    Copy,
    Debug,
    Default,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    Serialize,
    Deserialize,
    JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum Importance {
    /// Nice to know.
    Low,
    /// The default.
    #[default]
    Medium,
    /// Should be known before touching the scope.
    High,
    /// Ignoring it breaks production or loses data.
    Critical,
}

impl Importance {
    /// Returns the word used in files and on the command line.
    pub fn as_str(self) -> &'static str {
        match self {
            Importance::Low => "low",
            Importance::Medium => "medium",
            Importance::High => "high",
            Importance::Critical => "critical",
        }
    }
}

word_enum_from_str!(
    Importance,
    "importance",
    [
        Importance::Low,
        Importance::Medium,
        Importance::High,
        Importance::Critical
    ]
);

/// How dangerous it is to get the scope of a memory wrong.
#[derive(
    Clone,
    Copy,
    Debug,
    Default,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    Serialize,
    Deserialize,
    JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum Risk {
    /// The default.
    #[default]
    Low,
    /// Mistakes are costly but recoverable.
    Medium,
    /// Mistakes cause outages, data loss or security problems.
    High,
}

impl Risk {
    /// Returns the word used in files and on the command line.
    pub fn as_str(self) -> &'static str {
        match self {
            Risk::Low => "low",
            Risk::Medium => "medium",
            Risk::High => "high",
        }
    }
}

word_enum_from_str!(Risk, "risk", [Risk::Low, Risk::Medium, Risk::High]);

/// How strongly a memory's skills should be invoked when it matches.
#[derive(
    Clone,
    Copy,
    Debug,
    Default,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    Serialize,
    Deserialize,
    JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum InvocationMode {
    /// The skills must run.
    Required,
    /// The skills should run first.
    Prefer,
    /// The skills may run (the default).
    #[default]
    Optional,
    /// The skills should not run.
    Suppress,
}

impl InvocationMode {
    /// Returns the word used in files.
    pub fn as_str(self) -> &'static str {
        match self {
            InvocationMode::Required => "required",
            InvocationMode::Prefer => "prefer",
            InvocationMode::Optional => "optional",
            InvocationMode::Suppress => "suppress",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dir_names_round_trip_for_every_type() {
        for t in MemoryType::ALL {
            assert_eq!(MemoryType::from_dir_name(t.dir_name()), Some(t));
            assert_eq!(t.as_str().parse::<MemoryType>(), Ok(t));
        }
        assert_eq!(MemoryType::from_dir_name("decision"), None);
        assert_eq!(MemoryType::from_dir_name("preferences"), None);
    }

    #[test]
    fn unknown_word_lists_the_choices() {
        let err = "note".parse::<MemoryType>().unwrap_err();
        assert_eq!(
            err.to_string(),
            "unknown memory type `note` (expected one of: decision, gotcha, convention, pattern, goal, working)"
        );
        assert!("urgent".parse::<Importance>().is_err());
        assert_eq!("critical".parse::<Importance>(), Ok(Importance::Critical));
    }

    #[test]
    fn only_goals_and_working_notes_can_be_done() {
        let done: Vec<_> = MemoryType::ALL
            .into_iter()
            .filter(|t| t.can_be_done())
            .collect();
        assert_eq!(done, [MemoryType::Goal, MemoryType::Working]);
    }
}
