"""VectorGame.step and Ctrl-C: a step interrupted by a signal handler's exception stops between two games,
with games 0..k-1 moved, games k..n-1 unchanged, every array matching its game and VectorGame.stepped == k
(both engines)."""

import os
import signal
import subprocess
import sys
import textwrap

import numpy as np
import pytest

# The child: steps a big vector (first legal move of every game) while a thread sends it SIGINT after a
# random delay, until a KeyboardInterrupt comes out of step() itself (one with the step's note; one that
# lands between two steps is retried), then checks the contract on a sample of games snapshotted before
# that step and on the games around the cut, and steps once more.
CHILD = textwrap.dedent(r"""
    import os, signal, sys, threading, time
    import numpy as np
    import azul_engine

    engine = azul_engine.load_backend(sys.argv[1])
    n = int(sys.argv[2])
    vec = engine.VectorGame(n, 2, "classic", seed=5)
    rng = np.random.default_rng(1)
    sample = sorted(set(rng.choice(n, size=min(n, 60), replace=False).tolist()))

    def arrays_match(i):
        state = vec.state(i)
        legal = state.legal_actions()
        return (vec.num_legal[i] == len(legal) and vec.legal_actions[i, :len(legal)].tolist() == legal
                and (vec.legal_actions[i, len(legal):] == -1).all()
                and np.flatnonzero(vec.legal_mask[i]).tolist() == legal
                and vec.current_player[i] == state.current_player and vec.scores[i].tolist() == state.scores
                and vec.done[i] == state.is_over)

    for attempt in range(40):
        delay = float(rng.uniform(0.02, 0.3))
        threading.Thread(target=lambda: (time.sleep(delay), os.kill(os.getpid(), signal.SIGINT)),
                         daemon=True).start()
        try:
            while True:
                if vec.done.any():
                    vec.reset(np.flatnonzero(vec.done))
                actions = vec.legal_actions[:, 0].astype(np.int64)
                done = vec.done.copy()
                before = {i: vec.state(i).to_text() for i in sample}
                vec.step(actions)
                if vec.stepped != n:
                    sys.exit("a finished step left stepped at %d" % vec.stepped)
        except KeyboardInterrupt as exc:
            notes = getattr(exc, "__notes__", [])
            if not any("VectorGame.step stopped" in note for note in notes):
                continue  # it landed between two steps: try again
            k = vec.stepped
            assert 0 <= k < n, k
            assert ("before game %d:" % k) in notes[-1], notes
            for i in sample:
                expected = engine.from_text(before[i])
                if i < k and not done[i]:
                    expected.apply(int(actions[i]))
                assert vec.state(i).to_text() == expected.to_text(), (i, k)
            for i in sample + [k - 1, k]:
                if 0 <= i < n:
                    assert arrays_match(i), (i, k)
            vec.step(vec.legal_actions[:, 0].astype(np.int64))  # the vector steps on
            assert vec.stepped == n
            print("interrupted before game %d of %d" % (k, n))
            break
    else:
        sys.exit("no SIGINT landed inside a step in 40 tries")
""")


def _backend(engine):
    return "cpp" if engine.__name__.endswith("_cppengine") else "python"


@pytest.mark.slow
@pytest.mark.skipif(not hasattr(signal, "SIGINT") or os.name != "posix", reason="needs POSIX signals")
def test_an_interrupted_step_stops_between_two_games(engine):
    # Big enough that a step lasts far longer than the C++ engine's 25 ms signal poll.
    n = 120_000 if _backend(engine) == "cpp" else 1_500
    result = subprocess.run([sys.executable, "-c", CHILD, _backend(engine), str(n)], capture_output=True,
                            text=True, timeout=600)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "interrupted before game" in result.stdout


def test_stepped_counts_the_games_a_step_went_through(engine):
    vec = engine.VectorGame(3, seed=2)
    assert vec.stepped == 0
    vec.step(vec.legal_actions[:, 0])
    assert vec.stepped == 3
    with pytest.raises(engine.IllegalMoveError, match="^game 0: "):
        vec.step(np.array([313, 0, 0]))
    assert vec.stepped == 0  # refused: no game moved
    with pytest.raises(ValueError, match="actions must be 3 integers"):
        vec.step([1, 2])
    assert vec.stepped == 0  # refused before it ran: left as it was
    vec.step(vec.legal_actions[:, 0])
    assert vec.stepped == 3


def test_a_step_leaves_the_sigint_handler_as_it_found_it(engine):
    """The pure engine holds SIGINT's handler back only while its step moves the games."""
    calls = []
    handler = lambda signum, frame: calls.append(signum)  # noqa: E731
    previous = signal.signal(signal.SIGINT, handler)
    try:
        vec = engine.VectorGame(4, seed=3)
        vec.step(vec.legal_actions[:, 0])
        assert signal.getsignal(signal.SIGINT) is handler and vec.stepped == 4
        os.kill(os.getpid(), signal.SIGINT)
        assert calls == [signal.SIGINT]
    finally:
        signal.signal(signal.SIGINT, previous)
