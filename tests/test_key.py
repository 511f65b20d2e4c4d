"""Position keys and hashing: ``state.key()`` (docs/game-api.md "Position keys") is the same 64-bit number in both
engines, equal for equal positions however they were reached, blind to the history and the generator, and
changed by any change of the position; ``hash(state)`` agrees with ``==``."""

import random

import pytest

import azul_engine
from helpers import cpp_required, replace_field

VARIANTS = ("classic", "grey", "summer-pavilion")


def random_states(engine, variant, players, seed, every=1):
    g = engine.new_game(players, variant=variant, seed=seed)
    rng = random.Random(seed)
    out = []
    while not g.is_over:
        out.append(g.clone())
        legal = g.legal_actions()
        g.apply(legal[rng.randrange(len(legal))])
    out.append(g)
    return out[::every]


def reference_key(words):
    """docs/game-api.md's definition, written out: FNV-1a over 64-bit words, then SplitMix64's finalizer."""
    mask = (1 << 64) - 1
    h = 0xCBF29CE484222325
    for v in words:
        h = ((h ^ (v & mask)) * 0x100000001B3) & mask
    h = ((h ^ (h >> 30)) * 0xBF58476D1CE4E5B9) & mask
    h = ((h ^ (h >> 27)) * 0x94D049BB133111EB) & mask
    return h ^ (h >> 31)


def test_key_of_a_new_game_is_readmes_definition(engine):
    """The word list of docs/game-api.md, "Position keys",, built from the public API of a new classic game."""
    g = engine.new_game(2, seed=7)
    letters = "BYRKW"

    def counts(text):
        return [text.count(c) for c in letters]

    words = [0, 2, 0, g.round, 2, g.current_player, g.starting_player, g.first_player_marker, 0]
    for f in g.factories:
        words += counts(f)
    words += counts(g.center) + counts(g.bag) + counts(g.lid)
    for p in range(2):
        words += [-1] * 5 + [0] * 5 + [-1] * 25 + [0] * 5 + [g.scores[p]]
    assert g.phase == "offer"
    assert g.key() == reference_key(words)
    assert 0 <= g.key() < 2 ** 64


@pytest.mark.parametrize("variant", VARIANTS)
def test_equal_positions_by_different_move_orders_have_equal_keys(engine, variant):
    """Two drafts of the same player from two factories, the other players' drafts in between, in either
    order: the same position (and state), a different history, the same key."""
    found = 0
    per_source = 6 if variant == "summer-pavilion" else 30  # action ids: source * per_source + ...
    for seed in range(40):
        g = engine.new_game(2, variant=variant, seed=seed)
        factory_moves = [m for m in g.legal_actions() if m < 9 * per_source]
        for a in factory_moves[:6]:
            for c in factory_moves[-6:]:
                if a // per_source == c // per_source:
                    continue
                x, y = g.clone(), g.clone()
                try:
                    x.apply(a)
                    b = next(m for m in x.legal_actions() if m != c)
                    x.apply(b)
                    x.apply(c)
                    y.apply(c)
                    y.apply(b)
                    y.apply(a)
                except (azul_engine.IllegalMoveError, StopIteration):
                    continue
                if x == y:
                    assert x.key() == y.key()
                    assert hash(x) == hash(y)
                    assert x.to_text(history=True) != y.to_text(history=True)
                    found += 1
                else:
                    assert x.key() != y.key()
        if found >= 5:
            break
    assert found >= 5


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_key_ignores_the_generator_and_history(engine, variant):
    g = engine.new_game(3, variant=variant, seed=3)
    g.apply(g.legal_actions()[-1])
    r = g.clone()
    r.reseed(12345)
    assert r != g and r.key() == g.key()
    text = g.to_text()
    assert engine.from_text(text).key() == g.key()  # no history
    other_seed = replace_field(text, "seed", "99")
    assert engine.from_text(other_seed).key() == g.key()
    assert engine.from_text(replace_field(text, "moves", "7")).key() == g.key()


def mutations(text, variant):
    """Single-field changes of a state's text that change the position: (name, text)."""
    fields = dict(tok.split("=", 1) for tok in text.split(" ")[1:])
    out = [("turn", replace_field(text, "turn", str((int(fields["turn"]) + 1) % int(fields["players"]))))]
    for p in range(int(fields["players"])):
        key = "p%d" % p
        score, rest = fields[key].split(":", 1)
        out.append((key + " score", replace_field(text, key, "%d:%s" % (int(score) + 1, rest))))
    out.append(("round", replace_field(text, "round", str(int(fields["round"]) + 1))))
    bag = [int(x) for x in fields["bag"].split(",")]
    lid_name = "tower" if variant == "summer-pavilion" else "lid"
    lid = [int(x) for x in fields[lid_name].split(",")]
    for c in range(len(bag)):
        if bag[c]:
            moved_bag, moved_lid = bag[:], lid[:]
            moved_bag[c] -= 1
            moved_lid[c] += 1
            t = replace_field(text, "bag", ",".join(map(str, moved_bag)))
            out.append(("bag->" + lid_name, replace_field(t, lid_name, ",".join(map(str, moved_lid)))))
            break
    out.append(("chance", replace_field(text, "chance", "explicit")))
    return out


@pytest.mark.parametrize("variant", VARIANTS)
def test_changing_one_field_changes_the_key(engine, variant):
    tried = 0
    for g in random_states(engine, variant, 2, seed=21, every=7):
        text = g.to_text()
        for name, changed in mutations(text, variant):
            try:
                h = engine.from_text(changed)
            except azul_engine.StateFormatError:
                continue  # not a consistent state
            assert h != g
            assert h.key() != g.key(), name
            tried += 1
    assert tried >= 20


@pytest.mark.parametrize("variant", VARIANTS)
def test_distinct_positions_have_distinct_keys(engine, variant):
    positions = {}
    for seed in range(3):
        for g in random_states(engine, variant, 2 + seed, seed):
            positions[g.to_text().split(" rng=")[1].split(" ", 1)[1]] = g.key()
    assert len(positions) > 200
    assert len(set(positions.values())) == len(positions)


@pytest.mark.parametrize("variant", VARIANTS)
def test_states_are_hashable_consistently_with_equality(engine, variant):
    states = random_states(engine, variant, 2, seed=4)
    copies = [s.clone() for s in states]
    table = {s: i for i, s in enumerate(states)}
    for i, c in enumerate(copies):
        assert hash(c) == hash(states[i]) == hash(c.key())
        assert table[c] == i or states[table[c]] == c
    assert len({s.key() for s in states}) == len(states)


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_both_engines_give_the_same_key(variant, players):
    py = azul_engine.load_backend("python")
    try:
        cpp = azul_engine.load_backend("cpp")
    except ImportError:
        if cpp_required():
            raise
        pytest.skip("C++ engine not built")
    for chance in ("sampled", "explicit"):
        for seed in range(3):
            g = py.new_game(players, variant=variant, seed=seed, chance=chance)
            rng = random.Random(seed)
            n = 0
            while not g.is_over and n < 400:
                c = cpp.from_text(g.to_text())
                assert c.key() == g.key() and hash(c) == hash(g)
                if g.is_chance_node:
                    outcomes = g.chance_outcomes()
                    g.apply(outcomes[rng.randrange(len(outcomes))][0])
                else:
                    legal = g.legal_actions()
                    g.apply(legal[rng.randrange(len(legal))])
                n += 1
