"""game_info(variant, players): the per-variant facts both engines publish (GameInfo), checked against what the
engines actually do: the action mask, the observation tensor part by part, scores, colours and rounds."""

import pickle

import numpy as np
import pytest

from helpers import Picker, make_state

CONFIGS = [(v, p) for v in ("classic", "grey", "summer-pavilion") for p in (2, 3, 4)]
FIELDS = ("variant", "players", "num_actions", "observation_shape", "observation_offsets", "seat_features",
          "colours", "start_score", "min_score", "max_score", "max_rounds", "rounds", "factories",
          "tiles_per_colour", "wild_colours", "end_bonuses", "floor_penalties", "wall_pattern", "stars")


def _played(engine, variant, players, seed, moves):
    state = engine.new_game(players, variant, seed=seed)
    pick = Picker(seed)
    for _ in range(moves):
        if state.is_over:
            break
        state.apply(pick.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize("variant,players", CONFIGS)
def test_facts_match_the_engine(engine, variant, players):
    info = engine.game_info(variant=variant, players=players)
    assert (info.variant, info.players) == (variant, players)
    state = engine.new_game(players, variant, seed=3)
    assert info.num_actions == len(state.legal_action_mask())
    assert info.observation_shape == engine.observation_shape(players, variant)
    assert info.observation_shape == state.observation_tensor().shape
    assert info.start_score == state.scores[0] and len(set(state.scores)) == 1
    assert info.factories == len(state.factories) == 2 * players + 1
    pavilion = variant == "summer-pavilion"
    assert info.colours == (engine.SP_COLOURS if pavilion else engine.COLOURS)
    assert info.rounds == (6 if pavilion else None)
    assert info.max_rounds == (6 if pavilion else engine.MAX_ROUNDS)
    assert info.wild_colours == ("PGOYBR" if pavilion else None)
    assert info.tiles_per_colour * len(info.colours) == (132 if pavilion else 100)
    assert info.seat_features == (87 if pavilion else 154)


@pytest.mark.parametrize("variant,players", CONFIGS)
def test_offsets_cover_the_tensor_in_layout_order(engine, variant, players):
    info = engine.game_info(variant, players)
    parts = list(info.observation_offsets.items())
    start = 0
    for name, (first, length) in parts:
        assert first == start and length > 0, name
        start += length
    assert start == info.observation_shape[0]
    seat_names = [n.split(".", 1)[1] for n, _ in parts if n.startswith("seat0.")]
    for k in range(players):
        block = [(n.split(".", 1)[1], ln) for n, (_, ln) in parts if n.startswith("seat%d." % k)]
        assert [n for n, _ in block] == seat_names
        assert sum(ln for _, ln in block) == info.seat_features
    assert parts[info.seat_features * 0 + len(seat_names) * players][0] == "factories"


def _part(tensor, info, name):
    start, length = info.observation_offsets[name]
    return tensor[start:start + length]


def test_classic_parts_say_what_their_names_say(engine):
    info = engine.game_info("classic", 2)
    state = make_state(engine, factories=["BBYR", "W"], center="KK", lines=["/Y/RR//", "B////"],
                       walls=["B..../...../...../...../.....", "...../W..../...../...../....."],
                       floors=["MK", "YY"], scores=[7, 3], turn=1, start=0)
    t = state.observation_tensor(1)  # player 1's block first
    assert _part(t, info, "seat0.score").tolist() == [np.float32(0.03)]
    assert _part(t, info, "seat1.score").tolist() == [np.float32(0.07)]
    assert _part(t, info, "seat1.holds_marker")[0] == 1 and _part(t, info, "seat1.marker_on_floor")[0] == 1
    assert _part(t, info, "seat0.holds_marker")[0] == 0
    assert _part(t, info, "seat0.floor")[0] == np.float32(2 / 7)
    assert _part(t, info, "seat0.wall").reshape(5, 5, 5)[4, 1, 0] == 1  # white (4) at row 2, column 1
    assert _part(t, info, "seat1.pattern_lines").reshape(5, 5)[2, 2] == np.float32(2 / 3)  # line 3: RR
    assert _part(t, info, "factories").reshape(9, 5)[0].tolist() == [0.5, 0.25, 0.25, 0, 0]
    assert _part(t, info, "centre").tolist() == [0, 0, 0, np.float32(0.1), 0]
    assert _part(t, info, "marker_in_centre")[0] == 0
    assert _part(t, info, "phase").tolist() == [0, 0, 1, 0, 0]  # offer
    assert _part(t, info, "starting_seat").tolist() == [0, 1, 0, 0]


@pytest.mark.parametrize("players", [2, 4])
def test_pavilion_parts_say_what_their_names_say(engine, players):
    info = engine.game_info("summer-pavilion", players)
    state = _played(engine, "summer-pavilion", players, seed=5, moves=60)
    observer = 1
    t = state.observation_tensor(observer)
    for k in range(players):
        seat = (observer + k) % players
        assert _part(t, info, "seat%d.score" % k)[0] == np.float32(state.scores[seat] / 100)
        hand = [state.hands[seat].count(c) / 22 for c in info.colours]
        assert _part(t, info, "seat%d.hand" % k).tolist() == pytest.approx(hand)
    assert _part(t, info, "round")[0] == np.float32(state.round / info.rounds)
    wild = _part(t, info, "wild_colour").tolist()
    assert wild.index(1.0) == info.wild_colours.index(info.wild_colours[state.round - 1]) == state.round - 1
    supply = [state.supply.count(c) / 10 for c in info.colours]
    assert _part(t, info, "supply").tolist() == pytest.approx(supply)


@pytest.mark.parametrize("variant", ["classic", "grey", "summer-pavilion"])
def test_scores_stay_within_the_bounds(engine, variant):
    info = engine.game_info(variant, 4)
    scores = np.asarray(engine.random_playouts(200, 4, variant, seed=11))
    assert scores.min() >= info.min_score and scores.max() <= info.max_score
    state = _played(engine, variant, 4, seed=2, moves=10_000)
    assert state.is_over and info.min_score <= min(state.scores) and max(state.scores) <= info.max_score
    if info.rounds is not None:
        assert state.round == info.rounds


def test_end_bonuses_are_the_engines(engine):
    bonus = engine.game_info("classic").end_bonuses
    full = engine.end_bonus(["BYRKW", "WBYRK", "KWBYR", "RKWBY", "YRKWB"], variant="classic")
    assert full["points"] == 5 * bonus["row"] + 5 * bonus["column"] + 5 * bonus["colour"]
    one_row = engine.end_bonus(["BYRKW", ".....", ".....", ".....", "....."])
    assert one_row["points"] == bonus["row"]
    sp = engine.game_info("summer-pavilion").end_bonuses
    assert [sp["star-" + s] for s in engine.SP_STARS] == [17, 14, 15, 16, 18, 20, 12]
    assert [sp["number-%d" % n] for n in (1, 2, 3, 4)] == [4, 8, 12, 16]


def test_the_wall_pattern_stars_and_floor_are_the_engines(engine):
    """The facts the tools draw with: every tile a classic game puts on a wall sits where wall_pattern says, the
    pattern is a full legal wall, the floor penalties add up to the rules' totals, the stars are the engine's."""
    import itertools
    import random

    classic, grey, sp = (engine.game_info(v) for v in ("classic", "grey", "summer-pavilion"))
    pattern = classic.wall_pattern
    assert engine.end_bonus(list(pattern), variant="classic")["points"] == 5 * 2 + 5 * 7 + 5 * 10
    state, rng, seen = engine.new_game(2, "classic", seed=11), random.Random(2), 0
    while not state.is_over:
        state.apply(rng.choice(state.legal_actions()))
        for wall in state.walls:
            for r, row in enumerate(wall):
                for c, cell in enumerate(row):
                    if cell != ".":
                        assert cell == pattern[r][c]
                        seen += 1
    assert seen > 20
    assert list(itertools.accumulate(classic.floor_penalties)) == [1, 2, 4, 6, 8, 11, 14]
    assert grey.floor_penalties == classic.floor_penalties and grey.wall_pattern is None
    assert sp.floor_penalties is None and sp.wall_pattern is None and classic.stars is None
    assert sp.stars == "".join(engine.SP_STARS) and sorted(sp.stars) == sorted(sp.colours + "C")


def test_both_engines_agree(engines):
    py, cpp = engines
    for variant, players in CONFIGS:
        a, b = py.game_info(variant, players), cpp.game_info(variant, players)
        for field in FIELDS:
            x, y = getattr(a, field), getattr(b, field)
            if field in ("observation_offsets", "end_bonuses"):
                x, y = list(x.items()), list(y.items())
            assert x == y, (variant, players, field)
        assert repr(a) == repr(b)


def test_read_only_and_value_semantics(engine):
    info = engine.game_info("grey", 3)
    for name, value in (("players", 4), ("num_actions", 1), ("anything", 0)):
        with pytest.raises(AttributeError, match="GameInfo is read-only"):
            setattr(info, name, value)
    with pytest.raises(AttributeError, match="GameInfo is read-only"):
        del info.players
    with pytest.raises(TypeError):
        info.observation_offsets["round"] = (0, 1)
    with pytest.raises(TypeError):
        info.end_bonuses["row"] = 3
    assert info.players == 3 and info.observation_offsets["round"] != (0, 1)
    for make in (lambda: type(info)(), lambda: type(info).__new__(type(info)), lambda: type(info)("grey", 3)):
        with pytest.raises(TypeError) as refused:
            make()  # never an object over unmade memory
        assert str(refused.value) == "use azul_engine.game_info(variant, players)"
    assert info == engine.game_info(variant="grey", players=3) and hash(info) == hash(engine.game_info("grey", 3))
    assert info != engine.game_info("classic", 3) and info != engine.game_info("grey", 2) and info != ("grey", 3)
    assert repr(info) == "GameInfo(variant='grey', players=3)"
    assert pickle.loads(pickle.dumps(info)) == info
    assert engine.game_info() == engine.game_info("classic", 2)


@pytest.mark.parametrize("args,error,message", [
    (("classic", 5), ValueError, "players must be 2, 3 or 4, got 5"),
    (("classic", True), TypeError, "players must be an int, not bool"),
    (("classic", "2"), TypeError, "players must be an int, not str"),
    (("chess", 2), ValueError, "unknown variant 'chess' (variants: classic, grey, summer-pavilion)"),
    ((None, 2), ValueError, "unknown variant None (variants: classic, grey, summer-pavilion)"),
])
def test_bad_arguments_raise_as_new_game_does(engine, args, error, message):
    variant, players = args
    with pytest.raises(error) as raised:
        engine.game_info(variant, players)
    assert str(raised.value) == message
    with pytest.raises(error) as again:
        engine.new_game(players, variant, seed=0)
    assert str(again.value) == message
