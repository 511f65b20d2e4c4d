// Azul: Summer Pavilion: the observation tensor (PavilionState.observation_tensor).
// The pure-Python twin is PavilionState.observation_tensor in python/azul_engine/_pypavilion.py,
// whose docstring gives the layout.
#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "internal.h"

namespace azul {
namespace sp {

using namespace internal;

void Observation(const State& s, int player, float* out) {
  const int n = s.players;
  std::fill(out, out + ObservationSize(n), 0.0f);
  // Values are computed in double and rounded once to float, as numpy stores Python floats.
  auto put = [&](int i, double v) { out[i] = static_cast<float>(v); };
  for (int k = 0; k < n; ++k) {
    const int seat = (player + k) % n, base = kSeatFeatures * k;
    const int8_t* board = s.board[seat];
    for (int x = 0; x < kSpaces; ++x)
      if (board[x] >= 0) {
        out[base + x] = 1.0f;
        if (x >= 36) out[base + 42 + 6 * (x - 36) + board[x]] = 1.0f;
      }
    for (int c = 0; c < kColours; ++c) put(base + 78 + c, s.hand[seat][c] / 22.0);
    put(base + 84, s.score[seat] / 100.0);
    out[base + 85] = s.passed[seat] ? 1.0f : 0.0f;
    out[base + 86] = s.marker == seat ? 1.0f : 0.0f;
  }
  const int base = kSeatFeatures * n;
  for (int f = 0; f < s.num_factories; ++f)
    for (int c = 0; c < kColours; ++c) put(base + 6 * f + c, s.factories[f][c] / 4.0);
  for (int c = 0; c < kColours; ++c) {
    put(base + 54 + c, s.centre[c] / 22.0);
    put(base + 61 + c, s.supply[c] / 10.0);
    put(base + 67 + c, s.bag[c] / 22.0);
    put(base + 73 + c, s.tower[c] / 22.0);
  }
  out[base + 60] = s.marker < 0 && s.phase == kAcquire ? 1.0f : 0.0f;
  put(base + 79, s.round / 6.0);
  out[base + 80 + s.round - 1] = 1.0f;
  out[base + 86 + s.phase] = 1.0f;
  put(base + 92, s.owed / 18.0);
  if (s.start >= 0) out[base + 93 + ((s.start - player) % n + n) % n] = 1.0f;
}

}  // namespace sp
}  // namespace azul
