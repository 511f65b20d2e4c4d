// Azul: Summer Pavilion: the end-game scoring and the winners (rules.md section 3).
// Pure-Python twin: python/azul_engine/_pure/pavilion/scoring.py.
#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "internal.h"

namespace azul {
namespace sp {

using namespace internal;

namespace internal {

void Finish(State& s, History* h) {
  for (int p = 0; p < s.players; ++p) {
    const uint64_t filled = s.filled[p];
    int star_points = 0, number_points = 0, stars_done = 0, numbers_done = 0;
    for (int st = 0; st < 7; ++st)
      if ((filled & kT.star_mask[st]) == kT.star_mask[st]) {
        star_points += kStarBonus[st];
        stars_done |= 1 << st;
      }
    for (int n = 0; n < 4; ++n)
      if ((filled & kT.number_mask[n]) == kT.number_mask[n]) {
        number_points += kNumberBonus[n];
        numbers_done |= 1 << n;
      }
    const int before = s.score[p];
    const int kept = Sum6(s.hand[p]);
    const int after = Clamp(before + star_points + number_points - kept);
    s.score[p] = after;
    if (h && h->capture && !h->sheet.empty()) {
      ScoreEvent e{ScoreEvent::kEnd, static_cast<int8_t>(p)};
      e.stars = static_cast<uint8_t>(stars_done);
      e.star_points = star_points;
      e.numbers = static_cast<uint8_t>(numbers_done);
      e.number_points = number_points;
      e.kept = static_cast<int8_t>(kept);
      e.before = before;
      e.after = after;
      h->sheet.back().push_back(e);
    }
  }
  s.phase = kOver;
  s.turn = kChance;
  s.next = -1;
}

// After a phase-2 turn: the next player who has not passed, then the supply refill (except
// after the game's very last turn).

}  // namespace internal

std::vector<int> Winners(const State& s) {
  std::vector<int> out;
  if (s.phase != kOver) return out;
  int best = s.score[0];
  for (int p = 1; p < s.players; ++p) best = std::max(best, static_cast<int>(s.score[p]));
  for (int p = 0; p < s.players; ++p)
    if (s.score[p] == best) out.push_back(p);
  return out;
}

}  // namespace sp
}  // namespace azul
