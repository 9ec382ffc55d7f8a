// compile_capture(): the one pass over the flat tree that decides which elements an agent sees
// and fills their ReadableNode. The rules live in the files named after them (roles, accname,
// node_state, descriptions, lines, visibility, regions, overlays, revealed_text); this file only orders them.
#include <algorithm>
#include <cstdint>
#include <unordered_map>

#include "athena/compiler.h"
#include "athena/limits.h"
#include "compiler/accname.h"
#include "compiler/capture.h"
#include "compiler/descriptions.h"
#include "compiler/dom_view.h"
#include "compiler/lines.h"
#include "compiler/node_state.h"
#include "compiler/overlays.h"
#include "compiler/regions.h"
#include "compiler/revealed_text.h"
#include "compiler/roles.h"
#include "compiler/text.h"
#include "compiler/visibility.h"

namespace athena {
namespace {

using namespace compiler;

struct Candidate {  // an overlay before sorting
  int node = -1;
  int parent = -1;  // candidate index of the enclosing overlay
  OverlayMatch match;
  int z = 0;
};

/// `s` cut to at most `n` bytes on a character boundary; `*was_cut` says whether words were left out.
std::string cut(std::string s, std::size_t n, bool* was_cut = nullptr) {
  trim_in_place(s);
  if (was_cut) *was_cut = s.size() > n;
  cut_utf8(s, n);
  trim_in_place(s);
  return s;
}

}  // namespace

Result<Snapshot> compile_capture(std::string_view capture_json, const CompileOptions& options) {
  // The binary form (docs/capture-format.md) is read in place; JSON is parsed first. Either way
  // `parsed` and the input outlive `raw`, whose strings view them.
  Result<JsonDoc> parsed = JsonDoc();
  Result<RawCapture> raw_r = RawCapture();
  if (is_binary_capture(capture_json)) {
    raw_r = read_capture_binary(capture_json);
  } else {
    parsed = parse_json(capture_json);
    if (!parsed) return parsed.error();
    raw_r = read_capture(parsed.value().root());
  }
  if (!raw_r) return raw_r.error();
  const RawCapture& raw = raw_r.value();

  Snapshot snap;
  const Dom dom(raw, snap.warnings);
  const Visibility vis(dom);

  for (const RawFrame& f : raw.frames)
    snap.frames.push_back(FrameInfo{std::string(f.id), std::string(f.loader_id), std::string(f.parent_id),
                                    std::string(f.url), f.out_of_process});
  snap.url = raw.frames.empty() ? std::string() : std::string(raw.frames[0].url);
  snap.title = cut(page_title(dom), limits::kMaxNameChars);
  if (raw.has_viewport) {
    snap.viewport = raw.viewport;
  } else if (dom.root >= 0 && dom.nodes[static_cast<std::size_t>(dom.root)].layout) {
    const Rect& b = dom.nodes[static_cast<std::size_t>(dom.root)].layout->bounds;
    snap.viewport = Rect{raw.docs[0].scroll_x, raw.docs[0].scroll_y, b.width, b.height};
  }
  if (dom.root < 0) return snap;

  const std::size_t n = dom.nodes.size();
  std::vector<std::string> role(n);
  std::vector<char> base_interactive(n, 0), has_inter_desc(n, 0);
  std::vector<char> editable(n, 0);  // contenteditable (is_contenteditable), read once per element
  std::size_t likely_nodes = 0;      // elements that will probably be emitted: reserved up front
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
  snap.nodes.reserve(likely_nodes);
  // Per node: something below it has lines of its own structure (a table row, a list item, a
  // heading). A polite live region that holds such is a container (Swagger UI's responses table is
  // `aria-live="polite"`), not one message: its rows are lines, not words cut into one status.
  // And per node: something below it is text the agent reads (a paragraph, a row, a heading).
  std::vector<char> structure_below(n, 0), reads_below(n, 0), heading_below(n, 0);
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
  const std::vector<char> validation = validation_targets(dom);
  std::vector<char> control(n, 0);
  for (const int i : dom.order)
    if (dom.is_element(i))
      control[static_cast<std::size_t>(i)] =
          (base_interactive[static_cast<std::size_t>(i)] || (dom.flags(i) & kClickable)) &&
          !is_container_role(role[static_cast<std::size_t>(i)]);
  std::vector<int> feedback;
  const std::vector<char> described = description_targets(dom, vis, control, feedback);
  // Controls and headings are their own lines: a text block does not repeat their words.
  // A link inside a paragraph is part of the sentence ("While the Language Reference describes …"):
  // its words stay in the text, unless the text is nothing but links (a list item that only
  // holds one says nothing the link line does not).
  std::vector<char> opaque(n, 0), opaque_but_links(n, 0), orphan_label(n, 0);
  // Labels a shown control names itself by (aria-labelledby): no orphans, whatever their `for`.
  std::vector<char> names_control(n, 0);
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
      orphan_label[u] = !shown;
    }
    opaque[u] = (base_interactive[u] && !is_container_role(role[u])) || role[u] == "heading" || header_control ||
                labels_control;
    opaque_but_links[u] = opaque[u] && role[u] != "link";
  }

  // Visible menus and lists are classified here, once. A dropdown's list in a floating box with
  // its search field (Select2, Tom Select) hands its match to the box: the box is the overlay, so
  // the field the agent types into to filter the list opens with it.
  std::unordered_map<int, OverlayMatch> match_of;  // lists and their boxes: the walk takes these
  for (const int i : dom.order) {
    const auto u = static_cast<std::size_t>(i);
    if (!dom.is_element(i) || (role[u] != "menu" && role[u] != "listbox") || !vis.visible(i, is_focusable(dom, i)))
      continue;
    const OverlayMatch m = classify_overlay(dom, i, role[u]);
    match_of.emplace(i, m);
    const int box = m.rule == 5 ? popup_box(dom, i) : -1;
    if (box < 0 || match_of.count(box)) continue;
    const OverlayMatch own = classify_overlay(dom, box, role[static_cast<std::size_t>(box)]);
    match_of[box] = own.rule ? own : m;
    match_of[i] = OverlayMatch{};
  }

  std::vector<Region> region(n, Region::kPage);
  std::vector<int> landmark(n, -1), z(n, 0), ov(n, -1);
  std::vector<char> in_live(n, 0);
  std::vector<char> in_editable(n, 0);  // inside a contenteditable root: the field's content, not lines
  std::vector<char> covered(n, 0);      // inside an element already emitted: no text block of its own
  std::vector<char> in_text(n, 0);      // inside a text block: its words are that block's (a nested list is not)
  // The outline (is_outline_list / is_outline_item): per node its nearest item ancestor-or-self,
  // the item that holds its nearest list or row, and the first line emitted inside it.
  std::vector<int> item(n, -1), anchor(n, -1), first_line(n, -1);
  std::vector<int> last_term(n, -1);  // per <dl>: its latest <dt>, which the <dd>s after it sit under
  std::vector<int> prev_item(n, -1),
      last_item(n, -1);                 // per item: the item before it in its list; per list: its latest item
  std::vector<int> list_anchor(n, -1);  // per outline list: the item whose first line its items sit under
  std::vector<char> own_line(n, 0);     // the node is a line itself (a row with words, not only its cells' controls)
  std::vector<int> in_heading(
      n, -1);  // inside a heading's line (its index in snap.nodes): a permalink there is no line of its own
  std::vector<char> heading_link(n, 0);  // a heading's one link, of its words, that only scrolls: the heading's line
  std::vector<int> heads_level(n,
                               0);  // a heading's one control of its words (an accordion's button): the heading's level
  std::vector<int> line_depth;      // parallel to snap.nodes
  std::unordered_map<int, std::string> landmark_label;
  std::vector<Candidate> cands;
  std::vector<int> node_ov;  // parallel to snap.nodes: candidate index
  std::string heading;
  std::vector<char> doc_warned(raw.docs.size(), 0);
  const double vw = snap.viewport.width, vh = snap.viewport.height;

  for (const int i : dom.order) {
    const auto u = static_cast<std::size_t>(i);
    const Node& node = dom.nodes[u];
    if (node.parent >= 0) {
      const auto pu = static_cast<std::size_t>(node.parent);
      region[u] = region[pu];
      landmark[u] = landmark[pu];
      z[u] = z[pu];
      ov[u] = ov[pu];
      in_live[u] = in_live[pu];
      in_editable[u] = in_editable[pu] || editable[pu];
      covered[u] = covered[pu];
      in_heading[u] = in_heading[pu];
      in_text[u] = in_text[pu];
      anchor[u] = anchor[pu];
      item[u] = item[pu];
      if (dom.is_element(node.parent)) {
        // A row or <details> holds its content under its own first line; a list, under the line
        // of the item it is nested in (none for a top-level list). A row that is no line of its
        // own (a header row of sortable column headers) puts its cells side by side, where it is.
        if (dom.tag(node.parent) == "tr" || role[pu] == "row") {
          if (own_line[pu]) anchor[u] = node.parent;
        } else if (own_line[pu] && is_group_line(dom, node.parent, role[pu])) {
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
          anchor[u] = list_anchor[pu] >= 0 ? list_anchor[pu] : item[pu];
        }
        if (dom.tag(node.parent) == "dl" && dom.tag(i) == "dt") last_term[pu] = i;
      }
    }
    if (dom.is_element(i) && is_article(role[u])) item[u] = i;  // a list in it sits under its title
    if (dom.is_element(i) && is_outline_item(dom, i, role[u])) {
      item[u] = i;
      if (node.parent >= 0 && is_outline_list(dom, node.parent, role[static_cast<std::size_t>(node.parent)])) {
        prev_item[u] = last_item[static_cast<std::size_t>(node.parent)];
        last_item[static_cast<std::size_t>(node.parent)] = i;
      }
    }
    if (!dom.is_element(i)) continue;
    if (is_outline_list(dom, i, role[u])) {
      // A nested list sits under the item that holds it; when that item has no line before the
      // list, under the item before it: mdBook writes a chapter's sections as
      // `<li><a>4. Ownership</a></li><li><ol class="section">…</ol></li>`, and they are its.
      const int it = item[u];
      const int prev = it >= 0 ? prev_item[static_cast<std::size_t>(it)] : -1;
      list_anchor[u] = it >= 0 && first_line[static_cast<std::size_t>(it)] < 0 && prev >= 0 &&
                               first_line[static_cast<std::size_t>(prev)] >= 0
                           ? prev
                           : it;
    }
    // What an editor holds (Quill's paragraphs, its bold words: Chrome calls them clickable) is
    // the editable field's value, on its line; a control by its role in it (a link, a button) and
    // a contenteditable=false island are the page's.
    if (in_editable[u] && lower(collapse_ws(dom.attr(i, "contenteditable"))) == "false") in_editable[u] = 0;
    if (in_editable[u] && !is_interactive_role(role[u])) continue;
    const std::string& r = role[u];
    // A list or table inside a paragraph-like block has lines of its own (block_text skips it).
    if (is_text_container(dom, i)) in_text[u] = 0;
    z[u] = own_z_index(dom, i, z[u]);
    const bool focusable = is_focusable(dom, i);
    // An element the page gave a widget role is a widget even without a box of any size (an empty
    // `<div role=button aria-pressed=true>`): Chrome keeps it in its tree, and the agent must see
    // that it exists, like a focusable empty element.
    const bool widget = focusable || (is_interactive_role(r) && dom.has_attr(i, "role"));
    const bool visible = vis.visible(i, widget);

    if (const auto found = match_of.find(i); visible || found != match_of.end()) {
      const OverlayMatch m = found != match_of.end() ? found->second : classify_overlay(dom, i, r);
      if (m.rule) {
        cands.push_back(Candidate{i, ov[u], m, z[u]});
        ov[u] = static_cast<int>(cands.size()) - 1;
      }
    }
    const Region lm = landmark_of(dom, i, r);
    // A dialog's own header and footer are part of the dialog, not page landmarks.
    const bool in_dialog_part = region[u] == Region::kDialog && part_of_dialog(lm);
    if (lm != Region::kPage && !in_dialog_part) {
      region[u] = lm;
      landmark[u] = i;
    }

    if (heading_link[u]) continue;
    if (in_heading[u] >= 0 && only_scrolls(dom, i, r)) {
      const std::string mark = accessible_name(dom, vis, i, r);
      if (!has_words(mark)) {
        // Nor are its symbols the heading's words: Node.js's `<h2>URL<a href="#url">#</a></h2>`
        // is the heading "URL", as Chrome reads it "URL #".
        std::string& words = snap.nodes[static_cast<std::size_t>(in_heading[u])].name;
        if (!is_blank(mark) && words.size() > mark.size() &&
            words.compare(words.size() - mark.size(), mark.size(), mark) == 0) {
          words.resize(words.size() - mark.size());
          trim_in_place(words);
          heading = words;
        }
        continue;
      }
    }

    // What is this element to the agent?
    Category cat = Category::kInteractive;
    bool emit = false;
    bool group = false;   // a named fieldset or group: a line of its name, its content under it
    bool figure = false;  // an image, a progress bar or a meter (is_figure_role)
    const std::string_view t = node.tag;
    const int sel = (t == "option") ? [&] {
      for (int p = node.parent; p >= 0 && dom.is_element(p); p = dom.nodes[static_cast<std::size_t>(p)].parent)
        if (dom.tag(p) == "select") return p;
      return -1;
    }() : -1;
    // A container with delegated listeners is not a control, nor is an unnamed clickable box of
    // text blocks (a card): its heading and paragraphs are lines, and a click on them reaches it.
    const bool clickable = (dom.flags(i) & kClickable) && t != "html" && t != "body" && t != "label" &&
                           !has_inter_desc[u] && !(reads_below[u] && plain_role(r) && unnamed(dom, vis, i, r));
    // A data grid's rows and cells take focus and clicks for keyboard navigation, but to the agent
    // they are its text: each row is one `row` line of its cells' words (real controls inside a
    // cell keep their lines). An element the page declares presentational is no control either.
    const bool grid_part = r == "row" || r == "gridcell" || r == "cell";
    const bool presentational = (r == "none" || r == "presentation") && !base_interactive[u];
    if ((base_interactive[u] || clickable) && !grid_part && !presentational) {
      emit = true;
      // A row holds cells: a thing beside them that only listens, with no name and no words (a
      // column's resize handle, between every two cells of every row) is nothing to aim at.
      if (!base_interactive[u] && node.parent >= 0 &&
          is_row(dom, node.parent, role[static_cast<std::size_t>(node.parent)]) && unnamed(dom, vis, i, r) &&
          is_blank(subtree_text(dom, vis, i)))
        continue;
      if (sel >= 0 && role[static_cast<std::size_t>(sel)] == "combobox") emit = false;  // shown as the select's value
    } else if (described[u]) {
      // Its words are a field's description (desc=…), shown on the field's line.
    } else if (validation[u] && !in_live[u]) {
      cat = Category::kValidation;
      emit = true;
    } else if (Category live = cat; !in_live[u] && !is_container_role(r) && is_live(dom, i, r, live) &&
                                    (live == Category::kAlert || !structure_below[u])) {
      // (Not a dialog that announces itself, as SweetAlert2's does: it is an overlay of lines.)
      cat = live;
      emit = true;
    } else if (r == "heading" && !in_live[u]) {  // inside an alert line, its words are that line's
      cat = Category::kHeading;
      emit = true;
      // A heading that only wraps one control of the same words (an accordion's <h3><button>)
      // is that control's line: it still heads what follows.
      if (has_inter_desc[u]) {
        const int c = sole_control(dom, i, control);
        if (c >= 0) {
          const std::string words = accessible_name(dom, vis, i, r);
          if (!is_blank(words) && words == accessible_name(dom, vis, c, role[static_cast<std::size_t>(c)])) {
            // Unless the control only scrolls to a place in this page (mdBook writes every
            // heading as `<h2><a href="#ownership">What Is Ownership?</a></h2>`): the line is the
            // heading, which the page's outline keeps.
            if (!only_scrolls(dom, c, role[static_cast<std::size_t>(c)])) {
              heading = cut(words, limits::kMaxNameChars);
              heads_level[static_cast<std::size_t>(c)] = heading_level(dom, i, r);
              continue;
            }
            heading_link[static_cast<std::size_t>(c)] = 1;
          }
        }
      }
    } else if (!covered[u] && !in_text[u] && !in_live[u] && is_figure_role(r)) {
      // What the page shows rather than writes, standing alone: a product's photo by its alt text,
      // a rating drawn in stars by its label, a progress bar or a meter by how far it is. (In a
      // paragraph or a row, its words are that block's.)
      cat = Category::kText;
      emit = true;
      figure = true;
    } else if (!covered[u] && !in_text[u] && !in_live[u] && is_group_line(dom, i, r)) {
      // A fieldset or group says what its controls answer ("Shipping method"): its line, with
      // them under it (named only: an unnamed group says nothing).
      cat = Category::kText;
      emit = true;
      group = true;
    } else if (!covered[u] && !in_text[u] && !in_live[u] &&
               (is_row(dom, i, r) || is_text_block(dom, i) || orphan_label[u])) {
      // Text the agent reads, wherever it is: visibility decides, not the viewport.
      cat = Category::kText;
      emit = true;
    }
    if (!emit) continue;
    // aria-hidden subtrees are not in Chrome's accessibility tree; agents see the page as it does.
    if (vis.aria_hidden(i)) continue;
    const bool shown = sel >= 0 ? vis.visible(sel, true) : visible;
    if (!shown) continue;
    if (cat == Category::kInteractive &&
        (sel >= 0 ? stand_in(dom, vis, sel, role[static_cast<std::size_t>(sel)]) : stand_in(dom, vis, i, r)))
      continue;
    if (cat == Category::kInteractive && shows_value_of(dom, i, r, control)) continue;
    // An empty, zero-size element that is only tabbable (the focus guards a data grid or a dialog
    // puts around itself) is nothing to read and nothing to aim at: Chrome's tree leaves it out too.
    if (cat == Category::kInteractive && r == "generic" && !clickable && node.box.width <= 0 && node.box.height <= 0 &&
        is_blank(accessible_name(dom, vis, i, r)) && is_blank(subtree_text(dom, vis, i)))
      continue;
    // An empty element over the whole viewport that takes clicks is a dialog's backdrop (a click
    // outside closes it): no words, no place to aim at, and its dialog has a Close of its own.
    if (cat == Category::kInteractive && r == "generic" && vw > 0 && vh > 0 && node.box.width >= vw &&
        node.box.height >= vh && !is_focusable(dom, i) && is_blank(accessible_name(dom, vis, i, r)) &&
        is_blank(subtree_text(dom, vis, i)))
      continue;
    if (cat == Category::kAlert || cat == Category::kStatus || cat == Category::kValidation) in_live[u] = 1;

    ReadableNode rn;
    rn.category = cat;
    rn.role = agent_role(r);
    if (group) {
      rn.name = cut(accessible_name(dom, vis, i, r), limits::kMaxNameChars, &rn.cut);
      if (is_blank(rn.name)) continue;
    } else if (figure) {
      // An image without a name is decoration; a bar without one still says the page is busy.
      rn.name = cut(accessible_name(dom, vis, i, r), limits::kMaxNameChars, &rn.cut);
      if (r == "image" && is_blank(rn.name)) continue;
    } else if (cat == Category::kText) {
      const bool row = is_row(dom, i, r);
      rn.role = row ? "row" : "text";
      auto words = [&](const std::vector<char>& hidden) {
        return row ? row_text(dom, vis, i, role, hidden)
                   : block_text(dom, vis, i, role, hidden, limits::kMaxRevealedTextChars);
      };
      // Nothing but links, or only separators ("|", "»"), says nothing; a term of symbols heads
      // its description all the same (Python's glossary: ">>>").
      if (const std::string own = words(opaque); !has_words(own) && (t != "dt" || is_blank(own))) continue;
      // A block that holds a heading (a card's <li><h3>Title</h3><p>…</p></li>) is no line of its
      // own: its words would come before the heading they follow. Its blocks are lines, in order.
      // (A block with words of its own beside the heading keeps its line, out of order but whole.)
      if (!row && heading_below[u] && !own_words(dom, i)) continue;
      // A block that only holds an image (a list item around a logo) is that image's line.
      if (!row && sole_figure(dom, i, role)) continue;
      // A column header whose one control already says its words (DataTables: "Name" beside the
      // button "Name: Activate to sort") is that control's line, which carries its aria-sort.
      if (!row && (r == "columnheader" || r == "rowheader") && has_inter_desc[u]) {
        const int c = sole_control(dom, i, control);
        if (c >= 0 && lower(accessible_name(dom, vis, c, role[static_cast<std::size_t>(c)]))
                              .find(lower(collapse_ws(words(opaque)))) != std::string::npos) {
          in_text[u] = 1;  // nor are its words a line further down (its title's <span>)
          continue;
        }
      }
      rn.name = cut(words(opaque_but_links), limits::kMaxRevealedTextChars, &rn.cut);
    } else if (cat == Category::kInteractive || cat == Category::kHeading) {
      rn.name = cut(accessible_name(dom, vis, i, r), limits::kMaxNameChars, &rn.cut);
      // A plain box the page made clickable says what it is by its words, as the agent sees it
      // ("Plain clickable words"), not by nothing: Chrome names no generic element. Symbols
      // alone (Sphinx's ">>>" toggle) say nothing; its title does (desc=…).
      if (cat == Category::kInteractive && is_blank(rn.name) && plain_role(r) && !has_inter_desc[u]) {
        const std::string words = subtree_text(dom, vis, i);
        if (has_words(words)) rn.name = cut(words, limits::kMaxNameChars, &rn.cut);
      }
    } else {
      std::string text = accessible_name(dom, vis, i, r);
      if (is_blank(text)) text = subtree_text(dom, vis, i);
      rn.name = cut(text, limits::kMaxTextChars, &rn.cut);
      if (rn.name.empty()) continue;  // an empty live region says nothing yet
    }
    if (cat == Category::kHeading && rn.name.empty()) continue;
    if (node.frame < 0) {
      snap.has_unknown_frames = true;
      if (!doc_warned[static_cast<std::size_t>(node.doc)]++)
        snap.warnings.push_back("document " + std::string(raw.docs[static_cast<std::size_t>(node.doc)].url) +
                                " (frame " + std::string(raw.docs[static_cast<std::size_t>(node.doc)].frame_id) +
                                ") is not in the frame tree: its elements were left out; take a new snapshot");
      continue;
    }
    const Node& box_node = dom.nodes[static_cast<std::size_t>(sel >= 0 ? sel : i)];
    rn.bbox = box_node.box;
    rn.in_viewport =
        rn.bbox.x < vw && rn.bbox.x + rn.bbox.width > 0 && rn.bbox.y < vh && rn.bbox.y + rn.bbox.height > 0;
    if (!options.include_offscreen && !rn.in_viewport) continue;
    rn.backend_node_id = dom.backend(i);
    rn.frame_id = std::string(raw.frames[static_cast<std::size_t>(node.frame)].id);
    rn.loader_id = std::string(raw.frames[static_cast<std::size_t>(node.frame)].loader_id);
    rn.state = state_of(dom, i, r);
    bool has = false;
    const std::string_view desc = dom.attr(i, "aria-description", &has);
    const std::string title = collapse_ws(dom.attr(i, "title"));
    std::string by =
        rn.category == Category::kInteractive ? described_by(dom, vis, i, rn.state.invalid) : std::string();
    // Why it was refused: the page's own message beside it, which says more than the browser's
    // ("Please fill out this field.") and than a description of symbols alone; else the browser's.
    std::string why = rn.state.invalid ? collapse_ws(dom.attr(i, kInvalidMarkAttr)) : std::string();
    if (feedback[u] >= 0) {
      why = subtree_text(dom, vis, feedback[u]);
      by.clear();
    }
    if (!by.empty() && by != rn.name)
      rn.description = cut(by, limits::kMaxNameChars);
    else if (!why.empty())
      rn.description = cut(why, limits::kMaxNameChars);
    else if (has && !is_blank(desc))
      rn.description = cut(collapse_ws(desc), limits::kMaxNameChars);
    // A title the name already says tells the agent nothing: Sphinx titles its link "abs()" "abs".
    else if (!title.empty() && lower(rn.name).find(lower(title)) == std::string::npos)
      rn.description = cut(title, limits::kMaxNameChars);
    else if (!is_blank(dom.attr(i, "placeholder")) && (t == "input" || t == "textarea")) {
      const std::string ph = collapse_ws(dom.attr(i, "placeholder"));
      if (ph != rn.name) rn.description = cut(ph, limits::kMaxNameChars);
    }
    // A nameless control (TodoMVC's toggle checkbox, an icon button) is told apart by the text
    // around it. (Not a menu, a tree or a grid: its items say what it holds, and the words around
    // it are another control's.) Inside a text line (a todo's checkbox in its list item) it sits
    // under that line, whose words say what it is once; elsewhere the nearest ancestor with text
    // is its description ("in: Shipping").
    const bool nameless =
        rn.category == Category::kInteractive && rn.name.empty() && rn.description.empty() && !composite_container(r);
    int under_line = -1;
    if (nameless) {
      int b = dom.nodes[static_cast<std::size_t>(i)].parent;
      for (int up = 0; b >= 0 && up < limits::kContextHops && dom.is_element(b);
           ++up, b = dom.nodes[static_cast<std::size_t>(b)].parent) {
        const int line = first_line[static_cast<std::size_t>(b)];
        if (line < 0) continue;
        const ReadableNode& l = snap.nodes[static_cast<std::size_t>(line)];
        if (l.backend_node_id == dom.backend(b) && l.category == Category::kText && l.role == "text") under_line = line;
        break;
      }
    }
    if (nameless && under_line < 0) {
      int a = dom.nodes[static_cast<std::size_t>(i)].parent;
      for (int hops = 0; a >= 0 && hops < limits::kContextHops && dom.is_element(a);
           ++hops, a = dom.nodes[static_cast<std::size_t>(a)].parent) {
        const std::string_view at = dom.tag(a);
        // Containers of many items say nothing about one of them.
        if (at == "ul" || at == "ol" || at == "table" || at == "tbody" || at == "section" || at == "main" ||
            at == "form" || at == "body" || at == "nav" || at == "header" || at == "footer")
          break;
        std::string around = collapse_ws(subtree_text(dom, vis, a));
        // The words around it, not its own value (a select's chosen option is in its parent's text).
        const std::string& own = rn.state.value;
        if (!own.empty() && !rn.state.value_redacted) {
          if (around == own)
            around.clear();
          else if (around.size() > own.size() && around.compare(around.size() - own.size(), own.size(), own) == 0 &&
                   around[around.size() - own.size() - 1] == ' ')
            around.resize(around.size() - own.size() - 1);
          else if (around.size() > own.size() && around.compare(0, own.size(), own) == 0 && around[own.size()] == ' ')
            around.erase(0, own.size() + 1);
        }
        if (is_blank(around)) continue;
        if (around.size() <= limits::kContextMaxChars) rn.description = "in: " + around;
        break;
      }
    }
    if (r == "link") rn.href = cut(std::string(dom.attr(i, "href")), limits::kMaxHrefChars);
    if (t == "input") {
      rn.input_type = lower(collapse_ws(dom.attr(i, "type")));
      if (rn.input_type.empty()) rn.input_type = "text";
    }
    // A control that stands for its heading keeps the heading's level: trimming keeps it with the
    // page's outline (render/trim.cpp), where the headings of its rank are kept.
    rn.level = r == "heading" ? heading_level(dom, i, r) : heads_level[u];
    rn.z_index = z[u];
    rn.visible = true;
    rn.region = region[u];
    if (landmark[u] >= 0) {
      auto it = landmark_label.find(landmark[u]);
      if (it == landmark_label.end()) {
        std::string label;
        // Only an author-given label names a landmark (its content would repeat the page). A region
        // is one only through its name, and a title gives it one too: it labels the block.
        for (const std::string_view a : {"aria-label", "aria-labelledby", "title"})
          if (dom.has_attr(landmark[u], a) && (a != "title" || rn.region == Region::kRegion))
            label = cut(accessible_name(dom, vis, landmark[u], role[static_cast<std::size_t>(landmark[u])]),
                        limits::kMaxNameChars);
        it = landmark_label.emplace(landmark[u], std::move(label)).first;
      }
      rn.region_label = it->second;
    }
    // A dialog's title is its region's label (`<region name="dialog" label="Delete files?">`): its
    // heading would say it again. The lines after it are still under that heading.
    if (cat == Category::kHeading && rn.region == Region::kDialog && !rn.region_label.empty() &&
        rn.name == rn.region_label) {
      heading = rn.name;
      covered[u] = 1;
      continue;
    }
    rn.heading = heading;
    rn.shadow_path = dom.shadow_path(i);
    // The first line of an item (a post's title, a disclosure's summary) sits where the item does.
    int held_by = anchor[u];
    while (held_by >= 0 && first_line[static_cast<std::size_t>(held_by)] < 0)
      held_by = anchor[static_cast<std::size_t>(held_by)];
    const int above = under_line >= 0 ? under_line : held_by >= 0 ? first_line[static_cast<std::size_t>(held_by)] : -1;
    rn.depth = above >= 0 ? std::min(line_depth[static_cast<std::size_t>(above)] + 1, limits::kMaxOutlineDepth) : 0;
    line_depth.push_back(rn.depth);
    for (int a = i; a >= 0 && first_line[static_cast<std::size_t>(a)] < 0;
         a = dom.nodes[static_cast<std::size_t>(a)].parent)
      first_line[static_cast<std::size_t>(a)] = static_cast<int>(snap.nodes.size());
    if (cat == Category::kText && !group) in_text[u] = 1;
    // A box that is a line only because it takes focus (a named scrolling region around a table)
    // is named by its label, not its words: what it holds is read, line by line.
    else if (!group)
      covered[u] = !is_container_role(r) && !(focus_only(dom, i, r) && !name_from_content(r));
    own_line[u] = 1;
    if (group) item[u] = i;  // a list inside a named group sits under the group's line too
    snap.nodes.push_back(std::move(rn));
    node_ov.push_back(ov[u]);
    if (cat == Category::kHeading) {
      heading = snap.nodes.back().name;
      in_heading[u] = static_cast<int>(snap.nodes.size() - 1);
    }
  }

  // Overlays in stacking order (z-index, then document order = candidate order).
  std::vector<int> sorted(cands.size());
  for (std::size_t k = 0; k < sorted.size(); ++k) sorted[k] = static_cast<int>(k);
  std::stable_sort(sorted.begin(), sorted.end(), [&](int a, int b) {
    return cands[static_cast<std::size_t>(a)].z < cands[static_cast<std::size_t>(b)].z;
  });
  std::vector<int> new_index(cands.size(), -1);
  for (const int k : sorted) {
    const Candidate& c = cands[static_cast<std::size_t>(k)];
    const Node& rootn = dom.nodes[static_cast<std::size_t>(c.node)];
    if (rootn.frame < 0) {
      snap.has_unknown_frames = true;
      continue;
    }
    Overlay o;
    o.backend_node_id = dom.backend(c.node);
    o.frame_id = std::string(raw.frames[static_cast<std::size_t>(rootn.frame)].id);
    o.loader_id = std::string(raw.frames[static_cast<std::size_t>(rootn.frame)].loader_id);
    o.type = c.match.type;
    o.rule = c.match.rule;
    o.confidence = c.match.confidence;
    o.z_index = c.z;
    o.name = cut(accessible_name(dom, vis, c.node, role[static_cast<std::size_t>(c.node)]), limits::kMaxNameChars);
    new_index[static_cast<std::size_t>(k)] = static_cast<int>(snap.overlays.size());
    snap.overlays.push_back(std::move(o));
  }
  // A dropped overlay (unknown frame) hands its contents to the one around it.
  auto resolve = [&](int k) {
    while (k >= 0 && new_index[static_cast<std::size_t>(k)] < 0) k = cands[static_cast<std::size_t>(k)].parent;
    return k < 0 ? -1 : new_index[static_cast<std::size_t>(k)];
  };
  for (std::size_t k = 0; k < cands.size(); ++k)
    if (new_index[k] >= 0) snap.overlays[static_cast<std::size_t>(new_index[k])].parent = resolve(cands[k].parent);
  for (std::size_t k = 0; k < snap.nodes.size(); ++k) snap.nodes[k].overlay = resolve(node_ov[k]);

  return snap;
}

}  // namespace athena
