# The two commands: `make app` serves the kit with Voilà; `make test` runs everything.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
PIP := $(PY) -m pip
STAMP := $(VENV)/.installed
CHROMIUM := /usr/bin/chromium
PORT ?= 8866
APP ?= notebooks/apps/index.ipynb

.PHONY: app test venv chromium lint typecheck unit notebooks browser bench screenshots clean

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PIP) install --quiet --upgrade pip
	$(PIP) install --quiet -e '.[test]'
	$(PY) -m ipykernel install --sys-prefix --name python3 --display-name "Python 3 (rummy kit)" >/dev/null
	touch $(STAMP)

venv: $(STAMP)

app: $(STAMP)
	$(VENV)/bin/voila --no-browser --port=$(PORT) --Voila.ip=127.0.0.1 \
		--config=voila.json $(APP)

chromium:
	@test -x $(CHROMIUM) || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; }

lint: $(STAMP)
	$(VENV)/bin/ruff check rummy widgets tests benchmarks

typecheck: $(STAMP)
	$(VENV)/bin/mypy

unit: $(STAMP)
	$(PY) -m pytest -q -m "not browser" tests rummy widgets

notebooks: $(STAMP)
	$(PY) -m pytest -q --nbval-lax --nbval-current-env -p no:doctest notebooks

browser: $(STAMP) chromium
	$(PY) -m pytest -q -m browser tests

test: $(STAMP) chromium lint typecheck
	$(PY) -m pytest -q -m "not browser" tests rummy widgets
	$(PY) -m pytest -q --nbval-lax --nbval-current-env notebooks
	$(PY) -m pytest -q -m browser tests

bench: $(STAMP)
	$(PIP) install --quiet -e '.[test,bench]'
	for b in benchmarks/*.py; do echo "== $$b"; $(PY) $$b || exit 1; done

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
