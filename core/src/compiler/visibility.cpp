#include "compiler/visibility.h"

#include <cstdlib>
#include <string>

#include "compiler/text.h"

namespace athena::compiler {
namespace {

// An opacity that is a CSS number of 0 or less ("0", "0.0", "0.00", "0e0"; a computed opacity is
// clamped to 0..1), as extension/lib/visibility.js whyHidden reads it; anything else is not 0.
bool zero_opacity(std::string_view raw) {
  const std::string s = collapse_ws(raw);
  std::size_t i = 0;
  const auto digits = [&] {
    const std::size_t b = i;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i;
    return i > b;
  };
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
  const bool whole = digits();
  bool fraction = false;
  if (i < s.size() && s[i] == '.') {
    ++i;
    fraction = digits();
  }
  if (!whole && !fraction) return false;
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
    if (!digits()) return false;
  }
  return i == s.size() && std::strtod(s.c_str(), nullptr) <= 0;
}

// A box of at most 1x1 px whose computed overflow (one value, or "x y") is not visible on an axis
// (hidden, clip, auto, scroll: what does not fit is cut off): nothing of its content can be seen. The
// screen-reader-only patterns all are one (Bootstrap's visually-hidden, Tailwind's sr-only, jQuery UI's
// ui-helper-hidden-accessible, AG Grid's aria description container): 1px square, overflow hidden, then clip or
// clip-path.
bool clips_to_a_pixel(const Node& n) {
  if (!n.layout || n.box.width > 1 || n.box.height > 1) return false;
  const std::string o = collapse_ws(n.layout->style[kOverflow]);
  for (std::size_t b = 0; b < o.size();) {
    std::size_t e = o.find(' ', b);
    if (e == std::string::npos) e = o.size();
    const std::string_view v(o.data() + b, e - b);
    if (!v.empty() && lower(v) != "visible") return true;
    b = e + 1;
  }
  return false;
}

}  // namespace

Visibility::Visibility(const Dom& dom) : dom_(dom) {
  const std::size_t n = dom.nodes.size();
  transparent_.assign(n, 0);
  clipped_.assign(n, 0);
  aria_hidden_.assign(n, 0);
  in_select_.assign(n, 0);
  closed_details_.assign(n, 0);
  // An open modal dialog (aria-modal) that hides the rest of its page with aria-hidden while it is
  // open (SweetAlert2, MUI, React Aria: every sibling of its way up to <body>) does not take the
  // page away: what it hid is still the page, whose refs the agent holds when the dialog closes.
  // Its cover is the overlay's business (compiler/overlays.cpp), not a removal of every line.
  // Each parent's children are looked at once, however many modals a page nests: linear in nodes.
  std::vector<char> hidden_by_modal(n, 0), scanned(n, 0);
  for (const int i : dom.order) {
    const Node& node = dom.nodes[static_cast<std::size_t>(i)];
    if (node.type != 1 || !node.rendered || lower(collapse_ws(dom.attr(i, "aria-modal"))) != "true") continue;
    for (int a = i; a >= 0; a = dom.nodes[static_cast<std::size_t>(a)].parent) {
      const int up = dom.nodes[static_cast<std::size_t>(a)].parent;
      if (up < 0 || dom.nodes[static_cast<std::size_t>(up)].doc != node.doc || scanned[static_cast<std::size_t>(up)])
        break;
      scanned[static_cast<std::size_t>(up)] = 1;
      for (int c = dom.nodes[static_cast<std::size_t>(up)].first_child; c >= 0;
           c = dom.nodes[static_cast<std::size_t>(c)].next)
        if (c != a) hidden_by_modal[static_cast<std::size_t>(c)] = 1;
    }
  }
  for (const int i : dom.order) {  // pre-order: parents first
    const Node& node = dom.nodes[static_cast<std::size_t>(i)];
    const auto p = static_cast<std::size_t>(node.parent);
    const bool has_parent = node.parent >= 0;
    // A document inside an iframe starts fresh for aria-hidden (it does not cross documents).
    const bool same_doc = has_parent && dom.nodes[p].doc == node.doc;
    char t = has_parent ? transparent_[p] : 0;
    if (node.layout && !node.layout->style[kOpacity].empty()) {
      const std::string_view o = node.layout->style[kOpacity];
      // A native control made transparent on its own is the "visually hidden input" pattern
      // (custom checkboxes, switches, file pickers): its styled stand-in is what users see.
      const bool native_control = node.tag == "input" || node.tag == "select" || node.tag == "textarea";
      if (!native_control && zero_opacity(o)) t = 1;
    }
    transparent_[static_cast<std::size_t>(i)] = t;
    // Clipped to a pixel: it and everything in it (within its document: a frame's content is
    // clipped by the frame's own box, which is then at most a pixel, so its content is too).
    clipped_[static_cast<std::size_t>(i)] = static_cast<char>((has_parent && clipped_[p]) || clips_to_a_pixel(node));
    char a = same_doc ? aria_hidden_[p] : 0;
    if (node.type == 1 && !hidden_by_modal[static_cast<std::size_t>(i)] &&
        lower(collapse_ws(dom.attr(i, "aria-hidden"))) == "true")
      a = 1;
    aria_hidden_[static_cast<std::size_t>(i)] = a;
    char s = has_parent ? in_select_[p] : 0;
    if (has_parent && dom.nodes[p].tag == "select" && dom.nodes[p].rendered) s = 1;
    in_select_[static_cast<std::size_t>(i)] = s;
    // A closed <details> shows only its first <summary>. Chrome keeps the boxes of content that
    // was open once (a script closing it, tests/cases-unseen/rustdoc-cell's "collapse all") and
    // the capture reports them, yet nothing of it is drawn or in Chrome's accessibility tree.
    // Marked here for the children, before the pre-order reaches them.
    if (has_parent && closed_details_[p]) closed_details_[static_cast<std::size_t>(i)] = 1;
    if (node.type == 1 && node.tag == "details" && !dom.has_attr(i, "open")) {
      bool summary_seen = false;
      for (int c = node.first_child; c >= 0; c = dom.nodes[static_cast<std::size_t>(c)].next) {
        if (!summary_seen && dom.nodes[static_cast<std::size_t>(c)].type == 1 &&
            dom.nodes[static_cast<std::size_t>(c)].tag == "summary") {
          summary_seen = true;
          continue;
        }
        closed_details_[static_cast<std::size_t>(c)] = 1;
      }
    }
  }
}

bool Visibility::css_hidden(int i) const {
  const Node& n = dom_.nodes[static_cast<std::size_t>(i)];
  if (closed_details_[static_cast<std::size_t>(i)]) return true;
  if (in_select_[static_cast<std::size_t>(i)]) return false;  // <option>s have no boxes of their own
  if (!n.rendered) return true;
  if (n.layout) {
    const std::string_view v = n.layout->style[kVisibility];
    if (v == "hidden" || v == "collapse") return true;
  }
  return false;
}

bool Visibility::visible(int i, bool focusable) const {
  const Node& n = dom_.nodes[static_cast<std::size_t>(i)];
  if (!n.layout || css_hidden(i) || transparent_[static_cast<std::size_t>(i)]) return false;
  if (clipped_[static_cast<std::size_t>(i)] && !focusable) return false;
  if (n.box.width <= 0 || n.box.height <= 0) return focusable;
  return true;
}

}  // namespace athena::compiler
