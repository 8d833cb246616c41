//! The parts of a memory's detail that the summary layer prints when the
//! whole detail does not fit: the units of text that hold the task's words,
//! verbatim, most telling first, within a room of tokens, in their order.
//!
//! A detail is cut into blocks: paragraphs, list items (each item's own
//! lines; what is nested in it is a block of its own), table rows and code
//! blocks (with the text that introduces them). A block longer than half the
//! room is cut again into sentences, and a sentence still that long into
//! clauses (at `; `). Each unit scores the weights of the distinct task
//! words it holds; the best are taken while they fit, the shorter first on
//! a tie, and the sentences that follow a chosen one fill the room left. A
//! unit comes with the short lines it belongs under: the list item it is
//! nested in, the line that introduces its list, a table's header.

use super::{terms, tokens};

/// Longest line (in tokens) shown above a unit to say what it belongs
/// under.
const CONTEXT_TOKENS: usize = 24;

/// One block of a detail.
#[derive(Debug)]
struct Block {
    /// Its lines, without the indentation of the first.
    lines: Vec<String>,
    /// The block it belongs under: the item it is nested in, the paragraph
    /// introducing its list, or its table's header.
    parent: Option<usize>,
    /// Whether it is a list item (or text inside one): it is indented under
    /// the items shown above it.
    nested: bool,
    /// Whether it may be cut into sentences (no code, no table).
    prose: bool,
    /// Whether it may be shown for its own words (a table's header is shown
    /// only above its rows).
    unit: bool,
}

impl Block {
    fn text(&self) -> String {
        self.lines.join("\n")
    }
}

/// The list marker a line starts with (`- `, `* `, `+ `, `1. `, `1) `).
fn marker(t: &str) -> Option<&str> {
    if t.starts_with("- ") || t.starts_with("* ") || t.starts_with("+ ") {
        return Some(&t[..2]);
    }
    let digits = t.bytes().take_while(u8::is_ascii_digit).count();
    let rest = &t[digits..];
    (digits > 0 && digits <= 3 && (rest.starts_with(". ") || rest.starts_with(") ")))
        .then(|| &t[..digits + 2])
}

/// Reads a detail into blocks, line by line.
#[derive(Default)]
struct Reader {
    out: Vec<Block>,
    /// The block being read, and the indentation of its first line.
    current: Option<(Block, usize)>,
    /// Open list items, innermost last: their indentation and block.
    items: Vec<(usize, usize)>,
    /// The paragraph that introduces the list that follows (ends with `:`).
    intro: Option<usize>,
    /// The fence of the open code block.
    fence: Option<String>,
    /// The header of the open table.
    table: Option<usize>,
}

impl Reader {
    fn flush(&mut self) {
        let Some((b, _)) = self.current.take() else {
            return;
        };
        if b.lines.iter().all(|l| l.trim().is_empty()) {
            return;
        }
        if !b.nested && b.parent.is_none() {
            self.intro = b
                .lines
                .last()
                .is_some_and(|l| l.trim_end().ends_with(':'))
                .then_some(self.out.len());
        }
        self.out.push(b);
    }

    /// Adds a line to the block being read, without the indentation of
    /// that block's first line.
    fn push(&mut self, line: &str) {
        if let Some((b, base)) = &mut self.current {
            let ws = line.len() - line.trim_start().len();
            b.lines.push(line[ws.min(*base)..].trim_end().to_owned());
        }
    }

    fn start(&mut self, line: &str, indent: usize, parent: Option<usize>, nested: bool) {
        self.current = Some((
            Block {
                lines: vec![line.trim().to_owned()],
                parent,
                nested,
                prose: true,
                unit: true,
            },
            indent,
        ));
    }

    /// Reads a table line; `next` is the line after it.
    fn table_line(&mut self, t: &str, next: Option<&str>) -> bool {
        self.flush();
        let is_sep = |l: &str| {
            let l = l.trim();
            l.starts_with('|') && l.chars().all(|c| matches!(c, '|' | '-' | ':' | ' '))
        };
        if self.table.is_none()
            && let Some(sep) = next.filter(|n| is_sep(n))
        {
            self.table = Some(self.out.len());
            self.out.push(Block {
                lines: vec![t.trim_end().to_owned(), sep.trim().to_owned()],
                parent: None,
                nested: false,
                prose: false,
                unit: false,
            });
            return true;
        }
        self.out.push(Block {
            lines: vec![t.trim_end().to_owned()],
            parent: self.table,
            nested: false,
            prose: false,
            unit: true,
        });
        false
    }

    fn line(&mut self, line: &str) {
        let t = line.trim_start();
        if self.fence.is_none() {
            self.table = None;
        }
        let indent = line.len() - t.len();
        if let Some(f) = &self.fence {
            let end = t.starts_with(f.as_str());
            self.push(line);
            if end {
                self.fence = None;
                self.flush();
            }
            return;
        }
        if t.starts_with("```") || t.starts_with("~~~") {
            // A fence joins the text that introduces it.
            self.fence = Some(t[..3].to_owned());
            if self.current.is_some() {
                self.push(line);
            } else {
                let parent = self.items.last().map(|&(_, b)| b);
                self.start(t, indent, parent, parent.is_some());
            }
            if let Some((b, _)) = &mut self.current {
                b.prose = false;
            }
            return;
        }
        if t.is_empty() {
            self.flush();
            return;
        }
        if marker(t).is_some() {
            self.flush();
            while self.items.last().is_some_and(|&(at, _)| at >= indent) {
                self.items.pop();
            }
            let parent = self.items.last().map(|&(_, b)| b).or(self.intro);
            self.items.push((indent, self.out.len()));
            self.start(t, indent, parent, true);
            return;
        }
        if self.current.is_some() {
            self.push(line);
            return;
        }
        // A new paragraph: inside the open item when indented under it,
        // else a paragraph of its own that closes the list.
        let within = self
            .items
            .last()
            .filter(|&&(at, _)| indent > at)
            .map(|&(_, b)| b);
        if within.is_none() {
            self.items.clear();
        }
        self.start(t, indent, within, within.is_some());
    }
}

/// Cuts a detail into blocks.
fn blocks(detail: &str) -> Vec<Block> {
    let mut r = Reader::default();
    let lines: Vec<&str> = detail.lines().collect();
    let mut i = 0;
    while i < lines.len() {
        let t = lines[i].trim_start();
        if r.fence.is_none() && t.starts_with('|') {
            if r.table_line(t, lines.get(i + 1).copied()) {
                // The separator under a header is read with it.
                i += 1;
            }
        } else {
            r.line(lines[i]);
        }
        i += 1;
    }
    r.flush();
    r.out
}

/// Words after which a period does not end a sentence.
const ABBREVIATIONS: &[&str] = &[
    "e.g", "i.e", "vs", "cf", "etc", "a.k.a", "approx", "incl", "resp",
];

/// Cuts a line of prose into sentences: after `.`, `!` or `?` and a space,
/// where the next sentence starts with a capital, a backtick, a quote, a
/// bracket or emphasis; never inside code spans, after an abbreviation
/// (`e.g.`, `i.e.`) or after an initial.
fn sentences(text: &str) -> Vec<&str> {
    cut_after(text, |before, after| {
        let Some(end) = before.chars().last() else {
            return false;
        };
        if !matches!(end, '.' | '!' | '?') {
            return false;
        }
        if !after.chars().next().is_some_and(|c| {
            c.is_uppercase() || matches!(c, '`' | '"' | '\'' | '(' | '[' | '*' | '_' | '“')
        }) {
            return false;
        }
        if end == '.' {
            let word = before
                .rsplit(|c: char| c.is_whitespace() || c == '(')
                .next()
                .unwrap_or("")
                .trim_end_matches('.')
                .to_lowercase();
            if ABBREVIATIONS.contains(&word.as_str())
                || (word.chars().count() == 1 && word.chars().all(char::is_alphabetic))
            {
                return false;
            }
        }
        true
    })
}

/// Cuts a sentence into clauses after `; `.
fn clauses(text: &str) -> Vec<&str> {
    cut_after(text, |before, _| before.ends_with(';'))
}

/// Cuts `text` at each space (outside code spans) where `cut(before,
/// after)` holds; the parts keep their words verbatim.
fn cut_after(text: &str, cut: impl Fn(&str, &str) -> bool) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut code = false;
    for (i, c) in text.char_indices() {
        if c == '`' {
            code = !code;
        }
        if c == ' ' && !code && cut(&text[start..i], &text[i + 1..]) {
            out.push(text[start..i].trim());
            start = i + 1;
        }
    }
    out.push(text[start..].trim());
    out.retain(|p| !p.is_empty());
    out
}

/// A fenced code block's opening fence and its non-blank lines (without
/// the text that introduces it), if `b` is one.
fn code_lines(b: &Block) -> Option<(String, Vec<String>)> {
    let open = b.lines.iter().position(|l| {
        let t = l.trim_start();
        t.starts_with("```") || t.starts_with("~~~")
    })?;
    let fence = b.lines[open].trim().to_owned();
    let lines: Vec<String> = b.lines[open + 1..]
        .iter()
        .take_while(|l| !l.trim_start().starts_with(&fence[..3]))
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.trim_end().to_owned())
        .collect();
    (lines.len() > 1).then_some((fence, lines))
}

/// One unit that may be shown: a whole block, or one piece of a long one.
struct Unit {
    block: usize,
    /// Its position among the pieces of its block, if it is one.
    piece: Option<usize>,
    text: String,
}

/// A detail cut into blocks and units, and what of it is chosen.
struct Excerpt {
    blocks: Vec<Block>,
    /// The pieces of each block cut in pieces (empty for the others).
    pieces: Vec<Vec<String>>,
    /// For a code block cut into its lines, its opening fence (with the
    /// language): its pieces are shown one to a line inside the fence.
    fences: Vec<Option<String>>,
    units: Vec<Unit>,
    /// Blocks shown whole: chosen, or above a chosen unit.
    whole: Vec<bool>,
    /// The pieces chosen of each block cut in pieces.
    chosen: Vec<Vec<usize>>,
    /// Blocks some of whose pieces are chosen, in the order chosen.
    cut: Vec<usize>,
    /// Tokens left.
    left: usize,
}

impl Excerpt {
    /// Cuts `detail` into units: whole blocks, or the sentences (or
    /// clauses) of a block of prose longer than `long` tokens.
    fn new(detail: &str, room: usize) -> Excerpt {
        let blocks = blocks(detail);
        let long = room / 2;
        let mut pieces: Vec<Vec<String>> = vec![Vec::new(); blocks.len()];
        let mut fences: Vec<Option<String>> = vec![None; blocks.len()];
        let mut units: Vec<Unit> = Vec::new();
        for (i, b) in blocks.iter().enumerate().filter(|(_, b)| b.unit) {
            let text = b.text();
            // A code block too long to show whole is shown by the lines that
            // hold the task's words (a command with its comment), inside its
            // fence.
            if let Some((fence, lines)) = code_lines(b).filter(|_| tokens(&text) > room) {
                units.extend(lines.iter().enumerate().map(|(k, l)| Unit {
                    block: i,
                    piece: Some(k),
                    text: l.clone(),
                }));
                pieces[i] = lines;
                fences[i] = Some(fence);
                continue;
            }
            if b.prose && tokens(&text) > long {
                let flat = flatten(&text);
                let mut parts: Vec<String> = Vec::new();
                for s in sentences(&flat) {
                    if tokens(s) > long {
                        parts.extend(clauses(s).into_iter().map(str::to_owned));
                    } else {
                        parts.push(s.to_owned());
                    }
                }
                if parts.len() > 1 {
                    units.extend(parts.iter().enumerate().map(|(k, p)| Unit {
                        block: i,
                        piece: Some(k),
                        text: p.clone(),
                    }));
                    pieces[i] = parts;
                    continue;
                }
            }
            units.push(Unit {
                block: i,
                piece: None,
                text,
            });
        }
        let n = blocks.len();
        Excerpt {
            blocks,
            pieces,
            fences,
            units,
            whole: vec![false; n],
            chosen: vec![Vec::new(); n],
            cut: Vec::new(),
            left: room,
        }
    }

    /// Whether block `b` may be shown above a unit to say what it belongs
    /// under: a table's header, or a short block not cut in pieces.
    fn context(&self, b: usize) -> bool {
        let block = &self.blocks[b];
        self.pieces[b].is_empty() && (!block.unit || tokens(&block.text()) <= CONTEXT_TOKENS)
    }

    /// Takes unit `u` with what it belongs under, if it fits.
    fn take(&mut self, u: usize) -> bool {
        let (b, piece) = (self.units[u].block, self.units[u].piece);
        if piece.is_none() && self.whole[b] {
            return false;
        }
        let mut above = Vec::new();
        let mut at = self.blocks[b].parent;
        while let Some(p) = at {
            if !self.whole[p] && self.context(p) {
                above.push(p);
            }
            at = self.blocks[p].parent;
        }
        let fence = match (&self.fences[b], piece) {
            (Some(f), Some(_)) if self.chosen[b].is_empty() => tokens(f) + 2,
            _ => 0,
        };
        let cost = tokens(&self.units[u].text)
            + 1
            + fence
            + above
                .iter()
                .map(|&p| tokens(&self.blocks[p].text()) + 1)
                .sum::<usize>();
        if cost > self.left {
            return false;
        }
        self.left -= cost;
        for p in above {
            self.whole[p] = true;
        }
        match piece {
            Some(k) => {
                if self.chosen[b].is_empty() {
                    self.cut.push(b);
                }
                self.chosen[b].push(k);
            }
            None => self.whole[b] = true,
        }
        true
    }

    /// Spends the room left on the sentences that follow those shown (a
    /// rule's first sentence names it, the next ones say it), the best
    /// block's first.
    fn fill(&mut self) {
        for b in self.cut.clone() {
            for (k, piece) in self.pieces[b].iter().enumerate().skip(1) {
                let cost = tokens(piece) + 1;
                if !self.chosen[b].contains(&k)
                    && self.chosen[b].contains(&(k - 1))
                    && cost <= self.left
                {
                    self.left -= cost;
                    self.chosen[b].push(k);
                }
            }
        }
    }

    /// The blocks shown, in their order, each under the items shown above
    /// it; a block shown in pieces is one line, `…` where text is left out.
    fn render(&self) -> String {
        let mut out: Vec<String> = Vec::new();
        for (i, b) in self.blocks.iter().enumerate() {
            if !self.whole[i] && self.chosen[i].is_empty() {
                continue;
            }
            let mut depth = 0;
            let mut at = b.parent;
            while let Some(p) = at {
                if self.blocks[p].nested && (self.whole[p] || !self.chosen[p].is_empty()) {
                    depth += 1;
                }
                at = self.blocks[p].parent;
            }
            let indent = "  ".repeat(if b.nested { depth } else { 0 });
            if self.whole[i] {
                out.extend(b.lines.iter().map(|l| format!("{indent}{l}")));
                continue;
            }
            let mut ks = self.chosen[i].clone();
            ks.sort_unstable();
            if let Some(fence) = &self.fences[i] {
                out.push(format!("{indent}{fence}"));
                out.extend(ks.iter().map(|&k| format!("{indent}{}", self.pieces[i][k])));
                out.push(format!("{indent}{}", &fence[..3]));
                continue;
            }
            let mut line = indent;
            if ks[0] > 0 {
                // Still a list item, cut at its start.
                if let Some(m) = b.lines.first().and_then(|l| marker(l)) {
                    line.push_str(m);
                }
                line.push('…');
            }
            for (n, &k) in ks.iter().enumerate() {
                if n > 0 {
                    line.push_str(if k == ks[n - 1] + 1 { " " } else { " … " });
                }
                line.push_str(&self.pieces[i][k]);
            }
            out.push(line);
        }
        out.join("\n")
    }
}

/// The units of `detail` that hold task words, verbatim, in their order,
/// within `room` tokens; `matched` gives each task word with its weight.
/// Units whose text `shown` already holds (flattened) are left out. Empty
/// when no unit holds a task word or none fits.
pub(super) fn excerpt(detail: &str, matched: &[(String, f64)], room: usize, shown: &str) -> String {
    if room == 0 || matched.is_empty() {
        return String::new();
    }
    let mut x = Excerpt::new(detail, room);
    let shown = flatten(shown);
    let mut scored: Vec<(f64, usize, usize)> = x
        .units
        .iter()
        .enumerate()
        .filter(|(_, u)| shown.is_empty() || !shown.contains(&flatten(&u.text)))
        .map(|(i, u)| (score(&u.text, matched), tokens(&u.text), i))
        .filter(|&(s, _, _)| s > 0.0)
        .collect();
    // The most telling first; the shorter on a tie.
    scored.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)).then(a.2.cmp(&b.2)));
    let mut picked = false;
    for (_, _, u) in scored {
        picked |= x.take(u);
    }
    if !picked {
        return String::new();
    }
    x.fill();
    x.render()
}

/// The weights of the distinct task words `text` holds, summed.
fn score(text: &str, matched: &[(String, f64)]) -> f64 {
    let mut seen: Vec<&str> = Vec::new();
    let mut total = 0.0;
    terms::for_each_term(text, |t| {
        if let Some((m, w)) = matched.iter().find(|(m, _)| m == t)
            && !seen.contains(&m.as_str())
        {
            seen.push(m.as_str());
            total += w;
        }
    });
    total
}

/// `text` with its whitespace collapsed.
pub(super) fn flatten(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sentences_end_where_a_new_one_starts() {
        let cases: &[(&str, &[&str])] = &[
            (
                "Run it once. Then stop! Why? `cargo test` next.",
                &["Run it once.", "Then stop!", "Why?", "`cargo test` next."],
            ),
            // Abbreviations, initials, versions, paths and code stay whole.
            (
                "Use a tool, e.g. `ruff`, i.e. The linter. Bump to 1.2. Then see J. Smith.",
                &[
                    "Use a tool, e.g. `ruff`, i.e. The linter.",
                    "Bump to 1.2.",
                    "Then see J. Smith.",
                ],
            ),
            (
                "Edit src/lib.rs. Keep `a. B` whole.",
                &["Edit src/lib.rs.", "Keep `a. B` whole."],
            ),
            // A lowercase word after a period does not start a sentence.
            ("Call foo. bar does it.", &["Call foo. bar does it."]),
            (
                "(Heavy check. Recommended before PRs.)",
                &["(Heavy check.", "Recommended before PRs.)"],
            ),
        ];
        for (text, want) in cases {
            assert_eq!(sentences(text), *want, "{text}");
        }
        assert_eq!(
            clauses("one; two `a; b`; three"),
            ["one;", "two `a; b`;", "three"]
        );
    }

    #[test]
    fn nested_items_are_blocks_under_their_parent() {
        let b = blocks(
            "Intro:\n- **Top:**\n  - child one\n    continued\n  - child two\n- sibling\n\nAfter.",
        );
        let texts: Vec<String> = b.iter().map(Block::text).collect();
        assert_eq!(
            texts,
            [
                "Intro:",
                "- **Top:**",
                "- child one\n  continued",
                "- child two",
                "- sibling",
                "After."
            ]
        );
        let parents: Vec<Option<usize>> = b.iter().map(|b| b.parent).collect();
        assert_eq!(parents, [None, Some(0), Some(1), Some(1), Some(0), None]);
    }

    #[test]
    fn a_long_code_block_shows_the_lines_that_hold_the_task_words() {
        let detail = "Essential commands:\n\n```bash\n\
                      just fmt             # Format code (run after modifications)\n\
                      just test            # Run unit/integration tests\n\
                      just conformance     # Run conformance tests\n\
                      cargo lintgen        # Regenerate linter rules enum and impls\n\
                      just ast             # Update generated files (oxc_ast changes)\n\
                      just minsize         # Update size snapshots (oxc_minifier changes)\n\
                      just allocs          # Update allocation snapshots (oxc_parser changes)\n\
                      ```\n";
        let matched = vec![("oxcast".to_owned(), 1.0)];
        // Too long for the room: the matching line (and what follows it,
        // while room is left), inside its fence.
        let out = excerpt(detail, &matched, 40, "");
        assert!(
            out.starts_with("```bash\njust ast             # Update generated files"),
            "{out}"
        );
        assert!(out.ends_with("\n```") && !out.contains("just fmt"), "{out}");
        // Room for all of it: the block whole.
        let out = excerpt(detail, &matched, 400, "");
        assert!(out.contains("just minsize"), "{out}");
    }

    #[test]
    fn odd_details_print_only_their_own_text() {
        let matched = vec![("rule".to_owned(), 1.0), ("code".to_owned(), 0.5)];
        let details = [
            "",
            "```",
            "```rust\nlet rule = 1;\n",
            "| rule |",
            "| rule |\n|---|\n| code |",
            "- ",
            "1. rule",
            "**",
            "* * * rule",
            "  - rule nested first\n- top rule",
            "Intro:\n\n    - rule deep\n  - code shallow",
            "A rule. Ünïcödé rule! 日本語のルール? rule… done; code; more.",
        ];
        for detail in details {
            for room in [0, 1, 3, 10, 60] {
                let out = excerpt(detail, &matched, room, "");
                let flat = flatten(detail);
                for piece in out.split(['\n', '…']).map(str::trim) {
                    let piece = piece.trim_start_matches(['-', '*', '+', ' ']);
                    assert!(flat.contains(&flatten(piece)), "{piece:?} of {detail:?}");
                }
            }
        }
    }
}
