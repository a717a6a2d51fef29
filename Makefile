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

# Voilà serves the whole tree (settings in voila.json: sources stripped, idle kernels
# culled, kernels started ahead of time for the apps); its "rummy" template
# (share/jupyter) makes "/" open $(APP), the landing page.  It runs as
# tableserver.voila_app: Voilà itself plus the classroom table service under
# /rummy/api/ (same port; tables kept in $$RUMMY_DATA, default ~/.local/share/rummy-kit).
app: $(STAMP)
	@echo "Rummy teaching kit: open http://127.0.0.1:$(PORT)/ (it opens notebooks/apps/index.ipynb)"
	JUPYTER_PATH="$(CURDIR)/share/jupyter$${JUPYTER_PATH:+:$$JUPYTER_PATH}" \
		$(PY) -m tableserver.voila_app --no-browser --port=$(PORT) --Voila.ip=127.0.0.1 \
		--template=rummy $(CURDIR)

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

# Small PNGs of every app for the README (docs/screenshots), taken with the browser tests' Chromium.
screenshots: $(STAMP) chromium
	$(PY) scripts/screenshots.py

test: $(STAMP) chromium lint typecheck
	$(PY) -m pytest -q -m "not browser" tests rummy widgets
	$(PY) -m pytest -q --nbval-lax --nbval-current-env notebooks
	$(PY) -m pytest -q -m browser tests

bench: $(STAMP)
	$(PIP) install --quiet -e '.[test,bench]'
	for b in benchmarks/*.py; do echo "== $$b"; $(PY) $$b || exit 1; done

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
