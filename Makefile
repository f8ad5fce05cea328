PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test bench lint clean dist docs release-check

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[dev]'
	touch $(STAMP)

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
	$(BIN)/python -m pytest

bench: $(STAMP)
	$(BIN)/python bench/run.py

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
	rm -rf $(VENV) out dist .pytest_cache .hypothesis
