// One file past 400 lines: the reader of one binary format, whose column readers share one cursor and its bounds
// checks.
//
// The binary form of a capture (docs/capture-format.md "Binary form"): typed columns the wasm
// wrapper packs from the CDP result objects, read here without a JSON parse. This file checks
// only the form itself (bounds, offsets, UTF-8); every rule of the capture's content is in
// capture_rules.h, shared with the JSON reader, so both forms give the same Snapshot and the
// same errors for the same defects.
#include <cstdint>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "athena/limits.h"
#include "compiler/capture.h"
#include "compiler/capture_rules.h"
#include "compiler/utf8.h"

namespace athena::compiler {
namespace {

using namespace capture_rules;

static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "the binary capture form is little-endian, as wasm is");

bool form_error(Ctx& c, const std::string& what) {
  return c.fail(ErrorCode::kMalformedCapture, "capture (binary form): " + what + "; re-capture the page");
}

// UTF-8 by the JSON parser's rule (utf8.h), so text from either form is safe to render.
bool valid_utf8(const unsigned char* p, std::size_t n) {
  std::size_t i = 0, bad = 0;
  while (i < n) {
    // Most text is ASCII: skip 8 bytes at a time while no high bit is set.
    while (i + 8 <= n) {
      std::uint64_t w;
      std::memcpy(&w, p + i, 8);
      if (w & 0x8080808080808080ull) break;
      i += 8;
    }
    if (i >= n) break;
    const std::size_t len = utf8_sequence(p + i, n - i, bad);
    if (len == 0) return false;
    i += len;
  }
  return true;
}

// A column of little-endian int32 / float64 in the buffer (read with memcpy: no alignment assumed).
struct I32s {
  const unsigned char* p = nullptr;
  std::size_t n = 0;
  long long operator[](std::size_t i) const {
    std::int32_t v;
    std::memcpy(&v, p + 4 * i, 4);
    return v;
  }
};
struct F64s {
  const unsigned char* p = nullptr;
  std::size_t n = 0;
  double operator[](std::size_t i) const {
    double v;
    std::memcpy(&v, p + 8 * i, 8);
    return v;
  }
};

// Reads the buffer front to back; every read is bounds-checked and names what it was reading.
class Cursor {
 public:
  Cursor(Ctx& c, std::string_view bytes)
      : c_(c), b_(reinterpret_cast<const unsigned char*>(bytes.data())), n_(bytes.size()) {}

  std::size_t pos() const { return pos_; }
  std::size_t size() const { return n_; }

  bool u32(const std::string& what, std::uint32_t& out) { return scalar(what, &out, 4); }
  bool i32(const std::string& what, long long& out) {
    std::int32_t v = 0;
    if (!scalar(what, &v, 4)) return false;
    out = v;
    return true;
  }
  bool f64(const std::string& what, double& out) { return scalar(what, &out, 8); }
  bool str(const std::string& what, std::string_view& out) {
    std::uint32_t len = 0;
    if (!u32(what, len) || !need(what, len)) return false;
    if (!valid_utf8(b_ + pos_, len)) return form_error(c_, what + " is not valid UTF-8");
    out = std::string_view(reinterpret_cast<const char*>(b_ + pos_), len);
    pos_ += len;
    return true;
  }
  bool bytes(const std::string& what, std::size_t len, const unsigned char*& out) {
    if (!need(what, len)) return false;
    out = b_ + pos_;
    pos_ += len;
    return true;
  }
  // An array starts at a multiple of 8 from the buffer's start.
  bool i32s(const std::string& what, std::size_t count, I32s& out) {
    return array(what, count, 4, out.p) && ((out.n = count), true);
  }
  bool f64s(const std::string& what, std::size_t count, F64s& out) {
    return array(what, count, 8, out.p) && ((out.n = count), true);
  }
  // A count followed by an int32 array of that many.
  bool counted(const std::string& what, I32s& out) {
    std::uint32_t count = 0;
    return u32(what, count) && i32s(what, count, out);
  }

 private:
  Ctx& c_;
  const unsigned char* b_;
  std::size_t n_, pos_ = 0;

  bool need(const std::string& what, std::size_t len) {
    if (len <= n_ - pos_) return true;
    return form_error(c_,
                      "truncated at byte " + std::to_string(pos_) + " of " + std::to_string(n_) + " reading " + what);
  }
  bool scalar(const std::string& what, void* out, std::size_t size) {
    if (!need(what, size)) return false;
    std::memcpy(out, b_ + pos_, size);
    pos_ += size;
    return true;
  }
  bool array(const std::string& what, std::size_t count, std::size_t elem, const unsigned char*& out) {
    const std::size_t pad = (8 - pos_ % 8) % 8;
    if (!need(what, pad)) return false;
    pos_ += pad;
    if (count > (n_ - pos_) / elem)
      return need(what, n_ - pos_ + 1);  // the same message, without overflowing count * elem
    out = b_ + pos_;
    pos_ += count * elem;
    return true;
  }
};

// offsets[0..count] must climb from 0 to `total`, so every [offsets[i], offsets[i+1]) is in range.
bool check_offsets(Ctx& c, const I32s& off, std::size_t total, const std::string& what) {
  long long prev = 0;
  for (std::size_t i = 0; i < off.n; ++i) {
    const long long o = off[i];
    if (o < prev || (i == 0 && o != 0) || static_cast<std::size_t>(o) > total)
      return form_error(c, what + " offsets must climb from 0 to " + std::to_string(total) + " (offset " +
                               std::to_string(i) + " is " + std::to_string(o) + ")");
    prev = o;
  }
  if (static_cast<std::size_t>(prev) != total)
    return form_error(c, what + " offsets must end at " + std::to_string(total));
  return true;
}

// A run of an int32 column, as the rules read lists (attributes of a node, styles of a layout entry).
struct BinList {
  I32s col;
  std::size_t begin = 0, n = 0;
  std::size_t size() const { return n; }
  template <typename P>
  bool get(Ctx&, std::size_t k, const P&, long long& out) const {
    out = col[begin + k];
    return true;
  }
};

struct BinRare {
  I32s idx, val;
  std::size_t size() const { return idx.n; }
  template <typename P>
  bool index(Ctx&, std::size_t k, const P&, long long& out) const {
    out = idx[k];
    return true;
  }
  template <typename P>
  bool value(Ctx&, std::size_t k, const P&, long long& out) const {
    out = val[k];
    return true;
  }
};

// One document of a DOMSnapshot in binary form: located whole first (the rules read its parts in
// another order than the buffer holds them), then served to the rules as their Source.
class BinaryDocument {
 public:
  using List = BinList;
  using Rare = BinRare;

  // No count below can overflow a 32-bit size_t (wasm): the buffer is at most kMaxInputBytes, and
  // n and m are first read as whole columns of that buffer, so n + 1 and 4 * m stay small.
  bool read(Ctx& c, Cursor& in, const std::string& dp) {
    std::uint32_t scroll = 0, n = 0, m = 0;
    if (!in.i32(dp + ".frameId", frame_id_) || !in.i32(dp + ".documentURL", url_) || !in.i32(dp + ".title", title_) ||
        !in.u32(dp + ".scroll", scroll) || !in.f64(dp + ".scrollOffsetX", scroll_x_) ||
        !in.f64(dp + ".scrollOffsetY", scroll_y_))
      return false;
    has_scroll_x_ = scroll & 1u;
    has_scroll_y_ = scroll & 2u;
    const std::string np = dp + ".nodes";
    if (!in.u32(np, n) || !in.i32s(np + ".parentIndex", n, parent_) || !in.i32s(np + ".nodeType", n, type_) ||
        !in.i32s(np + ".nodeName", n, name_) || !in.i32s(np + ".nodeValue", n, value_) ||
        !in.i32s(np + ".backendNodeId", n, backend_) || !in.i32s(np + ".attributes", std::size_t{n} + 1, attr_off_))
      return false;
    const long long attr_total = attr_off_[n];
    if (attr_total < 0)
      return form_error(c, np + ".attributes offsets must end at a count, not " + std::to_string(attr_total));
    if (!in.i32s(np + ".attributes", static_cast<std::size_t>(attr_total), attrs_) ||
        !check_offsets(c, attr_off_, attrs_.n, np + ".attributes"))
      return false;
    for (std::size_t r = 0; r < kRareKeys; ++r) {
      const std::string rp = np + "." + kRare[r].key;
      if (!in.counted(rp + ".index", rare_[r].idx)) return false;
      if (kRare[r].valued && !in.i32s(rp + ".value", rare_[r].idx.n, rare_[r].val)) return false;
    }
    const std::string lp = dp + ".layout";
    if (!in.u32(lp, m) || !in.i32s(lp + ".nodeIndex", m, index_) ||
        !in.f64s(lp + ".bounds", std::size_t{m} * 4, bounds_) ||
        !in.i32s(lp + ".styles", std::size_t{m} + 1, style_off_))
      return false;
    const long long style_total = style_off_[m];
    if (style_total < 0)
      return form_error(c, lp + ".styles offsets must end at a count, not " + std::to_string(style_total));
    if (!in.i32s(lp + ".styles", static_cast<std::size_t>(style_total), styles_) ||
        !check_offsets(c, style_off_, styles_.n, lp + ".styles") || !in.i32s(lp + ".text", m, text_) ||
        !in.counted(lp + ".clientRects", client_idx_) || !in.f64s(lp + ".clientRects", client_idx_.n * 2, client_xy_))
      return false;
    for (std::size_t k = 0; k < client_idx_.n; ++k) {
      const long long e = client_idx_[k];
      if (e < 0 || static_cast<std::size_t>(e) >= m || (k > 0 && e <= client_idx_[k - 1]))
        return form_error(c, lp + ".clientRects entries must be increasing layout indices below " + std::to_string(m));
    }
    return true;
  }

  bool frame_id(Ctx&, const std::string&, long long& out) const { return (out = frame_id_), true; }
  bool url(Ctx&, const std::string&, long long& out, bool& present) const {
    return (out = url_), (present = true), true;
  }
  bool title(Ctx&, const std::string&, long long& out, bool& present) const {
    return (out = title_), (present = true), true;
  }
  bool scroll(Ctx&, const std::string&, double& x, double& y) const {
    if (has_scroll_x_) x = scroll_x_;
    if (has_scroll_y_) y = scroll_y_;
    return true;
  }

  bool open_nodes(Ctx&, const std::string&, std::size_t& n) const { return (n = parent_.n), true; }
  bool check_nodes(Ctx&, const std::string&) const { return true; }
  bool has_value() const { return true; }
  bool has_attrs() const { return true; }
  bool parent(Ctx&, std::size_t i, const Lazy&, long long& out) const { return (out = parent_[i]), true; }
  bool node_type(Ctx&, std::size_t i, const Lazy&, long long& out) const { return (out = type_[i]), true; }
  bool node_name(Ctx&, std::size_t i, const Lazy&, long long& out) const { return (out = name_[i]), true; }
  bool node_value(Ctx&, std::size_t i, const Lazy&, long long& out) const { return (out = value_[i]), true; }
  bool backend(Ctx&, std::size_t i, const Lazy&, long long& out) const { return (out = backend_[i]), true; }
  bool attrs(Ctx&, std::size_t i, const Lazy&, List& out) const {
    const auto b = static_cast<std::size_t>(attr_off_[i]);
    out = List{attrs_, b, static_cast<std::size_t>(attr_off_[i + 1]) - b};
    return true;
  }
  bool rare(Ctx&, const std::string&, const char* key, bool, Rare& out, bool& present) const {
    for (std::size_t r = 0; r < kRareKeys; ++r)
      if (std::strcmp(kRare[r].key, key) == 0) {
        out = rare_[r];
        present = out.idx.n > 0;
        return true;
      }
    present = false;
    return true;
  }

  bool open_layout(Ctx&, const std::string&, std::size_t& m) const { return (m = index_.n), true; }
  bool has_text() const { return true; }
  bool layout_node(Ctx&, std::size_t k, const Lazy&, long long& out) const { return (out = index_[k]), true; }
  bool bounds(Ctx&, std::size_t k, const Lazy&, Rect& r) const {
    r = Rect{bounds_[4 * k], bounds_[4 * k + 1], bounds_[4 * k + 2], bounds_[4 * k + 3]};
    return true;
  }
  bool styles(Ctx&, std::size_t k, const Lazy&, List& out) const {
    const auto b = static_cast<std::size_t>(style_off_[k]);
    out = List{styles_, b, static_cast<std::size_t>(style_off_[k + 1]) - b};
    return true;
  }
  bool text(Ctx&, std::size_t k, const Lazy&, long long& out) const { return (out = text_[k]), true; }
  // The rules ask for every layout entry in order; entries with a rect come in the same order.
  bool client(Ctx&, std::size_t k, const Lazy&, double& x, double& y) {
    if (next_client_ < client_idx_.n && static_cast<std::size_t>(client_idx_[next_client_]) == k) {
      x = client_xy_[2 * next_client_];
      y = client_xy_[2 * next_client_ + 1];
      ++next_client_;
    }
    return true;
  }

 private:
  struct RareKey {
    const char* key;
    bool valued;
  };
  static constexpr std::size_t kRareKeys = 8;
  static constexpr RareKey kRare[kRareKeys] = {
      {"inputChecked", false}, {"optionSelected", false}, {"isClickable", false},   {"inputValue", true},
      {"textValue", true},     {"pseudoType", true},      {"shadowRootType", true}, {"contentDocumentIndex", true}};

  long long frame_id_ = -1, url_ = -1, title_ = -1;
  double scroll_x_ = 0, scroll_y_ = 0;
  bool has_scroll_x_ = false, has_scroll_y_ = false;
  I32s parent_, type_, name_, value_, backend_, attr_off_, attrs_;
  BinRare rare_[kRareKeys];
  I32s index_, style_off_, styles_, text_, client_idx_;
  F64s bounds_, client_xy_;
  std::size_t next_client_ = 0;
};

// The frame tree in pre-order, each frame followed by its child count; paths as the JSON reader's.
bool read_frames(Ctx& c, Cursor& in, const std::string& path, bool oop, std::vector<RawFrame>& out) {
  struct Open {
    std::string path;
    std::uint32_t children, next;
  };
  std::vector<Open> stack;
  auto frame = [&](const std::string& p) {
    RawFrame fr;
    fr.out_of_process = oop;
    std::uint32_t children = 0;
    if (!in.str(p + ".frame.id", fr.id) || !in.str(p + ".frame.loaderId", fr.loader_id) ||
        !in.str(p + ".frame.parentId", fr.parent_id) || !in.str(p + ".frame.url", fr.url) ||
        !add_frame(c, fr, p, out) || !in.u32(p + ".childFrames", children))
      return false;
    stack.push_back(Open{p, children, 0});
    return true;
  };
  if (!frame(path)) return false;
  while (!stack.empty()) {
    Open& top = stack.back();
    if (top.next == top.children) {
      stack.pop_back();
      continue;
    }
    const std::string child = at(top.path + ".childFrames", top.next++);
    if (!frame(child)) return false;
  }
  return true;
}

bool read_snapshot(Ctx& c, Cursor& in, const std::string& path, int session,
                   const std::array<int, kStyleCount>& style_pos, RawCapture& cap, std::size_t& total_nodes) {
  std::uint32_t count = 0, blob_size = 0, doc_count = 0;
  const unsigned char* blob = nullptr;
  const std::string sp = path + ".strings";
  if (!in.u32(sp, count) || !in.u32(sp, blob_size) || !in.bytes(sp, blob_size, blob)) return false;
  if (!valid_utf8(blob, blob_size)) return form_error(c, sp + " is not valid UTF-8");
  // Each string is followed by one 0 byte; a count no blob could hold is refused before allocating.
  if (count > blob_size)
    return form_error(
        c, sp + ": " + std::to_string(count) + " strings cannot fit in " + std::to_string(blob_size) + " bytes");
  std::vector<std::string_view> table(count);
  const auto* s = reinterpret_cast<const char*>(blob);
  const char* end = s + blob_size;
  for (std::uint32_t i = 0; i < count; ++i) {
    const auto* z = static_cast<const char*>(std::memchr(s, 0, static_cast<std::size_t>(end - s)));
    if (!z) return form_error(c, sp + " holds fewer than its " + std::to_string(count) + " strings");
    table[i] = std::string_view(s, static_cast<std::size_t>(z - s));
    s = z + 1;
  }
  if (s != end) return form_error(c, sp + " holds more than its " + std::to_string(count) + " strings");

  if (!in.u32(path + ".documents", doc_count)) return false;
  if (doc_count == 0) return c.bad(path + ".documents", "empty (a snapshot has at least the main document)");
  SnapshotRules rules(c, table, path);
  const int first = static_cast<int>(cap.docs.size());
  for (std::uint32_t di = 0; di < doc_count; ++di) {
    BinaryDocument source;
    if (!source.read(c, in, at(path + ".documents", di))) return false;
    RawDocument d;
    d.session = session;
    if (!rules.document(source, di, first, static_cast<int>(doc_count), style_pos, d, total_nodes)) return false;
    cap.docs.push_back(std::move(d));
  }
  if (!rules.content_documents_unique(cap, first, static_cast<int>(doc_count))) return false;
  cap.sessions.push_back(RawSession{{}, -1, first, static_cast<int>(doc_count)});
  return true;
}

}  // namespace

Result<RawCapture> read_capture_binary(std::string_view bytes) {
  Ctx c;
  RawCapture cap;
  if (bytes.size() > limits::kMaxInputBytes)
    return make_error(ErrorCode::kInputTooLarge,
                      "capture: " + std::to_string(bytes.size()) + " bytes exceed limits::kMaxInputBytes (" +
                          std::to_string(limits::kMaxInputBytes) + "); capture a smaller page or frame");
  Cursor in(c, bytes);
  const unsigned char* magic = nullptr;
  std::uint32_t version = 0, total = 0, style_count = 0, has_viewport = 0, oopif_count = 0;
  if (!in.bytes("the header", kBinaryCaptureMagic.size(), magic) || !in.u32("the header", version)) return c.err;
  if (version != kCaptureVersion)
    return make_error(ErrorCode::kMalformedCapture, "v: capture format version " + std::to_string(version) +
                                                        " is not supported (this core reads v1)");
  if (!in.u32("the header", total)) return c.err;
  if (total != bytes.size()) {
    form_error(c, "the header says " + std::to_string(total) + " bytes but " + std::to_string(bytes.size()) +
                      " arrived (truncated?)");
    return c.err;
  }

  if (!in.u32("styles", style_count)) return c.err;
  std::vector<std::string_view> names;  // grown as read: a hostile count runs into the end first
  for (std::uint32_t i = 0; i < style_count; ++i)
    if (!in.str(at("styles", i), names.emplace_back())) return c.err;
  std::array<int, kStyleCount> style_pos{};
  style_positions(names, style_pos);

  double vp[4] = {0, 0, 0, 0};
  if (!in.u32("viewport", has_viewport) || !in.f64("viewport.x", vp[0]) || !in.f64("viewport.y", vp[1]) ||
      !in.f64("viewport.width", vp[2]) || !in.f64("viewport.height", vp[3]))
    return c.err;

  std::size_t total_nodes = 0;
  if (!read_frames(c, in, "frameTree", false, cap.frames) ||
      !read_snapshot(c, in, "snapshot", 0, style_pos, cap, total_nodes) || !in.u32("oopifs", oopif_count))
    return c.err;
  for (std::uint32_t i = 0; i < oopif_count; ++i) {
    const std::string op = at("oopifs", i);
    std::string_view fid;
    std::uint32_t has_owner = 0;
    long long owner = -1;
    if (!in.str(op + ".frameId", fid) || !in.u32(op + ".ownerBackendNodeId", has_owner) ||
        !in.i32(op + ".ownerBackendNodeId", owner) || !read_frames(c, in, op + ".frameTree", true, cap.frames) ||
        !read_snapshot(c, in, op + ".snapshot", static_cast<int>(i) + 1, style_pos, cap, total_nodes))
      return c.err;
    cap.sessions.back().frame_id = fid;
    cap.sessions.back().owner_backend = has_owner ? owner : -1;
  }
  if (has_viewport) {
    cap.viewport = Rect{vp[0], vp[1], vp[2], vp[3]};
    cap.has_viewport = true;
  }
  if (in.pos() != in.size()) {
    form_error(
        c, std::to_string(in.size() - in.pos()) + " bytes left over after the capture (not this core's binary form?)");
    return c.err;
  }
  return cap;
}

}  // namespace athena::compiler
