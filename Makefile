PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
LOCK := requirements.lock
UV_VERSION := 0.13.9
LOWEST_LOCK := requirements-lowest.lock
LATEST := .venv-latest
LOWEST := .venv-lowest

.PHONY: demo test test-latest test-lowest lock bench bench-update bench-against lint clean dist docs release-check

# What `make test` passes to pytest: nothing (every test), or a selection such as
# PYTEST_ARGS='-k offside'.
PYTEST_ARGS ?=

# A venv ($(1)) made anew from a lock ($(2)), so that it holds exactly what the lock says
# (nothing left over from an earlier install), with every file's hash checked; varroom itself
# goes in editable, built by the locked hatchling.
define venv_from_lock
	rm -rf $(1)
	$(PYTHON) -m venv $(1)
	$(1)/bin/python -m pip install -q --require-hashes -r $(2)
	$(1)/bin/python -m pip install -q --no-deps --no-build-isolation -e .
endef

# .venv is made anew whenever the lock or pyproject changes.
$(STAMP): pyproject.toml $(LOCK)
	$(call venv_from_lock,$(VENV),$(LOCK))
	touch $(STAMP)

# The locks anew from pyproject's ranges, with the hashes of every file; then `make test` and
# `make test-lowest` on them before committing. requirements.lock: the newest versions the
# ranges allow, one set for every supported Python and platform (uv's universal resolution).
# requirements-lowest.lock: the lowest version of each package pyproject names (the lower
# bounds it promises), on the lowest Python. uv only writes the locks: installing from one
# needs nothing but pip.
LOCK_WITH = out/lock-tools/bin/uv pip compile pyproject.toml --extra dev --python-version 3.11 \
	--generate-hashes --custom-compile-command 'make lock' --quiet
lock:
	$(PYTHON) -m venv out/lock-tools
	out/lock-tools/bin/python -m pip install -q 'uv==$(UV_VERSION)'
	$(LOCK_WITH) --universal --fork-strategy fewest --upgrade -o $(LOCK)
	$(LOCK_WITH) --resolution lowest-direct --upgrade -o $(LOWEST_LOCK)

# Every test against the newest releases pyproject's ranges allow, in a venv of its own made
# from the ranges, not the lock: a new matplotlib that breaks a picture is found here first.
test-latest:
	rm -rf $(LATEST)
	$(PYTHON) -m venv $(LATEST)
	$(LATEST)/bin/python -m pip install -q --upgrade pip
	$(LATEST)/bin/python -m pip install -q --upgrade --upgrade-strategy eager -e '.[dev]'
	@mkdir -p out
	$(LATEST)/bin/python -m pip freeze --exclude-editable > out/latest-versions.txt
	$(LATEST)/bin/python -m pytest

# Every test on the lower bounds pyproject promises (requirements-lowest.lock).
test-lowest:
	$(call venv_from_lock,$(LOWEST),$(LOWEST_LOCK))
	$(LOWEST)/bin/python -m pytest

SAMPLE := samples/statsbomb-euro2020-turkey-italy

demo: $(STAMP)
	@mkdir -p out
	$(BIN)/varroom check examples/tottenham-sporting-2022-kane.json --image out/kane.png
	$(BIN)/varroom audit statsbomb --quiet \
		--event-data $(SAMPLE)/statsbomb_3788741_event.json \
		--lineup-data $(SAMPLE)/statsbomb_3788741_lineup.json \
		--three-sixty-data $(SAMPLE)/statsbomb_3788741_360.json \
		--html out/audit.html
	@echo
	@echo "Pictures: out/kane.png; match report: out/audit.html (open it in a browser)."
	@echo "Review room: $(BIN)/varroom serve, then open http://127.0.0.1:8000 and use"
	@echo "  'Open situation' with examples/tottenham-sporting-2022-kane.json, or"
	@echo "  'Audit match' with the three files in $(SAMPLE)/."

test: $(STAMP)
	$(BIN)/python -m pytest $(PYTEST_ARGS)

# The benchmarks, written to out/ (out/BENCHMARKS.md, out/bench-results.json): a run leaves the
# checkout as it was. bench-update writes the committed BENCHMARKS.md and bench/results.json.
bench: $(STAMP)
	$(BIN)/python bench/run.py

bench-update: $(STAMP)
	$(BIN)/python bench/run.py --update

# The Turkey-Italy audit timed against the code before issue 21, taking turns
# (bench/against_revision.json, shown in BENCHMARKS.md by the next bench-update).
bench-against: $(STAMP)
	$(BIN)/python bench/against_revision.py

lint: $(STAMP)
	$(BIN)/ruff check src tests bench tools
	$(BIN)/ruff format --check src tests bench tools
	$(BIN)/mypy

# The wheel and sdist in dist/, checked, then the wheel installed into a fresh venv outside the
# checkout and used from another folder (tools/dist-check.sh).
dist: $(STAMP)
	rm -rf dist
	$(BIN)/python -m build --outdir dist .
	$(BIN)/twine check --strict dist/*
	tools/dist-check.sh dist/varroom-*.whl $(PYTHON)

# The documentation site in out/site, offline; any warning fails the build. (The variable only
# hides Material's banner about a future MkDocs 2, which says nothing about these docs.)
docs: $(STAMP)
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict

# Refuses to release pyproject's version when CHANGELOG.md already has it as released.
release-check: $(STAMP)
	$(BIN)/python tools/release_check.py

clean:
	rm -rf $(VENV) $(LATEST) $(LOWEST) out dist .pytest_cache .hypothesis
