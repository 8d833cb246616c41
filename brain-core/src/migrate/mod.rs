//! Migration of a RepoBrain store into records of this format. Pure: the files
//! come in as text ([`crate::store::import`] reads them) and records come out;
//! writing them is the facade's job ([`crate::Brain::import_repobrain`]).
//!
//! A RepoBrain record is a Markdown file with YAML front-matter between two
//! `---` lines. Memories live in `decisions/`, `gotchas/`, `conventions/`,
//! `patterns/`, `working/`, `goals/` and `archive/`; routing preferences
//! (`kind: routing_preference`) in `preferences/`.
//!
//! # Mapping of memories
//!
//! | RepoBrain | here |
//! | --- | --- |
//! | `type`, `title`, `summary` | `type`, `title`, `summary` |
//! | body | `detail`, without a first line `## TYPE` (the type in capitals) |
//! | `importance`, `risk_level`, `confidence`, `tags` | `importance`, `risk`, `confidence`, `tags` |
//! | `path_scope` ∪ `files` | `scope.paths` |
//! | `area` | `scope.modules` (`general` is left out: it means everywhere) |
//! | `recommended_skills`, `required_skills`, `suppressed_skills` | the same keys under `routing` |
//! | `skill_trigger_paths`, `skill_trigger_tasks`, `invocation_mode` | `routing.trigger_paths`, `routing.trigger_tasks`, `routing.invocation_mode` |
//! | `valid_from`, `observed_at` | `validity.*`; a date means the start of that day, UTC |
//! | `valid_until` | `validity.valid_until`; a date means the end of that day (`23:59:59Z`) |
//! | `expires` | `validity.expires`, a date or a timestamp as given |
//! | `version` | `lineage.version` |
//! | `supersedes`, `superseded_by`, `related` (paths of RepoBrain files) | ids of the migrated records |
//! | `source` `session` / `git-commit` / `manual` / `pr` | `provenance.source` `session` / `commit` / `manual` / `commit` plus a note in the evidence; absent: `import` |
//! | `origin: failure` | `provenance.source: failure` |
//! | `created_at`, else `date`, else `created` | `provenance.captured_at` |
//! | `source_episode` | evidence `{kind: session}` |
//! | `supersession_reason` | `notes` |
//! | `score`, `hit_count`, `last_used`, `updated` | dropped (usage data, volatile); counted in the report |
//!
//! Every record also gets the evidence note `imported from RepoBrain <path>`.
//!
//! Statuses: `active`, `candidate`, `done` and `stale` keep their names. An
//! active memory with `stale: true` becomes `stale`. A `superseded_by` that
//! names a migrated record makes the record `superseded` whatever its status
//! (RepoBrain's `supersede` command leaves the old memory `active` and
//! `stale`). `superseded` without `superseded_by` is how RepoBrain dismisses
//! a candidate: it becomes `dismissed`, review `rejected`, reason
//! `dismissed in RepoBrain`. A `superseded_by` that names no migrated record
//! is dropped, and a `superseded` record left without a successor becomes
//! `stale`. Review: every candidate is `pending`; `review_state: cleared`
//! becomes `approved`; `pending_review` on an active memory makes it a
//! candidate.
//!
//! # Mapping of preferences
//!
//! `target_type`, `target`, `preference`, `confidence` (RepoBrain reads an
//! absent one as 0.5), `status`, `task_hints`, `path_hints`, the validity and
//! lineage keys and `review_state` map as for memories; the body becomes
//! `reason` (with `supersession_reason` appended), `created_at` (else
//! `updated_at`) the capture time.
//!
//! # Ids and idempotence
//!
//! The id of a migrated record is [`MemoryId::generate`] over its title (for a
//! preference, `<preference> <target>`), its type (`preference`), its capture
//! time, `repobrain` and the RepoBrain path, so running the migration again
//! gives the same ids and the facade can skip records that already exist.
//!
//! # What is reported
//!
//! A file that does not parse, lacks a required key, has a value outside the
//! vocabulary, or yields a record with [`Memory::problems`] is not imported,
//! with the reason. Records that point at it lose that reference, so nothing
//! written ever dangles. Keys the mapping does not know are listed per file;
//! every adjustment above that changes meaning (dismissal, dropped
//! references) is a note.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fmt::Display;

use jiff::Timestamp;
use jiff::civil::Date;
use jiff::tz::TimeZone;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use crate::model::{
    Confidence, DateOrTime, Evidence, EvidenceKind, Lineage, Memory, MemoryId, MemoryType,
    Preference, PreferenceKind, Problem, Provenance, Review, ReviewState, Source, Status,
    TargetType, Validity,
};
use crate::store::import::RepoBrainFile;

mod report;

pub use report::{ImportedRecord, MigrateNote, MigrateReport, NotImported, UnmappedFields};

/// A record produced by the migration.
#[derive(Clone, Debug, PartialEq)]
pub enum Migrated {
    /// A memory.
    Memory(Memory),
    /// A routing preference.
    Preference(Preference),
}

impl Migrated {
    /// Returns the record's id.
    pub fn id(&self) -> &MemoryId {
        match self {
            Migrated::Memory(m) => &m.id,
            Migrated::Preference(p) => &p.id,
        }
    }

    /// Returns the record's status.
    pub fn status(&self) -> Status {
        match self {
            Migrated::Memory(m) => m.status,
            Migrated::Preference(p) => p.status,
        }
    }

    /// Returns the memory type, or `preference`.
    pub fn type_name(&self) -> &'static str {
        match self {
            Migrated::Memory(m) => m.kind.as_str(),
            Migrated::Preference(_) => "preference",
        }
    }
}

/// A record ready to be written.
#[derive(Clone, Debug, PartialEq)]
pub struct Planned {
    /// The RepoBrain file it came from.
    pub from: String,
    /// The normalized record; it has no [`Memory::problems`].
    pub record: Migrated,
}

/// Everything the migration decided, before anything is written.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Plan {
    /// Number of files read.
    pub files_read: usize,
    /// Records to write, in source order.
    pub records: Vec<Planned>,
    /// Files that produced no record.
    pub not_imported: Vec<NotImported>,
    /// Unknown keys of files that produced a record.
    pub unmapped: Vec<UnmappedFields>,
    /// Changes of meaning.
    pub notes: Vec<MigrateNote>,
    /// Usage keys left out, with the number of records that carried each.
    pub dropped_usage: BTreeMap<String, usize>,
}

/// Keys that hold usage data: volatile, never written to tracked files.
const USAGE_KEYS: [&str; 5] = ["score", "hit_count", "last_used", "updated", "updated_at"];

/// Maps every RepoBrain file to a record, or to a reason why it cannot be.
pub fn plan(files: &[RepoBrainFile]) -> Plan {
    let mut failures: Vec<(usize, NotImported)> = Vec::new();
    let mut parsed: Vec<(usize, Parsed)> = Vec::new();
    let mut ids: HashMap<MemoryId, String> = HashMap::new();
    for (n, file) in files.iter().enumerate() {
        let result = file
            .text
            .clone()
            .and_then(|text| parse_file(&file.path, &text));
        match result {
            Ok(p) => {
                if let Some(first) = ids.get(&p.id) {
                    let reason = format!("gives the same id `{}` as `{first}`", p.id);
                    failures.push((n, not_imported(&file.path, reason)));
                } else {
                    ids.insert(p.id.clone(), p.from.clone());
                    parsed.push((n, p));
                }
            }
            Err(reason) => failures.push((n, not_imported(&file.path, reason))),
        }
    }
    let resolver = Resolver::new(parsed.iter().map(|(_, p)| p));
    let mut excluded: BTreeSet<MemoryId> = BTreeSet::new();
    // A record that fails takes the references to it away from the others;
    // repeat until every remaining record builds.
    let built = loop {
        let mut built = Vec::new();
        let mut failed = Vec::new();
        for (n, p) in parsed.iter().filter(|(_, p)| !excluded.contains(&p.id)) {
            match build(p, &resolver, &excluded) {
                Ok(b) => built.push((*n, p, b)),
                Err(reason) => failed.push((*n, p, reason)),
            }
        }
        if failed.is_empty() {
            break built;
        }
        for (n, p, reason) in failed {
            excluded.insert(p.id.clone());
            failures.push((n, not_imported(&p.from, reason)));
        }
    };
    failures.sort_by_key(|(n, _)| *n);
    let mut plan = Plan {
        files_read: files.len(),
        not_imported: failures.into_iter().map(|(_, f)| f).collect(),
        ..Plan::default()
    };
    for (_, p, b) in built {
        if !b.unmapped.is_empty() {
            plan.unmapped.push(UnmappedFields {
                from: p.from.clone(),
                fields: b.unmapped,
            });
        }
        for message in b.notes {
            plan.notes.push(MigrateNote {
                from: p.from.clone(),
                message,
            });
        }
        for key in b.usage {
            *plan.dropped_usage.entry(key.to_owned()).or_default() += 1;
        }
        plan.records.push(Planned {
            from: p.from.clone(),
            record: b.record,
        });
    }
    plan
}

fn not_imported(from: &str, reason: String) -> NotImported {
    NotImported {
        from: from.to_owned(),
        reason,
    }
}

/// Splits a Markdown file into its YAML front-matter and its body. The file
/// must start with a `---` line; the front-matter ends at the next `---` line.
pub fn split_front_matter(text: &str) -> Option<(&str, &str)> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let rest = text
        .strip_prefix("---\n")
        .or_else(|| text.strip_prefix("---\r\n"))?;
    let mut offset = 0;
    for line in rest.split_inclusive('\n') {
        if line.trim_end_matches(['\n', '\r']) == "---" {
            return Some((&rest[..offset], &rest[offset + line.len()..]));
        }
        offset += line.len();
    }
    None
}

/// The front-matter keys of one file, remembering which ones were used.
#[derive(Clone, Debug)]
struct Fields {
    map: Map<String, Value>,
    used: BTreeSet<String>,
}

impl Fields {
    fn take(&mut self, key: &str) -> Option<Value> {
        self.used.insert(key.to_owned());
        self.map.get(key).filter(|v| !v.is_null()).cloned()
    }

    fn text(&mut self, key: &str) -> Result<Option<String>, String> {
        match self.take(key) {
            None => Ok(None),
            Some(Value::String(s)) => Ok(Some(s)),
            Some(v @ (Value::Number(_) | Value::Bool(_))) => Ok(Some(v.to_string())),
            Some(_) => Err(format!("`{key}` must be text")),
        }
    }

    fn list(&mut self, key: &str) -> Result<Vec<String>, String> {
        match self.take(key) {
            None => Ok(Vec::new()),
            Some(Value::String(s)) => Ok(vec![s]),
            Some(Value::Array(items)) => items
                .into_iter()
                .filter(|v| !v.is_null())
                .map(|v| match v {
                    Value::String(s) => Ok(s),
                    v @ (Value::Number(_) | Value::Bool(_)) => Ok(v.to_string()),
                    _ => Err(format!("`{key}` must be a list of texts")),
                })
                .collect(),
            Some(_) => Err(format!("`{key}` must be a list of texts")),
        }
    }

    fn word<T: DeserializeOwned>(&mut self, key: &str) -> Result<Option<T>, String> {
        match self.text(key)? {
            None => Ok(None),
            Some(s) => serde_json::from_value(Value::String(s.trim().to_owned()))
                .map(Some)
                .map_err(|e| format!("`{key}`: {e}")),
        }
    }

    fn time(&mut self, key: &str, end_of_day: bool) -> Result<Option<Timestamp>, String> {
        self.text(key)?
            .map(|s| parse_time(s.trim(), end_of_day).map_err(|e| format!("`{key}`: {e}")))
            .transpose()
    }

    fn flag(&mut self, key: &str) -> Result<bool, String> {
        match self.take(key) {
            None => Ok(false),
            Some(Value::Bool(b)) => Ok(b),
            Some(Value::String(s)) if s == "true" || s == "false" => Ok(s == "true"),
            Some(_) => Err(format!("`{key}` must be true or false")),
        }
    }

    fn confidence(&mut self, default: f64) -> Result<Confidence, String> {
        let value = match self.take("confidence") {
            None => default,
            Some(Value::Number(n)) => n.as_f64().unwrap_or(f64::NAN),
            Some(Value::String(s)) => s.trim().parse().unwrap_or(f64::NAN),
            Some(_) => f64::NAN,
        };
        Confidence::new(value).ok_or_else(|| "`confidence` must be a number from 0 to 1".into())
    }

    /// Keys present in the file and never asked for, sorted.
    fn unmapped(&self) -> Vec<String> {
        let mut keys: Vec<String> = self
            .map
            .keys()
            .filter(|k| !self.used.contains(*k))
            .cloned()
            .collect();
        keys.sort();
        keys
    }
}

/// A timestamp, or a date taken as the start (or the last second) of that day in UTC.
fn parse_time(s: &str, end_of_day: bool) -> Result<Timestamp, String> {
    if let Ok(t) = s.parse::<Timestamp>() {
        return Ok(t);
    }
    let date: Date = s
        .parse()
        .map_err(|_| format!("`{s}` is neither a date nor an RFC 3339 timestamp"))?;
    let time = if end_of_day {
        date.at(23, 59, 59, 0)
    } else {
        date.at(0, 0, 0, 0)
    };
    time.to_zoned(TimeZone::UTC)
        .map(|z| z.timestamp())
        .map_err(|e| format!("`{s}`: {e}"))
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Memory(MemoryType),
    Preference,
}

/// A file whose front-matter parsed and whose id is known.
#[derive(Clone, Debug)]
struct Parsed {
    from: String,
    kind: Kind,
    id: MemoryId,
    title: String,
    captured_at: Timestamp,
    fields: Fields,
    body: String,
}

fn parse_file(from: &str, text: &str) -> Result<Parsed, String> {
    let (yaml, body) = split_front_matter(text).ok_or_else(|| {
        "no YAML front-matter (the file must start with a `---` line and the front-matter end with one)"
            .to_owned()
    })?;
    let value = crate::yaml::to_json_value(yaml).map_err(|e| {
        // The front-matter starts on the file's second line.
        let at = match (e.line, e.column) {
            (Some(l), Some(c)) => format!(" at line {} column {c}", l + 1),
            (Some(l), None) => format!(" at line {}", l + 1),
            _ => String::new(),
        };
        format!("invalid YAML front-matter{at}: {}", e.message)
    })?;
    let Value::Object(map) = value else {
        return Err("the front-matter is not a mapping of keys to values".into());
    };
    let mut fields = Fields {
        map,
        used: BTreeSet::new(),
    };
    let in_preferences = from.starts_with("preferences/");
    let kind_word = fields.text("kind")?;
    let kind = match (kind_word.as_deref(), in_preferences) {
        (Some("routing_preference"), _) => Kind::Preference,
        (Some(other), true) => {
            return Err(format!("`kind` is `{other}`, not `routing_preference`"));
        }
        (None, true) => return Err("`kind: routing_preference` is missing".into()),
        (_, false) => {
            let t = fields
                .word::<MemoryType>("type")?
                .ok_or("`type` is missing")?;
            Kind::Memory(t)
        }
    };
    if kind_word.is_some() && kind != Kind::Preference {
        fields.used.remove("kind");
    }
    let captured_keys: &[&str] = match kind {
        Kind::Memory(_) => &["created_at", "date", "created"],
        Kind::Preference => &["created_at", "updated_at"],
    };
    let mut captured_at = None;
    for key in captured_keys {
        if let Some(t) = fields.time(key, false)? {
            captured_at.get_or_insert(t);
        }
    }
    let captured_at = captured_at.ok_or_else(|| {
        format!(
            "no capture time: none of {} is set",
            captured_keys
                .iter()
                .map(|k| format!("`{k}`"))
                .collect::<Vec<_>>()
                .join(", ")
        )
    })?;
    let captured = captured_at.to_string();
    let (title, id) = match kind {
        Kind::Memory(t) => {
            let title = fields.text("title")?.unwrap_or_default();
            // The id is made from the redacted title: no secret reaches a file name.
            let safe_title = crate::secrets::redact(title.trim()).0;
            let id = MemoryId::generate(&safe_title, &[t.as_str(), &captured, "repobrain", from]);
            (title, id)
        }
        Kind::Preference => {
            let pref = fields.text("preference")?.unwrap_or_default();
            let target = fields.text("target")?.unwrap_or_default();
            let title = format!("{} {}", pref.trim(), target.trim());
            let safe_title = crate::secrets::redact(&title).0;
            let id = MemoryId::generate(&safe_title, &["preference", &captured, "repobrain", from]);
            (title, id)
        }
    };
    Ok(Parsed {
        from: from.to_owned(),
        kind,
        id,
        title,
        captured_at,
        fields,
        body: body.to_owned(),
    })
}

/// Finds the migrated id a RepoBrain reference names: a path relative to
/// `.brain/` (with or without `.brain/` or `.md`), or a file stem.
struct Resolver {
    by_path: HashMap<String, MemoryId>,
    /// `None` when two files share the stem.
    by_stem: HashMap<String, Option<MemoryId>>,
}

impl Resolver {
    fn new<'a>(parsed: impl Iterator<Item = &'a Parsed>) -> Resolver {
        let mut r = Resolver {
            by_path: HashMap::new(),
            by_stem: HashMap::new(),
        };
        for p in parsed {
            r.by_path.insert(p.from.clone(), p.id.clone());
            let stem = stem(&p.from).to_owned();
            r.by_stem
                .entry(stem)
                .and_modify(|e| *e = None)
                .or_insert_with(|| Some(p.id.clone()));
        }
        r
    }

    fn resolve(&self, reference: &str) -> Option<&MemoryId> {
        let mut r = reference.trim().replace('\\', "/");
        while let Some(rest) = r.strip_prefix("./") {
            r = rest.to_owned();
        }
        let r = r.strip_prefix(".brain/").unwrap_or(&r);
        self.by_path
            .get(r)
            .or_else(|| self.by_path.get(&format!("{r}.md")))
            .or_else(|| self.by_stem.get(stem(r)).and_then(Option::as_ref))
    }
}

fn stem(path: &str) -> &str {
    let name = path.rsplit('/').next().unwrap_or(path);
    name.strip_suffix(".md").unwrap_or(name)
}

/// One record built from a parsed file.
#[derive(Debug)]
struct Built {
    record: Migrated,
    unmapped: Vec<String>,
    notes: Vec<String>,
    usage: Vec<&'static str>,
}

/// The sections memories and preferences share.
struct Common {
    status: Status,
    validity: Validity,
    lineage: Lineage,
    provenance: Provenance,
    review: Review,
    supersession_reason: Option<String>,
}

fn build(p: &Parsed, resolver: &Resolver, excluded: &BTreeSet<MemoryId>) -> Result<Built, String> {
    let mut f = p.fields.clone();
    let mut notes = Vec::new();
    let mut usage = Vec::new();
    for key in USAGE_KEYS {
        if f.take(key).is_some() {
            usage.push(key);
        }
    }
    let resolve = |reference: &str| {
        resolver
            .resolve(reference)
            .filter(|id| !excluded.contains(*id))
            .cloned()
    };
    let common = common(p, &mut f, &resolve, &mut notes)?;
    let (record, problems) = match p.kind {
        Kind::Memory(kind) => {
            let m = build_memory(p, kind, &mut f, common)?;
            let problems = m.problems();
            (Migrated::Memory(m), problems)
        }
        Kind::Preference => {
            let pref = build_preference(p, &mut f, common)?;
            let problems = pref.problems();
            (Migrated::Preference(pref), problems)
        }
    };
    if !problems.is_empty() {
        return Err(describe(&problems));
    }
    Ok(Built {
        record,
        unmapped: f.unmapped(),
        notes,
        usage,
    })
}

fn describe(problems: &[Problem]) -> String {
    problems
        .iter()
        .map(|p| format!("`{}`: {}", p.field, p.message))
        .collect::<Vec<_>>()
        .join("; ")
}

fn common(
    p: &Parsed,
    f: &mut Fields,
    resolve: &dyn Fn(&str) -> Option<MemoryId>,
    notes: &mut Vec<String>,
) -> Result<Common, String> {
    let validity = validity(f)?;
    let (lineage, by_given) = lineage(p, f, resolve, notes)?;
    let provenance = provenance(p, f, notes)?;
    let (status, review) = lifecycle(
        f,
        lineage.superseded_by.is_some(),
        by_given.is_some(),
        notes,
    )?;
    let supersession_reason = f
        .text("supersession_reason")?
        .map(|s| s.trim().to_owned())
        .filter(|s| !s.is_empty());
    Ok(Common {
        status,
        validity,
        lineage,
        provenance,
        review,
        supersession_reason,
    })
}

fn validity(f: &mut Fields) -> Result<Validity, String> {
    Ok(Validity {
        valid_from: f.time("valid_from", false)?,
        valid_until: f.time("valid_until", true)?,
        expires: f
            .text("expires")?
            .map(|s| s.trim().parse::<DateOrTime>())
            .transpose()
            .map_err(|e| format!("`expires`: {e}"))?,
        observed_at: f.time("observed_at", false)?,
    })
}

/// The lineage, and the raw `superseded_by` (which decides the status even
/// when it names nothing that was imported).
fn lineage(
    p: &Parsed,
    f: &mut Fields,
    resolve: &dyn Fn(&str) -> Option<MemoryId>,
    notes: &mut Vec<String>,
) -> Result<(Lineage, Option<String>), String> {
    let version = match f.take("version") {
        None => 1,
        Some(v) => v
            .as_u64()
            .and_then(|n| u32::try_from(n).ok())
            .ok_or("`version` must be a whole number")?,
    };
    let mut lineage = Lineage {
        version,
        ..Lineage::default()
    };
    let link = |key: &str, reference: &str, notes: &mut Vec<String>| {
        let id = resolve(reference);
        if id.is_none() {
            notes.push(format!(
                "`{key}`: `{reference}` names no imported RepoBrain record; reference dropped"
            ));
        }
        id
    };
    for reference in f.list("supersedes")? {
        lineage
            .supersedes
            .extend(link("supersedes", &reference, notes));
    }
    for reference in f.list("related")? {
        lineage.related.extend(link("related", &reference, notes));
    }
    let by_given = f.text("superseded_by")?.filter(|s| !s.trim().is_empty());
    lineage.superseded_by = by_given
        .as_deref()
        .and_then(|r| link("superseded_by", r, notes));
    // A record cannot name itself (a RepoBrain file could).
    lineage.supersedes.retain(|id| *id != p.id);
    lineage.related.retain(|id| *id != p.id);
    if lineage.superseded_by.as_ref() == Some(&p.id) {
        lineage.superseded_by = None;
    }
    Ok((lineage, by_given))
}

fn provenance(p: &Parsed, f: &mut Fields, notes: &mut Vec<String>) -> Result<Provenance, String> {
    let (mut source, mut evidence) = match f.text("source")?.as_deref().map(str::trim) {
        None => (Source::Import, Vec::new()),
        Some("session") => (Source::Session, Vec::new()),
        Some("git-commit") => (Source::Commit, Vec::new()),
        Some("manual") => (Source::Manual, Vec::new()),
        Some("pr") => (
            Source::Commit,
            vec![note_evidence("RepoBrain source `pr` (a pull request)")],
        ),
        Some(other) => {
            notes.push(format!(
                "`source: {other}` has no equivalent; source set to `import`"
            ));
            (Source::Import, Vec::new())
        }
    };
    match f.text("origin")?.as_deref() {
        None => {}
        Some("failure") => source = Source::Failure,
        Some(_) => {
            f.used.remove("origin");
        }
    }
    if let Some(episode) = f.text("source_episode")? {
        evidence.push(Evidence {
            kind: EvidenceKind::Session,
            value: episode.trim().to_owned(),
        });
    }
    evidence.push(note_evidence(format!("imported from RepoBrain {}", p.from)));
    evidence.retain(|e| !e.value.is_empty());
    Ok(Provenance {
        source,
        captured_at: p.captured_at,
        proposed_by: None,
        evidence,
    })
}

/// The status and review, from RepoBrain's status, `stale` flag,
/// `review_state` and whether `superseded_by` was given and resolved.
fn lifecycle(
    f: &mut Fields,
    linked: bool,
    by_given: bool,
    notes: &mut Vec<String>,
) -> Result<(Status, Review), String> {
    let raw: Status = f.word("status")?.unwrap_or(Status::Active);
    let stale = f.flag("stale")?;
    let review_state = f.text("review_state")?.map(|s| s.trim().to_owned());
    let pending = match review_state.as_deref() {
        None | Some("cleared") => false,
        Some("pending_review") => true,
        Some(other) => {
            return Err(format!(
                "`review_state`: unknown value `{other}` (expected pending_review or cleared)"
            ));
        }
    };
    let status = match raw {
        _ if linked => Status::Superseded,
        Status::Superseded if by_given => {
            notes
                .push("superseded, but its successor was not imported; imported as `stale`".into());
            Status::Stale
        }
        Status::Superseded => {
            notes.push(
                "`status: superseded` without `superseded_by` (a RepoBrain dismissal); imported as `dismissed`"
                    .into(),
            );
            Status::Dismissed
        }
        Status::Active if pending => {
            notes.push(
                "active but `review_state: pending_review`; imported as a candidate pending review"
                    .into(),
            );
            Status::Candidate
        }
        Status::Active if stale => Status::Stale,
        other => other,
    };
    let review = match status {
        Status::Candidate => {
            if review_state.as_deref() == Some("cleared") {
                notes.push("a candidate with `review_state: cleared`; kept pending review".into());
            }
            Review {
                state: Some(ReviewState::Pending),
                ..Review::default()
            }
        }
        Status::Dismissed => Review {
            state: Some(ReviewState::Rejected),
            reason: Some("dismissed in RepoBrain".into()),
            ..Review::default()
        },
        _ if pending => {
            notes.push(format!(
                "`review_state: pending_review` on a `{status}` record; review state dropped"
            ));
            Review::default()
        }
        _ if review_state.is_some() => Review {
            state: Some(ReviewState::Approved),
            ..Review::default()
        },
        _ => Review::default(),
    };
    Ok((status, review))
}

fn note_evidence(value: impl Display) -> Evidence {
    Evidence {
        kind: EvidenceKind::Note,
        value: value.to_string(),
    }
}

/// The body without a first `## TYPE` line, the heading RepoBrain writes.
fn strip_heading(body: &str, kind: MemoryType) -> String {
    let heading = format!("## {}", kind.as_str().to_uppercase());
    let trimmed = body.trim_start_matches(['\n', '\r']);
    let mut lines = trimmed.splitn(2, '\n');
    match lines.next() {
        Some(first) if first.trim_end() == heading => lines.next().unwrap_or("").to_owned(),
        _ => body.to_owned(),
    }
}

fn build_memory(p: &Parsed, kind: MemoryType, f: &mut Fields, c: Common) -> Result<Memory, String> {
    let summary = f.text("summary")?.unwrap_or_default();
    let mut m = Memory::new(
        p.id.clone(),
        kind,
        c.status,
        &p.title,
        summary,
        c.provenance,
    );
    m.detail = strip_heading(&p.body, kind);
    m.importance = f.word("importance")?.unwrap_or_default();
    m.risk = f.word("risk_level")?.unwrap_or_default();
    m.confidence = f.confidence(1.0)?;
    m.tags = f.list("tags")?;
    m.scope.paths = f.list("path_scope")?;
    m.scope.paths.extend(f.list("files")?);
    if let Some(area) = f.text("area")?.map(|a| a.trim().to_owned())
        && !area.is_empty()
        && area != "general"
    {
        m.scope.modules.push(area);
    }
    m.routing.recommended_skills = f.list("recommended_skills")?;
    m.routing.required_skills = f.list("required_skills")?;
    m.routing.suppressed_skills = f.list("suppressed_skills")?;
    m.routing.trigger_paths = f.list("skill_trigger_paths")?;
    m.routing.trigger_tasks = f.list("skill_trigger_tasks")?;
    m.routing.invocation_mode = f.word("invocation_mode")?.unwrap_or_default();
    m.validity = c.validity;
    m.lineage = c.lineage;
    m.review = c.review;
    if let Some(reason) = c.supersession_reason {
        m.notes = format!("Supersession reason (RepoBrain): {reason}");
    }
    m.normalize();
    Ok(m)
}

fn build_preference(p: &Parsed, f: &mut Fields, c: Common) -> Result<Preference, String> {
    let target_type: TargetType = f.word("target_type")?.ok_or("`target_type` is missing")?;
    let preference: PreferenceKind = f.word("preference")?.ok_or("`preference` is missing")?;
    let target = f.text("target")?.unwrap_or_default();
    let mut reason = p.body.trim().to_owned();
    if let Some(why) = c.supersession_reason {
        if !reason.is_empty() {
            reason.push_str("\n\n");
        }
        reason.push_str("Supersession reason (RepoBrain): ");
        reason.push_str(&why);
    }
    let mut pref = Preference {
        schema_version: crate::model::SchemaVersion::CURRENT,
        id: p.id.clone(),
        status: c.status,
        target_type,
        target,
        preference,
        // RepoBrain reads an absent confidence as 0.5.
        confidence: f.confidence(0.5)?,
        reason,
        task_hints: f.list("task_hints")?,
        path_hints: f.list("path_hints")?,
        validity: c.validity,
        lineage: c.lineage,
        provenance: c.provenance,
        review: c.review,
    };
    pref.normalize();
    Ok(pref)
}

#[cfg(test)]
mod tests;
