PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test bench serve clean browser

# pip's output, setuptools' build warnings included, goes to $(LOG); an install that fails prints the log's end.
LOG := $(VENV)/install.log
PIP := $(BIN)/pip install --quiet --disable-pip-version-check
SHOW_ERRORS := { tail -n 30 $(LOG); echo "make: the install failed; pip's whole output is in $(LOG)"; exit 1; }

$(STAMP): setup.cfg pyproject.toml
	@echo "make: installing Herald and its dependencies into $(VENV) (pip's output: $(LOG))"
	@$(PYTHON) -m venv $(VENV) && : > $(LOG)
	@$(PIP) --upgrade pip >> $(LOG) 2>&1 || $(SHOW_ERRORS)
	@$(PIP) -e '.[dev]' >> $(LOG) 2>&1 || $(SHOW_ERRORS)
	@$(PIP) -e '.[fast]' >> $(LOG) 2>&1 || \
	echo "make: gunicorn_h1c and hiredis (C extensions) could not be installed here: HTTP requests and Redis answers are parsed in Python, a little slower (why: $(LOG))"
	@touch $(STAMP)

run: $(STAMP)
	$(BIN)/herald run

serve: $(STAMP)
	$(BIN)/herald serve

test: $(STAMP) browser
	$(BIN)/python -m pytest

# The console's browser tests drive Debian's chromium: installed here where we may (root, apt-get), else skipped.
browser:
	@command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 || \
	{ [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1 && \
	  { apt-get install -y -qq chromium >/dev/null 2>&1 || \
	    { apt-get update -qq >/dev/null 2>&1 && apt-get install -y -qq chromium >/dev/null 2>&1; }; }; } || \
	echo "make test: no Chromium could be installed here: the browser tests (tests/test_console_browser.py) are skipped"

bench: $(STAMP)
	$(BIN)/python -m bench

clean:
	rm -rf $(VENV) var
