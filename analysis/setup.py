"""The compiled scanners, built when a C compiler and Python's headers are there; the
package's metadata is in pyproject.toml:

- ``ycsb_analysis._raw_scan``: raw datapoints (``fast_raw.engine()`` says whether it runs);
- ``ycsb_analysis._status_scan``: status lines (``fast_status.engine()``).

``depends``: the header both include (a change rebuilds both; it goes into the sdist).
``optional=True``: without a compiler ``pip install -e analysis`` still succeeds; raw
datapoints are then read by pyarrow, status lines by numpy.
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "ycsb_analysis._raw_scan",
            sources=["ycsb_analysis/_raw_scan.c"],
            depends=["ycsb_analysis/_growable.h"],
            extra_compile_args=["-O2"],
            optional=True,
        ),
        Extension(
            "ycsb_analysis._status_scan",
            sources=["ycsb_analysis/_status_scan.c"],
            depends=["ycsb_analysis/_growable.h"],
            # exact IEEE arithmetic: one correctly rounded division per decimal, like float()
            extra_compile_args=["-O3", "-fno-fast-math", "-ffp-contract=off"],
            optional=True,
        ),
    ],
)
