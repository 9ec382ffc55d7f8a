// The rule tables of rules/: one table per rule that C++ and JavaScript both need, run here by
// Catch2 and by node on the JavaScript side (tests/node, extension/test, tests/wasm).
#pragma once

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>
#include <string>

namespace athena::testing {

/// rules/NAME, parsed. Throws, naming the file, when it cannot be read (the test case fails).
inline nlohmann::json rule_table(const std::string& name) {
  const std::string path = std::string(ATHENA_CASES_DIR) + "/../../rules/" + name;
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read " + path);
  std::stringstream s;
  s << in.rdbuf();
  return nlohmann::json::parse(s.str());
}

}  // namespace athena::testing
