//! Scores `brain inject` on a retrieval development set laid out as
//! `../shared/retrieval-dev/README.md` describes (real rule files under
//! `corpus/<owner>__<repo>/`, `corpus/MANIFEST.tsv`, and `tasks.jsonl`).
//!
//! For every corpus: a scratch git repository with the files at their real
//! paths, `brain init`, `brain import` of every file, `brain approve --all`;
//! then one `brain --format json inject --task .. --path ..` per task with
//! the default budget. Only the printed block counts: a rule is found when
//! its phrase (normalised: lowercase, no `` ` `` or `*`, whitespace
//! collapsed) is a substring of the text of an injected entry. Entries are
//! located in the block by their ids, in injected order.
//!
//! Shared by the `retrieval_dev` bench (the full report) and the CLI test
//! that holds the floors.

#![allow(
    dead_code,
    unreachable_pub,
    clippy::cast_precision_loss,
    clippy::disallowed_methods,
    clippy::struct_field_names,
    reason = "shared by a bench and a test, each using part of it; counts fit an f64; \
              the scratch runs get the caller's PATH to find git; a task's text is `task`, \
              as in the set's files"
)]

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde::Deserialize;

/// One task of `tasks.jsonl`.
#[derive(Clone, Debug, Deserialize)]
pub struct Task {
    pub id: String,
    pub corpus: String,
    pub task: String,
    #[serde(default)]
    pub paths: Vec<String>,
    #[serde(default)]
    pub expect: Vec<String>,
    #[serde(default)]
    pub also_ok: Vec<String>,
    #[serde(default)]
    pub difficulty: Option<String>,
    #[serde(default)]
    pub abstain: bool,
    pub style: String,
}

/// A dev set: its corpora (directory → files relative to the directory) and tasks.
#[derive(Debug)]
pub struct DevSet {
    pub root: PathBuf,
    pub corpora: BTreeMap<String, Vec<String>>,
    pub tasks: Vec<Task>,
}

impl DevSet {
    /// Reads `corpus/MANIFEST.tsv` and `tasks.jsonl` under `root`.
    pub fn load(root: &Path) -> Result<DevSet, String> {
        let manifest = root.join("corpus/MANIFEST.tsv");
        let text = std::fs::read_to_string(&manifest)
            .map_err(|e| format!("{}: {e}", manifest.display()))?;
        let mut corpora: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for (no, line) in text.lines().enumerate().skip(1) {
            if line.trim().is_empty() {
                continue;
            }
            let cols: Vec<&str> = line.split('\t').collect();
            if cols.len() < 3 {
                return Err(format!(
                    "{}:{}: too few columns",
                    manifest.display(),
                    no + 1
                ));
            }
            corpora
                .entry(cols[0].to_owned())
                .or_default()
                .push(cols[2].to_owned());
        }
        let tasks_path = root.join("tasks.jsonl");
        let text = std::fs::read_to_string(&tasks_path)
            .map_err(|e| format!("{}: {e}", tasks_path.display()))?;
        let mut tasks = Vec::new();
        for (no, line) in text.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            let task: Task = serde_json::from_str(line)
                .map_err(|e| format!("{}:{}: {e}", tasks_path.display(), no + 1))?;
            tasks.push(task);
        }
        Ok(DevSet {
            root: root.to_path_buf(),
            corpora,
            tasks,
        })
    }
}

/// The dev set's normalisation: lowercase, drop `` ` `` and `*`, collapse
/// whitespace.
pub fn normalise(text: &str) -> String {
    let lower = text.to_lowercase().replace(['`', '*'], "");
    lower.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// What one inject showed for one task.
#[derive(Clone, Debug)]
pub struct Outcome {
    pub task: Task,
    /// The normalised text of each injected entry, in block order.
    pub entries: Vec<String>,
    /// Ids of the injected memories, in block order.
    pub ids: Vec<String>,
    /// The normalised whole block.
    pub block: String,
    /// Bytes of the block.
    pub block_bytes: usize,
    /// The block says nothing is relevant.
    pub abstained: bool,
}

impl Outcome {
    /// 1-based rank of the first entry holding any expected phrase.
    pub fn first_hit(&self) -> Option<usize> {
        let phrases: Vec<String> = self.task.expect.iter().map(|p| normalise(p)).collect();
        self.entries
            .iter()
            .position(|e| phrases.iter().any(|p| e.contains(p.as_str())))
            .map(|i| i + 1)
    }

    /// Expected phrases found in the first `k` entries.
    pub fn found_in_top(&self, k: usize) -> usize {
        self.task
            .expect
            .iter()
            .filter(|p| {
                let p = normalise(p);
                self.entries.iter().take(k).any(|e| e.contains(p.as_str()))
            })
            .count()
    }

    /// Expected phrases found anywhere in the block.
    pub fn found_in_block(&self) -> usize {
        self.task
            .expect
            .iter()
            .filter(|p| self.block.contains(normalise(p).as_str()))
            .count()
    }

    /// Injected entries holding a phrase of `expect` or `also_ok`.
    pub fn useful_entries(&self) -> usize {
        let phrases: Vec<String> = self
            .task
            .expect
            .iter()
            .chain(&self.task.also_ok)
            .map(|p| normalise(p))
            .collect();
        self.entries
            .iter()
            .filter(|e| phrases.iter().any(|p| e.contains(p.as_str())))
            .count()
    }
}

/// What importing one corpus made.
#[derive(Clone, Debug, Default)]
pub struct ImportStats {
    pub memories: usize,
    /// Expected phrases (over the corpus's tasks) found in no memory's text.
    pub lost_phrases: Vec<String>,
    /// Scopes that are neither a path nor a glob of the corpus's files' kind.
    pub titles: Vec<String>,
    pub scopes: Vec<String>,
    /// Files a second import wrote.
    pub second_import_writes: usize,
}

/// Everything the run measured.
#[derive(Debug, Default)]
pub struct Run {
    pub outcomes: Vec<Outcome>,
    pub imports: BTreeMap<String, ImportStats>,
}

/// How to run the binary.
#[derive(Clone, Debug)]
pub struct Options {
    pub binary: PathBuf,
    /// Extra arguments to `inject` (a budget, say).
    pub inject_args: Vec<String>,
    /// Keep the scratch repositories under this directory.
    pub keep: Option<PathBuf>,
    /// YAML appended to every store's `config.yaml` after `brain init`
    /// (another embedding provider, other thresholds).
    pub config: Option<String>,
}

fn run_cmd(cmd: &mut Command, what: &str) -> Result<String, String> {
    let out = cmd.output().map_err(|e| format!("{what}: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "{what}: exit {:?}\n{}\n{}",
            out.status.code(),
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

fn git(dir: &Path, args: &[&str]) -> Result<String, String> {
    run_cmd(
        Command::new("git")
            .args(args)
            .current_dir(dir)
            .env("GIT_CONFIG_GLOBAL", "/dev/null")
            .env("GIT_CONFIG_SYSTEM", "/dev/null")
            .env("GIT_AUTHOR_NAME", "Dev Set")
            .env("GIT_AUTHOR_EMAIL", "devset@example.com")
            .env("GIT_COMMITTER_NAME", "Dev Set")
            .env("GIT_COMMITTER_EMAIL", "devset@example.com")
            .env("GIT_AUTHOR_DATE", "2026-11-01T00:00:00Z")
            .env("GIT_COMMITTER_DATE", "2026-11-01T00:00:00Z"),
        &format!("git {args:?}"),
    )
}

fn brain(opts: &Options, dir: &Path, args: &[&str]) -> Result<String, String> {
    run_cmd(
        Command::new(&opts.binary)
            .args(args)
            .current_dir(dir)
            .env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("HOME", dir.join(".home"))
            .env("NO_COLOR", "1")
            .env("BRAIN_NOW", "2026-11-20T12:00:00Z")
            .env("BRAIN_ACTOR", "Dev Set <devset@example.com>")
            .env("GIT_CONFIG_GLOBAL", "/dev/null")
            .env("GIT_CONFIG_SYSTEM", "/dev/null"),
        &format!("brain {}", args.join(" ")),
    )
}

/// Sets up one corpus's repository and store; returns the import statistics.
fn prepare(
    set: &DevSet,
    corpus: &str,
    files: &[String],
    repo: &Path,
    opts: &Options,
) -> Result<ImportStats, String> {
    std::fs::create_dir_all(repo).map_err(|e| e.to_string())?;
    for f in files {
        let to = repo.join(f);
        if let Some(parent) = to.parent() {
            std::fs::create_dir_all(parent).map_err(|e| e.to_string())?;
        }
        std::fs::copy(set.root.join("corpus").join(corpus).join(f), &to)
            .map_err(|e| format!("{corpus}/{f}: {e}"))?;
    }
    git(repo, &["init", "-q", "-b", "main"])?;
    git(repo, &["add", "-A"])?;
    git(repo, &["commit", "-q", "-m", "rule files"])?;
    brain(opts, repo, &["init"])?;
    if let Some(extra) = &opts.config {
        let path = repo.join(".brain/config.yaml");
        let mut text = std::fs::read_to_string(&path).map_err(|e| e.to_string())?;
        text.push('\n');
        text.push_str(extra);
        text.push('\n');
        std::fs::write(&path, text).map_err(|e| e.to_string())?;
    }
    let mut import = vec!["import"];
    import.extend(files.iter().map(String::as_str));
    brain(opts, repo, &import)?;
    brain(opts, repo, &["approve", "--all"])?;
    if opts.config.is_some() {
        // Embed every memory once, as a user does after choosing a provider.
        brain(opts, repo, &["index"])?;
    }
    // A second import must write nothing, also after the merges of approval.
    let mut again = vec!["--format", "json"];
    again.extend(&import);
    let report: serde_json::Value =
        serde_json::from_str(&brain(opts, repo, &again)?).map_err(|e| e.to_string())?;
    let second_import_writes = report["files"].as_array().map_or(0, |fs| {
        fs.iter()
            .map(|f| f["written"].as_array().map_or(0, Vec::len))
            .sum()
    });
    // The memories' texts, for the phrases import lost.
    let list: serde_json::Value = serde_json::from_str(&brain(
        opts,
        repo,
        &["--format", "json", "list", "--status", "active"],
    )?)
    .map_err(|e| e.to_string())?;
    let mut texts = Vec::new();
    let mut titles = Vec::new();
    let mut scopes = Vec::new();
    for m in list["memories"].as_array().into_iter().flatten() {
        let id = m["id"].as_str().unwrap_or_default();
        let shown: serde_json::Value =
            serde_json::from_str(&brain(opts, repo, &["--format", "json", "show", id])?)
                .map_err(|e| e.to_string())?;
        let mem = &shown["memory"];
        titles.push(mem["title"].as_str().unwrap_or_default().to_owned());
        for p in mem["scope"]["paths"].as_array().into_iter().flatten() {
            scopes.push(p.as_str().unwrap_or_default().to_owned());
        }
        texts.push(normalise(&format!(
            "{}\n{}\n{}",
            mem["title"].as_str().unwrap_or_default(),
            mem["summary"].as_str().unwrap_or_default(),
            mem["detail"].as_str().unwrap_or_default()
        )));
    }
    let mut missing = Vec::new();
    for t in set.tasks.iter().filter(|t| t.corpus == corpus) {
        for p in &t.expect {
            let n = normalise(p);
            if !texts.iter().any(|x| x.contains(n.as_str())) && !missing.contains(p) {
                missing.push(p.clone());
            }
        }
    }
    Ok(ImportStats {
        memories: texts.len(),
        lost_phrases: missing,
        titles,
        scopes,
        second_import_writes,
    })
}

/// Splits a block into entries by the injected ids (each entry's header
/// holds its id in backticks), normalised.
fn entries(block: &str, ids: &[String]) -> Vec<String> {
    let mut starts = Vec::new();
    let mut from = 0;
    for id in ids {
        let needle = format!("`{id}`");
        let Some(at) = block[from..].find(&needle).map(|p| p + from) else {
            starts.push(None);
            continue;
        };
        // The entry starts at its heading line, the last `### ` before the id.
        let start = block[..at].rfind("\n### ").map_or(at, |p| p + 1);
        starts.push(Some(start));
        from = at + needle.len();
    }
    let ends: Vec<usize> = {
        let mut out = Vec::new();
        let known: Vec<usize> = starts.iter().flatten().copied().collect();
        for s in &starts {
            out.push(match s {
                Some(s) => known
                    .iter()
                    .copied()
                    .find(|&k| k > *s)
                    .unwrap_or(block.len()),
                None => 0,
            });
        }
        out
    };
    starts
        .iter()
        .zip(ends)
        .map(|(s, e)| s.map_or_else(String::new, |s| normalise(&block[s..e])))
        .collect()
}

/// Runs every task of `set` (of the corpora matching `only`, when given).
pub fn run(set: &DevSet, opts: &Options, only: Option<&str>) -> Result<Run, String> {
    let tmp = tempfile::tempdir().map_err(|e| e.to_string())?;
    let base = opts
        .keep
        .clone()
        .unwrap_or_else(|| tmp.path().to_path_buf());
    let mut out = Run::default();
    for (corpus, files) in &set.corpora {
        if only.is_some_and(|o| !corpus.contains(o)) {
            continue;
        }
        let repo = base.join(corpus);
        if repo.exists() {
            std::fs::remove_dir_all(&repo).map_err(|e| e.to_string())?;
        }
        let stats = prepare(set, corpus, files, &repo, opts)?;
        out.imports.insert(corpus.clone(), stats);
        for task in set.tasks.iter().filter(|t| &t.corpus == corpus) {
            let mut args: Vec<&str> = vec!["--format", "json", "inject", "--task", &task.task];
            for p in &task.paths {
                args.push("--path");
                args.push(p);
            }
            args.extend(opts.inject_args.iter().map(String::as_str));
            let json: serde_json::Value =
                serde_json::from_str(&brain(opts, &repo, &args)?).map_err(|e| e.to_string())?;
            let block = json["block"].as_str().unwrap_or_default();
            let ids: Vec<String> = json["selected"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|s| s["id"].as_str().unwrap_or_default().to_owned())
                .collect();
            out.outcomes.push(Outcome {
                task: task.clone(),
                entries: entries(block, &ids),
                abstained: ids.is_empty(),
                ids,
                block: normalise(block),
                block_bytes: block.len(),
            });
        }
    }
    Ok(out)
}

/// The metrics of a group of outcomes.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Metrics {
    pub tasks: usize,
    pub positive: usize,
    pub abstain_tasks: usize,
    pub recall1: f64,
    pub recall3: f64,
    pub recall5: f64,
    pub recall_all: f64,
    pub mrr: f64,
    pub all_found: f64,
    pub precision: f64,
    pub abstain: f64,
    pub tokens_positive: f64,
    pub tokens_abstain: f64,
}

/// Computes the README's metrics over `outcomes`.
pub fn metrics<'a>(outcomes: impl IntoIterator<Item = &'a Outcome>) -> Metrics {
    let all: Vec<&Outcome> = outcomes.into_iter().collect();
    let pos: Vec<&&Outcome> = all.iter().filter(|o| !o.task.abstain).collect();
    let neg: Vec<&&Outcome> = all.iter().filter(|o| o.task.abstain).collect();
    let phrases: usize = pos.iter().map(|o| o.task.expect.len()).sum();
    let ratio = |n: usize, d: usize| {
        if d == 0 {
            f64::NAN
        } else {
            n as f64 / d as f64
        }
    };
    let recall = |k: usize| ratio(pos.iter().map(|o| o.found_in_top(k)).sum(), phrases);
    let injected: usize = pos.iter().map(|o| o.entries.len()).sum();
    let mean = |v: &[&&Outcome], f: &dyn Fn(&Outcome) -> f64| {
        if v.is_empty() {
            f64::NAN
        } else {
            v.iter().map(|o| f(o)).sum::<f64>() / v.len() as f64
        }
    };
    Metrics {
        tasks: all.len(),
        positive: pos.len(),
        abstain_tasks: neg.len(),
        recall1: recall(1),
        recall3: recall(3),
        recall5: recall(5),
        recall_all: ratio(pos.iter().map(|o| o.found_in_block()).sum(), phrases),
        mrr: mean(&pos, &|o| o.first_hit().map_or(0.0, |r| 1.0 / r as f64)),
        all_found: mean(&pos, &|o| {
            f64::from(u8::from(o.found_in_block() == o.task.expect.len()))
        }),
        precision: ratio(pos.iter().map(|o| o.useful_entries()).sum(), injected),
        abstain: mean(&neg, &|o| f64::from(u8::from(o.abstained))),
        tokens_positive: mean(&pos, &|o| o.block_bytes.div_ceil(4) as f64),
        tokens_abstain: mean(&neg, &|o| o.block_bytes.div_ceil(4) as f64),
    }
}

fn num(x: f64) -> String {
    if x.is_nan() {
        "–".to_owned()
    } else {
        format!("{x:.2}")
    }
}

fn tok(x: f64) -> String {
    if x.is_nan() {
        "–".to_owned()
    } else {
        format!("{x:.0}")
    }
}

/// A Markdown table of `rows`.
pub fn table(heading: &str, rows: &[(String, Metrics)]) -> String {
    let mut s = format!(
        "| {heading} | tasks | R@1 | R@3 | R@5 | R@all | MRR | all found | precision | abstain | tokens (pos / abs) |\n\
         |---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n"
    );
    for (name, m) in rows {
        let _ = writeln!(
            s,
            "| {name} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} / {} |",
            m.tasks,
            num(m.recall1),
            num(m.recall3),
            num(m.recall5),
            num(m.recall_all),
            num(m.mrr),
            num(m.all_found),
            num(m.precision),
            if m.abstain_tasks == 0 {
                "–".to_owned()
            } else {
                format!(
                    "{}/{}",
                    (m.abstain * m.abstain_tasks as f64).round(),
                    m.abstain_tasks
                )
            },
            tok(m.tokens_positive),
            tok(m.tokens_abstain),
        );
    }
    s
}

/// The full report: overall, per corpus, difficulty and style, and import statistics.
pub fn report(run: &Run) -> String {
    let group = |key: &dyn Fn(&Outcome) -> String| {
        let mut groups: BTreeMap<String, Vec<&Outcome>> = BTreeMap::new();
        for o in &run.outcomes {
            groups.entry(key(o)).or_default().push(o);
        }
        groups
            .into_iter()
            .map(|(k, v)| (k, metrics(v)))
            .collect::<Vec<_>>()
    };
    let mut s = String::new();
    s.push_str(&table("all", &[("all".to_owned(), metrics(&run.outcomes))]));
    s.push('\n');
    s.push_str(&table("corpus", &group(&|o| o.task.corpus.clone())));
    s.push('\n');
    s.push_str(&table(
        "difficulty",
        &group(&|o| {
            o.task
                .difficulty
                .clone()
                .unwrap_or_else(|| "abstain".to_owned())
        }),
    ));
    s.push('\n');
    s.push_str(&table("style", &group(&|o| o.task.style.clone())));
    s.push_str("\n| corpus | memories | expected phrases in no memory | second import writes |\n|---|---:|---:|---:|\n");
    for (corpus, st) in &run.imports {
        let _ = writeln!(
            s,
            "| {corpus} | {} | {} | {} |",
            st.memories,
            st.lost_phrases.len(),
            st.second_import_writes
        );
    }
    s
}

/// One line per task: what was found, for debugging.
pub fn details(run: &Run) -> String {
    let mut s = String::new();
    for o in &run.outcomes {
        let status = if o.task.abstain {
            if o.abstained { "ok-abstain" } else { "NOISE" }.to_owned()
        } else {
            format!(
                "{}/{} rank {}",
                o.found_in_block(),
                o.task.expect.len(),
                o.first_hit().map_or("-".to_owned(), |r| r.to_string())
            )
        };
        let _ = writeln!(
            s,
            "{:<14} {:<12} {:<11} {:<14} [{}] {}",
            o.task.id,
            status,
            o.task.difficulty.as_deref().unwrap_or("abstain"),
            o.task.style,
            o.ids.join(", "),
            o.task
                .task
                .lines()
                .next()
                .unwrap_or_default()
                .chars()
                .take(70)
                .collect::<String>()
        );
    }
    s
}
