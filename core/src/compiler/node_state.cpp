// One file past 400 lines: the state of one node (checked, expanded, sort, value, secret, disabled, invalid), each a
// small function over Dom; the secret-field rule (rules/secret-fields.json) is the largest.
#include "compiler/node_state.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "athena/limits.h"
#include "compiler/roles.h"
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

// A decimal number as a page writes it in an attribute ("70", "0.6", "-1.5e2"); nothing else.
bool parse_number(std::string_view s, double& out) {
  const std::string t = collapse_ws(s);
  if (t.empty() || t.size() > 32) return false;
  char* end = nullptr;
  out = std::strtod(t.c_str(), &end);
  return end == t.c_str() + t.size() && std::isfinite(out);
}

Sort sort_attr(const Dom& dom, int i) {
  const std::string v = lower(collapse_ws(dom.attr(i, "aria-sort")));
  if (v == "ascending") return Sort::kAscending;
  if (v == "descending") return Sort::kDescending;
  if (v == "other") return Sort::kOther;
  return Sort::kUnset;  // "none", absent, or not a value
}

bool is_header_cell(const Dom& dom, int i) {
  const std::string role = role_of(dom, i);
  return role == "columnheader" || role == "rowheader";
}

// The sort of the header a control sorts by: `<th aria-sort><button>Name</button></th>` (the
// sortable table of the ARIA practices) has one line, the button's, so the button says it. Only
// when the control is the header's one button or link (a filter button beside it sorts nothing).
Sort header_sort_of_control(const Dom& dom, int i) {
  int h = dom.nodes[static_cast<std::size_t>(i)].parent;
  for (int up = 0; h >= 0 && up < 3 && !is_header_cell(dom, h); ++up) h = dom.nodes[static_cast<std::size_t>(h)].parent;
  if (h < 0 || !is_header_cell(dom, h)) return Sort::kUnset;
  const Sort sort = sort_attr(dom, h);
  if (sort == Sort::kUnset) return sort;
  int controls = 0;
  std::size_t seen = 0;
  std::vector<int> stack{h};
  while (!stack.empty() && seen++ < limits::kMaxHeaderCellNodes) {
    const int n = stack.back();
    stack.pop_back();
    if (n != h && dom.is_element(n)) {
      const std::string role = role_of(dom, n);
      if (role == "button" || role == "link") ++controls;
    }
    for (int c = dom.nodes[static_cast<std::size_t>(n)].first_child; c >= 0;
         c = dom.nodes[static_cast<std::size_t>(c)].next)
      stack.push_back(c);
  }
  return controls == 1 && stack.empty() ? sort : Sort::kUnset;
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
    for (int c = dom.nodes[static_cast<std::size_t>(n)].first_child; c >= 0;
         c = dom.nodes[static_cast<std::size_t>(c)].next)
      kids.push_back(c);
    for (auto it = kids.rbegin(); it != kids.rend(); ++it) stack.push_back(*it);
  }
  trim_in_place(out);
  return out;
}

// What a field's name, id or aria-label says it holds, as words: lower case, split at every
// character that is not a letter or digit and where a lower-case letter meets an upper-case one
// ("creditCardNumber", "card_number", "Card number" all read "-credit-card-number-" or
// "-card-number-"), each word between dashes.
std::string field_words(std::string_view s) {
  std::string out = "-";
  char prev = 0;
  for (const char c : s) {
    const bool up = c >= 'A' && c <= 'Z', low = c >= 'a' && c <= 'z', digit = c >= '0' && c <= '9';
    if (!up && !low && !digit) {
      if (out.back() != '-') out.push_back('-');
    } else {
      if (up && prev >= 'a' && prev <= 'z' && out.back() != '-') out.push_back('-');
      out.push_back(up ? static_cast<char>(c - 'A' + 'a') : c);
    }
    prev = c;
  }
  if (out.back() != '-') out.push_back('-');
  return out;
}

bool has_word_run(std::string_view words, std::initializer_list<std::string_view> firsts,
                  std::initializer_list<std::string_view> seconds, bool second_optional) {
  // "-first-second-" or "-firstsecond-" (a digit may end the run: cvv2), anywhere in words.
  for (const std::string_view a : firsts) {
    for (std::size_t at = words.find(a); at != std::string_view::npos; at = words.find(a, at + 1)) {
      if (at == 0 || words[at - 1] != '-') continue;
      std::size_t p = at + a.size();
      auto ends = [&](std::size_t q) {
        while (q < words.size() && words[q] >= '0' && words[q] <= '9') ++q;
        return q < words.size() && words[q] == '-';
      };
      if (second_optional && ends(p)) return true;
      for (const std::string_view b : seconds) {
        for (const std::size_t q : {p, p + 1}) {
          if (q == p + 1 && (p >= words.size() || words[p] != '-')) continue;
          if (words.compare(q, b.size(), b) == 0 && ends(q + b.size())) return true;
        }
      }
    }
  }
  return false;
}

// A card number or a card's security code, by the words of its name, id or aria-label.
bool says_card_secret(std::string_view text) {
  const std::string w = field_words(text);
  return has_word_run(w, {"card", "cc", "creditcard", "credit-card"}, {"number", "num", "no", "nr"}, false) ||
         has_word_run(w, {"creditcard", "credit-card"}, {}, true) ||
         has_word_run(w, {"cvc", "cvv", "csc", "cvn", "cvd"}, {}, true) ||
         has_word_run(w, {"security", "verification"}, {"code", "number", "value"}, false);
}

// A pattern that takes a card number: digits, its fixed-count quantifiers ({16}, {4}x4,
// {13,19}) adding up to 13..23 characters (the digits and the spaces between their groups).
bool card_number_pattern(std::string_view p) {
  if (p.find("\\d") == std::string_view::npos && p.find("0-9") == std::string_view::npos) return false;
  // Each "{a}" or "{a,b}" (1-4 digits each; "{a,}" counts nothing) adds a or b.
  long total = 0;
  const auto digits = [&](std::size_t& j, long& n) {
    const std::size_t from = j;
    n = 0;
    while (j < p.size() && j - from < 4 && p[j] >= '0' && p[j] <= '9') n = n * 10 + (p[j++] - '0');
    return j - from;
  };
  for (std::size_t i = 0; i < p.size(); ++i) {
    if (p[i] != '{') continue;
    std::size_t j = i + 1;
    long a = 0, b = 0;
    if (digits(j, a) == 0) continue;
    long add = a;
    if (j < p.size() && p[j] == ',') {
      ++j;
      add = digits(j, b) ? b : 0;
    }
    if (j < p.size() && p[j] == '}') {
      total += add;
      i = j;
    }
  }
  return total >= 13 && total <= 23;
}

// What a field's own words say it holds, beyond its name and id: a password, a PIN, a one-time
// code, a card number or a card's security code (words, as for names: "Password", "PIN",
// "One-time code", "Card number", "Security code (CVC)").
bool says_secret(std::string_view text) {
  const std::string w = field_words(text);
  return has_word_run(w, {"password", "passwd", "passcode", "passphrase", "pwd", "pin", "otp"}, {}, true) ||
         has_word_run(w, {"one-time", "onetime"}, {"code", "password", "passcode", "pin"}, false) ||
         says_card_secret(text);
}

// A field that holds typed text (what meaning can make a secret): an input that is not a button,
// box or picker, a textarea, a contenteditable root, a role=textbox.
bool text_field(const Dom& dom, int i) {
  const std::string_view t = dom.tag(i);
  if (t == "input") {
    const std::string type = lower(collapse_ws(dom.attr(i, "type")));
    for (const char* no :
         {"button", "submit", "reset", "image", "checkbox", "radio", "hidden", "file", "range", "color"})
      if (type == no) return false;
    return true;
  }
  return t == "textarea" || is_contenteditable(dom, i) || lower(collapse_ws(dom.attr(i, "role"))) == "textbox";
}

// The text of the labels the page gave a field (label[for], the label around it, aria-labelledby),
// text nodes only (never another field's value, nor the field's own text), cut at
// kMaxSecretLabelChars: a field named only by a <label> says what it holds there.
std::string label_text(const Dom& dom, int i) {
  std::vector<int> from;
  if (dom.tag(i) == "input" || dom.tag(i) == "textarea") {
    if (const std::vector<int>* f = dom.labels_for(i)) from = *f;
    for (int p = dom.nodes[static_cast<std::size_t>(i)].parent; p >= 0 && dom.is_element(p);
         p = dom.nodes[static_cast<std::size_t>(p)].parent)
      if (dom.tag(p) == "label") {
        from.push_back(p);
        break;
      }
  }
  for (const int r : dom.idrefs(i, "aria-labelledby")) from.push_back(r);
  std::string out;
  for (const int l : from) {
    std::vector<int> stack{l};
    while (!stack.empty() && out.size() < limits::kMaxSecretLabelChars) {
      const int n = stack.back();
      stack.pop_back();
      if (n == i) continue;
      if (dom.is_text(n)) {
        out += dom.node_value(n);
        continue;
      }
      std::vector<int> kids;
      for (int c = dom.nodes[static_cast<std::size_t>(n)].first_child; c >= 0;
           c = dom.nodes[static_cast<std::size_t>(c)].next)
        kids.push_back(c);
      for (auto it = kids.rbegin(); it != kids.rend(); ++it) stack.push_back(*it);
    }
    out.push_back(' ');
  }
  if (out.size() > limits::kMaxSecretLabelChars) out.resize(limits::kMaxSecretLabelChars);
  return out;
}

}  // namespace

// The one rule for secret fields, shared with the extension (extension/lib/secrets.js) and
// checked on both sides against the same table (rules/secret-fields.json).
bool is_secret_field(const Dom& dom, int i) {
  if (!dom.is_element(i)) return false;
  if (dom.tag(i) == "input" && lower(collapse_ws(dom.attr(i, "type"))) == "password") return true;
  // A field that was a password field and was switched to another type (a show-password button,
  // whatever its name): the page watcher marks it (extension/lib/page-scripts.js).
  bool marked = false;
  dom.attr(i, kWasPasswordAttr, &marked);
  if (marked) return true;
  // What only the live page can tell (a masking style, a field put in a password field's place, a
  // box of a one-time-code group, a label written after the field): the page watcher marks it.
  dom.attr(i, kSecretMarkAttr, &marked);
  if (marked) return true;
  // autocomplete is a token list ("section-x billing cc-number"): any cc-* token, a one-time code,
  // or a password (a password field a show-password button switched to type=text keeps it).
  const std::string ac = lower(dom.attr(i, "autocomplete"));
  std::string_view rest = ac;
  for (std::string_view tok = first_token(rest); !tok.empty(); tok = first_token(rest)) {
    if (tok.rfind("cc-", 0) == 0 || tok == "one-time-code" || tok == "current-password" || tok == "new-password")
      return true;
    rest = rest.substr(static_cast<std::size_t>(tok.data() + tok.size() - rest.data()));
  }
  // ... and without autocomplete, what the page calls the field: its labels, aria-label,
  // placeholder or title (any text field: an input, a textarea, a contenteditable editor).
  if (text_field(dom, i)) {
    for (const std::string_view a : {"aria-label", "placeholder", "title"})
      if (says_secret(dom.attr(i, a))) return true;
    if (says_secret(label_text(dom, i))) return true;
  }
  // An input's name or id also says it.
  if (dom.tag(i) != "input") return false;
  for (const std::string_view a : {"name", "id"}) {
    const std::string v = lower(dom.attr(i, a));
    for (const char* word : {"password", "passwd", "passcode", "pwd"})
      if (v.find(word) != std::string::npos) return true;
  }
  for (const std::string_view a : {"name", "id", "aria-label"})
    if (says_card_secret(dom.attr(i, a))) return true;
  // A numeric field whose pattern takes a card number.
  return lower(collapse_ws(dom.attr(i, "inputmode"))) == "numeric" && card_number_pattern(dom.attr(i, "pattern"));
}

bool attr_true(const Dom& dom, int i, std::string_view name) {
  const std::string_view v = dom.attr(i, name);
  return !v.empty() && lower(collapse_ws(v)) == "true";
}

std::string measure_value(const Dom& dom, int i) {
  bool has = false;
  std::string words = collapse_ws(dom.attr(i, "aria-valuetext", &has));
  if (has && !words.empty()) return words;
  const bool native = dom.tag(i) == "progress" || dom.tag(i) == "meter";
  double now = 0, min = 0, max = native ? 1 : 100;
  if (!parse_number(dom.attr(i, native ? "value" : "aria-valuenow"), now)) return "";
  double given = 0;
  if (parse_number(dom.attr(i, native ? "max" : "aria-valuemax"), given)) max = given;
  if (dom.tag(i) == "meter" && parse_number(dom.attr(i, "min"), given)) min = given;
  if (!native && parse_number(dom.attr(i, "aria-valuemin"), given)) min = given;
  if (!(max > min)) return collapse_ws(dom.attr(i, native ? "value" : "aria-valuenow"));
  const double share = std::min(1.0, std::max(0.0, (now - min) / (max - min)));
  return std::to_string(static_cast<int>(std::lround(share * 100))) + "%";
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
    v = (dom.flags(i) & kHasTextValue)    ? std::string(dom.text_value(i))
        : (dom.flags(i) & kHasInputValue) ? std::string(dom.input_value(i))
                                          : "";
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
      for (int c = dom.nodes[static_cast<std::size_t>(n)].first_child; c >= 0;
           c = dom.nodes[static_cast<std::size_t>(c)].next)
        kids.push_back(c);
      for (auto it = kids.rbegin(); it != kids.rend(); ++it) stack.push_back(*it);
    }
    if (v.empty() && first >= 0 && role == "combobox") v = option_text(dom, first);
  } else if (is_contenteditable(dom, i)) {
    // An editor's value is its text, as Chrome gives it: its blocks apart, its words as written.
    std::vector<int> stack{i};
    while (!stack.empty() && v.size() <= 2 * limits::kMaxValueChars) {
      const int n = stack.back();
      stack.pop_back();
      if (dom.is_text(n)) {
        v += dom.node_value(n);
        continue;
      }
      if (!dom.is_element(n)) continue;
      const std::string_view tag = dom.tag(n);
      if (n != i && (tag == "p" || tag == "div" || tag == "br" || tag == "li" || tag == "h1" || tag == "h2" ||
                     tag == "h3" || tag == "blockquote" || tag == "pre"))
        v.push_back(' ');
      std::vector<int> kids;
      for (int c = dom.nodes[static_cast<std::size_t>(n)].first_child; c >= 0;
           c = dom.nodes[static_cast<std::size_t>(c)].next)
        kids.push_back(c);
      for (auto it = kids.rbegin(); it != kids.rend(); ++it) stack.push_back(*it);
    }
    v = collapse_ws(v);
  } else if (role == "progressbar" || role == "meter") {
    v = measure_value(dom, i);
  } else if (role == "slider" || role == "spinbutton" || role == "scrollbar") {
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
  for (int p = dom.nodes[static_cast<std::size_t>(i)].parent; p >= 0;
       child = p, p = dom.nodes[static_cast<std::size_t>(p)].parent) {
    if (!dom.is_element(p)) break;  // documents do not pass disabledness on
    if (attr_true(dom, p, "aria-disabled")) return true;
    if (is_form_control(t) && dom.tag(p) == "fieldset" && dom.has_attr(p, "disabled")) {
      // Controls inside the fieldset's first <legend> stay enabled (HTML §4.10.15).
      int legend = -1;
      for (int c = dom.nodes[static_cast<std::size_t>(p)].first_child; c >= 0;
           c = dom.nodes[static_cast<std::size_t>(c)].next)
        if (dom.tag(c) == "legend") {
          legend = c;
          break;
        }
      if (legend < 0 || child != legend) return true;
    }
    if (t == "option" && dom.tag(p) == "optgroup" && dom.has_attr(p, "disabled")) return true;
  }
  return attr_true(dom, i, "aria-disabled");
}

bool aria_invalid(const Dom& dom, int i) {
  const std::string inv = lower(collapse_ws(dom.attr(i, "aria-invalid")));
  return !inv.empty() && inv != "false" && inv != "undefined";
}

bool refused(const Dom& dom, int i) {
  return aria_invalid(dom, i) || dom.has_attr(i, kInvalidMarkAttr);
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
    if (aria != Tri::kUnset)
      s.checked = aria;
    else if (role != "option" && role != "treeitem")
      s.checked = Tri::kFalse;
  }
  if (t == "option")
    s.selected = (dom.flags(i) & kOptionSelected) != 0;
  else
    s.selected = attr_true(dom, i, "aria-selected");
  s.expanded = tri_attr(dom, i, "aria-expanded", false);
  if (t == "summary") {
    const int p = dom.nodes[static_cast<std::size_t>(i)].parent;
    if (p >= 0 && dom.tag(p) == "details") s.expanded = dom.has_attr(p, "open") ? Tri::kTrue : Tri::kFalse;
  }
  if (t == "select" && role == "combobox" && s.expanded == Tri::kUnset) s.expanded = Tri::kFalse;
  // A tab expanded exactly when it is selected (jQuery UI sets aria-expanded on every tab) says
  // nothing more by it: `selected` names the open one. A selected tab folded shut (jQuery UI's
  // collapsible tabs) or an open one not selected keeps its `expanded` word.
  if (role == "tab" && s.expanded != Tri::kUnset && (s.expanded == Tri::kTrue) == s.selected) s.expanded = Tri::kUnset;
  s.pressed = tri_attr(dom, i, "aria-pressed", true);
  if (role == "columnheader" || role == "rowheader")
    s.sort = sort_attr(dom, i);  // the only roles aria-sort belongs to
  else if (role == "button" || role == "link")
    s.sort = header_sort_of_control(dom, i);
  s.required = ((t == "input" || t == "select" || t == "textarea") && dom.has_attr(i, "required")) ||
               attr_true(dom, i, "aria-required");
  s.invalid = refused(dom, i);
  s.readonly = ((t == "input" || t == "textarea") && dom.has_attr(i, "readonly")) || attr_true(dom, i, "aria-readonly");
  // aria-current is a token (page, step, location, date, time, true) or false; anything else a
  // page writes there counts as true, as ARIA says.
  {
    bool has = false;
    const std::string v = lower(collapse_ws(dom.attr(i, "aria-current", &has)));
    s.current = has && !v.empty() && v != "false";
  }
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
