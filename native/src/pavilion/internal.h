// Private to native/src/pavilion/: the rules tables, the byte-word helpers and the steps that the
// files of Summer Pavilion's rules call across (fills in round.cpp, the turn's end in apply.cpp,
// the game's end in scoring.cpp).  Not part of the public surface (the headers of azul/pavilion/).
// Pure-Python twin: none (helpers private to the C++ files of native/src/pavilion/).
#pragma once

#include <cstdint>
#include <cstring>
#include <string>

#include "azul/common/pystr.h"
#include "azul/classic/notation.h"
#include "azul/pavilion/state.h"

namespace azul {
namespace sp {
namespace internal {

constexpr int kOrnaments = 18;
constexpr uint64_t kHigh = 0x8080808080808080ULL;

// The rules' lookup tables, built once at start-up (tables.cpp).
struct Tables {
  uint8_t keep[kNumKeepSets][kColours];
  // fits[c][v]: bit k (of 256) set when kept multiset k holds at most v tiles of colour c; the
  // multisets a hand can keep are the AND of fits[c][its count of c, capped at 4] over c.
  uint64_t fits[kColours][5][4];
  uint64_t expand[256];  // byte b set to 1 for each set bit b
  uint8_t pass_count[15625];           // by hand capped at 4 per colour, base 5
  int16_t keep_index[15625];           // index in keep[] of counts (each <= 4) in base 5, or -1
  uint8_t bits[64];                    // popcount of a 6-bit mask
  uint8_t run[64][6];                  // run length through position k of a ring (bit k set)
  uint64_t ornament_mask[kOrnaments];
  int ornament_tiles[kOrnaments];
  int8_t ornaments_of[kSpaces][4];  // ornaments around a space, -1 terminated
  uint64_t star_mask[7];
  uint64_t number_mask[6];
  // place_count[wild][have][wilds][empty]: placements of one colour into the empty spaces
  // (6-bit mask, bit k = space k+1) of a star; have capped at 6, wilds at 5.
  uint8_t place_count[2][7][6][64];

  Tables();
};

extern const Tables kT;

inline uint64_t Word(const uint8_t* c) {
  uint64_t w;
  std::memcpy(&w, c, 8);
  return w;
}
inline void SetWord(uint8_t* c, uint64_t w) { std::memcpy(c, &w, 8); }
inline bool Any6(const uint8_t* c) { return Word(c) != 0; }
inline int Sum6(const uint8_t* c) { return c[0] + c[1] + c[2] + c[3] + c[4] + c[5]; }
// 0x80 in byte c when c < 6 and counts[c] > 0 (the two padding bytes are zero).
inline uint64_t PresentHigh(uint64_t w) {
  const uint64_t low7 = 0x7F7F7F7F7F7F7F7FULL;
  return (((w & low7) + low7) | w) & kHigh;
}
inline int ColourMask(const uint8_t* c) {
  // Gather the high bits of the bytes into bits 0-7.
  return static_cast<int>(((PresentHigh(Word(c)) >> 7) * 0x0102040810204080ULL) >> 56);
}

inline int Clamp(int x) { return x > kMinScore ? x : kMinScore; }

inline std::string Str(long long x) { return std::to_string(x); }

inline std::string Quote(const std::string& s) { return "\"" + s + "\""; }

inline std::string Repr(const std::string& s) { return PyRepr(s); }

// Index of `ch` in `set`, or -1 (the terminating NUL is not part of the set).
inline int Find(const char* set, char ch) {
  if (ch == '\0') return -1;
  const char* at = std::strchr(set, ch);
  return at ? static_cast<int>(at - set) : -1;
}

inline int Cap(int x, int cap) { return x < cap ? x : cap; }

// "window O", "statue O-R", "pillar O": ornament i's name on the score sheet (tables.cpp).
std::string OrnamentName(int i);

// ---- round.cpp: fills and the round's start ----
void StartRound(State& s, History* h);
void BeginSetup(State& s, History* h);
// A drawn tile of colour c goes where the fill in progress puts it (explicit chance).
void PutDrawn(State& s, int c);
void FillDone(State& s, History* h);
// Draws until the supply (or every factory) is full; explicit chance stops at each draw.
void ContinueFill(State& s, History* h);
// Bag and tower after drawing the multiset `need` (Deal, DealSupply); throws IllegalMove.
void DrawMultiset(const uint8_t* bag, const uint8_t* tower, const int* need, const char* what,
                  uint8_t* new_bag, uint8_t* new_tower);

// ---- apply.cpp ----
// After a phase-2 turn: the next player, the refill, or the game's end.
void EndTurn(State& s, int p, History* h);

// ---- scoring.cpp ----
// The end-game scoring; the game is over.
void Finish(State& s, History* h);

}  // namespace internal
}  // namespace sp
}  // namespace azul
