// The Summer Pavilion playout kernel's lookup tables (kernel.cpp): counts, k-th bits, ring runs,
// placement counts, ornaments and the kept-multiset tables of a pass, built once at start-up.
// Private to kernel.cpp, which includes it once.
// Pure-Python twin: none (the C++ playout kernel's tables (kernel.cpp)).
#pragma once

#include <cstdint>

#include "azul/pavilion/state.h"

namespace azul {
namespace sp {
namespace kernel {

constexpr uint64_t kHigh = 0x8080808080808080ULL;
constexpr uint64_t kLow7 = 0x7F7F7F7F7F7F7F7FULL;
constexpr uint64_t kBytes = 0x0101010101010101ULL;
// The bag: lane c (bits 9c..9c+8) holds 256 + the tiles of colours 0..c.
constexpr uint64_t kLane = 1ULL | 1ULL << 9 | 1ULL << 18 | 1ULL << 27 | 1ULL << 36 | 1ULL << 45;
constexpr uint64_t kGuard = kLane << 8;

constexpr int kPow5[7] = {1, 5, 25, 125, 625, 3125, 15625};

inline int Min(int a, int b) { return a < b ? a : b; }

struct KernelTables {
  uint8_t bits[64];    // popcount of a 6-bit mask
  uint8_t kth[64][6];  // index of the k-th set bit of a 6-bit mask
  uint32_t order[64];  // the same, as 4-bit digits (digit k: the k-th set bit)
  uint8_t lane[64];    // bit position / 9: the bag lane of a guard bit
  uint64_t one_at[64];  // One(lane[b]): a tile of the colour of the bag lane of guard bit b
  uint8_t run[64][6];  // run length through position k of a ring (bit k set)
  // place_count[wilds][have + 7 * wild][empty]: placements of one colour into the empty spaces
  // (6-bit mask) of a star, with `have` tiles of it (capped at 6) and `wilds` wild tiles (capped
  // at 5); wild: it is the wild colour itself.
  uint8_t place_count[6][14][64];
  uint64_t ornament_mask[kSpaces][4];  // the ornaments around a space (0: none)
  uint8_t ornament_tiles[kSpaces][4];
  uint64_t star_mask[7];
  uint64_t number_mask[4];
  // Kept multisets of a pass.  ways[c][code][r]: multisets of r tiles from colours c..5 within a
  // hand whose capped counts (at most 4) for colours c..5 are `code` in base 5 (colour c the
  // lowest digit), at offset[c]; c = 6 is the empty suffix.
  uint8_t ways[15625 + 3125 + 625 + 125 + 25 + 5 + 1][5];
  int offset[7];
  // cum[offset[c] + code]: in 9-bit lane i (i = 0..5), 256 + ways[..][0] + ... + ways[..][i - 1];
  // lane 5 of cum[code] counts every pass of a hand.
  uint64_t cum[15625 + 3125 + 625 + 125 + 25 + 5 + 1];
  int8_t next[4][16][4];
  // The kept counts of colours 3-5 in bytes 0-2, for each of the 35 triples of sum <= 4, and
  // tail[code][r][k]: the k-th triple (in kept-multiset order) of sum r within capped counts
  // `code` (base 5, colour 3 lowest) of colours 3-5.
  uint32_t triples[35];
  uint8_t tail[125][5][15];  // next[P - 1][passed][p]: the next seat after p not in passed, or -1

  KernelTables() : bits(), kth(), order(), lane(), one_at(), run(), place_count(), ornament_mask(), ornament_tiles(), star_mask(),
                   number_mask(), ways(), offset(), cum(), next(), triples(), tail() {
    for (int m = 0; m < 64; ++m)
      for (int c = 0; c < 6; ++c) bits[m] = static_cast<uint8_t>(bits[m] + (m >> c & 1));
    for (int m = 0; m < 64; ++m)
      for (int k = 0, c = 0; c < 6; ++c)
        if (m >> c & 1) {
          order[m] |= static_cast<uint32_t>(c) << (4 * k);
          kth[m][k++] = static_cast<uint8_t>(c);
        }
    for (int b = 0; b < 64; ++b) lane[b] = static_cast<uint8_t>(b / 9);
    for (int b = 0; b < 64; ++b) one_at[b] = b / 9 < 8 ? 1ULL << (8 * (b / 9)) : 0;
    for (int m = 0; m < 64; ++m)
      for (int k = 0; k < 6; ++k) run[m][k] = static_cast<uint8_t>(RunThrough(m, k));
    for (int wild = 0; wild < 2; ++wild)
      for (int have = 0; have <= 6; ++have)
        for (int wilds = 0; wilds <= 5; ++wilds)
          for (int m = 0; m < 64; ++m) {
            place_count[wilds][have + 7 * wild][m] =
                static_cast<uint8_t>(SpacePlacements(wild, have, wilds, m));
          }
    // The ornaments around each space (state.h's OrnamentMask), in ornament order.
    for (int space = 0; space < kSpaces; ++space) {
      int j = 0;
      for (int i = 0; i < 18; ++i)
        if (OrnamentMask(i) >> space & 1) {
          ornament_mask[space][j] = OrnamentMask(i);
          ornament_tiles[space][j] = static_cast<uint8_t>(OrnamentTiles(i));
          ++j;
        }
    }
    for (int s = 0; s < 7; ++s) star_mask[s] = 0x3FULL << (6 * s);
    for (int k = 0; k < 4; ++k)
      for (int s = 0; s < 7; ++s) number_mask[k] |= 1ULL << (s * 6 + k);
    for (int c = 0, at = 0; c <= 6; ++c) {
      offset[c] = at;
      at += kPow5[6 - c];
    }
    ways[offset[6]][0] = 1;
    for (int c = 5; c >= 0; --c)
      for (int code = 0; code < kPow5[6 - c]; ++code) {
        const int h = code % 5, rest = code / 5;
        for (int r = 0; r <= 4; ++r) {
          int w = 0;
          for (int n = 0; n <= h && n <= r; ++n) w += ways[offset[c + 1] + rest][r - n];
          ways[offset[c] + code][r] = static_cast<uint8_t>(w);
        }
      }
    for (int i = 0; i < offset[6] + 1; ++i)
      for (int j = 0, sum = 0; j < 6; sum += j < 5 ? ways[i][j] : 0, ++j)
        cum[i] |= static_cast<uint64_t>(256 + sum) << (9 * j);
    int id[5][5][5];
    for (int a = 0, t = 0; a <= 4; ++a)
      for (int b = 0; a + b <= 4; ++b)
        for (int c = 0; a + b + c <= 4; ++c, ++t) {
          id[a][b][c] = t;
          triples[t] = static_cast<uint32_t>(a | b << 8 | c << 16);
        }
    for (int code = 0; code < 125; ++code) {
      const int h3 = code % 5, h4 = code / 5 % 5, h5 = code / 25;
      for (int r = 0; r <= 4; ++r) {
        int k = 0;  // the most of colour 3 first, then of colour 4
        for (int a = Min(h3, r); a >= 0; --a)
          for (int b = Min(h4, r - a); b >= 0; --b)
            if (r - a - b <= h5) tail[code][r][k++] = static_cast<uint8_t>(id[a][b][r - a - b]);
      }
    }
    for (int players = 1; players <= 4; ++players)
      for (int passed = 0; passed < 16; ++passed)
        for (int p = 0; p < players; ++p) {
          next[players - 1][passed][p] = -1;
          for (int i = 1; i <= players; ++i)
            if (!(passed >> ((p + i) % players) & 1)) {
              next[players - 1][passed][p] = static_cast<int8_t>((p + i) % players);
              break;
            }
        }
  }
};


}  // namespace kernel
}  // namespace sp
}  // namespace azul
