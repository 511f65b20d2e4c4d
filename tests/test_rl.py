"""The training example (examples/train_maskable_ppo.py) for a few hundred steps, and the SB3 adapters
(azul_engine.sb3) on both engines: the loop runs, the policy is saved, played by ``tournament`` as a bot and only
ever answers legal moves. Not the strength (docs/rl.md section 6 has the measured run).

Without stable-baselines3 and sb3-contrib these tests skip, except in CI (CI set), where they fail: the test
command installs azul-engine[rl]."""

import os
import subprocess
import sys

import numpy as np
import pytest

CI = os.environ.get("CI", "").strip().lower() not in ("", "0", "false")
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

try:
    import sb3_contrib  # noqa: F401
    import stable_baselines3  # noqa: F401
except ImportError as exc:
    if CI:
        raise ImportError("CI installs azul-engine[rl] (stable-baselines3, sb3-contrib): %s" % exc) from exc
    pytest.skip("stable-baselines3 and sb3-contrib are not installed (pip install '.[rl]')", allow_module_level=True)

from azul_engine import tournament  # noqa: E402

# The whole module is long (pytest -m 'not slow' leaves it out; CI runs it).
pytestmark = pytest.mark.slow


def test_the_training_example_runs_and_its_policy_plays(tmp_path):
    out = tmp_path / "policy.zip"
    proc = subprocess.run(
        [sys.executable, os.path.join(ROOT, "examples", "train_maskable_ppo.py"), "--steps", "256", "--envs", "2",
         "--n-steps", "64", "--eval-every", "128", "--eval-games", "2", "--final-games", "4", "-o", str(out)],
        capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0].startswith("steps") and lines[-1].startswith("final: 256 steps")
    assert len(lines) == 4  # the heading, one measurement at 128 steps, the final one, the summary
    assert out.exists()
    # the saved policy, as a bot, in a tournament: it finishes every game without a forfeit
    result = tournament.run(tournament.plan(["azul_engine.sb3:PolicyBot:path=%s" % out, "greedy"], games=2,
                                            seed=3), workers=1)
    assert not result.forfeits and result.standings[0].games == 2
    # the script refuses to replace its output without --force
    again = subprocess.run([sys.executable, os.path.join(ROOT, "examples", "train_maskable_ppo.py"), "-o", str(out)],
                           capture_output=True, text=True, timeout=120)
    assert again.returncode == 2 and "already exists" in again.stderr


def test_the_training_example_reports_progress(tmp_path):
    """A progress line on standard error after each update at least --progress seconds after the last (0: every
    update: 3 updates of 2 x 64 steps, the last one ending the run), the results' table on standard output
    unchanged."""
    out = tmp_path / "policy.zip"
    proc = subprocess.run(
        [sys.executable, os.path.join(ROOT, "examples", "train_maskable_ppo.py"), "--steps", "384", "--envs", "2",
         "--n-steps", "64", "--eval-every", "100000", "--final-games", "2", "--progress", "0", "-o", str(out)],
        capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    progress = [line for line in proc.stderr.splitlines() if line.startswith("progress: ")]
    assert [line.split()[1] for line in progress] == ["128", "256"], proc.stderr
    assert all("steps/s" in line and "minutes" in line for line in progress)
    assert len(proc.stdout.splitlines()) == 3  # the heading, the final measurement, the summary


def test_the_tutorial_trains_saves_and_evaluates(tmp_path):
    """docs/tutorial.md's script, as a reader runs it (in a fresh directory, from the page's text), with its
    constants made small: it trains, saves the policy and prints a win rate against each bot."""
    import re

    with open(os.path.join(ROOT, "docs", "tutorial.md"), encoding="utf-8") as f:
        page = f.read()
    code = re.search(r"```python\n(# train_and_evaluate\.py\n.*?)```", page, re.S).group(1)
    small = {"STEPS": "128", "ENVS": "2", "N_STEPS": "64", "GAMES": "2"}
    for name, value in small.items():
        code, count = re.subn(r"^%s = [\d_]+" % name, "%s = %s" % (name, value), code, flags=re.M)
        assert count == 1, name
    (tmp_path / "train_and_evaluate.py").write_text(code, encoding="utf-8")
    proc = subprocess.run([sys.executable, "train_and_evaluate.py"], cwd=tmp_path, capture_output=True, text=True,
                          timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert (tmp_path / "ppo_azul.zip").exists()
    lines = proc.stdout.splitlines()
    assert [line.split(":")[0] for line in lines] == ["against random", "against greedy"], proc.stdout
    assert all(re.search(r"won \d+% of 2 games \(95% CI \d+%-\d+%\)$", line) for line in lines), proc.stdout


def test_the_sb3_vec_env_steps_and_masks(engine):
    from azul_engine.sb3 import AzulVecEnv

    backend = "cpp" if engine.__name__.endswith("_cppengine") else "python"
    venv = AzulVecEnv(num_envs=4, players=2, variant="classic", seed=5, backend=backend)
    obs = venv.reset()
    assert obs.shape == (4, 384)
    rng = np.random.default_rng(0)
    ends = 0
    for _ in range(200):
        masks = venv.action_masks()
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        obs, reward, done, infos = venv.step(actions)
        for i in np.flatnonzero(done):
            ends += 1
            assert infos[i]["terminal_observation"].shape == (384,) and reward[i] in (-1.0, 0.0, 1.0)
            scores, returns = infos[i]["scores"], infos[i]["returns"]
            assert infos[i]["TimeLimit.truncated"] is False
            if scores[0] != scores[1]:
                assert returns == [1.0, -1.0] if scores[0] > scores[1] else [-1.0, 1.0]
            else:  # the tie-break (complete rows) decides, or the win is shared
                assert returns in ([0.0, 0.0], [1.0, -1.0], [-1.0, 1.0])
    assert ends > 0
    assert [m.shape for m in venv.env_method("action_masks")] == [(314,)] * 4


def test_maskable_ppo_learns_on_the_sb3_vec_env_for_a_few_steps():
    from sb3_contrib import MaskablePPO

    from azul_engine.sb3 import AzulVecEnv

    model = MaskablePPO("MlpPolicy", AzulVecEnv(num_envs=4, seed=1), n_steps=32, batch_size=64, device="cpu")
    model.learn(128)
    assert model.num_timesteps >= 128


def test_a_policy_saved_again_is_loaded_again(tmp_path):
    """PolicyBot keeps a loaded model per file version: a file saved again (a training run's checkpoints, one after
    another at one path, measured in one process) gives the new policy, not the first one loaded."""
    import torch
    from sb3_contrib import MaskablePPO

    from azul_engine.envs import AzulEnv
    from azul_engine.sb3 import PolicyBot

    model = MaskablePPO("MlpPolicy", AzulEnv(opponents="random"), n_steps=64, batch_size=64, seed=0, device="cpu",
                        policy_kwargs={"net_arch": [8]})
    path = tmp_path / "policy.zip"
    model.save(path)
    first = PolicyBot(str(path)).model
    assert PolicyBot(str(path)).model is first and PolicyBot(str(tmp_path / "policy")).model is first
    with torch.no_grad():
        for weight in model.policy.parameters():
            weight.add_(1.0)
    model.save(path)
    stat = os.stat(path)
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 10**9))  # a later version, whatever the clock's grain
    second = PolicyBot(str(path)).model
    assert second is not first
    for new, saved in zip(second.policy.parameters(), model.policy.parameters()):
        assert torch.equal(new, saved)
    with pytest.raises(ValueError, match="PolicyBot: no model at"):
        PolicyBot(str(tmp_path / "missing.zip"))
