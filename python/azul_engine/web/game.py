"""The game in play in the browser: a ``table.Table`` (its seats played by people or by the app's bots, which take
their turns as every game takes them; a bot that fails forfeits, as in the terminal game; undo back to a person's
last decision; the record with who played each seat), and what the page adds: the seats' kinds, the tiles the
person to move chose, and hints."""

from .. import bots, mcts
from .._errors import IllegalMoveError
from ..table import HUMAN, Table
from .forms import BadRequest

BOT_SPECS = {"random": "random", "greedy": "greedy", "mcts": "mcts"}  # mcts: mcts.interactive_iterations
HINT_TOP = 3  # moves the hint button shows (bots.hint, with the bot's search)


class BrowserGame(Table):
    """A game in the browser: a Table whose ``seats`` are "human" or a name of BOT_SPECS, with ``selected`` (the
    source and colour the person to move chose) and ``hint`` (the last hint's moves). A refused request is a
    ``BadRequest``."""

    def __init__(self, engine, players, variant, seats, seed):
        self.seats = seats
        self.hint_bot = "mcts:%d" % mcts.interactive_iterations(engine)
        specs = dict(BOT_SPECS, mcts=self.hint_bot)
        super().__init__(engine, players, variant, [HUMAN if s == HUMAN else specs[s] for s in seats], seed)
        self.selected = None
        self.hint = None

    def human_to_move(self):
        return self.person_to_move()

    def run_bots(self):
        """The bots' turns up to a person's or the end (a bot that fails forfeits: the game stops there)."""
        self.play_bots()

    def move(self, move):
        """The person to move plays ``move`` (notation), then the bots up to the next person."""
        if not self.person_to_move():
            raise BadRequest("no person is to move")
        try:
            self.person_move(move)
        except IllegalMoveError as e:
            raise BadRequest(str(e), 409) from None
        self.selected = self.hint = None
        self.play_bots()

    def undo(self):
        """Back to before the last move of a person (the bots' replies undone too); an undo after a forfeit takes
        the game up again."""
        if not super().undo():
            raise BadRequest("nothing to undo")
        self.selected = self.hint = None
        return True

    def suggest(self):
        """The hint for the person to move: the search's best HINT_TOP moves."""
        if not self.person_to_move():
            raise BadRequest("no person is to move")
        self.hint = bots.hint(self.state, bot=self.hint_bot, top=HINT_TOP, seed=len(self.moves))
