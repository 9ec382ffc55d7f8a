// Overlay detection: the deterministic rules of docs/design.md ("The page's state"), first match wins, visible only.
//   1. role dialog/alertdialog + aria-modal="true"                       -> modal    (1.0)
//   2. role dialog/alertdialog that behaves as a modal: a <dialog> opened with showModal()
//      (position: fixed, the top layer's UA style) or a rendered "backdrop" sibling
//                                                                         -> dialog   (0.9)
//      Any other dialog without aria-modal (cookie banner, chat widget) is no overlay: rules
//      3 and 4's backdrop test still apply to it, 4's z-index test does not.
//   3. [data-overlay], [data-modal] or [data-dialog]                      -> modal    (0.85)
//   4. class matches \b(modal|dialog|overlay|popup|dropdown-menu)\b and
//      (own z-index >= 1000 or a rendered sibling whose class contains "backdrop")
//                                                                         -> dropdown if the class says
//                                                                            dropdown, else modal (0.7)
//   5. (ours) a role=menu/listbox element floating in a position:absolute/fixed box within
//      kMenuFloatDepth ancestors -> dropdown (0.7). Component libraries (Shoelace's sl-dropdown,
//      sl-select) open menus in such popups with no class or z-index that rules 1-4 know.
// A dropdown (rule 4's dropdown, rule 5) needs the control that opened it: an element with
// aria-expanded="true" naming it in aria-controls/aria-owns or within the subtree of its ancestor
// kPopupTriggerDepth levels up. An always-open menu is part of the page, not an overlay.
// Roles are Chrome's (explicit or implicit: an open <dialog> is rule 2 or 1).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "athena/limits.h"
#include "athena/snapshot.h"
#include "compiler/dom_view.h"
#include "compiler/visibility.h"

namespace athena::compiler {

inline constexpr int kOverlayZIndex = 1000;   // rule 4's "high z-index"
inline constexpr int kMenuFloatDepth = 6;     // rule 5: how far up the floating box may be
inline constexpr int kPopupTriggerDepth = 6;  // dropdowns: how far up the opening control may be

/// A rule-5 dropdown's list sits in a floating box with what belongs to it (Select2's and Tom
/// Select's search field above their results): the outermost box at most kMenuFloatDepth levels
/// up that is positioned absolute or fixed, holds at most limits::kMaxPopupNodes nodes and holds
/// no opened control but the list's own (the control that opened it stays outside). -1 when no
/// box around the list is one (the list is the overlay itself).
int popup_box(const Dom& dom, int list);

struct OverlayMatch {
  OverlayType type = OverlayType::kUnknown;
  int rule = 0;  // 0: not an overlay
  double confidence = 0;
};

/// True if `cls` contains `word` delimited like a JS regex \bword\b (ASCII case-insensitive).
bool class_has_word(std::string_view cls, std::string_view word);

/// Applies rules 1-5 to element `i` (its role already computed). Visibility is the caller's job.
OverlayMatch classify_overlay(const Dom& dom, int i, std::string_view role);

/// The element's own numeric z-index style, or `fallback` when "auto"/absent.
int own_z_index(const Dom& dom, int i, int fallback);

}  // namespace athena::compiler
