"""The game in play in the browser: seats played by people or by the app's bots, which take their turns as every
game takes them (``bots.ask``: the bot answers for a copy of the position; ``bots.play_answer``: its answer is
applied if it is a legal move), undo back to a person's last decision, and hints."""

import copy

from .. import IllegalMoveError, bots, mcts
from .forms import BadRequest

BOT_SPECS = {"random": "random", "greedy": "greedy", "mcts": "mcts"}  # mcts: mcts.interactive_iterations
HINT_TOP = 3  # moves the hint button shows (bots.hint, with the bot's search)


class Game:
    """A game in the browser: ``state``, ``seats`` ("human" or a name of BOT_SPECS), ``selected`` (the source and
    colour the person to move chose), ``hint`` (the last hint's moves), ``log`` (every move: seat, notation) and
    ``history`` (before each move of a person: the length of the log and the bots, for undo)."""

    def __init__(self, engine, players, variant, seats, seed):
        self.engine = engine
        self.state = engine.new_game(players=players, variant=variant, seed=seed)
        self.seats = seats
        self.hint_bot = "mcts:%d" % mcts.interactive_iterations(engine)
        specs = dict(BOT_SPECS, mcts=self.hint_bot)
        self.bots = {p: bots.make_bot(specs[s], bots.bot_seed(seed, p)) for p, s in enumerate(seats)
                     if s != "human"}
        self.history = []
        self.selected = None
        self.hint = None
        self.log = []

    def human_to_move(self):
        return not self.state.is_over and self.seats[self.state.current_player] == "human"

    def run_bots(self):
        """The bots' turns up to a person's or the end, each as every game takes it (bots.ask: the bot answers
        for a copy of the position; bots.play_answer: its answer, an id or notation, applied if legal)."""
        while not self.state.is_over and self.seats[self.state.current_player] != "human":
            p = self.state.current_player
            answer, reason = bots.ask(self.bots[p], self.state)
            if reason is None:
                _, move, reason = bots.play_answer(self.state, answer)
            if reason is not None:  # the app's own bots never fail; a bot that did stops the game here
                raise BadRequest("the bot of seat %d failed: %s" % (p + 1, reason), 500)
            self.log.append((p, move))

    def move(self, move):
        """The person to move plays ``move`` (notation), then the bots up to the next person."""
        if not self.human_to_move():
            raise BadRequest("no person is to move")
        bots_before = copy.deepcopy(self.bots)  # after an undo the bots answer as they did
        p = self.state.current_player
        try:
            self.state.apply(move)
        except IllegalMoveError as e:
            raise BadRequest(str(e), 409) from None
        self.history.append((len(self.log), bots_before))
        self.log.append((p, move))
        self.selected = self.hint = None
        self.run_bots()

    def undo(self):
        """Back to before the last move of a person (the bots' replies undone too)."""
        if not self.history:
            raise BadRequest("nothing to undo")
        n, self.bots = self.history.pop()
        while len(self.log) > n:  # the engine's own undo, move by move (the bots' replies, then the person's)
            self.state.undo()
            self.log.pop()
        self.selected = self.hint = None

    def suggest(self):
        """The hint for the person to move: the search's best HINT_TOP moves."""
        if not self.human_to_move():
            raise BadRequest("no person is to move")
        self.hint = bots.hint(self.state, bot=self.hint_bot, top=HINT_TOP, seed=len(self.log))
