"""Plumbing for notebook 08, section 5: a paused run resumed by a second Python process.

The idea the notebook teaches (a paused run lives in the checkpoint, so another process can resume
it) needs the same graph in both processes: the checkpoint stores state, not code. This module is
that shared code, plus the second process:

* :func:`build` ``(checkpointer)``: the refund flow both processes build, ``START -> ask_approval ->
  END``; ``ask_approval`` prints ``ask_approval runs`` and calls ``interrupt()`` (section 1's flow).
* :func:`resume_here` ``(db, thread_id, answer, parent_pid)``: what process B does: open the SQLite
  file with ``SqliteSaver`` (langgraph-checkpoint-sqlite 3.1.2), look at the paused run, resume it
  with ``Command(resume=answer)``; it prints lines that start with ``process B:``.
* :class:`SecondProcess`: starts process B ahead of time (``python -P helpers/durable_flow.py``, which
  imports only LangGraph, not the course's helpers), so that its imports (1-2 s) overlap with the
  notebook's other cells; it then waits for one job on its stdin. :meth:`SecondProcess.resume` sends
  the job and returns what B printed.

Only LangGraph is imported here, so that process B starts as fast as it can.
"""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from typing import Any, TypedDict

from langgraph.checkpoint.sqlite import SqliteSaver
from langgraph.graph import END, START, StateGraph
from langgraph.types import Command, interrupt

__all__ = ["DurableRefundState", "SecondProcess", "ask_approval", "build", "resume_here"]


class DurableRefundState(TypedDict, total=False):
    """The flow's state: the request, then the human's decision and the stage it leads to."""

    order_id: str
    amount: float
    decision: str
    stage: str


def ask_approval(state: DurableRefundState) -> dict:
    """Pause for a human's decision ("approve" or anything else) on the refund in ``state``."""
    print("  ask_approval runs", flush=True)
    decision = interrupt({"order_id": state["order_id"], "amount": state["amount"]})
    return {"decision": decision, "stage": "approved" if decision == "approve" else "rejected"}


def build(checkpointer):
    """The flow both processes build: ``START -> ask_approval -> END``, saved by ``checkpointer``."""
    builder = StateGraph(DurableRefundState)
    builder.add_node("ask_approval", ask_approval)
    builder.add_edge(START, "ask_approval")
    builder.add_edge("ask_approval", END)
    return builder.compile(checkpointer=checkpointer)


def resume_here(db: str, thread_id: str, answer: Any, parent_pid: int) -> None:
    """Process B: open the checkpoint file ``db``, inspect the paused run, resume it with ``answer``."""
    print("process B: a different process:", os.getpid() != parent_pid)
    conn = sqlite3.connect(db, check_same_thread=False)
    graph = build(SqliteSaver(conn))
    config = {"configurable": {"thread_id": thread_id}}
    snapshot = graph.get_state(config)
    print("process B: resumes from values =", snapshot.values)
    print("process B: next =", snapshot.next, "| interrupt payload =", [i.value for i in snapshot.interrupts])
    out = graph.invoke(Command(resume=answer), config, version="v2")
    print("process B: result =", out.value, "| interrupts =", out.interrupts)
    conn.close()


class SecondProcess:
    """Process B: a separate Python process that resumes one paused run from a SQLite checkpoint.

    :meth:`start` launches it at once (it imports LangGraph, then waits for a job on stdin);
    :meth:`resume` hands it the job and waits for it to finish. A process serves one job; calling
    :meth:`resume` again starts a fresh one (then without the head start). If the notebook never
    sends a job, the process ends by itself when its parent (the kernel) closes the pipe.
    """

    def __init__(self, process: subprocess.Popen) -> None:
        self._process = process
        self._used = False

    @classmethod
    def start(cls) -> SecondProcess:
        """Launch process B now, with the kernel's interpreter and environment.

        Returns:
            a :class:`SecondProcess` whose process is importing LangGraph, or already waiting.
        """
        process = subprocess.Popen([sys.executable, "-P", os.path.abspath(__file__)], stdin=subprocess.PIPE,
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        return cls(process)

    def resume(self, db: str, thread_id: str, answer: Any, *, timeout: float = 120) -> list[str]:
        """Let process B resume ``thread_id`` from the checkpoint file ``db`` with ``answer``.

        Args:
            db: path of the SQLite file that process A wrote (``SqliteSaver``).
            thread_id: the paused run's thread.
            answer: the resume value (JSON-serialisable), e.g. ``"approve"``.
            timeout: seconds to wait for process B.

        Returns:
            the lines process B printed, in order (no trailing newlines).

        Raises:
            RuntimeError: process B failed (the message ends with its last stderr line) or did not
                finish within ``timeout`` seconds (it is then killed).
        """
        if self._used:
            self._process = self.start()._process
        self._used = True
        job = json.dumps({"db": db, "thread_id": thread_id, "answer": answer, "parent_pid": os.getpid()})
        try:
            stdout, stderr = self._process.communicate(job + "\n", timeout=timeout)
        except subprocess.TimeoutExpired:
            self._process.kill()
            self._process.communicate()
            raise RuntimeError(f"process B did not finish within {timeout} s") from None
        if self._process.returncode != 0:
            last = (stderr.strip().splitlines() or ["no error output"])[-1]
            raise RuntimeError(f"process B failed (exit code {self._process.returncode}): {last}")
        return stdout.rstrip("\n").splitlines()


def _main() -> int:
    """Process B: read one job (a JSON line) from stdin and resume; an empty stdin ends quietly."""
    line = sys.stdin.readline()
    if not line.strip():
        return 0
    job = json.loads(line)
    resume_here(job["db"], job["thread_id"], job["answer"], job["parent_pid"])
    return 0


if __name__ == "__main__":
    raise SystemExit(_main())
