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
- ``max_game_length``: player moves after which a game still running ends as a draw (default 2000). Azul has no
  bound of its own: players who keep sending every tile to the floor can play for ever, and OpenSpiel needs one.
  Random play never came near it: the longest of a million random games was 800 moves (2 players, grey wall)
  and 860 (4 players, grey wall).

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
as in OpenSpiel's other perfect-information games.

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

import azul_engine

__all__ = ["register", "AzulGame", "AzulState", "AzulObserver", "GAME_NAME", "DEFAULT_MAX_GAME_LENGTH"]

GAME_NAME = "azul"
DEFAULT_MAX_GAME_LENGTH = 2000
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
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={
            "players": 2,
            "variant": "classic",
            "backend": backend,
            "max_game_length": DEFAULT_MAX_GAME_LENGTH,
        },
    )


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
    return azul_engine.load_backend(azul_engine.BACKEND if backend == "auto" else backend)


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
        num_actions = self.engine.SP_NUM_ACTIONS if variant == "summer-pavilion" else self.engine.NUM_ACTIONS
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
            max_game_length=max_game_length,
        )
        super().__init__(_game_type(utility, backend), info, params)

    def new_initial_state(self):
        """A new game at its first chance node (who starts)."""
        return AzulState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        """The board observer for observations; the history for perfect-recall (information state) ones."""
        if iig_obs_type is None or (iig_obs_type.public_info and not iig_obs_type.perfect_recall):
            return AzulObserver(self, params)
        return IIGObserverForPublicInfoGame(iig_obs_type, params)


class AzulState(pyspiel.State):
    """An OpenSpiel state around an engine ``GameState`` (``engine_state``) in explicit-chance mode."""

    def __init__(self, game):
        super().__init__(game)
        # The seed is never used: with explicit chance, OpenSpiel chooses every random outcome.
        self.engine_state = game.engine.new_game(game.num_players(), game.variant, seed=0, chance="explicit")
        self._player_moves = 0
        self._max_game_length = game.max_game_length()

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
        chance = self.engine_state.is_chance_node
        self.engine_state.apply(action)
        if not chance:
            self._player_moves += 1

    def _action_to_string(self, player, action):
        try:
            return self.engine_state.action_to_string(action)
        except azul_engine.IllegalMoveError:
            # A grey-wall column away from its tiling decision: the row is not known here.
            return "W?%d" % (action - azul_engine.TILE_ACTION_BASE + 1)

    def is_terminal(self):
        """True once the game is over, or cut off at ``max_game_length`` player moves."""
        return self.engine_state.is_over or self._cut_off()

    def returns(self):
        """Per seat: 0 until the end; then +1 a sole winner, 0 a shared winner, -1 everyone else."""
        g = self.engine_state
        if g.is_over:
            winners = g.winners
        elif self._cut_off():
            winners = range(g.players)
        else:
            return [0.0] * g.players
        win = 1.0 if len(winners) == 1 else 0.0
        return [win if p in winners else -1.0 for p in range(g.players)]

    def __str__(self):
        return str(self.engine_state)


class AzulObserver:
    """OpenSpiel's PyObserver for Azul: the engine's observation tensor and board text (the full state)."""

    def __init__(self, game, params):
        if params:
            raise ValueError(f"azul: observation parameters not supported; passed {params}")
        shape = game.engine.observation_shape(game.num_players(), game.variant)
        self.tensor = np.zeros(shape, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state, player):
        """Fill ``tensor`` with ``state`` seen by ``player``."""
        self.tensor[:] = state.engine_state.observation_tensor(player)

    def string_from(self, state, player):
        """The board text; the same for every player, since nothing is hidden."""
        return str(state.engine_state)
