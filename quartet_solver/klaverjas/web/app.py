"""The HTTP side of the Klaverjas game server: a FastAPI app (see
``docs/klaverjas_web_api.md`` for the JSON API).

:func:`create_app` builds the app on a database file; :func:`app_from_env` is
the factory ``uvicorn --factory`` imports in every worker process
(``quartet_solver.klaverjas.web.app:app_from_env``, the database named by the
environment variable :data:`ENV_DB`); :func:`serve` runs uvicorn (what
``quartet-solver klaverjas serve`` calls).  The page's files are served from
``static/`` next to this module: ``/`` is ``index.html``, the others are at
``/<name>`` and ``/static/<name>``.

The game logic is in :mod:`~quartet_solver.klaverjas.web.session` and every
database access in :mod:`~quartet_solver.klaverjas.web.storage`; this module
reads the requests (at most :data:`MAX_BODY` bytes of JSON), runs the
service's blocking work in a thread and turns errors into
``{"error": {"type", "message"}}`` answers.

>>> import asyncio, httpx
>>> async def post(app, path, body):
...     transport = httpx.ASGITransport(app=app)
...     async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
...         return await client.post(path, json=body)
>>> r = asyncio.run(post(create_app(":memory:"), "/api/games", {"level": "easy", "score": 9999}))
>>> r.status_code, r.json()["error"]["type"]
(400, 'unknown_field')
"""

from __future__ import annotations

import datetime as _dt
import json
import os
import re
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.routing import APIRoute
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import Match

from ...errors import IllegalActionError, InvalidStateError, QuartetError
from .session import BadRequest, GameError, GameService
from .storage import Storage, default_db_path

__all__ = ["create_app", "app_from_env", "serve", "ENV_DB", "MAX_BODY", "STATIC_DIR"]

ENV_DB = "QUARTET_SOLVER_KLAVERJAS_DB"
"""The environment variable naming the database of :func:`app_from_env`."""

MAX_BODY = 4096
"""The largest request body accepted (bytes); a larger one is refused with 413."""

STATIC_DIR = Path(__file__).resolve().parent / "static"
"""The page's files."""

_STATIC_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*")
_NO_STORE = {"Cache-Control": "no-store"}

PLACEHOLDER = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Klaverjas</title>
<meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body><h1>Klaverjas</h1>
<p>The game server is running, but the page is not installed yet. The JSON API is at
<code>/api/games</code> (see <code>docs/klaverjas_web_api.md</code>).</p></body></html>
"""


class _TooLarge(GameError):
    status = 413
    kind = "too_large"


def _error(status: int, kind: str, message: str) -> JSONResponse:
    return JSONResponse({"error": {"type": kind, "message": message}}, status_code=status, headers=_NO_STORE)


def _json(data: Any, status: int = 200) -> JSONResponse:
    return JSONResponse(data, status_code=status, headers=_NO_STORE)


def _no_constant(name: str) -> object:
    raise BadRequest(f"the body is not valid JSON: {name} is not a JSON value", "invalid_json")


async def _read_json(request: Request) -> object:
    """The request's JSON body (an empty body: ``{}``), at most :data:`MAX_BODY` bytes."""
    length = request.headers.get("content-length")
    if length is not None:
        try:
            size = int(length)
        except ValueError:
            raise BadRequest(f"bad Content-Length {length!r}") from None
        if size > MAX_BODY:
            raise _TooLarge(f"the body is {size} bytes; at most {MAX_BODY}")
    chunks = bytearray()
    async for chunk in request.stream():
        chunks += chunk
        if len(chunks) > MAX_BODY:
            raise _TooLarge(f"the body is over {MAX_BODY} bytes")
    if not chunks.strip():
        return {}
    try:
        text = bytes(chunks).decode("utf-8")
        return json.loads(text, parse_constant=_no_constant)
    except UnicodeDecodeError:
        raise BadRequest("the body is not UTF-8 text", "invalid_json") from None
    except json.JSONDecodeError as exc:
        raise BadRequest(f"the body is not valid JSON: {exc}", "invalid_json") from None
    except RecursionError:
        raise BadRequest("the body is not valid JSON: nested too deeply", "invalid_json") from None


def create_app(db_path: str | os.PathLike[str] | None = None, *, static_dir: str | os.PathLike[str] | None = None,
               today: Callable[[], _dt.date] | None = None, cache_size: int = 512) -> FastAPI:
    """The game server's app on the SQLite database ``db_path`` (default
    :func:`~.storage.default_db_path`; ``":memory:"`` for a single process).

    ``static_dir``: the page's files (default :data:`STATIC_DIR`); ``today``:
    the date of new Daily games (default: this machine's date); ``cache_size``:
    the games each process keeps in memory.
    """
    storage = Storage(default_db_path() if db_path is None else db_path)
    service = GameService(storage, today=today, cache_size=cache_size)
    static = Path(static_dir) if static_dir is not None else STATIC_DIR

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        yield
        storage.close()

    app = FastAPI(title="Klaverjas", docs_url=None, redoc_url=None, openapi_url=None, lifespan=lifespan)
    app.state.service = service
    app.state.storage = storage

    @app.exception_handler(GameError)
    async def game_error(request: Request, exc: GameError) -> JSONResponse:
        return _error(exc.status, exc.kind, str(exc))

    @app.exception_handler(QuartetError)
    async def library_error(request: Request, exc: QuartetError) -> JSONResponse:
        if isinstance(exc, IllegalActionError):
            return _error(409, "illegal_move", str(exc))
        return _error(400, "bad_request" if not isinstance(exc, InvalidStateError) else "invalid", str(exc))

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        kind = {404: "not_found", 405: "method_not_allowed"}.get(exc.status_code, "http_error")
        return _error(exc.status_code, kind, str(exc.detail))

    @app.exception_handler(RequestValidationError)
    async def validation_error(request: Request, exc: RequestValidationError) -> JSONResponse:
        return _error(400, "bad_request", "the request does not fit the API")

    @app.exception_handler(Exception)
    async def internal_error(request: Request, exc: Exception) -> JSONResponse:   # pragma: no cover
        return _error(500, "internal", f"the server failed: {type(exc).__name__}")

    # -- the API ---------------------------------------------------------------------------

    @app.post("/api/games")
    async def create_game(request: Request) -> Response:
        body = await _read_json(request)
        return _json(await run_in_threadpool(service.create, body), 201)

    @app.get("/api/games/{game_id}")
    async def get_game(game_id: str) -> Response:
        return _json(await run_in_threadpool(service.get, game_id))

    async def _move(request: Request, game_id: str, kind: str) -> Response:
        body = await _read_json(request)
        return _json(await run_in_threadpool(service.move, game_id, kind, body))

    @app.post("/api/games/{game_id}/bid")
    async def bid(request: Request, game_id: str) -> Response:
        return await _move(request, game_id, "bid")

    @app.post("/api/games/{game_id}/play")
    async def play(request: Request, game_id: str) -> Response:
        return await _move(request, game_id, "play")

    @app.post("/api/games/{game_id}/next")
    async def next_hand(request: Request, game_id: str) -> Response:
        return await _move(request, game_id, "next")

    @app.get("/api/rankings")
    async def rankings(request: Request) -> Response:
        q = request.query_params
        return _json(await run_in_threadpool(service.rankings, q.get("date"), q.get("rules")))

    @app.api_route("/api/{rest:path}", methods=["GET", "POST", "PUT", "DELETE", "PATCH"])
    async def no_api(request: Request, rest: str) -> Response:
        # an endpoint asked with a method it does not take: the routes before this one say which
        allowed = sorted({m for route in request.app.routes
                          if isinstance(route, APIRoute) and route.endpoint is not no_api
                          and route.matches(request.scope)[0] == Match.PARTIAL
                          for m in route.methods or ()})
        if allowed:
            response = _error(405, "method_not_allowed",
                              f"/api/{rest} takes {', '.join(allowed)}, not {request.method}")
            response.headers["Allow"] = ", ".join(allowed)
            return response
        return _error(404, "not_found", f"no API endpoint /api/{rest}")

    # -- the page ------------------------------------------------------------------------

    def _file(name: str) -> Response:
        path = static / name
        if not _STATIC_NAME.fullmatch(name) or not path.is_file():
            return _error(404, "not_found", f"no file {name!r}")
        return FileResponse(path, headers={"Cache-Control": "no-cache"})

    @app.get("/")
    async def index() -> Response:
        if (static / "index.html").is_file():
            return _file("index.html")
        return HTMLResponse(PLACEHOLDER)

    @app.get("/static/{name}")
    async def static_file(name: str) -> Response:
        return _file(name)

    @app.get("/{name}")
    async def root_file(name: str) -> Response:    # the page links style.css, app.js, rules.html
        return _file(name)

    return app


def app_from_env() -> FastAPI:
    """The app on the database named by ``$QUARTET_SOLVER_KLAVERJAS_DB`` (default
    :func:`~.storage.default_db_path`): the factory each uvicorn worker calls."""
    return create_app(os.environ.get(ENV_DB) or None)


def serve(host: str = "127.0.0.1", port: int = 8000, db_path: str | os.PathLike[str] | None = None,
          workers: int = 1, log_level: str = "info") -> None:
    """Run the server with uvicorn until it is stopped.  ``workers > 1`` starts
    that many processes sharing the database file (not ``":memory:"``)."""
    import uvicorn

    path = str(default_db_path() if db_path is None else db_path)
    if workers < 1:
        raise InvalidStateError(f"--workers must be 1 or more, got {workers}")
    if path != ":memory:":
        path = str(Path(path).expanduser().resolve())
    if workers > 1:
        if path == ":memory:":
            raise InvalidStateError("--db :memory: keeps the games in one process: it cannot be shared by "
                                    "--workers N > 1; give a database file")
        os.environ[ENV_DB] = path
        Storage(path).close()          # create the file and tables once, before the workers start
        uvicorn.run("quartet_solver.klaverjas.web.app:app_from_env", factory=True, host=host, port=port,
                    workers=workers, log_level=log_level)
    else:
        uvicorn.run(create_app(path), host=host, port=port, log_level=log_level)
