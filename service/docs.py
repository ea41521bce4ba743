"""/docs: swagger-ui from the swagger-ui-bundle package, served by Herald itself so that it renders offline."""
from __future__ import annotations

from flask import Blueprint, send_from_directory
from swagger_ui_bundle import swagger_ui_path

ASSETS = "/docs/assets/"
# flask-smorest's /docs page loads its scripts from ASSETS; no validator badge (it would call the internet)
SWAGGER_UI = {"OPENAPI_SWAGGER_UI_PATH": "/docs", "OPENAPI_SWAGGER_UI_URL": ASSETS,
              "OPENAPI_SWAGGER_UI_CONFIG": {"validatorUrl": None, "persistAuthorization": True}}
BEARER_SCHEME = {"type": "http", "scheme": "bearer",
                 "description": "a seat's or the referee's token, as POST /matches returned it"}

assets = Blueprint("docs_assets", __name__)


@assets.route(f"{ASSETS}<path:name>")
def asset(name: str):
    """A swagger-ui file (script, stylesheet, icon)."""
    return send_from_directory(swagger_ui_path, name)
