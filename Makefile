PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test bench lint clean

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
	$(BIN)/ruff check src tests bench
	$(BIN)/ruff format --check src tests bench
	$(BIN)/mypy

clean:
	rm -rf $(VENV) out .pytest_cache .hypothesis
