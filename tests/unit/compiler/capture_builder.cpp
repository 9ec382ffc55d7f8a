#include "capture_builder.h"

#include <memory>

namespace athena::test {

using J = nlohmann::json;

CaptureBuilder::CaptureBuilder(std::string frame_id, std::string loader_id, std::string url) : next_backend_(1) {
  frames_.push_back({frame_id, loader_id, "", url});
  add_document(frame_id, url);
}

int CaptureBuilder::add_document(const std::string& frame_id, const std::string& url) {
  D d;
  d.frame_id = frame_id;
  d.url = url;
  N root{-1, 9, "#document", "", next_backend_++, {}, true, {0, 0, 1280, 720}, {}, {}, {}, -1, {}};
  d.nodes.push_back(root);
  docs_.push_back(std::move(d));
  return static_cast<int>(docs_.size()) - 1;
}

void CaptureBuilder::add_frame(const std::string& id, const std::string& loader, const std::string& parent_id,
                               const std::string& url) {
  frames_.push_back({id, loader, parent_id, url});
}

int CaptureBuilder::el(int doc, int parent, const std::string& tag, const Attrs& attrs, std::vector<double> box) {
  N n{parent, 1, tag, "", next_backend_++, attrs, true, std::move(box), {}, {}, {}, -1, {}};
  auto& nodes = docs_[static_cast<std::size_t>(doc)].nodes;
  nodes.push_back(std::move(n));
  return static_cast<int>(nodes.size()) - 1;
}

int CaptureBuilder::text(int doc, int parent, const std::string& value, std::vector<double> box) {
  N n{parent, 3, "#text", value, next_backend_++, {}, true, std::move(box), {}, {}, {}, -1, {}};
  auto& nodes = docs_[static_cast<std::size_t>(doc)].nodes;
  nodes.push_back(std::move(n));
  return static_cast<int>(nodes.size()) - 1;
}

int CaptureBuilder::raw(int doc, int parent, int type, const std::string& name) {
  N n{parent, type, name, "", next_backend_++, {}, false, {}, {}, {}, {}, -1, {}};
  auto& nodes = docs_[static_cast<std::size_t>(doc)].nodes;
  nodes.push_back(std::move(n));
  return static_cast<int>(nodes.size()) - 1;
}

void CaptureBuilder::style(int doc, int node, const std::string& name, const std::string& value) {
  docs_[static_cast<std::size_t>(doc)].nodes[static_cast<std::size_t>(node)].style[name] = value;
}
void CaptureBuilder::no_box(int doc, int node) {
  docs_[static_cast<std::size_t>(doc)].nodes[static_cast<std::size_t>(node)].box = false;
}
int CaptureBuilder::pseudo(int doc, int parent, const std::string& type, const std::string& content,
                           const std::vector<std::string>& pieces) {
  const int p = el(doc, parent, "::" + type);
  N& n = docs_[static_cast<std::size_t>(doc)].nodes[static_cast<std::size_t>(p)];
  n.rare["pseudoType"] = type;
  n.style["display"] = "inline";
  if (!content.empty()) n.style["content"] = content;
  n.pieces = pieces;
  return p;
}

void CaptureBuilder::flag(int doc, int node, const std::string& rare) {
  docs_[static_cast<std::size_t>(doc)].nodes[static_cast<std::size_t>(node)].flags.push_back(rare);
}
void CaptureBuilder::rare_string(int doc, int node, const std::string& key, const std::string& value) {
  docs_[static_cast<std::size_t>(doc)].nodes[static_cast<std::size_t>(node)].rare[key] = value;
}
void CaptureBuilder::content_document(int doc, int iframe_node, int child_doc) {
  docs_[static_cast<std::size_t>(doc)].nodes[static_cast<std::size_t>(iframe_node)].content_doc = child_doc;
}
void CaptureBuilder::scroll(int doc, double x, double y) {
  docs_[static_cast<std::size_t>(doc)].sx = x;
  docs_[static_cast<std::size_t>(doc)].sy = y;
}

CaptureBuilder& CaptureBuilder::add_oopif(const std::string& frame_id, const std::string& loader,
                                          const std::string& parent_id, long long owner_backend,
                                          const std::string& url) {
  auto b = std::make_unique<CaptureBuilder>(frame_id, loader, url);
  b->frames_[0].parent = parent_id;
  b->next_backend_ = 100000 * static_cast<long long>(oopifs_.size() + 1);
  b->docs_[0].nodes[0].backend = b->next_backend_++;
  oopifs_.push_back({frame_id, owner_backend, std::move(b)});
  return *oopifs_.back().b;
}

J CaptureBuilder::frame_tree_json() const {
  // Frames form a tree through parent ids; children in insertion order.
  std::function<J(std::size_t)> tree = [&](std::size_t f) {
    J fr = {{"id", frames_[f].id}, {"loaderId", frames_[f].loader}, {"url", frames_[f].url}};
    if (!frames_[f].parent.empty()) fr["parentId"] = frames_[f].parent;
    J t = {{"frame", fr}};
    J kids = J::array();
    for (std::size_t k = 0; k < frames_.size(); ++k)
      if (k != f && frames_[k].parent == frames_[f].id) kids.push_back(tree(k));
    if (!kids.empty()) t["childFrames"] = kids;
    return t;
  };
  return tree(0);
}

J CaptureBuilder::snapshot_json() const {
  std::vector<std::string> strings;
  std::map<std::string, int> index;
  auto s = [&](const std::string& v) {
    auto it = index.find(v);
    if (it != index.end()) return it->second;
    strings.push_back(v);
    return index[v] = static_cast<int>(strings.size()) - 1;
  };
  J docs = J::array();
  for (const D& d : docs_) {
    J parent = J::array(), type = J::array(), name = J::array(), value = J::array(), backend = J::array(),
      attrs = J::array();
    std::map<std::string, J> rare_bool, rare_str;
    J cdi = {{"index", J::array()}, {"value", J::array()}};
    J lay_index = J::array(), lay_bounds = J::array(), lay_styles = J::array(), lay_text = J::array(),
      lay_client = J::array();
    for (std::size_t i = 0; i < d.nodes.size(); ++i) {
      const N& n = d.nodes[i];
      parent.push_back(n.parent < 0 && i > 0 ? 0 : n.parent);
      type.push_back(n.type);
      name.push_back(s(n.type == 1 ? [&] { std::string up = n.name; for (char& c : up) c = static_cast<char>(toupper(c)); return n.name.find('-') != std::string::npos ? n.name : up; }() : n.name));
      value.push_back(n.type == 3 ? s(n.value) : -1);
      backend.push_back(n.backend);
      J a = J::array();
      for (const auto& [k, v] : n.attrs) {
        a.push_back(s(k));
        a.push_back(s(v));
      }
      attrs.push_back(a);
      for (const std::string& f : n.flags) rare_bool[f]["index"].push_back(i);
      for (const auto& [k, v] : n.rare) {
        rare_str[k]["index"].push_back(i);
        rare_str[k]["value"].push_back(s(v));
      }
      if (n.content_doc >= 0) {
        cdi["index"].push_back(i);
        cdi["value"].push_back(n.content_doc);
      }
      if (n.box) {
        lay_index.push_back(i);
        lay_bounds.push_back(n.rect);
        std::map<std::string, std::string> st = {{"display", n.type == 3 ? "inline" : "block"},
                                                 {"visibility", "visible"},
                                                 {"opacity", "1"},
                                                 {"z-index", "auto"},
                                                 {"position", "static"}};
        for (const auto& [k, v] : n.style) st[k] = v;
        J sv = J::array();
        for (const std::string& k : styles) sv.push_back(st.count(k) ? s(st[k]) : -1);
        lay_styles.push_back(sv);
        lay_text.push_back(n.type == 3 ? s(n.value) : -1);
        lay_client.push_back(n.name == "iframe" ? J::array({2, 2, 100, 100}) : J::array());
        for (const std::string& piece : n.pieces) {
          lay_index.push_back(i);
          lay_bounds.push_back(n.rect);
          lay_styles.push_back(sv);
          lay_text.push_back(piece.empty() ? -1 : s(piece));
          lay_client.push_back(J::array());
        }
      }
    }
    J nodes = {{"parentIndex", parent},    {"nodeType", type},    {"nodeName", name},           {"nodeValue", value},
               {"backendNodeId", backend}, {"attributes", attrs}, {"contentDocumentIndex", cdi}};
    for (auto& [k, v] : rare_bool) nodes[k] = v;
    for (auto& [k, v] : rare_str) nodes[k] = v;
    docs.push_back({{"documentURL", s(d.url)},
                    {"title", -1},
                    {"frameId", s(d.frame_id)},
                    {"scrollOffsetX", d.sx},
                    {"scrollOffsetY", d.sy},
                    {"nodes", nodes},
                    {"layout",
                     {{"nodeIndex", lay_index},
                      {"bounds", lay_bounds},
                      {"styles", lay_styles},
                      {"text", lay_text},
                      {"clientRects", lay_client}}}});
  }
  return {{"documents", docs}, {"strings", strings}};
}

J CaptureBuilder::json() const {
  nlohmann::json j = {{"v", 1},
                      {"styles", styles},
                      {"frameTree", frame_tree_json()},
                      {"snapshot", snapshot_json()},
                      {"viewport", viewport}};
  nlohmann::json oop = nlohmann::json::array();
  for (const Oopif& o : oopifs_) {
    nlohmann::json e = {
        {"frameId", o.frame_id}, {"frameTree", o.b->frame_tree_json()}, {"snapshot", o.b->snapshot_json()}};
    if (o.owner >= 0) e["ownerBackendNodeId"] = o.owner;
    oop.push_back(e);
  }
  j["oopifs"] = oop;
  return j;
}

std::string rich_capture() {
  CaptureBuilder b;
  const int body = b.el(0, 0, "body");
  const int ifr = b.el(0, body, "iframe");
  const int d1 = b.add_document("F1");
  b.add_frame("F1", "L1", "F0");
  b.content_document(0, ifr, d1);
  b.text(d1, b.el(d1, 0, "button", {{"aria-labelledby", "x"}}), "In frame");
  const int host = b.el(0, body, "x-el");
  const int sh = b.el(0, host, "button", {{"id", "x"}});
  b.rare_string(0, sh, "shadowRootType", "open");
  b.flag(0, sh, "isClickable");
  b.rare_string(0, b.el(0, body, "input", {{"type", "password"}}), "inputValue", "pw");
  CaptureBuilder& o = b.add_oopif("OOP", "LO", "F0", b.backend(0, ifr));
  o.text(0, o.el(0, 0, "a", {{"href", "/"}}), "Cross");
  return b.str();
}

}  // namespace athena::test
