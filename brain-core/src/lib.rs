//! `brain-core`: the domain logic of `brain`, a git-native repository memory for
//! coding agents.
//!
//! * [`model`]: memories, preferences, statuses and their invariants (pure data).
//! * [`yaml`]: the one module that reads and writes YAML, canonically.
//! * [`config`]: `.brain/config.yaml` and workflow presets.
//! * [`store`]: the only module that touches the file system: `.brain/` layout,
//!   loading with a derived cache, atomic writes under a lock.
//! * [`lint`]: every problem in a store, with file and line.
//! * [`check`]: the CI gate: lint, canonical form and transitions against a base, as a list of checks.
//! * [`migrate`]: mapping a RepoBrain store to records of this format (pure).
//! * [`report`]: the report types commands return; their JSON shape is a contract.
//! * [`embed`]: embedding providers' contract, the offline hashing embedder, the vector cache.
//! * [`review`]: the deterministic reviewer (accept / merge / supersede / reject).
//! * [`approve`]: the reviewer's decisions shown and carried out.
//! * [`edit`]: one memory changed by hand, checked like every write.
//! * [`merge`]: three-way merge of one record file, field by field (the git merge driver).
//! * [`secrets`]: the secret firewall: credentials in record text are
//!   replaced by `[REDACTED:<kind>]` before anything is written (pure).
//! * [`hook`]: agent hook events of every dialect read into one shape, and
//!   the context written back in each agent's (pure).
//! * [`extract::transcript`]: Claude Code and Codex transcripts read as
//!   session text for capture (pure).
//! * [`setup`]: brain's entries merged into agents' configuration files,
//!   keeping every foreign entry (pure).
//! * [`export`]: active memories compiled into agents' rule files, path-scoped
//!   where the format allows (pure).
//! * [`schema`]: JSON Schemas of every file and output, generated from the types.
//! * [`status`] and [`sweep`]: where the store stands; expiring working notes, stale memories, near duplicates.
//!
//! The crate never prints, never reads environment variables or the clock, and
//! never exits: time, paths and settings are passed in.
//!
//! ```
//! use brain_core::Brain;
//! use brain_core::report::ListFilter;
//!
//! let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../.brain-example");
//! let brain = Brain::open(&root)?;
//! // `load_uncached` parses every file and leaves the runtime cache alone.
//! let catalog = brain.store().load_uncached();
//! assert!(catalog.problems.is_empty());
//! let gotchas = ListFilter { types: vec!["gotcha".parse()?], ..ListFilter::default() };
//! for entry in brain.list(catalog, &gotchas).memories {
//!     println!("{} {}", entry.id, entry.title);
//! }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![warn(missing_docs)]
#![cfg_attr(test, allow(clippy::unwrap_used, clippy::too_many_lines))]

pub mod activity;
pub mod approve;
pub mod brain;
pub mod capture;
pub mod check;
pub mod config;
pub mod edit;
pub mod embed;
pub mod export;
pub mod extract;
pub mod failures;
pub mod feedback;
pub mod hook;
pub mod inject;
pub mod lint;
pub mod matching;
pub mod merge;
pub mod migrate;
pub mod model;
pub mod prefs;
pub mod report;
pub mod review;
pub mod route;
pub mod schema;
pub mod search;
pub mod secrets;
pub mod session;
pub mod session_profile;
pub mod setup;
pub mod status;
pub mod store;
pub mod sweep;
pub mod yaml;

pub use brain::{Brain, Error, NewMemory};
