// Observation tensors.
#include "azul/classic/observation.h"

#include <cstdint>
#include <cstring>

#include "azul/common/bits.h"

namespace azul {

namespace {

// Quotients of small whole numbers, as floats: Quotients<D, N>::v[x] is static_cast<float>(x) / D
// for x in 0..N-1, computed by the compiler with the same IEEE division as at run time, so a
// lookup gives the bits a division gives (and the pure engine's), for a fraction of its cost.
template <int D, int N>
struct Quotients {
  float v[N];
  constexpr Quotients() : v() {
    for (int x = 0; x < N; ++x) v[x] = static_cast<float>(x) / static_cast<float>(D);
  }
};
// Tile counts are bytes: their tables have all 256 entries, so a lookup needs no range check.
constexpr Quotients<7, 256> kSeventh;      // floor tiles / 7
constexpr Quotients<20, 256> kTwentieth;   // centre, bag and lid tiles / 20
constexpr Quotients<10, 128> kTenth;       // round / 10 (the round cap is 100)
constexpr Quotients<100, 512> kHundredth;  // score / 100 (a score is at most max_score, 345)

// kLineFill.v[r][n]: a pattern line of row r holding n tiles, n / (r + 1) as a float.
struct LineFill {
  float v[5][6];
  constexpr LineFill() : v() {
    for (int r = 0; r < 5; ++r)
      for (int n = 0; n <= 5; ++n) v[r][n] = static_cast<float>(n) / static_cast<float>(r + 1);
  }
};
constexpr LineFill kLineFill;

// x / D as a float: from the table when x is in it, else by division (never met in play).
template <int D, int N>
inline float Over(const Quotients<D, N>& table, int x) {
  return x >= 0 && x < N ? table.v[x] : static_cast<float>(x) / static_cast<float>(D);
}
template <int D>
inline float Over(const Quotients<D, 256>& table, uint8_t x) {
  return table.v[x];
}

// Bit i set when wall cell i holds a tile (its byte is not negative): eight cells at a time from
// the bytes' sign bits (the multiply gathers byte k's bit into bit k), the plain loop with
// AZUL_PORTABLE and on big-endian machines.
inline uint32_t FilledCells(const int8_t* wall) {
  uint32_t bits = 0;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ && !defined(AZUL_PORTABLE)
  for (int w = 0; w < 3; ++w) {
    uint64_t x;
    std::memcpy(&x, wall + 8 * w, 8);
    const uint64_t filled = (~x >> 7) & 0x0101010101010101ULL;
    bits |= static_cast<uint32_t>((filled * 0x0102040810204080ULL) >> 56) << (8 * w);
  }
  bits |= static_cast<uint32_t>(wall[24] >= 0) << 24;
#else
  for (int i = 0; i < 25; ++i) bits |= static_cast<uint32_t>(wall[i] >= 0) << i;
#endif
  return bits;
}

}  // namespace

// Every value is written once (only the sparse parts, the wall and the pattern lines of each
// seat and the one-hot fields, are cleared first), the wall's tiles found from a mask of its
// filled cells, the pattern lines without a branch (an empty line writes to `sink`), and no
// division (the tables above): this runs once a game a step in a Gymnasium vector environment.
AZUL_WITH_AVX2 void Observation(const State& s, int player, float* out) {
  const int players = s.players;
  float sink = 0.0f;
  int seat = player;
  for (int k = 0; k < players; ++k, seat = seat + 1 == players ? 0 : seat + 1) {
    const PlayerBoard& b = s.board[seat];
    float* o = out + kSeatFeatures * k;
    ClearFloats(o, obs::kFloor);  // the wall and the pattern lines
    for (uint32_t cells = FilledCells(b.wall); cells; cells &= cells - 1) {
      const int i = LowestBit(cells);
      o[obs::kWall + 25 * b.wall[i] + i] = 1.0f;
    }
    for (int r = 0; r < 5; ++r) {
      const int n = b.line_count[r];
      float* at = n ? o + obs::kLines + 5 * r + b.line_colour[r] : &sink;
      *at = kLineFill.v[r][n];
    }
    o[obs::kFloor] = Over(kSeventh, Sum5(b.floor));
    o[obs::kMarkerOnFloor] = (s.marker == seat && s.marker_floor) ? 1.0f : 0.0f;
    o[obs::kHasMarker] = s.marker == seat ? 1.0f : 0.0f;
    o[obs::kScore] = Over(kHundredth, b.score);
  }
  float* o = out + kSeatFeatures * players;
  // Tiles / 4 is exact as tiles * 0.25 (a power of two). (A copy of the bytes: through a byte
  // pointer the compiler must assume `out` may write them.)
  uint8_t tiles[kMaxFactories * kColours];
  std::memcpy(tiles, s.factories, sizeof(tiles));
  for (int j = 0; j < kMaxFactories * kColours; ++j) o[obs::kFactories + j] = static_cast<float>(tiles[j]) * 0.25f;
  for (int c = 0; c < kColours; ++c) {
    o[obs::kCentre + c] = Over(kTwentieth, s.centre[c]);
    o[obs::kBag + c] = Over(kTwentieth, s.bag[c]);
    o[obs::kLid + c] = Over(kTwentieth, s.lid[c]);
  }
  o[obs::kMarkerInCentre] = (s.phase == kOffer && s.marker < 0) ? 1.0f : 0.0f;
  o[obs::kRound] = Over(kTenth, s.round);
  std::memset(o + obs::kPhase, 0, sizeof(float) * (kSharedFeatures - obs::kPhase));  // the one-hots
  o[obs::kPhase + s.phase] = 1.0f;
  if (s.phase == kTiling) o[obs::kPendingRow + PendingRow(s, s.turn)] = 1.0f;
  if (s.start >= 0) o[obs::kStarter + ((s.start - player) % players + players) % players] = 1.0f;
}

}  // namespace azul
