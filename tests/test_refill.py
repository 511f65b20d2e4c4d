"""Randomness and preparing the next round: rules.md section 5 and section 1, "Preparing the
next round".

``helpers.SplitMix64`` / ``helpers.reference_fill`` are an independent reading of section 5; the
engines must draw exactly what they predict.
"""

import pytest

from helpers import (Picker, SplitMix64, counts, letters, make_state, reference_fill,
                     reference_new_game)

# Four players on walls of 16 tiles (row 5 empty, so no game can be stuck): 36 tiles are left.
FILLER_WALL = "BYRK./WBYR./KWBY./RKWB./....."


def test_splitmix64_reference_matches_known_values():
    """The reference itself: the well-known first outputs of SplitMix64 from state 0."""
    rng = SplitMix64(0)
    assert [rng.next() for _ in range(3)] == [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4,
                                              0x06C45D188009454F]
    rng = SplitMix64(0)
    assert rng.below(100) == (0xE220A8397B1DCDAF >> 32) * 100 >> 32


@pytest.mark.parametrize("seed", [0, 1, 7, 42, 2024, 123456789, 2**63 + 5, 2**64 - 1])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_new_game_draws_first_player_then_factories_as_splitmix_predicts(engine, seed, players):
    first, factories, bag, rng = reference_new_game(seed, players)
    state = engine.new_game(players, "classic", seed)
    assert state.starting_player == first
    assert state.current_player == first
    assert state.factories == factories
    assert state.bag == letters(bag)
    assert "rng=%016x" % rng.state in state.to_text().split()


@pytest.mark.parametrize("seed", [3, 99])
def test_grey_variant_draws_the_same_way(engine, seed):
    first, factories, _, _ = reference_new_game(seed, 3)
    state = engine.new_game(3, "grey", seed)
    assert (state.starting_player, state.factories) == (first, factories)


def test_same_seed_and_moves_give_the_same_game(engine):
    a = engine.new_game(3, "grey", 2024)
    b = engine.new_game(3, "grey", 2024)
    pick = Picker(5)
    while not a.is_over:
        assert a.to_text() == b.to_text()
        move = pick.choice(a.legal_actions())
        a.apply(move)
        b.apply(move)
    assert a.to_text() == b.to_text()
    assert a.record_json() == b.record_json()


def test_different_seeds_give_different_factories(engine):
    assert engine.new_game(4, seed=1).factories != engine.new_game(4, seed=2).factories


def test_seed_is_checked(engine):
    with pytest.raises(ValueError):
        engine.new_game(2, seed=-1)
    with pytest.raises(ValueError):
        engine.new_game(2, seed=2**64)
    assert engine.new_game(2, seed=None).seed >= 0


def test_next_round_is_drawn_from_the_game_generator(engine):
    """After round 1 the factories are refilled by the same generator, continuing its stream
    (the bag still holds 80 tiles, so the lid is not touched)."""
    state = engine.new_game(2, "classic", 11)
    _, _, bag, rng = reference_new_game(11, 2)
    pick = Picker(3)
    while state.round == 1:
        state.apply(pick.choice(state.legal_actions()))
    assert state.factories == reference_fill(rng, bag, counts(state.lid), 5)


def test_factories_fill_in_order_four_tiles_each(engine):
    """Explicit chance mode: each drawn tile goes to the first factory that is not full."""
    state = engine.new_game(2, "classic", 0, "explicit")
    assert state.phase == "first-player"
    state.apply("~1")
    assert state.phase == "fill"
    for move in ["~B", "~B", "~Y", "~R", "~W"]:
        state.apply(move)
    assert state.factories == ["BBYR", "W", "", "", ""]
    assert state.bag == "B" * 18 + "Y" * 19 + "R" * 19 + "K" * 20 + "W" * 19


def test_lid_is_poured_into_the_bag_only_when_the_bag_is_empty(engine):
    """Explicit chance mode: the bag holds one blue and one yellow; the lid everything else."""
    state = make_state(engine, chance="explicit", factories=["W"], bag="BY", rest="lid", turn=1)
    lid = state.lid
    state.apply("1WF")
    assert state.phase == "fill"
    assert state.legal_moves() == ["~B", "~Y"]  # only what the bag holds
    assert counts(state.lid) == counts(lid + "W")  # player 1's white joined the lid
    state.apply("~B")
    assert state.legal_moves() == ["~Y"]
    state.apply("~Y")
    # The bag ran out during the filling: the whole lid went in.
    assert state.lid == ""
    assert counts(state.bag) == counts(lid + "W")
    assert state.legal_moves() == ["~B", "~Y", "~R", "~K", "~W"]


def test_lid_is_not_poured_while_the_bag_has_tiles(engine):
    """Sampled mode: 32 tiles in the bag, 20 needed; the lid keeps its tiles (and gains the
    round's discards), and the factories are exactly what the generator draws from the bag."""
    state = make_state(engine, factories=["W"], lid="BBBBYYYYRRRRKKKKWWWW", turn=1, rng=77,
                       walls=["BYRK./WBYR./KWBY./RKWB./....."] * 2)
    bag = counts(state.bag)
    assert sum(bag) == 100 - 32 - 20 - 1  # walls, lid, factory
    state.apply("1WF")
    assert state.lid == "BBBBYYYYRRRRKKKKWWWWW"
    assert state.factories == reference_fill(SplitMix64(77), bag, [0] * 5, 5)


def test_lid_stays_in_the_lid_when_the_bag_runs_out_with_the_last_factory(engine):
    """The bag holds exactly the 20 tiles needed: no tile is drawn from an empty bag, so the lid
    is not poured in."""
    state = make_state(engine, factories=["W"], bag="BBBBYYYYRRRRKKKKWWWW", rest="lid", turn=1,
                       rng=8)
    lid = state.lid
    state.apply("1WF")
    assert state.factories == reference_fill(SplitMix64(8), counts("BBBBYYYYRRRRKKKKWWWW"),
                                             [0] * 5, 5)
    assert state.bag == ""
    assert counts(state.lid) == counts(lid + "W")


def test_refill_takes_the_bag_first_then_the_whole_lid(engine):
    """Sampled mode, four players: the bag holds 10 tiles, the lid 26 after the round, the
    nine factories need 36: all of the bag, then the whole lid."""
    state = make_state(engine, players=4, walls=[FILLER_WALL] * 4, factories=["B"], turn=0,
                       bag="BBYYRRKKWW", rest="lid", rng=2024)
    bag, lid = counts(state.bag), counts(state.lid)
    state.apply("1BF")
    lid[0] += 1  # the blue from player 0's floor
    expected = reference_fill(SplitMix64(2024), bag[:], lid[:], 9)
    assert state.factories == expected
    assert [len(f) for f in state.factories] == [4] * 9
    first_eight = counts(state.factories[0] + state.factories[1])
    assert all(first_eight[c] <= bag[c] for c in range(5))  # drawn from the bag alone
    assert state.bag == "" and state.lid == ""


def test_factories_are_partly_filled_when_bag_and_lid_run_dry(engine):
    """rules 1: 34 tiles for nine factories of 4: eight full, the ninth holds 2."""
    state = make_state(engine, players=4, walls=[FILLER_WALL] * 4, factories=["Y"],
                       lines=["////Y", None, None, None], bag="BBBBYYYRRR", rest="lid",
                       turn=0, rng=5)
    bag, lid = counts(state.bag), counts(state.lid)
    state.apply("1Y5")
    assert state.round == 2
    assert [len(f) for f in state.factories] == [4] * 8 + [2]
    assert state.factories == reference_fill(SplitMix64(5), bag, lid, 9)
    assert state.bag == "" and state.lid == ""


def test_explicit_fill_stops_when_bag_and_lid_are_empty(engine):
    state = make_state(engine, players=4, walls=[FILLER_WALL] * 4, factories=["Y"],
                       lines=["////Y", None, None, None], bag="BBBBYYYRRR", rest="lid",
                       turn=0, chance="explicit")
    state.apply("1Y5")
    pick = Picker(9)
    draws = 0
    while state.is_chance_node:
        state.apply(pick.choice(state.legal_actions()))
        draws += 1
    assert draws == 34
    assert state.phase == "offer"
    assert [len(f) for f in state.factories] == [4] * 8 + [2]


def test_reseed_replaces_the_generator_state(engine):
    state = make_state(engine, factories=["W"], turn=1, seed=1, rng=1)
    copy = state.clone()
    copy.reseed(99)
    bag = counts(state.bag)
    state.apply("1WF")
    copy.apply("1WF")
    assert state.factories == reference_fill(SplitMix64(1), bag[:], [0] * 5, 5)
    assert copy.factories == reference_fill(SplitMix64(99), bag[:], [0] * 5, 5)
    assert copy.seed == 1


def test_reseeded_game_records_a_null_seed(engine):
    state = engine.new_game(2, seed=5)
    assert state.record()["seed"] == 5
    state.reseed(6)
    assert state.record()["seed"] is None


def test_chance_outcomes_are_in_proportion_to_the_bag(engine):
    state = engine.new_game(2, "classic", 0, "explicit")
    assert state.is_chance_node
    assert state.current_player == -1
    assert state.chance_outcomes() == [(310, 0.5), (311, 0.5)]
    state.apply(311)
    assert state.starting_player == 1
    state.apply("~B")
    outcomes = state.chance_outcomes()
    assert [a for a, _ in outcomes] == [305, 306, 307, 308, 309] == state.legal_actions()
    assert [p for _, p in outcomes] == [19 / 99, 20 / 99, 20 / 99, 20 / 99, 20 / 99]


def test_explicit_game_with_the_generator_outcomes_equals_the_sampled_game(engine):
    """Feeding the reference draws as chance outcomes reproduces the sampled game's position."""
    sampled = engine.new_game(3, "classic", 31)
    explicit = engine.new_game(3, "classic", 31, "explicit")
    first, factories, _, _ = reference_new_game(31, 3)
    explicit.apply("~%d" % first)
    for f in factories:
        for ch in f:
            explicit.apply("~" + ch)
    assert explicit.phase == "offer"
    assert explicit.factories == sampled.factories
    assert explicit.bag == sampled.bag
    assert explicit.current_player == sampled.current_player
    assert explicit.record()["seed"] is None
    assert explicit.record()["rounds"] == sampled.record()["rounds"]
