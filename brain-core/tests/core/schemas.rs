//! The checked-in JSON Schemas equal the generated ones, and every file of the
//! example store and the fixtures validates (or, for `invalid/`, fails) against
//! them — and agrees with the typed parser.

use std::path::Path;

use brain_core::{schema, yaml};
use serde_json::Value;

use crate::workspace;

#[test]
fn checked_in_schemas_match_the_types() {
    let dir = workspace().join("schemas");
    let update = std::env::var_os("BRAIN_UPDATE_SCHEMAS").is_some();
    let mut stale = Vec::new();
    for (name, schema) in schema::all() {
        let path = dir.join(name);
        let text = schema::to_text(&schema);
        let current = std::fs::read_to_string(&path).ok().as_deref() == Some(text.as_str());
        if update && !current {
            // Other tests read these files at the same time: only changed
            // files are written, each replaced whole by a rename.
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            let tmp = path.with_extension("json.tmp");
            std::fs::write(&tmp, &text).unwrap();
            std::fs::rename(&tmp, &path).unwrap();
        } else if !current {
            stale.push(name);
        }
    }
    assert!(
        stale.is_empty(),
        "schemas out of date: {stale:?}; run `BRAIN_UPDATE_SCHEMAS=1 cargo test -p brain-core --test core schemas`"
    );
    // No schema files other than the generated ones.
    let mut on_disk: Vec<String> = walkdir::WalkDir::new(&dir)
        .into_iter()
        .map(|e| e.unwrap())
        .filter(|e| e.file_type().is_file())
        .map(|e| {
            e.path()
                .strip_prefix(&dir)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/")
        })
        .collect();
    on_disk.sort();
    let mut generated: Vec<String> = schema::all()
        .into_iter()
        .map(|(n, _)| n.to_owned())
        .collect();
    generated.sort();
    assert_eq!(on_disk, generated);
}

fn validator(name: &str) -> jsonschema::Validator {
    let text = std::fs::read_to_string(workspace().join("schemas").join(name)).unwrap();
    let schema: Value = serde_json::from_str(&text).unwrap();
    jsonschema::validator_for(&schema).unwrap()
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Kind {
    Memory,
    Preference,
    Config,
}

impl Kind {
    fn schema(self) -> &'static str {
        match self {
            Kind::Memory => "memory.schema.json",
            Kind::Preference => "preference.schema.json",
            Kind::Config => "config.schema.json",
        }
    }

    fn typed_parse_ok(self, text: &str) -> bool {
        match self {
            Kind::Memory => yaml::parse_memory(text).is_ok(),
            Kind::Preference => yaml::parse_preference(text).is_ok(),
            Kind::Config => yaml::parse_config(text).is_ok(),
        }
    }
}

fn kind_of_fixture(path: &Path) -> Kind {
    let name = path.file_name().unwrap().to_string_lossy();
    if name.starts_with("memory-") {
        Kind::Memory
    } else if name.starts_with("preference-") {
        Kind::Preference
    } else if name.starts_with("config-") {
        Kind::Config
    } else {
        panic!("fixture {name} must start with memory-, preference- or config-")
    }
}

/// Every record and config file under a `.brain/` directory, with its kind.
fn store_files(brain: &Path) -> Vec<(std::path::PathBuf, Kind)> {
    let mut out = Vec::new();
    for entry in walkdir::WalkDir::new(brain).sort_by_file_name() {
        let entry = entry.unwrap();
        let path = entry.path();
        if !entry.file_type().is_file() || path.extension().is_none_or(|e| e != "yaml") {
            continue;
        }
        let parent = path
            .parent()
            .unwrap()
            .file_name()
            .unwrap()
            .to_string_lossy();
        let kind = if path.file_name().unwrap() == "config.yaml" {
            Kind::Config
        } else if parent == "preferences" {
            Kind::Preference
        } else {
            Kind::Memory
        };
        out.push((path.to_path_buf(), kind));
    }
    out
}

fn check(path: &Path, kind: Kind, expect_valid: bool) -> Option<String> {
    let text = std::fs::read_to_string(path).unwrap();
    let typed = kind.typed_parse_ok(&text);
    let value = yaml::to_json_value(&text).ok();
    let schema_ok = value
        .as_ref()
        .is_some_and(|v| validator(kind.schema()).is_valid(v));
    // For config files the typed parser is lenient only about unknown keys, which
    // the schema allows too; for records both must agree exactly.
    (typed != expect_valid || schema_ok != expect_valid).then(|| {
        format!(
            "{}: typed parse {typed}, schema {schema_ok}, expected {expect_valid}",
            path.display()
        )
    })
}

#[test]
fn example_store_and_valid_fixtures_validate() {
    let root = workspace();
    let mut files = store_files(&root.join(".brain-example/.brain"));
    assert!(
        files.len() >= 30,
        "the example store has {} files",
        files.len()
    );
    for entry in std::fs::read_dir(root.join("tests/fixtures/schema/valid")).unwrap() {
        let path = entry.unwrap().path();
        let kind = kind_of_fixture(&path);
        files.push((path, kind));
    }
    let failures: Vec<String> = files
        .iter()
        .filter_map(|(path, kind)| check(path, *kind, true))
        .collect();
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
fn invalid_fixtures_fail_both_schema_and_parser() {
    let dir = workspace().join("tests/fixtures/schema/invalid");
    let mut count = 0;
    let mut failures = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        count += 1;
        if let Some(f) = check(&path, kind_of_fixture(&path), false) {
            failures.push(f);
        }
    }
    assert!(count >= 8);
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
fn fixture_stores_validate_where_they_parse() {
    // Files of fixture stores that the typed parser accepts must also pass the
    // schema, and the other way round.
    let fixtures = workspace().join("tests/fixtures");
    for entry in std::fs::read_dir(&fixtures).unwrap() {
        let brain = entry.unwrap().path().join(".brain");
        if !brain.is_dir() {
            continue;
        }
        for (path, kind) in store_files(&brain) {
            let text = std::fs::read_to_string(&path).unwrap();
            let typed = kind.typed_parse_ok(&text);
            let schema_ok = yaml::to_json_value(&text)
                .ok()
                .is_some_and(|v| validator(kind.schema()).is_valid(&v));
            assert_eq!(typed, schema_ok, "{}", path.display());
        }
    }
}
