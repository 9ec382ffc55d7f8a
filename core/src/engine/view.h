// The agent's view as data: every element the agent holds, keyed by ref. The engine keeps two
// Views, one for the latest capture and one for what was last delivered (older versions are not
// kept); every FactPack is the difference between two Views, which is what makes deltas checkable.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "athena/factpack.h"
#include "athena/snapshot.h"
#include "engine/field_hasher.h"

namespace athena::engine {

using RefId = std::uint32_t;  // the n of e{n}; 0 = none

/// Identity of an overlay root: the scoped identity (docs/design.md, "Identity": all three parts compared).
struct OverlayId {
  std::string frame_id;
  std::string loader_id;
  std::int64_t backend_node_id = 0;
  OverlayType type = OverlayType::kUnknown;
  std::string name;
  bool operator==(const OverlayId& o) const {
    return backend_node_id == o.backend_node_id && frame_id == o.frame_id && loader_id == o.loader_id;
  }
  bool operator!=(const OverlayId& o) const { return !(*this == o); }
};

struct ViewEntry {
  RefId ref = 0;
  int frame_index = 0;
  std::uint64_t ident = 0;    // frame, region, role, name, href (what the agent calls "the same thing")
  std::uint64_t content = 0;  // everything the agent sees of it except in_viewport
  Element element;            // element.overlay = context: -1 base, else index in `stack`
};

struct View {
  std::uint64_t version = 0;
  std::string main_frame_id;
  std::string main_loader_id;
  std::vector<OverlayId> stack;    // open overlays, bottom first (== Snapshot::overlays order)
  std::vector<ViewEntry> entries;  // document order
  std::uint64_t hash = 0;          // what the version manager compares (refs included)
};

/// The boolean and tri-state fields of a node's state as one number (for content hashes).
std::uint64_t state_bits(const NodeState& state);
/// Identity key: xxHash3 of frame_id, region, region label, role, name, href (docs/design.md, "Two identities", without
/// the ordinal; the matcher disambiguates equals by their neighbours instead of by position).
std::uint64_t ident_hash(const ReadableNode& node);
/// Content of a node as the agent sees it (ref and in_viewport excluded): the one content hash,
/// for an Element (the engine's views) and a ReadableNode (the compiler's snapshot) alike.
template <typename Node>
std::uint64_t content_hash_of(const Node& n) {
  FieldHasher h;
  h.str(n.role).str(n.name).num(n.cut ? 1 : 0).str(n.description).str(n.href).str(n.region_label);
  h.num(static_cast<std::uint64_t>(n.category)).num(static_cast<std::uint64_t>(n.level));
  h.num(static_cast<std::uint64_t>(n.region)).num(static_cast<std::uint64_t>(std::int64_t{n.overlay} + 1));
  h.num(state_bits(n.state)).str(n.state.value);
  h.num(static_cast<std::uint64_t>(n.depth));  // where it sits: a line that moves in the outline changed
  return h.digest();
}
inline std::uint64_t element_hash(const Element& element) {
  return content_hash_of(element);
}
/// Hash of a whole view (refs, contexts, contents, overlay stack, main document).
std::uint64_t view_hash(const View& view);

/// "e{n}": n is unique among every page of one Engine (Engine.h, "Refs").
std::string format_ref(RefId n);

struct ParsedRef {
  long long n = 0;
};
/// Strict parse of e{d}; false when malformed.
bool parse_ref(const std::string& text, ParsedRef& out);

}  // namespace athena::engine
