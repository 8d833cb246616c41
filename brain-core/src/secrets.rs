//! The secret firewall: finds credentials in text and replaces them with
//! `[REDACTED:<kind>]` before a record is written.
//!
//! Records are committed to git, so a token pasted into a memory would be
//! published with it. Every write path of the facade (`add`, `approve`,
//! `dismiss`, `import`) passes its records through [`redact_memory`] or
//! [`redact_preference`] first.
//!
//! Detection is a fixed list of patterns, tried in priority order over the
//! original text; a later pattern never matches inside an earlier one's span.
//! Token formats with a recognisable prefix (cloud, VCS, chat and payment
//! keys, JWTs, private key blocks) are redacted as they are. Passwords in URLs
//! and values assigned to secret-looking names (`*_KEY`, `*_TOKEN`,
//! `password`, …) are redacted only when they are not placeholders
//! (`changeme`, `<your-token>`, `${API_KEY}`, `xxxx`), and assigned values only
//! when they look random: at least [`MIN_ASSIGNED_LEN`] characters, a letter
//! and a digit, and a Shannon entropy of at least [`MIN_ENTROPY`] bits per
//! character.
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
    /// A Slack token (`xoxb-`, `xoxp-`, …).
    SlackToken,
    /// The secret path of a Slack incoming-webhook URL.
    SlackWebhook,
    /// A Stripe secret or restricted key, live or test.
    StripeKey,
    /// An OpenAI-style API key (`sk-…`, `sk-proj-…`).
    OpenaiKey,
    /// A Google API key (`AIza…`).
    GoogleApiKey,
    /// A JSON Web Token.
    Jwt,
    /// A PEM private key block.
    PrivateKey,
    /// The password part of `scheme://user:password@host`.
    UrlPassword,
    /// A random-looking value assigned to a secret-looking name.
    AssignedSecret,
}

impl SecretKind {
    /// Returns the word used in redaction markers and reports.
    pub fn as_str(self) -> &'static str {
        match self {
            SecretKind::AwsAccessKeyId => "aws_access_key_id",
            SecretKind::AwsSecretAccessKey => "aws_secret_access_key",
            SecretKind::GithubToken => "github_token",
            SecretKind::SlackToken => "slack_token",
            SecretKind::SlackWebhook => "slack_webhook",
            SecretKind::StripeKey => "stripe_key",
            SecretKind::OpenaiKey => "openai_key",
            SecretKind::GoogleApiKey => "google_api_key",
            SecretKind::Jwt => "jwt",
            SecretKind::PrivateKey => "private_key",
            SecretKind::UrlPassword => "url_password",
            SecretKind::AssignedSecret => "assigned_secret",
        }
    }
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
    /// Capture group 1 is a secret (the rest is context kept in the text).
    Group,
    /// Body must mix upper case, lower case and digits (`sk-…`).
    MixedCase,
    /// Body must contain a digit.
    HasDigit,
    /// Capture group 1 is a password: skip placeholders.
    NotPlaceholder,
    /// Capture group 2 (the value) of an assignment to the name in group 1.
    Assigned,
}

struct Detector {
    kind: SecretKind,
    regex: Regex,
    check: Check,
}

fn detector(kind: SecretKind, pattern: &str, check: Check) -> Detector {
    Detector {
        kind,
        // The patterns are constants; a test compiles every one.
        regex: Regex::new(pattern).unwrap_or_else(|e| panic!("bad pattern {pattern}: {e}")),
        check,
    }
}

/// The detectors in priority order.
static DETECTORS: LazyLock<Vec<Detector>> = LazyLock::new(|| {
    use Check::{Assigned, Group, HasDigit, MixedCase, NotPlaceholder, Whole};
    use SecretKind as K;
    vec![
        // A whole PEM block; an unterminated one is redacted to the end.
        detector(
            K::PrivateKey,
            r"(?s)-----BEGIN[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----(?:.*?-----END[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|.*)",
            Whole,
        ),
        detector(
            K::Jwt,
            r"\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}",
            Whole,
        ),
        detector(
            K::GithubToken,
            r"\b(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{22,255})",
            Whole,
        ),
        detector(
            K::SlackWebhook,
            r"\bhttps://hooks\.slack\.com/(?:services|workflows|triggers)/([A-Za-z0-9_/-]{16,})",
            Group,
        ),
        detector(K::SlackToken, r"\bxox[abprs]-([A-Za-z0-9-]{10,})", HasDigit),
        detector(
            K::StripeKey,
            r"\b(?:sk|rk)_(?:live|test)_([A-Za-z0-9]{10,})",
            Whole,
        ),
        detector(
            K::OpenaiKey,
            r"\bsk-(?:proj-|svcacct-|admin-)?([A-Za-z0-9_-]{20,})",
            MixedCase,
        ),
        detector(K::GoogleApiKey, r"\bAIza[0-9A-Za-z_-]{35}", Whole),
        detector(
            K::AwsAccessKeyId,
            r"\b(?:AKIA|ASIA|ABIA|ACCA|A3T[A-Z0-9])[A-Z0-9]{16}\b",
            Whole,
        ),
        detector(
            K::AwsSecretAccessKey,
            r#"(?i)aws_?secret_?(?:access_?)?key["']?\s*(?::=|=>|[:=])\s*["']?([A-Za-z0-9/+=]{40})(?:[^A-Za-z0-9/+=]|$)"#,
            Group,
        ),
        detector(
            K::UrlPassword,
            r"\b[A-Za-z][A-Za-z0-9+.-]*://[^\s:/@]+:([^\s@/]+)@",
            NotPlaceholder,
        ),
        detector(
            K::AssignedSecret,
            r#"(?i)\b([A-Za-z0-9_.-]*(?:key|secret|token|password|passwd|pwd))["']?\s*(?::=|=>|[:=])\s*["'`]?([^\s"'`,;]+)"#,
            Assigned,
        ),
    ]
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
    match d.check {
        Check::Whole => Some((whole.start(), whole.end())),
        Check::Group => caps.get(1).map(|m| (m.start(), m.end())),
        Check::HasDigit => caps
            .get(1)
            .filter(|b| b.as_str().bytes().any(|c| c.is_ascii_digit()))
            .map(|_| (whole.start(), whole.end())),
        Check::MixedCase => caps
            .get(1)
            .filter(|b| {
                let b = b.as_str();
                b.bytes().any(|c| c.is_ascii_digit())
                    && b.bytes().any(|c| c.is_ascii_uppercase())
                    && b.bytes().any(|c| c.is_ascii_lowercase())
            })
            .map(|_| (whole.start(), whole.end())),
        Check::NotPlaceholder => caps
            .get(1)
            .filter(|p| !is_placeholder(p.as_str()))
            .map(|p| (p.start(), p.end())),
        Check::Assigned => {
            let name = caps.get(1)?.as_str();
            let value = caps.get(2)?;
            (!is_public_key_name(name) && looks_random(value.as_str()))
                .then(|| (value.start(), value.end()))
        }
    }
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

/// Returns whether a value is a stand-in for a secret, not one.
pub fn is_placeholder(value: &str) -> bool {
    const WORDS: [&str; 12] = [
        "changeme",
        "change_me",
        "change-me",
        "placeholder",
        "example",
        "redacted",
        "your",
        "dummy",
        "password",
        "secret",
        "todo",
        "replace",
    ];
    let lower = value.to_ascii_lowercase();
    let distinct: std::collections::BTreeSet<char> = lower.chars().collect();
    value.starts_with("[REDACTED:")
        || value.starts_with('$')
        || value.starts_with('<')
        || value.starts_with('{')
        || value.starts_with('%')
        || value.contains("${")
        || value.contains("{{")
        || distinct.len() <= 2
        || WORDS.iter().any(|w| lower.contains(w))
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

fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    (line, before[line_start..].chars().count() + 1)
}

/// Collects the redactions of one record.
struct Redactor {
    id: MemoryId,
    found: Vec<Redaction>,
}

impl Redactor {
    fn text(&mut self, field: &str, text: &mut String) {
        let (clean, findings) = redact(text);
        if findings.is_empty() {
            return;
        }
        *text = clean;
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
    let mut r = Redactor {
        id: m.id.clone(),
        found: Vec::new(),
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
    let mut r = Redactor {
        id: p.id.clone(),
        found: Vec::new(),
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
        assert_eq!(DETECTORS.len(), 12);
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
