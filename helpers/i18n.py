"""The course's message catalog: learner-facing strings in the language of the notebook's edition.

Wrap a learner-facing string in :func:`_` (or :func:`ngettext` when it depends on a count); ``make
catalogs`` extracts the wrapped strings (Babel 2.19, ``babel.cfg``) into ``helpers/locale/course.pot``,
updates ``helpers/locale/zh_CN/LC_MESSAGES/course.po`` and compiles ``course.mo`` next to it
(CONTRIBUTING.md, "Chinese edition"). Lookups go through the standard library's :mod:`gettext`
(``gettext.translation`` with an explicit language list, so ``LANG`` / ``LANGUAGE`` / the locale are
never consulted).

**The edition chooses the language, never the locale.** A kernel's working directory is its
notebook's folder; the Chinese edition's folders (``notebooks/zh/``, written by the build, and the
Chinese workspace ``workspace/zh/``, written by ``make lab``) hold a marker file :data:`MARKER`
whose text is the edition (``zh-CN``). Any other folder is the English edition, whose strings are
the source strings unchanged (so no English output changes). Tests switch explicitly with
:func:`use`.

The ``.mo`` is committed (built from the ``.po`` by ``make catalogs``) rather than compiled on import:
kernels import ``helpers`` from a wheel or a read-only checkout where no cache can be written, and
the kernel then needs nothing but the standard library; ``tests/test_zh_fresh.py`` fails when the
``.mo`` is stale against the ``.po``. Imports nothing of the course.
"""

from __future__ import annotations

import contextlib
import gettext
import os
import stat
import warnings
from collections.abc import Iterator
from functools import lru_cache
from pathlib import Path
from typing import Literal, get_args

__all__ = ["DOMAIN", "EDITIONS", "LOCALE_DIR", "MARKER", "N_", "Edition", "_", "current_edition", "edition_of",
           "ngettext", "translations", "use", "write_marker"]

#: An edition of the course: the English source, or the Chinese translation.
Edition = Literal["en", "zh-CN"]
#: Each edition's gettext language (``None``: the source strings themselves).
EDITIONS: dict[Edition, str | None] = {"en": None, "zh-CN": "zh_CN"}
#: The catalog's domain: ``helpers/locale/<language>/LC_MESSAGES/course.mo``.
DOMAIN = "course"
#: Where the compiled catalogs live (package data of the wheel).
LOCALE_DIR = Path(__file__).resolve().parent / "locale"
#: The file that marks a folder as one edition's (its text: the edition, e.g. ``zh-CN``).
MARKER = ".course-edition"
#: The longest marker file read (an edition name is short; a longer marker names no edition and is
#: never read whole).
_MARKER_BYTES = 64

_forced: list[Edition] = []


def edition_of(folder: Path | str) -> Edition:
    """The edition of the notebooks in ``folder``: the text of its :data:`MARKER` file when it names
    an edition, else ``"en"`` (no marker, an unreadable or unknown one, or one that is not a regular
    file: a FIFO or a device is never opened, so a stray one cannot hang the kernel). Never raises."""
    marker = Path(folder) / MARKER
    try:
        if not stat.S_ISREG(marker.stat().st_mode):
            return "en"
        with marker.open("rb") as file:
            raw = file.read(_MARKER_BYTES + 1)
        text = raw.decode("utf-8").strip() if len(raw) <= _MARKER_BYTES else ""  # too long: no edition
    except (OSError, ValueError):
        return "en"
    return text if text in get_args(Edition) else "en"  # type: ignore[return-value]


def current_edition() -> Edition:
    """The edition in force: the one :func:`use` set, else that of the current directory (a kernel's
    notebook folder; ``"en"`` when it cannot be read)."""
    if _forced:
        return _forced[-1]
    try:
        return edition_of(os.getcwd())
    except OSError:  # a deleted current directory
        return "en"


@lru_cache(maxsize=None)
def translations(edition: Edition) -> gettext.NullTranslations:
    """The compiled catalog of ``edition`` (``NullTranslations`` for English: every string as given).

    A missing or unreadable ``.mo`` never breaks a helper: it warns once (``RuntimeWarning``, naming
    the file and ``make catalogs``) and answers with the English source strings.
    """
    language = EDITIONS[edition]
    if language is None:
        return gettext.NullTranslations()
    try:
        return gettext.translation(DOMAIN, LOCALE_DIR, languages=[language])
    except Exception as exc:  # noqa: BLE001 - gettext raises OSError, struct.error, UnicodeDecodeError...
        mo = LOCALE_DIR / language / "LC_MESSAGES" / f"{DOMAIN}.mo"
        warnings.warn(f"the {edition} message catalog {mo} cannot be read ({type(exc).__name__}: {exc}); "
                      "showing English messages (run `make catalogs`)", RuntimeWarning, stacklevel=2)
        return gettext.NullTranslations()


def _(message: str) -> str:
    """``message`` in the current edition's language (the source string in English, or when the
    catalog lacks it). Use ``_("... {name}").format(name=...)``, never an f-string inside ``_()``.
    Anything but a ``str`` (``None``, a number, a list) comes back unchanged in every edition, as
    English's ``NullTranslations`` returns it (the Chinese catalog's lookup would raise on a list).
    """
    if not isinstance(message, str):
        return message
    return translations(current_edition()).gettext(message)


def N_(message: str) -> str:
    """Mark ``message`` for extraction without translating it (a module-level constant, translated
    with :func:`_` where it is shown, when the notebook's edition is known). Returns it unchanged."""
    return message


def ngettext(singular: str, plural: str, n: int) -> str:
    """``singular`` or ``plural`` for count ``n``, in the current edition's language (Chinese has
    one form for every count: the catalog's ``Plural-Forms``)."""
    return translations(current_edition()).ngettext(singular, plural, n)


@contextlib.contextmanager
def use(edition: Edition) -> Iterator[None]:
    """Within the ``with`` block, :func:`_` answers in ``edition`` whatever the current directory is.

    Raises:
        ValueError: ``edition`` is not one of :data:`Edition`.
    """
    if edition not in EDITIONS:
        raise ValueError(f"unknown edition {edition!r}: one of {', '.join(EDITIONS)}")
    _forced.append(edition)
    try:
        yield
    finally:
        _forced.pop()


def write_marker(folder: Path | str, edition: Edition) -> Path:
    """Mark ``folder`` (created if missing) as ``edition``'s; returns the marker file. An English
    folder needs no marker: writing ``"en"`` removes one."""
    folder = Path(folder)
    marker = folder / MARKER
    if edition == "en":
        marker.unlink(missing_ok=True)
        return marker
    folder.mkdir(parents=True, exist_ok=True)
    if not marker.exists() or marker.read_text(encoding="utf-8").strip() != edition:
        marker.write_text(edition + "\n", encoding="utf-8")
    return marker
