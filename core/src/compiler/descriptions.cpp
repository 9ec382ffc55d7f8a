#include "compiler/descriptions.h"

#include "athena/limits.h"
#include "compiler/accname.h"
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

}  // namespace athena::compiler
