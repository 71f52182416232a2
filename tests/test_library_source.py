"""``helpers.library_source.library_line``: the printed file:line is the installed library's own."""

from __future__ import annotations

import inspect
import json
import re

import pytest
from langchain.agents import create_agent
from langgraph._internal import _config as langgraph_config
from langgraph.checkpoint import memory
from langgraph.prebuilt.tool_node import ToolNode

from helpers.library_source import library_line


def printed(capsys, obj, text) -> list[str]:
    library_line(obj, text)
    return capsys.readouterr().out.splitlines()


def test_a_function_line_is_printed_with_its_file_and_number(capsys):
    out = printed(capsys, json.dumps, "if (not skipkeys and ensure_ascii and")
    lines, start = inspect.getsourcelines(json.dumps)
    offset = next(n for n, line in enumerate(lines) if "if (not skipkeys and ensure_ascii and" in line)
    assert out[0] == f"json/__init__.py:{start + offset} dumps"
    assert out[1].strip() == lines[offset].strip()


def test_an_installed_package_s_function_names_its_package_file(capsys):
    where, line = printed(capsys, create_agent, '"recursion_limit": 9_999')
    assert re.fullmatch(r"langchain/agents/factory\.py:\d+ create_agent", where)
    assert line == '    config: RunnableConfig = {"recursion_limit": 9_999}'


def test_the_line_number_is_the_line_in_the_file(capsys):
    where, line = printed(capsys, ToolNode._parse_input, "tool_calls = list(latest_ai_message.tool_calls)")
    assert where.endswith(" ToolNode._parse_input")
    number = int(where.split(" ")[0].rsplit(":", 1)[1])
    with open(ToolNode._parse_input.__code__.co_filename, encoding="utf-8") as handle:
        assert handle.read().splitlines()[number - 1].strip() == line.strip()


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


def test_a_module_and_a_package_module_use_their_files(capsys):
    assert printed(capsys, langgraph_config, "DEFAULT_RECURSION_LIMIT = ")[0].startswith(
        "langgraph/_internal/_config.py:")
    assert printed(capsys, memory, "class InMemorySaver")[0].startswith("langgraph/checkpoint/memory/__init__.py:")


def test_no_machine_path_leaks(capsys):
    where = printed(capsys, create_agent, "def create_agent")[0]
    assert "site-packages" not in where and not where.startswith("/")


def test_a_text_the_library_no_longer_has_is_an_error(capsys):
    with pytest.raises(LookupError, match="'no such line' is not in langchain.agents.factory create_agent: the "
                                          "library changed"):
        library_line(create_agent, "no such line")
    with pytest.raises(LookupError, match="the library changed"):
        library_line(json.dumps, "this text is not in json.dumps")
    assert capsys.readouterr().out == ""


def test_a_builtin_has_no_source():
    with pytest.raises(TypeError):
        library_line(len, "len")
