// Role/name agreement between our Snapshot and Chrome's own accessibility tree
// (ax.json.gz of a recorded step: {"<frameId>": [AXNode, ...]}, joined on backendDOMNodeId).
#pragma once

#include <string>
#include <vector>

#include "athena/snapshot.h"

namespace athena::test {

struct Disagreement {
  std::string frame_id;
  long long backend_node_id = 0;
  std::string ours_role, ours_name, chrome_role, chrome_name;  // chrome_role "" = not in Chrome's tree / ignored
};

struct Agreement {
  int compared = 0;  // interactive nodes we emitted
  int agreed = 0;
  std::vector<Disagreement> diffs;
  std::vector<Disagreement> missed;  // Chrome has an interactive role here, we emitted nothing (recall, informative)
};

/// Compares every interactive node of `snap` (and every heading, with `headings`) with Chrome's
/// AX node of the same frame and backend node id: role and name (Chrome's name
/// whitespace-collapsed and cut like ours).
Agreement compare_with_chrome(const Snapshot& snap, const std::string& ax_json, bool headings = false);

}  // namespace athena::test
