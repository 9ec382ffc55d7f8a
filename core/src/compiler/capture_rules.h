// The rules of a capture, whatever its form (JSON text or the binary form of
// docs/capture-format.md): string indices in range, parents before children, node types, rare
// data, layout entries, content documents, frames. They are written once, here, and both readers
// (capture.cpp for JSON, capture_binary.cpp for the binary form) feed them through a Source that
// checks only its own form's shape. So the two forms cannot drift apart, and an error in either
// names the same field the same way.
//
// A Source document provides (each returns false after reporting through Ctx):
//   open_nodes(c, np, n)             the node arrays exist; n = node count
//   check_nodes(c, np)               the other node arrays have n entries
//   parent/node_type/node_name/node_value/backend(c, i, path, out)   one integer each
//   has_value(), has_attrs(), attrs(c, i, path, list)   list.size(), list.get(c, k, path, out)
//   rare(c, rp, key, has_value, list, present)           list.index/value(c, k, path, out)
//   open_layout(c, lp, m), layout_node(c, k, path, out), bounds(c, k, path, rect),
//   styles(c, k, path, list), has_text(), text(c, k, path, out), client(c, k, path, x, y)
//   frame_id/url/title(c, dp, out, present), scroll(c, dp, x, y)
#pragma once

#include <array>
#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "athena/limits.h"
#include "compiler/capture.h"
#include "compiler/css_content.h"

namespace athena::compiler::capture_rules {

// A field path built only when an error needs it: formatting "x.nodes.parentIndex[7]" for every
// value read would cost more than reading the capture.
struct Lazy {  // base.field[index]
  const std::string& base;
  const char* field;
  std::size_t index;
};
struct Lazy2 {  // base.field[index][sub]
  const std::string& base;
  const char* field;
  std::size_t index, sub;
};
inline std::string to_path(const std::string& p) {
  return p;
}
inline std::string to_path(const Lazy& l) {
  return l.base + (l.field[0] ? "." : "") + l.field + "[" + std::to_string(l.index) + "]";
}
inline std::string to_path(const Lazy2& l) {
  return l.base + "." + l.field + "[" + std::to_string(l.index) + "][" + std::to_string(l.sub) + "]";
}

// First error wins; every reader returns false after setting it, so callers just bail out.
struct Ctx {
  Error err;
  bool failed = false;
  bool fail(ErrorCode code, std::string msg) {
    if (!failed) err = make_error(code, std::move(msg));
    failed = true;
    return false;
  }
  template <typename P>
  bool bad(const P& path, const std::string& what) {
    return fail(ErrorCode::kMalformedCapture,
                to_path(path) + ": " + what + " (see docs/capture-format.md; re-capture the page)");
  }
};

inline std::string at(const std::string& path, std::size_t i) {
  return path + "[" + std::to_string(i) + "]";
}

/// Slots of the computed styles the compiler reads, by position in the capture's "styles" list.
inline void style_positions(const std::vector<std::string_view>& names, std::array<int, kStyleCount>& pos) {
  static const char* const kNames[kStyleCount] = {"display",  "visibility", "opacity", "z-index",
                                                  "position", "overflow",   "content"};
  pos.fill(-1);
  for (std::size_t i = 0; i < names.size(); ++i)
    for (int slot = 0; slot < kStyleCount; ++slot)
      if (names[i] == kNames[slot] && pos[static_cast<std::size_t>(slot)] < 0)
        pos[static_cast<std::size_t>(slot)] = static_cast<int>(i);
}

/// One frame of a frame tree, read at `path`: ids must be there, and the page has a bounded number.
inline bool add_frame(Ctx& c, const RawFrame& fr, const std::string& path, std::vector<RawFrame>& out) {
  if (fr.id.empty()) return c.bad(path + ".frame.id", "empty frame id");
  if (fr.loader_id.empty()) return c.bad(path + ".frame.loaderId", "empty loader id");
  out.push_back(fr);
  if (out.size() > limits::kMaxFrames)
    return c.fail(ErrorCode::kInputTooLarge,
                  "capture: more than " + std::to_string(limits::kMaxFrames) + " frames (limits::kMaxFrames)");
  return true;
}

/// The documents of one DOMSnapshot session, read through a Source document type.
class SnapshotRules {
 public:
  SnapshotRules(Ctx& c, const std::vector<std::string_view>& strings, std::string path)
      : c_(c), strings_(strings), path_(std::move(path)) {}

  /// Reads documents[di] (of `count`, the first landing at cap.docs[first]) into `d`.
  template <typename Doc>
  bool document(Doc& doc, std::size_t di, int first, int count, const std::array<int, kStyleCount>& style_pos,
                RawDocument& d, std::size_t& total_nodes) {
    const std::string dp = at(path_ + ".documents", di);
    long long v = 0;
    bool present = false;
    if (!doc.frame_id(c_, dp, v) || !str(v, dp + ".frameId", d.frame_id, false)) return false;
    if (!doc.url(c_, dp, v, present) || (present && !str(v, dp + ".documentURL", d.url))) return false;
    if (!doc.title(c_, dp, v, present) || (present && !str(v, dp + ".title", d.title))) return false;
    if (!doc.scroll(c_, dp, d.scroll_x, d.scroll_y)) return false;
    if (!nodes(doc, dp, d, total_nodes) || !layout(doc, dp, d, style_pos)) return false;
    // contentDocumentIndex: documents are listed as they are reached, so an iframe's document
    // always comes after the document holding the iframe; each is some iframe's at most once.
    return rare(doc, dp + ".nodes", "contentDocumentIndex", d.size(), true,
                [&](std::size_t node, auto& list, std::size_t k, const Lazy& p) {
                  long long doc_index = 0;
                  if (!list.value(c_, k, p, doc_index)) return false;
                  if (doc_index <= static_cast<long long>(di) || doc_index >= count)
                    return c_.bad(p, "document index " + std::to_string(doc_index) +
                                         " is not a later document of this snapshot (" + std::to_string(count) +
                                         " documents)");
                  d.content_doc[node] = first + static_cast<int>(doc_index);
                  return true;
                });
  }

  /// After all documents of the session: no document is the content of two iframes.
  bool content_documents_unique(const RawCapture& cap, int first, int count) {
    std::vector<char> used(static_cast<std::size_t>(count), 0);
    for (int di = first; di < first + count; ++di)
      for (const int k : cap.docs[static_cast<std::size_t>(di)].content_doc) {
        if (k < 0) continue;
        if (used[static_cast<std::size_t>(k - first)]++)
          return c_.bad(path_ + ".documents",
                        "document " + std::to_string(k - first) + " is the content of two iframes");
      }
    return true;
  }

 private:
  Ctx& c_;
  const std::vector<std::string_view>& strings_;
  std::string path_;  // "snapshot" or "oopifs[2].snapshot"

  // A string-table index: -1 means "absent" (empty); anything else must be in range.
  template <typename P>
  bool str(long long i, const P& p, std::string_view& out, bool allow_absent = true) {
    if (i == -1 && allow_absent) {
      out = {};
      return true;
    }
    if (i < 0 || static_cast<std::size_t>(i) >= strings_.size())
      return c_.bad(p, "string index " + std::to_string(i) + " out of range (" + path_ + ".strings has " +
                           std::to_string(strings_.size()) + ")");
    out = strings_[static_cast<std::size_t>(i)];
    return true;
  }

  // RareStringData / RareIntegerData / RareBooleanData ({index: [...], value?: [...]}): calls
  // fn(node, list, k, value path) for each entry after checking the node index. Rare data is optional.
  template <typename Doc, typename Fn>
  bool rare(Doc& doc, const std::string& np, const char* key, std::size_t n, bool has_value, Fn fn) {
    const std::string rp = np + "." + key;
    typename Doc::Rare list;
    bool present = false;
    if (!doc.rare(c_, rp, key, has_value, list, present)) return false;
    if (!present) return true;
    for (std::size_t k = 0; k < list.size(); ++k) {
      long long node = 0;
      if (!list.index(c_, k, Lazy{rp, "index", k}, node)) return false;
      if (node < 0 || static_cast<std::size_t>(node) >= n)
        return c_.bad(Lazy{rp, "index", k},
                      "node index " + std::to_string(node) + " out of range (" + std::to_string(n) + " nodes)");
      if (!fn(static_cast<std::size_t>(node), list, k, Lazy{rp, "value", k})) return false;
    }
    return true;
  }

  template <typename Doc>
  bool nodes(Doc& doc, const std::string& dp, RawDocument& d, std::size_t& total_nodes) {
    const std::string np = dp + ".nodes";
    std::size_t n = 0;
    if (!doc.open_nodes(c_, np, n)) return false;
    total_nodes += n;
    if (total_nodes > limits::kMaxNodes)
      return c_.fail(ErrorCode::kInputTooLarge, "capture: more than " + std::to_string(limits::kMaxNodes) +
                                                    " DOM nodes (limits::kMaxNodes); capture a smaller page or frame");
    if (!doc.check_nodes(c_, np)) return false;

    d.parent.resize(n);
    d.type.resize(n);
    d.name.resize(n);
    d.value.resize(n);
    d.backend.resize(n);
    d.flags.assign(n, 0);
    d.input_value.resize(n);
    d.text_value.resize(n);
    d.pseudo.resize(n);
    d.generated.resize(n);
    d.content_doc.assign(n, -1);
    d.layout.assign(n, -1);
    d.attr_begin.assign(n + 1, 0);
    const bool has_value = doc.has_value(), has_attrs = doc.has_attrs();
    typename Doc::List attrs;
    for (std::size_t i = 0; i < n; ++i) {
      long long v = 0;
      if (!doc.parent(c_, i, Lazy{np, "parentIndex", i}, v)) return false;
      // DOMSnapshot lists nodes in pre-order, so a parent always comes first. Requiring it
      // rules out cycles and forward references in one comparison.
      if (v < -1 || v >= static_cast<long long>(i))
        return c_.bad(
            Lazy{np, "parentIndex", i},
            "parent " + std::to_string(v) + " is not an earlier node (a cycle, or not DOMSnapshot's pre-order)");
      d.parent[i] = static_cast<int>(v);
      if (!doc.node_type(c_, i, Lazy{np, "nodeType", i}, v)) return false;
      if (v < 0 || v > 12)
        return c_.bad(Lazy{np, "nodeType", i}, "node type " + std::to_string(v) + " is not a DOM node type");
      d.type[i] = static_cast<std::uint8_t>(v);
      if (!doc.node_name(c_, i, Lazy{np, "nodeName", i}, v) || !str(v, Lazy{np, "nodeName", i}, d.name[i], false))
        return false;
      if (has_value &&
          (!doc.node_value(c_, i, Lazy{np, "nodeValue", i}, v) || !str(v, Lazy{np, "nodeValue", i}, d.value[i])))
        return false;
      if (!doc.backend(c_, i, Lazy{np, "backendNodeId", i}, v)) return false;
      d.backend[i] = v;
      if (has_attrs) {
        if (!doc.attrs(c_, i, Lazy{np, "attributes", i}, attrs)) return false;
        if (attrs.size() % 2)
          return c_.bad(Lazy{np, "attributes", i}, "odd number of entries (name/value pairs expected)");
        for (std::size_t k = 0; k < attrs.size(); k += 2) {
          Attr a{};
          long long name = 0, value = 0;
          if (!attrs.get(c_, k, Lazy2{np, "attributes", i, k}, name) ||
              !str(name, Lazy2{np, "attributes", i, k}, a.name, false) ||
              !attrs.get(c_, k + 1, Lazy2{np, "attributes", i, k + 1}, value) ||
              !str(value, Lazy2{np, "attributes", i, k + 1}, a.value))
            return false;
          d.attrs.push_back(a);
        }
      }
      d.attr_begin[i + 1] = static_cast<std::uint32_t>(d.attrs.size());
    }

    auto flag = [&](const char* key, std::uint16_t bit) {
      return rare(doc, np, key, n, false, [&](std::size_t node, auto&, std::size_t, const Lazy&) {
        d.flags[node] |= bit;
        return true;
      });
    };
    if (!flag("inputChecked", kChecked) || !flag("optionSelected", kOptionSelected) || !flag("isClickable", kClickable))
      return false;
    auto rare_str = [&](const char* key, std::vector<std::string_view>* out, std::uint16_t bit) {
      return rare(doc, np, key, n, true, [&](std::size_t node, auto& list, std::size_t k, const Lazy& p) {
        long long v = 0;
        std::string_view s;
        if (!list.value(c_, k, p, v) || !str(v, p, s)) return false;
        if (out) (*out)[node] = s;
        if (key == std::string_view("shadowRootType")) {
          d.flags[node] |= (s == "user-agent") ? kInUaShadow : kInShadow;
        } else {
          d.flags[node] |= bit;
        }
        return true;
      });
    };
    return rare_str("inputValue", &d.input_value, kHasInputValue) &&
           rare_str("textValue", &d.text_value, kHasTextValue) && rare_str("pseudoType", &d.pseudo, kPseudo) &&
           rare_str("shadowRootType", nullptr, 0);
  }

  /// A pseudo element's CSS alternative text (its strings, and attr() of the element it belongs
  /// to; a counter gives nothing, as in Chrome) becomes its generated text for names.
  static void alt_text(RawDocument& d, std::size_t ni, const CssContent& gen) {
    d.flags[ni] = static_cast<std::uint16_t>(d.flags[ni] | kGeneratedAlt);
    std::string alt;
    const int owner = d.parent[ni];
    for (const ContentItem& it : gen.alt) {
      if (it.kind == ContentItem::kString) alt += it.text;
      if (it.kind != ContentItem::kAttr || owner < 0) continue;
      for (std::uint32_t a = d.attr_begin[static_cast<std::size_t>(owner)];
           a < d.attr_begin[static_cast<std::size_t>(owner) + 1]; ++a)
        if (d.attrs[a].name == it.text) alt += d.attrs[a].value;
    }
    d.joined.push_back(std::make_unique<std::string>(std::move(alt)));
    d.generated[ni] = *d.joined.back();
  }

  template <typename Doc>
  bool layout(Doc& doc, const std::string& dp, RawDocument& d, const std::array<int, kStyleCount>& style_pos) {
    const std::string lp = dp + ".layout";
    std::size_t m = 0;
    if (!doc.open_layout(c_, lp, m)) return false;
    d.layouts.resize(m);
    const bool has_text = doc.has_text();
    typename Doc::List styles;
    // The pseudo element whose layout objects are being read (they follow its box) and its `content`.
    std::size_t gen_node = static_cast<std::size_t>(-1), gen_piece = 0;
    bool gen_known = false;
    CssContent gen;
    for (std::size_t k = 0; k < m; ++k) {
      long long node = 0;
      if (!doc.layout_node(c_, k, Lazy{lp, "nodeIndex", k}, node)) return false;
      if (node < 0 || static_cast<std::size_t>(node) >= d.size())
        return c_.bad(Lazy{lp, "nodeIndex", k},
                      "node index " + std::to_string(node) + " out of range (" + std::to_string(d.size()) + " nodes)");
      RawLayout& L = d.layouts[k];
      if (!doc.bounds(c_, k, Lazy{lp, "bounds", k}, L.bounds)) return false;
      if (!doc.styles(c_, k, Lazy{lp, "styles", k}, styles)) return false;
      for (int slot = 0; slot < kStyleCount; ++slot) {
        const int pos = style_pos[static_cast<std::size_t>(slot)];
        if (pos < 0 || static_cast<std::size_t>(pos) >= styles.size()) continue;
        const Lazy2 sp{lp, "styles", k, static_cast<std::size_t>(pos)};
        long long v = 0;
        if (!styles.get(c_, static_cast<std::size_t>(pos), sp, v) ||
            !str(v, sp, L.style[static_cast<std::size_t>(slot)]))
          return false;
      }
      if (has_text) {
        long long v = 0;
        if (!doc.text(c_, k, Lazy{lp, "text", k}, v) || !str(v, Lazy{lp, "text", k}, L.text)) return false;
      }
      if (!doc.client(c_, k, Lazy{lp, "clientRects", k}, L.client_left, L.client_top)) return false;
      // A pseudo element's generated content (::after { content: "x" }) is the text of its own
      // layout objects after its box, one per item of `content`: Chrome names from them in order,
      // but for a counter's (`"Step " counter(step) ": "` names "Step : "), and from the
      // alternative text alone when there is one (`"★" / "Favourite"` names "Favourite").
      const auto ni = static_cast<std::size_t>(node);
      if ((d.flags[ni] & kPseudo) && d.layout[ni] < 0) {
        gen_node = ni;
        gen_piece = 0;
        gen_known = parse_css_content(L.style[kContent], gen);
        if (gen_known && gen.has_alt)
          alt_text(d, ni, gen);
        else if (!L.text.empty())
          d.generated[ni] = L.text;  // no box of its own: its text is the piece
      } else if ((d.flags[ni] & kPseudo) && !L.text.empty()) {
        const std::size_t piece = gen_node == ni ? gen_piece++ : gen.items.size();
        const bool counter =
            gen_known && gen_node == ni && piece < gen.items.size() && gen.items[piece].kind == ContentItem::kCounter;
        if ((d.flags[ni] & kGeneratedAlt) || counter) {
          // left out of names
        } else if (d.generated[ni].empty()) {
          d.generated[ni] = L.text;
        } else {
          d.joined.push_back(std::make_unique<std::string>(d.generated[ni]));
          d.joined.back()->append(L.text);
          d.generated[ni] = *d.joined.back();
        }
      } else if ((d.flags[ni] & kPseudo) && gen_node == ni) {
        ++gen_piece;  // an item without text (an image, an empty string) still takes its place
      } else if (!L.text.empty() && d.generated[ni].empty()) {
        d.generated[ni] = L.text;
      }
      // A node can own several layout objects (e.g. ::first-letter); its first box is the element's.
      if (d.layout[ni] < 0) d.layout[ni] = static_cast<int>(k);
    }
    return true;
  }
};

}  // namespace athena::compiler::capture_rules
