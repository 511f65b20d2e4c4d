"""The commands of the tools: ``hint`` (the best moves of a position), ``board`` (a position as an SVG picture),
``replay`` (a recorded game as an HTML page) and ``ratings`` (Elo ratings from record files).  The tools
themselves (``hints``, ``svg``, ``replay``, ``ratings``, ``report``) know nothing of the command line; these
commands read their arguments, call them and write the output.

    python -m azul_engine hint "azul-state/1 variant=classic players=2 ..."   # a state's text
    python -m azul_engine hint position.txt --bot mcts:seconds=2 --top 5     # or a file holding it
    ... | python -m azul_engine hint -                                       # or standard input
    python -m azul_engine board games.jsonl --game 3 --move 20 -o board.svg
    python -m azul_engine replay games.jsonl --game 3 -o game.html
    python -m azul_engine ratings games.jsonl more.jsonl --anchor greedy --html report.html
"""

import json
import os
import sys

from . import _cli, outputs, ratings, records, report, svg
from .hints import hint
from .replay import frames, to_html

__all__ = ["register", "read_state_text"]

_PREFIX = "azul-state/"


def register(commands):
    """The ``hint``, ``replay``, ``board`` and ``ratings`` commands, in the order ``--help`` lists them."""
    for register_command in (_register_hint, _register_replay, _register_board, _register_ratings):
        register_command(commands)


def _fail(command):
    def fail(message, status):
        print("azul-engine %s: %s" % (command, message), file=sys.stderr)
        return status
    return fail


def _read_record(args, fail):
    """The record on line ``args.game`` of ``args.file``, or the exit status of the one line that says why not."""
    try:
        item = records.read_line(args.file, args.game)
    except OSError as e:
        return fail("cannot read %s: %s" % (args.file, e.strerror or e), 2)
    if item is None:
        return fail("%s: %s" % (args.file, records.no_record(args.file, args.game)), 1)
    if isinstance(item, records.RecordError):
        return fail("%s: %s" % (args.file, item), 1)
    return item


def _write(args, text, fail):
    try:
        outputs.write_text(args.output, text, "replace" if args.force else "new")
    except OSError as e:
        return fail("cannot write %s: %s" % (args.output, e.strerror), 2)
    return 0


# -- hint ----------------------------------------------------------------------------------------------------

def read_state_text(text):
    """The state's text from the command's TEXT: the text itself, ``-`` for standard input, or a file's path.
    ValueError says why it cannot be read."""
    if text.lstrip().startswith(_PREFIX):
        return text.strip()
    if text == "-":
        return sys.stdin.read().strip()
    try:
        if os.path.isdir(text):
            raise ValueError("cannot read %s: it is a directory" % text)
        with open(text, encoding="utf-8", errors="replace") as f:
            return f.read().strip()
    except FileNotFoundError:
        raise ValueError("%r is neither a state's text (azul-state/1 ...) nor a file" % text[:60]) from None
    except OSError as e:
        raise ValueError("cannot read %s: %s" % (text, e.strerror)) from None


def _register_hint(commands):
    parser = _cli.add_command(
        commands, "hint", hint_command, help="the best moves of a position, with search statistics",
        description="Search the position TEXT (a state's text, azul-state/1 ..., as to_text() writes it; or a "
        "file holding it; or - for standard input) with a bot and print its best moves: visits (search "
        "iterations through the move) and value (mean utility for the player to move, 0-1).")
    parser.add_argument("text", metavar="TEXT", help="the state's text, a file with it, or - for standard input")
    parser.add_argument("--bot", default="mcts:seconds=1", metavar="SPEC",
                        help="a bot that gives search statistics (default: mcts:seconds=1)")
    parser.add_argument("--top", type=_cli.positive(int), default=3, help="moves to show (default: 3)")
    parser.add_argument("--seed", type=_cli.seed, default=0, help="seed of the bot's own choices (default: 0)")
    parser.add_argument("--json", action="store_true", help="one JSON object")
    _cli.add_backend(parser)
    return parser


def hint_command(args):
    """``azul-engine hint``: exit status 0, 2 for a bad argument or a position without a move to choose."""
    out, usage_error = _cli.out, _cli.usage_error
    try:
        text = read_state_text(args.text)
    except ValueError as e:
        return usage_error(args, str(e))
    engine = _cli.engine(args)
    try:
        state = engine.from_text(text)
    except ValueError as e:  # StateFormatError
        return usage_error(args, "not a state's text: %s" % e)
    try:
        found = hint(state, bot=args.bot, top=args.top, seed=args.seed)
    except ValueError as e:
        return usage_error(args, str(e).replace("hint: ", "", 1))
    if args.json:
        out(json.dumps({"player": state.current_player, "bot": args.bot, "hints": [h.as_dict() for h in found]}))
        return 0
    out("%s, %d players, round %d: player %d to move; %s" % (state.variant, state.players, state.round,
                                                             state.current_player, args.bot))
    rows = [("move", "visits", "share", "value")] + [
        (h.move, "%d" % h.visits, "-" if h.share is None else "%.1f%%" % (100 * h.share),
         "-" if h.value is None else "%.3f" % h.value)
        for h in found]
    widths = [max(len(r[i]) for r in rows) for i in range(4)]
    for r in rows:
        out("  ".join([r[0].ljust(widths[0])] + [c.rjust(w) for c, w in zip(r[1:], widths[1:])]).rstrip())
    return 0


# -- replay --------------------------------------------------------------------------------------------------

def _register_replay(commands):
    parser = _cli.add_command(
        commands, "replay", replay_command, help="a recorded game as a self-contained HTML page",
        description="Write one record of FILE.jsonl as an HTML page that steps through the game move by move "
        "(buttons, arrow keys, a slider), with every move, the scores after each round and the end bonuses; it "
        "needs no network.")
    parser.add_argument("file", metavar="FILE.jsonl")
    parser.add_argument("--game", type=_cli.positive(int), default=1, help="line number of the record (default: 1)")
    parser.add_argument("-o", "--output", required=True, help="the .html file to write (one that exists: --force)")
    parser.add_argument("--force", action="store_true", help="replace the output file if it exists")
    parser.add_argument("--seat", type=int, default=0, help="the player seen from below (default: 0)")
    _cli.add_backend(parser)
    return parser


def replay_command(args):
    """``azul-engine replay``: exit status 0, 1 for a record that does not replay, 2 for a bad argument."""
    fail = _fail("replay")
    if os.path.isdir(args.file):
        return fail("cannot read %s: it is a directory" % args.file, 2)
    engine = _cli.engine(args)
    item = _read_record(args, fail)
    if isinstance(item, int):
        return item
    try:
        page = to_html(item, engine, seat=args.seat)
    except records.RecordError as e:
        return fail("%s: line %d: %s" % (args.file, args.game, e), 1)
    except ValueError as e:
        return fail(str(e), 2)
    return _write(args, page, fail)


# -- board ---------------------------------------------------------------------------------------------------

def _register_board(commands):
    parser = _cli.add_command(
        commands, "board", board_command, help="a position as an SVG picture",
        description="Draw the position after a number of moves of a recorded game (or a state's text) as an SVG "
        "1.1 picture, the last move outlined.")
    parser.add_argument("file", nargs="?", metavar="FILE.jsonl", help="a file of records")
    parser.add_argument("--game", type=int, default=1, help="line number of the record (default: 1)")
    parser.add_argument("--move", type=int,
                        help="the position after this many moves of the game (default: the end; 0: the start)")
    parser.add_argument("--text", help="draw this state text (state.to_text()) instead of a record")
    parser.add_argument("--seat", type=int, default=0, help="the player seen from below (default: 0)")
    parser.add_argument("--size", type=float, help="width in pixels (default: the natural size)")
    parser.add_argument("--highlight", metavar="MOVE", help="a legal move to outline, in notation")
    parser.add_argument("-o", "--output", required=True,
                        help="the .svg file to write (- for standard output; one that exists: --force)")
    parser.add_argument("--force", action="store_true", help="replace the output file if it exists")
    _cli.add_backend(parser)
    return parser


def board_command(args):
    """``azul-engine board``: exit status 0; 1 for a record or text that cannot be drawn; 2 for a bad
    argument."""
    fail = _fail("board")
    if (args.file is None) == (args.text is None):
        return fail("give one of: a file of records, or --text STATE", 2)
    engine = _cli.engine(args)
    last = False
    if args.text is not None:
        try:
            state = engine.from_text(args.text)
        except ValueError as e:
            return fail("--text: %s" % e, 1)
    else:
        item = _read_record(args, fail)
        if isinstance(item, int):
            return item
        try:
            positions = frames(item, engine)
        except records.RecordError as e:
            return fail("%s: line %d: %s" % (args.file, args.game, e), 1)
        k = len(positions) - 1 if args.move is None else args.move
        if not 0 <= k < len(positions):
            return fail("--move must be 0-%d for this game, not %d" % (len(positions) - 1, k), 2)
        state, move, player, _ = positions[k]
        last = (move, player) if move else False
    try:
        picture = svg.board(state, size=args.size, seat=args.seat, highlight=args.highlight, last_move=last)
    except ValueError as e:  # a seat, highlight or size that does not fit
        return fail(str(e), 2)
    if args.output == "-":
        sys.stdout.write(picture)
        return 0
    return _write(args, picture, fail)


# -- ratings -------------------------------------------------------------------------------------------------

SKIPPED_SHOWN = 5  # records that cannot be counted, named one by one before a count of the rest


def _register_ratings(commands):
    parser = _cli.add_command(
        commands, "ratings", ratings_command, help="Elo ratings of the bots of record files",
        description="Rate the bots that played the games of FILE.jsonl ... (records that say who played, as "
        "tournament -o and record write them): Elo by Bradley-Terry maximum likelihood with 95 percent intervals "
        "counted in deals (games with the same variant, players and seed), the likelihood of superiority of each "
        "bot over the next, the crosstable and, for two-player games, each pair's trinomial and pentanomial "
        "intervals. A game of 3 or 4 players counts as the pairwise results of its seats, each weighing "
        "1/(players-1). The files must hold one variant and one player count (or give --variant and --players).")
    parser.add_argument("files", nargs="+", metavar="FILE.jsonl")
    parser.add_argument("--anchor", metavar="BOT", help="the bot (its spec) whose rating is fixed (default: the "
                        "first bot of the first game)")
    parser.add_argument("--anchor-elo", type=_cli.finite, default=0.0, metavar="ELO",
                        help="the anchor's rating (default: 0)")
    parser.add_argument("--prior", type=_cli.finite, metavar="DRAWS", help="virtual draws added to each pair of "
                        "bots that met (default: none, or %g when some bot won or lost every game)"
                        % ratings.AUTO_PRIOR)
    parser.add_argument("--variant", choices=list(_cli.VARIANTS), help="count only the games of this variant")
    parser.add_argument("--players", type=int, choices=[2, 3, 4], help="count only the games of this many players")
    parser.add_argument("--audit", action="store_true", help="replay each record first (azul-engine audit) and "
                        "leave out those that disagree with the rules")
    parser.add_argument("--html", metavar="FILE", help="write a report page (one that exists: --force)")
    parser.add_argument("--force", action="store_true", help="replace the --html file if it exists")
    _cli.add_backend(parser, help="the engine that replays the records with --audit (default: the active one, %s)"
                     % _cli.BACKEND)
    return parser


def _read_rated_games(args, fail):
    """The games of the command's files, filtered by --variant and --players (and --audit), or an exit status."""
    for path in args.files:
        problem = _cli.input_file(path)
        if problem:
            return fail(problem, 2)
    check = None
    if args.audit:
        engine = _cli.engine(args)

        def check(record, line):
            findings = records.audit(record, engine, line=line)
            return "%s (audit)" % str(findings[0]).split(": ", 1)[-1] if findings else None

    try:
        games, skipped, kinds = ratings.read_games(args.files, args.variant, args.players, check)
    except OSError as e:
        return fail("cannot read %s: %s" % (e.filename or args.files[0], e.strerror or e), 2)
    for line in skipped[:SKIPPED_SHOWN]:
        print("azul-engine ratings: left out: %s" % line, file=sys.stderr)
    if len(skipped) > SKIPPED_SHOWN:
        print("azul-engine ratings: left out %d more records" % (len(skipped) - SKIPPED_SHOWN), file=sys.stderr)
    if len(kinds) > 1:
        return fail("the files hold games of %s: ratings compare one variant at one player count (give --variant "
                    "and --players)" % " and ".join(sorted(kinds)), 2)
    if not games:
        return fail("no games to rate in %s%s" % (", ".join(args.files),
                                                  " (%d records left out)" % len(skipped) if skipped else ""), 1)
    return games, len(skipped), kinds[0]


def ratings_command(args):
    """``azul-engine ratings``: exit status 0; 1 when no record can be counted; 2 for a bad argument."""
    fail = _fail("ratings")
    if args.html is not None:
        try:
            outputs.check(args.html, "replace" if args.force else "new", append=False)
        except OSError as e:
            return fail("cannot write %s: %s" % (args.html, e.strerror or e), 2)
    got = _read_rated_games(args, fail)
    if isinstance(got, int):
        return got
    games, skipped, kind = got
    try:
        rated = ratings.rate(games, args.anchor, args.anchor_elo, args.prior)
    except ValueError as e:
        return fail(str(e), 2)
    pairs = ratings.all_pair_stats(games, rated.bots) if 2 in rated.players else []
    _cli.out("%s: %d games from %d file%s%s" % (kind, len(games), len(args.files), "" if len(args.files) == 1
                                               else "s", ", %d records left out" % skipped if skipped else ""))
    _cli.out(ratings.text_report(rated, pairs))
    if args.html is not None:
        page = report.to_html(rated, games, pairs, title="Ratings: " + ", ".join(os.path.basename(f)
                                                                               for f in args.files),
                              lines=["%s; %d games" % (kind, len(games))])
        try:
            outputs.write_text(args.html, page, "replace" if args.force else "new")
        except OSError as e:
            return fail("cannot write %s: %s" % (args.html, e.strerror or e), 2)
    return 0
