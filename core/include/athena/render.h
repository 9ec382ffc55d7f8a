// Renderers: the same FactPack as compact agent text (default) or as JSON (programs, demo).
// Both are deterministic: same FactPack, byte-identical output, native and wasm alike.
#pragma once

#include <string>

#include "athena/factpack.h"

namespace athena {

struct RenderOptions {
  bool trim_regions = true;  // head/tail trimming of long baseline regions (limits.h)
  bool caps = true;          // per-category caps in deltas ("... and 12 more")
  bool dedup = true;         // a region unchanged since the previous baseline renders as one line (seeds/003)
};

/// Agent text: XML-like, no decoration (DESIGN §3).
std::string render_text(const FactPack& pack, const RenderOptions& options = {});

/// JSON for programs: everything in the FactPack, nothing trimmed or capped.
std::string render_json(const FactPack& pack);

}  // namespace athena
