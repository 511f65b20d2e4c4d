// A pool of worker threads kept between calls, for work that comes in many short batches (a
// VectorGame stepped thousands of times a second on several threads: starting and joining a thread
// for every step cost about 60 us, a tenth of a 4096-game step). A worker waits for the next job
// spinning for about 0.2 ms, then sleeping (waking a sleeping thread took about 20 us here), as
// OpenMP runtimes do. parallel.h's Parallel starts its threads per call, which suits the long
// batches of random playouts.
// Pure-Python twin: none (threads; the pure engine plays one game after another).
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace azul {

class WorkerPool {
 public:
  WorkerPool() = default;
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;
  ~WorkerPool();

  // Runs body(i) for every i in [0, n) on `threads` threads (threads <= 0: every core), the calling
  // thread one of them, blocks of indices handed out as they finish; returns once all are done.
  // The workers (threads - 1 of them) are started at the first call and kept; a call with another
  // count, or the first call in a child process after fork(), starts a new set. Throws
  // std::runtime_error (after running every index on the threads it has) when the system refuses
  // a thread.
  template <typename Body>
  void Run(int n, int threads, Body& body) {
    Run(n, threads, &Call<Body>, &body);
  }

 private:
  template <typename Body>
  static void Call(void* body, int i) {
    (*static_cast<Body*>(body))(i);
  }
  void Run(int n, int threads, void (*fn)(void*, int), void* context);
  void Start(int workers);
  void Stop();
  void Work(uint64_t seen);
  void Take();

  std::mutex mutex_;
  std::condition_variable wake_, done_;
  std::vector<std::thread> workers_;
  long pid_ = 0;                          // the process that started the workers
  std::atomic<uint64_t> generation_{0};   // one more for each job
  std::atomic<bool> stop_{false};
  std::atomic<int> busy_{0};              // workers still on the current job
  // The current job.
  void (*fn_)(void*, int) = nullptr;
  void* context_ = nullptr;
  int n_ = 0;
  std::atomic<int> next_{0};
};

}  // namespace azul
