// A read-only JSON document built for the capture: one pass over the text, every value in one
// flat array, strings left in place in the text unless they hold escapes.
//
// Why not nlohmann::json here: a 10,000-element page is a 2.6 MB capture, and building and
// freeing nlohmann's tree of maps and small strings was two thirds of compiling it (39 of
// 61 ms native, the same share in wasm; bench/compile-times.md). This parser does the same
// validation (RFC 8259, UTF-8 checked, same error positions) in a fraction of that. nlohmann
// stays everywhere else (events, config, rendering), where inputs are small.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <type_traits>

#include "athena/error.h"

namespace athena::compiler {

class JsonDoc;

/// One JSON value. Strings view either the source text or the document's own buffer; arrays
/// and objects view their children in the document (an object's children are key, value,
/// key, value, ...). Valid for as long as the JsonDoc and the source text live.
class JsonValue {
 public:
  enum class Type : std::uint8_t { kNull, kFalse, kTrue, kInteger, kUnsigned, kFloat, kString, kArray, kObject };

  Type type() const { return type_; }
  bool is_null() const { return type_ == Type::kNull; }
  bool is_boolean() const { return type_ == Type::kFalse || type_ == Type::kTrue; }
  bool is_number() const { return type_ == Type::kInteger || type_ == Type::kUnsigned || type_ == Type::kFloat; }
  bool is_number_integer() const { return type_ == Type::kInteger || type_ == Type::kUnsigned; }
  bool is_number_unsigned() const { return type_ == Type::kUnsigned; }
  bool is_string() const { return type_ == Type::kString; }
  bool is_array() const { return type_ == Type::kArray; }
  bool is_object() const { return type_ == Type::kObject; }
  /// nlohmann's names ("null", "boolean", "number", "string", "array", "object"), which error
  /// messages have always used.
  const char* type_name() const;

  std::int64_t as_int() const { return i_; }         // kInteger
  std::uint64_t as_uint() const { return u_; }       // kUnsigned (above INT64_MAX)
  double as_double() const;                          // any number
  std::string_view str() const { return {s_, n_}; }  // kString

  /// Elements of an array (members of an object count once each).
  std::size_t size() const { return type_ == Type::kObject ? n_ / 2 : type_ == Type::kArray ? n_ : 0; }
  bool empty() const { return size() == 0; }
  const JsonValue& operator[](std::size_t i) const { return kids_[i]; }  // array element; i < size()
  /// An object's member by key (the last one if the key repeats, as nlohmann did), or nullptr.
  const JsonValue* find(std::string_view key) const;

 private:
  friend class JsonDoc;
  // No member initializers: JsonValue stays trivial, so the document's array of them is
  // allocated and copied as plain memory. `JsonValue{}` is a null.
  Type type_;
  std::uint32_t n_;  // string bytes; array elements; object keys + values
  union {
    std::int64_t i_;
    std::uint64_t u_;
    double d_;
    const char* s_;
    const JsonValue* kids_;
    std::size_t at_;  // while parsing: where the children start in JsonDoc::values_
  };
};

static_assert(std::is_trivial_v<JsonValue>, "JsonDoc copies and allocates values as plain memory");

/// A parsed document. Move-only; values point into it (and into the source text).
class JsonDoc {
 public:
  /// Parses `text` (which must outlive the document). Errors are kMalformedJson with the byte
  /// where it broke, as "<what>: not valid JSON (error at byte N of M); <fix>", with "; truncated?"
  /// after M when the text ended where more was needed.
  static Result<JsonDoc> parse(std::string_view text, std::string_view what, std::string_view fix);

  const JsonValue& root() const { return root_; }

  JsonDoc() = default;
  JsonDoc(JsonDoc&&) = default;  // values_ keeps its block, so every pointer into it stays valid
  JsonDoc& operator=(JsonDoc&&) = default;

 private:
  class Parser;
  JsonValue root_{};
  std::unique_ptr<JsonValue[]> values_;  // every value below the root, each container's children contiguous
  std::size_t size_ = 0, capacity_ = 0;  // of values_
  std::unique_ptr<char[]> unescaped_;    // strings that held escapes, decoded
};

}  // namespace athena::compiler
