// A pool of worker threads kept between calls, for work that comes in many short batches (a
// VectorGame stepped thousands of times a second on several threads: starting and joining a thread
// for every step cost about 60 us, a tenth of a 4096-game step). A worker waits for the next job
// spinning for about 1-2 ms, then sleeping, as OpenMP runtimes do: the Python code between two
// steps of a learning loop takes longer than 0.2 ms, and on a virtual machine a thread that slept
// (its virtual core idle) was sometimes slow to wake: with 0.2 ms of spinning, 2 threads made
// 0.85-1.6x one thread's steps from run to run, with 1-2 ms 1.65-1.75x. parallel.h's Parallel starts its threads per call, which suits the long
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

  // Runs body(i) for every i in [0, n) on `threads` threads (threads <= 0: every core; at most one
  // per 32 indices), the calling thread one of them, blocks of indices (shrinking as the job
  // goes: pool.cpp's Take) handed out as they finish;
  // returns once all are done. The workers are started at the first call and kept; a call with
  // another count, or the first call in a child process after fork(), starts a new set. Throws
  // std::runtime_error when the system refuses a thread, before running any index (the threads it
  // did start are joined).
  template <typename Body>
  void Run(int n, int threads, Body& body) {
    Run(n, threads, &Call<Body>, &body);
  }

  // Starts the workers Run(n, threads, ...) will use, if they are not running: a caller that
  // changes state before Run calls it first, so that a refused thread (std::runtime_error, as in
  // Run) leaves nothing changed.
  void Ready(int n, int threads);

 private:
  template <typename Body>
  static void Call(void* body, int i) {
    (*static_cast<Body*>(body))(i);
  }
  static int Threads(int n, int threads);
  void Run(int n, int threads, void (*fn)(void*, int), void* context);
  void Start(int workers);
  void Stop();
  void Work(uint64_t seen);
  void Take();

  // The workers' mutex and condition variables, on the heap: a child process after fork() leaves
  // its parent's (which may be held, or have waiters that do not exist in the child) and makes new
  // ones.
  struct Sync {
    std::mutex mutex;
    std::condition_variable wake, done;
  };
  std::unique_ptr<Sync> sync_ = std::make_unique<Sync>();
  std::vector<std::thread> workers_;
  long pid_ = 0;                          // the process that started the workers
  std::atomic<uint64_t> generation_{0};   // one more for each job
  std::atomic<bool> stop_{false};
  std::atomic<int> busy_{0};              // workers still on the current job
  // The current job.
  void (*fn_)(void*, int) = nullptr;
  void* context_ = nullptr;
  int n_ = 0;
  int threads_ = 1;  // the threads on the current job (the caller's among them)
  std::atomic<int> next_{0};
};

}  // namespace azul
