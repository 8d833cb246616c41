//! `store::git::commit_info` on real repositories made with the `git` CLI.

use std::path::Path;
use std::process::Command;

use brain_core::store::git::{
    ChangeKind, CommitInfo, FileChange, GitError, MAX_CHANGES, commit_info,
};
use jiff::Timestamp;

/// Runs `git` in `dir` with a pinned identity and date and no user config;
/// returns its trimmed standard output.
fn git_as(dir: &Path, who: (&str, &str), date: &str, args: &[&str]) -> String {
    let output = Command::new("git")
        .arg("-c")
        .arg("commit.gpgsign=false")
        .arg("-c")
        .arg("tag.gpgsign=false")
        .args(args)
        .current_dir(dir)
        .env_remove("GIT_DIR")
        .env_remove("GIT_WORK_TREE")
        .env_remove("GIT_INDEX_FILE")
        .env_remove("GIT_OBJECT_DIRECTORY")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_AUTHOR_NAME", who.0)
        .env("GIT_AUTHOR_EMAIL", who.1)
        .env("GIT_COMMITTER_NAME", "Committer")
        .env("GIT_COMMITTER_EMAIL", "committer@example.com")
        .env("GIT_AUTHOR_DATE", date)
        .env("GIT_COMMITTER_DATE", date)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "git {args:?} failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).unwrap().trim().to_owned()
}

const ADA: (&str, &str) = ("Ada Lovelace", "ada@example.com");
const BOB: (&str, &str) = ("Bob", "bob@example.com");

fn write(dir: &Path, rel: &str, contents: impl AsRef<[u8]>) {
    let path = dir.join(rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, contents).unwrap();
}

fn change(path: &str, kind: ChangeKind, added: u32, removed: u32) -> FileChange {
    FileChange {
        path: path.to_owned(),
        old_path: None,
        kind,
        added_lines: added,
        removed_lines: removed,
        binary: false,
    }
}

fn binary(path: &str, kind: ChangeKind) -> FileChange {
    FileChange {
        binary: true,
        ..change(path, kind, 0, 0)
    }
}

fn ts(s: &str) -> Timestamp {
    s.parse().unwrap()
}

/// The ids of the commits of [`history`].
struct History {
    root: String,
    second: String,
    feature: String,
    merge: String,
}

/// A repository with, on `main`:
///
/// 1. a root commit by Ada adding five text files (one empty);
/// 2. a commit by Bob that modifies `src/lib.rs` (+3 −1), adds
///    `notes/todo.md`, deletes `old.txt` and adds the binary `assets/logo.png`;
/// 3. a `--no-ff` merge of branch `feature`, whose one commit renames
///    `docs/guide.md` to `docs/manual.md` and adds a text file over 1 MiB;
///
/// and an annotated tag `v1` on the root commit.
fn history(dir: &Path) -> History {
    let g = |who, date, args: &[&str]| git_as(dir, who, date, args);
    g(ADA, "2026-01-01T00:00:00Z", &["init", "-q", "-b", "main"]);

    write(dir, "README.md", "# Project\nhello\n");
    write(dir, "src/lib.rs", "line1\nline2\nline3\nline4\nline5\n");
    write(dir, "old.txt", "obsolete\nfile\n");
    write(dir, "docs/guide.md", "the guide\n");
    write(dir, "empty.txt", "");
    g(ADA, "2026-01-01T00:00:00Z", &["add", "-A"]);
    g(
        ADA,
        "2026-01-01T00:00:00Z",
        &[
            "commit",
            "-q",
            "-m",
            "Initial commit\n\nSets up the project.",
        ],
    );
    let root = g(ADA, "2026-01-01T00:00:00Z", &["rev-parse", "HEAD"]);
    g(
        ADA,
        "2026-01-01T00:00:00Z",
        &["tag", "-a", "v1", "-m", "first release"],
    );

    write(
        dir,
        "src/lib.rs",
        "line1\nline2\nLINE3\nline4\nline5\nline6\nline7\n",
    );
    write(dir, "notes/todo.md", "a\nb\n");
    std::fs::remove_file(dir.join("old.txt")).unwrap();
    write(
        dir,
        "assets/logo.png",
        [
            0x89, b'P', b'N', b'G', b'\r', b'\n', 0x1a, b'\n', 0, 0, 0, 0x0d, 0xff,
        ],
    );
    g(BOB, "2026-01-02T10:30:00+02:00", &["add", "-A"]);
    g(
        BOB,
        "2026-01-02T10:30:00+02:00",
        &[
            "commit",
            "-q",
            "--cleanup=verbatim",
            "-m",
            "Rework lib\n\nAdd notes, drop old.txt, add a logo.\n\n\n",
        ],
    );
    let second = g(BOB, "2026-01-02T10:30:00+02:00", &["rev-parse", "HEAD"]);

    g(
        BOB,
        "2026-01-03T00:00:00Z",
        &["checkout", "-q", "-b", "feature"],
    );
    g(
        BOB,
        "2026-01-03T00:00:00Z",
        &["mv", "docs/guide.md", "docs/manual.md"],
    );
    let mut big = String::new();
    for i in 0..80_000 {
        big.push_str("line number ");
        big.push_str(&i.to_string());
        big.push('\n');
    }
    assert!(big.len() > 1024 * 1024);
    write(dir, "data/big.txt", big);
    g(BOB, "2026-01-03T00:00:00Z", &["add", "-A"]);
    g(
        BOB,
        "2026-01-03T00:00:00Z",
        &["commit", "-q", "-m", "Rename the guide"],
    );
    let feature = g(BOB, "2026-01-03T00:00:00Z", &["rev-parse", "HEAD"]);

    g(ADA, "2026-01-04T12:00:00Z", &["checkout", "-q", "main"]);
    g(
        ADA,
        "2026-01-04T12:00:00Z",
        &[
            "merge",
            "-q",
            "--no-ff",
            "-m",
            "Merge branch 'feature'",
            "feature",
        ],
    );
    let merge = g(ADA, "2026-01-04T12:00:00Z", &["rev-parse", "HEAD"]);
    History {
        root,
        second,
        feature,
        merge,
    }
}

fn expect_root(info: &CommitInfo, h: &History) {
    assert_eq!(
        info,
        &CommitInfo {
            id: h.root.clone(),
            short_id: h.root[..12].to_owned(),
            summary: "Initial commit".to_owned(),
            message: "Initial commit\n\nSets up the project.".to_owned(),
            author: "Ada Lovelace <ada@example.com>".to_owned(),
            time: ts("2026-01-01T00:00:00Z"),
            parents: 0,
            changes: vec![
                change("README.md", ChangeKind::Added, 2, 0),
                change("docs/guide.md", ChangeKind::Added, 1, 0),
                change("empty.txt", ChangeKind::Added, 0, 0),
                change("old.txt", ChangeKind::Added, 2, 0),
                change("src/lib.rs", ChangeKind::Added, 5, 0),
            ],
            truncated: false,
        }
    );
}

#[test]
fn commit_info_reads_every_field() {
    let dir = tempfile::tempdir().unwrap();
    let h = history(dir.path());
    // From a subdirectory: the repository is discovered upwards and paths
    // stay relative to the work tree root.
    let root = dir.path().join("src");

    let head = commit_info(&root, "HEAD").unwrap();
    assert_eq!(
        head,
        CommitInfo {
            id: h.merge.clone(),
            short_id: h.merge[..12].to_owned(),
            summary: "Merge branch 'feature'".to_owned(),
            message: "Merge branch 'feature'".to_owned(),
            author: "Ada Lovelace <ada@example.com>".to_owned(),
            time: ts("2026-01-04T12:00:00Z"),
            parents: 2,
            changes: vec![
                binary("data/big.txt", ChangeKind::Added),
                FileChange {
                    old_path: Some("docs/guide.md".to_owned()),
                    ..change("docs/manual.md", ChangeKind::Renamed, 0, 0)
                },
            ],
            truncated: false,
        }
    );

    let second = commit_info(&root, "HEAD~1").unwrap();
    assert_eq!(
        second,
        CommitInfo {
            id: h.second.clone(),
            short_id: h.second[..12].to_owned(),
            summary: "Rework lib".to_owned(),
            message: "Rework lib\n\nAdd notes, drop old.txt, add a logo.".to_owned(),
            author: "Bob <bob@example.com>".to_owned(),
            time: ts("2026-01-02T08:30:00Z"),
            parents: 1,
            changes: vec![
                binary("assets/logo.png", ChangeKind::Added),
                change("notes/todo.md", ChangeKind::Added, 2, 0),
                change("old.txt", ChangeKind::Deleted, 0, 2),
                change("src/lib.rs", ChangeKind::Modified, 3, 1),
            ],
            truncated: false,
        }
    );
    // Other spellings of the same commit.
    for rev in ["main~1", "HEAD^", &h.second, &h.second[..7]] {
        assert_eq!(commit_info(&root, rev).unwrap(), second, "{rev}");
    }

    expect_root(&commit_info(&root, &h.root[..7]).unwrap(), &h);
    expect_root(&commit_info(dir.path(), &h.root).unwrap(), &h);
    // An annotated tag is peeled to its commit.
    expect_root(&commit_info(dir.path(), "v1").unwrap(), &h);
    expect_root(&commit_info(dir.path(), "HEAD~2").unwrap(), &h);

    // The second parent of the merge, by branch name and by `^2`.
    let feature = commit_info(dir.path(), "feature").unwrap();
    assert_eq!(feature.id, h.feature);
    assert_eq!(feature.summary, "Rename the guide");
    assert_eq!(feature.parents, 1);
    assert_eq!(feature.changes, head.changes);
    assert_eq!(commit_info(dir.path(), "HEAD^2").unwrap(), feature);
}

#[test]
fn commit_info_errors_are_clear() {
    let dir = tempfile::tempdir().unwrap();
    history(dir.path());

    let err = commit_info(dir.path(), "does-not-exist").unwrap_err();
    assert!(
        matches!(&err, GitError::NoCommit { rev, .. } if rev == "does-not-exist"),
        "{err:?}"
    );
    let msg = err.to_string();
    assert!(msg.starts_with("no commit `does-not-exist`: "), "{msg}");
    // The reason is gix's (pinned to one version), cause by cause.
    assert!(msg.contains("could not be found"), "{msg}");

    // Past the root commit.
    let err = commit_info(dir.path(), "HEAD~3").unwrap_err();
    let msg = err.to_string();
    assert!(msg.starts_with("no commit `HEAD~3`: "), "{msg}");
    assert!(msg.contains("out of range"), "{msg}");

    // A tree is not a commit.
    let err = commit_info(dir.path(), "HEAD^{tree}").unwrap_err();
    let msg = err.to_string();
    assert!(msg.starts_with("no commit `HEAD^{tree}`: "), "{msg}");
    assert!(
        msg.contains("was tree while trying to peel to commit"),
        "{msg}"
    );

    let elsewhere = tempfile::tempdir().unwrap();
    let err = commit_info(elsewhere.path(), "HEAD").unwrap_err();
    assert!(matches!(err, GitError::NotARepository { .. }), "{err:?}");
    assert_eq!(
        err.to_string(),
        format!(
            "not inside a git repository: {}",
            elsewhere.path().display()
        )
    );

    let missing = elsewhere.path().join("missing");
    let err = commit_info(&missing, "HEAD").unwrap_err();
    assert!(matches!(err, GitError::NoSuchDirectory { .. }), "{err:?}");
    assert_eq!(
        err.to_string(),
        format!("no such directory: {}", missing.display())
    );

    // The store error wraps it unchanged.
    let store: brain_core::store::Error = err.into();
    assert_eq!(
        store.to_string(),
        format!("no such directory: {}", missing.display())
    );
}

#[test]
fn commit_info_in_an_empty_repository() {
    let dir = tempfile::tempdir().unwrap();
    git_as(
        dir.path(),
        ADA,
        "2026-01-01T00:00:00Z",
        &["init", "-q", "-b", "main"],
    );
    let err = commit_info(dir.path(), "HEAD").unwrap_err();
    assert!(err.to_string().starts_with("no commit `HEAD`: "), "{err}");
}

#[test]
fn commit_info_caps_the_changes() {
    let dir = tempfile::tempdir().unwrap();
    let g = |args: &[&str]| git_as(dir.path(), ADA, "2026-01-01T00:00:00Z", args);
    g(&["init", "-q", "-b", "main"]);
    for i in 0..=MAX_CHANGES {
        write(
            dir.path(),
            &format!("d{}/f{i:04}.txt", i % 7),
            format!("{i}\n"),
        );
    }
    g(&["add", "-A"]);
    g(&["commit", "-q", "-m", "many files"]);

    let info = commit_info(dir.path(), "HEAD").unwrap();
    assert!(info.truncated);
    assert_eq!(info.changes.len(), MAX_CHANGES);
    assert!(info.changes.windows(2).all(|w| w[0].path < w[1].path));
    assert!(info.changes.iter().all(|c| c.kind == ChangeKind::Added
        && c.added_lines == 1
        && c.removed_lines == 0
        && !c.binary));

    // One file fewer is not truncated.
    g(&["rm", "-q", "d0/f0000.txt"]);
    g(&["commit", "-q", "-m", "one fewer"]);
    let info = commit_info(dir.path(), "HEAD").unwrap();
    assert!(!info.truncated);
    assert_eq!(
        info.changes,
        vec![change("d0/f0000.txt", ChangeKind::Deleted, 0, 1)]
    );
}
