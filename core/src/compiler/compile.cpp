// compile_capture(): the one pass over the flat tree that decides which elements an agent sees
// and fills their ReadableNode. The rules live in the files named after them (roles, accname,
// node_state, descriptions, lines, line_kind, visibility, regions, overlays, revealed_text), and
// so do the steps that apply them (compile_marks.cpp holds the first passes, compile_state.h the
// state they share); this file only orders them.
#include <string>
#include <utility>

#include "athena/compiler.h"
#include "athena/limits.h"
#include "compiler/capture.h"
#include "compiler/compile_state.h"
#include "compiler/dom_view.h"
#include "compiler/json_doc.h"
#include "compiler/revealed_text.h"
#include "compiler/text.h"
#include "compiler/visibility.h"

namespace athena {
namespace compiler {

std::string cut(std::string s, std::size_t n, bool* was_cut) {
  trim_in_place(s);
  if (was_cut) *was_cut = s.size() > n;
  cut_utf8(s, n);
  trim_in_place(s);
  return s;
}

}  // namespace compiler

namespace {

using namespace compiler;

// The snapshot's page: its frames, address, title and viewport.
void read_page(const RawCapture& raw, const Dom& dom, Snapshot& snap) {
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
}

// One node of the walk, in document order: the steps that decide whether it is a line and build it.
void walk_node(CompileState& st, int i) {
  inherit_outline(st, i);
  if (!st.dom.is_element(i)) return;
  LineKind k;
  if (!enter_element(st, i, k)) return;
  add_overlay_candidate(st, i, k.visible);
  enter_landmark(st, i);
  if (heading_mark(st, i)) return;
  if (!decide_line(st, i, k) || !keep_line(st, i, k)) return;
  ReadableNode rn;
  if (!name_line(st, i, k, rn) || !locate_line(st, i, k, rn)) return;
  describe_line(st, i, rn);
  const int under_line = context_of(st, i, rn);
  fill_line(st, i, rn);
  label_region(st, i, rn);
  if (dialog_title(st, i, k, rn)) return;
  place_line(st, i, k, under_line, std::move(rn));
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
  read_page(raw, dom, snap);
  if (dom.root < 0) return snap;

  CompileState st(raw, snap, dom, vis, options);
  mark_roles(st);
  mark_below(st);
  mark_controls(st);
  mark_opaque(st);
  match_lists(st);
  for (const int i : dom.order) walk_node(st, i);
  place_overlays(st);
  return snap;
}

}  // namespace athena
