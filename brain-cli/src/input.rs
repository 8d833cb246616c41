//! Reading text input for the extraction commands: `--input`, `--input-file`
//! or stdin, bounded so a huge input is refused without being read whole.

use std::io::{IsTerminal, Read};
use std::path::Path;

use brain_core::extract::MAX_INPUT_BYTES;
use brain_core::extract::preprocess::{self, InputError};

use crate::error::CliError;

#[derive(Debug, thiserror::Error)]
enum ReadError {
    /// The problem is part of the message, not a cause of its own.
    #[error("{what}: {problem}")]
    Input { what: String, problem: InputError },
    #[error("cannot read {what}")]
    Io {
        what: String,
        #[source]
        source: std::io::Error,
    },
    #[error("no input: stdin is a terminal")]
    NoInput,
}

/// Reads at most [`MAX_INPUT_BYTES`] + 1 bytes from `reader`.
fn read_bounded(reader: impl Read, what: &str) -> Result<Vec<u8>, CliError> {
    let mut buf = Vec::new();
    let limit = u64::try_from(MAX_INPUT_BYTES).unwrap_or(u64::MAX) + 1;
    reader.take(limit).read_to_end(&mut buf).map_err(|source| {
        CliError::user(ReadError::Io {
            what: what.to_owned(),
            source,
        })
    })?;
    if buf.len() > MAX_INPUT_BYTES {
        return Err(CliError::user(ReadError::Input {
            what: what.to_owned(),
            problem: InputError::TooLarge {
                size: buf.len(),
                truncated: true,
            },
        })
        .hint("summarise the session first, or pass the part worth keeping"));
    }
    Ok(buf)
}

/// Decodes bytes into normalised text, naming the input in errors.
pub(crate) fn decode(bytes: &[u8], what: &str) -> Result<String, CliError> {
    preprocess::decode(bytes).map_err(|problem| {
        CliError::user(ReadError::Input {
            what: what.to_owned(),
            problem,
        })
    })
}

/// Reads stdin, bounded like captured text, as UTF-8 without NUL bytes,
/// with Windows line ends turned into `\n` but otherwise as it is (a
/// memory's detail keeps its layout).
pub(crate) fn stdin_text(what: &str) -> Result<String, CliError> {
    let bytes = read_bounded(std::io::stdin().lock(), what)?;
    let problem = if let Some(offset) = bytes.iter().position(|&b| b == 0) {
        InputError::Binary { offset }
    } else {
        match String::from_utf8(bytes) {
            Ok(text) => return Ok(text.replace("\r\n", "\n")),
            Err(e) => InputError::NotUtf8 {
                offset: e.utf8_error().valid_up_to(),
            },
        }
    };
    Err(CliError::user(ReadError::Input {
        what: what.to_owned(),
        problem,
    }))
}

/// Reads a file, bounded.
pub(crate) fn read_file(path: &Path) -> Result<(Vec<u8>, String), CliError> {
    let what = path.display().to_string();
    let file = std::fs::File::open(path).map_err(|source| {
        CliError::user(ReadError::Io {
            what: what.clone(),
            source,
        })
    })?;
    Ok((read_bounded(file, &what)?, what))
}

/// The raw bytes of `file`, or of stdin when it is not a terminal, bounded
/// like [`text`] but not decoded or normalised (for JSON input, whose line
/// numbers and string contents must stay as they are). Returns the bytes and
/// the name of the input for messages.
pub(crate) fn raw(file: Option<&Path>) -> Result<(Vec<u8>, String), CliError> {
    if let Some(path) = file {
        return read_file(path);
    }
    let stdin = std::io::stdin();
    if stdin.is_terminal() {
        return Err(CliError::user(ReadError::NoInput)
            .hint("pipe the input on stdin, or pass `--input-file FILE`"));
    }
    Ok((read_bounded(stdin.lock(), "stdin")?, "stdin".to_owned()))
}

/// The input text: `--input`, `--input-file`, or stdin when it is not a
/// terminal. Returns the normalised text.
pub(crate) fn text(inline: Option<&str>, file: Option<&Path>) -> Result<String, CliError> {
    if let Some(text) = inline {
        return decode(text.as_bytes(), "--input");
    }
    if let Some(path) = file {
        let (bytes, what) = read_file(path)?;
        return decode(&bytes, &what);
    }
    let stdin = std::io::stdin();
    if stdin.is_terminal() {
        return Err(CliError::user(ReadError::NoInput)
            .hint("pass `--input TEXT`, `--input-file FILE`, or pipe the text on stdin"));
    }
    let bytes = read_bounded(stdin.lock(), "stdin")?;
    decode(&bytes, "stdin")
}
