//! The only module that touches the file system: the `.brain/` layout, loading,
//! atomic writes and the write lock.
//!
//! ```text
//! .brain/
//!   config.yaml            workflow preset and settings
//!   .gitignore             `runtime/`
//!   decisions/ gotchas/ conventions/ patterns/ goals/ working/   <id>.yaml, one memory each
//!   preferences/           <id>.yaml, one routing preference each
//!   runtime/               git-ignored: caches, locks, counters, session state, logs
//! ```
//!
//! Reading never writes a tracked file: everything a read produces (the parsed
//! catalog cache) goes to `runtime/`, which also carries its own `.gitignore` so
//! that it stays ignored even if `.brain/.gitignore` is lost.

mod error;
mod feedback;
pub mod git;
pub mod import;
mod index;
mod load;
mod profile;
mod runtime;
pub mod vectors;
mod write;

use std::path::{Component, Path, PathBuf};

pub use error::Error;
pub use index::StoreIndex;
pub use load::{CacheStats, Catalog, FileProblem, Loaded};
pub use write::{LOCK_TIMEOUT, WriteLock};

use crate::config::Config;
use crate::model::{Memory, MemoryId, MemoryType, Preference};
use crate::yaml;

/// Name of the store directory at the repository root.
pub const BRAIN_DIR: &str = ".brain";

/// A directory that holds record files.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum RecordDir {
    /// One of the six memory directories.
    Memories(MemoryType),
    /// `preferences/`.
    Preferences,
}

impl RecordDir {
    /// Every record directory, in listing order.
    pub const ALL: [RecordDir; 7] = [
        RecordDir::Memories(MemoryType::Decision),
        RecordDir::Memories(MemoryType::Gotcha),
        RecordDir::Memories(MemoryType::Convention),
        RecordDir::Memories(MemoryType::Pattern),
        RecordDir::Memories(MemoryType::Goal),
        RecordDir::Memories(MemoryType::Working),
        RecordDir::Preferences,
    ];

    /// Returns the directory name under `.brain/`.
    pub fn name(self) -> &'static str {
        match self {
            RecordDir::Memories(t) => t.dir_name(),
            RecordDir::Preferences => "preferences",
        }
    }
}

/// Paths of one store.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    root: PathBuf,
    brain: PathBuf,
}

impl Layout {
    /// The layout of the store in `root/.brain`.
    pub fn new(root: impl Into<PathBuf>) -> Layout {
        let root = root.into();
        let brain = root.join(BRAIN_DIR);
        Layout { root, brain }
    }

    /// Returns the repository root (the directory containing `.brain/`).
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Returns the `.brain/` directory.
    pub fn brain_dir(&self) -> &Path {
        &self.brain
    }

    /// Returns the path of `config.yaml`.
    pub fn config_file(&self) -> PathBuf {
        self.brain.join("config.yaml")
    }

    /// Returns the path of a record directory.
    pub fn record_dir(&self, dir: RecordDir) -> PathBuf {
        self.brain.join(dir.name())
    }

    /// Returns the path of `runtime/`.
    pub fn runtime_dir(&self) -> PathBuf {
        self.brain.join("runtime")
    }

    /// Returns the path of the parsed-catalog cache.
    pub fn cache_file(&self) -> PathBuf {
        self.runtime_dir().join("cache").join("catalog.bin")
    }

    /// Returns the path of the write lock.
    pub fn lock_file(&self) -> PathBuf {
        self.runtime_dir().join("write.lock")
    }

    /// Returns the file of a memory.
    pub fn memory_file(&self, kind: MemoryType, id: &MemoryId) -> PathBuf {
        self.record_dir(RecordDir::Memories(kind))
            .join(format!("{id}.yaml"))
    }

    /// Returns the file of a preference.
    pub fn preference_file(&self, id: &MemoryId) -> PathBuf {
        self.record_dir(RecordDir::Preferences)
            .join(format!("{id}.yaml"))
    }

    /// Returns `path` relative to the root, `/`-separated, for messages and JSON.
    pub fn relative(&self, path: &Path) -> String {
        let rel = path.strip_prefix(&self.root).unwrap_or(path);
        let parts: Vec<String> = rel
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect();
        parts.join("/")
    }

    /// Resolves a root-relative path produced by [`Layout::relative`], refusing
    /// anything that would leave the store.
    pub fn resolve(&self, rel: &str) -> Result<PathBuf, Error> {
        let p = Path::new(rel);
        let inside_brain =
            p.starts_with(BRAIN_DIR) && p.components().all(|c| matches!(c, Component::Normal(_)));
        if inside_brain {
            Ok(self.root.join(p))
        } else {
            Err(Error::OutsideStore {
                path: rel.to_owned(),
            })
        }
    }
}

/// What `init` did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InitOutcome {
    /// A new store was created.
    Created,
    /// The store existed with the same config; missing directories were added.
    AlreadyInitialized,
    /// The existing config differed and was replaced (`--force`).
    Overwritten,
}

/// An opened store: its layout and config.
#[derive(Clone, Debug)]
pub struct Store {
    layout: Layout,
    config: Config,
    unknown_config_keys: Vec<String>,
}

impl Store {
    /// Creates the layout under `root` with `config`. Idempotent: an existing
    /// store with an equal config is left as it is (missing directories are
    /// added); a different existing config is an error unless `force` is set.
    pub fn init(root: &Path, config: &Config, force: bool) -> Result<InitOutcome, Error> {
        let layout = Layout::new(root);
        let config_path = layout.config_file();
        let text = yaml::config_to_string(config);
        std::fs::create_dir_all(layout.brain_dir()).map_err(|source| Error::Write {
            path: layout.brain_dir().to_path_buf(),
            source,
        })?;
        let _lock = WriteLock::acquire(&layout.lock_file(), LOCK_TIMEOUT)?;
        ensure_runtime_ignored(&layout)?;
        let outcome = match std::fs::read(&config_path) {
            Ok(existing) => {
                // A config that is not UTF-8 is a different config.
                let same = std::str::from_utf8(&existing)
                    .is_ok_and(|text| yaml::parse_config(text).is_ok_and(|(c, _)| &c == config));
                if same {
                    InitOutcome::AlreadyInitialized
                } else if force {
                    write::write_atomic(&config_path, text.as_bytes(), true)?;
                    InitOutcome::Overwritten
                } else {
                    return Err(Error::ConfigExists { path: config_path });
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                write::write_atomic(&config_path, text.as_bytes(), false)?;
                InitOutcome::Created
            }
            Err(source) => {
                return Err(Error::Read {
                    path: config_path,
                    source,
                });
            }
        };
        ensure_brain_ignores(&layout)?;
        for dir in RecordDir::ALL {
            let path = layout.record_dir(dir);
            std::fs::create_dir_all(&path).map_err(|source| Error::Write { path, source })?;
        }
        Ok(outcome)
    }

    /// Opens the store at `root/.brain`, reading and checking its config.
    pub fn open(root: &Path) -> Result<Store, Error> {
        let layout = Layout::new(root);
        if !layout.brain_dir().is_dir() {
            return Err(Error::NotInitialized {
                root: root.to_path_buf(),
            });
        }
        let config_path = layout.config_file();
        let (config, unknown) = match std::fs::read(&config_path) {
            Ok(bytes) => {
                let text = String::from_utf8(bytes).map_err(|e| Error::NotUtf8 {
                    path: config_path.clone(),
                    offset: e.utf8_error().valid_up_to(),
                })?;
                let (config, unknown) =
                    yaml::parse_config(&text).map_err(|source| Error::Config {
                        path: config_path.clone(),
                        source,
                    })?;
                if let Some(p) = config.problems().into_iter().next() {
                    return Err(Error::ConfigValue {
                        path: config_path,
                        key: p.key.to_owned(),
                        message: p.message,
                    });
                }
                (config, unknown)
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Err(Error::NotInitialized {
                    root: root.to_path_buf(),
                });
            }
            Err(source) => {
                return Err(Error::Read {
                    path: config_path,
                    source,
                });
            }
        };
        Ok(Store {
            layout,
            config,
            unknown_config_keys: unknown,
        })
    }

    /// Returns the layout.
    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    /// Returns the config.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// Returns the dotted paths of config keys this build does not know.
    pub fn unknown_config_keys(&self) -> &[String] {
        &self.unknown_config_keys
    }

    /// Returns one warning per unknown config key.
    pub fn config_warnings(&self) -> Vec<String> {
        let rel = self.layout.relative(&self.layout.config_file());
        let known = yaml::config_keys();
        self.unknown_config_keys
            .iter()
            .map(
                |key| match crate::model::closest(key, known.iter().map(String::as_str)) {
                    Some(k) => {
                        format!("{rel}: unknown key `{key}` is ignored (did you mean `{k}`?)")
                    }
                    None => format!("{rel}: unknown key `{key}` is ignored"),
                },
            )
            .collect()
    }

    /// Loads every record, served from and refreshing the runtime cache.
    pub fn load(&self) -> Catalog {
        self.ensure_runtime();
        load::load(&self.layout, true)
    }

    /// Loads the retrieval index: from `runtime/cache/index.bin` when every
    /// record file is unchanged, else by loading the store and rebuilding it.
    pub fn load_index(&self) -> StoreIndex {
        self.ensure_runtime();
        index::load(&self.layout)
    }

    /// Every preference that parses, in path order (for a fast load that
    /// skipped the catalog; [`StoreIndex::problems`] names the others).
    pub fn read_preferences(&self) -> Vec<Preference> {
        index::read_preferences(&self.layout)
    }

    /// Reads and parses one memory file (`rel` relative to the root).
    ///
    /// # Errors
    /// When it cannot be read or parsed, with the file's problem.
    pub fn read_memory(&self, rel: &str) -> Result<Memory, FileProblem> {
        index::read_memory(&self.layout, rel)
    }

    /// Loads every record by parsing every file, without touching the cache.
    pub fn load_uncached(&self) -> Catalog {
        load::load(&self.layout, false)
    }

    fn ensure_runtime(&self) {
        // Best effort: a read-only checkout still loads, just without a cache.
        let _ = ensure_runtime_ignored(&self.layout);
    }

    /// Takes the write lock; hold it across a read-modify-write. Temporary
    /// files a killed writer left in the record directories are removed.
    pub fn lock(&self) -> Result<WriteLock, Error> {
        self.ensure_runtime();
        let lock = WriteLock::acquire(&self.layout.lock_file(), LOCK_TIMEOUT)?;
        write::remove_stale_partials(self.layout.brain_dir());
        for dir in RecordDir::ALL {
            write::remove_stale_partials(&self.layout.record_dir(dir));
        }
        Ok(lock)
    }

    /// Writes a new memory built by `make`, which is called with an attempt
    /// number until it yields an id that no record in the store uses yet.
    /// Takes the write lock. Returns the memory as written and its relative path.
    pub fn create_memory(
        &self,
        mut make: impl FnMut(u32) -> Memory,
    ) -> Result<(Memory, String), Error> {
        let _lock = self.lock()?;
        for attempt in 0..1000 {
            let memory = make(attempt);
            if self.id_in_use(&memory.id) {
                continue;
            }
            let (memory, text) = sealed_memory(&memory);
            let path = self.layout.memory_file(memory.kind, &memory.id);
            write::write_atomic(&path, text.as_bytes(), false)?;
            return Ok((memory, self.layout.relative(&path)));
        }
        Err(Error::IdExhausted)
    }

    /// Replaces the contents of an existing record file given by its relative path.
    /// The caller holds the write lock. Used for canonical rewrites of what
    /// is already in the file (`normalize`); records built by a command go
    /// through [`Store::rewrite_memory`] or [`Store::rewrite_preference`].
    pub fn rewrite(&self, _lock: &WriteLock, rel: &str, text: &str) -> Result<(), Error> {
        let path = self.layout.resolve(rel)?;
        write::write_atomic(&path, text.as_bytes(), true)
    }

    /// Replaces an existing memory file (relative path `rel`) with `memory`,
    /// sealed (see [`sealed_memory`]). The caller holds the write lock.
    pub fn rewrite_memory(
        &self,
        lock: &WriteLock,
        rel: &str,
        memory: &Memory,
    ) -> Result<(), Error> {
        self.rewrite(lock, rel, &sealed_memory(memory).1)
    }

    /// Replaces an existing preference file (relative path `rel`) with
    /// `preference`, sealed. The caller holds the write lock.
    pub fn rewrite_preference(
        &self,
        lock: &WriteLock,
        rel: &str,
        preference: &Preference,
    ) -> Result<(), Error> {
        self.rewrite(lock, rel, &sealed_preference(preference).1)
    }

    /// Moves a memory whose type changed to its type's directory: writes
    /// it, sealed, as the new file in full (a temporary file renamed without
    /// clobbering), then removes the old file `from`; if that fails, the new
    /// file is removed again. Returns the new relative path. The caller holds
    /// the write lock.
    pub fn move_memory(
        &self,
        _lock: &WriteLock,
        from: &str,
        memory: &Memory,
    ) -> Result<String, Error> {
        let old = self.layout.resolve(from)?;
        let (memory, text) = sealed_memory(memory);
        let new = self.layout.memory_file(memory.kind, &memory.id);
        write::write_atomic(&new, text.as_bytes(), false)?;
        if let Err(source) = std::fs::remove_file(&old) {
            let _ = std::fs::remove_file(&new);
            return Err(Error::Write { path: old, source });
        }
        Ok(self.layout.relative(&new))
    }

    /// Removes a record file given by its relative path (a candidate merged
    /// into another memory). The caller holds the write lock.
    pub fn remove(&self, _lock: &WriteLock, rel: &str) -> Result<(), Error> {
        let path = self.layout.resolve(rel)?;
        std::fs::remove_file(&path).map_err(|source| Error::Write { path, source })
    }

    /// Reads a record file given by its relative path.
    pub fn read_text(&self, rel: &str) -> Result<String, Error> {
        let path = self.layout.resolve(rel)?;
        std::fs::read_to_string(&path).map_err(|source| Error::Read { path, source })
    }

    /// Reads every record file as text, in path order, in parallel; files that
    /// are not records come back as problems.
    pub fn read_sources(&self) -> (Vec<Source>, Vec<FileProblem>) {
        use rayon::prelude::*;
        let (files, problems) = load::list_files(&self.layout);
        let sources = files
            .into_par_iter()
            .map(|f| Source {
                text: std::fs::read(&f.abs)
                    .map_err(|e| format!("cannot read: {e}"))
                    .and_then(|b| {
                        String::from_utf8(b).map_err(|_| "file is not valid UTF-8".to_owned())
                    }),
                path: f.rel,
                dir: f.dir,
            })
            .collect();
        (sources, problems)
    }

    /// Returns entries directly under `.brain/` that are not part of the layout
    /// (a `decision/` typo, a stray file), which no command would ever read.
    /// Hidden entries other than the known ones are ignored.
    pub fn unexpected_entries(&self) -> Vec<FileProblem> {
        let known: Vec<&str> = RecordDir::ALL
            .iter()
            .map(|d| d.name())
            .chain(["config.yaml", "runtime"])
            .collect();
        walkdir::WalkDir::new(self.layout.brain_dir())
            .min_depth(1)
            .max_depth(1)
            .sort_by_file_name()
            .into_iter()
            .filter_map(Result::ok)
            .filter_map(|entry| {
                let name = entry.file_name().to_string_lossy().into_owned();
                if name.starts_with('.') || known.contains(&name.as_str()) {
                    return None;
                }
                let rel = self.layout.relative(entry.path());
                let message = match crate::model::closest(&name, known.iter().copied()) {
                    Some(k) => format!("unexpected entry in `.brain/`; did you mean `{k}`?"),
                    None => "unexpected entry in `.brain/`: nothing reads it".to_owned(),
                };
                Some(FileProblem::whole_file(&rel, message))
            })
            .collect()
    }

    /// Writes `memory` in canonical form as a new file, unless a record with its
    /// id already exists in any record directory. Returns the relative path
    /// written, or `None` when the id was taken. The caller holds the write lock.
    pub fn create_memory_if_absent(
        &self,
        _lock: &WriteLock,
        memory: &Memory,
    ) -> Result<Option<String>, Error> {
        let path = self.layout.memory_file(memory.kind, &memory.id);
        self.create_if_absent(&memory.id, &path, &sealed_memory(memory).1)
    }

    /// Like [`Store::create_memory_if_absent`], for a preference.
    pub fn create_preference_if_absent(
        &self,
        _lock: &WriteLock,
        preference: &Preference,
    ) -> Result<Option<String>, Error> {
        let path = self.layout.preference_file(&preference.id);
        self.create_if_absent(&preference.id, &path, &sealed_preference(preference).1)
    }

    fn create_if_absent(
        &self,
        id: &MemoryId,
        path: &Path,
        text: &str,
    ) -> Result<Option<String>, Error> {
        if self.id_in_use(id) {
            return Ok(None);
        }
        match write::write_atomic(path, text.as_bytes(), false) {
            Ok(()) => Ok(Some(self.layout.relative(path))),
            Err(Error::Write { source, .. })
                if source.kind() == std::io::ErrorKind::AlreadyExists =>
            {
                Ok(None)
            }
            Err(e) => Err(e),
        }
    }

    /// Returns whether any record directory holds a file for `id`.
    pub fn record_exists(&self, id: &MemoryId) -> bool {
        self.id_in_use(id)
    }

    fn id_in_use(&self, id: &MemoryId) -> bool {
        RecordDir::ALL.into_iter().any(|dir| {
            self.layout
                .record_dir(dir)
                .join(format!("{id}.yaml"))
                .exists()
        })
    }

    /// Writes `text` to `runtime/<name>` (a draft an editor opens, as git's
    /// `COMMIT_EDITMSG`), creating `runtime/` when absent, and returns the
    /// file's absolute path. Needs no write lock: `runtime/` is never tracked.
    pub fn write_runtime_file(&self, name: &str, text: &str) -> Result<PathBuf, Error> {
        if name.is_empty() || name == "." || name == ".." || name.contains(['/', '\\']) {
            return Err(Error::OutsideStore {
                path: format!("runtime/{name}"),
            });
        }
        ensure_runtime_ignored(&self.layout)?;
        let path = self.layout.runtime_dir().join(name);
        write::write_atomic(&path, text.as_bytes(), true)?;
        Ok(path)
    }

    /// Appends one line to the log `name` in `runtime/` (`extractor.log`),
    /// creating `runtime/` (with its `.gitignore`) and the file when absent.
    /// The line gets a final newline if it lacks one and is written with one
    /// `O_APPEND` write, so lines of concurrent processes do not interleave.
    /// Needs no write lock: `runtime/` is never tracked.
    pub fn append_runtime_log(&self, name: &str, line: &str) -> Result<(), Error> {
        use std::io::Write as _;
        if name.is_empty() || name == "." || name == ".." || name.contains(['/', '\\']) {
            return Err(Error::OutsideStore {
                path: format!("runtime/{name}"),
            });
        }
        ensure_runtime_ignored(&self.layout)?;
        let path = self.layout.runtime_dir().join(name);
        write::refuse_symlinks(&path)?;
        // The last line of the secret firewall: a log line never holds a
        // secret, whatever its writer passed in.
        let mut text = crate::secrets::redact_log_text(line);
        if !text.ends_with('\n') {
            text.push('\n');
        }
        std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&path)
            .and_then(|mut f| f.write_all(text.as_bytes()))
            .map_err(|source| Error::Write { path, source })
    }

    /// Returns the vector cache file of `id`: `runtime/vectors/<key>.bin`.
    pub fn vectors_file(&self, id: &crate::embed::EmbedderId) -> PathBuf {
        vectors::path(&self.layout, id)
    }

    /// Streams the vector cache of `id` to `row` (hash, vector, rows in
    /// the file) without keeping it in memory. `Ok(false)` when there is no
    /// cache; an error (why the file is unusable) means the rows already
    /// passed must be discarded.
    ///
    /// # Errors
    /// When the file cannot be read or is not a valid cache for `id`.
    pub fn scan_vectors(
        &self,
        id: &crate::embed::EmbedderId,
        row: &mut dyn FnMut(&crate::embed::ContentHash, &[f32], usize),
    ) -> Result<bool, String> {
        vectors::scan(&self.layout, id, row)
    }

    /// Loads the vector cache of `id`: empty when absent, empty with a warning
    /// when unusable (corrupt, another version or dimension).
    pub fn load_vectors(
        &self,
        id: &crate::embed::EmbedderId,
    ) -> (crate::embed::VectorCache, Vec<String>) {
        vectors::load(&self.layout, id)
    }

    /// Writes the vector cache atomically under `runtime/vectors/`. Needs no
    /// write lock: `runtime/` is never tracked, and the last writer wins.
    pub fn save_vectors(&self, cache: &crate::embed::VectorCache) -> Result<(), Error> {
        ensure_runtime_ignored(&self.layout)?;
        vectors::save(&self.layout, cache)
    }
}

/// The last check before a memory reaches its file: every field is
/// scanned by the secret firewall again (commands redact their input at the
/// boundary, before deriving anything from it; this catches whatever a
/// derivation or a hand-built record let through) and put in canonical form.
/// Returns the record as written and its YAML.
pub fn sealed_memory(memory: &Memory) -> (Memory, String) {
    let mut m = memory.clone();
    crate::secrets::redact_memory(&mut m);
    m.normalize();
    let text = yaml::memory_to_string(&m);
    (m, text)
}

/// Like [`sealed_memory`], for a preference.
pub fn sealed_preference(preference: &Preference) -> (Preference, String) {
    let mut p = preference.clone();
    crate::secrets::redact_preference(&mut p);
    let text = yaml::preference_to_string(&p);
    (p, text)
}

/// The raw text of one record file.
#[derive(Clone, Debug)]
pub struct Source {
    /// Path relative to the root.
    pub path: String,
    /// Directory it is in.
    pub dir: RecordDir,
    /// Its contents, or why they could not be read.
    pub text: Result<String, String>,
}

/// What `.brain/.gitignore` ignores: the runtime directory, and the
/// temporary files of a write that was killed before its rename.
const BRAIN_IGNORES: [&str; 2] = ["runtime/", ".tmp-*.partial"];

/// Writes `.brain/.gitignore`, or adds the lines it lacks to an existing one.
fn ensure_brain_ignores(layout: &Layout) -> Result<(), Error> {
    let path = layout.brain_dir().join(".gitignore");
    let existing = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(source) => return Err(Error::Read { path, source }),
    };
    let mut text = existing.clone();
    for line in BRAIN_IGNORES {
        if !existing.lines().any(|l| l.trim() == line) {
            if !text.is_empty() && !text.ends_with('\n') {
                text.push('\n');
            }
            text.push_str(line);
            text.push('\n');
        }
    }
    if text == existing {
        return Ok(());
    }
    write::write_atomic(&path, text.as_bytes(), true)
}

fn ensure_runtime_ignored(layout: &Layout) -> Result<(), Error> {
    let runtime = layout.runtime_dir();
    let ignore = runtime.join(".gitignore");
    if ignore.exists() {
        return Ok(());
    }
    std::fs::create_dir_all(&runtime).map_err(|source| Error::Write {
        path: runtime.clone(),
        source,
    })?;
    match write::write_atomic(&ignore, b"*\n", false) {
        Err(Error::Write { source, .. }) if source.kind() == std::io::ErrorKind::AlreadyExists => {
            Ok(())
        }
        other => other,
    }
}
