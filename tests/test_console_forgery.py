"""The console's forms refused when forged (issue 41), through Flask's test client and a real gunicorn: a post without
its page's CSRF token, or that the browser says came from another origin, is refused with 403 and changes nothing;
a move nested 1,000 deep is 400 with the reason, as the API answers; the API takes no cookie and needs no CSRF
token; every answer carries the security headers; the key that signs the tokens is shared by every worker and kept
across a restart."""
from __future__ import annotations

import http.cookiejar
import json
import multiprocessing
import urllib.error
import urllib.parse
import urllib.request

import pytest

from service.console.secret_key import FILE, secret_key
from tests.helpers.api import Table, auth
from tests.helpers.console_forms import SECURITY_HEADERS, alert, form_token, page, post_form, sign_in_form, token_in
from tests.helpers.server import NEW_MATCH, Server, call, redis_url

OTHER_ORIGINS = [{"Origin": "http://127.0.0.1:9"}, {"Origin": "null"}, {"Sec-Fetch-Site": "same-site"},
                 {"Sec-Fetch-Site": "cross-site"}, {"Origin": "http://localhost", "Sec-Fetch-Site": "same-site"}]


@pytest.fixture
def table(sqlite_client):
    return Table(sqlite_client, ["Ana", "Bo"], "korona")


def text(response) -> str:
    return response.get_data(as_text=True)


def test_a_form_without_its_pages_token_is_refused_and_changes_nothing(sqlite_client, table):
    """No token, a made-up one, another browser's: 403 with the reason and the match unchanged; the page's: played."""
    seat = table.view()["current_seat"]
    sign_in_form(sqlite_client, table.tokens[seat])
    version, move = table.version(), json.dumps(table.moves(seat)[0])
    path = f"/console/matches/{table.id}/moves"
    form = {"move": move, "expected_version": str(version)}
    another_browser = form_token(sqlite_client.application.test_client())
    for token in (None, "made-up", another_browser):
        refused = sqlite_client.post(path, data={**form, **({"csrf_token": token} if token else {})})
        assert refused.status_code == 403 and "reload the page" in alert(text(refused))
    assert table.version() == version
    assert post_form(sqlite_client, path, form).status_code == 303 and table.version() > version


def test_a_sign_in_without_its_pages_token_is_refused_and_sets_no_cookie(sqlite_client, table):
    refused = sqlite_client.post("/console/sign-in", data={"token": table.tokens[0]})
    assert refused.status_code == 403 and "reload the page" in alert(text(refused))
    assert "herald_token" not in refused.headers.get("Set-Cookie", "")
    assert "Signed in as" not in page(sqlite_client, "/console/")


@pytest.mark.parametrize("headers", OTHER_ORIGINS, ids=lambda h: ",".join(f"{k}={v}" for k, v in h.items()))
def test_a_form_another_origin_sent_is_refused_even_with_its_token(sqlite_client, table, headers):
    """The browser's Origin or Sec-Fetch-Site naming another origin (another port of the same host included) is
    refused before the token is looked at: a page of another origin cannot read the token, but may know one."""
    sign_in_form(sqlite_client, table.tokens[0])
    path = f"/console/matches/{table.id}/disputes"
    refused = post_form(sqlite_client, path, {"version": "2", "claim": "forged"}, headers=headers)
    assert refused.status_code == 403 and "sent from another site" in alert(text(refused))
    assert sqlite_client.get(f"/matches/{table.id}/disputes", headers=auth(table.referee)).get_json() == []
    for own in ("http://localhost", "https://localhost"):  # the test client's origin; the same behind a TLS proxy
        headers = {"Origin": own, "Sec-Fetch-Site": "same-origin"}
        assert post_form(sqlite_client, path, {"version": "2", "claim": "mine"}, headers=headers).status_code == 303
    assert len(sqlite_client.get(f"/matches/{table.id}/disputes", headers=auth(table.referee)).get_json()) == 2


@pytest.mark.parametrize("deep", ["[" * 1000 + "]" * 1000, '{"a": ' * 1000 + "1" + "}" * 1000],
                         ids=["arrays", "objects"])
def test_a_move_nested_1000_deep_is_refused_with_400_and_its_reason_as_the_api_refuses_it(sqlite_client, table, deep):
    """It was a 500 (RecursionError parsing the move field)."""
    seat = table.view()["current_seat"]
    sign_in_form(sqlite_client, table.tokens[seat])
    version = table.version()
    refused = post_form(sqlite_client, f"/console/matches/{table.id}/moves",
                        {"move": deep, "expected_version": str(version)})
    assert refused.status_code == 400
    assert "move: refused unread: it nests 1000 arrays or objects inside one another" in alert(text(refused))
    api = sqlite_client.post(f"/matches/{table.id}/moves", data=deep, content_type="application/json",
                             headers=auth(table.tokens[seat]))
    assert api.status_code == 400 and "it nests 1000 arrays or objects" in api.get_json()["detail"]
    assert table.version() == version


def test_a_form_over_the_size_limit_is_refused_as_the_api_refuses_a_body(sqlite_client, table):
    sign_in_form(sqlite_client, table.tokens[0])
    refused = post_form(sqlite_client, f"/console/matches/{table.id}/disputes", {"version": "2", "claim": "x" * 70000})
    assert refused.status_code == 413 and "the body is over" in refused.get_json()["detail"]
    assert sqlite_client.get(f"/matches/{table.id}/disputes", headers=auth(table.referee)).get_json() == []


def test_the_api_takes_no_cookie_and_no_csrf_token(sqlite_client, table):
    """The console's cookie opens no API route; a bearer token alone, no CSRF token, is what the API takes."""
    seat = table.view()["current_seat"]
    cookie = sign_in_form(sqlite_client, table.tokens[seat]).headers["Set-Cookie"].split(";")[0]
    only_cookie = {"Cookie": cookie}
    assert sqlite_client.get(f"/matches/{table.id}/view", headers=only_cookie).status_code == 401
    version = table.version()
    moved = sqlite_client.post(f"/matches/{table.id}/moves", json=table.moves(seat)[0], headers=only_cookie)
    assert moved.status_code == 401 and table.version() == version
    assert table.play(seat, table.moves(seat)[0])["version"] > version


def test_every_console_page_carries_the_security_headers_and_the_api_harmless_ones(sqlite_client, table):
    sign_in_form(sqlite_client, table.tokens[0])
    for path in ("/console/", "/console/sign-in", f"/console/matches/{table.id}",
                 "/console/matches/00000000-0000-0000-0000-000000000000", "/console/static/console.js"):
        headers = sqlite_client.get(path).headers
        for name, value in SECURITY_HEADERS.items():
            assert value in headers.get(name, ""), f"{path}: {name} is {headers.get(name)!r}"
        policy = headers["Content-Security-Policy"]
        assert "script-src 'self'" in policy and "unsafe" not in policy
    refused = sqlite_client.post(f"/console/matches/{table.id}/moves")
    assert refused.status_code == 403 and refused.headers["X-Frame-Options"] == "DENY"
    health = sqlite_client.get("/health").headers
    assert health["X-Content-Type-Options"] == "nosniff" and health["X-Frame-Options"] == "DENY"
    assert "Content-Security-Policy" not in sqlite_client.get("/docs").headers, "swagger-ui runs an inline script"


def key_of(folder, queue) -> None:
    queue.put(secret_key(folder))


def test_the_key_is_generated_once_0600_and_read_alike_by_processes_starting_together(tmp_path, monkeypatch):
    monkeypatch.delenv("SECRET_KEY", raising=False)
    context = multiprocessing.get_context("fork")
    queue = context.Queue()
    starting = [context.Process(target=key_of, args=(tmp_path / "data", queue)) for _ in range(4)]
    for process in starting:
        process.start()
    keys = {queue.get(timeout=30) for _ in starting}
    for process in starting:
        process.join(timeout=30)
    assert len(keys) == 1 and len(next(iter(keys))) >= 32
    assert keys == {secret_key(tmp_path / "data")}
    assert [p.name for p in (tmp_path / "data").iterdir()] == [FILE], "no draft is left behind"
    assert (tmp_path / "data" / FILE).stat().st_mode & 0o777 == 0o600
    monkeypatch.setenv("SECRET_KEY", "from-the-environment")
    assert secret_key(tmp_path / "data") == "from-the-environment"


class Kept(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None  # the 303 itself is the answer


def test_a_pages_token_is_taken_by_every_worker_and_after_a_restart(redis_client, tmp_path):
    """gunicorn with 2 workers: the sign-in page read before a restart, its form posted to the new server's
    workers: each post is taken (303), none refused as forged; the key file is 0600."""
    store = {"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(tmp_path / "events.sqlite")}
    server = Server(tmp_path, store, redis_url(redis_client), workers=2)
    server.env.pop("SECRET_KEY", None)
    browser = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()), Kept)
    try:
        server.start()
        status, created = call(server.base, "POST", "/matches", NEW_MATCH)
        assert status == 201
        with browser.open(f"{server.base}/console/sign-in") as answer:
            token = token_in(answer.read().decode())
    finally:
        server.stop()
    server = Server(tmp_path, store, redis_url(redis_client), workers=2, port=server.port)
    server.env.pop("SECRET_KEY", None)
    try:
        server.start()
        form = urllib.parse.urlencode({"token": created["seats"][0]["token"], "csrf_token": token}).encode()
        for _ in range(6):
            with pytest.raises(urllib.error.HTTPError) as answer:
                browser.open(f"{server.base}/console/sign-in", data=form)
            assert answer.value.code == 303, answer.value.read()[:500]
    finally:
        server.stop()
    assert (tmp_path / FILE).stat().st_mode & 0o777 == 0o600
