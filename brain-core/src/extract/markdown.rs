//! Rule files split into sections and items, for `brain import`.
//!
//! Agent rule files (`AGENTS.md`, `CLAUDE.md`, `CONVENTIONS.md`,
//! `.github/copilot-instructions.md`, `.cursorrules`, `.windsurfrules`,
//! `.clinerules`, `.cursor/rules/*.mdc`) become one [`Section`] per heading,
//! and each section is cut into [`Item`]s; a later stage turns sections and
//! items into candidate memories.
//! This module is a pure parser: text in, structure out.
//!
//! Choices, where Markdown leaves room:
//!
//! - **Headings.** ATX headings (`#` .. `######`, up to 3 spaces of indent) and
//!   setext headings (a paragraph underlined with `===` or `---`) start
//!   sections. A section's [`Section::headings`] is the path of enclosing
//!   headings. A heading whose section has no body (`## Conventions` directly
//!   followed by `### Errors`) is **not returned**; it appears only in the
//!   paths of the sections under it. Text before the first heading is a
//!   section with empty `headings`.
//! - **Code fences.** ```` ``` ```` and `~~~` fences of any length ≥ 3, with
//!   info strings, are recognised at *any* indentation (so a fence nested in a
//!   list item counts); the closing fence uses the same character, is at least
//!   as long and carries nothing else. Lines inside a fence are never headings,
//!   comments or list items, and a fence is never split across sections or
//!   items. A fence still open at the end of the file is treated as closed
//!   there (as `CommonMark` renders it) and its opening line is reported in
//!   [`RuleFile::unclosed_fence`] so the caller can warn. An HTML block of
//!   code on lines of its own, closed on a later line (`<code-snippet
//!   lang="php">` … `</code-snippet>`, `<pre>` … `</pre>`), is a fence too:
//!   its tags read as `` ```php `` and `` ``` ``.
//! - **Items.** [`Section::items`] are the section's top-level blocks, in
//!   order: each top-level bullet or numbered item (with its continuation
//!   lines, nested lists and nested code, dedented to the item's content) and
//!   each paragraph outside a list. A fenced block that is not inside a list
//!   item joins the item before it (the command that the sentence above it
//!   introduces); it starts an item only when nothing precedes it, and text
//!   right after its closing fence, with no blank line, stays in it. Thematic
//!   breaks (`---`, `***`) separate items and are trimmed from the edges of
//!   bodies.
//! - **HTML comments** (`<!-- -->`, also across lines) are dropped outside
//!   fences and inline code; a line that held only a comment disappears. A
//!   `<!--` never closed in the rest of the file is kept as text, so nothing is
//!   dropped silently.
//! - **Front matter.** A `---` block on the first line is read with a small
//!   line-based reader for `description`, `globs` (also Copilot's `applyTo`
//!   and Claude's `paths`; a comma-separated string, a `[..]` list or a `- `
//!   list; commas inside `{..}` do not split) and `alwaysApply`. Other keys are
//!   ignored. In `.mdc` files an unterminated block is an error; in Markdown it
//!   is not front matter at all; `.cursorrules`, `.windsurfrules` and
//!   `.clinerules` files have none.
//! - **Line ends.** CRLF and LF both work; bodies and items use `\n`. A leading
//!   byte-order mark is ignored. Line numbers are 1-based lines of the file.

use serde::Serialize;

/// How a rule file is written, chosen from its file name by [`format_for`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum RuleFormat {
    /// Markdown (`AGENTS.md`, `CLAUDE.md`, `copilot-instructions.md`, `*.md`).
    Markdown,
    /// A plain `.cursorrules` file (or Windsurf's `.windsurfrules`, Cline's
    /// single-file `.clinerules`): Markdown or plain text, no front matter.
    CursorRules,
    /// A Cursor rule (`*.mdc`): optional front matter, then Markdown.
    CursorMdc,
}

/// A parsed rule file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RuleFile {
    /// The format it was parsed as.
    pub format: RuleFormat,
    /// Globs from the front matter (`globs`, `applyTo`, `paths`), in order.
    pub front_matter_globs: Vec<String>,
    /// `description` from the front matter, when present and not empty.
    pub description: Option<String>,
    /// `alwaysApply` from the front matter, when present.
    pub always_apply: Option<bool>,
    /// Sections with a body, in file order.
    pub sections: Vec<Section>,
    /// 1-based line of a code fence that is never closed; it was treated as
    /// closed at the end of the file.
    pub unclosed_fence: Option<usize>,
}

/// The text under one heading, up to the next heading of any level.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Section {
    /// Heading path, outermost first (`["Conventions", "Database"]`); empty
    /// for text before the first heading.
    pub headings: Vec<String>,
    /// The Markdown body without the heading line, HTML comments dropped,
    /// blank lines and thematic breaks trimmed from both ends, code fences
    /// intact, lines joined with `\n`.
    pub body: String,
    /// 1-based line of the heading (of the first body line for text before
    /// any heading; of the underlined text for a setext heading).
    pub line: usize,
    /// The section's top-level blocks: list items and paragraphs.
    pub items: Vec<Item>,
}

/// One top-level list item or paragraph of a section.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Item {
    /// The text, without the list marker, continuation lines dedented to the
    /// item's content column, nested code fences intact, trimmed.
    pub text: String,
    /// 1-based line where the item starts.
    pub line: usize,
    /// What kind of block it is.
    pub kind: ItemKind,
}

/// The kind of a top-level block.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ItemKind {
    /// A `-`, `*` or `+` list item.
    Bullet,
    /// A numbered list item.
    Numbered,
    /// A paragraph.
    Paragraph,
    /// A table (every line starts with `|`).
    Table,
    /// A fenced code block with nothing before it.
    Code,
}

/// A rule file that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ParseError {
    /// An `.mdc` file opens front matter with `---` and never closes it.
    #[error("line {line}: front matter is never closed with `---`")]
    UnterminatedFrontMatter {
        /// 1-based line of the opening `---`.
        line: usize,
    },
    /// A front matter value that the rule file's reader would reject.
    #[error("line {line}: front matter: {message}")]
    FrontMatter {
        /// 1-based line of the key.
        line: usize,
        /// What is wrong.
        message: String,
    },
}

impl ParseError {
    /// The 1-based line the error is about.
    pub fn line(&self) -> usize {
        match self {
            Self::UnterminatedFrontMatter { line } | Self::FrontMatter { line, .. } => *line,
        }
    }
}

/// The format of a rule file, from its file name (any directories before it
/// are ignored, case does not matter): `.cursorrules`, `.windsurfrules` and
/// `.clinerules` → `CursorRules`, `*.mdc` → `CursorMdc`, `*.md` and
/// `*.markdown` (`AGENTS.md`, `CLAUDE.md`, `CONVENTIONS.md`,
/// `copilot-instructions.md`, ..) → `Markdown`; anything else → `None`.
pub fn format_for(path: &str) -> Option<RuleFormat> {
    let name = path.rsplit(['/', '\\']).next().unwrap_or(path);
    let name = name.to_ascii_lowercase();
    if matches!(
        name.as_str(),
        ".cursorrules" | ".windsurfrules" | ".clinerules"
    ) {
        return Some(RuleFormat::CursorRules);
    }
    match name.rsplit_once('.') {
        Some((stem, "mdc")) if !stem.is_empty() => Some(RuleFormat::CursorMdc),
        Some((stem, "md" | "markdown")) if !stem.is_empty() => Some(RuleFormat::Markdown),
        _ => None,
    }
}

/// Splits a rule file into front matter, sections and items (see the module
/// documentation for the rules). Fails only on `.mdc` front matter: never
/// closed, or an `alwaysApply` that is not a boolean, or a `[` list of
/// globs that is never closed.
pub fn parse(text: &str, format: RuleFormat) -> Result<RuleFile, ParseError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let raw: Vec<&str> = text
        .lines()
        .map(|l| l.strip_suffix('\r').unwrap_or(l))
        .collect();
    let (meta, start) = match format {
        RuleFormat::CursorRules => (FrontMatter::default(), 0),
        RuleFormat::CursorMdc => front_matter(&raw, true)?,
        RuleFormat::Markdown => front_matter(&raw, false)?,
    };
    let (lines, unclosed_fence) = clean_lines(&raw, start);
    Ok(RuleFile {
        format,
        front_matter_globs: meta.globs,
        description: meta.description,
        always_apply: meta.always_apply,
        sections: sectionize(lines),
        unclosed_fence,
    })
}

/// Files a rule file imports with Claude Code's `@path` syntax (`@AGENTS.md`,
/// `see @docs/testing.md`), in order, outside code spans and fenced blocks;
/// and the text with the lines that hold nothing but imports removed (they
/// are not rules). Paths are as written: relative to the importing file, or
/// starting with `/` or `~` (which a caller may refuse). An email address
/// (`a@b.c`) and a scoped package name in code are not imports.
pub fn includes(text: &str) -> (Vec<String>, String) {
    let mut found: Vec<String> = Vec::new();
    let mut kept: Vec<&str> = Vec::new();
    let mut fence: Option<Fence> = None;
    for line in text.lines() {
        if let Some(open) = &fence {
            if fence_closes(line, open) {
                fence = None;
            }
            kept.push(line);
            continue;
        }
        if let Some(open) = fence_open(line) {
            fence = Some(open);
            kept.push(line);
            continue;
        }
        let mut here: Vec<String> = Vec::new();
        let mut other = false;
        for (i, part) in line.split('`').enumerate() {
            if i % 2 == 1 {
                other |= !part.trim().is_empty();
                continue;
            }
            for word in part.split_whitespace() {
                let path = word
                    .strip_prefix('@')
                    .map(|p| p.trim_end_matches(['.', ',', ';', ':', ')', '!', '?']));
                match path {
                    Some(p)
                        if !p.is_empty()
                            && !p.contains('@')
                            && (p.contains('.') || p.contains('/')) =>
                    {
                        here.push(p.to_owned());
                    }
                    _ => {
                        let w = word.trim_matches(|c: char| !c.is_alphanumeric());
                        // A list marker, bullet or number ("1.", "2)"), is
                        // no content of its own.
                        let numbered = word.strip_suffix(['.', ')']).is_some_and(|n| {
                            !n.is_empty() && n.chars().all(|c| c.is_ascii_digit())
                        });
                        other |= !w.is_empty() && !matches!(word, "-" | "*" | "+") && !numbered;
                    }
                }
            }
        }
        for p in &here {
            if !found.contains(p) {
                found.push(p.clone());
            }
        }
        if here.is_empty() || other {
            kept.push(line);
        }
    }
    let mut out = kept.join("\n");
    if text.ends_with('\n') {
        out.push('\n');
    }
    (found, out)
}

// ---------------------------------------------------------------------------
// Front matter

#[derive(Default)]
struct FrontMatter {
    globs: Vec<String>,
    description: Option<String>,
    always_apply: Option<bool>,
}

/// Reads the front matter at the top of `raw`, returning it and the index of
/// the first line after it.
fn front_matter(raw: &[&str], strict: bool) -> Result<(FrontMatter, usize), ParseError> {
    if raw.first().is_none_or(|l| l.trim_end() != "---") {
        return Ok((FrontMatter::default(), 0));
    }
    let close = raw
        .iter()
        .skip(1)
        .position(|l| matches!(l.trim_end(), "---" | "..."))
        .map(|p| p + 1);
    match close {
        Some(close) => Ok((read_front_matter(&raw[1..close], 2)?, close + 1)),
        None if strict => Err(ParseError::UnterminatedFrontMatter { line: 1 }),
        None => Ok((FrontMatter::default(), 0)),
    }
}

/// The minimal YAML reader: top-level `key: value` lines, each followed by
/// its indented (or `- `) continuation lines.
fn read_front_matter(lines: &[&str], first_no: usize) -> Result<FrontMatter, ParseError> {
    let mut meta = FrontMatter::default();
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        let no = first_no + i;
        i += 1;
        let trimmed = line.trim();
        if trimmed.is_empty()
            || trimmed.starts_with('#')
            || line.starts_with([' ', '\t'])
            || trimmed.starts_with('-')
        {
            continue;
        }
        let Some((key, value)) = line.split_once(':') else {
            continue;
        };
        let mut cont = Vec::new();
        // A `[` list runs until its `]`, however its lines are indented
        // (Cursor writes the closing `]` of a multi-line `globs` list at
        // the margin).
        let mut open = flow_depth(strip_comment(value.trim()), 0);
        while let Some(next) = lines.get(i) {
            let t = next.trim_start();
            if open > 0 {
                open = flow_depth(next, open);
                cont.push(*next);
                i += 1;
            } else if next.trim().is_empty()
                || next.starts_with([' ', '\t'])
                || t.starts_with("- ")
                || t == "-"
            {
                cont.push(*next);
                i += 1;
            } else {
                break;
            }
        }
        let value = strip_comment(value.trim());
        match unquote(key.trim()).as_str() {
            "description" => {
                let text = scalar(value, &cont);
                meta.description = (!text.is_empty()).then_some(text);
            }
            "globs" | "applyTo" | "paths" => meta.globs.extend(glob_list(value, &cont, no)?),
            "alwaysApply" => {
                meta.always_apply = match scalar(value, &cont).to_ascii_lowercase().as_str() {
                    "" => None,
                    "true" => Some(true),
                    "false" => Some(false),
                    other => {
                        return Err(ParseError::FrontMatter {
                            line: no,
                            message: format!(
                                "`alwaysApply` must be `true` or `false`, not `{other}`"
                            ),
                        });
                    }
                };
            }
            _ => {}
        }
    }
    Ok(meta)
}

/// The depth of `[` lists still open after `line`, from `depth` before it
/// (brackets inside quotes do not count).
fn flow_depth(line: &str, mut depth: usize) -> usize {
    let mut quote = None;
    for c in line.chars() {
        match (quote, c) {
            (Some(q), _) if c == q => quote = None,
            (None, '"' | '\'') => quote = Some(c),
            (None, '[') => depth += 1,
            (None, ']') => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    depth
}

/// A string value: quoted, plain (possibly continued on indented lines) or a
/// `|` / `>` block scalar.
fn scalar(value: &str, cont: &[&str]) -> String {
    let rest = cont.iter().map(|l| l.trim()).filter(|l| !l.is_empty());
    if value.starts_with(['|', '>'])
        && value[1..]
            .chars()
            .all(|c| matches!(c, '+' | '-' | '0'..='9'))
    {
        let sep = if value.starts_with('|') { "\n" } else { " " };
        return rest.collect::<Vec<_>>().join(sep);
    }
    if value.starts_with(['"', '\'']) {
        return unquote(value);
    }
    let mut text = value.to_owned();
    for line in rest {
        if !text.is_empty() {
            text.push(' ');
        }
        text.push_str(line);
    }
    text
}

/// Globs: `a, b` (one string), `[a, b]`, or a block list of `- a` lines.
fn glob_list(value: &str, cont: &[&str], no: usize) -> Result<Vec<String>, ParseError> {
    if value.starts_with('[') {
        let mut flow = value.to_owned();
        for line in cont {
            flow.push(' ');
            flow.push_str(line.trim());
        }
        let flow = strip_comment(flow.trim());
        let Some(inner) = flow.strip_prefix('[').and_then(|f| f.strip_suffix(']')) else {
            return Err(ParseError::FrontMatter {
                line: no,
                message: "a `[` list of globs is never closed with `]`".to_owned(),
            });
        };
        return Ok(split_globs(inner));
    }
    if value.is_empty() && cont.iter().any(|l| l.trim_start().starts_with('-')) {
        return Ok(cont
            .iter()
            .filter_map(|l| l.trim_start().strip_prefix('-'))
            .map(|item| unquote(strip_comment(item.trim())))
            .filter(|g| !g.is_empty())
            .collect());
    }
    Ok(split_globs(&scalar(value, cont)))
}

/// Splits on commas outside quotes, `{..}` and `[..]`; unquotes each part.
fn split_globs(text: &str) -> Vec<String> {
    let mut parts = Vec::new();
    let mut depth = 0usize;
    let mut quote = None;
    let mut start = 0;
    for (i, c) in text.char_indices() {
        match (quote, c) {
            (Some(q), _) if c == q => quote = None,
            (None, '"' | '\'') => quote = Some(c),
            (None, '{' | '[') => depth += 1,
            (None, '}' | ']') => depth = depth.saturating_sub(1),
            (None, ',') if depth == 0 => {
                parts.push(&text[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&text[start..]);
    parts
        .into_iter()
        .map(|p| unquote(p.trim()))
        .filter(|p| !p.is_empty())
        .collect()
}

/// Drops a trailing ` # comment` (outside quotes).
fn strip_comment(value: &str) -> &str {
    if let Some(q) = value.chars().next().filter(|c| matches!(c, '"' | '\'')) {
        return match value[1..].find(q) {
            Some(end) => &value[..end + 2],
            None => value,
        };
    }
    match value.find(" #").or_else(|| value.find("\t#")) {
        Some(p) => value[..p].trim_end(),
        None => value,
    }
}

/// Removes matching outer quotes: `"a \" b"` → `a " b`, `'it''s'` → `it's`.
fn unquote(value: &str) -> String {
    if value.len() >= 2 {
        if let Some(inner) = value.strip_prefix('"').and_then(|v| v.strip_suffix('"')) {
            return inner.replace("\\\"", "\"").replace("\\\\", "\\");
        }
        if let Some(inner) = value.strip_prefix('\'').and_then(|v| v.strip_suffix('\'')) {
            return inner.replace("''", "'");
        }
    }
    value.to_owned()
}

// ---------------------------------------------------------------------------
// Lines: fences marked, comments dropped

/// A line of the body, after comment removal.
#[derive(Debug)]
struct Line {
    /// 1-based line number in the file.
    no: usize,
    text: String,
    /// Part of a fenced code block (opening and closing fence included).
    fence: bool,
}

struct Fence {
    ch: u8,
    len: usize,
    /// The closing tag of an HTML code block ([`tag_block_open`]).
    tag: Option<&'static str>,
}

/// HTML blocks of code: the opening tag's name and its closing tag.
const CODE_TAGS: &[(&str, &str)] = &[("<code-snippet", "</code-snippet>"), ("<pre", "</pre>")];

/// An HTML block of code on lines of its own (`<code-snippet name="…"
/// lang="php">` … `</code-snippet>`, `<pre>` … `</pre>`), closed on a later
/// line of `rest`: it is read as a fenced block, its tags as fences
/// (`` ```php ``).
fn tag_block_open(line: &str, rest: &[&str]) -> Option<(Fence, String)> {
    let t = line.trim_start_matches([' ', '\t']);
    let &(open, close) = CODE_TAGS.iter().find(|(open, _)| {
        t.strip_prefix(open)
            .is_some_and(|r| r.starts_with(['>', ' ']))
    })?;
    let end = t.find('>')?;
    if !t[end + 1..].trim().is_empty() || !rest.iter().any(|l| closes_tag(l, close)) {
        return None;
    }
    let lang = t[open.len()..end]
        .split_once("lang=\"")
        .and_then(|(_, r)| r.split_once('"'))
        .map_or("", |(lang, _)| lang);
    let indent = &line[..line.len() - t.len()];
    Some((
        Fence {
            ch: b'`',
            len: 3,
            tag: Some(close),
        },
        format!("{indent}```{lang}"),
    ))
}

/// A line that is only the closing tag `close`.
fn closes_tag(line: &str, close: &str) -> bool {
    line.trim() == close
}

/// An opening code fence: ≥ 3 backticks or tildes; a backtick fence's info
/// string has no backtick.
fn fence_open(line: &str) -> Option<Fence> {
    let t = line.trim_start_matches([' ', '\t']).as_bytes();
    let ch = *t.first().filter(|c| matches!(c, b'`' | b'~'))?;
    let len = t.iter().take_while(|&&c| c == ch).count();
    (len >= 3 && !(ch == b'`' && t[len..].contains(&b'`'))).then_some(Fence { ch, len, tag: None })
}

fn fence_closes(line: &str, fence: &Fence) -> bool {
    if let Some(close) = fence.tag {
        return closes_tag(line, close);
    }
    let t = line.trim_start_matches([' ', '\t']).as_bytes();
    let len = t.iter().take_while(|&&c| c == fence.ch).count();
    len >= fence.len && t[len..].iter().all(u8::is_ascii_whitespace)
}

/// Marks fenced lines and drops HTML comments, from `raw[start..]`.
/// Returns the lines and the line of a fence left open.
fn clean_lines(raw: &[&str], start: usize) -> (Vec<Line>, Option<usize>) {
    let mut out = Vec::new();
    let mut fence: Option<(Fence, usize)> = None;
    let mut in_comment = false;
    // Index of the last line holding `-->`, to tell at once whether a `<!--`
    // is ever closed.
    let last_close = raw.iter().rposition(|l| l.contains("-->"));
    for (i, &line) in raw.iter().enumerate().skip(start) {
        let no = i + 1;
        if let Some((open, _)) = &fence {
            let mut text = line.to_owned();
            if fence_closes(line, open) {
                if open.tag.is_some() {
                    text = format!("{}```", &line[..line.len() - line.trim_start().len()]);
                }
                fence = None;
            }
            out.push(Line {
                no,
                text,
                fence: true,
            });
            continue;
        }
        let mut rest = line;
        let mut had_comment = in_comment;
        if in_comment {
            let Some(end) = line.find("-->") else {
                continue;
            };
            in_comment = false;
            rest = &line[end + 3..];
        } else if let Some((open, text)) = fence_open(line)
            .map(|f| (f, line.to_owned()))
            .or_else(|| tag_block_open(line, &raw[i + 1..]))
        {
            fence = Some((open, no));
            out.push(Line {
                no,
                text,
                fence: true,
            });
            continue;
        }
        let mut text = String::new();
        while let Some(p) = comment_open(&text, rest) {
            let after = &rest[p + 4..];
            if let Some(end) = after.find("-->") {
                text.push_str(&rest[..p]);
                rest = &after[end + 3..];
                had_comment = true;
            } else if last_close.is_some_and(|last| last > i) {
                text.push_str(&rest[..p]);
                rest = "";
                had_comment = true;
                in_comment = true;
                break;
            } else {
                break;
            }
        }
        text.push_str(rest);
        if had_comment && text.trim().is_empty() {
            continue;
        }
        out.push(Line {
            no,
            text,
            fence: false,
        });
    }
    (out, fence.map(|(_, no)| no))
}

/// Byte offset in `rest` of a `<!--` that is not inside an inline code span
/// (`done` is the part of the line already kept, for counting backticks).
fn comment_open(done: &str, rest: &str) -> Option<usize> {
    let ticks = done.matches('`').count();
    rest.match_indices("<!--")
        .map(|(p, _)| p)
        .find(|&p| (ticks + rest[..p].matches('`').count()).is_multiple_of(2))
}

// ---------------------------------------------------------------------------
// Block syntax

fn is_blank(text: &str) -> bool {
    text.trim().is_empty()
}

/// Indent in columns (a tab advances to the next multiple of 4).
fn indent(text: &str) -> usize {
    let mut col = 0;
    for c in text.chars() {
        match c {
            ' ' => col += 1,
            '\t' => col += 4 - col % 4,
            _ => break,
        }
    }
    col
}

/// `text` without up to `cols` columns of leading whitespace.
fn dedent(text: &str, cols: usize) -> &str {
    let mut col = 0;
    for (i, c) in text.char_indices() {
        if col >= cols {
            return &text[i..];
        }
        match c {
            ' ' => col += 1,
            '\t' => col += 4 - col % 4,
            _ => return &text[i..],
        }
    }
    ""
}

/// An ATX heading: level and text (closing `#`s removed).
fn atx_heading(text: &str) -> Option<(usize, String)> {
    if indent(text) > 3 || text.starts_with('\t') {
        return None;
    }
    let t = text.trim_start_matches(' ');
    let level = t.bytes().take_while(|&b| b == b'#').count();
    let rest = &t[level..];
    if !(1..=6).contains(&level) || !(rest.is_empty() || rest.starts_with([' ', '\t'])) {
        return None;
    }
    let mut title = rest.trim();
    let open = title.trim_end_matches('#');
    if open.is_empty() {
        title = "";
    } else if open.len() < title.len() && open.ends_with([' ', '\t']) {
        title = open.trim_end();
    }
    Some((level, title.to_owned()))
}

/// A setext underline: `===` gives level 1, `---` level 2.
fn setext_underline(text: &str) -> Option<usize> {
    if indent(text) > 3 {
        return None;
    }
    let t = text.trim();
    if !t.is_empty() && t.bytes().all(|b| b == b'=') {
        Some(1)
    } else if !t.is_empty() && t.bytes().all(|b| b == b'-') {
        Some(2)
    } else {
        None
    }
}

/// `---`, `***`, `___` (spaces allowed between).
fn is_thematic_break(text: &str) -> bool {
    if indent(text) > 3 {
        return false;
    }
    let mut marks = text.chars().filter(|c| !c.is_whitespace());
    let Some(first) = marks.next().filter(|c| matches!(c, '-' | '*' | '_')) else {
        return false;
    };
    let mut count = 1;
    for c in marks {
        if c != first {
            return false;
        }
        count += 1;
    }
    count >= 3
}

/// A list item's first line.
pub(super) struct Marker<'a> {
    /// Column of the marker.
    indent: usize,
    /// Column where the item's content starts.
    content_indent: usize,
    /// The text after the marker.
    pub(super) content: &'a str,
}

/// `- x`, `* x`, `+ x`, `1. x`, `1) x` (or the marker alone).
pub(super) fn list_marker(text: &str) -> Option<Marker<'_>> {
    let col = indent(text);
    let t = text.trim_start_matches([' ', '\t']);
    let width = if t.starts_with(['-', '*', '+']) {
        1
    } else {
        let digits = t.bytes().take_while(u8::is_ascii_digit).count();
        if !(1..=9).contains(&digits) || !matches!(t.as_bytes().get(digits), Some(b'.' | b')')) {
            return None;
        }
        digits + 1
    };
    let after = &t[width..];
    if after.trim().is_empty() {
        return Some(Marker {
            indent: col,
            content_indent: col + width + 1,
            content: "",
        });
    }
    if !after.starts_with([' ', '\t']) {
        return None;
    }
    let pad = indent(after);
    let pad = if pad > 4 { 1 } else { pad };
    Some(Marker {
        indent: col,
        content_indent: col + width + pad,
        content: after.trim_start(),
    })
}

// ---------------------------------------------------------------------------
// Sections

#[derive(Default)]
struct Sections {
    /// Open headings: level and text.
    stack: Vec<(usize, String)>,
    /// Line of the current section's heading (`None` before any heading).
    heading_line: Option<usize>,
    body: Vec<Line>,
    done: Vec<Section>,
}

impl Sections {
    fn heading(&mut self, level: usize, title: String, no: usize) {
        self.flush();
        while self.stack.last().is_some_and(|(l, _)| *l >= level) {
            self.stack.pop();
        }
        self.stack.push((level, title));
        self.heading_line = Some(no);
    }

    /// Ends the current section; keeps it when its body is not empty.
    fn flush(&mut self) {
        let body = std::mem::take(&mut self.body);
        let edge = |l: &Line| !l.fence && (is_blank(&l.text) || is_thematic_break(&l.text));
        let first = body.iter().position(|l| !edge(l));
        let last = body.iter().rposition(|l| !edge(l));
        let (Some(first), Some(last)) = (first, last) else {
            return;
        };
        let body = &body[first..=last];
        self.done.push(Section {
            headings: self.stack.iter().map(|(_, t)| t.clone()).collect(),
            body: body
                .iter()
                .map(|l| l.text.as_str())
                .collect::<Vec<_>>()
                .join("\n"),
            line: self.heading_line.unwrap_or(body[0].no),
            items: items(body),
        });
    }

    /// Where the paragraph that a setext underline would turn into a heading
    /// starts in the body, if the body ends with one.
    fn setext_paragraph(&self) -> Option<usize> {
        let end = self.body.len();
        let mut start = end;
        while start > 0 && {
            let l = &self.body[start - 1];
            !l.fence && !is_blank(&l.text) && !is_thematic_break(&l.text)
        } {
            start -= 1;
        }
        let run = &self.body[start..end];
        let first = run.first()?;
        // An indented paragraph after a list belongs to a list item, which the
        // underline does not.
        let in_list = || {
            self.body[..start]
                .iter()
                .any(|l| !l.fence && list_marker(&l.text).is_some())
        };
        let plain = indent(&first.text) <= 3
            && !first.text.trim_start().starts_with('>')
            && run.iter().all(|l| list_marker(&l.text).is_none())
            && (indent(&first.text) == 0 || !in_list());
        plain.then_some(start)
    }
}

/// A line that is only bold text, optionally ending with a colon
/// (`**Key rules:**`, `__Setup__`): a heading in all but syntax.
fn bold_heading(text: &str) -> Option<String> {
    if indent(text) > 3 {
        return None;
    }
    let t = text.trim();
    let inner = ["**", "__"].iter().find_map(|m| {
        let rest = t.strip_prefix(m)?;
        let rest = rest.strip_suffix(':').unwrap_or(rest);
        let rest = rest.strip_suffix(m)?;
        let rest = rest.strip_suffix(':').unwrap_or(rest);
        (!rest.contains(*m)).then_some(rest)
    })?;
    let inner = inner.trim();
    let words = inner.split_whitespace().count();
    // "**Examples:**" leads into examples of the rule above it; it heads
    // no section of its own.
    (!inner.is_empty() && !announces_examples(inner) && words <= 8 && inner.chars().count() <= 60)
        .then(|| inner.to_owned())
}

/// Whether a label, without its colon and emphasis, only announces
/// examples ("For example", "Examples", "e.g.").
pub(super) fn announces_examples(label: &str) -> bool {
    matches!(
        label.trim().to_lowercase().as_str(),
        "example" | "examples" | "for example" | "for instance" | "e.g." | "e.g" | "eg"
    )
}

fn sectionize(lines: Vec<Line>) -> Vec<Section> {
    let mut s = Sections::default();
    let mut previous_blank = true;
    // The level of the last heading written as one (ATX or setext).
    let mut written_level: Option<usize> = None;
    for line in lines {
        let blank = !line.fence && is_blank(&line.text);
        let after_blank = std::mem::replace(&mut previous_blank, blank);
        if !line.fence {
            if let Some((level, title)) = atx_heading(&line.text) {
                s.heading(level, title, line.no);
                written_level = Some(level);
                previous_blank = true;
                continue;
            }
            // A bold line on its own paragraph heads what follows, one level
            // below the heading it is under; bold lines in a row under one
            // heading are siblings (`**Problem:**`, `**Common symptoms:**`),
            // not each under the one before.
            if after_blank && let Some(title) = bold_heading(&line.text) {
                let level = written_level.map_or(1, |l| (l + 1).min(7));
                s.heading(level, title, line.no);
                previous_blank = true;
                continue;
            }
            if let Some(level) = setext_underline(&line.text)
                && let Some(start) = s.setext_paragraph()
            {
                written_level = Some(level);
                let run: Vec<Line> = s.body.drain(start..).collect();
                let title = run
                    .iter()
                    .map(|l| l.text.trim())
                    .collect::<Vec<_>>()
                    .join(" ");
                s.heading(level, title, run[0].no);
                continue;
            }
        }
        s.body.push(line);
    }
    s.flush();
    s.done
}

// ---------------------------------------------------------------------------
// Items

/// What the last item is, for deciding where the next line goes.
#[derive(Clone, Copy)]
enum Open {
    /// No item yet, or after a thematic break.
    Nothing,
    /// A list item.
    List {
        marker_indent: usize,
        content_indent: usize,
    },
    /// A paragraph.
    Paragraph,
}

/// Appends `text` to the last item, after the blank lines seen since its
/// previous line.
fn push<'a>(items: &mut [(usize, Vec<&'a str>, ItemKind)], blanks: &mut usize, text: &'a str) {
    if let Some((_, lines, _)) = items.last_mut() {
        lines.extend(std::iter::repeat_n("", *blanks));
        lines.push(text);
    }
    *blanks = 0;
}

/// Splits a trimmed section body into its top-level blocks.
fn items(body: &[Line]) -> Vec<Item> {
    let mut items: Vec<(usize, Vec<&str>, ItemKind)> = Vec::new();
    let mut open = Open::Nothing;
    let mut blanks = 0;
    for line in body {
        let text = line.text.as_str();
        let content_indent = match open {
            Open::List { content_indent, .. } => content_indent,
            _ => 0,
        };
        if line.fence {
            if matches!(open, Open::Nothing) {
                items.push((line.no, Vec::new(), ItemKind::Code));
                open = Open::Paragraph;
            }
            push(&mut items, &mut blanks, dedent(text, content_indent));
            continue;
        }
        if is_blank(text) {
            blanks += 1;
            continue;
        }
        if is_thematic_break(text) {
            open = Open::Nothing;
            blanks = 0;
            continue;
        }
        if let Some(marker) = list_marker(text) {
            let top = match open {
                Open::List { marker_indent, .. } => marker.indent <= marker_indent,
                _ => marker.indent <= 3,
            };
            if top {
                let kind = if text.trim_start().starts_with(|c: char| c.is_ascii_digit()) {
                    ItemKind::Numbered
                } else {
                    ItemKind::Bullet
                };
                items.push((line.no, vec![marker.content], kind));
                open = Open::List {
                    marker_indent: marker.indent,
                    content_indent: marker.content_indent,
                };
                blanks = 0;
                continue;
            }
        }
        let continues = match open {
            Open::List { marker_indent, .. } => blanks == 0 || indent(text) > marker_indent,
            Open::Paragraph => blanks == 0,
            Open::Nothing => false,
        };
        if continues {
            push(&mut items, &mut blanks, dedent(text, content_indent));
        } else {
            let kind = if text.trim_start().starts_with('|') {
                ItemKind::Table
            } else {
                ItemKind::Paragraph
            };
            items.push((line.no, vec![text], kind));
            open = Open::Paragraph;
            blanks = 0;
        }
    }
    items
        .into_iter()
        .map(|(line, lines, kind)| Item {
            text: lines.join("\n").trim().to_owned(),
            line,
            kind,
        })
        .filter(|item| !item.text.is_empty())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A section as `(headings, line, items as (line, text))`.
    type Expected = (
        &'static [&'static str],
        usize,
        &'static [(usize, &'static str)],
    );

    /// A parsed section in the same shape, owned.
    type Shape = (Vec<String>, usize, Vec<(usize, String)>);

    /// `(case, format, input, globs, description, alwaysApply)`.
    type FrontMatterCase = (
        &'static str,
        RuleFormat,
        &'static str,
        &'static [&'static str],
        Option<&'static str>,
        Option<bool>,
    );

    fn view(file: &RuleFile) -> Vec<Shape> {
        file.sections
            .iter()
            .map(|s| {
                let items = s.items.iter().map(|i| (i.line, i.text.clone())).collect();
                (s.headings.clone(), s.line, items)
            })
            .collect()
    }

    fn expected(sections: &[Expected]) -> Vec<Shape> {
        sections
            .iter()
            .map(|(h, line, items)| {
                let headings = h.iter().map(|s| (*s).to_owned()).collect();
                let items = items.iter().map(|(l, t)| (*l, (*t).to_owned())).collect();
                (headings, *line, items)
            })
            .collect()
    }

    const AGENTS_MD: &str = "# AGENTS.md

Guidance for coding agents working in this repository.

## Setup

- Install Rust 1.85 or newer.
- Run the bootstrap script once:

  ```sh
  # installs the git hooks
  ./scripts/bootstrap.sh
  ```
- Copy `.env.example` to `.env`.

## Conventions

### Errors

1. Library crates return `thiserror` enums; only the CLI uses `anyhow`.
2. Never call `unwrap()` outside tests.
   Use `expect(\"why\")` only when the invariant is local.

### Database

Migrations live in `migrations/` and are applied with:

```bash
# not a heading
## also not a heading
sqlx migrate run
```

Never edit a migration that has been merged.

## Testing
<!-- TODO: document the fuzz targets -->
Run `cargo test --workspace` before every push.

---
";

    const CLAUDE_MD: &str = "# CLAUDE.md

This file provides guidance to Claude Code when working with code in this repository.

## Commands

- Build: `npm run build`
- Test one file: `npx vitest run path/to/file.test.ts`
- Lint: `npm run lint` (must pass before committing)

## Architecture

The API server lives in `server/` and talks to Postgres through Prisma.
The web client in `web/` never imports from `server/` directly.

Shared types go in `packages/types`.

Code Style
----------

* Use named exports; no default exports.
* Prefer `async`/`await` over `.then()` chains.
    * Except in the streaming code under `server/stream/`.

<!--
## Old rules
- Use yarn.
-->
";

    const CURSORRULES: &str =
        "You are an expert in TypeScript, Node.js, Next.js App Router, React and Tailwind.

Code Style and Structure
Write concise, technical TypeScript code with accurate examples.
Use functional and declarative programming patterns; avoid classes.

Naming Conventions
Use lowercase with dashes for directories (e.g., components/auth-wizard).
";

    const MDC_STRING_GLOBS: &str = "---
description: Rules for the TypeScript services
globs: src/**/*.ts, tests/**
alwaysApply: false
---

# TypeScript

- Use `zod` to validate request bodies.
- Prefer `unknown` over `any`.
";

    const MDC_LIST_GLOBS: &str = "---
description: \"Database access: queries and migrations\"
globs:
  - \"db/**/*.sql\"
  - 'src/db/**/*.{ts,tsx}'
alwaysApply: true
---
Always use parameterized queries; never build SQL by string concatenation.
";

    const TILDES: &str = "## Shell

Regenerate the fixtures with:
~~~~sh
# comment
```
still code
~~~
still code: a shorter tilde fence does not close
~~~~
- Commit the regenerated files in the same change.
";

    const UNCLOSED: &str = "# Notes

- Example:

  ```python
  # a comment
  ## Not a section

Trailing text
";

    #[test]
    fn includes_are_found_outside_code_and_their_lines_dropped() {
        let text = "@AGENTS.md\n\n# Rules\n\n- Read @docs/testing.md before writing tests.\n- Mail a@b.com.\n- `npm i @scope/pkg`\n\n```\n@not/this.md\n```\n- @CONTRIBUTING.md\n1. @README.md\n2) @docs/style.md\n";
        let (found, rest) = includes(text);
        assert_eq!(
            found,
            [
                "AGENTS.md",
                "docs/testing.md",
                "CONTRIBUTING.md",
                "README.md",
                "docs/style.md"
            ]
        );
        assert!(!rest.contains("@AGENTS.md"));
        assert!(!rest.contains("@CONTRIBUTING.md"));
        // A numbered item holding only an import is no rule either.
        assert!(!rest.contains("@README.md"), "{rest}");
        assert!(!rest.contains("@docs/style.md"), "{rest}");
        assert!(rest.contains("Read @docs/testing.md before writing tests."));
        assert!(rest.contains("@not/this.md"));
        assert!(rest.contains("a@b.com"));
    }

    #[test]
    fn sections_and_items() {
        let cases: &[(&str, &str, RuleFormat, &[Expected])] = &[
            (
                "AGENTS.md",
                AGENTS_MD,
                RuleFormat::Markdown,
                &[
                    (
                        &["AGENTS.md"],
                        1,
                        &[(3, "Guidance for coding agents working in this repository.")],
                    ),
                    (
                        &["AGENTS.md", "Setup"],
                        5,
                        &[
                            (7, "Install Rust 1.85 or newer."),
                            (
                                8,
                                "Run the bootstrap script once:\n\n```sh\n# installs the git hooks\n./scripts/bootstrap.sh\n```",
                            ),
                            (14, "Copy `.env.example` to `.env`."),
                        ],
                    ),
                    (
                        &["AGENTS.md", "Conventions", "Errors"],
                        18,
                        &[
                            (
                                20,
                                "Library crates return `thiserror` enums; only the CLI uses `anyhow`.",
                            ),
                            (
                                21,
                                "Never call `unwrap()` outside tests.\nUse `expect(\"why\")` only when the invariant is local.",
                            ),
                        ],
                    ),
                    (
                        &["AGENTS.md", "Conventions", "Database"],
                        24,
                        &[
                            (
                                26,
                                "Migrations live in `migrations/` and are applied with:\n\n```bash\n# not a heading\n## also not a heading\nsqlx migrate run\n```",
                            ),
                            (34, "Never edit a migration that has been merged."),
                        ],
                    ),
                    (
                        &["AGENTS.md", "Testing"],
                        36,
                        &[(38, "Run `cargo test --workspace` before every push.")],
                    ),
                ],
            ),
            (
                "CLAUDE.md",
                CLAUDE_MD,
                RuleFormat::Markdown,
                &[
                    (
                        &["CLAUDE.md"],
                        1,
                        &[(
                            3,
                            "This file provides guidance to Claude Code when working with code in this repository.",
                        )],
                    ),
                    (
                        &["CLAUDE.md", "Commands"],
                        5,
                        &[
                            (7, "Build: `npm run build`"),
                            (8, "Test one file: `npx vitest run path/to/file.test.ts`"),
                            (9, "Lint: `npm run lint` (must pass before committing)"),
                        ],
                    ),
                    (
                        &["CLAUDE.md", "Architecture"],
                        11,
                        &[
                            (
                                13,
                                "The API server lives in `server/` and talks to Postgres through Prisma.\nThe web client in `web/` never imports from `server/` directly.",
                            ),
                            (16, "Shared types go in `packages/types`."),
                        ],
                    ),
                    (
                        &["CLAUDE.md", "Code Style"],
                        18,
                        &[
                            (21, "Use named exports; no default exports."),
                            (
                                22,
                                "Prefer `async`/`await` over `.then()` chains.\n  * Except in the streaming code under `server/stream/`.",
                            ),
                        ],
                    ),
                ],
            ),
            (
                ".cursorrules",
                CURSORRULES,
                RuleFormat::CursorRules,
                &[(
                    &[],
                    1,
                    &[
                        (
                            1,
                            "You are an expert in TypeScript, Node.js, Next.js App Router, React and Tailwind.",
                        ),
                        (
                            3,
                            "Code Style and Structure\nWrite concise, technical TypeScript code with accurate examples.\nUse functional and declarative programming patterns; avoid classes.",
                        ),
                        (
                            7,
                            "Naming Conventions\nUse lowercase with dashes for directories (e.g., components/auth-wizard).",
                        ),
                    ],
                )],
            ),
            (
                "mdc, string globs",
                MDC_STRING_GLOBS,
                RuleFormat::CursorMdc,
                &[(
                    &["TypeScript"],
                    7,
                    &[
                        (9, "Use `zod` to validate request bodies."),
                        (10, "Prefer `unknown` over `any`."),
                    ],
                )],
            ),
            (
                "mdc, list globs",
                MDC_LIST_GLOBS,
                RuleFormat::CursorMdc,
                &[(
                    &[],
                    8,
                    &[(
                        8,
                        "Always use parameterized queries; never build SQL by string concatenation.",
                    )],
                )],
            ),
            (
                "tilde fences",
                TILDES,
                RuleFormat::Markdown,
                &[(
                    &["Shell"],
                    1,
                    &[
                        (
                            3,
                            "Regenerate the fixtures with:\n~~~~sh\n# comment\n```\nstill code\n~~~\nstill code: a shorter tilde fence does not close\n~~~~",
                        ),
                        (11, "Commit the regenerated files in the same change."),
                    ],
                )],
            ),
            (
                "unclosed fence",
                UNCLOSED,
                RuleFormat::Markdown,
                &[(
                    &["Notes"],
                    1,
                    &[(
                        3,
                        "Example:\n\n```python\n# a comment\n## Not a section\n\nTrailing text",
                    )],
                )],
            ),
            (
                "setext, closing hashes, comments, breaks",
                "Project Rules\n=============\n\nIntro <!-- hidden --> text, keep `<!-- literal -->`.\n\n* * *\n\n## Style ##\n\n<!-- one\ntwo -->\nUse tabs.\n\n---\nNo semicolons.\n\n### Other\n\n#hashtag is text\n    # indented is text\n",
                RuleFormat::Markdown,
                &[
                    (
                        &["Project Rules"],
                        1,
                        &[(4, "Intro  text, keep `<!-- literal -->`.")],
                    ),
                    (
                        &["Project Rules", "Style"],
                        8,
                        &[(12, "Use tabs."), (15, "No semicolons.")],
                    ),
                    (
                        &["Project Rules", "Style", "Other"],
                        17,
                        &[(19, "#hashtag is text\n    # indented is text")],
                    ),
                ],
            ),
            (
                "lists interrupt paragraphs, lazy lines, fence first",
                "## Git\n```sh\ngit fetch\n```\nBefore pushing:\n- rebase on `main`\nand fix conflicts\n---\n10) squash fixups\n\n   with `git rebase -i`\n\nThat is all.\n",
                RuleFormat::Markdown,
                &[(
                    &["Git"],
                    1,
                    &[
                        (2, "```sh\ngit fetch\n```\nBefore pushing:"),
                        (6, "rebase on `main`\nand fix conflicts"),
                        (9, "squash fixups\n\nwith `git rebase -i`"),
                        (13, "That is all."),
                    ],
                )],
            ),
            ("empty file", "", RuleFormat::Markdown, &[]),
            (
                "only headings",
                "# A\n## B\n<!-- nothing -->\n",
                RuleFormat::Markdown,
                &[],
            ),
        ];
        for (name, text, format, want) in cases {
            let file = parse(text, *format).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(view(&file), expected(want), "{name}");
            let crlf = parse(&text.replace('\n', "\r\n"), *format)
                .unwrap_or_else(|e| panic!("{name} (CRLF): {e}"));
            assert_eq!(crlf, file, "{name}: CRLF parses like LF");
        }
    }

    #[test]
    fn bold_lines_in_a_row_are_sibling_headings() {
        let text = "# Android\n\n## Build issues\n\n### View collision\n\nBoth have a `View` type.\n\n\
                    **Common symptoms:**\n- error CS0104\n\n**When this occurs:**\n- Implementing listeners\n\n\
                    **Solution: use type aliases**\n\nAdd `using AView = Android.Views.View;`.\n\n\
                    ## Threads\n\nHandlers run on the UI thread.\n";
        let file = parse(text, RuleFormat::Markdown).unwrap();
        let headings: Vec<String> = file
            .sections
            .iter()
            .filter(|s| !s.body.is_empty())
            .map(|s| s.headings.join(" / "))
            .collect();
        assert_eq!(
            headings,
            [
                "Android / Build issues / View collision",
                "Android / Build issues / View collision / Common symptoms",
                "Android / Build issues / View collision / When this occurs",
                "Android / Build issues / View collision / Solution: use type aliases",
                "Android / Threads",
            ]
        );
    }

    #[test]
    fn bodies_keep_fences_and_drop_comments() {
        let file = parse(AGENTS_MD, RuleFormat::Markdown).unwrap();
        let database = &file.sections[3];
        assert_eq!(
            database.body,
            "Migrations live in `migrations/` and are applied with:\n\n```bash\n# not a heading\n## also not a heading\nsqlx migrate run\n```\n\nNever edit a migration that has been merged."
        );
        assert_eq!(
            file.sections[4].body,
            "Run `cargo test --workspace` before every push."
        );
        assert_eq!(file.unclosed_fence, None);
        assert!(file.sections.iter().all(|s| !s.body.contains('\r')));

        let crlf = parse(&CLAUDE_MD.replace('\n', "\r\n"), RuleFormat::Markdown).unwrap();
        let style = crlf.sections.last().unwrap();
        assert_eq!(
            style.body,
            "* Use named exports; no default exports.\n* Prefer `async`/`await` over `.then()` chains.\n    * Except in the streaming code under `server/stream/`."
        );
    }

    #[test]
    fn unclosed_fence_is_closed_at_end_of_file() {
        let file = parse(UNCLOSED, RuleFormat::Markdown).unwrap();
        assert_eq!(file.unclosed_fence, Some(5));
        assert_eq!(file.sections.len(), 1);
        assert!(
            file.sections[0]
                .body
                .ends_with("## Not a section\n\nTrailing text")
        );
    }

    #[test]
    fn front_matter() {
        let cases: &[FrontMatterCase] = &[
            (
                "string globs",
                RuleFormat::CursorMdc,
                MDC_STRING_GLOBS,
                &["src/**/*.ts", "tests/**"],
                Some("Rules for the TypeScript services"),
                Some(false),
            ),
            (
                "list globs",
                RuleFormat::CursorMdc,
                MDC_LIST_GLOBS,
                &["db/**/*.sql", "src/db/**/*.{ts,tsx}"],
                Some("Database access: queries and migrations"),
                Some(true),
            ),
            (
                "flow list, braces, comment, empty description",
                RuleFormat::CursorMdc,
                "---\ndescription:\nglobs: [\"web/**/*.{ts,tsx}\", docs/**] # web only\nalwaysApply: 'false'\n---\n# Web\n",
                &["web/**/*.{ts,tsx}", "docs/**"],
                None,
                Some(false),
            ),
            (
                "quoted string globs, unknown keys",
                RuleFormat::CursorMdc,
                "---\nname: x\nmetadata:\n  owner: web\nglobs: \"src/**/*.{js,jsx}, *.config.js\"\ndescription: >\n  Front-end rules\n  for React.\n---\nUse hooks.\n",
                &["src/**/*.{js,jsx}", "*.config.js"],
                Some("Front-end rules for React."),
                None,
            ),
            (
                "no front matter",
                RuleFormat::CursorMdc,
                "Use hooks.\n",
                &[],
                None,
                None,
            ),
            (
                "copilot applyTo in Markdown",
                RuleFormat::Markdown,
                "---\napplyTo: \"**/*.py\"\n---\n# Python\nUse type hints.\n",
                &["**/*.py"],
                None,
                None,
            ),
            (
                "a `[` list over lines, closed at the margin",
                RuleFormat::CursorMdc,
                "---\ndescription: Upgrade commands\nglobs: [\n  \"src/**/*.entity.ts\",\n  \"src/commands/**/*.ts\"\n]\nalwaysApply: false\n---\nBody.\n",
                &["src/**/*.entity.ts", "src/commands/**/*.ts"],
                Some("Upgrade commands"),
                Some(false),
            ),
            (
                "CRLF",
                RuleFormat::CursorMdc,
                "---\r\nglobs: src/**, lib/**\r\nalwaysApply: true\r\n---\r\nBody.\r\n",
                &["src/**", "lib/**"],
                None,
                Some(true),
            ),
        ];
        for (name, format, text, globs, description, always) in cases {
            let file = parse(text, *format).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(file.front_matter_globs, *globs, "{name}");
            assert_eq!(file.description.as_deref(), *description, "{name}");
            assert_eq!(file.always_apply, *always, "{name}");
        }
    }

    #[test]
    fn markdown_without_closing_front_matter_is_text() {
        let file = parse("---\nUse hooks.\n", RuleFormat::Markdown).unwrap();
        assert_eq!(expected(&[(&[], 2, &[(2, "Use hooks.")])]), view(&file));
        let file = parse("---\nglobs: a\n---\nBody.\n", RuleFormat::CursorRules).unwrap();
        assert!(file.front_matter_globs.is_empty());
        assert_eq!(file.sections[0].headings, ["globs: a"]);
    }

    #[test]
    fn errors_name_the_line() {
        let cases: &[(&str, &str, ParseError)] = &[
            (
                "unterminated",
                "---\nglobs: src/**\n\n# Rules\n- a\n",
                ParseError::UnterminatedFrontMatter { line: 1 },
            ),
            (
                "alwaysApply",
                "---\ndescription: x\nalwaysApply: sometimes\n---\n",
                ParseError::FrontMatter {
                    line: 3,
                    message: "`alwaysApply` must be `true` or `false`, not `sometimes`".to_owned(),
                },
            ),
            (
                "flow list",
                "---\n\nglobs: [src/**, lib/**\n---\n",
                ParseError::FrontMatter {
                    line: 3,
                    message: "a `[` list of globs is never closed with `]`".to_owned(),
                },
            ),
        ];
        for (name, text, want) in cases {
            let err = parse(text, RuleFormat::CursorMdc).expect_err(name);
            assert_eq!(&err, want, "{name}");
            assert_eq!(err.line(), want.line(), "{name}");
        }
        assert_eq!(
            ParseError::UnterminatedFrontMatter { line: 1 }.to_string(),
            "line 1: front matter is never closed with `---`"
        );
    }

    proptest::proptest! {
        #[test]
        fn any_text_parses_and_crlf_changes_nothing(
            text in "([#`~ \\-*>1.a<!\n]|<!--|-->|```|~~~){0,80}",
        ) {
            let lf = parse(&text, RuleFormat::Markdown).unwrap();
            let crlf = parse(&text.replace('\n', "\r\n"), RuleFormat::Markdown).unwrap();
            proptest::prop_assert_eq!(&crlf, &lf);
            for section in &lf.sections {
                proptest::prop_assert!(!section.body.trim().is_empty());
                for item in &section.items {
                    proptest::prop_assert!(item.line >= section.line);
                }
            }
        }
    }

    #[test]
    fn formats_by_file_name() {
        let cases: &[(&str, Option<RuleFormat>)] = &[
            ("AGENTS.md", Some(RuleFormat::Markdown)),
            ("CLAUDE.md", Some(RuleFormat::Markdown)),
            ("docs/CONVENTIONS.md", Some(RuleFormat::Markdown)),
            (
                ".github/copilot-instructions.md",
                Some(RuleFormat::Markdown),
            ),
            ("notes.markdown", Some(RuleFormat::Markdown)),
            ("README.MD", Some(RuleFormat::Markdown)),
            (".cursorrules", Some(RuleFormat::CursorRules)),
            ("sub\\dir\\.cursorrules", Some(RuleFormat::CursorRules)),
            (".windsurfrules", Some(RuleFormat::CursorRules)),
            (".clinerules", Some(RuleFormat::CursorRules)),
            (".clinerules/testing.md", Some(RuleFormat::Markdown)),
            (".windsurf/rules/style.md", Some(RuleFormat::Markdown)),
            (".cursor/rules/typescript.mdc", Some(RuleFormat::CursorMdc)),
            ("src/main.rs", None),
            ("logo.png", None),
            (".cursorrules.bak", None),
            ("rules/", None),
            ("", None),
        ];
        for (path, want) in cases {
            assert_eq!(format_for(path), *want, "{path}");
        }
    }
}
