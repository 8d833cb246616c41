//! Failure signatures: what two reports of "the same failure" have in common
//! once the parts that change from run to run are taken out.
//!
//! A signature is the normalised command, the failure kind and the
//! normalised message; its id is 16 hex digits of a blake3 hash over the
//! three. Normalising is deterministic and documented rule by rule, because
//! whether two failures count as one decides when a gotcha is proposed.
//!
//! **Command** ([`normalize_command`]): secrets redacted; leading `NAME=value`
//! assignments and an `env` prefix dropped; the program without its directory
//! or quotes; then at most two following words that look like subcommands
//! (start with a lowercase letter, then lowercase letters, digits, `:`, `_`,
//! `-`), stopping at the first flag, path or value; lowercased.
//! `RUST_LOG=debug /usr/bin/cargo test -p billing` is `cargo test`.
//!
//! **Message** ([`normalize_message`]), in this order:
//! 1. ANSI colour escapes are removed and secrets redacted;
//! 2. the repository root (`/home/ann/src/app/`) is removed, so paths inside
//!    the repository become relative;
//! 3. URLs become `<url>`; an absolute path (`/…`, `~/…`, `C:\…`) keeps only
//!    its last component, behind `<abs>/`;
//! 4. UUIDs become `<uuid>`;
//! 5. in every run of ASCII letters and digits: `0x…` hex numbers and runs of
//!    at least 6 hex digits that mix letters and digits (commit ids, build
//!    hashes) become `<hex>`; every other run of digits becomes `<n>`
//!    (line numbers, ports, pids, durations, dates);
//! 6. white space collapses to one space, everything is lowercased, and the
//!    result is cut to [`MAX_NORMALIZED_CHARS`] characters.

use std::sync::LazyLock;

use regex::Regex;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::FailureKind;

/// Longest normalised message, in characters.
pub const MAX_NORMALIZED_CHARS: usize = 300;

/// The identity of a failure.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Signature {
    /// 16 hex digits of a blake3 hash over the three parts.
    pub id: String,
    /// The normalised command.
    pub command: String,
    /// The failure kind.
    pub kind: FailureKind,
    /// The normalised message.
    pub message: String,
}

impl Signature {
    /// The signature of a failure of `command` with `message`; `root` is the
    /// repository root, removed from paths in the message.
    pub fn of(command: &str, kind: FailureKind, message: &str, root: Option<&str>) -> Signature {
        let command = normalize_command(command);
        let message = normalize_message(message, root);
        let mut hasher = blake3::Hasher::new();
        for part in ["failure-signature-v1", &command, kind.as_str(), &message] {
            hasher.update(&(part.len() as u64).to_le_bytes());
            hasher.update(part.as_bytes());
        }
        Signature {
            id: hasher.finalize().to_hex()[..16].to_owned(),
            command,
            kind,
            message,
        }
    }
}

/// Returns the program and its subcommands (see the module documentation).
pub fn normalize_command(command: &str) -> String {
    let (clean, _) = crate::secrets::redact(command);
    let mut words = clean.split_whitespace().peekable();
    while let Some(w) = words.peek() {
        let assignment = w.split_once('=').is_some_and(|(name, _)| {
            !name.is_empty()
                && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
                && !name.as_bytes()[0].is_ascii_digit()
        });
        if assignment || *w == "env" {
            words.next();
        } else {
            break;
        }
    }
    let Some(program) = words.next() else {
        return "sh".to_owned();
    };
    let program = program.trim_matches(['"', '\'']);
    let program = program.rsplit(['/', '\\']).next().unwrap_or(program);
    let mut out = vec![if program.is_empty() { "sh" } else { program }.to_lowercase()];
    for w in words.take(2) {
        let mut bytes = w.bytes();
        let first_ok = bytes.next().is_some_and(|b| b.is_ascii_lowercase());
        let rest_ok = bytes.all(|b| {
            b.is_ascii_lowercase() || b.is_ascii_digit() || matches!(b, b':' | b'_' | b'-')
        });
        if !(first_ok && rest_ok) {
            break;
        }
        out.push(w.to_owned());
    }
    out.join(" ")
}

static ANSI: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"\x1b\[[0-9;?]*[ -/]*[@-~]").unwrap_or_else(|_| unreachable!("constant pattern"))
});

static UUID: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b")
        .unwrap_or_else(|_| unreachable!("constant pattern"))
});

/// Returns the message with its run-specific parts replaced (see the module
/// documentation).
pub fn normalize_message(message: &str, root: Option<&str>) -> String {
    let text = ANSI.replace_all(message, "");
    let (mut text, _) = crate::secrets::redact(&text);
    if let Some(root) = root
        .map(|r| r.trim_end_matches(['/', '\\']))
        .filter(|r| r.len() > 1)
    {
        text = text.replace(&format!("{root}/"), "").replace(root, ".");
    }
    let text = UUID.replace_all(&text, "<uuid>");
    let mut words = Vec::new();
    for token in text.split_whitespace() {
        words.push(normalize_token(token));
    }
    let joined = words.join(" ").to_lowercase();
    if joined.chars().count() <= MAX_NORMALIZED_CHARS {
        joined
    } else {
        joined.chars().take(MAX_NORMALIZED_CHARS).collect()
    }
}

/// Normalises one white-space-separated token.
fn normalize_token(token: &str) -> String {
    const OPEN: &[char] = &['"', '\'', '(', '[', '{', '<', '`'];
    const CLOSE: &[char] = &['"', '\'', ')', ']', '}', '>', ',', ';', '`', '.', ':'];
    let core_start = token.len() - token.trim_start_matches(OPEN).len();
    let rest = &token[core_start..];
    let core = rest.trim_end_matches(CLOSE);
    let (prefix, suffix) = (&token[..core_start], &rest[core.len()..]);
    if core.is_empty() {
        return token.to_owned();
    }
    let lower = core.to_ascii_lowercase();
    let body = if lower.starts_with("http://") || lower.starts_with("https://") {
        "<url>".to_owned()
    } else if is_absolute(core) {
        let last = core.rsplit(['/', '\\']).next().unwrap_or(core);
        format!("<abs>/{}", normalize_runs(last))
    } else {
        normalize_runs(core)
    };
    format!("{prefix}{body}{suffix}")
}

fn is_absolute(s: &str) -> bool {
    let b = s.as_bytes();
    let drive = b.len() >= 3 && b[0].is_ascii_alphabetic() && b[1] == b':' && b[2] == b'\\';
    (s.starts_with('/') && s.len() > 1) || s.starts_with("~/") || drive
}

/// Replaces hex ids and numbers inside every run of ASCII letters and digits.
fn normalize_runs(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut run = String::new();
    let flush = |run: &mut String, out: &mut String| {
        if !run.is_empty() {
            out.push_str(&normalize_run(run));
            run.clear();
        }
    };
    for c in s.chars() {
        if c.is_ascii_alphanumeric() {
            run.push(c);
        } else {
            flush(&mut run, &mut out);
            out.push(c);
        }
    }
    flush(&mut run, &mut out);
    out
}

fn normalize_run(run: &str) -> String {
    let all_digits = run.bytes().all(|b| b.is_ascii_digit());
    if all_digits {
        return "<n>".to_owned();
    }
    let hex_body = run
        .strip_prefix("0x")
        .or_else(|| run.strip_prefix("0X"))
        .filter(|h| !h.is_empty() && h.bytes().all(|b| b.is_ascii_hexdigit()));
    if hex_body.is_some() {
        return "<hex>".to_owned();
    }
    let is_hex_id = run.len() >= 6
        && run.bytes().all(|b| b.is_ascii_hexdigit())
        && run.bytes().any(|b| b.is_ascii_digit())
        && run.bytes().any(|b| b.is_ascii_alphabetic());
    if is_hex_id {
        return "<hex>".to_owned();
    }
    let mut out = String::with_capacity(run.len());
    let mut in_digits = false;
    for c in run.chars() {
        if c.is_ascii_digit() {
            if !in_digits {
                out.push_str("<n>");
            }
            in_digits = true;
        } else {
            in_digits = false;
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_keep_program_and_subcommands() {
        let cases = [
            ("cargo test -p billing", "cargo test"),
            ("RUST_LOG=debug /usr/bin/cargo test --lib", "cargo test"),
            (
                "env CI=1 npm run test:unit -- --watch=false",
                "npm run test:unit",
            ),
            ("pnpm vitest run src/ledger.test.ts", "pnpm vitest run"),
            ("go test ./...", "go test"),
            ("python -m pytest tests/", "python"),
            ("pytest tests/test_ledger.py::test_refund", "pytest"),
            ("./scripts/check.sh", "check.sh"),
            ("'C:\\tools\\Make.exe' check", "make.exe check"),
            ("make", "make"),
            ("git push origin main", "git push origin"),
            ("  ", "sh"),
            ("API_TOKEN=abc", "sh"),
        ];
        for (command, want) in cases {
            assert_eq!(normalize_command(command), want, "{command}");
        }
    }

    #[test]
    fn messages_lose_what_changes_between_runs() {
        let root = Some("/home/ann/src/tollbooth");
        let cases = [
            (
                "thread 'refund_twice' panicked at src/ledger.rs:42:5:",
                "thread 'refund_twice' panicked at src/ledger.rs:<n>:<n>:",
            ),
            (
                "error[E0308]: mismatched types --> /home/ann/src/tollbooth/src/ledger.rs:17:9",
                "error[e<n>]: mismatched types --> src/ledger.rs:<n>:<n>",
            ),
            (
                "cannot open /tmp/.tmpAb3xYz/fixture.json: No such file",
                "cannot open <abs>/fixture.json: no such file",
            ),
            (
                "failed: C:\\Users\\ann\\AppData\\Local\\Temp\\x1\\out.log",
                "failed: <abs>/out.log",
            ),
            (
                "job 550e8400-e29b-41d4-a716-446655440000 failed after 3.21s (pid 81234)",
                "job <uuid> failed after <n>.<n>s (pid <n>)",
            ),
            (
                "commit a71f0c3 and artifact billing-3f9a8c7d2e1b4a5c differ at 0x7ffee4b2",
                "commit <hex> and artifact billing-<hex> differ at <hex>",
            ),
            (
                "connect to http://localhost:5432/db?x=1 refused; deadbeef cafe",
                "connect to <url> refused; deadbeef cafe",
            ),
            (
                "\u{1b}[31merror\u{1b}[0m: 2 tests failed\n\n   at 2026-11-20T12:00:00Z",
                "error: <n> tests failed at <n>-<n>-<n>t<n>:<n>:<n>z",
            ),
            (
                "auth failed with token ghp_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789",
                "auth failed with token [redacted:github_token]",
            ),
        ];
        for (message, want) in cases {
            assert_eq!(normalize_message(message, root), want, "{message}");
        }
        let long = "word ".repeat(200);
        assert_eq!(
            normalize_message(&long, None).chars().count(),
            MAX_NORMALIZED_CHARS
        );
    }

    #[test]
    fn the_same_failure_on_two_machines_has_one_signature() {
        let a = Signature::of(
            "cargo test -p billing",
            FailureKind::Test,
            "thread 'refund_twice' panicked at /home/ann/app/src/ledger.rs:42:5 (took 1.2s)",
            Some("/home/ann/app"),
        );
        let b = Signature::of(
            "CI=1 cargo test --workspace",
            FailureKind::Test,
            "thread 'refund_twice'   panicked at /builds/x9/app/src/ledger.rs:44:5 (took 3.9s)",
            Some("/builds/x9/app/"),
        );
        assert_eq!(a, b);
        assert_eq!(a.id.len(), 16);
        let other_kind = Signature::of(
            "cargo test",
            FailureKind::Build,
            "thread 'refund_twice' panicked at src/ledger.rs:1:1 (took 1s)",
            None,
        );
        assert_ne!(a.id, other_kind.id);
        let other_test = Signature::of(
            "cargo test",
            FailureKind::Test,
            "thread 'refund_once' panicked at src/ledger.rs:1:1 (took 1s)",
            None,
        );
        assert_ne!(a.id, other_test.id);
    }
}
