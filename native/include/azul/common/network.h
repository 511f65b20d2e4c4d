// The built-in network (docs/network.md): an MLP of dense layers with ReLU, a policy head (one logit
// an action) and a value head (tanh, one value a seat, from the observer's on), evaluated on batches of
// observation rows by the guided search without Python, on any thread.  The forward pass is written
// so that the pure engine's numpy twin computes the same float32 bits (docs/network.md, "The forward
// pass"): each output starts at its bias and adds each input's product in input order, in float32,
// without fused multiply-add; tanh is the C library's, in double.
// Pure-Python twin: python/azul_engine/_pure/network.py.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "azul/common/types.h"

namespace azul {

class Network {
 public:
  // One dense layer: `out` outputs of `in` inputs; the weights transposed, (in, out), so that an
  // input adds its row to every output at once.
  struct Layer {
    int in = 0, out = 0;
    std::vector<float> weight_t;     // in * out
    std::vector<float> bias;         // out
    std::vector<float> packed;       // panels of 16 outputs: (out / 16 rounded up) * in * 16, set by Network
    std::vector<float> bias_padded;  // the bias, to a multiple of 16
  };

  // Scratch memory of one thread's forward passes (two hidden rows a batch row, and the gathered
  // inputs of four rows), sized by Reserve.
  struct Scratch {
    std::vector<float> a, b, xs;
    std::vector<int32_t> at;
    int rows = 0;
  };

  Network(Variant variant, int players, std::vector<Layer> trunk, Layer policy, Layer value);

  Variant variant() const { return variant_; }
  int players() const { return players_; }
  int inputs() const { return trunk_.front().in; }
  int num_actions() const { return policy_.out; }
  const std::vector<Layer>& trunk() const { return trunk_; }
  const Layer& policy() const { return policy_; }
  const Layer& value() const { return value_; }
  // Bytes of weights held.
  size_t Bytes() const;

  // Makes `scratch` ready for batches of up to `rows` rows (the only allocation; none in Forward).
  void Reserve(Scratch& scratch, int rows) const;
  // logits (rows x num_actions) and values (rows x players) of `rows` observation rows (rows x
  // inputs); `scratch` reserved for at least `rows`.  Rows are independent: a row's outputs do not
  // depend on the others.
  void Forward(const float* observations, int rows, float* logits, float* values, Scratch& scratch) const;

 private:
  Variant variant_;
  int players_;
  int widest_;  // the widest trunk layer
  std::vector<Layer> trunk_;
  Layer policy_, value_;
};

// Whether the dense layers run with AVX2 on this machine (chosen at run time on x86-64 Linux).
bool NetworkVectorised();

}  // namespace azul
