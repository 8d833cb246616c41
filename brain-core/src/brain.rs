//! The [`Brain`] facade: one call per command, combining the store with the
//! pure report builders. The CLI and doc examples go through it; the free
//! functions underneath stay public for tests.

use std::collections::BTreeMap;

use jiff::Timestamp;

use crate::config::{CaptureMode, Config, Workflow};
use crate::lint::{self, LintInput, LintReport};
use crate::model::{
    Evidence, Importance, Memory, MemoryId, MemoryType, Provenance, Review, ReviewState, Risk,
    Source, Status,
};
use crate::report::{
    self, AddReport, DismissReport, InitOutcomeName, InitReport, ListFilter, ListReport,
    LookupError, NormalizeReport, ShowReport, StatsReport, SupersedeReport,
};
use crate::secrets;
use crate::store::{self, Catalog, InitOutcome, Store};
use std::path::Path;

/// Errors of the facade.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The store failed.
    #[error(transparent)]
    Store(#[from] store::Error),
    /// An id did not select one memory.
    #[error(transparent)]
    Lookup(#[from] LookupError),
    /// The status change is not in the transition table, or the records
    /// cannot be linked.
    #[error("cannot {action} `{id}`: {message}")]
    Transition {
        /// The command.
        action: &'static str,
        /// The memory.
        id: String,
        /// Why.
        message: String,
    },
    /// The input for a new record is not acceptable.
    #[error("invalid {field}: {message}")]
    InvalidInput {
        /// The argument or field.
        field: &'static str,
        /// What is wrong.
        message: String,
    },
    /// An edited memory is not acceptable; nothing was written.
    #[error(
        "invalid edit of `{id}`{}{}: {message}",
        field.as_ref().map(|f| format!(", field `{f}`")).unwrap_or_default(),
        line.map(|l| format!(", line {l}")).unwrap_or_default()
    )]
    InvalidEdit {
        /// The memory.
        id: String,
        /// The dotted field that is wrong, when known.
        field: Option<String>,
        /// The line of the edited text, when known.
        line: Option<u32>,
        /// What is wrong.
        message: String,
    },
}

/// The fields of a memory added by hand.
#[derive(Clone, Debug, Default)]
pub struct NewMemory {
    /// Type.
    pub kind: Option<MemoryType>,
    /// Title (one line).
    pub title: String,
    /// Summary.
    pub summary: String,
    /// Detail (may be several lines).
    pub detail: String,
    /// Path globs of the scope.
    pub paths: Vec<String>,
    /// Modules of the scope.
    pub modules: Vec<String>,
    /// Tags.
    pub tags: Vec<String>,
    /// Importance (default medium).
    pub importance: Option<Importance>,
    /// Risk (default low).
    pub risk: Option<Risk>,
    /// `candidate` or `active`; default from the workflow's capture mode.
    pub status: Option<Status>,
    /// Evidence.
    pub evidence: Vec<Evidence>,
}

/// An opened store.
#[derive(Debug)]
pub struct Brain {
    store: Store,
}

impl Brain {
    /// Creates (or confirms) the store under `root`.
    pub fn init(root: &Path, workflow: Workflow, force: bool) -> Result<InitReport, Error> {
        let config = Config::for_workflow(workflow);
        let outcome = Store::init(root, &config, force)?;
        let layout = store::Layout::new(root);
        Ok(InitReport {
            outcome: match outcome {
                InitOutcome::Created => InitOutcomeName::Created,
                InitOutcome::AlreadyInitialized => InitOutcomeName::AlreadyInitialized,
                InitOutcome::Overwritten => InitOutcomeName::Overwritten,
            },
            config_path: layout.relative(&layout.config_file()),
            workflow,
            settings: config.settings(),
        })
    }

    /// Opens the store at `root/.brain`.
    pub fn open(root: &Path) -> Result<Brain, Error> {
        Ok(Brain {
            store: Store::open(root)?,
        })
    }

    /// Returns the underlying store.
    pub fn store(&self) -> &Store {
        &self.store
    }

    /// Loads every record (through the cache).
    pub fn catalog(&self) -> Catalog {
        self.store.load()
    }

    /// `brain list`.
    pub fn list(&self, catalog: Catalog, filter: &ListFilter) -> ListReport {
        report::list(catalog, filter)
    }

    /// `brain show`.
    pub fn show(&self, catalog: &Catalog, query: &str) -> Result<ShowReport, Error> {
        let found = report::find_memory(catalog, query)?;
        Ok(ShowReport {
            path: found.path.clone(),
            memory: found.record.clone(),
        })
    }

    /// `brain stats`.
    pub fn stats(&self, catalog: &Catalog) -> StatsReport {
        report::stats(catalog)
    }

    /// `brain add`: writes a new memory. `actor` is who proposes it.
    ///
    /// Secrets in any field are replaced by `[REDACTED:<kind>]` first (see
    /// [`crate::secrets`]) and listed in the report.
    pub fn add(
        &self,
        new: &NewMemory,
        now: Timestamp,
        actor: Option<&str>,
    ) -> Result<AddReport, Error> {
        let kind = new.kind.ok_or(Error::InvalidInput {
            field: "type",
            message: "a memory needs a type".into(),
        })?;
        let title = new.title.trim();
        if title.is_empty() || title.contains('\n') {
            return Err(Error::InvalidInput {
                field: "title",
                message: "give a non-empty, one-line title".into(),
            });
        }
        if new.summary.trim().is_empty() {
            return Err(Error::InvalidInput {
                field: "summary",
                message: "give a non-empty summary".into(),
            });
        }
        check_text_input(new)?;
        let status = match new.status {
            Some(s @ (Status::Candidate | Status::Active)) => s,
            Some(other) => {
                return Err(Error::InvalidInput {
                    field: "status",
                    message: format!("a new memory is `candidate` or `active`, not `{other}`"),
                });
            }
            None => match self.store.config().settings().capture_mode {
                CaptureMode::Direct => Status::Active,
                CaptureMode::Candidate => Status::Candidate,
            },
        };
        // Redact before the id is derived from the title, so no part of a
        // secret reaches the file name either.
        let mut template = Memory::new(
            MemoryId::generate("", &[]),
            kind,
            status,
            title,
            new.summary.clone(),
            Provenance {
                source: Source::Manual,
                captured_at: now,
                proposed_by: actor.map(str::to_owned),
                evidence: new.evidence.clone(),
            },
        );
        template.detail.clone_from(&new.detail);
        template.scope.paths.clone_from(&new.paths);
        template.scope.modules.clone_from(&new.modules);
        template.tags.clone_from(&new.tags);
        template.importance = new.importance.unwrap_or_default();
        template.risk = new.risk.unwrap_or_default();
        if status == Status::Candidate {
            template.review = Review {
                state: Some(ReviewState::Pending),
                ..Review::default()
            };
        }
        let mut redactions = secrets::redact_memory(&mut template);
        let captured = now.to_string();
        let actor_str = actor.unwrap_or_default();
        let (memory, path) = self.store.create_memory(|attempt| {
            let attempt = attempt.to_string();
            let mut m = template.clone();
            m.id = MemoryId::generate(
                &template.title,
                &[kind.as_str(), &captured, actor_str, &attempt],
            );
            m
        })?;
        for r in &mut redactions {
            r.id = memory.id.clone();
        }
        Ok(AddReport {
            id: memory.id,
            path,
            status: memory.status,
            redactions,
        })
    }

    /// `brain supersede NEW OLD`: `OLD` becomes `superseded` with
    /// `superseded_by: NEW`; `NEW` gains `OLD` in `supersedes` and one version.
    /// Both must be in force (`active`), or `OLD` may be `stale`.
    pub fn supersede(&self, new_query: &str, old_query: &str) -> Result<SupersedeReport, Error> {
        let lock = self.store.lock()?;
        // Under the lock the cache-validated load is current.
        let catalog = self.store.load();
        let new = report::find_memory(&catalog, new_query)?;
        let old = report::find_memory(&catalog, old_query)?;
        let refuse = |id: &MemoryId, message: String| Error::Transition {
            action: "supersede",
            id: id.to_string(),
            message,
        };
        if new.record.id == old.record.id {
            return Err(refuse(
                &old.record.id,
                "a memory cannot supersede itself".into(),
            ));
        }
        if new.record.status != Status::Active {
            return Err(refuse(
                &old.record.id,
                format!(
                    "the replacement `{}` is `{}`; approve it first so that the memory it replaces is never without an active successor",
                    new.record.id, new.record.status
                ),
            ));
        }
        if !old.record.status.can_become(Status::Superseded)
            || old.record.status == Status::Superseded
        {
            return Err(refuse(
                &old.record.id,
                format!(
                    "it is `{}`; only active or stale memories can be superseded",
                    old.record.status
                ),
            ));
        }
        let mut new_m = new.record.clone();
        let mut old_m = old.record.clone();
        new_m.lineage.supersedes.push(old_m.id.clone());
        new_m.lineage.version += 1;
        new_m.normalize();
        old_m.status = Status::Superseded;
        old_m.lineage.superseded_by = Some(new_m.id.clone());
        old_m.normalize();
        // The replacement first: a crash in between leaves a one-way link that
        // lint reports, never a superseded memory without a successor.
        self.store.rewrite_memory(&lock, &new.path, &new_m)?;
        self.store.rewrite_memory(&lock, &old.path, &old_m)?;
        Ok(SupersedeReport {
            new: report::StatusChange {
                id: new_m.id,
                path: new.path.clone(),
                from: new.record.status,
                to: new_m.status,
                version: new_m.lineage.version,
            },
            old: report::StatusChange {
                id: old_m.id,
                path: old.path.clone(),
                from: old.record.status,
                to: old_m.status,
                version: old_m.lineage.version,
            },
        })
    }

    /// `brain dismiss`: candidates become `dismissed`, their review
    /// `rejected` with the reason, time and actor. With no ids, every
    /// candidate is dismissed. Secrets in the reason are redacted.
    pub fn dismiss(
        &self,
        queries: &[String],
        reason: Option<&str>,
        now: Timestamp,
        actor: Option<&str>,
    ) -> Result<DismissReport, Error> {
        let lock = self.store.lock()?;
        let catalog = self.store.load();
        let targets: Vec<&store::Loaded<Memory>> = if queries.is_empty() {
            catalog
                .memories
                .iter()
                .filter(|l| l.record.status == Status::Candidate)
                .collect()
        } else {
            let mut found = Vec::new();
            for q in queries {
                let l = report::find_memory(&catalog, q)?;
                if !l.record.status.can_become(Status::Dismissed)
                    || l.record.status == Status::Dismissed
                {
                    return Err(Error::Transition {
                        action: "dismiss",
                        id: l.record.id.to_string(),
                        message: format!(
                            "it is `{}`; only candidates can be dismissed",
                            l.record.status
                        ),
                    });
                }
                if !found
                    .iter()
                    .any(|f: &&store::Loaded<Memory>| f.record.id == l.record.id)
                {
                    found.push(l);
                }
            }
            found
        };
        let reason = reason
            .map(str::trim)
            .filter(|r| !r.is_empty())
            .map(|r| secrets::redact(r).0);
        // Validate everything before writing anything.
        let mut updated = Vec::with_capacity(targets.len());
        for l in &targets {
            let mut m = l.record.clone();
            m.status = Status::Dismissed;
            m.review = Review {
                state: Some(ReviewState::Rejected),
                decided_at: Some(now),
                decided_by: actor.map(str::to_owned),
                reason: reason.clone(),
            };
            m.normalize();
            updated.push((l, m));
        }
        let mut dismissed = Vec::with_capacity(updated.len());
        for (l, m) in updated {
            self.store.rewrite_memory(&lock, &l.path, &m)?;
            dismissed.push(report::StatusChange {
                id: m.id,
                path: l.path.clone(),
                from: l.record.status,
                to: m.status,
                version: m.lineage.version,
            });
        }
        Ok(DismissReport { dismissed, reason })
    }

    /// `brain lint`.
    pub fn lint(&self) -> LintReport {
        let (sources, mut stray) = self.store.read_sources();
        stray.extend(self.store.unexpected_entries());
        let paths: Vec<&str> = sources.iter().map(|s| s.path.as_str()).collect();
        let head = store::git::head_texts(self.store.layout().root(), &paths);
        let layout = self.store.layout();
        let config_rel = layout.relative(&layout.config_file());
        let config_text = self.store.read_text(&config_rel).unwrap_or_default();
        let unknown = self.store.unknown_config_keys();
        lint::lint(&LintInput {
            sources: &sources,
            stray: &stray,
            head: &head,
            config: Some((&config_rel, &config_text, unknown)),
        })
    }

    /// `brain check`: every check in [`crate::check::CHECKS`], with
    /// transitions judged against `base` (a revision), or against `HEAD`
    /// when no base is given and there is a commit, and the export plans
    /// of every format (`exports`) checked for drift.
    ///
    /// # Errors
    ///
    /// `base` was given and names no commit, or its tree cannot be read.
    pub fn check(
        &self,
        base: Option<&str>,
        exports: &[(crate::export::Target, crate::export::ExportPlan)],
    ) -> Result<crate::check::CheckReport, store::git::GitError> {
        let root = self.store.layout().root();
        let (base_texts, base_name) = match base {
            Some(rev) => (
                store::git::tree_texts(root, rev, store::BRAIN_DIR)?,
                Some(rev.to_owned()),
            ),
            None => match store::git::tree_texts(root, "HEAD", store::BRAIN_DIR) {
                Ok(texts) => (texts, Some("HEAD".to_owned())),
                Err(_) => (BTreeMap::new(), None),
            },
        };
        let (sources, mut stray) = self.store.read_sources();
        stray.extend(self.store.unexpected_entries());
        let layout = self.store.layout();
        let config_rel = layout.relative(&layout.config_file());
        let config_text = self.store.read_text(&config_rel).unwrap_or_default();
        let unknown = self.store.unknown_config_keys();
        let input = crate::check::CheckInput {
            sources: &sources,
            stray: &stray,
            config: Some((&config_rel, &config_text, unknown)),
            base: &base_texts,
            exports,
        };
        Ok(crate::check::check(&input, base_name))
    }

    /// `brain normalize`: rewrites every parseable record file that is not in
    /// canonical form, or with `check` only reports them.
    /// With `diff`, the report carries a unified diff per changed file.
    pub fn normalize(&self, check: bool, diff: bool) -> Result<NormalizeReport, Error> {
        let lock = if check {
            None
        } else {
            Some(self.store.lock()?)
        };
        let (sources, stray) = self.store.read_sources();
        let mut changed = Vec::new();
        let mut diffs = Vec::new();
        let mut skipped = stray;
        for source in &sources {
            let text = match &source.text {
                Ok(t) => t,
                Err(message) => {
                    skipped.push(store::FileProblem::whole_file(
                        &source.path,
                        message.clone(),
                    ));
                    continue;
                }
            };
            match lint::canonical_text(source.dir, text) {
                Ok(canonical) if canonical != *text => {
                    if diff {
                        let text_diff =
                            similar::TextDiff::from_lines(text.as_str(), canonical.as_str());
                        diffs.push(report::FileDiff {
                            path: source.path.clone(),
                            diff: text_diff
                                .unified_diff()
                                .header(&source.path, &source.path)
                                .to_string(),
                        });
                    }
                    if let Some(lock) = &lock {
                        self.store.rewrite(lock, &source.path, &canonical)?;
                    }
                    changed.push(source.path.clone());
                }
                Ok(_) => {}
                Err(e) => skipped.push(store::FileProblem::from_yaml(&source.path, e)),
            }
        }
        skipped.sort_by(|a, b| a.path.cmp(&b.path));
        Ok(NormalizeReport {
            check,
            files_checked: sources.len(),
            changed,
            diffs,
            skipped,
        })
    }
}

impl Brain {
    /// `brain import --from-repobrain DIR`: migrates the RepoBrain store at
    /// `dir` (its project root or its `.brain/` directory).
    ///
    /// Every file is mapped and checked before anything is written; records
    /// whose id already exists are skipped, so running it again writes nothing
    /// new. Writes happen under the write lock, one new file at a time, each
    /// atomically. Secrets in the records are redacted before writing. With
    /// `dry_run`, nothing is written and the report says what would be.
    pub fn import_repobrain(
        &self,
        dir: &Path,
        dry_run: bool,
    ) -> Result<crate::migrate::MigrateReport, Error> {
        use crate::migrate::{self, ImportedRecord, Migrated};
        let files = store::import::read_repobrain_tree(dir)?;
        let mut plan = migrate::plan(&files);
        let records = std::mem::take(&mut plan.records);
        let lock = if dry_run {
            None
        } else {
            Some(self.store.lock()?)
        };
        let layout = self.store.layout();
        let mut outcomes = Vec::with_capacity(records.len());
        let mut redactions = Vec::new();
        for mut planned in records {
            let redacted = match &mut planned.record {
                Migrated::Memory(m) => {
                    let found = secrets::redact_memory(m);
                    m.normalize();
                    found
                }
                Migrated::Preference(p) => {
                    let found = secrets::redact_preference(p);
                    p.normalize();
                    found
                }
            };
            let record = &planned.record;
            let file = match record {
                Migrated::Memory(m) => layout.memory_file(m.kind, &m.id),
                Migrated::Preference(p) => layout.preference_file(&p.id),
            };
            let written = match (&lock, record) {
                (None, _) => !self.store.record_exists(record.id()),
                (Some(lock), Migrated::Memory(m)) => {
                    self.store.create_memory_if_absent(lock, m)?.is_some()
                }
                (Some(lock), Migrated::Preference(p)) => {
                    self.store.create_preference_if_absent(lock, p)?.is_some()
                }
            };
            if written {
                redactions.extend(redacted);
            }
            outcomes.push((
                ImportedRecord {
                    id: record.id().clone(),
                    kind: record.type_name().to_owned(),
                    status: record.status(),
                    path: layout.relative(&file),
                    from: planned.from,
                },
                written,
            ));
        }
        Ok(plan.into_report(outcomes, redactions, dry_run))
    }
}

/// Refuses control characters (other than line breaks and tabs in the
/// detail) and a detail larger than [`crate::extract::MAX_INPUT_BYTES`]: the
/// same limits as captured text.
fn check_text_input(new: &NewMemory) -> Result<(), Error> {
    if new.detail.len() > crate::extract::MAX_INPUT_BYTES {
        return Err(Error::InvalidInput {
            field: "detail",
            message: format!(
                "{} bytes is more than the limit of {} bytes",
                new.detail.len(),
                crate::extract::MAX_INPUT_BYTES
            ),
        });
    }
    let one_line = [("title", &new.title)];
    let lists = [
        ("tags", &new.tags),
        ("paths", &new.paths),
        ("modules", &new.modules),
    ];
    let fields = one_line
        .into_iter()
        .map(|(f, t)| (f, t.as_str(), false))
        .chain([
            ("summary", new.summary.as_str(), true),
            ("detail", new.detail.as_str(), true),
        ])
        .chain(
            lists
                .into_iter()
                .flat_map(|(f, l)| l.iter().map(move |t| (f, t.as_str(), false))),
        );
    for (field, text, multiline) in fields {
        if let Some((c, col)) = crate::model::control_char(text, multiline) {
            return Err(Error::InvalidInput {
                field,
                message: format!(
                    "control character U+{:04X} at column {col} (terminal escapes, carriage returns and NUL bytes are refused)",
                    u32::from(c)
                ),
            });
        }
    }
    Ok(())
}
