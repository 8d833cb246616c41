//! The fixed vocabulary of the phrase parser: the policy patterns (anchored
//! regular expressions over lowercase words, each ending on a word boundary)
//! and the word lists that end names, open hints and can be dropped.

use std::sync::LazyLock;

use regex::Regex;

use super::re;

const GERUND: &str = "running|using|invoking|calling|triggering|starting|executing|applying|changing|touching|you run|you use|we run|we use|it runs";
const WHO: &str = "human|person|maintainer|reviewer|team|me|us|someone|somebody|owner|user|lead|operator|admin|dba";

pub(super) static REVIEW_REQUIRE: LazyLock<Regex> = LazyLock::new(|| {
    re(&format!(
        r"^(?:require|requires|required|need|needs|want|request|demand|insist on|get|enforce|mandate)(?: (?:a|an|the|explicit|human|manual|mandatory|maintainer|team|security|code|peer|extra))* (?:review|reviews|approval|approvals|sign-off|signoff|sign off|confirmation|permission|go-ahead)(?: from (?:a |an |the )?(?:{WHO})s?)?(?: (?:for|of|on|before|when|to))?(?: (?:{GERUND}|any|every|each))?(?: |$)"
    ))
});

pub(super) static REVIEW_ASK: LazyLock<Regex> = LazyLock::new(|| {
    re(&format!(
        r"^(?:(?:ask|check with|consult|confirm with|ping|get approval from|get sign-off from|get permission from|get an ok from|get the ok from|talk to) (?:a |an |the |your |our )?(?:{WHO})s?|ask for (?:a |an )?(?:human |manual )?(?:review|approval|permission|sign-off|confirmation))(?: first)? (?:before|prior to|ahead of)(?: (?:{GERUND}|any))?(?: |$)"
    ))
});

pub(super) static AVOID_NOT_PREFER: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"^(?:prefer|prefers|would rather|'d rather) not (?:to )?(?:use|run|using|running|invoke|call|rely on)(?: |$)",
    )
});

pub(super) static AVOID_VERB: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"^(?:avoid|avoids|avoiding|stay away from|steer clear of|ban|forbid|no more)(?: (?:using|running|calling|invoking|triggering|the use of|use of|to use|to run))?(?: |$)",
    )
});

pub(super) static AVOID_NEGATED: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"^(?:never|not|don't|dont|do not|does not|doesn't|must not|mustn't|should not|shouldn't|shall not|cannot|can't|can not|stop|quit|cease|no longer|refrain from)(?: (?:ever|again|any longer|anymore))? (?:use|using|run|running|invoke|invoking|call|calling|trigger|triggering|rely on|relying on|reach for|pick|choose|start|starting|execute|executing|apply|applying|go with|default to|suggest|suggesting|recommend|recommending)(?: |$)",
    )
});

pub(super) static PREFER_VERB: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"^(?:prefer|prefers|preferring|favor|favour|favors|favours)(?: (?:to use|to run|using|running|to call|calling|to invoke|invoking))?(?: |$)",
    )
});

pub(super) static PREFER_IMPERATIVE: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"^(?:use|run|invoke|call|trigger|reach for|go with|default to|stick with|stick to|opt for|pick|choose|start with|lean on|rely on|recommend)(?: |$)",
    )
});

pub(super) static PREDICATE_REVIEW: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"^(?:needs|need|requires|require|must get|should get|must have|should have|must go through|should go through|needs to go through|is gated by|is gated on|is subject to)(?: (?:a|an|explicit|human|manual|mandatory|maintainer|peer))* (?:review|approval|sign-off|signoff|sign off)(?: (?:first|before use|before running))?(?: |$)",
    )
});

pub(super) static PREDICATE_AVOID: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"^(?:(?:is|are) (?:deprecated|banned|forbidden|off-limits|off limits|not allowed|discouraged)|(?:should|must|shall) (?:not|never) be (?:used|run|invoked|called|picked|chosen)|(?:shouldn't|mustn't) be (?:used|run|invoked)|is not to be used)(?: |$)",
    )
});

pub(super) static PREDICATE_PREFER: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"^(?:(?:is|are|should be|must be) (?:preferred|the preferred choice|the default|the first choice|recommended)|(?:should|must) be (?:used|run|tried)(?: first)?)(?: |$)",
    )
});

/// Words that open a leading `when …,` / `for …,` clause or a hint phrase.
pub(super) const HINT_MARKERS: &[&str] = &[
    "for",
    "when",
    "whenever",
    "while",
    "if",
    "in",
    "inside",
    "under",
    "within",
    "on",
    "across",
    "during",
    "throughout",
];

/// Words that end a target name or a hint phrase.
pub(super) const STOP: &[&str] = &[
    "for",
    "when",
    "whenever",
    "while",
    "if",
    "in",
    "inside",
    "under",
    "within",
    "on",
    "across",
    "during",
    "throughout",
    "before",
    "after",
    "unless",
    "without",
    "over",
    "instead",
    "rather",
    "than",
    "to",
    "not",
    "first",
    "again",
    "anymore",
    "always",
    "please",
    "only",
    "because",
    "since",
    "as",
    "so",
    "but",
    "where",
    "from",
    "with",
    "at",
    "by",
    "except",
    "then",
    "until",
    "is",
    "are",
    "should",
    "must",
    "needs",
    "requires",
];

pub(super) const DETERMINERS: &[&str] = &[
    "the", "a", "an", "our", "this", "that", "any", "all", "your", "my", "every", "each", "their",
];

/// Words that can never be a target on their own: pronouns, and generic
/// nouns that name no skill ("run the tests before committing").
pub(super) const NOT_A_NAME: &[&str] = &[
    "it",
    "this",
    "that",
    "them",
    "these",
    "those",
    "something",
    "anything",
    "everything",
    "nothing",
    "one",
    "of",
    "what",
    "which",
    "me",
    "us",
    "you",
    "him",
    "her",
    "here",
    "there",
    "and",
    "or",
    "tests",
    "test",
    "code",
    "files",
    "file",
    "changes",
    "things",
    "stuff",
];

/// Generic words dropped from the end of a task hint ("payments work").
pub(super) const GENERIC_TAIL: &[&str] =
    &["work", "task", "tasks", "job", "jobs", "stuff", "things"];

/// Words a hint phrase made only of says nothing ("files under …").
pub(super) const GENERIC_ONLY: &[&str] = &[
    "files",
    "file",
    "code",
    "directory",
    "directories",
    "folder",
    "folders",
    "paths",
    "path",
    "changes",
    "change",
    "edits",
    "anything",
    "something",
    "stuff",
];

/// Verbs that may follow `when` in a hint ("when touching …").
pub(super) const HINT_GERUNDS: &[&str] = &[
    "touching",
    "editing",
    "changing",
    "modifying",
    "working",
    "updating",
    "writing",
    "fixing",
    "doing",
    "handling",
    "adding",
    "creating",
    "refactoring",
    "reviewing",
    "testing",
    "building",
    "deploying",
];

pub(super) const REVIEW_WORDS: &[&str] = &[
    "asking",
    "ask",
    "asked",
    "review",
    "reviewed",
    "reviewing",
    "approval",
    "approved",
    "approves",
    "approve",
    "human",
    "person",
    "sign-off",
    "signoff",
    "signs",
    "permission",
    "confirmation",
    "confirming",
    "checking",
    "check",
    "maintainer",
    "someone",
    "ok",
    "okay",
    "consent",
];

pub(super) const SUBJECTS: &[&[&str]] = &[
    &["we"],
    &["you"],
    &["i"],
    &["agents"],
    &["agent"],
    &["the", "agent"],
    &["the", "agents"],
    &["the", "team"],
    &["our", "team"],
    &["everyone"],
    &["everybody"],
];

pub(super) const MODALS: &[&[&str]] = &[
    &["should"],
    &["must"],
    &["shall"],
    &["will"],
    &["need", "to"],
    &["needs", "to"],
    &["have", "to"],
    &["has", "to"],
    &["want", "to"],
    &["wants", "to"],
    &["ought", "to"],
    &["would", "like", "to"],
    &["'d", "like", "to"],
];

/// Words after a subject that make the subject droppable: "we prefer X",
/// "we never use X" (but not "we use X", which states a fact).
pub(super) const EXPLICIT_AFTER_SUBJECT: &[&str] = &[
    "prefer", "prefers", "avoid", "avoids", "never", "don't", "dont", "do", "does", "doesn't",
    "require", "requires", "always", "stop", "no", "ask", "not", "would", "'d",
];

pub(super) const FILLERS: &[&[&str]] = &[
    &["please"],
    &["kindly"],
    &["always"],
    &["generally"],
    &["also"],
    &["just"],
    &["ok"],
    &["okay"],
    &["note"],
    &["rule"],
    &["policy"],
    &["preference"],
    &["important"],
    &["by", "default"],
    &["from", "now", "on"],
    &["going", "forward"],
    &["in", "future"],
    &["in", "the", "future"],
    &["as", "a", "rule"],
    &["in", "general"],
    &["let's"],
    &["lets"],
    &["let", "us"],
    &["i", "want", "you", "to"],
    &["i'd", "like", "you", "to"],
    &["make", "sure", "to"],
    &["make", "sure", "you"],
    &["remember", "to"],
    &["be", "sure", "to"],
    &["try", "to"],
];
