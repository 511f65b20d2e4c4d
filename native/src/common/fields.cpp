// The state text readers' shared parts (azul/common/fields.h).
// Pure-Python twin: python/azul_engine/_pure/common.py.
#include "azul/common/fields.h"

#include <string>
#include <utility>
#include <vector>

#include "azul/common/pystr.h"
#include "azul/common/types.h"

namespace azul {

Fields ReadFields(const std::vector<std::string>& tokens) {
  Fields f;
  for (size_t i = 1; i < tokens.size(); ++i) {
    CheckAsciiToken(tokens[i]);
    const size_t eq = tokens[i].find('=');
    if (eq == std::string::npos)
      throw StateFormatError("token " + PyRepr(tokens[i]) + " is not key=value");
    const std::string key = tokens[i].substr(0, eq), value = tokens[i].substr(eq + 1);
    if (f.has(key)) throw StateFormatError("field " + FieldName(key) + " appears twice");
    f.values[key] = value;
    f.order.push_back(key);
  }
  return f;
}

namespace {

// Whether `value` (an optional '-' and decimal digits, at most 21 characters) is an integer in
// lo..hi (lo <= 0): its sign and magnitude into *neg and *magnitude.  In 64-bit arithmetic, by
// sign and magnitude (no __int128, which MSVC lacks).
bool InRange(const std::string& value, long long lo, unsigned long long hi, bool* neg, uint64_t* magnitude) {
  *neg = !value.empty() && value[0] == '-';
  const std::string digits = *neg ? value.substr(1) : value;
  if (!IsUint(digits) || value.size() > 21 || !DigitsValue(digits, magnitude)) return false;
  if (*magnitude == 0) return lo <= 0;                                   // "0", "-0"
  if (*neg) return lo < 0 && *magnitude - 1 <= static_cast<uint64_t>(-(lo + 1));  // -magnitude >= lo
  return *magnitude <= hi;
}

[[noreturn]] void NotInRange(const std::string& key, const std::string& value, const std::string& lo,
                             const std::string& hi) {
  throw StateFormatError("field " + key + ": " + PyRepr(value) + " is not an integer in " + lo + ".." + hi);
}

}  // namespace

long long IntField(const Fields& f, const std::string& key, long long lo, long long hi) {
  const std::string& value = f[key];
  bool neg = false;
  uint64_t magnitude = 0;
  if (hi >= 0 && InRange(value, lo, static_cast<unsigned long long>(hi), &neg, &magnitude))
    return neg ? -static_cast<long long>(magnitude - 1) - 1 : static_cast<long long>(magnitude);
  NotInRange(key, value, std::to_string(lo), std::to_string(hi));
}

uint64_t U64Field(const Fields& f, const std::string& key) {
  const std::string& value = f[key];
  bool neg = false;
  uint64_t magnitude = 0;
  if (InRange(value, 0, ~0ULL, &neg, &magnitude)) return magnitude;
  NotInRange(key, value, "0", std::to_string(~0ULL));
}

void CountList(const std::string& value, const std::string& key, int n, int max_count,
               uint8_t* out) {
  const std::vector<std::string> parts = Split(value, ',');
  bool ok = static_cast<int>(parts.size()) == n;
  for (size_t i = 0; ok && i < parts.size(); ++i) ok = IsUint(parts[i]) && parts[i].size() <= 3;
  if (!ok)
    throw StateFormatError("field " + key + ": " + PyRepr(value) + " is not " +
                           std::to_string(n) + " tile counts");
  int counts[8];
  for (int i = 0; i < n; ++i) counts[i] = std::stoi(parts[i]);
  for (int i = 0; i < n; ++i)
    if (counts[i] > max_count)
      throw StateFormatError("field " + key + ": a count above " + std::to_string(max_count));
  for (int i = 0; i < n; ++i) out[i] = static_cast<uint8_t>(counts[i]);
}

void ReadHistoryHead(const std::vector<std::string>& head, int players, bool* seed_known,
                     uint64_t* seed, int* first, bool* complete) {
  if (head[0] == "-") {
    *seed_known = false;
  } else {
    uint64_t value = 0;
    if (!IsUint(head[0]) || head[0].size() > 20 || !DigitsValue(head[0], &value))
      throw StateFormatError("field history: bad seed " + PyRepr(head[0]));
    *seed_known = true;
    *seed = value;
  }
  bool first_ok = false;
  for (int p = -1; p < players; ++p) first_ok = first_ok || head[1] == std::to_string(p);
  if (!first_ok || (head[2] != "0" && head[2] != "1"))
    throw StateFormatError("field history: bad first player or completeness flag");
  *first = std::stoi(head[1]);
  *complete = head[2] == "1";
}

std::vector<RoundHistory> ReadHistoryRounds(const Fields& f, const std::vector<std::string>& keys,
                                            int players, int max_rounds, const char* order,
                                            void (*check_factory)(const std::string&,
                                                                  const std::string&),
                                            bool (*is_move)(const std::string&)) {
  std::vector<RoundHistory> rounds;
  int i = 0;
  for (const std::string& key : keys) {
    if (key == "history") continue;
    if (key != "r" + std::to_string(i + 1) || (max_rounds > 0 && i >= max_rounds))
      throw StateFormatError("field " + key + ": history rounds must be " + order + " in order");
    ++i;
    const std::vector<std::string> parts = Split(f[key], '|');
    if (parts.size() != 3)
      throw StateFormatError("field " + key + ": " + PyRepr(f[key]) +
                             " is not factories|moves|scores");
    RoundHistory round;
    for (const std::string& fac : Split(parts[0], ',')) {
      check_factory(fac, "field " + key);
      round.factories.push_back(fac == "-" ? "" : fac);
    }
    if (!parts[1].empty()) round.moves = Split(parts[1], ',');
    for (const std::string& m : round.moves)
      if (!is_move(m)) throw StateFormatError("field " + key + ": " + PyRepr(m) + " is not a move");
    if (!parts[2].empty()) {
      const std::vector<std::string> sc = Split(parts[2], ',');
      bool ok = static_cast<int>(sc.size()) == players;
      for (size_t j = 0; ok && j < sc.size(); ++j) ok = IsUint(sc[j]) && sc[j].size() <= 6;
      if (!ok) throw StateFormatError("field " + key + ": bad scores " + PyRepr(parts[2]));
      for (const std::string& x : sc) round.scores.push_back(std::stoi(x));
    }
    rounds.push_back(std::move(round));
  }
  return rounds;
}

}  // namespace azul
