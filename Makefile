# Two commands for a new user: `make run` (the main job) and `make test`.
PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: run full test bench clean

$(STAMP): pyproject.toml docs/examples/triumph/pyproject.toml docs/examples/policy-plugin/pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	$(PY) -m pip install --quiet -e docs/examples/triumph    # the worked example game: the conformance suite runs it
	$(PY) -m pip install --quiet -e docs/examples/policy-plugin   # the worked example policies (tests/test_plugins.py)
	touch $(STAMP)

run: $(STAMP)
	$(PY) -m sims.analysis.claims

full: $(STAMP)
	$(PY) -m sims.analysis.claims --full

test: $(STAMP)
	$(VENV)/bin/sims compile       # every game's kernels once, side by side, before the test workers load them
	$(PY) -m pytest -q -n 2 --durations=15

bench: $(STAMP)
	$(PY) -m pip install --quiet -e '.[bench]'    # OpenSpiel, the engine benchmark's baseline
	$(PY) -m sims.bench

clean:
	rm -rf $(VENV) data/runs
