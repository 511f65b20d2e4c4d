// Per-variant game facts: the number of actions, the observation layout with named parts, score bounds,
// colours, rounds.  Core only (no Python); the bindings convert a GameInfo to azul_engine.GameInfo.
// docs/observation.md describes every part.
// Pure-Python twin: python/azul_engine/_pure/game_info.py.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace azul {

// One named part of an observation tensor: values [start, start + length).
struct ObservationPart {
  std::string name;  // "seatK.NAME" for the K-th seat after the observer (seat0: the observer), else shared
  int start;
  int length;
};

struct GameInfo {
  std::string variant;  // "classic", "grey" or "summer-pavilion"
  int players;
  int num_actions;       // length of legal_action_mask(): every action id, chance outcomes included
  int observation_size;  // observation_tensor() has shape (observation_size,)
  int seat_features;     // length of one seat block
  std::vector<ObservationPart> observation_parts;  // in layout order, covering [0, observation_size)
  std::string colours;  // colour letters in the engine's colour order
  int start_score;
  int min_score;  // no loss takes a score below it
  int max_score;  // no score can exceed it
  int max_rounds;  // the game ends at the end of this round at the latest
  int rounds;      // the fixed number of rounds, or 0 where the game ends on a completed wall row
  int factories;
  int tiles_per_colour;
  std::string wild_colours;  // Summer Pavilion: round i's wild colour at [i - 1]; empty elsewhere
  std::vector<std::pair<std::string, int>> end_bonuses;  // bonus name -> points, in the rules' order
  std::vector<int> floor_penalties;       // classic and grey: the points each floor space costs; else empty
  std::vector<std::string> wall_pattern;  // classic: each wall row's colour letters; else empty (grey: free)
  std::string stars;  // Summer Pavilion: the stars' letters in the engine's order; else empty
};

// The facts of `variant` for `players` (2-4).  Throws std::invalid_argument for another variant or player
// count (the bindings check their arguments first, with new_game's messages).
GameInfo MakeGameInfo(const std::string& variant, int players);

}  // namespace azul
