//! Running an external extractor: a shell command (`BRAIN_EXTRACTOR_COMMAND`,
//! else `extractor.command` in the config) that reads a prompt on stdin and
//! prints `{"memories":[…]}` on stdout. The contract, the prompt and the
//! judging of the output are in [`brain_core::extract::external`]; this module
//! only runs the process: `sh -c COMMAND` in its own process group, the prompt
//! written from a thread (a command that never reads stdin cannot deadlock),
//! stdout and stderr read on threads with byte caps, and the whole group killed
//! when the timeout (`BRAIN_EXTRACTOR_TIMEOUT`, else
//! `extractor.timeout_seconds`, default 30 s) runs out.
//!
//! How `capture` and `extract` use it:
//!
//! ```text
//! let brain = Brain::open(ctx.root())?;
//! match extractor::try_external(ctx, brain.store(), &input, &kinds)? {
//!     Attempt::Accepted(drafts) => { /* review and write the drafts */ }
//!     Attempt::Refused(err) => {
//!         // Already logged to .brain/runtime/extractor.log.
//!         out.warn(format!("external extractor refused ({err}); using the local pipeline"));
//!         /* run the local pipeline */
//!     }
//!     Attempt::NotConfigured => { /* run the local pipeline */ }
//! }
//! ```
//!
//! which is, spelled out:
//!
//! ```text
//! if let Some((command, timeout)) = extractor::configured(ctx, store.config())? {
//!     let prompt = external::prompt(&input, &kinds);
//!     match extractor::run_in(Some(store.layout().root()), &command, &prompt, timeout) {
//!         Ok(drafts) => /* use them */,
//!         Err(err) => {
//!             let _ = store.append_runtime_log("extractor.log", &external::log_line(ctx.now(), &command, &err));
//!             /* fall back to the local pipeline */
//!         }
//!     }
//! }
//! ```

use std::io::{self, Read, Write};
use std::path::Path;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

use brain_core::config::{Config, MAX_EXTRACTOR_TIMEOUT_SECONDS};
use brain_core::extract::Draft;
use brain_core::extract::external::{self, ExternalError, MAX_OUTPUT_BYTES};
use brain_core::model::MemoryType;
use brain_core::store::Store;
use jiff::Timestamp;

use crate::context::Context;
use crate::error::CliError;

/// Name of the log under `.brain/runtime/` that records refused outputs.
pub(crate) const LOG_NAME: &str = "extractor.log";

/// Bytes of stderr kept; the rest is read and dropped.
const STDERR_CAP: usize = 64 * 1024;

/// How long reading the pipes may outlast the process's exit, for output
/// still in flight when the deadline is reached.
const DRAIN_GRACE: Duration = Duration::from_millis(200);

/// What trying the external extractor came to.
#[derive(Debug)]
pub(crate) enum Attempt {
    /// No extractor is configured (or `BRAIN_EXTRACTOR_COMMAND` is set empty).
    NotConfigured,
    /// The extractor's output was accepted.
    Accepted(Vec<Draft>),
    /// The output was refused; the reason was appended to
    /// `.brain/runtime/extractor.log`. Fall back to the local pipeline.
    Refused(ExternalError),
}

#[derive(Debug, thiserror::Error)]
#[error(
    "`BRAIN_EXTRACTOR_TIMEOUT` is not a whole number of seconds in 1..={MAX_EXTRACTOR_TIMEOUT_SECONDS}: `{0}`"
)]
struct BadTimeout(String);

/// Returns the extractor command and timeout in effect, or `None` when no
/// extractor is configured. `BRAIN_EXTRACTOR_COMMAND` overrides
/// `extractor.command` (set but empty, it turns a configured extractor off);
/// `BRAIN_EXTRACTOR_TIMEOUT` (seconds) overrides `extractor.timeout_seconds`.
/// An unusable `BRAIN_EXTRACTOR_TIMEOUT` is a user error.
pub(crate) fn configured(
    ctx: &Context,
    config: &Config,
) -> Result<Option<(String, Duration)>, CliError> {
    resolve(ctx.extractor_command(), ctx.extractor_timeout(), config)
}

fn resolve(
    env_command: Option<&str>,
    env_timeout: Option<&str>,
    config: &Config,
) -> Result<Option<(String, Duration)>, CliError> {
    let command = match env_command {
        Some(c) => c,
        None => config.extractor.command.as_deref().unwrap_or(""),
    };
    if command.trim().is_empty() {
        return Ok(None);
    }
    let seconds = match env_timeout.map(str::trim).filter(|s| !s.is_empty()) {
        Some(s) => s
            .parse::<u64>()
            .ok()
            .filter(|n| (1..=MAX_EXTRACTOR_TIMEOUT_SECONDS).contains(n))
            .ok_or_else(|| CliError::user(BadTimeout(s.to_owned())))?,
        None => config.extractor.timeout_seconds,
    };
    Ok(Some((command.to_owned(), Duration::from_secs(seconds))))
}

/// Tries the configured extractor on `input` (`kinds`: the types to look for,
/// empty for all), in the repository root. A refusal is logged to
/// `.brain/runtime/extractor.log` (best effort: a log that cannot be written
/// does not stop the fallback).
pub(crate) fn try_external(
    ctx: &Context,
    store: &Store,
    input: &str,
    kinds: &[MemoryType],
) -> Result<Attempt, CliError> {
    Ok(match configured(ctx, store.config())? {
        None => Attempt::NotConfigured,
        Some((command, timeout)) => attempt(store, ctx.now(), &command, timeout, input, kinds),
    })
}

fn attempt(
    store: &Store,
    now: Timestamp,
    command: &str,
    timeout: Duration,
    input: &str,
    kinds: &[MemoryType],
) -> Attempt {
    let prompt = external::prompt(input, kinds);
    match run_in(Some(store.layout().root()), command, &prompt, timeout) {
        Ok(drafts) => Attempt::Accepted(drafts),
        Err(err) => {
            let _ = store.append_runtime_log(LOG_NAME, &external::log_line(now, command, &err));
            Attempt::Refused(err)
        }
    }
}

/// Runs `command` through `sh -c` in the working directory, writes `prompt` to
/// its stdin and judges its stdout with [`external::parse_output`]. Kills the
/// command's process group when `timeout` runs out.
#[cfg(test)]
pub(crate) fn run(
    command: &str,
    prompt: &str,
    timeout: Duration,
) -> Result<Vec<Draft>, ExternalError> {
    run_in(None, command, prompt, timeout)
}

/// Like [`run`], in `dir` when given.
pub(crate) fn run_in(
    dir: Option<&Path>,
    command: &str,
    prompt: &str,
    timeout: Duration,
) -> Result<Vec<Draft>, ExternalError> {
    external::parse_output(&run_raw(dir, command, prompt, timeout)?)
}

/// Runs `command` as [`run_in`] does (own process group, `input` written from
/// a thread, stdout capped at [`MAX_OUTPUT_BYTES`], the group killed at the
/// timeout) and returns its stdout when it exits 0, unjudged. Shared with the
/// failure detector, which judges the output against its own contract.
pub(crate) fn run_raw(
    dir: Option<&Path>,
    command: &str,
    input: &str,
    timeout: Duration,
) -> Result<Vec<u8>, ExternalError> {
    let (status, stdout, stderr) = execute(dir, command, input, timeout)?;
    if !status.success() {
        let excerpt = stderr
            .map(|rx| recv_until(&rx, Instant::now() + DRAIN_GRACE))
            .and_then(|r| r.and_then(Result::ok))
            .map(|c| external::stderr_excerpt(&c.bytes))
            .unwrap_or_default();
        return Err(ExternalError::Exit {
            code: status.code(),
            stderr_excerpt: excerpt,
        });
    }
    Ok(stdout)
}

/// Bytes read from a pipe, and whether there was more than the cap.
struct Captured {
    bytes: Vec<u8>,
    overflowed: bool,
}

type Pipe = mpsc::Receiver<io::Result<Captured>>;

/// Runs the process to its end or its deadline. Returns its exit status, its
/// stdout (at most [`MAX_OUTPUT_BYTES`]) and, for the caller to read if it
/// wants, its stderr.
fn execute(
    dir: Option<&Path>,
    command: &str,
    prompt: &str,
    timeout: Duration,
) -> Result<(ExitStatus, Vec<u8>, Option<Pipe>), ExternalError> {
    let deadline = Instant::now() + timeout;
    let timed_out = || ExternalError::Timeout {
        seconds: timeout.as_secs() + u64::from(timeout.subsec_nanos() > 0),
    };
    let mut cmd = Command::new("sh");
    cmd.arg("-c")
        .arg(command)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    if let Some(dir) = dir {
        cmd.current_dir(dir);
    }
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt as _;
        // Its own group, so a timeout kills what the shell started too.
        cmd.process_group(0);
    }
    let mut child = cmd.spawn().map_err(ExternalError::Spawn)?;

    if let Some(mut stdin) = child.stdin.take() {
        let prompt = prompt.to_owned();
        // Never joined: a command that does not read stdin leaves it blocked
        // until the process ends, when the write fails and the thread exits.
        thread::spawn(move || {
            let _ = stdin.write_all(prompt.as_bytes());
        });
    }
    let stdout = child
        .stdout
        .take()
        .map(|p| read_capped(p, MAX_OUTPUT_BYTES, false));
    let stderr = child
        .stderr
        .take()
        .map(|p| read_capped(p, STDERR_CAP, true));
    let Some(stdout) = stdout else {
        kill(&mut child);
        return Err(ExternalError::Io(io::Error::other("no stdout pipe")));
    };

    let mut captured: Option<io::Result<Captured>> = None;
    let mut pause = Duration::from_millis(1);
    let status = loop {
        if captured.is_none() {
            captured = stdout.try_recv().ok();
            if matches!(&captured, Some(Ok(c)) if c.overflowed) {
                kill(&mut child);
                return Err(ExternalError::TooLarge {
                    limit: MAX_OUTPUT_BYTES,
                });
            }
        }
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) => {}
            Err(e) => {
                kill(&mut child);
                return Err(ExternalError::Io(e));
            }
        }
        let now = Instant::now();
        if now >= deadline {
            kill(&mut child);
            return Err(timed_out());
        }
        thread::sleep(pause.min(deadline - now));
        pause = (pause * 2).min(Duration::from_millis(50));
    };

    // The shell has exited; something it started in the background may still
    // hold stdout open.
    let captured = match captured {
        Some(c) => Some(c),
        None => recv_until(&stdout, deadline.max(Instant::now() + DRAIN_GRACE)),
    };
    let Some(captured) = captured else {
        kill_group(&child);
        return Err(timed_out());
    };
    let captured = captured.map_err(ExternalError::Io)?;
    if captured.overflowed {
        kill_group(&child);
        return Err(ExternalError::TooLarge {
            limit: MAX_OUTPUT_BYTES,
        });
    }
    Ok((status, captured.bytes, stderr))
}

/// Waits for a pipe's reader until `deadline`; `None` when it has not finished.
fn recv_until<T>(rx: &mpsc::Receiver<T>, deadline: Instant) -> Option<T> {
    rx.recv_timeout(deadline.saturating_duration_since(Instant::now()))
        .ok()
}

/// Reads a pipe on a thread: up to `cap` bytes are kept; past that the result
/// is sent at once marked as overflowed, and the rest is either read and
/// dropped (`drain`, so a chatty stderr never blocks the process) or left
/// unread (the pipe is closed, so the process gets `EPIPE`).
fn read_capped<R: Read + Send + 'static>(pipe: R, cap: usize, drain: bool) -> Pipe {
    let (tx, rx) = mpsc::channel();
    thread::spawn(move || {
        let mut pipe = pipe;
        let mut bytes = Vec::new();
        let limit = u64::try_from(cap).unwrap_or(u64::MAX).saturating_add(1);
        let result = (&mut pipe).take(limit).read_to_end(&mut bytes);
        let result = result.map(|_| {
            let overflowed = bytes.len() > cap;
            bytes.truncate(cap);
            Captured { bytes, overflowed }
        });
        let overflowed = matches!(&result, Ok(c) if c.overflowed);
        if overflowed && drain {
            let _ = io::copy(&mut pipe, &mut io::sink());
        }
        let _ = tx.send(result);
    });
    rx
}

/// Kills the process's group and the process itself, and reaps it.
fn kill(child: &mut Child) {
    kill_group(child);
    let _ = child.kill();
    let _ = child.wait();
}

/// Kills every process of the child's group (best effort). The standard
/// library cannot signal a group without `unsafe`, so the shell's `kill` does.
fn kill_group(child: &Child) {
    #[cfg(unix)]
    {
        let _ = Command::new("sh")
            .args(["-c", "kill -s KILL -- \"-$0\" 2>/dev/null"])
            .arg(child.id().to_string())
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status();
    }
    #[cfg(not(unix))]
    let _ = child;
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOOD: &str = r#"{"memories":[{"type":"gotcha","title":"Ledger rows are append-only","summary":"Never UPDATE ledger_entries.","paths":["src/ledger/**"]}]}"#;

    fn prompt() -> String {
        external::prompt("We decided to use UUIDv7 ids.", &[])
    }

    /// A shell word that prints `text` with `printf '%s'`.
    fn print(text: &str) -> String {
        format!("printf '%s' '{text}'")
    }

    #[test]
    fn a_good_extractor_is_accepted() {
        // Reads the whole prompt first and checks it is the prompt.
        let command = format!(
            "input=$(cat); case \"$input\" in *'{}'*UUIDv7*) {} ;; *) exit 9 ;; esac",
            external::INPUT_DELIMITER,
            print(GOOD)
        );
        let drafts = run(&command, &prompt(), Duration::from_secs(20)).unwrap();
        assert_eq!(drafts.len(), 1);
        assert_eq!(drafts[0].kind, MemoryType::Gotcha);
        assert_eq!(drafts[0].paths, ["src/ledger/**"]);
    }

    #[test]
    fn a_failing_extractor_is_refused_with_its_stderr() {
        let command = format!(
            "cat >/dev/null; echo 'model overloaded' >&2; echo 'key=ghp_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789' >&2; {}; exit 3",
            print(GOOD)
        );
        let err = run(&command, &prompt(), Duration::from_secs(20)).unwrap_err();
        let ExternalError::Exit {
            code,
            stderr_excerpt,
        } = &err
        else {
            panic!("{err:?}")
        };
        assert_eq!(*code, Some(3));
        assert!(
            stderr_excerpt.starts_with("model overloaded key="),
            "{stderr_excerpt}"
        );
        assert!(stderr_excerpt.contains("[REDACTED:"), "{stderr_excerpt}");
        assert!(!stderr_excerpt.contains("ghp_"), "{stderr_excerpt}");
    }

    #[test]
    fn an_invalid_item_is_refused() {
        let command = format!(
            "cat >/dev/null; {}",
            print(r#"{"memories":[{"type":"gotcha"}]}"#)
        );
        let err = run(&command, &prompt(), Duration::from_secs(20)).unwrap_err();
        assert!(
            matches!(&err, ExternalError::InvalidItem { index: 0, .. }),
            "{err:?}"
        );
        assert!(err.to_string().contains("missing field `title`"), "{err}");
    }

    #[test]
    fn prose_is_refused() {
        let command =
            "cat >/dev/null; echo 'Sure! Here are the memories I found:'; echo '- use UUIDv7'";
        let err = run(command, &prompt(), Duration::from_secs(20)).unwrap_err();
        assert!(matches!(err, ExternalError::InvalidJson { .. }), "{err:?}");
    }

    #[test]
    fn a_slow_extractor_is_killed() {
        let started = Instant::now();
        let err = run("sleep 30", &prompt(), Duration::from_secs(1)).unwrap_err();
        assert!(
            matches!(err, ExternalError::Timeout { seconds: 1 }),
            "{err:?}"
        );
        assert!(started.elapsed() < Duration::from_secs(20));
        // A background process holding stdout open after the shell exits.
        let started = Instant::now();
        let command = format!("{}; sleep 30 &", print(GOOD));
        let err = run(&command, &prompt(), Duration::from_secs(1)).unwrap_err();
        assert!(matches!(err, ExternalError::Timeout { .. }), "{err:?}");
        assert!(started.elapsed() < Duration::from_secs(20));
    }

    #[test]
    fn an_extractor_that_never_reads_stdin_cannot_deadlock() {
        // Larger than any pipe buffer, so writing it would block for ever.
        let big = "x".repeat(4 * 1024 * 1024);
        let drafts = run(&print(GOOD), &big, Duration::from_secs(20)).unwrap();
        assert_eq!(drafts.len(), 1);
    }

    #[test]
    fn too_much_output_is_refused() {
        let command = "cat >/dev/null; yes '{}'";
        let err = run(command, &prompt(), Duration::from_secs(20)).unwrap_err();
        assert!(matches!(err, ExternalError::TooLarge { .. }), "{err:?}");
    }

    #[test]
    fn a_missing_program_is_an_exit_127() {
        let err = run(
            "definitely-not-a-brain-extractor-x9",
            &prompt(),
            Duration::from_secs(20),
        )
        .unwrap_err();
        assert!(
            matches!(
                err,
                ExternalError::Exit {
                    code: Some(127),
                    ..
                }
            ),
            "{err:?}"
        );
    }

    #[test]
    fn env_overrides_config() {
        let mut config = Config::default();
        assert!(resolve(None, None, &config).unwrap().is_none());
        config.extractor.command = Some("from-config".into());
        config.extractor.timeout_seconds = 45;
        assert_eq!(
            resolve(None, None, &config).unwrap(),
            Some(("from-config".to_owned(), Duration::from_secs(45)))
        );
        assert_eq!(
            resolve(Some("from-env"), Some("7"), &config).unwrap(),
            Some(("from-env".to_owned(), Duration::from_secs(7)))
        );
        assert_eq!(
            resolve(None, Some(""), &config).unwrap(),
            Some(("from-config".to_owned(), Duration::from_secs(45)))
        );
        // Set but empty: off, even with a configured command.
        assert!(resolve(Some(""), None, &config).unwrap().is_none());
        for bad in ["0", "-1", "soon", "3601", "1.5"] {
            let err = resolve(None, Some(bad), &config).unwrap_err();
            assert!(
                err.source.to_string().contains("BRAIN_EXTRACTOR_TIMEOUT"),
                "{bad}"
            );
        }
    }

    #[test]
    fn a_refusal_is_logged_in_the_runtime_dir() {
        let dir = tempfile::tempdir().unwrap();
        Store::init(dir.path(), &Config::default(), false).unwrap();
        let store = Store::open(dir.path()).unwrap();
        let now: Timestamp = "2026-11-20T12:00:00Z".parse().unwrap();
        let timeout = Duration::from_secs(20);

        let ok = format!("test -d .brain || exit 8; cat >/dev/null; {}", print(GOOD));
        let attempt_ok = attempt(&store, now, &ok, timeout, "input", &[]);
        assert!(
            matches!(attempt_ok, Attempt::Accepted(ref d) if d.len() == 1),
            "{attempt_ok:?}"
        );
        let log = dir.path().join(".brain/runtime").join(LOG_NAME);
        assert!(!log.exists());

        let bad = "SECRET_TOKEN=abc /opt/llm/bin/extract --flag; exit 3";
        for _ in 0..2 {
            let a = attempt(&store, now, bad, timeout, "input", &[]);
            assert!(
                matches!(a, Attempt::Refused(ExternalError::Exit { .. })),
                "{a:?}"
            );
        }
        let text = std::fs::read_to_string(&log).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 2, "{text}");
        assert!(
            lines[0].starts_with(
                "2026-11-20T12:00:00Z extract exit: the extractor exited with status 3"
            ),
            "{text}"
        );
        assert!(
            !text.contains("SECRET_TOKEN") && !text.contains("--flag") && !text.contains("input")
        );
        // runtime/ stays ignored by git.
        assert!(dir.path().join(".brain/runtime/.gitignore").exists());
        // Log names are plain file names.
        assert!(store.append_runtime_log("../config.yaml", "x").is_err());
    }
}
