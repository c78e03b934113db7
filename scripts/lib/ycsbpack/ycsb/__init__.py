"""YCSB itself: bin/ycsb (ycsb_launcher.py) and its options, scripts/install-into-ycsb
(install.py), scripts/check-list-appends (list_check.py)."""
