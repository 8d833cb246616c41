//! Rule files (AGENTS.md, CLAUDE.md, `.cursorrules`, `.mdc`, Copilot
//! instructions) to drafts: one per rule.
//!
//! A section is cut into **units**, each one memory:
//!
//! * a bullet list of independent rules gives one unit per bullet (a list
//!   right under a heading, or under a label such as `**Key rules:**`);
//! * a list that completes the sentence before it ("Do NOT comment on:"),
//!   a numbered procedure, a catalogue of short entries (`` `testing.gn` -
//!   Debug builds ``) and a table stay whole, with the sentence that leads
//!   into them;
//! * each paragraph is a unit; a code block belongs to the text before it;
//!   fragments too short to stand alone join their neighbour;
//! * examples ("For example:", "**Examples:**" and the table or list after
//!   them) belong to the rule before them;
//! * a section that holds one unit is one memory titled by its heading.
//!
//! A unit's **title** is its rule's first sentence, ended at a phrase
//! boundary (a comma, a conjunction, a preposition, never inside code or
//! parentheses) when it is long; a section that is one unit, or a unit with
//! no prose (a heading over a code block), takes its heading. Its summary is
//! its first sentences; its detail its whole text, code intact. Its **tags**
//! are the headings above it; its **type** comes from the headings or its
//! words (`convention` by default: rule files state how work is done here;
//! a description under an overview heading, "Project overview" or
//! "Repository structure", is a `pattern` of low importance: context for the
//! rules beside it, not a rule); `ALWAYS` / `NEVER` / `MUST` raise its
//! importance. Its **scope** is the
//! paths its own text names ([`super::complete::scope`]: checked against the
//! repository's tracked files when they are known), plus a Cursor rule's
//! `globs`, plus the directory of a nested `AGENTS.md` / `CLAUDE.md` /
//! `GEMINI.md` (`cpp/AGENTS.md` speaks for `cpp/**`). Each unit carries a **span key** (file and a hash of its text),
//! so importing an unchanged file again writes nothing, also once its
//! candidates were merged into other memories.

use super::markdown::{Item, ItemKind, RuleFile, Section};
use super::{Draft, Extracted, RejectReason, Rejected, classify, complete, excerpt};
use crate::model::{Importance, MemoryType, Risk};
use crate::review::text::find_phrases;

/// Longest title of a rule, in characters.
pub const MAX_RULE_TITLE: usize = 100;
/// Paragraphs of one section stay in one memory up to this many characters.
const PARAGRAPHS_TOGETHER: usize = 700;

/// Words that make a rule matter more when written in capitals.
const EMPHASIS: &[&str] = &[
    "ALWAYS",
    "NEVER",
    "MUST",
    "CRITICAL",
    "IMPORTANT",
    "REQUIRED",
    "DO NOT",
    "DON'T",
];

/// The repository's tracked files, when known, for checking scopes.
pub type Tree<'a> = Option<&'a [String]>;

/// One memory's worth of a section.
#[derive(Clone, Debug)]
struct Unit {
    /// Markdown text, code intact.
    text: String,
    /// 1-based line where it starts.
    line: usize,
    /// A label it was listed under (`Key rules`), shown in its tags.
    label: Option<String>,
    /// Paragraphs, which may join the paragraphs next to them; a rule of a
    /// list or a whole list, table or code block never does.
    prose: bool,
    /// A whole list, table or code block (several items, or no prose of its
    /// own): titled by its heading when it is all its section holds.
    block: bool,
}

/// Drafts for every rule of `file` (named `file_name`); fragments with too
/// little to say are rejected with a reason.
pub fn drafts(file: &RuleFile, file_name: &str, tree: Tree<'_>) -> (Vec<Extracted>, Vec<Rejected>) {
    let mut out = Vec::new();
    let mut rejected = Vec::new();
    for (i, section) in file.sections.iter().enumerate() {
        // A Cursor rule file is a rule by definition: it has no introduction.
        if i == 0
            && file.format != super::markdown::RuleFormat::CursorMdc
            && section.headings.len() <= 1
            && is_intro(&section.body)
        {
            rejected.push(Rejected {
                line: section.line,
                excerpt: excerpt(&section.body),
                reason: RejectReason::WeakTypeSignal,
                detail: Some("an introduction, not a rule".to_owned()),
            });
            continue;
        }
        let units = units(section);
        let whole = units.len() == 1;
        let last = units.len().saturating_sub(1);
        let last_section = i + 1 == file.sections.len();
        for (u, unit) in units.into_iter().enumerate() {
            // The opening lines of a file without headings ("You are an
            // expert in …") introduce it; under a heading they may well be
            // the first rule. The file's closing words about itself
            // ("Following these rules ensures clean code. 🚀") sum it up.
            let introduces = i == 0
                && u == 0
                && ((!whole && section.headings.is_empty() && is_intro(&unit.text))
                    || (section.headings.len() <= 1 && describes_file(&unit.text)));
            let closes = last_section && u == last && describes_file(&unit.text);
            if introduces || closes {
                let what = if introduces {
                    "an introduction, not a rule"
                } else {
                    "a closing remark about the file, not a rule"
                };
                rejected.push(Rejected {
                    line: unit.line,
                    excerpt: excerpt(&unit.text),
                    reason: RejectReason::WeakTypeSignal,
                    detail: Some(what.to_owned()),
                });
                continue;
            }
            match draft(section, &unit, whole, file, file_name, tree) {
                Ok(d) => out.push(d),
                Err(reason) => rejected.push(Rejected {
                    line: unit.line,
                    excerpt: excerpt(&unit.text),
                    reason,
                    detail: None,
                }),
            }
        }
    }
    (out, rejected)
}

/// Words of prose (code left out) in a text.
fn prose_words(text: &str) -> usize {
    crate::review::text::words(&plain_links(&strip_code(text))).len()
}

/// A paragraph that leads into what follows: it ends with a colon.
fn is_lead_in(item: &Item) -> bool {
    item.kind == ItemKind::Paragraph && strip_code(&item.text).trim_end().ends_with(':')
}

/// A lead-in to examples of what was said before it ("For example:",
/// "**Examples:**", "e.g.:").
fn is_example_lead(item: &Item) -> bool {
    let raw = strip_code(&item.text);
    let label = raw
        .trim()
        .trim_end_matches(':')
        .trim_matches('*')
        .trim()
        .trim_end_matches(':');
    item.kind == ItemKind::Paragraph && super::markdown::announces_examples(label)
}

/// A lead-in that only labels the list ("Key rules:", "**Examples:**"),
/// rather than a sentence the items complete ("Do NOT comment on:", "Use
/// one of:").
fn is_label(item: &Item) -> bool {
    let raw = strip_code(&item.text);
    let raw = raw.trim().trim_end_matches(':').trim();
    let bold = raw.starts_with("**") && raw.ends_with("**");
    let t = raw.trim_matches('*').trim();
    let words: Vec<String> = t.split_whitespace().map(str::to_lowercase).collect();
    let sentence = words
        .first()
        .is_some_and(|w| LEAD_VERBS.contains(&w.as_str()))
        || words
            .last()
            .is_some_and(|w| FUNCTION_WORDS.contains(&w.as_str()));
    !t.is_empty() && !sentence && (bold || words.len() <= 3)
}

/// Words that open a sentence the list completes ("Do not …:", "Use …:").
const LEAD_VERBS: &[&str] = &[
    "do", "don't", "never", "always", "avoid", "use", "make", "run", "prefer", "please", "you",
    "we", "it", "this", "these", "follow", "check", "ensure", "add", "see", "include",
];

/// Words a phrase does not end on.
const FUNCTION_WORDS: &[&str] = &[
    "a", "an", "the", "and", "or", "but", "to", "for", "with", "of", "in", "on", "at", "by",
    "from", "as", "into", "onto", "about", "before", "after", "when", "if", "that", "which", "any",
    "all", "some", "is", "are", "be", "than", "then", "so", "its", "their", "your", "our", "not",
    "no", "via", "per", "like", "such", "while", "unless", "until", "over", "under",
];

/// A bullet that states a rule of its own: a sentence of some length, not a
/// catalogue entry (`` `testing.gn` - Debug/testing builds ``).
fn is_rule_item(item: &Item) -> bool {
    // A link's target is no word of the rule.
    let prose = plain_links(&strip_code(&item.text));
    let first_line = prose.lines().next().unwrap_or_default();
    // Also the first sentence across the source's hard line wraps
    // ("**Commit Messages:** Follow the\n[Conventional Commits](…)
    // standard.").
    let joined = prose.split_whitespace().collect::<Vec<_>>().join(" ");
    let first_sentence = joined
        .split_once(". ")
        .map_or(joined.as_str(), |(first, _)| first);
    [first_line, first_sentence].iter().any(|opening| {
        let words = crate::review::text::words(opening).len();
        let constraint = !find_phrases(opening, classify::CONSTRAINT).is_empty()
            || EMPHASIS.iter().any(|e| opening.contains(e));
        (words >= 7 && !is_catalogue_entry(opening)) || (constraint && words >= 4)
    })
}

/// Words that make a description an instruction ("`/src`: Use …").
const INSTRUCTING: &[&str] = &[
    "use", "run", "avoid", "prefer", "follow", "keep", "add", "ensure", "write", "include",
    "never", "always", "must", "should", "do", "don't", "make", "check", "put", "call",
];

/// A catalogue entry: a name (code, bold or a short label) with a
/// description that instructs nothing: `` `/src`: Main source code for all
/// packages``, `**Testing:** Vitest`.
fn is_catalogue_entry(line: &str) -> bool {
    static BINDING: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    let t = line.trim();
    let after_label = if let Some(rest) = t.strip_prefix('`') {
        rest.split_once('`').map(|(_, r)| r)
    } else if let Some(rest) = t.strip_prefix("**") {
        rest.split_once("**").map(|(_, r)| r)
    } else {
        t.split_once(": ")
            .filter(|(label, _)| label.split_whitespace().count() <= 3)
            .map(|(_, r)| r)
    };
    let Some(rest) = after_label else {
        return false;
    };
    let rest = rest.trim_start_matches([':', ' ', '-', '—', '–', '*']);
    let first = rest
        .split_whitespace()
        .next()
        .unwrap_or_default()
        .to_lowercase();
    let lower = rest.to_lowercase();
    // "For new files, include the licence header": an instruction after a
    // leading phrase.
    let instructs_later = lower.split(',').skip(1).any(|clause| {
        clause
            .split_whitespace()
            .next()
            .is_some_and(|w| INSTRUCTING.contains(&w))
    });
    let binding = BINDING.get_or_init(|| {
        OBLIGING
            .iter()
            .map(|w| crate::review::text::words(w).concat())
            .collect()
    });
    !rest.is_empty()
        && !instructs_later
        && !INSTRUCTING.contains(&first.as_str())
        && crate::review::text::words(&lower)
            .iter()
            .all(|w| !binding.contains(w))
}

/// Words that make a description bind ("**Public API**: changes to the wire
/// protocol require a KIP", "**Checkstyle**: enforced on main and test
/// sources"), where a catalogue's descriptions only say what a thing is.
const OBLIGING: &[&str] = &[
    "never",
    "always",
    "must",
    "should",
    "not",
    "require",
    "requires",
    "required",
    "enforced",
    "avoid",
    "forbidden",
    "mandatory",
];

/// Whether a run of list items are independent rules, each a memory.
fn independent(run: &[&Item]) -> bool {
    if run.len() < 2 {
        return false;
    }
    let rules = run.iter().filter(|i| is_rule_item(i)).count();
    let numbered = run.iter().all(|i| i.kind == ItemKind::Numbered);
    if numbered {
        // A numbered list is a procedure unless every step is a rule.
        return run.iter().all(|i| {
            let p = strip_code(&i.text);
            !find_phrases(&p, classify::CONSTRAINT).is_empty()
                || EMPHASIS.iter().any(|e| p.contains(e))
        });
    }
    rules * 3 >= run.len() * 2
}

/// The items of a unit as one text, list markers back in place: a numbered
/// list counts its steps ("1.", "2.", …), as the agent reads it as text.
fn join(items: &[&Item]) -> String {
    let mut step = 0;
    items
        .iter()
        .map(|i| match i.kind {
            ItemKind::Bullet => format!("- {}", i.text.replace('\n', "\n  ")),
            ItemKind::Numbered => {
                step += 1;
                let marker = format!("{step}. ");
                let indent = format!("\n{}", " ".repeat(marker.len()));
                format!("{marker}{}", i.text.replace('\n', &indent))
            }
            _ => {
                step = 0;
                i.text.clone()
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Cuts a section into units (see the module documentation).
#[allow(clippy::too_many_lines, reason = "one pass over a section's blocks")]
fn units(section: &Section) -> Vec<Unit> {
    let items: Vec<&Item> = section.items.iter().collect();
    let mut out: Vec<Unit> = Vec::new();
    let mut i = 0;
    while i < items.len() {
        let item = items[i];
        let list_kind = |k: ItemKind| matches!(k, ItemKind::Bullet | ItemKind::Numbered);
        // A lead-in and the list, table or code it introduces; or a short
        // label on the line right above a list ("Performance Optimization"
        // over its bullets, no colon): never a fragment of the rule before.
        let labels_next = items.get(i + 1).is_some_and(|n| {
            list_kind(n.kind)
                && n.line == item.line + 1
                && item.kind == ItemKind::Paragraph
                && !item.text.contains('\n')
                && is_label(item)
                && {
                    let bare = strip_code(&item.text);
                    let bare = bare.trim().trim_matches('*').trim();
                    !bare.ends_with(['.', '!', '?', ';']) && bare.split_whitespace().count() <= 4
                }
        });
        if (is_lead_in(item) || labels_next || is_example_lead(item))
            && items
                .get(i + 1)
                .is_some_and(|n| n.kind != ItemKind::Paragraph)
        {
            let mut j = i + 1;
            while j < items.len() && items[j].kind != ItemKind::Paragraph {
                j += 1;
            }
            let run: Vec<&Item> = items[i + 1..j].to_vec();
            let all_list = run.iter().all(|r| list_kind(r.kind));
            // "For example:" and its table or list show the rule before
            // them; they are no rule of their own.
            if is_example_lead(item)
                && let Some(rule) = out.last_mut()
            {
                let mut all = vec![item];
                all.extend(run);
                rule.text = format!("{}\n\n{}", rule.text, join(&all));
                rule.prose = false;
                i = j;
                continue;
            }
            if all_list && is_label(item) && independent(&run) {
                let label = strip_code(&item.text)
                    .trim()
                    .trim_end_matches(':')
                    .trim_matches('*')
                    .trim()
                    .to_owned();
                for r in run {
                    out.push(Unit {
                        text: r.text.clone(),
                        line: r.line,
                        label: Some(label.clone()),
                        prose: false,
                        block: false,
                    });
                }
            } else {
                let mut all = vec![item];
                all.extend(run);
                out.push(Unit {
                    text: join(&all),
                    line: item.line,
                    label: None,
                    prose: false,
                    block: true,
                });
            }
            i = j;
            continue;
        }
        if list_kind(item.kind) {
            let mut j = i;
            while j < items.len() && items[j].kind == item.kind {
                j += 1;
            }
            let run: Vec<&Item> = items[i..j].to_vec();
            if independent(&run) || run.len() == 1 {
                for r in run {
                    out.push(Unit {
                        text: r.text.clone(),
                        line: r.line,
                        label: None,
                        prose: false,
                        block: false,
                    });
                }
            } else {
                out.push(Unit {
                    text: join(&run),
                    line: item.line,
                    label: None,
                    prose: false,
                    block: true,
                });
            }
            i = j;
            continue;
        }
        if item.kind == ItemKind::Code
            && let Some(last) = out.last_mut()
        {
            last.text.push_str("\n\n");
            last.text.push_str(&item.text);
            i += 1;
            continue;
        }
        out.push(Unit {
            text: item.text.clone(),
            line: item.line,
            label: None,
            prose: item.kind == ItemKind::Paragraph,
            block: matches!(item.kind, ItemKind::Table | ItemKind::Code),
        });
        i += 1;
    }
    // Fragments too short to stand alone join the unit before them (or the
    // one after, at the start); paragraphs of one explanation stay together
    // up to a size an agent reads at a glance.
    let mut merged: Vec<Unit> = Vec::new();
    let mut pending: Option<Unit> = None;
    let mut last_was_prose = false;
    for mut u in out {
        if let Some(p) = pending.take() {
            u.text = format!("{}\n\n{}", p.text, u.text);
            u.line = p.line;
        }
        let prose = u.prose;
        let short = (prose_words(&u.text) < 5 || names_only(&u.text)) && u.label.is_none();
        let joins = (last_was_prose
            && prose
            && merged.last().is_some_and(|l: &Unit| {
                l.text.chars().count() + u.text.chars().count() <= PARAGRAPHS_TOGETHER
            }))
            // "NOTE: These suites are gitignored; use `rg --no-ignore`"
            // after the list of suites: about what the unit before names.
            || (prose
                && refers_back(&u.text)
                && merged.last().is_some_and(|l: &Unit| {
                    l.label.is_none()
                        && (l.block || l.prose)
                        && l.text.chars().count() + u.text.chars().count()
                            <= 2 * PARAGRAPHS_TOGETHER
                }));
        if short || joins {
            if let Some(last) = merged.last_mut() {
                last.text.push_str("\n\n");
                last.text.push_str(&u.text);
            } else {
                pending = Some(u);
            }
            continue;
        }
        last_was_prose = prose;
        merged.push(u);
    }
    if let Some(p) = pending {
        merged.push(p);
    }
    merged
}

/// Whether a paragraph opens by pointing back at what came before it
/// ("These suites are …", "NOTE: They run …"), not at a thing it names.
fn refers_back(text: &str) -> bool {
    let plain = strip_code(text);
    let mut words = plain
        .split_whitespace()
        .map(|w| w.trim_matches(|c: char| !c.is_alphanumeric()))
        .filter(|w| !w.is_empty());
    let mut first = words.next().unwrap_or_default();
    if matches!(
        first.to_lowercase().as_str(),
        "note" | "nb" | "important" | "warning"
    ) {
        first = words.next().unwrap_or_default();
    }
    matches!(first, "These" | "Those" | "They" | "Such")
}

/// A list that only names things, each item a code span, a link or a
/// path (`` - `lib/server.rb` ``): what the text before it describes, no
/// rule of its own. One item is enough when it is an address
/// (`- https://meta.example.org/t/service-objects`) or a link: a reference
/// for the rule before it.
fn names_only(text: &str) -> bool {
    let mut items = 0;
    let mut addresses = 0;
    for line in text.lines().map(str::trim).filter(|l| !l.is_empty()) {
        // A list item split off its list keeps no marker.
        let item = match super::markdown::list_marker(line) {
            Some(m) => m.content.trim(),
            None if text.trim().lines().count() == 1 => line,
            None => return false,
        };
        let item = item.trim_end_matches([',', ';', '.']);
        let code = item.len() >= 2
            && item.starts_with('`')
            && item.ends_with('`')
            && !item[1..item.len() - 1].contains('`');
        let link = item.starts_with('[')
            && item.ends_with(')')
            && item.find("](").is_some_and(|at| !item[..at].contains(']'));
        let path = !item.contains(char::is_whitespace) && item.contains('/');
        if !(code || link || path) {
            return false;
        }
        items += 1;
        if link || (path && item.contains("://")) {
            addresses += 1;
        }
    }
    items >= 2 || (items == 1 && addresses == 1)
}

/// The heading path without a document title ("AGENTS.md", "Project Guide")
/// that only names the file.
fn headings(section: &Section) -> Vec<String> {
    let mut h: Vec<String> = section
        .headings
        .iter()
        .map(|h| {
            let h = h.replace(['*', '`'], "");
            without_section_number(h.trim())
                .trim_end_matches(':')
                .trim()
                .to_owned()
        })
        .filter(|h| !h.is_empty())
        .collect();
    if h.len() > 1 {
        h.remove(0);
    }
    h
}

/// A heading without the number of its section ("2. Contribution
/// Requirements", "7.3 References", "1) Setup"): the number orders the
/// file, it names nothing. "2FA setup" and "3D assets" keep theirs.
fn without_section_number(heading: &str) -> &str {
    let digits = heading
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(heading.len());
    if digits == 0 || !heading.starts_with(|c: char| c.is_ascii_digit()) {
        return heading;
    }
    // A number is a section's when a dot or a parenthesis marks it ("2.",
    // "7.3", "1)"); "2024 roadmap" is a year.
    let paren = heading[digits..].strip_prefix(')');
    let marked = paren.is_some() || heading[..digits].contains('.');
    let rest = paren.unwrap_or(&heading[digits..]);
    let rest_trimmed = rest.trim_start();
    if marked && rest.len() > rest_trimmed.len() && rest_trimmed.starts_with(char::is_alphabetic) {
        rest_trimmed
    } else {
        heading
    }
}

#[allow(clippy::too_many_lines, reason = "one draft, field by field")]
fn draft(
    section: &Section,
    unit: &Unit,
    whole: bool,
    file: &RuleFile,
    file_name: &str,
    tree: Tree<'_>,
) -> Result<Extracted, RejectReason> {
    let prose = strip_code(&unit.text);
    // As `prose_words`, without stripping the code a second time.
    let words = crate::review::text::words(&plain_links(&prose)).len();
    let has_code = unit.text.contains("```") || unit.text.contains("~~~");
    // Link reference definitions (`[1]: https://…`) are where links point,
    // not rules.
    // So is a line of links within the file ("**Quick Navigation:**
    // [Testing](#testing) | [Docs](#docs)", "[⬆️ Back to top](#guide)").
    let only_link_targets = prose
        .lines()
        .filter(|l| !l.trim().is_empty())
        .all(|l| is_link_definition(l) || is_navigation(l));
    if unit.text.trim().is_empty()
        || (words < 4 && !has_code && !file.always_apply.unwrap_or(false))
        || (only_link_targets && !has_code)
    {
        return Err(RejectReason::LowInformation);
    }
    let heads = headings(section);
    let from_heading = section
        .headings
        .iter()
        .rev()
        .find_map(|h| classify::heading_type(h));
    let class = classify::classify(&prose, None, None);
    let severe = !find_phrases(&prose, classify::SEVERE_RISK).is_empty();
    let emphatic = EMPHASIS.iter().any(|e| prose.contains(e))
        || heads.iter().any(|h| {
            h.to_lowercase().contains("critical") || h.to_lowercase().contains("important")
        });
    // A description of the project or its layout under an overview heading
    // is a pattern, and less important than the rules beside it; an
    // emphatic rule there ("NEVER commit `dist/`") is still a rule.
    let overview = !severe
        && !emphatic
        && section
            .headings
            .iter()
            .any(|h| classify::overview_heading(h));
    let kind = from_heading.unwrap_or(if class.score >= classify::MIN_TYPE_SCORE + 1.0 {
        class.kind
    } else if overview {
        MemoryType::Pattern
    } else {
        MemoryType::Convention
    });
    let heading_title = heads
        .iter()
        .rev()
        .take(2)
        .rev()
        .cloned()
        .collect::<Vec<_>>()
        .join(" / ");
    let base = file_name.rsplit('/').next().unwrap_or(file_name);
    let flat = prose.split_whitespace().collect::<Vec<_>>().join(" ");
    let sentences = super::chunk::sentences(&flat);
    // A heading that only names a kind ("Gotchas", "Architecture
    // decisions") says less than the rule's own first sentence.
    let names_kind = section
        .headings
        .last()
        .is_some_and(|h| classify::heading_type(h).is_some());
    // A section that is one rule is titled by the rule; one that is a whole
    // list, table or code block, or several paragraphs, by its heading.
    let several = unit.block || super::chunk::sentences(&flat).len() > 2;
    // A code block with a line of prose beside it ("More commands can be
    // found in `justfile`") is the code's section, titled by its heading.
    let code_heavy = has_code && words <= 12 && unit.text.len() > 3 * prose.trim().len();
    let title = if whole && (several || code_heavy) && !heading_title.is_empty() && !names_kind {
        heading_title.clone()
    } else {
        match title_source(&prose).and_then(|t| rule_title(&t)) {
            Some(t) => t,
            None if !heading_title.is_empty() => heading_title.clone(),
            None => match rule_title(&flat) {
                Some(t) => t,
                None => file
                    .description
                    .clone()
                    .unwrap_or_else(|| format!("Rules in {base}")),
            },
        }
    };
    let mut summary = complete::summary(&sentences);
    if summary.is_empty() {
        summary = if heading_title.is_empty() {
            format!("{title} ({base})")
        } else {
            format!("{heading_title} ({base})")
        };
    }
    let mut paths = complete::scope(&prose, &[], tree);
    paths.extend(file.front_matter_globs.iter().map(|g| rule_glob(g)));
    paths.extend(nested_scope(file_name));
    paths.sort();
    paths.dedup();
    let modules = complete::declared_modules(&prose);
    let mut tags: Vec<String> = heads
        .iter()
        .chain(unit.label.iter())
        .map(|h| slug(h))
        .filter(|t| !t.is_empty() && t.len() <= 40)
        .collect();
    tags.extend(complete::tags(&paths, &modules));
    tags.retain(|t| t.len() <= 40);
    tags.dedup();
    let quality = 50 + u32::try_from(words.min(40)).unwrap_or(0);
    // A rule cut out of a longer section keeps the headings it was under:
    // they often state the rule ("CRITICAL: Do NOT use …").
    let mut context: Vec<String> = heads.clone();
    context.extend(unit.label.iter().cloned());
    let detail = if whole || context.is_empty() {
        unit.text.clone()
    } else {
        format!("Section: {}\n\n{}", context.join(" › "), unit.text)
    };
    Ok(Extracted {
        draft: Draft {
            kind,
            title,
            summary,
            detail,
            paths,
            modules,
            tags,
            // Cursor's `alwaysApply: true` asks for the rule in every session.
            importance: if severe || emphatic || file.always_apply == Some(true) {
                Importance::High
            } else if overview {
                Importance::Low
            } else {
                Importance::Medium
            },
            risk: if severe { Risk::High } else { Risk::Low },
        },
        line: unit.line,
        quality: quality.min(100),
        span: Some(span_key(file_name, &unit.text)),
        section: Some(section_key(file_name, &section.headings)),
    })
}

/// A rule file's glob as a scope: as in `.gitignore` and Cursor's rules, a
/// pattern without a `/` matches at any depth (`*.rs` is `**/*.rs`) and one
/// ending in `/` is a directory (`rust/` is `rust/**`).
pub fn rule_glob(glob: &str) -> String {
    let g = glob.trim().trim_start_matches("./");
    if let Some(dir) = g.strip_suffix('/') {
        let dir = dir.trim_start_matches('/');
        return if dir.contains('/') || dir.contains('*') {
            format!("{dir}/**")
        } else {
            format!("**/{dir}/**")
        };
    }
    if g.contains('/') {
        g.trim_start_matches('/').to_owned()
    } else {
        format!("**/{g}")
    }
}

/// `path#hash` of a unit's text (whitespace collapsed): what a re-import
/// recognises.
pub fn span_key(file_name: &str, text: &str) -> String {
    let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
    let hash = blake3::hash(flat.as_bytes()).to_hex();
    format!("{file_name}#{}", &hash.as_str()[..16])
}

/// `path#Heading / Subheading`: the section of a rule file a unit sits in
/// (`path#` before the first heading).
pub fn section_key(file_name: &str, headings: &[String]) -> String {
    format!("{file_name}#{}", headings.join(" / "))
}

/// A heading as a tag: lowercase words joined by `-`.
fn slug(text: &str) -> String {
    text.to_lowercase()
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect::<Vec<_>>()
        .join("-")
}

/// Phrase boundaries a long title may end before (the boundary itself is
/// left out), in order of preference.
const BOUNDARIES: &[&str] = &[
    "; ",
    " — ",
    " – ",
    " - ",
    ": ",
    ", ",
    " (",
    " because ",
    " unless ",
    " when ",
    " if ",
    " so that ",
    " before ",
    " after ",
    " until ",
    " whenever ",
    " without ",
    " rather than ",
    " instead of ",
    " and ",
    " or ",
    " but ",
    " which ",
    " since ",
    " as ",
    " so ",
    " to ",
    " for ",
    " with ",
    " in ",
    " on ",
    " by ",
    " from ",
    " over ",
    " of ",
];

/// The directory a nested agent file speaks for: `cpp/AGENTS.md` holds the
/// rules of `cpp/**`, as agents read it (the nearest `AGENTS.md`,
/// `CLAUDE.md` or `GEMINI.md` applies to the files under it). A file at
/// the root, or in a dot-directory (`.github/`, `.cursor/`), holds the
/// whole repository's rules.
fn nested_scope(file_name: &str) -> Option<String> {
    let (dir, name) = file_name.rsplit_once('/')?;
    let agent_file =
        ["agents.md", "claude.md", "gemini.md"].contains(&name.to_lowercase().as_str());
    (agent_file && !dir.is_empty() && !dir.split('/').any(|d| d.starts_with('.')))
        .then(|| format!("{dir}/**"))
}

/// The title of one rule: its first sentence (a bold label kept as
/// `Label: …`), ended at a phrase boundary when longer than
/// [`MAX_RULE_TITLE`]; `None` for text with no words.
pub fn rule_title(prose: &str) -> Option<String> {
    let text = without_list_marker(prose.trim());
    // "NOTE: These suites are gitignored": the word says nothing of the rule.
    let text = ["NOTE: ", "Note: ", "N.B. ", "NB: "]
        .iter()
        .find_map(|p| text.strip_prefix(p))
        .unwrap_or(text);
    let text = without_shout(text);
    // `**Label:** rest` or `**Label** — rest`.
    let plain = plain_links(text);
    let text = plain.as_str();
    // A label that ends the phrase ("**Reviews:** Follow …", "**Tests** —
    // …") is kept as `Label: …`; one the sentence runs on from ("**Adding
    // RPC methods** requires …") stays in the sentence.
    let (label, rest, runs_on) = match text.strip_prefix("**").and_then(|t| t.split_once("**")) {
        Some((label, rest)) if label.chars().count() <= 40 => {
            let runs_on = !label.trim_end().ends_with(':')
                && rest.starts_with(' ')
                && rest.trim_start().starts_with(|c: char| c.is_lowercase());
            // "**Test retries** (optional): `-P…`": an aside after the label
            // belongs to it, not to the rule.
            let rest = rest.trim_start();
            let aside = rest
                .starts_with('(')
                .then(|| closing_paren(rest))
                .flatten()
                .filter(|&end| !rest[end + 1..].trim_start_matches([':', ' ']).is_empty());
            let rest = aside.map_or(rest, |end| &rest[end + 1..]);
            let rest = rest.trim_start_matches([':', ' ', '—', '–', '-']).trim();
            // "**2. Run focused tests:**": the step's number is no word of it.
            let label = without_list_marker(label.trim())
                .trim_end_matches(':')
                .trim();
            // "**Never use abbreviated variable names.** Use full …": a
            // label that is a sentence is the rule's title by itself.
            if let Some(sentence) = label.strip_suffix(['.', '!'])
                && crate::review::text::words(sentence).len() >= 3
            {
                return Some(cut_at_phrase(sentence.trim(), MAX_RULE_TITLE));
            }
            (Some(label), rest, runs_on)
        }
        _ => (None, text, false),
    };
    let rest = rest.replace("**", "").replace("__", "");
    let rest = without_list_marker(&rest);
    let first = super::chunk::sentences(rest)
        .into_iter()
        .next()
        .unwrap_or_default();
    let first = first.trim().trim_end_matches(['.', ':', ';', ',']).trim();
    let first = if first.is_empty() {
        label.unwrap_or_default()
    } else {
        first
    };
    if crate::review::text::words(first).is_empty() {
        return None;
    }
    let full = match label {
        Some(l) if !l.is_empty() && first != l && runs_on => format!("{l} {first}"),
        Some(l) if !l.is_empty() && first != l => format!("{l}: {first}"),
        _ => first.to_owned(),
    };
    Some(cut_at_phrase(&full, MAX_RULE_TITLE))
}

/// The rule without a shouted word or two it opens with ("MUST DO! Any
/// change …", "**IMPORTANT!** Run …"): the emphasis is kept in the text,
/// the title says what to do.
fn without_shout(text: &str) -> &str {
    let bare = text.strip_prefix("**").unwrap_or(text);
    let Some(end) = bare.find('!') else {
        return text;
    };
    let shout = &bare[..end];
    let words: Vec<&str> = shout.split_whitespace().collect();
    let rest = bare[end + 1..]
        .trim_start_matches("**")
        .trim_start_matches([':', ' ']);
    if (1..=3).contains(&words.len())
        && words
            .iter()
            .all(|w| w.chars().all(|c| c.is_ascii_uppercase()) && w.len() >= 2)
        && crate::review::text::words(rest).len() >= 3
    {
        rest
    } else {
        text
    }
}

/// A Markdown link reference definition: `[label]: target`.
fn is_link_definition(line: &str) -> bool {
    let l = line.trim();
    l.strip_prefix('[')
        .and_then(|r| r.split_once("]:"))
        .is_some_and(|(label, target)| {
            !label.is_empty()
                && target
                    .split_whitespace()
                    .next()
                    .is_some_and(|t| t.contains(['/', '.', '#']))
        })
}

/// A line of links to places in the same file, with at most a bold label
/// and separators between them: a table of contents, not a rule.
fn is_navigation(line: &str) -> bool {
    let mut rest = line.trim();
    if let Some(label) = rest.strip_prefix("**").and_then(|r| r.split_once("**")) {
        rest = label.1;
    }
    let mut anchors = 0;
    while let Some(at) = rest.find("](#") {
        let Some(open) = rest[..at].rfind('[') else {
            return false;
        };
        let Some(close) = rest[at..].find(')') else {
            return false;
        };
        if !rest[..open]
            .chars()
            .all(|c| c.is_whitespace() || "|·•-–—,/:".contains(c))
        {
            return false;
        }
        anchors += 1;
        rest = &rest[at + close + 1..];
    }
    anchors > 0
        && rest
            .chars()
            .all(|c| c.is_whitespace() || "|·•-–—,/".contains(c))
}

/// The text a rule's title is read from: its first block (up to a blank
/// line or a nested list), without blockquote markers, so that a rule
/// joined with a short one after it, or followed by its sub-items, is
/// titled by itself. A lead-in ending in a colon takes the first lines of
/// its list ("Use backticks for: user input, placeholders, …"). `None` when
/// the unit opens with a table, or with an entry of a few words that a list
/// goes on from (a list of links): the heading says more.
fn title_source(prose: &str) -> Option<String> {
    let lines: Vec<&str> = prose
        .lines()
        .map(|line| {
            let mut l = line.trim();
            while let Some(rest) = l.strip_prefix('>') {
                l = rest.trim_start();
            }
            l
        })
        .skip_while(|l| l.is_empty())
        .collect();
    if lines.first().is_some_and(|l| l.starts_with('|')) {
        return None;
    }
    let mut out: Vec<String> = Vec::new();
    let mut list_follows = false;
    for (k, l) in lines.iter().enumerate() {
        // A table or a code block after the lead-in is no part of its
        // sentence ("**Naming conventions** (enforced at compile time):"
        // over `| Parameter | Prefix |`).
        if k > 0 && (l.starts_with('|') || l.starts_with("```") || l.starts_with("~~~")) {
            break;
        }
        let item = k > 0 && super::markdown::list_marker(l).is_some();
        if l.is_empty() || item {
            let rest: Vec<&str> = lines[k..]
                .iter()
                .copied()
                .filter(|l| !l.is_empty())
                .collect();
            list_follows = rest
                .first()
                .is_some_and(|l| super::markdown::list_marker(l).is_some());
            if list_follows && out.last().is_some_and(|o| o.ends_with(':')) {
                let items: Vec<&str> = rest
                    .iter()
                    .map_while(|l| super::markdown::list_marker(l).map(|m| m.content))
                    // An item's own closing comma or semicolon is the join's.
                    .map(|c| c.trim_end_matches([',', ';']))
                    .filter(|c| !c.is_empty())
                    .take(4)
                    .collect();
                out.push(items.join(", "));
            }
            break;
        }
        out.push((*l).to_owned());
    }
    let first = out.join(" ");
    if crate::review::text::words(&first).len() >= 3 {
        Some(first)
    } else if list_follows {
        None
    } else {
        // A fragment ("Important:") opening a unit does not title it alone.
        Some(prose.split_whitespace().collect::<Vec<_>>().join(" "))
    }
}

/// Inline Markdown a title reads better without, outside code spans: a
/// link is its text (`[PSR-12](https://…)` and `[PSR-12][3]` are `PSR-12`),
/// and a GitHub alert marker (`[!IMPORTANT]`) is dropped.
fn plain_links(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(['`', '[']) {
        out.push_str(&rest[..at]);
        let tail = &rest[at..];
        if let Some(code) = tail.strip_prefix('`') {
            // A code span is copied as it is.
            let end = code.find('`').map_or(tail.len(), |e| e + 2);
            out.push_str(&tail[..end]);
            rest = &tail[end..];
            continue;
        }
        let Some(close) = tail.find(']') else {
            out.push_str(tail);
            return out;
        };
        let inner = &tail[1..close];
        let after = &tail[close + 1..];
        if inner.starts_with('!')
            && inner[1..].chars().all(|c| c.is_ascii_uppercase())
            && inner.len() > 1
        {
            rest = after.trim_start();
            continue;
        }
        let target_end = match after.chars().next() {
            Some('(') => after.find(')').map(|e| e + 1),
            Some('[') => after.find(']').map(|e| e + 1),
            _ => None,
        };
        match target_end {
            Some(e) if !inner.is_empty() && !inner.contains('[') => {
                out.push_str(inner);
                rest = &after[e..];
            }
            _ => {
                out.push('[');
                rest = &tail[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// `text` without the list markers it starts with (`- `, `* `, `1. `): a
/// rule kept with its list item's marker is titled by its words.
pub(crate) fn without_list_marker(text: &str) -> &str {
    let mut t = text.trim_start();
    while let Some(m) = super::markdown::list_marker(t).filter(|m| !m.content.is_empty()) {
        t = m.content;
    }
    t
}

/// `text` without its parenthetical asides outside code spans ("Ban
/// policy - contributors who submit low-quality (\"slop\") PRs"), when
/// three words or more are left; an aside that only names code stays.
fn without_asides(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    let mut code = false;
    while let Some(c) = rest.chars().next() {
        let len = c.len_utf8();
        if c == '`' {
            code = !code;
        }
        // An aside opens after a space, not a call's name, and closes in
        // the text; one that only names code (`src/parser/`) stays.
        let aside = (c == '(' && !code && out.ends_with(' '))
            .then(|| closing_paren(rest))
            .flatten()
            .filter(|&end| {
                let inner = rest[1..end].trim();
                !(inner.starts_with('`') && inner.ends_with('`') && inner.matches('`').count() == 2)
            });
        if let Some(end) = aside {
            rest = &rest[end + 1..];
            // "names (…), then" reads "names, then".
            if rest.starts_with([',', '.', ';', ':', ' ']) || rest.is_empty() {
                while out.ends_with(' ') {
                    out.pop();
                }
                if rest.starts_with(' ') {
                    out.push(' ');
                    rest = rest.trim_start();
                }
            }
            continue;
        }
        out.push(c);
        rest = &rest[len..];
    }
    if crate::review::text::words(&out).len() < 3 {
        text.to_owned()
    } else {
        out
    }
}

/// The byte offset of the `)` that closes the `(` opening `text`, counting
/// nested parentheses and skipping code spans.
fn closing_paren(text: &str) -> Option<usize> {
    let (mut depth, mut code) = (0usize, false);
    for (i, c) in text.char_indices() {
        match c {
            '`' => code = !code,
            '(' if !code => depth += 1,
            ')' if !code => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
    }
    None
}

/// How far past its limit a title may run to keep a code span whole.
const SPAN_SLACK: usize = 30;

/// `text` ended before the last phrase boundary within `max` characters,
/// outside code spans and parentheses; at a word when it has none.
pub fn cut_at_phrase(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_owned();
    }
    // An aside is the first thing a long title does without: "repeated
    // low-quality (\"slop\") PRs".
    let bare = without_asides(text);
    if bare != text {
        return cut_at_phrase(&bare, max);
    }
    let limit = text.char_indices().nth(max).map_or(text.len(), |(i, _)| i);
    // Byte offsets that are outside code spans and parentheses.
    let mut outside = vec![true; text.len() + 1];
    let (mut code, mut depth) = (false, 0i32);
    for (i, c) in text.char_indices() {
        match c {
            '`' => code = !code,
            '(' | '[' if !code => depth += 1,
            ')' | ']' if !code => depth -= 1,
            _ => {}
        }
        outside[i] = !code && depth <= 0;
    }
    let min = (max / 3).max(20);
    for b in BOUNDARIES {
        if let Some(at) = text[..limit]
            .match_indices(b)
            .map(|(i, _)| i)
            .filter(|&i| i >= min && outside[i])
            .last()
        {
            return text[..at].trim_end_matches([',', ';', ':', ' ']).to_owned();
        }
    }
    // A code span the limit falls in is kept whole when it closes soon
    // after ("… an example command is `maestro test .maestro/a/b.yaml`");
    // otherwise the cut is at the last space outside code.
    if text[..limit].matches('`').count() % 2 == 1
        && let Some(close) = text[limit..].find('`').map(|i| limit + i)
        && text[..=close].chars().count() <= max + SPAN_SLACK
    {
        return text[..=close].to_owned();
    }
    let cut = text[..limit]
        .char_indices()
        .rev()
        .find(|&(i, c)| c == ' ' && i >= min && outside[i])
        .map_or(limit, |(i, _)| i);
    // A phrase does not end on "before", "the" or "and".
    let mut head = text[..cut].trim_end_matches([',', ';', ':', ' ']);
    while let Some((rest, last)) = head.rsplit_once(' ') {
        if rest.len() < min || !FUNCTION_WORDS.contains(&last.to_lowercase().as_str()) {
            break;
        }
        head = rest.trim_end_matches([',', ';', ':', ' ']);
    }
    head.to_owned()
}

/// Whether a file's opening section only introduces it: no signal of any
/// type and no constraint wording.
fn is_intro(text: &str) -> bool {
    let prose = strip_code(text);
    classify::classify(&prose, None, None).score < classify::MIN_TYPE_SCORE
        && find_phrases(&prose, classify::CONSTRAINT).is_empty()
        && !EMPHASIS.iter().any(|e| prose.contains(e))
        && !instructs(&prose)
}

/// Whether a text only says what the file is or does ("This file provides
/// guidance to Claude Code when working with code in this repository. It
/// focuses on key conventions …", "Following these rules ensures clean
/// code."): it opens on the file, the document or its instructions, and
/// constrains nothing.
fn describes_file(text: &str) -> bool {
    const SELF: &[&str] = &[
        "this file",
        "this document",
        "this guide",
        "these instructions",
        "these guidelines",
        "following these",
        "by following these",
    ];
    let prose = strip_code(text);
    let opening = without_list_marker(prose.trim_start())
        .trim_start_matches(['*', '_', '>', ' '])
        .to_lowercase();
    SELF.iter().any(|s| opening.starts_with(s))
        && find_phrases(&prose, classify::CONSTRAINT).is_empty()
        && !EMPHASIS.iter().any(|e| prose.contains(e))
}

/// Whether a sentence of `prose` tells the reader to do something: it
/// opens with an instructing verb ("Use …", "Run …"), or its main clause
/// does after a condition ("When running tests, use …").
fn instructs(prose: &str) -> bool {
    let flat = prose.split_whitespace().collect::<Vec<_>>().join(" ");
    super::chunk::sentences(&flat).iter().any(|s| {
        let clauses = std::iter::once(s.as_str()).chain(s.split_once(", ").map(|(_, main)| main));
        clauses.into_iter().any(|c| {
            // A bullet's marker is not its first word.
            let first = without_list_marker(c)
                .split_whitespace()
                .next()
                .unwrap_or_default()
                .trim_matches(|ch: char| !ch.is_alphanumeric() && ch != '\'')
                .to_lowercase();
            INSTRUCTING.contains(&first.as_str())
        })
    })
}

/// The text without fenced code blocks.
fn strip_code(text: &str) -> String {
    let mut out = String::new();
    let mut fence: Option<char> = None;
    for line in text.lines() {
        let t = line.trim_start();
        let marker = t
            .chars()
            .next()
            .filter(|c| (*c == '`' || *c == '~') && t.starts_with(&c.to_string().repeat(3)));
        match (fence, marker) {
            (None, Some(c)) => fence = Some(c),
            (Some(f), Some(c)) if f == c => fence = None,
            (None, _) => {
                out.push_str(line);
                out.push('\n');
            }
            _ => {}
        }
    }
    out.trim_end().to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extract::markdown::{RuleFormat, parse};

    fn titles(text: &str, name: &str) -> Vec<String> {
        titles_and_details(text, name).0
    }

    /// The titles and the details of the drafts of a rule file's text.
    fn titles_and_details(text: &str, name: &str) -> (Vec<String>, Vec<String>) {
        let format = crate::extract::markdown::format_for(name).unwrap_or(RuleFormat::Markdown);
        let file = parse(text, format).unwrap();
        drafts(&file, name, None)
            .0
            .into_iter()
            .map(|d| (d.draft.title, d.draft.detail))
            .unzip()
    }

    #[test]
    fn titles_end_at_a_phrase_and_never_inside_code() {
        let cases: &[(&str, &str)] = &[
            (
                "NEVER update all dependencies in the lockfile and ALWAYS use `cargo update --precise` to make lockfile changes",
                "NEVER update all dependencies in the lockfile",
            ),
            (
                "**Imports:** Use specific imports and avoid restricted relative imports between packages (enforced by ESLint).",
                "Imports: Use specific imports and avoid restricted relative imports between packages",
            ),
            (
                "PREFER let chains (`if let` combined with `&&`) over nested `if let` statements",
                "PREFER let chains (`if let` combined with `&&`) over nested `if let` statements",
            ),
            (
                "Run `cargo xwin clippy --target x86_64-pc-windows-msvc --all-features --workspace --locked` before pushing any change that touches Windows code",
                "Run `cargo xwin clippy --target x86_64-pc-windows-msvc --all-features --workspace --locked`",
            ),
            // A rule kept with its list marker is titled by its words.
            (
                "- **Reviews:** Follow the checklist in `REVIEWING.md`. Two approvals are required.",
                "Reviews: Follow the checklist in `REVIEWING.md`",
            ),
            (
                "1. Run the linter before pushing",
                "Run the linter before pushing",
            ),
            ("* - Keep commits small", "Keep commits small"),
            // A link is its text; an alert marker is dropped; code stays.
            (
                "Follow [PSR-12](https://www.php-fig.org/psr/psr-12/) coding standard",
                "Follow PSR-12 coding standard",
            ),
            (
                "Shapes are immutable per subscription ([Electric][6]); use a factory",
                "Shapes are immutable per subscription (Electric); use a factory",
            ),
            (
                "[!IMPORTANT] This project does not accept fully AI-generated pull requests.",
                "This project does not accept fully AI-generated pull requests",
            ),
            (
                "Index with `items[0]` and see [the guide](docs/a.md)",
                "Index with `items[0]` and see the guide",
            ),
            // A label that is a sentence titles the rule alone; an aside
            // after a label is left out; "NOTE:" says nothing.
            (
                "**Never use abbreviated variable names.** Use full descriptive names:",
                "Never use abbreviated variable names",
            ),
            (
                "**Test retries** (optional): `-PmaxTestRetries=1`",
                "Test retries: `-PmaxTestRetries=1`",
            ),
            (
                "The `STP` SPI (`@_spi(STP)`) is used to expose APIs to other Stripe modules, never to external users of the SDK or any app",
                "The `STP` SPI (`@_spi(STP)`) is used to expose APIs to other Stripe modules",
            ),
            (
                "Use @frozen from posthog.dataclasses (not the stdlib one (it breaks slots)) for every new dataclass in the codebase today",
                "Use @frozen from posthog.dataclasses for every new dataclass in the codebase today",
            ),
            (
                "NOTE: These suites are gitignored, so a plain `rg` returns nothing.",
                "These suites are gitignored, so a plain `rg` returns nothing",
            ),
            // A long title drops its asides first, but not a call's
            // parentheses or an aside that names code.
            (
                "**Ban policy** - Contributors who submit repeated low-quality (\"slop\") PRs will be banned without prior warning.",
                "Ban policy: Contributors who submit repeated low-quality PRs will be banned without prior warning",
            ),
            (
                "Prefer simple conversions (see the guide): use \"text\".into() for spans and vec![…].into() for lines, and keep styles in one place",
                "Prefer simple conversions: use \"text\".into() for spans and vec![…].into() for lines",
            ),
            (
                "Parser (`src/parser/`): converts SQL text into a parse tree of statements, expressions and table references",
                "Parser (`src/parser/`): converts SQL text into a parse tree of statements",
            ),
            // A code span the limit falls in is kept whole, or left out.
            (
                "to run an individual test, an example command is `maestro test .maestro/autofill/1_autofill_shown_in_overflow.yaml`",
                "to run an individual test, an example command is `maestro test .maestro/autofill/1_autofill_shown_in_overflow.yaml`",
            ),
            (
                "To run one test in isolation, call the runner with the command `maestro test --include-tags=autofill,smoke --exclude-tags=flaky --device emulator-5554 .maestro/`",
                "To run one test in isolation, call the runner",
            ),
            // A step's number in bold is no sentence of its own.
            (
                "**2. Run focused tests with the matching mode script:** `pnpm test-dev-turbo test/path/to/test.ts`",
                "Run focused tests with the matching mode script: `pnpm test-dev-turbo test/path/to/test.ts`",
            ),
            (
                "**1. Start watch build:** keep `pnpm --filter=next dev` running",
                "Start watch build: keep `pnpm --filter=next dev` running",
            ),
            // A bold label the sentence runs on from stays in the sentence.
            (
                "**Adding new RPC methods** requires a handler in `src/core/controller/`",
                "Adding new RPC methods requires a handler in `src/core/controller/`",
            ),
            // A shouted word or two before the rule is no title.
            (
                "MUST DO! Any changes to database queries go in the `queries/*.sql` files.",
                "Any changes to database queries go in the `queries/*.sql` files",
            ),
            (
                "**IMPORTANT!** Run `make gen` after editing a query.",
                "Run `make gen` after editing a query",
            ),
            // A sentence that ends in "!" is the rule.
            (
                "Never push to main! Open a pull request.",
                "Never push to main!",
            ),
        ];
        for (text, want) in cases {
            let t = rule_title(text).unwrap();
            assert_eq!(t, *want, "{text}");
            assert!(t.chars().count() <= MAX_RULE_TITLE + 30);
        }
    }

    #[test]
    fn list_items_ending_in_commas_join_once_in_a_title() {
        let text = "## Reviewing a diff\n\nFlag any added comment that:\n- restates the code on the next line,\n- refers to a previous state,\n- fails the litmus test.\n\nPrefer deleting a comment over rewording it.\n";
        let t = titles(text, "AGENTS.md");
        assert!(
            t.iter().any(|t| t.starts_with(
                "Flag any added comment that: restates the code on the next line, refers to"
            )),
            "{t:?}"
        );
    }

    #[test]
    fn link_reference_definitions_are_no_rule() {
        let text = "# Guide\n\n- Prefer TanStack DB collections over lower-level Shape APIs ([TanStack][2]).\n\n## References\n\n[1]: https://electric-sql.com/docs/api/http.md\n[2]: https://tanstack.com/db/latest/docs/overview.md \"Overview\"\n";
        let t = titles(text, "AGENTS.md");
        assert_eq!(
            t,
            ["Prefer TanStack DB collections over lower-level Shape APIs (TanStack)"],
            "{t:?}"
        );
    }

    #[test]
    fn links_within_the_file_are_no_rule() {
        let text = "# Guide\n\n**Quick Navigation:** [🚫 Comment Policy](#🚫-comment-policy) | [🎯 Strategic Decision-Making](#🎯-strategic-decision-making) | [🏗️ Resource Standards](#resource-standards) | [🧪 Testing Standards](#testing-standards) | [🎯 Enforcement Priority](#enforcement-priority)\n\n## Comment Policy\n\n- Never add comments that restate the code.\n\n[⬆️ Back to top](#guide)\n";
        let t = titles(text, "AGENTS.md");
        assert_eq!(t, ["Never add comments that restate the code"], "{t:?}");
    }

    #[test]
    fn an_opening_that_says_what_the_file_is_is_no_rule() {
        let text = "# GEMINI.md\n\nThis file provides guidance to Gemini CLI or other coding agents when working with code in this repository. It focuses on key conventions and best practices. For the development setup, see [`CONTRIBUTING.md`](CONTRIBUTING.md).\n\n## Essential Commands\n\n- Run `npm test` before every commit.\n";
        let t = titles(text, "GEMINI.md");
        assert_eq!(t, ["Run `npm test` before every commit"], "{t:?}");
        // Nor are closing words about the file.
        let text = "# Rules\n\n## Models\n\n- Add the BaseModel trait to every model.\n\nFollowing these rules ensures **clean, scalable, and maintainable code** in your app. \u{1f680}\n";
        let t = titles(text, ".windsurfrules");
        assert_eq!(t, ["Add the BaseModel trait to every model"], "{t:?}");
        // An opening that constrains is a rule, whatever it opens with.
        let text = "# AGENTS.md\n\nThese instructions apply to every change: never push to `main` directly.\n\n## Testing\n\n- Run `npm test` before every commit.\n";
        let t = titles(text, "AGENTS.md");
        assert_eq!(t.len(), 2, "{t:?}");
    }

    #[test]
    fn a_list_that_only_names_files_joins_the_text_before_it() {
        let text = "# Guide\n\n## Architecture\n\n### Server plumbing\n\nThe basic server functionality for talking to the client and handling requests.\n\n- `lib/server.rb`\n- `lib/base_server.rb`\n- `lib/global_state.rb`\n";
        let (titles, details) = titles_and_details(text, "AGENTS.md");
        assert_eq!(
            titles,
            ["The basic server functionality for talking to the client and handling requests"],
            "{titles:?}"
        );
        assert!(details[0].contains("- `lib/global_state.rb`"));
        // One address under a rule is its reference.
        let text = "# Guide\n\n## Services\n\n- Extract business logic (validation, models, permissions) from controllers\n- https://meta.example.org/t/using-service-objects/333641\n- Examples: `app/services` (only classes with `Service::Base`)\n";
        let (titles, details) = titles_and_details(text, "AGENTS.md");
        assert_eq!(
            titles,
            [
                "Extract business logic (validation, models, permissions) from controllers",
                "Examples: `app/services` (only classes with `Service::Base`)"
            ],
            "{titles:?}"
        );
        assert!(details[0].contains("https://meta.example.org/t/using-service-objects/333641"));
    }

    #[test]
    fn a_paragraph_that_points_back_joins_what_it_points_at() {
        let text = "# Guide\n\n## Searching test suites\n\nThese test suites are pre-cloned and ready to search:\n\n- **Test262** (`tasks/coverage/test262/`) - spec compliance\n- **Babel** (`tasks/coverage/babel/`) - parsing edge cases\n\nNOTE: These suites are script-cloned and fully gitignored, so a plain `rg` inside them silently returns nothing. Use `rg --no-ignore` when searching them.\n";
        let (titles, details) = titles_and_details(text, "AGENTS.md");
        assert_eq!(titles.len(), 1, "{titles:?}");
        assert!(details[0].contains("`rg --no-ignore`"), "{}", details[0]);
        assert!(
            details[0].contains("tasks/coverage/test262/"),
            "{}",
            details[0]
        );
        // Rules split from a labelled list each stand alone: what points
        // back at all of them joins none.
        let text = "# Guide\n\n## Style\n\nCode style:\n\n- Always run the formatter before committing any change.\n- Never add a dependency without asking the maintainers first.\n\nThese rules are checked in CI by the lint job on every pull request.\n";
        let (titles, _) = titles_and_details(text, "AGENTS.md");
        assert_eq!(titles.len(), 3, "{titles:?}");
        // Nor does it join the last of a list of rules with no lead-in.
        let text = "# Guide\n\n## Style\n\n- Always run the formatter before committing any change.\n- Never add a dependency without asking the maintainers first.\n\nThese rules are checked in CI by the lint job on every pull request.\n";
        let (titles, details) = titles_and_details(text, "AGENTS.md");
        assert_eq!(titles.len(), 3, "{titles:?}");
        assert!(!details[1].contains("lint job"), "{}", details[1]);
    }

    #[test]
    fn an_html_code_block_is_code_of_the_rule_before_it() {
        let text = "# PHP\n\n## Type Declarations\n\n- Always use explicit return type declarations for methods and functions.\n\n<code-snippet name=\"Explicit Return Types\" lang=\"php\">\nprotected function isAccessible(User $user): bool\n{\n    ...\n}\n</code-snippet>\n\n<pre>\nfn main() {}\n</pre>\n";
        let (titles, details) = titles_and_details(text, "AGENTS.md");
        assert_eq!(
            titles,
            ["Always use explicit return type declarations for methods and functions"],
            "{titles:?}"
        );
        let detail = &details[0];
        assert!(
            detail.contains("```php\nprotected function isAccessible(User $user): bool\n{")
                && detail.contains("}\n```"),
            "{detail}"
        );
        assert!(detail.contains("```\nfn main() {}\n```"), "{detail}");
    }

    #[test]
    fn a_section_number_is_no_word_of_a_heading() {
        for (heading, want) in [
            ("2. Contribution Requirements", "Contribution Requirements"),
            ("7.3 References", "References"),
            ("1) Setup", "Setup"),
            ("2FA setup", "2FA setup"),
            ("3D assets", "3D assets"),
            ("2024 roadmap", "2024 roadmap"),
            ("1.5x speed-ups", "1.5x speed-ups"),
        ] {
            assert_eq!(without_section_number(heading), want, "{heading}");
        }
        let text = "# Guide\n\n## 2. Threading Issues\n\n```swift\nawait MainActor.run { update() }\n```\n";
        let t = titles(text, "AGENTS.md");
        assert_eq!(t, ["Threading Issues"], "{t:?}");
    }

    #[test]
    fn a_list_of_links_is_one_memory_titled_by_its_heading() {
        let text = "# Guide\n\n## Build\n\n- Use `build.cmd` instead of `build.sh` on Windows.\n\n## References\n\n- [`.editorconfig`](/.editorconfig)\n- [Building CoreCLR Guide](/docs/workflow/building/coreclr/README.md)\n- [Building and Running CoreCLR Tests](/docs/workflow/testing/coreclr/testing.md)\n- [Building Mono](/docs/workflow/building/mono/README.md)\n";
        let t = titles(text, "AGENTS.md");
        assert_eq!(
            t,
            [
                "Use `build.cmd` instead of `build.sh` on Windows",
                "References"
            ],
            "{t:?}"
        );
    }

    #[test]
    fn a_numbered_procedure_keeps_its_step_numbers() {
        let text = "# Guide\n\n## Workflows\n\n**Adding a New Command:**\n1. Create `pkg/cmd/<domain>/<action>/` package\n2. Implement `NewCmd<Action>`\n3. Register in parent domain command using `cmdutil.AddGroup`\n";
        let file = parse(text, RuleFormat::Markdown).unwrap();
        let (drafts, _) = drafts(&file, "AGENTS.md", None);
        assert_eq!(drafts.len(), 1);
        let detail = &drafts[0].draft.detail;
        assert!(
            detail.contains("1. Create `pkg/cmd/<domain>/<action>/` package\n2. Implement `NewCmd<Action>`\n3. Register"),
            "{detail}"
        );
    }

    #[test]
    fn a_rule_is_titled_by_its_first_block() {
        let cases: &[(&str, &str)] = &[
            // A short rule joined to the one before it.
            (
                "❌ NEVER update UI without @MainActor\n\n❌ NEVER ignore privacy implications",
                "❌ NEVER update UI without @MainActor",
            ),
            // Sub-items are not part of the title.
            // A lead-in takes the first lines of its list.
            (
                "**Adding new RPC methods** requires:\n- Handler in `src/core/controller/<domain>/`\n- Call from the webview",
                "Adding new RPC methods requires: Handler in `src/core/controller/<domain>/`, Call from the webview",
            ),
            (
                "Use single code backticks for:\n\n- user input\n- placeholders in markdown\n- files and directories",
                "Use single code backticks for: user input, placeholders in markdown, files and directories",
            ),
            // Blockquote markers go; hard wraps join.
            (
                "> [!IMPORTANT]\n> This project does not accept pull requests that are fully\n> or predominantly AI-generated.",
                "This project does not accept pull requests that are fully or predominantly AI-generated",
            ),
            // A table right under the lead-in is no part of its sentence.
            (
                "**Naming conventions** (enforced at compile time):\n| Parameter | Prefix |\n|---|---|\n| `featureName` | `pluginPoint` |",
                "Naming conventions: (enforced at compile time)",
            ),
            // A fragment opening the unit does not title it alone.
            (
                "Important:\n\nRun `just gen` after editing the grammar.",
                "Important: Run `just gen` after editing the grammar",
            ),
        ];
        for (prose, want) in cases {
            assert_eq!(
                title_source(prose).and_then(|t| rule_title(&t)).as_deref(),
                Some(*want),
                "{prose}"
            );
        }
    }

    #[test]
    fn no_title_starts_with_a_list_marker() {
        let text = "# Project\n\n## Conventions\n\n\
                    - **Reviews:** Follow the checklist in `REVIEWING.md`. Requires\n  two approvals.\n\
                    - **Branches:** Keep branches short-lived and rebased on `main`.\n  \
                      Always run the `release-notes` skill before merging, even for\n  small fixes.\n\
                    - **Commits:** Follow the\n  [Conventional Commits](https://example.com/) standard.\n\
                    - **Imports:** Use absolute imports and avoid deep relative imports\n  \
                      between packages (enforced by the linter).\n\
                    - **Headers:** For all new source files (`.go`, `.proto`),\n  \
                      include the MIT license header with the current year. (e.g.,\n  \
                      `Copyright 2026 Example`). This is enforced by the linter.\n\n\
                    ## Releases\n\n1. Tag the release from `main` only, never from a branch.\n";
        let t = titles(text, "GEMINI.md");
        assert!(!t.is_empty());
        for title in &t {
            assert!(
                super::super::markdown::list_marker(title).is_none(),
                "{title:?} in {t:?}"
            );
        }
        assert!(
            t.iter()
                .any(|x| x.starts_with("Reviews: Follow the checklist")),
            "{t:?}"
        );
    }

    #[test]
    fn a_flat_rule_list_gives_one_memory_per_rule() {
        let text = "- ALWAYS ensure that new tests use the same style as existing tests\n\
                    - PREFER running specific tests over running the entire test suite\n\
                    - NEVER perform builds with the release profile, unless asked\n";
        let t = titles(text, "AGENTS.md");
        assert_eq!(t.len(), 3, "{t:?}");
        assert!(
            t[2].starts_with("NEVER perform builds with the release profile"),
            "{t:?}"
        );
    }

    #[test]
    fn catalogues_procedures_and_completing_lists_stay_whole() {
        let text = "# Guide\n\n## Build arguments\n\nLocated in `build/args/`:\n\n- `testing.gn` - Debug builds\n- `release.gn` - Release builds\n\n\
                    ## Review\n\nDo NOT comment on:\n\n- Style preferences already enforced by the project's formatter\n- Naming choices that follow the surrounding code closely\n\n\
                    ## Adding a subcommand\n\n1. Define the command structure in `cli/args/flags.rs`\n2. Add the handler under `cli/tools/`\n3. Wire it up in `cli/main.rs`\n";
        let t = titles(text, "AGENTS.md");
        assert_eq!(t, ["Build arguments", "Review", "Adding a subcommand"]);
    }

    #[test]
    fn a_nested_agent_file_speaks_for_its_directory() {
        let text = "# C++\n\nRun `ninja -C build` before committing a change to the C++ core.\n";
        let file = parse(text, RuleFormat::Markdown).unwrap();
        let cases = [
            ("cpp/AGENTS.md", Some("cpp/**")),
            ("packages/web/CLAUDE.md", Some("packages/web/**")),
            ("AGENTS.md", None),
            (".github/copilot-instructions.md", None),
            (".claude/CLAUDE.md", None),
            ("docs/CONTRIBUTING.md", None),
        ];
        for (name, want) in cases {
            let (d, _) = drafts(&file, name, None);
            let dirs: Vec<&str> = d[0]
                .draft
                .paths
                .iter()
                .map(String::as_str)
                .filter(|p| p.ends_with("/**"))
                .collect();
            assert_eq!(dirs, want.into_iter().collect::<Vec<_>>(), "{name}");
        }
    }

    #[test]
    fn examples_stay_with_the_rule_they_show() {
        let text = "# Style\n\n## Variables\n\n\
                    Always use the Liquid variables rather than the product's name.\n\n\
                    For example:\n\n| Use | Not |\n| --- | --- |\n| `{% data variables.product.github %}` | GitHub |\n\n\
                    Never use the `{% link %}` tag for internal links.\n\n\
                    **Examples:**\n\n* ✅ Correct: `see [AUTOTITLE](/a)`\n* ❌ Incorrect: `see {% link /a %}`\n";
        let file = parse(text, RuleFormat::Markdown).unwrap();
        let (d, _) = drafts(&file, "AGENTS.md", None);
        let got: Vec<(&str, bool)> = d
            .iter()
            .map(|x| {
                (
                    x.draft.title.as_str(),
                    x.draft.detail.contains("✅") || x.draft.detail.contains("| GitHub |"),
                )
            })
            .collect();
        assert_eq!(
            got,
            [
                (
                    "Always use the Liquid variables rather than the product's name",
                    true
                ),
                ("Never use the `{% link %}` tag for internal links", true),
            ]
        );
    }

    #[test]
    fn bold_pseudo_headings_and_code_only_sections_keep_their_heading() {
        let text = "# Guide\n\n## Patches\n\n**Key rules:**\n\n- Fix existing patches 99% of the time rather than creating new ones\n- Never change TODO assignees (`TODO(name)` must retain original name)\n\n\
                    ## Install\n\n```bash\nnpm i -g @electron/build-tools\n```\n\n\
                    ## Essential Commands\n\n```bash\njust fmt    # Format code (run after modifications)\njust test   # Run unit/integration tests\njust ast    # Update generated files (oxc_ast changes)\n```\n\nMore commands can be found in `justfile`.\n";
        let file = parse(text, RuleFormat::Markdown).unwrap();
        let (d, _) = drafts(&file, "CLAUDE.md", None);
        let t: Vec<&str> = d.iter().map(|x| x.draft.title.as_str()).collect();
        assert_eq!(
            t,
            [
                "Fix existing patches 99% of the time rather than creating new ones",
                "Never change TODO assignees (`TODO(name)` must retain original name)",
                "Install",
                // A line of prose beside a code block does not title it.
                "Essential Commands",
            ]
        );
        assert!(
            d[0].draft.tags.contains(&"key-rules".to_owned()),
            "{:?}",
            d[0].draft.tags
        );
        assert_eq!(d[1].draft.importance, Importance::Medium);
        assert!(d.iter().all(|x| !x.draft.title.starts_with("Untitled")));
    }

    #[test]
    fn overviews_of_the_project_are_patterns_of_low_importance() {
        let text = "# Guide\n\n## Project overview\n\nThe server lives in `server/` and the web client in `web/`; they talk over a JSON API.\n\n\
                    ## Repository structure\n\nPackages sit under `packages/`, one per published npm package, with tests beside the code.\n\n\
                    ## Testing\n\nRun the tests of the package you changed before pushing, not the whole suite.\n\n\
                    ## Overview\n\nNEVER commit generated files from `dist/`; CI builds them.\n";
        let file = parse(text, RuleFormat::Markdown).unwrap();
        let (d, _) = drafts(&file, "AGENTS.md", None);
        let got: Vec<(MemoryType, Importance)> = d
            .iter()
            .map(|x| (x.draft.kind, x.draft.importance))
            .collect();
        assert_eq!(
            got,
            [
                (MemoryType::Pattern, Importance::Low),
                (MemoryType::Pattern, Importance::Low),
                (MemoryType::Convention, Importance::Medium),
                // An emphatic rule under such a heading is still a rule.
                (MemoryType::Convention, Importance::High),
            ]
        );
    }

    #[test]
    fn catalogue_entries_are_names_with_descriptions_that_instruct_nothing() {
        let cases = [
            (
                "`/src`: Main source code for all Aspire packages and their tests",
                true,
            ),
            (
                "**Testing:** Vitest with the workspace configuration in the root",
                true,
            ),
            (
                "Aspire.Hosting: Application host orchestration and resource management",
                true,
            ),
            (
                "**Imports:** Use specific imports and avoid restricted relative imports",
                false,
            ),
            (
                "`global.json`: pins the SDK version - never modify it without a request",
                false,
            ),
            (
                "ALWAYS run the formatter before committing any change to the repository",
                false,
            ),
            // An instruction after a leading phrase.
            (
                "**Headers:** For all new source files, include the MIT header",
                false,
            ),
            // A description that binds.
            (
                "**Public API / KIP**: Changes to public interfaces, wire protocol, \
                 configurations, or metrics generally require a KIP.",
                false,
            ),
            (
                "**Checkstyle**: Enforced on main and test sources; rules in `checkstyle/`.",
                false,
            ),
            (
                "**Compatibility**: clients and streams support Java 11+; avoid newer APIs there.",
                false,
            ),
            (
                "`core/`: Broker runtime, log, replication (gradually being removed with Scala)",
                true,
            ),
        ];
        for (line, want) in cases {
            assert_eq!(is_catalogue_entry(line), want, "{line}");
        }
    }

    #[test]
    fn a_label_right_above_a_list_labels_it_and_joins_no_rule() {
        let text = "# Rust\n\n\
                    Testing\n  \
                    - Always write unit tests with `tokio::test` for async tests.\n  \
                    - Always use mocks and fakes for external dependencies in tests.\n\n\
                    Performance Optimization\n  \
                    - Never add async overhead; use sync code where async is not needed.\n  \
                    - Never block inside async functions; use `spawn_blocking`.\n\n\
                    **Failure to keep this current breaks exports.**\n\
                    - Never modify content in languages other than English.\n";
        let file = parse(text, RuleFormat::Markdown).unwrap();
        let drafts: Vec<_> = drafts(&file, "AGENTS.md", None).0;
        let of = |start: &str| {
            drafts
                .iter()
                .find(|d| d.draft.title.starts_with(start))
                .unwrap_or_else(|| {
                    panic!(
                        "{start}: {:?}",
                        drafts.iter().map(|d| &d.draft.title).collect::<Vec<_>>()
                    )
                })
        };
        // The label is no fragment of the rule above it…
        let mocks = of("Always use mocks and fakes");
        assert!(
            !mocks.draft.detail.contains("Performance"),
            "{}",
            mocks.draft.detail
        );
        // …but the context of the rules under it.
        let overhead = of("Never add async overhead");
        assert!(
            overhead
                .draft
                .tags
                .iter()
                .any(|t| t == "performance-optimization"),
            "{:?}",
            overhead.draft.tags
        );
        // A sentence above a list is no label.
        assert!(
            drafts
                .iter()
                .all(|d| !d.draft.tags.iter().any(|t| t.starts_with("failure")))
        );
    }

    #[test]
    fn labelled_rules_wrapped_over_lines_are_each_a_memory() {
        let text = "# Guide\n\n## Conventions\n\n\
                    - **Contributions:** Follow the process in `CONTRIBUTING.md`. Requires\n  \
                      signing the CLA.\n\
                    - **Commit Messages:** Follow the\n  \
                      [Conventional Commits](https://example.org/) standard.\n\
                    - **Headers:** For all new source files (`.go`),\n  \
                      include the MIT license header with the current year.\n\
                    - **Imports:** Use specific imports and avoid relative imports\n";
        let t = titles(text, "GEMINI.md");
        assert_eq!(t.len(), 4, "{t:?}");
        assert!(t.iter().any(|x| x.starts_with("Headers:")), "{t:?}");
    }

    #[test]
    fn rule_globs_follow_gitignore_depth() {
        let cases = [
            ("*.rs", "**/*.rs"),
            ("rust/", "**/rust/**"),
            ("packages/client/", "packages/client/**"),
            ("src/**/*.ts", "src/**/*.ts"),
            ("/docs/*.md", "docs/*.md"),
            ("**/*.test.ts", "**/*.test.ts"),
        ];
        for (g, want) in cases {
            assert_eq!(rule_glob(g), want, "{g}");
        }
    }

    #[test]
    fn the_first_rule_under_a_files_title_is_a_rule_not_an_introduction() {
        let text = "---\nalwaysApply: true\n---\n\n# Test without watch\n\nWhen running tests, use the `--watch false` flag to avoid watch mode:\n\nWe're using Vitest workspaces for testing.\n\nExamples:\n\n- `pnpm test -- --watch false`\n";
        let t = titles(text, ".cursor/rules/test-running.mdc");
        assert_eq!(
            t[0], "When running tests, use the `--watch false` flag to avoid watch mode",
            "{t:?}"
        );
        // A persona line opening a headingless file is still an introduction.
        let t = titles(
            "You are an expert in TypeScript.\n\n- Always use hooks in components.\n- Never call fetch in components.\n",
            ".cursorrules",
        );
        assert_eq!(t.len(), 2, "{t:?}");
    }

    #[test]
    fn span_keys_ignore_whitespace_only() {
        assert_eq!(span_key("A.md", "a  b\nc"), span_key("A.md", "a b c"));
        assert_ne!(span_key("A.md", "a b c"), span_key("B.md", "a b c"));
        assert_ne!(span_key("A.md", "a b c"), span_key("A.md", "a b d"));
    }
}
