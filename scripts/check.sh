#!/usr/bin/env bash
# What CI runs, and what to run before pushing.
set -euo pipefail
cd "$(dirname "$0")/.."

export CARGO_TERM_COLOR=never
export INSTA_UPDATE=no
# A one-off build gains nothing from incremental state, which is most of a
# debug target directory; CI machines have little disk.
export CARGO_INCREMENTAL=0

echo "== cargo fmt --check"
cargo fmt --all -- --check

echo "== cargo clippy --all-targets -- -D warnings"
cargo clippy --workspace --all-targets --locked -- -D warnings
echo "== cargo clippy -p brain-cli --features embed-static"
cargo clippy -p brain-cli --all-targets --locked --features embed-static -- -D warnings

echo "== cargo test --workspace --locked"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
cargo test --workspace --locked 2>&1 | tee "$log"
echo "== cargo test -p brain-cli --features embed-static embed"
cargo test -p brain-cli --locked --features embed-static embed 2>&1 | tee -a "$log"

echo "== generated files are committed"
if find . -path ./target -prune -o \( -name '*.snap.new' -o -name '*.pending-snap' \) -print | grep -q .; then
  echo "error: pending insta snapshots; run \`cargo insta review\`" >&2
  exit 1
fi
if [ -d .git ] && ! git diff --exit-code -- schemas/ >/dev/null; then
  echo "error: schemas/ changed while testing; commit the regenerated schemas" >&2
  exit 1
fi
echo "== all checks passed"
# One closing line with the totals of every test binary.
awk '/^test result:/ { for (i = 1; i <= NF; i++) { if ($(i) ~ /^passed;?$/) p += $(i-1); if ($(i) ~ /^failed;?$/) f += $(i-1) } }
     END { printf "tests: %d passed, %d failed\n", p, f }' "$log"
