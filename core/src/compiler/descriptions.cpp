#include "compiler/descriptions.h"

#include "athena/limits.h"
#include "compiler/accname.h"
#include "compiler/compile_state.h"
#include "compiler/lines.h"
#include "compiler/node_state.h"
#include "compiler/text.h"

namespace athena::compiler {

// Elements named by aria-errormessage / aria-describedby of an aria-invalid field.
std::vector<char> validation_targets(const Dom& dom) {
  std::vector<char> out(dom.nodes.size(), 0);
  for (const int i : dom.order) {
    if (!dom.is_element(i) || !aria_invalid(dom, i)) continue;
    for (const std::string_view a : {"aria-errormessage", "aria-describedby"})
      for (const int ref : dom.idrefs(i, a)) out[static_cast<std::size_t>(ref)] = 1;
  }
  return out;
}

// The page's own message beside a field it refused, where no attribute ties them (Bootstrap's
// `.invalid-feedback`, shown once the form was validated): among the field's next few siblings,
// past a checkbox's label, a visible one whose class says invalid or error and that holds a short
// sentence. -1 when there is none, or another field comes first.
int feedback_of(const Dom& dom, const Visibility& vis, int field, const std::vector<char>& control) {
  int seen = 0;
  for (int c = dom.nodes[static_cast<std::size_t>(field)].next; c >= 0 && seen < limits::kFeedbackSiblings;
       c = dom.nodes[static_cast<std::size_t>(c)].next) {
    if (!dom.is_element(c)) continue;
    ++seen;
    if (dom.tag(c) == "label") continue;
    if (control[static_cast<std::size_t>(c)]) return -1;
    const std::string cls = lower(dom.attr(c, "class"));
    if (cls.find("invalid") == std::string::npos && cls.find("error") == std::string::npos) continue;
    if (!vis.visible(c, false)) continue;
    const std::string words = subtree_text(dom, vis, c);
    return has_words(words) && words.size() <= limits::kMaxNameChars ? c : -1;
  }
  return -1;
}

// Elements whose words a field's description carries (aria-describedby, aria-errormessage of an
// invalid field, the page's message beside a refused one) when they are short enough to be one:
// they are not lines of their own. `feedback` gets, per refused field, the page's message beside
// it that is its description (feedback_of), else -1.
std::vector<char> description_targets(const Dom& dom, const Visibility& vis, const std::vector<char>& control,
                                      std::vector<int>& feedback) {
  std::vector<char> out(dom.nodes.size(), 0);
  feedback.assign(dom.nodes.size(), -1);
  for (const int i : dom.order) {
    // (A description of symbols alone, Bootstrap's "@" before a username, gives way to it.)
    if (dom.is_element(i) && control[static_cast<std::size_t>(i)] && refused(dom, i) &&
        !dom.has_attr(i, "aria-errormessage") && !has_words(described_by(dom, vis, i, true)))
      if (const int f = feedback_of(dom, vis, i, control); f >= 0) {
        out[static_cast<std::size_t>(f)] = 1;
        feedback[static_cast<std::size_t>(i)] = f;
      }
    if (!dom.is_element(i) || !(dom.has_attr(i, "aria-describedby") || dom.has_attr(i, "aria-errormessage"))) continue;
    // Only a control's line shows its description (desc=…): a dialog's or a section's stays text.
    if (!control[static_cast<std::size_t>(i)]) continue;
    for (const std::string_view a : {"aria-errormessage", "aria-describedby"})
      for (const int ref : dom.idrefs(i, a))
        if (ref != i && subtree_text(dom, vis, ref).size() <= limits::kMaxNameChars)
          out[static_cast<std::size_t>(ref)] = 1;
  }
  return out;
}

/// The accessible description from aria-errormessage (of an invalid field) and aria-describedby:
/// the text of the elements they name, as Chrome's accessibility tree computes it.
std::string described_by(const Dom& dom, const Visibility& vis, int i, bool invalid) {
  std::string out;
  for (const std::string_view a : {"aria-errormessage", "aria-describedby"}) {
    if (a == "aria-errormessage" && !invalid) continue;
    for (const int ref : dom.idrefs(i, a)) {
      const std::string t = subtree_text(dom, vis, ref);
      if (is_blank(t) || out.find(t) != std::string::npos) continue;
      if (!out.empty()) out.push_back(' ');
      out += t;
    }
  }
  return out;
}

// A line's description (desc=…): what the page says about it beside its name.
void describe_line(CompileState& st, int i, ReadableNode& rn) {
  const Dom& dom = st.dom;
  const Visibility& vis = st.vis;
  const auto u = static_cast<std::size_t>(i);
  const std::string_view t = dom.nodes[u].tag;
  bool has = false;
  const std::string_view desc = dom.attr(i, "aria-description", &has);
  const std::string title = collapse_ws(dom.attr(i, "title"));
  std::string by = rn.category == Category::kInteractive ? described_by(dom, vis, i, rn.state.invalid) : std::string();
  // Why it was refused: the page's own message beside it, which says more than the browser's
  // ("Please fill out this field.") and than a description of symbols alone; else the browser's.
  std::string why = rn.state.invalid ? collapse_ws(dom.attr(i, kInvalidMarkAttr)) : std::string();
  if (st.feedback[u] >= 0) {
    why = subtree_text(dom, vis, st.feedback[u]);
    by.clear();
  }
  if (!by.empty() && by != rn.name)
    rn.description = cut(by, limits::kMaxNameChars);
  else if (!why.empty())
    rn.description = cut(why, limits::kMaxNameChars);
  else if (has && !is_blank(desc))
    rn.description = cut(collapse_ws(desc), limits::kMaxNameChars);
  // A title the name already says tells the agent nothing: Sphinx titles its link "abs()" "abs".
  else if (!title.empty() && lower(rn.name).find(lower(title)) == std::string::npos)
    rn.description = cut(title, limits::kMaxNameChars);
  else if (!is_blank(dom.attr(i, "placeholder")) && (t == "input" || t == "textarea")) {
    const std::string ph = collapse_ws(dom.attr(i, "placeholder"));
    if (ph != rn.name) rn.description = cut(ph, limits::kMaxNameChars);
  }
}

// A nameless control (TodoMVC's toggle checkbox, an icon button) is told apart by the text
// around it. (Not a menu, a tree or a grid: its items say what it holds, and the words around
// it are another control's.) Inside a text line (a todo's checkbox in its list item) it sits
// under that line, whose words say what it is once: that line's index is returned (else -1);
// elsewhere the nearest ancestor with text is its description ("in: Shipping").
int context_of(CompileState& st, int i, ReadableNode& rn) {
  const Dom& dom = st.dom;
  const Visibility& vis = st.vis;
  const bool nameless = rn.category == Category::kInteractive && rn.name.empty() && rn.description.empty() &&
                        !composite_container(st.role[static_cast<std::size_t>(i)]);
  int under_line = -1;
  if (nameless) {
    int b = dom.nodes[static_cast<std::size_t>(i)].parent;
    for (int up = 0; b >= 0 && up < limits::kContextHops && dom.is_element(b);
         ++up, b = dom.nodes[static_cast<std::size_t>(b)].parent) {
      const int line = st.first_line[static_cast<std::size_t>(b)];
      if (line < 0) continue;
      const ReadableNode& l = st.snap.nodes[static_cast<std::size_t>(line)];
      if (l.backend_node_id == dom.backend(b) && l.category == Category::kText && l.role == "text") under_line = line;
      break;
    }
  }
  if (nameless && under_line < 0) {
    int a = dom.nodes[static_cast<std::size_t>(i)].parent;
    for (int hops = 0; a >= 0 && hops < limits::kContextHops && dom.is_element(a);
         ++hops, a = dom.nodes[static_cast<std::size_t>(a)].parent) {
      const std::string_view at = dom.tag(a);
      // Containers of many items say nothing about one of them.
      if (at == "ul" || at == "ol" || at == "table" || at == "tbody" || at == "section" || at == "main" ||
          at == "form" || at == "body" || at == "nav" || at == "header" || at == "footer")
        break;
      std::string around = collapse_ws(subtree_text(dom, vis, a));
      // The words around it, not its own value (a select's chosen option is in its parent's text).
      const std::string& own = rn.state.value;
      if (!own.empty() && !rn.state.value_redacted) {
        if (around == own)
          around.clear();
        else if (around.size() > own.size() && around.compare(around.size() - own.size(), own.size(), own) == 0 &&
                 around[around.size() - own.size() - 1] == ' ')
          around.resize(around.size() - own.size() - 1);
        else if (around.size() > own.size() && around.compare(0, own.size(), own) == 0 && around[own.size()] == ' ')
          around.erase(0, own.size() + 1);
      }
      if (is_blank(around)) continue;
      if (around.size() <= limits::kContextMaxChars) rn.description = "in: " + around;
      break;
    }
  }
  return under_line;
}

}  // namespace athena::compiler
