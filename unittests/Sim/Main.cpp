//===- Main.cpp - runs the emulator's unit tests -----------------------===//

#include "Check.h"

#include <cstdio>
#include <cstring>

using namespace pmlir::unittest;

std::vector<Test> &pmlir::unittest::registry() {
  static std::vector<Test> tests;
  return tests;
}

unsigned &pmlir::unittest::failures() {
  static unsigned n = 0;
  return n;
}

Failure::~Failure() {
  if (ok)
    return;
  ++failures();
  std::fprintf(stderr, "%s:%d: CHECK(%s) failed: %s\n", file, line, cond,
               message.str().c_str());
}

int main(int argc, char **argv) {
  const char *filter = argc > 1 ? argv[1] : "";
  unsigned ran = 0;
  for (const Test &t : registry()) {
    if (!std::strstr(t.name, filter))
      continue;
    unsigned before = failures();
    t.body();
    ++ran;
    std::printf("%s %s\n", failures() == before ? "PASS" : "FAIL", t.name);
  }
  std::printf("%u tests, %u failed checks\n", ran, failures());
  if (ran == 0) {
    std::fprintf(stderr, "no test matches '%s'\n", filter);
    return 1;
  }
  return failures() ? 1 : 0;
}
