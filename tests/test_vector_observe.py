"""VectorGame's observations into the caller's buffer (``observation_tensors(out=, games=, threads=)``) and the
threaded step (``step(actions, threads=)``), in both engines: what the Gymnasium vector environment is built
on. The same values as one game at a time, the same games for every thread count, the same errors."""

import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

VARIANTS = ["classic", "grey", "summer-pavilion"]


def random_actions(v, rng):
    pick = (rng.random(v.n) * v.num_legal).astype(np.int64)
    return v.legal_actions[np.arange(v.n), pick]


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("players", [2, 4])
def test_observations_into_a_buffer_are_each_games_own(engine, variant, players):
    v = engine.VectorGame(5, players, variant, seed=3)
    size = engine.game_info(variant=variant, players=players).observation_shape[0]
    out = np.full((5, size), 7.0, dtype=np.float32)
    rng = np.random.default_rng(4)
    for _ in range(40):
        assert v.observation_tensors(out=out) is out
        for i in range(5):
            game = v.state(i)
            seat = game.current_player if game.current_player >= 0 else 0
            np.testing.assert_array_equal(out[i], game.observation_tensor(seat))
        np.testing.assert_array_equal(v.observation_tensors(), out)
        v.step(random_actions(v, rng))


def test_only_the_flagged_rows_are_written(engine):
    v = engine.VectorGame(4, seed=1)
    full = v.observation_tensors()
    out = np.full_like(full, -1.0)
    games = np.array([True, False, False, True])
    v.observation_tensors(out, games=games)
    np.testing.assert_array_equal(out[games], full[games])
    assert (out[~games] == -1.0).all()
    new = v.observation_tensors(games=games)  # a new array: the rows left out are zeros, not left-over memory
    np.testing.assert_array_equal(new[games], full[games])
    assert (new[~games] == 0.0).all()


@pytest.mark.slow
@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("auto_reset", [False, True, "next_step"])
def test_a_threaded_step_gives_the_one_thread_games(engine, variant, auto_reset):
    """Two vectors stepped with the same actions, one on 1 thread and one on 3 (0: every core), stay equal in
    every array, games started by auto_reset included; the observations too."""
    n = 70  # more than two of the C++ engine's blocks of games
    one = engine.VectorGame(n, 3, variant, seed=5, auto_reset=auto_reset)
    many = engine.VectorGame(n, 3, variant, seed=5, auto_reset=auto_reset)
    rng = np.random.default_rng(6)
    ended = 0
    for step in range(150):
        actions = random_actions(one, rng)
        one.step(actions)
        many.step(actions, threads=(3, 0)[step % 2])
        for name in ("legal_mask", "legal_actions", "num_legal", "current_player", "scores", "done",
                     "final_scores", "final_returns"):
            np.testing.assert_array_equal(getattr(one, name), getattr(many, name), err_msg=name)
        ended += int(one.done.sum())
        if not auto_reset and one.done.any():
            one.reset(one.done)
            many.reset(many.done)
    np.testing.assert_array_equal(one.observation_tensors(threads=2), many.observation_tensors(threads=1))
    assert [one.state(i) for i in range(n)] == [many.state(i) for i in range(n)]
    assert ended > 0


def test_both_engines_write_the_same_observations(engines):
    py, cpp = engines
    n = 70  # the C++ engine writes on 3 threads (one a block of 32 games)
    a, b = py.VectorGame(n, 3, "summer-pavilion", 2), cpp.VectorGame(n, 3, "summer-pavilion", 2)
    rng = np.random.default_rng(0)
    for _ in range(60):
        actions = random_actions(a, rng)
        a.step(actions)
        b.step(actions, threads=2)
        np.testing.assert_array_equal(a.observation_tensors(), b.observation_tensors(threads=2))


BAD = [
    (dict(out=[[0.0]]), TypeError, "observation_tensors: out must be a numpy float32 array of shape (3, 384), not list"),
    (dict(out=np.zeros((3, 384))), ValueError,
     "observation_tensors: out must be a float32 array of shape (3, 384), not shape (3, 384) of float64"),
    (dict(out=np.zeros((2, 384), np.float32)), ValueError,
     "observation_tensors: out must be a float32 array of shape (3, 384), not shape (2, 384) of float32"),
    (dict(out=np.zeros((384, 3), np.float32).T), ValueError,
     "observation_tensors: out must be C-contiguous (np.ascontiguousarray)"),
    (dict(games=[True, True, True]), TypeError,
     "observation_tensors: games must be a numpy bool array of shape (3,), not list"),
    (dict(games=np.ones(4, bool)), ValueError,
     "observation_tensors: games must be a numpy bool array of shape (3,), not shape (4,)"),
    (dict(threads=-1), ValueError, "threads must be 0 or more, got -1"),
    (dict(threads=1.5), TypeError, "threads must be an int, not float"),
]


@pytest.mark.parametrize("kwargs,error,message", BAD, ids=[str(i) for i in range(len(BAD))])
def test_bad_buffers_get_the_same_error_in_both_engines(engine, kwargs, error, message):
    v = engine.VectorGame(3, seed=1)
    with pytest.raises(error) as info:
        v.observation_tensors(**kwargs)
    assert str(info.value) == message


def test_a_read_only_buffer_is_refused_and_left_alone(engine):
    v = engine.VectorGame(3, seed=1)
    out = np.zeros((3, 384), np.float32)
    out.flags.writeable = False
    with pytest.raises(ValueError, match="observation_tensors: out is read-only"):
        v.observation_tensors(out)
    assert not out.any()


UNALIGNED = (" must be aligned for float32 (its address a multiple of 4, as numpy's own arrays are): "
             "np.require(..., requirements='A') gives an aligned copy")


def unaligned(shape, dtype=np.float32):
    """A writable C-contiguous array of zeros whose data starts one byte past an aligned address."""
    raw = np.zeros(int(np.prod(shape)) * np.dtype(dtype).itemsize + 1, np.uint8)
    out = raw[1:].view(dtype).reshape(shape)
    assert out.flags.c_contiguous and out.flags.writeable and not out.flags.aligned
    return out


def test_an_unaligned_buffer_is_refused_and_left_alone(engine):
    """The C++ engine writes observations and rewards through float*: a buffer whose address is not a multiple of
    4 was written anyway (undefined behaviour, a misaligned store under UBSan, issue 38). Both engines refuse it
    with the same words, before anything moves; an unaligned array of actions is read (numpy copies it)."""
    v = engine.VectorGame(3, seed=1)
    before = [v.state(i) for i in range(3)]
    out = unaligned((3, 384))
    with pytest.raises(ValueError) as info:
        v.observation_tensors(out)
    assert str(info.value) == "observation_tensors: out" + UNALIGNED
    actions = v.legal_actions[:, 0].astype(np.int64)
    for kwargs, what in ((dict(observations=unaligned((3, 384))), "step: observations"),
                         (dict(rewards=unaligned((3,))), "step: rewards")):
        with pytest.raises(ValueError) as info:
            v.step(actions, **kwargs)
        assert str(info.value) == what + UNALIGNED
        assert not kwargs.popitem()[1].any()
    assert not out.any() and [v.state(i) for i in range(3)] == before and v.stepped == 0
    odd = unaligned((3,), np.int64)
    odd[:] = actions
    v.step(odd)
    w = engine.VectorGame(3, seed=1)
    w.step(actions)
    assert [v.state(i) for i in range(3)] == [w.state(i) for i in range(3)] != before


def test_a_step_checks_threads_before_anything_moves(engine):
    v = engine.VectorGame(3, seed=1)
    before = [v.state(i) for i in range(3)]
    for threads, error in ((-1, ValueError), (True, TypeError), (2000, ValueError)):
        with pytest.raises(error, match="threads"):
            v.step(v.legal_actions[:, 0], threads=threads)
    assert [v.state(i) for i in range(3)] == before and v.stepped == 0


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("auto_reset", [False, True])
def test_a_step_writes_the_observations_it_leaves(engine, variant, auto_reset):
    """step(actions, observations=out) leaves in ``out`` what observation_tensors() gives after the step, for
    every game (finished ones and ones just started by auto_reset included), on one thread or two."""
    v = engine.VectorGame(40, 2, variant, seed=8, auto_reset=auto_reset)
    out = np.full((40, v.observation_tensors().shape[1]), -3.0, dtype=np.float32)
    rng = np.random.default_rng(9)
    for step in range(200):
        v.step(random_actions(v, rng), observations=out, threads=1 + step % 2)
        np.testing.assert_array_equal(out, v.observation_tensors())
    assert v.final_scores.any()


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("auto_reset", [False, True, "next_step"])
def test_a_step_copies_the_masks_it_leaves(engine, variant, auto_reset):
    """step(actions, masks=out) leaves in ``out`` a copy of ``legal_mask`` after the step, for every game
    (finished ones and ones started again included), on one thread or two; ``out`` is the caller's: the next step
    does not change it."""
    v = engine.VectorGame(70, 2, variant, seed=8, auto_reset=auto_reset)  # C++, 2 threads: blocks of 32, 32 and 6
    rng = np.random.default_rng(9)
    kept = None
    for step in range(200):
        out = np.ones(v.legal_mask.shape, dtype=bool)
        v.step(random_actions(v, rng), masks=out, threads=1 + step % 2)
        np.testing.assert_array_equal(out, v.legal_mask)
        if kept is not None:
            np.testing.assert_array_equal(kept[1], kept[0])  # the last step's copy, left alone
        kept = (out, out.copy())
    assert v.final_scores.any()


def test_a_step_refuses_a_bad_masks_buffer_before_anything_moves(engine):
    v = engine.VectorGame(3, seed=1)
    before = [v.state(i) for i in range(3)]
    actions = v.legal_actions[:, 0]
    for masks, error, text in (
            ("no", TypeError, "step: masks must be a numpy bool array of shape (3, 314), not str"),
            (np.zeros((3, 314), np.uint8), ValueError,
             "step: masks must be a bool array of shape (3, 314), not shape (3, 314) of uint8"),
            (np.zeros((3, 10), bool), ValueError,
             "step: masks must be a bool array of shape (3, 314), not shape (3, 10) of bool"),
            (np.zeros((314, 3), bool).T, ValueError, "step: masks must be C-contiguous (np.ascontiguousarray)"),
            (np.zeros((3, 314), bool), ValueError, "step: masks is read-only")):
        if text.endswith("read-only"):
            masks.flags.writeable = False
        with pytest.raises(error) as info:
            v.step(actions, masks=masks)
        assert str(info.value) == text
        assert isinstance(masks, str) or not masks.any()
    assert [v.state(i) for i in range(3)] == before and v.stepped == 0


def test_a_step_refuses_a_bad_buffer_before_anything_moves(engine):
    v = engine.VectorGame(3, seed=1)
    before = [v.state(i) for i in range(3)]
    with pytest.raises(ValueError) as info:
        v.step(v.legal_actions[:, 0], observations=np.zeros((3, 10), np.float32))
    assert str(info.value) == "step: observations must be a float32 array of shape (3, 384), not shape (3, 10) of float32"
    with pytest.raises(TypeError, match="step: observations must be a numpy float32 array"):
        v.step(v.legal_actions[:, 0], observations="no")
    assert [v.state(i) for i in range(3)] == before


@pytest.mark.slow
@pytest.mark.skipif(not hasattr(os, "fork"), reason="os.fork")
def test_a_vector_steps_on_threads_after_a_fork(engine):
    """A vector that stepped on threads, then os.fork(): the child steps on threads of its own (its parent's
    threads, and the locks they held, are not in it) and plays the parent's games; the parent goes on too. A hang
    fails by the timeout."""
    code = textwrap.dedent(f"""
        import os
        import numpy as np
        import azul_engine
        E = azul_engine.load_backend({engine.NAME!r})

        def play(v, steps, threads):
            rng = np.random.default_rng(9)
            for _ in range(steps):
                pick = (rng.random(v.n) * np.maximum(v.num_legal, 1)).astype(np.int64)
                v.step(np.maximum(v.legal_actions[np.arange(v.n), pick], 0), threads=threads)
            return v.observation_tensors(threads=threads)

        v = E.VectorGame(100, 2, "classic", 3, auto_reset=True)
        play(v, 20, 2)
        twin = E.VectorGame(100, 2, "classic", 3, auto_reset=True)
        play(twin, 20, 1)
        for _ in range(3):
            pid = os.fork()
            if pid == 0:
                ok = (play(v, 30, 2) == play(twin, 30, 1)).all()
                os._exit(0 if ok else 1)
            _, status = os.waitpid(pid, 0)
            assert status == 0, status
            assert (play(v, 5, 2) == play(twin, 5, 1)).all()
        print("ok")
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0 and out.stdout == "ok\n", out.stderr
