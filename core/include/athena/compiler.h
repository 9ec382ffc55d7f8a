// The snapshot compiler: raw CDP capture JSON (docs/capture-format.md) -> Snapshot.
//
// Understands the page the way Chrome's accessibility tree does (roles and names must agree
// with Accessibility.getFullAXTree on every recorded page), from one DOMSnapshot per process.
// Secrets (password, autocomplete=cc-*, one-time-code values) are redacted here and never
// enter a Snapshot. Malformed, truncated or hostile input returns an Error; it never crashes,
// hangs or reads out of bounds.
#pragma once

#include <string_view>

#include "athena/error.h"
#include "athena/snapshot.h"

namespace athena {

struct CompileOptions {
  /// Keep elements that are laid out but outside the viewport (default: yes; in_viewport tells).
  bool include_offscreen = true;
};

/// Compiles one capture. Nodes whose frame is not in the frame tree are skipped and set
/// Snapshot::has_unknown_frames (never a made-up loader id).
Result<Snapshot> compile_capture(std::string_view capture_json, const CompileOptions& options = {});

}  // namespace athena
