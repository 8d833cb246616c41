//! The session profile: routing wishes and working hints for the current
//! session only, kept in `.brain/runtime/session-profile.json` (git-ignored,
//! never durable). Its type is routing's [`SessionPolicy`].
//!
//! * [`parse`] reads the file strictly: invalid JSON, a wrong type or an
//!   unknown key is an error naming the line, column or key, never a profile
//!   silently emptied. [`to_text`] writes it (pretty JSON, every key).
//! * [`apply`] merges one `brain session set` into a profile (pure): skills
//!   are normalised with [`normalize_skill`], adding a skill to one list
//!   moves it out of the others, hints are appended once, flags are set only
//!   when given, and `updated_at` becomes `now`. One request that puts a
//!   skill in two lists is refused before anything is written.
//! * [`promote`] turns the profile into *candidate* preferences or one
//!   candidate memory: the only way session content becomes durable.
//! * The facade methods on [`Brain`] (`session_profile`, `session_show`,
//!   `session_set`, `session_clear`, `session_promote`) combine these with the
//!   store; `set` and `clear` hold the write lock across their
//!   read-modify-write.
//!
//! Secrets in hints are replaced by `[REDACTED:<kind>]` when they are set
//! (the profile feeds the agent's context) and again when they are promoted.
//! Routing itself lives in [`crate::route`] and reads only the three skill
//! lists; nothing here ranks or routes.

pub mod promote;

use std::collections::BTreeMap;
use std::fmt;

use jiff::Timestamp;
use schemars::JsonSchema;
use serde::Serialize;

use crate::brain::Brain;
use crate::model::PreferenceKind;
use crate::route::{SessionPolicy, normalize_skill};
use crate::secrets::{self, SecretKind};
use crate::store;

pub use promote::{PromoteRequest, PromoteTarget, PromotedRecord, SessionPromoteReport};

/// The keys of the profile file, in the order they are written.
pub const KEYS: [&str; 8] = [
    "updated_at",
    "prefer_skills",
    "avoid_skills",
    "review_skills",
    "hints",
    "minimal_change",
    "skip_full_tests",
    "no_schema_changes",
];

/// Errors of the session profile commands.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The store failed.
    #[error(transparent)]
    Store(#[from] store::Error),
    /// The profile file exists but is not a valid profile.
    #[error("invalid session profile `{path}`{}", problem.location())]
    Corrupt {
        /// The file, relative to the root.
        path: String,
        /// What is wrong with it.
        #[source]
        problem: ParseError,
    },
    /// A command needs a profile and there is none.
    #[error("there is no session profile (`{path}`)")]
    Missing {
        /// The file, relative to the root.
        path: String,
    },
    /// One request puts a skill in two places.
    #[error("skill `{skill}` cannot be both {first} and {second} in one request")]
    Conflict {
        /// The normalised skill.
        skill: String,
        /// What the first request does with it (`preferred`).
        first: &'static str,
        /// What the second one does (`avoided`).
        second: &'static str,
    },
    /// An argument is not acceptable.
    #[error("invalid {field}: {message}")]
    InvalidInput {
        /// The argument (`skill`, `hint`).
        field: &'static str,
        /// What is wrong.
        message: String,
    },
    /// A `set` that asks for no change at all.
    #[error("nothing to set: give a hint, a skill or a flag")]
    NothingToSet,
    /// The profile holds nothing of what was asked to be promoted.
    #[error("nothing to promote: {0}")]
    NothingToPromote(String),
}

/// Why a profile file could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct ParseError {
    /// Line, from 1, when known.
    pub line: Option<usize>,
    /// Column, from 1, when known.
    pub column: Option<usize>,
    /// What is wrong.
    pub message: String,
}

impl ParseError {
    fn whole(message: impl Into<String>) -> ParseError {
        ParseError {
            line: None,
            column: None,
            message: message.into(),
        }
    }

    fn from_json(e: &serde_json::Error) -> ParseError {
        // serde_json's message ends in " at line L column C"; keep the position
        // apart so that the error can say where first.
        let text = e.to_string();
        let suffix = format!(" at line {} column {}", e.line(), e.column());
        let message = text.strip_suffix(&suffix).unwrap_or(&text).to_owned();
        ParseError {
            line: (e.line() > 0).then_some(e.line()),
            column: (e.column() > 0).then_some(e.column()),
            message,
        }
    }

    fn location(&self) -> String {
        match (self.line, self.column) {
            (Some(l), Some(c)) => format!(" at line {l} column {c}"),
            (Some(l), None) => format!(" at line {l}"),
            _ => String::new(),
        }
    }
}

/// Parses the profile file strictly: a JSON object whose keys are among
/// [`KEYS`], each of the right type. Every key is optional.
pub fn parse(bytes: &[u8]) -> Result<SessionPolicy, ParseError> {
    let text =
        std::str::from_utf8(bytes).map_err(|_| ParseError::whole("the file is not valid UTF-8"))?;
    let value: serde_json::Value =
        serde_json::from_str(text).map_err(|e| ParseError::from_json(&e))?;
    let Some(object) = value.as_object() else {
        return Err(ParseError::whole(
            "expected a JSON object with the profile's keys",
        ));
    };
    if let Some(key) = object.keys().find(|k| !KEYS.contains(&k.as_str())) {
        let message = match crate::model::closest(key, KEYS.iter().copied()) {
            Some(k) => format!("unknown key `{key}` (did you mean `{k}`?)"),
            None => format!("unknown key `{key}`; known keys: {}", KEYS.join(", ")),
        };
        return Err(ParseError::whole(message));
    }
    serde_json::from_str(text).map_err(|e| ParseError::from_json(&e))
}

/// Returns the profile as written to disk: pretty JSON with every key and a
/// final newline.
#[allow(
    clippy::missing_panics_doc,
    reason = "a profile holds only strings, lists and booleans, which always serialize"
)]
pub fn to_text(profile: &SessionPolicy) -> String {
    let mut s =
        serde_json::to_string_pretty(profile).expect("a session profile always serializes to JSON");
    s.push('\n');
    s
}

/// One of the profile's three skill lists.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum SkillList {
    /// `prefer_skills`: run first.
    PreferSkills,
    /// `avoid_skills`: do not run.
    AvoidSkills,
    /// `review_skills`: run only after a human agrees.
    ReviewSkills,
}

impl SkillList {
    /// The three lists, in file order.
    pub const ALL: [SkillList; 3] = [
        SkillList::PreferSkills,
        SkillList::AvoidSkills,
        SkillList::ReviewSkills,
    ];

    /// Returns the key in the file.
    pub fn key(self) -> &'static str {
        match self {
            SkillList::PreferSkills => "prefer_skills",
            SkillList::AvoidSkills => "avoid_skills",
            SkillList::ReviewSkills => "review_skills",
        }
    }

    /// Returns what the list does to a skill, as a participle.
    fn verb(self) -> &'static str {
        match self {
            SkillList::PreferSkills => "preferred",
            SkillList::AvoidSkills => "avoided",
            SkillList::ReviewSkills => "sent to review",
        }
    }

    /// Returns the preference the list stands for.
    pub fn preference(self) -> PreferenceKind {
        match self {
            SkillList::PreferSkills => PreferenceKind::Prefer,
            SkillList::AvoidSkills => PreferenceKind::Avoid,
            SkillList::ReviewSkills => PreferenceKind::RequireReview,
        }
    }

    /// Returns the list in `profile`.
    pub fn of(self, profile: &SessionPolicy) -> &Vec<String> {
        match self {
            SkillList::PreferSkills => &profile.prefer_skills,
            SkillList::AvoidSkills => &profile.avoid_skills,
            SkillList::ReviewSkills => &profile.review_skills,
        }
    }

    fn of_mut(self, profile: &mut SessionPolicy) -> &mut Vec<String> {
        match self {
            SkillList::PreferSkills => &mut profile.prefer_skills,
            SkillList::AvoidSkills => &mut profile.avoid_skills,
            SkillList::ReviewSkills => &mut profile.review_skills,
        }
    }
}

impl fmt::Display for SkillList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.key())
    }
}

/// One `brain session set`: what to change in the profile.
#[allow(
    clippy::struct_excessive_bools,
    reason = "independent command-line switches, passed through by name"
)]
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SessionUpdate {
    /// Start from an empty profile instead of the stored one.
    pub replace: bool,
    /// Empty the three skill lists before adding.
    pub clear_skills: bool,
    /// Empty the hints before adding.
    pub clear_hints: bool,
    /// Skills to prefer (moved out of the other lists).
    pub prefer: Vec<String>,
    /// Skills to avoid (moved out of the other lists).
    pub avoid: Vec<String>,
    /// Skills to send to review (moved out of the other lists).
    pub review: Vec<String>,
    /// Skills to remove from every list.
    pub drop: Vec<String>,
    /// Hints to add.
    pub hints: Vec<String>,
    /// `minimal_change`, when given.
    pub minimal_change: Option<bool>,
    /// `skip_full_tests`, when given.
    pub skip_full_tests: Option<bool>,
    /// `no_schema_changes`, when given.
    pub no_schema_changes: Option<bool>,
}

impl SessionUpdate {
    /// Whether the update asks for nothing at all.
    pub fn is_empty(&self) -> bool {
        *self == SessionUpdate::default()
    }
}

/// A skill that a `set` moved from one list to another.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
pub struct SkillMove {
    /// The normalised skill.
    pub skill: String,
    /// The list it left.
    pub from: SkillList,
    /// The list it joined.
    pub to: SkillList,
}

/// A secret removed from a hint before it was stored (kind and place, never
/// the value).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
pub struct HintRedaction {
    /// Position of the hint in the profile's `hints`, from 0.
    pub hint: usize,
    /// What was redacted.
    pub kind: SecretKind,
    /// Column (in characters) of the secret in the hint before redaction
    /// (white space collapsed), from 1.
    pub column: usize,
}

/// What [`apply`] produced.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Applied {
    /// The new profile.
    pub profile: SessionPolicy,
    /// Skills moved between lists.
    pub moved: Vec<SkillMove>,
    /// Skills removed by `drop`.
    pub dropped: Vec<String>,
    /// Secrets removed from the new hints.
    pub redactions: Vec<HintRedaction>,
    /// Requests that changed nothing (dropping a skill in no list).
    pub warnings: Vec<String>,
}

/// What a `set` request does with one skill.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Request {
    Add(SkillList),
    Drop,
}

impl Request {
    fn verb(self) -> &'static str {
        match self {
            Request::Add(list) => list.verb(),
            Request::Drop => "dropped",
        }
    }
}

/// Collapses every run of white space (newlines included) to one space and
/// trims: a hint is one line.
fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Brings a profile read from disk into the form `set` writes: skill names
/// normalised (empty ones dropped), lists sorted without duplicates, hints on
/// one line, without empty or repeated ones. A skill that a hand edit put in
/// two lists stays in both; routing resolves that cautiously.
pub fn canonicalize(profile: &mut SessionPolicy) {
    for list in SkillList::ALL {
        let names = list.of_mut(profile);
        let mut normal: Vec<String> = names.iter().filter_map(|n| normalize_skill(n)).collect();
        normal.sort();
        normal.dedup();
        *names = normal;
    }
    let mut hints: Vec<String> = Vec::with_capacity(profile.hints.len());
    for h in &profile.hints {
        let h = one_line(h);
        if !h.is_empty() && !hints.contains(&h) {
            hints.push(h);
        }
    }
    profile.hints = hints;
}

/// Merges `update` into `base` (or into an empty profile with `replace`, or
/// when there is none) at `now`. Pure; every check happens before anything
/// is returned, so a refused request changes nothing.
///
/// # Errors
/// The update is empty, names an empty skill or hint, or puts one skill in
/// two places.
pub fn apply(
    base: Option<&SessionPolicy>,
    update: &SessionUpdate,
    now: Timestamp,
) -> Result<Applied, Error> {
    if update.is_empty() {
        return Err(Error::NothingToSet);
    }
    let wanted = requested_skills(update)?;
    let mut hints = Vec::with_capacity(update.hints.len());
    for raw in &update.hints {
        let hint = one_line(raw);
        if hint.is_empty() {
            return Err(Error::InvalidInput {
                field: "hint",
                message: "a hint cannot be empty".to_owned(),
            });
        }
        hints.push(secrets::redact(&hint));
    }

    let mut profile = match base {
        Some(p) if !update.replace => p.clone(),
        _ => SessionPolicy::default(),
    };
    canonicalize(&mut profile);
    if update.clear_skills {
        for list in SkillList::ALL {
            list.of_mut(&mut profile).clear();
        }
    }
    if update.clear_hints {
        profile.hints.clear();
    }
    let mut applied = Applied {
        profile,
        moved: Vec::new(),
        dropped: Vec::new(),
        redactions: Vec::new(),
        warnings: Vec::new(),
    };
    apply_skills(&mut applied, wanted);
    let profile = &mut applied.profile;
    for (hint, findings) in hints {
        let index = profile
            .hints
            .iter()
            .position(|h| *h == hint)
            .unwrap_or_else(|| {
                profile.hints.push(hint);
                profile.hints.len() - 1
            });
        applied
            .redactions
            .extend(findings.into_iter().map(|f| HintRedaction {
                hint: index,
                kind: f.kind,
                column: f.column,
            }));
    }
    if let Some(v) = update.minimal_change {
        profile.minimal_change = v;
    }
    if let Some(v) = update.skip_full_tests {
        profile.skip_full_tests = v;
    }
    if let Some(v) = update.no_schema_changes {
        profile.no_schema_changes = v;
    }
    profile.updated_at = Some(now);
    Ok(applied)
}

/// The skills an update names, normalised, with what to do with each.
fn requested_skills(update: &SessionUpdate) -> Result<BTreeMap<String, Request>, Error> {
    let mut wanted: BTreeMap<String, Request> = BTreeMap::new();
    let requests = [
        (Request::Add(SkillList::PreferSkills), &update.prefer),
        (Request::Add(SkillList::AvoidSkills), &update.avoid),
        (Request::Add(SkillList::ReviewSkills), &update.review),
        (Request::Drop, &update.drop),
    ];
    for (request, names) in requests {
        for raw in names {
            let skill = normalize_skill(raw).ok_or_else(|| Error::InvalidInput {
                field: "skill",
                message: format!(
                    "`{raw}` is not a skill name: nothing is left once it is normalised"
                ),
            })?;
            match wanted.get(&skill) {
                Some(&earlier) if earlier != request => {
                    return Err(Error::Conflict {
                        skill,
                        first: earlier.verb(),
                        second: request.verb(),
                    });
                }
                _ => {
                    wanted.insert(skill, request);
                }
            }
        }
    }
    Ok(wanted)
}

/// Adds, moves and drops the requested skills, recording what happened.
fn apply_skills(applied: &mut Applied, wanted: BTreeMap<String, Request>) {
    let profile = &mut applied.profile;
    for (skill, request) in wanted {
        let holding: Vec<SkillList> = SkillList::ALL
            .into_iter()
            .filter(|l| l.of(profile).contains(&skill))
            .collect();
        match request {
            Request::Drop if holding.is_empty() => applied.warnings.push(format!(
                "`{skill}` is in no skill list of the session profile; nothing to drop"
            )),
            Request::Drop => {
                for list in holding {
                    list.of_mut(profile).retain(|s| *s != skill);
                }
                applied.dropped.push(skill);
            }
            Request::Add(to) => {
                for from in holding.into_iter().filter(|l| *l != to) {
                    from.of_mut(profile).retain(|s| *s != skill);
                    applied.moved.push(SkillMove {
                        skill: skill.clone(),
                        from,
                        to,
                    });
                }
                let list = to.of_mut(profile);
                if !list.contains(&skill) {
                    list.push(skill);
                    list.sort();
                }
            }
        }
    }
}

/// `brain session show`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
pub struct SessionShowReport {
    /// The profile file, relative to the root.
    pub path: String,
    /// Whether there is a profile.
    pub exists: bool,
    /// The profile as stored; `null` when there is none.
    pub profile: Option<SessionPolicy>,
}

/// `brain session set`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
pub struct SessionSetReport {
    /// The profile file, relative to the root.
    pub path: String,
    /// There was no profile before.
    pub created: bool,
    /// The profile was started from empty (`--replace`).
    pub replaced: bool,
    /// The profile as written.
    pub profile: SessionPolicy,
    /// Skills moved from one list to another.
    pub moved: Vec<SkillMove>,
    /// Skills removed from every list.
    pub dropped: Vec<String>,
    /// Secrets removed from hints before writing.
    pub redactions: Vec<HintRedaction>,
    /// Requests that changed nothing.
    pub warnings: Vec<String>,
}

/// `brain session clear`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
pub struct SessionClearReport {
    /// The profile file, relative to the root.
    pub path: String,
    /// Whether a profile was removed (`false`: there was none).
    pub removed: bool,
}

impl Brain {
    /// Returns the session profile file, relative to the root.
    pub fn session_profile_path(&self) -> String {
        let layout = self.store().layout();
        layout.relative(&layout.session_profile_file())
    }

    /// Reads the session profile; `None` when there is none.
    ///
    /// # Errors
    /// The file cannot be read ([`Error::Store`]) or is not a valid profile
    /// ([`Error::Corrupt`]); a broken profile is never treated as empty.
    pub fn session_profile(&self) -> Result<Option<SessionPolicy>, Error> {
        match self.store().read_session_profile()? {
            Some(bytes) => self.parse_profile(&bytes).map(Some),
            None => Ok(None),
        }
    }

    fn parse_profile(&self, bytes: &[u8]) -> Result<SessionPolicy, Error> {
        parse(bytes).map_err(|problem| Error::Corrupt {
            path: self.session_profile_path(),
            problem,
        })
    }

    /// `brain session show`.
    pub fn session_show(&self) -> Result<SessionShowReport, Error> {
        let profile = self.session_profile()?;
        Ok(SessionShowReport {
            path: self.session_profile_path(),
            exists: profile.is_some(),
            profile,
        })
    }

    /// `brain session set`: merges `update` into the stored profile (or
    /// starts from empty with `replace`, which does not read the old file, so
    /// it also replaces a corrupt one) and writes it atomically under the
    /// write lock.
    pub fn session_set(
        &self,
        update: &SessionUpdate,
        now: Timestamp,
    ) -> Result<SessionSetReport, Error> {
        let lock = self.store().lock()?;
        let bytes = self.store().read_session_profile()?;
        let created = bytes.is_none();
        let base = match &bytes {
            Some(b) if !update.replace => Some(self.parse_profile(b)?),
            _ => None,
        };
        let applied = apply(base.as_ref(), update, now)?;
        self.store()
            .write_session_profile(&lock, &to_text(&applied.profile))?;
        Ok(SessionSetReport {
            path: self.session_profile_path(),
            created,
            replaced: update.replace,
            profile: applied.profile,
            moved: applied.moved,
            dropped: applied.dropped,
            redactions: applied.redactions,
            warnings: applied.warnings,
        })
    }

    /// `brain session clear`: removes the profile; without one it does
    /// nothing. Never reads the file, so it also removes a corrupt one.
    pub fn session_clear(&self) -> Result<SessionClearReport, Error> {
        let lock = self.store().lock()?;
        let removed = self.store().remove_session_profile(&lock)?;
        Ok(SessionClearReport {
            path: self.session_profile_path(),
            removed,
        })
    }
}

#[cfg(test)]
mod tests;
