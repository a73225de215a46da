"""The summary line tests/summarize.py reads (as in tests/python/conftest.py)."""


def pytest_terminal_summary(terminalreporter):
    stats = terminalreporter.stats
    passed = len([r for r in stats.get("passed", []) if r.when == "call"])
    failed = len(stats.get("failed", [])) + len(stats.get("error", []))
    terminalreporter.write_line("pytest: %d passed, %d failed" % (passed, failed))
