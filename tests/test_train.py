"""The training loop (azul_engine.train, docs/training.md) end to end on a tiny network for an iteration or two, in
both engines: the self-play data it keeps, the files of a run, resuming, and the command's errors.  Strength is
measured by the documented runs, not here."""

import csv
import json
import os

import numpy as np
import pytest

pytest.importorskip("torch")

from azul_engine import network, train  # noqa: E402
from helpers import network_parts  # noqa: E402

# The whole module is long (pytest -m 'not slow' leaves it out; CI runs it).
pytestmark = pytest.mark.slow

TINY = dict(hidden=(8,), games=4, simulations=6, games_per_job=2, arena_games=2, arena_simulations=4,
            eval_games=2, bootstrap_games=2, bootstrap_iterations=20, window=5000, batch_size=32)


def _weights(tmp_path, variant="classic", players=2):
    path = tmp_path / "net.npz"
    network.save_network(path, variant, players, *network_parts(variant, players, hidden=(16,), seed=2))
    return path.read_bytes()


@pytest.mark.parametrize("variant,players", [("classic", 2), ("summer-pavilion", 3)])
def test_self_play_data_is_the_same_in_both_engines(tmp_path, variant, players):
    """A self-play job's positions, targets and moves depend only on its arguments: both engines give the same
    arrays (the guided search and the built-in network are the same in both)."""
    weights = _weights(tmp_path, variant, players)
    settings = train.Settings(variant=variant, players=players, **dict(TINY, hidden=(16,))).as_dict()
    a = train.play_selfplay("python", weights, variant, players, [11, 12], settings)
    b = train.play_selfplay("cpp", weights, variant, players, [11, 12], settings)
    for key in ("obs", "mask", "policy_actions", "policy_probs", "value"):
        assert np.array_equal(a[key], b[key]), key
    n = len(a["obs"])
    assert n > 20 and a["games"] == 2
    # The targets: a distribution over legal moves, and each seat's outcome from the observer's seat on.
    probs, acts = a["policy_probs"], a["policy_actions"]
    assert np.allclose(probs.sum(axis=1), 1.0)
    from azul_engine import game_info
    masks = np.unpackbits(a["mask"], axis=1, count=game_info(variant, players).num_actions).astype(bool)
    for i in range(n):
        assert masks[i][acts[i][acts[i] >= 0]].all()  # every move of the target is legal there
    assert a["value"].shape == (n, players) and np.abs(a["value"]).max() <= 1.0


def test_two_player_value_targets_are_zero_sum(tmp_path):
    weights = _weights(tmp_path)
    part = train.play_selfplay("cpp", weights, "classic", 2, [3, 4, 5], train.Settings(**TINY).as_dict())
    assert np.allclose(part["value"].sum(axis=1), 0.0, atol=1e-6)


def _rows(directory):
    with open(os.path.join(directory, "curve.csv"), newline="") as f:
        return list(csv.DictReader(f))


@pytest.mark.parametrize("backend", ["python", "cpp"])
def test_the_loop_runs_end_to_end_and_resumes(tmp_path, backend):
    run = str(tmp_path / "run")
    settings = train.Settings(minutes=30, **TINY)
    state = train.run(run, settings, workers=1, backend=backend, echo=False, iterations=1)
    assert state["iteration"] == 1 and state["bootstrapped"] and state["games"] >= TINY["bootstrap_games"] + 4
    for name in ("best.npz", "latest.npz", "learner.pt", "settings.json", "state.json", "curve.csv", "log.txt"):
        assert os.path.exists(os.path.join(run, name)), name
    rows = _rows(run)
    assert len(rows) == state["iteration"] and set(train.CURVE_COLUMNS) <= set(rows[0])
    assert 0 <= float(rows[0]["vs_greedy"]) <= 1
    # The networks are built-in weights files for the game, with how they were made.
    from azul_engine import load_backend
    for engine in (load_backend("python"), load_backend("cpp")):
        best = engine.load_network(os.path.join(run, "best.npz"))
        assert (best.variant, best.players, best.layers) == ("classic", 2, (384, 8))
        assert best.meta["trained_by"] == "azul-engine train" and best.meta["settings"]["hidden"] == [8]
    data = sorted(os.listdir(os.path.join(run, "data")))
    assert data[0] == "bootstrap.npz" and data[1] == "iteration-00001.npz"
    # Resumed with more time: it goes on from where it stopped.
    more = train.Settings(minutes=31, **TINY)
    again = train.run(run, more, resume=True, workers=1, backend=backend, echo=False, iterations=2)
    assert again["iteration"] == 2 and len(_rows(run)) == 2 and again["games"] == state["games"] + TINY["games"]
    with open(os.path.join(run, "settings.json")) as f:
        assert json.load(f)["minutes"] == more.minutes


def test_a_run_is_never_overwritten(tmp_path):
    run = tmp_path / "run"
    run.mkdir()
    (run / "mine.txt").write_text("keep me")
    with pytest.raises(train.RunExists):
        train.run(str(run), train.Settings(minutes=0.01, **TINY), workers=1, echo=False)
    assert (run / "mine.txt").read_text() == "keep me"
    with pytest.raises(ValueError, match="holds no run to resume"):
        train.run(str(tmp_path / "new"), train.Settings(minutes=0.01, **TINY), resume=True, workers=1, echo=False)


def test_resuming_with_other_settings_is_refused(tmp_path):
    run = str(tmp_path / "run")
    train.run(run, train.Settings(minutes=0.01, **TINY), workers=1, echo=False, iterations=1)
    with pytest.raises(train.RunExists):
        train.run(run, train.Settings(minutes=0.01, **TINY), workers=1, echo=False)
    other = dict(TINY, simulations=7)
    with pytest.raises(ValueError, match="other settings .*simulations"):
        train.run(run, train.Settings(minutes=0.01, **other), resume=True, workers=1, echo=False)


def test_settings_are_checked():
    for bad, words in ((dict(players=5), "players must be 2, 3 or 4"), (dict(hidden=()), "hidden must be"),
                       (dict(games=0), "games must be positive"), (dict(gate=1.5), "gate must be between 0 and 1"),
                       (dict(variant="chess"), "variant must be")):
        with pytest.raises(ValueError, match=words):
            train.Settings(**bad).check()


def test_the_command(tmp_path, capsys):
    from azul_engine.__main__ import main

    run = str(tmp_path / "run")
    code = main(["train", "-o", run, "--iterations", "1", "--hidden", "8", "--games", "2", "--simulations", "4",
                 "--arena-games", "2", "--eval-games", "2", "--workers", "1", "--set", "games_per_job=2",
                 "--set", "batch_size=16"])
    out = capsys.readouterr()
    assert code == 0, out.err
    assert "the best network" in out.out and os.path.exists(os.path.join(run, "best.npz"))
    assert "iteration 1:" in out.out
    for argv, words in ((["--hidden", "8,x"], "--hidden must be layer sizes"),
                        (["--set", "nonsense=1"], "--set nonsense=1: give NAME=VALUE"),
                        (["--set", "c_puct=abc"], "c_puct must be float")):
        code = main(["train", "-o", str(tmp_path / "other"), "--minutes", "0.01", *argv])
        assert code == 2 and words in capsys.readouterr().err
    code = main(["train", "-o", run, "--minutes", "0.01"])
    assert code == 2 and "already holds a run: give --resume" in capsys.readouterr().err
    a_file = tmp_path / "a-file"
    a_file.write_text("mine")
    code = main(["train", "-o", str(a_file), "--iterations", "1"])  # was a FileExistsError traceback
    assert code == 2 and "a file, not a directory" in capsys.readouterr().err and a_file.read_text() == "mine"
    code = main(["train", "-o", str(tmp_path / "no-arena"), "--iterations", "1", "--hidden", "8", "--games", "2",
                 "--simulations", "4", "--arena-games", "0", "--eval-games", "2", "--workers", "1", "--set",
                 "games_per_job=2", "--set", "batch_size=16"])
    out = capsys.readouterr().out
    assert code == 0 and "no arena (arena_games 0): taken" in out and "arena 100.0%" not in out


def test_the_command_resumes_a_run_with_its_own_settings(tmp_path, capsys):
    """--resume takes the run's own settings: only the options given are compared with them (every option's
    default was, so a run started with --games 2 could not be resumed without typing it again), and --minutes
    stays the run's unless given."""
    from azul_engine.__main__ import main

    run = str(tmp_path / "run")
    start = ["--hidden", "8", "--games", "2", "--simulations", "4", "--arena-games", "2", "--eval-games", "2",
             "--workers", "1", "--set", "games_per_job=2", "--set", "batch_size=16", "--minutes", "90"]
    assert main(["train", "-o", run, "--iterations", "1", *start]) == 0, capsys.readouterr().err
    code = main(["train", "-o", run, "--resume", "--iterations", "2", "--workers", "1"])
    out = capsys.readouterr()
    assert code == 0, out.err
    with open(os.path.join(run, "settings.json")) as f:
        saved = json.load(f)
    assert saved["minutes"] == 90 and saved["games"] == 2 and saved["hidden"] == [8] and len(_rows(run)) == 2
    code = main(["train", "-o", run, "--resume", "--iterations", "3", "--games", "3"])
    assert code == 2 and "other settings (games)" in capsys.readouterr().err


class Stop(BaseException):
    """Stands for Ctrl-C (or a crash) at some point of a run."""


def test_a_run_stopped_in_its_bootstrap_or_its_arena_goes_on_from_what_was_done(tmp_path, monkeypatch):
    """A stop during the bootstrap left settings.json without state.json: neither a new start nor --resume took
    the directory. A stop in the arena or the evaluation left the learner trained and the iteration's positions
    written with state.json an iteration behind: a resume read them and then added them again. Now state.json is
    written first, the learner and the best network with it at an iteration's end, and a resume reads only the
    positions of what state.json says is done."""
    run = str(tmp_path / "run")
    settings = train.Settings(minutes=30, **TINY)
    learn = train.Learner.train

    def stopped(*args, **kwargs):
        raise Stop()

    monkeypatch.setattr(train.Learner, "train", stopped)
    with pytest.raises(Stop):
        train.run(run, settings, workers=1, echo=False, iterations=1)
    monkeypatch.setattr(train.Learner, "train", learn)
    state = train.run(run, None, resume=True, workers=1, echo=False, iterations=1)
    assert state["iteration"] == 1 and state["bootstrapped"]
    monkeypatch.setattr(train, "versus_greedy", stopped)  # iteration 2 stops after its arena
    with pytest.raises(Stop):
        train.run(run, None, resume=True, workers=1, echo=False, iterations=2)
    monkeypatch.undo()
    with open(os.path.join(run, "state.json")) as f:
        assert json.load(f)["iteration"] == 1
    added = []
    add = train.Replay.add
    monkeypatch.setattr(train.Replay, "add", lambda self, part: (added.append(len(part["obs"])), add(self, part)))
    again = train.run(run, None, resume=True, workers=1, echo=False, iterations=2)
    assert again["iteration"] == 2 and len(_rows(run)) == 2
    # read back: the bootstrap and iteration 1; then iteration 2 played again: each once
    assert sum(added) == again["positions"]


@pytest.mark.parametrize("variant,players", [("classic", 2), ("grey", 3), ("summer-pavilion", 2),
                                             ("summer-pavilion", 4)])
def test_the_factory_permutation_is_the_position_with_its_factories_moved(engine, variant, players):
    """The augmentation renumbers a position's factories: the result must be the observation and the legal moves
    of the very position whose factories were moved so (made with from_text, the factories field permuted)."""
    import random

    permute = train.FactoryPermutation(variant, players)
    rng = np.random.default_rng(5)
    moves = random.Random(players)
    checked = 0
    for seed in range(6):
        state = engine.new_game(players, variant, seed=seed)
        for _ in range(moves.randrange(0, 6)):
            state.apply(moves.choice(state.legal_actions()))
        if state.is_over or state.is_chance_node:
            continue
        fields = state.to_text().splitlines()[0].split(" ")
        at = next(i for i, f in enumerate(fields) if f.startswith("factories="))
        factories = fields[at][len("factories="):].split(",")
        table, where = permute.tables(rng, 1)
        moved = [None] * len(factories)
        for k, f in enumerate(factories):  # factory k's draft of colour 0 to line 0 is renumbered to its new place
            moved[int(table[0][k * permute.span]) // permute.span] = f
        fields[at] = "factories=" + ",".join(moved)
        other = engine.from_text(" ".join(fields))
        legal = state.legal_actions()[:train.POLICY_TOP]
        acts = np.array([legal + [-1] * (train.POLICY_TOP - len(legal))])
        new_obs, new_mask, new_acts = permute.apply(state.observation_tensor()[None], state.legal_action_mask()[None],
                                                    acts, table, where)
        assert np.array_equal(new_obs[0], other.observation_tensor()), (variant, seed)
        assert np.array_equal(new_mask[0], other.legal_action_mask()), (variant, seed)
        assert set(new_acts[0][new_acts[0] >= 0].tolist()) <= set(other.legal_actions())
        checked += 1
    assert checked >= 3
