// Bit tricks with a plain C++ fallback: the compiler's builtins where it has them (one instruction
// on x86-64, with or without BMI, and on ARM), portable code elsewhere.  Building with
// AZUL_PORTABLE defined (setup.py: AZUL_PORTABLE=1) forces the fallback everywhere, so that it is
// built and tested too.
// Pure-Python twin: none (bit tricks of the C++ kernels).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace azul {

// The index of the lowest set bit of x (x != 0).
inline int LowestBit(uint64_t x) {
#if defined(__GNUC__) && !defined(AZUL_PORTABLE)
  return __builtin_ctzll(x);
#else
  // De Bruijn: the isolated lowest bit times the sequence puts a unique 6-bit pattern on top.
  static constexpr int kIndex[64] = {
      0,  1,  2,  53, 3,  7,  54, 27, 4,  38, 41, 8,  34, 55, 48, 28, 62, 5,  39, 46, 44, 42,
      22, 9,  24, 35, 59, 56, 49, 18, 29, 11, 63, 52, 6,  26, 37, 40, 33, 47, 61, 45, 43, 21,
      23, 58, 17, 10, 51, 25, 36, 32, 60, 20, 57, 16, 50, 31, 19, 15, 30, 14, 13, 12};
  return kIndex[((x & (~x + 1)) * 0x022FDD63CC95386DULL) >> 58];
#endif
}

// Eight int16 lanes, for move generation's 8-wide id stores (memcpy in, add a scalar to every lane,
// memcpy out): GCC's and Clang's vector extension (SSE2 on x86-64, NEON on ARM) where it exists,
// else (MSVC, or AZUL_PORTABLE) a plain array with the same += and the same bytes.
#if defined(__GNUC__) && !defined(AZUL_PORTABLE)
typedef int16_t Int16x8 __attribute__((vector_size(16)));
#else
struct Int16x8 {
  int16_t lane[8];
  Int16x8& operator+=(int16_t k) {
    for (int16_t& x : lane) x = static_cast<int16_t>(x + k);
    return *this;
  }
};
#endif
static_assert(sizeof(Int16x8) == 16, "eight int16 lanes");

// Zeroes N bytes (N >= 32, known to the compiler) in 32-byte stores (two 16-byte ones without AVX,
// one in an AZUL_WITH_AVX2 function's AVX2 build), the last overlapping: a memset
// of a known few dozen or hundred bytes becomes a `rep stosq` under GCC, slow to start on some
// cores (it was an eighth of a vector step's move-list refresh, clearing classic's 314-byte mask,
// and a share of the classic observation's sparse fields).  ClearFloats below does the same job
// through the C library's memset (Summer Pavilion's observation).
template <size_t N>
inline void ZeroBytes(void* p) {
  static_assert(N >= 32, "at least one 32-byte store");
#if defined(__GNUC__) && __GNUC__ >= 8 && !defined(__clang__) && !defined(AZUL_PORTABLE)
  typedef uint8_t Bytes32 __attribute__((vector_size(32)));
  const Bytes32 zero = {};
  unsigned char* b = static_cast<unsigned char*>(p);
#pragma GCC unroll 64
  for (size_t j = 0; j + 32 <= N; j += 32) std::memcpy(b + j, &zero, sizeof(zero));
  if (N % 32) std::memcpy(b + N - 32, &zero, sizeof(zero));
#else
  std::memset(p, 0, N);
#endif
}

}  // namespace azul

// AZUL_WITH_AVX2 before a function: on x86-64 with GCC or Clang (not with AZUL_PORTABLE), the
// compiler builds it twice, for AVX2 and for the baseline, and the loader picks the one the CPU
// runs (an ifunc); elsewhere nothing. For code that is mostly wide stores and conversions (the
// observation tensors).
#if defined(__x86_64__) && defined(__GNUC__) && defined(__linux__) && !defined(AZUL_PORTABLE)
#define AZUL_WITH_AVX2 __attribute__((target_clones("avx2", "default")))
#else
#define AZUL_WITH_AVX2
#endif

// Zeroes `count` floats through the C library's memset (wide stores): with a size the compiler
// can see, it inlines a `rep stos` instead, whose start-up took longer than the few hundred bytes
// of an observation's sparse parts.
inline void ClearFloats(float* p, size_t count) {
  size_t bytes = count * sizeof(float);
#if defined(__GNUC__)
  __asm__("" : "+r"(bytes));  // the size, opaque to the compiler
#endif
  std::memset(p, 0, bytes);
}
