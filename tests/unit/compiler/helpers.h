// Shared helpers for the compiler tests.
#pragma once

#include <catch2/catch.hpp>
#include <string>

#include "athena/compiler.h"
#include "capture_builder.h"

namespace athena::test {

inline Snapshot compile_ok(const std::string& json) {
  auto r = compile_capture(json);
  INFO((r.ok() ? std::string() : r.error().message));
  REQUIRE(r.ok());
  return std::move(r).value();
}

inline Snapshot compile_ok(const CaptureBuilder& b) {
  return compile_ok(b.str());
}

/// The first node named `name` (nullptr if none).
inline const ReadableNode* by_name(const Snapshot& s, const std::string& name) {
  for (const ReadableNode& n : s.nodes)
    if (n.name == name) return &n;
  return nullptr;
}

/// The first node of `role` named `name` (nullptr if none).
inline const ReadableNode* by_role_name(const Snapshot& s, const std::string& role, const std::string& name) {
  for (const ReadableNode& n : s.nodes)
    if (n.role == role && n.name == name) return &n;
  return nullptr;
}

inline const ReadableNode* by_backend(const Snapshot& s, long long id) {
  for (const ReadableNode& n : s.nodes)
    if (n.backend_node_id == id) return &n;
  return nullptr;
}

/// Every string and number of the Snapshot as one text (what any renderer could ever show).
inline std::string snapshot_text(const Snapshot& s) {
  std::string t = s.url + "\n" + s.title + "\n";
  for (const auto& f : s.frames) t += f.frame_id + " " + f.loader_id + " " + f.parent_id + " " + f.url + "\n";
  for (const auto& n : s.nodes)
    t += std::to_string(n.backend_node_id) + " " + n.frame_id + " " + n.loader_id + " " + n.role + " " + n.name +
         " | " + n.description + " | " + n.state.value + " | " + n.href + " | " + n.input_type + " | " +
         n.region_label + " | " + n.heading + " | " + n.shadow_path + "\n";
  for (const auto& o : s.overlays) t += o.frame_id + " " + o.loader_id + " " + o.name + "\n";
  for (const auto& w : s.warnings) t += w + "\n";
  return t;
}

inline Error compile_err(const std::string& json) {
  auto r = compile_capture(json);
  REQUIRE_FALSE(r.ok());
  return r.error();
}

}  // namespace athena::test
