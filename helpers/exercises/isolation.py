"""What a checked answer changed in the kernel's process besides threads, and putting it back.

:mod:`helpers.exercises.deadline` stops the threads a case left running. Two other changes outlive
a case and hurt the rest of the kernel, so the check undoes them and the case says so:

* **The working directory.** ``os.chdir`` in an answer moves the whole kernel (every relative
  path after it: the learner's progress file, ``data/``); the check changes it back.
* **Child processes.** A process the answer started (``subprocess.Popen``, ``os.system('... &')``,
  ``multiprocessing``) and left running is stopped: ``terminate`` (SIGTERM), then ``kill``
  (SIGKILL) after :data:`PROCESS_GRACE` seconds. Only processes that were not the kernel's
  children (or their children) before the case are touched, so nothing the notebook started
  itself is stopped. Found with ``psutil`` (``Process.children(recursive=True)``, psutil 7.2).

The notes name a process by its command name only (no process id, no path), so feedback stays
deterministic.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from ..i18n import _, ngettext

__all__ = ["PROCESS_GRACE", "Snapshot"]

#: Seconds a process gets to end after SIGTERM before it is killed (and again after SIGKILL).
PROCESS_GRACE = 1.0


def _cwd() -> str | None:
    try:
        return os.getcwd()
    except OSError:  # the directory was removed under us
        return None


def _children() -> dict[int, object]:
    """The kernel's living descendants by pid (zombies left out: they have already ended)."""
    try:
        import psutil

        found = psutil.Process().children(recursive=True)
    except Exception:  # noqa: BLE001 - no psutil or no /proc: nothing is watched
        return {}
    living = {}
    for child in found:
        try:
            if child.status() != psutil.STATUS_ZOMBIE:
                living[child.pid] = child
        except Exception:  # noqa: BLE001 - it ended while we looked
            continue
    return living


def _command_name(process: object) -> str:
    try:
        name = process.name()  # type: ignore[attr-defined]
        return name[:40] if isinstance(name, str) and name else "a process"
    except Exception:  # noqa: BLE001
        return "a process"


def _stop(processes: list) -> list:
    """Terminate, then kill what is left; the processes still alive after that."""
    import psutil

    alive = list(processes)
    for signal_name in ("terminate", "kill"):
        for process in alive:
            try:
                getattr(process, signal_name)()
            except psutil.Error:
                pass
        _, alive = psutil.wait_procs(alive, timeout=PROCESS_GRACE)
        if not alive:
            break
    return alive


@dataclass
class Snapshot:
    """The working directory and the living child processes before a case ran.

    Use :meth:`take` before the case and :meth:`restore` after it (once its threads have ended).
    """

    cwd: str | None
    children: set[int] = field(default_factory=set)

    @classmethod
    def take(cls) -> Snapshot:
        """The state now."""
        return cls(_cwd(), set(_children()))

    def restore(self) -> list[str]:
        """Undo what changed since :meth:`take`: change back to the directory, stop new processes.

        Returns:
            one sentence per kind of change, for the learner (empty when nothing changed). Never
            raises (a failure to undo is said in the sentence).
        """
        notes = []
        if self.cwd is not None and _cwd() != self.cwd:
            try:
                os.chdir(self.cwd)
                notes.append(_("your code changed the working directory (os.chdir) and did not change it back; the "
                               "check changed it back. Use absolute paths (or pathlib) instead of changing directory"))
            except OSError:
                notes.append(_("your code changed the working directory (os.chdir), and the check could not change "
                               "it back: restart the kernel"))
        new = [process for pid, process in _children().items() if pid not in self.children]
        if new:
            names = ", ".join(sorted({_command_name(p) for p in new}))
            what = ngettext("a process", "{count} processes", len(new)).format(count=len(new))
            try:
                alive = _stop(new)
            except Exception:  # noqa: BLE001 - psutil vanished or refused: say so
                alive = new
            ending = ngettext("it was stopped", "they were stopped", len(new)) if not alive else _(
                "{count} could not be stopped: restart the kernel").format(count=len(alive))
            notes.append(_("your code left {what} running ({names}); {ending}. Wait for every process you start "
                           "(`subprocess.run`, or `proc.wait()`) before your function returns").format(
                               what=what, names=names, ending=ending))
        return notes
