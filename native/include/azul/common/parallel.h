// Batches of independent games on several threads (Parallel, PlayoutBatch), stoppable by the
// caller: the machinery behind both variants' random playouts and VectorGame; RunThreads, the
// searches' threads.  No game rules here.
// Pure-Python twin: none (threads; the pure engine plays one game after another).
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <mutex>
#include <stdexcept>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

namespace azul {

// The k-th output (k >= 1) of SplitMix64 seeded with `seed`: game i of a batch uses outputs
// 2i+1 (the game's seed) and 2i+2 (the seed of its move choices).
uint64_t SplitMixOutput(uint64_t seed, uint64_t k);

// How a long batch asks its caller whether to stop (the Python bindings: a pending signal).
// Called on the calling thread only, between blocks of games, about every kPollMillis ms.
struct StopCheck {
  bool (*poll)(void* context) = nullptr;
  void* context = nullptr;
  bool operator()() const { return poll && poll(context); }
};
constexpr int kPollMillis = 20;

// The rollout policy of a batch of playouts (docs/playouts.md "Rollout policies"): uniform over the legal
// ids, or the light policy (its rules: classic/kernel.cpp's Draft, pavilion/kernel.cpp's PlayMove).
enum class Policy : int8_t { kUniform = 0, kLight = 1 };

// Thrown by Parallel when StopCheck said stop; every thread has stopped.
class Interrupted : public std::exception {
 public:
  const char* what() const noexcept override { return "interrupted"; }
};

// Runs body(i) for i in [0, n) on `threads` threads (threads <= 0: all cores), blocks of games
// handed out as they finish; returns the plies body returned, summed.  Throws Interrupted when
// `stop` says so, and std::runtime_error when the system refuses a thread, in both cases after
// joining every thread it started.
template <typename Body>
uint64_t Parallel(int n, int threads, Body body, StopCheck stop = {}) {
  if (threads <= 0) threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  threads = std::max(1, std::min(threads, n));
  constexpr int kBlock = 32;  // games a thread takes at a time: a few ms at most
  if (threads == 1) {  // on the calling thread, allocating nothing (the search's rollouts come this way)
    auto last = std::chrono::steady_clock::now();
    uint64_t count = 0;
    for (int lo = 0; lo < n; lo += kBlock) {
      const int hi = std::min(n, lo + kBlock);
      for (int i = lo; i < hi; ++i) count += body(i);
      if (!stop.poll || hi == n) continue;
      const auto now = std::chrono::steady_clock::now();
      if (now - last < std::chrono::milliseconds(kPollMillis)) continue;
      last = now;
      if (stop()) throw Interrupted();
    }
    return count;
  }
  std::atomic<int> next{0};
  std::atomic<bool> halt{false};
  std::vector<uint64_t> plies(threads, 0);  // written once per thread, at its end
  auto take = [&](uint64_t& count) -> bool {  // one block; false when there is no more work
    if (halt.load(std::memory_order_relaxed)) return false;
    const int lo = next.fetch_add(kBlock, std::memory_order_relaxed);
    if (lo >= n) return false;
    const int hi = std::min(n, lo + kBlock);
    for (int i = lo; i < hi; ++i) count += body(i);
    return true;
  };
  std::vector<std::thread> pool;
  pool.reserve(threads - 1);
  std::string refused;
  try {
    for (int t = 1; t < threads; ++t)
      pool.emplace_back([&take, &plies, t] {
        uint64_t count = 0;
        while (take(count)) {}
        plies[t] = count;
      });
  } catch (const std::system_error& e) {
    halt = true;
    refused = "the system refused a thread (" + std::to_string(pool.size() + 1) + " of " +
              std::to_string(threads) + " running): " + e.what() + "; ask for fewer threads";
  }
  bool interrupted = false;
  if (refused.empty()) {
    auto last = std::chrono::steady_clock::now();
    uint64_t count = 0;
    while (take(count)) {
      if (!stop.poll) continue;
      const auto now = std::chrono::steady_clock::now();
      if (now - last < std::chrono::milliseconds(kPollMillis)) continue;
      last = now;
      if (stop()) {
        interrupted = true;
        halt = true;
        break;
      }
    }
    plies[0] = count;
    // The other threads finish the block they hold (a few milliseconds) and stop.
  }
  for (std::thread& th : pool) th.join();
  if (!refused.empty()) throw std::runtime_error(refused);
  if (interrupted) throw Interrupted();
  uint64_t total = 0;
  for (uint64_t p : plies) total += p;
  return total;
}

// Runs body(t) for t in [0, count) each on a thread of its own, while the calling thread only watches:
// it polls `stop` between the threads' starts and then every kPollMillis until they have all returned,
// and when `stop` says stop it sets `halt`, which the bodies watch, and waits for them.  The threads
// wait at a gate until every one has started (or the start is given up), so that the start is not
// slowed down by the threads already running.  Give it no more threads than cores: the calling thread
// waits for a core like any other when it wakes to poll (the searches once ran a thread a tree, and
// with 1024 on 2 cores a signal waited 78 s to be seen, issue 38).  `body` must not throw.  Returns
// false when `stop` said stop; throws std::runtime_error, after joining every thread it started, when
// the system refuses a thread (`halt` is then set).
template <typename Body>
bool RunThreads(int count, Body body, std::atomic<bool>& halt, StopCheck stop) {
  std::mutex mutex;
  std::condition_variable gate, finished;
  bool open = false;
  int running = 0;
  auto worker = [&](int t) {
    {
      std::unique_lock<std::mutex> lock(mutex);
      gate.wait(lock, [&] { return open; });
    }
    body(t);
    {
      std::lock_guard<std::mutex> lock(mutex);
      --running;
    }
    finished.notify_one();
  };
  bool interrupted = false;
  std::vector<std::thread> pool;
  std::string refused;
  try {
    pool.reserve(count);
    auto polled = std::chrono::steady_clock::now();
    for (int t = 0; t < count && !interrupted; ++t) {
      pool.emplace_back(worker, t);
      if (!stop.poll) continue;
      const auto now = std::chrono::steady_clock::now();
      if (now - polled < std::chrono::milliseconds(kPollMillis)) continue;
      polled = now;
      interrupted = stop();
    }
  } catch (const std::system_error& e) {
    refused = "the system refused a thread (" + std::to_string(pool.size()) + " of " + std::to_string(count) +
              " running): " + e.what() + "; ask for fewer threads";
  }
  if (interrupted || !refused.empty()) halt = true;  // the threads started return at once
  {
    std::unique_lock<std::mutex> lock(mutex);
    running = static_cast<int>(pool.size());
    open = true;
  }
  gate.notify_all();
  {
    std::unique_lock<std::mutex> lock(mutex);
    while (running > 0) {
      if (!stop.poll || interrupted) {
        finished.wait(lock, [&] { return running == 0; });
        break;
      }
      if (finished.wait_for(lock, std::chrono::milliseconds(kPollMillis), [&] { return running == 0; })) break;
      lock.unlock();
      interrupted = stop();
      if (interrupted) halt = true;
      lock.lock();
    }
  }
  for (std::thread& th : pool) th.join();
  if (!refused.empty()) throw std::runtime_error(refused);
  return !interrupted;
}

// A batch of random games, for either variant: play(i, game_seed, policy, scores) plays game i from
// game seed output 2i+1 of SplitMix64(seed) and policy seed output 2i+2, writes its final scores
// to `scores` (row i of `out`, n x players) and returns its plies.  Returns the plies, summed.
template <typename Play>
uint64_t PlayoutBatch(int n, int players, uint64_t seed, int threads, int32_t* out, StopCheck stop,
                      Play play) {
  return Parallel(n, threads, [&](int i) {
    uint64_t policy = SplitMixOutput(seed, 2 * static_cast<uint64_t>(i) + 2);
    return play(SplitMixOutput(seed, 2 * static_cast<uint64_t>(i) + 1), policy,
                out + static_cast<int64_t>(i) * players);
  }, stop);
}

}  // namespace azul
