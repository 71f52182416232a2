"""``helpers.library_source.library_line``: the printed file:line is the installed library's own."""

from __future__ import annotations

import inspect
import json

import pytest

from helpers.library_source import library_line


def test_a_function_line_is_printed_with_its_file_and_number(capsys):
    library_line(json.dumps, "if (not skipkeys and ensure_ascii and")
    out = capsys.readouterr().out.splitlines()
    lines, start = inspect.getsourcelines(json.dumps)
    offset = next(n for n, line in enumerate(lines) if "if (not skipkeys and ensure_ascii and" in line)
    assert out[0] == f"json/__init__.py:{start + offset} dumps"
    assert out[1].strip() == lines[offset].strip()


def test_a_module_and_a_class_are_read_too(capsys):
    import langchain.agents.middleware.auto_mode as auto_mode

    library_line(auto_mode, "_PROBABILITY_THRESHOLD = ")
    library_line(auto_mode.AutoModeMiddleware, "trace_policy = TracePolicy(")
    module_line, _, class_line, _ = capsys.readouterr().out.splitlines()
    number = 1 + next(n for n, line in enumerate(inspect.getsource(auto_mode).splitlines())
                      if "_PROBABILITY_THRESHOLD = " in line)
    assert module_line == f"langchain/agents/middleware/auto_mode.py:{number}"
    assert class_line.startswith("langchain/agents/middleware/auto_mode.py:") and class_line.endswith(
        " AutoModeMiddleware")


def test_a_text_the_library_no_longer_has_is_an_error():
    with pytest.raises(LookupError, match="the library changed"):
        library_line(json.dumps, "this text is not in json.dumps")
