"""Who is signed in: the token kept in an HttpOnly, SameSite cookie (never in a URL or a page), and what it holds."""
from __future__ import annotations

from dataclasses import dataclass

from flask import request

from domain.matches import token_hash
from projections.projector import TOKENS, TOURNAMENT_TOKENS
from service.access import herald

COOKIE = "herald_token"
PATH = "/console"


@dataclass(frozen=True)
class Holder:
    """A token's owner: a match's seat or referee, or a tournament's organiser or player."""

    token: str
    kind: str  # "match" or "tournament"
    of: str  # the match or tournament id
    role: str  # "referee", a seat number, "organiser" or a player id

    @property
    def described(self) -> str:
        if self.kind == "match":
            return "the referee" if self.role == "referee" else f"seat {int(self.role) + 1}"
        return "the organiser" if self.role == "organiser" else f"player {self.role}"


def identify(token: str) -> Holder | None:
    """The holder of a token, from the token indexes the projector keeps; None if no match or tournament knows it."""
    herald().refresh()
    digest = token_hash(token)
    for kind, index in (("tournament", TOURNAMENT_TOKENS), ("match", TOKENS)):
        owner = herald().projector.token_owner(digest, index)
        if owner:
            of, _, role = owner.rpartition(":")
            return Holder(token, kind, of, role)
    return None


def signed_in() -> Holder | None:
    token = request.cookies.get(COOKIE)
    return identify(token) if token else None


def remember(response, token: str):
    """Keep the token for the console's pages only: script cannot read it, another site cannot send it."""
    response.set_cookie(COOKIE, token, httponly=True, samesite="Strict", secure=request.is_secure, path=PATH,
                        max_age=7 * 24 * 3600)
    return response


def forget(response):
    response.delete_cookie(COOKIE, path=PATH, httponly=True, samesite="Strict")
    return response
