"""Two workspace commands at once lose nothing (issue 16, workspace item 1).

Two ``make reset NB=03`` in two shells used to claim the same ``NAME.1`` with an ``exists()`` test;
the second ``os.replace`` then moved the course version over the learner's kept copy (about 5 runs
in 150). The workspace is now locked for the whole of a sync or a reset. Each round forks two
processes that wait at one barrier and then reset the same edited notebook; the round passes when
the learner's edit is in exactly one kept copy and the notebook is the course version. No timing
is asserted: the barrier only makes the two resets start together, a busy machine just runs fewer
of them truly in parallel, and the lock's time limit is raised so that a slow turn never gives up.
"""

from __future__ import annotations

import multiprocessing
import os

import nbformat
import pytest

from helpers import filelock
from helpers.workspace import REPLACED_DIR, reset, sync

ROUNDS = 200


def _write(path, *sources):
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(s) for s in sources])
    path.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(nb, path)


def _reset_after(barrier, workspace, course, name):
    barrier.wait()
    try:
        reset([name], workspace, course)
    except BaseException as exc:  # noqa: BLE001 - reported through the exit status
        os.write(2, f"{type(exc).__name__}: {exc}\n".encode())
        os._exit(1)
    os._exit(0)


@pytest.mark.skipif(not hasattr(os, "fork"), reason="forks two processes")
def test_two_resets_at_once_keep_the_edited_copy_every_time(tmp_path, monkeypatch):
    monkeypatch.setattr(filelock, "DEFAULT_TIMEOUT", 600.0)  # a busy machine waits; it never gives up here
    context = multiprocessing.get_context("fork")
    course = tmp_path / "notebooks"
    _write(course / "03_toolmessage_pairing.ipynb", "print('course')")
    lost = []
    for number in range(ROUNDS):
        workspace = tmp_path / f"ws{number}"
        sync(workspace, course)
        mine = f"print('my edit {number}')"
        _write(workspace / "03_toolmessage_pairing.ipynb", mine)
        barrier = context.Barrier(2)
        workers = [context.Process(target=_reset_after, args=(barrier, workspace, course, "03")) for _ in range(2)]
        for worker in workers:
            worker.start()
        for worker in workers:
            worker.join()
        assert [w.exitcode for w in workers] == [0, 0]
        kept = [p.read_text() for p in (workspace / REPLACED_DIR).iterdir()]
        if sum(mine in text for text in kept) != 1:
            lost.append(number)
        assert "course" in (workspace / "03_toolmessage_pairing.ipynb").read_text()
    assert lost == [], f"the edited copy was lost in {len(lost)} of {ROUNDS} rounds"
