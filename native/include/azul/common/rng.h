// SplitMix64, exactly as rules.md section 5, so that both engines draw the same game.
// Pure-Python twin: python/azul_engine/_pure/common.py.
#pragma once

#include <cstdint>

namespace azul {

constexpr uint64_t kSplitMixGamma = 0x9E3779B97F4A7C15ULL;

inline uint64_t SplitMixNext(uint64_t& s) {
  s += kSplitMixGamma;
  uint64_t z = s;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

// A number in [0, n) from the top 32 bits: ((next() >> 32) * n) >> 32.
inline int Below(uint64_t& s, int n) {
  return static_cast<int>(((SplitMixNext(s) >> 32) * static_cast<uint64_t>(n)) >> 32);
}

// A countdown of draws from one generator, computed ahead: out[i] = Below(s, total - i) for
// i = 0 .. n - 1, as n successive calls would give (s itself is not advanced: the caller adds
// n * kSplitMixGamma).  A fill of factories is such a countdown (one tile fewer in the bag each
// draw), and the generator's outputs do not depend on the tiles drawn, so they are computed four at
// a time with AVX2 where the CPU has it (chosen at run time), one at a time elsewhere.  Needs
// n <= total.
void BelowCountdown(uint64_t s, int total, uint64_t* out, int n);

// Whether BelowCountdown uses AVX2 on this machine (false on other CPUs and with AZUL_PORTABLE).
bool BelowCountdownVectorised();

}  // namespace azul
