import json
from pathlib import Path

import pytest

pytest_plugins = ["pytester"]  # tests/test_pytest_plugin.py runs pytest on folders of games

DATA = Path(__file__).parent / "data"
ROOT = Path(__file__).parent.parent


@pytest.fixture(scope="session")
def vectors():
    return json.loads((DATA / "vectors.json").read_text())


@pytest.fixture(scope="session")
def pysol_orders():
    return json.loads((DATA / "pysol_orders.json").read_text())["orders"]
