"""A widget's page part: a click in the page carries what the page showed when it was made.

Why it exists. An ``ipywidgets.Button`` click reaches the kernel as a bare ``{"event": "click"}``:
it does not say what the page showed when it was made. ipywidgets 8 (8.1) sends a field's new
value and a button's click as messages of two different widget models, and holds a model's next
update back while its previous one is still being handled, so under load a click can reach the
kernel before the text the learner had just typed: 02's playground then sent the old arguments
(seen once under ``make test``), 07's ran the old writes. And the kernel can answer the first
click of a double click, and the page draw what comes next, before the browser dispatches the
second click, which then decided a call the learner never reviewed (the approval panel, issue 27
part 4: 2 of 6 tries in JupyterLab).

:class:`PageClicks` is an invisible anywidget (anywidget 0.11) inside a widget (the approval panel,
"you are the model", the reducer playground, the self-check). Its page code (``page_clicks.js``)
catches a click on a button with the class ``course-action-<action>`` (or Enter in a one-line
field listed in :attr:`PageClicks.enter`) before ipywidgets' handler and sends one message instead::

    {"event": "action", "action": "send", "render": 7, "clicks": 1,
     "fields": {"args": "{\\"order_id\\": \\"A1024\\"}", "tool": 1}}

``render`` is the number of the render the page had drawn when the click happened (:attr:`PageClicks.render`,
which the widget sets after every other part of a render); the second and third clicks of one
double or triple click (``MouseEvent.detail`` 2, 3) carry the render the first click was made on;
``fields`` is what each element with the class ``course-field-<name>`` held at that moment: a text
field's text, a drop-down's selected position (``int``), a group of tick boxes' states (a list of
``bool``). The widget acts on those fields, never on its own copy of them (a field's own update can
reach the kernel after the click), and refuses a ``render`` that is no longer current. Tests send
the same messages to the widget's ``on_page_message``; :func:`page_click` reads one.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

import anywidget
import ipywidgets as widgets
import traitlets

from ..i18n import N_, _

__all__ = ["STALE_CLICK", "UNPLACED_CLICK", "UNREADABLE_CLICK", "PageButton", "PageClick", "PageClicks", "refusal",
           "page_click"]

#: The note a playground shows for a click made on a render it no longer shows (nothing was done).
STALE_CLICK = N_("That click was made on an earlier view of this widget: it changed before the click "
                 "arrived (shown now), so nothing was sent. Look again and click once more.")
#: The note for a bare click from the page (its page part did not load): nothing says what it showed.
UNPLACED_CLICK = N_("That click did not say what the page showed (this widget's page part did not load), "
                    "so nothing was sent. Run the cell again to reload the widget.")
#: The note for a click whose fields have another shape than the page part sends ({fields}: their names):
#: the widget's own copy of a field can be older than what the page showed, so it is not used instead.
UNREADABLE_CLICK = N_("What the page showed when that click was made could not be read ({fields}), so nothing "
                      "was sent. Run the cell again to reload the widget.")


class PageClicks(anywidget.AnyWidget):
    """The invisible page part of a widget (see the module docstring). Put it among the widget's children.

    Args:
        container: the CSS class of the widget's outer element (``"course-approval-panel"``); only
            clicks inside that element are caught.
        enter: ``{field name: action}``: Enter in that one-line field sends that action (``clicks`` 0).

    Attributes:
        render: the number of the widget's latest render (synced to the page; 0 before the first).
    """

    # The module's text (read through importlib.resources, so it works from a zipped wheel too; anywidget
    # would take a path it cannot open for the code itself).
    _esm = resources.files(__package__).joinpath("page_clicks.js").read_text(encoding="utf-8")
    render = traitlets.Int(0).tag(sync=True)
    container = traitlets.Unicode("").tag(sync=True)
    enter = traitlets.Dict().tag(sync=True)

    def __init__(self, container: str, *, enter: dict[str, str] | None = None, **kwargs: Any):
        super().__init__(container=container, enter=dict(enter or {}), **kwargs)

    def __repr__(self) -> str:
        return "PageClicks()"  # anywidget's own repr holds a memory address


@dataclass(frozen=True)
class PageClick:
    """One click from the page part, checked for shape (:func:`page_click`).

    Attributes:
        action: the button's action (``course-action-<action>``).
        render: the render the page had drawn when it was clicked.
        clicks: ``MouseEvent.detail`` (0: keyboard or Enter in a field).
        fields: field name -> what the page showed (``str``, ``int`` or a list of ``bool``; ``None``
            when the page did not find the field).
        readable: ``False`` when the message's ``fields`` was not an object (then ``fields`` is empty).
    """

    action: str
    render: int
    clicks: int = 1
    fields: dict[str, Any] = field(default_factory=dict)
    readable: bool = True

    def unreadable(self, *, texts: Collection[str] = (), indexes: Mapping[str, int] | None = None,
                   ticks: Mapping[str, int] | None = None) -> list[str]:
        """The fields the click carries in another shape than the page part sends: act on none of them.

        A field the click does not carry (absent, or ``None``: the page did not find it) is not listed.

        Args:
            texts: the names of text fields (a ``str`` each).
            indexes: drop-down name -> its number of options (an ``int`` position below it, ``bool`` not).
            ticks: tick group name -> its number of boxes (a list of that many ``bool``).

        Returns:
            the names, in the order checked (texts, indexes, ticks); ``["fields"]`` when the message's
            ``fields`` was not an object; ``[]`` when every field can be read.
        """
        if not self.readable:
            return ["fields"]
        bad = [name for name in texts if self.fields.get(name) is not None and self.text(name) is None]
        bad += [name for name, size in (indexes or {}).items()
                if self.fields.get(name) is not None and self.index(name, size) is None]
        bad += [name for name, size in (ticks or {}).items()
                if self.fields.get(name) is not None and self.ticks(name, size) is None]
        return bad

    def text(self, name: str) -> str | None:
        """The text field ``name`` as the page showed it, or ``None`` (not a text, not found)."""
        value = self.fields.get(name)
        return value if isinstance(value, str) else None

    def index(self, name: str, size: int) -> int | None:
        """The position selected in drop-down ``name`` (``0 <= index < size``), or ``None``."""
        value = self.fields.get(name)
        return value if type(value) is int and 0 <= value < size else None

    def ticks(self, name: str, size: int) -> list[bool] | None:
        """The states of the ``size`` tick boxes of ``name``, or ``None`` (another shape, not found)."""
        value = self.fields.get(name)
        if isinstance(value, list) and len(value) == size and all(type(v) is bool for v in value):
            return value
        return None


def page_click(content: Any, actions: Collection[str]) -> PageClick | None:
    """Read a message from the page part: a :class:`PageClick`, or ``None`` for anything else.

    Args:
        content: the message, ``{"event": "action", "action": str, "render": int, "clicks": int,
            "fields": {...}}``.
        actions: the actions the widget has.

    Returns:
        the click; ``None`` when ``content`` is not such a message, the action is not one of
        ``actions``, or ``render`` is not an ``int`` (``True`` and ``1.0`` are not). A ``fields``
        that is not an object gives a click with no fields and ``readable`` ``False``.
    """
    if not isinstance(content, dict) or content.get("event") != "action":
        return None
    action, render, clicks = content.get("action"), content.get("render"), content.get("clicks")
    if action not in actions or type(render) is not int:
        return None
    fields = content.get("fields")
    return PageClick(action, render, clicks if type(clicks) is int else 1,
                     dict(fields) if isinstance(fields, dict) else {},
                     readable=fields is None or isinstance(fields, dict))


def refusal(click: PageClick, render: int, *, texts: Collection[str] = (), indexes: Mapping[str, int] | None = None,
            ticks: Mapping[str, int] | None = None) -> str | None:
    """Why ``click`` must not be acted on, in the notebook's language, or ``None`` when it may.

    Args:
        click: the click (:func:`page_click`).
        render: the widget's current render (:attr:`PageClicks.render`).
        texts, indexes, ticks: the widget's fields, as for :meth:`PageClick.unreadable`.

    Returns:
        :data:`STALE_CLICK` for a click made on an earlier render; :data:`UNREADABLE_CLICK` naming the
        fields carried in another shape than the page part sends; ``None`` otherwise.
    """
    if click.render != render:
        return _(STALE_CLICK)
    unreadable = click.unreadable(texts=texts, indexes=indexes, ticks=ticks)
    if unreadable:
        return _(UNREADABLE_CLICK).format(fields=", ".join(unreadable))
    return None


class PageButton(widgets.Button):
    """A button whose clicks come through the widget's page part (:class:`PageClicks`) as ``action``.

    A bare ``{"event": "click"}`` from the page (the page part did not load) calls ``unplaced``:
    nothing says what the learner saw, so the widget must not act on it. :meth:`click` from code
    (ipywidgets' own, which calls the ``on_click`` handlers) still acts on what the widget shows now.

    Args:
        action: the action name; the button gets the class ``course-action-<action>``.
        unplaced: called with no argument for a bare click from the page.
        **kwargs: passed to ``ipywidgets.Button``.
    """

    def __init__(self, action: str, *, unplaced: Callable[[], Any], **kwargs: Any):
        self._unplaced = unplaced
        super().__init__(**kwargs)
        self.add_class(f"course-action-{action}")

    def _handle_button_msg(self, _widget: Any, content: dict, buffers: Any) -> None:
        if isinstance(content, dict) and content.get("event") == "click":
            self._unplaced()
