"""Azul as an OpenSpiel game: ``register()`` makes ``pyspiel.load_game("azul")`` work.

>>> import pyspiel
>>> from azul_engine import openspiel
>>> openspiel.register()
>>> game = pyspiel.load_game("azul", {"players": 3, "variant": "grey"})
>>> state = game.new_initial_state()
>>> state.is_chance_node(), state.chance_outcomes()[0]        # the first player is drawn
(True, (310, 0.3333333333333333))

Game parameters (``pyspiel.load_game("azul(players=3,variant=grey)")`` also works):

- ``players``: 2-4 (default 2);
- ``variant``: ``"classic"`` (coloured wall), ``"grey"`` (free placement) or ``"summer-pavilion"`` (its action
  ids, 1798 of them with chance outcomes 1788-1797, and observation are the ``PavilionState``'s), default
  ``"classic"``;
- ``backend``: ``"auto"`` (the engine ``import azul_engine`` chose, see ``azul_engine.BACKEND``), ``"python"``
  or ``"cpp"``; ``register(backend=...)`` changes the default;
- ``max_game_length``: player moves after which a game still running ends as a draw (default 2000). Classic and
  grey Azul have no bound of their own: players who keep sending every tile to the floor can play for ever, and
  OpenSpiel needs one. Random play never came near it: the longest of a million random games was 800 moves (2
  players, grey wall) and 860 (4 players, grey wall). Summer Pavilion ends after 6 rounds, well within it.

Bounds. ``game.max_game_length()`` (player moves), ``game.max_chance_nodes_in_history()`` and so
``max_move_number()`` are true maxima over every history, chance outcomes included, derived from the rules in
``game_bounds`` (see there): for 2 / 3 / 4 players, classic and grey with the default cut-off 2000 moves and
8017 / 8025 / 8033 chance nodes; Summer Pavilion 270 / 391 / 512 moves and 203 / 287 / 371 chance nodes.

Chance. Every random event is an explicit chance node (``chance="explicit"`` in the engine): the first player
(uniform) and each tile drawn from the bag to fill a factory (in proportion to the bag). So the state is the
whole truth and the game is one of perfect information; ``state.chance_outcomes()`` gives the engine's
``(action, probability)`` pairs.

Actions. Ids are the engine's, unchanged, for players and chance alike (``num_distinct_actions`` and
``max_chance_outcomes`` are both 314): 0-299 drafts, 300-304 grey-wall columns (player moves), 305-309 a tile
of colour B Y R K W drawn, 310-313 seat 0-3 starts (chance outcomes). ``state.history()`` therefore replays
directly into ``azul_engine`` with ``apply``, and ``state.engine_state`` is the engine's ``GameState``.

Returns, at the end only (terminal reward model). The winners are the engine's ``state.winners``: highest score,
a tie goes to more complete wall rows, still tied the win is shared.

- 2 players (zero-sum): the winner +1, the loser -1; a shared win 0 and 0.
- 3-4 players (general-sum, from -1 to +1): a sole winner +1; each of several shared winners 0; everyone else -1.
- A game cut off at ``max_game_length``: 0 for everyone.

Observations. The observation tensor is the engine's ``observation_tensor(player)`` (float32, shape
``observation_shape(players, variant)`` = ``(154 * players + 76,)``, the observer's own seat first) and the
observation string is the engine's board text (``str(state)``). The information state string is the history,
as in OpenSpiel's other perfect-information games; the information state tensor is the observation tensor (the
game has perfect information: the position is all a player can know that matters, so
``information_state_tensor(p) == observation_tensor(p)``).

Serialization (``pyspiel.serialize_game_and_state``, pickling) names the game by its string (``str(game)``), so
the game must be registered in the process that reads it back: call ``register()`` there too. Illegal actions
raise the engine's ``IllegalMoveError`` and leave the state unchanged.
"""

import numpy as np

try:
    import pyspiel
except ImportError as exc:
    raise ImportError(
        f"azul_engine.openspiel needs OpenSpiel (pyspiel): {exc}. "
        "Install it with: pip install 'azul-engine[openspiel]'"
    ) from exc

from open_spiel.python.observation import IIGObserverForPublicInfoGame

from ._backends import engine_named, engine_of, game_info
from ._errors import IllegalMoveError

__all__ = ["register", "game_bounds", "AzulGame", "AzulState", "AzulObserver", "AzulInformationStateObserver",
           "GAME_NAME",
           "DEFAULT_MAX_GAME_LENGTH"]

GAME_NAME = "azul"
DEFAULT_MAX_GAME_LENGTH = 2000
# The engines' round cap for classic and grey (docs/decisions.md; game_info(...).max_rounds).
MAX_ROUNDS = game_info("classic").max_rounds
_BACKENDS = ("auto", "python", "cpp")
_default_backend = "auto"


def _game_type(utility, backend):
    return pyspiel.GameType(
        short_name=GAME_NAME,
        long_name="Azul",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=utility,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=4,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={
            "players": 2,
            "variant": "classic",
            "backend": backend,
            "max_game_length": DEFAULT_MAX_GAME_LENGTH,
        },
    )


def _cheapest_placements(players, tiles):
    """How many Summer Pavilion placements ``tiles`` tiles can pay for at most: the cheapest spaces first (each
    player's board has 7 spaces of each cost 1-6)."""
    count = 0
    for cost in range(1, 7):
        take = min(7 * players, tiles // cost)
        count += take
        tiles -= take * cost
        if take < 7 * players:
            break
    return count


def game_bounds(players, variant, max_game_length=DEFAULT_MAX_GAME_LENGTH):
    """``(player moves, chance nodes)``: the most that any history of the OpenSpiel game can hold, whatever the
    players choose and whatever chance draws (OpenSpiel's ``max_game_length`` and
    ``max_chance_nodes_in_history``).

    Classic and grey, F = 2 * players + 1 factories, M = ``max_game_length``, R = ``MAX_ROUNDS`` (the engines end
    a game at the end of round R): a round deals at most 4F tiles, every draft takes at least one, and on the grey
    wall each player makes at most 5 column choices a round, so player moves are at most R (4F + 5P) on the grey
    wall and R 4F on the classic one, and at most M (the cut-off). Chance nodes are the first player (1) and one
    per tile drawn into a factory, at most 4F a round: at most 1 + 4FR. Every factory that receives tiles needs a
    move of its own to empty it (a draft takes from one source), so a finished round has at most 4 draws per
    player move of that round, and the round under way at the cut-off has had at most 4F draws and at least one
    move: at most 1 + 4 (M - 1) + 4F too. The chance bound is reached exactly by dealing every factory four tiles
    of one colour and sending each whole factory to the floor (nothing ever reaches a wall, nothing goes to the
    centre): every round is F moves and 4F draws, and the game ends at round R with 1 + 4FR chance nodes (2001 for
    2 players), which tests/test_openspiel_bounds.py plays; with the cut-off M small, the 1 + 4 (M - 1) + 4F
    bound is reached exactly the same way.

    Summer Pavilion, P = ``players``: 6 rounds. Chance nodes: the first player (1), the 10 setup supply tiles,
    at most 4F factory tiles a round (24F), and one supply refill tile per bonus tile taken (the supply only
    loses tiles to bonus picks); each player completes each of the 18 ornaments at most once, for at most
    6 * 3 + 6 * 2 + 6 * 1 = 36 bonus tiles: at most 11 + 24F + 36P. Player moves: phase 1 takes at least one
    tile a move, from the at most 4F tiles that come out of the factories (24F over the game); each player
    passes once a round (6P); each bonus tile is a move (36P); each placement covers one of the 42 spaces of a
    board and pays its cost (1-6 tiles) from the at most 24F + 36P tiles acquired, so no more placements than
    the cheapest spaces those tiles pay for (``_cheapest_placements``). The sum is not reached: 36 bonus tiles a
    player need all 42 spaces covered, which the tile count does not allow at the same time. The longest games
    found (factories dealt four different colours and no wild tile, every pick taking one tile, the cheapest
    placement first, passing only when forced; tests/test_openspiel_bounds.py) reach about 60-70% of the move
    bound and 65-70% of the chance bound. The move bound is capped by ``max_game_length`` when that is smaller.
    """
    info = game_info(variant, players)
    factories = info.factories
    if info.rounds is None:
        moves = MAX_ROUNDS * (4 * factories + (5 * players if variant == "grey" else 0))
        chance = 1 + 4 * factories * MAX_ROUNDS
        return (min(moves, max_game_length),
                min(chance, 1 + 4 * (min(moves, max_game_length) - 1) + 4 * factories))
    rounds = info.rounds  # 6
    tiles = rounds * 4 * factories + 36 * players
    moves = rounds * 4 * factories + rounds * players + 36 * players + _cheapest_placements(players, tiles)
    return min(moves, max_game_length), 1 + 10 + rounds * 4 * factories + 36 * players


def register(backend=None):
    """Register (or register again) the game ``"azul"`` with OpenSpiel.

    ``backend`` (``"python"`` or ``"cpp"``; None or ``"auto"``: the engine ``import azul_engine`` chose) becomes
    the default of the game parameter ``backend``. Raises ``ValueError`` for another name and ``ImportError``
    if that engine cannot be imported.
    """
    global _default_backend
    backend = backend or "auto"
    _engine_module(backend)  # fail here, not at the first load_game
    _default_backend = backend
    # The registered type covers every player count; each game's own type says zero-sum for 2 players.
    pyspiel.register_game(_game_type(pyspiel.GameType.Utility.GENERAL_SUM, backend), AzulGame)


def _engine_module(backend):
    if backend not in _BACKENDS:
        raise ValueError(f"unknown azul-engine backend {backend!r}; expected one of: {', '.join(_BACKENDS)}")
    return engine_named(backend)


class AzulGame(pyspiel.Game):
    """An Azul game for OpenSpiel; make it with ``pyspiel.load_game("azul", {...})`` after :func:`register`.

    ``engine`` is the engine module that plays it (``azul_engine._cppengine`` or ``azul_engine._pyengine``).
    """

    def __init__(self, params=None):
        params = dict(params or {})
        players = params.setdefault("players", 2)
        variant = params.setdefault("variant", "classic")
        backend = params.setdefault("backend", _default_backend)
        max_game_length = params.setdefault("max_game_length", DEFAULT_MAX_GAME_LENGTH)
        if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= 4:
            raise ValueError(f"azul: players must be 2, 3 or 4, got {players!r}")
        self.engine = _engine_module(backend)
        if variant not in self.engine.VARIANTS:
            raise ValueError(f"azul: unknown variant {variant!r} (variants: {', '.join(self.engine.VARIANTS)})")
        if isinstance(max_game_length, bool) or not isinstance(max_game_length, int) or max_game_length < 1:
            raise ValueError(f"azul: max_game_length must be a positive int, got {max_game_length!r}")
        self.variant = variant
        num_actions = self.engine.game_info(variant, players).num_actions
        self.cutoff = max_game_length  # player moves after which a game still running ends as a draw
        moves, self._max_chance_nodes = game_bounds(players, variant, max_game_length)
        zero_sum = players == 2
        utility = pyspiel.GameType.Utility.ZERO_SUM if zero_sum else pyspiel.GameType.Utility.GENERAL_SUM
        info = pyspiel.GameInfo(
            num_distinct_actions=num_actions,
            # Chance outcomes keep the engine's ids (305-313), and OpenSpiel sizes a chance node's action mask
            # by max_chance_outcomes, so it spans the whole id space too.
            max_chance_outcomes=num_actions,
            num_players=players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0 if zero_sum else None,
            max_game_length=moves,
        )
        super().__init__(_game_type(utility, backend), info, params)

    def max_chance_nodes_in_history(self):
        """The most chance nodes any history holds (``game_bounds``); OpenSpiel adds it to
        ``max_game_length()`` for ``max_move_number()`` and ``max_history_length()``."""
        return self._max_chance_nodes

    def new_initial_state(self):
        """A new game at its first chance node (who starts)."""
        return AzulState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        """The board observer for observations; for perfect-recall (information state) ones, the same tensor
        with the history as the string."""
        if iig_obs_type is None or (iig_obs_type.public_info and not iig_obs_type.perfect_recall):
            return AzulObserver(self, params)
        if iig_obs_type.perfect_recall and iig_obs_type.public_info:
            return AzulInformationStateObserver(self, params, iig_obs_type)
        return IIGObserverForPublicInfoGame(iig_obs_type, params)


class AzulState(pyspiel.State):
    """An OpenSpiel state around an engine ``GameState`` (``engine_state``) in explicit-chance mode."""

    def __init__(self, game):
        super().__init__(game)
        # The seed is never used: with explicit chance, OpenSpiel chooses every random outcome.
        self.engine_state = game.engine.new_game(game.num_players(), game.variant, seed=0, chance="explicit")
        self._player_moves = 0
        self._max_game_length = game.cutoff

    def _cut_off(self):
        return self._player_moves >= self._max_game_length

    def current_player(self):
        """The seat to move; ``PlayerId.CHANCE`` at a draw, ``PlayerId.TERMINAL`` once over."""
        if self.is_terminal():
            return pyspiel.PlayerId.TERMINAL
        if self.engine_state.is_chance_node:
            return pyspiel.PlayerId.CHANCE
        return self.engine_state.current_player

    def _legal_actions(self, player):
        if player != self.current_player():
            return []
        return self.engine_state.legal_actions()

    def chance_outcomes(self):
        """The engine's ``(action, probability)`` pairs, in action order."""
        return self.engine_state.chance_outcomes()

    def _apply_action(self, action):
        # The engine checks the action: an illegal one raises IllegalMoveError and changes nothing.
        if self._cut_off():  # terminal for OpenSpiel, though the engine's game goes on
            raise IllegalMoveError("the game is over: cut off at max_game_length = %d player moves"
                                               % self._max_game_length)
        chance = self.engine_state.is_chance_node
        self.engine_state.apply(action)
        if not chance:
            self._player_moves += 1

    def undo_action(self, player, action):
        """Take back ``action``, the last action applied, with the engine's ``undo()`` (the engine state, its
        generator and history return exactly to what they were). OpenSpiel keeps ``history()`` and ``move_number()``
        of a game written in Python in its C++ base, which Python cannot shorten: those still list the action taken
        back, so serialize a clone rather than an undone state."""
        self.engine_state.undo()
        if not self.engine_state.is_chance_node:
            self._player_moves -= 1

    def _action_to_string(self, player, action):
        try:
            return self.engine_state.action_to_string(action)
        except IllegalMoveError:
            # A grey-wall column away from its tiling decision: the row is not known here.
            return "W?%d" % (action - engine_of(self.engine_state).TILE_ACTION_BASE + 1)

    def is_terminal(self):
        """True once the game is over, or cut off at ``max_game_length`` player moves."""
        return self.engine_state.is_over or self._cut_off()

    def returns(self):
        """Per seat: 0 until the end; then +1 a sole winner, 0 a shared winner, -1 everyone else (the engine's
        ``returns()``); a game cut off at ``max_game_length`` is a draw, 0 for every seat."""
        return self.engine_state.returns()

    def __str__(self):
        return str(self.engine_state)


class AzulObserver:
    """OpenSpiel's PyObserver for Azul: the engine's observation tensor and board text (the full state)."""

    def __init__(self, game, params):
        if params:
            raise ValueError(f"azul: observation parameters not supported; passed {params}")
        shape = game.engine.game_info(game.variant, game.num_players()).observation_shape
        self.tensor = np.zeros(shape, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state, player):
        """Fill ``tensor`` with ``state`` seen by ``player``."""
        self.tensor[:] = state.engine_state.observation_tensor(player)

    def string_from(self, state, player):
        """The board text; the same for every player, since nothing is hidden."""
        return str(state.engine_state)


class AzulInformationStateObserver(AzulObserver):
    """The information state: the observation tensor (perfect information) and the history as the string."""

    def __init__(self, game, params, iig_obs_type):
        super().__init__(game, params)
        self._history = IIGObserverForPublicInfoGame(iig_obs_type, params)

    def string_from(self, state, player):
        return self._history.string_from(state, player)
