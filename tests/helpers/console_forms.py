"""The console's pages and forms from Flask's test client as a browser uses them: forms posted with the CSRF token read
from a console page the same client loaded (its session cookie holds the token's secret), never with CSRF turned off."""
from __future__ import annotations

import html
import re

SECURITY_HEADERS = {"content-security-policy": "frame-ancestors 'none'", "x-frame-options": "DENY",
                    "x-content-type-options": "nosniff", "referrer-policy": "same-origin"}  # on every console page
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


def sign_in_form(client, token: str):
    return post_form(client, "/console/sign-in", {"token": token})


def page(client, path: str, status: int = 200) -> str:
    """A console page's HTML, answered with `status`."""
    response = client.get(path)
    assert response.status_code == status, response.get_data(as_text=True)[:2000]
    return response.get_data(as_text=True)


def alert(text: str) -> str:
    """What a page's alerts say."""
    return html.unescape(" ".join(re.findall(r'role="alert"[^>]*>([^<]*)<', text)))


CLOCK = {"clock": {"initial_s": 600, "increment_s": 5, "on_timeout": "lose"}}  # a match option: 10 minutes, +5 s a move


def seconds(shown: str) -> int:
    """A clock as the page shows it (9:05, 1:02:03) in seconds."""
    total = 0
    for part in shown.strip().split(":"):
        total = total * 60 + int(part)
    return total


def words(text: str) -> str:
    """A page's text without its tags, its spaces run together."""
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", text)))
