// The page as one flat tree: every document of every session (main, same-process iframes,
// out-of-process iframes) linked into a single composed tree, in the order Chrome renders it.
//
// Chrome's DOMSnapshot already walks the flat tree (a shadow host's children are its shadow
// tree's, a <slot>'s are its assigned nodes). A capture in DOM shape (shadow roots as
// #document-fragment children, as DOM.getDocument gives them) is flattened here the same
// way, assigning light-DOM children to slots as the DOM spec does.
#pragma once

#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "compiler/capture.h"

namespace athena::compiler {

struct Node {
  int doc = -1;                                  // RawCapture::docs index
  int local = -1;                                // index inside that document
  int parent = -1, first_child = -1, next = -1;  // flat tree links (-1: none)
  int depth = 0;
  int scope = -1;                // shadow host whose shadow tree holds the node; -1 for the document tree
  int frame = -1;                // RawCapture::frames index of the node's document; -1 when unknown
  std::uint32_t attr_count = 0;  // its attributes: attrs[0, attr_count)
  int generated = -1;            // index of its ::before / ::after text in Dom::generated (-1: none)
  bool linked = false;           // reachable from the main document (others are ignored)
  bool is_host = false;          // a shadow host
  bool shadow = false;           // lives in an author shadow tree (open or closed)
  bool rendered = false;         // has a layout box itself or somewhere below (display: contents)
  std::uint8_t type = 0;         // DOM nodeType
  // Lower-case element name; "#text", "#document", ... Views the capture, or the Dom's one
  // lower-cased copy of each distinct name: no string per node.
  std::string_view tag;
  Rect box;  // main-frame viewport CSS px (valid when layout != nullptr)
  const RawLayout* layout = nullptr;
  const Attr* attrs = nullptr;  // in its RawDocument::attrs (kept here: attr() is the hottest lookup)
};

/// Generated text (CSS content) of an element's ::before and ::after.
struct GeneratedText {
  std::string_view before, after;
  bool before_alt = false, after_alt = false;  // CSS alternative text: Chrome makes it a word of its own
};

class ChildLists;

class Dom {
 public:
  /// Links the documents of `raw` into one tree. Never fails: unreachable or too-deep nodes are
  /// left unlinked and reported in `warnings`.
  Dom(const RawCapture& raw, std::vector<std::string>& warnings);
  Dom(const Dom&) = delete;  // nodes view strings the Dom owns
  Dom& operator=(const Dom&) = delete;

  const RawCapture& raw;
  std::vector<Node> nodes;
  std::vector<int> order;                // linked nodes in flat-tree pre-order (document order)
  int root = -1;                         // the main #document
  std::vector<GeneratedText> generated;  // Node::generated indexes it (few elements have any)

  bool is_element(int i) const { return nodes[static_cast<std::size_t>(i)].type == 1; }
  bool is_text(int i) const { return nodes[static_cast<std::size_t>(i)].type == 3; }
  std::string_view tag(int i) const { return nodes[static_cast<std::size_t>(i)].tag; }
  std::uint16_t flags(int i) const;
  std::int64_t backend(int i) const;
  std::string_view node_value(int i) const;
  std::string_view input_value(int i) const;
  std::string_view text_value(int i) const;
  /// Attribute value; `found` says whether it is present (an empty value is still present).
  std::string_view attr(int i, std::string_view name, bool* found = nullptr) const;
  bool has_attr(int i, std::string_view name) const;
  /// Style value from the capture ("" when the node has no layout box or the style was not captured).
  std::string_view style(int i, StyleSlot s) const;

  /// Element with this id in the same tree scope as `from` (falls back to the whole document).
  int by_id(int from, std::string_view id) const;
  /// The elements an ID-reference list attribute of `from` names (aria-controls, aria-labelledby,
  /// ...), in the list's order, each resolved by by_id(); ids that match nothing are skipped.
  std::vector<int> idrefs(int from, std::string_view attr) const;
  /// The element whose aria-owns takes `i` in (-1: none). As in Chrome, the first owner in document
  /// order wins, and an element never owns itself or one of its ancestors.
  int owner_of(int i) const;
  /// The elements `i` owns through aria-owns (those owner_of() gives back to it), in its list's order.
  std::vector<int> owned(int i) const;
  /// <label for=id> elements pointing at `control`, in document order.
  const std::vector<int>* labels_for(int control) const;
  /// "sl-dialog/sl-button": tags of the shadow hosts holding `i`, outermost first.
  std::string shadow_path(int i) const;

  /// Memo for per-table facts (roles.cpp's data-table test), so a table is examined once,
  /// not once per cell: -1 unknown, 0 no, 1 yes. Indexed like `nodes`.
  mutable std::vector<signed char> data_table_memo;

 private:
  // An id within a tree scope (scope_key), hashed once for both maps it goes into.
  struct ScopedId {
    std::uint64_t scope;
    std::string_view id;
    std::size_t hash;
    bool operator==(const ScopedId& o) const { return scope == o.scope && id == o.id; }
  };
  struct ScopedIdHash {
    std::size_t operator()(const ScopedId& k) const {
      return k.hash ^ static_cast<std::size_t>(k.scope * 0x9E3779B97F4A7C15ull);
    }
  };

  std::vector<int> base_;            // global index of each document's node 0
  std::deque<std::string> lowered_;  // one lower-cased copy per distinct mixed-case name (stable addresses)
  // First element (document order) with an id in its whole document (key scope -2), and, only
  // where that one lives in another tree scope, the first within each scope (see by_id).
  std::unordered_map<ScopedId, int, ScopedIdHash> first_id_, first_id_in_scope_;
  std::unordered_map<std::uint64_t, std::unordered_map<std::string_view, std::vector<int>>> label_for_;
  std::unordered_map<int, int> owner_of_;  // aria-owns: owned element -> its owner (few pages have any)
  std::uint64_t scope_key(int doc, int scope) const;
  void build_children(ChildLists& kids, std::vector<std::string>& warnings);
  void place_oopifs(ChildLists& kids, std::vector<std::string>& warnings);
  void link(const ChildLists& kids, std::vector<std::string>& warnings);
  /// True when the element children [first, last) of one parent that carry aria-rowindex are not in its
  /// order; then `out` is the children with those rows sorted by it, each in a slot a row held.
  bool rows_out_of_order(const int* first, const int* last, std::vector<int>& out) const;
  void index_ids();
};

}  // namespace athena::compiler
