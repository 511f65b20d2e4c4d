"""Command line: ``python -m azul_engine {info,bench,record,tournament,selfplay,audit,explain,check-score,hint,
serve,replay,board,ratings,play,train,rate}``, also installed as ``azul-engine``.

This module registers the commands of the engine, the games and the records (``info``, ``bench``, ``record``,
``tournament``, ``audit``, ``explain``, ``check-score``) and builds the whole parser (:func:`parser`); the other
commands are registered by the apps that run them (``selfplay``, ``serve``, ``play``, ``train``, and ``ladder``'s
``rate``) and by ``_commands`` (``hint``, ``replay``, ``board``, ``ratings``: the tools' commands; the tools know
nothing of the command line), each through ``azul_engine._cli``. The work is done in ``azul_engine.bench``,
``.bots``, ``.tournament``, ``.ratings``, ``.records`` and ``.distributed`` (where games are played).
"""

import json
import os
import signal
import sys
import threading
import time

from azul_engine import _cli, bench, bots, distributed, outputs, ratings, records, report, tournament
from azul_engine._backends import BACKEND, available_backends, game_info, load_backend
from azul_engine._cli import SEED_LIMIT
from azul_engine._version import __version__

def _info(args):
    print(f"azul-engine {__version__}")
    print(f"backend: {BACKEND}")
    print(f"available: {', '.join(available_backends())}")
    for name in ("cpp", "python"):
        try:
            engine = load_backend(name)
        except ImportError as exc:
            print(f"unavailable: {name} ({exc.__cause__ or exc})")
            continue
        if name == "cpp":
            print(f"cpp build: {'portable (AZUL_PORTABLE=1)' if engine.PORTABLE else 'compiler builtins'}"
                  f"{', fills drawn four at a time (AVX2)' if engine.VECTORISED else ''}")
    return 0


def _bench(args):
    backends = args.backend or available_backends()
    for name in backends:
        try:
            load_backend(name)
        except ImportError as exc:
            print(f"azul-engine bench: {exc}", file=sys.stderr)
            return 2
    if not args.json:
        _cli.out(f"azul-engine {__version__}: medians of {args.repeats} runs of about {args.seconds:g} s "
             f"after a warm-up; {os.cpu_count()} cores; checksum: scores of random_playouts"
             f"({bench.CHECKSUM_GAMES}, seed=0)")
    results = []
    def progress(text):  # on standard error: the table (or the JSON lines) stays whole on standard output
        print(text, file=sys.stderr, flush=True)

    # A line as each section begins, for a person watching a terminal (a log or a pipe gets the rows alone, each
    # written as soon as it is measured).
    watched = sys.stderr.isatty()
    for result in bench.run(backends, repeats=args.repeats, seconds=args.seconds, threads=args.threads,
                            progress=progress if watched else None):
        if not args.json and (not results or results[-1]["backend"] != result["backend"]):
            _cli.out(f"backend {result['backend']}")
        results.append(result)
        _cli.out(json.dumps(result) if args.json else bench.table_row(result))
        sys.stdout.flush()
    mismatches = bench.checksum_mismatches(results)
    for message in mismatches:
        print(f"azul-engine bench: {message}", file=sys.stderr)
    return 1 if mismatches else 0


_engine = _cli.engine


def _seat_bots(args):
    """The bot factory of each seat of ``record``: ``--bots`` (one spec a seat) or ``--bot`` (every seat)."""
    if args.bots is not None and args.bot is not None:
        raise _cli.CommandError("give --bots (one spec a seat) or --bot (every seat), not both")
    if args.bots is not None:
        specs = bots.split_bot_specs(args.bots)
        if len(specs) != args.players:
            raise _cli.CommandError(f"--bots gives {len(specs)} spec{'s' if len(specs) != 1 else ''} for "
                                f"{args.players} players: give one a seat, comma-separated")
    else:
        specs = [args.bot or "random"] * args.players
    try:
        factories = {spec: bots.resolve_bot_spec(spec).check(args.variant, args.players)
                     for spec in dict.fromkeys(specs)}
    except ValueError as e:
        raise _cli.CommandError(str(e)) from None
    return [factories[spec] for spec in specs]


def _who_played(args):
    """``--event`` and ``--date`` as a record writes them."""
    try:
        return args.event, bots.check_date(args.date)
    except ValueError as e:
        raise _cli.CommandError(f"--{e}") from None


def _report_forfeit(args, number, seed, match_seat, spec, reason):
    print(f"azul-engine {args.command}: game {number} (seed {seed}): seat {match_seat} ({spec}) forfeits: {reason}",
          file=sys.stderr)


def _record(args):
    last = args.seed + args.games - 1
    if last >= SEED_LIMIT:
        return _cli.usage_error(args, f"game seeds {args.seed}-{last} pass 2**64-1: give a smaller --seed or --games")
    seats = _seat_bots(args)
    event, date = _who_played(args)
    backend = _engine(args).NAME
    progress = _cli.Progress(args.games, "games")
    try:
        if not args.ray:
            distributed.check_workers(args.workers)
    except ValueError as e:
        return _cli.usage_error(args, str(e))
    try:
        out = records.LineWriter(args.output, outputs.mode_of(args))
    except (OSError, ValueError) as e:
        return _cli.usage_error(args, f"cannot write {args.output}: {getattr(e, 'strerror', None) or e}")
    specs = [factory.spec for factory in seats]  # strings: a job goes to worker processes or Ray tasks
    # Made as the executor asks for them: a million games' jobs are never held at once.
    jobs = ((backend, args.players, args.variant, args.seed + i, specs, args.time_limit, event, date)
            for i in range(args.games))
    try:
        with out, distributed.from_args(args) as where:
            start = time.perf_counter()  # the run, not Ray's start-up
            for i, (record, _, _, forfeit) in enumerate(where.map(tournament.play_game, jobs, count=args.games)):
                out.write_line(record)
                if forfeit is not None:
                    _report_forfeit(args, i + 1, args.seed + i, forfeit[0], specs[forfeit[0]], forfeit[1])
                progress(i + 1)
    except OSError as e:  # a full disk: the file keeps its whole lines
        if e.filename == args.output:
            return _cli.usage_error(args, f"cannot write {args.output}: {e.strerror}")
        return _cli.usage_error(args, str(e))
    except distributed.WorkerDied as e:
        return _cli.worker_died(args, e, range(args.seed, args.seed + args.games))
    except (ValueError, ImportError, ConnectionError) as e:  # --workers, --ray
        return _cli.usage_error(args, str(e))
    _cli.out(f"{args.output}: " + distributed.summary(args.games, time.perf_counter() - start,
                                                   min(where.workers, args.games), where.where))
    return 0


SPRT_GAMES = 20_000  # the most games a tournament --sprt plays when --games is not given


def _tournament(args):
    event, date = _who_played(args)
    try:
        sprt = ratings.parse_sprt(args.sprt) if args.sprt is not None else None
        mode = outputs.mode_of(args)
        if args.output is not None:
            outputs.check(args.output, mode)  # before any game is played
        if args.html is not None:
            if args.output is not None and os.path.abspath(args.html) == os.path.abspath(args.output):
                raise ValueError("--html and -o name the same file, %s" % args.html)
            outputs.check(args.html, "replace" if args.force else "new", append=False)
        games = args.games if args.games is not None else SPRT_GAMES if sprt else 100
        plan = tournament.plan(args.bots, args.players, args.variant, games=games, seed=args.seed, check=True)
        if sprt is not None and (len(plan.bots) != 2 or plan.players != 2):
            raise ValueError("--sprt tests two bots at two players (given %d bots, %d players): the first bot "
                             "against the second" % (len(plan.bots), plan.players))
        if args.html is not None and len(plan.bots) < 2:
            raise ValueError("--html: a report rates two bots or more (given %d)" % len(plan.bots))
        if args.anchor is not None and args.anchor not in plan.bots:
            raise ValueError("--anchor %s is not one of the bots (%s)" % (args.anchor, ", ".join(plan.bots)))
        every = -(-args.rating_interval // len(plan.seatings))  # deals between two LLR lines

        def on_deal(state):
            if state.decision or (state.games // len(plan.seatings)) % every == 0:
                _cli.out(state.line())
                sys.stdout.flush()

        if sprt is not None:
            _cli.out("SPRT of %s against %s: %s; at most %d games" % (plan.bots[0], plan.bots[1], sprt,
                                                                   len(plan.games)))
        progress = None if sprt is not None else _cli.Progress(len(plan.games), "games")
        with (distributed.from_args(args) if args.ray else _NoExecutor()) as where:
            result = tournament.run(plan, args.workers, args.backend, args.output, progress, executor=where,
                                    time_limit=args.time_limit, event=event, date=date, output_mode=mode,
                                    sprt=sprt, on_deal=on_deal)
    except OSError as e:
        named = [p for p in (args.output, args.html) if p is not None and e.filename == p]
        if named:
            return _cli.usage_error(args, f"cannot write {named[0]}: {e.strerror}")
        return _cli.usage_error(args, str(e))
    except distributed.WorkerDied as e:
        return _cli.worker_died(args, e, [game.seed for game in plan.games])
    except (ValueError, ImportError, ConnectionError) as e:
        return _cli.usage_error(args, str(e))
    for game, seat, reason in result.forfeits:
        _report_forfeit(args, game.index + 1, game.seed, seat, game.seats[seat], reason)
    _cli.out(tournament.table(result))
    rated = pairs = None
    if len(plan.bots) > 1 and result.played:
        rated, pairs = tournament.ratings(result, args.anchor, args.anchor_elo)
        _cli.out(ratings.text_report(rated, pairs))
    if result.sprt is not None:
        state = result.sprt
        _cli.out(state.line() if state.decision else state.line() + ": no decision, the games ran out (--games)")
    if args.html is not None and rated is not None:
        lines = [result.plan.describe(result.played // len(plan.seatings)) + "; backend %s" % result.backend]
        page = report.to_html(rated, result.games(), pairs, title="Tournament: " + ", ".join(plan.bots),
                              lines=lines, sprt=result.sprt)
        try:
            outputs.write_text(args.html, page, "replace" if args.force else "new")
        except OSError as e:
            return _cli.usage_error(args, f"cannot write {args.html}: {e.strerror or e}")
    return 0


class _NoExecutor:
    """No executor of the command's own: tournament.run starts (and stops) its local workers."""

    def __enter__(self):
        return None

    def __exit__(self, *exc):
        return False


def _audit_files(args, paths, engine):
    """Audit every record of every file; print each finding; return the exit code: 0 when every record
    agrees, 1 for any finding (an input without records is one), 2 for a file that cannot be read."""
    for path in paths:
        problem = _cli.input_file(path)
        if problem:
            return _cli.usage_error(args, problem)
    agree = disagree = empty = 0
    for path in paths:
        seen = 0
        try:
            for number, item in records.iter_file(path):
                seen += 1
                if isinstance(item, records.RecordError):
                    findings = [records.Finding(str(item).split(": ", 1)[1], line=number)]
                else:
                    findings = records.audit(item, engine, line=number)
                for finding in findings:
                    _cli.out(f"{path}: {finding}")
                if findings:
                    disagree += 1
                else:
                    agree += 1
        except OSError as e:
            return _cli.usage_error(args, f"cannot read {path}: {e.strerror}")
        if not seen:
            _cli.out(f"{path}: no records: the file is empty")
            empty += 1
    files = f", {empty} file{'s' if empty > 1 else ''} without records" if empty else ""
    _cli.out(f"{agree} records agree, {disagree} disagree{files}")
    return 0 if disagree == empty == 0 else 1


def _audit(args):
    return _audit_files(args, args.files, _engine(args))


def _explain(args):
    problem = _cli.input_file(args.file)
    if problem:
        return _cli.usage_error(args, problem)
    engine = _engine(args)
    try:
        item = records.read_line(args.file, args.game)
    except OSError as e:
        return _cli.usage_error(args, f"cannot read {args.file}: {e.strerror}")
    if item is None:
        print(f"{args.file}: {records.no_record(args.file, args.game)}", file=sys.stderr)
        return 1
    if isinstance(item, records.RecordError):
        print(f"{args.file}: {item}", file=sys.stderr)
        return 1
    try:
        text = records.explain(item, engine)
    except records.RecordError as e:
        print(f"{args.file}: line {args.game}: {e}", file=sys.stderr)
        return 1
    _cli.out(text)
    return 0


_MAX_WALL = 4096  # characters of a wall file that check-score reads


def _check_score(args):
    engine = _engine(args)
    if args.record:
        return _audit_files(args, [args.record], engine)
    pavilion = args.variant == "summer-pavilion"
    if args.wall is None or args.score is None:
        print("check-score: give a wall file (Summer Pavilion: a board file; or - for standard input) and --score, "
              "or --record FILE", file=sys.stderr)
        return 2
    if args.kept is not None and not pavilion:
        print("check-score: --kept is for --variant summer-pavilion (the tiles a Summer Pavilion pass kept)",
              file=sys.stderr)
        return 2
    problem = None if args.wall == "-" else _cli.input_file(args.wall)
    if problem:
        print(f"check-score: {problem}", file=sys.stderr)
        return 2
    try:
        if args.wall == "-":
            stdin = getattr(sys.stdin, "buffer", None)
            text = stdin.read(_MAX_WALL + 1).decode("utf-8", "replace") if stdin else sys.stdin.read(_MAX_WALL + 1)
        else:
            with open(args.wall, encoding="utf-8", errors="replace") as f:
                text = f.read(_MAX_WALL + 1)
    except OSError as e:
        print(f"check-score: cannot read {args.wall}: {e.strerror}", file=sys.stderr)
        return 2
    if len(text) > _MAX_WALL:  # (a wall is five short rows; /dev/zero would fill the memory)
        print(f"check-score: {args.wall} is not a wall: more than {_MAX_WALL} characters", file=sys.stderr)
        return 1
    try:
        if pavilion:
            _cli.out(records.board_bonus_text(engine, text, args.score, args.kept or 0))
        else:
            _cli.out(records.wall_bonus_text(engine, text, args.score, args.variant))
    except ValueError as e:
        print(f"check-score: {e}", file=sys.stderr)
        return 1
    return 0


def _who_played_arguments(parser):
    parser.add_argument("--time-limit", type=_cli.positive(float), metavar="SECONDS",
                        help="seconds a bot may take for a move; over it, it loses the game by forfeit "
                        "(default: no limit)")
    parser.add_argument("--event", help="the event's name, written into every record")
    parser.add_argument("--date", help="the date written into every record: YYYY-MM-DD, or today")


def register(commands):
    """This module's commands: info, bench, record, tournament."""
    _cli.add_command(commands, "info", _info, help="version and backends")

    perf = _cli.add_command(
        commands, "bench", _bench,
        help="random-playout speed of each backend, with a rules checksum",
        description="Random games on each backend, for 2 and 4 players, classic, grey and Summer Pavilion: played inside "
        "the engine (random_playouts), driven from Python one ply at a time, and through the batched VectorGame; "
        "clones/s and thread scaling. Medians of repeated runs after a warm-up, and a checksum of the final scores "
        "of seeded games, the same for every backend unless the rules differ. Exit code 1 if backends disagree "
        "on a checksum.",
    )
    _cli.add_backend(perf, repeat=True, help="backend to measure (repeatable; default: every available one)")
    perf.add_argument("--repeats", type=_cli.positive(int), default=5, help="timed runs per figure (default: 5)")
    perf.add_argument("--seconds", type=_cli.positive(float), default=0.2,
                      help="length of each timed run (default: 0.2)")
    perf.add_argument("--threads", type=_cli.positive(int), help="threads of the scaling row (default: every core)")
    perf.add_argument("--json", action="store_true", help="one JSON object per measurement per line")

    rec = _cli.add_command(commands, "record", _record, help="self-play games written as records (.jsonl)",
                           description="Play games between bots and write each as an azul-record line. Game i "
                           "is made from seed SEED + i; both engines write the same bytes.")
    _cli.add_game_arguments(rec)
    rec.add_argument("--games", type=_cli.positive(int), default=1)
    rec.add_argument("--seed", type=_cli.seed, default=0, help="seed of the first game, 0..2**64-1 (default: 0)")
    rec.add_argument("--bot", metavar="SPEC", help="bot spec for every seat (default: random)")
    rec.add_argument("--bots", metavar="SPECS", help="comma-separated bot specs, one a seat, in seat order: "
                     "random, greedy, mcts:2000, mcts:seconds=0.5,policy=light, package.module:Class:arg=value, "
                     "an installed bot's name, cmd:COMMAND ARGS (an external engine, docs/bot-protocol.md)")
    rec.add_argument("-o", "--output", required=True, help="the .jsonl file to write (one that exists: "
                     "--force or --append)")
    outputs.add_arguments(rec)
    _cli.add_backend(rec)
    rec.add_argument("--workers", type=_cli.positive(int), help="worker processes (default: every core)")
    distributed.add_ray_argument(rec)
    _who_played_arguments(rec)

    tour = _cli.add_command(
        commands, "tournament", _tournament, help="bots against each other on shared, seat-rotated deals",
        description="Each deal (game seed SEED + i) is played in every rotation of the bots over the seats (more "
        "bots than seats: every group of PLAYERS bots in each of its rotations; fewer: the list repeated to "
        "fill the seats), in worker processes. Prints per bot: games, wins (shared wins as fractions), win rate "
        "and average score with 95% confidence intervals; then the Elo ratings (Bradley-Terry maximum "
        "likelihood, 95% intervals from deals), the crosstable and, at two players, each pair's trinomial and "
        "pentanomial intervals. --sprt plays deals until fishtest's generalized SPRT decides.")
    tour.add_argument("--bots", required=True, metavar="SPECS",
                      help="comma-separated bot specs: random, greedy, mcts, mcts:ITERATIONS (e.g. mcts:2000), "
                      "mcts:seconds=0.5, mcts:2000:c=0.7, package.module:Class:arg=value, an installed bot's "
                      "name, cmd:COMMAND ARGS (an external engine, docs/bot-protocol.md)")
    tour.add_argument("--games", type=_cli.positive(int),
                      help="games to play, rounded up to whole deals (default: 100; with --sprt the most to play, "
                      "default %d)" % SPRT_GAMES)
    _cli.add_game_arguments(tour)
    tour.add_argument("--workers", type=_cli.positive(int), help="worker processes (default: every core)")
    tour.add_argument("--seed", type=_cli.seed, default=0, help="seed of the first deal, 0..2**64-1 (default: 0)")
    tour.add_argument("-o", "--output", help="write every game to this .jsonl file as a record (one that "
                      "exists: --force or --append)")
    outputs.add_arguments(tour)
    tour.add_argument("--html", metavar="FILE", help="write a report page: standings, crosstable, rating plot, "
                      "score distributions (one that exists: --force)")
    tour.add_argument("--anchor", metavar="BOT", help="the bot whose rating is fixed (default: the first)")
    tour.add_argument("--anchor-elo", type=_cli.finite, default=0.0, metavar="ELO",
                      help="the anchor's rating (default: 0)")
    tour.add_argument("--sprt", metavar="elo0=E0,elo1=E1[,alpha=A,beta=B,model=M]",
                      help="two bots: play deals until the generalized SPRT on the first bot's pentanomial counts "
                      "accepts H0 (elo0) or H1 (elo1), e.g. elo0=0,elo1=10; alpha and beta default to 0.05, model "
                      "normalized (nElo) or logistic (Elo), default normalized, as fastchess and fishtest")
    tour.add_argument("--rating-interval", type=_cli.positive(int), default=20, metavar="GAMES",
                      help="with --sprt, print the LLR every GAMES games (whole deals; default: 20)")
    _cli.add_backend(tour)
    distributed.add_ray_argument(tour)
    _who_played_arguments(tour)


def register_records(commands):
    """This module's commands on records: audit, explain, check-score."""
    aud = _cli.add_command(commands, "audit", _audit, help="replay records and check every move and score",
                           description="Replay each record from its factories and check every move's "
                           "legality, every round's scores, the final scores and the winners. Prints each "
                           "disagreement and a summary; exit code 0 only when every record agrees.")
    aud.add_argument("files", nargs="+", metavar="FILE.jsonl")
    _cli.add_backend(aud)

    exp = _cli.add_command(commands, "explain", _explain, help="the score sheet of one recorded game")
    exp.add_argument("file", metavar="FILE.jsonl")
    exp.add_argument("--game", type=_cli.positive(int), default=1, help="line number of the record (default: 1)")
    _cli.add_backend(exp)

    chk = _cli.add_command(
        commands, "check-score", _check_score,
        help="end bonuses and total for a wall or a Summer Pavilion board at the table, or audit a record",
        description="Give a final wall (five rows of colour letters B Y R K W and dots, from "
        "a file or - for standard input) and the score before bonuses: prints the bonuses "
        "and the final total. With --variant summer-pavilion, give a final board instead (seven rows, one a "
        "star in the order O R B Y G P C, each its six spaces as colour letters P G O Y B R and dots), the score "
        "after round %d's passes and --kept, the tiles still kept: prints the stars and numbers complete, the "
        "kept tiles' penalty and the final total. Or give --record FILE.jsonl to audit whole games."
        % game_info("summer-pavilion").rounds)
    chk.add_argument("wall", nargs="?", help="file with the wall (or the board), or - for standard input")
    chk.add_argument("--score", type=_cli.non_negative, help="the score before end bonuses (0 or more)")
    chk.add_argument("--variant", choices=["classic", "grey", "summer-pavilion"],
                     help="classic also checks the wall's colour pattern; summer-pavilion reads a board")
    chk.add_argument("--kept", type=_cli.non_negative, help="Summer Pavilion: the tiles kept at the last pass, 0-4 "
                     "(default: 0)")
    chk.add_argument("--record", metavar="FILE.jsonl", help="audit this file of records instead")
    _cli.add_backend(chk)


def parser():
    """The whole command line: every command module's ``register``, in the order ``--help`` lists them."""
    from azul_engine import _commands, ladder, play, selfplay, serve, train

    top = _cli.Parser(prog="azul-engine", description="Azul rules engine.")
    top.add_argument("--version", action="version", version=f"azul-engine {__version__}")
    commands = top.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for register_commands in (register, selfplay.register, register_records, serve.register, _commands.register,
                              play.register, train.register, ladder.register):
        register_commands(commands)
    return top


class _Terminated(KeyboardInterrupt):
    """SIGTERM (``kill``, a job scheduler, a container's stop), raised as an interrupt: whatever cleans up after
    Ctrl-C (output files, worker processes, external bots, progress bars) does so after it too."""


def _terminated(signum, frame):
    raise _Terminated()


def _catch_sigterm():
    """SIGTERM raises _Terminated from here on; returns the handler it replaced (None: not the main thread, or
    SIGTERM ignored, which stays so)."""
    sigterm = getattr(signal, "SIGTERM", None)
    if sigterm is None or threading.current_thread() is not threading.main_thread():
        return None
    previous = signal.getsignal(sigterm)
    if previous is signal.SIG_IGN:
        return None
    signal.signal(sigterm, _terminated)
    return previous


def main(argv=None):
    """Run the command line with ``argv`` (default: ``sys.argv[1:]``); return the exit code."""
    top = parser()
    args = None
    try:
        sys.stdout.reconfigure(errors="backslashreplace")  # a file name that is not UTF-8 prints, escaped
    except (AttributeError, ValueError):
        pass
    previous = _catch_sigterm()
    try:
        args = top.parse_args(argv)
        code = args.handler(args)
        sys.stdout.flush()  # a closed pipe shows here, not in the interpreter's exit
        return code
    except _cli.CommandError as e:
        print(f"azul-engine {args.command}: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt as e:
        # Ctrl-C or SIGTERM: one line, no traceback, the shell's status for the signal. Output files were cut back
        # to their last whole line, or left as they were for a replacement not complete, by whoever wrote them
        # (outputs.LineWriter).
        _cli.Progress.stop_all()
        command = f" {args.command}" if args is not None else ""
        terminated = isinstance(e, _Terminated)
        print(f"azul-engine{command}: {'terminated' if terminated else 'interrupted'}", file=sys.stderr)
        return 128 + signal.SIGTERM if terminated else 130
    except BrokenPipeError:
        # `azul-engine explain ... | head`: the reader left. Quietly, as a program killed by SIGPIPE.
        _silence_stdout()
        return 128 + getattr(signal, "SIGPIPE", 13)
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)


def _silence_stdout():
    """Point standard output at the null device, so that flushing it at exit raises nothing more."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):  # no real file descriptor (an in-process caller's capture)
        pass


if __name__ == "__main__":
    sys.exit(main())
