#include "compiler/roles.h"

#include <algorithm>
#include <array>

#include "compiler/text.h"

namespace athena::compiler {
namespace {

// ARIA 1.2 roles Chrome accepts in a role attribute (DPub/graphics roles pass through as-is).
constexpr std::array<std::string_view, 82> kAriaRoles = {
    "alert", "alertdialog", "application", "article", "banner", "blockquote", "button", "caption", "cell",
    "checkbox", "code", "columnheader", "combobox", "comment", "complementary", "contentinfo", "definition",
    "deletion", "dialog", "directory", "document", "emphasis", "feed", "figure", "form", "generic", "grid",
    "gridcell", "group", "heading", "img", "image", "insertion", "link", "list", "listbox", "listitem", "log",
    "main", "mark", "marquee", "math", "menu", "menubar", "menuitem", "menuitemcheckbox", "menuitemradio",
    "meter", "navigation", "none", "note", "option", "paragraph", "presentation", "progressbar", "radio",
    "radiogroup", "region", "row", "rowgroup", "rowheader", "scrollbar", "search", "searchbox", "separator",
    "slider", "spinbutton", "status", "strong", "subscript", "superscript", "switch", "tab", "table", "tablist",
    "tabpanel", "term", "textbox", "time", "timer", "toolbar", "tooltip"};
constexpr std::array<std::string_view, 3> kAriaRoles2 = {"tree", "treegrid", "treeitem"};

bool valid_role(std::string_view r) {
  if (r.rfind("doc-", 0) == 0 || r.rfind("graphics-", 0) == 0) return true;
  return std::find(kAriaRoles.begin(), kAriaRoles.end(), r) != kAriaRoles.end() ||
         std::find(kAriaRoles2.begin(), kAriaRoles2.end(), r) != kAriaRoles2.end();
}

// Chrome reports some ARIA roles under its own names.
std::string chrome_name(std::string_view r) {
  if (r == "img") return "image";
  if (r == "presentation") return "none";
  if (r == "directory") return "list";
  return std::string(r);
}

bool inside(const Dom& dom, int i, std::initializer_list<std::string_view> tags) {
  for (int p = dom.nodes[static_cast<std::size_t>(i)].parent; p >= 0; p = dom.nodes[static_cast<std::size_t>(p)].parent) {
    if (dom.nodes[static_cast<std::size_t>(p)].type == 9) return false;  // stop at the document
    for (const auto t : tags)
      if (dom.tag(p) == t) return true;
  }
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
  if (type == "date" || type == "month" || type == "week") return "Date";
  if (type == "datetime-local") return "DateTime";
  if (type == "time") return "InputTime";
  if (type == "search") return list ? "combobox" : "searchbox";
  return list ? "combobox" : "textbox";  // text, email, tel, url, password, unknown
}

}  // namespace

bool is_contenteditable(const Dom& dom, int i) {
  bool has = false;
  const std::string v = lower(collapse_ws(dom.attr(i, "contenteditable", &has)));
  return has && (v.empty() || v == "true" || v == "plaintext-only");
}

std::string implicit_role(const Dom& dom, int i) {
  if (!dom.is_element(i)) return "";
  const std::string& t = dom.tag(i);
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
    return has && alt.empty() && !dom.has_attr(i, "title") ? "none" : "image";
  }
  if (t == "nav") return "navigation";
  if (t == "main") return "main";
  if (t == "search") return "search";
  if (t == "form") return "form";
  if (t == "aside") return "complementary";
  if (t == "header") return inside(dom, i, {"article", "aside", "main", "nav", "section"}) ? "sectionheader" : "banner";
  if (t == "footer") return inside(dom, i, {"article", "aside", "main", "nav", "section"}) ? "sectionfooter" : "contentinfo";
  if (t == "section") return "region";
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

std::string role_of(const Dom& dom, int i) {
  if (!dom.is_element(i)) return "";
  bool has = false;
  const std::string_view attr = dom.attr(i, "role", &has);
  if (has) {
    const std::string roles = lower(attr);
    std::string_view rest = roles;
    while (true) {
      const std::string_view tok = first_token(rest);
      if (tok.empty()) break;
      if (valid_role(tok)) {
        // Presentational roles conflict with focusability (ARIA 1.2 §9.3): the implicit role stays.
        if ((tok == "none" || tok == "presentation") && is_focusable(dom, i)) break;
        return chrome_name(tok);
      }
      rest = rest.substr(static_cast<std::size_t>(tok.data() + tok.size() - rest.data()));
    }
  }
  return implicit_role(dom, i);
}

bool is_interactive_role(std::string_view r) {
  static constexpr std::array<std::string_view, 22> kRoles = {
      "button", "link", "textbox", "searchbox", "spinbutton", "checkbox", "radio", "slider", "combobox", "listbox",
      "option", "menuitem", "menuitemcheckbox", "menuitemradio", "tab", "switch", "treeitem", "DisclosureTriangle",
      "ColorWell", "Date", "DateTime", "InputTime"};
  return std::find(kRoles.begin(), kRoles.end(), r) != kRoles.end() || r == "scrollbar";
}

bool name_from_content(std::string_view r) {
  static constexpr std::array<std::string_view, 21> kRoles = {
      "button", "cell", "checkbox", "columnheader", "DisclosureTriangle", "gridcell", "heading", "link",
      "option", "menuitem", "menuitemcheckbox", "menuitemradio", "radio", "row", "rowheader", "switch", "tab",
      "tooltip", "treeitem", "term", "legend"};
  return std::find(kRoles.begin(), kRoles.end(), r) != kRoles.end();
}

bool is_focusable(const Dom& dom, int i) {
  if (!dom.is_element(i)) return false;
  long long ti = 0;
  if (parse_int(dom.attr(i, "tabindex"), ti)) return true;
  if (is_contenteditable(dom, i)) return true;
  const std::string& t = dom.tag(i);
  if (t == "a" || t == "area") return dom.has_attr(i, "href");
  if (t == "input") return lower(collapse_ws(dom.attr(i, "type"))) != "hidden" && !dom.has_attr(i, "disabled");
  if (t == "button" || t == "select" || t == "textarea") return !dom.has_attr(i, "disabled");
  if (t == "summary") return true;
  if (t == "iframe") return true;
  return false;
}

int heading_level(const Dom& dom, int i, std::string_view role) {
  if (role != "heading") return 0;
  long long lvl = 0;
  if (parse_int(dom.attr(i, "aria-level"), lvl) && lvl >= 1) return static_cast<int>(std::min<long long>(lvl, 9));
  const std::string& t = dom.tag(i);
  if (t.size() == 2 && t[0] == 'h' && t[1] >= '1' && t[1] <= '6') return t[1] - '0';
  return 2;
}

}  // namespace athena::compiler
