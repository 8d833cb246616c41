//! Stage 5: fill a draft's fields from its fragment alone.
//!
//! The scope is the paths and modules named in the fragment's *own* text
//! (its sentences, its list lead-in and inline code), never every path in the
//! input: a bare file name resolves against the files the caller says were
//! touched, else becomes a `**/<name>` glob.

use std::collections::BTreeSet;
use std::sync::LazyLock;

use regex::Regex;

use super::Draft;
use super::chunk::Fragment;
use super::classify::{Classification, SEVERE_RISK};
use crate::model::{Importance, MemoryType, Risk};
use crate::review::text::find_phrases;

/// Longest title, in characters.
pub const MAX_TITLE: usize = 88;
/// Longest summary, in characters.
pub const MAX_SUMMARY: usize = 280;

/// File extensions that make a bare word a path.
const EXTENSIONS: &[&str] = &[
    "rs",
    "ts",
    "tsx",
    "js",
    "jsx",
    "mjs",
    "cjs",
    "py",
    "go",
    "rb",
    "java",
    "kt",
    "swift",
    "c",
    "h",
    "cc",
    "cpp",
    "hpp",
    "cs",
    "php",
    "scala",
    "sql",
    "sh",
    "bash",
    "zsh",
    "yaml",
    "yml",
    "json",
    "toml",
    "ini",
    "cfg",
    "conf",
    "env",
    "md",
    "mdx",
    "txt",
    "proto",
    "graphql",
    "tf",
    "hcl",
    "lock",
    "css",
    "scss",
    "html",
    "vue",
    "svelte",
    "xml",
    "gradle",
    "mk",
    "dockerfile",
    "lua",
    "ex",
    "exs",
    "erl",
    "dart",
    "zig",
    "kts",
    "mm",
    "jsonc",
    "json5",
    "csproj",
    "fsproj",
    "vbproj",
    "sln",
    "props",
    "targets",
    "resx",
    "razor",
    "cshtml",
    "fs",
    "vb",
    "hs",
    "clj",
    "cljs",
    "jl",
    "pyi",
    "pyx",
    "ipynb",
    "erb",
    "rake",
    "gemspec",
    "astro",
    "snap",
    "ungram",
    "mdc",
    "cmake",
    "bzl",
    "bazel",
    "nix",
    "gn",
    "gni",
    "patch",
    "plist",
    "xcconfig",
    "pbxproj",
    "storyboard",
    "xib",
    "arb",
    "csv",
    "tsv",
    "cu",
    "glsl",
    "wgsl",
    "thrift",
    "avsc",
    "fbs",
    "j2",
    "jinja",
    "tmpl",
];

/// Files known by their whole name, which no extension above marks: the
/// manifests and build files a rule names bare ("after any `go.mod`
/// change", "add a target to the Makefile").
const KNOWN_FILES: &[&str] = &[
    "go.mod",
    "go.sum",
    "go.work",
    "Makefile",
    "GNUmakefile",
    "Dockerfile",
    "Containerfile",
    "Gemfile",
    "Rakefile",
    "Podfile",
    "Brewfile",
    "Justfile",
    "justfile",
    "Jenkinsfile",
    "Vagrantfile",
    "Procfile",
    "Pipfile",
    "Earthfile",
    "Tiltfile",
    "Dangerfile",
];

/// Directory segments too generic to be tags.
const GENERIC_SEGMENTS: &[&str] = &[
    "src", "lib", "libs", "app", "apps", "pkg", "packages", "internal", "cmd", "test", "tests",
    "spec", "main", "index", "mod", "common", "shared", "utils", "util", "core", "crates", "**",
    "*", ".", "..", "a", "b",
];

/// Openings that carry no meaning in a title.
const FILLER: &[&str] = &[
    "we should ",
    "you should ",
    "please ",
    "note that ",
    "remember to ",
    "remember that ",
    "keep in mind that ",
    "important: ",
    "fyi ",
    "fyi, ",
    "watch out: ",
    "watch out, ",
    "watch out for ",
    "heads up: ",
    "careful: ",
    "beware: ",
    "beware that ",
    "note: ",
    "gotcha: ",
    "we decided to ",
    "we decided that ",
    "decided to ",
    "we chose to ",
    "we agreed to ",
    "we agreed that ",
    "todo: ",
    "root cause: ",
    "the root cause: ",
    "lesson: ",
    "learned: ",
    "todo ",
    "also, ",
    "also ",
    "so ",
    "and ",
    "btw ",
    "learned that ",
    "we learned that ",
    "it turns out that ",
    "turns out ",
];

/// Connectors a title is cut before: the reason belongs in the summary.
const CUT_BEFORE: &[&str] = &[
    " because ",
    " so that ",
    " to avoid ",
    " to prevent ",
    " otherwise ",
    " since ",
    " which means ",
    ", because ",
    ", so ",
    " so ",
    ", or ",
    " or else ",
    " like `",
    " such as ",
    " e.g. ",
    ", e.g.",
    " (",
    "; ",
    " — ",
    " -- ",
];

static PATH_TOKEN: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"[A-Za-z0-9_.@~*\-/]+").unwrap_or_else(|_| unreachable!("constant pattern"))
});

static MODULE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)`?\b([a-z][a-z0-9_-]{1,40})`?\s+(?:module|crate|package|service|component|subsystem)\b")
        .unwrap_or_else(|_| unreachable!("constant pattern"))
});

/// Builds the draft for one fragment.
pub fn complete(
    fragment: &Fragment,
    class: &Classification,
    touched: &[String],
    tree: Option<&[String]>,
) -> Draft {
    let text = fragment.text();
    let title = title(&fragment.sentences, class.kind);
    let summary = summary(&fragment.sentences);
    let mut detail = String::new();
    if let Some(context) = &fragment.context {
        detail.push_str(context);
        detail.push('\n');
    }
    if text.len() > summary.len() || fragment.context.is_some() {
        detail.push_str(&text);
        detail.push('\n');
    }
    for code in &fragment.code {
        if !detail.is_empty() {
            detail.push('\n');
        }
        detail.push_str(code);
        detail.push('\n');
    }
    let own_text = match &fragment.context {
        Some(c) => format!("{c} {text}"),
        None => text.clone(),
    };
    let paths = scope(&own_text, touched, tree);
    let modules = modules(&own_text);
    let tags = tags(&paths, &modules);
    let severe = !find_phrases(&text, SEVERE_RISK).is_empty();
    let risk = if severe {
        Risk::High
    } else if class.kind == MemoryType::Gotcha || !class.risk.is_empty() {
        Risk::Medium
    } else {
        Risk::Low
    };
    let importance = match class.kind {
        MemoryType::Gotcha | MemoryType::Decision if severe => Importance::High,
        MemoryType::Working => Importance::Low,
        _ => Importance::Medium,
    };
    Draft {
        kind: class.kind,
        title,
        summary,
        detail,
        paths,
        modules,
        tags,
        importance,
        risk,
    }
}

/// The fragment's first sentence, stripped of filler and cut before its
/// reason, at most [`MAX_TITLE`] characters at a word boundary.
pub fn title(sentences: &[String], kind: MemoryType) -> String {
    let Some(first) = sentences.first() else {
        return default_title(kind).to_owned();
    };
    let mut t = super::rules::without_list_marker(first).trim().to_owned();
    loop {
        let lower = t.to_lowercase();
        let Some(f) = FILLER.iter().find(|f| lower.starts_with(**f)) else {
            break;
        };
        t = t[f.len()..].trim_start().to_owned();
    }
    let lower = t.to_lowercase();
    if let Some(cut) = CUT_BEFORE
        .iter()
        .filter_map(|c| lower.find(c))
        .filter(|&i| i >= 16)
        .min()
    {
        t.truncate(cut);
    }
    let mut t = t.trim_end_matches(['.', ',', ':', ';', '!', ' ']).trim();
    // Still too long: end at the last clause boundary that fits.
    if t.chars().count() > MAX_TITLE {
        let head_end = t.char_indices().nth(MAX_TITLE).map_or(t.len(), |(i, _)| i);
        let head = &t[..head_end];
        if let Some(cut) = [", ", " and ", " but ", " which ", " when ", " while "]
            .iter()
            .filter_map(|c| head.rfind(c))
            .filter(|&i| i >= 24)
            .max()
        {
            t = t[..cut].trim_end_matches([',', ' ']);
        }
    }
    let t = cut_at_word(t, MAX_TITLE);
    let mut chars = t.chars();
    match chars.next() {
        Some(c) => c.to_uppercase().chain(chars).collect(),
        None => default_title(kind).to_owned(),
    }
}

fn default_title(kind: MemoryType) -> &'static str {
    match kind {
        MemoryType::Decision => "Untitled decision",
        MemoryType::Gotcha => "Untitled gotcha",
        MemoryType::Convention => "Untitled convention",
        MemoryType::Pattern => "Untitled pattern",
        MemoryType::Goal => "Untitled goal",
        MemoryType::Working => "Working note",
    }
}

/// The first sentences, up to [`MAX_SUMMARY`] characters.
pub fn summary(sentences: &[String]) -> String {
    let mut out = String::new();
    for s in sentences {
        if !out.is_empty() && out.len() + 1 + s.len() > MAX_SUMMARY {
            break;
        }
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(s);
    }
    if out.chars().count() > MAX_SUMMARY {
        let cut = cut_at_word(&out, MAX_SUMMARY - 1);
        return format!("{cut}…");
    }
    out
}

/// `text` cut to at most `max` characters, at a word boundary when one is near.
pub fn cut_at_word(text: &str, max: usize) -> &str {
    if text.chars().count() <= max {
        return text;
    }
    let end = text.char_indices().nth(max).map_or(text.len(), |(i, _)| i);
    let head = &text[..end];
    match head.rfind(' ') {
        Some(i) if i > max / 2 => head[..i].trim_end_matches([',', ';', ':']),
        _ => head,
    }
}

/// Paths named in `text`, as scope globs. Directories become `dir/**`; bare
/// file names resolve against `touched` or become `**/<name>`. URLs, absolute
/// paths and version numbers are not paths.
pub fn paths(text: &str, touched: &[String]) -> Vec<String> {
    let mut out = named_paths(text, touched);
    // A bare `**/name` is weak evidence; when the text also names real
    // paths, the bare names are examples, not scope.
    if out.iter().any(|p| !p.starts_with("**/")) {
        out.retain(|p| !p.starts_with("**/"));
    }
    out.into_iter().take(8).collect()
}

/// Every path and pattern `text` names, as globs (see [`paths`]), sorted.
pub fn named_paths(text: &str, touched: &[String]) -> BTreeSet<String> {
    let text = &without_emphasis(text);
    let mut out = BTreeSet::new();
    for m in PATH_TOKEN.find_iter(text) {
        // A word with neither a slash nor a dot names no path, but for a
        // file known by its name.
        if !m.as_str().contains(['/', '.']) && !KNOWN_FILES.contains(&m.as_str()) {
            continue;
        }
        let start = m.start();
        let end = m.end();
        // Part of a URL (`https://…`) or an email.
        if text[end..].starts_with("://") || text[..start].ends_with("://") {
            continue;
        }
        if text[..start].ends_with(['@', ':']) && !text[..start].ends_with(' ') {
            continue;
        }
        let raw = m.as_str().trim_end_matches(['.', ',', ';', ':', '-']);
        let raw = raw.strip_prefix("./").unwrap_or(raw);
        let raw = raw
            .strip_prefix("a/")
            .filter(|_| raw.len() > 2)
            .or_else(|| raw.strip_prefix("b/").filter(|_| raw.len() > 2))
            .unwrap_or(raw);
        if raw.is_empty() || raw.starts_with(['/', '~', '@', '-']) || raw.contains("..") {
            continue;
        }
        if raw.starts_with("http") || raw.contains("//") {
            continue;
        }
        let has_slash = raw.contains('/');
        let last = raw.rsplit('/').next().unwrap_or(raw);
        let ext = last
            .rsplit_once('.')
            .map(|(stem, e)| (stem, e.to_ascii_lowercase()));
        let has_ext = KNOWN_FILES.contains(&last)
            || ext
                .as_ref()
                .is_some_and(|(stem, e)| !stem.is_empty() && EXTENSIONS.contains(&e.as_str()));
        let is_dotfile = last.starts_with('.') && last.len() > 2 && !last[1..].contains('.');
        if raw
            .chars()
            .all(|c| c.is_ascii_digit() || c == '.' || c == '/')
        {
            continue; // versions, dates, ratios
        }
        if has_slash {
            // `and/or`, `read/write`, `Linting/Formatting`: two plain words
            // are not a path.
            let segments: Vec<&str> = raw.trim_end_matches('/').split('/').collect();
            let plain = |s: &&str| {
                let mut chars = s.chars();
                chars.next().is_some_and(|c| c.is_ascii_alphabetic())
                    && chars.all(|c| c.is_ascii_lowercase())
            };
            let plain_pair = segments.len() == 2
                && !has_ext
                && !raw.ends_with('/')
                && !raw.contains(['*', '_', '.'])
                && segments.iter().all(plain)
                && !touched.iter().any(|t| t.starts_with(raw));
            if plain_pair || segments.iter().any(|s| s.is_empty() && !raw.ends_with('/')) {
                continue;
            }
            if let Some(rest) = raw.strip_prefix("*/") {
                // `*/api/*.cs` in prose means an `api` directory anywhere.
                out.insert(format!("**/{rest}"));
            } else if has_ext || raw.contains('*') {
                out.insert(raw.to_owned());
            } else {
                out.insert(format!("{}/**", raw.trim_end_matches('/')));
            }
        } else if has_ext || is_dotfile {
            let hits: Vec<&String> = touched
                .iter()
                .filter(|t| t.rsplit('/').next() == Some(raw))
                .collect();
            if hits.is_empty() {
                out.insert(format!("**/{raw}"));
            } else {
                out.extend(hits.into_iter().cloned());
            }
        }
    }
    out
}

/// `text` without Markdown emphasis around words: `**Label:**`,
/// `__bold__` and `*em*` lose their markers, so a bold label is not read
/// as a glob. A marker counts as emphasis when it opens before a word
/// (not after a letter, digit, `/` or `*`) and closes on the same line
/// after one, before a space, punctuation that ends a phrase, or the end;
/// globs (`**/*.rs`, `*.cs`, `src/*Test.cs`) and names (`__init__.py`)
/// keep theirs.
fn without_emphasis(text: &str) -> std::borrow::Cow<'_, str> {
    let bytes = text.as_bytes();
    let word = |c: u8| c.is_ascii_alphanumeric() || c >= 0x80;
    // Marker runs to drop: where each starts, and its width.
    let mut drop: Vec<(usize, usize)> = Vec::new();
    let mut at = 0;
    while at < bytes.len() {
        let mark = bytes[at];
        let after_word =
            at > 0 && (word(bytes[at - 1]) || matches!(bytes[at - 1], b'/' | b'*' | b'_'));
        if !matches!(mark, b'*' | b'_') || after_word {
            at += 1;
            continue;
        }
        let width = if bytes.get(at + 1) == Some(&mark) {
            2
        } else {
            1
        };
        let open = at + width;
        if !bytes
            .get(open)
            .is_some_and(|&next| word(next) || next == b'`')
        {
            at = open;
            continue;
        }
        match closing(bytes, open, mark, width) {
            Some(close) => {
                drop.push((at, width));
                drop.push((close, width));
                at = close + width;
            }
            None => at = open,
        }
    }
    if drop.is_empty() {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut from = 0;
    for (start, width) in drop {
        out.push_str(&text[from..start]);
        from = start + width;
    }
    out.push_str(&text[from..]);
    std::borrow::Cow::Owned(out)
}

/// Where the emphasis opened before `from` closes: the next run of `mark`
/// on the line, if it is `width` long, follows a non-space and ends a
/// phrase (see [`without_emphasis`]).
fn closing(bytes: &[u8], from: usize, mark: u8, width: usize) -> Option<usize> {
    let at = (from + 1..bytes.len())
        .take_while(|&i| bytes[i] != b'\n')
        .find(|&i| bytes[i] == mark)?;
    let run = bytes[at..].iter().take_while(|&&c| c == mark).count();
    let ends = match bytes.get(at + width) {
        None => true,
        Some(b'.') => bytes
            .get(at + width + 1)
            .is_none_or(u8::is_ascii_whitespace),
        Some(&next) => {
            next.is_ascii_whitespace()
                || matches!(
                    next,
                    b',' | b';' | b':' | b'!' | b'?' | b')' | b']' | b'`' | b'"' | b'\''
                )
        }
    };
    (run == width && !matches!(bytes[at - 1], b' ' | b'/' | b'\t') && ends).then_some(at)
}

/// The scope a text names: [`paths`], each checked against the
/// repository's tracked files when `tree` holds them. A file path must be
/// tracked; a directory (`dir/**`) must hold a tracked file; a partial path (`lock/mod.rs`, `**/ledger.ts`) becomes the one
/// tracked file it ends, and is dropped when none or several do. Without a
/// tree only the shape is checked: method calls (`.unwrap()`), capitalised
/// word pairs (`I/O`) and other prose are not paths. A pattern written as
/// one (`*/api/*.cs`) is kept either way.
pub fn scope(text: &str, touched: &[String], tree: Option<&[String]>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for p in paths(text, touched) {
        let resolved = match tree {
            // A file the session touched counts even before it is tracked.
            Some(_) if touched.contains(&p) => Some(p.clone()),
            Some(files) => resolve_in_tree(&p, files),
            None => plausible(&p, text).then(|| p.clone()),
        };
        if let Some(r) = resolved
            && !out.contains(&r)
        {
            out.push(r);
        }
    }
    out
}

/// Whether a path found in prose has a path's shape (see [`scope`]).
fn plausible(path: &str, text: &str) -> bool {
    let name = path.trim_start_matches("**/");
    // `.unwrap()`, `.then(`: a method, not a dotfile.
    if path.starts_with("**/.")
        && text
            .match_indices(name)
            .any(|(i, _)| text[i + name.len()..].starts_with('('))
    {
        return false;
    }
    // `I/O`, `TCP/IP`, `CI/CD`: capitalised word pairs.
    let bare = path.trim_end_matches("/**");
    let segments: Vec<&str> = bare.split('/').collect();
    !(segments.len() == 2
        && segments
            .iter()
            .all(|s| !s.is_empty() && s.chars().all(|c| c.is_ascii_uppercase())))
}

/// A scope path resolved against the tracked files (see [`scope`]).
fn resolve_in_tree(path: &str, files: &[String]) -> Option<String> {
    if files.is_empty() {
        return None;
    }
    // A pattern the text wrote as one (`src/*.rs`, `*/api/*.cs` read as
    // `**/api/*.cs`) is a scope whatever matches it today.
    let rest = path.strip_prefix("**/").unwrap_or(path);
    if rest.contains('*')
        && (rest.len() == path.len() || rest.contains('/'))
        && !path.ends_with("/**")
    {
        return Some(path.to_owned());
    }
    if path.ends_with("/**") {
        let glob = crate::matching::Glob::new(path);
        if files.iter().any(|f| glob.matches(f)) {
            return Some(path.to_owned());
        }
        // A directory named from somewhere below the root: `lock/**`.
        if let Some(dir) = path.strip_suffix("/**")
            && !dir.contains('*')
        {
            let needle = format!("/{dir}/");
            let mut dirs: Vec<&str> = files
                .iter()
                .filter_map(|f| f.find(&needle).map(|i| &f[..i + needle.len() - 1]))
                .collect();
            dirs.sort_unstable();
            dirs.dedup();
            if let [one] = dirs.as_slice() {
                return Some(format!("{one}/**"));
            }
        }
        return None;
    }
    let name = path.trim_start_matches("**/");
    if files.iter().any(|f| f == name) {
        return Some(name.to_owned());
    }
    let suffix = format!("/{name}");
    let mut hits = files.iter().filter(|f| f.ends_with(&suffix));
    match (hits.next(), hits.next()) {
        (Some(one), None) => Some(one.clone()),
        _ => None,
    }
}

/// Modules named as "the `billing` module", "payments service".
pub fn modules(text: &str) -> Vec<String> {
    modules_named(text, false)
}

/// Modules a rule file names beyond doubt: in backticks ("the `billing`
/// crate") or before the word "module" ("the app module"). Prose of rule
/// files says "the slim package", "individual components", which name no
/// module of the repository.
pub fn declared_modules(text: &str) -> Vec<String> {
    modules_named(text, true)
}

/// See [`modules`] and [`declared_modules`].
fn modules_named(text: &str, strict: bool) -> Vec<String> {
    // Words that cannot name a module: "package.json or package-lock.json",
    // "for package authors", "every service".
    const NOT_NAMES: &[&str] = &[
        "the", "a", "an", "this", "that", "these", "those", "each", "every", "new", "one", "our",
        "same", "or", "and", "for", "to", "of", "in", "on", "with", "by", "from", "as", "at",
        "any", "all", "some", "no", "not", "its", "their", "your", "other", "another", "which",
        "whose", "own", "given", "single", "specific", "under", "over", "into", "onto", "via",
        "per",
    ];
    // Verbs before the noun: "change package.json", "includes crate
    // metadata".
    const VERBS: &[&str] = &[
        "change",
        "changes",
        "update",
        "updates",
        "include",
        "includes",
        "add",
        "adds",
        "use",
        "uses",
        "install",
        "installs",
        "publish",
        "publishes",
        "create",
        "creates",
        "build",
        "builds",
        "edit",
        "edits",
        "modify",
        "modifies",
        "remove",
        "removes",
        "import",
        "imports",
        "export",
        "exports",
        "run",
        "runs",
        "call",
        "calls",
        "is",
        "are",
        "be",
    ];
    let mut out = BTreeSet::new();
    for c in MODULE.captures_iter(text) {
        let name = c[1].to_lowercase();
        let quoted = c[0].starts_with('`');
        let verb_like =
            VERBS.contains(&name.as_str()) || name.ends_with("ed") || name.ends_with("ing");
        let declared = quoted || c[0].to_lowercase().ends_with("module");
        if !NOT_NAMES.contains(&name.as_str()) && (quoted || !verb_like) && (declared || !strict) {
            out.insert(name);
        }
    }
    out.into_iter().take(5).collect()
}

/// Tags from the scope: modules and the distinctive path segments.
pub fn tags(paths: &[String], modules: &[String]) -> Vec<String> {
    let mut out: Vec<String> = modules.to_vec();
    for p in paths {
        for seg in p.split('/') {
            let stem = seg.split('.').next().unwrap_or(seg).to_lowercase();
            if stem.len() >= 2
                && !GENERIC_SEGMENTS.contains(&stem.as_str())
                && !stem.contains('*')
                && stem
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
                && !out.contains(&stem)
            {
                out.push(stem);
            }
        }
    }
    out.truncate(5);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_come_from_the_text_only() {
        let touched = vec!["src/billing/refund.rs".to_owned(), "docs/api.md".to_owned()];
        let cases: &[(&str, &[&str])] = &[
            (
                "Refunds in `src/billing/` must be idempotent.",
                &["src/billing/**"],
            ),
            ("refund.rs retries twice.", &["src/billing/refund.rs"]),
            (
                "Edit config.yaml, not config.yml.",
                &["**/config.yaml", "**/config.yml"],
            ),
            (
                "See https://example.com/a/b.html and v1.2.3 in 2026/11.",
                &[],
            ),
            ("Do not touch /etc/passwd or ../secrets.env.", &[]),
            ("Use read/write locks and/or queues.", &[]),
            ("Diff: a/src/x.ts b/src/x.ts", &["src/x.ts"]),
            ("The .env file is never committed.", &["**/.env"]),
            (
                "Tests live under tests/fixtures/*.yaml.",
                &["tests/fixtures/*.yaml"],
            ),
            // Emphasis around words is not a glob.
            ("- **Linting/Formatting:** ESLint, Prettier", &[]),
            ("__Build/Release__ steps and *read/write* paths", &[]),
            (
                "**Note:** keep `src/**/*.rs` formatted; see **docs/guide.md**.",
                &["docs/guide.md", "src/**/*.rs"],
            ),
            (
                "**Note:** format **/*.cs and *.ts with *care*.",
                &["**/*.cs", "**/*.ts"],
            ),
            (
                "Run *Tests.cs files and __init__.py",
                &["**/*Tests.cs", "**/__init__.py"],
            ),
            (
                "Don't edit `*/api/*.cs`, they are generated.",
                &["**/api/*.cs"],
            ),
            // Build and resource files of .NET, Bazel, Xcode, snapshots.
            (
                "Edit eng/Testing.targets, Directory.Build.props and Strings.resx.",
                &["eng/Testing.targets"],
            ),
            (
                "Regenerate `*.snap` after BUILD.bazel changes",
                &["**/*.snap", "**/BUILD.bazel"],
            ),
            // Files known by their name, without an extension to tell.
            (
                "Run `make tidy` after any `go.mod` change; targets live in the Makefile.",
                &["**/Makefile", "**/go.mod"],
            ),
            ("Go modules are tidy; make targets build it.", &[]),
        ];
        for (text, want) in cases {
            assert_eq!(paths(text, &touched), *want, "{text}");
        }
        // Every name, also the bare ones beside a real path, for ranking.
        assert_eq!(
            named_paths(
                "Edit eng/Testing.targets, Directory.Build.props and Strings.resx.",
                &[]
            )
            .into_iter()
            .collect::<Vec<_>>(),
            [
                "**/Directory.Build.props",
                "**/Strings.resx",
                "eng/Testing.targets"
            ]
        );
    }

    #[test]
    fn titles_drop_filler_and_reasons() {
        let s = |t: &str| vec![t.to_owned()];
        assert_eq!(
            title(
                &s("We should always pin the Node version because CI images drift."),
                MemoryType::Convention
            ),
            "Always pin the Node version"
        );
        let long = "the importer reads every file into memory before validating any of them, which is slow on large trees and exhausts memory";
        let t = title(&s(long), MemoryType::Gotcha);
        assert!(t.chars().count() <= MAX_TITLE, "{t}");
        assert!(t.starts_with("The importer reads every file"), "{t}");
    }

    #[test]
    fn scopes_are_real_paths_of_the_tree() {
        let tree: Vec<String> = [
            "crates/uv-resolver/src/lock/mod.rs",
            "crates/uv/src/lock/mod.rs.orig",
            "src/payments/ledger.ts",
            "web/src/types/index.ts",
            "docs/a/README.md",
            "docs/b/README.md",
        ]
        .map(str::to_owned)
        .to_vec();
        // (text, scope with the tree, scope without one)
        let cases: &[(&str, &[&str], &[&str])] = &[
            ("Avoid `.unwrap()` in library code.", &[], &[]),
            ("I/O errors are retried once.", &[], &[]),
            (
                "The lockfile logic is in `lock/mod.rs`.",
                &["crates/uv-resolver/src/lock/mod.rs"],
                &["lock/mod.rs"],
            ),
            (
                "Ledger rows live in `ledger.ts`.",
                &["src/payments/ledger.ts"],
                &["**/ledger.ts"],
            ),
            ("See README.md for the rules.", &[], &["**/README.md"]),
            (
                "Shared types go in `web/src/types/`.",
                &["web/src/types/**"],
                &["web/src/types/**"],
            ),
            ("Gone: `src/old/thing.rs`.", &[], &["src/old/thing.rs"]),
            (
                "Files under `*/api/*.cs` are generated.",
                &["**/api/*.cs"],
                &["**/api/*.cs"],
            ),
        ];
        for (text, with_tree, without) in cases {
            assert_eq!(
                scope(text, &[], Some(&tree)),
                *with_tree,
                "with tree: {text}"
            );
            assert_eq!(scope(text, &[], None), *without, "without: {text}");
        }
        // A file the session touched counts before it is tracked.
        let touched = vec!["src/new.rs".to_owned()];
        assert_eq!(
            scope("Wrote `src/new.rs`.", &touched, Some(&tree)),
            ["src/new.rs"]
        );
    }

    #[test]
    fn modules_and_tags() {
        // Function words and verbs before the noun name nothing.
        for text in [
            "Never change package.json or package-lock.json unless asked.",
            "Docs for package authors live in docs/.",
            "The build includes crate metadata; a centralized package list.",
        ] {
            assert!(modules(text).is_empty(), "{text}: {:?}", modules(text));
        }
        assert_eq!(
            declared_modules("The app module, the `deno` crate and the slim package."),
            ["app", "deno"]
        );
        assert_eq!(
            modules("The `billing` module and the payments service."),
            ["billing", "payments"]
        );
        assert_eq!(
            tags(&["src/billing/refund.rs".into()], &["billing".into()]),
            ["billing", "refund"]
        );
    }
}
