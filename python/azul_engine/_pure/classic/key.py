"""Classic and grey-wall Azul, pure-Python engine: the position key (state.key(), hash(state)).

C++ twin: native/src/classic/key.cpp (the hash: native/include/azul/common/key.h).
"""


from .. import common as _common


def key_words(self):
    """The words the position key hashes (docs/game-api.md "Position keys"), in order: what the exact
    search's table keys its entries by (docs/search.md section 16.3; the key alone collides)."""
    words = [self._variant, self._players, int(self._explicit), self._round, self._phase,
             self._turn, self._start, self._marker, int(self._marker_floor)]
    for f in self._factories:
        words += f
    words += self._centre
    words += self._bag
    words += self._lid
    for p in range(self._players):
        words += self._line_colour[p]
        words += self._line_count[p]
        words += self._wall[p]
        words += self._floor[p]
        words.append(self._score[p])
    return words


def key(self):
    """A 64-bit key of the position (docs/game-api.md "Position keys"), the same in both engines:
    what decides the rest of the game apart from chance, and the player to move; not the
    history, the moves-this-round count, the seed or the generator."""
    return _common.position_key(key_words(self))


def __hash__(self):
    return hash(self.key())
