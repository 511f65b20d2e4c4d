// Python's str semantics on UTF-8 text, so that both engines split state text alike and name
// bad input character for character alike: repr(), str.split(), len().  No Python here: text
// with non-ASCII characters goes to a hook that whoever embeds the core may install (the
// bindings install Python's own repr()), since repr() decides by Unicode tables which
// characters it escapes; without a hook such text is quoted as it is.
// Pure-Python twin: none (Python's own str, which the pure engine uses).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace azul {

// Python's repr() of a str.
std::string PyRepr(const std::string& text);
// Python's str.split() without arguments: the tokens between runs of Unicode white space.
std::vector<std::string> PySplit(const std::string& utf8);
// Length in bytes of the UTF-8 character starting at text[i] (i < text.size()).
size_t Utf8CharLen(const std::string& text, size_t i);
using ReprHook = std::string (*)(const std::string& utf8);
void SetReprHook(ReprHook hook);

}  // namespace azul
