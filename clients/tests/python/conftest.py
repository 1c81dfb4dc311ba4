"""pytest fixtures of the Python client's tests: the live services of live_service.py, for the whole run."""
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from live_service import LiveService  # noqa: E402


@pytest.fixture(scope="session")
def live():
    service = LiveService()
    yield service
    statuses = service.stop()
    assert all(status == 0 for status in statuses.values()), f"offerkit serve after SIGTERM: {statuses}"
