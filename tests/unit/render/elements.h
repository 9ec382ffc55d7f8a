// Hand-built elements, and a substring counter, for the renderer's tests (render_test.cpp, trim_test.cpp).
#pragma once

#include <cstddef>
#include <string>

#include "athena/factpack.h"

namespace athena::test {

/// Element n of page c0p1: `e<n> role "name"` in `region`; role "text" is a revealed-text line.
inline Element el(int n, const std::string& role, const std::string& name, Region region = Region::kMain) {
  Element e;
  e.ref = "e" + std::to_string(n);
  e.role = role;
  e.name = name;
  e.region = region;
  if (role == "text") e.category = Category::kText;
  return e;
}

/// How many times `part` occurs in `s` (overlapping ones included).
inline std::size_t count(const std::string& s, const std::string& part) {
  std::size_t n = 0;
  for (std::size_t at = s.find(part); at != std::string::npos; at = s.find(part, at + 1)) ++n;
  return n;
}

}  // namespace athena::test
