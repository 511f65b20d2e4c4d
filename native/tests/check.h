// A tiny test harness for the core's C++ tests (no download, no dependency): TEST(name) { ... }
// registers a test, CHECK(cond) / CHECK_EQ(a, b) / CHECK_THROWS(type, expr, text) record a
// failure and go on; main() runs every test and returns 1 when any check failed.
#pragma once

#include <cstdio>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

namespace check {

struct Test {
  const char* name;
  std::function<void()> body;
};
inline std::vector<Test>& Registry() {
  static std::vector<Test> tests;
  return tests;
}
inline int& Failures() {
  static int failures = 0;
  return failures;
}
struct Register {
  Register(const char* name, std::function<void()> body) { Registry().push_back({name, body}); }
};
inline void Fail(const char* file, int line, const std::string& what) {
  ++Failures();
  std::fprintf(stderr, "%s:%d: FAILED: %s\n", file, line, what.c_str());
}
template <typename T>
std::string Show(const T& value) {
  std::ostringstream out;
  out << value;
  return out.str();
}

}  // namespace check

#define CHECK_CAT2(a, b) a##b
#define CHECK_CAT(a, b) CHECK_CAT2(a, b)
#define TEST(name)                                                           \
  static void name();                                                        \
  static check::Register CHECK_CAT(register_, name)(#name, &name);           \
  static void name()
#define CHECK(cond) \
  do {                                                                       \
    if (!(cond)) check::Fail(__FILE__, __LINE__, #cond);                     \
  } while (0)
#define CHECK_EQ(a, b)                                                                    \
  do {                                                                                    \
    const auto& check_a = (a);                                                            \
    const auto& check_b = (b);                                                            \
    if (!(check_a == check_b))                                                            \
      check::Fail(__FILE__, __LINE__,                                                     \
                  std::string(#a " == " #b ": ") + check::Show(check_a) + " != " +        \
                      check::Show(check_b));                                              \
  } while (0)
// `expr` throws `type` whose message() is `text`.
#define CHECK_THROWS(type, expr, text)                                                    \
  do {                                                                                    \
    bool check_thrown = false;                                                            \
    try {                                                                                 \
      expr;                                                                               \
    } catch (const type& e) {                                                             \
      check_thrown = true;                                                                \
      if (std::string(e.what()) != std::string(text))                                     \
        check::Fail(__FILE__, __LINE__,                                                   \
                    std::string(#expr ": message ") + e.what() + " != " + (text));        \
    }                                                                                     \
    if (!check_thrown) check::Fail(__FILE__, __LINE__, #expr " did not throw " #type);     \
  } while (0)

#define CHECK_MAIN()                                                                      \
  int main() {                                                                            \
    for (const check::Test& t : check::Registry()) {                                      \
      const int before = check::Failures();                                               \
      try {                                                                               \
        t.body();                                                                         \
      } catch (const std::exception& e) {                                                 \
        check::Fail(__FILE__, __LINE__, std::string(t.name) + " threw " + e.what());      \
      }                                                                                   \
      std::printf("%s %s\n", check::Failures() == before ? "ok  " : "FAIL", t.name);      \
    }                                                                                     \
    std::printf("%zu tests, %d failed checks\n", check::Registry().size(), check::Failures()); \
    return check::Failures() ? 1 : 0;                                                     \
  }
