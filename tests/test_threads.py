"""One state shared by threads (issue 10): in both engines every call that changes a state (apply, deal,
deal_supply, reseed) or copies it (clone, to_text, record, score_sheet) is atomic. The C++ engine holds the
GIL for the whole call; the pure engine's state holds its own lock. So threads that play on one state never
lose or duplicate a tile, and every copy taken meanwhile is a valid state. Two threads can still race between
``legal_actions()`` and ``apply()``: then the later move is refused with IllegalMoveError, as in one thread.
"""

import random
import sys
import threading

import pytest

from helpers import sp_counts, tile_counts

THREADS = 8
OPERATIONS = 1500  # per thread


@pytest.fixture
def fast_switching():
    """Switch threads as often as the interpreter can, so that a call that is not atomic gets interrupted."""
    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    yield
    sys.setswitchinterval(old)


def totals(state):
    """Tiles of each colour anywhere in the game, read through the public API."""
    if state.variant != "summer-pavilion":
        return tile_counts(state)
    groups = list(state.factories) + [state.center, state.supply, state.bag, state.tower] + list(state.hands)
    groups += ["".join(stars).replace(".", "") for stars in state.boards]
    total = [0] * 6
    for g in groups:
        for c, n in enumerate(sp_counts(g)):
            total[c] += n
    return total


@pytest.mark.slow
@pytest.mark.parametrize("variant", ["classic", "grey", "summer-pavilion"])
def test_threads_playing_on_one_state_never_lose_a_tile(engine, variant, fast_switching):
    expected = [22] * 6 if variant == "summer-pavilion" else [20] * 5
    holder = [engine.new_game(3, variant, seed=11)]
    swap = threading.Lock()  # only for starting the next game once one is over
    outcomes, problems = [], []

    def check(state, what):
        if totals(state) != expected:
            problems.append("%s: tiles %s, not %s" % (what, totals(state), expected))
        engine.from_text(state.to_text(history=True))  # StateFormatError for a half-made move

    def worker(seed):
        rng = random.Random(seed)
        for _ in range(OPERATIONS):
            state = holder[0]
            op = rng.random()
            try:
                if op < 0.8:
                    legal = state.legal_actions()
                    if not legal:  # over: the first thread to see it starts the next game
                        with swap:
                            if holder[0] is state:
                                check(state, "finished game")
                                holder[0] = engine.new_game(3, variant, seed=rng.randrange(1 << 32))
                        continue
                    state.apply(rng.choice(legal))
                    outcomes.append("applied")
                elif op < 0.9:
                    check(state.clone(), "clone")
                elif op < 0.98:
                    check(engine.from_text(state.to_text(history=True)), "text")
                else:
                    state.reseed(rng.randrange(1 << 64))
            except engine.IllegalMoveError:
                outcomes.append("refused")  # another thread moved between legal_actions and apply
            except Exception as e:  # noqa: BLE001 - any other error is a failure of the contract
                problems.append("%s: %s" % (type(e).__name__, e))

    threads = [threading.Thread(target=worker, args=(s,)) for s in range(THREADS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert problems == []
    assert outcomes.count("applied") > THREADS * OPERATIONS // 2
    check(holder[0], "final state")
    assert problems == []


def test_threads_dealing_and_playing_on_one_state_never_lose_a_tile(engine, fast_switching):
    """deal() replaces the round's factories while other threads move: each happens whole or is refused."""
    state = engine.new_game(2, "classic", seed=3, chance="explicit")
    state.apply(state.legal_actions()[0])  # the first player
    deals = [["BBBB", "YYYY", "RRRR", "KKKK", "WWWW"], ["BYRK", "BYRK", "BYRK", "BYRK", "WWWW"]]
    problems = []

    def worker(seed):
        rng = random.Random(seed)
        for _ in range(300):
            try:
                if rng.random() < 0.5:
                    state.deal(rng.choice(deals))
                else:
                    legal = state.legal_actions()
                    if state.is_chance_node or state.moves_this_round >= 4:
                        continue  # keep the round open for deal()
                    state.apply(rng.choice(legal))
            except engine.IllegalMoveError:
                pass  # dealt after a move, or a move made stale by another thread
            except Exception as e:  # noqa: BLE001
                problems.append("%s: %s" % (type(e).__name__, e))

    threads = [threading.Thread(target=worker, args=(s,)) for s in range(THREADS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert problems == []
    assert tile_counts(state) == [20] * 5
    engine.from_text(state.to_text(history=True))
