//! Stage 1: refuse what is not text, bound the size, normalise the layout.

use super::MAX_INPUT_BYTES;

/// Why an input is refused before extraction.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum InputError {
    /// More than [`MAX_INPUT_BYTES`].
    #[error(
        "input is larger than {limit} bytes ({size}{more} bytes); pass a session summary or commit message, not a log or a dump",
        limit = MAX_INPUT_BYTES,
        more = if *.truncated { "+" } else { "" }
    )]
    TooLarge {
        /// Bytes seen (reading stops just past the limit).
        size: usize,
        /// Whether reading stopped before the end.
        truncated: bool,
    },
    /// A NUL byte: the input is binary.
    #[error("input is binary (NUL byte at offset {offset}); extraction reads text")]
    Binary {
        /// Byte offset of the first NUL.
        offset: usize,
    },
    /// Not UTF-8.
    #[error("input is not valid UTF-8 (at byte {offset})")]
    NotUtf8 {
        /// Byte offset of the first invalid sequence.
        offset: usize,
    },
}

/// Checks raw bytes and returns them as normalised text.
///
/// # Errors
///
/// Too large, binary or not UTF-8 input.
pub fn decode(bytes: &[u8]) -> Result<String, InputError> {
    if bytes.len() > MAX_INPUT_BYTES {
        return Err(InputError::TooLarge {
            size: bytes.len(),
            truncated: false,
        });
    }
    if let Some(offset) = bytes.iter().position(|&b| b == 0) {
        return Err(InputError::Binary { offset });
    }
    let text = std::str::from_utf8(bytes).map_err(|e| InputError::NotUtf8 {
        offset: e.valid_up_to(),
    })?;
    Ok(normalize(text))
}

/// Line ends to `\n`, tabs to two spaces, bullet glyphs to `-`, trailing
/// spaces removed, runs of blank lines to one, a byte-order mark dropped.
pub fn normalize(text: &str) -> String {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut out = String::with_capacity(text.len());
    let mut blank_run = 0usize;
    let mut in_fence = false;
    for raw in text.split('\n') {
        let line = raw.strip_suffix('\r').unwrap_or(raw).replace('\t', "  ");
        let line = line.trim_end();
        let trimmed = line.trim_start();
        if trimmed.starts_with("```") || trimmed.starts_with("~~~") {
            in_fence = !in_fence;
        }
        if line.is_empty() {
            blank_run += 1;
            if blank_run > 1 && !in_fence {
                continue;
            }
        } else {
            blank_run = 0;
        }
        if in_fence {
            out.push_str(line);
        } else {
            let indent = &line[..line.len() - trimmed.len()];
            let bullet = ["• ", "· ", "‣ ", "◦ ", "▪ ", "– ", "* ", "+ "]
                .iter()
                .find_map(|g| trimmed.strip_prefix(g));
            match bullet {
                Some(rest) => {
                    out.push_str(indent);
                    out.push_str("- ");
                    out.push_str(rest);
                }
                None => out.push_str(line),
            }
        }
        out.push('\n');
    }
    let trimmed_len = out.trim_end().len();
    out.truncate(trimmed_len);
    let start = out.len() - out.trim_start_matches('\n').len();
    out.drain(..start);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_binary_invalid_and_oversized_input() {
        assert_eq!(decode(b"ab\0c"), Err(InputError::Binary { offset: 2 }));
        assert_eq!(decode(b"ok \xff"), Err(InputError::NotUtf8 { offset: 3 }));
        let big = vec![b'a'; MAX_INPUT_BYTES + 1];
        assert!(matches!(decode(&big), Err(InputError::TooLarge { .. })));
    }

    #[test]
    fn normalises_layout_but_not_code() {
        let text = "\u{feff}\r\nTitle\r\n\r\n\r\n\r\n• one\t\r\n* two\n```\n* keep\n\n\n```\n";
        assert_eq!(
            normalize(text),
            "Title\n\n- one\n- two\n```\n* keep\n\n\n```"
        );
    }
}
