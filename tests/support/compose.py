"""The bot's Docker Compose file as Compose reads it: services, interpolation, environment."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import yaml

from tests.bot_command import ROOT

SQLITE_IN_VOLUME = "sqlite:////data/blackjack.sqlite3"


_VARIABLE = re.compile(r"\$\$|\$\{(\w+)(?::-([^}]*))?\}")


def compose() -> dict[str, Any]:
    loaded: dict[str, Any] = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    return loaded


def interpolate(value: str, dotenv: dict[str, str]) -> str:
    """Compose's interpolation of ``${NAME}``, ``${NAME:-default}`` and ``$$``."""

    def one(match: re.Match[str]) -> str:
        if match[0] == "$$":
            return "$"
        return dotenv.get(match[1]) or (match[2] or "")

    return _VARIABLE.sub(one, value)


def enabled(profiles: set[str]) -> set[str]:
    """The services ``docker compose [--profile P]... up`` starts."""
    return {
        name
        for name, service in compose()["services"].items()
        if not service.get("profiles") or profiles & set(service["profiles"])
    }


def container_env(tmp_path: Path, *, postgres_up: bool, dotenv: dict[str, str]) -> dict[str, str]:
    """The bot container's environment: the image's, then .env's, then compose's."""
    service = compose()["services"]["bot"]
    stub = tmp_path / "bin"
    stub.mkdir(exist_ok=True)
    getent = stub / "getent"
    answer = 0 if postgres_up else 2  # 2: getent's "not found"
    getent.write_text(f'#!/bin/sh\n[ "$2" = postgres ] && exit {answer}\nexit 2\n')
    getent.chmod(0o755)
    environment = {k: interpolate(str(v), dotenv) for k, v in service["environment"].items()}
    return {
        "PATH": f"{stub}{os.pathsep}{os.environ['PATH']}",
        "DATABASE_URL": SQLITE_IN_VOLUME,  # the Dockerfile's ENV
        **dotenv,  # env_file: .env
        **environment,
    }


def entrypoint(tmp_path: Path, *, postgres_up: bool, dotenv: dict[str, str]) -> str:
    """The DATABASE_URL the bot process starts with."""
    service = compose()["services"]["bot"]
    argv = [interpolate(part, {}) for part in service["entrypoint"]]
    shown = [sys.executable, "-c", "import os; print(os.environ['DATABASE_URL'])"]
    result = subprocess.run(
        [*argv, *shown],
        env=container_env(tmp_path, postgres_up=postgres_up, dotenv=dotenv),
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    return result.stdout.strip()
