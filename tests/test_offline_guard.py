"""The offline guarantee: with no model configured, executing the notebooks opens no connection but loopback.

The guard (``tests/offline_guard/sitecustomize.py``, installed in every kernel by ``tests/conftest.py``)
refuses and logs any non-loopback connection or name lookup. Two proofs:

* the guard works: in a real kernel (and in a process that kernel starts, as notebook 08 does), a
  connection to a non-loopback address and a DNS lookup are refused and logged, a loopback connection
  to a server this test starts is not;
* no notebook connects out: after every notebook ran in this session (under strict nbval, or here with
  nbclient when nbval did not run it), the session's log holds no refused attempt.
"""

from __future__ import annotations

import json
import socket
import threading

import nbformat
import pytest

from tooling.notebooks import kernel_env, run_notebook

PROBE = r'''
import socket, subprocess, sys, urllib.request

def attempt(label, action):
    try:
        action()
        print(label, "connected")
    except OSError as exc:
        print(label, type(exc).__name__, str(exc))

def outside():
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.settimeout(3)
        s.connect(("192.0.2.1", 9))  # TEST-NET-1: never a real host

def loopback():
    with socket.create_connection(("127.0.0.1", PORT), timeout=3) as s:
        s.sendall(b"ping")

attempt("outside:", outside)
attempt("lookup:", lambda: socket.getaddrinfo("example.com", 443))
attempt("http:", lambda: urllib.request.urlopen("http://203.0.113.7/", timeout=3))
attempt("loopback:", loopback)
child = subprocess.run([sys.executable, "-c", "import socket; socket.create_connection(('198.51.100.3', 80), timeout=3)"],
                       capture_output=True, text=True, timeout=60)
print("child:", child.returncode, child.stderr.strip().splitlines()[-1])
'''


@pytest.fixture
def loopback_server():
    """A TCP server on 127.0.0.1 that accepts connections (stopped after the test)."""
    server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    server.bind(("127.0.0.1", 0))
    server.listen()
    server.settimeout(0.2)
    accepted = []
    stop = threading.Event()

    def serve():
        while not stop.is_set():
            try:
                conn, _ = server.accept()
            except OSError:
                continue
            accepted.append(conn.recv(16))
            conn.close()

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    yield server.getsockname()[1], accepted
    stop.set()
    thread.join(timeout=5)
    server.close()


def test_guard_refuses_and_records_outside_connections_in_a_real_kernel(tmp_path, loopback_server, offline_guard):
    port, accepted = loopback_server
    log = tmp_path / "guard.jsonl"
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(PROBE.replace("PORT", str(port)))])
    run_notebook(nb, path=tmp_path / "probe.ipynb", cwd=tmp_path, timeout=120,
                 env=kernel_env(extra=offline_guard.env(log)))
    out = "".join(o.get("text", "") for o in nb.cells[0].outputs)
    lines = dict(line.split(" ", 1) for line in out.strip().splitlines())
    assert lines["outside:"] == ("ConnectionRefusedError [Errno 111] offline guard: connection to 192.0.2.1:9 "
                                 "refused (the course runs offline; only loopback is allowed)")
    assert lines["lookup:"].startswith("gaierror [Errno -2] offline guard: name lookup of example.com refused")
    assert "offline guard: connection to 203.0.113.7:80 refused" in lines["http:"]
    assert lines["loopback:"] == "connected" and accepted == [b"ping"], "loopback stays open"
    assert lines["child:"].startswith("1 ConnectionRefusedError: [Errno 111] offline guard: connection to 198.51.100.3:80")

    entries = offline_guard.read(log)
    refused = [(e["event"], e["target"]) for e in entries if e["event"] != "guard.start"]
    assert refused == [("socket.connect", "192.0.2.1:9"), ("socket.getaddrinfo", "example.com"),
                       ("socket.connect", "203.0.113.7:80"), ("socket.connect", "198.51.100.3:80")]
    starts = [e for e in entries if e["event"] == "guard.start"]
    assert any("ipykernel_launcher" in " ".join(e["argv"]) for e in starts), "the kernel was guarded"
    assert any(e["argv"][1:2] == ["-c"] for e in starts), "so was the process it started"
    kernel_pid = next(e["pid"] for e in starts if "ipykernel_launcher" in " ".join(e["argv"]))
    assert {e["pid"] for e in entries if e["target"] == "192.0.2.1:9"} == {kernel_pid}


@pytest.mark.offline_proof
def test_no_notebook_connected_out(offline_guard):
    # In one process this runs last; under xdist the workers leave it out and the controller runs the
    # same proof (OfflineGuard.prove) over every worker's log after all of them finished.
    problems = offline_guard.prove()
    assert not problems, "the offline proof failed:\n" + "\n".join(problems)


def _log(folder, worker, *entries, start_worker=None):
    log = folder / f"{worker}.jsonl"
    lines = [{"event": "session.start", "target": "", "worker": start_worker or worker, "pid": 1}, *entries]
    log.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    return log


def _kernels(n):
    return [{"event": "guard.start", "target": "", "pid": 100 + i, "argv": ["python", "-m", "ipykernel_launcher"],
             "cwd": "/nb"} for i in range(n)]


def test_the_proof_reads_every_workers_log_together(tmp_path, offline_guard):
    logs = {"gw0": _log(tmp_path, "gw0", *_kernels(2)), "gw1": _log(tmp_path, "gw1", *_kernels(1))}
    assert offline_guard.check(logs, 3) == []
    assert offline_guard.check(logs, 4) == ["only 3 guarded kernels for 4 notebooks"]
    refused = {"event": "socket.connect", "target": "192.0.2.1:443", "pid": 101, "argv": ["python", "-m",
               "ipykernel_launcher"], "cwd": "/nb"}
    logs["gw1"] = _log(tmp_path, "gw1", *_kernels(1), refused)
    assert offline_guard.check(logs, 3) == [
        "connection out of the machine while the notebooks ran offline: socket.connect 192.0.2.1:443 "
        "from pid 101 (python -m ipykernel_launcher) in /nb"]


def test_the_proof_fails_when_a_workers_log_or_record_is_missing(tmp_path, offline_guard):
    good = _log(tmp_path, "gw0", *_kernels(3))
    assert offline_guard.check({"gw0": good, "gw1": None}, 3) == [
        "worker gw1 handed back no guard record (it crashed or was stopped): its kernels' connections cannot "
        "be checked"]
    assert offline_guard.check({"gw0": good, "gw1": tmp_path / "gw1.jsonl"}, 3) == [
        "the guard log of gw1 (gw1.jsonl) is missing or was not started by it"]
    stolen = _log(tmp_path, "gw2", start_worker="gw0")
    assert offline_guard.check({"gw0": good, "gw2": stolen}, 3) == [
        "the guard log of gw2 (gw2.jsonl) is missing or was not started by it"]


class _Hooks:
    def __init__(self):
        self.reports = []

    def pytest_runtest_logstart(self, nodeid, location):
        pass

    def pytest_runtest_logreport(self, report):
        self.reports.append(report)

    def pytest_runtest_logfinish(self, nodeid, location):
        pass


class _Node:
    def __init__(self, worker, output=None):
        self.gateway = type("Gateway", (), {"id": worker})()
        self.workerinput = {"workerid": worker}
        if output is not None:
            self.workeroutput = output


def _controller(tmp_path):
    from conftest import XDIST_KEY, OfflineGuard, _ControllerProof

    guard = OfflineGuard(tmp_path / "controller.jsonl", tmp_path, "controller")
    _log(tmp_path, "controller")
    config = type("Config", (), {"hook": _Hooks()})()
    return _ControllerProof(config, guard), config.hook.reports, XDIST_KEY


def _every_notebook():
    """Every notebook the proof covers (both editions), as the workers report them: none is left to run."""
    from conftest import OfflineGuard

    return [str(p.resolve()) for p in OfflineGuard.notebooks()]


def test_the_xdist_controller_reports_the_proof_under_the_tests_name(tmp_path):
    controller, reports, key = _controller(tmp_path)
    every = _every_notebook()
    for worker, share in (("gw0", every[::2]), ("gw1", every[1::2])):
        node = _Node(worker)
        controller.pytest_configure_node(node)
        assert node.workerinput[key] == str(tmp_path)
        _log(tmp_path, worker, *_kernels(len(share)))
        node.workeroutput = {key: {"nbval_notebooks": share, "proof_requested": worker == "gw1"}}
        controller.pytest_testnodedown(node, None)
    controller._prove()
    assert [(r.nodeid, r.when, r.outcome) for r in reports] == [
        ("tests/test_offline_guard.py::test_no_notebook_connected_out", "setup", "passed"),
        ("tests/test_offline_guard.py::test_no_notebook_connected_out", "call", "passed"),
        ("tests/test_offline_guard.py::test_no_notebook_connected_out", "teardown", "passed")]


def test_a_crashed_worker_fails_the_xdist_proof(tmp_path):
    controller, reports, key = _controller(tmp_path)
    every = _every_notebook()
    good, crashed = _Node("gw0"), _Node("gw1")
    for node in (good, crashed):
        controller.pytest_configure_node(node)
    _log(tmp_path, "gw0", *_kernels(len(every)))
    good.workeroutput = {key: {"nbval_notebooks": every, "proof_requested": True}}
    controller.pytest_testnodedown(good, None)
    controller.pytest_testnodedown(crashed, "worker 'gw1' crashed while running 'x'")
    controller._prove()
    call = next(r for r in reports if r.when == "call")
    assert call.outcome == "failed"
    assert "worker gw1 handed back no guard record" in str(call.longrepr)


POSTGRES_PROBE = r'''
import asyncio, sys
import psycopg

def attempt(label, action):
    try:
        action()
        print(label, "connected")
    except psycopg.OperationalError as exc:
        print(label, str(exc).splitlines()[0])

attempt("address:", lambda: psycopg.connect("host=192.0.2.1 port=5432 connect_timeout=3"))
attempt("keyword:", lambda: psycopg.connect("dbname=x", hostaddr="198.51.100.3", connect_timeout=3))
attempt("async:", lambda: asyncio.run(psycopg.AsyncConnection.connect("host=203.0.113.7 connect_timeout=3")))
attempt("socket:", lambda: psycopg.connect(f"host={sys.argv[1]} port=5432 connect_timeout=3"))
attempt("loopback:", lambda: psycopg.connect("host=127.0.0.1 port=9 connect_timeout=3"))
'''


def test_guard_refuses_and_records_psycopg_connections_out_of_the_machine(tmp_path, offline_guard):
    # libpq opens its sockets in C, out of the audit hook's sight: the guard wraps psycopg's connect instead
    import subprocess
    import sys

    log = tmp_path / "guard.jsonl"
    done = subprocess.run([sys.executable, "-c", POSTGRES_PROBE, str(tmp_path)], capture_output=True, text=True,
                          timeout=120, env={**kernel_env(extra=offline_guard.env(log))})
    lines = dict(line.split(" ", 1) for line in done.stdout.strip().splitlines())
    for label, target in (("address:", "192.0.2.1"), ("keyword:", "198.51.100.3"), ("async:", "203.0.113.7")):
        assert lines[label] == (f"offline guard: connection to {target} refused (the course runs offline; only "
                                "loopback and Unix sockets are allowed)"), done.stderr
    assert "offline guard" not in lines["socket:"] and "No such file or directory" in lines["socket:"]
    assert "offline guard" not in lines["loopback:"] and "refused" in lines["loopback:"]
    refused = [(e["event"], e["target"]) for e in offline_guard.read(log) if e["event"] != "guard.start"]
    assert refused == [("psycopg.connect", "192.0.2.1"), ("psycopg.connect", "198.51.100.3"),
                       ("psycopg.connect", "203.0.113.7")]
