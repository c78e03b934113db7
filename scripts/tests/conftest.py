import pytest
from shared_servers import shared_servers


@pytest.fixture(scope="session")
def run_dir(tmp_path_factory):
    """The servers the scenario tests share (shared_servers.py); always stopped, even when a
    test fails."""
    with shared_servers(tmp_path_factory.mktemp("scenario-servers")) as root:
        yield root
