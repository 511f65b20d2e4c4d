"""The exact search of the rest of a round (docs/search.md section 16) in both engines: ``solve_round`` against an
exhaustive search written here, the same solutions (and positions searched) in both engines, the tempo move of
issue 37 (a tile floored to pass the turn), its errors and node cap; the searches with ``exact=N`` in lockstep
(rollouts and an evaluator), a gated leaf valued at the end of its exact line, the bots' ``exact``.  Ctrl-C:
test_interrupt.py."""

import random

import numpy as np
import pytest

from azul_engine import bots
from azul_engine._pure.search_common import utility
from helpers import state_text

GAMES = [("classic", 2), ("classic", 3), ("classic", 4), ("grey", 2), ("grey", 3), ("summer-pavilion", 2),
         ("summer-pavilion", 3), ("summer-pavilion", 4)]
# The lockstep tests' games: classic at 3 and 4 players and Summer Pavilion at 4 are slow (the pure engine's max^n
# searches thousands of positions a solve); the fast loop keeps every variant at 2 players and grey and Summer
# Pavilion at 3.
LOCKSTEP = [pytest.param(v, p, id="%s-%d" % (v, p), marks=[pytest.mark.slow] if p == 4 or (v, p) == ("classic", 3)
                         else []) for v, p in GAMES]


def fields(result):
    return {name: getattr(result, name) for name in result.__dataclass_fields__ if name != "seconds"}


def moves_left(state):
    """Section 16.1's measure, from the public API: (source, colour) pairs holding tiles; on the grey wall the full
    pattern lines; in Summer Pavilion the tiles in the hands of the players who have not passed."""
    n = sum(len(set(f)) for f in state.factories) + len(set(state.center))
    if state.variant == "summer-pavilion":
        n += sum(len(h) for h, passed in zip(state.hands, state.passed) if not passed)
    elif state.variant == "grey":
        n += sum(len(line) == r + 1 for lines in state.pattern_lines for r, line in enumerate(lines))
    return n


def near_the_end(engine, variant, players, most, seed, last_round=False):
    """A decision position of a seeded random game with at most ``most`` moves left in its round (in the game's
    last round with ``last_round``), or None."""
    rng = random.Random(seed)
    state = engine.new_game(players, variant, seed=seed)
    while not state.is_over:
        if state.is_chance_node:
            state.apply(state.chance_outcomes()[0][0])
            continue
        if moves_left(state) <= most and state.round > 1:
            if not last_round or engine.solve_round(state).end == "game":
                return state
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
    return None


def positions(engine, variant, players, most, count, seed=0, last_round=False):
    out = []
    for s in range(seed, seed + 200):
        state = near_the_end(engine, variant, players, most, s, last_round)
        if state is not None:
            out.append(state)
            if len(out) == count:
                break
    assert len(out) == count, (variant, players)
    return out


def drawn(before, after):
    """Tiles were drawn between the two states (the generator moved: rules section 5), seen in their text."""
    return before.to_text().split(" rng=")[1].split(" ")[0] != after.to_text().split(" rng=")[1].split(" ")[0]


def past_horizon(before, after):
    """Section 16.1: the game is over, a chance node, another round, or tiles were drawn."""
    return after.is_over or after.is_chance_node or after.round != before.round or drawn(before, after)


def considered(state):
    """Section 16.2: the legal moves, but of Summer Pavilion's passes only the first of those keeping the most
    tiles."""
    legal = state.legal_actions()
    if state.variant != "summer-pavilion":
        return legal
    engine = bots.engine_of(state)
    base, keeps = engine.SP_PASS_ACTION_BASE, engine.SP_KEEP_SETS
    passes = [a for a in legal if a >= base]
    if not passes:
        return legal
    most = max(len(keeps[a - base]) for a in passes)
    return [a for a in legal if a < base] + [next(a for a in passes if len(keeps[a - base]) == most)]


def exhaustive(state):
    """Max^n to the horizon without a table or pruning: ``(gains, line)`` of the best line from ``state``, each
    player to move taking the move of greatest ``n * gain - sum of gains``, the lowest id on a tie."""
    n = state.players
    p = state.current_player
    best = None
    for action in considered(state):
        after = state.clone()
        after.apply(action)
        gains = [after.scores[i] - state.scores[i] for i in range(n)]
        line = [action]
        if not past_horizon(state, after):
            more, rest = exhaustive(after)
            gains = [g + m for g, m in zip(gains, more)]
            line += rest
        u = n * gains[p] - sum(gains)
        if best is None or u > best[0]:
            best = (u, gains, line)
    return best[1], best[2]


# -- solve_round ---------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("variant,players", GAMES, ids=["%s-%d" % g for g in GAMES])
def test_solve_round_finds_what_an_exhaustive_search_finds(engine, variant, players):
    """Every move's gains, its value (gain less the others' mean), the order (best first, then the lower id) and
    the best line are those of max^n over the whole rest of the round; at 2 players that is minimax, which the
    engines search by alpha-beta."""
    for state in positions(engine, variant, players, 3, 2, seed=10 * players):
        solution = engine.solve_round(state)
        p, n = state.current_player, players
        rows = []
        for action in considered(state):
            after = state.clone()
            after.apply(action)
            gains = [after.scores[i] - state.scores[i] for i in range(n)]
            if not past_horizon(state, after):
                more, _ = exhaustive(after)
                gains = [g + m for g, m in zip(gains, more)]
            rows.append((-(n * gains[p] - sum(gains)), action, tuple(gains)))
        rows.sort()
        assert list(solution.actions) == [a for _, a, _ in rows]
        assert list(solution.gains) == [g for _, _, g in rows]
        assert list(solution.values) == [-u / (n - 1) for u, _, _ in rows]
        assert list(solution.pv) == exhaustive(state)[1] and solution.pv[0] == solution.action
        assert list(solution.moves) == [state.action_to_string(a) for a in solution.actions]
        assert solution.player == p and solution.nodes > 0


@pytest.mark.parametrize("variant,players", LOCKSTEP)
def test_solve_round_is_the_same_in_both_engines(engines, variant, players):
    """Field for field, the positions searched (nodes) included: both engines search the same tree in the same
    order with tables that keep every entry."""
    py, cpp = engines
    for state in positions(py, variant, players, 5, 3, seed=100 + players):
        text = state.to_text()
        a, b = py.solve_round(py.from_text(text)), cpp.solve_round(cpp.from_text(text))
        assert fields(a) == fields(b), (variant, players, text)
        assert a == b and a.end in ("round", "game", "refill")


# Grey wall, the tiling: player 0 places the white tile of its line 2 (then the yellow of line 4).
COLLIDING = ("azul-state/1 variant=grey players=2 chance=sampled seed=13 rng=56e27eb562eddf6a round=2 phase=tiling turn=0 "
             "start=1 marker=1 moves=13 factories=-,-,-,-,- center=- bag=14,7,15,13,11 lid=4,2,3,3,4 "
             "prefill=18,14,17,16,15/0,0,3,2,2 p0=4:-/YY/WW/YYYY/YY:B...K/....W/.K.../...../.....:YRR "
             "p1=0:-/-/YY/K/W:.W.K./...B./...../...../.....:-")


def test_positions_that_share_a_key_are_told_apart(engine):
    """Player 0's white tile in wall column 0 or 1 of row 2: the two positions share their position key
    (docs/game-api.md's hash mixes neighbouring fields weakly), and their best lines and values differ.  The exact
    search still values each by its own line (a table keyed by the key alone took the second for the first)."""
    state = engine.from_text(COLLIDING)
    first, second = state.clone(), state.clone()
    first.apply(state.legal_actions()[0])
    second.apply(state.legal_actions()[1])
    assert first.key() == second.key() and first != second
    assert exhaustive(first) != exhaustive(second)
    solution = engine.solve_round(state)
    assert list(solution.pv) == exhaustive(state)[1]
    for action, gains in zip(solution.actions, solution.gains):
        child = state.clone()
        child.apply(action)
        more, _ = exhaustive(child)
        assert gains == tuple(child.scores[i] - state.scores[i] + more[i] for i in range(2))


def test_the_line_ends_where_the_round_ends(engine):
    """The best line plays to the round's end (the next round's factories are dealt, or the game is over), and
    its gains are the scores after the tiling less the scores now."""
    for state in positions(engine, "classic", 2, 4, 3, seed=3):
        solution = engine.solve_round(state)
        walk = state.clone()
        for action in solution.pv[:-1]:
            walk.apply(action)
            assert walk.round == state.round and not walk.is_over
        walk.apply(solution.pv[-1])
        assert walk.is_over or walk.round == state.round + 1
        assert solution.end == ("game" if walk.is_over else "round")
        assert solution.gains[0] == tuple(walk.scores[i] - state.scores[i] for i in range(2))


def tempo_state(engine):
    """Issue 37's loss: the centre holds one blue tile and six red, which no pattern line of either player takes
    (each line holds another colour, or is full); player 0 to move."""
    return engine.from_text(state_text(
        players=2, lines=[["Y", "K", "W", "Y", "K"], ["Y", "K", "W", "Y", "K"]], floors=["", "M"],
        center="BRRRRRR", scores=[20, 20], turn=0, start=1))


def test_a_tile_floored_to_pass_the_turn(engine):
    """Taking the single blue tile to the floor (-1) leaves the opponent the six red (-13 with the marker): the
    solver's best move, worth 13 points; the red pile first is worth -9."""
    state = tempo_state(engine)
    solution = engine.solve_round(state)
    assert solution.move == "CBF" and solution.pv_moves == ("CBF", "CRF")
    assert solution.top(2) == [("CBF", state.string_to_action("CBF"), 13.0), ("CRF", state.string_to_action("CRF"),
                                                                               -9.0)]
    assert solution.gains == ((0, -13), (-10, -1)) and solution.end == "round"


def test_summer_pavilion_considers_one_pass_of_the_most_tiles(engine):
    """A play-phase position: of its passes only the first keeping the most tiles is listed (the kept tiles matter
    only after the round), and the other moves all are."""
    for state in positions(engine, "summer-pavilion", 2, 6, 4, seed=40):
        if state.phase != "play":
            continue
        solution = engine.solve_round(state)
        base = engine.SP_PASS_ACTION_BASE
        assert sorted(solution.actions) == considered(state)
        assert sum(a >= base for a in solution.actions) == 1
        assert sum(a >= base for a in state.legal_actions()) >= 1
        return
    pytest.fail("no play-phase position")


def test_solve_round_does_not_change_the_state(engine):
    state = positions(engine, "grey", 2, 4, 1, seed=5)[0]
    text = state.to_text(history=True)
    engine.solve_round(state)
    assert state.to_text(history=True) == text


BAD_ARGUMENTS = [
    (dict(max_nodes=0), ValueError, "solve_round: max_nodes must be 1 or more, got 0"),
    (dict(max_nodes=2 ** 31), ValueError, "solve_round: max_nodes is too large: 2147483648 (at most 2**30)"),
    (dict(max_nodes=1.5), TypeError, "solve_round: max_nodes must be an int, not float"),
    (dict(max_nodes=True), TypeError, "solve_round: max_nodes must be an int, not bool"),
]


@pytest.mark.parametrize("kwargs,error,message", BAD_ARGUMENTS, ids=[str(b[0]) for b in BAD_ARGUMENTS])
def test_bad_arguments_get_the_same_error_in_both_engines(engine, kwargs, error, message):
    with pytest.raises(error) as raised:
        engine.solve_round(tempo_state(engine), **kwargs)
    assert str(raised.value) == message


def test_what_cannot_be_solved_is_refused_with_the_same_words(engines):
    py, cpp = engines
    for engine, other in ((py, cpp), (cpp, py)):
        with pytest.raises(TypeError, match=r"^solve_round: state must be a GameState or PavilionState of "):
            engine.solve_round("state")
        with pytest.raises(TypeError, match=r"engine \(azul_engine\._\w+\), not a GameState of the "):
            engine.solve_round(other.new_game(2, seed=1))
        over = engine.new_game(2, seed=1)
        while not over.is_over:
            over.apply(over.legal_actions()[0])
        with pytest.raises(ValueError, match=r"^solve_round: no move to choose once the game is over$"):
            engine.solve_round(over)
        with pytest.raises(ValueError, match=r"^solve_round: no move to choose at a chance node$"):
            engine.solve_round(engine.new_game(2, seed=1, chance="explicit"))
    messages = []
    for engine in (py, cpp):
        with pytest.raises(ValueError) as raised:
            engine.solve_round(engine.new_game(2, seed=4), max_nodes=50)
        messages.append(str(raised.value))
    assert messages[0] == messages[1] == (
        "solve_round: the rest of the round needs more than max_nodes=50 positions: too many moves left to solve "
        "exactly (a position nearer the round's end, or a larger max_nodes)")


def test_the_node_cap_is_the_positions_searched(engine):
    """A cap of exactly the positions a solution searched is enough; one fewer is not."""
    state = positions(engine, "classic", 2, 5, 1, seed=8)[0]
    nodes = engine.solve_round(state).nodes
    assert nodes > 1 and engine.solve_round(state, max_nodes=nodes).nodes == nodes
    with pytest.raises(ValueError, match="more than max_nodes=%d positions" % (nodes - 1)):
        engine.solve_round(state, max_nodes=nodes - 1)


# -- the searches with exact=N -------------------------------------------------------------------------------------

@pytest.mark.parametrize("variant,players", LOCKSTEP)
def test_the_rollout_search_with_exact_in_both_engines(engines, variant, players):
    """Field for field, for every thread count, and different from the search without it."""
    py, cpp = engines
    most = 5 if (variant, players) == ("grey", 3) else 6  # grey-3's second 6 needs 679,028 positions: a minute here
    for i, state in enumerate(positions(py, variant, players, most, 2, seed=200 + players)):
        text = state.to_text()
        kw = dict(iterations=60 + 20 * i, seed=i, threads=1 + i, exact=most, candidates=(0, 5)[i])
        a, b = py.search(py.from_text(text), **kw), cpp.search(cpp.from_text(text), **kw)
        assert fields(a) == fields(b), (variant, players, i)
        off = cpp.search(cpp.from_text(text), **dict(kw, exact=0))
        assert sum(a.visits) == a.iterations == off.iterations
        if i == 0:
            assert fields(off) != fields(a)


@pytest.mark.parametrize("variant,players", LOCKSTEP)
def test_the_guided_search_with_exact_in_both_engines(engines, variant, players):
    """Field for field with a Python evaluator (the same batches, in the same order: a gated leaf's own row for its
    priors, then its line's end for its value) and with each engine's own network."""
    from helpers import network_parts
    from test_guided import evaluator_for

    py, cpp = engines
    parts = network_parts(variant, players, hidden=(16,), seed=players)
    nets = py.Network.from_arrays(variant, players, *parts), cpp.Network.from_arrays(variant, players, *parts)
    for i, state in enumerate(positions(py, variant, players, 6, 2, seed=300 + players)):
        text = state.to_text()
        kw = dict(iterations=40 + 10 * i, seed=i, batch=(1, 4)[i], threads=(1, 2)[i], exact=6)
        a_eval, b_eval = evaluator_for(py, variant, players, i), evaluator_for(py, variant, players, i)
        a = py.search(py.from_text(text), evaluator=a_eval, **kw)
        b = cpp.search(cpp.from_text(text), evaluator=b_eval, **kw)
        assert fields(a) == fields(b), (variant, players, i)
        assert a_eval.calls == b_eval.calls
        assert max(a_eval.calls) <= 2 * kw["batch"] * kw["threads"]
        c = py.search(py.from_text(text), evaluator=nets[0], **kw)
        d = cpp.search(cpp.from_text(text), evaluator=nets[1], **kw)
        assert fields(c) == fields(d)


@pytest.mark.parametrize("variant", ["classic", "summer-pavilion"])
def test_a_full_guided_tree_revisits_an_exact_end_as_both_engines_keep_it(engines, variant):
    """In the game's last round a gated leaf whose line ends the game is valued by the finished game, with the
    margin (0.4: values like 0.68 that float32 cannot hold). The node keeps it as float32 in both engines, so that
    once the tree is full (max_nodes) and a descent stops there again, both back up the same value (the pure engine
    kept the double and the totals parted)."""
    from test_guided import evaluator_for

    py, cpp = engines
    for i, state in enumerate(positions(py, variant, 2, 6, 2, seed=500, last_round=True)):
        text = state.to_text()
        kw = dict(iterations=300, seed=i, exact=6, max_nodes=4 + i, margin=0.4)
        a = py.search(py.from_text(text), evaluator=evaluator_for(py, variant, 2, i), **kw)
        b = cpp.search(cpp.from_text(text), evaluator=evaluator_for(py, variant, 2, i), **kw)
        assert fields(a) == fields(b), (variant, i)


LONG_SETTINGS = [dict(iterations=300, threads=1), dict(iterations=240, threads=3, candidates=0, inner_candidates=0),
                 dict(iterations=400, threads=2, widen=40, policy="uniform", rollouts=2),
                 dict(iterations=200, threads=1, candidates=2, inner_candidates=2, c=1.2, margin=0.0)]
LONG_GAMES = [("classic", 2, 8), ("grey", 2, 7), ("summer-pavilion", 2, 10), ("classic", 3, 6), ("grey", 3, 5),
              ("summer-pavilion", 4, 8)]


@pytest.mark.slow
@pytest.mark.parametrize("variant,players,most", LONG_GAMES, ids=["%s-%d" % g[:2] for g in LONG_GAMES])
def test_long_lockstep_runs_with_exact(engines, variant, players, most):
    """More positions, nearer the gate's limit, under every kind of pruning (none, the greedy bot's few, widening
    every 40 visits), rollout policy and thread count, and the guided search with batches and threads: the two
    engines field for field, the pure engine's evaluator called on the same batches."""
    from test_guided import evaluator_for

    py, cpp = engines
    for i, state in enumerate(positions(py, variant, players, most, 4, seed=900 + 10 * players)):
        text = state.to_text()
        kw = dict(LONG_SETTINGS[i], seed=i, exact=most)
        a, b = py.search(py.from_text(text), **kw), cpp.search(cpp.from_text(text), **kw)
        assert fields(a) == fields(b), (variant, players, i, kw)
        guided = dict(iterations=120, seed=i, exact=most, batch=(1, 8, 3, 4)[i], threads=(1, 2, 3, 1)[i])
        a_eval, b_eval = evaluator_for(py, variant, players, i), evaluator_for(py, variant, players, i)
        a = py.search(py.from_text(text), evaluator=a_eval, **guided)
        b = cpp.search(cpp.from_text(text), evaluator=b_eval, **guided)
        assert fields(a) == fields(b) and a_eval.calls == b_eval.calls, (variant, players, i, guided)


@pytest.mark.parametrize("variant,players", [("classic", 2), ("grey", 2), ("summer-pavilion", 3)])
def test_search_many_with_exact_is_each_search_on_its_own(engines, variant, players):
    """Section 14's contract with exact: search_many's result i is search's from state i with seed + i, field for
    field, the same in both engines; each root has its own gate (a round's first position among them searches as
    without exact), and the others search otherwise than without it."""
    from helpers import network_parts

    py, cpp = engines
    parts = network_parts(variant, players, hidden=(16,), seed=players)
    texts = [s.to_text() for s in positions(py, variant, players, 6, 3, seed=400 + players)]
    texts.append(py.new_game(players, variant, seed=5).to_text())
    kw = dict(iterations=40, seed=3, exact=6, batch=2)
    found = []
    for engine in (py, cpp):
        net = engine.Network.from_arrays(variant, players, *parts)
        many = [fields(r) for r in engine.search_many([engine.from_text(t) for t in texts], evaluator=net, **kw)]
        one = [fields(engine.search(engine.from_text(t), evaluator=net, **dict(kw, seed=3 + i)))
               for i, t in enumerate(texts)]
        off = [fields(r) for r in engine.search_many([engine.from_text(t) for t in texts], evaluator=net,
                                                      **dict(kw, exact=0))]
        assert many == one
        assert many[-1] == off[-1] and many[:-1] != off[:-1]
        found.append(many)
    assert found[0] == found[1]


def test_exact_applies_when_the_root_is_near_its_rounds_end(engine):
    """Section 16.1: with more than N moves left at the root, exact=N changes nothing (the leaves near the round's
    end would each need a solve of their own: section 16.6); with N or fewer it does."""
    state = next(s for s in positions(engine, "classic", 2, 5, 8, seed=60) if moves_left(s) >= 4)
    left = moves_left(state)
    base = dict(iterations=150, seed=2)
    assert engine.search(state, exact=left - 1, **base) == engine.search(state, exact=0, **base)
    assert engine.search(state, exact=left, **base) != engine.search(state, exact=0, **base)

    def evaluate(observations, masks):
        return np.zeros(masks.shape, np.float32), np.tanh(observations[:, :2] - 0.5).astype(np.float32)

    guided = dict(base, evaluator=evaluate, iterations=60)
    assert engine.search(state, exact=left - 1, **guided) == engine.search(state, exact=0, **guided)
    assert engine.search(state, exact=left, **guided) != engine.search(state, exact=0, **guided)


@pytest.mark.parametrize("variant,players", [("classic", 2), ("grey", 2),
                                             pytest.param("classic", 3, marks=pytest.mark.slow)])
def test_the_exact_best_move_is_a_candidate(engine, variant, players):
    """Section 16.4: within the gate, the moves the rollout search considers (the greedy bot's best, at the root
    and at every node) start with the exact search's best move: with one candidate each, the tree is the best
    line itself, to the round's end; without exact, the greedy bot's."""
    for state in positions(engine, variant, players, 5, 3, seed=700 + players):
        solution = engine.solve_round(state)
        narrow = dict(iterations=40, candidates=1, inner_candidates=1, seed=4)
        result = engine.search(state, exact=moves_left(state), **narrow)
        assert result.actions == (solution.action,) and result.pv[:len(solution.pv)] == solution.pv
        greedy = max(state.legal_actions(), key=lambda a: bots.greedy_value(state, a, state.current_player))
        assert engine.search(state, exact=0, **narrow).action in state.legal_actions()
        if bots.greedy_value(state, solution.action, state.current_player) < bots.greedy_value(
                state, greedy, state.current_player):
            assert engine.search(state, exact=0, **narrow).action != solution.action


def line_end(engine, state):
    """The position at the end of ``state``'s best line (solve_round's), played on a copy."""
    end = state.clone()
    for action in engine.solve_round(state).pv:
        end.apply(action)
    return end


@pytest.mark.parametrize("variant,players", [("classic", 2), ("grey", 2), ("classic", 3)])
def test_a_gated_leaf_is_valued_at_the_end_of_its_line(engine, variant, players):
    """In a round that ends the game, each root move expanded once (every move a candidate, as many iterations as
    moves) is valued exactly by its line: the rollout search's utility, the guided search's 2u - 1 of the finished
    game (an evaluator that says 0 everywhere, first-play urgency that tries every move first); without exact, by
    rollouts and the evaluator."""
    for state in positions(engine, variant, players, 4, 6, seed=500 + players, last_round=True):
        legal = state.legal_actions()
        p = state.current_player
        expected, over = {}, []
        for action in legal:
            after = state.clone()
            after.apply(action)
            over.append(after.is_over)
            end = after if after.is_over else line_end(engine, after)
            expected[action] = utility(end.scores, end.winners, 0.4)[p] if end.is_over else None
        if None not in expected.values() and not all(over):  # every line ends the game, not every move
            break
    else:
        pytest.fail("no position whose every line ends the game")
    result = engine.search(state, iterations=len(legal), candidates=0, exact=8, seed=1)
    assert set(result.actions) == set(legal) and set(result.visits) == {1}
    assert {a: v for a, v in zip(result.actions, result.values)} == expected

    def zero(observations, masks):
        return np.zeros(masks.shape, np.float32), np.zeros((len(observations), players), np.float32)

    guided = engine.search(state, iterations=len(legal), evaluator=zero, batch=1, fpu=-10.0, exact=8, seed=1)
    assert set(guided.visits) == {1}
    assert {a: v for a, v in zip(guided.actions, guided.values)} == {a: 2 * u - 1 for a, u in expected.items()}
    off = engine.search(state, iterations=len(legal), evaluator=zero, batch=1, fpu=-10.0, exact=0, seed=1)
    assert off.values != guided.values


BAD_EXACT = [
    (dict(exact=-1), ValueError, "search: exact must be 0 or more, got -1"),
    (dict(exact=65), ValueError, "search: exact is too large: 65 (at most 64)"),
    (dict(exact=2.0), TypeError, "search: exact must be an int, not float"),
]


@pytest.mark.parametrize("kwargs,error,message", BAD_EXACT, ids=[str(b[0]) for b in BAD_EXACT])
def test_a_bad_exact_gets_the_same_error_in_both_engines(engine, kwargs, error, message):
    state = engine.new_game(2, seed=1)
    with pytest.raises(error) as raised:
        engine.search(state, iterations=10, **kwargs)
    assert str(raised.value) == message
    with pytest.raises(error) as raised:
        engine.search_many([state], evaluator=lambda o, m: None, iterations=10, **kwargs)
    assert str(raised.value) == message.replace("search:", "search_many:")


def test_the_bots_take_exact(engine):
    """The bots' default is the engines'; ``exact`` in a spec reaches the search, and a bad one is refused."""
    import inspect

    from azul_engine import _pyengine

    # The C++ engine's defaults are the pure engine's (test_parity.py).
    assert inspect.signature(_pyengine.search).parameters["exact"].default == bots.MCTSBot().exact == \
        bots.NetBot().exact == inspect.signature(_pyengine.search_many).parameters["exact"].default
    state = tempo_state(engine)
    bot = bots.make_bot("mcts:300:exact=2", seed=1)
    assert bot.exact == 2 and bot.choose(state) == state.string_to_action("CBF")
    assert bot.last_result == engine.search(state, iterations=300, exact=2, seed=bots.MCTSBot(seed=1).rng.state)
    with pytest.raises(bots.BotSpecError, match="exact must be a whole number from 0 to 64, not 65"):
        bots.parse_bot_spec("mcts:100:exact=65")
    with pytest.raises(bots.BotSpecError, match="exact must be a whole number from 0 to 64, not -1"):
        bots.parse_bot_spec("net:exact=-1")
