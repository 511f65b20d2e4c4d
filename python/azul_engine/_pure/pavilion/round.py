"""Azul: Summer Pavilion, pure-Python engine: the start of a game and of a round, fills (setup supply, factories,
refills), explicit deals (new_game itself is in state.py, with the class it makes).

C++ twin: native/src/pavilion/round.cpp.
"""


from .. import common as _common
from ..._errors import IllegalMoveError
from ..common import MASK64 as _MASK64
from .tables import (
    ACQUIRE,
    CHANCE,
    FILL,
    FILL_FACTORIES,
    FILL_REFILL,
    FILL_SETUP,
    NO_FILL,
    PLAY,
    SP_COLOUR_NAMES,
    SUPPLY_SIZE,
)
from .notation import _parse_tiles, _tiles


def _draw_multiset(bag, tower, need, what):
    """Bag and tower after drawing the multiset ``need``: from the bag alone, or (when it is not
    enough) the whole bag, the tower poured in, and the rest from there."""
    if all(need[c] <= bag[c] for c in range(6)):
        return [bag[c] - need[c] for c in range(6)], tower[:]
    for c in range(6):
        if need[c] < bag[c]:
            raise IllegalMoveError(
                "%s: the bag held %d %s, more than drawn, so the tower cannot have been poured "
                "in, yet the bag alone cannot give these tiles" % (what, bag[c], SP_COLOUR_NAMES[c]))
        if need[c] > bag[c] + tower[c]:
            raise IllegalMoveError("%s: %d %s drawn, but bag and tower hold only %d"
                                   % (what, need[c], SP_COLOUR_NAMES[c], bag[c] + tower[c]))
    return [bag[c] + tower[c] - need[c] for c in range(6)], [0] * 6


def _begin_setup(self):
    self._phase = FILL
    self._fill = FILL_SETUP
    self._turn = CHANCE
    self._continue_fill()


def _start_round(self):
    self._prefill_bag = self._bag[:]
    self._prefill_tower = self._tower[:]
    self._marker = -1
    self._moves = 0
    self._passed = [False] * self._players
    self._phase = FILL
    self._fill = FILL_FACTORIES
    self._turn = CHANCE
    self._continue_fill()


def _put_drawn(self, c):
    self._bag[c] -= 1
    if self._fill == FILL_FACTORIES:
        for f in self._factories:
            if sum(f) < 4:
                f[c] += 1
                return
    else:
        self._supply[c] += 1
        if self._fill == FILL_REFILL:
            self._refill[c] += 1


def _continue_fill(self):
    """Draw until the supply (or every factory) is full, pouring the tower into the bag
    only when the bag is empty; with both empty, go on with what was drawn.  In explicit
    chance mode, stop at each draw."""
    bag = self._bag
    total = sum(bag)
    factories = self._fill == FILL_FACTORIES
    if factories:
        need = 4 * len(self._factories) - sum(map(sum, self._factories))
    else:
        need = SUPPLY_SIZE - sum(self._supply)
    explicit = self._explicit
    rng = self._rng
    # Where the drawn tiles go (cf. _put_drawn): the first factory not yet full, or the supply.
    facs, supply = self._factories, self._supply
    refill = self._refill if self._fill == FILL_REFILL else None
    f = 0
    while need:
        if not total:
            for c in range(6):
                bag[c] += self._tower[c]
                self._tower[c] = 0
            total = sum(bag)
            if not total:
                break
        if explicit:
            return
        # splitmix_next, inlined: rules section 5.
        rng = (rng + 0x9E3779B97F4A7C15) & _MASK64
        z = ((rng ^ (rng >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
        k = (((z ^ (z >> 31)) >> 32) * total) >> 32
        c = 0
        while k >= bag[c]:
            k -= bag[c]
            c += 1
        bag[c] -= 1
        if factories:
            while sum(facs[f]) >= 4:
                f += 1
            facs[f][c] += 1
        else:
            supply[c] += 1
            if refill is not None:
                refill[c] += 1
        total -= 1
        need -= 1
    self._rng = rng
    self._fill_done()


def _fill_done(self):
    fill = self._fill
    self._fill = NO_FILL
    if fill == FILL_SETUP:
        if self._h_complete:
            self._h_supply = _tiles(self._supply)
        self._start_round()
    elif fill == FILL_FACTORIES:
        self._phase = ACQUIRE
        self._turn = self._start
        if self._h_complete:
            self._h_rounds.append([[_tiles(f) for f in self._factories], [], None])
        if self._sheet is not None:
            self._sheet.append([])
        if not any(map(any, self._factories)):
            # Bag and tower were both empty: nothing to acquire, phase 2 starts at once.
            self._phase = PLAY
    else:  # FILL_REFILL
        if any(self._refill):
            if self._h_complete:
                self._h_rounds[-1][1].append("~" + _tiles(self._refill))
            self._refill = [0] * 6
        if self._next >= 0:
            self._phase = PLAY
            self._turn = self._next
            self._next = -1
        else:
            if self._marker >= 0:
                self._start = self._marker
            self._round += 1
            self._start_round()


def deal(self, factories):
    """Set this round's factory contents (a replay, a physical game): one string per
    factory, colour letters in colour order.  Allowed before the round's first move; the
    tiles come from the bag as it was before this round's fill, the tower poured in only if
    the bag ran out.  Raises IllegalMoveError when impossible, leaving the state unchanged.
    """
    if not ((self._phase == FILL and self._fill == FILL_FACTORIES)
            or (self._phase == ACQUIRE and not self._moves)):
        raise IllegalMoveError("deal: factories can only be dealt before the round's "
                               "first move")
    bag, tower = self._prefill_bag, self._prefill_tower
    counts = _common.deal_counts(
        factories, self._players, len(self._factories),
        lambda text, i: _parse_tiles(text, "deal: factory %d" % (i + 1), IllegalMoveError),
        sum(bag) + sum(tower), "tower")
    need = [sum(f[c] for f in counts) for c in range(6)]
    new_bag, new_tower = _draw_multiset(bag, tower, need, "deal")
    self._bag, self._tower = new_bag, new_tower
    self._factories = counts
    self._h_seed = None
    self._undo = []
    if self._phase == ACQUIRE and self._h_complete:
        self._h_rounds.pop()
        if self._sheet is not None:
            self._sheet.pop()
    self._fill = FILL_FACTORIES
    self._fill_done()


def deal_supply(self, tiles):
    """Fill the supply explicitly: the 10 setup tiles, or a refill after a phase-2 turn
    (the same as applying '~' and the tiles).  ``tiles`` are colour letters in colour
    order; they must be what the bag (and the tower, once the bag ran out) can give, as
    many as the supply has empty spaces unless bag and tower hold fewer.  Allowed at a
    supply chance node before any of its tiles is drawn."""
    if not isinstance(tiles, str):
        raise IllegalMoveError("deal_supply: tiles are a string of colour letters, not %s"
                               % type(tiles).__name__)
    self._deal_supply(_parse_tiles(tiles, "deal_supply", IllegalMoveError))


def _deal_supply(self, counts):
    if self._phase != FILL or self._fill == FILL_FACTORIES or any(self._refill) or (
            self._fill == FILL_SETUP and any(self._supply)):
        raise IllegalMoveError("deal_supply: the supply is not waiting to be filled (or "
                               "some of its tiles are already drawn)")
    room = SUPPLY_SIZE - sum(self._supply)
    available = sum(self._bag) + sum(self._tower)
    want = min(room, available)
    if sum(counts) != want:
        raise IllegalMoveError("deal_supply: %d tiles drawn, but the supply has %d empty "
                               "spaces and bag and tower hold %d, so %d are drawn"
                               % (sum(counts), room, available, want))
    new_bag, new_tower = _draw_multiset(self._bag, self._tower, counts, "deal_supply")
    self._bag, self._tower = new_bag, new_tower
    for c in range(6):
        self._supply[c] += counts[c]
        if self._fill == FILL_REFILL:
            self._refill[c] += counts[c]
    self._h_seed = None
    self._undo = []
    self._fill_done()
