"""The family contract (core/knowledge.py) checked by a type checker: every family's state is a
``Knowledge``, and the plan module (core/plan.py) type-checks (mypy, tests/knowledge_check.py)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_every_family_offers_the_knowledge_protocol_and_mypy_agrees(tmp_path):
    # the package as it is imported (pyproject's package-dir mapping), for mypy to follow
    package = tmp_path / "carpet"
    package.mkdir()
    shutil.copy(ROOT / "cli" / "top" / "__init__.py", package / "__init__.py")
    for name in ("core", "formats", "cli"):
        (package / name).symlink_to(ROOT / name)
    found = subprocess.run(
        [sys.executable, "-m", "mypy", "--follow-imports=silent", "--cache-dir", str(tmp_path / "cache"),
         "--no-error-summary", str(package / "core" / "knowledge.py"), str(package / "core" / "plan.py"),
         str(ROOT / "tests" / "knowledge_check.py")],
        capture_output=True, text=True, env={"MYPYPATH": str(tmp_path), "PATH": ""})
    assert found.returncode == 0, found.stdout + found.stderr


def test_the_solver_stack_finds_no_hook_by_name():
    # the solver reads the family through the protocol, never by getattr
    for name in ("solver.py", "beam.py", "descent.py", "plan.py", "knowledge.py"):
        assert "getattr(" not in (ROOT / "core" / name).read_text(), name
