"""Support code of this project's command-line scripts (bin/ycsb, scripts/*).

Standard library only."""
