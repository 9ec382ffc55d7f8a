// The one place where C++ meets JavaScript: every bound call runs inside guard(), so no C++
// exception (std::bad_alloc included) ever unwinds into the JS glue, which would leave the
// module in an unknown state. Errors cross as values: a Reply with a stable code
// (error_code_name) and a message that says what to do; the JS wrapper (athena.mjs) turns a
// non-empty code into an AthenaError.
#pragma once

#include <emscripten/bind.h>

#include <exception>
#include <new>
#include <string>
#include <utility>

#include "athena/error.h"

namespace athena::wasm {

/// What every bound method returns. `ok` false = failure (the default, so that even a Reply
/// built when memory is exhausted reads as an error; `code` may then be empty: the wrapper says
/// "internal"). On success, for a FactPack: `text` = render_text, `json` = render_json, `type` =
/// pack_type_name, `version` = its version. Other answers: `json` is the documented shape of the
/// call's answer (athena.d.ts) and `extra` anything beside a pack (beginAction's freshness).
struct Reply {
  bool ok = false;
  std::string code;
  std::string message;
  std::string type;
  double version = 0;  // JS number: exact up to 2^53, far beyond any session
  std::string text;
  std::string json;
  std::string extra;
};

/// Declares Reply to Embind as a plain JS object (each module that returns it, once).
inline void bind_reply() {
  emscripten::value_object<Reply>("Reply")
      .field("ok", &Reply::ok)
      .field("code", &Reply::code)
      .field("message", &Reply::message)
      .field("type", &Reply::type)
      .field("version", &Reply::version)
      .field("text", &Reply::text)
      .field("json", &Reply::json)
      .field("extra", &Reply::extra);
}

inline Reply error_reply(const Error& error) {
  Reply r;
  r.code = error_code_name(error.code);
  r.message = error.message;
  return r;
}

inline Reply error_reply(ErrorCode code, std::string message) {
  return error_reply(make_error(code, std::move(message)));
}

/// Runs `body` (returning a Reply) and turns anything it throws into an error Reply. After a
/// bad_alloc the engine's state is whatever the core's own guarantees leave (the core builds
/// results before committing them); the module itself stays callable.
template <typename Body>
Reply guard(const char* what, Body&& body) noexcept {
  try {
    return body();
  } catch (const std::bad_alloc&) {
    try {
      return error_reply(ErrorCode::kInputTooLarge, std::string(what) +
                                                        ": out of memory; the input or page is too large for the "
                                                        "wasm heap (close unused pages, or capture a smaller frame)");
    } catch (...) {
      return Reply{};  // not even the message fits: ok=false, no code
    }
  } catch (const std::exception& e) {
    try {
      return error_reply(ErrorCode::kInternal, std::string(what) + ": internal error (" + e.what() +
                                                   "); please report it with the input that caused it");
    } catch (...) {
      return Reply{};
    }
  } catch (...) {
    try {
      return error_reply(ErrorCode::kInternal,
                         std::string(what) + ": internal error (unknown exception); please report it");
    } catch (...) {
      return Reply{};
    }
  }
}

}  // namespace athena::wasm
