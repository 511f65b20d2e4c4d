// A vector of games stepped together, for learning code: one call applies one action per game
// and refreshes flat arrays (legal masks and lists, players to move, scores, done flags) that
// Python sees as numpy arrays without copying.
// The pure-Python twin is class VectorGame in python/azul_engine/_pyengine.py.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>
#include <tuple>
#include <vector>

#include "azul/common/parallel.h"
#include "azul/variant.h"

namespace azul {

class VectorGame {
 public:
  // The j-th game this vector starts (from 0) is NewGame(players, variant, output j+1 of
  // SplitMix64(seed)).  Every rule it uses comes through the variant's rules traits
  // (azul/variant.h).
  // auto_reset: a game that ends in a step is written to the final arrays and its slot starts
  // the vector's next game right after its move (done then says "ended in this step").
  VectorGame(int n, int players, Variant variant, uint64_t seed, bool auto_reset = false);

  // Starts new games in the given slots, in order; throws std::out_of_range before any change
  // for a slot outside 0..n-1.
  void Reset(const std::vector<int>& slots);
  void ResetAll();
  // Checks every action of a game not yet over (with auto_reset: of every game; IllegalMove
  // "game i: ..." for the first that is not legal, and then nothing has changed).
  void Check(const int64_t* actions) const { Check(actions, n_); }
  // The same for games 0..games-1 only.
  void Check(const int64_t* actions, int games) const;
  // `stop` (parallel.h's StopCheck, as the playouts take it) is asked every kPollGames games of a
  // step whether to stop there (the bindings poll Python's signal handlers).
  static constexpr int kPollGames = 256;
  // Applies the (checked) actions game by game in index order, refreshing each game's arrays
  // right after its move, and returns how many games it went through: n, or k < n when `stop`
  // asked to stop before game k (games 0..k-1 then have taken their actions, k..n-1 have not).
  int Apply(const int64_t* actions, StopCheck stop = {});
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
  bool auto_reset() const { return auto_reset_; }
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
  // Each game seen by its player to move (seat 0 once over): n x observation_size().
  void Observations(float* out) const;
  uint8_t* legal_mask() { return mask_.data(); }
  int16_t* legal_actions() { return actions_.data(); }
  int16_t* num_legal() { return counts_.data(); }
  int8_t* current_player() { return player_.data(); }
  int32_t* scores() { return scores_.data(); }
  uint8_t* done() { return done_.data(); }
  // With auto_reset, per slot (n x players): the final scores and returns (+1 a sole winner, 0
  // each of several winners, -1 everyone else) of the slot's last game that ended; zero before.
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
  int ApplyWith(const int64_t* actions, StopCheck stop);
  template <typename R>
  void Finish(int i);
  void Refresh(int i);
  void Start(int i);

  int n_, players_;
  Variant variant_;
  int num_actions_;
  bool auto_reset_;
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
  std::vector<int32_t> final_scores_;  // n x players, auto_reset only
  std::vector<float> final_returns_;
  std::atomic<bool> busy_{false};
};

}  // namespace azul
