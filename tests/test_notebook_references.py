"""Every reference to a notebook by number still fits the notebook that now has that number (issue 29).

Renumbering (issue 17) left sentences such as "the starting point of notebooks 05 and 11" (the article behind
`ToolOutputMixin` is 05's and 12's) and "the middleware of 09" for `HumanInTheLoopMiddleware` (taught in 10).
This test reads the prose a learner or a contributor reads, in both editions: the English notebooks' Markdown
cells, the Chinese translation files (``translations/zh/notebooks/*.md``), the message catalog (every ``msgid``
and ``msgstr``), ``README.md``, ``README.zh-CN.md``, ``CONTRIBUTING.md`` and ``docs/*.md``. Three kinds of
reference are checked against the notebooks themselves, so nothing here has to be kept in step by hand:

* a file name ``NN_slug.ipynb`` (a link or a name in the text) must be a notebook's file, with that number;
* ``NN · Title`` outside code must continue with notebook NN's title: ``metadata.course.title`` in English, the
  first heading of its translation after ``NN · `` in Chinese;
* ``notebook NN`` / ``notebooks NN, MM and KK`` / ``笔记本 NN 和 MM`` must name notebooks that exist, and when the
  part of the sentence the reference is about names a *topic* (below), each notebook it names must mention at
  least one of those topics somewhere in its own cells. A range (``notebooks 02-10``) is checked for existence
  only. The part a reference is about: the whole sentence when it is the sentence's only reference; with several,
  the text since the reference before it (``reads `runtime.context` (notebook 04) ... and asks a colleague
  (notebook 08)``), the last one to the sentence's end. A possessive reference (``notebook 14's stand-ins``,
  ``笔记本 14 的本地替身``, ``笔记本 05 和 12 的出发点``) also fits when the notebook, in either edition, mentions
  the thing it possesses. A reference right after a quote or a backtick is a format example
  (``"notebook 10, Pitfalls, ..."``), not a reference.

The topics are the identifiers the notebooks put in their titles, summaries and headings (``ToolOutputMixin``,
``HumanInTheLoopMiddleware``, ``interrupt()``, ``recursion_limit``, ...): code spans, CamelCase words and
snake_case words. A plain lower-case word (``strict``, ``state``) counts only inside a code span in the sentence.
Deriving them from the notebooks keeps the check true after the next move: a notebook that stops teaching a
topic stops owning it.

Placeholders that name no real notebook are allowed where the text says they are examples: a slug ``x``
(``03_x.ipynb``), and the notebook that CONTRIBUTING's ``make new-notebook NN=.. TITLE=".."`` example would
create, whose number and title must both be free.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
TRANSLATIONS = ROOT / "translations" / "zh" / "notebooks"
CATALOG = ROOT / "helpers" / "locale" / "zh_CN" / "LC_MESSAGES" / "course.po"
PROSE_FILES = [ROOT / "README.md", ROOT / "README.zh-CN.md", ROOT / "CONTRIBUTING.md",
               *sorted((ROOT / "docs").glob("*.md"))]

_SPAN = re.compile(r"`([^`\n]+)`")
_FENCE = re.compile(r"^```.*?^```", re.DOTALL | re.MULTILINE)
_IDENTIFIER = re.compile(r"\b(?:[A-Z][a-z0-9]+){2,}[A-Za-z0-9]*\b|\b[a-z]+(?:_[a-z0-9]+)+\b")
_FILE = re.compile(r"(?<![\w/-])(\d\d)_([a-z0-9_]+?)(?:\.\d+)?\.ipynb")
_TITLED = re.compile(r"(?<![\w.])(\d\d) · ")
_NUMBERS = r"\d\d(?:(?:, |,| and | or | 和 |和|、|-)\d\d)*"
_MENTION = re.compile(rf"\b[Nn]otebooks? ({_NUMBERS})\b|笔记本 ?({_NUMBERS})(?!\d)")
_SENTENCE_END = re.compile(r"(?<=[.;!?])\s+(?=[A-Z`(\[*])|(?<=[。！？])")
_UNITS = re.compile(r"\n\s*\n|\n(?=\s*[-*|] )|\n(?=\s*\d+\. )|\n(?=<!-- cell )")
_NEW_NOTEBOOK = re.compile(r'make new-notebook NN=(\d\d) TITLE="([^"]+)"')
_TOPIC_MIN_LENGTH = 4


@dataclass(frozen=True)
class Notebook:
    """One notebook as the references see it."""

    number: str
    stem: str
    title: str
    title_zh: str | None
    text: str  # every cell's source, the title, the summary and the translation: what the notebook mentions


@dataclass(frozen=True)
class Prose:
    """A piece of prose to check: where it is (for the message) and its text."""

    where: str
    text: str


def _markdown_cells(path: Path) -> list[dict]:
    return [cell for cell in json.loads(path.read_text(encoding="utf-8"))["cells"] if cell["cell_type"] == "markdown"]


def _chinese_title(stem: str) -> str | None:
    path = TRANSLATIONS / f"{stem}.md"
    if not path.exists():
        return None
    heading = re.search(r"^# \d\d · (.+)$", path.read_text(encoding="utf-8"), re.MULTILINE)
    return heading.group(1).strip() if heading else None


def load_notebooks() -> dict[str, Notebook]:
    """Every notebook of ``notebooks/`` by number."""
    found = {}
    for path in NOTEBOOKS:
        book = json.loads(path.read_text(encoding="utf-8"))
        course = book["metadata"]["course"]
        text = "\n".join("".join(cell["source"]) for cell in book["cells"])
        translation = TRANSLATIONS / f"{path.stem}.md"
        if translation.exists():
            text += "\n" + translation.read_text(encoding="utf-8")
        found[path.name[:2]] = Notebook(path.name[:2], path.stem, course["title"], _chinese_title(path.stem),
                                        f"{text}\n{course['title']}\n{course['summary']}")
    return found


def topics(notebooks: dict[str, Notebook]) -> set[str]:
    """The identifiers in the notebooks' titles, summaries and headings (code spans, CamelCase, snake_case)."""
    found: set[str] = set()
    for path in NOTEBOOKS:
        book = json.loads(path.read_text(encoding="utf-8"))
        course = book["metadata"]["course"]
        headings = [line for cell in _markdown_cells(path) for line in "".join(cell["source"]).splitlines()
                    if line.startswith("#")]
        text = "\n".join([*headings, course["title"], course["summary"]])
        found |= set(_SPAN.findall(text)) | set(_IDENTIFIER.findall(_SPAN.sub(" ", text)))
    return {topic for topic in found if len(topic) >= _TOPIC_MIN_LENGTH}


def _sentences(text: str) -> Iterator[str]:
    for unit in _UNITS.split(_FENCE.sub("\n\n", text)):
        yield from _SENTENCE_END.split(unit)


def _topics_in(sentence: str, vocabulary: set[str]) -> set[str]:
    named = set(_SPAN.findall(sentence)) | set(_IDENTIFIER.findall(sentence))
    return vocabulary & named


def _about(sentence: str, mentions: list[re.Match], index: int) -> str:
    """The part of ``sentence`` that reference ``mentions[index]`` is about (see the module docstring)."""
    if len(mentions) == 1:
        return sentence
    start = mentions[index - 1].end() if index else 0
    end = mentions[index].end() if index + 1 < len(mentions) else len(sentence)
    return sentence[start:end]


def _possessed(sentence: str, match: re.Match) -> str | None:
    """What a possessive reference possesses: ``stand-in`` of ``notebook 14's stand-ins``, ``本地替身`` of
    ``笔记本 14 的本地替身``; ``None`` when the reference is not possessive."""
    found = re.match(r"(?:'s|’s) ([\w-]+?)s?\b|\s?的([^\s,;:.()，。；：（）、]+)", sentence[match.end():])
    return (found.group(1) or found.group(2)) if found else None


def _allowed_examples(notebooks: dict[str, Notebook]) -> tuple[set[str], list[str]]:
    """The stems CONTRIBUTING's scaffold example would create, and what is wrong with that example."""
    problems, stems = [], set()
    for number, title in _NEW_NOTEBOOK.findall((ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")):
        stems.add(f"{number}_{'_'.join(re.findall(r'[a-z0-9]+', title.lower()))}")
        if number in notebooks:
            problems.append(f"CONTRIBUTING.md: the example `make new-notebook NN={number}` names notebook {number} "
                            f"({notebooks[number].title}), which exists: pick a free number")
        if any(book.title == title for book in notebooks.values()):
            problems.append(f"CONTRIBUTING.md: the example title {title!r} is a notebook's title already")
    return stems, problems


def check(prose: Prose, notebooks: dict[str, Notebook], vocabulary: set[str], examples: set[str]) -> list[str]:
    """What is wrong with the notebook references in ``prose`` (one line each; empty when all fit)."""
    problems = []
    for number, slug in _FILE.findall(prose.text):
        stem = f"{number}_{slug}"
        if slug == "x" or stem in examples:
            continue
        if number not in notebooks:
            problems.append(f"{prose.where}: {stem}.ipynb: there is no notebook {number}")
        elif notebooks[number].stem != stem:
            problems.append(f"{prose.where}: {stem}.ipynb: notebook {number} is {notebooks[number].stem}.ipynb")
    outside_code = _SPAN.sub(" ", _FENCE.sub(" ", prose.text))
    for match in _TITLED.finditer(outside_code):
        number, after = match.group(1), outside_code[match.end():]
        book = notebooks.get(number)
        if book is None:
            problems.append(f"{prose.where}: '{number} · {after[:30]}': there is no notebook {number}")
        elif not any(title and after.startswith(title) for title in (book.title, book.title_zh)):
            problems.append(f"{prose.where}: '{number} · {after[:40]}': notebook {number} is "
                            f"'{number} · {book.title}'" + (f" ('{number} · {book.title_zh}')" if book.title_zh else ""))
    for sentence in _sentences(prose.text):
        mentions = [m for m in _MENTION.finditer(sentence) if sentence[max(m.start() - 1, 0):m.start()] not in '"`“']
        for index, match in enumerate(mentions):
            listed = match.group(1) or match.group(2)
            numbers = re.findall(r"\d\d", listed)
            missing = [number for number in numbers if number not in notebooks]
            if missing:
                problems.append(f"{prose.where}: '{match.group(0)}': there is no notebook {', '.join(missing)}")
                continue
            named = _topics_in(_about(sentence, mentions, index), vocabulary)
            if "-" in listed or not named:
                continue
            owned = _possessed(sentence, match)
            for number in numbers:
                if owned and owned in notebooks[number].text:
                    continue
                if not any(topic in notebooks[number].text for topic in named):
                    owners = sorted(n for n, book in notebooks.items() if any(t in book.text for t in named))
                    problems.append(
                        f"{prose.where}: '{match.group(0)}' about {', '.join(sorted(named))}: notebook {number} "
                        f"({notebooks[number].title}) never mentions it; notebooks that do: {', '.join(owners)}\n"
                        f"    in: {' '.join(sentence.split())[:200]}")
    return problems


def course_prose() -> Iterator[Prose]:
    """Every piece of prose the test reads, both editions."""
    for path in NOTEBOOKS:
        for cell in _markdown_cells(path):
            yield Prose(f"notebooks/{path.name} {cell.get('id')}", "".join(cell["source"]))
    for path in sorted(TRANSLATIONS.glob("*.md")):
        yield Prose(f"translations/zh/notebooks/{path.name}", path.read_text(encoding="utf-8"))
    with CATALOG.open("rb") as handle:
        catalog = read_po(handle)
    for message in catalog:
        if message.id:
            where = f"{CATALOG.relative_to(ROOT)} (msgid {str(message.id)[:40]!r})"
            yield Prose(where, str(message.id))
            yield Prose(where, str(message.string))
    for path in PROSE_FILES:
        yield Prose(str(path.relative_to(ROOT)), path.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def course():
    notebooks = load_notebooks()
    examples, problems = _allowed_examples(notebooks)
    return notebooks, topics(notebooks), examples, problems


def test_every_reference_to_a_notebook_fits_it(course):
    notebooks, vocabulary, examples, problems = course
    problems = list(problems)
    for prose in course_prose():
        problems += check(prose, notebooks, vocabulary, examples)
    assert not problems, "references that no longer fit their notebook:\n" + "\n".join(problems)


@pytest.mark.parametrize("text, expected", [
    # the stale references issue 29 found, as they were written
    ("It is the starting point of notebooks 05 and 11, on `ToolOutputMixin`.", "notebook 11"),
    ("关于 `ToolOutputMixin` 的文章（副本没有标题行；它的第一节是……），它是笔记本 05 和 11 的出发点。", "notebook 11"),
    ("Pause for a person with `HumanInTheLoopMiddleware` (notebook 09).", "notebook 09"),
    ("the middleware of [09 · Errors and high-risk tools](09_errors_and_high_risk_tools.ipynb)",
     "notebook 09 is 09_tool_errors_and_idempotency.ipynb"),
    ("[Next: 10 · Capstone](10_capstone_refund_agent.ipynb)", "'10 · Capstone"),
    ("see notebook 42", "there is no notebook 42"),
    # two references in one sentence: each is checked against its own part
    ("Pause with `HumanInTheLoopMiddleware` (notebook 09), then read `runtime.context` (notebook 04).",
     "'notebook 09' about HumanInTheLoopMiddleware"),
    # a possessive reference to something the notebook does not have
    ("`ToolOutputMixin` is notebook 11's subject.", "'notebook 11' about ToolOutputMixin"),
])
def test_a_stale_reference_is_caught(course, text, expected):
    notebooks, vocabulary, examples, _ = course
    problems = check(Prose("example", text), notebooks, vocabulary, examples)
    assert any(expected in problem for problem in problems), problems


@pytest.mark.parametrize("text", [
    "It is the starting point of notebooks 05 and 12, on `ToolOutputMixin`.",
    "Pause for a person with `HumanInTheLoopMiddleware` (notebook 10).",
    "[10 · Human approval](10_human_approval.ipynb) and [10 · 人工审批](10_human_approval.ipynb)",
    "Notebooks 02-10 scripted the model one move at a time.",
    "a plain word such as strict, next to notebook 08, is not a topic",
    "`make new-notebook NN=21` writes `notebooks/21_tool_call_budgets.ipynb`; `FAILED 03_x.ipynb`",
    "It reads `runtime.context` (notebook 04), never the model, and asks a colleague first (notebook 08):",
    "`ModelFallbackMiddleware`: a thread that moves provider, through notebook 14's stand-ins.",
    "`ModelFallbackMiddleware`：一个线程中途换了模型服务商，经过笔记本 14 的本地替身。",
    'a heading quoted as `"notebook 10, Pitfalls, ..."` names `args_schema` elsewhere',
])
def test_a_fitting_reference_passes(course, text):
    notebooks, vocabulary, examples, _ = course
    assert check(Prose("example", text), notebooks, vocabulary, examples) == []
