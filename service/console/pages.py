"""Sign-in, sign-out and the home page: what the signed-in token can see, with the tables that need someone."""
from __future__ import annotations

from flask import redirect, request, url_for

from service import tournament_routes
from service.access import herald, load
from service.console import forms
from service.console.api import call
from service.console.blueprint import console
from service.console.holder import forget, identify, remember, signed_in
from service.console.present import flags
from service.console.render import page, stall_seconds
from service.console.tournament_pages import tables_of
from service.routes import current_summary

LISTED = 50  # matches on the public home page, newest first


@console.get("/sign-in")
def sign_in_form():
    return page("sign_in.html")


@console.post("/sign-in")
def sign_in():
    token = forms.read(forms.SignIn, request.form)["token"].strip()
    if identify(token) is None:
        return page("sign_in.html", 401, problem="this token is not known: paste the token you were given when the "
                                                 "match or tournament was created, or when you registered")
    return remember(redirect(url_for("console.home"), 303), token)


@console.post("/sign-out")
def sign_out():
    return forget(redirect(url_for("console.home"), 303))


@console.get("/")
def home():
    holder = signed_in()
    if holder is None:
        herald().refresh()
        matches = herald().projector.list()[::-1][:LISTED]
        return page("home.html", holder=None, tournaments=herald().projector.tournaments(), matches=matches)
    if holder.kind == "tournament":
        settled = call(tournament_routes.current, holder.of)
        return page("home.html", holder=holder, tournament=settled.summary(), tables=tables_of(holder, settled))
    loaded = call(load, holder.of)
    match = current_summary(loaded)
    needs = flags(loaded, stall_seconds()) if holder.role == "referee" else []
    return page("home.html", holder=holder, match=match, needs=needs)
