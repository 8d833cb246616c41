//! Atomic file writes and the advisory write lock.
//!
//! Every write goes to a temporary file in the target's directory, is flushed
//! with `fsync`, renamed over (or, for new records, next to) the target, and the
//! directory is synced, so a reader sees the old file or the new one and never a
//! torn one, and a crash leaves at worst a hidden temporary file that loaders
//! ignore. Mutating commands hold an exclusive lock on
//! `.brain/runtime/write.lock` for their whole read-modify-write, so concurrent
//! agent processes queue instead of overwriting each other.

use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use super::Error;

/// How long a writer waits for another process's lock before giving up.
pub const LOCK_TIMEOUT: Duration = Duration::from_secs(60);

/// Writes `bytes` to `path` atomically. With `overwrite: false` the call fails
/// with [`io::ErrorKind::AlreadyExists`] instead of replacing an existing file.
pub(crate) fn write_atomic(path: &Path, bytes: &[u8], overwrite: bool) -> Result<(), Error> {
    write_replacing(path, bytes, overwrite, true)
}

/// Replaces a derived, rebuildable file (a cache) atomically but without
/// `fsync`: after a crash it may be stale or empty, never torn, and its reader
/// rebuilds it. Skipping the flush keeps a cold load from waiting on the disk.
pub(crate) fn replace_derived(path: &Path, bytes: &[u8]) -> Result<(), Error> {
    write_replacing(path, bytes, true, false)
}

fn write_replacing(path: &Path, bytes: &[u8], overwrite: bool, durable: bool) -> Result<(), Error> {
    let dir = path
        .parent()
        .expect("record paths always have a parent directory");
    let wrap = |source: io::Error| Error::Write {
        path: path.to_path_buf(),
        source,
    };
    refuse_symlinks(path)?;
    std::fs::create_dir_all(dir).map_err(wrap)?;
    let mut builder = tempfile::Builder::new();
    builder.prefix(".tmp-").suffix(".partial");
    // Record files are ordinary repository files: keep an existing file's mode,
    // and give new ones the usual `rw-r--r--` instead of tempfile's private 0600.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(path).map_or(0o644, |m| m.permissions().mode() & 0o7777);
        builder.permissions(std::fs::Permissions::from_mode(mode));
    }
    let mut tmp = builder.tempfile_in(dir).map_err(wrap)?;
    tmp.write_all(bytes).map_err(wrap)?;
    if durable {
        tmp.as_file().sync_all().map_err(wrap)?;
    }
    if overwrite {
        tmp.persist(path).map_err(|e| wrap(e.error))?;
    } else {
        tmp.persist_noclobber(path).map_err(|e| wrap(e.error))?;
    }
    if durable {
        sync_dir(dir).map_err(wrap)?;
    }
    Ok(())
}

/// Refuses a write to `path` when a directory between the store
/// directory (`.brain/`) and the file is a symbolic link, or when the file
/// itself is one that would be followed. A repository can commit
/// `.brain/gotchas` or `.brain/runtime` as a link to anywhere; writing
/// through it would put files outside the store.
pub(crate) fn refuse_symlinks(path: &Path) -> Result<(), Error> {
    let symlink = |p: &Path| std::fs::symlink_metadata(p).is_ok_and(|m| m.file_type().is_symlink());
    if symlink(path) {
        return Err(Error::Symlink {
            path: path.to_path_buf(),
        });
    }
    // Only the directories inside the store: where the repository itself
    // lives (a linked home or temporary directory) is the user's business.
    let inside: Vec<&Path> = path
        .ancestors()
        .skip(1)
        .take_while(|dir| dir.file_name().is_some_and(|n| n != super::BRAIN_DIR))
        .collect();
    let in_store = path
        .ancestors()
        .nth(1 + inside.len())
        .is_some_and(|d| d.file_name().is_some_and(|n| n == super::BRAIN_DIR));
    if let Some(dir) = inside.into_iter().filter(|_| in_store).find(|d| symlink(d)) {
        return Err(Error::Symlink {
            path: dir.to_path_buf(),
        });
    }
    Ok(())
}

/// Removes temporary files that a killed writer left in `dir`
/// (`.tmp-*.partial`). Only called under the write lock, for directories
/// that are written only under it, so none of them is in use.
pub(crate) fn remove_stale_partials(dir: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if name.starts_with(".tmp-")
            && name.ends_with(".partial")
            && entry.file_type().is_ok_and(|t| t.is_file())
        {
            // Best effort: a file that cannot be removed is still ignored.
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

fn sync_dir(dir: &Path) -> io::Result<()> {
    // Directories cannot be opened for syncing on every platform; where they can,
    // this makes the rename itself durable.
    match File::open(dir) {
        Ok(d) => d.sync_all().or(Ok(())),
        Err(_) => Ok(()),
    }
}

/// An exclusive advisory lock; released when dropped.
#[derive(Debug)]
pub struct WriteLock {
    _file: File,
    path: PathBuf,
}

impl WriteLock {
    /// Takes the lock at `path`, waiting up to `timeout` for other holders.
    pub(crate) fn acquire(path: &Path, timeout: Duration) -> Result<WriteLock, Error> {
        let wrap = |source: io::Error| Error::Lock {
            path: path.to_path_buf(),
            source,
        };
        refuse_symlinks(path)?;
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).map_err(wrap)?;
        }
        let file = OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(path)
            .map_err(wrap)?;
        let start = Instant::now();
        let mut pause = Duration::from_millis(2);
        loop {
            match file.try_lock() {
                Ok(()) => {
                    return Ok(WriteLock {
                        _file: file,
                        path: path.to_path_buf(),
                    });
                }
                Err(std::fs::TryLockError::WouldBlock) => {
                    if start.elapsed() >= timeout {
                        return Err(Error::LockTimeout {
                            path: path.to_path_buf(),
                            waited: timeout,
                        });
                    }
                    std::thread::sleep(pause);
                    pause = (pause * 2).min(Duration::from_millis(50));
                }
                Err(std::fs::TryLockError::Error(e)) => return Err(wrap(e)),
            }
        }
    }

    /// Returns the lock file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn atomic_write_replaces_or_refuses() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("sub").join("a.yaml");
        write_atomic(&p, b"one", false).unwrap();
        assert_eq!(std::fs::read(&p).unwrap(), b"one");
        let err = write_atomic(&p, b"two", false).unwrap_err();
        assert!(
            matches!(err, Error::Write { ref source, .. } if source.kind() == io::ErrorKind::AlreadyExists)
        );
        assert_eq!(std::fs::read(&p).unwrap(), b"one");
        write_atomic(&p, b"three", true).unwrap();
        assert_eq!(std::fs::read(&p).unwrap(), b"three");
        let leftovers: Vec<_> = std::fs::read_dir(p.parent().unwrap())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(leftovers, ["a.yaml"]);
    }

    #[cfg(unix)]
    #[test]
    fn writes_refuse_symlinked_directories_and_files_under_the_store() {
        let dir = tempfile::tempdir().unwrap();
        let outside = dir.path().join("outside");
        std::fs::create_dir_all(&outside).unwrap();
        let brain = dir.path().join(".brain");
        std::fs::create_dir_all(&brain).unwrap();
        std::os::unix::fs::symlink(&outside, brain.join("gotchas")).unwrap();
        let err = write_atomic(&brain.join("gotchas/a.yaml"), b"x", false).unwrap_err();
        assert!(matches!(err, Error::Symlink { ref path } if path.ends_with("gotchas")));
        std::os::unix::fs::symlink(outside.join("f"), brain.join("log")).unwrap();
        let err = write_atomic(&brain.join("log"), b"x", true).unwrap_err();
        assert!(matches!(err, Error::Symlink { .. }));
        assert_eq!(std::fs::read_dir(&outside).unwrap().count(), 0);
        // A plain directory is fine.
        write_atomic(&brain.join("decisions/b.yaml"), b"x", false).unwrap();
    }

    #[test]
    fn second_lock_times_out_while_first_is_held() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("write.lock");
        let first = WriteLock::acquire(&p, LOCK_TIMEOUT).unwrap();
        let err = WriteLock::acquire(&p, Duration::ZERO).unwrap_err();
        assert!(matches!(err, Error::LockTimeout { .. }));
        drop(first);
        WriteLock::acquire(&p, Duration::ZERO).unwrap();
    }
}
