//===- Check.h - the unit tests' registry and checks ------------*- C++ -*-===//
//
// A minimal test registry: TEST(name) { ... CHECK(cond) << "why"; }.
// Main.cpp runs every test (or those whose name contains argv[1]) and
// exits non-zero when a check failed.
//
//===----------------------------------------------------------------------===//

#ifndef PIPELINE_UNITTESTS_SIM_CHECK_H
#define PIPELINE_UNITTESTS_SIM_CHECK_H

#include <functional>
#include <sstream>
#include <string>
#include <vector>

namespace pmlir::unittest {

struct Test {
  const char *name;
  std::function<void()> body;
};
std::vector<Test> &registry();
struct Register {
  Register(const char *name, std::function<void()> body) {
    registry().push_back({name, std::move(body)});
  }
};

/// Counts failures; prints file:line, the condition and the streamed
/// message when the check fails.
class Failure {
public:
  Failure(bool ok, const char *cond, const char *file, int line)
      : ok(ok), cond(cond), file(file), line(line) {}
  ~Failure();
  template <typename T> Failure &operator<<(const T &v) {
    if (!ok)
      message << v;
    return *this;
  }

private:
  bool ok;
  const char *cond, *file;
  int line;
  std::ostringstream message;
};
unsigned &failures();

} // namespace pmlir::unittest

#define PM_CONCAT2(a, b) a##b
#define PM_CONCAT(a, b) PM_CONCAT2(a, b)
#define TEST(name)                                                             \
  static void PM_CONCAT(test_, name)();                                        \
  static ::pmlir::unittest::Register PM_CONCAT(register_, name)(               \
      #name, PM_CONCAT(test_, name));                                          \
  static void PM_CONCAT(test_, name)()
#define CHECK(cond)                                                            \
  ::pmlir::unittest::Failure(bool(cond), #cond, __FILE__, __LINE__)

#endif // PIPELINE_UNITTESTS_SIM_CHECK_H
