# Two commands for a new user: `make run` (the main job) and `make test`.
PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: run full test check test-browser bench docs notebooks docs-full clean

# The package with its test tools, the worked example game (the conformance suite runs it) and the worked
# example policies (tests/test_plugins.py); uv installs them in about 20 s where pip takes a minute.  uv writes
# the installed packages' bytecode, as pip does (its default does not): without it each process compiles the
# modules of numba, pandas and scipy it imports afresh (about a second each, where PYTHONDONTWRITEBYTECODE is set).
export UV_COMPILE_BYTECODE := 1
$(STAMP): pyproject.toml docs/examples/triumph/pyproject.toml docs/examples/policy-plugin/pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet uv
	$(VENV)/bin/uv pip install --quiet --python $(PY) -e '.[test]' -e docs/examples/triumph -e docs/examples/policy-plugin
	touch $(STAMP)

run: $(STAMP)
	$(PY) -m sims.analysis.claims

full: $(STAMP)
	$(PY) -m sims.analysis.claims --full

test: $(STAMP)
	$(VENV)/bin/sims compile       # every game's kernels once, side by side, before the test workers load them
	# The packages' bytecode, as a wheel install writes it: the tests start many processes, and where
	# PYTHONDONTWRITEBYTECODE is set each would otherwise compile the package's sources again (20 s in all).
	$(PY) -m compileall -q sims analysis docs/examples > /dev/null
	$(PY) -m pytest -q -n 2 --dist loadgroup --durations=15   # loadgroup: the browser tests share one worker

# Lint, format and types (pyproject.toml: [tool.ruff], [tool.mypy]): a few seconds.
check: $(STAMP)
	$(VENV)/bin/uv pip install --quiet --python $(PY) -e '.[check]'
	$(VENV)/bin/ruff check .
	$(VENV)/bin/mypy
	$(VENV)/bin/ruff format --check --output-format concise . || { echo "make check: ruff format would change the files listed (run ruff format .)" >&2; exit 1; }

# The notebook widgets in a real headless browser (tests/browser): Playwright drives the operating system's
# chromium; as root this installs it with apt-get when it is missing, otherwise it says how.
test-browser: $(STAMP)
	@command -v chromium >/dev/null || command -v chromium-browser >/dev/null || \
	  { [ "$$(id -u)" = 0 ] && apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; } || \
	  { echo "make test-browser: no chromium; install it (sudo apt-get install chromium) and run again" >&2; exit 2; }
	$(PY) -m pip install --quiet -e '.[browser]'
	$(VENV)/bin/sims compile
	SIMS_BROWSER_REQUIRED=1 $(PY) -m pytest -q -m browser tests/browser --durations=5

bench: $(STAMP)
	$(VENV)/bin/uv pip install --quiet --python $(PY) -e '.[bench]'   # OpenSpiel, the baseline of the goals and the engine
	$(PY) -m sims.bench --page docs/performance.md   # the figures also go to the documentation's performance page

# The documentation site (docs/, Sphinx): every page read afresh (-E), warnings and unresolved internal
# references (-n) are errors. The build never runs a notebook: it shows the executed copies that make notebooks
# leaves in docs/_build/executed (docs/_ext/executed_notebooks.py), the others as committed. make docs executes
# one notebook, 01-scoring, unless a current copy exists, and checks that its page shows the outputs (CI: the
# path works); make docs-full executes every notebook first. Open docs/_build/html.
docs: $(STAMP)
	$(VENV)/bin/uv pip install --quiet --python $(PY) -e '.[docs]'
	$(PY) docs/_ext/executed_notebooks.py --missing 01-scoring
	$(PY) -m sphinx -E -W --keep-going -n -q -b html docs docs/_build/html
	@grep -q cell_output docs/_build/html/notebooks/01-scoring.html || \
	  { echo "make docs: the page of notebook 01-scoring shows no outputs" >&2; exit 1; }
	@echo "docs: docs/_build/html/index.html"

# Every notebook executed at its default size (about 20 minutes on a busy 2-core machine); docs-full: then the site
notebooks: $(STAMP)
	$(PY) docs/_ext/executed_notebooks.py

docs-full: notebooks docs

clean:
	rm -rf $(VENV) data/runs docs/_build
