//! Matching rules shared by inject, search and routing: path globs with real
//! segment semantics and word-boundary task tokens.
//!
//! * Globs are anchored at the repository root and matched segment by segment:
//!   `*` and `?` stay inside one segment, `**` spans any number of segments
//!   (including none), `[abc]` is not special. `src/*.ts` matches `src/a.ts`
//!   but not `src/a/b.ts`; `src/**` matches both and `src` itself.
//! * Words match whole and after light normalisation (lowercase, simple
//!   plurals and suffixes, see [`crate::review::text::stem`]): `refunds`
//!   matches `refund`, `api` never matches `rapid`.

use std::collections::BTreeSet;

use crate::review::text;

/// A compiled path glob.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Glob {
    segments: Vec<String>,
}

impl Glob {
    /// Compiles a pattern (`services/payments/**`, `web/src/*.ts`). Leading
    /// `./` and `/` are ignored. A pattern without wildcards is a path, as
    /// in a git pathspec: the file itself, or the directory and everything
    /// under it (`services/payments` and `services/payments/` match
    /// `services/payments/ledger.rs`; nothing lies under a file).
    pub fn new(pattern: &str) -> Glob {
        Glob {
            segments: pattern_segments(pattern)
                .into_iter()
                .map(str::to_owned)
                .collect(),
        }
    }

    /// Whether `path` (relative, `/`-separated) matches.
    pub fn matches(&self, path: &str) -> bool {
        match_segments(&self.segments, &path_segments(path))
    }
}

/// The segments of a relative, `/`-separated path as globs match them:
/// without a leading `./` and empty segments. Split once, a path is matched
/// against many patterns with [`matches_segments`].
pub fn path_segments(path: &str) -> Vec<&str> {
    let path = path.strip_prefix("./").unwrap_or(path);
    path.split('/').filter(|s| !s.is_empty()).collect()
}

/// Whether `pattern` matches a path split by [`path_segments`]: what
/// `Glob::new(pattern).matches(path)` tells, without copying the pattern's
/// segments into a [`Glob`].
pub fn matches_segments(pattern: &str, path: &[&str]) -> bool {
    match_segments(&pattern_segments(pattern), path)
}

/// The segments a pattern matches with (see [`Glob::new`]): leading `./`
/// and `/` ignored, a pattern without wildcards or ending in `/` followed
/// by `**`, and `**/**` written `**`.
fn pattern_segments(pattern: &str) -> Vec<&str> {
    let p = pattern.trim();
    let p = p.strip_prefix("./").unwrap_or(p);
    let p = p.trim_start_matches('/');
    let dir = p.ends_with('/') || !is_pattern(p);
    let mut segments: Vec<&str> = Vec::with_capacity(8);
    for seg in p.split('/').filter(|s| !s.is_empty() && *s != ".") {
        if !(seg == "**" && segments.last() == Some(&"**")) {
            segments.push(seg);
        }
    }
    if dir && segments.last() != Some(&"**") {
        segments.push("**");
    }
    segments
}

/// Whether `pattern` may match the relative `path` as far as their first
/// segments tell: a pattern whose first segment is literal (`src` of
/// `src/**`) matches only paths that start with that segment. It allocates
/// nothing, so a large store rules most scopes out before building a
/// [`Glob`].
pub fn may_match(pattern: &str, path: &str) -> bool {
    let p = pattern.trim();
    let p = p.strip_prefix("./").unwrap_or(p);
    let Some(first) = p.split('/').find(|s| !s.is_empty() && *s != ".") else {
        return true;
    };
    if is_pattern(first) {
        return true;
    }
    let path = path.strip_prefix("./").unwrap_or(path);
    path.split('/').find(|s| !s.is_empty()) == Some(first)
}

/// Whether a pattern or one of its segments holds a wildcard (`*`, `?`),
/// the only characters a [`Glob`] treats specially.
pub fn is_pattern(s: &str) -> bool {
    s.contains(['*', '?'])
}

/// The literal leading segments of a pattern, up to its first wildcard:
/// `crates/codec` of `crates/codec/**`, the whole of a plain path.
pub fn literal_segments(pattern: &str) -> Vec<&str> {
    pattern
        .split('/')
        .take_while(|seg| !is_pattern(seg))
        .collect()
}

fn match_segments<S: AsRef<str>>(pattern: &[S], path: &[&str]) -> bool {
    // Iterative matching with backtracking over the last `**`, as for `*` in
    // a single string: linear in practice, never exponential.
    let (mut p, mut s) = (0usize, 0usize);
    let mut star: Option<(usize, usize)> = None;
    while s < path.len() {
        if p < pattern.len() && pattern[p].as_ref() == "**" {
            star = Some((p, s));
            p += 1;
        } else if p < pattern.len() && segment_matches(pattern[p].as_ref(), path[s]) {
            p += 1;
            s += 1;
        } else if let Some((sp, ss)) = star {
            p = sp + 1;
            s = ss + 1;
            star = Some((sp, ss + 1));
        } else {
            return false;
        }
    }
    pattern[p..].iter().all(|x| x.as_ref() == "**")
}

/// `*` (any run of characters) and `?` (one character) within one segment.
fn segment_matches(pattern: &str, segment: &str) -> bool {
    if !is_pattern(pattern) {
        return pattern == segment;
    }
    let p: Vec<char> = pattern.chars().collect();
    let s: Vec<char> = segment.chars().collect();
    let (mut i, mut j) = (0usize, 0usize);
    let mut star: Option<(usize, usize)> = None;
    while j < s.len() {
        if i < p.len() && (p[i] == '?' || p[i] == s[j]) {
            i += 1;
            j += 1;
        } else if i < p.len() && p[i] == '*' {
            star = Some((i, j));
            i += 1;
        } else if let Some((si, sj)) = star {
            i = si + 1;
            j = sj + 1;
            star = Some((si, sj + 1));
        } else {
            return false;
        }
    }
    p[i..].iter().all(|&c| c == '*')
}

/// A path as scopes see it: relative to the repository root, `/`-separated,
/// without `./`, `..` or repeated separators. `path` may be absolute
/// (`/home/me/repo/src/x.rs`, `C:\\repo\\src\\x.rs`) or relative to
/// `cwd`; `root` and `cwd` are absolute (`/`-separated after conversion).
/// `None` when the path is outside the root.
pub fn repo_relative(path: &str, root: &str, cwd: &str) -> Option<String> {
    fn absolute(p: &str) -> bool {
        p.starts_with('/') || (p.len() >= 3 && p.as_bytes()[1] == b':' && p.as_bytes()[2] == b'/')
    }
    let slashes = |p: &str| p.replace('\\', "/");
    let (path, root, cwd) = (slashes(path.trim()), slashes(root), slashes(cwd));
    let joined = if absolute(&path) {
        path
    } else {
        format!("{}/{path}", cwd.trim_end_matches('/'))
    };
    let mut parts: Vec<&str> = Vec::new();
    for seg in joined.split('/') {
        match seg {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            s => parts.push(s),
        }
    }
    let root_parts: Vec<&str> = root
        .split('/')
        .filter(|s| !s.is_empty() && *s != ".")
        .collect();
    // A drive letter compares without case: `C:` and `c:` are one drive.
    let same = |a: &str, b: &str| {
        a == b || (a.len() == 2 && a.ends_with(':') && a.eq_ignore_ascii_case(b))
    };
    if parts.len() < root_parts.len() || !root_parts.iter().zip(&parts).all(|(r, p)| same(r, p)) {
        return None;
    }
    let rel = parts[root_parts.len()..].join("/");
    (!rel.is_empty()).then_some(rel)
}

/// Whether any of `globs` matches any of `paths`.
pub fn any_match(globs: &[Glob], paths: &[String]) -> bool {
    globs.iter().any(|g| paths.iter().any(|p| g.matches(p)))
}

/// The normalised topic tokens of a text (whole words, stemmed, no stopwords).
pub fn tokens(text: &str) -> BTreeSet<String> {
    text::tokens(text)
}

/// Whether the phrase occurs in `text` as whole words.
pub fn has_phrase(text: &str, phrase: &str) -> bool {
    !text::find_phrases(text, &[phrase]).is_empty()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn globs_respect_segments() {
        let cases: &[(&str, &str, bool)] = &[
            ("src/*.ts", "src/a.ts", true),
            ("src/*.ts", "src/a/b.ts", false),
            ("src/**", "src/a/b.ts", true),
            ("src/**", "src", true),
            ("src/**", "srcx/a.ts", false),
            ("src/**/*.ts", "src/a.ts", true),
            ("src/**/*.ts", "src/a/b/c.ts", true),
            ("src/**/*.ts", "src/a/b/c.rs", false),
            ("**/ledger.ts", "services/payments/ledger.ts", true),
            ("**/ledger.ts", "ledger.ts", true),
            ("services/payments/", "services/payments/ledger/a.rs", true),
            // A path without wildcards is also the directory of that name.
            ("services/payments", "services/payments/ledger/a.rs", true),
            ("services/payments", "services/payments", true),
            ("services/payments", "services/payments-v2/a.rs", false),
            ("src", "srcx/a.ts", false),
            ("web/src/rapid/**", "web/src/api/client.ts", false),
            ("docs/*.md", "docs/a.md", true),
            ("docs/*.md", "docs/x/a.md", false),
            ("*.md", "README.md", true),
            ("*.md", "docs/README.md", false),
            ("a/?.rs", "a/b.rs", true),
            ("a/?.rs", "a/bc.rs", false),
            ("src/payments/ledger.ts", "src/payments/ledger.ts", true),
            ("src/payments/ledger.ts", "src/payments/ledger.tsx", false),
            ("**", "anything/at/all", true),
            ("a/**/b/**/c", "a/x/b/y/z/c", true),
            ("a/**/b/**/c", "a/x/y/z/c", false),
        ];
        for (glob, path, want) in cases {
            assert_eq!(Glob::new(glob).matches(path), *want, "{glob} ~ {path}");
            assert_eq!(
                matches_segments(glob, &path_segments(path)),
                *want,
                "{glob} ~ {path} (split once)"
            );
        }
        // Written loosely, a pattern means what its clean form means.
        for (loose, path) in [
            ("./src/**/**/x.rs", "src/a/x.rs"),
            ("/services//payments/", "services/payments/a.rs"),
            (" docs/*.md ", "docs/a.md"),
        ] {
            assert!(Glob::new(loose).matches(path), "{loose}");
            assert!(matches_segments(loose, &path_segments(path)), "{loose}");
        }
    }

    #[test]
    fn first_segments_rule_out_only_what_globs_never_match() {
        let cases = [
            ("src/**", "src/a.rs", true),
            ("src/**", "lib/a.rs", false),
            ("./src/payments", "src/payments/ledger.ts", true),
            ("/src/payments/", "lib/payments/ledger.ts", false),
            ("src", "srcx/a.rs", false),
            ("**/a.rs", "lib/a.rs", true),
            ("*/api/*.cs", "svc/api/a.cs", true),
            ("s?c/**", "src/a.rs", true),
            ("", "a.rs", true),
        ];
        for (pattern, path, may) in cases {
            assert_eq!(may_match(pattern, path), may, "{pattern} / {path}");
            if !may {
                assert!(!Glob::new(pattern).matches(path), "{pattern} / {path}");
            }
        }
    }

    #[test]
    fn paths_become_repo_relative_from_anywhere() {
        let cases: &[(&str, &str, Option<&str>)] = &[
            ("src/x.rs", "/r", Some("src/x.rs")),
            ("./src/x.rs", "/r", Some("src/x.rs")),
            ("x.rs", "/r/src", Some("src/x.rs")),
            ("../lib/y.rs", "/r/src", Some("lib/y.rs")),
            ("/r/src/x.rs", "/elsewhere", Some("src/x.rs")),
            ("/r//src/./x.rs", "/r", Some("src/x.rs")),
            ("src\\win\\x.rs", "/r", Some("src/win/x.rs")),
            ("/other/x.rs", "/r", None),
            ("../../x.rs", "/r/src", None),
            ("/r", "/r", None),
        ];
        for (path, cwd, want) in cases {
            assert_eq!(
                repo_relative(path, "/r", cwd).as_deref(),
                *want,
                "{path} from {cwd}"
            );
        }
        assert_eq!(
            repo_relative("c:\\Repo\\src\\x.rs", "C:/Repo", "C:/Repo").as_deref(),
            Some("src/x.rs")
        );
    }

    #[test]
    fn words_match_whole_after_normalisation() {
        assert!(tokens("Refunds are slow").contains("refund"));
        assert!(!tokens("src/rapid.ts").contains("api"));
        assert!(has_phrase(
            "fix duplicate refund ledger writes",
            "ledger write"
        ));
        assert!(!has_phrase("the refundable flag", "refund"));
    }
}
