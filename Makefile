# clubsite — two commands: `make run` and `make test` (see README.md).
SHELL := /bin/bash
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
PY := $(VENV)/bin/python
HOST ?= 127.0.0.1
PORT ?= 8000
PYTEST_ARGS ?= -n 2 --dist worksteal
# gunicorn for `make run`: threads for the requests that wait on the database and Redis (a
# result post, a ranking read), and two processes a core, so that a process's collector pause
# or GIL queue holds up a quarter of the requests, not half; see docs/benchmarks.md, live load.
GUNICORN_WORKERS ?= 4
GUNICORN_THREADS ?= 4

.PHONY: run test install system-deps messages migrate demo lint bench worker clean backup restore

$(VENV)/.installed: pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e ".[test]"
	touch $@

# Debian packages the site needs: gettext (compile translations), Pango (WeasyPrint PDFs),
# chromium (browser tests), poppler-utils (tests read PDFs back as text).
# Installed with apt-get when missing and we are root.
system-deps:
	@missing=""; \
	command -v msgfmt >/dev/null || missing="$$missing gettext"; \
	command -v pdftotext >/dev/null || missing="$$missing poppler-utils"; \
	ldconfig -p | grep -q libpango-1.0 || missing="$$missing libpango-1.0-0 libpangoft2-1.0-0"; \
	test -x /usr/bin/chromium || missing="$$missing chromium"; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    echo "installing Debian packages:$$missing"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null; \
	  else echo "please install the Debian packages:$$missing" >&2; exit 1; fi; \
	fi

messages: $(VENV)/.installed
	$(PY) manage.py compilemessages --ignore=.venv --ignore=var -v 0

install: system-deps $(VENV)/.installed messages

migrate: install
	$(PY) manage.py migrate --noinput -v 0

# FEDERATION=1 make run: three demo clubs, each at its sub-domain of localhost (browsers
# send *.localhost to this machine): http://mediterraneo.localhost:8000/ and so on.
ifeq ($(FEDERATION),1)
export CLUB_BASE_DOMAIN ?= localhost
export ALLOWED_HOSTS ?= 127.0.0.1,localhost,.localhost,[::1]
DEMO_ARGS := --federation
endif

demo: migrate
	$(PY) manage.py import_laws
	$(PY) manage.py demo $(DEMO_ARGS)

run: demo
	@echo ""
	@echo "  clubsite is running at http://$(HOST):$(PORT)/"
ifeq ($(FEDERATION),1)
	@echo "  three clubs: http://mediterraneo.localhost:$(PORT)/ http://atlantico.localhost:$(PORT)/ http://cantabrico.localhost:$(PORT)/"
endif
	@echo "  demo logins: secretaria / director / jugador, password demo1234"
	@echo "  (two-factor sign-in for staff is off in this demo; STAFF_TWO_FACTOR=1 make run asks it)"
	@echo ""
	STAFF_TWO_FACTOR=$${STAFF_TWO_FACTOR:-0} $(VENV)/bin/gunicorn clubsite.wsgi --bind $(HOST):$(PORT) --workers $(GUNICORN_WORKERS) --threads $(GUNICORN_THREADS) \
	  --access-logfile - --log-level warning

test: install
	$(MAKE) --no-print-directory lint
	$(PY) manage.py makemigrations --check --dry-run -v 0
	$(PY) -m pytest $(PYTEST_ARGS)

# The checks .pre-commit-config.yaml runs on each commit, over the whole tree.
lint: $(VENV)/.installed
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/djhtml --check $$(git ls-files 'templates/*.html' '*/templates/*.html' 2>/dev/null || find templates -name '*.html')
	$(VENV)/bin/mypy

# -B: the embedded beat re-sends PDF and upload jobs lost to a broker outage or a killed
# worker (tournaments/jobs/sweep.py). Run one worker with -B per site.
worker: install
	$(VENV)/bin/celery -A clubsite worker -B -l info

bench: install
	$(PY) bench/run_all.py

# Backups (README.md "Backups"): the database and the media files, side by side.
#   make backup [OUTPUT=DIR]       make restore FILE=path/to/clubsite-….sqlite3|.pgdump [YES=1]
backup: $(VENV)/.installed
	$(PY) manage.py backup $(if $(OUTPUT),--output "$(OUTPUT)")

restore: $(VENV)/.installed
	@test -n "$(FILE)" || { echo "usage: make restore FILE=path/to/backup [YES=1]" >&2; exit 2; }
	$(PY) manage.py restore "$(FILE)" $(if $(YES),--yes)

clean:
	rm -rf $(VENV) var/static
