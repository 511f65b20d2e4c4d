// Small text helpers shared by the state text and record writers of every variant.
// Pure-Python twin: python/azul_engine/_pure/common.py.
#include "azul/common/pystr.h"
#include "azul/common/textutil.h"

#include "azul/classic/notation.h"

namespace azul {

std::vector<std::string> Split(const std::string& s, char sep) {
  std::vector<std::string> out;
  size_t start = 0;
  while (true) {
    const size_t i = s.find(sep, start);
    if (i == std::string::npos) {
      out.push_back(s.substr(start));
      return out;
    }
    out.push_back(s.substr(start, i - start));
    start = i + 1;
  }
}

std::vector<std::string> StateTokens(const std::string& text) {
  std::vector<std::string> out;
  size_t start = std::string::npos;
  for (size_t i = 0; i <= text.size(); ++i) {
    const char ch = i < text.size() ? text[i] : ' ';
    const bool space = ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' || ch == '\v' || ch == '\f';
    if (!space && start == std::string::npos) start = i;
    if (space && start != std::string::npos) {
      out.push_back(text.substr(start, i - start));
      start = std::string::npos;
    }
  }
  return out;
}

bool IsUint(const std::string& t) {
  if (t.empty()) return false;
  for (char ch : t)
    if (ch < '0' || ch > '9') return false;
  return true;
}

bool DigitsValue(const std::string& t, uint64_t* value) {
  uint64_t v = 0;
  for (char ch : t) {
    const uint64_t digit = static_cast<uint64_t>(ch - '0');
    if (v > (~uint64_t{0} - digit) / 10) return false;  // v * 10 + digit would pass 2**64 - 1
    v = v * 10 + digit;
  }
  *value = v;
  return true;
}

void CheckAsciiToken(const std::string& token) {
  size_t bad = 0;
  while (bad < token.size() && static_cast<unsigned char>(token[bad]) < 0x80) ++bad;
  if (bad == token.size()) return;
  const std::string ch = PyRepr(token.substr(bad, Utf8CharLen(token, bad)));
  const size_t eq = token.find('=');
  if (eq != std::string::npos && eq < bad)
    throw StateFormatError("field " + FieldName(token.substr(0, eq)) + ": non-ASCII character " +
                           ch + " in " + PyRepr(token.substr(eq + 1)) + " (state text is ASCII)");
  throw StateFormatError("token " + PyRepr(token) + ": non-ASCII character " + ch +
                         " (state text is ASCII)");
}

std::string FieldName(const std::string& key) {
  bool plain = !key.empty();
  for (char ch : key) plain = plain && ch > ' ' && ch < 0x7f;
  return plain ? key : PyRepr(key);
}

std::string U64(uint64_t v) { return std::to_string(static_cast<unsigned long long>(v)); }

std::string OrDash(const std::string& s) { return s.empty() ? "-" : s; }

std::string Counts(const uint8_t* c, int n) {
  std::string out;
  for (int i = 0; i < n; ++i) {
    if (i) out += ',';
    out += std::to_string(c[i]);
  }
  return out;
}

std::string JsonString(const std::string& s) {
  std::string out = "\"";
  for (char ch : s) {
    if (ch == '"' || ch == '\\') out += '\\';
    out += ch;
  }
  return out + "\"";
}

std::string JsonStrings(const std::vector<std::string>& v) {
  std::string out = "[";
  for (size_t i = 0; i < v.size(); ++i) out += (i ? ", " : "") + JsonString(v[i]);
  return out + "]";
}

std::string JsonInts(const std::vector<int>& v) {
  std::string out = "[";
  for (size_t i = 0; i < v.size(); ++i) out += (i ? ", " : "") + std::to_string(v[i]);
  return out + "]";
}

std::string RoundsText(const std::vector<RoundHistory>& rounds) {
  std::string out;
  for (size_t i = 0; i < rounds.size(); ++i) {
    const RoundHistory& r = rounds[i];
    out += " r" + std::to_string(i + 1) + "=";
    for (size_t j = 0; j < r.factories.size(); ++j) {
      if (j) out += ',';
      out += OrDash(r.factories[j]);
    }
    out += '|';
    for (size_t j = 0; j < r.moves.size(); ++j) {
      if (j) out += ',';
      out += r.moves[j];
    }
    out += '|';
    for (size_t j = 0; j < r.scores.size(); ++j) {
      if (j) out += ',';
      out += std::to_string(r.scores[j]);
    }
  }
  return out;
}

std::string RecordJsonText(const char* variant, int players, bool seed_known, uint64_t seed,
                           int first, const std::string& extra,
                           const std::vector<RoundHistory>& rounds, bool over,
                           const std::vector<int>& final_scores, const std::vector<int>& winners) {
  std::string out = "{\"format\": \"azul-record\", \"version\": 1, \"variant\": ";
  out += JsonString(variant);
  out += ", \"players\": " + std::to_string(players);
  out += ", \"seed\": " + (seed_known ? U64(seed) : std::string("null"));
  out += ", \"first_player\": " + std::to_string(first);
  out += extra;
  out += ", \"rounds\": [";
  for (size_t i = 0; i < rounds.size(); ++i) {
    const RoundHistory& r = rounds[i];
    if (i) out += ", ";
    out += "{\"factories\": " + JsonStrings(r.factories) + ", \"moves\": " + JsonStrings(r.moves) +
           ", \"scores\": " + (r.scores.empty() ? std::string("null") : JsonInts(r.scores)) + "}";
  }
  out += "], \"final_scores\": ";
  if (over)
    out += JsonInts(final_scores) + ", \"winners\": " + JsonInts(winners);
  else
    out += "null, \"winners\": null";
  return out + "}";
}

void CheckDealCount(int players, int factories, size_t count) {
  if (count != static_cast<size_t>(factories))
    throw IllegalMove("deal: " + std::to_string(players) + " players need " +
                      std::to_string(factories) + " factory strings");
}

}  // namespace azul
