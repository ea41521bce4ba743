"""Who is asking: the match a route names and the role of the bearer token in it, and whose a token is."""
from __future__ import annotations

import functools
import threading

from eventsourcing.utils import get_topic
from flask import current_app, request
from redis.exceptions import RedisError

from domain.match import Match
from domain.matches import REFEREE, token_hash
from domain.tournaments.aggregate import PlayerRegistered, Tournament, stored_topics
from projections.projector import BATCH, TOKENS, TOURNAMENT_TOKENS
from service.problems import fail


def herald():
    """The application context the routes use (service.app.Herald)."""
    return current_app.extensions["herald"]


def load(match_id):
    """The match for reading and authorising (UnknownMatch is a 404); commands reload their own copy."""
    return herald().matches.load(match_id, for_reading=True)


def token_in(header: str) -> str | None:
    """The token of an Authorization header 'Bearer <token>', or None."""
    scheme, _, token = header.partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None


def bearer() -> str:
    token = token_in(request.headers.get("Authorization", ""))
    if token is None:
        fail(401, "send your seat's or the referee's token as 'Authorization: Bearer <token>'")
    return token


def authorize(match, token: str | None = None):
    """The holder's role in this match, a seat number or REFEREE: the bearer's, or a given token's (the console's)."""
    token = token or bearer()
    role = herald().matches.role_of(match, token)
    if role is not None:
        return role
    if known_elsewhere(token):
        fail(403, "this token belongs to another match or tournament: use your seat's or the referee's token of "
                  "this match")
    fail(401, "this token is not known: use the token you were given when the match was created")


def known_elsewhere(token: str) -> bool:
    """Whether a match or a tournament of this server holds the token (one that the route found not its own)."""
    return any(token_owner(token, index) for index in (TOKENS, TOURNAMENT_TOKENS))


def token_owner(token: str, index: str = TOKENS) -> str | None:
    """Whose token this is, "id:role", in the projector's index of match tokens (TOKENS) or of tournament tokens
    (TOURNAMENT_TOKENS): Redis's, brought up to date if it does not know the token (a match another worker has
    just created), or while Redis is down the event store's, as the views fall back to it (StoredTokens)."""
    digest = token_hash(token)
    context = herald()
    try:
        owner = context.projector.token_owner(digest, index)
        if owner is None and context.refresh():
            owner = context.projector.token_owner(digest, index)
        return owner
    except RedisError:
        return stored_tokens().owner(digest, index)


def stored_tokens() -> StoredTokens:
    """This app's StoredTokens, made when Redis is first found down."""
    extensions = current_app.extensions
    if "herald.stored_tokens" not in extensions:
        extensions.setdefault("herald.stored_tokens", StoredTokens(herald().matches))
    return extensions["herald.stored_tokens"]


class StoredTokens:
    """The projector's token indexes, read from the event store instead of Redis: only the events that hand out
    tokens, each read once (a look-up reads on from where the last one stopped), by one thread at a time."""

    TOPICS = (get_topic(Match.MatchCreated), *stored_topics(Tournament.TournamentCreated),
              *stored_topics(PlayerRegistered))

    def __init__(self, matches):
        self.matches = matches
        self.owners: dict[str, dict[str, str]] = {TOKENS: {}, TOURNAMENT_TOKENS: {}}
        self.position = 0
        self.reading = threading.Lock()

    def owner(self, digest: str, index: str) -> str | None:
        with self.reading:
            while batch := self.matches.recorder.select_notifications(self.position + 1, BATCH, topics=self.TOPICS):
                for notification in batch:
                    self.take(self.matches.mapper.to_domain_event(notification))
                self.position = batch[-1].id
        return self.owners[index].get(digest)

    def take(self, event) -> None:
        """The owners of the tokens an event hands out, as the projector names them."""
        of = str(event.originator_id)
        if isinstance(event, Match.MatchCreated):
            hashes = event.secret["tokens"]
            self.owners[TOKENS].update({hashes[REFEREE]: f"{of}:{REFEREE}",
                                        **{digest: f"{of}:{seat}" for seat, digest in enumerate(hashes["seats"])}})
        elif isinstance(event, Tournament.TournamentCreated):
            self.owners[TOURNAMENT_TOKENS][event.secret["organiser"]] = f"{of}:organiser"
        else:
            self.owners[TOURNAMENT_TOKENS][event.secret["token"]] = f"{of}:{event.payload['player_id']}"


def holding(view):
    """A route's view called with the loaded match and the bearer's role in it, instead of match_id."""

    @functools.wraps(view)
    def held(self, *args, match_id, **kwargs):
        match = load(match_id)
        return view(self, *args, match=match, role=authorize(match), **kwargs)

    return held


def require_referee(role):
    if role != REFEREE:
        fail(403, "only the referee may do this")


def require_seat(role):
    if role == REFEREE:
        fail(403, "only a seat may do this, with its own token")
