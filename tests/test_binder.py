"""The Binder / JupyterHub image (binder/, repo2docker conventions), without Docker.

* repo2docker (``requirements-instructor.txt``; this interpreter's, or ``COURSE_INSTRUCTOR_PYTHON``'s,
  else skipped with the reason) renders the image's build with ``--no-build``: Python 3.11 (and,
  without ``runtime.txt``, not 3.11: the file is what pins it), the pinned requirements installed
  after the repository is copied (``binder/requirements.txt`` reads ``../requirements.txt``), ``binder/start``
  as the entry point (it puts the repository on ``PYTHONPATH``: the helpers are not installed).
* nbgitpuller (also an instructor requirement) pulls the course from a local upstream twice; the
  workspace sync after each pull brings the update in and keeps a learner's edit.
* The replay (:mod:`tests.binder_replay`): ``binder/start`` on a temporary copy of the course creates
  the workspace as ``make lab`` does, the server it starts answers on 127.0.0.1 and its default URL is
  the workspace's notebook 00, a second start keeps a learner's edit, and notebook 00 executes in the
  workspace without an error.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from tests.binder_replay import (ROOT, course_copy, image_env, instructor_python, run_start_notebook,
                                 started_image)


def test_binder_folder_pins_python_311_and_the_course_requirements():
    assert (ROOT / "binder" / "runtime.txt").read_text().strip() == "python-3.11"
    lines = [l.strip() for l in (ROOT / "binder" / "requirements.txt").read_text().splitlines()]
    assert [l for l in lines if l and not l.startswith("#")] == ["-r ../requirements.txt"]
    assert os.access(ROOT / "binder" / "start", os.X_OK)


REPO2DOCKER = [python, "-m", "repo2docker"] if (python := instructor_python("repo2docker")) else None


def _rendered(repo: Path) -> str:
    done = subprocess.run([*REPO2DOCKER, "--no-build", "--debug", "--user-id", "1000", "--user-name", "jovyan",
                           str(repo)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout + done.stderr


@pytest.mark.skipif(REPO2DOCKER is None, reason="jupyter-repo2docker is not installed (optional: pip install -r "
                    "requirements-instructor.txt, or set COURSE_INSTRUCTOR_PYTHON to a Python that has it; .ci/run does)")
def test_repo2docker_renders_a_python_311_build_that_installs_the_pins_and_starts_with_binder_start(tmp_path):
    repo = course_copy(tmp_path / "repo")
    build = _rendered(repo)
    assert "Building conda environment for python=3.11" in build
    copied = build.index("COPY --chown=1000:1000 src/ ${REPO_DIR}/")
    installed = build.index('pip install --no-cache-dir -r "binder/requirements.txt"')
    assert copied < installed  # binder/requirements.txt reads ../requirements.txt: the repository is in place
    assert 'ENV R2D_ENTRYPOINT="${REPO_DIR}/binder/start"' in build
    (repo / "binder" / "runtime.txt").unlink()
    assert "python=3.11" not in _rendered(repo)  # runtime.txt is what holds Python at 3.11


def test_the_replayed_image_syncs_the_workspace_opens_notebook_00_and_keeps_an_edit(tmp_path):
    repo = course_copy(tmp_path / "repo")
    assert not (repo / "workspace").exists()
    with started_image(repo, tmp_path) as server:
        status, location, _ = server.get("/")
        assert status == 302 and location.startswith("/lab/tree/workspace/00_start_here.ipynb")
        status, _, page = server.get(location)
        assert status == 200 and b"JupyterLab" in page
        status, _, body = server.get("/api/contents/workspace/00_start_here.ipynb")
        assert status == 200 and json.loads(body)["type"] == "notebook"
    workspace = repo / "workspace"
    course = sorted(p.name for p in (repo / "notebooks").glob("*.ipynb"))
    assert sorted(p.name for p in workspace.glob("*.ipynb")) == course

    edited = nbformat.read(workspace / "03_toolmessage_pairing.ipynb", as_version=4)
    edited.cells[0].source += "\n\nmy note"
    nbformat.write(edited, workspace / "03_toolmessage_pairing.ipynb")
    (workspace / "01_function_to_tool.ipynb").unlink()
    with started_image(repo, tmp_path) as server:  # the next container start: a course update comes in
        assert server.get("/")[0] == 302
    again = nbformat.read(workspace / "03_toolmessage_pairing.ipynb", as_version=4)
    assert again.cells[0].source.endswith("my note")
    assert (workspace / "01_function_to_tool.ipynb").exists()


def test_the_default_url_follows_a_workspace_elsewhere_and_is_left_alone_outside_the_server_folder(tmp_path):
    repo = course_copy(tmp_path / "repo")
    env = image_env(repo, tmp_path) | {"COURSE_WORKSPACE": str(repo / "my work")}
    shown = subprocess.run([str(repo / "binder" / "start"), "sh", "-c", 'echo; cat "${JUPYTER_CONFIG_PATH%%:*}"/*.json'],
                           cwd=repo, env=env, capture_output=True, text=True, timeout=300)
    assert json.loads(shown.stdout.splitlines()[-1])["ServerApp"]["default_url"] == "/lab/tree/my%20work/00_start_here.ipynb"
    env["COURSE_WORKSPACE"] = str(tmp_path / "elsewhere")
    shown = subprocess.run([str(repo / "binder" / "start"), "sh", "-c", 'echo "config=${JUPYTER_CONFIG_PATH:-}"'],
                           cwd=repo, env=env, capture_output=True, text=True, timeout=300)
    assert shown.stdout.splitlines()[-1] == "config=" and (tmp_path / "elsewhere" / "00_start_here.ipynb").exists()


def test_notebook_00_executes_in_the_replayed_workspace(tmp_path):
    repo = course_copy(tmp_path / "repo")
    subprocess.run([str(repo / "binder" / "start"), "true"], cwd=repo, env=image_env(repo, tmp_path), check=True,
                   timeout=300)
    executed, _ = run_start_notebook(repo, repo / "workspace", tmp_path)
    errors = [o for c in executed.cells if c.cell_type == "code" for o in c.get("outputs", [])
              if o.get("output_type") == "error"]
    assert executed.cells and not errors
    shutil.rmtree(repo)


def test_the_guides_hub_config_opens_notebook_00_in_the_workspace_and_uses_a_keyless_model_server():
    import yaml

    from helpers.model.factory import is_private_endpoint

    guide = (ROOT / "docs" / "teaching.md").read_text(encoding="utf-8")
    block = next(b for b in guide.split("```yaml\n")[1:] if b.startswith("singleuser:")).split("```")[0]
    single = yaml.safe_load(block)["singleuser"]
    workspace = single["extraEnv"]["COURSE_WORKSPACE"]
    assert os.path.isabs(workspace)
    relative = os.path.relpath(workspace, single["notebookDir"])
    assert single["defaultUrl"] == f"/lab/tree/{relative}/00_start_here.ipynb"
    assert is_private_endpoint(single["extraEnv"]["OPENAI_BASE_URL"])
    assert "COURSE_MODEL_API_KEY" not in single["extraEnv"]
    assert not is_private_endpoint("http://vllm.course.svc:8000/v1")  # the guide warns about this form


PULLER = instructor_python("nbgitpuller")

_PULL = """
import sys
from nbgitpuller.pull import GitPuller
for line in GitPuller(sys.argv[1], sys.argv[2], branch="main").pull():
    print(line, end="")
"""


def _git(folder: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=folder, check=True, capture_output=True, text=True,
                          env=os.environ | {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t",
                                            "GIT_COMMITTER_EMAIL": "t@t"}).stdout


def _add_cell(path: Path, text: str) -> None:
    nb = nbformat.read(path, as_version=4)
    nb.cells.append(nbformat.v4.new_markdown_cell(text))
    nbformat.write(nb, path)


@pytest.mark.skipif(PULLER is None, reason="nbgitpuller is not installed (optional: pip install -r "
                    "requirements-instructor.txt, or set COURSE_INSTRUCTOR_PYTHON to a Python that has it; .ci/run does)")
def test_an_nbgitpuller_update_reaches_the_workspace_and_never_overwrites_an_edit(tmp_path):
    upstream = course_copy(tmp_path / "upstream")
    _git(upstream, "init", "-q", "-b", "main")
    _git(upstream, "add", "-A")
    _git(upstream, "commit", "-q", "-m", "the course")
    clone, env = tmp_path / "home" / "course", image_env(tmp_path / "home" / "course", tmp_path)

    def pull_and_sync() -> None:  # the link's pull, then the sync the guide says to run in the clone
        subprocess.run([PULLER, "-c", _PULL, f"file://{upstream}", str(clone)], check=True, env=env, timeout=300,
                       capture_output=True)
        subprocess.run([sys.executable, "-m", "helpers.workspace", "sync"], cwd=clone, env=env, check=True,
                       timeout=300, capture_output=True)

    pull_and_sync()
    workspace = clone / "workspace"
    _add_cell(workspace / "03_toolmessage_pairing.ipynb", "my note")            # the learner's edit
    _add_cell(upstream / "notebooks" / "03_toolmessage_pairing.ipynb", "course update 03")
    _add_cell(upstream / "notebooks" / "02_tool_calls_are_requests.ipynb", "course update 02")
    _git(upstream, "commit", "-q", "-am", "mid-term update")
    pull_and_sync()

    def last(name: str) -> str:
        return nbformat.read(workspace / name, as_version=4).cells[-1].source

    assert last("02_tool_calls_are_requests.ipynb") == "course update 02"  # not edited: updated
    assert last("03_toolmessage_pairing.ipynb") == "my note"               # edited: kept
    assert last("../notebooks/03_toolmessage_pairing.ipynb") == "course update 03"
    assert _git(clone, "status", "--porcelain") == ""  # the workspace is git-ignored: the pull never sees it
