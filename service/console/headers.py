"""Security headers: on every answer, no framing (clickjacking), no content-type sniffing, no Referer to other
sites; on the console's pages a Content-Security-Policy besides, allowing only Herald's own scripts and styles (no
inline script or style: htmx's indicator style is turned off in base.html). /docs (swagger-ui) keeps an inline script
of its own and gets no CSP."""
from __future__ import annotations

from service.console.blueprint import console

EVERYWHERE = {
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",  # the Referer CSRFProtect checks over HTTPS is sent to Herald itself only
}
POLICY = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; object-src 'none'; "
          "base-uri 'none'; form-action 'self'; frame-ancestors 'none'")


@console.after_app_request
def everywhere(response):
    for name, value in EVERYWHERE.items():
        response.headers.setdefault(name, value)
    return response


@console.after_request
def policy(response):
    response.headers.setdefault("Content-Security-Policy", POLICY)
    return response
