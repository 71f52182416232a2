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

import socket
import threading

import nbformat
import pytest

from helpers.notebooks import NOTEBOOK_DIR, course_notebooks, kernel_env, run_notebook

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


@pytest.mark.run_last
def test_no_notebook_connected_out(offline_guard, tmp_path):
    notebooks = course_notebooks(NOTEBOOK_DIR)
    assert notebooks
    not_run = [p for p in notebooks if p.resolve() not in offline_guard.nbval_notebooks]
    for path in not_run:  # strict nbval did not run it in this session: run it here, guarded, not in place
        nb = nbformat.read(path, as_version=4)
        run_notebook(nb, path=path, cwd=path.parent, timeout=600, allow_errors=True)  # os.environ is guarded
    entries = offline_guard.entries()
    kernels = [e for e in entries if e["event"] == "guard.start" and "ipykernel_launcher" in " ".join(e["argv"])]
    assert len(kernels) >= len(notebooks), f"only {len(kernels)} guarded kernels for {len(notebooks)} notebooks"
    refused = [e for e in entries if e["event"] != "guard.start"]
    assert not refused, "connections out of the machine while the notebooks ran offline:\n" + "\n".join(
        f"  {e['event']} {e['target']} from pid {e['pid']} ({' '.join(e['argv'])}) in {e['cwd']}" for e in refused)
