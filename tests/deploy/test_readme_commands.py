"""README and help as a newcomer reads them (issue 13): commands that work as written after
``make setup``, one default preset named everywhere, and help that says what it computes."""

from __future__ import annotations

import re
import subprocess
import tomllib

import pytest

from tests.support.cli import ROOT, VENV_PYTHON, cli

README = (ROOT / "README.md").read_text(encoding="utf-8")


def readme_examples() -> list[str]:
    """The command lines of README's example block (the one after 'For example')."""
    block = re.search(r"For example[^\n]*\n\n```sh\n(.*?)```", README, re.DOTALL)
    assert block is not None, "README has no example block of commands"
    return [line for line in block.group(1).splitlines() if line.strip()]


def test_readme_names_only_commands_that_work_outside_an_activated_environment() -> None:
    # A bare `python -m bot` needs an activated virtual environment (No module named
    # 'discord' otherwise); the README's commands name the environment's own Python.
    lines = [line for line in README.splitlines() if re.search(r"python3? -m (bot|pytest)", line)]
    assert len(lines) > 10
    for line in lines:
        if "inside the container" in line or "docker exec" in line or "docker compose" in line:
            continue  # the image's own Python
        for found in re.finditer(r"(\S*)python3? -m (bot|pytest)", line):
            assert found.group(1).endswith(".venv/bin/"), line
    assert "make setup" in README
    assert "setup:" in (ROOT / "Makefile").read_text(encoding="utf-8")


def test_readme_examples_run_as_written_from_the_repository_root() -> None:
    assert (ROOT / VENV_PYTHON).exists(), "run make setup first"
    commands = readme_examples()
    assert {command.split(" -m bot ")[1].split()[0] for command in commands} >= {
        "play",
        "verify",
        "strategy",
        "edge",
        "simulate",
        "check",
    }
    for command in commands:
        done = subprocess.run(
            ["bash", "-c", f"set -o pipefail; {command}"],
            capture_output=True,
            text=True,
            cwd=ROOT,
            stdin=subprocess.DEVNULL,
            timeout=300,
            check=False,
        )
        assert done.returncode == 0, f"{command}\n{done.stdout}\n{done.stderr}"
        assert "Traceback" not in done.stderr, command
        assert done.stdout.strip(), command


@pytest.mark.parametrize("tool", ["play", "edge", "strategy", "simulate"])
def test_every_tool_starts_from_one_default_preset_named_in_its_help(tool: str) -> None:
    help_text = " ".join(cli(tool, "--help").stdout.split())
    assert "(default vegas-shoe)" in help_text


def test_edge_says_a_fresh_shoe_every_round_only_when_the_rules_deal_one() -> None:
    shoe = cli("edge", "--preset", "vegas-shoe").stdout
    assert "a fresh shoe every round" not in shoe
    assert "computed for a full shoe each round; these rules deal to a cut card at 75%" in shoe
    fresh = cli("edge", "--preset", "vegas-shoe", "--penetration", "0").stdout
    assert fresh.rstrip().endswith("6 decks, a fresh shoe every round.")


def test_simulate_help_says_a_seed_repeats_only_with_the_same_workers() -> None:
    help_text = " ".join(cli("simulate", "--help").stdout.split())
    assert "a seed repeats its result only with the same number of workers" in help_text


@pytest.mark.parametrize("count", ["-1", "101"])
def test_verify_refuses_a_number_of_continuations_out_of_range(count: str) -> None:
    done = cli("verify", "--seed", "ab" * 32, "--continuations", count)
    assert done.returncode == 2
    assert f"--continuations must be 0 to 100, not {count}" in done.stderr
    assert done.stdout == ""


def test_requirements_lock_points_to_a_regeneration_readme_gives() -> None:
    header = (ROOT / "requirements.lock").read_text(encoding="utf-8").splitlines()[0]
    assert "see README, 'Docker'" in header
    docker = README[README.index("## Running with Docker") :]
    docker = docker[: docker.index("\n## ", 1)]
    assert "Regenerating `requirements.lock`" in docker
    assert "pip freeze --exclude blackjack-table-bot) > requirements.lock" in docker
    assert header in docker


def test_env_example_says_empty_sharding_is_unsharded_as_readme_and_code_do() -> None:
    example = (ROOT / ".env.example").read_text(encoding="utf-8")
    assert "let Discord decide" not in example
    assert "Leave both empty to run unsharded" in example
    assert "beside README.md" not in example
    assert "with neither set the bot is one unsharded connection" in README


def test_the_license_is_an_spdx_expression_setuptools_accepts_without_warnings() -> None:
    # The table form ({text = ...}) makes setuptools >= 77 print a screen of deprecation
    # warnings on every install; the string form needs setuptools >= 77 to build.
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert project["project"]["license"] == "MIT"
    assert project["build-system"]["requires"] == ["setuptools>=77"]
