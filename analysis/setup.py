"""The compiled raw-datapoint scanner (``ycsb_analysis._raw_scan``), built when a C compiler
and Python's headers are there; the package's metadata is in pyproject.toml.

``optional=True``: without a compiler ``pip install -e analysis`` still succeeds and raw
datapoints are read by pyarrow (``ycsb_analysis.fast_raw.engine()`` says which one runs).
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "ycsb_analysis._raw_scan",
            sources=["ycsb_analysis/_raw_scan.c"],
            extra_compile_args=["-O2"],
            optional=True,
        )
    ],
)
