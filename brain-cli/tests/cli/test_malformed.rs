//! One malformed file never stops a read command.

use crate::common::TestEnv;

#[test]
fn reads_work_around_malformed_files() {
    let env = TestEnv::fixture("malformed");
    insta::assert_snapshot!("malformed_list", env.brain(["list"]));
    let (json, out) = env.brain_json("list", &["list"]);
    assert_eq!(out.status, 0);
    assert_eq!(json["memories"].as_array().unwrap().len(), 4);
    assert_eq!(json["skipped"].as_array().unwrap().len(), 5);

    let show = env.brain(["show", "use-sqlx-for-queries-0a1b2c3d"]);
    assert_eq!(show.status, 0, "{show}");
    assert!(show.stdout.contains("title: Use sqlx for queries"));
    assert!(
        show.stderr
            .contains("warning: skipped .brain/gotchas/broken-yaml-5e6f7a8b.yaml:6:"),
        "{show}"
    );

    let stats = env.brain(["stats"]);
    assert_eq!(stats.status, 0, "{stats}");
    assert!(stats.stdout.contains("invalid files: 5"), "{stats}");
}

fn store() -> TestEnv {
    let env = TestEnv::empty();
    env.brain(["init", "--workflow", "recommended-semi-auto"])
        .success();
    env
}

fn entries(dir: &std::path::Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

// Finding 4: a repository can commit `.brain/gotchas` or `.brain/runtime` as
// a symbolic link; writes went through it, to anywhere.
#[cfg(unix)]
#[test]
fn writes_never_go_through_a_symlinked_directory() {
    let env = store();
    let outside = env.root().join("outside");
    std::fs::create_dir_all(&outside).unwrap();
    let gotchas = env.root().join(".brain/gotchas");
    std::fs::remove_dir(&gotchas).unwrap();
    std::os::unix::fs::symlink(&outside, &gotchas).unwrap();
    let out = env.brain(["add", "-t", "gotcha", "--title", "T", "--summary", "S"]);
    assert_eq!(out.status, 2, "{out}");
    assert!(
        out.stderr
            .contains("refusing to write through the symbolic link `.brain/gotchas`"),
        "{out}"
    );
    assert!(entries(&outside).is_empty(), "{:?}", entries(&outside));

    // The runtime directory: the lock, the logs and the caches.
    std::fs::remove_file(&gotchas).unwrap();
    std::fs::create_dir(&gotchas).unwrap();
    let runtime = env.root().join(".brain/runtime");
    std::fs::remove_dir_all(&runtime).unwrap();
    std::os::unix::fs::symlink(&outside, &runtime).unwrap();
    let out = env.brain(["add", "-t", "gotcha", "--title", "T", "--summary", "S"]);
    assert_eq!(out.status, 2, "{out}");
    let out = env.brain(["inject", "--task", "deploy"]);
    assert_eq!(out.status, 0, "reads still work: {out}");
    let out = env.brain(["list"]);
    assert_eq!(out.status, 0, "reads still work: {out}");
    assert!(entries(&outside).is_empty(), "{:?}", entries(&outside));
    assert!(entries(&gotchas).is_empty(), "{:?}", entries(&gotchas));
}

// Finding 7: a writer killed between creating its temporary file and the
// rename left `.tmp-*.partial` files that git showed as new files.
#[test]
fn stale_partial_files_are_ignored_and_cleaned() {
    let env = store();
    env.git(&["init", "-q", "-b", "main"]);
    let stale = env.root().join(".brain/gotchas/.tmp-Ab12Cd.partial");
    std::fs::write(&stale, "half a record").unwrap();
    let ignored = env.git(&["check-ignore", ".brain/gotchas/.tmp-Ab12Cd.partial"]);
    assert_eq!(ignored.trim(), ".brain/gotchas/.tmp-Ab12Cd.partial");
    env.brain(["add", "-t", "gotcha", "--title", "T", "--summary", "S"])
        .success();
    assert!(!stale.exists(), "the next write removes it");
    // `init` again adds the line to an older store's `.gitignore`.
    std::fs::write(env.root().join(".brain/.gitignore"), "runtime/\n").unwrap();
    env.brain(["init", "--workflow", "recommended-semi-auto"])
        .success();
    assert_eq!(
        std::fs::read_to_string(env.root().join(".brain/.gitignore")).unwrap(),
        "runtime/\n.tmp-*.partial\n"
    );
}

// Finding 8: a config that is not UTF-8 was an internal error (exit 3).
#[test]
fn a_config_that_is_not_utf8_is_an_input_error() {
    let env = store();
    let config = env.root().join(".brain/config.yaml");
    let mut bytes = std::fs::read(&config).unwrap();
    bytes.extend_from_slice(b"# caf\xe9\n");
    std::fs::write(&config, bytes).unwrap();
    let out = env.brain(["list"]);
    assert_eq!(out.status, 2, "{out}");
    assert!(
        out.stderr
            .contains("`.brain/config.yaml` is not valid UTF-8"),
        "{out}"
    );
}
