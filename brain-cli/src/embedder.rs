//! Embedding providers that need the outside world, chosen by the
//! `embedding:` section of the config. The contract ([`Embedder`]), the
//! offline default ([`HashEmbedder`]) and the checks of what a provider
//! returns are in [`brain_core::embed`]; this module talks HTTP and runs
//! processes.
//!
//! * `hash`: [`HashEmbedder`], offline.
//! * `openai`: `POST {base_url}/v1/embeddings` with `{"model", "input",
//!   "dimensions"}` (Ollama, vLLM, LM Studio, `OpenAI`, …), the API key from
//!   the environment variable named by `api_key_env`, retried with backoff
//!   on 429, 5xx and connection failures. `https://` needs the `tls` feature.
//! * `command`: runs `command[0]` with the other words as arguments (no
//!   shell) in the repository root, writes `{"texts": [...]}` on its stdin and
//!   reads `{"vectors": [[...], ...]}` from its stdout.
//! * `local-static` (feature `embed-static`): a model2vec-style static model
//!   read from `embedding.model_dir` (see `embedder/local_static.rs`).
//! * `local-bert`: not built in yet.

use std::cell::Cell;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

use brain_core::config::{EmbeddingConfig, EmbeddingProviderKind};
use brain_core::embed::{EmbedError, Embedder, EmbedderId, HashEmbedder, check_vectors, excerpt};
use serde::Deserialize;

use crate::context::Context;
use crate::error::CliError;

#[cfg(feature = "embed-static")]
mod local_static;

/// Attempts of one request before giving up on a transient failure.
const ATTEMPTS: u32 = 3;
/// First pause between attempts; doubled after each.
const BACKOFF: Duration = Duration::from_millis(200);
/// Longest `Retry-After` honoured; a longer one falls back to the backoff.
const MAX_RETRY_AFTER: Duration = Duration::from_secs(5);
/// Smallest cap on an answer's size; larger batches get more.
const MIN_ANSWER_BYTES: usize = 8 << 20;
/// Largest cap on an answer's size.
const MAX_ANSWER_BYTES: usize = 512 << 20;
/// Bytes of a command's stderr kept for the error message.
const STDERR_CAP: usize = 64 << 10;

/// The embedder the config asks for. Reads the API key (through `ctx`) and
/// checks the settings, but contacts nothing yet.
pub(crate) fn from_config(
    ctx: &Context,
    config: &EmbeddingConfig,
) -> Result<Box<dyn Embedder>, CliError> {
    build(config, ctx.root(), &|name| ctx.env(name).map(str::to_owned))
}

fn build(
    config: &EmbeddingConfig,
    root: &Path,
    env: &dyn Fn(&str) -> Option<String>,
) -> Result<Box<dyn Embedder>, CliError> {
    let timeout = Duration::from_millis(config.timeout_ms.max(1));
    let batch_size = usize::try_from(config.batch_size.max(1)).unwrap_or(usize::MAX);
    match config.provider {
        EmbeddingProviderKind::Hash => Ok(Box::new(HashEmbedder::new(config.dimensions))),
        EmbeddingProviderKind::Openai => {
            Ok(Box::new(OpenAi::new(config, env, timeout, batch_size)?))
        }
        EmbeddingProviderKind::Command => {
            let Some((program, args)) = config.command.split_first() else {
                return Err(config_error(
                    "the `command` provider needs `embedding.command`",
                ));
            };
            let model = config.model.clone().unwrap_or_else(|| {
                // Another command line is another model: never share vectors.
                let hash = brain_core::embed::content_hash(&config.command.join("\0"));
                let short = u32::from_be_bytes([hash[0], hash[1], hash[2], hash[3]]);
                format!("cmd-{short:08x}")
            });
            Ok(Box::new(CommandEmbedder {
                program: program.clone(),
                args: args.to_vec(),
                dir: root.to_path_buf(),
                id: EmbedderId::new("command", model, config.dimensions),
                timeout,
                batch_size,
            }))
        }
        EmbeddingProviderKind::LocalStatic => local_static_embedder(config, root),
        EmbeddingProviderKind::LocalBert => Err(not_built_in("local-bert", "embed-candle")),
    }
}

/// The `local-static` provider: the model in `embedding.model_dir`, a path
/// relative to the repository root unless absolute.
#[cfg(feature = "embed-static")]
fn local_static_embedder(
    config: &EmbeddingConfig,
    root: &Path,
) -> Result<Box<dyn Embedder>, CliError> {
    let Some(dir) = config
        .model_dir
        .as_deref()
        .map(str::trim)
        .filter(|d| !d.is_empty())
    else {
        return Err(config_error(
            "the `local-static` provider needs `embedding.model_dir`",
        ));
    };
    let dir = root.join(dir);
    match local_static::StaticEmbedder::load(&dir, config.model.as_deref()) {
        Ok(embedder) => Ok(Box::new(embedder)),
        Err(err) => Err(CliError::user(err).hint(MODEL_HINT)),
    }
}

#[cfg(not(feature = "embed-static"))]
fn local_static_embedder(_: &EmbeddingConfig, _: &Path) -> Result<Box<dyn Embedder>, CliError> {
    Err(not_built_in("local-static", "embed-static"))
}

/// What a local model directory must hold.
const MODEL_HINT: &str = "`embedding.model_dir` must hold `model.safetensors` (the embedding matrix) and `tokenizer.json`; see docs/retrieval.md";

fn config_error(message: impl Into<String>) -> CliError {
    CliError::user(EmbedError::Config(message.into()))
        .hint("see the `embedding:` keys in docs/memory-format.md")
}

fn not_built_in(provider: &str, feature: &str) -> CliError {
    CliError::user(EmbedError::NotBuiltIn {
        provider: provider.to_owned(),
        feature: feature.to_owned(),
    })
    .hint("or set `embedding.provider` to `hash`, `openai` or `command`")
}

/// The hint for an embedding that failed while running.
pub(crate) fn failure(err: EmbedError) -> CliError {
    let from_command = match &err {
        EmbedError::Spawn { .. } | EmbedError::Exit { .. } => true,
        EmbedError::Timeout { target, .. } => !target.contains("://"),
        _ => false,
    };
    let hint = match &err {
        EmbedError::Dimension { .. } | EmbedError::Config(_) => {
            "check the `embedding:` section of `.brain/config.yaml`"
        }
        EmbedError::Model { .. } => MODEL_HINT,
        _ if from_command => {
            "check `embedding.command`: it must read {\"texts\": [..]} and print {\"vectors\": [[..], ..]}"
        }
        _ => {
            "check `embedding.base_url`, `embedding.model` and that the server is up; vectors computed so far are kept"
        }
    };
    CliError::user(err).hint(hint)
}

// ---------------------------------------------------------------- openai

/// An OpenAI-compatible `/v1/embeddings` endpoint.
struct OpenAi {
    agent: ureq::Agent,
    url: String,
    id: EmbedderId,
    api_key: Option<String>,
    timeout: Duration,
    batch_size: usize,
    /// Cleared when the server refuses the `dimensions` parameter.
    send_dimensions: Cell<bool>,
}

impl OpenAi {
    fn new(
        config: &EmbeddingConfig,
        env: &dyn Fn(&str) -> Option<String>,
        timeout: Duration,
        batch_size: usize,
    ) -> Result<OpenAi, CliError> {
        let Some(base) = config
            .base_url
            .as_deref()
            .map(str::trim)
            .filter(|b| !b.is_empty())
        else {
            return Err(config_error(
                "the `openai` provider needs `embedding.base_url`",
            ));
        };
        let Some(model) = config
            .model
            .as_deref()
            .map(str::trim)
            .filter(|m| !m.is_empty())
        else {
            return Err(config_error(
                "the `openai` provider needs `embedding.model` (e.g. `nomic-embed-text`)",
            ));
        };
        let url = endpoint(base);
        let https = url.starts_with("https://");
        if !https && !url.starts_with("http://") {
            return Err(config_error(format!(
                "`embedding.base_url` must start with http:// or https://: `{base}`"
            )));
        }
        if https && !cfg!(feature = "tls") {
            return Err(CliError::user(EmbedError::Config(format!(
                "`{base}` is an https URL, but this brain was built without TLS"
            )))
            .hint("rebuild with `cargo install --path brain-cli --locked --features tls`, or use a plain http endpoint"));
        }
        let api_key = match config.api_key_env.as_deref().map(str::trim) {
            None | Some("") => None,
            Some(name) => Some(env(name).filter(|k| !k.trim().is_empty()).ok_or_else(|| {
                CliError::user(EmbedError::Config(format!(
                    "the environment variable `{name}` named by `embedding.api_key_env` is not set"
                )))
                .hint(format!("export {name}=<your API key>"))
            })?),
        };
        let proxy = proxy_for(&url, env)?;
        let agent: ureq::Agent = ureq::Agent::config_builder()
            .timeout_global(Some(timeout))
            .http_status_as_error(false)
            .proxy(proxy)
            .max_redirects(0)
            .user_agent(concat!("brain/", env!("CARGO_PKG_VERSION")))
            .build()
            .into();
        Ok(OpenAi {
            agent,
            url,
            id: EmbedderId::new("openai", model, config.dimensions),
            api_key,
            timeout,
            batch_size,
            send_dimensions: Cell::new(true),
        })
    }

    fn embed_batch(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>, EmbedError> {
        let send = self.send_dimensions.get();
        match self.request_with_retries(texts, send) {
            // Servers whose model has a fixed size (vLLM without matryoshka
            // support) refuse the parameter: ask once more without it, and
            // let the length check say what size the model has.
            Err(EmbedError::Http {
                status: 400, body, ..
            }) if send && body.to_lowercase().contains("dimension") => {
                self.send_dimensions.set(false);
                self.request_with_retries(texts, false)
            }
            other => other,
        }
    }

    fn request_with_retries(
        &self,
        texts: &[&str],
        dimensions: bool,
    ) -> Result<Vec<Vec<f32>>, EmbedError> {
        let mut body = serde_json::json!({ "model": self.id.model, "input": texts });
        if dimensions {
            body["dimensions"] = self.id.dimensions.into();
        }
        let body = body.to_string();
        let mut attempt = 1;
        loop {
            let (err, retry_after) = match self.post(&body, texts.len()) {
                Ok(answer) => return parse_openai(&answer, texts.len(), self.id.dimensions),
                Err(failed) => failed,
            };
            if !err.is_transient() || attempt >= ATTEMPTS {
                return Err(if attempt > 1 {
                    EmbedError::Retries {
                        attempts: attempt,
                        last: Box::new(err),
                    }
                } else {
                    err
                });
            }
            let backoff = BACKOFF * 2u32.pow(attempt - 1);
            thread::sleep(
                retry_after
                    .filter(|d| *d <= MAX_RETRY_AFTER)
                    .unwrap_or(backoff),
            );
            attempt += 1;
        }
    }

    /// One POST; on failure also the `Retry-After` delay, when given.
    fn post(&self, body: &str, texts: usize) -> Result<Vec<u8>, (EmbedError, Option<Duration>)> {
        let mut request = self
            .agent
            .post(&self.url)
            .header("Content-Type", "application/json")
            .header("Accept", "application/json");
        if let Some(key) = &self.api_key {
            request = request.header("Authorization", format!("Bearer {key}"));
        }
        let mut response = request.send(body).map_err(|e| (self.transport(e), None))?;
        let status = response.status().as_u16();
        let retry_after = response
            .headers()
            .get("retry-after")
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.trim().parse::<u64>().ok())
            .map(Duration::from_secs);
        let limit = answer_limit(texts, self.id.dimensions);
        let bytes = response
            .body_mut()
            .with_config()
            .limit(limit as u64)
            .read_to_vec()
            .map_err(|e| (self.transport(e), None))?;
        if (200..300).contains(&status) {
            Ok(bytes)
        } else {
            Err((
                EmbedError::Http {
                    status,
                    url: self.url.clone(),
                    body: excerpt(&bytes),
                },
                retry_after,
            ))
        }
    }

    fn transport(&self, e: ureq::Error) -> EmbedError {
        let url = self.url.clone();
        match e {
            ureq::Error::Timeout(_) => EmbedError::Timeout {
                target: url,
                ms: u64::try_from(self.timeout.as_millis()).unwrap_or(u64::MAX),
            },
            ureq::Error::BodyExceedsLimit(limit) => EmbedError::TooLarge {
                limit: usize::try_from(limit).unwrap_or(usize::MAX),
            },
            ureq::Error::Io(e) if e.kind() == std::io::ErrorKind::TimedOut => EmbedError::Timeout {
                target: url,
                ms: u64::try_from(self.timeout.as_millis()).unwrap_or(u64::MAX),
            },
            ureq::Error::Io(_)
            | ureq::Error::ConnectionFailed
            | ureq::Error::HostNotFound
            | ureq::Error::Protocol(_) => EmbedError::Connection {
                url,
                message: e.to_string(),
            },
            other => EmbedError::Io(format!("{url}: {other}")),
        }
    }
}

/// Embeds `texts` `size` at a time through `batch`, in order.
fn in_batches(
    texts: &[&str],
    size: usize,
    mut batch: impl FnMut(&[&str]) -> Result<Vec<Vec<f32>>, EmbedError>,
) -> Result<Vec<Vec<f32>>, EmbedError> {
    let mut out = Vec::with_capacity(texts.len());
    for chunk in texts.chunks(size.max(1)) {
        out.extend(batch(chunk)?);
    }
    Ok(out)
}

impl Embedder for OpenAi {
    fn id(&self) -> EmbedderId {
        self.id.clone()
    }

    fn embed(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>, EmbedError> {
        in_batches(texts, self.batch_size, |batch| self.embed_batch(batch))
    }
}

/// `{base}/v1/embeddings`, whether `base` ends in `/v1`, `/v1/embeddings` or
/// neither.
fn endpoint(base: &str) -> String {
    let b = base.trim().trim_end_matches('/');
    if b.ends_with("/embeddings") {
        b.to_owned()
    } else if b.ends_with("/v1") {
        format!("{b}/embeddings")
    } else {
        format!("{b}/v1/embeddings")
    }
}

/// The most bytes an answer for `texts` vectors may take: about 32 bytes per
/// number of JSON, within [`MIN_ANSWER_BYTES`]..=[`MAX_ANSWER_BYTES`].
fn answer_limit(texts: usize, dimensions: u32) -> usize {
    let dims = usize::try_from(dimensions).unwrap_or(usize::MAX);
    texts
        .saturating_mul(dims)
        .saturating_mul(32)
        .clamp(MIN_ANSWER_BYTES, MAX_ANSWER_BYTES)
}

#[derive(Deserialize)]
struct OpenAiAnswer {
    data: Vec<OpenAiItem>,
}

#[derive(Deserialize)]
struct OpenAiItem {
    #[serde(default)]
    index: Option<usize>,
    embedding: Vec<f32>,
}

/// Reads `data[i].embedding`, ordered by `data[i].index` when given.
fn parse_openai(bytes: &[u8], texts: usize, dimensions: u32) -> Result<Vec<Vec<f32>>, EmbedError> {
    let answer: OpenAiAnswer = serde_json::from_slice(bytes).map_err(|e| invalid(&e, bytes))?;
    let mut items = answer.data;
    if items.iter().all(|i| i.index.is_some()) {
        items.sort_by_key(|i| i.index);
        if items.iter().enumerate().any(|(n, i)| i.index != Some(n)) {
            return Err(EmbedError::InvalidJson {
                message: format!("`data[].index` is not 0..{} once each", items.len()),
                excerpt: String::new(),
            });
        }
    }
    let vectors: Vec<Vec<f32>> = items.into_iter().map(|i| i.embedding).collect();
    check_vectors(&vectors, texts, dimensions)?;
    Ok(vectors)
}

fn invalid(e: &serde_json::Error, bytes: &[u8]) -> EmbedError {
    EmbedError::InvalidJson {
        message: e.to_string(),
        excerpt: excerpt(&bytes[..bytes.len().min(4096)]),
    }
}

/// The proxy for `url` from the usual variables, read through the context:
/// `HTTPS_PROXY` / `HTTP_PROXY` (either case), else `ALL_PROXY`; none for
/// loopback hosts or hosts matched by `NO_PROXY`.
fn proxy_for(
    url: &str,
    env: &dyn Fn(&str) -> Option<String>,
) -> Result<Option<ureq::Proxy>, CliError> {
    let get = |names: &[&'static str]| -> Option<(&'static str, String)> {
        names
            .iter()
            .find_map(|n| env(n).filter(|v| !v.trim().is_empty()).map(|v| (*n, v)))
    };
    let (scheme, rest) = url.split_once("://").unwrap_or(("http", url));
    let authority = rest.split(['/', '?', '#']).next().unwrap_or("");
    let host = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
    let host = if host.starts_with('[') {
        host.split_once(']').map_or(host, |(h, _)| &h[1..])
    } else {
        host.split(':').next().unwrap_or(host)
    }
    .to_ascii_lowercase();
    if host == "localhost" || host.starts_with("127.") || host == "::1" {
        return Ok(None);
    }
    if let Some((_, no_proxy)) = get(&["NO_PROXY", "no_proxy"]) {
        let skip = no_proxy.split(',').map(str::trim).any(|p| {
            let p = p.trim_start_matches('.').to_ascii_lowercase();
            p == "*" || (!p.is_empty() && (host == p || host.ends_with(&format!(".{p}"))))
        });
        if skip {
            return Ok(None);
        }
    }
    let names: &[&str] = if scheme == "https" {
        &["HTTPS_PROXY", "https_proxy", "ALL_PROXY", "all_proxy"]
    } else {
        &["HTTP_PROXY", "http_proxy", "ALL_PROXY", "all_proxy"]
    };
    match get(names) {
        None => Ok(None),
        Some((name, value)) => ureq::Proxy::new(value.trim()).map(Some).map_err(|e| {
            CliError::user(EmbedError::Config(format!(
                "`{name}` is not a usable proxy URL: {e}"
            )))
        }),
    }
}

// ---------------------------------------------------------------- command

/// An external program speaking JSON over stdin and stdout.
struct CommandEmbedder {
    program: String,
    args: Vec<String>,
    dir: PathBuf,
    id: EmbedderId,
    timeout: Duration,
    batch_size: usize,
}

#[derive(Deserialize)]
struct CommandAnswer {
    vectors: Vec<Vec<f32>>,
}

impl CommandEmbedder {
    fn embed_batch(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>, EmbedError> {
        let input = serde_json::json!({ "texts": texts }).to_string();
        let limit = answer_limit(texts.len(), self.id.dimensions);
        let stdout = run_program(
            &self.program,
            &self.args,
            &self.dir,
            input,
            self.timeout,
            limit,
        )?;
        let answer: CommandAnswer =
            serde_json::from_slice(&stdout).map_err(|e| invalid(&e, &stdout))?;
        check_vectors(&answer.vectors, texts.len(), self.id.dimensions)?;
        Ok(answer.vectors)
    }
}

impl Embedder for CommandEmbedder {
    fn id(&self) -> EmbedderId {
        self.id.clone()
    }

    fn embed(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>, EmbedError> {
        in_batches(texts, self.batch_size, |batch| self.embed_batch(batch))
    }
}

type Pipe = mpsc::Receiver<std::io::Result<(Vec<u8>, bool)>>;

/// Reads a pipe on a thread, keeping at most `cap` bytes and reading the rest
/// away; the flag says whether there was more.
fn read_pipe<R: Read + Send + 'static>(pipe: Option<R>, cap: usize) -> Pipe {
    let (tx, rx) = mpsc::channel();
    thread::spawn(move || {
        let Some(mut pipe) = pipe else {
            let _ = tx.send(Ok((Vec::new(), false)));
            return;
        };
        let mut bytes = Vec::new();
        let limit = u64::try_from(cap).unwrap_or(u64::MAX).saturating_add(1);
        let result = (&mut pipe).take(limit).read_to_end(&mut bytes).map(|_| {
            let more = bytes.len() > cap;
            if more {
                let _ = std::io::copy(&mut pipe, &mut std::io::sink());
            }
            bytes.truncate(cap);
            (bytes, more)
        });
        let _ = tx.send(result);
    });
    rx
}

/// Runs `program args…` in `dir` with `input` on stdin, and returns its
/// stdout when it exits with status 0 within `timeout`. The program is killed
/// when the time runs out. Like `crate::extractor`, but without a shell.
fn run_program(
    program: &str,
    args: &[String],
    dir: &Path,
    input: String,
    timeout: Duration,
    cap: usize,
) -> Result<Vec<u8>, EmbedError> {
    let deadline = Instant::now() + timeout;
    let timed_out = || EmbedError::Timeout {
        target: format!("`{program}`"),
        ms: u64::try_from(timeout.as_millis()).unwrap_or(u64::MAX),
    };
    let mut child = Command::new(program)
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| EmbedError::Spawn {
            program: program.to_owned(),
            message: e.to_string(),
        })?;
    if let Some(mut stdin) = child.stdin.take() {
        // Never joined: a program that does not read its stdin leaves the
        // writer blocked until it exits, when the write fails.
        thread::spawn(move || {
            let _ = stdin.write_all(input.as_bytes());
        });
    }
    let stdout = read_pipe(child.stdout.take(), cap);
    let stderr = read_pipe(child.stderr.take(), STDERR_CAP);
    let mut pause = Duration::from_millis(1);
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) => {}
            Err(e) => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(EmbedError::Io(format!("`{program}`: {e}")));
            }
        }
        let now = Instant::now();
        if now >= deadline {
            let _ = child.kill();
            let _ = child.wait();
            return Err(timed_out());
        }
        thread::sleep(pause.min(deadline - now));
        pause = (pause * 2).min(Duration::from_millis(20));
    };
    // Something the program started may still hold its stdout open.
    let grace = deadline.max(Instant::now() + Duration::from_millis(200));
    let (out, more) = stdout
        .recv_timeout(grace.saturating_duration_since(Instant::now()))
        .map_err(|_| timed_out())?
        .map_err(|e| EmbedError::Io(format!("`{program}`: {e}")))?;
    if !status.success() {
        let err = stderr
            .recv_timeout(Duration::from_millis(200))
            .ok()
            .and_then(Result::ok)
            .map(|(bytes, _)| excerpt(&bytes))
            .unwrap_or_default();
        return Err(EmbedError::Exit {
            program: program.to_owned(),
            code: status.code(),
            stderr: err,
        });
    }
    if more {
        return Err(EmbedError::TooLarge { limit: cap });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(provider: EmbeddingProviderKind) -> EmbeddingConfig {
        EmbeddingConfig {
            provider,
            ..EmbeddingConfig::default()
        }
    }

    fn no_env(_: &str) -> Option<String> {
        None
    }

    fn err_text(r: Result<Box<dyn Embedder>, CliError>) -> String {
        match r {
            Ok(e) => panic!("expected an error, got {}", e.id()),
            Err(e) => format!("{} | {}", e.chain().join(": "), e.hints.join(" ")),
        }
    }

    #[test]
    fn endpoints() {
        for (base, url) in [
            (
                "http://localhost:11434",
                "http://localhost:11434/v1/embeddings",
            ),
            (
                "http://localhost:11434/",
                "http://localhost:11434/v1/embeddings",
            ),
            (
                "http://localhost:11434/v1",
                "http://localhost:11434/v1/embeddings",
            ),
            (
                "http://localhost:11434/v1/",
                "http://localhost:11434/v1/embeddings",
            ),
            (
                "https://api.example.com/v1/embeddings",
                "https://api.example.com/v1/embeddings",
            ),
            (
                "http://gw.internal/openai",
                "http://gw.internal/openai/v1/embeddings",
            ),
        ] {
            assert_eq!(endpoint(base), url, "{base}");
        }
    }

    #[test]
    fn providers_from_config() {
        let root = Path::new("/");
        let hash = build(&config(EmbeddingProviderKind::Hash), root, &no_env).unwrap();
        assert_eq!(hash.id(), EmbedderId::new("hash", "v1", 256));

        let mut c = config(EmbeddingProviderKind::Openai);
        assert!(err_text(build(&c, root, &no_env)).contains("needs `embedding.base_url`"));
        c.base_url = Some("http://127.0.0.1:9/v1".into());
        assert!(err_text(build(&c, root, &no_env)).contains("needs `embedding.model`"));
        c.model = Some("nomic-embed-text".into());
        c.dimensions = 768;
        let e = build(&c, root, &no_env).unwrap();
        assert_eq!(e.id().key(), "openai-nomic-embed-text-768");
        c.api_key_env = Some("EMBED_KEY".into());
        let text = err_text(build(&c, root, &no_env));
        assert!(
            text.contains("`EMBED_KEY` named by `embedding.api_key_env` is not set")
                && text.contains("export EMBED_KEY="),
            "{text}"
        );
        let key = |n: &str| (n == "EMBED_KEY").then(|| "sk-test".to_owned());
        assert!(build(&c, root, &key).is_ok());
        c.base_url = Some("ftp://x".into());
        assert!(err_text(build(&c, root, &key)).contains("must start with http://"));
        c.base_url = Some("https://api.example.com".into());
        let https = build(&c, root, &key);
        if cfg!(feature = "tls") {
            assert!(https.is_ok());
        } else {
            assert!(err_text(https).contains("--features tls"));
        }

        let mut c = config(EmbeddingProviderKind::Command);
        assert!(err_text(build(&c, root, &no_env)).contains("needs `embedding.command`"));
        c.command = vec!["embed.sh".into(), "--fast".into()];
        let a = build(&c, root, &no_env).unwrap().id();
        c.command = vec!["embed.sh".into()];
        let b = build(&c, root, &no_env).unwrap().id();
        assert!(a.model.starts_with("cmd-") && a != b, "{a} {b}");
        c.model = Some("minilm".into());
        assert_eq!(
            build(&c, root, &no_env).unwrap().id().key(),
            "command-minilm-256"
        );

        let mut kinds = vec![(EmbeddingProviderKind::LocalBert, "--features embed-candle")];
        if !cfg!(feature = "embed-static") {
            kinds.push((
                EmbeddingProviderKind::LocalStatic,
                "--features embed-static",
            ));
        }
        for (kind, feature) in kinds {
            let text = err_text(build(&config(kind), root, &no_env));
            assert!(
                text.contains("not built in") && text.contains(feature),
                "{text}"
            );
        }
    }

    #[cfg(feature = "embed-static")]
    #[test]
    fn local_static_model_dir_is_relative_to_the_root() {
        let root = tempfile::tempdir().unwrap();
        let mut c = config(EmbeddingProviderKind::LocalStatic);
        let text = err_text(build(&c, root.path(), &no_env));
        assert!(text.contains("needs `embedding.model_dir`"), "{text}");
        c.model_dir = Some("models/m2v".into());
        let text = err_text(build(&c, root.path(), &no_env));
        let dir = root.path().join("models/m2v");
        assert!(
            text.starts_with(&format!(
                "cannot load the embedding model from `{}`: the directory does not exist",
                dir.display()
            )) && text.contains("must hold `model.safetensors`"),
            "{text}"
        );
        std::fs::create_dir_all(&dir).unwrap();
        let text = err_text(build(&c, root.path(), &no_env));
        assert!(
            text.contains(&format!(
                "`{}`: the file does not exist",
                dir.join("model.safetensors").display()
            )),
            "{text}"
        );
    }

    #[test]
    fn proxies_come_from_the_context() {
        let env = |n: &str| match n {
            "HTTP_PROXY" => Some("http://proxy.corp:3128".to_owned()),
            "NO_PROXY" => Some("internal.corp, .svc".to_owned()),
            _ => None,
        };
        for (url, proxied) in [
            ("http://api.example.com/v1/embeddings", true),
            ("http://localhost:11434/v1/embeddings", false),
            ("http://127.0.0.1:8080/v1/embeddings", false),
            ("http://[::1]:8080/v1/embeddings", false),
            ("http://gpu.internal.corp/v1/embeddings", false),
            ("http://embed.svc:80/v1/embeddings", false),
        ] {
            assert_eq!(proxy_for(url, &env).unwrap().is_some(), proxied, "{url}");
        }
        assert!(
            proxy_for("http://api.example.com", &no_env)
                .unwrap()
                .is_none()
        );
    }

    #[test]
    fn openai_answers_are_parsed_in_index_order() {
        let answer = br#"{"object":"list","data":[
            {"object":"embedding","index":1,"embedding":[0.0,1.0]},
            {"object":"embedding","index":0,"embedding":[1.0,0.0]}],
            "model":"m","usage":{"prompt_tokens":3}}"#;
        let v = parse_openai(answer, 2, 2).unwrap();
        assert_eq!(v, [vec![1.0, 0.0], vec![0.0, 1.0]]);
        for (bytes, want) in [
            (
                &br#"{"data":[{"index":0,"embedding":[1.0]},{"index":1,"embedding":[1,0]}]}"#[..],
                "vector 0 has 1 dimensions, expected 2",
            ),
            (br#"{"data":[]}"#, "returned 0 vectors for 2 texts"),
            (
                br#"{"data":[{"index":0,"embedding":[1,0]},{"index":0,"embedding":[1,0]}]}"#,
                "index",
            ),
            (b"<html>502 Bad Gateway</html>", "invalid JSON"),
        ] {
            let err = parse_openai(bytes, 2, 2).unwrap_err().to_string();
            assert!(err.contains(want), "{err}");
        }
    }

    #[test]
    fn command_provider_checks_its_program() {
        let dir = tempfile::tempdir().unwrap();
        let c = |args: &[&str]| CommandEmbedder {
            program: "sh".into(),
            args: args.iter().map(|s| (*s).to_owned()).collect(),
            dir: dir.path().to_path_buf(),
            id: EmbedderId::new("command", "t", 2),
            timeout: Duration::from_secs(20),
            batch_size: 2,
        };
        // Echoes one vector per text in its batch (2, then 1).
        let good = c(&[
            "-c",
            r#"n=$(cat | grep -o '"[^"]*"' | grep -vc '^"texts"$'); printf '{"vectors":['; i=0; while [ $i -lt $n ]; do [ $i -gt 0 ] && printf ','; printf '[1,%s]' $i; i=$((i+1)); done; printf ']}'"#,
        ]);
        let v = good.embed(&["a", "b", "c"]).unwrap();
        assert_eq!(v, [vec![1.0, 0.0], vec![1.0, 1.0], vec![1.0, 0.0]]);

        let failing = c(&["-c", "cat >/dev/null; echo 'model missing' >&2; exit 4"]);
        let err = failing.embed(&["a"]).unwrap_err().to_string();
        assert_eq!(err, "`sh` exited with status 4: model missing");

        let slow = c(&["-c", "sleep 30"]);
        let started = Instant::now();
        let mut s = slow;
        s.timeout = Duration::from_millis(300);
        let err = s.embed(&["a"]).unwrap_err().to_string();
        assert!(err.contains("no answer from `sh` within 300 ms"), "{err}");
        assert!(started.elapsed() < Duration::from_secs(10));

        let prose = c(&["-c", "cat >/dev/null; echo 'here you go'"]);
        assert!(
            prose
                .embed(&["a"])
                .unwrap_err()
                .to_string()
                .contains("invalid JSON")
        );

        let missing = CommandEmbedder {
            program: "definitely-not-an-embedder-x9".into(),
            ..c(&[])
        };
        let err = missing.embed(&["a"]).unwrap_err().to_string();
        assert!(
            err.starts_with("cannot run `definitely-not-an-embedder-x9`"),
            "{err}"
        );
    }
}
