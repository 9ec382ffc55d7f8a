// xxHash3 over what an agent can observe: node and snapshot content hashes.
#include <string>

#include "athena/snapshot.h"
#include "engine/field_hasher.h"
#include "engine/view.h"

namespace athena {

using engine::FieldHasher;

std::uint64_t node_content_hash(const ReadableNode& node) {
  FieldHasher h;
  h.str(node.role).str(node.name).str(node.description).str(node.href).str(node.region_label);
  h.num(static_cast<std::uint64_t>(node.category)).num(static_cast<std::uint64_t>(node.level));
  h.num(static_cast<std::uint64_t>(node.region)).num(static_cast<std::uint64_t>(node.overlay + 1));
  h.num(engine::state_bits(node.state)).str(node.state.value);
  return h.digest();
}

std::uint64_t content_hash(const Snapshot& snapshot) {
  FieldHasher h;
  h.str(snapshot.url).str(snapshot.title).num(snapshot.nodes.size());
  for (const FrameInfo& f : snapshot.frames) h.str(f.frame_id).str(f.loader_id);
  for (const ReadableNode& n : snapshot.nodes) {
    h.str(n.frame_id).str(n.loader_id).num(static_cast<std::uint64_t>(n.backend_node_id));
    h.num(node_content_hash(n));
  }
  for (const Overlay& o : snapshot.overlays) {
    h.str(o.frame_id).str(o.loader_id).num(static_cast<std::uint64_t>(o.backend_node_id));
    h.num(static_cast<std::uint64_t>(o.type)).str(o.name);
  }
  return h.digest();
}

}  // namespace athena
