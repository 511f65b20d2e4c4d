// Azul: Summer Pavilion: the observation tensor (PavilionState.observation_tensor).
// docs/observation.md gives the layout.
// Pure-Python twin: python/azul_engine/_pure/pavilion/observation.py.
#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "azul/common/bits.h"
#include "azul/pavilion/observation.h"
#include "internal.h"

namespace azul {
namespace sp {

using namespace internal;

namespace {

// Quotients<D, N>::v[x] is x / D computed in double and rounded once to float (the values of the
// pure engine, whose numpy array stores Python floats), for x in 0..N-1: a lookup for a division.
template <int D, int N>
struct Quotients {
  float v[N];
  constexpr Quotients() : v() {
    for (int x = 0; x < N; ++x) v[x] = static_cast<float>(x / static_cast<double>(D));
  }
};
// Tile counts are bytes: their tables have all 256 entries, so a lookup needs no range check.
constexpr Quotients<22, 256> kPer22;      // hand, centre, bag and tower tiles / 22
constexpr Quotients<4, 256> kQuarter;     // factory tiles / 4
constexpr Quotients<10, 256> kTenth;      // supply tiles / 10
constexpr Quotients<6, 8> kSixth;         // round / 6
constexpr Quotients<18, 32> kPer18;       // bonus tiles owed / 18
constexpr Quotients<100, 512> kHundredth; // score / 100 (a score is at most max_score, 409)

template <int D, int N>
inline float Over(const Quotients<D, N>& table, int x) {
  return x >= 0 && x < N ? table.v[x] : static_cast<float>(x / static_cast<double>(D));
}
template <int D>
inline float Over(const Quotients<D, 256>& table, uint8_t x) {
  return table.v[x];
}

}  // namespace

// Every value written once (the sparse fields cleared first), without a branch on the board's
// spaces (an empty one writes to `sink`) or a division (the tables above): see the classic
// observation (classic/observation.cpp).
AZUL_WITH_AVX2 void Observation(const State& s, int player, float* out) {
  const int n = s.players;
  float sink = 0.0f;
  int seat = player;
  for (int k = 0; k < n; ++k, seat = seat + 1 == n ? 0 : seat + 1) {
    float* o = out + kSeatFeatures * k;
    const int8_t* board = s.board[seat];
    for (int x = 0; x < kSpaces; ++x) o[obs::kCovered + x] = board[x] >= 0 ? 1.0f : 0.0f;
    ClearFloats(o + obs::kCentreColours, obs::kHand - obs::kCentreColours);
    for (int x = 36; x < kSpaces; ++x) {
      float* at = board[x] >= 0 ? o + obs::kCentreColours + 6 * (x - 36) + board[x] : &sink;
      *at = 1.0f;
    }
    for (int c = 0; c < kColours; ++c) o[obs::kHand + c] = Over(kPer22, s.hand[seat][c]);
    o[obs::kScore] = Over(kHundredth, s.score[seat]);
    o[obs::kPassed] = s.passed[seat] ? 1.0f : 0.0f;
    o[obs::kHasMarker] = s.marker == seat ? 1.0f : 0.0f;
  }
  float* o = out + kSeatFeatures * n;
  ClearFloats(o + obs::kFactories, obs::kCentre - obs::kFactories);
  for (int f = 0; f < s.num_factories; ++f)
    for (int c = 0; c < kColours; ++c) o[obs::kFactories + 6 * f + c] = Over(kQuarter, s.factories[f][c]);
  for (int c = 0; c < kColours; ++c) {
    o[obs::kCentre + c] = Over(kPer22, s.centre[c]);
    o[obs::kSupply + c] = Over(kTenth, s.supply[c]);
    o[obs::kBag + c] = Over(kPer22, s.bag[c]);
    o[obs::kTower + c] = Over(kPer22, s.tower[c]);
  }
  o[obs::kMarkerInCentre] = s.marker < 0 && s.phase == kAcquire ? 1.0f : 0.0f;
  o[obs::kRound] = Over(kSixth, s.round);
  std::memset(o + obs::kRoundOneHot, 0, sizeof(float) * (obs::kOwed - obs::kRoundOneHot));  // one-hots
  o[obs::kRoundOneHot + s.round - 1] = 1.0f;
  o[obs::kPhase + s.phase] = 1.0f;
  o[obs::kOwed] = Over(kPer18, s.owed);
  std::memset(o + obs::kStarter, 0, sizeof(float) * (kSharedFeatures - obs::kStarter));
  if (s.start >= 0) o[obs::kStarter + ((s.start - player) % n + n) % n] = 1.0f;
}

}  // namespace sp
}  // namespace azul
