// The searches' utility of a finished game (docs/search.md section 4): the winners by score then the
// variant's tie-break, and each player's win share and score margin.  Used by the rollout search
// (search.cpp) and the guided search (guided.cpp).
// Pure-Python twin: python/azul_engine/_pure/search_common.py (utility).
#pragma once

#include <algorithm>
#include <cstdint>

namespace azul {

constexpr int kEdgePoints = 20;  // section 4: the margin mapped from -20..+20 points onto 0..1

// The winners of a finished game of rules R: the top score, then the variant's tie-break.
template <typename R>
int FinalWinners(const typename R::State& s, int* out) {
  const int players = R::Players(s);
  int best_score = 0, best_tie = 0, count = 0;
  for (int p = 0; p < players; ++p) {
    const int score = R::Score(s, p), tie = R::TieBreak(s, p);
    if (p == 0 || score > best_score || (score == best_score && tie > best_tie)) {
      best_score = score;
      best_tie = tie;
    }
  }
  for (int p = 0; p < players; ++p)
    if (R::Score(s, p) == best_score && R::TieBreak(s, p) == best_tie) out[count++] = p;
  return count;
}

// Section 4: adds each player's utility of `scores` won by `winners` (count of them), divided by
// `k`, to `u`.
inline void AddUtility(const int32_t* scores, int players, const int* winners, int count, double margin, double k,
                       double* u) {
  const double share = 1.0 / count;
  for (int p = 0; p < players; ++p) {
    int32_t other = 0;
    bool first = true;
    for (int q = 0; q < players; ++q)
      if (q != p && (first || scores[q] > other)) {
        other = scores[q];
        first = false;
      }
    bool won = false;
    for (int i = 0; i < count; ++i) won |= winners[i] == p;
    const double edge =
        std::min(1.0, std::max(0.0, 0.5 + static_cast<double>(scores[p] - other) / (2.0 * kEdgePoints)));
    const double value = (1.0 - margin) * (won ? share : 0.0) + margin * edge;
    u[p] += value / k;
  }
}

}  // namespace azul
