"""Azul as a PettingZoo AEC environment (``pip install 'azul-engine[pettingzoo]'``).

>>> from azul_engine.pettingzoo import env
>>> e = env(players=2, variant="classic")
>>> e.reset(seed=42)
>>> for agent in e.agent_iter():
...     observation, reward, termination, truncation, info = e.last()
...     action = None if termination else e.action_space(agent).sample(observation["action_mask"])
...     e.step(action)
>>> e.agents  # after the end, each agent was stepped once more, with None
[]

Agents are ``"player_0"`` .. ``"player_{n-1}"``, agent i sitting in seat i of the engine's game
(``raw_env.game``, a ``GameState`` of the chosen engine).

- **Turns.** ``agent_selection`` is always the engine's ``current_player``, never a plain
  rotation: the same agent moves several times in a row when it chooses wall columns for several
  complete lines on the grey wall, and the starting player of a round is whoever took the
  first-player marker.  Chance (the first player and every tile drawn) is sampled inside the
  environment, by the game's own generator.
- **Actions.** ``Discrete(game_info(variant, players).num_actions)`` (314), the engine's action ids; an agent only ever
  plays 0-299 (drafts) and 300-304 (grey-wall column choices), and the action mask says which.
- **Observations.** A dict: ``"observation"`` is ``state.observation_tensor(seat)`` (float32,
  ``game_info(variant, players).observation_shape``, the observer's own board first; the layout
  is ``observation_offsets``, described in docs/observation.md) and ``"action_mask"`` is ``state.legal_action_mask()`` as int8 for the
  agent to move, all zeros for every other agent and once the game is over (the PettingZoo
  classic convention).  ``flat_observation=True``: the observation is the tensor alone (a ``Box``),
  and each agent's mask is ``infos[agent]["action_mask"]``, which is what SuperSuit's observation
  wrappers (``flatten_v0``, ``dtype_v0``, ``normalize_obs_v0``, ``frame_stack_v1``,
  ``pad_observations_v0``, ``agent_indicator_v0``) and PettingZoo's ``TerminateIllegalWrapper`` take.
- **No parallel API.** Azul is turn-based: one agent moves at a time, sometimes several times in a
  row, so a parallel environment would have every other agent pass at every step (PettingZoo's own
  board games are AEC only, for the same reason). For many games at once use the Gymnasium vector
  environment (``azul_engine.envs``, ``azul_engine/AzulSelfPlay-v0``) or the engine's ``VectorGame``.
- **State.** ``state()`` is the whole game as one vector, ``state.observation_tensor(0)`` (seat 0's
  view: nothing is hidden, so every agent's observation holds the same information, ordered from its
  own seat), in ``state_space``, the same Box as an observation's ``"observation"`` (every bound
  finite: ``envs.observation_box``).
- **Rewards.** 0 until the end, then, from ``state.winners``: with 2 players +1 for the winner
  and -1 for the loser, 0 each for a shared win; with 3 or 4 players +1 for a sole winner, 0 for
  each of several winners sharing the win, -1 for everyone else (as the OpenSpiel adapter).  At
  the end every agent is terminated; nothing is ever truncated (every game ends: a stuck game
  ends by rule).
- **Seeding.** ``reset(seed=s)`` plays the game ``new_game(players, variant, seed=s)`` (``s`` in
  0..2**64-1) and seeds ``np_random`` with ``s``; ``reset()`` draws the game's seed from
  ``np_random`` (seeded from the OS on first use), so a seeded reset followed by plain resets
  gives a reproducible sequence of games.
- **Illegal moves.** ``raw_env.step`` raises ``IllegalMoveError`` (a ``ValueError``) and leaves
  everything unchanged.  ``env()`` wraps it as PettingZoo's classic games are: an action
  outside the action space fails an assertion, and a masked-out action ends the game with -1 for
  the agent that played it and 0 for the others (``TerminateIllegalWrapper``).
- **Rendering.** ``render_mode="ansi"``: ``render()`` returns ``str(state)``, the engine's board
  text; ``"human"``: it prints it, after ``reset()`` and after every move.
"""

import operator

import numpy as np

try:
    import gymnasium
    from gymnasium import spaces
    from gymnasium.utils import seeding
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers
except ImportError as exc:
    raise ImportError(
        "azul_engine.pettingzoo needs pettingzoo and gymnasium (%s): pip install 'azul-engine[pettingzoo]'"
        % exc
    ) from exc

from ._backends import engine_named
from .envs import observation_box

__all__ = ["env", "raw_env"]

def env(players=2, variant="classic", backend=None, render_mode=None, flat_observation=False):
    """The Azul AEC environment with PettingZoo's classic-game wrappers (see the module docstring):
    an illegal move ends the game with -1 for its player, an action outside the space fails an
    assertion, and the API's call order is enforced."""
    e = raw_env(players=players, variant=variant, backend=backend, render_mode=render_mode,
                flat_observation=flat_observation)
    e = wrappers.TerminateIllegalWrapper(e, illegal_reward=-1)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    return wrappers.OrderEnforcingWrapper(e)


class raw_env(AECEnv):
    """Azul for 2-4 players as an AEC environment, without wrappers (see the module docstring).

    ``variant`` is "classic" (coloured wall), "grey" (free placement) or "summer-pavilion" (actions
    ``Discrete(SP_NUM_ACTIONS)``, 1798); ``backend`` is "cpp",
    "python" or None for the engine ``azul_engine`` picked.  Raises ``ValueError`` for a bad
    player count, variant, backend or render mode, and ``ImportError`` if the backend asked for
    cannot be imported.
    """

    metadata = {"render_modes": ["ansi", "human"], "name": "azul_v0", "is_parallelizable": False}

    def __init__(self, players=2, variant="classic", backend=None, render_mode=None, flat_observation=False):
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError("render_mode must be None, 'ansi' or 'human', got %r" % (render_mode,))
        if not isinstance(flat_observation, bool):
            raise TypeError("flat_observation must be True or False, not %s" % type(flat_observation).__name__)
        self.flat_observation = flat_observation
        # The engine is kept by name, so that the environment can be deep-copied and pickled.
        engine = engine_named(backend)
        self.backend = engine.NAME
        info = engine.game_info(variant=variant, players=players)  # also checks players and variant
        shape, num_actions = info.observation_shape, info.num_actions
        self.players = players
        self.variant = variant
        self.render_mode = render_mode
        self.game = None  # the engine's GameState, from reset() on

        self.possible_agents = ["player_%d" % p for p in range(players)]
        self.agents = []
        box = observation_box(info)
        self.observation_spaces = {
            agent: box if flat_observation else spaces.Dict({
                "observation": box,
                "action_mask": spaces.Box(low=0, high=1, shape=(num_actions,), dtype=np.int8),
            })
            for agent in self.possible_agents
        }
        self.action_spaces = {agent: spaces.Discrete(num_actions) for agent in self.possible_agents}
        self.state_space = box

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def reset(self, seed=None, options=None):
        """Start a new game: with ``seed``, ``new_game(players, variant, seed=seed)``; without,
        a game seeded from ``np_random``."""
        if seed is not None or not hasattr(self, "np_random"):
            self.np_random, self.np_random_seed = seeding.np_random(seed)
        if seed is None:
            seed = int(self.np_random.integers(0, 2**64, dtype=np.uint64))
        self.game = engine_named(self.backend).new_game(self.players, self.variant, seed=seed)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {agent: {} for agent in self.agents}
        self.agent_selection = self.possible_agents[self.game.current_player]
        self._set_masks()
        if self.render_mode == "human":
            self.render()

    def _mask(self, agent):
        if self.possible_agents.index(agent) == self.game.current_player:
            return self.game.legal_action_mask().astype(np.int8)
        return np.zeros(self.action_spaces[agent].n, dtype=np.int8)

    def _set_masks(self):
        """With flat observations: each agent's mask in its infos (the agent to move's legal moves, zeros for the
        others and once the game is over)."""
        if self.flat_observation:
            for agent in self.agents:
                self.infos[agent]["action_mask"] = self._mask(agent)

    def observe(self, agent):
        seat = self.possible_agents.index(agent)
        if self.flat_observation:
            return self.game.observation_tensor(seat)
        return {"observation": self.game.observation_tensor(seat), "action_mask": self._mask(agent)}

    def state(self):
        """The global state: ``observation_tensor(0)`` of the game (float32, in ``state_space``)."""
        if self.game is None:
            raise RuntimeError("state() needs a game: call reset() first")
        return self.game.observation_tensor(0)

    def step(self, action):
        """Play ``action`` (an action id) for ``agent_selection``; ``None`` for a terminated agent.

        Raises ``IllegalMoveError`` for an illegal move, leaving the environment unchanged.
        """
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise TypeError("%s is still playing: step() needs an action id, not None" % agent)
        self.game.apply(operator.index(action))
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        if self.game.is_over:
            for a, reward in zip(self.possible_agents, self.game.returns()):
                self.rewards[a] = reward
            self.terminations = dict.fromkeys(self.agents, True)
            self._accumulate_rewards()
            # agent_selection stays on the last mover; _was_dead_step then visits the others.
        else:
            self.agent_selection = self.possible_agents[self.game.current_player]
        self._set_masks()
        if self.render_mode == "human":
            self.render()

    def render(self):
        """The board text (``str(state)``): returned with "ansi", printed with "human"."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() was called without a render_mode: pass render_mode='ansi' or 'human'")
            return None
        if self.game is None:
            return None
        text = str(self.game)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self):
        pass
