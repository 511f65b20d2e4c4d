// Azul: Summer Pavilion: the rules' lookup tables (kept multisets, ornaments, runs, placement
// counts), state equality and the ornaments' names (rules.md section 3).
// Pure-Python twin: python/azul_engine/_pure/pavilion/tables.py.
#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "internal.h"

namespace azul {
namespace sp {

using namespace internal;

namespace internal {

Tables::Tables()
    : keep(), fits(), expand(), pass_count(), keep_index(), bits(), run(), ornament_mask(), ornament_tiles(),
           ornaments_of(), star_mask(), number_mask(), place_count() {
  int n = 0;
  for (int size = 0; size <= 4; ++size) {
    // combinations_with_replacement(range(6), size) in lexicographic order
    int combo[4] = {0, 0, 0, 0};
    while (true) {
      uint8_t counts[kColours] = {0, 0, 0, 0, 0, 0};
      for (int i = 0; i < size; ++i) ++counts[combo[i]];
      std::memcpy(keep[n], counts, kColours);
      for (int c = 0; c < kColours; ++c)
        for (int v = counts[c]; v <= 4; ++v) fits[c][v][n / 64] |= uint64_t{1} << (n % 64);
      ++n;
      int i = size - 1;
      while (i >= 0 && combo[i] == kColours - 1) --i;
      if (i < 0) break;
      ++combo[i];
      for (int j = i + 1; j < size; ++j) combo[j] = combo[i];
    }
  }
  for (int m = 0; m < 256; ++m)
    for (int b = 0; b < 8; ++b)
      if (m >> b & 1) expand[m] |= uint64_t{1} << (8 * b);
  for (int index = 0; index < 15625; ++index) keep_index[index] = -1;
  for (int k = 0; k < kNumKeepSets; ++k) {
    int code = 0;
    for (int c = kColours - 1; c >= 0; --c) code = code * 5 + keep[k][c];
    keep_index[code] = static_cast<int16_t>(k);
  }
  for (int m = 0; m < 64; ++m)
    for (int c = 0; c < 6; ++c) bits[m] = static_cast<uint8_t>(bits[m] + (m >> c & 1));
  for (int index = 0; index < 15625; ++index) {
    int h[kColours], x = index;
    for (int c = 0; c < kColours; ++c) {
      h[c] = x % 5;
      x /= 5;
    }
    // Coefficients of prod_c (1 + x + ... + x^h[c]) up to x^4: kept multisets by size.
    int poly[5] = {1, 0, 0, 0, 0};
    for (int c = 0; c < kColours; ++c)
      for (int d = 4; d >= 0; --d)
        for (int j = 1; j <= h[c] && j <= d; ++j) poly[d] += poly[d - j];
    pass_count[index] = static_cast<uint8_t>(poly[0] + poly[1] + poly[2] + poly[3] + poly[4]);
  }
  for (int m = 0; m < 64; ++m)
    for (int k = 0; k < 6; ++k) run[m][k] = static_cast<uint8_t>(RunThrough(m, k));
  for (int o = 0; o < kOrnaments; ++o) {
    ornament_mask[o] = OrnamentMask(o);
    ornament_tiles[o] = OrnamentTiles(o);
  }
  for (int sp = 0; sp < kSpaces; ++sp) {
    int j = 0;
    for (int i = 0; i < kOrnaments; ++i)
      if (ornament_mask[i] >> sp & 1) ornaments_of[sp][j++] = static_cast<int8_t>(i);
    while (j < 4) ornaments_of[sp][j++] = -1;
  }
  for (int s = 0; s < 7; ++s) star_mask[s] = 0x3FULL << (6 * s);
  for (int k = 0; k < 6; ++k) {
    number_mask[k] = 0;
    for (int s = 0; s < 7; ++s) number_mask[k] |= 1ULL << (s * 6 + k);
  }
  for (int wild = 0; wild < 2; ++wild)
    for (int have = 0; have <= 6; ++have)
      for (int wilds = 0; wilds <= 5; ++wilds)
        for (int m = 0; m < 64; ++m) {
          place_count[wild][have][wilds][m] =
              static_cast<uint8_t>(SpacePlacements(wild, have, wilds, m));
        }
}

const Tables kT;

std::string OrnamentName(int i) {
  const int kind = i / 6, s = i % 6;
  std::string star(1, kStarLetters[s]);
  if (kind == 1) return "statue " + star + "-" + kStarLetters[(s + 1) % 6];
  return (kind == 0 ? "window " : "pillar ") + star;
}

}  // namespace internal

const uint8_t (*KeepSets())[kColours] { return kT.keep; }

int KeepIndex(const int* counts) {
  for (int k = 0; k < kNumKeepSets; ++k) {
    bool same = true;
    for (int c = 0; c < kColours; ++c) same = same && kT.keep[k][c] == counts[c];
    if (same) return k;
  }
  return -1;
}

bool operator==(const State& a, const State& b) {
  if (a.players != b.players || a.explicit_chance != b.explicit_chance || a.seed != b.seed ||
      a.rng != b.rng || a.round != b.round || a.phase != b.phase || a.fill != b.fill ||
      a.turn != b.turn || a.start != b.start || a.marker != b.marker || a.moves != b.moves ||
      a.next != b.next || a.owed != b.owed)
    return false;
  if (std::memcmp(a.factories, b.factories, sizeof a.factories) ||
      std::memcmp(a.centre, b.centre, 8) || std::memcmp(a.supply, b.supply, 8) ||
      std::memcmp(a.refill, b.refill, 8) || std::memcmp(a.bag, b.bag, 8) ||
      std::memcmp(a.tower, b.tower, 8) || std::memcmp(a.prefill_bag, b.prefill_bag, 8) ||
      std::memcmp(a.prefill_tower, b.prefill_tower, 8))
    return false;
  for (int p = 0; p < a.players; ++p)
    if (a.score[p] != b.score[p] || std::memcmp(a.hand[p], b.hand[p], 8) ||
        std::memcmp(a.board[p], b.board[p], kSpaces) || a.passed[p] != b.passed[p])
      return false;
  return true;
}

}  // namespace sp
}  // namespace azul
