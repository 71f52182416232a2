"""The outcome of a check and how it shows: plain text, and Markdown that JupyterLab renders.

A verdict is said in words and colour: a ``PASS`` / ``FAIL`` / ``ERROR`` badge (white on green,
red, purple) in front of each case, never an emoji alone, so it reads without an emoji font and
for colour-blind learners. Cases that failed with the same error (a crash that fails every case)
are shown once, with the names of the cases it hit.

The Markdown is one raw-HTML block (CommonMark "HTML block": no blank line inside), so nothing
from the answer is read as Markdown: every value is HTML-escaped (``<!--``, ``|``, ``*`` and
backticks cannot change the report), and only the checkers' own ``code`` spans (text between
backticks) become ``<code>``. Inline styles are limited to what JupyterLab 4.6's sanitizer keeps
(``color``, ``background-color``, ``font-weight``, ``overflow-wrap``, ``padding``,
``border-radius``). Long lines wrap at word boundaries (``overflow-wrap: break-word`` breaks a
word only when it is longer than the line). Feedback is cut at :data:`MAX_FEEDBACK` characters
when a case result is made, so a report stays small whatever the answer returns.

Checkers show the learner's values with :func:`shown` (never ``{value!r}``): a ``reprlib``-based
formatter that never builds more than a few hundred characters, however large the value (a list
of ten million ids, a 70 MB string), and that gives exactly ``repr(value)`` for a value whose repr
is short. :func:`bounded` cuts a text before it splits it into words, so a huge exception message
is never copied whole.
"""

from __future__ import annotations

import builtins
import reprlib
from dataclasses import dataclass, field
from typing import Any, Literal

from ..i18n import N_, _, ngettext
from ..widgets.text import inline_code
from .deadline import CheckTimeout

__all__ = ["MAX_FEEDBACK", "MAX_SHOWN", "CaseResult", "CheckFailure", "CheckResult", "Verdict", "bounded", "clipped",
           "shown", "shown_text"]

#: The outcome of one case: passed, failed a hidden check (with a hint), or the answer raised / hung.
Verdict = Literal["pass", "fail", "error"]

#: Longest feedback kept for one case (characters); the rest is cut and the cut is said.
MAX_FEEDBACK = 600
#: Longest text :func:`shown` gives for one value (characters).
MAX_SHOWN = 300
#: :func:`bounded` looks at no more than this many characters of a text times its limit.
_LOOK_AHEAD = 4

_WORD = {"pass": N_("PASS"), "fail": N_("FAIL"), "error": N_("ERROR"), "todo": N_("TO DO")}
_COLOUR = {"pass": "#1a7f37", "fail": "#cf222e", "error": "#8250df", "todo": "#57606a"}
DEFAULT_UNSOLVED_HINT = N_("replace the `raise NotImplementedError` and run the check again")


def shown_text(text: str) -> str:
    """A checker's own text as the learner reads it: ``text`` through the catalog (:func:`helpers.i18n._`),
    for the texts kept in English in the objects and translated only where they are shown: an exercise's
    title, a case's name and hint, an ``unsolved_hint`` (marked with ``N_()`` or by
    ``tooling/translation/extract.py``). ``""`` stays ``""`` (gettext would give the catalog's header)."""
    return _(text) if text else text


def bounded(text: str, limit: int = MAX_FEEDBACK) -> str:
    """``text`` on one line (whitespace runs collapsed), cut to ``limit`` characters with a note saying so.

    Only the first ``4 * limit`` characters are split into words (a 70 MB message is sliced, not
    copied); the note gives the length of the whole text (collapsed when the whole text was read)."""
    window = limit * _LOOK_AHEAD
    if len(text) > window:
        flat, total = " ".join(text[:window].split()), len(text)
    else:
        flat = " ".join(text.split())
        total = len(flat)
    if total <= limit:
        return flat
    return f"{flat[:limit].rstrip()}... [cut: {total} characters in all]"


class _Shown(reprlib.Repr):
    """``reprlib.Repr`` that matches ``repr`` for short values: dicts and sets keep their own
    order (``reprlib`` sorts them), subclasses that keep the built-in ``__repr__`` are cut like the
    built-in type, pydantic models (LangChain messages) are shown field by field like pydantic's
    own ``__repr__``, and an object's repr never shows a memory address or raises."""

    def __init__(self) -> None:
        super().__init__()
        self.maxlevel = 6
        self.maxtuple = self.maxlist = self.maxset = self.maxfrozenset = self.maxdeque = self.maxarray = 30
        self.maxdict = 20
        self.maxstring = 200
        self.maxlong = 60
        self.maxother = 200
        self._builtins = ((str, self.repr_str), (bytes, self._repr_bytes), (list, self.repr_list),
                          (tuple, self.repr_tuple), (dict, self.repr_dict), (set, self.repr_set),
                          (frozenset, self.repr_frozenset), (int, self.repr_int))

    def repr1(self, x: Any, level: int) -> str:
        cls = type(x)
        for base, method in self._builtins:
            if isinstance(x, base) and cls.__repr__ is base.__repr__:
                return method(x, level)
        if _is_plain_model(cls):
            return self._repr_model(x, level)
        return self.repr_instance(x, level)

    def _cut(self, text: str, limit: int) -> str:
        if len(text) <= limit:
            return text
        head = max(0, (limit - 3) // 2)
        return text[:head] + self.fillvalue + text[len(text) - max(0, limit - 3 - head):]

    def _repr_bytes(self, x: bytes, level: int) -> str:
        return self._cut(builtins.repr(bytes(x[: self.maxstring])), self.maxstring)

    def repr_int(self, x: int, level: int) -> str:
        if x.bit_length() > 10_000:  # repr() refuses more than 4,300 digits (and would be slow)
            return f"<an int of about {int(x.bit_length() * 0.30103) + 1} digits>"
        return self._cut(int.__repr__(x), self.maxlong)

    def repr_dict(self, x: dict, level: int) -> str:
        if not x:
            return "{}"
        if level <= 0:
            return "{" + self.fillvalue + "}"
        pieces = []
        for index, (key, value) in enumerate(dict.items(x)):
            if index >= self.maxdict:
                pieces.append(self.fillvalue)
                break
            pieces.append(f"{self.repr1(key, level - 1)}: {self.repr1(value, level - 1)}")
        return "{" + ", ".join(pieces) + "}"

    def repr_set(self, x: set, level: int) -> str:
        return "set()" if not x else self._repr_iterable(x, level, "{", "}", self.maxset)

    def repr_frozenset(self, x: frozenset, level: int) -> str:
        return "frozenset()" if not x else self._repr_iterable(x, level, "frozenset({", "})", self.maxfrozenset)

    def _repr_model(self, x: Any, level: int) -> str:
        if level <= 0:
            return f"{x.__repr_name__()}({self.fillvalue})"
        pieces = []
        for index, (name, value) in enumerate(x.__repr_args__()):
            if index >= self.maxdict:
                pieces.append(self.fillvalue)
                break
            shown_value = self.repr1(value, level - 1)
            pieces.append(shown_value if name is None else f"{name}={shown_value}")
        return f"{x.__repr_name__()}({', '.join(pieces)})"

    def repr_instance(self, x: Any, level: int) -> str:
        try:
            text = builtins.repr(x)
            if not isinstance(text, str):
                raise TypeError("__repr__ returned a non-string")
            text = str.__str__(text)  # a str subclass's own methods are not used below
        except (KeyboardInterrupt, CheckTimeout):
            raise
        except BaseException:  # noqa: BLE001 - a learner's __repr__ may raise anything
            return f"<{_type_name(x)} object whose repr failed>"
        return self._cut(text, self.maxother)


def _is_plain_model(cls: type) -> bool:
    """A pydantic model whose ``__repr__`` is pydantic's own (LangChain messages, ``ToolCall`` models)."""
    try:
        from pydantic import BaseModel
    except ImportError:  # pragma: no cover - pydantic is a dependency of langchain-core
        return False
    return issubclass(cls, BaseModel) and cls.__repr__ is BaseModel.__repr__


def _type_name(value: Any) -> str:
    name = type.__dict__["__name__"].__get__(type(value))
    return name if type(name) is str else "value"


_SHOWN = _Shown()


def shown(value: Any, limit: int = MAX_SHOWN) -> str:
    """A bounded ``repr(value)`` for feedback: exactly ``repr(value)`` when that is short; otherwise
    at most ``limit`` characters (long strings, long lists, deep nesting and long reprs are cut
    with ``...``), built without ever making the whole repr of a large value.

    Never raises (a ``__repr__`` that raises gives ``<T object whose repr failed>``), except for
    ``KeyboardInterrupt`` and the deadline's stop. Learner code it calls (a ``__repr__``, an
    ``__eq__``-free walk of containers) runs in the caller's thread: call it inside the check's
    worker thread, under the deadline (the hidden cases do)."""
    try:
        text = _SHOWN.repr(value)
    except (KeyboardInterrupt, CheckTimeout):
        raise
    except BaseException:  # noqa: BLE001 - a hostile container (a __len__ or __iter__ that raises)
        try:
            return f"<{_type_name(value)} object whose repr failed>"
        except Exception:  # noqa: BLE001
            return "<a value whose repr failed>"
    return text if len(text) <= limit else text[: max(0, limit - 3)] + _SHOWN.fillvalue


def clipped(value: Any, limit: int = 200) -> str:
    """``str(value)`` cut to ``limit`` characters (``...`` added when cut), without building the whole
    ``str`` of a large string, list or dict: a string is sliced, a container is shown with
    :func:`shown` (its ``str`` is its repr), any other object's own ``__str__`` is used. For a
    ToolMessage's content in feedback: ``{clipped(message.content, 60)!r}``."""
    if isinstance(value, str):
        text = str.__getitem__(value, slice(0, limit + 1))
    elif isinstance(value, (list, tuple, dict, set, frozenset)) or type(value).__str__ is object.__str__:
        text = shown(value, limit + 1)
    else:
        text = str.__getitem__(str(value), slice(0, limit + 1))  # the learner's own __str__
    return text if len(text) <= limit else text[:limit] + "..."


class CheckFailure(AssertionError):
    """A hidden check's failure in two parts, so that cases failing for one reason share one report row.

    Args:
        situation: what happened in this case (``"PermissionDenied (permission_denied) propagated out
            of the agent and ended the run"``).
        advice: what to change; cases whose failures have the same advice are shown as one FAIL row.

    ``str(failure)`` is ``"<situation>: <advice>"`` (the case's feedback). Raise it where you would
    raise ``AssertionError("...")`` in a checker.
    """

    def __init__(self, situation: str, advice: str) -> None:
        super().__init__(f"{situation}: {advice}")
        self.situation = situation
        self.advice = advice


@dataclass(frozen=True)
class CaseResult:
    """Outcome of one case.

    Attributes:
        name: the case's name.
        status: ``"pass"``, ``"fail"`` (a hidden check rejected the result) or ``"error"`` (the
            answer raised, ran past the deadline, or an ``assert`` of its own failed).
        feedback: what to change, or what the learner's code raised (at most
            :data:`MAX_FEEDBACK` characters plus the cut note).
        hint: the case's hint after an error in the learner's code (shown with the feedback,
            but not when one error is shared by several cases: each case's hint fits only it).
        advice: for a fail raised as a :class:`CheckFailure`, its advice: FAIL lines with the same
            advice (or the same feedback) share one row.
    """

    name: str
    status: Verdict
    feedback: str = ""
    hint: str = ""
    advice: str = ""

    @property
    def passed(self) -> bool:
        """True when the case passed."""
        return self.status == "pass"


@dataclass
class CheckResult:
    """All case results of one check, renderable in Jupyter (``_repr_markdown_``) and as text.

    Attributes:
        exercise_id, title: from the exercise.
        solved: False when the answer is still the unsolved stub (then ``results`` is empty).
        results: one :class:`CaseResult` per case, in order.
        unsolved_hint: what the "not solved yet" line tells the learner to do.
        notice: a problem found before any case ran (e.g. "this exercise wants a plain `def`"):
            then ``results`` is empty and the check did not pass.
    """

    exercise_id: str
    title: str
    solved: bool
    results: list[CaseResult] = field(default_factory=list)
    unsolved_hint: str = DEFAULT_UNSOLVED_HINT
    notice: str = ""

    @property
    def passed(self) -> bool:
        """True when the answer is solved, no notice stopped it, and every case passed."""
        return self.solved and not self.notice and bool(self.results) and all(r.passed for r in self.results)

    @property
    def failed(self) -> list[CaseResult]:
        """The cases that did not pass."""
        return [r for r in self.results if not r.passed]

    def summary(self) -> str:
        """One line: ``Exercise 01.1 (title): 3/4 checks passed``, ``... all N checks passed``,
        ``... not solved yet - <hint>`` or ``... <notice>``."""
        head = _("Exercise {id} ({title})").format(id=self.exercise_id, title=shown_text(self.title))
        if not self.solved:
            return _("{head}: not solved yet - {hint}").format(head=head, hint=shown_text(self.unsolved_hint))
        if self.notice:
            return f"{head}: {self.notice}"
        good = sum(r.passed for r in self.results)
        if good == len(self.results):
            return _("{head}: all {good} checks passed").format(head=head, good=good)
        return _("{head}: {good}/{total} checks passed").format(head=head, good=good, total=len(self.results))

    def groups(self) -> list[tuple[Verdict, list[str], str]]:
        """``(status, case names, text)`` rows, in case order. Errors with the same feedback, and fails
        with the same feedback or the same advice, in several cases share one row, placed where the
        first of them is (the most telling: checkers list cases that way) and showing its feedback,
        without hints; when the shared fails' feedback differs, the row says the others failed for
        the same reason. A single row's text is its feedback plus ``(hint: ...)``."""
        rows: list[tuple[Verdict, list[CaseResult]]] = []
        where: dict[tuple[str, str], int] = {}
        for r in self.results:
            key = _share_key(r)
            if key is not None and key in where:
                rows[where[key]][1].append(r)
                continue
            if key is not None:
                where[key] = len(rows)
            rows.append((r.status, [r]))
        out: list[tuple[Verdict, list[str], str]] = []
        for status, members in rows:
            text = members[0].feedback
            if len(members) == 1 and members[0].hint:
                text = _("{text} (hint: {hint})").format(text=text, hint=shown_text(members[0].hint))
            elif any(m.feedback != text for m in members):
                others = len(members) - 1
                text += ngettext(" (the other {others} check failed for the same reason)",
                                 " (the other {others} checks failed for the same reason)", others).format(others=others)
            out.append((status, [m.name for m in members], text))
        return out

    def _label(self, names: list[str]) -> str:
        names = [shown_text(name) for name in names]
        if len(names) == 1:
            return names[0]
        if len(names) == len(self.results):
            return _("all {count} checks ({names})").format(count=len(names), names="; ".join(names))
        return _("{count} checks ({names})").format(count=len(names), names="; ".join(names))

    def text(self) -> str:
        """Plain-text report: the summary and one line per case (or per shared error).

        Lines are not wrapped here (a terminal or ``print`` wraps them; tests search them)."""
        lines = [self.summary()]
        for status, names, feedback in self.groups():
            lines.append(f"  [{_(_WORD[status])}] {self._label(names)}" + (f" - {feedback}" if feedback else ""))
        return "\n".join(lines)

    def _repr_markdown_(self) -> str:
        box = '<div class="course-check" style="overflow-wrap: break-word; line-height: 1.5">'
        if not self.solved:
            head = _("Exercise {id} ({title}): not solved yet").format(id=self.exercise_id,
                                                                       title=shown_text(self.title))
            return f"{box}{_badge('todo')} <strong>{_inline(head)}</strong> - {_inline(shown_text(self.unsolved_hint))}</div>"
        if self.notice:
            return f"{box}{_badge('error')} <strong>{_inline(self.summary())}</strong></div>"
        lines = [box, f"<div><strong>{_inline(self.summary())}</strong></div>",
                 '<ul style="list-style: none; padding-left: 0.5em; margin: 0.2em 0">']
        for status, names, feedback in self.groups():
            detail = f": {_inline(feedback)}" if feedback else ""
            lines.append(f"<li>{_badge(status)} {_inline(self._label(names))}{detail}</li>")
        lines += ["</ul>", "</div>"]
        return "\n".join(lines)

    def __repr__(self) -> str:
        return self.text()


def _share_key(result: CaseResult) -> tuple[str, str] | None:
    """What a case's row may share with other cases: an error's feedback, a fail's advice or feedback."""
    if result.status == "error" and result.feedback:
        return ("error", result.feedback)
    if result.status == "fail" and (result.advice or result.feedback):
        return ("fail", result.advice or result.feedback)
    return None


def _badge(status: str) -> str:
    return (f'<span style="color: #ffffff; background-color: {_COLOUR[status]}; font-weight: bold; '
            f'padding: 0 0.4em; border-radius: 0.3em">{_(_WORD[status])}</span>')


def _inline(text: str) -> str:
    """Escaped HTML on one line; `code` spans (the checkers' own backticks) become ``<code>``
    (:func:`helpers.widgets.text.inline_code`; quotes stay as they are in Markdown)."""
    return inline_code(" ".join(text.split()), quote=False)
