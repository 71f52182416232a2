"""helpers.library_source.library_line: the line of an installed library that decides a behaviour."""

from __future__ import annotations

import re

import pytest
from langchain.agents import create_agent
from langgraph._internal import _config as langgraph_config
from langgraph.checkpoint import memory
from langgraph.prebuilt.tool_node import ToolNode

from helpers.library_source import library_line


def test_a_function_line_names_its_package_file_and_the_line():
    found = library_line(create_agent, '"recursion_limit": 9_999')
    where, line = found.split("\n")
    assert re.fullmatch(r"langchain/agents/factory\.py:\d+", where)
    assert line == '    config: RunnableConfig = {"recursion_limit": 9_999}'


def test_the_line_number_is_the_line_in_the_file():
    found = library_line(ToolNode._parse_input, "tool_calls = list(latest_ai_message.tool_calls)")
    where, line = found.split("\n")
    number = int(where.rsplit(":", 1)[1])
    source = ToolNode._parse_input.__code__.co_filename
    with open(source, encoding="utf-8") as handle:
        assert handle.read().splitlines()[number - 1].strip() == line.strip()


def test_a_module_and_a_package_module_use_their_files():
    assert library_line(langgraph_config, "DEFAULT_RECURSION_LIMIT = ").startswith("langgraph/_internal/_config.py:")
    assert library_line(memory, "class InMemorySaver").startswith("langgraph/checkpoint/memory/__init__.py:")


def test_no_machine_path_leaks():
    assert "site-packages" not in library_line(create_agent, "def create_agent")
    assert not library_line(create_agent, "def create_agent").startswith("/")


def test_a_text_the_library_lost_is_a_clear_error():
    with pytest.raises(LookupError, match="'no such line' is not in the source of create_agent"):
        library_line(create_agent, "no such line")


def test_a_builtin_has_no_source():
    with pytest.raises(TypeError):
        library_line(len, "len")
