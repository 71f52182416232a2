"""The browser tests' one JupyterLab (``tests/lab_server.py``): shared by every test of the process,
each test in a folder of its own whose kernels go when the test ends, the others' untouched."""

from __future__ import annotations

import json
import urllib.request

from tests.lab_server import TOKEN, LabFolder, _api


def _session(lab: LabFolder, name: str) -> dict:
    """Start a kernel session for notebook ``name`` of ``lab``'s folder through the REST API (JupyterLab's
    ``POST /api/sessions``; the notebook file need not exist); return the session's JSON."""
    body = json.dumps({"path": lab.notebook(name), "type": "notebook", "name": name,
                       "kernel": {"name": "python3"}}).encode()
    request = urllib.request.Request(f"{lab.base}/api/sessions?token={TOKEN}", data=body, method="POST",
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=120) as response:
        return json.loads(response.read())


def test_one_server_serves_every_test_each_in_its_own_folder(jupyterlab):
    with jupyterlab.folder() as first:
        starts = jupyterlab.starts
        with jupyterlab.folder() as second:
            assert jupyterlab.starts == starts, "a second folder does not start a second server"
            assert second.base == first.base and second.name != first.name
            assert first.path.is_dir() and second.path.is_dir()
            kept = _session(first, "a.ipynb")
            _session(second, "b.ipynb")
            paths = {s["path"] for s in _api(first.base, "GET", "/api/sessions")}
            assert {first.notebook("a.ipynb"), second.notebook("b.ipynb")} <= paths
        left = {s["id"]: s["path"] for s in _api(first.base, "GET", "/api/sessions")}
        assert second.notebook("b.ipynb") not in left.values(), "the ended test's kernel is shut down"
        assert left.get(kept["id"]) == first.notebook("a.ipynb"), "the other test's kernel is untouched"
        assert not second.path.exists(), "the ended test's folder is removed"
    assert first.notebook("a.ipynb") not in {s["path"] for s in _api(first.base, "GET", "/api/sessions")}
    assert jupyterlab.running() and jupyterlab.starts == starts
