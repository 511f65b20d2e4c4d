// Entries of T in blocks that never move, each list contiguous within one block: the node lists of
// the searches (search.cpp, guided.cpp), so that a tree grows without moving what it has.
// Pure-Python twin: none (the pure engine's nodes hold Python lists).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace azul {

template <typename T>
class Arena {
 public:
  static constexpr int kShift = 16;
  static constexpr uint32_t kBlock = 1u << kShift;

  // Room for n (at most kBlock) contiguous entries: the index of the first.
  uint32_t Take(uint32_t n) {
    if (blocks_.empty() || used_ + n > kBlock) {
      blocks_.emplace_back(new T[kBlock]);
      used_ = 0;
    }
    const uint32_t at = static_cast<uint32_t>(blocks_.size() - 1) << kShift | used_;
    used_ += n;
    return at;
  }
  T* At(uint32_t i) { return blocks_[i >> kShift].get() + (i & (kBlock - 1)); }
  const T* At(uint32_t i) const { return blocks_[i >> kShift].get() + (i & (kBlock - 1)); }
  size_t Bytes() const { return blocks_.size() * kBlock * sizeof(T); }

 private:
  std::vector<std::unique_ptr<T[]>> blocks_;
  uint32_t used_ = 0;
};

}  // namespace azul
