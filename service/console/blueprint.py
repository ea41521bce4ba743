"""The console's blueprint: its templates (and each game's table template, under the game's name), its static files."""
from __future__ import annotations

from pathlib import Path

from flask import Blueprint
from jinja2 import ChoiceLoader, FileSystemLoader, PrefixLoader

from domain.registry import GAMES
from service.console.present import words

HERE = Path(__file__).parent

console = Blueprint("console", __name__, url_prefix="/console", static_folder="static",
                    static_url_path="/static")
console.jinja_loader = ChoiceLoader([
    FileSystemLoader(HERE / "templates"),
    PrefixLoader({name: FileSystemLoader(game.table_templates) for name, game in GAMES.items()
                  if game.table_templates}),
])


@console.app_template_filter("words")
def words_filter(name) -> str:
    return words(name)
