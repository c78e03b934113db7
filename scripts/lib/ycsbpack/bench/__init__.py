"""The pack's benchmarks of itself: scripts/bench-aa, bench-batches, bench-binding,
bench-capacity, bench-warmup (bench-fleet is fleet/bench.py)."""
