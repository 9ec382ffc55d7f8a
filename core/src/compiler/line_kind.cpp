// The walk's steps for one element (compile.cpp orders them): whether the agent sees it, what it
// is to the agent (a control, a heading, a live message, a line of text), its words and its place
// on the page.
#include <string>
#include <string_view>
#include <vector>

#include "athena/limits.h"
#include "compiler/accname.h"
#include "compiler/compile_state.h"
#include "compiler/lines.h"
#include "compiler/node_state.h"
#include "compiler/overlays.h"
#include "compiler/revealed_text.h"
#include "compiler/roles.h"
#include "compiler/text.h"

namespace athena::compiler {

// An element's own marks as the walk reaches it; false when it is no line at all (an editor's
// content). Sets whether it is visible.
bool enter_element(CompileState& st, int i, LineKind& k) {
  const Dom& dom = st.dom;
  const auto u = static_cast<std::size_t>(i);
  auto& in_editable = st.in_editable;
  // What an editor holds (Quill's paragraphs, its bold words: Chrome calls them clickable) is
  // the editable field's value, on its line; a control by its role in it (a link, a button) and
  // a contenteditable=false island are the page's.
  if (in_editable[u] && lower(collapse_ws(dom.attr(i, "contenteditable"))) == "false") in_editable[u] = 0;
  if (in_editable[u] && !is_interactive_role(st.role[u])) return false;
  const std::string& r = st.role[u];
  // A list or table inside a paragraph-like block has lines of its own (block_text skips it).
  if (is_text_container(dom, i)) st.in_text[u] = 0;
  st.z[u] = own_z_index(dom, i, st.z[u]);
  const bool focusable = is_focusable(dom, i);
  // An element the page gave a widget role is a widget even without a box of any size (an empty
  // `<div role=button aria-pressed=true>`): Chrome keeps it in its tree, and the agent must see
  // that it exists, like a focusable empty element.
  const bool widget = focusable || (is_interactive_role(r) && dom.has_attr(i, "role"));
  k.visible = st.vis.visible(i, widget);
  return true;
}

// A heading's link that only scrolls to it is the heading's line; true when the element is that
// (or a permalink mark in a heading's line), which is no line of its own.
bool heading_mark(CompileState& st, int i) {
  const auto u = static_cast<std::size_t>(i);
  const std::string& r = st.role[u];
  if (st.heading_link[u]) return true;
  if (st.in_heading[u] >= 0 && only_scrolls(st.dom, i, r)) {
    const std::string mark = accessible_name(st.dom, st.vis, i, r);
    if (!has_words(mark)) {
      // Nor are its symbols the heading's words: Node.js's `<h2>URL<a href="#url">#</a></h2>`
      // is the heading "URL", as Chrome reads it "URL #".
      std::string& words = st.snap.nodes[static_cast<std::size_t>(st.in_heading[u])].name;
      if (!is_blank(mark) && words.size() > mark.size() &&
          words.compare(words.size() - mark.size(), mark.size(), mark) == 0) {
        words.resize(words.size() - mark.size());
        trim_in_place(words);
        st.heading = words;
      }
      return true;
    }
  }
  return false;
}

namespace {
// The one control inside control i that is all of it, of the same name, or -1: jQuery UI's
// `<li role=tab>` whose whole content is its own `<a href role=presentation tabindex=-1>`. To a
// person that is one thing, which Chrome's tree shows twice (`tab "Settings"`, then `link
// "Settings"` inside it). It is one line, the outer control's: its role and state (`selected`)
// say what it is, and a press aimed at it lands on the inner one, which the hit test takes as the
// target's own (extension/page/actionability.js, receivesPress: a nested control that is the
// element's whole content). All of it: the same name and the same words, so no text of the outer
// lies outside the inner one.
int whole_part_of(const CompileState& st, int i) {
  const Dom& dom = st.dom;
  const Visibility& vis = st.vis;
  const int c = sole_control(dom, i, st.control);
  if (c < 0) return -1;
  const std::string name = accessible_name(dom, vis, i, st.role[static_cast<std::size_t>(i)]);
  if (!has_words(name) || name != accessible_name(dom, vis, c, st.role[static_cast<std::size_t>(c)])) return -1;
  if (collapse_ws(subtree_text(dom, vis, i)) != collapse_ws(subtree_text(dom, vis, c))) return -1;
  return c;
}
}  // namespace

// What is this element to the agent? False when it is no line of its own.
bool decide_line(CompileState& st, int i, LineKind& k) {
  const Dom& dom = st.dom;
  const Visibility& vis = st.vis;
  const auto& role = st.role;
  const auto& base_interactive = st.base_interactive;
  const auto& has_inter_desc = st.has_inter_desc;
  const auto& in_live = st.in_live;
  const auto& covered = st.covered;
  const auto& in_text = st.in_text;
  const auto u = static_cast<std::size_t>(i);
  const Node& node = dom.nodes[u];
  const std::string& r = role[u];
  Category& cat = k.cat;
  bool emit = false;
  const std::string_view t = node.tag;
  k.sel = (t == "option") ? [&] {
    for (int p = node.parent; p >= 0 && dom.is_element(p); p = dom.nodes[static_cast<std::size_t>(p)].parent)
      if (dom.tag(p) == "select") return p;
    return -1;
  }() : -1;
  const int sel = k.sel;
  if (st.whole_part[u]) return false;  // all of the control around it, which is its line (whole_part_of)
  // A container with delegated listeners is not a control, nor is an unnamed clickable box of
  // text blocks (a card): its heading and paragraphs are lines, and a click on them reaches it.
  k.clickable = (dom.flags(i) & kClickable) && t != "html" && t != "body" && t != "label" && !has_inter_desc[u] &&
                !(st.reads_below[u] && plain_role(r) && unnamed(dom, vis, i, r));
  // A data grid's rows and cells take focus and clicks for keyboard navigation, but to the agent
  // they are its text: each row is one `row` line of its cells' words (real controls inside a
  // cell keep their lines). An element the page declares presentational is no control either.
  const bool grid_part = r == "row" || r == "gridcell" || r == "cell";
  const bool presentational = (r == "none" || r == "presentation") && !base_interactive[u];
  if ((base_interactive[u] || k.clickable) && !grid_part && !presentational) {
    emit = true;
    // A row holds cells: a thing beside them that only listens, with no name and no words (a
    // column's resize handle, between every two cells of every row) is nothing to aim at.
    if (!base_interactive[u] && node.parent >= 0 &&
        is_row(dom, node.parent, role[static_cast<std::size_t>(node.parent)]) && unnamed(dom, vis, i, r) &&
        is_blank(subtree_text(dom, vis, i)))
      return false;
    if (sel >= 0 && role[static_cast<std::size_t>(sel)] == "combobox") emit = false;  // shown as the select's value
    if (base_interactive[u] && has_inter_desc[u]) k.whole_part = whole_part_of(st, i);
  } else if (st.described[u]) {
    // Its words are a field's description (desc=…), shown on the field's line.
  } else if (st.validation[u] && !in_live[u]) {
    cat = Category::kValidation;
    emit = true;
  } else if (Category live = cat; !in_live[u] && !is_container_role(r) && is_live(dom, i, r, live) &&
                                  (live == Category::kAlert || !st.structure_below[u])) {
    // (Not a dialog that announces itself, as SweetAlert2's does: it is an overlay of lines.)
    cat = live;
    emit = true;
  } else if (r == "heading" && !in_live[u]) {  // inside an alert line, its words are that line's
    cat = Category::kHeading;
    emit = true;
    // A heading that only wraps one control of the same words (an accordion's <h3><button>)
    // is that control's line: it still heads what follows.
    if (has_inter_desc[u]) {
      const int c = sole_control(dom, i, st.control);
      if (c >= 0) {
        const std::string words = accessible_name(dom, vis, i, r);
        if (!is_blank(words) && words == accessible_name(dom, vis, c, role[static_cast<std::size_t>(c)])) {
          // Unless the control only scrolls to a place in this page (mdBook writes every
          // heading as `<h2><a href="#ownership">What Is Ownership?</a></h2>`): the line is the
          // heading, which the page's outline keeps.
          if (!only_scrolls(dom, c, role[static_cast<std::size_t>(c)])) {
            st.heading = cut(words, limits::kMaxNameChars);
            st.heads_level[static_cast<std::size_t>(c)] = heading_level(dom, i, r);
            return false;
          }
          st.heading_link[static_cast<std::size_t>(c)] = 1;
        }
      }
    }
  } else if (!covered[u] && !in_text[u] && !in_live[u] && is_figure_role(r)) {
    // What the page shows rather than writes, standing alone: a product's photo by its alt text,
    // a rating drawn in stars by its label, a progress bar or a meter by how far it is. (In a
    // paragraph or a row, its words are that block's.)
    cat = Category::kText;
    emit = true;
    k.figure = true;
  } else if (!covered[u] && !in_text[u] && !in_live[u] && is_group_line(dom, i, r)) {
    // A fieldset or group says what its controls answer ("Shipping method"): its line, with
    // them under it (named only: an unnamed group says nothing).
    cat = Category::kText;
    emit = true;
    k.group = true;
  } else if (!covered[u] && !in_text[u] && !in_live[u] &&
             (is_row(dom, i, r) || is_text_block(dom, i) || st.orphan_label[u])) {
    // Text the agent reads, wherever it is: visibility decides, not the viewport.
    cat = Category::kText;
    emit = true;
  }
  return emit;
}

// Whether the agent sees the line decided on: false for what Chrome's tree leaves out too.
bool keep_line(CompileState& st, int i, const LineKind& k) {
  const Dom& dom = st.dom;
  const Visibility& vis = st.vis;
  const auto u = static_cast<std::size_t>(i);
  const Node& node = dom.nodes[u];
  const std::string& r = st.role[u];
  const Category cat = k.cat;
  const int sel = k.sel;
  // aria-hidden subtrees are not in Chrome's accessibility tree; agents see the page as it does.
  if (vis.aria_hidden(i)) return false;
  const bool shown = sel >= 0 ? vis.visible(sel, true) : k.visible;
  if (!shown) return false;
  if (cat == Category::kInteractive &&
      (sel >= 0 ? stand_in(dom, vis, sel, st.role[static_cast<std::size_t>(sel)]) : stand_in(dom, vis, i, r)))
    return false;
  if (cat == Category::kInteractive && shows_value_of(dom, i, r, st.control)) return false;
  // An empty, zero-size element that is only tabbable (the focus guards a data grid or a dialog
  // puts around itself) is nothing to read and nothing to aim at: Chrome's tree leaves it out too.
  if (cat == Category::kInteractive && r == "generic" && !k.clickable && node.box.width <= 0 && node.box.height <= 0 &&
      is_blank(accessible_name(dom, vis, i, r)) && is_blank(subtree_text(dom, vis, i)))
    return false;
  // An empty element over the whole viewport that takes clicks is a dialog's backdrop (a click
  // outside closes it): no words, no place to aim at, and its dialog has a Close of its own.
  if (cat == Category::kInteractive && r == "generic" && st.vw > 0 && st.vh > 0 && node.box.width >= st.vw &&
      node.box.height >= st.vh && !is_focusable(dom, i) && is_blank(accessible_name(dom, vis, i, r)) &&
      is_blank(subtree_text(dom, vis, i)))
    return false;
  if (cat == Category::kAlert || cat == Category::kStatus || cat == Category::kValidation) st.in_live[u] = 1;
  return true;
}

// The line's words: its name, or the text it reads. False when it says nothing.
bool name_line(CompileState& st, int i, const LineKind& k, ReadableNode& rn) {
  const Dom& dom = st.dom;
  const Visibility& vis = st.vis;
  const auto& role = st.role;
  const auto u = static_cast<std::size_t>(i);
  const std::string& r = role[u];
  const std::string_view t = dom.nodes[u].tag;
  const Category cat = k.cat;
  rn.category = cat;
  rn.role = agent_role(r);
  if (k.group) {
    rn.name = cut(accessible_name(dom, vis, i, r), limits::kMaxNameChars, &rn.cut);
    if (is_blank(rn.name)) return false;
  } else if (k.figure) {
    // An image without a name is decoration; a bar without one still says the page is busy.
    rn.name = cut(accessible_name(dom, vis, i, r), limits::kMaxNameChars, &rn.cut);
    if (r == "image" && is_blank(rn.name)) return false;
  } else if (cat == Category::kText) {
    const bool row = is_row(dom, i, r);
    rn.role = row ? "row" : "text";
    auto words = [&](const std::vector<char>& hidden) {
      return row ? row_text(dom, vis, i, role, hidden)
                 : block_text(dom, vis, i, role, hidden, limits::kMaxRevealedTextChars);
    };
    // Nothing but links, or only separators ("|", "»"), says nothing; a term of symbols heads
    // its description all the same (Python's glossary: ">>>").
    if (const std::string own = words(st.opaque); !has_words(own) && (t != "dt" || is_blank(own))) return false;
    // A block that holds a heading (a card's <li><h3>Title</h3><p>…</p></li>) is no line of its
    // own: its words would come before the heading they follow. Its blocks are lines, in order.
    // (A block with words of its own beside the heading keeps its line, out of order but whole.)
    if (!row && st.heading_below[u] && !own_words(dom, i)) return false;
    // A block that only holds an image (a list item around a logo) is that image's line.
    if (!row && sole_figure(dom, i, role)) return false;
    // A column header whose one control already says its words (DataTables: "Name" beside the
    // button "Name: Activate to sort") is that control's line, which carries its aria-sort.
    if (!row && (r == "columnheader" || r == "rowheader") && st.has_inter_desc[u]) {
      const int c = sole_control(dom, i, st.control);
      if (c >= 0 && lower(accessible_name(dom, vis, c, role[static_cast<std::size_t>(c)]))
                            .find(lower(collapse_ws(words(st.opaque)))) != std::string::npos) {
        st.in_text[u] = 1;  // nor are its words a line further down (its title's <span>)
        return false;
      }
    }
    rn.name = cut(words(st.opaque_but_links), limits::kMaxRevealedTextChars, &rn.cut);
  } else if (cat == Category::kInteractive || cat == Category::kHeading) {
    rn.name = cut(accessible_name(dom, vis, i, r), limits::kMaxNameChars, &rn.cut);
    // A plain box the page made clickable says what it is by its words, as the agent sees it
    // ("Plain clickable words"), not by nothing: Chrome names no generic element. Symbols
    // alone (Sphinx's ">>>" toggle) say nothing; its title does (desc=…).
    if (cat == Category::kInteractive && is_blank(rn.name) && plain_role(r) && !st.has_inter_desc[u]) {
      const std::string words = subtree_text(dom, vis, i);
      if (has_words(words)) rn.name = cut(words, limits::kMaxNameChars, &rn.cut);
    }
  } else {
    std::string text = accessible_name(dom, vis, i, r);
    if (is_blank(text)) text = subtree_text(dom, vis, i);
    rn.name = cut(text, limits::kMaxTextChars, &rn.cut);
    if (rn.name.empty()) return false;  // an empty live region says nothing yet
  }
  return !(cat == Category::kHeading && rn.name.empty());
}

// Where the line is: its frame, its box and whether it is in the viewport, its state. False when
// it is left out (a document outside the frame tree, or off screen unless asked for).
bool locate_line(CompileState& st, int i, const LineKind& k, ReadableNode& rn) {
  const Dom& dom = st.dom;
  const RawCapture& raw = st.raw;
  Snapshot& snap = st.snap;
  const Node& node = dom.nodes[static_cast<std::size_t>(i)];
  if (node.frame < 0) {
    snap.has_unknown_frames = true;
    if (!st.doc_warned[static_cast<std::size_t>(node.doc)]++)
      snap.warnings.push_back("document " + std::string(raw.docs[static_cast<std::size_t>(node.doc)].url) + " (frame " +
                              std::string(raw.docs[static_cast<std::size_t>(node.doc)].frame_id) +
                              ") is not in the frame tree: its elements were left out; take a new snapshot");
    return false;
  }
  const Node& box_node = dom.nodes[static_cast<std::size_t>(k.sel >= 0 ? k.sel : i)];
  rn.bbox = box_node.box;
  rn.in_viewport =
      rn.bbox.x < st.vw && rn.bbox.x + rn.bbox.width > 0 && rn.bbox.y < st.vh && rn.bbox.y + rn.bbox.height > 0;
  if (!st.options.include_offscreen && !rn.in_viewport) return false;
  rn.backend_node_id = dom.backend(i);
  rn.frame_id = std::string(raw.frames[static_cast<std::size_t>(node.frame)].id);
  rn.loader_id = std::string(raw.frames[static_cast<std::size_t>(node.frame)].loader_id);
  rn.state = state_of(dom, i, st.role[static_cast<std::size_t>(i)]);
  return true;
}

// What a line says beside its words: its link, its input type, its level, its stacking.
void fill_line(CompileState& st, int i, ReadableNode& rn) {
  const Dom& dom = st.dom;
  const auto u = static_cast<std::size_t>(i);
  const std::string& r = st.role[u];
  if (r == "link") rn.href = cut(std::string(dom.attr(i, "href")), limits::kMaxHrefChars);
  if (dom.nodes[u].tag == "input") {
    rn.input_type = lower(collapse_ws(dom.attr(i, "type")));
    if (rn.input_type.empty()) rn.input_type = "text";
  }
  // A control that stands for its heading keeps the heading's level: trimming keeps it with the
  // page's outline (render/trim.cpp), where the headings of its rank are kept.
  rn.level = r == "heading" ? heading_level(dom, i, r) : st.heads_level[u];
  rn.z_index = st.z[u];
  rn.visible = true;
}

}  // namespace athena::compiler
