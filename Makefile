# The two commands of the README: `make run` and `make test`. Both install
# everything they need into .venv first.
#   make run PORT=8001 HOST=0.0.0.0     another port or address
#   make test PYTHON=python3.13 VENV=.venv313   another Python, in its own venv
PYTHON ?= python3
VENV ?= .venv
PORT ?= 8000
HOST ?= 127.0.0.1
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test install openapi bench lint clean

# pip's -qq keeps its errors and drops its chatter; the lines around it say
# what is slow.
$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 11))' || \
	  { echo "boardlog needs Python 3.11 or newer; $(PYTHON) is $$($(PYTHON) -V 2>&1): try make $(MAKECMDGOALS) PYTHON=python3.13" >&2; exit 1; }
	@echo "installing boardlog and its dependencies into $(VENV) with $$($(PYTHON) -V) (a minute or two the first time)..."
	@$(PYTHON) -m venv $(VENV)
	@$(BIN)/python -m pip install -qq --upgrade pip
	@$(BIN)/python -m pip install -qq -e '.[test]'
	@touch $(STAMP)
	@echo "installed into $(VENV)"

install: $(STAMP)

run: $(STAMP)
	$(BIN)/boardlog serve --host $(HOST) --port $(PORT)

test: $(STAMP)
	$(BIN)/python -m pytest $(PYTEST_ARGS)

openapi: $(STAMP)
	$(BIN)/boardlog openapi --output openapi/openapi.yaml

bench: $(STAMP)
	$(BIN)/python bench/eventstore.py
	$(BIN)/python bench/api.py
	$(BIN)/python bench/history.py
	$(BIN)/python bench/waiting.py
	$(BIN)/python bench/bots.py
	$(BIN)/python bench/notify.py
	$(BIN)/python bench/pool_check.py
	$(BIN)/python bench/verifiers.py

clean:
	rm -rf $(VENV) .pytest_cache
