// xxHash3 over what an agent can observe: node and snapshot content hashes.
#include <string>

#include "athena/snapshot.h"
#include "engine/field_hasher.h"
#include "engine/view.h"

namespace athena {

using engine::FieldHasher;

std::uint64_t node_content_hash(const ReadableNode& node) {
  return engine::content_hash_of(node);
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
