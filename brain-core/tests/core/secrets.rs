//! The secret firewall against the corpus in `tests/fixtures/secrets/`: every
//! secret is redacted and reported by kind, every look-alike is left byte for
//! byte.

use brain_core::secrets::redact;

use crate::workspace;

/// The cases of a corpus file: comments and blank lines left out, `\n`
/// turned into a line break.
fn cases(name: &str) -> Vec<(usize, String)> {
    let text =
        std::fs::read_to_string(workspace().join("tests/fixtures/secrets").join(name)).unwrap();
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|(n, l)| (n + 1, l.replace("\\n", "\n")))
        .collect()
}

#[test]
fn every_secret_is_redacted() {
    let cases = cases("secrets.txt");
    assert!(cases.len() >= 25, "only {} secrets", cases.len());
    let mut kinds = std::collections::BTreeSet::new();
    for (line, case) in cases {
        let (kind, marked) = case.split_once(' ').unwrap();
        let (before, rest) = marked.split_once('⟦').unwrap();
        let (secret, after) = rest.split_once('⟧').unwrap();
        let input = format!("{before}{secret}{after}");
        let (output, findings) = redact(&input);
        assert!(
            !output.contains(secret),
            "secrets.txt:{line}: the secret survived: {output}"
        );
        assert!(
            output.contains(&format!("[REDACTED:{kind}]")),
            "secrets.txt:{line}: expected a {kind} marker: {output}"
        );
        assert_eq!(
            findings.iter().map(|f| f.kind.as_str()).collect::<Vec<_>>(),
            [kind],
            "secrets.txt:{line}"
        );
        assert_eq!(findings[0].offset, before.len(), "secrets.txt:{line}");
        let report = serde_json::to_string(&findings).unwrap();
        assert!(!report.contains(secret), "secrets.txt:{line}: {report}");
        kinds.insert(kind.to_owned());
    }
    // One case at least for every detector.
    assert_eq!(kinds.len(), 12, "{kinds:?}");
}

#[test]
fn look_alikes_are_left_alone() {
    let cases = cases("lookalikes.txt");
    assert!(cases.len() >= 25, "only {} look-alikes", cases.len());
    for (line, case) in cases {
        let (output, findings) = redact(&case);
        assert_eq!(output, case, "lookalikes.txt:{line}: {findings:?}");
        assert!(findings.is_empty(), "lookalikes.txt:{line}");
    }
}

/// One entry of `tests/fixtures/secrets/corpus.yaml`.
struct Entry {
    kind: String,
    value: String,
    context: String,
}

impl Entry {
    fn text(&self) -> String {
        self.context.replace("{}", &self.value)
    }
}

fn corpus(section: &str) -> Vec<Entry> {
    let text =
        std::fs::read_to_string(workspace().join("tests/fixtures/secrets/corpus.yaml")).unwrap();
    let json = brain_core::yaml::to_json_value(&text).unwrap();
    json[section]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| Entry {
            kind: e["kind"].as_str().unwrap().to_owned(),
            value: e["value"].as_str().unwrap().to_owned(),
            context: e["context"].as_str().unwrap().to_owned(),
        })
        .collect()
}

/// The parts of a secret that must not survive: every run of 6 or more
/// characters between line breaks (a PEM block is checked line by line).
fn needles(value: &str) -> Vec<&str> {
    value
        .split(['\n', ' '])
        .flat_map(|l| l.split("\\n"))
        .filter(|p| p.len() >= 6 && !p.starts_with("-----"))
        .collect()
}

#[test]
fn corpus_secrets_in_context_are_redacted_with_their_kind() {
    let secrets = corpus("secrets");
    assert!(secrets.len() >= 60, "only {} secrets", secrets.len());
    let mut failures = Vec::new();
    for (n, e) in secrets.iter().enumerate() {
        let (output, findings) = redact(&e.text());
        for needle in needles(&e.value) {
            if output.contains(needle) {
                failures.push(format!("secret {n} ({}) survived: {output}", e.kind));
            }
        }
        if !output.contains(&format!("[REDACTED:{}]", e.kind)) {
            failures.push(format!(
                "secret {n} ({}) has no marker of its kind: {output}",
                e.kind
            ));
        }
        let report = serde_json::to_string(&findings).unwrap();
        assert!(!report.contains(&e.value));
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn corpus_look_alikes_in_context_are_left_alone() {
    let lookalikes = corpus("lookalikes");
    assert!(
        lookalikes.len() >= 50,
        "only {} look-alikes",
        lookalikes.len()
    );
    let altered: Vec<String> = lookalikes
        .iter()
        .filter_map(|e| {
            let (output, _) = redact(&e.text());
            (output != e.text()).then(|| format!("{}: {output}", e.kind))
        })
        .collect();
    assert!(
        altered.is_empty(),
        "altered look-alikes:\n{}",
        altered.join("\n")
    );
}
