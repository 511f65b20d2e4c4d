"""Azul: Summer Pavilion, pure-Python engine: runs and the end of the game (rules section 3).

C++ twin: native/src/pavilion/scoring.cpp.
"""


from .tables import CHANCE, MIN_SCORE, NUMBER_BONUS, OVER, SP_STARS, STAR_BONUS, _NUMBER_MASK, _STAR_MASK


def _run_length(filled, space):
    """Length of the run of covered spaces through ``space`` in its star's ring of six."""
    base = space - space % 6
    k = space - base
    n = 1
    while n < 6 and filled >> (base + (k + n) % 6) & 1:
        n += 1
    if n == 6:
        return 6
    back = 1
    while filled >> (base + (k - back) % 6) & 1:
        back += 1
    return n + back - 1


def _finish(self):
    """End of round 6: star and number bonuses, then -1 per tile still kept."""
    for p in range(self._players):
        filled = self._filled[p]
        stars = [s for s in range(7) if filled & _STAR_MASK[s] == _STAR_MASK[s]]
        numbers = [n for n in range(4) if filled & _NUMBER_MASK[n] == _NUMBER_MASK[n]]
        gain = sum(STAR_BONUS[s] for s in stars) + sum(NUMBER_BONUS[n] for n in numbers)
        before = self._score[p]
        kept = sum(self._hand[p])
        after = before + gain - kept if before + gain - kept > MIN_SCORE else MIN_SCORE
        self._score[p] = after
        if self._sheet is not None:
            self._sheet[-1].append({
                "event": "end", "player": p, "stars": "".join(SP_STARS[s] for s in stars),
                "star_points": sum(STAR_BONUS[s] for s in stars),
                "numbers": [n + 1 for n in numbers],
                "number_points": sum(NUMBER_BONUS[n] for n in numbers),
                "kept": kept, "before": before, "after": after})
    self._phase = OVER
    self._turn = CHANCE
    self._next = -1
