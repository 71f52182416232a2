"""``python -m tooling.coursemap [--check] [--remeasure] [--root DIR]`` (``make course-map``): both editions'
course maps (:mod:`tooling.coursemap` for the English one, the times and the Next cells;
:func:`tooling.translation.course_map.write_course_maps` for 00's Chinese block and ``README.zh-CN.md``).

A module of its own because the Chinese map is written from the English one: the package itself does not
import :mod:`tooling.translation`, which imports it.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from ..translation.course_map import write_course_maps
from . import ROOT, CourseMapError, stale
from . import __doc__ as coursemap_doc

__all__ = ["main"]


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m tooling.coursemap [--check] [--root DIR]``: write (or check) the generated parts."""
    parser = argparse.ArgumentParser(prog="python -m tooling.coursemap", description=coursemap_doc.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="change nothing; exit 1 when something is stale")
    parser.add_argument("--root", type=Path, default=ROOT, help="the course checkout (default: this one)")
    parser.add_argument("--remeasure", action="store_true",
                        help="store every measured time, also within the tolerance (after a rate changed)")
    args = parser.parse_args(argv)
    if args.check and args.remeasure:
        parser.error("--check changes nothing; --remeasure writes: give one of them")
    try:
        changes = stale(args.root) if args.check else write_course_maps(args.root, remeasure=args.remeasure)
    except CourseMapError as exc:
        print(f"course map: {exc}", file=sys.stderr)
        return 2
    for line in changes:
        print(("stale: " if args.check else "wrote: ") + line)
    if args.check and changes:
        print("run `python -m tooling.coursemap` (or `make course-map`) and commit the result", file=sys.stderr)
        return 1
    if not changes:
        print("course map: up to date")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
