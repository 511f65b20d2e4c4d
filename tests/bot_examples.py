"""Bots of a user's own, loaded by spec (``bot_examples:FirstMove``) in tests/test_bot_protocol.py."""

import time


class FirstMove:
    """The lowest legal action id, or the ``pick``-th one; records its resets."""

    name = "first-move"

    def __init__(self, pick=0, label="x", scale=1.0, loud=False):
        self.pick, self.label, self.scale, self.loud = pick, label, scale, loud
        self.resets = []

    def reset(self, seat, seed):
        self.resets.append((seat, seed))

    def choose(self, state):
        legal = state.legal_actions()
        return legal[min(self.pick, len(legal) - 1)]


class Notation:
    """Answers moves in notation, as a string, not as ids."""

    def choose(self, state):
        return state.legal_moves()[-1]


class NeedsDepth:
    def __init__(self, depth):
        self.depth = depth

    def choose(self, state):
        return state.legal_actions()[0]


class Crashes:
    """Raises on its ``after``-th move."""

    def __init__(self, after=0):
        self.after, self.moves = after, 0

    def choose(self, state):
        if self.moves >= self.after:
            raise RuntimeError("out of ideas")
        self.moves += 1
        return state.legal_actions()[0]


class Illegal:
    def choose(self, state):
        return 9999


class Slow:
    def __init__(self, seconds=0.3):
        self.seconds = seconds

    def choose(self, state):
        time.sleep(self.seconds)
        return state.legal_actions()[0]


class RefusesToBeMade:
    def __init__(self, size=1):
        raise ValueError("size must be even")

    def choose(self, state):
        return state.legal_actions()[0]


class NotABot:
    pass


def make_first_move(pick=1):
    """A factory function is a bot target too."""
    return FirstMove(pick=pick)


class EndsItsProcess:
    """Ends the process it plays in (SIGKILL, as the OOM killer would) at its first move of the game dealt from
    ``game_seed``; elsewhere plays the lowest legal action."""

    def __init__(self, game_seed=0):
        self.game_seed = game_seed
        self.die = False

    def reset(self, seat, seed):
        from azul_engine import bots
        self.die = seed == bots.bot_seed(self.game_seed, seat)

    def choose(self, state):
        if self.die:
            import os
            import signal
            os.kill(os.getpid(), signal.SIGKILL)
        return state.legal_actions()[0]


class Loud:
    """Prints a line to its process's standard output at every move (a chatty bot of a user's own)."""

    def choose(self, state):
        print("LOUD: thinking", flush=True)
        return state.legal_actions()[0]
