"""Posting the console's forms from Flask's test client as a browser does: with the CSRF token read from a console
page the same client loaded (its session cookie holds the token's secret), never with CSRF turned off."""
from __future__ import annotations

import html
import re

FIELD = re.compile(r'<input type="hidden" name="csrf_token" value="([^"]+)">')


def token_in(page: str) -> str:
    """The CSRF token a console page's forms carry."""
    found = FIELD.search(page)
    assert found, "the page has no form carrying a CSRF token"
    return html.unescape(found[1])


def form_token(client, path: str = "/console/sign-in") -> str:
    """The token of the console page at path, loaded by this client."""
    page = client.get(path)
    assert page.status_code == 200, page.status_code
    return token_in(page.get_data(as_text=True))


def post_form(client, path: str, data: dict | None = None, **kwargs):
    """POST a console form with its token, as the page's form would send it."""
    return client.post(path, data={**(data or {}), "csrf_token": form_token(client)}, **kwargs)
