"""YCSB itself: bin/ycsb (ycsb_launcher.py) and its options, scripts/install-into-ycsb
(install.py), scripts/check-list-appends (list_check.py).

Standard library only: bin/ycsb and scripts/install-into-ycsb run it on any python3, also in
other people's YCSB trees (docs/developing.md)."""
