"""state.undo() on both engines: each undo restores exactly the state before the last apply(), its
generator and history included, move by move back to the start; errors and what clears the undo history."""

import pickle
import random

import pytest

import azul_engine

VARIANTS = ("classic", "grey", "summer-pavilion")
NOTHING = ("undo: no move to take back (none was applied since this state was made, read from text, "
           "dealt or reseeded)")


def random_action(g, rng):
    if g.is_chance_node:
        outcomes = g.chance_outcomes()
        return outcomes[rng.randrange(len(outcomes))][0]
    legal = g.legal_actions()
    return legal[rng.randrange(len(legal))]


def play(g, rng, limit):
    """Plays up to ``limit`` random actions; returns [(state before, its full text, action)]."""
    steps = []
    while not g.is_over and len(steps) < limit:
        a = random_action(g, rng)
        steps.append((g.clone(), g.to_text(history=True), a))
        g.apply(a)
    return steps


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("chance", ["sampled", "explicit"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_undo_goes_back_move_by_move_to_the_start(engine, variant, chance, players):
    seed = players * 10 + VARIANTS.index(variant)
    g = engine.new_game(players, variant=variant, seed=seed, chance=chance)
    steps = play(g, random.Random(seed), 1000 if players == 2 else 150)
    assert steps
    final, final_text = g.clone(), g.to_text(history=True)
    for before, text, _ in reversed(steps):
        g.undo()
        assert g == before
        assert g.to_text(history=True) == text  # the history is taken back too
        assert g.legal_actions() == before.legal_actions()
    with pytest.raises(azul_engine.IllegalMoveError) as info:
        g.undo()
    assert str(info.value) == NOTHING
    # The same actions again give the same game: the generator was restored with the position.
    for _, _, a in steps:
        g.apply(a)
    assert g == final and g.to_text(history=True) == final_text


@pytest.mark.parametrize("variant", VARIANTS)
def test_after_undo_the_same_action_gives_the_same_future(engine, variant):
    g = engine.new_game(2, variant=variant, seed=5)
    rng = random.Random(5)
    for _ in range(60):
        if g.is_over:
            break
        a = random_action(g, rng)
        after = g.clone()
        after.apply(a)
        g.apply(a)
        g.undo()
        g.apply(a)
        assert g == after
        # both continue identically (same generator, same draws at the next refills)
        x, y = g.clone(), after.clone()
        moves = random.Random(len(g.to_text()))
        while not x.is_over:
            b = random_action(x, moves)
            x.apply(b)
            y.apply(b)
        assert x == y and x.record() == y.record()


@pytest.mark.parametrize("variant", VARIANTS)
def test_undo_with_nothing_to_undo(engine, variant):
    g = engine.new_game(2, variant=variant, seed=1)
    for state in (g, engine.from_text(g.to_text()), pickle.loads(pickle.dumps(g))):
        with pytest.raises(azul_engine.IllegalMoveError) as info:
            state.undo()
        assert str(info.value) == NOTHING
        assert state == g


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_refused_move_is_not_recorded_for_undo(engine, variant):
    g = engine.new_game(2, variant=variant, seed=3)
    before = g.clone()
    a = g.legal_actions()[0]
    g.apply(a)
    after = g.clone()
    with pytest.raises(azul_engine.IllegalMoveError):
        g.apply(a if variant != "summer-pavilion" else 1797)  # no longer legal
    assert g == after
    g.undo()
    assert g == before


@pytest.mark.parametrize("variant", VARIANTS)
def test_clone_keeps_the_undo_history_and_both_stay_independent(engine, variant):
    g = engine.new_game(2, variant=variant, seed=11)
    rng = random.Random(11)
    steps = play(g, rng, 80)  # into the second round or later
    assert g.round >= 2
    original, original_record = g.clone(), g.record()
    c = g.clone()
    for before, text, _ in reversed(steps):
        c.undo()
        assert c == before and c.to_text(history=True) == text
    # the clone's undo, then moves of its own, change nothing in the original (nor its history)
    play(c, random.Random(1), 50)
    assert g == original and g.record() == original_record
    # and the original's own undo history is whole
    g.undo()
    assert g == steps[-1][0]
    import copy
    d = copy.deepcopy(g)
    d.undo()
    assert d == steps[-2][0]


def test_deal_and_reseed_start_a_new_undo_history(engine):
    g = engine.new_game(2, seed=4)
    g.apply(g.legal_actions()[0])
    g.reseed(99)
    with pytest.raises(azul_engine.IllegalMoveError, match="no move to take back"):
        g.undo()
    e = engine.new_game(2, seed=4, chance="explicit")
    while e.is_chance_node:
        e.apply(e.chance_outcomes()[0][0])
    e.undo()  # chance outcomes are taken back like moves
    assert e.is_chance_node
    f = engine.new_game(2, seed=4)
    f.deal(["BBBB", "YYYY", "RRRR", "KKKK", "WWWW"])
    with pytest.raises(azul_engine.IllegalMoveError, match="no move to take back"):
        f.undo()
    f.apply("1B1")
    dealt = engine.new_game(2, seed=4)
    dealt.deal(["BBBB", "YYYY", "RRRR", "KKKK", "WWWW"])
    f.undo()
    assert f == dealt


def test_pavilion_deal_supply_starts_a_new_undo_history(engine):
    g = engine.new_game(2, variant="summer-pavilion", seed=2, chance="explicit")
    g.apply(g.chance_outcomes()[0][0])  # the first player
    assert g.phase == "fill"
    g.deal_supply("PPGGOOYYBB")
    with pytest.raises(azul_engine.IllegalMoveError, match="no move to take back"):
        g.undo()


@pytest.mark.parametrize("variant", VARIANTS)
def test_undo_after_the_game_ended(engine, variant):
    g = engine.new_game(2, variant=variant, seed=8)
    steps = play(g, random.Random(8), 10_000)
    assert g.is_over and g.winners
    g.undo()
    assert not g.is_over and g == steps[-1][0] and g.winners == []
