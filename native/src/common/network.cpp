// The built-in network's forward pass (azul/common/network.h; docs/network.md, "The forward pass").
// Pure-Python twin: python/azul_engine/_pure/network.py.
//
// A dense layer keeps its weights in panels of 16 outputs (every input's 16 weights side by side), and
// takes the batch four rows at a time: the inputs that are not zero in the four rows are gathered once
// (most of an observation is zero, and every ReLU that did not fire), then each panel's 4 x 16 sums
// are kept in registers over them.  Each output is its bias plus the products
// added in input order, in float32 and without fused multiply-add (the sums are vectorised across
// outputs, never along a sum), so the bits are those of the pure engine's numpy loop, with or without
// AVX2.
#include "azul/common/network.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <utility>

#if defined(__x86_64__) && defined(__GNUC__) && defined(__linux__) && !defined(AZUL_PORTABLE)
#define AZUL_NETWORK_AVX2 1
#endif

namespace azul {

namespace {

constexpr int kRows = 4;  // rows of the batch a pass

#if defined(__GNUC__)
// Eight floats: one AVX register where the function is compiled for AVX2, two SSE ones elsewhere.
typedef float V8 __attribute__((vector_size(32)));

// (Into a reference, not returned: a vector type returned by value would change the ABI between the builds.)
__attribute__((always_inline)) inline void Load8(V8& v, const float* p) { std::memcpy(&v, p, sizeof v); }

// Rows [0, R) of a layer (weights packed in panels of 16 outputs: Network::Layer::packed): first the
// inputs that are not zero in all R rows, gathered with their R values side by side (`xs`, `at`), then
// panel by panel the R x 16 sums in registers, each starting at its bias and adding each input's product
// in input order (a multiply, then an add: no fused multiply-add).
template <int R>
__attribute__((always_inline)) inline void Block(const float* x, const Network::Layer& l, float* y, float* xs,
                                                 int32_t* at) {
  const int in = l.in, out = l.out;
  int nz = 0;
  for (int i = 0; i < in; ++i) {
    float v[R];
    bool any = false;
    for (int r = 0; r < R; ++r) {
      v[r] = x[r * in + i];
      any |= v[r] != 0.0f;
    }
    if (!any) continue;
    at[nz] = i;
    for (int r = 0; r < R; ++r) xs[nz * kRows + r] = v[r];
    ++nz;
  }
  const int panels = (out + 15) / 16;
  for (int k = 0; k < panels; ++k) {
    const float* panel = l.packed.data() + static_cast<size_t>(k) * in * 16;
    V8 acc[R][2];
    V8 b0, b1;
    Load8(b0, l.bias_padded.data() + 16 * k);
    Load8(b1, l.bias_padded.data() + 16 * k + 8);
    for (int r = 0; r < R; ++r) {
      acc[r][0] = b0;
      acc[r][1] = b1;
    }
    for (int j = 0; j < nz; ++j) {
      const float* w = panel + at[j] * 16;
      V8 w0, w1;
      Load8(w0, w);
      Load8(w1, w + 8);
      for (int r = 0; r < R; ++r) {
        acc[r][0] += xs[j * kRows + r] * w0;
        acc[r][1] += xs[j * kRows + r] * w1;
      }
    }
    const int n = out - 16 * k < 16 ? out - 16 * k : 16;
    for (int r = 0; r < R; ++r) {
      float lanes[16];
      std::memcpy(lanes, &acc[r][0], sizeof(V8));
      std::memcpy(lanes + 8, &acc[r][1], sizeof(V8));
      std::memcpy(y + r * out + 16 * k, lanes, sizeof(float) * n);
    }
  }
}

// y (rows x out) = bias + x (rows x in) . W, four rows at a time.
__attribute__((always_inline)) inline void DenseBody(const float* x, int rows, const Network::Layer& l, float* y,
                                                     float* xs, int32_t* at) {
  int r0 = 0;
  for (; r0 + kRows <= rows; r0 += kRows)
    Block<kRows>(x + static_cast<size_t>(r0) * l.in, l, y + static_cast<size_t>(r0) * l.out, xs, at);
  const float* xr = x + static_cast<size_t>(r0) * l.in;
  float* yr = y + static_cast<size_t>(r0) * l.out;
  switch (rows - r0) {
    case 3: Block<3>(xr, l, yr, xs, at); break;
    case 2: Block<2>(xr, l, yr, xs, at); break;
    case 1: Block<1>(xr, l, yr, xs, at); break;
    default: break;
  }
}
#else
// Without GCC's vector types: the same sums, one output at a time.
inline void DenseBody(const float* x, int rows, const Network::Layer& l, float* y, float*, int32_t*) {
  for (int r = 0; r < rows; ++r)
    for (int o = 0; o < l.out; ++o) {
      float acc = l.bias[o];
      for (int i = 0; i < l.in; ++i) {
        const float xv = x[static_cast<size_t>(r) * l.in + i];
        if (xv != 0.0f) acc += xv * l.weight_t[static_cast<size_t>(i) * l.out + o];
      }
      y[static_cast<size_t>(r) * l.out + o] = acc;
    }
}
#endif

void DensePlain(const float* x, int rows, const Network::Layer& l, float* y, float* xs, int32_t* at) {
  DenseBody(x, rows, l, y, xs, at);
}

#ifdef AZUL_NETWORK_AVX2
__attribute__((target("avx2"))) void DenseAvx2(const float* x, int rows, const Network::Layer& l, float* y,
                                               float* xs, int32_t* at) {
  DenseBody(x, rows, l, y, xs, at);
}

bool HasAvx2() {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx2");
}
const bool kAvx2 = HasAvx2();
#else
constexpr bool kAvx2 = false;
#endif

void Dense(const float* x, int rows, const Network::Layer& layer, float* y, Network::Scratch& s) {
#ifdef AZUL_NETWORK_AVX2
  if (kAvx2) return DenseAvx2(x, rows, layer, y, s.xs.data(), s.at.data());
#endif
  DensePlain(x, rows, layer, y, s.xs.data(), s.at.data());
}

// Packs a layer's transposed weights into panels of 16 outputs (zeros past `out`), and pads its bias.
void Pack(Network::Layer& l) {
  const int panels = (l.out + 15) / 16;
  l.packed.assign(static_cast<size_t>(panels) * l.in * 16, 0.0f);
  for (int k = 0; k < panels; ++k)
    for (int i = 0; i < l.in; ++i)
      for (int j = 0; j < 16 && 16 * k + j < l.out; ++j)
        l.packed[(static_cast<size_t>(k) * l.in + i) * 16 + j] = l.weight_t[static_cast<size_t>(i) * l.out + 16 * k + j];
  l.bias_padded.assign(static_cast<size_t>(panels) * 16, 0.0f);
  std::copy(l.bias.begin(), l.bias.end(), l.bias_padded.begin());
}

}  // namespace

Network::Network(Variant variant, int players, std::vector<Layer> trunk, Layer policy, Layer value)
    : variant_(variant), players_(players), widest_(0), trunk_(std::move(trunk)), policy_(std::move(policy)),
      value_(std::move(value)) {
  for (Layer& l : trunk_) {
    widest_ = std::max(widest_, l.out);
    Pack(l);
  }
  Pack(policy_);
  Pack(value_);
}

size_t Network::Bytes() const {
  size_t n = 0;
  auto add = [&](const Layer& l) {
    n += (l.weight_t.size() + l.bias.size() + l.packed.size() + l.bias_padded.size()) * sizeof(float);
  };
  for (const Layer& l : trunk_) add(l);
  add(policy_);
  add(value_);
  return n;
}

void Network::Reserve(Scratch& scratch, int rows) const {
  if (scratch.xs.empty()) {
    const int inputs = std::max(this->inputs(), widest_);
    scratch.xs.assign(static_cast<size_t>(inputs) * kRows, 0.0f);
    scratch.at.assign(static_cast<size_t>(inputs), 0);
  }
  if (scratch.rows >= rows) return;
  scratch.a.assign(static_cast<size_t>(rows) * widest_, 0.0f);
  scratch.b.assign(static_cast<size_t>(rows) * widest_, 0.0f);
  scratch.rows = rows;
}

void Network::Forward(const float* observations, int rows, float* logits, float* values, Scratch& scratch) const {
  const float* h = observations;
  float* next = scratch.a.data();
  float* spare = scratch.b.data();
  for (const Layer& layer : trunk_) {
    Dense(h, rows, layer, next, scratch);
    const size_t n = static_cast<size_t>(rows) * layer.out;
    for (size_t i = 0; i < n; ++i) next[i] = next[i] > 0.0f ? next[i] : 0.0f;  // ReLU
    h = next;
    std::swap(next, spare);
  }
  Dense(h, rows, policy_, logits, scratch);
  Dense(h, rows, value_, values, scratch);
  const size_t n = static_cast<size_t>(rows) * value_.out;
  for (size_t i = 0; i < n; ++i) values[i] = static_cast<float>(std::tanh(static_cast<double>(values[i])));
}

bool NetworkVectorised() { return kAvx2; }

}  // namespace azul
