//! Read-only git access through gix.
//!
//! [`head_texts`] gives the committed version of record files, used by `lint`
//! to check status changes made by hand against the allowed transitions.
//! Outside a git repository, or before the first commit, there is nothing to
//! compare with and it returns an empty result.
//!
//! [`commit_info`] reads one commit and the files it changed, for
//! `extract-commit`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Returns the text at `HEAD` of each of `rel_paths` (relative to the
/// repository's work tree) that exists there and is UTF-8.
pub fn head_texts(root: &Path, rel_paths: &[&str]) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    let Ok(repo) = gix::discover(root) else {
        return out;
    };
    let Some(workdir) = repo.workdir().map(Path::to_path_buf) else {
        return out;
    };
    let (Ok(root_abs), Ok(workdir_abs)) = (root.canonicalize(), workdir.canonicalize()) else {
        return out;
    };
    let Ok(prefix) = root_abs.strip_prefix(&workdir_abs) else {
        return out;
    };
    let Ok(tree) = repo.head_commit().and_then(|c| c.tree()) else {
        return out;
    };
    for rel in rel_paths {
        let in_repo = prefix.join(rel);
        let Ok(Some(entry)) = tree.lookup_entry_by_path(&in_repo) else {
            continue;
        };
        let Ok(object) = entry.object() else {
            continue;
        };
        if let Ok(text) = String::from_utf8(object.data.clone()) {
            out.insert((*rel).to_owned(), text);
        }
    }
    out
}

/// Largest blob, in bytes, whose lines [`commit_info`] counts.
pub const MAX_DIFF_BYTES: u64 = 1024 * 1024;

/// Most file changes [`commit_info`] examines in one commit.
pub const MAX_CHANGES: usize = 2_000;

/// Something [`commit_info`] could not do.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum GitError {
    /// No git repository contains the directory.
    #[error("not inside a git repository: {}", dir.display())]
    NotARepository {
        /// The directory as given.
        dir: PathBuf,
    },
    /// The directory does not exist or is not a directory.
    #[error("no such directory: {}", dir.display())]
    NoSuchDirectory {
        /// The directory as given.
        dir: PathBuf,
    },
    /// The repository containing the directory could not be opened.
    #[error("cannot open the git repository containing {}: {reason}", dir.display())]
    Open {
        /// The directory as given.
        dir: PathBuf,
        /// What went wrong.
        reason: String,
    },
    /// The revision does not name a commit.
    #[error("no commit `{rev}`: {reason}")]
    NoCommit {
        /// The revision as given.
        rev: String,
        /// What went wrong.
        reason: String,
    },
    /// An object of the commit could not be read or decoded.
    #[error("cannot read {what} of commit {id}: {reason}")]
    Read {
        /// The commit (full hex id).
        id: String,
        /// What was being read.
        what: &'static str,
        /// What went wrong.
        reason: String,
    },
}

/// One commit, as `extract-commit` needs it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CommitInfo {
    /// The full hex id.
    pub id: String,
    /// The first 12 hex digits of the id.
    pub short_id: String,
    /// The first line of the message.
    pub summary: String,
    /// The whole message, trimmed.
    pub message: String,
    /// The author as `Name <email>`.
    pub author: String,
    /// The author time.
    pub time: jiff::Timestamp,
    /// The number of parents: 0 for a root commit, 2 or more for a merge.
    pub parents: usize,
    /// The files changed against the first parent (against the empty tree for
    /// a root commit), sorted by path.
    pub changes: Vec<FileChange>,
    /// The commit changes more than [`MAX_CHANGES`] files: `changes` holds the
    /// first [`MAX_CHANGES`] found (in breadth-first tree order), sorted by path.
    pub truncated: bool,
}

/// One file changed by a commit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileChange {
    /// The path relative to the work tree root, with `/` separators
    /// (non-UTF-8 bytes replaced by U+FFFD).
    pub path: String,
    /// The path before a rename; `Some` exactly when `kind` is
    /// [`ChangeKind::Renamed`].
    pub old_path: Option<String>,
    /// What happened to the file.
    pub kind: ChangeKind,
    /// Lines added; 0 when `binary`.
    pub added_lines: u32,
    /// Lines removed; 0 when `binary`.
    pub removed_lines: u32,
    /// The lines were not counted: one side is not UTF-8 text (invalid
    /// UTF-8 or a NUL byte), is larger than [`MAX_DIFF_BYTES`], or is a
    /// submodule.
    pub binary: bool,
}

/// What a commit did to a file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ChangeKind {
    /// The file is new.
    Added,
    /// The content, the mode or the type (file, symlink, submodule) changed.
    Modified,
    /// The file is gone.
    Deleted,
    /// The file moved without any change to its content (exact rename;
    /// renames with edits are reported as [`ChangeKind::Deleted`] plus
    /// [`ChangeKind::Added`]).
    Renamed,
}

/// Reads commit `rev` of the repository containing `root`.
///
/// `rev` is a revision as `git rev-parse` understands it, as far as gix
/// supports it: `HEAD`, `HEAD~1`, `main^2`, a full or abbreviated id, a branch
/// or tag name. Annotated tags are peeled to their commit.
pub fn commit_info(root: &Path, rev: &str) -> Result<CommitInfo, GitError> {
    if !root.is_dir() {
        return Err(GitError::NoSuchDirectory {
            dir: root.to_path_buf(),
        });
    }
    let repo = gix::discover(root).map_err(|e| open_error(root, &e))?;
    let commit = resolve_commit(&repo, rev)?;

    let id = commit.id.to_hex().to_string();
    let read = |what: &'static str| read_error(&id, what);
    let message = String::from_utf8_lossy(commit.message_raw().map_err(read("the message"))?)
        .trim()
        .to_owned();
    let summary = message.lines().next().unwrap_or_default().trim().to_owned();
    let signature = commit.author().map_err(read("the author"))?;
    let author = format!("{} <{}>", signature.name, signature.email);
    let seconds = signature.time().map_err(read("the author time"))?.seconds;
    let time = jiff::Timestamp::from_second(seconds).map_err(|e| GitError::Read {
        id: id.clone(),
        what: "the author time",
        reason: e.to_string(),
    })?;
    let parent_ids: Vec<gix::ObjectId> = commit.parent_ids().map(gix::Id::detach).collect();

    let tree = commit.tree().map_err(read("the tree"))?;
    let parent_tree = match parent_ids.first() {
        Some(parent) => Some(
            repo.find_commit(*parent)
                .and_then(|c| c.tree())
                .map_err(read("the first parent's tree"))?,
        ),
        None => None,
    };
    let (raw, truncated) =
        tree_changes(&repo, parent_tree.as_ref(), &tree).map_err(|e| GitError::Read {
            id: id.clone(),
            what: "the changed files",
            reason: e,
        })?;
    let mut changes = Vec::with_capacity(raw.len());
    for change in pair_renames(raw, repo.object_hash()) {
        changes.push(count_lines(&repo, change).map_err(read("a changed file"))?);
    }
    changes.sort_by(|a, b| a.path.cmp(&b.path));

    Ok(CommitInfo {
        short_id: commit.id.to_hex_with_len(12).to_string(),
        id,
        summary,
        message,
        author,
        time,
        parents: parent_ids.len(),
        changes,
        truncated,
    })
}

/// Why `gix::discover(root)` failed.
fn open_error(root: &Path, e: &gix::Error) -> GitError {
    use gix::discover::upwards::Error as Upwards;
    let dir = root.to_path_buf();
    match e.downcast_any_ref::<Upwards>() {
        Some(
            Upwards::NoGitRepository { .. }
            | Upwards::NoGitRepositoryWithinCeiling { .. }
            | Upwards::NoGitRepositoryWithinFs { .. },
        ) => GitError::NotARepository { dir },
        _ => GitError::Open {
            dir,
            reason: reason(e),
        },
    }
}

/// A gix error and its causes on one line.
/// The error for an object of commit `id` that could not be read: `what`
/// names the part ("the tree", "the message").
fn read_error(id: &str, what: &'static str) -> impl FnOnce(gix::Error) -> GitError {
    let id = id.to_owned();
    move |e| GitError::Read {
        id,
        what,
        reason: reason(&e),
    }
}

fn reason(e: &gix::Error) -> String {
    let mut out: Vec<String> = Vec::new();
    for cause in e.iter_errors() {
        let msg = cause.to_string();
        if !msg.is_empty() && !out.iter().any(|m| m.contains(&msg)) {
            out.push(msg);
        }
    }
    if out.is_empty() {
        e.to_string()
    } else {
        out.join(": ")
    }
}

/// One side of a changed file: its object and whether it is a submodule or
/// a symbolic link.
#[derive(Clone, Copy)]
struct Side {
    oid: gix::ObjectId,
    is_commit: bool,
    is_link: bool,
}

impl Side {
    fn new(oid: gix::ObjectId, mode: gix::object::tree::EntryMode) -> Self {
        Side {
            oid,
            is_commit: mode.is_commit(),
            is_link: mode.is_link(),
        }
    }
}

/// A file change before line counting.
struct RawChange {
    path: String,
    old_path: Option<String>,
    kind: ChangeKind,
    old: Option<Side>,
    new: Option<Side>,
}

/// A tree-diff delegate that records the changes of non-tree entries and
/// stops after [`MAX_CHANGES`] + 1 of them.
struct Collect {
    recorder: gix::diff::tree::Recorder,
    files: usize,
}

impl gix::diff::tree::Visit for Collect {
    fn pop_front_tracked_path_and_set_current(&mut self) {
        self.recorder.pop_front_tracked_path_and_set_current();
    }

    fn push_back_tracked_path_component(&mut self, component: &gix::bstr::BStr) {
        self.recorder.push_back_tracked_path_component(component);
    }

    fn push_path_component(&mut self, component: &gix::bstr::BStr) {
        self.recorder.push_path_component(component);
    }

    fn pop_path_component(&mut self) {
        self.recorder.pop_path_component();
    }

    fn visit(&mut self, change: gix::diff::tree::visit::Change) -> gix::diff::tree::visit::Action {
        use gix::diff::tree::visit::Change;
        let is_file = match &change {
            Change::Addition { entry_mode, .. } | Change::Deletion { entry_mode, .. } => {
                !entry_mode.is_tree()
            }
            Change::Modification {
                previous_entry_mode,
                entry_mode,
                ..
            } => !previous_entry_mode.is_tree() && !entry_mode.is_tree(),
        };
        if !is_file {
            return std::ops::ControlFlow::Continue(());
        }
        if self.files == MAX_CHANGES {
            return std::ops::ControlFlow::Break(());
        }
        self.files += 1;
        self.recorder.visit(change)
    }
}

/// The non-tree entries that differ between `old` (the empty tree if `None`)
/// and `new`, and whether there were more than [`MAX_CHANGES`].
fn tree_changes(
    repo: &gix::Repository,
    old: Option<&gix::Tree<'_>>,
    new: &gix::Tree<'_>,
) -> Result<(Vec<RawChange>, bool), String> {
    use gix::diff::tree::recorder::Change;

    let hash = repo.object_hash();
    let old_iter = gix::objs::TreeRefIter::from_bytes(old.map_or(&[][..], |t| &t.data), hash);
    let new_iter = gix::objs::TreeRefIter::from_bytes(&new.data, hash);
    let mut collect = Collect {
        recorder: gix::diff::tree::Recorder::default(),
        files: 0,
    };
    let truncated = match gix::diff::tree(
        old_iter,
        new_iter,
        gix::diff::tree::State::default(),
        &repo.objects,
        &mut collect,
    ) {
        Ok(()) => false,
        Err(gix::diff::tree::Error::Cancelled) => true,
        Err(e) => return Err(e.to_string()),
    };
    let path = |p: &gix::bstr::BString| String::from_utf8_lossy(p).into_owned();
    let raw = collect
        .recorder
        .records
        .into_iter()
        .filter_map(|change| match change {
            Change::Addition {
                entry_mode,
                oid,
                path: p,
                ..
            } => (!entry_mode.is_tree()).then(|| RawChange {
                path: path(&p),
                old_path: None,
                kind: ChangeKind::Added,
                old: None,
                new: Some(Side::new(oid, entry_mode)),
            }),
            Change::Deletion {
                entry_mode,
                oid,
                path: p,
                ..
            } => (!entry_mode.is_tree()).then(|| RawChange {
                path: path(&p),
                old_path: None,
                kind: ChangeKind::Deleted,
                old: Some(Side::new(oid, entry_mode)),
                new: None,
            }),
            // A tree on one side only is reported by the differ as a
            // deletion plus an addition, so both sides are files here,
            // unless both are trees.
            Change::Modification {
                previous_entry_mode,
                previous_oid,
                entry_mode,
                oid,
                path: p,
            } => (!previous_entry_mode.is_tree() && !entry_mode.is_tree()).then(|| RawChange {
                path: path(&p),
                old_path: None,
                kind: ChangeKind::Modified,
                old: Some(Side::new(previous_oid, previous_entry_mode)),
                new: Some(Side::new(oid, entry_mode)),
            }),
        })
        .collect();
    Ok((raw, truncated))
}

/// Turns a deleted and an added file with the same non-empty content (and
/// both regular files or both symbolic links) into one rename. Pairs are
/// formed in path order.
fn pair_renames(raw: Vec<RawChange>, hash: gix::hash::Kind) -> Vec<RawChange> {
    use std::collections::btree_map::Entry;

    let empty_blob = gix::ObjectId::empty_blob(hash);
    let mut deleted: BTreeMap<(gix::ObjectId, bool), Vec<RawChange>> = BTreeMap::new();
    let mut rest = Vec::with_capacity(raw.len());
    for change in raw {
        match (change.kind, change.old) {
            (ChangeKind::Deleted, Some(old)) if !old.is_commit && old.oid != empty_blob => {
                deleted
                    .entry((old.oid, old.is_link))
                    .or_default()
                    .push(change);
            }
            _ => rest.push(change),
        }
    }
    for list in deleted.values_mut() {
        list.sort_by(|a, b| b.path.cmp(&a.path)); // pop() yields the smallest path
    }
    rest.sort_by(|a, b| a.path.cmp(&b.path));
    let mut out = Vec::with_capacity(rest.len());
    for mut change in rest {
        if let (ChangeKind::Added, Some(new)) = (change.kind, change.new)
            && !new.is_commit
            && let Entry::Occupied(mut slot) = deleted.entry((new.oid, new.is_link))
            && let Some(from) = slot.get_mut().pop()
        {
            if slot.get().is_empty() {
                slot.remove();
            }
            change.kind = ChangeKind::Renamed;
            change.old_path = Some(from.path);
            change.old = from.old;
        }
        out.push(change);
    }
    out.extend(deleted.into_values().flatten());
    out
}

/// Counts the added and removed lines of one change.
fn count_lines(repo: &gix::Repository, change: RawChange) -> Result<FileChange, gix::Error> {
    let mut file = FileChange {
        path: change.path,
        old_path: change.old_path,
        kind: change.kind,
        added_lines: 0,
        removed_lines: 0,
        binary: false,
    };
    if change.kind == ChangeKind::Renamed
        || matches!((change.old, change.new), (Some(a), Some(b)) if a.oid == b.oid)
    {
        return Ok(file);
    }
    let (Some(old), Some(new)) = (text(repo, change.old)?, text(repo, change.new)?) else {
        file.binary = true;
        return Ok(file);
    };
    let diff = similar::TextDiff::from_lines(old.as_str(), new.as_str());
    let (mut added, mut removed) = (0usize, 0usize);
    for op in diff.ops() {
        let (tag, old_range, new_range) = op.as_tag_tuple();
        match tag {
            similar::DiffTag::Equal => {}
            similar::DiffTag::Delete => removed += old_range.len(),
            similar::DiffTag::Insert => added += new_range.len(),
            similar::DiffTag::Replace => {
                removed += old_range.len();
                added += new_range.len();
            }
        }
    }
    file.added_lines = u32::try_from(added).unwrap_or(u32::MAX);
    file.removed_lines = u32::try_from(removed).unwrap_or(u32::MAX);
    Ok(file)
}

/// The text of one side of a change: empty for a missing side, `None` for a
/// submodule, a blob over [`MAX_DIFF_BYTES`] or one that is not UTF-8 text.
fn text(repo: &gix::Repository, side: Option<Side>) -> Result<Option<String>, gix::Error> {
    let Some(side) = side else {
        return Ok(Some(String::new()));
    };
    if side.is_commit || repo.find_header(side.oid)?.size() > MAX_DIFF_BYTES {
        return Ok(None);
    }
    let blob = repo.find_object(side.oid)?;
    if blob.data.contains(&0) {
        return Ok(None);
    }
    Ok(String::from_utf8(blob.detach().data).ok())
}

/// Files of the work tree that differ from `HEAD`, relative to the
/// repository root and sorted: staged changes (index against `HEAD`) and
/// unstaged ones (work tree against the index, by size and modification
/// time, confirmed by hashing the content). Untracked files are not listed.
/// Outside a repository, or in a bare one, the list is empty.
///
/// # Errors
///
/// The repository, its index or `HEAD`'s tree cannot be read.
pub fn changed_paths(root: &Path) -> Result<Vec<String>, GitError> {
    use std::collections::{BTreeSet, HashMap};
    let Ok(repo) = gix::discover(root) else {
        return Ok(Vec::new());
    };
    let Some(workdir) = repo.workdir().map(Path::to_path_buf) else {
        return Ok(Vec::new());
    };
    let open_err = |e: &dyn std::fmt::Display| GitError::Open {
        dir: root.to_path_buf(),
        reason: e.to_string(),
    };
    let index = repo.index_or_empty().map_err(|e| open_err(&e))?;
    let mut head: HashMap<Vec<u8>, gix::ObjectId> = HashMap::new();
    if let Ok(tree) = repo.head_tree() {
        let mut recorder = gix::traverse::tree::Recorder::default();
        tree.traverse()
            .breadthfirst(&mut recorder)
            .map_err(|e| open_err(&e))?;
        for e in recorder.records {
            if !e.mode.is_tree() {
                head.insert(e.filepath.to_vec(), e.oid);
            }
        }
    }
    let mut out: BTreeSet<String> = BTreeSet::new();
    let mut in_index: std::collections::HashSet<Vec<u8>> = std::collections::HashSet::new();
    for entry in index.entries() {
        let path = entry.path(&index);
        let shown = String::from_utf8_lossy(path).into_owned();
        in_index.insert(path.to_vec());
        if head.get(path.as_ref() as &[u8]) != Some(&entry.id) {
            out.insert(shown);
            continue;
        }
        let file = workdir.join(&shown);
        let Ok(meta) = std::fs::symlink_metadata(&file) else {
            out.insert(shown); // deleted in the work tree
            continue;
        };
        if !meta.is_file() {
            continue;
        }
        let mtime = meta
            .modified()
            .ok()
            .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok());
        let same_stat = u64::from(entry.stat.size) == meta.len()
            && mtime.is_some_and(|d| {
                u64::from(entry.stat.mtime.secs) == d.as_secs()
                    && entry.stat.mtime.nsecs == d.subsec_nanos()
            });
        if same_stat {
            continue;
        }
        let Ok(data) = std::fs::read(&file) else {
            out.insert(shown);
            continue;
        };
        let same = gix::objs::compute_hash(repo.object_hash(), gix::objs::Kind::Blob, &data)
            .is_ok_and(|id| id == entry.id);
        if !same {
            out.insert(shown);
        }
    }
    // Into a sorted set: the order of the hash map does not matter.
    let deleted: Vec<String> = head
        .into_keys()
        .filter(|path| !in_index.contains(path))
        .map(|path| String::from_utf8_lossy(&path).into_owned())
        .collect();
    out.extend(deleted); // staged deletions
    Ok(out.into_iter().collect())
}

/// The files tracked in the repository's index, relative to the repository
/// root and sorted; `None` outside a repository.
///
/// # Errors
///
/// The repository's index cannot be read.
pub fn tracked_paths(root: &Path) -> Result<Option<Vec<String>>, GitError> {
    let Ok(repo) = gix::discover(root) else {
        return Ok(None);
    };
    if repo.workdir().is_none() {
        return Ok(None);
    }
    let index = repo.index_or_empty().map_err(|e| GitError::Open {
        dir: root.to_path_buf(),
        reason: e.to_string(),
    })?;
    let mut out: Vec<String> = index
        .entries()
        .iter()
        .map(|e| String::from_utf8_lossy(e.path(&index)).into_owned())
        .collect();
    out.sort();
    out.dedup();
    Ok(Some(out))
}

/// Most commits [`changed_since`] examines.
pub const MAX_COMMITS: usize = 1_000;

/// Files under `under` (a directory relative to `root`, such as `.brain`)
/// changed after `since`, each with when it changed: by the commits
/// reachable from `HEAD` whose committer time is after `since` (against their
/// first parent; the newest commit's time wins), and by uncommitted changes
/// (see [`changed_paths`]) whose file was modified after `since` (a deleted
/// file counts with time `now`). Paths are relative to `root` and
/// `/`-separated. Outside a repository the map is empty. At most
/// [`MAX_COMMITS`] commits are examined.
///
/// # Errors
///
/// The repository, a commit or a tree cannot be read.
pub fn changed_since(
    root: &Path,
    under: &str,
    since: jiff::Timestamp,
    now: jiff::Timestamp,
) -> Result<BTreeMap<String, jiff::Timestamp>, GitError> {
    let mut out: BTreeMap<String, jiff::Timestamp> = BTreeMap::new();
    let Ok(repo) = gix::discover(root) else {
        return Ok(out);
    };
    let Some(workdir) = repo.workdir().map(Path::to_path_buf) else {
        return Ok(out);
    };
    let open_err = |e: &dyn std::fmt::Display| GitError::Open {
        dir: root.to_path_buf(),
        reason: e.to_string(),
    };
    let (root_abs, workdir_abs) = (
        root.canonicalize().map_err(|e| open_err(&e))?,
        workdir.canonicalize().map_err(|e| open_err(&e))?,
    );
    let Ok(prefix) = root_abs.strip_prefix(&workdir_abs) else {
        return Ok(out);
    };
    let mut prefix = prefix.to_string_lossy().replace('\\', "/");
    if !prefix.is_empty() {
        prefix.push('/');
    }
    let wanted = format!("{prefix}{}/", under.trim_matches('/'));
    let mut keep = |path: &str, at: jiff::Timestamp| {
        if let Some(rel) = path.strip_prefix(&prefix)
            && path.starts_with(&wanted)
        {
            let slot = out.entry(rel.to_owned()).or_insert(at);
            *slot = (*slot).max(at);
        }
    };
    if let Ok(head) = repo.head_id() {
        use gix::revision::walk::Sorting;
        use gix::traverse::commit::simple::CommitTimeOrder;
        let walk = repo
            .rev_walk([head.detach()])
            .sorting(Sorting::ByCommitTimeCutoff {
                order: CommitTimeOrder::NewestFirst,
                seconds: since.as_second(),
            })
            .all()
            .map_err(|e| open_err(&e))?;
        for info in walk.take(MAX_COMMITS) {
            let info = info.map_err(|e| open_err(&e))?;
            let seconds = info.commit_time();
            if seconds <= since.as_second() {
                continue;
            }
            let at = jiff::Timestamp::from_second(seconds).unwrap_or(now);
            let id = info.id.to_hex().to_string();
            let read = |what: &'static str| read_error(&id, what);
            let commit = info.object().map_err(read("the commit"))?;
            let tree = commit.tree().map_err(read("the tree"))?;
            let parent_tree = match info.parent_ids.first() {
                Some(parent) => Some(
                    repo.find_commit(*parent)
                        .map_err(read("the first parent"))?
                        .tree()
                        .map_err(read("the first parent's tree"))?,
                ),
                None => None,
            };
            let (raw, _) =
                tree_changes(&repo, parent_tree.as_ref(), &tree).map_err(|e| GitError::Read {
                    id: info.id.to_hex().to_string(),
                    what: "the changed files",
                    reason: e,
                })?;
            for change in raw {
                keep(&change.path, at);
            }
        }
    }
    for path in changed_paths(root)? {
        if !path.starts_with(&wanted) {
            continue;
        }
        let modified = std::fs::symlink_metadata(workdir.join(&path))
            .ok()
            .and_then(|m| m.modified().ok())
            .and_then(|t| jiff::Timestamp::try_from(t).ok());
        match modified {
            Some(at) if at > since => keep(&path, at.min(now)),
            Some(_) => {}
            None => keep(&path, now),
        }
    }
    Ok(out)
}

/// The text of every file under `under` (a directory relative to `root`,
/// such as `.brain`) in the tree of `rev`, except `runtime/`, keyed by path
/// relative to `root` (`/`-separated). Files that are not UTF-8 are left out;
/// a tree without `under` gives an empty map.
///
/// # Errors
///
/// `root` is not in a repository, `rev` names no commit, or an object
/// cannot be read.
pub fn tree_texts(
    root: &Path,
    rev: &str,
    under: &str,
) -> Result<BTreeMap<String, String>, GitError> {
    let repo = gix::discover(root).map_err(|e| open_error(root, &e))?;
    let commit = resolve_commit(&repo, rev)?;
    let id = commit.id.to_hex().to_string();
    let read = |what: &'static str| read_error(&id, what);
    let mut out = BTreeMap::new();
    let prefix = match repo.workdir() {
        Some(workdir) => {
            let open_err = |e: std::io::Error| GitError::Open {
                dir: root.to_path_buf(),
                reason: e.to_string(),
            };
            let root_abs = root.canonicalize().map_err(open_err)?;
            let workdir_abs = workdir.canonicalize().map_err(open_err)?;
            root_abs
                .strip_prefix(&workdir_abs)
                .map(Path::to_path_buf)
                .unwrap_or_default()
        }
        None => PathBuf::new(),
    };
    let tree = commit.tree().map_err(read("the tree"))?;
    let Some(entry) = tree
        .lookup_entry_by_path(prefix.join(under))
        .map_err(read("the store's directory"))?
    else {
        return Ok(out);
    };
    if !entry.mode().is_tree() {
        return Ok(out);
    }
    let subtree = entry
        .object()
        .map_err(read("the store's directory"))?
        .into_tree();
    let mut recorder = gix::traverse::tree::Recorder::default();
    subtree
        .traverse()
        .breadthfirst(&mut recorder)
        .map_err(read("the store's files"))?;
    let under = under.trim_matches('/');
    for record in recorder.records {
        let rel = String::from_utf8_lossy(&record.filepath).into_owned();
        if !record.mode.is_blob() || rel.starts_with("runtime/") {
            continue;
        }
        let blob = repo.find_object(record.oid).map_err(read("a file"))?;
        if let Ok(text) = String::from_utf8(blob.data.clone()) {
            out.insert(format!("{under}/{rel}"), text);
        }
    }
    Ok(out)
}

/// The commit `rev` names in `repo`.
fn resolve_commit<'r>(repo: &'r gix::Repository, rev: &str) -> Result<gix::Commit<'r>, GitError> {
    let no_commit = |e: &gix::Error| GitError::NoCommit {
        rev: rev.to_owned(),
        reason: reason(e),
    };
    repo.rev_parse_single(rev)
        .map_err(|e| no_commit(&e))?
        .object()
        .map_err(|e| no_commit(&e))?
        .peel_to_commit()
        .map_err(|e| no_commit(&e))
}
