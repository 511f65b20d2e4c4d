"""Train a masked policy for 2-player classic Azul on the CPU, and measure it with ``tournament``.

    pip install '.[rl]'          # sb3-contrib, Stable-Baselines3, PyTorch (CPU is enough)
    python examples/train_maskable_ppo.py --minutes 15 -o ppo_azul.zip

The learner is sb3-contrib's ``MaskablePPO`` (PPO that samples only legal moves) with a small MLP, in
``azul_engine.envs.AzulEnv``: it plays one seat (drawn each game) of a 2-player game against the ``random`` bot,
sees the observation tensor of docs/observation.md and the legal-move mask, and is rewarded by the change in its
lead (its score minus the opponent's) at each of its moves, so that a game's rewards add up to its final lead.
Every ``--eval-every`` steps the policy is saved and played by ``tournament`` (as the bot
``azul_engine.sb3:PolicyBot:path=FILE``, on shared seat-rotated deals) against ``random`` and ``greedy``, and a
line gives the steps, the minutes and both win rates with their 95% intervals. The last line is the final
policy's, over ``--final-games`` games. ``--steps`` stops after that many steps instead of a time.

``--minutes`` is the whole run's time, the final measurement included: the training stops early enough for it
(its time estimated from a few games before training, then from each measurement). Between measurements a
progress line on standard error says the steps, the minutes and the steps a second, at most every ``--progress``
seconds (default 30; 0: after every update).

``tests/test_rl.py`` runs this script for a few hundred steps: it checks the loop, not the strength.
"""

import argparse
import os
import sys
import time


def win_rate(path, opponent, games, seed):
    """The policy's tournament row against ``opponent``: (win rate, low, high) of the 95% Wilson interval."""
    from azul_engine import tournament

    spec = "azul_engine.sb3:PolicyBot:path=%s" % path
    result = tournament.run(tournament.plan([spec, opponent], players=2, games=games, seed=seed), workers=1)
    row = result.standings[0]
    return row.win_rate, row.win_interval[0], row.win_interval[1]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=15.0, help="training time (default: 15)")
    parser.add_argument("--steps", type=int, default=None, help="stop after this many steps instead")
    parser.add_argument("--envs", type=int, default=8, help="environments stepped together (default: 8)")
    parser.add_argument("--n-steps", type=int, default=256, help="PPO steps per environment per update")
    parser.add_argument("--eval-every", type=int, default=100_000, help="steps between measurements")
    parser.add_argument("--eval-games", type=int, default=100, help="games per opponent per measurement")
    parser.add_argument("--final-games", type=int, default=200, help="games per opponent at the end")
    parser.add_argument("--reward", choices=["score", "win"], default="score")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--threads", type=int, default=1, help="torch threads (default: 1)")
    parser.add_argument("--progress", type=float, default=30.0,
                        help="seconds between progress lines on standard error (default: 30; 0: every update)")
    parser.add_argument("-o", "--output", default="ppo_azul.zip", help="where the policy is saved")
    parser.add_argument("--force", action="store_true", help="replace the output file if it exists")
    args = parser.parse_args(argv)
    if os.path.exists(args.output) and not args.force:
        parser.error("%s already exists (--force replaces it)" % args.output)

    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.callbacks import BaseCallback
    from stable_baselines3.common.vec_env import DummyVecEnv

    from azul_engine.envs import AzulEnv

    torch.set_num_threads(args.threads)
    start = time.perf_counter()

    def make(i):
        def build():
            env = AzulEnv(players=2, variant="classic", opponents="random", seat=None, reward=args.reward)
            env.reset(seed=args.seed * 1000 + i)
            return env
        return build

    venv = DummyVecEnv([make(i) for i in range(args.envs)])
    model = MaskablePPO("MlpPolicy", venv, n_steps=args.n_steps, batch_size=min(256, args.n_steps * args.envs),
                        learning_rate=3e-4, gamma=0.99, ent_coef=0.01, seed=args.seed, device="cpu", verbose=0,
                        policy_kwargs={"net_arch": [256, 256]})
    # Seconds one evaluation game takes (both bots' games averaged): from a few games of the untrained policy
    # before training, then from each measurement; the final measurement's share of a --minutes budget.
    per_game = [0.0]

    def evaluate(games, seed):
        model.save(args.output)
        began = time.perf_counter()
        rows = [win_rate(args.output, bot, games, seed) for bot in ("random", "greedy")]
        per_game[0] = (time.perf_counter() - began) / (2 * games)
        return rows

    def reserve():
        return 1.25 * per_game[0] * 2 * args.final_games if args.steps is None else 0.0

    if args.steps is None:
        evaluate(2, 999)
        print("final measurement: %d games against each bot, about %.0f s, kept inside the %g-minute budget"
              % (args.final_games, reserve(), args.minutes), file=sys.stderr, flush=True)
    print("steps    minutes  vs random (95% CI)        vs greedy (95% CI)", flush=True)

    def report(games, seed):
        rows = evaluate(games, seed)
        print("%-8d %7.1f  %s  %s" % (model.num_timesteps, (time.perf_counter() - start) / 60,
                                      *("%5.1f%% (%4.1f-%5.1f%%)    " % tuple(100 * x for x in r) for r in rows)),
              flush=True)
        return rows

    class Measure(BaseCallback):
        def __init__(self):
            super().__init__()
            self.next = args.eval_every
            self.shown = (time.perf_counter(), 0)  # the last progress line's time and steps

        def _on_step(self):
            last = (args.steps is not None and self.num_timesteps >= args.steps
                    or args.steps is None and time.perf_counter() - start > 60 * args.minutes - reserve())
            if self.num_timesteps >= self.next and not last:  # the last measurement is the final one
                self.next += args.eval_every
                report(args.eval_games, 10_000 + self.num_timesteps)
                self.shown = (time.perf_counter(), self.num_timesteps)
            return not last

        def _on_rollout_end(self):
            now = time.perf_counter()
            if now - self.shown[0] >= args.progress:
                rate = (self.num_timesteps - self.shown[1]) / max(now - self.shown[0], 1e-9)
                print("progress: %d steps, %.1f minutes, %.0f steps/s" % (self.num_timesteps, (now - start) / 60,
                                                                          rate), file=sys.stderr, flush=True)
                self.shown = (now, self.num_timesteps)

    budget = args.steps if args.steps is not None else 10**9
    model.learn(total_timesteps=budget, callback=Measure())
    rows = report(args.final_games, 1_000_000)
    print("final: %d steps in %.1f minutes; %d games against each opponent; saved to %s"
          % (model.num_timesteps, (time.perf_counter() - start) / 60, args.final_games, args.output))
    return rows


if __name__ == "__main__":
    sys.exit(0 if main() else 1)
