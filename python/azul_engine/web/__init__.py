"""At the table: a local web app (``python -m azul_engine serve``) to score a physical game round by round,
check a final score, play the bots in a browser and replay a record.  Needs the ``[web]`` extra (Starlette and
uvicorn).  Every rule is the engine's, computed on the server.

The modules: ``app`` (the routes and their endpoints), ``handlers`` (the JSON actions behind the pages' buttons),
``views`` and ``templates/`` (the pages: Jinja2 templates), ``sessions`` (each client's), ``game`` (the game in
play), ``forms`` (what a request sends, checked), ``sheet`` and ``pavilion_sheet`` (the score sheets' logic),
``synth`` (a finished sheet's record), ``i18n`` (every text a person reads, in five languages), ``static/``.
"""

__all__ = ["create_app"]


def create_app(engine=None, max_sessions=500, allowed_hosts=None):
    """The ASGI app (see ``azul_engine.web.app.create_app``)."""
    from .app import create_app as make

    return make(engine, max_sessions, allowed_hosts)
