#include "compiler/roles.h"

#include <algorithm>
#include <array>
#include <vector>

#include "compiler/regions.h"
#include "compiler/text.h"
#include "landmarks.inc"  // generated from extension/lib/landmarks.js by core/gen-landmarks.mjs

namespace athena::compiler {
namespace {

// Which role-attribute tokens are roles: the closed list of extension/lib/landmarks.js (ariaRoles),
// generated into landmarks.inc. A role is printed unquoted in every line an agent reads, so a
// page's own token (role="doc-x\"><full") must never reach the output.
bool valid_role(std::string_view r) {
  return std::find(generated::kAriaRoles.begin(), generated::kAriaRoles.end(), r) != generated::kAriaRoles.end();
}

// Chrome reports some ARIA roles under its own names.
std::string chrome_name(std::string_view r) {
  if (r == "img") return "image";
  if (r == "presentation") return "none";
  if (r == "directory") return "list";
  return std::string(r);
}

// ARIA 1.2 §6.4 global states and properties (those that apply to every role).
bool has_global_aria(const Dom& dom, int i) {
  static constexpr std::array<std::string_view, 21> kGlobal = {
      "aria-atomic",         "aria-busy",       "aria-controls", "aria-current",    "aria-describedby",
      "aria-description",    "aria-details",    "aria-disabled", "aria-dropeffect", "aria-errormessage",
      "aria-flowto",         "aria-grabbed",    "aria-haspopup", "aria-invalid",    "aria-keyshortcuts",
      "aria-label",          "aria-labelledby", "aria-live",     "aria-owns",       "aria-relevant",
      "aria-roledescription"};
  for (const auto a : kGlobal)
    if (dom.has_attr(i, a)) return true;
  return false;
}

std::string input_role(const Dom& dom, int i) {
  const std::string type = lower(collapse_ws(dom.attr(i, "type")));
  const bool list = dom.has_attr(i, "list");
  if (type == "button" || type == "submit" || type == "reset" || type == "image" || type == "file") return "button";
  if (type == "checkbox") return "checkbox";
  if (type == "radio") return "radio";
  if (type == "range") return "slider";
  if (type == "number") return "spinbutton";
  if (type == "hidden") return "";
  if (type == "color") return "ColorWell";
  // Chrome's tree calls month and week fields DateTime (its date picker with a year part), date Date.
  if (type == "date") return "Date";
  if (type == "month" || type == "week") return "DateTime";
  if (type == "datetime-local") return "DateTime";
  if (type == "time") return "InputTime";
  if (type == "search") return list ? "combobox" : "searchbox";
  return list ? "combobox" : "textbox";  // text, email, tel, url, password, unknown
}

}  // namespace

bool is_contenteditable(const Dom& dom, int i) {
  bool has = false;
  const std::string_view raw = dom.attr(i, "contenteditable", &has);
  if (!has) return false;  // nearly every element: no string work
  const std::string v = lower(collapse_ws(raw));
  return v.empty() || v == "true" || v == "plaintext-only";
}

std::string implicit_role(const Dom& dom, int i) {
  if (!dom.is_element(i)) return "";
  const std::string_view t = dom.tag(i);
  if (t == "a" || t == "area") return dom.has_attr(i, "href") ? "link" : "generic";
  if (t == "button") return "button";
  if (t == "input") return input_role(dom, i);
  if (t == "select") {
    long long size = 0;
    const bool sized = parse_int(dom.attr(i, "size"), size) && size > 1;
    return dom.has_attr(i, "multiple") || sized ? "listbox" : "combobox";
  }
  if (t == "textarea") return "textbox";
  if (t == "option") return "option";
  if (t == "summary") return "DisclosureTriangle";
  if (t == "details" || t == "fieldset" || t == "optgroup") return "group";
  if (t == "dialog") return "dialog";
  if (t.size() == 2 && t[0] == 'h' && t[1] >= '1' && t[1] <= '6') return "heading";
  if (t == "img") {
    bool has = false;
    const std::string_view alt = dom.attr(i, "alt", &has);
    // HTML-AAM: alt="" is presentational whatever else the image carries (a title included).
    return has && alt.empty() ? "none" : "image";
  }
  if (t == "nav") return "navigation";
  if (t == "main") return "main";
  if (t == "search") return "search";
  if (t == "form") return "form";
  // Scoped to sectioning content, by the landmark table's rule (compiler/regions.h).
  if (t == "aside") return scoped_away(dom, i) ? "generic" : "complementary";
  if (t == "header") return scoped_away(dom, i) ? "sectionheader" : "banner";
  if (t == "footer") return scoped_away(dom, i) ? "sectionfooter" : "contentinfo";
  if (t == "section") return named(dom, i) ? "region" : "generic";  // HTML-AAM, as Chrome: a region only when named
  if (t == "article") return "article";
  if (t == "ul" || t == "ol" || t == "menu") return "list";
  if (t == "li") return "listitem";
  if (t == "table") return "table";
  if (t == "tr") return "row";
  if (t == "td") return "cell";
  if (t == "th") return "columnheader";
  if (t == "thead" || t == "tbody" || t == "tfoot") return "rowgroup";
  if (t == "p") return "paragraph";
  if (t == "label") return "LabelText";
  if (t == "progress") return "progressbar";
  if (t == "meter") return "meter";
  if (t == "output") return "status";
  if (t == "hr") return "separator";
  if (t == "figure") return "figure";
  if (t == "iframe" || t == "frame") return "Iframe";
  if (t == "svg") return "image";
  if (t == "dl") return "list";
  if (t == "dt") return "term";
  if (t == "dd") return "definition";
  if (t == "blockquote") return "blockquote";
  if (t == "code") return "code";
  if (t == "strong") return "strong";
  if (t == "em") return "emphasis";
  if (t == "legend") return "legend";
  return "generic";
}

namespace {

// Chrome's layout-table heuristic, reduced to what a capture shows: explicit data-table signals
// make a data table; a single row or column makes a layout table; otherwise data.
bool scan_data_table(const Dom& dom, int table);

bool is_data_table(const Dom& dom, int table) {
  signed char& memo = dom.data_table_memo[static_cast<std::size_t>(table)];
  if (memo < 0) memo = scan_data_table(dom, table) ? 1 : 0;
  return memo == 1;
}

bool scan_data_table(const Dom& dom, int table) {
  if (dom.has_attr(table, "role") || dom.has_attr(table, "summary") || dom.has_attr(table, "border")) return true;
  int rows = 0, max_cols = 0;
  std::vector<int> stack{table};
  while (!stack.empty()) {
    const int n = stack.back();
    stack.pop_back();
    const std::string_view t = dom.tag(n);
    if (n != table && t == "table") continue;
    if (t == "caption" || t == "thead" || t == "tfoot" || t == "th" || t == "colgroup" || t == "col") return true;
    if (t == "td" && (dom.has_attr(n, "headers") || dom.has_attr(n, "scope") || dom.has_attr(n, "abbr"))) return true;
    if (t == "tr") {
      ++rows;
      int cols = 0;
      for (int c = dom.nodes[static_cast<std::size_t>(n)].first_child; c >= 0;
           c = dom.nodes[static_cast<std::size_t>(c)].next)
        cols += dom.tag(c) == "td";
      max_cols = std::max(max_cols, cols);
    }
    for (int c = dom.nodes[static_cast<std::size_t>(n)].first_child; c >= 0;
         c = dom.nodes[static_cast<std::size_t>(c)].next)
      stack.push_back(c);
  }
  return rows >= 2 && max_cols >= 2;
}

int ancestor_tag(const Dom& dom, int i, std::string_view tag) {
  for (int p = dom.nodes[static_cast<std::size_t>(i)].parent; p >= 0 && dom.is_element(p);
       p = dom.nodes[static_cast<std::size_t>(p)].parent)
    if (dom.tag(p) == tag) return p;
  return -1;
}

bool has_ancestor_role(const Dom& dom, int i, std::initializer_list<std::string_view> roles) {
  for (int p = dom.nodes[static_cast<std::size_t>(i)].parent; p >= 0 && dom.is_element(p);
       p = dom.nodes[static_cast<std::size_t>(p)].parent) {
    const std::string r = role_of(dom, p);
    for (const auto want : roles)
      if (r == want) return true;
  }
  return false;
}

// Roles Chrome drops to generic outside their required context (ARIA "required context role").
std::string in_context(const Dom& dom, int i, std::string role) {
  if (role == "option" && dom.tag(i) != "option" && !has_ancestor_role(dom, i, {"listbox", "combobox", "group"}))
    return "generic";
  if (role == "treeitem" && !has_ancestor_role(dom, i, {"tree", "group"})) return "generic";
  return role;
}

std::string layout_table_role(const Dom& dom, int i, std::string role) {
  const std::string_view t = dom.tag(i);
  if (t == "td" || t == "tr" || t == "table") {
    const int table = t == "table" ? i : ancestor_tag(dom, i, "table");
    if (table >= 0 && !is_data_table(dom, table))
      return t == "td" ? "LayoutTableCell" : t == "tr" ? "LayoutTableRow" : "LayoutTable";
    return role;
  }
  if (role == "generic") {
    const std::string_view d = dom.style(i, kDisplay);
    if (d == "table" || d == "inline-table") return "LayoutTable";
    if (d == "table-row") return "LayoutTableRow";
    if (d == "table-cell") return "LayoutTableCell";
  }
  return role;
}

}  // namespace

std::string_view attr_role(const Dom& dom, int i) {
  bool has = false;
  const std::string_view attr = dom.attr(i, "role", &has);
  if (!has) return {};
  const std::string roles = lower(attr);
  std::string_view rest = roles;
  while (true) {
    const std::string_view tok = first_token(rest);
    if (tok.empty()) return {};
    if (valid_role(tok)) {
      // Presentational role conflict resolution (ARIA 1.2 §9.3): a focusable element, or one
      // with a global ARIA property, keeps its implicit role.
      if ((tok == "none" || tok == "presentation") && (is_focusable(dom, i) || has_global_aria(dom, i))) return {};
      // The table's own copy of the token: `roles` dies with this call.
      return *std::find(generated::kAriaRoles.begin(), generated::kAriaRoles.end(), tok);
    }
    rest = rest.substr(static_cast<std::size_t>(tok.data() + tok.size() - rest.data()));
  }
}

std::string role_of(const Dom& dom, int i) {
  if (!dom.is_element(i)) return "";
  const std::string_view given = attr_role(dom, i);
  if (!given.empty()) return in_context(dom, i, chrome_name(given));
  return layout_table_role(dom, i, implicit_role(dom, i));
}

std::string agent_role(std::string_view r) {
  if (r == "DisclosureTriangle") return "button";
  if (r == "LayoutTable" || r == "LayoutTableRow" || r == "LayoutTableCell") return "generic";
  if (r == "Iframe") return "iframe";
  return std::string(r);
}

bool is_interactive_role(std::string_view r) {
  static constexpr std::array<std::string_view, 22> kRoles = {"button",
                                                              "link",
                                                              "textbox",
                                                              "searchbox",
                                                              "spinbutton",
                                                              "checkbox",
                                                              "radio",
                                                              "slider",
                                                              "combobox",
                                                              "listbox",
                                                              "option",
                                                              "menuitem",
                                                              "menuitemcheckbox",
                                                              "menuitemradio",
                                                              "tab",
                                                              "switch",
                                                              "treeitem",
                                                              "DisclosureTriangle",
                                                              "ColorWell",
                                                              "Date",
                                                              "DateTime",
                                                              "InputTime"};
  return std::find(kRoles.begin(), kRoles.end(), r) != kRoles.end() || r == "scrollbar";
}

bool name_from_content(std::string_view r) {
  static constexpr std::array<std::string_view, 21> kRoles = {
      "button",    "cell",   "checkbox", "columnheader",     "DisclosureTriangle", "gridcell", "heading",
      "link",      "option", "menuitem", "menuitemcheckbox", "menuitemradio",      "radio",    "LayoutTableCell",
      "rowheader", "switch", "tab",      "tooltip",          "treeitem",           "term",     "legend"};
  // DPub-ARIA references name from their content too.
  if (r == "doc-noteref" || r == "doc-backlink" || r == "doc-biblioref" || r == "doc-glossref") return true;
  return std::find(kRoles.begin(), kRoles.end(), r) != kRoles.end();
}

bool is_focusable(const Dom& dom, int i) {
  if (!dom.is_element(i)) return false;
  long long ti = 0;
  if (parse_int(dom.attr(i, "tabindex"), ti)) return true;
  if (is_contenteditable(dom, i)) return true;
  const std::string_view t = dom.tag(i);
  if (t == "a" || t == "area") return dom.has_attr(i, "href");
  if (t == "input") return lower(collapse_ws(dom.attr(i, "type"))) != "hidden" && !dom.has_attr(i, "disabled");
  if (t == "button" || t == "select" || t == "textarea") return !dom.has_attr(i, "disabled");
  if (t == "summary") return true;
  if (t == "iframe") return true;
  return false;
}

int heading_level(std::string_view tag, std::string_view aria_level, bool has_aria_level) {
  // rules/headings.json, as Chrome computes it: h1..h6 their own level, else 2; aria-level read
  // as an HTML integer wins when it is 1..9, gives 1 when it does not parse or is below 1, and
  // is ignored above 9 (extension/lib/headings.js is the page side's copy).
  const int own = tag.size() == 2 && tag[0] == 'h' && tag[1] >= '1' && tag[1] <= '6' ? tag[1] - '0' : 2;
  if (!has_aria_level || aria_level.empty()) return own;
  std::size_t at = 0;
  while (at < aria_level.size() && (aria_level[at] == ' ' || aria_level[at] == '\t' || aria_level[at] == '\n' ||
                                    aria_level[at] == '\f' || aria_level[at] == '\r'))
    ++at;
  bool negative = false;
  if (at < aria_level.size() && (aria_level[at] == '+' || aria_level[at] == '-')) negative = aria_level[at++] == '-';
  if (at == aria_level.size() || aria_level[at] < '0' || aria_level[at] > '9') return 1;
  long long n = 0;
  for (; at < aria_level.size() && aria_level[at] >= '0' && aria_level[at] <= '9'; ++at) {
    n = n * 10 + (aria_level[at] - '0');
    if (n > 2147483648LL) return 1;  // past a 32-bit int: does not parse
  }
  if (negative) n = -n;
  if (n > 2147483647LL || n < 1) return 1;
  return n > 9 ? own : static_cast<int>(n);
}

int heading_level(const Dom& dom, int i, std::string_view role) {
  if (role != "heading") return 0;
  bool has = false;
  const std::string_view level = dom.attr(i, "aria-level", &has);
  return heading_level(dom.tag(i), level, has);
}

}  // namespace athena::compiler
