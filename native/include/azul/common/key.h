// Position keys (docs/game-api.md "Position keys"): a 64-bit key of what decides the rest of the game
// apart from chance, for transposition tables, the same number in both engines.  The hash both
// variants use; each variant's PositionKey (classic/key.h, pavilion/key.h) feeds it its fields.
// Pure-Python twin: python/azul_engine/_pure/classic/key.py, python/azul_engine/_pure/pavilion/key.py.
#pragma once

#include <cstdint>

namespace azul {

// FNV-1a over 64-bit words (each field value taken modulo 2**64), then SplitMix64's finalizer.
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

}  // namespace azul
