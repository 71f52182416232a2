"""The closed sets of outcomes the widgets report, each with the word and the tone it is shown in.

Every outcome is a ``StrEnum`` member, so ``turn.outcome == "ran"`` and ``f"{turn.outcome}"``
work as with plain strings. ``word`` is what the view prints in capitals (a verdict readable
without colour and without an emoji font), marked for the catalog: the view shows it translated
(:func:`helpers.widgets.style.badge`), so the Chinese edition reads ``已运行`` where the English
reads ``RAN``; ``tone`` picks its colour (:mod:`.style`). No ipywidgets import.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Literal

from ..i18n import N_

__all__ = ["Answer", "PanelOutcome", "PlaygroundOutcome", "Tone", "TurnOutcome"]

#: How a verdict is coloured: ``ok`` green, ``warn`` amber, ``bad`` red, ``info`` grey-blue.
Tone = Literal["ok", "warn", "bad", "info"]


class _Shown(StrEnum):
    """A StrEnum whose members are declared as ``NAME = (value, word, tone)``.

    Attributes (of each member):
        word: the verdict in capitals, e.g. ``"RAN"`` (English; shown through ``_()``).
        tone: the colour family of the verdict (:data:`Tone`).
    """

    word: str
    tone: Tone

    def __new__(cls, value: str, word: str, tone: Tone) -> _Shown:
        member = str.__new__(cls, value)
        member._value_ = value
        member.word, member.tone = word, tone
        return member


class TurnOutcome(_Shown):
    """What happened to one tool call played in "you are the model" (notebook 02).

    ``ran``: every call ran and was answered. ``argument_error``: the arguments failed the tool's
    schema; ToolNode answered with an error ToolMessage (same id). ``tool_raised``: the tool raised
    something else; ToolNode's default handler re-raises it, so the run stopped and the call has
    no answer. ``invalid_json``: the arguments were not a JSON object; the reply holds only an
    invalid tool call and nothing ran. ``refused``: the widget did not build a reply at all (JSON
    nested too deeply to handle).
    """

    RAN = ("ran", N_("RAN"), "ok")
    ARGUMENT_ERROR = ("argument_error", N_("ERROR RESULT"), "warn")
    TOOL_RAISED = ("tool_raised", N_("RUN STOPPED"), "bad")
    INVALID_JSON = ("invalid_json", N_("NOT RUN"), "bad")
    REFUSED = ("refused", N_("REFUSED"), "bad")


class PlaygroundOutcome(_Shown):
    """What one run of the reducer playground (notebook 07) found.

    ``agree``: both write orders give the same value. ``differ``: the value depends on the order.
    ``invalid_update``: a plain key; LangGraph refused the step with ``InvalidUpdateError``.
    ``reducer_error``: the reducer raised in at least one order. ``invalid_json``: a write is not
    usable JSON; nothing ran.
    """

    AGREE = ("agree", N_("ORDERS AGREE"), "ok")
    DIFFER = ("differ", N_("ORDERS DIFFER"), "warn")
    INVALID_UPDATE = ("invalid_update", N_("STEP REFUSED"), "bad")
    REDUCER_ERROR = ("reducer_error", N_("REDUCER ERROR"), "bad")
    INVALID_JSON = ("invalid_json", N_("NOT RUN"), "bad")


class PanelOutcome(_Shown):
    """What the approval panel (notebooks 08, 09) did or found.

    ``paused``: the run waits at an interrupt. ``staged``: a decision was noted for one action of a
    request with several; nothing is sent until every action has one. ``finished``: no interrupt
    is left and no node is due. ``stuck``: no interrupt is pending, but the checkpoint still has
    nodes to run. ``poisoned``: an interrupt is pending, but its node raised after an earlier
    resume whose value LangGraph replays on every resume, so no answer can reach it.
    ``not_started``: the thread has no checkpoint. ``refused``: the input was checked and nothing
    was sent. ``error``: the resume was sent and the graph raised. ``unavailable``: the
    checkpointer cannot be read (e.g. its connection was closed). ``unknown``: the resume was sent,
    the graph raised, and the checkpoint still shows the same pause: the tool may have run (as for
    "sent, reply lost"), so nothing more is sent to that pause until the reviewer has checked.
    ``unanswerable``: an interrupt is pending, but the request lists its order more than once (two
    items of one order in the state); the panel sends one refund request per order, so it answers
    nothing there and says to start a new run that lists the order once; also several tool calls
    paused in one ``ToolNode`` task, where no answer can be tied to the call shown.
    ``ignored``: the resume was sent and the run went on, but the middleware did not apply a
    reject or respond (its ``when`` predicate, evaluated again on resume, no longer gated the
    call): the tool ran.
    """

    PAUSED = ("paused", N_("PAUSED"), "info")
    STAGED = ("staged", N_("NOTED"), "info")
    FINISHED = ("finished", N_("FINISHED"), "ok")
    STUCK = ("stuck", N_("STUCK"), "bad")
    POISONED = ("poisoned", N_("STUCK"), "bad")
    NOT_STARTED = ("not_started", N_("NOT STARTED"), "info")
    REFUSED = ("refused", N_("REFUSED"), "warn")
    ERROR = ("error", N_("ERROR"), "bad")
    UNAVAILABLE = ("unavailable", N_("UNAVAILABLE"), "bad")
    UNKNOWN = ("unknown", N_("OUTCOME UNKNOWN"), "bad")
    UNANSWERABLE = ("unanswerable", N_("CANNOT ANSWER"), "bad")
    IGNORED = ("ignored", N_("DECISION IGNORED"), "bad")


class Answer(_Shown):
    """A self-check answer: ``right`` or ``wrong``."""

    RIGHT = ("right", N_("RIGHT"), "ok")
    WRONG = ("wrong", N_("WRONG"), "bad")
