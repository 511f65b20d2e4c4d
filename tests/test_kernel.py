"""The playout kernels (random_playouts, playouts_from) against the rules played move by move.

The C++ engine plays random games in a compact playout-only representation (native/src/classic/kernel.cpp); these tests
hold it, and the pure engine, to the games that the public API plays one ``apply()`` at a time: from states of
every phase (first-player and fill chance nodes of explicit mode, mid-offer, a pending grey-wall choice, the
last move before a stuck game), every variant and player count.
"""

import pytest

import azul_engine
from helpers import Picker, make_state
from test_end import STUCK_WALL
from test_playouts import play_by_hand, splitmix_output

PURE = azul_engine.load_backend("python")


def by_hand(state, n, seed):
    """What playouts_from(state, n, seed) must return, played through the pure engine's public API (an
    explicit-chance state: the pure engine's playouts_from, whose chance nodes draw from the game's generator
    as in sampled mode, which the public API cannot do one move at a time)."""
    if state.chance_mode == "explicit":
        return PURE.playouts_from(PURE.from_text(state.to_text()), n, seed=seed).tolist()
    rows = []
    for i in range(n):
        copy = PURE.from_text(state.to_text())
        copy.reseed(splitmix_output(seed, 2 * i + 1))
        rows.append(play_by_hand(PURE, copy, splitmix_output(seed, 2 * i + 2))[0])
    return rows


def states_along_a_game(engine, players, variant, chance, seed, every):
    """States of one random game, every ``every`` plies (chance outcomes count as plies)."""
    state = engine.new_game(players, variant, seed=seed, chance=chance)
    pick = Picker(seed)
    out, ply = [], 0
    while not state.is_over:
        if ply % every == 0:
            out.append(state.clone())
        if state.is_chance_node:
            actions = [a for a, _ in state.chance_outcomes()]
        else:
            actions = state.legal_actions()
        state.apply(pick.choice(actions))
        ply += 1
    out.append(state)
    return out


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("variant", ["classic", "grey"])
def test_playouts_from_any_state_are_the_games_played_move_by_move(engine, players, variant):
    phases = set()
    for chance, seed, every in (("sampled", players, 7), ("explicit", 10 + players, 11)):
        for state in states_along_a_game(engine, players, variant, chance, seed, every):
            phases.add(state.phase)
            assert engine.playouts_from(state, 2, seed=seed).tolist() == by_hand(state, 2, seed), state.to_text()
    assert {"first-player", "fill", "offer", "over"} <= phases
    if variant == "grey":
        assert "tiling" in phases


@pytest.mark.parametrize("players,variant,seed", [(2, "classic", 3), (3, "grey", 4), (4, "classic", 5),
                                                  (4, "grey", 6), (2, "grey", 9)])
def test_random_playouts_are_new_games_played_move_by_move(engine, players, variant, seed):
    scores, plies = engine.random_playouts(12, players, variant, seed=seed, with_plies=True)
    total = 0
    for i in range(12):
        game = PURE.new_game(players, variant, seed=splitmix_output(seed, 2 * i + 1))
        expected, n = play_by_hand(PURE, game, splitmix_output(seed, 2 * i + 2))
        assert scores[i].tolist() == expected
        total += n
    assert plies == total


@pytest.mark.parametrize("lines,lid,variant", [
    (["/K/RR/YYY/WW", "/K/RR/Y/WW", "/K///WW", "/K///W"], "BB", "classic"),   # the last move makes it stuck
    (["/K/RR/YYY/WW", "/K/RR/Y/WW", "/K///WW", "/K///"], "BB", "classic"),    # not stuck: line 5 stays open
    (["/K/RR/YYY/BBBB", "/K/RR/Y/WWW", "/K///WWW", "/K///W"], "", "classic"),  # nothing left to draw
    (["/K/RR/YYY/WW", "/K/RR/Y/WW", "/K///WW", "/K///W"], "BB", "grey"),
])
def test_playouts_from_the_edge_of_a_stuck_game(engine, lines, lid, variant):
    """The last tile of a round, on walls where almost nothing can still be placed (test_end's stuck games)."""
    state = make_state(engine, players=4, variant=variant, walls=[STUCK_WALL] * 4, lines=lines, lid=lid,
                       scores=[5, 0, 3, 8], turn=3, start=0, factories=["W"])
    assert engine.playouts_from(state, 4, seed=1).tolist() == by_hand(state, 4, seed=1)


def test_playouts_from_a_pending_grey_wall_choice(engine):
    """Tiling stopped at a grey-wall decision mid-way through the players: the kernel resumes there."""
    seen = 0
    for seed in range(40):
        for state in states_along_a_game(engine, 3, "grey", "sampled", seed, 1):
            if state.phase == "tiling" and state.current_player != state.starting_player:
                assert engine.playouts_from(state, 2, seed=seed).tolist() == by_hand(state, 2, seed)
                seen += 1
        if seen >= 5:
            break
    assert seen >= 5
