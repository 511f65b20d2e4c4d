// Move generation: legal actions in ascending id order, chance outcomes, wall queries.
// Pure-Python twin: python/azul_engine/_pure/classic/movegen.py.
#include <cstring>
#include <utility>
#include <vector>

#include "azul/common/bits.h"
#include "azul/common/chance.h"
#include "azul/common/rng.h"
#include "azul/classic/state.h"

namespace azul {

int PendingRow(const State& s, int player) {
  const PlayerBoard& b = s.board[player];
  for (int r = 0; r < 5; ++r)
    if (b.line_count[r] == r + 1) return r;
  return -1;
}

int AllowedColumns(const State& s, int player, int row, int colour) {
  const int8_t* wall = s.board[player].wall;
  int mask = 0;
  for (int c = 0; c < 5; ++c) {
    if (wall[row * 5 + c] >= 0) continue;
    bool free = true;
    for (int r = 0; r < 5; ++r)
      if (wall[r * 5 + c] == colour) free = false;
    if (free) mask |= 1 << c;
  }
  return mask;
}

bool RowHas(const State& s, int player, int row, int colour) {
  return s.board[player].row_colours[row] >> colour & 1;
}

namespace {

// kSpread.v[m]: the bits c of a 5-bit colour mask m moved to bit 5c (a 5-bit lane per colour).
struct SpreadTable {
  uint32_t v[32];
  constexpr SpreadTable() : v() {
    for (int m = 0; m < 32; ++m)
      for (int c = 0; c < 5; ++c)
        if (m >> c & 1) v[m] |= 1u << (5 * c);
  }
};
constexpr SpreadTable kSpread;

constexpr int kBits[32] = {0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4,
                           1, 2, 2, 3, 2, 3, 3, 4, 2, 3, 3, 4, 3, 4, 4, 5};

// kDests.off[d]: the set bits of a 6-bit destination mask d (pattern lines 0-4, the floor 5),
// ascending, padded to 8 entries; kDests.count[d]: how many.  A source's colour then lists its
// drafts with one 8-wide add and store.
// kDests.bytes[d]: byte r is 1 when bit r of d is set (the mask bytes of those drafts).
struct DestTable {
  int16_t off[64][8];
  int8_t count[64];
  uint64_t bytes[64];
  constexpr DestTable() : off(), count(), bytes() {
    for (int d = 0; d < 64; ++d)
      for (int r = 0; r < 6; ++r)
        if (d >> r & 1) {
          off[d][count[d]++] = static_cast<int16_t>(r);
          bytes[d] |= uint64_t{1} << (8 * r);
        }
  }
};
constexpr DestTable kDests;
// Eight int16 lanes (bits.h: GCC's and Clang's vector extension, or a plain array elsewhere).
using Lanes8 = Int16x8;

// 0x01 in byte c when tiles[c] > 0, for the five counts at `tiles` (read as one 8-byte word; the
// three bytes past them belong to the same State).
inline uint64_t PresentBytes(const uint8_t* tiles) {
  uint64_t w;
  std::memcpy(&w, tiles, 8);
  w &= 0xFFFFFFFFFFULL;
  const uint64_t low7 = 0x7F7F7F7F7FULL;
  return ((((w & low7) + low7) | w) & 0x8080808080ULL) >> 7;
}

// Bit c set when byte c of `present` (from PresentBytes) is set: the multiply moves byte c's bit
// (bit 8c) to bit 32 + c, and no two products meet.
inline int ColourMask(uint64_t present) {
  return static_cast<int>((present * 0x0102040810ULL) >> 32) & 31;
}

}  // namespace

uint32_t OpenLanes(const State& s, int p) {
  const PlayerBoard& b = s.board[p];
  uint32_t lanes = 0;
  for (int r = 0; r < 5; ++r) {
    int ok = 0;  // colours pattern line r can take
    if (b.line_count[r] == 0) {
      ok = ~b.row_colours[r] & 31;
    } else if (b.line_count[r] <= r) {
      ok = (1 << b.line_colour[r]) & ~b.row_colours[r];
    }
    lanes |= kSpread.v[ok] << r;
  }
  return lanes;
}

namespace {

// LegalActions, and with kMask each listed id's byte of `mask` (zero on entry) set to 1.
template <bool kMask>
int ListLegal(const State& s, int16_t* out, uint8_t* mask) {
  int n = 0;
  switch (s.phase) {
    case kOffer: {
      // Source by source, each colour present (ascending), its open lines then the floor.
      const uint32_t lanes = OpenLanes(s, s.turn);
      for (int src = 0; src <= kCentre; ++src) {
        if (src == s.num_factories) src = kCentre;
        const uint8_t* tiles = src == kCentre ? s.centre : s.factories[src];
        for (int m = ColourMask(PresentBytes(tiles)); m; m &= m - 1) {
          const int c = LowestBit(static_cast<uint64_t>(m));
          const int base = (src * 5 + c) * 6;
          const int d = static_cast<int>(lanes >> (5 * c) & 31) | 1 << kFloor;
          Lanes8 drafts;
          std::memcpy(&drafts, kDests.off[d], sizeof drafts);
          drafts += static_cast<int16_t>(base);
          std::memcpy(out + n, &drafts, sizeof drafts);
          n += kDests.count[d];
          // The mask's 8 bytes from this colour's first draft: its 6, then 2 zeros that the next
          // colour (written later, ascending) overwrites or that stay 0 (ids 300-301 included).
          if (kMask) std::memcpy(mask + base, &kDests.bytes[d], 8);
        }
      }
      return n;
    }
    case kTiling: {
      const int p = s.turn;
      const int r = PendingRow(s, p);
      const int columns = AllowedColumns(s, p, r, s.board[p].line_colour[r]);
      for (int c = 0; c < 5; ++c)
        if (columns >> c & 1) out[n++] = static_cast<int16_t>(kColumnActionBase + c);
      break;
    }
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

int PickLegalAction(const State& s, uint64_t& policy) {
  if (s.phase != kOffer) {
    int16_t buf[kNumActions];
    return buf[Below(policy, LegalActions(s, buf))];
  }
  // Drafts come source by source, colour by colour, each colour's open lines then the floor: a
  // source holding the colours of mask m accounts for one action per colour plus one per open
  // lane of those colours.
  const uint32_t lanes = OpenLanes(s, s.turn);
  // widths: byte c holds the number of actions colour c gives a source (1 + its open lines), so a
  // source's weight is the byte sum of widths masked by its present colours (a multiply adds the
  // bytes: at most 5 x 6, no carries).
  uint64_t widths = 0;
  for (int c = 0; c < kColours; ++c)
    widths |= static_cast<uint64_t>(1 + kBits[lanes >> (5 * c) & 31]) << (8 * c);
  int weight[kMaxFactories + 1];
  uint64_t present[kMaxFactories + 1];
  const int sources = s.num_factories + 1;
  int n = 0;
  for (int i = 0; i < sources; ++i) {
    present[i] = PresentBytes(i + 1 == sources ? s.centre : s.factories[i]);
    weight[i] = static_cast<int>(((widths & present[i] * 0xFF) * 0x0101010101ULL) >> 32) & 0xFF;
    n += weight[i];
  }
  int k = Below(policy, n);
  int i = 0;
  while (k >= weight[i]) k -= weight[i++];
  const int src = i + 1 == sources ? kCentre : i;
  for (int m = ColourMask(present[i]);; m &= m - 1) {
    const int c = LowestBit(m), open = lanes >> (5 * c) & 31, w = 1 + kBits[open];
    if (k >= w) {
      k -= w;
      continue;
    }
    const int base = (src * 5 + c) * 6;
    for (int r = 0; r < 5; ++r)
      if ((open >> r & 1) && k-- == 0) return base + r;
    return base + kFloor;
  }
}

std::vector<int> LegalActionList(const State& s) {
  int16_t buf[kNumActions];
  int n = LegalActions(s, buf);
  return std::vector<int>(buf, buf + n);
}

std::vector<std::pair<int, double>> ChanceOutcomes(const State& s) {
  if (s.phase == kFill || s.phase == kFirstPlayer)
    return ChanceOutcomeList(kChanceActions, s.phase == kFirstPlayer, s.bag, s.players);
  throw IllegalMove(std::string("not a chance node (phase ") + kPhaseNames[s.phase] + ")");
}

}  // namespace azul
