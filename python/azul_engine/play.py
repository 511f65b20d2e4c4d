"""Play against the bots in a terminal: ``python -m azul_engine play``.

The board is drawn with rich (colours in a terminal, plain text in a pipe), moves are typed in the engine's
notation (``3R4``, ``CBF``, ``W24``; Summer Pavilion ``3R``, ``R3R1``, ``+G``, ``-GRR``), and an illegal move
gets the engine's own message.  Commands: ``moves``, ``hint``, ``undo``, ``board``, ``save FILE``, ``help``,
``quit``.  The bots' moves are shown as they play; at the end come the final scores, the end bonuses and the
winners, and the game can be saved as a record (``-o FILE`` saves it without asking).

It reads standard input line by line, so a script can play it: ``printf '1B1\\nquit\\n' | azul-engine play``.
"""

import sys

from . import _cli, bots, mcts, records
from ._backends import game_info
from ._errors import IllegalMoveError
from .simple_bots import BotFailure
from .table import HUMAN, Table

__all__ = ["TerminalGame", "render", "hint", "main"]

_CLASSIC_STYLE = {"B": "bold white on #1f63b5", "Y": "bold black on #f0c419", "R": "bold white on #c8372d",
                  "K": "bold white on #262626", "W": "bold #1f63b5 on #f5f1e6", "M": "bold black on white"}
_FAINT = {"B": "#5b8fd6", "Y": "#b8960f", "R": "#d46a62", "K": "#8a8a8a", "W": "#bdb8aa"}
_SP_STYLE = {"P": "bold white on #7e3f98", "G": "bold white on #2b8a3e", "O": "bold black on #e67e22",
             "Y": "bold black on #f0c419", "B": "bold white on #1f63b5", "R": "bold white on #c8372d",
             "M": "bold black on white"}
_SP_FAINT = {"O": "#e67e22", "R": "#c8372d", "B": "#5b8fd6", "Y": "#b8960f", "G": "#2b8a3e", "P": "#9b5fb5",
             "C": "#8a8a8a"}
_CLASSIC_INFO = game_info("classic")
_FLOOR = _CLASSIC_INFO.floor_penalties
_WALL = _CLASSIC_INFO.wall_pattern
_STARS = game_info("summer-pavilion").stars

HELP = """Type a move in the engine's notation, or a command:
  moves       the legal moves
  hint        the best three moves here, by a short MCTS search
  undo        take back your last move (and the bots' replies)
  board       draw the board again
  save FILE   write the game so far as a record (a .jsonl line)
  help        this text
  quit        leave the game
Moves, classic and grey: source (1-9 a factory, C the centre), colour (B Y R K W),
  pattern line (1-5) or F (the floor): 3R4, CBF; grey wall: W, row, column: W24.
Summer Pavilion: acquire 3R, CG; place star, space, colour, wild tiles: R3R1;
  bonus tile +G; pass keeping tiles -GRR (- keeps none)."""


def _text():
    from rich.text import Text
    return Text()


def _tiles(text, letters, styles, sep=" "):
    for i, letter in enumerate(letters):
        if i:
            text.append(sep)
        text.append(letter, style=styles.get(letter, ""))
    return text


def _classic_board(state, p, name):
    from rich.text import Text
    t = Text()
    title = "Player %d (%s), score %d" % (p, name, state.scores[p])
    t.append(title, style="bold")
    if state.current_player == p and not state.is_over:
        t.append("  <- to move", style="bold magenta")
    t.append("\n")
    grey = state.variant == "grey"
    for r in range(5):
        line = state.pattern_lines[p][r]
        t.append("  " + " " * (2 * (4 - r)))
        cells = ["."] * (r + 1 - len(line)) + list(line)
        for k, cell in enumerate(cells):
            t.append(cell, style=_CLASSIC_STYLE.get(cell, "dim"))
            t.append(" ")
        t.append("| ")
        for c in range(5):
            cell = state.walls[p][r][c]
            if cell != ".":
                t.append(cell, style=_CLASSIC_STYLE[cell])
            elif grey:
                t.append(".", style="dim")
            else:
                colour = _WALL[r][c]
                t.append(colour.lower(), style=_FAINT[colour])
            t.append(" ")
        t.append("\n")
    floor = state.floors[p]
    penalty = sum(_FLOOR[:min(7, len(floor))])
    t.append("  floor: ")
    if floor:
        _tiles(t, floor, _CLASSIC_STYLE)
    else:
        t.append("-", style="dim")
    t.append("  (-%d)" % penalty)
    return t


def _pavilion_board(state, p, name):
    from rich.text import Text
    t = Text()
    t.append("Player %d (%s), score %d" % (p, name, state.scores[p]), style="bold")
    if state.current_player == p and not state.is_over:
        t.append("  <- to move", style="bold magenta")
    elif state.passed[p] and state.phase in ("play", "bonus"):
        t.append("  (passed)", style="dim")
    if state.first_player_marker == p and not state.is_over:
        t.append("  (start token)", style="bold")
    t.append("\n")
    for s, star in enumerate(_STARS):
        t.append("  %s: " % star, style="bold " + _SP_FAINT[star])
        for n, cell in enumerate(state.boards[p][s], 1):
            if cell != ".":
                t.append(cell, style=_SP_STYLE[cell])
            else:
                t.append(str(n), style=_SP_FAINT[star])
            t.append(" ")
        t.append("\n")
    t.append("  hand: ")
    if state.hands[p]:
        _tiles(t, state.hands[p], _SP_STYLE)
    else:
        t.append("-", style="dim")
    return t


def render(state, names=None):
    """The position as rich renderables (a list): the heading, the table, every player's board."""
    from rich.columns import Columns
    from rich.text import Text
    pavilion = state.variant == "summer-pavilion"
    styles = _SP_STYLE if pavilion else _CLASSIC_STYLE
    names = names or ["player %d" % p for p in range(state.players)]
    variant = {"classic": "Azul", "grey": "Azul (grey wall)", "summer-pavilion": "Azul: Summer Pavilion"}
    head = Text("%s, %d players, round %d, %s" % (variant[state.variant], state.players, state.round,
                                                  "game over" if state.is_over else state.phase + " phase"),
                style="bold underline")
    table = Text()
    table.append("factories: ")
    for i, f in enumerate(state.factories, 1):
        table.append("%d:" % i, style="bold")
        if f:
            _tiles(table, f, styles, sep="")
        else:
            table.append("-", style="dim")
        table.append("  ")
    table.append("\ncentre: ")
    marker = state.first_player_marker == -1 and not state.is_over and (
        not pavilion or state.phase in ("acquire", "fill"))
    centre = ("M" if marker else "") + state.center
    if centre:
        _tiles(table, centre, styles)
    else:
        table.append("-", style="dim")
    if marker:
        table.append("   (M: first-player marker)", style="dim")
    if pavilion and state.phase == "bonus":
        table.append("\nplayer %d takes %d bonus tile%s from the supply (+ and a colour)" % (
            state.current_player, state.bonus_owed, "" if state.bonus_owed == 1 else "s"), style="bold")
    if not pavilion and state.phase == "tiling" and state.pending_row >= 0:
        table.append("\nplayer %d places the tile of pattern line %d on the wall (W%d and a column)" % (
            state.current_player, state.pending_row + 1, state.pending_row + 1), style="bold")
    if pavilion:
        table.append("\nsupply: ")
        _tiles(table, state.supply, styles) if state.supply else table.append("-", style="dim")
        table.append("   wild colour: ")
        table.append(state.wild, style=styles[state.wild])
    boards = [(_pavilion_board if pavilion else _classic_board)(state, p, names[p]) for p in range(state.players)]
    return [head, table, Columns(boards, padding=(1, 4))]


def hint(state, top=3, iterations=1000, seed=0):
    """``[(move, visits, value)]``: the ``top`` moves an MCTS search of ``iterations`` iterations likes best
    (``azul_engine.bots.hint``), most visited first; ``value`` is the mean utility for the player to move (0..1),
    None for a forced move."""
    legal = state.legal_actions()
    if len(legal) == 1:
        return [(state.action_to_string(legal[0]), 1, None)]
    return [(h.move, h.visits, h.value) for h in bots.hint(state, bot="mcts:%d" % iterations, top=top, seed=seed)]


def _hint_line(item, iterations):
    move, visits, value = item
    if value is None:
        return "%s (the only move)" % move
    return "%s  (%.0f%% of the search, value %.2f)" % (move, 100 * visits / iterations, value)


class TerminalGame(Table):
    """The terminal game: a ``table.Table`` with one person (``seat``) and bots, driven line by line:
    ``handle(line)`` returns False once the person has quit. What is its own: drawing the position, reading the
    person's commands, and saving the record."""

    def __init__(self, engine, players, variant, bot_specs, seat=0, seed=None, console=None, output=None):
        from rich.console import Console
        specs = list(bot_specs)
        if len(specs) == 1:
            specs = specs * (players - 1)
        if len(specs) != players - 1:
            raise ValueError("give one bot spec, or %d (one for each seat but yours): got %d"
                             % (players - 1, len(specs)))
        others = iter(specs)
        super().__init__(engine, players, variant, [HUMAN if p == seat else next(others) for p in range(players)],
                         seed)
        if self.forfeit is not None:  # a bot that could not be made: no game
            self.close()
            raise BotFailure(self.forfeit.reason)
        self.console = console or Console(highlight=False)
        self.seat, self.output = seat, output
        self.labels = ["you" if p == seat else spec for p, spec in enumerate(self.specs)]  # as the board shows
        self.done = False

    # -- output
    def say(self, text, style=None):
        self.console.print(text, style=style, markup=False, highlight=False, soft_wrap=True)

    def draw(self):
        for item in render(self.state, self.labels):
            self.console.print(item)

    def prompt(self):
        return "player %d, your move (help for commands)> " % self.seat

    # -- play
    def bots_play(self):
        """Let the bots move until it is the person's turn or the game is over.  A bot that fails (raises, or
        answers what is not a legal move: an action id or notation) forfeits, as in ``bots.play_match``."""
        moved = False
        for played in self.bot_moves():
            self.say("player %d (%s) plays %s" % (played.seat, self.labels[played.seat], played.move), style="cyan")
            moved = True
        if self.forfeit is not None:
            return self.stop()
        if moved or self.state.is_over:
            self.draw()
        if self.state.is_over:
            self.finish()
        return None

    def stop(self):
        """A bot forfeited: the game stops there, lost by that seat (a saved record says so)."""
        self.done = True
        seat, reason = self.forfeit.seat, self.forfeit.reason
        self.say("player %d (%s) forfeits: %s. The game stops here." % (seat, self.labels[seat], reason),
                 style="bold red")
        if self.output:
            self.save(self.output)

    def start(self):
        self.say("Azul against %s; you are player %d; seed %d. Type help for the commands."
                 % (", ".join(sorted(set(self.labels) - {"you"})), self.seat, self.state.seed), style="bold")
        self.draw()
        self.bots_play()

    def finish(self):
        self.done = True
        state = self.state
        self.tell_bots_the_end()
        self.say("Game over.", style="bold")
        for e in records.end_bonus_events(state):
            words = records.end_bonus_text(state.variant, e)
            self.say("end bonuses, player %d (%s): %+d (%s): %d -> %d" % (
                e["player"], self.labels[e["player"]], e["after"] - e["before"], words, e["before"], e["after"]))
        self.say("final scores: " + ", ".join("player %d (%s) %d" % (p, self.labels[p], s)
                                              for p, s in enumerate(state.scores)), style="bold")
        winners = state.winners
        if winners == [self.seat]:
            verdict = "You win!"
        elif self.seat in winners:
            verdict = "You share the win."
        else:
            verdict = "You lose."
        self.say("winner%s: %s. %s" % ("s" if len(winners) > 1 else "",
                                        ", ".join("player %d (%s)" % (p, self.labels[p]) for p in winners),
                                        verdict), style="bold green" if self.seat in winners else "bold")
        if self.output:
            self.save(self.output)

    def save(self, path):
        try:
            with open(path, "a", encoding="utf-8", newline="\n") as f:
                f.write(self.record_json() + "\n")
        except OSError as e:
            self.say("cannot write %s: %s" % (path, e.strerror), style="red")
            return False
        except ValueError as e:  # a path with a NUL character
            self.say("cannot write %r: %s" % (path, e), style="red")
            return False
        self.say("saved the game as a record in %s" % path)
        return True

    def handle(self, line):
        """Act on one line of input; False when the person quits."""
        words = line.strip().split()
        if not words:
            return True
        command = words[0].lower()
        if command in ("quit", "exit", "q"):
            return False
        if command in ("help", "?"):
            self.say(HELP)
            return True
        if command == "board":
            self.draw()
            return True
        if command == "save":
            if len(words) != 2:
                self.say("save needs a file name: save game.jsonl", style="red")
            else:
                self.save(words[1])
            return True
        if command == "undo":
            if not self.undo():
                self.say("nothing to undo", style="yellow")
                return True
            self.done = False  # an undo after the last move (or a forfeit) takes the game up again
            self.say("took back your last move")
            self.draw()
            return True
        if self.done:
            self.say("the game is over: save FILE, undo or quit", style="yellow")
            return True
        if command == "moves":
            self.say("legal moves: " + " ".join(self.state.legal_moves()))
            return True
        if command == "hint":
            self.say("thinking...", style="dim")
            iterations = mcts.interactive_iterations(self.engine)
            for rank, item in enumerate(hint(self.state, iterations=iterations), 1):
                self.say("hint %d: %s" % (rank, _hint_line(item, iterations)))
            return True
        move = words[0]
        if len(words) > 1:
            self.say("one move at a time, like %s" % self.state.legal_moves()[0], style="red")
            return True
        try:
            played = self.person_move(move.upper())
        except IllegalMoveError as e:
            self.say("illegal move %s: %s" % (move, e), style="red")
            return True
        self.say("player %d (you) plays %s" % (self.seat, played.move))
        if self.state.current_player == self.seat and not self.state.is_over:
            self.draw()
        self.bots_play()
        return True


def _read_line(console, prompt, interactive):
    """One line of input, or None at the end of the input (or Ctrl-D)."""
    try:
        if interactive:
            return console.input(prompt)
        console.print(prompt, end="", markup=False, highlight=False)
        line = sys.stdin.readline()
        if not line:
            console.print()
            return None
        console.print(line.rstrip("\n"), markup=False, highlight=False)  # the transcript shows what was read
        return line
    except EOFError:
        return None


def register(commands):
    """The ``play`` command."""
    parser = _cli.add_command(
        commands, "play", command, help="play against the bots in the terminal",
        description="A game against bots: type moves in the engine's notation; commands moves, hint, undo, board, "
        "save FILE, help, quit. Reads standard input line by line, so it can be scripted.")
    _add_arguments(parser)
    return parser


def _add_arguments(parser):
    _cli.add_game_arguments(parser)
    parser.add_argument("--bots", default="greedy", metavar="SPECS",
                        help="comma-separated bot specs for the other seats, in seat order, or one for all "
                        "(default: greedy): random, greedy, mcts, mcts:2000, mcts:seconds=0.5")
    parser.add_argument("--seat", type=int, default=0, help="your seat, 0 to PLAYERS-1 (default: 0)")
    parser.add_argument("--seed", type=_cli.seed, default=None, help="game seed, 0..2**64-1 (default: a random one)")
    parser.add_argument("-o", "--output", help="append the finished game to this .jsonl file as a record")
    _cli.add_backend(parser)


def command(args):
    from rich.console import Console

    def fail(message):
        print("azul-engine play: %s" % message, file=sys.stderr)
        return 2

    if not 0 <= args.seat < args.players:
        return fail("--seat must be a seat of the game, 0-%d, not %d" % (args.players - 1, args.seat))
    try:
        engine = _cli.engine(args)
    except _cli.CommandError as e:
        return fail(str(e))
    interactive = sys.stdin.isatty() and sys.stdout.isatty()
    console = Console(highlight=False)
    try:
        game = TerminalGame(engine, args.players, args.variant, bots.split_bot_specs(args.bots), seat=args.seat,
                            seed=args.seed, console=console, output=args.output)
    except ValueError as e:
        return fail(str(e))
    except bots.BotFailure as e:  # an external bot that did not start
        return fail("a bot could not start: %s" % e.reason)
    with game:  # the bots stop at the end (external engines end their processes)
        game.start()
        while True:
            line = _read_line(console, game.prompt() if not game.done else "save FILE, undo or quit> ", interactive)
            if line is None or not game.handle(line):
                break
    if not game.done:
        console.print("left the game in round %d (scores %s)" % (
            game.state.round, " ".join(str(s) for s in game.state.scores)), markup=False, highlight=False)
    return 0


def main(argv=None):
    parser = _cli.Parser(prog="azul-engine play")
    _add_arguments(parser)
    return command(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
