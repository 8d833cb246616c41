//! The stdio transport of `brain mcp`: one JSON-RPC message per line.
//!
//! rmcp's own stdio transport drops unparsable and oversized lines without a
//! word, which leaves a client waiting on a request it believes was sent. This
//! one answers every line it cannot use with a JSON-RPC error and goes on
//! reading:
//!
//! * longer than [`MAX_LINE`] bytes: `-32600` (invalid request), id `null`;
//!   the line is skipped without ever being held in memory whole;
//! * not UTF-8, or not JSON: `-32700` (parse error), id `null`;
//! * JSON that is no MCP message: `-32600`, with the message's id when it has
//!   one; a malformed notification gets no answer, as JSON-RPC wants.
//!
//! Outgoing messages are queued on a channel whose receiver, in
//! `super::serve`, is the only writer of stdout.

use std::future::Future;
use std::io;

use rmcp::RoleServer;
use rmcp::service::{RxJsonRpcMessage, TxJsonRpcMessage};
use rmcp::transport::Transport;
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncRead, BufReader};
use tokio::sync::mpsc::UnboundedSender;

/// Longest line read, in bytes (4 MiB): far above any tool call, small enough
/// that a runaway client cannot exhaust memory.
pub(crate) const MAX_LINE: usize = 4 * 1024 * 1024;

/// JSON-RPC's parse error.
const PARSE_ERROR: i64 = -32700;
/// JSON-RPC's invalid request.
const INVALID_REQUEST: i64 = -32600;

/// Newline-delimited JSON-RPC over a reader, with replies on a channel.
#[derive(Debug)]
pub(crate) struct LineTransport<R> {
    read: BufReader<R>,
    /// The line read so far; kept across cancelled reads.
    line: Vec<u8>,
    /// Skipping the rest of an oversized line.
    discarding: bool,
    write: Option<UnboundedSender<Vec<u8>>>,
}

/// What one line turned out to be.
#[derive(Debug)]
enum Line {
    Message(Box<RxJsonRpcMessage<RoleServer>>),
    /// Nothing to answer (blank, or a malformed notification).
    Skip,
    /// The error to answer with.
    Reject(Value),
}

/// A JSON-RPC error response.
fn error(id: &Value, code: i64, message: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}})
}

impl<R: AsyncRead + Unpin + Send> LineTransport<R> {
    pub(crate) fn new(read: R, write: UnboundedSender<Vec<u8>>) -> Self {
        LineTransport {
            read: BufReader::new(read),
            line: Vec::new(),
            discarding: false,
            write: Some(write),
        }
    }

    /// Queues `bytes` and a newline for stdout.
    fn queue(&self, mut bytes: Vec<u8>) -> io::Result<()> {
        bytes.push(b'\n');
        self.write
            .as_ref()
            .and_then(|w| w.send(bytes).ok())
            .ok_or_else(|| io::Error::new(io::ErrorKind::BrokenPipe, "stdout is closed"))
    }

    /// Reads the next whole line into `self.line`: `Ok(true)` for a line,
    /// `Ok(false)` at the end of input, `Err(())` for a line over
    /// [`MAX_LINE`] (already skipped, or being skipped). Cancel-safe: bytes
    /// are consumed only once copied.
    async fn read_line(&mut self) -> io::Result<Result<bool, ()>> {
        loop {
            let available = self.read.fill_buf().await?;
            if available.is_empty() {
                // A last line without a newline still counts.
                return Ok(Ok(!self.line.is_empty() && !self.discarding));
            }
            let newline = available.iter().position(|b| *b == b'\n');
            let take = newline.map_or(available.len(), |i| i + 1);
            let oversized = !self.discarding && self.line.len() + take > MAX_LINE;
            if !self.discarding && !oversized {
                self.line.extend_from_slice(&available[..take]);
            }
            self.read.consume(take);
            if oversized {
                self.line.clear();
                self.discarding = newline.is_none();
                return Ok(Err(()));
            }
            if newline.is_some() {
                if self.discarding {
                    self.discarding = false;
                    continue;
                }
                return Ok(Ok(true));
            }
        }
    }
}

/// Judges one line (without its newline).
fn classify(line: &[u8]) -> Line {
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    let line = line.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(line);
    if line.iter().all(u8::is_ascii_whitespace) {
        return Line::Skip;
    }
    let Ok(text) = std::str::from_utf8(line) else {
        return Line::Reject(error(
            &Value::Null,
            PARSE_ERROR,
            "Parse error: the line is not valid UTF-8",
        ));
    };
    let value: Value = match serde_json::from_str(text) {
        Ok(v) => v,
        Err(e) => {
            return Line::Reject(error(
                &Value::Null,
                PARSE_ERROR,
                &format!("Parse error: {e}"),
            ));
        }
    };
    match serde_json::from_value::<RxJsonRpcMessage<RoleServer>>(value.clone()) {
        Ok(message) => Line::Message(Box::new(message)),
        Err(e) => {
            let id = value
                .get("id")
                .filter(|id| id.is_string() || id.is_number())
                .cloned();
            match id {
                Some(id) => Line::Reject(error(
                    &id,
                    INVALID_REQUEST,
                    &format!("Invalid request: {e}"),
                )),
                None if value.get("method").is_some() => Line::Skip,
                None => Line::Reject(error(
                    &Value::Null,
                    INVALID_REQUEST,
                    "Invalid request: not a JSON-RPC 2.0 message",
                )),
            }
        }
    }
}

impl<R: AsyncRead + Unpin + Send + 'static> Transport<RoleServer> for LineTransport<R> {
    type Error = io::Error;

    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleServer>,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        let result = serde_json::to_vec(&item)
            .map_err(io::Error::other)
            .and_then(|bytes| self.queue(bytes));
        std::future::ready(result)
    }

    async fn receive(&mut self) -> Option<RxJsonRpcMessage<RoleServer>> {
        loop {
            let read = match self.read_line().await {
                Ok(read) => read,
                Err(e) => {
                    super::log(format_args!("cannot read stdin: {e}"));
                    return None;
                }
            };
            let reply = match read {
                Ok(false) => return None,
                Err(()) => {
                    super::log(format_args!("skipped a line over {MAX_LINE} bytes"));
                    error(
                        &Value::Null,
                        INVALID_REQUEST,
                        &format!("Invalid request: the line is longer than {MAX_LINE} bytes"),
                    )
                }
                Ok(true) => {
                    let line = std::mem::take(&mut self.line);
                    let body = line.strip_suffix(b"\n").unwrap_or(&line);
                    match classify(body) {
                        Line::Message(message) => return Some(*message),
                        Line::Skip => continue,
                        Line::Reject(reply) => {
                            super::log(format_args!(
                                "answered an unusable line: {}",
                                reply["error"]["message"]
                            ));
                            reply
                        }
                    }
                }
            };
            let bytes = serde_json::to_vec(&reply).expect("a JSON value serialises");
            if self.queue(bytes).is_err() {
                return None;
            }
        }
    }

    async fn close(&mut self) -> Result<(), Self::Error> {
        self.write = None;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn code(line: &[u8]) -> Option<i64> {
        match classify(line) {
            Line::Reject(v) => v["error"]["code"].as_i64(),
            _ => None,
        }
    }

    #[test]
    fn unusable_lines_get_the_json_rpc_error_codes() {
        assert_eq!(code(b"not json"), Some(PARSE_ERROR));
        assert_eq!(
            code(b"{\"jsonrpc\":\"2.0\",\"id\":1,\xff}"),
            Some(PARSE_ERROR)
        );
        assert_eq!(code(b"[1,2]"), Some(INVALID_REQUEST));
        assert_eq!(code(b"{\"id\":7,\"method\":3}"), Some(INVALID_REQUEST));
        assert!(matches!(classify(b"  \r"), Line::Skip));
        assert!(matches!(
            classify(b"{\"jsonrpc\":\"2.0\",\"method\":\"ping\",\"id\":1}"),
            Line::Message(_)
        ));
    }

    #[test]
    fn a_bad_request_keeps_its_id() {
        let Line::Reject(v) =
            classify(br#"{"jsonrpc":"2.0","id":"a","method":"tools/call","params":3}"#)
        else {
            panic!("expected a rejection");
        };
        assert_eq!(v["id"], "a");
    }
}
