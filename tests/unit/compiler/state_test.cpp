// Element state and the redaction of secrets.
#include "helpers.h"

using namespace athena;
using namespace athena::test;

TEST_CASE("disabled: native, fieldset inheritance except the first legend, aria-disabled", "[compiler][state]") {
  CaptureBuilder b;
  const int body = b.el(0, 0, "body");
  const int fs = b.el(0, body, "fieldset", {{"disabled", ""}});
  const int legend = b.el(0, fs, "legend");
  b.text(0, b.el(0, legend, "button"), "In legend");
  b.el(0, fs, "input", {{"aria-label", "Inherits"}});
  b.el(0, body, "button", {{"disabled", ""}, {"aria-label", "Native"}});
  b.el(0, body, "div", {{"role", "button"}, {"aria-disabled", "true"}, {"aria-label", "Aria"}});
  b.el(0, body, "button", {{"aria-label", "Enabled"}});
  const Snapshot s = compile_ok(b);
  CHECK_FALSE(by_role_name(s, "button", "In legend")->state.disabled);
  CHECK(by_role_name(s, "group", "In legend")->state.disabled);  // the fieldset's own line
  CHECK(by_name(s, "Inherits")->state.disabled);
  CHECK(by_name(s, "Native")->state.disabled);
  CHECK(by_name(s, "Aria")->state.disabled);
  CHECK_FALSE(by_name(s, "Enabled")->state.disabled);
}

TEST_CASE("checked, mixed, selected, expanded, pressed, required, invalid, readonly, value", "[compiler][state]") {
  CaptureBuilder b;
  const int body = b.el(0, 0, "body");
  const int c1 = b.el(0, body, "input", {{"type", "checkbox"}, {"aria-label", "On"}});
  b.flag(0, c1, "inputChecked");
  b.el(0, body, "input", {{"type", "checkbox"}, {"aria-label", "Off"}});
  b.el(0, body, "input", {{"type", "checkbox"}, {"aria-label", "Mixed"}, {"aria-checked", "mixed"}});
  b.el(0, body, "div", {{"role", "checkbox"}, {"aria-checked", "true"}, {"aria-label", "AriaOn"}});
  b.el(0, body, "button", {{"aria-pressed", "mixed"}, {"aria-label", "Pressed"}});
  b.el(0, body, "button", {{"aria-expanded", "true"}, {"aria-label", "Expanded"}});
  const int det = b.el(0, body, "details", {{"open", ""}});
  b.text(0, b.el(0, det, "summary"), "Open details");
  b.el(0, body, "input", {{"required", ""}, {"aria-invalid", "true"}, {"readonly", ""}, {"aria-label", "Req"}});
  const int t = b.el(0, body, "input", {{"aria-label", "Typed"}, {"value", "attr"}});
  b.rare_string(0, t, "inputValue", "typed now");
  const int sel = b.el(0, body, "select", {{"aria-label", "Sel"}});
  b.text(0, b.el(0, sel, "option"), "One");
  const int o2 = b.el(0, sel, "option");
  b.text(0, o2, "Two");
  b.flag(0, o2, "optionSelected");
  const int ta = b.el(0, body, "textarea", {{"aria-label", "Area"}});
  b.rare_string(0, ta, "textValue", "multi line");
  b.el(0, body, "div", {{"role", "tab"}, {"aria-selected", "true"}, {"aria-label", "Tab"}});
  // jQuery UI marks every tab expanded exactly when it is selected: `selected` says it. A selected
  // tab folded shut (its collapsible tabs) still says so.
  b.el(0, body, "div",
       {{"role", "tab"}, {"aria-selected", "true"}, {"aria-expanded", "true"}, {"aria-label", "Open tab"}});
  b.el(0, body, "div",
       {{"role", "tab"}, {"aria-selected", "false"}, {"aria-expanded", "false"}, {"aria-label", "Other tab"}});
  b.el(0, body, "div",
       {{"role", "tab"}, {"aria-selected", "true"}, {"aria-expanded", "false"}, {"aria-label", "Folded tab"}});
  const Snapshot s = compile_ok(b);
  CHECK(by_name(s, "Open tab")->state.selected);
  CHECK(by_name(s, "Open tab")->state.expanded == Tri::kUnset);
  CHECK(by_name(s, "Other tab")->state.expanded == Tri::kUnset);
  CHECK(by_name(s, "Folded tab")->state.expanded == Tri::kFalse);
  CHECK(by_name(s, "On")->state.checked == Tri::kTrue);
  CHECK(by_name(s, "Off")->state.checked == Tri::kFalse);
  CHECK(by_name(s, "Mixed")->state.checked == Tri::kMixed);
  CHECK(by_name(s, "AriaOn")->state.checked == Tri::kTrue);
  CHECK(by_name(s, "Pressed")->state.pressed == Tri::kMixed);
  CHECK(by_name(s, "Expanded")->state.expanded == Tri::kTrue);
  CHECK(by_name(s, "Open details")->state.expanded == Tri::kTrue);
  const ReadableNode* req = by_name(s, "Req");
  CHECK(req->state.required);
  CHECK(req->state.invalid);
  CHECK(req->state.readonly);
  CHECK(by_name(s, "Typed")->state.value == "typed now");
  CHECK(by_name(s, "Sel")->state.value == "Two");
  CHECK(by_name(s, "Sel")->state.expanded == Tri::kFalse);
  CHECK(by_name(s, "Area")->state.value == "multi line");
  CHECK(by_name(s, "Tab")->state.selected);
  CHECK_FALSE(by_name(s, "Typed")->state.focused);  // DOMSnapshot carries no focus
  // Options of a collapsed select are not separate elements: the select's value says it.
  CHECK(by_name(s, "Two") == nullptr);
}

TEST_CASE("secrets never enter the Snapshot", "[compiler][state][redaction]") {
  CaptureBuilder b;
  const int body = b.el(0, 0, "body");
  const int pw = b.el(0, body, "input", {{"type", "PassWord"}, {"aria-label", "Password"}, {"value", "attr-secret-1"}});
  b.rare_string(0, pw, "inputValue", "typed-secret-2");
  const int cc = b.el(0, body, "input", {{"autocomplete", "section-a billing cc-number"}, {"aria-label", "Card"}});
  b.rare_string(0, cc, "inputValue", "4111111111111111");
  const int otp = b.el(0, body, "input", {{"autocomplete", "one-time-code"}, {"aria-label", "Code"}});
  b.rare_string(0, otp, "inputValue", "913377");
  const int exp = b.el(0, body, "select", {{"autocomplete", "cc-exp-month"}, {"aria-label", "Month"}});
  const int opt = b.el(0, exp, "option");
  b.text(0, opt, "07-secret-month");
  b.flag(0, opt, "optionSelected");
  const int empty = b.el(0, body, "input", {{"type", "password"}, {"aria-label", "Empty"}});
  b.rare_string(0, empty, "inputValue", "");
  // A button named by the password field must not carry its value either.
  b.el(0, body, "button", {{"aria-labelledby", "x"}, {"title", "Go"}});
  const Snapshot s = compile_ok(b);
  for (const char* name : {"Password", "Card", "Code", "Month"}) {
    INFO(name);
    REQUIRE(by_name(s, name) != nullptr);
    CHECK(by_name(s, name)->state.value.empty());
    CHECK(by_name(s, name)->state.value_redacted);
  }
  CHECK_FALSE(by_name(s, "Empty")->state.value_redacted);
  // Grep everything the Snapshot holds, as text.
  const std::string all = snapshot_text(s);
  for (const char* secret : {"attr-secret-1", "typed-secret-2", "4111111111111111", "913377", "07-secret-month"}) {
    INFO(secret);
    CHECK(all.find(secret) == std::string::npos);
  }
}

TEST_CASE("sort: a column or row header's aria-sort, and no other role's", "[compiler][state]") {
  CaptureBuilder b;
  const int body = b.el(0, 0, "body");
  const int row = b.el(0, b.el(0, body, "div", {{"role", "grid"}}), "div", {{"role", "row"}});
  for (const auto& [name, sort] : std::vector<std::pair<const char*, const char*>>{{"Name", "ascending"},
                                                                                   {"Email", " DESCENDING "},
                                                                                   {"City", "other"},
                                                                                   {"Joined", "none"},
                                                                                   {"Orders", "sideways"}}) {
    const int h = b.el(0, row, "div", {{"role", "columnheader"}, {"aria-sort", sort}});
    b.flag(0, h, "isClickable");
    b.text(0, h, name);
  }
  b.el(0, body, "button", {{"aria-sort", "ascending"}, {"aria-label", "Not a header"}});
  // A table's sortable header is a th holding the button that sorts it: the button's line says it,
  // unless the header holds another control too.
  const int tr = b.el(0, b.el(0, b.el(0, body, "table"), "thead"), "tr");
  b.text(0, b.el(0, b.el(0, tr, "th", {{"aria-sort", "descending"}}), "button"), "Joined by");
  const int two = b.el(0, tr, "th", {{"aria-sort", "ascending"}});
  b.text(0, b.el(0, two, "button"), "Team");
  b.text(0, b.el(0, two, "button"), "Filter");
  const Snapshot s = compile_ok(b);
  CHECK(by_name(s, "Joined by")->state.sort == Sort::kDescending);
  CHECK(by_name(s, "Team")->state.sort == Sort::kUnset);
  CHECK(by_name(s, "Filter")->state.sort == Sort::kUnset);
  CHECK(by_name(s, "Name")->state.sort == Sort::kAscending);
  CHECK(by_name(s, "Email")->state.sort == Sort::kDescending);
  CHECK(by_name(s, "City")->state.sort == Sort::kOther);
  CHECK(by_name(s, "Joined")->state.sort == Sort::kUnset);
  CHECK(by_name(s, "Orders")->state.sort == Sort::kUnset);
  CHECK(by_name(s, "Not a header")->state.sort == Sort::kUnset);
}

TEST_CASE("aria-current marks the current page, step or item, and false or absent does not", "[compiler][state]") {
  // A nav's link to this page, a pager's page, a wizard's step (a list item: a text line).
  CaptureBuilder b;
  const int body = b.el(0, 0, "body");
  const int nav = b.el(0, body, "nav");
  b.text(0, b.el(0, nav, "a", {{"href", "/"}, {"aria-current", "page"}}), "Overview");
  b.text(0, b.el(0, nav, "a", {{"href", "/c"}, {"aria-current", "false"}}), "Customers");
  b.text(0, b.el(0, nav, "a", {{"href", "/b"}}), "Billing");
  const int steps = b.el(0, body, "ol");
  b.text(0, b.el(0, steps, "li"), "Account");
  b.text(0, b.el(0, steps, "li", {{"aria-current", "step"}}), "Address");
  b.text(0, b.el(0, body, "button", {{"aria-current", "anything"}}), "Today");  // an unknown token is true
  const Snapshot s = compile_ok(b);
  CHECK(by_name(s, "Overview")->state.current);
  CHECK_FALSE(by_name(s, "Customers")->state.current);
  CHECK_FALSE(by_name(s, "Billing")->state.current);
  CHECK_FALSE(by_name(s, "Account")->state.current);
  CHECK(by_name(s, "Address")->state.current);
  CHECK(by_name(s, "Address")->category == Category::kText);
  CHECK(by_name(s, "Today")->state.current);
}
