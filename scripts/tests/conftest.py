import pytest
from shared_servers import shared_servers


@pytest.fixture(scope="session")
def run_dir(tmp_path_factory):
    """The servers the scenario tests share (shared_servers.py); always stopped, even when a
    test fails."""
    with shared_servers(tmp_path_factory.mktemp("scenario-servers")) as root:
        yield root


def pytest_collection_modifyitems(items):
    """Test files none of whose tests use the shared servers run first, in their usual order,
    then those that do: the shared 3-node clusters (a dozen JVMs) start at the first test that
    asks for them and are stopped at the end of the session, so while they idle they would take
    CPU from every later test that starts servers of its own (the S4 trials on fresh servers,
    the local server scripts' tests). Whole files move, so that a module-scoped fixture (the
    fleet's Ray cluster) starts once."""
    shared = {item.module for item in items if "run_dir" in item.fixturenames}
    items.sort(key=lambda item: item.module in shared)  # stable: the order kept within a group
