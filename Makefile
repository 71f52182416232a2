# Two commands do all the set-up:  make lab  (open the course)  and  make test  (run every check).
# Both create or refresh the local venv (.venv) from requirements.txt when it is missing or older.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.requirements-installed
# The tests and the committed outputs are offline: a real-model configuration must not leak in.
OFFLINE := env -u COURSE_MODEL -u OPENAI_BASE_URL -u OPENAI_API_KEY
# Jupyter refuses to run as root unless told; containers and CI machines often are root.
LAB_FLAGS := $(if $(filter 0,$(shell id -u)),--allow-root,)

.PHONY: lab test nbval notebooks clean-venv

$(STAMP): requirements.txt pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --disable-pip-version-check -q -r requirements.txt
	touch $(STAMP)

## Open the course in JupyterLab on notebook 00.
lab: $(STAMP)
	$(BIN)/jupyter lab $(LAB_FLAGS) notebooks/00_start_here.ipynb

## One pytest run: unit tests, exercise solutions, hygiene, and strict nbval over notebooks/.
test: $(STAMP)
	$(OFFLINE) $(BIN)/python -m pytest

## Strict nbval over the notebooks only (CI runs it after `make test`: outputs must be stable run after run).
nbval: $(STAMP)
	$(OFFLINE) $(BIN)/python -m pytest notebooks

## Re-execute notebooks after changing a helper (all, or NB=notebooks/03_x.ipynb), then commit outputs.
notebooks: $(STAMP)
	$(OFFLINE) $(BIN)/python -m helpers.notebooks $(NB)

clean-venv:
	rm -rf $(VENV)

## Your progress: exercises solved, self-check scores and what to do next (from workspace/.progress.json).
.PHONY: progress
progress: $(STAMP)
	$(BIN)/python -m helpers.progress
