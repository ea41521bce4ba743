"""The console's forms cannot be sent from another site: every post (sign-in included) must carry the CSRF token of
its page (Flask-WTF's CSRFProtect, kept in the console's session cookie), and is refused outright when the browser
says it comes from another origin (Origin, Sec-Fetch-Site). Another port of the same host is another origin: the
browser sends it the SameSite cookies all the same. The API is left alone: it takes bearer tokens, never a cookie."""
from __future__ import annotations

from pathlib import Path
from urllib.parse import urlsplit

from flask import request
from flask_wtf.csrf import CSRFError, CSRFProtect, generate_csrf
from markupsafe import Markup, escape

from service.console.api import Refused
from service.console.blueprint import console
from service.console.holder import PATH
from service.console.secret_key import secret_key

csrf = CSRFProtect()
SAFE = {"GET", "HEAD", "OPTIONS"}
OWN = {"same-origin", "none"}  # Sec-Fetch-Site: this origin's own page, or the person (a bookmark, the address bar)
# The Origin's host and port are compared with the request's Host, not its scheme: behind a proxy ending TLS (Host
# kept), Herald is asked over http for an https page; Sec-Fetch-Site tells http from https apart all the same.


def protect_forms(app, data_dir: Path) -> None:
    """CSRFProtect checking the console's posts only (refuse_forgery), its session cookie kept for the console."""
    app.secret_key = secret_key(data_dir)
    app.config.update(
        WTF_CSRF_CHECK_DEFAULT=False,  # the API is not checked: it authenticates by bearer token alone
        WTF_CSRF_TIME_LIMIT=None,  # valid as long as the session: a page left open for hours still posts
        SESSION_COOKIE_NAME="herald_session",
        SESSION_COOKIE_PATH=PATH,
        SESSION_COOKIE_SAMESITE="Lax",  # it holds no identity, only the tokens' secret: a link from elsewhere keeps it
    )
    csrf.init_app(app)


@console.app_template_global()
def csrf_field() -> Markup:
    """The hidden field every console form posts its token in (htmx's boosted forms send it too)."""
    return Markup(f'<input type="hidden" name="csrf_token" value="{escape(generate_csrf())}">')


@console.before_request
def refuse_forgery():
    """403 for a post another origin sent, or one without its page's token, before its form is read."""
    if request.method in SAFE:
        return
    site = request.headers.get("Sec-Fetch-Site")
    origin = request.headers.get("Origin")
    if (site and site not in OWN) or (origin and urlsplit(origin).netloc != request.host):
        raise Refused(403, "this form was sent from another site: the console takes forms from its own pages only")
    try:
        csrf.protect()
    except CSRFError:
        raise Refused(403, "this form is out of date or was not sent from a console page: reload the page and send "
                           "it again") from None
