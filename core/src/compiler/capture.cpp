#include "compiler/capture.h"

#include <algorithm>
#include <string>
#include <utility>

#include "athena/limits.h"

namespace athena::compiler {
namespace {

using json = JsonValue;

const char* type_name(const json& j) { return j.type_name(); }

// A field path built only when an error needs it: formatting "x.nodes.parentIndex[7]" for
// every value read would cost more than reading the capture.
struct Lazy {
  const std::string& base;
  const char* field;
  std::size_t index;
};
struct Lazy2 {  // base.field[index][sub]
  const std::string& base;
  const char* field;
  std::size_t index, sub;
};
std::string to_path(const std::string& p) { return p; }
std::string to_path(const Lazy2& l) {
  return l.base + "." + l.field + "[" + std::to_string(l.index) + "][" + std::to_string(l.sub) + "]";
}
std::string to_path(const Lazy& l) {
  return l.base + (l.field[0] ? "." : "") + l.field + "[" + std::to_string(l.index) + "]";
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
    return fail(ErrorCode::kMalformedCapture, to_path(path) + ": " + what + " (see docs/capture-format.md; re-capture the page)");
  }
};

const json* member(const json& obj, const char* key) { return obj.find(key); }

bool want_array(Ctx& c, const json* j, const std::string& path, bool required = true) {
  if (!j) return required ? c.bad(path, "missing array") : true;
  if (!j->is_array()) return c.bad(path, std::string("expected an array, got ") + type_name(*j));
  return true;
}

bool want_object(Ctx& c, const json* j, const std::string& path) {
  if (!j) return c.bad(path, "missing object");
  if (!j->is_object()) return c.bad(path, std::string("expected an object, got ") + type_name(*j));
  return true;
}

template <typename P>
bool want_int(Ctx& c, const json& j, const P& path, long long& out) {
  if (!j.is_number_integer()) return c.bad(path, std::string("expected an integer, got ") + type_name(j));
  if (j.is_number_unsigned()) return c.bad(path, "integer out of range");  // above INT64_MAX
  out = j.as_int();
  return true;
}

template <typename P>
bool want_number(Ctx& c, const json& j, const P& path, double& out) {
  if (!j.is_number()) return c.bad(path, std::string("expected a number, got ") + type_name(j));
  out = j.as_double();
  return true;
}

bool want_string(Ctx& c, const json* j, const std::string& path, std::string_view& out, bool required = true) {
  if (!j || j->is_null()) {
    if (required) return c.bad(path, "missing string");
    out = {};
    return true;
  }
  if (!j->is_string()) return c.bad(path, std::string("expected a string, got ") + type_name(*j));
  out = j->str();
  return true;
}

std::string at(const std::string& path, std::size_t i) { return path + "[" + std::to_string(i) + "]"; }

// One session's DOMSnapshot: its string table plus the documents being read.
struct SnapshotReader {
  Ctx& c;
  const json& strings;
  std::string path;  // "snapshot" or "oopifs[2].snapshot"

  // A string-table index: -1 means "absent" (empty); anything else must be in range.
  template <typename P>
  bool str(const json& j, const P& p, std::string_view& out, bool allow_absent = true) {
    long long i = 0;
    if (!want_int(c, j, p, i)) return false;
    if (i == -1 && allow_absent) { out = {}; return true; }
    if (i < 0 || static_cast<std::size_t>(i) >= strings.size())
      return c.bad(p, "string index " + std::to_string(i) + " out of range (" + path + ".strings has " +
                          std::to_string(strings.size()) + ")");
    out = strings[static_cast<std::size_t>(i)].str();
    return true;
  }

  // RareStringData / RareIntegerData / RareBooleanData: {index: [...], value?: [...]}.
  // Calls fn(node, value_json_or_null) for each entry after checking the node index.
  template <typename Fn>
  bool rare(const json& nodes, const char* key, std::size_t n, const std::string& p, bool has_value, Fn fn) {
    const json* r = member(nodes, key);
    if (!r) return true;  // rare data is optional
    const std::string rp = p + "." + key;
    if (!want_object(c, r, rp)) return false;
    const json* idx = member(*r, "index");
    if (!want_array(c, idx, rp + ".index")) return false;
    const json* val = has_value ? member(*r, "value") : nullptr;
    if (has_value) {
      if (!want_array(c, val, rp + ".value")) return false;
      if (val->size() != idx->size())
        return c.bad(rp, "index has " + std::to_string(idx->size()) + " entries but value has " + std::to_string(val->size()));
    }
    for (std::size_t k = 0; k < idx->size(); ++k) {
      long long node = 0;
      if (!want_int(c, (*idx)[k], Lazy{rp, "index", k}, node)) return false;
      if (node < 0 || static_cast<std::size_t>(node) >= n)
        return c.bad(Lazy{rp, "index", k}, "node index " + std::to_string(node) + " out of range (" + std::to_string(n) + " nodes)");
      if (!fn(static_cast<std::size_t>(node), val ? &(*val)[k] : nullptr, Lazy{rp, "value", k})) return false;
    }
    return true;
  }

  bool nodes(const json& doc, const std::string& dp, RawDocument& d, std::size_t& total_nodes);
  bool layout(const json& doc, const std::string& dp, RawDocument& d,
              const std::array<int, kStyleCount>& style_pos);
};

bool SnapshotReader::nodes(const json& doc, const std::string& dp, RawDocument& d, std::size_t& total_nodes) {
  const std::string np = dp + ".nodes";
  const json* nodes = member(doc, "nodes");
  if (!want_object(c, nodes, np)) return false;
  const json* parent = member(*nodes, "parentIndex");
  const json* type = member(*nodes, "nodeType");
  const json* name = member(*nodes, "nodeName");
  const json* backend = member(*nodes, "backendNodeId");
  if (!want_array(c, parent, np + ".parentIndex") || !want_array(c, type, np + ".nodeType") ||
      !want_array(c, name, np + ".nodeName") || !want_array(c, backend, np + ".backendNodeId"))
    return false;
  const std::size_t n = parent->size();
  total_nodes += n;
  if (total_nodes > limits::kMaxNodes)
    return c.fail(ErrorCode::kInputTooLarge, "capture: more than " + std::to_string(limits::kMaxNodes) +
                                                 " DOM nodes (limits::kMaxNodes); capture a smaller page or frame");
  auto same_len = [&](const json* a, const char* key) {
    return a->size() == n ? true
                          : c.bad(np + "." + key, "has " + std::to_string(a->size()) + " entries but parentIndex has " +
                                                      std::to_string(n));
  };
  if (!same_len(type, "nodeType") || !same_len(name, "nodeName") || !same_len(backend, "backendNodeId")) return false;
  const json* value = member(*nodes, "nodeValue");
  if (value && (!want_array(c, value, np + ".nodeValue") || !same_len(value, "nodeValue"))) return false;
  const json* attrs = member(*nodes, "attributes");
  if (attrs && (!want_array(c, attrs, np + ".attributes") || !same_len(attrs, "attributes"))) return false;

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
  for (std::size_t i = 0; i < n; ++i) {
    long long v = 0;
    if (!want_int(c, (*parent)[i], Lazy{np, "parentIndex", i}, v)) return false;
    // DOMSnapshot lists nodes in pre-order, so a parent always comes first. Requiring it
    // rules out cycles and forward references in one comparison.
    if (v < -1 || v >= static_cast<long long>(i))
      return c.bad(Lazy{np, "parentIndex", i},
                   "parent " + std::to_string(v) + " is not an earlier node (a cycle, or not DOMSnapshot's pre-order)");
    d.parent[i] = static_cast<int>(v);
    if (!want_int(c, (*type)[i], Lazy{np, "nodeType", i}, v)) return false;
    if (v < 0 || v > 12) return c.bad(Lazy{np, "nodeType", i}, "node type " + std::to_string(v) + " is not a DOM node type");
    d.type[i] = static_cast<std::uint8_t>(v);
    if (!str((*name)[i], Lazy{np, "nodeName", i}, d.name[i], false)) return false;
    if (value && !str((*value)[i], Lazy{np, "nodeValue", i}, d.value[i])) return false;
    if (!want_int(c, (*backend)[i], Lazy{np, "backendNodeId", i}, v)) return false;
    d.backend[i] = v;
    if (attrs) {
      const json& a = (*attrs)[i];
      const std::string& ap = np;  // paths are built only on error
      if (!a.is_array()) return c.bad(Lazy{ap, "attributes", i}, std::string("expected an array, got ") + type_name(a));
      if (a.size() % 2) return c.bad(Lazy{ap, "attributes", i}, "odd number of entries (name/value pairs expected)");
      for (std::size_t k = 0; k < a.size(); k += 2) {
        Attr at_{};
        if (!str(a[k], Lazy2{np, "attributes", i, k}, at_.name, false) ||
            !str(a[k + 1], Lazy2{np, "attributes", i, k + 1}, at_.value))
          return false;
        d.attrs.push_back(at_);
      }
    }
    d.attr_begin[i + 1] = static_cast<std::uint32_t>(d.attrs.size());
  }

  auto flag = [&](const char* key, std::uint16_t bit) {
    return rare(*nodes, key, n, np, false, [&](std::size_t node, const json*, const auto&) {
      d.flags[node] |= bit;
      return true;
    });
  };
  if (!flag("inputChecked", kChecked) || !flag("optionSelected", kOptionSelected) || !flag("isClickable", kClickable))
    return false;
  auto rare_str = [&](const char* key, std::vector<std::string_view>* out, std::uint16_t bit) {
    return rare(*nodes, key, n, np, true, [&](std::size_t node, const json* v, const auto& p) {
      std::string_view s;
      if (!str(*v, p, s)) return false;
      if (out) (*out)[node] = s;
      if (key == std::string_view("shadowRootType")) {
        d.flags[node] |= (s == "user-agent") ? kInUaShadow : kInShadow;
      } else {
        d.flags[node] |= bit;
      }
      return true;
    });
  };
  if (!rare_str("inputValue", &d.input_value, kHasInputValue) || !rare_str("textValue", &d.text_value, kHasTextValue) ||
      !rare_str("pseudoType", &d.pseudo, kPseudo) || !rare_str("shadowRootType", nullptr, 0))
    return false;
  return true;
}

bool SnapshotReader::layout(const json& doc, const std::string& dp, RawDocument& d,
                            const std::array<int, kStyleCount>& style_pos) {
  const std::string lp = dp + ".layout";
  const json* lay = member(doc, "layout");
  if (!want_object(c, lay, lp)) return false;
  const json* index = member(*lay, "nodeIndex");
  const json* bounds = member(*lay, "bounds");
  const json* styles = member(*lay, "styles");
  if (!want_array(c, index, lp + ".nodeIndex") || !want_array(c, bounds, lp + ".bounds") ||
      !want_array(c, styles, lp + ".styles"))
    return false;
  const std::size_t m = index->size();
  const json* text = member(*lay, "text");
  const json* client = member(*lay, "clientRects");
  for (auto [arr, key] : {std::pair{bounds, "bounds"}, std::pair{styles, "styles"}, std::pair{text, "text"},
                          std::pair{client, "clientRects"}}) {
    if (!arr) continue;
    if (!want_array(c, arr, lp + "." + key)) return false;
    if (arr->size() != m)
      return c.bad(lp + "." + key, "has " + std::to_string(arr->size()) + " entries but nodeIndex has " + std::to_string(m));
  }
  d.layouts.resize(m);
  for (std::size_t k = 0; k < m; ++k) {
    long long node = 0;
    if (!want_int(c, (*index)[k], Lazy{lp, "nodeIndex", k}, node)) return false;
    if (node < 0 || static_cast<std::size_t>(node) >= d.size())
      return c.bad(Lazy{lp, "nodeIndex", k}, "node index " + std::to_string(node) + " out of range (" +
                                                 std::to_string(d.size()) + " nodes)");
    RawLayout& L = d.layouts[k];
    const json& b = (*bounds)[k];
    const Lazy bp{lp, "bounds", k};
    if (!b.is_array() || b.size() != 4) return c.bad(bp, "expected [x, y, width, height]");
    if (!want_number(c, b[0], bp, L.bounds.x) || !want_number(c, b[1], bp, L.bounds.y) ||
        !want_number(c, b[2], bp, L.bounds.width) || !want_number(c, b[3], bp, L.bounds.height))
      return false;
    const json& s = (*styles)[k];
    const Lazy sp{lp, "styles", k};
    if (!s.is_array()) return c.bad(sp, std::string("expected an array, got ") + type_name(s));
    for (int slot = 0; slot < kStyleCount; ++slot) {
      const int pos = style_pos[static_cast<std::size_t>(slot)];
      if (pos < 0 || static_cast<std::size_t>(pos) >= s.size()) continue;
      if (!str(s[static_cast<std::size_t>(pos)], Lazy2{lp, "styles", k, static_cast<std::size_t>(pos)}, L.style[static_cast<std::size_t>(slot)]))
        return false;
    }
    if (text && !str((*text)[k], Lazy{lp, "text", k}, L.text)) return false;
    if (client) {
      const json& r = (*client)[k];
      const Lazy rp{lp, "clientRects", k};
      if (!r.is_array() || (r.size() != 0 && r.size() != 4)) return c.bad(rp, "expected [] or [x, y, width, height]");
      if (r.size() == 4 && (!want_number(c, r[0], rp, L.client_left) || !want_number(c, r[1], rp, L.client_top)))
        return false;
    }
    // A pseudo element's generated content (::after { content: "x" }) is the text of its own
    // layout objects: Chrome names from it.
    if (!L.text.empty() && d.generated[static_cast<std::size_t>(node)].empty()) d.generated[static_cast<std::size_t>(node)] = L.text;
    // A node can own several layout objects (e.g. ::first-letter); its first box is the element's.
    if (d.layout[static_cast<std::size_t>(node)] < 0) d.layout[static_cast<std::size_t>(node)] = static_cast<int>(k);
  }
  return true;
}

bool read_styles(Ctx& c, const json& root, std::array<int, kStyleCount>& pos) {
  pos.fill(-1);
  const json* styles = member(root, "styles");
  if (!want_array(c, styles, "styles")) return false;
  static const char* const kNames[kStyleCount] = {"display", "visibility", "opacity", "z-index",
                                                  "position", "pointer-events", "cursor"};
  for (std::size_t i = 0; i < styles->size(); ++i) {
    std::string_view s;
    if (!want_string(c, &(*styles)[i], at("styles", i), s)) return false;
    for (int slot = 0; slot < kStyleCount; ++slot)
      if (s == kNames[slot] && pos[static_cast<std::size_t>(slot)] < 0) pos[static_cast<std::size_t>(slot)] = static_cast<int>(i);
  }
  return true;
}

// Page.getFrameTree().frameTree, walked with an explicit stack (no recursion on hostile depth).
bool read_frame_tree(Ctx& c, const json* tree, const std::string& path, bool oop, std::vector<RawFrame>& out) {
  if (!want_object(c, tree, path)) return false;
  std::vector<std::pair<const json*, std::string>> stack{{tree, path}};
  while (!stack.empty()) {
    auto [t, p] = stack.back();
    stack.pop_back();
    if (!t->is_object()) return c.bad(p, std::string("expected an object, got ") + type_name(*t));
    const json* f = member(*t, "frame");
    if (!want_object(c, f, p + ".frame")) return false;
    RawFrame fr;
    fr.out_of_process = oop;
    if (!want_string(c, member(*f, "id"), p + ".frame.id", fr.id) ||
        !want_string(c, member(*f, "loaderId"), p + ".frame.loaderId", fr.loader_id) ||
        !want_string(c, member(*f, "parentId"), p + ".frame.parentId", fr.parent_id, false) ||
        !want_string(c, member(*f, "url"), p + ".frame.url", fr.url, false))
      return false;
    if (fr.id.empty()) return c.bad(p + ".frame.id", "empty frame id");
    if (fr.loader_id.empty()) return c.bad(p + ".frame.loaderId", "empty loader id");
    out.push_back(fr);
    if (out.size() > limits::kMaxFrames)
      return c.fail(ErrorCode::kInputTooLarge, "capture: more than " + std::to_string(limits::kMaxFrames) +
                                                   " frames (limits::kMaxFrames)");
    const json* kids = member(*t, "childFrames");
    if (!want_array(c, kids, p + ".childFrames", false)) return false;
    if (kids)
      for (std::size_t i = kids->size(); i-- > 0;) stack.emplace_back(&(*kids)[i], at(p + ".childFrames", i));
  }
  return true;
}

// One session's DOMSnapshot ({documents, strings}) appended to cap.docs.
bool read_snapshot(Ctx& c, const json* snap, const std::string& path, int session,
                   const std::array<int, kStyleCount>& style_pos, RawCapture& cap, std::size_t& total_nodes) {
  if (!want_object(c, snap, path)) return false;
  const json* docs = member(*snap, "documents");
  const json* strings = member(*snap, "strings");
  if (!want_array(c, docs, path + ".documents") || !want_array(c, strings, path + ".strings")) return false;
  if (docs->empty()) return c.bad(path + ".documents", "empty (a snapshot has at least the main document)");
  for (std::size_t i = 0; i < strings->size(); ++i)
    if (!(*strings)[i].is_string())
      return c.bad(at(path + ".strings", i), std::string("expected a string, got ") + type_name((*strings)[i]));
  SnapshotReader r{c, *strings, path};
  const int first = static_cast<int>(cap.docs.size());
  const int count = static_cast<int>(docs->size());
  for (std::size_t di = 0; di < docs->size(); ++di) {
    const json& doc = (*docs)[di];
    const std::string dp = at(path + ".documents", di);
    if (!doc.is_object()) return c.bad(dp, std::string("expected an object, got ") + type_name(doc));
    RawDocument d;
    d.session = session;
    const json* fid = member(doc, "frameId");
    if (!fid) return c.bad(dp + ".frameId", "missing string index");
    if (!r.str(*fid, dp + ".frameId", d.frame_id, false)) return false;
    if (const json* u = member(doc, "documentURL"); u && !r.str(*u, dp + ".documentURL", d.url)) return false;
    if (const json* t = member(doc, "title"); t && !r.str(*t, dp + ".title", d.title)) return false;
    if (const json* sx = member(doc, "scrollOffsetX"); sx && !want_number(c, *sx, dp + ".scrollOffsetX", d.scroll_x)) return false;
    if (const json* sy = member(doc, "scrollOffsetY"); sy && !want_number(c, *sy, dp + ".scrollOffsetY", d.scroll_y)) return false;
    if (!r.nodes(doc, dp, d, total_nodes) || !r.layout(doc, dp, d, style_pos)) return false;
    // contentDocumentIndex: documents are listed as they are reached, so an iframe's document
    // always comes after the document holding the iframe; each is some iframe's at most once.
    const json& nodes = *doc.find("nodes");  // checked by nodes() above
    if (!r.rare(nodes, "contentDocumentIndex", d.size(), dp + ".nodes", true,
                [&](std::size_t node, const json* v, const auto& p) {
                  long long k = 0;
                  if (!want_int(c, *v, p, k)) return false;
                  if (k <= static_cast<long long>(di) || k >= count)
                    return c.bad(p, "document index " + std::to_string(k) + " is not a later document of this snapshot (" +
                                        std::to_string(count) + " documents)");
                  d.content_doc[node] = first + static_cast<int>(k);
                  return true;
                }))
      return false;
    cap.docs.push_back(std::move(d));
  }
  std::vector<char> used(static_cast<std::size_t>(count), 0);
  for (int di = first; di < first + count; ++di)
    for (const int k : cap.docs[static_cast<std::size_t>(di)].content_doc) {
      if (k < 0) continue;
      if (used[static_cast<std::size_t>(k - first)]++)
        return c.bad(path + ".documents", "document " + std::to_string(k - first) + " is the content of two iframes");
    }
  cap.sessions.push_back(RawSession{{}, -1, first, count});
  return true;
}

}  // namespace

Result<JsonDoc> parse_json(std::string_view text) {
  if (text.size() > limits::kMaxInputBytes)
    return make_error(ErrorCode::kInputTooLarge, "capture: " + std::to_string(text.size()) + " bytes exceed limits::kMaxInputBytes (" +
                                                     std::to_string(limits::kMaxInputBytes) + "); capture a smaller page or frame");
  return JsonDoc::parse(text, "capture", "re-capture the page");
}

Result<RawCapture> read_capture(const JsonValue& root) {
  Ctx c;
  RawCapture cap;
  if (!root.is_object())
    return make_error(ErrorCode::kMalformedCapture,
                      std::string("capture: expected a JSON object (docs/capture-format.md), got ") + root.type_name());
  if (const json* v = member(root, "v")) {
    long long ver = 0;
    if (!want_int(c, *v, "v", ver)) return c.err;
    if (ver != 1)
      return make_error(ErrorCode::kMalformedCapture,
                        "v: capture format version " + std::to_string(ver) + " is not supported (this core reads v1)");
  }
  std::array<int, kStyleCount> style_pos{};
  if (!read_styles(c, root, style_pos)) return c.err;
  if (!read_frame_tree(c, member(root, "frameTree"), "frameTree", false, cap.frames)) return c.err;
  std::size_t total_nodes = 0;
  if (!read_snapshot(c, member(root, "snapshot"), "snapshot", 0, style_pos, cap, total_nodes)) return c.err;

  const json* oopifs = member(root, "oopifs");
  if (!want_array(c, oopifs, "oopifs", false)) return c.err;
  if (oopifs) {
    for (std::size_t i = 0; i < oopifs->size(); ++i) {
      const json& o = (*oopifs)[i];
      const std::string op = at("oopifs", i);
      if (!want_object(c, &o, op)) return c.err;
      std::string_view fid;
      if (!want_string(c, member(o, "frameId"), op + ".frameId", fid)) return c.err;
      long long owner = -1;
      if (const json* ow = member(o, "ownerBackendNodeId"); ow && !ow->is_null() && !want_int(c, *ow, op + ".ownerBackendNodeId", owner))
        return c.err;
      if (!read_frame_tree(c, member(o, "frameTree"), op + ".frameTree", true, cap.frames)) return c.err;
      if (!read_snapshot(c, member(o, "snapshot"), op + ".snapshot", static_cast<int>(i) + 1, style_pos, cap, total_nodes))
        return c.err;
      cap.sessions.back().frame_id = fid;
      cap.sessions.back().owner_backend = owner;
    }
  }
  if (const json* vp = member(root, "viewport")) {
    if (!want_object(c, vp, "viewport")) return c.err;
    double* fields[] = {&cap.viewport.x, &cap.viewport.y, &cap.viewport.width, &cap.viewport.height};
    const char* keys[] = {"x", "y", "width", "height"};
    for (int k = 0; k < 4; ++k) {
      const json* f = member(*vp, keys[k]);
      if (!f) { c.bad(std::string("viewport.") + keys[k], "missing number"); return c.err; }
      if (!want_number(c, *f, std::string("viewport.") + keys[k], *fields[k])) return c.err;
    }
    cap.has_viewport = true;
  }
  return cap;
}

}  // namespace athena::compiler
