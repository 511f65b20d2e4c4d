// A vector of games stepped together, for learning code: one call applies one action per game
// and refreshes flat arrays (legal masks and lists, players to move, scores, done flags) that
// Python sees as numpy arrays without copying.
// Pure-Python twin: python/azul_engine/_pure/vector.py.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>
#include <tuple>
#include <vector>

#include "azul/common/parallel.h"
#include "azul/common/pool.h"
#include "azul/variant.h"

namespace azul {

// What a VectorGame does with a game that ends in a step.
enum class AutoReset : int8_t {
  kOff = 0,       // it stays over (done) until reset
  kSameStep = 1,  // the slot starts the vector's next game right after the move (done: ended now)
  kNextStep = 2,  // it stays over until the next step, which starts the next game there instead
                  // of applying the slot's action (Gymnasium's next-step autoreset)
};

class VectorGame {
 public:
  // The j-th game this vector starts (from 0) is NewGame(players, variant, output j+1 of
  // SplitMix64(seed)).  Every rule it uses comes through the variant's rules traits
  // (azul/variant.h).
  // auto_reset (AutoReset): what happens to a game that ends in a step; its scores and returns
  // go to the final arrays in any case.
  VectorGame(int n, int players, Variant variant, uint64_t seed, AutoReset auto_reset = AutoReset::kOff);

  // Starts new games in the given slots, in order; throws std::out_of_range before any change
  // for a slot outside 0..n-1.
  void Reset(const std::vector<int>& slots);
  void ResetAll();
  // Checks every action of a game not yet over (kSameStep: of every game; IllegalMove
  // "game i: ..." for the first that is not legal, and then nothing has changed).
  void Check(const int64_t* actions) const { Check(actions, n_); }
  // The same for games 0..games-1 only.
  void Check(const int64_t* actions, int games) const;
  // Whether action `a` is set in game i's mask (false for one out of range): every legal action is.
  bool InMask(int i, int64_t a) const {
    return a >= 0 && a < num_actions_ && mask_[static_cast<size_t>(i) * num_actions_ + a];
  }
  // Check(actions) with the masks read on `threads` threads (0: every core): each game's action
  // is looked up in its mask on the threads, and the rules' check (and its error) comes after, on
  // this thread, for the first game whose action is not in its mask.  Throws what Check throws
  // (std::runtime_error if the system refuses a thread, before anything is read).
  void CheckOn(const int64_t* actions, int threads);
  // `stop` (parallel.h's StopCheck, as the playouts take it) is asked every kPollGames games of a
  // step whether to stop there (the bindings poll Python's signal handlers).
  static constexpr int kPollGames = 256;
  // Applies the (checked) actions game by game in index order, refreshing each game's arrays
  // right after its move, and returns how many games it went through: n, or k < n when `stop`
  // asked to stop before game k (games 0..k-1 then have taken their actions, k..n-1 have not).
  // With threads != 1 (0: every core) the games move on that many threads at once, and then the
  // games that ended are finished (and, with auto_reset, started again) in index order, so that
  // the result is the one-thread step's; `stop` is not asked (the step runs to its end: n).
  // With `observations` (n x observation_size()), each game's row is written as Observations
  // writes it, right after the game's move (every game's: those that did not move too), while
  // the game is in the cache.  With `rewards` (n), each game's: the return of the seat that
  // moved when the move ended the game, else 0.  With `masks` (n x num_actions()), each game's
  // row of legal_mask() is copied there as `observations` is written.
  int Apply(const int64_t* actions, StopCheck stop = {}, int threads = 1,
            float* observations = nullptr, float* rewards = nullptr, uint8_t* masks = nullptr);
  // Room for one step's actions (n), for a caller's private copy of them.
  int64_t* action_buffer() { return action_buffer_.data(); }
  // How many games the last step went through, as its caller records it (what Apply returned,
  // or 0 for a step refused by Check); 0 before the first step.
  int stepped() const { return stepped_; }
  void set_stepped(int k) { stepped_ = k; }

  // One step, reset or read of the games at a time: a step releases Python's lock while it
  // applies, and a second caller must not see or change the games meanwhile (the numpy views
  // are not guarded: read them between steps).  Acquire returns false when busy.
  bool Acquire() { return !busy_.exchange(true); }
  void Release() { busy_.store(false); }

  int size() const { return n_; }
  int players() const { return players_; }
  Variant variant() const { return variant_; }
  int num_actions() const { return num_actions_; }
  AutoReset auto_reset() const { return auto_reset_; }
  // Game i is over and waits (kOff: for a reset; kNextStep: for the next step, which starts a new
  // game there): a step neither checks nor applies its action.
  bool Waiting(int i) const { return done_[i] && auto_reset_ != AutoReset::kSameStep; }
  int observation_size() const;
  // Game i as state text (no history).
  std::string GameText(int i) const;
  uint64_t seed() const { return seed_; }
  // How many games this vector has started (its next game takes seed output started() + 1).
  uint64_t started() const { return started_; }
  // Unpickling: puts the game of state text `text` in slot i; throws StateFormatError for bad
  // text and std::invalid_argument ("VectorGame pickle: game i is not a ...") for a game of
  // another variant or player count.  SetStarted sets the count of games started.
  void SetGameText(int i, const std::string& text);
  void SetStarted(uint64_t started) { started_ = started; }
  // Each game seen by its player to move (seat 0 once over): n x observation_size(), row i for
  // game i.  With `games` (n flags), only the rows of the flagged games are written.  With
  // threads != 1 (0: every core) the rows are written on that many threads.
  void Observations(float* out, const uint8_t* games = nullptr, int threads = 1) const;
  uint8_t* legal_mask() { return mask_.data(); }
  int16_t* legal_actions() { return actions_.data(); }
  int16_t* num_legal() { return counts_.data(); }
  int8_t* current_player() { return player_.data(); }
  int32_t* scores() { return scores_.data(); }
  uint8_t* done() { return done_.data(); }
  // Per slot (n x players): the final scores and returns (+1 a sole winner, 0 each of several
  // winners, -1 everyone else) of the slot's last game that ended in a step; zero before.
  int32_t* final_scores() { return final_scores_.data(); }
  float* final_returns() { return final_returns_.data(); }

 private:
  // The games of these rules (the vector of their State type; the other one stays empty).
  template <typename R>
  std::vector<typename R::State>& Games() {
    return std::get<std::vector<typename R::State>>(games_);
  }
  template <typename R>
  const std::vector<typename R::State>& Games() const {
    return std::get<std::vector<typename R::State>>(games_);
  }
  template <typename R>
  void Refresh(int i);
  template <typename R>
  int ApplyWith(const int64_t* actions, StopCheck stop, int threads, float* observations, float* rewards,
                uint8_t* masks);
  template <typename R>
  void Observe(int i, float* observations) const;
  // A step's outputs for game i, once it has moved (or started again): its observation row and a
  // copy of its mask row, each where asked.
  template <typename R>
  void Emit(int i, float* observations, uint8_t* masks) const;
  template <typename R>
  bool Move(int i, int64_t action, float* reward);
  void Restart(int i);
  template <typename R>
  void Finish(int i);

  void Refresh(int i);
  void Start(int i);
  void StartGame(int i, uint64_t number);

  int n_, players_;
  Variant variant_;
  int num_actions_;
  AutoReset auto_reset_;
  int stepped_ = 0;
  uint64_t seed_, started_ = 0;
  std::tuple<std::vector<ClassicRules::State>, std::vector<PavilionRules::State>> games_;
  std::vector<uint8_t> mask_;     // n x num_actions_
  std::vector<int16_t> actions_;  // n x num_actions_, -1 after the legal ones
  std::vector<int64_t> action_buffer_;
  std::vector<int16_t> counts_;
  std::vector<int8_t> player_;
  std::vector<int32_t> scores_;   // n x players
  std::vector<uint8_t> done_;
  std::vector<int32_t> final_scores_;  // n x players
  std::vector<float> final_returns_;
  std::vector<uint8_t> start_;  // a threaded step's slots to start once the moves are made
  std::vector<uint64_t> numbers_;  // a threaded kNextStep step's game numbers for the slots it starts
  std::atomic<bool> busy_{false};
  mutable WorkerPool pool_;  // the threads of threaded steps and observations, kept between calls
};

}  // namespace azul
