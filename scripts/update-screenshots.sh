#!/usr/bin/env bash
# Copies the key steps of the browser tests of the demo's journey (test/e2e/journey.test.ts) and of the admin in Hindi
# (the admin walk's accessibility tests, test/e2e/admin-shell.test.ts) to docs/screenshots/, which the README shows.
# Run the tests first:
#   npm run build && E2E_SCREENSHOTS=1 npx vitest run test/e2e/journey.test.ts test/e2e/admin-shell.test.ts
# Hindi renders with a Devanagari font installed (Debian: fonts-lohit-deva or fonts-noto-core).
# The copies are quantised with pngquant when it is installed (apt-get install pngquant), which makes them ~4× smaller.
set -euo pipefail
cd "$(dirname "$0")/.."
from=test-results/screenshots/journey
to=docs/screenshots
declare -A steps=(
  [01-settings-the-sandbox-auto-booking-on]=1-settings
  [02-orders-to-ship-the-held-order-and-the-ones-to-fix]=2-orders-to-ship
  [03-ship-page-rates-the-recommended-one-marked]=3-ship-page-rates
  [04-ship-page-booked-with-the-recommended-courier]=4-booked
  [06-the-courier-delivers-shopify-s-order-shows-the-delivery]=5-shopify-order-delivered
  [07-shipments-delivered-in-the-admin-beside-the-day-s-bookings]=6-shipments
  [09-the-shopper-s-tracking-page-delivered]=7-tracking-page
  [10-needs-attention]=8-needs-attention
)
# The Hindi walk's steps are numbered after the file's earlier steps: found by their names.
hindi_from=test-results/screenshots/admin-shell
declare -A hindi=(
  [hindi-orders-to-ship]=9-orders-to-ship-hindi
  [hindi-ship-order-with-its-rates]=10-ship-page-hindi
)
copy() {
  if command -v pngquant >/dev/null; then
    pngquant --force --quality 60-85 --output "$2" "$1"
  else
    cp "$1" "$2"
  fi
}
mkdir -p "$to"
for step in "${!steps[@]}"; do
  [[ -f "$from/$step.png" ]] || { echo "No $from/$step.png: run the journey's browser test first, with E2E_SCREENSHOTS=1" >&2; exit 1; }
  copy "$from/$step.png" "$to/${steps[$step]}.png"
done
for step in "${!hindi[@]}"; do
  found=$(ls "$hindi_from"/[0-9]*-"$step".png 2>/dev/null | head -n 1)
  [[ -n "$found" ]] || { echo "No $hindi_from/NN-$step.png: run the admin walk's browser test first, with E2E_SCREENSHOTS=1" >&2; exit 1; }
  copy "$found" "$to/${hindi[$step]}.png"
done
ls -l "$to"
