"""``python -m azul_engine serve [--host 127.0.0.1] [--port 8000]``: the web app of ``azul_engine.web`` on
uvicorn.  It binds to the loopback address unless told otherwise."""

import sys


def register(commands):
    """The ``serve`` command."""
    from . import _cli

    serve = _cli.add_command(commands, "serve", run,
                             help="the web app: score sheet, score check, play, replay (needs [web])",
                             description="Serve the local web app (score sheet of a game at the table, score "
                             "check, play against the bots, replay a record) on http://HOST:PORT/. Needs the "
                             "web extra: pip install 'azul-engine[web]'.")
    serve.add_argument("--host", default="127.0.0.1", help="address to bind (default: 127.0.0.1, this computer only)")
    serve.add_argument("--port", type=int, default=8000, help="port (default: 8000)")
    _cli.add_backend(serve)
    return serve


def run(args):
    if not 0 <= args.port <= 65535:
        print("azul-engine serve: --port must be 0 to 65535, not %d" % args.port, file=sys.stderr)
        return 2
    try:
        import uvicorn
        from azul_engine.web.app import create_app
    except ImportError as e:
        print("azul-engine serve: the web app needs the web extra (pip install 'azul-engine[web]'): %s" % e,
              file=sys.stderr)
        return 2
    from . import _cli
    engine = _cli.engine(args)
    # Bound to this computer only: serve only requests addressed to it by a loopback name, so that a web page
    # elsewhere cannot reach the app through a name of its own that resolves here (DNS rebinding).
    loopback = args.host in ("127.0.0.1", "localhost", "::1")
    hosts = ["127.0.0.1", "localhost", "[::1]", "::1"] if loopback else None
    print("azul-engine serve: http://%s:%d/ (Ctrl-C stops)" % (args.host, args.port), flush=True)
    uvicorn.run(create_app(engine, allowed_hosts=hosts), host=args.host, port=args.port, log_level="warning")
    return 0
