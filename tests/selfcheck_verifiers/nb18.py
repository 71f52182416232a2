"""Verifiers of notebook 18's self-check questions (``helpers/selfcheck/nb18.py``): see
``tests/selfcheck_verifiers/__init__.py``. They run on the SQLite fallback's database (the same advisory-lock
answers as PostgreSQL: ``tests/test_postgres_engine.py`` proves the parity) or on ``InMemorySaver``: the
behaviour asked about belongs to LangGraph and to the lock functions, not to one engine."""

import threading

import pytest

from tests.selfcheck_verifiers import pick


def verify_two_runs_one_thread(q):
    from langchain.agents import create_agent
    from langgraph.checkpoint.memory import InMemorySaver

    from helpers import scripted_model
    from helpers.postgres.desk import replies

    saver, both_read = InMemorySaver(), threading.Barrier(2)

    def answer(request):  # each run waits at its model call until the other has read the thread too
        both_read.wait(timeout=30)
        return f"answer to {request.messages[-1].content}"

    config = {"configurable": {"thread_id": "u-0100:support"}}
    got = {}

    def run(text):
        agent = create_agent(scripted_model([answer], allow_interleaving=True), [], checkpointer=saver)
        got[text] = agent.invoke({"messages": [("user", text)]}, config)["messages"][-1].content

    runs = [threading.Thread(target=run, args=(text,)) for text in ("refund S-0100 20.00", "refund S-0100 30.00")]
    for thread in runs:
        thread.start()
    for thread in runs:
        thread.join(timeout=60)
    kept = replies(create_agent(scripted_model([]), [], checkpointer=saver).get_state(config).values["messages"])
    assert len(got) == 2, "both runs finished without an error, each with a reply"
    assert len(kept) == 1 and kept[0] in got.values(), "the thread kept one of the two replies"
    return pick(q, "the other reply is lost")


def verify_refuse_at_once(q):
    from helpers.postgres import fallback_database

    database = fallback_database("a self-check verifier")
    first, second = database.connect(), database.connect()
    try:
        lock = "SELECT pg_try_advisory_lock(hashtextextended(%s, 0))"
        assert first.execute(lock, ("u-0100:support",)).fetchone()[0]
        assert not second.execute(lock, ("u-0100:support",)).fetchone()[0], "the try-lock answers false at once"
        second.execute("SET lock_timeout = '100ms'")
        with pytest.raises(Exception, match="lock timeout"):  # the plain lock waits (here: until the timeout)
            second.execute("SELECT pg_advisory_lock(hashtextextended(%s, 0))", ("u-0100:support",))
        third = database.connect()  # an autocommit xact lock is gone when its statement ends
        third.execute("SELECT pg_try_advisory_xact_lock(hashtextextended(%s, 0))", ("t2",))
        assert second.execute(lock, ("t2",)).fetchone()[0]
        third.close()
    finally:
        first.close()
        second.close()
        database.close()
    return pick(q, "pg_try_advisory_lock(hashtextextended")


def verify_who_may_resume(q):
    import tempfile
    from pathlib import Path

    from langchain.agents import create_agent
    from langgraph.types import Command

    from helpers.postgres import DatabaseSpec, open_database
    from helpers.postgres.desk import build_desk_agent, take_turn
    from helpers.postgres.ledger import RefundLedger

    with tempfile.TemporaryDirectory() as folder:
        spec = DatabaseSpec("sqlite", str(Path(folder) / "desk.sqlite"))
        first, second = open_database(spec), open_database(spec)  # two parties that share only the file
        ledger = RefundLedger(first.connect(), "sqlite")
        ledger.setup()
        saver = first.checkpointer()
        saver.setup()
        paused = take_turn(build_desk_agent(saver), ledger, "user-42:A1029", "user-42", "refund A1029 2899.00")
        assert paused.interrupted, "the run paused in the tool"
        other_ledger = RefundLedger(second.connect(), "sqlite")
        resumed = take_turn(build_desk_agent(second.checkpointer()), other_ledger, "user-42:A1029", "user-42",
                            Command(resume="approve"))
        assert "created for A1029" in resumed.reply and other_ledger.count(order_id="A1029") == 1
        # a different graph (no tools node) resumes a paused thread into nothing: no error, no refund
        from helpers import scripted_model
        paused = take_turn(build_desk_agent(saver), ledger, "other", "user-42", "refund A1029 2899.00")
        stranger = create_agent(scripted_model(["hello"]), [], checkpointer=second.checkpointer())
        out = stranger.invoke(Command(resume="approve"), {"configurable": {"thread_id": "other"}}, version="v2")
        assert paused.interrupted and not out.interrupts and out.value["messages"][-1].tool_calls
        assert other_ledger.count(order_id="A1029") == 1, "the approved call never ran"
    return pick(q, "Any process that builds the same agent")
