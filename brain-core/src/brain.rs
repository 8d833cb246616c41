//! The [`Brain`] facade: one call per command, combining the store with the
//! pure report builders. The CLI and doc examples go through it; the free
//! functions underneath stay public for tests.

use jiff::Timestamp;

use crate::config::{CaptureMode, Config, Workflow};
use crate::lint::{self, LintInput, LintReport};
use crate::model::{
    Evidence, Importance, Memory, MemoryId, MemoryType, Provenance, Review, ReviewState, Risk,
    Source, Status,
};
use crate::report::{
    self, AddReport, InitOutcomeName, InitReport, ListFilter, ListReport, LookupError,
    NormalizeReport, ShowReport, StatsReport,
};
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
    /// The input for a new record is not acceptable.
    #[error("invalid {field}: {message}")]
    InvalidInput {
        /// The argument or field.
        field: &'static str,
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
        let captured = now.to_string();
        let actor_str = actor.unwrap_or_default();
        let (memory, path) = self.store.create_memory(|attempt| {
            let attempt = attempt.to_string();
            let id = MemoryId::generate(title, &[kind.as_str(), &captured, actor_str, &attempt]);
            let mut m = Memory::new(
                id,
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
            m.detail.clone_from(&new.detail);
            m.scope.paths.clone_from(&new.paths);
            m.scope.modules.clone_from(&new.modules);
            m.tags.clone_from(&new.tags);
            m.importance = new.importance.unwrap_or_default();
            m.risk = new.risk.unwrap_or_default();
            if status == Status::Candidate {
                m.review = Review {
                    state: Some(ReviewState::Pending),
                    ..Review::default()
                };
            }
            m
        })?;
        Ok(AddReport {
            id: memory.id,
            path,
            status: memory.status,
        })
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
