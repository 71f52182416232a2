"""``make new-notebook`` (:mod:`tooling.scaffold`) writes a skeleton that passes every test as it stands,
in both editions.

The scaffold runs in a scratch copy of this checkout (a temporary folder); then, in that copy, with no
other change, the tests that cover the new files run in one pytest process: strict nbval on the new
notebook and its Chinese edition, the course map, the hygiene rules, the exercise contract (hostile
answers included), the self-check questions and widget checks, the self-check's Chinese texts, the live
track for the new notebook, and the Chinese edition's freshness (every notebook's translation and build,
00's Chinese course map, the catalog, README.zh-CN.md). Then the scratch copy is committed and the new
notebook executed again in both editions: git stays clean. The messages for bad arguments are checked
without executing anything.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tooling import scaffold
from tooling.scaffold import ScaffoldError

ROOT = Path(__file__).resolve().parent.parent
_ANYWHERE = shutil.ignore_patterns(".git", ".venv", "__pycache__", "*.pyc", ".pytest_cache", ".ruff_cache",
                                   ".benchmarks", "build", "dist", "*.egg-info", "bench.json")


def _left_out(folder: str, names: list[str]) -> set[str]:
    """What a scratch copy leaves out: version control, the venv, caches, and the learner's workspace
    (the checkout's own ``workspace/``, not the package ``helpers/workspace/``)."""
    return set(_ANYWHERE(folder, names)) | ({"workspace"} & set(names) if Path(folder) == ROOT else set())


@pytest.fixture
def scratch(tmp_path) -> Path:
    copy = tmp_path / "course"
    shutil.copytree(ROOT, copy, ignore=_left_out)
    return copy


def _free_number() -> str:
    """The number after the last notebook of this checkout (the scaffold refuses a taken one)."""
    taken = [int(p.name[:2]) for p in (ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb")]
    return f"{max(taken, default=-1) + 1:02d}"


NN = _free_number()


def _env(root: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(root), env.get("PYTHONPATH", "")) if p)
    return env


def test_a_new_notebook_passes_the_tests_that_cover_it(scratch):
    made = subprocess.run([sys.executable, "-m", "tooling.scaffold", NN, "Scaffold check"], cwd=scratch,
                          env=_env(scratch), capture_output=True, text=True, timeout=600, check=False)
    assert made.returncode == 0, made.stdout + made.stderr
    names = [f"notebooks/{NN}_scaffold_check.ipynb", f"helpers/exercises/nb{NN}.py", f"tests/solutions/nb{NN}.py",
             f"helpers/selfcheck/nb{NN}.py", f"tests/selfcheck_verifiers/nb{NN}.py",
             f"translations/zh/notebooks/{NN}_scaffold_check.md", f"notebooks/zh/{NN}_scaffold_check.ipynb"]
    assert [line.removeprefix("wrote ") for line in made.stdout.splitlines()[:7]] == names
    readme = (scratch / "README.md").read_text(encoding="utf-8")
    assert f"| {NN} | [Scaffold check](notebooks/{NN}_scaffold_check.ipynb) |" in readme
    previous = sorted((scratch / "notebooks").glob("[0-9][0-9]_*.ipynb"))[-2]
    last = json.loads(previous.read_text(encoding="utf-8"))["cells"][-1]
    assert "".join(last["source"]) == f"[Next: {NN} · Scaffold check]({NN}_scaffold_check.ipynb)"

    tests = [
        f"notebooks/{NN}_scaffold_check.ipynb", f"notebooks/zh/{NN}_scaffold_check.ipynb",   # strict nbval
        "tests/test_course_map.py", "tests/test_notebook_hygiene.py", "tests/test_exercise_contract.py", "tests/test_selfcheck_questions.py",
        "tests/test_widget_self_check.py", "tests/test_live_track.py",
        "tests/test_zh_fresh.py", "tests/test_selfcheck_i18n.py",  # the Chinese edition: every notebook fresh, the catalog
    ]
    selected = (f"{NN} or course_map or up_to_date or in_the_map or registered or unique "
                "or verifier_belongs or found_by_name or listed_in_start_here or fresh or catalog or chinese_readme "
                "or nothing_is_left")
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:randomly", *tests, "-k", selected],
                         cwd=scratch, env=_env(scratch), capture_output=True, text=True, timeout=900, check=False)
    assert run.returncode == 0, run.stdout[-6000:] + run.stderr[-2000:]
    summary = run.stdout.strip().splitlines()[-1]
    assert " passed" in summary and "skipped" not in summary and "deselected" in summary, summary
    passed = int(summary.split(" passed")[0].split()[-1])
    assert passed >= 80, f"too few tests covered the new files: {summary}"

    # executing the new notebook again, in both editions, leaves the committed files as they are
    git = ["git", "-c", "user.name=course", "-c", "user.email=course@example.invalid", "-C", str(scratch)]
    for command in (["init", "-q"], ["add", "-A"], ["commit", "-q", "-m", "scaffold"]):
        subprocess.run([*git, *command], check=True, capture_output=True, timeout=300)
    for command in (["tooling.notebooks", f"notebooks/{NN}_scaffold_check.ipynb"],
                    ["tooling.translation", "build", "--force", NN]):
        again = subprocess.run([sys.executable, "-m", *command], cwd=scratch, env=_env(scratch), capture_output=True,
                               text=True, timeout=600, check=False)
        assert again.returncode == 0, again.stdout[-3000:] + again.stderr[-3000:]
    changed = subprocess.run([*git, "status", "--porcelain"], capture_output=True, text=True, check=True).stdout
    assert changed == "", f"re-executing the new notebook changed files:\n{changed}"


def test_bad_arguments_get_a_message_and_write_nothing(scratch):
    before = sorted(p.relative_to(scratch) for p in scratch.rglob("*"))
    for number, title, message in (
        ("1", "Title", "NN is a two-digit notebook number, e.g. NN=21, got '1'"),
        (NN, "", 'say the title: make new-notebook NN=21 TITLE="Tool call budgets"'),
        ("03", "Another", "notebook 03 exists already (03_toolmessage_pairing.ipynb): choose another NN"),
        (NN, "!!!", "the title '!!!' has no letters or digits"),
    ):
        with pytest.raises(ScaffoldError, match=message.replace("(", r"\(").replace(")", r"\)")):
            scaffold.new_notebook(number, title, root=scratch, execute=False)
    (scratch / "tests" / "solutions" / f"nb{NN}.py").write_text("# someone's work\n", encoding="utf-8")
    with pytest.raises(ScaffoldError, match=f"these files exist already, nothing was written: tests/solutions/nb{NN}.py"):
        scaffold.new_notebook(NN, "Streaming", root=scratch, execute=False)
    after = sorted(p.relative_to(scratch) for p in scratch.rglob("*"))
    assert set(after) ^ set(before) == {Path(f"tests/solutions/nb{NN}.py")}
    assert (scratch / "tests" / "solutions" / f"nb{NN}.py").read_text(encoding="utf-8") == "# someone's work\n"


def test_the_file_names_follow_the_title():
    assert scaffold.slug("Streaming tool calls: chunks!") == "streaming_tool_calls_chunks"
    files = scaffold.planned_files(Path("/r"), "12", "Streaming")
    assert files["notebook"] == Path("/r/notebooks/12_streaming.ipynb")
    assert files["verifiers"] == Path("/r/tests/selfcheck_verifiers/nb12.py")
    assert files["translation"] == Path("/r/translations/zh/notebooks/12_streaming.md")
    assert files["chinese"] == Path("/r/notebooks/zh/12_streaming.ipynb")


def test_the_translation_covers_every_markdown_cell_and_keeps_what_the_check_compares(tmp_path):
    """The skeleton's Chinese passes the freshness check as written (one block per Markdown cell, keyed by
    the English hash, every code span, number and glossary term kept), without executing anything."""
    from tooling.translation.check import translation_problems
    from tooling.translation.source import read_glossary

    english = tmp_path / "12_streaming.ipynb"
    english.write_text(scaffold.coursemap._dumps(scaffold.notebook_json("12", "Streaming", "one line")),
                       encoding="utf-8")
    translation = tmp_path / "12_streaming.md"
    translation.write_text(scaffold.translation_text("12", "Streaming"), encoding="utf-8")
    assert translation_problems(english, translation, read_glossary()) == []
    assert translation.read_text(encoding="utf-8").count("<!-- cell ") == 6
