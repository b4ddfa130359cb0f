"""bot.endpoints: DISCORD_API_BASE and DISCORD_GATEWAY_URL point discord.py elsewhere."""

from __future__ import annotations

from collections.abc import Iterator

import discord.gateway
import discord.http
import pytest
import yarl

from bot.endpoints import apply_endpoints


@pytest.fixture(autouse=True)
def restore_discord_endpoints() -> Iterator[None]:
    saved = (discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY)
    yield
    discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = saved


def test_both_settings_are_applied() -> None:
    apply_endpoints(
        {
            "DISCORD_API_BASE": "http://127.0.0.1:8080/api/v10/",
            "DISCORD_GATEWAY_URL": "ws://127.0.0.1:8080/gateway",
        }
    )
    assert discord.http.Route("GET", "/users/@me").url == "http://127.0.0.1:8080/api/v10/users/@me"
    gateway = discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
    assert gateway == yarl.URL("ws://127.0.0.1:8080/gateway")


def test_unset_settings_leave_discord_com() -> None:
    apply_endpoints({})
    assert discord.http.Route.BASE == "https://discord.com/api/v10"
    assert yarl.URL("wss://gateway.discord.gg/") == discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY


@pytest.mark.parametrize(
    "env",
    [
        {"DISCORD_API_BASE": "127.0.0.1:8080/api/v10"},
        {"DISCORD_GATEWAY_URL": "http://127.0.0.1:8080/gateway"},
    ],
)
def test_a_malformed_setting_is_refused_with_its_name(env: dict[str, str]) -> None:
    (name,) = env
    with pytest.raises(ValueError, match=name):
        apply_endpoints(env)
    assert discord.http.Route.BASE == "https://discord.com/api/v10"
