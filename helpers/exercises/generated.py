"""Generated inputs: the reference decides (issue 27).

A named :class:`~helpers.exercises.core.Case` checks one input its author picked; a learner's wrong
answer often differs only on an input nobody picked (ids that are not in alphabetical order, a name in
upper case, a run still in progress). A :class:`Generated` check declares the *space* of an exercise's
inputs as a Hypothesis strategy, runs the learner's answer and the reference on inputs drawn from it,
and reports the smallest input where they differ, in the learner's words.

* **The search** is Hypothesis's own (:func:`hypothesis.find`, hypothesis 6.170.15): inputs are
  drawn ``derandomize=True`` (the seed comes from the code, not the clock, so a check gives the same
  verdict every run and in every process), no example database (nothing is written to disk), no
  deadline, quiet (Hypothesis prints nothing). The first input where the outcomes differ is shrunk
  by Hypothesis's shrinker to the smallest it finds.
* **What is compared**: ``run(answer, spec) == run(reference, spec)`` after both outcomes are made
  :func:`plain` (a ``list``/``str``/``int`` subclass whose ``__eq__`` always says yes is compared
  as the plain value it holds).
* **Computed once per process**: the reference's outcome of each input, and the inputs of a search
  that found no difference. The search is deterministic, so a later check replays those inputs in
  the same order without Hypothesis's engine (about 1 ms of its own work per input) and runs only
  the answer; only a difference brings Hypothesis back, to find it again and shrink it.
* **Bounded**: ``examples`` inputs at most before a difference is found, then at most ``shrinks``
  more inputs tried while shrinking (a count, not a time: the smallest input reported does not
  depend on the machine's speed); then the smallest difference found so far is reported. A result
  too large to compare, or two threads the answer left running, end the search at once. The whole
  search runs in the check's worker thread, under the exercise's deadline (times
  :data:`TIMEOUT_FACTOR`) like every case.
* **Local constants off.** Hypothesis 6.170 also draws constants collected from the source of
  every "local" module loaded in the process (``hypothesis.internal.conjecture.providers.
  _get_local_constants``), and caches them under ``.hypothesis/constants/`` in the working
  directory. The modules loaded differ between a notebook's kernel and a test process, so the
  inputs would too, and the cache would land in the notebook's folder. During a search that pool is
  empty (:func:`_no_local_constants`; the global constants Hypothesis ships stay). Strategies
  here are built from ``sampled_from``, ``booleans``, small ``integers``, ``just``, ``one_of``,
  ``lists``, ``tuples`` and ``permutations`` (``map`` and ``composite`` over them) only:
  ``text``/``characters`` would write Hypothesis's unicode cache to disk.

An exception the learner's code raises on a generated input is kept and reported (with the input)
by the core; an exception from the reference (a checker bug) ends the search with
:class:`ReferenceFailed`.
"""

from __future__ import annotations

import contextlib
import json
import re
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from hypothesis import HealthCheck, Phase, Verbosity, find, settings
from hypothesis.errors import NoSuchExample
from hypothesis.internal.cache import LRUCache
from hypothesis.internal.conjecture import providers as _providers
from hypothesis.internal.constants_ast import Constants
from hypothesis.strategies import SearchStrategy

from ..i18n import _
from .deadline import CheckTimeout
from .results import CaseResult, bounded, shown

__all__ = ["DEFAULT_EXAMPLES", "DEFAULT_SHRINKS", "TIMEOUT_FACTOR", "Generated", "Opaque", "ReferenceFailed", "SearchReport",
           "content_value", "plain"]

#: Inputs a learner's check tries before it says the answer agrees with the reference.
DEFAULT_EXAMPLES = 100
#: Inputs Hypothesis may try while shrinking a difference once one is found (each costs about 1 ms of
#: Hypothesis's own work, plus the runs of the answer and the reference on an input not seen before).
DEFAULT_SHRINKS = 100
#: A generated check's deadline is this many times the exercise's ``timeout`` (it runs the answer up to
#: ``examples`` + ``shrinks`` times; on a busy 2-core machine a 1 s search can take 4 s).
TIMEOUT_FACTOR = 3
#: How many reference outcomes one check keeps between checks (a bound, not a tuning knob).
_REFERENCE_CACHE = 4096
_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")
#: A search stops when this many threads it did not find at its start are alive after the answer ran:
#: an answer that leaves a thread running each time would otherwise pile up spinning threads (a
#: thread that some other code of the kernel starts meanwhile is not enough to stop it).
_LEFT_THREADS = 2


class ReferenceFailed(Exception):
    """The reference raised on a generated input: a bug in the checker, never the learner's."""


class _Stop(BaseException):
    """Ends a search at once on the input it carries (the answer leaves threads running)."""


class _Abort(BaseException):
    """Carries a :class:`ReferenceFailed` out of Hypothesis at once (an ``Exception`` would be taken
    for a failing input and shrunk)."""


@dataclass(frozen=True)
class Opaque:
    """A value :func:`plain` cannot compare as data (an object of the learner's own type): it equals
    only another ``Opaque`` with the same text, and shows as ``text`` (no memory address)."""

    text: str
    too_big: bool = False

    def __repr__(self) -> str:
        return self.text


def plain(value: Any) -> Any:
    """``value`` as built-in data: ``None``, ``bool``, ``int``, ``float``, ``str``, ``bytes``, and
    ``list`` / ``tuple`` / ``dict`` / ``set`` / ``frozenset`` of them, each of its exact built-in type
    (a subclass becomes its base type's value, read with the base type's own methods, so a learner's
    ``__eq__``, ``__iter__`` or ``__str__`` cannot decide a comparison). Anything else becomes an
    :class:`Opaque` holding its bounded :func:`~helpers.exercises.results.shown` text; so does a
    value of more than :data:`MAX_PLAIN_ITEMS` items in all or nested deeper than 20 levels (the
    references' outcomes are small: a huge one is different anyway, and is not copied).

    Runs the learner's ``__repr__`` (for an ``Opaque``): call it in the check's worker thread."""
    try:
        return _plain(value, 0, [MAX_PLAIN_ITEMS])
    except _TooBig:
        return Opaque(_("<a value too large to compare: {value}>").format(value=_ADDRESS.sub("", shown(value, 120))),
                      too_big=True)


#: Items :func:`plain` copies at most (all levels together).
MAX_PLAIN_ITEMS = 10_000


class _TooBig(Exception):
    """More than :data:`MAX_PLAIN_ITEMS` items, or nested too deep."""


def _plain(value: Any, depth: int, budget: list[int]) -> Any:
    budget[0] -= 1
    if budget[0] < 0 or depth > 20:
        raise _TooBig
    if value is None or type(value) in (bool, int, float, str, bytes):
        return value
    for base, make in _CONTAINERS:
        if isinstance(value, base):
            return make(value, depth + 1, budget)
    for base in (int, float, str, bytes):
        if isinstance(value, base):
            return _BASE_VALUE[base](value)
    return Opaque(_ADDRESS.sub("", shown(value, 120)))


#: A subclass's value read with the base type's own method (``bool`` cannot be subclassed).
_BASE_VALUE: dict[type, Callable[[Any], Any]] = {
    int: int.__int__, float: float.__float__, str: str.__str__, bytes: lambda v: bytes(memoryview(v)),
}
_CONTAINERS: tuple[tuple[type, Callable[[Any, int, list[int]], Any]], ...] = (
    (list, lambda v, d, b: [_plain(x, d, b) for x in list.__iter__(v)]),
    (tuple, lambda v, d, b: tuple(_plain(x, d, b) for x in tuple.__iter__(v))),
    (dict, lambda v, d, b: {_key(k, d, b): _plain(x, d, b) for k, x in dict.items(v)}),
    (frozenset, lambda v, d, b: frozenset(_key(x, d, b) for x in frozenset.__iter__(v))),
    (set, lambda v, d, b: {_key(x, d, b) for x in set.__iter__(v)}),
)


def _key(value: Any, depth: int, budget: list[int]) -> Any:
    """A dict key or set member as plain data (an unhashable result becomes an ``Opaque``)."""
    made = _plain(value, depth, budget)
    try:
        hash(made)
    except TypeError:
        return Opaque(shown(made, 120))
    return made


def content_value(content: Any) -> tuple[str, Any]:
    """A message's content as a model reads it, for an outcome: ``("JSON", value)`` when it is JSON text (so
    ``json.dumps`` spacing or ``ensure_ascii`` does not matter), ``("text", text)`` for other text, and
    ``("not text", content)`` for anything else (a list of content blocks)."""
    if isinstance(content, str):
        try:
            return ("JSON", json.loads(content))
        except ValueError:
            return ("text", str.__str__(content))
    return ("not text", content)


@dataclass(frozen=True)
class SearchReport:
    """What one search found.

    Attributes:
        inputs: how many distinct inputs the answer ran on.
        spec: the smallest input found where the answer and the reference differ (``None``: none).
        expected: the reference's outcome on ``spec`` (plain data).
        got: the answer's outcome on ``spec`` (plain data; ``None`` when it raised).
        error: what the answer (or a checker inside ``run``) raised on ``spec``.
    """

    inputs: int
    spec: Any = None
    expected: Any = None
    got: Any = None
    error: BaseException | None = None

    @property
    def differs(self) -> bool:
        """True when an input was found where the answer does not give the reference's outcome."""
        return self.spec is not None


@dataclass(frozen=True)
class _Seen:
    differs: bool
    expected: Any = None
    got: Any = None
    error: BaseException | None = None


@dataclass(frozen=True, eq=False)
class Generated:
    """A hidden check on generated inputs: the answer must give the reference's outcome on each.

    Attributes:
        name: the case name shown (a plain literal, translated where shown), e.g. ``"agrees with
            the reference on generated bodies"``.
        inputs: a Hypothesis strategy of input *specs*: plain, cheap, immutable data with a
            readable ``repr`` (tuples, strings, ints, booleans), built only from ``sampled_from``,
            ``booleans``, small ``integers``, ``just``, ``one_of``, ``lists``, ``tuples``,
            ``permutations`` (see the module docstring).
        run: ``run(answer, spec) -> outcome``: builds FRESH objects from ``spec`` on every call,
            calls the answer, returns what is compared (``==`` after :func:`plain`). May raise
            ``AssertionError`` (a hidden check's verdict, shown as a FAIL) like a case.
        reference: the reference answer, the same shape as the learner's (importable in a kernel:
            it lives in ``helpers/exercises/nbNN.py``, a plain clear function: it is the spec).
        describe: ``describe(spec) -> str``: the input in the learner's words (wrap the words in
            ``_()``); keep it short, the feedback is cut at 600 characters.
        hint: ``N_("...")`` shown after a difference.
        examples: inputs a learner's check tries (keep a check of the reference at about 2 s or
            less: the contract test prints the time of each).
        shrinks: inputs tried while shrinking a difference (a count, so the input reported is the
            same on every machine).

    Raises:
        TypeError: ``inputs`` is not a Hypothesis strategy.
        ValueError: ``examples`` or ``shrinks`` is not a positive int.
    """

    name: str
    inputs: SearchStrategy
    run: Callable[[Any, Any], Any]
    reference: Any
    describe: Callable[[Any], str]
    hint: str = ""
    examples: int = DEFAULT_EXAMPLES
    shrinks: int = DEFAULT_SHRINKS

    def __post_init__(self) -> None:
        if not isinstance(self.inputs, SearchStrategy):
            raise TypeError(f"Generated {self.name!r}: inputs must be a Hypothesis strategy, got {self.inputs!r}")
        for field_name in ("examples", "shrinks"):
            value = getattr(self, field_name)
            if not (type(value) is int and value > 0):
                raise ValueError(f"Generated {self.name!r}: {field_name} must be a positive int, got {value!r}")
        object.__setattr__(self, "_expected", {})
        object.__setattr__(self, "_inputs", {})

    def expected(self, spec: Any) -> Any:
        """The reference's outcome on ``spec`` (plain data), computed once per process.

        Raises:
            ReferenceFailed: the reference (or ``run``) raised on ``spec``: a checker bug.
        """
        key = repr(spec)
        cache: dict[str, Any] = self._expected  # type: ignore[attr-defined]
        if key in cache:
            return cache[key]
        try:
            outcome = plain(self.run(self.reference, spec))
        except (KeyboardInterrupt, CheckTimeout):
            raise
        except BaseException as exc:  # noqa: BLE001 - the checker's own bug, named for its author
            raise ReferenceFailed(f"{self.name}: the reference raised {type(exc).__name__}: {exc} on {spec!r}") from exc
        if len(cache) >= _REFERENCE_CACHE:
            cache.clear()
        cache[key] = outcome
        return outcome

    def search(self, answer: Any, *, examples: int | None = None) -> SearchReport:
        """Run ``answer`` and the reference on generated inputs; shrink the first difference.

        Args:
            answer: the learner's answer (or a reference solution, in the contract test).
            examples: inputs to try (default :attr:`examples`).

        Returns:
            a :class:`SearchReport`; ``report.differs`` is False when they agreed on every input.

        Raises:
            ReferenceFailed: the reference raised (a checker bug).
            KeyboardInterrupt, CheckTimeout: as raised inside (the check's deadline).
        """
        seen: dict[str, _Seen] = {}
        order: list[Any] = []  # the inputs in the order they were first run
        shrinking = {"found": False, "runs": 0}  # the runs counted once a difference is found
        before = set(threading.enumerate())
        smallest: list[Any] = []  # the last input that differed: the smallest so far (the shrinker only goes down)

        def differs(spec: Any) -> bool:
            if shrinking["found"]:
                if shrinking["runs"] >= self.shrinks:
                    raise _Stop  # shrinking's budget is spent: the smallest difference so far is the answer
                shrinking["runs"] += 1
            key = repr(spec)
            if key in seen:
                return seen[key].differs
            try:
                expected = self.expected(spec)
            except ReferenceFailed as exc:
                raise _Abort(exc) from None
            try:
                got, error = plain(self.run(answer, spec)), None
            except (KeyboardInterrupt, CheckTimeout):
                raise
            except BaseException as exc:  # noqa: BLE001 - the learner's error on this input, reported by the core
                got, error = None, exc
            seen[key] = _Seen(error is not None or got != expected, expected, got, error)
            order.append(spec)
            if seen[key].differs:
                shrinking["found"], smallest[:] = True, [spec]
            if sum(thread not in before for thread in threading.enumerate()) >= _LEFT_THREADS:
                raise _Stop  # the answer leaves threads running: the core stops them and says so
            if isinstance(got, Opaque) and got.too_big:
                raise _Stop  # a result too large to compare: every input shows that, no need to shrink
            return seen[key].differs

        count = examples or self.examples
        inputs: dict[int, list[Any]] = self._inputs  # type: ignore[attr-defined]
        with _no_local_constants():
            try:
                if count in inputs and not any(differs(spec) for spec in inputs[count]):
                    return SearchReport(inputs=len(seen))
                spec = find(self.inputs, differs, settings=_settings(count))
            except NoSuchExample:
                inputs[count] = order
                return SearchReport(inputs=len(seen))
            except _Abort as abort:
                raise abort.args[0] from None
            except _Stop:
                if not smallest:
                    return SearchReport(inputs=len(seen))
                spec = smallest[0]
        found = seen[repr(spec)]
        return SearchReport(len(seen), spec, found.expected, found.got, found.error)

    def judge(self, answer: Any, describe_error: Callable[[BaseException], CaseResult], *, internal: str) -> CaseResult:
        """This check's :class:`~helpers.exercises.results.CaseResult` for ``answer`` (run it in the
        check's worker thread, under the deadline: it runs the learner's code).

        Args:
            answer: the learner's answer.
            describe_error: the core's feedback for an exception (the answer's error, or a hidden
                check's ``AssertionError`` from ``run``), given the exception.
            internal: the feedback when the reference itself failed (a checker bug).

        Returns:
            ``pass``; ``fail`` with :meth:`difference_text`; or the error's result with the input added.
        """
        try:
            report = self.search(answer)
        except ReferenceFailed:
            return CaseResult(self.name, "error", internal)
        if report.error is not None:
            try:
                found = describe_error(report.error)
            except (KeyboardInterrupt, CheckTimeout):
                raise
            except BaseException:  # noqa: BLE001 - a hostile exception object
                found = CaseResult(self.name, "error", _("your code raised an exception that could not be shown"),
                                   hint=self.hint)
            return CaseResult(self.name, found.status, bounded(self.on_input(found.feedback, report.spec)), found.hint)
        if report.differs:
            return CaseResult(self.name, "fail", bounded(self.difference_text(report)), hint=self.hint)
        return CaseResult(self.name, "pass")

    def difference_text(self, report: SearchReport) -> str:
        """The FAIL feedback for a difference (``report.error is None``): the input and both outcomes."""
        return _("the smallest input found where your answer and the reference differ: {input}. The reference "
                 "gives {expected}; your answer gives {got}").format(
                     input=self.describe(report.spec), expected=shown(report.expected), got=shown(report.got))

    def on_input(self, feedback: str, spec: Any) -> str:
        """``feedback`` about an error on a generated input, with the input described."""
        return _("{feedback} (on this generated input: {input})").format(feedback=feedback.rstrip(". "),
                                                                        input=self.describe(spec))


def _settings(examples: int) -> settings:
    """Hypothesis's settings for one search: derandomized, no database, no deadline, quiet,
    generate then shrink, every health check off (a slow ``run`` is expected), the default backend."""
    return settings(database=None, derandomize=True, deadline=None, verbosity=Verbosity.quiet,
                    max_examples=examples, phases=(Phase.generate, Phase.shrink),
                    suppress_health_check=list(HealthCheck), print_blob=False, report_multiple_bugs=False,
                    backend="hypothesis")


_NO_CONSTANTS = Constants()
_OWN_CONSTANTS_CACHE: LRUCache = LRUCache(1024)


def _no_local_constants_pool() -> Constants:
    return _NO_CONSTANTS


@contextlib.contextmanager
def _no_local_constants() -> Iterator[None]:
    """While inside: Hypothesis draws no constant collected from local modules and writes no
    ``.hypothesis/constants`` cache (hypothesis 6.170.15 ``providers._get_local_constants`` and its
    pool cache ``providers.CONSTANTS_CACHE``; the global constants it ships are kept). No lock: one
    check runs at a time, and a worker stuck inside a search must not block the next check."""
    saved = _providers._get_local_constants, _providers.CONSTANTS_CACHE
    _providers._get_local_constants = _no_local_constants_pool
    _providers.CONSTANTS_CACHE = _OWN_CONSTANTS_CACHE
    try:
        yield
    finally:
        _providers._get_local_constants, _providers.CONSTANTS_CACHE = saved
