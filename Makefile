# The commands a newcomer needs: `make setup` (once), `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: setup run playground test lint format catalogs clean

# setuptools 77 or newer, as pyproject.toml's build needs (PEP 639 licence), so the venv can
# also build the project itself (bench/engine_vs_py21.py compiles the engine with it). The
# editable install's "Editable installation" banner is setuptools' note to its own users.
$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip "setuptools>=77"
	PYTHONWARNINGS="ignore:Editable installation" $(BIN)/pip install --quiet -e ".[dev,postgres]"
	touch $(STAMP)

## Create .venv and install the project with its dev and PostgreSQL extras (once).
setup: $(STAMP)

## Start the bot (reads DISCORD_TOKEN etc. from the environment or .env).
run: $(STAMP)
	$(BIN)/python -m bot $(ARGS)

## The bot on a local Discord, in a browser: http://127.0.0.1:8765 (no Discord account).
playground: $(STAMP)
	$(BIN)/python -m bot playground $(ARGS)

## Run the whole test suite.
test: $(STAMP)
	$(BIN)/python -m pytest $(PYTEST_ARGS)

## ruff (lint and format check), mypy --strict, the import-linter contracts (layers, the
## engine's one door, no cycles: pyproject.toml), hadolint on the Dockerfile, and no
## private or non-public names of discord.py, aiohttp or aiosqlite (scripts/).
lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	$(BIN)/lint-imports
	$(BIN)/hadolint Dockerfile
	$(BIN)/python scripts/check_private_names.py

## Bring the message catalogs (bot/locales) in line with the code; then translate the new
## entries (docs/TRANSLATING.md).
catalogs: $(STAMP)
	$(BIN)/python scripts/catalogs.py

format: $(STAMP)
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
