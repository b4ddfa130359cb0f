"""Start-up settings: what is required, what is defaulted, and what a bad value says."""

from __future__ import annotations

import logging
import os
from pathlib import Path

import pytest

from bot.config import DEFAULT_DATABASE_URL, ConfigError, environment, load_config, read_dotenv


def test_missing_token_says_how_to_get_one() -> None:
    with pytest.raises(ConfigError, match=r"DISCORD_TOKEN is not set.*developers/applications"):
        load_config({})


def test_defaults_use_a_sqlite_file_under_data() -> None:
    config = load_config({"DISCORD_TOKEN": "t"})
    assert config.database_url == DEFAULT_DATABASE_URL
    assert config.database_url.startswith("sqlite:///data/")
    assert config.log_level == logging.INFO
    assert config.dev_guild_id is None
    assert config.card_pictures is True
    assert config.log_format == "text"
    assert (config.metrics_host, config.metrics_port) == ("127.0.0.1", None)


def test_every_setting_is_read() -> None:
    config = load_config(
        {
            "DISCORD_TOKEN": "t",
            "DATABASE_URL": "postgresql://u@h/db",
            "LOG_LEVEL": "debug",
            "DEV_GUILD_ID": "123",
            "DISCORD_API_BASE": "http://127.0.0.1:1/api/v10",
            "DISCORD_GATEWAY_URL": "ws://127.0.0.1:1/gateway",
            "SHARD_COUNT": "4",
            "SHARD_IDS": "0-1,3",
            "CARD_PICTURES": "off",
            "LOG_FORMAT": "JSON",
            "METRICS_PORT": "9464",
            "METRICS_HOST": "0.0.0.0",
        }
    )
    assert config.database_url == "postgresql://u@h/db"
    assert config.log_level == logging.DEBUG
    assert config.dev_guild_id == 123
    assert config.api_base == "http://127.0.0.1:1/api/v10"
    assert config.gateway_url == "ws://127.0.0.1:1/gateway"
    assert config.shard_count == 4
    assert config.shard_ids == (0, 1, 3)
    assert config.card_pictures is False
    assert config.log_format == "json"
    assert (config.metrics_host, config.metrics_port) == ("0.0.0.0", 9464)


@pytest.mark.parametrize(
    ("name", "value", "message"),
    [
        ("DATABASE_URL", "mysql://x", "DATABASE_URL must start with"),
        ("LOG_LEVEL", "LOUD", "LOG_LEVEL must be one of"),
        ("DEV_GUILD_ID", "abc", "DEV_GUILD_ID must be a whole number"),
        ("DISCORD_API_BASE", "127.0.0.1", "DISCORD_API_BASE must start with"),
        ("DISCORD_GATEWAY_URL", "http://x", "DISCORD_GATEWAY_URL must start with"),
        ("SHARD_IDS", "0", "SHARD_IDS needs SHARD_COUNT"),
        ("CARD_PICTURES", "maybe", "CARD_PICTURES must be on or off"),
        ("LOG_FORMAT", "xml", "LOG_FORMAT must be text or json"),
        ("METRICS_PORT", "http", "METRICS_PORT must be a whole number"),
        ("METRICS_PORT", "70000", "METRICS_PORT must be a port number"),
    ],
)
def test_a_bad_setting_names_itself(name: str, value: str, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        load_config({"DISCORD_TOKEN": "t", name: value})


def test_shard_ids_must_be_below_the_count() -> None:
    with pytest.raises(ConfigError, match="below SHARD_COUNT"):
        load_config({"DISCORD_TOKEN": "t", "SHARD_COUNT": "2", "SHARD_IDS": "2"})


def test_dotenv_lines_are_parsed(tmp_path: Path) -> None:
    env = tmp_path / ".env"
    env.write_text('# comment\n\nexport DISCORD_TOKEN="abc"\nLOG_LEVEL=WARNING\nEMPTY=\n')
    assert read_dotenv(env) == {"DISCORD_TOKEN": "abc", "LOG_LEVEL": "WARNING", "EMPTY": ""}


def test_dotenv_garbage_names_the_line(tmp_path: Path) -> None:
    env = tmp_path / ".env"
    env.write_text("DISCORD_TOKEN=abc\nnot a setting\n")
    with pytest.raises(ConfigError, match=r"\.env:2"):
        read_dotenv(env)
    env.write_text("DISCORD_TOKEN=abc\nLOG_LEVEL\n")
    with pytest.raises(ConfigError, match="expected KEY=VALUE, got 'LOG_LEVEL'"):
        read_dotenv(env)


def test_dotenv_quotes_and_comments_and_no_expansion(tmp_path: Path) -> None:
    env = tmp_path / ".env"
    env.write_text(
        "DISCORD_TOKEN='a#b' # the token\n"
        "DATABASE_URL=postgresql://bj:pa$word@db/bj\n"
        "LOG_LEVEL=DEBUG  # while it is new\n"
    )
    assert read_dotenv(env) == {
        "DISCORD_TOKEN": "a#b",
        "DATABASE_URL": "postgresql://bj:pa$word@db/bj",
        "LOG_LEVEL": "DEBUG",
    }


def test_a_real_variable_wins_over_dotenv(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    env = tmp_path / ".env"
    env.write_text("DISCORD_TOKEN=from-file\nLOG_LEVEL=DEBUG\n")
    monkeypatch.setenv("LOG_LEVEL", "ERROR")
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    settings = environment(env)
    assert (settings["DISCORD_TOKEN"], settings["LOG_LEVEL"]) == ("from-file", "ERROR")
    assert "from-file" not in os.environ.values()  # read, not loaded into the process


def test_example_env_file_documents_every_setting() -> None:
    path = Path(__file__).parents[2] / ".env.example"
    text = path.read_text()
    names = ("DISCORD_TOKEN", "DATABASE_URL", "LOG_LEVEL", "DEV_GUILD_ID", "SHARD_COUNT")
    for name in (*names, "CARD_PICTURES", "LOG_FORMAT", "METRICS_PORT", "METRICS_HOST"):
        assert f"{name}=" in text
    # A copied .env must not pin the SQLite file to a path inside a container.
    assert "DATABASE_URL" not in read_dotenv(path)
