// Python's str semantics that messages and state text need, on UTF-8 (azul/common/pystr.h).
// Pure-Python twin: none (Python's own str, which the pure engine uses).
#include "azul/common/pystr.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>

namespace azul {

size_t Utf8CharLen(const std::string& text, size_t i) {
  const unsigned char lead = static_cast<unsigned char>(text[i]);
  const size_t n = lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4;
  return std::min(n, text.size() - i);
}

static uint32_t CodePoint(const std::string& text, size_t i, size_t len) {
  const unsigned char lead = static_cast<unsigned char>(text[i]);
  if (len == 1) return lead;
  uint32_t cp = lead & (0x7F >> len);
  for (size_t j = 1; j < len; ++j) cp = cp << 6 | (static_cast<unsigned char>(text[i + j]) & 0x3F);
  return cp;
}

// str.isspace(): Python's white space, what str.split() splits on.
static bool IsSpace(uint32_t cp) {
  return (cp >= 0x09 && cp <= 0x0D) || (cp >= 0x1C && cp <= 0x20) || cp == 0x85 || cp == 0xA0 ||
         cp == 0x1680 || (cp >= 0x2000 && cp <= 0x200A) || cp == 0x2028 || cp == 0x2029 ||
         cp == 0x202F || cp == 0x205F || cp == 0x3000;
}

std::vector<std::string> PySplit(const std::string& text) {
  std::vector<std::string> out;
  size_t i = 0, start = std::string::npos;
  while (i < text.size()) {
    const size_t n = Utf8CharLen(text, i);
    if (IsSpace(CodePoint(text, i, n))) {
      if (start != std::string::npos) out.push_back(text.substr(start, i - start));
      start = std::string::npos;
    } else if (start == std::string::npos) {
      start = i;
    }
    i += n;
  }
  if (start != std::string::npos) out.push_back(text.substr(start));
  return out;
}

static ReprHook repr_hook = nullptr;

void SetReprHook(ReprHook hook) { repr_hook = hook; }

std::string PyRepr(const std::string& text) {
  if (repr_hook)
    for (unsigned char ch : text)
      if (ch >= 0x80) return repr_hook(text);
  bool has_single = text.find('\'') != std::string::npos;
  bool has_double = text.find('"') != std::string::npos;
  char quote = (has_single && !has_double) ? '"' : '\'';
  std::string out(1, quote);
  for (unsigned char ch : text) {
    if (ch == '\\') {
      out += "\\\\";
    } else if (ch == static_cast<unsigned char>(quote)) {
      out += '\\';
      out += static_cast<char>(ch);
    } else if (ch == '\n') {
      out += "\\n";
    } else if (ch == '\r') {
      out += "\\r";
    } else if (ch == '\t') {
      out += "\\t";
    } else if (ch < 0x20 || ch == 0x7f) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", ch);
      out += buf;
    } else {
      out += static_cast<char>(ch);
    }
  }
  out += quote;
  return out;
}

}  // namespace azul
