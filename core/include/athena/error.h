// Errors that cross every boundary of the core (Catch2, WASM, bridge) as values.
//
// Every code is listed once here and once in the error catalogue rules/errors.json (what it means,
// what the agent should do; docs/errors.md is generated from it, and
// tests/node/error-catalogue.test.mjs checks error_code_name's names against it); wasm/athena.d.ts
// has the names as JS sees them. Messages are written for the agent: they say what went wrong *and
// what to do next*.
// No exception ever leaves the core's public API.
#pragma once

#include <string>
#include <utility>
#include <variant>

namespace athena {

enum class ErrorCode {
  kOk = 0,
  // Input from CDP or the caller.
  kMalformedJson,     // not JSON, or truncated
  kMalformedCapture,  // JSON, but not the shape the compiler needs (wrong types, bad indices, cycles)
  kInputTooLarge,     // over limits::kMaxInputBytes
  kMalformedEvent,    // a CDP event we cannot read
  kWrongCallOrder,    // e.g. finish_action without begin_action
  // Pages.
  kUnknownPage,  // no page with this context/page index
  // Refs (resolve): each says what the agent should do.
  kMalformedRef,      // not e{n} (the grammar and its cases: rules/ref.json)
  kContextMismatch,   // ref is for another browser context
  kPageMismatch,      // ref is for another tab
  kUnknownRef,        // never issued on this page
  kRefRemoved,        // element removed (in version N)
  kDocumentReplaced,  // the frame navigated; all refs of the old document are dead
  kIdentityChanged,   // the node now is something else (was button "Save", now button "Delete")
  // Arguments (every entry point) and queries (find).
  kInvalidArgument,  // an argument of the wrong shape or range (page key, version, action info, config), or a
                     // query naming what the page does not have (role, frame, cursor ref)
  kNoSuchRegion,     // find: no region of this page has that name or label
  kInternal,
};

/// Stable, lowercase, snake_case name of a code ("ref_removed"); crosses to JS as AthenaError.code.
const char* error_code_name(ErrorCode code);

struct Error {
  ErrorCode code = ErrorCode::kInternal;
  std::string message;
};

/// A value or an Error. Deliberately tiny: the core is built with and without exceptions.
template <typename T>
class Result {
 public:
  Result(T value) : v_(std::move(value)) {}      // NOLINT(google-explicit-constructor)
  Result(Error error) : v_(std::move(error)) {}  // NOLINT(google-explicit-constructor)
  bool ok() const { return v_.index() == 0; }
  explicit operator bool() const { return ok(); }
  T& value() & { return std::get<0>(v_); }
  const T& value() const& { return std::get<0>(v_); }
  T&& value() && { return std::get<0>(std::move(v_)); }
  const Error& error() const { return std::get<1>(v_); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }

 private:
  std::variant<T, Error> v_;
};

struct Ok {};
using Status = Result<Ok>;

inline Error make_error(ErrorCode code, std::string message) {
  return Error{code, std::move(message)};
}

}  // namespace athena
