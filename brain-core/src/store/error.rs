//! Errors of the store.

use std::io;
use std::path::PathBuf;
use std::time::Duration;

use crate::yaml::YamlError;

/// Something the store could not do.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// There is no `.brain/config.yaml` under the root.
    #[error("no brain store at `{}` (missing `.brain/config.yaml`)", root.display())]
    NotInitialized {
        /// The root that was searched.
        root: PathBuf,
    },
    /// A file could not be read.
    #[error("failed to read `{}`", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// The cause.
        #[source]
        source: io::Error,
    },
    /// A file could not be written.
    #[error("failed to write `{}`", path.display())]
    Write {
        /// The file.
        path: PathBuf,
        /// The cause.
        #[source]
        source: io::Error,
    },
    /// The config file is not valid YAML for the config type.
    #[error("invalid config `{}`{}", path.display(), location(source))]
    Config {
        /// The config file.
        path: PathBuf,
        /// The parse error.
        #[source]
        source: YamlError,
    },
    /// A config value is out of range.
    #[error("invalid config `{}`: `{key}` {message}", path.display())]
    ConfigValue {
        /// The config file.
        path: PathBuf,
        /// The dotted key.
        key: String,
        /// What is wrong.
        message: String,
    },
    /// `init` found a different config and was not forced.
    #[error("`{}` already exists with different settings", path.display())]
    ConfigExists {
        /// The config file.
        path: PathBuf,
    },
    /// The lock file could not be opened or locked.
    #[error("failed to lock `{}`", path.display())]
    Lock {
        /// The lock file.
        path: PathBuf,
        /// The cause.
        #[source]
        source: io::Error,
    },
    /// Another process held the write lock for too long.
    #[error("another brain process has held `{}` for more than {}s", path.display(), waited.as_secs())]
    LockTimeout {
        /// The lock file.
        path: PathBuf,
        /// How long this process waited.
        waited: Duration,
    },
    /// A path given to the store points outside `.brain/`.
    #[error("`{path}` is not a path inside `.brain/`")]
    OutsideStore {
        /// The path as given.
        path: String,
    },
    /// A write would go through a symbolic link inside `.brain/`.
    #[error("refusing to write through the symbolic link `{}`", path.display())]
    Symlink {
        /// The link.
        path: PathBuf,
    },
    /// A file that must be text is not valid UTF-8.
    #[error("`{}` is not valid UTF-8 (first bad byte at offset {offset})", path.display())]
    NotUtf8 {
        /// The file.
        path: PathBuf,
        /// Byte offset of the first invalid sequence.
        offset: usize,
    },
    /// No free id could be found for a new record.
    #[error("could not find a free id for the new record after 1000 attempts")]
    IdExhausted,
    /// A directory given to import from holds no RepoBrain record directories.
    #[error(
        "`{}` is not a RepoBrain `.brain/` directory (none of decisions/, gotchas/, conventions/, patterns/, working/, goals/, archive/, preferences/)",
        path.display()
    )]
    NotRepoBrain {
        /// The directory as given.
        path: PathBuf,
    },
    /// Git could not be read.
    #[error(transparent)]
    Git(#[from] super::git::GitError),
}

fn location(e: &YamlError) -> String {
    let at = match (e.line, e.column) {
        (Some(line), Some(col)) => format!(" at line {line} column {col}"),
        (Some(line), None) => format!(" at line {line}"),
        _ => String::new(),
    };
    match &e.field {
        Some(field) => format!("{at} (key `{field}`)"),
        None => at,
    }
}
