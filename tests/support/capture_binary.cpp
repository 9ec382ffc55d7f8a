#include "capture_binary.h"

#include <cstdint>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string_view>
#include <vector>

#include "compiler/json_doc.h"

namespace athena::testing {
namespace {

using compiler::JsonValue;

[[noreturn]] void refuse(const std::string& why) {
  throw std::runtime_error("to_binary_capture: " + why);
}

class Writer {
 public:
  std::string out;

  void u32(std::uint32_t v) { raw(&v, 4); }
  void i32(std::int32_t v) { raw(&v, 4); }
  void f64(double v) { raw(&v, 8); }
  void str(std::string_view s) {
    u32(static_cast<std::uint32_t>(s.size()));
    out.append(s);
  }
  void i32s(const std::vector<std::int32_t>& v) {
    align8();
    raw(v.data(), v.size() * 4);
  }
  void f64s(const std::vector<double>& v) {
    align8();
    raw(v.data(), v.size() * 8);
  }

 private:
  void raw(const void* p, std::size_t n) { out.append(static_cast<const char*>(p), n); }
  void align8() { out.append((8 - out.size() % 8) % 8, '\0'); }
};

const JsonValue* get(const JsonValue& obj, const char* key) {
  return obj.is_object() ? obj.find(key) : nullptr;
}

const JsonValue& need(const JsonValue& obj, const char* key) {
  const JsonValue* v = get(obj, key);
  if (!v) refuse(std::string("missing ") + key);
  return *v;
}

std::int32_t int32(const JsonValue& v) {
  if (!v.is_number_integer() || v.is_number_unsigned() || v.as_int() < std::numeric_limits<std::int32_t>::min() ||
      v.as_int() > std::numeric_limits<std::int32_t>::max())
    refuse("an integer beyond 32 bits, or not an integer");
  return static_cast<std::int32_t>(v.as_int());
}

double number(const JsonValue& v) {
  if (!v.is_number()) refuse("not a number");
  return v.as_double();
}

std::string_view string_or_empty(const JsonValue* v) {
  if (!v || v->is_null()) return {};
  if (!v->is_string()) refuse("not a string");
  return v->str();
}

std::vector<std::int32_t> ints(const JsonValue* arr, std::size_t n, std::int32_t absent) {
  std::vector<std::int32_t> out(n, absent);
  if (!arr) return out;
  if (!arr->is_array() || arr->size() != n) refuse("a column of the wrong length");
  for (std::size_t i = 0; i < n; ++i) out[i] = int32((*arr)[i]);
  return out;
}

// Lists (attributes per node, styles per layout entry) as offsets + values.
void lists(Writer& w, const JsonValue* arr, std::size_t n) {
  std::vector<std::int32_t> off{0}, values;
  for (std::size_t i = 0; i < n; ++i) {
    if (arr) {
      const JsonValue& a = (*arr)[i];
      if (!a.is_array()) refuse("a list that is not an array");
      for (std::size_t k = 0; k < a.size(); ++k) values.push_back(int32(a[k]));
    }
    off.push_back(static_cast<std::int32_t>(values.size()));
  }
  w.i32s(off);
  w.i32s(values);
}

void rare(Writer& w, const JsonValue& nodes, const char* key, bool valued) {
  const JsonValue* r = get(nodes, key);
  const JsonValue* idx = r ? get(*r, "index") : nullptr;
  const std::size_t k = idx ? idx->size() : 0;
  w.u32(static_cast<std::uint32_t>(k));
  w.i32s(ints(idx, k, 0));
  if (valued) w.i32s(ints(r ? get(*r, "value") : nullptr, k, 0));
}

void document(Writer& w, const JsonValue& doc) {
  w.i32(int32(need(doc, "frameId")));
  const JsonValue* url = get(doc, "documentURL");
  const JsonValue* title = get(doc, "title");
  w.i32(url ? int32(*url) : -1);
  w.i32(title ? int32(*title) : -1);
  const JsonValue* sx = get(doc, "scrollOffsetX");
  const JsonValue* sy = get(doc, "scrollOffsetY");
  w.u32((sx ? 1u : 0u) | (sy ? 2u : 0u));
  w.f64(sx ? number(*sx) : 0);
  w.f64(sy ? number(*sy) : 0);

  const JsonValue& nodes = need(doc, "nodes");
  const std::size_t n = need(nodes, "parentIndex").size();
  w.u32(static_cast<std::uint32_t>(n));
  for (const char* col : {"parentIndex", "nodeType", "nodeName", "nodeValue", "backendNodeId"})
    w.i32s(ints(get(nodes, col), n, -1));
  lists(w, get(nodes, "attributes"), n);
  for (const char* key : {"inputChecked", "optionSelected", "isClickable"}) rare(w, nodes, key, false);
  for (const char* key : {"inputValue", "textValue", "pseudoType", "shadowRootType", "contentDocumentIndex"})
    rare(w, nodes, key, true);

  const JsonValue& layout = need(doc, "layout");
  const std::size_t m = need(layout, "nodeIndex").size();
  w.u32(static_cast<std::uint32_t>(m));
  w.i32s(ints(get(layout, "nodeIndex"), m, 0));
  std::vector<double> bounds;
  const JsonValue& b = need(layout, "bounds");
  for (std::size_t k = 0; k < m; ++k) {
    if (b[k].size() != 4) refuse("bounds that are not [x, y, width, height]");
    for (std::size_t j = 0; j < 4; ++j) bounds.push_back(number(b[k][j]));
  }
  w.f64s(bounds);
  lists(w, &need(layout, "styles"), m);
  w.i32s(ints(get(layout, "text"), m, -1));
  std::vector<std::int32_t> with_rect;
  std::vector<double> xy;
  if (const JsonValue* rects = get(layout, "clientRects"))
    for (std::size_t k = 0; k < m; ++k)
      if ((*rects)[k].size() == 4) {
        with_rect.push_back(static_cast<std::int32_t>(k));
        xy.push_back(number((*rects)[k][0]));
        xy.push_back(number((*rects)[k][1]));
      }
  w.u32(static_cast<std::uint32_t>(with_rect.size()));
  w.i32s(with_rect);
  w.f64s(xy);
}

void frames(Writer& w, const JsonValue& tree) {
  const JsonValue& f = need(tree, "frame");
  w.str(string_or_empty(get(f, "id")));
  w.str(string_or_empty(get(f, "loaderId")));
  w.str(string_or_empty(get(f, "parentId")));
  w.str(string_or_empty(get(f, "url")));
  const JsonValue* kids = get(tree, "childFrames");
  w.u32(kids ? static_cast<std::uint32_t>(kids->size()) : 0u);
  if (kids)
    for (std::size_t i = 0; i < kids->size(); ++i) frames(w, (*kids)[i]);
}

void snapshot(Writer& w, const JsonValue& snap) {
  const JsonValue& strings = need(snap, "strings");
  std::string blob;
  for (std::size_t i = 0; i < strings.size(); ++i) {
    const std::string_view s = string_or_empty(&strings[i]);
    if (s.find('\0') != std::string_view::npos) refuse("a string holding U+0000");
    blob.append(s);
    blob.push_back('\0');
  }
  w.u32(static_cast<std::uint32_t>(strings.size()));
  w.str(blob);
  const JsonValue& docs = need(snap, "documents");
  w.u32(static_cast<std::uint32_t>(docs.size()));
  for (std::size_t i = 0; i < docs.size(); ++i) document(w, docs[i]);
}

}  // namespace

std::string to_binary_capture(const std::string& capture_json) {
  auto parsed = compiler::JsonDoc::parse(capture_json, "capture", "");
  if (!parsed) refuse(parsed.error().message);
  const JsonValue& root = parsed.value().root();
  Writer w;
  w.out = "ATHB";
  w.u32(1);
  w.u32(0);  // total size, patched below
  const JsonValue& styles = need(root, "styles");
  w.u32(static_cast<std::uint32_t>(styles.size()));
  for (std::size_t i = 0; i < styles.size(); ++i) w.str(string_or_empty(&styles[i]));
  const JsonValue* vp = get(root, "viewport");
  w.u32(vp ? 1 : 0);
  for (const char* k : {"x", "y", "width", "height"}) w.f64(vp ? number(need(*vp, k)) : 0);
  frames(w, need(root, "frameTree"));
  snapshot(w, need(root, "snapshot"));
  const JsonValue* oopifs = get(root, "oopifs");
  w.u32(oopifs ? static_cast<std::uint32_t>(oopifs->size()) : 0u);
  if (oopifs)
    for (std::size_t i = 0; i < oopifs->size(); ++i) {
      const JsonValue& o = (*oopifs)[i];
      w.str(string_or_empty(get(o, "frameId")));
      const JsonValue* owner = get(o, "ownerBackendNodeId");
      const bool has_owner = owner && !owner->is_null();
      w.u32(has_owner ? 1 : 0);
      w.i32(has_owner ? int32(*owner) : -1);
      frames(w, need(o, "frameTree"));
      snapshot(w, need(o, "snapshot"));
    }
  const auto total = static_cast<std::uint32_t>(w.out.size());
  std::memcpy(&w.out[8], &total, 4);
  return w.out;
}

}  // namespace athena::testing
