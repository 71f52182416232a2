"""Learner code for tests of the exercise core: functions defined the way a notebook cell defines them."""

from __future__ import annotations

import linecache


def learner(source: str, name: str = "answer"):
    """Define a function the way a notebook cell does: from source in a file outside the checker (so
    the deadline counts it as the learner's code, and an error's line can be shown from it).

    Returns:
        the object named ``name`` that ``source`` defines.
    """
    filename = f"<learner cell {abs(hash(source))}>"
    lines = source.splitlines(keepends=True)
    linecache.cache[filename] = (len(source), None, lines, filename)
    namespace: dict = {}
    exec(compile(source, filename, "exec"), namespace)
    return namespace[name]
