#!/usr/bin/env bash
# Copies the key steps of the browser test of the demo's journey (test/e2e/journey.test.ts) to docs/screenshots/,
# which the README shows. Run the test first: npm run build && E2E_SCREENSHOTS=1 npx vitest run test/e2e/journey.test.ts
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
mkdir -p "$to"
for step in "${!steps[@]}"; do
  [[ -f "$from/$step.png" ]] || { echo "No $from/$step.png: run the journey's browser test first, with E2E_SCREENSHOTS=1" >&2; exit 1; }
  if command -v pngquant >/dev/null; then
    pngquant --force --quality 60-85 --output "$to/${steps[$step]}.png" "$from/$step.png"
  else
    cp "$from/$step.png" "$to/${steps[$step]}.png"
  fi
done
ls -l "$to"
