//! The secret firewall: finds credentials in text and replaces them with
//! `[REDACTED:<kind>]` before anything is written under `.brain/`.
//!
//! Records are committed to git, and runtime files outlive the session, so a
//! token pasted into a command must never reach a file. Commands redact their
//! input once, at the boundary, before anything (a title, a tag, a scope path,
//! an id) is derived from it; the store then scans every record again with
//! [`redact_memory`] or [`redact_preference`], and every runtime line with
//! [`redact_log_text`], just before writing.
//!
//! Detection is a table of patterns ([`RULES`](self) as data, after gitleaks'
//! published rules), tried in priority order over the original text; a later
//! pattern never matches inside an earlier one's span. Token formats with a
//! recognisable prefix (cloud, VCS, chat, payment and registry tokens, JWTs,
//! private key blocks) are redacted as they are. Passwords in URLs, headers and
//! command lines, and values assigned to secret-looking names (`*_KEY`,
//! `*_TOKEN`, `password`, …), are redacted only when they are not placeholders
//! (`changeme`, `<your-token>`, `${API_KEY}`, `xxxx`, `YOUR_API_KEY`); values
//! assigned to password names from [`MIN_PASSWORD_LEN`] characters, other
//! assigned values only when they look random: at least [`MIN_ASSIGNED_LEN`]
//! characters, a letter and a digit, and a Shannon entropy of at least
//! [`MIN_ENTROPY`] bits per character.
//!
//! What is redacted is reported by kind and position, never by value.
//! Redaction is idempotent: a redaction marker is never matched again.
//! The module is pure: no I/O.

use std::sync::LazyLock;

use regex::Regex;
use schemars::JsonSchema;
use serde::Serialize;

use crate::model::{Memory, MemoryId, Preference};

/// Shortest value assigned to a secret-looking name that is redacted.
pub const MIN_ASSIGNED_LEN: usize = 12;

/// Lowest Shannon entropy, in bits per character, of a value assigned to a
/// secret-looking name that is redacted. Random base64 or hex of 12 or more
/// characters lies above 3.2; words, identifiers and repeated characters
/// mostly below.
pub const MIN_ENTROPY: f64 = 3.0;

/// What kind of secret was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum SecretKind {
    /// An AWS access key id (`AKIA…`, `ASIA…`).
    AwsAccessKeyId,
    /// An AWS secret access key assigned to `aws_secret_access_key` or similar.
    AwsSecretAccessKey,
    /// A GitHub token (`ghp_`, `gho_`, `ghu_`, `ghs_`, `ghr_`, `github_pat_`).
    GithubToken,
    /// A GitLab token (`glpat-`, `glptt-`, `gldt-`, `glrt-`, …).
    GitlabToken,
    /// A Slack token (`xoxb-`, `xoxp-`, `xapp-`, …).
    SlackToken,
    /// The secret path of a Slack incoming-webhook URL.
    SlackWebhook,
    /// A Stripe secret or restricted key, live or test, or a webhook
    /// signing secret (`whsec_`).
    StripeKey,
    /// A `SendGrid` API key (`SG.….…`).
    SendgridKey,
    /// A Python Package Index upload token (`pypi-AgE…`).
    PypiToken,
    /// A Hugging Face access token (`hf_…`).
    HuggingfaceToken,
    /// A Vault token (`hvs.`, `hvb.`, `hvr.`).
    VaultToken,
    /// A Discord bot token.
    DiscordToken,
    /// A Telegram bot token (`<bot id>:AA…`).
    TelegramBotToken,
    /// An npm access token (`npm_…`).
    NpmToken,
    /// An Anthropic API key (`sk-ant-…`).
    AnthropicKey,
    /// An OpenAI-style API key (`sk-…`, `sk-proj-…`).
    OpenaiKey,
    /// A Google API key (`AIza…`).
    GoogleApiKey,
    /// The key of an Azure connection string (`AccountKey=`, `SharedAccessKey=`).
    AzureKey,
    /// A JSON Web Token.
    Jwt,
    /// A PEM private key block, or the `private_key` of a service-account JSON.
    PrivateKey,
    /// The password part of `scheme://user:password@host` (the user may be empty).
    UrlPassword,
    /// The credentials of an `Authorization: Basic|Bearer|Token …` header.
    AuthorizationHeader,
    /// A password on a command line (`mysql -pPASS`, `--password PASS`).
    CliPassword,
    /// A value assigned to a secret-looking name: random-looking for keys,
    /// tokens and secrets, any non-placeholder for passwords.
    AssignedSecret,
}

impl SecretKind {
    /// Returns the word used in redaction markers and reports.
    pub fn as_str(self) -> &'static str {
        match self {
            SecretKind::AwsAccessKeyId => "aws_access_key_id",
            SecretKind::AwsSecretAccessKey => "aws_secret_access_key",
            SecretKind::GithubToken => "github_token",
            SecretKind::GitlabToken => "gitlab_token",
            SecretKind::SlackToken => "slack_token",
            SecretKind::SlackWebhook => "slack_webhook",
            SecretKind::StripeKey => "stripe_key",
            SecretKind::SendgridKey => "sendgrid_key",
            SecretKind::PypiToken => "pypi_token",
            SecretKind::HuggingfaceToken => "huggingface_token",
            SecretKind::VaultToken => "vault_token",
            SecretKind::DiscordToken => "discord_token",
            SecretKind::TelegramBotToken => "telegram_bot_token",
            SecretKind::NpmToken => "npm_token",
            SecretKind::AnthropicKey => "anthropic_key",
            SecretKind::OpenaiKey => "openai_key",
            SecretKind::GoogleApiKey => "google_api_key",
            SecretKind::AzureKey => "azure_key",
            SecretKind::Jwt => "jwt",
            SecretKind::PrivateKey => "private_key",
            SecretKind::UrlPassword => "url_password",
            SecretKind::AuthorizationHeader => "authorization_header",
            SecretKind::CliPassword => "cli_password",
            SecretKind::AssignedSecret => "assigned_secret",
        }
    }

    /// Returns the kind named `name` in a redaction marker.
    pub fn from_name(name: &str) -> Option<SecretKind> {
        SecretKind::ALL.into_iter().find(|k| k.as_str() == name)
    }

    /// Every kind, in declaration order.
    pub const ALL: [SecretKind; 24] = [
        SecretKind::AwsAccessKeyId,
        SecretKind::AwsSecretAccessKey,
        SecretKind::GithubToken,
        SecretKind::GitlabToken,
        SecretKind::SlackToken,
        SecretKind::SlackWebhook,
        SecretKind::StripeKey,
        SecretKind::SendgridKey,
        SecretKind::PypiToken,
        SecretKind::HuggingfaceToken,
        SecretKind::VaultToken,
        SecretKind::DiscordToken,
        SecretKind::TelegramBotToken,
        SecretKind::NpmToken,
        SecretKind::AnthropicKey,
        SecretKind::OpenaiKey,
        SecretKind::GoogleApiKey,
        SecretKind::AzureKey,
        SecretKind::Jwt,
        SecretKind::PrivateKey,
        SecretKind::UrlPassword,
        SecretKind::AuthorizationHeader,
        SecretKind::CliPassword,
        SecretKind::AssignedSecret,
    ];
}

impl std::fmt::Display for SecretKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One secret redacted from a text: its kind and where it started in the
/// original text. Never the value.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
pub struct Finding {
    /// What was redacted.
    pub kind: SecretKind,
    /// Byte offset of the secret in the original text.
    pub offset: usize,
    /// Line of the secret in the original text, from 1.
    pub line: usize,
    /// Column (in characters) of the secret on its line, from 1.
    pub column: usize,
}

/// One secret redacted from a record field.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
pub struct Redaction {
    /// The record.
    pub id: MemoryId,
    /// The field, e.g. `detail`, `tags`, `provenance.evidence`.
    pub field: String,
    /// What was redacted.
    pub kind: SecretKind,
    /// Line of the secret in the field's text (for lists, in the item), from 1.
    pub line: usize,
    /// Column of the secret on that line, from 1.
    pub column: usize,
}

/// How a pattern's match is turned into a span to redact.
#[derive(Clone, Copy)]
enum Check {
    /// The whole match is a secret.
    Whole,
    /// The first capture group that took part is a secret (the rest is
    /// context kept in the text).
    Group,
    /// Body (group 1) must mix upper case, lower case and digits (`sk-…`).
    MixedCase,
    /// Body (group 1) must mix upper and lower case (`hf_…`).
    UpperLower,
    /// Body (group 1, else the whole match) must contain a digit.
    HasDigit,
    /// The first capture group that took part is a password or token: skip
    /// placeholders.
    NotPlaceholder,
    /// The first capture group that took part is a password: skip
    /// placeholders and plain words.
    Password,
    /// The value (first group after 1 that took part) of an assignment to
    /// the name in group 1.
    Assigned,
}

struct Detector {
    kind: SecretKind,
    regex: Regex,
    check: Check,
}

/// An assigned value: quoted (up to the closing quote) or bare.
const VALUE: &str = r#"(?:"([^"\n]+)"|'([^'\n]+)'|`([^`\n]+)`|([^\s"'`,;]+))"#;

/// The detectors as data, in priority order: `(kind, pattern, check)`.
///
/// The token formats follow gitleaks' published rules
/// (<https://github.com/gitleaks/gitleaks>, `config/gitleaks.toml`, MIT
/// licence, copyright Zachary Rice), adapted to Rust's `regex` and to
/// redaction: a prefix, a length and a character set per format, and for
/// formats without a prefix the context that names them.
const RULES: &[(SecretKind, &str, Check)] = {
    use Check::{
        Assigned, Group, HasDigit, MixedCase, NotPlaceholder, Password, UpperLower, Whole,
    };
    use SecretKind as K;
    &[
        // A whole PEM block; an unterminated one is redacted to the end.
        (
            K::PrivateKey,
            r"(?s)-----BEGIN[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----(?:.*?-----END[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|.*)",
            Whole,
        ),
        // The key of a service-account JSON, with or without its PEM armour.
        (
            K::PrivateKey,
            r#""private_key"\s*:\s*"([^"]{16,})""#,
            NotPlaceholder,
        ),
        (
            K::Jwt,
            r"\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}",
            Whole,
        ),
        (
            K::GithubToken,
            r"\b(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{22,255})",
            Whole,
        ),
        (
            K::GitlabToken,
            r"\bgl(?:pat|ptt|dt|rt|cbt|oas|soat|ft|imt|agent|ffct)-([0-9A-Za-z_-]{20,})",
            HasDigit,
        ),
        (
            K::SlackWebhook,
            r"\bhttps://hooks\.slack\.com/(?:services|workflows|triggers)/([A-Za-z0-9_/-]{16,})",
            Group,
        ),
        (
            K::SlackToken,
            r"\bxox[abeoprs]-([A-Za-z0-9-]{10,})",
            HasDigit,
        ),
        (
            K::SlackToken,
            r"(?i)\bxapp-\d-[A-Z0-9]+-\d+-[A-Z0-9]+",
            Whole,
        ),
        (
            K::StripeKey,
            r"\b(?:sk|rk)_(?:live|test)_([A-Za-z0-9]{10,})",
            HasDigit,
        ),
        (K::StripeKey, r"\bwhsec_([A-Za-z0-9+/=]{24,})", HasDigit),
        (
            K::SendgridKey,
            r"\bSG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}\b",
            Whole,
        ),
        (K::PypiToken, r"\bpypi-AgE[A-Za-z0-9_-]{50,}", Whole),
        (
            K::HuggingfaceToken,
            r"\bhf_([A-Za-z0-9]{34,40})\b",
            UpperLower,
        ),
        (K::VaultToken, r"\bhv[sbr]\.([A-Za-z0-9_-]{24,})", HasDigit),
        (
            K::DiscordToken,
            r"\b[MNO][A-Za-z0-9_-]{23,25}\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27,40}\b",
            HasDigit,
        ),
        (
            K::TelegramBotToken,
            r"\b[0-9]{5,16}:A[A-Za-z0-9_-]{34}\b",
            Whole,
        ),
        (K::NpmToken, r"\bnpm_([A-Za-z0-9]{36})\b", HasDigit),
        (
            K::AnthropicKey,
            r"\bsk-ant-[a-z]+[0-9]{2}-[A-Za-z0-9_-]{20,}",
            Whole,
        ),
        (
            K::OpenaiKey,
            r"\bsk-(?:proj-|svcacct-|admin-)?([A-Za-z0-9_-]{20,})",
            MixedCase,
        ),
        (K::GoogleApiKey, r"\bAIza[0-9A-Za-z_-]{35}", Whole),
        (
            K::AwsAccessKeyId,
            r"\b(?:AKIA|ASIA|ABIA|ACCA|A3T[A-Z0-9])[A-Z0-9]{16}\b",
            Whole,
        ),
        (
            K::AzureKey,
            r"(?i)\b(?:AccountKey|SharedAccessKey|SharedAccessSignature)\s*=\s*([A-Za-z0-9+/%&=]{20,}?)(?:;|\s|$|[\x22'`])",
            NotPlaceholder,
        ),
        (
            K::AwsSecretAccessKey,
            r#"(?i)aws_?secret_?(?:access_?)?key["']?\s*(?::=|=>|[:=])\s*["']?([A-Za-z0-9/+=]{40})(?:[^A-Za-z0-9/+=]|$)"#,
            Group,
        ),
        (
            K::UrlPassword,
            r"\b[A-Za-z][A-Za-z0-9+.-]*://[^\s:/@]*:([^\s@/]+)@",
            NotPlaceholder,
        ),
        (
            K::AuthorizationHeader,
            r#"(?i)\b(?:proxy-)?authorization["']?\s*[:=]\s*["']?(?:basic|bearer|token|digest|apikey)\s+([A-Za-z0-9._~+/=-]{8,})"#,
            NotPlaceholder,
        ),
        (
            K::CliPassword,
            r#"\b(?:mysql|mysqldump|mysqladmin|mysqlimport|mysqlcheck|mariadb|mariadb-dump)\b[^\n]*?\s-p(?:'([^'\n]+)'|"([^"\n]+)"|([^\s'"`-][^\s'"`]*))"#,
            NotPlaceholder,
        ),
        (
            K::CliPassword,
            r#"(?:^|\s)--(?:password|passwd|storepass|keypass|token|api-key)(?:=|\s+)(?:'([^'\n]+)'|"([^"\n]+)"|([^\s'"`-][^\s'"`]*))"#,
            Password,
        ),
        (
            K::AssignedSecret,
            r#"(?i)\b([A-Za-z0-9_.-]*(?:key|secret|token|password|passwd|pwd|passphrase|key_base))["']?\s*(?::=|=>|[:=])\s*"#,
            Assigned,
        ),
    ]
};

fn compile(pattern: &str, check: Check) -> Regex {
    let pattern = match check {
        Check::Assigned if pattern.ends_with(r"\s*") => format!("{pattern}{VALUE}"),
        _ => pattern.to_owned(),
    };
    // The patterns are constants; a test compiles every one.
    Regex::new(&pattern).unwrap_or_else(|e| panic!("bad pattern {pattern}: {e}"))
}

/// The detectors in priority order.
static DETECTORS: LazyLock<Vec<Detector>> = LazyLock::new(|| {
    RULES
        .iter()
        .map(|&(kind, pattern, check)| Detector {
            kind,
            regex: compile(pattern, check),
            check,
        })
        .collect()
});

/// Returns `text` with every secret replaced by `[REDACTED:<kind>]`, and what
/// was replaced, in order of position.
pub fn redact(text: &str) -> (String, Vec<Finding>) {
    let mut spans: Vec<(usize, usize, SecretKind)> = Vec::new();
    for d in DETECTORS.iter() {
        for caps in d.regex.captures_iter(text) {
            let Some(span) = secret_span(d, &caps) else {
                continue;
            };
            if spans.iter().any(|&(s, e, _)| span.0 < e && s < span.1) {
                continue;
            }
            spans.push((span.0, span.1, d.kind));
        }
    }
    if spans.is_empty() {
        return (text.to_owned(), Vec::new());
    }
    spans.sort_by_key(|&(s, _, _)| s);
    let mut out = String::with_capacity(text.len());
    let mut findings = Vec::with_capacity(spans.len());
    let mut last = 0;
    for (start, end, kind) in spans {
        out.push_str(&text[last..start]);
        out.push_str("[REDACTED:");
        out.push_str(kind.as_str());
        out.push(']');
        last = end;
        let (line, column) = line_column(text, start);
        findings.push(Finding {
            kind,
            offset: start,
            line,
            column,
        });
    }
    out.push_str(&text[last..]);
    (out, findings)
}

fn secret_span(d: &Detector, caps: &regex::Captures<'_>) -> Option<(usize, usize)> {
    let whole = caps.get(0)?;
    let first = |from: usize| (from..caps.len()).find_map(|i| caps.get(i));
    let span = |m: regex::Match<'_>| (m.start(), m.end());
    match d.check {
        Check::Whole => Some(span(whole)),
        Check::Group => first(1).map(span),
        Check::HasDigit => caps
            .get(1)
            .map_or(Some(whole), Some)
            .filter(|b| b.as_str().bytes().any(|c| c.is_ascii_digit()))
            .map(|_| span(whole)),
        Check::MixedCase => caps
            .get(1)
            .filter(|b| {
                let b = b.as_str();
                b.bytes().any(|c| c.is_ascii_digit())
                    && b.bytes().any(|c| c.is_ascii_uppercase())
                    && b.bytes().any(|c| c.is_ascii_lowercase())
            })
            .map(|_| span(whole)),
        Check::UpperLower => caps
            .get(1)
            .filter(|b| {
                let b = b.as_str();
                b.bytes().any(|c| c.is_ascii_uppercase())
                    && b.bytes().any(|c| c.is_ascii_lowercase())
            })
            .map(|_| span(whole)),
        Check::NotPlaceholder => first(1).filter(|p| !is_placeholder(p.as_str())).map(span),
        Check::Password => first(1)
            .filter(|p| looks_like_password(p.as_str()))
            .map(span),
        Check::Assigned => {
            let name = caps.get(1)?.as_str();
            let value = first(2)?;
            let secret = if is_password_name(name) {
                looks_like_password(value.as_str())
            } else {
                !is_public_key_name(name) && looks_random(value.as_str())
            };
            secret.then(|| span(value))
        }
    }
}

/// Names whose value is a password, which may be short and need not look
/// random: `password`, `DB_PASSWD`, `pwd`, `passphrase`.
fn is_password_name(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    ["password", "passwd", "pwd", "passphrase"]
        .iter()
        .any(|w| lower.ends_with(w))
}

/// Shortest password that is redacted.
pub const MIN_PASSWORD_LEN: usize = 6;

/// Whether a value given as a password is one: at least
/// [`MIN_PASSWORD_LEN`] characters, not a placeholder, not a path, a
/// variable or a call, and not a plain lower-case word (`required`, `none`).
fn looks_like_password(value: &str) -> bool {
    let value = value.trim_end_matches(['.', ')', ']', '}', '>']);
    value.chars().count() >= MIN_PASSWORD_LEN
        && !is_placeholder(value)
        && !looks_like_path_or_url(value)
        && !value.contains('(')
        && (value.chars().any(|c| !c.is_ascii_alphabetic())
            || (value.chars().skip(1).any(|c| c.is_ascii_uppercase())
                && value.chars().any(|c| c.is_ascii_lowercase())))
}

/// Names ending in `key` that do not hold secrets: a bare `key` (in prose,
/// usually a lookup key) and compounds like `cache_key` or `public_key`.
fn is_public_key_name(name: &str) -> bool {
    const NOT_SECRET: [&str; 18] = [
        "public",
        "pub",
        "cache",
        "sort",
        "primary",
        "foreign",
        "partition",
        "idempotency",
        "lookup",
        "hash",
        "index",
        "unique",
        "composite",
        "object",
        "bucket",
        "shard",
        "group",
        "dedup",
    ];
    let lower = name.to_ascii_lowercase();
    let Some(stem) = lower.strip_suffix("key") else {
        return false;
    };
    let stem = stem.trim_end_matches(['_', '-', '.']);
    stem.is_empty() || NOT_SECRET.iter().any(|w| stem.ends_with(w))
}

/// Whether a value assigned to a secret-looking name is worth redacting.
fn looks_random(value: &str) -> bool {
    let value = value.trim_end_matches(['.', ')', ']', '}', '>']);
    value.chars().count() >= MIN_ASSIGNED_LEN
        && !is_placeholder(value)
        && !looks_like_path_or_url(value)
        && value.chars().any(|c| c.is_ascii_alphabetic())
        && value.chars().any(|c| c.is_ascii_digit())
        && shannon_entropy(value) >= MIN_ENTROPY
}

fn looks_like_path_or_url(value: &str) -> bool {
    value.contains("://")
        || value.starts_with("~/")
        || value.starts_with("./")
        || value.starts_with("../")
        || (value.starts_with('/') && value.matches('/').count() >= 2)
}

/// Returns whether a value is a stand-in for a secret, not one: a
/// variable or template (`$TOKEN`, `${API_KEY}`, `{{ secrets.X }}`,
/// `<your-token>`), a run of one or two characters (`xxxx`), or made only
/// of placeholder words (`changeme`, `YOUR_API_KEY`, `your-api-key-here`).
/// A real password that merely contains such a word (`Sup3rSecretPassw0rd!`)
/// is not a placeholder.
pub fn is_placeholder(value: &str) -> bool {
    const WORDS: [&str; 34] = [
        "changeme",
        "change",
        "placeholder",
        "example",
        "redacted",
        "your",
        "dummy",
        "password",
        "passwd",
        "secret",
        "todo",
        "replace",
        "here",
        "insert",
        "api",
        "key",
        "token",
        "access",
        "auth",
        "my",
        "the",
        "goes",
        "value",
        "xxx",
        "fake",
        "sample",
        "test",
        "me",
        "with",
        "account",
        "client",
        "private",
        "app",
        "user",
    ];
    let lower = value.to_ascii_lowercase();
    let distinct: std::collections::BTreeSet<char> = lower.chars().collect();
    if value.starts_with("[REDACTED:")
        || value.starts_with('$')
        || value.starts_with('<')
        || value.starts_with('{')
        || value.starts_with('%')
        || value.contains("${")
        || value.contains("{{")
        || distinct.len() <= 2
    {
        return true;
    }
    // What is left once the placeholder words and separators are gone.
    let mut rest: String = lower.chars().filter(char::is_ascii_alphanumeric).collect();
    for w in WORDS {
        rest = rest.replace(w, "");
    }
    rest.chars().count() < 3 || rest.chars().all(|c| c == 'x')
}

/// Returns the Shannon entropy of `s` in bits per character.
pub fn shannon_entropy(s: &str) -> f64 {
    let mut counts: std::collections::BTreeMap<char, u32> = std::collections::BTreeMap::new();
    let mut total = 0u32;
    for c in s.chars() {
        *counts.entry(c).or_default() += 1;
        total += 1;
    }
    if total == 0 {
        return 0.0;
    }
    let total = f64::from(total);
    counts
        .values()
        .map(|&n| {
            let p = f64::from(n) / total;
            -p * p.log2()
        })
        .sum()
}

/// Returns `text`, a runtime file (a log line, JSON Lines, a JSON document
/// or plain text), with every secret redacted: the last line of the
/// firewall for `.brain/runtime/`. JSON stays valid JSON, because only its
/// string values are redacted; plain text is redacted line by line.
pub fn redact_log_text(text: &str) -> String {
    if let Some(json) = redact_json_text(text) {
        return json;
    }
    let mut out = String::with_capacity(text.len());
    for line in text.split_inclusive('\n') {
        let (body, end) = match line.strip_suffix('\n') {
            Some(b) => (b, "\n"),
            None => (line, ""),
        };
        match redact_json_text(body) {
            Some(json) => out.push_str(&json),
            None => out.push_str(&redact(body).0),
        }
        out.push_str(end);
    }
    out
}

/// `Some` when `text` is one JSON value: the text itself when no string
/// in it holds a secret, else the value re-serialised with its strings
/// redacted (pretty when the text spanned lines).
fn redact_json_text(text: &str) -> Option<String> {
    let trimmed = text.trim();
    if !(trimmed.starts_with('{') || trimmed.starts_with('[') || trimmed.starts_with('"')) {
        return None;
    }
    let mut value: serde_json::Value = serde_json::from_str(trimmed).ok()?;
    if !redact_json(&mut value) {
        return Some(text.to_owned());
    }
    let mut out = if trimmed.contains('\n') {
        serde_json::to_string_pretty(&value).ok()?
    } else {
        serde_json::to_string(&value).ok()?
    };
    if text.ends_with('\n') {
        out.push('\n');
    }
    Some(out)
}

/// Redacts every string (keys included) of `value`; returns whether any changed.
fn redact_json(value: &mut serde_json::Value) -> bool {
    use serde_json::Value;
    match value {
        Value::String(s) => {
            let (clean, found) = redact(s);
            if found.is_empty() {
                return false;
            }
            *s = clean;
            true
        }
        Value::Array(items) => items.iter_mut().fold(false, |c, v| redact_json(v) | c),
        Value::Object(map) => {
            let keys: Vec<String> = map.keys().cloned().collect();
            let mut changed = false;
            for key in keys {
                let (clean, found) = redact(&key);
                if !found.is_empty() {
                    if let Some(v) = map.remove(&key) {
                        map.insert(clean, v);
                    }
                    changed = true;
                }
            }
            map.values_mut().fold(changed, |c, v| redact_json(v) | c)
        }
        _ => false,
    }
}

fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    (line, before[line_start..].chars().count() + 1)
}

/// A redaction marker, `[REDACTED:<kind>]`.
static MARKER: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"\[REDACTED:([a-z0-9_]+)\]").expect("a valid constant pattern"));

/// Returns the redaction markers in `text`, as findings at their positions.
pub fn markers(text: &str) -> Vec<Finding> {
    MARKER
        .captures_iter(text)
        .filter_map(|c| {
            let kind = SecretKind::from_name(c.get(1)?.as_str())?;
            let start = c.get(0)?.start();
            let (line, column) = line_column(text, start);
            Some(Finding {
                kind,
                offset: start,
                line,
                column,
            })
        })
        .collect()
}

/// Collects the redactions of one record: made now (`scan` false), or
/// already in it as markers (`scan` true).
struct Redactor {
    id: MemoryId,
    found: Vec<Redaction>,
    scan: bool,
}

impl Redactor {
    fn text(&mut self, field: &str, text: &mut String) {
        if self.scan {
            let found = markers(text);
            self.push(field, found);
            return;
        }
        let (clean, findings) = redact(text);
        if findings.is_empty() {
            return;
        }
        *text = clean;
        self.push(field, findings);
    }

    fn push(&mut self, field: &str, findings: Vec<Finding>) {
        for f in findings {
            self.found.push(Redaction {
                id: self.id.clone(),
                field: field.to_owned(),
                kind: f.kind,
                line: f.line,
                column: f.column,
            });
        }
    }

    fn list(&mut self, field: &str, list: &mut [String]) {
        for item in list {
            self.text(field, item);
        }
    }

    fn provenance(&mut self, p: &mut crate::model::Provenance) {
        if let Some(by) = &mut p.proposed_by {
            self.text("provenance.proposed_by", by);
        }
        for e in &mut p.evidence {
            self.text("provenance.evidence", &mut e.value);
        }
    }

    fn review(&mut self, r: &mut crate::model::Review) {
        if let Some(by) = &mut r.decided_by {
            self.text("review.decided_by", by);
        }
        if let Some(reason) = &mut r.reason {
            self.text("review.reason", reason);
        }
    }
}

/// Redacts every free-text field of `m` in place and returns what was
/// redacted, field by field.
pub fn redact_memory(m: &mut Memory) -> Vec<Redaction> {
    memory_fields(m, false)
}

/// Returns the redaction markers in the free-text fields of `m`, field by
/// field: what a record redacted at the boundary holds.
pub fn redactions_in_memory(m: &Memory) -> Vec<Redaction> {
    memory_fields(&mut m.clone(), true)
}

fn memory_fields(m: &mut Memory, scan: bool) -> Vec<Redaction> {
    let mut r = Redactor {
        id: m.id.clone(),
        found: Vec::new(),
        scan,
    };
    r.text("title", &mut m.title);
    r.text("summary", &mut m.summary);
    r.text("detail", &mut m.detail);
    r.list("tags", &mut m.tags);
    r.list("scope.paths", &mut m.scope.paths);
    r.list("scope.modules", &mut m.scope.modules);
    let routing = &mut m.routing;
    r.list(
        "routing.recommended_skills",
        &mut routing.recommended_skills,
    );
    r.list("routing.required_skills", &mut routing.required_skills);
    r.list("routing.suppressed_skills", &mut routing.suppressed_skills);
    r.list("routing.trigger_paths", &mut routing.trigger_paths);
    r.list("routing.trigger_tasks", &mut routing.trigger_tasks);
    r.provenance(&mut m.provenance);
    r.review(&mut m.review);
    r.text("notes", &mut m.notes);
    r.found
}

/// Redacts every free-text field of `p` in place and returns what was
/// redacted, field by field.
pub fn redact_preference(p: &mut Preference) -> Vec<Redaction> {
    preference_fields(p, false)
}

/// Returns the redaction markers in the free-text fields of `p`.
pub fn redactions_in_preference(p: &Preference) -> Vec<Redaction> {
    preference_fields(&mut p.clone(), true)
}

fn preference_fields(p: &mut Preference, scan: bool) -> Vec<Redaction> {
    let mut r = Redactor {
        id: p.id.clone(),
        found: Vec::new(),
        scan,
    };
    r.text("target", &mut p.target);
    r.text("reason", &mut p.reason);
    r.list("task_hints", &mut p.task_hints);
    r.list("path_hints", &mut p.path_hints);
    r.provenance(&mut p.provenance);
    r.review(&mut p.review);
    r.found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_pattern_compiles() {
        assert_eq!(DETECTORS.len(), RULES.len());
        for kind in SecretKind::ALL {
            assert_eq!(SecretKind::from_name(kind.as_str()), Some(kind));
        }
    }

    #[test]
    fn reports_kind_and_position_never_the_value() {
        let text = "first line\nkey AKIAFAKEFAKEFAKEFAKE here";
        let (clean, findings) = redact(text);
        assert_eq!(clean, "first line\nkey [REDACTED:aws_access_key_id] here");
        assert_eq!(
            findings,
            [Finding {
                kind: SecretKind::AwsAccessKeyId,
                offset: 15,
                line: 2,
                column: 5,
            }]
        );
        let json = serde_json::to_string(&findings).unwrap();
        assert!(!json.contains("AKIA"), "{json}");
    }

    #[test]
    fn url_keeps_user_and_host() {
        let (clean, _) =
            redact("DATABASE_URL=postgres://app:Sup3rFakePassw0rd9@db.internal:5432/app");
        assert_eq!(
            clean,
            "DATABASE_URL=postgres://app:[REDACTED:url_password]@db.internal:5432/app"
        );
    }

    #[test]
    fn redaction_is_idempotent() {
        let text = "API_TOKEN=9fK2mQ7xLp4RtV8wZ3bN and postgres://u:hunter2fake@h/db";
        let (once, findings) = redact(text);
        assert_eq!(findings.len(), 2, "{once}");
        let (twice, again) = redact(&once);
        assert_eq!(twice, once);
        assert!(again.is_empty());
    }

    #[test]
    fn log_text_stays_json_and_loses_its_secrets() {
        let line = r#"{"task":"push with ghp_FAKEFAKEFAKEFAKEFAKEFAKEFAKEFAKE1234","ids":[]}"#;
        let clean = redact_log_text(line);
        assert_eq!(
            clean,
            r#"{"task":"push with [REDACTED:github_token]","ids":[]}"#
        );
        let lines = format!(
            "{line}
plain redis://:Fak3Pw9xQ@cache:6379 text
"
        );
        let clean = redact_log_text(&lines);
        assert_eq!(
            clean,
            "{\"task\":\"push with [REDACTED:github_token]\",\"ids\":[]}\nplain redis://:[REDACTED:url_password]@cache:6379 text\n"
        );
        let untouched = "{\n  \"hints\": [\"keep\"]\n}\n";
        assert_eq!(redact_log_text(untouched), untouched);
    }

    #[test]
    fn placeholders_are_made_of_placeholder_words_only() {
        for p in [
            "YOUR_API_KEY",
            "your-api-key-here",
            "changeme",
            "xxxxxxxx",
            "<token>",
            "$TOKEN",
        ] {
            assert!(is_placeholder(p), "{p}");
        }
        for s in [
            "Sup3rSecretPassw0rd!",
            "MyPassword2024!",
            "secret-Sauce-81",
            "hunter2!",
        ] {
            assert!(!is_placeholder(s), "{s}");
        }
    }

    #[test]
    fn markers_are_found_where_they_are() {
        let found = markers("a [REDACTED:jwt]\nb [REDACTED:npm_token] [REDACTED:nope]");
        let got: Vec<(SecretKind, usize, usize)> =
            found.iter().map(|f| (f.kind, f.line, f.column)).collect();
        assert_eq!(got, [(SecretKind::Jwt, 1, 3), (SecretKind::NpmToken, 2, 3)]);
    }

    #[test]
    fn entropy_calibration() {
        assert!(shannon_entropy("aaaaaaaaaaaa") < 0.1);
        assert!(shannon_entropy("9fK2mQ7xLp4RtV8wZ3bN") > 4.0);
        assert!(shannon_entropy("0123456789abcdef") >= 4.0);
        assert!(shannon_entropy("abababab1212") < MIN_ENTROPY);
    }

    #[test]
    fn memory_fields_are_redacted_and_named() {
        use crate::model::{Evidence, EvidenceKind, MemoryType, Provenance, Source, Status};
        let mut m = Memory::new(
            MemoryId::new("m-1").unwrap(),
            MemoryType::Gotcha,
            Status::Candidate,
            "Token ghp_FAKEFAKEFAKEFAKEFAKEFAKEFAKEFAKE1234 leaked",
            "Summary.",
            Provenance {
                source: Source::Manual,
                captured_at: "2026-01-01T00:00:00Z".parse().unwrap(),
                proposed_by: None,
                evidence: vec![Evidence {
                    kind: EvidenceKind::Url,
                    value: "https://ci:Fak3CiPassw0rd@ci.example.org/job/1".into(),
                }],
            },
        );
        m.tags = vec!["AKIAFAKEFAKEFAKEFAKE".into()];
        let found = redact_memory(&mut m);
        let fields: Vec<(&str, SecretKind)> =
            found.iter().map(|r| (r.field.as_str(), r.kind)).collect();
        assert_eq!(
            fields,
            [
                ("title", SecretKind::GithubToken),
                ("tags", SecretKind::AwsAccessKeyId),
                ("provenance.evidence", SecretKind::UrlPassword),
            ]
        );
        assert_eq!(m.title, "Token [REDACTED:github_token] leaked");
        assert_eq!(m.tags, ["[REDACTED:aws_access_key_id]"]);
    }
}
