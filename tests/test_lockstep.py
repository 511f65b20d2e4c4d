"""The two engines in lockstep: the same seeds and moves must give the same game, step by step.

The tests load both engines themselves (no ``engine`` fixture).  When the C++ engine is missing they skip
locally, but fail in CI (env CI set) or with AZUL_REQUIRE_CPP=1.  The whole run (300 games) is one test per
configuration, marked slow; the fast loop plays the first game of each.
"""

import pytest

import azul_engine
from helpers import CONFIGS, Picker, load_both

GAMES_PER_CONFIG = 25  # 12 configurations: 300 games
ILLEGAL_SAMPLES = 3


def outcome(state, move):
    """What applying ``move`` does: None if accepted, else the error's type and message."""
    try:
        state.apply(move)
    except (ValueError, TypeError) as exc:
        return type(exc).__name__, str(exc)
    return None


def refuse_alike(a, b, pick):
    """A few illegal moves (random ids, notation) are refused by both, with the same message.
    (That a refused move changes nothing is checked by test_illegal.py.)"""
    legal = set(a.legal_actions())
    for _ in range(ILLEGAL_SAMPLES):
        action = pick.below(330) - 8  # includes a few ids out of range at both ends
        if action in legal:
            continue
        move = action if pick.below(2) or not 0 <= action < 314 else _notation(a, action)
        got_a, got_b = outcome(a, move), outcome(b, move)
        assert got_a is not None, move
        assert got_a == got_b, move
    if not a.is_chance_node:
        with pytest.raises(azul_engine.IllegalMoveError) as err_a:
            a.chance_outcomes()
        with pytest.raises(azul_engine.IllegalMoveError) as err_b:
            b.chance_outcomes()
        assert str(err_a.value) == str(err_b.value)


def _notation(state, action):
    try:
        return state.action_to_string(action)
    except ValueError:
        return action


def lockstep(players, variant, chance, games):
    """Play games ``games`` (indices) of one configuration on both engines, checking every step; their count."""
    py, cpp = load_both()
    played = 0
    for game in games:
        seed = 7919 * game + 31 * players + (variant == "grey") + 2 * (chance == "explicit")
        a = py.new_game(players, variant, seed, chance)
        b = cpp.new_game(players, variant, seed, chance)
        pick = Picker(seed)
        step = 0
        while True:
            where = "%dp %s %s seed %d step %d" % (players, variant, chance, seed, step)
            actions = a.legal_actions()
            assert actions == b.legal_actions(), where
            assert a.to_text() == b.to_text(), where
            assert a.scores == b.scores, where
            assert a.legal_moves() == b.legal_moves(), where
            assert a.score_if_round_ended() == b.score_if_round_ended(), where
            if step % 5 == 0:
                assert str(a) == str(b), where  # the readable board
            if a.is_over:
                break
            if a.is_chance_node:
                assert a.chance_outcomes() == b.chance_outcomes(), where
            refuse_alike(a, b, pick)
            move = pick.lockstep_move(a, actions, likely=game % 2)
            a.apply(move)
            b.apply(move)
            step += 1
        assert b.is_over
        assert a.winners == b.winners and a.returns() == b.returns()
        assert a.record_json() == b.record_json(), where
        assert a.score_sheet() == b.score_sheet(), where
        assert a.to_text(history=True) == b.to_text(history=True), where
        played += 1
    return played


CONFIG_IDS = ["%dp-%s-%s" % config for config in CONFIGS]


@pytest.mark.slow
@pytest.mark.parametrize("players, variant, chance", CONFIGS, ids=CONFIG_IDS)
def test_engines_agree_in_lockstep(players, variant, chance):
    assert len(CONFIGS) * GAMES_PER_CONFIG == 300
    assert lockstep(players, variant, chance, range(GAMES_PER_CONFIG)) == GAMES_PER_CONFIG


@pytest.mark.parametrize("players, variant, chance", CONFIGS, ids=CONFIG_IDS)
def test_the_first_game_of_each_configuration_agrees_in_lockstep(players, variant, chance):
    assert lockstep(players, variant, chance, range(1)) == 1


def test_engines_read_each_others_text():
    py, cpp = load_both()
    a = py.new_game(3, "grey", 5)
    pick = Picker(5)
    while not a.is_over:
        text = a.to_text(history=True)
        b = cpp.GameState.from_text(text)
        assert b.to_text(history=True) == text
        assert b.legal_actions() == a.legal_actions()
        a.apply(pick.choice(a.legal_actions()))
