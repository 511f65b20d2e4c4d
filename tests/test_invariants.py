"""Invariants checked at every step of seeded random games: 2, 3 and 4 players, both walls,
both chance modes.  Moves are chosen by ``helpers.Picker`` (SplitMix64), never Python's random.
"""

import copy
import pickle

import pytest

from helpers import CONFIGS, Picker, complete_rows, end_bonus, is_stuck, tile_counts

GAMES_PER_CONFIG = 3


def check_state(engine, state):
    """Everything that must hold in any state."""
    assert tile_counts(state) == [20] * 5, "100 tiles, 20 of each colour"
    assert all(score >= 0 for score in state.scores)

    actions = state.legal_actions()
    assert (actions == []) == state.is_over
    assert actions == sorted(set(actions))
    assert all(0 <= a < engine.NUM_ACTIONS for a in actions)
    moves = state.legal_moves()
    assert moves == [state.action_to_string(a) for a in actions]
    assert [state.string_to_action(m) for m in moves] == actions

    chance = state.phase in ("first-player", "fill")
    assert state.is_chance_node == chance
    assert (state.current_player == -1) == (chance or state.is_over)
    if chance:
        outcomes = state.chance_outcomes()
        assert [a for a, _ in outcomes] == actions
        assert abs(sum(p for _, p in outcomes) - 1) < 1e-9
    if state.phase == "tiling":
        assert state.variant == "grey"
        assert state.pending_row >= 0
        assert all(m[0] == "W" and m[1] == str(state.pending_row + 1) for m in moves)
    else:
        assert state.pending_row == -1
    if state.phase == "offer":
        # The floor is always legal: every source and colour on offer has its floor move.
        sources = [(str(i + 1), f) for i, f in enumerate(state.factories)] + [("C", state.center)]
        for name, tiles in sources:
            for colour in set(tiles):
                assert name + colour + "F" in moves

    assert state.clone() == state
    assert engine.GameState.from_text(state.to_text()) == state


def check_copies(engine, state):
    """Copies, pickles and the history text keep the position and the record."""
    record = state.record_json()
    for other in (copy.copy(state), copy.deepcopy(state), pickle.loads(pickle.dumps(state)),
                  engine.GameState.from_text(state.to_text(history=True))):
        assert other == state
        assert other.record_json() == record


def check_round_start(state, walls_before):
    """A new round began: at most one new tile per wall row, none lost; the game could not
    end (no complete row, and some tile in play can still reach a wall)."""
    for before, after in zip(walls_before, state.walls):
        for row_before, row_after in zip(before, after):
            gained = [c for c in range(5) if row_before[c] != row_after[c]]
            assert len(gained) <= 1
            assert all(row_before[c] == "." for c in gained)
    assert all(complete_rows(wall) == 0 for wall in state.walls)
    supply = state.bag + state.lid + "".join(state.factories)
    assert not is_stuck(state, supply)


def check_game_over(state):
    record = state.record()
    last = record["rounds"][-1]["scores"]
    for p in range(state.players):
        assert state.scores[p] == last[p] + end_bonus(state.walls[p]), "bonuses exactly once"
    assert record["final_scores"] == state.scores
    best = max((state.scores[p], complete_rows(state.walls[p])) for p in range(state.players))
    assert state.winners == [p for p in range(state.players)
                             if (state.scores[p], complete_rows(state.walls[p])) == best]
    assert (any(complete_rows(w) for w in state.walls)
            or is_stuck(state, state.bag + state.lid))


def play_checked(engine, players, variant, seed, chance, likely):
    """Play one game, checking every step; ``likely``: choose moves as Picker.likely_move does,
    else uniformly."""
    state = engine.new_game(players, variant, seed, chance)
    pick = Picker(seed ^ 0xA2B1)
    walls, round_ = state.walls, state.round
    plies = 0
    while True:
        check_state(engine, state)
        if plies % 3 == 0:
            check_copies(engine, state)
        if state.round != round_:
            check_round_start(state, walls)
            walls, round_ = state.walls, state.round
        if state.is_over:
            break
        if likely:
            state.apply(pick.likely_move(state.legal_moves()))
        else:
            state.apply(pick.choice(state.legal_actions()))
        plies += 1
    check_copies(engine, state)
    check_game_over(state)
    return state


@pytest.mark.parametrize("players, variant, chance", CONFIGS)
def test_random_games_keep_the_invariants(engine, players, variant, chance):
    for game in range(GAMES_PER_CONFIG):
        seed = 1000 * players + 10 * game + (variant == "grey") + 5 * (chance == "explicit")
        state = play_checked(engine, players, variant, seed, chance, likely=game % 2 == 1)
        assert state.is_over
        assert not state.legal_moves()
