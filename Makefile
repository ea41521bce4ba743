PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test bench serve clean browser

$(STAMP): setup.cfg pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	@echo "$(BIN)/pip install --quiet -e '.[fast]'   # C parsers for HTTP and Redis, where they can be built"
	@$(BIN)/pip install --quiet -e '.[fast]' 2>/dev/null || \
	echo "make: gunicorn_h1c and hiredis (C extensions) could not be installed here: HTTP requests and Redis answers are parsed in Python, a little slower"
	touch $(STAMP)

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
