"""In-engine random playouts, playouts from a state, and the batched VectorGame, on both engines."""

import numpy as np
import pytest

import azul_engine
from azul_engine import bench
from helpers import Picker

PURE = azul_engine.load_backend("python")


def splitmix_output(seed, k):
    """Output k (from 1) of SplitMix64(seed), written from rules.md section 5."""
    mask = (1 << 64) - 1
    s = (seed + k * 0x9E3779B97F4A7C15) & mask
    z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & mask
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
    return z ^ (z >> 31)


def play_by_hand(engine, state, policy_seed):
    """A random playout through the public API: legal_actions()[below(count)] from SplitMix64."""
    mask = (1 << 64) - 1
    policy = policy_seed
    plies = 0
    while not state.is_over:
        legal = state.legal_actions()
        policy = (policy + 0x9E3779B97F4A7C15) & mask
        z = policy
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & mask
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
        z ^= z >> 31
        state.apply(legal[((z >> 32) * len(legal)) >> 32])
        plies += 1
    return state.scores, plies


@pytest.mark.parametrize("players,variant", [(2, "classic"), (3, "grey"), (4, "classic"), (4, "grey")])
def test_random_playouts_follow_their_documented_seeds(engine, players, variant):
    """Game i is new_game(seed=output 2i+1) played with move choices seeded by output 2i+2."""
    scores, plies = engine.random_playouts(6, players, variant, seed=42, with_plies=True)
    assert scores.shape == (6, players) and scores.dtype == np.int32
    total = 0
    for i in range(6):
        game = engine.new_game(players, variant, seed=splitmix_output(42, 2 * i + 1))
        expected, n = play_by_hand(engine, game, splitmix_output(42, 2 * i + 2))
        assert scores[i].tolist() == expected
        total += n
    assert plies == total


@pytest.mark.parametrize("players,variant", [(2, "classic"), (2, "grey"), (3, "classic"), (4, "grey")])
def test_random_playouts_agree_with_the_pure_engine_and_across_thread_counts(engine, players, variant):
    reference = PURE.random_playouts(30, players, variant, seed=7)
    for threads in (1, 2, 3, 0):
        assert (engine.random_playouts(30, players, variant, seed=7, threads=threads) == reference).all()


def test_playouts_from_a_state_agree_everywhere(engine):
    start_py, start = PURE.new_game(3, "grey", seed=11), engine.new_game(3, "grey", seed=11)
    pick = Picker(3)
    for _ in range(25):
        move = pick.choice(start.legal_actions())
        start.apply(move)
        start_py.apply(move)
    before = start.to_text(history=True)
    reference = PURE.playouts_from(start_py, 20, seed=5)
    for threads in (1, 2):
        assert (engine.playouts_from(start, 20, seed=5, threads=threads) == reference).all()
    assert start.to_text(history=True) == before  # the state itself is not played
    first = start.clone()
    first.reseed(splitmix_output(5, 1))
    assert reference[0].tolist() == play_by_hand(engine, first, splitmix_output(5, 2))[0]


def test_playouts_from_an_explicit_chance_state_draw_from_the_generator(engine):
    """Chance nodes of an explicit-chance state are sampled as in sampled mode."""
    state = engine.new_game(2, chance="explicit", seed=1)
    scores = engine.playouts_from(state, 10, seed=3)
    assert (scores == PURE.playouts_from(PURE.new_game(2, chance="explicit", seed=1), 10, seed=3)).all()
    assert len({tuple(row) for row in scores.tolist()}) > 1  # different continuations


def test_playout_arguments_are_checked(engine):
    with pytest.raises(ValueError, match="players must be 2, 3 or 4"):
        engine.random_playouts(3, players=5)
    with pytest.raises(ValueError, match="unknown variant"):
        engine.random_playouts(3, variant="gray")
    with pytest.raises(ValueError, match="n must be 0 or more"):
        engine.random_playouts(-1)
    with pytest.raises(TypeError, match="n must be an int"):
        engine.random_playouts(2.5)
    with pytest.raises(TypeError, match="state must be a GameState or PavilionState of the .* engine .*, not str$"):
        engine.playouts_from("azul", 3)
    assert engine.random_playouts(0).shape == (0, 2)


ENGINE_NAMES = {"python": "the pure-Python engine (azul_engine._pyengine)",
                "cpp": "the C++ engine (azul_engine._cppengine)"}


@pytest.mark.parametrize("variant", ["classic", "summer-pavilion"])
def test_the_other_engines_state_is_refused_by_name(engines, variant):
    """Each engine's playouts_from and search, given the other engine's state, name both engines (issue 23)."""
    by_name = dict(zip(("python", "cpp"), engines))
    for mine, theirs in (("python", "cpp"), ("cpp", "python")):
        engine, other = by_name[mine], by_name[theirs]
        state = other.new_game(variant=variant)
        kind = type(state).__name__
        expected = "state must be a GameState or PavilionState of %s, not a %s of %s" % (
            ENGINE_NAMES[mine], kind, ENGINE_NAMES[theirs])
        with pytest.raises(TypeError) as raised:
            engine.playouts_from(state, 1)
        assert str(raised.value) == expected
        with pytest.raises(TypeError) as raised:
            engine.search(state, iterations=1)
        assert str(raised.value) == "search: " + expected


def test_bench_checksums_are_pinned():
    """The rules' signature: if a checksum changes, the rules changed (update it only for a rules change)."""
    assert {(p, v): bench.checksum(PURE, p, v, games=50) for p, v in bench.CONFIGS} == PINNED


PINNED = {
    (2, "classic"): "c3ebcbcd70ec88bf",
    (2, "grey"): "118873e26ef52bed",
    (4, "classic"): "a38279208ec22c0a",
    (4, "grey"): "ac7eacec4034d02e",
    (2, "summer-pavilion"): "a24062aaf1ea502c",
    (4, "summer-pavilion"): "099474972e87ef38",
}


def test_bench_checksums_agree_between_engines(engine):
    for players, variant in bench.CONFIGS:
        assert bench.checksum(engine, players, variant, games=50) == bench.checksum(PURE, players, variant, games=50)


# -- VectorGame ----------------------------------------------------------------------------------------------

@pytest.mark.parametrize("variant", ["grey", "summer-pavilion"])
def test_vector_game_agrees_with_single_games(engine, variant):
    """Each slot of a VectorGame is the game new_game(seed=output j+1) stepped alone with the same actions."""
    n = 6
    vec = engine.VectorGame(n, 3, variant, seed=9)
    singles = [engine.new_game(3, variant, seed=splitmix_output(9, i + 1)) for i in range(n)]
    pick = Picker(9)
    for _ in range(400):
        for i, g in enumerate(singles):
            legal = g.legal_actions()
            assert vec.done[i] == g.is_over
            assert vec.current_player[i] == g.current_player
            assert vec.scores[i].tolist() == g.scores
            assert vec.num_legal[i] == len(legal)
            assert vec.legal_actions[i, :len(legal)].tolist() == legal
            assert (vec.legal_actions[i, len(legal):] == -1).all()
            assert np.flatnonzero(vec.legal_mask[i]).tolist() == legal
        if vec.done.all():
            break
        actions = np.array([pick.choice(g.legal_actions()) if not g.is_over else -1 for g in singles])
        result = vec.step(actions)
        assert result[3] is not None and len(result) == 4
        for g, a in zip(singles, actions):
            if not g.is_over:
                g.apply(int(a))
    assert vec.done.all()
    assert vec.state(2) == engine.from_text(singles[2].to_text())
    assert vec.legal_mask.shape[1] == (engine.SP_NUM_ACTIONS if variant == "summer-pavilion" else engine.NUM_ACTIONS)


@pytest.mark.parametrize("variant", ["classic", "summer-pavilion"])
def test_vector_game_agrees_between_engines(engine, variant):
    a, b = PURE.VectorGame(5, 2, variant, seed=3), engine.VectorGame(5, 2, variant, seed=3)
    rng = np.random.default_rng(0)
    for step in range(300):
        for name in ("legal_mask", "legal_actions", "num_legal", "current_player", "scores", "done"):
            assert (getattr(a, name) == getattr(b, name)).all(), name
        if step == 100:
            a.reset([4, 0])
            b.reset([4, 0])
        pick = (rng.random(5) * np.maximum(a.num_legal, 1)).astype(np.int64)
        actions = a.legal_actions[np.arange(5), pick]
        a.step(actions)
        b.step(actions)
    assert (a.observation_tensors() == b.observation_tensors()).all()


def test_pavilion_vector_game_refuses_an_illegal_action(engine):
    vec = engine.VectorGame(2, 2, "summer-pavilion", seed=1)
    with pytest.raises(engine.IllegalMoveError, match="game 1: action 1800 is out of range 0-1797"):
        vec.step(np.array([vec.legal_actions[0, 0], 1800]))
    with pytest.raises(engine.IllegalMoveError, match="^game 0: phase 1 \\(acquire\\)"):
        vec.step(np.array([1578, vec.legal_actions[1, 0]]))
    assert (vec.num_legal > 0).all() and vec.state(0).moves_this_round == 0


def test_vector_game_refuses_an_illegal_action_and_moves_no_game(engine):
    vec = engine.VectorGame(3, seed=1)
    before = [vec.state(i).to_text() for i in range(3)]
    actions = np.array([vec.legal_actions[0, 0], vec.legal_actions[1, 0], 299])
    legal_row = vec.legal_mask[2].copy()
    if legal_row[299]:
        pytest.skip("action 299 happens to be legal")
    with pytest.raises(engine.IllegalMoveError, match="^game 2: "):
        vec.step(actions)
    assert [vec.state(i).to_text() for i in range(3)] == before
    with pytest.raises(engine.IllegalMoveError, match="game 0: action 400 is out of range 0-313"):
        vec.step(np.array([400, 0, 0]))
    with pytest.raises(ValueError, match="actions must be 3 integers"):
        vec.step(np.zeros(3))
    with pytest.raises(ValueError, match="actions must be 3 integers"):
        vec.step([1, 2])
    with pytest.raises(IndexError, match="game 3 is out of range 0-2"):
        vec.reset([0, 3])
    assert [vec.state(i).to_text() for i in range(3)] == before


def test_vector_game_arrays_are_read_only_views(engine):
    vec = engine.VectorGame(2, seed=1)
    with pytest.raises(ValueError):
        vec.legal_mask[0, 0] = True
    with pytest.raises(ValueError):
        vec.scores[0, 0] = 99
    mask = vec.legal_mask
    vec.step(np.array([vec.legal_actions[0, 0], vec.legal_actions[1, 0]]))
    assert (mask == vec.legal_mask).all()  # a view follows the games


def test_vector_game_reset_takes_the_next_seeds(engine):
    vec = engine.VectorGame(2, seed=4)
    vec.reset([1])
    assert vec.state(1) == engine.new_game(2, seed=splitmix_output(4, 3))
    vec.reset()
    assert vec.state(0) == engine.new_game(2, seed=splitmix_output(4, 4))
    assert vec.state(1) == engine.new_game(2, seed=splitmix_output(4, 5))


@pytest.mark.slow
def test_vector_game_stepped_from_two_threads_stays_consistent(engine):
    """The C++ step releases Python's lock: a second thread stepping or resetting meanwhile is refused
    ("busy") or sees a finished step, and no game is ever left half-changed."""
    import threading

    vec = engine.VectorGame(512, 2, "classic", seed=2)
    rows = np.arange(512)
    outcomes = []

    def worker(seed):
        rng = np.random.default_rng(seed)
        for _ in range(40):
            try:
                if vec.done.any():
                    vec.reset(np.flatnonzero(vec.done))
                pick = (rng.random(512) * np.maximum(vec.num_legal, 1)).astype(np.int64)
                vec.step(vec.legal_actions[rows, pick])
                outcomes.append("stepped")
            except engine.IllegalMoveError:
                outcomes.append("stale")  # the other thread moved first
            except ValueError as e:
                assert "busy" in str(e)
                outcomes.append("busy")

    threads = [threading.Thread(target=worker, args=(s,)) for s in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert "stepped" in outcomes
    for i in range(512):
        state = vec.state(i)  # from_text checks tile totals, walls and lines
        assert np.flatnonzero(vec.legal_mask[i]).tolist() == state.legal_actions()


def test_a_game_copied_out_of_a_vector_plays_on(engine):
    vec = engine.VectorGame(2, 2, "grey", seed=0)
    assert engine.VectorGame(0, variant="grey").variant == "grey"
    for _ in range(5):
        vec.step(vec.legal_actions[:, 0])
    state = vec.state(0)
    state.apply(state.legal_actions()[0])
    assert engine.playouts_from(state, 2, seed=1).shape == (2, 2)
