"""The README's promises: its test command is what CI runs, and its shell tour works."""

import shlex

from typer.testing import CliRunner

from carpet.cli.app import app

from conftest import ROOT

README = (ROOT / "README.md").read_text(encoding="utf-8")


def code_blocks():
    blocks, current = [], None
    for line in README.splitlines():
        if line.startswith("```"):
            if current is None:
                current = []
            else:
                blocks.append(current)
                current = None
        elif current is not None:
            current.append(line)
    return blocks


def test_readme_starts_with_the_two_commands_and_ci_runs_the_second():
    first = code_blocks()[0]
    assert len(first) == 2 and all(line.startswith("python3 -m venv .venv") for line in first)
    assert "pytest" in first[1]
    ci = (ROOT / ".ci" / "run").read_text()
    assert first[1] in ci.splitlines()


def test_the_shell_tour_runs(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    tour = next(b for b in code_blocks() if any(line.startswith("carpet new") for line in b))
    runner = CliRunner()
    ran = 0
    for line in tour:
        command = line.split("  #")[0].split(" # ")[0].strip()
        stdin = None
        if "|" in command:
            producer, command = (part.strip() for part in command.split("|", 1))
            stdin = " ".join(shlex.split(producer)[1:])
        args = shlex.split(command)
        assert args[0] == "carpet"
        args = args[1:]
        if args[0] == "replay":
            args = [a for a in args if a not in ("--delay", "0.5")]
        if args[0] in ("autoplay", "survey"):
            args = [a if a != "1-1000" else "1-20" for a in args]
        if args[0] == "verify":
            args = [a for a in args if a != "other.log"]
        result = runner.invoke(app, args, input=stdin)
        assert result.exit_code == 0, f"{line}: {result.stderr}"
        ran += 1
    assert ran >= 10


def test_readme_is_a_guide_not_a_notebook():
    """A user's guide: short, and free of the project's history (commit hashes, numbered stops)."""
    import re

    assert len(README.splitlines()) <= 450
    hashes = [word for word in re.findall(r"\b[0-9a-f]{7,40}\b", README)
              if re.search(r"[a-f]", word) and re.search(r"[0-9]", word)]
    assert hashes == []
    assert re.search(r"\bstop \d+", README, re.IGNORECASE) is None
