//! Scope matching benchmark: every scope of a synthetic store matched
//! against one task path, as `inject` and `route` do for each memory of the
//! pool, two ways: building a `Glob` per scope and splitting the path for
//! each (as ranking did before), and matching each pattern against the path
//! split once (`matching::matches_segments`, what ranking does now).
//!
//! ```text
//! cargo bench -p brain-core --bench scope_match            # 10,000 memories
//! cargo bench -p brain-core --bench scope_match -- 1000 10000
//! ```
//!
//! The store is the deterministic one of the other benches (fixed-seed
//! PRNG); both ways are asserted to find the same scopes.

#![allow(clippy::disallowed_methods, clippy::print_stdout, clippy::print_stderr)]
#![allow(clippy::unwrap_used, clippy::cast_precision_loss)]

use std::hint::black_box;
use std::time::{Duration, Instant};

// Measure with the allocator the `brain` binary uses.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

use brain_core::matching::{Glob, matches_segments, may_match, path_segments};
use brain_core::model::Status;

#[path = "common/gen.rs"]
mod generator;
use generator::{Rng, make_memory};

const SEED: u64 = 0x6272_6169_6e5f_736d; // "brain_sm"
const PATH: &str = "src/payments/ledger.ts";
/// Passes over all scopes per timing, and timings per way (the minimum is
/// reported).
const PASSES: usize = 50;
const REPEATS: usize = 7;

fn main() {
    let sizes: Vec<usize> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let sizes = if sizes.is_empty() {
        vec![10_000]
    } else {
        sizes
    };
    println!("| memories | scopes | glob per scope (µs/pass) | path split once (µs/pass) |");
    println!("| ---: | ---: | ---: | ---: |");
    for n in sizes {
        let mut rng = Rng(SEED);
        let scopes: Vec<String> = (0..n)
            .flat_map(|i| {
                make_memory(&mut rng, i, &[], |_, _| Status::Active)
                    .scope
                    .paths
            })
            .collect();
        let per_glob = |path: &str| {
            scopes
                .iter()
                .filter(|raw| may_match(raw, path) && Glob::new(raw).matches(path))
                .count()
        };
        let split_once = |path: &str| {
            let parts = path_segments(path);
            scopes
                .iter()
                .filter(|raw| may_match(raw, path) && matches_segments(raw, &parts))
                .count()
        };
        let found = per_glob(PATH);
        assert_eq!(found, split_once(PATH), "both ways find the same scopes");
        assert!(found > 0, "the path is in some scope");
        let old = best(|| per_glob(black_box(PATH)));
        let new = best(|| split_once(black_box(PATH)));
        println!(
            "| {n} | {} | {:.0} | {:.0} |",
            scopes.len(),
            micros(old),
            micros(new)
        );
    }
}

/// The fastest of [`REPEATS`] timings of [`PASSES`] calls, per call.
fn best(mut f: impl FnMut() -> usize) -> Duration {
    (0..REPEATS)
        .map(|_| {
            let start = Instant::now();
            for _ in 0..PASSES {
                black_box(f());
            }
            start.elapsed() / u32::try_from(PASSES).unwrap()
        })
        .min()
        .unwrap()
}

fn micros(d: Duration) -> f64 {
    d.as_secs_f64() * 1e6
}
