"""Helpers shared by the test suite; nothing here imports an engine.

- ``SplitMix64`` and ``reference_fill``: an independent reading of rules.md section 5 (the game's
  generator, ``below(n)`` and the draw walk), to predict what an engine must draw.
- ``Picker``: a deterministic move chooser built on that generator (uniform, or ``likely_move``),
  so that random games and the golden playthroughs never depend on Python's ``random`` module.
- ``state_text`` / ``make_state``: build a valid ``azul-state/1`` text from a readable description
  (walls, pattern lines, floors, factories, centre, lid, scores); the bag (or the lid) gets
  whatever tiles remain, so every colour totals 20.
- ``tile_counts``, ``end_bonus``, ``is_stuck``: what the invariant tests check.
- ``assert_refused``: a move is refused with a given message and leaves the state unchanged.
- ``playthrough_text``: the golden playthrough format (also used by ``make_playthroughs.py``).
"""

import os

COLOURS = "BYRKW"
TILES_PER_COLOUR = 20
MASK64 = (1 << 64) - 1
CONFIGS = [(players, variant, chance)
           for chance in ("sampled", "explicit")
           for variant in ("classic", "grey")
           for players in (2, 3, 4)]


def cpp_required():
    """In CI (env CI set) or with AZUL_REQUIRE_CPP=1 a missing C++ engine fails, never skips."""
    ci = os.environ.get("CI", "").strip().lower() not in ("", "0", "false")
    return ci or os.environ.get("AZUL_REQUIRE_CPP") == "1"


def load_engine(name):
    """The engine module ``name`` ("python" or "cpp"), for every test (the ``engine`` fixture and the tests that
    need both engines at once).  A C++ engine that was not built skips the test (or the module, when called at
    import), except where it is required (``cpp_required``): then, as for any engine that does not import, the
    test fails."""
    import pytest

    import azul_engine

    try:
        return azul_engine.load_backend(name)
    except ImportError as exc:
        error = exc
    if name == "cpp" and not cpp_required():
        pytest.skip("C++ engine not built: %s" % (error.__cause__ or error), allow_module_level=True)
    pytest.fail("%s engine cannot be imported: %s" % (name, error), pytrace=False)


def load_both():
    """``(pure-Python engine, C++ engine)``, as ``load_engine`` loads them."""
    return load_engine("python"), load_engine("cpp")


# ---------------------------------------------------------------------------------------------
# Randomness, written from rules.md section 5 alone
# ---------------------------------------------------------------------------------------------

class SplitMix64:
    """SplitMix64 as rules.md section 5 specifies it, with ``below(n)``."""

    def __init__(self, state):
        self.state = state & MASK64

    def next(self):
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return z ^ (z >> 31)

    def below(self, n):
        return ((self.next() >> 32) * n) >> 32


def counts(letters):
    """'BBR' -> [2, 0, 1, 0, 0]."""
    out = [0] * 5
    for ch in letters:
        out[COLOURS.index(ch)] += 1
    return out


def letters(tile_counts):
    """[2, 0, 1, 0, 0] -> 'BBR' (colour order)."""
    return "".join(COLOURS[c] * n for c, n in enumerate(tile_counts))


def draw_tile(rng, bag, lid):
    """Draw one tile (rules 5): pour the lid in if the bag is empty; None if both are empty.

    ``bag`` and ``lid`` are count lists, changed in place.
    """
    if not any(bag):
        for c in range(len(bag)):
            bag[c] += lid[c]
            lid[c] = 0
        if not any(bag):
            return None
    k = rng.below(sum(bag))
    c = 0
    while k >= bag[c]:
        k -= bag[c]
        c += 1
    bag[c] -= 1
    return c


def reference_fill(rng, bag, lid, num_factories):
    """Fill factories in order, 4 tiles each (rules 1, preparing the next round).

    Returns the factory strings; ``rng``, ``bag`` and ``lid`` are advanced in place.
    """
    factories = []
    dry = False
    for _ in range(num_factories):
        f = [0] * 5
        while not dry and sum(f) < 4:
            c = draw_tile(rng, bag, lid)
            if c is None:
                dry = True
            else:
                f[c] += 1
        factories.append(letters(f))
    return factories


def reference_new_game(seed, players):
    """What ``new_game(players, seed=seed)`` must draw: (first player, factories, bag, rng)."""
    rng = SplitMix64(seed)
    first = rng.below(players)
    bag = [TILES_PER_COLOUR] * 5
    factories = reference_fill(rng, bag, [0] * 5, 2 * players + 1)
    return first, factories, bag, rng


class Picker:
    """Chooses moves deterministically from its own SplitMix64 stream (not Python's random)."""

    def __init__(self, seed):
        self.rng = SplitMix64(seed)

    def choice(self, seq):
        return seq[self.rng.below(len(seq))]

    def below(self, n):
        return self.rng.below(n)

    def lockstep_move(self, state, actions, likely):
        """The move two engines in lockstep both apply: with ``likely`` a :meth:`likely_move`,
        else one of ``actions`` (the legal ids), as its id or, half the time, its notation."""
        if likely:
            return self.likely_move(state.legal_moves())
        action = self.choice(actions)
        return state.action_to_string(action) if self.below(2) else action

    def likely_move(self, moves):
        """A move in notation, chosen the way a player might: 7 times in 8 a draft to a pattern
        line when there is one, else any legal move.  (Uniform choice sends most tiles to the
        floor, and games then rarely reach high scores, full columns or colours.)"""
        if moves and moves[-1][:1] == "-":  # Summer Pavilion, phase 2: place, or pass keeping most
            places = [m for m in moves if len(m) == 4 and m[0] != "-"]
            if places and self.below(8):
                return self.choice(places)
            longest = max(len(m) for m in moves if m[:1] == "-")
            return self.choice([m for m in moves if m[:1] == "-" and len(m) == longest])
        lines = [m for m in moves if len(m) == 3 and m[0] in "123456789C" and m[2] != "F"]
        if lines and self.below(8):
            return self.choice(lines)
        return self.choice(moves)


# ---------------------------------------------------------------------------------------------
# Positions from a readable description
# ---------------------------------------------------------------------------------------------

def _per_player(value, players, default, what):
    if value is None:
        return [default] * players
    if len(value) != players:
        raise ValueError("%s: %d players need %d entries, got %d"
                         % (what, players, players, len(value)))
    return [default if v is None else v for v in value]


def _rows(value, what):
    """A wall or a set of pattern lines: 5 strings, or one string with '/' between them."""
    rows = value.split("/") if isinstance(value, str) else list(value)
    if len(rows) != 5:
        raise ValueError("%s: need 5 rows, got %r" % (what, value))
    return rows


def state_text(players=2, variant="classic", walls=None, lines=None, floors=None, scores=None,
               factories=None, center="", lid="", bag="", turn=0, start=None, marker=None,
               phase="offer", round=1, moves=0, chance="sampled", seed=0, rng=None,
               prefill=None, rest="bag", extra=""):
    """A valid ``azul-state/1`` text for the described position.

    ``walls``/``lines``: per player, 5 strings (or one string with '/'); walls use '.' for an
    empty cell, lines are colour letters ('' for empty).  ``floors``: per player, tiles as colour
    letters, with a leading 'M' for the first-player marker.  ``factories``: one string per
    factory (default: all empty).  ``bag``/``lid``: colour letters; the one named by ``rest``
    ("bag" or "lid") also receives every tile not placed elsewhere, so each colour totals 20.
    ``marker``: 'C', a seat, or None to infer it from the floors ('C' when no floor holds it).
    ``start`` defaults to ``turn`` (or 0 when turn is -1).  ``prefill`` defaults to the bag with
    the factories' tiles back in it, and the lid.  ``extra`` is appended verbatim.  Raises ValueError when a colour would total over 20.
    """
    nf = 2 * players + 1
    order = lambda text: letters(counts(text))  # noqa: E731 (any order in, colour order out)
    empty_wall = "...../...../...../...../....."
    walls = [_rows(w, "wall") for w in _per_player(walls, players, empty_wall, "walls")]
    lines = [_rows(x, "lines") for x in _per_player(lines, players, "////", "lines")]
    floors = [("M" if f.startswith("M") else "") + order(f.lstrip("M"))
              for f in _per_player(floors, players, "", "floors")]
    scores = _per_player(scores, players, 0, "scores")
    factories = [order(f) for f in factories] if factories is not None else [""] * nf
    factories += [""] * (nf - len(factories))
    if marker is None:
        holders = [p for p, f in enumerate(floors) if f.startswith("M")]
        marker = holders[0] if holders else "C"
    if start is None:
        start = turn if turn >= 0 else 0

    used = [0] * 5
    placed = list(factories) + [center, lid or "", bag or ""]
    for p in range(players):
        placed += [row.replace(".", "") for row in walls[p]]
        placed += lines[p]
        placed.append(floors[p].lstrip("M"))
    for group in placed:
        for c, n in enumerate(counts(group)):
            used[c] += n
    remainder = [TILES_PER_COLOUR - n for n in used]
    if min(remainder) < 0:
        raise ValueError("position uses too many tiles: %s" % dict(zip(COLOURS, used)))
    if rest not in ("bag", "lid"):
        raise ValueError("rest must be 'bag' or 'lid'")
    bag_counts, lid_counts = counts(bag or ""), counts(lid or "")
    extra_counts = bag_counts if rest == "bag" else lid_counts
    for c in range(5):
        extra_counts[c] += remainder[c]
    if prefill is None:  # as if this round's factories had just been drawn from the bag
        drawn = [bag_counts[c] + sum(counts(f)[c] for f in factories) for c in range(5)]
        prefill = "%s/%s" % (",".join(map(str, drawn)), ",".join(map(str, lid_counts)))

    fields = [
        "azul-state/1",
        "variant=%s" % variant,
        "players=%d" % players,
        "chance=%s" % chance,
        "seed=%d" % seed,
        "rng=%016x" % (seed if rng is None else rng),
        "round=%d" % round,
        "phase=%s" % phase,
        "turn=%d" % turn,
        "start=%d" % start,
        "marker=%s" % marker,
        "moves=%d" % moves,
        "factories=" + ",".join(f or "-" for f in factories),
        "center=" + (order(center) or "-"),
        "bag=" + ",".join(map(str, bag_counts)),
        "lid=" + ",".join(map(str, lid_counts)),
        "prefill=" + prefill,
    ]
    for p in range(players):
        fields.append("p%d=%d:%s:%s:%s" % (p, scores[p], "/".join(x or "-" for x in lines[p]),
                                           "/".join(walls[p]), floors[p] or "-"))
    text = " ".join(fields)
    return text + (" " + extra if extra else "")


def make_state(engine, **description):
    """``engine.GameState.from_text(state_text(**description))``."""
    return engine.GameState.from_text(state_text(**description))


def replace_field(text, key, value):
    """The state text with field ``key`` set to ``value`` (the field must exist)."""
    tokens = text.split(" ")
    for i, tok in enumerate(tokens):
        if tok.startswith(key + "="):
            tokens[i] = key + "=" + value
            return " ".join(tokens)
    raise KeyError(key)


def drop_field(text, key):
    return " ".join(tok for tok in text.split(" ") if not tok.startswith(key + "="))


# ---------------------------------------------------------------------------------------------
# What the invariant tests look at
# ---------------------------------------------------------------------------------------------

def tile_counts(state):
    """Tiles of each colour anywhere in the game, read through the public API only."""
    total = [0] * 5
    groups = list(state.factories) + [state.center, state.bag, state.lid]
    for p in range(state.players):
        groups += state.pattern_lines[p]
        groups += [row.replace(".", "") for row in state.walls[p]]
        groups.append(state.floors[p].replace("M", ""))
    for g in groups:
        for c, n in enumerate(counts(g)):
            total[c] += n
    return total


def end_bonus(wall):
    """End-game bonus of a wall (5 row strings): +2 per row, +7 per column, +10 per colour."""
    rows = sum(1 for row in wall if "." not in row)
    cols = sum(1 for c in range(5) if all(row[c] != "." for row in wall))
    colours = sum(1 for k in COLOURS if sum(row.count(k) for row in wall) == 5)
    return 2 * rows + 7 * cols + 10 * colours


def complete_rows(wall):
    return sum(1 for row in wall if "." not in row)


# ---------------------------------------------------------------------------------------------
# Golden playthroughs
# ---------------------------------------------------------------------------------------------

PLAYTHROUGH_GAMES = [
    # file name, players, variant, seed, chance, picker seed
    ("2p_classic_seed7.txt", 2, "classic", 7, "sampled", 1007),
    ("3p_grey_seed11.txt", 3, "grey", 11, "sampled", 1011),
    ("4p_classic_seed13.txt", 4, "classic", 13, "sampled", 1013),
    ("2p_grey_explicit_seed17.txt", 2, "grey", 17, "explicit", 1017),
    ("2p_pavilion_seed19.txt", 2, "summer-pavilion", 19, "sampled", 1019),
    ("3p_pavilion_explicit_seed23.txt", 3, "summer-pavilion", 23, "explicit", 1023),
    ("4p_pavilion_seed29.txt", 4, "summer-pavilion", 29, "sampled", 1029),
]


def playthrough_header(players, variant, seed, chance, picker):
    return ("# azul-engine playthrough: regenerate with python tests/make_playthroughs.py\n"
            "players=%d variant=%s seed=%d chance=%s picker=%d\n"
            % (players, variant, seed, chance, picker))


def parse_playthrough_header(text):
    """(players, variant, seed, chance, picker) from a playthrough file's second line."""
    fields = dict(tok.split("=", 1) for tok in text.splitlines()[1].split())
    return (int(fields["players"]), fields["variant"], int(fields["seed"]), fields["chance"],
            int(fields["picker"]))


def playthrough_text(engine, players, variant, seed, chance, picker):
    """A game state by state: text, legal moves and the move chosen at every step, then the record.

    Moves are chosen by ``Picker.likely_move`` (chance outcomes uniformly among the legal ones).
    """
    out = [playthrough_header(players, variant, seed, chance, picker)]
    pick = Picker(picker)
    state = engine.new_game(players, variant, seed, chance)
    step = 0
    while True:
        out.append("\nstep %d\n" % step)
        out.append("state %s\n" % state.to_text())
        moves = state.legal_moves()
        out.append("legal %s\n" % " ".join(moves))
        if state.is_over:
            break
        move = pick.likely_move(moves)
        out.append("move %s\n" % move)
        state.apply(move)
        step += 1
    out.append("\nscores %s\n" % " ".join(map(str, state.scores)))
    out.append("winners %s\n" % " ".join(map(str, state.winners)))
    out.append("record %s\n" % state.record_json())
    return "".join(out)


# ---------------------------------------------------------------------------------------------
# Refused moves
# ---------------------------------------------------------------------------------------------

def assert_refused(engine, state, move, message):
    """``state.apply(move)`` raises IllegalMoveError containing ``message`` and changes nothing."""
    import pytest

    before = state.to_text(history=True)
    with pytest.raises(engine.IllegalMoveError) as info:
        state.apply(move)
    assert message in str(info.value)
    assert state.to_text(history=True) == before
    return str(info.value)


def line_can_ever_take(variant, wall, line, row, colour):
    """rules 1, stuck games: can a tile of ``colour`` still reach wall row ``row``?

    ``wall`` is 5 row strings, ``line`` the pattern line's letters, ``colour`` a letter.  The
    line must be empty or hold the colour, and the wall row must not hold it; on the grey wall
    some empty cell of the row must also be in a column without that colour.
    """
    if line and line[0] != colour:
        return False
    if colour in wall[row]:
        return False
    if variant == "classic":
        return True  # the colour's own cell in this row is empty
    return any(wall[row][c] == "." and all(wall[r][c] != colour for r in range(5))
               for c in range(5))


def is_stuck(state, supply):
    """True if no tile of ``supply`` (colour letters) can ever reach any wall (rules 1)."""
    for p in range(state.players):
        for row in range(5):
            for colour in set(supply):
                if line_can_ever_take(state.variant, state.walls[p],
                                      state.pattern_lines[p][row], row, colour):
                    return False
    return True


# ---------------------------------------------------------------------------------------------
# Summer Pavilion positions
# ---------------------------------------------------------------------------------------------

SP_COLOURS = "PGOYBR"
SP_STARS = "ORBYGPC"


def sp_tiles(counts):
    return "".join(SP_COLOURS[c] * counts[c] for c in range(6))


def sp_counts(text):
    return [text.count(c) for c in SP_COLOURS]


def pavilion_text(players=2, round=1, phase="play", turn=0, start=0, marker="C", moves=5, next=-1,
                  owed=0, fill="-", factories=None, center="", supply="PGOYBRPGOY", refill="",
                  hands=None, boards=None, scores=None, passed=None, tower="", chance="sampled",
                  seed=0, rng=0):
    """The state text of a Summer Pavilion position; the bag holds every tile not placed elsewhere.

    ``boards``: per player, a dict {star letter: 6 characters} (other stars empty).  Tile strings are
    colour letters in any order (sorted here)."""
    nf = 2 * players + 1
    factories = factories or [""] * nf
    hands = hands or [""] * players
    boards = boards or [{} for _ in range(players)]
    scores = scores or [5] * players
    passed = passed or [0] * players

    def srt(text):
        return sp_tiles(sp_counts(text))

    used = [0] * 6
    for text in list(factories) + [center, supply, tower] + list(hands):
        for c, n in enumerate(sp_counts(text)):
            used[c] += n
    stars = []
    for b in boards:
        rows = [b.get(s, "......") for s in SP_STARS]
        stars.append("/".join(rows))
        for row in rows:
            for ch in row:
                if ch != ".":
                    used[SP_COLOURS.index(ch)] += 1
    bag = [22 - n for n in used]
    assert min(bag) >= 0, "more than 22 tiles of a colour"
    fields = [
        "azul-state/1", "variant=summer-pavilion", "players=%d" % players, "chance=" + chance,
        "seed=%d" % seed, "rng=%016x" % rng, "round=%d" % round, "phase=" + phase, "fill=" + fill,
        "turn=%d" % turn, "start=%d" % start, "marker=%s" % marker, "moves=%d" % moves,
        "next=%d" % next, "owed=%d" % owed,
        "factories=" + ",".join(srt(f) or "-" for f in factories),
        "center=" + (srt(center) or "-"), "supply=" + (srt(supply) or "-"),
        "refill=" + (srt(refill) or "-"),
        "bag=" + ",".join(map(str, bag)), "tower=" + ",".join(map(str, sp_counts(tower))),
        "prefill=" + ",".join(map(str, bag)) + "/" + ",".join(map(str, sp_counts(tower))),
    ]
    for p in range(players):
        fields.append("p%d=%d:%s:%s:%d" % (p, scores[p], srt(hands[p]) or "-", stars[p], passed[p]))
    return " ".join(fields)


def pavilion_state(engine, **kw):
    return engine.from_text(pavilion_text(**kw))


def network_parts(variant="classic", players=2, hidden=(16,), seed=0):
    """The parts of a small network of random weights, as ``Network.from_arrays`` takes them after the variant and
    player count: ``(trunk, policy, value)``, weights ``(out, in)`` float32 from numpy's generator ``seed``."""
    import numpy as np

    from azul_engine._pure.network import _game_facts

    size, actions = _game_facts(variant, players)
    rng = np.random.default_rng(seed)

    def dense(n_in, n_out):
        return (rng.normal(0, 1 / np.sqrt(n_in), (n_out, n_in)).astype(np.float32),
                rng.normal(0, 0.1, n_out).astype(np.float32))

    trunk, inputs = [], size
    for width in hidden:
        trunk.append(dense(inputs, width))
        inputs = width
    return trunk, dense(inputs, actions), dense(inputs, players)


def tiny_network(engine, variant="classic", players=2, hidden=(16,), seed=0):
    """A small network of random weights of ``engine`` (its Network.from_arrays)."""
    return engine.Network.from_arrays(variant, players, *network_parts(variant, players, hidden, seed))
