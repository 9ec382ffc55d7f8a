// The state compile_capture() (compile.cpp) hands from step to step: the page as read (DOM view,
// visibility), what the first passes marked per node (roles, controls, what lies below), and what
// the walk carries down the tree while it builds the snapshot's lines and overlays. Each step is a
// function of the rule file it belongs to; compile.cpp only orders them.
#pragma once

#include <cstddef>
#include <string>
#include <unordered_map>
#include <vector>

#include "athena/compiler.h"
#include "athena/snapshot.h"
#include "compiler/capture.h"
#include "compiler/dom_view.h"
#include "compiler/overlays.h"
#include "compiler/visibility.h"

namespace athena::compiler {

struct Candidate {  // an overlay before sorting
  int node = -1;
  int parent = -1;  // candidate index of the enclosing overlay
  OverlayMatch match;
  int z = 0;
};

struct CompileState {
  CompileState(const RawCapture& raw_, Snapshot& snap_, const Dom& dom_, const Visibility& vis_,
               const CompileOptions& options_)
      : raw(raw_),
        snap(snap_),
        dom(dom_),
        vis(vis_),
        options(options_),
        n(dom_.nodes.size()),
        role(n),
        base_interactive(n, 0),
        has_inter_desc(n, 0),
        editable(n, 0),
        structure_below(n, 0),
        reads_below(n, 0),
        heading_below(n, 0),
        control(n, 0),
        opaque(n, 0),
        opaque_but_links(n, 0),
        orphan_label(n, 0),
        region(n, Region::kPage),
        landmark(n, -1),
        z(n, 0),
        ov(n, -1),
        in_live(n, 0),
        in_editable(n, 0),
        covered(n, 0),
        in_text(n, 0),
        item(n, -1),
        anchor(n, -1),
        first_line(n, -1),
        last_term(n, -1),
        prev_item(n, -1),
        last_item(n, -1),
        list_anchor(n, -1),
        own_line(n, 0),
        in_heading(n, -1),
        heading_link(n, 0),
        heads_level(n, 0),
        whole_part(n, 0),
        doc_warned(raw_.docs.size(), 0),
        vw(snap_.viewport.width),
        vh(snap_.viewport.height) {}

  const RawCapture& raw;
  Snapshot& snap;
  const Dom& dom;
  const Visibility& vis;
  const CompileOptions& options;
  const std::size_t n;

  // The first passes (compile_marks.cpp), per node.
  std::vector<std::string> role;
  std::vector<char> base_interactive, has_inter_desc;
  std::vector<char> editable;  // contenteditable (is_contenteditable), read once per element
  // Something below it has lines of its own structure (a table row, a list item, a heading); is
  // text the agent reads (a paragraph, a row, a heading); is a heading.
  std::vector<char> structure_below, reads_below, heading_below;
  std::vector<char> validation;
  std::vector<char> control;
  std::vector<int> feedback;
  std::vector<char> described;
  std::vector<char> opaque, opaque_but_links, orphan_label;
  std::unordered_map<int, OverlayMatch> match_of;  // lists and their boxes: the walk takes these

  // The walk, per node: what it inherits from its parent and what its line left behind.
  std::vector<Region> region;
  std::vector<int> landmark, z, ov;
  std::vector<char> in_live;
  std::vector<char> in_editable;  // inside a contenteditable root: the field's content, not lines
  std::vector<char> covered;      // inside an element already emitted: no text block of its own
  std::vector<char> in_text;      // inside a text block: its words are that block's (a nested list is not)
  // The outline (is_outline_list / is_outline_item): per node its nearest item ancestor-or-self,
  // the item that holds its nearest list or row, and the first line emitted inside it.
  std::vector<int> item, anchor, first_line;
  std::vector<int> last_term;      // per <dl>: its latest <dt>, which the <dd>s after it sit under
  std::vector<int> prev_item;      // per item: the item before it in its list
  std::vector<int> last_item;      // per list: its latest item
  std::vector<int> list_anchor;    // per outline list: the item whose first line its items sit under
  std::vector<char> own_line;      // the node is a line itself (a row with words, not only its cells' controls)
  std::vector<int> in_heading;     // inside a heading's line (its index in snap.nodes): a permalink there is no line
  std::vector<char> heading_link;  // a heading's one link, of its words, that only scrolls: the heading's line
  std::vector<int> heads_level;    // a heading's one control of its words (an accordion's button): its level
  std::vector<char> whole_part;    // a control that is all of the control around it (a tab's own <a>): that line
  std::vector<int> line_depth;     // parallel to snap.nodes
  std::unordered_map<int, std::string> landmark_label;
  std::vector<Candidate> cands;
  std::vector<int> node_ov;  // parallel to snap.nodes: candidate index
  std::string heading;
  std::vector<char> doc_warned;
  const double vw, vh;
};

/// What the walk decided an element is to the agent (decide_line), and what it read on the way.
struct LineKind {
  bool visible = false;
  Category cat = Category::kInteractive;
  bool group = false;   // a named fieldset or group: a line of its name, its content under it
  bool figure = false;  // an image, a progress bar or a meter (is_figure_role)
  int sel = -1;         // an <option>'s <select>
  int whole_part = -1;  // the one control inside it that is all of it, of the same name (no line of its own)
  bool clickable = false;
};

/// `s` cut to at most `n` bytes on a character boundary; `*was_cut` says whether words were left out.
std::string cut(std::string s, std::size_t n, bool* was_cut = nullptr);

// The first passes, in order (compile_marks.cpp).
void mark_roles(CompileState& st);
void mark_below(CompileState& st);
void mark_controls(CompileState& st);
void mark_opaque(CompileState& st);
// Overlays (overlays.cpp): the visible lists, an element's candidacy, then the snapshot's overlays.
void match_lists(CompileState& st);
void add_overlay_candidate(CompileState& st, int i, bool visible);
void place_overlays(CompileState& st);
// The walk, per node, in order (lines.cpp, line_kind.cpp, regions.cpp, descriptions.cpp).
void inherit_outline(CompileState& st, int i);
bool enter_element(CompileState& st, int i, LineKind& k);
void enter_landmark(CompileState& st, int i);
bool heading_mark(CompileState& st, int i);
bool decide_line(CompileState& st, int i, LineKind& k);
bool keep_line(CompileState& st, int i, const LineKind& k);
bool name_line(CompileState& st, int i, const LineKind& k, ReadableNode& rn);
bool locate_line(CompileState& st, int i, const LineKind& k, ReadableNode& rn);
void describe_line(CompileState& st, int i, ReadableNode& rn);
int context_of(CompileState& st, int i, ReadableNode& rn);
void fill_line(CompileState& st, int i, ReadableNode& rn);
void label_region(CompileState& st, int i, ReadableNode& rn);
bool dialog_title(CompileState& st, int i, const LineKind& k, const ReadableNode& rn);
void place_line(CompileState& st, int i, const LineKind& k, int under_line, ReadableNode&& rn);

}  // namespace athena::compiler
