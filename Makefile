# The two commands of the README: `make run` and `make test`. Both install
# everything they need into .venv first.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test install openapi bench lint clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

install: $(STAMP)

run: $(STAMP)
	$(BIN)/boardlog serve

test: $(STAMP)
	$(BIN)/python -m pytest $(PYTEST_ARGS)

openapi: $(STAMP)
	$(BIN)/boardlog openapi --output openapi/openapi.yaml

bench: $(STAMP)
	$(BIN)/python bench/eventstore.py
	$(BIN)/python bench/api.py
	$(BIN)/python bench/notify.py

clean:
	rm -rf $(VENV) .pytest_cache
