//! Scores `brain inject` on a retrieval development set (real rule files,
//! natural tasks, labelled by someone who did not write the ranking), as the
//! set's README prescribes: only the printed block counts.
//!
//! ```text
//! cargo bench -p brain-cli --bench retrieval_dev                      # tests/fixtures/retrieval-dev
//! cargo bench -p brain-cli --bench retrieval_dev -- --set tests/fixtures/retrieval-holdout
//! cargo bench -p brain-cli --bench retrieval_dev -- --corpus uv --details
//! ```
//!
//! Flags: `--set DIR` (a set laid out like `../shared/retrieval-dev`; may be
//! repeated), `--corpus NAME` (only corpora whose directory contains NAME),
//! `--details` (one line per task), `--keep DIR` (keep the scratch
//! repositories), `--bin PATH` (another `brain` build), `--config FILE`
//! (YAML appended to each store's config, e.g. another embedding provider), and
//! anything after `--inject` is passed to `brain inject`.

#![allow(
    clippy::print_stdout,
    clippy::print_stderr,
    clippy::unwrap_used,
    reason = "a benchmark binary: it reports on stdout and stderr"
)]

#[path = "../tests/support/devset.rs"]
mod devset;

use std::path::PathBuf;

fn main() -> std::process::ExitCode {
    let workspace = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf();
    let mut sets = Vec::new();
    let mut only = None;
    let mut details = false;
    let mut opts = devset::Options {
        binary: PathBuf::from(env!("CARGO_BIN_EXE_brain")),
        inject_args: Vec::new(),
        keep: None,
        config: None,
    };
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--set" => sets.push(PathBuf::from(args.next().unwrap())),
            "--corpus" => only = args.next(),
            "--details" => details = true,
            "--config" => {
                let file = args.next().unwrap_or_default();
                match std::fs::read_to_string(&file) {
                    Ok(text) => opts.config = Some(text),
                    Err(e) => {
                        eprintln!("error: cannot read --config file `{file}`: {e}");
                        return std::process::ExitCode::from(2);
                    }
                }
            }
            "--keep" => opts.keep = args.next().map(PathBuf::from),
            "--bin" => {
                let bin = PathBuf::from(args.next().unwrap());
                opts.binary = bin.canonicalize().unwrap_or(bin);
            }
            "--inject" => opts.inject_args.extend(args.by_ref()),
            "--bench" => {}
            other => {
                eprintln!("unknown argument {other}");
                return std::process::ExitCode::from(2);
            }
        }
    }
    if sets.is_empty() {
        sets.push(workspace.join("tests/fixtures/retrieval-dev"));
    }
    for dir in sets {
        let dir = if dir.is_absolute() {
            dir
        } else {
            workspace.join(dir)
        };
        let set = match devset::DevSet::load(&dir) {
            Ok(s) => s,
            Err(e) => {
                eprintln!("{e}");
                return std::process::ExitCode::from(2);
            }
        };
        let run = match devset::run(&set, &opts, only.as_deref()) {
            Ok(r) => r,
            Err(e) => {
                eprintln!("{e}");
                return std::process::ExitCode::FAILURE;
            }
        };
        println!("## {}\n", dir.display());
        if details {
            println!("{}", devset::details(&run));
            for (corpus, st) in &run.imports {
                for p in &st.lost_phrases {
                    println!("lost in import: {corpus}: {p}");
                }
            }
        }
        println!("{}", devset::report(&run));
    }
    std::process::ExitCode::SUCCESS
}
