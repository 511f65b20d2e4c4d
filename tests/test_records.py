"""Game records, "azul-record" version 1 (records.md): format, notation, replay."""

import json

import pytest

from helpers import CONFIGS, Picker


def finished_game(engine, players, variant, seed, chance="sampled"):
    state = engine.new_game(players, variant, seed, chance)
    pick = Picker(seed)
    while not state.is_over:
        state.apply(pick.choice(state.legal_actions()))
    return state


def replay(engine, record):
    """Replay a record with explicit chance outcomes: the first player, then each round's
    factories through deal(), then the round's moves."""
    state = engine.new_game(record["players"], record["variant"], 0, "explicit")
    state.apply("~%d" % record["first_player"])
    for rnd in record["rounds"]:
        state.deal(rnd["factories"])
        for move in rnd["moves"]:
            state.apply(move)
        assert state.scores == rnd["scores"] or state.is_over
    return state


def test_record_of_a_new_game(engine):
    state = engine.new_game(2, "classic", 7)
    assert state.record() == {
        "format": "azul-record", "version": 1, "variant": "classic", "players": 2, "seed": 7,
        "first_player": 0,
        "rounds": [{"factories": ["BRRW", "BYYR", "BRWW", "RWWW", "YKKK"], "moves": [],
                    "scores": None}],
        "final_scores": None, "winners": None}


def test_record_of_a_finished_game(engine):
    state = finished_game(engine, 3, "grey", 12)
    record = state.record()
    assert list(record) == ["format", "version", "variant", "players", "seed", "first_player",
                            "rounds", "final_scores", "winners"]
    assert (record["variant"], record["players"], record["seed"]) == ("grey", 3, 12)
    assert len(record["rounds"]) == state.round
    assert all(len(r["factories"]) == 7 for r in record["rounds"])
    assert all(len(r["scores"]) == 3 for r in record["rounds"])
    assert record["final_scores"] == state.scores
    assert record["winners"] == state.winners
    moves = [m for r in record["rounds"] for m in r["moves"]]
    assert all(len(m) == 3 for m in moves)
    assert any(m.startswith("W") for m in moves)


def test_record_json_is_compact_json_of_the_record(engine):
    state = finished_game(engine, 2, "classic", 4)
    text = state.record_json()
    assert json.loads(text) == state.record()
    assert text == json.dumps(state.record(), separators=(", ", ": "))
    assert text.startswith('{"format": "azul-record", "version": 1, "variant": "classic", ')


def test_explicit_chance_game_records_a_null_seed(engine):
    state = finished_game(engine, 2, "classic", 4, "explicit")
    assert state.record()["seed"] is None
    moves = [m for r in state.record()["rounds"] for m in r["moves"]]
    assert not any(m.startswith("~") for m in moves), "chance outcomes are not moves"
    assert json.loads(state.record_json())["seed"] is None


def test_dealt_round_records_its_factories_and_a_null_seed(engine):
    state = engine.new_game(2, seed=7)
    state.deal(["BBBB", "YYYY", "RRRR", "KKKK", "WWWW"])
    assert state.factories == ["BBBB", "YYYY", "RRRR", "KKKK", "WWWW"]
    assert state.bag == "B" * 16 + "Y" * 16 + "R" * 16 + "K" * 16 + "W" * 16
    record = state.record()
    assert record["seed"] is None
    assert record["rounds"] == [{"factories": ["BBBB", "YYYY", "RRRR", "KKKK", "WWWW"],
                                 "moves": [], "scores": None}]


@pytest.mark.parametrize("players, variant, chance", CONFIGS)
def test_record_replays_to_the_same_game(engine, players, variant, chance):
    seed = 100 + players
    state = finished_game(engine, players, variant, seed, chance)
    record = state.record()
    again = replay(engine, record)
    assert again.is_over
    assert again.walls == state.walls
    mine = again.record()
    assert mine["rounds"] == record["rounds"]
    assert (mine["final_scores"], mine["winners"]) == (record["final_scores"], record["winners"])


def test_action_ids_and_notation_correspond(engine):
    state = engine.new_game(4, seed=1)
    assert state.string_to_action("1B1") == 0
    assert state.string_to_action("1BF") == 5
    assert state.string_to_action("3R4") == (2 * 5 + 2) * 6 + 3
    assert state.string_to_action("CWF") == engine.NUM_DRAFT_ACTIONS - 1 == 299
    assert state.string_to_action("~B") == engine.DRAW_ACTION_BASE == 305
    assert state.string_to_action("~W") == 309
    assert state.string_to_action("~0") == engine.FIRST_PLAYER_ACTION_BASE == 310
    assert state.string_to_action("~3") == 313 == engine.NUM_ACTIONS - 1
    assert state.action_to_string(299) == "CWF"
    assert state.action_to_string(307) == "~R"
    assert state.action_to_string(312) == "~2"
    assert engine.COLOURS == "BYRKW"
    assert tuple(engine.VARIANTS) == ("classic", "grey", "summer-pavilion")
