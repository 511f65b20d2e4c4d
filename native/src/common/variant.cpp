// The variants' shared entry points (azul/variant.h): which rules read a state text.
// Pure-Python twin: none (the rules traits; the pure engine's two state classes are the two rule sets).
#include "azul/common/pystr.h"
#include "azul/variant.h"

#include <string>
#include <vector>

#include "azul/classic/notation.h"
#include "azul/common/textutil.h"

namespace azul {

Variant TextRules(const std::string& text) {
  const std::vector<std::string> tokens = StateTokens(text);
  const std::string version = "azul-state/" + std::to_string(kTextVersion);
  if (tokens.empty() || tokens[0].compare(0, 11, "azul-state/") != 0)
    throw StateFormatError("not an Azul state: the text must start with " + version);
  if (tokens[0] != version && tokens[0].compare(0, version.size(), version) == 0)
    CheckAsciiToken(tokens[0]);  // the header ran on: a non-ASCII space after it
  if (tokens[0] != version)
    throw StateFormatError("unsupported state text version " + PyRepr(tokens[0]) +
                           " (this engine reads " + version + ")");
  for (const std::string& token : tokens)
    if (token == "variant=summer-pavilion") return kSummerPavilion;
  return kClassic;
}

int VariantIndex(const std::string& name) {
  for (int v = 0; v < kNumVariants; ++v)
    if (name == kVariantNames[v]) return v;
  return -1;
}

}  // namespace azul
