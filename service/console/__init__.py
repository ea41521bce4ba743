"""The console: server-rendered pages (Jinja2, htmx served from here) for referees, organisers, players and
spectators, built on the API itself (service/console/api.py)."""
from service.console import headers, match_pages, pages, tournament_pages  # noqa: F401 (their routes and hooks)
from service.console.blueprint import console
from service.console.forgery import protect_forms

__all__ = ["console", "protect_forms"]
