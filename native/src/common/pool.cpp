// WorkerPool: worker threads kept between calls (pool.h).
// Pure-Python twin: none (threads; the pure engine plays one game after another).
#include "azul/common/pool.h"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <system_error>

#ifdef _MSC_VER
#include <intrin.h>  // _mm_pause, __yield
#endif
#ifdef _WIN32
#include <process.h>
#define getpid _getpid
#else
#include <unistd.h>
#endif

namespace azul {

namespace {
constexpr int kBlock = 32;  // the smallest block, and a thread's least share of a job
constexpr int kSpins = 40000;  // pauses a waiting thread spins before it sleeps: about 1-2 ms

// The CPU's spin-wait hint: GCC's and Clang's builtin or assembly, MSVC's intrinsics, else nothing.
inline void Pause() {
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
  __builtin_ia32_pause();
#elif defined(__GNUC__) && defined(__aarch64__)
  __asm__ __volatile__("yield");
#elif defined(_MSC_VER) && (defined(_M_X64) || defined(_M_IX86))
  _mm_pause();
#elif defined(_MSC_VER) && defined(_M_ARM64)
  __yield();
#endif
}
}  // namespace

WorkerPool::~WorkerPool() { Stop(); }

void WorkerPool::Stop() {
  if (pid_ != static_cast<long>(getpid())) {
    // Started by the parent of a fork(): the workers do not exist in this process, and neither
    // their std::thread objects nor the parent's mutex and condition variables (held, or waited on,
    // by threads that are not here) can be used or destroyed here; they are left (a few hundred
    // bytes) and new ones made.
    if (!workers_.empty()) {
      new std::vector<std::thread>(std::move(workers_));
      workers_.clear();
      (void)sync_.release();
      sync_ = std::make_unique<Sync>();
    }
    stop_.store(false);
    pid_ = static_cast<long>(getpid());
    return;
  }
  {
    std::lock_guard<std::mutex> lock(sync_->mutex);
    stop_.store(true);
  }
  sync_->wake.notify_all();
  for (std::thread& t : workers_) t.join();
  workers_.clear();
  stop_.store(false);
}

void WorkerPool::Start(int workers) {
  Stop();
  pid_ = static_cast<long>(getpid());
  workers_.reserve(workers);
  try {
    for (int k = 0; k < workers; ++k) {
      const uint64_t seen = generation_.load();
      workers_.emplace_back([this, seen] { Work(seen); });
    }
  } catch (const std::system_error& e) {
    const size_t running = workers_.size();
    Stop();
    throw std::runtime_error("the system refused a thread (" + std::to_string(running + 1) + " of " +
                             std::to_string(workers + 1) + " running): " + e.what() +
                             "; ask for fewer threads");
  }
}

// Blocks shrink as the job goes (guided scheduling): each is the indices left over twice the
// threads, rounded up to a multiple of 32 (the smallest block, as Threads allows a thread per 32
// indices).  Long runs of each array first, for a thread's prefetches and with few cache lines of
// the games' byte-per-game arrays written by two threads at once (fixed blocks of 32 games shared a
// line of each all through a step); short ones at the end, so that no thread waits long for
// another's last block.  (2 threads on 4096 games, the environment's step, medians of alternating
// pairs of runs: fixed blocks of 32 1.50x one thread, fixed 256 1.66x, these blocks 1.70x; the
// runs vary by +/-0.2.)
void WorkerPool::Take() {
  int lo = next_.load(std::memory_order_relaxed);
  for (;;) {
    if (lo >= n_) return;
    const int share = (n_ - lo) / (2 * threads_);
    const int size = std::max(kBlock, (share + kBlock - 1) / kBlock * kBlock);
    if (!next_.compare_exchange_weak(lo, lo + size, std::memory_order_relaxed)) continue;  // lo reloaded
    const int hi = std::min(n_, lo + size);
    for (int i = lo; i < hi; ++i) fn_(context_, i);
    lo = next_.load(std::memory_order_relaxed);
  }
}

void WorkerPool::Work(uint64_t seen) {
  for (;;) {
    auto ready = [&] { return stop_.load(std::memory_order_acquire) || generation_.load(std::memory_order_acquire) != seen; };
    for (int k = 0; k < kSpins && !ready(); ++k) Pause();
    if (!ready()) {
      std::unique_lock<std::mutex> lock(sync_->mutex);
      sync_->wake.wait(lock, ready);
    }
    if (stop_.load(std::memory_order_acquire)) return;
    seen = generation_.load(std::memory_order_acquire);
    Take();
    if (busy_.fetch_sub(1, std::memory_order_acq_rel) == 1) {
      std::lock_guard<std::mutex> lock(sync_->mutex);  // the caller waits under it: no lost wake-up
      sync_->done.notify_one();
    }
  }
}

int WorkerPool::Threads(int n, int threads) {
  if (threads <= 0) threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  return std::max(1, std::min(threads, (n + kBlock - 1) / kBlock));
}

void WorkerPool::Ready(int n, int threads) {
  threads = Threads(n, threads);
  if (threads == 1) return;
  if (static_cast<int>(workers_.size()) != threads - 1 || pid_ != static_cast<long>(getpid()))
    Start(threads - 1);
}

void WorkerPool::Run(int n, int threads, void (*fn)(void*, int), void* context) {
  Ready(n, threads);
  threads = Threads(n, threads);
  if (threads == 1) {
    for (int i = 0; i < n; ++i) fn(context, i);
    return;
  }
  {
    std::lock_guard<std::mutex> lock(sync_->mutex);
    fn_ = fn;
    context_ = context;
    n_ = n;
    threads_ = threads;
    next_.store(0, std::memory_order_relaxed);
    busy_.store(static_cast<int>(workers_.size()), std::memory_order_relaxed);
    generation_.fetch_add(1, std::memory_order_release);  // publishes the job to a spinning worker
  }
  sync_->wake.notify_all();
  Take();
  auto finished = [&] { return busy_.load(std::memory_order_acquire) == 0; };
  for (int k = 0; k < kSpins && !finished(); ++k) Pause();
  if (!finished()) {
    std::unique_lock<std::mutex> lock(sync_->mutex);
    sync_->done.wait(lock, finished);
  }
}

}  // namespace azul
