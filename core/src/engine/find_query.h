// find with paging over what the agent holds (a View): the checks that make a wrong query an
// error naming what exists, the cursor, and the count of what is left.
#pragma once

#include <string_view>

#include "athena/engine.h"
#include "athena/error.h"
#include "engine/view.h"

namespace athena::engine {

/// Does the agent's `region` name the region of `e`: its name (main, nav, ...) or its label,
/// ASCII letters compared case-insensitively, nothing else folded (rules/region-match.json).
bool region_matches(const Element& e, std::string_view region);

/// The page of `view` matching `query` (engine.h FindQuery / FindResult).
Result<FindResult> find_in_view(const View& view, const FindQuery& query);

}  // namespace athena::engine
