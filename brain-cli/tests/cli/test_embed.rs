//! `brain index` and the embedding providers: the offline `hash` default, an
//! OpenAI-compatible endpoint served by a real HTTP server on a thread of this
//! test binary, and a `command` provider written in `sh`.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, Mutex};
use std::thread;

use crate::common::{TestEnv, validate_json};

/// Memories of `.brain-example` that `index` embeds: every one not dismissed.
fn indexable(env: &TestEnv) -> usize {
    let (list, _) = env.brain_json("list", &["list"]);
    let memories = list["memories"].as_array().unwrap();
    let n = memories
        .iter()
        .filter(|m| m["status"] != "dismissed")
        .count();
    assert!(n > 20 && n < memories.len(), "{n}");
    n
}

/// Replaces the `embedding:` section of the config (the last one in the
/// example's config) with `yaml`.
fn set_embedding(env: &TestEnv, yaml: &str) {
    let path = env.root().join(".brain/config.yaml");
    let text = std::fs::read_to_string(&path).unwrap();
    let (head, _) = text.split_once("embedding:\n").unwrap();
    std::fs::write(&path, format!("{head}embedding:\n{yaml}")).unwrap();
}

/// Runs `brain --format json index ARGS` with extra environment variables;
/// returns the JSON report (checked against its schema), the stderr and the
/// exit status.
fn index(env: &TestEnv, args: &[&str], vars: &[(&str, &str)]) -> (serde_json::Value, String, i32) {
    let mut cmd = env.command(["--format", "json", "index"].iter().chain(args));
    for (k, v) in vars {
        cmd.env(k, v);
    }
    let out = cmd.stdin(std::process::Stdio::null()).output().unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    let status = out.status.code().unwrap_or(-1);
    let schema = if status == 0 { "index" } else { "error" };
    (validate_json(schema, &stdout), stderr, status)
}

fn counts(report: &serde_json::Value) -> (usize, usize, usize, usize) {
    let n = |k: &str| usize::try_from(report[k].as_u64().unwrap()).unwrap();
    (n("memories"), n("computed"), n("reused"), n("pruned"))
}

#[test]
fn index_twice_reuses_every_vector_and_leaves_git_clean() {
    let env = TestEnv::example();
    env.git(&["init", "-q"]);
    env.git(&["add", "-A"]);
    env.git(&["commit", "-q", "-m", "brain store"]);
    let n = indexable(&env);

    let (first, stderr, status) = index(&env, &[], &[]);
    assert_eq!(status, 0, "{stderr}");
    assert_eq!(counts(&first), (n, n, 0, 0));
    assert_eq!(first["embedder"], "hash-v1-256");
    assert_eq!(first["provider"], "hash");
    assert_eq!(first["model"], "v1");
    assert_eq!(first["dimensions"], 256);
    assert_eq!(first["cache"], ".brain/runtime/vectors/hash-v1-256.bin");
    assert_eq!(first["rebuilt"], false);
    assert!(
        env.root()
            .join(".brain/runtime/vectors/hash-v1-256.bin")
            .is_file()
    );
    // Not a terminal: no progress lines.
    assert!(!stderr.contains("embedded"), "{stderr}");

    let file = env.root().join(".brain/runtime/vectors/hash-v1-256.bin");
    let bytes = std::fs::read(&file).unwrap();
    let (second, _, status) = index(&env, &[], &[]);
    assert_eq!(status, 0);
    assert_eq!(counts(&second), (n, 0, n, 0));
    assert_eq!(
        std::fs::read(&file).unwrap(),
        bytes,
        "same vectors, same bytes"
    );

    assert_eq!(env.git(&["status", "--porcelain"]), "");

    // Text output.
    let out = env.brain(["index"]).success();
    assert_eq!(
        out.stdout,
        format!(
            "{n} memories indexed with hash-v1-256: 0 computed, {n} reused, 0 pruned\n\
             vectors: .brain/runtime/vectors/hash-v1-256.bin\n"
        )
    );
    assert!(out.stderr.starts_with("done in "), "{}", out.stderr);
    assert!(env.brain(["-q", "index"]).success().stderr.is_empty());
}

#[test]
fn rebuild_changed_texts_and_corrupt_caches() {
    let env = TestEnv::example();
    let n = indexable(&env);
    let (first, _, _) = index(&env, &[], &[]);
    assert_eq!(counts(&first), (n, n, 0, 0));

    let (rebuilt, _, status) = index(&env, &["--rebuild"], &[]);
    assert_eq!(status, 0);
    assert_eq!(counts(&rebuilt), (n, n, 0, 0));
    assert_eq!(rebuilt["rebuilt"], true);

    // An edited memory is embedded again; its old vector is pruned.
    let dir = env.root().join(".brain/decisions");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    let text = std::fs::read_to_string(&files[0]).unwrap();
    assert!(!text.contains("status: dismissed"), "{text}");
    let edited = text
        .lines()
        .map(|l| {
            if l.starts_with("summary: ") {
                "summary: A completely different summary about cache invalidation."
            } else {
                l
            }
        })
        .collect::<Vec<_>>()
        .join("\n");
    std::fs::write(&files[0], edited + "\n").unwrap();
    let (after_edit, _, _) = index(&env, &[], &[]);
    assert_eq!(counts(&after_edit), (n, 1, n - 1, 1));

    // A corrupt cache is a warning, never a failure.
    std::fs::write(
        env.root().join(".brain/runtime/vectors/hash-v1-256.bin"),
        b"garbage",
    )
    .unwrap();
    let (recovered, stderr, status) = index(&env, &[], &[]);
    assert_eq!(status, 0, "{stderr}");
    assert_eq!(counts(&recovered), (n, n, 0, 0));
    assert!(
        stderr.contains(
            "warning: ignoring the vector cache `.brain/runtime/vectors/hash-v1-256.bin` (truncated); it will be rebuilt"
        ),
        "{stderr}"
    );
}

#[test]
fn another_dimension_is_another_cache() {
    let env = TestEnv::example();
    let n = indexable(&env);
    let (a, _, _) = index(&env, &[], &[]);
    assert_eq!(counts(&a), (n, n, 0, 0));
    set_embedding(&env, "  provider: hash\n  dimensions: 64\n");
    let (b, _, status) = index(&env, &[], &[]);
    assert_eq!(status, 0);
    assert_eq!(
        counts(&b),
        (n, n, 0, 0),
        "no vector of 256 dimensions is reused"
    );
    assert_eq!(b["embedder"], "hash-v1-64");
    let dir = env.root().join(".brain/runtime/vectors");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| !n.starts_with('.'))
        .collect();
    names.sort();
    assert_eq!(names, ["hash-v1-256.bin", "hash-v1-64.bin"]);
    // Back to 256: its cache is still there.
    set_embedding(&env, "  provider: hash\n  dimensions: 256\n");
    let (c, _, _) = index(&env, &[], &[]);
    assert_eq!(counts(&c), (n, 0, n, 0));
}

#[test]
fn local_providers_are_not_built_in() {
    let env = TestEnv::example();
    let mut cases = vec![("local-bert", "embed-candle")];
    if !cfg!(feature = "embed-static") {
        cases.push(("local-static", "embed-static"));
    }
    for (provider, feature) in cases {
        set_embedding(
            &env,
            &format!("  provider: {provider}\n  model_dir: /models/m2v\n"),
        );
        let (json, stderr, status) = index(&env, &[], &[]);
        assert_eq!(status, 2, "{stderr}");
        assert_eq!(
            json["error"]["message"],
            format!(
                "the `{provider}` embedding provider is not built in: rebuild brain with `--features {feature}`"
            )
        );
    }
}

// ------------------------------------------------------------ local-static

/// A tiny static model under the test's root: a `WordPiece` `tokenizer.json`
/// over a few words of the example store and a random `[words, 8]` matrix.
#[cfg(feature = "embed-static")]
fn write_static_model(dir: &std::path::Path, seed: u32) {
    const WORDS: [&str; 12] = [
        "[UNK]", "ledger", "entries", "rows", "append", "only", "refund", "payment", "retry",
        "webhook", "currency", "rounding",
    ];
    std::fs::create_dir_all(dir).unwrap();
    let vocab: serde_json::Map<String, serde_json::Value> = WORDS
        .iter()
        .enumerate()
        .map(|(i, w)| ((*w).to_owned(), i.into()))
        .collect();
    let tokenizer = serde_json::json!({
        "version": "1.0", "truncation": null, "padding": null, "added_tokens": [],
        "normalizer": {"type": "BertNormalizer", "clean_text": true, "handle_chinese_chars": true,
                       "strip_accents": null, "lowercase": true},
        "pre_tokenizer": {"type": "BertPreTokenizer"}, "post_processor": null, "decoder": null,
        "model": {"type": "WordPiece", "unk_token": "[UNK]", "continuing_subword_prefix": "##",
                  "max_input_chars_per_word": 100, "vocab": vocab}
    });
    std::fs::write(dir.join("tokenizer.json"), tokenizer.to_string()).unwrap();
    let values: Vec<u8> = (0..WORDS.len() * 8)
        .flat_map(|i| {
            let x = u32::try_from(i)
                .unwrap()
                .wrapping_add(seed)
                .wrapping_mul(2_654_435_761)
                >> 8;
            (f32::from(u16::try_from(x % 2001).unwrap()) / 1000.0 - 1.0).to_le_bytes()
        })
        .collect();
    let view = safetensors::tensor::TensorView::new(
        safetensors::Dtype::F32,
        vec![WORDS.len(), 8],
        &values,
    )
    .unwrap();
    let bytes = safetensors::serialize([("embeddings", view)], None).unwrap();
    std::fs::write(dir.join("model.safetensors"), bytes).unwrap();
}

#[cfg(feature = "embed-static")]
#[test]
fn local_static_model_ranks_search_and_fails_over_to_words() {
    let env = TestEnv::example();
    let n = indexable(&env);
    write_static_model(&env.root().join("models/tiny"), 1);
    // Relative to the repository root, like every path in the config.
    set_embedding(&env, "  provider: local-static\n  model_dir: models/tiny\n");

    let (json, out) = env.brain_json("search", &["search", "ledger entries"]);
    assert_eq!(out.status, 0, "{out}");
    let provider = json["embedding"]["provider"].as_str().unwrap();
    assert!(
        provider.starts_with("local-static-tiny-") && provider.ends_with("-8"),
        "{json}"
    );
    let hits = json["hits"].as_array().unwrap();
    assert!(hits.iter().any(|h| h["semantic_rank"].is_u64()), "{json}");

    let (report, stderr, status) = index(&env, &[], &[]);
    assert_eq!(status, 0, "{stderr}");
    assert_eq!(report["embedder"], provider);
    assert_eq!(report["dimensions"], 8);
    let (_, computed, reused, _) = counts(&report);
    assert_eq!(computed + reused, n);

    // Other weights: another id, another cache.
    write_static_model(&env.root().join("models/tiny"), 2);
    let (other, _, status) = index(&env, &[], &[]);
    assert_eq!(status, 0);
    assert_ne!(other["embedder"], provider);
    assert_eq!(counts(&other), (n, n, 0, 0));

    // A broken tokenizer: `index` fails naming the file, reads fall back to words.
    std::fs::write(env.root().join("models/tiny/tokenizer.json"), "{}").unwrap();
    let (json, stderr, status) = index(&env, &[], &[]);
    assert_eq!(status, 2, "{stderr}");
    let message = json["error"]["message"].as_str().unwrap();
    assert!(
        message.starts_with("cannot load the embedding model from `")
            && message.contains("tokenizer.json`: not a valid tokenizer"),
        "{message}"
    );
    assert!(
        stderr.contains("hint: `embedding.model_dir` must hold"),
        "{stderr}"
    );
    let (json, out) = env.brain_json("search", &["search", "ledger entries"]);
    assert_eq!(out.status, 0, "{out}");
    assert!(out.stderr.contains("ranking by words only"), "{out}");
    assert!(json["embedding"]["provider"].is_null(), "{json}");
    assert!(!json["hits"].as_array().unwrap().is_empty(), "{json}");
}

// ------------------------------------------------------------------ openai

/// What the test server answers.
#[derive(Clone, Copy, PartialEq)]
enum Plan {
    /// 200 with deterministic vectors, after one 429 on the first request.
    RateLimitedOnce,
    /// 500 on every request.
    AlwaysFailing,
}

#[derive(Debug)]
struct Seen {
    path: String,
    authorization: Option<String>,
    body: serde_json::Value,
    status: u16,
}

struct Server {
    base: String,
    seen: Arc<Mutex<Vec<Seen>>>,
}

/// A small HTTP/1.1 server on 127.0.0.1, one connection at a time, closing
/// each after its answer. It lives until the test binary exits.
fn serve(plan: Plan) -> Server {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let seen = Arc::new(Mutex::new(Vec::new()));
    let log = Arc::clone(&seen);
    thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(stream) = stream else { continue };
            let _ = answer(stream, plan, &log);
        }
    });
    Server { base, seen }
}

fn answer(stream: TcpStream, plan: Plan, log: &Mutex<Vec<Seen>>) -> std::io::Result<()> {
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut request_line = String::new();
    reader.read_line(&mut request_line)?;
    let path = request_line
        .split_whitespace()
        .nth(1)
        .unwrap_or("")
        .to_owned();
    let (mut length, mut authorization) = (0usize, None);
    loop {
        let mut line = String::new();
        reader.read_line(&mut line)?;
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        let (name, value) = line.split_once(':').unwrap_or((line, ""));
        match name.to_ascii_lowercase().as_str() {
            "content-length" => length = value.trim().parse().unwrap_or(0),
            "authorization" => authorization = Some(value.trim().to_owned()),
            _ => {}
        }
    }
    let mut body = vec![0u8; length];
    reader.read_exact(&mut body)?;
    let body: serde_json::Value = serde_json::from_slice(&body).unwrap_or_default();
    let first = log.lock().unwrap().is_empty();
    let (status, extra, text) = match plan {
        Plan::RateLimitedOnce if first => (
            429,
            "Retry-After: 0\r\n",
            r#"{"error":{"message":"rate limited"}}"#.to_owned(),
        ),
        Plan::RateLimitedOnce => (200, "", vectors(&body)),
        Plan::AlwaysFailing => (500, "", r#"{"error":"model crashed"}"#.to_owned()),
    };
    log.lock().unwrap().push(Seen {
        path,
        authorization,
        body,
        status,
    });
    let mut stream = stream;
    write!(
        stream,
        "HTTP/1.1 {status} X\r\nContent-Type: application/json\r\n{extra}Content-Length: {}\r\nConnection: close\r\n\r\n{text}",
        text.len()
    )?;
    stream.flush()
}

/// The `OpenAI` answer for a request: one vector per input, derived from the
/// text, listed in reverse order so that the client has to sort by `index`.
fn vectors(request: &serde_json::Value) -> String {
    let dims = usize::try_from(request["dimensions"].as_u64().unwrap_or(8)).unwrap();
    let inputs = request["input"].as_array().cloned().unwrap_or_default();
    let mut data: Vec<serde_json::Value> = inputs
        .iter()
        .enumerate()
        .map(|(i, text)| {
            let bytes = text.as_str().unwrap_or("").as_bytes();
            let v: Vec<f64> = (0..dims)
                .map(|d| {
                    let b = bytes[d % bytes.len().max(1)];
                    f64::from(b % 13) + 1.0
                })
                .collect();
            serde_json::json!({"object": "embedding", "index": i, "embedding": v})
        })
        .collect();
    data.reverse();
    serde_json::json!({"object": "list", "data": data, "model": request["model"]}).to_string()
}

fn openai_config(base: &str, extra: &str) -> String {
    format!(
        "  provider: openai\n  base_url: {base}\n  model: test-embed\n  dimensions: 8\n  batch_size: 16\n  timeout_ms: 10000\n{extra}"
    )
}

#[test]
fn openai_provider_batches_retries_and_caches() {
    let env = TestEnv::example();
    let n = indexable(&env);
    let server = serve(Plan::RateLimitedOnce);
    set_embedding(
        &env,
        &openai_config(&server.base, "  api_key_env: TEST_EMBED_KEY\n"),
    );
    let key = [("TEST_EMBED_KEY", "sk-test-not-a-real-key-0000")];

    let (report, stderr, status) = index(&env, &[], &key);
    assert_eq!(status, 0, "{stderr}");
    assert_eq!(counts(&report), (n, n, 0, 0));
    assert_eq!(report["embedder"], "openai-test-embed-8");
    {
        let seen = server.seen.lock().unwrap();
        let batches = n.div_ceil(16);
        assert_eq!(seen.len(), 1 + batches, "{seen:?}");
        assert_eq!(seen[0].status, 429);
        // The rate-limited batch was sent again, unchanged.
        assert_eq!(seen[0].body, seen[1].body);
        let mut texts = 0;
        for s in seen.iter() {
            assert_eq!(s.path, "/v1/embeddings");
            assert_eq!(
                s.authorization.as_deref(),
                Some("Bearer sk-test-not-a-real-key-0000")
            );
            assert_eq!(s.body["model"], "test-embed");
            assert_eq!(s.body["dimensions"], 8);
            let input = s.body["input"].as_array().unwrap();
            assert!(!input.is_empty() && input.len() <= 16);
            if s.status == 200 {
                texts += input.len();
            }
        }
        assert_eq!(texts, n);
    }

    // Everything is cached now: no request at all.
    let (again, _, status) = index(&env, &[], &key);
    assert_eq!(status, 0);
    assert_eq!(counts(&again), (n, 0, n, 0));
    assert_eq!(server.seen.lock().unwrap().len(), 1 + n.div_ceil(16));

    // A base URL ending in /v1 reaches the same endpoint.
    set_embedding(
        &env,
        &openai_config(
            &format!("{}/v1/", server.base),
            "  api_key_env: TEST_EMBED_KEY\n",
        ),
    );
    let (same, _, _) = index(&env, &[], &key);
    assert_eq!(counts(&same), (n, 0, n, 0), "same provider, model and size");

    // The key variable must be set.
    let (json, stderr, status) = index(&env, &[], &[]);
    assert_eq!(status, 2, "{stderr}");
    assert_eq!(
        json["error"]["message"],
        "the environment variable `TEST_EMBED_KEY` named by `embedding.api_key_env` is not set"
    );
    assert!(!stderr.contains("sk-test"), "{stderr}");
}

#[test]
fn openai_server_errors_fail_clearly_after_retries() {
    let env = TestEnv::example();
    let server = serve(Plan::AlwaysFailing);
    set_embedding(&env, &openai_config(&server.base, ""));
    let (json, stderr, status) = index(&env, &[], &[]);
    assert_eq!(status, 2, "{stderr}");
    assert_eq!(
        json["error"]["message"],
        format!(
            "gave up after 3 attempts: HTTP 500 from {}/v1/embeddings: {{\"error\":\"model crashed\"}}",
            server.base
        )
    );
    assert!(
        stderr.contains("hint: check `embedding.base_url`"),
        "{stderr}"
    );
    let seen = server.seen.lock().unwrap();
    assert_eq!(seen.len(), 3);
    assert!(seen.iter().all(|s| s.authorization.is_none()));
    drop(seen);

    // Nothing listens on a closed port: a connection error, also retried.
    let closed = TcpListener::bind("127.0.0.1:0").unwrap();
    let base = format!("http://{}", closed.local_addr().unwrap());
    drop(closed);
    set_embedding(&env, &openai_config(&base, ""));
    let (json, _, status) = index(&env, &[], &[]);
    assert_eq!(status, 2);
    let message = json["error"]["message"].as_str().unwrap();
    assert!(
        message.starts_with(&format!(
            "gave up after 3 attempts: cannot reach {base}/v1/embeddings"
        )),
        "{message}"
    );
}

// ------------------------------------------------------------------ command

const EMBED_SH: &str = r#"#!/bin/sh
# One text per call (batch_size: 1): a vector from the checksum of the input.
h=$(cat | cksum | cut -d' ' -f1)
printf '{"vectors":[[%d,%d,%d,1]]}' $((h % 7)) $((h % 11)) $((h % 13))
"#;

#[test]
fn command_provider_runs_a_program_without_a_shell() {
    let env = TestEnv::example();
    let n = indexable(&env);
    std::fs::write(env.root().join("embed.sh"), EMBED_SH).unwrap();
    let config = "  provider: command\n  command:\n    - sh\n    - embed.sh\n  dimensions: 4\n  batch_size: 1\n";
    set_embedding(&env, config);
    let (report, stderr, status) = index(&env, &[], &[]);
    assert_eq!(status, 0, "{stderr}");
    assert_eq!(counts(&report), (n, n, 0, 0));
    let key = report["embedder"].as_str().unwrap();
    assert!(
        key.starts_with("command-cmd-") && key.ends_with("-4"),
        "{key}"
    );
    let (again, _, _) = index(&env, &[], &[]);
    assert_eq!(counts(&again), (n, 0, n, 0));

    // Wrong dimension: a clear error naming the fix.
    set_embedding(&env, &config.replace("dimensions: 4", "dimensions: 3"));
    let (json, _, status) = index(&env, &[], &[]);
    assert_eq!(status, 2);
    assert_eq!(
        json["error"]["message"],
        "vector 0 has 4 dimensions, expected 3; set `embedding.dimensions: 4` if the model produces 4"
    );

    // A failing program: its exit status and stderr.
    std::fs::write(
        env.root().join("embed.sh"),
        "cat >/dev/null; echo 'no model loaded' >&2; exit 3\n",
    )
    .unwrap();
    set_embedding(
        &env,
        &config.replace("    - embed.sh\n", "    - embed.sh\n    - --other\n"),
    );
    let (json, _, status) = index(&env, &[], &[]);
    assert_eq!(status, 2);
    assert_eq!(
        json["error"]["message"],
        "`sh` exited with status 3: no model loaded"
    );
}

#[test]
fn search_uses_served_vectors_and_inject_falls_back_when_the_server_stops() {
    let env = TestEnv::example();
    let server = serve(Plan::RateLimitedOnce);
    set_embedding(&env, &openai_config(&server.base, ""));
    let (json, out) = env.brain_json("search", &["search", "ledger entries"]);
    assert_eq!(out.status, 0, "{out}");
    let provider = json["embedding"]["provider"].as_str().unwrap();
    assert!(provider.starts_with("openai-"), "{json}");
    let hits = json["hits"].as_array().unwrap();
    assert!(hits.iter().any(|h| h["semantic_rank"].is_u64()), "{json}");
    assert!(
        hits.iter()
            .all(|h| h["cosine"].is_null() || h["cosine"].is_f64())
    );
    // The served vectors are what was used: the server saw the memories and the query.
    let seen = server.seen.lock().unwrap();
    assert!(seen.iter().any(|s| {
        s.body["input"]
            .as_array()
            .is_some_and(|i| i.iter().any(|t| t == "ledger entries"))
    }));
    drop(seen);

    // The server goes away: inject still answers, by words, and says why.
    let closed = TcpListener::bind("127.0.0.1:0").unwrap();
    let gone = format!("http://{}", closed.local_addr().unwrap());
    drop(closed);
    set_embedding(&env, &openai_config(&gone, ""));
    let (json, out) = env.brain_json("inject", &["inject", "--task", "ledger corrections"]);
    assert_eq!(out.status, 0, "{out}");
    assert!(out.stderr.contains("ranking by words only"), "{out}");
    assert!(json["embedding"]["provider"].is_null(), "{json}");
    assert!(json["embedding"]["fallback_reason"].is_string(), "{json}");
    assert!(!json["selected"].as_array().unwrap().is_empty(), "{json}");
}

#[test]
fn a_read_does_not_embed_a_whole_store_through_a_remote_provider() {
    let env = TestEnv::example();
    for i in 0..70 {
        env.brain([
            "add",
            "--type",
            "convention",
            "--status",
            "active",
            "--title",
            &format!("Ledger rule number {i} for reconciliation"),
            "--summary",
            &format!("Reconciliation rule {i} applies to the ledger export."),
        ])
        .success();
    }
    let server = serve(Plan::RateLimitedOnce);
    set_embedding(&env, &openai_config(&server.base, ""));
    let (json, out) = env.brain_json("inject", &["inject", "--task", "ledger reconciliation"]);
    assert_eq!(out.status, 0, "{out}");
    assert!(out.stderr.contains("run `brain index`"), "{out}");
    assert!(json["embedding"]["fallback_reason"].is_string(), "{json}");
    assert!(server.seen.lock().unwrap().is_empty(), "nothing was sent");
    // After `brain index`, the same read uses the served vectors.
    env.brain(["index"]).success();
    let (json, _) = env.brain_json("inject", &["inject", "--task", "ledger reconciliation"]);
    assert!(json["embedding"]["provider"].is_string(), "{json}");
}

#[test]
fn a_warm_read_streams_the_vector_cache_and_ranks_exactly_as_a_cold_one() {
    let env = TestEnv::example();
    let file = env.root().join(".brain/runtime/vectors/hash-v1-256.bin");
    let query = ["search", "ledger corrections after a refund"];
    let route = [
        "route",
        "--task",
        "issue a refund for a duplicate charge",
        "--path",
        "src/ledger/post.ts",
    ];
    // Cold: no cache; every vector is computed and the cache written.
    let (cold, out) = env.brain_json("search", &query);
    assert_eq!(out.status, 0, "{out}");
    assert!(file.is_file());
    let (cold_route, _) = env.brain_json("../route", &route);
    let written = std::fs::metadata(&file).unwrap().modified().unwrap();
    // Warm: the cache is only read, and the scores are the same.
    let (warm, _) = env.brain_json("search", &query);
    let (warm_route, _) = env.brain_json("../route", &route);
    assert_eq!(warm, cold);
    assert_eq!(warm_route, cold_route);
    assert!(warm["hits"][0]["cosine"].is_f64(), "{warm}");
    assert_eq!(
        std::fs::metadata(&file).unwrap().modified().unwrap(),
        written
    );
    // A memory without a cached vector (a new one) is embedded on the spot.
    env.brain([
        "add",
        "--type",
        "gotcha",
        "--status",
        "active",
        "--title",
        "Refund corrections post a reversing ledger entry",
        "--summary",
        "A refund correction never edits the original ledger row.",
    ])
    .success();
    let (after, _) = env.brain_json("search", &query);
    assert!(
        after["hits"].as_array().unwrap().iter().any(|h| h["title"]
            == "Refund corrections post a reversing ledger entry"
            && h["semantic_rank"].is_u64()),
        "{after:#}"
    );
    // A corrupt cache is rebuilt with a warning, never a failure.
    std::fs::write(&file, b"garbage").unwrap();
    let (_, out) = env.brain_json("search", &query);
    assert_eq!(out.status, 0, "{out}");
    assert!(out.stderr.contains("ignoring the vector cache"), "{out}");
}
