// xxHash3 over what an agent can observe: semantic keys, node and snapshot content hashes.
#include <string>
#include <unordered_map>

#include "athena/snapshot.h"
#include "engine/field_hasher.h"

namespace athena {
namespace {

// Fields go through engine::FieldHasher: the same bytes as one XXH3 stream fed field by field
// (the keys are unchanged), without setting up a streaming state per node.
class Hasher {
 public:
  Hasher& add(const std::string& s) {
    h_.str(s);
    return *this;
  }
  Hasher& add_u64(std::uint64_t v) {
    h_.num(v);
    return *this;
  }
  std::uint64_t digest() { return h_.digest(); }

 private:
  engine::FieldHasher h_;
};

void add_state(Hasher& h, const NodeState& s) {
  const std::uint64_t bits = (std::uint64_t(s.disabled) << 0) | (std::uint64_t(s.focused) << 1) |
                             (std::uint64_t(s.required) << 2) | (std::uint64_t(s.invalid) << 3) |
                             (std::uint64_t(s.selected) << 4) | (std::uint64_t(s.readonly) << 5) |
                             (std::uint64_t(s.value_redacted) << 6) | (std::uint64_t(s.checked) << 8) |
                             (std::uint64_t(s.expanded) << 12) | (std::uint64_t(s.pressed) << 16);
  h.add_u64(bits).add(s.value);
}

}  // namespace

void assign_semantic_keys(Snapshot& snapshot) {
  // Ordinal among nodes equal in (frame, region, role, name, href): the n-th "Delete" button
  // of the main region keeps its key when other content changes around it.
  std::unordered_map<std::uint64_t, std::uint64_t> seen;  // only counts: order does not matter
  seen.reserve(snapshot.nodes.size());
  for (ReadableNode& node : snapshot.nodes) {
    Hasher base;
    base.add(node.frame_id).add_u64(static_cast<std::uint64_t>(node.region)).add(node.role).add(node.name).add(node.href);
    const std::uint64_t b = base.digest();
    const std::uint64_t ordinal = seen[b]++;
    node.semantic_key = Hasher().add_u64(b).add_u64(ordinal).digest();
  }
}

std::uint64_t node_content_hash(const ReadableNode& node) {
  Hasher h;
  h.add(node.role).add(node.name).add(node.description).add(node.href).add(node.region_label);
  h.add_u64(static_cast<std::uint64_t>(node.category)).add_u64(static_cast<std::uint64_t>(node.level));
  h.add_u64(static_cast<std::uint64_t>(node.region)).add_u64(static_cast<std::uint64_t>(node.overlay + 1));
  add_state(h, node.state);
  return h.digest();
}

std::uint64_t content_hash(const Snapshot& snapshot) {
  Hasher h;
  h.add(snapshot.url).add(snapshot.title).add_u64(snapshot.nodes.size());
  for (const FrameInfo& f : snapshot.frames) h.add(f.frame_id).add(f.loader_id);
  for (const ReadableNode& n : snapshot.nodes) {
    h.add(n.frame_id).add(n.loader_id).add_u64(static_cast<std::uint64_t>(n.backend_node_id));
    h.add_u64(node_content_hash(n));
  }
  for (const Overlay& o : snapshot.overlays) {
    h.add(o.frame_id).add(o.loader_id).add_u64(static_cast<std::uint64_t>(o.backend_node_id));
    h.add_u64(static_cast<std::uint64_t>(o.type)).add(o.name);
  }
  return h.digest();
}

}  // namespace athena
