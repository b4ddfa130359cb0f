"""The Docker files as a host meets them (issue 32): restart, metrics, SQLite paths, the
PostgreSQL password, and a SQLite file left behind when compose moves to PostgreSQL."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

from tests.bot_command import ROOT
from tests.support.compose import compose, container_env, interpolate

ENV_EXAMPLE = (ROOT / ".env.example").read_text()


def test_the_docker_run_example_restarts_the_bot() -> None:
    runs = [line for line in (ROOT / "README.md").read_text().splitlines() if "docker run " in line]
    assert runs
    assert all("--restart unless-stopped" in line for line in runs)


def test_compose_serves_metrics_outside_the_container_and_publishes_them_on_the_host() -> None:
    bot = compose()["services"]["bot"]
    env = {k: interpolate(str(v), {}) for k, v in bot["environment"].items()}
    assert env["METRICS_HOST"] == "0.0.0.0"
    assert env["METRICS_PORT"] == "9108"
    assert [interpolate(port, {}) for port in bot["ports"]] == ["127.0.0.1:9108:9108"]
    mine = {"METRICS_PORT": "9200"}
    assert [interpolate(port, mine) for port in bot["ports"]] == ["127.0.0.1:9200:9200"]


def test_env_example_leaves_the_metrics_host_to_each_way_of_running() -> None:
    assert re.search(r"^METRICS_HOST=$", ENV_EXAMPLE, re.MULTILINE)


def test_env_example_writes_sqlite_urls_with_absolute_paths() -> None:
    urls = re.findall(r"sqlite:/+\S*", ENV_EXAMPLE)
    assert urls
    assert all(url.startswith("sqlite:////") for url in urls)


def test_the_postgres_password_has_no_default() -> None:
    server = compose()["services"]["postgres"]["environment"]
    assert interpolate(server["POSTGRES_PASSWORD"], {}) == ""
    assert "blackjack:blackjack@" not in (ROOT / "docker-compose.yml").read_text()


def start(
    tmp_path: Path, sqlite_file: Path, *, postgres_up: bool
) -> subprocess.CompletedProcess[str]:
    """The bot service's entrypoint, with the volume's SQLite file at ``sqlite_file``."""
    service = compose()["services"]["bot"]
    env = container_env(tmp_path, postgres_up=postgres_up, dotenv={"POSTGRES_PASSWORD": "pw"})
    env["COMPOSE_SQLITE_FILE"] = str(sqlite_file)
    argv = [interpolate(part, {}) for part in service["entrypoint"]]
    return subprocess.run(
        [*argv, "sh", "-c", 'echo "$DATABASE_URL"'],
        env=env,
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )


def test_moving_to_postgres_warns_of_a_sqlite_file_left_with_chips(tmp_path: Path) -> None:
    left = tmp_path / "blackjack.sqlite3"
    left.write_bytes(b"SQLite format 3\0")
    started = start(tmp_path, left, postgres_up=True)
    assert started.stdout.startswith("postgresql://blackjack:pw@postgres:5432/")
    assert f"warning: the bot uses the postgres service, but {left} on the" in started.stderr
    assert "python -m bot copy-db" in started.stderr


def test_no_warning_without_a_sqlite_file_or_without_postgres(tmp_path: Path) -> None:
    absent = tmp_path / "none.sqlite3"
    assert start(tmp_path, absent, postgres_up=True).stderr == ""
    absent.write_bytes(b"SQLite format 3\0")
    kept = start(tmp_path, absent, postgres_up=False)
    assert kept.stderr == ""
    assert kept.stdout.strip() == f"sqlite:///{absent}"


def _docker_section() -> str:
    readme = (ROOT / "README.md").read_text()
    return readme.split("## Running with Docker", 1)[1].split("\n## ", 1)[0]


def test_the_docker_section_makes_the_env_file_before_docker_reads_it() -> None:
    section = _docker_section()
    made = section.index("cp .env.example .env")
    assert made < section.index("docker run ")
    assert made < section.index("docker compose up")
    assert "env_file: .env" in section


def test_the_docker_section_says_env_values_go_unquoted() -> None:
    section = " ".join(_docker_section().split())
    assert 'without quotes (`DISCORD_TOKEN=abc123`, not `DISCORD_TOKEN="abc123"`)' in section
    assert "Docker's `--env-file` keeps every character after the `=`, quotes included" in (section)


def test_a_bind_mount_is_given_to_the_images_user_first() -> None:
    (uid,) = re.findall(r"^USER (\d+):\d+$", (ROOT / "Dockerfile").read_text(), re.MULTILINE)
    section = _docker_section()
    assert f"The bot runs as uid {uid}" in section
    chown = f"sudo chown {uid}:{uid} /srv/blackjack"
    assert section.index(chown) < section.index("-v /srv/blackjack:/data")
