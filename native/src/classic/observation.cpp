// Observation tensors.
// Pure-Python twin: python/azul_engine/_pure/classic/observation.py.
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

#if defined(__GNUC__) && (__GNUC__ >= 9 || defined(__clang__)) && !defined(AZUL_PORTABLE)
// Eight lanes at a time with the compiler's vector types (SSE2 or AVX2 on x86-64, NEON on ARM):
// the wall's one-hot floats from a comparison of its cells.
typedef int8_t Bytes8 __attribute__((vector_size(8)));
typedef int32_t Ints8 __attribute__((vector_size(32)));

// The wall's 125 floats (25 a colour): 1 where the cell holds the colour; every one written.
inline void WallFloats(const int8_t* wall, float* o) {
  Bytes8 cells[3];
  std::memcpy(cells, wall, sizeof(cells));
  const Ints8 one = {0x3F800000, 0x3F800000, 0x3F800000, 0x3F800000,
                     0x3F800000, 0x3F800000, 0x3F800000, 0x3F800000};  // the bits of 1.0f
  for (int c = 0; c < kColours; ++c) {
    const Bytes8 colour = {static_cast<int8_t>(c), static_cast<int8_t>(c), static_cast<int8_t>(c),
                           static_cast<int8_t>(c), static_cast<int8_t>(c), static_cast<int8_t>(c),
                           static_cast<int8_t>(c), static_cast<int8_t>(c)};
    for (int j = 0; j < 3; ++j) {
      const Ints8 bits = __builtin_convertvector(cells[j] == colour, Ints8) & one;  // -1 (all ones) or 0
      std::memcpy(o + 25 * c + 8 * j, &bits, sizeof(bits));
    }
    o[25 * c + 24] = wall[24] == c ? 1.0f : 0.0f;
  }
}

#else
inline void WallFloats(const int8_t* wall, float* o) {
  for (int c = 0; c < kColours; ++c)
    for (int i = 0; i < 25; ++i) o[25 * c + i] = wall[i] == c ? 1.0f : 0.0f;
}

#endif

// GCC's vector shuffles (Clang spells them otherwise, and vectorizes the plain loops below itself), on
// little-endian machines (a count shuffled into a lane's first byte is the lane's value there).
#if defined(__GNUC__) && __GNUC__ >= 9 && !defined(__clang__) && !defined(AZUL_PORTABLE) && \
    defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
typedef uint8_t Bytes16 __attribute__((vector_size(16)));
typedef int32_t Ints4 __attribute__((vector_size(16)));
typedef float Floats4 __attribute__((vector_size(16)));

// Factory tiles / 4 (exact as tiles * 0.25, a power of two): 45 floats from 45 counts, read as
// three runs of 16 (at 0, 16 and 29: the last overlaps the second, its three floats written twice
// alike) before the first store (through a byte pointer the compiler must assume `o` may write
// them); four counts at a time are shuffled into 32-bit lanes and converted (a byte-to-float
// conversion of the compiler's vector types is done one lane at a time).
inline void FactoryFloats(const uint8_t* factories, float* o) {
  constexpr int kRun[3] = {0, 16, 29};
  Bytes16 runs[3];
  for (int k = 0; k < 3; ++k) std::memcpy(&runs[k], factories + kRun[k], sizeof(Bytes16));
  const Bytes16 zero = {};
  for (int k = 0; k < 3; ++k)
    for (int q = 0; q < 4; ++q) {
      const uint8_t b = static_cast<uint8_t>(4 * q);  // lanes of the zero vector are 16 to 31
      const Bytes16 lanes = {b, 16, 16, 16, static_cast<uint8_t>(b + 1), 16, 16, 16,
                             static_cast<uint8_t>(b + 2), 16, 16, 16, static_cast<uint8_t>(b + 3), 16, 16, 16};
      const Bytes16 wide = __builtin_shuffle(runs[k], zero, lanes);
      Ints4 counts;
      std::memcpy(&counts, &wide, sizeof(counts));
      const Floats4 f = __builtin_convertvector(counts, Floats4) * 0.25f;
      std::memcpy(o + kRun[k] + 4 * q, &f, sizeof(f));
    }
}

#else
// Factory tiles / 4 (exact as tiles * 0.25, a power of two): 45 floats from 45 counts, copied
// first (through a byte pointer the compiler must assume `o` may write them).
inline void FactoryFloats(const uint8_t* factories, float* o) {
  uint8_t tiles[45];
  std::memcpy(tiles, factories, sizeof(tiles));
  for (int j = 0; j < 45; ++j) o[j] = static_cast<float>(tiles[j]) * 0.25f;
}

#endif

}  // namespace

// Every value is written once (only the pattern lines and the one-hot fields are cleared first, and
// three of the factories' floats are written twice alike), the wall eight values at a time and the
// factories four (with GCC; plain loops elsewhere), the pattern lines without a branch (an empty
// line writes to `sink`), and no division (the tables above): this runs once a game a step in a
// Gymnasium vector environment.
AZUL_WITH_AVX2 void Observation(const State& s, int player, float* out) {
  const int players = s.players;
  float sink = 0.0f;
  int seat = player;
  for (int k = 0; k < players; ++k, seat = seat + 1 == players ? 0 : seat + 1) {
    const PlayerBoard& b = s.board[seat];
    float* o = out + kSeatFeatures * k;
    WallFloats(b.wall, o + obs::kWall);
    ZeroBytes<sizeof(float) * (obs::kFloor - obs::kLines)>(o + obs::kLines);
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
  static_assert(sizeof(s.factories) == 45, "the factories are one run of 45 counts");
  FactoryFloats(&s.factories[0][0], o + obs::kFactories);
  for (int c = 0; c < kColours; ++c) {
    o[obs::kCentre + c] = Over(kTwentieth, s.centre[c]);
    o[obs::kBag + c] = Over(kTwentieth, s.bag[c]);
    o[obs::kLid + c] = Over(kTwentieth, s.lid[c]);
  }
  o[obs::kMarkerInCentre] = (s.phase == kOffer && s.marker < 0) ? 1.0f : 0.0f;
  o[obs::kRound] = Over(kTenth, s.round);
  ZeroBytes<sizeof(float) * (kSharedFeatures - obs::kPhase)>(o + obs::kPhase);  // the one-hots
  o[obs::kPhase + s.phase] = 1.0f;
  if (s.phase == kTiling) o[obs::kPendingRow + PendingRow(s, s.turn)] = 1.0f;
  if (s.start >= 0) {  // the starter's seat counted from the observer's, without a division
    const int from = s.start - player;
    o[obs::kStarter + (from < 0 ? from + players : from)] = 1.0f;
  }
}

}  // namespace azul
