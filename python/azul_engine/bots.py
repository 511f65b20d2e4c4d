"""Reference bots: random, greedy and Monte Carlo tree search.

A bot is an object with ``choose(state) -> action`` (an action id from ``state.legal_actions()``).  Bots
draw from their own SplitMix64 generator, never from the game's, so that a bot's choices do not change the
game's draws and the same seeds give the same games in both engines.

A bot is named by a spec: its name, then optional ``:``-separated parameters (``parse_bot_spec``), for
example ``random``, ``greedy``, ``mcts`` or ``mcts:2000`` (2000 iterations a move).

>>> import azul_engine
>>> state = azul_engine.new_game(players=2, seed=7)
>>> RandomBot(seed=1).choose(state) in state.legal_actions()
True
>>> parse_bot_spec("mcts:2000")
('mcts', {'iterations': 2000})
>>> make_bot("mcts:50", seed=1).choose(state) in state.legal_actions()
True
"""

import math
import sys
import time

__all__ = ["SplitMix64", "RandomBot", "GreedyBot", "MCTSBot", "BOTS", "parse_bot_spec", "make_bot",
           "bot_seed", "play"]

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
    (``score_if_round_ended``; in Summer Pavilion, where points are scored as tiles are placed, the score
    after the move plus a point for each tile still in hand, so that it does not throw tiles away); ties are
    broken by the bot's own generator."""

    name = "greedy"

    def __init__(self, seed=0):
        self.rng = SplitMix64(seed)

    def choose(self, state):
        player = state.current_player
        best, choices = None, []
        for action in state.legal_actions():
            after = state.clone()
            after.apply(action)
            if after.variant == "summer-pavilion":
                value = after.scores[player] + len(after.hands[player])
            else:
                value = after.score_if_round_ended()[player]
            if best is None or value > best:
                best, choices = value, [action]
            elif value == best:
                choices.append(action)
        return choices[self.rng.below(len(choices))] if len(choices) > 1 else choices[0]


class _Node:
    """A node of the search tree: the position reached by a sequence of actions from the root.

    The tree is open-loop: each iteration plays the sequence on a differently reseeded copy of the root, so
    past a round's end the same node stands for differently dealt positions.  ``legal`` is the legal actions
    at the node's first visit and ``untried`` those of them not expanded yet; ``totals[p]`` sums player p's
    utility over the iterations that passed through the node.
    """

    __slots__ = ("legal", "untried", "children", "visits", "totals")

    def __init__(self, players):
        self.legal = self.untried = None
        self.children = {}
        self.visits = 0
        self.totals = [0.0] * players


class MCTSBot:
    """Monte Carlo tree search (UCT) with random rollouts played inside the engine.

    Each iteration copies the position and reseeds the copy's generator from the bot's own SplitMix64
    (``reseed``), so the search never sees the real future draws: the tree is open-loop, a node being the
    sequence of actions from the root (within a round every copy reaches the same position; past a round's
    end the factories differ, and a node offers whichever of its actions are legal in the copy at hand).
    The iteration walks down the tree by UCB1 (``mean + c * sqrt(ln N / n)``, the mean taken for the player
    to move), expands one untried action chosen by the bot's generator, plays ``rollouts`` (default 1)
    random continuations to the end inside the engine (``playouts_from(state, rollouts, seed, threads=1)``)
    and adds each player's utility, averaged over them, to every node on the way.

    Utility of player p from the final scores ``s``: ``(1 - margin) * win + margin * edge``, where ``win`` is
    1 for the highest score, 1/k when k players share it, else 0 (a rollout gives scores only, so equal
    scores share the win there; at a finished node of the tree it is the game's own ``winners``, complete
    rows breaking ties), and ``edge`` is ``s[p] - best other score`` mapped from -20..+20 points onto 0..1
    (clamped): with the default ``margin=0.1``, a gentle pull towards larger wins and smaller losses when
    nearly every continuation ends the same way.  Utilities lie in 0..1, which sets the scale of ``c``.

    Budget: ``iterations`` a move, or with ``seconds`` as many as fit in that time (``iterations`` is then
    ignored).  The move played is the root action visited most (ties: the higher mean, then the lower
    action id).  With an iteration budget the bot is deterministic: the same seed and position give the
    same move, in either engine.  A position with one legal action is answered without search.  Asking
    for a move at a chance node or once the game is over raises ValueError.

    ``last_visits``: after each ``choose``, the root's visit counts of the search just made, as a dict
    ``{action: visits}`` over the actions it tried (the policy target of self-play data, ``selfplay``), or None
    when the move was answered without search.
    """

    name = "mcts"
    EDGE_POINTS = 20

    def __init__(self, seed=0, iterations=1000, seconds=None, c=0.7, margin=0.1, rollouts=1):
        if isinstance(iterations, bool) or not isinstance(iterations, int) or iterations < 1:
            raise ValueError("mcts: iterations must be a positive integer, not %r" % (iterations,))
        if seconds is not None and not seconds > 0:
            raise ValueError("mcts: seconds must be positive, not %r" % (seconds,))
        if not c >= 0:
            raise ValueError("mcts: c must be 0 or more, not %r" % (c,))
        if not 0 <= margin <= 1:
            raise ValueError("mcts: margin must be between 0 and 1, not %r" % (margin,))
        if isinstance(rollouts, bool) or not isinstance(rollouts, int) or rollouts < 1:
            raise ValueError("mcts: rollouts must be a positive integer, not %r" % (rollouts,))
        self.rng = SplitMix64(seed)
        self.iterations, self.seconds, self.c, self.margin = iterations, seconds, c, margin
        self.rollouts = rollouts
        self.last_visits = None

    def choose(self, state):
        self.last_visits = None
        if state.is_over or state.is_chance_node:
            raise ValueError("mcts: no move to choose %s" % ("once the game is over" if state.is_over
                                                                else "at a chance node"))
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        root = self.search(state)
        self.last_visits = {action: child.visits for action, child in root.children.items()}
        player = state.current_player

        def rank(item):
            action, child = item
            return (child.visits, child.totals[player] / child.visits if child.visits else 0.0, -action)

        return max(root.children.items(), key=rank)[0]

    def search(self, state):
        """Run the search from ``state`` within the budget; return the root of the tree."""
        engine = sys.modules[type(state).__module__]
        root = _Node(state.players)
        if self.seconds is None:
            for _ in range(self.iterations):
                self._iterate(engine, state, root)
        else:
            deadline = time.perf_counter() + self.seconds
            while True:
                self._iterate(engine, state, root)
                if time.perf_counter() >= deadline:
                    break
        return root

    def _iterate(self, engine, root_state, root):
        rng, c = self.rng, self.c
        state = root_state.clone()
        state.reseed(rng.next())
        node, path = root, [root]
        while not state.is_over:
            if state.is_chance_node:  # explicit-chance games: draw as the engine would
                self._draw(state)
                continue
            legal = state.legal_actions()
            if node.legal is None:
                node.legal, node.untried = legal, list(legal)
            children = node.children
            if legal == node.legal:
                untried = node.untried
            else:  # a different deal past a round's end
                untried = [a for a in legal if a not in children]
            action = None
            while untried:
                i = rng.below(len(untried))
                action = untried[i]
                untried[i] = untried[-1]
                untried.pop()
                if action not in children:  # a different deal may have expanded it already
                    break
                action = None
            if action is not None:
                child = children[action] = _Node(len(node.totals))
                state.apply(action)
                path.append(child)
                break
            player = state.current_player
            log_n = math.log(node.visits)
            best = best_value = None
            for a in legal:
                n = children[a]
                value = n.totals[player] / n.visits + c * math.sqrt(log_n / n.visits)
                if best_value is None or value > best_value:
                    best, best_value = a, value
            state.apply(best)
            node = children[best]
            path.append(node)
        if state.is_over:
            utility = self._utility(state.scores, state.winners)
        else:
            k = self.rollouts
            utility = [0.0] * len(node.totals)
            for scores in engine.playouts_from(state, k, seed=rng.next(), threads=1).tolist():
                top = max(scores)
                for p, u in enumerate(self._utility(scores, [p for p, s in enumerate(scores) if s == top])):
                    utility[p] += u / k
        for n in path:
            n.visits += 1
            totals = n.totals
            for p, u in enumerate(utility):
                totals[p] += u

    def _utility(self, scores, winners):
        margin, share = self.margin, 1.0 / len(winners)
        out = []
        for p, s in enumerate(scores):
            other = max(x for q, x in enumerate(scores) if q != p)
            edge = min(1.0, max(0.0, 0.5 + (s - other) / (2.0 * self.EDGE_POINTS)))
            out.append((1.0 - margin) * (share if p in winners else 0.0) + margin * edge)
        return out

    def _draw(self, state):
        u = (self.rng.next() >> 11) * (1.0 / (1 << 53))
        outcomes = state.chance_outcomes()
        for action, probability in outcomes:
            u -= probability
            if u < 0:
                break
        state.apply(action)


BOTS = {"random": RandomBot, "greedy": GreedyBot, "mcts": MCTSBot}

# The parameters a spec may give each bot: name -> type; the first is also taken without a name.
_SPEC_PARAMETERS = {"mcts": {"iterations": int, "seconds": float, "c": float, "margin": float, "rollouts": int}}
_TYPE_WORDS = {int: "a whole number", float: "a number"}


def parse_bot_spec(text):
    """``(name, keyword arguments)`` of a bot spec: a name from ``BOTS``, then optional parameters after
    colons, each ``key=value`` or, for the bot's first parameter, the bare value: ``mcts:2000`` is MCTS with
    2000 iterations a move, ``mcts:2000:c=1.0`` also sets ``c``, ``mcts:seconds=0.5`` searches for half a
    second a move.  Raises ValueError naming what is wrong.

    >>> parse_bot_spec("greedy")
    ('greedy', {})
    >>> parse_bot_spec("mcts:500:c=1.2")
    ('mcts', {'iterations': 500, 'c': 1.2})
    >>> parse_bot_spec("mcts:abc")
    Traceback (most recent call last):
        ...
    ValueError: bot spec 'mcts:abc': iterations must be a whole number, not 'abc'
    """
    if not isinstance(text, str):
        raise ValueError("a bot spec is a string like 'greedy' or 'mcts:2000', not %r" % (text,))
    name, *parts = text.strip().split(":")
    if name not in BOTS:
        raise ValueError("unknown bot %r (bots: %s)" % (name, ", ".join(BOTS)))
    known = _SPEC_PARAMETERS.get(name, {})
    if parts and not known:
        raise ValueError("bot spec %r: bot %s takes no parameters" % (text, name))
    kwargs = {}
    for i, part in enumerate(parts):
        key, sep, value = part.partition("=")
        if not sep:
            key, value = (next(iter(known)) if i == 0 else None), part
            if key is None:
                raise ValueError("bot spec %r: %r needs a name (key=value; %s: %s)"
                                 % (text, part, name, ", ".join(known)))
        key, value = key.strip(), value.strip()
        if key not in known:
            raise ValueError("bot spec %r: %s has no parameter %r (parameters: %s)"
                             % (text, name, key, ", ".join(known)))
        if key in kwargs:
            raise ValueError("bot spec %r: %s given twice" % (text, key))
        try:
            kwargs[key] = known[key](value)
        except ValueError:
            raise ValueError("bot spec %r: %s must be %s, not %r"
                             % (text, key, _TYPE_WORDS[known[key]], value)) from None
    try:
        BOTS[name](0, **kwargs)  # the bot checks its own ranges
    except ValueError as e:
        raise ValueError("bot spec %r: %s" % (text, str(e).split(": ", 1)[-1])) from None
    return name, kwargs


def make_bot(name, seed):
    """A bot by name or spec (see ``BOTS`` and ``parse_bot_spec``); ValueError names the known ones."""
    name, kwargs = parse_bot_spec(name)
    return BOTS[name](seed, **kwargs)


def play(engine, players, variant, seed, bots):
    """Play one game made from ``seed`` to its end, seat ``i`` played by ``make_bot(bots[i], ...)`` (a bot
    name or spec for every seat, or one for all); return the final state (its ``record()`` is the game)."""
    if isinstance(bots, str):
        bots = [bots] * players
    seats = [make_bot(name, bot_seed(seed, seat)) for seat, name in enumerate(bots)]
    state = engine.new_game(players=players, variant=variant, seed=seed)
    while not state.is_over:
        state.apply(seats[state.current_player].choose(state))
    return state
