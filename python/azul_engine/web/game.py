"""The game in play in the browser: seats played by people or by the app's bots, which take their turns as every
game takes them (``bots.ask``: the bot answers for a copy of the position; ``bots.play_answer``: its answer is
applied if it is a legal move; a bot that fails forfeits, as in the terminal game), undo back to a person's last
decision, hints, and the game's record with who played each seat."""

import copy
import json

from .. import bots, mcts, records
from .._errors import IllegalMoveError
from .forms import BadRequest

BOT_SPECS = {"random": "random", "greedy": "greedy", "mcts": "mcts"}  # mcts: mcts.interactive_iterations
HINT_TOP = 3  # moves the hint button shows (bots.hint, with the bot's search)


class Game:
    """A game in the browser: ``state``, ``seats`` ("human" or a name of BOT_SPECS), ``selected`` (the source and
    colour the person to move chose), ``hint`` (the last hint's moves), ``log`` (every move: seat, notation) and
    ``history`` (before each move of a person: the length of the log and the bots, for undo), ``specs`` (who plays
    each seat, as a record says it: "human" or the bot's spec) and ``forfeit`` (a ``bots.Forfeit`` once a bot
    has failed: the game stops there)."""

    def __init__(self, engine, players, variant, seats, seed):
        self.engine = engine
        self.state = engine.new_game(players=players, variant=variant, seed=seed)
        self.seats = seats
        self.hint_bot = "mcts:%d" % mcts.interactive_iterations(engine)
        specs = dict(BOT_SPECS, mcts=self.hint_bot)
        self.specs = [s if s == "human" else specs[s] for s in seats]
        self.bots = {p: bots.make_bot(specs[s], bots.bot_seed(seed, p)) for p, s in enumerate(seats)
                     if s != "human"}
        self.history = []
        self.selected = None
        self.hint = None
        self.log = []
        self.forfeit = None

    def stopped(self):
        """Over, or stopped by a bot's forfeit."""
        return self.state.is_over or self.forfeit is not None

    def human_to_move(self):
        return not self.stopped() and self.seats[self.state.current_player] == "human"

    def run_bots(self):
        """The bots' turns up to a person's or the end, each as every game takes it (bots.ask: the bot answers
        for a copy of the position; bots.play_answer: its answer, an id or notation, applied if legal).  A bot
        that fails (raises, or answers what is not a legal move) forfeits, as in the terminal game: the game
        stops there, lost by that seat."""
        while not self.stopped() and self.seats[self.state.current_player] != "human":
            p = self.state.current_player
            answer, reason = bots.ask(self.bots[p], self.state)
            if reason is None:
                _, move, reason = bots.play_answer(self.state, answer)
            if reason is not None:
                self.forfeit = bots.Forfeit(p, reason)
                return
            self.log.append((p, move))

    def record_json(self):
        """The game so far as a record line, saying who played each seat (``bots``: a person is "human") and, after
        a forfeit, the forfeit with the scores and winners at it (records.md section 5), as the terminal game
        writes it."""
        record = json.loads(self.state.record_json())
        record["bots"] = [{"spec": spec} for spec in self.specs]
        if self.forfeit is not None:
            record["final_scores"] = list(self.state.scores)
            record["winners"] = records.forfeit_winners(record["final_scores"], self.forfeit.seat)
            record["forfeit"] = self.forfeit.as_dict()
        return records.dumps(record)

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
        self.selected = self.hint = self.forfeit = None  # an undo after a forfeit takes the game up again

    def suggest(self):
        """The hint for the person to move: the search's best HINT_TOP moves."""
        if not self.human_to_move():
            raise BadRequest("no person is to move")
        self.hint = bots.hint(self.state, bot=self.hint_bot, top=HINT_TOP, seed=len(self.log))
