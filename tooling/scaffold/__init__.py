"""``make new-notebook NN=21 TITLE="Tool call budgets"``: a new notebook's skeleton that passes every test.

Writes, for notebook ``NN`` (nothing is overwritten: an existing file stops the command first):

* ``notebooks/NN_topic.ipynb``: the ``# NN · Title`` cell and "what you will learn", a protocol case
  (``scripted_model``), a live cell that binds a tool (``live_model`` + ``live_verdict``), exercise
  NN.1's stub and check, the "Check yourself" cell, the Recap, and ``metadata.course`` (title,
  summary); then executes it (offline, :mod:`tooling.notebooks`) so its outputs are committed;
* ``helpers/exercises/nbNN.py``: exercise ``NN.1`` with one case;
* ``tests/solutions/nbNN.py``: its reference solution, two known-wrong answers, a crashing answer;
* ``helpers/selfcheck/nbNN.py``: three questions (two "predict the output" snippets run after its
  ``CODE_CONTEXT``, one proven by a verifier);
* ``tests/selfcheck_verifiers/nbNN.py``: that verifier;
* ``translations/zh/notebooks/NN_topic.md``: the Chinese of each of the skeleton's Markdown cells;
* runs :mod:`tooling.coursemap` (the times, 00's course map, the README's table, every "Next" cell)
  and brings 00's Chinese course map along (:func:`tooling.translation.course_map.follow_english_map`);
* and builds the Chinese notebooks that changed (``notebooks/zh/NN_topic.ipynb``, 00 and the notebook
  before it) and ``README.zh-CN.md``, as ``make zh`` does.

The module templates are files under :data:`TEMPLATES`, so ``make catalogs`` extracts their learner-facing
texts and the catalog holds their Chinese: a fresh notebook passes the Chinese edition's tests too, and
adds no message (no built Chinese notebook goes stale). Every registration is the file name (CONTRIBUTING,
"One registry: files named nbNN.py"), so there is no list to edit. Replace the skeleton's lesson with
yours, keeping each part's shape. ``tests/test_scaffold.py`` runs this in a scratch copy of the
repository and then, with no other change, the tests that cover the new files in both editions.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from collections.abc import Sequence
from pathlib import Path

from tooling import coursemap
from tooling.notebooks import course_notebooks, execute_notebook
from tooling.translation.build import build
from tooling.translation.course_map import follow_english_map, map_cell
from tooling.translation.readme import write_readme
from tooling.translation.source import cell_hash, translation_path

__all__ = ["ScaffoldError", "main", "new_notebook", "planned_files", "slug"]

ROOT = Path(__file__).resolve().parents[2]
DEFAULT_SUMMARY = "to be written: one line on what the learner gets from this notebook"


class ScaffoldError(ValueError):
    """Bad arguments or a file that already exists; the message says which and what to do."""


def slug(title: str) -> str:
    """``"streaming_tool_calls"`` for ``"Streaming tool calls!"`` (lower case, ``_`` between words).

    Raises:
        ScaffoldError: the title has no letter or digit.
    """
    words = re.findall(r"[a-z0-9]+", title.lower())
    if not words:
        raise ScaffoldError(f"the title {title!r} has no letters or digits to name the file with")
    return "_".join(words)[:48].rstrip("_")


def planned_files(root: Path, number: str, title: str) -> dict[str, Path]:
    """``{part: path}`` of the files :func:`new_notebook` writes under ``root``."""
    return {
        "notebook": root / "notebooks" / f"{number}_{slug(title)}.ipynb",
        "exercise": root / "helpers" / "exercises" / f"nb{number}.py",
        "answers": root / "tests" / "solutions" / f"nb{number}.py",
        "questions": root / "helpers" / "selfcheck" / f"nb{number}.py",
        "verifiers": root / "tests" / "selfcheck_verifiers" / f"nb{number}.py",
        "translation": root / "translations" / "zh" / "notebooks" / f"{number}_{slug(title)}.md",
        "chinese": root / "notebooks" / "zh" / f"{number}_{slug(title)}.ipynb",
    }


# -- the templates (``NN`` and ``TITLE`` are filled in) ---------------------------------------------

_PROTOCOL_CASE = '''from langchain.tools import tool

from helpers import scripted_model, tool_call

runs = []  # the order ids lookup_order was run with


@tool
def lookup_order(order_id: str) -> str:
    """Look up the status of one order by its id, e.g. A1024."""
    runs.append(order_id)
    return f"Order {order_id}: wireless headphones, delivered."


# protocol case: the model asks for one tool call, whatever model is configured
model = scripted_model([[tool_call("lookup_order", {"order_id": "A1024"})]])
reply = model.bind_tools([lookup_order]).invoke("Where is my order A1024?")
print("tool calls:", [(call["name"], call["args"], call["id"]) for call in reply.tool_calls])
print("lookup_order ran for:", runs)'''

_LIVE_CELL = '''from langchain.agents import create_agent

from helpers import live_model, live_verdict

# live cell: your configured model, or offline this script; nothing below depends on its answer
script = [[tool_call("lookup_order", {"order_id": "A1024"})], "Your order A1024 was delivered."]
model = live_model(script)
agent = create_agent(model, tools=[lookup_order])
result = agent.invoke({"messages": [{"role": "user", "content": "Where is my order A1024?"}]})
live_verdict(result, model, expect_tools=["lookup_order"], expect_text=True)'''

_EXERCISE_CELL = '''from helpers.exercises import nbNN


def tool_names(ai_message):
    """Return the names of the tools an AIMessage asks to run, in call order."""
    raise NotImplementedError("return a list of tool names")


nbNN.TOOL_NAMES.check(tool_names)'''






#: The module templates, real Python files so that ``make catalogs`` extracts their learner-facing texts
#: (``babel.cfg``): the catalog holds their Chinese before any notebook is scaffolded, so a new notebook
#: adds no message and no built Chinese notebook goes stale. A msgid never holds ``NN`` or ``TITLE``.
TEMPLATES = Path(__file__).resolve().parent / "templates"
#: Each written module: its part (:func:`planned_files`) and its template under :data:`TEMPLATES`.
_MODULES = {"exercise": "exercises/nbNN.py", "answers": "solutions/nbNN.py", "questions": "selfcheck/nbNN.py",
            "verifiers": "selfcheck_verifiers/nbNN.py"}


def _fill(template: str, number: str, title: str) -> str:
    return template.replace("PROTOCOL_CASE", _PROTOCOL_CASE).replace("nbNN", f"nb{number}") \
        .replace("NN", number).replace("TITLE", title)


def _cell(kind: str, source: str) -> dict:
    cell = {"cell_type": kind, "id": "", "metadata": {}, "source": source}
    if kind == "code":
        cell.update(execution_count=None, outputs=[])
    return cell


def _markdown(number: str, title: str) -> list[tuple[str, str]]:
    """The skeleton's Markdown cells, in order: ``(English, Chinese)``. The Chinese keeps every code
    span and number and the glossary's terms (``translations/zh/glossary.toml``); the title stays as
    written until a translator gives it in Chinese."""
    return [
        (f"# {number} · {title}\n\n"
         "One paragraph: what this notebook is about and why it matters (to be written).\n\n"
         "**What you will learn**\n\n"
         "1. A protocol case: a tool call is a request, and nothing has run yet.\n"
         "2. A live cell: the same request from your configured model.\n"
         "3. Exercise: read the tool calls of an `AIMessage`.",
         f"# {number} · {title}\n\n"
         "一段话：本笔记本讲什么，为什么重要（待写）。\n\n"
         "**你将学到**\n\n"
         "1. 一个协议用例：工具调用是一个请求，此时什么都还没有运行。\n"
         "2. 一个实时单元格：你配置的模型发出同样的请求。\n"
         "3. 练习：读取一条 `AIMessage` 的工具调用。"),
        ("## 1. A protocol case\n\n"
         "A *protocol case* uses `scripted_model`: the model's move is the lesson's fixture, the same whatever model\n"
         "is configured. Here it asks for one tool call, and the tool has not run.",
         "## 1. 协议用例\n\n"
         "*协议用例*使用 `scripted_model`：模型的这一步是本课的固定前提，无论配置了什么模型都一样。"
         "这里它请求一个工具调用，而工具并没有运行。"),
        ("## 2. A live cell\n\n"
         "A *live cell* uses `live_model`: your configured model, or offline the script it is given. It binds a tool\n"
         "and ends with `live_verdict`, one line on what the model did.",
         "## 2. 实时单元格\n\n"
         "*实时单元格*使用 `live_model`：你配置的模型；离线时则是交给它的脚本。它绑定一个工具，"
         "并以 `live_verdict` 结束：用一行话说明模型做了什么。"),
        (f"## 3. Exercise {number}.1\n\n"
         "Write `tool_names(ai_message)`: the names of the tools the message asks to run, in call order. Replace the\n"
         "`raise NotImplementedError`, run the cell, and read the check's feedback.",
         f"## 3. 练习 {number}.1\n\n"
         "编写 `tool_names(ai_message)`：返回这条消息请求运行的工具名称，按调用顺序排列。"
         "替换掉 `raise NotImplementedError`，运行这个单元格，再阅读检查给出的反馈。"),
        ("## Check yourself\n\nThree questions on section 1; your first answer is the one scored.",
         "## 自测\n\n关于第 1 节的三个问题；计分的是你的第一个答案。"),
        ("## Recap\n\n"
         "- A tool call is a request with a name, arguments and an id; nothing runs until the application runs it.\n"
         "- A protocol case is always scripted; a live cell asks your model and says what it did.",
         "## 小结\n\n"
         "- 工具调用是一个带有名称、参数和 id 的请求；在应用运行它之前，什么都不会运行。\n"
         "- 协议用例总是按脚本进行；实时单元格会询问你的模型，并说明它做了什么。"),
    ]


def _cells(number: str, title: str) -> list[tuple[str, str, str]]:
    """The skeleton's cells, in order: ``(cell id, kind, English source)``."""
    markdown = iter(english for english, _chinese in _markdown(number, title))
    kinds = ["markdown", "markdown", "code", "markdown", "code", "markdown", "code", "markdown", "code", "markdown"]
    code = iter([_PROTOCOL_CASE, _LIVE_CELL, _fill(_EXERCISE_CELL, number, title),
                 f'from helpers.selfcheck import self_check\n\nself_check("{number}")'])
    return [(f"cell-{index:03d}", kind, next(markdown if kind == "markdown" else code))
            for index, kind in enumerate(kinds, start=1)]


def notebook_json(number: str, title: str, summary: str) -> dict:
    """The skeleton notebook (not executed) as nbformat 4 JSON."""
    cells = []
    for cell_id, kind, source in _cells(number, title):
        cell = _cell(kind, source)
        cell["id"] = cell_id
        cells.append(cell)
    return {
        "cells": cells,
        "metadata": {
            "course": {"title": title, "summary": summary},
            "kernelspec": {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"},
            "language_info": {"name": "python"},
        },
        "nbformat": 4,
        "nbformat_minor": 5,
    }


def translation_text(number: str, title: str) -> str:
    """The skeleton's translation file (``translations/zh/notebooks/NN_topic.md``): one block per Markdown
    cell, keyed by cell id and the hash of its English (:func:`tooling.translation.source.cell_hash`)."""
    chinese = iter(chinese for _english, chinese in _markdown(number, title))
    return "\n".join(f"<!-- cell {cell_id} en-sha256 {cell_hash(source)} -->\n{next(chinese)}\n"
                     for cell_id, kind, source in _cells(number, title) if kind == "markdown")


def _check(root: Path, number: str, title: str) -> dict[str, Path]:
    if not re.fullmatch(r"\d\d", number or ""):
        raise ScaffoldError(f"NN is a two-digit notebook number, e.g. NN=21, got {number!r}")
    if not title or not title.strip() or "\n" in title:
        raise ScaffoldError('say the title: make new-notebook NN=21 TITLE="Tool call budgets"')
    taken = sorted(p.name for p in (root / "notebooks").glob(f"{number}_*.ipynb"))
    if taken:
        raise ScaffoldError(f"notebook {number} exists already ({', '.join(taken)}): choose another NN")
    files = planned_files(root, number, title.strip())
    existing = [str(p.relative_to(root)) for p in files.values() if p.exists()]
    if existing:
        raise ScaffoldError(f"these files exist already, nothing was written: {', '.join(existing)}")
    return files


def new_notebook(number: str, title: str, *, summary: str = DEFAULT_SUMMARY, root: Path = ROOT,
                 execute: bool = True) -> list[Path]:
    """Write notebook ``number``'s skeleton under ``root``, in both editions (see the module docstring).

    Args:
        number: two digits, e.g. ``"12"``; no notebook may have it yet.
        title: the notebook's title (one line), e.g. ``"Streaming tool calls"``.
        summary: its one-line summary for the course map.
        root: the course checkout.
        execute: run the new notebook (offline, with ``root`` first on ``PYTHONPATH``) so its outputs
            are committed, and build the Chinese notebooks that changed (the new one, 00 and the one
            before it, whose course map and Next cell changed); ``False`` writes neither (strict nbval
            then has nothing to compare, and the Chinese edition is stale).

    Returns:
        the files written (the notebook first, its Chinese build last when ``execute``); what
        :mod:`tooling.coursemap` and the Chinese build updated (00, the README, the previous notebook's
        Next cell, their Chinese editions, ``README.zh-CN.md``) is not listed.

    Raises:
        ScaffoldError: a bad number or title, or a file that exists (nothing is written then).
        tooling.notebooks.NotebookFailure: the skeleton failed to execute (its files stay, to look at).
    """
    title = title.strip()
    files = _check(root, number, title)
    files["notebook"].write_text(coursemap._dumps(notebook_json(number, title, summary)), encoding="utf-8")
    for part, template in _MODULES.items():
        files[part].parent.mkdir(parents=True, exist_ok=True)
        files[part].write_text(_fill((TEMPLATES / template).read_text(encoding="utf-8"), number, title),
                               encoding="utf-8")
    translations = files["translation"].parent
    translations.mkdir(parents=True, exist_ok=True)
    files["translation"].write_text(translation_text(number, title), encoding="utf-8")
    env = {"PYTHONPATH": os.pathsep.join(p for p in (str(root), os.environ.get("PYTHONPATH", "")) if p)}
    if execute:
        execute_notebook(files["notebook"], env=env)
    start = root / "notebooks" / "00_start_here.ipynb"
    before = map_cell(start)
    coursemap.apply(root)
    if before is not None:
        follow_english_map(start, before, coursemap.course_entries(root), translations)
    written = [path for part, path in files.items() if part != "chinese"]
    if execute:
        for english in course_notebooks(root / "notebooks"):
            if translation_path(english, translations).is_file():
                build(english, out_dir=files["chinese"].parent, translations=translations, env=env)
        write_readme(root / "README.zh-CN.md", translations)
        written.append(files["chinese"])
    return written


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m tooling.scaffold NN "Title" [--summary TEXT] [--root DIR] [--no-execute]``."""
    parser = argparse.ArgumentParser(prog="python -m tooling.scaffold", description=__doc__.splitlines()[0])
    parser.add_argument("number", help="two digits, e.g. 12")
    parser.add_argument("title", help='the title, e.g. "Streaming tool calls"')
    parser.add_argument("--summary", default=DEFAULT_SUMMARY, help="one line for the course map")
    parser.add_argument("--root", type=Path, default=ROOT, help="the course checkout (default: this one)")
    parser.add_argument("--no-execute", action="store_true", help="do not execute the new notebook")
    args = parser.parse_args(argv)
    try:
        written = new_notebook(args.number, args.title, summary=args.summary, root=args.root.resolve(),
                               execute=not args.no_execute)
    except ScaffoldError as exc:
        print(f"new-notebook: {exc}", file=sys.stderr)
        return 2
    for path in written:
        print(f"wrote {path.relative_to(args.root.resolve())}")
    print("updated the course map, the README's table and the Next cells (python -m tooling.coursemap), "
          "00's Chinese course map and the Chinese notebooks that changed (make zh)")
    print("next: write the lesson, then python -m tooling.notebooks " + str(written[0].relative_to(args.root.resolve()))
          + f", make worklist NB={args.number} to translate it, make zh, and the tests (CONTRIBUTING.md, "
          "'Adding a notebook')")
    return 0
