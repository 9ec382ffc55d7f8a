#include "compiler/node_state.h"

#include "athena/limits.h"
#include "compiler/text.h"

namespace athena::compiler {
namespace {

Tri tri_attr(const Dom& dom, int i, std::string_view name, bool allow_mixed) {
  bool has = false;
  const std::string v = lower(collapse_ws(dom.attr(i, name, &has)));
  if (!has || v.empty() || v == "undefined") return Tri::kUnset;
  if (v == "true") return Tri::kTrue;
  if (v == "mixed") return allow_mixed ? Tri::kMixed : Tri::kTrue;
  if (v == "false") return Tri::kFalse;
  return Tri::kUnset;
}

bool attr_true(const Dom& dom, int i, std::string_view name) {
  const std::string_view v = dom.attr(i, name);
  return !v.empty() && lower(collapse_ws(v)) == "true";
}

bool is_form_control(std::string_view t) {
  return t == "button" || t == "input" || t == "select" || t == "textarea" || t == "fieldset" || t == "optgroup" ||
         t == "option";
}

// Text of an <option>: its label attribute, else its text collapsed.
std::string option_text(const Dom& dom, int o) {
  bool has = false;
  const std::string_view label = dom.attr(o, "label", &has);
  if (has && !is_blank(label)) return collapse_ws(label);
  std::string out;
  std::vector<int> stack{o};
  while (!stack.empty()) {
    const int n = stack.back();
    stack.pop_back();
    if (dom.is_text(n)) append_collapsed(out, dom.node_value(n));
    std::vector<int> kids;
    for (int c = dom.nodes[static_cast<std::size_t>(n)].first_child; c >= 0; c = dom.nodes[static_cast<std::size_t>(c)].next)
      kids.push_back(c);
    for (auto it = kids.rbegin(); it != kids.rend(); ++it) stack.push_back(*it);
  }
  trim_in_place(out);
  return out;
}

}  // namespace

// The one rule for secret fields, shared with the extension (extension/lib/secrets.js) and
// checked on both sides against the same table (tests/support/secret-fields.json).
bool is_secret_field(const Dom& dom, int i) {
  if (!dom.is_element(i)) return false;
  if (dom.tag(i) == "input" && lower(collapse_ws(dom.attr(i, "type"))) == "password") return true;
  // autocomplete is a token list ("section-x billing cc-number"): any cc-* token, a one-time code,
  // or a password (a password field a show-password button switched to type=text keeps it).
  const std::string ac = lower(dom.attr(i, "autocomplete"));
  std::string_view rest = ac;
  for (std::string_view tok = first_token(rest); !tok.empty(); tok = first_token(rest)) {
    if (tok.rfind("cc-", 0) == 0 || tok == "one-time-code" || tok == "current-password" || tok == "new-password") return true;
    rest = rest.substr(static_cast<std::size_t>(tok.data() + tok.size() - rest.data()));
  }
  // ... and without autocomplete, an input's name or id still says what it holds.
  if (dom.tag(i) != "input") return false;
  for (const std::string_view a : {"name", "id"}) {
    const std::string v = lower(dom.attr(i, a));
    for (const char* word : {"password", "passwd", "passcode", "pwd"})
      if (v.find(word) != std::string::npos) return true;
  }
  return false;
}

std::string field_value(const Dom& dom, int i, std::string_view role) {
  return is_secret_field(dom, i) ? std::string() : unredacted_value(dom, i, role);
}

std::string unredacted_value(const Dom& dom, int i, std::string_view role) {
  if (!dom.is_element(i)) return "";
  const std::string_view t = dom.tag(i);
  std::string v;
  if (t == "input") {
    const std::string type = lower(collapse_ws(dom.attr(i, "type")));
    if (type == "button" || type == "submit" || type == "reset" || type == "image" || type == "checkbox" ||
        type == "radio" || type == "hidden" || type == "file")
      return "";
    v = (dom.flags(i) & kHasInputValue) ? std::string(dom.input_value(i)) : std::string(dom.attr(i, "value"));
  } else if (t == "textarea") {
    v = (dom.flags(i) & kHasTextValue) ? std::string(dom.text_value(i))
                                       : (dom.flags(i) & kHasInputValue) ? std::string(dom.input_value(i)) : "";
  } else if (t == "select") {
    // Selected options in order; a single select with none marked shows its first option.
    int first = -1;
    std::vector<int> stack{i};
    while (!stack.empty()) {
      const int n = stack.back();
      stack.pop_back();
      if (dom.tag(n) == "option") {
        if (first < 0) first = n;
        if (dom.flags(n) & kOptionSelected) {
          if (!v.empty()) v += ", ";
          v += option_text(dom, n);
        }
        continue;
      }
      std::vector<int> kids;
      for (int c = dom.nodes[static_cast<std::size_t>(n)].first_child; c >= 0; c = dom.nodes[static_cast<std::size_t>(c)].next)
        kids.push_back(c);
      for (auto it = kids.rbegin(); it != kids.rend(); ++it) stack.push_back(*it);
    }
    if (v.empty() && first >= 0 && role == "combobox") v = option_text(dom, first);
  } else if (role == "slider" || role == "spinbutton" || role == "progressbar" || role == "scrollbar") {
    bool has = false;
    v = std::string(dom.attr(i, "aria-valuetext", &has));
    if (!has) v = std::string(dom.attr(i, "aria-valuenow"));
  } else if (role == "textbox" || role == "searchbox" || role == "combobox") {
    v = std::string(dom.attr(i, "aria-valuetext"));
  }
  cut_utf8(v, limits::kMaxValueChars);
  return v;
}

bool is_disabled(const Dom& dom, int i) {
  const std::string_view t = dom.tag(i);
  if (is_form_control(t) && dom.has_attr(i, "disabled")) return true;
  int child = i;
  for (int p = dom.nodes[static_cast<std::size_t>(i)].parent; p >= 0; child = p, p = dom.nodes[static_cast<std::size_t>(p)].parent) {
    if (!dom.is_element(p)) break;  // documents do not pass disabledness on
    if (attr_true(dom, p, "aria-disabled")) return true;
    if (is_form_control(t) && dom.tag(p) == "fieldset" && dom.has_attr(p, "disabled")) {
      // Controls inside the fieldset's first <legend> stay enabled (HTML §4.10.15).
      int legend = -1;
      for (int c = dom.nodes[static_cast<std::size_t>(p)].first_child; c >= 0; c = dom.nodes[static_cast<std::size_t>(c)].next)
        if (dom.tag(c) == "legend") { legend = c; break; }
      if (legend < 0 || child != legend) return true;
    }
    if (t == "option" && dom.tag(p) == "optgroup" && dom.has_attr(p, "disabled")) return true;
  }
  return attr_true(dom, i, "aria-disabled");
}

NodeState state_of(const Dom& dom, int i, std::string_view role) {
  NodeState s;
  const std::string_view t = dom.tag(i);
  const std::string type = t == "input" ? lower(collapse_ws(dom.attr(i, "type"))) : std::string();
  s.disabled = is_disabled(dom, i);
  if (t == "input" && (type == "checkbox" || type == "radio")) {
    s.checked = (dom.flags(i) & kChecked) ? Tri::kTrue : Tri::kFalse;
    const Tri aria = tri_attr(dom, i, "aria-checked", true);
    if (type == "checkbox" && aria == Tri::kMixed) s.checked = Tri::kMixed;
  } else if (role == "checkbox" || role == "radio" || role == "switch" || role == "menuitemcheckbox" ||
             role == "menuitemradio" || role == "treeitem" || role == "option") {
    const Tri aria = tri_attr(dom, i, "aria-checked", role == "checkbox" || role == "menuitemcheckbox");
    if (aria != Tri::kUnset) s.checked = aria;
    else if (role != "option" && role != "treeitem") s.checked = Tri::kFalse;
  }
  if (t == "option") s.selected = (dom.flags(i) & kOptionSelected) != 0;
  else s.selected = attr_true(dom, i, "aria-selected");
  s.expanded = tri_attr(dom, i, "aria-expanded", false);
  if (t == "summary") {
    const int p = dom.nodes[static_cast<std::size_t>(i)].parent;
    if (p >= 0 && dom.tag(p) == "details") s.expanded = dom.has_attr(p, "open") ? Tri::kTrue : Tri::kFalse;
  }
  if (t == "select" && role == "combobox" && s.expanded == Tri::kUnset) s.expanded = Tri::kFalse;
  s.pressed = tri_attr(dom, i, "aria-pressed", true);
  s.required = ((t == "input" || t == "select" || t == "textarea") && dom.has_attr(i, "required")) ||
               attr_true(dom, i, "aria-required");
  const std::string inv = lower(collapse_ws(dom.attr(i, "aria-invalid")));
  s.invalid = !inv.empty() && inv != "false" && inv != "undefined";
  s.readonly = ((t == "input" || t == "textarea") && dom.has_attr(i, "readonly")) || attr_true(dom, i, "aria-readonly");
  // DOMSnapshot carries no focus; a capture cannot tell (see bench/compile-agreement.md).
  s.focused = false;
  if (is_secret_field(dom, i)) {
    // Only "it holds something" is kept: the agent can tell a filled secret field from an empty one.
    const std::string raw = unredacted_value(dom, i, role);
    s.value_redacted = !raw.empty();
  } else {
    s.value = field_value(dom, i, role);
  }
  return s;
}

}  // namespace athena::compiler
