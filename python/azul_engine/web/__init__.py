"""At the table: a local web app (``python -m azul_engine serve``) to score a physical game round by round,
check a final score, play the bots in a browser and replay a record.  Needs the ``[web]`` extra (Starlette and
uvicorn).  Every rule is the engine's, computed on the server; see ``azul_engine.web.app``."""

__all__ = ["create_app"]


def create_app(engine=None, max_sessions=500, allowed_hosts=None):
    """The ASGI app (see ``azul_engine.web.app.create_app``)."""
    from .app import create_app as make

    return make(engine, max_sessions, allowed_hosts)
