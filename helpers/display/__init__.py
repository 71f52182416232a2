"""Display helpers: message traces, sequence and graph diagrams, state diffs, expected errors.

Four modules, one job each; every public name is importable from here (``from helpers.display import
trace_rows``), loaded on first use (:mod:`helpers.lazy`), so ``helpers.display.text`` (what
:mod:`helpers.progress` prints with) loads no LangChain:

* :mod:`helpers.display.text`: safe text, Markdown escaping, :func:`show`, and printed rows that fit
  the output width (:func:`fit_row`);
* :mod:`helpers.display.state`: state diffs;
* :mod:`helpers.display.errors`: expected errors (:func:`format_error`, :func:`show_error`,
  :func:`expect_error`);
* :mod:`helpers.display.trace`: message traces, sequence diagrams and graph diagrams.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..lazy import lazy_exports

if TYPE_CHECKING:  # for type checkers and IDEs; at run time the names load on first use
    from .errors import ErrorReport, expect_error, format_error, show_error
    from .state import show_state_diff, state_diff, state_diff_markdown
    from .text import ADDRESS_PATTERN, OUTPUT_WIDTH, fit_row, markdown_text, safe_repr, show, text_width
    from .trace import (
        as_messages,
        graph_mermaid,
        sequence_diagram,
        show_graph,
        show_sequence,
        show_trace,
        trace_markdown,
        trace_rows,
    )

#: Where each public name lives.
_EXPORTS = {
    "ADDRESS_PATTERN": ".text",
    "OUTPUT_WIDTH": ".text",
    "fit_row": ".text",
    "markdown_text": ".text",
    "safe_repr": ".text",
    "show": ".text",
    "text_width": ".text",
    "show_state_diff": ".state",
    "state_diff": ".state",
    "state_diff_markdown": ".state",
    "ErrorReport": ".errors",
    "expect_error": ".errors",
    "format_error": ".errors",
    "show_error": ".errors",
    "as_messages": ".trace",
    "graph_mermaid": ".trace",
    "sequence_diagram": ".trace",
    "show_graph": ".trace",
    "show_sequence": ".trace",
    "show_trace": ".trace",
    "trace_markdown": ".trace",
    "trace_rows": ".trace",
}

__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
__all__ = sorted(_EXPORTS)
