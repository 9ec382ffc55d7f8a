#include "compiler/accname.h"

#include <algorithm>
#include <vector>

#include "athena/limits.h"
#include "compiler/node_state.h"
#include "compiler/roles.h"
#include "compiler/text.h"

namespace athena::compiler {
namespace {

// Bounds on one name computation: a hostile page cannot make naming one element cost more
// than this many node visits or recurse deeper than this.
constexpr int kVisitBudget = 20'000;
constexpr int kMaxNameDepth = 256;
// Content past this is never shown (names are cut at kMaxNameChars, texts at kMaxTextChars).
constexpr std::size_t kEnoughText = 4 * limits::kMaxTextChars;

bool embedded_control_role(std::string_view r) {
  return r == "textbox" || r == "searchbox" || r == "combobox" || r == "listbox" || r == "slider" || r == "spinbutton";
}

// Only plain inline boxes join their text to their neighbours': Chrome separates every other box
// (inline-block, inline-flex, inline-grid, inline-table as well as blocks) with a space, as it
// does a <br> or a <wbr> (tests/cases/names: `<span style="display:inline-block">Add</span>` +
// `to` gives "Add to", `assert_<wbr>matches` gives "assert_ matches").
bool inline_display(std::string_view d) {
  return d.empty() || d == "inline" || d == "contents";
}

struct Walk {
  const Dom& dom;
  const Visibility& vis;
  int root;
  int budget = kVisitBudget;
  std::vector<int> visiting;
  /// Naming a tree item: the items nested in it (and their group) are lines of their own, not
  /// words of its name. Chrome's tree names a folder "src main.cpp engine" once it is open.
  bool items_apart = false;

  bool blank(const std::string& s) const { return is_blank(s); }

  /// Rendered, yet hidden by its own (inherited) visibility: its children may show again.
  bool visibility_hidden_only(int i) const {
    const Node& n = dom.nodes[static_cast<std::size_t>(i)];
    if (!n.rendered || !n.layout || dom.tag(i) == "details") return false;
    const std::string_view v = n.layout->style[kVisibility];
    return v == "hidden" || v == "collapse";
  }

  std::string text_of(int t, bool include_hidden) const {
    if (!include_hidden && vis.css_hidden(t)) return "";
    const Node& n = dom.nodes[static_cast<std::size_t>(t)];
    // The layout text is what Chrome renders (text-transform applied) and names from.
    if (n.layout && !n.layout->text.empty()) return std::string(n.layout->text);
    return std::string(dom.node_value(t));
  }

  std::string content(int i, bool include_hidden, int depth) {
    std::string out;
    const Node& self = dom.nodes[static_cast<std::size_t>(i)];
    const GeneratedText* gen = self.generated < 0 ? nullptr : &dom.generated[static_cast<std::size_t>(self.generated)];
    // Step 2F.ii: CSS generated content (::before, ::after) is part of the name from content; its
    // CSS alternative text, when it has one, stands in its place as a word of its own (Chrome:
    // `content: "★" / "Favourite"` on <button>Pin</button> names "Favourite Pin").
    if (gen && !gen->before.empty()) {
      append_collapsed(out, gen->before);
      if (gen->before_alt) out.push_back(' ');
    }
    const auto add = [&](int c) {
      if (dom.is_text(c)) {
        append_collapsed(out, text_of(c, include_hidden));
        return;
      }
      if (!dom.is_element(c)) return;
      if (dom.tag(c) == "br" ||
          dom.tag(c) == "wbr") {  // a line break (or its opportunity) separates words like a space
        out.push_back(' ');
        return;
      }
      const std::string part = compute(c, false, true, include_hidden, depth + 1);
      // Step 2F.iii: CSS block boxes separate words; so does an image, an atomic box whose
      // text alternative Chrome sets apart from the text around it ("Icon Text").
      const bool block = !inline_display(dom.style(c, kDisplay)) || dom.tag(c) == "img";
      if (block) out.push_back(' ');
      append_collapsed(out, part);
      if (block) out.push_back(' ');
    };
    for (int c = self.first_child; c >= 0 && out.size() < kEnoughText; c = dom.nodes[static_cast<std::size_t>(c)].next)
      if (const int o = dom.owner_of(c); o < 0 || o == i) add(c);
    if (gen && !gen->after.empty()) {
      if (gen->after_alt) out.push_back(' ');
      append_collapsed(out, gen->after);
    }
    // aria-owns: an owned element is a child of its owner, after the owner's own children (::after
    // too), and no longer one of its parent in the DOM (Chrome's tree moves it, and names from it
    // there, as a word of its own: an inline <span> owned by "Size" names "Size in cm").
    for (const int c : dom.owned(i)) {
      if (out.size() >= kEnoughText) break;
      out.push_back(' ');
      add(c);
      out.push_back(' ');
    }
    return out;
  }

  std::string labels(int i, int depth) {
    std::vector<int> ls;
    if (const std::vector<int>* f = dom.labels_for(i)) ls = *f;
    for (int p = dom.nodes[static_cast<std::size_t>(i)].parent; p >= 0 && dom.is_element(p);
         p = dom.nodes[static_cast<std::size_t>(p)].parent) {
      if (dom.tag(p) != "label") continue;
      bool has_for = false;
      const std::string_view f = dom.attr(p, "for", &has_for);
      if (!has_for || f == dom.attr(i, "id")) {
        if (std::find(ls.begin(), ls.end(), p) == ls.end()) ls.push_back(p);
      }
      break;
    }
    std::sort(ls.begin(), ls.end());  // same document: global index order is document order
    std::string out;
    for (const int l : ls) {
      const std::string part = compute(l, false, true, false, depth + 1);
      if (!blank(part)) {
        if (!out.empty()) out.push_back(' ');
        append_collapsed(out, part);
      }
    }
    return out;
  }

  std::string first_child_text(int i, std::string_view tag, int depth) {
    for (int c = dom.nodes[static_cast<std::size_t>(i)].first_child; c >= 0;
         c = dom.nodes[static_cast<std::size_t>(c)].next)
      if (dom.tag(c) == tag) return compute(c, false, true, false, depth + 1);
    return "";
  }

  std::string native(int i, std::string_view role, int depth) {
    const std::string_view t = dom.tag(i);
    bool has = false;
    if (t == "input") {
      const std::string type = lower(collapse_ws(dom.attr(i, "type")));
      if (type == "button" || type == "submit" || type == "reset") {
        const std::string_view v = dom.attr(i, "value", &has);
        if (has) return std::string(v);
        if (type == "submit") return "Submit";
        if (type == "reset") return "Reset";
        return labels(i, depth);
      }
      if (type == "image") {
        // HTML-AAM input type=image: (aria-labelledby, aria-label: steps 2B, 2C), a <label>,
        // alt, value, title (step 2I), then the "Submit" default.
        if (std::string l = labels(i, depth); !blank(l)) return l;
        const std::string_view alt = dom.attr(i, "alt", &has);
        if (has && !is_blank(alt)) return std::string(alt);
        const std::string_view v = dom.attr(i, "value", &has);
        if (has && !is_blank(v)) return std::string(v);
        if (dom.has_attr(i, "title")) return "";
        return "Submit";
      }
    }
    if (t == "input" || t == "select" || t == "textarea" || t == "meter" || t == "progress" || t == "output" ||
        t == "button") {
      std::string l = labels(i, depth);
      if (!blank(l)) return l;
    }
    if (t == "img" || t == "area") {
      const std::string_view alt = dom.attr(i, "alt", &has);
      if (has) return std::string(alt);
    }
    if (t == "fieldset") return first_child_text(i, "legend", depth);
    if (t == "table") return first_child_text(i, "caption", depth);
    if (t == "figure") return first_child_text(i, "figcaption", depth);
    if (t == "svg") {
      // An SVG <title> is never rendered, yet it names the graphic (SVG-AAM).
      for (int c = dom.nodes[static_cast<std::size_t>(i)].first_child; c >= 0;
           c = dom.nodes[static_cast<std::size_t>(c)].next)
        if (dom.tag(c) == "title") return compute(c, false, true, true, depth + 1);
      return "";
    }
    (void)role;
    return "";
  }

  std::string compute(int i, bool in_labelledby, bool in_content, bool include_hidden, int depth) {
    if (--budget < 0 || depth > kMaxNameDepth) return "";
    if (dom.is_text(i)) return text_of(i, include_hidden);
    if (!dom.is_element(i)) return "";
    if (std::find(visiting.begin(), visiting.end(), i) != visiting.end()) return "";
    // Step 2A (hidden, not referenced): left out of a name from content. visibility:hidden is
    // inherited but can be undone below (`visibility: visible` on a child), and Chrome names from
    // such children: only the element's own words and its other children are left out.
    if (!include_hidden && i != root && (vis.css_hidden(i) || vis.aria_hidden(i))) {
      if (vis.aria_hidden(i) || !visibility_hidden_only(i)) return "";
      visiting.push_back(i);
      std::string r = content(i, include_hidden, depth);
      visiting.pop_back();
      return r;
    }
    // HTML-AAM img: alt="" makes the image presentational, and Chrome leaves it out of the tree
    // altogether: its title names neither the image nor (step 2F) what contains it.
    if (dom.tag(i) == "img" && !in_labelledby) {
      bool has_alt = false;
      if (dom.attr(i, "alt", &has_alt).empty() && has_alt && !dom.has_attr(i, "aria-label") &&
          !dom.has_attr(i, "aria-labelledby"))
        return "";
    }
    if (items_apart && i != root && in_content) {
      const std::string r = lower(collapse_ws(dom.attr(i, "role")));
      if (r == "treeitem" || r == "group") return "";
    }
    visiting.push_back(i);
    std::string r = step(i, in_labelledby, in_content, include_hidden, depth);
    visiting.pop_back();
    return r;
  }

  std::string step(int i, bool in_labelledby, bool in_content, bool include_hidden, int depth) {
    const std::string role = role_of(dom, i);
    bool has = false;
    // Step 2B aria-labelledby (not followed twice: a referenced node's own labelledby is ignored;
    // a hidden reference is used with its hidden content).
    if (!in_labelledby) {
      has = dom.has_attr(i, "aria-labelledby");
      if (has) {
        std::string out;
        for (const int ref : dom.idrefs(i, "aria-labelledby")) {
          const bool hidden_ref = vis.css_hidden(ref) || vis.aria_hidden(ref);
          // An element may name itself in its own aria-labelledby: as for any reference, its
          // text alternative from step 2C on (its aria-label, else its native label or content).
          const std::string part = ref == i ? step(i, true, true, include_hidden || hidden_ref, depth + 1)
                                            : compute(ref, true, true, include_hidden || hidden_ref, depth + 1);
          if (!blank(part)) {
            if (!out.empty()) out.push_back(' ');
            append_collapsed(out, part);
          }
        }
        if (!blank(out)) return out;
      }
    }
    const bool embedded = (in_content || in_labelledby) && i != root && embedded_control_role(role);
    // Step 2D aria-label (after 2C for an embedded control, which gives its value instead).
    if (!embedded) {
      const std::string_view label = dom.attr(i, "aria-label", &has);
      if (has && !is_blank(label)) return std::string(label);
    }
    // Step 2C embedded control (inside a label or a name from content, not the element named):
    // a textbox, combobox, listbox, range or spinbutton gives its value, a select only its chosen
    // option; its value stands in its place (secrets give nothing). An ARIA textbox
    // that is no form field (Select2 renders its choice as `<span role=textbox>Ada</span>`, the
    // combobox labelled by it) has what it holds as its value, as Chrome reads it.
    if (embedded) {
      std::string v = field_value(dom, i, role);
      const std::string_view t = dom.tag(i);
      if (blank(v) && (role == "textbox" || role == "searchbox") && t != "input" && t != "textarea" &&
          !is_secret_field(dom, i))
        v = content(i, include_hidden, depth);
      return v;
    }
    // Step 2E host-language label (HTML-AAM: <label>, alt, value of input buttons, legend, caption)
    if (role != "none") {
      std::string n = native(i, role, depth);
      if (!blank(n)) return n;
    }
    // Step 2F name from content (always while recursing into another element's content); its
    // text nodes are step 2G (text_of), ::before/::after text is 2F.ii (content()).
    if (name_from_content(role) || i != root) {
      std::string c = content(i, include_hidden, depth);
      if (!blank(c)) return c;
    }
    // Step 2I tooltip (title), then the placeholder of text fields (HTML-AAM). Chrome does not
    // name a generic element from its title unless it is focusable (the title becomes its
    // description instead).
    const std::string_view title = dom.attr(i, "title", &has);
    const bool nameless = (role == "generic" || role == "none") && i == root && !is_focusable(dom, i);
    if (has && !is_blank(title) && !nameless) return std::string(title);
    if (i == root && (dom.tag(i) == "input" || dom.tag(i) == "textarea")) {
      const std::string_view ph = dom.attr(i, "placeholder", &has);
      if (has && !is_blank(ph)) return std::string(ph);
    }
    if (i == root) {
      const std::string_view ph = dom.attr(i, "aria-placeholder", &has);
      if (has && !is_blank(ph)) return std::string(ph);
    }
    return "";
  }
};

}  // namespace

std::string accessible_name(const Dom& dom, const Visibility& vis, int i, std::string_view role) {
  Walk w{dom, vis, i, kVisitBudget, {}, role == "treeitem"};
  return collapse_ws(w.compute(i, false, false, false, 0));
}

std::string subtree_text(const Dom& dom, const Visibility& vis, int i) {
  Walk w{dom, vis, i, kVisitBudget, {i}};
  return collapse_ws(w.content(i, false, 0));
}

}  // namespace athena::compiler
