//! Reading a batch of JSON objects given as one JSON array or as NDJSON (one
//! object per line), so that every item keeps the line it starts on.
//!
//! Used by `brain routing-feedback` and `brain failure record`. An item that
//! does not parse is an error of its own line, and the other items still
//! count; only an input whose overall shape is broken (an array that is never
//! closed, text after the closing `]`) is refused as a whole.
//!
//! The array is split at its top-level commas by a small scanner that skips
//! strings and counts brackets, then each element is parsed on its own; that
//! is how an element of an array gets a line number, which
//! `serde_json::Value` does not keep.

use std::fmt::Write as _;

use serde::de::DeserializeOwned;
use serde_path_to_error::Segment;

/// One item of the batch: the text of one JSON value and where it starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Item<'a> {
    /// 1-based line of the input on which the item starts.
    pub line: usize,
    /// 1-based column (in characters) on that line.
    pub column: usize,
    /// The item's text; empty for an empty array element (`[{…},,{…}]`).
    pub text: &'a str,
}

/// Why the whole input was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line} column {column}: {message}")]
pub struct BatchError {
    /// 1-based line.
    pub line: usize,
    /// 1-based column.
    pub column: usize,
    /// What is wrong.
    pub message: String,
}

/// Why one item was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ItemError {
    /// 1-based line of the input where the problem is.
    pub line: usize,
    /// 1-based column, when known.
    pub column: Option<usize>,
    /// The field, as a dotted path (`strength`, `paths[1]`), when known.
    pub field: Option<String>,
    /// Whether the text is not JSON at all (as opposed to JSON of the wrong shape).
    pub syntax: bool,
    /// What is wrong, without position (that is in `line` and `column`).
    pub message: String,
}

/// Splits `text` into items: the elements of a JSON array when the first
/// character that is not white space is `[`, else every line that is not
/// blank. A leading byte-order mark is ignored.
///
/// # Errors
/// An array that is not closed, or text after its closing `]`.
pub fn split(text: &str) -> Result<Vec<Item<'_>>, BatchError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    match text.trim_start().as_bytes().first() {
        Some(b'[') => split_array(text),
        _ => Ok(text
            .lines()
            .enumerate()
            .filter(|(_, l)| !l.trim().is_empty())
            .map(|(i, l)| {
                let trimmed = l.trim_start();
                Item {
                    line: i + 1,
                    column: l[..l.len() - trimmed.len()].chars().count() + 1,
                    text: trimmed.trim_end(),
                }
            })
            .collect()),
    }
}

/// 1-based line and column of byte `offset` in `text`.
fn position(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    (line, before[line_start..].chars().count() + 1)
}

/// Adds the element `text[from..to]`, trimmed, with its position.
fn push<'a>(text: &'a str, from: usize, to: usize, items: &mut Vec<Item<'a>>) {
    let raw = &text[from..to];
    let lead = raw.len() - raw.trim_start().len();
    let (line, column) = position(text, from + lead);
    items.push(Item {
        line,
        column,
        text: raw.trim(),
    });
}

fn split_array(text: &str) -> Result<Vec<Item<'_>>, BatchError> {
    let bytes = text.as_bytes();
    let open = text.len() - text.trim_start().len();
    let mut items = Vec::new();
    let mut depth = 0usize;
    let mut in_string = false;
    let mut escaped = false;
    let mut start = open + 1;
    let mut i = open + 1;
    while i < bytes.len() {
        let b = bytes[i];
        if in_string {
            if escaped {
                escaped = false;
            } else if b == b'\\' {
                escaped = true;
            } else if b == b'"' {
                in_string = false;
            }
        } else {
            match b {
                b'"' => in_string = true,
                b'[' | b'{' => depth += 1,
                b']' | b'}' if depth > 0 => depth -= 1,
                b',' if depth == 0 => {
                    push(text, start, i, &mut items);
                    start = i + 1;
                }
                b']' => {
                    // The closing bracket. `[]` and `[ ]` hold nothing; a
                    // trailing comma leaves an empty last element.
                    if !(items.is_empty() && text[start..i].trim().is_empty()) {
                        push(text, start, i, &mut items);
                    }
                    let rest = &text[i + 1..];
                    if let Some(off) = rest.find(|c: char| !c.is_whitespace()) {
                        let (line, column) = position(text, i + 1 + off);
                        return Err(BatchError {
                            line,
                            column,
                            message: "text after the closing `]` of the array".to_owned(),
                        });
                    }
                    return Ok(items);
                }
                // A stray top-level `}` belongs to the element; parsing the
                // element reports it.
                _ => {}
            }
        }
        i += 1;
    }
    let (line, column) = position(text, open);
    Err(BatchError {
        line,
        column,
        message: "the array that starts here is never closed with `]`".to_owned(),
    })
}

/// Parses one item as a `T`, with the field and the position of the first
/// problem. Unknown fields are refused when `T` denies them.
///
/// # Errors
/// The item is empty, not JSON, or not a `T`.
pub fn parse<T: DeserializeOwned>(item: &Item<'_>) -> Result<T, ItemError> {
    if item.text.is_empty() {
        return Err(ItemError {
            line: item.line,
            column: Some(item.column),
            field: None,
            syntax: true,
            message: "empty array element (a stray or trailing comma)".to_owned(),
        });
    }
    // Valid JSON that is not an object: say so, rather than serde's
    // "expected value" or "invalid type" for its first element.
    if !item.text.starts_with('{')
        && let Ok(value) = serde_json::from_str::<serde_json::Value>(item.text)
    {
        let found = match value {
            serde_json::Value::Array(_) => "an array",
            serde_json::Value::String(_) => "a string",
            serde_json::Value::Bool(_) => "a boolean",
            serde_json::Value::Number(_) => "a number",
            serde_json::Value::Null | serde_json::Value::Object(_) => "null",
        };
        return Err(ItemError {
            line: item.line,
            column: Some(item.column),
            field: None,
            syntax: false,
            message: format!("expected a JSON object, found {found}"),
        });
    }
    let mut de = serde_json::Deserializer::from_str(item.text);
    let value: T = serde_path_to_error::deserialize(&mut de).map_err(|err| {
        let path = err.path().clone();
        let inner = err.into_inner();
        let segments: Vec<&Segment> = path.iter().collect();
        let syntax = inner.is_syntax() || inner.is_eof();
        let known = !segments.is_empty() && !segments.iter().any(|s| matches!(s, Segment::Unknown));
        let field = (known && !syntax).then(|| dotted(&segments));
        item_error(item, &inner, field)
    })?;
    de.end().map_err(|e| item_error(item, &e, None))?;
    Ok(value)
}

fn dotted(segments: &[&Segment]) -> String {
    let mut out = String::new();
    for s in segments {
        match s {
            Segment::Seq { index } => {
                let _ = write!(out, "[{index}]");
            }
            Segment::Map { key } => {
                if !out.is_empty() {
                    out.push('.');
                }
                out.push_str(key);
            }
            Segment::Enum { variant } => {
                if !out.is_empty() {
                    out.push('.');
                }
                out.push_str(variant);
            }
            Segment::Unknown => out.push('?'),
        }
    }
    out
}

fn item_error(item: &Item<'_>, err: &serde_json::Error, field: Option<String>) -> ItemError {
    let (line, column) = if err.line() == 0 {
        (item.line, None)
    } else if err.line() == 1 {
        (
            item.line,
            Some(item.column + err.column().saturating_sub(1)),
        )
    } else {
        (item.line + err.line() - 1, Some(err.column()))
    };
    let full = err.to_string();
    let suffix = format!(" at line {} column {}", err.line(), err.column());
    let message = full.strip_suffix(&suffix).unwrap_or(&full).to_owned();
    // serde names a missing top-level key only in its message.
    let field = field.or_else(|| {
        message
            .strip_prefix("missing field `")
            .and_then(|rest| rest.split_once('`'))
            .map(|(name, _)| name.to_owned())
    });
    ItemError {
        line,
        column,
        field,
        syntax: err.is_syntax() || err.is_eof(),
        message,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, PartialEq, serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Ev {
        #[serde(rename = "type")]
        kind: String,
        #[serde(default)]
        n: Option<u32>,
    }

    fn lines(text: &str) -> Vec<(usize, usize, &str)> {
        split(text)
            .unwrap()
            .into_iter()
            .map(|i| (i.line, i.column, i.text))
            .collect()
    }

    #[test]
    fn ndjson_items_keep_their_lines() {
        let text = "{\"type\":\"a\"}\n\n  {\"type\":\"b\"}  \r\nnot json\n";
        assert_eq!(
            lines(text),
            [
                (1, 1, "{\"type\":\"a\"}"),
                (3, 3, "{\"type\":\"b\"}"),
                (4, 1, "not json")
            ]
        );
        assert!(lines("").is_empty());
        assert!(lines("\n  \n").is_empty());
    }

    #[test]
    fn array_elements_keep_their_lines() {
        let text = "\u{feff}[\n  {\"type\":\"a,]\\\"}\"},\n  {\"type\":\n \"b\", \"n\": [1,2]},\n  ,{}\n]\n";
        assert_eq!(
            lines(text),
            [
                (2, 3, "{\"type\":\"a,]\\\"}\"}"),
                (3, 3, "{\"type\":\n \"b\", \"n\": [1,2]}"),
                (5, 3, ""),
                (5, 4, "{}")
            ]
        );
        assert!(lines("[]").is_empty());
        assert!(lines(" [ \n ] \n").is_empty());
        assert_eq!(lines("[{},]"), [(1, 2, "{}"), (1, 5, "")]);
    }

    #[test]
    fn broken_arrays_are_refused_whole() {
        let cases = [
            ("[{\"type\":\"a\"}", 1, 1, "never closed"),
            ("\n  [{\"type\":\"a]\"}", 2, 3, "never closed"),
            ("[{}] {}", 1, 6, "text after the closing"),
            ("[{}]\n]", 2, 1, "text after the closing"),
        ];
        for (text, line, column, message) in cases {
            let err = split(text).unwrap_err();
            assert_eq!((err.line, err.column), (line, column), "{text}");
            assert!(err.message.contains(message), "{text}: {err}");
        }
    }

    #[test]
    fn item_errors_name_line_column_and_field() {
        let items = split("[\n {\"type\":\"a\"},\n {\"type\":\"b\", \"n\": \"x\"},\n {\"kind\":1},\n {\"type\":\"c\"} x,\n {\"type\": \n  tru},\n\n]").unwrap();
        let results: Vec<Result<Ev, ItemError>> = items.iter().map(parse).collect();
        assert_eq!(
            results[0].as_ref().unwrap(),
            &Ev {
                kind: "a".into(),
                n: None
            }
        );
        let e = results[1].as_ref().unwrap_err();
        assert_eq!(
            (e.line, e.column, e.field.as_deref(), e.syntax),
            (3, Some(22), Some("n"), false)
        );
        assert!(e.message.starts_with("invalid type: string \"x\""), "{e:?}");
        let e = results[2].as_ref().unwrap_err();
        assert_eq!((e.line, e.field.as_deref()), (4, Some("kind")));
        assert!(e.message.starts_with("unknown field `kind`"), "{e:?}");
        let e = results[3].as_ref().unwrap_err();
        assert_eq!((e.line, e.syntax), (5, true));
        assert_eq!(e.message, "trailing characters");
        let e = results[4].as_ref().unwrap_err();
        assert_eq!((e.line, e.column, e.syntax), (7, Some(6), true));
        let e = parse::<Ev>(&Item {
            line: 3,
            column: 1,
            text: "[1, 2]",
        })
        .unwrap_err();
        assert_eq!(
            (e.message.as_str(), e.syntax),
            ("expected a JSON object, found an array", false)
        );
        let e = parse::<Ev>(&Item {
            line: 3,
            column: 1,
            text: "nope",
        })
        .unwrap_err();
        assert!(e.syntax);
        let e = parse::<Ev>(&Item {
            line: 3,
            column: 1,
            text: "{\"n\": 1}",
        })
        .unwrap_err();
        assert_eq!(
            (e.field.as_deref(), e.message.as_str()),
            (Some("type"), "missing field `type`")
        );
        let e = parse::<Ev>(&Item {
            line: 9,
            column: 2,
            text: "",
        })
        .unwrap_err();
        assert!(e.message.contains("empty array element"), "{e:?}");
    }
}
