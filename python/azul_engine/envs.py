"""Gymnasium environments (``pip install 'azul-engine[gymnasium]'``): importing this module registers them.

>>> import gymnasium as gym
>>> import azul_engine.envs  # registers azul_engine/Azul-v0 and azul_engine/AzulSelfPlay-v0
>>> env = gym.make("azul_engine/Azul-v0", players=2, variant="classic", opponents="random")
>>> obs, info = env.reset(seed=1)
>>> obs.shape, obs.dtype, env.action_space
((384,), dtype('float32'), Discrete(314))
>>> action = env.action_space.sample(info["action_mask"])   # a legal move
>>> obs, reward, terminated, truncated, info = env.step(action)
>>> vec = gym.make_vec("azul_engine/AzulSelfPlay-v0", num_envs=1024, vectorization_mode="vector_entry_point")
>>> obs, infos = vec.reset(seed=1)
>>> obs.shape, infos["action_mask"].shape
((1024, 384), (1024, 314))

Two environments, both on the public API of either engine (``backend="cpp"`` or ``"python"``; the active one by
default), both with the observation tensor of docs/observation.md as a flat float32 ``Box`` and the engine's
action ids as ``Discrete`` actions (314 in classic and grey, 1798 in Summer Pavilion):

- :class:`AzulEnv` (``azul_engine/Azul-v0``): one learner against bots. The learner plays one seat (``seat``, or
  drawn per episode with ``seat=None``); the other seats are played by bots given by spec (``opponents``: one spec
  for every other seat, or a list, one a seat in seat order; any spec ``tournament`` takes, ``cmd:`` engines
  included). ``opponents=None`` is self-play: the learner plays every seat, and each step's observation is the
  player to move's.
- :class:`AzulVectorEnv` (``azul_engine/AzulSelfPlay-v0``, a ``gymnasium.vector.VectorEnv``): ``num_envs``
  self-play games stepped together by the engine's ``VectorGame`` (docs/rl.md).

The conventions (docs/rl.md has them whole):

- **Masks.** ``info["action_mask"]`` is the legal-move mask as int8 (what ``action_space.sample(mask)`` takes);
  ``AzulEnv.action_masks()`` the same as bools (what sb3-contrib's ``MaskablePPO`` reads).
- **Rewards.** ``reward="win"`` (the default): 0 until the end, then +1 for a sole winner, 0 for each of several
  winners, -1 for every other player (the OpenSpiel and PettingZoo adapters' returns). ``reward="score"``: after
  each step, the change in the mover's lead (its score minus the best other score) over the step, the
  opponents' moves included, so that a learner's rewards add up to its final lead.
- **Illegal moves.** ``illegal="raise"`` (the default): ``step`` raises the engine's ``IllegalMoveError`` and
  nothing changes. ``illegal="lose"``: the episode ends there with reward -1 (``info["illegal_action"]``).
- **Seeding.** ``reset(seed=s)`` plays the game ``new_game(players, variant, seed=s)``, the same game in both
  engines, and seeds ``np_random``; ``reset()`` draws the next game's seed from ``np_random``.
"""

import operator
import weakref

import numpy as np

try:
    import gymnasium
    from gymnasium import spaces
    from gymnasium.vector import AutoresetMode, VectorEnv
    from gymnasium.vector.utils import batch_space
except ImportError as exc:  # pragma: no cover - the message is the point
    raise ImportError("azul_engine.envs needs gymnasium 1.1 or later (%s): pip install 'azul-engine[gymnasium]'"
                      % exc) from exc

from . import bots as _bots
from ._backends import engine_named
from .table import check_time_limit

__all__ = ["AzulEnv", "AzulVectorEnv", "OpponentError", "observation_box", "register"]

REWARDS = ("win", "score")
ILLEGAL = ("raise", "lose")
AUTORESET_MODES = {"next_step": AutoresetMode.NEXT_STEP, "same_step": AutoresetMode.SAME_STEP}


class OpponentError(RuntimeError):
    """An opponent bot of :class:`AzulEnv` failed (it raised, crashed, answered an illegal move, or could not be
    made): the episode cannot go on. The message names the seat, the bot's spec and what happened."""


def observation_box(info):
    """The ``Box`` of an observation tensor for a game of ``info`` (``game_info(variant, players)``): float32,
    0 to 1 but for the values docs/observation.md lets exceed 1: every seat's score / 100 (up to the game's
    ``max_score`` / 100) and, in classic and grey, the round / 10 (up to the round cap, ``max_rounds`` / 10).
    Every bound is finite, as SuperSuit's ``normalize_obs_v0`` needs."""
    high = np.ones(info.observation_shape, dtype=np.float32)
    for k in range(info.players):
        high[info.observation_offsets["seat%d.score" % k][0]] = info.max_score / 100
    if info.rounds is None:
        high[info.observation_offsets["round"][0]] = info.max_rounds / 10
    return spaces.Box(low=0.0, high=high, dtype=np.float32)


def _seed(seed, note=""):
    """A reset's seed: None, or an int or numpy integer 0..2**64-1 (as an int); TypeError, ValueError otherwise."""
    if seed is None:
        return None
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
        raise TypeError("seed must be an int or None, not %s%s" % (type(seed).__name__, note))
    seed = int(seed)  # a numpy integer too (Gymnasium's seeding takes only int)
    if not 0 <= seed < 2**64:
        raise ValueError("seed must be in 0..2**64-1, got %d" % seed)
    return seed


def _close_all(tables):
    """Stop the bots of the tables in ``tables`` (``cmd:`` engines end their processes) and empty it: what
    ``AzulEnv.close()`` and a new episode do, and what the environment's finalizer does when it is dropped
    without ``close()``."""
    stopping = list(tables)
    tables.clear()
    for table in stopping:
        table.close()


def _choice(name, value, allowed):
    if value not in allowed:
        raise ValueError("%s must be one of %s, not %r" % (name, ", ".join(repr(a) for a in allowed), value))
    return value


class AzulEnv(gymnasium.Env):
    """Azul for one learner (see the module's text): ``players`` 2-4, ``variant`` "classic", "grey" or
    "summer-pavilion", ``opponents`` a bot spec for every other seat, a list of one a seat (seat order, the
    learner's left out) or None (self-play), ``seat`` the learner's seat or None (drawn at each reset),
    ``reward`` "win" or "score", ``illegal`` "raise" or "lose", ``backend`` "cpp", "python" or None (the active
    engine), ``render_mode`` None or "ansi" (``render()`` returns the board text), ``time_limit`` seconds an
    opponent may take for a move (as in a tournament: a ``cmd:`` engine is stopped there, a Python bot over it
    forfeits once its move is back). The game is played on a ``table.Table`` (``table``), the learner's seats its
    persons; an opponent's forfeit is an ``OpponentError`` in the table's words. Bad arguments are a
    ``ValueError`` or ``TypeError`` naming them; a bad bot spec is a ``BotSpecError`` (a ``ValueError``)."""

    metadata = {"render_modes": ["ansi"], "render_fps": 4}

    def __init__(self, players=2, variant="classic", opponents="greedy", seat=0, reward="win", illegal="raise",
                 backend=None, render_mode=None, time_limit=None):
        engine = engine_named(backend)
        self.backend = engine.NAME
        info = engine.game_info(variant=variant, players=players)  # checks players and variant
        self.players, self.variant = players, variant
        self.reward_mode = _choice("reward", reward, REWARDS)
        self.illegal = _choice("illegal", illegal, ILLEGAL)
        if render_mode is not None:
            _choice("render_mode", render_mode, self.metadata["render_modes"])
        self.render_mode = render_mode
        if seat is not None:
            if isinstance(seat, bool) or not isinstance(seat, int):
                raise TypeError("seat must be an int or None, not %s" % type(seat).__name__)
            if not 0 <= seat < players:
                raise ValueError("seat must be 0-%d for %d players, or None (drawn at each reset), not %d"
                                 % (players - 1, players, seat))
        self.seat = seat
        if opponents is None:
            self._factories = None
        else:
            specs = [opponents] * (players - 1) if isinstance(opponents, str) else list(opponents)
            if len(specs) != players - 1:
                raise ValueError("opponents: %d players need %d opponent specs (one for each other seat), not %d"
                                 % (players, players - 1, len(specs)))
            self._factories = [s if isinstance(s, _bots.BotFactory) else _bots.resolve_bot_spec(s)
                               for s in specs]
        self.time_limit = check_time_limit(time_limit)
        self.observation_space = observation_box(info)
        self.action_space = spaces.Discrete(info.num_actions)
        self.table = None  # the episode's table.Table (the learner's seats are its persons), from reset() on
        self.game = None  # the engine's state (the table's), from reset() on
        self.learner = None  # the learner's seat in this episode (None in self-play)
        self._tables = []  # this episode's table (emptied, never replaced: the finalizer holds it)
        self._ended = True
        # An environment dropped without close() (or left to the interpreter's exit) stops its opponents all the
        # same: a cmd: engine's keeper and bot would otherwise run until this process ends.
        self._finalizer = weakref.finalize(self, _close_all, self._tables)

    # -- the episode -------------------------------------------------------------------------------------------
    def reset(self, *, seed=None, options=None):
        """A new game: ``new_game(players, variant, seed=seed)``, or with no seed one drawn from ``np_random``; the
        opponents who move before the learner have moved. Returns ``(observation, info)``."""
        seed = _seed(seed)  # a numpy integer too, as the vector environment takes it
        super().reset(seed=seed)
        game_seed = seed if seed is not None else int(self.np_random.integers(0, 2**64, dtype=np.uint64))
        self._close_bots()
        if self._factories is None:
            self.learner = None
            seats = [_bots.HUMAN] * self.players
        else:
            self.learner = self.seat if self.seat is not None else int(self.np_random.integers(self.players))
            opponents = iter(self._factories)
            seats = [_bots.HUMAN if p == self.learner else next(opponents) for p in range(self.players)]
        self.table = _bots.Table(engine_named(self.backend), self.players, self.variant, seats, game_seed,
                                 self.time_limit, undo=False)
        self._tables.append(self.table)
        self.game = self.table.state
        if self.table.forfeit is not None:  # an opponent that could not be made
            self._ended = True
            forfeit = self.table.forfeit
            self._close_bots()
            raise OpponentError("opponent in %s" % forfeit)
        self._ended = False
        self._play_opponents()
        return self._observation(), self._info()

    def step(self, action):
        """Play ``action`` (an action id) for the learner, then the opponents' moves up to the learner's next
        turn or the end. Returns ``(observation, reward, terminated, truncated, info)``."""
        if self.game is None or self._ended:
            raise RuntimeError("step() %s: call reset() first" % ("before reset()" if self.game is None
                                                                     else "after the episode ended"))
        try:
            if isinstance(action, (bool, np.bool_)):  # True is not action 1: the engines refuse a bool too
                raise TypeError
            action = operator.index(action)
        except TypeError:
            raise TypeError("an action is an int (an action id), not %s" % type(action).__name__) from None
        mover = self.game.current_player
        if self.illegal == "lose" and not (0 <= action < self.action_space.n
                                           and self.game.legal_action_mask()[action]):
            self._ended = True
            info = self._info()
            info["illegal_action"] = True
            return self._observation(mover), -1.0, True, False, info
        before = self._margin(mover)
        self.table.person_move(action)  # the learner's; IllegalMoveError: nothing has changed
        self._play_opponents()
        over = self.game.is_over
        self._ended = over
        if self.reward_mode == "score":
            reward = self._margin(mover) - before
        elif over:
            reward = self.game.returns()[mover if self.learner is None else self.learner]
        else:
            reward = 0.0
        return self._observation(mover), float(reward), over, False, self._info()

    def action_masks(self):
        """The legal moves of the learner's position as bools (all False once the episode has ended): what
        sb3-contrib's ``MaskablePPO`` reads."""
        if self.game is None:
            raise RuntimeError("action_masks() before reset()")
        if self._ended:
            return np.zeros(self.action_space.n, dtype=bool)
        return np.asarray(self.game.legal_action_mask(), dtype=bool)

    def render(self):
        if self.render_mode is None:
            gymnasium.logger.warn("render() was called without a render_mode: pass render_mode='ansi'")
            return None
        return None if self.game is None else str(self.game)

    def close(self):
        self._close_bots()
        super().close()

    # -- helpers -----------------------------------------------------------------------------------------------
    def _play_opponents(self):
        """The opponents' moves on the table up to the learner's turn or the end; OpponentError for a forfeit."""
        self.table.play_bots()
        if self.table.forfeit is not None:
            self._ended = True
            raise OpponentError("opponent in %s" % self.table.forfeit)

    def _margin(self, seat):
        """``seat``'s score minus the best other score."""
        scores = self.game.scores
        return scores[seat] - max(s for p, s in enumerate(scores) if p != seat)

    def _observation(self, mover=None):
        """The learner's view; in self-play the player to move's (once over: the last mover's)."""
        if self.learner is not None:
            seat = self.learner
        elif not self.game.is_over:
            seat = self.game.current_player
        else:
            seat = mover if mover is not None else 0
        return np.asarray(self.game.observation_tensor(seat), dtype=np.float32)

    def _info(self):
        mask = (np.zeros(self.action_space.n, dtype=np.int8) if self._ended
                else np.asarray(self.game.legal_action_mask(), dtype=np.int8))
        info = {"action_mask": mask, "player": self.game.current_player}
        if self.game.is_over:
            info["scores"] = list(self.game.scores)
            info["winners"] = list(self.game.winners)
        return info

    def _close_bots(self):
        _close_all(self._tables)


class AzulVectorEnv(VectorEnv):
    """``num_envs`` self-play games stepped together by the engine's ``VectorGame`` (docs/rl.md, "The vector
    environment"): every seat is the learner's; each observation is its game's player to move's; ``reward[i]``
    is, when game i ends in the step, the return of the seat that made its last move (+1 a sole winner, 0 a
    shared win, -1 otherwise), else 0, and ``infos["rewards"]`` (num_envs x players) gives every seat's return
    there; ``infos["action_mask"]`` (bool, num_envs x actions; all False for a game that is over),
    ``infos["player"]`` (the seat to move, -1 for a game that is over), ``infos["mover"]`` (the seat that moved,
    -1 where the action was ignored).

    ``autoreset_mode``: "next_step" (Gymnasium's default): a game that ends is reported with its final
    observation (seat 0's view), and the next step starts the next game there, ignoring that game's action;
    "same_step": the next game starts in the same step, its first observation is returned, and the final one is
    in ``infos["final_obs"]`` (with ``infos["_final_obs"]`` the mask of the games that ended, as Gymnasium's own
    vector environments give it). ``threads`` (0: every core): the C++ engine steps the games and writes the
    observations on that many threads, without the GIL. ``copy`` (the default, as Gymnasium's own vector
    environments): the observations, masks and players returned are new arrays; ``copy=False`` returns the
    environment's own buffers and read-only views of the engine's arrays, rewritten by the next step.
    """

    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": []}

    def __init__(self, num_envs=1, players=2, variant="classic", backend=None, threads=1,
                 autoreset_mode="next_step", copy=True):
        self._engine = engine = engine_named(backend)
        self.backend = engine.NAME
        info = engine.game_info(variant=variant, players=players)
        mode = autoreset_mode.value if isinstance(autoreset_mode, AutoresetMode) else autoreset_mode
        mode = {v.value: k for k, v in AUTORESET_MODES.items()}.get(mode, mode)
        self.autoreset_mode = AUTORESET_MODES[_choice("autoreset_mode", mode, tuple(AUTORESET_MODES))]
        self.metadata = dict(self.metadata, autoreset_mode=self.autoreset_mode)
        if isinstance(threads, bool) or not isinstance(threads, int) or not 0 <= threads <= 1024:
            raise ValueError("threads must be a whole number from 0 (every core) to 1024, not %r" % (threads,))
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or not 1 <= num_envs <= 2**18:
            raise ValueError("num_envs must be a whole number from 1 to 2**18, not %r" % (num_envs,))
        self.threads, self.copy = threads, bool(copy)
        self.num_envs, self.players, self.variant = num_envs, players, variant
        # next_step: the engine's own next-step autoreset; same_step: games stay over (auto_reset False) until
        # the step has read their final observations, then they are reset.
        self._auto_reset = "next_step" if self.autoreset_mode == AutoresetMode.NEXT_STEP else False
        self._vec = engine.VectorGame(num_envs, players, variant, 0, self._auto_reset)
        self.single_observation_space = observation_box(info)
        self.single_action_space = spaces.Discrete(info.num_actions)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self.render_mode = None
        self._obs = np.zeros((num_envs,) + info.observation_shape, dtype=np.float32)
        self._reward = np.zeros(num_envs, dtype=np.float32)
        self._mover = np.zeros(num_envs, dtype=np.int8)
        self._seeded = False

    @property
    def game(self):
        """The engine's ``VectorGame`` under this environment (read it between steps; do not step it)."""
        return self._vec

    def _views(self):
        """The engine's arrays, as read-only views made once per vector (they follow its games)."""
        v = self._vec
        self._done, self._player, self._mask, self._returns = v.done, v.current_player, v.legal_mask, v.final_returns

    def reset(self, *, seed=None, options=None):
        """New games in every slot: with ``seed`` (an int, 0..2**64-1), the vector's games are
        ``new_game(players, variant, seed=output j+1 of SplitMix64(seed))`` for its j-th game (as
        ``VectorGame(num_envs, players, variant, seed)`` starts them), the same in both engines; without, the
        vector goes on with its seed's next games (a first reset without a seed draws one from ``np_random``)."""
        seed = _seed(seed, " (one seed gives every game's)")
        if options:
            raise ValueError("options: this environment takes none, not %r" % (options,))
        if seed is not None or not self._seeded:
            self._np_random, self._np_random_seed = gymnasium.utils.seeding.np_random(seed)
            if seed is None:
                seed = int(self._np_random.integers(0, 2**64, dtype=np.uint64))
            self._vec = self._engine.VectorGame(self.num_envs, self.players, self.variant, int(seed),
                                                self._auto_reset)
            self._seeded = True
            self._views()
        else:
            self._vec.reset()
        obs = self._buffer(self._obs)
        self._vec.observation_tensors(obs, threads=self.threads)
        self._mover[:] = -1
        return obs, self._infos(np.zeros((self.num_envs, self.players), np.float32))

    def step(self, actions):
        vec, threads = self._vec, self.threads
        if not self._seeded:
            raise RuntimeError("step() before reset()")
        np.copyto(self._mover, self._player)  # -1 where the game is over: its action is ignored
        # One pass of the engine: each game moves (or, over since the last step, starts the next game), then
        # its observation and reward are written while it is in the cache; with copy, straight into the new
        # arrays returned.
        obs, reward = self._buffer(self._obs), self._buffer(self._reward)
        # With copy, the masks to return are copied on the step's threads too, row by row as each game moves.
        masks = np.empty(self._mask.shape, dtype=bool) if self.copy else None
        vec.step(actions, threads=threads, observations=obs, rewards=reward, masks=masks)
        ended = self._done.copy()
        rewards = np.zeros((self.num_envs, self.players), dtype=np.float32)
        rows = np.flatnonzero(ended)
        if len(rows):
            rewards[rows] = self._returns[rows]
        infos = {}
        if self.autoreset_mode == AutoresetMode.SAME_STEP and len(rows):
            final = np.zeros_like(obs)
            final[ended] = obs[ended]
            infos["final_obs"], infos["_final_obs"] = final, ended
            vec.reset(ended)
            vec.observation_tensors(obs, games=ended, threads=threads)
            if masks is not None:
                masks[rows] = self._mask[rows]
        infos.update(self._infos(rewards, masks))
        return obs, reward, ended, np.zeros(self.num_envs, dtype=bool), infos

    def _buffer(self, own):
        """Where a step writes: with copy, a new array for the caller to keep; else the environment's own."""
        return np.empty_like(own) if self.copy else own

    def _out(self, array):
        return array.copy() if self.copy else array

    def _infos(self, rewards, masks=None):
        """``masks``: the step's copy of the masks, if it made one."""
        mover = self._mover.copy() if self.copy else self._mover
        return {"action_mask": self._out(self._mask) if masks is None else masks, "player": self._out(self._player),
                "mover": mover, "rewards": rewards}

    def action_masks(self):
        """The current masks as bools, num_envs x actions (all False for a game that is over)."""
        return np.array(self._vec.legal_mask)

    def close_extras(self, **kwargs):
        pass


def register():
    """Register ``azul_engine/Azul-v0`` and ``azul_engine/AzulSelfPlay-v0`` with Gymnasium (done on import)."""
    if "azul_engine/Azul-v0" not in gymnasium.registry:
        gymnasium.register(id="azul_engine/Azul-v0", entry_point="azul_engine.envs:AzulEnv")
    if "azul_engine/AzulSelfPlay-v0" not in gymnasium.registry:
        gymnasium.register(id="azul_engine/AzulSelfPlay-v0", entry_point="azul_engine.envs:_self_play_env",
                           vector_entry_point="azul_engine.envs:AzulVectorEnv")


def _self_play_env(**kwargs):
    """``gymnasium.make("azul_engine/AzulSelfPlay-v0")``: one self-play game (``AzulEnv(opponents=None)``)."""
    kwargs.setdefault("opponents", None)
    return AzulEnv(**kwargs)


register()
