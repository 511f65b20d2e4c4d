// BelowCountdown (rng.h): the plain loop, and an AVX2 one chosen at run time on x86-64.
// Pure-Python twin: python/azul_engine/_pure/common.py.
#include "azul/common/rng.h"

#if defined(__x86_64__) && defined(__GNUC__) && !defined(AZUL_PORTABLE)
#define AZUL_COUNTDOWN_AVX2 1
#include <immintrin.h>
#endif

namespace azul {

namespace {

void CountdownPlain(uint64_t s, int total, uint64_t* out, int n) {
  for (int i = 0; i < n; ++i) out[i] = static_cast<uint64_t>(Below(s, total - i));
}

#ifdef AZUL_COUNTDOWN_AVX2
// a * b (mod 2^64) in each lane, from 32-bit multiplies (AVX2 has no 64-bit one).
__attribute__((target("avx2"))) inline __m256i Mul64(__m256i a, __m256i b) {
  const __m256i cross = _mm256_add_epi64(_mm256_mul_epu32(_mm256_srli_epi64(a, 32), b),
                                         _mm256_mul_epu32(a, _mm256_srli_epi64(b, 32)));
  return _mm256_add_epi64(_mm256_mul_epu32(a, b), _mm256_slli_epi64(cross, 32));
}

// n a multiple of 4.
__attribute__((target("avx2"))) void CountdownAvx2(uint64_t s, int total, uint64_t* out, int n) {
  const uint64_t g = kSplitMixGamma;
  const __m256i step = _mm256_set1_epi64x(static_cast<long long>(4 * g));
  const __m256i m1 = _mm256_set1_epi64x(static_cast<long long>(0xBF58476D1CE4E5B9ULL));
  const __m256i m2 = _mm256_set1_epi64x(static_cast<long long>(0x94D049BB133111EBULL));
  const __m256i four = _mm256_set1_epi64x(4);
  __m256i state = _mm256_setr_epi64x(static_cast<long long>(s + g), static_cast<long long>(s + 2 * g),
                                     static_cast<long long>(s + 3 * g), static_cast<long long>(s + 4 * g));
  __m256i left = _mm256_setr_epi64x(total, total - 1, total - 2, total - 3);
  for (int i = 0; i < n; i += 4) {
    __m256i z = state;
    z = Mul64(_mm256_xor_si256(z, _mm256_srli_epi64(z, 30)), m1);
    z = Mul64(_mm256_xor_si256(z, _mm256_srli_epi64(z, 27)), m2);
    z = _mm256_xor_si256(z, _mm256_srli_epi64(z, 31));
    // Below: ((z >> 32) * left) >> 32, both factors below 2^32.
    const __m256i k = _mm256_srli_epi64(_mm256_mul_epu32(_mm256_srli_epi64(z, 32), left), 32);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + i), k);
    state = _mm256_add_epi64(state, step);
    left = _mm256_sub_epi64(left, four);
  }
}

bool HasAvx2() {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx2");
}
const bool kAvx2 = HasAvx2();
#else
constexpr bool kAvx2 = false;
#endif

}  // namespace

void BelowCountdown(uint64_t s, int total, uint64_t* out, int n) {
#ifdef AZUL_COUNTDOWN_AVX2
  if (kAvx2) {
    const int fours = n & ~3;  // four at a time, then the rest one at a time
    CountdownAvx2(s, total, out, fours);
    return CountdownPlain(s + static_cast<uint64_t>(fours) * kSplitMixGamma, total - fours, out + fours, n - fours);
  }
#endif
  CountdownPlain(s, total, out, n);
}

bool BelowCountdownVectorised() { return kAvx2; }

}  // namespace azul
