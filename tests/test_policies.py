"""Rollout policies of random_playouts and playouts_from on both engines: "uniform" (the default, unchanged) and
"light" (docs/playouts.md "Rollout policies"), followed here through the public API from its documented rules alone."""

import random

import numpy as np
import pytest

import azul_engine
from azul_engine import bench

PURE = azul_engine.load_backend("python")
MASK64 = (1 << 64) - 1
VARIANTS = ("classic", "grey", "summer-pavilion")
PASS_BASE, BONUS_BASE = 1578, 1572  # Summer Pavilion action ids: passes, bonus picks (placements below them)


def splitmix_output(seed, k):
    s = (seed + k * 0x9E3779B97F4A7C15) & MASK64
    z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return z ^ (z >> 31)


class Draws:
    """The policy generator: SplitMix64 from a seed, below(n) from the top 32 bits (rules.md section 5)."""

    def __init__(self, seed):
        self.s = seed

    def below(self, n):
        self.s = (self.s + 0x9E3779B97F4A7C15) & MASK64
        z = self.s
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        z ^= z >> 31
        return ((z >> 32) * n) >> 32


def light_choice(state, draws):
    """The light policy's move, from docs/playouts.md's rules and the public API only."""
    legal = state.legal_actions()
    if state.variant == "summer-pavilion":
        if state.phase == "play":
            placements = [a for a in legal if a < BONUS_BASE]
            if placements and draws.below(16) != 0:
                return placements[draws.below(len(placements))]
            passes = [a for a in legal if a >= PASS_BASE]
            most = max(len(azul_engine.SP_KEEP_SETS[a - PASS_BASE]) for a in passes)
            passes = [a for a in passes if len(azul_engine.SP_KEEP_SETS[a - PASS_BASE]) == most]
            return passes[draws.below(len(passes))]
        return legal[draws.below(len(legal))]
    if state.phase == "offer":
        lines = [a for a in legal if a % 6 != 5]
        if lines:
            return lines[draws.below(len(lines))]
    return legal[draws.below(len(legal))]


def play_light_by_hand(state, policy_seed):
    draws = Draws(policy_seed)
    plies = 0
    while not state.is_over:
        state.apply(light_choice(state, draws))
        plies += 1
    return state.scores, plies


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_light_playouts_follow_the_documented_rules(engine, variant, players):
    scores, plies = engine.random_playouts(4, players, variant, seed=11, policy="light", with_plies=True)
    total = 0
    for i in range(4):
        game = engine.new_game(players, variant, seed=splitmix_output(11, 2 * i + 1))
        expected, n = play_light_by_hand(game, splitmix_output(11, 2 * i + 2))
        assert scores[i].tolist() == expected
        total += n
    assert plies == total


@pytest.mark.parametrize("variant", VARIANTS)
def test_light_playouts_from_a_state_follow_the_rules_and_agree_with_the_pure_engine(engine, variant):
    for seed in range(3):
        g = engine.new_game(2, variant, seed=seed, chance="explicit" if seed == 2 else "sampled")
        rng = random.Random(seed)
        for _ in range(rng.randrange(0, 30)):
            if g.is_over:
                break
            if g.is_chance_node:
                g.apply(g.chance_outcomes()[0][0])
            else:
                legal = g.legal_actions()
                g.apply(legal[rng.randrange(len(legal))])
        scores = engine.playouts_from(g, 3, seed=5, policy="light")
        assert (scores == PURE.playouts_from(PURE.from_text(g.to_text()), 3, seed=5, policy="light")).all()
        if g.chance_mode == "sampled":  # explicit chance is drawn from the game's generator in a playout
            for i in range(3):
                c = g.clone()
                c.reseed(splitmix_output(5, 2 * i + 1))
                assert play_light_by_hand(c, splitmix_output(5, 2 * i + 2))[0] == scores[i].tolist()


# bench.checksum(engine, players, variant, games=50, policy="light"): the rules and the light policy.
PINNED_LIGHT = {
    (2, "classic"): "799ba376ff06810d",
    (2, "grey"): "e86134fd903f487b",
    (4, "classic"): "4c7fc6392e8c0f66",
    (4, "grey"): "3544ca548cf14eae",
    (2, "summer-pavilion"): "c3a9f57642209acd",
    (4, "summer-pavilion"): "ebd0013bbc2cdb9b",
}


@pytest.mark.parametrize("players,variant", bench.CONFIGS)
def test_light_checksums_are_pinned(engine, players, variant):
    assert bench.checksum(engine, players, variant, games=50, policy="light") == PINNED_LIGHT[(players, variant)]


def test_uniform_is_the_default_and_unchanged(engine):
    for players, variant in bench.CONFIGS[:5]:
        a = engine.random_playouts(10, players, variant, seed=3)
        assert (a == engine.random_playouts(10, players, variant, seed=3, policy="uniform")).all()
        assert not (a == engine.random_playouts(10, players, variant, seed=3, policy="light")).all()
    g = engine.new_game(3, "grey", seed=2)
    assert (engine.playouts_from(g, 5, seed=1) == engine.playouts_from(g, 5, seed=1, policy="uniform")).all()


@pytest.mark.parametrize("bad", ["Light", "random", "", 1, None, b"light"])
def test_an_unknown_policy_names_the_choices(engine, bad):
    message = "unknown policy %r; expected one of: uniform, light" % (bad,)
    with pytest.raises(ValueError) as info:
        engine.random_playouts(1, 2, "classic", seed=0, policy=bad)
    assert str(info.value) == message
    with pytest.raises(ValueError) as info:
        engine.playouts_from(engine.new_game(2, seed=1), 1, policy=bad)
    assert str(info.value) == message


@pytest.mark.parametrize("bad", ["light", 1, 0, None, "yes"])
def test_with_plies_is_a_keyword_and_a_bool(engine, bad):
    """with_plies and policy are keywords: random_playouts(3, 2, "classic", 0, 1, "light") meant the light
    policy, but the sixth argument was with_plies (C++ refused "light", the pure engine took it as True and
    played the uniform policy).  with_plies is True or False, in both engines."""
    g = engine.new_game(2, seed=1)
    with pytest.raises(TypeError):
        engine.random_playouts(3, 2, "classic", 0, 1, "light")
    with pytest.raises(TypeError):
        engine.playouts_from(g, 3, 0, 1, True)
    message = "with_plies must be True or False, not %s" % type(bad).__name__
    with pytest.raises(TypeError) as info:
        engine.random_playouts(3, 2, "classic", seed=0, with_plies=bad)
    assert str(info.value) == message
    with pytest.raises(TypeError) as info:
        engine.playouts_from(g, 3, seed=0, with_plies=bad)
    assert str(info.value) == message
    scores, plies = engine.playouts_from(g, 3, 0, 1, with_plies=True, policy="light")
    assert scores.shape == (3, 2) and plies > 0
    import numpy as np

    scores, plies = engine.random_playouts(3, with_plies=np.True_)  # a numpy bool is a bool here
    assert scores.shape == (3, 2) and plies > 0
    assert engine.random_playouts(3, with_plies=np.False_).shape == (3, 2)


def test_light_playouts_carry_signal_in_summer_pavilion(engine):
    """Uniform play passes nearly always (most games end with every player on 1 point); light play scores."""
    n = 400 if engine is not PURE else 40
    uniform = engine.random_playouts(n, 2, "summer-pavilion", seed=1)
    light = engine.random_playouts(n, 2, "summer-pavilion", seed=1, policy="light")
    assert (uniform == 1).all(axis=1).mean() > 0.8
    assert (light == 1).all(axis=1).mean() < 0.05
    assert light.mean() > 5 * uniform.mean()


@pytest.mark.parametrize("variant", ["classic", "grey"])
def test_light_playouts_score_more_than_uniform_in_classic_and_grey(engine, variant):
    n = 300 if engine is not PURE else 30
    uniform = engine.random_playouts(n, 2, variant, seed=2)
    light = engine.random_playouts(n, 2, variant, seed=2, policy="light")
    assert light.mean() > 2 * uniform.mean()
    assert light.dtype == np.int32 and light.shape == uniform.shape
