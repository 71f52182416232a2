"""Issue 27: ``LANGSMITH_TRACING=true`` left in a shell must not make ``make lab``'s offline runs send
customer text to a tracing service. Only ``COURSE_LANGSMITH_TRACING=1`` lets traces go out.

The proof runs ``make lab``'s own launcher (``python -m helpers.workspace lab -- COMMAND``, which the
Makefile's ``lab`` target runs with ``jupyter lab`` as the command) with a small agent run as the
command, and a 127.0.0.1 collector as LangSmith's endpoint: without the opt-in the collector receives
nothing; with it, it receives the run, customer text included (so the proof can fail).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

from helpers.workspace.lab_env import TRACING_OPT_IN, TRACING_SWITCHES, lab_env
from tooling.kernel_env import kernel_env
from helpers.model.sdk_environment import variables_of
from tests.recording_endpoint import RecordingEndpoint

ROOT = Path(__file__).resolve().parent.parent
CUSTOMER_TEXT = "Where is order A1024? Ada Lovelace, 12 Crescent Road"

_AGENT_RUN = textwrap.dedent(f'''
    from langchain.agents import create_agent
    from langchain.tools import tool
    from langchain_core.tracers.langchain import wait_for_all_tracers

    from helpers import live_model, tool_call

    @tool
    def lookup_order(order_id: str) -> str:
        """Look up one order."""
        return f"Order {{order_id}}: delivered."

    model = live_model([[tool_call("lookup_order", {{"order_id": "A1024"}})], "Delivered."])
    agent = create_agent(model, tools=[lookup_order])
    agent.invoke({{"messages": [("user", {CUSTOMER_TEXT!r})]}})
    wait_for_all_tracers()
    print("the agent ran")
''')


def test_the_switches_are_the_ones_langsmith_reads():
    """Each of :data:`TRACING_SWITCHES` (but the retired v1 handler) turns langsmith 0.15.1's tracing on."""
    probe = textwrap.dedent('''
        import json, os, sys
        from langsmith import utils
        on = {}
        for name in json.loads(sys.argv[1]):
            os.environ[name] = "true"
            utils.get_env_var.cache_clear()
            on[name] = utils.tracing_is_enabled()
            del os.environ[name]
        print(json.dumps(on))
    ''')
    switches = [name for name in TRACING_SWITCHES if name != "LANGCHAIN_HANDLER"]
    env = {k: v for k, v in os.environ.items() if not k.startswith(("LANGSMITH_", "LANGCHAIN_"))}
    done = subprocess.run([sys.executable, "-c", probe, json.dumps(switches)], env=env, capture_output=True,
                          text=True, timeout=60, check=True)
    assert json.loads(done.stdout) == dict.fromkeys(switches, True)
    assert set(TRACING_SWITCHES) <= set(variables_of("tracing")), "the SDK table lists every switch"


def _lab(command: list[str], env: dict[str, str], workspace: Path) -> subprocess.CompletedProcess:
    """``make lab``'s launcher, with ``command`` in place of ``jupyter lab``."""
    full = {**env, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH", "")])),
            "COURSE_WORKSPACE": str(workspace)}
    return subprocess.run([sys.executable, "-m", "helpers.workspace", "lab", "--", *command], env=full, cwd=ROOT,
                          capture_output=True, text=True, timeout=120)


def test_make_lab_sends_no_trace_unless_the_learner_opts_in(tmp_path):
    """Before: ``make lab`` passed the shell's ``LANGSMITH_TRACING=true`` to every kernel, and each run of
    a notebook (an offline one too) went to ``LANGSMITH_ENDPOINT`` with the customer's message in it."""
    with RecordingEndpoint() as collector:
        env = {**os.environ, "LANGSMITH_TRACING": "true", "LANGCHAIN_TRACING_V2": "true", "LANGSMITH_ENDPOINT": collector.url,
               "LANGSMITH_API_KEY": "lsv2_pt_course_test_0123456789"}
        env.pop(TRACING_OPT_IN, None)
        done = _lab([sys.executable, "-c", _AGENT_RUN], env, tmp_path)
        assert done.returncode == 0 and "the agent ran" in done.stdout, done.stderr
        assert collector.received == [], "nothing may reach the tracing service"
        switches = "LANGSMITH_TRACING, LANGCHAIN_TRACING_V2"
        assert done.stderr.startswith(f"LangSmith tracing is switched on in this shell ({switches}): the course's "
                                      "kernels start without it, so nothing is sent to LangSmith. To send traces, "
                                      f"start with {TRACING_OPT_IN}=1 make lab.")
        # opted in, the same run is traced: the collector can see what the course prevented
        done = _lab([sys.executable, "-c", _AGENT_RUN], {**env, TRACING_OPT_IN: "1"}, tmp_path)
        assert done.returncode == 0 and "the agent ran" in done.stdout, done.stderr
        assert done.stderr.startswith(f"{TRACING_OPT_IN} is set: LangSmith tracing stays on ({switches})")
    bodies = b"".join(request.body for request in collector.received)
    assert collector.received and b"A1024" in bodies, "the opted-in run reached the collector"


def test_make_lab_starts_jupyterlab_through_that_launcher():
    recipe = subprocess.run(["make", "-n", "lab"], cwd=ROOT, capture_output=True, text=True, timeout=60).stdout
    (line,) = [line for line in recipe.splitlines() if "jupyter" in line and " lab " in line]
    assert "-m helpers.workspace lab -- " in line, line


def test_the_launcher_keeps_everything_else_and_runs_in_the_workspace(tmp_path):
    env = {**os.environ, "LANGSMITH_TRACING": "true", "COURSE_MODEL": "qwen2.5:7b", "LANGSMITH_PROJECT": "p"}
    env.pop(TRACING_OPT_IN, None)
    done = _lab([sys.executable, "-c", "import os, json; print(json.dumps([os.getcwd(), dict(os.environ)]))"],
                env, tmp_path)
    cwd, seen = json.loads(done.stdout)
    assert Path(cwd) == tmp_path
    assert "LANGSMITH_TRACING" not in seen and seen["COURSE_MODEL"] == "qwen2.5:7b" and seen["LANGSMITH_PROJECT"] == "p"
    assert _lab([], env, tmp_path).stderr.startswith("error: say what to start")
    assert _lab(["no-such-program-here"], env, tmp_path).stderr.splitlines()[-1] == (
        "error: cannot start no-such-program-here: No such file or directory")


def test_the_course_s_own_runs_never_trace_even_opted_in():
    """The notebook runner, make bench and the test suite (:func:`kernel_env`) drop every switch."""
    env = {**dict.fromkeys(TRACING_SWITCHES, "true"), TRACING_OPT_IN: "1"}
    lab, switches = lab_env(env)
    assert switches == list(TRACING_SWITCHES) and set(TRACING_SWITCHES) <= set(lab)
    os_environ = dict(os.environ)
    try:
        os.environ.update(env)
        assert not set(TRACING_SWITCHES) & set(kernel_env()) and not set(TRACING_SWITCHES) & set(kernel_env(offline=False))
    finally:
        os.environ.clear()
        os.environ.update(os_environ)
