//! Lifecycle statuses and the one table of allowed transitions.
//!
//! Every command that changes a status asks [`Status::can_become`]; `brain lint`
//! uses the same table to judge a status changed by hand against the committed
//! version. There is no other place that decides what may follow what.

use std::fmt;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::kind::word_enum_from_str;

/// Where a memory or preference is in its life.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// Proposed, waiting for review; never injected.
    Candidate,
    /// Reviewed and in force.
    Active,
    /// Replaced by a newer memory named in `lineage.superseded_by`.
    Superseded,
    /// No longer trusted (too old or retired) but kept for history.
    Stale,
    /// Rejected in review; kept so that it is not proposed again.
    Dismissed,
    /// A goal reached or a working note finished.
    Done,
}

/// The allowed transitions, `(from, to)`. Anything not listed is refused.
///
/// * `candidate → active | dismissed`: review approves or rejects.
/// * `active → superseded | stale | done`: replaced, retired, or finished.
/// * `stale → active | superseded`: refreshed or replaced.
/// * `dismissed → candidate`: reopened for another review.
/// * `done → active`: reopened.
///
/// `superseded` is final: undoing a supersession is a revert in git, not a status change.
pub const TRANSITIONS: &[(Status, Status)] = &[
    (Status::Candidate, Status::Active),
    (Status::Candidate, Status::Dismissed),
    (Status::Active, Status::Superseded),
    (Status::Active, Status::Stale),
    (Status::Active, Status::Done),
    (Status::Stale, Status::Active),
    (Status::Stale, Status::Superseded),
    (Status::Dismissed, Status::Candidate),
    (Status::Done, Status::Active),
];

impl Status {
    /// Every status, in listing order.
    pub const ALL: [Status; 6] = [
        Status::Candidate,
        Status::Active,
        Status::Superseded,
        Status::Stale,
        Status::Dismissed,
        Status::Done,
    ];

    /// Returns the word used in files and on the command line.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Candidate => "candidate",
            Status::Active => "active",
            Status::Superseded => "superseded",
            Status::Stale => "stale",
            Status::Dismissed => "dismissed",
            Status::Done => "done",
        }
    }

    /// Returns whether a record may move from `self` to `to`.
    ///
    /// Staying in the same status is always allowed.
    pub fn can_become(self, to: Status) -> bool {
        self == to || TRANSITIONS.contains(&(self, to))
    }

    /// Returns the statuses reachable from `self` in one step.
    pub fn successors(self) -> impl Iterator<Item = Status> {
        TRANSITIONS
            .iter()
            .filter(move |(from, _)| *from == self)
            .map(|(_, to)| *to)
    }
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

word_enum_from_str!(
    Status,
    "status",
    [
        Status::Candidate,
        Status::Active,
        Status::Superseded,
        Status::Stale,
        Status::Dismissed,
        Status::Done
    ]
);

#[cfg(test)]
mod tests {
    use super::Status::{self, *};

    /// The full matrix: every pair of statuses and whether the move is allowed.
    #[test]
    fn transition_table_matrix() {
        let allowed: &[(Status, &[Status])] = &[
            (Candidate, &[Candidate, Active, Dismissed]),
            (Active, &[Active, Superseded, Stale, Done]),
            (Superseded, &[Superseded]),
            (Stale, &[Active, Superseded, Stale]),
            (Dismissed, &[Candidate, Dismissed]),
            (Done, &[Active, Done]),
        ];
        for (from, tos) in allowed {
            for to in Status::ALL {
                assert_eq!(
                    from.can_become(to),
                    tos.contains(&to),
                    "{from} -> {to} should be {}",
                    if tos.contains(&to) {
                        "allowed"
                    } else {
                        "refused"
                    }
                );
            }
        }
    }

    #[test]
    fn candidates_cannot_skip_review() {
        assert!(!Candidate.can_become(Superseded));
        assert!(!Candidate.can_become(Done));
        assert!(!Dismissed.can_become(Active));
    }

    #[test]
    fn successors_follow_the_table() {
        assert_eq!(
            Active.successors().collect::<Vec<_>>(),
            [Superseded, Stale, Done]
        );
        assert_eq!(Superseded.successors().count(), 0);
    }
}
