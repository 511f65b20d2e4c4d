"""Reference bots: random and greedy.

A bot is an object with ``choose(state) -> action`` (an action id from ``state.legal_actions()``).  Bots
draw from their own SplitMix64 generator, never from the game's, so that a bot's choices do not change the
game's draws and the same seeds give the same games in both engines.

>>> import azul_engine
>>> state = azul_engine.new_game(players=2, seed=7)
>>> RandomBot(seed=1).choose(state) in state.legal_actions()
True
"""

__all__ = ["SplitMix64", "RandomBot", "GreedyBot", "BOTS", "make_bot", "bot_seed", "play"]

_MASK64 = (1 << 64) - 1


class SplitMix64:
    """The generator of rules.md section 5, for bots (the same as the games' own)."""

    __slots__ = ("state",)

    def __init__(self, seed):
        self.state = seed & _MASK64

    def next(self):
        self.state = s = (self.state + 0x9E3779B97F4A7C15) & _MASK64
        z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
        return z ^ (z >> 31)

    def below(self, n):
        """A number in ``range(n)``: ``((next() >> 32) * n) >> 32``."""
        return ((self.next() >> 32) * n) >> 32


def bot_seed(game_seed, seat):
    """The seed of the bot in ``seat`` for the game made from ``game_seed``."""
    return SplitMix64((game_seed ^ 0xA2F1_B0C5_D00D_F00D) + seat).next()


class RandomBot:
    """Uniformly random legal moves."""

    name = "random"

    def __init__(self, seed=0):
        self.rng = SplitMix64(seed)

    def choose(self, state):
        legal = state.legal_actions()
        return legal[self.rng.below(len(legal))]


class GreedyBot:
    """The move that leaves its player the best score if the round ended at once
    (``score_if_round_ended``); ties are broken by the bot's own generator."""

    name = "greedy"

    def __init__(self, seed=0):
        self.rng = SplitMix64(seed)

    def choose(self, state):
        player = state.current_player
        best, choices = None, []
        for action in state.legal_actions():
            after = state.clone()
            after.apply(action)
            value = after.score_if_round_ended()[player]
            if best is None or value > best:
                best, choices = value, [action]
            elif value == best:
                choices.append(action)
        return choices[self.rng.below(len(choices))] if len(choices) > 1 else choices[0]


BOTS = {"random": RandomBot, "greedy": GreedyBot}


def make_bot(name, seed):
    """A bot by name (see ``BOTS``); ValueError names the known ones."""
    try:
        return BOTS[name](seed)
    except KeyError:
        raise ValueError("unknown bot %r (bots: %s)" % (name, ", ".join(BOTS))) from None


def play(engine, players, variant, seed, bots):
    """Play one game made from ``seed`` to its end, seat ``i`` played by ``make_bot(bots[i], ...)``;
    return the final state (its ``record()`` is the game)."""
    if isinstance(bots, str):
        bots = [bots] * players
    seats = [make_bot(name, bot_seed(seed, seat)) for seat, name in enumerate(bots)]
    state = engine.new_game(players=players, variant=variant, seed=seed)
    while not state.is_over:
        state.apply(seats[state.current_player].choose(state))
    return state
