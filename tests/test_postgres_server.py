"""The course's PostgreSQL server (helpers/postgres/server.py): started, reachable only by its socket, stopped
with its owner however the owner ends, and what a killed one leaves behind swept away.

Each test that needs PostgreSQL starts its own server; where PostgreSQL is not installed they are skipped
with the reason (CI installs it: .ci/run), except the tests of what happens without it.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from helpers.postgres import LocalPostgres, PostgresUnavailable, find_installation, server_user, sweep
from helpers.postgres.server import _alive
from tests.postgres_here import needs_postgres

#: ``make check NB=18`` (``pytest --notebook 18``) runs this module: it tests what the notebook uses.
pytestmark = pytest.mark.notebook("18")

ROOT = Path(__file__).resolve().parent.parent


OWNER = """
import json, sys, time
from helpers.postgres import LocalPostgres
server = LocalPostgres.start(base=sys.argv[1])
print(json.dumps([str(server.folder), server.supervisor_pid, server.postmaster_pid]), flush=True)
time.sleep(600)
"""


@pytest.fixture
def base():
    """A folder for instance folders that the server's user may enter (pytest's tmp_path is private to
    root, and as root the server runs as the postgres user)."""
    folder = Path(tempfile.mkdtemp(prefix="course-pg-test-", dir="/tmp"))
    folder.chmod(0o755)
    yield folder
    sweep(folder)
    shutil.rmtree(folder, ignore_errors=True)


def _wait(condition, seconds: float = 30.0) -> bool:
    """Poll ``condition`` until it holds or ``seconds`` pass (a bound for a busy machine, not a speed test)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return condition()


def _owner(base: Path) -> tuple[subprocess.Popen, Path, int, int]:
    """A separate Python process that starts a server under ``base`` and then waits (to be killed)."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    process = subprocess.Popen([sys.executable, "-c", OWNER, str(base)], stdout=subprocess.PIPE, text=True, env=env)
    line = process.stdout.readline()
    assert line, "the owner process did not start a server"
    folder, supervisor_pid, postmaster_pid = json.loads(line)
    return process, Path(folder), supervisor_pid, postmaster_pid


def _uid(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("Uid:"):
            return int(line.split()[1])
    raise AssertionError("no Uid line")


@needs_postgres
def test_a_server_starts_answers_on_its_socket_only_and_stops_leaving_nothing(base):
    import psycopg

    with LocalPostgres.start(base=base) as server:
        assert server.running and server.folder.parent == base
        assert (server.folder / ".s.PGSQL.5432").exists(), "the socket is in the instance folder"
        with psycopg.connect(server.conninfo) as conn:
            assert conn.execute("SHOW listen_addresses").fetchone() == ("",), "no TCP port"
            assert conn.execute("SELECT current_user").fetchone() == ("course",)
        if os.geteuid() == 0:  # PostgreSQL refuses root: the server runs as the postgres user
            assert server.user == "postgres" and _uid(server.postmaster_pid) != 0
        else:
            assert server.user is None and _uid(server.postmaster_pid) == os.geteuid()
        assert os.getpgid(server.supervisor_pid) != os.getpgid(0), (
            "the supervisor has a session of its own: a kernel interrupt (SIGINT to the kernel's group) "
            "does not stop the server")
        postmaster, folder = server.postmaster_pid, server.folder
    assert not server.running and not _alive(postmaster)
    assert not folder.exists(), "stop() removes the folder: data, socket, lock and pid files"
    server.stop()  # idempotent


@needs_postgres
def test_a_killed_owner_takes_its_server_with_it(base):
    owner, folder, supervisor_pid, postmaster_pid = _owner(base)
    assert _alive(postmaster_pid) and folder.exists()
    owner.kill()  # SIGKILL: no atexit, no cleanup code of the owner runs
    owner.wait()
    assert _wait(lambda: not _alive(postmaster_pid) and not folder.exists() and not _alive(supervisor_pid)), (
        "the supervisor saw its stdin close, stopped the server, removed the folder and ended")


@needs_postgres
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the parent-death signal is Linux's")
def test_a_killed_supervisor_takes_the_server_with_it_and_the_next_start_sweeps_the_folder(base):
    owner, folder, supervisor_pid, postmaster_pid = _owner(base)
    try:
        os.kill(supervisor_pid, signal.SIGKILL)
        assert _wait(lambda: not _alive(postmaster_pid)), "PR_SET_PDEATHSIG stopped the server"
        assert folder.exists() and (folder / "data").exists(), "nobody was left to remove the folder"
        assert sweep(base) == [folder.name] and not folder.exists()
    finally:
        owner.kill()
        owner.wait()


def test_sweep_removes_orphans_with_stale_pid_and_socket_files_and_keeps_the_rest(tmp_path):
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()  # a pid that no longer runs
    orphan = tmp_path / "pg-orphan"
    (orphan / "data").mkdir(parents=True)
    (orphan / "supervisor.pid").write_text(f"{dead.pid}\n")
    (orphan / "data" / "postmaster.pid").write_text(f"{dead.pid}\n{orphan / 'data'}\n")
    (orphan / ".s.PGSQL.5432.lock").write_text(f"{dead.pid}\n")
    starting = tmp_path / "pg-starting"  # no supervisor.pid yet, just made: being set up
    starting.mkdir()
    # a living process whose command line names the supervisor's script: its folder is in use
    living = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)", "supervisor.py"])
    alive = tmp_path / "pg-alive"
    alive.mkdir()
    (alive / "supervisor.pid").write_text(f"{living.pid}\n")
    # a living process that is no supervisor (where /proc can tell): a pid reused by another program
    reused = tmp_path / "pg-reused"
    reused.mkdir()
    (reused / "supervisor.pid").write_text(f"{os.getpid()}\n")
    other = tmp_path / "not-ours"
    other.mkdir()
    try:
        removed = sorted(sweep(tmp_path))
    finally:
        living.kill()
        living.wait()
    proc = Path("/proc/self/cmdline").exists()
    assert removed == (["pg-orphan", "pg-reused"] if proc else ["pg-orphan"]) and not orphan.exists()
    assert starting.exists() and other.exists() and alive.exists()
    assert sweep(tmp_path / "missing") == []


def test_turned_off_or_missing_postgresql_is_a_clear_reason():
    with pytest.raises(PostgresUnavailable, match=r"turned off here \(COURSE_POSTGRES=off\)"):
        find_installation({"COURSE_POSTGRES": "off"})
    with pytest.raises(PostgresUnavailable, match="COURSE_POSTGRES_BINDIR=/nonexistent holds no initdb"):
        find_installation({"COURSE_POSTGRES_BINDIR": "/nonexistent"})


@pytest.mark.skipif(os.geteuid() != 0, reason="only root must run the server as another user")
def test_as_root_the_server_needs_a_user_to_run_as():
    with pytest.raises(PostgresUnavailable, match="no user 'no-such-user-here' to run it as"):
        server_user({"COURSE_POSTGRES_USER": "no-such-user-here"})
    with pytest.raises(PostgresUnavailable, match="is root"):
        server_user({"COURSE_POSTGRES_USER": "root"})


@needs_postgres
def test_a_server_that_cannot_start_says_why_and_leaves_nothing(base):
    fake = base / "bin"
    fake.mkdir()
    for name in ("initdb", "postgres"):
        program = fake / name
        program.write_text("#!/bin/sh\necho 'simulated failure' >&2\nexit 3\n")
        program.chmod(0o755)
    servers = base / "servers"
    with pytest.raises(PostgresUnavailable, match=r"did not start: initdb failed \(exit status 3\): simulated failure"):
        LocalPostgres.start(installation=find_installation({"COURSE_POSTGRES_BINDIR": str(fake)}), base=servers)
    assert list(servers.iterdir()) == []
