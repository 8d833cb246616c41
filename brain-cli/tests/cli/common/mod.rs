//! The hermetic test environment: a temp root, a cleared environment, a pinned
//! clock and actor, and output captured as stdout + stderr + exit status.

use std::ffi::OsStr;
use std::fmt;
use std::path::{Path, PathBuf};
use std::process::Command;

#[path = "../../../../brain-core/tests/support/fixture_tree.rs"]
mod fixture_tree;
pub(crate) use fixture_tree::copy_tree;

pub(crate) const NOW: &str = "2026-11-20T12:00:00Z";
pub(crate) const ACTOR: &str = "Dana Okafor <dana@tollbooth.example>";

pub(crate) fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

pub(crate) struct TestEnv {
    _tmp: tempfile::TempDir,
    root: PathBuf,
}

impl TestEnv {
    /// An empty directory.
    pub(crate) fn empty() -> TestEnv {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().canonicalize().unwrap().join("repo");
        std::fs::create_dir_all(&root).unwrap();
        TestEnv { _tmp: tmp, root }
    }

    /// A copy of `tests/fixtures/<name>`.
    pub(crate) fn fixture(name: &str) -> TestEnv {
        let env = TestEnv::empty();
        copy_tree(&workspace().join("tests/fixtures").join(name), &env.root);
        env
    }

    /// A copy of `.brain-example/`.
    pub(crate) fn example() -> TestEnv {
        let env = TestEnv::empty();
        copy_tree(&workspace().join(".brain-example"), &env.root);
        env
    }

    /// The example store plus one repository-wide critical rule, so the
    /// always-on index and the exported rule files have one to show.
    pub(crate) fn example_with_critical_rule() -> TestEnv {
        let env = TestEnv::example();
        env.brain([
            "add",
            "--type",
            "convention",
            "--title",
            "Run the whole test suite before pushing",
            "--summary",
            "Run `bash scripts/check.sh` before every push; CI runs the same script.",
            "--importance",
            "critical",
            "--status",
            "active",
        ])
        .success();
        env
    }

    pub(crate) fn root(&self) -> &Path {
        &self.root
    }

    pub(crate) fn command<I, S>(&self, args: I) -> Command
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_brain"));
        cmd.args(args)
            .current_dir(&self.root)
            .env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("HOME", self.root.join(".home"))
            .env("NO_COLOR", "1")
            .env("COLUMNS", "100")
            .env("BRAIN_NOW", NOW)
            .env("BRAIN_ACTOR", ACTOR)
            .env("GIT_CONFIG_GLOBAL", "/dev/null")
            .env("GIT_CONFIG_SYSTEM", "/dev/null");
        cmd
    }

    #[must_use = "snapshot the output or check it"]
    pub(crate) fn brain<I, S>(&self, args: I) -> CliOutput
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        self.brain_with_env(&[], args)
    }

    /// Like [`TestEnv::brain`], with some variables set (or overridden):
    /// `EDITOR` for `brain edit`, a later `BRAIN_NOW`.
    #[must_use = "snapshot the output or check it"]
    pub(crate) fn brain_with_env<I, S>(&self, vars: &[(&str, &str)], args: I) -> CliOutput
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        let mut cmd = self.command(args);
        for (k, v) in vars {
            cmd.env(k, v);
        }
        let output = cmd
            .stdin(std::process::Stdio::null())
            .output()
            .expect("the brain binary is built by cargo for integration tests");
        CliOutput::new(&output, &self.root)
    }

    /// Runs `brain --format json <args>`, checks that stdout is one JSON document
    /// valid against `schemas/output/<schema>.schema.json`, and returns it.
    pub(crate) fn brain_json(&self, schema: &str, args: &[&str]) -> (serde_json::Value, CliOutput) {
        self.brain_json_at(NOW, schema, args)
    }

    /// Like [`TestEnv::brain_json`], with the clock at `now`: a later run
    /// of a command, which writes records of its own.
    pub(crate) fn brain_json_at(
        &self,
        now: &str,
        schema: &str,
        args: &[&str],
    ) -> (serde_json::Value, CliOutput) {
        let mut full = vec!["--format", "json"];
        full.extend_from_slice(args);
        let out = self.brain_with_env(&[("BRAIN_NOW", now)], full);
        let value = validate_json(schema, &out.stdout);
        (value, out)
    }

    pub(crate) fn git(&self, args: &[&str]) -> String {
        let out = Command::new("git")
            .args(args)
            .current_dir(&self.root)
            .env("GIT_CONFIG_GLOBAL", "/dev/null")
            .env("GIT_CONFIG_SYSTEM", "/dev/null")
            .env("GIT_AUTHOR_NAME", "Test")
            .env("GIT_AUTHOR_EMAIL", "test@example.com")
            .env("GIT_COMMITTER_NAME", "Test")
            .env("GIT_COMMITTER_EMAIL", "test@example.com")
            .env("GIT_AUTHOR_DATE", "2026-11-01T00:00:00Z")
            .env("GIT_COMMITTER_DATE", "2026-11-01T00:00:00Z")
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "git {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    }
}

/// Parses `stdout` as exactly one JSON document and validates it.
pub(crate) fn validate_json(schema: &str, stdout: &str) -> serde_json::Value {
    let value: serde_json::Value = serde_json::from_str(stdout)
        .unwrap_or_else(|e| panic!("stdout is not one JSON document ({e}):\n{stdout}"));
    let path = workspace()
        .join("schemas/output")
        .join(format!("{schema}.schema.json"));
    let schema_value: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let validator = jsonschema::validator_for(&schema_value).unwrap();
    let errors: Vec<String> = validator
        .iter_errors(&value)
        .map(|e| e.to_string())
        .collect();
    assert!(
        errors.is_empty(),
        "output does not match {schema}: {errors:?}\n{stdout}"
    );
    value
}

/// Captured output of one run, with the temp root replaced by `[ROOT]`.
pub(crate) struct CliOutput {
    pub(crate) stdout: String,
    pub(crate) stderr: String,
    pub(crate) status: i32,
}

impl CliOutput {
    fn new(output: &std::process::Output, root: &Path) -> CliOutput {
        let clean =
            |b: &[u8]| String::from_utf8_lossy(b).replace(&root.display().to_string(), "[ROOT]");
        CliOutput {
            stdout: clean(&output.stdout),
            stderr: clean(&output.stderr),
            status: output.status.code().unwrap_or(-1),
        }
    }

    #[track_caller]
    pub(crate) fn success(self) -> CliOutput {
        assert_eq!(self.status, 0, "{self}");
        self
    }
}

impl fmt::Display for CliOutput {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.stdout)?;
        if !self.stderr.is_empty() {
            write!(f, "--- stderr ---\n{}", self.stderr)?;
        }
        write!(f, "[exit status: {}]", self.status)
    }
}

/// Every file under `root` with its text, by relative path, leaving out the
/// top-level entries named in `skip` (`.git`, `.brain`, the test's `.home`).
pub(crate) fn files_under(
    root: &Path,
    skip: &[&str],
) -> std::collections::BTreeMap<String, String> {
    let mut out = std::collections::BTreeMap::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            let rel = path.strip_prefix(root).unwrap().display().to_string();
            if skip.contains(&rel.as_str()) {
                continue;
            }
            if path.is_dir() {
                stack.push(path);
            } else {
                out.insert(rel, std::fs::read_to_string(&path).unwrap());
            }
        }
    }
    out
}
