// Azul: Summer Pavilion: move generation (legal actions, their mask, the k-th legal action for
// playouts, chance outcomes) (rules.md section 3).
// Pure-Python twin: python/azul_engine/_pure/pavilion/movegen.py.
#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "azul/common/bits.h"
#include "azul/common/chance.h"
#include "azul/common/rng.h"
#include "internal.h"

namespace azul {
namespace sp {

using namespace internal;

namespace {

// Placements as groups of consecutive ids base+lo .. base+hi, one per (space, colour), in id
// order; `visit(base, lo, hi)` returns true to stop.
template <typename Visit>
void ForEachPlacement(const State& s, Visit visit) {
  const int p = s.turn, wild = s.round - 1;
  const uint8_t* hand = s.hand[p];
  const int wilds = hand[wild];
  const int8_t* board = s.board[p];
  int centre_used = 0;
  for (int k = 0; k < 6; ++k)
    if (board[36 + k] >= 0) centre_used |= 1 << board[36 + k];
  uint64_t empty = ~s.filled[p] & ((1ULL << kSpaces) - 1);
  // A coloured star gives nothing without its colour in hand (the skip below, star-wide).
  for (int star = 0; star < kCentreStar; ++star)
    if (!hand[kStarColour[star]]) empty &= ~kT.star_mask[star];
  while (empty) {
    const int space = LowestBit(empty);
    empty &= empty - 1;
    const int star = space / 6, cost = space % 6 + 1;
    const int first = star < 6 ? kStarColour[star] : 0, last = star < 6 ? first : 5;
    for (int c = first; c <= last; ++c) {
      if (star == kCentreStar && (centre_used >> c & 1)) continue;
      const int have = hand[c];
      if (!have) continue;
      const int base = kPlaceActionBase + (space * 6 + c) * 6;
      if (c == wild) {
        if (have >= cost && visit(base, 0, 0)) return;
        continue;
      }
      const int lo = cost > have ? cost - have : 0;
      const int hi = cost - 1 < wilds ? cost - 1 : wilds;
      if (hi >= lo && visit(base, lo, hi)) return;
    }
  }
}

inline int PassCount(const uint8_t* hand) {
  int index = 0;
  for (int c = kColours - 1; c >= 0; --c) index = index * 5 + Cap(hand[c], 4);
  return kT.pass_count[index];
}

// The k-th kept multiset (in KeepSets() order) that `hand` can keep, as its index.  Sets come
// by size, and within a size in descending lexicographic order of their counts (that is
// combinations_with_replacement's order), so counting completions picks each colour's count.
int KthKeep(const uint8_t* hand, int k) {
  int h[kColours];
  for (int c = 0; c < kColours; ++c) h[c] = Cap(hand[c], 4);
  // ways[c][r]: multisets of r tiles from colours c..5 within the hand.
  int ways[kColours + 1][5];
  ways[kColours][0] = 1;
  for (int r = 1; r <= 4; ++r) ways[kColours][r] = 0;
  for (int c = kColours - 1; c >= 0; --c)
    for (int r = 0; r <= 4; ++r) {
      int w = 0;
      for (int n = 0; n <= h[c] && n <= r; ++n) w += ways[c + 1][r - n];
      ways[c][r] = w;
    }
  int r = 0;
  while (k >= ways[0][r]) k -= ways[0][r++];
  int code = 0, scale = 1;
  for (int c = 0; c < kColours; ++c, scale *= 5) {
    int n = h[c] < r ? h[c] : r;
    while (k >= ways[c + 1][r - n]) k -= ways[c + 1][r - n--];
    code += n * scale;
    r -= n;
  }
  return kT.keep_index[code];
}

int PlacementCount(const State& s) {
  const int p = s.turn, wild = s.round - 1;
  const uint8_t* hand = s.hand[p];
  const int wilds = Cap(hand[wild], 5);
  const uint64_t empty = ~s.filled[p];
  int n = 0;
  for (int star = 0; star < 6; ++star) {
    const int c = kStarColour[star];
    if (!hand[c]) continue;
    n += kT.place_count[c == wild][Cap(hand[c], 6)][wilds][(empty >> (6 * star)) & 63];
  }
  const int centre_empty = static_cast<int>((empty >> 36) & 63);
  if (centre_empty) {
    int centre_used = 0;
    const int8_t* board = s.board[p];
    for (int k = 0; k < 6; ++k)
      if (board[36 + k] >= 0) centre_used |= 1 << board[36 + k];
    for (int c = 0; c < kColours; ++c) {
      if ((centre_used >> c & 1) || !hand[c]) continue;
      n += kT.place_count[c == wild][Cap(hand[c], 6)][wilds][centre_empty];
    }
  }
  return n;
}

// Placements of colour c on a space costing `cost` are the wild counts lo..hi; returns
// hi - lo + 1 (0: none) and sets *lo.
inline int PlaceRange(int c, int cost, int have, int wild, int wilds, int* lo) {
  if (!have) return 0;
  if (c == wild) {
    *lo = 0;
    return have >= cost;
  }
  *lo = cost > have ? cost - have : 0;
  const int hi = cost - 1 < wilds ? cost - 1 : wilds;
  return hi >= *lo ? hi - *lo + 1 : 0;
}

// The k-th placement (k < PlacementCount(s)) in id order: whole outer stars are skipped by
// their counts; ids go space by space, and on the centre star colour by colour in a space.
int KthPlacement(const State& s, int k) {
  const int p = s.turn, wild = s.round - 1;
  const uint8_t* hand = s.hand[p];
  const int wilds = hand[wild];
  const uint64_t empty = ~s.filled[p];
  int lo = 0;
  for (int star = 0; star < 6; ++star) {
    const int c = kStarColour[star], have = hand[c];
    if (!have) continue;
    const int m = static_cast<int>((empty >> (6 * star)) & 63);
    const int count = kT.place_count[c == wild][Cap(have, 6)][Cap(wilds, 5)][m];
    if (k >= count) {
      k -= count;
      continue;
    }
    for (int bits = m;; bits &= bits - 1) {
      const int j = LowestBit(bits);
      const int n = PlaceRange(c, j + 1, have, wild, wilds, &lo);
      if (k < n) return kPlaceActionBase + ((star * 6 + j) * 6 + c) * 6 + lo + k;
      k -= n;
    }
  }
  int used = 0;
  const int8_t* board = s.board[p];
  for (int j = 0; j < 6; ++j)
    if (board[36 + j] >= 0) used |= 1 << board[36 + j];
  for (int bits = static_cast<int>((empty >> 36) & 63);; bits &= bits - 1) {
    const int j = LowestBit(bits);
    for (int c = 0; c < kColours; ++c) {
      if (used >> c & 1) continue;
      const int n = PlaceRange(c, j + 1, hand[c], wild, wilds, &lo);
      if (k < n) return kPlaceActionBase + ((36 + j) * 6 + c) * 6 + lo + k;
      k -= n;
    }
  }
}



// Eight int16 lanes (bits.h: GCC's and Clang's vector extension, or a plain array elsewhere).
using Lanes8 = Int16x8;
constexpr int16_t kIota[8] = {0, 1, 2, 3, 4, 5, 6, 7};

// kRun.bytes[lo][hi]: bytes lo..hi set to 1 (the mask bytes of a placement group).
struct RunBytes {
  uint64_t bytes[6][6];
  constexpr RunBytes() : bytes() {
    for (int lo = 0; lo < 6; ++lo)
      for (int hi = lo; hi < 6; ++hi)
        for (int w = lo; w <= hi; ++w) bytes[lo][hi] |= uint64_t{1} << (8 * w);
  }
};
constexpr RunBytes kRun;

// LegalActions, and with kMask each listed id's byte of `mask` (zero on entry) set to 1.
template <bool kMask>
int ListLegal(const State& s, int16_t* out, uint8_t* mask) {
  int n = 0;
  switch (s.phase) {
    case kPlay: {
      // A group's ids (at most 6) with one 8-wide store, and its mask bytes with one 8-byte
      // store (the 2 bytes past the group belong to later groups, written after it, or stay 0).
      ForEachPlacement(s, [&](int base, int lo, int hi) {
        Lanes8 ids;
        std::memcpy(&ids, kIota, sizeof ids);
        ids += static_cast<int16_t>(base + lo);
        std::memcpy(out + n, &ids, sizeof ids);
        n += hi - lo + 1;
        if (kMask) std::memcpy(mask + base, &kRun.bytes[lo][hi], 8);
        return false;
      });
      // The passes: the kept multisets the hand holds, ascending, from their bitset.
      const uint8_t* hand = s.hand[s.turn];
      for (int w = 0; w < 4; ++w) {
        uint64_t bits = ~uint64_t{0};
        for (int c = 0; c < kColours; ++c) bits &= kT.fits[c][Cap(hand[c], 4)][w];
        if (kMask)  // 8 ids a byte, up to id 1793 (ids past the passes are draws: 0 here)
          for (int b = 0; b < 8 && 64 * w + 8 * b < kNumKeepSets; ++b)
            std::memcpy(mask + kPassActionBase + 64 * w + 8 * b, &kT.expand[bits >> (8 * b) & 255],
                        8);
        for (; bits; bits &= bits - 1)
          out[n++] = static_cast<int16_t>(kPassActionBase + 64 * w + LowestBit(bits));
      }
      return n;
    }
    case kAcquire: {
      const int wild = s.round - 1;
      for (int src = 0; src <= s.num_factories; ++src) {
        const uint8_t* tiles = src == s.num_factories ? s.centre : s.factories[src];
        const int source = src == s.num_factories ? kCentre : src;
        bool only_wild = true;
        for (int c = 0; c < kColours; ++c)
          if (tiles[c] && c != wild) {
            out[n++] = static_cast<int16_t>(source * 6 + c);
            only_wild = false;
          }
        if (only_wild && tiles[wild]) out[n++] = static_cast<int16_t>(source * 6 + wild);
      }
      break;
    }
    case kBonus:
      for (int c = 0; c < kColours; ++c)
        if (s.supply[c]) out[n++] = static_cast<int16_t>(kBonusActionBase + c);
      break;
    case kFill:
    case kFirstPlayer:
      n = ListChanceActions(kChanceActions, s.phase == kFirstPlayer, s.bag, s.players, out);
      break;
    default:
      break;
  }
  if (kMask)
    for (int k = 0; k < n; ++k) mask[out[k]] = 1;
  return n;
}


}  // namespace

int LegalActions(const State& s, int16_t* out) { return ListLegal<false>(s, out, nullptr); }

int LegalActionsAndMask(const State& s, int16_t* out, uint8_t* mask) {
  return ListLegal<true>(s, out, mask);
}


std::vector<int> LegalActionList(const State& s) {
  int16_t buf[kNumActions];
  const int n = LegalActions(s, buf);
  return std::vector<int>(buf, buf + n);
}

int PickLegalAction(const State& s, uint64_t& policy) {
  switch (s.phase) {
    case kPlay: {
      const int placements = PlacementCount(s);
      const int passes = PassCount(s.hand[s.turn]);
      const int k = Below(policy, placements + passes);
      if (k < placements) return KthPlacement(s, k);
      return kPassActionBase + KthKeep(s.hand[s.turn], k - placements);
    }
    case kAcquire: {
      const int wild = s.round - 1, nf = s.num_factories;
      int mask[kMaxFactories + 1], weight[kMaxFactories + 1];
      int n = 0;
      for (int src = 0; src <= nf; ++src) {
        const int m = ColourMask(src == nf ? s.centre : s.factories[src]);
        const int others = m & ~(1 << wild);
        mask[src] = others ? others : m;  // a source of only wild tiles gives the wild colour
        weight[src] = kT.bits[mask[src]];
        n += weight[src];
      }
      // n > 0: phase 1 is entered only with tiles on offer (FillDone; from_text checks it).
      int k = Below(policy, n);
      int src = 0;
      while (k >= weight[src]) k -= weight[src++];
      int m = mask[src];
      while (k--) m &= m - 1;
      return (src == nf ? kCentre : src) * 6 + LowestBit(m);
    }
    default: {
      int16_t buf[kNumActions];
      return buf[Below(policy, LegalActions(s, buf))];
    }
  }
}

std::vector<std::pair<int, double>> ChanceOutcomes(const State& s) {
  if (s.phase == kFill || s.phase == kFirstPlayer)
    return ChanceOutcomeList(kChanceActions, s.phase == kFirstPlayer, s.bag, s.players);
  throw IllegalMove(std::string("not a chance node (phase ") + kPhaseNames[s.phase] + ")");
}

}  // namespace sp
}  // namespace azul
