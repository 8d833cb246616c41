//! `brain session promote`: the only way session content becomes durable,
//! and always as a *candidate* that goes through review.
//!
//! * `--to preference`: one candidate preference per skill of the profile
//!   (or per `--skill`): `prefer_skills` → `prefer`, `avoid_skills` →
//!   `avoid`, `review_skills` → `require_review`; target type `skill`, no
//!   hints (global, as the session entry was). A skill that a hand edit put
//!   in several lists is promoted with the cautious claim only (review, then
//!   avoid, then prefer), the rule routing applies inside the session layer.
//! * `--to memory`: one candidate `convention` holding the hints and the
//!   flags that are set (or only the `--hint`s given). A convention, not a
//!   working note: promoting says "this should hold beyond the session",
//!   and working notes expire after a week.
//!
//! Ids depend only on what is promoted, never on the time or the actor
//! (preferences: preference kind and skill; the memory: its text), so
//! promoting the same content again finds the record already there
//! (candidate, active, or dismissed: a rejected proposal is not made again)
//! and writes nothing. A preference is also recognised when the store holds
//! the same policy on the same scope under another id (a `skill`
//! preference of the same kind on the same normalised skill, without task
//! or path hints): in force or waiting for review, or dismissed, in which
//! case it is not proposed again. An active preference with another policy
//! on that scope is a contradiction: the candidate is written (review
//! decides) and a warning names it.
//!
//! Every record passes the secret firewall before its id is derived; the
//! batch is written under the write lock and is all-or-nothing.

use std::collections::{BTreeMap, BTreeSet};

use jiff::Timestamp;
use schemars::JsonSchema;
use serde::Serialize;

use super::{Error, SkillList, one_line};
use crate::brain::Brain;
use crate::model::{
    Confidence, Evidence, EvidenceKind, Lineage, Memory, MemoryId, MemoryType, Preference,
    PreferenceKind, Provenance, Review, ReviewState, SchemaVersion, Source, Status, TargetType,
    Validity,
};
use crate::route::{SessionPolicy, normalize_skill};
use crate::secrets::{self, Redaction};
use crate::store::{Catalog, WriteLock};

/// What `promote` writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum PromoteTarget {
    /// Candidate preferences, one per skill.
    Preference,
    /// One candidate memory (a convention) with the hints and flags.
    Memory,
}

/// One `brain session promote`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PromoteRequest {
    /// What to write.
    pub to: PromoteTarget,
    /// With [`PromoteTarget::Preference`]: only these skills (default: every
    /// skill of the profile). Each must be in one of its lists.
    pub skills: Vec<String>,
    /// With [`PromoteTarget::Memory`]: only these hints, and no flags
    /// (default: every hint and every flag set). Each must be a hint of the
    /// profile.
    pub hints: Vec<String>,
}

/// A record `promote` wrote or found already there.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
pub struct PromotedRecord {
    /// Its id.
    pub id: MemoryId,
    /// Its file, relative to the root.
    pub path: String,
    /// `candidate` for a record written now; the stored record's status
    /// otherwise (`null` when its file cannot be parsed).
    pub status: Option<Status>,
    /// What it says: `avoid legacy-router` for a preference, the title for a
    /// memory.
    pub description: String,
}

/// `brain session promote`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
pub struct SessionPromoteReport {
    /// What was promoted to.
    pub to: PromoteTarget,
    /// The profile it came from, relative to the root.
    pub profile_path: String,
    /// Candidates written, in id order.
    pub written: Vec<PromotedRecord>,
    /// Records already in the store (same id, or an equivalent preference),
    /// so not written again.
    pub unchanged: Vec<PromotedRecord>,
    /// Secrets removed before writing (kind and place, never the value).
    pub redactions: Vec<Redaction>,
    /// Choices made on the way (a skill in several lists) and contradictions
    /// with active preferences.
    pub warnings: Vec<String>,
}

/// Reads one flag of a profile.
type Flag = fn(&SessionPolicy) -> bool;

/// The sentence each flag becomes in a promoted memory.
const FLAG_RULES: [(&str, Flag); 3] = [
    ("keep changes as small as possible", |p| p.minimal_change),
    ("run only the affected tests, not the full suite", |p| {
        p.skip_full_tests
    }),
    ("do not change the database schema", |p| p.no_schema_changes),
];

/// Longest title a promoted memory gets, in characters (before `…`).
const TITLE_CHARS: usize = 96;

/// The tag every promoted memory carries.
pub const TAG: &str = "session-profile";

fn evidence(profile_path: &str, what: &str, profile: &SessionPolicy) -> Evidence {
    let value = match profile.updated_at {
        Some(t) => format!("session profile {profile_path} ({what}, updated {t})"),
        None => format!("session profile {profile_path} ({what})"),
    };
    Evidence {
        kind: EvidenceKind::Note,
        value,
    }
}

fn provenance(now: Timestamp, actor: Option<&str>, evidence: Evidence) -> Provenance {
    Provenance {
        source: Source::Session,
        captured_at: now,
        proposed_by: actor.map(str::to_owned),
        evidence: vec![evidence],
    }
}

fn pending() -> Review {
    Review {
        state: Some(ReviewState::Pending),
        ..Review::default()
    }
}

/// Returns the id of a promoted preference: from its kind and target only.
pub fn preference_id(kind: PreferenceKind, target: &str) -> MemoryId {
    MemoryId::generate(
        &format!("{} {target}", kind.as_str()),
        &["preference", "session-profile", kind.as_str(), target],
    )
}

/// Returns the id of a promoted memory: from its title and summary only.
pub fn memory_id(title: &str, summary: &str) -> MemoryId {
    MemoryId::generate(
        title,
        &[MemoryType::Convention.as_str(), "session-profile", summary],
    )
}

/// The candidate preferences `profile` promotes to (ids not yet derived),
/// and a warning for each skill found in several lists.
///
/// # Errors
/// A `--skill` is not in the profile, or there is no skill to promote.
pub fn preferences(
    profile: &SessionPolicy,
    only: &[String],
    profile_path: &str,
    now: Timestamp,
    actor: Option<&str>,
) -> Result<(Vec<Preference>, Vec<String>), Error> {
    let mut claims: BTreeMap<String, BTreeSet<SkillList>> = BTreeMap::new();
    for list in SkillList::ALL {
        for name in list.of(profile) {
            if let Some(skill) = normalize_skill(name) {
                claims.entry(skill).or_default().insert(list);
            }
        }
    }
    let mut chosen = BTreeSet::new();
    for raw in only {
        let skill = normalize_skill(raw).ok_or_else(|| Error::InvalidInput {
            field: "skill",
            message: format!("`{raw}` is not a skill name: nothing is left once it is normalised"),
        })?;
        if !claims.contains_key(&skill) {
            return Err(Error::InvalidInput {
                field: "skill",
                message: format!("`{skill}` is in no skill list of the session profile"),
            });
        }
        chosen.insert(skill);
    }
    if claims.is_empty() {
        return Err(Error::NothingToPromote(
            "the session profile lists no skills".to_owned(),
        ));
    }
    let mut out = Vec::new();
    let mut warnings = Vec::new();
    for (skill, lists) in claims {
        if !chosen.is_empty() && !chosen.contains(&skill) {
            continue;
        }
        // Caution first, as routing decides inside the session layer.
        let list = [
            SkillList::ReviewSkills,
            SkillList::AvoidSkills,
            SkillList::PreferSkills,
        ]
        .into_iter()
        .find(|l| lists.contains(l))
        .unwrap_or(SkillList::PreferSkills);
        if lists.len() > 1 {
            let names: Vec<&str> = lists.iter().map(|l| l.key()).collect();
            warnings.push(format!(
                "`{skill}` is in {}; promoting the cautious claim only ({})",
                names.join(" and "),
                list.preference().as_str()
            ));
        }
        let kind = list.preference();
        out.push(Preference {
            schema_version: SchemaVersion::CURRENT,
            id: preference_id(kind, &skill),
            status: Status::Candidate,
            target_type: TargetType::Skill,
            target: skill,
            preference: kind,
            confidence: Confidence::default(),
            reason: format!(
                "Asked for in the session profile (`{}`) and promoted with `brain session promote`.",
                list.key()
            ),
            task_hints: Vec::new(),
            path_hints: Vec::new(),
            validity: Validity::default(),
            lineage: Lineage::default(),
            provenance: provenance(now, actor, evidence(profile_path, list.key(), profile)),
            review: pending(),
        });
    }
    Ok((out, warnings))
}

/// Cuts `text` to at most [`TITLE_CHARS`] characters at a word boundary,
/// with `…` when something was cut.
fn title_of(text: &str) -> String {
    if text.chars().count() <= TITLE_CHARS {
        return text.to_owned();
    }
    let cut: String = text.chars().take(TITLE_CHARS).collect();
    let at_word = match cut.rfind(' ') {
        Some(i) if i > TITLE_CHARS / 2 => &cut[..i],
        _ => cut.as_str(),
    };
    format!("{}…", at_word.trim_end_matches([' ', ';', ',']))
}

/// `text` with its first character in upper case.
fn capitalized(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map_or_else(String::new, |first| {
        first.to_uppercase().chain(chars).collect()
    })
}

/// The candidate memory `profile` promotes to, its id derived, and the
/// secrets removed from its hints (ids filled in).
///
/// # Errors
/// A `--hint` is not in the profile, or there is nothing to promote.
pub fn memory(
    profile: &SessionPolicy,
    only: &[String],
    profile_path: &str,
    now: Timestamp,
    actor: Option<&str>,
) -> Result<(Memory, Vec<Redaction>), Error> {
    let hints: Vec<String> = profile
        .hints
        .iter()
        .map(|h| one_line(h))
        .filter(|h| !h.is_empty())
        .collect();
    let items: Vec<String> = if only.is_empty() {
        let flags = FLAG_RULES
            .iter()
            .filter(|(_, set)| set(profile))
            .map(|(rule, _)| (*rule).to_owned());
        hints.into_iter().chain(flags).collect()
    } else {
        let mut picked = Vec::new();
        for raw in only {
            let hint = one_line(raw);
            if !hints.contains(&hint) {
                return Err(Error::InvalidInput {
                    field: "hint",
                    message: format!("`{hint}` is not a hint of the session profile"),
                });
            }
            picked.push(hint);
        }
        // In profile order, once each.
        hints.into_iter().filter(|h| picked.contains(h)).collect()
    };
    if items.is_empty() {
        return Err(Error::NothingToPromote(
            "the session profile has no hints and no flag set".to_owned(),
        ));
    }
    // Redact each item before the title is cut from them, so that a cut
    // never leaves half a secret the firewall cannot recognise.
    let mut redactions = Vec::new();
    let mut clean = Vec::with_capacity(items.len());
    for item in &items {
        let (text, found) = secrets::redact(item);
        redactions.extend(found.into_iter().map(|f| Redaction {
            id: MemoryId::generate("", &[]),
            field: "hints".to_owned(),
            kind: f.kind,
            line: 1,
            column: f.column,
        }));
        clean.push(text);
    }
    let joined = capitalized(&clean.join("; "));
    let title = title_of(&joined);
    let summary = if joined.ends_with(['.', '!', '?']) {
        joined.clone()
    } else {
        format!("{joined}.")
    };
    let mut detail = String::from(
        "Promoted from a session profile with `brain session promote --to memory`:\n\n",
    );
    for item in &clean {
        detail.push_str("- ");
        detail.push_str(item);
        detail.push('\n');
    }
    let mut m = Memory::new(
        MemoryId::generate("", &[]),
        MemoryType::Convention,
        Status::Candidate,
        title,
        summary,
        provenance(
            now,
            actor,
            evidence(profile_path, "hints and flags", profile),
        ),
    );
    m.detail = detail;
    m.tags = vec![TAG.to_owned()];
    m.review = pending();
    // A second pass over every field, as every write path does.
    redactions.extend(secrets::redact_memory(&mut m));
    m.normalize();
    m.id = memory_id(&m.title, &m.summary);
    for r in &mut redactions {
        r.id = m.id.clone();
    }
    Ok((m, redactions))
}

/// How a promoted preference relates to the stored ones.
#[derive(Debug, Default)]
struct Related {
    /// The same policy on the same scope, in force or waiting for review
    /// (or, failing that, dismissed): not proposed again.
    same: Option<PromotedRecord>,
    /// Active preferences that set another policy on the same scope.
    conflicts: Vec<MemoryId>,
}

/// Relates `p` (a global skill preference) to the store: a stored one has
/// the same scope when it is a skill preference on the same normalised
/// target without task or path hints. Superseded and done records are
/// history and count for nothing.
fn relate(catalog: &Catalog, p: &Preference) -> Related {
    let mut present = None;
    let mut dismissed = None;
    let mut conflicts = Vec::new();
    for l in &catalog.preferences {
        let r = &l.record;
        let same_scope = r.target_type == TargetType::Skill
            && r.task_hints.is_empty()
            && r.path_hints.is_empty()
            && normalize_skill(&r.target).as_deref() == Some(p.target.as_str());
        let retired = matches!(r.status, Status::Superseded | Status::Done)
            || r.lineage.superseded_by.is_some();
        if !same_scope || retired {
            continue;
        }
        if r.preference == p.preference {
            let slot = if r.status == Status::Dismissed {
                &mut dismissed
            } else {
                &mut present
            };
            slot.get_or_insert_with(|| stored(&l.path, r));
        } else if r.status == Status::Active {
            conflicts.push(r.id.clone());
        }
    }
    Related {
        same: present.or(dismissed),
        conflicts,
    }
}

fn stored(path: &str, p: &Preference) -> PromotedRecord {
    PromotedRecord {
        id: p.id.clone(),
        path: path.to_owned(),
        status: Some(p.status),
        description: describe(p),
    }
}

fn describe(p: &Preference) -> String {
    format!("{} {}", p.preference.as_str(), p.target)
}

/// The stored record with `id`, if the catalog holds it.
fn stored_by_id(catalog: &Catalog, id: &MemoryId) -> Option<PromotedRecord> {
    catalog
        .preferences
        .iter()
        .find(|l| l.record.id == *id)
        .map(|l| stored(&l.path, &l.record))
        .or_else(|| {
            catalog
                .memories
                .iter()
                .find(|l| l.record.id == *id)
                .map(|l| PromotedRecord {
                    id: l.record.id.clone(),
                    path: l.path.clone(),
                    status: Some(l.record.status),
                    description: l.record.title.clone(),
                })
        })
}

/// A record about to be written.
enum Pending {
    Preference(Preference),
    Memory(Memory),
}

impl Brain {
    /// `brain session promote`: writes the profile's skills as candidate
    /// preferences, or its hints and flags as one candidate memory. Records
    /// already in the store are reported as unchanged; nothing else is
    /// touched, the profile included.
    ///
    /// # Errors
    /// There is no profile, it is corrupt, it holds nothing to promote, a
    /// `--skill` or `--hint` is not in it, or a write failed (files written
    /// by this call are removed again).
    pub fn session_promote(
        &self,
        request: &PromoteRequest,
        now: Timestamp,
        actor: Option<&str>,
    ) -> Result<SessionPromoteReport, Error> {
        let profile_path = self.session_profile_path();
        let profile = self.session_profile()?.ok_or_else(|| Error::Missing {
            path: profile_path.clone(),
        })?;
        let (records, redactions, mut warnings) = match request.to {
            PromoteTarget::Preference => {
                let (prefs, warnings) =
                    preferences(&profile, &request.skills, &profile_path, now, actor)?;
                let mut redactions = Vec::new();
                let mut records = Vec::with_capacity(prefs.len());
                for mut p in prefs {
                    let mut found = secrets::redact_preference(&mut p);
                    p.normalize();
                    p.id = preference_id(p.preference, &p.target);
                    for r in &mut found {
                        r.id = p.id.clone();
                    }
                    redactions.push(found);
                    records.push(Pending::Preference(p));
                }
                (records, redactions, warnings)
            }
            PromoteTarget::Memory => {
                let (m, found) = memory(&profile, &request.hints, &profile_path, now, actor)?;
                (vec![Pending::Memory(m)], vec![found], Vec::new())
            }
        };
        let lock = self.store().lock()?;
        // Under the lock the cache-validated load is current.
        let catalog = self.store().load();
        let mut written = Vec::new();
        let mut unchanged = Vec::new();
        let mut kept_redactions = Vec::new();
        let mut created: Vec<String> = Vec::new();
        for (record, found) in records.into_iter().zip(redactions) {
            let (id, description) = match &record {
                Pending::Preference(p) => (p.id.clone(), describe(p)),
                Pending::Memory(m) => (m.id.clone(), m.title.clone()),
            };
            let related = match &record {
                Pending::Preference(p) => relate(&catalog, p),
                Pending::Memory(_) => Related::default(),
            };
            if let Some(existing) = related.same.or_else(|| stored_by_id(&catalog, &id)) {
                unchanged.push(existing);
                continue;
            }
            for other in &related.conflicts {
                warnings.push(format!(
                    "`{description}` contradicts the active preference `{other}`; \
                     it stays a candidate until one of them is retired"
                ));
            }
            match self.create(&lock, &record) {
                Ok(Some(path)) => {
                    created.push(path.clone());
                    kept_redactions.extend(found);
                    written.push(PromotedRecord {
                        id,
                        path,
                        status: Some(Status::Candidate),
                        description,
                    });
                }
                // A file with this id that the catalog could not parse.
                Ok(None) => unchanged.push(PromotedRecord {
                    path: self.record_path(&record),
                    id,
                    status: None,
                    description,
                }),
                Err(e) => {
                    for rel in &created {
                        // Best effort: the write error is what the caller reports.
                        let _ = self.store().remove(&lock, rel);
                    }
                    return Err(e.into());
                }
            }
        }
        written.sort_by(|a, b| a.id.cmp(&b.id));
        unchanged.sort_by(|a, b| a.id.cmp(&b.id));
        Ok(SessionPromoteReport {
            to: request.to,
            profile_path,
            written,
            unchanged,
            redactions: kept_redactions,
            warnings,
        })
    }

    fn create(
        &self,
        lock: &WriteLock,
        record: &Pending,
    ) -> Result<Option<String>, crate::store::Error> {
        match record {
            Pending::Preference(p) => self.store().create_preference_if_absent(lock, p),
            Pending::Memory(m) => self.store().create_memory_if_absent(lock, m),
        }
    }

    fn record_path(&self, record: &Pending) -> String {
        let layout = self.store().layout();
        let file = match record {
            Pending::Preference(p) => layout.preference_file(&p.id),
            Pending::Memory(m) => layout.memory_file(m.kind, &m.id),
        };
        layout.relative(&file)
    }
}
