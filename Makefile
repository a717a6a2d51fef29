# The two commands: `make app` serves the kit with Voilà; `make test` runs everything.
SHELL := /bin/bash
# The Python .venv is made from.  As root, one every user may run: the demo hub (make hub)
# runs each user's server as a system user of their own, who cannot pass through a folder
# closed to others, such as /root where pyenv keeps its Pythons; then Debian's
# /usr/bin/python3 (3.11 or newer, with venv and ensurepip) is taken.  PYTHON=... chooses another.
ifeq ($(origin PYTHON),undefined)
PYTHON := $(shell p=$$(readlink -f "$$(command -v python3)"); d=$$(dirname "$$p"); closed=; \
	while [ "$$d" != / ]; do [ "$$(stat -c %A "$$d" | cut -c10)" = x ] || closed=1; \
	d=$$(dirname "$$d"); done; \
	if [ "$$(id -u)" = 0 ] && [ -n "$$closed" ] && /usr/bin/python3 -c \
		'import sys, venv, ensurepip; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; \
	then echo /usr/bin/python3; else echo python3; fi)
endif
VENV := .venv
PY := $(VENV)/bin/python
PIP := $(PY) -m pip
STAMP := $(VENV)/.installed
CHROMIUM := /usr/bin/chromium
PORT ?= 8866
LAB_PORT ?= 8888
APP ?= notebooks/apps/index.ipynb

# One lock of exact versions (runtime, widgets, JupyterLab, Dask, test tools) is the
# only source of what goes into .venv and binder/requirements.txt; `make lock` writes it.
LOCK ?= requirements/test.lock
BENCH_LOCK := requirements/bench.lock
BINDER_REQS := binder/requirements.txt
# The static site's build tools: a lock and a venv of their own (see pyproject's "site" extra).
SITE_LOCK := requirements/site.lock
SITE_VENV := build/site-tools
SITE_STAMP := $(SITE_VENV)/.installed
# The npm packages of package-lock.json, installed once by `make npm`.
NPM_STAMP := node_modules/.installed
# How the lock is installed: uv (fast; put into .venv from the package registry) or pip.
INSTALLER ?= uv
UV_VERSION := 0.13.9
UV := $(VENV)/bin/uv
# Extra index options for the install (the tests point them at a local folder).
INDEX_ARGS ?=

classroom_ip_arg = $(if $(IP),--Voila.ip=$(IP))

.PHONY: app classroom lab test venv install-lock install-kit lock chromium npm lint typecheck unit notebooks browser site-test \
	bench screenshots binder-links clean student test-explore site site-tools frontend

# .venv is made again when it was made from another Python than $(PYTHON) (the marker
# file names it): e.g. a .venv of pyenv's Python, made before root took Debian's.
MADE_WITH := $(VENV)/.made-with-$(subst /,_,$(PYTHON))

$(STAMP): $(LOCK) pyproject.toml $(if $(wildcard $(MADE_WITH)),,another-python)
	rm -rf $(VENV)
	$(PYTHON) -m venv $(VENV)
	$(MAKE) --no-print-directory install-lock install-kit VENV=$(VENV) LOCK=$(LOCK)
	$(PY) -m ipykernel install --sys-prefix --name python3 --display-name "Python 3 (rummy kit)" >/dev/null
	touch $(MADE_WITH) $(STAMP)

.PHONY: another-python
another-python:

# Exactly the versions of $(LOCK), none newer and nothing unlisted (--no-deps): a venv
# built yesterday and one built after a dependency's new release are the same.
install-lock:
ifeq ($(INSTALLER),uv)
	test -x $(UV) || $(PIP) install --quiet uv==$(UV_VERSION)
	$(UV) pip install --quiet --python $(PY) $(INDEX_ARGS) --no-deps -r $(LOCK)
else
	$(PIP) install --quiet $(INDEX_ARGS) --no-deps -r $(LOCK)
endif

# The kit itself (rummy, widgets), editable, without its dependencies (they are the lock).
install-kit:
ifeq ($(INSTALLER),uv)
	$(UV) pip install --quiet --python $(PY) --no-deps -e .
else
	$(PIP) install --quiet --no-deps -e .
endif

venv: $(STAMP)

# Regenerate the locks from pyproject.toml after changing a dependency there (the
# versions already locked are kept where they still fit); `make lock UPGRADE=1`
# moves every package to its newest release.  Then run `make test` and commit.
lock:
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	test -x $(UV) || $(PIP) install --quiet uv==$(UV_VERSION)
	$(UV) pip compile pyproject.toml --quiet --universal --python-version 3.11 \
		--custom-compile-command "make lock" $(if $(UPGRADE),--upgrade) \
		--extra test -o $(LOCK)
	$(UV) pip compile pyproject.toml --quiet --universal --python-version 3.11 \
		--custom-compile-command "make lock" -c $(LOCK) \
		--extra test --extra bench -o $(BENCH_LOCK)
	$(UV) pip compile pyproject.toml --quiet --universal --python-version 3.11 \
		--custom-compile-command "make lock" -c $(LOCK) --no-annotate \
		--extra widgets --extra lab -o $(BINDER_REQS)
	$(UV) pip compile pyproject.toml --quiet --universal --python-version 3.11 \
		--custom-compile-command "make lock" -c $(LOCK) --no-emit-package rummy-kit \
		--extra site -o $(SITE_LOCK)

# The Binder badges of the README, made from [tool.rummy-kit] repository in pyproject.toml.
binder-links: $(STAMP)
	$(PY) scripts/binder_links.py

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

# The kit for a room (docs/CLASSROOM.md): like `make app`, but on the machine's network
# address (IP=... to choose), over HTTPS when RUMMY_TLS_CERT and RUMMY_TLS_KEY name a
# certificate and its key; it prints the address learners open and the teacher key
# (RUMMY_TEACHER_KEY, else a fresh one).
classroom: $(STAMP)
	JUPYTER_PATH="$(CURDIR)/share/jupyter$${JUPYTER_PATH:+:$$JUPYTER_PATH}" \
		$(PY) -m tableserver.voila_app --classroom --no-browser --port=$(PORT) \
		$(classroom_ip_arg) --template=rummy $(CURDIR)

# JupyterLab with the lessons, opened at Start here.
lab: $(STAMP)
	@echo "Rummy teaching kit lessons: open the address with a token that JupyterLab prints below"
	$(VENV)/bin/jupyter lab --config=$(CURDIR)/jupyter_lab_config.py --port=$(LAB_PORT) \
		$$( [ "$$(id -u)" = 0 ] && echo --allow-root ) --ServerApp.root_dir=$(CURDIR)

# A local demo hub (docs/JUPYTERHUB.md): JupyterHub on 127.0.0.1 with demo logins (a
# teacher and three learners), each user's own server opening the apps, and the table
# service as the hub service /services/rummy-tables/ (python -m tableserver.hub).  Its
# data (the hub's, the tables', a home folder per user) is kept in $(HUB_DATA).  Run as
# root, each user's server runs as a system user of their own (rummy-NAME-HASH, made on
# their first start; `make hub-remove-users` removes them); else as yours, which the hub
# warns of: then a learner's kernel can read the hub's secrets.
HUB_PORT ?= 8000
HUB_DATA ?= $(if $(filter 0,$(shell id -u)),/var/lib/rummy-kit-hub,$(HOME)/.local/state/rummy-kit-hub)
.PHONY: hub hub-remove-users
hub: $(STAMP) $(NPM_STAMP)
	@echo "Rummy teaching kit on a demo JupyterHub: open http://127.0.0.1:$(HUB_PORT)/"
	@echo "  the teacher signs in as: teacher   learners as: ana, ben, cleo"
	@echo "  password (all of them): $${RUMMY_HUB_PASSWORD:-rummy-demo}"
	@mkdir -p $(HUB_DATA)
	@# the service must answer the hub within seconds of its start: compile what it imports
	@# now (and the kit's code for the users' servers, which may not write beside it)
	@$(PY) -c "import tableserver.hub_web"
	@$(PY) -m compileall -q rummy widgets tableserver
	cd $(HUB_DATA) && RUMMY_HUB_DATA=$(HUB_DATA) RUMMY_HUB_PORT=$(HUB_PORT) \
		$(CURDIR)/$(VENV)/bin/jupyterhub -f $(CURDIR)/jupyterhub_config.py

# The system users `make hub` made for the users of $(HUB_DATA) (their homes stay there).
hub-remove-users: $(STAMP)
	$(PY) -c "import sys; from tableserver.hub_users import remove_system_users as r; \
		print(' '.join(r(sys.argv[1])) or 'none')" $(HUB_DATA)

chromium:
	@test -x $(CHROMIUM) || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; }

# The site's build tools, exactly $(SITE_LOCK), in $(SITE_VENV) (uv or pip, as .venv;
# without .venv, so that publishing the site needs nothing else).
$(SITE_STAMP): $(SITE_LOCK)
	rm -rf $(SITE_VENV)
	$(PYTHON) -m venv $(SITE_VENV)
ifeq ($(INSTALLER),uv)
	$(SITE_VENV)/bin/python -m pip install --quiet uv==$(UV_VERSION)
	$(SITE_VENV)/bin/uv pip install --quiet --python $(SITE_VENV)/bin/python $(INDEX_ARGS) --no-deps -r $(SITE_LOCK)
else
	$(SITE_VENV)/bin/python -m pip install --quiet $(INDEX_ARGS) --no-deps -r $(SITE_LOCK)
endif
	touch $(SITE_STAMP)

site-tools: $(SITE_STAMP)

# Every package of package.json at the versions of package-lock.json, from the npm registry
# (npm from Debian's packages when the machine has none), installed once: esbuild and
# ipywidgets' packages build the front end (make frontend), MathJax typesets the lessons'
# formulas, axe-core is the accessibility checker the browser tests load into each page,
# configurable-http-proxy is the demo hub's proxy (make hub) and Pyodide the static site's
# Python (make site).  Nothing is fetched while the tests run.
$(NPM_STAMP): package-lock.json
	command -v npm >/dev/null || { apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nodejs npm; }
	npm ci --no-audit --no-fund
	touch $(NPM_STAMP)

npm: $(NPM_STAMP)

# The apps' and lessons' page front end (frontend/src: ipywidgets' widgets over the page's
# kernel connection, in place of Voilà's own bundle; MathJax for pages with math) built with
# esbuild (package-lock.json) into the "rummy" template's static/kit.js, kit.css and
# kit-math.js.  They are committed, so `make app` needs no Node.js; after changing
# frontend/src, run this and commit them (a unit test builds them again and fails when the
# committed ones differ).
frontend: $(NPM_STAMP)
	node frontend/build.mjs

# The static site in build/site/: the apps as Voici pages and the lessons in JupyterLite,
# Python running in the browser (Pyodide); skipped when nothing it is made from changed.
# Serve it with any web server, e.g. `python3 -m http.server -d build/site`.
site: $(SITE_STAMP) $(NPM_STAMP)
	$(SITE_VENV)/bin/python scripts/build_site.py

lint: $(STAMP)
	$(VENV)/bin/ruff check rummy widgets tableserver tests benchmarks scripts notebooks

typecheck: $(STAMP)
	$(VENV)/bin/mypy

# Hypothesis profile of every test run (tests/conftest.py): "ci" is derandomized, so a
# commit gives the same examples, and the same result, on every machine and every run.
export HYPOTHESIS_PROFILE ?= ci

# Every pytest run of `make test` names its 15 slowest tests at the end.
SLOWEST := --durations=15

# Unit, property and doctest runs (pytest's testpaths: tests/ and the doctests of rummy,
# widgets and tableserver) spread over the machine's cores (a file per worker); Node.js and
# package-lock.json's packages for tests/test_frontend.py.
unit: $(STAMP) $(NPM_STAMP)
	$(PY) -m pytest -q -n auto --dist loadfile -m "not browser" $(SLOWEST)

# The property tests with a random seed and 20 times their usual examples (the "explore"
# profile; RUMMY_EXPLORE_FACTOR=N for another factor): how new failing cases are found.
# It prints the seed first, and again after a failure; `make test-explore SEED=N` runs that
# seed again, and each real failure becomes an @example in its test.
test-explore: $(STAMP)
	@seed=$${SEED:-$$($(PY) -c 'import secrets; print(secrets.randbits(64))')}; \
	echo "test-explore: hypothesis seed $$seed, $${RUMMY_EXPLORE_FACTOR:-20}x the examples"; \
	HYPOTHESIS_PROFILE=explore $(PY) -m pytest -q -n auto --dist loadfile \
		-m "hypothesis and not browser" --hypothesis-seed=$$seed tests; status=$$?; \
	[ $$status = 0 ] || echo "test-explore: failures with seed $$seed (make test-explore SEED=$$seed runs it again)"; \
	exit $$status

# Every lesson and app notebook run under nbval, a notebook per worker (its cells in order).
notebooks: $(STAMP)
	$(PY) -m pytest -q -n auto --dist loadscope -p tests.nbval_kernels --nbval-lax --nbval-current-env \
		$(SLOWEST) notebooks

# The static site's offline test: Pyodide in Chromium, no server of the kit.
site-test: $(STAMP) chromium $(NPM_STAMP) site
	$(PY) -m pytest -q -m browser $(SLOWEST) tests/browser/test_site.py

# The browser tests against the kit's own servers (Voilà, JupyterLab, the hub, the table
# service), two test files at a time: each worker starts its own servers and Chromium.
browser: $(STAMP) chromium $(NPM_STAMP)
	$(PY) -m pytest -q -n 2 --dist loadfile -m browser $(SLOWEST) tests \
		--ignore=tests/browser/test_site.py

# Small PNGs of every app for the README (docs/screenshots), taken with the browser tests' Chromium.
screenshots: $(STAMP) chromium
	$(PY) scripts/screenshots.py

# Everything, in two steps.  First, two at a time: .venv, Chromium and the npm packages
# are installed side by side, then ruff, mypy, the unit tests and the notebooks under nbval
# run beside the static site's build and its offline test.  Then the browser tests, on their
# own: they run two files at a time, and beside other CPU work their pages slow down more
# than the other work gains (measured: 16 min for the whole run instead of 10).  Each pytest
# run fails on a failed test and on "no tests collected" (pytest's exit code 5 is not 0, so
# make stops there too).
test:
	$(MAKE) --no-print-directory -j 2 --output-sync=target lint typecheck unit notebooks site-test
	$(MAKE) --no-print-directory browser

bench: $(STAMP)
	$(MAKE) --no-print-directory install-lock LOCK=$(BENCH_LOCK)
	for b in benchmarks/[!_]*.py; do echo "== $$b"; $(PY) $$b || exit 1; done

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache

# Student copies of the lessons, without worked answers, in build/student/.
student: $(STAMP)
	$(PY) scripts/student_copy.py
