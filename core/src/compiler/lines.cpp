#include "compiler/lines.h"

#include <algorithm>

#include "athena/limits.h"
#include "compiler/accname.h"
#include "compiler/compile_state.h"
#include "compiler/node_state.h"
#include "compiler/revealed_text.h"
#include "compiler/roles.h"
#include "compiler/text.h"

namespace athena::compiler {

bool is_live(const Dom& dom, int i, std::string_view role, Category& cat) {
  const std::string live = lower(collapse_ws(dom.attr(i, "aria-live")));
  if (role == "alert" || live == "assertive") {
    cat = Category::kAlert;
    return true;
  }
  if (role == "status" || role == "log" || role == "marquee" || role == "timer" || live == "polite") {
    cat = Category::kStatus;
    return true;
  }
  const std::string cls = lower(dom.attr(i, "class"));
  if (cls.find("toast") != std::string::npos || cls.find("snackbar") != std::string::npos) {
    cat = Category::kStatus;
    return true;
  }
  return false;
}

// A container whose name says what its controls answer: a fieldset (named by its legend), or an
// element the page declares a group or radiogroup (an <optgroup> or <details> is no such line).
bool is_group_line(const Dom& dom, int i, std::string_view role) {
  return dom.tag(i) == "fieldset" || role == "radiogroup" || (role == "group" && dom.has_attr(i, "role"));
}

// The outline: a line sits under another when it is inside a nested list, a table row or a
// <details> whose item's first line is that other line (a manual's sub-entries under their
// chapter's link, a row's buttons under the row, a disclosure's text under its summary).
// Containers whose items carry the line they sit under: lists, trees, menus and groups.
bool is_outline_list(const Dom& dom, int i, std::string_view role) {
  const std::string_view t = dom.tag(i);
  return t == "ul" || t == "ol" || t == "menu" || t == "dl" || role == "list" || role == "tree" || role == "group" ||
         role == "menu" || role == "listbox" || role == "directory";
}
// An article (a post of a feed, a card of results): what it holds sits under its first line, its
// title, so a post's Like button is that post's (as a row's buttons are the row's). Not an outline
// item otherwise: an article's words stay its lines, as a section's do.
bool is_article(std::string_view role) {
  return role == "article";
}

// Containers that are their own item: what is inside sits under their first line.
bool is_outline_item(const Dom& dom, int i, std::string_view role) {
  const std::string_view t = dom.tag(i);
  return t == "li" || t == "tr" || t == "details" || role == "listitem" || role == "treeitem" || role == "row";
}

// Lines that give a container its structure: the outline's items (rows, list items), headings.
bool is_structure(const Dom& dom, int i, std::string_view role) {
  return role == "heading" || is_outline_item(dom, i, role);
}

// A table row is one text line: its cells in order, " | " between them.
bool is_row(const Dom& dom, int i, std::string_view role) {
  return dom.tag(i) == "tr" || role == "row";
}

// Words of its own, in a text node of its own (not in a child element).
bool own_words(const Dom& dom, int i) {
  for (int c = dom.nodes[static_cast<std::size_t>(i)].first_child; c >= 0;
       c = dom.nodes[static_cast<std::size_t>(c)].next)
    if (dom.is_text(c) && !is_blank(dom.node_value(c))) return true;
  return false;
}

// An element that is a control only because the page listens on it or lets it take focus, with
// a role that says nothing of its own (a <div>, a <span>, a list item, a paragraph).
bool plain_role(std::string_view role) {
  return role == "generic" || role == "listitem" || role == "paragraph";
}

// Nothing names it: no label, no title (Chrome names a focusable one by its title).
bool unnamed(const Dom& dom, const Visibility& vis, int i, std::string_view role) {
  return is_blank(accessible_name(dom, vis, i, role)) && is_blank(dom.attr(i, "title"));
}

// A composite widget's container (ARIA's tree, grid, tablist, menu, toolbar): its items are what
// the agent aims at.
bool composite_container(std::string_view role) {
  return role == "tree" || role == "treegrid" || role == "grid" || role == "tablist" || role == "menu" ||
         role == "menubar" || role == "toolbar";
}

// A line only because it takes focus: no control's role, no listener, not editable.
bool focus_only(const Dom& dom, int i, std::string_view role) {
  long long ti = -1;
  return parse_int(dom.attr(i, "tabindex"), ti) && ti >= 0 && !is_interactive_role(role) &&
         !(dom.flags(i) & kClickable) && !is_contenteditable(dom, i);
}

// A box that takes focus only to be scrolled by the keyboard (tabindex=0 on a data grid's body, a
// <pre>, a long panel): a plain role, no listener, no name, and text to read in it or below it.
bool reading_box(const Dom& dom, const Visibility& vis, int i, std::string_view role, bool reads_below) {
  return plain_role(role) && !(dom.flags(i) & kClickable) && !is_contenteditable(dom, i) &&
         (reads_below || is_text_block(dom, i)) && unnamed(dom, vis, i, role);
}

// A read-only text box inside a control that the control is named by (Select2 shows its choice in
// `<span role=textbox aria-readonly=true>` inside its combobox, labelled by it): it is how the
// control shows its value, which the control's line already says.
bool shows_value_of(const Dom& dom, int i, std::string_view role, const std::vector<char>& control) {
  if ((role != "textbox" && role != "searchbox") || !attr_true(dom, i, "aria-readonly")) return false;
  const std::string_view id = dom.attr(i, "id");
  if (is_blank(id)) return false;
  int a = dom.nodes[static_cast<std::size_t>(i)].parent;
  for (int k = 0; k < limits::kMaxDisplayHops && a >= 0 && dom.is_element(a);
       ++k, a = dom.nodes[static_cast<std::size_t>(a)].parent) {
    if (!control[static_cast<std::size_t>(a)]) continue;
    for (const int r : dom.idrefs(a, "aria-labelledby"))
      if (r == i) return true;
    return false;
  }
  return false;
}

// A form field a widget library keeps behind its own: Tom Select leaves the page's <select> at
// 1px wide, out of the tab order, and moves its label to its own combobox. The agent acts on the
// widget; the field is nameless noise beside it (and its options, a second list).
bool stand_in(const Dom& dom, const Visibility& vis, int i, std::string_view role) {
  const std::string_view t = dom.tag(i);
  if (t != "select" && t != "input" && t != "textarea") return false;
  long long ti = 0;
  if (!parse_int(dom.attr(i, "tabindex"), ti) || ti >= 0) return false;
  const Rect& box = dom.nodes[static_cast<std::size_t>(i)].box;
  if (box.width > 1 && box.height > 1) return false;
  return is_blank(accessible_name(dom, vis, i, role));
}

// Its one child is an image, a progress bar or a meter, and it has no words of its own.
bool sole_figure(const Dom& dom, int i, const std::vector<std::string>& role) {
  int figures = 0;
  for (int c = dom.nodes[static_cast<std::size_t>(i)].first_child; c >= 0;
       c = dom.nodes[static_cast<std::size_t>(c)].next) {
    if (dom.is_text(c)) {
      if (!is_blank(dom.node_value(c))) return false;
    } else if (dom.is_element(c)) {
      if (!is_figure_role(role[static_cast<std::size_t>(c)]) || ++figures > 1) return false;
    }
  }
  return figures == 1;
}

/// The one control inside element i (pre-order), or -1 when it holds none or more than one.
int sole_control(const Dom& dom, int i, const std::vector<char>& control) {
  int found = -1;
  const int depth0 = dom.nodes[static_cast<std::size_t>(i)].depth;
  int c = dom.nodes[static_cast<std::size_t>(i)].first_child;
  // A heading or a header cell is a few nodes: past the bound it is no one control's words (and
  // headings nested thousands deep cost no more than that each).
  for (std::size_t seen = 0; c >= 0; ++seen) {
    if (seen >= limits::kMaxHeaderCellNodes) return -1;
    const Node& node = dom.nodes[static_cast<std::size_t>(c)];
    if (dom.is_element(c) && control[static_cast<std::size_t>(c)]) {
      if (found >= 0) return -1;
      found = c;
    }
    if (node.first_child >= 0 && !control[static_cast<std::size_t>(c)]) {
      c = node.first_child;
      continue;
    }
    int m = c;
    c = -1;
    while (m >= 0 && m != i) {
      const Node& mn = dom.nodes[static_cast<std::size_t>(m)];
      if (mn.next >= 0) {
        c = mn.next;
        break;
      }
      m = mn.parent;
      if (m >= 0 && dom.nodes[static_cast<std::size_t>(m)].depth <= depth0) break;
    }
  }
  return found;
}

/// A link that only scrolls to a place in this page: a fragment address (not `#` alone, not a
/// hash route `#/…` or `#!…`) and no sign that the page does more on a click (aria-expanded or
/// -controls, a popup, a toggle). Inside a heading it is the heading's permalink (Node.js's `#`,
/// mdBook's whole title). (A capture's isClickable cannot tell: every link with an address has it.)
bool only_scrolls(const Dom& dom, int i, std::string_view role) {
  const std::string_view href = dom.attr(i, "href");
  if (role != "link" || href.size() < 2 || href[0] != '#' || href[1] == '/' || href[1] == '!') return false;
  for (const std::string_view a :
       {"aria-expanded", "aria-controls", "aria-haspopup", "data-toggle", "data-bs-toggle", "role"})
    if (dom.has_attr(i, a)) return false;
  return true;
}

// The walk's first step for every node: what it inherits from its parent, and where it sits in
// the page's outline (which line it goes under).
void inherit_outline(CompileState& st, int i) {
  const Dom& dom = st.dom;
  const auto& role = st.role;
  auto& anchor = st.anchor;
  auto& item = st.item;
  auto& last_term = st.last_term;
  const auto u = static_cast<std::size_t>(i);
  const Node& node = dom.nodes[u];
  if (node.parent >= 0) {
    const auto pu = static_cast<std::size_t>(node.parent);
    st.region[u] = st.region[pu];
    st.landmark[u] = st.landmark[pu];
    st.z[u] = st.z[pu];
    st.ov[u] = st.ov[pu];
    st.in_live[u] = st.in_live[pu];
    st.in_editable[u] = st.in_editable[pu] || st.editable[pu];
    st.covered[u] = st.covered[pu];
    st.in_heading[u] = st.in_heading[pu];
    st.in_text[u] = st.in_text[pu];
    anchor[u] = anchor[pu];
    item[u] = item[pu];
    if (dom.is_element(node.parent)) {
      // A row or <details> holds its content under its own first line; a list, under the line
      // of the item it is nested in (none for a top-level list). A row that is no line of its
      // own (a header row of sortable column headers) puts its cells side by side, where it is.
      if (dom.tag(node.parent) == "tr" || role[pu] == "row") {
        if (st.own_line[pu]) anchor[u] = node.parent;
      } else if (st.own_line[pu] && is_group_line(dom, node.parent, role[pu])) {
        anchor[u] = node.parent;
      } else if (dom.tag(node.parent) == "details" || is_article(role[pu])) {
        anchor[u] = node.parent;
      } else if (dom.tag(node.parent) == "dl" && dom.tag(i) == "dd" && last_term[pu] >= 0) {
        // A description sits under its term: an API reference's signature (Sphinx writes each
        // function as <dl><dt>abs(x)</dt><dd>…</dd></dl>) heads its docs, as a glossary's word
        // does its meaning, and trimming collapses the docs first. A list in the description
        // sits there too, as one in a <details> does.
        anchor[u] = last_term[pu];
        item[u] = last_term[pu];
      } else if (is_outline_list(dom, node.parent, role[pu])) {
        anchor[u] = st.list_anchor[pu] >= 0 ? st.list_anchor[pu] : item[pu];
      }
      if (dom.tag(node.parent) == "dl" && dom.tag(i) == "dt") last_term[pu] = i;
    }
  }
  if (dom.is_element(i) && is_article(role[u])) item[u] = i;  // a list in it sits under its title
  if (dom.is_element(i) && is_outline_item(dom, i, role[u])) {
    item[u] = i;
    if (node.parent >= 0 && is_outline_list(dom, node.parent, role[static_cast<std::size_t>(node.parent)])) {
      st.prev_item[u] = st.last_item[static_cast<std::size_t>(node.parent)];
      st.last_item[static_cast<std::size_t>(node.parent)] = i;
    }
  }
  if (!dom.is_element(i)) return;
  if (is_outline_list(dom, i, role[u])) {
    // A nested list sits under the item that holds it; when that item has no line before the
    // list, under the item before it: mdBook writes a chapter's sections as
    // `<li><a>4. Ownership</a></li><li><ol class="section">…</ol></li>`, and they are its.
    const auto& first_line = st.first_line;
    const int it = item[u];
    const int prev = it >= 0 ? st.prev_item[static_cast<std::size_t>(it)] : -1;
    st.list_anchor[u] = it >= 0 && first_line[static_cast<std::size_t>(it)] < 0 && prev >= 0 &&
                                first_line[static_cast<std::size_t>(prev)] >= 0
                            ? prev
                            : it;
  }
}

// A dialog's title is its region's label (`<region name="dialog" label="Delete files?">`): its
// heading would say it again. The lines after it are still under that heading.
bool dialog_title(CompileState& st, int i, const LineKind& k, const ReadableNode& rn) {
  if (k.cat == Category::kHeading && rn.region == Region::kDialog && !rn.region_label.empty() &&
      rn.name == rn.region_label) {
    st.heading = rn.name;
    st.covered[static_cast<std::size_t>(i)] = 1;
    return true;
  }
  return false;
}

// The line goes into the snapshot under the line its item or its context holds.
void place_line(CompileState& st, int i, const LineKind& k, int under_line, ReadableNode&& rn) {
  const Dom& dom = st.dom;
  Snapshot& snap = st.snap;
  const auto& anchor = st.anchor;
  auto& first_line = st.first_line;
  const auto u = static_cast<std::size_t>(i);
  const Category cat = k.cat;
  const bool group = k.group;
  rn.heading = st.heading;
  rn.shadow_path = dom.shadow_path(i);
  // The first line of an item (a post's title, a disclosure's summary) sits where the item does.
  int held_by = anchor[u];
  while (held_by >= 0 && first_line[static_cast<std::size_t>(held_by)] < 0)
    held_by = anchor[static_cast<std::size_t>(held_by)];
  const int above = under_line >= 0 ? under_line : held_by >= 0 ? first_line[static_cast<std::size_t>(held_by)] : -1;
  rn.depth = above >= 0 ? std::min(st.line_depth[static_cast<std::size_t>(above)] + 1, limits::kMaxOutlineDepth) : 0;
  st.line_depth.push_back(rn.depth);
  for (int a = i; a >= 0 && first_line[static_cast<std::size_t>(a)] < 0;
       a = dom.nodes[static_cast<std::size_t>(a)].parent)
    first_line[static_cast<std::size_t>(a)] = static_cast<int>(snap.nodes.size());
  if (cat == Category::kText && !group) st.in_text[u] = 1;
  // A box that is a line only because it takes focus (a named scrolling region around a table)
  // is named by its label, not its words: what it holds is read, line by line.
  else if (!group)
    st.covered[u] =
        !is_container_role(st.role[u]) && !(focus_only(dom, i, st.role[u]) && !name_from_content(st.role[u]));
  st.own_line[u] = 1;
  if (k.whole_part >= 0) st.whole_part[static_cast<std::size_t>(k.whole_part)] = 1;
  if (group) st.item[u] = i;  // a list inside a named group sits under the group's line too
  snap.nodes.push_back(std::move(rn));
  st.node_ov.push_back(st.ov[u]);
  if (cat == Category::kHeading) {
    st.heading = snap.nodes.back().name;
    st.in_heading[u] = static_cast<int>(snap.nodes.size() - 1);
  }
}

}  // namespace athena::compiler
