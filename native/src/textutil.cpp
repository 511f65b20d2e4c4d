// Small text helpers shared by the state text and record writers of every variant.
#include "azul/textutil.h"

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

bool IsUint(const std::string& t) {
  if (t.empty()) return false;
  for (char ch : t)
    if (ch < '0' || ch > '9') return false;
  return true;
}

unsigned __int128 DigitsValue(const std::string& t) {
  unsigned __int128 v = 0;
  const unsigned __int128 cap = static_cast<unsigned __int128>(1) << 100;
  for (char ch : t) {
    v = v * 10 + static_cast<unsigned>(ch - '0');
    if (v > cap) v = cap;
  }
  return v;
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

}  // namespace azul
