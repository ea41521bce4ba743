"""Rendering a console page: told who is signed in; a refusal of the API shown as a page with its status."""
from __future__ import annotations

from flask import current_app, redirect, render_template, request

from service.console import forms
from service.console.api import Refused, call
from service.console.blueprint import console
from service.console.holder import signed_in


def stall_seconds() -> int:
    return current_app.config["HERALD_STALL_SECONDS"]


def page(template: str, status: int = 200, **context):
    context.setdefault("holder", signed_in())
    return render_template(template, **context), status


@console.errorhandler(Refused)
def refused(error: Refused):
    return page("refused.html", error.status, reason=error.reason)


def act(schema: type[forms.Form], command, again, back: str):
    """Read the form and run command(form, token), the API's operation, with the signed-in token; then back to the
    page (303), or again(reason, status): the page once more with the API's reason."""
    holder = signed_in()
    try:
        form = forms.read(schema, request.form)
        if holder is None:
            raise Refused(401, "sign in first: this needs your token")
        call(command, form, holder.token)
    except Refused as refusal:
        return again(refusal.reason, refusal.status)
    return redirect(back, 303)
