// One file past 400 lines: Dom is the capture's tree and every lookup the rules make of it (children, frames and shadow
// roots placed, row order, ids, labels), built over one index.
#include "compiler/dom_view.h"

#include <algorithm>
#include <iterator>
#include <utility>

#include "athena/limits.h"
#include "compiler/text.h"

namespace athena::compiler {

// Child lists while the tree is built. Nearly all come straight from the capture's parent links:
// those sit in one flat array, filled per document by a counting sort (one allocation, not one
// per parent, which was most of Dom's time in wasm). The few lists rewritten afterwards (shadow
// hosts, slots, iframes given an OOPIF's document) are copied out to a vector of their own.
class ChildLists {
 public:
  struct Range {
    const int* first;
    const int* last;
    const int* begin() const { return first; }
    const int* end() const { return last; }
    bool empty() const { return first == last; }
  };

  explicit ChildLists(std::size_t n) : begin_(n, 0), count_(n, 0), own_(n, -1) {}

  Range get(int i) const {
    const auto u = static_cast<std::size_t>(i);
    if (own_[u] >= 0) {
      const std::vector<int>& v = own_lists_[static_cast<std::size_t>(own_[u])];
      return {v.data(), v.data() + v.size()};
    }
    const int* p = flat_.data() + begin_[u];
    return {p, p + count_[u]};
  }
  void set(int i, std::vector<int> list) { own(i) = std::move(list); }
  void push(int i, int child) { own(i).push_back(child); }

  /// Appends the edges `each_edge(add)` yields (add(parent, child), in order) to the lists of
  /// one document's nodes [first, first + n): every edge's parent must be one of them. A list
  /// that has its own vector already (a slot assigned before its document was read) grows there.
  template <typename F>
  void add_document(int first, std::size_t n, F each_edge) {
    const auto lo = static_cast<std::size_t>(first);
    each_edge([&](int p, int) {
      if (own_[static_cast<std::size_t>(p)] < 0) ++count_[static_cast<std::size_t>(p)];
    });
    std::size_t at = flat_.size();
    for (std::size_t u = lo; u < lo + n; ++u) {
      begin_[u] = at;
      at += count_[u];
      count_[u] = 0;  // refilled below as the fill position
    }
    flat_.resize(at);
    each_edge([&](int p, int c) {
      const auto u = static_cast<std::size_t>(p);
      if (own_[u] >= 0)
        own_lists_[static_cast<std::size_t>(own_[u])].push_back(c);
      else
        flat_[begin_[u] + count_[u]++] = c;
    });
  }

 private:
  std::vector<int>& own(int i) {  // copy on first write
    const auto u = static_cast<std::size_t>(i);
    if (own_[u] < 0) {
      const Range r = get(i);
      own_lists_.emplace_back(r.first, r.last);
      own_[u] = static_cast<int>(own_lists_.size()) - 1;
    }
    return own_lists_[static_cast<std::size_t>(own_[u])];
  }

  std::vector<int> flat_;
  std::vector<std::size_t> begin_, count_;  // per node: its run in flat_
  std::vector<int> own_;                    // per node: index in own_lists_, -1 = its run in flat_
  std::vector<std::vector<int>> own_lists_;
};

namespace {

bool has_upper(std::string_view s) {
  for (const char c : s)
    if (c >= 'A' && c <= 'Z') return true;
  return false;
}

}  // namespace

Dom::Dom(const RawCapture& r, std::vector<std::string>& warnings) : raw(r) {
  std::size_t total = 0;
  base_.reserve(raw.docs.size());
  for (const RawDocument& d : raw.docs) {
    base_.push_back(static_cast<int>(total));
    total += d.size();
  }
  nodes.resize(total);
  data_table_memo.assign(total, -1);
  // Element names come upper-case from CDP ("DIV"): each distinct one is lowered once. The
  // small cache keyed by length and end characters skips the hash map for repeated names.
  std::unordered_map<std::string_view, std::string_view> lowered_of;
  struct Recent {
    std::string_view name, lowered;
  };
  Recent recent[64];
  auto tag_of = [&](std::string_view name) -> std::string_view {
    if (!has_upper(name)) return name;  // views the capture, which outlives the Dom
    Recent& slot = recent[(name.size() * 31 + std::size_t{static_cast<unsigned char>(name.front())} * 7 +
                           static_cast<unsigned char>(name.back())) &
                          63];
    if (slot.name.data() != nullptr && slot.name == name) return slot.lowered;
    auto it = lowered_of.find(name);
    if (it == lowered_of.end()) {
      lowered_.push_back(lower(name));
      it = lowered_of.emplace(name, lowered_.back()).first;
    }
    slot = Recent{name, it->second};
    return it->second;
  };
  for (std::size_t di = 0; di < raw.docs.size(); ++di) {
    const RawDocument& d = raw.docs[di];
    for (std::size_t i = 0; i < d.size(); ++i) {
      Node& n = nodes[static_cast<std::size_t>(base_[di]) + i];
      n.doc = static_cast<int>(di);
      n.local = static_cast<int>(i);
      n.type = d.type[i];
      n.tag = n.type == 1 ? tag_of(d.name[i]) : d.name[i];
      n.shadow = (d.flags[i] & kInShadow) != 0;
      if (d.layout[i] >= 0) n.layout = &d.layouts[static_cast<std::size_t>(d.layout[i])];
      n.attrs = d.attrs.data() + d.attr_begin[i];
      n.attr_count = d.attr_begin[i + 1] - d.attr_begin[i];
    }
  }
  if (total == 0) return;
  ChildLists kids(total);
  build_children(kids, warnings);
  place_oopifs(kids, warnings);
  link(kids, warnings);
  index_ids();
}

std::uint16_t Dom::flags(int i) const {
  const Node& n = nodes[static_cast<std::size_t>(i)];
  return raw.docs[static_cast<std::size_t>(n.doc)].flags[static_cast<std::size_t>(n.local)];
}
std::int64_t Dom::backend(int i) const {
  const Node& n = nodes[static_cast<std::size_t>(i)];
  return raw.docs[static_cast<std::size_t>(n.doc)].backend[static_cast<std::size_t>(n.local)];
}
std::string_view Dom::node_value(int i) const {
  const Node& n = nodes[static_cast<std::size_t>(i)];
  return raw.docs[static_cast<std::size_t>(n.doc)].value[static_cast<std::size_t>(n.local)];
}
std::string_view Dom::input_value(int i) const {
  const Node& n = nodes[static_cast<std::size_t>(i)];
  return raw.docs[static_cast<std::size_t>(n.doc)].input_value[static_cast<std::size_t>(n.local)];
}
std::string_view Dom::text_value(int i) const {
  const Node& n = nodes[static_cast<std::size_t>(i)];
  return raw.docs[static_cast<std::size_t>(n.doc)].text_value[static_cast<std::size_t>(n.local)];
}

std::string_view Dom::attr(int i, std::string_view name, bool* found) const {
  const Node& n = nodes[static_cast<std::size_t>(i)];
  for (std::uint32_t k = 0; k < n.attr_count; ++k)
    if (iequals(n.attrs[k].name, name)) {
      if (found) *found = true;
      return n.attrs[k].value;
    }
  if (found) *found = false;
  return {};
}

bool Dom::has_attr(int i, std::string_view name) const {
  bool found = false;
  attr(i, name, &found);
  return found;
}

std::string_view Dom::style(int i, StyleSlot s) const {
  const RawLayout* l = nodes[static_cast<std::size_t>(i)].layout;
  return l ? l->style[s] : std::string_view{};
}

void Dom::build_children(ChildLists& kids, std::vector<std::string>& warnings) {
  for (std::size_t di = 0; di < raw.docs.size(); ++di) {
    const RawDocument& d = raw.docs[di];
    const int base = base_[di];
    // Pseudo elements (::before, ::marker) and user-agent shadow trees are rendering details.
    // Their generated text still counts for names, as in Chrome: kept on the element.
    for (std::size_t i = 0; i < d.size(); ++i) {
      if (!(d.flags[i] & kPseudo) || d.parent[i] < 0 || d.generated[i].empty()) continue;
      Node& owner = nodes[static_cast<std::size_t>(base) + static_cast<std::size_t>(d.parent[i])];
      // Form controls and images have no content of their own: Chrome ignores theirs.
      const bool replaced =
          owner.tag == "input" || owner.tag == "select" || owner.tag == "textarea" || owner.tag == "img";
      if (replaced) continue;
      const bool before = d.pseudo[i] == "before";
      if (!before && d.pseudo[i] != "after") continue;
      if (owner.generated < 0) {
        owner.generated = static_cast<int>(generated.size());
        generated.emplace_back();
      }
      GeneratedText& g = generated[static_cast<std::size_t>(owner.generated)];
      (before ? g.before : g.after) = d.generated[i];
      (before ? g.before_alt : g.after_alt) = (d.flags[i] & kGeneratedAlt) != 0;
    }
    // An iframe's document comes before the iframe's own children, as the capture lists them.
    kids.add_document(base, d.size(), [&](auto&& add) {
      for (std::size_t i = 0; i < d.size(); ++i) {
        if (d.flags[i] & (kPseudo | kInUaShadow)) continue;
        if (d.parent[i] >= 0) add(base + d.parent[i], base + static_cast<int>(i));
        if (d.content_doc[i] >= 0) add(base + static_cast<int>(i), base_[static_cast<std::size_t>(d.content_doc[i])]);
      }
    });
    // DOM-shaped input: a #document-fragment child of an element is its shadow root.
    for (std::size_t i = 0; i < d.size(); ++i) {
      const int host = base + static_cast<int>(i);
      if (d.type[i] != 1) continue;
      int frag = -1;
      for (const int k : kids.get(host))
        if (nodes[static_cast<std::size_t>(k)].type == 11) {
          frag = k;
          break;
        }
      if (frag < 0) continue;  // nearly every element: no allocation
      std::vector<int> light;
      for (const int k : kids.get(host))
        if (k != frag) light.push_back(k);
      nodes[static_cast<std::size_t>(host)].is_host = true;
      // Slots of this shadow tree in tree order, not entering nested shadow roots.
      const ChildLists::Range roots = kids.get(frag);
      std::vector<int> slots, stack(std::make_reverse_iterator(roots.end()), std::make_reverse_iterator(roots.begin()));
      while (!stack.empty()) {
        const int n = stack.back();
        stack.pop_back();
        if (nodes[static_cast<std::size_t>(n)].type == 11) continue;
        nodes[static_cast<std::size_t>(n)].shadow = true;
        if (nodes[static_cast<std::size_t>(n)].tag == "slot") slots.push_back(n);
        const ChildLists::Range ks = kids.get(n);
        for (const int* it = ks.end(); it != ks.begin();) stack.push_back(*--it);
      }
      // Named slot assignment (DOM §4.2.2.3): an element goes to the first slot whose name equals
      // its slot attribute; text and elements without one go to the first default slot.
      std::vector<std::vector<int>> assigned(slots.size());
      for (const int l : light) {
        const std::string_view want =
            nodes[static_cast<std::size_t>(l)].type == 1 ? attr(l, "slot") : std::string_view{};
        if (nodes[static_cast<std::size_t>(l)].type != 1 && nodes[static_cast<std::size_t>(l)].type != 3) continue;
        for (std::size_t s = 0; s < slots.size(); ++s)
          if (attr(slots[s], "name") == want) {
            assigned[s].push_back(l);
            break;
          }
      }
      kids.set(host, std::vector<int>(roots.begin(), roots.end()));
      for (std::size_t s = 0; s < slots.size(); ++s)
        if (!assigned[s].empty()) kids.set(slots[s], std::move(assigned[s]));
    }
  }
  (void)warnings;
}

void Dom::place_oopifs(ChildLists& kids, std::vector<std::string>& warnings) {
  std::vector<char> used(nodes.size(), 0);
  for (std::size_t s = 1; s < raw.sessions.size(); ++s) {
    const RawSession& ses = raw.sessions[s];
    std::string_view parent_frame;
    std::string_view url;
    for (const RawFrame& f : raw.frames)
      if (f.id == ses.frame_id && f.out_of_process) {
        parent_frame = f.parent_id;
        url = f.url;
        break;
      }
    int owner = -1;
    for (int pass = 0; pass < 3 && owner < 0; ++pass) {
      for (std::size_t di = 0; di < raw.docs.size() && owner < 0; ++di) {
        const RawDocument& d = raw.docs[di];
        if (static_cast<int>(di) >= ses.first_doc && static_cast<int>(di) < ses.first_doc + ses.doc_count) continue;
        if (!parent_frame.empty() ? d.frame_id != parent_frame : d.session != 0) continue;
        for (std::size_t i = 0; i < d.size() && owner < 0; ++i) {
          const int g = base_[di] + static_cast<int>(i);
          const std::string_view t = nodes[static_cast<std::size_t>(g)].tag;
          if ((t != "iframe" && t != "frame") || d.content_doc[i] >= 0 || used[static_cast<std::size_t>(g)]) continue;
          // Best evidence first: DOM.getFrameOwner's id, then the src URL, then the first free iframe.
          if ((pass == 0 && ses.owner_backend >= 0 && d.backend[i] == ses.owner_backend) ||
              (pass == 1 && ses.owner_backend < 0 && !url.empty() && attr(g, "src") == url) ||
              (pass == 2 && ses.owner_backend < 0))
            owner = g;
        }
      }
    }
    if (owner < 0) {
      warnings.push_back("oopifs[" + std::to_string(s - 1) + "]: no <iframe> owns frame " + std::string(ses.frame_id) +
                         "; its elements are left out");
      continue;
    }
    used[static_cast<std::size_t>(owner)] = 1;
    if (ses.doc_count > 0) kids.push(owner, base_[static_cast<std::size_t>(ses.first_doc)]);
  }
}

namespace {

/// aria-rowindex as a position (1..), or 0 when it is absent or not one.
std::uint32_t row_index(std::string_view v) {
  while (!v.empty() && (v.front() == ' ' || v.front() == '\t' || v.front() == '\n')) v.remove_prefix(1);
  while (!v.empty() && (v.back() == ' ' || v.back() == '\t' || v.back() == '\n')) v.remove_suffix(1);
  if (v.empty() || v.size() > 9) return 0;
  std::uint32_t n = 0;
  for (const char ch : v) {
    if (ch < '0' || ch > '9') return 0;
    n = n * 10 + static_cast<std::uint32_t>(ch - '0');
  }
  return n;
}

}  // namespace

bool Dom::rows_out_of_order(const int* first, const int* last, std::vector<int>& out) const {
  // A virtualized grid (AG Grid, TanStack) recycles row elements and places them with a
  // transform: after a sort the DOM can hold row 5 before row 2. aria-rowindex is the order the
  // page declares (and shows), so rows that carry it are read in that order, each in one of the
  // slots the rows held; every other child stays where it is.
  if (last - first < 2) return false;
  std::vector<std::pair<std::uint32_t, int>> rows;
  std::vector<std::size_t> slots;
  std::uint32_t prev = 0;
  bool sorted = true;
  for (std::size_t k = 0; first + k != last; ++k) {
    const int c = first[k];
    if (nodes[static_cast<std::size_t>(c)].type != 1) continue;
    const std::uint32_t at = row_index(attr(c, "aria-rowindex"));
    if (at == 0) continue;
    if (at < prev) sorted = false;
    prev = at;
    rows.emplace_back(at, c);
    slots.push_back(k);
  }
  if (sorted) return false;
  std::stable_sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  out.assign(first, last);
  for (std::size_t r = 0; r < rows.size(); ++r) out[slots[r]] = rows[r].second;
  return true;
}

void Dom::link(const ChildLists& kids, std::vector<std::string>& warnings) {
  std::unordered_map<std::string_view, int> frame_index;
  // An OOPIF's own session knows its loaderId best: its entry wins over the parent's view.
  for (std::size_t f = 0; f < raw.frames.size(); ++f)
    if (raw.frames[f].out_of_process || !frame_index.count(raw.frames[f].id))
      frame_index[raw.frames[f].id] = static_cast<int>(f);
  std::vector<int> doc_frame(raw.docs.size(), -1);  // looked up once per document, not per node
  for (std::size_t di = 0; di < raw.docs.size(); ++di) {
    const auto fi = frame_index.find(raw.docs[di].frame_id);
    if (fi != frame_index.end()) doc_frame[di] = fi->second;
  }
  std::vector<double> off_x(raw.docs.size(), 0), off_y(raw.docs.size(), 0);
  root = base_[0];
  bool too_deep = false;
  order.reserve(nodes.size());
  std::vector<int> by_row;  // a parent's children with its rows in aria-rowindex order (rows_out_of_order)
  std::vector<int> stack{root};
  nodes[static_cast<std::size_t>(root)].parent = -1;
  while (!stack.empty()) {
    const int i = stack.back();
    stack.pop_back();
    Node& n = nodes[static_cast<std::size_t>(i)];
    if (n.linked) continue;
    n.linked = true;
    order.push_back(i);
    const RawDocument& d = raw.docs[static_cast<std::size_t>(n.doc)];
    if (n.local == 0) {
      // A document's boxes are in its own coordinates: shift by the iframe's content box
      // (border from clientRects) and the document's own scroll.
      double ox = 0, oy = 0;
      if (n.parent >= 0) {
        const Node& owner = nodes[static_cast<std::size_t>(n.parent)];
        if (owner.layout) {
          ox = owner.box.x + owner.layout->client_left;
          oy = owner.box.y + owner.layout->client_top;
        }
      }
      off_x[static_cast<std::size_t>(n.doc)] = ox - d.scroll_x;
      off_y[static_cast<std::size_t>(n.doc)] = oy - d.scroll_y;
    }
    if (n.layout) {
      n.box = n.layout->bounds;
      if (n.local != 0) {  // the #document's box is the viewport/frame size, not a position
        n.box.x += off_x[static_cast<std::size_t>(n.doc)];
        n.box.y += off_y[static_cast<std::size_t>(n.doc)];
      } else {
        n.box.x = off_x[static_cast<std::size_t>(n.doc)] + d.scroll_x;
        n.box.y = off_y[static_cast<std::size_t>(n.doc)] + d.scroll_y;
      }
    }
    n.frame = doc_frame[static_cast<std::size_t>(n.doc)];
    const ChildLists::Range ks = kids.get(i);
    if (ks.empty()) continue;
    if (static_cast<std::size_t>(n.depth) >= limits::kMaxDepth) {
      too_deep = true;
      continue;
    }
    const int* first = ks.begin();
    const int* last = ks.end();
    if (rows_out_of_order(ks.begin(), ks.end(), by_row)) {
      first = by_row.data();
      last = by_row.data() + by_row.size();
    }
    for (const int* it = last; it != first;) {
      --it;
      Node& c = nodes[static_cast<std::size_t>(*it)];
      if (c.linked) continue;
      c.parent = i;
      c.depth = n.depth + 1;
      if (!c.shadow || c.doc != n.doc) {
        c.scope = -1;
      } else if (n.tag == "slot" && n.scope >= 0) {
        // Assigned to a slot: it belongs to the tree around that slot's host (slot fallback
        // content, rarer, is taken as assigned too).
        c.scope = nodes[static_cast<std::size_t>(n.scope)].scope;
      } else if (n.type == 1 && (n.is_host || !n.shadow || n.tag.find('-') != std::string_view::npos)) {
        // Entering a shadow tree from its host. DOMSnapshot has no shadow-root nodes, so a
        // custom element in a shadow tree whose children are also in one is taken as a host.
        n.is_host = true;
        c.scope = i;
      } else {
        c.scope = n.scope;
      }
      stack.push_back(*it);
    }
  }
  if (too_deep)
    warnings.push_back("DOM deeper than " + std::to_string(limits::kMaxDepth) +
                       " levels (limits::kMaxDepth): deeper elements left out");
  // Sibling links and display:contents-aware "rendered", from pre-order.
  std::vector<int> last(nodes.size(), -1);
  for (const int i : order) {
    const int p = nodes[static_cast<std::size_t>(i)].parent;
    if (p < 0) continue;
    if (last[static_cast<std::size_t>(p)] < 0)
      nodes[static_cast<std::size_t>(p)].first_child = i;
    else
      nodes[static_cast<std::size_t>(last[static_cast<std::size_t>(p)])].next = i;
    last[static_cast<std::size_t>(p)] = i;
  }
  for (auto it = order.rbegin(); it != order.rend(); ++it) {
    Node& n = nodes[static_cast<std::size_t>(*it)];
    if (n.layout) n.rendered = true;
    if (n.rendered && n.parent >= 0) nodes[static_cast<std::size_t>(n.parent)].rendered = true;
  }
}

std::uint64_t Dom::scope_key(int doc, int scope) const {
  return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(doc)) << 32) | static_cast<std::uint32_t>(scope + 2);
}

void Dom::index_ids() {
  const std::hash<std::string_view> hash;
  std::vector<int> owners;  // elements with aria-owns, in document order
  for (const int i : order) {
    if (!is_element(i)) continue;
    const Node& n = nodes[static_cast<std::size_t>(i)];
    bool has = false;
    if (has_attr(i, "aria-owns")) owners.push_back(i);
    const std::string_view id = attr(i, "id", &has);
    if (has && !id.empty()) {
      const std::size_t h = hash(id);
      const auto [first, inserted] = first_id_.emplace(ScopedId{scope_key(n.doc, -2), id, h}, i);
      // Most ids are first in their document and in their scope at once: one entry for both.
      if (!inserted && nodes[static_cast<std::size_t>(first->second)].scope != n.scope)
        first_id_in_scope_.emplace(ScopedId{scope_key(n.doc, n.scope), id, h}, i);
    }
    if (n.tag == "label") {
      const std::string_view f = attr(i, "for", &has);
      if (has && !f.empty()) label_for_[scope_key(n.doc, n.scope)][f].push_back(i);
    }
  }
  for (const int o : owners)
    for (const int r : idrefs(o, "aria-owns")) {
      bool ancestor = false;  // owning an ancestor would make a cycle: Chrome ignores it
      for (int p = o; p >= 0 && !ancestor; p = nodes[static_cast<std::size_t>(p)].parent) ancestor = p == r;
      if (!ancestor) owner_of_.emplace(r, o);
    }
}

int Dom::owner_of(int i) const {
  if (owner_of_.empty()) return -1;
  const auto it = owner_of_.find(i);
  return it == owner_of_.end() ? -1 : it->second;
}

std::vector<int> Dom::owned(int i) const {
  std::vector<int> out;
  if (owner_of_.empty()) return out;
  for (const int r : idrefs(i, "aria-owns"))
    if (owner_of(r) == i && std::find(out.begin(), out.end(), r) == out.end()) out.push_back(r);
  return out;
}

int Dom::by_id(int from, std::string_view id) const {
  // The first element with this id in `from`'s tree scope, else the first in the document.
  const Node& n = nodes[static_cast<std::size_t>(from)];
  const std::size_t h = std::hash<std::string_view>()(id);
  const auto first = first_id_.find(ScopedId{scope_key(n.doc, -2), id, h});
  if (first == first_id_.end()) return -1;
  if (nodes[static_cast<std::size_t>(first->second)].scope == n.scope) return first->second;
  const auto in_scope = first_id_in_scope_.find(ScopedId{scope_key(n.doc, n.scope), id, h});
  return in_scope != first_id_in_scope_.end() ? in_scope->second : first->second;
}

std::vector<int> Dom::idrefs(int from, std::string_view attr_name) const {
  std::vector<int> out;
  std::string_view rest = attr(from, attr_name);
  for (std::string_view tok = first_token(rest); !tok.empty(); tok = first_token(rest)) {
    rest = rest.substr(static_cast<std::size_t>(tok.data() + tok.size() - rest.data()));
    const int ref = by_id(from, tok);
    if (ref >= 0) out.push_back(ref);
  }
  return out;
}

const std::vector<int>* Dom::labels_for(int control) const {
  const Node& n = nodes[static_cast<std::size_t>(control)];
  const std::string_view id = attr(control, "id");
  if (id.empty()) return nullptr;
  const auto m = label_for_.find(scope_key(n.doc, n.scope));
  if (m == label_for_.end()) return nullptr;
  const auto it = m->second.find(id);
  return it == m->second.end() ? nullptr : &it->second;
}

std::string Dom::shadow_path(int i) const {
  std::vector<int> hosts;
  for (int s = nodes[static_cast<std::size_t>(i)].scope; s >= 0 && hosts.size() < 64;
       s = nodes[static_cast<std::size_t>(s)].scope)
    hosts.push_back(s);
  std::string out;
  for (auto it = hosts.rbegin(); it != hosts.rend(); ++it) {
    if (!out.empty()) out += '/';
    out += nodes[static_cast<std::size_t>(*it)].tag;
  }
  return out;
}

}  // namespace athena::compiler
