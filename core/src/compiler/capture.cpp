// The JSON form of a capture: JSON-shape checks here (is it an array, an integer, a string?),
// every other rule in capture_rules.h, shared with the binary form (capture_binary.cpp).
#include "compiler/capture.h"

#include <algorithm>
#include <string>
#include <utility>

#include "athena/limits.h"
#include "compiler/capture_rules.h"

namespace athena::compiler {
namespace {

using json = JsonValue;
using namespace capture_rules;

const char* type_name(const json& j) {
  return j.type_name();
}

const json* member(const json& obj, const char* key) {
  return obj.find(key);
}

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

// A JSON array of integers, as the rules read lists (attributes of a node, styles of a layout entry).
struct JsonList {
  const json* a = nullptr;
  std::size_t size() const { return a->size(); }
  template <typename P>
  bool get(Ctx& c, std::size_t k, const P& p, long long& out) const {
    return want_int(c, (*a)[k], p, out);
  }
};

// {index: [...], value?: [...]}
struct JsonRare {
  const json* idx = nullptr;
  const json* val = nullptr;
  std::size_t size() const { return idx->size(); }
  template <typename P>
  bool index(Ctx& c, std::size_t k, const P& p, long long& out) const {
    return want_int(c, (*idx)[k], p, out);
  }
  template <typename P>
  bool value(Ctx& c, std::size_t k, const P& p, long long& out) const {
    return want_int(c, (*val)[k], p, out);
  }
};

// One document of a DOMSnapshot in JSON: the Source the rules read (capture_rules.h).
class JsonDocument {
 public:
  using List = JsonList;
  using Rare = JsonRare;

  explicit JsonDocument(const json& doc) : doc_(doc) {}

  bool frame_id(Ctx& c, const std::string& dp, long long& out) {
    const json* fid = member(doc_, "frameId");
    if (!fid) return c.bad(dp + ".frameId", "missing string index");
    return want_int(c, *fid, dp + ".frameId", out);
  }
  bool url(Ctx& c, const std::string& dp, long long& out, bool& present) {
    return optional_int(c, "documentURL", dp, out, present);
  }
  bool title(Ctx& c, const std::string& dp, long long& out, bool& present) {
    return optional_int(c, "title", dp, out, present);
  }
  bool scroll(Ctx& c, const std::string& dp, double& x, double& y) {
    if (const json* sx = member(doc_, "scrollOffsetX"); sx && !want_number(c, *sx, dp + ".scrollOffsetX", x))
      return false;
    if (const json* sy = member(doc_, "scrollOffsetY"); sy && !want_number(c, *sy, dp + ".scrollOffsetY", y))
      return false;
    return true;
  }

  bool open_nodes(Ctx& c, const std::string& np, std::size_t& n) {
    nodes_ = member(doc_, "nodes");
    if (!want_object(c, nodes_, np)) return false;
    parent_ = member(*nodes_, "parentIndex");
    type_ = member(*nodes_, "nodeType");
    name_ = member(*nodes_, "nodeName");
    backend_ = member(*nodes_, "backendNodeId");
    if (!want_array(c, parent_, np + ".parentIndex") || !want_array(c, type_, np + ".nodeType") ||
        !want_array(c, name_, np + ".nodeName") || !want_array(c, backend_, np + ".backendNodeId"))
      return false;
    n = n_ = parent_->size();
    return true;
  }
  bool check_nodes(Ctx& c, const std::string& np) {
    if (!same_len(c, type_, n_, np, "nodeType", "parentIndex") ||
        !same_len(c, name_, n_, np, "nodeName", "parentIndex") ||
        !same_len(c, backend_, n_, np, "backendNodeId", "parentIndex"))
      return false;
    value_ = member(*nodes_, "nodeValue");
    if (value_ &&
        (!want_array(c, value_, np + ".nodeValue") || !same_len(c, value_, n_, np, "nodeValue", "parentIndex")))
      return false;
    attrs_ = member(*nodes_, "attributes");
    if (attrs_ &&
        (!want_array(c, attrs_, np + ".attributes") || !same_len(c, attrs_, n_, np, "attributes", "parentIndex")))
      return false;
    return true;
  }
  bool has_value() const { return value_ != nullptr; }
  bool has_attrs() const { return attrs_ != nullptr; }
  bool parent(Ctx& c, std::size_t i, const Lazy& p, long long& out) const { return want_int(c, (*parent_)[i], p, out); }
  bool node_type(Ctx& c, std::size_t i, const Lazy& p, long long& out) const {
    return want_int(c, (*type_)[i], p, out);
  }
  bool node_name(Ctx& c, std::size_t i, const Lazy& p, long long& out) const {
    return want_int(c, (*name_)[i], p, out);
  }
  bool node_value(Ctx& c, std::size_t i, const Lazy& p, long long& out) const {
    return want_int(c, (*value_)[i], p, out);
  }
  bool backend(Ctx& c, std::size_t i, const Lazy& p, long long& out) const {
    return want_int(c, (*backend_)[i], p, out);
  }
  bool attrs(Ctx& c, std::size_t i, const Lazy& p, List& out) const {
    const json& a = (*attrs_)[i];
    if (!a.is_array()) return c.bad(p, std::string("expected an array, got ") + type_name(a));
    out.a = &a;
    return true;
  }
  bool rare(Ctx& c, const std::string& rp, const char* key, bool has_value, Rare& out, bool& present) const {
    const json* r = member(*nodes_, key);
    present = r != nullptr;
    if (!r) return true;
    if (!want_object(c, r, rp)) return false;
    out.idx = member(*r, "index");
    if (!want_array(c, out.idx, rp + ".index")) return false;
    out.val = nullptr;
    if (has_value) {
      out.val = member(*r, "value");
      if (!want_array(c, out.val, rp + ".value")) return false;
      if (out.val->size() != out.idx->size())
        return c.bad(rp, "index has " + std::to_string(out.idx->size()) + " entries but value has " +
                             std::to_string(out.val->size()));
    }
    return true;
  }

  bool open_layout(Ctx& c, const std::string& lp, std::size_t& m) {
    const json* lay = member(doc_, "layout");
    if (!want_object(c, lay, lp)) return false;
    index_ = member(*lay, "nodeIndex");
    bounds_ = member(*lay, "bounds");
    styles_ = member(*lay, "styles");
    if (!want_array(c, index_, lp + ".nodeIndex") || !want_array(c, bounds_, lp + ".bounds") ||
        !want_array(c, styles_, lp + ".styles"))
      return false;
    m = index_->size();
    text_ = member(*lay, "text");
    client_ = member(*lay, "clientRects");
    for (auto [arr, key] : {std::pair{bounds_, "bounds"}, std::pair{styles_, "styles"}, std::pair{text_, "text"},
                            std::pair{client_, "clientRects"}}) {
      if (!arr) continue;
      if (!want_array(c, arr, lp + "." + key) || !same_len(c, arr, m, lp, key, "nodeIndex")) return false;
    }
    return true;
  }
  bool has_text() const { return text_ != nullptr; }
  bool layout_node(Ctx& c, std::size_t k, const Lazy& p, long long& out) const {
    return want_int(c, (*index_)[k], p, out);
  }
  bool bounds(Ctx& c, std::size_t k, const Lazy& p, Rect& r) const {
    const json& b = (*bounds_)[k];
    if (!b.is_array() || b.size() != 4) return c.bad(p, "expected [x, y, width, height]");
    return want_number(c, b[0], p, r.x) && want_number(c, b[1], p, r.y) && want_number(c, b[2], p, r.width) &&
           want_number(c, b[3], p, r.height);
  }
  bool styles(Ctx& c, std::size_t k, const Lazy& p, List& out) const {
    const json& s = (*styles_)[k];
    if (!s.is_array()) return c.bad(p, std::string("expected an array, got ") + type_name(s));
    out.a = &s;
    return true;
  }
  bool text(Ctx& c, std::size_t k, const Lazy& p, long long& out) const { return want_int(c, (*text_)[k], p, out); }
  bool client(Ctx& c, std::size_t k, const Lazy& p, double& x, double& y) const {
    if (!client_) return true;
    const json& r = (*client_)[k];
    if (!r.is_array() || (r.size() != 0 && r.size() != 4)) return c.bad(p, "expected [] or [x, y, width, height]");
    return r.size() != 4 || (want_number(c, r[0], p, x) && want_number(c, r[1], p, y));
  }

 private:
  const json& doc_;
  const json *nodes_ = nullptr, *parent_ = nullptr, *type_ = nullptr, *name_ = nullptr, *backend_ = nullptr;
  const json *value_ = nullptr, *attrs_ = nullptr;
  const json *index_ = nullptr, *bounds_ = nullptr, *styles_ = nullptr, *text_ = nullptr, *client_ = nullptr;
  std::size_t n_ = 0;

  bool optional_int(Ctx& c, const char* key, const std::string& dp, long long& out, bool& present) const {
    const json* j = member(doc_, key);
    present = j != nullptr;
    return !j || want_int(c, *j, dp + "." + key, out);
  }
  static bool same_len(Ctx& c, const json* a, std::size_t n, const std::string& base, const char* key,
                       const char* other) {
    return a->size() == n ? true
                          : c.bad(base + "." + key, "has " + std::to_string(a->size()) + " entries but " + other +
                                                        " has " + std::to_string(n));
  }
};

bool read_styles(Ctx& c, const json& root, std::array<int, kStyleCount>& pos) {
  const json* styles = member(root, "styles");
  if (!want_array(c, styles, "styles")) return false;
  std::vector<std::string_view> names(styles->size());
  for (std::size_t i = 0; i < styles->size(); ++i)
    if (!want_string(c, &(*styles)[i], at("styles", i), names[i])) return false;
  style_positions(names, pos);
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
        !want_string(c, member(*f, "url"), p + ".frame.url", fr.url, false) || !add_frame(c, fr, p, out))
      return false;
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
  std::vector<std::string_view> table(strings->size());
  for (std::size_t i = 0; i < strings->size(); ++i) {
    const json& s = (*strings)[i];
    if (!s.is_string()) return c.bad(at(path + ".strings", i), std::string("expected a string, got ") + type_name(s));
    table[i] = s.str();
  }
  SnapshotRules rules(c, table, path);
  const int first = static_cast<int>(cap.docs.size());
  const int count = static_cast<int>(docs->size());
  for (std::size_t di = 0; di < docs->size(); ++di) {
    const json& doc = (*docs)[di];
    if (!doc.is_object())
      return c.bad(at(path + ".documents", di), std::string("expected an object, got ") + type_name(doc));
    RawDocument d;
    d.session = session;
    JsonDocument source(doc);
    if (!rules.document(source, di, first, count, style_pos, d, total_nodes)) return false;
    cap.docs.push_back(std::move(d));
  }
  if (!rules.content_documents_unique(cap, first, count)) return false;
  cap.sessions.push_back(RawSession{{}, -1, first, count});
  return true;
}

}  // namespace

Result<JsonDoc> parse_json(std::string_view text) {
  if (text.size() > limits::kMaxInputBytes)
    return make_error(ErrorCode::kInputTooLarge,
                      "capture: " + std::to_string(text.size()) + " bytes exceed limits::kMaxInputBytes (" +
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
    if (ver != kCaptureVersion)
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
      if (const json* ow = member(o, "ownerBackendNodeId");
          ow && !ow->is_null() && !want_int(c, *ow, op + ".ownerBackendNodeId", owner))
        return c.err;
      if (!read_frame_tree(c, member(o, "frameTree"), op + ".frameTree", true, cap.frames)) return c.err;
      if (!read_snapshot(c, member(o, "snapshot"), op + ".snapshot", static_cast<int>(i) + 1, style_pos, cap,
                         total_nodes))
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
      if (!f) {
        c.bad(std::string("viewport.") + keys[k], "missing number");
        return c.err;
      }
      if (!want_number(c, *f, std::string("viewport.") + keys[k], *fields[k])) return c.err;
    }
    cap.has_viewport = true;
  }
  return cap;
}

}  // namespace athena::compiler
