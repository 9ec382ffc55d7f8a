#include "compiler/revealed_text.h"

#include <algorithm>

#include "athena/limits.h"
#include "compiler/accname.h"
#include "compiler/node_state.h"
#include "compiler/text.h"

namespace athena::compiler {
namespace {

bool breaks_words(std::string_view t) {
  return t == "br" || t == "p" || t == "div" || t == "li" || t == "ul" || t == "ol" || t == "tr" || t == "td" ||
         t == "th" || t == "dt" || t == "dd" || t == "section" || t == "article" || t == "blockquote" || t == "pre" ||
         t == "table" || t == "figcaption";
}

// Chrome joins plain inline boxes into one run of words (accname.cpp's rule too).
bool plain_inline(const Dom& dom, int c) {
  const std::string_view d = dom.style(c, kDisplay);
  return d.empty() || d == "inline" || d == "contents";
}

bool has_text_child(const Dom& dom, int i) {
  for (int c = dom.nodes[static_cast<std::size_t>(i)].first_child; c >= 0;
       c = dom.nodes[static_cast<std::size_t>(c)].next)
    if (dom.is_text(c) && !is_blank(dom.node_value(c))) return true;
  return false;
}

/// Words in an inline piece: its own text, or its children's (one level down is enough for
/// `<span><b>1</b></span>`; the walk stays bounded on page-controlled nesting).
bool inline_words(const Dom& dom, int i) {
  if (has_text_child(dom, i)) return true;
  for (int c = dom.nodes[static_cast<std::size_t>(i)].first_child; c >= 0;
       c = dom.nodes[static_cast<std::size_t>(c)].next)
    if (dom.is_element(c) && has_text_child(dom, c)) return true;
  return false;
}

}  // namespace

bool is_figure_role(std::string_view role) {
  return role == "image" || role == "progressbar" || role == "meter";
}

std::string figure_words(const Dom& dom, const Visibility& vis, int i, std::string_view role) {
  if (role == "image") return accessible_name(dom, vis, i, role);
  return measure_value(dom, i);
}

bool is_container_role(std::string_view role) {
  return role == "tabpanel" || role == "dialog" || role == "alertdialog";
}

bool is_text_container(const Dom& dom, int i) {
  const std::string_view t = dom.tag(i);
  return t == "ul" || t == "ol" || t == "dl" || t == "menu" || t == "table";
}

bool is_text_block(const Dom& dom, int i) {
  const std::string_view t = dom.tag(i);
  // A label or legend names a control the agent already sees with that name.
  if (t == "label" || t == "legend") return false;
  if (t == "p" || t == "li" || t == "dd" || t == "dt" || t == "blockquote" || t == "pre" || t == "figcaption" ||
      t == "td" || t == "th")
    return true;
  if (has_text_child(dom, i)) return true;
  // A line made of inline pieces (`<strong>1</strong><span> item</span><span> left</span>`) is one
  // block of words, not a line per piece: the pieces' parent is the block when every child is
  // a plain inline box and two or more of them hold words.
  int with_words = 0;
  for (int c = dom.nodes[static_cast<std::size_t>(i)].first_child; c >= 0;
       c = dom.nodes[static_cast<std::size_t>(c)].next) {
    if (!dom.is_element(c)) continue;
    if (dom.tag(c) == "br" || dom.tag(c) == "wbr") continue;
    if (!plain_inline(dom, c)) return false;
    if (inline_words(dom, c)) ++with_words;
  }
  return with_words >= 2;
}

std::string block_text(const Dom& dom, const Visibility& vis, int i, const std::vector<std::string>& role,
                       const std::vector<char>& opaque, std::size_t max_bytes) {
  std::string out;
  // Iterative pre-order walk of the block's subtree (no recursion: depth is page-controlled).
  const int depth0 = dom.nodes[static_cast<std::size_t>(i)].depth;
  int c = dom.nodes[static_cast<std::size_t>(i)].first_child;
  auto next_after = [&](int n) {  // next node in pre-order that skips n's subtree, or -1 outside the block
    while (n >= 0 && n != i) {
      const Node& node = dom.nodes[static_cast<std::size_t>(n)];
      if (node.next >= 0) return node.next;
      n = node.parent;
      if (n >= 0 && dom.nodes[static_cast<std::size_t>(n)].depth <= depth0) return -1;
    }
    return -1;
  };
  while (c >= 0 && out.size() <= max_bytes) {
    const Node& node = dom.nodes[static_cast<std::size_t>(c)];
    if (dom.is_text(c)) {
      append_collapsed(out, dom.node_value(c));
      c = next_after(c);
      continue;
    }
    const bool skip = !dom.is_element(c) || opaque[static_cast<std::size_t>(c)] || vis.aria_hidden(c) ||
                      vis.css_hidden(c) || is_text_container(dom, c);
    // An image or a gauge says its words where it sits, as Chrome reads the block: "Rated
    // <img alt="4 of 5 stars">", "Uploaded <progress value=0.7>" (what it holds is no text).
    if (!skip && is_figure_role(role[static_cast<std::size_t>(c)])) {
      const std::string words = figure_words(dom, vis, c, role[static_cast<std::size_t>(c)]);
      if (!words.empty()) {
        out.push_back(' ');
        out += words;
        out.push_back(' ');
      }
      c = next_after(c);
      continue;
    }
    // A block-level child or a line break keeps the words on either side apart.
    if (!skip && breaks_words(node.tag)) out.push_back(' ');
    if (!skip && node.first_child >= 0) {
      c = node.first_child;
      continue;
    }
    c = next_after(c);
  }
  return collapse_ws(out);
}

/// The cells of a row: its td/th or cell-role descendants (not inside a nested row or table),
/// or, in a row that has none, its element children.
std::vector<int> cells_of(const Dom& dom, int row, const std::vector<std::string>& role) {
  std::vector<int> out, stack;
  for (int c = dom.nodes[static_cast<std::size_t>(row)].first_child; c >= 0;
       c = dom.nodes[static_cast<std::size_t>(c)].next)
    stack.push_back(c);
  std::reverse(stack.begin(), stack.end());
  while (!stack.empty() && out.size() < limits::kMaxRowCells) {
    const int c = stack.back();
    stack.pop_back();
    if (!dom.is_element(c)) continue;
    const std::string_view t = dom.tag(c), r = role[static_cast<std::size_t>(c)];
    if (t == "td" || t == "th" || r == "cell" || r == "gridcell" || r == "columnheader" || r == "rowheader") {
      out.push_back(c);
      continue;
    }
    if (t == "tr" || t == "table" || r == "row" || r == "grid" || r == "table") continue;
    std::vector<int> kids;
    for (int k = dom.nodes[static_cast<std::size_t>(c)].first_child; k >= 0;
         k = dom.nodes[static_cast<std::size_t>(k)].next)
      kids.push_back(k);
    stack.insert(stack.end(), kids.rbegin(), kids.rend());
  }
  if (out.empty())
    for (int c = dom.nodes[static_cast<std::size_t>(row)].first_child; c >= 0 && out.size() < limits::kMaxRowCells;
         c = dom.nodes[static_cast<std::size_t>(c)].next)
      if (dom.is_element(c)) out.push_back(c);
  return out;
}

/// A row's cells in order, each without the words of its controls (they have their own lines).
std::string row_text(const Dom& dom, const Visibility& vis, int row, const std::vector<std::string>& role,
                     const std::vector<char>& opaque) {
  std::string out;
  bool any = false;
  for (const int c : cells_of(dom, row, role)) {
    if (vis.aria_hidden(c) || vis.css_hidden(c)) continue;
    // A cell that is a control itself (a sortable header) is its own line: an empty cell here.
    const std::string cell = opaque[static_cast<std::size_t>(c)]
                                 ? std::string()
                                 : block_text(dom, vis, c, role, opaque, limits::kMaxRevealedTextChars);
    if (any) out += " | ";
    out += cell;
    any = any || !cell.empty();
    if (out.size() > limits::kMaxRevealedTextChars) break;
  }
  // Cells that hold only controls (their own lines) end a row with nothing: no trailing " |".
  while (out.size() >= 3 && out.compare(out.size() - 3, 3, " | ") == 0) out.resize(out.size() - 3);
  while (!out.empty() && out.back() == '|') {
    out.pop_back();
    while (!out.empty() && out.back() == ' ') out.pop_back();
  }
  return any ? out : std::string();
}

std::string page_title(const Dom& dom) {
  for (const int i : dom.order) {
    const Node& n = dom.nodes[static_cast<std::size_t>(i)];
    if (n.doc != 0) break;
    if (n.tag != "title" || n.parent < 0 || dom.tag(n.parent) != "head") continue;
    std::string t;
    for (int c = n.first_child; c >= 0; c = dom.nodes[static_cast<std::size_t>(c)].next)
      if (dom.is_text(c)) append_collapsed(t, dom.node_value(c));
    trim_in_place(t);
    return t;
  }
  return collapse_ws(dom.raw.docs.empty() ? std::string_view{} : dom.raw.docs[0].title);
}

}  // namespace athena::compiler
