"""The self-check questions in the Chinese edition (issue 22).

A question module marks each learner-facing text with ``N_()``; :func:`helpers.selfcheck.translated`
passes those texts through ``_()`` when :func:`helpers.selfcheck.questions_for` hands the questions
out, so the static rendering and the widget show them in the edition's language. These tests use
the course's catalog as shipped (``helpers/locale``) and check:

* every text that :func:`translated` translates is marked with ``N_()`` in its module, every marked
  text is one that it translates, and its Chinese msgstr keeps its inline code spans (a new question
  whose texts are not marked fails, naming notebook and question id; that every marked text has a
  msgstr is the course-wide check, ``tests/test_zh_fresh.py``);
* under ``use("zh-CN")`` a notebook's questions render in Chinese, in the static view and in the
  widget, the choices in the same order as in English, and answers check the same;
* the English edition is unchanged.
"""

from __future__ import annotations

import html
import importlib
import re
from collections import Counter
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_file
from babel.messages.pofile import read_po
from langchain_core.messages import AIMessage, HumanMessage, ToolMessage

from helpers import i18n
from helpers.display import trace_markdown
from helpers.selfcheck import Question, available_notebooks, questions_for, self_check, shown_choices, translated
from tooling.translation.catalog import po_path
from helpers.widgets.engines.self_check import SelfCheckEngine
from helpers.widgets.self_check_view import static_view

ROOT = Path(__file__).resolve().parent.parent
COVERED = available_notebooks()


def _catalog() -> dict[str, str]:
    with po_path().open("rb") as po:
        return {m.id: m.string for m in read_po(po) if isinstance(m.id, str) and m.id}


CHINESE = _catalog()
#: Section 4 of notebook 00: a question, a call and the ToolMessage that answers it.
MESSAGES_00 = [HumanMessage("Where is A1024?"),
               AIMessage("", tool_calls=[{"name": "lookup_order", "args": {"order_id": "A1024"}, "id": "call_1",
                                          "type": "tool_call"}]),
               ToolMessage("delivered", tool_call_id="call_1")]


def _module_questions(number: str):
    return importlib.import_module(f"helpers.selfcheck.nb{number}").QUESTIONS


def _translated_texts(question) -> list[str]:
    """The texts :func:`translated` passes through the translator, in order."""
    seen: list[str] = []
    translated(question, lambda text: seen.append(text) or text)
    return seen


def _spans(text: str) -> Counter:
    return Counter(re.findall(r"`[^`]*`", text))


def _shown_as(text: str) -> str:
    """The trace table's own words: a question quoting ``answers call_1`` (what section 4's trace shows in
    English) quotes in Chinese what the Chinese trace shows, computed from the catalog, not copied."""
    with i18n.use("zh-CN"):
        return text.replace("`answers call_1`", "`" + i18n._("answers {id}").format(id="call_1") + "`")


# -- every shown text is marked --------------------------------------------------------


def _marked(number: str) -> set[str]:
    """The texts marked with ``N_()`` in ``helpers/selfcheck/nbNN.py`` (Babel's extractor)."""
    path = ROOT / "helpers" / "selfcheck" / f"nb{number}.py"
    return {message for _line, message, _comments, _context in
            extract_from_file("python", str(path), keywords={"N_": None})}


#: A "predict" choice worded like a sentence ("nothing: it raises TypeError") is prose, to be marked
#: and translated; what the snippet prints is not. Quoted text is printed data, not prose.
_PROSE = re.compile(r"[A-Za-z]+:? [a-z]+ [a-z]+")
#: Printed outputs that read like prose (``print(... else "no tool call", ...)`` in nb12).
PRINTED_LIKE_PROSE = {"no tool call 1"}


def _printed(question, text: str) -> bool:
    """``text`` is a "predict" question's choice that is program output (left unmarked)."""
    bare = re.sub(r"'[^']*'|\"[^\"]*\"", "", text)
    return (question.kind == "predict" and text in question.choices
            and (text in PRINTED_LIKE_PROSE or not _PROSE.search(bare)))


def _problems(number: str, questions, marked: set[str]) -> list[str]:
    """What keeps ``questions`` of notebook ``number`` from showing in Chinese, one line each."""
    problems, shown = [], set()
    for question in questions:
        for text in _translated_texts(question):
            if text not in marked and _printed(question, text):
                continue  # program output: never marked, shown as printed
            shown.add(text)
            where = f"nb{number} {question.id}: {text[:70]!r}"
            if text not in marked:
                problems.append(f"{where} is shown but not marked with N_()")
            elif CHINESE.get(text) and _spans(CHINESE[text]) != _spans(_shown_as(text)):
                problems.append(f"{where}: the msgstr changes its inline code spans")
    return problems + [f"nb{number}: {text[:70]!r} is marked with N_() but never translated where it is shown"
                       for text in sorted(marked - shown)]


@pytest.mark.parametrize("number", COVERED)
def test_every_shown_text_is_marked_and_keeps_its_code_spans_in_chinese(number):
    problems = _problems(number, _module_questions(number), _marked(number))
    assert not problems, "\n".join(problems)


def test_a_quoted_trace_reads_as_the_chinese_trace_shows_it():
    prompt = next(q.prompt for q in _module_questions("00") if "`answers call_1`" in q.prompt)
    assert "`回答 call_1`" in CHINESE[prompt] and "`answers call_1`" not in CHINESE[prompt]
    with i18n.use("zh-CN"):
        assert "| 回答 call_1 |" in trace_markdown(MESSAGES_00)


def test_an_unmarked_new_question_and_a_dropped_code_span_are_named():
    new = Question(id="brand-new", prompt="Which id pairs a result with its call?",
                   choices=("tool_call_id", "the tool's name"), answer="tool_call_id",
                   explanation="Only the id pairs them.", section="section 1, tool_call_id pairs a result")
    unmarked = _problems("03", (*_module_questions("03"), new), _marked("03"))
    assert len(unmarked) == 6 and all(line.startswith("nb03 brand-new: ") and line.endswith("not marked with N_()")
                                      for line in unmarked)
    assert _problems("03", (new,), set(_translated_texts(new))) == [], "marked: the catalog check takes over"
    spans = next(q for q in _module_questions("03") if "`" in q.prompt)
    with pytest.MonkeyPatch.context() as patch:
        patch.setitem(CHINESE, spans.prompt, re.sub(r"`[^`]*`", "x", CHINESE[spans.prompt]))
        assert _problems("03", _module_questions("03"), _marked("03")) == [
            f"nb03 {spans.id}: {spans.prompt[:70]!r}: the msgstr changes its inline code spans"]
    broken = _problems("03", _module_questions("03"), _marked("03") | {"x"})
    assert broken == ["nb03: 'x' is marked with N_() but never translated where it is shown"]
    predict = Question(id="prose-output", prompt="What does this print?", code="print(1)",
                       choices=("1", "nothing: it raises TypeError"), answer="1",
                       explanation="It prints 1.", section="section 1, A protocol case")
    unmarked = [line for line in _problems("03", (predict,), set()) if "not marked" in line]
    assert unmarked[-1:] == ["nb03 prose-output: 'nothing: it raises TypeError' is shown but not marked with N_()"]
    assert not any("'1'" in line for line in unmarked), "a printed output needs no mark"


def test_no_printed_output_is_translated_by_a_catalog():
    """A "predict" choice left unmarked (program output) must not be a msgid of any catalog: ``_()``
    would translate it."""
    catalogs = sorted((ROOT / "helpers" / "locale").glob("*/LC_MESSAGES/*.po"))
    assert catalogs
    msgids = set()
    for path in catalogs:
        with path.open("rb") as po:
            msgids |= {m.id for m in read_po(po) if m.id and m.string}
    for number in COVERED:
        marked = _marked(number)
        for question in _module_questions(number):
            printed = {c for c in question.choices if c not in marked and _printed(question, c)}
            assert not printed & msgids, f"nb{number} {question.id}: a catalog translates {printed & msgids}"


# -- the Chinese edition -----------------------------------------------------------------------


def test_notebook_03_renders_in_chinese_in_the_static_view_and_the_widget():
    english = questions_for("03")
    with i18n.use("zh-CN"):
        widget = self_check("03")
        bundle = static_view("03", widget.engine.questions, widget.engine.choices)
    plain, page = bundle["text/plain"], html.unescape(bundle["text/html"])
    first = widget.engine.questions[0]
    assert first.prompt == CHINESE[english[0].prompt] and first.prompt.startswith("模型以 `call_1` 请求")
    for en, zh in zip(english, widget.engine.questions):
        assert zh.id == en.id and zh.code == en.code
        assert zh.prompt != en.prompt and zh.prompt in plain, "the static text view shows the Chinese prompt"
        assert zh.explanation == CHINESE[en.explanation] and zh.section == CHINESE[en.section]
        if en.kind == "predict":
            assert zh.choices == en.choices and zh.answer == en.answer, "program output stays as printed"
        else:
            assert zh.choices == tuple(CHINESE[c] for c in en.choices) and zh.answer == CHINESE[en.answer]
        for choice in widget.engine.choices[zh.id]:
            assert f"   ( ) {choice}" in plain
    assert "模型服务商接受它" in page, "the static HTML shows the Chinese choices"
    block = widget.children[1].children  # the first question: prompt, picker, button, feedback
    assert "模型以 <code>call_1</code> 请求" in block[0].value, "the widget's prompt, its code spans as <code>"
    assert widget.pickers[first.id].options == widget.engine.choices[first.id]
    assert all("模型服务商" in option for option in widget.pickers[first.id].options)


@pytest.mark.parametrize("number", COVERED)
def test_both_editions_show_the_choices_in_one_order_and_check_answers_alike(number):
    english = questions_for(number)
    with i18n.use("zh-CN"):
        chinese = questions_for(number)
    en_log: list[tuple[str, str, bool]] = []
    zh_log: list[tuple[str, str, bool]] = []
    en_engine = SelfCheckEngine(number, english, recorder=lambda *answer: en_log.append(answer) or "")
    zh_engine = SelfCheckEngine(number, chinese, recorder=lambda *answer: zh_log.append(answer) or "")
    for en, zh in zip(english, chinese):
        en_shown, zh_shown = shown_choices(number, en), shown_choices(number, zh)
        assert [en.choices.index(c) for c in en_shown] == [zh.choices.index(c) for c in zh_shown], \
            f"nb{number} {en.id}: the Chinese choices are shown in another order"
        assert zh_shown.index(zh.answer) == en_shown.index(en.answer)
        for place in range(len(en_shown)):
            en_answer, zh_answer = en_engine.answer(en.id, place), zh_engine.answer(zh.id, place)
            assert en_answer.verdict == zh_answer.verdict, f"nb{number} {en.id}: position {place}"
            assert zh_answer.feedback.startswith(zh.why_not.get(zh_answer.choice, zh.explanation))
            assert zh.section in zh_answer.feedback
        assert zh_engine.answer(zh.id, zh.answer).correct and en_engine.answer(en.id, en.answer).correct
    assert zh_log == en_log, "the same records (notebook, question id, correct) in both editions"
    assert zh_engine.score() == en_engine.score()


def test_the_order_is_seeded_by_the_english_texts():
    """A translation that would sort differently is still shown in the English order (this fails
    with a ``shown_choices`` that sorts the translated texts)."""
    for number in COVERED:
        for question in questions_for(number):
            if question.kind != "choice":
                continue
            reversed_text = translated(question, lambda text: text[::-1])
            assert shown_choices(number, reversed_text) == tuple(c[::-1] for c in shown_choices(number, question))


def test_the_english_edition_is_unchanged():
    with i18n.use("en"):
        for number in COVERED:
            for written, shown in zip(_module_questions(number), questions_for(number)):
                assert shown == written and shown.choices == written.choices and shown.why_not == written.why_not
                assert shown_choices(number, shown) == shown_choices(number, written)


# -- a question's section quotes the notebook's headings exactly ------------------------------------
#
# A question's ``section`` is one or more references, each ``[notebook NN, ]PLACE, TITLE`` (English;
# several joined by "; ") or ``[笔记本 NN，]PLACE，TITLE`` (Chinese; joined by "；"). PLACE is ``section N``
# / ``第 N 节`` (N as numbered in the notebook: 4, 4a, 5.2), ``pitfall N`` / ``陷阱 N`` (a numbered pitfall) or
# ``Pitfalls`` / ``常见陷阱`` (an unnumbered one). TITLE is the heading's text exactly as the edition shows
# it, inline code included: the numbered heading itself, or a heading under it; for a pitfall, its bold
# lead without the final stop. The English edition is read from the notebooks, the Chinese from the
# translations, so a renamed heading in either edition fails here until its questions follow.

_PLACE = {"en": re.compile(r"^(?:notebook (\d\d), )?(?:(section|pitfall) (\d+(?:[a-z]|\.\d+)?)|(Pitfalls)), (.+)$", re.S),
          "zh-CN": re.compile(r"^(?:笔记本 (\d\d)，)?(?:(第|陷阱) ?(\d+(?:[a-z]|\.\d+)?)(?: 节)?|(常见陷阱))，(.+)$", re.S)}
_NEXT = {"en": re.compile(r"; (?=(?:notebook \d\d, )?(?:section \d|pitfall \d|Pitfalls, ))"),
         "zh-CN": re.compile(r"；(?=(?:笔记本 \d\d，)?(?:第 \d|陷阱 \d|常见陷阱，))")}
_PITFALLS = {"en": "Pitfalls", "zh-CN": "常见陷阱"}
_NUMBERED = re.compile(r"^(\d+)([a-z]|\.\d+)?\.? (.+)$")


def _markdown_texts(number: str, edition: str) -> list[str]:
    from tooling.notebooks import NOTEBOOK_DIR
    from tooling.translation.source import markdown_cells, readable_blocks, translation_path

    english = next(NOTEBOOK_DIR.glob(f"{number}_*.ipynb"))
    cells = markdown_cells(english)
    if edition == "en":
        return [source for _cell, source in cells]
    blocks = readable_blocks(translation_path(english)) or {}
    return [blocks[cell].text for cell, _source in cells if cell in blocks]


def heading_index(texts: list[str], pitfalls_heading: str) -> dict[tuple[str, str], set[str]]:
    """The titles a reference may quote: ``("section", "4")`` -> the titles of section 4's heading and of
    the headings under it (``("section", "4a")`` -> 4a's own), ``("pitfall", "3")`` -> pitfall 3's bold
    lead, ``("Pitfalls", "")`` -> every pitfall's bold lead (final stop dropped)."""
    index: dict[tuple[str, str], set[str]] = {}
    current, in_pitfalls = None, False
    for text in texts:
        for line in text.splitlines():
            heading = re.match(r"^(#{2,4}) (.+?)\s*$", line)
            if heading:
                level, title = heading.groups()
                numbered = _NUMBERED.match(title)
                if level == "##":
                    current, in_pitfalls = (numbered.group(1) if numbered else None), title == pitfalls_heading
                if numbered:
                    main, sub, title = numbered.groups()
                    index.setdefault(("section", main + (sub or "")), set()).add(title)
                if current:
                    index.setdefault(("section", current), set()).add(title)
                continue
            lead = re.match(r"^(?:- )?\*\*(?:(\d+)\. )?(.+?)\*\*", line)
            if lead and in_pitfalls:
                title = lead.group(2).rstrip(".。:：")
                index.setdefault(("Pitfalls", ""), set()).add(title)
                if lead.group(1):
                    index.setdefault(("pitfall", lead.group(1)), set()).add(title)
    return index


def section_problems(number: str, section: str, edition: str) -> list[str]:
    """Why ``section`` (in ``edition``) does not quote notebook ``number``'s headings exactly; ``[]`` when it does."""
    problems = []
    for reference in _NEXT[edition].split(section):
        match = _PLACE[edition].match(reference)
        if not match:
            problems.append(f"{reference!r} is not 'PLACE, TITLE' ({_PLACE[edition].pattern})")
            continue
        other, kind, place, pitfalls, title = match.groups()
        kind = {"第": "section", "陷阱": "pitfall"}.get(kind, kind) if not pitfalls else "Pitfalls"
        index = heading_index(_markdown_texts(other or number, edition), _PITFALLS[edition])
        titles = index.get((kind, place or ""), set())
        if title not in titles:
            problems.append(f"{reference!r}: {title!r} is not a heading there; the headings: {sorted(titles)}")
    return problems


@pytest.mark.parametrize("number", COVERED)
@pytest.mark.parametrize("edition", ["en", "zh-CN"])
def test_each_question_quotes_its_sections_headings_exactly(number, edition):
    with i18n.use(edition):
        questions = questions_for(number)
    problems = [f"nb{number} {q.id} ({edition}): {problem}" for q in questions
                for problem in section_problems(number, q.section, edition)]
    assert not problems, "\n".join(problems)


def test_a_paraphrased_or_missing_heading_is_named():
    assert section_problems("03", "section 3, A failed call keeps its id: `status=\"error\"`", "en") == []
    paraphrase = section_problems("03", "section 3, A failed call keeps its id", "en")
    assert len(paraphrase) == 1 and "'A failed call keeps its id' is not a heading there" in paraphrase[0]
    assert "A failed call keeps its id: `status=\"error\"`" in paraphrase[0], "the real heading is offered"
    assert section_problems("03", "section 9, Setup", "en")[0].endswith("the headings: []")
    assert section_problems("03", "the third section", "en")[0].startswith("'the third section' is not")
    two = "section 1, `tool_call_id` pairs a result with its request; pitfall 5, Dropping a call"
    assert section_problems("03", two, "en") == []
    assert section_problems("03", "第 1 节，`tool_call_id` 把结果和它的请求配成一对", "zh-CN") == []
