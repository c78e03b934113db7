"""The analysis model's definitions that every module shares (model.py)."""

from __future__ import annotations

import polars as pl
from ycsb_analysis.model import is_workload_operation, workload_operations


def test_a_workload_operation_is_neither_a_binding_call_nor_a_records_block():
    for op in ("READ", "BATCH_INSERT", "READ-NOT_FOUND", "BATCH_READ_LIST"):
        assert is_workload_operation(op), op
    for op in ("CLEANUP", "INIT", "BATCH_READ-RECORDS", "BATCH_APPEND-RECORDS"):
        assert not is_workload_operation(op), op


def test_the_mask_of_a_column_says_the_same_for_plain_and_categorical_columns():
    ops = ["READ", "CLEANUP", "BATCH_UPDATE-RECORDS", "BATCH_UPDATE", "INIT"]
    want = [is_workload_operation(op) for op in ops]
    for column in (pl.Series(ops), pl.Series(ops, dtype=pl.Categorical)):
        got = workload_operations(column)
        assert got.dtype == pl.Boolean and got.to_list() == want
