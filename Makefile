# The two commands of the README: `make run` and `make test`. Both install
# everything they need into .venv first.
#   make run PORT=8001 HOST=0.0.0.0     another port or address
#   make test PYTHON=python3.13 VENV=.venv313   another Python, in its own venv
#   make test TEST_WORKERS=0                    the suite in one process (default: 3 workers)
PYTHON ?= python3
VENV ?= .venv
PORT ?= 8000
HOST ?= 127.0.0.1
# Most of the suite waits (on servers, streams, browsers) rather than computes,
# so three workers beat one even on two cores. Each worker is a pytest session
# of its own, with its own database and Redis database (or embedded servers);
# a file's tests stay together on one worker (--dist loadfile), so that its
# module-wide servers start once.
TEST_WORKERS ?= 3
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test install openapi bench lint clean

# pip's -qq keeps its errors and drops its chatter; the lines around it say
# what is slow.
$(STAMP): pyproject.toml
	@# First whether it runs at all (not found, not executable, a broken install): asking such an
	@# interpreter its version would be read as "too old".
	@$(PYTHON) -c pass >/dev/null 2>&1 || \
	  { echo "$(PYTHON) does not run ($$($(PYTHON) -c pass 2>&1 | tail -n 1)): name an interpreter that does, e.g. make $(MAKECMDGOALS) PYTHON=python3.13" >&2; exit 1; }
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
	$(BIN)/python -m pytest -n $(TEST_WORKERS) --dist loadfile $(PYTEST_ARGS)

openapi: $(STAMP)
	$(BIN)/boardlog openapi --output openapi/openapi.yaml

bench: $(STAMP)
	$(BIN)/python bench/eventstore.py
	$(BIN)/python bench/api.py
	$(BIN)/python bench/history.py
	$(BIN)/python bench/waiting.py
	$(BIN)/python bench/bots.py
	$(BIN)/python bench/notify.py
	$(BIN)/python bench/push.py
	$(BIN)/python bench/pool_check.py
	$(BIN)/python bench/verifiers.py
	$(BIN)/python bench/sizes.py
	$(BIN)/python bench/web.py
	$(BIN)/python bench/table.py

clean:
	rm -rf $(VENV) .pytest_cache
