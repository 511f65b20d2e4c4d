// SplitMix64, exactly as rules.md section 5, so that both engines draw the same game.
#pragma once

#include <cstdint>

namespace azul {

inline uint64_t SplitMixNext(uint64_t& s) {
  s += 0x9E3779B97F4A7C15ULL;
  uint64_t z = s;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

// A number in [0, n) from the top 32 bits: ((next() >> 32) * n) >> 32.
inline int Below(uint64_t& s, int n) {
  return static_cast<int>(((SplitMixNext(s) >> 32) * static_cast<uint64_t>(n)) >> 32);
}

}  // namespace azul
