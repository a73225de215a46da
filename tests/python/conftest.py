"""Shared fixtures of the Python suite, and the machine-readable summary
line that tests/summarize.py reads from the meson test log."""
import os
import pathlib

import pytest

DATA = pathlib.Path(os.environ.get("PL_TEST_DATA", pathlib.Path(__file__).parent.parent / "data"))


@pytest.fixture
def data():
    """Path of a fixture under tests/data: data('flow/small_graph.in')."""
    return lambda rel: str(DATA / rel)


def pytest_terminal_summary(terminalreporter):
    # Every test counts once; errors (a broken fixture, a failed collection)
    # count as failures so that a suite that cannot run is not silent.
    stats = terminalreporter.stats
    passed = len([r for r in stats.get("passed", []) if r.when == "call"])
    failed = len(stats.get("failed", [])) + len(stats.get("error", []))
    terminalreporter.write_line("pytest: %d passed, %d failed" % (passed, failed))
