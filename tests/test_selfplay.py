"""Self-play data sets (azul_engine.selfplay, the selfplay command) and the local executors
(azul_engine.distributed): shards read back and checked against a replay of the same games, the same bytes for
any number of workers, MCTS visit counts. The Ray side is in test_ray.py."""

import json
import os

import numpy as np
import pytest

import azul_engine
from azul_engine import bots, distributed, selfplay, tournament
from azul_engine.__main__ import main

CI = os.environ.get("CI", "").strip().lower() not in ("", "0", "false")


def _pyarrow():
    try:
        import pyarrow  # noqa: F401
        import pyarrow.parquet as pq
    except ImportError:
        if CI:
            raise
        pytest.skip("pyarrow is not installed (pip install 'azul-engine[data]')")
    return pq


def backend_name(engine):
    return "python" if engine is azul_engine.load_backend("python") else "cpp"


def shards(directory):
    return sorted(p for p in os.listdir(directory) if p.startswith("part-"))


def columns_of(directory, fmt):
    """Every shard of a run, concatenated: a dict of numpy arrays (visits as a 2-D array, None rows as -1)."""
    if fmt == "npz":
        parts = [selfplay.read_npz(os.path.join(directory, name)) for name in shards(directory)]
        out = {k: np.concatenate([p[k] for p in parts]) for k in parts[0] if k != "meta"}
        out["visits"] = np.where(out["has_visits"][:, None], out["visits"], -1)
        return out, [p["meta"] for p in parts]
    pq = _pyarrow()
    tables = [pq.read_table(os.path.join(directory, name)) for name in shards(directory)]
    metas = [json.loads(t.schema.metadata[b"azul-selfplay"]) for t in tables]
    import pyarrow as pa
    table = pa.concat_tables(tables)
    out = {}
    for name in table.column_names:
        col = table.column(name).combine_chunks()
        if pa.types.is_fixed_size_list(col.type):
            size = col.type.list_size
            if name == "visits":
                valid = col.is_valid().to_numpy(zero_copy_only=False)
                flat = col.fill_null([-1] * size) if not valid.all() else col
                out[name] = flat.flatten().to_numpy(zero_copy_only=False).reshape(-1, size)
                out["has_visits"] = valid
            else:
                out[name] = col.flatten().to_numpy(zero_copy_only=False).reshape(-1, size)
        else:
            out[name] = col.to_numpy(zero_copy_only=False)
    return out, metas


def check_against_replay(engine, cols, specs, players, variant, seed, games, iterations):
    """Every row is what a replay of the same game shows: the same observation, mask, player, round; the
    action legal; the visit counts those of an MCTS search (summing to its iterations, the action the most
    visited); the game the one `record` writes for that seed; the outcome the replay's."""
    assert sorted(set(cols["game"].tolist())) == list(range(games))
    assert list(cols["game"]) == sorted(cols["game"])  # in game order
    for g in range(games):
        rows = np.flatnonzero(cols["game"] == g)
        seats = selfplay.game_seats(specs, players, g)
        assert cols["seed"][rows[0]] == seed + g
        state = engine.new_game(players=players, variant=variant, seed=seed + g)
        for ply, r in enumerate(rows):
            assert cols["ply"][r] == ply and cols["player"][r] == state.current_player
            assert cols["round"][r] == state.round and cols["bot"][r] == seats[state.current_player]
            assert np.array_equal(cols["observation"][r], state.observation_tensor())
            assert np.array_equal(cols["legal_mask"][r], state.legal_action_mask())
            action = int(cols["action"][r])
            assert action in state.legal_actions()
            visits = cols["visits"][r]
            if seats[state.current_player].startswith("mcts") and len(state.legal_actions()) > 1:
                assert visits.sum() == iterations and visits[action] == visits.max()
                assert not visits[~cols["legal_mask"][r]].any()  # only legal actions are searched
            else:
                assert (visits == -1).all()  # no search: null
            state.apply(action)
        assert state.is_over
        expected = tournament.play_game(backend_name(engine), players, variant, seed + g, seats)
        expected_record = json.loads(expected[0])
        assert [b["spec"] for b in expected_record.pop("bots")] == list(seats)
        assert json.loads(state.record_json()) == expected_record  # the same game; the record says who played
        winners = state.winners
        returns = [(1.0 if len(winners) == 1 else 0.0) if p in winners else -1.0 for p in range(players)]
        for r in rows:
            assert list(cols["final_scores"][r]) == state.scores
            assert list(cols["returns"][r]) == returns
            assert cols["return"][r] == returns[cols["player"][r]]


@pytest.mark.slow
@pytest.mark.parametrize("fmt", ["parquet", "npz"])
def test_selfplay_shards_read_back_as_a_replay_of_the_same_games(engine, tmp_path, fmt):
    if fmt == "parquet":
        _pyarrow()
    specs, players, seed, games = ["mcts:12", "greedy"], 2, 40, 5
    with distributed.LocalExecutor(1) as ex:
        result = selfplay.run(specs, games, str(tmp_path), players=players, seed=seed, fmt=fmt, executor=ex,
                              backend=backend_name(engine), shard_games=2)
    assert shards(tmp_path) == ["part-00000.%s" % fmt, "part-00001.%s" % fmt, "part-00002.%s" % fmt]
    cols, metas = columns_of(str(tmp_path), fmt)
    assert result.rows == len(cols["action"]) and result.games == games
    assert [m["shard"] for m in metas] == [0, 1, 2] and [m["first_game"] for m in metas] == [0, 2, 4]
    assert metas[0]["observation_size"] == cols["observation"].shape[1] == engine.observation_shape(2)[0]
    assert metas[0]["num_actions"] == cols["legal_mask"].shape[1] == engine.NUM_ACTIONS
    check_against_replay(engine, cols, specs, players, "classic", seed, games, iterations=12)


@pytest.mark.parametrize("variant, players", [("summer-pavilion", 2), ("grey", 3)])
def test_selfplay_of_other_variants_reads_back_too(tmp_path, variant, players):
    engine = azul_engine.load_backend(azul_engine.BACKEND)
    specs = ["mcts:5"] if variant == "grey" else ["random", "mcts:5"]
    with distributed.LocalExecutor(1) as ex:
        selfplay.run(specs, 2, str(tmp_path), players=players, variant=variant, seed=3, fmt="npz", executor=ex)
    cols, metas = columns_of(str(tmp_path), "npz")
    if variant == "summer-pavilion":
        assert cols["legal_mask"].shape[1] == engine.SP_NUM_ACTIONS
    check_against_replay(engine, cols, specs, players, variant, 3, 2, iterations=5)


@pytest.mark.slow
@pytest.mark.parametrize("fmt", ["parquet", "npz"])
def test_selfplay_writes_the_same_bytes_for_any_number_of_workers(tmp_path, fmt):
    if fmt == "parquet":
        _pyarrow()
    outputs = []
    for workers, chunk in ((1, None), (2, 1), (2, 3)):
        out = tmp_path / ("w%d-%s" % (workers, chunk))
        ex = distributed.LocalExecutor(workers)
        original = ex.map
        ex.map = lambda fn, jobs, chunksize=None, count=None: original(fn, jobs, chunk, count)
        with ex:
            selfplay.run("mcts:8,random", 7, str(out), seed=11, fmt=fmt, executor=ex, shard_games=3)
        outputs.append([(name, (out / name).read_bytes()) for name in shards(out)])
    assert len(outputs[0]) == 3
    assert outputs[0] == outputs[1] == outputs[2]


def test_mcts_exposes_its_last_search_visits(engine):
    state = engine.new_game(players=2, seed=5)
    bot = bots.MCTSBot(seed=1, iterations=30)
    assert bot.last_visits is None
    action = bot.choose(state)
    visits = bot.last_visits
    assert sum(visits.values()) == 30 and set(visits) <= set(state.legal_actions())
    assert visits[action] == max(visits.values())
    bot.choose(state)  # a second search: its own counts, not added to the first's
    assert sum(bot.last_visits.values()) == 30


def test_executors_give_results_in_job_order():
    jobs = [(2, k) for k in range(40)]
    expected = [2 ** k for k in range(40)]
    with distributed.LocalExecutor(1) as one, distributed.LocalExecutor(2) as two:
        assert list(one.map(pow, jobs)) == expected
        for size in (1, 3, 64):
            assert list(two.map(pow, jobs, size)) == expected
    assert distributed.chunk_size(10, 2) == 1 and distributed.chunk_size(10 ** 6, 2) == distributed.MAX_CHUNK


def test_selfplay_command(tmp_path, capsys):
    _pyarrow()
    out = tmp_path / "data"
    assert main(["selfplay", "--bots", "greedy", "--games", "3", "--seed", "7", "--workers", "1",
                 "-o", str(out)]) == 0
    line = capsys.readouterr().out
    assert line.startswith(f"{out}: ") and " in 1 shard; 3 games in " in line and "1 worker (local)" in line
    cols, metas = columns_of(str(out), "parquet")
    assert metas[0]["bots"] == ["greedy"] and metas[0]["seed"] == 7
    assert int(line.split(": ")[1].split()[0]) == len(cols["action"])  # the rows it says it wrote
    # a directory that holds shards already is refused, not mixed with a second run
    assert main(["selfplay", "--bots", "greedy", "--games", "1", "-o", str(out)]) == 2
    assert capsys.readouterr().err == (f"azul-engine selfplay: {out} already holds shards (part-00000.parquet): "
                                       "give a new or empty directory, or --resume the run\n")


@pytest.mark.parametrize("argv, message", [
    (["--bots", "nobot"], "unknown bot 'nobot'"),
    (["--bots", "random", "--games", "0"], "argument --games: must be positive: 0"),
    (["--bots", "random", "--format", "csv"], "argument --format: invalid choice: 'csv'"),
    (["--bots", "random", "--seed", str(2 ** 64 - 1), "--games", "2"], "pass 2**64-1"),
    (["--bots", "random", "--workers", str(10 ** 6)], "workers must be a whole number from 1 to"),
])
def test_selfplay_refuses_bad_arguments_in_one_line(tmp_path, capsys, argv, message):
    out = tmp_path / "d"
    try:
        code = main(["selfplay", "-o", str(out), "--format", "npz", *argv])
    except SystemExit as e:
        code = e.code
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and err.startswith("azul-engine selfplay: ") and message in err, err
    assert not out.exists() or not os.listdir(out)


def test_parquet_without_pyarrow_says_what_to_install(tmp_path, capsys, monkeypatch):
    import sys
    monkeypatch.setitem(sys.modules, "pyarrow", None)  # import pyarrow raises ImportError
    assert main(["selfplay", "--bots", "random", "-o", str(tmp_path / "d")]) == 2
    err = capsys.readouterr().err
    assert err == ("azul-engine selfplay: --format parquet needs pyarrow: pip install 'azul-engine[data]' "
                   "(or use --format npz)\n")


def test_ray_without_ray_says_what_to_install(tmp_path, capsys, monkeypatch):
    import sys
    monkeypatch.setitem(sys.modules, "ray", None)
    for argv in (["record", "-o", str(tmp_path / "r.jsonl")], ["tournament", "--bots", "random,greedy"],
                 ["selfplay", "--bots", "random", "--format", "npz", "-o", str(tmp_path / "d")]):
        assert main(argv + ["--ray"]) == 2
        assert capsys.readouterr().err == f"azul-engine {argv[0]}: --ray needs the ray package: pip install 'azul-engine[ray]'\n"


@pytest.mark.slow
def test_record_with_workers_writes_the_same_file(tmp_path, capsys):
    files = []
    for workers in ("1", "2"):
        out = tmp_path / f"r{workers}.jsonl"
        assert main(["record", "--games", "5", "--seed", "9", "--bot", "greedy", "--workers", workers,
                     "-o", str(out)]) == 0
        files.append(out.read_bytes())
        assert f"5 games in " in capsys.readouterr().out
    assert files[0] == files[1] and files[0].count(b"\n") == 5


def test_pandas_and_polars_read_the_shards(tmp_path):
    _pyarrow()
    with distributed.LocalExecutor(1) as ex:
        summary = selfplay.run("mcts:5,greedy", 3, str(tmp_path), seed=8, executor=ex, shard_games=2)
    cols, _ = columns_of(str(tmp_path), "parquet")
    try:
        import pandas
    except ImportError:
        if CI:
            raise
        pandas = None
    if pandas is not None:
        df = pandas.read_parquet(str(tmp_path))
        assert len(df) == summary.rows and list(df.columns) == list(selfplay.COLUMNS)
        assert np.array_equal(np.stack(df["observation"].to_numpy()), cols["observation"])
        assert df["visits"].isna().to_numpy().tolist() == (~cols["has_visits"]).tolist()
    polars = pytest.importorskip("polars")  # optional: read if installed
    frame = polars.read_parquet(os.path.join(str(tmp_path), "*.parquet"))
    assert frame.height == summary.rows and frame.columns == list(selfplay.COLUMNS)
    assert frame["action"].to_list() == cols["action"].tolist()
    assert np.array_equal(np.array(frame["legal_mask"].to_list()), cols["legal_mask"])


@pytest.mark.parametrize("fmt", ["parquet", "npz"])
def test_an_interrupted_selfplay_leaves_only_complete_shards(tmp_path, fmt):
    if fmt == "parquet":
        _pyarrow()
    full, cut = tmp_path / "full", tmp_path / "cut"
    with distributed.LocalExecutor(1) as ex:
        selfplay.run("random", 7, str(full), fmt=fmt, executor=ex, shard_games=2)

    def interrupt(done):
        if done == 5:  # two shards written, the third half filled
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt), distributed.LocalExecutor(1) as ex:
        selfplay.run("random", 7, str(cut), fmt=fmt, executor=ex, shard_games=2, progress=interrupt)
    assert sorted(os.listdir(cut)) == ["_manifest.json", "part-00000.%s" % fmt, "part-00001.%s" % fmt]  # no .tmp
    for name in shards(cut):
        assert (cut / name).read_bytes() == (full / name).read_bytes()
    manifest = json.loads((cut / "_manifest.json").read_text())
    assert not manifest["complete"] and [e["file"] for e in manifest["shards"]] == shards(cut)
    # --resume: the finished shards are kept, the rest played; the directory is then the uninterrupted run's
    kept = {name: os.stat(cut / name).st_mtime_ns for name in shards(cut)}
    with distributed.LocalExecutor(1) as ex:
        summary = selfplay.run("random", 7, str(cut), fmt=fmt, executor=ex, shard_games=2, resume=True)
    assert summary.resumed == 2 and summary.played == 3 and len(summary.shards) == 4
    assert {name: os.stat(cut / name).st_mtime_ns for name in kept} == kept
    assert sorted(os.listdir(cut)) == sorted(os.listdir(full))
    for name in os.listdir(full):
        assert (cut / name).read_bytes() == (full / name).read_bytes(), name
    assert json.loads((cut / "_manifest.json").read_text())["complete"]


def test_resume_refuses_a_run_of_other_arguments_and_shards_without_a_manifest(tmp_path, capsys):
    from azul_engine.__main__ import main

    run = tmp_path / "run"
    selfplay.run("random", 3, str(run), fmt="npz", executor=_serial(), shard_games=2)
    with pytest.raises(ValueError, match=r"holds a run with other arguments \(seed 0\): resume it with the same"):
        selfplay.run("random", 3, str(run), fmt="npz", executor=_serial(), shard_games=2, seed=5, resume=True)
    # a finished run resumed plays nothing and writes nothing new
    again = selfplay.run("random", 3, str(run), fmt="npz", executor=_serial(), shard_games=2, resume=True)
    assert again.played == 0 and again.resumed == 2 and again.rows > 0
    os.remove(run / "_manifest.json")
    with pytest.raises(ValueError, match="holds shards but no _manifest.json"):
        selfplay.run("random", 3, str(run), fmt="npz", executor=_serial(), shard_games=2, resume=True)
    code = main(["selfplay", "--bots", "random", "--games", "3", "--format", "npz", "-o", str(run)])
    assert code == 2 and "already holds shards (part-00000.npz): give a new or empty directory, or --resume" in (
        capsys.readouterr().err)


def test_a_manifest_the_user_had_is_not_replaced(tmp_path, capsys):
    """selfplay -o DIR replaced a DIR/_manifest.json the user had (issue 38): a directory with a _manifest.json
    that is not one of a run of this command that wrote no shard is refused, by the command and by run(), as one
    with shards is; the manifest of a run stopped before its first shard is replaced."""
    from azul_engine.__main__ import main

    run = tmp_path / "run"
    run.mkdir()
    mine = b'{"my": "notes"}\n'
    (run / "_manifest.json").write_bytes(mine)
    code = main(["selfplay", "--bots", "random", "--games", "2", "--format", "npz", "-o", str(run)])
    assert code == 2 and capsys.readouterr().err == (
        f"azul-engine selfplay: {run} already holds a _manifest.json of its own: give a new or empty directory, or "
        "--resume the run\n")
    with pytest.raises(ValueError, match="already holds a _manifest.json of its own: give a new or empty directory"):
        selfplay.run("random", 2, str(run), fmt="npz", executor=_serial())
    assert (run / "_manifest.json").read_bytes() == mine and os.listdir(run) == ["_manifest.json"]
    # a run that wrote no shard: its manifest says so, and a new run may take the directory
    (run / "_manifest.json").write_text(json.dumps({"format": "azul-selfplay", "complete": False, "shards": []}))
    assert selfplay.run("random", 2, str(run), fmt="npz", executor=_serial()).rows > 0
    assert json.loads((run / "_manifest.json").read_text())["complete"] is True


def test_shards_are_game_ranges_whatever_is_left_out(tmp_path, monkeypatch):
    """Shard k holds games k*N to k*N+N-1, those played out; a forfeited game is named in its shard's metadata
    (so that a resumed run still reports it), and a shard whose games were all left out is written empty."""
    (tmp_path / "mybots.py").write_text(BOTS)
    monkeypatch.syspath_prepend(str(tmp_path))
    summary = selfplay.run("greedy,mybots:NoSeatOne", 5, str(tmp_path / "d"), fmt="npz", executor=_serial(),
                           shard_games=2)
    # NoSeatOne fails wherever it sits at seat 1: games 0, 2 and 4 (the seatings alternate)
    assert [f.split(",")[0] for f in summary.forfeits] == ["game 0", "game 2", "game 4"]
    metas = [selfplay.read_npz(p)["meta"] for p in summary.shards]
    assert [(m["first_game"], m["shard_games"]) for m in metas] == [(0, 1), (2, 1), (4, 0)]
    assert [len(m.get("left_out", [])) for m in metas] == [1, 1, 1]
    assert [sorted(set(selfplay.read_npz(p)["game"])) for p in summary.shards] == [[1], [3], []]


BOTS = '''
from azul_engine.bots import GreedyBot


class Meddles(GreedyBot):
    """Moves the state it is shown (a copy: the game goes on unharmed), then answers in notation."""
    def choose(self, state):
        move = state.action_to_string(super().choose(state))
        state.apply(move)
        return move


class NoSeatOne(GreedyBot):
    def reset(self, seat, seed):
        if seat == 1:
            raise ValueError("seat 1 is not mine")
        return super().reset(seat, seed)


class FailsLate(GreedyBot):
    def choose(self, state):
        if state.round > 1:
            raise RuntimeError("tired")
        return super().choose(state)
'''


def test_bots_see_a_copy_may_answer_in_notation_and_a_failing_one_is_left_out(tmp_path, monkeypatch, capsys):
    """A bot that moves the state it is shown changed the game (rows whose actions broke their own legal_mask);
    an answer in notation (every external bot's) stopped the run (int('4R4')); a bot that raised was a
    traceback.  Now: a copy, notation read, and a failing bot's game left out and named."""
    import numpy as np

    from azul_engine import selfplay
    from azul_engine.__main__ import main

    (tmp_path / "mybots.py").write_text(BOTS)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setenv("PYTHONPATH", str(tmp_path))
    ref = selfplay.run("greedy", 2, str(tmp_path / "ref"), fmt="npz", executor=_serial())
    meddled = selfplay.run("mybots:Meddles", 2, str(tmp_path / "meddled"), fmt="npz", executor=_serial())
    a, b = (np.load(s.shards[0])["action"] for s in (ref, meddled))
    assert ref.rows == meddled.rows and (a == b).all() and meddled.forfeits == []
    code = main(["selfplay", "--bots", "greedy,mybots:FailsLate", "--games", "3", "--format", "npz",
                 "--workers", "1", "-o", str(tmp_path / "late")])
    out, err = capsys.readouterr()
    assert code == 1 and "Traceback" not in err
    assert err.count("left out game ") == 3 and "(mybots:FailsLate): raised RuntimeError: tired" in err
    assert out.rstrip().endswith("3 left out: a bot forfeited")
    assert "0 rows in 1 shard;" in out  # written empty: its metadata names the games left out
    summary = selfplay.run("greedy,mybots:NoSeatOne", 2, str(tmp_path / "seat"), fmt="npz", executor=_serial())
    assert summary.forfeits == ["game 0, seat 1 (mybots:NoSeatOne): could not be made: ValueError: seat 1 is not mine"]
    assert summary.rows > 0  # game 1 seats it at 0


def _serial():
    from azul_engine import distributed

    return distributed.LocalExecutor(1)
