//! The only place that reads the environment, the working directory and the
//! clock, and that finds which store a command works on.
//!
//! * `BRAIN_NOW` (RFC 3339) pins the clock; tests set it.
//! * `BRAIN_ACTOR` names who proposes new records; otherwise git's `user.name`
//!   and `user.email`, otherwise `USER`.
//! * `BRAIN_EXTRACTOR_COMMAND` and `BRAIN_EXTRACTOR_TIMEOUT` (seconds)
//!   override the config's `extractor.command` and `extractor.timeout_seconds`;
//!   they are read raw here and judged by `crate::extractor::configured`.
//! * `BRAIN_FAILURE_DETECTOR_COMMAND` and `BRAIN_FAILURE_DETECTOR_TIMEOUT`
//!   (seconds) set the failure detector of `brain failure detect`; read raw
//!   here and judged by `crate::commands::failure`.
//! * Variables a config names (`embedding.api_key_env`), the proxy
//!   variables and `VISUAL`/`EDITOR` (for `brain edit`) are read from a
//!   snapshot of the environment taken here, through [`Context::env`].
//! * The root is `-C <dir>` when given; otherwise the nearest directory at or
//!   above the working directory (inside the current git repository) that holds
//!   `.brain/`; otherwise the repository's work tree; otherwise the working
//!   directory.

#![expect(
    clippy::disallowed_methods,
    reason = "this module is where environment, working directory and clock are read"
)]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use jiff::Timestamp;

use crate::error::CliError;

/// Everything a command needs from the outside world.
#[derive(Clone, Debug)]
pub(crate) struct Context {
    root: PathBuf,
    /// The working directory, canonical when it can be.
    cwd: PathBuf,
    now: Timestamp,
    actor: Option<String>,
    extractor_command: Option<String>,
    extractor_timeout: Option<String>,
    detector_command: Option<String>,
    detector_timeout: Option<String>,
    /// Every variable with a UTF-8 name and value, as the process started.
    env: BTreeMap<String, String>,
}

#[derive(Debug, thiserror::Error)]
#[error("`BRAIN_NOW` is not an RFC 3339 timestamp: `{0}`")]
struct BadNow(String);

#[derive(Debug, thiserror::Error)]
#[error("cannot use `{}` as the root", .0.display())]
struct BadRoot(PathBuf, #[source] std::io::Error);

impl Context {
    pub(crate) fn from_env(root_arg: Option<&Path>) -> Result<Context, CliError> {
        let now = match std::env::var("BRAIN_NOW") {
            Ok(s) if !s.is_empty() => s
                .parse::<Timestamp>()
                .map_err(|_| CliError::user(BadNow(s)))?,
            // Whole seconds: timestamps end up in reviewed files.
            _ => Timestamp::from_second(Timestamp::now().as_second())
                .expect("the current time is a valid timestamp"),
        };
        let cwd = std::env::current_dir().map_err(CliError::internal)?;
        let root = match root_arg {
            Some(dir) => {
                let dir = cwd.join(dir);
                if !dir.is_dir() {
                    let err = std::io::Error::new(std::io::ErrorKind::NotFound, "not a directory");
                    return Err(CliError::user(BadRoot(dir, err)));
                }
                dir
            }
            None => discover_root(&cwd),
        };
        let actor = std::env::var("BRAIN_ACTOR")
            .ok()
            .filter(|s| !s.trim().is_empty())
            .or_else(|| git_actor(&root))
            .or_else(|| std::env::var("USER").ok().filter(|s| !s.is_empty()));
        let cwd = cwd.canonicalize().unwrap_or(cwd);
        Ok(Context {
            root,
            cwd,
            now,
            actor,
            extractor_command: std::env::var("BRAIN_EXTRACTOR_COMMAND").ok(),
            extractor_timeout: std::env::var("BRAIN_EXTRACTOR_TIMEOUT").ok(),
            detector_command: std::env::var("BRAIN_FAILURE_DETECTOR_COMMAND").ok(),
            detector_timeout: std::env::var("BRAIN_FAILURE_DETECTOR_TIMEOUT").ok(),
            env: std::env::vars_os()
                .filter_map(|(k, v)| Some((k.into_string().ok()?, v.into_string().ok()?)))
                .collect(),
        })
    }

    pub(crate) fn root(&self) -> &Path {
        &self.root
    }

    /// The working directory the command runs in.
    pub(crate) fn cwd(&self) -> &Path {
        &self.cwd
    }

    pub(crate) fn now(&self) -> Timestamp {
        self.now
    }

    pub(crate) fn actor(&self) -> Option<&str> {
        self.actor.as_deref()
    }

    /// `BRAIN_EXTRACTOR_COMMAND` as set, even when empty (which disables a
    /// configured extractor).
    pub(crate) fn extractor_command(&self) -> Option<&str> {
        self.extractor_command.as_deref()
    }

    /// `BRAIN_EXTRACTOR_TIMEOUT` as set, not yet parsed.
    pub(crate) fn extractor_timeout(&self) -> Option<&str> {
        self.extractor_timeout.as_deref()
    }

    /// `BRAIN_FAILURE_DETECTOR_COMMAND` as set.
    pub(crate) fn detector_command(&self) -> Option<&str> {
        self.detector_command.as_deref()
    }

    /// `BRAIN_FAILURE_DETECTOR_TIMEOUT` as set, not yet parsed.
    pub(crate) fn detector_timeout(&self) -> Option<&str> {
        self.detector_timeout.as_deref()
    }

    /// The editor `brain edit` opens: `VISUAL`, else `EDITOR` (a command
    /// line, run by the shell with the file appended, as git does); `None`
    /// when neither is set to something.
    pub(crate) fn editor(&self) -> Option<&str> {
        ["VISUAL", "EDITOR"]
            .into_iter()
            .find_map(|k| self.env(k).filter(|v| !v.trim().is_empty()))
    }

    /// The environment variable `name` as the process started, for variables
    /// a config names (`embedding.api_key_env`); `None` when unset or not UTF-8.
    pub(crate) fn env(&self, name: &str) -> Option<&str> {
        self.env.get(name).map(String::as_str)
    }
}

fn discover_root(cwd: &Path) -> PathBuf {
    let workdir = gix::discover(cwd)
        .ok()
        .and_then(|repo| repo.workdir().map(Path::to_path_buf))
        .and_then(|w| w.canonicalize().ok());
    let start = cwd.canonicalize().unwrap_or_else(|_| cwd.to_path_buf());
    for dir in start.ancestors() {
        if dir.join(brain_core::store::BRAIN_DIR).is_dir() {
            return dir.to_path_buf();
        }
        if workdir.as_deref() == Some(dir) {
            break;
        }
    }
    workdir.unwrap_or(start)
}

fn git_actor(root: &Path) -> Option<String> {
    let repo = gix::discover(root).ok()?;
    let config = repo.config_snapshot();
    let name = config.string("user.name").map(|s| s.to_string());
    let email = config.string("user.email").map(|s| s.to_string());
    match (name, email) {
        (Some(n), Some(e)) => Some(format!("{n} <{e}>")),
        (Some(n), None) => Some(n),
        (None, Some(e)) => Some(e),
        (None, None) => None,
    }
}
