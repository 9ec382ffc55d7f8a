// compile_capture()'s first passes (compile.cpp orders them): per node, before the walk, its role,
// whether it is a control, what lies below it, and which words are a control's rather than a line's.
#include <string>
#include <vector>

#include "compiler/compile_state.h"
#include "compiler/descriptions.h"
#include "compiler/lines.h"
#include "compiler/node_state.h"
#include "compiler/revealed_text.h"
#include "compiler/roles.h"
#include "compiler/text.h"

namespace athena::compiler {

void mark_roles(CompileState& st) {
  const Dom& dom = st.dom;
  auto& role = st.role;
  auto& editable = st.editable;
  auto& base_interactive = st.base_interactive;
  std::size_t likely_nodes = 0;  // elements that will probably be emitted: reserved up front
  for (const int i : dom.order) {
    if (!dom.is_element(i)) continue;
    role[static_cast<std::size_t>(i)] = role_of(dom, i);
    long long ti = -1;
    const bool tabbable = parse_int(dom.attr(i, "tabindex"), ti) && ti >= 0;
    const int p = dom.nodes[static_cast<std::size_t>(i)].parent;
    editable[static_cast<std::size_t>(i)] = is_contenteditable(dom, i);
    const bool editable_root =
        editable[static_cast<std::size_t>(i)] && !(p >= 0 && editable[static_cast<std::size_t>(p)]);
    base_interactive[static_cast<std::size_t>(i)] =
        is_interactive_role(role[static_cast<std::size_t>(i)]) || tabbable || editable_root;
    likely_nodes += base_interactive[static_cast<std::size_t>(i)] || (dom.flags(i) & kClickable) ||
                    role[static_cast<std::size_t>(i)] == "heading";
  }
  st.snap.nodes.reserve(likely_nodes);
}

// Per node: something below it has lines of its own structure (a table row, a list item, a
// heading). A polite live region that holds such is a container (Swagger UI's responses table is
// `aria-live="polite"`), not one message: its rows are lines, not words cut into one status.
// And per node: something below it is text the agent reads (a paragraph, a row, a heading).
void mark_below(CompileState& st) {
  const Dom& dom = st.dom;
  const Visibility& vis = st.vis;
  const auto& role = st.role;
  auto& base_interactive = st.base_interactive;
  auto& has_inter_desc = st.has_inter_desc;
  auto& structure_below = st.structure_below;
  auto& reads_below = st.reads_below;
  auto& heading_below = st.heading_below;
  for (auto it = dom.order.rbegin(); it != dom.order.rend(); ++it) {
    const auto c = static_cast<std::size_t>(*it);
    const bool element = dom.is_element(*it);
    // A box that takes focus only so the keyboard can scroll it (a data grid's body, a code
    // block, a long panel) and has no name is no control: what it holds is read, as Chrome's
    // tree reads it, and its lines are the page's own.
    if (element && base_interactive[c] && reading_box(dom, vis, *it, role[c], reads_below[c])) base_interactive[c] = 0;
    // Nor is a widget's unnamed container that takes focus for its arrow keys (Shoelace's tree):
    // its items are the controls, and it takes and gives up focus as they do. An unnamed list of
    // options that is no <select> (a dropdown's results) is the same: its options are what the
    // agent chooses from.
    if (element && base_interactive[c] && has_inter_desc[c] &&
        (composite_container(role[c]) || (role[c] == "listbox" && dom.tag(*it) != "select")) &&
        unnamed(dom, vis, *it, role[c]))
      base_interactive[c] = 0;
    const int p = dom.nodes[c].parent;
    if (p < 0) continue;
    const auto pu = static_cast<std::size_t>(p);
    if (base_interactive[c] || has_inter_desc[c]) has_inter_desc[pu] = 1;
    if (structure_below[c] || (element && is_structure(dom, *it, role[c]))) structure_below[pu] = 1;
    if (reads_below[c] || (element && (is_row(dom, *it, role[c]) || is_text_block(dom, *it) || role[c] == "heading")))
      reads_below[pu] = 1;
    if (heading_below[c] || (element && role[c] == "heading")) heading_below[pu] = 1;
  }
}

void mark_controls(CompileState& st) {
  const Dom& dom = st.dom;
  st.validation = validation_targets(dom);
  for (const int i : dom.order)
    if (dom.is_element(i))
      st.control[static_cast<std::size_t>(i)] =
          (st.base_interactive[static_cast<std::size_t>(i)] || (dom.flags(i) & kClickable)) &&
          !is_container_role(st.role[static_cast<std::size_t>(i)]);
  st.described = description_targets(dom, st.vis, st.control, st.feedback);
}

// Controls and headings are their own lines: a text block does not repeat their words.
// A link inside a paragraph is part of the sentence ("While the Language Reference describes …"):
// its words stay in the text, unless the text is nothing but links (a list item that only
// holds one says nothing the link line does not).
void mark_opaque(CompileState& st) {
  const Dom& dom = st.dom;
  const Visibility& vis = st.vis;
  const auto& role = st.role;
  const auto& control = st.control;
  const auto& has_inter_desc = st.has_inter_desc;
  // Labels a shown control names itself by (aria-labelledby): no orphans, whatever their `for`.
  std::vector<char> names_control(st.n, 0);
  for (const int i : dom.order)
    if (dom.is_element(i) && control[static_cast<std::size_t>(i)] && dom.has_attr(i, "aria-labelledby") &&
        vis.visible(i, is_focusable(dom, i)))
      for (const int l : dom.idrefs(i, "aria-labelledby")) names_control[static_cast<std::size_t>(l)] = 1;
  for (const int i : dom.order) {
    const auto u = static_cast<std::size_t>(i);
    // (A sortable column header is a control too: its words are its own line, not its row's.)
    const bool header_control = (dom.flags(i) & kClickable) && (role[u] == "columnheader" || role[u] == "rowheader");
    // A <label> of a control is that control's name, already on its line (`<li><label><input
    // type=checkbox> Email</label></li>` is one checkbox line, not a text line "Email" too).
    bool labels_control = false;
    if (dom.is_element(i) && dom.tag(i) == "label") {
      labels_control = has_inter_desc[u];
      bool shown = has_inter_desc[u] || names_control[u];
      for (const int c : dom.idrefs(i, "for")) {
        labels_control = labels_control || control[static_cast<std::size_t>(c)];
        shown = shown || (!vis.aria_hidden(c) && vis.visible(c, is_focusable(dom, c)));
      }
      // A label of no control the agent sees (Select2 hides the <select> it stands in for, and
      // labels its own combobox otherwise) is the words it shows: a text line, as Chrome has it.
      st.orphan_label[u] = !shown;
    }
    st.opaque[u] = (st.base_interactive[u] && !is_container_role(role[u])) || role[u] == "heading" || header_control ||
                   labels_control;
    st.opaque_but_links[u] = st.opaque[u] && role[u] != "link";
  }
}

}  // namespace athena::compiler
