"""The marks of a test module that starts real servers (scripts/test runs these in its second,
serial pytest pass; YCSBPACK_SKIP_SERVER_TESTS=1 skips them)."""
import os

import pytest

ON_REAL_SERVERS = [
    pytest.mark.serial,
    pytest.mark.skipif(
        os.environ.get("YCSBPACK_SKIP_SERVER_TESTS") == "1", reason="YCSBPACK_SKIP_SERVER_TESTS=1"
    ),
]
