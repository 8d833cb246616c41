//! `CliError` and exit statuses: every core error is classified here, once.
//!
//! | status | meaning |
//! | --- | --- |
//! | 0 | success (an empty result is still success) |
//! | 1 | findings: the command ran and the answer is "no" (lint problems, files not canonical) |
//! | 2 | usage or input error: bad arguments, no store, invalid config, unknown id |
//! | 3 | internal error: I/O outside the user's control, a bug |

use std::error::Error as StdError;
use std::io;
use std::process::ExitCode;

use brain_core::report::LookupError;
use brain_core::store;

/// How a command ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ExitStatus {
    Success,
    Findings,
    UserError,
    Internal,
}

impl ExitStatus {
    pub(crate) fn code(self) -> u8 {
        match self {
            ExitStatus::Success => 0,
            ExitStatus::Findings => 1,
            ExitStatus::UserError => 2,
            ExitStatus::Internal => 3,
        }
    }
}

impl From<ExitStatus> for ExitCode {
    fn from(s: ExitStatus) -> Self {
        ExitCode::from(s.code())
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ErrorKind {
    User,
    Internal,
    BrokenPipe,
}

/// An error on its way to the user, with its classification and hints.
#[derive(Debug)]
pub(crate) struct CliError {
    pub(crate) kind: ErrorKind,
    pub(crate) source: Box<dyn StdError + Send + Sync>,
    pub(crate) hints: Vec<String>,
}

impl CliError {
    pub(crate) fn user(err: impl Into<Box<dyn StdError + Send + Sync>>) -> CliError {
        CliError {
            kind: ErrorKind::User,
            source: err.into(),
            hints: Vec::new(),
        }
    }

    pub(crate) fn internal(err: impl Into<Box<dyn StdError + Send + Sync>>) -> CliError {
        CliError {
            kind: ErrorKind::Internal,
            source: err.into(),
            hints: Vec::new(),
        }
    }

    pub(crate) fn hint(mut self, hint: impl Into<String>) -> CliError {
        self.hints.push(hint.into());
        self
    }

    pub(crate) fn status(&self) -> ExitStatus {
        match self.kind {
            ErrorKind::User => ExitStatus::UserError,
            ErrorKind::Internal => ExitStatus::Internal,
            ErrorKind::BrokenPipe => ExitStatus::Success,
        }
    }

    /// The message and every cause below it, outermost first.
    pub(crate) fn chain(&self) -> Vec<String> {
        let mut out = vec![self.source.to_string()];
        let mut cur = self.source.source();
        while let Some(e) = cur {
            let msg = e.to_string();
            if out.last() != Some(&msg) {
                out.push(msg);
            }
            cur = e.source();
        }
        out
    }
}

impl From<store::Error> for CliError {
    fn from(err: store::Error) -> Self {
        match &err {
            store::Error::NotInitialized { .. } => {
                CliError::user(err).hint("run `brain init` to create a store, or pass `-C <dir>`")
            }
            store::Error::ConfigExists { .. } => CliError::user(err)
                .hint("pass `--force` to replace it, or edit `.brain/config.yaml` by hand"),
            store::Error::Config { .. }
            | store::Error::Git(_)
            | store::Error::ConfigValue { .. }
            | store::Error::NotUtf8 { .. }
            | store::Error::OutsideStore { .. } => CliError::user(err),
            store::Error::Symlink { .. } => CliError::user(err).hint(
                "replace the link with a real directory; brain never writes through links in `.brain/`",
            ),
            store::Error::NotRepoBrain { .. } => CliError::user(err)
                .hint("pass the RepoBrain project root or its `.brain/` directory"),
            store::Error::LockTimeout { .. } => CliError::user(err)
                .hint("another brain command is still writing; retry when it has finished"),
            _ => CliError::internal(err),
        }
    }
}

impl From<LookupError> for CliError {
    fn from(err: LookupError) -> Self {
        let hint = match &err {
            LookupError::NotFound {
                suggestion: Some(id),
                ..
            } => format!("did you mean `{id}`?"),
            LookupError::NotFound { .. } => "`brain list` shows every id".to_owned(),
            _ => "give more characters of the id".to_owned(),
        };
        CliError::user(err).hint(hint)
    }
}

impl From<brain_core::Error> for CliError {
    fn from(err: brain_core::Error) -> Self {
        match err {
            brain_core::Error::Store(e) => e.into(),
            brain_core::Error::Lookup(e) => e.into(),
            other => CliError::user(other),
        }
    }
}

/// Errors writing our own stdout or stderr.
impl From<io::Error> for CliError {
    fn from(err: io::Error) -> Self {
        if err.kind() == io::ErrorKind::BrokenPipe {
            CliError {
                kind: ErrorKind::BrokenPipe,
                source: err.into(),
                hints: Vec::new(),
            }
        } else {
            CliError::internal(err)
        }
    }
}
