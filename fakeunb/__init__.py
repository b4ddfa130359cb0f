"""A strict local UnbelievaBoat (its public REST API v1), for the tests and the playground."""

from __future__ import annotations

from fakeunb.server import ECONOMY, INVENTORY, FakeUnbelievaBoat, Fault

__all__ = ["ECONOMY", "INVENTORY", "FakeUnbelievaBoat", "Fault"]
