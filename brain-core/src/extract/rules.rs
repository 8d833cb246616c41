//! Rule files (AGENTS.md, CLAUDE.md, `.cursorrules`, `.mdc`, Copilot
//! instructions) to drafts: one per section.
//!
//! A section's title is its heading path (or, for a one-rule section, the
//! rule's first sentence); its summary the first item; its detail the whole
//! body, code fences intact. Text outside any heading is split into its
//! items, one draft each. Its type comes from the heading
//! ("Gotchas", "Architecture decisions") or else from its words, with
//! `convention` as the default: rule files state how work is done here. Its
//! scope is the paths its own text names, plus a Cursor rule's `globs`.

use super::markdown::{RuleFile, Section};
use super::{Draft, Extracted, RejectReason, Rejected, classify, complete, excerpt};
use crate::model::{Importance, MemoryType, Risk};
use crate::review::text::find_phrases;

/// Drafts for every section of `file`; sections with too little to say are
/// rejected with a reason.
pub fn drafts(file: &RuleFile, file_name: &str) -> (Vec<Extracted>, Vec<Rejected>) {
    let mut out = Vec::new();
    let mut rejected = Vec::new();
    // Text outside any heading (a plain `.cursorrules`, an intro) has no
    // heading to name a group by: each of its items is a rule of its own.
    let mut sections: Vec<Section> = Vec::new();
    for section in &file.sections {
        if section.headings.is_empty() && section.items.len() > 1 {
            sections.extend(section.items.iter().map(|item| Section {
                headings: Vec::new(),
                body: item.text.clone(),
                line: item.line,
                items: vec![item.clone()],
            }));
        } else {
            sections.push(section.clone());
        }
    }
    for (i, section) in sections.iter().enumerate() {
        if i == 0 && section.headings.len() <= 1 && is_intro(section) {
            rejected.push(Rejected {
                line: section.line,
                excerpt: excerpt(&section.body),
                reason: RejectReason::WeakTypeSignal,
                detail: Some("an introduction, not a rule".to_owned()),
            });
            continue;
        }
        match draft(section, file, file_name) {
            Ok(d) => out.push(d),
            Err(reason) => rejected.push(Rejected {
                line: section.line,
                excerpt: excerpt(&section.body),
                reason,
                detail: None,
            }),
        }
    }
    (out, rejected)
}

fn draft(section: &Section, file: &RuleFile, file_name: &str) -> Result<Extracted, RejectReason> {
    let prose: String = section
        .items
        .iter()
        .map(|i| strip_code(&i.text))
        .collect::<Vec<_>>()
        .join("\n");
    let words = crate::review::text::words(&prose).len();
    if section.body.trim().is_empty() || (words < 4 && !section.body.contains("```")) {
        return Err(RejectReason::LowInformation);
    }
    let heading = section.headings.join(" / ");
    let from_heading = section
        .headings
        .iter()
        .rev()
        .find_map(|h| classify::heading_type(h));
    let class = classify::classify(&prose, None, None);
    let kind = from_heading.unwrap_or(if class.score >= classify::MIN_TYPE_SCORE + 1.0 {
        class.kind
    } else {
        MemoryType::Convention
    });
    let first = section
        .items
        .first()
        .map(|i| strip_code(&i.text))
        .unwrap_or_default();
    let first_sentences = super::chunk::sentences(&first.replace('\n', " "));
    // One rule: its own words are the best title. Several: the heading
    // path (without the document's title) and the file say what they are.
    let title = if section.items.len() <= 1 || section.headings.is_empty() {
        complete::title(&first_sentences, kind)
    } else {
        let path = if section.headings.len() > 1 {
            section.headings[1..].join(" / ")
        } else {
            heading.clone()
        };
        let base = file_name.rsplit('/').next().unwrap_or(file_name);
        complete::cut_at_word(&format!("{path} ({base})"), complete::MAX_TITLE).to_owned()
    };
    let mut summary = complete::summary(&first_sentences);
    if summary.is_empty() {
        summary = format!("{title} ({file_name})");
    }
    let mut paths = complete::paths(&prose, &[]);
    paths.extend(file.front_matter_globs.iter().cloned());
    paths.sort();
    paths.dedup();
    let modules = complete::modules(&prose);
    let mut tags = complete::tags(&paths, &modules);
    tags.retain(|t| t.len() <= 40);
    let severe = !find_phrases(&prose, classify::SEVERE_RISK).is_empty();
    let quality = 50 + u32::try_from(words.min(40)).unwrap_or(0);
    Ok(Extracted {
        draft: Draft {
            kind,
            title,
            summary,
            detail: section.body.clone(),
            paths,
            modules,
            tags,
            importance: if severe {
                Importance::High
            } else {
                Importance::Medium
            },
            risk: if severe { Risk::High } else { Risk::Low },
        },
        line: section.line,
        quality: quality.min(100),
    })
}

/// Whether a file's opening section only introduces it: no signal of any
/// type and no constraint wording.
fn is_intro(section: &Section) -> bool {
    let prose = strip_code(&section.body);
    classify::classify(&prose, None, None).score < classify::MIN_TYPE_SCORE
        && find_phrases(&prose, classify::CONSTRAINT).is_empty()
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
