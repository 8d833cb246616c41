//! How memories and tasks are cut into terms for retrieval.
//!
//! **Memories** ([`for_each_term`]): every run of letters and digits,
//! lowercased and stemmed with the Snowball English stemmer (`dependency`
//! and `dependencies` are one term), stop words and bare numbers left out.
//! An identifier also gives its parts and its joined form: `noFloatingPromises`
//! and `no_floating_promises` both give `no`, `float`, `promis` and
//! `nofloatingpromis`, so the two spellings of one name meet, and a task
//! that names the identifier matches it more strongly than one that only
//! shares its words.
//!
//! **Tasks** ([`analyze`]) go through the same cut, and then:
//!
//! * words that only say what kind of request it is ("please", "fix",
//!   "make sure", "just") are left out: they match memories by accident;
//! * lines of a pasted log count less than the prose around them, except
//!   for identifiers, which are what a log names best;
//! * paths in the text (`crates/uv/src/lock/mod.rs:812:27`, absolute or
//!   relative) are taken out as paths, for scope matching;
//! * a word a memory never uses may be two words it does (`rustdoc`,
//!   `lockfile`): the splits are kept as a group that must match whole;
//! * common developer synonyms (`argument`/`parameter`, `bump`/`upgrade`)
//!   are added at a lower weight, each in its word's group, so a memory
//!   using both is not counted twice; a synonym of several words
//!   ("continuous integration" for `ci`) must match whole, in a group of
//!   its own that adds nothing to what the task says;
//! * a task that only asks a question ("explain …, don't change anything")
//!   is marked read-only: rules about how to change code need stronger
//!   evidence to be shown for it.

use std::collections::{HashMap, HashSet};
use std::sync::LazyLock;

use rust_stemmers::{Algorithm, Stemmer};

/// Changes whenever the terms of a text change: the on-disk index built
/// with other terms is rebuilt.
pub const VERSION: &str = "terms-6";

static STEMMER: LazyLock<Stemmer> = LazyLock::new(|| Stemmer::create(Algorithm::English));

/// Words too common to say anything about a topic (after lowercasing,
/// before stemming).
const STOPWORDS: &[&str] = &[
    "a", "about", "above", "after", "again", "against", "all", "am", "an", "and", "any", "are",
    "as", "at", "be", "because", "been", "before", "being", "below", "between", "both", "but",
    "by", "can", "could", "did", "do", "does", "doing", "down", "during", "each", "either", "etc",
    "few", "for", "from", "further", "had", "has", "have", "having", "he", "her", "here", "hers",
    "him", "his", "how", "i", "if", "in", "into", "is", "it", "its", "itself", "me", "more",
    "most", "my", "myself", "no", "nor", "not", "of", "off", "on", "once", "only", "or", "other",
    "our", "ours", "out", "over", "own", "same", "she", "should", "so", "some", "such", "than",
    "that", "the", "their", "theirs", "them", "then", "there", "these", "they", "this", "those",
    "through", "to", "too", "under", "until", "up", "very", "was", "we", "were", "what", "when",
    "where", "which", "while", "who", "whom", "why", "will", "with", "would", "you", "your",
    "yours", "yourself", "e.g", "eg", "ie", "i.e", "via", "also", "just", "s", "t", "d", "ll", "m",
    "re", "ve", "don", "doesn", "didn", "isn", "aren", "wasn", "won", "shouldn", "can't", "let",
    "may", "might", "must", "shall", "one", "two", "yet", "even", "every", "much", "many", "us",
    "get", "got",
];

/// Hedges and adverbs of frequency: their stems are content words
/// ("generally" is `general`, "mainly" is `main`, "normally" is `normal`)
/// that they say nothing about.
const HEDGES: &[&str] = &[
    "generally",
    "usually",
    "typically",
    "normally",
    "often",
    "sometimes",
    "mostly",
    "mainly",
    "rarely",
    "frequently",
    "commonly",
    "basically",
    "simply",
    "ideally",
    "preferably",
    "primarily",
    "largely",
    "occasionally",
    "particularly",
    "especially",
    "certainly",
    "definitely",
    "necessarily",
    "absolutely",
    "strictly",
];

/// Words of a request that say what kind of request it is, not what it is
/// about (before stemming). Left out of tasks, kept in memories.
const REQUEST_WORDS: &[&str] = &[
    "please",
    "pls",
    "thanks",
    "thank",
    "need",
    "needs",
    "needed",
    "want",
    "wants",
    "wanted",
    "make",
    "makes",
    "sure",
    "help",
    "know",
    "go",
    "goes",
    "going",
    "try",
    "trying",
    "tried",
    "seem",
    "seems",
    "think",
    "look",
    "looks",
    "looking",
    "like",
    "really",
    "maybe",
    "probably",
    "something",
    "anything",
    "everything",
    "thing",
    "things",
    "way",
    "bit",
    "lot",
    "lots",
    "able",
    "fix",
    "fixes",
    "fixing",
    "add",
    "adds",
    "adding",
    "update",
    "updates",
    "change",
    "changes",
    "changed",
    "implement",
    "implementing",
    "improve",
    "support",
    "handle",
    "new",
    "issue",
    "bug",
    "task",
    "work",
    "works",
    "working",
    "set",
    "now",
    "still",
    "already",
    "actually",
    "currently",
    "right",
    "okay",
    "ok",
    "hey",
    "hi",
    "quick",
    "quickly",
    "small",
    "tiny",
    "bunch",
    "stuff",
    "somewhere",
    "someone",
    "anyone",
    "time",
    "today",
    "yesterday",
    "tomorrow",
    "again",
    "well",
    "good",
    "nice",
    "great",
    "better",
    "best",
    "bad",
    "wrong",
    "correct",
    "properly",
    "proper",
    "start",
    "started",
    "done",
    "finish",
    "finished",
    "keep",
    "give",
    "put",
    "take",
    "use",
    "used",
    "using",
    "said",
    "say",
    "says",
    "tell",
    "see",
    "saw",
    "show",
    "shows",
    "come",
    "came",
    "read",
    "want",
    "able",
    "without",
    "within",
    "there's",
    "explain",
    "explained",
    "describe",
    "understand",
    "question",
    "wonder",
    "curious",
    "code",
    "it's",
    "i'm",
    "i've",
    "i'd",
    "we're",
    "you're",
    "that's",
    "what's",
    "here's",
    "doesn't",
    "didn't",
    "don't",
    "won't",
    "can't",
    "isn't",
];

/// Groups of words and abbreviations developers use for the same thing
/// (before stemming): a task word pulls in the others of its group at
/// [`SYNONYM_WEIGHT`]. General vocabulary of software work, not of any one
/// project; a form of several words matches only whole (all its words).
const SYNONYMS: &[&[&str]] = &[
    &["argument", "arg", "args", "parameter", "param", "params"],
    &["option", "flag"],
    &["bump", "upgrade"],
    &["dependency", "dep", "deps"],
    &["pr", "pull request"],
    &["repo", "repository"],
    &["config", "configuration", "cfg", "conf"],
    &["doc", "docs", "documentation"],
    &["env", "environment"],
    &["auth", "authentication", "authn"],
    &["authz", "authorization"],
    &["db", "database"],
    &["perf", "performance"],
    &["dir", "directory", "folder"],
    &["pkg", "package"],
    &["lib", "library"],
    &["fn", "func", "function"],
    &["var", "variable"],
    &["attr", "attribute"],
    &["prop", "property"],
    &["impl", "implementation"],
    &["init", "initialize", "initialization"],
    &["msg", "message"],
    &["err", "error"],
    &["ctx", "context"],
    &["req", "request"],
    &["resp", "response"],
    &["app", "application"],
    &["dev", "development"],
    &["prod", "production"],
    &["info", "information"],
    &["spec", "specification"],
    &["tmp", "temp", "temporary"],
    &["max", "maximum"],
    &["min", "minimum"],
    &["crash", "panic"],
    &["delete", "remove"],
    &["backtrace", "stacktrace", "traceback", "stack trace"],
    &["mock", "stub", "fake"],
    &["flaky", "intermittent"],
    &["hang", "stuck", "freeze"],
    &["cli", "command line"],
    &["ui", "user interface"],
    &["os", "operating system"],
    &["async", "asynchronous"],
    &["regex", "regexp", "regular expression"],
    &["i18n", "internationalization", "translation"],
    &["l10n", "localization"],
    &["a11y", "accessibility"],
    &["k8s", "kubernetes"],
    &["js", "javascript"],
    &["ts", "typescript"],
    &["py", "python"],
    &["gh", "github"],
    &["ci", "continuous integration"],
    &["e2e", "end-to-end"],
];

/// Activities of software work that tasks and rules name in different
/// words (`concepts.txt`, one `task phrases => rule words` line each): a
/// phrase of the task (lowercase words, matched whole) pulls in the words
/// rules use for the activity, as one evidence group at
/// [`CONCEPT_WEIGHT`]. "open a PR" is a pull request, "the indentation" is
/// formatting, "release notes" a changelog entry, "fails intermittently" a
/// flaky test. General vocabulary, not of any project.
static CONCEPTS: LazyLock<Vec<Concept>> =
    LazyLock::new(|| parse_concepts(include_str!("concepts.txt")));

/// One line of `concepts.txt`: its phrases padded with spaces, ready to be
/// found in a padded task, and the terms of its rule words.
#[derive(Debug)]
struct Concept {
    phrases: Vec<String>,
    terms: Vec<String>,
}

/// Reads the concept table: `#` lines and blank lines are comments; a
/// phrase is read as its words, so `console.log` is `console log`.
fn parse_concepts(text: &str) -> Vec<Concept> {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .filter_map(|l| l.split_once("=>"))
        .map(|(phrases, related)| {
            let mut terms_of: Vec<String> = Vec::new();
            for t in related.split(',').flat_map(terms) {
                if !terms_of.contains(&t) {
                    terms_of.push(t);
                }
            }
            Concept {
                phrases: phrases
                    .split(',')
                    .map(padded_words)
                    .filter(|p| !p.trim().is_empty())
                    .collect(),
                terms: terms_of,
            }
        })
        .collect()
}

/// A text's words, lowercase, between single spaces and with one space
/// before and after: a phrase is found in a text when its padded words are
/// in the text's.
fn padded_words(text: &str) -> String {
    let words: Vec<String> = text
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect();
    format!(" {} ", words.join(" "))
}

/// Weight of a concept's words (see [`CONCEPTS`]), against 1 for a word of
/// the task itself.
pub const CONCEPT_WEIGHT: f64 = 1.0;

/// The evidence groups of the activities a task names (see [`CONCEPTS`]),
/// without the words the task already has.
fn concept_groups(task: &str, own: &[(String, f64)]) -> Vec<Group> {
    let padded = padded_words(task);
    let mut out = Vec::new();
    for concept in CONCEPTS.iter() {
        let Some(hit) = concept.phrases.iter().find(|p| padded.contains(p.as_str())) else {
            continue;
        };
        let mut g = Group {
            label: format!("~{}", hit.trim()),
            terms: Vec::new(),
            kind: GroupKind::Any,
            trigger: true,
        };
        // Two concepts the task names may share words: each word is
        // evidence once.
        for t in &concept.terms {
            if !own.iter().any(|(o, _)| o == t)
                && !out
                    .iter()
                    .any(|o: &Group| o.terms.iter().any(|(x, _)| x == t))
            {
                g.terms.push((t.clone(), CONCEPT_WEIGHT));
            }
        }
        if !g.terms.is_empty() {
            out.push(g);
        }
    }
    out
}

/// Weight of a synonym, against 1 for a word of the task itself.
pub const SYNONYM_WEIGHT: f64 = 0.5;

/// What a part of a word counts, of the word's weight: a part of an unknown
/// word the store knows split (`rust` + `doc` of `rustdoc`), or a part of a
/// capitalised camelCase word standing in for it (`jet` of `JetBrains`).
const PART_WEIGHT: f64 = 0.8;
/// Weight of a word found only in lines of a pasted log.
pub const LOG_WEIGHT: f64 = 0.5;
/// Weight of a word of a path's file name.
pub const FILE_WORD_WEIGHT: f64 = 0.6;
/// Weight of a word of a path's directories.
pub const DIR_WORD_WEIGHT: f64 = 0.35;

/// Path segments too generic to say what a path is about.
const GENERIC_PATH_WORDS: &[&str] = &[
    "src",
    "lib",
    "libs",
    "app",
    "apps",
    "service",
    "services",
    "package",
    "packages",
    "internal",
    "pkg",
    "cmd",
    "test",
    "tests",
    "spec",
    "specs",
    "index",
    "main",
    "mod",
    "util",
    "utils",
    "common",
    "shared",
    "core",
    "web",
    "api",
    "server",
    "client",
    "component",
    "components",
    "page",
    "pages",
    "type",
    "types",
    "model",
    "models",
    "handler",
    "handlers",
    "config",
    "doc",
    "docs",
    "readme",
    "crates",
    "crate",
    "www",
    "public",
    "assets",
    "tools",
    "scripts",
    "script",
    "java",
    "kotlin",
    "com",
    "org",
    "net",
    "io",
    "home",
    "users",
    "user",
    "tmp",
    "var",
    "usr",
    "opt",
    "dist",
    "build",
    "target",
    "node_modules",
    "github",
];

/// Markers of a task that only asks about the code (before stemming,
/// lowercased, matched as whole phrases).
const READ_ONLY: &[&str] = &[
    "explain, no code",
    "just explain",
    "explain only",
    "only explain",
    "don't change anything",
    "do not change anything",
    "dont change anything",
    "no code changes",
    "no code change",
    "read-only",
    "read only",
    "no code",
    "don't modify anything",
    "do not modify anything",
    "don't edit anything",
    "do not edit anything",
    "don't make any changes",
    "do not make any changes",
    "don't touch the code",
    "don't touch any files",
    "don't write any code",
    "do not write any code",
    "don't fix anything",
    "not changing any code",
    "not asking you to change",
    "don't want you to change",
    "not asking for a fix",
    "not looking for a fix",
    "not looking for changes",
    "no need to change",
    "no need to modify",
    "no need to edit",
    "no need to fix",
    "not planning to change",
    "not planning on changing",
    "leave the code as is",
    "leave the code alone",
    "no edits please",
    "before i change anything",
    "before we change anything",
    "just want to understand",
    "just trying to understand",
    "for my own understanding",
    "purely informational",
    "just answer",
];

/// Phrases that keep something unchanged: the whole task when it asks for
/// no change ("look into it, don't modify the code"), only what they name
/// when it does ("fix it without changing the expected string").
const KEEPS_UNCHANGED: &[&str] = &[
    "no changes",
    "without changing",
    "don't modify",
    "do not modify",
    "don't edit",
    "do not edit",
];

/// Lowercases and stems one word.
pub fn stem(word: &str) -> String {
    let lower = word.to_lowercase();
    if lower.chars().count() <= 3 || lower.chars().any(|c| c.is_ascii_digit()) {
        return lower;
    }
    // Building an index stems the same few thousand words over and over:
    // each thread remembers the stems it made (up to a bound).
    thread_local! {
        static STEMS: std::cell::RefCell<HashMap<String, String>> =
            std::cell::RefCell::new(HashMap::new());
    }
    STEMS.with(|cache| {
        if let Some(s) = cache.borrow().get(&lower) {
            return s.clone();
        }
        let s = STEMMER.stem(&lower).into_owned();
        let mut c = cache.borrow_mut();
        if c.len() < 200_000 {
            c.insert(lower, s.clone());
        }
        s
    })
}

fn is_stopword(lower: &str) -> bool {
    STOPWORDS.contains(&lower) || HEDGES.contains(&lower)
}

/// Whether a lowercased word is only a number (`812`, `0`, `12ms` is not).
fn is_number(lower: &str) -> bool {
    lower.chars().all(|c| c.is_ascii_digit())
}

/// Splits one alphanumeric run at case changes and letter/digit joins that
/// make an identifier: `noFloatingPromises` → no, Floating, Promises;
/// `HTTPServer` → HTTP, Server. `iOS`, `gRPC`, `IDs` stay whole.
fn camel_parts(run: &str) -> Vec<&str> {
    let mut parts = Vec::new();
    let chars: Vec<(usize, char)> = run.char_indices().collect();
    let mut start = 0;
    for w in 1..chars.len() {
        let (i, cur) = chars[w];
        let prev = chars[w - 1].1;
        let camel = prev.is_lowercase() && cur.is_uppercase() && w >= 2;
        let acronym = prev.is_uppercase()
            && cur.is_uppercase()
            && chars.get(w + 1).is_some_and(|(_, c)| c.is_lowercase())
            && chars.get(w + 2).is_some_and(|(_, c)| c.is_lowercase());
        if camel || acronym {
            parts.push(&run[start..i]);
            start = i;
        }
    }
    parts.push(&run[start..]);
    parts
}

/// Calls `f` with each retrieval term of `text`: stemmed words, and for
/// identifiers their parts and joined form (see the module documentation).
pub fn for_each_term(text: &str, mut f: impl FnMut(&str)) {
    for_each_term_with(text, |t, _| f(t));
}

/// [`for_each_term`], with each part of a capitalised camelCase word given
/// with the word's joined form (`jet` and `brain` of `jetbrain`).
fn for_each_term_with(text: &str, mut f: impl FnMut(&str, Option<&str>)) {
    for chunk in text.split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '-')) {
        let words: Vec<&str> = chunk.split(['_', '-']).filter(|w| !w.is_empty()).collect();
        if words.is_empty() {
            continue;
        }
        let mut joined = String::new();
        let mut pieces = 0usize;
        for word in &words {
            let parts = camel_parts(word);
            let lower = word.to_lowercase();
            if parts.len() > 1 {
                let whole = stem(&lower);
                f(&whole, None);
                // A capitalised word is a name (`JetBrains`, `GitHub`); one
                // in lower camelCase (`waitForTimeout`, `useState`) is code
                // whose parts say what it does.
                let name = word.starts_with(char::is_uppercase);
                for p in &parts {
                    emit_word(p, &mut |t| f(t, name.then_some(whole.as_str())));
                }
            } else {
                emit_word(word, &mut |t| f(t, None));
            }
            joined.push_str(&lower);
            pieces += parts.len();
        }
        if words.len() > 1 && pieces > 1 && joined.chars().count() >= 4 {
            f(&stem(&joined), None);
        }
    }
}

fn emit_word(word: &str, f: &mut impl FnMut(&str)) {
    let lower = word.to_lowercase();
    if lower.chars().count() < 2 || is_stopword(&lower) || is_number(&lower) {
        return;
    }
    f(&stem(&lower));
}

/// `text` with each web address cut down to what names it: the site (its
/// name without `www.` and the top-level domain) and the last part of its
/// path. The rest of an address (`/Azure/azure-sdk-for-java/blob/main/`) is
/// a code host's plumbing, and its words (`main`, `blob`, `com`) would match
/// any task that shares them.
pub fn without_url_paths(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.contains("://") {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find("://") {
        // The scheme: the letters just before `://`.
        let scheme = rest[..at]
            .char_indices()
            .rev()
            .take_while(|(_, c)| c.is_ascii_alphabetic())
            .last()
            .map_or(at, |(i, _)| i);
        out.push_str(&rest[..scheme]);
        let after = &rest[at + 3..];
        let end = after
            .find(|c: char| c.is_whitespace() || matches!(c, ')' | '>' | ']' | '"' | '\'' | '`'))
            .unwrap_or(after.len());
        let address = after[..end].trim_end_matches(['.', ',', ';', ':', '!', '?']);
        if address.is_empty() {
            out.push_str(&rest[scheme..at + 3]);
            rest = after;
            continue;
        }
        let (host, path) = address.split_once('/').unwrap_or((address, ""));
        let host = host.split([':', '@']).next().unwrap_or(host);
        let host = host.strip_prefix("www.").unwrap_or(host);
        let labels: Vec<&str> = host.split('.').collect();
        let keep = if labels.len() > 1 {
            &labels[..labels.len() - 1]
        } else {
            &labels[..]
        };
        out.push_str(&keep.join(" "));
        let path = path.split(['?', '#']).next().unwrap_or("");
        if let Some(last) = path.split('/').rev().find(|s| !s.is_empty()) {
            out.push(' ');
            out.push_str(last);
        }
        rest = &after[address.len()..];
    }
    out.push_str(rest);
    std::borrow::Cow::Owned(out)
}

/// The terms of `text`, in order, with repeats.
pub fn terms(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for_each_term(text, |t| out.push(t.to_owned()));
    out
}

/// How a query term is matched.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GroupKind {
    /// Any one of the group's terms is enough (a word and its synonyms).
    Any,
    /// Every term must match (the parts of a split word).
    All,
}

/// One unit of query evidence: a word of the task with its alternatives.
#[derive(Clone, Debug, PartialEq)]
pub struct Group {
    /// The word as the task has it (stemmed), for reports.
    pub label: String,
    /// Terms with their weights (the word itself first).
    pub terms: Vec<(String, f64)>,
    /// How the terms combine.
    pub kind: GroupKind,
    /// Whether it may, on its own, make a memory relevant: words of the
    /// task do; words of its paths only support them (a path's directories
    /// are shared by everything near it).
    pub trigger: bool,
}

impl Group {
    /// Whether the group is an activity the task names in other words
    /// ([`CONCEPTS`]); its label is the phrase that named it, after `~`.
    pub fn is_concept(&self) -> bool {
        self.label.starts_with('~')
    }

    /// Whether the group is another way to say a word the task has its own
    /// group for (a synonym of several words, labelled `word~its+words`):
    /// it may match, but the task says no more for it.
    pub fn is_alternative(&self) -> bool {
        self.label.find('~').is_some_and(|i| i > 0)
    }
}

/// A task, analysed.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct QueryText {
    /// Evidence groups, each counted once per memory.
    pub groups: Vec<Group>,
    /// Paths named in the text, as written (without `:line:col`).
    pub paths: Vec<String>,
    /// The task only asks about the code.
    pub read_only: bool,
    /// Paths the task makes ([`created_paths`]).
    pub created: Vec<String>,
}

impl QueryText {
    /// Every term any group may match, for loading postings.
    pub fn all_terms(&self) -> Vec<String> {
        let mut out: Vec<String> = self
            .groups
            .iter()
            .flat_map(|g| g.terms.iter().map(|(t, _)| t.clone()))
            .collect();
        out.sort();
        out.dedup();
        out
    }

    /// Adds the words of `path`: its file name's words (and extension) as
    /// one group that may make a memory relevant, its directories' words as
    /// one that only supports (unless the task wrote the path itself: then
    /// every word of it may); in each, the best word counts.
    pub fn add_path(&mut self, path: &str, written: bool) {
        let (file, dirs) = path_words(path);
        for (terms, trigger) in [(file, true), (dirs, written)] {
            if !terms.is_empty() {
                self.groups.push(Group {
                    label: path.to_owned(),
                    terms,
                    kind: GroupKind::Any,
                    trigger,
                });
            }
        }
    }
}

/// Whether a line of a task looks like part of a pasted log, diff or
/// stack trace rather than prose.
fn is_log_line(line: &str) -> bool {
    let t = line.trim();
    if t.is_empty() {
        return false;
    }
    let starts = [
        "-->",
        "|",
        "at ",
        "error",
        "warning",
        "warn",
        "note:",
        "help:",
        "=",
        "+",
        "@@",
        "$ ",
        ">",
        "#",
        "thread ",
        "file ",
        "traceback",
        "---",
        "✓",
        "✗",
        "✖",
        "×",
        "✔",
    ];
    let lower = t.to_lowercase();
    if starts.iter().any(|s| lower.starts_with(s)) {
        return true;
    }
    if line.starts_with("    ") || line.starts_with('\t') {
        return true;
    }
    // Mostly symbols, digits and paths.
    let letters = t.chars().filter(|c| c.is_alphabetic()).count();
    let spaces = t.chars().filter(|c| c.is_whitespace()).count();
    letters * 2 < t.chars().count() || (spaces == 0 && t.len() > 30)
}

/// Whether a whitespace-separated token is a path: it has a `/` between
/// name characters, or is a file name with a short extension.
fn path_token(token: &str) -> Option<String> {
    let quote = |c: char| {
        matches!(
            c,
            '`' | '\'' | '"' | '(' | ')' | '[' | ']' | '{' | '}' | ',' | ';' | '<' | '>'
        )
    };
    // Quotes and brackets around it, and a trailing period or colon, in any order.
    let mut t = token;
    loop {
        let next = t.trim_matches(quote).trim_end_matches(['.', ':', '!', '?']);
        if next.len() == t.len() {
            break;
        }
        t = next;
    }
    if t.contains("://") || t.starts_with("http") || t.contains('@') && !t.contains('/') {
        return None;
    }
    // A Windows drive (`C:\\work\\x.rs`) is kept; `path:line:col` loses its numbers.
    let drive = t.len() > 3
        && t.as_bytes()[0].is_ascii_alphabetic()
        && t.as_bytes()[1] == b':'
        && matches!(t.as_bytes()[2], b'\\' | b'/');
    let (prefix, rest) = if drive { t.split_at(2) } else { ("", t) };
    let rest = rest
        .split_once(':')
        .filter(|(_, after)| after.chars().next().is_some_and(|c| c.is_ascii_digit()))
        .map_or(rest, |(p, _)| p);
    let t = &t[..prefix.len() + rest.len()];
    let t = t.strip_prefix("./").unwrap_or(t);
    if t.len() < 3 || t.contains(char::is_whitespace) {
        return None;
    }
    let ok_chars = t
        .chars()
        .skip(prefix.len())
        .all(|c| c.is_alphanumeric() || matches!(c, '/' | '.' | '_' | '-' | '*' | '\\'));
    if !ok_chars {
        return None;
    }
    let t = t.replace('\\', "/");
    let segments: Vec<&str> = t.split('/').filter(|s| !s.is_empty()).collect();
    let has_ext = segments.last().is_some_and(|last| {
        last.rsplit_once('.').is_some_and(|(stem, ext)| {
            !stem.is_empty()
                && (1..=10).contains(&ext.len())
                && ext.chars().all(char::is_alphanumeric)
                && ext.chars().any(char::is_alphabetic)
        })
    });
    let dir = t.contains('/') && segments.len() >= 2;
    let dotfile = segments
        .first()
        .is_some_and(|s| s.starts_with('.') && s.len() > 1);
    if !(has_ext || dir || (dotfile && t.contains('/'))) {
        return None;
    }
    // `e.g.`, `i.e.`, versions (`0.12.9`), `Foo.bar` member accesses without a
    // known shape are not paths.
    if !t.contains('/') {
        let (stem, ext) = t.rsplit_once('.')?;
        if stem.contains('.') && !stem.starts_with('.') || stem.len() == 1 && ext.len() == 1 {
            return None;
        }
        if stem.chars().next().is_some_and(char::is_uppercase) && ext.len() > 4 {
            return None;
        }
        if ext.chars().any(char::is_uppercase) {
            return None;
        }
    }
    Some(t)
}

/// Terms with their weights.
pub type Weighted = Vec<(String, f64)>;

/// The words of a path that say what it is about, with their weights: the
/// file name's (and its extension's), and the directories'.
pub fn path_words(path: &str) -> (Weighted, Weighted) {
    let mut file_words: Vec<(String, f64)> = Vec::new();
    let mut dir_words: Vec<(String, f64)> = Vec::new();
    let segments: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
    let push = |out: &mut Vec<(String, f64)>, text: &str, weight: f64| {
        for_each_term(text, |t| {
            if t.chars().count() >= 2
                && !GENERIC_PATH_WORDS.contains(&t)
                && !out.iter().any(|(w, _)| w == t)
            {
                out.push((t.to_owned(), weight));
            }
        });
    };
    for (i, seg) in segments.iter().enumerate() {
        let is_file = i + 1 == segments.len() && !path.ends_with('/');
        if is_file {
            // `Aspire.Hosting.cs`: the name is all but the extension, which
            // says what kind of file it is (`Cargo.lock`, `css.ungram`).
            match seg.trim_start_matches('.').rsplit_once('.') {
                Some((name, ext)) if !name.is_empty() => {
                    push(&mut file_words, name, FILE_WORD_WEIGHT);
                    push(&mut file_words, ext, DIR_WORD_WEIGHT);
                }
                _ => push(&mut file_words, seg, FILE_WORD_WEIGHT),
            }
        } else {
            push(&mut dir_words, seg.trim_start_matches('.'), DIR_WORD_WEIGHT);
        }
    }
    // A lockfile is one by its name (`Cargo.lock`, `pnpm-lock.yaml`,
    // `go.sum`), and rules call it that: "never update every dependency in
    // the lockfile".
    for kind in file_kinds(path) {
        push(&mut file_words, kind, FILE_WORD_WEIGHT);
    }
    dir_words.retain(|(w, _)| !file_words.iter().any(|(f, _)| f == w));
    (file_words, dir_words)
}

/// The words rules call a file by its kind, when its name says it: a
/// package manager's lockfile (`Cargo.lock`, `pnpm-lock.yaml`, `go.sum`).
pub fn file_kinds(path: &str) -> Vec<&'static str> {
    if path.ends_with('/') {
        return Vec::new();
    }
    let name = path.rsplit('/').next().unwrap_or(path).to_ascii_lowercase();
    let lockfile = std::path::Path::new(&name)
        .extension()
        .is_some_and(|e| e == "lock")
        || name.ends_with("-lock.json")
        || name.ends_with("-lock.yaml")
        || matches!(
            name.as_str(),
            "go.sum" | "npm-shrinkwrap.json" | "packages.lock.json"
        );
    if lockfile {
        vec!["lockfile"]
    } else {
        Vec::new()
    }
}

/// Verbs that say what kind of request a task is when it opens with them
/// ("Write tests for …", "Create a page …"), and may be what a rule is about
/// anywhere else ("writes to the cache").
const OPENING_VERBS: &[&str] = &["write", "create"];

/// Whether a word (lowercased) only says what kind of request a task is.
fn is_request_word(lower: &str) -> bool {
    static STEMS: LazyLock<Vec<String>> =
        LazyLock::new(|| REQUEST_WORDS.iter().map(|w| stem(w)).collect());
    REQUEST_WORDS.contains(&lower) || STEMS.iter().any(|s| *s == stem(lower))
}

/// Analyses a task: its terms in groups with weights, its paths, whether it
/// only asks a question. `vocabulary` says whether a term occurs in the
/// store at all (to split unknown words into known ones). The words of the
/// paths are not task words; [`QueryText::add_path`] adds them, supporting.
pub fn analyze(task: &str, vocabulary: &dyn Fn(&str) -> bool) -> QueryText {
    let mut counts: Vec<(String, f64)> = Vec::new();
    // Terms that are parts of a capitalised camelCase word, with the word;
    // and terms the task says otherwise.
    let mut parts: HashMap<String, String> = HashMap::new();
    let mut said: HashSet<String> = HashSet::new();
    let add = |term: &str, weight: f64, counts: &mut Vec<(String, f64)>| {
        if let Some(c) = counts.iter_mut().find(|(t, _)| t == term) {
            // Repeats make a word more central, with diminishing returns.
            c.1 = c.1.max(weight) + 0.15 * weight;
        } else {
            counts.push((term.to_owned(), weight));
        }
    };
    let mut paths: Vec<String> = Vec::new();
    // The task without its paths and addresses: activities are named in
    // words, not in `docs/` or `code-signing.md`.
    let mut all_prose = String::with_capacity(task.len());
    for line in task.lines() {
        let log = is_log_line(line);
        let mut prose = String::with_capacity(line.len());
        for token in line.split_whitespace() {
            if let Some(p) = path_token(token) {
                if !paths.contains(&p) {
                    paths.push(p);
                }
                continue;
            }
            if token.contains("://") {
                continue;
            }
            prose.push_str(token);
            prose.push(' ');
        }
        all_prose.push_str(&prose);
        all_prose.push('\n');
        // Request words are dropped before cutting, on the raw words; so is
        // the verb a request opens with ("Write the release notes").
        let mut opening = true;
        let mut at = 0;
        for raw in
            prose.split_inclusive(|c: char| !(c.is_alphanumeric() || matches!(c, '_' | '-' | '\'')))
        {
            // A part of a qualified name (`tokio::time`, `std::fs`) names
            // code: never a request word, nor the end of a sentence.
            let qualified = prose[..at].ends_with("::")
                || (raw.ends_with(':') && prose[at + raw.len()..].starts_with(':'));
            at += raw.len();
            let ends_sentence = raw.ends_with(['.', '!', '?', ';', ':']) && !qualified;
            let chunk = raw
                .trim_end_matches(|c: char| !(c.is_alphanumeric() || matches!(c, '_' | '-' | '\'')))
                .trim_matches(['\'', '-', '_']);
            let lower = chunk.to_lowercase();
            let opens = opening && !qualified;
            let request = lower.is_empty() || (!qualified && is_request_word(&lower));
            // "Please write …": the verb after a request word still opens.
            opening = ends_sentence || (opens && request);
            if request || (opens && OPENING_VERBS.contains(&lower.as_str())) {
                continue;
            }
            let identifier = qualified
                || chunk.contains(['_', '-'])
                || camel_parts(chunk).len() > 1
                || chunk.chars().any(|c| c.is_ascii_digit())
                    && chunk.chars().any(char::is_alphabetic);
            let weight = if log && !identifier { LOG_WEIGHT } else { 1.0 };
            for_each_term_with(chunk, |t, whole| {
                add(t, weight, &mut counts);
                match whole {
                    Some(w) => {
                        parts.entry(t.to_owned()).or_insert_with(|| w.to_owned());
                    }
                    None => {
                        said.insert(t.to_owned());
                    }
                }
            });
        }
    }
    let mut groups: Vec<Group> = concept_groups(&all_prose, &counts);
    groups.extend(term_groups(&counts, &parts, &said, vocabulary));
    QueryText {
        groups,
        paths,
        read_only: read_only(task),
        created: created_paths(task),
    }
}

/// The groups of the task's terms ([`word_groups`]), in order. A part of a
/// capitalised camelCase word the store knows whole (`JetBrains`, `GitHub`)
/// says that word again, not another: unless the task also says it on its
/// own, it follows the word as an alternative, which may stand in for the
/// word where a memory has only the part, never count beside it.
fn term_groups(
    counts: &[(String, f64)],
    parts: &HashMap<String, String>,
    said: &HashSet<String>,
    vocabulary: &dyn Fn(&str) -> bool,
) -> Vec<Group> {
    let counted: HashSet<&str> = counts.iter().map(|(t, _)| t.as_str()).collect();
    let mut stand_ins: HashMap<&str, Vec<&str>> = HashMap::new();
    for (term, _) in counts {
        if let Some(whole) = parts.get(term)
            && !said.contains(term)
            && counted.contains(whole.as_str())
            && vocabulary(whole)
        {
            stand_ins.entry(whole.as_str()).or_default().push(term);
        }
    }
    let standing_in: HashSet<&str> = stand_ins.values().flatten().copied().collect();
    let mut groups = Vec::new();
    for (term, weight) in counts {
        if standing_in.contains(term.as_str()) {
            continue;
        }
        groups.extend(word_groups(term, *weight, vocabulary));
        for part in stand_ins.get(term.as_str()).into_iter().flatten() {
            groups.push(Group {
                label: format!("{term}~{part}"),
                terms: vec![((*part).to_owned(), weight * PART_WEIGHT)],
                kind: GroupKind::Any,
                trigger: true,
            });
        }
    }
    groups
}

/// The groups of one word of a task: the word with its one-word synonyms,
/// each synonym of several words as a group of its own, and the two known
/// words an unknown one may be.
fn word_groups(term: &str, weight: f64, vocabulary: &dyn Fn(&str) -> bool) -> Vec<Group> {
    let mut groups = Vec::new();
    let mut g = Group {
        label: term.to_owned(),
        terms: vec![(term.to_owned(), weight)],
        kind: GroupKind::Any,
        trigger: true,
    };
    let mut phrases: Vec<Vec<String>> = Vec::new();
    for syn in synonyms(term) {
        if syn.len() > 1 {
            phrases.push(syn);
        } else if !g.terms.iter().any(|(t, _)| *t == syn[0]) {
            g.terms.push((syn[0].clone(), weight * SYNONYM_WEIGHT));
        }
    }
    groups.push(g);
    // A synonym of several words ("continuous integration" for `ci`)
    // is found only whole: one of its words alone ("integration tests")
    // is another thing.
    for phrase in phrases {
        groups.push(Group {
            label: format!("{term}~{}", phrase.join("+")),
            terms: phrase
                .into_iter()
                .map(|t| (t, weight * SYNONYM_WEIGHT))
                .collect(),
            kind: GroupKind::All,
            trigger: true,
        });
    }
    if !vocabulary(term)
        && let Some((a, b)) = split_known(term, vocabulary)
    {
        groups.push(Group {
            label: format!("{a}+{b}"),
            terms: vec![(a, weight * PART_WEIGHT), (b, weight * PART_WEIGHT)],
            kind: GroupKind::All,
            trigger: true,
        });
    }
    groups
}

/// Whether a task only asks about the code (see [`analyze`]).
pub fn read_only(task: &str) -> bool {
    let lower = task
        .to_lowercase()
        .replace('\u{2019}', "'")
        .replace("dont ", "don't ");
    READ_ONLY.iter().any(|m| lower.contains(m))
        || (KEEPS_UNCHANGED.iter().any(|m| lower.contains(m)) && !asks_change(&lower))
        || is_question(&lower)
}

/// Whether a task asks for a change: an imperative verb of change as a
/// whole word, not part of another ("prefix"), not an infinitive of what
/// the code does ("decides when to write a snapshot").
fn asks_change(lower: &str) -> bool {
    const CHANGES: &[&str] = &[
        "fix",
        "change",
        "add ",
        "update",
        "implement",
        "refactor",
        "write",
        "create",
        "remove",
        "make ",
        "rename",
        "move",
        "bump",
        "upgrade",
        "delete",
        "open a pr",
        "commit",
        "simplify",
        "patch",
        "go ahead",
    ];
    let words: Vec<&str> = lower
        .split(|c: char| !(c.is_alphanumeric() || c == '\''))
        .filter(|w| !w.is_empty())
        .collect();
    CHANGES.iter().any(|c| {
        let phrase: Vec<&str> = c.split_whitespace().collect();
        words
            .windows(phrase.len())
            .enumerate()
            .any(|(i, w)| w == phrase.as_slice() && (i == 0 || words[i - 1] != "to"))
    })
}

/// A task that is only a question: it opens with a question word and asks
/// for no change.
fn is_question(lower: &str) -> bool {
    let t = lower.trim();
    let opens = [
        "how does",
        "how do",
        "how is",
        "how are",
        "what does",
        "what is",
        "what's",
        "whats",
        "what are",
        "why does",
        "why is",
        "why do",
        "where does",
        "where is",
        "which ",
        "explain",
        "describe",
        "can you explain",
        "could you explain",
        "please explain",
        "why are",
        "why did",
        "how come",
        "summarize",
        "summarise",
        "can you summarize",
        "can you summarise",
        "could you summarize",
        "could you summarise",
        "give me a summary",
        "give me an overview",
        "walk me through",
        "can you walk me through",
        "could you walk me through",
        "help me understand",
        "i want to understand",
        "i'd like to understand",
        "tl;dr",
    ];
    opens.iter().any(|o| t.starts_with(o)) && !asks_change(t)
}

/// The stemmed synonyms of a stemmed term: the other forms of its groups,
/// each as its terms.
fn synonyms(term: &str) -> Vec<Vec<String>> {
    static TABLE: LazyLock<HashMap<String, Vec<Vec<String>>>> = LazyLock::new(|| {
        let mut map: HashMap<String, Vec<Vec<String>>> = HashMap::new();
        for group in SYNONYMS {
            let forms: Vec<Vec<String>> = group.iter().map(|w| terms(w)).collect();
            for key in &forms {
                // Only one-word forms are looked up; every other form is a
                // synonym, a form of several words as a whole.
                let [key] = key.as_slice() else {
                    continue;
                };
                let entry = map.entry(key.clone()).or_default();
                for other in &forms {
                    if !other.is_empty()
                        && other != std::slice::from_ref(key)
                        && !entry.contains(other)
                    {
                        entry.push(other.clone());
                    }
                }
            }
        }
        map
    });
    TABLE.get(term).cloned().unwrap_or_default()
}

/// Splits a word the store never uses into two words it does, each of at
/// least three letters (`rustdoc` → `rust` + `doc`); the split with the
/// longest shorter part wins.
fn split_known(term: &str, vocabulary: &dyn Fn(&str) -> bool) -> Option<(String, String)> {
    if term.chars().count() < 6 || !term.chars().all(|c| c.is_ascii_lowercase()) {
        return None;
    }
    let mut best: Option<(usize, String, String)> = None;
    for i in 3..=term.len() - 3 {
        let (a, b) = term.split_at(i);
        let (sa, sb) = (stem(a), stem(b));
        if vocabulary(&sa) && vocabulary(&sb) && !is_stopword(a) && !is_stopword(b) {
            let shorter = a.len().min(b.len());
            if best.as_ref().is_none_or(|(s, _, _)| shorter > *s) {
                best = Some((shorter, sa, sb));
            }
        }
    }
    best.map(|(_, a, b)| (a, b))
}

/// Extensions of files that are read rather than built or run: prose and
/// images.
const PROSE_EXTENSIONS: &[&str] = &[
    "md", "mdx", "markdown", "rst", "adoc", "asciidoc", "png", "jpg", "jpeg", "gif", "webp",
];

/// Extensions of data, settings and template files ([`is_data_path`]).
const DATA_EXTENSIONS: &[&str] = &[
    "yml", "yaml", "json", "jsonc", "json5", "toml", "ini", "cfg", "conf", "tmpl", "csv", "lock",
];

/// Directories that hold documentation or images (a path given as a
/// directory, `docs/images/`).
const PROSE_DIRS: &[&str] = &[
    "doc",
    "docs",
    "documentation",
    "images",
    "img",
    "screenshots",
];

/// Names of prose files that often have no extension.
const PROSE_NAMES: &[&str] = &["readme", "changelog", "changes", "license", "authors"];

/// Words (stemmed) of a memory that speaks of documentation: it may govern
/// an edit of prose files (see [`is_prose_path`]).
pub const DOCS_TERMS: &[&str] = &[
    "doc",
    "document",
    "readm",
    "markdown",
    "md",
    "mdx",
    "rst",
    "changelog",
    "wiki",
];

/// Whether a path is documentation or an image, not code: a file with a
/// prose or image extension (`docs/guide.md`, `CHANGELOG.md`, `logo.png`),
/// a `README` or `CHANGELOG` without one, or a directory of them
/// (`docs/images/`). Rules say how to change code; an edit of prose is
/// governed by rules that speak of documentation or name the file.
pub fn is_prose_path(path: &str) -> bool {
    let name = file_name(path);
    match name.rsplit_once('.') {
        Some((stem, ext)) if !stem.is_empty() => {
            PROSE_EXTENSIONS.contains(&ext) || PROSE_NAMES.contains(&stem)
        }
        _ => PROSE_NAMES.contains(&name.as_str()) || PROSE_DIRS.contains(&name.as_str()),
    }
}

/// Whether a path is a data or settings file (`.yml`, `.json`, `.toml`, a
/// template), not code.
pub fn is_data_path(path: &str) -> bool {
    file_name(path)
        .rsplit_once('.')
        .is_some_and(|(stem, ext)| !stem.is_empty() && DATA_EXTENSIONS.contains(&ext))
}

/// The last segment of a path (a directory's too), lowercase.
fn file_name(path: &str) -> String {
    let path = path.trim_end_matches('/');
    path.rsplit('/').next().unwrap_or(path).to_lowercase()
}

/// The file extensions a language's name stands for (`PHP` → `php`), for
/// rules that govern every file of a language ("All PHP files use …").
pub fn language_extensions(word: &str) -> &'static [&'static str] {
    match word {
        "go" | "golang" => &["go"],
        "php" => &["php"],
        "ruby" => &["rb"],
        "python" => &["py"],
        "rust" => &["rs"],
        "java" => &["java"],
        "kotlin" => &["kt", "kts"],
        "swift" => &["swift"],
        "scala" => &["scala"],
        "elixir" => &["ex", "exs"],
        "typescript" => &["ts", "tsx", "mts", "cts"],
        "javascript" => &["js", "jsx", "mjs", "cjs"],
        "c#" | "csharp" => &["cs"],
        "c++" | "cpp" => &["cpp", "cc", "cxx", "h", "hpp"],
        "shell" | "bash" => &["sh", "bash"],
        "dart" => &["dart"],
        _ => &[],
    }
}

/// Verbs that, near a path, say the task makes that file ("Create
/// src/x.php", "Add a developer command cmd/which.rb").
const CREATE_VERBS: &[&str] = &[
    "create",
    "add",
    "write",
    "scaffold",
    "introduce",
    "generate",
];

/// Words that put a path in a verb's object as a place, not as the thing
/// made ("add a check in src/x.rs").
pub(super) const PLACE_WORDS: &[&str] = &[
    "in", "into", "to", "inside", "within", "from", "at", "under", "on", "of", "for", "with",
    "near", "beside", "next", "via", "by",
];

/// The paths written in a task that it makes: a path a few words after
/// "create" / "add" / "write" with no preposition between ("Create
/// src/x.php", "Add a new file modules/cache.go"), or in a sentence that
/// says "new file". A file-level rule ("All PHP files use
/// `declare(strict_types=1)`", "new `.go` files get a copyright header")
/// governs making it.
pub fn created_paths(task: &str) -> Vec<String> {
    fn keep(out: &mut Vec<String>, p: String) {
        if !out.contains(&p) {
            out.push(p);
        }
    }
    let mut out: Vec<String> = Vec::new();
    let mut sentence: Vec<String> = Vec::new();
    let mut since_verb: Option<usize> = None;
    let mut placed = false;
    let mut new_file = false;
    let mut last_new = false;
    for token in task.split_whitespace() {
        let word: String = token
            .trim_matches(|c: char| !c.is_alphanumeric())
            .to_lowercase();
        if let Some(p) = path_token(token) {
            if since_verb.is_some_and(|n| n <= 5) && !placed {
                keep(&mut out, p.clone());
            }
            sentence.push(p);
        } else if CREATE_VERBS.contains(&word.as_str()) {
            since_verb = Some(0);
            placed = false;
        } else if let Some(n) = since_verb.as_mut() {
            *n += 1;
            placed |= PLACE_WORDS.contains(&word.as_str());
        }
        new_file |= last_new && (word == "file" || word == "files");
        last_new = word == "new";
        // A path keeps no trailing period: "Create src/x.php." ends here.
        if token.ends_with(['.', '!', '?', ';']) {
            if new_file {
                for p in sentence.drain(..) {
                    keep(&mut out, p);
                }
            }
            sentence.clear();
            since_verb = None;
            placed = false;
            new_file = false;
        }
    }
    if new_file {
        for p in sentence {
            keep(&mut out, p);
        }
    }
    out
}

/// Every term a task may need postings for, including those of any split of
/// its words (the vocabulary is not known before the postings are read).
pub fn candidate_terms(task: &str) -> Vec<String> {
    let q = analyze(task, &|_| true);
    let mut out = q.all_terms();
    for g in &q.groups {
        let term = &g.label;
        if term.chars().count() >= 6 && term.chars().all(|c| c.is_ascii_lowercase()) {
            for i in 3..=term.len() - 3 {
                let (a, b) = term.split_at(i);
                out.push(stem(a));
                out.push(stem(b));
            }
        }
    }
    for p in &q.paths {
        let (file, dirs) = path_words(p);
        out.extend(file.into_iter().chain(dirs).map(|(w, _)| w));
    }
    if q.paths.iter().any(|p| is_prose_path(p)) {
        out.extend(DOCS_TERMS.iter().map(|t| (*t).to_owned()));
    }
    out.sort();
    out.dedup();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_line_of_the_concept_table_is_a_concept() {
        let text = include_str!("concepts.txt");
        let lines = text
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
            .count();
        assert_eq!(CONCEPTS.len(), lines, "a line without `=>`");
        for c in CONCEPTS.iter() {
            assert!(!c.phrases.is_empty() && !c.terms.is_empty(), "{c:?}");
        }
        let parsed =
            parse_concepts("# a comment\n\nconsole.log, Print It => console.log, debug output\n");
        assert_eq!(parsed.len(), 1);
        assert_eq!(parsed[0].phrases, [" console log ", " print it "]);
        assert_eq!(parsed[0].terms, ["consol", "log", "debug", "output"]);
    }

    #[test]
    fn activities_pull_in_the_words_rules_use() {
        let cases: &[(&str, Option<&[&str]>)] = &[
            (
                "lint my changes",
                Some(&["linter", "clippi", "eslint", "rubocop"]),
            ),
            (
                "fix the indentation in main.rs",
                Some(&["format", "fmt", "prettier"]),
            ),
            (
                "write the release notes for 2.1",
                Some(&["changelog", "changeset"]),
            ),
            (
                "the auth test fails intermittently",
                Some(&["flaki", "quarantin"]),
            ),
            // A situation told in everyday words, or a tool that implies
            // the activity.
            (
                "it's a staircase of matches four levels deep, flatten it",
                Some(&["earli", "guard"]),
            ),
            ("use Moq to fake the builder", Some(&["mock"])),
            // A word inside another word, or nothing of the table: no group.
            ("fix the blinter widget", None),
            (
                "add a column to the invoices table",
                Some(&["migrat", "schema"]),
            ),
            ("the total on the invoices page is off by one cent", None),
            // Words of a path are no activity: `docs/` is where the page
            // is, `lint-rules.md` its name.
            ("Update docs/tutorial/lint-rules.md to say 16", None),
        ];
        for (task, want) in cases {
            let q = analyze(task, &|_| true);
            let concept = q.groups.iter().find(|g| g.label.starts_with('~'));
            match (concept, want) {
                (None, None) => {}
                (Some(g), Some(want)) => {
                    for w in *want {
                        assert!(
                            g.terms.iter().any(|(t, _)| t == w),
                            "{task}: {w} not in {:?}",
                            g.terms
                        );
                    }
                    assert!(g.trigger, "{task}");
                }
                (got, _) => panic!("{task}: {got:?}"),
            }
        }
    }

    #[test]
    fn identifiers_give_parts_and_joined_forms() {
        let cases: &[(&str, &[&str])] = &[
            (
                "noFloatingPromises",
                &["nofloatingpromis", "float", "promis"],
            ),
            (
                "no_floating_promises",
                &["float", "promis", "nofloatingpromis"],
            ),
            ("dependencies and dependency", &["depend", "depend"]),
            (
                "`requires_python` instead of `rp`",
                &["requir", "python", "requirespython", "instead", "rp"],
            ),
            ("HTTPServer", &["httpserver", "http", "server"]),
            ("line 812 of E0433", &["line", "e0433"]),
            ("pre-existing", &["pre", "exist", "preexist"]),
        ];
        for (text, want) in cases {
            assert_eq!(terms(text), *want, "{text}");
        }
    }

    #[test]
    fn web_addresses_keep_the_site_and_the_last_part_of_the_path() {
        let cases: &[(&str, &str)] = &[
            (
                "- [Support](https://github.com/Azure/azure-sdk-for-java/blob/main/SUPPORT.md)",
                "- [Support](github SUPPORT.md)",
            ),
            (
                "see https://www.stackoverflow.com/questions/tagged/azure-java-sdk?tab=new.",
                "see stackoverflow azure-java-sdk.",
            ),
            ("<http://localhost:8080/>", "<localhost>"),
            (
                "docs at https://learn.microsoft.com, then",
                "docs at learn microsoft, then",
            ),
            ("no address: a::b and `x://`", "no address: a::b and `x://`"),
            ("plain text", "plain text"),
        ];
        for (text, want) in cases {
            assert_eq!(without_url_paths(text), *want, "{text}");
        }
    }

    #[test]
    fn paths_come_out_of_prose_and_logs() {
        let cases: &[(&str, &[&str])] = &[
            (
                "   --> crates/uv-resolver/src/lock/mod.rs:812:27",
                &["crates/uv-resolver/src/lock/mod.rs"],
            ),
            (
                "edit ./src/app.ts, then `Cargo.toml`.",
                &["src/app.ts", "Cargo.toml"],
            ),
            ("see https://example.com/a/b.html and e.g. v0.12.9", &[]),
            (
                "/home/dana/src/x/pydantic_ai/models/google.py:412:24 - error",
                &["/home/dana/src/x/pydantic_ai/models/google.py"],
            ),
            ("put it in .github/workflows/", &[".github/workflows/"]),
            (
                "C:\\work\\repo\\src\\main.rs failed",
                &["C:/work/repo/src/main.rs"],
            ),
        ];
        for (text, want) in cases {
            let q = analyze(text, &|_| true);
            assert_eq!(q.paths, *want, "{text}");
        }
    }

    #[test]
    fn hedges_are_no_topic() {
        // "generally" stems to `general`, the name of a settings page.
        let cases: &[(&str, &[&str])] = &[
            (
                "Tables are generally contained within a card",
                &["tabl", "contain", "within", "card"],
            ),
            ("Mainly use the main branch", &["use", "main", "branch"]),
            ("General settings page", &["general", "set", "page"]),
        ];
        for (text, want) in cases {
            assert_eq!(terms(text), *want, "{text}");
        }
    }

    #[test]
    fn request_words_are_dropped_and_questions_are_read_only() {
        let q = analyze("Please just fix the flaky refund test, thanks", &|_| true);
        let labels: Vec<&str> = q.groups.iter().map(|g| g.label.as_str()).collect();
        // "flaky" also names an activity: quarantine and retries.
        assert_eq!(labels, ["~flaky", "flaki", "refund", "test"]);
        assert!(!q.read_only);
        assert!(
            analyze(
                "How does `uv tree --invert` pick roots? Just explain.",
                &|_| true
            )
            .read_only
        );
        assert!(
            analyze(
                "Explain how WaitFor works. Read-only, don't change anything.",
                &|_| true
            )
            .read_only
        );
        assert!(!analyze("How do I fix the flaky test?", &|_| true).read_only);
        // What the code does is no change asked for; a verb inside another
        // word is none either.
        for (task, want) in [
            (
                "Explain how the controller decides when to write a new snapshot.",
                true,
            ),
            ("Explain the prefix rules of the router.", true),
            ("Explain why the snapshot test fails and fix it.", false),
            // Kept unchanged: the whole task, unless it asks for a change.
            (
                "Look into why the cache misses; do not modify the code.",
                true,
            ),
            (
                "lintrunner is red on my PR, fix it without changing the expected string",
                false,
            ),
            // Summaries, walkthroughs, and a request that says it wants no
            // change, however it asks; a summary that also updates a file
            // is a change.
            ("tl;dr of the architecture doc please", true),
            (
                "Could you walk me through how migrations are applied at startup?",
                true,
            ),
            (
                "Can you summarise what changed between v2.3 and v2.4? I'm writing notes.",
                true,
            ),
            (
                "review my PR diff and give me your opinion; im not changing any code right now",
                true,
            ),
            (
                "`TypeError` in components/List.tsx. Don\u{2019}t fix it yet, I just want to \
                 understand the cause.",
                true,
            ),
            (
                "Summarize the changes since the last tag and update the changelog.",
                false,
            ),
            ("explain what this regex does and then simplify it", false),
            (
                "what's wrong with this function? go ahead and patch it",
                false,
            ),
        ] {
            assert_eq!(read_only(task), want, "{task}");
        }
    }

    #[test]
    fn the_verb_a_request_opens_with_is_dropped_elsewhere_it_counts() {
        let labels = |task: &str| -> Vec<String> {
            analyze(task, &|_| true)
                .groups
                .into_iter()
                .map(|g| g.label)
                .filter(|l| !l.starts_with('~'))
                .collect()
        };
        let cases: &[(&str, &[&str])] = &[
            ("Write the release notes", &["releas", "note"]),
            ("Please create a page. Write tests too.", &["page", "test"]),
            ("- write the changelog entry", &["changelog", "entri"]),
            (
                "The cache writes twice; fix it",
                &["cach", "write", "twice"],
            ),
            (
                "Batch the writes to the index",
                &["batch", "write", "index"],
            ),
            // A part of a qualified name is code, not a request word, and
            // `::` ends no sentence.
            (
                "The expiry is 30s via tokio::time, don't wait",
                &["expiri", "30s", "tokio", "time", "wait"],
            ),
            ("call std::fs::write here", &["call", "std", "fs", "write"]),
        ];
        for (task, want) in cases {
            assert_eq!(labels(task), *want, "{task}");
        }
    }

    #[test]
    fn paths_a_task_makes_are_the_objects_of_create_verbs() {
        let cases: &[(&str, &[&str])] = &[
            (
                "Create src/Services/Counter.php that rebuilds counters.",
                &["src/Services/Counter.php"],
            ),
            (
                "Add a developer command Library/Homebrew/dev-cmd/which-tap.rb that prints the tap.",
                &["Library/Homebrew/dev-cmd/which-tap.rb"],
            ),
            (
                "Add a new file modules/setting/cache.go with a struct.",
                &["modules/setting/cache.go"],
            ),
            (
                "Settings go in a new file, modules/setting/cache.go, loaded at start.",
                &["modules/setting/cache.go"],
            ),
            // A place, not the thing made.
            (
                "add a null check at the top of AddRedis in src/Redis.cs",
                &[],
            ),
            (
                "Add a `WithHttpProbe` extension in src/Hosting/Extensions.cs.",
                &[],
            ),
            (
                "Write tests for the abort handling in httpBatchStreamLink (packages/client/src/link.ts).",
                &[],
            ),
            // Too far from the verb, or in another sentence.
            ("Add it. src/x.rs is where the lock is.", &[]),
            ("Create src/x.php. Then fix src/y.php.", &["src/x.php"]),
            ("Fix the crash in src/x.rs", &[]),
        ];
        for (task, want) in cases {
            assert_eq!(created_paths(task), *want, "{task}");
        }
    }

    #[test]
    fn data_paths_are_settings_and_templates() {
        let cases: &[(&str, bool)] = &[
            ("package.json", true),
            (".github/ISSUE_TEMPLATE/bug.yml", true),
            ("infra/grafana/dashboards/Logs.JSON", true),
            ("Cargo.toml", true),
            ("Cargo.lock", true),
            ("templates/base/footer.tmpl", true),
            ("tests/specs/npm/__test__.jsonc", true),
            ("src/config.ts", false),
            ("eng/Testing.targets", false),
            ("CMakeLists.txt", false),
            (".yml", false),
            ("docs/", false),
        ];
        for (path, want) in cases {
            assert_eq!(is_data_path(path), *want, "{path}");
        }
    }

    #[test]
    fn prose_paths_are_documentation_and_images() {
        let cases: &[(&str, bool)] = &[
            ("CHANGELOG.md", true),
            ("docs/guides/retries.md", true),
            ("docs/images/", true),
            ("site/logo.PNG", true),
            ("README", true),
            ("LICENSE.txt", true),
            ("docs/", true),
            ("src/docs.rs", false),
            ("CMakeLists.txt", false),
            ("package.json", false),
            (".github/ISSUE_TEMPLATE/bug.yml", false),
            ("crates/uv/src/lib.rs", false),
            ("ext/net/", false),
        ];
        for (path, want) in cases {
            assert_eq!(is_prose_path(path), *want, "{path}");
        }
        // Each is a term as the index writes it, or no memory could hold it.
        for t in DOCS_TERMS {
            assert_eq!(terms(t), [*t], "{t}");
        }
    }

    #[test]
    fn unknown_words_split_into_known_ones_and_synonyms_join_groups() {
        let vocab = |t: &str| matches!(t, "rust" | "doc" | "comment" | "lock" | "file");
        let q = analyze("add rustdoc to the public items", &vocab);
        let split = q.groups.iter().find(|g| g.kind == GroupKind::All).unwrap();
        assert_eq!(
            split
                .terms
                .iter()
                .map(|(t, _)| t.as_str())
                .collect::<Vec<_>>(),
            ["rust", "doc"]
        );
        let q = analyze("five arguments", &vocab);
        let arg = q.groups.iter().find(|g| g.label == "argument").unwrap();
        assert!(
            arg.terms
                .iter()
                .any(|(t, w)| t == "paramet" && (*w - SYNONYM_WEIGHT).abs() < 1e-9)
        );
        // A synonym of several words is found only whole: "CI" is no
        // "integration test".
        let q = analyze("the CI image is on Go 1.23", &vocab);
        let ci = q.groups.iter().find(|g| g.label == "ci").unwrap();
        assert_eq!(ci.terms.len(), 1, "{ci:?}");
        let phrase = q
            .groups
            .iter()
            .find(|g| g.label == "ci~continu+integr")
            .unwrap();
        assert_eq!(phrase.kind, GroupKind::All);
        assert!(phrase.is_alternative() && !phrase.is_concept() && !ci.is_alternative());
    }

    /// The parts of a capitalised camelCase word the store knows whole
    /// follow the word as alternatives; of one it does not know, of code in
    /// lower camelCase, and of a part the task also says on its own, they
    /// are words of their own.
    #[test]
    fn camel_case_parts_stand_in_for_a_known_word() {
        let labels = |task: &str, known: &dyn Fn(&str) -> bool| -> Vec<(String, bool)> {
            analyze(task, known)
                .groups
                .iter()
                .map(|g| (g.label.clone(), g.is_alternative()))
                .collect()
        };
        let owned = |v: &[(&str, bool)]| -> Vec<(String, bool)> {
            v.iter().map(|(l, a)| ((*l).to_owned(), *a)).collect()
        };
        let known = |t: &str| matches!(t, "jetbrain" | "jet" | "brain" | "badg");
        assert_eq!(
            labels("Update the JetBrains badge", &known),
            owned(&[
                ("jetbrain", false),
                ("jetbrain~jet", true),
                ("jetbrain~brain", true),
                ("badg", false),
            ])
        );
        let unknown = |t: &str| matches!(t, "jet" | "brain" | "badg");
        assert_eq!(
            labels("Update the JetBrains badge", &unknown),
            owned(&[
                ("jetbrain", false),
                ("jet+brain", false),
                ("jet", false),
                ("brain", false),
                ("badg", false),
            ])
        );
        // Code in lower camelCase says what it does in its parts.
        let code = |t: &str| matches!(t, "usest" | "use" | "state");
        assert_eq!(
            labels("useState", &code),
            owned(&[("usest", false), ("use", false), ("state", false)])
        );
        assert_eq!(
            labels("JetBrains brain badge", &known),
            owned(&[
                ("jetbrain", false),
                ("jetbrain~jet", true),
                ("brain", false),
                ("badg", false),
            ])
        );
    }

    #[test]
    fn path_words_weigh_file_names_above_directories() {
        let words = |p: &str| {
            let (f, d) = path_words(p);
            (
                f.into_iter().map(|(w, _)| w).collect::<Vec<_>>(),
                d.into_iter().map(|(w, _)| w).collect::<Vec<_>>(),
            )
        };
        assert_eq!(
            words("crates/uv-resolver/src/lock/mod.rs"),
            (
                vec!["rs".to_owned()],
                vec![
                    "uv".to_owned(),
                    "resolv".to_owned(),
                    "uvresolv".to_owned(),
                    "lock".to_owned()
                ]
            )
        );
        // A lockfile is called one, whatever its manager.
        assert_eq!(
            words("Cargo.lock"),
            (
                vec!["cargo".to_owned(), "lock".to_owned(), "lockfil".to_owned()],
                vec![]
            )
        );
        for (path, lockfile) in [
            ("web/pnpm-lock.yaml", true),
            ("go.sum", true),
            ("package-lock.json", true),
            ("Gemfile.lock", true),
            ("go.mod", false),
            ("src/lock/mod.rs", false),
            ("locks/", false),
        ] {
            assert_eq!(file_kinds(path) == ["lockfile"], lockfile, "{path}");
        }
        assert_eq!(
            words("src/Aspire.Hosting/Aspire.Hosting.cs").0,
            ["aspir", "host", "cs"]
        );
        assert_eq!(words(".github/workflows/").1, ["workflow"]);
    }
}
