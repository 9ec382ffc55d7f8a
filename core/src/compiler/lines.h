// Lines: which elements are lines of their own in a FactPack, and where they sit in the outline.
// The predicates compile_capture() asks of an element (a live region, a group, an outline list or
// item, a focus-only box, a stand-in field, a sole figure or control, a link that only scrolls);
// each is explained where it is defined (lines.cpp).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "athena/snapshot.h"
#include "compiler/dom_view.h"
#include "compiler/visibility.h"

namespace athena::compiler {

bool is_live(const Dom& dom, int i, std::string_view role, Category& cat);
bool is_group_line(const Dom& dom, int i, std::string_view role);
bool is_outline_list(const Dom& dom, int i, std::string_view role);
bool is_article(std::string_view role);
bool is_outline_item(const Dom& dom, int i, std::string_view role);
bool is_structure(const Dom& dom, int i, std::string_view role);
bool is_row(const Dom& dom, int i, std::string_view role);
bool own_words(const Dom& dom, int i);
bool plain_role(std::string_view role);
bool unnamed(const Dom& dom, const Visibility& vis, int i, std::string_view role);
bool composite_container(std::string_view role);
bool focus_only(const Dom& dom, int i, std::string_view role);
bool reading_box(const Dom& dom, const Visibility& vis, int i, std::string_view role, bool reads_below);
bool shows_value_of(const Dom& dom, int i, std::string_view role, const std::vector<char>& control);
bool stand_in(const Dom& dom, const Visibility& vis, int i, std::string_view role);
bool sole_figure(const Dom& dom, int i, const std::vector<std::string>& role);
int sole_control(const Dom& dom, int i, const std::vector<char>& control);
bool only_scrolls(const Dom& dom, int i, std::string_view role);

}  // namespace athena::compiler
