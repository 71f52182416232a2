# Two commands do all the set-up:  make lab  (open your copy of the course)  and  make test  (run every check).
# Both create or refresh the local venv (.venv) from requirements.txt when it is missing or older.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.requirements-installed
# The tests and the committed outputs are offline: a real-model configuration must not leak in.
OFFLINE := env -u COURSE_MODEL -u OPENAI_BASE_URL -u OPENAI_API_KEY -u DASHSCOPE_API_KEY -u COURSE_MODEL_API_KEY
# The test commands keep Python's bytecode caches even where the machine turns them off (container images often set
# PYTHONDONTWRITEBYTECODE=1): without them every test process and subprocess recompiles the helpers it imports, and
# pytest rewrites the asserts of every test module again (5 s of each worker's collection).
CACHED := env -u PYTHONDONTWRITEBYTECODE
# Every command, JupyterLab and every kernel it starts import helpers/ and tooling/ from this checkout, never an
# installed copy: nothing is installed from the checkout (no `pip install -e .`), so two clones may share a venv.
export PYTHONPATH := $(CURDIR)$(if $(PYTHONPATH),:$(PYTHONPATH),)
# Jupyter refuses to run as root unless told; containers and CI machines often are root.
LAB_FLAGS := $(if $(filter 0,$(shell id -u)),--allow-root,)
# JupyterLab defaults for this venv (your own JupyterLab settings still win): no pop-up asking to fetch
# Jupyter news over the first screen, and no update check (both would reach the network).
LAB_OVERRIDES := $(VENV)/share/jupyter/lab/settings/overrides.json
# The Chinese edition's JupyterLab settings: the same defaults, and the interface in Chinese (zh_CN).
LAB_ZH_SETTINGS := $(VENV)/share/jupyter/lab/settings-zh
LAB_ZH_OVERRIDES := $(LAB_ZH_SETTINGS)/overrides.json
LAB_EDITION_FLAGS := $(if $(filter zh zh-CN zh_CN zh-cn zh_cn,$(COURSE_LANG)),--LabApp.app_settings_dir="$(abspath $(LAB_ZH_SETTINGS))",)

.PHONY: lab status reset test check nbval notebooks format bench drift clean-venv zh catalogs venv postgres

$(STAMP): requirements.txt pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --disable-pip-version-check -q -r requirements.txt
	@# A venv made when requirements.txt installed the helpers with -e . would still import that checkout's
	@# helpers in a kernel started without this Makefile: remove that install.
	$(BIN)/python -m pip uninstall --disable-pip-version-check -q -y tool-calling-course-helpers 2>/dev/null || true
	touch $(STAMP)

$(LAB_OVERRIDES): $(STAMP)
	mkdir -p "$(dir $@)"
	printf '%s\n' '{"@jupyterlab/apputils-extension:notification": {"fetchNews": "false", "checkForUpdates": false}}' > "$@"

$(LAB_ZH_OVERRIDES): $(STAMP)
	mkdir -p "$(dir $@)"
	printf '%s\n' '{"@jupyterlab/apputils-extension:notification": {"fetchNews": "false", "checkForUpdates": false}, "@jupyterlab/translation-extension:plugin": {"locale": "zh_CN"}}' > "$@"

## Open your copy of the course (workspace/, created from notebooks/ on first use) in JupyterLab.
## Course updates come in on every start; a notebook you edited is never overwritten.
## COURSE_LANG=zh make lab opens the Chinese edition (notebooks/zh, in the workspace's own zh/ folder), with
## JupyterLab's interface in Chinese (its zh-CN language pack, from requirements.txt).
## JupyterLab (and so every kernel) starts without LangSmith tracing switched on by the shell
## (LANGSMITH_TRACING, LANGCHAIN_TRACING_V2, ...) unless COURSE_LANGSMITH_TRACING=1 (README, "Offline, guaranteed").
lab: $(STAMP) $(LAB_OVERRIDES) $(LAB_ZH_OVERRIDES)
	$(BIN)/python -m helpers.workspace sync
	$(BIN)/python -m helpers.workspace lab -- "$(abspath $(BIN))/jupyter" lab $(LAB_FLAGS) $(LAB_EDITION_FLAGS) 00_start_here.ipynb

## What `make lab` would copy or update in your workspace, and which notebooks you edited.
status: $(STAMP)
	$(BIN)/python -m helpers.workspace status

## Put one workspace notebook back to the course version (NB=03), or all (NB=all); the old copy is kept.
reset: $(STAMP)
	@test -n "$(NB)" || { echo "say which notebook: make reset NB=03  (or NB=all)"; exit 2; }
	$(BIN)/python -m helpers.workspace reset $(NB)

# Three pytest-xdist workers on CI's 2 cores: the tests wait part of the time (on kernels, browsers, servers,
# stopped threads), so a third worker keeps the cores busier (measured 2026-12-07 on a quiet 2-core machine,
# same commit: two workers 656 s at 153 % CPU, three 588 s at 168 %; four, measured beside other work, gained
# nothing over three). A notebook's cells and a module's tests stay together on one worker, the long tests
# go first, the offline proof runs in the controller after every worker finished (tests/conftest.py).
# TEST_WORKERS=0 runs everything in this one process; keep tooling/bench.py's TEST_WORKERS the same.
TEST_WORKERS ?= 3
PARALLEL = $(if $(filter 0,$(TEST_WORKERS)),,-n $(TEST_WORKERS))

## One pytest run: unit tests, exercise contract, hygiene, strict nbval over notebooks/ (and notebooks/zh/), the live track,
## the browser tests, and the offline proof over every worker's connection log, last. `make test JUNIT=suite.xml` also
## writes pytest's JUnit report, whose worker-seconds by kind `python -m tooling.bench --junit suite.xml` prints.
JUNIT_FLAGS = $(if $(JUNIT),--junitxml=$(JUNIT) -o junit_family=xunit1,)
test: $(STAMP)
	$(OFFLINE) $(CACHED) $(BIN)/python -m pytest $(PARALLEL) $(JUNIT_FLAGS)

## Everything about one notebook, both editions, in one pytest run (the inner loop, about a minute): make check NB=13
## (NB=13 14 for two): strict nbval of notebooks/13_*.ipynb and notebooks/zh/13_*.ipynb, its exercise contract and
## exercise tests, its self-check questions and verifiers, the Chinese edition's freshness, its hygiene, its live-track
## runs and its browser tests (how a test is chosen: tests/notebook_selection.py). `make test` still runs everything.
check: $(STAMP)
	@test -n "$(NB)" || { echo "say which notebook: make check NB=13"; exit 2; }
	$(OFFLINE) $(CACHED) $(BIN)/python -m pytest $(PARALLEL) $(foreach n,$(NB),--notebook $(n))

## Strict nbval over the notebooks, guarded, and the offline proof, on the same workers (CI runs it after
## `make test`: outputs must be stable run after run).
nbval: $(STAMP)
	$(OFFLINE) $(CACHED) $(BIN)/python -m pytest $(PARALLEL) notebooks tests/test_offline_guard.py::test_no_notebook_connected_out

## Re-execute notebooks after changing a helper (all, or NB=notebooks/03_x.ipynb), then commit outputs.
notebooks: $(STAMP)
	$(OFFLINE) $(BIN)/python -m tooling.notebooks $(NB)

## Format the notebooks' code (ruff, lines of at most 100 characters); then wrap long strings and comments
## by hand and re-execute (CONTRIBUTING.md, "Code and verdicts in notebooks").
format: $(STAMP)
	$(BIN)/ruff format --line-length 100 notebooks/

## Time every notebook and the test suite against a baseline kernel; writes bench.json.
## BENCH_FLAGS=--skip-tests leaves the test suite out.
bench: $(STAMP)
	$(OFFLINE) $(BIN)/python -m tooling.bench $(BENCH_FLAGS)

## Drift past the pins: a separate venv (.drift/venv) with the newest releases of the direct dependencies,
## every notebook re-executed there, and the cells whose outputs change (.drift/report.md, report.json).
## Needs the package registry and takes minutes; not part of `make test`. DRIFT_FLAGS="--reuse-venv 03".
drift: $(STAMP)
	$(OFFLINE) nice -n 10 $(BIN)/python -m tooling.drift $(DRIFT_FLAGS)

clean-venv:
	rm -rf $(VENV)

## Only create or refresh the venv (make lab and make test do it themselves; .ci/run builds it beside another).
venv: $(STAMP)

## A PostgreSQL server of the course's own (notebook 18 starts one by itself): initdb into a temporary folder,
## a Unix socket there and no TCP port; prints a psql command and runs until Ctrl-C, then stops and removes the
## folder. Needs Debian's postgresql package (or COURSE_POSTGRES_BINDIR); no administrator step.
postgres: $(STAMP)
	$(BIN)/python -m helpers.postgres serve

## Your progress: exercises solved, self-check scores and what to do next (from workspace/.progress.json).
.PHONY: progress
progress: $(STAMP)
	$(BIN)/python -m helpers.progress

## A new notebook's skeleton that passes every test, in both editions: make new-notebook NN=21 TITLE="Tool call budgets"
## (the notebook, its exercise, answers, self-check questions and verifier, its translation and Chinese build, the
## course map in both editions; see CONTRIBUTING).
.PHONY: new-notebook course-map
new-notebook: $(STAMP)
	@test -n "$(NN)" && test -n "$(TITLE)" || { echo 'say which: make new-notebook NN=21 TITLE="Tool call budgets"'; exit 2; }
	$(OFFLINE) $(BIN)/python -m tooling.scaffold "$(NN)" "$(TITLE)" $(if $(SUMMARY),--summary "$(SUMMARY)",)

## Regenerate the course map (00, README), the Next cells and the measured times from each notebook's metadata.
course-map: $(STAMP)
	$(BIN)/python -m tooling.coursemap

## Teachers: the course's exercises in nbgrader's layout, e.g. make nbgrader-export OUT=../grading
## (then nbgrader from requirements-instructor.txt; docs/teaching.md, "Grading").
.PHONY: nbgrader-export
nbgrader-export: $(STAMP)
	@test -n "$(OUT)" || { echo 'say where: make nbgrader-export OUT=../grading'; exit 2; }
	$(BIN)/python -m tooling.nbgrader_export "$(OUT)"

## The Chinese edition: write and execute notebooks/zh/NN_x.ipynb for each English notebook with a translation
## (translations/zh/notebooks/NN_x.md) whose English notebook, translation or catalog changed since it was built;
## ZH_FLAGS=--force rebuilds them all (after a helper change). Then `python -m tooling.translation check`.
zh: $(STAMP)
	$(OFFLINE) $(BIN)/python -m tooling.translation build $(ZH_FLAGS)

## What to translate: each stale or new cell of the Chinese edition, with the English diff and the Chinese now
## (all notebooks, or NB=18: numbers or names, several separated by spaces).
.PHONY: worklist
worklist: $(STAMP)
	$(BIN)/python -m tooling.translation worklist $(NB)

## The message catalog (helpers/i18n.py): extract the strings wrapped in _() (babel.cfg; in helpers/ and in the
## scaffold's module templates, tooling/scaffold/templates/, whose Chinese a new notebook needs), merge them into the
## Chinese .po (new and changed ones untranslated: no fuzzy guesses), compile the .mo. Translate, then run it again.
## Exercise titles and case names are marked by tooling/translation/extract.py (babel.cfg), found on PYTHONPATH.
catalogs: $(STAMP)
	$(BIN)/pybabel extract -F babel.cfg -k N_ --sort-by-file --no-wrap -o helpers/locale/course.pot helpers tooling/scaffold/templates
	$(BIN)/pybabel update -i helpers/locale/course.pot -d helpers/locale -D course -l zh_CN --no-wrap --ignore-obsolete --no-fuzzy-matching
	$(BIN)/pybabel compile -d helpers/locale -D course -l zh_CN
