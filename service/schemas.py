"""Request and response schemas (marshmallow); they also generate /openapi.json."""
from __future__ import annotations

import re

import marshmallow as ma
from marshmallow import fields, validate

from domain import clock
from domain.errors import IllegalMove
from domain.fair import CLIENT_SEED
from domain.moves import StrictInteger
from domain.registry import GAMES
from domain.view_schema import Clock

FIRST_GAME = next(iter(GAMES.values()))  # the registry's first game, for the examples


class Document(ma.Schema):
    """A response document: its fields are documented, and games may add more."""

    class Meta:
        unknown = ma.INCLUDE


class StrictBoolean(fields.Boolean):
    """true or false: 1, "yes" or "true" are refused."""

    def _deserialize(self, value, attr, data, **kwargs):
        if not isinstance(value, bool):
            raise self.make_error("invalid")
        return value


class StrictNumber(fields.Float):
    """A JSON number: "1.5", true or NaN are refused."""

    def _deserialize(self, value, attr, data, **kwargs):
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise self.make_error("invalid")
        return super()._deserialize(value, attr, data, **kwargs)


class PlayerField(fields.Field):
    """A player as a plain name, or {"name", "client_seed"}."""

    def __init__(self, **kwargs):
        super().__init__(metadata=PLAYER_DOC, **kwargs)

    def _deserialize(self, value, attr, data, **kwargs):
        if isinstance(value, str):
            value = {"name": value}
        if not isinstance(value, dict):
            raise ma.ValidationError("a player is a name or an object with name and client_seed")
        return PlayerSchema().load(value)


class Text(fields.String):
    """Text a player typed: JSON may escape a lone surrogate, which is no character and which UTF-8 cannot hold."""

    def _deserialize(self, value, attr, data, **kwargs):
        text = super()._deserialize(value, attr, data, **kwargs)
        try:
            text.encode()
        except UnicodeEncodeError:
            raise ma.ValidationError("must be Unicode text (it holds a lone surrogate)") from None
        return text


SPACES = r"\t\n\x0b\x0c\r \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000"  # Unicode's White_Space
TRIM = re.compile(f"[{SPACES}]*(.*?)[{SPACES}]*", re.DOTALL)


class Trimmed(Text):
    """Text a player typed, kept without the spaces around it: refused if nothing else is left, if it holds one of
    `controls`, or if it is longer than `longest`. OpenAPI documents it by a pattern matching exactly what it takes
    (tests/test_input_limits.py checks that they agree), so that a client can check a value before sending it."""

    controls: str  # a regular expression's character class, without its brackets
    blank: str  # what a blank value is told
    held: str  # what a value holding a control character is told

    def __init__(self, longest: int, **kwargs):
        self.longest = longest
        self.control = re.compile(f"[{self.controls}]")
        edge = f"[^{SPACES}{self.controls}]"  # the first and the last character
        pattern = f"^[{SPACES}]*{edge}(?:[^{self.controls}]{{0,{longest - 2}}}{edge})?[{SPACES}]*$"
        super().__init__(metadata={"pattern": pattern}, **kwargs)

    def _deserialize(self, value, attr, data, **kwargs):
        text = TRIM.fullmatch(super()._deserialize(value, attr, data, **kwargs))[1]
        if not text:
            raise ma.ValidationError(self.blank)
        control = self.control.search(text)
        if control:
            raise ma.ValidationError(f"{self.held} (it holds {control[0]!r})")
        if len(text) > self.longest:
            raise ma.ValidationError(f"must be at most {self.longest} characters, not {len(text)}")
        return text


class Name(Trimmed):
    """A player's, seat's or tournament's name: one line of 1 to 64 characters."""

    controls = r"\x00-\x1f\x7f-\x9f\u2028\u2029"  # control characters, line and paragraph separators
    blank = "must not be blank: give a name of 1 to 64 characters"
    held = "must be one line of text, without control characters"

    def __init__(self, **kwargs):
        super().__init__(64, **kwargs)


class Reason(Trimmed):
    """Why something was done or asked (a reason, a claim, an explanation): it may run over several lines."""

    controls = r"\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f"  # control characters but tab, newline and carriage return
    blank = "must not be blank: say why in a few words"
    held = "must not hold control characters other than tabs and line breaks"


NAME_DOC = {"type": "string", **Name().metadata}
PLAYER_DOC = {"oneOf": [
    {**NAME_DOC, "description": "the player's name"},
    {"type": "object", "required": ["name"], "additionalProperties": False, "properties": {
        "name": NAME_DOC, "client_seed": {"type": "string", "pattern": CLIENT_SEED.pattern}}}]}


class WholeMatch(validate.Regexp):
    """A pattern the whole value must match (Regexp lets "$" match before a final newline)."""

    def __call__(self, value):
        if self.regex.fullmatch(value) is None:
            raise ma.ValidationError(self._format_error(value))
        return value


def client_seed_field(**kwargs) -> fields.String:
    return fields.String(validate=WholeMatch(CLIENT_SEED, error="client_seed must be 1 to 64 letters, digits, _ or -"),
                         **kwargs)


class PlayerSchema(ma.Schema):
    name = Name(required=True)
    client_seed = client_seed_field()


class CreateMatchSchema(ma.Schema):
    game = fields.String(required=True, metadata={"example": FIRST_GAME.name})
    players = fields.List(PlayerField(), required=True, validate=validate.Length(min=1, max=8),
                          metadata={"example": ["Ana", "Bo", "Cy"]})
    options = fields.Dict(keys=fields.String(), values=fields.Raw(), load_default=dict, metadata={
        "description": "the game's options, each a JSON document, as the game's variant lists them (a game may "
                       "take none)"})
    await_client_seeds = StrictBoolean(load_default=False, metadata={
        "description": "wait in status 'seating' until every seat posts its client seed"})

    @ma.validates("game")
    def a_registered_game(self, value, **kwargs):
        """A game in the registry as the request comes, so a game registered after start-up may be played too."""
        if value not in GAMES:
            raise ma.ValidationError(f"Must be one of: {', '.join(sorted(GAMES))}.")

    @ma.validates_schema
    def seats_fit_the_game(self, data, **kwargs):
        game = GAMES.get(data.get("game"))
        if not game:
            return
        if not game.min_players <= len(data.get("players", [])) <= game.max_players:
            raise ma.ValidationError(f"{game.name} is played by {game.min_players} to {game.max_players} players",
                                     "players")
        options = data.get("options", {})
        unknown = sorted(set(options) - game.match_options)
        if unknown:
            takes = ", ".join(sorted(game.match_options))
            raise ma.ValidationError(f"{game.name} takes no option {', '.join(unknown)} (its options: {takes})",
                                     "options")
        try:
            game.check_options(options)
        except IllegalMove as error:
            raise ma.ValidationError(str(error), "options") from None


def _seconds(name: str) -> dict:
    return {"type": "number", "minimum": clock.SHORTEST if name in clock.SPENT_FIRST else 0, "maximum": clock.LONGEST}


# the match option "clock" (domain/clock.py): chess-style or a per-decision allowance with a bank
CLOCK_DOC = {"description": "a clock per seat; only the awaited seat's runs (every game takes it)", "oneOf": [
    {"type": "object", "additionalProperties": False, "required": [*sorted(kind), "on_timeout"],
     "properties": {**{key: _seconds(key) for key in sorted(kind)},
                    "on_timeout": {"type": "string", "enum": list(clock.ON_TIMEOUT)}}} for kind in clock.KINDS]}


def create_match_body() -> dict:
    """POST /matches' body as OpenAPI documents it: one variant per game, with its player count and options."""
    described = {name: f.metadata["description"] for name, f in CreateMatchSchema._declared_fields.items()
                 if "description" in f.metadata}
    variants = [{"type": "object", "required": ["game", "players"], "additionalProperties": False, "properties": {
        "game": {"type": "string", "enum": [name]},
        "players": {"type": "array", "items": PLAYER_DOC, "minItems": game.min_players, "maxItems": game.max_players},
        "options": {"type": "object", "additionalProperties": False, "description": described["options"],
                    "properties": {**{option: {"type": game.option_kind(option)} for option in sorted(game.options)},
                                   clock.OPTION: CLOCK_DOC}},
        "await_client_seeds": {"type": "boolean", "default": False, "description": described["await_client_seeds"]},
    }} for name, game in sorted(GAMES.items())]
    example = {"game": FIRST_GAME.name, "players": ["Ana", "Bo", "Cy", "Di"][:min(FIRST_GAME.min_players + 1, FIRST_GAME.max_players)]}
    return {"required": True, "content": {"application/json": {"schema": {"oneOf": variants}, "example": example}}}


class SeatSchema(Document):
    seat = fields.Integer()
    name = fields.String()
    token = fields.String()


class CreatedSchema(Document):
    match_id = fields.String()
    game = fields.String()
    version = fields.Integer()
    status = fields.String()
    seed_commitment = fields.String()
    seats = fields.List(fields.Nested(SeatSchema))
    referee_token = fields.String()


class MatchQuerySchema(ma.Schema):
    status = fields.String(validate=validate.OneOf(["active", "finished"]))


class SummarySchema(Document):
    match_id = fields.String()
    game = fields.String()
    version = fields.Integer()
    status = fields.String()
    players = fields.List(fields.String())
    current_seat = fields.Integer(allow_none=True)
    turn = fields.Integer()
    winner = fields.Integer(allow_none=True)
    seed_commitment = fields.String()
    created_on = fields.String()


class LegalMovesSchema(Document):
    version = fields.Integer()
    moves = fields.List(fields.Dict())


class EventSchema(Document):
    version = fields.Integer()
    type = fields.String()
    payload = fields.Dict()
    chain = fields.String()


class MoveResultSchema(Document):
    version = fields.Integer()
    chain_head = fields.String()
    status = fields.String()
    awaiting_seat = fields.Integer(allow_none=True, metadata={"description": "whose decision is next"})
    events = fields.List(fields.Nested(EventSchema))
    view = fields.Dict(metadata={"description": "with ?include=view: the mover's view after the move, as GET /view"})
    legal_moves = fields.List(fields.Dict(), metadata={
        "description": "with ?include=legal_moves: the mover's legal moves now, as GET /legal-moves lists them"})


class MoveQuerySchema(ma.Schema):
    include = fields.String(validate=validate.Regexp(r"^(view|legal_moves)(,(view|legal_moves))?$"), metadata={
        "description": "what to answer besides the events, saving a request: view, legal_moves or both (comma)"})


class EventsSchema(Document):
    version = fields.Integer()
    events = fields.List(fields.Nested(EventSchema))


class HealthSchema(Document):
    status = fields.String()
    event_store = fields.String()
    redis = fields.String()


class ClientSeedSchema(ma.Schema):
    client_seed = client_seed_field(required=True)


class SeatingSchema(Document):
    version = fields.Integer()
    status = fields.String()
    client_seeds = fields.List(fields.String(allow_none=True))


class RandomEntrySchema(Document):
    nonce = fields.Integer()
    kind = fields.String()
    version = fields.Integer()
    result = fields.Raw()


class AuditSchema(Document):
    fairness = fields.String()
    match_id = fields.String()
    seed_commitment = fields.String()
    client_seeds = fields.List(fields.String(allow_none=True))
    server_seed = fields.String(allow_none=True, metadata={"description": "null until revealed, unless referee"})
    random = fields.List(fields.Nested(RandomEntrySchema))
    chain_head = fields.String()


class OpenDisputeSchema(ma.Schema):
    version = StrictInteger(required=True, validate=validate.Range(min=1))
    claim = Reason(2000, required=True)


class RulingSchema(ma.Schema):
    ruling = fields.String(required=True, validate=validate.OneOf(["upheld", "rejected"]))
    explanation = Reason(4000, required=True)
    remedy = Reason(2000, load_default=None, allow_none=True)
    backup_to = StrictInteger(validate=validate.Range(min=1),
                               metadata={"description": "a remedy that backs the match up to this version"})


class DisputeSchema(Document):
    dispute_id = fields.String()
    seat = fields.Integer()
    version = fields.Integer()
    claim = fields.String()
    ruling = fields.String(allow_none=True)
    explanation = fields.String(allow_none=True)
    remedy = fields.String(allow_none=True)
    evidence = fields.Dict()


class ClockChangeSchema(ma.Schema):
    """The referee's change to a match's clocks: time added to a seat's, or the clocks paused or restarted."""

    reason = Reason(2000, required=True)  # recorded in the event, shown to every seat
    seat = StrictInteger(validate=validate.Range(min=0, max=7), metadata={"description": "with add_s: whose clock"})
    add_s = StrictNumber(validate=validate.Range(min=clock.SHORTEST, max=clock.LONGEST),
                         metadata={"description": "seconds added to the seat's clock"})
    paused = StrictBoolean(metadata={"description": "true pauses every clock, false restarts the awaited seat's"})


class ClocksSchema(Document):
    version = fields.Integer()
    clocks = fields.List(fields.Nested(Clock))


class StreamQuerySchema(ma.Schema):
    from_ = fields.Integer(data_key="from", validate=validate.Range(min=0), metadata={
        "description": "resume after this version (a browser sends Last-Event-ID instead); 0: from the start"})


class WhoAmISchema(Document):
    match_id = fields.String(metadata={"description": "a match token's match"})
    seat = fields.Integer(metadata={"description": "a seat's token: its seat in that match"})
    role = fields.String(validate=validate.OneOf(["referee", "organiser"]), metadata={
        "description": "the match's referee, or the tournament's organiser"})
    tournament_id = fields.String(metadata={"description": "a tournament token's tournament"})
    player_id = fields.String(metadata={"description": "a player's token: its player, seated with it at its tables"})


class ReplayQuerySchema(ma.Schema):
    version = fields.Integer(required=True, validate=validate.Range(min=1))


class TimelineEntrySchema(Document):
    version = fields.Integer()
    type = fields.String()
    seat = fields.Integer(allow_none=True)
    turn = fields.Integer(allow_none=True)
    summary = fields.String()
    retracted = fields.Boolean()


class UndoSchema(ma.Schema):
    to_version = StrictInteger(validate=validate.Range(min=1), metadata={
        "description": "the referee's backup: required from the referee (403 without it), refused from a seat (403: "
                       "a seat takes back its own latest action with {} and asks for more with POST /undo-requests)"})
    reason = Reason(2000)


class UndoRequestSchema(ma.Schema):
    to_version = StrictInteger(required=True, validate=validate.Range(min=1))
    reason = Reason(2000, required=True)


class UndoAnswerSchema(ma.Schema):
    decision = fields.String(required=True, validate=validate.OneOf(["approve", "decline"]))
    reason = Reason(2000)


class UndoRequestViewSchema(Document):
    request_id = fields.String()
    seat = fields.Integer()
    to_version = fields.Integer()
    reason = fields.String()
    status = fields.String()
    answer = fields.String(allow_none=True)


class DecklistCheckSchema(ma.Schema):
    game = fields.String(required=True, validate=validate.OneOf(sorted(GAMES)))
    decklist = fields.Dict(required=True, metadata={"description": "the game's decklist, e.g. Kingdom TCG's "
                                                                   "{coronado, combatants, strategy} by card name"})
    catalogue = fields.Dict(metadata={"description": "the card catalogue to check against (default: the game's)"})


class DecklistVerdictSchema(Document):
    valid = fields.Boolean(required=True)
    problems = fields.List(fields.String(), required=True, metadata={
        "description": "every violation: which limit, which card, how many"})


class EndOfRoundSchema(ma.Schema):
    extra_turns = StrictInteger(validate=validate.Range(min=0, max=20))
    draw = StrictBoolean(validate=validate.Equal(True))


class CreateTournamentSchema(ma.Schema):
    name = Name(required=True)
    game = fields.String(required=True, validate=validate.OneOf(sorted(GAMES)))
    format = fields.String(required=True, validate=validate.OneOf(["swiss", "round_robin", "single_elimination"]),
                           metadata={"description": "swiss (2-player tables, or pods of 3 to 5), round_robin or "
                                                    "single_elimination (2-player tables); the first two may end "
                                                    "in a top cut"})
    rounds = StrictInteger(load_default=None, validate=validate.Range(min=1, max=20), metadata={
        "description": "the Swiss rounds; left out, as many as the players at round 1 call for (2 players 1 round, "
                       "3-4 2, 5-8 3, 9-16 4, 17-32 5, and so on); a round robin plays one round per opponent"})
    table_size = StrictInteger(load_default=2, validate=validate.Range(min=2, max=5), metadata={
        "description": "2, or 3 to 5 for Swiss pods grouped by standing (tables of this size and one fewer)"})
    late_entry_until_round = StrictInteger(load_default=1, validate=validate.Range(min=1, max=20), metadata={
        "description": "Swiss: players may register until this round is paired (1: none after round 1)"})
    top_cut = StrictInteger(load_default=0, validate=validate.OneOf([0, 4, 8]), metadata={
        "description": "a single-elimination top cut after the Swiss rounds, seeded 1v8, 4v5, 2v7, 3v6"})
    best_of = StrictInteger(load_default=1, validate=validate.OneOf([1, 3, 5]), metadata={
        "description": "the games a two-player table plays at most, each a match of its own, until a player has won "
                       "more than half of them (the top cut too)"})
    round_minutes = StrictNumber(validate=validate.Range(min=0.01, max=24 * 60), metadata={
        "description": "round time: when it runs out after a round is paired, time is called (fractions allowed)"})
    end_of_round = fields.Nested(EndOfRoundSchema, metadata={
        "description": "with round_minutes, what unfinished tables play once time is called: {\"extra_turns\": N} "
                       "then the game counts the position, or {\"draw\": true}; default 5 extra turns (one key)"})
    placement_points = fields.List(StrictInteger(validate=validate.Range(min=0, max=100)),
                                   load_default=lambda: [3, 2, 1, 0],
                                   validate=validate.Length(min=2, max=8))
    options = fields.Dict(keys=fields.String(), values=fields.Dict(), load_default=dict, metadata={
        "description": "the options every match of the tournament is created with, as the game takes them"})


class TournamentCreatedSchema(Document):
    tournament_id = fields.String(required=True)
    organiser_token = fields.String(required=True)


class TournamentSchema(Document):
    tournament_id = fields.String()
    name = fields.String()
    game = fields.String()
    format = fields.String()
    rounds = fields.Integer(allow_none=True, metadata={
        "description": "the Swiss rounds asked for when it was created; null: as many as the players call for"})
    total_rounds = fields.Integer(metadata={
        "description": "the rounds it plays: its Swiss or round-robin rounds and its top cut's, or its bracket's"})
    status = fields.String(metadata={"description": "registering, running or finished"})
    round = fields.Integer(metadata={"description": "the last round paired"})
    players = fields.Integer()
    seed_commitment = fields.String()


class RegisterPlayerSchema(ma.Schema):
    name = Name(required=True)
    decklist = fields.Dict()
    missed = fields.String(validate=validate.OneOf(["loss", "bye"]), metadata={
        "description": "a late entry (after round 1 is paired): each round the player missed counts as a loss or a bye"})
    byes = StrictInteger(load_default=0, validate=validate.Range(min=0, max=5), metadata={
        "description": "Swiss, before round 1: the first rounds the player is given a bye"})


class DecklistSchema(Document):
    player_id = fields.String()
    decklist = fields.Dict(metadata={"description": "the decklist the player registered with"})
    salt = fields.String(metadata={"description": "with the decklist's canonical JSON, what its commitment hashes"})
    commitment = fields.String(metadata={
        "description": "hex SHA-256 of the salt then the decklist's canonical JSON, as PlayerRegistered published it"})


class PlayerCreatedSchema(Document):
    player_id = fields.String(required=True)
    token = fields.String(required=True)


class GameSchema(Document):
    match_id = fields.String()
    players = fields.List(fields.String(), metadata={"description": "player ids in this game's seat order"})
    placements = fields.List(fields.List(fields.String()), allow_none=True,
                             metadata={"description": "first place first, a draw together; null while playing"})


class TableSchema(Document):
    table = fields.Integer()
    match_id = fields.String(metadata={"description": "the match being played (best of N: the current game's)"})
    players = fields.List(fields.String(), metadata={"description": "player ids in seat order"})
    placements = fields.List(fields.List(fields.String()), allow_none=True,
                             metadata={"description": "first place first, ties together; null while playing"})
    games = fields.List(fields.Nested(GameSchema), metadata={
        "description": "best of 3 or 5 only: each game so far, the one being played last"})


class RoundSchema(Document):
    round = fields.Integer()
    kind = fields.String()
    tables = fields.List(fields.Nested(TableSchema))
    byes = fields.List(fields.String())
    deadline = fields.String(metadata={"description": "with round time: when it runs out, ISO 8601 UTC"})
    time_called = fields.Dict(metadata={"description": "once time is called: when (at) and the tables still playing"})


class StandingSchema(Document):
    rank = fields.Integer()
    player_id = fields.String()
    name = fields.String()
    points = fields.Float()
    matches = fields.Dict()
    games = fields.Dict(metadata={"description": "games won, lost and drawn (a bye two won; a result without its "
                                                 "games one game)"})
    game_points = fields.Float(metadata={"description": "3 a game won, 1 a game drawn"})
    omw = fields.Float()
    gw = fields.Float()
    ogw = fields.Float()
    dropped = fields.Boolean()
    disqualified = fields.String(allow_none=True, metadata={"description": "why the organiser disqualified the "
                                                                           "player, or null"})


class StandingsSchema(Document):
    round = fields.Integer()
    standings = fields.List(fields.Nested(StandingSchema))


class ResultSchema(ma.Schema):
    round = StrictInteger(required=True, validate=validate.Range(min=1, max=100))
    table = StrictInteger(required=True, validate=validate.Range(min=1, max=10000))
    placements = fields.List(fields.List(fields.String(validate=validate.Length(min=1, max=20)),
                                         validate=validate.Length(min=1, max=8)),
                             required=True, validate=validate.Length(min=1, max=8))
    reason = Reason(500, required=True)
    games = fields.Dict(keys=fields.String(), values=StrictInteger(validate=validate.Range(min=0, max=5)),
                        validate=validate.Length(equal=2), metadata={
                            "description": "a two-player table: the games each player won, by player id (the "
                                           "placements must follow them)", "minProperties": 2, "maxProperties": 2})
    drawn = StrictInteger(load_default=0, validate=validate.Range(min=0, max=5), metadata={
        "description": "with games: the games drawn"})


class TournamentTimelineSchema(Document):
    sentences = fields.List(fields.String(), metadata={"description": "one sentence an event, oldest first"})


class ReportSchema(ma.Schema):
    round = StrictInteger(required=True, validate=validate.Range(min=1, max=100))
    table = StrictInteger(required=True, validate=validate.Range(min=1, max=10000))
    games = fields.Dict(keys=fields.String(), values=StrictInteger(validate=validate.Range(min=0, max=5)), required=True,
                        validate=validate.Length(equal=2), metadata={
                            "description": "the games each player of the table won, by player id",
                            "minProperties": 2, "maxProperties": 2})
    drawn = StrictInteger(load_default=0, validate=validate.Range(min=0, max=5))


class ReportAnswerSchema(ma.Schema):
    """The opponent's answer to a report: confirm, or dispute with a reason."""

    decision = fields.String(required=True, validate=validate.OneOf(["confirm", "dispute"]))
    reason = Reason(500)


class ReportViewSchema(Document):
    report_id = fields.String()
    round = fields.Integer()
    table = fields.Integer()
    by = fields.String(metadata={"description": "the reporting player"})
    games = fields.Dict(metadata={"description": "games won, by player id"})
    drawn = fields.Integer()
    status = fields.String(metadata={"description": "waiting, confirmed, disputed, or settled by the organiser"})
    answer = fields.Dict(metadata={"description": "the opponent's answer: by, and a dispute's reason"})


class DisqualifySchema(ma.Schema):
    reason = Reason(500, required=True)


class SwapSchema(ma.Schema):
    swap = fields.List(fields.String(validate=validate.Length(min=1, max=20)), required=True,
                       validate=validate.Length(equal=2), metadata={"description": "two player ids"})
    reason = Reason(500, required=True)
