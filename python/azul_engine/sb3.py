"""Stable-Baselines3 adapter of the self-play vector environment (``pip install 'azul-engine[rl]'``).

>>> from azul_engine.sb3 import AzulVecEnv
>>> venv = AzulVecEnv(num_envs=64, players=2, variant="classic", seed=1)
>>> obs = venv.reset()
>>> masks = venv.action_masks()                  # (64, 314) bools, what MaskablePPO reads
>>> obs.shape, masks.shape
((64, 384), (64, 314))

SB3's ``VecEnv`` protocol over :class:`azul_engine.envs.AzulVectorEnv` with same-step autoreset (SB3's own
convention): a game that ends in a step starts again at once; its ``infos[i]`` has the final observation under
``"terminal_observation"``, ``"TimeLimit.truncated"`` False (games always end by rule), the final ``"scores"``
and every seat's ``"returns"``. Each step's reward is the mover's (docs/rl.md: a sole winner's last move +1, a
loser's -1). Masks: ``action_masks()`` (sb3-contrib's ``MaskablePPO`` finds it through ``env_method``).

``PolicyBot`` plays a trained ``MaskablePPO`` policy as a bot, so that ``tournament`` measures it:
``--bots "azul_engine.sb3:PolicyBot:path=ppo_azul.zip,random"``.

Every seat of these games is the learner: consecutive steps of one game alternate between players, and an
algorithm written for one agent (PPO, DQN) reads them as one player's trajectory. For a learner in one seat
against bots, use :class:`azul_engine.envs.AzulEnv` (``gymnasium.make("azul_engine/Azul-v0")``) in SB3's
``DummyVecEnv`` or ``SubprocVecEnv``: ``examples/train_maskable_ppo.py`` does.
"""

import numpy as np

try:
    from stable_baselines3.common.vec_env import VecEnv
except ImportError as exc:  # pragma: no cover - the message is the point
    raise ImportError("azul_engine.sb3 needs stable-baselines3 (%s): pip install 'azul-engine[rl]'" % exc) from exc

from .envs import AzulVectorEnv

__all__ = ["AzulVecEnv", "PolicyBot"]


class AzulVecEnv(VecEnv):
    """``num_envs`` self-play games as an SB3 ``VecEnv`` (see the module's text); ``seed`` seeds the first
    reset (``seed()`` the next one), ``backend`` and ``threads`` as :class:`AzulVectorEnv`'s."""

    def __init__(self, num_envs=8, players=2, variant="classic", seed=None, backend=None, threads=1):
        self.venv = AzulVectorEnv(num_envs, players, variant, backend=backend, threads=threads,
                                  autoreset_mode="same_step", copy=True)
        super().__init__(num_envs, self.venv.single_observation_space, self.venv.single_action_space)
        self._seed = seed
        self._actions = None

    def reset(self):
        seed = self._seed if self._seed is not None else (self._seeds[0] if self._seeds[0] is not None else None)
        self._seed = None
        self._reset_seeds()
        obs, _ = self.venv.reset(seed=seed)
        return obs

    def seed(self, seed=None):
        """The seed of the next ``reset()`` (one seed gives every game's)."""
        self._seed = seed
        return [seed] * self.num_envs

    def step_async(self, actions):
        self._actions = np.asarray(actions).reshape(self.num_envs)

    def step_wait(self):
        if self._actions is None:
            raise RuntimeError("step_wait() without step_async()")
        actions, self._actions = self._actions, None
        obs, reward, terminated, truncated, infos = self.venv.step(actions)
        out = [{} for _ in range(self.num_envs)]
        for i in np.flatnonzero(terminated):
            out[i] = {"terminal_observation": infos["final_obs"][i], "TimeLimit.truncated": False,
                      "scores": self.venv._vec.final_scores[i].tolist(), "returns": infos["rewards"][i].tolist()}
        return obs, reward, terminated | truncated, out

    def action_masks(self):
        """The legal moves of every game as bools, num_envs x actions."""
        return self.venv.action_masks()

    def close(self):
        self.venv.close()

    # -- SB3's attribute and method forwarding: every game is the same object here -------------------------
    def _indices(self, indices):
        if indices is None:
            return range(self.num_envs)
        if isinstance(indices, int):
            return [indices]
        return indices

    def get_attr(self, attr_name, indices=None):
        return [getattr(self.venv, attr_name) for _ in self._indices(indices)]

    def set_attr(self, attr_name, value, indices=None):
        setattr(self.venv, attr_name, value)

    def env_method(self, method_name, *method_args, indices=None, **method_kwargs):
        if method_name == "action_masks":
            masks = self.action_masks()
            return [masks[i] for i in self._indices(indices)]
        method = getattr(self.venv, method_name)
        return [method(*method_args, **method_kwargs) for _ in self._indices(indices)]

    def env_is_wrapped(self, wrapper_class, indices=None):
        return [False for _ in self._indices(indices)]


class PolicyBot:
    """A bot that plays a policy trained with sb3-contrib's ``MaskablePPO`` on these environments' observations
    (``state.observation_tensor`` of the player to move) and masks: the spec
    ``azul_engine.sb3:PolicyBot:path=FILE`` (the ``.zip`` that ``model.save`` wrote). ``deterministic``: the
    policy's most likely legal move (the default), else a draw from it (seeded by ``reset``). A file is loaded
    once per process, and again when it changes."""

    name = "maskable-ppo"
    _models: dict = {}

    def __init__(self, path, deterministic=True):
        if not isinstance(path, str) or not path:
            raise ValueError("PolicyBot: path must name a saved MaskablePPO model (.zip), not %r" % (path,))
        self.path, self.deterministic = path, bool(deterministic)
        self.model = self._load(path)
        self.name = "maskable-ppo:" + path.replace("\\", "/").rsplit("/", 1)[-1]

    @classmethod
    def _load(cls, path):
        """The model saved at ``path`` (or ``path.zip``), loaded once per process and version of the file: a file
        saved again (a training run's checkpoints, one after another) is loaded again."""
        import os

        found = path if os.path.isfile(path) else path + ".zip"
        try:
            stat = os.stat(found)
        except OSError:
            raise ValueError("PolicyBot: no model at %s" % path) from None
        key = (os.path.abspath(found), stat.st_mtime_ns, stat.st_size)
        if key not in cls._models:
            try:
                from sb3_contrib import MaskablePPO
            except ImportError as exc:
                raise ImportError("PolicyBot needs sb3-contrib (%s): pip install 'azul-engine[rl]'" % exc) from None
            cls._models = {k: m for k, m in cls._models.items() if k[0] != key[0]}  # an older version: dropped
            cls._models[key] = MaskablePPO.load(found, device="cpu")
        return cls._models[key]

    def reset(self, seat, seed):
        import torch

        torch.manual_seed(seed % 2**63)

    def choose(self, state):
        obs = np.asarray(state.observation_tensor(state.current_player), dtype=np.float32)
        mask = np.asarray(state.legal_action_mask(), dtype=bool)
        action, _ = self.model.predict(obs, action_masks=mask, deterministic=self.deterministic)
        return int(action)
