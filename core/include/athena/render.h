// Renderers: the same FactPack as compact agent text (default) or as JSON (programs, demo).
// Both are deterministic: same FactPack, byte-identical output, native and wasm alike.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "athena/engine.h"
#include "athena/factpack.h"
#include "athena/limits.h"

namespace athena {

struct RenderOptions {
  bool trim_regions = true;  // trim long baseline regions when the pack is over token_budget (limits.h)
  std::size_t token_budget = limits::kDefaultBaselineTokenBudget;  // estimated tokens a baseline may take
  bool caps = true;                                                // per-category caps in deltas ("... and 12 more")
  bool dedup = true;  // a region unchanged since the previous baseline (or a page the tab came back to) renders as one
                      // line (docs/design.md, "Trimming and dedup across baselines")
};

/// Agent text: XML-like, no decoration (docs/design.md, "What a FactPack contains").
std::string render_text(const FactPack& pack, const RenderOptions& options = {});

/// A find answer in the element grammar of FactPacks:
///   <find v="12" total="209" shown="50" next="e80">
///   e31 link "Data Types"
///   ... 159 more: find region=main after=e80
///   </find>
std::string render_find(const FindResult& result, const FindQuery& query);

/// Estimated tokens of agent text (bytes / limits::kBytesPerToken, rounded up).
std::size_t estimate_tokens(std::string_view text);

/// JSON for programs: everything in the FactPack, nothing trimmed or capped.
std::string render_json(const FactPack& pack);
/// One element as JSON, in the shape render_json gives it (snake_case, fields only when set):
/// the one element shape of the core, also what the wasm API's find/resolve return.
std::string render_element_json(const Element& element);

}  // namespace athena
