#include "engine/view.h"

#include <charconv>
#include <limits>

#include "engine/field_hasher.h"

namespace athena::engine {

std::uint64_t state_bits(const NodeState& s) {
  return (std::uint64_t(s.disabled) << 0) | (std::uint64_t(s.focused) << 1) | (std::uint64_t(s.required) << 2) |
         (std::uint64_t(s.invalid) << 3) | (std::uint64_t(s.selected) << 4) | (std::uint64_t(s.readonly) << 5) |
         (std::uint64_t(s.value_redacted) << 6) | (std::uint64_t(s.current) << 7) | (std::uint64_t(s.checked) << 8) |
         (std::uint64_t(s.expanded) << 12) | (std::uint64_t(s.pressed) << 16) | (std::uint64_t(s.sort) << 20);
}

std::uint64_t ident_hash(const ReadableNode& node) {
  return FieldHasher()
      .str(node.frame_id)
      .num(static_cast<std::uint64_t>(node.region))
      .str(node.region_label)
      .str(node.role)
      .str(node.name)
      .str(node.href)
      .digest();
}

std::uint64_t view_hash(const View& view) {
  FieldHasher h;
  h.str(view.main_frame_id).str(view.main_loader_id).num(view.stack.size());
  for (const OverlayId& o : view.stack)
    h.str(o.frame_id).str(o.loader_id).num(static_cast<std::uint64_t>(o.backend_node_id));
  h.num(view.entries.size());
  for (const ViewEntry& e : view.entries) h.num(e.ref).num(e.content);
  return h.digest();
}

std::string format_ref(RefId n) {
  // to_chars: a ref is made for every element of every view, and one this short stays in the
  // string's own buffer.
  std::string out(1, 'e');
  char num[16];
  out.append(num, std::to_chars(num, num + sizeof num, n).ptr);
  return out;
}

bool parse_ref(const std::string& text, ParsedRef& out) {
  if (text.size() < 2 || text[0] != 'e') return false;
  long long v = 0;
  for (std::size_t i = 1; i < text.size(); ++i) {
    if (text[i] < '0' || text[i] > '9' || i > 12) return false;  // 12 digits: far beyond any counter we issue
    v = v * 10 + (text[i] - '0');
  }
  if (text[1] == '0' && text.size() > 2) return false;  // no leading zeros: one spelling per ref
  out.n = v;
  return true;
}

}  // namespace athena::engine
