"""Training a network for the guided search by self-play: the AlphaZero loop on the engine (docs/training.md).

One run is a directory.  Each iteration:

1. **Self-play**: ``games`` games of the best network against itself, ``search_many`` over the games of a job
   (one evaluator batch a move for all of them), ``simulations`` guided iterations a move with Dirichlet noise at
   the root, moves drawn in proportion to the visits for the first ``temperature_moves`` moves of a game and the
   most visited after.  Jobs run in local worker processes or on Ray (``--ray``): the network travels with the
   job as bytes.  Every decision is kept: its observation, legal mask, the visit distribution (the policy
   target) and, once the game ends, each seat's value of the outcome (the value target: ``2 u - 1`` of the
   search's utility, docs/search.md section 11).
2. **Learning**: the PyTorch network (``network.torch_network``) takes ``reuse`` passes' worth of minibatches over
   the new positions, drawn from the last ``window`` positions: cross-entropy to the visit distribution, squared
   error to the outcome.
3. **Arena**: the learner's network, exported to the built-in format, plays the best one (``arena_games`` games on
   shared seat-rotated deals, the guided search with ``arena_simulations`` iterations a move); it becomes the
   best when it scores ``gate`` or more.
4. **Evaluation**: the best network alone (``policy_only``) plays the greedy bot (``eval_games`` games): the
   learning curve, with the arena's score, written to ``curve.csv`` and ``curve.png``.

Optionally the run starts by learning from the rollout search's self-play (``bootstrap_games`` games of
``search(iterations=bootstrap_iterations)``, its visit counts as the targets): expert iteration, a warm start
for the first network.  The whole loop keeps to ``minutes`` of wall time (an iteration is not started when the
last one says it would not finish in time), and ``--resume`` goes on with a stopped run from its last finished
iteration.

The run directory: ``settings.json`` (the run's settings), ``state.json`` (where it stands), ``learner.pt`` (the
PyTorch network and its optimiser), ``best.npz`` and ``latest.npz`` (built-in weights files), ``data/`` (each
iteration's positions, ``.npz``), ``curve.csv``, ``curve.png`` and ``log.txt``.
"""

from __future__ import annotations

import csv
import dataclasses
import io
import json
import math
import os
import sys
import tempfile
import time
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

import numpy as np

from . import distributed, network, tournament
from ._backends import engine_named

__all__ = ["Settings", "run", "play_selfplay", "play_bootstrap", "read_curve", "register"]

POLICY_TOP = 64  # the visit distribution is kept as its 64 most visited moves (renormalised)
_MASK64 = (1 << 64) - 1
CURVE_COLUMNS = ("iteration", "minutes", "games", "positions", "policy_loss", "value_loss", "vs_greedy",
                 "vs_greedy_low", "vs_greedy_high", "vs_best", "accepted", "best")


@dataclasses.dataclass
class Settings:
    """The settings of a run (``settings.json``); ``docs/training.md`` says what each does and why its
    default."""

    variant: str = "classic"
    players: int = 2
    hidden: Tuple[int, ...] = (256, 256)
    minutes: float = 60.0
    seed: int = 0
    bootstrap_games: int = 0
    bootstrap_iterations: int = 1000
    games: int = 256
    simulations: int = 100
    c_puct: float = 1.25
    fpu: float = 0.25
    noise_alpha: float = 0.3
    noise_fraction: float = 0.25
    temperature_moves: int = 12
    margin: float = 0.4
    window: int = 400_000
    reuse: float = 4.0
    batch_size: int = 512
    lr: float = 1e-3
    weight_decay: float = 1e-4
    value_weight: float = 1.0
    augment: bool = True
    expert_iterations: int = 0
    arena_games: int = 40
    arena_simulations: int = 100
    gate: float = 0.55
    eval_games: int = 100
    games_per_job: int = 64

    def check(self) -> "Settings":
        """ValueError naming a setting out of its range."""
        if self.variant not in ("classic", "grey", "summer-pavilion"):
            raise ValueError("variant must be classic, grey or summer-pavilion, not %r" % (self.variant,))
        if self.players not in (2, 3, 4):
            raise ValueError("players must be 2, 3 or 4, not %r" % (self.players,))
        self.hidden = tuple(int(h) for h in self.hidden)
        if not self.hidden or any(not 1 <= h <= 65536 for h in self.hidden):
            raise ValueError("hidden must be 1 or more layer sizes of 1 to 65536 units, not %r" % (self.hidden,))
        positive = {"minutes": self.minutes, "games": self.games, "simulations": self.simulations,
                    "window": self.window, "reuse": self.reuse, "batch_size": self.batch_size, "lr": self.lr,
                    "eval_games": self.eval_games, "games_per_job": self.games_per_job,
                    "bootstrap_iterations": self.bootstrap_iterations}
        for name, value in positive.items():
            if not 0 < value < math.inf:
                raise ValueError("%s must be positive, not %r" % (name, value))
        for name in ("bootstrap_games", "arena_games", "temperature_moves"):
            if getattr(self, name) < 0:
                raise ValueError("%s must be 0 or more, not %r" % (name, getattr(self, name)))
        for name in ("margin", "gate", "noise_fraction"):
            if not 0 <= getattr(self, name) <= 1:
                raise ValueError("%s must be between 0 and 1, not %r" % (name, getattr(self, name)))
        if not 0 <= self.seed <= _MASK64:
            raise ValueError("seed must be 0 to 2**64-1, not %r" % (self.seed,))
        return self

    def as_dict(self) -> Dict[str, Any]:
        out = dataclasses.asdict(self)
        out["hidden"] = list(self.hidden)
        return out

    @classmethod
    def from_dict(cls, data: Dict[str, Any]) -> "Settings":
        known = {f.name for f in dataclasses.fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise ValueError("unknown settings: %s" % ", ".join(unknown))
        values = dict(data)
        if "hidden" in values:
            values["hidden"] = tuple(values["hidden"])
        return cls(**values).check()


# -- self-play (the workers' jobs) -------------------------------------------------------------------------------

def _utility(scores: Sequence[int], winners: Sequence[int], margin: float) -> List[float]:
    """Each player's utility of a finished game (docs/search.md section 4)."""
    share = 1.0 / len(winners)
    out = []
    for p, s in enumerate(scores):
        other = max(x for q, x in enumerate(scores) if q != p)
        edge = min(1.0, max(0.0, 0.5 + (s - other) / 40.0))
        out.append((1.0 - margin) * (share if p in winners else 0.0) + margin * edge)
    return out


class _Game:
    """One game of a job: its state, seed and the decisions recorded so far."""

    __slots__ = ("state", "seed", "ply", "obs", "masks", "actions", "probs", "players")

    def __init__(self, state: Any, seed: int) -> None:
        self.state, self.seed, self.ply = state, seed, 0
        self.obs: List[np.ndarray] = []
        self.masks: List[np.ndarray] = []
        self.actions: List[np.ndarray] = []
        self.probs: List[np.ndarray] = []
        self.players: List[int] = []

    def record(self, actions: Sequence[int], visits: Sequence[int]) -> np.ndarray:
        """Keep the decision at hand with its visit distribution; returns the distribution over ``actions``."""
        state = self.state
        v = np.asarray(visits, dtype=np.float64)
        order = np.argsort(-v, kind="stable")[:POLICY_TOP]
        a = np.full(POLICY_TOP, -1, dtype=np.int16)
        p = np.zeros(POLICY_TOP, dtype=np.float32)
        a[:len(order)] = np.asarray(actions)[order]
        p[:len(order)] = v[order] / v[order].sum()
        self.obs.append(state.observation_tensor())
        self.masks.append(np.packbits(state.legal_action_mask()))
        self.actions.append(a)
        self.probs.append(p)
        self.players.append(state.current_player)
        return v / v.sum()


def _rows(games: Sequence[_Game], players: int, margin: float, size: int, mask_bytes: int) -> Dict[str, Any]:
    """The decisions of finished games as arrays, each with its value target from the observer's seat on."""
    obs, masks, actions, probs, z = [], [], [], [], []
    for g in games:
        u = _utility(g.state.scores, g.state.winners, margin)
        for p in g.players:
            z.append([2.0 * u[(p + k) % players] - 1.0 for k in range(players)])
        obs += g.obs
        masks += g.masks
        actions += g.actions
        probs += g.probs
    n = len(obs)
    return {"obs": np.stack(obs).astype(np.float32) if n else np.zeros((0, size), np.float32),
            "mask": np.stack(masks) if n else np.zeros((0, mask_bytes), np.uint8),
            "policy_actions": np.stack(actions) if n else np.zeros((0, POLICY_TOP), np.int16),
            "policy_probs": np.stack(probs) if n else np.zeros((0, POLICY_TOP), np.float32),
            "value": np.asarray(z, dtype=np.float32).reshape(n, players), "games": len(games)}


def _game_seed(run_seed: int, iteration: int, game: int) -> int:
    """The deal seed of game ``game`` of iteration ``iteration`` (-1: the bootstrap) of a run."""
    return (run_seed * 1_000_003 + (iteration + 1) * 65_537 + game) & _MASK64


def _pick(rng: np.random.Generator, actions: Sequence[int], distribution: np.ndarray, best: int,
          explore: bool) -> int:
    return int(actions[rng.choice(len(actions), p=distribution)]) if explore else best


def play_selfplay(backend: str, weights: bytes, variant: str, players: int, seeds: Sequence[int],
                  settings: Dict[str, Any]) -> Dict[str, Any]:
    """A self-play job: the games of ``seeds`` played together by the guided search with the network of
    ``weights`` (a weights file's bytes), ``search_many`` over the games still going at each step.  Returns the
    decisions as arrays (see ``_rows``).  A top-level function, so that workers can run it."""
    engine = engine_named(backend)
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "network.npz")
        with open(path, "wb") as f:
            f.write(weights)
        net = engine.load_network(path)
    s = Settings.from_dict(settings)
    info = engine.game_info(variant, players)
    rng = np.random.default_rng(seeds[0])
    games = [_Game(engine.new_game(players, variant, seed=seed), seed) for seed in seeds]
    going = list(games)
    while going:
        asked = []
        for g in going:
            while not g.state.is_over and len(g.state.legal_actions()) == 1:
                g.state.apply(g.state.legal_actions()[0])
            if not g.state.is_over:
                asked.append(g)
        if not asked:
            break
        results = engine.search_many([g.state for g in asked], evaluator=net, iterations=s.simulations,
                                     seed=[(g.seed * 7_919 + g.ply) & _MASK64 for g in asked], c_puct=s.c_puct,
                                     fpu=s.fpu, noise_alpha=s.noise_alpha, noise_fraction=s.noise_fraction,
                                     margin=s.margin)
        for g, r in zip(asked, results):
            distribution = np.asarray(r.visits, dtype=np.float64) / sum(r.visits)
            if s.expert_iterations:  # the rollout search's visits as the target (expert iteration)
                e = engine.search(g.state, iterations=s.expert_iterations, seed=(g.seed * 7_919 + g.ply) & _MASK64,
                                  margin=s.margin)
                g.record(e.actions, e.visits)
            else:
                g.record(r.actions, r.visits)
            g.state.apply(_pick(rng, r.actions, distribution, r.action, g.ply < s.temperature_moves))
            g.ply += 1
        going = [g for g in going if not g.state.is_over]
    return _rows(games, players, s.margin, info.observation_shape[0], (info.num_actions + 7) // 8)


def play_bootstrap(backend: str, variant: str, players: int, seeds: Sequence[int],
                   settings: Dict[str, Any]) -> Dict[str, Any]:
    """A bootstrap job: the games of ``seeds`` played by the rollout search (``search(iterations=
    bootstrap_iterations)``, the ``mcts`` bot's search), its visit counts as the policy targets (expert
    iteration).  Returns the decisions as ``play_selfplay`` does."""
    engine = engine_named(backend)
    s = Settings.from_dict(settings)
    info = engine.game_info(variant, players)
    rng = np.random.default_rng(seeds[0])
    games = []
    for seed in seeds:
        g = _Game(engine.new_game(players, variant, seed=seed), seed)
        search_seed = seed
        while not g.state.is_over:
            legal = g.state.legal_actions()
            if len(legal) == 1:
                g.state.apply(legal[0])
                continue
            r = engine.search(g.state, iterations=s.bootstrap_iterations, seed=search_seed, margin=s.margin)
            search_seed = r.next_seed
            distribution = g.record(r.actions, r.visits)
            g.state.apply(_pick(rng, r.actions, distribution, r.action, g.ply < s.temperature_moves))
            g.ply += 1
        games.append(g)
    return _rows(games, players, s.margin, info.observation_shape[0], (info.num_actions + 7) // 8)


# -- the replay window and the learner ---------------------------------------------------------------------------

class FactoryPermutation:
    """Data augmentation: the factories of a position are interchangeable (nothing in the rules tells them apart
    but their number in the notation), so a position with its factories permuted, and its moves and targets
    renumbered to match, is as good an example as the position itself.  A batch gets a random permutation a row:
    the observation's factory block (docs/observation.md) is reordered and every action id that names a factory
    as its source (classic and grey: drafts, ``(source * 5 + colour) * 6 + line``; Summer Pavilion: acquisitions,
    ``source * 6 + colour``) is renumbered."""

    def __init__(self, variant: str, players: int) -> None:
        from ._backends import ENGINE

        info = ENGINE.game_info(variant, players)
        self.factories = info.factories
        self.start, length = info.observation_offsets["factories"]
        self.width = length // 9  # the values of a factory in the observation: one a colour
        self.num_actions = info.num_actions
        # The ids with a source: source * span + rest, for ids below `first_other` (docs/records.md, and
        # docs/summer-pavilion.md "Action ids").
        self.span, self.first_other = (6, 60) if variant == "summer-pavilion" else (30, 300)

    def tables(self, rng: np.random.Generator, rows: int) -> Tuple[np.ndarray, np.ndarray]:
        """``rows`` random permutations as (new action id of each old one ``[rows, A]``, the observation
        index each factory value comes from ``[rows, 9 * width]``)."""
        f = self.factories
        perm = np.argsort(rng.random((rows, f)), axis=1)  # old factory k goes to place perm[r, k]
        ids = np.arange(self.num_actions)
        source, rest = ids // self.span, ids % self.span
        moved = (ids < self.first_other) & (source < f)
        table = np.tile(ids, (rows, 1))
        table[:, moved] = perm[:, source[moved]] * self.span + rest[moved]
        inverse = np.argsort(perm, axis=1)  # the old factory at each new place
        width = self.width
        where = np.tile(np.arange(9 * width), (rows, 1))
        for g in range(f):
            where[:, g * width:(g + 1) * width] = inverse[:, g:g + 1] * width + np.arange(width)
        return table, where

    def __call__(self, obs: np.ndarray, mask: np.ndarray, acts: np.ndarray, rng: np.random.Generator
                 ) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
        """A batch (observations, dense legal masks, target action ids with -1 for none) under random
        permutations, one a row."""
        return self.apply(obs, mask, acts, *self.tables(rng, len(obs)))

    def apply(self, obs: np.ndarray, mask: np.ndarray, acts: np.ndarray, table: np.ndarray, where: np.ndarray
              ) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The batch under the permutations of ``tables``."""
        obs = obs.copy()
        block = obs[:, self.start:self.start + 9 * self.width]
        obs[:, self.start:self.start + 9 * self.width] = np.take_along_axis(block, where, axis=1)
        new_mask = np.zeros_like(mask)
        np.put_along_axis(new_mask, table, mask, axis=1)
        new_acts = np.where(acts >= 0, np.take_along_axis(table, np.maximum(acts, 0), axis=1), -1)
        return obs, new_mask, new_acts

_ARRAYS = ("obs", "mask", "policy_actions", "policy_probs", "value")


class Replay:
    """The positions of the last iterations, at most ``window`` of them (whole iterations dropped oldest first,
    the newest always kept)."""

    def __init__(self, window: int) -> None:
        self.window = window
        self.parts: List[Dict[str, np.ndarray]] = []
        self._joined: Optional[Dict[str, np.ndarray]] = None

    def add(self, part: Dict[str, np.ndarray]) -> None:
        self.parts.append({k: part[k] for k in _ARRAYS})
        while len(self.parts) > 1 and sum(len(p["obs"]) for p in self.parts) - len(self.parts[0]["obs"]) >= self.window:
            self.parts.pop(0)
        self._joined = None

    def __len__(self) -> int:
        return sum(len(p["obs"]) for p in self.parts)

    def arrays(self) -> Dict[str, np.ndarray]:
        if self._joined is None:
            self._joined = {k: np.concatenate([p[k] for p in self.parts]) for k in _ARRAYS}
        return self._joined


class Learner:
    """The PyTorch network being trained and its optimiser."""

    def __init__(self, settings: Settings, threads: int) -> None:
        import torch

        self.torch = torch
        torch.set_num_threads(max(1, threads))
        torch.manual_seed(settings.seed & 0x7FFFFFFF)
        self.settings = settings
        self.model = network.torch_network(settings.variant, settings.players, settings.hidden)
        self.optimizer = torch.optim.AdamW(self.model.parameters(), lr=settings.lr,
                                           weight_decay=settings.weight_decay)
        self.num_actions = self.model.policy.out_features
        self.rng = np.random.default_rng(settings.seed)
        self.steps = 0
        self.permute = FactoryPermutation(settings.variant, settings.players) if settings.augment else None

    def train(self, replay: Replay, steps: int, progress: Optional[Callable[[int], object]] = None
              ) -> Tuple[float, float]:
        """``steps`` minibatches drawn from ``replay``: the mean policy and value losses."""
        torch = self.torch
        data = replay.arrays()
        n = len(data["obs"])
        s = self.settings
        total_policy = total_value = 0.0
        self.model.train()
        for step in range(steps):
            idx = self.rng.integers(0, n, size=min(s.batch_size, n))
            obs = data["obs"][idx]
            mask = np.unpackbits(data["mask"][idx], axis=1, count=self.num_actions).astype(bool)
            acts, probs = data["policy_actions"][idx].astype(np.int64), data["policy_probs"][idx]
            if self.permute is not None:
                obs, mask, acts = self.permute(obs, mask, acts, self.rng)
            target = np.zeros((len(idx), self.num_actions), np.float32)
            rows = np.repeat(np.arange(len(idx)), POLICY_TOP)
            keep = acts.ravel() >= 0
            target[rows[keep], acts.ravel()[keep]] = probs.ravel()[keep]
            logits, values = self.model(torch.from_numpy(obs))
            logp = torch.log_softmax(logits.masked_fill(~torch.from_numpy(mask), -1e9), dim=1)
            policy_loss = -(torch.from_numpy(target) * logp).sum(dim=1).mean()
            value_loss = ((values - torch.from_numpy(data["value"][idx])) ** 2).mean()
            loss = policy_loss + s.value_weight * value_loss
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
            total_policy += policy_loss.item()
            total_value += value_loss.item()
            self.steps += 1
            if progress is not None:
                progress(step + 1)
        self.model.eval()
        return total_policy / max(1, steps), total_value / max(1, steps)

    def export(self, path: str, meta: Dict[str, Any]) -> None:
        network.export(self.model, path, variant=self.settings.variant, players=self.settings.players, meta=meta,
                       force=True)

    def save(self, path: str) -> None:
        torch = self.torch
        buffer = io.BytesIO()
        torch.save({"model": self.model.state_dict(), "optimizer": self.optimizer.state_dict(), "steps": self.steps,
                    "rng": self.rng.bit_generator.state}, buffer)
        _replace(path, buffer.getvalue())

    def load(self, path: str) -> None:
        state = self.torch.load(path, weights_only=False)
        self.model.load_state_dict(state["model"])
        self.optimizer.load_state_dict(state["optimizer"])
        self.steps = state["steps"]
        self.rng.bit_generator.state = state["rng"]
        self.model.eval()


def _replace(path: str, data: bytes) -> None:
    """``data`` to ``path``, through a temporary file beside it (the old file stays whole until then)."""
    temporary = path + ".partial"
    with open(temporary, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
    os.replace(temporary, path)


def _write_json(path: str, value: Any) -> None:
    _replace(path, (json.dumps(value, indent=2, sort_keys=True) + "\n").encode())


# -- evaluation --------------------------------------------------------------------------------------------------

def _score(result: tournament.Result, spec: str) -> Tuple[float, float, float]:
    """The win rate of ``spec`` in a tournament's result, with its 95% interval."""
    for s in result.standings:
        if s.bot == spec:
            low, high = s.win_interval
            return s.wins / s.games, low, high
    raise KeyError(spec)


def arena(candidate: str, best: str, settings: Settings, seed: int, workers: int, backend: str) -> float:
    """The candidate's score against the best network (guided search, ``arena_simulations`` a move)."""
    a = "net:%s:iterations=%d" % (candidate, settings.arena_simulations)
    b = "net:%s:iterations=%d" % (best, settings.arena_simulations)
    plan = tournament.plan([a, b], settings.players, settings.variant, games=settings.arena_games, seed=seed)
    return _score(tournament.run(plan, workers=workers, backend=backend), a)[0]


def versus_greedy(path: str, settings: Settings, seed: int, workers: int, backend: str,
                  games: Optional[int] = None) -> Tuple[float, float, float]:
    """The network alone (``policy_only``) against the greedy bot: its win rate and 95% interval."""
    spec = "net:%s:policy_only=1" % path
    others = ["greedy"] * (settings.players - 1)
    plan = tournament.plan([spec, *others][:2], settings.players, settings.variant,
                           games=games or settings.eval_games, seed=seed)
    return _score(tournament.run(plan, workers=workers, backend=backend), spec)


# -- the loop ----------------------------------------------------------------------------------------------------

def _log(directory: str, line: str, echo: bool) -> None:
    with open(os.path.join(directory, "log.txt"), "a", encoding="utf-8") as f:
        f.write(line + "\n")
    if echo:
        sys.stdout.write(line + "\n")
        sys.stdout.flush()


def read_curve(directory: str) -> List[Dict[str, str]]:
    """The rows of a run's ``curve.csv``."""
    path = os.path.join(directory, "curve.csv")
    if not os.path.exists(path):
        return []
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def _append_curve(directory: str, row: Dict[str, Any]) -> None:
    path = os.path.join(directory, "curve.csv")
    new = not os.path.exists(path)
    with open(path, "a", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, fieldnames=CURVE_COLUMNS)
        if new:
            writer.writeheader()
        writer.writerow({k: row.get(k, "") for k in CURVE_COLUMNS})


def plot_curve(directory: str) -> Optional[str]:
    """``curve.png`` from ``curve.csv``: the win rate against greedy (the network alone, with its interval) and
    the arena score against the previous best, over training time.  None when matplotlib is not installed."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return None
    rows = read_curve(directory)
    if not rows:
        return None
    minutes = [float(r["minutes"]) for r in rows]
    fig, ax = plt.subplots(figsize=(8, 4.5), dpi=100)
    greedy = [(m, float(r["vs_greedy"]), float(r["vs_greedy_low"]), float(r["vs_greedy_high"]))
              for m, r in zip(minutes, rows) if r["vs_greedy"] != ""]
    if greedy:
        ax.plot([g[0] for g in greedy], [100 * g[1] for g in greedy], "o-", color="#1f6f8b",
                label="best network alone vs greedy")
        ax.fill_between([g[0] for g in greedy], [100 * g[2] for g in greedy], [100 * g[3] for g in greedy],
                        color="#1f6f8b", alpha=0.15, label="95% interval")
    best = [(m, float(r["vs_best"])) for m, r in zip(minutes, rows) if r["vs_best"] != ""]
    if best:
        ax.plot([b[0] for b in best], [100 * b[1] for b in best], "s--", color="#c05a00",
                label="new network vs previous best (arena)")
    ax.axhline(50, color="#888888", linewidth=0.8)
    ax.set_xlabel("training time (minutes)")
    ax.set_ylabel("win rate (%)")
    ax.set_ylim(0, 100)
    ax.grid(alpha=0.3)
    ax.legend(loc="lower right")
    ax.set_title("azul-engine training: %s" % os.path.basename(os.path.abspath(directory)))
    fig.tight_layout()
    path = os.path.join(directory, "curve.png")
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png")
    plt.close(fig)
    _replace(path, buffer.getvalue())
    return path


class RunExists(FileExistsError):
    """A run directory that already holds a run, given without ``resume``."""


def _meta(settings: Settings, state: Dict[str, Any], backend: str) -> Dict[str, Any]:
    import platform

    return {"trained_by": "azul-engine train", "settings": settings.as_dict(), "iteration": state["iteration"],
            "minutes": round(state["seconds"] / 60, 2), "games": state["games"], "positions": state["positions"],
            "machine": "%s, %d cores, Python %s, %s engine" % (platform.machine(), os.cpu_count() or 1,
                                                                platform.python_version(), backend)}


def run(directory: str, settings: Optional[Settings] = None, resume: bool = False, workers: Optional[int] = None,
        ray: Optional[str] = None, backend: Optional[str] = None, echo: bool = True,
        progress: Optional[Callable[..., Any]] = None, iterations: Optional[int] = None) -> Dict[str, Any]:
    """Train (or, with ``resume``, go on training) the run in ``directory`` until its ``minutes`` are spent, or
    it has made ``iterations`` iterations in all: returns its final state (``state.json``).  ``workers``: self-play and evaluation processes (default: every
    core); ``ray``: None (local), ``"local"`` (a Ray instance of this machine) or a cluster address, for the
    self-play jobs; ``progress(total, what)``: makes a progress bar (``textui.Progress``), or None."""
    backend = engine_named(backend).NAME
    workers = workers or distributed.default_workers()
    if os.path.exists(directory) and not os.path.isdir(directory):
        raise RunExists(17, "a file, not a directory: give a new or empty directory", directory)
    os.makedirs(directory, exist_ok=True)
    settings_path = os.path.join(directory, "settings.json")
    state_path = os.path.join(directory, "state.json")
    if os.path.exists(state_path):
        if not resume:
            raise RunExists(17, "it already holds a run: give --resume to go on with it, or another directory",
                            directory)
        with open(settings_path, encoding="utf-8") as f:
            saved = Settings.from_dict(json.load(f))
        if settings is not None:
            mine, theirs = settings.as_dict(), saved.as_dict()
            changed = sorted(k for k in mine if k != "minutes" and mine[k] != theirs[k])
            if changed:
                raise ValueError("the run in %s was started with other settings (%s); resume it with its own"
                                 % (directory, ", ".join(changed)))
            saved.minutes = settings.minutes
        settings = saved
        with open(state_path, encoding="utf-8") as f:
            state = json.load(f)
    else:
        if resume:
            raise ValueError("%s holds no run to resume" % directory)
        if any(n for n in os.listdir(directory) if not n.startswith(".")):
            raise RunExists(17, "the directory is not empty: give a new or empty one", directory)
        settings = (settings or Settings()).check()
        state = {"iteration": 0, "seconds": 0.0, "games": 0, "positions": 0, "best": None, "bootstrapped": False,
                 "last_iteration_seconds": None}
    _write_json(settings_path, settings.as_dict())
    if not os.path.exists(state_path):  # at once: a run stopped in its bootstrap can be resumed
        _write_json(state_path, state)
    os.makedirs(os.path.join(directory, "data"), exist_ok=True)
    budget = settings.minutes * 60.0
    learner = Learner(settings, workers)
    learner_path = os.path.join(directory, "learner.pt")
    if os.path.exists(learner_path):
        learner.load(learner_path)
    replay = Replay(settings.window)
    # The positions of what state.json says is done: a file of an iteration (or a bootstrap) that was stopped
    # before its end is played again, and written again, not read twice.
    finished = ["bootstrap.npz"] if state["bootstrapped"] else []
    finished += ["iteration-%05d.npz" % i for i in range(1, state["iteration"] + 1)]
    for name in [n for n in finished if os.path.exists(os.path.join(directory, "data", n))][-64:]:
        with np.load(os.path.join(directory, "data", name)) as part:
            replay.add({k: part[k] for k in _ARRAYS})
    best_path = os.path.join(directory, "best.npz")
    latest_path = os.path.join(directory, "latest.npz")
    started = time.monotonic() - state["seconds"]
    sdict = settings.as_dict()

    def elapsed() -> float:
        return time.monotonic() - started

    def save_state() -> None:
        state["seconds"] = elapsed()
        _write_json(state_path, state)

    def bar(total: int, what: str) -> Optional[Callable[[int], object]]:
        return progress(total, what) if progress else None

    if state["iteration"] == 0 and not os.path.exists(best_path):
        _log(directory, "run %s: %s %dp, network %s, %d worker%s%s, %.0f minutes" % (
            directory, settings.variant, settings.players, "x".join(map(str, settings.hidden)), workers,
            "" if workers == 1 else "s",
            " on Ray" if ray else "", settings.minutes), echo)
    with distributed.executor(ray=ray, workers=workers) as where:
        if settings.bootstrap_games and not state["bootstrapped"]:
            start = elapsed()
            seeds = [_game_seed(settings.seed, -1, g) for g in range(settings.bootstrap_games)]
            expert_jobs = [(backend, settings.variant, settings.players, seeds[i:i + 8], sdict)
                           for i in range(0, len(seeds), 8)]
            show = bar(len(expert_jobs), "bootstrap games (rollout search)")
            parts = []
            for k, part in enumerate(where.map(play_bootstrap, expert_jobs)):
                parts.append(part)
                if show:
                    show(k + 1)
            part = {k: np.concatenate([p[k] for p in parts]) for k in _ARRAYS}
            np.savez_compressed(os.path.join(directory, "data", "bootstrap.npz"), **part)
            replay.add(part)
            state["games"] += settings.bootstrap_games
            state["positions"] += len(part["obs"])
            steps = int(math.ceil(settings.reuse * len(part["obs"]) / settings.batch_size))
            losses = learner.train(replay, steps, bar(steps, "learning from the bootstrap"))
            state["bootstrapped"] = True
            learner.save(learner_path)
            save_state()
            _log(directory, "bootstrap: %d games of search(iterations=%d), %d positions; %d steps, policy loss "
                 "%.3f, value loss %.3f; %.1f min" % (settings.bootstrap_games, settings.bootstrap_iterations,
                                                      len(part["obs"]), steps, losses[0], losses[1],
                                                      (elapsed() - start) / 60), echo)
        if not os.path.exists(best_path):
            learner.export(best_path, _meta(settings, state, backend))
            state["best"] = 0
            save_state()
        while True:
            last = state["last_iteration_seconds"]
            if elapsed() >= budget or (last is not None and elapsed() + last > budget):
                break
            if iterations is not None and state["iteration"] >= iterations:
                break
            start = elapsed()
            iteration = state["iteration"] + 1
            with open(best_path, "rb") as best_file:
                weights = best_file.read()
            seeds = [_game_seed(settings.seed, iteration, g) for g in range(settings.games)]
            size = settings.games_per_job
            selfplay_jobs = [(backend, weights, settings.variant, settings.players, seeds[i:i + size], sdict)
                    for i in range(0, len(seeds), size)]
            show = bar(len(seeds), "iteration %d: self-play games" % iteration)
            parts, done = [], 0
            for part in where.map(play_selfplay, selfplay_jobs, chunksize=1):
                parts.append(part)
                done += part["games"]
                if show:
                    show(done)
            part = {k: np.concatenate([p[k] for p in parts]) for k in _ARRAYS}
            np.savez_compressed(os.path.join(directory, "data", "iteration-%05d.npz" % iteration), **part)
            replay.add(part)
            played = elapsed()
            steps = int(math.ceil(settings.reuse * len(part["obs"]) / settings.batch_size))
            losses = learner.train(replay, steps, bar(steps, "iteration %d: learning" % iteration))
            state["games"] += settings.games
            state["positions"] += len(part["obs"])
            state["iteration"] = iteration
            learner.export(latest_path, _meta(settings, state, backend))
            learned = elapsed()
            score = arena(latest_path, best_path, settings, _game_seed(settings.seed, iteration, 1 << 20), workers,
                          backend) if settings.arena_games else 1.0
            accepted = score >= settings.gate
            greedy = versus_greedy(latest_path if accepted else best_path, settings,
                                   _game_seed(settings.seed, iteration, 1 << 21), workers, backend)
            # What the iteration changes is written together at its end (the learner, the best network, the
            # state): a run stopped before this point goes on from the iteration before, as if this one had not
            # begun.
            learner.save(learner_path)
            if accepted:
                with open(latest_path, "rb") as latest_file:
                    _replace(best_path, latest_file.read())
                state["best"] = iteration
            state["last_iteration_seconds"] = elapsed() - start
            save_state()
            _append_curve(directory, {
                "iteration": iteration, "minutes": round(elapsed() / 60, 2), "games": state["games"],
                "positions": state["positions"], "policy_loss": round(losses[0], 4), "value_loss": round(losses[1], 4),
                "vs_greedy": round(greedy[0], 4), "vs_greedy_low": round(greedy[1], 4),
                "vs_greedy_high": round(greedy[2], 4), "vs_best": round(score, 4) if settings.arena_games else "",
                "accepted": int(accepted), "best": state["best"]})
            if plot_curve(directory) is None and iteration == 1:
                _log(directory, "curve.png: not drawn (matplotlib is not installed: pip install matplotlib, or the "
                     "train extra); curve.csv has the figures", echo)
            verdict = ("arena %.1f%% %s" % (100 * score, "accepted" if accepted else "kept the best")
                       if settings.arena_games else "no arena (arena_games 0): taken")
            _log(directory, "iteration %d: %d games, %d positions (self-play %.1f s), %d steps, policy loss %.3f, "
                 "value loss %.3f (%.1f s); %s; best (iteration %d) alone vs greedy %.1f%% "
                 "(%.1f-%.1f%%); %.1f min" % (
                     iteration, settings.games, len(part["obs"]), played - start, steps, losses[0], losses[1],
                     learned - played, verdict, state["best"],
                     100 * greedy[0], 100 * greedy[1], 100 * greedy[2], elapsed() / 60), echo)
    save_state()
    return state


# -- the command -------------------------------------------------------------------------------------------------

def register(commands: Any) -> Any:
    """The ``train`` command."""
    from . import _cli

    positive = _cli.positive(int)
    cmd = _cli.add_command(
        commands, "train", _command,
        help="train a network by self-play for the guided search (AlphaZero's loop; needs PyTorch)",
        description="Self-play with the guided search, learning with PyTorch, an arena against the best network "
        "and an evaluation against the greedy bot each iteration, until the minutes are spent (docs/training.md). "
        "DIR holds the run: best.npz (the network to use: net:DIR/best.npz), curve.csv, curve.png, log.txt.")
    cmd.add_argument("-o", "--output", required=True, metavar="DIR", help="the run's directory")
    # Every setting's default is None here (Settings' own default applies): with --resume only the options given
    # are compared with the run's own settings.
    cmd.add_argument("--players", type=int, choices=[2, 3, 4], default=None, help="players (default 2)")
    cmd.add_argument("--variant", choices=list(_cli.VARIANTS), default=None, help="the variant (default classic)")
    cmd.add_argument("--minutes", type=_cli.positive(float), default=None, help="wall time of the run (default 60)")
    cmd.add_argument("--hidden", default=None, help="the trunk's layer sizes (default 256,256)")
    cmd.add_argument("--seed", type=_cli.seed, default=None, help="the run's seed (default 0)")
    cmd.add_argument("--games", type=positive, default=None, help="self-play games an iteration (default 256)")
    cmd.add_argument("--simulations", type=positive, default=None,
                     help="guided search iterations a self-play move (default 100)")
    cmd.add_argument("--bootstrap-games", type=_cli.non_negative, default=None,
                     help="games of the rollout search to learn from first (expert iteration; default 0)")
    cmd.add_argument("--bootstrap-iterations", type=positive, default=None,
                     help="the rollout search's iterations a move in those games (default 1000)")
    cmd.add_argument("--arena-games", type=_cli.non_negative, default=None,
                     help="games of each new network against the best (default 40; 0: always take the new one)")
    cmd.add_argument("--eval-games", type=positive, default=None,
                     help="games of the best network alone against greedy an iteration (default 100)")
    cmd.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                     help="any other setting of docs/training.md (repeatable), e.g. --set c_puct=1.5")
    cmd.add_argument("--iterations", type=positive,
                     help="stop after this many iterations in all (default: when the minutes are spent)")
    cmd.add_argument("--resume", action="store_true",
                     help="go on with the run in DIR (its own settings; an option given must agree with them, but for "
                     "--minutes)")
    cmd.add_argument("--workers", type=positive, help="worker processes (default: every core)")
    distributed.add_ray_argument(cmd)
    _cli.add_backend(cmd)
    return cmd


def _settings_of(args: Any, base: Optional[Settings] = None) -> Settings:
    """``base`` (default: ``Settings()``) with the options given on the command line."""
    given = {"variant": args.variant, "players": args.players, "minutes": args.minutes, "seed": args.seed,
             "games": args.games, "simulations": args.simulations, "bootstrap_games": args.bootstrap_games,
             "bootstrap_iterations": args.bootstrap_iterations, "arena_games": args.arena_games,
             "eval_games": args.eval_games}
    values: Dict[str, Any] = {k: v for k, v in given.items() if v is not None}
    if args.hidden is not None:
        try:
            values["hidden"] = tuple(int(x) for x in args.hidden.split(","))
        except ValueError:
            raise ValueError("--hidden must be layer sizes separated by commas, e.g. 256,256, not %r"
                             % args.hidden) from None
    fields = {f.name: f for f in dataclasses.fields(Settings)}
    for item in args.set:
        name, sep, text = item.partition("=")
        name = name.strip()
        if not sep or name not in fields:
            raise ValueError("--set %s: give NAME=VALUE with NAME one of %s" % (item, ", ".join(sorted(fields))))
        kind = type(getattr(Settings(), name))
        try:
            if kind is bool:
                if text.lower() not in ("1", "0", "true", "false", "yes", "no"):
                    raise ValueError(text)
                values[name] = text.lower() in ("1", "true", "yes")
            else:
                values[name] = tuple(int(x) for x in text.split(",")) if kind is tuple else kind(text)
        except ValueError:
            raise ValueError("--set %s: %s must be %s" % (item, name, kind.__name__)) from None
    return dataclasses.replace(base or Settings(), **values).check()


def _command(args: Any) -> int:
    from . import _cli

    try:
        import torch  # noqa: F401
    except ImportError:
        return _cli.usage_error(args, "training needs PyTorch: pip install 'azul-engine[train]' (CPU build: see "
                                      "docs/training.md)")
    try:
        base = None
        saved = os.path.join(args.output, "settings.json")
        if args.resume and os.path.exists(saved):  # the run's own settings, and the options given over them
            with open(saved, encoding="utf-8") as f:
                base = Settings.from_dict(json.load(f))
        settings = _settings_of(args, base)
        _cli.engine(args)
        state = run(args.output, settings, resume=args.resume, workers=args.workers, ray=args.ray,
                    backend=args.backend, progress=_cli.Progress, iterations=args.iterations)
    except RunExists as e:
        return _cli.usage_error(args, "%s: %s" % (e.filename, e.strerror))
    except (ValueError, ImportError, ConnectionError) as e:
        return _cli.usage_error(args, str(e))
    _cli.out("%s: %d iterations, %d games, %d positions in %.1f min; the best network (iteration %s): %s"
             % (args.output, state["iteration"], state["games"], state["positions"], state["seconds"] / 60,
                state["best"], os.path.join(args.output, "best.npz")))
    return 0
