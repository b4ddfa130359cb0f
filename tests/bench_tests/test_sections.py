"""``bench/sections.py``: every section it times exists (a rename fails here, not silently
in the bench), and a phase's table says which sections never ran."""

from __future__ import annotations

import pytest

from bench.sections import SECTIONS, WHEN_ASKED, phase_lines, target


@pytest.mark.parametrize(("module", "path", "label"), SECTIONS, ids=[s[2] for s in SECTIONS])
def test_each_section_names_a_function_that_exists(module: str, path: str, label: str) -> None:
    owner, name, function = target(module, path)
    assert getattr(owner, name) is function
    assert callable(function), f"{label}: {module}.{path} is not callable"


def test_each_section_has_a_label_of_its_own() -> None:
    labels = [label for _, _, label in SECTIONS]
    assert len(set(labels)) == len(labels)
    assert WHEN_ASKED.issubset(labels)


def test_a_phase_shows_each_section_against_the_floor_and_names_those_never_called() -> None:
    called = SECTIONS[0][2]
    phase = {"interactions": 100, "loop_cpu_ms": 150.0, "sections": {called: [50.0, 100]}}
    lines = phase_lines(phase, "closed loop", floor_us=1000.0)
    assert lines[0] == (
        "closed loop: 100 interactions, loop 1500 us each"
        " (the loop alone: 1.50x the table-sized floor's 1000 us)"
    )
    assert lines[1].split() == [
        *called.split(),
        *("500.0", "us/interaction,", "100", "x", "500.0", "us", "50.0%", "of", "the", "floor"),
    ]
    never = ", ".join(label for _, _, label in SECTIONS[1:] if label not in WHEN_ASKED)
    assert lines[2:] == [f"  never called in this phase: {never}"]
