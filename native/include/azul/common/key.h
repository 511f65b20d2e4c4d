// Position keys (docs/game-api.md "Position keys"): a 64-bit key of what decides the rest of the game
// apart from chance, for transposition tables, the same number in both engines.  The hash both
// variants use; each variant's PositionKey (classic/key.h, pavilion/key.h) feeds it its fields.
// Pure-Python twin: python/azul_engine/_pure/classic/key.py, python/azul_engine/_pure/pavilion/key.py.
#pragma once

#include <cstdint>

namespace azul {

// FNV-1a over 64-bit words (each field value taken modulo 2**64), then SplitMix64's finalizer.  Its
// mixing is weak: two positions whose words differ only in two neighbouring fields can share a key (a
// grey-wall tile one cell to the left or right: the words (3, -1) and (-1, 3) give the same hash for
// one value of the hash before them in 4, (1, -1) and (-1, 1) for one in 2), so a table that must not mistake one position for another checks its
// entries with KeyCheck too (the exact search, docs/search.md section 16.3).
class KeyHash {
 public:
  void Add(int64_t v) { h_ = (h_ ^ static_cast<uint64_t>(v)) * 0x100000001B3ULL; }
  uint64_t Done() const {
    uint64_t z = h_;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }

 private:
  uint64_t h_ = 0xCBF29CE484222325ULL;
};

// A second hash of the same words, mixed at every word (a multiply, then an xor-shift that carries the high
// bits down), so that words differing in neighbouring fields do not cancel: with the key, 128 bits that
// tell positions apart.  Not part of the position key; the pure engine's tables use the words themselves.
class KeyCheck {
 public:
  void Add(int64_t v) {
    c_ = (c_ ^ static_cast<uint64_t>(v)) * 0x9E3779B97F4A7C15ULL;
    c_ ^= c_ >> 29;
  }
  uint64_t Done() const { return c_; }

 private:
  uint64_t c_ = 0x243F6A8885A308D3ULL;
};

// Both at once.
struct KeyAndCheck {
  KeyHash key;
  KeyCheck check;
  void Add(int64_t v) {
    key.Add(v);
    check.Add(v);
  }
};

}  // namespace azul
