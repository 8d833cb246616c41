//! Stage 2: split normalised text into fragments, each one piece of knowledge.
//!
//! * Markdown headings start sections; sections named like metadata ("changed
//!   files", "diff stat", "test output", "logs") are not prose and yield no
//!   fragments.
//! * Blank lines separate blocks. In a block, each bullet item (with its
//!   continuation lines) is a fragment; lines before the first bullet are a
//!   paragraph, or the lead-in that gives the items context when it ends in
//!   `:`.
//! * A paragraph is split into sentences, then regrouped: a sentence that
//!   carries its own signal starts a new fragment, one that only explains the
//!   previous one ("because …", "This means …") stays with it. Semicolons
//!   never split.
//! * Fenced code is never split; it joins the fragment just before it in the
//!   same section.

use crate::model::MemoryType;

/// One candidate piece of knowledge, still raw text.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Fragment {
    /// Heading of the section it is in (innermost), or empty.
    pub section: String,
    /// 1-based line of the input where it starts.
    pub line: usize,
    /// Its sentences, in order, without the bullet marker or type prefix.
    pub sentences: Vec<String>,
    /// Fenced code blocks that belong to it, fences included.
    pub code: Vec<String>,
    /// The lead-in line of its list ("Things to watch:"), if any.
    pub context: Option<String>,
    /// The type named by an explicit prefix ("Gotcha: …").
    pub prefix: Option<MemoryType>,
    /// The type its list lead-in ("Decisions:") or section heading names.
    pub hint: Option<MemoryType>,
}

impl Fragment {
    /// The fragment's own prose (sentences joined by spaces).
    pub fn text(&self) -> String {
        self.sentences.join(" ")
    }
}

/// Section headings whose content is metadata, not prose.
const METADATA_SECTIONS: &[&str] = &[
    "changed files",
    "files changed",
    "diff stat",
    "diffstat",
    "metadata",
    "test output",
    "test log",
    "logs",
    "log output",
    "stack trace",
    "commands run",
];

/// Words that begin a sentence that only explains the one before it.
const CONTINUATION_OPENERS: &[&str] = &[
    "because",
    "since",
    "so",
    "this",
    "that",
    "these",
    "those",
    "it",
    "they",
    "otherwise",
    "which",
    "the reason",
    "as a result",
    "that's why",
    "thus",
    "hence",
    "e.g.",
    "for example",
    "for instance",
    "i.e.",
    "in practice",
    "see",
];

/// Splits `text` (already normalised) into fragments. `starts_topic` says
/// whether a sentence carries a signal of its own (see [`super::classify`]).
pub fn fragments(text: &str, starts_topic: &dyn Fn(&str) -> bool) -> Vec<Fragment> {
    let mut out: Vec<Fragment> = Vec::new();
    let mut section = String::new();
    let mut metadata = false;
    let mut block: Vec<(usize, &str)> = Vec::new();
    let mut fence: Option<(String, usize, Vec<&str>)> = None;

    let lines: Vec<&str> = text.lines().collect();
    for (i, line) in lines.iter().enumerate() {
        let n = i + 1;
        if let Some((marker, start, body)) = &mut fence {
            body.push(line);
            if line.trim_start().starts_with(marker.as_str()) && line.trim().len() >= marker.len() {
                let code = body.join("\n");
                let start = *start;
                fence = None;
                if !metadata {
                    flush(&mut out, &mut block, &section, starts_topic);
                    attach_code(&mut out, &section, code, start);
                }
            }
            continue;
        }
        let trimmed = line.trim_start();
        if let Some(marker) = fence_marker(trimmed) {
            fence = Some((marker, n, vec![line]));
            continue;
        }
        if let Some(heading) = heading(trimmed) {
            flush(&mut out, &mut block, &section, starts_topic);
            let lower = heading.to_lowercase();
            metadata = METADATA_SECTIONS.iter().any(|m| lower.contains(m));
            section = heading;
            continue;
        }
        if line.trim().is_empty() {
            if !metadata {
                flush(&mut out, &mut block, &section, starts_topic);
            }
            block.clear();
            continue;
        }
        if !metadata {
            block.push((n, line));
        }
    }
    if let Some((_, start, body)) = fence {
        // An unclosed fence runs to the end of the input.
        if !metadata {
            flush(&mut out, &mut block, &section, starts_topic);
            attach_code(&mut out, &section, body.join("\n"), start);
        }
    }
    if !metadata {
        flush(&mut out, &mut block, &section, starts_topic);
    }
    commit_subject(&mut out, &lines);
    out
}

/// Verbs a commit subject states a choice with ("Use ULIDs for new order
/// ids", "ledger: replace gorm with sqlc"); "move to" and "default to" are
/// matched as two words.
const CHOICE_VERBS: &[&str] = &[
    "use",
    "switch",
    "replace",
    "migrate",
    "adopt",
    "drop",
    "store",
    "standardize",
    "standardise",
    "prefer",
    "deprecate",
];

/// In a commit message (a subject of at most 72 characters without a final
/// period, a blank line, a body), a subject that states a choice is a
/// decision whose reasons are the body's first paragraph: the two are one
/// fragment, leaning towards a decision. On its own the subject is too short
/// to keep and the body reads as a plain account.
fn commit_subject(out: &mut Vec<Fragment>, lines: &[&str]) {
    let [subject, blank, ..] = lines else {
        return;
    };
    let subject = subject.trim();
    if subject.is_empty()
        || subject.chars().count() > 72
        || subject.ends_with('.')
        || !blank.trim().is_empty()
        || lines.len() < 3
    {
        return;
    }
    // A conventional prefix ("ledger:", "feat(api):") is no verb.
    let verb_part = match subject.split_once(": ") {
        Some((prefix, rest)) if !prefix.contains(' ') => rest,
        _ => subject,
    };
    let mut words = verb_part.split_whitespace().map(str::to_lowercase);
    let first = words.next().unwrap_or_default();
    let second = words.next().unwrap_or_default();
    let choice = CHOICE_VERBS.contains(&first.as_str())
        || (["move", "default"].contains(&first.as_str()) && second == "to");
    if !choice || out.len() < 2 || out[0].line != 1 || out[1].line < 3 {
        return;
    }
    let body = out.remove(1);
    let head = &mut out[0];
    head.sentences.extend(body.sentences);
    head.code.extend(body.code);
    head.hint = head.hint.or(Some(MemoryType::Decision));
}

fn attach_code(out: &mut [Fragment], section: &str, code: String, _line: usize) {
    if let Some(last) = out.last_mut()
        && last.section == section
    {
        last.code.push(code);
    }
    // Code with no prose before it in its section says nothing on its own.
}

fn fence_marker(trimmed: &str) -> Option<String> {
    for c in ['`', '~'] {
        let run = trimmed.chars().take_while(|&x| x == c).count();
        if run >= 3 {
            return Some(c.to_string().repeat(run));
        }
    }
    None
}

fn heading(trimmed: &str) -> Option<String> {
    let hashes = trimmed.chars().take_while(|&c| c == '#').count();
    if (1..=6).contains(&hashes) {
        let rest = &trimmed[hashes..];
        if rest.is_empty() || rest.starts_with(' ') {
            return Some(rest.trim().trim_end_matches('#').trim().to_owned());
        }
    }
    None
}

/// The text of a bullet or numbered item, without its marker.
fn bullet(trimmed: &str) -> Option<&str> {
    if let Some(rest) = trimmed.strip_prefix("- ") {
        return Some(
            rest.strip_prefix("[ ] ")
                .or_else(|| rest.strip_prefix("[x] "))
                .unwrap_or(rest),
        );
    }
    let digits = trimmed.chars().take_while(char::is_ascii_digit).count();
    if digits > 0 && digits <= 3 {
        let rest = &trimmed[digits..];
        if let Some(r) = rest.strip_prefix(". ").or_else(|| rest.strip_prefix(") ")) {
            return Some(r);
        }
    }
    None
}

fn flush(
    out: &mut Vec<Fragment>,
    block: &mut Vec<(usize, &str)>,
    section: &str,
    starts_topic: &dyn Fn(&str) -> bool,
) {
    if block.is_empty() {
        return;
    }
    // Group lines into the lead paragraph and the items.
    let mut lead: Vec<(usize, String)> = Vec::new();
    let mut items: Vec<(usize, String)> = Vec::new();
    let mut item_indent = None;
    for &(n, line) in block.iter() {
        let trimmed = line.trim_start();
        let indent = line.len() - trimmed.len();
        if let Some(text) = bullet(trimmed) {
            // Nested bullets continue their parent item.
            match item_indent {
                Some(base) if indent > base => {
                    if let Some(last) = items.last_mut() {
                        last.1.push(' ');
                        last.1.push_str(text);
                        continue;
                    }
                }
                _ => {}
            }
            item_indent = Some(indent);
            items.push((n, text.to_owned()));
        } else if let Some(last) = items.last_mut() {
            last.1.push(' ');
            last.1.push_str(trimmed);
        } else {
            lead.push((n, trimmed.to_owned()));
        }
    }
    block.clear();
    let mut lead_text = String::new();
    let mut starts: Vec<(usize, usize)> = Vec::new();
    for (n, t) in &lead {
        if !lead_text.is_empty() {
            lead_text.push(' ');
        }
        starts.push((lead_text.len(), *n));
        lead_text.push_str(t);
    }
    let context = (!items.is_empty() && lead_text.ends_with(':')).then(|| lead_text.clone());
    if context.is_none() && !lead.is_empty() {
        paragraph(out, section, &starts, &lead_text, starts_topic);
    }
    let section_hint = super::classify::heading_type(section);
    let hint = context
        .as_deref()
        .and_then(super::classify::heading_type)
        .or(section_hint);
    for (n, text) in items {
        let (prefix, rest) = type_prefix(&text);
        out.push(Fragment {
            section: section.to_owned(),
            line: n,
            sentences: sentences(rest),
            code: Vec::new(),
            context: context.clone(),
            prefix,
            hint,
        });
    }
}

/// Splits a paragraph into topic fragments.
fn paragraph(
    out: &mut Vec<Fragment>,
    section: &str,
    starts: &[(usize, usize)],
    text: &str,
    starts_topic: &dyn Fn(&str) -> bool,
) {
    let hint = super::classify::heading_type(section);
    let mut current: Option<Fragment> = None;
    for (offset, sentence) in sentences_at(text) {
        let line = starts
            .iter()
            .take_while(|(o, _)| *o <= offset)
            .last()
            .map_or(0, |(_, n)| *n);
        let (prefix, rest) = type_prefix(&sentence);
        // Chatter and action logs stand alone, so they are rejected on
        // their own instead of diluting the knowledge next to them.
        let noise = super::detect::is_noise(rest);
        let after_noise = current
            .as_ref()
            .is_some_and(|f| f.sentences.iter().all(|s| super::detect::is_noise(s)));
        let continues = prefix.is_none()
            && !noise
            && !after_noise
            && current.is_some()
            && (is_continuation(rest) || !starts_topic(rest));
        if continues {
            if let Some(f) = current.as_mut() {
                f.sentences.push(rest.to_owned());
            }
            continue;
        }
        if let Some(f) = current.take() {
            out.push(f);
        }
        current = Some(Fragment {
            section: section.to_owned(),
            line,
            sentences: vec![rest.to_owned()],
            code: Vec::new(),
            context: None,
            prefix,
            hint,
        });
    }
    if let Some(f) = current {
        out.push(f);
    }
}

fn is_continuation(sentence: &str) -> bool {
    let lower = sentence.to_lowercase();
    CONTINUATION_OPENERS.iter().any(|o| {
        lower
            .strip_prefix(o)
            .is_some_and(|rest| rest.is_empty() || rest.starts_with([' ', ',', ':']))
    })
}

/// An explicit type prefix: `Decision:`, `**Gotcha**:`, `Convention -`.
pub fn type_prefix(text: &str) -> (Option<MemoryType>, &str) {
    let stripped = text.trim_start_matches(['*', '_', '[']);
    let word_len = stripped
        .find(|c: char| !c.is_ascii_alphabetic())
        .unwrap_or(stripped.len());
    let word = stripped[..word_len].to_ascii_lowercase();
    let kind = match word.as_str() {
        "decision" | "decided" => MemoryType::Decision,
        "gotcha" | "pitfall" | "caveat" | "warning" => MemoryType::Gotcha,
        "convention" | "rule" => MemoryType::Convention,
        "pattern" => MemoryType::Pattern,
        "goal" => MemoryType::Goal,
        "working" | "wip" => MemoryType::Working,
        _ => return (None, text),
    };
    let after = stripped[word_len..].trim_start_matches(['*', '_', ']']);
    let after = after.trim_start();
    let Some(rest) = after
        .strip_prefix(':')
        .or_else(|| after.strip_prefix(" -"))
        .or_else(|| after.strip_prefix('-'))
        .or_else(|| after.strip_prefix('—'))
    else {
        return (None, text);
    };
    let rest = rest.trim_start_matches(['*', '_']).trim();
    if rest.is_empty() {
        return (None, text);
    }
    (Some(kind), rest)
}

/// Abbreviations that end in a period without ending a sentence.
const ABBREVIATIONS: &[&str] = &[
    "e.g.", "i.e.", "etc.", "vs.", "approx.", "cf.", "no.", "fig.",
];

/// Splits text into sentences at `.`, `!` or `?` followed by a space and a
/// capital letter, digit, quote or backtick. Periods inside file names,
/// versions and abbreviations do not split.
pub fn sentences(text: &str) -> Vec<String> {
    sentences_at(text).into_iter().map(|(_, s)| s).collect()
}

/// [`sentences`] with the byte offset where each starts.
pub fn sentences_at(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut start = 0;
    let bytes = text.as_bytes();
    let mut in_code = false;
    for (i, c) in text.char_indices() {
        if c == '`' {
            in_code = !in_code;
        }
        if in_code || !matches!(c, '.' | '!' | '?') {
            continue;
        }
        let next = i + 1;
        if next >= bytes.len() || bytes[next] != b' ' {
            continue;
        }
        let after = text[next..].trim_start();
        let Some(first) = after.chars().next() else {
            continue;
        };
        if !(first.is_uppercase()
            || first.is_ascii_digit()
            || matches!(first, '`' | '"' | '\'' | '(' | '*'))
        {
            continue;
        }
        let candidate = text[start..next].trim();
        let lower = candidate.to_lowercase();
        if ABBREVIATIONS.iter().any(|a| lower.ends_with(a)) {
            continue;
        }
        if !candidate.is_empty() {
            let lead = text[start..].len() - text[start..].trim_start().len();
            out.push((start + lead, candidate.to_owned()));
        }
        start = next;
    }
    let rest = text[start..].trim();
    if !rest.is_empty() {
        let lead = text[start..].len() - text[start..].trim_start().len();
        out.push((start + lead, rest.to_owned()));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(_: &str) -> bool {
        true
    }

    #[test]
    fn sentences_split_on_ends_not_on_file_names_or_abbreviations() {
        assert_eq!(
            sentences("Use `config.yaml` for this, e.g. Redis. Version 1.2 works! Why? Because."),
            vec![
                "Use `config.yaml` for this, e.g. Redis.",
                "Version 1.2 works!",
                "Why?",
                "Because."
            ]
        );
        assert_eq!(sentences("a; b; c"), vec!["a; b; c"]);
    }

    #[test]
    fn prefixes_name_the_type() {
        assert_eq!(
            type_prefix("**Gotcha:** webhooks arrive twice"),
            (Some(MemoryType::Gotcha), "webhooks arrive twice")
        );
        assert_eq!(
            type_prefix("Decision - use Postgres"),
            (Some(MemoryType::Decision), "use Postgres")
        );
        assert_eq!(
            type_prefix("Decisions were made"),
            (None, "Decisions were made")
        );
    }

    #[test]
    fn bullets_lead_ins_code_and_metadata_sections() {
        let text = "## Notes\nThings we learned:\n- Gotcha: the cache key\n  ignores the locale.\n- Always run `make gen`.\n```sh\n# not a heading\nmake gen\n```\n\n## Changed files\n- src/a.rs\n";
        let f = fragments(text, &all);
        assert_eq!(f.len(), 2, "{f:#?}");
        assert_eq!(f[0].prefix, Some(MemoryType::Gotcha));
        assert_eq!(f[0].sentences, vec!["the cache key ignores the locale."]);
        assert_eq!(f[0].context.as_deref(), Some("Things we learned:"));
        assert_eq!(f[0].line, 3);
        assert_eq!(f[1].code, vec!["```sh\n# not a heading\nmake gen\n```"]);
        assert_eq!(f[1].section, "Notes");
    }

    #[test]
    fn a_commit_subject_that_states_a_choice_takes_the_body_as_its_reasons() {
        let cases: &[(&str, bool)] = &[
            (
                "Use ULIDs for new order ids\n\nUUIDv4 keys spread inserts all over the btree.\n\nCloses #12.\n",
                true,
            ),
            (
                "ledger: replace gorm with sqlc\n\nWe want the SQL for money movements reviewable.\n",
                true,
            ),
            (
                "Move to timestamp-prefixed migrations\n\nTwo people picked 0043.\n",
                true,
            ),
            // A fix, or no blank line after the subject: no decision.
            (
                "Fix use-after-free in ConnectionPool::release\n\nThe lambda ran after the pool was gone.\n",
                false,
            ),
            (
                "Use ULIDs for new order ids\nUUIDv4 keys spread inserts.\n",
                false,
            ),
            // A sentence ending in a period is prose, not a subject.
            ("Use the staging bucket.\n\nIt is cheaper.\n", false),
        ];
        for (text, merged) in cases {
            let f = fragments(text, &all);
            assert_eq!(
                f[0].hint == Some(MemoryType::Decision) && f[0].sentences.len() >= 2,
                *merged,
                "{text}: {f:#?}"
            );
        }
    }

    #[test]
    fn paragraphs_regroup_explanations_with_their_topic() {
        let text = "We chose Postgres over Mongo. Because joins matter. Never edit migrations after merge.";
        let f = fragments(text, &|s: &str| !s.starts_with("Because"));
        assert_eq!(f.len(), 2);
        assert_eq!(
            f[0].sentences,
            vec!["We chose Postgres over Mongo.", "Because joins matter."]
        );
        assert_eq!(f[1].sentences, vec!["Never edit migrations after merge."]);
    }
}
