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
        out[base + obs::kCovered + x] = 1.0f;
        if (x >= 36) out[base + obs::kCentreColours + 6 * (x - 36) + board[x]] = 1.0f;
      }
    for (int c = 0; c < kColours; ++c) put(base + obs::kHand + c, s.hand[seat][c] / 22.0);
    put(base + obs::kScore, s.score[seat] / 100.0);
    out[base + obs::kPassed] = s.passed[seat] ? 1.0f : 0.0f;
    out[base + obs::kHasMarker] = s.marker == seat ? 1.0f : 0.0f;
  }
  const int base = kSeatFeatures * n;
  for (int f = 0; f < s.num_factories; ++f)
    for (int c = 0; c < kColours; ++c) put(base + obs::kFactories + 6 * f + c, s.factories[f][c] / 4.0);
  for (int c = 0; c < kColours; ++c) {
    put(base + obs::kCentre + c, s.centre[c] / 22.0);
    put(base + obs::kSupply + c, s.supply[c] / 10.0);
    put(base + obs::kBag + c, s.bag[c] / 22.0);
    put(base + obs::kTower + c, s.tower[c] / 22.0);
  }
  out[base + obs::kMarkerInCentre] = s.marker < 0 && s.phase == kAcquire ? 1.0f : 0.0f;
  put(base + obs::kRound, s.round / 6.0);
  out[base + obs::kRoundOneHot + s.round - 1] = 1.0f;
  out[base + obs::kPhase + s.phase] = 1.0f;
  put(base + obs::kOwed, s.owed / 18.0);
  if (s.start >= 0) out[base + obs::kStarter + ((s.start - player) % n + n) % n] = 1.0f;
}

}  // namespace sp
}  // namespace azul
