// Shared helpers for the compiler tests.
#pragma once

#include <string>

#include <catch2/catch.hpp>

#include "athena/compiler.h"
#include "capture_builder.h"

namespace athena::test {

inline Snapshot compile_ok(const std::string& json) {
  auto r = compile_capture(json);
  INFO((r.ok() ? std::string() : r.error().message));
  REQUIRE(r.ok());
  return std::move(r).value();
}

inline Snapshot compile_ok(const CaptureBuilder& b) { return compile_ok(b.str()); }

/// The first node named `name` (nullptr if none).
inline const ReadableNode* by_name(const Snapshot& s, const std::string& name) {
  for (const ReadableNode& n : s.nodes)
    if (n.name == name) return &n;
  return nullptr;
}

inline const ReadableNode* by_backend(const Snapshot& s, long long id) {
  for (const ReadableNode& n : s.nodes)
    if (n.backend_node_id == id) return &n;
  return nullptr;
}

inline Error compile_err(const std::string& json) {
  auto r = compile_capture(json);
  REQUIRE_FALSE(r.ok());
  return r.error();
}

}  // namespace athena::test
