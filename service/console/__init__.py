"""The console: server-rendered pages (Jinja2, htmx served from here) for referees, organisers, players and
spectators, built on the API itself (service/console/api.py)."""
from service.console import match_pages, pages, tournament_pages  # noqa: F401 (their routes)
from service.console.blueprint import console

__all__ = ["console"]
