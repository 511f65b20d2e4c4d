"""Classic and grey-wall Azul, pure-Python engine: the start of a round, filling the factories, explicit deals (rules
sections 1 and 5; new_game itself is in state.py, with the class it makes).

C++ twin: native/src/classic/round.cpp.
"""


from .. import common as _common
from ..._errors import IllegalMoveError, StateFormatError
from ..common import MASK64 as _MASK64
from .types import CHANCE, COLOUR_NAMES, FILL, OFFER
from .notation import _NO_TILES, _parse_tiles, _tiles_to_str


def _start_round(self):
    self._prefill_bag = self._bag[:]
    self._prefill_lid = self._lid[:]
    for f in self._factories:
        f[:] = _NO_TILES
    self._marker = -1
    self._marker_floor = False
    self._moves = 0
    self._phase = FILL
    self._turn = CHANCE
    self._continue_fill()


def _put_drawn(self, colour):
    for f in self._factories:
        if sum(f) < 4:
            f[colour] += 1
            self._bag[colour] -= 1
            return


def _continue_fill(self):
    """Fill the factories in order, 4 tiles each; pour the lid into the bag only when the
    bag is empty; if both are empty, the round starts with what was drawn."""
    bag = self._bag
    total = sum(bag)
    explicit = self._explicit
    rng = self._rng
    for f in self._factories:
        for _ in range(4 - sum(f)):
            if not total:
                for c in range(5):
                    bag[c] += self._lid[c]
                    self._lid[c] = 0
                total = sum(bag)
                if not total:
                    self._rng = rng
                    self._begin_offer()
                    return
            if explicit:
                return  # wait at the chance node
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
            f[c] += 1
            total -= 1
    self._rng = rng
    self._begin_offer()


def _begin_offer(self):
    self._phase = OFFER
    self._turn = self._start
    self._h_rounds.append([[_tiles_to_str(f) for f in self._factories], [], None])
    if self._sheet is not None:
        self._sheet.append([])


def deal(self, factories):
    """Set this round's factory contents explicitly (a replay, a physical game).

    Allowed before the round's first move.  ``factories`` is one string per factory, its
    tiles as colour letters in colour order ('' when empty).  The tiles come from the bag
    as it was before this round's fill, with the lid poured in only if the bag ran out,
    and every factory holds 4 tiles unless bag and lid together held fewer.  Raises
    IllegalMoveError when that is impossible, leaving the state unchanged.
    """
    if self._phase not in (FILL, OFFER) or self._moves:
        raise IllegalMoveError("deal: factories can only be dealt before the round's "
                               "first move")
    def parse(text, i):
        try:
            return _parse_tiles(text, "factory %d" % (i + 1))
        except StateFormatError as e:
            raise IllegalMoveError("deal: " + str(e)) from None

    bag, lid = self._prefill_bag, self._prefill_lid
    counts = _common.deal_counts(factories, self._players, len(self._factories), parse,
                                   sum(bag) + sum(lid), "lid")
    need = [sum(f[c] for f in counts) for c in range(5)]
    if all(need[c] <= bag[c] for c in range(5)):
        new_bag, new_lid = [bag[c] - need[c] for c in range(5)], lid[:]
    else:
        # The bag ran out, so all of it was drawn before the lid was poured in.
        for c in range(5):
            if need[c] < bag[c]:
                raise IllegalMoveError(
                    "deal: the bag held %d %s, more than dealt, so the lid cannot have "
                    "been poured in, yet the bag alone cannot supply these factories"
                    % (bag[c], COLOUR_NAMES[c]))
            if need[c] > bag[c] + lid[c]:
                raise IllegalMoveError("deal: %d %s dealt, but bag and lid hold only %d"
                                       % (need[c], COLOUR_NAMES[c], bag[c] + lid[c]))
        new_bag, new_lid = [bag[c] + lid[c] - need[c] for c in range(5)], [0] * 5
    self._bag, self._lid = new_bag, new_lid
    self._factories = counts
    self._h_seed = None
    self._undo = []
    if self._phase == OFFER and self._h_rounds:
        self._h_rounds.pop()
    self._begin_offer()
