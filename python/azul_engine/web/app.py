"""The web app (Starlette): its routes, and the endpoints that serve them.

Every page is a Jinja2 template drawn on the server in the session's language (``views``); the browser's script
only posts what was tapped to ``/api/...`` and shows the HTML that comes back (``{"html": ..., "error": ...}``).
The actions behind those posts are ``handlers``; every rule (legal moves, scores, refusals) comes from the engine.

The app's state is ``app.state``: ``engine`` and ``sessions`` (``sessions.Sessions``).  A random token in the
cookie ``azul_session`` keys a client's server-side session (the score sheet, the game in play, the replay), so
a page reload keeps them; a restart of the server forgets them (download the sheet or the record to keep it).
State-changing requests are POSTs, refused when a browser sends them from another site.
"""

import json
from functools import partial
from pathlib import Path

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import ClientDisconnect
from starlette.responses import JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from .. import records
from .._backends import engine_named
from . import handlers, i18n, sessions, views
from .forms import BadRequest, read_json

__all__ = ["create_app", "RECORD_SECONDS"]

STATIC = Path(__file__).parent / "static"
FAVICON = (STATIC / "favicon.svg").read_bytes()
COOKIE = "azul_session"
# The search for a record of a finished score sheet (synth.py) gives up after this; read at each request.
RECORD_SECONDS = 20


def same_origin(request):
    """False for a request a browser sent from another site: its ``Sec-Fetch-Site`` says cross-site or same-site,
    or its ``Origin`` (without one, its ``Referer``) is not this app's own (scheme and host as the request reached
    us). A request with none of them (a script, curl, an address typed) is not a browser's cross-site request."""
    site = request.headers.get("sec-fetch-site")
    if site is not None and site not in ("same-origin", "none"):
        return False
    host = request.headers.get("host")
    own = () if host is None else ("http://" + host, "https://" + host)
    origin = request.headers.get("origin")
    if origin is not None:
        return origin in own
    referer = request.headers.get("referer")  # an older browser's <img> from another page says where it was
    return referer is None or any(referer == o or referer.startswith(o + "/") for o in own)


def session_of(request):
    """``(token, session)`` of the request's cookie (``(None, a new session)`` without a kept one)."""
    return request.app.state.sessions.get(request.cookies.get(COOKIE))


def language(request, session):
    """The page's language: ``?lang=`` (then kept in the session, unless another site sent the request), the
    session's, or the browser's."""
    asked = request.query_params.get("lang")
    if asked in i18n.LANGUAGES:
        if not same_origin(request):
            return asked
        session.lang = asked
    return session.lang or i18n.choose(request.headers.get("accept-language"))


def call_of(request, session):
    """What a view or an action is given (``handlers.Call``); called with the session's lock held."""
    return handlers.Call(request.app.state.engine, session, language(request, session), RECORD_SECONDS)


def with_cookie(request, response, token, session):
    """The response, with the session's cookie if the session is new and now holds something. A request from
    another site (what an ``<img>`` of any web page makes a browser send) keeps no session, so it neither makes one
    nor pushes anyone's out of the ``max_sessions`` kept."""
    if token is None and session.live() and same_origin(request):
        token = request.app.state.sessions.keep(session)
        response.set_cookie(COOKIE, token, httponly=True, samesite="strict", max_age=30 * 24 * 3600)
    return response


async def page(active, view, request):
    """``GET`` a page of the menu: the item ``active`` (its i18n key), the part ``view(call)`` draws."""
    token, session = session_of(request)

    def render():  # in a worker thread: the session's lock may be held while its bots think
        with session.lock:
            call = call_of(request, session)
            return views.page(request, call.lang, active, *view(call))

    return with_cookie(request, await run_in_threadpool(render), token, session)


async def action(handler, request):
    """``POST /api/...``: ``handler(call, data)`` (``handlers``) on the request's JSON body, its answer as JSON; a
    refusal (``BadRequest``) is its status with ``{"error": ...}`` in the page's language (and ``"html"``, the page
    part redrawn, when the handler gave one), or, to the page's own script (``X-Azul-Page: 1``), a 200 with the
    status in ``"status"``."""
    token, session = session_of(request)
    if not same_origin(request):  # a cross-site request changes nothing (CSRF)
        return JSONResponse({"error": "refused: the request came from another site"}, status_code=403)
    try:
        data = await read_json(request)

        def run():
            with session.lock:  # one action of a session at a time; bots think in a worker thread
                return handler(call_of(request, session), data)

        response = JSONResponse(await run_in_threadpool(run))
    except ClientDisconnect:  # gone in the middle of its body: no one to answer, nothing to log
        return Response(status_code=400)
    except BadRequest as e:
        def words():
            with session.lock:
                return language(request, session)

        lang = await run_in_threadpool(words)
        message = i18n.text(lang, e.key, **e.fields) if e.key else e.message
        answer = {"error": message, **({"html": e.redraw} if e.redraw else {})}
        if request.headers.get("x-azul-page") == "1":  # the page's own script: a refusal is an answer, not a
            answer["status"] = e.status                  # failed request (which a browser logs as an error)
            response = JSONResponse(answer)
        else:
            response = JSONResponse(answer, status_code=e.status)
    return with_cookie(request, response, token, session)


def download(request, token, session, body, media_type, filename):
    """A file to download (``Content-Disposition: attachment``)."""
    return with_cookie(request, Response(body, media_type=media_type, headers={
        "Content-Disposition": 'attachment; filename="%s"' % filename}), token, session)


async def sheet_download(request):
    """``GET /sheet/download``: the session's score sheet as JSON."""
    token, session = session_of(request)
    if session.sheet is None:
        raise HTTPException(404, "no score sheet in this session")
    sheet = dict(session.sheet, names=views.sheet_names(language(request, session), session.sheet))
    body = json.dumps({"format": "azul-score-sheet", "version": 1, **{k: sheet[k] for k in (
        "variant", "names", "rounds", "scores", "over", "final")}}, indent=1, default=str)
    return download(request, token, session, body, "application/json", "azul-score-sheet.json")


async def sheet_record(request):
    """``GET /sheet/record``: the record of the session's finished sheet, found by a search (sessions.record_job);
    without the page's script the download waits for it (at most RECORD_SECONDS)."""
    token, session = session_of(request)
    lang = language(request, session)
    if not session.finished_classic():
        raise HTTPException(404, "no finished classic or grey score sheet in this session")
    limit = RECORD_SECONDS

    def find():
        with session.lock:
            sheet = session.sheet
            if "record" in sheet:
                return sheet["record"]
            job = sessions.record_job(request.app.state.engine, session, limit)
        job.done.wait(limit + 10)
        with session.lock:
            return sheet.get("record")

    record = await run_in_threadpool(find)
    if record is None:
        return with_cookie(request, views.page(request, lang, "nav_sheet", "no_record.html", {
            "record_seconds": limit}, status_code=422), token, session)
    return download(request, token, session, records.dumps(record) + "\n", "application/x-ndjson", "azul-game.jsonl")


async def play_download(request):
    """``GET /play/download``: the record of the game in play, with who played each seat (and a bot's forfeit)."""
    token, session = session_of(request)
    if session.game is None:
        raise HTTPException(404, "no game in this session")
    return download(request, token, session, session.game.record_json() + "\n", "application/x-ndjson",
                    "azul-game.jsonl")


async def favicon(request):
    """``GET /favicon.ico``: what browsers ask for before they read the page's icon link."""
    return Response(FAVICON, media_type="image/svg+xml", headers={"Cache-Control": "max-age=86400"})


async def not_found(request, exc):
    """An HTTP error (404, 405, ...): JSON under /api/, else a line of text."""
    status = getattr(exc, "status_code", 404)
    detail = getattr(exc, "detail", None) or "not found"
    if request.url.path.startswith("/api/"):
        return JSONResponse({"error": detail}, status_code=status)
    return Response("%d %s\n" % (status, detail), status_code=status, media_type="text/plain")


async def server_error(request, exc):
    """An unexpected exception: a 500 naming its type, never a traceback."""
    return JSONResponse({"error": "internal error: %s" % type(exc).__name__}, status_code=500)


ROUTES = [
    Route("/", partial(page, "home", views.home)),
    Route("/sheet", partial(page, "nav_sheet", views.sheet)),
    Route("/check", partial(page, "nav_check", views.check)),
    Route("/play", partial(page, "nav_play", views.play)),
    Route("/replay", partial(page, "nav_replay", views.replay)),
    Route("/favicon.ico", favicon),
    Route("/sheet/download", sheet_download),
    Route("/play/download", play_download),
    Route("/sheet/record", sheet_record),
    *(Route(path, partial(action, handler), methods=["POST"]) for path, handler in handlers.ACTIONS.items()),
    Mount("/static", app=StaticFiles(directory=str(STATIC)), name="static"),
]


def create_app(engine=None, max_sessions=500, allowed_hosts=None):
    """The ASGI app; ``engine``: an engine module or backend name (default: the active engine).
    ``allowed_hosts``: the Host headers served (others get 400), e.g. ``["127.0.0.1", "localhost"]`` so that no
    other web site can reach the app through a name of its own (DNS rebinding); None serves any."""
    engine = engine_named(engine)
    middleware = [Middleware(TrustedHostMiddleware, allowed_hosts=allowed_hosts)] if allowed_hosts else []
    app = Starlette(routes=ROUTES, middleware=middleware, exception_handlers={
        HTTPException: not_found, 404: not_found, 405: not_found, Exception: server_error})
    app.state.engine = engine
    app.state.sessions = sessions.Sessions(max_sessions)
    return app
