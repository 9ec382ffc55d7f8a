// Hand-written captures for the compiler's unit tests: builds the JSON of docs/capture-format.md
// (DOMSnapshot documents with their string table, layout and rare data, a frame tree).
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

namespace athena::test {

using Attrs = std::vector<std::pair<std::string, std::string>>;

class CaptureBuilder {
 public:
  /// A page whose main frame is `frame_id` with loader `loader_id`; document 0 is created.
  explicit CaptureBuilder(std::string frame_id = "F0", std::string loader_id = "L0",
                          std::string url = "https://example.test/");

  /// A new document (an iframe's) for frame `frame_id`; returns its index. Its #document is node 0.
  int add_document(const std::string& frame_id, const std::string& url = "about:blank");
  /// Adds a frame to the frame tree under `parent_id`.
  void add_frame(const std::string& id, const std::string& loader, const std::string& parent_id,
                 const std::string& url = "");

  /// Element under `parent` (node index in `doc`; 0 = the #document). Gets a layout box `box`
  /// (x, y, w, h) with display:block unless styled otherwise. Returns its node index.
  int el(int doc, int parent, const std::string& tag, const Attrs& attrs = {},
         std::vector<double> box = {0, 0, 100, 20});
  /// Text node with a box.
  int text(int doc, int parent, const std::string& value, std::vector<double> box = {0, 0, 50, 16});
  /// A node of any type without a box (e.g. a #document-fragment shadow root: type 11).
  int raw(int doc, int parent, int type, const std::string& name);

  void style(int doc, int node, const std::string& name, const std::string& value);
  /// A ::before or ::after of `parent` ("before"/"after") with computed `content` (empty: not
  /// captured) and one layout object per item, each with its text ("" for an item without text),
  /// as DOMSnapshot lists them after the pseudo element's own box.
  int pseudo(int doc, int parent, const std::string& type, const std::string& content,
             const std::vector<std::string>& pieces);
  void no_box(int doc, int node);
  void flag(int doc, int node, const std::string& rare_boolean);  // "isClickable", "inputChecked", "optionSelected"
  void rare_string(int doc, int node, const std::string& key,
                   const std::string& value);  // inputValue, shadowRootType, ...
  void content_document(int doc, int iframe_node, int child_doc);
  void scroll(int doc, double x, double y);

  /// An OOPIF session for frame `frame_id` (with its own frame tree and one document).
  /// Returns the builder of that session's snapshot.
  CaptureBuilder& add_oopif(const std::string& frame_id, const std::string& loader, const std::string& parent_id,
                            long long owner_backend = -1, const std::string& url = "https://other.test/");

  nlohmann::json json() const;
  std::string str() const { return json().dump(); }
  /// backendNodeId given to node `node` of `doc` (unique across this builder).
  long long backend(int doc, int node) const {
    return docs_[static_cast<std::size_t>(doc)].nodes[static_cast<std::size_t>(node)].backend;
  }

  std::vector<std::string> styles{"display", "visibility", "opacity", "z-index", "position", "overflow", "content"};
  nlohmann::json viewport = {{"x", 0}, {"y", 0}, {"width", 1280}, {"height", 720}};

 private:
  struct N {
    int parent, type;
    std::string name, value;
    long long backend;
    Attrs attrs;
    bool box = false;
    std::vector<double> rect;
    std::map<std::string, std::string> style;
    std::vector<std::string> flags;
    std::map<std::string, std::string> rare;
    int content_doc = -1;
    std::vector<std::string> pieces;  // a pseudo element's layout objects after its box
  };
  struct D {
    std::string frame_id, url;
    std::vector<N> nodes;
    double sx = 0, sy = 0;
  };
  struct Frame {
    std::string id, loader, parent, url;
  };
  std::vector<D> docs_;
  std::vector<Frame> frames_;
  struct Oopif {
    std::string frame_id;
    long long owner;
    std::unique_ptr<CaptureBuilder> b;
  };
  std::vector<Oopif> oopifs_;
  long long next_backend_;
  nlohmann::json snapshot_json() const;
  nlohmann::json frame_tree_json() const;
};

/// A capture exercising every part of the format: a same-process iframe, shadow DOM, rare data
/// (shadowRootType, isClickable, inputValue of a password field) and an out-of-process iframe.
std::string rich_capture();

}  // namespace athena::test
